// SPDX-License-Identifier: MIT
// Collision stage interface: shape geometry, bounding boxes, mass properties and contact manifolds.
// Everything here is a pure function of shape geometry and transforms; the world never enters.
#pragma once

#include "cairn/math.h"
#include "cairn/types.h"

#include <stdint.h>

#define CN_MAX_MANIFOLD_POINTS 4

// Most manifolds one shape pair can make: convex pairs make one; a planar polygon pair (non-convex,
// FOSSSim's table on its legs) groups its vertex-edge points by normal, CN_MAX_MANIFOLD_POINTS per
// manifold (cnCollidePair). A contact stores the first inline and the rest on the heap.
#define CN_MAX_PAIR_MANIFOLDS 16
#define CN_MAX_PAIR_POINTS ( CN_MAX_PAIR_MANIFOLDS * CN_MAX_MANIFOLD_POINTS )

/// Shape geometry in the shape's own frame. Cylinders and capsules are centred at the origin
/// with their axis along local z; boxes are centred at the origin; planes are static-only
/// half-spaces {x : dot(normal, x) <= offset} whose surface is dot(normal, x) = offset.
typedef struct cnGeometry
{
	cnShapeType type;
	double radius;
	double halfHeight;
	cnVec3 halfExtents;
	cnVec3 normal;
	double offset;
	// polygon (planar): vertices (x, y, 0) in the shape frame, owned by the world's shape (shape.c)
	int vertexCount;
	cnVec3* vertices;
	// hull, mesh, heightfield: the shared object, one reference held by the shape (shape.c)
	const cnHull* hull;
	const cnMesh* mesh;
	const cnHeightfield* heightfield;
	// static box: bit 2 axis + (1 on the positive side) set for each face that a coplanar face of
	// another static box covers, so the face lies inside the solid the two make and no contact may
	// push along it (internal_faces.c); 0 for every other shape
	uint8_t internalFaces;
	// static box: per internal face, how deep the static boxes behind it are (the least over the
	// boxes that cover it together): how far cnBoxThroughSeams may grow it
	float internalDepth[6];
} cnGeometry;

/// Mass properties of a solid shape: mass, centre of mass and inertia about the centre of mass,
/// both expressed in the shape frame.
typedef struct cnMassData
{
	double mass;
	cnVec3 center;
	cnMat3 inertia;
} cnMassData;

/// One contact point. The narrow phase fills point, separation and id; the rest belongs to the
/// solver and survives from step to step when the id matches (warm starting).
typedef struct cnManifoldPoint
{
	/// world point midway between the two surfaces
	cnVec3 point;
	/// signed distance along the normal; negative when the shapes overlap
	double separation;
	/// feature id: the same pair of features gives the same id from step to step
	uint32_t id;
	/// normal of this point (from A to B); equal to the manifold normal except for planar polygon
	/// pairs, whose vertex-edge contacts each have their own (set by the narrow phase stage)
	cnVec3 normal;

	// solver data (not touched by cnCollide)
	cnVec3 anchorA, anchorB;
	double normalImpulse;
	double tangentImpulse1, tangentImpulse2;
	double maxNormalImpulse;
	double relativeVelocity;
	bool persisted;
} cnManifoldPoint;

/// A contact manifold between two shapes: up to 4 points sharing one normal.
typedef struct cnManifold
{
	/// unit world normal pointing from shape A towards shape B
	cnVec3 normal;
	cnManifoldPoint points[CN_MAX_MANIFOLD_POINTS];
	int pointCount;
} cnManifold;

/// World-space bounding box of a shape placed at transform xf (shape frame to world).
/// Planes get a huge but finite box.
cnAABB cnComputeShapeAABB( const cnGeometry* g, cnTransform xf );

/// Mass properties of a solid shape of the given density (planes and polygons: zero mass; polygon
/// bodies get their mass from cnBody_SetMassData).
cnMassData cnComputeShapeMass( const cnGeometry* g, double density );

/// Computes the contact manifold between shape A at xfA and shape B at xfB (shape frames to world).
/// Points whose separation exceeds maxDistance are left out (speculative margin). The normal
/// points from A to B. Sets pointCount to 0 when the shapes are farther apart than maxDistance.
/// Only the point, separation, id and normal fields of each point and the manifold normal are
/// written; the caller initialises the solver fields. Each point's normal equals the manifold normal
/// except for polygon pairs, whose vertex-edge points have their own (the manifold normal is then the
/// deepest point's); polygon pairs keep only points with separation strictly below maxDistance.
/// Handles every ordered pair of shape types except plane-plane; a polygon touches only polygons.
/// (Polygon additions: helper J, planar scenes.)
void cnCollide( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
				cnManifold* manifold );

/// Every manifold of a shape pair, what the engine's stages use: a convex pair's one manifold (none
/// when it has no point), a polygon pair's manifolds of equal-normal points. Writes at most capacity
/// (CN_MAX_PAIR_MANIFOLDS covers every pair) and returns how many have points.
int cnCollidePair( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
				   cnManifold* manifolds, int capacity );

/// The points of cnCollidePair's manifolds in one list (each carries its normal), for stages that only
/// walk points. Writes at most capacity (CN_MAX_PAIR_POINTS covers every pair); returns how many.
int cnCollidePoints( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					 cnManifoldPoint* points, int capacity );

// Per-pair routines (collide_*.c). Each takes the two shapes in the order of its name.
void cnCollideSpheres( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					   cnManifold* m );
void cnCollideCapsuleAndSphere( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
								double maxDistance, cnManifold* m );
void cnCollideCapsules( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
						cnManifold* m );
void cnCollideBoxAndSphere( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							double maxDistance, cnManifold* m );
void cnCollideBoxAndCapsule( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							 double maxDistance, cnManifold* m );
/// The box another shape meets: a static box grown through its internal faces (internal_faces.c) by
/// what the other shape can span (reach: its length and the speculative distance), but never deeper
/// than the static boxes behind the face (cnGeometry.internalDepth), so that a shape rolling or
/// sliding over a seam between static boxes finds the face it is on continue instead of the next
/// box's edge, and a hole beyond the neighbour stays a hole. Returns box itself when it has no
/// internal face, else grown, with *xf moved to the grown box's centre. (Box against box skips
/// the axes along internal faces instead: cnCollideBoxes.)
const cnGeometry* cnBoxThroughSeams( const cnGeometry* box, cnTransform* xf, double reach, cnGeometry* grown );
/// True when normal (world, pointing out of the box at q) leans into one of the box's internal
/// faces: a contact or a hit along it would push where the static solid goes on.
bool cnLeansIntoInternalFace( const cnGeometry* box, cnQuat q, cnVec3 normal );
void cnCollideBoxes( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					 cnManifold* m );
/// plane (A) against any convex shape (B)
void cnCollidePlane( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					 cnManifold* m );
/// general convex pair through GJK/EPA and face clipping (used for cylinders)
void cnCollideConvex( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					  cnManifold* m );

/// polygon against polygon (planar, FOSSSim): every vertex-edge pair closer than the sum of the radii,
/// each point with its own normal; one manifold keeps the deepest CN_MAX_MANIFOLD_POINTS of them in
/// scan order (collide_polygon.c)
void cnCollidePolygons( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
						double maxDistance, cnManifold* m );

/// The same contact set, all of it (up to CN_MAX_PAIR_POINTS, the deepest): points in scan order
/// grouped into manifolds of equal normal, at most capacity manifolds. Returns the manifold count.
int cnCollidePolygonManifolds( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							   double maxDistance, cnManifold* manifolds, int capacity );

/// True for shape types made of triangles (meshes, heightfields), whose pairs make several manifolds.
static inline bool cnIsManifoldSource( cnShapeType type )
{
	return type == cnShape_mesh || type == cnShape_heightfield;
}

/// A pair with a mesh or a heightfield on either side (collide_mesh.c): one manifold per group of
/// triangle contacts sharing a normal, each point with its own feature id, at most capacity
/// manifolds; returns how many have points. Every point carries its manifold's normal.
int cnCollideMeshPair( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					   cnManifold* manifolds, int capacity );

/// Releases what a shape's geometry owns (a polygon's vertices); safe to call twice (shape.c).
void cnFreeGeometry( cnGeometry* g );

/// Support point of a convex shape (not a plane) in its own frame: the point farthest along d.
cnVec3 cnSupport( const cnGeometry* g, cnVec3 d );

// Face clipping shared by the box-box and convex narrow phases (collide_clip.c).

/// Most vertices cnClipPolygon keeps: a 16-gon (a cylinder cap) cut by 16 side planes gains at
/// most one vertex a plane, 32 in all.
#define CN_CLIP_MAX_VERTICES 36

/// A vertex of a polygon being clipped.
typedef struct cnClipVertex
{
	cnVec3 p;
	/// the features that made the vertex: the caller's key (at least 0x10000) for an input
	/// vertex, (lo << 8) | hi of the two line labels for a crossing
	uint32_t key;
	/// label (below 256) of the line from this vertex to the next: an incident edge or a plane
	uint32_t edge;
} cnClipVertex;

/// A clip plane keeping the half-space dot(normal, x) <= offset.
typedef struct cnClipPlane
{
	cnVec3 normal;
	double offset;
	/// label of the plane's line in crossing keys, below 256 and distinct from the edge labels
	uint32_t label;
	/// 0, 1 or 2 when normal is exactly +-e_axis, so that crossings land exactly on the plane;
	/// -1 otherwise
	int axis;
} cnClipPlane;

/// A candidate manifold point.
typedef struct cnClipPoint
{
	cnVec3 point;
	double separation;
	uint32_t id;
} cnClipPoint;

/// Clips a convex polygon (count >= 3, any winding) or a segment (count 2, both edges labelled
/// with its line) in place by the planes in order; poly and scratch (working space) both hold
/// CN_CLIP_MAX_VERTICES. A vertex outside a plane by no more than slack is snapped onto it
/// instead of being clipped. Returns the count left in poly.
int cnClipPolygon( cnClipVertex* poly, int count, const cnClipPlane* planes, int planeCount, double slack,
				   cnClipVertex* scratch );

/// Picks at most CN_MAX_MANIFOLD_POINTS of count candidates, all measured in the plane
/// perpendicular to the unit normal: the deepest (the first within depthTolerance of the
/// deepest), the farthest from it, the one making the largest triangle with those two, and the
/// one adding the most area outside that triangle; points closer than lengthTolerance add
/// nothing. Writes the indices to keep and returns how many.
int cnReduceManifoldPoints( const cnClipPoint* c, int count, cnVec3 normal, double depthTolerance,
							double lengthTolerance, int keep[CN_MAX_MANIFOLD_POINTS] );
