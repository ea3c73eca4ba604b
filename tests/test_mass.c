// SPDX-License-Identifier: MIT
// Mass properties, bounding boxes and support mappings of the primitive shapes against closed
// forms (and, for the capsule, an independent slice-by-slice integration).
#include "collision/collision.h"
#include "test.h"
#include "test_geometry.h"

// Every off-diagonal entry of a diagonal inertia must be exactly zero (the code builds it with
// cnDiagonal), and the centre of mass of a centred solid is the origin.
static void checkDiagonal( cnMassData md )
{
	CHECK( md.inertia.cx.y == 0.0 && md.inertia.cx.z == 0.0 );
	CHECK( md.inertia.cy.x == 0.0 && md.inertia.cy.z == 0.0 );
	CHECK( md.inertia.cz.x == 0.0 && md.inertia.cz.y == 0.0 );
	CHECK( md.center.x == 0.0 && md.center.y == 0.0 && md.center.z == 0.0 );
}

// Tolerances below are relative 1e-12: the closed forms are a few multiplications each, so the
// code and the test differ only by rounding (a few ulp).
static void testSphereMass( void )
{
	cnGeometry g = sphereGeom( 0.5 );
	cnMassData md = cnComputeShapeMass( &g, 1000.0 );
	// m = rho 4/3 pi r^3 = 1000 * 4/3 * pi * 0.125 = 523.598775598...
	CHECK_NEAR( md.mass, 523.5987755982989, 1e-9 );
	// I = 2/5 m r^2 = 0.1 m
	CHECK_NEAR( md.inertia.cx.x, 52.35987755982989, 1e-10 );
	CHECK_NEAR( md.inertia.cy.y, 52.35987755982989, 1e-10 );
	CHECK_NEAR( md.inertia.cz.z, 52.35987755982989, 1e-10 );
	checkDiagonal( md );
}

static void testBoxMass( void )
{
	cnGeometry g = boxGeom( 0.5, 1.0, 1.5 );
	cnMassData md = cnComputeShapeMass( &g, 2.0 );
	// m = 2 * (1 * 2 * 3) = 12; I_xx = m/12 (2^2 + 3^2) = 13, I_yy = (1 + 9) = 10, I_zz = (1 + 4) = 5
	CHECK_NEAR( md.mass, 12.0, 1e-12 );
	CHECK_NEAR( md.inertia.cx.x, 13.0, 1e-12 );
	CHECK_NEAR( md.inertia.cy.y, 10.0, 1e-12 );
	CHECK_NEAR( md.inertia.cz.z, 5.0, 1e-12 );
	checkDiagonal( md );
}

static void testCylinderMass( void )
{
	double r = 0.3, h = 0.8, rho = 7.0;
	cnGeometry g = cylinderGeom( r, h );
	cnMassData md = cnComputeShapeMass( &g, rho );
	// length L = 2h = 1.6: m = rho pi r^2 L; axial m r^2 / 2; transverse m (3 r^2 + L^2) / 12
	double m = rho * CN_PI * 0.09 * 1.6;
	CHECK_NEAR( md.mass, m, 1e-12 );
	CHECK_NEAR( md.inertia.cz.z, m * 0.09 / 2.0, 1e-12 );
	CHECK_NEAR( md.inertia.cx.x, m * ( 0.27 + 2.56 ) / 12.0, 1e-12 );
	CHECK_NEAR( md.inertia.cy.y, m * ( 0.27 + 2.56 ) / 12.0, 1e-12 );
	checkDiagonal( md );
}

// Capsule inertia by slicing it into thin discs along its axis: a disc of radius a at height z
// and mass dm has axial inertia dm a^2 / 2 and, about a transverse axis through the capsule
// centre, dm (a^2 / 4 + z^2). Simpson's rule on each smooth piece (the two caps and the
// cylinder) with 20000 intervals integrates these low-degree functions to about 1e-12 relative
// (the caps' integrands are polynomials of degree 4 in z, which Simpson's rule integrates with
// error ~ h^4), an independent check of the hemisphere offset and the parallel-axis terms.
static void capsuleBySlices( double r, double h, double rho, double* mass, double* axial, double* transverse )
{
	double lo[3] = { -h - r, -h, h };
	double hi[3] = { -h, h, h + r };
	*mass = *axial = *transverse = 0.0;
	int n = 20000;
	for ( int piece = 0; piece < 3; ++piece )
	{
		double dz = ( hi[piece] - lo[piece] ) / n;
		for ( int k = 0; k <= n; ++k )
		{
			double z = lo[piece] + k * dz;
			double w = ( k == 0 || k == n ) ? 1.0 : ( k % 2 == 1 ? 4.0 : 2.0 );
			double a2;
			if ( z < -h )
			{
				a2 = r * r - ( z + h ) * ( z + h );
			}
			else if ( z > h )
			{
				a2 = r * r - ( z - h ) * ( z - h );
			}
			else
			{
				a2 = r * r;
			}
			a2 = a2 > 0.0 ? a2 : 0.0;
			double dm = rho * CN_PI * a2 * w * dz / 3.0;
			*mass += dm;
			*axial += dm * a2 / 2.0;
			*transverse += dm * ( a2 / 4.0 + z * z );
		}
	}
}

static void testCapsuleMass( void )
{
	double r = 0.4, h = 0.7, rho = 3.0;
	cnGeometry g = capsuleGeom( r, h );
	cnMassData md = cnComputeShapeMass( &g, rho );

	// closed form in terms of the cylinder length L = 2h (the textbook form):
	// mc = rho pi r^2 L, mh = rho 2/3 pi r^3 per hemisphere,
	// I_axial = mc r^2/2 + 2 * 2/5 mh r^2,
	// I_trans = mc (L^2/12 + r^2/4) + 2 mh (2 r^2/5 + L^2/4 + 3 L r / 8)
	double L = 2.0 * h;
	double mc = rho * CN_PI * r * r * L;
	double mh = rho * 2.0 / 3.0 * CN_PI * r * r * r;
	double axial = mc * r * r / 2.0 + 2.0 * 0.4 * mh * r * r;
	double trans = mc * ( L * L / 12.0 + r * r / 4.0 ) + 2.0 * mh * ( 0.4 * r * r + L * L / 4.0 + 3.0 * L * r / 8.0 );
	CHECK_NEAR( md.mass, mc + 2.0 * mh, 1e-12 );
	CHECK_NEAR( md.inertia.cz.z, axial, 1e-12 );
	CHECK_NEAR( md.inertia.cx.x, trans, 1e-12 );
	CHECK_NEAR( md.inertia.cy.y, trans, 1e-12 );
	checkDiagonal( md );

	double sm, sa, st;
	capsuleBySlices( r, h, rho, &sm, &sa, &st );
	CHECK_NEAR( md.mass, sm, 1e-9 * sm );
	CHECK_NEAR( md.inertia.cz.z, sa, 1e-9 * sa );
	CHECK_NEAR( md.inertia.cx.x, st, 1e-9 * st );

	// a capsule of zero half height is a sphere: m = rho 4/3 pi r^3, I = 2/5 m r^2
	cnGeometry s = capsuleGeom( r, 0.0 );
	cnMassData ms = cnComputeShapeMass( &s, rho );
	double m = rho * 4.0 / 3.0 * CN_PI * r * r * r;
	CHECK_NEAR( ms.mass, m, 1e-12 );
	CHECK_NEAR( ms.inertia.cx.x, 0.4 * m * r * r, 1e-12 );
	CHECK_NEAR( ms.inertia.cz.z, 0.4 * m * r * r, 1e-12 );
}

static void testPlaneMass( void )
{
	cnGeometry g = makeGeom( cnShape_plane );
	cnMassData md = cnComputeShapeMass( &g, 1000.0 );
	CHECK( md.mass == 0.0 );
	CHECK( md.inertia.cx.x == 0.0 && md.inertia.cy.y == 0.0 && md.inertia.cz.z == 0.0 );
}

// AABB of a rotated box: 45 degrees about z turns half extents (1, 2, 3) into
// ((1 + 2) / sqrt 2, (1 + 2) / sqrt 2, 3); 90 degrees swaps x and y. Tolerance 1e-12: a few
// rounding errors of the quaternion-to-matrix conversion.
static void testBoxAABB( void )
{
	cnGeometry g = boxGeom( 1.0, 2.0, 3.0 );
	cnVec3 p = cnV3( 10.0, -5.0, 2.0 );
	cnAABB b = cnComputeShapeAABB( &g, makeXf( p.x, p.y, p.z, rotZ( 0.25 * CN_PI ) ) );
	double e = 3.0 / sqrt( 2.0 );
	CHECK_NEAR( b.lower.x, 10.0 - e, 1e-12 );
	CHECK_NEAR( b.upper.x, 10.0 + e, 1e-12 );
	CHECK_NEAR( b.lower.y, -5.0 - e, 1e-12 );
	CHECK_NEAR( b.upper.y, -5.0 + e, 1e-12 );
	CHECK_NEAR( b.lower.z, -1.0, 1e-12 );
	CHECK_NEAR( b.upper.z, 5.0, 1e-12 );

	b = cnComputeShapeAABB( &g, makeXf( 0.0, 0.0, 0.0, rotZ( 0.5 * CN_PI ) ) );
	CHECK_NEAR( b.upper.x, 2.0, 1e-12 );
	CHECK_NEAR( b.upper.y, 1.0, 1e-12 );
	CHECK_NEAR( b.upper.z, 3.0, 1e-12 );

	// a general rotation: the box must hold all 8 vertices and touch the extreme ones
	cnQuat q = cnNormalizeQuat( ( cnQuat ){ 0.8, 0.3, -0.4, 0.2 } );
	b = cnComputeShapeAABB( &g, makeXf( p.x, p.y, p.z, q ) );
	cnVec3 lo = cnV3( 1e30, 1e30, 1e30 ), hi = cnV3( -1e30, -1e30, -1e30 );
	for ( int v = 0; v < 8; ++v )
	{
		cnVec3 local = cnV3( ( v & 1 ) ? 1.0 : -1.0, ( v & 2 ) ? 2.0 : -2.0, ( v & 4 ) ? 3.0 : -3.0 );
		cnVec3 w = cnTransformPoint( makeXf( p.x, p.y, p.z, q ), local );
		lo = cnMin( lo, w );
		hi = cnMax( hi, w );
	}
	CHECK_NEAR( b.lower.x, lo.x, 1e-12 );
	CHECK_NEAR( b.lower.y, lo.y, 1e-12 );
	CHECK_NEAR( b.lower.z, lo.z, 1e-12 );
	CHECK_NEAR( b.upper.x, hi.x, 1e-12 );
	CHECK_NEAR( b.upper.y, hi.y, 1e-12 );
	CHECK_NEAR( b.upper.z, hi.z, 1e-12 );
}

static void testRoundAABB( void )
{
	cnVec3 p = cnV3( 1.0, 2.0, 3.0 );
	cnGeometry s = sphereGeom( 0.5 );
	cnAABB b = cnComputeShapeAABB( &s, makeXf( p.x, p.y, p.z, rotX( 0.7 ) ) );
	CHECK_NEAR( b.lower.x, 0.5, 1e-15 );
	CHECK_NEAR( b.upper.z, 3.5, 1e-15 );

	// capsule turned 90 degrees about x: axis along -y, extents (r, h + r, r)
	cnGeometry c = capsuleGeom( 0.25, 1.0 );
	b = cnComputeShapeAABB( &c, makeXf( p.x, p.y, p.z, rotX( 0.5 * CN_PI ) ) );
	CHECK_NEAR( b.upper.x - p.x, 0.25, 1e-12 );
	CHECK_NEAR( b.upper.y - p.y, 1.25, 1e-12 );
	CHECK_NEAR( b.upper.z - p.z, 0.25, 1e-12 );
	CHECK_NEAR( p.y - b.lower.y, 1.25, 1e-12 );

	// cylinder tilted by theta about x: axis a = (0, -sin, cos); by the formula
	// e_i = |a_i| h + r sqrt(1 - a_i^2): e = (r, sin h + r cos, cos h + r sin)
	double th = 0.3, r = 0.4, h = 1.1;
	cnGeometry cy = cylinderGeom( r, h );
	cnTransform xf = makeXf( p.x, p.y, p.z, rotX( th ) );
	b = cnComputeShapeAABB( &cy, xf );
	CHECK_NEAR( b.upper.x - p.x, r, 1e-12 );
	CHECK_NEAR( b.upper.y - p.y, sin( th ) * h + r * cos( th ), 1e-12 );
	CHECK_NEAR( b.upper.z - p.z, cos( th ) * h + r * sin( th ), 1e-12 );
	CHECK_NEAR( p.z - b.lower.z, cos( th ) * h + r * sin( th ), 1e-12 );

	// tightness for a general orientation: sampled rim points stay inside and come within the
	// chord error r (1 - cos(pi / 720)) < 1e-5 r of every face of the box
	cnQuat q = cnNormalizeQuat( ( cnQuat ){ 0.6, -0.5, 0.4, 0.3 } );
	xf = makeXf( p.x, p.y, p.z, q );
	b = cnComputeShapeAABB( &cy, xf );
	cnVec3 lo = cnV3( 1e30, 1e30, 1e30 ), hi = cnV3( -1e30, -1e30, -1e30 );
	for ( int k = 0; k < 1440; ++k )
	{
		double ang = 2.0 * CN_PI * k / 1440.0;
		for ( int cap = 0; cap < 2; ++cap )
		{
			cnVec3 w = cnTransformPoint( xf, cnV3( r * cos( ang ), r * sin( ang ), cap ? h : -h ) );
			lo = cnMin( lo, w );
			hi = cnMax( hi, w );
		}
	}
	CHECK( lo.x >= b.lower.x - 1e-12 && lo.y >= b.lower.y - 1e-12 && lo.z >= b.lower.z - 1e-12 );
	CHECK( hi.x <= b.upper.x + 1e-12 && hi.y <= b.upper.y + 1e-12 && hi.z <= b.upper.z + 1e-12 );
	CHECK_NEAR( lo.x, b.lower.x, 1e-5 * r );
	CHECK_NEAR( lo.z, b.lower.z, 1e-5 * r );
	CHECK_NEAR( hi.y, b.upper.y, 1e-5 * r );

	cnGeometry pl = makeGeom( cnShape_plane );
	b = cnComputeShapeAABB( &pl, at( p.x, p.y, p.z ) );
	CHECK( isfinite( b.lower.x ) && isfinite( b.upper.z ) );
	CHECK( b.lower.x <= -1e15 && b.upper.x >= 1e15 && b.lower.z <= -1e15 && b.upper.z >= 1e15 );
}

// Support mappings: exact values for simple directions, and for many directions the support
// value dot(s, d) is at least that of sampled surface points (the support is the maximum).
static void testSupport( void )
{
	cnGeometry box = boxGeom( 1.0, 2.0, 3.0 );
	cnVec3 s = cnSupport( &box, cnV3( 0.3, -0.2, 0.9 ) );
	CHECK( s.x == 1.0 && s.y == -2.0 && s.z == 3.0 );
	// zero components go to the positive side
	s = cnSupport( &box, cnV3( 0.0, 0.0, -1.0 ) );
	CHECK( s.x == 1.0 && s.y == 2.0 && s.z == -3.0 );

	cnGeometry sph = sphereGeom( 2.0 );
	s = cnSupport( &sph, cnV3( 0.0, 3.0, 4.0 ) );
	CHECK_NEAR( s.y, 1.2, 1e-15 );
	CHECK_NEAR( s.z, 1.6, 1e-15 );

	cnGeometry cap = capsuleGeom( 0.5, 1.0 );
	s = cnSupport( &cap, cnV3( 0.0, 0.0, -2.0 ) );
	CHECK_NEAR( s.z, -1.5, 1e-15 );
	s = cnSupport( &cap, cnV3( 3.0, 0.0, 4.0 ) );
	CHECK_NEAR( s.x, 0.3, 1e-15 );
	CHECK_NEAR( s.z, 1.4, 1e-15 );

	cnGeometry cyl = cylinderGeom( 0.5, 1.0 );
	s = cnSupport( &cyl, cnV3( 1.0, 0.0, 1.0 ) );
	CHECK_NEAR( s.x, 0.5, 1e-15 );
	CHECK_NEAR( s.z, 1.0, 1e-15 );
	s = cnSupport( &cyl, cnV3( 0.0, 0.0, -1.0 ) );
	CHECK( s.x == 0.0 && s.y == 0.0 && s.z == -1.0 );
	s = cnSupport( &cyl, cnV3( 0.0, -1.0, 0.0 ) );
	CHECK_NEAR( s.y, -0.5, 1e-15 );

	// maximality against sampled surface points
	const cnGeometry* shapes[4] = { &box, &sph, &cap, &cyl };
	int failures = 0;
	for ( int k = 0; k < 200; ++k )
	{
		// deterministic directions spread over the sphere (golden-angle spiral)
		double z = 1.0 - ( k + 0.5 ) / 100.0;
		double rr = sqrt( 1.0 - z * z );
		double ang = 2.39996322972865332 * k;
		cnVec3 d = cnV3( rr * cos( ang ), rr * sin( ang ), z );
		for ( int g = 0; g < 4; ++g )
		{
			cnVec3 sp = cnSupport( shapes[g], d );
			double best = cnDot( sp, d );
			for ( int m = 0; m < 100; ++m )
			{
				double z2 = 1.0 - ( m + 0.5 ) / 50.0;
				double r2 = sqrt( 1.0 - z2 * z2 );
				double a2 = 2.39996322972865332 * m;
				cnVec3 e = cnV3( r2 * cos( a2 ), r2 * sin( a2 ), z2 );
				// the support along e is a surface point: it must not beat the support along d
				cnVec3 other = cnSupport( shapes[g], e );
				if ( cnDot( other, d ) > best + 1e-12 )
				{
					failures++;
				}
			}
		}
	}
	CHECK( failures == 0 );
}

int main( void )
{
	RUN_TEST( testSphereMass );
	RUN_TEST( testBoxMass );
	RUN_TEST( testCylinderMass );
	RUN_TEST( testCapsuleMass );
	RUN_TEST( testPlaneMass );
	RUN_TEST( testBoxAABB );
	RUN_TEST( testRoundAABB );
	RUN_TEST( testSupport );
	return TEST_SUMMARY();
}
