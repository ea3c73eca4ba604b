// SPDX-License-Identifier: MIT
// The glTF exporter's triangle meshes (gltf.c): each recorded shape triangulated in its own frame,
// written in glTF's axes. Cairn is right-handed with z up, glTF right-handed with y up; the turn P
// of -90 degrees about x, (x, y, z) -> (x, z, -y), maps one onto the other, for points and
// directions as they are and for rotations as P R P^T.
#pragma once

#include "cairn/recording.h"

#include <stdbool.h>
#include <stdint.h>

/// A point or direction in glTF's axes: P v. 0 - v.y rather than -v.y, so a zero stays +0 in the JSON.
static inline cnVec3 cnToGltf( cnVec3 v )
{
	return cnV3( v.x, v.z, 0.0 - v.y );
}

/// A rotation in glTF's axes: P R P^T, the quaternion's vector part turned by P.
static inline cnQuat cnQuatToGltf( cnQuat q )
{
	cnVec3 v = cnToGltf( cnV3( q.x, q.y, q.z ) );
	return ( cnQuat ){ q.w, v.x, v.y, v.z };
}

/// A mesh being built: positions and normals (already in glTF's axes), texture coordinates and
/// triangles, counter-clockwise seen from outside as glTF wants its front faces.
typedef struct cnMeshBuilder
{
	float* positions;
	float* normals;
	float* uvs;
	uint32_t* indices;
	int vertexCount, vertexCapacity;
	int indexCount, indexCapacity;
	bool failed;
} cnMeshBuilder;

/// Frees a mesh's arrays and empties it.
void cnFreeMeshBuilder( cnMeshBuilder* m );

/// Adds the triangles of a shape other than a plane, in its own frame: spheres, capsules and
/// cylinders with segments steps around, boxes, polygons as slabs. Sets m->failed when memory runs
/// out.
void cnMeshShape( cnMeshBuilder* m, const cnRecordedShape* s, int segments );

/// Adds a plane as a square of half side half, centred at the point of the plane nearest target
/// (target in the shape's frame).
void cnMeshPlane( cnMeshBuilder* m, const cnRecordedShape* s, cnVec3 target, double half );

/// Adds a coil (a joint's spring): a tube of radius wireRadius, with segments steps around it, along
/// the helix of coilRadius that makes turns turns about the z axis while rising from z = 0 to
/// z = length, its two ends closed.
void cnMeshCoil( cnMeshBuilder* m, double coilRadius, double wireRadius, int turns, double length, int segments );
