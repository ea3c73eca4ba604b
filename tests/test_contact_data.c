// SPDX-License-Identifier: MIT
// Contact data (cnWorld_GetContactData, cnBody_GetContactData, cnShape_GetContactData in
// cairn/query.h) against closed forms: a box resting on the ground has one manifold of four points
// at its bottom corners with the normal along z and normal impulses summing to m g h per step; a
// sphere has one point under its centre; capacity 0 counts and writes nothing; bad input fails.
#include "test.h"

#include "cairn/cairn.h"

#include <string.h>

#define G 9.81
#define STEP ( 1.0 / 60.0 )

typedef struct Rest
{
	cnWorld* world;
	cnBodyId ground, body;
	cnShapeId groundShape, bodyShape;
} Rest;

// A static ground plane z = 0 and one dynamic body of shape sd whose lowest point is on it at (x, y).
static Rest makeRest( cnMethod method, const cnShapeDef* sd, double x, double y, double bottom )
{
	Rest r;
	cnWorldDef def = cnDefaultWorldDef();
	def.method = method;
	def.gravity = cnV3( 0.0, 0.0, -G );
	r.world = cnCreateWorld( &def );

	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	r.ground = cnCreateBody( r.world, &gd );
	cnShapeDef pd = cnDefaultShapeDef();
	pd.type = cnShape_plane;
	pd.normal = cnV3( 0.0, 0.0, 1.0 );
	r.groundShape = cnCreateShape( r.world, r.ground, &pd );

	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( x, y, bottom );
	bd.enableSleep = false;
	r.body = cnCreateBody( r.world, &bd );
	r.bodyShape = cnCreateShape( r.world, r.body, sd );
	return r;
}

static bool sameShape( cnShapeId a, cnShapeId b )
{
	return a.index == b.index && a.generation == b.generation;
}

// A 2 x 1 x 0.5 box resting on the ground at (1, -2): one manifold, four points at the bottom
// corners, normal along z (from the ground to the box, the ground being shape A), impulses m g h.
static void testBoxOnGround( void )
{
	const cnVec3 h = cnV3( 1.0, 0.5, 0.25 );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_box;
	sd.halfExtents = h;
	Rest r = makeRest( cnMethod_impulse, &sd, 1.0, -2.0, h.z );
	for ( int i = 0; i < 119; ++i )
	{
		CHECK( cnWorld_Step( r.world, STEP ) );
	}
	// the points are found at the poses the step starts from
	cnTransform xf = cnBody_GetTransform( r.world, r.body );
	CHECK( cnWorld_Step( r.world, STEP ) );
	double mass = cnBody_GetMass( r.world, r.body );
	cnVec3 p = xf.p;

	CHECK( cnWorld_GetContactData( r.world, NULL, 0 ) == 1 );
	cnContactData data[2];
	memset( data, 0, sizeof data );
	CHECK( cnWorld_GetContactData( r.world, data, 2 ) == 1 );
	const cnContactData* c = data;
	bool groundFirst = sameShape( c->shapeA, r.groundShape );
	CHECK( groundFirst ? sameShape( c->shapeB, r.bodyShape ) : sameShape( c->shapeA, r.bodyShape ) );
	CHECK( c->bodyA.index == ( groundFirst ? r.ground.index : r.body.index ) );
	double sign = groundFirst ? 1.0 : -1.0;
	CHECK_NEAR( c->normal.x, 0.0, 1e-12 );
	CHECK_NEAR( c->normal.y, 0.0, 1e-12 );
	CHECK_NEAR( c->normal.z, sign, 1e-12 );
	CHECK( c->pointCount == 4 );

	// the box sits (nearly) level: its corners at (p.x +- h.x, p.y +- h.y, p.z - h.z) in its frame,
	// each point midway between that corner and the ground, half its separation below the box
	bool seen[4] = { false, false, false, false };
	double total = 0.0;
	for ( int j = 0; j < c->pointCount; ++j )
	{
		const cnContactPointData* q = c->points + j;
		int corner = ( q->point.x > p.x ? 1 : 0 ) + ( q->point.y > p.y ? 2 : 0 );
		seen[corner] = true;
		cnVec3 local = cnV3( corner & 1 ? h.x : -h.x, corner & 2 ? h.y : -h.y, -h.z );
		cnVec3 expect = cnTransformPoint( xf, local );
		expect.z -= 0.5 * q->separation;
		CHECK_NEAR( q->point.x, expect.x, 1e-6 );
		CHECK_NEAR( q->point.y, expect.y, 1e-6 );
		CHECK_NEAR( q->point.z, expect.z, 1e-6 );
		CHECK_NEAR( q->normal.z, sign, 1e-12 );
		CHECK( q->separation <= 0.0 && q->separation > -0.01 );
		CHECK( q->normalImpulse > 0.0 );
		CHECK( q->tangentImpulse < 1e-9 );
		total += q->normalImpulse;
	}
	CHECK( seen[0] && seen[1] && seen[2] && seen[3] );
	// at rest the normal impulses carry the weight over the step
	CHECK_NEAR( total, mass * G * STEP, 0.02 * mass * G * STEP );

	// the body's and the shapes' reads give the same manifold; the ground's too
	cnContactData one;
	memset( &one, 0, sizeof one );
	CHECK( cnBody_GetContactData( r.world, r.body, &one, 1 ) == 1 );
	CHECK( memcmp( &one, c, sizeof one ) == 0 );
	CHECK( cnBody_GetContactData( r.world, r.ground, &one, 1 ) == 1 );
	CHECK( cnShape_GetContactData( r.world, r.bodyShape, &one, 1 ) == 1 );
	CHECK( memcmp( &one, c, sizeof one ) == 0 );
	CHECK( cnShape_GetContactData( r.world, r.groundShape, NULL, 0 ) == 1 );
	cnDestroyWorld( r.world );
}

// A sphere of radius 0.3 resting on the ground at (-1, 2): one point straight below its centre.
static void testSphereOnGround( void )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_sphere;
	sd.radius = 0.3;
	Rest r = makeRest( cnMethod_impulse, &sd, -1.0, 2.0, 0.3 );
	for ( int i = 0; i < 59; ++i )
	{
		CHECK( cnWorld_Step( r.world, STEP ) );
	}
	cnVec3 p = cnBody_GetPosition( r.world, r.body );
	CHECK( cnWorld_Step( r.world, STEP ) );
	cnContactData c;
	CHECK( cnWorld_GetContactData( r.world, &c, 1 ) == 1 );
	CHECK( c.pointCount == 1 );
	double sign = sameShape( c.shapeA, r.groundShape ) ? 1.0 : -1.0;
	CHECK_NEAR( c.normal.z, sign, 1e-12 );
	const cnContactPointData* q = c.points;
	CHECK_NEAR( q->point.x, p.x, 1e-6 );
	CHECK_NEAR( q->point.y, p.y, 1e-6 );
	CHECK_NEAR( q->point.z, p.z - 0.3 - 0.5 * q->separation, 1e-6 );
	CHECK_NEAR( q->normalImpulse, cnBody_GetMass( r.world, r.body ) * G * STEP,
				0.02 * cnBody_GetMass( r.world, r.body ) * G * STEP );
	cnDestroyWorld( r.world );
}

// The same box in a velocity-level method: the four corners again, impulses m g h.
static void testBoxLcp( void )
{
	const cnVec3 h = cnV3( 0.5, 0.5, 0.5 );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_box;
	sd.halfExtents = h;
	Rest r = makeRest( cnMethod_lcp, &sd, 0.0, 0.0, h.z );
	for ( int i = 0; i < 60; ++i )
	{
		CHECK( cnWorld_Step( r.world, STEP ) );
	}
	cnContactData c;
	CHECK( cnWorld_GetContactData( r.world, &c, 1 ) == 1 );
	CHECK( c.pointCount == 4 );
	double total = 0.0;
	for ( int j = 0; j < c.pointCount; ++j )
	{
		CHECK_NEAR( fabs( c.points[j].point.x ), h.x, 1e-6 );
		CHECK_NEAR( fabs( c.points[j].point.y ), h.y, 1e-6 );
		total += c.points[j].normalImpulse;
	}
	double mass = cnBody_GetMass( r.world, r.body );
	CHECK_NEAR( total, mass * G * STEP, 0.02 * mass * G * STEP );
	cnDestroyWorld( r.world );
}

// Nothing touches before the first step, or when the body is far above the ground; capacity 0
// writes nothing; bad arguments fail with -1 and the error set.
static void testCountsAndErrors( void )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_sphere;
	sd.radius = 0.5;
	Rest r = makeRest( cnMethod_impulse, &sd, 0.0, 0.0, 0.5 );
	cnContactData c;
	CHECK( cnWorld_GetContactData( r.world, &c, 1 ) == 0 );
	CHECK( cnGetErrorCode() == cnError_none );
	CHECK( cnWorld_Step( r.world, STEP ) );

	// capacity 0 with a buffer: the count, the buffer untouched
	memset( &c, 0x5a, sizeof c );
	cnContactData before = c;
	CHECK( cnWorld_GetContactData( r.world, &c, 0 ) == 1 );
	CHECK( memcmp( &c, &before, sizeof c ) == 0 );

	CHECK( cnWorld_GetContactData( NULL, &c, 1 ) == -1 );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );
	CHECK( cnWorld_GetContactData( r.world, &c, -1 ) == -1 );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );
	CHECK( cnWorld_GetContactData( r.world, NULL, 3 ) == -1 );
	CHECK( cnBody_GetContactData( NULL, r.body, &c, 1 ) == -1 );
	cnBodyId stale = r.body;
	stale.generation += 1;
	CHECK( cnBody_GetContactData( r.world, stale, &c, 1 ) == -1 );
	CHECK( cnGetErrorCode() == cnError_invalidId );
	cnShapeId bad = { 99, 0 };
	CHECK( cnShape_GetContactData( r.world, bad, &c, 1 ) == -1 );
	CHECK( cnGetErrorCode() == cnError_invalidId );

	// lifted far above the ground: the contact stops touching and is no longer reported
	CHECK( cnBody_SetTransform( r.world, r.body, cnV3( 0.0, 0.0, 10.0 ), cnQuat_identity ) );
	CHECK( cnWorld_Step( r.world, STEP ) );
	CHECK( cnWorld_GetContactData( r.world, NULL, 0 ) == 0 );
	CHECK( cnBody_GetContactData( r.world, r.body, NULL, 0 ) == 0 );
	cnDestroyWorld( r.world );
}

int main( void )
{
	RUN_TEST( testBoxOnGround );
	RUN_TEST( testSphereOnGround );
	RUN_TEST( testBoxLcp );
	RUN_TEST( testCountsAndErrors );
	return TEST_SUMMARY();
}
