// SPDX-License-Identifier: MIT
// CSV output of a run's joints (csv.h): per frame one row per joint with its errors, its reaction
// on body B and whether it broke, as the library measured them in the frame's last step.
#include "cairn/io.h"

#include "io/io_util.h"

#include <stdlib.h>

struct cnJointCsvWriter
{
	cnOutputFile* file;
	const cnWorld* world;
	cnJointId* joints;
	int jointCount;
	bool failed;
};

cnJointCsvWriterDef cnDefaultJointCsvWriterDef( void )
{
	cnJointCsvWriterDef def = { 0 };
	return def;
}

cnJointCsvWriter* cnCreateJointCsvWriter( const cnWorld* world, const cnJointCsvWriterDef* def )
{
	if ( world == NULL || def == NULL || ( def->jointCount > 0 && def->joints == NULL ) || def->jointCount < 0 )
	{
		cnSetError( cnError_invalidArgument, "joint CSV writer: no world or def, or a joint count without joints" );
		return NULL;
	}
	cnJointCsvWriter* w = calloc( 1, sizeof( cnJointCsvWriter ) );
	int capacity = def->joints != NULL ? def->jointCount : cnWorld_GetJointCount( world );
	if ( w == NULL ||
		 ( w->joints = malloc( sizeof( cnJointId ) * (size_t)( capacity > 0 ? capacity : 1 ) ) ) == NULL )
	{
		free( w );
		cnSetError( cnError_outOfMemory, "%s: out of memory", def->path != NULL ? def->path : "joint CSV" );
		return NULL;
	}
	w->world = world;
	for ( int i = 0; i < capacity; ++i )
	{
		cnJointId id = def->joints != NULL ? def->joints[i] : cnWorld_GetJoint( world, i );
		if ( cnJoint_IsValid( world, id ) == false )
		{
			cnSetError( cnError_invalidId, "%s: joint %d of the list is not a joint of the world",
						def->path != NULL ? def->path : "joint CSV", i );
			cnDestroyJointCsvWriter( w );
			return NULL;
		}
		w->joints[w->jointCount++] = id;
	}
	w->file = cnCreateOutputFile( def->path );
	if ( w->file == NULL )
	{
		cnDestroyJointCsvWriter( w );
		return NULL;
	}
	FILE* stream = cnOutputFile_GetStream( w->file );
	setvbuf( stream, NULL, _IOFBF, 1 << 16 );
	fputs( "time,joint,type,linear_error,angular_error,fx,fy,fz,tx,ty,tz,broken\n", stream );
	return w;
}

bool cnJointCsvWriter_AddFrame( cnJointCsvWriter* writer, const cnWorld* world )
{
	if ( writer == NULL || writer->file == NULL || writer->failed )
	{
		return cnSetError( cnError_invalidArgument, "joint CSV writer: finished, failed or NULL" );
	}
	if ( world != writer->world )
	{
		writer->failed = true;
		return cnSetError( cnError_invalidArgument, "%s: frame from a different world than the writer's",
						   cnOutputFile_GetPath( writer->file ) );
	}
	FILE* file = cnOutputFile_GetStream( writer->file );
	double time = cnWorld_GetTime( world );
	for ( int i = 0; i < writer->jointCount; ++i )
	{
		cnJointId id = writer->joints[i];
		if ( cnJoint_IsValid( world, id ) == false )
		{
			writer->failed = true;
			return cnSetError( cnError_invalidId, "%s: written joint %d was destroyed",
							   cnOutputFile_GetPath( writer->file ), i );
		}
		cnVec3 f = cnJoint_GetReactionForce( world, id );
		cnVec3 t = cnJoint_GetReactionTorque( world, id );
		fprintf( file, "%.9g,", time );
		cnIoWriteCsvField( file, cnJoint_GetName( world, id ) );
		fprintf( file, ",%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d\n", cnJointType_GetName( cnJoint_GetType( world, id ) ),
				 cnJoint_GetLinearError( world, id ), cnJoint_GetAngularError( world, id ), f.x, f.y, f.z, t.x, t.y, t.z,
				 cnJoint_IsBroken( world, id ) ? 1 : 0 );
	}
	if ( ferror( file ) )
	{
		writer->failed = true;
		return cnSetError( cnError_io, "%s: write failed", cnOutputFile_GetPath( writer->file ) );
	}
	return true;
}

bool cnJointCsvWriter_Finish( cnJointCsvWriter* writer )
{
	if ( writer == NULL || writer->file == NULL )
	{
		return cnSetError( cnError_invalidArgument, "joint CSV writer: nothing to finish" );
	}
	return cnIoCommitFrames( writer->file, &writer->failed );
}

void cnDestroyJointCsvWriter( cnJointCsvWriter* writer )
{
	if ( writer == NULL )
	{
		return;
	}
	cnDestroyOutputFile( writer->file );
	free( writer->joints );
	free( writer );
}

static bool cnJointCsvWriteFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	(void)frame;
	return cnJointCsvWriter_AddFrame( context, world );
}

static bool cnJointCsvFinish( void* context, bool complete )
{
	// an incomplete run leaves its file to cnDestroyJointCsvWriter, which removes it
	return complete ? cnJointCsvWriter_Finish( context ) : true;
}

cnFrameWriter cnJointCsvWriter_AsFrameWriter( cnJointCsvWriter* writer )
{
	cnFrameWriter w = { cnJointCsvWriteFrame, cnJointCsvFinish, writer };
	return w;
}
