// SPDX-License-Identifier: MIT
// The impulse method's contact solve on every path (scalar, SSE2, AVX2, AVX-512) gives the same bits: the
// paths do the same operations in the same order on each lane, and the graph colouring keeps the
// lanes of a group on different bodies (a colour that shared a body between lanes would lose one
// lane's impulse in the SIMD paths and not in the scalar one, and the hashes would differ). Scenes
// cover boxes, mixed shapes, sphere pairs (whose normals follow the centres), a kinematic pusher,
// joints, bounces and a body with more contacts than there are colours (the overflow set).
#include "cairn/cairn.h"
#include "cairn/joint.h"
#include "methods/impulse/contact_wide.h"
#include "test.h"

typedef cnWorld* cnBuildFn( cnSimdPath path );

static cnWorld* makeWorld( cnSimdPath path, bool sleep )
{
	cnWorldDef wd = cnDefaultWorldDef();
	wd.settings.impulse.simd = path;
	wd.enableSleep = sleep;
	return cnCreateWorld( &wd );
}

static void addStaticBox( cnWorld* world, cnVec3 position, cnVec3 halfExtents )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = cnBody_static;
	bd.position = position;
	cnBodyId id = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_box;
	sd.halfExtents = halfExtents;
	cnCreateShape( world, id, &sd );
}

static cnBodyId addBody( cnWorld* world, cnBodyType type, cnShapeType shape, cnVec3 position, cnQuat q, double size,
						 cnMaterialId material )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = type;
	bd.position = position;
	bd.orientation = q;
	cnBodyId id = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = shape;
	sd.radius = size;
	sd.halfExtents = cnV3( size, 0.8 * size, 0.6 * size );
	sd.halfHeight = 0.8 * size;
	sd.material = material;
	cnCreateShape( world, id, &sd );
	return id;
}

// A pyramid of 6 levels of unit boxes on a static box: touching side by side (4-point manifolds).
static cnWorld* buildPyramid( cnSimdPath path )
{
	cnWorld* world = makeWorld( path, false );
	addStaticBox( world, cnV3( 0, 0, -1 ), cnV3( 20, 20, 1 ) );
	for ( int level = 0; level < 6; ++level )
	{
		for ( int i = 0; i < 6 - level; ++i )
		{
			cnBodyDef bd = cnDefaultBodyDef();
			bd.position = cnV3( -2.5 + i + 0.5 * level, 0, 0.5 + level );
			cnBodyId id = cnCreateBody( world, &bd );
			cnShapeDef sd = cnDefaultShapeDef();
			sd.type = cnShape_box;
			sd.halfExtents = cnV3( 0.5, 0.5, 0.5 );
			cnCreateShape( world, id, &sd );
		}
	}
	return world;
}

// Mixed shapes dropped on a plane, bouncy, and a kinematic box sweeping through them.
static cnWorld* buildPile( cnSimdPath path )
{
	cnWorld* world = makeWorld( path, true );
	cnMaterialDef md = cnDefaultMaterialDef();
	md.restitution = 0.6;
	md.friction = 0.4;
	cnMaterialId bouncy = cnCreateMaterial( world, &md );
	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	cnBodyId ground = cnCreateBody( world, &gd );
	cnShapeDef plane = cnDefaultShapeDef();
	plane.type = cnShape_plane;
	cnCreateShape( world, ground, &plane );
	for ( int i = 0; i < 48; ++i )
	{
		cnVec3 p = cnV3( 0.37 * ( i % 5 ) - 0.8, 0.29 * ( ( i / 5 ) % 4 ) - 0.5, 0.4 + 0.3 * i / 4.0 );
		cnQuat q = cnQuatFromAxisAngle( cnNormalize( cnV3( 1, i % 3, 2 ) ), 0.1 * i );
		addBody( world, cnBody_dynamic, (cnShapeType)( i % 4 ), p, q, 0.15, i % 2 ? bouncy : (cnMaterialId){ 0 } );
	}
	cnBodyId pusher = addBody( world, cnBody_kinematic, cnShape_box, cnV3( -3, 0, 0.3 ), cnQuat_identity, 0.3,
							   (cnMaterialId){ 0 } );
	cnBody_SetLinearVelocity( world, pusher, cnV3( 1.5, 0, 0 ) );
	return world;
}

// A ball pit: sphere pairs, whose normals follow their line of centres every sub-step.
static cnWorld* buildBalls( cnSimdPath path )
{
	cnWorld* world = makeWorld( path, false );
	addStaticBox( world, cnV3( 0, 0, -1 ), cnV3( 2, 2, 1 ) );
	addStaticBox( world, cnV3( 2.1, 0, 1 ), cnV3( 0.1, 2, 1 ) );
	addStaticBox( world, cnV3( -2.1, 0, 1 ), cnV3( 0.1, 2, 1 ) );
	for ( int i = 0; i < 64; ++i )
	{
		cnVec3 p = cnV3( -1.5 + 0.41 * ( i % 8 ) + 0.01 * ( i / 8 ), -0.3 + 0.2 * ( ( i / 8 ) % 3 ), 0.25 + 0.4 * ( i / 8 ) );
		addBody( world, cnBody_dynamic, cnShape_sphere, p, cnQuat_identity, 0.2, (cnMaterialId){ 0 } );
	}
	return world;
}

// A plate carrying 40 small boxes: more contacts on one body than there are colours, so some go to
// the overflow set; and a chain of boxes on ball joints swinging into them.
static cnWorld* buildOverflowAndJoints( cnSimdPath path )
{
	cnWorld* world = makeWorld( path, false );
	addStaticBox( world, cnV3( 0, 0, -1 ), cnV3( 10, 10, 1 ) );
	cnBodyDef pd = cnDefaultBodyDef();
	pd.position = cnV3( 0, 0, 0.1 );
	cnBodyId plate = cnCreateBody( world, &pd );
	cnShapeDef ps = cnDefaultShapeDef();
	ps.type = cnShape_box;
	ps.halfExtents = cnV3( 2, 2, 0.1 );
	cnCreateShape( world, plate, &ps );
	for ( int i = 0; i < 40; ++i )
	{
		cnVec3 p = cnV3( -1.75 + 0.5 * ( i % 8 ), -1.5 + 0.6 * ( i / 8 ), 0.32 );
		addBody( world, cnBody_dynamic, cnShape_box, p, cnQuat_identity, 0.12, (cnMaterialId){ 0 } );
	}
	cnBodyId previous = cnBodyId_null;
	for ( int i = 0; i < 6; ++i )
	{
		cnVec3 p = cnV3( 2.5 + 0.4 * i, 0, 2.5 );
		cnBodyId link = addBody( world, cnBody_dynamic, cnShape_box, p, cnQuat_identity, 0.15, (cnMaterialId){ 0 } );
		cnBallJointDef jd = cnDefaultBallJointDef();
		jd.base.bodyA = link;
		jd.base.bodyB = previous;
		jd.anchor = cnV3( p.x - 0.2, 0, 2.5 );
		cnCreateBallJoint( world, &jd );
		previous = link;
	}
	return world;
}

// Runs a scene on a path and returns the final state's hash.
static uint64_t run( cnBuildFn* build, cnSimdPath path, int steps )
{
	cnWorld* world = build( path );
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	}
	uint64_t hash = cnWorld_Hash( world );
	cnDestroyWorld( world );
	return hash;
}

static void samePaths( const char* name, cnBuildFn* build, int steps )
{
	uint64_t scalar = run( build, cnSimd_scalar, steps );
	printf( "%-10s scalar 0x%016llx", name, (unsigned long long)scalar );
	// the scene moved: the hash covers a simulation
	cnWorld* start = build( cnSimd_scalar );
	CHECK( cnWorld_Hash( start ) != scalar );
	cnDestroyWorld( start );
	const cnSimdPath paths[] = { cnSimd_sse2, cnSimd_avx2, cnSimd_avx512, cnSimd_auto };
	const char* names[] = { "sse2", "avx2", "avx512", "auto" };
	for ( int i = 0; i < 4; ++i )
	{
		if ( paths[i] != cnSimd_auto && cnSimdPathAvailable( paths[i] ) == false )
		{
			printf( "  %s: not on this machine", names[i] );
			continue;
		}
		uint64_t hash = run( build, paths[i], steps );
		printf( "  %s 0x%016llx", names[i], (unsigned long long)hash );
		CHECK( hash == scalar );
	}
	printf( "\n" );
}

static void pathsAgree( void )
{
	samePaths( "pyramid", buildPyramid, 180 );
	samePaths( "pile", buildPile, 180 );
	samePaths( "balls", buildBalls, 180 );
	samePaths( "overflow", buildOverflowAndJoints, 180 );
}

// The pyramid stands on every path: the colour order is a valid Gauss-Seidel order.
static void pyramidStands( void )
{
	cnWorld* world = buildPyramid( cnSimd_auto );
	// the last body created is the top box
	cnBodyId top = cnWorld_GetBody( world, cnWorld_GetBodyCount( world ) - 1 );
	cnVec3 top0 = cnBody_GetPosition( world, top );
	for ( int i = 0; i < 300; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	}
	cnVec3 top1 = cnBody_GetPosition( world, top );
	printf( "pyramid top moved %.3g mm in 5 s\n", 1000.0 * cnLength( cnSub( top1, top0 ) ) );
	CHECK( cnLength( cnSub( top1, top0 ) ) < 0.005 );
	cnDestroyWorld( world );
}

int main( void )
{
	printf( "best path here: %d (1 scalar, 2 sse2, 3 avx2, 4 avx512)\n", cnBestSimdPath() );
	RUN_TEST( pathsAgree );
	RUN_TEST( pyramidStands );
	return TEST_SUMMARY();
}
