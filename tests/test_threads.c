// SPDX-License-Identifier: MIT
// Threads (src/task.h): cnParallelFor covers every item once in ranges of at least minRange on
// workers below the worker count, through the world's own threads and through a user scheduler;
// the worker settings are checked; the broad phase's queries split over buffers report the serial
// update's pairs; and a world steps to the same bits on 1, 2 and 4 workers and
// with a user scheduler, for a stack, a pile of mixed shapes, hail that the continuous stage sweeps,
// jointed ragdolls, meshes and hulls,
// also across a snapshot taken on one worker count and continued on another.
#include "cairn/cairn.h"
#include "cairn/scene.h"
#include "collision/broad_phase.h"
#include "task.h"
#include "test.h"

#include <stdatomic.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// cnParallelFor

enum
{
	maxItems = 10000
};

typedef struct Coverage
{
	int hits[maxItems];
	int workerCount;
	int minRange;
	int itemCount;
	atomic_int calls;
	atomic_int badRange;
	atomic_int badWorker;
	// which worker indices are busy: two ranges must never run at once on one index
	atomic_int busy[CN_MAX_WORKERS];
	atomic_int overlap;
} Coverage;

static void coverRange( int start, int end, int worker, void* context )
{
	Coverage* c = context;
	atomic_fetch_add( &c->calls, 1 );
	if ( worker < 0 || worker >= c->workerCount )
	{
		atomic_fetch_add( &c->badWorker, 1 );
		return;
	}
	if ( atomic_fetch_add( &c->busy[worker], 1 ) != 0 )
	{
		atomic_fetch_add( &c->overlap, 1 );
	}
	// every range but a single whole one has at least minRange items
	if ( start < 0 || end > c->itemCount || start >= end || ( end - start < c->minRange && end - start != c->itemCount ) )
	{
		atomic_fetch_add( &c->badRange, 1 );
	}
	for ( int i = start; i < end && i >= 0 && i < maxItems; ++i )
	{
		c->hits[i] += 1;
	}
	atomic_fetch_sub( &c->busy[worker], 1 );
}

static Coverage* runCoverage( cnWorld* world, int itemCount, int minRange )
{
	static Coverage c;
	memset( &c, 0, sizeof( c ) );
	c.workerCount = cnWorld_WorkerCount( world );
	c.minRange = minRange < 1 ? 1 : minRange;
	c.itemCount = itemCount;
	cnParallelFor( world, itemCount, minRange, coverRange, &c );
	return &c;
}

static bool coveredOnce( const Coverage* c )
{
	for ( int i = 0; i < c->itemCount; ++i )
	{
		if ( c->hits[i] != 1 )
		{
			return false;
		}
	}
	return atomic_load( &c->badRange ) == 0 && atomic_load( &c->badWorker ) == 0 && atomic_load( &c->overlap ) == 0;
}

static cnWorld* makeWorld( int workers )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.workerCount = workers;
	return cnCreateWorld( &def );
}

static void parallelForCoversEveryItemOnce( void )
{
	const int workerCounts[] = { 1, 2, 3, 4, 8 };
	const int itemCounts[] = { 1, 2, 7, 64, 100, 1000, 9999 };
	const int minRanges[] = { 0, 1, 3, 16, 500 };
	for ( int w = 0; w < 5; ++w )
	{
		cnWorld* world = makeWorld( workerCounts[w] );
		CHECK( world != NULL );
		CHECK( cnWorld_WorkerCount( world ) == workerCounts[w] );
		for ( int n = 0; n < 7; ++n )
		{
			for ( int m = 0; m < 5; ++m )
			{
				// several rounds: the threads go from one loop to the next many times
				for ( int round = 0; round < 3; ++round )
				{
					Coverage* c = runCoverage( world, itemCounts[n], minRanges[m] );
					CHECK( coveredOnce( c ) );
				}
			}
		}
		// no items: no call
		Coverage* c = runCoverage( world, 0, 1 );
		CHECK( atomic_load( &c->calls ) == 0 );
		cnDestroyWorld( world );
	}
}

// The most workers, each loop cut into the most ranges (at most 8 per worker): the task pool's state word
// holds the range count and the first and last unclaimed ranges in 10 bits each, claimed from both
// ends (task.c).
static void parallelForCoversTheMostRanges( void )
{
	cnWorld* world = makeWorld( CN_MAX_WORKERS );
	CHECK( world != NULL );
	for ( int round = 0; round < 5; ++round )
	{
		Coverage* c = runCoverage( world, 9999, 1 );
		CHECK( coveredOnce( c ) );
		CHECK( atomic_load( &c->calls ) == 8 * CN_MAX_WORKERS );
	}
	cnDestroyWorld( world );
}

typedef struct RangeLog
{
	atomic_int count;
	int start[64], end[64];
} RangeLog;

static void logRange( int start, int end, int worker, void* context )
{
	(void)worker;
	RangeLog* log = context;
	int i = atomic_fetch_add( &log->count, 1 );
	if ( i < 64 )
	{
		log->start[i] = start;
		log->end[i] = end;
	}
}

// The ranges shrink from both ends towards the middle, where the workers taking from the front and
// from the back meet: the first from each end holds half its half, the last ones only minRange.
static void parallelForRangesShrinkTowardsTheMiddle( void )
{
	cnWorld* world = makeWorld( 2 );
	CHECK( world != NULL );
	static RangeLog log;
	memset( &log, 0, sizeof( log ) );
	cnParallelFor( world, 1000, 4, logRange, &log );
	int n = atomic_load( &log.count );
	CHECK( n >= 8 && n <= 16 );
	// in item order
	int size[64];
	int at = 0;
	for ( int k = 0; k < n; ++k )
	{
		int found = -1;
		for ( int i = 0; i < n; ++i )
		{
			found = log.start[i] == at ? i : found;
		}
		CHECK( found >= 0 );
		if ( found < 0 )
		{
			break;
		}
		size[k] = log.end[found] - log.start[found];
		at = log.end[found];
		CHECK( size[k] >= 4 );
	}
	CHECK( at == 1000 );
	CHECK( size[0] == 250 && size[n - 1] == 250 );
	// the halves (500 items each) are cut alike: shrinking up to the middle, growing after it
	for ( int k = 1; k < n / 2; ++k )
	{
		CHECK( size[k] <= size[k - 1] );
	}
	for ( int k = n / 2 + 1; k < n; ++k )
	{
		CHECK( size[k] >= size[k - 1] );
	}
	printf( "1000 items on 2 workers: %d ranges, the first %d, the middle ones %d and %d\n", n, size[0],
			size[n / 2 - 1], size[n / 2] );
	cnDestroyWorld( world );
}

static void parallelForRunsSmallLoopsInline( void )
{
	cnWorld* world = makeWorld( 4 );
	// fewer items than two ranges: one call with everything on worker 0
	Coverage* c = runCoverage( world, 15, 8 );
	CHECK( atomic_load( &c->calls ) == 1 && coveredOnce( c ) );
	cnDestroyWorld( world );
	world = makeWorld( 1 );
	c = runCoverage( world, 5000, 1 );
	CHECK( atomic_load( &c->calls ) == 1 && coveredOnce( c ) );
	cnDestroyWorld( world );
}

// ---------------------------------------------------------------------------------------------
// a user scheduler: runs the pieces itself, in reverse order, and says when it finished

typedef struct UserScheduler
{
	int enqueued;
	int finished;
	int pieces;
	bool returnNull;
	void* lastTask;
} UserScheduler;

static void* userEnqueue( cnTaskCallback* task, int itemCount, int minRange, void* taskContext, void* userContext )
{
	UserScheduler* s = userContext;
	s->enqueued += 1;
	// pieces of minRange items (the last one takes the rest), run last first on alternating workers
	// 0 and 1: a different split and order from the world's own threads
	int pieces = itemCount / minRange > 0 ? itemCount / minRange : 1;
	for ( int p = pieces - 1; p >= 0; --p )
	{
		int start = p * minRange;
		int end = p == pieces - 1 ? itemCount : start + minRange;
		task( start, end, p % 2, taskContext );
		s->pieces += 1;
	}
	s->lastTask = s->returnNull ? NULL : s;
	return s->lastTask;
}

static void userFinish( void* userTask, void* userContext )
{
	UserScheduler* s = userContext;
	s->finished += userTask == s ? 1 : 1000;
}

static cnWorld* makeUserWorld( UserScheduler* s, int workers )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.workerCount = workers;
	def.enqueueTask = userEnqueue;
	def.finishTask = userFinish;
	def.userTaskContext = s;
	return cnCreateWorld( &def );
}

static void parallelForUsesUserScheduler( void )
{
	UserScheduler s = { 0 };
	cnWorld* world = makeUserWorld( &s, 2 );
	CHECK( world != NULL );
	Coverage* c = runCoverage( world, 1000, 64 );
	CHECK( coveredOnce( c ) );
	CHECK( s.enqueued == 1 && s.finished == 1 && s.pieces == 15 );
	// NULL from enqueue: it ran everything, finish is not called
	s.returnNull = true;
	c = runCoverage( world, 1000, 64 );
	CHECK( coveredOnce( c ) );
	CHECK( s.enqueued == 2 && s.finished == 1 );
	// a small loop never reaches the scheduler
	c = runCoverage( world, 100, 64 );
	CHECK( coveredOnce( c ) && s.enqueued == 2 );
	cnDestroyWorld( world );
}

static void workerSettingsAreChecked( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	CHECK( def.workerCount == 1 && def.enqueueTask == NULL && def.finishTask == NULL );
	def.workerCount = 0;
	CHECK( cnCreateWorld( &def ) == NULL && cnGetErrorCode() == cnError_invalidArgument );
	CHECK( strstr( cnGetError(), "workerCount" ) != NULL );
	def.workerCount = CN_MAX_WORKERS + 1;
	CHECK( cnCreateWorld( &def ) == NULL );
	def.workerCount = 2;
	def.enqueueTask = userEnqueue;
	CHECK( cnCreateWorld( &def ) == NULL && strstr( cnGetError(), "finishTask" ) != NULL );

	cnWorld* world = makeWorld( 3 );
	CHECK( cnWorld_GetDef( world ).workerCount == 3 );
	CHECK( cnWorld_SetWorkerCount( world, 0 ) == false && cnGetErrorCode() == cnError_invalidArgument );
	CHECK( cnWorld_SetWorkerCount( world, 2 ) && cnWorld_GetDef( world ).workerCount == 2 );
	Coverage* c = runCoverage( world, 500, 1 );
	CHECK( coveredOnce( c ) );
	CHECK( cnWorld_SetWorkerCount( world, 1 ) && cnWorld_WorkerCount( world ) == 1 );
	CHECK( cnWorld_SetWorkerCount( world, 4 ) );
	c = runCoverage( world, 500, 1 );
	CHECK( coveredOnce( c ) );
	cnDestroyWorld( world );
}

// ---------------------------------------------------------------------------------------------
// the broad phase's update in two halves: any split of the queries over buffers reports the pairs
// of the serial update

typedef struct PairList
{
	int count;
	uint64_t pairs[4096];
} PairList;

static void collectPair( int32_t a, int32_t b, void* context )
{
	PairList* list = context;
	if ( list->count < 4096 )
	{
		list->pairs[list->count++] = ( (uint64_t)(uint32_t)a << 32 ) | (uint32_t)b;
	}
}

// 300 boxes on a jittered grid, a fifth of them static; every one buffered as created.
static void fillBroadPhase( cnBroadPhase* bp )
{
	cnBroadPhase_Create( bp );
	for ( int i = 0; i < 300; ++i )
	{
		double x = 0.7 * ( i % 10 ) + 0.05 * ( ( i * 7 ) % 5 ), y = 0.7 * ( ( i / 10 ) % 6 ), z = 0.9 * ( i / 60 );
		cnAABB box = { cnV3( x, y, z ), cnV3( x + 0.8, y + 0.75, z + 1.0 ) };
		cnBroadPhase_CreateProxy( bp, box, i, i % 5 == 0 );
	}
}

static void brokenUpQueriesReportTheSamePairs( void )
{
	static PairList serial, split;
	cnBroadPhase bp;
	fillBroadPhase( &bp );
	serial.count = 0;
	int n = cnBroadPhase_UpdatePairs( &bp, collectPair, &serial );
	CHECK( n == serial.count && n > 300 );
	cnBroadPhase_Destroy( &bp );

	const int splits[] = { 1, 2, 3, 7, 64 };
	for ( int k = 0; k < 5; ++k )
	{
		fillBroadPhase( &bp );
		cnPairBuffer buffers[64] = { { 0 } };
		int moves = cnBroadPhase_GetMoveCount( &bp );
		// ranges taken last first, range r into buffer (r * 5) % splits (uneven, out of order)
		for ( int r = splits[k] - 1; r >= 0; --r )
		{
			int start = r * moves / splits[k], end = ( r + 1 ) * moves / splits[k];
			cnBroadPhase_QueryMoved( &bp, start, end, NULL, buffers + ( r * 5 ) % splits[k] );
		}
		split.count = 0;
		CHECK( cnBroadPhase_ReportPairs( &bp, buffers, splits[k], collectPair, &split ) == n );
		CHECK( split.count == serial.count &&
			   memcmp( split.pairs, serial.pairs, (size_t)serial.count * sizeof( uint64_t ) ) == 0 );
		CHECK( cnBroadPhase_GetMoveCount( &bp ) == 0 && buffers[0].count == 0 );
		for ( int b = 0; b < 64; ++b )
		{
			cnPairBuffer_Destroy( buffers + b );
		}
		cnBroadPhase_Destroy( &bp );
	}

	// pairs that have their contact already (every third of them here) are skipped by the queries:
	// the others are reported, in the same order, on any split
	cnPairMap known;
	cnPairMap_Create( &known, 16 );
	for ( int i = 0; i < serial.count; i += 3 )
	{
		cnPairMap_Insert( &known, serial.pairs[i], i );
	}
	for ( int k = 0; k < 5; ++k )
	{
		fillBroadPhase( &bp );
		cnPairBuffer buffers[64] = { { 0 } };
		int moves = cnBroadPhase_GetMoveCount( &bp );
		for ( int r = 0; r < splits[k]; ++r )
		{
			int start = r * moves / splits[k], end = ( r + 1 ) * moves / splits[k];
			cnBroadPhase_QueryMoved( &bp, start, end, &known, buffers + r );
		}
		split.count = 0;
		CHECK( cnBroadPhase_ReportPairs( &bp, buffers, splits[k], collectPair, &split ) == n - ( n + 2 ) / 3 );
		int j = 0;
		bool same = split.count == n - ( n + 2 ) / 3;
		for ( int i = 0; i < serial.count && same; ++i )
		{
			if ( i % 3 != 0 )
			{
				same = split.pairs[j++] == serial.pairs[i];
			}
		}
		CHECK( same );
		for ( int b = 0; b < 64; ++b )
		{
			cnPairBuffer_Destroy( buffers + b );
		}
		cnBroadPhase_Destroy( &bp );
	}
	cnPairMap_Destroy( &known );
}

// ---------------------------------------------------------------------------------------------
// the same bits on any worker count

// A stack of boxes in a pyramid of `levels` rows on a plane.
static cnWorld* buildPyramid( cnWorld* world, int levels )
{
	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	cnBodyId ground = cnCreateBody( world, &gd );
	cnShapeDef plane = cnDefaultShapeDef();
	plane.type = cnShape_plane;
	cnCreateShape( world, ground, &plane );
	for ( int row = 0; row < levels; ++row )
	{
		for ( int k = 0; k < levels - row; ++k )
		{
			cnBodyDef bd = cnDefaultBodyDef();
			bd.position = cnV3( 1.05 * k + 0.525 * row - 0.5 * levels, 0.0, 0.5 + 1.0 * row );
			cnBodyId id = cnCreateBody( world, &bd );
			cnShapeDef sd = cnDefaultShapeDef();
			sd.type = cnShape_box;
			sd.halfExtents = cnV3( 0.5, 0.5, 0.5 );
			cnCreateShape( world, id, &sd );
		}
	}
	return world;
}

// A pile of mixed shapes (boxes, spheres, capsules, cylinders) dropped onto a plane.
static cnWorld* buildPile( cnWorld* world )
{
	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	cnBodyId ground = cnCreateBody( world, &gd );
	cnShapeDef plane = cnDefaultShapeDef();
	plane.type = cnShape_plane;
	cnCreateShape( world, ground, &plane );
	for ( int i = 0; i < 60; ++i )
	{
		cnBodyDef bd = cnDefaultBodyDef();
		bd.position = cnV3( 0.37 * ( i % 5 ) - 0.8, 0.29 * ( ( i / 5 ) % 4 ) - 0.5, 0.6 + 0.45 * i / 4.0 );
		bd.orientation = cnQuatFromAxisAngle( cnNormalize( cnV3( 1, i % 3, 2 ) ), 0.1 * i );
		cnBodyId id = cnCreateBody( world, &bd );
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = (cnShapeType)( i % 4 );
		sd.radius = 0.15;
		sd.halfExtents = cnV3( 0.2, 0.15, 0.1 );
		sd.halfHeight = 0.12;
		cnCreateShape( world, id, &sd );
	}
	return world;
}

// Hail: 256 small spheres thrown down at 400 m/s onto a static box, 6.7 m a step, beyond the reach
// of speculative contacts (4 m), so the continuous stage sweeps them (in parallel ranges:
// cnSolveContinuous) and moves each back to the box.
static cnWorld* buildHail( cnWorld* world )
{
	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	gd.position = cnV3( 0.0, 0.0, -0.5 );
	cnBodyId ground = cnCreateBody( world, &gd );
	cnShapeDef box = cnDefaultShapeDef();
	box.type = cnShape_box;
	box.halfExtents = cnV3( 10.0, 10.0, 0.5 );
	cnCreateShape( world, ground, &box );
	for ( int i = 0; i < 256; ++i )
	{
		cnBodyDef bd = cnDefaultBodyDef();
		bd.position = cnV3( 0.5 * ( i % 16 ) - 4.0, 0.5 * ( i / 16 ) - 4.0, 1.0 + 0.37 * ( i % 7 ) );
		bd.linearVelocity = cnV3( 0.1 * ( i % 3 ), 0.0, -400.0 );
		cnBodyId id = cnCreateBody( world, &bd );
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = cnShape_sphere;
		sd.radius = 0.05;
		cnCreateShape( world, id, &sd );
	}
	return world;
}

static uint64_t stepAndHash( cnWorld* world, int steps, double dt )
{
	for ( int i = 0; i < steps; ++i )
	{
		if ( cnWorld_Step( world, dt ) == false )
		{
			printf( "  step %d failed: %s\n", i, cnGetError() );
			return 0;
		}
	}
	return cnWorld_Hash( world );
}

static void builtWorldsGiveTheSameBits( void )
{
	int steps = testFast() ? 60 : 180;
	const int workers[] = { 1, 2, 4 };
	const char* names[] = { "pyramid", "pile", "hail" };
	for ( int scene = 0; scene < 3; ++scene )
	{
		uint64_t first = 0;
		// 1, 2 and 4 workers, then a user scheduler on 2
		for ( int w = 0; w < 4; ++w )
		{
			UserScheduler s = { 0 };
			cnWorld* world = w < 3 ? makeWorld( workers[w] ) : makeUserWorld( &s, 2 );
			world = scene == 0 ? buildPyramid( world, 8 ) : scene == 1 ? buildPile( world ) : buildHail( world );
			uint64_t h = stepAndHash( world, steps, 1.0 / 60.0 );
			printf( "  %s on %s %d: 0x%016llx\n", names[scene], w < 3 ? "workers" : "user scheduler",
					w < 3 ? workers[w] : 2, (unsigned long long)h );
			CHECK( h != 0 );
			if ( scene == 2 )
			{
				// every sphere was swept back to the box
				CHECK( cnWorld_GetStats( world ).continuousHitCount >= 256 );
			}
			first = w == 0 ? h : first;
			CHECK( h == first );
			cnDestroyWorld( world );
		}
	}
}

// A shipped scene on workers workers; with viaSnapshot, stepped after a save and load.
static uint64_t runScene( const char* name, int workers, int steps, bool viaSnapshot )
{
	char path[512];
	snprintf( path, sizeof( path ), "%s/scenes/%s.json", CAIRN_SOURCE_DIR, name );
	cnScene* scene = cnLoadScene( path );
	if ( scene == NULL )
	{
		printf( "  %s\n", cnGetError() );
		return 0;
	}
	if ( viaSnapshot )
	{
		void* data = NULL;
		size_t size = 0;
		cnWorld_Save( scene->world, &data, &size );
		cnWorld* loaded = cnWorld_Load( data, size );
		cnFree( data );
		cnDestroyWorld( scene->world );
		scene->world = loaded;
	}
	if ( scene->world == NULL || cnWorld_SetWorkerCount( scene->world, workers ) == false )
	{
		cnDestroyScene( scene );
		return 0;
	}
	uint64_t h = stepAndHash( scene->world, steps, scene->timeStep );
	cnDestroyScene( scene );
	return h;
}

static void scenesGiveTheSameBits( void )
{
	// joints (ragdolls on stairs), a mesh staircase, hulls (jacks), a heightfield
	const char* scenes[] = { "ragdoll_stairs", "stairs_mesh", "jacks", "terrain" };
	int steps = testFast() ? 40 : 150;
	for ( int i = 0; i < 4; ++i )
	{
		uint64_t one = runScene( scenes[i], 1, steps, false );
		uint64_t two = runScene( scenes[i], 2, steps, false );
		uint64_t four = runScene( scenes[i], 4, steps, false );
		uint64_t loaded = runScene( scenes[i], 2, steps, true );
		printf( "  %s: 0x%016llx 0x%016llx 0x%016llx 0x%016llx\n", scenes[i], (unsigned long long)one,
				(unsigned long long)two, (unsigned long long)four, (unsigned long long)loaded );
		CHECK( one != 0 );
		CHECK( one == two && one == four && one == loaded );
	}
}

// A snapshot taken on 1 worker and continued on 3 gives the bits of a run on 1 worker throughout.
static void snapshotsContinueOnAnyWorkerCount( void )
{
	int steps = testFast() ? 30 : 90;
	cnWorld* whole = buildPile( makeWorld( 1 ) );
	uint64_t expected = stepAndHash( whole, 2 * steps, 1.0 / 60.0 );
	cnDestroyWorld( whole );

	cnWorld* first = buildPile( makeWorld( 1 ) );
	stepAndHash( first, steps, 1.0 / 60.0 );
	void* data = NULL;
	size_t size = 0;
	CHECK( cnWorld_Save( first, &data, &size ) );
	cnDestroyWorld( first );
	cnWorld* second = cnWorld_Load( data, size );
	cnFree( data );
	CHECK( second != NULL );
	CHECK( cnWorld_GetDef( second ).workerCount == 1 );
	CHECK( cnWorld_SetWorkerCount( second, 3 ) );
	CHECK( stepAndHash( second, steps, 1.0 / 60.0 ) == expected );
	cnDestroyWorld( second );
}

int main( void )
{
	RUN_TEST( parallelForCoversEveryItemOnce );
	RUN_TEST( parallelForCoversTheMostRanges );
	RUN_TEST( parallelForRangesShrinkTowardsTheMiddle );
	RUN_TEST( parallelForRunsSmallLoopsInline );
	RUN_TEST( parallelForUsesUserScheduler );
	RUN_TEST( workerSettingsAreChecked );
	RUN_TEST( brokenUpQueriesReportTheSamePairs );
	RUN_TEST( builtWorldsGiveTheSameBits );
	RUN_TEST( scenesGiveTheSameBits );
	RUN_TEST( snapshotsContinueOnAnyWorkerCount );
	return TEST_SUMMARY();
}
