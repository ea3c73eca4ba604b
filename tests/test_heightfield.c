// SPDX-License-Identifier: MIT
// Heightfields: a flat one behaves as a plane (resting heights, a sliding box's Coulomb stopping
// distance), a ball rolls down a tilted one with the closed-form acceleration, ray casts agree with
// every triangle tried in turn, a closed mesh rests on one, and PNG height maps load with the
// right heights.
//
// Closed forms used below:
//   a solid sphere rolling without slipping down a slope of angle theta accelerates at
//   a = 5/7 g sin(theta) (the rolling constraint adds I / r^2 = 2/5 m to the inertia along the slope;
//   it needs mu >= 2/7 tan(theta)); from rest it covers a t^2 / 2 in time t.
//   a box sliding with friction mu on a level floor stops after v0^2 / (2 mu g).
#define _POSIX_C_SOURCE 200809L

#include "cairn/cairn.h"
#include "cairn/io.h"
#include "collision/collision.h"
#include "collision/mesh.h"
#include "test.h"
#include "test_bodies.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// A columns x rows heightfield of size x size metres with height f(x, y) at each sample.
static cnHeightfield* gridField( int n, double size, double slope )
{
	double* h = malloc( (size_t)n * n * sizeof( double ) );
	for ( int j = 0; j < n; ++j )
	{
		for ( int i = 0; i < n; ++i )
		{
			double x = -0.5 * size + size * i / ( n - 1 );
			h[j * n + i] = -slope * x;
		}
	}
	cnHeightfield* field = cnCreateHeightfield( n, n, h, size, size );
	CHECK( field != NULL );
	free( h );
	return field;
}

static cnBodyId fieldBody( cnWorld* world, const cnHeightfield* field, cnMaterialId material )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_heightfield;
	sd.heightfield = field;
	sd.material = material;
	return tbBody( world, cnBody_static, cnVec3_zero, cnQuat_identity, cnVec3_zero, &sd );
}

static void testFlatRest( void )
{
	// a sphere and a box dropped on a flat heightfield of 800 triangles rest at their heights where
	// they fell, as on a plane
	cnHeightfield* field = gridField( 21, 10.0, 0.0 );
	for ( int shape = 0; shape < 2; ++shape )
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
		cnMaterialId material = tbMaterial( world, 0.6, 0.0 );
		fieldBody( world, field, material );
		cnVec3 start = cnV3( 0.3, -0.4, shape == 0 ? 0.45 : 0.3 );
		cnBodyId body = shape == 0 ? tbSphere( world, cnBody_dynamic, start, cnVec3_zero, 0.4, material )
								   : tbBox( world, cnBody_dynamic, start, cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.3 ),
											cnVec3_zero, cnV3( 0.4, 0.3, 0.25 ), material );
		for ( int i = 0; i < 180; ++i )
		{
			CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		}
		cnVec3 p = cnBody_GetPosition( world, body );
		CHECK_NEAR( p.z, shape == 0 ? 0.4 : 0.25, 0.01 );
		CHECK( hypot( p.x - start.x, p.y - start.y ) < 1e-3 );
		CHECK( cnLength( cnBody_GetLinearVelocity( world, body ) ) < 1e-3 );
		cnDestroyWorld( world );
	}
	cnReleaseHeightfield( field );
}

static void testFlatSlide( void )
{
	// a box launched across the grid stops v0^2 / (2 mu g) away, in a straight line. At these speeds
	// it moves more than a quarter of its half-size a step, so the continuous stage sweeps it over
	// the triangles ahead, whose edges it meets side-on: none of them may stop it
	cnHeightfield* field = gridField( 41, 20.0, 0.0 );
	double mu = 0.3, g = 9.81;
	const double speeds[] = { 4.0, 7.0 };
	for ( int k = 0; k < 2; ++k )
	{
		double v0 = speeds[k];
		cnVec3 dir = cnV3( cos( 0.4 ), sin( 0.4 ), 0.0 );
		cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -g ) );
		cnMaterialId material = tbMaterial( world, mu, 0.0 );
		fieldBody( world, field, material );
		cnVec3 start = cnV3( -7.0, -2.8, 0.25 );
		cnBodyId box = tbBox( world, cnBody_dynamic, start, cnQuat_identity, cnMulSV( v0, dir ),
							  cnV3( 0.25, 0.25, 0.25 ), material );
		double lateral = 0.0;
		for ( int i = 0; i < 180; ++i )
		{
			CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
			cnVec3 p = cnSub( cnBody_GetPosition( world, box ), start );
			lateral = fmax( lateral, fabs( p.x * dir.y - p.y * dir.x ) );
		}
		cnVec3 p = cnSub( cnBody_GetPosition( world, box ), start );
		double expected = v0 * v0 / ( 2.0 * mu * g );
		CHECK_NEAR( cnDot( p, dir ), expected, 0.02 * expected );
		CHECK( lateral < 1e-3 );
		// (within the linear slop, where a resting contact is rigid and not pushed out)
		CHECK( fabs( p.z ) < cnDefaultWorldDef().linearSlop );
		CHECK( cnWorld_GetStats( world ).continuousHitCount == 0 );
		cnDestroyWorld( world );
	}
	cnReleaseHeightfield( field );
}

static void testRollingBall( void )
{
	// a solid ball released on a heightfield tilted by theta = 10 degrees (z = -x tan theta, 3200
	// triangles) rolls down along +x with a = 5/7 g sin(theta): after t = 1.5 s it has gone a t^2 / 2
	double theta = 10.0 * CN_PI / 180.0, g = 9.81, r = 0.25, t = 1.5;
	cnHeightfield* field = gridField( 41, 20.0, tan( theta ) );
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -g ) );
	cnMaterialId material = tbMaterial( world, 0.8, 0.0 );
	fieldBody( world, field, material );
	cnVec3 n = cnV3( sin( theta ), 0.0, cos( theta ) );
	cnVec3 surface = cnV3( -5.0, 0.37, 5.0 * tan( theta ) );
	cnVec3 start = cnMulAdd( surface, r, n );
	cnBodyId ball = tbSphere( world, cnBody_dynamic, start, cnVec3_zero, r, material );
	int steps = (int)( t * 60.0 + 0.5 );
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	}
	cnVec3 d = cnSub( cnBody_GetPosition( world, ball ), start );
	cnVec3 down = cnV3( cos( theta ), 0.0, -sin( theta ) );
	double a = 5.0 / 7.0 * g * sin( theta );
	double s = cnDot( d, down ), expected = 0.5 * a * t * t;
	if ( getenv( "MESH_DEBUG" ) )
	{
		fprintf( stderr, "  rolling: s %.6f (closed form %.6f), off the slope %.3g, sideways %.3g\n", s, expected,
				 cnDot( d, n ), d.y );
	}
	CHECK_NEAR( s, expected, 0.01 * expected );
	CHECK( fabs( cnDot( d, n ) ) < 2e-3 );
	CHECK( fabs( d.y ) < 1e-6 );
	// rolling, not sliding: the contact point is at rest, v = omega x r
	cnVec3 v = cnBody_GetLinearVelocity( world, ball ), w = cnBody_GetAngularVelocity( world, ball );
	cnVec3 slip = cnAdd( v, cnCross( w, cnMulSV( -r, n ) ) );
	CHECK( cnLength( slip ) < 1e-3 * cnLength( v ) );
	cnDestroyWorld( world );
	cnReleaseHeightfield( field );
}

static void testRayCast( void )
{
	// a bumpy field: every ray's first hit is the nearest crossing among all triangles tried in turn
	int n = 17;
	double size = 8.0;
	double* h = malloc( (size_t)n * n * sizeof( double ) );
	for ( int j = 0; j < n; ++j )
	{
		for ( int i = 0; i < n; ++i )
		{
			h[j * n + i] = 0.5 * sin( 0.9 * i ) * cos( 0.7 * j );
		}
	}
	cnHeightfield* field = cnCreateHeightfield( n, n, h, size, size );
	free( h );
	uint32_t seed = 777u;
	int hits = 0;
	for ( int k = 0; k < 300; ++k )
	{
		double q[6];
		for ( int i = 0; i < 6; ++i )
		{
			seed = seed * 1664525u + 1013904223u;
			q[i] = ( seed >> 8 ) / 16777216.0;
		}
		cnVec3 origin = cnV3( -5.0 + 10.0 * q[0], -5.0 + 10.0 * q[1], 1.0 );
		cnVec3 translation = cnV3( -4.0 + 8.0 * q[2], -4.0 + 8.0 * q[3], -2.0 + 0.5 * q[4] );
		double best = 1.0;
		bool expected = false;
		for ( int t = 0; t < 2 * ( n - 1 ) * ( n - 1 ); ++t )
		{
			cnVec3 v[3], nn;
			double f;
			cnHeightfieldTriangle( field, t, v );
			if ( cnRayTriangle( v, origin, translation, best, &f, &nn ) )
			{
				best = f;
				expected = true;
			}
		}
		double f = -1.0;
		cnVec3 normal;
		bool hit = cnHeightfieldRayCast( field, origin, translation, 1.0, &f, &normal );
		CHECK( hit == expected );
		if ( hit && expected )
		{
			CHECK_NEAR( f, best, 1e-12 );
			CHECK( cnDot( normal, translation ) < 0.0 );
			++hits;
		}
	}
	CHECK( hits > 100 );
	// straight down onto a flat field: the hit is at its height
	cnHeightfield* flat = gridField( 5, 4.0, 0.0 );
	double f;
	cnVec3 normal;
	CHECK( cnHeightfieldRayCast( flat, cnV3( 0.3, 0.2, 2.0 ), cnV3( 0, 0, -4.0 ), 1.0, &f, &normal ) );
	CHECK_NEAR( f, 0.5, 1e-15 );
	CHECK( normal.z == 1.0 );
	cnReleaseHeightfield( flat );
	cnReleaseHeightfield( field );
}

static int cubeTriangles[36] = { 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
								 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5 };

static void testMeshOnField( void )
{
	// a unit cube given as a closed mesh rests on a flat heightfield at 0.5 where it fell
	cnHeightfield* field = gridField( 21, 10.0, 0.0 );
	cnVec3 p[8];
	for ( int v = 0; v < 8; ++v )
	{
		p[v] = cnV3( ( v & 1 ) ? 0.5 : -0.5, ( v & 2 ) ? 0.5 : -0.5, ( v & 4 ) ? 0.5 : -0.5 );
	}
	cnMesh* cube = cnCreateMesh( p, 8, cubeTriangles, 12 );
	CHECK( cube != NULL && cnMesh_IsSolid( cube ) );
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	cnMaterialId material = tbMaterial( world, 0.6, 0.0 );
	fieldBody( world, field, material );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_mesh;
	sd.mesh = cube;
	sd.material = material;
	cnVec3 start = cnV3( 0.13, 0.21, 0.55 );
	cnBodyId body = tbBody( world, cnBody_dynamic, start, cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.2 ), cnVec3_zero, &sd );
	for ( int i = 0; i < 180; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	}
	cnVec3 q = cnBody_GetPosition( world, body );
	CHECK_NEAR( q.z, 0.5, 0.01 );
	CHECK( hypot( q.x - start.x, q.y - start.y ) < 1e-3 );
	CHECK( cnLength( cnBody_GetLinearVelocity( world, body ) ) < 1e-3 );
	cnDestroyWorld( world );
	cnReleaseMesh( cube );
	cnReleaseHeightfield( field );
}

// Writes a grayscale PNG of the given depth (8 or 16) with samples value(x, y), image row y = 0 at
// the top; or an RGB one when colour.
static bool writePng( const char* path, int width, int height, int depth, bool colour, const int* values )
{
	FILE* f = fopen( path, "wb" );
	if ( f == NULL )
	{
		return false;
	}
	png_structp png = png_create_write_struct( PNG_LIBPNG_VER_STRING, NULL, NULL, NULL );
	png_infop info = png_create_info_struct( png );
	if ( setjmp( png_jmpbuf( png ) ) )
	{
		png_destroy_write_struct( &png, &info );
		fclose( f );
		return false;
	}
	png_init_io( png, f );
	png_set_IHDR( png, info, (png_uint_32)width, (png_uint_32)height, depth, colour ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY,
				  PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT );
	png_write_info( png, info );
	int channels = colour ? 3 : 1, bytes = depth / 8;
	png_bytep row = malloc( (size_t)( width * channels * bytes ) );
	for ( int y = 0; y < height; ++y )
	{
		for ( int x = 0; x < width; ++x )
		{
			for ( int c = 0; c < channels; ++c )
			{
				int v = values[y * width + x];
				png_bytep s = row + ( x * channels + c ) * bytes;
				if ( bytes == 2 )
				{
					s[0] = (png_byte)( v >> 8 );
					s[1] = (png_byte)( v & 255 );
				}
				else
				{
					s[0] = (png_byte)v;
				}
			}
		}
		png_write_row( png, row );
	}
	png_write_end( png, NULL );
	png_destroy_write_struct( &png, &info );
	free( row );
	fclose( f );
	return true;
}

static void testPng( void )
{
	char dir[] = "/tmp/cairn_heightfield_XXXXXX";
	CHECK( mkdtemp( dir ) != NULL );
	char path[256];
	snprintf( path, sizeof( path ), "%s/map.png", dir );

	// 16 bits, 5 x 4: height 2 * value / 65535, image row y at heightfield row 3 - y
	int values[20];
	for ( int k = 0; k < 20; ++k )
	{
		values[k] = ( k * 4099 ) % 65536;
	}
	values[7] = 65535;
	values[0] = 0;
	CHECK( writePng( path, 5, 4, 16, false, values ) );
	cnHeightfield* h = cnLoadHeightfieldPng( path, 8.0, 6.0, 2.0 );
	CHECK( h != NULL );
	if ( h != NULL )
	{
		CHECK( cnHeightfield_GetColumnCount( h ) == 5 && cnHeightfield_GetRowCount( h ) == 4 );
		CHECK( cnHeightfield_GetSize( h ).x == 8.0 && cnHeightfield_GetSize( h ).y == 6.0 );
		for ( int y = 0; y < 4; ++y )
		{
			for ( int x = 0; x < 5; ++x )
			{
				CHECK( cnHeightfield_GetHeight( h, x, 3 - y ) == 2.0 * values[y * 5 + x] / 65535.0 );
			}
		}
		CHECK( cnHeightfield_GetHeight( h, 2, 2 ) == 2.0 );
		cnReleaseHeightfield( h );
	}

	// 8 bits: value / 255
	int small[6] = { 0, 51, 255, 102, 153, 204 };
	CHECK( writePng( path, 3, 2, 8, false, small ) );
	h = cnLoadHeightfieldPng( path, 1.0, 1.0, 5.0 );
	CHECK( h != NULL );
	if ( h != NULL )
	{
		CHECK( cnHeightfield_GetHeight( h, 2, 1 ) == 5.0 );
		CHECK( cnHeightfield_GetHeight( h, 1, 0 ) == 5.0 * 153.0 / 255.0 );
		cnReleaseHeightfield( h );
	}

	// colour, a missing file, not a PNG: errors naming the file
	CHECK( writePng( path, 3, 2, 8, true, small ) );
	CHECK( cnLoadHeightfieldPng( path, 1.0, 1.0, 1.0 ) == NULL && strstr( cnGetError(), "grayscale" ) != NULL &&
		   strstr( cnGetError(), "map.png" ) != NULL );
	CHECK( cnLoadHeightfieldPng( "/nonexistent/map.png", 1.0, 1.0, 1.0 ) == NULL &&
		   strstr( cnGetError(), "/nonexistent/map.png" ) != NULL && cnGetErrorCode() == cnError_io );
	FILE* f = fopen( path, "wb" );
	fputs( "not a png", f );
	fclose( f );
	CHECK( cnLoadHeightfieldPng( path, 1.0, 1.0, 1.0 ) == NULL && strstr( cnGetError(), "not a PNG" ) != NULL );
	unlink( path );
	rmdir( dir );
}

int main( void )
{
	RUN_TEST( testFlatRest );
	RUN_TEST( testFlatSlide );
	RUN_TEST( testRollingBall );
	RUN_TEST( testRayCast );
	RUN_TEST( testMeshOnField );
	RUN_TEST( testPng );
	return TEST_SUMMARY();
}
