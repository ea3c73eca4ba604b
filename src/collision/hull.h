// SPDX-License-Identifier: MIT
// Convex hulls (cnHull): the shared object behind hull shapes, its mass properties and support.
#pragma once

#include "cairn/geometry.h"
#include "collision/collision.h"

#include <stdatomic.h>

/// A convex hull. Immutable once built; shared by shapes through its reference count.
struct cnHull
{
	atomic_int refCount;
	int vertexCount;
	cnVec3* vertices;
	// surface triangles (faces fanned), 3 indices each, counter-clockwise from outside
	int triangleCount;
	int* triangles;
	// faces: outward unit normal and offset of each face plane dot(n, x) = offset
	int faceCount;
	cnVec3* faceNormals;
	double* faceOffsets;
	// vertex loop of face i: faceVertices[faceFirst[i] .. faceFirst[i + 1]), counter-clockwise seen
	// from outside (faceFirst has faceCount + 1 entries)
	int* faceFirst;
	int* faceVertices;
	// mass properties at unit density: volume, centroid, inertia about the centroid (hull frame)
	double volume;
	cnVec3 centroid;
	cnMat3 inertia;
	// largest vertex distance from the hull frame's origin
	double radius;
	// smallest distance from the centroid to a face plane (the radius of the largest ball about the
	// centroid that fits inside)
	double innerRadius;
};

/// A hull's own data, as cnHull holds it (snapshots write it and read it back).
typedef struct cnHullData
{
	int vertexCount;
	const cnVec3* vertices;
	int faceCount;
	const cnVec3* faceNormals;
	const double* faceOffsets;
	// faceCount + 1 entries
	const int* faceFirst;
	const int* faceVertices;
	int triangleCount;
	const int* triangles;
} cnHullData;

/// A hull from its own data (no qhull: the same vertices, faces and triangles in the same order, so
/// a restored hull gives the same features and contact ids). Checks indices, unit face normals and
/// convexity; NULL with the error set when they fail. The caller holds the one reference.
cnHull* cnHullFromData( const cnHullData* data );

/// Takes one more reference and returns the hull.
const cnHull* cnHullRetain( const cnHull* hull );

/// Drops one reference, freeing the hull with the last.
void cnHullRelease( const cnHull* hull );

/// World box of the hull placed at xf.
cnAABB cnHullAABB( const cnHull* hull, cnTransform xf );

/// Mass properties of the solid hull at the given density.
cnMassData cnHullMass( const cnHull* hull, double density );

/// Index of the face whose outward normal is most aligned with d (hull frame; lowest index on ties).
int cnHullFace( const cnHull* hull, cnVec3 d );

/// Hull vertex farthest along d (hull frame).
cnVec3 cnHullSupport( const cnHull* hull, cnVec3 d );
