// SPDX-License-Identifier: MIT
// Contacts: a persistent record per pair of shapes whose fat boxes overlap, the broad-phase stage
// that creates them and the narrow-phase stage that updates their manifolds.
#pragma once

#include "collision/collision.h"

#include "cairn/types.h"

enum
{
	cnContact_touching = 1,
	cnContact_disjoint = 2,
	// a begin touch event was reported: the contact owes an end event (contact_events.c)
	cnContact_reported = 4,
	// a hit event was reported for the approach under way
	cnContact_hitReported = 8,
	// the manifolds were made with contact recycling on: rotationA, rotationB, madePose and
	// madeMargin hold what the next step compares against (cnRecycleManifolds)
	cnContact_recyclable = 16,
};

/// The manifold point of a contact that approached fastest at the start of the step, measured by
/// the narrow phase for hit events (contact_events.c).
typedef struct cnContactApproach
{
	cnVec3 point, normal;
	// the point relative to each body's centre of mass
	cnVec3 anchorA, anchorB;
	// approach speed along the normal (m/s, 0 when not measured) and the point's separation
	double speed;
	double separation;
} cnContactApproach;

/// A potential contact between two shapes whose fat boxes overlap. Persistent across steps so the
/// manifold's impulses warm start the solver.
typedef struct cnContact
{
	uint64_t key;
	int shapeA, shapeB;
	int bodyA, bodyB;
	int flags;
	double friction;
	double restitution;
	// the pair's manifolds, manifoldCount of them (0 when not touching): the first inline, the
	// others (planar polygon pairs only, grouped by normal) in moreManifolds, owned by the contact
	cnManifold manifold;
	int manifoldCount;
	int moreCapacity;
	cnManifold* moreManifolds;
	// hit events: the fastest approach at the start of this step
	cnContactApproach approach;
	// contact recycling: each body's orientation when the manifolds were last made or carried, the
	// pose of B's centre of mass in A's centre-of-mass frame and the speculative margin when they
	// were last made
	cnQuat rotationA, rotationB;
	cnTransform madePose;
	double madeMargin;
} cnContact;

/// Manifold k (0 <= k < manifoldCount) of a contact.
static inline cnManifold* cnContactManifold( const cnContact* c, int k )
{
	return k == 0 ? (cnManifold*)&c->manifold : c->moreManifolds + ( k - 1 );
}

/// Points of all of a contact's manifolds.
static inline int cnContactPointCount( const cnContact* c )
{
	int n = 0;
	for ( int k = 0; k < c->manifoldCount; ++k )
	{
		n += cnContactManifold( c, k )->pointCount;
	}
	return n;
}

/// Broad-phase stage: finds new overlapping pairs and creates contacts for them.
void cnUpdatePairs( cnWorld* world );

typedef struct cnShape cnShape;

/// The shapes' collision filters (group index, category and mask bits) let them collide.
bool cnShouldShapesCollide( const cnShape* a, const cnShape* b );

/// Narrow-phase stage: updates the manifold of every contact with an awake body.
void cnCollideContacts( cnWorld* world, double timeStep );

/// Makes every contact of a body collide afresh at the next narrow phase (its centre of mass or
/// shapes changed, so recycled manifolds would be carried about the wrong point).
void cnForgetRecycledContacts( cnWorld* world, int bodyIndex );

/// Removes a contact (swap with the last).
void cnDestroyContact( cnWorld* world, int contactIndex );

/// Frees what a contact owns (its extra manifolds) without removing it from the world.
void cnFreeContact( cnContact* c );
