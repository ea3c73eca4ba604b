// SPDX-License-Identifier: MIT
// Binary recordings: a small world is recorded and read back value by value; the byte layout
// is checked against docs/recording-format.md; every truncation and many corruptions of the
// file give a clear error (and never a crash, which the sanitizer build checks).
#include "cairn/recording.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// files are written into the test's working directory (the build's tests/ folder); the thousands of
// truncated and corrupted variants are loaded from memory (cnLoadRecordingFromMemory), which parses
// exactly as cnLoadRecording does after reading the file
#define REC_PATH "test_recording_out.cnrec"
#define REC_TEMP REC_PATH ".tmp"
#define BAD_PATH "test_recording_bad.cnrec"

enum
{
	bodyCount = 4,
	frameCount = 6,
	stepsPerFrame = 3,
};

static const char* s_names[bodyCount] = { "ground", "crate, with \"ball\"", "paddle", "roller" };

// A file recorder of every body of the world.
static cnRecorder* makeRecorder( const char* path, const cnWorld* world, const char* sceneName, double fps )
{
	cnRecorderDef def = cnDefaultRecorderDef();
	def.path = path;
	def.sceneName = sceneName;
	def.fps = fps;
	return cnCreateRecorder( world, &def );
}

static bool fileExists( const char* path )
{
	FILE* f = fopen( path, "rb" );
	if ( f != NULL )
	{
		fclose( f );
		return true;
	}
	return false;
}

static uint8_t* readAll( const char* path, size_t* size )
{
	FILE* f = fopen( path, "rb" );
	if ( f == NULL )
	{
		return NULL;
	}
	fseek( f, 0, SEEK_END );
	long n = ftell( f );
	fseek( f, 0, SEEK_SET );
	uint8_t* data = malloc( (size_t)n + 1 );
	*size = fread( data, 1, (size_t)n, f );
	fclose( f );
	return data;
}

static void writeAll( const char* path, const uint8_t* data, size_t size )
{
	FILE* f = fopen( path, "wb" );
	fwrite( data, 1, size, f );
	fclose( f );
}

static uint32_t u32At( const uint8_t* p )
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void putU32( uint8_t* p, uint32_t v )
{
	for ( int i = 0; i < 4; ++i )
	{
		p[i] = (uint8_t)( v >> ( 8 * i ) );
	}
}

static double f64At( const uint8_t* p )
{
	uint64_t bits = 0;
	for ( int i = 7; i >= 0; --i )
	{
		bits = bits << 8 | p[i];
	}
	double v;
	memcpy( &v, &bits, 8 );
	return v;
}

static void putF64( uint8_t* p, double v )
{
	uint64_t bits;
	memcpy( &bits, &v, 8 );
	for ( int i = 0; i < 8; ++i )
	{
		p[i] = (uint8_t)( bits >> ( 8 * i ) );
	}
}

// A static plane, a dynamic crate (box + offset, rotated sphere), a kinematic capsule and a
// dynamic cylinder, with three coloured materials.
static cnWorld* buildWorld( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );

	cnMaterialDef md = cnDefaultMaterialDef();
	md.name = "red";
	md.color[0] = 0.75f;
	md.color[1] = 0.125f;
	md.color[2] = 0.0f;
	cnMaterialId red = cnCreateMaterial( world, &md );
	md.name = "blue";
	md.color[0] = 0.0f;
	md.color[1] = 0.25f;
	md.color[2] = 1.0f;
	cnMaterialId blue = cnCreateMaterial( world, &md );
	// the library does not restrict colours; the recording clamps them to [0, 1]
	md.name = "glow";
	md.color[0] = 2.0f;
	md.color[1] = -1.0f;
	md.color[2] = 0.5f;
	cnMaterialId glow = cnCreateMaterial( world, &md );
	cnMaterialDef defaultMaterial = cnDefaultMaterialDef();
	defaultMaterial.color[0] = 0.5f;
	defaultMaterial.color[1] = 0.5f;
	defaultMaterial.color[2] = 0.5f;
	cnMaterial_SetDef( world, 0, &defaultMaterial );

	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = s_names[0];
	bd.type = cnBody_static;
	cnBodyId ground = cnCreateBody( world, &bd );
	cnShapeDef plane = cnDefaultShapeDef();
	plane.type = cnShape_plane;
	plane.normal = cnV3( 0, 0, 1 );
	plane.offset = -0.25;
	cnCreateShape( world, ground, &plane );

	bd = cnDefaultBodyDef();
	bd.name = s_names[1];
	bd.position = cnV3( 0.5, -1, 2 );
	bd.orientation = cnQuatFromAxisAngle( cnNormalize( cnV3( 1, 2, 3 ) ), 0.7 );
	bd.angularVelocity = cnV3( 1, -2, 0.5 );
	cnBodyId crate = cnCreateBody( world, &bd );
	cnShapeDef box = cnDefaultShapeDef();
	box.type = cnShape_box;
	box.halfExtents = cnV3( 0.5, 0.25, 0.125 );
	box.position = cnV3( 0.1, 0.2, 0.3 );
	box.material = red;
	cnCreateShape( world, crate, &box );
	cnShapeDef sphere = cnDefaultShapeDef();
	sphere.radius = 0.375;
	sphere.position = cnV3( -0.5, 0, 0.25 );
	// quaternions with exactly representable unit norm, so the library's normalisation keeps
	// their bits and the read-back can compare exactly: 120 degrees about (1, 1, 1)
	sphere.orientation = ( cnQuat ){ 0.5, 0.5, 0.5, 0.5 };
	sphere.material = blue;
	cnCreateShape( world, crate, &sphere );

	bd = cnDefaultBodyDef();
	bd.name = s_names[2];
	bd.type = cnBody_kinematic;
	bd.position = cnV3( 3, 0, 1 );
	bd.linearVelocity = cnV3( 0, 1, 0 );
	bd.angularVelocity = cnV3( 0, 0, 2 );
	cnBodyId paddle = cnCreateBody( world, &bd );
	cnShapeDef capsule = cnDefaultShapeDef();
	capsule.type = cnShape_capsule;
	capsule.radius = 0.2;
	capsule.halfHeight = 0.6;
	capsule.material = red;
	cnCreateShape( world, paddle, &capsule );

	bd = cnDefaultBodyDef();
	bd.name = s_names[3];
	bd.position = cnV3( -3, 0, 4 );
	bd.linearVelocity = cnV3( 1, 0, 0 );
	cnBodyId roller = cnCreateBody( world, &bd );
	cnShapeDef cylinder = cnDefaultShapeDef();
	cylinder.type = cnShape_cylinder;
	cylinder.radius = 0.3;
	cylinder.halfHeight = 0.4;
	// 180 degrees about x
	cylinder.orientation = ( cnQuat ){ 0.0, 1.0, 0.0, 0.0 };
	cylinder.material = glow;
	cnCreateShape( world, roller, &cylinder );
	return world;
}

static bool sameTransform( cnTransform a, cnTransform b )
{
	return a.p.x == b.p.x && a.p.y == b.p.y && a.p.z == b.p.z && a.q.w == b.q.w && a.q.x == b.q.x &&
		   a.q.y == b.q.y && a.q.z == b.q.z;
}

// Records the world: frame 0 before any step, then stepsPerFrame steps per frame. The
// transforms and times seen while recording are returned for comparison.
static bool recordWorld( cnTransform expected[frameCount][bodyCount], double times[frameCount] )
{
	cnWorld* world = buildWorld();
	remove( REC_PATH );
	cnRecorder* recorder = makeRecorder( REC_PATH, world, "round trip", 30.0 );
	CHECK( recorder != NULL );
	if ( recorder == NULL )
	{
		printf( "error: %s\n", cnGetError() );
		cnDestroyWorld( world );
		return false;
	}
	// nothing appears under the real name until Finish
	CHECK( fileExists( REC_TEMP ) );
	CHECK( fileExists( REC_PATH ) == false );
	for ( int f = 0; f < frameCount; ++f )
	{
		for ( int s = 0; f > 0 && s < stepsPerFrame; ++s )
		{
			CHECK( cnWorld_Step( world, 1.0 / 90.0 ) );
		}
		times[f] = cnWorld_GetTime( world );
		for ( int b = 0; b < bodyCount; ++b )
		{
			expected[f][b] = cnBody_GetTransform( world, cnWorld_GetBody( world, b ) );
		}
		CHECK( cnRecorder_AddFrame( recorder, world ) );
		CHECK( cnRecorder_GetFrameCount( recorder ) == f + 1 );
	}
	CHECK( cnGetErrorCode() == cnError_none );
	CHECK( cnRecorder_Finish( recorder ) );
	cnDestroyRecorder( recorder );
	CHECK( fileExists( REC_PATH ) );
	CHECK( fileExists( REC_TEMP ) == false );
	cnDestroyWorld( world );
	return true;
}

// Records the world and reads the file back: NULL when either fails (a failed check). The last
// frame's time and body 1's transform in it go to lastTime and last when they are not NULL.
static uint8_t* recordedBytes( size_t* size, double* lastTime, cnTransform* last )
{
	cnTransform expected[frameCount][bodyCount];
	double times[frameCount];
	if ( recordWorld( expected, times ) == false )
	{
		return NULL;
	}
	if ( lastTime != NULL )
	{
		*lastTime = times[frameCount - 1];
	}
	if ( last != NULL )
	{
		*last = expected[frameCount - 1][1];
	}
	uint8_t* data = readAll( REC_PATH, size );
	CHECK( data != NULL );
	return data;
}

static void roundTrip( void )
{
	cnTransform expected[frameCount][bodyCount];
	double times[frameCount];
	if ( recordWorld( expected, times ) == false )
	{
		return;
	}
	// the bodies moved, so the frames are not all the same
	CHECK( sameTransform( expected[0][1], expected[frameCount - 1][1] ) == false );
	CHECK( sameTransform( expected[0][2], expected[frameCount - 1][2] ) == false );
	CHECK( cnIsRecordingFile( REC_PATH ) );
	cnRecording* rec = cnLoadRecording( REC_PATH );
	CHECK( rec != NULL );
	if ( rec == NULL )
	{
		printf( "error: %s\n", cnGetError() );
		return;
	}
	// no polygon: the writer keeps the version-1 layout, which older readers still read
	CHECK( cnRecording_GetVersion( rec ) == 1 );
	CHECK( strcmp( cnRecording_GetSceneName( rec ), "round trip" ) == 0 );
	CHECK( cnRecording_GetFps( rec ) == 30.0 );
	CHECK( cnRecording_GetFrameCount( rec ) == frameCount );
	CHECK( cnRecording_GetBodyCount( rec ) == bodyCount );
	for ( int b = 0; b < bodyCount; ++b )
	{
		CHECK( strcmp( cnRecording_GetBodyName( rec, b ), s_names[b] ) == 0 );
	}
	CHECK( cnRecording_GetBodyType( rec, 0 ) == cnBody_static );
	CHECK( cnRecording_GetBodyType( rec, 1 ) == cnBody_dynamic );
	CHECK( cnRecording_GetBodyType( rec, 2 ) == cnBody_kinematic );
	CHECK( cnRecording_GetBodyType( rec, 3 ) == cnBody_dynamic );

	// shapes: doubles and floats are stored bit for bit, so they compare exactly
	CHECK( cnRecording_GetShapeCount( rec, 0 ) == 1 );
	CHECK( cnRecording_GetShapeCount( rec, 1 ) == 2 );
	CHECK( cnRecording_GetShapeCount( rec, 2 ) == 1 );
	CHECK( cnRecording_GetShapeCount( rec, 3 ) == 1 );
	cnRecordedShape s = cnRecording_GetShape( rec, 0, 0 );
	CHECK( s.type == cnShape_plane );
	CHECK( s.normal.x == 0.0 && s.normal.y == 0.0 && s.normal.z == 1.0 && s.offset == -0.25 );
	// fields of other shape types are written as zero (the def held the default radius 1)
	CHECK( s.radius == 0.0 && s.halfHeight == 0.0 && s.halfExtents.x == 0.0 );
	CHECK( s.color[0] == 0.5f && s.color[1] == 0.5f && s.color[2] == 0.5f );
	CHECK( sameTransform( s.localPose, cnTransform_identity ) );

	s = cnRecording_GetShape( rec, 1, 0 );
	CHECK( s.type == cnShape_box );
	CHECK( s.halfExtents.x == 0.5 && s.halfExtents.y == 0.25 && s.halfExtents.z == 0.125 );
	CHECK( s.radius == 0.0 && s.normal.z == 0.0 );
	CHECK( s.localPose.p.x == 0.1 && s.localPose.p.y == 0.2 && s.localPose.p.z == 0.3 );
	CHECK( s.localPose.q.w == 1.0 && s.localPose.q.x == 0.0 && s.localPose.q.y == 0.0 && s.localPose.q.z == 0.0 );
	CHECK( s.color[0] == 0.75f && s.color[1] == 0.125f && s.color[2] == 0.0f );
	CHECK( s.vertexCount == 0 && s.vertices == NULL );

	s = cnRecording_GetShape( rec, 1, 1 );
	cnQuat q = { 0.5, 0.5, 0.5, 0.5 };
	CHECK( s.type == cnShape_sphere && s.radius == 0.375 );
	CHECK( s.localPose.p.x == -0.5 && s.localPose.p.y == 0.0 && s.localPose.p.z == 0.25 );
	CHECK( s.localPose.q.w == q.w && s.localPose.q.x == q.x && s.localPose.q.y == q.y && s.localPose.q.z == q.z );
	CHECK( s.color[0] == 0.0f && s.color[1] == 0.25f && s.color[2] == 1.0f );

	s = cnRecording_GetShape( rec, 2, 0 );
	CHECK( s.type == cnShape_capsule && s.radius == 0.2 && s.halfHeight == 0.6 );
	CHECK( s.color[0] == 0.75f );

	s = cnRecording_GetShape( rec, 3, 0 );
	CHECK( s.type == cnShape_cylinder && s.radius == 0.3 && s.halfHeight == 0.4 );
	CHECK( s.localPose.q.w == 0.0 && s.localPose.q.x == 1.0 && s.localPose.q.y == 0.0 && s.localPose.q.z == 0.0 );
	CHECK( s.color[0] == 1.0f && s.color[1] == 0.0f && s.color[2] == 0.5f );

	// frames: time 0 first, then the world times; every transform bit for bit
	CHECK( cnRecording_GetFrameTime( rec, 0 ) == 0.0 );
	for ( int f = 0; f < frameCount; ++f )
	{
		CHECK( cnRecording_GetFrameTime( rec, f ) == times[f] );
		// stepsPerFrame steps of 1/90 s: a frame every 1/30 s up to round-off of the sum
		CHECK_NEAR( cnRecording_GetFrameTime( rec, f ), f / 30.0, 1e-14 );
		for ( int b = 0; b < bodyCount; ++b )
		{
			CHECK( sameTransform( cnRecording_GetBodyTransform( rec, f, b ), expected[f][b] ) );
		}
	}
	// the kinematic paddle moves at exactly (0, 1, 0) m/s: y = t after the last frame
	CHECK_NEAR( cnRecording_GetBodyTransform( rec, frameCount - 1, 2 ).p.y, times[frameCount - 1], 1e-12 );

	// out of range accessors are soft
	CHECK( cnRecording_GetFrameTime( rec, frameCount ) == 0.0 );
	CHECK( strcmp( cnRecording_GetBodyName( rec, -1 ), "" ) == 0 );
	CHECK( cnRecording_GetShapeCount( rec, bodyCount ) == 0 );
	CHECK( sameTransform( cnRecording_GetBodyTransform( rec, -1, 0 ), cnTransform_identity ) );
	CHECK( cnRecording_GetShape( rec, 1, 2 ).radius == 0.0 );
	cnDestroyRecording( rec );
}

// The bytes follow docs/recording-format.md: fixed fields at their offsets and the file size
// given by the layout's formula.
static void byteLayout( void )
{
	size_t size = 0;
	double lastTime = 0.0;
	cnTransform t = cnTransform_identity;
	uint8_t* data = recordedBytes( &size, &lastTime, &t );
	if ( data == NULL )
	{
		return;
	}
	CHECK( memcmp( data, "CAIRNREC", 8 ) == 0 );
	CHECK( u32At( data + 8 ) == 1 );
	CHECK( u32At( data + 12 ) == bodyCount );
	CHECK( u32At( data + 16 ) == frameCount );
	CHECK( f64At( data + 24 ) == 30.0 );
	CHECK( u32At( data + 32 ) == strlen( "round trip" ) );
	CHECK( memcmp( data + 36, "round trip", 10 ) == 0 );

	// header: 36 + scene name; each body 12 + name + 144 per shape
	size_t header = 36 + strlen( "round trip" );
	int shapes[bodyCount] = { 1, 2, 1, 1 };
	for ( int b = 0; b < bodyCount; ++b )
	{
		header += 12 + strlen( s_names[b] ) + 144 * (size_t)shapes[b];
	}
	CHECK( u32At( data + 20 ) == header );
	// first body record right after the scene name: name length, name, type, shape count
	CHECK( u32At( data + 46 ) == strlen( "ground" ) );
	CHECK( memcmp( data + 50, "ground", 6 ) == 0 );
	CHECK( u32At( data + 56 ) == cnBody_static );
	CHECK( u32At( data + 60 ) == 1 );
	CHECK( u32At( data + 64 ) == cnShape_plane );

	// frames: 8 + 56 per body each
	size_t frameBytes = 8 + 56 * bodyCount;
	CHECK( size == header + frameCount * frameBytes );
	const uint8_t* last = data + header + ( frameCount - 1 ) * frameBytes;
	CHECK( f64At( last ) == lastTime );
	const uint8_t* body1 = last + 8 + 56;
	CHECK( f64At( body1 ) == t.p.x && f64At( body1 + 16 ) == t.p.z );
	CHECK( f64At( body1 + 24 ) == t.q.w && f64At( body1 + 48 ) == t.q.z );
	free( data );
}

// Loads a modified copy of the recording and checks it fails with a message holding want.
static void expectError( const uint8_t* data, size_t size, const char* want )
{
	writeAll( BAD_PATH, data, size );
	cnRecording* rec = cnLoadRecording( BAD_PATH );
	CHECK( rec == NULL );
	CHECK( strstr( cnGetError(), want ) != NULL );
	CHECK( strstr( cnGetError(), BAD_PATH ) != NULL );
	if ( rec != NULL || strstr( cnGetError(), want ) == NULL )
	{
		printf( "  wanted '%s', got '%s'\n", want, cnGetError() );
	}
	cnDestroyRecording( rec );
}

// How many of the proper prefixes data[0, n), n < count, load without the error they must give:
// "not a Cairn recording" below the 8-byte magic, "truncated" from there on. Prints the first few.
static int prefixMisses( const uint8_t* data, size_t count )
{
	int failures = 0;
	for ( size_t n = 0; n < count; ++n )
	{
		cnRecording* rec = cnLoadRecordingFromMemory( data, n, BAD_PATH );
		const char* want = n < 8 ? "not a Cairn recording" : "truncated";
		if ( rec != NULL || strstr( cnGetError(), want ) == NULL )
		{
			if ( failures++ < 5 )
			{
				printf( "  prefix of %zu bytes: '%s'\n", n, cnGetError() );
			}
		}
		cnDestroyRecording( rec );
	}
	return failures;
}

static void truncatedFiles( void )
{
	size_t size = 0;
	uint8_t* data = recordedBytes( &size, NULL, NULL );
	if ( data == NULL )
	{
		return;
	}
	// the same bytes from memory give the same recording as from the file
	{
		cnRecording* fromFile = cnLoadRecording( REC_PATH );
		cnRecording* fromMemory = cnLoadRecordingFromMemory( data, size, "memory" );
		CHECK( fromFile != NULL && fromMemory != NULL );
		if ( fromFile != NULL && fromMemory != NULL )
		{
			CHECK( cnRecording_GetFrameCount( fromMemory ) == cnRecording_GetFrameCount( fromFile ) );
			for ( int f = 0; f < cnRecording_GetFrameCount( fromFile ); ++f )
			{
				for ( int b = 0; b < bodyCount; ++b )
				{
					cnTransform x = cnRecording_GetBodyTransform( fromFile, f, b );
					cnTransform y = cnRecording_GetBodyTransform( fromMemory, f, b );
					CHECK( memcmp( &x, &y, sizeof( x ) ) == 0 );
				}
			}
		}
		cnDestroyRecording( fromFile );
		cnDestroyRecording( fromMemory );
		CHECK( cnLoadRecordingFromMemory( NULL, 16, "nothing" ) == NULL );
		CHECK( strstr( cnGetError(), "nothing: no data given" ) != NULL );
	}

	// every proper prefix of the file is an error: too short for the magic, or truncated
	CHECK( prefixMisses( data, size ) == 0 );

	// a missing file
	remove( BAD_PATH );
	CHECK( cnLoadRecording( BAD_PATH ) == NULL );
	CHECK( strstr( cnGetError(), "cannot open" ) != NULL );
	CHECK( cnIsRecordingFile( BAD_PATH ) == false );
	free( data );
}

static void corruptFiles( void )
{
	size_t size = 0;
	uint8_t* good = recordedBytes( &size, NULL, NULL );
	if ( good == NULL )
	{
		return;
	}
	uint8_t* data = malloc( size + 16 );
	size_t header = u32At( good + 20 );
	size_t frameBytes = 8 + 56 * bodyCount;

#define RESET() memcpy( data, good, size )
	RESET();
	data[0] = 'X';
	expectError( data, size, "not a Cairn recording" );
	// a version-1 file is also a valid version-2 file (the layouts differ only in polygons), but
	// a version newer than the reader is refused
	RESET();
	putU32( data + 8, CN_RECORDING_VERSION_POLYGON );
	writeAll( BAD_PATH, data, size );
	cnRecording* relabelled = cnLoadRecording( BAD_PATH );
	CHECK( relabelled != NULL && cnRecording_GetVersion( relabelled ) == CN_RECORDING_VERSION_POLYGON );
	cnDestroyRecording( relabelled );
	RESET();
	putU32( data + 8, CN_RECORDING_VERSION + 1 );
	char want[64];
	snprintf( want, sizeof( want ), "unsupported recording format version %d", CN_RECORDING_VERSION + 1 );
	expectError( data, size, want );
	RESET();
	putU32( data + 8, 0 );
	expectError( data, size, "unsupported" );
	// one more frame than the file holds, one fewer (leaving bytes over)
	RESET();
	putU32( data + 16, frameCount + 1 );
	expectError( data, size, "truncated" );
	RESET();
	putU32( data + 16, frameCount - 1 );
	expectError( data, size, "unexpected bytes" );
	RESET();
	putU32( data + 16, 0xffffffffu );
	expectError( data, size, "corrupt" );
	// absurd body counts and name lengths must not allocate or read past the end
	RESET();
	putU32( data + 12, 0x7fffffffu );
	expectError( data, size, "truncated" );
	RESET();
	putU32( data + 12, bodyCount + 1 );
	expectError( data, size, "" );
	RESET();
	putU32( data + 32, 0xfffffff0u );
	expectError( data, size, "truncated" );
	RESET();
	putU32( data + 20, (uint32_t)header + 8 );
	expectError( data, size, "corrupt" );
	RESET();
	putF64( data + 24, 0.0 );
	expectError( data, size, "fps" );
	// the first body's type, shape count and shape type (offsets from byteLayout)
	RESET();
	putU32( data + 56, 7 );
	expectError( data, size, "unknown type 7" );
	RESET();
	putU32( data + 60, 100000 );
	expectError( data, size, "truncated" );
	RESET();
	putU32( data + 64, 9 );
	expectError( data, size, "unknown shape type" );
	// version 1 has no polygons: a polygon type there is refused before any vertex list is read
	RESET();
	putU32( data + 64, cnShape_polygon );
	putF64( data + 64 + 4, 0.5 );
	expectError( data, size, "this format version cannot hold" );
	// the plane's normal (after type, radius and 3 half extents and half height: 4 + 5 * 8)
	RESET();
	putF64( data + 64 + 4 + 5 * 8, 0.0 );
	putF64( data + 64 + 4 + 7 * 8, 0.0 );
	expectError( data, size, "plane" );
	RESET();
	putF64( data + 64 + 4, NAN );
	expectError( data, size, "non-finite" );
	// frames: a time that goes backwards, a NaN position, a zero quaternion
	RESET();
	putF64( data + header + 2 * frameBytes, -1.0 );
	expectError( data, size, "frame 2 has time" );
	RESET();
	putF64( data + header + 3 * frameBytes + 8 + 56 + 8, INFINITY );
	expectError( data, size, "frame 3, body 1" );
	RESET();
	memset( data + header + 8 + 24, 0, 32 );
	expectError( data, size, "unit quaternion" );
	// a byte appended
	RESET();
	data[size] = 0;
	expectError( data, size + 1, "unexpected bytes" );

	// flipping any one byte must never crash or read out of bounds (ASan build); most flips are
	// caught, and those that are not (a low mantissa byte) still give a well-formed recording
	for ( size_t i = 0; i < size; ++i )
	{
		RESET();
		data[i] ^= 0xff;
		cnRecording* rec = cnLoadRecordingFromMemory( data, size, BAD_PATH );
		if ( rec != NULL )
		{
			CHECK( cnRecording_GetFrameCount( rec ) == frameCount );
			CHECK( cnRecording_GetBodyCount( rec ) == bodyCount );
		}
		else
		{
			CHECK( cnGetError()[0] != 0 && cnGetErrorCode() == cnError_badInput );
		}
		cnDestroyRecording( rec );
	}
#undef RESET
	remove( BAD_PATH );
	free( data );
	free( good );
}

// ---------------------------------------------------------------------------------------------
// polygons (format version 2)

#define POLY_PATH "test_recording_polygon.cnrec"
#define POLY_SCENE "polygons"

enum
{
	polyBodyCount = 3,
	polyFrameCount = 4,
	ringVertexCount = 12,
};

static const char* s_polyNames[polyBodyCount] = { "table", "triangle", "ring" };
// a non-convex table top with two legs, as FOSSSim's tables
static const cnVec3 s_table[6] = { { -3, 0, 0 },		 { 3, 0, 0 },		  { 3, -1, 0 },
									{ 0.5, -0.25, 0 }, { -0.5, -0.25, 0 }, { -3, -1, 0 } };
static const cnVec3 s_triangle[3] = { { -1, 0.5, 0 }, { 1, 0.5, 0 }, { 0.125, -1.0 / 3.0, 0 } };
static const cnVec3 s_segment[2] = { { -0.75, 0.1, 0 }, { 0.75, -0.1, 0 } };
static cnVec3 s_ring[ringVertexCount];

static cnBodyId polyBody( cnWorld* world, const char* name, cnBodyType type, cnVec3 position, cnVec3 velocity,
						  double spin )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = name;
	bd.type = type;
	bd.position = position;
	if ( type != cnBody_static )
	{
		bd.linearVelocity = velocity;
		bd.angularVelocity = cnV3( 0, 0, spin );
	}
	return cnCreateBody( world, &bd );
}

static void polyShape( cnWorld* world, cnBodyId body, const cnVec3* vertices, int count, double radius,
					   cnVec3 position, cnQuat orientation, cnMaterialId material )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_polygon;
	sd.vertices = vertices;
	sd.vertexCount = count;
	sd.radius = radius;
	sd.position = position;
	sd.orientation = orientation;
	sd.material = material;
	CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
}

// A planar world: a static table (a 6-vertex non-convex polygon), a falling, spinning triangle
// that also carries a sphere (a polygon followed by another shape), and a spinning kinematic ring
// of 12 vertices with a 2-vertex segment. The bodies are far apart and never touch: the test is
// about the file, not about contacts.
static cnWorld* buildPolygonWorld( void )
{
	for ( int k = 0; k < ringVertexCount; ++k )
	{
		double a = 2.0 * 3.14159265358979323846 * k / ringVertexCount;
		s_ring[k] = cnV3( 1.5 * cos( a ), 1.5 * sin( a ), 0.0 );
	}
	cnWorldDef wd = tbWorldDef( cnMethod_impulse, cnV3( 0, -9.81, 0 ) );
	wd.planar = true;
	cnWorld* world = tbCreateWorld( &wd );
	cnMaterialDef md = cnDefaultMaterialDef();
	md.color[0] = 0.25f;
	md.color[1] = 0.5f;
	md.color[2] = 0.75f;
	cnMaterialId tint = cnCreateMaterial( world, &md );

	cnBodyId table = polyBody( world, s_polyNames[0], cnBody_static, cnV3( 0, -5, 0 ), cnVec3_zero, 0.0 );
	polyShape( world, table, s_table, 6, 0.05, cnVec3_zero, cnQuat_identity, tint );

	cnBodyId triangle = polyBody( world, s_polyNames[1], cnBody_dynamic, cnV3( 0, 2, 0 ), cnV3( 1, 0, 0 ), 3.0 );
	// 90 degrees about z, shifted in the plane
	polyShape( world, triangle, s_triangle, 3, 0.1, cnV3( 0.25, -0.5, 0 ),
			   cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 1.5707963267948966 ), 0 );
	cnShapeDef sphere = cnDefaultShapeDef();
	sphere.radius = 0.2;
	sphere.position = cnV3( 0, 1, 0 );
	CHECK( cnCreateShape( world, triangle, &sphere ).index >= 0 );
	// a polygon has no mass of its own: FOSSSim's point masses give it
	CHECK( cnBody_SetMassData( world, triangle, 3.0, cnVec3_zero, cnDiagonal( 1.0, 1.0, 0.5 ) ) );

	cnBodyId ring = polyBody( world, s_polyNames[2], cnBody_kinematic, cnV3( 6, 0, 0 ), cnV3( 0, 0.5, 0 ), -1.0 );
	polyShape( world, ring, s_ring, ringVertexCount, 0.02, cnVec3_zero, cnQuat_identity, tint );
	polyShape( world, ring, s_segment, 2, 0.25, cnV3( 0, 0.5, 0 ), cnQuat_identity, tint );
	return world;
}

// Records the polygon world, frame 0 before any step; returns the transforms seen while recording.
static bool recordPolygonWorld( cnTransform expected[polyFrameCount][polyBodyCount] )
{
	cnWorld* world = buildPolygonWorld();
	remove( POLY_PATH );
	cnRecorder* recorder = makeRecorder( POLY_PATH, world, POLY_SCENE, 30.0 );
	CHECK( recorder != NULL );
	if ( recorder == NULL )
	{
		printf( "error: %s\n", cnGetError() );
		cnDestroyWorld( world );
		return false;
	}
	for ( int f = 0; f < polyFrameCount; ++f )
	{
		for ( int s = 0; f > 0 && s < stepsPerFrame; ++s )
		{
			CHECK( cnWorld_Step( world, 1.0 / 90.0 ) );
		}
		for ( int b = 0; b < polyBodyCount; ++b )
		{
			expected[f][b] = cnBody_GetTransform( world, cnWorld_GetBody( world, b ) );
		}
		CHECK( cnRecorder_AddFrame( recorder, world ) );
	}
	CHECK( cnRecorder_Finish( recorder ) );
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
	return true;
}

// Records the polygon world to POLY_PATH and reads the file back: NULL when either fails (a failed
// check).
static uint8_t* recordedPolygonBytes( size_t* size )
{
	cnTransform expected[polyFrameCount][polyBodyCount];
	if ( recordPolygonWorld( expected ) == false )
	{
		return NULL;
	}
	uint8_t* data = readAll( POLY_PATH, size );
	CHECK( data != NULL );
	return data;
}

static bool sameVec( cnVec3 a, cnVec3 b )
{
	return memcmp( &a, &b, sizeof( cnVec3 ) ) == 0;
}

static void polygonRoundTrip( void )
{
	cnTransform expected[polyFrameCount][polyBodyCount];
	if ( recordPolygonWorld( expected ) == false )
	{
		return;
	}
	// the triangle fell and turned, the ring turned: the frames are not all the same
	CHECK( expected[polyFrameCount - 1][1].p.y < expected[0][1].p.y );
	CHECK( expected[polyFrameCount - 1][1].q.z != expected[0][1].q.z );
	CHECK( expected[polyFrameCount - 1][2].q.z != expected[0][2].q.z );
	cnRecording* rec = cnLoadRecording( POLY_PATH );
	CHECK( rec != NULL );
	if ( rec == NULL )
	{
		printf( "error: %s\n", cnGetError() );
		return;
	}
	CHECK( cnRecording_GetVersion( rec ) == CN_RECORDING_VERSION_POLYGON );
	CHECK( cnRecording_GetBodyCount( rec ) == polyBodyCount );
	CHECK( cnRecording_GetFrameCount( rec ) == polyFrameCount );

	// every shape as the world holds it, bit for bit: a fresh copy of the same world
	cnWorld* world = buildPolygonWorld();
	int polygons = 0;
	for ( int b = 0; b < polyBodyCount && b < cnRecording_GetBodyCount( rec ); ++b )
	{
		cnBodyId id = cnWorld_GetBody( world, b );
		CHECK( strcmp( cnRecording_GetBodyName( rec, b ), s_polyNames[b] ) == 0 );
		CHECK( cnRecording_GetBodyType( rec, b ) == cnBody_GetType( world, id ) );
		cnShapeId shapes[4];
		int shapeCount = cnBody_GetShapes( world, id, shapes, 4 );
		CHECK( cnRecording_GetShapeCount( rec, b ) == shapeCount );
		for ( int j = 0; j < shapeCount && j < cnRecording_GetShapeCount( rec, b ); ++j )
		{
			cnShapeDef def = cnShape_GetDef( world, shapes[j] );
			cnRecordedShape s = cnRecording_GetShape( rec, b, j );
			CHECK( s.type == def.type );
			CHECK( s.radius == def.radius );
			CHECK( sameVec( s.localPose.p, def.position ) );
			CHECK( s.localPose.q.w == def.orientation.w && s.localPose.q.x == def.orientation.x &&
				   s.localPose.q.y == def.orientation.y && s.localPose.q.z == def.orientation.z );
			if ( def.type != cnShape_polygon )
			{
				CHECK( s.vertexCount == 0 && s.vertices == NULL );
				continue;
			}
			polygons += 1;
			CHECK( s.vertexCount == def.vertexCount && s.vertices != NULL );
			bool same = s.vertices != NULL && s.vertexCount == def.vertexCount;
			for ( int k = 0; same && k < s.vertexCount; ++k )
			{
				same = sameVec( s.vertices[k], def.vertices[k] );
			}
			CHECK( same );
			// only the polygon's own size field is written
			CHECK( s.halfHeight == 0.0 && s.halfExtents.x == 0.0 && s.normal.z == 0.0 && s.offset == 0.0 );
		}
	}
	CHECK( polygons == 4 );
	cnDestroyWorld( world );

	// and as the test wrote them
	cnRecordedShape table = cnRecording_GetShape( rec, 0, 0 );
	CHECK( table.type == cnShape_polygon && table.vertexCount == 6 && table.radius == 0.05 );
	CHECK( table.vertices != NULL && sameVec( table.vertices[3], s_table[3] ) &&
		   sameVec( table.vertices[5], s_table[5] ) );
	CHECK( table.color[0] == 0.25f && table.color[1] == 0.5f && table.color[2] == 0.75f );
	cnRecordedShape triangle = cnRecording_GetShape( rec, 1, 0 );
	CHECK( triangle.vertexCount == 3 && triangle.radius == 0.1 );
	CHECK( triangle.vertices != NULL && triangle.vertices[2].y == -1.0 / 3.0 && triangle.vertices[2].x == 0.125 );
	CHECK( cnRecording_GetShape( rec, 1, 1 ).type == cnShape_sphere );
	cnRecordedShape ring = cnRecording_GetShape( rec, 2, 0 );
	cnRecordedShape segment = cnRecording_GetShape( rec, 2, 1 );
	CHECK( ring.vertexCount == ringVertexCount && segment.vertexCount == 2 && segment.radius == 0.25 );
	CHECK( ring.vertices != NULL && sameVec( ring.vertices[ringVertexCount - 1], s_ring[ringVertexCount - 1] ) );
	CHECK( segment.vertices != NULL && sameVec( segment.vertices[1], s_segment[1] ) );
	CHECK( segment.localPose.p.y == 0.5 );

	// poses bit for bit; a planar world keeps every body in the xy-plane, turning about z only
	for ( int f = 0; f < polyFrameCount; ++f )
	{
		for ( int b = 0; b < polyBodyCount; ++b )
		{
			cnTransform t = cnRecording_GetBodyTransform( rec, f, b );
			CHECK( sameTransform( t, expected[f][b] ) );
			CHECK( t.p.z == 0.0 && t.q.x == 0.0 && t.q.y == 0.0 );
		}
	}
	// the kinematic ring moves at exactly (0, 0.5, 0) m/s
	CHECK_NEAR( cnRecording_GetBodyTransform( rec, polyFrameCount - 1, 2 ).p.y,
				0.5 * cnRecording_GetFrameTime( rec, polyFrameCount - 1 ), 1e-12 );
	cnDestroyRecording( rec );
}

// Byte offset of the first polygon's vertex count: the table's, right after its shape record.
static size_t tableVertexCountOffset( void )
{
	return 36 + strlen( POLY_SCENE ) + 12 + strlen( s_polyNames[0] ) + 144;
}

static void polygonByteLayout( void )
{
	size_t size = 0;
	uint8_t* data = recordedPolygonBytes( &size );
	if ( data == NULL )
	{
		return;
	}
	CHECK( u32At( data + 8 ) == 2 );
	// H = 36 + scene name + per body (12 + name + 144 per shape) + per polygon (4 + 24 per vertex)
	size_t header = 36 + strlen( POLY_SCENE );
	int shapes[polyBodyCount] = { 1, 2, 2 };
	for ( int b = 0; b < polyBodyCount; ++b )
	{
		header += 12 + strlen( s_polyNames[b] ) + 144 * (size_t)shapes[b];
	}
	header += ( 4 + 24 * 6 ) + ( 4 + 24 * 3 ) + ( 4 + 24 * ringVertexCount ) + ( 4 + 24 * 2 );
	CHECK( u32At( data + 20 ) == header );
	CHECK( size == header + polyFrameCount * ( 8 + 56 * polyBodyCount ) );
	// the table's record: type 5, edge radius, then the vertex count and x, y, z per vertex
	size_t table = tableVertexCountOffset() - 144;
	CHECK( u32At( data + table ) == cnShape_polygon );
	CHECK( f64At( data + table + 4 ) == 0.05 );
	size_t list = tableVertexCountOffset();
	CHECK( u32At( data + list ) == 6 );
	for ( int k = 0; k < 6; ++k )
	{
		const uint8_t* v = data + list + 4 + 24 * (size_t)k;
		CHECK( f64At( v ) == s_table[k].x && f64At( v + 8 ) == s_table[k].y && f64At( v + 16 ) == 0.0 );
	}
	// the next body record follows the last vertex
	size_t next = list + 4 + 24 * 6;
	CHECK( u32At( data + next ) == strlen( s_polyNames[1] ) );
	CHECK( memcmp( data + next + 4, s_polyNames[1], strlen( s_polyNames[1] ) ) == 0 );
	free( data );
}

static void polygonBadFiles( void )
{
	size_t size = 0;
	uint8_t* good = recordedPolygonBytes( &size );
	if ( good == NULL )
	{
		return;
	}
	// every proper prefix is an error, including those that end inside a vertex list or inside the
	// sphere record after the triangle's vertices (prefixes ending in later frames take the same
	// path as in truncatedFiles: the body records and the first frame suffice, and keep it fast)
	size_t header = u32At( good + 20 );
	size_t checked = header + 8 + 56 * polyBodyCount + 1;
	CHECK( checked < size );
	CHECK( prefixMisses( good, checked ) == 0 );
	// a cut inside the table's vertices names the polygon
	writeAll( BAD_PATH, good, tableVertexCountOffset() + 4 + 24 * 3 );
	CHECK( cnLoadRecording( BAD_PATH ) == NULL );
	CHECK( strstr( cnGetError(), "truncated: the file ends inside the polygon's 6 vertices" ) != NULL );
	CHECK( strstr( cnGetError(), "body 0, \"table\"" ) != NULL );

	uint8_t* data = malloc( size );
	size_t count = tableVertexCountOffset();
	size_t vertex0 = count + 4;
#define RESET() memcpy( data, good, size )
	// vertex counts out of bounds are corrupt; a count in bounds that the file cannot hold is a
	// truncation, found before any allocation
	uint32_t badCounts[] = { 0, 1, CN_RECORDING_MAX_POLYGON_VERTICES + 1, 0x80000000u, 0xffffffffu };
	for ( int k = 0; k < (int)( sizeof( badCounts ) / sizeof( badCounts[0] ) ); ++k )
	{
		RESET();
		putU32( data + count, badCounts[k] );
		char want[64];
		snprintf( want, sizeof( want ), "corrupt: the polygon has %u vertices", badCounts[k] );
		expectError( data, size, want );
	}
	RESET();
	putU32( data + count, CN_RECORDING_MAX_POLYGON_VERTICES );
	expectError( data, size, "truncated: the file ends inside the polygon's 32767 vertices" );
	// one vertex more than written: the list then runs into the next body record, whose bytes
	// are not a vertex with z = 0 or leave the body records ending elsewhere than byte H
	RESET();
	putU32( data + count, 7 );
	expectError( data, size, "corrupt" );
	// vertex values: not finite, off the xy-plane
	RESET();
	putF64( data + vertex0 + 24 * 2 + 8, NAN );
	expectError( data, size, "polygon vertex 2 is" );
	RESET();
	putF64( data + vertex0 + 24 * 4, -INFINITY );
	expectError( data, size, "not finite with z = 0" );
	RESET();
	putF64( data + vertex0 + 24 * 5 + 16, 0.5 );
	expectError( data, size, "polygon vertex 5 is" );
	// the edge radius must be > 0
	RESET();
	putF64( data + count - 144 + 4, 0.0 );
	expectError( data, size, "edge radius <= 0" );
	RESET();
	putF64( data + count - 144 + 4, -0.05 );
	expectError( data, size, "edge radius <= 0" );
	// a version-1 label: a polygon there is refused
	RESET();
	putU32( data + 8, 1 );
	expectError( data, size, "this format version cannot hold" );
	// the polygon retyped as a sphere: its vertex list is read as the next body record
	RESET();
	putU32( data + count - 144, cnShape_sphere );
	expectError( data, size, "" );

	// flipping any one byte of the body records or the first frame never crashes or reads out of
	// bounds (ASan build)
	for ( size_t i = 0; i < checked; ++i )
	{
		RESET();
		data[i] ^= 0xff;
		cnRecording* rec = cnLoadRecordingFromMemory( data, size, BAD_PATH );
		if ( rec != NULL )
		{
			CHECK( cnRecording_GetBodyCount( rec ) == polyBodyCount );
			CHECK( cnRecording_GetShape( rec, 2, 0 ).vertexCount == ringVertexCount );
		}
		else
		{
			CHECK( cnGetError()[0] != 0 && cnGetErrorCode() == cnError_badInput );
		}
		cnDestroyRecording( rec );
	}
#undef RESET
	remove( BAD_PATH );
	remove( POLY_PATH );
	free( data );
	free( good );
}

static void writerFailures( void )
{
	cnWorld* world = buildWorld();

	// an unwritable place gives NULL and a message, and nothing on disk
	CHECK( makeRecorder( "no_such_directory/x.cnrec", world, "x", 30 ) == NULL );
	CHECK( strstr( cnGetError(), "no_such_directory/x.cnrec.tmp" ) != NULL );
	CHECK( makeRecorder( REC_PATH, world, "x", 0.0 ) == NULL );
	CHECK( strstr( cnGetError(), "fps" ) != NULL );

	// Abort removes the temporary file and never creates the real one
	remove( REC_PATH );
	cnRecorder* recorder = makeRecorder( REC_PATH, world, "x", 30 );
	CHECK( recorder != NULL );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	cnDestroyRecorder( recorder );
	CHECK( fileExists( REC_TEMP ) == false );
	CHECK( fileExists( REC_PATH ) == false );

	// a destroyed body fails the next frame, and Finish then fails and leaves nothing
	recorder = makeRecorder( REC_PATH, world, "x", 30 );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	cnDestroyBody( world, cnWorld_GetBody( world, 3 ) );
	CHECK( cnRecorder_AddFrame( recorder, world ) == false );
	CHECK( strstr( cnGetError(), "destroyed" ) != NULL );
	CHECK( cnRecorder_AddFrame( recorder, world ) == false );
	CHECK( cnRecorder_Finish( recorder ) == false );
	CHECK( strstr( cnGetError(), "destroyed" ) != NULL );
	cnDestroyRecorder( recorder );
	CHECK( fileExists( REC_TEMP ) == false );
	CHECK( fileExists( REC_PATH ) == false );

	// frames from another world are refused
	cnWorld* other = buildWorld();
	recorder = makeRecorder( REC_PATH, other, "x", 30 );
	CHECK( cnRecorder_AddFrame( recorder, world ) == false );
	cnDestroyRecorder( recorder );
	cnDestroyRecorder( NULL );

	// a recording without frames is valid
	recorder = makeRecorder( REC_PATH, other, "", 24 );
	CHECK( cnRecorder_Finish( recorder ) );
	cnDestroyRecorder( recorder );
	cnRecording* rec = cnLoadRecording( REC_PATH );
	CHECK( rec != NULL );
	if ( rec != NULL )
	{
		CHECK( cnRecording_GetFrameCount( rec ) == 0 );
		CHECK( cnRecording_GetBodyCount( rec ) == bodyCount );
		CHECK( strcmp( cnRecording_GetSceneName( rec ), "" ) == 0 );
		CHECK( cnRecording_GetFps( rec ) == 24.0 );
	}
	cnDestroyRecording( rec );
	remove( REC_PATH );
	cnDestroyWorld( world );
	cnDestroyWorld( other );
}

// ---------------------------------------------------------------------------------------------
// appearance (format version 3)

// Materials with a finish, an index of refraction and a texture make a version-3 recording that
// reads them back shape by shape; default-looking materials keep version 1; every prefix of a
// version-3 file is refused as truncated.
static void appearanceRoundTrip( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def );
	cnMaterialDef glass = cnDefaultMaterialDef();
	glass.finish = cnFinish_glass;
	glass.ior = 1.33;
	glass.color[0] = 0.2f;
	cnMaterialDef oak = cnDefaultMaterialDef();
	oak.finish = cnFinish_wood;
	oak.texture = "oak.png";
	cnMaterialId g = cnCreateMaterial( world, &glass );
	cnMaterialId o = cnCreateMaterial( world, &oak );
	cnBodyDef bd = cnDefaultBodyDef();
	cnBodyId body = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.material = g;
	cnCreateShape( world, body, &sd );
	sd.type = cnShape_box;
	sd.material = o;
	sd.position = cnV3( 2, 0, 0 );
	cnCreateShape( world, body, &sd );
	cnRecorderDef rd = cnDefaultRecorderDef();
	cnRecorder* recorder = cnCreateRecorder( world, &rd );
	CHECK( recorder != NULL && cnRecorder_AddFrame( recorder, world ) && cnRecorder_Finish( recorder ) );
	size_t size = 0;
	const uint8_t* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* rec = cnLoadRecordingFromMemory( bytes, size, "appearance" );
	CHECK( rec != NULL );
	if ( rec != NULL )
	{
		CHECK( cnRecording_GetVersion( rec ) == CN_RECORDING_VERSION_APPEARANCE );
		cnRecordedShape a = cnRecording_GetShape( rec, 0, 0 ), b = cnRecording_GetShape( rec, 0, 1 );
		CHECK( a.finish == cnFinish_glass && a.ior == 1.33 && strcmp( a.texture, "" ) == 0 && a.color[0] == 0.2f );
		CHECK( b.finish == cnFinish_wood && b.ior == 1.5 && strcmp( b.texture, "oak.png" ) == 0 );
	}
	cnDestroyRecording( rec );
	CHECK( prefixMisses( bytes, size ) == 0 );
	// a corrupt finish is refused
	uint8_t* copy = malloc( size );
	memcpy( copy, bytes, size );
	size_t finishAt = 0;
	for ( size_t i = 0; i + 7 < size; ++i )
	{
		if ( memcmp( copy + i, "oak.png", 7 ) == 0 )
		{
			// texture bytes follow finish (4), ior (8) and the length (4)
			finishAt = i - 16;
			break;
		}
	}
	CHECK( finishAt > 0 );
	copy[finishAt] = 77;
	CHECK( cnLoadRecordingFromMemory( copy, size, "corrupt" ) == NULL && strstr( cnGetError(), "finish 77" ) != NULL );
	free( copy );
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( roundTrip );
	RUN_TEST( byteLayout );
	RUN_TEST( truncatedFiles );
	RUN_TEST( corruptFiles );
	RUN_TEST( polygonRoundTrip );
	RUN_TEST( polygonByteLayout );
	RUN_TEST( polygonBadFiles );
	RUN_TEST( writerFailures );
	RUN_TEST( appearanceRoundTrip );
	remove( REC_PATH );
	return TEST_SUMMARY();
}
