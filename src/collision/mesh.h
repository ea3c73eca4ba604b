// SPDX-License-Identifier: MIT
// Triangle meshes (cnMesh) and heightfields (cnHeightfield): the shared objects behind mesh and
// heightfield shapes, their trees, mass properties and triangle queries.
#pragma once

#include "collision/collision.h"

#include <stdatomic.h>

/// A node of a mesh's bounding volume tree (flat array, depth-first: an inner node's first child
/// follows it).
typedef struct cnMeshNode
{
	cnAABB box;
	// leaf: first entry of the mesh's order array; inner node: index of the second child
	int index;
	// triangles in a leaf; 0 for an inner node
	int count;
} cnMeshNode;

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
	// unit outward normal of each triangle
	cnVec3* normals;
	// triangle across edge k (vertex k to vertex k + 1) of triangle t at 3 t + k; -1 where the edge is
	// open or shared by more than two triangles
	int* neighbors;
	// bit k of triangle t: edge k is active (open, or convex and sharper than CN_ACTIVE_EDGE_COS), so
	// a contact on it may take a normal other than the face's (internal edges, collide_mesh.c)
	uint8_t* edgeFlags;
	// a triangle using each vertex (the first), so a walk over triangles visits a vertex once
	int* vertexOwner;
	// the triangles around vertex v: fan[fanStart[v] .. fanStart[v + 1])
	int* fanStart;
	int* fan;
	// bounding volume tree (mesh_tree.c): nodes[0] is the root; leaves refer to order[]
	int nodeCount;
	cnMeshNode* nodes;
	int* order;
};

// An edge between two triangles is active when the dihedral turns outwards by more than about
// 5 degrees (the cosine of the angle between the face normals below this), as Jolt's active edges.
#define CN_ACTIVE_EDGE_COS 0.99619469809174553

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

/// Builds the mesh's bounding volume tree over its triangles (mesh_tree.c); false when out of memory.
bool cnMeshBuildTree( cnMesh* mesh );

/// Segment origin + t d, t in [0, maxT], against a triangle from either side: true with the
/// crossing's t and the unit normal facing the segment's origin (mesh_tree.c).
bool cnRayTriangle( const cnVec3 v[3], cnVec3 origin, cnVec3 d, double maxT, double* t, cnVec3* normal );

/// Whether edge k of a triangle with unit normal n and vertices v is active next to a neighbour
/// triangle of unit normal nn and centroid c: convex and sharper than CN_ACTIVE_EDGE_COS.
bool cnIsActiveEdge( const cnVec3 v[3], cnVec3 n, int k, cnVec3 nn, cnVec3 c );

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

/// Vertices of heightfield triangle t (as cnHeightfieldQuery gives them).
void cnHeightfieldTriangle( const cnHeightfield* heightfield, int t, cnVec3 v[3] );

/// Triangle across edge k of heightfield triangle t, -1 at the border.
int cnHeightfieldNeighbor( const cnHeightfield* heightfield, int t, int k );

/// Active edges of heightfield triangle t (bit k: edge k), as cnMesh.edgeFlags.
uint8_t cnHeightfieldEdgeFlags( const cnHeightfield* heightfield, int t );

/// First triangle hit by the segment origin + t translation, t in [0, maxFraction] (mesh frame), from
/// either side: true with t and the triangle's unit normal facing the ray's origin.
bool cnMeshRayCast( const cnMesh* mesh, cnVec3 origin, cnVec3 translation, double maxFraction, double* fraction,
					cnVec3* normal );

/// The same for a heightfield (its triangles seen from above or below).
bool cnHeightfieldRayCast( const cnHeightfield* heightfield, cnVec3 origin, cnVec3 translation, double maxFraction,
						   double* fraction, cnVec3* normal );
