// SPDX-License-Identifier: MIT
// Impacts against closed forms, in every method they apply to (docs/methods.md, "At an impact"):
// an elastic ball bouncing on a floor keeps its energy over 20 bounces; with restitution e the
// ratio of successive apex heights is e^2; an oblique bounce with sticking friction leaves rolling
// at 5/7 of the tangential speed; a sliding one changes the tangential speed by mu (1 + e) |v_n|;
// an oblique elastic collision of two spheres keeps linear and angular momentum and energy; and a
// free body drifting or spinning slowly keeps its motion (nothing holds it, so it must not sleep).
#include "test.h"
#include "test_bodies.h"

#include <string.h>

#define G 9.81

// Every method, with the LCP solver of the lcp ones.
static const tbConfig s_all[] = {
	{ cnMethod_impulse, cnLcp_dantzig, "impulse" },
	{ cnMethod_lcp, cnLcp_dantzig, "lcp" },
	{ cnMethod_lcp, cnLcp_lemke, "lcp/lemke" },
	{ cnMethod_velocityProjection, cnLcp_dantzig, "velocity-projection" },
	{ cnMethod_grLcp, cnLcp_dantzig, "gr-lcp" },
	{ cnMethod_grVelocityProjection, cnLcp_dantzig, "gr-velocity-projection" },
	{ cnMethod_penalty, cnLcp_dantzig, "penalty" },
	{ cnMethod_analyticImpulse, cnLcp_dantzig, "analytic-impulse" },
	{ cnMethod_constraint, cnLcp_dantzig, "constraint" },
};
#define ALL_COUNT ( (int)( sizeof( s_all ) / sizeof( s_all[0] ) ) )

// Whether a config's method models Coulomb friction.
static bool hasFriction( const tbConfig* c )
{
	if ( ( cnMethod_GetFlags( c->method ) & cnMethodFlag_friction ) == 0 )
	{
		return false;
	}
	bool lcp = c->method == cnMethod_lcp || c->method == cnMethod_grLcp;
	return lcp == false || c->solver == cnLcp_dantzig;
}

// A ball of radius 0.1 dropped from rest with its centre at 1 + 0.1 above a floor of restitution
// e (friction 0); returns the first apexCount apex heights of its centre above the floor's
// contact height (0.1), found where the vertical velocity turns from up to down.
static int bounceApexes( const tbConfig* c, double e, double h, double* apex, int apexCount, double seconds,
						 double stiffness )
{
	cnWorld* world = tbConfigWorld( c, cnV3( 0, 0, -G ) );
	cnMaterialDef md = cnDefaultMaterialDef();
	md.friction = 0.0;
	md.restitution = e;
	md.stiffness = stiffness;
	cnMaterialId m = cnCreateMaterial( world, &md );
	tbPlane( world, cnV3( 0, 0, 1 ), m );
	cnBodyId ball = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 1.1 ), cnVec3_zero, 0.1, m );
	int found = 0;
	double lastVz = 0.0;
	int steps = (int)( seconds / h );
	for ( int i = 0; i < steps && found < apexCount; ++i )
	{
		if ( cnWorld_Step( world, h ) == false )
		{
			printf( "  %s: step failed: %s\n", c->label, cnGetError() );
			CHECK( false );
			break;
		}
		double vz = cnBody_GetLinearVelocity( world, ball ).z;
		if ( lastVz > 0.0 && vz <= 0.0 )
		{
			// the apex lies between the last two samples: the top of the parabola through them
			double z = cnBody_GetPosition( world, ball ).z;
			double top = z + 0.5 * vz * vz / G;
			apex[found++] = top - 0.1;
		}
		lastVz = vz;
	}
	cnDestroyWorld( world );
	return found;
}

// An elastic ball keeps its bounce height (its energy) over 20 bounces within 1 %.
static void test_elastic_bounces( void )
{
	for ( int k = 0; k < ALL_COUNT; ++k )
	{
		const tbConfig* c = s_all + k;
		double apex[20];
		int n = bounceApexes( c, 1.0, 1.0 / 240.0, apex, 20, 30.0, 0.0 );
		CHECK( n == 20 );
		double worst = 0.0;
		for ( int i = 0; i < n; ++i )
		{
			worst = fmax( worst, fabs( apex[i] - 1.0 ) );
		}
		printf( "  %-24s e = 1: %d apexes, largest energy change %.4f %%\n", c->label, n, 100.0 * worst );
		CHECK( n == 20 && worst < 0.01 );
	}
}

// With restitution 0.5 each apex is e^2 = 1/4 of the one before, within 2 %. The penalty methods'
// springs take time to act (about pi / omega), and gravity acting meanwhile lowers the rebound by
// about 0.05 m/s / v at their default 100 Hz (docs/methods.md): the ball's material is made stiff
// enough (1 kHz for its 4.2 kg) that the impacts of this test, down to 1.1 m/s, stay within 2 %.
static void test_restitution_heights( void )
{
	for ( int k = 0; k < ALL_COUNT; ++k )
	{
		const tbConfig* c = s_all + k;
		double apex[3];
		bool springs = c->method == cnMethod_penalty;
		double mass = 1000.0 * 4.0 / 3.0 * CN_PI * 0.001, omega = 2.0 * CN_PI * 1000.0;
		int n = bounceApexes( c, 0.5, 1.0 / 240.0, apex, 3, 10.0, springs ? mass * omega * omega : 0.0 );
		double r1 = n > 0 ? apex[0] / 1.0 : 0.0;
		double r2 = n > 1 ? apex[1] / apex[0] : 0.0;
		double r3 = n > 2 ? apex[2] / apex[1] : 0.0;
		printf( "  %-24s e = 0.5: apex ratios %.4f %.4f %.4f (e^2 = 0.25)\n", c->label, r1, r2, r3 );
		CHECK( n == 3 && fabs( r1 - 0.25 ) < 0.005 && fabs( r2 - 0.25 ) < 0.005 && fabs( r3 - 0.25 ) < 0.005 );
		if ( springs )
		{
			// at the default stiffness: the documented bound, 0.06 m/s / v of the ratio
			n = bounceApexes( c, 0.5, 1.0 / 240.0, apex, 3, 10.0, 0.0 );
			double v[3] = { sqrt( 2.0 * G ), sqrt( 2.0 * G * 0.25 ), sqrt( 2.0 * G * 0.0625 ) };
			double previous = 1.0;
			for ( int i = 0; i < n; ++i )
			{
				double ratio = apex[i] / previous;
				printf( "  %-24s default stiffness: ratio %.4f at %.2f m/s\n", c->label, ratio, v[i] );
				CHECK( fabs( ratio / 0.25 - 1.0 ) < 0.06 / v[i] );
				previous = apex[i];
			}
		}
	}
}

// A ball hits the floor at vn = 3 m/s with vt = 2 m/s and no spin. With friction enough to stop the
// slip (mu >= 2 vt / (7 (1 + e) vn)), it leaves rolling: vt' = 5/7 vt, w = vt' / r. With too little,
// it slides throughout: vt' = vt - mu (1 + e) vn. Gravity off, so the impact alone is measured.
static void obliqueBounce( const tbConfig* c, double mu, double e, double* vt, double* spin, double* vn )
{
	cnWorld* world = tbConfigWorld( c, cnVec3_zero );
	cnMaterialId m = tbGround( world, mu, e );
	cnBodyId ball = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 0.1 + 0.05 ), cnV3( 2.0, 0, -3.0 ), 0.1, m );
	for ( int i = 0; i < 60; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 240.0 ) );
	}
	cnVec3 v = cnBody_GetLinearVelocity( world, ball );
	*vt = v.x;
	*vn = v.z;
	*spin = cnBody_GetAngularVelocity( world, ball ).y;
	cnDestroyWorld( world );
}

static void test_oblique_sticking( void )
{
	for ( int k = 0; k < ALL_COUNT; ++k )
	{
		const tbConfig* c = s_all + k;
		if ( hasFriction( c ) == false )
		{
			continue;
		}
		double vt, spin, vn;
		obliqueBounce( c, 1.0, 0.5, &vt, &spin, &vn );
		printf( "  %-24s sticking: vt' = %.4f (5/7 vt = %.4f), w r = %.4f, vn' = %.4f (1.5)\n", c->label, vt,
				2.0 * 5.0 / 7.0, spin * 0.1, vn );
		CHECK( fabs( vt - 10.0 / 7.0 ) < 0.02 * 10.0 / 7.0 && fabs( spin * 0.1 - vt ) < 0.02 * 10.0 / 7.0 );
	}
}

static void test_oblique_sliding( void )
{
	for ( int k = 0; k < ALL_COUNT; ++k )
	{
		const tbConfig* c = s_all + k;
		if ( hasFriction( c ) == false )
		{
			continue;
		}
		double vt, spin, vn;
		double mu = 0.1, e = 0.5;
		obliqueBounce( c, mu, e, &vt, &spin, &vn );
		double expected = 2.0 - mu * ( 1.0 + e ) * 3.0;
		printf( "  %-24s sliding: vt' = %.4f (vt - mu (1 + e) vn = %.4f)\n", c->label, vt, expected );
		CHECK( fabs( ( 2.0 - vt ) - ( 2.0 - expected ) ) < 0.02 * ( 2.0 - expected ) );
	}
}

// Two equal spheres (radius 0.5, e = 1, no friction, no gravity), one at rest, the other at 1 m/s
// along x with an impact parameter of 0.5: linear and angular momentum about the origin and energy
// are kept; the spheres leave at right angles.
static void test_oblique_spheres( void )
{
	for ( int k = 0; k < ALL_COUNT; ++k )
	{
		const tbConfig* c = s_all + k;
		// every approach bounces: no restitution threshold
		cnWorldDef def = tbWorldDef( c->method, cnVec3_zero );
		def.settings.velocity.lcpSolver = c->solver;
		def.restitutionThreshold = 0.0;
		cnWorld* world = tbCreateWorld( &def );
		cnMaterialId m = tbMaterial( world, 0.0, 1.0 );
		cnBodyId a = tbSphere( world, cnBody_dynamic, cnV3( -2.0, 0.5, 0 ), cnV3( 1.0, 0, 0 ), 0.5, m );
		cnBodyId b = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 0 ), cnVec3_zero, 0.5, m );
		double mass = cnBody_GetMass( world, a );
		double L0 = mass * ( 0.5 * 0.0 - 0.0 * 1.0 ) - mass * 0.5 * 1.0;
		for ( int i = 0; i < 240; ++i )
		{
			CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		}
		cnVec3 pa = cnBody_GetPosition( world, a ), pb = cnBody_GetPosition( world, b );
		cnVec3 va = cnBody_GetLinearVelocity( world, a ), vb = cnBody_GetLinearVelocity( world, b );
		cnVec3 wa = cnBody_GetAngularVelocity( world, a ), wb = cnBody_GetAngularVelocity( world, b );
		double px = mass * ( va.x + vb.x ), py = mass * ( va.y + vb.y );
		// L_z about the origin: m (x vy - y vx) summed, plus spins
		double L = mass * ( pa.x * va.y - pa.y * va.x + pb.x * vb.y - pb.y * vb.x );
		double I = 0.4 * mass * 0.25;
		L += I * ( wa.z + wb.z );
		double E = 0.5 * mass * ( cnDot( va, va ) + cnDot( vb, vb ) ) + 0.5 * I * ( cnDot( wa, wa ) + cnDot( wb, wb ) );
		double E0 = 0.5 * mass;
		double angle = acos( cnDot( va, vb ) / ( cnLength( va ) * cnLength( vb ) + 1e-300 ) );
		printf( "  %-24s spheres: P (%.2e, %.2e) L %.3e E %.3e angle %.4f\n", c->label, px / mass - 1.0, py / mass,
				L / L0 - 1.0, E / E0 - 1.0, angle - 0.5 * CN_PI );
		CHECK( fabs( px / mass - 1.0 ) < 1e-9 && fabs( py / mass ) < 1e-9 );
		CHECK( fabs( L / L0 - 1.0 ) < 0.002 );
		CHECK( fabs( E / E0 - 1.0 ) < 0.002 );
		cnDestroyWorld( world );
	}
}

// A free body drifting at 1 cm/s or spinning at 0.02 rad/s, touching nothing, with sleeping on:
// nothing holds it, so it keeps its motion for 10 s.
static void test_free_bodies_keep_moving( void )
{
	for ( int k = 0; k < ALL_COUNT; ++k )
	{
		const tbConfig* c = s_all + k;
		cnWorldDef def = tbWorldDef( c->method, cnVec3_zero );
		def.settings.velocity.lcpSolver = c->solver;
		def.enableSleep = true;
		cnWorld* world = tbCreateWorld( &def );
		cnBodyId drift = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 0 ), cnV3( 0.01, 0, 0 ), 0.5, 0 );
		cnBodyId spin = tbBox( world, cnBody_dynamic, cnV3( 5, 0, 0 ), cnQuat_identity, cnVec3_zero,
							   cnV3( 0.5, 0.5, 0.5 ), 0 );
		cnBody_SetAngularVelocity( world, spin, cnV3( 0, 0, 0.02 ) );
		for ( int i = 0; i < 600; ++i )
		{
			CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		}
		double x = cnBody_GetPosition( world, drift ).x;
		double w = cnBody_GetAngularVelocity( world, spin ).z;
		printf( "  %-24s free: x = %.6f (0.1), w = %.6f (0.02), awake %d %d\n", c->label, x, w,
				cnBody_IsAwake( world, drift ), cnBody_IsAwake( world, spin ) );
		CHECK( fabs( x - 0.1 ) < 1e-9 && fabs( w - 0.02 ) < 1e-12 );
		cnDestroyWorld( world );
	}
}

int main( void )
{
	RUN_TEST( test_elastic_bounces );
	RUN_TEST( test_restitution_heights );
	RUN_TEST( test_oblique_sticking );
	RUN_TEST( test_oblique_sliding );
	RUN_TEST( test_oblique_spheres );
	RUN_TEST( test_free_bodies_keep_moving );
	return TEST_SUMMARY();
}
