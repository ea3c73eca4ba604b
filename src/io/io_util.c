// SPDX-License-Identifier: MIT
// Small pieces libcairn_io's files share (io_util.h).
#include "io/io_util.h"

#include <stdlib.h>
#include <string.h>

char* cnIoCopyBytes( const char* s, size_t length )
{
	char* copy = malloc( length + 1 );
	if ( copy != NULL )
	{
		memcpy( copy, s, length );
		copy[length] = 0;
	}
	return copy;
}

char* cnIoCopyString( const char* s )
{
	return s != NULL ? cnIoCopyBytes( s, strlen( s ) ) : NULL;
}
