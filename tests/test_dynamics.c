// SPDX-License-Identifier: MIT
// Free-body dynamics against closed forms: free fall, torque-free rotation (energy, |L|,
// Dzhanibekov flip times), compound mass properties, user forces, drag and damping.
#include "cairn/cairn.h"
#include "test.h"
#include "test_bodies.h"

#include <stdlib.h>
#include <string.h>

// An impulse world with the given gravity and sub-steps, sleeping off.
static cnWorld* makeWorld( cnVec3 gravity, int subSteps )
{
	cnWorldDef def = tbWorldDef( cnMethod_impulse, gravity );
	def.settings.impulse.subSteps = subSteps;
	return tbCreateWorld( &def );
}

// A dynamic sphere at rest, default material.
static cnBodyId addSphere( cnWorld* world, cnVec3 position, double radius )
{
	return tbSphere( world, cnBody_dynamic, position, cnVec3_zero, radius, 0 );
}

// Symplectic Euler with sub-step h: v_n = a t exactly and x_n = x0 + a t^2 / 2 + a h t / 2.
static void freeFall( void )
{
	const double g = -10.0, dt = 0.01;
	const int subSteps = 4;
	const double h = dt / subSteps;
	cnWorld* world = makeWorld( cnV3( 0, 0, g ), subSteps );
	cnBodyId ball = addSphere( world, cnV3( 0, 0, 100 ), 0.5 );
	for ( int n = 1; n <= 200; ++n )
	{
		cnWorld_Step( world, dt );
	}
	double t = 200 * dt;
	cnVec3 p = cnBody_GetPosition( world, ball );
	cnVec3 v = cnBody_GetLinearVelocity( world, ball );
	// round-off only: 800 additions of numbers of size 100
	CHECK_NEAR( v.z, g * t, 1e-10 );
	CHECK_NEAR( p.z, 100.0 + 0.5 * g * t * t + 0.5 * g * h * t, 1e-9 );
	CHECK_NEAR( p.x, 0.0, 1e-15 );
	cnDestroyWorld( world );
}

// A body with principal inertia (1, 2, 3) and no torque.
static cnWorld* spinningBody( cnVec3 w0, cnBodyId* id )
{
	cnWorld* world = makeWorld( cnVec3_zero, 4 );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.angularVelocity = w0;
	*id = cnCreateBody( world, &bd );
	CHECK( cnBody_SetMassData( world, *id, 1.0, cnVec3_zero, cnDiagonal( 1, 2, 3 ) ) );
	return world;
}

static void bodyOmega( cnWorld* world, cnBodyId id, cnVec3* wBody )
{
	*wBody = cnInvRotate( cnBody_GetOrientation( world, id ), cnBody_GetAngularVelocity( world, id ) );
}

// Intermediate-axis flip: omega_2 changes sign every 20.7546 s, first at about 10.378 s.
// Tolerance 1 % as required; the implicit midpoint rule keeps 2T and |L|^2 to round-off.
static void dzhanibekovFlip( void )
{
	cnBodyId id;
	cnWorld* world = spinningBody( cnV3( 0.01, 1.0, 0.0 ), &id );
	const double dt = 0.01;
	double crossings[4];
	int crossingCount = 0;
	cnVec3 w;
	bodyOmega( world, id, &w );
	double e0 = w.x * w.x + 2 * w.y * w.y + 3 * w.z * w.z;
	double l0 = w.x * w.x + 4 * w.y * w.y + 9 * w.z * w.z;
	double prev = w.y, t = 0.0;
	double maxEnergyError = 0.0, maxMomentumError = 0.0;
	while ( t < 45.0 && crossingCount < 4 )
	{
		cnWorld_Step( world, dt );
		t += dt;
		bodyOmega( world, id, &w );
		if ( ( prev > 0.0 ) != ( w.y > 0.0 ) )
		{
			// linear interpolation of the zero crossing inside the step
			crossings[crossingCount++] = t - dt * w.y / ( w.y - prev );
		}
		prev = w.y;
		double e = w.x * w.x + 2 * w.y * w.y + 3 * w.z * w.z;
		double l = w.x * w.x + 4 * w.y * w.y + 9 * w.z * w.z;
		maxEnergyError = fmax( maxEnergyError, fabs( e - e0 ) / e0 );
		maxMomentumError = fmax( maxMomentumError, fabs( l - l0 ) / l0 );
	}
	CHECK( crossingCount >= 2 );
	if ( crossingCount >= 2 )
	{
		CHECK_NEAR( crossings[0], 10.378, 0.01 * 10.378 );
		CHECK_NEAR( crossings[1] - crossings[0], 20.7546, 0.01 * 20.7546 );
	}
	// the midpoint rule conserves both invariants up to the Newton tolerance and round-off
	CHECK( maxEnergyError < 1e-9 );
	CHECK( maxMomentumError < 1e-9 );
	// world angular momentum L = R I w is conserved too (orientation update is exact for the step's w)
	cnDestroyWorld( world );
}

// Rotation near the major axis, omega0 = (0.1, 0, 1): the body-frame period is 6.28843 s.
static void majorAxisPeriod( void )
{
	cnBodyId id;
	cnWorld* world = spinningBody( cnV3( 0.1, 0.0, 1.0 ), &id );
	const double dt = 0.005;
	double prev = 0.1, t = 0.0;
	double crossings[3];
	int n = 0;
	cnVec3 w;
	while ( t < 20.0 && n < 3 )
	{
		cnWorld_Step( world, dt );
		t += dt;
		bodyOmega( world, id, &w );
		if ( ( prev > 0.0 ) != ( w.x > 0.0 ) )
		{
			crossings[n++] = t - dt * w.x / ( w.x - prev );
		}
		prev = w.x;
	}
	CHECK( n == 3 );
	if ( n == 3 )
	{
		// two sign changes of omega_1 make one period; 0.1 % covers the O(h^2) phase error
		CHECK_NEAR( crossings[2] - crossings[0], 6.28843, 0.001 * 6.28843 );
	}
	cnDestroyWorld( world );
}

// Two spheres side by side: mass, centre and principal inertia by the parallel axis theorem,
// also when the pair is rotated so its principal axes are not the body axes.
static void compoundMass( void )
{
	cnWorld* world = makeWorld( cnVec3_zero, 4 );
	const double r = 0.5, d = 2.0, rho = 1000.0;
	const double m = rho * 4.0 / 3.0 * CN_PI * r * r * r;
	double c = cos( CN_PI / 4 ), s = sin( CN_PI / 4 );
	cnBodyDef bd = cnDefaultBodyDef();
	cnBodyId id = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.radius = r;
	sd.position = cnV3( d * c, d * s, 0.0 );
	cnCreateShape( world, id, &sd );
	sd.position = cnV3( -d * c, -d * s, 0.0 );
	cnCreateShape( world, id, &sd );

	CHECK_NEAR( cnBody_GetMass( world, id ), 2 * m, 1e-9 * m );
	cnVec3 center = cnBody_GetLocalCenterOfMass( world, id );
	CHECK_NEAR( cnLength( center ), 0.0, 1e-12 );
	cnQuat axes;
	cnVec3 moments = cnBody_GetPrincipalInertia( world, id, &axes );
	double iSphere = 0.4 * m * r * r;
	CHECK_NEAR( moments.x, 2 * iSphere, 1e-9 * m );
	CHECK_NEAR( moments.y, 2 * ( iSphere + m * d * d ), 1e-9 * m );
	CHECK_NEAR( moments.z, 2 * ( iSphere + m * d * d ), 1e-9 * m );
	// the smallest moment is about the line through both centres, the diagonal (1, 1, 0)/sqrt 2
	cnVec3 axis = cnRotate( axes, cnV3( 1, 0, 0 ) );
	CHECK_NEAR( fabs( cnDot( axis, cnV3( c, s, 0 ) ) ), 1.0, 1e-9 );

	// a box and a sphere of different mass: centre at the mass-weighted mean
	cnBodyId id2 = cnCreateBody( world, &bd );
	cnShapeDef box = cnDefaultShapeDef();
	box.type = cnShape_box;
	box.halfExtents = cnV3( 0.5, 0.5, 0.5 );
	box.position = cnV3( 1, 0, 0 );
	cnCreateShape( world, id2, &box );
	sd.position = cnV3( -1, 0, 0 );
	cnCreateShape( world, id2, &sd );
	double mBox = rho * 1.0;
	CHECK_NEAR( cnBody_GetLocalCenterOfMass( world, id2 ).x, ( mBox * 1 - m * 1 ) / ( mBox + m ), 1e-12 );

	// mass override keeps the centre and scales the inertia
	CHECK( cnBody_SetMass( world, id, 3.0 ) );
	moments = cnBody_GetPrincipalInertia( world, id, NULL );
	CHECK_NEAR( moments.x, 2 * iSphere * 3.0 / ( 2 * m ), 1e-12 );
	CHECK( cnBody_SetMass( world, id, -1.0 ) == false );
	CHECK( strstr( cnGetError(), "mass" ) != NULL );
	cnDestroyWorld( world );
}

// A constant world force during [0.5, 1.0): v = F/m (t1 - t0) afterwards, gravity off.
static void userForceWindow( void )
{
	cnWorld* world = makeWorld( cnVec3_zero, 4 );
	cnBodyId ball = addSphere( world, cnVec3_zero, 0.5 );
	double m = cnBody_GetMass( world, ball );
	cnForceDef fd = cnDefaultForceDef();
	fd.body = ball;
	fd.vector = cnV3( 2.0, 0, 0 );
	fd.t0 = 0.5;
	fd.t1 = 1.0;
	CHECK( cnCreateForce( world, &fd ).index == 0 );
	const double dt = 0.01;
	for ( int i = 0; i < 150; ++i )
	{
		cnWorld_Step( world, dt );
	}
	// the window covers exactly 50 steps; the step time test t0 <= t < t1 is at step start, and
	// 0.5 and 1.0 are sums of 0.01 that may round either way: allow one step of slack
	double v = cnBody_GetLinearVelocity( world, ball ).x;
	CHECK_NEAR( v, 2.0 / m * 0.5, 2.0 / m * dt * 1.01 );
	CHECK_NEAR( cnBody_GetAngularVelocity( world, ball ).z, 0.0, 1e-15 );

	// a force at an offset point also gives the torque r x F
	cnWorld* w2 = makeWorld( cnVec3_zero, 1 );
	cnBodyDef bd = cnDefaultBodyDef();
	cnBodyId b = cnCreateBody( w2, &bd );
	CHECK( cnBody_SetMassData( w2, b, 2.0, cnVec3_zero, cnDiagonal( 1, 1, 1 ) ) );
	CHECK( cnBody_ApplyForce( w2, b, cnV3( 0, 1, 0 ), cnV3( 1, 0, 0 ) ) );
	cnWorld_Step( w2, 0.1 );
	CHECK_NEAR( cnBody_GetLinearVelocity( w2, b ).y, 0.1 * 1.0 / 2.0, 1e-15 );
	CHECK_NEAR( cnBody_GetAngularVelocity( w2, b ).z, 0.1 * 1.0, 1e-12 );
	// applied forces last one step only
	cnWorld_Step( w2, 0.1 );
	CHECK_NEAR( cnBody_GetLinearVelocity( w2, b ).y, 0.05, 1e-15 );
	cnDestroyWorld( w2 );

	// a target force points at another body
	cnWorld* w3 = makeWorld( cnVec3_zero, 1 );
	cnBodyId a3 = addSphere( w3, cnVec3_zero, 0.1 );
	cnBodyDef sbd = cnDefaultBodyDef();
	sbd.type = cnBody_static;
	sbd.position = cnV3( 3, 4, 0 );
	cnBodyId t3 = cnCreateBody( w3, &sbd );
	cnForceDef tf = cnDefaultForceDef();
	tf.body = a3;
	tf.frame = cnForce_target;
	tf.target = t3;
	tf.vector = cnV3( 5, 0, 0 );
	CHECK( cnCreateForce( w3, &tf ).index == 0 );
	cnWorld_Step( w3, 0.01 );
	cnVec3 v3 = cnBody_GetLinearVelocity( w3, a3 );
	CHECK_NEAR( v3.x / cnLength( v3 ), 0.6, 1e-12 );
	CHECK_NEAR( v3.y / cnLength( v3 ), 0.8, 1e-12 );
	cnDestroyWorld( w3 );
	cnDestroyWorld( world );
}

// Quadratic drag: the fall speed tends to the terminal speed sqrt(m g / k).
static void terminalVelocity( void )
{
	cnWorld* world = makeWorld( cnV3( 0, 0, -9.81 ), 4 );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.dragCoefficient = 0.5;
	bd.position = cnV3( 0, 0, 1000 );
	cnBodyId id = cnCreateBody( world, &bd );
	CHECK( cnBody_SetMassData( world, id, 2.0, cnVec3_zero, cnDiagonal( 1, 1, 1 ) ) );
	for ( int i = 0; i < 2000; ++i )
	{
		cnWorld_Step( world, 0.01 );
	}
	double vt = sqrt( 2.0 * 9.81 / 0.5 );
	// 20 s is ~ 50 time constants m/(k vt) = 0.64 s; the implicit drag update's fixed point is exact
	CHECK_NEAR( cnBody_GetLinearVelocity( world, id ).z, -vt, 1e-6 * vt );
	cnDestroyWorld( world );

	// linear damping, no gravity: each sub-step divides v by (1 + h c)
	cnWorld* w2 = makeWorld( cnVec3_zero, 2 );
	bd = cnDefaultBodyDef();
	bd.linearDamping = 0.5;
	bd.linearVelocity = cnV3( 1, 0, 0 );
	cnBodyId d = cnCreateBody( w2, &bd );
	for ( int i = 0; i < 100; ++i )
	{
		cnWorld_Step( w2, 0.01 );
	}
	CHECK_NEAR( cnBody_GetLinearVelocity( w2, d ).x, pow( 1.0 / ( 1.0 + 0.005 * 0.5 ), 200 ), 1e-12 );
	// and approaches exp(-c t) to O(h)
	CHECK_NEAR( cnBody_GetLinearVelocity( w2, d ).x, exp( -0.5 ), 1e-3 );
	cnDestroyWorld( w2 );
}

// Gravity scale 0 switches gravity off for one body only.
static void gravityScale( void )
{
	cnWorld* world = makeWorld( cnV3( 0, 0, -9.81 ), 4 );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.gravityScale = 0.0;
	cnBodyId floating = cnCreateBody( world, &bd );
	cnBodyId falling = addSphere( world, cnV3( 5, 0, 0 ), 0.5 );
	for ( int i = 0; i < 10; ++i )
	{
		cnWorld_Step( world, 0.01 );
	}
	CHECK( cnBody_GetPosition( world, floating ).z == 0.0 );
	CHECK( cnBody_GetPosition( world, falling ).z < 0.0 );
	cnDestroyWorld( world );
}

// The API rejects bad input softly with a message.
static void apiValidation( void )
{
	cnWorld* world = makeWorld( cnVec3_zero, 4 );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position.x = NAN;
	CHECK( cnCreateBody( world, &bd ).index == -1 );
	CHECK( strstr( cnGetError(), "finite" ) != NULL );
	bd = cnDefaultBodyDef();
	bd.orientation = ( cnQuat ){ 1, 1, 0, 0 };
	CHECK( cnCreateBody( world, &bd ).index == -1 );
	CHECK( strstr( cnGetError(), "unit quaternion" ) != NULL );
	bd = cnDefaultBodyDef();
	cnBodyId id = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.radius = 0.0;
	CHECK( cnCreateShape( world, id, &sd ).index == -1 );
	sd = cnDefaultShapeDef();
	sd.type = cnShape_plane;
	CHECK( cnCreateShape( world, id, &sd ).index == -1 );
	CHECK( strstr( cnGetError(), "static" ) != NULL );
	CHECK( cnDestroyBody( world, id ) );
	// stale id
	CHECK( cnBody_SetLinearVelocity( world, id, cnV3( 1, 0, 0 ) ) == false );
	CHECK( strstr( cnGetError(), "stale" ) != NULL );
	CHECK( cnWorld_Step( world, -1.0 ) == false );
	CHECK( cnWorld_Step( world, NAN ) == false );
	cnWorldDef wd = cnDefaultWorldDef();
	wd.settings.impulse.subSteps = 0;
	CHECK( cnCreateWorld( &wd ) == NULL );
	CHECK( strstr( cnGetError(), "subSteps" ) != NULL );
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( freeFall );
	RUN_TEST( dzhanibekovFlip );
	RUN_TEST( majorAxisPeriod );
	RUN_TEST( compoundMass );
	RUN_TEST( userForceWindow );
	RUN_TEST( terminalVelocity );
	RUN_TEST( gravityScale );
	RUN_TEST( apiValidation );
	return TEST_SUMMARY();
}
