// SPDX-License-Identifier: MIT
// The task system (task.h): a parallel for over the world's workers. The thread that steps the world
// is worker 0; a world of N workers starts N - 1 threads when it is created (or none, when the
// embedding program brings its own scheduler through cnWorldDef.enqueueTask and finishTask).
//
// One loop runs at a time. The caller publishes it by bumping the pool's generation; the caller and
// every thread that is awake take ranges until none are left, even workers from the front and odd
// ones from the back (so with two workers each keeps its end of every loop, and the bodies there in
// its cache), and the one that finishes the last range wakes the caller if it sleeps. The ranges
// shrink from each end towards the middle, where the two sides meet: the last ranges taken are
// short, so the workers finish together, and where they meet moves little from loop to loop, so
// few bodies change cores between one colour of the solve and the next. Between loops
// a thread spins for a short while (the step's loops come in quick succession) and then sleeps on a
// condition variable, so an idle world costs no CPU: the machines Cairn runs on are often shared,
// with fewer cores than workers. Publishing a loop and claiming its ranges take no lock; the mutex is
// taken only to sleep and to wake a sleeper (a step has hundreds of loops: the colours of every pass
// of every sub-step).
#define _POSIX_C_SOURCE 200809L

#include "task.h"

#include "error.h"
#include "world.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// how many pause instructions a worker waits for the next loop, and the caller for the last worker,
// before going to sleep (tens of microseconds)
#define CN_SPIN_COUNT 2000

// the most ranges a loop is cut into per worker (each range has >= minRange items)
#define CN_RANGES_PER_WORKER 8
#define CN_MAX_RANGES ( CN_RANGES_PER_WORKER * CN_MAX_WORKERS )
_Static_assert( CN_MAX_RANGES < 0x3ff, "a loop's range count fits the state's 10 bits" );

typedef struct cnTaskThread
{
	cnTaskPool* pool;
	int workerIndex;
} cnTaskThread;

struct cnTaskPool
{
	int threadCount;
	pthread_t* threads;
	cnTaskThread* args;
	// only for sleeping: threads wait on wake for the next loop, the caller on done for the last
	// range of a loop; publishing a loop and claiming ranges take no lock
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	pthread_cond_t done;

	// the current loop, written before its generation is published and read after it is seen
	_Atomic( cnTaskFn* ) fn;
	_Atomic( void* ) context;
	// where range r of the current loop starts (bounds[rangeCount] = itemCount), written with fn
	int bounds[CN_MAX_RANGES + 1];
	// one word: the loop's generation (bits 32-63), its range count (20-29), one past its last
	// unclaimed range (10-19) and its first unclaimed range (0-9). A claim is a compare-and-swap of
	// the whole word that takes the first or the last, so a thread that read the loop's
	// fields and then finds the generation or the count changed takes nothing: the fields of the next
	// loop are written only once every range of this one is claimed and done
	_Atomic uint64_t state;
	// ranges of the current loop that have finished
	atomic_int finished;
	// threads asleep on wake, and whether the caller sleeps on done: the other side takes the
	// mutex to signal only when someone sleeps
	atomic_int sleepers;
	atomic_bool callerSleeps;
	atomic_bool quit;
};

static inline uint32_t cnGeneration( uint64_t state )
{
	return (uint32_t)( state >> 32 );
}

static inline int cnRangeTotal( uint64_t state )
{
	return (int)( ( state >> 20 ) & 0x3ffu );
}

// the first unclaimed range
static inline int cnFrontRange( uint64_t state )
{
	return (int)( state & 0x3ffu );
}

// one past the last unclaimed range
static inline int cnBackRange( uint64_t state )
{
	return (int)( ( state >> 10 ) & 0x3ffu );
}

static inline void cnPause( void )
{
#if defined( __x86_64__ ) || defined( __i386__ )
	__builtin_ia32_pause();
#elif defined( __aarch64__ ) || defined( __arm__ )
	__asm__ __volatile__( "yield" );
#endif
}

// Cuts one half of a loop, `count` items shared by `workers` workers, into ranges taken from its outer
// end: each takes half of what is left over the workers (at least minRange items, and all that is
// left when less than two ranges' worth is), so the ranges shrink towards the middle. Writes the
// sizes, outermost first, and returns their number (at most `most`).
static int cnCutHalf( int count, int minRange, int workers, int most, int* sizes )
{
	int n = 0;
	while ( count > 0 )
	{
		int size = ( count + 2 * workers - 1 ) / ( 2 * workers );
		size = size < minRange ? minRange : size;
		if ( count - size < minRange || n == most - 1 )
		{
			size = count;
		}
		sizes[n++] = size;
		count -= size;
	}
	return n;
}

// Cuts [0, itemCount) into ranges that shrink from both ends towards the middle (bounds[r] is where
// range r starts, bounds[count] = itemCount); returns their number, 1 when the items make fewer than
// two ranges of minRange.
static int cnCutRanges( int itemCount, int minRange, int workerCount, int bounds[CN_MAX_RANGES + 1] )
{
	if ( itemCount < 2 * minRange || workerCount <= 1 )
	{
		bounds[0] = 0;
		bounds[1] = itemCount;
		return 1;
	}
	// even workers take ranges from the front, odd ones from the back
	int frontWorkers = ( workerCount + 1 ) / 2, backWorkers = workerCount / 2;
	int frontSizes[CN_MAX_RANGES], backSizes[CN_MAX_RANGES];
	int front = cnCutHalf( itemCount / 2, minRange, frontWorkers, CN_RANGES_PER_WORKER * frontWorkers, frontSizes );
	int back = cnCutHalf( itemCount - itemCount / 2, minRange, backWorkers, CN_RANGES_PER_WORKER * backWorkers,
						  backSizes );
	int start = 0;
	for ( int r = 0; r < front; ++r )
	{
		bounds[r] = start;
		start += frontSizes[r];
	}
	// the back half's ranges in item order: its innermost first
	for ( int r = 0; r < back; ++r )
	{
		bounds[front + r] = start;
		start += backSizes[back - 1 - r];
	}
	bounds[front + back] = itemCount;
	return front + back;
}

// Claims and runs ranges of the loop of this generation (fields fn and context read after the
// generation was seen) until none are left or another loop began. The thread that finishes the last
// range wakes the caller if it sleeps.
static void cnRunRanges( cnTaskPool* pool, uint32_t generation, cnTaskFn* fn, void* context, int workerIndex )
{
	uint64_t state = atomic_load( &pool->state );
	bool fromBack = ( workerIndex & 1 ) != 0;
	for ( ;; )
	{
		if ( cnGeneration( state ) != generation || cnFrontRange( state ) >= cnBackRange( state ) )
		{
			return;
		}
		uint64_t claimed = fromBack ? state - ( (uint64_t)1 << 10 ) : state + 1;
		if ( atomic_compare_exchange_weak( &pool->state, &state, claimed ) == false )
		{
			// another worker claimed it (state now holds the current value)
			continue;
		}
		int r = fromBack ? cnBackRange( state ) - 1 : cnFrontRange( state );
		int rangeCount = cnRangeTotal( state );
		// the claim succeeded for this generation: its bounds stay until every range is done
		fn( pool->bounds[r], pool->bounds[r + 1], workerIndex, context );
		if ( atomic_fetch_add( &pool->finished, 1 ) + 1 == rangeCount && workerIndex != 0 &&
			 atomic_load( &pool->callerSleeps ) )
		{
			// under the mutex, which the caller holds from raising its flag until it waits
			pthread_mutex_lock( &pool->mutex );
			pthread_cond_broadcast( &pool->done );
			pthread_mutex_unlock( &pool->mutex );
		}
		state = atomic_load( &pool->state );
	}
}

static void* cnWorkerMain( void* argument )
{
	cnTaskThread* self = argument;
	cnTaskPool* pool = self->pool;
	uint32_t seen = 0;
	for ( ;; )
	{
		// wait for a new generation: spin a little, then sleep
		for ( int spin = 0; spin < CN_SPIN_COUNT && cnGeneration( atomic_load( &pool->state ) ) == seen &&
							atomic_load( &pool->quit ) == false;
			  ++spin )
		{
			cnPause();
		}
		if ( cnGeneration( atomic_load( &pool->state ) ) == seen && atomic_load( &pool->quit ) == false )
		{
			pthread_mutex_lock( &pool->mutex );
			// counted before the generation is checked again: a caller that publishes after this
			// check sees the count and signals under the mutex, after this thread waits
			atomic_fetch_add( &pool->sleepers, 1 );
			while ( cnGeneration( atomic_load( &pool->state ) ) == seen && atomic_load( &pool->quit ) == false )
			{
				pthread_cond_wait( &pool->wake, &pool->mutex );
			}
			atomic_fetch_sub( &pool->sleepers, 1 );
			pthread_mutex_unlock( &pool->mutex );
		}
		if ( atomic_load( &pool->quit ) )
		{
			return NULL;
		}
		seen = cnGeneration( atomic_load( &pool->state ) );
		cnTaskFn* fn = atomic_load( &pool->fn );
		void* context = atomic_load( &pool->context );
		cnRunRanges( pool, seen, fn, context, self->workerIndex );
	}
}

cnTaskPool* cnTaskPool_Create( int workerCount )
{
	int threadCount = workerCount - 1;
	if ( threadCount <= 0 )
	{
		return NULL;
	}
	cnTaskPool* pool = calloc( 1, sizeof( cnTaskPool ) );
	pthread_t* threads = calloc( (size_t)threadCount, sizeof( pthread_t ) );
	cnTaskThread* args = calloc( (size_t)threadCount, sizeof( cnTaskThread ) );
	if ( pool == NULL || threads == NULL || args == NULL )
	{
		free( pool );
		free( threads );
		free( args );
		cnSetError( cnError_outOfMemory, "out of memory for %d worker threads", threadCount );
		return NULL;
	}
	pool->threads = threads;
	pool->args = args;
	pthread_mutex_init( &pool->mutex, NULL );
	pthread_cond_init( &pool->wake, NULL );
	pthread_cond_init( &pool->done, NULL );
	atomic_init( &pool->fn, NULL );
	atomic_init( &pool->context, NULL );
	atomic_init( &pool->state, 0u );
	atomic_init( &pool->finished, 0 );
	atomic_init( &pool->sleepers, 0 );
	atomic_init( &pool->callerSleeps, false );
	atomic_init( &pool->quit, false );

	// the threads block every signal: a program's handlers (cairn run's SIGINT) run on its own threads
	sigset_t all, previous;
	sigfillset( &all );
	pthread_sigmask( SIG_SETMASK, &all, &previous );
	int failure = 0;
	for ( int i = 0; i < threadCount; ++i )
	{
		args[i].pool = pool;
		args[i].workerIndex = i + 1;
		failure = pthread_create( threads + i, NULL, cnWorkerMain, args + i );
		if ( failure != 0 )
		{
			pool->threadCount = i;
			break;
		}
		pool->threadCount = i + 1;
	}
	pthread_sigmask( SIG_SETMASK, &previous, NULL );
	if ( failure != 0 )
	{
		int started = pool->threadCount;
		cnTaskPool_Destroy( pool );
		cnSetError( cnError_outOfMemory, "cannot start worker thread %d of %d (%s)", started + 1, threadCount,
					strerror( failure ) );
		return NULL;
	}
	return pool;
}

void cnTaskPool_Destroy( cnTaskPool* pool )
{
	if ( pool == NULL )
	{
		return;
	}
	pthread_mutex_lock( &pool->mutex );
	atomic_store( &pool->quit, true );
	pthread_cond_broadcast( &pool->wake );
	pthread_mutex_unlock( &pool->mutex );
	for ( int i = 0; i < pool->threadCount; ++i )
	{
		pthread_join( pool->threads[i], NULL );
	}
	pthread_cond_destroy( &pool->wake );
	pthread_cond_destroy( &pool->done );
	pthread_mutex_destroy( &pool->mutex );
	free( pool->threads );
	free( pool->args );
	free( pool );
}

// Runs one loop on the pool's threads and the caller (worker 0). The caller waits for the loop's
// ranges, not for the threads: a thread that has not woken yet (a busy machine with fewer cores than
// workers) finds nothing left when it does and costs the caller nothing.
static void cnTaskPool_Run( cnTaskPool* pool, int itemCount, int minRange, cnTaskFn* fn, void* context )
{
	// every range of the last loop is done, so no thread reads these fields for it any more (the
	// bounds are read only after a claim of the new generation succeeds, which follows this store)
	int rangeCount = cnCutRanges( itemCount, minRange, pool->threadCount + 1, pool->bounds );
	atomic_store( &pool->fn, fn );
	atomic_store( &pool->context, context );
	atomic_store( &pool->finished, 0 );
	uint32_t generation = cnGeneration( atomic_load( &pool->state ) ) + 1u;
	atomic_store( &pool->state,
				  (uint64_t)generation << 32 | (uint64_t)rangeCount << 20 | (uint64_t)rangeCount << 10 );
	if ( atomic_load( &pool->sleepers ) > 0 )
	{
		pthread_mutex_lock( &pool->mutex );
		pthread_cond_broadcast( &pool->wake );
		pthread_mutex_unlock( &pool->mutex );
	}

	cnRunRanges( pool, generation, fn, context, 0 );

	// wait for the ranges other workers took: spin a little, then sleep
	for ( int spin = 0; atomic_load( &pool->finished ) != rangeCount && spin < CN_SPIN_COUNT; ++spin )
	{
		cnPause();
	}
	if ( atomic_load( &pool->finished ) != rangeCount )
	{
		pthread_mutex_lock( &pool->mutex );
		atomic_store( &pool->callerSleeps, true );
		while ( atomic_load( &pool->finished ) != rangeCount )
		{
			pthread_cond_wait( &pool->done, &pool->mutex );
		}
		atomic_store( &pool->callerSleeps, false );
		pthread_mutex_unlock( &pool->mutex );
	}
}

void cnParallelFor( cnWorld* world, int itemCount, int minRange, cnTaskFn* fn, void* context )
{
	if ( itemCount <= 0 )
	{
		return;
	}
	minRange = minRange < 1 ? 1 : minRange;
	if ( world->def.workerCount <= 1 || itemCount < 2 * minRange )
	{
		fn( 0, itemCount, 0, context );
		return;
	}
	if ( world->def.enqueueTask != NULL )
	{
		// the embedding program's scheduler splits the loop as it likes (NULL: it ran it all already)
		void* userTask = world->def.enqueueTask( fn, itemCount, minRange, context, world->def.userTaskContext );
		if ( userTask != NULL )
		{
			world->def.finishTask( userTask, world->def.userTaskContext );
		}
		return;
	}
	if ( world->taskPool == NULL )
	{
		fn( 0, itemCount, 0, context );
		return;
	}
	cnTaskPool_Run( world->taskPool, itemCount, minRange, fn, context );
}

int cnWorld_WorkerCount( const cnWorld* world )
{
	return world->def.workerCount;
}
