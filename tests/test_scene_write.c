// SPDX-License-Identifier: MIT
// The scene writer (cnWriteScene, docs/scene-format.md "Writing scenes"): a scene written at t = 0
// loads back into a world that steps bit for bit like the original (the same cnWorld_Hash after every
// step), for scenes of every kind (joints of every type, meshes, hulls, heightfields, materials and
// pairs, forces); a scene written in the middle of a run continues like the original to within
// 1e-9, since the contacts' warm-start impulses are not part of a scene (a snapshot is what
// continues exactly).
#include "test.h"

#include "cairn/cairn.h"
#include "cairn/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CN_SCENES CAIRN_SOURCE_DIR "/scenes/"

// The scene written from the loaded scene's world, loaded again (NULL on failure, reported).
static cnScene* cnRewrite( const cnScene* scene )
{
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.name = scene->name;
	def.timeStep = scene->timeStep;
	def.duration = scene->duration;
	def.fps = scene->fps;
	char* text = cnWriteSceneToString( scene->world, &def );
	if ( text == NULL )
	{
		fprintf( stderr, "%s: write failed: %s\n", scene->path, cnGetError() );
		return NULL;
	}
	cnScene* again = cnLoadSceneFromString( text, "<written>" );
	if ( again == NULL )
	{
		fprintf( stderr, "%s: the written scene does not load: %s\n", scene->path, cnGetError() );
	}
	cnFree( text );
	return again;
}

// load -> write -> load: both worlds have the same hash before and after each of `steps` steps
static void cnCheckRoundTrip( const char* path, int steps )
{
	cnScene* scene = cnLoadScene( path );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		fprintf( stderr, "%s: %s\n", path, cnGetError() );
		return;
	}
	cnScene* again = cnRewrite( scene );
	CHECK( again != NULL );
	if ( again != NULL )
	{
		CHECK( cnWorld_GetBodyCount( again->world ) == cnWorld_GetBodyCount( scene->world ) );
		CHECK( cnWorld_GetJointCount( again->world ) == cnWorld_GetJointCount( scene->world ) );
		CHECK( again->timeStep == scene->timeStep && again->fps == scene->fps && again->duration == scene->duration );
		cnImpulseSettings ia = cnWorld_GetDef( scene->world ).settings.impulse;
		cnImpulseSettings ib = cnWorld_GetDef( again->world ).settings.impulse;
		CHECK( ia.subSteps == ib.subSteps && ia.relaxIterations == ib.relaxIterations );
		int firstDiff = -1;
		for ( int i = 0; i <= steps && firstDiff < 0; ++i )
		{
			if ( cnWorld_Hash( scene->world ) != cnWorld_Hash( again->world ) )
			{
				firstDiff = i;
				break;
			}
			CHECK( cnWorld_Step( scene->world, scene->timeStep ) );
			CHECK( cnWorld_Step( again->world, again->timeStep ) );
		}
		if ( firstDiff >= 0 )
		{
			fprintf( stderr, "%s: the rewritten world differs after %d steps\n", path, firstDiff );
		}
		CHECK( firstDiff < 0 );
	}
	cnDestroyScene( again );
	cnDestroyScene( scene );
}

static void testRoundTripBodies( void )
{
	// materials and pairs, restitution, boxes and cylinders, spheres, planes
	cnCheckRoundTrip( CN_SCENES "can_toss.json", 120 );
	cnCheckRoundTrip( CN_SCENES "bouncing_balls.json", 120 );
	cnCheckRoundTrip( CAIRN_SOURCE_DIR "/tests/data/scene_full.json", 60 );
}

static void testRoundTripGeometry( void )
{
	// hulls (compounds), meshes, a heightfield
	cnCheckRoundTrip( CN_SCENES "jacks.json", 60 );
	cnCheckRoundTrip( CN_SCENES "mesh_drop.json", 60 );
	cnCheckRoundTrip( CN_SCENES "terrain.json", 60 );
}

static void testRoundTripJoints( void )
{
	// one joint of each type, a chain with no_collide, springs and dampers
	cnCheckRoundTrip( CAIRN_SOURCE_DIR "/tests/data/joints_all.json", 60 );
	cnCheckRoundTrip( CN_SCENES "chain.json", 60 );
	cnCheckRoundTrip( CN_SCENES "vehicle.json", 60 );
}

// Written at t = 0.5 s: the reloaded world's poses are the original's bit for bit and its
// velocities to within 1e-12 (the origin's velocity is written, the centre of mass's kept); it then
// continues like the original for a few steps to within 1e-9 while nothing touches (the balls in
// flight), and to within 3e-5 where resting contacts and joints are solved: the impulse method
// starts those from last step's impulses (warm starting), which a scene does not hold, so the first
// steps after the write converge to a slightly different point of the solver's tolerance.
static void testWriteMidRun( void )
{
	const char* paths[] = { CN_SCENES "bouncing_balls.json", CN_SCENES "can_toss.json",
							CAIRN_SOURCE_DIR "/tests/data/joints_all.json" };
	// a scene carries no contact impulses, so the rewritten world starts its contacts cold: resting
	// cans differ by what the warm start of their friction and twist moves them in three steps, and
	// the joints by what 4 sub-steps of 4 passes (warm start, solve, two relax) leave unconverged
	const double tolerance[] = { 1e-9, 3e-5, 3e-5 };
	for ( int p = 0; p < 3; ++p )
	{
		cnScene* scene = cnLoadScene( paths[p] );
		CHECK( scene != NULL );
		if ( scene == NULL )
		{
			continue;
		}
		while ( cnWorld_GetTime( scene->world ) < 0.5 )
		{
			cnWorld_Step( scene->world, scene->timeStep );
		}
		cnScene* again = cnRewrite( scene );
		CHECK( again != NULL );
		if ( again != NULL )
		{
			int n = cnWorld_GetBodyCount( scene->world );
			for ( int i = 0; i < n; ++i )
			{
				cnBodyId ia = cnWorld_GetBody( scene->world, i ), ib = cnWorld_GetBody( again->world, i );
				cnTransform xa = cnBody_GetTransform( scene->world, ia ), xb = cnBody_GetTransform( again->world, ib );
				// positions exactly; the loader normalises a quaternion, which may move its last bit
				CHECK( memcmp( &xa.p, &xb.p, sizeof( xa.p ) ) == 0 );
				CHECK_NEAR( fabs( xa.q.w - xb.q.w ) + fabs( xa.q.x - xb.q.x ) + fabs( xa.q.y - xb.q.y ) + fabs( xa.q.z - xb.q.z ), 0.0, 1e-15 );
				cnVec3 va = cnBody_GetLinearVelocity( scene->world, ia ), vb = cnBody_GetLinearVelocity( again->world, ib );
				CHECK_NEAR( cnLength( cnSub( va, vb ) ), 0.0, 1e-12 * ( 1.0 + cnLength( va ) ) );
			}
			double worst = 0.0;
			for ( int step = 0; step < 3; ++step )
			{
				cnWorld_Step( scene->world, scene->timeStep );
				cnWorld_Step( again->world, scene->timeStep );
				for ( int i = 0; i < n; ++i )
				{
					cnVec3 a = cnBody_GetPosition( scene->world, cnWorld_GetBody( scene->world, i ) );
					cnVec3 b = cnBody_GetPosition( again->world, cnWorld_GetBody( again->world, i ) );
					cnQuat qa = cnBody_GetOrientation( scene->world, cnWorld_GetBody( scene->world, i ) );
					cnQuat qb = cnBody_GetOrientation( again->world, cnWorld_GetBody( again->world, i ) );
					double d = fmax( fmax( fabs( a.x - b.x ), fabs( a.y - b.y ) ), fabs( a.z - b.z ) );
					double dq = fmax( fmax( fabs( qa.w - qb.w ), fabs( qa.x - qb.x ) ), fmax( fabs( qa.y - qb.y ), fabs( qa.z - qb.z ) ) );
					worst = fmax( worst, fmax( d, dq ) );
				}
			}
			if ( worst > tolerance[p] )
			{
				fprintf( stderr, "%s: written at t = 0.5 s, differs by %g\n", paths[p], worst );
			}
			CHECK( worst <= tolerance[p] );
		}
		cnDestroyScene( again );
		cnDestroyScene( scene );
	}
}

// A force's window is simulated time, and a written scene's t = 0 is the world's time: written at
// t = 0.25 s, a force of 2 N on a 1 kg body acting from 0.5 s to 0.75 s and a torque acting since
// t = 0 are written with their windows from then (0.25 s to 0.5 s; since -0.25 s), so the loaded
// world pushes the body over the same 0.25 s: 0.5 m/s, as the original does.
static void testWriteMidRunForceWindow( void )
{
	double h = 1.0 / 120.0;
	cnWorldDef wd = cnDefaultWorldDef();
	wd.gravity = cnVec3_zero;
	cnWorld* world = cnCreateWorld( &wd );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = "pushed";
	bd.type = cnBody_dynamic;
	cnBodyId body = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.radius = 0.1;
	cnCreateShape( world, body, &sd );
	CHECK( cnBody_SetMass( world, body, 1.0 ) );
	cnForceDef fd = cnDefaultForceDef();
	fd.body = body;
	fd.vector = cnV3( 2, 0, 0 );
	// (between steps, so that the step count in the window does not hang on rounding)
	fd.t0 = 0.5 + 0.5 * h;
	fd.t1 = 0.75 + 0.5 * h;
	CHECK( cnForce_IsValid( world, cnCreateForce( world, &fd ) ) );
	cnForceDef td = cnDefaultForceDef();
	td.body = body;
	td.isTorque = true;
	td.vector = cnV3( 0, 0, 1e-3 );
	CHECK( cnForce_IsValid( world, cnCreateForce( world, &td ) ) );
	for ( int i = 0; i < 30; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
	}
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.timeStep = h;
	char* text = cnWriteSceneToString( world, &def );
	cnScene* scene = text != NULL ? cnLoadSceneFromString( text, "<written>" ) : NULL;
	cnFree( text );
	CHECK( scene != NULL );
	if ( scene != NULL )
	{
		CHECK( cnWorld_GetForceCount( scene->world ) == 2 );
		cnForceDef a = cnForce_GetDef( scene->world, cnWorld_GetForce( scene->world, 0 ) );
		cnForceDef b = cnForce_GetDef( scene->world, cnWorld_GetForce( scene->world, 1 ) );
		CHECK_NEAR( a.t0, 0.25 + 0.5 * h, 1e-12 );
		CHECK_NEAR( a.t1, 0.5 + 0.5 * h, 1e-12 );
		CHECK_NEAR( b.t0, -0.25, 1e-12 );
		CHECK( isinf( b.t1 ) );
		cnBodyId loaded = cnWorld_FindBody( scene->world, "pushed" );
		for ( int i = 0; i < 70; ++i )
		{
			CHECK( cnWorld_Step( world, h ) && cnWorld_Step( scene->world, h ) );
		}
		// 2 N on 1 kg for 30 steps of h: 0.5 m/s, in both
		CHECK_NEAR( cnBody_GetLinearVelocity( world, body ).x, 0.5, 1e-12 );
		CHECK_NEAR( cnBody_GetLinearVelocity( scene->world, loaded ).x, 0.5, 1e-12 );
		CHECK_NEAR( cnBody_GetAngularVelocity( scene->world, loaded ).z, cnBody_GetAngularVelocity( world, body ).z, 1e-12 );
		cnDestroyScene( scene );
	}
	cnDestroyWorld( world );
}

// The new getters return what the defs gave; bad ids give the documented defaults.
static void testGetters( void )
{
	cnWorldDef wd = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &wd );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = cnBody_dynamic;
	bd.linearDamping = 0.25;
	bd.angularDamping = 0.5;
	bd.dragCoefficient = 0.125;
	bd.enableSleep = false;
	bd.linearVelocity = cnV3( 1.0, 2.0, 3.0 );
	cnBodyId a = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_sphere;
	sd.radius = 0.5;
	sd.position = cnV3( 1.0, 0.0, 0.0 );
	cnCreateShape( world, a, &sd );
	bd.linearVelocity = cnV3( 0.0, 0.0, 0.0 );
	bd.position = cnV3( 3.0, 0.0, 0.0 );
	cnBodyId b = cnCreateBody( world, &bd );
	cnCreateShape( world, b, &sd );
	cnBodyDef got = cnBody_GetDef( world, a );
	CHECK( got.linearDamping == 0.25 && got.angularDamping == 0.5 && got.dragCoefficient == 0.125 );
	CHECK( got.enableSleep == false && got.type == cnBody_dynamic );
	// the origin's velocity, not the centre of mass's (equal here: no spin)
	CHECK( got.linearVelocity.x == 1.0 && got.linearVelocity.y == 2.0 && got.linearVelocity.z == 3.0 );
	CHECK( cnWorld_IsCollisionDisabled( world, a, b ) == false );
	CHECK( cnWorld_DisableCollision( world, a, b ) );
	CHECK( cnWorld_IsCollisionDisabled( world, b, a ) );
	cnSpringJointDef spring = cnDefaultSpringJointDef();
	spring.base.bodyA = a;
	spring.base.bodyB = b;
	spring.base.breakForce = 7.0;
	spring.base.collideConnected = true;
	spring.anchorA = cnV3( 0.0, 0.0, 0.0 );
	spring.anchorB = cnV3( 3.0, 0.0, 0.0 );
	spring.stiffness = 10.0;
	spring.minLength = 0.5;
	cnJointId j = cnCreateSpringJoint( world, &spring );
	CHECK( cnJoint_GetMinLength( world, j ) == 0.5 );
	CHECK( cnJoint_GetCollideConnected( world, j ) );
	CHECK( cnJoint_GetBreakLimits( world, j ).force == 7.0 && cnJoint_GetBreakLimits( world, j ).torque == 0.0 );
	CHECK( isnan( cnJoint_GetSwingAngle( world, j ) ) );
	CHECK( isnan( cnJoint_GetMinLength( world, cnJointId_null ) ) );
	CHECK( cnBody_GetDef( world, cnBodyId_null ).type == cnDefaultBodyDef().type );
	cnDestroyWorld( world );
}

// A polygon cannot be written (the JSON format has none); bad arguments fail with a message.
static void testErrors( void )
{
	CHECK( cnWriteSceneToString( NULL, NULL ) == NULL );
	cnWorldDef wd = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &wd );
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.fps = 0.0;
	CHECK( cnWriteSceneToString( world, &def ) == NULL && strstr( cnGetError(), "fps" ) != NULL );
	CHECK( cnWriteScene( world, NULL, "/nonexistent-folder/x.json" ) == false && cnGetErrorCode() == cnError_io );
	// an empty world is a valid scene
	char* text = cnWriteSceneToString( world, NULL );
	CHECK( text != NULL );
	cnScene* s = text != NULL ? cnLoadSceneFromString( text, "<empty>" ) : NULL;
	CHECK( s != NULL && cnWorld_GetBodyCount( s->world ) == 0 );
	cnDestroyScene( s );
	cnFree( text );
	cnDestroyWorld( world );
}

// One camera of each type, written with every key and loaded back with the same fields; writing the
// loaded scene again gives the same bytes. A camera on a body that is gone is left out.
static const char* const cnCameraScene =
	"{\"cairn\": 1, \"name\": \"cams\", \"bodies\": ["
	"{\"name\": \"ball\", \"position\": [0, 0, 1], \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.5}]},"
	"{\"name\": \"cart\", \"position\": [2, 0, 1], \"shapes\": [{\"type\": \"box\", \"half_extents\": [1, 0.5, 0.25]}]}],"
	"\"cameras\": ["
	"{\"name\": \"front\", \"position\": [5, -7.1, 5], \"look_at\": [0.1, 0, 0.3], \"fov_deg\": 47.5},"
	"{\"name\": \"chase\", \"type\": \"follow\", \"body\": \"ball\", \"offset\": [2, -3, 1.0000000000000002]},"
	"{\"name\": \"rider\", \"type\": \"mounted\", \"body\": \"cart\", \"offset\": [0, 0, 0.6], \"look_at\": [1, 0, 0.5], "
	"\"fov_deg\": 70},"
	"{\"name\": \"fly\", \"type\": \"path\", \"keys\": [{\"time\": 0, \"position\": [6, -8, 4]},"
	"{\"time\": 0.1, \"position\": [4, -6, 3], \"look_at\": [0, 0, 1]}, {\"time\": 2.5, \"position\": [-1e-3, -5, -0.0], "
	"\"look_at\": [1, 2, 3]}]}]}";

static char* cnWriteWithCameras( const cnScene* scene, const cnWorld* world )
{
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.name = scene->name;
	def.cameras = scene->cameras;
	def.cameraCount = scene->cameraCount;
	return cnWriteSceneToString( world, &def );
}

static bool cnSameVec( cnVec3 a, cnVec3 b )
{
	return memcmp( &a, &b, sizeof( a ) ) == 0;
}

static bool cnSameCamera( const cnCameraDef* a, const cnCameraDef* b )
{
	bool same = strcmp( a->name, b->name ) == 0 && a->type == b->type && a->fovDeg == b->fovDeg;
	switch ( a->type )
	{
		case cnCamera_fixed:
			return same && cnSameVec( a->position, b->position ) && cnSameVec( a->lookAt, b->lookAt );
		case cnCamera_follow:
			return same && strcmp( a->body, b->body ) == 0 && cnSameVec( a->offset, b->offset );
		case cnCamera_mounted:
			return same && strcmp( a->body, b->body ) == 0 && cnSameVec( a->offset, b->offset ) &&
				   cnSameVec( a->localLookAt, b->localLookAt );
		case cnCamera_path:
			same = same && a->keyCount == b->keyCount;
			for ( int k = 0; same && k < a->keyCount; ++k )
			{
				same = a->keys[k].time == b->keys[k].time && cnSameVec( a->keys[k].position, b->keys[k].position ) &&
					   cnSameVec( a->keys[k].lookAt, b->keys[k].lookAt );
			}
			return same;
	}
	return false;
}

static void testRoundTripCameras( void )
{
	cnScene* scene = cnLoadSceneFromString( cnCameraScene, "cams.json" );
	CHECK( scene != NULL && scene->cameraCount == 4 );
	if ( scene == NULL )
	{
		fprintf( stderr, "%s\n", cnGetError() );
		return;
	}
	char* text = cnWriteWithCameras( scene, scene->world );
	cnScene* again = text != NULL ? cnLoadSceneFromString( text, "<written>" ) : NULL;
	CHECK( again != NULL && again->cameraCount == 4 );
	for ( int i = 0; again != NULL && i < 4 && i < again->cameraCount; ++i )
	{
		CHECK( cnSameCamera( scene->cameras + i, again->cameras + i ) );
	}
	// the path's second key keeps its time, the third its negative zero
	CHECK( again != NULL && again->cameras[3].keys[1].time == 0.1 && signbit( again->cameras[3].keys[2].position.z ) );
	char* second = again != NULL ? cnWriteWithCameras( again, again->world ) : NULL;
	CHECK( text != NULL && second != NULL && strcmp( text, second ) == 0 );
	cnFree( second );
	cnFree( text );

	// the cart is deleted (a cut's "delete"): its mounted camera goes, the others stay and it loads
	CHECK( cnDestroyBody( scene->world, cnWorld_FindBody( scene->world, "cart" ) ) );
	text = cnWriteWithCameras( scene, scene->world );
	cnScene* cut = text != NULL ? cnLoadSceneFromString( text, "<cut>" ) : NULL;
	CHECK( cut != NULL && cut->cameraCount == 3 );
	if ( cut != NULL && cut->cameraCount == 3 )
	{
		CHECK( cnSameCamera( scene->cameras + 0, cut->cameras + 0 ) && cnSameCamera( scene->cameras + 1, cut->cameras + 1 ) &&
			   cnSameCamera( scene->cameras + 3, cut->cameras + 2 ) );
	}
	cnFree( text );
	// no cameras given: no key; a count without cameras is refused
	text = cnWriteSceneToString( scene->world, NULL );
	CHECK( text != NULL && strstr( text, "\"cameras\"" ) == NULL );
	cnFree( text );
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.cameraCount = 2;
	CHECK( cnWriteSceneToString( scene->world, &def ) == NULL && cnGetErrorCode() == cnError_invalidArgument );
	cnDestroyScene( cut );
	cnDestroyScene( again );
	cnDestroyScene( scene );
}

int main( void )
{
	RUN_TEST( testGetters );
	RUN_TEST( testErrors );
	RUN_TEST( testRoundTripBodies );
	RUN_TEST( testRoundTripGeometry );
	RUN_TEST( testRoundTripJoints );
	RUN_TEST( testWriteMidRun );
	RUN_TEST( testWriteMidRunForceWindow );
	RUN_TEST( testRoundTripCameras );
	return TEST_SUMMARY();
}
