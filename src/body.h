// SPDX-License-Identifier: MIT
// Bodies: the record the world keeps per body (lookup.h validates ids, mass.h computes mass
// properties, island.h wakes bodies).
#pragma once

#include "cairn/math.h"
#include "cairn/types.h"

/// A body. Cold bookkeeping and the state the API reads; a method copies the hot part of awake
/// bodies into contiguous arrays of its own for the duration of a step (the impulse method's
/// cnBodyState and cnBodySim).
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

	// continuous collision: marked as a bullet, and the pose at the start of the current step
	bool isBullet;
	cnTransform xf0;
	cnVec3 center0;
} cnBody;

// The angular momentum of a dynamic body about a world point: (c - point) x m v of its centre of
// mass c plus R I R^T w of its spin (zero for static and kinematic bodies, which have no mass).
static inline cnVec3 cnBodyAngularMomentum( const cnBody* b, cnVec3 point )
{
	if ( b->type != cnBody_dynamic )
	{
		return cnVec3_zero;
	}
	cnVec3 wLocal = cnInvRotate( b->xf.q, b->w );
	cnVec3 spin = cnRotate( b->xf.q, cnMulMV( b->inertia, wLocal ) );
	return cnAdd( spin, cnMulSV( b->mass, cnCross( cnSub( b->center, point ), b->v ) ) );
}

