// SPDX-License-Identifier: MIT
// Continuous collision (docs/continuous.md): a stage after the method that moves a fast body that
// passed through a static shape back to its time of impact, so the next step's narrow phase sees
// the contact. Only the impulse and velocity-level methods use it; the adaptive methods step in
// small pieces with their own collision checks.
#pragma once

#include "cairn/types.h"

#include <stdbool.h>

/// Whether the world's method uses the continuous stage.
bool cnUsesContinuous( const cnWorld* world );

/// Remembers every dynamic body's pose at the start of the step (before the method moves it).
void cnSaveStartPoses( cnWorld* world );

/// For each fast body (a bullet, or one that moved farther than a quarter of its smallest size),
/// sweeps its shapes from the start pose to the end pose against the static shapes its swept box
/// overlaps and, when one of its shapes passed through one of them, moves the body back to the
/// pose at the time of impact, velocity kept.
void cnSolveContinuous( cnWorld* world );
