// SPDX-License-Identifier: MIT
// The world's internal data: one plain struct that every stage of the step reads and writes,
// as MuJoCo's model/data pair. Bodies, shapes and contacts live in arrays indexed by id.
#pragma once

#include "arena.h"
#include "collision/broad_phase.h"
#include "collision/collision.h"
#include "pair_map.h"

#include "cairn/cairn.h"

#include <stdio.h>

/// A body. Cold bookkeeping and the state the API reads; the solver copies the hot part of awake
/// bodies into contiguous cnSolverBody arrays for the duration of a step.
typedef struct cnBody
{
	char* name;
	uint64_t userData;
	uint32_t generation;
	bool alive;
	cnBodyType type;

	// pose: body origin frame, and the centre of mass in world and body coordinates
	cnTransform xf;
	cnVec3 center;
	cnVec3 localCenter;

	// centre of mass velocity and world angular velocity
	cnVec3 v;
	cnVec3 w;

	// forces and torques applied through the API for the next step (cleared after it)
	cnVec3 force;
	cnVec3 torque;

	// mass properties; inertia about the centre of mass in body coordinates
	double mass, invMass;
	cnMat3 inertia, invInertia;
	// the inertia is a multiple of the identity (sphere, cube): no gyroscopic torque
	bool isotropic;
	// user mass override (0 = from density)
	double massOverride;
	// full user mass data (mass, centre, inertia) replaces what the shapes give
	bool hasMassData;
	cnVec3 userCenter;
	cnMat3 userInertia;

	double gravityScale;
	double linearDamping;
	double angularDamping;
	double drag;

	// shapes: singly linked through cnShape.nextShape
	int firstShape;
	int shapeCount;
	// largest distance from the centre of mass to a shape surface (speculative margin, sleep test)
	double maxExtent;

	// sleeping
	bool enableSleep;
	bool awake;
	double sleepTime;
	// index of the sleeping island this body belongs to, -1 when awake
	int sleepIsland;

	// index into the solver body array during a step, -1 when not simulated
	int solverIndex;
} cnBody;

/// A shape attached to a body.
typedef struct cnShape
{
	cnGeometry geom;
	// shape frame relative to the body frame
	cnTransform local;
	int body;
	uint32_t generation;
	bool alive;
	cnMaterialId material;
	uint64_t categoryBits, maskBits;
	int32_t groupIndex;
	int nextShape;
	int proxyKey;
	// tight box at the current pose and the enlarged box stored in the broad phase
	cnAABB aabb;
	cnAABB fatAABB;
} cnShape;

enum
{
	cnContact_touching = 1,
	cnContact_disjoint = 2,
};

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

/// A material in the world's table.
typedef struct cnMaterial
{
	cnMaterialDef def;
	char* name;
	char* texture;
} cnMaterial;

/// A per-pair material override.
typedef struct cnMaterialPair
{
	cnMaterialId a, b;
	double friction, restitution;
} cnMaterialPair;

/// A group of bodies that fell asleep together and wake together.
typedef struct cnSleepIsland
{
	int* bodies;
	int count;
	bool used;
} cnSleepIsland;

/// The world.
struct cnWorld
{
	uint32_t magic;
	cnWorldDef def;
	cnVec3 gravity;
	double time;
	int64_t stepCount;
	char error[512];

	cnBody* bodies;
	int bodyCapacity;
	int bodyCount; // high-water mark of the array, dead bodies included
	int liveBodyCount;
	int freeBody;  // free list through solverIndex of dead bodies, -1 when empty

	cnShape* shapes;
	int shapeCapacity;
	int shapeCount;
	int liveShapeCount;
	int freeShape;

	cnContact* contacts;
	int contactCount;
	int contactCapacity;
	cnPairMap contactMap;

	cnMaterial* materials;
	int materialCount;
	cnMaterialPair* materialPairs;
	int materialPairCount;

	cnForceDef* forces;
	int forceCount;

	// body pairs that never collide: key (min << 32 | max) -> 1
	cnPairMap disabledPairs;

	cnSleepIsland* sleepIslands;
	int sleepIslandCount;

	cnBroadPhase broadPhase;
	cnArena arena;

	// the adaptive integrators' (penalty, analytic-impulse, constraint) last accepted internal step
	// size, carried from one cnWorld_Step to the next (0 = none yet)
	double adaptiveStep;

	cnStats stats;
};

#define CN_WORLD_MAGIC 0x4361726eu

/// Writes a formatted message into the world's error buffer; returns false for convenience.
bool cnSetError( cnWorld* world, const char* fmt, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 2, 3 ) ) )
#endif
	;

/// Key of an unordered pair of indices.
static inline uint64_t cnPairKey( int a, int b )
{
	uint32_t lo = (uint32_t)( a < b ? a : b ), hi = (uint32_t)( a < b ? b : a );
	return ( (uint64_t)lo << 32 ) | (uint64_t)hi;
}

/// The body of an id after validation, or NULL (with the error set).
cnBody* cnGetBody( const cnWorld* world, cnBodyId id );

/// Shape transform in world coordinates.
static inline cnTransform cnShapeWorldTransform( const cnBody* body, const cnShape* shape )
{
	return cnMulTransforms( body->xf, shape->local );
}

// body.c
/// Recomputes mass, centre of mass and inertia of a body from its shapes and mass override.
void cnUpdateBodyMass( cnWorld* world, cnBody* body );
/// Recomputes every shape box of a body and moves broad-phase proxies whose box left its fat box.
/// margin enlarges the fat box; sweep is the expected motion over the next step.
void cnUpdateBodyShapes( cnWorld* world, cnBody* body, cnVec3 sweep );
/// Wakes a body and its sleeping island.
void cnWakeBody( cnWorld* world, cnBody* body );

// contact.c
/// Broad-phase stage: finds new overlapping pairs and creates contacts for them.
void cnUpdatePairs( cnWorld* world );
/// Narrow-phase stage: updates the manifold of every contact with an awake body.
void cnCollideContacts( cnWorld* world, double timeStep );
/// Removes a contact (swap with the last).
void cnDestroyContact( cnWorld* world, int contactIndex );
/// Frees what a contact owns (its extra manifolds) without removing it from the world.
void cnFreeContact( cnContact* c );
/// Friction and restitution for two materials, with pair overrides.
void cnMixMaterials( const cnWorld* world, cnMaterialId a, cnMaterialId b, double* friction, double* restitution );

// solver.c
/// Solve stage of the impulse method: sub-stepped soft contact solve and body integration.
void cnSolveImpulse( cnWorld* world, double timeStep );

// method_*.c: the other contact methods. Each advances every awake body by timeStep after the
// narrow phase, and returns false with the world's error set when it cannot.
/// lcp, velocity-projection, gr-lcp, gr-velocity-projection (method_velocity.c)
bool cnStepVelocityLevel( cnWorld* world, double timeStep );
/// penalty springs with adaptive Dormand-Prince (method_penalty.c)
bool cnStepPenalty( cnWorld* world, double timeStep );
/// analytic impulses plus penalty for resting contact (method_analytic.c)
bool cnStepAnalyticImpulse( cnWorld* world, double timeStep );
/// Kleppmann's constraint method (method_constraint.c)
bool cnStepConstraint( cnWorld* world, double timeStep );

// integrate.c: per-body integration shared by every method
/// New centre-of-mass velocity after h seconds of gravity, forces, drag and damping.
cnVec3 cnIntegrateLinearVelocity( const cnWorld* world, const cnBody* body, cnVec3 v, double h );
/// New world angular velocity after h seconds of torque, the gyroscopic term (implicit midpoint
/// in the body frame) and damping; q is the body's current orientation.
cnVec3 cnIntegrateAngularVelocity( const cnBody* body, cnQuat q, cnVec3 w, double h );
/// Removes the out-of-plane motion of a planar world: v.z = 0, w.x = w.y = 0.
static inline void cnProjectPlanar( const cnWorld* world, cnVec3* v, cnVec3* w )
{
	if ( world->def.planar )
	{
		v->z = 0.0;
		w->x = 0.0;
		w->y = 0.0;
	}
}
/// Moves a body by its velocity over h (centre and orientation), updating its origin.
void cnIntegrateBodyPosition( cnBody* body, double h );

// island.c
/// Builds islands of touching awake bodies and puts islands at rest to sleep.
void cnUpdateSleep( cnWorld* world, double timeStep );
/// Wakes every body of a sleeping island.
void cnWakeIsland( cnWorld* world, int islandIndex );
