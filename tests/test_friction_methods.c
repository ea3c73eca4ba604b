// SPDX-License-Identifier: MIT
// The incline's stick/slip and the sliding block's deceleration in the friction-capable methods
// whose own test files do not cover them: analytic-impulse (resting contact through the penalty
// springs with their regularised static friction) and gr-lcp with the boxed friction LCP.
// (impulse: test_contact.c; lcp: test_method_velocity.c; penalty: test_method_penalty.c.)
// Closed forms from ../shared/VALIDATION.md: on a slope of angle theta with friction mu a block
// sticks for tan(theta) <= mu and otherwise slides with a = g (sin(theta) - mu cos(theta)); on the
// level, sliding at v0 it decelerates at mu g and stops after v0^2 / (2 mu g).
#include "cairn/cairn.h"
#include "cairn/scene.h"
#include <stdio.h>
#include <stdlib.h>
#include "methods/penalty.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>

// A 1 x 1 x 0.5 box (mass from density) resting on a plane under gravity tilted by theta about y, so
// the slope runs along +x; mu = 0.5, g = 10. Returns the box's x after the given time and its speed.
static double incline( cnMethod method, double thetaDeg, double seconds, double* velocity )
{
	double theta = thetaDeg * CN_PI / 180.0;
	cnWorld* world = tbWorldLcp( method, cnLcp_dantzig, cnV3( 10.0 * sin( theta ), 0, -10.0 * cos( theta ) ) );
	cnMaterialId m = tbGround( world, 0.5, 0.0 );
	cnBodyId box = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 0.25 ), cnQuat_identity, cnVec3_zero, cnV3( 0.5, 0.5, 0.25 ), m );
	const double dt = 1.0 / 120.0;
	int steps = (int)lround( seconds / dt );
	bool ok = true;
	for ( int i = 0; i < steps && ok; ++i )
	{
		ok = cnWorld_Step( world, dt );
		if ( ok == false )
		{
			printf( "  step failed: %s\n", cnGetError() );
		}
	}
	CHECK( ok );
	double x = cnBody_GetPosition( world, box ).x;
	*velocity = cnBody_GetLinearVelocity( world, box ).x;
	cnDestroyWorld( world );
	return x;
}

// gr-lcp with the boxed LCP: static friction is exact (a complementarity condition), so below
// atan(0.5) = 26.565 degrees the block moves by round-off only; at 30.42 degrees it slides with
// a = 0.7517 from the first step. Symplectic Euler gives v = a t and s = a t^2 / 2 + a h t / 2.
static void grLcpIncline( void )
{
	double v;
	double x = incline( cnMethod_grLcp, 26.0, 2.0, &v );
	CHECK_NEAR( x, 0.0, 1e-9 );
	CHECK_NEAR( v, 0.0, 1e-9 );
	double theta = 30.42 * CN_PI / 180.0, a = 10.0 * ( sin( theta ) - 0.5 * cos( theta ) ), T = 2.0;
	x = incline( cnMethod_grLcp, 30.42, T, &v );
	CHECK_NEAR( v, a * T, 1e-9 * a * T );
	CHECK_NEAR( x, 0.5 * a * T * T + 0.5 * a * T / 120.0, 1e-9 * a * T * T );
}

// analytic-impulse: the resting block is held by the penalty springs, whose static friction is
// regularised below the slip speed v_eps (CN_PENALTY_SLIP_SPEED): holding m g sin against
// mu m g cos takes the creep speed v_eps tan(theta) / mu. Above atan(mu) the block slides with a; the
// time lost at the start (slip below v_eps: v_eps / a ~ 1 ms, the settling of the springs a few ms)
// is well inside 2 %, as in test_method_penalty.c.
static void analyticIncline( void )
{
	double T = testFast() ? 1.0 : 2.0;
	double v;
	double theta = 26.0 * CN_PI / 180.0;
	double creep = CN_PENALTY_SLIP_SPEED * tan( theta ) / 0.5;
	double x = incline( cnMethod_analyticImpulse, 26.0, T, &v );
	printf( "  26 deg: x %.4g m (creep %.4g m), v %.4g m/s\n", x, creep * T, v );
	CHECK_NEAR( v, creep, 0.02 * creep );
	CHECK_NEAR( x, creep * T, 0.02 * creep * T );
	theta = 30.42 * CN_PI / 180.0;
	double a = 10.0 * ( sin( theta ) - 0.5 * cos( theta ) );
	x = incline( cnMethod_analyticImpulse, 30.42, T, &v );
	printf( "  30.42 deg: x %.4g m (a T^2/2 = %.4g), v %.4g m/s (a T = %.4g)\n", x, 0.5 * a * T * T, v, a * T );
	CHECK_NEAR( v, a * T, 0.02 * a * T );
	CHECK_NEAR( x, 0.5 * a * T * T, 0.02 * 0.5 * a * T * T );
}

// A box sliding on the level at v0 = 3 m/s, mu = 0.5, g = 10: it decelerates at mu g = 5 m/s^2 and
// stops after t = v0 / (mu g) = 0.6 s, having slid v0^2 / (2 mu g) = 0.9 m. gr-lcp (boxed) steps
// symplectic Euler with exact friction: v_n = v0 - mu g h n until it reaches zero at n = N = 72, and
// x = h sum_{n=1..N} v_n = h (N v0 - mu g h N (N + 1) / 2) = 0.8875 exactly (round-off: 1e-12).
// analytic-impulse integrates the sliding friction continuously (Dormand-Prince), so it follows the
// closed form 0.9 up to its error tolerance and the regularised creep at the very end (0.1 %).
static void slidingStop( void )
{
	const cnMethod methods[2] = { cnMethod_grLcp, cnMethod_analyticImpulse };
	const char* names[2] = { "gr-lcp", "analytic-impulse" };
	for ( int k = 0; k < 2; ++k )
	{
		cnWorld* world = tbWorldLcp( methods[k], cnLcp_dantzig, cnV3( 0, 0, -10.0 ) );
		cnMaterialId m = tbGround( world, 0.5, 0.0 );
		cnBodyId box =
			tbBox( world, cnBody_dynamic, cnV3( 0, 0, 0.25 ), cnQuat_identity, cnV3( 3.0, 0, 0 ), cnV3( 0.5, 0.5, 0.25 ), m );
		const double dt = 1.0 / 120.0;
		double vHalf = 0.0;
		bool ok = true;
		for ( int i = 0; i < 120 && ok; ++i )
		{
			ok = cnWorld_Step( world, dt );
			if ( i + 1 == 36 )
			{
				// t = 0.3 s: half way, v = v0 - mu g t = 1.5
				vHalf = cnBody_GetLinearVelocity( world, box ).x;
			}
		}
		CHECK( ok );
		double x = cnBody_GetPosition( world, box ).x;
		double v = cnBody_GetLinearVelocity( world, box ).x;
		printf( "  %-16s v(0.3 s) %.5f (1.5), stopped at x %.5f (0.9), v %.2e\n", names[k], vHalf, x, v );
		// deceleration mu g: v(0.3 s) = 1.5 in both (the discrete sum is exact at step ends)
		CHECK_NEAR( vHalf, 1.5, 1e-9 );
		if ( methods[k] == cnMethod_grLcp )
		{
			CHECK_NEAR( x, 0.8875, 1e-12 );
		}
		else
		{
			CHECK_NEAR( x, 0.9, 1e-3 * 0.9 );
		}
		CHECK( fabs( v ) < 1e-3 );
		cnDestroyWorld( world );
	}
}

// The shipped dominoes with lcp and the boxed (dantzig) solver: from about t = 1.29 s toppling
// dominoes lean on each other and slide on the floor, large redundant contact sets (90-294 rows) on
// which the boxed solver can end short of a solution in round-off. The step must not fail: such a
// set goes frictionless for the step (cnStats.frictionFallbackCount) and the run goes on with no
// body sinking into another. Whether a given compiler's round-off
// meets such a set exactly there is not part of the check; the run reaching 1.35 s is.
static void dominoesWithBoxedLcp( void )
{
	// the scene with its method replaced, as cairn run --method does (its lcp_solver is dantzig,
	// the default)
	cnScene* scene = cnLoadSceneWithMethod( CAIRN_SOURCE_DIR "/scenes/dominoes.json", cnMethod_lcp );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		printf( "  %s\n", cnGetError() );
		return;
	}
	CHECK( cnWorld_GetDef( scene->world ).settings.velocity.lcpSolver == cnLcp_dantzig );
	cnWorld* world = scene->world;
	const double h = scene->timeStep;
	int steps = (int)ceil( 1.35 / h );
	bool ok = true;
	double deepest = 0.0;
	for ( int i = 0; i < steps && ok; ++i )
	{
		ok = cnWorld_Step( world, h );
		if ( ok == false )
		{
			printf( "  step failed: %s\n", cnGetError() );
		}
		deepest = fmax( deepest, cnWorld_GetMaxPenetration( world ) );
	}
	printf( "  reached t = %.3f s, %lld friction fallbacks, deepest overlap %.2e m\n", cnWorld_GetTime( world ),
			(long long)cnWorld_GetStats( world ).frictionFallbackCount, deepest );
	CHECK( ok );
	// no domino sinks into another or the floor: the dominoes are 4 cm thick and 40 cm tall, so 1 cm
	// would be a visible quarter of a domino; the position correction keeps overlaps near its 5 mm slop
	CHECK( deepest < 0.01 );
	cnDestroyScene( scene );
}

int main( void )
{
	RUN_TEST( grLcpIncline );
	RUN_TEST( analyticIncline );
	RUN_TEST( slidingStop );
	RUN_TEST( dominoesWithBoxedLcp );
	return TEST_SUMMARY();
}
