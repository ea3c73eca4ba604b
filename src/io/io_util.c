// SPDX-License-Identifier: MIT
// Small pieces libcairn_io's files share (io_util.h).
#include "io/io_util.h"

#include "cairn/cairn.h"

#include <errno.h>
#include <stdio.h>
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

char* cnIoReadFile( const char* path, size_t* size )
{
	FILE* file = fopen( path, "rb" );
	if ( file == NULL )
	{
		cnSetError( cnError_io, "%s: cannot open: %s", path, strerror( errno ) );
		return NULL;
	}
	size_t length = 0, capacity = 1 << 16;
	char* data = malloc( capacity );
	bool readError = false;
	while ( data != NULL )
	{
		size_t n = fread( data + length, 1, capacity - length - 1, file );
		length += n;
		if ( n == 0 )
		{
			readError = ferror( file ) != 0;
			break;
		}
		if ( length + 1 == capacity )
		{
			char* larger = capacity < SIZE_MAX / 2 ? realloc( data, 2 * capacity ) : NULL;
			if ( larger == NULL )
			{
				free( data );
				data = NULL;
				break;
			}
			data = larger;
			capacity *= 2;
		}
	}
	int readErrno = errno;
	fclose( file );
	if ( data == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		return NULL;
	}
	if ( readError )
	{
		free( data );
		cnSetError( cnError_io, "%s: cannot read: %s", path, strerror( readErrno ) );
		return NULL;
	}
	data[length] = 0;
	*size = length;
	return data;
}

void cnIoWriteCsvField( FILE* file, const char* text )
{
	if ( strpbrk( text, ",\"\r\n" ) == NULL )
	{
		fputs( text, file );
		return;
	}
	fputc( '"', file );
	for ( const char* c = text; *c != 0; ++c )
	{
		if ( *c == '"' )
		{
			fputc( '"', file );
		}
		fputc( *c, file );
	}
	fputc( '"', file );
}

bool cnIoCommitFrames( cnOutputFile* file, bool* failed )
{
	if ( *failed )
	{
		return cnSetError( cnError_io, "%s: a frame failed, nothing written", cnOutputFile_GetPath( file ) );
	}
	bool ok = cnOutputFile_Commit( file );
	*failed = ok == false;
	return ok;
}
