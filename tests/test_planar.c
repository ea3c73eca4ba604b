// SPDX-License-Identifier: MIT
// Planar worlds: bodies move in the xy-plane with state (x, y, theta). A JSON-built planar world of
// boxes under the impulse method stays exactly in its plane and settles as a stack; the 2D block on
// a table edge (a FOSSSim assignment example) gets the LCP solution lambda = (0, 40/7): it pivots
// about the table's edge.
#define _POSIX_C_SOURCE 200809L

#include "cairn/fosssim.h"

#include "test.h"
#include "test_fosssim.h"

#include <string.h>

// Three unit cubes stacked on a static slab (top at y = 0) and a fourth turned 30 degrees about z,
// dropped beside them, all under gravity along -y. The boxes' contacts are 3D manifolds (points at
// z = +-0.5), so a solver that ignored the plane would pick up round-off torques about x and y.
static const char* s_stack =
	"{ \"cairn\": 1, \"name\": \"planar stack\", \"planar\": true, \"gravity\": [0, -9.81, 0],\n"
	"  \"timestep\": 0.005, \"method\": \"impulse\", \"sleep\": false,\n"
	"  \"bodies\": [\n"
	"    { \"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5, 0],\n"
	"      \"shapes\": [ { \"type\": \"box\", \"half_extents\": [10, 0.5, 1] } ] },\n"
	"    { \"name\": \"b0\", \"position\": [0, 0.5, 0], \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, "
	"0.5, 0.5] } ] },\n"
	"    { \"name\": \"b1\", \"position\": [0.1, 1.52, 0], \"shapes\": [ { \"type\": \"box\", \"half_extents\": "
	"[0.5, 0.5, 0.5] } ] },\n"
	"    { \"name\": \"b2\", \"position\": [-0.1, 2.54, 0], \"shapes\": [ { \"type\": \"box\", \"half_extents\": "
	"[0.5, 0.5, 0.5] } ] },\n"
	"    { \"name\": \"tumbler\", \"position\": [3, 2, 0], \"euler_deg\": [0, 0, 30], \"velocity\": [-1, 0, 0],\n"
	"      \"angular_velocity\": [0, 0, 2], \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, 0.25, 0.5] } "
	"] }\n"
	"  ] }\n";

static void test_planar_boxes_stay_in_plane( void )
{
	cnScene* scene = cnLoadSceneFromString( s_stack, "planar stack" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
		return;
	}
	cnWorld* world = scene->world;
	CHECK( cnWorld_GetDef( world ).planar );
	int count = cnWorld_GetBodyCount( world );
	bool inPlane = true;
	// 3 s lets the tumbler land and everything settle; the sanitizer build runs 1.5 s
	int steps = testFast() ? 300 : 600;
	for ( int n = 0; n < steps; ++n )
	{
		CHECK( cnWorld_Step( world, scene->timeStep ) );
		// exactly in the plane after every step: the planar projection zeroes the out-of-plane
		// velocity before positions move, so z and the tilt never change, not even by round-off
		for ( int i = 0; i < count; ++i )
		{
			cnBodyId id = cnWorld_GetBody( world, i );
			cnVec3 p = cnBody_GetPosition( world, id );
			cnQuat q = cnBody_GetOrientation( world, id );
			cnVec3 v = cnBody_GetLinearVelocity( world, id );
			cnVec3 w = cnBody_GetAngularVelocity( world, id );
			if ( ( p.z != 0.0 || q.x != 0.0 || q.y != 0.0 || v.z != 0.0 || w.x != 0.0 || w.y != 0.0 ) && inPlane )
			{
				fprintf( stderr, "  step %d, %s: z %g, q (%g, %g), vz %g, w (%g, %g)\n", n,
						 cnBody_GetName( world, id ), p.z, q.x, q.y, v.z, w.x, w.y );
				inPlane = false;
			}
		}
	}
	CHECK( inPlane );

	// the stack stands: each cube rests one height above the one below, to within the contact
	// slop (the soft step leaves a few linearSlop = 0.005 m of overlap per contact)
	const char* names[3] = { "b0", "b1", "b2" };
	for ( int k = 0; k < 3; ++k )
	{
		cnBodyId id = cnWorld_FindBody( world, names[k] );
		cnVec3 p = cnBody_GetPosition( world, id );
		CHECK_NEAR( p.y, 0.5 + k, 0.02 );
		CHECK_NEAR( cnLength( cnBody_GetLinearVelocity( world, id ) ), 0.0, 1e-2 );
	}
	// the tumbler lies flat on a face: its angle is a multiple of 90 degrees (sin 4 theta = 0), its
	// centre at a half extent (0.25 or 0.5) above the ground
	cnBodyId tumbler = cnWorld_FindBody( world, "tumbler" );
	cnQuat q = cnBody_GetOrientation( world, tumbler );
	double theta = 2.0 * atan2( q.z, q.w );
	CHECK_NEAR( sin( 4.0 * theta ), 0.0, 0.05 );
	double y = cnBody_GetPosition( world, tumbler ).y;
	CHECK( fabs( y - 0.25 ) < 0.02 || fabs( y - 0.5 ) < 0.02 );
	cnDestroyScene( scene );
}

// The 2D block on a table edge. The block, centre (0, 1.15), is 4 wide and 2 high: corners (+-2, +-1)
// of mass 3/8 and mid-points (0, +-1) of the long sides of mass 5/4, so M = 4 and
// I = 4 (3/8) 5 + 2 (5/4) 1 = 10. The fixed table's top edge ends at (-1, 0). With edge radii 0.1 the
// block's corner (-2, -1) touches the table's top (r0 = (-2, -1)) and the table's corner touches the
// block's bottom at r1 = (-1, -1), both with n = (0, 1), 0.15 < 0.2 apart. The block falls at (0, -2):
//   A = [[1/M + 4/I, 1/M + 2/I], [1/M + 2/I, 1/M + 1/I]] = [[13/20, 9/20], [9/20, 7/20]], b = (-2, -2),
//   lambda = (0, 2 / (7/20)) = (0, 40/7), w0 = 9/20 * 40/7 - 2 = 4/7 >= 0.
// After the impulse: v = (0, -2 + 40/7 / 4) = (0, -4/7), omega = r1 x n lambda1 / I = -4/7: the block
// pivots clockwise about the table's edge: the contact point r1 moves at v + omega z x r1 =
// (0, -4/7) + (-4/7)(1, -1) = (-4/7, 0), sliding along the frictionless table with zero normal speed.
static const char* s_block = "<scene>\n"
							 "<rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
							 "<rigidbodycollisionhandling detection=\"all-pairs\" response=\"%s\"/>\n"
							 "<rigidbodyvertex x=\"-2\" y=\"0.15\" m=\"0.375\"/>\n"
							 "<rigidbodyvertex x=\"0\" y=\"0.15\" m=\"1.25\"/>\n"
							 "<rigidbodyvertex x=\"2\" y=\"0.15\" m=\"0.375\"/>\n"
							 "<rigidbodyvertex x=\"2\" y=\"2.15\" m=\"0.375\"/>\n"
							 "<rigidbodyvertex x=\"0\" y=\"2.15\" m=\"1.25\"/>\n"
							 "<rigidbodyvertex x=\"-2\" y=\"2.15\" m=\"0.375\"/>\n"
							 "<rigidbodyvertex x=\"-10\" y=\"-2\" m=\"1\"/>\n"
							 "<rigidbodyvertex x=\"-1\" y=\"-2\" m=\"1\"/>\n"
							 "<rigidbodyvertex x=\"-1\" y=\"0\" m=\"1\"/>\n"
							 "<rigidbodyvertex x=\"-10\" y=\"0\" m=\"1\"/>\n"
							 "<rigidbody p=\"0\" p=\"1\" p=\"2\" p=\"3\" p=\"4\" p=\"5\" vx=\"0\" vy=\"-2\" omega=\"0\" "
							 "r=\"0.1\"/>\n"
							 "<rigidbody p=\"6\" p=\"7\" p=\"8\" p=\"9\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\" "
							 "fixed=\"1\"/>\n"
							 "</scene>\n";

static cnFosssimScene* loadBlock( const char* response )
{
	char text[2048];
	snprintf( text, sizeof( text ), s_block, response );
	cnFosssimScene* f = tfLoadText( text );
	if ( f == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
	}
	return f;
}

static void test_block_on_table_edge( void )
{
	const char* methods[2] = { "lcp", "velocity-projection" };
	for ( int k = 0; k < 2; ++k )
	{
		cnFosssimScene* f = loadBlock( methods[k] );
		CHECK( f != NULL );
		if ( f == NULL )
		{
			continue;
		}
		cnWorld* world = f->scene->world;
		cnBodyId block = f->bodies[0];
		// the mass properties the example needs: exact sums of binary fractions
		CHECK( cnBody_GetMass( world, block ) == 4.0 );
		CHECK( cnBody_GetLocalInertia( world, block ).cz.z == 10.0 );
		cnVec3 c = cnBody_GetWorldCenterOfMass( world, block );
		CHECK( c.x == 0.0 && fabs( c.y - 1.15 ) < 1e-15 );

		if ( cnWorld_Step( world, f->scene->timeStep ) == false )
		{
			fprintf( stderr, "  %s: step failed: %s\n", methods[k], cnGetError() );
			CHECK( false );
			cnDestroyFosssim( f );
			continue;
		}
		// frictionless and inelastic: the LCP (and the equivalent projection) gives exactly the
		// velocities above; a dense 2 x 2 solve leaves round-off only
		cnVec3 v = cnBody_GetLinearVelocity( world, block );
		double omega = cnBody_GetAngularVelocity( world, block ).z;
		CHECK_NEAR( v.x, 0.0, 1e-12 );
		CHECK_NEAR( v.y, -4.0 / 7.0, 1e-12 );
		CHECK_NEAR( omega, -4.0 / 7.0, 1e-12 );
		cnDestroyFosssim( f );
	}
}

int main( void )
{
	RUN_TEST( test_planar_boxes_stay_in_plane );
	RUN_TEST( test_block_on_table_edge );
	return TEST_SUMMARY();
}
