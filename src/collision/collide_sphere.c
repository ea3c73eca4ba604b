// SPDX-License-Identifier: MIT
// Rounded shapes: sphere and capsule pairs, and box against sphere and capsule.
//
// A sphere is a point and a capsule a segment (its core), each grown by its radius, so every
// pair reduces to the closest points between the cores: the normal runs between them and the
// separation is their distance less both radii. Only when the cores overlap (a box swallowing a
// capsule's segment) is a separating axis search needed. Everything is computed in the frame of
// shape A and moved to the world at the end.
#include "collision/collision.h"
#include "core.h"

#include <float.h>

// Two capsules give two points when their axes are within about 1.1 degrees of parallel (sine
// 0.02): then they rest along a line, and one point would let the upper one roll about it.
#define CN_CAPSULE_PARALLEL_SIN 0.02
// A capsule lies on a box face, and gets two points clipped to the face, when the contact normal
// is within about 8 degrees of the face normal (cosine 0.99) and its axis within 45 degrees of
// the face plane (sine 0.7). The separations of the two points are exact at any such tilt; the
// higher one just drops out when it is beyond the speculative distance.
#define CN_FACE_NORMAL_COS 0.99
#define CN_FACE_AXIS_SIN 0.7
// The box face axes win over the edge axes unless an edge axis is shallower by 5%, so a capsule
// resting on a face does not flicker between the two.
#define CN_FACE_PREFERENCE 0.95

// Ids of capsule-capsule points: segment ends 0 and 1, ends clipped by A's caps 2 and 3,
// a single closest point 4.
#define CN_SINGLE_POINT_ID 4u
// Id of a single box-capsule point; two-point ids are below it.
#define CN_BOX_CAPSULE_SINGLE_ID 128u

static double cnClamp( double x, double lo, double hi )
{
	return x < lo ? lo : ( x > hi ? hi : x );
}

// Writes point i of m from the core point cA of A (radius rA) and core point cB of B (radius rB)
// along the unit normal n, all in A's frame: the point lies midway between the two surfaces.
static void cnSetRoundedPoint( cnManifold* m, int i, cnTransform xfA, cnVec3 cA, double rA, cnVec3 cB, double rB,
							   cnVec3 n, double separation, uint32_t id )
{
	cnVec3 pA = cnMulAdd( cA, rA, n );
	cnVec3 pB = cnMulSub( cB, rB, n );
	cnManifoldPoint* mp = m->points + i;
	mp->point = cnTransformPoint( xfA, cnLerp( pA, pB, 0.5 ) );
	mp->separation = separation;
	mp->id = id;
}

// Parameters s, t of the closest points p1 + s (q1 - p1) and p2 + t (q2 - p2) of two segments
// (Ericson, Real-Time Collision Detection, 5.1.9). Parallel segments get s = 0 where possible.
static void cnClosestSegments( cnVec3 p1, cnVec3 q1, cnVec3 p2, cnVec3 q2, double* s, double* t )
{
	cnVec3 d1 = cnSub( q1, p1 ), d2 = cnSub( q2, p2 ), r = cnSub( p1, p2 );
	double a = cnDot( d1, d1 ), e = cnDot( d2, d2 ), f = cnDot( d2, r );
	if ( a <= DBL_MIN && e <= DBL_MIN )
	{
		*s = 0.0;
		*t = 0.0;
		return;
	}
	if ( a <= DBL_MIN )
	{
		*s = 0.0;
		*t = cnClamp( f / e, 0.0, 1.0 );
		return;
	}
	double c = cnDot( d1, r );
	if ( e <= DBL_MIN )
	{
		*t = 0.0;
		*s = cnClamp( -c / a, 0.0, 1.0 );
		return;
	}
	double b = cnDot( d1, d2 );
	// a e - b^2 = a e sin^2(angle): treat sines below 1e-7 as parallel
	double denom = a * e - b * b;
	double ss = denom > 1e-14 * a * e ? cnClamp( ( b * f - c * e ) / denom, 0.0, 1.0 ) : 0.0;
	double tt = ( b * ss + f ) / e;
	if ( tt < 0.0 )
	{
		tt = 0.0;
		ss = cnClamp( -c / a, 0.0, 1.0 );
	}
	else if ( tt > 1.0 )
	{
		tt = 1.0;
		ss = cnClamp( ( b - c ) / a, 0.0, 1.0 );
	}
	*s = ss;
	*t = tt;
}

void cnCollideSpheres( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					   cnManifold* m )
{
	m->pointCount = 0;
	cnVec3 d = cnSub( xfB.p, xfA.p );
	double dist = cnLength( d );
	double separation = dist - a->radius - b->radius;
	if ( separation > maxDistance )
	{
		return;
	}
	// concentric spheres have no preferred direction: any fixed one will do
	cnVec3 n = dist > 0.0 ? cnMulSV( 1.0 / dist, d ) : cnV3( 0.0, 0.0, 1.0 );
	m->normal = n;
	cnSetRoundedPoint( m, 0, cnTransform_identity, xfA.p, a->radius, xfB.p, b->radius, n, separation, 0u );
	m->pointCount = 1;
}

void cnCollideCapsuleAndSphere( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
								double maxDistance, cnManifold* m )
{
	m->pointCount = 0;
	// sphere centre in the capsule frame, and its closest point on the capsule's core
	cnVec3 c = cnInvTransformPoint( xfA, xfB.p );
	cnVec3 q = cnV3( 0.0, 0.0, cnClamp( c.z, -a->halfHeight, a->halfHeight ) );
	cnVec3 d = cnSub( c, q );
	double dist = cnLength( d );
	double separation = dist - a->radius - b->radius;
	if ( separation > maxDistance )
	{
		return;
	}
	// a centre on the core: push out sideways along a fixed direction of the capsule frame
	cnVec3 n = dist > 0.0 ? cnMulSV( 1.0 / dist, d ) : cnV3( 1.0, 0.0, 0.0 );
	m->normal = cnRotate( xfA.q, n );
	cnSetRoundedPoint( m, 0, xfA, q, a->radius, c, b->radius, n, separation, 0u );
	m->pointCount = 1;
}

void cnCollideCapsules( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
						cnManifold* m )
{
	m->pointCount = 0;
	double hA = a->halfHeight, hB = b->halfHeight;
	double rA = a->radius, rB = b->radius;

	// B's core in A's frame; A's core runs along z
	cnTransform xf = cnInvMulTransforms( xfA, xfB );
	cnVec3 u = cnRotate( xf.q, cnV3( 0.0, 0.0, 1.0 ) );
	cnVec3 a0 = cnV3( 0.0, 0.0, -hA ), a1 = cnV3( 0.0, 0.0, hA );
	cnVec3 b0 = cnMulSub( xf.p, hB, u ), b1 = cnMulAdd( xf.p, hB, u );

	double s, t;
	cnClosestSegments( a0, a1, b0, b1, &s, &t );
	cnVec3 cA = cnLerp( a0, a1, s );
	cnVec3 cB = cnLerp( b0, b1, t );
	cnVec3 d = cnSub( cB, cA );
	double dist = cnLength( d );
	double separation = dist - rA - rB;
	if ( separation > maxDistance )
	{
		return;
	}

	double scale = hA + hB + rA + rB;
	// sine of the angle between the axes: |z x u|
	double sinAngle = sqrt( u.x * u.x + u.y * u.y );
	cnVec3 n;
	if ( dist > 1e-12 * scale )
	{
		n = cnMulSV( 1.0 / dist, d );
	}
	else if ( sinAngle > 1e-6 )
	{
		// crossing cores: the common perpendicular, pointing towards B's centre
		n = cnNormalize( cnV3( -u.y, u.x, 0.0 ) );
		if ( cnDot( n, xf.p ) < 0.0 )
		{
			n = cnNeg( n );
		}
	}
	else
	{
		// overlapping parallel cores: sideways towards B's centre, or a fixed direction
		n = cnNormalize( cnV3( xf.p.x, xf.p.y, 0.0 ) );
		if ( cnLengthSquared( n ) == 0.0 )
		{
			n = cnV3( 1.0, 0.0, 0.0 );
		}
	}
	m->normal = cnRotate( xfA.q, n );

	if ( sinAngle < CN_CAPSULE_PARALLEL_SIN )
	{
		// nearly parallel: clip B's core to the slab of A's core, -hA <= z <= hA; with the axes
		// this close, u.z is far from zero
		double dz = b1.z - b0.z;
		double tLo = ( -hA - b0.z ) / dz, tHi = ( hA - b0.z ) / dz;
		if ( tLo > tHi )
		{
			double tmp = tLo;
			tLo = tHi;
			tHi = tmp;
		}
		bool clipLo = tLo > 0.0, clipHi = tHi < 1.0;
		tLo = clipLo ? tLo : 0.0;
		tHi = clipHi ? tHi : 1.0;
		if ( ( tHi - tLo ) * 2.0 * hB > 1e-3 * ( rA + rB ) )
		{
			double ts[2] = { tLo, tHi };
			uint32_t ids[2] = { clipLo ? 2u : 0u, clipHi ? 3u : 1u };
			int count = 0;
			for ( int i = 0; i < 2; ++i )
			{
				cnVec3 qB = cnLerp( b0, b1, ts[i] );
				cnVec3 qA = cnV3( 0.0, 0.0, cnClamp( qB.z, -hA, hA ) );
				// measured along the common normal: a tilt within the plane of the two axes shows
				// up as a larger separation at the raised end, while skew axes (crossing at a
				// slight angle) keep the separation of the crossing at both ends rather than
				// missing its overlap
				double sep = cnDot( cnSub( qB, qA ), n ) - rA - rB;
				if ( sep <= maxDistance )
				{
					cnSetRoundedPoint( m, count++, xfA, qA, rA, qB, rB, n, sep, ids[i] );
				}
			}
			if ( count > 0 )
			{
				m->pointCount = count;
				return;
			}
		}
	}

	cnSetRoundedPoint( m, 0, xfA, cA, rA, cB, rB, n, separation, CN_SINGLE_POINT_ID );
	m->pointCount = 1;
}

void cnCollideBoxAndSphere( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							double maxDistance, cnManifold* m )
{
	m->pointCount = 0;
	cnGeometry grown;
	a = cnBoxThroughSeams( a, &xfA, 2.0 * b->radius + maxDistance, &grown );
	cnVec3 h = a->halfExtents;
	double r = b->radius;
	cnVec3 c = cnInvTransformPoint( xfA, xfB.p );
	cnVec3 q = cnV3( cnClamp( c.x, -h.x, h.x ), cnClamp( c.y, -h.y, h.y ), cnClamp( c.z, -h.z, h.z ) );
	cnVec3 n;
	double separation;
	if ( q.x != c.x || q.y != c.y || q.z != c.z )
	{
		// centre outside: the clamped point is the closest point of the box
		cnVec3 d = cnSub( c, q );
		double dist = cnLength( d );
		separation = dist - r;
		if ( separation > maxDistance )
		{
			return;
		}
		n = dist > 0.0 ? cnMulSV( 1.0 / dist, d ) : cnV3( 0.0, 0.0, 1.0 );
	}
	else
	{
		// centre inside: leave through the nearest face (lowest axis on ties)
		double depth[3] = { h.x - fabs( c.x ), h.y - fabs( c.y ), h.z - fabs( c.z ) };
		int i = 0;
		i = depth[1] < depth[i] ? 1 : i;
		i = depth[2] < depth[i] ? 2 : i;
		double s = cnGet( c, i ) >= 0.0 ? 1.0 : -1.0;
		double nn[3] = { 0.0, 0.0, 0.0 };
		nn[i] = s;
		n = cnV3( nn[0], nn[1], nn[2] );
		double qq[3] = { c.x, c.y, c.z };
		qq[i] = s * cnGet( h, i );
		q = cnV3( qq[0], qq[1], qq[2] );
		separation = -depth[i] - r;
	}
	m->normal = cnRotate( xfA.q, n );
	cnSetRoundedPoint( m, 0, xfA, q, 0.0, c, r, n, separation, 0u );
	m->pointCount = 1;
}

// Closest point of the box |x_i| <= h_i.
static cnVec3 cnClampToBox( cnVec3 p, cnVec3 h )
{
	return cnV3( cnClamp( p.x, -h.x, h.x ), cnClamp( p.y, -h.y, h.y ), cnClamp( p.z, -h.z, h.z ) );
}

// Parameter t in [0, 1] of the point of the segment p0 + t d closest to the box |x_i| <= h_i.
// The squared distance to the box is a convex piecewise quadratic in t whose pieces end where
// the segment crosses a slab boundary; minimising each piece exactly gives the exact answer.
static double cnSegmentBoxParameter( cnVec3 p0, cnVec3 d, cnVec3 h )
{
	double ts[8];
	int n = 0;
	ts[n++] = 0.0;
	for ( int i = 0; i < 3; ++i )
	{
		double di = cnGet( d, i );
		if ( di == 0.0 )
		{
			continue;
		}
		double pi = cnGet( p0, i ), hi = cnGet( h, i );
		double t1 = ( hi - pi ) / di, t2 = ( -hi - pi ) / di;
		if ( t1 > 0.0 && t1 < 1.0 )
		{
			ts[n++] = t1;
		}
		if ( t2 > 0.0 && t2 < 1.0 )
		{
			ts[n++] = t2;
		}
	}
	ts[n++] = 1.0;
	// at most 8 values
	cnSortDoubles( ts, n );

	double best = 0.0, bestF = DBL_MAX;
	for ( int k = 0; k + 1 < n; ++k )
	{
		double ta = ts[k], tb = ts[k + 1];
		double tm = 0.5 * ( ta + tb );
		// on this piece the squared distance is the sum over the coordinates outside their slab
		// of (a_i + t d_i)^2, a_i = p0_i -/+ h_i
		double num = 0.0, den = 0.0;
		for ( int i = 0; i < 3; ++i )
		{
			double pi = cnGet( p0, i ), di = cnGet( d, i ), hi = cnGet( h, i );
			double x = pi + tm * di;
			double ai;
			if ( x > hi )
			{
				ai = pi - hi;
			}
			else if ( x < -hi )
			{
				ai = pi + hi;
			}
			else
			{
				continue;
			}
			num += ai * di;
			den += di * di;
		}
		double t = den > 0.0 ? cnClamp( -num / den, ta, tb ) : ta;
		cnVec3 c = cnMulAdd( p0, t, d );
		double f = cnLengthSquared( cnSub( c, cnClampToBox( c, h ) ) );
		if ( f < bestF )
		{
			bestF = f;
			best = t;
		}
	}
	return best;
}

// Up to two points of the capsule core p0 + t d (t in [0, 1], radius r) lying over the box face
// with outward normal s e_i: the core is clipped to the face's four side planes and each end is
// measured against the face plane. Returns the number of points written (0: none, use one point).
static int cnCapsuleOnFace( cnManifold* m, cnTransform xfA, cnVec3 p0, cnVec3 d, double r, cnVec3 h, int i, double s,
							double maxDistance, double minLength )
{
	int j = ( i + 1 ) % 3, k = ( i + 2 ) % 3;
	int axes[2] = { j, k };
	double tLo = 0.0, tHi = 1.0;
	int planeLo = -1, planeHi = -1;
	for ( int a = 0; a < 2; ++a )
	{
		int ax = axes[a];
		double pa = cnGet( p0, ax ), da = cnGet( d, ax ), ha = cnGet( h, ax );
		for ( int side = 0; side < 2; ++side )
		{
			// side plane sign * x_ax <= h_ax, as f(t) = f0 + t df <= 0
			double sign = side == 0 ? 1.0 : -1.0;
			double f0 = sign * pa - ha, df = sign * da;
			int plane = 2 * a + side;
			if ( df == 0.0 )
			{
				if ( f0 > 0.0 )
				{
					return 0;
				}
				continue;
			}
			double tc = -f0 / df;
			if ( df > 0.0 && tc < tHi )
			{
				tHi = tc;
				planeHi = plane;
			}
			else if ( df < 0.0 && tc > tLo )
			{
				tLo = tc;
				planeLo = plane;
			}
		}
	}
	if ( ( tHi - tLo ) * cnLength( d ) <= minLength )
	{
		return 0;
	}

	double nn[3] = { 0.0, 0.0, 0.0 };
	nn[i] = s;
	cnVec3 n = cnV3( nn[0], nn[1], nn[2] );
	double hi = cnGet( h, i );
	uint32_t face = (uint32_t)( 2 * i + ( s > 0.0 ? 1 : 0 ) );
	double ts[2] = { tLo, tHi };
	// an end that was not clipped is the core's own end (0 or 1), else the side plane's index + 2
	uint32_t ends[2] = { planeLo < 0 ? 0u : 2u + (uint32_t)planeLo, planeHi < 0 ? 1u : 2u + (uint32_t)planeHi };
	int count = 0;
	for ( int e = 0; e < 2; ++e )
	{
		cnVec3 c = cnMulAdd( p0, ts[e], d );
		double separation = s * cnGet( c, i ) - hi - r;
		if ( separation > maxDistance )
		{
			continue;
		}
		// the face point below c
		double qq[3] = { c.x, c.y, c.z };
		qq[i] = s * hi;
		cnSetRoundedPoint( m, count++, xfA, cnV3( qq[0], qq[1], qq[2] ), 0.0, c, r, n, separation,
						   16u * face + ends[e] );
	}
	if ( count > 0 )
	{
		m->normal = cnRotate( xfA.q, n );
	}
	return count;
}

void cnCollideBoxAndCapsule( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							 double maxDistance, cnManifold* m )
{
	m->pointCount = 0;
	cnGeometry grown;
	a = cnBoxThroughSeams( a, &xfA, 2.0 * ( b->radius + b->halfHeight ) + maxDistance, &grown );
	cnVec3 h = a->halfExtents;
	double r = b->radius, hB = b->halfHeight;

	// the capsule's core in the box frame
	cnTransform xf = cnInvMulTransforms( xfA, xfB );
	cnVec3 u = cnRotate( xf.q, cnV3( 0.0, 0.0, 1.0 ) );
	cnVec3 p0 = cnMulSub( xf.p, hB, u ), p1 = cnMulAdd( xf.p, hB, u );
	cnVec3 d = cnSub( p1, p0 );
	double maxH = h.x > h.y ? ( h.x > h.z ? h.x : h.z ) : ( h.y > h.z ? h.y : h.z );
	double scale = maxH + hB + r;

	double t = cnSegmentBoxParameter( p0, d, h );
	cnVec3 c = cnMulAdd( p0, t, d );
	cnVec3 q = cnClampToBox( c, h );
	cnVec3 cq = cnSub( c, q );
	double dist = cnLength( cq );

	cnVec3 n;
	double separation;
	// the box point under the single contact point
	cnVec3 boxPoint;
	if ( dist > 1e-9 * scale )
	{
		// cores apart: the closest points give the normal and the separation exactly
		separation = dist - r;
		if ( separation > maxDistance )
		{
			return;
		}
		n = cnMulSV( 1.0 / dist, cq );
		boxPoint = q;
	}
	else
	{
		// the core enters the box: separating axes are the box faces and the box edges crossed
		// with the core; the segment projects onto an edge axis as a single point
		double faceDepth = DBL_MAX;
		cnVec3 faceN = cnV3( 0.0, 0.0, 1.0 );
		for ( int i = 0; i < 3; ++i )
		{
			double s0 = cnGet( p0, i ), s1 = cnGet( p1, i ), hi = cnGet( h, i );
			// push out towards the side of the core's centre
			bool up = cnGet( xf.p, i ) >= 0.0;
			double depth = up ? hi - ( s0 < s1 ? s0 : s1 ) : ( s0 > s1 ? s0 : s1 ) + hi;
			if ( depth < faceDepth )
			{
				faceDepth = depth;
				double nn[3] = { 0.0, 0.0, 0.0 };
				nn[i] = up ? 1.0 : -1.0;
				faceN = cnV3( nn[0], nn[1], nn[2] );
			}
		}
		double edgeDepth = DBL_MAX;
		cnVec3 edgeN = faceN;
		int edgeAxis = -1;
		for ( int i = 0; i < 3; ++i )
		{
			double ee[3] = { 0.0, 0.0, 0.0 };
			ee[i] = 1.0;
			cnVec3 axis = cnCross( cnV3( ee[0], ee[1], ee[2] ), u );
			double len = cnLength( axis );
			if ( len < 1e-6 )
			{
				continue;
			}
			axis = cnMulSV( 1.0 / len, axis );
			double radius = fabs( axis.x ) * h.x + fabs( axis.y ) * h.y + fabs( axis.z ) * h.z;
			double proj = cnDot( xf.p, axis );
			double depth = radius - fabs( proj );
			if ( depth < edgeDepth )
			{
				edgeDepth = depth;
				edgeN = proj >= 0.0 ? axis : cnNeg( axis );
				edgeAxis = i;
			}
		}

		if ( edgeAxis >= 0 && edgeDepth < CN_FACE_PREFERENCE * faceDepth - 1e-9 * scale )
		{
			// the box edge supporting along n, against the core
			n = edgeN;
			separation = -edgeDepth - r;
			double e0[3], e1[3];
			for ( int i = 0; i < 3; ++i )
			{
				double hi = cnGet( h, i );
				e0[i] = cnGet( n, i ) >= 0.0 ? hi : -hi;
				e1[i] = e0[i];
			}
			e0[edgeAxis] = -cnGet( h, edgeAxis );
			e1[edgeAxis] = cnGet( h, edgeAxis );
			double s, te;
			cnVec3 E0 = cnV3( e0[0], e0[1], e0[2] ), E1 = cnV3( e1[0], e1[1], e1[2] );
			cnClosestSegments( p0, p1, E0, E1, &s, &te );
			c = cnMulAdd( p0, s, d );
		}
		else
		{
			// the deepest end of the core (the middle when level)
			n = faceN;
			separation = -faceDepth - r;
			double d0 = cnDot( p0, n ), d1 = cnDot( p1, n );
			double tol = 1e-12 * scale;
			c = d0 < d1 - tol ? p0 : ( d1 < d0 - tol ? p1 : xf.p );
		}
		// the box surface point: separation = dot(c - r n - boxPoint, n)
		boxPoint = cnMulSub( c, r + separation, n );
	}

	// lying on a face: two points clipped to it. Only when the deepest core point is over the face
	// itself: then the lower clipped end is that deepest point. A core dipping past the face's
	// edge touches the edge alone, and one point says so.
	int fi = 0;
	fi = fabs( n.y ) > fabs( cnGet( n, fi ) ) ? 1 : fi;
	fi = fabs( n.z ) > fabs( cnGet( n, fi ) ) ? 2 : fi;
	int fj = ( fi + 1 ) % 3, fk = ( fi + 2 ) % 3;
	double overTol = 1e-9 * scale;
	bool overFace =
		fabs( cnGet( c, fj ) ) <= cnGet( h, fj ) + overTol && fabs( cnGet( c, fk ) ) <= cnGet( h, fk ) + overTol;
	if ( overFace && fabs( cnGet( n, fi ) ) >= CN_FACE_NORMAL_COS && fabs( cnGet( u, fi ) ) < CN_FACE_AXIS_SIN )
	{
		double s = cnGet( n, fi ) >= 0.0 ? 1.0 : -1.0;
		int count = cnCapsuleOnFace( m, xfA, p0, d, r, h, fi, s, maxDistance, 1e-6 * scale );
		if ( count > 0 )
		{
			m->pointCount = count;
			return;
		}
	}

	m->normal = cnRotate( xfA.q, n );
	cnSetRoundedPoint( m, 0, xfA, boxPoint, 0.0, c, r, n, separation, CN_BOX_CAPSULE_SINGLE_ID );
	m->pointCount = 1;
}
