// SPDX-License-Identifier: MIT
// Unit tests of the inline math: quaternions, matrices and transforms against hand-computed values.
#include "cairn/math.h"
#include "test.h"

static void quaternionRotation( void )
{
	// 90 degrees about z takes x to y
	cnQuat q = cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.5 * CN_PI );
	cnVec3 v = cnRotate( q, cnV3( 1, 0, 0 ) );
	CHECK_NEAR( v.x, 0.0, 1e-15 );
	CHECK_NEAR( v.y, 1.0, 1e-15 );
	cnVec3 back = cnInvRotate( q, v );
	CHECK_NEAR( back.x, 1.0, 1e-15 );
	// composition: 90 about z then 90 about x takes x to z
	cnQuat qx = cnQuatFromAxisAngle( cnV3( 1, 0, 0 ), 0.5 * CN_PI );
	cnVec3 w = cnRotate( cnMulQuat( qx, q ), cnV3( 1, 0, 0 ) );
	CHECK_NEAR( w.z, 1.0, 1e-15 );
	// matrix and quaternion agree, and the round trip recovers q
	cnQuat r = cnNormalizeQuat( ( cnQuat ){ 0.3, -0.5, 0.7, 0.1 } );
	cnMat3 m = cnMat3FromQuat( r );
	cnVec3 p = cnV3( 0.2, -1.3, 2.5 );
	cnVec3 a = cnRotate( r, p ), b = cnMulMV( m, p );
	CHECK_NEAR( a.x, b.x, 1e-14 );
	CHECK_NEAR( a.y, b.y, 1e-14 );
	CHECK_NEAR( a.z, b.z, 1e-14 );
	cnQuat r2 = cnQuatFromMat3( m );
	double dot = r.w * r2.w + r.x * r2.x + r.y * r2.y + r.z * r2.z;
	CHECK_NEAR( fabs( dot ), 1.0, 1e-14 );
}

static void matrixInverse( void )
{
	cnMat3 m = { { 4, 1, 0 }, { 1, 3, 1 }, { 0, 1, 2 } };
	cnMat3 inv = cnInvertM( m );
	cnMat3 id = cnMulMM( m, inv );
	CHECK_NEAR( id.cx.x, 1.0, 1e-14 );
	CHECK_NEAR( id.cy.x, 0.0, 1e-14 );
	CHECK_NEAR( id.cz.z, 1.0, 1e-14 );
	// det = 4 (6 - 1) - 1 (2 - 0) = 18
	CHECK_NEAR( cnDeterminant( m ), 18.0, 1e-13 );
	cnVec3 x = cnSolve3( m, cnV3( 5, 5, 3 ) );
	// solution (1, 1, 1)
	CHECK_NEAR( x.x, 1.0, 1e-14 );
	CHECK_NEAR( x.y, 1.0, 1e-14 );
	CHECK_NEAR( x.z, 1.0, 1e-14 );
}

static void rotationIntegration( void )
{
	// a constant spin of pi rad/s about y for 1 s in 100 steps is a half turn
	cnQuat q = cnQuat_identity;
	for ( int i = 0; i < 100; ++i )
	{
		q = cnIntegrateRotation( q, cnV3( 0, CN_PI, 0 ), 0.01 );
	}
	cnVec3 v = cnRotate( q, cnV3( 1, 0, 0 ) );
	CHECK_NEAR( v.x, -1.0, 1e-12 );
	CHECK_NEAR( v.z, 0.0, 1e-12 );
	CHECK_NEAR( cnQuatLength( q ), 1.0, 1e-15 );
}

static void transforms( void )
{
	cnTransform a = { cnV3( 1, 2, 3 ), cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.5 * CN_PI ) };
	cnVec3 p = cnTransformPoint( a, cnV3( 1, 0, 0 ) );
	CHECK_NEAR( p.x, 1.0, 1e-15 );
	CHECK_NEAR( p.y, 3.0, 1e-15 );
	cnVec3 back = cnInvTransformPoint( a, p );
	CHECK_NEAR( back.x, 1.0, 1e-15 );
	cnTransform b = { cnV3( 0, 0, 1 ), cnQuatFromAxisAngle( cnV3( 1, 0, 0 ), 0.3 ) };
	cnTransform ab = cnMulTransforms( a, b );
	cnTransform rel = cnInvMulTransforms( a, ab );
	CHECK_NEAR( rel.p.z, 1.0, 1e-15 );
	CHECK_NEAR( rel.q.x, b.q.x, 1e-15 );
	cnAABB u = { cnV3( 0, 0, 0 ), cnV3( 1, 1, 1 ) }, w = { cnV3( 1, 1, 1 ), cnV3( 2, 2, 2 ) };
	CHECK( cnAABB_Overlaps( u, w ) );
	CHECK_NEAR( cnAABB_Area( u ), 6.0, 0.0 );
	CHECK( cnAABB_Contains( cnAABB_Union( u, w ), w ) );
	cnVec3 n = cnNormalize( cnV3( 0.3, -0.2, 0.9 ) );
	CHECK_NEAR( cnDot( cnPerp( n ), n ), 0.0, 1e-15 );
	CHECK_NEAR( cnLength( cnPerp( n ) ), 1.0, 1e-15 );
}

int main( void )
{
	RUN_TEST( quaternionRotation );
	RUN_TEST( matrixInverse );
	RUN_TEST( rotationIntegration );
	RUN_TEST( transforms );
	return TEST_SUMMARY();
}
