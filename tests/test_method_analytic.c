// SPDX-License-Identifier: MIT
// The analytic-impulse method against closed forms (shared/VALIDATION.md): the single impulse
// obeys Newton's restitution law with the effective mass including rotation and Coulomb's law on
// the impulse; two spheres in 1D leave with v1' = ((m1 - e m2) v1 + (1 + e) m2 v2) / (m1 + m2);
// a bouncing ball reaches e^(2n) h0; a box falling flat starts to spin (the documented artefact of
// sequential impulses); resting contact is left to the penalty springs.
#include "cairn/cairn.h"
#include "methods/penalty.h"
#include "test.h"
#include "test_bodies.h"

#include <stdlib.h>
#include <string.h>

static cnBodyId addSphere( cnWorld* world, cnVec3 position, cnVec3 velocity, double radius, cnMaterialId material )
{
	return tbSphere( world, cnBody_dynamic, position, velocity, radius, material );
}

static cnBodyId addBox( cnWorld* world, cnVec3 position, cnVec3 halfExtents, cnMaterialId material )
{
	return tbBox( world, cnBody_dynamic, position, cnQuat_identity, cnVec3_zero, halfExtents, material );
}

// A body that cannot move (the ground) and a cube of mass m and half size a at the origin,
// I = 2/3 m a^2.
static void makeCube( cnPenaltyBody* ground, cnPenaltyBody* cube, double m, double a, cnVec3 v )
{
	memset( ground, 0, sizeof( *ground ) );
	ground->q = cnQuat_identity;
	memset( cube, 0, sizeof( *cube ) );
	cube->q = cnQuat_identity;
	cube->v = v;
	cube->invMass = 1.0 / m;
	double invI = 3.0 / ( 2.0 * m * a * a );
	cube->invI = cnDiagonal( invI, invI, invI );
	cube->I = cnDiagonal( 1.0 / invI, 1.0 / invI, 1.0 / invI );
}

// Newton's law at one corner of a cube falling flat at v (normal n = z from the ground to the
// cube, corner r = (a, a, -a)): the effective mass is 1 / (1/m + |r x n|^2 / I) = m / 4, so the
// impulse is P = (1 + e) m v / 4; the centre gains (1 + e) v / 4 along the normal, the cube spins
// at I^-1 (r x P n) = 3 (1 + e) v / (8 a) (1, -1, 0), and the corner leaves at e v. Exact to
// round-off.
static void cornerImpulseNewton( void )
{
	const double m = 3.0, a = 0.2, v = 2.0, e = 0.5;
	cnPenaltyBody ground, cube;
	makeCube( &ground, &cube, m, a, cnV3( 0, 0, -v ) );
	cnVec3 p = cnV3( a, a, -a );
	cnVec3 n = cnV3( 0, 0, 1 );
	double P = cnAnalyticImpulse( &ground, &cube, p, n, e, 0.0, 0.1, false );
	CHECK_NEAR( P, ( 1.0 + e ) * m * v / 4.0, 1e-12 );
	CHECK_NEAR( cube.v.z, -v + ( 1.0 + e ) * v / 4.0, 1e-12 );
	CHECK_NEAR( cube.v.x, 0.0, 1e-15 );
	double spin = 3.0 * ( 1.0 + e ) * v / ( 8.0 * a );
	CHECK_NEAR( cube.w.x, spin, 1e-12 );
	CHECK_NEAR( cube.w.y, -spin, 1e-12 );
	CHECK_NEAR( cube.w.z, 0.0, 1e-15 );
	double vn = cnDot( cnAdd( cube.v, cnCross( cube.w, p ) ), n );
	CHECK_NEAR( vn, e * v, 1e-12 );
	// the ground does not move
	CHECK( ground.v.z == 0.0 && ground.w.x == 0.0 );

	// a point that approaches slower than v_max is resting contact: no impulse
	makeCube( &ground, &cube, m, a, cnV3( 0, 0, -0.05 ) );
	CHECK( cnAnalyticImpulse( &ground, &cube, p, n, e, 0.0, 0.1, false ) == 0.0 );
	CHECK( cube.v.z == -0.05 );
}

// Coulomb's law on the impulse for a solid sphere (I = 2/5 m R^2) hitting the ground at -v while
// sliding at u: the normal impulse is P = (1 + e) m v; stopping the slip at the contact takes
// m_t u with m_t = 1 / (1/m + R^2 / I) = 2/7 m. With mu P < 2/7 m u the ball keeps sliding:
// u' = u - mu P / m, spin 5 mu P / (2 m R); with mu large it rolls: u' = 5/7 u = w R.
static void sphereImpulseCoulomb( void )
{
	const double m = 2.0, R = 0.1, v = 3.0, u = 4.0, e = 0.3;
	for ( int sticking = 0; sticking < 2; ++sticking )
	{
		double mu = sticking ? 1.0 : 0.1;
		cnPenaltyBody ground, ball;
		memset( &ground, 0, sizeof( ground ) );
		ground.q = cnQuat_identity;
		memset( &ball, 0, sizeof( ball ) );
		ball.q = cnQuat_identity;
		ball.center = cnV3( 0, 0, R );
		ball.v = cnV3( u, 0, -v );
		ball.invMass = 1.0 / m;
		double invI = 5.0 / ( 2.0 * m * R * R );
		ball.invI = cnDiagonal( invI, invI, invI );
		double P = cnAnalyticImpulse( &ground, &ball, cnVec3_zero, cnV3( 0, 0, 1 ), e, mu, 0.1, false );
		CHECK_NEAR( P, ( 1.0 + e ) * m * v, 1e-12 );
		CHECK_NEAR( ball.v.z, e * v, 1e-12 );
		if ( sticking )
		{
			CHECK_NEAR( ball.v.x, 5.0 / 7.0 * u, 1e-12 );
			CHECK_NEAR( ball.w.y * R, 5.0 / 7.0 * u, 1e-12 );
		}
		else
		{
			CHECK_NEAR( ball.v.x, u - mu * P / m, 1e-12 );
			CHECK_NEAR( ball.w.y, 5.0 * mu * P / ( 2.0 * m * R ), 1e-12 );
		}
	}
}

// Two spheres in 1D (no gravity) meeting in the middle of a world step: after the impact
// v1' = ((m1 - e m2) v1 + (1 + e) m2 v2) / (m1 + m2), and v2' likewise. The impact is located on
// the integrator's dense output (bisection to 1e-12 of the step; free flight is a straight line,
// which the interpolant reproduces exactly), so the velocities are exact to round-off and the
// positions show the impact happened when the gap closed: x1 = x1(0) + v1 tc + v1' (T - tc).
static void twoSpheres1D( void )
{
	cnWorld* world = tbWorld( cnMethod_analyticImpulse, cnVec3_zero );
	const double e = 0.6, r1 = 0.1, r2 = 0.15;
	cnMaterialId m = tbMaterial( world, 0.5, e );
	const double x1 = -0.5, x2 = 0.52, v1 = 2.0, v2 = -1.0;
	cnBodyId a = addSphere( world, cnV3( x1, 0, 0 ), cnV3( v1, 0, 0 ), r1, m );
	cnBodyId b = addSphere( world, cnV3( x2, 0, 0 ), cnV3( v2, 0, 0 ), r2, m );
	double m1 = cnBody_GetMass( world, a ), m2 = cnBody_GetMass( world, b );
	const double dt = 1.0 / 60.0;
	const int steps = 30;
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
	}
	double u1 = ( ( m1 - e * m2 ) * v1 + ( 1.0 + e ) * m2 * v2 ) / ( m1 + m2 );
	double u2 = ( ( m2 - e * m1 ) * v2 + ( 1.0 + e ) * m1 * v1 ) / ( m1 + m2 );
	CHECK_NEAR( cnBody_GetLinearVelocity( world, a ).x, u1, 1e-9 );
	CHECK_NEAR( cnBody_GetLinearVelocity( world, b ).x, u2, 1e-9 );
	CHECK_NEAR( cnBody_GetLinearVelocity( world, a ).y, 0.0, 1e-12 );
	CHECK_NEAR( cnLength( cnBody_GetAngularVelocity( world, a ) ), 0.0, 1e-12 );
	double tc = ( x2 - x1 - r1 - r2 ) / ( v1 - v2 );
	double T = steps * dt;
	CHECK( tc > 15 * dt && tc < 16 * dt );
	CHECK_NEAR( cnBody_GetPosition( world, a ).x, x1 + v1 * tc + u1 * ( T - tc ), 1e-9 );
	CHECK_NEAR( cnBody_GetPosition( world, b ).x, x2 + v2 * tc + u2 * ( T - tc ), 1e-9 );
	cnDestroyWorld( world );
}

// Bouncing ball: h_n = e^(2n) h0 for as long as the impact speed exceeds v_max. Impacts are
// impulses at the located moment of touching and free flight is a parabola, which RK5 and its
// dense output reproduce exactly, so each apex (z + vz^2 / 2g in free flight) is exact to about
// 1e-9 (round-off over a few hundred steps).
static void ballBounce( void )
{
	cnWorld* world = tbWorld( cnMethod_analyticImpulse, cnV3( 0, 0, -9.81 ) );
	const double e = 0.7, r = 0.1, h0 = 1.0, g = 9.81;
	cnMaterialId rubber = tbGround( world, 0.5, e );
	cnBodyId ball = addSphere( world, cnV3( 0, 0, r + h0 ), cnVec3_zero, r, rubber );
	const double dt = 1.0 / 120.0;
	double apex[4];
	int count = 0;
	double prevVz = 0.0;
	bool bounced = false;
	for ( int i = 0; i < 600 && count < 4; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
		double z = cnBody_GetPosition( world, ball ).z - r;
		double vz = cnBody_GetLinearVelocity( world, ball ).z;
		bounced = bounced || ( prevVz < 0.0 && vz > 0.0 );
		if ( bounced && vz > 0.0 )
		{
			apex[count++] = z + vz * vz / ( 2.0 * g );
			bounced = false;
		}
		prevVz = vz;
	}
	CHECK( count == 4 );
	for ( int k = 0; k < count; ++k )
	{
		double expected = pow( e, 2.0 * ( k + 1 ) ) * h0;
		CHECK_NEAR( apex[k], expected, 1e-9 );
	}
	cnDestroyWorld( world );
}

// A cube falling flat onto the ground: its four corners touch at the same moment. Processed one
// after another, the first corner's impulse tips the cube, the others answer in turn, and the cube
// leaves spinning, where a simultaneous solution would keep it level by symmetry: the documented
// artefact. Since every impulse is vertical (frictionless), the horizontal momentum and the spin
// about the vertical stay zero; the normal momentum gained is the sum of the impulses; with
// e = 1 each impulse keeps the kinetic energy (Newton's law with e = 1 is elastic), with e < 1 the
// energy drops; all corners leave the ground (no corner approaches faster than v_max).
static void boxFallingFlatSpins( void )
{
	for ( int elastic = 0; elastic < 2; ++elastic )
	{
		double e = elastic ? 1.0 : 0.5;
		cnWorld* world = tbWorld( cnMethod_analyticImpulse, cnV3( 0, 0, -9.81 ) );
		cnMaterialId m = tbGround( world, 0.0, e );
		const double a = 0.2, drop = 0.3;
		cnBodyId box = addBox( world, cnV3( 0, 0, a + drop ), cnV3( a, a, a ), m );
		const double dt = 1.0 / 120.0;
		double v = sqrt( 2.0 * 9.81 * drop );
		double energyBefore = 0.0;
		int i = 0;
		// fall until just before the impact (the energy is then all kinetic plus potential)
		for ( ; i < 200; ++i )
		{
			double z = cnBody_GetPosition( world, box ).z - a;
			double vz = cnBody_GetLinearVelocity( world, box ).z;
			if ( z + vz * dt < 0.0 )
			{
				energyBefore = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world );
				break;
			}
			CHECK( cnWorld_Step( world, dt ) );
		}
		CHECK( cnWorld_Step( world, dt ) );
		CHECK( cnWorld_Step( world, dt ) );
		cnVec3 vel = cnBody_GetLinearVelocity( world, box );
		cnVec3 w = cnBody_GetAngularVelocity( world, box );
		double energyAfter = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world );
		CHECK( vel.z > 0.0 );
		CHECK_NEAR( vel.x, 0.0, 1e-9 );
		CHECK_NEAR( vel.y, 0.0, 1e-9 );
		CHECK_NEAR( w.z, 0.0, 1e-9 );
		// the artefact: a spin of the order of v / a where symmetry demands none
		CHECK( cnLength( w ) > 0.1 * v / a );
		// every corner of the bottom face separates: v_n = v_z + ((w x r) . z) >= 0
		cnQuat q = cnBody_GetOrientation( world, box );
		for ( int c = 0; c < 4; ++c )
		{
			cnVec3 r = cnRotate( q, cnV3( c & 1 ? a : -a, c & 2 ? a : -a, -a ) );
			CHECK( vel.z + cnCross( w, r ).z > 0.0 );
		}
		if ( elastic )
		{
			CHECK_NEAR( energyAfter, energyBefore, 1e-9 * energyBefore );
		}
		else
		{
			CHECK( energyAfter < energyBefore );
		}
		cnDestroyWorld( world );
	}
}

// Resting contact is the penalty method's: a cube set on the ground (no approach) is held by four
// corner springs of k = m_eff (2 pi f)^2 with m_eff = m / 4 per corner (see
// cornerImpulseNewton), together m (2 pi f)^2, so it sinks g / (2 pi f)^2 = 24.85 micrometres
// (1 %: the settling oscillation has decayed after 1 s) and stays level.
static void restingCubeDepth( void )
{
	cnWorld* world = tbWorld( cnMethod_analyticImpulse, cnV3( 0, 0, -9.81 ) );
	cnMaterialId m = tbGround( world, 0.6, 0.0 );
	const double a = 0.25;
	cnBodyId box = addBox( world, cnV3( 0, 0, a ), cnV3( a, a, a ), m );
	int steps = testFast() ? 30 : 60;
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	}
	double omega = 2.0 * CN_PI * CN_PENALTY_FREQUENCY;
	double depth = a - cnBody_GetPosition( world, box ).z;
	CHECK_NEAR( depth, 9.81 / ( omega * omega ), 0.01 * 9.81 / ( omega * omega ) );
	CHECK_NEAR( cnLength( cnBody_GetAngularVelocity( world, box ) ), 0.0, 1e-6 );
	cnQuat q = cnBody_GetOrientation( world, box );
	CHECK_NEAR( q.w, 1.0, 1e-9 );
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( cornerImpulseNewton );
	RUN_TEST( sphereImpulseCoulomb );
	RUN_TEST( twoSpheres1D );
	RUN_TEST( ballBounce );
	RUN_TEST( boxFallingFlatSpins );
	RUN_TEST( restingCubeDepth );
	return TEST_SUMMARY();
}
