// SPDX-License-Identifier: MIT
// Face clipping shared by the box-box and the general convex narrow phase: Sutherland-Hodgman of
// an incident polygon (or segment) against the side planes of a reference face, with a key on each
// clipped vertex naming the two lines it lies on, and the reduction of the clipped points to at
// most CN_MAX_MANIFOLD_POINTS. The keys are what keeps feature ids, and so warm starting, stable
// from step to step: a vertex keeps its key for as long as the same two features make it.
#include "collision/collision.h"

// Key of a point lying on the lines labelled l1 and l2 (each below 256): the unordered pair, so
// that the same crossing gets the same key whichever way it was found. Always below 0x10000.
static uint32_t cnCrossingKey( uint32_t l1, uint32_t l2 )
{
	return l1 < l2 ? ( l1 << 8 ) | l2 : ( l2 << 8 ) | l1;
}

// Moves p onto the plane, d being its distance outside. A coordinate plane sets the coordinate
// exactly, so that points snapped or clipped onto it compare equal to it and to each other.
static void cnPinToPlane( cnVec3* p, const cnClipPlane* plane, double d )
{
	switch ( plane->axis )
	{
		case 0:
			p->x = plane->normal.x * plane->offset;
			break;
		case 1:
			p->y = plane->normal.y * plane->offset;
			break;
		case 2:
			p->z = plane->normal.z * plane->offset;
			break;
		default:
			*p = cnMulSub( *p, d, plane->normal );
			break;
	}
}

// Distance d of v outside the plane; v is snapped onto the plane when 0 < d <= slack (its
// distance is then 0).
static inline double cnSnapToPlane( cnClipVertex* v, const cnClipPlane* plane, double slack, double d )
{
	if ( d > 0.0 && d <= slack )
	{
		cnPinToPlane( &v->p, plane, d );
		return 0.0;
	}
	return d;
}

// Distances of the vertices outside the plane, after snapping those outside by no more than slack
// onto it (their distance is then 0). Returns whether any vertex is left outside.
static bool cnPlaneDistances( cnClipVertex* v, int count, const cnClipPlane* plane, double slack, double* dist )
{
	// on a coordinate plane the dot product is the one coordinate times +-1, to the bit
	double offset = plane->offset;
	bool outside = false;
	switch ( plane->axis )
	{
		case 0:
			for ( int i = 0; i < count; ++i )
			{
				dist[i] = cnSnapToPlane( v + i, plane, slack, plane->normal.x * v[i].p.x - offset );
				outside = outside || dist[i] > 0.0;
			}
			break;
		case 1:
			for ( int i = 0; i < count; ++i )
			{
				dist[i] = cnSnapToPlane( v + i, plane, slack, plane->normal.y * v[i].p.y - offset );
				outside = outside || dist[i] > 0.0;
			}
			break;
		case 2:
			for ( int i = 0; i < count; ++i )
			{
				dist[i] = cnSnapToPlane( v + i, plane, slack, plane->normal.z * v[i].p.z - offset );
				outside = outside || dist[i] > 0.0;
			}
			break;
		default:
			for ( int i = 0; i < count; ++i )
			{
				dist[i] = cnSnapToPlane( v + i, plane, slack, cnDot( plane->normal, v[i].p ) - offset );
				outside = outside || dist[i] > 0.0;
			}
			break;
	}
	return outside;
}

// A segment (both vertices carry the label of its line in edge), clipped in place: each end
// outside a plane moves to the crossing; nothing is left when both ends are outside one plane.
static int cnClipSegment( cnClipVertex* v, const cnClipPlane* planes, int planeCount, double slack )
{
	uint32_t line = v[0].edge;
	for ( int k = 0; k < planeCount; ++k )
	{
		const cnClipPlane* plane = planes + k;
		double d[2];
		if ( cnPlaneDistances( v, 2, plane, slack, d ) == false )
		{
			continue;
		}
		if ( d[0] > 0.0 && d[1] > 0.0 )
		{
			return 0;
		}
		int i = d[0] > 0.0 ? 0 : 1;
		double t = d[0] / ( d[0] - d[1] );
		v[i].p = cnLerp( v[0].p, v[1].p, t );
		if ( plane->axis >= 0 )
		{
			cnPinToPlane( &v[i].p, plane, 0.0 );
		}
		v[i].key = cnCrossingKey( line, plane->label );
	}
	return 2;
}

int cnClipPolygon( cnClipVertex* poly, int count, const cnClipPlane* planes, int planeCount, double slack,
				   cnClipVertex* scratch )
{
	if ( count == 2 )
	{
		return cnClipSegment( poly, planes, planeCount, slack );
	}

	cnClipVertex* src = poly;
	cnClipVertex* dst = scratch;
	double dist[CN_CLIP_MAX_VERTICES];
	for ( int k = 0; k < planeCount && count > 0; ++k )
	{
		const cnClipPlane* plane = planes + k;
		// most planes cut nothing (a small face on a large one, equal faces flush)
		if ( cnPlaneDistances( src, count, plane, slack, dist ) == false )
		{
			continue;
		}

		int outCount = 0;
		const cnClipVertex* prev = src + count - 1;
		double dp = dist[count - 1];
		for ( int i = 0; i < count; ++i )
		{
			const cnClipVertex* cur = src + i;
			double dc = dist[i];
			// a crossing strictly between the two vertices (an end on the plane is kept as is)
			if ( ( dp < 0.0 && dc > 0.0 ) || ( dp > 0.0 && dc < 0.0 ) )
			{
				// the segment prev -> cur lies on the line prev->edge: the crossing lies on that
				// line and on the plane
				double t = dp / ( dp - dc );
				cnClipVertex x;
				x.p = cnLerp( prev->p, cur->p, t );
				if ( plane->axis >= 0 )
				{
					cnPinToPlane( &x.p, plane, 0.0 );
				}
				x.key = cnCrossingKey( prev->edge, plane->label );
				// leaving: the output runs along the plane to the next crossing; entering: it goes
				// on along the old edge
				x.edge = dc > 0.0 ? plane->label : prev->edge;
				if ( outCount < CN_CLIP_MAX_VERTICES )
				{
					dst[outCount++] = x;
				}
			}
			if ( dc <= 0.0 && outCount < CN_CLIP_MAX_VERTICES )
			{
				dst[outCount++] = *cur;
			}
			prev = cur;
			dp = dc;
		}
		cnClipVertex* t = src;
		src = dst;
		dst = t;
		count = outCount;
	}

	if ( src != poly )
	{
		for ( int i = 0; i < count; ++i )
		{
			poly[i] = src[i];
		}
	}
	return count;
}

// The coordinate axis the unit normal lies on (n = +-e_axis exactly), or -1. Seen along a
// coordinate axis, lengths and areas need only the other two coordinates, and the shortcuts below
// give the general formulas' results to the bit (the terms they drop are exact zeros); box faces
// always take them.
static int cnNormalAxis( cnVec3 n )
{
	if ( n.y == 0.0 && n.z == 0.0 && fabs( n.x ) == 1.0 )
	{
		return 0;
	}
	if ( n.z == 0.0 && n.x == 0.0 && fabs( n.y ) == 1.0 )
	{
		return 1;
	}
	if ( n.x == 0.0 && n.y == 0.0 && fabs( n.z ) == 1.0 )
	{
		return 2;
	}
	return -1;
}

// Squared length of d seen along the unit normal n (of its part perpendicular to n).
static double cnPlanarLengthSquared( cnVec3 d, cnVec3 n, int axis )
{
	switch ( axis )
	{
		case 0:
			return d.y * d.y + d.z * d.z;
		case 1:
			return d.x * d.x + d.z * d.z;
		case 2:
			return d.x * d.x + d.y * d.y;
		default:
			return cnLengthSquared( cnMulSub( d, cnDot( d, n ), n ) );
	}
}

// Twice the signed area of the triangle (0, e, d) seen along n: dot(cross(e, d), n).
static double cnPlanarArea( cnVec3 e, cnVec3 d, cnVec3 n, int axis )
{
	switch ( axis )
	{
		case 0:
			return ( e.y * d.z - e.z * d.y ) * n.x;
		case 1:
			return ( e.z * d.x - e.x * d.z ) * n.y;
		case 2:
			return ( e.x * d.y - e.y * d.x ) * n.z;
		default:
			return cnDot( cnCross( e, d ), n );
	}
}

int cnReduceManifoldPoints( const cnClipPoint* c, int count, cnVec3 normal, double depthTolerance,
							double lengthTolerance, int keep[CN_MAX_MANIFOLD_POINTS] )
{
	if ( count <= 0 )
	{
		return 0;
	}
	int axis = cnNormalAxis( normal );

	// deepest point, where separations within depthTolerance count as equal and the first one
	// wins: a resting flat contact then keeps the same four points (and ids) from step to step
	// instead of following rounding noise
	double minSep = c[0].separation;
	for ( int i = 1; i < count; ++i )
	{
		minSep = c[i].separation < minSep ? c[i].separation : minSep;
	}
	int i0 = 0;
	while ( c[i0].separation > minSep + depthTolerance )
	{
		++i0;
	}
	keep[0] = i0;
	cnVec3 p0 = c[i0].point;

	// farthest from it, seen along the normal
	int i1 = -1;
	double best = lengthTolerance * lengthTolerance;
	for ( int i = 0; i < count; ++i )
	{
		double dd = cnPlanarLengthSquared( cnSub( c[i].point, p0 ), normal, axis );
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

	// largest triangle: signed area about the normal (only its size counts here)
	double areaTolerance = lengthTolerance * sqrt( best );
	int i2 = -1;
	double bestArea = areaTolerance;
	double sign = 1.0;
	for ( int i = 0; i < count; ++i )
	{
		double area = cnPlanarArea( e01, cnSub( c[i].point, p0 ), normal, axis );
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
	double bestAdded = areaTolerance;
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
			// with the triangle counter-clockwise about sign * normal, outside an edge is negative area
			double added = -sign * cnPlanarArea( cnSub( b, a ), cnSub( c[i].point, a ), normal, axis );
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
