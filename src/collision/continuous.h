// SPDX-License-Identifier: MIT
// Continuous collision (docs/continuous.md): stages after the method that move a fast body that
// passed through a shape back to its time of impact, so the next step's narrow phase sees the
// contact. Only the impulse and velocity-level methods use them; the adaptive methods step in small
// pieces with their own collision checks.
#pragma once

#include "cairn/types.h"

#include <stdbool.h>

/// Whether the world's method uses the continuous stages.
bool cnUsesContinuous( const cnWorld* world );

/// Remembers every dynamic body's pose at the start of the step (before the method moves it).
void cnSaveStartPoses( cnWorld* world );

/// Fast bodies that are not bullets (those that moved farther than a quarter of their smallest
/// size; cnWorldDef.enableContinuous): sweeps their shapes from the start pose to the end pose
/// against the static shapes their swept box overlaps and, when one of their shapes passed through
/// one of them, moves the body back to the pose at the time of impact, velocity kept. Runs before
/// the finish stage, which then moves the shape boxes.
void cnSolveContinuous( cnWorld* world, double timeStep );

/// Bullets: the same sweep against static shapes and against the shapes of kinematic and non-bullet
/// dynamic bodies at their final poses for the step (other bullets are not obstacles). Runs after
/// the finish stage, when every box in the broad phase is at its final pose, and moves the boxes of
/// the bullets it moves back.
void cnSolveBullets( cnWorld* world, double timeStep );
