// SPDX-License-Identifier: MIT
// The library's run loop (cnRun): exact frame times, frame strides, writers that commit a finished
// run and discard any other, callbacks that stop or fail a run, progress reports, cancellation from
// inside a long step (the bodies stay where the step started), and the writers of libcairn_io (CSV
// limited to some bodies, recordings to memory) against closed-form free fall.
#include "cairn/io.h"
#include "test.h"
#include "test_bodies.h"

#include <string.h>
#include <threads.h>
#include <unistd.h>

// A world with a ball falling freely from rest at z = 10 (gravity -10, no ground, no drag).
static cnWorld* fallingBall( cnMethod method, cnBodyId* ball )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.gravity = cnV3( 0, 0, -10 );
	def.method = method;
	cnWorld* world = cnCreateWorld( &def );
	*ball = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 10 ), cnVec3_zero, 0.5, 0 );
	return world;
}

// A frame writer that remembers what it was given.
typedef struct frameLog
{
	int count;
	int index[64];
	double time[64];
	double z[64];
	cnBodyId ball;
	int finishCalls;
	bool complete;
	int failAt;
} frameLog;

// An empty log of the ball's height that refuses frame failAt (-1: none).
static frameLog newLog( cnBodyId ball, int failAt )
{
	frameLog log = { 0 };
	log.ball = ball;
	log.failAt = failAt;
	return log;
}

static bool logFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	frameLog* log = context;
	if ( frame->index == log->failAt )
	{
		return cnSetError( cnError_io, "log: refusing frame %d", frame->index );
	}
	if ( log->count < 64 )
	{
		log->index[log->count] = frame->index;
		log->time[log->count] = frame->time;
		log->z[log->count] = cnBody_GetPosition( world, log->ball ).z;
	}
	log->count += 1;
	return true;
}

static bool logFinish( void* context, bool complete )
{
	frameLog* log = context;
	log->finishCalls += 1;
	log->complete = complete;
	return true;
}

// Frames fall on exact multiples of 1/fps, each interval cut into k equal steps no longer than the
// maximum step; frame 0 is the start; the writers get every stride-th frame and commit at the end.
static void test_frames( void )
{
	cnBodyId ball;
	cnWorld* world = fallingBall( cnMethod_impulse, &ball );
	frameLog log = newLog( ball, -1 );
	cnFrameWriter writer = { logFrame, logFinish, &log };

	cnRunDef def = cnDefaultRunDef();
	def.duration = 1.0;
	def.fps = 10.0;
	def.maxTimeStep = 0.03;
	def.frameStride = 2;
	def.writers = &writer;
	def.writerCount = 1;
	cnRunResult r = cnRun( world, &def );
	CHECK( r.status == cnRun_finished );
	// (1/10) / 0.03 = 3.33: 4 steps of 0.025 s per frame, 11 frames (0 to 1 s), 40 steps
	CHECK( r.stepsPerFrame == 4 && r.stepSize == 0.1 / 4.0 );
	CHECK( r.frameCount == 11 && r.stepCount == 40 );
	CHECK( r.framesWritten == 6 && log.count == 6 );
	CHECK( log.finishCalls == 1 && log.complete );
	for ( int i = 0; i < log.count && i < 6; ++i )
	{
		CHECK( log.index[i] == 2 * i );
		// the time is the sum of the steps: exact to round-off of 8 i additions
		CHECK_NEAR( log.time[i], 0.2 * i, 1e-14 );
		// symplectic Euler free fall over N sub-steps of h (the impulse method's default count a
		// step): z_N = z0 - g h^2 N (N + 1) / 2
		double subSteps = cnWorld_GetDef( world ).settings.impulse.subSteps;
		double n = 8.0 * subSteps * i, h = 0.025 / subSteps;
		CHECK_NEAR( log.z[i], 10.0 - 10.0 * h * h * n * ( n + 1.0 ) / 2.0, 1e-12 );
	}
	CHECK( cnWorld_GetTime( world ) == log.time[5] );
	cnDestroyWorld( world );
}

// A bad def fails with a message naming the setting; nothing is stepped.
static void test_bad_defs( void )
{
	cnBodyId ball;
	cnWorld* world = fallingBall( cnMethod_impulse, &ball );
	cnRunDef def = cnDefaultRunDef();
	def.fps = 0.0;
	CHECK( cnRun( world, &def ).status == cnRun_failed );
	CHECK( cnGetErrorCode() == cnError_invalidArgument && strstr( cnGetError(), "fps" ) != NULL );
	def = cnDefaultRunDef();
	def.frameStride = 0;
	CHECK( cnRun( world, &def ).status == cnRun_failed && strstr( cnGetError(), "frameStride" ) != NULL );
	def = cnDefaultRunDef();
	def.duration = NAN;
	CHECK( cnRun( world, &def ).status == cnRun_failed && strstr( cnGetError(), "duration" ) != NULL );
	def = cnDefaultRunDef();
	def.writerCount = 1;
	CHECK( cnRun( world, &def ).status == cnRun_failed && strstr( cnGetError(), "writers" ) != NULL );
	CHECK( cnWorld_GetTime( world ) == 0.0 );
	cnDestroyWorld( world );
}

static bool stopAfterFive( cnWorld* world, void* context )
{
	(void)world;
	int* steps = context;
	return ++*steps < 5;
}

static bool failBeforeStep( cnWorld* world, void* context )
{
	(void)world;
	(void)context;
	return cnSetError( cnError_stepFailed, "before-step refuses" );
}

// afterStep stops a run early (not a failure), a failing writer or callback fails it; in every case
// the writers are told to discard.
static void test_endings( void )
{
	cnBodyId ball;
	cnWorld* world = fallingBall( cnMethod_impulse, &ball );
	frameLog log = newLog( ball, -1 );
	cnFrameWriter writer = { logFrame, logFinish, &log };
	int steps = 0;
	cnRunDef def = cnDefaultRunDef();
	def.writers = &writer;
	def.writerCount = 1;
	def.afterStep = stopAfterFive;
	def.context = &steps;
	cnRunResult r = cnRun( world, &def );
	CHECK( r.status == cnRun_stopped && r.stepCount == 5 && steps == 5 );
	CHECK( log.finishCalls == 1 && log.complete == false );

	log = newLog( ball, 3 );
	def.afterStep = NULL;
	r = cnRun( world, &def );
	CHECK( r.status == cnRun_failed && r.framesWritten == 3 );
	CHECK( strstr( cnGetError(), "refusing frame 3" ) != NULL );
	CHECK( log.finishCalls == 1 && log.complete == false );

	log.failAt = -1;
	def.beforeStep = failBeforeStep;
	r = cnRun( world, &def );
	CHECK( r.status == cnRun_failed && r.stepCount == 0 && strstr( cnGetError(), "before-step refuses" ) != NULL );
	cnDestroyWorld( world );
}

static void countProgress( const cnRunProgress* p, void* context )
{
	int* calls = context;
	calls[0] += 1;
	if ( p->done )
	{
		calls[1] += 1;
		CHECK( p->stepCount == p->totalSteps && p->secondsLeft == 0.0 );
		// the world time is the sum of the steps: the frame time up to round-off
		CHECK_NEAR( p->time, p->endTime, 1e-12 );
	}
}

// Progress is reported at least at the end, with the totals.
static void test_progress( void )
{
	cnBodyId ball;
	cnWorld* world = fallingBall( cnMethod_impulse, &ball );
	int calls[2] = { 0, 0 };
	cnRunDef def = cnDefaultRunDef();
	def.duration = 0.5;
	def.progress = countProgress;
	def.progressInterval = 0.0;
	def.context = calls;
	CHECK( cnRun( world, &def ).status == cnRun_finished );
	// interval 0: a report after every step, and the final one
	CHECK( calls[1] == 1 && calls[0] == 61 );
	cnDestroyWorld( world );
}

// A stack whose every step takes long under the penalty method (a tight tolerance): the cancel
// request arrives while a step runs and must be answered inside it.
static cnWorld* slowStack( cnBodyId* top )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.method = cnMethod_penalty;
	def.settings.penalty.errorTolerance = 1e-13;
	cnWorld* world = cnCreateWorld( &def );
	tbPlane( world, cnV3( 0, 0, 1 ), 0 );
	for ( int i = 0; i < 6; ++i )
	{
		*top = tbBox( world, cnBody_dynamic, cnV3( 0.01 * i, 0, 0.5 + 1.0 * i ), cnQuat_identity, cnVec3_zero,
					  cnV3( 0.5, 0.5, 0.5 ), 0 );
	}
	return world;
}

static int cancelLater( void* context )
{
	// let the run start, then ask it to stop
	thrd_sleep( &( struct timespec ){ .tv_nsec = 50 * 1000 * 1000 }, NULL );
	cnWorld_Cancel( context );
	return 0;
}

// The state after each completed step, to compare with where a cancelled step leaves the bodies.
typedef struct cancelWatch
{
	cnBodyId top;
	cnVec3 position;
	double time;
} cancelWatch;

static bool watchStep( cnWorld* world, void* context )
{
	cancelWatch* w = context;
	w->position = cnBody_GetPosition( world, w->top );
	w->time = cnWorld_GetTime( world );
	return true;
}

// cnWorld_Cancel from another thread stops a run: the step that sees it returns false with
// cnError_cancelled and leaves the bodies where it started (the state of the last completed step);
// the request is consumed, so the world steps on afterwards. (That a long step answers inside
// itself, between its internal steps, is checked by tests/cli_basic.sh with Ctrl-C.)
static void test_cancel( void )
{
	cnBodyId top;
	cnWorld* world = slowStack( &top );
	// a cancel before a step is answered at its start
	cnWorld_Cancel( world );
	CHECK( cnWorld_Step( world, 1.0 / 60.0 ) == false && cnGetErrorCode() == cnError_cancelled );
	CHECK( cnWorld_GetTime( world ) == 0.0 );

	cancelWatch watch = { top, cnBody_GetPosition( world, top ), 0.0 };
	thrd_t thread;
	CHECK( thrd_create( &thread, cancelLater, world ) == thrd_success );
	cnRunDef def = cnDefaultRunDef();
	def.duration = 100.0;
	def.afterStep = watchStep;
	def.context = &watch;
	cnRunResult r = cnRun( world, &def );
	thrd_join( thread, NULL );
	CHECK( r.status == cnRun_cancelled && cnGetErrorCode() == cnError_cancelled );
	CHECK( r.stepCount < 12000 );
	cnVec3 after = cnBody_GetPosition( world, top );
	CHECK( after.x == watch.position.x && after.y == watch.position.y && after.z == watch.position.z );
	CHECK( cnWorld_GetTime( world ) == watch.time );
	// the request was consumed
	CHECK( cnWorld_Step( world, 1e-4 ) );
	cnDestroyWorld( world );
}

// The CSV writer writes the chosen bodies only, with their names; an unfinished run leaves no file.
static void test_csv_writer( void )
{
	cnBodyId ball;
	cnWorld* world = fallingBall( cnMethod_impulse, &ball );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = "other, \"quoted\"";
	cnBodyId other = cnCreateBody( world, &bd );
	const char* path = "test_run_out.csv";
	remove( path );

	cnCsvWriterDef cd = cnDefaultCsvWriterDef();
	cd.path = path;
	cd.bodies = &other;
	cd.bodyCount = 1;
	cnCsvWriter* csv = cnCreateCsvWriter( world, &cd );
	CHECK( csv != NULL );
	cnFrameWriter writer = cnCsvWriter_AsFrameWriter( csv );
	cnRunDef def = cnDefaultRunDef();
	def.duration = 0.1;
	def.fps = 20.0;
	def.writers = &writer;
	def.writerCount = 1;
	CHECK( cnRun( world, &def ).status == cnRun_finished );
	cnDestroyCsvWriter( csv );

	FILE* f = fopen( path, "r" );
	CHECK( f != NULL );
	char line[256];
	int rows = 0;
	bool quoted = true;
	while ( f != NULL && fgets( line, sizeof( line ), f ) != NULL )
	{
		rows += 1;
		quoted = quoted && ( rows == 1 || strstr( line, ",\"other, \"\"quoted\"\"\"," ) != NULL );
	}
	if ( f != NULL )
	{
		fclose( f );
	}
	// header + 3 frames of one body
	CHECK( rows == 4 && quoted );
	remove( path );

	// a stopped run discards
	csv = cnCreateCsvWriter( world, &cd );
	writer = cnCsvWriter_AsFrameWriter( csv );
	int steps = 0;
	def.afterStep = stopAfterFive;
	def.context = &steps;
	CHECK( cnRun( world, &def ).status == cnRun_stopped );
	cnDestroyCsvWriter( csv );
	CHECK( access( path, F_OK ) != 0 );
	CHECK( access( "test_run_out.csv.tmp", F_OK ) != 0 );

	// an unknown body is refused
	cnBodyId stale = other;
	cnDestroyBody( world, other );
	CHECK( cnCreateCsvWriter( world, &cd ) == NULL && cnGetErrorCode() == cnError_invalidId );
	( void )stale;
	cnDestroyWorld( world );
}

// A memory recording of a subset of bodies reads back with the run's frames.
static void test_memory_recording( void )
{
	cnBodyId ball;
	cnWorld* world = fallingBall( cnMethod_impulse, &ball );
	cnBodyId second = tbSphere( world, cnBody_dynamic, cnV3( 5, 0, 0 ), cnVec3_zero, 0.25, 0 );
	cnRecorderDef rd = cnDefaultRecorderDef();
	rd.sceneName = "memory";
	rd.fps = 30.0;
	rd.bodies = &ball;
	rd.bodyCount = 1;
	cnRecorder* recorder = cnCreateRecorder( world, &rd );
	CHECK( recorder != NULL );
	size_t size = 1;
	CHECK( cnRecorder_GetBytes( recorder, &size ) == NULL && size == 0 );
	cnFrameWriter writer = cnRecorder_AsFrameWriter( recorder );
	cnRunDef def = cnDefaultRunDef();
	def.duration = 1.0;
	def.fps = 30.0;
	def.writers = &writer;
	def.writerCount = 1;
	CHECK( cnRun( world, &def ).status == cnRun_finished );
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	CHECK( bytes != NULL && size > 0 );
	cnRecording* rec = cnLoadRecordingFromMemory( bytes, size, "memory" );
	CHECK( rec != NULL );
	if ( rec != NULL )
	{
		CHECK( cnRecording_GetFrameCount( rec ) == 31 && cnRecording_GetBodyCount( rec ) == 1 );
		CHECK( strcmp( cnRecording_GetSceneName( rec ), "memory" ) == 0 );
		CHECK( cnRecording_GetFrameTime( rec, 30 ) == cnWorld_GetTime( world ) );
		CHECK( cnRecording_GetBodyTransform( rec, 30, 0 ).p.z == cnBody_GetPosition( world, ball ).z );
	}
	cnDestroyRecording( rec );
	cnDestroyRecorder( recorder );
	( void )second;
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( test_frames );
	RUN_TEST( test_bad_defs );
	RUN_TEST( test_endings );
	RUN_TEST( test_progress );
	RUN_TEST( test_cancel );
	RUN_TEST( test_csv_writer );
	RUN_TEST( test_memory_recording );
	return TEST_SUMMARY();
}
