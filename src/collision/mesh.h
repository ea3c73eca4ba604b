// SPDX-License-Identifier: MIT
// Triangle meshes (cnMesh) and heightfields (cnHeightfield): the shared objects behind mesh and
// heightfield shapes, their trees, mass properties and triangle queries.
#pragma once

#include "collision/collision.h"

#include <stdatomic.h>

/// A triangle mesh. Immutable once built; shared by shapes through its reference count.
struct cnMesh
{
	atomic_int refCount;
	int vertexCount;
	cnVec3* vertices;
	int triangleCount;
	// 3 vertex indices per triangle, counter-clockwise from outside
	int* triangles;
	// closed, 2-manifold and outward: may be used on a moving body
	bool solid;
	char defect[160];
	// mass properties at unit density (solid meshes): volume, centroid, inertia about the centroid
	double volume;
	cnVec3 centroid;
	cnMat3 inertia;
	// box of the vertices in the mesh frame
	cnAABB bounds;
};

/// A height grid. Immutable once built; shared by shapes through its reference count.
struct cnHeightfield
{
	atomic_int refCount;
	int columns, rows;
	// rows * columns heights, row-major (row j, column i at j * columns + i)
	double* heights;
	double sizeX, sizeY;
	double minHeight, maxHeight;
};

/// Takes one more reference and returns the mesh.
const cnMesh* cnMeshRetain( const cnMesh* mesh );

/// Drops one reference, freeing the mesh with the last.
void cnMeshRelease( const cnMesh* mesh );

/// World box of the mesh placed at xf.
cnAABB cnMeshAABB( const cnMesh* mesh, cnTransform xf );

/// Mass properties of the solid mesh at the given density (zero for a mesh that is not solid).
cnMassData cnMeshMass( const cnMesh* mesh, double density );

/// Takes one more reference and returns the heightfield.
const cnHeightfield* cnHeightfieldRetain( const cnHeightfield* heightfield );

/// Drops one reference, freeing the heightfield with the last.
void cnHeightfieldRelease( const cnHeightfield* heightfield );

/// World box of the heightfield placed at xf.
cnAABB cnHeightfieldAABB( const cnHeightfield* heightfield, cnTransform xf );

/// Called with each triangle a query finds: its index and its vertices (in the mesh or heightfield
/// frame); return false to stop the query.
typedef bool cnTriangleFn( void* context, int triangle, const cnVec3 vertices[3] );

/// Calls fn for every triangle whose box overlaps box (mesh frame), through the mesh's tree.
void cnMeshQuery( const cnMesh* mesh, cnAABB box, cnTriangleFn* fn, void* context );

/// Calls fn for every triangle of the cells under box (heightfield frame); triangle 2 (j (columns-1) + i)
/// and the next one are cell (i, j)'s.
void cnHeightfieldQuery( const cnHeightfield* heightfield, cnAABB box, cnTriangleFn* fn, void* context );

/// First triangle hit by the segment origin + t translation, t in [0, maxFraction] (mesh frame), from
/// either side: true with t and the triangle's unit normal facing the ray's origin.
bool cnMeshRayCast( const cnMesh* mesh, cnVec3 origin, cnVec3 translation, double maxFraction, double* fraction,
					cnVec3* normal );

/// The same for a heightfield (its triangles seen from above or below).
bool cnHeightfieldRayCast( const cnHeightfield* heightfield, cnVec3 origin, cnVec3 translation, double maxFraction,
						   double* fraction, cnVec3* normal );
