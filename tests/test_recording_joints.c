// SPDX-License-Identifier: MIT
// Joints in recordings (format version 4, docs/recording-format.md): a world with every joint type,
// made through the API, is recorded into memory and to a file and read back: names, types, the
// recorded indices of the joined bodies (-1 for the world), anchors placed from each frame's body
// poses equal to cnJoint_GetAnchorA/B at that time within 1e-12 m, the state of a joint that breaks
// and of one destroyed mid-recording; a recording of some bodies keeps the joints it can place; the
// byte layout of the joint section; worlds without joints keep the older versions; every truncation
// and corruption of the joint section gives a clear error.
#include "cairn/recording.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REC_PATH "test_recording_joints_out.cnrec"
#define BAD_NAME "joints.cnrec"
#include "test_recording_expect.h"

enum
{
	frameCount = 13,
	stepsPerFrame = 4,
	jointTotal = 11,
	// the weld is destroyed after this frame is recorded
	weldFrame = 5,
};

static const cnVec3 gravity = { 0.0, 0.0, -9.81 };
static const double dt = 1.0 / 240.0;

// the joints in creation order: one of each type, and a second ball joint that breaks at once
static const char* s_jointNames[jointTotal] = { "coil",		 "shock",	 "pendulum", "nail", "knuckle", "weld",
												"rail",		 "joystick", "shoulder", "skate", "" };
static const cnJointType s_jointTypes[jointTotal] = {
	cnJoint_spring, cnJoint_damper,	   cnJoint_distance,  cnJoint_ball,			cnJoint_hinge, cnJoint_fixed,
	cnJoint_slider, cnJoint_universal, cnJoint_coneTwist, cnJoint_pointOnPlane, cnJoint_ball,
};
// the bodies in creation order, and the joints' bodies by that index (-1: the world)
enum
{
	ground,
	crate,
	ball,
	pill,
	link,
	slab,
	arm,
	puck,
	bob,
	bodyTotal
};
static const int s_jointBodies[jointTotal][2] = {
	{ crate, ball }, { crate, ball }, { bob, -1 }, { pill, -1 }, { pill, link }, { link, crate },
	{ slab, ground }, { arm, -1 },	  { arm, -1 }, { puck, -1 }, { ball, pill },
};

// little-endian fields, as docs/recording-format.md lays them out
static uint32_t u32At( const uint8_t* p )
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void putU32( uint8_t* p, uint32_t v )
{
	for ( int i = 0; i < 4; ++i )
	{
		p[i] = (uint8_t)( v >> ( 8 * i ) );
	}
}

static double f64At( const uint8_t* p )
{
	uint64_t bits = 0;
	for ( int i = 7; i >= 0; --i )
	{
		bits = bits << 8 | p[i];
	}
	double v;
	memcpy( &v, &bits, 8 );
	return v;
}

static void putF64( uint8_t* p, double v )
{
	uint64_t bits;
	memcpy( &bits, &v, 8 );
	for ( int i = 0; i < 8; ++i )
	{
		p[i] = (uint8_t)( bits >> ( 8 * i ) );
	}
}

typedef struct Rig
{
	cnWorld* world;
	cnBodyId bodies[bodyTotal];
	cnJointId joints[jointTotal];
} Rig;

// A dynamic body with one capsule.
static cnBodyId capsule( cnWorld* world, cnVec3 p, cnQuat q )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_capsule;
	sd.radius = 0.1;
	sd.halfHeight = 0.25;
	return tbBody( world, cnBody_dynamic, p, q, cnVec3_zero, &sd );
}

// Every joint type between bodies of every kind: a static slab of ground, boxes, a sphere, a
// capsule, a point mass (no shapes) and the fixed world.
static Rig buildRig( void )
{
	Rig rig;
	memset( &rig, 0, sizeof( rig ) );
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	rig.world = world;
	cnQuat tilt = cnQuatFromAxisAngle( cnNormalize( cnV3( 1, 2, 3 ) ), 0.4 );
	rig.bodies[ground] = tbBox( world, cnBody_static, cnV3( 0, 0, -0.5 ), cnQuat_identity, cnVec3_zero,
								cnV3( 5, 5, 0.5 ), 0 );
	rig.bodies[crate] = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 2 ), tilt, cnV3( 0.5, 0, 0 ), cnV3( 0.3, 0.2, 0.1 ), 0 );
	rig.bodies[ball] = tbSphere( world, cnBody_dynamic, cnV3( 1, 0, 2 ), cnV3( 0, 1, 0 ), 0.2, 0 );
	rig.bodies[pill] = capsule( world, cnV3( -1, 0, 2 ), cnQuatFromAxisAngle( cnV3( 0, 1, 0 ), 0.3 ) );
	rig.bodies[link] = tbBox( world, cnBody_dynamic, cnV3( -0.5, 1, 2 ), cnQuat_identity, cnVec3_zero,
							  cnV3( 0.4, 0.1, 0.1 ), 0 );
	rig.bodies[slab] = tbBox( world, cnBody_dynamic, cnV3( 0, -2, 0.2 ), cnQuat_identity, cnV3( 1, 0, 0 ),
							  cnV3( 0.3, 0.3, 0.2 ), 0 );
	rig.bodies[arm] = capsule( world, cnV3( 3, 0, 2 ), cnQuatFromAxisAngle( cnV3( 1, 0, 0 ), 0.5 ) );
	rig.bodies[puck] = tbSphere( world, cnBody_dynamic, cnV3( 2, 2, 1 ), cnV3( 0.3, -0.2, 0 ), 0.15, 0 );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( -2, -2, 2 );
	rig.bodies[bob] = cnCreateBody( world, &bd );
	CHECK( cnBody_SetMass( world, rig.bodies[bob], 2.0 ) );

	cnBodyId* b = rig.bodies;
	int n = 0;
	cnSpringJointDef spring = cnDefaultSpringJointDef();
	spring.base.name = s_jointNames[n];
	spring.base.bodyA = b[crate];
	spring.base.bodyB = b[ball];
	spring.anchorA = cnV3( 0.2, 0.1, 2.05 );
	spring.anchorB = cnV3( 1, 0, 2 );
	spring.restLength = 0.5;
	rig.joints[n++] = cnCreateSpringJoint( world, &spring );
	cnDamperJointDef damper = cnDefaultDamperJointDef();
	damper.base.name = s_jointNames[n];
	damper.base.bodyA = b[crate];
	damper.base.bodyB = b[ball];
	damper.anchorA = cnV3( -0.1, 0.0, 2.0 );
	damper.anchorB = cnV3( 1.1, 0.0, 2.1 );
	rig.joints[n++] = cnCreateDamperJoint( world, &damper );
	cnDistanceJointDef rod = cnDefaultDistanceJointDef();
	rod.base.name = s_jointNames[n];
	rod.base.bodyA = b[bob];
	rod.anchorA = cnV3( -2, -2, 2 );
	rod.anchorB = cnV3( -2, -1, 2.5 );
	rig.joints[n++] = cnCreateDistanceJoint( world, &rod );
	cnBallJointDef nail = cnDefaultBallJointDef();
	nail.base.name = s_jointNames[n];
	nail.base.bodyA = b[pill];
	nail.anchor = cnV3( -1, 0, 2.4 );
	rig.joints[n++] = cnCreateBallJoint( world, &nail );
	cnHingeJointDef hinge = cnDefaultHingeJointDef();
	hinge.base.name = s_jointNames[n];
	hinge.base.bodyA = b[pill];
	hinge.base.bodyB = b[link];
	hinge.anchor = cnV3( -0.9, 0.5, 2 );
	hinge.axis = cnV3( 0, 1, 1 );
	rig.joints[n++] = cnCreateHingeJoint( world, &hinge );
	cnFixedJointDef weld = cnDefaultFixedJointDef();
	weld.base.name = s_jointNames[n];
	weld.base.bodyA = b[link];
	weld.base.bodyB = b[crate];
	weld.anchor = cnV3( -0.1, 0.5, 2 );
	rig.joints[n++] = cnCreateFixedJoint( world, &weld );
	cnSliderJointDef rail = cnDefaultSliderJointDef();
	rail.base.name = s_jointNames[n];
	rail.base.bodyA = b[slab];
	rail.base.bodyB = b[ground];
	rail.anchor = cnV3( 0.1, -2, 0.1 );
	rail.axis = cnV3( 1, 0, 0 );
	rig.joints[n++] = cnCreateSliderJoint( world, &rail );
	cnUniversalJointDef joystick = cnDefaultUniversalJointDef();
	joystick.base.name = s_jointNames[n];
	joystick.base.bodyA = b[arm];
	joystick.anchor = cnV3( 3, 0.1, 2.3 );
	rig.joints[n++] = cnCreateUniversalJoint( world, &joystick );
	cnConeTwistJointDef shoulder = cnDefaultConeTwistJointDef();
	shoulder.base.name = s_jointNames[n];
	shoulder.base.bodyA = b[arm];
	shoulder.anchor = cnV3( 3, 0.1, 2.3 );
	shoulder.axis = cnV3( 0, 0, -1 );
	rig.joints[n++] = cnCreateConeTwistJoint( world, &shoulder );
	cnPointOnPlaneJointDef skate = cnDefaultPointOnPlaneJointDef();
	skate.base.name = s_jointNames[n];
	skate.base.bodyA = b[puck];
	skate.anchor = cnV3( 2, 2, 1 );
	skate.normal = cnV3( 0, 0, 2 );
	rig.joints[n++] = cnCreatePointOnPlaneJoint( world, &skate );
	// unnamed, and so weak that the first step breaks it
	cnBallJointDef fragile = cnDefaultBallJointDef();
	fragile.base.bodyA = b[ball];
	fragile.base.bodyB = b[pill];
	fragile.base.breakForce = 1e-9;
	fragile.anchor = cnV3( 0, 0, 2.5 );
	rig.joints[n++] = cnCreateBallJoint( world, &fragile );
	for ( int i = 0; i < jointTotal; ++i )
	{
		CHECK( cnJoint_IsValid( world, rig.joints[i] ) );
	}
	return rig;
}

// What the world said at every recorded frame.
typedef struct Expected
{
	double time[frameCount];
	cnVec3 anchorA[frameCount][jointTotal], anchorB[frameCount][jointTotal];
	cnRecordedJointState state[frameCount][jointTotal];
} Expected;

// Runs the rig into a recorder of the given bodies (indices into the rig's; NULL: all): a frame every stepsPerFrame steps,
// the weld destroyed after frame weldFrame; fills what the API said at each frame. The recording's
// bytes (malloc'd) and their count; NULL when it fails.
static uint8_t* recordRig( const char* path, const int* bodies, int bodyCount, Expected* expected, size_t* size )
{
	Rig rig = buildRig();
	cnRecorderDef def = cnDefaultRecorderDef();
	def.path = path;
	def.sceneName = "joints";
	def.fps = 60.0;
	cnBodyId chosen[bodyTotal];
	for ( int i = 0; i < bodyCount; ++i )
	{
		chosen[i] = rig.bodies[bodies[i]];
	}
	def.bodies = bodies != NULL ? chosen : NULL;
	def.bodyCount = bodies != NULL ? bodyCount : 0;
	cnRecorder* recorder = cnCreateRecorder( rig.world, &def );
	CHECK( recorder != NULL );
	if ( recorder == NULL )
	{
		printf( "  %s\n", cnGetError() );
		cnDestroyWorld( rig.world );
		return NULL;
	}
	for ( int f = 0; f < frameCount; ++f )
	{
		if ( f > 0 )
		{
			for ( int s = 0; s < stepsPerFrame; ++s )
			{
				CHECK( cnWorld_Step( rig.world, dt ) );
			}
		}
		if ( f == weldFrame + 1 )
		{
			CHECK( cnDestroyJoint( rig.world, rig.joints[5] ) );
		}
		CHECK( cnRecorder_AddFrame( recorder, rig.world ) );
		expected->time[f] = cnWorld_GetTime( rig.world );
		for ( int j = 0; j < jointTotal; ++j )
		{
			cnJointId id = rig.joints[j];
			bool alive = cnJoint_IsValid( rig.world, id );
			expected->anchorA[f][j] = alive ? cnJoint_GetAnchorA( rig.world, id ) : cnV3( NAN, NAN, NAN );
			expected->anchorB[f][j] = alive ? cnJoint_GetAnchorB( rig.world, id ) : cnV3( NAN, NAN, NAN );
			expected->state[f][j] = alive == false					   ? cnRecordedJoint_removed
									: cnJoint_IsBroken( rig.world, id ) ? cnRecordedJoint_broken
																		: cnRecordedJoint_acting;
		}
	}
	CHECK( cnRecorder_Finish( recorder ) );
	uint8_t* data = NULL;
	if ( path == NULL )
	{
		const void* bytes = cnRecorder_GetBytes( recorder, size );
		data = malloc( *size );
		memcpy( data, bytes, *size );
	}
	else
	{
		FILE* file = fopen( path, "rb" );
		CHECK( file != NULL );
		if ( file != NULL )
		{
			fseek( file, 0, SEEK_END );
			*size = (size_t)ftell( file );
			fseek( file, 0, SEEK_SET );
			data = malloc( *size );
			CHECK( fread( data, 1, *size, file ) == *size );
			fclose( file );
		}
	}
	cnDestroyRecorder( recorder );
	cnDestroyWorld( rig.world );
	return data;
}

static bool sameVec( cnVec3 a, cnVec3 b, double tolerance )
{
	return fabs( a.x - b.x ) <= tolerance && fabs( a.y - b.y ) <= tolerance && fabs( a.z - b.z ) <= tolerance;
}

// The recording places every joint's anchors where the API put them at each frame, and holds its
// state; joints the recording keeps are listed by keep (world joint index per recorded joint).
static void checkAgainst( const cnRecording* rec, const Expected* expected, const int* keep, int keptCount )
{
	CHECK( cnRecording_GetFrameCount( rec ) == frameCount );
	CHECK( cnRecording_GetJointCount( rec ) == keptCount );
	int misplaced = 0, wrongState = 0;
	for ( int f = 0; f < frameCount; ++f )
	{
		CHECK( cnRecording_GetFrameTime( rec, f ) == expected->time[f] );
		for ( int r = 0; r < keptCount; ++r )
		{
			int j = keep[r];
			cnRecordedJointState state = cnRecording_GetJointState( rec, f, r );
			wrongState += state != expected->state[f][j];
			if ( state == cnRecordedJoint_removed )
			{
				continue;
			}
			cnVec3 a, b;
			CHECK( cnRecording_GetJointAnchors( rec, f, r, &a, &b ) );
			bool placed = sameVec( a, expected->anchorA[f][j], 1e-12 ) && sameVec( b, expected->anchorB[f][j], 1e-12 );
			if ( placed == false && misplaced++ < 4 )
			{
				printf( "  frame %d, joint %d: (%.17g, %.17g, %.17g) (%.17g, %.17g, %.17g) against (%.17g, %.17g, %.17g) "
						"(%.17g, %.17g, %.17g)\n",
						f, j, a.x, a.y, a.z, b.x, b.y, b.z, expected->anchorA[f][j].x, expected->anchorA[f][j].y,
						expected->anchorA[f][j].z, expected->anchorB[f][j].x, expected->anchorB[f][j].y,
						expected->anchorB[f][j].z );
			}
		}
	}
	CHECK( misplaced == 0 );
	CHECK( wrongState == 0 );
}

// ---------------------------------------------------------------------------------------------

static void roundTrip( void )
{
	static Expected expected;
	size_t size = 0;
	uint8_t* data = recordRig( NULL, NULL, 0, &expected, &size );
	CHECK( data != NULL );
	if ( data == NULL )
	{
		return;
	}
	cnRecording* rec = cnLoadRecordingFromMemory( data, size, "memory" );
	CHECK( rec != NULL );
	if ( rec == NULL )
	{
		printf( "  %s\n", cnGetError() );
		free( data );
		return;
	}
	CHECK( cnRecording_GetVersion( rec ) == CN_RECORDING_VERSION_JOINTS );
	CHECK( cnRecording_GetBodyCount( rec ) == bodyTotal );
	CHECK( cnRecording_GetJointCount( rec ) == jointTotal );
	for ( int j = 0; j < jointTotal; ++j )
	{
		cnRecordedJoint joint = cnRecording_GetJoint( rec, j );
		CHECK( strcmp( joint.name, s_jointNames[j] ) == 0 );
		CHECK( joint.type == s_jointTypes[j] );
		CHECK( joint.bodyA == s_jointBodies[j][0] );
		CHECK( joint.bodyB == s_jointBodies[j][1] );
	}
	// a world anchor is stored as the world point itself
	cnRecordedJoint pendulum = cnRecording_GetJoint( rec, 2 );
	CHECK( pendulum.localAnchorB.x == -2.0 && pendulum.localAnchorB.y == -1.0 && pendulum.localAnchorB.z == 2.5 );
	// the point mass's anchor is its origin
	CHECK( sameVec( pendulum.localAnchorA, cnVec3_zero, 1e-15 ) );

	int all[jointTotal];
	for ( int j = 0; j < jointTotal; ++j )
	{
		all[j] = j;
	}
	checkAgainst( rec, &expected, all, jointTotal );
	// the fragile joint acts before the first step and is broken after it; the weld is gone after
	// its frame
	CHECK( cnRecording_GetJointState( rec, 0, 10 ) == cnRecordedJoint_acting );
	CHECK( cnRecording_GetJointState( rec, 1, 10 ) == cnRecordedJoint_broken );
	CHECK( cnRecording_GetJointState( rec, frameCount - 1, 10 ) == cnRecordedJoint_broken );
	CHECK( cnRecording_GetJointState( rec, weldFrame, 5 ) == cnRecordedJoint_acting );
	CHECK( cnRecording_GetJointState( rec, weldFrame + 1, 5 ) == cnRecordedJoint_removed );

	// out of range: a harmless joint, no anchors, removed
	CHECK( cnRecording_GetJoint( rec, -1 ).bodyA == -1 && strcmp( cnRecording_GetJoint( rec, jointTotal ).name, "" ) == 0 );
	cnVec3 a, b;
	CHECK( cnRecording_GetJointAnchors( rec, frameCount, 0, &a, &b ) == false && isnan( a.x ) && isnan( b.z ) );
	CHECK( cnRecording_GetJointAnchors( rec, 0, jointTotal, &a, NULL ) == false );
	CHECK( cnRecording_GetJointState( rec, -1, 0 ) == cnRecordedJoint_removed );
	CHECK( cnRecording_GetJointState( rec, 0, -1 ) == cnRecordedJoint_removed );
	cnDestroyRecording( rec );

	// the same recording to a file: the same bytes
	static Expected again;
	size_t fileSize = 0;
	uint8_t* file = recordRig( REC_PATH, NULL, 0, &again, &fileSize );
	CHECK( file != NULL && fileSize == size && memcmp( file, data, size ) == 0 );
	cnRecording* fromFile = cnLoadRecording( REC_PATH );
	CHECK( fromFile != NULL && cnRecording_GetJointCount( fromFile ) == jointTotal );
	cnDestroyRecording( fromFile );
	remove( REC_PATH );
	free( file );
	free( data );
}

// Recording some bodies: a joint to a static body that is not recorded keeps a fixed world anchor; a
// joint to a moving body that is not recorded is left out; indices follow the recorder's order.
static void someBodies( void )
{
	static Expected expected;
	int list[4] = { ball, crate, slab, bob };
	size_t size = 0;
	uint8_t* data = recordRig( NULL, list, 4, &expected, &size );
	cnRecording* rec = data != NULL ? cnLoadRecordingFromMemory( data, size, "memory" ) : NULL;
	CHECK( rec != NULL );
	if ( rec == NULL )
	{
		free( data );
		return;
	}
	// kept: coil and shock (crate, ball), pendulum (bob, world), rail (slab, the ground as world)
	int keep[4] = { 0, 1, 2, 6 };
	int ends[4][2] = { { 1, 0 }, { 1, 0 }, { 3, -1 }, { 2, -1 } };
	CHECK( cnRecording_GetJointCount( rec ) == 4 );
	for ( int r = 0; r < 4 && r < cnRecording_GetJointCount( rec ); ++r )
	{
		cnRecordedJoint joint = cnRecording_GetJoint( rec, r );
		CHECK( strcmp( joint.name, s_jointNames[keep[r]] ) == 0 );
		CHECK( joint.bodyA == ends[r][0] && joint.bodyB == ends[r][1] );
	}
	checkAgainst( rec, &expected, keep, 4 );
	cnDestroyRecording( rec );
	free( data );

	// no joint left: the oldest version that holds the bodies (boxes and a sphere: version 1)
	int none[2] = { ground, crate };
	data = recordRig( NULL, none, 2, &expected, &size );
	rec = data != NULL ? cnLoadRecordingFromMemory( data, size, "memory" ) : NULL;
	CHECK( rec != NULL && cnRecording_GetVersion( rec ) == 1 && cnRecording_GetJointCount( rec ) == 0 );
	// H + F (8 + 56 B): no joint bytes in the frames
	CHECK( data != NULL && size == u32At( data + 20 ) + frameCount * ( 8 + 56 * 2 ) );
	cnDestroyRecording( rec );
	free( data );
}

// The smallest joint recording: one unnamed box body, a named spring from it to the world, three
// frames. Its bytes in *size.
static uint8_t* smallRecording( size_t* size, cnVec3* localA, cnVec3* worldB )
{
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	cnQuat q = cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.5 * CN_PI );
	cnBodyId box = tbBox( world, cnBody_dynamic, cnV3( 1, 2, 3 ), q, cnVec3_zero, cnV3( 0.5, 0.5, 0.5 ), 0 );
	cnSpringJointDef spring = cnDefaultSpringJointDef();
	spring.base.name = "sp";
	spring.base.bodyA = box;
	// (1.5, 2, 3) in the world is (0, -0.5, 0) in the box turned a quarter about z
	spring.anchorA = cnV3( 1.5, 2, 3 );
	spring.anchorB = cnV3( 1, 2, 5 );
	CHECK( cnJoint_IsValid( world, cnCreateSpringJoint( world, &spring ) ) );
	*localA = cnV3( 0, -0.5, 0 );
	*worldB = spring.anchorB;
	cnRecorderDef def = cnDefaultRecorderDef();
	def.sceneName = "s";
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	for ( int f = 0; f < 3; ++f )
	{
		CHECK( cnRecorder_AddFrame( recorder, world ) );
		CHECK( cnWorld_Step( world, dt ) );
	}
	CHECK( cnRecorder_Finish( recorder ) );
	const void* bytes = cnRecorder_GetBytes( recorder, size );
	uint8_t* data = malloc( *size );
	memcpy( data, bytes, *size );
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
	return data;
}

// The offsets of docs/recording-format.md: a version-4 body record carries its shapes' appearance,
// then the joint count and the joint record, and each frame ends with a byte per joint.
enum
{
	// 36 + len("s") + body (12 + 0 + 144 + 16 appearance)
	smallJointCount = 36 + 1 + 12 + 144 + 16,
	smallJoint = smallJointCount + 4,
	// name "sp", type, bodies, anchors
	smallHeader = smallJoint + 4 + 2 + 4 + 8 + 48,
	smallFrame = 8 + 56 + 1,
};

static void byteLayout( void )
{
	size_t size = 0;
	cnVec3 localA, worldB;
	uint8_t* data = smallRecording( &size, &localA, &worldB );
	CHECK( u32At( data + 8 ) == 4 );
	CHECK( u32At( data + 12 ) == 1 && u32At( data + 16 ) == 3 );
	CHECK( u32At( data + 20 ) == smallHeader );
	CHECK( size == smallHeader + 3 * smallFrame );
	CHECK( u32At( data + smallJointCount ) == 1 );
	const uint8_t* j = data + smallJoint;
	CHECK( u32At( j ) == 2 && memcmp( j + 4, "sp", 2 ) == 0 );
	CHECK( u32At( j + 6 ) == (uint32_t)cnJoint_spring );
	CHECK( u32At( j + 10 ) == 0 && u32At( j + 14 ) == 0xFFFFFFFFu );
	CHECK_NEAR( f64At( j + 18 ), localA.x, 1e-15 );
	CHECK_NEAR( f64At( j + 26 ), localA.y, 1e-15 );
	CHECK_NEAR( f64At( j + 34 ), localA.z, 1e-15 );
	CHECK( f64At( j + 42 ) == worldB.x && f64At( j + 50 ) == worldB.y && f64At( j + 58 ) == worldB.z );
	// every frame: the time, the box's pose, the spring acting
	for ( int f = 0; f < 3; ++f )
	{
		CHECK( data[smallHeader + f * smallFrame + smallFrame - 1] == cnRecordedJoint_acting );
	}
	free( data );
}

static void badJointSections( void )
{
	size_t size = 0;
	cnVec3 localA, worldB;
	uint8_t* good = smallRecording( &size, &localA, &worldB );
	uint8_t* data = malloc( size + 8 );
	cnRecording* fine = cnLoadRecordingFromMemory( good, size, BAD_NAME );
	CHECK( fine != NULL );
	cnDestroyRecording( fine );

	// every proper prefix: too short for the magic, or truncated
	int misses = 0;
	for ( size_t n = 0; n < size; ++n )
	{
		cnRecording* rec = cnLoadRecordingFromMemory( good, n, BAD_NAME );
		const char* want = n < 8 ? "not a Cairn recording" : "truncated";
		if ( rec != NULL || strstr( cnGetError(), want ) == NULL )
		{
			if ( misses++ < 5 )
			{
				printf( "  prefix of %zu bytes: '%s'\n", n, cnGetError() );
			}
		}
		cnDestroyRecording( rec );
	}
	CHECK( misses == 0 );

	// a joint count that the file cannot hold, with the header's frame start moved along
	memcpy( data, good, size );
	putU32( data + smallJointCount, 0x40000000u );
	expectError( data, size, "truncated: the file declares 1073741824 joints" );
	// one joint fewer than described: the joint section ends before the frames start
	memcpy( data, good, size );
	putU32( data + smallJointCount, 0 );
	expectError( data, size, "corrupt: the joint descriptions end at byte" );
	// two joints where one is described: the frames are read as the second
	memcpy( data, good, size );
	putU32( data + smallJointCount, 2 );
	expectError( data, size, "joint 1" );
	// an unknown type
	memcpy( data, good, size );
	putU32( data + smallJoint + 6, (uint32_t)cnJoint_count );
	expectError( data, size, "corrupt: joint 0 (\"sp\") has unknown type 10" );
	// a body index past the recorded bodies, for either end
	memcpy( data, good, size );
	putU32( data + smallJoint + 10, 1 );
	expectError( data, size, "corrupt: joint 0 (\"sp\") joins body 1, but the recording has 1 bodies" );
	memcpy( data, good, size );
	putU32( data + smallJoint + 14, 0xFFFFFFFEu );
	expectError( data, size, "joins body 4294967294" );
	// anchors that are not finite
	for ( int k = 0; k < 6; ++k )
	{
		memcpy( data, good, size );
		putF64( data + smallJoint + 18 + 8 * k, k % 2 == 0 ? NAN : INFINITY );
		expectError( data, size, "corrupt: joint 0 (\"sp\") has an anchor that is not finite" );
	}
	// a name longer than the file
	memcpy( data, good, size );
	putU32( data + smallJoint, 1000000 );
	expectError( data, size, "truncated: the file ends inside joint 0 of 1" );
	// an unknown state in a frame
	memcpy( data, good, size );
	data[smallHeader + 2 * smallFrame - 1] = (uint8_t)cnRecordedJoint_stateCount;
	expectError( data, size, "corrupt: frame 1, joint 0 (\"sp\"): unknown state 3" );
	// a joint section in a file that says version 3: the bodies end before the frames start
	memcpy( data, good, size );
	putU32( data + 8, 3 );
	expectError( data, size, "corrupt: the body descriptions end at byte" );
	// the frames' size counts the joints' bytes: one byte more or less is an error
	memcpy( data, good, size );
	data[size] = 0;
	expectError( data, size + 1, "unexpected bytes after frame 3" );
	expectError( good, size - 1, "truncated" );
	// a newer version
	memcpy( data, good, size );
	putU32( data + 8, CN_RECORDING_VERSION + 1 );
	char want[64];
	snprintf( want, sizeof( want ), "unsupported recording format version %d", CN_RECORDING_VERSION + 1 );
	expectError( data, size, want );
	free( data );
	free( good );
}

int main( void )
{
	RUN_TEST( roundTrip );
	RUN_TEST( someBodies );
	RUN_TEST( byteLayout );
	RUN_TEST( badJointSections );
	return TEST_SUMMARY();
}
