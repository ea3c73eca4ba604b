// SPDX-License-Identifier: MIT
// The finish stage every contact method shares: after a method has written the new poses and
// velocities of the bodies it simulated, this clears their step forces, advances their sleep timers
// and moves their shapes' boxes.
#pragma once

#include "cairn/types.h"

/// Finish stage over every awake non-static body: clears forces and torques, advances the sleep
/// timer (reset while moving faster than the world's thresholds), updates shape boxes with the
/// next step's expected motion. Sets the awake body counter.
void cnFinalizeBodies( cnWorld* world, double timeStep );
