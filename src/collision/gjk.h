// SPDX-License-Identifier: MIT
// Distance and penetration between two convex shapes: GJK for the distance, EPA for the depth.
// Spheres and capsules are treated as a core (point, segment) plus a radius, which is both faster
// and exact; boxes and cylinders go through their support functions (cnSupport).
#pragma once

#include "collision/collision.h"

/// Result of a distance query between two convex shapes.
typedef struct cnDistanceOutput
{
	/// point on the surface of A (frame of the query)
	cnVec3 pointA;
	/// point on the surface of B (frame of the query)
	cnVec3 pointB;
	/// unit normal pointing from A towards B; when overlapping it is the direction in which B
	/// must move by -distance to end the overlap
	cnVec3 normal;
	/// signed distance: positive when apart, negative (minus the penetration depth) when overlapping
	double distance;
	/// GJK iterations of the last GJK run
	int gjkIterations;
	/// vertices added by EPA (0 when EPA did not run)
	int epaIterations;
	/// true when the shapes overlap and the depth comes from EPA
	bool overlap;
} cnDistanceOutput;

/// Distance (or penetration) between shape A at xfA and shape B at xfB, in world coordinates.
cnDistanceOutput cnShapeDistance( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB );

/// Distance between shape A at the identity and shape B at xfBA (B in the frame of A). Results are
/// in the frame of A. Working in A's frame keeps the numbers small when the pair is far from the origin.
cnDistanceOutput cnShapeDistanceLocal( const cnGeometry* a, const cnGeometry* b, cnTransform xfBA );

/// Radius of the smallest sphere about the shape origin holding the shape (planes: 0).
double cnShapeBoundingRadius( const cnGeometry* g );
