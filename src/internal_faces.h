// SPDX-License-Identifier: MIT
// Internal faces of static boxes: a floor, wall or staircase tiled from static boxes is one solid
// to what slides over it, and the faces where two boxes meet must never push.
#pragma once

#include "cairn/types.h"

/// Finds again, when a static shape changed since the last time, which faces of every static box a
/// coplanar face of another static box covers (cnGeometry.internalFaces; the box-box collision then
/// takes no contact normal that points into one).
void cnUpdateInternalFaces( cnWorld* world );
