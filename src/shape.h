// SPDX-License-Identifier: MIT
// Shapes: the shape record, its world transform, its boxes and broad-phase proxy.
#pragma once

#include "body.h"
#include "collision/collision.h"

/// A shape attached to a body.
typedef struct cnShape
{
	cnGeometry geom;
	// shape frame relative to the body frame
	cnTransform local;
	int body;
	uint32_t generation;
	bool alive;
	cnMaterialId material;
	uint64_t categoryBits, maskBits;
	int32_t groupIndex;
	// contact events for this shape's contacts (contact_events.c)
	bool enableContactEvents, enableHitEvents;
	int nextShape;
	int proxyKey;
	// tight box at the current pose and the enlarged box stored in the broad phase
	cnAABB aabb;
	cnAABB fatAABB;
} cnShape;

/// Shape transform in world coordinates.
static inline cnTransform cnShapeWorldTransform( const cnBody* body, const cnShape* shape )
{
	return cnMulTransforms( body->xf, shape->local );
}

/// Checks a shape def for a body of this world (types, sizes, material, what the body's type allows);
/// false with the error set.
bool cnValidateShapeDef( const cnWorld* world, const cnBody* body, const cnShapeDef* def );

/// Frees what a shape's geometry owns (polygon vertices).
void cnFreeGeometry( cnGeometry* g );

/// Recomputes every shape box of a body and moves broad-phase proxies whose box left its fat box.
/// sweep is the expected motion over the next step (it widens the fat box).
void cnUpdateBodyShapes( cnWorld* world, cnBody* body, cnVec3 sweep );

/// The first half of cnUpdateBodyShapes, which writes only the body's own shapes (so bodies can be
/// done in parallel): new boxes, and new fat boxes where a box left its fat box, marked
/// moved[shapeIndex] = 1 (else 0).
void cnComputeBodyShapeBoxes( cnWorld* world, const cnBody* body, cnVec3 sweep, uint8_t* moved );

/// (The second half, serial because it changes the broad-phase tree, is the finish stage's:
/// finalize.c moves the proxies marked in moved.)

/// Releases a shape's slot, proxy and geometry (its contacts and its body's list are the caller's).
void cnFreeShape( cnWorld* world, int shapeIndex );
