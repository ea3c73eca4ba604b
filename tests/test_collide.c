// SPDX-License-Identifier: MIT
// Narrow phase of the primitive pairs against hand-derived contacts: separation (depth), normal
// direction, point count and location, speculative points, argument order and feature ids.
//
// Unless said otherwise the tolerance is 1e-12: the expected values are exact geometry and the
// code only adds rounding of a few operations on numbers of order 1 (1e-15 each).
#include "collision/collision.h"
#include "test.h"
#include "test_geometry.h"

#include <string.h>

#define TOL 1e-12

static cnManifold collide( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
						   double maxDistance )
{
	cnManifold m;
	memset( &m, 0xab, sizeof( m ) );
	cnCollide( a, xfA, b, xfB, maxDistance, &m );
	return m;
}

static void checkVec( cnVec3 v, double x, double y, double z, double tol )
{
	CHECK_NEAR( v.x, x, tol );
	CHECK_NEAR( v.y, y, tol );
	CHECK_NEAR( v.z, z, tol );
}

// Index of the manifold point nearest to (x, y, z), checking that it is within tol.
static int findPoint( const cnManifold* m, double x, double y, double z, double tol )
{
	int best = -1;
	double bestD = 1e300;
	for ( int i = 0; i < m->pointCount; ++i )
	{
		double d = cnDistance( m->points[i].point, cnV3( x, y, z ) );
		if ( d < bestD )
		{
			bestD = d;
			best = i;
		}
	}
	CHECK( bestD <= tol );
	if ( bestD > tol )
	{
		fprintf( stderr, "  no point near (%g, %g, %g): nearest at %g\n", x, y, z, bestD );
	}
	return best;
}

// Ids within one manifold must differ, or warm starting would mix points up.
static bool idsUnique( const cnManifold* m )
{
	for ( int i = 0; i < m->pointCount; ++i )
	{
		for ( int j = i + 1; j < m->pointCount; ++j )
		{
			if ( m->points[i].id == m->points[j].id )
			{
				return false;
			}
		}
	}
	return true;
}

// Swapping the arguments flips the normal and keeps points, separations and ids.
static void checkSwapped( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
						  double maxDistance )
{
	cnManifold m1 = collide( a, xfA, b, xfB, maxDistance );
	cnManifold m2 = collide( b, xfB, a, xfA, maxDistance );
	CHECK( m1.pointCount == m2.pointCount );
	CHECK( m1.pointCount > 0 );
	checkVec( m2.normal, -m1.normal.x, -m1.normal.y, -m1.normal.z, TOL );
	for ( int i = 0; i < m1.pointCount && i < m2.pointCount; ++i )
	{
		int j = findPoint( &m2, m1.points[i].point.x, m1.points[i].point.y, m1.points[i].point.z, 1e-9 );
		if ( j >= 0 )
		{
			CHECK_NEAR( m2.points[j].separation, m1.points[i].separation, 1e-9 );
		}
	}
}

// ---------------------------------------------------------------------------------------------
// spheres

static void testSpheres( void )
{
	// unit spheres with centres 1.5 apart along (1, 2, 2) / 3: overlap 0.5, normal along the
	// centre line, point midway between the surfaces: cA + (1 - 0.25) n
	cnGeometry s = sphereGeom( 1.0 );
	cnVec3 n = cnV3( 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0 );
	cnTransform xfA = at( 3.0, -1.0, 2.0 );
	cnTransform xfB = at( 3.0 + 1.5 * n.x, -1.0 + 1.5 * n.y, 2.0 + 1.5 * n.z );
	cnManifold m = collide( &s, xfA, &s, xfB, 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.5, TOL );
	checkVec( m.normal, n.x, n.y, n.z, TOL );
	checkVec( m.points[0].point, 3.0 + 0.75 * n.x, -1.0 + 0.75 * n.y, 2.0 + 0.75 * n.z, TOL );

	checkSwapped( &s, xfA, &s, xfB, 0.02 );

	// radii 0.5 and 0.25 along x, gap 0.01 with maxDistance 0.02: a speculative point
	cnGeometry s1 = sphereGeom( 0.5 ), s2 = sphereGeom( 0.25 );
	m = collide( &s1, at( 0, 0, 0 ), &s2, at( 0.76, 0, 0 ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	checkVec( m.normal, 1.0, 0.0, 0.0, TOL );
	checkVec( m.points[0].point, 0.505, 0.0, 0.0, TOL );
	// gap 0.05: nothing
	m = collide( &s1, at( 0, 0, 0 ), &s2, at( 0.8, 0, 0 ), 0.02 );
	CHECK( m.pointCount == 0 );
}

// ---------------------------------------------------------------------------------------------
// capsule and sphere

static void testCapsuleSphere( void )
{
	// capsule r 0.5, half height 1 along z; sphere r 0.25 beside the core at height 0.5:
	// distance to the axis 0.6, separation 0.6 - 0.75 = -0.15, normal +x
	cnGeometry c = capsuleGeom( 0.5, 1.0 );
	cnGeometry s = sphereGeom( 0.25 );
	cnManifold m = collide( &c, at( 0, 0, 0 ), &s, at( 0.6, 0, 0.5 ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.15, TOL );
	checkVec( m.normal, 1, 0, 0, TOL );
	// surfaces at x = 0.5 and x = 0.35: midway 0.425
	checkVec( m.points[0].point, 0.425, 0, 0.5, TOL );

	// beyond the end cap: closest core point is the end (0, 0, 1)
	m = collide( &c, at( 0, 0, 0 ), &s, at( 0, 0, 1.6 ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.15, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );

	// capsule turned 90 degrees about y lies along x; sphere above it at height 0.7: -0.05
	m = collide( &c, makeXf( 0, 0, 0, rotY( 0.5 * CN_PI ) ), &s, at( 0.8, 0, 0.7 ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.05, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );

	// sphere first: normal flipped
	m = collide( &s, at( 0.6, 0, 0.5 ), &c, at( 0, 0, 0 ), 0.0 );
	CHECK( m.pointCount == 1 );
	checkVec( m.normal, -1, 0, 0, TOL );
	CHECK_NEAR( m.points[0].separation, -0.15, TOL );

	// speculative: gap 0.01 with maxDistance 0.02; gap 0.05 gives nothing
	m = collide( &c, at( 0, 0, 0 ), &s, at( 0.76, 0, 0 ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	m = collide( &c, at( 0, 0, 0 ), &s, at( 0.8, 0, 0 ), 0.02 );
	CHECK( m.pointCount == 0 );
}

// ---------------------------------------------------------------------------------------------
// capsules

static void testCapsules( void )
{
	cnGeometry c = capsuleGeom( 0.5, 1.0 );
	cnQuat alongX = rotY( 0.5 * CN_PI );
	cnQuat alongY = rotX( 0.5 * CN_PI );

	// crossing at right angles, one above the other: cores 0.9 apart, separation -0.1, one point
	// at the middle of the overlap (0, 0, 0.45)
	cnManifold m = collide( &c, makeXf( 0, 0, 0, alongX ), &c, makeXf( 0, 0, 0.9, alongY ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.1, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );
	checkVec( m.points[0].point, 0, 0, 0.45, TOL );

	// side by side along x, B shifted by 0.3 along the axis and lying 0.95 above: two points at
	// the ends of the common part of the cores, x in [-0.7, 1], each with separation -0.05
	m = collide( &c, makeXf( 0, 0, 0, alongX ), &c, makeXf( 0.3, 0, 0.95, alongX ), 0.02 );
	CHECK( m.pointCount == 2 );
	checkVec( m.normal, 0, 0, 1, TOL );
	int i = findPoint( &m, -0.7, 0, 0.475, TOL );
	int j = findPoint( &m, 1.0, 0, 0.475, TOL );
	CHECK( i >= 0 && j >= 0 && i != j );
	CHECK_NEAR( m.points[0].separation, -0.05, TOL );
	CHECK_NEAR( m.points[1].separation, -0.05, TOL );
	CHECK( idsUnique( &m ) );
	checkSwapped( &c, makeXf( 0, 0, 0, alongX ), &c, makeXf( 0.3, 0, 0.95, alongX ), 0.02 );

	// the same pair moved by a small step keeps its ids
	cnManifold m2 = collide( &c, makeXf( 0, 0, 0, alongX ), &c, makeXf( 0.3001, 0.0001, 0.9501, alongX ), 0.02 );
	CHECK( sameIds( &m, &m2 ) );

	// end to end on one line, gap 0.9 between the core ends: one point, normal along the axis
	m = collide( &c, makeXf( 0, 0, 0, alongX ), &c, makeXf( 2.9, 0, 0, alongX ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.1, TOL );
	checkVec( m.normal, 1, 0, 0, TOL );
	checkVec( m.points[0].point, 1.45, 0, 0, TOL );

	// parallel with a gap 0.01 and maxDistance 0.02: two speculative points; gap 0.05: none
	m = collide( &c, makeXf( 0, 0, 0, alongX ), &c, makeXf( 0, 0, 1.01, alongX ), 0.02 );
	CHECK( m.pointCount == 2 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	CHECK_NEAR( m.points[1].separation, 0.01, TOL );
	m = collide( &c, makeXf( 0, 0, 0, alongX ), &c, makeXf( 0, 0, 1.05, alongX ), 0.02 );
	CHECK( m.pointCount == 0 );
}

// ---------------------------------------------------------------------------------------------
// box and sphere

static void testBoxSphere( void )
{
	cnGeometry box = boxGeom( 1.0, 1.0, 1.0 );
	cnGeometry s = sphereGeom( 0.5 );

	// above the top face: separation 1.4 - 1 - 0.5 = -0.1; surfaces at z = 1 and 0.9
	cnManifold m = collide( &box, at( 0, 0, 0 ), &s, at( 0.2, 0.3, 1.4 ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.1, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );
	checkVec( m.points[0].point, 0.2, 0.3, 0.95, TOL );

	// next to the vertical edge (1, 1, z): offset (0.3, 0.4) from it, distance 0.5, r 0.6
	cnGeometry s6 = sphereGeom( 0.6 );
	m = collide( &box, at( 0, 0, 0 ), &s6, at( 1.3, 1.4, 0.5 ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.1, TOL );
	checkVec( m.normal, 0.6, 0.8, 0.0, TOL );

	// centre inside the box, nearest face y = +1 (depths x 0.8, y 0.1, z 0.7): separation
	// -(0.1 + 0.5), normal +y
	m = collide( &box, at( 0, 0, 0 ), &s, at( 0.2, 0.9, -0.3 ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.6, TOL );
	checkVec( m.normal, 0, 1, 0, TOL );
	// box surface at y = 1, sphere surface at y = 0.4: midway 0.7
	checkVec( m.points[0].point, 0.2, 0.7, -0.3, TOL );

	// box turned 45 degrees about z: its vertical edge at (sqrt 2, 0) faces the sphere
	m = collide( &box, makeXf( 0, 0, 0, rotZ( 0.25 * CN_PI ) ), &s, at( sqrt( 2.0 ) + 0.4, 0, 0.2 ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.1, TOL );
	checkVec( m.normal, 1, 0, 0, TOL );

	// sphere first: flipped normal
	checkSwapped( &box, at( 0, 0, 0 ), &s, at( 0.2, 0.3, 1.4 ), 0.0 );

	// speculative
	m = collide( &box, at( 0, 0, 0 ), &s, at( 0, 0, 1.51 ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	m = collide( &box, at( 0, 0, 0 ), &s, at( 0, 0, 1.55 ), 0.02 );
	CHECK( m.pointCount == 0 );
}

// ---------------------------------------------------------------------------------------------
// box and capsule

static void testBoxCapsule( void )
{
	cnGeometry box = boxGeom( 1.0, 1.0, 1.0 );
	cnGeometry cap = capsuleGeom( 0.25, 0.5 );
	cnQuat alongX = rotY( 0.5 * CN_PI );

	// lying flat on the top face, core at height 1.24: two points at the core ends x = -0.3 and
	// 0.7, separation -0.01, points midway at z = 1 - 0.005
	cnTransform xfC = makeXf( 0.2, 0.1, 1.24, alongX );
	cnManifold m = collide( &box, at( 0, 0, 0 ), &cap, xfC, 0.02 );
	CHECK( m.pointCount == 2 );
	checkVec( m.normal, 0, 0, 1, TOL );
	int i = findPoint( &m, -0.3, 0.1, 0.995, TOL );
	int j = findPoint( &m, 0.7, 0.1, 0.995, TOL );
	CHECK( i >= 0 && j >= 0 && i != j );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	CHECK_NEAR( m.points[1].separation, -0.01, TOL );
	CHECK( idsUnique( &m ) );
	checkSwapped( &box, at( 0, 0, 0 ), &cap, xfC, 0.02 );
	cnManifold m2 = collide( &box, at( 0, 0, 0 ), &cap, makeXf( 0.2001, 0.1001, 1.2401, alongX ), 0.02 );
	CHECK( sameIds( &m, &m2 ) );

	// hanging over the edge x = 1: the core x in [0.3, 1.3] is clipped to [0.3, 1]
	m = collide( &box, at( 0, 0, 0 ), &cap, makeXf( 0.8, 0, 1.24, alongX ), 0.02 );
	CHECK( m.pointCount == 2 );
	findPoint( &m, 0.3, 0, 0.995, TOL );
	findPoint( &m, 1.0, 0, 0.995, TOL );

	// standing on its end: one point below the core's lower end
	m = collide( &box, at( 0, 0, 0 ), &cap, at( 0.3, 0.2, 1.0 + 0.5 + 0.25 - 0.02 ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.02, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );
	checkVec( m.points[0].point, 0.3, 0.2, 0.99, TOL );

	// speculative flat: gap 0.01 with maxDistance 0.02 gives two points at +0.01; gap 0.05 none
	m = collide( &box, at( 0, 0, 0 ), &cap, makeXf( 0, 0, 1.26, alongX ), 0.02 );
	CHECK( m.pointCount == 2 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	CHECK_NEAR( m.points[1].separation, 0.01, TOL );
	m = collide( &box, at( 0, 0, 0 ), &cap, makeXf( 0, 0, 1.30, alongX ), 0.02 );
	CHECK( m.pointCount == 0 );

	// along y beside the top edge (1, y, 1): core offset (0.3, 0, 0.4), distance 0.5, r 0.6
	cnGeometry fat = capsuleGeom( 0.6, 0.5 );
	m = collide( &box, at( 0, 0, 0 ), &fat, makeXf( 1.3, 0, 1.4, rotX( 0.5 * CN_PI ) ), 0.0 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.1, TOL );
	checkVec( m.normal, 0.6, 0, 0.8, TOL );

	// the core itself inside the box, 0.1 below the top face: depth 0.1 + r, two points
	m = collide( &box, at( 0, 0, 0 ), &cap, makeXf( 0.0, 0.0, 0.9, alongX ), 0.02 );
	CHECK( m.pointCount == 2 );
	checkVec( m.normal, 0, 0, 1, TOL );
	CHECK_NEAR( m.points[0].separation, -0.35, TOL );
	CHECK_NEAR( m.points[1].separation, -0.35, TOL );
	// box surface z = 1, capsule surface z = 0.65: midway 0.825
	findPoint( &m, -0.5, 0, 0.825, TOL );
	findPoint( &m, 0.5, 0, 0.825, TOL );

	// the core cuts the vertical edge (1, -1, z) of the box: core along (1, 1, 0)/sqrt 2 through
	// (1, -1, 0) - 0.05 n with n = (1, -1, 0)/sqrt 2. Along n the box reaches sqrt 2 and the core
	// sqrt 2 - 0.05: overlap 0.05; the faces x = 1 and y = -1 see the core 0.389 deep. Separation
	// -0.05 - r, normal n, one point midway between the edge and the capsule surface.
	cnGeometry thin = capsuleGeom( 0.1, 0.5 );
	double s2 = sqrt( 0.5 );
	cnQuat diag = cnMulQuat( rotZ( -0.25 * CN_PI ), rotX( -0.5 * CN_PI ) );
	m = collide( &box, at( 0, 0, 0 ), &thin, makeXf( 1.0 - 0.05 * s2, -1.0 + 0.05 * s2, 0.0, diag ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.15, TOL );
	checkVec( m.normal, s2, -s2, 0.0, TOL );
	checkVec( m.points[0].point, 1.0 - 0.075 * s2, -1.0 + 0.075 * s2, 0.0, TOL );

	// tilted by 0.1 rad about y with the lower end 0.01 into the top face: the lower end's
	// point at -0.01 and the upper end, 2 h sin 0.1 = 0.0998 higher, beyond maxDistance
	double th = 0.1;
	double zc = 1.0 + 0.25 - 0.01 + 0.5 * sin( th );
	m = collide( &box, at( 0, 0, 0 ), &cap, makeXf( 0, 0, zc, rotY( 0.5 * CN_PI - th ) ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );
	// the lower end is at x = -0.5 cos 0.1 (rotating z towards x by pi/2 - 0.1 puts +z at
	// (cos 0.1, 0, sin 0.1))
	findPoint( &m, -0.5 * cos( th ), 0, 0.995, TOL );
}

// ---------------------------------------------------------------------------------------------
// box and box

static void testBoxesFlat( void )
{
	// B (half 0.5) resting on A (half 1) with 0.01 overlap: B's four bottom vertices
	cnGeometry big = boxGeom( 1.0, 1.0, 1.0 );
	cnGeometry small = boxGeom( 0.5, 0.5, 0.5 );
	cnTransform xfB = at( 0.1, 0.2, 1.49 );
	cnManifold m = collide( &big, at( 0, 0, 0 ), &small, xfB, 0.02 );
	CHECK( m.pointCount == 4 );
	checkVec( m.normal, 0, 0, 1, TOL );
	for ( int k = 0; k < m.pointCount; ++k )
	{
		CHECK_NEAR( m.points[k].separation, -0.01, TOL );
	}
	findPoint( &m, -0.4, -0.3, 0.995, TOL );
	findPoint( &m, 0.6, -0.3, 0.995, TOL );
	findPoint( &m, 0.6, 0.7, 0.995, TOL );
	findPoint( &m, -0.4, 0.7, 0.995, TOL );
	CHECK( idsUnique( &m ) );

	// B first: the same points with the normal flipped
	checkSwapped( &big, at( 0, 0, 0 ), &small, xfB, 0.02 );

	// a tiny move keeps the ids
	cnManifold m2 = collide( &big, at( 0, 0, 0 ), &small, at( 0.1 + 1e-6, 0.2 - 1e-6, 1.49 + 1e-6 ), 0.02 );
	CHECK( sameIds( &m, &m2 ) );

	// the same pair far from the origin and turned as a whole gives the same contact relative to A
	cnQuat q = cnNormalizeQuat( ( cnQuat ){ 0.9, 0.2, -0.3, 0.1 } );
	cnTransform xfA = makeXf( 1000.0, -2000.0, 500.0, q );
	cnTransform xfB2 = cnMulTransforms( xfA, xfB );
	m2 = collide( &big, xfA, &small, xfB2, 0.02 );
	CHECK( m2.pointCount == 4 );
	cnVec3 n = cnRotate( q, cnV3( 0, 0, 1 ) );
	// positions of order 1e3 carry rounding of about 1e-13 per operation
	checkVec( m2.normal, n.x, n.y, n.z, 1e-12 );
	for ( int k = 0; k < m2.pointCount; ++k )
	{
		CHECK_NEAR( m2.points[k].separation, -0.01, 1e-9 );
	}
	cnVec3 p = cnTransformPoint( xfA, cnV3( -0.4, -0.3, 0.995 ) );
	findPoint( &m2, p.x, p.y, p.z, 1e-9 );
	CHECK( sameIds( &m, &m2 ) );
}

static void testBoxesFlush( void )
{
	// two equal cubes exactly on top of each other, 0.01 overlap: four corner points
	cnGeometry cube = boxGeom( 0.5, 0.5, 0.5 );
	cnManifold m = collide( &cube, at( 0, 0, 0 ), &cube, at( 0, 0, 0.99 ), 0.02 );
	CHECK( m.pointCount == 4 );
	checkVec( m.normal, 0, 0, 1, TOL );
	findPoint( &m, 0.5, 0.5, 0.495, TOL );
	findPoint( &m, -0.5, 0.5, 0.495, TOL );
	findPoint( &m, -0.5, -0.5, 0.495, TOL );
	findPoint( &m, 0.5, -0.5, 0.495, TOL );
	for ( int k = 0; k < m.pointCount; ++k )
	{
		CHECK_NEAR( m.points[k].separation, -0.01, TOL );
	}
	// a sideways wobble far below the size of the boxes keeps the same four features
	cnManifold m2 = collide( &cube, at( 0, 0, 0 ), &cube, at( 2e-8, -3e-8, 0.99 ), 0.02 );
	CHECK( sameIds( &m, &m2 ) );
	m2 = collide( &cube, at( 0, 0, 0 ), &cube, makeXf( -1e-8, 1e-8, 0.99, rotZ( 1e-9 ) ), 0.02 );
	CHECK( sameIds( &m, &m2 ) );
}

static void testBoxesRotated( void )
{
	// B (half 0.5) turned 45 degrees about z on A (half 1 x 1 x 0.5): B's bottom face is a
	// diamond with vertices sqrt(0.5) from its centre, all inside A's top face
	cnGeometry plate = boxGeom( 1.0, 1.0, 0.5 );
	cnGeometry cube = boxGeom( 0.5, 0.5, 0.5 );
	double r = sqrt( 0.5 );
	cnManifold m = collide( &plate, at( 0, 0, 0 ), &cube, makeXf( 0, 0, 0.99, rotZ( 0.25 * CN_PI ) ), 0.02 );
	CHECK( m.pointCount == 4 );
	checkVec( m.normal, 0, 0, 1, TOL );
	findPoint( &m, r, 0, 0.495, TOL );
	findPoint( &m, -r, 0, 0.495, TOL );
	findPoint( &m, 0, r, 0.495, TOL );
	findPoint( &m, 0, -r, 0.495, TOL );

	// equal cubes, one turned 45 degrees: the overlap is a regular octagon with vertices
	// (0.5, sqrt(0.5) - 0.5) and its images, circumradius R^2 = 0.25 + (sqrt(0.5) - 0.5)^2.
	// Four of the eight are kept; the largest quad in a regular octagon joins alternate
	// vertices and has area 2 R^2.
	m = collide( &cube, at( 0, 0, 0 ), &cube, makeXf( 0, 0, 0.99, rotZ( 0.25 * CN_PI ) ), 0.02 );
	CHECK( m.pointCount == 4 );
	checkVec( m.normal, 0, 0, 1, TOL );
	double R2 = 0.25 + ( r - 0.5 ) * ( r - 0.5 );
	for ( int k = 0; k < m.pointCount; ++k )
	{
		CHECK_NEAR( m.points[k].separation, -0.01, TOL );
		cnVec3 p = m.points[k].point;
		CHECK_NEAR( p.x * p.x + p.y * p.y, R2, 1e-12 );
		CHECK_NEAR( p.z, 0.495, TOL );
	}
	// area of the kept quad: order the points by angle and use the shoelace formula
	double ang[4];
	int order[4] = { 0, 1, 2, 3 };
	for ( int k = 0; k < 4; ++k )
	{
		ang[k] = atan2( m.points[k].point.y, m.points[k].point.x );
	}
	for ( int a = 1; a < 4; ++a )
	{
		for ( int b = a; b > 0 && ang[order[b]] < ang[order[b - 1]]; --b )
		{
			int t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	}
	double area = 0.0;
	for ( int k = 0; k < 4; ++k )
	{
		cnVec3 p = m.points[order[k]].point, q = m.points[order[( k + 1 ) % 4]].point;
		area += 0.5 * ( p.x * q.y - q.x * p.y );
	}
	CHECK_NEAR( area, 2.0 * R2, 1e-12 );
	CHECK( idsUnique( &m ) );
	// the choice of four among eight survives a small wobble
	cnManifold m2 =
		collide( &cube, at( 0, 0, 0 ), &cube, makeXf( 1e-7, -2e-7, 0.99 + 1e-7, rotZ( 0.25 * CN_PI + 1e-7 ) ), 0.02 );
	CHECK( sameIds( &m, &m2 ) );
	m2 = collide( &cube, at( 0, 0, 0 ), &cube, makeXf( 0, 0, 0.99, cnMulQuat( rotX( 1e-6 ), rotZ( 0.25 * CN_PI ) ) ),
				  0.02 );
	CHECK( sameIds( &m, &m2 ) );
}

static void testBoxesEdge( void )
{
	// A turned 45 degrees about x has a top edge along x at height sqrt(0.5); B turned 45
	// degrees about y has a bottom edge along y. They cross above the origin with overlap 0.02.
	cnGeometry cube = boxGeom( 0.5, 0.5, 0.5 );
	double r = sqrt( 0.5 );
	cnTransform xfA = makeXf( 0, 0, 0, rotX( 0.25 * CN_PI ) );
	cnTransform xfB = makeXf( 0, 0, 2.0 * r - 0.02, rotY( 0.25 * CN_PI ) );
	cnManifold m = collide( &cube, xfA, &cube, xfB, 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.02, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );
	checkVec( m.points[0].point, 0, 0, r - 0.01, TOL );
	checkSwapped( &cube, xfA, &cube, xfB, 0.02 );

	// the crossing moved along both edges keeps its id
	cnManifold m2 =
		collide( &cube, makeXf( 0.001, 0, 0, xfA.q ), &cube, makeXf( 0, 0.002, 2.0 * r - 0.0201, xfB.q ), 0.02 );
	CHECK( m2.pointCount == 1 );
	CHECK( sameIds( &m, &m2 ) );

	// separated edges, gap 0.01 (speculative), then 0.05 (none)
	m = collide( &cube, xfA, &cube, makeXf( 0, 0, 2.0 * r + 0.01, xfB.q ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	m = collide( &cube, xfA, &cube, makeXf( 0, 0, 2.0 * r + 0.05, xfB.q ), 0.02 );
	CHECK( m.pointCount == 0 );
}

static void testBoxesOnEdge( void )
{
	// B turned 45 degrees about x rests on its lower edge (along x, x in [-0.5, 0.5]) on A's
	// top face with 0.01 overlap: two points at the edge's ends
	cnGeometry big = boxGeom( 1.0, 1.0, 1.0 );
	cnGeometry cube = boxGeom( 0.5, 0.5, 0.5 );
	double r = sqrt( 0.5 );
	cnManifold m = collide( &big, at( 0, 0, 0 ), &cube, makeXf( 0, 0, 1.0 + r - 0.01, rotX( 0.25 * CN_PI ) ), 0.02 );
	CHECK( m.pointCount == 2 );
	checkVec( m.normal, 0, 0, 1, TOL );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	CHECK_NEAR( m.points[1].separation, -0.01, TOL );
	findPoint( &m, 0.5, 0, 0.995, TOL );
	findPoint( &m, -0.5, 0, 0.995, TOL );

	// tilted about x by 0.2 rad only: the lower long edge touches, the opposite bottom edge is
	// 2 * 0.5 * sin 0.2 = 0.199 higher and out of reach
	double th = 0.2;
	double zc = 1.0 + 0.5 * ( cos( th ) + sin( th ) ) - 0.01;
	m = collide( &big, at( 0, 0, 0 ), &cube, makeXf( 0, 0, zc, rotX( th ) ), 0.02 );
	CHECK( m.pointCount == 2 );
	checkVec( m.normal, 0, 0, 1, TOL );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	CHECK_NEAR( m.points[1].separation, -0.01, TOL );
}

static void testBoxesSpeculative( void )
{
	cnGeometry cube = boxGeom( 0.5, 0.5, 0.5 );
	cnManifold m = collide( &cube, at( 0, 0, 0 ), &cube, at( 0.3, 0, 1.01 ), 0.02 );
	CHECK( m.pointCount == 4 );
	for ( int k = 0; k < m.pointCount; ++k )
	{
		CHECK_NEAR( m.points[k].separation, 0.01, TOL );
		// midway: z = 0.5 + 0.005
		CHECK_NEAR( m.points[k].point.z, 0.505, TOL );
	}
	findPoint( &m, -0.2, 0.5, 0.505, TOL );
	findPoint( &m, 0.5, -0.5, 0.505, TOL );
	m = collide( &cube, at( 0, 0, 0 ), &cube, at( 0.3, 0, 1.05 ), 0.02 );
	CHECK( m.pointCount == 0 );
	// side by side along y
	m = collide( &cube, at( 0, 0, 0 ), &cube, at( 0, 1.01, 0 ), 0.02 );
	CHECK( m.pointCount == 4 );
	checkVec( m.normal, 0, 1, 0, TOL );
}

// Random pairs: whatever the configuration, each point must lie midway between the two
// surfaces: point -/+ separation/2 * normal are on A's and B's surfaces. The distance of a point
// to a box surface is computed independently here.
static double boxSurfaceDistance( cnVec3 hl, cnTransform xf, cnVec3 p )
{
	cnVec3 q = cnInvTransformPoint( xf, p );
	cnVec3 d = cnSub( cnAbs( q ), hl );
	cnVec3 outside = cnMax( d, cnVec3_zero );
	double inside = d.x > d.y ? ( d.x > d.z ? d.x : d.z ) : ( d.y > d.z ? d.y : d.z );
	return inside < 0.0 ? inside : cnLength( outside );
}

static unsigned int rngState = 12345u;
static double rnd( void )
{
	// xorshift32, deterministic
	rngState ^= rngState << 13;
	rngState ^= rngState >> 17;
	rngState ^= rngState << 5;
	return (double)rngState / 4294967296.0;
}

static cnQuat randomQuat( void )
{
	cnQuat q = { rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5 };
	return cnNormalizeQuat( q );
}

static void testBoxesRandom( void )
{
	int bad = 0, contacts = 0;
	for ( int k = 0; k < 2000; ++k )
	{
		cnGeometry a = boxGeom( 0.2 + rnd(), 0.2 + rnd(), 0.2 + rnd() );
		cnGeometry b = boxGeom( 0.2 + rnd(), 0.2 + rnd(), 0.2 + rnd() );
		cnTransform xfA = makeXf( rnd(), rnd(), rnd(), randomQuat() );
		cnTransform xfB = makeXf( 2.0 * rnd(), 2.0 * rnd(), 2.0 * rnd(), randomQuat() );
		cnManifold m = collide( &a, xfA, &b, xfB, 0.05 );
		if ( m.pointCount > 0 )
		{
			contacts++;
		}
		CHECK( m.pointCount >= 0 && m.pointCount <= 4 );
		if ( m.pointCount > 0 && fabs( cnLength( m.normal ) - 1.0 ) > 1e-12 )
		{
			bad++;
		}
		for ( int i = 0; i < m.pointCount; ++i )
		{
			cnManifoldPoint* mp = m.points + i;
			cnVec3 pA = cnMulSub( mp->point, 0.5 * mp->separation, m.normal );
			cnVec3 pB = cnMulAdd( mp->point, 0.5 * mp->separation, m.normal );
			double dA = boxSurfaceDistance( a.halfExtents, xfA, pA );
			double dB = boxSurfaceDistance( b.halfExtents, xfB, pB );
			// Overlapping: one of the two points is a box feature (exact up to rounding), the other
			// its projection on a face plane, inside the face up to the clip snap (1e-4 of the
			// smallest half extent, below 1.2e-4 here), so both lie on their surfaces within 2e-4.
			// Separated: an edge pair whose closest line points fall outside the edges reports
			// the separating-axis distance, a lower bound, from points on the edge lines; then
			// only check that neither point is inside the other box.
			double tol = 2e-4;
			bool ok = mp->separation <= 0.05 + 1e-12;
			if ( mp->separation <= 0.0 )
			{
				ok = ok && fabs( dA ) <= tol && fabs( dB ) <= tol;
			}
			else
			{
				ok = ok && dA >= -tol && dB >= -tol;
			}
			if ( ok == false )
			{
				if ( bad < 5 )
				{
					fprintf( stderr, "  pair %d point %d/%d: sep %g, off A %g, off B %g, id %x\n", k, i, m.pointCount,
							 mp->separation, dA, dB, mp->id );
				}
				bad++;
			}
		}
		if ( idsUnique( &m ) == false )
		{
			bad++;
		}
	}
	CHECK( bad == 0 );
	// the random placement makes roughly half the pairs touch; make sure the test is not empty
	CHECK( contacts > 200 );
	printf( "  %d contacts\n", contacts );
}

// Brute-force distances for the rounded pairs. The distance of a point to a convex set is convex,
// and so is its composition with a segment's parametrisation, and the partial minimum over one
// segment of the distance between two segments: ternary search converges to the minimum.
// 200 steps shrink the bracket by (2/3)^200, far below rounding.
static double pointBoxDistance( cnVec3 h, cnVec3 p )
{
	cnVec3 q = cnV3( fmax( -h.x, fmin( h.x, p.x ) ), fmax( -h.y, fmin( h.y, p.y ) ), fmax( -h.z, fmin( h.z, p.z ) ) );
	return cnDistance( p, q );
}

static double segmentBoxDistance( cnVec3 h, cnVec3 p0, cnVec3 p1 )
{
	double lo = 0.0, hi = 1.0;
	for ( int k = 0; k < 200; ++k )
	{
		double t1 = lo + ( hi - lo ) / 3.0, t2 = hi - ( hi - lo ) / 3.0;
		if ( pointBoxDistance( h, cnLerp( p0, p1, t1 ) ) < pointBoxDistance( h, cnLerp( p0, p1, t2 ) ) )
		{
			hi = t2;
		}
		else
		{
			lo = t1;
		}
	}
	return pointBoxDistance( h, cnLerp( p0, p1, 0.5 * ( lo + hi ) ) );
}

static double pointSegmentDistance( cnVec3 p, cnVec3 a, cnVec3 b )
{
	cnVec3 ab = cnSub( b, a );
	double t = cnDot( cnSub( p, a ), ab ) / cnDot( ab, ab );
	t = fmax( 0.0, fmin( 1.0, t ) );
	return cnDistance( p, cnLerp( a, b, t ) );
}

static double segmentSegmentDistance( cnVec3 a0, cnVec3 a1, cnVec3 b0, cnVec3 b1 )
{
	double lo = 0.0, hi = 1.0;
	for ( int k = 0; k < 200; ++k )
	{
		double t1 = lo + ( hi - lo ) / 3.0, t2 = hi - ( hi - lo ) / 3.0;
		if ( pointSegmentDistance( cnLerp( a0, a1, t1 ), b0, b1 ) <
			 pointSegmentDistance( cnLerp( a0, a1, t2 ), b0, b1 ) )
		{
			hi = t2;
		}
		else
		{
			lo = t1;
		}
	}
	return pointSegmentDistance( cnLerp( a0, a1, 0.5 * ( lo + hi ) ), b0, b1 );
}

// Random boxes against random capsules with the cores apart: the deepest point's separation is
// the exact distance less the radius, and no point claims more overlap than there is.
// Tolerance 1e-9: the ternary search and the closed-form minimisation agree to rounding of the
// square root near the minimum, about 1e-8 relative in t but second order in the distance.
static void testBoxCapsuleRandom( void )
{
	int bad = 0, contacts = 0, cases = 0, pairs = 0;
	double maxDistance = 0.05;
	for ( int k = 0; k < 3000; ++k )
	{
		cnGeometry box = boxGeom( 0.2 + rnd(), 0.2 + rnd(), 0.2 + rnd() );
		cnGeometry cap = capsuleGeom( 0.05 + 0.4 * rnd(), 0.1 + rnd() );
		cnTransform xfA = makeXf( rnd(), rnd(), rnd(), randomQuat() );
		cnTransform xfB = makeXf( 2.0 * rnd(), 2.0 * rnd(), 2.0 * rnd(), randomQuat() );
		// every fourth pair lies nearly flat on a face of the box, the case that gives two points
		if ( k % 4 == 0 )
		{
			cnQuat flat = cnMulQuat( rotZ( 6.0 * rnd() ), rotY( 0.5 * CN_PI + 0.2 * ( rnd() - 0.5 ) ) );
			double hz = box.halfExtents.z + cap.radius + 0.1 * ( rnd() - 0.7 );
			xfB = cnMulTransforms( xfA, makeXf( rnd() - 0.5, rnd() - 0.5, hz, flat ) );
		}
		cnTransform local = cnInvMulTransforms( xfA, xfB );
		cnVec3 u = cnRotate( local.q, cnV3( 0, 0, 1 ) );
		cnVec3 p0 = cnMulSub( local.p, cap.halfHeight, u ), p1 = cnMulAdd( local.p, cap.halfHeight, u );
		double core = segmentBoxDistance( box.halfExtents, p0, p1 );
		if ( core < 1e-3 )
		{
			continue;
		}
		cases++;
		double trueSep = core - cap.radius;
		cnManifold m = collide( &box, xfA, &cap, xfB, maxDistance );
		if ( trueSep > maxDistance + 1e-9 )
		{
			bad += m.pointCount != 0;
			continue;
		}
		if ( trueSep < maxDistance - 1e-9 && m.pointCount == 0 )
		{
			bad++;
			continue;
		}
		if ( m.pointCount == 0 )
		{
			continue;
		}
		contacts++;
		pairs += m.pointCount == 2;
		double minSep = 1e300;
		for ( int i = 0; i < m.pointCount; ++i )
		{
			minSep = fmin( minSep, m.points[i].separation );
			bad += m.points[i].separation < trueSep - 1e-9;
			// the box side of the point is on the box surface
			cnVec3 pA = cnMulSub( m.points[i].point, 0.5 * m.points[i].separation, m.normal );
			bad += fabs( boxSurfaceDistance( box.halfExtents, xfA, pA ) ) > 1e-9;
		}
		if ( fabs( minSep - trueSep ) > 1e-9 )
		{
			if ( bad < 5 )
			{
				fprintf( stderr, "  box-capsule %d: min separation %.12g, exact %.12g (%d points)\n", k, minSep,
						 trueSep, m.pointCount );
			}
			bad++;
		}
	}
	CHECK( bad == 0 );
	CHECK( contacts > 300 );
	CHECK( pairs > 100 );
	printf( "  %d cases, %d contacts, %d with two points\n", cases, contacts, pairs );
}

// Random capsule pairs, about a third nearly parallel. The deepest separation is the exact
// distance of the cores less both radii. Two-point manifolds of slightly skew capsules measure
// both ends along the common normal, which is exact at the closest points; when those lie just
// beyond an end of A's core the ends miss them by second-order amounts (sin^2 of an angle below
// 0.02 times the length), hence 1e-3 for those.
static void testCapsulesRandom( void )
{
	int bad = 0, contacts = 0, pairs = 0;
	double maxDistance = 0.05;
	for ( int k = 0; k < 2000; ++k )
	{
		cnGeometry a = capsuleGeom( 0.05 + 0.4 * rnd(), 0.1 + rnd() );
		cnGeometry b = capsuleGeom( 0.05 + 0.4 * rnd(), 0.1 + rnd() );
		cnTransform xfA = makeXf( rnd(), rnd(), rnd(), randomQuat() );
		cnTransform xfB = makeXf( 2.0 * rnd(), 2.0 * rnd(), 2.0 * rnd(), randomQuat() );
		if ( k % 3 == 0 )
		{
			// nearly parallel, side by side
			cnQuat tilt = cnMulQuat( rotX( 0.03 * ( rnd() - 0.5 ) ), rotY( 0.03 * ( rnd() - 0.5 ) ) );
			double gap = a.radius + b.radius + 0.1 * ( rnd() - 0.7 );
			xfB = cnMulTransforms( xfA, makeXf( gap, 0.0, 2.0 * ( rnd() - 0.5 ), tilt ) );
		}
		cnVec3 ua = cnRotate( xfA.q, cnV3( 0, 0, 1 ) ), ub = cnRotate( xfB.q, cnV3( 0, 0, 1 ) );
		cnVec3 a0 = cnMulSub( xfA.p, a.halfHeight, ua ), a1 = cnMulAdd( xfA.p, a.halfHeight, ua );
		cnVec3 b0 = cnMulSub( xfB.p, b.halfHeight, ub ), b1 = cnMulAdd( xfB.p, b.halfHeight, ub );
		double core = segmentSegmentDistance( a0, a1, b0, b1 );
		if ( core < 1e-3 )
		{
			continue;
		}
		double trueSep = core - a.radius - b.radius;
		cnManifold m = collide( &a, xfA, &b, xfB, maxDistance );
		if ( trueSep > maxDistance + 1e-9 )
		{
			bad += m.pointCount != 0;
			continue;
		}
		if ( m.pointCount == 0 )
		{
			bad += trueSep < maxDistance - 1e-9;
			continue;
		}
		contacts++;
		pairs += m.pointCount == 2;
		double minSep = 1e300;
		for ( int i = 0; i < m.pointCount; ++i )
		{
			minSep = fmin( minSep, m.points[i].separation );
		}
		double tol = m.pointCount == 2 ? 1e-3 : 1e-9;
		if ( minSep < trueSep - tol || minSep > trueSep + tol )
		{
			if ( bad < 5 )
			{
				fprintf( stderr, "  capsules %d: min separation %.12g, exact %.12g (%d points)\n", k, minSep, trueSep,
						 m.pointCount );
			}
			bad++;
		}
	}
	CHECK( bad == 0 );
	CHECK( contacts > 300 );
	CHECK( pairs > 100 );
	printf( "  %d contacts, %d with two points\n", contacts, pairs );
}

// ---------------------------------------------------------------------------------------------
// plane

static void testPlaneSphereBox( void )
{
	cnGeometry ground = planeGeom( cnV3( 0, 0, 1 ), 0.0 );
	cnGeometry s = sphereGeom( 0.5 );
	cnManifold m = collide( &ground, at( 0, 0, 0 ), &s, at( 1, 2, 0.4 ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.1, TOL );
	checkVec( m.normal, 0, 0, 1, TOL );
	checkVec( m.points[0].point, 1, 2, -0.05, TOL );

	// a plane z = 1 in a frame turned 90 degrees about x: the world normal is (0, -1, 0) and the
	// surface is y = -1; a unit sphere at y = -1.5 overlaps by 0.5
	cnGeometry wall = planeGeom( cnV3( 0, 0, 1 ), 1.0 );
	cnGeometry unit = sphereGeom( 1.0 );
	m = collide( &wall, makeXf( 0, 0, 5, rotX( 0.5 * CN_PI ) ), &unit, at( 0, -1.5, 0 ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.5, TOL );
	checkVec( m.normal, 0, -1, 0, TOL );

	// box lying flat 0.01 deep: its four bottom vertices
	cnGeometry box = boxGeom( 0.5, 0.4, 0.3 );
	m = collide( &ground, at( 0, 0, 0 ), &box, at( 2, 0, 0.29 ), 0.02 );
	CHECK( m.pointCount == 4 );
	checkVec( m.normal, 0, 0, 1, TOL );
	for ( int k = 0; k < 4; ++k )
	{
		CHECK_NEAR( m.points[k].separation, -0.01, TOL );
	}
	findPoint( &m, 1.5, -0.4, -0.005, TOL );
	findPoint( &m, 2.5, 0.4, -0.005, TOL );
	CHECK( idsUnique( &m ) );
	checkSwapped( &ground, at( 0, 0, 0 ), &box, at( 2, 0, 0.29 ), 0.02 );

	// box tilted 0.3 rad about x: its two lowest vertices (local y = z = -0.5, cube of half 0.5)
	// sit 0.5 (sin + cos) below the centre, the next ones 0.5 (cos - sin) below: 0.33 higher,
	// beyond reach
	cnGeometry cube = boxGeom( 0.5, 0.5, 0.5 );
	double th = 0.3;
	double zc = 0.5 * ( sin( th ) + cos( th ) ) - 0.01;
	m = collide( &ground, at( 0, 0, 0 ), &cube, makeXf( 0, 0, zc, rotX( th ) ), 0.02 );
	CHECK( m.pointCount == 2 );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	CHECK_NEAR( m.points[1].separation, -0.01, TOL );
	// local (x, -0.5, -0.5) turned by th about x: y = -0.5 cos + 0.5 sin
	double y = -0.5 * cos( th ) + 0.5 * sin( th );
	findPoint( &m, 0.5, y, -0.005, TOL );
	findPoint( &m, -0.5, y, -0.005, TOL );

	// speculative box: gap 0.01 in reach, 0.05 not
	m = collide( &ground, at( 0, 0, 0 ), &cube, at( 0, 0, 0.51 ), 0.02 );
	CHECK( m.pointCount == 4 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	m = collide( &ground, at( 0, 0, 0 ), &cube, at( 0, 0, 0.55 ), 0.02 );
	CHECK( m.pointCount == 0 );

	// two planes never collide
	m = collide( &ground, at( 0, 0, 0 ), &wall, at( 0, 0, 0 ), 0.02 );
	CHECK( m.pointCount == 0 );
}

static void testPlaneCapsule( void )
{
	cnGeometry ground = planeGeom( cnV3( 0, 0, 1 ), 0.0 );
	cnGeometry cap = capsuleGeom( 0.25, 0.5 );
	// lying flat: both cap spheres touch, 0.01 deep, below the core ends x = +-0.5
	cnManifold m = collide( &ground, at( 0, 0, 0 ), &cap, makeXf( 0, 0, 0.24, rotY( 0.5 * CN_PI ) ), 0.02 );
	CHECK( m.pointCount == 2 );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	CHECK_NEAR( m.points[1].separation, -0.01, TOL );
	findPoint( &m, 0.5, 0, -0.005, TOL );
	findPoint( &m, -0.5, 0, -0.005, TOL );
	// standing: one point
	m = collide( &ground, at( 0, 0, 0 ), &cap, at( 0, 0, 0.74 ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	checkVec( m.points[0].point, 0, 0, -0.005, TOL );
}

static void testPlaneCylinder( void )
{
	cnGeometry ground = planeGeom( cnV3( 0, 0, 1 ), 0.0 );
	double r = 0.3, h = 0.6;
	cnGeometry cyl = cylinderGeom( r, h );

	// upright, 0.01 deep: four bottom rim points at 90 degrees along the cylinder's own x and y
	cnManifold m = collide( &ground, at( 1, 1, 0 ), &cyl, at( 0, 0, h - 0.01 ), 0.02 );
	CHECK( m.pointCount == 4 );
	checkVec( m.normal, 0, 0, 1, TOL );
	for ( int k = 0; k < 4; ++k )
	{
		CHECK_NEAR( m.points[k].separation, -0.01, TOL );
	}
	findPoint( &m, r, 0, -0.005, TOL );
	findPoint( &m, 0, r, -0.005, TOL );
	findPoint( &m, -r, 0, -0.005, TOL );
	findPoint( &m, 0, -r, -0.005, TOL );
	CHECK( idsUnique( &m ) );
	// turned about its axis the points turn with it and keep their ids
	cnManifold m2 = collide( &ground, at( 1, 1, 0 ), &cyl, makeXf( 0, 0, h - 0.01, rotZ( 0.3 ) ), 0.02 );
	CHECK( sameIds( &m, &m2 ) );
	findPoint( &m2, r * cos( 0.3 ), r * sin( 0.3 ), -0.005, TOL );
	checkSwapped( &ground, at( 1, 1, 0 ), &cyl, at( 0, 0, h - 0.01 ), 0.02 );

	// on its side (axis along y), 0.01 deep: one point per cap rim, below the cap centres
	m = collide( &ground, at( 0, 0, 0 ), &cyl, makeXf( 0, 0, r - 0.01, rotX( 0.5 * CN_PI ) ), 0.02 );
	CHECK( m.pointCount == 2 );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	CHECK_NEAR( m.points[1].separation, -0.01, TOL );
	findPoint( &m, 0, h, -0.005, TOL );
	findPoint( &m, 0, -h, -0.005, TOL );

	// tilted by 0.4 rad about x: the lowest point of the lower rim is h cos + r sin below the
	// centre; the upper rim's lowest point is 2 h cos = 1.1 higher, out of reach
	double th = 0.4;
	double drop = h * cos( th ) + r * sin( th );
	m = collide( &ground, at( 0, 0, 0 ), &cyl, makeXf( 0, 0, drop - 0.01, rotX( th ) ), 0.02 );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.01, TOL );
	// local (0, -r, -h) turned by th about x: y = -r cos + h sin
	checkVec( m.points[0].point, 0, -r * cos( th ) + h * sin( th ), -0.005, TOL );

	// speculative upright: gap 0.01 in reach, 0.05 not
	m = collide( &ground, at( 0, 0, 0 ), &cyl, at( 0, 0, h + 0.01 ), 0.02 );
	CHECK( m.pointCount == 4 );
	CHECK_NEAR( m.points[0].separation, 0.01, TOL );
	m = collide( &ground, at( 0, 0, 0 ), &cyl, at( 0, 0, h + 0.05 ), 0.02 );
	CHECK( m.pointCount == 0 );
}

// Pairs with a cylinder go to the general convex routine (collide_convex.c); a sphere resting on
// the flat top of a cylinder has an exact answer whatever that routine does inside. GJK/EPA
// converge to about 1e-9 here, hence the looser tolerance.
static void testCylinderDispatch( void )
{
	cnGeometry cyl = cylinderGeom( 0.5, 0.5 );
	cnGeometry s = sphereGeom( 0.25 );
	cnManifold m = collide( &cyl, at( 0, 0, 0 ), &s, at( 0.1, 0, 0.74 ), 0.02 );
	CHECK( m.pointCount >= 1 );
	if ( m.pointCount >= 1 )
	{
		CHECK_NEAR( m.points[0].separation, -0.01, 1e-6 );
		checkVec( m.normal, 0, 0, 1, 1e-6 );
	}
	m = collide( &s, at( 0.1, 0, 0.74 ), &cyl, at( 0, 0, 0 ), 0.02 );
	CHECK( m.pointCount >= 1 );
	if ( m.pointCount >= 1 )
	{
		checkVec( m.normal, 0, 0, -1, 1e-6 );
	}
}

// Same inputs, same bits.
static void testDeterminism( void )
{
	cnGeometry cube = boxGeom( 0.5, 0.5, 0.5 );
	cnTransform xfA = makeXf( 0.1, 0.2, 0.3, cnNormalizeQuat( ( cnQuat ){ 0.9, 0.1, 0.2, 0.3 } ) );
	cnTransform xfB = makeXf( 0.3, 0.1, 1.1, cnNormalizeQuat( ( cnQuat ){ 0.8, -0.3, 0.2, 0.1 } ) );
	cnManifold m1 = collide( &cube, xfA, &cube, xfB, 0.02 );
	cnManifold m2 = collide( &cube, xfA, &cube, xfB, 0.02 );
	CHECK( m1.pointCount == m2.pointCount );
	CHECK( memcmp( &m1.normal, &m2.normal, sizeof( cnVec3 ) ) == 0 );
	for ( int k = 0; k < m1.pointCount; ++k )
	{
		CHECK( memcmp( &m1.points[k].point, &m2.points[k].point, sizeof( cnVec3 ) ) == 0 );
		CHECK( m1.points[k].separation == m2.points[k].separation );
		CHECK( m1.points[k].id == m2.points[k].id );
	}
}

int main( void )
{
	RUN_TEST( testSpheres );
	RUN_TEST( testCapsuleSphere );
	RUN_TEST( testCapsules );
	RUN_TEST( testBoxSphere );
	RUN_TEST( testBoxCapsule );
	RUN_TEST( testBoxesFlat );
	RUN_TEST( testBoxesFlush );
	RUN_TEST( testBoxesRotated );
	RUN_TEST( testBoxesEdge );
	RUN_TEST( testBoxesOnEdge );
	RUN_TEST( testBoxesSpeculative );
	RUN_TEST( testBoxesRandom );
	RUN_TEST( testBoxCapsuleRandom );
	RUN_TEST( testCapsulesRandom );
	RUN_TEST( testPlaneSphereBox );
	RUN_TEST( testPlaneCapsule );
	RUN_TEST( testPlaneCylinder );
	RUN_TEST( testCylinderDispatch );
	RUN_TEST( testDeterminism );
	return TEST_SUMMARY();
}
