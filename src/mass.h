// SPDX-License-Identifier: MIT
// A body's mass properties from its shapes (mass.c).
#pragma once

#include "body.h"

/// Recomputes mass, centre of mass and inertia of a body from its shapes and mass override,
/// keeping its origin fixed (the centre and its velocity follow).
void cnUpdateBodyMass( cnWorld* world, cnBody* body );
