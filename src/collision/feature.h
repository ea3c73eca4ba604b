// SPDX-License-Identifier: MIT
// The supporting feature of a convex shape along a direction (a face, a segment or a point), what
// both the convex-convex narrow phase (collide_convex.c) and the convex-triangle one
// (collide_mesh.c) clip to get several contact points. One function makes it for both, so a
// cylinder offers the same cap and a hull the same face or edge against a box as against a mesh.
#pragma once

#include "collision/collision.h"

#include <stdint.h>

/// Most vertices of a feature: a cylinder cap's 16-gon, a hull face of more vertices subsampled.
#define CN_FEATURE_MAX_VERTICES 16

/// The supporting feature of a shape along a direction, in the caller's frame: a point (count 1:
/// the caller uses its own support or GJK/EPA point), a segment (count 2) or a convex polygon
/// (count >= 3) counter-clockwise seen from outside.
typedef struct cnFeature
{
	/// vertices (count >= 2 only)
	cnVec3 points[CN_FEATURE_MAX_VERTICES];
	/// vertex ids, unique within the feature's shape (below 64): they label the feature's vertices
	/// and edges in the clipping keys
	uint8_t ids[CN_FEATURE_MAX_VERTICES];
	int count;
	/// polygons: outward unit normal; zero for a segment or a point
	cnVec3 normal;
	/// face id, unique within the shape (below 8 for the primitives; any size for hulls, whose
	/// faces and edges the convex narrow phase folds into the point id)
	uint32_t faceId;
} cnFeature;

/// Feature of shape g (placed at xf in the caller's frame) farthest along the unit direction d (collide_convex.c).
void cnMakeFeature( const cnGeometry* g, cnTransform xf, cnVec3 d, cnFeature* f );
