// SPDX-License-Identifier: MIT
// FOSSSim XML scenes and planar polygon contacts: the loader on every reference scene, mass
// properties against FOSSSim's closed forms, error messages, the vertex-edge contact routine, the
// spring and wind force elements, and (once the velocity-level methods expose it) the contact
// system and trajectories that the reference scenes' comments and descriptions state.
#define _POSIX_C_SOURCE 200809L

#include "cairn/fosssim.h"

#include "collision/collision.h"
#include "solvers/lcp.h"
#include "test.h"
#include "test_fosssim.h"
#include "world.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// helpers

static bool contains( const char* text, const char* part )
{
	return strstr( text, part ) != NULL;
}

static bool isDirectory( const char* path )
{
	struct stat st;
	return stat( path, &st ) == 0 && S_ISDIR( st.st_mode );
}

static int compareNames( const void* a, const void* b )
{
	return strcmp( *(char* const*)a, *(char* const*)b );
}

// Calls visit on every .xml file under dir, in sorted order; returns how many it found.
static int forEachXml( const char* dir, void ( *visit )( const char* path ) )
{
	DIR* d = opendir( dir );
	if ( d == NULL )
	{
		return 0;
	}
	char* names[512];
	int count = 0;
	for ( struct dirent* e = readdir( d ); e != NULL && count < 512; e = readdir( d ) )
	{
		if ( e->d_name[0] != '.' )
		{
			names[count++] = strdup( e->d_name );
		}
	}
	closedir( d );
	qsort( names, (size_t)count, sizeof( char* ), compareNames );
	int found = 0;
	for ( int i = 0; i < count; ++i )
	{
		char path[1024];
		snprintf( path, sizeof( path ), "%s/%s", dir, names[i] );
		if ( isDirectory( path ) )
		{
			found += forEachXml( path, visit );
		}
		else if ( cnIsFosssimPath( path ) )
		{
			visit( path );
			found += 1;
		}
		free( names[i] );
	}
	return found;
}

// A body's world-space centre, velocity and spin.
static cnVec3 centerOf( const cnFosssimScene* f, int i )
{
	return cnBody_GetWorldCenterOfMass( f->scene->world, f->bodies[i] );
}

// ---------------------------------------------------------------------------------------------
// loader

static int s_loaded, s_failed;

static void loadOne( const char* path )
{
	cnFosssimScene* f = cnLoadFosssim( path );
	if ( f == NULL )
	{
		fprintf( stderr, "  cannot load %s: %s\n", path, cnGetError() );
		s_failed += 1;
		return;
	}
	// every scene is planar, has at least one body and a positive step
	CHECK( cnWorld_GetDef( f->scene->world ).planar );
	CHECK( f->bodyCount > 0 );
	CHECK( f->scene->timeStep > 0.0 );
	s_loaded += 1;
	cnDestroyFosssim( f );
}

static void test_load_reference_scenes( void )
{
	if ( isDirectory( FOSSSIM_DIR ) == false )
	{
		TEST_SKIP( "%s is absent (the FOSSSim reference scenes are third-party data)", FOSSSIM_DIR );
		return;
	}
	s_loaded = s_failed = 0;
	int found = forEachXml( FOSSSIM_DIR, loadOne );
	printf( "  %d FOSSSim scenes loaded, %d failed\n", s_loaded, s_failed );
	CHECK( found > 0 );
	CHECK( s_failed == 0 );
	CHECK( s_loaded == found );
}

static const char* s_triangle =
	"<scene>\n"
	"  <simtype type=\"rigid-body\"/>\n"
	"  <description text=\"mass test\"/>\n"
	"  <duration time=\"2.5\"/>\n"
	"  <viewport cx=\"1.0\" cy=\"2.0\" size=\"3.0\"/>\n"
	"  <maxsimfreq max=\"100.0\"/>\n"
	"  <rigidbodyintegrator type=\"explicit-euler\" dt=\"0.25\"/>\n"
	"  <rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/>\n"
	"  <rigidbodyvertex x=\"3\" y=\"0\" m=\"2\"/>\n"
	"  <rigidbodyvertex x=\"0\" y=\"3\" m=\"3\"/>\n"
	"  <rigidbodyvertex x=\"10\" y=\"0\" m=\"1\"/>\n"
	"  <rigidbodyvertex x=\"12\" y=\"0\" m=\"1\"/>\n"
	"  <rigidbody p=\"0\" p=\"1\" p=\"2\" vx=\"0.5\" vy=\"-1.5\" omega=\"2.0\" r=\"0.1\"/>\n"
	"  <rigidbody p=\"3\" p=\"4\" vx=\"7\" vy=\"7\" omega=\"7\" r=\"0.25\" fixed=\"1\"/>\n"
	"  <rigidbodygravityforce fx=\"0.0\" fy=\"-10.0\"/>\n"
	"  <rigidbodygravityforce fx=\"1.0\" fy=\"0.0\"/>\n"
	"  <rigidbodycolor body=\"1\" r=\"0.5\" g=\"0.25\" b=\"1\"/>\n"
	"</scene>\n";

// Mass = sum m_i, centre = sum m_i x_i / M, I = sum m_i |x_i - c|^2, all exact in binary here:
// masses 1, 2, 3 at (0,0), (3,0), (0,3): M = 6, c = (6/6, 9/6) = (1, 1.5),
// I = 1 (1 + 2.25) + 2 (4 + 2.25) + 3 (1 + 2.25) = 3.25 + 12.5 + 9.75 = 25.5.
static void test_mass_properties( void )
{
	cnFosssimScene* f = tfLoadText( s_triangle );
	CHECK( f != NULL );
	if ( f == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
		return;
	}
	cnWorld* world = f->scene->world;
	cnBodyId b = f->bodies[0];
	// exact: sums and one division of small integers
	CHECK( cnBody_GetMass( world, b ) == 6.0 );
	cnVec3 c = cnBody_GetWorldCenterOfMass( world, b );
	CHECK( c.x == 1.0 && c.y == 1.5 && c.z == 0.0 );
	CHECK( cnBody_GetLocalInertia( world, b ).cz.z == 25.5 );
	// initial state: the centre's velocity and the spin
	cnVec3 v = cnBody_GetLinearVelocity( world, b );
	cnVec3 w = cnBody_GetAngularVelocity( world, b );
	CHECK( v.x == 0.5 && v.y == -1.5 && v.z == 0.0 );
	CHECK( w.x == 0.0 && w.y == 0.0 && w.z == 2.0 );
	// the polygon's vertices are the body-space vertices x_i - c
	cnShapeId shape;
	CHECK( cnBody_GetShapes( world, b, &shape, 1 ) == 1 );
	cnShapeDef sd = cnShape_GetDef( world, shape );
	CHECK( sd.type == cnShape_polygon && sd.vertexCount == 3 && sd.radius == 0.1 );
	CHECK( sd.vertices[1].x == 2.0 && sd.vertices[1].y == -1.5 );

	// the fixed body is static and ignores its velocity
	CHECK( cnBody_GetType( world, f->bodies[1] ) == cnBody_static );
	CHECK( f->fixed[1] && f->fixed[0] == false );
	CHECK( cnBody_GetLinearVelocity( world, f->bodies[1] ).x == 0.0 );

	// settings: gravity forces add up, explicit Euler, dt, duration, no collisions, metadata
	cnVec3 g = cnWorld_GetGravity( world );
	CHECK( g.x == 1.0 && g.y == -10.0 && g.z == 0.0 );
	CHECK( cnWorld_GetDef( world ).settings.velocity.integrator == cnIntegrator_explicitEuler );
	CHECK( f->scene->timeStep == 0.25 && f->scene->duration == 2.5 );
	CHECK( strcmp( f->response, "" ) == 0 );
	CHECK( strcmp( f->scene->description, "mass test" ) == 0 );
	CHECK( f->display.hasViewport && f->display.viewportX == 1.0 && f->display.viewportSize == 3.0 );
	CHECK( f->display.maxSimFrequency == 100.0 );
	CHECK( f->display.hasBodyColor[1] && f->display.hasBodyColor[0] == false );
	CHECK( f->display.bodyColor[1][1] == 0.25f );
	// frames are a whole number of steps apart: dt = 0.25 gives one step per frame, 4 fps
	CHECK( f->scene->fps == 4.0 );
	// without collision handling the shapes never collide
	cnShapeDef fixedShape;
	cnShapeId fs;
	CHECK( cnBody_GetShapes( world, f->bodies[1], &fs, 1 ) == 1 );
	fixedShape = cnShape_GetDef( world, fs );
	CHECK( fixedShape.categoryBits == 0 && fixedShape.maskBits == 0 );
	cnDestroyFosssim( f );
}

// The printed mass matrices of the reference scenes: t3m2/velocityprojection/test01.xml (the table:
// M = 16, I = 289.75) and test05.xml (a unit-mass 2 x 2 square: M = 4, I = 4 * 2 = 8).
static void test_reference_mass_matrices( void )
{
	const char* table = FOSSSIM_DIR "/t3m2/velocityprojection/test01.xml";
	const char* squares = FOSSSIM_DIR "/t3m2/velocityprojection/test05.xml";
	if ( access( table, R_OK ) != 0 || access( squares, R_OK ) != 0 )
	{
		TEST_SKIP( "%s is absent", FOSSSIM_DIR );
		return;
	}
	cnFosssimScene* f = cnLoadFosssim( table );
	CHECK( f != NULL );
	if ( f != NULL )
	{
		// the file prints M = 16 and I = 289.75: sums of small integers, exact
		CHECK( cnBody_GetMass( f->scene->world, f->bodies[1] ) == 16.0 );
		CHECK( cnBody_GetLocalInertia( f->scene->world, f->bodies[1] ).cz.z == 289.75 );
		CHECK( cnBody_GetType( f->scene->world, f->bodies[0] ) == cnBody_static );
		CHECK( cnWorld_GetDef( f->scene->world ).method == cnMethod_velocityProjection );
		cnDestroyFosssim( f );
	}
	f = cnLoadFosssim( squares );
	CHECK( f != NULL );
	if ( f != NULL )
	{
		for ( int i = 0; i < 2; ++i )
		{
			CHECK( cnBody_GetMass( f->scene->world, f->bodies[i] ) == 4.0 );
			// vertices 2.19 and 4.19 are not exact in binary: the inertia is 8 to round-off
			CHECK_NEAR( cnBody_GetLocalInertia( f->scene->world, f->bodies[i] ).cz.z, 8.0, 1e-13 );
		}
		cnDestroyFosssim( f );
	}
}

// Loads text that must fail and checks the message names the file, the line and the reason.
static void expectError( const char* text, const char* line, const char* reason )
{
	cnFosssimScene* f = tfLoadText( text );
	CHECK( f == NULL );
	cnDestroyFosssim( f );
	bool ok = contains( cnGetError(), "/tmp/cairn_fosssim_" ) && contains( cnGetError(), line ) && contains( cnGetError(), reason );
	if ( ok == false )
	{
		fprintf( stderr, "  message \"%s\" lacks \"%s\" or \"%s\"\n", cnGetError(), line, reason );
	}
	CHECK( ok );
}

static void test_errors( void )
{
	const char* head = "<scene>\n<rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n";
	char text[1024];

	snprintf( text, sizeof( text ), "%s<rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/>\n<teapot size=\"2\"/>\n</scene>\n",
			  head );
	expectError( text, ":4:", "unknown tag <teapot>" );

	snprintf( text, sizeof( text ), "%s<rigidbodyvertex x=\"0\" y=\"0\" m=\"1\" z=\"1\"/>\n</scene>\n", head );
	expectError( text, ":3:", "unknown attribute \"z\"" );

	snprintf( text, sizeof( text ), "%s<rigidbodyvertex x=\"zero\" y=\"0\" m=\"1\"/>\n</scene>\n", head );
	expectError( text, ":3:", "not a finite number" );

	snprintf( text, sizeof( text ), "%s<rigidbodyvertex x=\"0\" y=\"0\"/>\n</scene>\n", head );
	expectError( text, ":3:", "missing attribute \"m\"" );

	snprintf( text, sizeof( text ),
			  "%s<rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/>\n<rigidbodyvertex x=\"1\" y=\"0\" m=\"1\"/>\n"
			  "<rigidbody p=\"0\" p=\"5\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n</scene>\n",
			  head );
	expectError( text, ":5:", "vertex index 5 out of range" );

	snprintf( text, sizeof( text ), "%s<rigidbodyvertex x=\"0\" y=\"0\" m=\"1\" x=\"2\"/>\n</scene>\n", head );
	expectError( text, ":3:", "\"x\" given twice" );

	snprintf( text, sizeof( text ),
			  "%s<rigidbodyspringforce i=\"0\" pix=\"0\" piy=\"0\" j=\"3\" pjx=\"0\" pjy=\"0\" k=\"1\" l0=\"0\"/>\n"
			  "</scene>\n",
			  head );
	expectError( text, ":3:", "out of range" );

	expectError( "<scene>\n<rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/>\n</scene>\n", "", "missing <rigidbodyintegrator" );
	expectError( "<scene>\n<rigidbodyvertex x=\"0\" y=\"0\" m=\"1\">\n</scene>\n", ":3:", "XML error" );
	expectError( "<world>\n</world>\n", ":1:", "root element must be <scene>" );

	snprintf( text, sizeof( text ),
			  "%s<rigidbodycollisionhandling detection=\"all-pairs\" response=\"magic\"/>\n</scene>\n", head );
	expectError( text, ":3:", "unknown response \"magic\"" );

	// a missing file
	CHECK( cnLoadFosssim( "/nonexistent/scene.xml" ) == NULL );
	CHECK( contains( cnGetError(), "/nonexistent/scene.xml: cannot open" ) );

	// cnLoadFosssimScene refuses what a cnScene cannot carry
	const char* springs = "<scene>\n<rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
						  "<rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/><rigidbodyvertex x=\"1\" y=\"0\" m=\"1\"/>\n"
						  "<rigidbody p=\"0\" p=\"1\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n"
						  "<rigidbodyspringforce i=\"0\" pix=\"0\" piy=\"0\" j=\"-1\" pjx=\"0\" pjy=\"0\" k=\"1\" "
						  "l0=\"0\"/>\n</scene>\n";
	const char* path = tfWriteTemp( springs );
	CHECK( path != NULL );
	if ( path != NULL )
	{
		CHECK( cnLoadFosssimScene( path ) == NULL );
		CHECK( contains( cnGetError(), "spring or wind" ) );
		remove( path );
	}
	CHECK( cnIsFosssimPath( "a/b.XML" ) && cnIsFosssimPath( "x.xml" ) && cnIsFosssimPath( "x.json" ) == false );
}

// ---------------------------------------------------------------------------------------------
// vertex-edge contacts

static cnGeometry polygon( const cnVec3* vertices, int count, double radius )
{
	cnGeometry g;
	memset( &g, 0, sizeof( g ) );
	g.type = cnShape_polygon;
	g.radius = radius;
	g.vertexCount = count;
	g.vertices = (cnVec3*)vertices;
	return g;
}

static cnTransform at( double x, double y, double angle )
{
	cnTransform xf = { cnV3( x, y, 0.0 ), cnQuatFromAxisAngle( cnV3( 0.0, 0.0, 1.0 ), angle ) };
	return xf;
}

// lcp/test01's triangles, radii 0.25 so the distances below are exact in binary. The upper
// triangle's lowest vertex sits a distance d above the lower one's top edge (y = 0 locally).
static void test_polygon_vertex_edge( void )
{
	static const cnVec3 down[3] = { { -1.0, 1.0, 0.0 }, { 1.0, 1.0, 0.0 }, { 0.0, 0.0, 0.0 } };
	static const cnVec3 up[3] = { { -1.0, 0.0, 0.0 }, { 1.0, 0.0, 0.0 }, { 0.0, -1.0, 0.0 } };
	cnGeometry a = polygon( down, 3, 0.25 );
	cnGeometry b = polygon( up, 3, 0.25 );
	cnManifold m;

	// gap 0.375 < 0.5: one vertex-edge pair, vertex 2 of A on edge 0 of B
	cnCollide( &a, at( 0.0, 2.375, 0.0 ), &b, at( 0.0, 2.0, 0.0 ), 0.0, &m );
	CHECK( m.pointCount == 1 );
	if ( m.pointCount == 1 )
	{
		// normal from A (above) to B: straight down; separation 0.375 - 0.5; the point on the edge
		CHECK( m.points[0].normal.x == 0.0 && m.points[0].normal.y == -1.0 );
		CHECK( m.normal.y == -1.0 );
		CHECK( m.points[0].separation == -0.125 );
		CHECK( m.points[0].point.x == 0.0 && m.points[0].point.y == 2.0 );
		CHECK( m.points[0].id == ( ( 2u << 15 ) | 0u ) );
	}

	// the same pair in the other order: the normal flips, nothing else changes
	cnCollide( &b, at( 0.0, 2.0, 0.0 ), &a, at( 0.0, 2.375, 0.0 ), 0.0, &m );
	CHECK( m.pointCount == 1 );
	if ( m.pointCount == 1 )
	{
		CHECK( m.points[0].normal.y == 1.0 && m.points[0].separation == -0.125 );
		CHECK( m.points[0].point.y == 2.0 );
		CHECK( m.points[0].id == ( ( 1u << 30 ) | ( 2u << 15 ) | 0u ) );
	}

	// exactly the sum of the radii apart: FOSSSim's test is strict, so no contact
	cnCollide( &a, at( 0.0, 2.5, 0.0 ), &b, at( 0.0, 2.0, 0.0 ), 0.0, &m );
	CHECK( m.pointCount == 0 );
	// within a speculative margin it is reported with its (positive) separation
	cnCollide( &a, at( 0.0, 2.5, 0.0 ), &b, at( 0.0, 2.0, 0.0 ), 0.25, &m );
	CHECK( m.pointCount == 1 && m.points[0].separation == 0.0 );

	// B turned 45 degrees about its centre: its lowest vertex points at A's top edge, 0.25 above it;
	// A's corners are 1.25 / sqrt(2) = 0.88 from B's lower edges, too far: one pair
	static const cnVec3 square[4] = { { -1.0, -1.0, 0.0 }, { 1.0, -1.0, 0.0 }, { 1.0, 1.0, 0.0 }, { -1.0, 1.0, 0.0 } };
	cnGeometry sa = polygon( square, 4, 0.25 );
	cnGeometry sb = polygon( square, 4, 0.25 );
	cnCollide( &sa, at( 0.0, 0.0, 0.0 ), &sb, at( 0.0, 1.25 + sqrt( 2.0 ), CN_PI / 4.0 ), 0.0, &m );
	CHECK( m.pointCount == 1 );
	if ( m.pointCount == 1 )
	{
		// normal from A to B: up; the rotation costs a few ulp (1e-15)
		CHECK_NEAR( m.points[0].normal.x, 0.0, 1e-15 );
		CHECK_NEAR( m.points[0].normal.y, 1.0, 1e-15 );
		CHECK( m.points[0].normal.z == 0.0 );
		CHECK_NEAR( m.points[0].separation, -0.25, 1e-14 );
		CHECK_NEAR( m.points[0].point.y, 1.0, 1e-15 );
	}

	// polygons do not collide with other shapes
	cnGeometry sphere;
	memset( &sphere, 0, sizeof( sphere ) );
	sphere.type = cnShape_sphere;
	sphere.radius = 1.0;
	cnCollide( &a, at( 0.0, 0.0, 0.0 ), &sphere, at( 0.0, 0.0, 0.0 ), 0.0, &m );
	CHECK( m.pointCount == 0 );
}

// A corner: B's vertex (-1, -1) sits off A's corner (1, 1) by (0.15, 0.2), 0.25 away. The closest point
// of both edges meeting at either corner is the corner itself, so FOSSSim's vertex-edge model gives
// four pairs (A's corner against B's bottom and left edges, B's corner against A's right and top
// edges), all with the normal (0.6, 0.8) from A to B and separation 0.25 - 0.5.
static void test_polygon_corner( void )
{
	static const cnVec3 square[4] = { { -1.0, -1.0, 0.0 }, { 1.0, -1.0, 0.0 }, { 1.0, 1.0, 0.0 }, { -1.0, 1.0, 0.0 } };
	cnGeometry a = polygon( square, 4, 0.25 );
	cnGeometry b = polygon( square, 4, 0.25 );
	cnManifold m;
	cnCollide( &a, at( 0.0, 0.0, 0.0 ), &b, at( 2.15, 2.2, 0.0 ), 0.0, &m );
	CHECK( m.pointCount == 4 );
	// scan order: A's vertex 2 against B's edges 0 and 3, then B's vertex 0 against A's edges 1 and 2
	static const uint32_t ids[4] = { ( 2u << 15 ) | 0u, ( 2u << 15 ) | 3u, ( 1u << 30 ) | 1u, ( 1u << 30 ) | 2u };
	for ( int i = 0; i < m.pointCount; ++i )
	{
		// 0.15 and 2.2 are not exact in binary: a few ulp of the unit offsets
		CHECK_NEAR( m.points[i].normal.x, 0.6, 1e-14 );
		CHECK_NEAR( m.points[i].normal.y, 0.8, 1e-14 );
		CHECK_NEAR( m.points[i].separation, -0.25, 1e-14 );
		CHECK( m.points[i].id == ids[i] );
	}
	// the points lie on the edge that gave each pair: on B's corner for A's vertex, on A's corner
	// for B's vertex
	CHECK_NEAR( m.points[0].point.x, 1.15, 1e-14 );
	CHECK_NEAR( m.points[2].point.x, 1.0, 1e-14 );
	CHECK_NEAR( m.points[2].point.y, 1.0, 1e-14 );
}

// More pairs than a manifold holds: a comb of T = CN_MAX_MANIFOLD_POINTS + 2 teeth over a slab,
// tooth k at height d (T - k) above the slab's top edge (d = 0.3 / T), all closer than the radii's
// sum 0.4. The CN_MAX_MANIFOLD_POINTS deepest (k = 2 .. T - 1) stay, reported in scan (vertex)
// order, with separations d (T - k) - 0.4.
static void test_polygon_many_points( void )
{
	enum
	{
		teeth = CN_MAX_MANIFOLD_POINTS + 2
	};
	double d = 0.3 / teeth;
	cnVec3 comb[teeth + 2];
	for ( int k = 0; k < teeth; ++k )
	{
		comb[k] = cnV3( (double)k, d * ( teeth - k ), 0.0 );
	}
	comb[teeth] = cnV3( teeth - 1.0, 3.0, 0.0 );
	comb[teeth + 1] = cnV3( 0.0, 3.0, 0.0 );
	static const cnVec3 slab[4] = { { -100.0, -0.5, 0.0 }, { 100.0, -0.5, 0.0 }, { 100.0, 0.5, 0.0 }, { -100.0, 0.5, 0.0 } };
	cnGeometry a = polygon( comb, teeth + 2, 0.2 );
	cnGeometry b = polygon( slab, 4, 0.2 );
	cnManifold m;
	cnCollide( &a, at( 0.0, 0.0, 0.0 ), &b, at( 0.0, -0.5, 0.0 ), 0.0, &m );
	CHECK( m.pointCount == CN_MAX_MANIFOLD_POINTS );
	for ( int i = 0; i < m.pointCount; ++i )
	{
		int k = 2 + i;
		CHECK( m.points[i].point.x == (double)k && m.points[i].point.y == 0.0 );
		// d is inexact: round-off of a few ulp
		CHECK_NEAR( m.points[i].separation, d * ( teeth - k ) - 0.4, 1e-15 );
		CHECK( m.points[i].normal.x == 0.0 && m.points[i].normal.y == -1.0 );
	}
	// the manifold normal is the deepest point's
	CHECK( m.normal.y == -1.0 );

	// the engine's stages take every point: cnCollidePair groups all T teeth (equal normals) into
	// manifolds of at most CN_MAX_MANIFOLD_POINTS, in scan order
	cnManifold all[CN_MAX_PAIR_MANIFOLDS];
	int count = cnCollidePair( &a, at( 0.0, 0.0, 0.0 ), &b, at( 0.0, -0.5, 0.0 ), 0.0, all, CN_MAX_PAIR_MANIFOLDS );
	CHECK( count == ( teeth + CN_MAX_MANIFOLD_POINTS - 1 ) / CN_MAX_MANIFOLD_POINTS );
	int k = 0;
	for ( int j = 0; j < count; ++j )
	{
		CHECK( all[j].pointCount >= 1 && all[j].pointCount <= CN_MAX_MANIFOLD_POINTS );
		for ( int i = 0; i < all[j].pointCount; ++i, ++k )
		{
			CHECK( all[j].points[i].point.x == (double)k );
			CHECK_NEAR( all[j].points[i].separation, d * ( teeth - k ) - 0.4, 1e-15 );
			CHECK( all[j].points[i].normal.y == -1.0 );
		}
		CHECK( all[j].normal.y == -1.0 );
	}
	CHECK( k == teeth );
}

// Points of different normals never share a manifold. A triangle (radius 0.25) stands on its lower
// vertex (0, 0.1) over a slab (radius 0.25) whose top edge is y = 0 and whose top-right corner (0.5, 0)
// lies under the triangle's right edge (0, 0.1)-(1, 1.1); radii sum 0.5. Two pairs are closer:
// - the vertex against the top edge, distance 0.1, normal from the slab (B) to the vertex (0, 1), so
//   (0, -1) from A to B;
// - the corner against the right edge, closest point t = ((0.5, -0.1) . (1, 1)) / 2 = 0.2, at
//   (0.2, 0.3), distance 0.3 sqrt 2 ~ 0.42, normal (1, -1) / sqrt 2 from the triangle to the corner.
// (The vertex against the slab's right edge, and the corner against the left edge, are 0.51 apart.)
// cnCollidePair keeps the two normals in two manifolds.
static void test_polygon_manifolds_by_normal( void )
{
	static const cnVec3 triangle[3] = { { 0.0, 0.1, 0.0 }, { 1.0, 1.1, 0.0 }, { -1.0, 1.1, 0.0 } };
	static const cnVec3 slab[4] = { { -3.0, -1.0, 0.0 }, { 0.5, -1.0, 0.0 }, { 0.5, 0.0, 0.0 }, { -3.0, 0.0, 0.0 } };
	cnGeometry a = polygon( triangle, 3, 0.25 );
	cnGeometry b = polygon( slab, 4, 0.25 );
	cnManifold all[CN_MAX_PAIR_MANIFOLDS];
	int count = cnCollidePair( &a, at( 0.0, 0.0, 0.0 ), &b, at( 0.0, 0.0, 0.0 ), 0.0, all, CN_MAX_PAIR_MANIFOLDS );
	CHECK( count == 2 );
	for ( int j = 0; j < count; ++j )
	{
		for ( int i = 0; i < all[j].pointCount; ++i )
		{
			CHECK( cnDot( all[j].points[i].normal, all[j].normal ) > 1.0 - 1e-12 );
		}
	}
	if ( count == 2 )
	{
		CHECK( all[0].pointCount == 1 && all[1].pointCount == 1 );
		CHECK_NEAR( all[0].normal.y, -1.0, 1e-15 );
		CHECK_NEAR( all[1].normal.x, sqrt( 0.5 ), 1e-15 );
		CHECK_NEAR( all[1].normal.y, -sqrt( 0.5 ), 1e-15 );
	}
}

// ---------------------------------------------------------------------------------------------
// force elements

// springtests/test02sym's spring: i = 0 at (1, 1) in a 2 x 2 square centred at (-4, 0), j = 1 at
// (-1, 1) in one centred at (4, 0): the ends (-3, 1) and (3, 1) are l = 6 apart, l0 = 4, k = 1:
// force k (l - l0) = 2 along +x on body 0 at (-3, 1) (torque r x F = (1, 1) x (2, 0) = -2) and
// the opposite on body 1 at (3, 1) (torque (-1, 1) x (-2, 0) = +2). The second spring anchors
// body 0's centre to the world point (-4, -3) with l0 = 0, k = 5: force 5 * 3 = 15 along -y.
static const char* s_springs =
	"<scene>\n<rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
	"<rigidbodyvertex x=\"-5\" y=\"-1\" m=\"1\"/><rigidbodyvertex x=\"-5\" y=\"1\" m=\"1\"/>\n"
	"<rigidbodyvertex x=\"-3\" y=\"1\" m=\"1\"/><rigidbodyvertex x=\"-3\" y=\"-1\" m=\"1\"/>\n"
	"<rigidbodyvertex x=\"3\" y=\"-1\" m=\"1\"/><rigidbodyvertex x=\"3\" y=\"1\" m=\"1\"/>\n"
	"<rigidbodyvertex x=\"5\" y=\"1\" m=\"1\"/><rigidbodyvertex x=\"5\" y=\"-1\" m=\"1\"/>\n"
	"<rigidbody p=\"0\" p=\"1\" p=\"2\" p=\"3\" vx=\"0.0\" vy=\"0.0\" omega=\"0.0\" r=\"0.1\"/>\n"
	"<rigidbody p=\"4\" p=\"5\" p=\"6\" p=\"7\" vx=\"0.0\" vy=\"0.0\" omega=\"0.0\" r=\"0.1\"/>\n"
	"<rigidbodyspringforce i=\"0\" pix=\"1.0\" piy=\"1.0\" j=\"1\" pjx=\"-1.0\" pjy=\"1.0\" k=\"1.0\" l0=\"4.0\"/>\n"
	"<rigidbodyspringforce j=\"0\" pjx=\"0\" pjy=\"0\" i=\"-1\" pix=\"-4\" piy=\"-3\" k=\"5.0\" l0=\"0\"/>\n"
	"<rigidbodyspringcolor spring=\"1\" r=\"1\" g=\"0\" b=\"0\"/>\n"
	"</scene>\n";

static void test_spring_forces( void )
{
	cnFosssimScene* f = tfLoadText( s_springs );
	CHECK( f != NULL );
	if ( f == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
		return;
	}
	CHECK( f->springCount == 2 && cnFosssim_HasForceElements( f ) );
	CHECK( f->display.hasSpringColor[1] && f->display.hasSpringColor[0] == false );
	CHECK( f->springs[1].indexI == -1 && f->springs[1].bodyI.index < 0 );
	CHECK( cnFosssim_ApplyForces( f ) );
	const cnBody* b0 = f->scene->world->bodies + f->bodies[0].index;
	const cnBody* b1 = f->scene->world->bodies + f->bodies[1].index;
	// small integers throughout: exact
	CHECK( b0->force.x == 2.0 && b0->force.y == -15.0 && b0->force.z == 0.0 );
	CHECK( b0->torque.x == 0.0 && b0->torque.y == 0.0 && b0->torque.z == -2.0 );
	CHECK( b1->force.x == -2.0 && b1->force.y == 0.0 );
	CHECK( b1->torque.z == 2.0 );
	cnDestroyFosssim( f );
}

// Wind on a 2 x 2 unit-mass square at rest, wind (1, 0), beta 1, 2 points per edge: each vertical
// edge has two samples of weight beta * 1 feeling (w . n) n = (1, 0): (4, 0) in all, and the
// samples at y = +-0.5 cancel their torques. The horizontal edges' normals are (0, +-1): nothing.
static const char* s_wind = "<scene>\n<rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
							"<rigidbodyvertex x=\"-1\" y=\"-1\" m=\"1\"/><rigidbodyvertex x=\"-1\" y=\"1\" m=\"1\"/>\n"
							"<rigidbodyvertex x=\"1\" y=\"1\" m=\"1\"/><rigidbodyvertex x=\"1\" y=\"-1\" m=\"1\"/>\n"
							"<rigidbody p=\"0\" p=\"1\" p=\"2\" p=\"3\" vx=\"0.0\" vy=\"0.0\" omega=\"0.0\" r=\"0.1\"/>\n"
							"<rigidbodywindforce beta=\"1.0\" fx=\"1.0\" fy=\"0.0\" pointsperedge=\"2\" />\n"
							"</scene>\n";

static void test_wind_force( void )
{
	cnFosssimScene* f = tfLoadText( s_wind );
	CHECK( f != NULL );
	if ( f == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
		return;
	}
	CHECK( cnFosssim_ApplyForces( f ) );
	const cnBody* b = f->scene->world->bodies + f->bodies[0].index;
	CHECK( b->force.x == 4.0 && b->force.y == 0.0 );
	CHECK( b->torque.z == 0.0 );

	// moving with the wind there is no force; moving at 3 against it, 4 (1 - 3) = -8
	cnBody_SetLinearVelocity( f->scene->world, f->bodies[0], cnV3( 3.0, 0.0, 0.0 ) );
	cnWorld* world = f->scene->world;
	cnBody* mb = world->bodies + f->bodies[0].index;
	mb->force = cnVec3_zero;
	mb->torque = cnVec3_zero;
	CHECK( cnFosssim_ApplyForces( f ) );
	CHECK( mb->force.x == -8.0 && mb->force.y == 0.0 );
	cnDestroyFosssim( f );
}

// ---------------------------------------------------------------------------------------------
// with the velocity-level methods

// Applies the force elements and steps once; a failed step fails the case (after printing why).
static bool stepOnce( cnFosssimScene* f, const char* what )
{
	cnFosssim_ApplyForces( f );
	if ( cnWorld_Step( f->scene->world, f->scene->timeStep ) )
	{
		return true;
	}
	fprintf( stderr, "  %s: step failed: %s\n", what, cnGetError() );
	CHECK( false );
	return false;
}

// Wind: the square above reaches the wind speed. With force 4 (1 - v) on mass 4, symplectic Euler
// gives v_n+1 = v_n + h (1 - v_n), so v_n = 1 - (1 - h)^n exactly up to round-off.
static void test_wind_trajectory( void )
{
	cnFosssimScene* f = tfLoadText( s_wind );
	CHECK( f != NULL );
	if ( f == NULL )
	{
		return;
	}
	double h = f->scene->timeStep;
	int n = 0;
	for ( ; n < 300; ++n )
	{
		if ( stepOnce( f, "wind trajectory" ) == false )
		{
			break;
		}
	}
	if ( n == 300 )
	{
		double v = cnBody_GetLinearVelocity( f->scene->world, f->bodies[0] ).x;
		// 300 steps of a contraction by (1 - h): round-off stays near 300 ulp
		CHECK_NEAR( v, 1.0 - pow( 1.0 - h, 300.0 ), 1e-12 );
		CHECK_NEAR( cnBody_GetAngularVelocity( f->scene->world, f->bodies[0] ).z, 0.0, 1e-12 );
	}
	cnDestroyFosssim( f );
}

// lcp/test01: "Two triangles collide. Both triangles should stick together and move downward with
// no rotation." Frictionless inelastic impact of equal masses 3 with the contact normal through
// both centres: momentum gives both (0, -1/2), and no torque acts.
static void test_lcp_triangles_stick( void )
{
	cnFosssimScene* f = tfOpenReference( FOSSSIM_DIR "/t3m2/lcp/test01.xml" );
	if ( f == NULL )
	{
		return;
	}
	// the first half has the impact (at about 0.8 s), the second shows them moving together
	int steps = (int)( f->scene->duration / f->scene->timeStep + 0.5 );
	double midGap = 0.0;
	int n = 0;
	for ( ; n < steps && stepOnce( f, "lcp/test01 trajectory" ); ++n )
	{
		if ( n == steps / 2 )
		{
			midGap = centerOf( f, 0 ).y - centerOf( f, 1 ).y;
		}
	}
	if ( n == steps )
	{
		for ( int i = 0; i < 2; ++i )
		{
			cnVec3 v = cnBody_GetLinearVelocity( f->scene->world, f->bodies[i] );
			// a 1 x 1 LCP solved directly: round-off only
			CHECK_NEAR( v.x, 0.0, 1e-12 );
			CHECK_NEAR( v.y, -0.5, 1e-9 );
			CHECK_NEAR( cnBody_GetAngularVelocity( f->scene->world, f->bodies[i] ).z, 0.0, 1e-12 );
			CHECK_NEAR( centerOf( f, i ).x, 0.0, 1e-12 );
		}
		// stuck together: the centres keep their distance over the second second (round-off of
		// 100 steps of equal velocities)
		CHECK_NEAR( centerOf( f, 0 ).y - centerOf( f, 1 ).y, midGap, 1e-9 );
	}
	cnDestroyFosssim( f );
}

// velocityprojection/test02: "A stable arch. All bodies should remain motionless (up to a tiny
// amount of drift over time)." Gravity pulls each block by g h = 0.01 m/s per step and the
// projection must take all of it away: no block may move more than a few such steps' worth.
static void test_vp_arch_motionless( void )
{
	cnFosssimScene* f = tfOpenReference( FOSSSIM_DIR "/t3m2/velocityprojection/test02.xml" );
	if ( f == NULL )
	{
		return;
	}
	cnVec3 start[64];
	int count = f->bodyCount < 64 ? f->bodyCount : 64;
	for ( int i = 0; i < count; ++i )
	{
		start[i] = centerOf( f, i );
	}
	int steps = (int)( f->scene->duration / f->scene->timeStep + 0.5 );
	int n = 0;
	for ( ; n < steps && stepOnce( f, "velocityprojection/test02 trajectory" ); ++n )
	{
	}
	if ( n == steps )
	{
		double drift = 0.0;
		for ( int i = 0; i < count; ++i )
		{
			drift = fmax( drift, cnLength( cnSub( centerOf( f, i ), start[i] ) ) );
		}
		printf( "  arch: largest drift %.3g m after %g s\n", drift, f->scene->duration );
		// "a tiny amount of drift": one step of free fall is g h^2 = 1e-5 m; allow 1 mm in 1 s
		CHECK( drift < 1e-3 );
	}
	cnDestroyFosssim( f );
}

// ---------------------------------------------------------------------------------------------
// the oracle values in the reference files' comments

// A matrix printed in a FOSSSim file's leading comment: "LABEL = a b c" and then rows of numbers
// under it, up to an empty line. Cells are kept as printed.
typedef struct printedMatrix
{
	int rows, cols;
	char cell[8][32][24];
} printedMatrix;

static bool readPrinted( const char* path, const char* label, printedMatrix* p )
{
	memset( p, 0, sizeof( *p ) );
	FILE* file = fopen( path, "r" );
	if ( file == NULL )
	{
		return false;
	}
	char line[1024];
	bool inside = false;
	size_t labelLength = strlen( label );
	while ( fgets( line, sizeof( line ), file ) != NULL && strstr( line, "-->" ) == NULL )
	{
		char* text = line;
		while ( *text == ' ' || *text == '\t' )
		{
			text += 1;
		}
		if ( inside == false )
		{
			if ( strncmp( text, label, labelLength ) != 0 || strncmp( text + labelLength, " = ", 3 ) != 0 )
			{
				continue;
			}
			inside = true;
			text += labelLength + 3;
		}
		else if ( strchr( text, '=' ) != NULL || *text == '\n' || *text == '\r' || *text == 0 )
		{
			break;
		}
		int cols = 0;
		for ( char* token = strtok( text, " \t\r\n" ); token != NULL && cols < 32; token = strtok( NULL, " \t\r\n" ) )
		{
			snprintf( p->cell[p->rows][cols++], sizeof( p->cell[0][0] ), "%s", token );
		}
		if ( cols == 0 || p->rows == 8 )
		{
			break;
		}
		p->cols = cols > p->cols ? cols : p->cols;
		p->rows += 1;
	}
	fclose( file );
	return p->rows > 0;
}

// True when value prints as the file printed it (C++ streams' 6 significant digits, as %g); a zero
// of either sign matches "0" and "-0".
static bool printsAs( double value, const char* printed )
{
	char mine[32];
	snprintf( mine, sizeof( mine ), "%g", value );
	if ( strcmp( mine, printed ) == 0 )
	{
		return true;
	}
	bool zero = strcmp( printed, "0" ) == 0 || strcmp( printed, "-0" ) == 0;
	return zero && value == 0.0;
}

// Checks a captured matrix (column-major, rows x cols) against the printed one, digit for digit.
static void checkPrinted( const char* what, const double* x, int rows, int cols, const printedMatrix* p )
{
	CHECK( p->rows == rows );
	for ( int i = 0; i < rows && i < p->rows; ++i )
	{
		for ( int j = 0; j < cols; ++j )
		{
			bool same = printsAs( x[i + j * rows], p->cell[i][j] );
			if ( same == false )
			{
				fprintf( stderr, "  %s(%d, %d) = %.9g, the file prints %s\n", what, i, j, x[i + j * rows],
						 p->cell[i][j] );
			}
			CHECK( same );
		}
	}
}

// Steps a reference scene until its first step with contacts and returns the captured system
// (false, after printing why, when the file is absent or the method is not available).
static bool captureFirstContact( const char* path, cnContactSystem* dump )
{
	memset( dump, 0, sizeof( *dump ) );
	cnFosssimScene* f = tfOpenReference( path );
	if ( f == NULL )
	{
		return false;
	}
	int steps = (int)( f->scene->duration / f->scene->timeStep + 0.5 );
	bool ok = cnWorld_CaptureContactSystem( f->scene->world, dump );
	for ( int n = 0; n < steps && dump->captured == false && ok; ++n )
	{
		cnFosssim_ApplyForces( f );
		ok = cnWorld_Step( f->scene->world, f->scene->timeStep );
	}
	if ( ok == false )
	{
		fprintf( stderr, "  %s: step failed: %s\n", path, cnGetError() );
		CHECK( false );
	}
	CHECK( ok == false || dump->captured );
	cnDestroyFosssim( f );
	return ok && dump->captured;
}

// lcp/test01.xml prints A = 0.666667 and b = -1 at the first contact of the two triangles (A = 1/3 +
// 1/3: the contact normal passes through both centres of mass); the LCP's solution is 1.5.
// lcp/test03.xml prints a 4 x 4 A and b = -1 four times; every lambda is 1.5.
static void test_lcp_oracles( void )
{
	const char* files[2] = { FOSSSIM_DIR "/t3m2/lcp/test01.xml", FOSSSIM_DIR "/t3m2/lcp/test03.xml" };
	for ( int k = 0; k < 2; ++k )
	{
		cnContactSystem dump;
		if ( captureFirstContact( files[k], &dump ) == false )
		{
			continue;
		}
		printedMatrix A, b;
		CHECK( readPrinted( files[k], "A", &A ) && readPrinted( files[k], "b", &b ) );
		CHECK( dump.m == A.rows );
		if ( dump.m == A.rows )
		{
			checkPrinted( "A", dump.A, dump.m, dump.m, &A );
			checkPrinted( "b", dump.b, dump.m, 1, &b );
			double z[8] = { 0.0 };
			CHECK( dump.m <= 8 && cnSolveLcpLemke( dump.m, dump.A, dump.b, z, 1000 ) == cnLcp_ok );
			CHECK( dump.lambda != NULL );
			for ( int i = 0; i < dump.m && i < 8; ++i )
			{
				// a pivoting solve of a small well-conditioned system: round-off only; the capture
				// carries the same solution
				CHECK_NEAR( z[i], 1.5, 1e-9 );
				CHECK( dump.lambda != NULL && dump.lambda[i] == z[i] );
			}
		}
		cnContactSystem_Free( &dump );
	}
}

// velocityprojection/test01.xml (the table on four legs) and test05.xml (two squares) print M,
// -M qdot and N at the first contact. The files' N has 3 columns per contact, the last two thirds
// zero (an artefact of the reference program's matrix size): the contact columns are the nonzero
// ones, matched here as a set (Cairn's contact order need not be FOSSSim's).
static void test_projection_oracles( void )
{
	const char* files[2] = { FOSSSIM_DIR "/t3m2/velocityprojection/test01.xml",
							 FOSSSIM_DIR "/t3m2/velocityprojection/test05.xml" };
	for ( int k = 0; k < 2; ++k )
	{
		cnContactSystem dump;
		if ( captureFirstContact( files[k], &dump ) == false )
		{
			continue;
		}
		printedMatrix M, q, N;
		CHECK( readPrinted( files[k], "M", &M ) && readPrinted( files[k], "-M \\dot q", &q ) &&
			   readPrinted( files[k], "N", &N ) );
		CHECK( dump.n == M.rows && N.rows == dump.n );
		if ( dump.n != M.rows || N.rows != dump.n )
		{
			cnContactSystem_Free( &dump );
			continue;
		}
		checkPrinted( "M", dump.M, dump.n, dump.n, &M );
		checkPrinted( "-M qdot", dump.minusMqdot, dump.n, 1, &q );

		// the reference's contact columns: the nonzero ones
		int reference = 0;
		bool used[32] = { false };
		bool nonzero[32] = { false };
		for ( int j = 0; j < N.cols; ++j )
		{
			for ( int i = 0; i < N.rows; ++i )
			{
				nonzero[j] = nonzero[j] || printsAs( 0.0, N.cell[i][j] ) == false;
			}
			reference += nonzero[j] ? 1 : 0;
		}
		CHECK( N.cols == 3 * reference );
		// each captured column is a distinct reference column, digit for digit
		for ( int c = 0; c < dump.m; ++c )
		{
			int match = -1;
			for ( int j = 0; j < N.cols && match < 0; ++j )
			{
				bool same = nonzero[j] && used[j] == false;
				for ( int i = 0; i < dump.n && same; ++i )
				{
					same = printsAs( dump.N[i + c * dump.n], N.cell[i][j] );
				}
				match = same ? j : -1;
			}
			if ( match < 0 )
			{
				fprintf( stderr, "  %s: captured column %d is not in the file's N\n", files[k], c );
			}
			CHECK( match >= 0 );
			if ( match >= 0 )
			{
				used[match] = true;
			}
		}
		// every reference column is captured: the table's eight leg contacts belong to one pair of
		// shapes, whose points fill two manifolds of the same normal
		CHECK( dump.m == reference );
		cnContactSystem_Free( &dump );
	}
}

int main( void )
{
	RUN_TEST( test_load_reference_scenes );
	RUN_TEST( test_mass_properties );
	RUN_TEST( test_reference_mass_matrices );
	RUN_TEST( test_errors );
	RUN_TEST( test_polygon_vertex_edge );
	RUN_TEST( test_polygon_corner );
	RUN_TEST( test_polygon_many_points );
	RUN_TEST( test_polygon_manifolds_by_normal );
	RUN_TEST( test_spring_forces );
	RUN_TEST( test_wind_force );
	RUN_TEST( test_wind_trajectory );
	RUN_TEST( test_lcp_triangles_stick );
	RUN_TEST( test_vp_arch_motionless );
	RUN_TEST( test_lcp_oracles );
	RUN_TEST( test_projection_oracles );
	return TEST_SUMMARY();
}
