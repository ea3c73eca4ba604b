// SPDX-License-Identifier: MIT
// Angular momentum (cnWorld_GetAngularMomentum, cnBody_GetAngularMomentum) against closed forms: a
// spinning box, L = I w with I of the box turned by its orientation; a body moving with v at an
// offset r, L = r x m v; sums over bodies, static bodies left out, bad arguments.
#include "cairn/cairn.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>

// |a - b| <= tol for each component
static void checkVec( cnVec3 a, cnVec3 b, double tol )
{
	CHECK_NEAR( a.x, b.x, tol );
	CHECK_NEAR( a.y, b.y, tol );
	CHECK_NEAR( a.z, b.z, tol );
}

// A box of half extents (a, b, c) spinning at w: I = m/3 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2) in its
// frame; turned a quarter turn about z, its x and y moments swap in world axes.
static void spinningBox( void )
{
	const double a = 0.5, b = 0.25, c = 0.125;
	const cnVec3 w = cnV3( 1.5, -2.0, 3.0 );
	for ( int turned = 0; turned < 2; ++turned )
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
		cnQuat q = turned ? cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.5 * CN_PI ) : cnQuat_identity;
		cnBodyId box = tbBox( world, cnBody_dynamic, cnV3( 1, 2, 3 ), q, cnVec3_zero, cnV3( a, b, c ), 0 );
		CHECK( cnBody_SetAngularVelocity( world, box, w ) );
		double m = cnBody_GetMass( world, box );
		double ix = m / 3.0 * ( b * b + c * c ), iy = m / 3.0 * ( a * a + c * c ), iz = m / 3.0 * ( a * a + b * b );
		cnVec3 expected = turned ? cnV3( iy * w.x, ix * w.y, iz * w.z ) : cnV3( ix * w.x, iy * w.y, iz * w.z );
		cnVec3 center = cnBody_GetWorldCenterOfMass( world, box );
		checkVec( cnBody_GetAngularMomentum( world, box, center ), expected, 1e-12 * m );
		// at rest, its spin is the same about every point
		checkVec( cnBody_GetAngularMomentum( world, box, cnV3( -7, 5, 11 ) ), expected, 1e-12 * m );
		checkVec( cnWorld_GetAngularMomentum( world, cnVec3_zero ), expected, 1e-12 * m );
		cnDestroyWorld( world );
	}
}

// A sphere moving with v through r, not spinning: L about the origin is r x m v, about a point p
// (r - p) x m v; two bodies add, a static one has none.
static void movingBody( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	const cnVec3 r = cnV3( 2, -1, 0.5 ), v = cnV3( 0.25, 3, -1 );
	cnBodyId ball = tbSphere( world, cnBody_dynamic, r, v, 0.3, 0 );
	double m = cnBody_GetMass( world, ball );
	cnVec3 expected = cnMulSV( m, cnCross( r, v ) );
	checkVec( cnBody_GetAngularMomentum( world, ball, cnVec3_zero ), expected, 1e-12 * m );
	cnVec3 p = cnV3( 1, 1, 1 );
	checkVec( cnBody_GetAngularMomentum( world, ball, p ), cnMulSV( m, cnCross( cnSub( r, p ), v ) ), 1e-12 * m );
	checkVec( cnBody_GetAngularMomentum( world, ball, r ), cnVec3_zero, 1e-15 );
	// a second ball moving the other way through -r: the same r x m v again
	cnBodyId other = tbSphere( world, cnBody_dynamic, cnMulSV( -1.0, r ), cnMulSV( -1.0, v ), 0.3, 0 );
	tbSphere( world, cnBody_static, cnV3( 5, 5, 5 ), cnVec3_zero, 1.0, 0 );
	CHECK( cnBody_IsValid( world, other ) );
	checkVec( cnWorld_GetAngularMomentum( world, cnVec3_zero ), cnMulSV( 2.0, expected ), 1e-12 * m );
	// free flight with no gravity: L about the origin stays r x m v as the balls fly
	for ( int i = 0; i < 60; ++i )
	{
		cnWorld_Step( world, 1.0 / 60.0 );
	}
	checkVec( cnWorld_GetAngularMomentum( world, cnVec3_zero ), cnMulSV( 2.0, expected ), 1e-12 * m );
	cnDestroyWorld( world );
}

static void badArguments( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnBodyId ball = tbSphere( world, cnBody_dynamic, cnVec3_zero, cnVec3_zero, 0.3, 0 );
	CHECK( isnan( cnWorld_GetAngularMomentum( world, cnV3( NAN, 0, 0 ) ).x ) );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );
	CHECK( isnan( cnBody_GetAngularMomentum( world, ball, cnV3( 0, INFINITY, 0 ) ).y ) );
	CHECK( isnan( cnBody_GetAngularMomentum( world, cnBodyId_null, cnVec3_zero ).z ) );
	cnBodyId wall = tbSphere( world, cnBody_static, cnV3( 3, 0, 0 ), cnVec3_zero, 1.0, 0 );
	checkVec( cnBody_GetAngularMomentum( world, wall, cnVec3_zero ), cnVec3_zero, 0.0 );
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( spinningBox );
	RUN_TEST( movingBody );
	RUN_TEST( badArguments );
	return TEST_SUMMARY();
}
