// SPDX-License-Identifier: MIT
// The task system (task.h): a parallel for over the world's workers. The thread that steps the world
// is worker 0; a world of N workers starts N - 1 threads when it is created (or none, when the
// embedding program brings its own scheduler through cnWorldDef.enqueueTask and finishTask).
//
// One loop runs at a time. The caller publishes it by bumping the pool's generation; every thread
// then takes ranges from a shared counter until none are left and checks out, and the last one
// wakes the caller. Between loops a thread spins for a short while (the step's loops come in quick
// succession) and then sleeps on a condition variable, so an idle world costs no CPU: the machines
// Cairn runs on are often shared, with fewer cores than workers.
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

// more ranges than workers evens out ranges of unequal cost; each range still has >= minRange items
#define CN_RANGES_PER_WORKER 4

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
	pthread_mutex_t mutex;
	// threads wait here for the next loop (or quit)
	pthread_cond_t wake;
	// the caller waits here for the last thread of a loop
	pthread_cond_t done;

	// the current loop: written by the caller before it bumps the generation, read-only until every
	// thread has checked out of it
	cnTaskFn* fn;
	void* context;
	int itemCount;
	int rangeCount;

	atomic_int nextRange;
	// threads that have not yet checked out of the current loop
	atomic_int busy;
	atomic_uint generation;
	atomic_bool quit;
};

static inline void cnPause( void )
{
#if defined( __x86_64__ ) || defined( __i386__ )
	__builtin_ia32_pause();
#elif defined( __aarch64__ ) || defined( __arm__ )
	__asm__ __volatile__( "yield" );
#endif
}

// Range r of rangeCount contiguous ranges over [0, itemCount): its first item (64-bit products: no
// overflow for any int count).
static inline int cnRangeStart( int r, int rangeCount, int itemCount )
{
	return (int)( (int64_t)r * itemCount / rangeCount );
}

// Takes ranges of the current loop until none are left.
static void cnRunRanges( cnTaskPool* pool, int workerIndex )
{
	for ( ;; )
	{
		int r = atomic_fetch_add( &pool->nextRange, 1 );
		if ( r >= pool->rangeCount )
		{
			return;
		}
		int start = cnRangeStart( r, pool->rangeCount, pool->itemCount );
		int end = cnRangeStart( r + 1, pool->rangeCount, pool->itemCount );
		pool->fn( start, end, workerIndex, pool->context );
	}
}

static void* cnWorkerMain( void* argument )
{
	cnTaskThread* self = argument;
	cnTaskPool* pool = self->pool;
	unsigned seen = 0;
	for ( ;; )
	{
		// wait for a new generation: spin a little, then sleep
		unsigned generation = atomic_load( &pool->generation );
		for ( int spin = 0; generation == seen && spin < CN_SPIN_COUNT && atomic_load( &pool->quit ) == false; ++spin )
		{
			cnPause();
			generation = atomic_load( &pool->generation );
		}
		if ( generation == seen )
		{
			pthread_mutex_lock( &pool->mutex );
			while ( ( generation = atomic_load( &pool->generation ) ) == seen && atomic_load( &pool->quit ) == false )
			{
				pthread_cond_wait( &pool->wake, &pool->mutex );
			}
			pthread_mutex_unlock( &pool->mutex );
		}
		if ( atomic_load( &pool->quit ) )
		{
			return NULL;
		}
		seen = generation;

		cnRunRanges( pool, self->workerIndex );

		// check out; the last one wakes the caller (under the mutex, so the wake cannot fall between
		// the caller's check and its wait)
		if ( atomic_fetch_sub( &pool->busy, 1 ) == 1 )
		{
			pthread_mutex_lock( &pool->mutex );
			pthread_cond_broadcast( &pool->done );
			pthread_mutex_unlock( &pool->mutex );
		}
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
	atomic_init( &pool->nextRange, 0 );
	atomic_init( &pool->busy, 0 );
	atomic_init( &pool->generation, 0u );
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

// Runs one loop on the pool's threads and the caller (worker 0).
static void cnTaskPool_Run( cnTaskPool* pool, int itemCount, int rangeCount, cnTaskFn* fn, void* context )
{
	pool->fn = fn;
	pool->context = context;
	pool->itemCount = itemCount;
	pool->rangeCount = rangeCount;
	atomic_store( &pool->nextRange, 0 );
	atomic_store( &pool->busy, pool->threadCount );
	pthread_mutex_lock( &pool->mutex );
	atomic_fetch_add( &pool->generation, 1u );
	pthread_cond_broadcast( &pool->wake );
	pthread_mutex_unlock( &pool->mutex );

	cnRunRanges( pool, 0 );

	// wait for the threads to check out: spin a little, then sleep
	for ( int spin = 0; atomic_load( &pool->busy ) != 0 && spin < CN_SPIN_COUNT; ++spin )
	{
		cnPause();
	}
	if ( atomic_load( &pool->busy ) != 0 )
	{
		pthread_mutex_lock( &pool->mutex );
		while ( atomic_load( &pool->busy ) != 0 )
		{
			pthread_cond_wait( &pool->done, &pool->mutex );
		}
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
	int workerCount = world->def.workerCount;
	int rangeCount = itemCount / minRange;
	if ( rangeCount > CN_RANGES_PER_WORKER * workerCount )
	{
		rangeCount = CN_RANGES_PER_WORKER * workerCount;
	}
	if ( workerCount <= 1 || rangeCount <= 1 )
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
	cnTaskPool_Run( world->taskPool, itemCount, rangeCount, fn, context );
}

int cnWorld_WorkerCount( const cnWorld* world )
{
	return world->def.workerCount;
}
