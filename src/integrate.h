// SPDX-License-Identifier: MIT
// Per-body integration shared by every contact method: the velocity update from gravity, user
// forces, air drag, damping and the gyroscopic term, and the position update.
#pragma once

#include "body.h"

/// A body's linear velocity update over h with what stays constant through a step worked out once:
/// methods that take many sub-steps keep it with their own copy of the body (cnLinearStepOf).
typedef struct cnLinearStep
{
	// gravity (scaled) and the step's force over the mass
	cnVec3 acceleration;
	// h invMass drag: the implicit drag divides by 1 + dragRate |v0|
	double dragRate;
	// 1 / (1 + h linearDamping)
	double dampingScale;
	bool drag, damping;
} cnLinearStep;

/// The constants of a body's linear velocity update over h.
cnLinearStep cnLinearStepOf( const cnWorld* world, const cnBody* body, double h );

/// The velocity v0 after h seconds of the step's acceleration, drag and damping.
cnVec3 cnApplyLinearStep( const cnLinearStep* step, cnVec3 v0, double h );

/// New centre-of-mass velocity after h seconds of gravity, forces, drag and damping.
cnVec3 cnIntegrateLinearVelocity( const cnWorld* world, const cnBody* body, cnVec3 v, double h );

/// True when the angular velocity update does nothing: an isotropic body (no gyroscopic term) with
/// no torque and no angular damping.
bool cnSpinIsFree( const cnBody* body );

/// New world angular velocity after h seconds of torque, the gyroscopic term (implicit midpoint in
/// the body frame) and damping; q is the body's current orientation.
cnVec3 cnIntegrateAngularVelocity( const cnBody* body, cnQuat q, cnVec3 w, double h );

/// Moves a body by its velocity over h (centre and orientation), updating its origin.
void cnIntegrateBodyPosition( cnBody* body, double h );
