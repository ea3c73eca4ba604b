// SPDX-License-Identifier: MIT
// Contact events (contact_events.h). Touch events follow the shared narrow phase, which every
// method gets its contacts from, so they mean the same in every method: a contact begins touching
// when its manifold gets points (speculative ones included, as in Box2D v3) and ends when it loses
// them or is removed while touching. Sleeping contacts keep their state and report nothing.
//
// Hit events cannot read impulses, which only the impulse and velocity-level methods keep (the
// penalty and constraint methods integrate forces inside the step). They compare velocities
// instead: the narrow phase measures each contact's fastest approaching point at the start of the
// step, and after the method a contact reports a hit when that approach was faster than the
// threshold, the point could reach the other surface within the step, and the approach at that
// point is now slower than it was (free motion under gravity would only have made it faster). The
// approach speed reported is the one at the start of the step, within g h of the speed at the
// moment of impact. One impact gives one event: a contact that reported a hit waits until its
// approach drops below the threshold before it can report another, so a soft contact stopped over
// several steps still counts once.
#include "contact_events.h"

#include "arena.h"
#include "error.h"
#include "lookup.h"
#include "task.h"
#include "world.h"

#include <stdlib.h>

// Grows an event array to hold one more; false when out of memory (the event is then dropped).
static bool cnReserveEvent( void** data, int count, int* capacity, size_t size )
{
	if ( count < *capacity )
	{
		return true;
	}
	int grown = *capacity > 0 ? 2 * *capacity : 16;
	void* p = realloc( *data, (size_t)grown * size );
	if ( p == NULL )
	{
		return false;
	}
	*data = p;
	*capacity = grown;
	return true;
}

static cnShapeId cnShapeIdOf( const cnWorld* world, int index )
{
	cnShapeId id = { index, world->shapes[index].generation };
	return id;
}

void cnDestroyContactEvents( cnContactEventBuffer* events )
{
	free( events->begins );
	free( events->ends[0] );
	free( events->ends[1] );
	free( events->hits );
	*events = ( cnContactEventBuffer ){ 0 };
}

void cnClearContactEvents( cnWorld* world )
{
	world->events.beginCount = 0;
	world->events.hitCount = 0;
}

void cnPublishEndEvents( cnWorld* world )
{
	cnContactEventBuffer* e = &world->events;
	e->endIndex = 1 - e->endIndex;
	e->endCount[e->endIndex] = 0;
}

void cnContactBegan( cnWorld* world, cnContact* c )
{
	c->flags &= ~cnContact_hitReported;
	const cnShape* sa = world->shapes + c->shapeA;
	const cnShape* sb = world->shapes + c->shapeB;
	if ( sa->enableContactEvents == false && sb->enableContactEvents == false )
	{
		return;
	}
	cnContactEventBuffer* e = &world->events;
	if ( cnReserveEvent( (void**)&e->begins, e->beginCount, &e->beginCapacity, sizeof( cnContactBeginTouchEvent ) ) ==
		 false )
	{
		return;
	}
	// the deepest point of all the pair's manifolds
	cnContactBeginTouchEvent* event = e->begins + e->beginCount++;
	event->shapeIdA = cnShapeIdOf( world, c->shapeA );
	event->shapeIdB = cnShapeIdOf( world, c->shapeB );
	double deepest = INFINITY;
	for ( int k = 0; k < c->manifoldCount; ++k )
	{
		const cnManifold* m = cnContactManifold( c, k );
		for ( int j = 0; j < m->pointCount; ++j )
		{
			if ( m->points[j].separation < deepest )
			{
				deepest = m->points[j].separation;
				event->point = m->points[j].point;
				event->normal = m->points[j].normal;
			}
		}
	}
	c->flags |= cnContact_reported;
}

void cnContactEnded( cnWorld* world, cnContact* c )
{
	c->flags &= ~cnContact_hitReported;
	if ( ( c->flags & cnContact_reported ) == 0 )
	{
		return;
	}
	c->flags &= ~cnContact_reported;
	cnContactEventBuffer* e = &world->events;
	int i = e->endIndex;
	if ( cnReserveEvent( (void**)&e->ends[i], e->endCount[i], &e->endCapacity[i], sizeof( cnContactEndTouchEvent ) ) ==
		 false )
	{
		return;
	}
	cnContactEndTouchEvent* event = e->ends[i] + e->endCount[i]++;
	event->shapeIdA = cnShapeIdOf( world, c->shapeA );
	event->shapeIdB = cnShapeIdOf( world, c->shapeB );
}

// Approach speed of the point with the given anchors along n: minus the normal part of the velocity
// of B's point relative to A's.
static double cnApproachSpeed( const cnBody* ba, const cnBody* bb, cnVec3 anchorA, cnVec3 anchorB, cnVec3 n )
{
	cnVec3 va = cnAdd( ba->v, cnCross( ba->w, anchorA ) );
	cnVec3 vb = cnAdd( bb->v, cnCross( bb->w, anchorB ) );
	return -cnDot( n, cnSub( vb, va ) );
}

void cnMeasureApproach( const cnWorld* world, cnContact* c )
{
	c->approach.speed = 0.0;
	const cnShape* sa = world->shapes + c->shapeA;
	const cnShape* sb = world->shapes + c->shapeB;
	if ( sa->enableHitEvents == false && sb->enableHitEvents == false )
	{
		return;
	}
	const cnBody* ba = world->bodies + c->bodyA;
	const cnBody* bb = world->bodies + c->bodyB;
	for ( int k = 0; k < c->manifoldCount; ++k )
	{
		const cnManifold* m = cnContactManifold( c, k );
		for ( int j = 0; j < m->pointCount; ++j )
		{
			const cnManifoldPoint* mp = m->points + j;
			cnVec3 anchorA = cnSub( mp->point, ba->center );
			cnVec3 anchorB = cnSub( mp->point, bb->center );
			double speed = cnApproachSpeed( ba, bb, anchorA, anchorB, mp->normal );
			if ( speed > c->approach.speed )
			{
				c->approach = ( cnContactApproach ){ mp->point, mp->normal, anchorA, anchorB, speed, mp->separation };
			}
		}
	}
}

typedef struct cnHitTask
{
	cnWorld* world;
	double timeStep;
	// per contact: 1 when it reports a hit this step
	uint8_t* hit;
} cnHitTask;

// Which of contacts [start, end) report a hit this step: each writes only its own flags and byte.
static void cnFindHitsRange( int start, int end, int workerIndex, void* context )
{
	(void)workerIndex;
	cnHitTask* t = context;
	const cnWorld* world = t->world;
	const double threshold = world->def.hitEventThreshold;
	for ( int i = start; i < end; ++i )
	{
		cnContact* c = world->contacts + i;
		const cnContactApproach* a = &c->approach;
		t->hit[i] = 0;
		if ( ( c->flags & cnContact_touching ) == 0 || a->speed <= threshold )
		{
			// no approach, or one too slow to count: the next fast one is a new impact
			c->flags &= ~cnContact_hitReported;
			continue;
		}
		if ( c->flags & cnContact_hitReported )
		{
			continue;
		}
		// the point must be able to meet the other surface within the step (the speculative distance
		// covers what gravity adds over one step), and the method must have slowed it down
		if ( a->separation > a->speed * t->timeStep + world->def.speculativeDistance )
		{
			continue;
		}
		const cnBody* ba = world->bodies + c->bodyA;
		const cnBody* bb = world->bodies + c->bodyB;
		if ( cnApproachSpeed( ba, bb, a->anchorA, a->anchorB, a->normal ) >= a->speed )
		{
			continue;
		}
		c->flags |= cnContact_hitReported;
		t->hit[i] = 1;
	}
}

// Contacts per range of the parallel pass.
#define CN_HIT_MIN_RANGE 64

void cnCollectHitEvents( cnWorld* world, double timeStep )
{
	int n = world->contactCount;
	if ( n == 0 )
	{
		return;
	}
	// the contacts that hit, in parallel; then their events, serially in contact order
	cnHitTask task = { world, timeStep, cnArena_Alloc( &world->arena, (size_t)n ) };
	cnParallelFor( world, n, CN_HIT_MIN_RANGE, cnFindHitsRange, &task );
	cnContactEventBuffer* e = &world->events;
	for ( int i = 0; i < n; ++i )
	{
		if ( task.hit[i] == 0 ||
			 cnReserveEvent( (void**)&e->hits, e->hitCount, &e->hitCapacity, sizeof( cnContactHitEvent ) ) == false )
		{
			continue;
		}
		const cnContact* c = world->contacts + i;
		cnContactHitEvent* event = e->hits + e->hitCount++;
		event->shapeIdA = cnShapeIdOf( world, c->shapeA );
		event->shapeIdB = cnShapeIdOf( world, c->shapeB );
		event->point = c->approach.point;
		event->normal = c->approach.normal;
		event->approachSpeed = c->approach.speed;
	}
}

// ---------------------------------------------------------------------------------------------
// API

cnContactEvents cnWorld_GetContactEvents( const cnWorld* world )
{
	cnContactEvents events = { 0 };
	if ( cnRequireWorld( world ) == false )
	{
		return events;
	}
	const cnContactEventBuffer* e = &world->events;
	int published = 1 - e->endIndex;
	events.beginEvents = e->begins;
	events.beginCount = e->beginCount;
	events.endEvents = e->ends[published];
	events.endCount = e->endCount[published];
	events.hitEvents = e->hits;
	events.hitCount = e->hitCount;
	cnClearError();
	return events;
}

bool cnWorld_SetHitEventThreshold( cnWorld* world, double threshold )
{
	if ( cnRequireWorld( world ) == false )
	{
		return false;
	}
	if ( !isfinite( threshold ) || threshold < 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "hit event threshold must be finite and >= 0 (got %g)", threshold );
	}
	world->def.hitEventThreshold = threshold;
	cnClearError();
	return true;
}

bool cnShape_EnableContactEvents( cnWorld* world, cnShapeId id, bool flag )
{
	cnShape* s = cnGetShape( world, id );
	if ( s == NULL )
	{
		return false;
	}
	s->enableContactEvents = flag;
	cnClearError();
	return true;
}

bool cnShape_EnableHitEvents( cnWorld* world, cnShapeId id, bool flag )
{
	cnShape* s = cnGetShape( world, id );
	if ( s == NULL )
	{
		return false;
	}
	s->enableHitEvents = flag;
	cnClearError();
	return true;
}
