// SPDX-License-Identifier: MIT
// Islands and sleep. Each step, awake dynamic bodies are joined into islands through touching
// contacts (union-find; static bodies do not join islands). An island that something holds (one of
// its bodies touches a static body, a kinematic body at rest or a sleeping body) and whose bodies
// have all rested for timeToSleep falls asleep as a whole: its bodies stop costing time until something
// touches one of them, and then the whole island wakes together.
#include "island.h"

#include "union_find.h"
#include "world.h"

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

void cnUpdateSleep( cnWorld* world, double timeStep )
{
	(void)timeStep;
	int n = world->bodyCount;
	int* parent = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	cnUnionFind_Reset( parent, n );

	// held[i]: body i touches something that holds it (a static body, a kinematic body at rest, or a
	// sleeping body). Only an island that something holds may sleep: a free body drifting or
	// spinning slowly in space keeps its motion, since nothing would stop it.
	bool* held = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( bool ) );
	memset( held, 0, (size_t)( n > 0 ? n : 1 ) * sizeof( bool ) );

	// link awake dynamic bodies through touching contacts; a moving kinematic body keeps what it
	// touches awake
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->flags & cnContact_touching ) == 0 )
		{
			continue;
		}
		cnBody* a = world->bodies + c->bodyA;
		cnBody* b = world->bodies + c->bodyB;
		if ( a->type == cnBody_dynamic && b->type == cnBody_dynamic )
		{
			if ( a->awake && b->awake )
			{
				cnUnionFind_Union( parent, c->bodyA, c->bodyB );
			}
			held[c->bodyA] = held[c->bodyA] || b->awake == false;
			held[c->bodyB] = held[c->bodyB] || a->awake == false;
		}
		else if ( a->type == cnBody_kinematic && cnLengthSquared( a->v ) + cnLengthSquared( a->w ) > 0.0 )
		{
			b->sleepTime = 0.0;
		}
		else if ( b->type == cnBody_kinematic && cnLengthSquared( b->v ) + cnLengthSquared( b->w ) > 0.0 )
		{
			a->sleepTime = 0.0;
		}
		else
		{
			// a static body, or a kinematic one at rest
			held[c->bodyA] = held[c->bodyA] || a->type != cnBody_dynamic || b->type != cnBody_dynamic;
			held[c->bodyB] = held[c->bodyB] || a->type != cnBody_dynamic || b->type != cnBody_dynamic;
		}
	}

	// joints link their bodies into one island; a joint to the world or a static body holds its body
	cnLinkJointIslands( world, parent, held );

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
		const cnBody* b = world->bodies + i;
		if ( b->alive == false || b->type != cnBody_dynamic || b->awake == false )
		{
			continue;
		}
		int root = cnUnionFind_Find( parent, i );
		if ( islandSize[root] == 0 )
		{
			islandCount += 1;
		}
		islandSize[root] += 1;
		double t = b->enableSleep ? b->sleepTime : 0.0;
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
			cnBody* b = world->bodies + i;
			if ( b->alive == false || b->type != cnBody_dynamic || b->awake == false )
			{
				continue;
			}
			int root = cnUnionFind_Find( parent, i );
			if ( minSleep[root] < timeToSleep || heldIsland[root] == false )
			{
				continue;
			}
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
