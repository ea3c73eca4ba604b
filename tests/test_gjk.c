// SPDX-License-Identifier: MIT
// GJK distance, EPA depth and the general convex manifold (cnCollideConvex), checked against
// distances and contact points derived by hand for simple placements.
//
// Tolerances: GJK stops when its bounds on the distance agree within 1e-10 of the pair size, so
// distances between flat or point-like features are checked to 1e-9 (rounding is far below).
// EPA is exact on flat faces (same 1e-9) and stops within 1e-8 of the pair size on curved ones,
// or when its vertex budget is spent: curved depths are checked to 1e-6.
#include "collision/collision.h"
#include "collision/gjk.h"
#include "test.h"
#include "test_geometry.h"
#include "test_random.h"

#include <stdint.h>

// The placement at (x, y, z) turned by angle about axis (any length).
static cnTransform cnXfRot( double x, double y, double z, cnVec3 axis, double angle )
{
	return makeXf( x, y, z, cnQuatFromAxisAngle( cnNormalize( axis ), angle ) );
}

#define CHECK_VEC( v, ex, ey, ez, tol )                                                                               \
	do                                                                                                                 \
	{                                                                                                                  \
		CHECK_NEAR( ( v ).x, ( ex ), ( tol ) );                                                                        \
		CHECK_NEAR( ( v ).y, ( ey ), ( tol ) );                                                                        \
		CHECK_NEAR( ( v ).z, ( ez ), ( tol ) );                                                                        \
	} while ( 0 )

// ---------------------------------------------------------------------------------------------
// GJK distances

static void test_sphere_sphere_distance( void )
{
	cnGeometry a = sphereGeom( 0.5 ), b = sphereGeom( 0.3 );
	// centres 2 apart along x, far from the origin: distance 2 - 0.5 - 0.3
	cnTransform xfA = cnXfRot( 1000.0, 2.0, 3.0, cnV3( 1, 2, 3 ), 0.7 );
	cnTransform xfB = at( 1002.0, 2.0, 3.0 );
	cnDistanceOutput o = cnShapeDistance( &a, xfA, &b, xfB );
	CHECK( o.overlap == false );
	CHECK_NEAR( o.distance, 1.2, 1e-9 );
	CHECK_VEC( o.normal, 1.0, 0.0, 0.0, 1e-9 );
	CHECK_VEC( o.pointA, 1000.5, 2.0, 3.0, 1e-9 );
	CHECK_VEC( o.pointB, 1001.7, 2.0, 3.0, 1e-9 );
}

static void test_box_box_distance( void )
{
	cnGeometry a = boxGeom( 1.0, 1.0, 1.0 ), b = boxGeom( 0.5, 0.5, 0.5 );

	// along x: faces at x = 1 and x = 3 - 0.5
	cnDistanceOutput o = cnShapeDistance( &a, at( 0, 0, 0 ), &b, at( 3.0, 0.2, -0.1 ) );
	CHECK_NEAR( o.distance, 1.5, 1e-9 );
	CHECK_VEC( o.normal, 1.0, 0.0, 0.0, 1e-9 );
	CHECK_NEAR( o.pointA.x, 1.0, 1e-9 );
	CHECK_NEAR( o.pointB.x, 2.5, 1e-9 );

	// diagonal: corner (1,1,1) to corner (2.5,2.5,2.5), distance 1.5 sqrt(3)
	o = cnShapeDistance( &a, at( 0, 0, 0 ), &b, at( 3.0, 3.0, 3.0 ) );
	double s = 1.0 / sqrt( 3.0 );
	CHECK_NEAR( o.distance, 1.5 * sqrt( 3.0 ), 1e-9 );
	CHECK_VEC( o.normal, s, s, s, 1e-9 );
	CHECK_VEC( o.pointA, 1.0, 1.0, 1.0, 1e-9 );
	CHECK_VEC( o.pointB, 2.5, 2.5, 2.5, 1e-9 );

	// B turned 45 degrees about z presents a vertical edge at x = 3 - 0.5 sqrt(2)
	o = cnShapeDistance( &a, at( 0, 0, 0 ), &b, cnXfRot( 3.0, 0.0, 0.0, cnV3( 0, 0, 1 ), 0.25 * CN_PI ) );
	CHECK_NEAR( o.distance, 2.0 - 0.5 * sqrt( 2.0 ), 1e-9 );
	CHECK_VEC( o.normal, 1.0, 0.0, 0.0, 1e-9 );
}

static void test_capsule_box_distance( void )
{
	cnGeometry box = boxGeom( 1.0, 1.0, 1.0 ), cap = capsuleGeom( 0.2, 1.0 );
	// upright capsule beside the box: 2 - 1 - 0.2
	cnDistanceOutput o = cnShapeDistance( &cap, at( 2.0, 0.0, 0.5 ), &box, at( 0, 0, 0 ) );
	CHECK_NEAR( o.distance, 0.8, 1e-9 );
	CHECK_VEC( o.normal, -1.0, 0.0, 0.0, 1e-9 );
	// lying capsule (axis along x) above the box: 2 - 1 - 0.2
	o = cnShapeDistance( &box, at( 0, 0, 0 ), &cap, cnXfRot( 0.3, 0.1, 2.0, cnV3( 0, 1, 0 ), 0.5 * CN_PI ) );
	CHECK_NEAR( o.distance, 0.8, 1e-9 );
	CHECK_VEC( o.normal, 0.0, 0.0, 1.0, 1e-9 );
	CHECK_NEAR( o.pointA.z, 1.0, 1e-9 );
	CHECK_NEAR( o.pointB.z, 1.8, 1e-9 );
	// capsule pointing away from a vertical box edge: turning local z by 90 degrees about
	// (-1,1,0)/sqrt2 lays the axis along (1,1,0)/sqrt2, so with the centre 1 farther out the near
	// core end is (2, 2, 0), sqrt(2) from the edge point (1, 1, 0); minus the radius
	o = cnShapeDistance( &box, at( 0, 0, 0 ), &cap,
						 cnXfRot( 2.0 + sqrt( 0.5 ), 2.0 + sqrt( 0.5 ), 0.0, cnV3( -1, 1, 0 ), 0.5 * CN_PI ) );
	CHECK_NEAR( o.distance, sqrt( 2.0 ) - 0.2, 1e-9 );
	CHECK_VEC( o.normal, sqrt( 0.5 ), sqrt( 0.5 ), 0.0, 1e-9 );
}

static void test_cylinder_sphere_distance( void )
{
	cnGeometry cyl = cylinderGeom( 0.3, 0.5 ), sph = sphereGeom( 0.1 );

	// beside the curved side, centre 1 from the axis: 1 - 0.3 - 0.1, for several azimuths
	for ( int k = 0; k < 8; ++k )
	{
		double phi = 0.4 + k * 0.25 * CN_PI;
		cnTransform xfS = at( cos( phi ), sin( phi ), 0.2 );
		cnDistanceOutput o = cnShapeDistance( &cyl, at( 0, 0, 0 ), &sph, xfS );
		CHECK_NEAR( o.distance, 0.6, 1e-9 );
		CHECK_VEC( o.normal, cos( phi ), sin( phi ), 0.0, 1e-8 );
		CHECK_NEAR( o.pointA.z, 0.2, 1e-8 );
	}

	// above the cap: 1 - 0.5 - 0.1
	cnDistanceOutput o = cnShapeDistance( &cyl, at( 0, 0, 0 ), &sph, at( 0.1, 0.1, 1.0 ) );
	CHECK_NEAR( o.distance, 0.4, 1e-9 );
	CHECK_VEC( o.normal, 0.0, 0.0, 1.0, 1e-9 );

	// off the rim: the rim point (0.3, 0, 0.5) is 0.5 away (3-4-5 triangle)
	o = cnShapeDistance( &cyl, at( 0, 0, 0 ), &sph, at( 0.6, 0.0, 0.9 ) );
	CHECK_NEAR( o.distance, 0.4, 1e-9 );
	CHECK_VEC( o.normal, 0.6, 0.0, 0.8, 1e-8 );
	CHECK_VEC( o.pointA, 0.3, 0.0, 0.5, 1e-8 );
}

static void test_cylinder_cylinder_parallel_distance( void )
{
	cnGeometry a = cylinderGeom( 0.3, 0.5 ), b = cylinderGeom( 0.2, 0.4 );
	// both axes along x (turned about y), side by side: axis distance sqrt(0.5^2 + 1^2) - 0.3 - 0.2
	cnVec3 yAxis = cnV3( 0, 1, 0 );
	cnTransform xfA = cnXfRot( 10.0, -3.0, 2.0, yAxis, 0.5 * CN_PI );
	cnTransform xfB = cnXfRot( 10.1, -2.5, 3.0, yAxis, 0.5 * CN_PI );
	cnDistanceOutput o = cnShapeDistance( &a, xfA, &b, xfB );
	CHECK_NEAR( o.distance, sqrt( 1.25 ) - 0.5, 1e-9 );
	CHECK_VEC( o.normal, 0.0, 0.5 / sqrt( 1.25 ), 1.0 / sqrt( 1.25 ), 1e-8 );
}

// ---------------------------------------------------------------------------------------------
// EPA depths

static void test_sphere_overlap_depth( void )
{
	cnGeometry a = sphereGeom( 0.5 ), b = sphereGeom( 0.3 );
	// centres 0.6 apart: overlap 0.8 - 0.6 (the cores are apart, so this is exact)
	cnDistanceOutput o = cnShapeDistance( &a, at( 0, 0, 0 ), &b, at( 0.0, 0.6, 0.0 ) );
	CHECK_NEAR( o.distance, -0.2, 1e-12 );
	CHECK_VEC( o.normal, 0.0, 1.0, 0.0, 1e-12 );
	CHECK_VEC( o.pointA, 0.0, 0.5, 0.0, 1e-12 );
	CHECK_VEC( o.pointB, 0.0, 0.3, 0.0, 1e-12 );

	// identical centres: any direction, depth 0.8 (EPA on two round shapes)
	o = cnShapeDistance( &a, at( 1, 2, 3 ), &b, at( 1, 2, 3 ) );
	CHECK( o.overlap );
	CHECK_NEAR( o.distance, -0.8, 1e-6 );
	CHECK_NEAR( cnLength( o.normal ), 1.0, 1e-12 );

	// sphere centre inside a box, 0.1 under its top face: depth 0.1 + 0.25 straight up
	cnGeometry box = boxGeom( 1.0, 1.0, 1.0 ), s = sphereGeom( 0.25 );
	o = cnShapeDistance( &box, at( 0, 0, 0 ), &s, at( 0.2, -0.3, 0.9 ) );
	CHECK( o.overlap );
	CHECK_NEAR( o.distance, -0.35, 1e-6 );
	CHECK_VEC( o.normal, 0.0, 0.0, 1.0, 1e-6 );
}

static void test_box_overlap_depth( void )
{
	cnGeometry a = boxGeom( 1.0, 1.0, 1.0 ), b = boxGeom( 0.5, 0.5, 0.5 );

	// SAT by hand: overlaps along x, y, z are 1.5 - 1.3, 1.5 - 0.2, 1.5 - 0.1; the least is x
	cnDistanceOutput o = cnShapeDistance( &a, at( 0, 0, 0 ), &b, at( 1.3, 0.2, 0.1 ) );
	CHECK( o.overlap );
	CHECK_NEAR( o.distance, -0.2, 1e-9 );
	CHECK_VEC( o.normal, 1.0, 0.0, 0.0, 1e-9 );

	// B turned 45 degrees about z at x = 1.5: along x it reaches 0.5 sqrt(2) back, so the overlap
	// is 1 + 0.5 sqrt(2) - 1.5; along B's own axes it is 2/sqrt(2) + 0.5 - 1.5/sqrt(2) (larger),
	// along y 1 + 0.5 sqrt(2), along z 1.5; edge pairs give no other axis for a turn about z
	o = cnShapeDistance( &a, at( 0, 0, 0 ), &b, cnXfRot( 1.5, 0.0, 0.0, cnV3( 0, 0, 1 ), 0.25 * CN_PI ) );
	CHECK_NEAR( o.distance, -( 0.5 * sqrt( 2.0 ) - 0.5 ), 1e-9 );
	CHECK_VEC( o.normal, 1.0, 0.0, 0.0, 1e-9 );

	// deep: B nearly centred inside A; least overlap along +x: 1 + 0.2 - 0.1
	cnGeometry c = boxGeom( 0.2, 0.3, 0.4 );
	o = cnShapeDistance( &a, at( 0, 0, 0 ), &c, at( 0.1, 0.0, 0.0 ) );
	CHECK_NEAR( o.distance, -1.1, 1e-9 );
	CHECK_VEC( o.normal, 1.0, 0.0, 0.0, 1e-9 );

	// flat plate (zero thickness) with a cube sunk 0.001 into it from above
	cnGeometry plate = boxGeom( 1.0, 1.0, 0.0 );
	o = cnShapeDistance( &plate, at( 0, 0, 0 ), &b, at( 0.1, 0.2, 0.499 ) );
	CHECK_NEAR( o.distance, -0.001, 1e-9 );
	CHECK_VEC( o.normal, 0.0, 0.0, 1.0, 1e-9 );

	// exactly touching faces
	o = cnShapeDistance( &a, at( 0, 0, 0 ), &b, at( 0.3, 0.2, 1.5 ) );
	CHECK_NEAR( o.distance, 0.0, 1e-9 );
	CHECK_VEC( o.normal, 0.0, 0.0, 1.0, 1e-9 );
}

static void test_cylinder_overlap_depth( void )
{
	cnGeometry cyl = cylinderGeom( 0.3, 0.5 ), sph = sphereGeom( 0.1 );

	// sphere centre outside the side, 0.35 from the axis: overlap 0.4 - 0.35
	cnDistanceOutput o = cnShapeDistance( &cyl, at( 0, 0, 0 ), &sph, at( 0.35, 0.0, 0.1 ) );
	CHECK_NEAR( o.distance, -0.05, 1e-9 );
	CHECK_VEC( o.normal, 1.0, 0.0, 0.0, 1e-8 );

	// sphere centre inside, 0.25 from the axis at mid height: pushed out through the side by
	// 0.3 - 0.25 + 0.1 (the caps are 0.5 away)
	for ( int k = 0; k < 4; ++k )
	{
		double phi = 0.3 + k * 1.1;
		o = cnShapeDistance( &cyl, at( 0, 0, 0 ), &sph, at( 0.25 * cos( phi ), 0.25 * sin( phi ), 0.0 ) );
		CHECK( o.overlap );
		CHECK_NEAR( o.distance, -0.15, 1e-6 );
		CHECK_VEC( o.normal, cos( phi ), sin( phi ), 0.0, 1e-3 );
	}

	// upright cylinder sunk 0.1 into a box top
	cnGeometry box = boxGeom( 1.0, 1.0, 1.0 );
	o = cnShapeDistance( &box, at( 0, 0, 0 ), &cyl, at( 0.2, 0.1, 1.4 ) );
	CHECK_NEAR( o.distance, -0.1, 1e-9 );
	CHECK_VEC( o.normal, 0.0, 0.0, 1.0, 1e-9 );

	// same centre as a box of half size 1: the least push is horizontal, 1 + 0.3 along an axis
	// (along a diagonal the box reaches farther)
	o = cnShapeDistance( &box, at( 0, 0, 0 ), &cyl, at( 0, 0, 0 ) );
	CHECK_NEAR( o.distance, -1.3, 1e-6 );
	CHECK_NEAR( fabs( o.normal.x ) + fabs( o.normal.y ), 1.0, 1e-6 );
	CHECK_NEAR( o.normal.z, 0.0, 1e-6 );
}

// Support point of a shape in its own frame, written here from the definitions so that the
// property test below does not lean on the library's support functions.
static cnVec3 cnTestSupport( const cnGeometry* g, cnVec3 d )
{
	cnVec3 u = cnNormalize( d );
	switch ( g->type )
	{
		case cnShape_sphere:
			return cnMulSV( g->radius, u );
		case cnShape_capsule:
			return cnMulAdd( cnV3( 0.0, 0.0, d.z >= 0.0 ? g->halfHeight : -g->halfHeight ), g->radius, u );
		case cnShape_box:
			return cnV3( d.x >= 0.0 ? g->halfExtents.x : -g->halfExtents.x, d.y >= 0.0 ? g->halfExtents.y : -g->halfExtents.y,
						 d.z >= 0.0 ? g->halfExtents.z : -g->halfExtents.z );
		default:
		{
			cnVec3 p = cnV3( 0.0, 0.0, d.z >= 0.0 ? g->halfHeight : -g->halfHeight );
			double l = sqrt( d.x * d.x + d.y * d.y );
			if ( l > 0.0 )
			{
				p.x = g->radius * d.x / l;
				p.y = g->radius * d.y / l;
			}
			return p;
		}
	}
}

// Gap between the shapes along the unit direction m: min over B of m.x minus max over A of m.x.
static double cnTestGap( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, cnVec3 m )
{
	cnVec3 pa = cnTransformPoint( xfA, cnTestSupport( a, cnInvRotate( xfA.q, m ) ) );
	cnVec3 pb = cnTransformPoint( xfB, cnTestSupport( b, cnInvRotate( xfB.q, cnNeg( m ) ) ) );
	return cnDot( m, pb ) - cnDot( m, pa );
}

static Lcg cn_rng = { 0x9E3779B97F4A7C15ull };

// Deterministic uniform number in [lo, hi).
static double cnRand( double lo, double hi )
{
	return lcgUniform( &cn_rng, lo, hi );
}

static cnGeometry cnRandomShape( int type )
{
	switch ( type )
	{
		case 0:
			return sphereGeom( cnRand( 0.05, 0.5 ) );
		case 1:
			return boxGeom( cnRand( 0.05, 0.5 ), cnRand( 0.05, 0.5 ), cnRand( 0.05, 0.5 ) );
		case 2:
		{
			double r = cnRand( 0.05, 0.3 ); // the radius is drawn before the half height
			return capsuleGeom( r, cnRand( 0.05, 0.5 ) );
		}
		default:
		{
			double r = cnRand( 0.05, 0.5 ); // the radius is drawn before the half height
			return cylinderGeom( r, cnRand( 0.05, 0.5 ) );
		}
	}
}

static cnTransform cnRandomTransform( double extent )
{
	cnVec3 axis = cnV3( cnRand( -1, 1 ), cnRand( -1, 1 ), cnRand( -1, 1 ) );
	return cnXfRot( cnRand( -extent, extent ), cnRand( -extent, extent ), cnRand( -extent, extent ),
					cnLengthSquared( axis ) > 1e-6 ? axis : cnV3( 0, 0, 1 ), cnRand( -CN_PI, CN_PI ) );
}

// For convex shapes the signed distance is the largest gap over all directions (separating axis
// theorem; negative: minus the penetration depth) and the normal is a direction where it is
// reached. Checked for every pair of types in random placements, apart and overlapping.
static void test_distance_is_max_gap( void )
{
	int failures = 0;
	for ( int ta = 0; ta < 4; ++ta )
	{
		for ( int tb = 0; tb < 4; ++tb )
		{
			for ( int trial = 0; trial < 200; ++trial )
			{
				cnGeometry a = cnRandomShape( ta ), b = cnRandomShape( tb );
				cnTransform xfA = cnRandomTransform( 0.5 ), xfB = cnRandomTransform( 0.5 );
				cnDistanceOutput o = cnShapeDistance( &a, xfA, &b, xfB );
				// at the normal the gap is the distance. GJK stops when its bounds agree within 1e-10
				// of the pair size (about 1 here), but on two curved surfaces it may stop earlier,
				// when rounding stalls its descent; the distance is then good to about 1e-7 while
				// the normal, taken from a short core vector, can be off by 1e-3 rad; 1e-6 covers it
				double gapN = cnTestGap( &a, xfA, &b, xfB, o.normal );
				bool ok = fabs( gapN - o.distance ) <= 1e-6 && fabs( cnLength( o.normal ) - 1.0 ) <= 1e-12;
				// no direction separates more
				for ( int k = 0; k < 64 && ok; ++k )
				{
					cnVec3 m = cnNormalize( cnV3( cnRand( -1, 1 ), cnRand( -1, 1 ), cnRand( -1, 1 ) ) );
					if ( cnLengthSquared( m ) > 0.5 )
					{
						ok = cnTestGap( &a, xfA, &b, xfB, m ) <= o.distance + 1e-6;
					}
				}
				// the witness points are that far apart along the normal
				ok = ok && fabs( cnDot( cnSub( o.pointB, o.pointA ), o.normal ) - o.distance ) <= 1e-8;
				if ( ok == false )
				{
					if ( failures < 5 )
					{
						fprintf( stderr, "types %d %d trial %d: distance %.12g, gap at normal %.12g\n", ta, tb, trial,
								 o.distance, gapN );
					}
					++failures;
				}
			}
		}
	}
	CHECK( failures == 0 );
}

// ---------------------------------------------------------------------------------------------
// cnCollideConvex manifolds

// Largest distance between two manifold points and the smallest.
static void cnSpread( const cnManifold* m, double* maxD, double* minD )
{
	*maxD = 0.0;
	*minD = INFINITY;
	for ( int i = 0; i < m->pointCount; ++i )
	{
		for ( int j = i + 1; j < m->pointCount; ++j )
		{
			double d = cnDistance( m->points[i].point, m->points[j].point );
			*maxD = d > *maxD ? d : *maxD;
			*minD = d < *minD ? d : *minD;
		}
	}
}

static void test_cylinder_standing_on_box( void )
{
	// ground box top at z = 0.5; can of radius 0.2, half height 0.3, sunk 0.01
	cnGeometry box = boxGeom( 2.0, 2.0, 0.5 ), cyl = cylinderGeom( 0.2, 0.3 );
	double r = 0.2;
	for ( int pass = 0; pass < 3; ++pass )
	{
		// plain, turned about its axis, and far from the origin
		double x0 = pass == 2 ? 1000.0 : 0.1;
		cnTransform xfBox = at( pass == 2 ? 1000.0 : 0.0, 0.0, 0.0 );
		cnTransform xfCyl = cnXfRot( x0, -0.2, 0.5 + 0.3 - 0.01, cnV3( 0, 0, 1 ), pass == 1 ? 0.3 : 0.0 );
		cnManifold m;
		cnCollideConvex( &box, xfBox, &cyl, xfCyl, 0.02, &m );
		CHECK( m.pointCount >= 3 && m.pointCount <= 4 );
		CHECK_VEC( m.normal, 0.0, 0.0, 1.0, 1e-9 );
		for ( int i = 0; i < m.pointCount; ++i )
		{
			cnVec3 p = m.points[i].point;
			CHECK_NEAR( m.points[i].separation, -0.01, 1e-9 );
			// midway between the box top (0.5) and the can bottom (0.49)
			CHECK_NEAR( p.z, 0.495, 1e-9 );
			// on the rim
			CHECK_NEAR( sqrt( ( p.x - x0 ) * ( p.x - x0 ) + ( p.y + 0.2 ) * ( p.y + 0.2 ) ), r, 1e-9 );
		}
		// well spread: a diameter apart at most, and no two closer than the side of the inscribed
		// square r sqrt(2) that four points chosen from the 16-gon span
		double maxD, minD;
		cnSpread( &m, &maxD, &minD );
		CHECK_NEAR( maxD, 2.0 * r, 1e-9 );
		CHECK( minD >= r * sqrt( 2.0 ) - 1e-9 );
	}

	// the other order: same points, normal down
	cnManifold m1, m2;
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, at( 0.1, -0.2, 0.79 ), 0.02, &m1 );
	cnCollideConvex( &cyl, at( 0.1, -0.2, 0.79 ), &box, at( 0, 0, 0 ), 0.02, &m2 );
	CHECK( m1.pointCount == m2.pointCount );
	CHECK_VEC( m2.normal, 0.0, 0.0, -1.0, 1e-9 );
	for ( int i = 0; i < m2.pointCount; ++i )
	{
		CHECK_NEAR( m2.points[i].separation, -0.01, 1e-9 );
		CHECK_NEAR( m2.points[i].point.z, 0.495, 1e-9 );
	}
}

static void test_cylinder_lying_on_box( void )
{
	// axis along x (turned about y), half length 0.4, radius 0.2, sunk 0.01: contact line
	// y = 0, z = 0.5 from x = -0.4 to 0.4, each end a point
	cnGeometry box = boxGeom( 2.0, 2.0, 0.5 ), cyl = cylinderGeom( 0.2, 0.4 );
	cnManifold m;
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, cnXfRot( 0.0, 0.0, 0.5 + 0.2 - 0.01, cnV3( 0, 1, 0 ), 0.5 * CN_PI ),
					 0.02, &m );
	CHECK( m.pointCount == 2 );
	CHECK_VEC( m.normal, 0.0, 0.0, 1.0, 1e-9 );
	if ( m.pointCount == 2 )
	{
		double x0 = m.points[0].point.x, x1 = m.points[1].point.x;
		CHECK_NEAR( fabs( x0 ), 0.4, 1e-9 );
		CHECK_NEAR( x0 + x1, 0.0, 1e-9 );
		for ( int i = 0; i < 2; ++i )
		{
			CHECK_NEAR( m.points[i].separation, -0.01, 1e-9 );
			CHECK_NEAR( m.points[i].point.y, 0.0, 1e-9 );
			CHECK_NEAR( m.points[i].point.z, 0.495, 1e-9 );
		}
		CHECK( m.points[0].id != m.points[1].id );
	}
}

static void test_cylinder_cap_on_cap( void )
{
	// two cans of radius 0.2, the upper offset 0.05 along x and sunk 0.01: points lie in both
	// disks, at the interface height 0.3 - 0.005
	cnGeometry a = cylinderGeom( 0.2, 0.3 ), b = cylinderGeom( 0.2, 0.3 );
	cnManifold m;
	cnCollideConvex( &a, at( 0, 0, 0 ), &b, cnXfRot( 0.05, 0.0, 0.59, cnV3( 0, 0, 1 ), 0.1 ), 0.02, &m );
	CHECK( m.pointCount >= 3 && m.pointCount <= 4 );
	CHECK_VEC( m.normal, 0.0, 0.0, 1.0, 1e-9 );
	for ( int i = 0; i < m.pointCount; ++i )
	{
		cnVec3 p = m.points[i].point;
		CHECK_NEAR( m.points[i].separation, -0.01, 1e-9 );
		CHECK_NEAR( p.z, 0.295, 1e-9 );
		CHECK( sqrt( p.x * p.x + p.y * p.y ) <= 0.2 + 1e-9 );
		CHECK( sqrt( ( p.x - 0.05 ) * ( p.x - 0.05 ) + p.y * p.y ) <= 0.2 + 1e-9 );
	}
	// spread over the lens: two points at least 0.3 apart (the lens is 0.35 wide along x and
	// 0.39 along y; the polygons cut a little off)
	double maxD, minD;
	cnSpread( &m, &maxD, &minD );
	CHECK( maxD >= 0.3 );
	CHECK( minD >= 0.1 );
}

static void test_sphere_on_cylinder_cap( void )
{
	cnGeometry cyl = cylinderGeom( 0.3, 0.5 ), sph = sphereGeom( 0.1 );
	cnManifold m;
	cnCollideConvex( &cyl, at( 0, 0, 0 ), &sph, at( 0.05, 0.0, 0.59 ), 0.02, &m );
	CHECK( m.pointCount == 1 );
	CHECK_VEC( m.normal, 0.0, 0.0, 1.0, 1e-9 );
	CHECK_NEAR( m.points[0].separation, -0.01, 1e-9 );
	// midway between the cap (0.5) and the sphere bottom (0.49)
	CHECK_VEC( m.points[0].point, 0.05, 0.0, 0.495, 1e-9 );

	// swapped: normal flips, the point stays
	cnCollideConvex( &sph, at( 0.05, 0.0, 0.59 ), &cyl, at( 0, 0, 0 ), 0.02, &m );
	CHECK( m.pointCount == 1 );
	CHECK_VEC( m.normal, 0.0, 0.0, -1.0, 1e-9 );
	CHECK_VEC( m.points[0].point, 0.05, 0.0, 0.495, 1e-9 );
}

static void test_capsule_and_cylinders_lines( void )
{
	// capsule (half length 0.1, radius 0.05) lying along x on a cylinder cap of radius 0.3:
	// the segment gives its two ends
	cnGeometry cyl = cylinderGeom( 0.3, 0.5 ), cap = capsuleGeom( 0.05, 0.1 );
	cnManifold m;
	cnCollideConvex( &cyl, at( 0, 0, 0 ), &cap, cnXfRot( 0.0, 0.05, 0.5 + 0.05 - 0.002, cnV3( 0, 1, 0 ), 0.5 * CN_PI ),
					 0.02, &m );
	CHECK( m.pointCount == 2 );
	for ( int i = 0; i < m.pointCount; ++i )
	{
		CHECK_NEAR( m.points[i].separation, -0.002, 1e-9 );
		CHECK_NEAR( fabs( m.points[i].point.x ), 0.1, 1e-9 );
		CHECK_NEAR( m.points[i].point.z, 0.499, 1e-9 );
	}

	// two parallel lying cylinders, one on the other: two points at the ends of the shorter.
	// Two curved sides meet here, so the normal comes from EPA, which stops within 1e-12 of the
	// pair size (0.86): on the difference's side of radius 0.3 the normal is then good to
	// sqrt(2e-12 * 0.86 / 0.3) = 2.4e-6 and lateral positions to 0.3 times that. Separations
	// along a slightly turned normal change only to second order.
	cnGeometry lower = cylinderGeom( 0.2, 0.5 ), upper = cylinderGeom( 0.1, 0.3 );
	cnVec3 yAxis = cnV3( 0, 1, 0 );
	cnCollideConvex( &lower, cnXfRot( 0, 0, 0, yAxis, 0.5 * CN_PI ), &upper,
					 cnXfRot( 0.1, 0.0, 0.3 - 0.004, yAxis, 0.5 * CN_PI ), 0.02, &m );
	CHECK( m.pointCount == 2 );
	CHECK_VEC( m.normal, 0.0, 0.0, 1.0, 1e-5 );
	for ( int i = 0; i < m.pointCount; ++i )
	{
		CHECK_NEAR( m.points[i].separation, -0.004, 1e-9 );
		CHECK_NEAR( fabs( m.points[i].point.x - 0.1 ), 0.3, 1e-9 );
		CHECK_NEAR( m.points[i].point.z, 0.198, 1e-9 );
	}

	// crossed at right angles: a single point at the crossing
	cnCollideConvex( &lower, cnXfRot( 0, 0, 0, yAxis, 0.5 * CN_PI ), &upper,
					 cnXfRot( 0.1, 0.0, 0.3 - 0.004, cnV3( 1, 0, 0 ), 0.5 * CN_PI ), 0.02, &m );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.004, 1e-9 );
	CHECK_VEC( m.points[0].point, 0.1, 0.0, 0.198, 1e-6 );
}

static void test_tilted_cylinder_on_box( void )
{
	cnGeometry box = boxGeom( 2.0, 2.0, 0.5 ), cyl = cylinderGeom( 0.2, 0.3 );
	double h = 0.3, r = 0.2;

	// tilted 30 degrees about y, resting on its rim: the lowest point is h cos + r sin below the
	// centre; a single point 0.01 deep. The box face is flat, so EPA is exact (checked to 1e-9)
	double t = CN_PI / 6.0;
	double z = 0.5 - 0.01 + h * cos( t ) + r * sin( t );
	cnManifold m;
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, cnXfRot( 0.0, 0.0, z, cnV3( 0, 1, 0 ), t ), 0.02, &m );
	CHECK( m.pointCount == 1 );
	CHECK_NEAR( m.points[0].separation, -0.01, 1e-9 );
	CHECK_VEC( m.normal, 0.0, 0.0, 1.0, 1e-9 );
	// turning about y maps local (x, y, z) to (x cos t + z sin t, y, -x sin t + z cos t): the lowest
	// rim point is local (r, 0, -h), at world x = r cos t - h sin t
	CHECK_NEAR( m.points[0].point.x, r * cos( t ) - h * sin( t ), 1e-9 );

	// tilted 5 degrees: the cap is used; the lowest rim point is the polygon vertex at angle 0
	// in the cylinder frame, so the deepest point is exact, and the others rise along the tilt
	t = 5.0 * CN_PI / 180.0;
	z = 0.5 - 0.01 + h * cos( t ) + r * sin( t );
	double maxDistance = 0.02;
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, cnXfRot( 0.0, 0.0, z, cnV3( 0, 1, 0 ), t ), maxDistance, &m );
	CHECK( m.pointCount >= 2 );
	double minSep = INFINITY;
	for ( int i = 0; i < m.pointCount; ++i )
	{
		cnVec3 p = m.points[i].point;
		double sep = m.points[i].separation;
		minSep = sep < minSep ? sep : minSep;
		CHECK( sep <= maxDistance );
		// rim point local (r cos u, r sin u, -h): relative to the lowest one it lies r (1 - cos u) sin t
		// higher and r (1 - cos u) cos t farther back along x, so sep = -0.01 + (xLow - x) tan t
		// (the manifold point is shifted along z only)
		double xLow = r * cos( t ) - h * sin( t );
		CHECK_NEAR( sep, -0.01 + ( xLow - p.x ) * tan( t ), 1e-9 );
	}
	CHECK_NEAR( minSep, -0.01, 1e-9 );
}

static void test_speculative_and_ids( void )
{
	cnGeometry box = boxGeom( 2.0, 2.0, 0.5 ), cyl = cylinderGeom( 0.2, 0.3 );
	// 0.01 above the box: within maxDistance 0.02 every point is speculative at +0.01
	cnManifold m;
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, at( 0.1, 0.0, 0.81 ), 0.02, &m );
	CHECK( m.pointCount >= 3 );
	for ( int i = 0; i < m.pointCount; ++i )
	{
		CHECK_NEAR( m.points[i].separation, 0.01, 1e-9 );
		CHECK_NEAR( m.points[i].point.z, 0.505, 1e-9 );
	}
	// beyond maxDistance: nothing
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, at( 0.1, 0.0, 0.81 ), 0.005, &m );
	CHECK( m.pointCount == 0 );

	// ids stay the same under a tiny motion, and all differ within a manifold
	cnManifold m1, m2;
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, at( 0.1, -0.2, 0.79 ), 0.02, &m1 );
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, at( 0.1 + 1e-6, -0.2 - 2e-6, 0.79 + 1e-7 ), 0.02, &m2 );
	CHECK( m1.pointCount >= 3 );
	CHECK( sameIds( &m1, &m2 ) );
	for ( int i = 0; i < m1.pointCount; ++i )
	{
		for ( int j = i + 1; j < m1.pointCount; ++j )
		{
			CHECK( m1.points[i].id != m1.points[j].id );
		}
	}
	// and under a tiny tilt: the rim points' separations then differ by 2 r 1e-6, far below the
	// tolerance within which the reduction treats depths as equal, so the same four are kept
	cnCollideConvex( &box, at( 0, 0, 0 ), &cyl, cnXfRot( 0.1, -0.2, 0.79, cnV3( 1, 0.3, 0 ), 1e-6 ), 0.02, &m2 );
	CHECK( sameIds( &m1, &m2 ) );
	// same for the cap-on-cap pair
	cnGeometry c2 = cylinderGeom( 0.2, 0.3 );
	cnCollideConvex( &cyl, at( 0, 0, 0 ), &c2, at( 0.05, 0.0, 0.59 ), 0.02, &m1 );
	cnCollideConvex( &cyl, at( 0, 0, 0 ), &c2, at( 0.05 + 1e-6, 1e-6, 0.59 ), 0.02, &m2 );
	CHECK( m1.pointCount >= 3 );
	CHECK( sameIds( &m1, &m2 ) );

	// bit-identical when repeated
	cnCollideConvex( &cyl, at( 0, 0, 0 ), &c2, cnXfRot( 0.05, 0.01, 0.59, cnV3( 1, 2, 3 ), 0.05 ), 0.02, &m1 );
	cnCollideConvex( &cyl, at( 0, 0, 0 ), &c2, cnXfRot( 0.05, 0.01, 0.59, cnV3( 1, 2, 3 ), 0.05 ), 0.02, &m2 );
	CHECK( m1.pointCount == m2.pointCount );
	for ( int i = 0; i < m1.pointCount; ++i )
	{
		CHECK( m1.points[i].point.x == m2.points[i].point.x && m1.points[i].point.y == m2.points[i].point.y &&
			   m1.points[i].point.z == m2.points[i].point.z && m1.points[i].separation == m2.points[i].separation &&
			   m1.points[i].id == m2.points[i].id );
	}
}

int main( void )
{
	RUN_TEST( test_sphere_sphere_distance );
	RUN_TEST( test_box_box_distance );
	RUN_TEST( test_capsule_box_distance );
	RUN_TEST( test_cylinder_sphere_distance );
	RUN_TEST( test_cylinder_cylinder_parallel_distance );
	RUN_TEST( test_sphere_overlap_depth );
	RUN_TEST( test_box_overlap_depth );
	RUN_TEST( test_cylinder_overlap_depth );
	RUN_TEST( test_distance_is_max_gap );
	RUN_TEST( test_cylinder_standing_on_box );
	RUN_TEST( test_cylinder_lying_on_box );
	RUN_TEST( test_cylinder_cap_on_cap );
	RUN_TEST( test_sphere_on_cylinder_cap );
	RUN_TEST( test_capsule_and_cylinders_lines );
	RUN_TEST( test_tilted_cylinder_on_box );
	RUN_TEST( test_speculative_and_ids );
	return TEST_SUMMARY();
}
