// SPDX-License-Identifier: MIT
// The fuzz targets' scratch file: one per process and extension, rewritten for every input.
#define _POSIX_C_SOURCE 200809L

#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <unistd.h>

// the scratch files made so far (one per extension), removed when the process ends
static char cnFuzzPaths[4][256];
static int cnFuzzPathCount = 0;

static void cnFuzzRemoveFiles( void )
{
	for ( int i = 0; i < cnFuzzPathCount; ++i )
	{
		remove( cnFuzzPaths[i] );
	}
}

const char* cnFuzzWriteFile( const uint8_t* data, size_t size, const char* extension )
{
	char path[256];
	const char* dir = getenv( "TMPDIR" );
	snprintf( path, sizeof( path ), "%s/cairn-fuzz-%ld%s", dir != NULL ? dir : "/tmp", (long)getpid(), extension );
	int slot = 0;
	while ( slot < cnFuzzPathCount && strcmp( cnFuzzPaths[slot], path ) != 0 )
	{
		slot += 1;
	}
	if ( slot == cnFuzzPathCount )
	{
		if ( slot == 4 )
		{
			return NULL;
		}
		if ( cnFuzzPathCount == 0 )
		{
			atexit( cnFuzzRemoveFiles );
		}
		memcpy( cnFuzzPaths[slot], path, sizeof( path ) );
		cnFuzzPathCount += 1;
	}
	FILE* f = fopen( path, "wb" );
	if ( f == NULL )
	{
		return NULL;
	}
	bool ok = fwrite( data, 1, size, f ) == size;
	ok = fclose( f ) == 0 && ok;
	return ok ? cnFuzzPaths[slot] : NULL;
}
