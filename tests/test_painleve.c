// SPDX-License-Identifier: MIT
// Painleve's paradox in every contact method. A rod leans on a rough floor and slides away from its
// upper end; with mu large enough no contact force is consistent with rigid-body dynamics (Painleve
// 1895; Stewart 2000, "Rigid-body dynamics with friction and impact", SIAM Review). The issue asks
// that no method crash or produce NaN on it: each must resolve it (an impulsive stop, a slide) or
// report an error. On top of that every method must keep the physics that holds whatever the
// resolution: friction and inelastic contact never add energy, the floor is not crossed, and a
// scene symmetric about the xz-plane stays symmetric.
#include "cairn/cairn.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>
#include <string.h>

static const tbConfig configs[] = {
	{ cnMethod_impulse, cnLcp_lemke, "impulse" },
	{ cnMethod_lcp, cnLcp_lemke, "lcp/lemke" },
	{ cnMethod_lcp, cnLcp_dantzig, "lcp/dantzig" },
	{ cnMethod_velocityProjection, cnLcp_lemke, "velocity-projection" },
	{ cnMethod_grLcp, cnLcp_dantzig, "gr-lcp" },
	{ cnMethod_grVelocityProjection, cnLcp_lemke, "gr-velocity-projection" },
	{ cnMethod_penalty, cnLcp_lemke, "penalty" },
	{ cnMethod_analyticImpulse, cnLcp_lemke, "analytic-impulse" },
	{ cnMethod_constraint, cnLcp_lemke, "constraint" },
};
#define CONFIG_COUNT ( (int)( sizeof( configs ) / sizeof( configs[0] ) ) )

static bool finite3( cnVec3 v )
{
	return isfinite( v.x ) && isfinite( v.y ) && isfinite( v.z );
}

// The rod: a capsule of half length l = 1 and radius r = 0.05 leaning at theta = atan 2 from the
// floor, its lower end touching the floor and sliding at 2 m/s away from the upper end, mu = 1.5.
// For a uniform rod Painleve's coefficient of the normal force, B = 1 + 3 cos^2 theta -
// 3 mu sin theta cos theta = 1 + 3/5 - 3 (1.5) (2/5) = -0.2, is negative: the classical (force-level)
// problem has no solution while the end slides.
static void painleve_rod( void )
{
	const double theta = atan( 2.0 ), r = 0.05, l = 1.0, dt = 1.0 / 120.0;
	const int steps = testFast() ? 40 : 120;
	for ( int c = 0; c < CONFIG_COUNT; ++c )
	{
		cnWorld* world = tbConfigWorld( configs + c, cnV3( 0, 0, -9.81 ) );
		if ( world == NULL )
		{
			continue;
		}
		cnMaterialId m = tbGround( world, 1.5, 0.0 );
		cnVec3 axis = cnV3( cos( theta ), 0, sin( theta ) );
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = cnShape_capsule;
		sd.radius = r;
		sd.halfHeight = l;
		sd.material = m;
		// the capsule axis is its local z: turn z onto the rod axis about -y
		cnQuat q = cnQuatFromAxisAngle( cnV3( 0, 1, 0 ), 0.5 * CN_PI - theta );
		cnBodyId rod = tbBody( world, cnBody_dynamic, cnMulAdd( cnV3( 0, 0, r ), l, axis ), q, cnV3( -2.0, 0, 0 ), &sd );

		double e0 = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world );
		double worstGain = -INFINITY, worstDepth = 0.0, worstAsymmetry = 0.0;
		int failures = 0;
		bool finite = true;
		for ( int i = 0; i < steps; ++i )
		{
			cnVec3 before = cnBody_GetPosition( world, rod );
			if ( cnWorld_Step( world, dt ) == false )
			{
				// a reported failure: a message, and the world left as it was before the step
				failures += 1;
				CHECK( strlen( cnGetError() ) > 0 );
				cnVec3 after = cnBody_GetPosition( world, rod );
				CHECK( after.x == before.x && after.y == before.y && after.z == before.z );
				break;
			}
			cnVec3 p = cnBody_GetPosition( world, rod );
			cnVec3 v = cnBody_GetLinearVelocity( world, rod );
			cnVec3 w = cnBody_GetAngularVelocity( world, rod );
			finite = finite && finite3( p ) && finite3( v ) && finite3( w );
			double e = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world );
			worstGain = fmax( worstGain, e - e0 );
			worstDepth = fmax( worstDepth, cnWorld_GetMaxPenetration( world ) );
			// out of the xz-plane: y motion and rotation about x or z
			worstAsymmetry = fmax( worstAsymmetry, fmax( fabs( p.y ) + fabs( v.y ), fabs( w.x ) + fabs( w.z ) ) );
		}
		printf( "  %-22s energy gain %+.3e J of E0 %.3f J, deepest %.3e m, asymmetry %.1e%s\n", configs[c].label,
				worstGain, e0, worstDepth, worstAsymmetry, failures > 0 ? " (reported a failure)" : "" );
		CHECK( finite );
		// friction and inelastic contact only take energy away; the penalty springs hold a little
		// elastic energy while compressed (m g over the contact stiffness), far below 1 % of E0
		CHECK( worstGain < 0.01 * fabs( e0 ) );
		// the floor is not crossed: 1 cm is five times the radius-scale slop of the softest method
		CHECK( worstDepth < 0.01 );
		// nothing pushes out of the plane of the motion: round-off only
		CHECK( worstAsymmetry < 1e-9 );
		cnDestroyWorld( world );
	}
}

int main( void )
{
	RUN_TEST( painleve_rod );
	return TEST_SUMMARY();
}
