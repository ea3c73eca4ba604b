// SPDX-License-Identifier: MIT
// Shared geometry: convex hulls, triangle meshes and heightfields. Included by cairn/cairn.h.
//
// Each is an immutable object built once (its hull, its bounding volume tree, its mass properties)
// and referred to by any number of shapes in any number of worlds: cnShapeDef.hull, .mesh or
// .heightfield. Objects are reference counted: the creator holds one reference and releases it with
// cnReleaseX when done; each shape holds its own, dropped when the shape (or its world) is
// destroyed. Reference counts are atomic, so worlds on different threads may share an object.
//
// Creation fails (NULL, with the reason in cnGetError) on input no simulation could use: too few
// points, non-finite coordinates, coplanar point clouds, indices out of range, degenerate grids.
// Reading meshes from files (OBJ, STL, PLY) and heightfields from PNG images is libcairn_io's
// (cairn/io.h).
#pragma once

#include "cairn/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most vertices a hull may have; a point cloud whose hull has more is refused (simplify it first).
#define CN_HULL_MAX_VERTICES 256

/// Most triangles a mesh may have.
#define CN_MESH_MAX_TRIANGLES ( 1 << 24 )

// ---------------------------------------------------------------------------------------------
// convex hulls

/// Computes the convex hull of count points (qhull): NULL and an error for fewer than 4 points,
/// non-finite points, points that span no volume (all on a plane or a line) or a hull of more than
/// CN_HULL_MAX_VERTICES vertices. Points inside the hull are dropped; coplanar faces are merged.
CN_API cnHull* cnCreateHull( const cnVec3* points, int count );

/// Drops the caller's reference (NULL is ignored); the hull is freed when no shape uses it.
CN_API void cnReleaseHull( cnHull* hull );

/// Number of hull vertices.
CN_API int cnHull_GetVertexCount( const cnHull* hull );

/// Hull vertex i in the hull's frame (the frame of the given points).
CN_API cnVec3 cnHull_GetVertex( const cnHull* hull, int i );

/// Number of hull faces (merged coplanar facets: polygons of three or more vertices).
CN_API int cnHull_GetFaceCount( const cnHull* hull );

/// Number of triangles of the hull surface (each face fanned from its first vertex).
CN_API int cnHull_GetTriangleCount( const cnHull* hull );

/// Vertex indices of surface triangle i, counter-clockwise seen from outside.
CN_API void cnHull_GetTriangle( const cnHull* hull, int i, int indices[3] );

// ---------------------------------------------------------------------------------------------
// triangle meshes

/// Builds a mesh from vertexCount vertices and triangleCount triangles (3 vertex indices each,
/// counter-clockwise seen from outside) and its bounding volume tree. Degenerate triangles (zero
/// area, repeated indices) are dropped; an index out of range or a non-finite vertex is an error.
CN_API cnMesh* cnCreateMesh( const cnVec3* vertices, int vertexCount, const int* indices, int triangleCount );

/// Drops the caller's reference (NULL is ignored); the mesh is freed when no shape uses it.
CN_API void cnReleaseMesh( cnMesh* mesh );

/// Number of mesh vertices.
CN_API int cnMesh_GetVertexCount( const cnMesh* mesh );

/// Mesh vertex i in the mesh's frame.
CN_API cnVec3 cnMesh_GetVertex( const cnMesh* mesh, int i );

/// Number of triangles kept.
CN_API int cnMesh_GetTriangleCount( const cnMesh* mesh );

/// Vertex indices of triangle i.
CN_API void cnMesh_GetTriangle( const cnMesh* mesh, int i, int indices[3] );

/// True when the mesh is closed, 2-manifold and wound outward (positive volume): what a mesh on a
/// moving body needs.
CN_API bool cnMesh_IsSolid( const cnMesh* mesh );

/// Why the mesh is not solid ("" when it is): the first open edge, non-manifold edge or the
/// inward winding, in words with the vertex or triangle indices.
CN_API const char* cnMesh_GetDefect( const cnMesh* mesh );

// ---------------------------------------------------------------------------------------------
// heightfields

/// Builds a heightfield of columns x rows samples (both >= 2) covering sizeX by sizeY metres of the
/// shape's xy-plane, centred on the shape origin: sample (i, j) sits at
/// x = -sizeX/2 + i sizeX/(columns-1), y = -sizeY/2 + j sizeY/(rows-1) with height
/// heights[j * columns + i] along local z. Each cell is split into two triangles.
CN_API cnHeightfield* cnCreateHeightfield( int columns, int rows, const double* heights, double sizeX, double sizeY );

/// Drops the caller's reference (NULL is ignored).
CN_API void cnReleaseHeightfield( cnHeightfield* heightfield );

/// Number of samples along x.
CN_API int cnHeightfield_GetColumnCount( const cnHeightfield* heightfield );

/// Number of samples along y.
CN_API int cnHeightfield_GetRowCount( const cnHeightfield* heightfield );

/// Height of sample (i, j).
CN_API double cnHeightfield_GetHeight( const cnHeightfield* heightfield, int i, int j );

/// Extent along x and y (z: 0).
CN_API cnVec3 cnHeightfield_GetSize( const cnHeightfield* heightfield );

#ifdef __cplusplus
}
#endif
