// SPDX-License-Identifier: MIT
// The public API's rules: the thread-local error state (set by a failing call, cleared by a
// succeeding one), stale ids that read as NaN instead of plausible values, destroying shapes and
// forces, and the method interface (names, flags, settings checked at world creation).
#include "test.h"
#include "test_bodies.h"

#include <string.h>

static bool isNanVec( cnVec3 v )
{
	return isnan( v.x ) && isnan( v.y ) && isnan( v.z );
}

// A failing call sets code and message; the next call that can fail and succeeds clears them.
static void test_error_state( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def );
	CHECK( world != NULL && cnGetErrorCode() == cnError_none && cnGetError()[0] == 0 );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( NAN, 0, 0 );
	CHECK( cnCreateBody( world, &bd ).index < 0 );
	CHECK( cnGetErrorCode() == cnError_invalidArgument && strstr( cnGetError(), "finite" ) != NULL );
	bd.position = cnVec3_zero;
	cnBodyId id = cnCreateBody( world, &bd );
	CHECK( id.index >= 0 );
	CHECK( cnGetErrorCode() == cnError_none && cnGetError()[0] == 0 );
	CHECK( cnSetError( cnError_io, "mine %d", 7 ) == false );
	CHECK( cnGetErrorCode() == cnError_io && strcmp( cnGetError(), "mine 7" ) == 0 );
	cnClearError();
	CHECK( cnGetErrorCode() == cnError_none );
	CHECK( strcmp( cnErrorCodeName( cnError_cancelled ), "cancelled" ) == 0 );
	cnDestroyWorld( world );
}

// A destroyed body's id reads as NaN, not as a body at the origin, and says why.
static void test_stale_ids( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def );
	cnBodyId ball = tbSphere( world, cnBody_dynamic, cnV3( 1, 2, 3 ), cnVec3_zero, 0.5, 0 );
	CHECK( cnBody_GetPosition( world, ball ).x == 1.0 );
	CHECK( cnDestroyBody( world, ball ) );
	CHECK( cnBody_IsValid( world, ball ) == false );
	CHECK( isNanVec( cnBody_GetPosition( world, ball ) ) );
	CHECK( cnGetErrorCode() == cnError_invalidId && strstr( cnGetError(), "stale body id" ) != NULL );
	CHECK( isNanVec( cnBody_GetLinearVelocity( world, ball ) ) );
	CHECK( isnan( cnBody_GetOrientation( world, ball ).w ) );
	CHECK( isnan( cnBody_GetMass( world, ball ) ) );
	CHECK( cnBody_GetShapeCount( world, ball ) == -1 );
	CHECK( cnDestroyBody( world, ball ) == false && cnGetErrorCode() == cnError_invalidId );
	// a new body reuses the slot with a new generation: the old id stays stale
	cnBodyId next = tbSphere( world, cnBody_dynamic, cnV3( 4, 0, 0 ), cnVec3_zero, 0.5, 0 );
	CHECK( next.index == ball.index && next.generation != ball.generation );
	CHECK( isNanVec( cnBody_GetPosition( world, ball ) ) );
	CHECK( cnBody_GetPosition( world, next ).x == 4.0 && cnGetErrorCode() == cnError_none );
	cnBodyId wild = { 1000, 1 };
	CHECK( isNanVec( cnBody_GetPosition( world, wild ) ) && cnGetErrorCode() == cnError_invalidId );
	cnDestroyWorld( world );
}

// Destroying a shape updates its body's mass and drops its contacts; its id goes stale.
static void test_destroy_shape( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def );
	tbPlane( world, cnV3( 0, 0, 1 ), 0 );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( 0, 0, 0.5 );
	cnBodyId body = cnCreateBody( world, &bd );
	cnShapeDef box = cnDefaultShapeDef();
	box.type = cnShape_box;
	box.halfExtents = cnV3( 0.5, 0.5, 0.5 );
	cnShapeId a = cnCreateShape( world, body, &box );
	cnShapeDef sphere = cnDefaultShapeDef();
	sphere.radius = 0.5;
	sphere.position = cnV3( 0, 0, 2 );
	cnShapeId b = cnCreateShape( world, body, &sphere );
	double both = cnBody_GetMass( world, body );
	// 1 m^3 box + 4/3 pi 0.125 m^3 sphere at density 1000
	CHECK_NEAR( both, 1000.0 * ( 1.0 + 4.0 / 3.0 * CN_PI * 0.125 ), 1e-9 );
	cnWorld_Step( world, 1.0 / 60.0 );
	CHECK( cnBody_GetContactCount( world, body ) == 1 );

	CHECK( cnDestroyShape( world, a ) );
	CHECK( cnShape_IsValid( world, a ) == false && cnShape_IsValid( world, b ) );
	CHECK( cnBody_GetShapeCount( world, body ) == 1 );
	CHECK_NEAR( cnBody_GetMass( world, body ), 1000.0 * 4.0 / 3.0 * CN_PI * 0.125, 1e-9 );
	// the box's contact with the ground went with it; the body's centre of mass is the sphere's
	CHECK( cnBody_GetContactCount( world, body ) == 0 );
	CHECK_NEAR( cnBody_GetLocalCenterOfMass( world, body ).z, 2.0, 1e-12 );
	CHECK( cnDestroyShape( world, a ) == false && cnGetErrorCode() == cnError_invalidId );
	cnShapeId ids[2];
	CHECK( cnBody_GetShapes( world, body, ids, 2 ) == 1 && ids[0].index == b.index );
	CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	cnDestroyWorld( world );
}

// Forces have ids: they can be listed, read and destroyed, and go with their body.
static void test_forces( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.gravity = cnVec3_zero;
	cnWorld* world = cnCreateWorld( &def );
	cnBodyId a = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 0 ), cnVec3_zero, 0.5, 0 );
	cnBodyId b = tbSphere( world, cnBody_dynamic, cnV3( 5, 0, 0 ), cnVec3_zero, 0.5, 0 );
	cnForceDef fd = cnDefaultForceDef();
	fd.body = a;
	fd.vector = cnV3( 1, 0, 0 );
	cnForceId push = cnCreateForce( world, &fd );
	fd.frame = cnForce_target;
	fd.target = b;
	cnForceId pull = cnCreateForce( world, &fd );
	CHECK( cnForce_IsValid( world, push ) && cnForce_IsValid( world, pull ) );
	CHECK( cnWorld_GetForceCount( world ) == 2 );
	CHECK( cnWorld_GetForce( world, 1 ).index == pull.index );
	CHECK( cnForce_GetDef( world, pull ).target.index == b.index );

	CHECK( cnDestroyForce( world, push ) );
	CHECK( cnWorld_GetForceCount( world ) == 1 && cnForce_IsValid( world, push ) == false );
	CHECK( cnDestroyForce( world, push ) == false && cnGetErrorCode() == cnError_invalidId );
	CHECK( cnWorld_GetForce( world, 0 ).index == pull.index );
	// the remaining force pulls a towards b
	cnWorld_Step( world, 0.1 );
	CHECK( cnBody_GetLinearVelocity( world, a ).x > 0.0 );
	// destroying the target destroys the force that points at it
	CHECK( cnDestroyBody( world, b ) );
	CHECK( cnWorld_GetForceCount( world ) == 0 && cnForce_IsValid( world, pull ) == false );
	CHECK( cnWorld_Step( world, 0.1 ) );
	cnDestroyWorld( world );
}

// Every method has a name, a summary and flags that say what it does; settings are checked when a
// world is created, with a message naming the setting.
static void test_methods( void )
{
	const uint32_t friction = cnMethodFlag_friction, velocity = cnMethodFlag_velocityLevel;
	CHECK( ( cnMethod_GetFlags( cnMethod_impulse ) & ( friction | cnMethodFlag_subSteps ) ) ==
		   ( friction | cnMethodFlag_subSteps ) );
	CHECK( ( cnMethod_GetFlags( cnMethod_lcp ) & velocity ) && ( cnMethod_GetFlags( cnMethod_lcp ) & friction ) );
	CHECK( ( cnMethod_GetFlags( cnMethod_velocityProjection ) & friction ) == 0 );
	CHECK( cnMethod_GetFlags( cnMethod_grLcp ) & cnMethodFlag_reflection );
	CHECK( cnMethod_GetFlags( cnMethod_grVelocityProjection ) & cnMethodFlag_reflection );
	CHECK( ( cnMethod_GetFlags( cnMethod_lcp ) & cnMethodFlag_reflection ) == 0 );
	CHECK( cnMethod_GetFlags( cnMethod_penalty ) & cnMethodFlag_adaptive );
	CHECK( cnMethod_GetFlags( cnMethod_impulse ) & cnMethodFlag_joints );
	CHECK( ( cnMethod_GetFlags( cnMethod_constraint ) & ( cnMethodFlag_adaptive | friction ) ) == cnMethodFlag_adaptive );
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		cnMethod parsed;
		CHECK( cnMethod_FromName( cnMethod_GetName( (cnMethod)m ), &parsed ) && parsed == (cnMethod)m );
		CHECK( strlen( cnMethod_GetSummary( (cnMethod)m ) ) > 10 );
		CHECK( strstr( cnMethod_GetNameList(), cnMethod_GetName( (cnMethod)m ) ) != NULL );
		// every method runs planar worlds
		CHECK( cnMethod_GetFlags( (cnMethod)m ) & cnMethodFlag_planar );
	}
	cnMethod parsed;
	CHECK( cnMethod_FromName( "teleport", &parsed ) == false );
	CHECK( strstr( cnGetError(), "unknown contact method \"teleport\"" ) != NULL );
	CHECK( cnMethod_GetFlags( cnMethod_count ) == 0 && strcmp( cnMethod_GetName( cnMethod_count ), "unknown" ) == 0 );

	cnWorldDef def = cnDefaultWorldDef();
	def.settings.impulse.subSteps = 0;
	CHECK( cnCreateWorld( &def ) == NULL && strstr( cnGetError(), "subSteps" ) != NULL );
	def = cnDefaultWorldDef();
	def.settings.impulse.simd = (cnSimdPath)( cnSimd_avx512 + 1 );
	CHECK( cnCreateWorld( &def ) == NULL && strstr( cnGetError(), "simd" ) != NULL );
	def = cnDefaultWorldDef();
	def.settings.penalty.errorTolerance = -1.0;
	CHECK( cnCreateWorld( &def ) == NULL && strstr( cnGetError(), "errorTolerance" ) != NULL );
	def = cnDefaultWorldDef();
	def.settings.velocity.lcpSolver = (cnLcpSolver)9;
	CHECK( cnCreateWorld( &def ) == NULL && strstr( cnGetError(), "LCP solver" ) != NULL );
	def = cnDefaultWorldDef();
	def.method = cnMethod_count;
	CHECK( cnCreateWorld( &def ) == NULL && strstr( cnGetError(), "method" ) != NULL );
	// a method's settings are kept whatever the method: a scene can switch method unchanged
	def = cnDefaultWorldDef();
	def.method = cnMethod_lcp;
	def.settings.impulse.subSteps = 4;
	cnWorld* world = cnCreateWorld( &def );
	CHECK( world != NULL && cnWorld_GetDef( world ).settings.impulse.subSteps == 4 );
	cnDestroyWorld( world );
}

// Only the velocity-level methods have a contact system to capture.
static void test_capture_unsupported( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def );
	cnContactSystem system = { 0 };
	CHECK( cnWorld_CaptureContactSystem( world, &system ) == false );
	CHECK( cnGetErrorCode() == cnError_unsupported && strstr( cnGetError(), "impulse" ) != NULL );
	CHECK( cnWorld_CaptureContactSystem( world, NULL ) );
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( test_error_state );
	RUN_TEST( test_stale_ids );
	RUN_TEST( test_destroy_shape );
	RUN_TEST( test_forces );
	RUN_TEST( test_methods );
	RUN_TEST( test_capture_unsupported );
	return TEST_SUMMARY();
}
