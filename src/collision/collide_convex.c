// SPDX-License-Identifier: MIT
// General convex narrow phase, used for cylinders and hulls: GJK/EPA gives the normal and the deepest point,
// then the supporting features of both shapes along that normal (a face, a segment or a point) are
// clipped against each other to get a manifold of up to four points, as Jolt's
// ManifoldBetweenTwoFaces does (the clipping and the reduction to four points are in
// collide_clip.c, shared with the box-box routine). A resting cylinder needs those several points:
// one point per step would let it rock on its rim.
//
// Everything is computed in the frame of shape A and moved to the world at the end.
//
// The features (cnMakeFeature, feature.h) also serve the convex-triangle narrow phase in
// collide_mesh.c, so a shape offers the same face, segment or point to a mesh as to a convex.
#include "collision/feature.h"
#include "collision/gjk.h"
#include "collision/hull.h"

#include <stdint.h>

// The cylinder cap is approximated by a regular 16-gon inscribed in the rim, fixed in the
// cylinder frame so each vertex keeps its feature id from step to step.
#define CN_CAP_VERTICES 16

// A cylinder offers its cap when its axis is within about 11.5 degrees of the normal
// (cos = 0.98). Up to that tilt the inscribed polygon misses the lowest rim point by at most
// r (1 - cos(pi / 16)) sin(11.5 deg) = 0.004 r; beyond it the single GJK point is exact.
#define CN_CAP_COS 0.98
// Cylinders offer a side line, capsules their segment, when the axis is within 45 degrees of
// perpendicular to the normal. A line of these surfaces is exact at any tilt; the far end of a
// steep one just gets filtered out by the distance test.
#define CN_SIDE_COS 0.70710678118654752
// Two segments give two points only when nearly parallel seen along the normal (sine of the
// angle 0.02, about 1 degree); crossing segments touch at one point.
#define CN_PARALLEL_SIN 0.02
// A hull offers its face when the face normal is within about 18 degrees of the direction
// (cos = 0.95): a face that rests on another surface, or tilts onto it, is clipped whole (its far
// part drops out by distance). Beyond that the contact is an edge or a vertex, and a face chosen
// as the clipping reference that far from the normal would misplace the points.
#define CN_HULL_FACE_COS 0.95
// Otherwise a hull offers the edge at its supporting vertex most perpendicular to the direction
// when that edge is within 60 degrees of perpendicular (|cos| <= 0.5), as a capsule offers its
// segment: a hull tipped onto an edge stands on both ends of it.
#define CN_HULL_EDGE_COS 0.5

// Id of the GJK/EPA point when it enters the manifold.
#define CN_WITNESS_ID ( 1u << 24 )
// Separations within this fraction of the smaller shape's bounding radius count as equal depths
// (1e-3: 0.07 mm on a 7 cm can, far below the contact slop).
#define CN_DEPTH_TOLERANCE 1e-3

// cos and sin of k * 22.5 degrees
static const double cnCapCos[CN_CAP_VERTICES] = { 1.0,
												  0.92387953251128674,
												  0.70710678118654752,
												  0.38268343236508977,
												  0.0,
												  -0.38268343236508977,
												  -0.70710678118654752,
												  -0.92387953251128674,
												  -1.0,
												  -0.92387953251128674,
												  -0.70710678118654752,
												  -0.38268343236508977,
												  0.0,
												  0.38268343236508977,
												  0.70710678118654752,
												  0.92387953251128674 };
static const double cnCapSin[CN_CAP_VERTICES] = { 0.0,
												  0.38268343236508977,
												  0.70710678118654752,
												  0.92387953251128674,
												  1.0,
												  0.92387953251128674,
												  0.70710678118654752,
												  0.38268343236508977,
												  0.0,
												  -0.38268343236508977,
												  -0.70710678118654752,
												  -0.92387953251128674,
												  -1.0,
												  -0.92387953251128674,
												  -0.70710678118654752,
												  -0.38268343236508977 };

// Hull feature: the face most aligned with dl (hull frame) when it is within CN_HULL_FACE_COS,
// else the edge at the supporting vertex most perpendicular to dl, else the vertex alone (count 1).
// Face vertices are numbered by their place in the face loop; a face of more than
// CN_FEATURE_MAX_VERTICES vertices offers every few of them, a polygon inscribed in it (like the
// cylinder cap), and the GJK/EPA point makes up for the part left out.
static void cnMakeHullFeature( const cnHull* h, cnVec3 dl, cnFeature* f, cnVec3* local, cnVec3* localNormal )
{
	int face = cnHullFace( h, dl );
	if ( cnDot( h->faceNormals[face], dl ) >= CN_HULL_FACE_COS )
	{
		int first = h->faceFirst[face], n = h->faceFirst[face + 1] - first;
		int count = n <= CN_FEATURE_MAX_VERTICES ? n : CN_FEATURE_MAX_VERTICES;
		for ( int k = 0; k < count; ++k )
		{
			local[k] = h->vertices[h->faceVertices[first + k * n / count]];
			f->ids[k] = (uint8_t)k;
		}
		*localNormal = h->faceNormals[face];
		f->count = count;
		f->faceId = (uint32_t)face;
		return;
	}

	// supporting vertex (lowest index on ties), then its edges: the loop neighbours of it in
	// every face it belongs to
	int s = 0;
	double best = -INFINITY;
	for ( int i = 0; i < h->vertexCount; ++i )
	{
		double d = cnDot( h->vertices[i], dl );
		if ( d > best )
		{
			s = i;
			best = d;
		}
	}
	int other = -1;
	double bestCos = CN_HULL_EDGE_COS;
	for ( int face2 = 0; face2 < h->faceCount; ++face2 )
	{
		int first = h->faceFirst[face2], n = h->faceFirst[face2 + 1] - first;
		for ( int k = 0; k < n; ++k )
		{
			if ( h->faceVertices[first + k] != s )
			{
				continue;
			}
			// the next vertex of the loop; the previous one is the next of the neighbouring face
			int t = h->faceVertices[first + ( k + 1 ) % n];
			cnVec3 e = cnNormalize( cnSub( h->vertices[t], h->vertices[s] ) );
			double c = fabs( cnDot( e, dl ) );
			if ( c < bestCos || ( c == bestCos && other >= 0 && t < other ) )
			{
				other = t;
				bestCos = c;
			}
		}
	}
	if ( other < 0 )
	{
		return;
	}
	// the lower vertex index first, so the same edge is the same feature whichever end supports
	int v0 = s < other ? s : other, v1 = s < other ? other : s;
	local[0] = h->vertices[v0];
	local[1] = h->vertices[v1];
	f->ids[0] = CN_FEATURE_MAX_VERTICES;
	f->ids[1] = CN_FEATURE_MAX_VERTICES + 1;
	f->count = 2;
	f->faceId = 0x10000u | ( (uint32_t)v0 << 8 ) | (uint32_t)v1;
}

// Feature of shape g (placed at xf in the caller's frame: A's here, the triangle source's in
// collide_mesh.c) farthest along the unit direction d.
void cnMakeFeature( const cnGeometry* g, cnTransform xf, cnVec3 d, cnFeature* f )
{
	cnVec3 dl = cnInvRotate( xf.q, d );
	cnVec3 local[CN_FEATURE_MAX_VERTICES];
	cnVec3 localNormal = cnVec3_zero;
	f->count = 1;
	f->faceId = 0;

	switch ( g->type )
	{
		case cnShape_capsule:
			if ( fabs( dl.z ) <= CN_SIDE_COS )
			{
				// each sphere along the core supports at its centre plus r d
				cnVec3 offset = cnMulSV( g->radius, dl );
				local[0] = cnAdd( cnV3( 0.0, 0.0, -g->halfHeight ), offset );
				local[1] = cnAdd( cnV3( 0.0, 0.0, g->halfHeight ), offset );
				f->ids[0] = 0;
				f->ids[1] = 1;
				f->count = 2;
				f->faceId = 1;
			}
			break;

		case cnShape_cylinder:
			if ( fabs( dl.z ) >= CN_CAP_COS )
			{
				bool top = dl.z > 0.0;
				double z = top ? g->halfHeight : -g->halfHeight;
				for ( int k = 0; k < CN_CAP_VERTICES; ++k )
				{
					// the bottom cap runs the other way so that both are counter-clockwise from outside
					int j = top ? k : ( CN_CAP_VERTICES - k ) % CN_CAP_VERTICES;
					local[k] = cnV3( g->radius * cnCapCos[j], g->radius * cnCapSin[j], z );
					f->ids[k] = (uint8_t)( top ? j : CN_CAP_VERTICES + j );
				}
				localNormal = cnV3( 0.0, 0.0, top ? 1.0 : -1.0 );
				f->count = CN_CAP_VERTICES;
				f->faceId = top ? 1 : 0;
			}
			else if ( fabs( dl.z ) <= CN_SIDE_COS )
			{
				// the line of the side surface facing d: every cross-section supports there
				cnVec3 u = cnNormalize( cnV3( dl.x, dl.y, 0.0 ) );
				local[0] = cnV3( g->radius * u.x, g->radius * u.y, -g->halfHeight );
				local[1] = cnV3( g->radius * u.x, g->radius * u.y, g->halfHeight );
				f->ids[0] = 2 * CN_CAP_VERTICES;
				f->ids[1] = 2 * CN_CAP_VERTICES + 1;
				f->count = 2;
				f->faceId = 2;
			}
			break;

		case cnShape_box:
		{
			// the face most aligned with d (lowest axis on ties); box faces are exact, and the
			// distance filter drops the far part of a tilted one
			double ax = fabs( dl.x ), ay = fabs( dl.y ), az = fabs( dl.z );
			int i = ( ax >= ay && ax >= az ) ? 0 : ( ay >= az ? 1 : 2 );
			int j = ( i + 1 ) % 3, k = ( i + 2 ) % 3;
			double s = cnGet( dl, i ) >= 0.0 ? 1.0 : -1.0;
			double h[3] = { g->halfExtents.x, g->halfExtents.y, g->halfExtents.z };
			// counter-clockwise about +e_i in the (e_j, e_k) plane; reversed for the -e_i face
			static const double sj[4] = { 1.0, -1.0, -1.0, 1.0 };
			static const double sk[4] = { 1.0, 1.0, -1.0, -1.0 };
			for ( int v = 0; v < 4; ++v )
			{
				int q = s > 0.0 ? v : 3 - v;
				double c[3];
				c[i] = s * h[i];
				c[j] = sj[q] * h[j];
				c[k] = sk[q] * h[k];
				local[v] = cnV3( c[0], c[1], c[2] );
				f->ids[v] = (uint8_t)( ( c[0] > 0.0 ? 1 : 0 ) | ( c[1] > 0.0 ? 2 : 0 ) | ( c[2] > 0.0 ? 4 : 0 ) );
			}
			double nl[3] = { 0.0, 0.0, 0.0 };
			nl[i] = s;
			localNormal = cnV3( nl[0], nl[1], nl[2] );
			f->count = 4;
			f->faceId = (uint32_t)( 2 * i + ( s > 0.0 ? 1 : 0 ) );
			break;
		}

		case cnShape_hull:
			cnMakeHullFeature( g->hull, dl, f, local, &localNormal );
			break;

		default:
			// spheres (and anything else) touch at a single point
			break;
	}

	if ( f->count >= 2 )
	{
		for ( int v = 0; v < f->count; ++v )
		{
			f->points[v] = cnTransformPoint( xf, local[v] );
		}
	}
	// zero for a segment or a point: a caller may test a polygon's alignment before its count
	f->normal = cnRotate( xf.q, localNormal );
}

// Side planes of a reference polygon: each contains an edge and the normal n, facing outwards,
// so clipping by them keeps what overlaps the polygon seen along n.
static int cnPolygonSidePlanes( const cnFeature* ref, cnVec3 n, cnClipPlane* planes )
{
	// looking along the polygon's own normal, the edge cross normal points outwards
	cnVec3 up = cnDot( ref->normal, n ) >= 0.0 ? n : cnNeg( n );
	int count = 0;
	for ( int i = 0; i < ref->count; ++i )
	{
		cnVec3 a = ref->points[i];
		cnVec3 b = ref->points[( i + 1 ) % ref->count];
		cnVec3 s = cnNormalize( cnCross( cnSub( b, a ), up ) );
		if ( cnLengthSquared( s ) == 0.0 )
		{
			continue;
		}
		planes[count].normal = s;
		planes[count].offset = cnDot( s, a );
		planes[count].label = 128u + ref->ids[i];
		planes[count].axis = -1;
		++count;
	}
	return count;
}

// Separation along n of each clipped incident point from the reference surface, keeping the
// points within maxDistance. The reference surface is the plane through refOrigin with normal m.
static int cnMakeCandidates( const cnClipVertex* v, int count, cnVec3 refOrigin, cnVec3 m, cnVec3 n, bool refIsA,
							 uint32_t idBase, double maxDistance, cnClipPoint* out )
{
	double mn = cnDot( m, n );
	if ( fabs( mn ) < 1e-6 )
	{
		return 0;
	}
	int outCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		// q + s n lies on the reference plane
		cnVec3 q = v[i].p;
		double s = cnDot( cnSub( refOrigin, q ), m ) / mn;
		// incident on B: pA = q + s n, separation = dot(pB - pA, n) = -s; incident on A: +s
		double separation = refIsA ? -s : s;
		if ( separation > maxDistance )
		{
			continue;
		}
		cnClipPoint* c = out + outCount++;
		c->point = cnMulAdd( q, 0.5 * s, n );
		c->separation = separation;
		c->id = idBase | v[i].key;
	}
	return outCount;
}

// Folds a face id of any size into 6 bits: itself below 64, mixed above (hull faces and edges;
// two features that fold alike only share warm starts when both appear in turn).
static uint32_t cnFoldFaceId( uint32_t face )
{
	uint32_t x = face < 64u ? face : face * 2654435761u >> 26;
	return x & 63u;
}

// The feature bits of a clipped point's id: the incident and reference face ids (low three bits at
// 17 and 20, the next three at 25 and 28) and which shape is the reference (bit 23). Bit 24 stays
// the GJK/EPA point's alone. The primitives' face ids are below 8, so their ids keep the layout
// they always had.
static uint32_t cnFeatureIdBase( uint32_t incFace, uint32_t refFace, bool refIsA )
{
	uint32_t inc = cnFoldFaceId( incFace ), ref = cnFoldFaceId( refFace );
	return ( ( inc & 7u ) << 17 ) | ( ( ref & 7u ) << 20 ) | ( refIsA ? 0u : 1u << 23 ) | ( ( inc >> 3 ) << 25 ) |
		   ( ( ref >> 3 ) << 28 );
}

// Manifold candidates from the two features; 0 when the features give none.
static int cnClipFeatures( const cnFeature* fa, const cnFeature* fb, cnVec3 n, double maxDistance, cnClipPoint* out )
{
	if ( fa->count < 2 || fb->count < 2 )
	{
		return 0;
	}

	cnClipPlane planes[CN_FEATURE_MAX_VERTICES];
	int planeCount;
	const cnFeature* ref;
	const cnFeature* inc;
	bool refIsA;
	cnVec3 refNormal;

	if ( fa->count >= 3 || fb->count >= 3 )
	{
		// the reference is the polygon best aligned with n (A on ties), the other is clipped to it
		double alignA = fa->count >= 3 ? fabs( cnDot( fa->normal, n ) ) : -1.0;
		double alignB = fb->count >= 3 ? fabs( cnDot( fb->normal, n ) ) : -1.0;
		refIsA = alignA >= alignB;
		ref = refIsA ? fa : fb;
		inc = refIsA ? fb : fa;
		refNormal = ref->normal;
		planeCount = cnPolygonSidePlanes( ref, n, planes );
	}
	else
	{
		// two segments: only nearly parallel ones (seen along n) touch along a line
		cnVec3 ea = cnSub( fa->points[1], fa->points[0] );
		cnVec3 eb = cnSub( fb->points[1], fb->points[0] );
		cnVec3 pa = cnNormalize( cnMulSub( ea, cnDot( ea, n ), n ) );
		cnVec3 pb = cnNormalize( cnMulSub( eb, cnDot( eb, n ), n ) );
		if ( cnLengthSquared( pa ) == 0.0 || cnLengthSquared( pb ) == 0.0 ||
			 cnLength( cnCross( pa, pb ) ) > CN_PARALLEL_SIN )
		{
			return 0;
		}
		refIsA = true;
		ref = fa;
		inc = fb;
		// end planes of A's segment, and the plane holding it that faces n
		planes[0] = ( cnClipPlane ){ cnNeg( pa ), -cnDot( pa, fa->points[0] ), 128u + fa->ids[0], -1 };
		planes[1] = ( cnClipPlane ){ pa, cnDot( pa, fa->points[1] ), 128u + fa->ids[1], -1 };
		planeCount = 2;
		cnVec3 ua = cnNormalize( ea );
		refNormal = cnNormalize( cnMulSub( n, cnDot( n, ua ), ua ) );
	}

	// the incident feature: a polygon's vertex v keeps the key 0x10000 | v and its edge from v
	// is line 1 + v; both ends of a segment lie on the line of its first vertex
	cnClipVertex clipped[CN_CLIP_MAX_VERTICES], scratch[CN_CLIP_MAX_VERTICES];
	for ( int i = 0; i < inc->count; ++i )
	{
		clipped[i].p = inc->points[i];
		clipped[i].key = 0x10000u | inc->ids[i];
		clipped[i].edge = 1u + inc->ids[inc->count == 2 ? 0 : i];
	}
	int clipCount = cnClipPolygon( clipped, inc->count, planes, planeCount, 0.0, scratch );

	uint32_t idBase = cnFeatureIdBase( inc->faceId, ref->faceId, refIsA );
	return cnMakeCandidates( clipped, clipCount, ref->points[0], refNormal, n, refIsA, idBase, maxDistance, out );
}

void cnCollideConvex( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					  cnManifold* m )
{
	m->pointCount = 0;

	// B in the frame of A
	cnTransform xf = cnInvMulTransforms( xfA, xfB );
	double boundA = cnShapeBoundingRadius( a ), boundB = cnShapeBoundingRadius( b );
	if ( cnLength( xf.p ) - boundA - boundB > maxDistance )
	{
		return;
	}

	cnDistanceOutput out = cnShapeDistanceLocal( a, b, xf );
	if ( out.distance > maxDistance )
	{
		return;
	}
	cnVec3 n = out.normal;

	cnFeature fa, fb;
	cnMakeFeature( a, cnTransform_identity, n, &fa );
	cnMakeFeature( b, xf, cnNeg( n ), &fb );

	cnClipPoint candidates[CN_CLIP_MAX_VERTICES + 1];
	int count = cnClipFeatures( &fa, &fb, n, maxDistance, candidates );

	m->normal = cnRotate( xfA.q, n );
	if ( count == 0 )
	{
		// a point feature, crossing segments, or clipping found nothing: the GJK/EPA point
		cnManifoldPoint* mp = m->points + 0;
		mp->point = cnTransformPoint( xfA, cnLerp( out.pointA, out.pointB, 0.5 ) );
		mp->separation = out.distance;
		mp->id = CN_WITNESS_ID;
		m->pointCount = 1;
		return;
	}

	// The clipped features can miss the deepest point: a cap is a polygon inside the rim, and
	// the end of a steep segment may be clipped away. Then the GJK/EPA point joins the candidates,
	// where the reduction takes it first, so the manifold is never shallower than the true depth.
	double scale = boundA < boundB ? boundA : boundB;
	double minSeparation = candidates[0].separation;
	for ( int i = 1; i < count; ++i )
	{
		minSeparation = candidates[i].separation < minSeparation ? candidates[i].separation : minSeparation;
	}
	if ( minSeparation > out.distance + CN_DEPTH_TOLERANCE * scale )
	{
		cnClipPoint* c = candidates + count++;
		c->point = cnLerp( out.pointA, out.pointB, 0.5 );
		c->separation = out.distance;
		c->id = CN_WITNESS_ID;
	}

	// the reduction runs even on four or fewer: it puts the deepest first and drops a point that
	// coincides with another (the witness beside a clipped point, a segment clipped to its end)
	int keep[CN_MAX_MANIFOLD_POINTS];
	int kept = cnReduceManifoldPoints( candidates, count, n, CN_DEPTH_TOLERANCE * scale, 1e-6 * scale, keep );
	for ( int i = 0; i < kept; ++i )
	{
		const cnClipPoint* c = candidates + keep[i];
		cnManifoldPoint* mp = m->points + i;
		mp->point = cnTransformPoint( xfA, c->point );
		mp->separation = c->separation;
		mp->id = c->id;
	}
	m->pointCount = kept;
}
