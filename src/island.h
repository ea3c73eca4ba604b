// SPDX-License-Identifier: MIT
// Islands and sleep: groups of touching awake bodies, and the sleeping islands that wake together.
#pragma once

#include "body.h"

/// A group of bodies that fell asleep together and wake together.
typedef struct cnSleepIsland
{
	int* bodies;
	int count;
	bool used;
} cnSleepIsland;

/// Islands-and-sleep stage: builds islands of touching awake bodies and puts islands at rest to sleep.
void cnUpdateSleep( cnWorld* world, double timeStep );

/// Wakes every body of a sleeping island.
void cnWakeIsland( cnWorld* world, int islandIndex );

/// Wakes a body and its sleeping island (static bodies never sleep nor wake).
void cnWakeBody( cnWorld* world, cnBody* body );
