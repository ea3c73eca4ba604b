// SPDX-License-Identifier: MIT
// Snapshot files: cnWorld_Save's bytes in a file that appears only complete, and back.
#include "io_util.h"

#include "cairn/io.h"

#include <stdlib.h>
#include <string.h>

bool cnSaveSnapshot( const cnWorld* world, const char* path )
{
	if ( path == NULL || path[0] == 0 )
	{
		return cnSetError( cnError_invalidArgument, "snapshot: no file name given" );
	}
	void* data = NULL;
	size_t size = 0;
	if ( cnWorld_Save( world, &data, &size ) == false )
	{
		char why[1024];
		snprintf( why, sizeof( why ), "%s", cnGetError() );
		return cnSetError( cnGetErrorCode(), "%s: %s", path, why );
	}
	cnOutputFile* file = cnCreateOutputFile( path );
	if ( file == NULL )
	{
		cnFree( data );
		return false;
	}
	fwrite( data, 1, size, cnOutputFile_GetStream( file ) );
	cnFree( data );
	bool ok = cnOutputFile_Commit( file );
	cnDestroyOutputFile( file );
	if ( ok )
	{
		cnClearError();
	}
	return ok;
}

cnWorld* cnLoadSnapshot( const char* path )
{
	if ( path == NULL )
	{
		cnSetError( cnError_invalidArgument, "snapshot: no file name given" );
		return NULL;
	}
	size_t size = 0;
	char* data = cnIoReadFile( path, &size );
	if ( data == NULL )
	{
		return NULL;
	}
	cnWorld* world = cnWorld_Load( data, size );
	free( data );
	if ( world == NULL )
	{
		char why[1024];
		snprintf( why, sizeof( why ), "%s", cnGetError() );
		cnSetError( cnError_invalidArgument, "%s: %s", path, why );
	}
	return world;
}

bool cnIsSnapshotFile( const char* path )
{
	FILE* f = path != NULL ? fopen( path, "rb" ) : NULL;
	if ( f == NULL )
	{
		return false;
	}
	char head[8];
	bool yes = fread( head, 1, 8, f ) == 8 && memcmp( head, "CAIRNSNP", 8 ) == 0;
	fclose( f );
	return yes;
}
