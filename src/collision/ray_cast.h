// SPDX-License-Identifier: MIT
// Ray casts against one shape (ray_cast.c): closed forms for the primitives, face planes for hulls,
// conservative advancement on the GJK distance for any other convex shape, and the mesh and
// heightfield casts of mesh.h.
#pragma once

#include "collision/collision.h"

/// Where a ray meets a shape.
typedef struct cnRayHit
{
	/// world point on the surface
	cnVec3 point;
	/// unit outward surface normal there (for meshes and heightfields: the side facing the origin)
	cnVec3 normal;
	/// the hit is at origin + fraction translation
	double fraction;
} cnRayHit;

/// Casts the segment origin + t translation, t in [0, maxFraction], against shape g placed at xf
/// (world). A segment that starts inside a solid (or below a plane) does not hit it. True with the
/// first hit.
bool cnRayCastShape( const cnGeometry* g, cnTransform xf, cnVec3 origin, cnVec3 translation, double maxFraction,
					 cnRayHit* hit );

/// The same for any convex shape with a support function (cnSupport), by conservative advancement
/// of a point along the segment on the GJK distance: exact to about 1e-9 of the shape's size.
bool cnRayCastConvex( const cnGeometry* g, cnTransform xf, cnVec3 origin, cnVec3 translation, double maxFraction,
					  cnRayHit* hit );
