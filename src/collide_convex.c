// SPDX-License-Identifier: MIT
// General convex narrow phase, used for cylinders: GJK/EPA gives the normal and the deepest point,
// then the supporting features of both shapes along that normal (a face, a segment or a point) are
// clipped against each other to get a manifold of up to four points, as Jolt's
// ManifoldBetweenTwoFaces does. A resting cylinder needs those several points: one point per step
// would let it rock on its rim.
//
// Everything is computed in the frame of shape A and moved to the world at the end.
#include "gjk.h"

#include <stdint.h>

// The cylinder cap is approximated by a regular 16-gon inscribed in the rim, fixed in the
// cylinder frame so each vertex keeps its feature id from step to step.
#define CN_CAP_VERTICES 16
#define CN_FEATURE_MAX_VERTICES 16
// Clipping a convex n-gon by m planes leaves at most n + m vertices.
#define CN_CLIP_MAX_VERTICES ( 2 * CN_FEATURE_MAX_VERTICES + 4 )

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

// The supporting feature of a shape along a direction, in the frame of shape A: a point
// (count 1), a segment (count 2) or a convex polygon counter-clockwise seen from outside.
typedef struct cnFeature
{
	cnVec3 points[CN_FEATURE_MAX_VERTICES];
	// vertex ids, unique within the shape type (below 64)
	uint8_t ids[CN_FEATURE_MAX_VERTICES];
	int count;
	// polygons: outward unit normal
	cnVec3 normal;
	// face id, unique within the shape type (below 8)
	uint32_t faceId;
} cnFeature;

// A point of a clipped feature with a key naming the two lines it lies on (see cnClipPolygon).
typedef struct cnClipVertex
{
	cnVec3 p;
	uint32_t key;
	// label of the edge that leaves this vertex (polygons being clipped)
	uint32_t edge;
} cnClipVertex;

typedef struct cnCandidate
{
	cnVec3 point;
	double separation;
	uint32_t id;
} cnCandidate;

// Feature of shape g (placed at xf in A's frame) farthest along the unit direction d.
static void cnMakeFeature( const cnGeometry* g, cnTransform xf, cnVec3 d, cnFeature* f )
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
		f->normal = cnRotate( xf.q, localNormal );
	}
}

// Key of a point lying on the lines labelled l1 and l2: the unordered pair, so that the same
// crossing gets the same key whichever way it was found.
static uint32_t cnCrossingKey( uint32_t l1, uint32_t l2 )
{
	return l1 < l2 ? ( l1 << 8 ) | l2 : ( l2 << 8 ) | l1;
}

// Clips the incident polygon by the planes {x : dot(planeNormal[i], x) <= planeOffset[i]}.
// Line labels: incident edge starting at vertex v is 1 + v; plane i carries planeLabel[i] (>= 128).
// An original vertex v keeps the key 0x10000 | v; a new vertex gets the key of the incident edge
// or earlier plane it lies on and the cutting plane.
static int cnClipPolygon( const cnFeature* inc, const cnVec3* planeNormal, const double* planeOffset,
						  const uint32_t* planeLabel, int planeCount, cnClipVertex* out )
{
	cnClipVertex bufA[CN_CLIP_MAX_VERTICES], bufB[CN_CLIP_MAX_VERTICES];
	cnClipVertex* src = bufA;
	cnClipVertex* dst = bufB;
	int count = inc->count;
	for ( int i = 0; i < count; ++i )
	{
		src[i].p = inc->points[i];
		src[i].key = 0x10000u | inc->ids[i];
		src[i].edge = 1u + inc->ids[i];
	}

	for ( int k = 0; k < planeCount && count > 0; ++k )
	{
		cnVec3 sn = planeNormal[k];
		double so = planeOffset[k];
		int outCount = 0;
		cnClipVertex prev = src[count - 1];
		double dp = cnDot( sn, prev.p ) - so;
		for ( int i = 0; i < count; ++i )
		{
			cnClipVertex cur = src[i];
			double dc = cnDot( sn, cur.p ) - so;
			// a crossing strictly between the two vertices (an end on the plane is kept as is)
			if ( ( dp < 0.0 && dc > 0.0 ) || ( dp > 0.0 && dc < 0.0 ) )
			{
				double t = dp / ( dp - dc );
				cnClipVertex x;
				x.p = cnLerp( prev.p, cur.p, t );
				x.key = cnCrossingKey( prev.edge, planeLabel[k] );
				// leaving: the new edge runs along the plane; entering: it goes on along the old edge
				x.edge = dc > 0.0 ? planeLabel[k] : prev.edge;
				if ( outCount < CN_CLIP_MAX_VERTICES )
				{
					dst[outCount++] = x;
				}
			}
			if ( dc <= 0.0 && outCount < CN_CLIP_MAX_VERTICES )
			{
				dst[outCount++] = cur;
			}
			prev = cur;
			dp = dc;
		}
		cnClipVertex* t = src;
		src = dst;
		dst = t;
		count = outCount;
	}

	for ( int i = 0; i < count; ++i )
	{
		out[i] = src[i];
	}
	return count;
}

// Clips the incident segment by the same kind of planes.
static int cnClipSegment( const cnFeature* inc, const cnVec3* planeNormal, const double* planeOffset,
						  const uint32_t* planeLabel, int planeCount, cnClipVertex* out )
{
	cnClipVertex v[2];
	uint32_t line = 1u + inc->ids[0];
	for ( int i = 0; i < 2; ++i )
	{
		v[i].p = inc->points[i];
		v[i].key = 0x10000u | inc->ids[i];
		v[i].edge = line;
	}
	for ( int k = 0; k < planeCount; ++k )
	{
		double d0 = cnDot( planeNormal[k], v[0].p ) - planeOffset[k];
		double d1 = cnDot( planeNormal[k], v[1].p ) - planeOffset[k];
		if ( d0 > 0.0 && d1 > 0.0 )
		{
			return 0;
		}
		if ( d0 > 0.0 || d1 > 0.0 )
		{
			int i = d0 > 0.0 ? 0 : 1;
			double t = d0 / ( d0 - d1 );
			v[i].p = cnLerp( v[0].p, v[1].p, t );
			v[i].key = cnCrossingKey( line, planeLabel[k] );
		}
	}
	out[0] = v[0];
	out[1] = v[1];
	return 2;
}

// Side planes of a reference polygon: each contains an edge and the normal n, facing outwards,
// so clipping by them keeps what overlaps the polygon seen along n.
static int cnPolygonSidePlanes( const cnFeature* ref, cnVec3 n, cnVec3* planeNormal, double* planeOffset,
								uint32_t* planeLabel )
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
		planeNormal[count] = s;
		planeOffset[count] = cnDot( s, a );
		planeLabel[count] = 128u + ref->ids[i];
		++count;
	}
	return count;
}

// Separation along n of each clipped incident point from the reference surface, keeping the
// points within maxDistance. The reference surface is the plane through refOrigin with normal m.
static int cnMakeCandidates( const cnClipVertex* v, int count, cnVec3 refOrigin, cnVec3 m, cnVec3 n, bool refIsA,
							 uint32_t idBase, double maxDistance, cnCandidate* out )
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
		cnCandidate* c = out + outCount++;
		c->point = cnMulAdd( q, 0.5 * s, n );
		c->separation = separation;
		c->id = idBase | v[i].key;
	}
	return outCount;
}

// Manifold candidates from the two features; 0 when the features give none.
static int cnClipFeatures( const cnFeature* fa, const cnFeature* fb, cnVec3 n, double maxDistance, cnCandidate* out )
{
	if ( fa->count < 2 || fb->count < 2 )
	{
		return 0;
	}

	cnVec3 planeNormal[CN_FEATURE_MAX_VERTICES];
	double planeOffset[CN_FEATURE_MAX_VERTICES];
	uint32_t planeLabel[CN_FEATURE_MAX_VERTICES];
	cnClipVertex clipped[CN_CLIP_MAX_VERTICES];
	int clipCount;
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
		int planeCount = cnPolygonSidePlanes( ref, n, planeNormal, planeOffset, planeLabel );
		if ( inc->count >= 3 )
		{
			clipCount = cnClipPolygon( inc, planeNormal, planeOffset, planeLabel, planeCount, clipped );
		}
		else
		{
			clipCount = cnClipSegment( inc, planeNormal, planeOffset, planeLabel, planeCount, clipped );
		}
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
		planeNormal[0] = cnNeg( pa );
		planeOffset[0] = -cnDot( pa, fa->points[0] );
		planeLabel[0] = 128u + fa->ids[0];
		planeNormal[1] = pa;
		planeOffset[1] = cnDot( pa, fa->points[1] );
		planeLabel[1] = 128u + fa->ids[1];
		cnVec3 ua = cnNormalize( ea );
		refNormal = cnNormalize( cnMulSub( n, cnDot( n, ua ), ua ) );
		clipCount = cnClipSegment( inc, planeNormal, planeOffset, planeLabel, 2, clipped );
	}

	uint32_t idBase = ( inc->faceId << 17 ) | ( ref->faceId << 20 ) | ( refIsA ? 0u : 1u << 23 );
	return cnMakeCandidates( clipped, clipCount, ref->points[0], refNormal, n, refIsA, idBase, maxDistance, out );
}

// Keeps at most four candidates: the deepest, the one farthest from it, then the two that add
// the most area, all measured in the plane perpendicular to n. Returns the kept count.
static int cnReduceCandidates( const cnCandidate* c, int count, cnVec3 n, double scale, int* keep )
{
	// deepest point, where separations within sepTol count as equal and the first one wins: a
	// resting flat contact then keeps the same four points (and ids) from step to step instead of
	// following rounding noise
	double sepTol = CN_DEPTH_TOLERANCE * scale;
	double lengthTol = 1e-6 * scale;
	double minSep = c[0].separation;
	for ( int i = 1; i < count; ++i )
	{
		minSep = c[i].separation < minSep ? c[i].separation : minSep;
	}
	int i0 = 0;
	while ( c[i0].separation > minSep + sepTol )
	{
		++i0;
	}
	keep[0] = i0;
	cnVec3 p0 = c[i0].point;

	int i1 = -1;
	double best = lengthTol * lengthTol;
	for ( int i = 0; i < count; ++i )
	{
		cnVec3 d = cnSub( c[i].point, p0 );
		d = cnMulSub( d, cnDot( d, n ), n );
		double dd = cnLengthSquared( d );
		if ( dd > best )
		{
			best = dd;
			i1 = i;
		}
	}
	if ( i1 < 0 )
	{
		return 1;
	}
	keep[1] = i1;
	cnVec3 e01 = cnSub( c[i1].point, p0 );

	// largest triangle: signed area about n
	int i2 = -1;
	double bestArea = lengthTol * sqrt( best );
	double sign = 1.0;
	for ( int i = 0; i < count; ++i )
	{
		double area = cnDot( cnCross( e01, cnSub( c[i].point, p0 ) ), n );
		if ( fabs( area ) > bestArea )
		{
			bestArea = fabs( area );
			sign = area >= 0.0 ? 1.0 : -1.0;
			i2 = i;
		}
	}
	if ( i2 < 0 )
	{
		return 2;
	}
	keep[2] = i2;

	// the point adding the most area outside one of the triangle's edges
	int tri[3] = { i0, i1, i2 };
	int i3 = -1;
	double bestAdded = lengthTol * sqrt( best );
	for ( int i = 0; i < count; ++i )
	{
		if ( i == i0 || i == i1 || i == i2 )
		{
			continue;
		}
		for ( int e = 0; e < 3; ++e )
		{
			cnVec3 a = c[tri[e]].point;
			cnVec3 b = c[tri[( e + 1 ) % 3]].point;
			// with the triangle counter-clockwise about sign * n, outside an edge is negative area
			double added = -sign * cnDot( cnCross( cnSub( b, a ), cnSub( c[i].point, a ) ), n );
			if ( added > bestAdded )
			{
				bestAdded = added;
				i3 = i;
			}
		}
	}
	if ( i3 < 0 )
	{
		return 3;
	}
	keep[3] = i3;
	return 4;
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

	cnCandidate candidates[CN_CLIP_MAX_VERTICES + 1];
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
		cnCandidate* c = candidates + count++;
		c->point = cnLerp( out.pointA, out.pointB, 0.5 );
		c->separation = out.distance;
		c->id = CN_WITNESS_ID;
	}

	int keep[4];
	int kept = cnReduceCandidates( candidates, count, n, scale, keep );
	for ( int i = 0; i < kept; ++i )
	{
		const cnCandidate* c = candidates + keep[i];
		cnManifoldPoint* mp = m->points + i;
		mp->point = cnTransformPoint( xfA, c->point );
		mp->separation = c->separation;
		mp->id = c->id;
	}
	m->pointCount = kept;
}
