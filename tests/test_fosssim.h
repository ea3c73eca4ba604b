// SPDX-License-Identifier: MIT
// FOSSSim scene helpers shared by the FOSSSim and planar tests: the reference scenes beside the
// repository (third-party data, skipped when absent) and scenes given as text. A file that includes
// it defines _POSIX_C_SOURCE 200809L first (mkstemp).
#pragma once

#include "cairn/fosssim.h"
#include "test.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/// Where the FOSSSim reference scenes are (../shared, third-party data).
#define FOSSSIM_DIR CAIRN_SHARED_DIR "/reference/fosssim"

/// Writes text to a new temporary file: its path (valid until the next call), or NULL when it
/// cannot be written.
static inline const char* tfWriteTemp( const char* text )
{
	static char path[64];
	snprintf( path, sizeof( path ), "/tmp/cairn_fosssim_XXXXXX" );
	int fd = mkstemp( path );
	if ( fd < 0 )
	{
		return NULL;
	}
	size_t n = strlen( text );
	bool ok = write( fd, text, n ) == (ssize_t)n;
	close( fd );
	return ok ? path : NULL;
}

/// Loads a scene given as text; the temporary file is removed again. Errors go to cnGetError().
static inline cnFosssimScene* tfLoadText( const char* text )
{
	const char* path = tfWriteTemp( text );
	if ( path == NULL )
	{
		cnSetError( cnError_io, "cannot write a temporary file" );
		return NULL;
	}
	cnFosssimScene* f = cnLoadFosssim( path );
	remove( path );
	return f;
}

/// Loads the reference scene at path: NULL when the file is absent (a skipped part) or does not
/// load (a failed check, after printing why).
static inline cnFosssimScene* tfOpenReference( const char* path )
{
	if ( access( path, R_OK ) != 0 )
	{
		TEST_SKIP( "%s is absent", path );
		return NULL;
	}
	cnFosssimScene* f = cnLoadFosssim( path );
	CHECK( f != NULL );
	if ( f == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
	}
	return f;
}
