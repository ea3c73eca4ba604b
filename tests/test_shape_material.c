// SPDX-License-Identifier: MIT
// cnShape_SetMaterial: one shape takes another material while it touches. Two boxes of one material
// slide on the ground at 5 m/s with mu 0.5, decelerating by mu g; box A then gets a copy of the
// material with friction 0 (mixed with the ground's 0.5: 0), so it keeps its speed while box B, still
// of the shared material, goes on decelerating by 0.5 g. A snapshot of the edited world and a scene
// written from it keep A's material; the argument checks; another density changes the mass (the
// box's volume times it) unless the mass was overridden.
#include "cairn/cairn.h"
#include "cairn/scene.h"
#include "test.h"
#include "test_bodies.h"

#include <stdlib.h>
#include <string.h>

#define G 10.0
#define H ( 1.0 / 60.0 )

typedef struct Slide
{
	cnWorld* world;
	cnMaterialId shared, slick;
	cnBodyId a, b;
	cnShapeId shapeA, shapeB;
} Slide;

static cnBodyId namedBox( cnWorld* world, const char* name, cnVec3 position, cnMaterialId material )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = name;
	bd.type = cnBody_dynamic;
	bd.position = position;
	bd.linearVelocity = cnV3( 5, 0, 0 );
	cnBodyId id = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_box;
	sd.halfExtents = cnV3( 0.5, 0.5, 0.5 );
	sd.material = material;
	CHECK( cnShape_IsValid( world, cnCreateShape( world, id, &sd ) ) );
	return id;
}

// The two boxes slide 10 steps; then A's shape gets "slick", a copy of the shared material with
// friction 0.
static Slide makeSlide( void )
{
	Slide s;
	s.world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -G ) );
	tbGround( s.world, 0.5, 0.0 );
	cnMaterialDef md = cnDefaultMaterialDef();
	md.name = "shared";
	md.friction = 0.5;
	s.shared = cnCreateMaterial( s.world, &md );
	s.a = namedBox( s.world, "a", cnV3( 0, 0, 0.5 ), s.shared );
	s.b = namedBox( s.world, "b", cnV3( 0, 3, 0.5 ), s.shared );
	cnBody_GetShapes( s.world, s.a, &s.shapeA, 1 );
	cnBody_GetShapes( s.world, s.b, &s.shapeB, 1 );
	for ( int i = 0; i < 10; ++i )
	{
		CHECK( cnWorld_Step( s.world, H ) );
	}
	md.name = "slick";
	md.friction = 0.0;
	s.slick = cnCreateMaterial( s.world, &md );
	CHECK( s.slick > s.shared );
	return s;
}

// steps: A keeps its speed, B loses 0.5 g h a step (to tol: a scene starts without the contacts'
// warm starts, which the first steps make up for)
static void checkSlides( cnWorld* world, cnBodyId a, cnBodyId b, int steps, double tol )
{
	double va = cnBody_GetLinearVelocity( world, a ).x, vb = cnBody_GetLinearVelocity( world, b ).x;
	CHECK( va < 5.0 && vb < 5.0 && vb > 0.5 + 0.5 * G * steps * H );
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, H ) );
	}
	CHECK_NEAR( cnBody_GetLinearVelocity( world, a ).x, va, 1e-9 );
	CHECK_NEAR( cnBody_GetLinearVelocity( world, b ).x, vb - 0.5 * G * steps * H, tol );
}

static void oneShapeChanges( void )
{
	Slide s = makeSlide();
	double massA = cnBody_GetMass( s.world, s.a );
	CHECK( cnShape_SetMaterial( s.world, s.shapeA, s.slick ) );
	CHECK( cnGetErrorCode() == cnError_none );
	CHECK( cnShape_GetDef( s.world, s.shapeA ).material == s.slick );
	CHECK( cnShape_GetDef( s.world, s.shapeB ).material == s.shared );
	CHECK( cnMaterial_GetDef( s.world, s.shared ).friction == 0.5 );
	// the same density: the mass is untouched, to the bit
	CHECK( cnBody_GetMass( s.world, s.a ) == massA );
	checkSlides( s.world, s.a, s.b, 30, 1e-6 );
	cnDestroyWorld( s.world );
}

static void badArguments( void )
{
	Slide s = makeSlide();
	int count = cnWorld_GetMaterialCount( s.world );
	CHECK( cnShape_SetMaterial( s.world, s.shapeA, -1 ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidId && strstr( cnGetError(), "material id -1" ) != NULL );
	CHECK( cnShape_SetMaterial( s.world, s.shapeA, count ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidId );
	CHECK( cnShape_SetMaterial( s.world, cnShapeId_null, s.slick ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidId );
	cnShapeId stale = s.shapeB;
	CHECK( cnDestroyBody( s.world, s.b ) );
	CHECK( cnShape_SetMaterial( s.world, stale, s.slick ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidId );
	// nothing changed
	CHECK( cnShape_GetDef( s.world, s.shapeA ).material == s.shared );
	cnDestroyWorld( s.world );
}

static void densityChangesMass( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -G ) );
	cnMaterialDef md = cnDefaultMaterialDef();
	md.density = 2000.0;
	cnMaterialId heavy = cnCreateMaterial( world, &md );
	cnBodyId box = namedBox( world, "box", cnV3( 0, 0, 2 ), 0 );
	cnBodyId fixed = namedBox( world, "fixed", cnV3( 0, 3, 2 ), 0 );
	CHECK( cnBody_SetMass( world, fixed, 3.0 ) );
	cnShapeId shape, fixedShape;
	cnBody_GetShapes( world, box, &shape, 1 );
	cnBody_GetShapes( world, fixed, &fixedShape, 1 );
	CHECK_NEAR( cnBody_GetMass( world, box ), 1000.0, 1e-9 );
	CHECK( cnShape_SetMaterial( world, shape, heavy ) );
	CHECK( cnShape_SetMaterial( world, fixedShape, heavy ) );
	// a 1 m cube at 2000 kg/m^3; the override stays
	CHECK_NEAR( cnBody_GetMass( world, box ), 2000.0, 1e-9 );
	CHECK_NEAR( cnBody_GetMass( world, fixed ), 3.0, 1e-12 );
	cnDestroyWorld( world );
}

static void snapshotKeepsIt( void )
{
	Slide s = makeSlide();
	CHECK( cnShape_SetMaterial( s.world, s.shapeA, s.slick ) );
	void* data = NULL;
	size_t size = 0;
	CHECK( cnWorld_Save( s.world, &data, &size ) );
	cnWorld* loaded = cnWorld_Load( data, size );
	cnFree( data );
	CHECK( loaded != NULL );
	if ( loaded == NULL )
	{
		cnDestroyWorld( s.world );
		return;
	}
	CHECK( cnShape_GetDef( loaded, s.shapeA ).material == s.slick );
	CHECK( cnShape_GetDef( loaded, s.shapeB ).material == s.shared );
	CHECK( cnWorld_Hash( loaded ) == cnWorld_Hash( s.world ) );
	// both step alike, and A slides on in the loaded world
	for ( int i = 0; i < 5; ++i )
	{
		CHECK( cnWorld_Step( s.world, H ) && cnWorld_Step( loaded, H ) );
		CHECK( cnWorld_Hash( loaded ) == cnWorld_Hash( s.world ) );
	}
	checkSlides( loaded, s.a, s.b, 30, 1e-6 );
	cnDestroyWorld( loaded );
	cnDestroyWorld( s.world );
}

static void sceneKeepsIt( void )
{
	Slide s = makeSlide();
	CHECK( cnShape_SetMaterial( s.world, s.shapeA, s.slick ) );
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.timeStep = H;
	def.fps = 60.0;
	char* text = cnWriteSceneToString( s.world, &def );
	CHECK( text != NULL );
	cnScene* scene = text != NULL ? cnLoadSceneFromString( text, "<written>" ) : NULL;
	cnFree( text );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		fprintf( stderr, "%s\n", cnGetError() );
		cnDestroyWorld( s.world );
		return;
	}
	cnWorld* w = scene->world;
	cnBodyId a = cnWorld_FindBody( w, "a" ), b = cnWorld_FindBody( w, "b" );
	cnShapeId shapeA = { 0 }, shapeB = { 0 };
	CHECK( cnBody_GetShapes( w, a, &shapeA, 1 ) == 1 && cnBody_GetShapes( w, b, &shapeB, 1 ) == 1 );
	cnMaterialDef ma = cnMaterial_GetDef( w, cnShape_GetDef( w, shapeA ).material );
	cnMaterialDef mb = cnMaterial_GetDef( w, cnShape_GetDef( w, shapeB ).material );
	CHECK( ma.name != NULL && strcmp( ma.name, "slick" ) == 0 && ma.friction == 0.0 );
	CHECK( mb.name != NULL && strcmp( mb.name, "shared" ) == 0 && mb.friction == 0.5 );
	// the written scene starts without contacts: let them form and their impulses build up (cold,
	// the first steps' friction falls short of mu m g by some 1e-5 m/s), then A slides on and B slows
	for ( int i = 0; i < 3; ++i )
	{
		CHECK( cnWorld_Step( w, H ) );
	}
	checkSlides( w, a, b, 30, 1e-5 );
	cnDestroyScene( scene );
	cnDestroyWorld( s.world );
}

int main( void )
{
	RUN_TEST( oneShapeChanges );
	RUN_TEST( badArguments );
	RUN_TEST( densityChangesMass );
	RUN_TEST( snapshotKeepsIt );
	RUN_TEST( sceneKeepsIt );
	return TEST_SUMMARY();
}
