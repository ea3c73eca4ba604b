// SPDX-License-Identifier: MIT
// GJK distance and EPA penetration depth between two convex shapes.
//
// Everything is computed in one frame (the frame of shape A when called from the narrow phase) on
// the Minkowski difference D = B - A: the shapes are apart by the distance from the origin to D,
// and overlap by the distance from the origin to the boundary of D when the origin lies inside.
// Spheres and capsules are a core (point, segment) grown by a radius: GJK runs on the cores, which
// is exact and converges in a few iterations, and only when the cores themselves overlap do the
// full shapes go through GJK and EPA.
#include "collision/gjk.h"
#include "collision/hull.h"

#include <stdint.h>

// GJK stops after this many support points; it normally needs fewer than 10 (flat shapes) or a
// few tens (curved against curved at tight tolerance).
#define CN_GJK_MAX_ITERATIONS 64

// EPA polytope capacity. A face is live or in the free list; Euler's formula bounds the live
// faces by 2 V - 4, so 256 faces always suffice for 128 vertices.
#define CN_EPA_MAX_VERTICES 128
#define CN_EPA_MAX_FACES 256

// Tolerances relative to the size of the pair (the sum of the bounding radii).
// GJK declares overlap when the origin is this close to the simplex: 1e-10 is a million times
// the rounding error of coordinates of that size, and far below any physical length.
#define CN_GJK_OVERLAP_TOLERANCE 1e-10
// GJK stops when its lower and upper bounds on the distance differ by less than this.
#define CN_GJK_DISTANCE_TOLERANCE 1e-10
// EPA stops when the depth is known within this. On a surface curved with radius R the normal
// is then known to sqrt(2 tol / R): about 3e-6 rad for tol 1e-12 and R a third of the pair size.
// Flat contacts converge at once; two curved sides need about 40 vertices.
#define CN_EPA_TOLERANCE 1e-12

// A shape as GJK sees it: geometry, placement in the query frame and whether only its core is used.
typedef struct cnGjkShape
{
	const cnGeometry* g;
	cnTransform xf;
	bool core;
} cnGjkShape;

// A vertex of the Minkowski difference with the two support points that made it.
typedef struct cnSimplexVertex
{
	cnVec3 wA, wB, w;
	// barycentric coordinate of the closest point
	double a;
} cnSimplexVertex;

typedef struct cnSimplex
{
	cnSimplexVertex v[4];
	int count;
} cnSimplex;

typedef struct cnEpaFace
{
	// vertices, counter-clockwise seen from outside
	int v[3];
	// adj[i] is the face across the edge v[i] -> v[i + 1]
	int adj[3];
	// outward unit normal and plane distance from the origin
	cnVec3 n;
	double d;
	bool live;
} cnEpaFace;

typedef struct cnPolytope
{
	cnSimplexVertex verts[CN_EPA_MAX_VERTICES];
	cnEpaFace faces[CN_EPA_MAX_FACES];
	int freeFaces[CN_EPA_MAX_FACES];
	int vertexCount, faceCount, freeCount;
} cnPolytope;

double cnShapeBoundingRadius( const cnGeometry* g )
{
	switch ( g->type )
	{
		case cnShape_sphere:
			return g->radius;
		case cnShape_capsule:
			return g->halfHeight + g->radius;
		case cnShape_box:
			return cnLength( g->halfExtents );
		case cnShape_cylinder:
			return sqrt( g->radius * g->radius + g->halfHeight * g->halfHeight );
		case cnShape_hull:
			return g->hull->radius;
		default:
			return 0.0;
	}
}

// The rounding radius GJK adds on top of the core.
static double cnCoreRadius( const cnGeometry* g )
{
	return ( g->type == cnShape_sphere || g->type == cnShape_capsule ) ? g->radius : 0.0;
}

// Support point in the shape's own frame.
static cnVec3 cnLocalSupport( const cnGeometry* g, bool core, cnVec3 d )
{
	cnVec3 p;
	switch ( g->type )
	{
		case cnShape_sphere:
			p = cnVec3_zero;
			break;
		case cnShape_capsule:
			p = cnV3( 0.0, 0.0, d.z >= 0.0 ? g->halfHeight : -g->halfHeight );
			break;
		default:
			return cnSupport( g, d );
	}
	if ( core == false )
	{
		p = cnMulAdd( p, g->radius, cnNormalize( d ) );
	}
	return p;
}

static cnVec3 cnShapeSupport( const cnGjkShape* s, cnVec3 d )
{
	cnVec3 p = cnLocalSupport( s->g, s->core, cnInvRotate( s->xf.q, d ) );
	return cnTransformPoint( s->xf, p );
}

// Vertex of B - A farthest along d.
static cnSimplexVertex cnMakeVertex( const cnGjkShape* sa, const cnGjkShape* sb, cnVec3 d )
{
	cnSimplexVertex v;
	v.wA = cnShapeSupport( sa, cnNeg( d ) );
	v.wB = cnShapeSupport( sb, d );
	v.w = cnSub( v.wB, v.wA );
	v.a = 1.0;
	return v;
}

static cnVec3 cnSimplexPoint( const cnSimplex* s )
{
	cnVec3 p = cnVec3_zero;
	for ( int i = 0; i < s->count; ++i )
	{
		p = cnMulAdd( p, s->v[i].a, s->v[i].w );
	}
	return p;
}

// Closest point of the simplex to the origin. Every face of the simplex is tried (vertices, edges,
// triangles, the solid) and the nearest candidate whose barycentric coordinates are all positive
// wins. The closest point lies inside one such face, and the candidates of the other faces are
// points of the simplex too, so they can only be farther: rounding perturbs the answer but cannot
// make a wrong face win by much. Johnson's recursive region tests are cheaper but break down on
// the sliver simplices GJK builds on curved surfaces. Returns true when the origin is inside the
// tetrahedron (the simplex is then left as it is); otherwise reduces the simplex to the face
// holding the closest point, with its barycentric weights.
static bool cnSolveSimplex( cnSimplex* s )
{
	int count = s->count;
	int bestMask = 1;
	double bestLambda[4] = { 1.0, 0.0, 0.0, 0.0 };
	double bestDist = INFINITY;

	for ( int mask = 1; mask < ( 1 << count ); ++mask )
	{
		int idx[4] = { 0, 0, 0, 0 };
		int k = 0;
		for ( int i = 0; i < count; ++i )
		{
			if ( mask & ( 1 << i ) )
			{
				idx[k++] = i;
			}
		}

		cnVec3 a = s->v[idx[0]].w;
		double lambda[4] = { 1.0, 0.0, 0.0, 0.0 };
		cnVec3 p = a;
		if ( k == 2 )
		{
			cnVec3 e = cnSub( s->v[idx[1]].w, a );
			double ee = cnDot( e, e );
			double t = ee > 0.0 ? -cnDot( a, e ) / ee : 0.0;
			if ( t <= 0.0 || t >= 1.0 )
			{
				continue;
			}
			lambda[0] = 1.0 - t;
			lambda[1] = t;
			p = cnMulAdd( a, t, e );
		}
		else if ( k == 3 )
		{
			// project the origin on the plane through its normal, then weigh by signed areas; both
			// stay accurate on slivers, unlike the normal equations, whose error grows as 1 / sin^2
			cnVec3 b = s->v[idx[1]].w, c = s->v[idx[2]].w;
			cnVec3 n = cnCross( cnSub( b, a ), cnSub( c, a ) );
			double nn = cnDot( n, n );
			if ( nn <= 1e-28 * cnLengthSquared( cnSub( b, a ) ) * cnLengthSquared( cnSub( c, a ) ) )
			{
				// thinner than 1e-14 rad: its edges stand in
				continue;
			}
			p = cnMulSV( cnDot( a, n ) / nn, n );
			lambda[0] = cnDot( n, cnCross( cnSub( b, p ), cnSub( c, p ) ) ) / nn;
			lambda[1] = cnDot( n, cnCross( cnSub( c, p ), cnSub( a, p ) ) ) / nn;
			lambda[2] = cnDot( n, cnCross( cnSub( a, p ), cnSub( b, p ) ) ) / nn;
			if ( lambda[0] <= 0.0 || lambda[1] <= 0.0 || lambda[2] <= 0.0 )
			{
				continue;
			}
		}
		else if ( k == 4 )
		{
			cnVec3 e1 = cnSub( s->v[1].w, a ), e2 = cnSub( s->v[2].w, a ), e3 = cnSub( s->v[3].w, a );
			double det = cnDot( e1, cnCross( e2, e3 ) );
			if ( fabs( det ) <= 1e-12 * cnLength( e1 ) * cnLength( e2 ) * cnLength( e3 ) )
			{
				continue;
			}
			// Cramer's rule on a + l1 e1 + l2 e2 + l3 e3 = 0
			cnVec3 r = cnNeg( a );
			double l1 = cnDot( r, cnCross( e2, e3 ) ) / det;
			double l2 = cnDot( e1, cnCross( r, e3 ) ) / det;
			double l3 = cnDot( e1, cnCross( e2, r ) ) / det;
			if ( l1 > 0.0 && l2 > 0.0 && l3 > 0.0 && 1.0 - l1 - l2 - l3 > 0.0 )
			{
				return true;
			}
			continue;
		}

		double dist = cnLengthSquared( p );
		if ( dist < bestDist )
		{
			bestDist = dist;
			bestMask = mask;
			for ( int i = 0; i < 4; ++i )
			{
				bestLambda[i] = lambda[i];
			}
		}
	}

	cnSimplex reduced = { 0 };
	for ( int i = 0; i < count; ++i )
	{
		if ( bestMask & ( 1 << i ) )
		{
			reduced.v[reduced.count] = s->v[i];
			reduced.v[reduced.count].a = bestLambda[reduced.count];
			++reduced.count;
		}
	}
	*s = reduced;
	return false;
}

// GJK on shapes sa and sb. Leaves the final simplex (with barycentric weights when apart) in s
// and returns true when the shapes overlap.
static bool cnGjk( const cnGjkShape* sa, const cnGjkShape* sb, double scale, cnSimplex* s, int* iterations )
{
	double overlapTol = CN_GJK_OVERLAP_TOLERANCE * scale;
	double distanceTol = CN_GJK_DISTANCE_TOLERANCE * scale;

	// the difference of the origins is a point of B - A for shapes symmetric about their origin,
	// usually near the closest point, so start there
	cnVec3 d = cnSub( sb->xf.p, sa->xf.p );
	if ( cnLengthSquared( d ) == 0.0 )
	{
		d = cnV3( 1.0, 0.0, 0.0 );
	}
	s->v[0] = cnMakeVertex( sa, sb, cnNeg( d ) );
	s->count = 1;
	cnVec3 v = s->v[0].w;

	int iter = 0;
	bool overlap = false;
	while ( iter < CN_GJK_MAX_ITERATIONS )
	{
		double vv = cnLengthSquared( v );
		if ( vv <= overlapTol * overlapTol )
		{
			overlap = true;
			break;
		}

		cnSimplexVertex w = cnMakeVertex( sa, sb, cnNeg( v ) );
		++iter;

		// a repeated vertex means no further progress is possible
		bool repeated = false;
		for ( int i = 0; i < s->count; ++i )
		{
			if ( w.wA.x == s->v[i].wA.x && w.wA.y == s->v[i].wA.y && w.wA.z == s->v[i].wA.z && w.wB.x == s->v[i].wB.x &&
				 w.wB.y == s->v[i].wB.y && w.wB.z == s->v[i].wB.z )
			{
				repeated = true;
			}
		}
		if ( repeated )
		{
			break;
		}

		// |v| is an upper bound of the distance and dot(v, w) / |v| a lower bound
		if ( vv - cnDot( v, w.w ) <= distanceTol * sqrt( vv ) )
		{
			break;
		}

		cnSimplex backup = *s;
		s->v[s->count++] = w;
		overlap = cnSolveSimplex( s );
		if ( overlap )
		{
			break;
		}

		cnVec3 vNew = cnSimplexPoint( s );
		if ( cnLengthSquared( vNew ) >= vv )
		{
			// rounding stalled the descent: keep the better previous simplex
			*s = backup;
			break;
		}
		v = vNew;
	}

	if ( overlap == false && cnLengthSquared( v ) <= overlapTol * overlapTol )
	{
		overlap = true;
	}
	*iterations = iter;
	return overlap;
}

// Builds a face of the polytope; returns its index or -1 when it is degenerate or out of room.
static int cnEpaAddFace( cnPolytope* p, int i0, int i1, int i2, double areaTol )
{
	cnVec3 w0 = p->verts[i0].w;
	cnVec3 n = cnCross( cnSub( p->verts[i1].w, w0 ), cnSub( p->verts[i2].w, w0 ) );
	double len = cnLength( n );
	if ( len <= areaTol )
	{
		return -1;
	}

	int index;
	if ( p->freeCount > 0 )
	{
		index = p->freeFaces[--p->freeCount];
	}
	else if ( p->faceCount < CN_EPA_MAX_FACES )
	{
		index = p->faceCount++;
	}
	else
	{
		return -1;
	}

	cnEpaFace* f = p->faces + index;
	f->v[0] = i0;
	f->v[1] = i1;
	f->v[2] = i2;
	f->adj[0] = f->adj[1] = f->adj[2] = -1;
	f->n = cnMulSV( 1.0 / len, n );
	f->d = cnDot( f->n, w0 );
	f->live = true;
	return index;
}

// Adds vertex wi to the convex polytope: removes every face it sees, walking from startFace (which
// must see it), and closes the hole with a fan of faces to wi. Fails when rounding made the update
// inconsistent, or a new face comes nearer the origin than floorD - tol (the hull only grows, so
// in exact arithmetic no face ever does while the origin is inside).
static bool cnEpaExpand( cnPolytope* p, int wi, int startFace, double floorD, double tol, double areaTol )
{
	cnVec3 w = p->verts[wi].w;
	int horizonFace[CN_EPA_MAX_FACES], horizonEdge[CN_EPA_MAX_FACES];
	int horizonCount = 0;
	// pending visits: a face and the vertex where the edge we come through starts in that face
	int stackFace[CN_EPA_MAX_FACES], stackVertex[CN_EPA_MAX_FACES];
	int stackCount = 0;
	int removed[CN_EPA_MAX_FACES];
	int removedCount = 0;

	// depth-first walk over the visible faces: each visible face is removed once and pushes its
	// other two neighbours, so the stack holds at most 3 + (removed faces) entries
	cnEpaFace* f0 = p->faces + startFace;
	f0->live = false;
	removed[removedCount++] = startFace;
	for ( int e = 2; e >= 0; --e )
	{
		stackFace[stackCount] = f0->adj[e];
		stackVertex[stackCount] = f0->v[( e + 1 ) % 3];
		++stackCount;
	}
	while ( stackCount > 0 )
	{
		--stackCount;
		int g = stackFace[stackCount];
		int startVertex = stackVertex[stackCount];
		cnEpaFace* fg = p->faces + g;
		if ( fg->live == false )
		{
			continue;
		}
		int e = fg->v[0] == startVertex ? 0 : ( fg->v[1] == startVertex ? 1 : 2 );
		if ( cnDot( fg->n, w ) - fg->d <= 0.0 )
		{
			if ( horizonCount == CN_EPA_MAX_FACES )
			{
				return false;
			}
			horizonFace[horizonCount] = g;
			horizonEdge[horizonCount] = e;
			++horizonCount;
			continue;
		}
		if ( stackCount + 2 > CN_EPA_MAX_FACES )
		{
			return false;
		}
		fg->live = false;
		removed[removedCount++] = g;
		for ( int k = 2; k >= 1; --k )
		{
			int ek = ( e + k ) % 3;
			stackFace[stackCount] = fg->adj[ek];
			stackVertex[stackCount] = fg->v[( ek + 1 ) % 3];
			++stackCount;
		}
	}
	if ( horizonCount < 3 )
	{
		return false;
	}
	for ( int i = 0; i < removedCount; ++i )
	{
		p->freeFaces[p->freeCount++] = removed[i];
	}

	// fan of new faces from w to the horizon; each takes its horizon edge reversed
	int newFaces[CN_EPA_MAX_FACES];
	for ( int i = 0; i < horizonCount; ++i )
	{
		cnEpaFace* h = p->faces + horizonFace[i];
		int e = horizonEdge[i];
		int a = h->v[e], b = h->v[( e + 1 ) % 3];
		int nf = cnEpaAddFace( p, b, a, wi, areaTol );
		if ( nf < 0 || p->faces[nf].d < floorD - tol )
		{
			return false;
		}
		p->faces[nf].adj[0] = horizonFace[i];
		h->adj[e] = nf;
		newFaces[i] = nf;
	}
	// link the fan: edge a -> w of one new face meets edge w -> a of the new face that starts at a
	for ( int i = 0; i < horizonCount; ++i )
	{
		cnEpaFace* fi = p->faces + newFaces[i];
		int a = fi->v[1];
		int found = -1;
		for ( int j = 0; j < horizonCount; ++j )
		{
			if ( p->faces[newFaces[j]].v[0] == a )
			{
				found = newFaces[j];
				break;
			}
		}
		if ( found < 0 )
		{
			return false;
		}
		fi->adj[1] = found;
		p->faces[found].adj[2] = newFaces[i];
	}
	return true;
}

// Links the faces of a freshly built closed polytope by matching opposite edges.
static bool cnEpaLinkAll( cnPolytope* p )
{
	for ( int f = 0; f < p->faceCount; ++f )
	{
		for ( int e = 0; e < 3; ++e )
		{
			int a = p->faces[f].v[e], b = p->faces[f].v[( e + 1 ) % 3];
			for ( int g = 0; g < p->faceCount && p->faces[f].adj[e] < 0; ++g )
			{
				for ( int k = 0; k < 3; ++k )
				{
					if ( p->faces[g].v[k] == b && p->faces[g].v[( k + 1 ) % 3] == a )
					{
						p->faces[f].adj[e] = g;
					}
				}
			}
			if ( p->faces[f].adj[e] < 0 )
			{
				return false;
			}
		}
	}
	return true;
}

// Builds the starting polytope from the final GJK simplex, which holds (or touches) the origin but
// may have fewer than four vertices. It is grown by support points to a tetrahedron, and the other
// support points probed on the way are added too, so that an origin lying on an edge or face of
// the simplex ends up inside the polytope rather than on its boundary.
static bool cnEpaInit( cnPolytope* p, const cnGjkShape* sa, const cnGjkShape* sb, const cnSimplex* s, double scale )
{
	double lengthTol = 1e-9 * scale;
	double areaTol = 1e-12 * scale * scale;
	cnSimplexVertex extra[12];
	int extraCount = 0;

	p->vertexCount = 0;
	p->faceCount = 0;
	p->freeCount = 0;
	for ( int i = 0; i < s->count; ++i )
	{
		p->verts[p->vertexCount++] = s->v[i];
	}

	// a flat tetrahedron goes back to its first triangle and grows again
	if ( p->vertexCount == 4 )
	{
		cnVec3 w0 = p->verts[0].w;
		cnVec3 n = cnCross( cnSub( p->verts[1].w, w0 ), cnSub( p->verts[2].w, w0 ) );
		double h = cnDot( n, cnSub( p->verts[3].w, w0 ) );
		if ( fabs( h ) <= lengthTol * cnLength( n ) )
		{
			p->vertexCount = 3;
		}
	}

	if ( p->vertexCount == 1 )
	{
		static const cnVec3 axes[6] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
		double best = 0.0;
		int bestIndex = -1;
		cnSimplexVertex c[6];
		for ( int i = 0; i < 6; ++i )
		{
			c[i] = cnMakeVertex( sa, sb, axes[i] );
			double dist = cnDistance( c[i].w, p->verts[0].w );
			if ( dist > best )
			{
				best = dist;
				bestIndex = i;
			}
		}
		if ( best <= lengthTol )
		{
			return false;
		}
		p->verts[p->vertexCount++] = c[bestIndex];
		for ( int i = 0; i < 6; ++i )
		{
			if ( i != bestIndex )
			{
				extra[extraCount++] = c[i];
			}
		}
	}

	if ( p->vertexCount == 2 )
	{
		cnVec3 e = cnNormalize( cnSub( p->verts[1].w, p->verts[0].w ) );
		cnVec3 u = cnPerp( e );
		cnVec3 v = cnCross( e, u );
		cnVec3 dirs[4] = { u, cnNeg( u ), v, cnNeg( v ) };
		double best = 0.0;
		int bestIndex = -1;
		cnSimplexVertex c[4];
		for ( int i = 0; i < 4; ++i )
		{
			c[i] = cnMakeVertex( sa, sb, dirs[i] );
			double dist = cnLength( cnCross( e, cnSub( c[i].w, p->verts[0].w ) ) );
			if ( dist > best )
			{
				best = dist;
				bestIndex = i;
			}
		}
		if ( best <= lengthTol )
		{
			return false;
		}
		p->verts[p->vertexCount++] = c[bestIndex];
		for ( int i = 0; i < 4; ++i )
		{
			if ( i != bestIndex )
			{
				extra[extraCount++] = c[i];
			}
		}
	}

	if ( p->vertexCount == 3 )
	{
		cnVec3 w0 = p->verts[0].w;
		cnVec3 n = cnNormalize( cnCross( cnSub( p->verts[1].w, w0 ), cnSub( p->verts[2].w, w0 ) ) );
		if ( cnLengthSquared( n ) == 0.0 )
		{
			return false;
		}
		cnSimplexVertex up = cnMakeVertex( sa, sb, n );
		cnSimplexVertex down = cnMakeVertex( sa, sb, cnNeg( n ) );
		double hUp = cnDot( n, cnSub( up.w, w0 ) );
		double hDown = -cnDot( n, cnSub( down.w, w0 ) );
		if ( hUp <= lengthTol && hDown <= lengthTol )
		{
			return false;
		}
		// the higher apex makes the tetrahedron; the other one then wraps the triangle from below
		p->verts[p->vertexCount++] = hUp >= hDown ? up : down;
		extra[extraCount++] = hUp >= hDown ? down : up;
	}

	// tetrahedron: orient so that face 012 looks away from vertex 3
	cnVec3 w0 = p->verts[0].w;
	double det = cnDot( cnCross( cnSub( p->verts[1].w, w0 ), cnSub( p->verts[2].w, w0 ) ), cnSub( p->verts[3].w, w0 ) );
	if ( det > 0.0 )
	{
		cnSimplexVertex t = p->verts[1];
		p->verts[1] = p->verts[2];
		p->verts[2] = t;
	}
	static const int tris[4][3] = { { 0, 1, 2 }, { 0, 3, 1 }, { 1, 3, 2 }, { 2, 3, 0 } };
	for ( int i = 0; i < 4; ++i )
	{
		if ( cnEpaAddFace( p, tris[i][0], tris[i][1], tris[i][2], areaTol ) < 0 )
		{
			return false;
		}
	}
	if ( cnEpaLinkAll( p ) == false )
	{
		return false;
	}

	// grow the hull by the other probed points that lie outside it
	for ( int k = 0; k < extraCount; ++k )
	{
		int f = -1;
		double bestHeight = lengthTol;
		for ( int i = 0; i < p->faceCount; ++i )
		{
			double h = cnDot( p->faces[i].n, extra[k].w ) - p->faces[i].d;
			if ( p->faces[i].live && h > bestHeight )
			{
				bestHeight = h;
				f = i;
			}
		}
		if ( f < 0 )
		{
			continue;
		}
		int wi = p->vertexCount++;
		p->verts[wi] = extra[k];
		if ( cnEpaExpand( p, wi, f, -INFINITY, 0.0, areaTol ) == false )
		{
			return false;
		}
	}
	return true;
}

// EPA from the final GJK simplex. Fills the depth result and returns false when the polytope
// could not be started (the difference is flat: degenerate shapes).
static bool cnEpa( const cnGjkShape* sa, const cnGjkShape* sb, const cnSimplex* s, double scale, cnDistanceOutput* out )
{
	cnPolytope poly;
	cnPolytope* p = &poly;
	if ( cnEpaInit( p, sa, sb, s, scale ) == false )
	{
		return false;
	}

	double tol = CN_EPA_TOLERANCE * scale;
	double areaTol = 1e-12 * scale * scale;
	// GJK hands over when the origin is within 1e-10 of the difference, so it may lie that far
	// outside the polytope, where faces through it can come nearer than the best one: allow ten
	// times that before calling a new face a rounding failure
	double floorTol = 10.0 * CN_GJK_OVERLAP_TOLERANCE * scale;
	// true when the loop ended on the tolerance or the vertex budget, with upper measured for best
	bool finished = false;
	// a copy of the best face: a failed update may recycle its slot
	cnEpaFace best = { 0 };
	bool haveBest = false;
	// support distance along the best face normal: the overlap of the shapes along that normal
	double upper = 0.0;
	int added = 0;

	for ( ;; )
	{
		// the face nearest the origin (lowest index on ties, for determinism)
		int f = -1;
		for ( int i = 0; i < p->faceCount; ++i )
		{
			if ( p->faces[i].live && ( f < 0 || p->faces[i].d < p->faces[f].d ) )
			{
				f = i;
			}
		}
		if ( f < 0 )
		{
			break;
		}
		best = p->faces[f];
		haveBest = true;

		cnSimplexVertex w = cnMakeVertex( sa, sb, best.n );
		// the true depth lies between best.d (the polytope is inside B - A) and dot(n, w)
		upper = cnDot( best.n, w.w );
		if ( upper - best.d <= tol || p->vertexCount == CN_EPA_MAX_VERTICES )
		{
			finished = true;
			break;
		}

		int wi = p->vertexCount++;
		p->verts[wi] = w;
		++added;
		if ( cnEpaExpand( p, wi, f, best.d, floorTol, areaTol ) == false )
		{
			break;
		}
	}

	if ( haveBest == false )
	{
		return false;
	}

	// barycentric coordinates of the origin's projection d n on the best face give the witnesses
	const cnSimplexVertex* v0 = p->verts + best.v[0];
	const cnSimplexVertex* v1 = p->verts + best.v[1];
	const cnSimplexVertex* v2 = p->verts + best.v[2];
	cnVec3 e0 = cnSub( v1->w, v0->w ), e1 = cnSub( v2->w, v0->w );
	cnVec3 q = cnSub( cnMulSV( best.d, best.n ), v0->w );
	double d00 = cnDot( e0, e0 ), d01 = cnDot( e0, e1 ), d11 = cnDot( e1, e1 );
	double d20 = cnDot( q, e0 ), d21 = cnDot( q, e1 );
	double den = d00 * d11 - d01 * d01;
	double b1 = 0.0, b2 = 0.0;
	if ( den > 0.0 )
	{
		b1 = ( d11 * d20 - d01 * d21 ) / den;
		b2 = ( d00 * d21 - d01 * d20 ) / den;
	}
	double b0 = 1.0 - b1 - b2;
	cnVec3 pa = cnAdd( cnAdd( cnMulSV( b0, v0->wA ), cnMulSV( b1, v1->wA ) ), cnMulSV( b2, v2->wA ) );
	cnVec3 pb = cnAdd( cnAdd( cnMulSV( b0, v0->wB ), cnMulSV( b1, v1->wB ) ), cnMulSV( b2, v2->wB ) );
	// Report the overlap along the chosen normal (the upper bound): it equals the depth once EPA
	// has converged, and when the vertex budget ran out first it is still exactly how far B must
	// move along the normal, so the normal and the depth stay consistent. The witness points
	// are spread apart by the difference about their midpoint. When rounding stopped the update
	// early the upper bound may be far off, and the face distance (a lower bound) is kept.
	if ( finished == false )
	{
		upper = best.d;
	}
	double extra = 0.5 * ( upper - best.d );
	out->pointA = cnMulSub( pa, extra, best.n );
	out->pointB = cnMulAdd( pb, extra, best.n );
	// the face normal points out of B - A; B leaves A along its opposite
	out->normal = cnNeg( best.n );
	out->distance = -upper;
	out->epaIterations = added;
	out->overlap = true;
	return true;
}
static void cnSimplexWitness( const cnSimplex* s, cnVec3* pa, cnVec3* pb )
{
	*pa = cnVec3_zero;
	*pb = cnVec3_zero;
	for ( int i = 0; i < s->count; ++i )
	{
		*pa = cnMulAdd( *pa, s->v[i].a, s->v[i].wA );
		*pb = cnMulAdd( *pb, s->v[i].a, s->v[i].wB );
	}
}

// Overlap of two rounded shapes (spheres, capsules) whose cores meet, with s the final core simplex.
static void cnCoreOverlap( const cnGeometry* a, const cnGeometry* b, cnTransform xfBA, const cnSimplex* s,
						   cnDistanceOutput* out )
{
	cnVec3 axisA = a->type == cnShape_capsule ? cnV3( 0.0, 0.0, 1.0 ) : cnVec3_zero;
	cnVec3 axisB = b->type == cnShape_capsule ? cnRotate( xfBA.q, cnV3( 0.0, 0.0, 1.0 ) ) : cnVec3_zero;
	cnVec3 c = xfBA.p;
	cnVec3 n = cnCross( axisA, axisB );
	if ( cnLengthSquared( n ) < 1e-12 )
	{
		// a point or parallel segments: any direction across the segment will do; prefer the
		// one between the centres
		cnVec3 e = cnLengthSquared( axisA ) > 0.0 ? axisA : axisB;
		n = cnMulSub( c, cnDot( c, e ), e );
		if ( cnLengthSquared( n ) <= 1e-24 * ( cnLengthSquared( c ) + 1.0 ) )
		{
			n = cnLengthSquared( e ) > 0.0 ? cnPerp( e ) : cnV3( 0.0, 0.0, 1.0 );
		}
	}
	n = cnNormalize( n );
	if ( cnDot( n, c ) < 0.0 )
	{
		n = cnNeg( n );
	}

	cnSimplex w = *s;
	if ( w.count == 4 )
	{
		// cannot happen for flat core differences; keep one vertex to stay defined
		w.count = 1;
		w.v[0].a = 1.0;
	}
	cnVec3 pa, pb;
	cnSimplexWitness( &w, &pa, &pb );
	out->pointA = cnMulAdd( pa, a->radius, n );
	out->pointB = cnMulSub( pb, b->radius, n );
	out->normal = n;
	out->distance = -( a->radius + b->radius );
	out->overlap = true;
}

cnDistanceOutput cnShapeDistanceLocal( const cnGeometry* a, const cnGeometry* b, cnTransform xfBA )
{
	cnDistanceOutput out = { 0 };
	double rA = cnCoreRadius( a ), rB = cnCoreRadius( b );
	double scale = cnShapeBoundingRadius( a ) + cnShapeBoundingRadius( b );
	if ( scale <= 0.0 )
	{
		scale = 1.0;
	}

	cnGjkShape sa = { a, cnTransform_identity, true };
	cnGjkShape sb = { b, xfBA, true };
	cnSimplex s;
	bool overlap = cnGjk( &sa, &sb, scale, &s, &out.gjkIterations );

	if ( overlap == false )
	{
		cnVec3 pa, pb;
		cnSimplexWitness( &s, &pa, &pb );
		cnVec3 v = cnSub( pb, pa );
		double dist = cnLength( v );
		cnVec3 n = dist > 0.0 ? cnMulSV( 1.0 / dist, v ) : cnV3( 0.0, 0.0, 1.0 );
		// the cores are apart, so the rounded shapes touch at the core points pushed out by the radii
		out.pointA = cnMulAdd( pa, rA, n );
		out.pointB = cnMulSub( pb, rB, n );
		out.normal = n;
		out.distance = dist - rA - rB;
		return out;
	}

	if ( rA > 0.0 && rB > 0.0 )
	{
		// two rounded shapes whose cores meet: the difference of the cores is flat (a point, a
		// segment or a parallelogram) and holds the origin, so the shapes overlap by exactly rA + rB
		// across it. EPA would have to wrap the whole round difference to find that.
		cnCoreOverlap( a, b, xfBA, &s, &out );
		return out;
	}

	if ( rA > 0.0 || rB > 0.0 )
	{
		// the cores overlap: the full shapes overlap by at least rA + rB, find how much with EPA
		sa.core = false;
		sb.core = false;
		int iterations;
		overlap = cnGjk( &sa, &sb, scale, &s, &iterations );
		out.gjkIterations += iterations;
		if ( overlap == false )
		{
			// only reachable by rounding with a zero radius: report touching
			cnSimplexWitness( &s, &out.pointA, &out.pointB );
			cnVec3 v = cnSub( out.pointB, out.pointA );
			double dist = cnLength( v );
			out.normal = dist > 0.0 ? cnMulSV( 1.0 / dist, v ) : cnV3( 0.0, 0.0, 1.0 );
			out.distance = dist;
			return out;
		}
	}

	if ( cnEpa( &sa, &sb, &s, scale, &out ) == false )
	{
		// B - A is flat (degenerate shapes): report touching along the line of centres
		cnSimplex w = s;
		if ( w.count == 4 )
		{
			w.count = 1;
			w.v[0].a = 1.0;
		}
		cnSimplexWitness( &w, &out.pointA, &out.pointB );
		cnVec3 c = xfBA.p;
		out.normal = cnLengthSquared( c ) > 0.0 ? cnNormalize( c ) : cnV3( 0.0, 0.0, 1.0 );
		out.distance = 0.0;
		out.overlap = true;
	}
	return out;
}

cnDistanceOutput cnShapeDistance( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB )
{
	cnDistanceOutput out = cnShapeDistanceLocal( a, b, cnInvMulTransforms( xfA, xfB ) );
	out.pointA = cnTransformPoint( xfA, out.pointA );
	out.pointB = cnTransformPoint( xfA, out.pointB );
	out.normal = cnRotate( xfA.q, out.normal );
	return out;
}
