// SPDX-License-Identifier: MIT
// Scene loader tests: good files give the world the file describes (checked against values worked
// out by hand from the file), and every class of bad input gives NULL and a message naming the file,
// the JSON path and the reason.
#define _POSIX_C_SOURCE 200809L

#include "cairn/scene.h"
#include "test.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

// Values that the loader copies or that go through one or two roundings (a product, a sum, a
// square root) agree with the hand formula to a few ulps; 1e-12 relative leaves room for that and
// would still catch any wrong constant, unit or missing term.
#define CN_REL 1e-12

#define CN_DATA_DIR CAIRN_SOURCE_DIR "/tests/data"

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
	CHECK( strncmp( cnGetError(), "inline.json:", 12 ) == 0 );
	CHECK( cnContains( cnGetError(), part1 ) );
	if ( part2 != NULL )
	{
		CHECK( cnContains( cnGetError(), part2 ) );
	}
	if ( !cnContains( cnGetError(), part1 ) || ( part2 != NULL && !cnContains( cnGetError(), part2 ) ) )
	{
		fprintf( stderr, "  message was: %s\n  expected: \"%s\" and \"%s\"\n", cnGetError(), part1, part2 ? part2 : "" );
	}
}

static cnScene* cnLoadGood( const char* name )
{
	char path[1024];
	snprintf( path, sizeof( path ), "%s/%s", CN_DATA_DIR, name );
	cnScene* scene = cnLoadScene( path );
	if ( scene == NULL )
	{
		fprintf( stderr, "  cannot load %s: %s\n", name, cnGetError() );
	}
	return scene;
}

static void test_full_scene_settings( void )
{
	cnScene* scene = cnLoadGood( "scene_full.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		return;
	}
	CHECK( strcmp( scene->name, "loader test" ) == 0 );
	CHECK( strcmp( scene->description, "Uses every key of the format at least once." ) == 0 );
	CHECK( cnContains( scene->path, "tests/data/scene_full.json" ) );
	CHECK( scene->timeStep == 0.005 );
	CHECK( scene->duration == 2.5 );
	CHECK( scene->fps == 30.0 );
	CHECK( cnWorld_GetDef( scene->world ).method == cnMethod_impulse );

	cnWorldDef def = cnWorld_GetDef( scene->world );
	CHECK( def.settings.impulse.subSteps == 8 );
	CHECK( def.settings.impulse.relaxIterations == 3 );
	CHECK( def.enableSleep == false );
	cnVec3 g = cnWorld_GetGravity( scene->world );
	CHECK( g.x == 0.0 && g.y == 0.0 && g.z == -9.81 );
	cnDestroyScene( scene );
}

static void test_full_scene_bodies( void )
{
	cnScene* scene = cnLoadGood( "scene_full.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	const char* names[] = { "ground", "ball", "crate", "pill", "lift" };
	CHECK( cnWorld_GetBodyCount( world ) == 5 );
	for ( int i = 0; i < 5; ++i )
	{
		CHECK( strcmp( cnBody_GetName( world, cnWorld_GetBody( world, i ) ), names[i] ) == 0 );
	}
	cnBodyId ground = cnWorld_FindBody( world, "ground" );
	cnBodyId ball = cnWorld_FindBody( world, "ball" );
	cnBodyId crate = cnWorld_FindBody( world, "crate" );
	cnBodyId pill = cnWorld_FindBody( world, "pill" );
	cnBodyId lift = cnWorld_FindBody( world, "lift" );
	CHECK( cnBody_GetType( world, ground ) == cnBody_static );
	CHECK( cnBody_GetType( world, ball ) == cnBody_dynamic );
	CHECK( cnBody_GetType( world, lift ) == cnBody_kinematic );

	// ball: position and velocity copied; mass of a rubber sphere = 4/3 pi r^3 rho
	cnVec3 p = cnBody_GetPosition( world, ball );
	CHECK( p.x == 1.0 && p.y == 2.0 && p.z == 3.0 );
	cnVec3 v = cnBody_GetLinearVelocity( world, ball );
	CHECK( v.x == 0.5 && v.y == 0.0 && v.z == 0.0 );
	double ballMass = 4.0 / 3.0 * CN_PI * 0.1 * 0.1 * 0.1 * 1100.0;
	CHECK_NEAR( cnBody_GetMass( world, ball ), ballMass, CN_REL * ballMass );
	CHECK( cnBody_GetGravityScale( world, ball ) == 0.5 );

	// ball shape filter bits, including a 64-bit mask given as a hex string
	cnShapeId shape;
	CHECK( cnBody_GetShapes( world, ball, &shape, 1 ) == 1 );
	cnShapeDef sd = cnShape_GetDef( world, shape );
	CHECK( sd.type == cnShape_sphere && sd.radius == 0.1 );
	CHECK( sd.categoryBits == 2 );
	CHECK( sd.maskBits == ~(uint64_t)2 );
	CHECK( sd.groupIndex == -3 );
	CHECK( sd.material == cnWorld_FindMaterial( world, "rubber" ) );

	// crate: "mass" overrides the density; the box inertia scales with it:
	// Izz = m (a^2 + b^2) / 3 for half extents a, b
	CHECK_NEAR( cnBody_GetMass( world, crate ), 2.5, CN_REL * 2.5 );
	cnMat3 inertia = cnBody_GetLocalInertia( world, crate );
	double izz = 2.5 * ( 0.5 * 0.5 + 0.25 * 0.25 ) / 3.0;
	CHECK_NEAR( inertia.cz.z, izz, CN_REL * izz );
	// euler_deg [0, 0, 90]: a 90 degree yaw is q = (cos 45, 0, 0, sin 45)
	cnQuat q = cnBody_GetOrientation( world, crate );
	CHECK_NEAR( q.w, sqrt( 0.5 ), 1e-15 );
	CHECK_NEAR( q.x, 0.0, 1e-15 );
	CHECK_NEAR( q.y, 0.0, 1e-15 );
	CHECK_NEAR( q.z, sqrt( 0.5 ), 1e-15 );

	// pill: a steel capsule plus a cylinder of the body's (default, redefined) material
	// capsule volume pi r^2 (2 h) + 4/3 pi r^3, cylinder pi r^2 (2 h)
	double capsule = CN_PI * 0.1 * 0.1 * 0.4 + 4.0 / 3.0 * CN_PI * 0.1 * 0.1 * 0.1;
	double cylinder = CN_PI * 0.2 * 0.2 * 0.1;
	double pillMass = 7800.0 * capsule + 500.0 * cylinder;
	CHECK_NEAR( cnBody_GetMass( world, pill ), pillMass, CN_REL * pillMass );
	cnVec3 w = cnBody_GetAngularVelocity( world, pill );
	CHECK( w.x == 0.0 && w.y == 0.0 && w.z == 2.0 );
	CHECK( cnBody_GetShapeCount( world, pill ) == 2 );

	// lift: a kinematic body keeps its prescribed velocity and has no mass
	v = cnBody_GetLinearVelocity( world, lift );
	CHECK( v.x == 0.0 && v.y == 0.0 && v.z == 0.2 );
	CHECK( cnBody_GetMass( world, lift ) == 0.0 );
	cnDestroyScene( scene );
}

static void test_full_scene_materials( void )
{
	cnScene* scene = cnLoadGood( "scene_full.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	// "default" redefines material 0; two more are added
	CHECK( cnWorld_GetMaterialCount( world ) == 3 );
	CHECK( cnWorld_FindMaterial( world, "default" ) == 0 );
	cnMaterialDef def = cnMaterial_GetDef( world, 0 );
	CHECK( def.density == 500.0 && def.friction == 0.5 && def.restitution == 0.1 );
	cnMaterialId rubber = cnWorld_FindMaterial( world, "rubber" );
	cnMaterialId steel = cnWorld_FindMaterial( world, "steel" );
	CHECK( rubber > 0 && steel > 0 );
	cnMaterialDef s = cnMaterial_GetDef( world, steel );
	CHECK( s.stiffness == 1e9 && s.damping == 1e3 );
	CHECK( s.texture != NULL && strcmp( s.texture, "steel.png" ) == 0 );
	cnMaterialDef r = cnMaterial_GetDef( world, rubber );
	CHECK( r.color[0] == 0.9f && r.color[1] == 0.1f && r.color[2] == 0.1f );

	double f, e;
	// the pair override, in both orders
	cnWorld_GetMaterialPair( world, rubber, steel, &f, &e );
	CHECK( f == 1.2 && e == 0.5 );
	cnWorld_GetMaterialPair( world, steel, rubber, &f, &e );
	CHECK( f == 1.2 && e == 0.5 );
	// a pair that gives only restitution keeps the mixed friction sqrt(0.5 * 0.4)
	cnWorld_GetMaterialPair( world, 0, steel, &f, &e );
	CHECK_NEAR( f, sqrt( 0.5 * 0.4 ), CN_REL );
	CHECK( e == 0.0 );
	// no override: geometric mean of friction, larger restitution
	cnWorld_GetMaterialPair( world, rubber, 0, &f, &e );
	CHECK_NEAR( f, sqrt( 0.9 * 0.5 ), CN_REL );
	CHECK( e == 0.8 );
	// equal materials keep their values exactly
	cnWorld_GetMaterialPair( world, steel, steel, &f, &e );
	CHECK( f == 0.4 && e == 0.3 );
	cnDestroyScene( scene );
}

static void test_full_scene_forces( void )
{
	cnScene* scene = cnLoadGood( "scene_full.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	cnBodyId ball = cnWorld_FindBody( world, "ball" );
	cnBodyId crate = cnWorld_FindBody( world, "crate" );
	cnBodyId pill = cnWorld_FindBody( world, "pill" );
	// created in body order: the ball's force, the crate's torque, the pill's target force
	CHECK( cnWorld_GetForceCount( world ) == 3 );
	cnForceDef f = cnForce_GetDef( world, cnWorld_GetForce( world, 0 ) );
	CHECK( f.body.index == ball.index && f.isTorque == false && f.frame == cnForce_world );
	CHECK( f.vector.x == 0.0 && f.vector.y == 0.0 && f.vector.z == 5.0 );
	CHECK( f.localPoint.z == 0.1 );
	CHECK( f.t0 == 0.5 && f.t1 == 1.5 );

	cnForceDef t = cnForce_GetDef( world, cnWorld_GetForce( world, 1 ) );
	CHECK( t.body.index == crate.index && t.isTorque && t.frame == cnForce_body );
	CHECK( t.vector.z == 1.0 );
	CHECK( t.t0 == 0.0 && isinf( t.t1 ) );

	cnForceDef g = cnForce_GetDef( world, cnWorld_GetForce( world, 2 ) );
	CHECK( g.body.index == pill.index && g.frame == cnForce_target );
	CHECK( g.target.index == ball.index );
	CHECK( cnLength( g.vector ) == 3.0 );
	cnDestroyScene( scene );
}

static void test_minimal_scene_defaults( void )
{
	cnScene* scene = cnLoadGood( "scene_minimal.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		return;
	}
	// no "name": the file's base name; documented defaults for the rest
	CHECK( strcmp( scene->name, "scene_minimal" ) == 0 );
	CHECK( strcmp( scene->description, "" ) == 0 );
	CHECK( scene->timeStep == 1.0 / 120.0 );
	CHECK( scene->duration == 5.0 );
	CHECK( scene->fps == 60.0 );
	CHECK( cnWorld_GetDef( scene->world ).settings.impulse.subSteps == cnDefaultWorldDef().settings.impulse.subSteps );
	CHECK( cnWorld_GetDef( scene->world ).settings.impulse.relaxIterations == cnDefaultWorldDef().settings.impulse.relaxIterations );
	CHECK( cnWorld_GetDef( scene->world ).enableSleep );
	cnVec3 g = cnWorld_GetGravity( scene->world );
	CHECK( g.x == 0.0 && g.y == 0.0 && g.z == -9.81 );
	cnBodyId ball = cnWorld_FindBody( scene->world, "ball" );
	CHECK( cnBody_GetType( scene->world, ball ) == cnBody_dynamic );
	// default material: density 1000
	double mass = 4.0 / 3.0 * CN_PI * 0.125 * 1000.0;
	CHECK_NEAR( cnBody_GetMass( scene->world, ball ), mass, CN_REL * mass );
	cnQuat q = cnBody_GetOrientation( scene->world, ball );
	CHECK( q.w == 1.0 && q.x == 0.0 && q.y == 0.0 && q.z == 0.0 );
	cnDestroyScene( scene );
}

static void test_string_source_and_steps( void )
{
	const char* json = "{ \"cairn\": 1, \"gravity\": [0, 0, -10], \"bodies\": ["
					   "{ \"name\": \"ground\", \"type\": \"static\", \"shapes\": [ { \"type\": \"plane\" } ] },"
					   "{ \"name\": \"box\", \"position\": [0, 0, 5], \"euler_deg\": [90, 0, 0],"
					   "  \"shapes\": [ { \"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5] } ] } ] }";
	cnScene* scene = cnLoadSceneFromString( json, "memory/test.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
		return;
	}
	CHECK( strcmp( scene->path, "memory/test.json" ) == 0 );
	CHECK( strcmp( scene->name, "test" ) == 0 );
	// a 90 degree roll: q = (cos 45, sin 45, 0, 0)
	cnQuat q = cnBody_GetOrientation( scene->world, cnWorld_FindBody( scene->world, "box" ) );
	CHECK_NEAR( q.w, sqrt( 0.5 ), 1e-15 );
	CHECK_NEAR( q.x, sqrt( 0.5 ), 1e-15 );
	// the loaded world steps
	CHECK( cnWorld_Step( scene->world, scene->timeStep ) );
	cnDestroyScene( scene );
	cnDestroyScene( NULL );
}

static void test_euler_composition( void )
{
	// R = Rz(yaw) Ry(pitch) Rx(roll): with roll 90 and yaw 90 the body x axis goes to world y
	// (yaw only), the body y axis goes first to z (roll) and stays there (yaw about z)
	const char* json = "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"euler_deg\": [90, 0, 90],"
					   " \"shapes\": [ { \"type\": \"sphere\", \"radius\": 1 } ] } ] }";
	cnScene* scene = cnLoadSceneFromString( json, NULL );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		return;
	}
	cnQuat q = cnBody_GetOrientation( scene->world, cnWorld_GetBody( scene->world, 0 ) );
	cnVec3 x = cnRotate( q, cnV3( 1, 0, 0 ) );
	cnVec3 y = cnRotate( q, cnV3( 0, 1, 0 ) );
	CHECK_NEAR( x.x, 0.0, 1e-15 );
	CHECK_NEAR( x.y, 1.0, 1e-15 );
	CHECK_NEAR( x.z, 0.0, 1e-15 );
	CHECK_NEAR( y.x, 0.0, 1e-15 );
	CHECK_NEAR( y.y, 0.0, 1e-15 );
	CHECK_NEAR( y.z, 1.0, 1e-15 );
	cnDestroyScene( scene );
}

// One inline case per error class: NULL, and a message with the JSON path and the reason.
static void test_error_classes( void )
{
#define BODY( extra ) "{ \"name\": \"b\", " extra " \"shapes\": [ { \"type\": \"sphere\", \"radius\": 1 } ] }"
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shape\": [] } ] }",
				   "inline.json: bodies[0].shape: unknown key \"shape\"", "allowed: name, type" );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shape\": [] } ] }", "did you mean \"shapes\"",
				   NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shapes\": [ { \"type\": \"sphere\", \"radius\": "
				   "true } ] } ] }",
				   "bodies[0].shapes[0].radius: expected a number", "got a boolean" );
	cnExpectError( "{ \"cairn\": 1, \"gravity\": [0, 0, 1e999] }", "gravity[2]: must be a finite number", "inf" );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shapes\": [ { \"type\": \"sphere\", \"radius\": "
				   "0 } ] } ] }",
				   "bodies[0].shapes[0].radius: must be > 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shapes\": [ { \"type\": \"box\", "
				   "\"half_extents\": [1, 1, -1] } ] } ] }",
				   "bodies[0].shapes[0].half_extents[2]: must be > 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shapes\": [ { \"type\": \"cylinder\", "
				   "\"radius\": 1, \"half_height\": -1 } ] } ] }",
				   "bodies[0].shapes[0].half_height: must be > 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "\"mass\": 0," ) " ] }", "bodies[0].mass: must be > 0",
				   NULL );
	cnExpectError( "{ \"cairn\": 1, \"materials\": { \"rubber\": { \"density\": -5 } } }",
				   "materials.rubber.density: must be > 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"materials\": { \"rubber\": { \"friction\": -0.5 } } }",
				   "materials.rubber.friction: must be >= 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"materials\": { \"rubber\": { \"restitution\": 1.01 } } }",
				   "materials.rubber.restitution: must be in [0, 1]", NULL );
	cnExpectError( "{ \"cairn\": 1, \"materials\": { \"my rubber\": { \"restitution\": -1 } } }",
				   "materials[\"my rubber\"].restitution: must be in [0, 1]", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "" ) ", " BODY( "" ) " ] }",
				   "bodies[1].name: duplicate body name \"b\"", "bodies[0]" );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "\"orientation\": [0.5, 0, 0, 0]," ) " ] }",
				   "bodies[0].orientation: must be a unit quaternion", "norm is 0.5" );
	cnExpectError(
		"{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shapes\": [ { \"type\": \"sphere\", \"radius\": 1,"
		" \"orientation\": [1, 0, 0, 0.01] } ] } ] }",
		"bodies[0].shapes[0].orientation: must be a unit quaternion", "norm is 1.00005," );
	cnExpectError(
		"{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"type\": \"kinematic\", \"shapes\": [ { \"type\": "
		"\"plane\" } ] } ] }",
		"bodies[0].shapes[0].type: a plane can only belong to a static body", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"type\": \"static\", \"shapes\": [ { \"type\": "
				   "\"plane\", \"normal\": [0, 0, 0] } ] } ] }",
				   "bodies[0].shapes[0].normal: the plane normal has zero length", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "\"material\": \"wood\"," ) " ] }",
				   "bodies[0].material: unknown material \"wood\"", "defined: default" );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "" ) " ], \"no_collide\": [ [\"b\", \"c\"] ] }",
				   "no_collide[0][1]: unknown body \"c\"", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "\"forces\": [ { \"frame\": \"target\", \"magnitude\": 1, "
														  "\"target\": \"c\" } ]," ) " ] }",
				   "bodies[0].forces[0].target: unknown body \"c\"", NULL );
	cnExpectError( "{ \"bodies\": [] }", "inline.json: missing required key \"cairn\"", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"shapes\": [] } ] }", "bodies[0]: missing required key \"name\"",
				   NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\" } ] }",
				   "bodies[0]: missing required key \"shapes\"", NULL );
	cnExpectError( "{ \"cairn\": 2 }", "cairn: unsupported format version 2", NULL );
	cnExpectError( "{ \"cairn\": \"1\" }", "cairn: expected a number, got a string", NULL );
	cnExpectError( "{ \"cairn\": 1, \"timestep\": 0 }", "timestep: must be > 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"fps\": -30 }", "fps: must be > 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"duration\": -1 }", "duration: must be >= 0", NULL );
	cnExpectError( "{ \"cairn\": 1, \"method\": \"xpbd\" }", "method: unknown method \"xpbd\"", "allowed: impulse, lcp, velocity-projection" );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"b\", \"shapes\": [ { \"type\": \"plane\" } ] } ] }",
				   "bodies[0]: dynamic body \"b\" has no mass", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "\"mass\": 1, \"type\": \"static\"," ) " ] }",
				   "bodies[0].mass: only dynamic bodies have a mass", NULL );
	cnExpectError( "{ \"cairn\": 1, \"substeps\": 0 }", "substeps: must be in [1, 64]", NULL );
	cnExpectError( "{ \"cairn\": 1, \"relax_iterations\": 17 }", "relax_iterations: must be in [1, 16]", NULL );
	cnExpectError( "{ \"cairn\": 1, \"sleep\": 1 }", "sleep: expected true or false, got a number", NULL );
	cnExpectError(
		"{ \"cairn\": 1, \"bodies\": [ " BODY( "\"forces\": [ { \"vector\": [1, 0, 0], \"magnitude\": 2 } ]," ) " ] }",
		"bodies[0].forces[0].magnitude: unknown key \"magnitude\" in a force with frame \"world\"", NULL );
	cnExpectError( "{ \"cairn\": 1, \"bodies\": [ " BODY( "\"forces\": [ { \"frame\": \"target\" } ]," ) " ] }",
				   "bodies[0].forces[0]: missing required key \"magnitude\"", NULL );
	cnExpectError( "[]", "inline.json: the top level must be a JSON object", NULL );
#undef BODY
}

static void test_syntax_errors( void )
{
	// missing comma: cJSON stops at the second key, line 3 column 3
	CHECK( cnLoadSceneFromString( "{\n  \"cairn\": 1\n  \"bodies\": []\n}\n", "s.json" ) == NULL );
	CHECK( cnContains( cnGetError(), "s.json:3:3: syntax error" ) );
	// a comma before a closing brace
	CHECK( cnLoadSceneFromString( "{ \"cairn\": 1, }", "s.json" ) == NULL );
	CHECK( cnContains( cnGetError(), "s.json:1:" ) && cnContains( cnGetError(), "syntax error" ) );
	// text after the value
	CHECK( cnLoadSceneFromString( "{ \"cairn\": 1 }\n\n  x", "s.json" ) == NULL );
	CHECK( cnContains( cnGetError(), "s.json:3:3: syntax error near 'x'" ) );
	CHECK( cnLoadSceneFromString( "", "s.json" ) == NULL );
	CHECK( cnContains( cnGetError(), "s.json:1:1: syntax error: unexpected end of input" ) );
	CHECK( cnLoadSceneFromString( NULL, "s.json" ) == NULL );
	CHECK( cnContains( cnGetError(), "s.json:" ) );
}

static void test_missing_file( void )
{
	CHECK( cnLoadScene( CN_DATA_DIR "/no_such_file.json" ) == NULL );
	CHECK( cnContains( cnGetError(), "no_such_file.json: cannot open: No such file or directory" ) );
	// a directory opens but cannot be read
	CHECK( cnLoadScene( CN_DATA_DIR ) == NULL );
	CHECK( cnContains( cnGetError(), CN_DATA_DIR ": cannot" ) );
}

// cnLoadSceneWithMethod replaces the file's method (scene and world) and leaves everything else;
// the file's own "method" value is still checked, and an out-of-range method is an error.
static void test_method_override( void )
{
	const char* path = CAIRN_SOURCE_DIR "/scenes/bouncing_balls.json";
	cnScene* plain = cnLoadScene( path );
	cnScene* lcp = cnLoadSceneWithMethod( path, cnMethod_lcp );
	CHECK( plain != NULL && lcp != NULL );
	if ( plain != NULL && lcp != NULL )
	{
		CHECK( cnWorld_GetDef( plain->world ).method == cnMethod_impulse );
		CHECK( cnWorld_GetDef( lcp->world ).method == cnMethod_lcp );
		CHECK( lcp->timeStep == plain->timeStep && lcp->duration == plain->duration );
		CHECK( cnWorld_GetBodyCount( lcp->world ) == cnWorld_GetBodyCount( plain->world ) );
	}
	cnDestroyScene( plain );
	cnDestroyScene( lcp );
	CHECK( cnLoadSceneWithMethod( CN_DATA_DIR "/bad/unknown_method.json", cnMethod_lcp ) ==
		   NULL );
	CHECK( cnContains( cnGetError(), "unknown method" ) );
	CHECK( cnLoadSceneWithMethod( path, cnMethod_count ) == NULL );
	CHECK( cnContains( cnGetError(), "bouncing_balls.json: unknown contact method" ) );
}

// A long message is cut to the error state's size, never written past it; a NULL source name or a
// missing directory give messages, not crashes; a success clears the error.
static void test_error_state( void )
{
	char longName[4096];
	memset( longName, 'n', sizeof( longName ) - 1 );
	longName[sizeof( longName ) - 1] = 0;
	CHECK( cnLoadSceneFromString( "{ \"cairn\": 7 }", longName ) == NULL );
	CHECK( cnGetErrorCode() == cnError_badInput );
	CHECK( strlen( cnGetError() ) > 0 && strlen( cnGetError() ) < 4096 );
	CHECK( cnLoadSceneFromString( "{ \"cairn\": 7 }", NULL ) == NULL );
	CHECK( cnContains( cnGetError(), "unsupported format version" ) );
	CHECK( cnLoadScene( "/nonexistent/x.json" ) == NULL );
	CHECK( cnGetErrorCode() == cnError_io );
	cnScene* scene = cnLoadSceneFromString( "{ \"cairn\": 1 }", "ok.json" );
	CHECK( scene != NULL );
	CHECK( cnGetErrorCode() == cnError_none && cnGetError()[0] == 0 );
	cnDestroyScene( scene );
}

// Every fixture in tests/data/bad is listed in EXPECTED.txt with a part of its message; the CLI test
// runs the same files through `cairn run`.
static void test_bad_fixtures( void )
{
	FILE* list = fopen( CN_DATA_DIR "/bad/EXPECTED.txt", "r" );
	CHECK( list != NULL );
	if ( list == NULL )
	{
		return;
	}
	char line[1024];
	char listed[256][128];
	int count = 0;
	while ( fgets( line, sizeof( line ), list ) != NULL )
	{
		line[strcspn( line, "\r\n" )] = 0;
		char* tab = strchr( line, '\t' );
		if ( line[0] == 0 || line[0] == '#' )
		{
			continue;
		}
		CHECK( tab != NULL );
		if ( tab == NULL )
		{
			continue;
		}
		*tab = 0;
		const char* expected = tab + 1;
		char path[1400];
		snprintf( path, sizeof( path ), "%s/bad/%s", CN_DATA_DIR, line );
		cnScene* scene = cnLoadScene( path );
		CHECK( scene == NULL );
		cnDestroyScene( scene );
		// "PATH: ..." or "PATH:LINE:COL: ..."
		CHECK( strncmp( cnGetError(), path, strlen( path ) ) == 0 && cnGetError()[strlen( path )] == ':' );
		CHECK( cnContains( cnGetError(), expected ) );
		if ( !cnContains( cnGetError(), expected ) )
		{
			fprintf( stderr, "  %s: message was: %s\n  expected: %s\n", line, cnGetError(), expected );
		}
		if ( count < 256 && strlen( line ) < sizeof( listed[0] ) )
		{
			memcpy( listed[count++], line, strlen( line ) + 1 );
		}
	}
	fclose( list );
	CHECK( count >= 30 );

	// and every .json there is listed
	DIR* dir = opendir( CN_DATA_DIR "/bad" );
	CHECK( dir != NULL );
	for ( struct dirent* e = dir != NULL ? readdir( dir ) : NULL; e != NULL; e = readdir( dir ) )
	{
		size_t n = strlen( e->d_name );
		if ( n < 5 || strcmp( e->d_name + n - 5, ".json" ) != 0 )
		{
			continue;
		}
		bool found = false;
		for ( int i = 0; i < count && found == false; ++i )
		{
			found = strcmp( listed[i], e->d_name ) == 0;
		}
		CHECK( found );
		if ( found == false )
		{
			fprintf( stderr, "  %s is not listed in EXPECTED.txt\n", e->d_name );
		}
	}
	if ( dir != NULL )
	{
		closedir( dir );
	}
}

// The project's shared scenes (scenes/*.json) must all load.
static void test_shared_scenes_load( void )
{
	DIR* dir = opendir( CAIRN_SOURCE_DIR "/scenes" );
	if ( dir == NULL )
	{
		return;
	}
	for ( struct dirent* e = readdir( dir ); e != NULL; e = readdir( dir ) )
	{
		size_t n = strlen( e->d_name );
		if ( n < 5 || strcmp( e->d_name + n - 5, ".json" ) != 0 )
		{
			continue;
		}
		char path[1400];
		snprintf( path, sizeof( path ), "%s/scenes/%s", CAIRN_SOURCE_DIR, e->d_name );
		cnScene* scene = cnLoadScene( path );
		CHECK( scene != NULL );
		if ( scene == NULL )
		{
			fprintf( stderr, "  %s\n", cnGetError() );
		}
		cnDestroyScene( scene );
	}
	closedir( dir );
}

// A material's appearance block: finish, index of refraction, colour and texture for renderers;
// the older material-level colour still works.
static void test_appearance( void )
{
	const char* json = "{ \"cairn\": 1, \"materials\": {"
					   " \"glass\": { \"appearance\": { \"color\": [0.2, 0.4, 0.6], \"finish\": \"glass\", \"ior\": 1.33 } },"
					   " \"oak\": { \"appearance\": { \"finish\": \"wood\", \"texture\": \"oak.png\" } },"
					   " \"red\": { \"color\": [1, 0, 0] } },"
					   " \"bodies\": [ { \"name\": \"b\", \"material\": \"glass\","
					   " \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.5 } ] } ] }";
	cnScene* scene = cnLoadSceneFromString( json, "appearance.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		printf( "  %s\n", cnGetError() );
		return;
	}
	cnWorld* world = scene->world;
	cnMaterialDef glass = cnMaterial_GetDef( world, cnWorld_FindMaterial( world, "glass" ) );
	CHECK( glass.finish == cnFinish_glass && glass.ior == 1.33 && glass.color[1] == 0.4f );
	cnMaterialDef oak = cnMaterial_GetDef( world, cnWorld_FindMaterial( world, "oak" ) );
	CHECK( oak.finish == cnFinish_wood && oak.texture != NULL && strcmp( oak.texture, "oak.png" ) == 0 && oak.ior == 1.5 );
	cnMaterialDef red = cnMaterial_GetDef( world, cnWorld_FindMaterial( world, "red" ) );
	CHECK( red.finish == cnFinish_plastic && red.color[0] == 1.0f );
	cnDestroyScene( scene );
	cnFinish f;
	CHECK( cnFinish_FromName( "marble", &f ) && f == cnFinish_marble && strcmp( cnFinish_GetName( f ), "marble" ) == 0 );
	CHECK( cnFinish_FromName( "chrome", &f ) == false && cnGetErrorCode() == cnError_invalidArgument );
}

int main( void )
{
	RUN_TEST( test_full_scene_settings );
	RUN_TEST( test_full_scene_bodies );
	RUN_TEST( test_full_scene_materials );
	RUN_TEST( test_full_scene_forces );
	RUN_TEST( test_minimal_scene_defaults );
	RUN_TEST( test_string_source_and_steps );
	RUN_TEST( test_euler_composition );
	RUN_TEST( test_error_classes );
	RUN_TEST( test_syntax_errors );
	RUN_TEST( test_missing_file );
	RUN_TEST( test_error_state );
	RUN_TEST( test_appearance );
	RUN_TEST( test_method_override );
	RUN_TEST( test_bad_fixtures );
	RUN_TEST( test_shared_scenes_load );
	return TEST_SUMMARY();
}
