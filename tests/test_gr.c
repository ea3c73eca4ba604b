// SPDX-License-Identifier: MIT
// Simultaneous elastic impacts (shared/VALIDATION.md, "Simultaneous impacts"): generalized
// reflection (gr-lcp, gr-velocity-projection) against a single elastic solve (lcp with Lemke and
// with the boxed solver, velocity-projection) on Newton's cradle, two strikers, Bernoulli's
// problem and a symmetric rack; momentum and energy conservation; the reflection cap's error.
//
// Every scene: gravity off, unit masses, unit spheres (radius 1) whose centres are exactly 2 apart,
// so every contact is active in the first step; e = 1, no friction, restitution threshold 0 (the
// world default of 1 m/s would otherwise decide whether a slow approach bounces). The closed forms
// are for one impact, so each case checks the velocities after the first step.
#include "cairn/cairn.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>
#include <string.h>

#define CONFIG_COUNT 3

// The generalized reflection configurations (grConfigs), then as many single elastic solves
// (singleConfigs).
static const tbConfig allConfigs[2 * CONFIG_COUNT] = {
	{ cnMethod_grLcp, cnLcp_lemke, "gr-lcp/lemke" },
	{ cnMethod_grLcp, cnLcp_dantzig, "gr-lcp/boxed" },
	{ cnMethod_grVelocityProjection, cnLcp_lemke, "gr-velocity-projection" },
	{ cnMethod_lcp, cnLcp_lemke, "lcp/lemke" },
	{ cnMethod_lcp, cnLcp_dantzig, "lcp/boxed" },
	{ cnMethod_velocityProjection, cnLcp_lemke, "velocity-projection" },
};
static const tbConfig* const grConfigs = allConfigs;
static const tbConfig* const singleConfigs = allConfigs + CONFIG_COUNT;

// Velocities are O(v) = O(1) and the solves are a few pivots or projections on O(1) data, so
// 1e-9 leaves many orders of magnitude above round-off and still catches any wrong law.
#define VEL_TOL 1e-9

// The world of every scene: gravity off, restitution threshold 0, sleeping off.
static cnWorld* makeWorld( const tbConfig* config )
{
	cnWorldDef def = tbWorldDef( config->method, cnV3( 0, 0, 0 ) );
	def.settings.velocity.lcpSolver = config->solver;
	def.restitutionThreshold = 0.0;
	return tbCreateWorld( &def );
}

// a unit sphere of unit mass
static cnBodyId addBall( cnWorld* world, cnVec3 position, cnVec3 velocity, cnMaterialId material )
{
	cnBodyId id = tbSphere( world, cnBody_dynamic, position, velocity, 1.0, material );
	CHECK( cnBody_SetMass( world, id, 1.0 ) );
	return id;
}

// Relative conservation check of total momentum and kinetic energy (elastic: both kept to 1e-9).
static void checkConserved( cnWorld* world, cnVec3 p0, double e0 )
{
	cnVec3 p1 = cnWorld_GetLinearMomentum( world );
	double e1 = cnWorld_GetKineticEnergy( world );
	double scale = cnLength( p0 ) > 0.0 ? cnLength( p0 ) : 1.0;
	CHECK( cnLength( cnSub( p1, p0 ) ) <= 1e-9 * scale );
	CHECK_NEAR( e1, e0, 1e-9 * e0 );
}

// A line of touching balls along x with initial x velocities u.
static void runLine( const tbConfig* config, int count, const double* u, double* out )
{
	cnWorld* world = makeWorld( config );
	cnMaterialId m = tbMaterial( world, 0.0, 1.0 );
	cnBodyId ids[8];
	for ( int i = 0; i < count; ++i )
	{
		ids[i] = addBall( world, cnV3( 2.0 * i, 0, 0 ), cnV3( u[i], 0, 0 ), m );
	}
	cnVec3 p0 = cnWorld_GetLinearMomentum( world );
	double e0 = cnWorld_GetKineticEnergy( world );
	bool ok = cnWorld_Step( world, 1.0 / 60.0 );
	CHECK( ok );
	if ( !ok )
	{
		printf( "  %s: %s\n", config->label, cnGetError() );
	}
	for ( int i = 0; i < count; ++i )
	{
		cnVec3 v = cnBody_GetLinearVelocity( world, ids[i] );
		out[i] = v.x;
		// a head-on line stays on its axis
		CHECK( fabs( v.y ) + fabs( v.z ) <= VEL_TOL );
	}
	checkConserved( world, p0, e0 );
	cnDestroyWorld( world );
}

// Newton's cradle of N = 3, 4, 5 balls, striker speed v = 2.
// GR: striker 0, last ball v, the rest 0 (the impulse travels ball to ball).
// Single elastic solve: striker (2 - N) v / N, every other ball 2 v / N.
static void newtonsCradle( void )
{
	const double v = 2.0;
	for ( int N = 3; N <= 5; ++N )
	{
		double u[8] = { v, 0, 0, 0, 0, 0, 0, 0 };
		double out[8];
		for ( int c = 0; c < CONFIG_COUNT; ++c )
		{
			runLine( grConfigs + c, N, u, out );
			CHECK_NEAR( out[0], 0.0, VEL_TOL );
			for ( int i = 1; i < N - 1; ++i )
			{
				CHECK_NEAR( out[i], 0.0, VEL_TOL );
			}
			CHECK_NEAR( out[N - 1], v, VEL_TOL );

			runLine( singleConfigs + c, N, u, out );
			CHECK_NEAR( out[0], ( 2.0 - N ) * v / N, VEL_TOL );
			for ( int i = 1; i < N; ++i )
			{
				CHECK_NEAR( out[i], 2.0 * v / N, VEL_TOL );
			}
		}
	}
}

// Two strikers (v, v, 0): GR gives (0, v, v). A single elastic solve has contact 1-2 at rest
// (b1 = 0) and 2-3 approaching (b2 = (1 + e)(-v) = -2v) with A = [2 -1; -1 2]; both impulses are
// positive: z1 = 2v/3, z2 = 4v/3, so the balls end at (v - z1, v + z1 - z2, z2) = (v/3, v/3, 4v/3).
static void twoStrikers( void )
{
	const double v = 2.0;
	double u[3] = { v, v, 0.0 };
	double out[3];
	for ( int c = 0; c < CONFIG_COUNT; ++c )
	{
		runLine( grConfigs + c, 3, u, out );
		CHECK_NEAR( out[0], 0.0, VEL_TOL );
		CHECK_NEAR( out[1], v, VEL_TOL );
		CHECK_NEAR( out[2], v, VEL_TOL );

		runLine( singleConfigs + c, 3, u, out );
		CHECK_NEAR( out[0], v / 3.0, VEL_TOL );
		CHECK_NEAR( out[1], v / 3.0, VEL_TOL );
		CHECK_NEAR( out[2], 4.0 * v / 3.0, VEL_TOL );
	}
}

// Bernoulli's problem: the striker moves along +x into two balls touching it at +-30 degrees
// (which also touch each other). With impulse lambda along each line of centres n = (cos 30,
// +-sin 30): striker v - 2 lambda cos 30, struck balls lambda; e = 1 on both lines,
// lambda - (v - 2 lambda c) c = v c, so lambda = 2 v c / (1 + 2 c^2) = 2 sqrt(3) v / 5 = 0.6928 v
// and the striker ends at v - 2 lambda c = -v / 5. The struck balls separate from each other, so
// GR (one reflection) and the single solve agree.
static void bernoulli( void )
{
	const double v = 2.0;
	const double c = cos( CN_PI / 6.0 ), s = sin( CN_PI / 6.0 );
	const double lambda = 2.0 * sqrt( 3.0 ) / 5.0 * v;
	for ( int k = 0; k < 2 * CONFIG_COUNT; ++k )
	{
		cnWorld* world = makeWorld( allConfigs + k );
		cnMaterialId m = tbMaterial( world, 0.0, 1.0 );
		cnBodyId striker = addBall( world, cnV3( 0, 0, 0 ), cnV3( v, 0, 0 ), m );
		cnBodyId up = addBall( world, cnV3( 2.0 * c, 2.0 * s, 0 ), cnVec3_zero, m );
		cnBodyId down = addBall( world, cnV3( 2.0 * c, -2.0 * s, 0 ), cnVec3_zero, m );
		cnVec3 p0 = cnWorld_GetLinearMomentum( world );
		double e0 = cnWorld_GetKineticEnergy( world );
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		cnVec3 vs = cnBody_GetLinearVelocity( world, striker );
		cnVec3 vu = cnBody_GetLinearVelocity( world, up );
		cnVec3 vd = cnBody_GetLinearVelocity( world, down );
		CHECK_NEAR( vs.x, -v / 5.0, VEL_TOL );
		CHECK_NEAR( vs.y, 0.0, VEL_TOL );
		// along the line of centres, speed 0.6928 v
		CHECK_NEAR( vu.x, lambda * c, VEL_TOL );
		CHECK_NEAR( vu.y, lambda * s, VEL_TOL );
		CHECK_NEAR( vd.x, lambda * c, VEL_TOL );
		CHECK_NEAR( vd.y, -lambda * s, VEL_TOL );
		CHECK_NEAR( cnLength( vu ), 0.69282032 * v, 1e-8 * v );
		checkConserved( world, p0, e0 );
		cnDestroyWorld( world );
	}
}

// A symmetric rack: a striker on the x-axis into a triangle of three touching balls (apex on the
// axis, two behind it at +-30 degrees, touching each other) and two more balls behind those. The
// scene is mirror symmetric about the x-axis, so every ball's mirror partner must keep the mirrored
// state (x equal, y opposite) step after step, and the elastic methods conserve momentum and energy.
// Mirror partners are computed in a different order, so they agree to round-off (1e-9 here).
static void symmetricRack( void )
{
	const double v = 3.0;
	const double c = cos( CN_PI / 6.0 ), s = sin( CN_PI / 6.0 );
	for ( int k = 0; k < 2 * CONFIG_COUNT; ++k )
	{
		cnWorld* world = makeWorld( allConfigs + k );
		cnMaterialId m = tbMaterial( world, 0.0, 1.0 );
		cnBodyId ids[6];
		ids[0] = addBall( world, cnV3( -2.0, 0, 0 ), cnV3( v, 0, 0 ), m );
		ids[1] = addBall( world, cnV3( 0, 0, 0 ), cnVec3_zero, m );
		ids[2] = addBall( world, cnV3( 2.0 * c, 2.0 * s, 0 ), cnVec3_zero, m );
		ids[3] = addBall( world, cnV3( 2.0 * c, -2.0 * s, 0 ), cnVec3_zero, m );
		ids[4] = addBall( world, cnV3( 4.0 * c, 4.0 * s, 0 ), cnVec3_zero, m );
		ids[5] = addBall( world, cnV3( 4.0 * c, -4.0 * s, 0 ), cnVec3_zero, m );
		cnVec3 p0 = cnWorld_GetLinearMomentum( world );
		double e0 = cnWorld_GetKineticEnergy( world );
		bool ok = true;
		for ( int i = 0; i < 60 && ok; ++i )
		{
			ok = cnWorld_Step( world, 1.0 / 120.0 );
		}
		CHECK( ok );
		const int pairs[2][2] = { { 2, 3 }, { 4, 5 } };
		for ( int p = 0; p < 2; ++p )
		{
			cnVec3 a = cnBody_GetPosition( world, ids[pairs[p][0]] );
			cnVec3 b = cnBody_GetPosition( world, ids[pairs[p][1]] );
			CHECK_NEAR( a.x, b.x, 1e-9 );
			CHECK_NEAR( a.y, -b.y, 1e-9 );
			cnVec3 va = cnBody_GetLinearVelocity( world, ids[pairs[p][0]] );
			cnVec3 vb = cnBody_GetLinearVelocity( world, ids[pairs[p][1]] );
			CHECK_NEAR( va.x, vb.x, 1e-9 );
			CHECK_NEAR( va.y, -vb.y, 1e-9 );
		}
		for ( int i = 0; i < 2; ++i )
		{
			CHECK_NEAR( cnBody_GetPosition( world, ids[i] ).y, 0.0, 1e-9 );
		}
		checkConserved( world, p0, e0 );
		cnDestroyWorld( world );
	}
}

// A ball wedged between two static walls that both touch it, moving at v with e = 1: every
// reflection sends it into the other wall, so generalized reflection never ends. At the pass cap
// the island takes one simultaneous inelastic response from its velocity before the contacts: the
// only velocity that approaches neither wall is zero along x, so the ball stops where it is (it
// cannot move between two touching walls), the step succeeds, and the fallback is counted.
static void reflectionCap( void )
{
	for ( int k = 0; k < CONFIG_COUNT; ++k )
	{
		if ( grConfigs[k].solver == cnLcp_dantzig )
		{
			continue;
		}
		cnWorld* world = makeWorld( grConfigs + k );
		cnMaterialId m = tbMaterial( world, 0.0, 1.0 );
		cnBodyId ball = addBall( world, cnVec3_zero, cnV3( 1.0, 0, 0 ), m );
		for ( int side = -1; side <= 1; side += 2 )
		{
			tbBox( world, cnBody_static, cnV3( side * 2.0, 0, 0 ), cnQuat_identity, cnVec3_zero, cnV3( 1.0, 2.0, 2.0 ), m );
		}
		CHECK( cnWorld_GetStats( world ).grFallbackCount == 0 );
		bool ok = cnWorld_Step( world, 1.0 / 60.0 );
		CHECK( ok );
		CHECK( cnWorld_GetStats( world ).grFallbackCount == 1 );
		// an LCP or QP solved directly: round-off only
		CHECK( cnLength( cnBody_GetLinearVelocity( world, ball ) ) < 1e-12 );
		CHECK( fabs( cnBody_GetPosition( world, ball ).x ) < 1e-12 );
		cnDestroyWorld( world );
	}
}

int main( void )
{
	RUN_TEST( newtonsCradle );
	RUN_TEST( twoStrikers );
	RUN_TEST( bernoulli );
	RUN_TEST( symmetricRack );
	RUN_TEST( reflectionCap );
	return TEST_SUMMARY();
}
