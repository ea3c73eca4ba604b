// SPDX-License-Identifier: MIT
// Joints in JSON scenes (docs/scene-format.md, "Joints"): tests/data/joints_all.json gives every
// joint type the types, bodies, anchors and parameters the file says (anchors read back in world
// coordinates at t = 0, parameters from the joint records against the file's numbers in SI units);
// the defaults; point masses and fixed points; every error names the joint's JSON path; a method
// that solves no joints refuses the scene; the joint CSV writer's rows and its all-or-nothing file.
#define _POSIX_C_SOURCE 200809L

#include "cairn/io.h"
#include "test.h"
#include "world.h"

#include <string.h>
#include <unistd.h>

#define CN_DATA_DIR CAIRN_SOURCE_DIR "/tests/data"

// Anchors go into a body's frame and back: a few roundings of coordinates up to 23 m.
#define CN_ANCHOR_TOL 1e-13

static double cnDeg( double degrees )
{
	return degrees * CN_PI / 180.0;
}

static bool cnContains( const char* text, const char* part )
{
	return strstr( text, part ) != NULL;
}

// Loads inline JSON that must fail; checks NULL and that the message contains each given part.
static void cnExpectError( const char* json, const char* part1, const char* part2 )
{
	cnScene* scene = cnLoadSceneFromString( json, "inline.json" );
	CHECK( scene == NULL );
	cnDestroyScene( scene );
	bool ok = strncmp( cnGetError(), "inline.json: ", 13 ) == 0 && cnContains( cnGetError(), part1 ) &&
			  ( part2 == NULL || cnContains( cnGetError(), part2 ) );
	CHECK( ok );
	if ( ok == false )
	{
		fprintf( stderr, "  message was: %s\n  expected: \"%s\" and \"%s\"\n", cnGetError(), part1, part2 ? part2 : "" );
	}
}

// Loads inline JSON that must load.
static cnScene* cnLoadInline( const char* json )
{
	cnScene* scene = cnLoadSceneFromString( json, "inline.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		fprintf( stderr, "  cannot load: %s\n", cnGetError() );
	}
	return scene;
}

static cnScene* cnLoadAll( void )
{
	cnScene* scene = cnLoadScene( CN_DATA_DIR "/joints_all.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		fprintf( stderr, "  cannot load joints_all.json: %s\n", cnGetError() );
	}
	return scene;
}

// The joint record behind an id (its parameters have no getters).
static const cnJoint* cnRecord( const cnWorld* world, cnJointId id )
{
	return world->joints + id.index;
}

// The joint frame's x (or y) axis in world coordinates on side A.
static cnVec3 cnFrameAxisA( const cnWorld* world, cnJointId id, cnVec3 local )
{
	const cnJoint* j = cnRecord( world, id );
	cnQuat q = cnBody_GetOrientation( world, cnJoint_GetBodyA( world, id ) );
	return cnRotate( cnMulQuat( q, j->localFrameA ), local );
}

static void cnCheckVec( cnVec3 a, cnVec3 b, double tol )
{
	CHECK_NEAR( a.x, b.x, tol );
	CHECK_NEAR( a.y, b.y, tol );
	CHECK_NEAR( a.z, b.z, tol );
}

// One joint of joints_all.json: type, bodies (bodyB NULL: the fixed world), anchors at t = 0.
static cnJointId cnCheckJoint( const cnWorld* world, const char* name, cnJointType type, const char* bodyA,
							   const char* bodyB, cnVec3 anchorA, cnVec3 anchorB )
{
	cnJointId id = cnWorld_FindJoint( world, name );
	CHECK( cnJoint_IsValid( world, id ) );
	if ( cnJoint_IsValid( world, id ) == false )
	{
		fprintf( stderr, "  no joint \"%s\"\n", name );
		return id;
	}
	CHECK( strcmp( cnJoint_GetName( world, id ), name ) == 0 );
	CHECK( cnJoint_GetType( world, id ) == type );
	cnBodyId a = cnJoint_GetBodyA( world, id );
	cnBodyId b = cnJoint_GetBodyB( world, id );
	CHECK( a.index == cnWorld_FindBody( world, bodyA ).index );
	CHECK( bodyB != NULL ? b.index == cnWorld_FindBody( world, bodyB ).index : b.index < 0 );
	cnCheckVec( cnJoint_GetAnchorA( world, id ), anchorA, CN_ANCHOR_TOL );
	cnCheckVec( cnJoint_GetAnchorB( world, id ), anchorB, CN_ANCHOR_TOL );
	CHECK( cnJoint_IsBroken( world, id ) == false );
	return id;
}

static void test_every_type( void )
{
	cnScene* scene = cnLoadAll();
	if ( scene == NULL )
	{
		return;
	}
	const cnWorld* w = scene->world;
	CHECK( cnWorld_GetJointCount( w ) == 13 );
	// in file order
	const char* order[] = { "nail", "hip",	 "knee",  "rail",	 "cardan", "weld", "rod",
							"a_nail", "rope", "shock", "dashpot", "table",  "fuse" };
	for ( int i = 0; i < 13; ++i )
	{
		CHECK( strcmp( cnJoint_GetName( w, cnWorld_GetJoint( w, i ) ), order[i] ) == 0 );
	}

	cnJointId nail = cnCheckJoint( w, "nail", cnJoint_ball, "bob", NULL, cnV3( 0, 0, 3 ), cnV3( 0, 0, 3 ) );
	CHECK( cnRecord( w, nail )->collideConnected == false );
	CHECK( cnRecord( w, nail )->breakForce == 0.0 && cnRecord( w, nail )->breakTorque == 0.0 );

	cnJointId hip = cnCheckJoint( w, "hip", cnJoint_coneTwist, "thigh", "pelvis", cnV3( 3, 0, 2.9 ), cnV3( 3, 0, 2.9 ) );
	CHECK_NEAR( cnRecord( w, hip )->swingAngle, cnDeg( 60 ), 1e-15 );
	CHECK_NEAR( cnRecord( w, hip )->lower, cnDeg( -20 ), 1e-15 );
	CHECK_NEAR( cnRecord( w, hip )->upper, cnDeg( 20 ), 1e-15 );
	cnCheckVec( cnFrameAxisA( w, hip, cnV3( 1, 0, 0 ) ), cnV3( 0, 0, -1 ), 1e-15 );
	CHECK( cnJoint_GetPosition( w, hip ) == 0.0 );

	cnJointId knee = cnCheckJoint( w, "knee", cnJoint_hinge, "shin", "thigh", cnV3( 3, 0, 2.34 ), cnV3( 3, 0, 2.34 ) );
	const cnJoint* k = cnRecord( w, knee );
	CHECK( k->enableLimit && k->upper == 0.0 );
	CHECK_NEAR( k->lower, cnDeg( -150 ), 1e-15 );
	CHECK( k->enableMotor && k->motorSpeed == 0.0 && k->maxMotorForce == 5.0 );
	CHECK( k->enableSpring && k->stiffness == 10.0 && k->damping == 1.0 && k->rest == 0.0 );
	cnCheckVec( cnFrameAxisA( w, knee, cnV3( 1, 0, 0 ) ), cnV3( 0, 1, 0 ), 1e-15 );
	CHECK( cnJoint_GetPosition( w, knee ) == 0.0 );

	// the axis [2, 0, 0] is a direction: normalised
	cnJointId rail = cnCheckJoint( w, "rail", cnJoint_slider, "carriage", NULL, cnV3( 6, 0, 3 ), cnV3( 6, 0, 3 ) );
	const cnJoint* r = cnRecord( w, rail );
	CHECK( r->enableLimit && r->lower == -0.5 && r->upper == 0.5 );
	CHECK( r->enableMotor && r->motorSpeed == 0.2 && r->maxMotorForce == 10.0 );
	CHECK( r->enableSpring && r->stiffness == 50.0 && r->damping == 2.0 && r->rest == 0.1 );
	cnCheckVec( cnFrameAxisA( w, rail, cnV3( 1, 0, 0 ) ), cnV3( 1, 0, 0 ), 1e-15 );
	CHECK( cnJoint_GetPosition( w, rail ) == 0.0 );

	cnJointId cardan = cnCheckJoint( w, "cardan", cnJoint_universal, "crank", NULL, cnV3( 8, 0, 3 ), cnV3( 8, 0, 3 ) );
	cnCheckVec( cnFrameAxisA( w, cardan, cnV3( 1, 0, 0 ) ), cnV3( 1, 0, 0 ), 1e-15 );
	cnCheckVec( cnFrameAxisA( w, cardan, cnV3( 0, 1, 0 ) ), cnV3( 0, 1, 0 ), 1e-15 );

	cnJointId weld = cnCheckJoint( w, "weld", cnJoint_fixed, "plate", "bracket", cnV3( 10, 0, 3.1 ), cnV3( 10, 0, 3.1 ) );
	CHECK( cnRecord( w, weld )->breakForce == 1e6 && cnRecord( w, weld )->breakTorque == 1e6 );

	// a rod keeps the anchors' distance at t = 0; a rope its range
	cnJointId rod = cnCheckJoint( w, "rod", cnJoint_distance, "weight", "hook", cnV3( 12, 0, 2 ), cnV3( 12, 0, 3 ) );
	CHECK( cnRecord( w, rod )->lower == 1.0 && cnRecord( w, rod )->upper == 1.0 );
	CHECK( cnJoint_GetPosition( w, rod ) == 1.0 );
	cnCheckJoint( w, "a_nail", cnJoint_ball, "a", NULL, cnV3( 14, 0, 3 ), cnV3( 14, 0, 3 ) );
	cnJointId rope = cnCheckJoint( w, "rope", cnJoint_distance, "a", "b", cnV3( 14, 0, 3 ), cnV3( 15, 0, 3 ) );
	CHECK( cnRecord( w, rope )->lower == 0.0 && cnRecord( w, rope )->upper == 2.0 );

	cnJointId shock =
		cnCheckJoint( w, "shock", cnJoint_spring, "wheel", "frame", cnV3( 17, 0, 0.3 ), cnV3( 17, 0, 0.6 ) );
	const cnJoint* s = cnRecord( w, shock );
	CHECK( s->stiffness == 800.0 && s->damping == 0.0 && s->rest == 0.3 && s->minLength == 0.0 );
	cnJointId dashpot =
		cnCheckJoint( w, "dashpot", cnJoint_damper, "wheel", "frame", cnV3( 17, 0, 0.3 ), cnV3( 17, 0, 0.6 ) );
	CHECK( cnRecord( w, dashpot )->damping == 20.0 && cnRecord( w, dashpot )->minLength == 0.1 );

	cnJointId table = cnCheckJoint( w, "table", cnJoint_pointOnPlane, "puck", NULL, cnV3( 20, 0, 1 ), cnV3( 20, 0, 1 ) );
	CHECK( cnRecord( w, table )->collideConnected );
	cnCheckVec( cnFrameAxisA( w, table, cnV3( 1, 0, 0 ) ), cnV3( 0, 0, 1 ), 1e-15 );

	cnJointId fuse = cnCheckJoint( w, "fuse", cnJoint_ball, "fuse_ball", NULL, cnV3( 23, 0, 3.1 ), cnV3( 23, 0, 3.1 ) );
	CHECK( cnRecord( w, fuse )->breakForce == 1.0 && cnRecord( w, fuse )->breakTorque == 0.0 );
	cnDestroyScene( scene );
}

// Point masses (dynamic, a mass and no shapes) and fixed points (static, no shapes), as in AERO.
static void test_point_masses( void )
{
	cnScene* scene = cnLoadAll();
	if ( scene == NULL )
	{
		return;
	}
	const cnWorld* w = scene->world;
	cnBodyId weight = cnWorld_FindBody( w, "weight" );
	CHECK( cnBody_GetType( w, weight ) == cnBody_dynamic );
	CHECK( cnBody_GetShapeCount( w, weight ) == 0 );
	CHECK( cnBody_GetMass( w, weight ) == 2.0 );
	cnMat3 inertia = cnBody_GetLocalInertia( w, weight );
	CHECK( inertia.cx.x == 0.0 && inertia.cy.y == 0.0 && inertia.cz.z == 0.0 );
	cnVec3 p = cnBody_GetPosition( w, weight );
	CHECK( p.x == 12.0 && p.y == 0.0 && p.z == 2.0 );
	cnBodyId hook = cnWorld_FindBody( w, "hook" );
	CHECK( cnBody_GetType( w, hook ) == cnBody_static && cnBody_GetShapeCount( w, hook ) == 0 );
	cnDestroyScene( scene );

	// "shapes": [] is the same as none; a kinematic body may have none either
	scene = cnLoadInline( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"p\", \"mass\": 0.5, \"shapes\": [] },"
						  "{ \"name\": \"f\", \"type\": \"static\", \"shapes\": [] },"
						  "{ \"name\": \"k\", \"type\": \"kinematic\", \"velocity\": [1, 0, 0] } ] }" );
	if ( scene != NULL )
	{
		CHECK( cnBody_GetMass( scene->world, cnWorld_FindBody( scene->world, "p" ) ) == 0.5 );
		CHECK( cnWorld_GetBodyCount( scene->world ) == 3 );
		// a point mass falls freely: z = -g t^2 / 2 after one step of symplectic Euler is -g h^2
		CHECK( cnWorld_Step( scene->world, 0.01 ) );
		cnBodyId pm = cnWorld_FindBody( scene->world, "p" );
		CHECK_NEAR( cnBody_GetLinearVelocity( scene->world, pm ).z, -9.81 * 0.01, 1e-12 );
	}
	cnDestroyScene( scene );

	// a dynamic body still needs a shape or a mass
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shapes\": [] } ] }",
				   "bodies[0].shapes: a dynamic body needs at least one solid shape, or a \"mass\" to be a point mass",
				   NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\" } ] }", "bodies[0]: missing required key \"shapes\"",
				   "or a \"mass\"" );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"type\": \"static\", \"shapes\": {} } ] }",
				   "bodies[0].shapes: expected an array of shapes, got an object", NULL );
}

// What a key left out gives.
static void test_defaults( void )
{
	cnScene* scene = cnLoadInline(
		"{ \"cairn\": 1, \"bodies\": [ { \"name\": \"a\", \"mass\": 1, \"position\": [0, 0, 1] },"
		"{ \"name\": \"b\", \"mass\": 1, \"position\": [3, 4, 1], \"awake\": false } ], \"joints\": ["
		"{ \"name\": \"d\", \"type\": \"distance\", \"bodies\": [\"a\", \"b\"], \"anchors\": [[0, 0, 1], [3, 4, 1]] },"
		"{ \"name\": \"d2\", \"type\": \"distance\", \"bodies\": [\"a\"], \"anchors\": [[0, 0, 1], [0, 0, 2]],"
		"  \"length\": 2, \"max_length\": 3 },"
		"{ \"name\": \"s\", \"type\": \"spring\", \"bodies\": [\"a\", \"b\"], \"anchors\": [[0, 0, 1], [3, 4, 1]],"
		"  \"stiffness\": 5 },"
		"{ \"name\": \"c\", \"type\": \"cone_twist\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 1], \"axis\": [0, 0, 1] },"
		"{ \"name\": \"h\", \"type\": \"hinge\", \"bodies\": [\"b\", \"a\"], \"anchor\": [1, 1, 1], \"axis\": [0, 0, 1e-200] },"
		"{ \"name\": \"p\", \"type\": \"damper\", \"bodies\": [\"a\"], \"anchors\": [[0, 0, 1], [0, 0, 0]], \"damping\": 3 }"
		"] }" );
	if ( scene == NULL )
	{
		return;
	}
	const cnWorld* w = scene->world;
	// distance: the anchors' distance at t = 0, 5 m; "length" alone sets both ends of the range it does
	// not give
	const cnJoint* d = cnRecord( w, cnWorld_FindJoint( w, "d" ) );
	CHECK( d->lower == 5.0 && d->upper == 5.0 );
	const cnJoint* d2 = cnRecord( w, cnWorld_FindJoint( w, "d2" ) );
	CHECK( d2->lower == 2.0 && d2->upper == 3.0 );
	// spring: rest length 5 m, no damping, active at any length
	const cnJoint* s = cnRecord( w, cnWorld_FindJoint( w, "s" ) );
	CHECK( s->stiffness == 5.0 && s->damping == 0.0 && s->rest == 5.0 && s->minLength == 0.0 );
	// cone-twist: a 45 degree cone, twist within +-45 degrees
	const cnJoint* c = cnRecord( w, cnWorld_FindJoint( w, "c" ) );
	CHECK( c->swingAngle == 0.25 * CN_PI && c->lower == -0.25 * CN_PI && c->upper == 0.25 * CN_PI );
	// hinge: no limit, motor or spring; a tiny axis is still the z axis
	cnJointId h = cnWorld_FindJoint( w, "h" );
	const cnJoint* hr = cnRecord( w, h );
	CHECK( hr->enableLimit == false && hr->enableMotor == false && hr->enableSpring == false );
	cnCheckVec( cnFrameAxisA( w, h, cnV3( 1, 0, 0 ) ), cnV3( 0, 0, 1 ), 1e-15 );
	const cnJoint* p = cnRecord( w, cnWorld_FindJoint( w, "p" ) );
	CHECK( p->damping == 3.0 && p->minLength == 0.0 );
	// common keys: they collide with nothing else, break never
	CHECK( d->collideConnected == false && d->breakForce == 0.0 && d->breakTorque == 0.0 );
	cnDestroyScene( scene );
}

// "JOINT" wrapped in a scene with a dynamic sphere "a", a dynamic "b", a static "s" with a box, a
// static fixed point "f" and a kinematic "k".
#define CN_SCENE( joint )                                                                                              \
	"{ \"cairn\": 1, \"bodies\": [ { \"name\": \"a\", \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.1 } ] },"    \
	"{ \"name\": \"b\", \"mass\": 1 }, { \"name\": \"s\", \"type\": \"static\", \"shapes\": [ { \"type\": \"box\", "  \
	"\"half_extents\": [1, 1, 1] } ] }, { \"name\": \"f\", \"type\": \"static\" },"                                      \
	"{ \"name\": \"k\", \"type\": \"kinematic\" } ], \"joints\": [ " joint " ] }"

#define CN_BALL "\"name\": \"j\", \"type\": \"ball\", \"anchor\": [0, 0, 0], "

static void test_errors( void )
{
	// the container and each joint
	cnExpectError( "{ \"cairn\": 1, \"joints\": {} }", "inline.json: joints: expected an array of joints, got an object",
				   NULL );
	cnExpectError( CN_SCENE( "3" ), "joints[0]: expected a joint object", "got a number" );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"bodies\": [\"a\"] }" ), "joints[0]: missing required key \"type\"",
				   "ball, hinge, slider, universal, cone_twist, fixed, distance, spring, damper, point_on_plane" );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"weld\", \"bodies\": [\"a\"] }" ),
				   "joints[0].type: unknown joint type \"weld\" (allowed: ball, hinge, slider, universal, cone_twist, "
				   "fixed, distance, spring, damper, point_on_plane)",
				   NULL );
	cnExpectError( CN_SCENE( "{ \"type\": \"ball\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0] }" ),
				   "joints[0]: missing required key \"name\" (a unique joint name)", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"], \"name\": \"\" }" ), "duplicate key \"name\"", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"\", \"type\": \"ball\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0] }" ),
				   "joints[0].name: a joint name must not be empty", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"] }, { " CN_BALL "\"bodies\": [\"b\"] }" ),
				   "joints[1].name: duplicate joint name \"j\" (already used by joints[0])", NULL );

	// keys
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"], \"axis\": [0, 0, 1] }" ),
				   "joints[0].axis: unknown key \"axis\" in a ball joint (it belongs to hinge, slider, cone_twist joints; "
				   "allowed: name, type, bodies, collide_connected, break_force, break_torque, anchor)",
				   NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"], \"anchors\": [[0, 0, 0], [0, 0, 1]] }" ),
				   "joints[0].anchors: unknown key \"anchors\" in a ball joint (it belongs to distance, spring, damper "
				   "joints",
				   NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"], \"colide_connected\": true }" ),
				   "joints[0].colide_connected: unknown key \"colide_connected\" in a ball joint (did you mean "
				   "\"collide_connected\"?",
				   NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"ball\", \"bodies\": [\"a\"] }" ),
				   "joints[0]: missing required key \"anchor\"", NULL );

	// bodies
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"ghost\"] }" ),
				   "joints[0].bodies[0]: unknown body \"ghost\" (no body in \"bodies\" has this name)", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\", \"a\"] }" ),
				   "joints[0].bodies: a body cannot be joined to itself (\"a\" twice)", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [] }" ), "joints[0].bodies: expected one body name",
				   "got an empty array" );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\", \"b\", \"s\"] }" ), "joints[0].bodies: expected one",
				   "got more than two" );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": \"a\" }" ), "joints[0].bodies: expected one", "got a string" );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\", 2] }" ), "joints[0].bodies[1]: expected a string, got a number",
				   NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"s\"] }" ),
				   "joints[0].bodies: joins static body \"s\" to the fixed world, which moves nothing", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"s\", \"f\"] }" ),
				   "joints[0].bodies: joins two bodies that are not dynamic (static \"s\" and static \"f\")", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"k\"] }" ),
				   "joints[0].bodies: joins kinematic body \"k\" to the fixed world", NULL );

	// axes and anchors
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"hinge\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
							 "\"axis\": [0, 0, 0] }" ),
				   "joints[0].axis: the axis has zero length", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"slider\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
							 "\"axis\": [0, 1e999, 0] }" ),
				   "joints[0].axis[1]: must be a finite number", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"hinge\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0] }" ),
				   "joints[0]: missing required key \"axis\"", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"point_on_plane\", \"bodies\": [\"a\"], "
							 "\"anchor\": [0, 0, 0], \"normal\": [0, 0, 0] }" ),
				   "joints[0].normal: the plane normal has zero length", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"universal\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
							 "\"axes\": [[1, 0, 0], [1, 1, 0]] }" ),
				   "joints[0].axes: the two axes must be perpendicular (they are 45 degrees apart)", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"universal\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
							 "\"axes\": [[1, 0, 0], [0, 0, 0]] }" ),
				   "joints[0].axes[1]: the axis has zero length", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"universal\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
							 "\"axes\": [[1, 0, 0]] }" ),
				   "joints[0].axes: expected two directions", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"spring\", \"bodies\": [\"a\"], \"stiffness\": 1, "
							 "\"anchors\": [[0, 0, 0]] }" ),
				   "joints[0].anchors: expected two points [[x, y, z], [x, y, z]]", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"spring\", \"bodies\": [\"a\"], \"stiffness\": 1, "
							 "\"anchors\": [[0, 0, 0], [0, 0]] }" ),
				   "joints[0].anchors[1]: expected 3 numbers [x, y, z], got 2", NULL );

	// limits, motors, springs
	const char* hinge = "{ \"name\": \"j\", \"type\": \"hinge\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], \"axis\": "
						"[0, 1, 0], ";
	char json[2048];
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"limits_deg\": [10, -10] }" ), hinge );
	cnExpectError( json, "joints[0].limits_deg: limits out of order: the lower 10 is above the upper -10", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"limits_deg\": [-200, 10] }" ), hinge );
	cnExpectError( json, "joints[0].limits_deg[0]: must be in [-180, 180] degrees (got -200)", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"motor\": { \"speed\": 1 } }" ), hinge );
	cnExpectError( json, "joints[0].motor: missing required key \"max_torque\"", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"motor\": { \"max_force\": 1 } }" ), hinge );
	cnExpectError( json, "joints[0].motor.max_force: unknown key \"max_force\" in a hinge motor", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"motor\": { \"max_torque\": -1 } }" ), hinge );
	cnExpectError( json, "joints[0].motor.max_torque: must be >= 0 (got -1)", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"motor\": 5 }" ), hinge );
	cnExpectError( json, "joints[0].motor: expected an object (a hinge motor), got a number", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"spring\": { \"damping\": 1 } }" ), hinge );
	cnExpectError( json, "joints[0].spring: missing required key \"stiffness\"", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"spring\": { \"stiffness\": 1, \"rest\": 1 } }" ), hinge );
	cnExpectError( json, "joints[0].spring.rest: unknown key \"rest\" in a hinge spring (allowed: stiffness, damping, rest_deg)",
				   NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"spring\": { \"stiffness\": 1, \"rest_deg\": 270 } }" ), hinge );
	cnExpectError( json, "joints[0].spring.rest_deg: must be in [-180, 180] degrees (got 270)", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"slider\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
							 "\"axis\": [1, 0, 0], \"limits\": [1, 0.5] }" ),
				   "joints[0].limits: limits out of order", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"slider\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
							 "\"axis\": [1, 0, 0], \"limits_deg\": [0, 1] }" ),
				   "joints[0].limits_deg: unknown key \"limits_deg\" in a slider joint (it belongs to hinge joints", NULL );
	const char* cone = "{ \"name\": \"j\", \"type\": \"cone_twist\", \"bodies\": [\"a\"], \"anchor\": [0, 0, 0], "
					   "\"axis\": [0, 0, 1], ";
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"swing_deg\": 180 }" ), cone );
	cnExpectError( json, "joints[0].swing_deg: the cone's half angle must be below 180 degrees (got 180)", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"swing_deg\": 0 }" ), cone );
	cnExpectError( json, "joints[0].swing_deg: must be > 0 (got 0)", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"twist_deg\": [5, 20] }" ), cone );
	cnExpectError( json, "joints[0].twist_deg: the twist range must contain 0, the twist at t = 0 (got [5, 20])", NULL );

	// lengths
	const char* distance = "{ \"name\": \"j\", \"type\": \"distance\", \"bodies\": [\"a\", \"b\"], \"anchors\": [[0, "
						   "0, 0], [0, 0, 1.5]], ";
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"min_length\": 2, \"max_length\": 1 }" ), distance );
	cnExpectError( json, "joints[0].max_length: min_length (2 m) must not be above max_length (1 m)", NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"max_length\": 1 }" ), distance );
	cnExpectError( json, "joints[0].max_length: min_length (1.5 m) must not be above max_length (1 m); \"min_length\" "
						 "is not given and defaults to the length, 1.5 m",
				   NULL );
	snprintf( json, sizeof( json ), CN_SCENE( "%s\"length\": 0 }" ), distance );
	cnExpectError( json, "joints[0].length: must be > 0 (got 0)", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"distance\", \"bodies\": [\"a\"], "
							 "\"anchors\": [[0, 0, 1], [0, 0, 1]] }" ),
				   "joints[0].anchors: the anchors coincide, which makes a rod of length 0", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"spring\", \"bodies\": [\"a\"], "
							 "\"anchors\": [[0, 0, 1], [0, 0, 2]] }" ),
				   "joints[0]: missing required key \"stiffness\" (N/m)", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"spring\", \"bodies\": [\"a\"], "
							 "\"anchors\": [[0, 0, 1], [0, 0, 2]], \"stiffness\": 1, \"rest_length\": -1 }" ),
				   "joints[0].rest_length: must be >= 0 (got -1)", NULL );
	cnExpectError( CN_SCENE( "{ \"name\": \"j\", \"type\": \"damper\", \"bodies\": [\"a\"], "
							 "\"anchors\": [[0, 0, 1], [0, 0, 2]], \"damping\": 0 }" ),
				   "joints[0].damping: must be > 0 (got 0)", NULL );

	// common keys
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"], \"break_force\": -1 }" ),
				   "joints[0].break_force: must be >= 0 (got -1)", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"], \"break_torque\": \"never\" }" ),
				   "joints[0].break_torque: expected a number, got a string", NULL );
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"], \"collide_connected\": 1 }" ),
				   "joints[0].collide_connected: expected true or false, got a number", NULL );

	// what the library refuses comes back with the joint's path
	cnExpectError( CN_SCENE( "{ " CN_BALL "\"bodies\": [\"a\"] }, { \"name\": \"far\", \"type\": \"ball\", "
							 "\"bodies\": [\"a\"], \"anchor\": [1e200, 0, 0] }" ),
				   "joints[1]: ball joint: anchors must be finite", NULL );
}

// A method that solves no joints refuses the scene with the joint's path and the methods that do;
// one that does loads every joint.
static void test_methods( void )
{
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		cnScene* scene = cnLoadSceneWithMethod( CN_DATA_DIR "/joints_all.json", (cnMethod)m );
		if ( cnMethod_GetFlags( (cnMethod)m ) & cnMethodFlag_joints )
		{
			CHECK( scene != NULL && cnWorld_GetJointCount( scene->world ) == 13 );
		}
		else
		{
			CHECK( scene == NULL );
			CHECK( cnContains( cnGetError(), "joints_all.json: joints[0]: " ) );
			CHECK( cnContains( cnGetError(), cnMethod_GetName( (cnMethod)m ) ) );
			CHECK( cnContains( cnGetError(), "(methods that solve joints: impulse" ) );
			CHECK( cnGetErrorCode() == cnError_badInput );
		}
		cnDestroyScene( scene );
	}
}

// Reads a whole small file into text; false when it cannot be opened.
static bool cnReadText( const char* path, char* text, size_t size )
{
	FILE* f = fopen( path, "r" );
	if ( f == NULL )
	{
		return false;
	}
	size_t n = fread( text, 1, size - 1, f );
	text[n] = 0;
	fclose( f );
	return true;
}

// The joint CSV writer: a header, one row per joint per frame (at t = 0 no step has measured
// anything: every value 0), names quoted as RFC 4180 asks, nothing left by an unfinished file.
static void test_joint_csv( void )
{
	cnScene* scene = cnLoadInline(
		"{ \"cairn\": 1, \"bodies\": [ { \"name\": \"p\", \"mass\": 1, \"position\": [1, 0, 0] } ], \"joints\": ["
		"{ \"name\": \"rod, long\", \"type\": \"distance\", \"bodies\": [\"p\"], \"anchors\": [[1, 0, 0], [0, 0, 0]] },"
		"{ \"name\": \"pin\", \"type\": \"point_on_plane\", \"bodies\": [\"p\"], \"anchor\": [1, 0, 0], "
		"\"normal\": [0, 1, 0] } ] }" );
	if ( scene == NULL )
	{
		return;
	}
	char path[] = "/tmp/cairn_test_joint_csv_XXXXXX";
	int fd = mkstemp( path );
	CHECK( fd >= 0 );
	close( fd );
	cnJointCsvWriterDef def = cnDefaultJointCsvWriterDef();
	def.path = path;
	cnJointCsvWriter* writer = cnCreateJointCsvWriter( scene->world, &def );
	CHECK( writer != NULL );
	CHECK( cnJointCsvWriter_AddFrame( writer, scene->world ) );
	CHECK( cnJointCsvWriter_Finish( writer ) );
	cnDestroyJointCsvWriter( writer );
	char text[1024];
	CHECK( cnReadText( path, text, sizeof( text ) ) );
	CHECK( strcmp( text, "time,joint,type,linear_error,angular_error,fx,fy,fz,tx,ty,tz,broken\n"
						 "0,\"rod, long\",distance,0,0,0,0,0,0,0,0,0\n"
						 "0,pin,point_on_plane,0,0,0,0,0,0,0,0,0\n" ) == 0 );

	// the rows of a later frame carry its time
	CHECK( cnWorld_Step( scene->world, 0.01 ) );

	// an unfinished file leaves nothing, not even PATH.tmp
	remove( path );
	writer = cnCreateJointCsvWriter( scene->world, &def );
	CHECK( writer != NULL && cnJointCsvWriter_AddFrame( writer, scene->world ) );
	cnDestroyJointCsvWriter( writer );
	char tmp[64];
	snprintf( tmp, sizeof( tmp ), "%s.tmp", path );
	CHECK( access( path, F_OK ) != 0 && access( tmp, F_OK ) != 0 );

	// a list of joints, and a bad one
	cnJointId ids[1] = { cnWorld_FindJoint( scene->world, "pin" ) };
	def.joints = ids;
	def.jointCount = 1;
	writer = cnCreateJointCsvWriter( scene->world, &def );
	CHECK( writer != NULL && cnJointCsvWriter_AddFrame( writer, scene->world ) && cnJointCsvWriter_Finish( writer ) );
	cnDestroyJointCsvWriter( writer );
	CHECK( cnReadText( path, text, sizeof( text ) ) );
	CHECK( strncmp( text + strlen( "time,joint,type,linear_error,angular_error,fx,fy,fz,tx,ty,tz,broken\n" ), "0.01,pin,",
					9 ) == 0 );
	remove( path );
	ids[0] = cnJointId_null;
	CHECK( cnCreateJointCsvWriter( scene->world, &def ) == NULL && cnGetErrorCode() == cnError_invalidId );
	CHECK( access( path, F_OK ) != 0 );
	cnDestroyScene( scene );
}

int main( void )
{
	RUN_TEST( test_every_type );
	RUN_TEST( test_point_masses );
	RUN_TEST( test_defaults );
	RUN_TEST( test_errors );
	RUN_TEST( test_methods );
	RUN_TEST( test_joint_csv );
	return TEST_SUMMARY();
}
