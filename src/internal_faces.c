// SPDX-License-Identifier: MIT
// Internal faces of static boxes (internal_faces.h).
//
// A box sliding over a floor of static tiles meets each seam with its front edge a little below the
// next tile's top (the soft contacts let it sink by about the linear slop). There the separating
// axis test finds the next tile's side face, or the slider's own front face, separating best, and
// the contact pushes the slider back along the floor: a frictionless box at 1 m/s lost 70 % of its
// speed at the first seam, one at 4 m/s flipped over, one at 8 m/s took off. These are the ghost
// collisions that Box2D's chain shapes and Jolt's active edges avoid for meshes. For boxes the seam
// is known in advance: a face that a coplanar face of another static box covers lies inside the
// solid the two make, so no contact with either box may push along that face's normal
// (collide_box.c skips such axes). The faces are found here once per change of the static shapes.
#include "internal_faces.h"

#include "collision/broad_phase.h"
#include "collision/dynamic_tree.h"
#include "shape.h"
#include "world.h"

// Two faces are parallel when their normals differ by less than about 0.08 degrees.
#define CN_FACE_PARALLEL_COS ( 1.0 - 1e-6 )

typedef struct cnFaceQuery
{
	cnWorld* world;
	int self;
	cnTransform xf;
	cnMat3 rotation;
	double h[3];
	// how far apart two faces may be and still be one (the gap or overlap of a seam)
	double tolerance;
	uint8_t faces;
} cnFaceQuery;

static cnVec3 cnColumn( cnMat3 m, int k )
{
	return k == 0 ? m.cx : ( k == 1 ? m.cy : m.cz );
}

// True when box N (transform xfN, rotation rN, half extents hN) has a face coplanar with face
// (axis i, side) of the query's box, facing it, that covers it: every corner of the query's face
// lies within N's face (faces are convex, so the corners decide).
static bool cnFaceCovered( const cnFaceQuery* q, int i, double side, cnTransform xfN, cnMat3 rN, const double hN[3] )
{
	cnVec3 n = cnMulSV( side, cnColumn( q->rotation, i ) );
	for ( int k = 0; k < 3; ++k )
	{
		double d = cnDot( cnColumn( rN, k ), n );
		if ( fabs( d ) < CN_FACE_PARALLEL_COS )
		{
			continue;
		}
		// N's face with outward normal -n is at its centre minus hN[k] along n
		double planeS = cnDot( n, q->xf.p ) + q->h[i];
		double planeN = cnDot( n, xfN.p ) - hN[k];
		if ( fabs( planeS - planeN ) > q->tolerance )
		{
			return false;
		}
		int j1 = ( i + 1 ) % 3, j2 = ( i + 2 ) % 3;
		cnVec3 center = cnMulAdd( q->xf.p, side * q->h[i], cnColumn( q->rotation, i ) );
		for ( int corner = 0; corner < 4; ++corner )
		{
			double u = ( corner & 1 ) ? q->h[j1] : -q->h[j1];
			double v = ( corner & 2 ) ? q->h[j2] : -q->h[j2];
			cnVec3 p = cnMulAdd( cnMulAdd( center, u, cnColumn( q->rotation, j1 ) ), v, cnColumn( q->rotation, j2 ) );
			cnVec3 local = cnMulTMV( rN, cnSub( p, xfN.p ) );
			for ( int m = 0; m < 3; ++m )
			{
				if ( m != k && fabs( cnGet( local, m ) ) > hN[m] + q->tolerance )
				{
					return false;
				}
			}
		}
		return true;
	}
	return false;
}

static bool cnFaceQueryCallback( int32_t proxyId, uint64_t userData, void* context )
{
	(void)proxyId;
	cnFaceQuery* q = context;
	int index = (int)userData;
	const cnShape* other = q->world->shapes + index;
	if ( index == q->self || other->geom.type != cnShape_box )
	{
		return true;
	}
	cnTransform xfN = cnShapeWorldTransform( q->world->bodies + other->body, other );
	cnMat3 rN = cnMat3FromQuat( xfN.q );
	const double hN[3] = { other->geom.halfExtents.x, other->geom.halfExtents.y, other->geom.halfExtents.z };
	for ( int face = 0; face < 6; ++face )
	{
		if ( ( q->faces & ( 1u << face ) ) == 0 && cnFaceCovered( q, face / 2, ( face & 1 ) ? 1.0 : -1.0, xfN, rN, hN ) )
		{
			q->faces |= (uint8_t)( 1u << face );
		}
	}
	return true;
}

void cnUpdateInternalFaces( cnWorld* world )
{
	if ( world->internalFacesDirty == false )
	{
		return;
	}
	world->internalFacesDirty = false;
	const cnDynamicTree* tree = cnBroadPhase_GetTree( &world->broadPhase, cnProxy_static );
	double tolerance = world->def.linearSlop;
	for ( int s = 0; s < world->shapeCount; ++s )
	{
		cnShape* shape = world->shapes + s;
		if ( shape->alive == false || shape->geom.type != cnShape_box )
		{
			continue;
		}
		shape->geom.internalFaces = 0;
		if ( world->bodies[shape->body].type != cnBody_static )
		{
			continue;
		}
		// each face is checked against every static box near it: the result does not depend on
		// the order the tree gives them in
		cnFaceQuery q = { world, s, cnShapeWorldTransform( world->bodies + shape->body, shape ), cnMat3_zero,
						  { shape->geom.halfExtents.x, shape->geom.halfExtents.y, shape->geom.halfExtents.z },
						  tolerance, 0 };
		q.rotation = cnMat3FromQuat( q.xf.q );
		cnAABB box = shape->aabb;
		box.lower = cnSub( box.lower, cnV3( tolerance, tolerance, tolerance ) );
		box.upper = cnAdd( box.upper, cnV3( tolerance, tolerance, tolerance ) );
		cnDynamicTree_Query( tree, box, cnFaceQueryCallback, &q );
		shape->geom.internalFaces = q.faces;
	}
}
