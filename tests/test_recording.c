// SPDX-License-Identifier: MIT
// Binary recordings: a small world is recorded and read back value by value; the byte layout
// is checked against docs/recording-format.md; every truncation and many corruptions of the
// file give a clear error (and never a crash, which the sanitizer build checks).
#include "cairn/recording.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// files are written into the test's working directory (the build's tests/ folder)
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
	cnWorldDef wd = cnDefaultWorldDef();
	wd.enableSleep = false;
	cnWorld* world = cnCreateWorld( &wd, NULL, 0 );

	cnMaterialDef md = cnDefaultMaterialDef();
	md.name = "red";
	md.color[0] = 0.75f;
	md.color[1] = 0.125f;
	md.color[2] = 0.0f;
	cnMaterialId red = cnWorld_CreateMaterial( world, &md );
	md.name = "blue";
	md.color[0] = 0.0f;
	md.color[1] = 0.25f;
	md.color[2] = 1.0f;
	cnMaterialId blue = cnWorld_CreateMaterial( world, &md );
	// the library does not restrict colours; the recording clamps them to [0, 1]
	md.name = "glow";
	md.color[0] = 2.0f;
	md.color[1] = -1.0f;
	md.color[2] = 0.5f;
	cnMaterialId glow = cnWorld_CreateMaterial( world, &md );
	cnMaterialDef defaultMaterial = cnDefaultMaterialDef();
	defaultMaterial.color[0] = 0.5f;
	defaultMaterial.color[1] = 0.5f;
	defaultMaterial.color[2] = 0.5f;
	cnWorld_SetMaterial( world, 0, &defaultMaterial );

	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = s_names[0];
	bd.type = cnBody_static;
	cnBodyId ground = cnWorld_CreateBody( world, &bd );
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
	cnBodyId crate = cnWorld_CreateBody( world, &bd );
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
	cnBodyId paddle = cnWorld_CreateBody( world, &bd );
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
	cnBodyId roller = cnWorld_CreateBody( world, &bd );
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
	char error[256] = "";
	remove( REC_PATH );
	cnRecorder* recorder = cnRecorder_Create( REC_PATH, world, "round trip", 30.0, error, (int)sizeof( error ) );
	CHECK( recorder != NULL );
	if ( recorder == NULL )
	{
		printf( "error: %s\n", error );
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
	CHECK( strcmp( cnRecorder_GetError( recorder ), "" ) == 0 );
	CHECK( cnRecorder_Finish( recorder, error, (int)sizeof( error ) ) );
	CHECK( fileExists( REC_PATH ) );
	CHECK( fileExists( REC_TEMP ) == false );
	cnDestroyWorld( world );
	return true;
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

	char error[256] = "";
	CHECK( cnIsRecordingFile( REC_PATH ) );
	cnRecording* rec = cnRecording_Load( REC_PATH, error, (int)sizeof( error ) );
	CHECK( rec != NULL );
	if ( rec == NULL )
	{
		printf( "error: %s\n", error );
		return;
	}
	CHECK( cnRecording_GetVersion( rec ) == CN_RECORDING_VERSION );
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
	cnRecording_Free( rec );
}

// The bytes follow docs/recording-format.md: fixed fields at their offsets and the file size
// given by the layout's formula.
static void byteLayout( void )
{
	cnTransform expected[frameCount][bodyCount];
	double times[frameCount];
	if ( recordWorld( expected, times ) == false )
	{
		return;
	}
	size_t size = 0;
	uint8_t* data = readAll( REC_PATH, &size );
	CHECK( data != NULL );
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
	CHECK( f64At( last ) == times[frameCount - 1] );
	cnTransform t = expected[frameCount - 1][1];
	const uint8_t* body1 = last + 8 + 56;
	CHECK( f64At( body1 ) == t.p.x && f64At( body1 + 16 ) == t.p.z );
	CHECK( f64At( body1 + 24 ) == t.q.w && f64At( body1 + 48 ) == t.q.z );
	free( data );
}

// Loads a modified copy of the recording and checks it fails with a message holding want.
static void expectError( const uint8_t* data, size_t size, const char* want )
{
	writeAll( BAD_PATH, data, size );
	char error[512] = "";
	cnRecording* rec = cnRecording_Load( BAD_PATH, error, (int)sizeof( error ) );
	CHECK( rec == NULL );
	CHECK( strstr( error, want ) != NULL );
	CHECK( strstr( error, BAD_PATH ) != NULL );
	if ( rec != NULL || strstr( error, want ) == NULL )
	{
		printf( "  wanted '%s', got '%s'\n", want, error );
	}
	cnRecording_Free( rec );
}

static void truncatedFiles( void )
{
	cnTransform expected[frameCount][bodyCount];
	double times[frameCount];
	if ( recordWorld( expected, times ) == false )
	{
		return;
	}
	size_t size = 0;
	uint8_t* data = readAll( REC_PATH, &size );
	if ( data == NULL )
	{
		CHECK( data != NULL );
		return;
	}
	// every proper prefix of the file is an error: too short for the magic, or truncated
	int failures = 0;
	for ( size_t n = 0; n < size; ++n )
	{
		writeAll( BAD_PATH, data, n );
		char error[512] = "";
		cnRecording* rec = cnRecording_Load( BAD_PATH, error, (int)sizeof( error ) );
		const char* want = n < 8 ? "not a Cairn recording" : "truncated";
		if ( rec != NULL || strstr( error, want ) == NULL )
		{
			if ( failures++ < 5 )
			{
				printf( "  prefix of %zu bytes: '%s'\n", n, error );
			}
		}
		cnRecording_Free( rec );
	}
	CHECK( failures == 0 );

	// a missing file
	char error[512] = "";
	remove( BAD_PATH );
	CHECK( cnRecording_Load( BAD_PATH, error, (int)sizeof( error ) ) == NULL );
	CHECK( strstr( error, "cannot open" ) != NULL );
	CHECK( cnIsRecordingFile( BAD_PATH ) == false );
	free( data );
}

static void corruptFiles( void )
{
	cnTransform expected[frameCount][bodyCount];
	double times[frameCount];
	if ( recordWorld( expected, times ) == false )
	{
		return;
	}
	size_t size = 0;
	uint8_t* good = readAll( REC_PATH, &size );
	if ( good == NULL )
	{
		CHECK( good != NULL );
		return;
	}
	uint8_t* data = malloc( size + 16 );
	size_t header = u32At( good + 20 );
	size_t frameBytes = 8 + 56 * bodyCount;

#define RESET() memcpy( data, good, size )
	RESET();
	data[0] = 'X';
	expectError( data, size, "not a Cairn recording" );
	RESET();
	putU32( data + 8, 2 );
	expectError( data, size, "unsupported recording format version 2" );
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
		writeAll( BAD_PATH, data, size );
		char error[512] = "";
		cnRecording* rec = cnRecording_Load( BAD_PATH, error, (int)sizeof( error ) );
		if ( rec != NULL )
		{
			CHECK( cnRecording_GetFrameCount( rec ) == frameCount );
			CHECK( cnRecording_GetBodyCount( rec ) == bodyCount );
		}
		else
		{
			CHECK( error[0] != 0 );
		}
		cnRecording_Free( rec );
	}
#undef RESET
	remove( BAD_PATH );
	free( data );
	free( good );
}

static void writerFailures( void )
{
	char error[256] = "";
	cnWorld* world = buildWorld();

	// an unwritable place gives NULL and a message, and nothing on disk
	CHECK( cnRecorder_Create( "no_such_directory/x.cnrec", world, "x", 30, error, (int)sizeof( error ) ) == NULL );
	CHECK( strstr( error, "no_such_directory/x.cnrec.tmp" ) != NULL );
	CHECK( cnRecorder_Create( REC_PATH, world, "x", 0.0, error, (int)sizeof( error ) ) == NULL );
	CHECK( strstr( error, "fps" ) != NULL );

	// Abort removes the temporary file and never creates the real one
	remove( REC_PATH );
	cnRecorder* recorder = cnRecorder_Create( REC_PATH, world, "x", 30, error, (int)sizeof( error ) );
	CHECK( recorder != NULL );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	cnRecorder_Abort( recorder );
	CHECK( fileExists( REC_TEMP ) == false );
	CHECK( fileExists( REC_PATH ) == false );

	// a destroyed body fails the next frame, and Finish then fails and leaves nothing
	recorder = cnRecorder_Create( REC_PATH, world, "x", 30, error, (int)sizeof( error ) );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	cnBody_Destroy( world, cnWorld_GetBody( world, 3 ) );
	CHECK( cnRecorder_AddFrame( recorder, world ) == false );
	CHECK( strstr( cnRecorder_GetError( recorder ), "destroyed" ) != NULL );
	CHECK( cnRecorder_AddFrame( recorder, world ) == false );
	CHECK( cnRecorder_Finish( recorder, error, (int)sizeof( error ) ) == false );
	CHECK( strstr( error, "destroyed" ) != NULL );
	CHECK( fileExists( REC_TEMP ) == false );
	CHECK( fileExists( REC_PATH ) == false );

	// frames from another world are refused
	cnWorld* other = buildWorld();
	recorder = cnRecorder_Create( REC_PATH, other, "x", 30, error, (int)sizeof( error ) );
	CHECK( cnRecorder_AddFrame( recorder, world ) == false );
	cnRecorder_Abort( recorder );
	cnRecorder_Abort( NULL );

	// a recording without frames is valid
	recorder = cnRecorder_Create( REC_PATH, other, "", 24, error, (int)sizeof( error ) );
	CHECK( cnRecorder_Finish( recorder, error, (int)sizeof( error ) ) );
	cnRecording* rec = cnRecording_Load( REC_PATH, error, (int)sizeof( error ) );
	CHECK( rec != NULL );
	if ( rec != NULL )
	{
		CHECK( cnRecording_GetFrameCount( rec ) == 0 );
		CHECK( cnRecording_GetBodyCount( rec ) == bodyCount );
		CHECK( strcmp( cnRecording_GetSceneName( rec ), "" ) == 0 );
		CHECK( cnRecording_GetFps( rec ) == 24.0 );
	}
	cnRecording_Free( rec );
	remove( REC_PATH );
	cnDestroyWorld( world );
	cnDestroyWorld( other );
}

int main( void )
{
	RUN_TEST( roundTrip );
	RUN_TEST( byteLayout );
	RUN_TEST( truncatedFiles );
	RUN_TEST( corruptFiles );
	RUN_TEST( writerFailures );
	remove( REC_PATH );
	return TEST_SUMMARY();
}
