// SPDX-License-Identifier: MIT
// Per-body integration shared by every contact method: the velocity update from gravity, user
// forces, air drag, damping and the gyroscopic term, and the position update.
#pragma once

#include "body.h"

/// New centre-of-mass velocity after h seconds of gravity, forces, drag and damping.
cnVec3 cnIntegrateLinearVelocity( const cnWorld* world, const cnBody* body, cnVec3 v, double h );

/// New world angular velocity after h seconds of torque, the gyroscopic term (implicit midpoint in
/// the body frame) and damping; q is the body's current orientation.
cnVec3 cnIntegrateAngularVelocity( const cnBody* body, cnQuat q, cnVec3 w, double h );

/// Moves a body by its velocity over h (centre and orientation), updating its origin.
void cnIntegrateBodyPosition( cnBody* body, double h );
