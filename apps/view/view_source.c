// SPDX-License-Identifier: MIT
// What `cairn view` shows (view_source.h): a recording file read once, or a scene simulated on a
// thread into a frame cache that the server's threads read under a lock.
#define _POSIX_C_SOURCE 200809L

#include "view_source.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Reads the world's touching manifolds into the source's own array (the simulation thread's, outside
// the lock); returns how many, 0 when memory runs out (contact points are for the eye: the run goes
// on without them).
static int cliViewSource_ReadManifolds( cliViewSource* source, const cnWorld* world )
{
	int count = cnWorld_GetContactData( world, NULL, 0 );
	if ( count > source->manifoldCapacity )
	{
		int capacity = count < 64 ? 64 : count + count / 2;
		cnContactData* grown = realloc( source->manifolds, (size_t)capacity * sizeof( cnContactData ) );
		if ( grown == NULL )
		{
			return 0;
		}
		source->manifolds = grown;
		source->manifoldCapacity = capacity;
	}
	count = count > 0 ? cnWorld_GetContactData( world, source->manifolds, source->manifoldCapacity ) : 0;
	return count < 0 ? 0 : count;
}

// Appends the points of the frame's manifolds (source->manifolds, manifoldCount of them) to the
// contact cache (under the lock); false when the cache cannot grow.
static bool cliViewSource_AddContacts( cliViewSource* source, int manifoldCount )
{
	// a cut (cliViewSource_Restart) dropped the frames from this one on: their points go with them
	source->contactCount = source->contactStart[source->frameCount];
	size_t pointCount = 0;
	for ( int i = 0; i < manifoldCount; ++i )
	{
		pointCount += (size_t)source->manifolds[i].pointCount;
	}
	size_t need = source->contactCount + pointCount;
	if ( need > source->contactCapacity )
	{
		size_t capacity = source->contactCapacity < 256 ? 256 : 2 * source->contactCapacity;
		capacity = capacity < need ? need : capacity;
		size_t most = CLI_VIEW_MAX_CACHE_BYTES / ( 4 * CLI_VIEW_CONTACT_NUMBERS * sizeof( double ) );
		capacity = capacity > most ? most : capacity;
		double* grown = capacity >= need ? realloc( source->contactPoints,
													 capacity * CLI_VIEW_CONTACT_NUMBERS * sizeof( double ) )
										 : NULL;
		if ( grown == NULL )
		{
			return false;
		}
		source->contactPoints = grown;
		source->contactCapacity = capacity;
	}
	for ( int i = 0; i < manifoldCount; ++i )
	{
		const cnContactData* m = source->manifolds + i;
		for ( int j = 0; j < m->pointCount; ++j )
		{
			const cnContactPointData* p = m->points + j;
			double* out = source->contactPoints + source->contactCount * CLI_VIEW_CONTACT_NUMBERS;
			out[0] = p->point.x;
			out[1] = p->point.y;
			out[2] = p->point.z;
			out[3] = p->normal.x;
			out[4] = p->normal.y;
			out[5] = p->normal.z;
			out[6] = p->separation;
			out[7] = p->normalImpulse;
			source->contactCount += 1;
		}
	}
	source->contactStart[source->frameCount + 1] = source->contactCount;
	return true;
}

// Snapshots the world at a frame that is due one (the source's lock held). A snapshot that cannot be
// taken is counted in the history (GET /api/sync reports it) and said once on the console; the run
// goes on, and a cut near that frame starts from an earlier snapshot.
static void cliViewSource_Snapshot( cliViewSource* source, const cnWorld* world, int frame )
{
	if ( cliViewHistory_OnFrame( &source->history, world, frame ) == false && source->history.snapshotFailures == 1 )
	{
		fprintf( stderr, "cairn view: %s (cuts near it start from an earlier frame)\n", source->history.snapshotError );
	}
}

// Appends the world's frame to the cache: the frame writer of the scene's run.
static bool cliViewSource_WriteFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	(void)frame;
	cliViewSource* source = context;
	int bodyCount = ( source->stride - 1 ) / 7;
	bool ok = true;
	int manifoldCount = cliViewSource_ReadManifolds( source, world );
	pthread_mutex_lock( &source->lock );
	if ( source->frameCount == source->frameCapacity )
	{
		// the poses and the bodies' velocities and energies count against the cache's bound
		size_t frameBytes = (size_t)( source->stride + CLI_VIEW_BODY_NUMBERS * bodyCount ) * sizeof( double );
		int capacity = source->frameCapacity < 64 ? 64 : 2 * source->frameCapacity;
		// the cache is bounded, so a long scene cannot take the machine's memory
		if ( (size_t)capacity * frameBytes > CLI_VIEW_MAX_CACHE_BYTES )
		{
			capacity = (int)( CLI_VIEW_MAX_CACHE_BYTES / frameBytes );
		}
		double* cache = capacity > source->frameCount
							? realloc( source->cache, (size_t)capacity * (size_t)source->stride * sizeof( double ) )
							: NULL;
		source->cache = cache != NULL ? cache : source->cache;
		// the measured quantities and the contact points' index grow with the frames
		double* quantities = cache != NULL ? realloc( source->quantities, (size_t)capacity * sizeof( double ) *
																			   CLI_VIEW_QUANTITY_COUNT )
										   : NULL;
		source->quantities = quantities != NULL ? quantities : source->quantities;
		size_t* starts = quantities != NULL ? realloc( source->contactStart, (size_t)( capacity + 1 ) * sizeof( size_t ) ) : NULL;
		source->contactStart = starts != NULL ? starts : source->contactStart;
		size_t stateBytes = (size_t)capacity * (size_t)( CLI_VIEW_BODY_NUMBERS * bodyCount ) * sizeof( double );
		double* states = starts != NULL ? realloc( source->bodyStates, stateBytes > 0 ? stateBytes : 1 ) : NULL;
		source->bodyStates = states != NULL ? states : source->bodyStates;
		if ( states == NULL )
		{
			snprintf( source->message, sizeof( source->message ),
					  "the simulation stopped at t = %.9g s: the frame cache is full (%d frames)",
					  cnWorld_GetTime( world ), source->frameCount );
			ok = false;
		}
		else
		{
			source->frameCapacity = capacity;
			source->contactStart[0] = 0;
		}
	}
	if ( ok && cliViewSource_AddContacts( source, manifoldCount ) == false )
	{
		snprintf( source->message, sizeof( source->message ),
				  "the simulation stopped at t = %.9g s: the contact points fill the cache (%d frames)",
				  cnWorld_GetTime( world ), source->frameCount );
		ok = false;
	}
	if ( ok )
	{
		// the recorder's time (the world's), so frames match `cairn run --record` of the same scene
		double* out = source->cache + (size_t)source->frameCount * (size_t)source->stride;
		out[0] = cnWorld_GetTime( world );
		for ( int i = 0; i < bodyCount; ++i )
		{
			double* pose = out + 1 + 7 * i;
			if ( cnBody_IsValid( world, source->bodies[i] ) == false )
			{
				// a body deleted at a cut, or added at a later one: a zero quaternion, not drawn, where
				// it was last (its position keeps the page's trail in place)
				const double* before = source->frameCount > 0 ? pose - source->stride : NULL;
				for ( int k = 0; k < 7; ++k )
				{
					pose[k] = k < 3 && before != NULL ? before[k] : 0.0;
				}
				continue;
			}
			cnTransform xf = cnBody_GetTransform( world, source->bodies[i] );
			pose[0] = xf.p.x;
			pose[1] = xf.p.y;
			pose[2] = xf.p.z;
			pose[3] = xf.q.w;
			pose[4] = xf.q.x;
			pose[5] = xf.q.y;
			pose[6] = xf.q.z;
		}
		// what the page plots: the world's energies and momentum at the frame, through the public API
		double* q = source->quantities + (size_t)source->frameCount * CLI_VIEW_QUANTITY_COUNT;
		cnVec3 momentum = cnWorld_GetLinearMomentum( world );
		q[0] = cnWorld_GetKineticEnergy( world );
		q[1] = cnWorld_GetPotentialEnergy( world );
		q[2] = momentum.x;
		q[3] = momentum.y;
		q[4] = momentum.z;
		cnVec3 angular = cnWorld_GetAngularMomentum( world, cnVec3_zero );
		q[5] = angular.x;
		q[6] = angular.y;
		q[7] = angular.z;
		// and each body's, for the picked body's panel: velocities, energies and angular momentum as the
		// world has them
		// (the potential energy as cnWorld_GetPotentialEnergy counts it: -m g.x of the centre of mass
		// of a dynamic body, with its gravity scale)
		cnVec3 gravity = cnWorld_GetGravity( world );
		double* states = source->bodyStates + (size_t)source->frameCount * (size_t)( CLI_VIEW_BODY_NUMBERS * bodyCount );
		for ( int i = 0; i < bodyCount; ++i )
		{
			cnBodyId id = source->bodies[i];
			if ( cnBody_IsValid( world, id ) == false )
			{
				memset( states + (size_t)i * CLI_VIEW_BODY_NUMBERS, 0, CLI_VIEW_BODY_NUMBERS * sizeof( double ) );
				continue;
			}
			cnVec3 v = cnBody_GetLinearVelocity( world, id );
			cnVec3 w = cnBody_GetAngularVelocity( world, id );
			double mass = cnBody_GetMass( world, id );
			double potential = 0.0;
			if ( cnBody_GetType( world, id ) == cnBody_dynamic )
			{
				potential = -mass * cnBody_GetGravityScale( world, id ) *
							cnDot( gravity, cnBody_GetWorldCenterOfMass( world, id ) );
			}
			double* b = states + (size_t)i * CLI_VIEW_BODY_NUMBERS;
			b[0] = v.x;
			b[1] = v.y;
			b[2] = v.z;
			b[3] = w.x;
			b[4] = w.y;
			b[5] = w.z;
			b[6] = cnBody_GetKineticEnergy( world, id );
			b[7] = potential;
			b[8] = mass;
			// angular momentum about the centre of mass (I_world w) and about the origin (+ c x m v)
			cnVec3 spin = cnBody_GetAngularMomentum( world, id, cnBody_GetWorldCenterOfMass( world, id ) );
			cnVec3 about = cnBody_GetAngularMomentum( world, id, cnVec3_zero );
			b[9] = spin.x;
			b[10] = spin.y;
			b[11] = spin.z;
			b[12] = about.x;
			b[13] = about.y;
			b[14] = about.z;
		}
		// a snapshot every few frames, so a cut can make any frame's world again
		cliViewSource_Snapshot( source, world, source->frameCount );
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
	// after a cut the world starts at the cut's time: the run goes on to the scene's end (steps of
	// the same size, so its frames fall on those a run from 0 makes)
	double left = def.duration - cnWorld_GetTime( source->scene->world );
	def.duration = left > 0.0 ? left : 0.0;
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

cnRecording* cliViewSource_Describe( const cnScene* scene, const cnBodyId* bodies )
{
	cnWorld* world = scene->world;
	cnRecorderDef def = cnDefaultRecorderDef();
	def.sceneName = scene->name;
	def.fps = scene->fps;
	def.bodies = bodies;
	def.bodyCount = cnWorld_GetBodyCount( world );
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	cnRecording* recording = NULL;
	size_t size = 0;
	const void* bytes = NULL;
	if ( recorder != NULL && cnRecorder_AddFrame( recorder, world ) && cnRecorder_Finish( recorder ) &&
		 ( bytes = cnRecorder_GetBytes( recorder, &size ) ) != NULL )
	{
		recording = cnLoadRecordingFromMemory( bytes, size, scene->path );
	}
	cnDestroyRecorder( recorder );
	return recording;
}

// Takes a loaded scene as the source's (owned from here on, also on failure): its bodies, their
// description and method. False with the reason in error when memory runs out.
static bool cliViewSource_Adopt( cliViewSource* source, cnScene* scene, char* error, size_t errorSize )
{
	source->scene = scene;
	cnWorld* world = scene->world;
	int bodyCount = cnWorld_GetBodyCount( world );
	source->bodies = malloc( sizeof( cnBodyId ) * (size_t)( bodyCount > 0 ? bodyCount : 1 ) );
	if ( source->bodies == NULL )
	{
		snprintf( error, errorSize, "%s: out of memory", scene->path );
		return false;
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		source->bodies[i] = cnWorld_GetBody( world, i );
	}
	source->description = cliViewSource_Describe( scene, source->bodies );
	if ( source->description == NULL )
	{
		snprintf( error, errorSize, "%s: cannot describe the scene: %s", scene->path, cnGetError() );
		return false;
	}
	source->simulated = true;
	snprintf( source->method, sizeof( source->method ), "%s", cnMethod_GetName( cnWorld_GetDef( world ).method ) );
	source->fps = scene->fps;
	source->duration = scene->duration;
	source->stride = 1 + 7 * cnRecording_GetBodyCount( source->description );
	return true;
}

bool cliViewSource_OpenScene( cliViewSource* source, cnScene* scene, char* error, size_t errorSize )
{
	memset( source, 0, sizeof( *source ) );
	pthread_mutex_init( &source->lock, NULL );
	cliViewHistory_Init( &source->history );
	return cliViewSource_Adopt( source, scene, error, errorSize );
}

void cliViewSource_Replace( cliViewSource* source, cliViewSource* fresh )
{
	cliViewSource_Close( source );
	// a mutex may not be copied: the moved source gets one of its own (fresh's was never locked)
	pthread_mutex_destroy( &fresh->lock );
	*source = *fresh;
	pthread_mutex_init( &source->lock, NULL );
	memset( fresh, 0, sizeof( *fresh ) );
}

bool cliViewSource_Open( cliViewSource* source, const char* path, int* status )
{
	return cliViewSource_OpenWithMethod( source, path, NULL, status );
}

bool cliViewSource_OpenWithMethod( cliViewSource* source, const char* path, const char* method, int* status )
{
	memset( source, 0, sizeof( *source ) );
	pthread_mutex_init( &source->lock, NULL );
	cliViewHistory_Init( &source->history );
	*status = CLI_BAD_INPUT;
	if ( cnIsRecordingFile( path ) && method != NULL )
	{
		cliError( "%s: a recording was simulated once, in one method: --compare needs a scene", path );
		return false;
	}
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
		source->stride = 1 + 7 * cnRecording_GetBodyCount( source->description );
	}
	else
	{
		cnScene* scene = cliLoadScene( path, method );
		if ( scene == NULL )
		{
			return false;
		}
		char error[600];
		if ( cliViewSource_Adopt( source, scene, error, sizeof( error ) ) == false )
		{
			cliError( "%s", error );
			*status = CLI_FAILURE;
			return false;
		}
	}
	*status = CLI_OK;
	return true;
}

bool cliViewSource_Start( cliViewSource* source )
{
	if ( source->simulated == false )
	{
		return true;
	}
	// under the lock: a cut on a server thread (cliViewSource_Restart) reads these
	pthread_mutex_lock( &source->lock );
	bool started = pthread_create( &source->thread, NULL, cliViewSource_Run, source ) == 0;
	source->threadStarted = started;
	pthread_mutex_unlock( &source->lock );
	return started;
}

bool cliViewSource_Restart( cliViewSource* source, cnWorld* world, int frame, cnBodyId* bodies, int bodyCount,
							cnRecording* description )
{
	pthread_mutex_lock( &source->lock );
	bool started = source->threadStarted;
	pthread_t thread = source->thread;
	source->threadStarted = false;
	pthread_mutex_unlock( &source->lock );
	if ( started )
	{
		// (outside the lock: the run takes it to write its frames)
		cnWorld_Cancel( source->scene->world );
		pthread_join( thread, NULL );
	}
	bool set = bodies == NULL || cliViewSource_SetBodies( source, bodies, bodyCount, description, world, frame );
	if ( set == false )
	{
		free( bodies );
		cnDestroyRecording( description );
	}
	pthread_mutex_lock( &source->lock );
	cnDestroyWorld( source->scene->world );
	source->scene->world = world;
	// the body list keeps its ids: a snapshot restores every body's id, and bodies added at a cut
	// are given theirs by cliViewSource_SetBodies
	// the run writes frame `frame` again, the edited world's
	source->frameCount = frame < source->frameCount ? frame : source->frameCount;
	source->contactCount = source->contactStart != NULL ? source->contactStart[source->frameCount] : 0;
	source->complete = false;
	source->message[0] = 0;
	cliViewHistory_Truncate( &source->history, frame );
	source->history.runStart = frame;
	source->history.cutFrame = frame;
	source->history.cutCount += 1;
	// the edited world's snapshot is taken here, before the cut is answered, not when the run writes
	// its first frame: a request right after the cut (GET /api/save/scene makes the world at the
	// run's start from it) found the snapshot before the cut and answered with the unedited world
	// (view_history failed so under load). Should it fail, the run takes it at its first frame.
	cliViewSource_Snapshot( source, world, frame );
	pthread_mutex_unlock( &source->lock );
	return cliViewSource_Start( source ) && set;
}

bool cliViewSource_SetBodies( cliViewSource* source, cnBodyId* bodies, int bodyCount, cnRecording* description,
							  const cnWorld* world, int frame )
{
	pthread_mutex_lock( &source->lock );
	int oldCount = ( source->stride - 1 ) / 7;
	int stride = 1 + 7 * bodyCount;
	int kept = frame < source->frameCount ? frame : source->frameCount;
	int capacity = source->frameCapacity > kept ? source->frameCapacity : kept;
	size_t cacheBytes = (size_t)capacity * (size_t)stride * sizeof( double );
	size_t stateBytes = (size_t)capacity * (size_t)( CLI_VIEW_BODY_NUMBERS * bodyCount ) * sizeof( double );
	double* cache = malloc( cacheBytes > 0 ? cacheBytes : 1 );
	double* states = malloc( stateBytes > 0 ? stateBytes : 1 );
	cnVec3* centers = malloc( sizeof( cnVec3 ) * (size_t)( bodyCount > 0 ? bodyCount : 1 ) );
	for ( int i = 0; centers != NULL && i < bodyCount; ++i )
	{
		// a body deleted already keeps the centre it had (else its origin)
		cnVec3 c = cnBody_IsValid( world, bodies[i] ) ? cnBody_GetLocalCenterOfMass( world, bodies[i] )
					: i < oldCount && source->centers != NULL ? source->centers[i]
					: i < oldCount && cnBody_IsValid( source->scene->world, source->bodies[i] )
						? cnBody_GetLocalCenterOfMass( source->scene->world, source->bodies[i] )
						: cnVec3_zero;
		centers[i] = c;
	}
	// two slots in the retired list, so retiring cannot fail half-way
	void** grown = realloc( source->retired, sizeof( void* ) * (size_t)( source->retiredCount + 2 ) );
	source->retired = grown != NULL ? grown : source->retired;
	if ( cache == NULL || states == NULL || grown == NULL || centers == NULL )
	{
		pthread_mutex_unlock( &source->lock );
		free( cache );
		free( states );
		free( centers );
		return false;
	}
	int shared = oldCount < bodyCount ? oldCount : bodyCount;
	for ( int f = 0; f < kept; ++f )
	{
		const double* from = source->cache + (size_t)f * (size_t)source->stride;
		double* to = cache + (size_t)f * (size_t)stride;
		memcpy( to, from, (size_t)( 1 + 7 * shared ) * sizeof( double ) );
		for ( int i = shared; i < bodyCount; ++i )
		{
			// a body new to these frames did not exist then: not drawn, waiting where it will appear
			cnTransform xf = cnBody_IsValid( world, bodies[i] ) ? cnBody_GetTransform( world, bodies[i] ) : cnTransform_identity;
			double* pose = to + 1 + 7 * i;
			pose[0] = xf.p.x;
			pose[1] = xf.p.y;
			pose[2] = xf.p.z;
			pose[3] = pose[4] = pose[5] = pose[6] = 0.0;
		}
		const double* fromStates = source->bodyStates + (size_t)f * (size_t)( CLI_VIEW_BODY_NUMBERS * oldCount );
		double* toStates = states + (size_t)f * (size_t)( CLI_VIEW_BODY_NUMBERS * bodyCount );
		memcpy( toStates, fromStates, (size_t)( CLI_VIEW_BODY_NUMBERS * shared ) * sizeof( double ) );
		memset( toStates + CLI_VIEW_BODY_NUMBERS * shared, 0,
				(size_t)( CLI_VIEW_BODY_NUMBERS * ( bodyCount - shared ) ) * sizeof( double ) );
	}
	free( source->cache );
	free( source->bodyStates );
	source->cache = cache;
	source->bodyStates = states;
	source->frameCapacity = capacity;
	source->frameCount = kept;
	source->retired[source->retiredCount++] = source->description;
	source->retired[source->retiredCount++] = source->bodies;
	source->description = description;
	source->bodies = bodies;
	source->stride = stride;
	free( source->centers );
	source->centers = centers;
	source->bodySetVersion += 1;
	pthread_mutex_unlock( &source->lock );
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
	// the retired lists alternate: a description, then a body list
	for ( int i = 0; i < source->retiredCount; ++i )
	{
		if ( i % 2 == 0 )
		{
			cnDestroyRecording( source->retired[i] );
		}
		else
		{
			free( source->retired[i] );
		}
	}
	free( source->retired );
	free( source->centers );
	cnDestroyScene( source->scene );
	free( source->bodies );
	free( source->cache );
	free( source->quantities );
	free( source->contactPoints );
	free( source->contactStart );
	free( source->bodyStates );
	free( source->manifolds );
	cliViewHistory_Free( &source->history );
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
				cnRecordedBodyState state = cnRecording_GetBodyState( source->description, from + f, i );
				int first = cnRecording_GetBodyFirstFrame( source->description, i );
				// a body not created yet is given where it will appear
				cnTransform xf = cnRecording_GetBodyTransform( source->description,
															   state == cnRecordedBody_notCreated && first >= 0 ? first : from + f, i );
				double* pose = frame + 1 + 7 * i;
				pose[0] = xf.p.x;
				pose[1] = xf.p.y;
				pose[2] = xf.p.z;
				pose[3] = xf.q.w;
				pose[4] = xf.q.x;
				pose[5] = xf.q.y;
				pose[6] = xf.q.z;
				if ( state != cnRecordedBody_present )
				{
					// a body created later or destroyed (version 6): a zero quaternion, which the page
					// does not draw
					pose[3] = pose[4] = pose[5] = pose[6] = 0.0;
				}
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

int cliViewSource_CopyQuantities( cliViewSource* source, int from, int count, double* out )
{
	if ( source->simulated == false )
	{
		return 0;
	}
	pthread_mutex_lock( &source->lock );
	int frames = source->frameCount;
	int n = from < frames ? ( count < frames - from ? count : frames - from ) : 0;
	if ( n > 0 )
	{
		memcpy( out, source->quantities + (size_t)from * CLI_VIEW_QUANTITY_COUNT,
				(size_t)n * CLI_VIEW_QUANTITY_COUNT * sizeof( double ) );
	}
	pthread_mutex_unlock( &source->lock );
	return n;
}

bool cliViewSource_CopyBodyState( cliViewSource* source, int frame, int body, double* out )
{
	int bodyCount = ( source->stride - 1 ) / 7;
	if ( source->simulated == false || body < 0 || body >= bodyCount || frame < 0 )
	{
		return false;
	}
	pthread_mutex_lock( &source->lock );
	bool there = frame < source->frameCount;
	if ( there )
	{
		size_t at = ( (size_t)frame * (size_t)bodyCount + (size_t)body ) * CLI_VIEW_BODY_NUMBERS;
		memcpy( out, source->bodyStates + at, CLI_VIEW_BODY_NUMBERS * sizeof( double ) );
	}
	pthread_mutex_unlock( &source->lock );
	return there;
}

double* cliViewSource_CopyContacts( cliViewSource* source, int frame, int* count, bool* ok )
{
	*count = 0;
	*ok = true;
	if ( source->simulated == false )
	{
		return NULL;
	}
	double* points = NULL;
	pthread_mutex_lock( &source->lock );
	if ( frame >= 0 && frame < source->frameCount )
	{
		size_t first = source->contactStart[frame];
		size_t n = source->contactStart[frame + 1] - first;
		if ( n > 0 )
		{
			points = malloc( n * CLI_VIEW_CONTACT_NUMBERS * sizeof( double ) );
			if ( points != NULL )
			{
				memcpy( points, source->contactPoints + first * CLI_VIEW_CONTACT_NUMBERS,
						n * CLI_VIEW_CONTACT_NUMBERS * sizeof( double ) );
				*count = (int)n;
			}
			*ok = points != NULL;
		}
	}
	pthread_mutex_unlock( &source->lock );
	return points;
}
