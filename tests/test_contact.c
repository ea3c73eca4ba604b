// SPDX-License-Identifier: MIT
// Contact, friction and restitution of the impulse method against closed forms
// (shared/VALIDATION.md): bounce heights, incline stick/slip, rolling, the bowling ball, 1D
// collisions, resting boxes and stacks, tunnelling, sleeping, filtering, kinematic bodies.
#include "cairn/cairn.h"
#include "cairn/scene.h"
#include "test.h"
#include "test_bodies.h"

#include <stdlib.h>
#include <string.h>

static cnBodyId addBox( cnWorld* world, cnBodyType type, cnVec3 position, cnQuat q, cnVec3 halfExtents,
						cnMaterialId material )
{
	return tbBox( world, type, position, q, cnVec3_zero, halfExtents, material );
}

static cnBodyId addSphere( cnWorld* world, cnVec3 position, double radius, cnMaterialId material )
{
	return tbSphere( world, cnBody_dynamic, position, cnVec3_zero, radius, material );
}

// Bouncing ball: rebound heights h_n = e^(2n) h0 while the impact speed exceeds the restitution
// threshold (1 m/s). Tolerance 2 % plus one step of rebound travel e v dt: the impact is
// resolved at step resolution, so the ball leaves the floor up to one step late.
static void bounceHeights( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	cnMaterialId rubber = tbGround( world, 0.5, 0.7 );
	const double r = 0.1, h0 = 1.0, e = 0.7;
	cnBodyId ball = addSphere( world, cnV3( 0, 0, r + h0 ), r, rubber );
	const double dt = 1.0 / 500.0;
	double peaks[3];
	int peakCount = 0;
	double prevVz = 0.0;
	for ( int i = 0; i < 2000 && peakCount < 3; ++i )
	{
		cnWorld_Step( world, dt );
		double vz = cnBody_GetLinearVelocity( world, ball ).z;
		if ( prevVz > 0.0 && vz <= 0.0 )
		{
			peaks[peakCount++] = cnBody_GetPosition( world, ball ).z - r;
		}
		prevVz = vz;
	}
	CHECK( peakCount == 3 );
	for ( int n = 0; n < peakCount; ++n )
	{
		double expected = pow( e, 2.0 * ( n + 1 ) ) * h0;
		double impactSpeed = sqrt( 2.0 * 9.81 * pow( e, 2.0 * n ) * h0 );
		CHECK_NEAR( peaks[n], expected, 0.02 * expected + e * impactSpeed * dt );
	}
	cnDestroyWorld( world );
}

// Block on an incline of angle theta, made by tilting gravity over a horizontal plane (the same
// physics in the incline's frame). mu = 0.5, g = 10.
static double slideDistance( double thetaDeg, double seconds, double* velocity )
{
	double theta = thetaDeg * CN_PI / 180.0;
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 10.0 * sin( theta ), 0, -10.0 * cos( theta ) ) );
	cnMaterialId m = tbGround( world, 0.5, 0.0 );
	cnBodyId box = addBox( world, cnBody_dynamic, cnV3( 0, 0, 0.25 ), cnQuat_identity, cnV3( 0.5, 0.5, 0.25 ), m );
	const double dt = 1.0 / 120.0;
	int steps = (int)lround( seconds / dt );
	for ( int i = 0; i < steps; ++i )
	{
		cnWorld_Step( world, dt );
	}
	double x = cnBody_GetPosition( world, box ).x;
	*velocity = cnBody_GetLinearVelocity( world, box ).x;
	cnDestroyWorld( world );
	return x;
}

static void inclineStickSlip( void )
{
	double v;
	// below and at atan(0.5) = 26.565 degrees it sticks
	double x = slideDistance( 26.0, 3.0, &v );
	CHECK_NEAR( x, 0.0, 1e-3 );
	CHECK_NEAR( v, 0.0, 1e-3 );
	x = slideDistance( 26.5, 3.0, &v );
	CHECK_NEAR( x, 0.0, 1e-3 );
	// at 30.42 degrees: a = 0.7525, s(3 s) = 3.386, v(3 s) = 2.257 (1 %: the first steps settle
	// the contact before friction saturates)
	x = slideDistance( 30.42, 3.0, &v );
	CHECK_NEAR( x, 3.386, 0.01 * 3.386 );
	CHECK_NEAR( v, 2.257, 0.01 * 2.257 );
	// at 40.33 degrees: a = 2.661
	x = slideDistance( 40.33, 2.0, &v );
	CHECK_NEAR( v / 2.0, 2.661, 0.01 * 2.661 );
}

// The same incline as a rotated static box (exercises box-box contact on a slope): a box at
// 30.42 degrees slides with a = g (sin - mu cos) = 0.7525 when g = 10.
static void inclineRotatedBox( void )
{
	double theta = 30.42 * CN_PI / 180.0;
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -10 ) );
	cnMaterialId m = tbMaterial( world, 0.5, 0.0 );
	// the slope descends along +x: rotate about +y by theta
	cnQuat q = cnQuatFromAxisAngle( cnV3( 0, 1, 0 ), theta );
	addBox( world, cnBody_static, cnVec3_zero, q, cnV3( 20, 2, 0.5 ), m );
	cnVec3 up = cnRotate( q, cnV3( 0, 0, 1 ) );
	cnVec3 down = cnRotate( q, cnV3( 1, 0, 0 ) );
	cnBodyId box = addBox( world, cnBody_dynamic, cnMulSV( 0.75, up ), q, cnV3( 0.25, 0.25, 0.25 ), m );
	const double dt = 1.0 / 120.0;
	for ( int i = 0; i < 240; ++i )
	{
		cnWorld_Step( world, dt );
	}
	double v = cnDot( cnBody_GetLinearVelocity( world, box ), down );
	CHECK_NEAR( v / 2.0, 0.7525, 0.02 * 0.7525 );
	cnDestroyWorld( world );
}

// Solid sphere rolling without slipping down a 30 degree incline: a = 5/7 g sin(theta).
static void rollingSphere( void )
{
	double theta = 30.0 * CN_PI / 180.0;
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 10.0 * sin( theta ), 0, -10.0 * cos( theta ) ) );
	cnMaterialId m = tbGround( world, 1.0, 0.0 );
	const double r = 0.2;
	cnBodyId ball = addSphere( world, cnV3( 0, 0, r ), r, m );
	const double dt = 1.0 / 240.0;
	for ( int i = 0; i < 480; ++i )
	{
		cnWorld_Step( world, dt );
	}
	double v = cnBody_GetLinearVelocity( world, ball ).x;
	double w = cnBody_GetAngularVelocity( world, ball ).y;
	CHECK_NEAR( v, 5.0 / 7.0 * 10.0 * sin( theta ) * 2.0, 0.005 * v );
	// rolling: the contact point is at rest, v = w r
	CHECK_NEAR( w * r, v, 1e-3 * v );
	cnDestroyWorld( world );
}

// Bowling ball launched at v0 without spin: rolling starts at t* = 2 v0 / (7 mu g) with speed
// 5 v0 / 7, after sliding s* = 12 v0^2 / (49 mu g); 2/7 of the kinetic energy is lost.
static void bowlingBall( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -10 ) );
	cnMaterialId m = tbGround( world, 0.2, 0.0 );
	const double r = 0.1, v0 = 5.0;
	cnBodyId ball = addSphere( world, cnV3( 0, 0, r ), r, m );
	cnBody_SetLinearVelocity( world, ball, cnV3( v0, 0, 0 ) );
	double e0 = cnBody_GetKineticEnergy( world, ball );
	const double dt = 1.0 / 240.0;
	double tStar = 2.0 * v0 / ( 7.0 * 0.2 * 10.0 );
	double rollingStart = -1.0, xStar = 0.0;
	for ( int i = 0; i < 480; ++i )
	{
		cnWorld_Step( world, dt );
		double v = cnBody_GetLinearVelocity( world, ball ).x;
		double w = cnBody_GetAngularVelocity( world, ball ).y;
		if ( rollingStart < 0.0 && fabs( v - w * r ) < 1e-3 )
		{
			rollingStart = ( i + 1 ) * dt;
			xStar = cnBody_GetPosition( world, ball ).x;
		}
	}
	double v = cnBody_GetLinearVelocity( world, ball ).x;
	CHECK_NEAR( v, 5.0 * v0 / 7.0, 0.005 * v0 );
	// one step of resolution on the time, one step of travel on the distance
	CHECK_NEAR( rollingStart, tStar, 2.0 * dt );
	CHECK_NEAR( xStar, 12.0 * v0 * v0 / ( 49.0 * 0.2 * 10.0 ), 2.0 * dt * v0 );
	CHECK_NEAR( cnBody_GetKineticEnergy( world, ball ), 5.0 / 7.0 * e0, 0.01 * e0 );
	cnDestroyWorld( world );
}

// Two spheres in 1D, no gravity: v1' = ((m1 - e m2) v1 + (1 + e) m2 v2) / (m1 + m2).
static void collision1D( void )
{
	const double e = 0.8;
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnMaterialId m = tbMaterial( world, 0.0, e );
	cnBodyId a = addSphere( world, cnV3( 0, 0, 0 ), 0.5, m );
	cnBodyId b = addSphere( world, cnV3( 3, 0, 0 ), 0.5, m );
	CHECK( cnBody_SetMass( world, a, 1.0 ) );
	CHECK( cnBody_SetMass( world, b, 3.0 ) );
	const double v1 = 4.0, v2 = -2.0, m1 = 1.0, m2 = 3.0;
	cnBody_SetLinearVelocity( world, a, cnV3( v1, 0, 0 ) );
	cnBody_SetLinearVelocity( world, b, cnV3( v2, 0, 0 ) );
	for ( int i = 0; i < 120; ++i )
	{
		cnWorld_Step( world, 1.0 / 60.0 );
	}
	double v1p = ( ( m1 - e * m2 ) * v1 + ( 1 + e ) * m2 * v2 ) / ( m1 + m2 );
	double v2p = ( ( m2 - e * m1 ) * v2 + ( 1 + e ) * m1 * v1 ) / ( m1 + m2 );
	// the impact is one simultaneous impulse: exact up to round-off
	CHECK_NEAR( cnBody_GetLinearVelocity( world, a ).x, v1p, 1e-9 );
	CHECK_NEAR( cnBody_GetLinearVelocity( world, b ).x, v2p, 1e-9 );
	cnDestroyWorld( world );
}

// A box resting on a plane keeps still: no drift or jitter above 1e-4 m over 10 s (sleep off).
static void boxAtRest( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	tbPlane( world, cnV3( 0, 0, 1 ), 0 );
	cnBodyId box = addBox( world, cnBody_dynamic, cnV3( 0.3, -0.2, 0.5 ), cnQuat_identity, cnV3( 0.5, 0.5, 0.5 ), 0 );
	const double dt = 1.0 / 60.0;
	// one second to settle into the allowed overlap (linear slop), then nine more
	for ( int i = 0; i < 60; ++i )
	{
		cnWorld_Step( world, dt );
	}
	cnVec3 p0 = cnBody_GetPosition( world, box );
	double maxDrift = 0.0;
	for ( int i = 0; i < 540; ++i )
	{
		cnWorld_Step( world, dt );
		maxDrift = fmax( maxDrift, cnDistance( cnBody_GetPosition( world, box ), p0 ) );
	}
	CHECK( maxDrift < 1e-4 );
	CHECK( cnLength( cnBody_GetLinearVelocity( world, box ) ) < 1e-4 );
	// it settled within the slop of its resting height
	CHECK_NEAR( p0.z, 0.5, 0.006 );
	cnDestroyWorld( world );
}

// Loads one of the shared scenes in scenes/ (written once, used by tests, benchmarks and docs).
static cnScene* loadScene( const char* name )
{
	char path[1024], error[1024];
	snprintf( path, sizeof( path ), "%s/scenes/%s", CAIRN_SOURCE_DIR, name );
	cnScene* scene = cnLoadScene( path );
	if ( scene == NULL )
	{
		fprintf( stderr, "%s\n", error );
	}
	CHECK( scene != NULL );
	return scene;
}

// Runs a scene for a number of steps and returns the largest displacement of any body from
// where it started, and of the highest one.
static double largestDisplacement( cnScene* scene, int steps )
{
	cnWorld* world = scene->world;
	int n = cnWorld_GetBodyCount( world );
	cnVec3* start = malloc( (size_t)n * sizeof( cnVec3 ) );
	for ( int i = 0; i < n; ++i )
	{
		start[i] = cnBody_GetPosition( world, cnWorld_GetBody( world, i ) );
	}
	for ( int i = 0; i < steps; ++i )
	{
		cnWorld_Step( world, scene->timeStep );
	}
	double maxMove = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		maxMove = fmax( maxMove, cnDistance( cnBody_GetPosition( world, cnWorld_GetBody( world, i ) ), start[i] ) );
	}
	free( start );
	return maxMove;
}

// scenes/tower10.json: ten unit boxes stacked on the ground stand for the scene's 10 s. Each of
// the ten contacts may settle into the allowed overlap (the linear slop, 5 mm), so the top box
// may sink by at most 5 cm; it must not sway.
static void towerStands( void )
{
	cnScene* scene = loadScene( "tower10.json" );
	if ( scene == NULL )
	{
		return;
	}
	cnWorld* world = scene->world;
	int steps = (int)lround( scene->duration / scene->timeStep );
	double maxMove = largestDisplacement( scene, steps );
	cnBodyId top = cnWorld_FindBody( world, "box_9" );
	cnVec3 p = cnBody_GetPosition( world, top );
	printf( "tower: top box at (%.4f, %.4f, %.4f), largest displacement %.4f m\n", p.x, p.y, p.z, maxMove );
	CHECK( fabs( p.x ) < 0.005 && fabs( p.y ) < 0.005 );
	CHECK( maxMove < 0.05 );
	// it fell asleep
	CHECK( cnBody_IsAwake( world, top ) == false );
	cnDestroyScene( scene );
}

// scenes/pyramid.json: the 15-level pyramid of 1240 unit boxes (friction 0.5) stands 500 steps at
// 60 Hz with no box moving more than 1 cm.
static void pyramidStands( void )
{
	cnScene* scene = loadScene( "pyramid.json" );
	if ( scene == NULL )
	{
		return;
	}
	CHECK( cnWorld_GetBodyCount( scene->world ) == 1241 );
	int steps = testFast() ? 150 : 500;
	double maxMove = largestDisplacement( scene, steps );
	printf( "pyramid: largest displacement after %d steps %.4f m\n", steps, maxMove );
	CHECK( maxMove < 0.01 );
	cnDestroyScene( scene );
}

// A small fast sphere does not tunnel through a thin static box (speculative contact).
static void noTunnelling( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	addBox( world, cnBody_static, cnV3( 5, 0, 0 ), cnQuat_identity, cnV3( 0.01, 2, 2 ), 0 );
	cnBodyId ball = addSphere( world, cnV3( 0, 0, 0 ), 0.05, 0 );
	cnBody_SetLinearVelocity( world, ball, cnV3( 100, 0, 0 ) );
	for ( int i = 0; i < 30; ++i )
	{
		cnWorld_Step( world, 1.0 / 60.0 );
	}
	CHECK( cnBody_GetPosition( world, ball ).x < 5.0 );
	cnDestroyWorld( world );
}

// Sleeping: a resting box falls asleep; a ball dropped on it wakes it.
static void sleepAndWake( void )
{
	cnWorldDef def = tbWorldDef( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	def.enableSleep = true;
	cnWorld* world = tbCreateWorld( &def );
	tbPlane( world, cnV3( 0, 0, 1 ), 0 );
	cnBodyId box = addBox( world, cnBody_dynamic, cnV3( 0, 0, 0.5 ), cnQuat_identity, cnV3( 0.5, 0.5, 0.5 ), 0 );
	for ( int i = 0; i < 120; ++i )
	{
		cnWorld_Step( world, 1.0 / 60.0 );
	}
	CHECK( cnBody_IsAwake( world, box ) == false );
	CHECK( cnWorld_GetStats( world ).awakeBodyCount == 0 );
	cnBodyId ball = addSphere( world, cnV3( 0, 0, 3 ), 0.2, 0 );
	bool woke = false;
	for ( int i = 0; i < 120; ++i )
	{
		cnWorld_Step( world, 1.0 / 60.0 );
		woke = woke || cnBody_IsAwake( world, box );
	}
	CHECK( woke );
	CHECK( cnBody_GetPosition( world, ball ).z > 1.0 );
	cnDestroyWorld( world );
}

// Filtering: a ball passes through the ground when collision between them is disabled, and
// a shape whose mask excludes the ground's category passes too.
static void collisionFiltering( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	cnBodyId ground = tbPlane( world, cnV3( 0, 0, 1 ), 0 );
	cnBodyId a = addSphere( world, cnV3( 0, 0, 1 ), 0.2, 0 );
	cnBodyId b = addSphere( world, cnV3( 3, 0, 1 ), 0.2, 0 );
	CHECK( cnWorld_DisableCollision( world, a, ground ) );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( 6, 0, 1 );
	cnBodyId c = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.radius = 0.2;
	sd.categoryBits = 2;
	sd.maskBits = ~(uint64_t)1;
	cnCreateShape( world, c, &sd );
	for ( int i = 0; i < 120; ++i )
	{
		cnWorld_Step( world, 1.0 / 60.0 );
	}
	CHECK( cnBody_GetPosition( world, a ).z < -1.0 );
	CHECK_NEAR( cnBody_GetPosition( world, b ).z, 0.2, 0.006 );
	CHECK( cnBody_GetPosition( world, c ).z < -1.0 );
	cnDestroyWorld( world );
}

// A kinematic paddle moving at constant velocity pushes a box along.
static void kinematicPush( void )
{
	cnWorldDef def = tbWorldDef( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	def.enableSleep = true; // as in a default world
	cnWorld* world = tbCreateWorld( &def );
	cnMaterialId m = tbGround( world, 0.3, 0.0 );
	cnBodyId box = addBox( world, cnBody_dynamic, cnV3( 1, 0, 0.5 ), cnQuat_identity, cnV3( 0.5, 0.5, 0.5 ), m );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = cnBody_kinematic;
	bd.position = cnV3( -1, 0, 0.6 );
	bd.linearVelocity = cnV3( 1, 0, 0 );
	cnBodyId paddle = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_box;
	sd.halfExtents = cnV3( 0.1, 1, 0.5 );
	cnCreateShape( world, paddle, &sd );
	for ( int i = 0; i < 240; ++i )
	{
		cnWorld_Step( world, 1.0 / 60.0 );
	}
	// the paddle moved exactly 4 m and is not affected by the box
	CHECK_NEAR( cnBody_GetPosition( world, paddle ).x, 3.0, 1e-9 );
	// the box is in front of it: paddle face at 3.1, box centre at 3.6 (within slop)
	CHECK_NEAR( cnBody_GetPosition( world, box ).x, 3.6, 0.02 );
	cnDestroyWorld( world );
}

// Equal materials keep their values; a pair override wins; mixing rules are documented.
static void materialMixing( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnMaterialId a = tbMaterial( world, 0.37, 0.41 );
	cnMaterialId b = tbMaterial( world, 0.8, 0.2 );
	double f, e;
	cnWorld_GetMaterialPair( world, a, a, &f, &e );
	CHECK( f == 0.37 && e == 0.41 );
	cnWorld_GetMaterialPair( world, a, b, &f, &e );
	CHECK_NEAR( f, sqrt( 0.37 * 0.8 ), 1e-15 );
	CHECK( e == 0.41 );
	CHECK( cnWorld_SetMaterialPair( world, b, a, 0.1, 0.9 ) );
	cnWorld_GetMaterialPair( world, a, b, &f, &e );
	CHECK( f == 0.1 && e == 0.9 );
	CHECK( cnWorld_SetMaterialPair( world, a, b, 0.1, 1.5 ) == false );
	cnDestroyWorld( world );
}

static void materialChangeWhileTouching( void )
{
	// A box slides on the ground at 5 m/s with mu 0.5 (mixed: 0.5), decelerating by mu g. Changed
	// while the pair touches, a material or a pair acts from the next step: the ground's friction 0
	// (mixed: 0) leaves the speed constant; then a pair friction of 0.2 decelerates by 0.2 g.
	double g = 10.0, h = 1.0 / 60.0;
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -g ) );
	cnMaterialId ground = tbGround( world, 0.5, 0.0 );
	cnMaterialId boxMaterial = tbMaterial( world, 0.5, 0.0 );
	cnBodyId box = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 0.5 ), cnQuat_identity, cnV3( 5, 0, 0 ),
						  cnV3( 0.5, 0.5, 0.5 ), boxMaterial );
	for ( int i = 0; i < 10; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
	}
	double v0 = cnBody_GetLinearVelocity( world, box ).x;
	CHECK( v0 < 5.0 - 9 * 0.5 * g * h && v0 > 2.0 );

	cnMaterialDef def = cnMaterial_GetDef( world, ground );
	def.friction = 0.0;
	CHECK( cnMaterial_SetDef( world, ground, &def ) );
	for ( int i = 0; i < 30; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
	}
	double v1 = cnBody_GetLinearVelocity( world, box ).x;
	CHECK_NEAR( v1, v0, 1e-9 );

	CHECK( cnWorld_SetMaterialPair( world, ground, boxMaterial, 0.2, 0.0 ) );
	for ( int i = 0; i < 30; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
	}
	double v2 = cnBody_GetLinearVelocity( world, box ).x;
	CHECK_NEAR( v2, v1 - 0.2 * g * 30 * h, 1e-6 );
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( bounceHeights );
	RUN_TEST( inclineStickSlip );
	RUN_TEST( inclineRotatedBox );
	RUN_TEST( rollingSphere );
	RUN_TEST( bowlingBall );
	RUN_TEST( collision1D );
	RUN_TEST( boxAtRest );
	RUN_TEST( towerStands );
	RUN_TEST( pyramidStands );
	RUN_TEST( noTunnelling );
	RUN_TEST( sleepAndWake );
	RUN_TEST( collisionFiltering );
	RUN_TEST( kinematicPush );
	RUN_TEST( materialMixing );
	RUN_TEST( materialChangeWhileTouching );
	return TEST_SUMMARY();
}
