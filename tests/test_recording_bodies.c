// SPDX-License-Identifier: MIT
// A body set that changes while recording (format version 6, docs/recording-format.md): a world
// made through the API gets a sphere created before frame 10 and loses a box before frame 20; the
// recording (into memory and to a file, the same bytes) reads back with every body's state at every
// frame (present, not created yet, destroyed), its first frame and its poses equal to the world's
// bit for bit; a recorder given a body list records that list only; without changingBodies the
// writer keeps the old versions and every body of those files is present; every truncation and each
// corruption of the state bytes and of the bodies a frame describes gives a clear error.
#include "cairn/io.h"
#include "cairn/recording.h"
#include "test.h"
#include "test_bodies.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REC_PATH "test_recording_bodies_out.cnrec"
#define BAD_NAME "bodies.cnrec"
#include "test_recording_expect.h"

enum
{
	frameCount = 30,
	stepsPerFrame = 4,
	// the sphere is created just before this frame is recorded, the box destroyed just before this one
	createFrame = 10,
	destroyFrame = 20,
	// ground, ball, box, then the sphere created later
	bodyTotal = 4,
};

static const double dt = 1.0 / 240.0;

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

// A named body of one sphere (halfExtents zero) or box.
static cnBodyId namedBody( cnWorld* world, cnBodyType type, const char* name, cnVec3 position, cnVec3 velocity,
						   double radius, cnVec3 halfExtents, cnMaterialId material )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = type;
	bd.name = name;
	bd.position = position;
	bd.linearVelocity = velocity;
	cnBodyId id = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.material = material;
	if ( type == cnBody_static )
	{
		sd.type = cnShape_plane;
		sd.normal = cnV3( 0.0, 0.0, 1.0 );
	}
	else if ( halfExtents.x > 0.0 )
	{
		sd.type = cnShape_box;
		sd.halfExtents = halfExtents;
	}
	else
	{
		sd.radius = radius;
	}
	CHECK( cnCreateShape( world, id, &sd ).index >= 0 );
	return id;
}

// The poses the world had at each recorded frame (bodies in recording order; unset where absent).
typedef struct Expected
{
	cnTransform poses[frameCount][bodyTotal];
} Expected;

// Records the world with a body created at createFrame and one destroyed at destroyFrame; path NULL
// records into memory and returns a copy of the bytes (*size), else returns NULL after writing the
// file. bodies (count) as in cnRecorderDef.
static uint8_t* recordChanging( const char* path, size_t* size, Expected* expected, bool listed )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0.0, 0.0, -9.81 ) );
	cnMaterialId material = tbMaterial( world, 0.5, 0.2 );
	namedBody( world, cnBody_static, "ground", cnVec3_zero, cnVec3_zero, 0.0, cnVec3_zero, material );
	cnBodyId ball = namedBody( world, cnBody_dynamic, "ball", cnV3( 0.0, 0.0, 1.0 ), cnV3( 0.5, 0.0, 0.0 ), 0.25,
							   cnVec3_zero, material );
	cnBodyId box = namedBody( world, cnBody_dynamic, "box", cnV3( 2.0, 0.0, 2.0 ), cnVec3_zero, 0.0, cnV3( 0.3, 0.2, 0.1 ),
							  material );
	cnBodyId list[2] = { cnWorld_GetBody( world, 0 ), box };
	cnRecorderDef def = cnDefaultRecorderDef();
	def.path = path;
	def.sceneName = "changing";
	def.fps = 60.0;
	def.changingBodies = true;
	if ( listed )
	{
		def.bodies = list;
		def.bodyCount = 2;
	}
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	CHECK( recorder != NULL );
	for ( int f = 0; recorder != NULL && f < frameCount; ++f )
	{
		if ( f == createFrame )
		{
			namedBody( world, cnBody_dynamic, "late", cnV3( -1.0, 0.0, 3.0 ), cnVec3_zero, 0.2, cnVec3_zero, material );
		}
		if ( f == destroyFrame )
		{
			CHECK( cnDestroyBody( world, box ) );
		}
		CHECK( cnRecorder_AddFrame( recorder, world ) );
		for ( int b = 0; expected != NULL && b < bodyTotal; ++b )
		{
			cnBodyId id = b == 0 ? cnWorld_GetBody( world, 0 )
						  : b == 1 ? ball
						  : b == 2 ? box
								   : cnWorld_FindBody( world, "late" );
			expected->poses[f][b] = cnBody_IsValid( world, id ) ? cnBody_GetTransform( world, id ) : cnTransform_identity;
		}
		for ( int s = 0; s < stepsPerFrame; ++s )
		{
			cnWorld_Step( world, dt );
		}
	}
	CHECK( recorder != NULL && cnRecorder_Finish( recorder ) );
	uint8_t* copy = NULL;
	if ( path == NULL && recorder != NULL )
	{
		const void* bytes = cnRecorder_GetBytes( recorder, size );
		copy = malloc( *size );
		memcpy( copy, bytes, *size );
	}
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
	return copy;
}

static bool sameTransform( cnTransform a, cnTransform b )
{
	return a.p.x == b.p.x && a.p.y == b.p.y && a.p.z == b.p.z && a.q.w == b.q.w && a.q.x == b.q.x && a.q.y == b.q.y &&
		   a.q.z == b.q.z;
}

static void readBack( void )
{
	static Expected expected;
	size_t size = 0;
	uint8_t* data = recordChanging( NULL, &size, &expected, false );
	CHECK( data != NULL );
	cnRecording* rec = data != NULL ? cnLoadRecordingFromMemory( data, size, "memory" ) : NULL;
	CHECK( rec != NULL );
	if ( rec == NULL )
	{
		printf( "  %s\n", cnGetError() );
		free( data );
		return;
	}
	CHECK( cnRecording_GetVersion( rec ) == CN_RECORDING_VERSION_CHANGING_BODIES );
	CHECK( cnRecording_GetFrameCount( rec ) == frameCount );
	CHECK( cnRecording_GetBodyCount( rec ) == bodyTotal );
	const char* names[bodyTotal] = { "ground", "ball", "box", "late" };
	for ( int b = 0; b < bodyTotal; ++b )
	{
		CHECK( strcmp( cnRecording_GetBodyName( rec, b ), names[b] ) == 0 );
	}
	CHECK( cnRecording_GetShape( rec, 3, 0 ).type == cnShape_sphere && cnRecording_GetShape( rec, 3, 0 ).radius == 0.2 );
	CHECK( cnRecording_GetBodyFirstFrame( rec, 0 ) == 0 );
	CHECK( cnRecording_GetBodyFirstFrame( rec, 2 ) == 0 );
	CHECK( cnRecording_GetBodyFirstFrame( rec, 3 ) == createFrame );
	int wrongState = 0, wrongPose = 0;
	for ( int f = 0; f < frameCount; ++f )
	{
		for ( int b = 0; b < bodyTotal; ++b )
		{
			cnRecordedBodyState want = cnRecordedBody_present;
			if ( b == 3 && f < createFrame )
			{
				want = cnRecordedBody_notCreated;
			}
			if ( b == 2 && f >= destroyFrame )
			{
				want = cnRecordedBody_destroyed;
			}
			wrongState += cnRecording_GetBodyState( rec, f, b ) != want;
			wrongState += cnRecording_IsBodyPresent( rec, f, b ) != ( want == cnRecordedBody_present );
			cnTransform got = cnRecording_GetBodyTransform( rec, f, b );
			if ( want == cnRecordedBody_present )
			{
				wrongPose += sameTransform( got, expected.poses[f][b] ) == false;
			}
			else if ( want == cnRecordedBody_destroyed )
			{
				// a destroyed body keeps the last pose it had
				wrongPose += sameTransform( got, expected.poses[destroyFrame - 1][b] ) == false;
			}
			else
			{
				wrongPose += sameTransform( got, cnTransform_identity ) == false;
			}
		}
	}
	CHECK( wrongState == 0 );
	CHECK( wrongPose == 0 );
	// the late sphere falls from where it was created
	CHECK( cnRecording_GetBodyTransform( rec, createFrame, 3 ).p.z == 3.0 );
	CHECK( cnRecording_GetBodyTransform( rec, frameCount - 1, 3 ).p.z < 3.0 );
	// out of range
	CHECK( cnRecording_GetBodyState( rec, frameCount, 0 ) == cnRecordedBody_notCreated );
	CHECK( cnRecording_GetBodyState( rec, 0, bodyTotal ) == cnRecordedBody_notCreated );
	CHECK( cnRecording_IsBodyPresent( rec, -1, 0 ) == false );
	CHECK( cnRecording_GetBodyFirstFrame( rec, -1 ) == -1 );
	cnDestroyRecording( rec );

	// the file recording holds the same bytes
	recordChanging( REC_PATH, NULL, NULL, false );
	FILE* file = fopen( REC_PATH, "rb" );
	CHECK( file != NULL );
	if ( file != NULL )
	{
		uint8_t* bytes = malloc( size + 1 );
		size_t got = fread( bytes, 1, size + 1, file );
		fclose( file );
		CHECK( got == size && memcmp( bytes, data, size ) == 0 );
		free( bytes );
	}
	rec = cnLoadRecording( REC_PATH );
	CHECK( rec != NULL && cnRecording_GetBodyCount( rec ) == bodyTotal );
	cnDestroyRecording( rec );
	remove( REC_PATH );
	free( data );
}

// Reads a whole text file (NULL when it cannot).
static char* readText( const char* path )
{
	FILE* file = fopen( path, "rb" );
	if ( file == NULL )
	{
		return NULL;
	}
	fseek( file, 0, SEEK_END );
	long size = ftell( file );
	fseek( file, 0, SEEK_SET );
	char* text = malloc( (size_t)size + 1 );
	size_t got = fread( text, 1, (size_t)size, file );
	text[got] = 0;
	fclose( file );
	return text;
}

// The consumers leave out what is not there: a POV-Ray frame draws only the present bodies, and the
// glTF export gives the bodies that come and go a scale track.
static void consumers( void )
{
	size_t size = 0;
	uint8_t* data = recordChanging( NULL, &size, NULL, false );
	cnRecording* rec = data != NULL ? cnLoadRecordingFromMemory( data, size, "memory" ) : NULL;
	CHECK( rec != NULL );
	if ( rec == NULL )
	{
		free( data );
		return;
	}
	cnView view = cnRecording_GetAutoView( rec, 1.0 );
	cnPovOptions options = cnDefaultPovOptions();
	const int frames[3] = { createFrame - 1, createFrame, destroyFrame };
	const bool late[3] = { false, true, true }, box[3] = { true, true, false };
	for ( int k = 0; k < 3; ++k )
	{
		FILE* out = fopen( "test_recording_bodies.pov", "wb" );
		CHECK( out != NULL && cnWritePovFrame( out, rec, frames[k], &view, &options ) );
		if ( out != NULL )
		{
			fclose( out );
		}
		char* text = readText( "test_recording_bodies.pov" );
		CHECK( text != NULL );
		if ( text != NULL )
		{
			CHECK( ( strstr( text, "// body 3: late" ) != NULL ) == late[k] );
			CHECK( ( strstr( text, "// body 2: box" ) != NULL ) == box[k] );
			CHECK( strstr( text, "// body 1: ball" ) != NULL );
		}
		free( text );
	}
	remove( "test_recording_bodies.pov" );
	cnGltfOptions gltf = cnDefaultGltfOptions();
	CHECK( cnWriteGltf( "test_recording_bodies.gltf", rec, NULL, &gltf ) );
	char* text = readText( "test_recording_bodies.gltf" );
	CHECK( text != NULL && strstr( text, "\"scale\"" ) != NULL );
	free( text );
	remove( "test_recording_bodies.gltf" );
	char buffer[512];
	if ( cnGltfBufferPath( "test_recording_bodies.gltf", buffer, sizeof( buffer ) ) )
	{
		remove( buffer );
	}
	cnDestroyRecording( rec );
	free( data );
}

// With a body list, only the listed bodies are recorded: a destroyed one as destroyed, none added.
static void listedBodies( void )
{
	size_t size = 0;
	uint8_t* data = recordChanging( NULL, &size, NULL, true );
	cnRecording* rec = data != NULL ? cnLoadRecordingFromMemory( data, size, "listed" ) : NULL;
	CHECK( rec != NULL );
	if ( rec != NULL )
	{
		CHECK( cnRecording_GetBodyCount( rec ) == 2 );
		CHECK( cnRecording_IsBodyPresent( rec, destroyFrame - 1, 1 ) );
		CHECK( cnRecording_GetBodyState( rec, destroyFrame, 1 ) == cnRecordedBody_destroyed );
		CHECK( cnRecording_IsBodyPresent( rec, frameCount - 1, 0 ) );
	}
	cnDestroyRecording( rec );
	free( data );
}

// Without changingBodies nothing changes: the old versions, every body present, a destroyed body fails.
static void fixedBodies( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0.0, 0.0, -9.81 ) );
	cnMaterialId material = tbGround( world, 0.5, 0.2 );
	cnBodyId ball = tbSphere( world, cnBody_dynamic, cnV3( 0.0, 0.0, 1.0 ), cnVec3_zero, 0.25, material );
	cnRecorderDef def = cnDefaultRecorderDef();
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	CHECK( recorder != NULL );
	for ( int f = 0; f < 3; ++f )
	{
		CHECK( cnRecorder_AddFrame( recorder, world ) );
		cnWorld_Step( world, dt );
	}
	// a body created now is not recorded
	tbSphere( world, cnBody_dynamic, cnV3( 0.0, 0.0, 3.0 ), cnVec3_zero, 0.25, material );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	CHECK( cnRecorder_Finish( recorder ) );
	size_t size = 0;
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* rec = cnLoadRecordingFromMemory( bytes, size, "fixed" );
	CHECK( rec != NULL );
	if ( rec != NULL )
	{
		CHECK( cnRecording_GetVersion( rec ) == 1 );
		CHECK( cnRecording_GetBodyCount( rec ) == 2 );
		bool all = true;
		for ( int f = 0; f < cnRecording_GetFrameCount( rec ); ++f )
		{
			for ( int b = 0; b < 2; ++b )
			{
				all = all && cnRecording_IsBodyPresent( rec, f, b );
			}
		}
		CHECK( all );
		CHECK( cnRecording_GetBodyFirstFrame( rec, 1 ) == 0 );
	}
	cnDestroyRecording( rec );
	cnDestroyRecorder( recorder );

	recorder = cnCreateRecorder( world, &def );
	CHECK( cnDestroyBody( world, ball ) );
	CHECK( cnRecorder_AddFrame( recorder, world ) == false );
	CHECK( strstr( cnGetError(), "was destroyed" ) != NULL );
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
}

static void badFiles( void )
{
	size_t size = 0;
	uint8_t* good = recordChanging( NULL, &size, NULL, false );
	if ( good == NULL )
	{
		CHECK( good != NULL );
		return;
	}
	uint8_t* data = malloc( size + 8 );
	// the layout: frames 0 to 9 hold three bodies, frame 10 describes the fourth, the rest hold four
	uint32_t header = u32At( good + 20 );
	size_t small = 8 + 4 + 57 * 3, large = 8 + 4 + 57 * 4;
	size_t frame10 = header + createFrame * small;
	size_t frame11 = size - ( frameCount - createFrame - 1 ) * large;
	size_t frame21 = frame11 + ( destroyFrame + 1 - createFrame - 1 ) * large;
	CHECK( u32At( good + 8 ) == 6 );
	CHECK( u32At( good + 12 ) == 3 );
	CHECK( u32At( good + frame10 + 8 ) == 1 && u32At( good + header + 8 ) == 0 );

	// every proper prefix is refused with a message, never a crash
	int misses = 0;
	for ( size_t n = 0; n < size; ++n )
	{
		cnRecording* rec = cnLoadRecordingFromMemory( good, n, BAD_NAME );
		misses += rec != NULL || strncmp( cnGetError(), BAD_NAME ": ", strlen( BAD_NAME ) + 2 ) != 0;
		cnDestroyRecording( rec );
	}
	CHECK( misses == 0 );
	// a byte after the last frame
	memcpy( data, good, size );
	data[size] = 0;
	expectError( data, size + 1, "corrupt: 1 unexpected bytes after frame 30" );
	// a state byte that is neither present nor destroyed: 1 (not created) and 3
	memcpy( data, good, size );
	data[header + 12 + 57 * 1] = 1;
	expectError( data, size, "corrupt: frame 0, body 1 (\"ball\"): unknown state 1 (0 present, 2 destroyed)" );
	data[header + 12 + 57 * 1] = 3;
	expectError( data, size, "unknown state 3" );
	// the box present again after it was destroyed
	memcpy( data, good, size );
	CHECK( data[frame21 + 12 + 57 * 2] == 2 );
	data[frame21 + 12 + 57 * 2] = 0;
	expectError( data, size, "corrupt: frame 21, body 2 (\"box\") is present after it was destroyed" );
	// the body a frame describes said destroyed there
	memcpy( data, good, size );
	size_t states10 = frame11 - 57 * 4;
	CHECK( data[states10 + 57 * 3] == 0 );
	data[states10 + 57 * 3] = 2;
	expectError( data, size, "corrupt: frame 10 describes body 3 (\"late\") but says it is destroyed there" );
	// a frame that describes more bodies than the file could hold
	memcpy( data, good, size );
	putU32( data + frame10 + 8, 0x40000000u );
	expectError( data, size, "truncated: the file declares 1073741824 bodies but is too short for them" );
	// a frame that describes no body where one follows: the record is read as states and poses
	memcpy( data, good, size );
	putU32( data + frame10 + 8, 0 );
	expectError( data, size, "frame 10" );
	// more frames than the file holds
	memcpy( data, good, size );
	putU32( data + 16, frameCount + 1 );
	expectError( data, size, "truncated: the file ends inside frame 30" );
	putU32( data + 16, 0x7fffffffu );
	expectError( data, size, "truncated: the header declares 2147483647 frames" );
	// a present body's pose that is not a unit quaternion
	memcpy( data, good, size );
	memset( data + header + 12 + 57 * 1 + 1 + 24, 0, 32 );
	expectError( data, size, "corrupt: frame 0, body 1 (\"ball\"): position not finite" );
	// a destroyed body's pose is not read
	memcpy( data, good, size );
	memset( data + frame21 + 12 + 57 * 2 + 1 + 24, 0, 32 );
	cnRecording* rec = cnLoadRecordingFromMemory( data, size, BAD_NAME );
	CHECK( rec != NULL );
	cnDestroyRecording( rec );
	free( data );
	free( good );
}

int main( void )
{
	RUN_TEST( readBack );
	RUN_TEST( listedBodies );
	RUN_TEST( fixedBodies );
	RUN_TEST( consumers );
	RUN_TEST( badFiles );
	return TEST_SUMMARY();
}
