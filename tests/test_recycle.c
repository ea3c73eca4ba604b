// SPDX-License-Identifier: MIT
// Contact recycling (cnWorldDef.contactRecycleDistance, docs/architecture.md): a pair that barely
// moved keeps its manifolds, carried with the bodies. Checked against closed forms and against the
// same world colliding every step: a resting box rests at the same height and its contacts are
// recycled; a box sliding to a stop covers v0^2 / (2 mu g); a box pushed slowly off a ledge tips at
// the edge; a box lifted by cnBody_SetTransform falls freely (no carried contact holds it); a mass
// change or a new shape makes the body's contacts collide afresh; 0 and a method without
// recycling never recycle; a snapshot of a recycling world continues bit for bit.
#include "test.h"

#include "cairn/cairn.h"

#include <math.h>
#include <stdlib.h>

#define G 9.81
#define STEP ( 1.0 / 60.0 )

typedef struct Scene
{
	cnWorld* world;
	cnBodyId ground, box;
} Scene;

// A static ground (a plane, or a 4 x 4 x 1 box whose top is z = 0 and whose +x edge is at x = 2)
// and a unit cube of 1 kg resting on it at (x, 0), friction mu.
static Scene makeScene( cnMethod method, double recycle, bool plane, double x, double mu )
{
	Scene s;
	cnWorldDef def = cnDefaultWorldDef();
	def.method = method;
	def.gravity = cnV3( 0.0, 0.0, -G );
	def.enableSleep = false;
	def.contactRecycleDistance = recycle;
	s.world = cnCreateWorld( &def );

	cnMaterialDef md = cnDefaultMaterialDef();
	md.friction = mu;
	md.restitution = 0.0;
	cnMaterialId material = cnCreateMaterial( s.world, &md );

	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	s.ground = cnCreateBody( s.world, &gd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.material = material;
	if ( plane )
	{
		sd.type = cnShape_plane;
		sd.normal = cnV3( 0.0, 0.0, 1.0 );
	}
	else
	{
		sd.type = cnShape_box;
		sd.halfExtents = cnV3( 2.0, 2.0, 0.5 );
		sd.position = cnV3( 0.0, 0.0, -0.5 );
	}
	cnCreateShape( s.world, s.ground, &sd );

	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( x, 0.0, 0.5 );
	s.box = cnCreateBody( s.world, &bd );
	cnShapeDef bs = cnDefaultShapeDef();
	bs.type = cnShape_box;
	bs.halfExtents = cnV3( 0.5, 0.5, 0.5 );
	bs.material = material;
	cnCreateShape( s.world, s.box, &bs );
	cnBody_SetMass( s.world, s.box, 1.0 );
	return s;
}

static int stepCountingRecycled( cnWorld* world, int steps )
{
	int recycled = 0;
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, STEP ) );
		recycled += cnWorld_GetStats( world ).recycledContactCount;
	}
	return recycled;
}

// A box at rest on a box and on a plane: from the second step on its contact is recycled every
// step, and it rests where the box of a world that collides every step rests (within a micrometre;
// both within the slop of z = 0.5).
static void testResting( void )
{
	for ( int plane = 0; plane < 2; ++plane )
	{
		Scene on = makeScene( cnMethod_impulse, 0.005, plane, 0.0, 0.5 );
		Scene off = makeScene( cnMethod_impulse, 0.0, plane, 0.0, 0.5 );
		stepCountingRecycled( on.world, 2 );
		int recycled = stepCountingRecycled( on.world, 120 );
		CHECK( recycled == 120 );
		CHECK( stepCountingRecycled( off.world, 122 ) == 0 );
		cnVec3 a = cnBody_GetPosition( on.world, on.box );
		cnVec3 b = cnBody_GetPosition( off.world, off.box );
		CHECK_NEAR( a.z, 0.5, 0.005 );
		CHECK_NEAR( a.z, b.z, 1e-6 );
		// the lead point walking round the manifold (contact_kernel.h) wobbles a resting box by
		// micrometres either way
		CHECK_NEAR( a.x, 0.0, 1e-5 );
		CHECK_NEAR( a.y, 0.0, 1e-5 );
		cnDestroyWorld( on.world );
		cnDestroyWorld( off.world );
	}
}

// Sliding to a stop from v0 with friction mu covers v0^2 / (2 mu g) (Coulomb friction, closed
// form): 0.2 m/s and mu = 0.2 give 10.19 mm, 3.4 mm in the first step, so the contact is recycled
// on the later, slower steps. Within 1.5 mm (the distance of one step at the start, the friction
// acting from the first contact step on) and within 0.1 mm of the world that collides every step.
static void testSlideToStop( void )
{
	const double v0 = 0.2, mu = 0.2;
	double expected = v0 * v0 / ( 2.0 * mu * G );
	double stop[2];
	int recycled[2];
	for ( int k = 0; k < 2; ++k )
	{
		Scene s = makeScene( cnMethod_impulse, k == 0 ? 0.005 : 0.0, false, 0.0, mu );
		stepCountingRecycled( s.world, 10 );
		cnBody_SetLinearVelocity( s.world, s.box, cnV3( v0, 0.0, 0.0 ) );
		recycled[k] = stepCountingRecycled( s.world, 60 );
		stop[k] = cnBody_GetPosition( s.world, s.box ).x;
		CHECK_NEAR( cnBody_GetLinearVelocity( s.world, s.box ).x, 0.0, 1e-6 );
		cnDestroyWorld( s.world );
	}
	CHECK( recycled[0] > 40 );
	CHECK( recycled[1] == 0 );
	CHECK_NEAR( stop[0], expected, 1.5e-3 );
	CHECK_NEAR( stop[0], stop[1], 1e-4 );
}

// A frictionless box pushed slowly (5 mm/s, 83 micrometres a step: recycled) over the ground's edge
// at x = 2: its centre drops 1 cm only after it has passed the edge (statics: no torque tips it
// before), and where it does is where it does in the world that collides every step, within the
// recycle distance. The carried manifold must not hold up the part beyond the edge.
static double tipPosition( double recycle, int* recycled )
{
	Scene s = makeScene( cnMethod_impulse, recycle, false, 1.9, 0.0 );
	stepCountingRecycled( s.world, 10 );
	double tipAt = NAN;
	*recycled = 0;
	for ( int i = 0; i < 60 * 60 && isnan( tipAt ); ++i )
	{
		// pushed until its centre is over the edge (no friction to lose the speed to), then coasting
		cnVec3 v = cnBody_GetLinearVelocity( s.world, s.box );
		if ( cnBody_GetPosition( s.world, s.box ).x < 2.0 )
		{
			cnBody_SetLinearVelocity( s.world, s.box, cnV3( 0.005, 0.0, v.z ) );
		}
		*recycled += stepCountingRecycled( s.world, 1 );
		cnVec3 p = cnBody_GetPosition( s.world, s.box );
		if ( p.z < 0.5 - 0.01 )
		{
			tipAt = p.x;
		}
	}
	cnDestroyWorld( s.world );
	return tipAt;
}

static void testOffTheLedge( void )
{
	int recycled = 0, none = 0;
	double on = tipPosition( 0.005, &recycled );
	double off = tipPosition( 0.0, &none );
	CHECK( recycled > 1000 );
	CHECK( none == 0 );
	CHECK( isnan( on ) == false );
	CHECK( on > 2.0 );
	CHECK_NEAR( on, off, 0.005 );
}

// A resting box lifted 1 m by cnBody_SetTransform falls freely: after 0.25 s it is at
// 1.5 - g t^2 / 2 - g h t / 2, the exact sum of symplectic Euler's sub-steps h (the method's sub-steps
// a step).
static void testTeleport( void )
{
	Scene s = makeScene( cnMethod_impulse, 0.005, false, 0.0, 0.5 );
	stepCountingRecycled( s.world, 30 );
	cnBody_SetTransform( s.world, s.box, cnV3( 0.0, 0.0, 1.5 ), cnQuat_identity );
	cnBody_SetLinearVelocity( s.world, s.box, cnVec3_zero );
	CHECK( stepCountingRecycled( s.world, 1 ) == 0 );
	stepCountingRecycled( s.world, 14 );
	double t = 15 * STEP;
	double h = STEP / cnWorld_GetDef( s.world ).settings.impulse.subSteps;
	CHECK_NEAR( cnBody_GetPosition( s.world, s.box ).z, 1.5 - 0.5 * G * t * t - 0.5 * G * h * t, 1e-9 );
	cnDestroyWorld( s.world );
}

// A mass change, a new shape or a denser material moves the centre of mass the anchors hang from:
// the next step collides afresh. With a second cube on top (a 1 x 1 x 2 column, centre at z = 1), the column
// rests at the same height as in the world that collides every step.
static void testForget( void )
{
	Scene s = makeScene( cnMethod_impulse, 0.005, false, 0.0, 0.5 );
	Scene off = makeScene( cnMethod_impulse, 0.0, false, 0.0, 0.5 );
	stepCountingRecycled( s.world, 30 );
	stepCountingRecycled( off.world, 30 );
	CHECK( cnBody_SetMass( s.world, s.box, 2.0 ) );
	CHECK( cnBody_SetMass( off.world, off.box, 2.0 ) );
	CHECK( stepCountingRecycled( s.world, 1 ) == 0 );
	CHECK( stepCountingRecycled( s.world, 10 ) > 0 );
	stepCountingRecycled( off.world, 11 );

	cnShapeDef top = cnDefaultShapeDef();
	top.type = cnShape_box;
	top.halfExtents = cnV3( 0.5, 0.5, 0.5 );
	top.position = cnV3( 0.0, 0.0, 1.0 );
	CHECK( cnShape_IsValid( s.world, cnCreateShape( s.world, s.box, &top ) ) );
	CHECK( cnShape_IsValid( off.world, cnCreateShape( off.world, off.box, &top ) ) );
	CHECK( stepCountingRecycled( s.world, 1 ) == 0 );
	stepCountingRecycled( s.world, 119 );
	stepCountingRecycled( off.world, 120 );

	// a denser material on the top cube moves the centre of mass down: collide afresh
	cnMaterialDef dense = cnDefaultMaterialDef();
	dense.density = 3000.0;
	cnMaterialId heavy = cnCreateMaterial( s.world, &dense );
	cnShapeId shapes[2];
	CHECK( cnBody_GetShapes( s.world, s.box, shapes, 2 ) == 2 );
	CHECK( cnShape_SetMaterial( s.world, shapes[1], heavy ) );
	CHECK( stepCountingRecycled( s.world, 1 ) == 0 );
	CHECK( stepCountingRecycled( s.world, 10 ) > 0 );
	cnVec3 a = cnBody_GetPosition( s.world, s.box );
	cnVec3 b = cnBody_GetPosition( off.world, off.box );
	CHECK_NEAR( a.z, 0.5, 0.005 );
	CHECK_NEAR( a.z, b.z, 1e-6 );
	cnDestroyWorld( s.world );
	cnDestroyWorld( off.world );
}

// Recycling off (distance 0, or a method without cnMethodFlag_recycledContacts): never; the
// setter takes >= 0 only.
static void testOff( void )
{
	Scene s = makeScene( cnMethod_lcp, 0.005, false, 0.0, 0.5 );
	CHECK( stepCountingRecycled( s.world, 30 ) == 0 );
	cnDestroyWorld( s.world );

	s = makeScene( cnMethod_impulse, 0.005, false, 0.0, 0.5 );
	CHECK( stepCountingRecycled( s.world, 30 ) > 0 );
	CHECK( cnWorld_SetContactRecycleDistance( s.world, 0.0 ) );
	CHECK( stepCountingRecycled( s.world, 30 ) == 0 );
	CHECK( cnWorld_SetContactRecycleDistance( s.world, -1.0 ) == false );
	CHECK( cnWorld_SetContactRecycleDistance( s.world, NAN ) == false );
	CHECK( cnWorld_GetDef( s.world ).contactRecycleDistance == 0.0 );
	cnDestroyWorld( s.world );
}

// A small pile settling (boxes dropped on each other, some contacts recycled and some not): saved
// mid-way, the restored world steps to the same bits as the original.
static void testSnapshot( void )
{
	Scene s = makeScene( cnMethod_impulse, 0.005, false, 0.0, 0.5 );
	for ( int i = 0; i < 4; ++i )
	{
		cnBodyDef bd = cnDefaultBodyDef();
		bd.position = cnV3( 0.1 * i, 0.05 * i, 1.6 + 1.1 * i );
		cnBodyId b = cnCreateBody( s.world, &bd );
		cnShapeDef bs = cnDefaultShapeDef();
		bs.type = cnShape_box;
		bs.halfExtents = cnV3( 0.5, 0.5, 0.5 );
		cnCreateShape( s.world, b, &bs );
	}
	int recycled = stepCountingRecycled( s.world, 90 );
	CHECK( recycled > 0 );
	void* data = NULL;
	size_t size = 0;
	CHECK( cnWorld_Save( s.world, &data, &size ) );
	cnWorld* copy = cnWorld_Load( data, size );
	CHECK( copy != NULL );
	if ( copy != NULL )
	{
		int a = stepCountingRecycled( s.world, 120 );
		int b = stepCountingRecycled( copy, 120 );
		CHECK( a == b );
		CHECK( a > 0 );
		CHECK( cnWorld_Hash( s.world ) == cnWorld_Hash( copy ) );
		cnDestroyWorld( copy );
	}
	cnFree( data );
	cnDestroyWorld( s.world );
}

int main( void )
{
	RUN_TEST( testResting );
	RUN_TEST( testSlideToStop );
	RUN_TEST( testOffTheLedge );
	RUN_TEST( testTeleport );
	RUN_TEST( testForget );
	RUN_TEST( testOff );
	RUN_TEST( testSnapshot );
	return TEST_SUMMARY();
}
