// SPDX-License-Identifier: MIT
// Contacts: the broad-phase stage that creates them and the narrow-phase stage that updates
// their manifolds, carrying impulses over from the previous step by feature id.
#include "contact.h"

#include "error.h"
#include "island.h"
#include "lookup.h"
#include "methods/method.h"
#include "task.h"
#include "world.h"

#include <stdlib.h>
#include <string.h>

// Speculative margins never exceed this (metres): beyond it a body is moving so fast that one
// step's prediction is meaningless anyway.
#define CN_MAX_SPECULATIVE 4.0

// An old contact point this close to a new one (metres) hands its impulse over when the feature
// ids do not match.
#define CN_MATCH_DISTANCE 0.02

bool cnShouldShapesCollide( const cnShape* a, const cnShape* b )
{
	if ( a->groupIndex == b->groupIndex && a->groupIndex != 0 )
	{
		return a->groupIndex > 0;
	}
	return ( a->maskBits & b->categoryBits ) != 0 && ( a->categoryBits & b->maskBits ) != 0;
}

// Broad-phase callback: a new pair of overlapping fat boxes.
static void cnPairFound( int32_t shapeIndexA, int32_t shapeIndexB, void* context )
{
	cnWorld* world = context;
	uint64_t key = cnPairKey( shapeIndexA, shapeIndexB );
	if ( cnPairMap_Find( &world->contactMap, key ) >= 0 )
	{
		return;
	}

	const cnShape* sa = world->shapes + shapeIndexA;
	const cnShape* sb = world->shapes + shapeIndexB;
	if ( sa->body == sb->body )
	{
		return;
	}
	const cnBody* ba = world->bodies + sa->body;
	const cnBody* bb = world->bodies + sb->body;
	if ( ba->type != cnBody_dynamic && bb->type != cnBody_dynamic )
	{
		return;
	}
	if ( sa->geom.type == cnShape_plane && sb->geom.type == cnShape_plane )
	{
		return;
	}
	if ( !cnShouldShapesCollide( sa, sb ) )
	{
		return;
	}
	if ( world->disabledPairs.count > 0 && cnPairMap_Find( &world->disabledPairs, cnPairKey( sa->body, sb->body ) ) >= 0 )
	{
		return;
	}
	if ( cnJointsDisableCollision( world, sa->body, sb->body ) )
	{
		return;
	}

	if ( world->contactCount == world->contactCapacity )
	{
		int capacity = world->contactCapacity > 0 ? 2 * world->contactCapacity : 256;
		cnContact* contacts = realloc( world->contacts, (size_t)capacity * sizeof( cnContact ) );
		if ( contacts == NULL )
		{
			// out of memory: the pair is simply not simulated, the broad phase reports it again later
			return;
		}
		world->contacts = contacts;
		world->contactCapacity = capacity;
	}

	int index = world->contactCount++;
	cnContact* c = world->contacts + index;
	memset( c, 0, sizeof( cnContact ) );
	c->key = key;
	c->shapeA = shapeIndexA;
	c->shapeB = shapeIndexB;
	c->bodyA = sa->body;
	c->bodyB = sb->body;
	cnMixMaterials( world, sa->material, sb->material, &c->friction, &c->restitution );
	cnPairMap_Insert( &world->contactMap, key, index );
}

typedef struct cnPairTask
{
	const cnBroadPhase* broadPhase;
	// pairs that have their contact already: not reported again
	const cnPairMap* known;
	cnPairBuffer* buffers;
} cnPairTask;

static void cnQueryPairsRange( int start, int end, int workerIndex, void* context )
{
	cnPairTask* t = context;
	cnBroadPhase_QueryMoved( t->broadPhase, start, end, t->known, t->buffers + workerIndex );
}

// Moved proxies queried per range of the parallel pass.
#define CN_QUERY_MIN_RANGE 32

void cnUpdatePairs( cnWorld* world )
{
	// one pair buffer per worker, kept from step to step
	int workerCount = cnWorld_WorkerCount( world );
	if ( world->pairBufferCount < workerCount )
	{
		cnPairBuffer* grown = realloc( world->pairBuffers, (size_t)workerCount * sizeof( cnPairBuffer ) );
		if ( grown == NULL )
		{
			// out of memory: the serial update needs no buffers of the world's
			world->stats.pairCount = cnBroadPhase_UpdatePairs( &world->broadPhase, cnPairFound, world );
			return;
		}
		memset( grown + world->pairBufferCount, 0, (size_t)( workerCount - world->pairBufferCount ) * sizeof( cnPairBuffer ) );
		world->pairBuffers = grown;
		world->pairBufferCount = workerCount;
	}

	// the moved proxies' tree queries in parallel (they only read the trees and the contact map, and
	// skip pairs that have their contact), then the new pairs sorted and turned into contacts
	// serially: the pairs are a sorted set, the same however the queries were split
	cnPairTask task = { &world->broadPhase, &world->contactMap, world->pairBuffers };
	cnParallelFor( world, cnBroadPhase_GetMoveCount( &world->broadPhase ), CN_QUERY_MIN_RANGE, cnQueryPairsRange, &task );
	world->stats.pairCount =
		cnBroadPhase_ReportPairs( &world->broadPhase, world->pairBuffers, world->pairBufferCount, cnPairFound, world );
}

void cnDestroyContact( cnWorld* world, int contactIndex )
{
	cnContact* c = world->contacts + contactIndex;
	// a touching contact that goes (its shape or body destroyed, its pair filtered) ends its touch
	cnContactEnded( world, c );
	cnPairMap_Remove( &world->contactMap, c->key );
	cnFreeContact( c );
	int last = world->contactCount - 1;
	if ( contactIndex != last )
	{
		world->contacts[contactIndex] = world->contacts[last];
		cnPairMap_Insert( &world->contactMap, world->contacts[contactIndex].key, contactIndex );
	}
	world->contactCount -= 1;
}

void cnFreeContact( cnContact* c )
{
	free( c->moreManifolds );
	c->moreManifolds = NULL;
	c->moreCapacity = 0;
}

// Sets the solver fields of fresh manifold points and carries the impulses of the last step's points
// over (warm starting): points with the same feature id first; a point whose id changed (the clipping
// picked another reference face of a nearly symmetric pair) takes the impulse of an unclaimed old
// point at nearly the same place instead, as Bullet's persistent manifolds do, so resting stacks keep
// their converged impulses. Feature ids are unique within a pair, across all its manifolds.
static void cnCarryImpulses( const cnManifold* const* old, int oldCount, cnManifold* fresh, int freshCount,
							 const cnBody* ba, const cnBody* bb )
{
	bool claimed[CN_MAX_PAIR_MANIFOLDS][CN_MAX_MANIFOLD_POINTS] = { { false } };
	for ( int f = 0; f < freshCount; ++f )
	{
		cnManifold* m = fresh + f;
		for ( int k = 0; k < m->pointCount; ++k )
		{
			cnManifoldPoint* mp = m->points + k;
			// each body's anchor is its own surface point, half the separation either side of the
			// manifold point: a speculative point's midpoint lies in the gap, and friction applied
			// there would act on a lever arm longer than the body's
			cnVec3 surfaceA = cnMulSub( mp->point, 0.5 * mp->separation, mp->normal );
			cnVec3 surfaceB = cnMulAdd( mp->point, 0.5 * mp->separation, mp->normal );
			mp->anchorA = cnSub( surfaceA, ba->center );
			mp->anchorB = cnSub( surfaceB, bb->center );
			mp->normalImpulse = 0.0;
			mp->tangentImpulse1 = 0.0;
			mp->tangentImpulse2 = 0.0;
			mp->maxNormalImpulse = 0.0;
			mp->relativeVelocity = 0.0;
			mp->persisted = false;
			for ( int o = 0; o < oldCount && mp->persisted == false; ++o )
			{
				for ( int j = 0; j < old[o]->pointCount; ++j )
				{
					const cnManifoldPoint* op = old[o]->points + j;
					if ( op->id == mp->id && claimed[o][j] == false )
					{
						claimed[o][j] = true;
						mp->normalImpulse = op->normalImpulse;
						mp->tangentImpulse1 = op->tangentImpulse1;
						mp->tangentImpulse2 = op->tangentImpulse2;
						mp->persisted = true;
						break;
					}
				}
			}
		}
	}
	for ( int f = 0; f < freshCount; ++f )
	{
		cnManifold* m = fresh + f;
		for ( int k = 0; k < m->pointCount; ++k )
		{
			cnManifoldPoint* mp = m->points + k;
			if ( mp->persisted )
			{
				continue;
			}
			int bestO = -1, bestJ = -1;
			double bestDistance = CN_MATCH_DISTANCE * CN_MATCH_DISTANCE;
			for ( int o = 0; o < oldCount; ++o )
			{
				for ( int j = 0; j < old[o]->pointCount; ++j )
				{
					double d2 = cnLengthSquared( cnSub( old[o]->points[j].point, mp->point ) );
					if ( claimed[o][j] == false && d2 < bestDistance )
					{
						bestO = o;
						bestJ = j;
						bestDistance = d2;
					}
				}
			}
			if ( bestO >= 0 )
			{
				const cnManifoldPoint* op = old[bestO]->points + bestJ;
				claimed[bestO][bestJ] = true;
				mp->normalImpulse = op->normalImpulse;
				mp->tangentImpulse1 = op->tangentImpulse1;
				mp->tangentImpulse2 = op->tangentImpulse2;
				mp->persisted = true;
			}
		}
	}
}

// Narrow phase of a pair that makes several manifolds (planar polygons, meshes, heightfields): its
// manifolds (grouped by normal) replace the contact's, the first inline and the others in the
// contact's own array, grown as needed.
static void cnCollideManyContact( cnContact* c, const cnGeometry* a, cnTransform xfA, const cnGeometry* b,
									 cnTransform xfB, double margin, const cnBody* ba, const cnBody* bb )
{
	cnManifold fresh[CN_MAX_PAIR_MANIFOLDS];
	int count = cnCollidePair( a, xfA, b, xfB, margin, fresh, CN_MAX_PAIR_MANIFOLDS );
	if ( count - 1 > c->moreCapacity )
	{
		cnManifold* grown = realloc( c->moreManifolds, (size_t)( count - 1 ) * sizeof( cnManifold ) );
		if ( grown != NULL )
		{
			c->moreManifolds = grown;
			c->moreCapacity = count - 1;
		}
		else
		{
			// out of memory: the manifolds that fit are kept, the others wait for a later step
			count = 1 + c->moreCapacity;
		}
	}

	const cnManifold* old[CN_MAX_PAIR_MANIFOLDS];
	for ( int k = 0; k < c->manifoldCount; ++k )
	{
		old[k] = cnContactManifold( c, k );
	}
	cnCarryImpulses( old, c->manifoldCount, fresh, count, ba, bb );

	c->manifoldCount = count;
	c->manifold.pointCount = 0;
	for ( int k = 0; k < count; ++k )
	{
		*cnContactManifold( c, k ) = fresh[k];
	}
}

// The pose of B's centre of mass in A's centre-of-mass frame.
static cnTransform cnRelativePose( const cnBody* ba, const cnBody* bb )
{
	cnTransform pose = { cnInvRotate( ba->xf.q, cnSub( bb->center, ba->center ) ), cnInvMulQuat( ba->xf.q, bb->xf.q ) };
	return pose;
}

// Contact recycling. The manifolds of a pair depend only on the pose of one shape relative to the
// other. When that pose has moved so little since the manifolds were made that no point of either
// shape moved by more than the tolerance relative to the other, the manifolds are carried with the
// bodies instead of made again: each anchor turns with its body, the normal with A, and each point's
// separation is measured again between its two anchors, as the sub-steps measure it. A feature the
// last collision left out lay beyond its margin then and is still out of this step's reach (below).
// Box3D recycles contacts the same way (relative pose within a distance); the bound used here, the
// shift of the pose's origin plus the chord 2 sin(theta / 2) r its turn draws at the farthest point r
// of the other body, is exact for a rigid motion. True when the contact's manifolds were carried.
static bool cnRecycleManifolds( const cnWorld* world, cnContact* c, double margin, double tolerance )
{
	if ( ( c->flags & cnContact_recyclable ) == 0 )
	{
		return false;
	}
	// A feature left out lay farther than madeMargin and now lies farther than madeMargin - moved; it
	// cannot be reached in this step while that exceeds this step's reach, margin minus the
	// speculative distance. So the motion allowed shrinks when the margin grew (the pair speeds up).
	double reach = margin - world->def.speculativeDistance;
	double limit = c->madeMargin - reach;
	limit = limit < tolerance ? limit : tolerance;
	if ( !( limit > 0.0 ) )
	{
		return false;
	}
	const cnBody* ba = world->bodies + c->bodyA;
	const cnBody* bb = world->bodies + c->bodyB;
	cnTransform now = cnRelativePose( ba, bb );
	cnTransform made = c->madePose;

	// the relative turn: |sin(theta / 2)| is the length of the vector part of made^-1 now
	cnQuat turn = cnInvMulQuat( made.q, now.q );
	double chord = 2.0 * sqrt( turn.x * turn.x + turn.y * turn.y + turn.z * turn.z );
	// a plane reaches infinitely far from its body's centre
	double extentA = world->shapes[c->shapeA].geom.type == cnShape_plane ? INFINITY : ba->maxExtent;
	double extentB = world->shapes[c->shapeB].geom.type == cnShape_plane ? INFINITY : bb->maxExtent;
	// B's points in A's frame, or A's points in B's frame (A's centre there is -R(q)^T p)
	double movedB = cnLength( cnSub( now.p, made.p ) ) + chord * extentB;
	double movedA = cnLength( cnSub( cnInvRotate( now.q, now.p ), cnInvRotate( made.q, made.p ) ) ) + chord * extentA;
	double moved = movedA < movedB ? movedA : movedB;
	if ( !( moved < limit ) )
	{
		return false;
	}

	// the turn of each body since the manifolds were last made or carried, as matrices: a matrix
	// turns each of the many anchors and normals for half the work of a quaternion
	cnMat3 turnA = cnMat3FromQuat( cnMulQuat( ba->xf.q, cnConjugate( c->rotationA ) ) );
	cnMat3 turnB = cnMat3FromQuat( cnMulQuat( bb->xf.q, cnConjugate( c->rotationB ) ) );
	cnVec3 centres = cnSub( bb->center, ba->center );
	for ( int k = 0; k < c->manifoldCount; ++k )
	{
		cnManifold* m = cnContactManifold( c, k );
		cnVec3 normal = cnNormalize( cnMulMV( turnA, m->normal ) );
		// a point's normal that was the manifold's (every pair but polygons and meshes, whose points
		// may each have their own) stays it, without a turn and a square root of its own
		bool shared = true;
		for ( int j = 0; j < m->pointCount; ++j )
		{
			cnVec3 pn = m->points[j].normal;
			shared = shared && pn.x == m->normal.x && pn.y == m->normal.y && pn.z == m->normal.z;
		}
		m->normal = normal;
		for ( int j = 0; j < m->pointCount; ++j )
		{
			cnManifoldPoint* mp = m->points + j;
			mp->anchorA = cnMulMV( turnA, mp->anchorA );
			mp->anchorB = cnMulMV( turnB, mp->anchorB );
			mp->normal = shared ? normal : cnNormalize( cnMulMV( turnA, mp->normal ) );
			// each anchor is its body's surface point, so their gap along the normal is the separation
			mp->separation = cnDot( cnAdd( centres, cnSub( mp->anchorB, mp->anchorA ) ), mp->normal );
			cnVec3 surfaceA = cnAdd( ba->center, mp->anchorA );
			mp->point = cnMulAdd( surfaceA, 0.5 * mp->separation, mp->normal );
			mp->maxNormalImpulse = 0.0;
			mp->relativeVelocity = 0.0;
			mp->persisted = true;
		}
	}
	c->rotationA = ba->xf.q;
	c->rotationB = bb->xf.q;
	return true;
}

// New manifolds of one contact (at least one of its bodies awake, fat boxes overlapping) at the
// bodies' current poses, impulses carried over; or, when recycleTolerance > 0 and the pair barely
// moved, the last ones carried with the bodies (true). Reads only the two bodies and shapes and
// writes only the contact, so contacts can be collided in any order and on any thread.
static bool cnUpdateManifolds( const cnWorld* world, cnContact* c, double timeStep, double recycleTolerance )
{
	const cnBody* ba = world->bodies + c->bodyA;
	const cnBody* bb = world->bodies + c->bodyB;
	const cnShape* sa = world->shapes + c->shapeA;
	const cnShape* sb = world->shapes + c->shapeB;

	// speculative margin: how far the surfaces can approach during this step
	cnVec3 dv = cnSub( bb->v, ba->v );
	double approach = cnLength( dv ) + cnLength( ba->w ) * ba->maxExtent + cnLength( bb->w ) * bb->maxExtent;
	double margin = world->def.speculativeDistance + timeStep * approach;
	margin = margin < CN_MAX_SPECULATIVE ? margin : CN_MAX_SPECULATIVE;

	if ( recycleTolerance > 0.0 && cnRecycleManifolds( world, c, margin, recycleTolerance ) )
	{
		return true;
	}

	cnTransform xfA = cnShapeWorldTransform( ba, sa );
	cnTransform xfB = cnShapeWorldTransform( bb, sb );
	bool many = ( sa->geom.type == cnShape_polygon && sb->geom.type == cnShape_polygon ) ||
				cnIsManifoldSource( sa->geom.type ) || cnIsManifoldSource( sb->geom.type );
	if ( many )
	{
		cnCollideManyContact( c, &sa->geom, xfA, &sb->geom, xfB, margin, ba, bb );
	}
	else
	{
		// one manifold: the common case, kept free of the multi-manifold bookkeeping. Only the old
		// points are copied (what cnCarryImpulses reads): a whole manifold is 672 bytes, and its copy was
		// a quarter of this function's time in a falling pile, where most contacts have no point
		cnManifold old;
		old.pointCount = c->manifold.pointCount;
		memcpy( old.points, c->manifold.points, (size_t)old.pointCount * sizeof( cnManifoldPoint ) );
		const cnManifold* oldList[1] = { &old };
		cnCollide( &sa->geom, xfA, &sb->geom, xfB, margin, &c->manifold );
		c->manifoldCount = c->manifold.pointCount > 0 ? 1 : 0;
		cnCarryImpulses( oldList, 1, &c->manifold, 1, ba, bb );
	}

	// what the next step's recycling compares against
	c->flags &= ~cnContact_recyclable;
	if ( recycleTolerance > 0.0 )
	{
		c->flags |= cnContact_recyclable;
		c->rotationA = ba->xf.q;
		c->rotationB = bb->xf.q;
		c->madePose = cnRelativePose( ba, bb );
		c->madeMargin = margin;
	}
	return false;
}

void cnForgetRecycledContacts( cnWorld* world, int bodyIndex )
{
	for ( int i = 0; i < world->contactCount; ++i )
	{
		cnContact* c = world->contacts + i;
		if ( c->bodyA == bodyIndex || c->bodyB == bodyIndex )
		{
			c->flags &= ~cnContact_recyclable;
		}
	}
}

// The recycling tolerance of the world's narrow phase (0: off): the method must allow it, and the
// tolerance stays below the speculative distance (cnRecycleManifolds).
static double cnRecycleTolerance( const cnWorld* world )
{
	const cnMethodModule* module = cnGetMethodModule( world->def.method );
	if ( module == NULL || ( module->flags & cnMethodFlag_recycledContacts ) == 0 )
	{
		return 0.0;
	}
	double d = world->def.contactRecycleDistance;
	return d < world->def.speculativeDistance ? d : world->def.speculativeDistance;
}

// True when the contact's fat boxes still overlap (else the pair is gone until the broad phase
// finds it again).
static bool cnFatBoxesOverlap( const cnWorld* world, const cnContact* c )
{
	return cnAABB_Overlaps( world->shapes[c->shapeA].fatAABB, world->shapes[c->shapeB].fatAABB );
}

// What the parallel pass left for the serial pass to do with a contact.
enum
{
	// not collided (its bodies asleep, or its fat boxes apart): the serial pass decides
	cnCollide_pending = 0,
	// collided, and its touch began or ended or it wakes a body: the serial pass does that
	cnCollide_changed = 1,
	// collided, nothing changed: done, counted in the worker's totals
	cnCollide_done = 2,
	// both bodies asleep (or static): kept as it is and counted in the worker's asleep totals, unless
	// the serial pass wakes one of its bodies first (then it is uncounted and collided there)
	cnCollide_asleep = 3,
};

typedef struct cnCollideTask
{
	const cnWorld* world;
	cnContact* contacts;
	double timeStep;
	// per contact, what is left (cnCollide_pending, ...)
	uint8_t* state;
	// contact recycling's tolerance (0: off)
	double recycleTolerance;
	// per worker: touching manifolds and points of the contacts it finished, and contacts recycled
	// (integers: the sums are exact in any grouping)
	int touching[CN_MAX_WORKERS];
	int points[CN_MAX_WORKERS];
	int recycled[CN_MAX_WORKERS];
	// per worker: touching manifolds and points of the contacts left asleep
	int asleepTouching[CN_MAX_WORKERS];
	int asleepPoints[CN_MAX_WORKERS];
} cnCollideTask;

static void cnCollideRange( int start, int end, int workerIndex, void* context )
{
	cnCollideTask* t = context;
	const cnWorld* world = t->world;
	int touching = 0, points = 0, recycled = 0, asleepTouching = 0, asleepPoints = 0;
	for ( int i = start; i < end; ++i )
	{
		cnContact* c = t->contacts + i;
		// the next contact's recycling state, which its update reads or writes last: these lines lie
		// apart from the manifold's, and writing them was a cache miss per contact (a quarter of the
		// narrow phase's time in a falling pile)
		if ( i + 1 < end )
		{
			__builtin_prefetch( &c[1].rotationA, 1 );
			__builtin_prefetch( &c[1].madeMargin, 1 );
		}
		const cnBody* ba = world->bodies + c->bodyA;
		const cnBody* bb = world->bodies + c->bodyB;
		if ( ba->awake == false && bb->awake == false )
		{
			// the manifold is still valid (nothing moved); the serial pass reads this contact again only
			// if it wakes a body first (in a settled pile most contacts are asleep, and reading each
			// there was a cache miss on a serial path)
			c->approach.speed = 0.0;
			if ( c->flags & cnContact_touching )
			{
				asleepTouching += c->manifoldCount;
				asleepPoints += cnContactPointCount( c );
			}
			t->state[i] = cnCollide_asleep;
			continue;
		}
		if ( cnFatBoxesOverlap( world, c ) == false )
		{
			t->state[i] = cnCollide_pending;
			continue;
		}
		recycled += cnUpdateManifolds( world, c, t->timeStep, t->recycleTolerance );

		// a touch that begins or ends, or a sleeping body to wake, is for the serial pass (events
		// and islands are shared); what a contact does alone is done here
		bool touchingNow = c->manifold.pointCount > 0;
		bool wasTouching = ( c->flags & cnContact_touching ) != 0;
		bool wakes = touchingNow && ( ( ba->awake == false && ba->type == cnBody_dynamic ) ||
									  ( bb->awake == false && bb->type == cnBody_dynamic ) );
		if ( touchingNow != wasTouching || wakes )
		{
			t->state[i] = cnCollide_changed;
			continue;
		}
		if ( touchingNow )
		{
			cnMeasureApproach( world, c );
			touching += c->manifoldCount;
			points += cnContactPointCount( c );
		}
		else
		{
			c->approach.speed = 0.0;
		}
		t->state[i] = cnCollide_done;
	}
	t->touching[workerIndex] += touching;
	t->points[workerIndex] += points;
	t->recycled[workerIndex] += recycled;
	t->asleepTouching[workerIndex] += asleepTouching;
	t->asleepPoints[workerIndex] += asleepPoints;
}

// Contacts collided per range of the parallel pass: enough that a range outweighs waking a worker.
#define CN_COLLIDE_MIN_RANGE 16

void cnCollideContacts( cnWorld* world, double timeStep )
{
	// The manifolds of every contact with an awake body, in parallel: each contact's new manifolds
	// depend only on its two bodies, which this stage does not move.
	int contactCount = world->contactCount;
	cnCollideTask* task = cnArena_Alloc( &world->arena, sizeof( cnCollideTask ) );
	memset( task, 0, sizeof( cnCollideTask ) );
	task->world = world;
	task->contacts = world->contacts;
	task->timeStep = timeStep;
	task->recycleTolerance = cnRecycleTolerance( world );
	task->state = contactCount > 0 ? cnArena_Alloc( &world->arena, (size_t)contactCount ) : NULL;
	cnParallelFor( world, contactCount, CN_COLLIDE_MIN_RANGE, cnCollideRange, task );
	uint8_t* state = task->state;
	int touching = 0;
	int points = 0;
	int recycled = 0;
	for ( int w = 0; w < CN_MAX_WORKERS; ++w )
	{
		touching += task->touching[w] + task->asleepTouching[w];
		points += task->points[w] + task->asleepPoints[w];
		recycled += task->recycled[w];
	}

	// Then, serially in contact order, what changes shared state: contacts that separated go, touch
	// begins and ends become events, touching bodies wake sleeping ones. A contact between two bodies
	// that were asleep when the parallel pass ran but that an earlier contact of this pass woke is
	// collided here, as a serial loop would have: the result is the same for any worker count. Until
	// this pass wakes a body, the contacts that were asleep at the parallel pass still are.
	bool woke = false;
	int i = 0;
	while ( i < world->contactCount )
	{
		if ( state[i] == cnCollide_done || ( state[i] == cnCollide_asleep && woke == false ) )
		{
			i += 1;
			continue;
		}
		cnContact* c = world->contacts + i;
		cnBody* ba = world->bodies + c->bodyA;
		cnBody* bb = world->bodies + c->bodyB;
		if ( ba->awake == false && bb->awake == false )
		{
			// both asleep or static: the manifold is still valid (no events: nothing moved)
			c->approach.speed = 0.0;
			if ( ( c->flags & cnContact_touching ) && state[i] != cnCollide_asleep )
			{
				touching += c->manifoldCount;
				points += cnContactPointCount( c );
			}
			i += 1;
			continue;
		}
		if ( state[i] == cnCollide_asleep )
		{
			// asleep at the parallel pass and woken since by this one: not counted after all, and
			// collided now
			if ( c->flags & cnContact_touching )
			{
				touching -= c->manifoldCount;
				points -= cnContactPointCount( c );
			}
			state[i] = cnCollide_pending;
		}

		if ( state[i] == cnCollide_pending )
		{
			if ( cnFatBoxesOverlap( world, c ) == false )
			{
				// the fat boxes separated: the last contact moves into slot i, and its state with it
				int last = world->contactCount - 1;
				state[i] = state[last];
				cnDestroyContact( world, i );
				continue;
			}
			recycled += cnUpdateManifolds( world, c, timeStep, task->recycleTolerance );
		}
		const cnManifold* m = &c->manifold;

		if ( m->pointCount > 0 )
		{
			if ( ( c->flags & cnContact_touching ) == 0 )
			{
				c->flags |= cnContact_touching;
				cnContactBegan( world, c );
			}
			cnMeasureApproach( world, c );
			touching += c->manifoldCount;
			points += cnContactPointCount( c );

			// a touching awake body wakes a sleeping one
			if ( ba->awake == false && ba->type == cnBody_dynamic )
			{
				cnWakeBody( world, ba );
				woke = true;
			}
			else if ( bb->awake == false && bb->type == cnBody_dynamic )
			{
				cnWakeBody( world, bb );
				woke = true;
			}
		}
		else
		{
			if ( c->flags & cnContact_touching )
			{
				cnContactEnded( world, c );
			}
			c->flags &= ~cnContact_touching;
			c->approach.speed = 0.0;
		}
		i += 1;
	}

	world->stats.touchingCount = touching;
	world->stats.manifoldPointCount = points;
	world->stats.recycledContactCount = recycled;
}

// ---------------------------------------------------------------------------------------------
// collision control

bool cnWorld_IsCollisionDisabled( const cnWorld* world, cnBodyId a, cnBodyId b )
{
	// only the pairs cnWorld_DisableCollision named: joints keep their own flag (collideConnected)
	if ( cnGetBody( world, a ) == NULL || cnGetBody( world, b ) == NULL || world->disabledPairs.count == 0 )
	{
		return false;
	}
	return cnPairMap_Find( &world->disabledPairs, cnPairKey( a.index, b.index ) ) >= 0;
}

bool cnWorld_DisableCollision( cnWorld* world, cnBodyId a, cnBodyId b )
{
	cnBody* bodyA = cnGetBody( world, a );
	cnBody* bodyB = cnGetBody( world, b );
	if ( bodyA == NULL || bodyB == NULL )
	{
		return false;
	}
	if ( a.index == b.index )
	{
		return cnSetError( cnError_invalidArgument, "cannot disable collision of a body with itself" );
	}
	cnPairMap_Insert( &world->disabledPairs, cnPairKey( a.index, b.index ), 1 );

	// drop existing contacts between the two bodies
	for ( int i = world->contactCount - 1; i >= 0; --i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->bodyA == a.index && c->bodyB == b.index ) || ( c->bodyA == b.index && c->bodyB == a.index ) )
		{
			cnDestroyContact( world, i );
		}
	}
	if ( bodyA->type != cnBody_static )
	{
		cnWakeBody( world, bodyA );
	}
	if ( bodyB->type != cnBody_static )
	{
		cnWakeBody( world, bodyB );
	}
	return true;
}
