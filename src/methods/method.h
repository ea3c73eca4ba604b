// SPDX-License-Identifier: MIT
// The contact methods' entry points, as the step calls them.
#pragma once

#include "cairn/types.h"

/// The method stage: the world's contact method resolves contacts and moves every awake body by
/// timeStep after the narrow phase. Returns false with the error set when it cannot.
bool cnStepMethod( cnWorld* world, double timeStep );

/// Solve stage of the impulse method: sub-stepped soft contact solve and body integration.
void cnSolveImpulse( cnWorld* world, double timeStep );
/// lcp, velocity-projection, gr-lcp, gr-velocity-projection (velocity.c)
bool cnStepVelocityLevel( cnWorld* world, double timeStep );
/// penalty springs with adaptive Dormand-Prince (penalty.c)
bool cnStepPenalty( cnWorld* world, double timeStep );
/// analytic impulses plus penalty for resting contact (analytic.c)
bool cnStepAnalyticImpulse( cnWorld* world, double timeStep );
/// Kleppmann's constraint method (constraint.c)
bool cnStepConstraint( cnWorld* world, double timeStep );
