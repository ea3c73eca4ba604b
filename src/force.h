// SPDX-License-Identifier: MIT
// User forces: the world's table of constant forces and torques with time windows, and the stage
// that applies the active ones at the start of each step.
#pragma once

#include "cairn/types.h"

/// An entry of the force table; destroyed entries stay (alive false) until a new force reuses them.
typedef struct cnForce
{
	cnForceDef def;
	uint32_t generation;
	bool alive;
} cnForce;

/// Forces stage: adds the forces and torques of the table that are active at the world's time to
/// their bodies (waking them) for this step.
void cnApplyUserForces( cnWorld* world );

/// Destroys every force that acts on or points at a body (the body is being destroyed).
void cnDestroyBodyForces( cnWorld* world, int bodyIndex );
