// SPDX-License-Identifier: MIT
// Derived quantities at the API and in the loaders: sizes, densities, masses and forces whose
// products leave the double range (or come within the square root of its ends) are refused when they
// are given, with a message that says which quantity and why, never set to a fallback or found at the
// first step; plane normals of any finite non-zero length are normalised; the scene warnings.
#define _POSIX_C_SOURCE 200809L

#include "cairn/cairn.h"
#include "cairn/scene.h"
#include "test.h"
#include "test_fosssim.h"

#include <string.h>

static bool contains( const char* text, const char* part )
{
	bool found = text != NULL && strstr( text, part ) != NULL;
	if ( found == false )
	{
		fprintf( stderr, "  expected \"%s\" in \"%s\"\n", part, text != NULL ? text : "(null)" );
	}
	return found;
}

static cnWorld* newWorld( void )
{
	cnWorldDef wd = cnDefaultWorldDef();
	return cnCreateWorld( &wd );
}

static cnBodyId newBody( cnWorld* world, cnBodyType type )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = type;
	return cnCreateBody( world, &bd );
}

static cnShapeDef sphereDef( double radius )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_sphere;
	sd.radius = radius;
	return sd;
}

// A shape whose mass or inertia underflows or overflows is refused, and the body is left as it was
// (no shape, the unit point mass of a body without mass) instead of getting 1 kg silently.
static void test_shape_mass_range( void )
{
	cnWorld* world = newWorld();
	cnBodyId body = newBody( world, cnBody_dynamic );

	cnShapeDef sd = sphereDef( 1e-300 );
	CHECK( cnCreateShape( world, body, &sd ).index < 0 );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );
	CHECK( contains( cnGetError(), "sphere size gives a mass that is zero or not finite: 0 kg (underflow)" ) );
	CHECK( cnBody_GetShapeCount( world, body ) == 0 );

	sd = sphereDef( 1e200 );
	CHECK( cnCreateShape( world, body, &sd ).index < 0 );
	CHECK( contains( cnGetError(), "mass that is zero or not finite: inf kg (overflow)" ) );

	// finite, but within the square root of the double range's ends: the step's products overflow
	sd = sphereDef( 1e40 );
	CHECK( cnCreateShape( world, body, &sd ).index < 0 );
	CHECK( contains( cnGetError(), "moment of inertia that is too large" ) );
	sd = sphereDef( 1e-40 );
	CHECK( cnCreateShape( world, body, &sd ).index < 0 );
	CHECK( contains( cnGetError(), "moment of inertia that is too small" ) );

	cnShapeDef box = cnDefaultShapeDef();
	box.type = cnShape_box;
	box.halfExtents = cnV3( 1e120, 1e120, 1e120 );
	CHECK( cnCreateShape( world, body, &box ).index < 0 );
	CHECK( contains( cnGetError(), "box size gives a mass that is zero or not finite" ) );
	box.halfExtents = cnV3( 1e-200, 0.5, 0.5 );
	CHECK( cnCreateShape( world, body, &box ).index < 0 );
	CHECK( contains( cnGetError(), "half extents 1e-200, 0.5, 0.5" ) );

	cnShapeDef round = cnDefaultShapeDef();
	round.type = cnShape_capsule;
	round.radius = 0.5;
	round.halfHeight = 1e200;
	CHECK( cnCreateShape( world, body, &round ).index < 0 );
	CHECK( contains( cnGetError(), "capsule size gives a mass that is too large" ) );
	round.type = cnShape_cylinder;
	round.radius = 1e-200;
	round.halfHeight = 0.5;
	CHECK( cnCreateShape( world, body, &round ).index < 0 );
	CHECK( contains( cnGetError(), "cylinder size gives a mass that is zero or not finite" ) );

	CHECK( cnBody_GetShapeCount( world, body ) == 0 );
	CHECK( cnBody_GetMass( world, body ) == 1.0 );

	// a density that makes the mass overflow
	cnMaterialDef heavy = cnDefaultMaterialDef();
	heavy.density = 1e308;
	sd = sphereDef( 1.0 );
	sd.material = cnCreateMaterial( world, &heavy );
	CHECK( cnCreateShape( world, body, &sd ).index < 0 );
	CHECK( contains( cnGetError(), "inf kg (overflow) from radius 1 at density 1e+308 kg/m^3" ) );

	// sizes in range work, down to micrometres and up to kilometres
	sd = sphereDef( 1e-6 );
	CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
	cnBodyId big = newBody( world, cnBody_dynamic );
	sd = sphereDef( 1e3 );
	CHECK( cnCreateShape( world, big, &sd ).index >= 0 );
	CHECK( cnGetErrorCode() == cnError_none );
	cnDestroyWorld( world );
}

// Static and kinematic bodies do not use their mass: their sizes are checked at unit density (the
// volume and its second moment), which still catches sizes whose squares and cubes leave the range.
static void test_static_size_range( void )
{
	cnWorld* world = newWorld();
	cnBodyId ground = newBody( world, cnBody_static );
	cnShapeDef box = cnDefaultShapeDef();
	box.type = cnShape_box;
	box.halfExtents = cnV3( 1e200, 1e200, 1.0 );
	CHECK( cnCreateShape( world, ground, &box ).index < 0 );
	CHECK( contains( cnGetError(), "box size gives a volume that is zero or not finite: inf m^3" ) );
	cnShapeDef sd = sphereDef( 1e-300 );
	CHECK( cnCreateShape( world, newBody( world, cnBody_kinematic ), &sd ).index < 0 );
	CHECK( contains( cnGetError(), "volume that is zero or not finite: 0 m^3" ) );
	// a huge floor that stays in range is fine, and so is a massless (zero density) material
	box.halfExtents = cnV3( 1e6, 1e6, 1.0 );
	CHECK( cnCreateShape( world, ground, &box ).index >= 0 );
	cnMaterialDef air = cnDefaultMaterialDef();
	air.density = 0.0;
	sd = sphereDef( 1.0 );
	sd.material = cnCreateMaterial( world, &air );
	CHECK( cnCreateShape( world, ground, &sd ).index >= 0 );
	cnDestroyWorld( world );
}

// The body's totals: shapes far apart (the parallel axis term), masses that add up beyond the range,
// and what a shape's removal leaves.
static void test_body_mass_range( void )
{
	cnWorld* world = newWorld();
	cnBodyId body = newBody( world, cnBody_dynamic );
	cnShapeDef sd = sphereDef( 0.5 );
	CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
	double mass = cnBody_GetMass( world, body );

	sd.position = cnV3( 1e100, 0.0, 0.0 );
	CHECK( cnCreateShape( world, body, &sd ).index < 0 );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );
	CHECK( contains( cnGetError(), "with this shape (at 1e+100, 0, 0) the body's moment of inertia is too large" ) );
	sd.position = cnV3( 0.0, 1e200, 0.0 );
	CHECK( cnCreateShape( world, body, &sd ).index < 0 );
	CHECK( contains( cnGetError(), "the body's extent is not finite" ) );
	CHECK( cnBody_GetShapeCount( world, body ) == 1 );
	CHECK( cnBody_GetMass( world, body ) == mass );

	// two shapes of 9.2e149 kg each: each is in range, their sum is not
	cnMaterialDef dense = cnDefaultMaterialDef();
	dense.density = 2.2e152;
	cnBodyId heavy = newBody( world, cnBody_dynamic );
	sd = sphereDef( 0.1 );
	sd.material = cnCreateMaterial( world, &dense );
	CHECK( cnCreateShape( world, heavy, &sd ).index >= 0 );
	CHECK( cnCreateShape( world, heavy, &sd ).index < 0 );
	CHECK( contains( cnGetError(), "the body's mass is too large" ) );

	// a mass override spread over a light, wide shape once the heavy, small one is gone
	cnMaterialDef lead = cnDefaultMaterialDef();
	lead.density = 1e12;
	cnMaterialDef foam = cnDefaultMaterialDef();
	foam.density = 1e-6;
	cnBodyId both = newBody( world, cnBody_dynamic );
	cnShapeDef core = sphereDef( 1.0 );
	core.material = cnCreateMaterial( world, &lead );
	cnShapeDef shell = sphereDef( 1e3 );
	shell.material = cnCreateMaterial( world, &foam );
	cnShapeId coreId = cnCreateShape( world, both, &core );
	CHECK( cnCreateShape( world, both, &shell ).index >= 0 );
	CHECK( cnBody_SetMass( world, both, 1e147 ) );
	CHECK( cnDestroyShape( world, coreId ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );
	CHECK( contains( cnGetError(), "without this shape the body's moment of inertia is too large" ) );
	CHECK( cnBody_GetShapeCount( world, both ) == 2 );
	CHECK( cnBody_GetMass( world, both ) == 1e147 );
	cnDestroyWorld( world );
}

// cnBody_SetMass and cnBody_SetMassData: masses out of range, and inertias that the override scales
// out of range, are refused and leave the body as it was.
static void test_mass_override_range( void )
{
	cnWorld* world = newWorld();
	cnBodyId body = newBody( world, cnBody_dynamic );
	cnShapeDef sd = sphereDef( 0.01 );
	CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
	double mass = cnBody_GetMass( world, body );
	cnMat3 inertia = cnBody_GetLocalInertia( world, body );

	CHECK( cnBody_SetMass( world, body, 1e-300 ) == false );
	CHECK( contains( cnGetError(), "mass 1e-300 kg is out of range" ) );
	CHECK( cnBody_SetMass( world, body, 1e-148 ) == false );
	CHECK( contains( cnGetError(), "with mass 1e-148 kg the body's moment of inertia is too small" ) );
	CHECK( cnBody_SetMass( world, body, 1e200 ) == false );
	CHECK( cnBody_GetMass( world, body ) == mass );
	CHECK( cnBody_GetLocalInertia( world, body ).cx.x == inertia.cx.x );

	cnBodyId box = newBody( world, cnBody_dynamic );
	cnShapeDef bd = cnDefaultShapeDef();
	bd.type = cnShape_box;
	bd.halfExtents = cnV3( 100.0, 100.0, 100.0 );
	CHECK( cnCreateShape( world, box, &bd ).index >= 0 );
	CHECK( cnBody_SetMass( world, box, 1e149 ) == false );
	CHECK( contains( cnGetError(), "moment of inertia is too large" ) );
	CHECK( cnBody_SetMass( world, box, 1e140 ) );

	// mass data: tiny but representable moments are accepted (their determinant underflows, which
	// the positive definiteness test used to take for singular) and inverted without loss
	CHECK( cnBody_SetMassData( world, body, 1e-100, cnVec3_zero, cnDiagonal( 1e-120, 2e-120, 4e-120 ) ) );
	CHECK( cnBody_ApplyLinearImpulse( world, body, cnV3( 0.0, 1e-100, 0.0 ), cnV3( 1.0, 0.0, 0.0 ) ) );
	// torque impulse (1, 0, 0) x (0, 1e-100, 0) = (0, 0, 1e-100) about z: w = 1e-100 / 4e-120
	CHECK_NEAR( cnBody_GetAngularVelocity( world, body ).z / 2.5e19, 1.0, 1e-12 );
	CHECK( cnBody_SetMassData( world, body, 1e-300, cnVec3_zero, cnDiagonal( 1, 1, 1 ) ) == false );
	CHECK( contains( cnGetError(), "out of range" ) );
	CHECK( cnBody_SetMassData( world, body, 1.0, cnVec3_zero, cnDiagonal( 1e-200, 1e-200, 1e-200 ) ) == false );
	CHECK( contains( cnGetError(), "the body's moment of inertia is too small" ) );
	CHECK( cnBody_SetMassData( world, body, 1.0, cnVec3_zero, cnDiagonal( INFINITY, 1, 1 ) ) == false );
	CHECK( contains( cnGetError(), "inertia must be finite" ) );
	cnDestroyWorld( world );
}

// Large and small bodies in range rotate as they should: their inverse inertia is computed scaled
// where the determinant (a product of three moments) leaves the double range; before, a sphere of
// 1e-25 m got a zero inverse (it could not turn) and a body of 1e24 m a NaN one.
static void test_inverse_inertia_scaled( void )
{
	double radii[2] = { 1e-25, 1e24 };
	for ( int i = 0; i < 2; ++i )
	{
		cnWorld* world = newWorld();
		cnBodyId body = newBody( world, cnBody_dynamic );
		cnShapeDef sd = sphereDef( radii[i] );
		CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
		double moment = cnBody_GetLocalInertia( world, body ).cz.z;
		double r = radii[i];
		// an impulse P along y at (r, 0, 0): angular velocity r P / I about z
		double impulse = moment / r;
		CHECK( cnBody_ApplyLinearImpulse( world, body, cnV3( 0.0, impulse, 0.0 ), cnV3( r, 0.0, 0.0 ) ) );
		CHECK_NEAR( cnBody_GetAngularVelocity( world, body ).z, 1.0, 1e-12 );
		CHECK( cnWorld_Step( world, 0.01 ) );
		CHECK_NEAR( cnBody_GetAngularVelocity( world, body ).z, 1.0, 1e-12 );
		cnDestroyWorld( world );
	}
}

// Plane normals: any finite non-zero length is normalised (scaled first, so neither overflow nor
// underflow loses it); the offset is metres along the unit normal; only zero or non-finite fails.
static void test_plane_normals( void )
{
	cnWorld* world = newWorld();
	cnBodyId ground = newBody( world, cnBody_static );
	double s = sqrt( 0.5 );
	struct
	{
		cnVec3 normal;
		cnVec3 unit;
	} cases[] = {
		{ { 1e300, 1e300, 0.0 }, { s, s, 0.0 } },
		{ { 1e-200, 0.0, 1e-200 }, { s, 0.0, s } },
		{ { 0.0, -1e-310, 0.0 }, { 0.0, -1.0, 0.0 } },
		{ { 0.0, 0.0, 2.0 }, { 0.0, 0.0, 1.0 } },
		{ { 0.0, 0.0, 1.0 }, { 0.0, 0.0, 1.0 } },
	};
	for ( int i = 0; i < (int)( sizeof( cases ) / sizeof( cases[0] ) ); ++i )
	{
		cnShapeDef plane = cnDefaultShapeDef();
		plane.type = cnShape_plane;
		plane.normal = cases[i].normal;
		plane.offset = 0.5;
		cnShapeId id = cnCreateShape( world, ground, &plane );
		CHECK( id.index >= 0 );
		cnShapeDef got = cnShape_GetDef( world, id );
		CHECK_NEAR( got.normal.x, cases[i].unit.x, 1e-15 );
		CHECK_NEAR( got.normal.y, cases[i].unit.y, 1e-15 );
		CHECK_NEAR( got.normal.z, cases[i].unit.z, 1e-15 );
		// metres along the unit normal, whatever the given normal's length
		CHECK( got.offset == 0.5 );
	}
	// and through the loader, which leaves the normalising to the library
	cnScene* scene = cnLoadSceneFromString( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"ground\", \"type\": "
											"\"static\", \"shapes\": [ { \"type\": \"plane\", \"normal\": "
											"[1e300, 1e300, 0], \"offset\": -1 } ] } ] }",
											"huge_normal.json" );
	CHECK( scene != NULL );
	if ( scene != NULL )
	{
		cnShapeId shape;
		CHECK( cnBody_GetShapes( scene->world, cnWorld_FindBody( scene->world, "ground" ), &shape, 1 ) == 1 );
		cnShapeDef got = cnShape_GetDef( scene->world, shape );
		CHECK_NEAR( got.normal.x, s, 1e-15 );
		CHECK_NEAR( got.normal.y, s, 1e-15 );
		CHECK( got.normal.z == 0.0 && got.offset == -1.0 );
		cnDestroyScene( scene );
	}

	cnShapeDef plane = cnDefaultShapeDef();
	plane.type = cnShape_plane;
	plane.normal = cnVec3_zero;
	CHECK( cnCreateShape( world, ground, &plane ).index < 0 );
	CHECK( contains( cnGetError(), "plane normal must be finite and not zero" ) );
	plane.normal = cnV3( INFINITY, 0.0, 0.0 );
	CHECK( cnCreateShape( world, ground, &plane ).index < 0 );
	cnDestroyWorld( world );
}

// A ball resting on a plane whose normal is tiny but valid, [1e-200, 0, 1e-200], with gravity along
// the plane's inward normal: the scene loads and the ball stays where it is, touching the plane.
static void test_tiny_normal_simulates( void )
{
	const char* json = "{ \"cairn\": 1, \"gravity\": [-6.936717523, 0, -6.936717523], \"sleep\": false,"
					   "  \"bodies\": ["
					   "    { \"name\": \"ground\", \"type\": \"static\","
					   "      \"shapes\": [ { \"type\": \"plane\", \"normal\": [1e-200, 0, 1e-200], \"offset\": 0.25 } ] },"
					   "    { \"name\": \"ball\", \"position\": [0.53033008589, 0, 0.53033008589],"
					   "      \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.5 } ] } ] }";
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		cnScene* scene = cnLoadSceneFromString( json, "tiny_normal.json" );
		CHECK( scene != NULL );
		if ( scene == NULL )
		{
			fprintf( stderr, "  %s\n", cnGetError() );
			return;
		}
		cnScene* run = scene;
		// the same scene under every method (a fresh world each)
		if ( m != cnMethod_impulse )
		{
			cnDestroyScene( scene );
			char path[] = "/tmp/cairn_tiny_normal_XXXXXX";
			int fd = mkstemp( path );
			CHECK( fd >= 0 );
			if ( fd < 0 )
			{
				return;
			}
			CHECK( write( fd, json, strlen( json ) ) == (ssize_t)strlen( json ) );
			close( fd );
			run = cnLoadSceneWithMethod( path, (cnMethod)m );
			remove( path );
			CHECK( run != NULL );
			if ( run == NULL )
			{
				fprintf( stderr, "  %s\n", cnGetError() );
				continue;
			}
		}
		cnWorld* world = run->world;
		cnBodyId ball = cnWorld_FindBody( world, "ball" );
		for ( int i = 0; i < 240; ++i )
		{
			CHECK( cnWorld_Step( world, 1.0 / 240.0 ) );
		}
		// the centre's height above the plane n . x = 0.25: the radius, within the methods' slop
		cnVec3 c = cnBody_GetWorldCenterOfMass( world, ball );
		double height = ( c.x + c.z ) * sqrt( 0.5 ) - 0.25;
		CHECK_NEAR( height, 0.5, 0.02 );
		CHECK( cnLength( cnBody_GetLinearVelocity( world, ball ) ) < 0.05 );
		if ( !( fabs( height - 0.5 ) <= 0.02 ) )
		{
			fprintf( stderr, "  method %s: height %g\n", cnMethod_GetName( (cnMethod)m ), height );
		}
		cnDestroyScene( run );
	}
}

// User forces: a vector whose length overflows, a moment arm that makes the torque overflow, and
// accelerations beyond the range are refused when the force is created.
static void test_force_range( void )
{
	cnWorld* world = newWorld();
	cnBodyId body = newBody( world, cnBody_dynamic );
	cnShapeDef sd = sphereDef( 0.5 );
	CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
	cnForceDef fd = cnDefaultForceDef();
	fd.body = body;

	fd.vector = cnV3( 1.5e308, 1.5e308, 0.0 );
	CHECK( cnCreateForce( world, &fd ).index < 0 );
	CHECK( contains( cnGetError(), "has a length that is not finite" ) );
	fd.vector = cnV3( 0.0, 0.0, 1e200 );
	fd.localPoint = cnV3( 1e200, 0.0, 0.0 );
	CHECK( cnCreateForce( world, &fd ).index < 0 );
	CHECK( contains( cnGetError(), "has a torque that is not finite" ) );
	fd.localPoint = cnVec3_zero;
	fd.vector = cnV3( 1e200, 0.0, 0.0 );
	CHECK( cnCreateForce( world, &fd ).index < 0 );
	CHECK( contains( cnGetError(), "an acceleration that is too large" ) );
	fd.frame = cnForce_target;
	CHECK( cnCreateForce( world, &fd ).index < 0 );
	fd.frame = cnForce_world;
	fd.isTorque = true;
	CHECK( cnCreateForce( world, &fd ).index < 0 );
	CHECK( contains( cnGetError(), "torque gives the body an angular acceleration that is too large" ) );
	// large but in range
	fd.vector = cnV3( 1e100, 0.0, 0.0 );
	CHECK( cnCreateForce( world, &fd ).index >= 0 );
	fd.isTorque = false;
	CHECK( cnCreateForce( world, &fd ).index >= 0 );
	cnDestroyWorld( world );
}

// Polygons (FOSSSim bodies): vertices whose squared distances overflow are refused by the library;
// the FOSSSim loader names vertex masses and spreads whose sums leave the range.
static void test_polygon_range( void )
{
	cnWorldDef wd = cnDefaultWorldDef();
	wd.planar = true;
	cnWorld* world = cnCreateWorld( &wd );
	cnBodyId body = newBody( world, cnBody_dynamic );
	cnVec3 far[3] = { { 0, 0, 0 }, { 1e200, 0, 0 }, { 0, 1, 0 } };
	cnShapeDef pd = cnDefaultShapeDef();
	pd.type = cnShape_polygon;
	pd.radius = 0.1;
	pd.vertexCount = 3;
	pd.vertices = far;
	CHECK( cnCreateShape( world, body, &pd ).index < 0 );
	CHECK( contains( cnGetError(), "polygon edge from vertex 0 to 1 is too long" ) );
	cnDestroyWorld( world );

	const char* heavy = "<scene>\n"
						"  <rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
						"  <rigidbodyvertex x=\"0\" y=\"0\" m=\"1e308\"/>\n"
						"  <rigidbodyvertex x=\"1\" y=\"0\" m=\"1e308\"/>\n"
						"  <rigidbody p=\"0\" p=\"1\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n"
						"</scene>\n";
	CHECK( tfLoadText( heavy ) == NULL );
	CHECK( contains( cnGetError(), "<rigidbody>: the mass (inf kg) or the centre of mass" ) );
	const char* light = "<scene>\n"
						"  <rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
						"  <rigidbodyvertex x=\"0\" y=\"0\" m=\"1e-200\"/>\n"
						"  <rigidbodyvertex x=\"1\" y=\"0\" m=\"1e-200\"/>\n"
						"  <rigidbody p=\"0\" p=\"1\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n"
						"</scene>\n";
	CHECK( tfLoadText( light ) == NULL );
	CHECK( contains( cnGetError(), "<rigidbody>: mass 2e-200 kg is out of range" ) );
	// spreads whose moment leaves the range: the loader's sum underflows to zero, or the library
	// refuses the mass data
	const char* tiny = "<scene>\n"
					   "  <rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
					   "  <rigidbodyvertex x=\"0\" y=\"0\" m=\"1e-200\"/>\n"
					   "  <rigidbodyvertex x=\"1e-100\" y=\"0\" m=\"1e-200\"/>\n"
					   "  <rigidbody p=\"0\" p=\"1\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n"
					   "</scene>\n";
	CHECK( tfLoadText( tiny ) == NULL );
	CHECK( contains( cnGetError(), "<rigidbody>: the moment of inertia sum m |x - c|^2 is zero or not finite (0 kg m^2)" ) );
	const char* wide = "<scene>\n"
					   "  <rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
					   "  <rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/>\n"
					   "  <rigidbodyvertex x=\"1e100\" y=\"0\" m=\"1\"/>\n"
					   "  <rigidbody p=\"0\" p=\"1\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n"
					   "</scene>\n";
	CHECK( tfLoadText( wide ) == NULL );
	CHECK( contains( cnGetError(), "<rigidbody>: with this mass data the body's moment of inertia is too large" ) );
	const char* distant = "<scene>\n"
					  "  <rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
					  "  <rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/>\n"
					  "  <rigidbodyvertex x=\"1e160\" y=\"0\" m=\"1\"/>\n"
					  "  <rigidbody p=\"0\" p=\"1\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n"
					  "</scene>\n";
	CHECK( tfLoadText( distant ) == NULL );
	CHECK( contains( cnGetError(), "is too far from the shape origin: its squared distance overflows" ) );
}

// Loads a scene given as text with a method (through a temporary file: cnLoadSceneWithMethod reads files).
static cnScene* loadWithMethod( const char* json, cnMethod method )
{
	char path[] = "/tmp/cairn_warnings_XXXXXX";
	int fd = mkstemp( path );
	if ( fd < 0 )
	{
		return NULL;
	}
	bool ok = write( fd, json, strlen( json ) ) == (ssize_t)strlen( json );
	close( fd );
	cnScene* scene = ok ? cnLoadSceneWithMethod( path, method ) : NULL;
	remove( path );
	return scene;
}

// Whether some warning of the scene contains part.
static bool hasWarning( const cnScene* scene, const char* part )
{
	for ( int i = 0; scene != NULL && i < scene->warningCount; ++i )
	{
		if ( strstr( scene->warnings[i], part ) != NULL )
		{
			return true;
		}
	}
	fprintf( stderr, "  no warning has \"%s\" (%d warnings)\n", part, scene != NULL ? scene->warningCount : -1 );
	for ( int i = 0; scene != NULL && i < scene->warningCount; ++i )
	{
		fprintf( stderr, "    %s\n", scene->warnings[i] );
	}
	return false;
}

// Friction that the method does not model: a warning per material and material pair a contact
// would use, at the key that gives it; none for methods with friction or scenes without friction.
static void test_friction_warnings( void )
{
	const char* json = "{ \"cairn\": 1, \"method\": \"velocity-projection\","
					   "  \"bodies\": [ { \"name\": \"ground\", \"type\": \"static\", \"shapes\": [ { \"type\": \"plane\" } ] },"
					   "    { \"name\": \"ball\", \"position\": [0, 0, 1], \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.5 } ] } ] }";
	cnScene* scene = cnLoadSceneFromString( json, "vp.json" );
	CHECK( scene != NULL && scene->warningCount == 1 );
	CHECK( hasWarning( scene, "vp.json: materials.default: friction 0.6 (the default: \"friction\" is not given) is "
							  "ignored: method \"velocity-projection\" models no friction" ) );
	cnDestroyScene( scene );

	// the method override decides: with friction, no warning; frictionless, the warning
	scene = loadWithMethod( json, cnMethod_impulse );
	CHECK( scene != NULL && scene->warningCount == 0 && scene->warnings == NULL );
	cnDestroyScene( scene );
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		scene = loadWithMethod( json, (cnMethod)m );
		bool frictionless = ( cnMethod_GetFlags( (cnMethod)m ) & cnMethodFlag_friction ) == 0;
		CHECK( scene != NULL && ( scene->warningCount > 0 ) == frictionless );
		cnDestroyScene( scene );
	}

	// lcp with Lemke's solver is frictionless; with dantzig it is not
	const char* lemke = "{ \"cairn\": 1, \"method\": \"gr-lcp\", \"lcp_solver\": \"lemke\","
						"  \"materials\": { \"default\": { \"friction\": 0 }, \"rubber\": { \"friction\": 0.9 } },"
						"  \"material_pairs\": [ { \"materials\": [\"rubber\", \"default\"], \"friction\": 0.4 } ],"
						"  \"bodies\": [ { \"name\": \"ground\", \"type\": \"static\", \"shapes\": [ { \"type\": \"plane\" } ] },"
						"    { \"name\": \"ball\", \"material\": \"rubber\", \"position\": [0, 0, 1],"
						"      \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.5 } ] } ] }";
	scene = cnLoadSceneFromString( lemke, "lemke.json" );
	CHECK( scene != NULL && scene->warningCount == 2 );
	CHECK( hasWarning( scene, "lemke.json: materials.rubber.friction: friction 0.9 is ignored: method \"gr-lcp\" with "
							  "\"lcp_solver\": \"lemke\" models no friction" ) );
	CHECK( hasWarning( scene, "lemke.json: material_pairs[0].friction: friction 0.4 is ignored" ) );
	cnDestroyScene( scene );
	scene = loadWithMethod( lemke, cnMethod_velocityProjection );
	CHECK( scene != NULL && scene->warningCount == 2 );
	CHECK( hasWarning( scene, "method \"velocity-projection\" models no friction" ) );
	cnDestroyScene( scene );

	// no friction anywhere a contact can reach: a frictional material no shape uses, or one whose
	// pairs with every used material are frictionless
	const char* quiet = "{ \"cairn\": 1, \"method\": \"constraint\","
						"  \"materials\": { \"default\": { \"friction\": 0 }, \"rubber\": { \"friction\": 0.9 },"
						"    \"ice\": { \"friction\": 0.1 } },"
						"  \"material_pairs\": [ { \"materials\": [\"ice\", \"default\"], \"friction\": 0 },"
						"    { \"materials\": [\"ice\", \"ice\"], \"friction\": 0 } ],"
						"  \"bodies\": [ { \"name\": \"ground\", \"type\": \"static\", \"shapes\": [ { \"type\": \"plane\" } ] },"
						"    { \"name\": \"puck\", \"material\": \"ice\", \"position\": [0, 0, 1],"
						"      \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.5 } ] } ] }";
	scene = cnLoadSceneFromString( quiet, "quiet.json" );
	CHECK( scene != NULL && scene->warningCount == 0 );
	cnDestroyScene( scene );
}

// Gravity off the plane of a planar world, which it ignores: a warning at "gravity[2]", or at
// "gravity" for the default; none for gravity in the plane or a 3D world.
static void test_planar_gravity_warnings( void )
{
	const char* base = "{ \"cairn\": 1, \"planar\": true, %s \"materials\": { \"default\": { \"friction\": 0.5 } },"
					   "  \"bodies\": [ { \"name\": \"ball\", \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.5 } ] } ] }";
	char json[1024];
	snprintf( json, sizeof( json ), base, "" );
	cnScene* scene = cnLoadSceneFromString( json, "planar.json" );
	CHECK( scene != NULL && scene->warningCount == 1 );
	CHECK( hasWarning( scene, "planar.json: gravity: the default gravity [0, 0, -9.81] is off the xy-plane" ) );
	cnDestroyScene( scene );
	snprintf( json, sizeof( json ), base, "\"gravity\": [0, -9.81, -2]," );
	scene = cnLoadSceneFromString( json, "planar.json" );
	CHECK( scene != NULL && scene->warningCount == 1 );
	CHECK( hasWarning( scene, "planar.json: gravity[2]: a planar world ignores gravity off its xy-plane (z = -2 m/s^2)" ) );
	cnDestroyScene( scene );
	snprintf( json, sizeof( json ), base, "\"gravity\": [0, -9.81, 0]," );
	scene = cnLoadSceneFromString( json, "planar.json" );
	CHECK( scene != NULL && scene->warningCount == 0 );
	cnDestroyScene( scene );

	// FOSSSim scenes are frictionless with gravity in the plane: never a warning
	const char* triangle = "<scene>\n"
						   "  <rigidbodyintegrator type=\"symplectic-euler\" dt=\"0.01\"/>\n"
						   "  <rigidbodycollisionhandling detection=\"all-pairs\" response=\"lcp\"/>\n"
						   "  <rigidbodyvertex x=\"0\" y=\"0\" m=\"1\"/>\n"
						   "  <rigidbodyvertex x=\"3\" y=\"0\" m=\"2\"/>\n"
						   "  <rigidbodyvertex x=\"0\" y=\"3\" m=\"3\"/>\n"
						   "  <rigidbody p=\"0\" p=\"1\" p=\"2\" vx=\"0\" vy=\"0\" omega=\"0\" r=\"0.1\"/>\n"
						   "  <rigidbodygravityforce fx=\"0.0\" fy=\"-10.0\"/>\n"
						   "</scene>\n";
	cnFosssimScene* f = tfLoadText( triangle );
	CHECK( f != NULL && f->scene->warningCount == 0 && f->scene->warnings == NULL );
	if ( f == NULL )
	{
		fprintf( stderr, "  %s\n", cnGetError() );
	}
	cnDestroyFosssim( f );
}

int main( void )
{
	RUN_TEST( test_shape_mass_range );
	RUN_TEST( test_static_size_range );
	RUN_TEST( test_body_mass_range );
	RUN_TEST( test_mass_override_range );
	RUN_TEST( test_inverse_inertia_scaled );
	RUN_TEST( test_plane_normals );
	RUN_TEST( test_tiny_normal_simulates );
	RUN_TEST( test_force_range );
	RUN_TEST( test_polygon_range );
	RUN_TEST( test_friction_warnings );
	RUN_TEST( test_planar_gravity_warnings );
	return TEST_SUMMARY();
}
