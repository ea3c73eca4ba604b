// SPDX-License-Identifier: MIT
// What `cairn view` shows (view_source.h): a recording file read once, or a scene simulated on a
// thread into a frame cache that the server's threads read under a lock.
#define _POSIX_C_SOURCE 200809L

#include "view_source.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Appends the world's frame to the cache: the frame writer of the scene's run.
static bool cliViewSource_WriteFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	(void)frame;
	cliViewSource* source = context;
	int bodyCount = ( source->stride - 1 ) / 7;
	bool ok = true;
	pthread_mutex_lock( &source->lock );
	if ( source->frameCount == source->frameCapacity )
	{
		size_t frameBytes = (size_t)source->stride * sizeof( double );
		int capacity = source->frameCapacity < 64 ? 64 : 2 * source->frameCapacity;
		// the cache is bounded, so a long scene cannot take the machine's memory
		if ( (size_t)capacity * frameBytes > CLI_VIEW_MAX_CACHE_BYTES )
		{
			capacity = (int)( CLI_VIEW_MAX_CACHE_BYTES / frameBytes );
		}
		double* cache = capacity > source->frameCount ? realloc( source->cache, (size_t)capacity * frameBytes ) : NULL;
		if ( cache == NULL )
		{
			snprintf( source->message, sizeof( source->message ),
					  "the simulation stopped at t = %.9g s: the frame cache is full (%d frames)",
					  cnWorld_GetTime( world ), source->frameCount );
			ok = false;
		}
		else
		{
			source->cache = cache;
			source->frameCapacity = capacity;
		}
	}
	if ( ok )
	{
		// the recorder's time (the world's), so frames match `cairn run --record` of the same scene
		double* out = source->cache + (size_t)source->frameCount * (size_t)source->stride;
		out[0] = cnWorld_GetTime( world );
		for ( int i = 0; i < bodyCount; ++i )
		{
			cnTransform xf = cnBody_GetTransform( world, source->bodies[i] );
			double* pose = out + 1 + 7 * i;
			pose[0] = xf.p.x;
			pose[1] = xf.p.y;
			pose[2] = xf.p.z;
			pose[3] = xf.q.w;
			pose[4] = xf.q.x;
			pose[5] = xf.q.y;
			pose[6] = xf.q.z;
		}
		source->frameCount += 1;
	}
	pthread_mutex_unlock( &source->lock );
	if ( ok == false )
	{
		cnSetError( cnError_invalidArgument, "%s", source->message );
	}
	return ok;
}

// The simulation thread: the scene's run from start to end (or until cancelled).
static void* cliViewSource_Run( void* context )
{
	cliViewSource* source = context;
	cnFrameWriter writer = { cliViewSource_WriteFrame, NULL, source };
	cnRunDef def = cnScene_GetRunDef( source->scene );
	def.writers = &writer;
	def.writerCount = 1;
	cnRunResult result = cnRun( source->scene->world, &def );
	pthread_mutex_lock( &source->lock );
	if ( result.status == cnRun_failed && source->message[0] == 0 )
	{
		snprintf( source->message, sizeof( source->message ), "the simulation failed at t = %.9g s: %s",
				  cnWorld_GetTime( source->scene->world ), cnGetError() );
	}
	else if ( result.status == cnRun_cancelled && source->message[0] == 0 )
	{
		snprintf( source->message, sizeof( source->message ), "the simulation was stopped" );
	}
	source->complete = true;
	pthread_mutex_unlock( &source->lock );
	return NULL;
}

// Describes the scene's bodies, shapes and joints as a recording of its frame 0 made in memory, so
// the server describes a scene exactly as it describes a recording (surfaces of hulls, meshes and
// heightfields included).
static cnRecording* cliViewSource_Describe( cliViewSource* source )
{
	cnWorld* world = source->scene->world;
	cnRecorderDef def = cnDefaultRecorderDef();
	def.sceneName = source->scene->name;
	def.fps = source->scene->fps;
	def.bodies = source->bodies;
	def.bodyCount = cnWorld_GetBodyCount( world );
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	cnRecording* recording = NULL;
	size_t size = 0;
	const void* bytes = NULL;
	if ( recorder != NULL && cnRecorder_AddFrame( recorder, world ) && cnRecorder_Finish( recorder ) &&
		 ( bytes = cnRecorder_GetBytes( recorder, &size ) ) != NULL )
	{
		recording = cnLoadRecordingFromMemory( bytes, size, source->scene->path );
	}
	cnDestroyRecorder( recorder );
	return recording;
}

bool cliViewSource_Open( cliViewSource* source, const char* path, int* status )
{
	memset( source, 0, sizeof( *source ) );
	pthread_mutex_init( &source->lock, NULL );
	*status = CLI_BAD_INPUT;
	if ( cnIsRecordingFile( path ) )
	{
		source->description = cnLoadRecording( path );
		if ( source->description == NULL )
		{
			cliError( "%s", cnGetError() );
			return false;
		}
		int frames = cnRecording_GetFrameCount( source->description );
		source->fps = cnRecording_GetFps( source->description );
		source->duration = frames > 0 ? cnRecording_GetFrameTime( source->description, frames - 1 ) : 0.0;
		source->frameCount = frames;
		source->complete = true;
	}
	else
	{
		source->scene = cliLoadScene( path, NULL );
		if ( source->scene == NULL )
		{
			return false;
		}
		cnWorld* world = source->scene->world;
		int bodyCount = cnWorld_GetBodyCount( world );
		source->bodies = malloc( sizeof( cnBodyId ) * (size_t)( bodyCount > 0 ? bodyCount : 1 ) );
		if ( source->bodies == NULL )
		{
			cliError( "%s: out of memory", path );
			*status = CLI_FAILURE;
			return false;
		}
		for ( int i = 0; i < bodyCount; ++i )
		{
			source->bodies[i] = cnWorld_GetBody( world, i );
		}
		source->description = cliViewSource_Describe( source );
		if ( source->description == NULL )
		{
			cliError( "%s: cannot describe the scene: %s", path, cnGetError() );
			*status = CLI_FAILURE;
			return false;
		}
		source->simulated = true;
		source->fps = source->scene->fps;
		source->duration = source->scene->duration;
	}
	source->stride = 1 + 7 * cnRecording_GetBodyCount( source->description );
	*status = CLI_OK;
	return true;
}

bool cliViewSource_Start( cliViewSource* source )
{
	if ( source->simulated == false )
	{
		return true;
	}
	if ( pthread_create( &source->thread, NULL, cliViewSource_Run, source ) != 0 )
	{
		return false;
	}
	source->threadStarted = true;
	return true;
}

void cliViewSource_Close( cliViewSource* source )
{
	if ( source->threadStarted )
	{
		// the step running now answers within one of its internal steps
		cnWorld_Cancel( source->scene->world );
		pthread_join( source->thread, NULL );
		source->threadStarted = false;
	}
	cnDestroyRecording( source->description );
	cnDestroyScene( source->scene );
	free( source->bodies );
	free( source->cache );
	pthread_mutex_destroy( &source->lock );
	memset( source, 0, sizeof( *source ) );
}

int cliViewSource_GetFrameCount( cliViewSource* source, bool* complete, char* message, size_t messageSize )
{
	pthread_mutex_lock( &source->lock );
	int count = source->frameCount;
	*complete = source->complete;
	if ( message != NULL && messageSize > 0 )
	{
		snprintf( message, messageSize, "%s", source->message );
	}
	pthread_mutex_unlock( &source->lock );
	return count;
}

int cliViewSource_CopyFrames( cliViewSource* source, int from, int count, double* out )
{
	if ( source->simulated == false )
	{
		// a recording never changes: no lock needed
		int frames = cnRecording_GetFrameCount( source->description );
		int n = from < frames ? ( count < frames - from ? count : frames - from ) : 0;
		int bodyCount = cnRecording_GetBodyCount( source->description );
		for ( int f = 0; f < n; ++f )
		{
			double* frame = out + (size_t)f * (size_t)source->stride;
			frame[0] = cnRecording_GetFrameTime( source->description, from + f );
			for ( int i = 0; i < bodyCount; ++i )
			{
				cnTransform xf = cnRecording_GetBodyTransform( source->description, from + f, i );
				double* pose = frame + 1 + 7 * i;
				pose[0] = xf.p.x;
				pose[1] = xf.p.y;
				pose[2] = xf.p.z;
				pose[3] = xf.q.w;
				pose[4] = xf.q.x;
				pose[5] = xf.q.y;
				pose[6] = xf.q.z;
			}
		}
		return n;
	}
	pthread_mutex_lock( &source->lock );
	int frames = source->frameCount;
	int n = from < frames ? ( count < frames - from ? count : frames - from ) : 0;
	if ( n > 0 )
	{
		memcpy( out, source->cache + (size_t)from * (size_t)source->stride,
				(size_t)n * (size_t)source->stride * sizeof( double ) );
	}
	pthread_mutex_unlock( &source->lock );
	return n;
}
