// SPDX-License-Identifier: MIT
// Output files that appear only complete (io.h): written as "PATH.tmp", renamed on commit.
#include "io/io_util.h"

#include "cairn/io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct cnOutputFile
{
	FILE* stream;
	char* path;
	char* tempPath;
	bool committed;
};

cnOutputFile* cnCreateOutputFile( const char* path )
{
	if ( path == NULL || path[0] == 0 )
	{
		cnSetError( cnError_invalidArgument, "output file: no file name given" );
		return NULL;
	}
	cnOutputFile* file = calloc( 1, sizeof( cnOutputFile ) );
	size_t length = strlen( path );
	char* temp = malloc( length + 5 );
	if ( file == NULL || temp == NULL || ( file->path = cnIoCopyString( path ) ) == NULL )
	{
		free( temp );
		free( file );
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		return NULL;
	}
	memcpy( temp, path, length );
	memcpy( temp + length, ".tmp", 5 );
	file->tempPath = temp;
	file->stream = fopen( temp, "wb" );
	if ( file->stream == NULL )
	{
		cnSetError( cnError_io, "%s: cannot write: %s", temp, strerror( errno ) );
		free( file->path );
		free( file->tempPath );
		free( file );
		return NULL;
	}
	cnClearError();
	return file;
}

FILE* cnOutputFile_GetStream( cnOutputFile* file )
{
	return file != NULL ? file->stream : NULL;
}

const char* cnOutputFile_GetPath( const cnOutputFile* file )
{
	return file != NULL ? file->path : "";
}

bool cnOutputFile_Commit( cnOutputFile* file )
{
	if ( file == NULL || file->stream == NULL )
	{
		return cnSetError( cnError_invalidArgument, "output file: nothing to commit" );
	}
	bool ok = fflush( file->stream ) == 0 && ferror( file->stream ) == 0;
	// fclose can report a delayed write error (a full disk), so its result counts too
	ok = fclose( file->stream ) == 0 && ok;
	file->stream = NULL;
	if ( ok == false )
	{
		remove( file->tempPath );
		return cnSetError( cnError_io, "%s: write failed", file->tempPath );
	}
	if ( rename( file->tempPath, file->path ) != 0 )
	{
		// some systems do not replace an existing file on rename
		remove( file->path );
		if ( rename( file->tempPath, file->path ) != 0 )
		{
			int e = errno;
			remove( file->tempPath );
			return cnSetError( cnError_io, "%s: cannot rename %s to it: %s", file->path, file->tempPath, strerror( e ) );
		}
	}
	file->committed = true;
	cnClearError();
	return true;
}

void cnDestroyOutputFile( cnOutputFile* file )
{
	if ( file == NULL )
	{
		return;
	}
	if ( file->stream != NULL )
	{
		fclose( file->stream );
	}
	if ( file->committed == false )
	{
		remove( file->tempPath );
	}
	free( file->path );
	free( file->tempPath );
	free( file );
}
