// SPDX-License-Identifier: MIT
// The viewer's growable text buffer (view_text.h).
#include "view_text.h"

#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Makes room for count more bytes and the terminating zero; false once the buffer failed.
static bool cliViewText_Reserve( cliViewText* text, size_t count )
{
	if ( text->failed )
	{
		return false;
	}
	if ( count > SIZE_MAX / 2 - text->size )
	{
		text->failed = true;
		return false;
	}
	size_t needed = text->size + count + 1;
	if ( needed <= text->capacity )
	{
		return true;
	}
	size_t capacity = text->capacity < 256 ? 256 : text->capacity;
	while ( capacity < needed )
	{
		capacity *= 2;
	}
	char* data = realloc( text->data, capacity );
	if ( data == NULL )
	{
		text->failed = true;
		return false;
	}
	text->data = data;
	text->capacity = capacity;
	return true;
}

void cliViewText_Append( cliViewText* text, const char* bytes, size_t count )
{
	if ( cliViewText_Reserve( text, count ) == false )
	{
		return;
	}
	memcpy( text->data + text->size, bytes, count );
	text->size += count;
	text->data[text->size] = 0;
}

void cliViewText_Puts( cliViewText* text, const char* string )
{
	cliViewText_Append( text, string, strlen( string ) );
}

void cliViewText_Printf( cliViewText* text, const char* format, ... )
{
	char small[128];
	va_list args;
	va_start( args, format );
	int n = vsnprintf( small, sizeof( small ), format, args );
	va_end( args );
	if ( n < 0 )
	{
		text->failed = true;
		return;
	}
	if ( (size_t)n < sizeof( small ) )
	{
		cliViewText_Append( text, small, (size_t)n );
		return;
	}
	// a long line: format again straight into the buffer
	if ( cliViewText_Reserve( text, (size_t)n ) == false )
	{
		return;
	}
	va_start( args, format );
	vsnprintf( text->data + text->size, (size_t)n + 1, format, args );
	va_end( args );
	text->size += (size_t)n;
}

void cliViewText_String( cliViewText* text, const char* string )
{
	cliViewText_Append( text, "\"", 1 );
	for ( const unsigned char* c = (const unsigned char*)string; *c != 0; ++c )
	{
		if ( *c == '"' || *c == '\\' )
		{
			char escaped[2] = { '\\', (char)*c };
			cliViewText_Append( text, escaped, 2 );
		}
		else if ( *c < 0x20 || *c == 0x7f )
		{
			cliViewText_Printf( text, "\\u%04x", *c );
		}
		else
		{
			// bytes of UTF-8 pass as they are; a browser's decoder replaces invalid sequences
			cliViewText_Append( text, (const char*)c, 1 );
		}
	}
	cliViewText_Append( text, "\"", 1 );
}

void cliViewText_Number( cliViewText* text, double value )
{
	if ( isfinite( value ) == false )
	{
		cliViewText_Puts( text, "null" );
		return;
	}
	// the shortest of 15, 16 or 17 digits that reads back as the same double: exact, and 0.4 stays
	// "0.4" rather than "0.40000000000000002" (-0 prints as "-0", which JSON allows)
	char digits[32];
	for ( int precision = 15; precision <= 17; ++precision )
	{
		snprintf( digits, sizeof( digits ), "%.*g", precision, value );
		if ( precision == 17 || strtod( digits, NULL ) == value )
		{
			break;
		}
	}
	cliViewText_Puts( text, digits );
}

void cliViewText_Short( cliViewText* text, double value )
{
	if ( isfinite( value ) == false )
	{
		cliViewText_Puts( text, "null" );
		return;
	}
	cliViewText_Printf( text, "%.9g", value );
}

char* cliViewText_Take( cliViewText* text, size_t* size )
{
	char* data = text->failed ? NULL : text->data;
	*size = text->failed ? 0 : text->size;
	if ( text->failed )
	{
		free( text->data );
	}
	if ( data == NULL && text->failed == false )
	{
		// nothing was appended: an empty string the caller can still free
		data = calloc( 1, 1 );
	}
	text->data = NULL;
	text->size = 0;
	text->capacity = 0;
	text->failed = false;
	return data;
}

void cliViewText_Free( cliViewText* text )
{
	free( text->data );
	text->data = NULL;
	text->size = 0;
	text->capacity = 0;
}
