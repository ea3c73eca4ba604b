// SPDX-License-Identifier: MIT
// CSV output of a run (csv.h).
#include "cairn/io.h"

#include "io/io_util.h"

#include <stdlib.h>
#include <string.h>

struct cnCsvWriter
{
	cnOutputFile* file;
	const cnWorld* world;
	cnBodyId* bodies;
	int bodyCount;
	bool failed;
};

cnCsvWriterDef cnDefaultCsvWriterDef( void )
{
	cnCsvWriterDef def = { 0 };
	return def;
}

cnCsvWriter* cnCreateCsvWriter( const cnWorld* world, const cnCsvWriterDef* def )
{
	if ( world == NULL || def == NULL || ( def->bodyCount > 0 && def->bodies == NULL ) || def->bodyCount < 0 )
	{
		cnSetError( cnError_invalidArgument, "CSV writer: no world or def, or a body count without bodies" );
		return NULL;
	}
	cnCsvWriter* w = calloc( 1, sizeof( cnCsvWriter ) );
	int capacity = def->bodies != NULL ? def->bodyCount : cnWorld_GetBodyCount( world );
	if ( w == NULL || ( w->bodies = malloc( sizeof( cnBodyId ) * (size_t)( capacity > 0 ? capacity : 1 ) ) ) == NULL )
	{
		free( w );
		cnSetError( cnError_outOfMemory, "%s: out of memory", def->path != NULL ? def->path : "CSV" );
		return NULL;
	}
	w->world = world;
	if ( def->bodies != NULL )
	{
		for ( int i = 0; i < def->bodyCount; ++i )
		{
			if ( cnBody_IsValid( world, def->bodies[i] ) == false )
			{
				cnSetError( cnError_invalidId, "%s: body %d of the list is not a body of the world", def->path, i );
				cnDestroyCsvWriter( w );
				return NULL;
			}
			w->bodies[w->bodyCount++] = def->bodies[i];
		}
	}
	else
	{
		for ( int i = 0; i < capacity; ++i )
		{
			cnBodyId id = cnWorld_GetBody( world, i );
			if ( cnBody_GetType( world, id ) != cnBody_static )
			{
				w->bodies[w->bodyCount++] = id;
			}
		}
	}
	w->file = cnCreateOutputFile( def->path );
	if ( w->file == NULL )
	{
		cnDestroyCsvWriter( w );
		return NULL;
	}
	FILE* stream = cnOutputFile_GetStream( w->file );
	setvbuf( stream, NULL, _IOFBF, 1 << 16 );
	fputs( "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n", stream );
	return w;
}

bool cnCsvWriter_AddFrame( cnCsvWriter* writer, const cnWorld* world )
{
	if ( writer == NULL || writer->file == NULL || writer->failed )
	{
		return cnSetError( cnError_invalidArgument, "CSV writer: finished, failed or NULL" );
	}
	if ( world != writer->world )
	{
		writer->failed = true;
		return cnSetError( cnError_invalidArgument, "%s: frame from a different world than the writer's",
						   cnOutputFile_GetPath( writer->file ) );
	}
	FILE* file = cnOutputFile_GetStream( writer->file );
	double time = cnWorld_GetTime( world );
	for ( int i = 0; i < writer->bodyCount; ++i )
	{
		cnBodyId id = writer->bodies[i];
		if ( cnBody_IsValid( world, id ) == false )
		{
			writer->failed = true;
			return cnSetError( cnError_invalidId, "%s: written body %d was destroyed", cnOutputFile_GetPath( writer->file ),
							   i );
		}
		cnVec3 x = cnBody_GetPosition( world, id );
		cnQuat q = cnBody_GetOrientation( world, id );
		cnVec3 v = cnBody_GetLinearVelocity( world, id );
		cnVec3 w = cnBody_GetAngularVelocity( world, id );
		fprintf( file, "%.9g,", time );
		cnIoWriteCsvField( file, cnBody_GetName( world, id ) );
		fprintf( file, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", x.x, x.y, x.z, q.w, q.x,
				 q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z );
	}
	if ( ferror( file ) )
	{
		writer->failed = true;
		return cnSetError( cnError_io, "%s: write failed", cnOutputFile_GetPath( writer->file ) );
	}
	return true;
}

bool cnCsvWriter_Finish( cnCsvWriter* writer )
{
	if ( writer == NULL || writer->file == NULL )
	{
		return cnSetError( cnError_invalidArgument, "CSV writer: nothing to finish" );
	}
	return cnIoCommitFrames( writer->file, &writer->failed );
}

void cnDestroyCsvWriter( cnCsvWriter* writer )
{
	if ( writer == NULL )
	{
		return;
	}
	cnDestroyOutputFile( writer->file );
	free( writer->bodies );
	free( writer );
}

static bool cnCsvWriteFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	(void)frame;
	return cnCsvWriter_AddFrame( context, world );
}

static bool cnCsvFinish( void* context, bool complete )
{
	// an incomplete run leaves its file to cnDestroyCsvWriter, which removes it
	return complete ? cnCsvWriter_Finish( context ) : true;
}

cnFrameWriter cnCsvWriter_AsFrameWriter( cnCsvWriter* writer )
{
	cnFrameWriter w = { cnCsvWriteFrame, cnCsvFinish, writer };
	return w;
}
