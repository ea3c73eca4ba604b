// SPDX-License-Identifier: MIT
// Islands and sleep. Each step, awake dynamic bodies are joined into islands through touching
// contacts (union-find; static bodies do not join islands). An island that something holds (one of
// its bodies touches a static body, a kinematic body at rest or a sleeping body) and whose bodies
// have all rested for timeToSleep falls asleep as a whole: its bodies stop costing time until something
// touches one of them, and then the whole island wakes together.
#include "island.h"

#include "arena.h"
#include "task.h"
#include "union_find.h"
#include "world.h"

#include <stdatomic.h>

#include <stdlib.h>
#include <string.h>

void cnWakeIsland( cnWorld* world, int islandIndex )
{
	if ( islandIndex < 0 || islandIndex >= world->sleepIslandCount )
	{
		return;
	}
	cnSleepIsland* island = world->sleepIslands + islandIndex;
	if ( island->used == false )
	{
		return;
	}
	for ( int i = 0; i < island->count; ++i )
	{
		cnBody* b = world->bodies + island->bodies[i];
		b->sleepIsland = -1;
		b->awake = true;
		b->sleepTime = 0.0;
	}
	island->used = false;
	island->count = 0;
}

static int cnAllocSleepIsland( cnWorld* world )
{
	for ( int i = 0; i < world->sleepIslandCount; ++i )
	{
		if ( world->sleepIslands[i].used == false )
		{
			return i;
		}
	}
	cnSleepIsland* islands = realloc( world->sleepIslands, (size_t)( world->sleepIslandCount + 1 ) * sizeof( cnSleepIsland ) );
	if ( islands == NULL )
	{
		return -1;
	}
	world->sleepIslands = islands;
	islands[world->sleepIslandCount] = (cnSleepIsland){ NULL, 0, false };
	return world->sleepIslandCount++;
}

// The contact pass of the islands stage, on the workers: each touching contact links its bodies in a
// lock-free union-find and marks what holds them. A link always hangs the larger root under the
// smaller (a compare-and-swap that retries when another link got there first), so every island ends
// with its smallest body index as its root whatever order the contacts came in: the grouping and the
// roots are the serial ones, bit for bit.
typedef struct cnLinkTask
{
	cnWorld* world;
	atomic_int* parent;
	// per body: touches something that holds it; touches a moving kinematic body
	atomic_bool* held;
	atomic_bool* pushed;
} cnLinkTask;

// The root of i's set; halves the path on the way (each hop to an ancestor, which stays in the set).
static int cnLinkFind( atomic_int* parent, int i )
{
	for ( ;; )
	{
		int p = atomic_load_explicit( parent + i, memory_order_acquire );
		if ( p == i )
		{
			return i;
		}
		int gp = atomic_load_explicit( parent + p, memory_order_acquire );
		if ( gp != p )
		{
			atomic_compare_exchange_weak_explicit( parent + i, &p, gp, memory_order_acq_rel, memory_order_relaxed );
		}
		i = gp;
	}
}

static void cnLinkUnion( atomic_int* parent, int a, int b )
{
	for ( ;; )
	{
		int ra = cnLinkFind( parent, a ), rb = cnLinkFind( parent, b );
		if ( ra == rb )
		{
			return;
		}
		int low = ra < rb ? ra : rb, high = ra < rb ? rb : ra;
		int expected = high;
		if ( atomic_compare_exchange_strong_explicit( parent + high, &expected, low, memory_order_acq_rel,
													  memory_order_acquire ) )
		{
			return;
		}
	}
}

static void cnLinkContactsRange( int start, int end, int workerIndex, void* context )
{
	(void)workerIndex;
	cnLinkTask* t = context;
	const cnWorld* world = t->world;
	for ( int i = start; i < end; ++i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->flags & cnContact_touching ) == 0 )
		{
			continue;
		}
		const cnBody* a = world->bodies + c->bodyA;
		const cnBody* b = world->bodies + c->bodyB;
		if ( a->type == cnBody_dynamic && b->type == cnBody_dynamic )
		{
			if ( a->awake && b->awake )
			{
				cnLinkUnion( t->parent, c->bodyA, c->bodyB );
			}
			if ( b->awake == false )
			{
				atomic_store_explicit( t->held + c->bodyA, true, memory_order_relaxed );
			}
			if ( a->awake == false )
			{
				atomic_store_explicit( t->held + c->bodyB, true, memory_order_relaxed );
			}
		}
		else if ( a->type == cnBody_kinematic && cnLengthSquared( a->v ) + cnLengthSquared( a->w ) > 0.0 )
		{
			// a moving kinematic body keeps what it touches awake
			atomic_store_explicit( t->pushed + c->bodyB, true, memory_order_relaxed );
		}
		else if ( b->type == cnBody_kinematic && cnLengthSquared( b->v ) + cnLengthSquared( b->w ) > 0.0 )
		{
			atomic_store_explicit( t->pushed + c->bodyA, true, memory_order_relaxed );
		}
		else
		{
			// a static body, or a kinematic one at rest
			atomic_store_explicit( t->held + c->bodyA, true, memory_order_relaxed );
			atomic_store_explicit( t->held + c->bodyB, true, memory_order_relaxed );
		}
	}
}

// Contacts per range of the contact pass.
#define CN_LINK_MIN_RANGE 128
// Bodies per range of the body pass.
#define CN_SLEEP_BODY_MIN_RANGE 256

// What the serial part of the sleep stage needs of each body, read from the body records on the
// workers (a cache miss per body on one thread was the stage's main serial cost in a falling pile).
typedef struct cnSleepTask
{
	cnWorld* world;
	const cnLinkTask* link;
	int* parent;
	bool* held;
	// alive, dynamic and awake: the bodies that form islands
	bool* member;
	// the body's sleep time (0 when it may not sleep)
	double* sleepTime;
} cnSleepTask;

// Bodies [start, end): the links into plain arrays, and a pushed body's sleep timer reset.
static void cnUnlinkBodiesRange( int start, int end, int workerIndex, void* context )
{
	(void)workerIndex;
	const cnSleepTask* t = context;
	for ( int i = start; i < end; ++i )
	{
		t->parent[i] = atomic_load_explicit( t->link->parent + i, memory_order_relaxed );
		t->held[i] = atomic_load_explicit( t->link->held + i, memory_order_relaxed );
		if ( atomic_load_explicit( t->link->pushed + i, memory_order_relaxed ) )
		{
			t->world->bodies[i].sleepTime = 0.0;
		}
	}
}

// Bodies [start, end): what the islands need of each (after the joints, which may wake bodies and
// reset sleep timers).
static void cnSleepBodiesRange( int start, int end, int workerIndex, void* context )
{
	(void)workerIndex;
	const cnSleepTask* t = context;
	for ( int i = start; i < end; ++i )
	{
		const cnBody* b = t->world->bodies + i;
		t->member[i] = b->alive && b->type == cnBody_dynamic && b->awake;
		t->sleepTime[i] = b->enableSleep ? b->sleepTime : 0.0;
	}
}

void cnUpdateSleep( cnWorld* world, double timeStep )
{
	(void)timeStep;
	int n = world->bodyCount;
	size_t slots = (size_t)( n > 0 ? n : 1 );

	// link awake dynamic bodies through touching contacts, on the workers. held[i]: body i touches
	// something that holds it (a static body, a kinematic body at rest, or a sleeping body). Only an
	// island that something holds may sleep: a free body drifting or spinning slowly in space keeps
	// its motion, since nothing would stop it.
	cnLinkTask link = { world, cnArena_Alloc( &world->arena, slots * sizeof( atomic_int ) ),
						cnArena_Alloc( &world->arena, slots * sizeof( atomic_bool ) ),
						cnArena_Alloc( &world->arena, slots * sizeof( atomic_bool ) ) };
	for ( int i = 0; i < n; ++i )
	{
		atomic_init( link.parent + i, i );
		atomic_init( link.held + i, false );
		atomic_init( link.pushed + i, false );
	}
	cnParallelFor( world, world->contactCount, CN_LINK_MIN_RANGE, cnLinkContactsRange, &link );

	// back to plain arrays for the serial rest (the workers have finished), with what it reads of
	// each body
	cnSleepTask task = { world, &link, cnArena_Alloc( &world->arena, slots * sizeof( int ) ),
						 cnArena_Alloc( &world->arena, slots * sizeof( bool ) ),
						 cnArena_Alloc( &world->arena, slots * sizeof( bool ) ),
						 cnArena_Alloc( &world->arena, slots * sizeof( double ) ) };
	cnParallelFor( world, n, CN_SLEEP_BODY_MIN_RANGE, cnUnlinkBodiesRange, &task );
	int* parent = task.parent;
	bool* held = task.held;

	// joints link their bodies into one island; a joint to the world or a static body holds its body
	cnLinkJointIslands( world, parent, held );
	cnParallelFor( world, n, CN_SLEEP_BODY_MIN_RANGE, cnSleepBodiesRange, &task );

	// the smallest sleep time of each island, kept at its root
	double* minSleep = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( double ) );
	int* islandSize = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	for ( int i = 0; i < n; ++i )
	{
		minSleep[i] = INFINITY;
		islandSize[i] = 0;
	}
	bool* heldIsland = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( bool ) );
	memset( heldIsland, 0, (size_t)( n > 0 ? n : 1 ) * sizeof( bool ) );
	int islandCount = 0;
	for ( int i = 0; i < n; ++i )
	{
		if ( task.member[i] == false )
		{
			continue;
		}
		int root = cnUnionFind_Find( parent, i );
		if ( islandSize[root] == 0 )
		{
			islandCount += 1;
		}
		islandSize[root] += 1;
		double t = task.sleepTime[i];
		minSleep[root] = t < minSleep[root] ? t : minSleep[root];
		heldIsland[root] = heldIsland[root] || held[i];
	}
	world->stats.islandCount = islandCount;

	// put islands at rest to sleep
	if ( world->def.enableSleep )
	{
		double timeToSleep = world->def.timeToSleep;
		int* islandOf = islandSize; // reuse: root -> sleeping island index
		for ( int i = 0; i < n; ++i )
		{
			if ( task.member[i] == false )
			{
				continue;
			}
			int root = cnUnionFind_Find( parent, i );
			if ( minSleep[root] < timeToSleep || heldIsland[root] == false )
			{
				continue;
			}
			cnBody* b = world->bodies + i;
			if ( root == i )
			{
				// the root is the first body of its island in index order: allocate here
				int index = cnAllocSleepIsland( world );
				if ( index < 0 )
				{
					minSleep[root] = 0.0;
					continue;
				}
				int size = islandSize[root];
				cnSleepIsland* island = world->sleepIslands + index;
				int* bodies = realloc( island->bodies, (size_t)size * sizeof( int ) );
				if ( bodies == NULL )
				{
					minSleep[root] = 0.0;
					continue;
				}
				island->bodies = bodies;
				island->count = 0;
				island->used = true;
				islandOf[root] = index;
			}
			cnSleepIsland* island = world->sleepIslands + islandOf[root];
			island->bodies[island->count++] = i;
			b->sleepIsland = islandOf[root];
			b->awake = false;
			b->v = cnVec3_zero;
			b->w = cnVec3_zero;
		}
	}

	int sleeping = 0;
	for ( int i = 0; i < world->sleepIslandCount; ++i )
	{
		sleeping += world->sleepIslands[i].used ? 1 : 0;
	}
	world->stats.sleepingIslandCount = sleeping;
}

void cnWakeBody( cnWorld* world, cnBody* body )
{
	if ( body->type == cnBody_static )
	{
		return;
	}
	if ( body->sleepIsland >= 0 )
	{
		cnWakeIsland( world, body->sleepIsland );
	}
	body->awake = true;
	body->sleepTime = 0.0;
}
