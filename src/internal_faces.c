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
#include "core.h"
#include "shape.h"
#include "world.h"

#include <string.h>

// Two faces are parallel when their normals differ by less than about 0.08 degrees.
#define CN_FACE_PARALLEL_COS ( 1.0 - 1e-6 )

// The most pieces of other boxes' faces kept per face, to find a face covered by several together.
#define CN_MAX_FACE_PIECES 16

// A part of another box's face lying on one of the query box's faces, in that face's coordinates:
// u along its first in-face axis, v along its second.
typedef struct cnFacePiece
{
	double u0, u1, v0, v1;
	// how deep the other box is behind its face
	double depth;
} cnFacePiece;

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
	// per face: the deepest box found covering it whole
	double wholeDepth[6];
	// per face: pieces of other boxes' faces on it whose edges run along its own (pieceCount counts
	// them all; past CN_MAX_FACE_PIECES the face is left an outside face, whatever the tree's order)
	cnFacePiece pieces[6][CN_MAX_FACE_PIECES];
	int pieceCount[6];
} cnFaceQuery;

static cnVec3 cnColumn( cnMat3 m, int k )
{
	return k == 0 ? m.cx : ( k == 1 ? m.cy : m.cz );
}

// Box N (transform xfN, rotation rN, half extents hN) against face (axis i, side) of the query's
// box: 0 when N has no face coplanar with it and facing it, 2 when that face covers it whole (every
// corner of the query's face lies within N's face; faces are convex, so the corners decide), else
// 1 with the part of N's face on it in *piece when their edges run along each other's. piece->depth
// is N's depth behind its face in both cases.
static int cnFaceCover( const cnFaceQuery* q, int i, double side, cnTransform xfN, cnMat3 rN, const double hN[3],
						cnFacePiece* piece )
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
			return 0;
		}
		int j1 = ( i + 1 ) % 3, j2 = ( i + 2 ) % 3;
		cnVec3 center = cnMulAdd( q->xf.p, side * q->h[i], cnColumn( q->rotation, i ) );
		bool whole = true;
		for ( int corner = 0; corner < 4 && whole; ++corner )
		{
			double u = ( corner & 1 ) ? q->h[j1] : -q->h[j1];
			double v = ( corner & 2 ) ? q->h[j2] : -q->h[j2];
			cnVec3 p = cnMulAdd( cnMulAdd( center, u, cnColumn( q->rotation, j1 ) ), v, cnColumn( q->rotation, j2 ) );
			cnVec3 local = cnMulTMV( rN, cnSub( p, xfN.p ) );
			for ( int m = 0; m < 3; ++m )
			{
				whole = whole && ( m == k || fabs( cnGet( local, m ) ) <= hN[m] + q->tolerance );
			}
		}
		piece->depth = 2.0 * hN[k];
		if ( whole )
		{
			return 2;
		}
		// a piece: N's other two axes must run along this face's two
		cnVec3 offset = cnSub( cnMulSub( xfN.p, hN[k], n ), center );
		double half[2] = { -1.0, -1.0 };
		for ( int m = 0; m < 3; ++m )
		{
			if ( m == k )
			{
				continue;
			}
			double along1 = fabs( cnDot( cnColumn( rN, m ), cnColumn( q->rotation, j1 ) ) );
			double along2 = fabs( cnDot( cnColumn( rN, m ), cnColumn( q->rotation, j2 ) ) );
			if ( along1 >= CN_FACE_PARALLEL_COS )
			{
				half[0] = hN[m];
			}
			else if ( along2 >= CN_FACE_PARALLEL_COS )
			{
				half[1] = hN[m];
			}
		}
		if ( half[0] < 0.0 || half[1] < 0.0 )
		{
			return 0;
		}
		double u = cnDot( offset, cnColumn( q->rotation, j1 ) ), v = cnDot( offset, cnColumn( q->rotation, j2 ) );
		*piece = (cnFacePiece){ u - half[0] - q->tolerance, u + half[0] + q->tolerance, v - half[1] - q->tolerance,
								v + half[1] + q->tolerance, 2.0 * hN[k] };
		return 1;
	}
	return 0;
}

static bool cnFaceQueryCallback( int32_t proxyId, uint64_t userData, void* context )
{
	(void)proxyId;
	cnFaceQuery* q = context;
	int index = (int)userData;
	const cnShape* other = q->world->shapes + index;
	const cnShape* self = q->world->shapes + q->self;
	// a neighbour that filters other shapes than this box does is no floor to some of them: a shape
	// it lets through must meet this box's face as a real face
	if ( index == q->self || other->geom.type != cnShape_box || other->categoryBits != self->categoryBits ||
		 other->maskBits != self->maskBits || other->groupIndex != self->groupIndex )
	{
		return true;
	}
	cnTransform xfN = cnShapeWorldTransform( q->world->bodies + other->body, other );
	cnMat3 rN = cnMat3FromQuat( xfN.q );
	const double hN[3] = { other->geom.halfExtents.x, other->geom.halfExtents.y, other->geom.halfExtents.z };
	for ( int face = 0; face < 6; ++face )
	{
		cnFacePiece piece;
		int cover = cnFaceCover( q, face / 2, ( face & 1 ) ? 1.0 : -1.0, xfN, rN, hN, &piece );
		if ( cover == 2 )
		{
			// the deepest of the boxes that cover it whole, whatever order they come in
			q->faces |= (uint8_t)( 1u << face );
			q->wholeDepth[face] = piece.depth > q->wholeDepth[face] ? piece.depth : q->wholeDepth[face];
		}
		else if ( cover == 1 )
		{
			if ( q->pieceCount[face] < CN_MAX_FACE_PIECES )
			{
				q->pieces[face][q->pieceCount[face]] = piece;
			}
			q->pieceCount[face] += 1;
		}
	}
	return true;
}

// True when the pieces cover the face [-a, a] x [-b, b] together: the pieces' edges cut it into
// cells, and the centre of every cell lies in some piece. (The pieces come in the tree's order;
// the answer does not depend on it.)
static bool cnPiecesCover( const cnFacePiece* pieces, int count, double a, double b )
{
	double us[2 * CN_MAX_FACE_PIECES + 2], vs[2 * CN_MAX_FACE_PIECES + 2];
	int nu = 0, nv = 0;
	us[nu++] = -a;
	us[nu++] = a;
	vs[nv++] = -b;
	vs[nv++] = b;
	for ( int p = 0; p < count; ++p )
	{
		const double cu[2] = { pieces[p].u0, pieces[p].u1 }, cv[2] = { pieces[p].v0, pieces[p].v1 };
		for ( int e = 0; e < 2; ++e )
		{
			if ( cu[e] > -a && cu[e] < a )
			{
				us[nu++] = cu[e];
			}
			if ( cv[e] > -b && cv[e] < b )
			{
				vs[nv++] = cv[e];
			}
		}
	}
	cnSortDoubles( us, nu );
	cnSortDoubles( vs, nv );
	for ( int i = 0; i + 1 < nu; ++i )
	{
		for ( int j = 0; j + 1 < nv; ++j )
		{
			double u = 0.5 * ( us[i] + us[i + 1] ), v = 0.5 * ( vs[j] + vs[j + 1] );
			if ( us[i + 1] - us[i] <= 0.0 || vs[j + 1] - vs[j] <= 0.0 )
			{
				continue;
			}
			bool inside = false;
			for ( int p = 0; p < count && inside == false; ++p )
			{
				inside = u >= pieces[p].u0 && u <= pieces[p].u1 && v >= pieces[p].v0 && v <= pieces[p].v1;
			}
			if ( inside == false )
			{
				return false;
			}
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
		// (a box on a body that is not static keeps the zeros it was made with)
		cnShape* shape = world->shapes + s;
		if ( shape->alive == false || shape->geom.type != cnShape_box ||
			 world->bodies[shape->body].type != cnBody_static )
		{
			continue;
		}
		// each face is checked against every static box near it: the result does not depend on
		// the order the tree gives them in
		cnFaceQuery q;
		q.world = world;
		q.self = s;
		q.xf = cnShapeWorldTransform( world->bodies + shape->body, shape );
		q.rotation = cnMat3FromQuat( q.xf.q );
		q.h[0] = shape->geom.halfExtents.x;
		q.h[1] = shape->geom.halfExtents.y;
		q.h[2] = shape->geom.halfExtents.z;
		q.tolerance = tolerance;
		q.faces = 0;
		memset( q.pieceCount, 0, sizeof( q.pieceCount ) );
		memset( q.wholeDepth, 0, sizeof( q.wholeDepth ) );
		cnAABB box = shape->aabb;
		box.lower = cnSub( box.lower, cnV3( tolerance, tolerance, tolerance ) );
		box.upper = cnAdd( box.upper, cnV3( tolerance, tolerance, tolerance ) );
		cnDynamicTree_Query( tree, box, cnFaceQueryCallback, &q );
		// faces that no one box covers may be covered by several together (a wide tile beside two
		// narrow ones)
		for ( int face = 0; face < 6; ++face )
		{
			int i = face / 2;
			shape->geom.internalDepth[face] = 0.0f;
			if ( ( q.faces & ( 1u << face ) ) != 0 )
			{
				shape->geom.internalDepth[face] = (float)q.wholeDepth[face];
			}
			else if ( q.pieceCount[face] >= 2 && q.pieceCount[face] <= CN_MAX_FACE_PIECES &&
					  cnPiecesCover( q.pieces[face], q.pieceCount[face], q.h[( i + 1 ) % 3], q.h[( i + 2 ) % 3] ) )
			{
				// as deep as the shallowest piece
				q.faces |= (uint8_t)( 1u << face );
				double depth = q.pieces[face][0].depth;
				for ( int p = 1; p < q.pieceCount[face]; ++p )
				{
					depth = q.pieces[face][p].depth < depth ? q.pieces[face][p].depth : depth;
				}
				shape->geom.internalDepth[face] = (float)depth;
			}
		}
		shape->geom.internalFaces = q.faces;
	}
}
