// SPDX-License-Identifier: MIT
// The calling thread's error state (error.h).
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// One per thread: the library's only mutable state outside its objects (documented in cairn.h).
static _Thread_local cnErrorCode s_code = cnError_none;
static _Thread_local char s_message[1024];

bool cnSetError( cnErrorCode code, const char* format, ... )
{
	va_list args;
	va_start( args, format );
	vsnprintf( s_message, sizeof( s_message ), format, args );
	va_end( args );
	s_code = code;
	return false;
}

void cnPrefixError( const char* format, ... )
{
	char prefix[512];
	va_list args;
	va_start( args, format );
	int n = vsnprintf( prefix, sizeof( prefix ), format, args );
	va_end( args );
	if ( n <= 0 )
	{
		return;
	}
	size_t p = (size_t)n < sizeof( prefix ) ? (size_t)n : sizeof( prefix ) - 1;
	size_t m = strlen( s_message );
	if ( p + m >= sizeof( s_message ) )
	{
		m = sizeof( s_message ) - 1 - p;
	}
	// shift the message right by the prefix (the tail is cut when it no longer fits)
	memmove( s_message + p, s_message, m );
	memcpy( s_message, prefix, p );
	s_message[p + m] = 0;
}

void cnClearError( void )
{
	s_code = cnError_none;
	s_message[0] = 0;
}

cnErrorCode cnGetErrorCode( void )
{
	return s_code;
}

const char* cnGetError( void )
{
	return s_message;
}

const char* cnErrorCodeName( cnErrorCode code )
{
	switch ( code )
	{
		case cnError_none:
			return "none";
		case cnError_invalidArgument:
			return "invalid argument";
		case cnError_invalidId:
			return "invalid id";
		case cnError_badInput:
			return "bad input";
		case cnError_io:
			return "input/output";
		case cnError_outOfMemory:
			return "out of memory";
		case cnError_stepFailed:
			return "step failed";
		case cnError_cancelled:
			return "cancelled";
		case cnError_unsupported:
			return "unsupported";
		case cnError_unstable:
			return "unstable";
	}
	return "unknown";
}
