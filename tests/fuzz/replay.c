// SPDX-License-Identifier: MIT
// Runs fuzz inputs through a target without libFuzzer: every file of the folders (or the files)
// given on the command line, in name order. The corpus replay tests of CI (fuzz_replay_*) are this
// program linked with each target; it fails only by crashing, which the sanitizers turn into a
// report and a non-zero exit.
#define _POSIX_C_SOURCE 200809L

#include "fuzz.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cnRunFile( const char* path )
{
	FILE* f = fopen( path, "rb" );
	if ( f == NULL )
	{
		fprintf( stderr, "replay: cannot open %s\n", path );
		return 1;
	}
	uint8_t* data = NULL;
	size_t size = 0, capacity = 0;
	for ( ;; )
	{
		if ( size == capacity )
		{
			capacity = capacity > 0 ? 2 * capacity : 4096;
			uint8_t* grown = realloc( data, capacity );
			if ( grown == NULL )
			{
				free( data );
				fclose( f );
				return 1;
			}
			data = grown;
		}
		size_t n = fread( data + size, 1, capacity - size, f );
		size += n;
		if ( n == 0 )
		{
			break;
		}
	}
	fclose( f );
	LLVMFuzzerTestOneInput( data, size );
	free( data );
	return 0;
}

static int cnCompareNames( const void* a, const void* b )
{
	return strcmp( *(char* const*)a, *(char* const*)b );
}

int main( int argc, char** argv )
{
	int failures = 0, inputs = 0;
	for ( int i = 1; i < argc; ++i )
	{
		struct stat st;
		if ( stat( argv[i], &st ) != 0 )
		{
			fprintf( stderr, "replay: %s does not exist\n", argv[i] );
			return 1;
		}
		if ( S_ISDIR( st.st_mode ) == false )
		{
			failures += cnRunFile( argv[i] );
			inputs += 1;
			continue;
		}
		DIR* dir = opendir( argv[i] );
		char** names = NULL;
		int count = 0;
		for ( struct dirent* e = dir != NULL ? readdir( dir ) : NULL; e != NULL; e = readdir( dir ) )
		{
			if ( e->d_name[0] == '.' )
			{
				continue;
			}
			char** grown = realloc( names, sizeof( char* ) * (size_t)( count + 1 ) );
			if ( grown == NULL )
			{
				break;
			}
			names = grown;
			names[count] = malloc( strlen( argv[i] ) + strlen( e->d_name ) + 2 );
			sprintf( names[count], "%s/%s", argv[i], e->d_name );
			count += 1;
		}
		if ( dir != NULL )
		{
			closedir( dir );
		}
		if ( count > 1 )
		{
			qsort( names, (size_t)count, sizeof( char* ), cnCompareNames );
		}
		for ( int k = 0; k < count; ++k )
		{
			failures += cnRunFile( names[k] );
			inputs += 1;
			free( names[k] );
		}
		free( names );
	}
	printf( "replay: %d inputs, %d unreadable\n", inputs, failures );
	return failures > 0 ? 1 : 0;
}
