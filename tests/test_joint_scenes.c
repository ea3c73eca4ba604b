// SPDX-License-Identifier: MIT
// The shipped joint scenes (scenes/*.json, written by scenes/make_scenes.py), loaded as `cairn run`
// loads them and stepped as its run loop steps them (equal steps no longer than the scene's
// "timestep", a whole number per frame), each checked against what physics says, not against
// numbers the code produced: the gyroscope's steady precession rate, the double pendulum's energy,
// the cradles' far ball leaving with the first wave's closed-form speed, the chain's length at rest,
// the bridge holding its crates, the ragdolls' joints holding while they tumble down, and the
// vehicle driving off its platform on springs that carry the frame's weight. CAIRN_FAST_TESTS=1
// runs shorter spans of each scene.
#include "cairn/io.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// helpers

// Loads scenes/NAME; NULL (a failed check) when it does not load.
static cnScene* openScene( const char* name )
{
	char path[512];
	snprintf( path, sizeof( path ), "%s/scenes/%s", CAIRN_SOURCE_DIR, name );
	cnScene* scene = cnLoadScene( path );
	if ( scene == NULL )
	{
		fprintf( stderr, "  %s: %s\n", name, cnGetError() );
	}
	CHECK( scene != NULL );
	return scene;
}

// The step the run loop takes: each frame interval cut into equal steps no longer than the scene's
// time step (src/run.c).
static double runStep( const cnScene* scene )
{
	double frame = 1.0 / scene->fps;
	double k = ceil( frame / scene->timeStep - 1e-9 );
	return frame / k;
}

// The largest linear error of any joint after the last step, and which joint has it.
static double largestJointError( cnWorld* world, cnJointId* which )
{
	double largest = 0.0;
	for ( int i = 0; i < cnWorld_GetJointCount( world ); ++i )
	{
		cnJointId id = cnWorld_GetJoint( world, i );
		double e = cnJoint_GetLinearError( world, id );
		if ( !( e <= largest ) )
		{
			largest = e;
			*which = id;
		}
	}
	return largest;
}

// Steps the scene's world `steps` times, keeping the largest joint error seen after any step.
typedef struct runWatch
{
	double worstError;
	double worstTime;
	cnJointId worstJoint;
	bool stepped;
} runWatch;

static void advance( cnScene* scene, int steps, runWatch* watch )
{
	double h = runStep( scene );
	for ( int i = 0; i < steps; ++i )
	{
		if ( cnWorld_Step( scene->world, h ) == false )
		{
			fprintf( stderr, "  step failed: %s\n", cnGetError() );
			watch->stepped = false;
			return;
		}
		cnJointId which = cnJointId_null;
		double e = largestJointError( scene->world, &which );
		if ( !( e <= watch->worstError ) )
		{
			watch->worstError = e;
			watch->worstJoint = which;
			watch->worstTime = cnWorld_GetTime( scene->world );
		}
	}
}

static runWatch newWatch( void )
{
	runWatch w = { 0.0, 0.0, cnJointId_null, true };
	return w;
}

static const char* jointName( const cnScene* scene, cnJointId id )
{
	const char* name = cnJoint_IsValid( scene->world, id ) ? cnJoint_GetName( scene->world, id ) : NULL;
	return name != NULL ? name : "-";
}

static int stepsFor( const cnScene* scene, double seconds )
{
	return (int)lround( seconds / runStep( scene ) );
}

static double speedOf( cnWorld* world, cnBodyId body )
{
	return cnLength( cnBody_GetLinearVelocity( world, body ) );
}

// The centre of mass of the bodies joined by the scene's joints (the figure of a ragdoll scene).
static double jointedHeight( cnWorld* world )
{
	double mass = 0.0, moment = 0.0;
	for ( int i = 0; i < cnWorld_GetBodyCount( world ); ++i )
	{
		cnBodyId b = cnWorld_GetBody( world, i );
		if ( cnBody_GetType( world, b ) != cnBody_dynamic )
		{
			continue;
		}
		double m = cnBody_GetMass( world, b );
		mass += m;
		moment += m * cnBody_GetWorldCenterOfMass( world, b ).z;
	}
	return moment / mass;
}

// ---------------------------------------------------------------------------------------------
// gyroscope: Kleppmann 4.2.1

// The disc's axle starts horizontal with the angular velocity of steady precession, spin omega about
// the axle plus Omega about the vertical. With the axle horizontal the steady precession is exact:
// dL/dt = I_axis omega Omega (z x a) must equal the torque m g d (z x a), so Omega = m g d /
// (I_axis omega), whatever the moment about the nail across the axle. The rate is measured from the
// axle's azimuth over the whole run.
static void testGyroscope( void )
{
	cnScene* scene = openScene( "gyroscope.json" );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	cnBodyId gyro = cnWorld_FindBody( world, "gyro" );
	cnJointId nail = cnWorld_FindJoint( world, "nail" );
	CHECK( cnBody_IsValid( world, gyro ) && cnJoint_IsValid( world, nail ) );

	// the axle is the body's x axis; the inertia about it is the same through the nail and the centre
	cnQuat q = cnBody_GetOrientation( world, gyro );
	cnVec3 axle = cnRotate( q, cnV3( 1.0, 0.0, 0.0 ) );
	double m = cnBody_GetMass( world, gyro );
	double d = cnDistance( cnBody_GetWorldCenterOfMass( world, gyro ), cnJoint_GetAnchorB( world, nail ) );
	double inertia = cnBody_GetLocalInertia( world, gyro ).cx.x;
	double spin = cnDot( cnBody_GetAngularVelocity( world, gyro ), axle );
	double g = cnLength( cnWorld_GetGravity( world ) );
	double omega = m * g * d / ( inertia * spin );
	CHECK( fabs( axle.z ) < 1e-12 );

	double seconds = testFast() ? 2.0 : scene->duration;
	int steps = stepsFor( scene, seconds );
	double h = runStep( scene );
	double azimuth = 0.0, previous = atan2( axle.y, axle.x ), lowest = 0.0, nailError = 0.0;
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
		axle = cnRotate( cnBody_GetOrientation( world, gyro ), cnV3( 1.0, 0.0, 0.0 ) );
		double a = atan2( axle.y, axle.x );
		double delta = a - previous;
		delta -= 2.0 * CN_PI * floor( ( delta + CN_PI ) / ( 2.0 * CN_PI ) );
		azimuth += delta;
		previous = a;
		lowest = fmin( lowest, axle.z );
		nailError = fmax( nailError, cnJoint_GetLinearError( world, nail ) );
	}
	double rate = azimuth / ( steps * h );
	double relative = rate / omega - 1.0;
	printf( "  gyroscope: Omega = m g d / (I w) = %.6f rad/s (period %.3f s), measured %.6f over %.0f s: %+.3f %%; "
			"axle dipped to %.2f degrees, nail error %.2g m\n",
			omega, 2.0 * CN_PI / omega, rate, seconds, 100.0 * relative, asin( lowest ) * 180.0 / CN_PI, nailError );
	// Kleppmann's constraint method reached 0.6 %
	CHECK( fabs( relative ) < 0.01 );
	CHECK( nailError < 1e-3 );
	cnDestroyScene( scene );
}

// ---------------------------------------------------------------------------------------------
// double pendulum

// No contacts and no damping: the energy is a constant of the motion, so its drift is the method's
// error. The swing energy is the energy above both arms hanging straight down (each arm's centre of
// mass below its hinge at its distance from it, in the plane of the swing).
static void testDoublePendulum( void )
{
	cnScene* scene = openScene( "double_pendulum.json" );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	cnBodyId arm1 = cnWorld_FindBody( world, "arm_1" ), arm2 = cnWorld_FindBody( world, "arm_2" );
	cnJointId top = cnWorld_FindJoint( world, "shoulder" ), middle = cnWorld_FindJoint( world, "elbow" );
	CHECK( cnBody_IsValid( world, arm1 ) && cnBody_IsValid( world, arm2 ) );
	cnVec3 pivot = cnJoint_GetAnchorB( world, top ), elbow = cnJoint_GetAnchorA( world, middle );
	cnVec3 c1 = cnBody_GetWorldCenterOfMass( world, arm1 ), c2 = cnBody_GetWorldCenterOfMass( world, arm2 );
	// distances in the xz plane of the swing
	double r1 = hypot( c1.x - pivot.x, c1.z - pivot.z );
	double l1 = hypot( elbow.x - pivot.x, elbow.z - pivot.z );
	double r2 = hypot( c2.x - elbow.x, c2.z - elbow.z );
	double g = cnLength( cnWorld_GetGravity( world ) );
	double m1 = cnBody_GetMass( world, arm1 ), m2 = cnBody_GetMass( world, arm2 );
	double swing = m1 * g * ( c1.z - ( pivot.z - r1 ) ) + m2 * g * ( c2.z - ( pivot.z - l1 - r2 ) );

	double e0 = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world );
	double seconds = testFast() ? 5.0 : scene->duration;
	int steps = stepsFor( scene, seconds );
	double h = runStep( scene );
	double lowest = 0.0, highest = 0.0, jointError = 0.0;
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
		double e = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world ) - e0;
		lowest = fmin( lowest, e );
		highest = fmax( highest, e );
		cnJointId which;
		jointError = fmax( jointError, largestJointError( world, &which ) );
	}
	printf( "  double pendulum: swing energy %.2f J; over %.0f s the energy stayed within [%+.3f, %+.3f] J "
			"([%+.2f, %+.2f] %%), joint errors <= %.2g m\n",
			swing, seconds, lowest, highest, 100.0 * lowest / swing, 100.0 * highest / swing, jointError );
	// a conservative system: its energy stays within 1 % of the swing energy
	CHECK( swing > 100.0 );
	CHECK( highest < 0.01 * swing );
	CHECK( lowest > -0.01 * swing );
	CHECK( jointError < 2e-3 );
	cnDestroyScene( scene );
}

// ---------------------------------------------------------------------------------------------
// Newton's cradles

// The balls hang a little apart, so the first wave is a row of two-ball collisions of equal masses:
// each passes on (1 + e) / 2 of the incoming speed, and the last ball leaves with ((1 + e) / 2)^4 of
// what the first brought. The first ball's speed at the bottom is that of the pendulum it is,
// sqrt(2 g drop).
static void checkCradle( const char* file, const char* material, double drop )
{
	cnScene* scene = openScene( file );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	cnBodyId balls[5];
	for ( int i = 0; i < 5; ++i )
	{
		char name[16];
		snprintf( name, sizeof( name ), "ball_%d", i );
		balls[i] = cnWorld_FindBody( world, name );
		CHECK( cnBody_IsValid( world, balls[i] ) );
	}
	double e = cnMaterial_GetDef( world, cnWorld_FindMaterial( world, material ) ).restitution;
	double g = cnLength( cnWorld_GetGravity( world ) );
	double h = runStep( scene );

	// until the second ball moves: the first ball's speed just before
	double incoming = 0.0;
	int steps = 0, limit = stepsFor( scene, 2.0 );
	runWatch watch = newWatch();
	while ( speedOf( world, balls[1] ) < 0.01 && steps < limit )
	{
		incoming = speedOf( world, balls[0] );
		advance( scene, 1, &watch );
		steps += 1;
	}
	// then the last ball's speed as it leaves: its largest within 20 ms after the wave reaches it
	// (the trailing balls catch up with it only later)
	int reach = 0;
	while ( speedOf( world, balls[4] ) < 0.01 && reach < limit )
	{
		advance( scene, 1, &watch );
		reach += 1;
	}
	double outgoing = 0.0;
	for ( int i = 0; i < (int)ceil( 0.02 / h ); ++i )
	{
		outgoing = fmax( outgoing, speedOf( world, balls[4] ) );
		advance( scene, 1, &watch );
	}
	double pendulum = sqrt( 2.0 * g * drop );
	double wave = pow( 0.5 * ( 1.0 + e ), 4.0 );
	printf( "  %s: e = %g; first ball arrives at %.4f m/s (sqrt(2 g h) = %.4f), last leaves %.2f ms later at %.4f m/s: "
			"%.4f of it, ((1 + e) / 2)^4 = %.4f; joint errors <= %.2g m\n",
			file, e, incoming, pendulum, 1000.0 * reach * h, outgoing, outgoing / incoming, wave, watch.worstError );
	CHECK( watch.stepped );
	CHECK( steps < limit && reach < limit );
	CHECK( fabs( incoming / pendulum - 1.0 ) < 0.01 );
	CHECK( fabs( outgoing / incoming / wave - 1.0 ) < 0.03 );
	CHECK( watch.worstError < 1e-3 );
	cnDestroyScene( scene );
}

static void testCradles( void )
{
	// the rods' balls fall from the horizontal: drop = the rods' reach below the bars (0.5 m)
	checkCradle( "cradle_rods.json", "rubber", 0.5 );
	// Kleppmann's: raised 45 degrees on 0.4 m wires
	checkCradle( "cradle.json", "steel", 0.4 * ( 1.0 - cos( CN_PI / 4.0 ) ) );
	checkCradle( "cradle_e09.json", "steel", 0.4 * ( 1.0 - cos( CN_PI / 4.0 ) ) );
}

// ---------------------------------------------------------------------------------------------
// chain

// The scene swings a 20-link chain with a 100x end weight; here it is first turned rigidly about its
// hook until it hangs straight down at rest, then left for a while: a chain of rigid links stays as
// long as it was, so the weight's sag is the joints' stretch under 100 link weights. The swing from
// the scene's start keeps its energy (no contacts, no damping).
static void testChain( void )
{
	cnScene* scene = openScene( "chain.json" );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	cnBodyId weight = cnWorld_FindBody( world, "weight" );
	cnJointId hook = cnWorld_FindJoint( world, "joint_0" );
	CHECK( cnBody_IsValid( world, weight ) && cnJoint_IsValid( world, hook ) );

	// the swing
	double e0 = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world );
	cnVec3 pivot = cnJoint_GetAnchorB( world, hook );
	double mass = 0.0, drop = 0.0;
	for ( int i = 0; i < cnWorld_GetBodyCount( world ); ++i )
	{
		cnBodyId b = cnWorld_GetBody( world, i );
		if ( cnBody_GetType( world, b ) == cnBody_dynamic )
		{
			// hanging straight, each centre would be as far below the hook as it is from it now
			cnVec3 c = cnBody_GetWorldCenterOfMass( world, b );
			mass += cnBody_GetMass( world, b );
			drop += cnBody_GetMass( world, b ) * ( c.z - ( pivot.z - cnDistance( c, pivot ) ) );
		}
	}
	double swing = drop * cnLength( cnWorld_GetGravity( world ) );
	runWatch watch = newWatch();
	double lowest = 0.0, highest = 0.0;
	int steps = stepsFor( scene, testFast() ? 2.0 : 6.0 );
	for ( int i = 0; i < steps; ++i )
	{
		advance( scene, 1, &watch );
		double e = cnWorld_GetKineticEnergy( world ) + cnWorld_GetPotentialEnergy( world ) - e0;
		lowest = fmin( lowest, e );
		highest = fmax( highest, e );
	}
	printf( "  chain swinging: %.1f kg, swing energy %.1f J, energy within [%+.3f, %+.3f] J, joint errors <= %.2g m\n",
			mass, swing, lowest, highest, watch.worstError );
	CHECK( watch.stepped );
	CHECK( fmax( highest, -lowest ) < 0.01 * swing );
	CHECK( watch.worstError < 1e-3 );
	cnDestroyScene( scene );

	// at rest: reload, turn about the hook so that the weight hangs below it
	scene = openScene( "chain.json" );
	if ( scene == NULL )
	{
		return;
	}
	world = scene->world;
	weight = cnWorld_FindBody( world, "weight" );
	cnVec3 down = cnNormalize( cnSub( cnBody_GetWorldCenterOfMass( world, weight ), pivot ) );
	cnVec3 axis = cnCross( down, cnV3( 0.0, 0.0, -1.0 ) );
	double angle = atan2( cnLength( axis ), -down.z );
	cnQuat turn = cnQuatFromAxisAngle( cnNormalize( axis ), angle );
	for ( int i = 0; i < cnWorld_GetBodyCount( world ); ++i )
	{
		cnBodyId b = cnWorld_GetBody( world, i );
		if ( cnBody_GetType( world, b ) == cnBody_dynamic )
		{
			cnVec3 p = cnAdd( pivot, cnRotate( turn, cnSub( cnBody_GetPosition( world, b ), pivot ) ) );
			CHECK( cnBody_SetTransform( world, b, p, cnMulQuat( turn, cnBody_GetOrientation( world, b ) ) ) );
		}
	}
	double hanging = cnBody_GetWorldCenterOfMass( world, weight ).z;
	watch = newWatch();
	advance( scene, stepsFor( scene, testFast() ? 1.0 : 3.0 ), &watch );
	cnVec3 end = cnBody_GetWorldCenterOfMass( world, weight );
	double stretch = hanging - end.z;
	printf( "  chain at rest: the weight hangs %.3f mm lower than the rigid chain's (sideways %.2g m), joint errors "
			"<= %.2g m\n",
			1000.0 * stretch, hypot( end.x - pivot.x, end.y - pivot.y ), watch.worstError );
	CHECK( watch.stepped );
	CHECK( fabs( stretch ) < 5e-3 );
	CHECK( hypot( end.x - pivot.x, end.y - pivot.y ) < 1e-3 );
	cnDestroyScene( scene );
}

// ---------------------------------------------------------------------------------------------
// bridge

// Three crates fall on a deck of 20 hinged planks: the deck gives and holds them. Every plank stays
// above half the abutments' height, every joint within a centimetre, every crate on the deck.
static void testBridge( void )
{
	cnScene* scene = openScene( "bridge.json" );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	runWatch watch = newWatch();
	int steps = stepsFor( scene, testFast() ? 3.0 : scene->duration );
	double lowestPlank = INFINITY;
	for ( int i = 0; i < steps && watch.stepped; ++i )
	{
		advance( scene, 1, &watch );
		for ( int k = 0; k < 20; ++k )
		{
			char name[16];
			snprintf( name, sizeof( name ), "plank_%d", k );
			lowestPlank = fmin( lowestPlank, cnBody_GetWorldCenterOfMass( world, cnWorld_FindBody( world, name ) ).z );
		}
	}
	int held = 0;
	for ( int k = 0; k < 3; ++k )
	{
		char name[16];
		snprintf( name, sizeof( name ), "crate_%d", k );
		cnVec3 c = cnBody_GetWorldCenterOfMass( world, cnWorld_FindBody( world, name ) );
		held += c.z > 1.0 && fabs( c.y ) < 0.5 && fabs( c.x ) < 1.9 ? 1 : 0;
	}
	printf( "  bridge: lowest plank centre %.3f m, %d of 3 crates on the deck, joint errors <= %.2g m (%s at %.3f s)\n",
			lowestPlank, held, watch.worstError, jointName( scene, watch.worstJoint ), watch.worstTime );
	CHECK( watch.stepped );
	CHECK( lowestPlank > 1.0 );
	CHECK( held == 3 );
	CHECK( watch.worstError < 0.01 );
	cnDestroyScene( scene );
}

// ---------------------------------------------------------------------------------------------
// ragdolls

// A 16-body figure pushed down stairs: no joint opens by a centimetre at any step while it tumbles,
// and it ends lower than it started.
static void checkRagdoll( const char* file, double seconds, double minDrop )
{
	cnScene* scene = openScene( file );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	CHECK( cnWorld_GetJointCount( world ) == 15 );
	double start = jointedHeight( world );
	double mass = 0.0;
	for ( int i = 0; i < cnWorld_GetBodyCount( world ); ++i )
	{
		cnBodyId b = cnWorld_GetBody( world, i );
		mass += cnBody_GetType( world, b ) == cnBody_dynamic ? cnBody_GetMass( world, b ) : 0.0;
	}
	runWatch watch = newWatch();
	advance( scene, stepsFor( scene, seconds ), &watch );
	double end = jointedHeight( world );
	printf( "  %s: %.1f kg figure, centre of mass %.3f m -> %.3f m after %.1f s; joint errors <= %.2g m (%s at %.3f s)\n",
			file, mass, start, end, seconds, watch.worstError, jointName( scene, watch.worstJoint ), watch.worstTime );
	CHECK( fabs( mass - 70.0 ) < 1.0 );
	CHECK( watch.stepped );
	CHECK( watch.worstError < 0.01 );
	CHECK( end < start - minDrop );
	cnDestroyScene( scene );
}

static void testRagdolls( void )
{
	checkRagdoll( "ragdoll_stairs.json", testFast() ? 1.2 : 3.0, testFast() ? 0.4 : 1.0 );
	checkRagdoll( "ragdoll_spiral.json", testFast() ? 1.2 : 3.0, 0.4 );
}

// ---------------------------------------------------------------------------------------------
// vehicle

// The torque on the front wheel drives the vehicle off its platform; every joint holds (axles,
// sliders, springs and dampers); the three springs carry the frame's weight: while it drives on
// flat ground, the sum of their forces k (l0 - l) is m_frame g (the dampers and sliders carry no
// weight at a steady ride height).
static void testVehicle( void )
{
	cnScene* scene = openScene( "vehicle.json" );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	cnBodyId frame = cnWorld_FindBody( world, "frame" );
	CHECK( cnBody_IsValid( world, frame ) );
	cnVec3 start = cnBody_GetWorldCenterOfMass( world, frame );
	const char* corners[3] = { "front", "left", "right" };
	double rest[3];
	for ( int i = 0; i < 3; ++i )
	{
		char name[32];
		snprintf( name, sizeof( name ), "spring_%s", corners[i] );
		rest[i] = cnJoint_GetPosition( world, cnWorld_FindJoint( world, name ) );
	}
	runWatch watch = newWatch();
	// on the platform, the springs settled: average their forces over the second second
	advance( scene, stepsFor( scene, 1.0 ), &watch );
	double carried = 0.0;
	int samples = stepsFor( scene, 1.0 );
	for ( int s = 0; s < samples; ++s )
	{
		advance( scene, 1, &watch );
		for ( int i = 0; i < 3; ++i )
		{
			char name[32];
			snprintf( name, sizeof( name ), "spring_%s", corners[i] );
			// the springs' stiffness in vehicle.json: 3000 N/m
			carried += 3000.0 * ( rest[i] - cnJoint_GetPosition( world, cnWorld_FindJoint( world, name ) ) ) / samples;
		}
	}
	double weight = cnBody_GetMass( world, frame ) * cnLength( cnWorld_GetGravity( world ) );
	double seconds = testFast() ? 4.0 : 8.0;
	advance( scene, stepsFor( scene, seconds - 2.0 ), &watch );
	cnVec3 end = cnBody_GetWorldCenterOfMass( world, frame );
	cnVec3 nose = cnRotate( cnBody_GetOrientation( world, frame ), cnV3( 1.0, 0.0, 0.0 ) );
	printf( "  vehicle: springs carry %.1f N of the frame's %.1f N; after %.0f s the frame moved %.2f m forward and "
			"%.3f m down, heading %.0f degrees; joint errors <= %.2g m (%s at %.3f s)\n",
			carried, weight, seconds, end.x - start.x, start.z - end.z, atan2( nose.y, nose.x ) * 180.0 / CN_PI,
			watch.worstError, jointName( scene, watch.worstJoint ), watch.worstTime );
	CHECK( watch.stepped );
	CHECK( fabs( carried / weight - 1.0 ) < 0.03 );
	// off the 0.25 m platform, which ends 1.6 m ahead of the frame's start
	CHECK( end.x - start.x > 3.0 );
	CHECK( start.z - end.z > 0.2 );
	CHECK( watch.worstError < 0.01 );
	cnDestroyScene( scene );
}

int main( void )
{
	RUN_TEST( testGyroscope );
	RUN_TEST( testDoublePendulum );
	RUN_TEST( testCradles );
	RUN_TEST( testChain );
	RUN_TEST( testBridge );
	RUN_TEST( testRagdolls );
	RUN_TEST( testVehicle );
	return TEST_SUMMARY();
}
