// SPDX-License-Identifier: MIT
// User forces: the world's table of constant forces and torques with time windows, and the stage
// that applies the active ones at the start of each step.
#pragma once

#include "cairn/types.h"

/// Forces stage: adds the forces and torques of the table that are active at the world's time to
/// their bodies (waking them) for this step.
void cnApplyUserForces( cnWorld* world );
