// SPDX-License-Identifier: MIT
// glTF export (gltf.h): a small hand-built world is recorded into memory and written as .glb and
// .gltf; the files are read back here (the GLB header and chunks by hand, the JSON with cJSON, the
// buffer by the accessors) and compared with what was set in the world and seen while recording:
// node and shape counts, names, animation keys against the recorded poses after the axis turn
// (x, y, z) -> (x, z, -y), shape sizes, materials by finish, the texture's bytes, the camera, and
// files that never appear half-written when something fails. tests/cli_export.sh runs the Khronos
// validator and Blender on the tool's output.
#include "cairn/io.h"
#include "render/palette.h"
#include "test.h"
#include "test_bodies.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// files go to the test's working directory (the build's tests/ folder)
#define GLB_PATH "test_gltf_out.glb"
#define GLTF_PATH "test_gltf_out.gltf"
#define BIN_PATH "test_gltf_out.bin"
#define PNG_PATH "test_gltf_texture.png"
#define NOT_PNG_PATH "test_gltf_not_an_image.png"

enum
{
	bodyCount = 4,
	shapeCount = 5,
	frameCount = 9,
	stepsPerFrame = 2,
};

static const char* s_names[bodyCount] = { "ground", "crate", "paddle", "roller" };

// a 2 x 2 RGBA PNG
static const uint8_t s_png[] = {
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00, 0x00, 0x72, 0xb6, 0x0d, 0x24, 0x00, 0x00, 0x00, 0x16, 0x49, 0x44, 0x41,
	0x54, 0x78, 0x9c, 0x63, 0x60, 0x60, 0x68, 0xf8, 0xff, 0x1f, 0x88, 0x19, 0x18, 0xfe, 0x03, 0x19, 0x40, 0x0c, 0x00, 0x49,
	0xd9, 0x09, 0xf9, 0x0a, 0x6b, 0xd9, 0x96, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
};

// what the world was built with, to compare the export against
static const cnVec3 s_boxHalf = { 0.5, 0.25, 0.125 };
static const cnVec3 s_boxOffset = { 0.1, 0.2, 0.3 };
static const double s_sphereRadius = 0.375;
static const cnVec3 s_sphereOffset = { -0.5, 0.0, 0.25 };
static const double s_glassIor = 1.33;
static const float s_steel[3] = { 0.75f, 0.5f, 0.25f };

// Cairn's z-up in glTF's y-up: -90 degrees about x
static cnVec3 toGltf( cnVec3 v )
{
	return cnV3( v.x, v.z, -v.y );
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

static void writeAll( const char* path, const void* data, size_t size )
{
	FILE* f = fopen( path, "wb" );
	if ( f != NULL )
	{
		fwrite( data, 1, size, f );
		fclose( f );
	}
}

static uint32_t u32At( const uint8_t* p )
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// ---------------------------------------------------------------------------------------------
// the world and its recording

// A static ground plane (unstyled), a dynamic crate of a metal box and a glass sphere, a kinematic
// textured capsule, and an unstyled dynamic cylinder (which gets a palette colour).
static cnWorld* buildWorld( const char* texture )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	cnMaterialDef md = cnDefaultMaterialDef();
	md.name = "steel";
	memcpy( md.color, s_steel, sizeof( md.color ) );
	md.finish = cnFinish_metal;
	cnMaterialId steel = cnCreateMaterial( world, &md );
	md = cnDefaultMaterialDef();
	md.name = "glass";
	md.finish = cnFinish_glass;
	md.ior = s_glassIor;
	cnMaterialId glass = cnCreateMaterial( world, &md );
	md = cnDefaultMaterialDef();
	md.name = "tiles";
	md.finish = cnFinish_matte;
	md.texture = texture;
	cnMaterialId tiles = cnCreateMaterial( world, &md );

	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = s_names[0];
	bd.type = cnBody_static;
	cnBodyId ground = cnCreateBody( world, &bd );
	cnShapeDef plane = cnDefaultShapeDef();
	plane.type = cnShape_plane;
	plane.normal = cnV3( 0, 0, 1 );
	plane.offset = -0.25;
	CHECK( cnCreateShape( world, ground, &plane ).index >= 0 );

	bd = cnDefaultBodyDef();
	bd.name = s_names[1];
	bd.position = cnV3( 0.5, -1, 2 );
	bd.orientation = cnQuatFromAxisAngle( cnNormalize( cnV3( 1, 2, 3 ) ), 0.7 );
	bd.angularVelocity = cnV3( 1, -2, 0.5 );
	cnBodyId crate = cnCreateBody( world, &bd );
	cnShapeDef box = cnDefaultShapeDef();
	box.type = cnShape_box;
	box.halfExtents = s_boxHalf;
	box.position = s_boxOffset;
	box.material = steel;
	CHECK( cnCreateShape( world, crate, &box ).index >= 0 );
	cnShapeDef sphere = cnDefaultShapeDef();
	sphere.radius = s_sphereRadius;
	sphere.position = s_sphereOffset;
	sphere.orientation = ( cnQuat ){ 0.5, 0.5, 0.5, 0.5 };
	sphere.material = glass;
	CHECK( cnCreateShape( world, crate, &sphere ).index >= 0 );

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
	capsule.material = tiles;
	CHECK( cnCreateShape( world, paddle, &capsule ).index >= 0 );

	bd = cnDefaultBodyDef();
	bd.name = s_names[3];
	bd.position = cnV3( -3, 0, 4 );
	bd.linearVelocity = cnV3( 1, 0, 0 );
	cnBodyId roller = cnCreateBody( world, &bd );
	cnShapeDef cylinder = cnDefaultShapeDef();
	cylinder.type = cnShape_cylinder;
	cylinder.radius = 0.3;
	cylinder.halfHeight = 0.4;
	CHECK( cnCreateShape( world, roller, &cylinder ).index >= 0 );
	return world;
}

// Records a world into memory, frame 0 before any step; the transforms and times seen while
// recording go to expected and times (when not NULL). NULL when recording failed (a failed check).
static cnRecording* recordWorld( cnWorld* world, int frames, cnTransform expected[][bodyCount], double* times )
{
	cnRecorderDef def = cnDefaultRecorderDef();
	def.sceneName = "gltf test";
	def.fps = 45.0;
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	CHECK( recorder != NULL );
	if ( recorder == NULL )
	{
		return NULL;
	}
	int bodies = cnWorld_GetBodyCount( world );
	for ( int f = 0; f < frames; ++f )
	{
		for ( int s = 0; f > 0 && s < stepsPerFrame; ++s )
		{
			CHECK( cnWorld_Step( world, 1.0 / 90.0 ) );
		}
		for ( int b = 0; expected != NULL && b < bodies && b < bodyCount; ++b )
		{
			expected[f][b] = cnBody_GetTransform( world, cnWorld_GetBody( world, b ) );
		}
		if ( times != NULL )
		{
			times[f] = cnWorld_GetTime( world );
		}
		CHECK( cnRecorder_AddFrame( recorder, world ) );
	}
	CHECK( cnRecorder_Finish( recorder ) );
	size_t size = 0;
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* recording = bytes != NULL ? cnLoadRecordingFromMemory( bytes, size, "gltf test" ) : NULL;
	CHECK( recording != NULL );
	cnDestroyRecorder( recorder );
	return recording;
}

// ---------------------------------------------------------------------------------------------
// reading glTF back

typedef struct Gltf
{
	uint8_t* file;
	size_t size;
	cJSON* doc;
	// the buffer: the GLB's binary chunk, or the .bin file (then owned here)
	const uint8_t* bin;
	size_t binSize;
	uint8_t* binFile;
} Gltf;

static void freeGltf( Gltf* g )
{
	cJSON_Delete( g->doc );
	free( g->file );
	free( g->binFile );
	memset( g, 0, sizeof( *g ) );
}

// Reads a .glb: checks the header and chunk layout of the GLB container and parses the JSON chunk.
static bool loadGlb( const char* path, Gltf* g )
{
	memset( g, 0, sizeof( *g ) );
	g->file = readAll( path, &g->size );
	CHECK( g->file != NULL );
	if ( g->file == NULL || g->size < 20 )
	{
		return false;
	}
	const uint8_t* p = g->file;
	CHECK( memcmp( p, "glTF", 4 ) == 0 );
	CHECK( u32At( p + 4 ) == 2 );
	CHECK( u32At( p + 8 ) == g->size );
	uint32_t jsonLength = u32At( p + 12 );
	CHECK( memcmp( p + 16, "JSON", 4 ) == 0 );
	CHECK( jsonLength % 4 == 0 );
	if ( 20 + (size_t)jsonLength + 8 > g->size )
	{
		CHECK( false );
		return false;
	}
	g->doc = cJSON_ParseWithLength( (const char*)p + 20, jsonLength );
	CHECK( g->doc != NULL );
	const uint8_t* chunk = p + 20 + jsonLength;
	uint32_t binLength = u32At( chunk );
	CHECK( memcmp( chunk + 4, "BIN\0", 4 ) == 0 );
	CHECK( binLength % 4 == 0 );
	CHECK( 20 + (size_t)jsonLength + 8 + binLength == g->size );
	g->bin = chunk + 8;
	g->binSize = binLength;
	return g->doc != NULL && 20 + (size_t)jsonLength + 8 + binLength <= g->size;
}

static cJSON* item( const cJSON* object, const char* key )
{
	return cJSON_GetObjectItemCaseSensitive( object, key );
}

static cJSON* at( const cJSON* array, int index )
{
	return cJSON_GetArrayItem( array, index );
}

// A number member (NULL key: the value itself; NaN when absent).
static double num( const cJSON* object, const char* key )
{
	const cJSON* n = key != NULL ? item( object, key ) : object;
	return cJSON_IsNumber( n ) ? n->valuedouble : NAN;
}

static int count( const cJSON* array )
{
	return cJSON_IsArray( array ) ? cJSON_GetArraySize( array ) : -1;
}

static bool isString( const cJSON* object, const char* key, const char* value )
{
	const cJSON* s = item( object, key );
	return cJSON_IsString( s ) && strcmp( s->valuestring, value ) == 0;
}

static int components( const cJSON* accessor )
{
	static const char* const types[4] = { "SCALAR", "VEC2", "VEC3", "VEC4" };
	for ( int i = 0; i < 4; ++i )
	{
		if ( isString( accessor, "type", types[i] ) )
		{
			return i + 1;
		}
	}
	return 0;
}

// Component c of element i of an accessor, read from the buffer (NaN when anything is out of
// range): floats and unsigned ints, tightly packed as the exporter writes them.
static double value( const Gltf* g, int accessorIndex, int i, int c )
{
	const cJSON* accessor = at( item( g->doc, "accessors" ), accessorIndex );
	const cJSON* view = at( item( g->doc, "bufferViews" ), (int)num( accessor, "bufferView" ) );
	int n = components( accessor );
	double type = num( accessor, "componentType" );
	if ( view == NULL || n == 0 || i < 0 || i >= (int)num( accessor, "count" ) || c < 0 || c >= n ||
		 item( view, "byteStride" ) != NULL )
	{
		return NAN;
	}
	double accessorOffset = item( accessor, "byteOffset" ) != NULL ? num( accessor, "byteOffset" ) : 0.0;
	size_t offset = (size_t)num( view, "byteOffset" ) + (size_t)accessorOffset + 4 * ( (size_t)i * (size_t)n + (size_t)c );
	if ( offset + 4 > (size_t)num( view, "byteOffset" ) + (size_t)num( view, "byteLength" ) || offset + 4 > g->binSize )
	{
		return NAN;
	}
	if ( type == 5126.0 )
	{
		float f;
		memcpy( &f, g->bin + offset, 4 );
		return f;
	}
	return type == 5125.0 ? (double)u32At( g->bin + offset ) : NAN;
}

static int accessorCount( const Gltf* g, int accessorIndex )
{
	return (int)num( at( item( g->doc, "accessors" ), accessorIndex ), "count" );
}

// The index of the node of that name, -1 when none.
static int findNode( const Gltf* g, const char* name )
{
	const cJSON* nodes = item( g->doc, "nodes" );
	for ( int i = 0; i < count( nodes ); ++i )
	{
		if ( isString( at( nodes, i ), "name", name ) )
		{
			return i;
		}
	}
	return -1;
}

// The sampler of the animation's channel for a node and path ("translation", "rotation"), -1 when
// the node has none.
static int findSampler( const Gltf* g, int node, const char* path )
{
	const cJSON* channels = item( at( item( g->doc, "animations" ), 0 ), "channels" );
	for ( int i = 0; i < count( channels ); ++i )
	{
		const cJSON* target = item( at( channels, i ), "target" );
		if ( num( target, "node" ) == node && isString( target, "path", path ) )
		{
			return (int)num( at( channels, i ), "sampler" );
		}
	}
	return -1;
}

// The primitive of the mesh of a node's shape child k.
static const cJSON* shapePrimitive( const Gltf* g, int bodyNode, int k )
{
	const cJSON* nodes = item( g->doc, "nodes" );
	const cJSON* child = at( nodes, (int)num( at( item( at( nodes, bodyNode ), "children" ), k ), NULL ) );
	return at( item( at( item( g->doc, "meshes" ), (int)num( child, "mesh" ) ), "primitives" ), 0 );
}

// Whether every triangle of a primitive is counter-clockwise seen from the side its vertex normals
// point to (glTF's front faces), and its indices lie inside its vertices.
static bool facesOutward( const Gltf* g, const cJSON* primitive )
{
	int position = (int)num( item( primitive, "attributes" ), "POSITION" );
	int normal = (int)num( item( primitive, "attributes" ), "NORMAL" );
	int indices = (int)num( primitive, "indices" );
	int vertices = accessorCount( g, position );
	int n = accessorCount( g, indices );
	if ( n % 3 != 0 || n <= 0 || accessorCount( g, normal ) != vertices )
	{
		return false;
	}
	for ( int t = 0; t < n; t += 3 )
	{
		cnVec3 p[3];
		cnVec3 sum = cnVec3_zero;
		for ( int k = 0; k < 3; ++k )
		{
			double v = value( g, indices, t + k, 0 );
			if ( !( v >= 0.0 && v < vertices ) )
			{
				return false;
			}
			int i = (int)v;
			p[k] = cnV3( value( g, position, i, 0 ), value( g, position, i, 1 ), value( g, position, i, 2 ) );
			sum = cnAdd( sum, cnV3( value( g, normal, i, 0 ), value( g, normal, i, 1 ), value( g, normal, i, 2 ) ) );
		}
		cnVec3 face = cnCross( cnSub( p[1], p[0] ), cnSub( p[2], p[0] ) );
		// slivers at the poles of round shapes have no direction worth checking
		if ( cnLength( face ) > 1e-9 && cnDot( face, sum ) <= 0.0 )
		{
			return false;
		}
	}
	return true;
}

static const cJSON* primitiveMaterial( const Gltf* g, const cJSON* primitive )
{
	return at( item( g->doc, "materials" ), (int)num( primitive, "material" ) );
}

// ---------------------------------------------------------------------------------------------
// cases

static cnRecording* s_recording;
static cnTransform s_expected[frameCount][bodyCount];
static double s_times[frameCount];

// A fixed camera looking at (0, 0, 1) from (6, -8, 4) with 60 degrees across.
static cnCameraDef testCamera( void )
{
	cnCameraDef camera = cnDefaultCameraDef();
	camera.name = "overview";
	camera.position = cnV3( 6, -8, 4 );
	camera.lookAt = cnV3( 0, 0, 1 );
	camera.fovDeg = 60.0;
	return camera;
}

static void writeGlb( void )
{
	remove( GLB_PATH );
	cnCameraDef camera = testCamera();
	cnGltfOptions options = cnDefaultGltfOptions();
	options.aspect = 2.0;
	bool ok = cnWriteGltf( GLB_PATH, s_recording, &camera, &options );
	CHECK( ok );
	if ( ok == false )
	{
		printf( "error: %s\n", cnGetError() );
	}
	CHECK( cnGetErrorCode() == cnError_none );
	CHECK( fileExists( GLB_PATH ) );
	CHECK( fileExists( GLB_PATH ".tmp" ) == false );
}

// Nodes: a node per body named after it, its shapes as children, and the camera; the scene's roots.
static void nodesAndNames( void )
{
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	CHECK( isString( item( g.doc, "asset" ), "version", "2.0" ) );
	const cJSON* nodes = item( g.doc, "nodes" );
	CHECK( count( nodes ) == bodyCount + shapeCount + 1 );
	static const int shapesOf[bodyCount] = { 1, 2, 1, 1 };
	const cJSON* roots = item( at( item( g.doc, "scenes" ), (int)num( g.doc, "scene" ) ), "nodes" );
	CHECK( count( roots ) == bodyCount + 1 );
	for ( int b = 0; b < bodyCount; ++b )
	{
		int node = findNode( &g, s_names[b] );
		CHECK( node >= 0 );
		CHECK( count( item( at( nodes, node ), "children" ) ) == shapesOf[b] );
		bool root = false;
		for ( int r = 0; r < count( roots ); ++r )
		{
			root = root || num( at( roots, r ), NULL ) == node;
		}
		CHECK( root );
		// its rest pose is frame 0
		const cJSON* t = item( at( nodes, node ), "translation" );
		cnVec3 p = toGltf( s_expected[0][b].p );
		CHECK_NEAR( num( at( t, 0 ), NULL ), p.x, 1e-12 );
		CHECK_NEAR( num( at( t, 1 ), NULL ), p.y, 1e-12 );
		CHECK_NEAR( num( at( t, 2 ), NULL ), p.z, 1e-12 );
	}
	// the crate's sphere sits at its offset in the body, turned into glTF's axes
	int crate = findNode( &g, "crate" );
	const cJSON* sphereNode = at( nodes, (int)num( at( item( at( nodes, crate ), "children" ), 1 ), NULL ) );
	const cJSON* t = item( sphereNode, "translation" );
	cnVec3 offset = toGltf( s_sphereOffset );
	CHECK( num( at( t, 0 ), NULL ) == offset.x && num( at( t, 1 ), NULL ) == offset.y &&
		   num( at( t, 2 ), NULL ) == offset.z );
	// q = (0.5, 0.5, 0.5, 0.5): the vector part turns with the axes, [x, y, z, w] = [0.5, 0.5, -0.5, 0.5]
	const cJSON* r = item( sphereNode, "rotation" );
	CHECK( num( at( r, 0 ), NULL ) == 0.5 && num( at( r, 1 ), NULL ) == 0.5 && num( at( r, 2 ), NULL ) == -0.5 &&
		   num( at( r, 3 ), NULL ) == 0.5 );
	CHECK( findNode( &g, "overview" ) >= 0 );
	freeGltf( &g );
}

// Meshes: the box's 24 corners (4 per face) lie on its half extents; the sphere's vertices on its
// radius; POSITION bounds as the validator wants them; indices inside the vertices.
static void meshes( void )
{
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	int crate = findNode( &g, "crate" );
	const cJSON* box = item( shapePrimitive( &g, crate, 0 ), "attributes" );
	int position = (int)num( box, "POSITION" );
	int normal = (int)num( box, "NORMAL" );
	int indices = (int)num( shapePrimitive( &g, crate, 0 ), "indices" );
	CHECK( accessorCount( &g, position ) == 24 );
	CHECK( accessorCount( &g, normal ) == 24 );
	CHECK( accessorCount( &g, indices ) == 36 );
	CHECK( item( box, "TEXCOORD_0" ) == NULL );
	cnVec3 h = toGltf( s_boxHalf );
	bool corners = true;
	for ( int i = 0; i < 24; ++i )
	{
		corners = corners && fabs( fabs( value( &g, position, i, 0 ) ) - fabs( h.x ) ) < 1e-6 &&
				  fabs( fabs( value( &g, position, i, 1 ) ) - fabs( h.y ) ) < 1e-6 &&
				  fabs( fabs( value( &g, position, i, 2 ) ) - fabs( h.z ) ) < 1e-6;
	}
	CHECK( corners );
	const cJSON* accessor = at( item( g.doc, "accessors" ), position );
	CHECK_NEAR( num( at( item( accessor, "min" ), 0 ), NULL ), -s_boxHalf.x, 1e-7 );
	CHECK_NEAR( num( at( item( accessor, "max" ), 1 ), NULL ), s_boxHalf.z, 1e-7 );
	CHECK_NEAR( num( at( item( accessor, "min" ), 2 ), NULL ), -s_boxHalf.y, 1e-7 );

	const cJSON* sphere = item( shapePrimitive( &g, crate, 1 ), "attributes" );
	position = (int)num( sphere, "POSITION" );
	normal = (int)num( sphere, "NORMAL" );
	bool onSurface = accessorCount( &g, position ) > 100;
	for ( int i = 0; onSurface && i < accessorCount( &g, position ); ++i )
	{
		cnVec3 p = cnV3( value( &g, position, i, 0 ), value( &g, position, i, 1 ), value( &g, position, i, 2 ) );
		cnVec3 n = cnV3( value( &g, normal, i, 0 ), value( &g, normal, i, 1 ), value( &g, normal, i, 2 ) );
		// on the radius, the normal pointing out along the radius
		onSurface = fabs( cnLength( p ) - s_sphereRadius ) < 1e-6 && cnLength( cnSub( cnMulSV( 1.0 / s_sphereRadius, p ), n ) ) < 1e-6;
	}
	CHECK( onSurface );

	// every primitive (plane, box, sphere, capsule, cylinder): triangles facing out, indices inside
	// its vertices, bounds on its positions
	const cJSON* meshArray = item( g.doc, "meshes" );
	CHECK( count( meshArray ) == shapeCount );
	for ( int m = 0; m < count( meshArray ); ++m )
	{
		const cJSON* primitive = at( item( at( meshArray, m ), "primitives" ), 0 );
		int p = (int)num( item( primitive, "attributes" ), "POSITION" );
		CHECK( facesOutward( &g, primitive ) );
		CHECK( count( item( at( item( g.doc, "accessors" ), p ), "min" ) ) == 3 );
		CHECK( count( item( at( item( g.doc, "accessors" ), p ), "max" ) ) == 3 );
	}
	// the plane: a square in z = -0.25 (glTF y), under the whole recording
	int ground = findNode( &g, "ground" );
	position = (int)num( item( shapePrimitive( &g, ground, 0 ), "attributes" ), "POSITION" );
	accessor = at( item( g.doc, "accessors" ), position );
	CHECK_NEAR( num( at( item( accessor, "min" ), 1 ), NULL ), -0.25, 1e-7 );
	CHECK_NEAR( num( at( item( accessor, "max" ), 1 ), NULL ), -0.25, 1e-7 );
	CHECK( num( at( item( accessor, "min" ), 0 ), NULL ) < -3.3 && num( at( item( accessor, "max" ), 0 ), NULL ) > 3.2 );
	freeGltf( &g );
}

// The animation: every moving body has a translation and a rotation track keyed at the recorded
// times, whose values are the recorded poses in glTF's axes; the static ground has none.
static void animation( void )
{
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	CHECK( count( item( g.doc, "animations" ) ) == 1 );
	const cJSON* samplers = item( at( item( g.doc, "animations" ), 0 ), "samplers" );
	// three moving bodies; the fixed camera does not move
	CHECK( count( samplers ) == 6 );
	CHECK( findSampler( &g, findNode( &g, "ground" ), "translation" ) < 0 );
	CHECK( findSampler( &g, findNode( &g, "overview" ), "translation" ) < 0 );
	for ( int b = 1; b < bodyCount; ++b )
	{
		int node = findNode( &g, s_names[b] );
		int ts = findSampler( &g, node, "translation" );
		int rs = findSampler( &g, node, "rotation" );
		CHECK( ts >= 0 && rs >= 0 );
		const cJSON* translation = at( samplers, ts );
		const cJSON* rotation = at( samplers, rs );
		CHECK( isString( translation, "interpolation", "LINEAR" ) );
		int input = (int)num( translation, "input" );
		int out = (int)num( translation, "output" );
		int rout = (int)num( rotation, "output" );
		CHECK( accessorCount( &g, input ) == frameCount );
		CHECK( accessorCount( &g, out ) == frameCount );
		CHECK( accessorCount( &g, rout ) == frameCount );
		for ( int f = 0; f < frameCount; ++f )
		{
			CHECK_NEAR( value( &g, input, f, 0 ), s_times[f], 1e-6 );
		}
		// a frame in the middle: the recorded position and turn, in glTF's axes
		int f = 5;
		cnVec3 p = toGltf( s_expected[f][b].p );
		CHECK_NEAR( value( &g, out, f, 0 ), p.x, 1e-6 );
		CHECK_NEAR( value( &g, out, f, 1 ), p.y, 1e-6 );
		CHECK_NEAR( value( &g, out, f, 2 ), p.z, 1e-6 );
		cnQuat q = s_expected[f][b].q;
		cnVec3 v = toGltf( cnV3( q.x, q.y, q.z ) );
		double sign = value( &g, rout, f, 3 ) * q.w >= 0.0 ? 1.0 : -1.0;
		CHECK_NEAR( value( &g, rout, f, 0 ), sign * v.x, 1e-6 );
		CHECK_NEAR( value( &g, rout, f, 1 ), sign * v.y, 1e-6 );
		CHECK_NEAR( value( &g, rout, f, 2 ), sign * v.z, 1e-6 );
		CHECK_NEAR( value( &g, rout, f, 3 ), sign * q.w, 1e-6 );
	}
	// the kinematic paddle moves at 1 m/s along y: glTF -z
	int paddle = findNode( &g, "paddle" );
	int out = (int)num( at( samplers, findSampler( &g, paddle, "translation" ) ), "output" );
	CHECK_NEAR( value( &g, out, frameCount - 1, 2 ), -s_times[frameCount - 1], 1e-6 );
	freeGltf( &g );
}

// Materials by finish: metal, glass with its extensions, a texture with its bytes embedded, the
// palette colour of an unstyled moving body, the default grey of the static ground.
static void materials( void )
{
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	int crate = findNode( &g, "crate" );
	const cJSON* metal = item( primitiveMaterial( &g, shapePrimitive( &g, crate, 0 ) ), "pbrMetallicRoughness" );
	CHECK( num( metal, "metallicFactor" ) == 1.0 );
	CHECK( num( metal, "roughnessFactor" ) == 0.25 );
	for ( int c = 0; c < 3; ++c )
	{
		CHECK_NEAR( num( at( item( metal, "baseColorFactor" ), c ), NULL ), s_steel[c], 1e-6 );
	}

	const cJSON* glass = primitiveMaterial( &g, shapePrimitive( &g, crate, 1 ) );
	CHECK( isString( glass, "alphaMode", "BLEND" ) );
	CHECK( num( at( item( item( glass, "pbrMetallicRoughness" ), "baseColorFactor" ), 3 ), NULL ) < 1.0 );
	const cJSON* extensions = item( glass, "extensions" );
	CHECK( num( item( extensions, "KHR_materials_transmission" ), "transmissionFactor" ) > 0.0 );
	CHECK( num( item( extensions, "KHR_materials_ior" ), "ior" ) == s_glassIor );
	const cJSON* used = item( g.doc, "extensionsUsed" );
	bool transmission = false, ior = false;
	for ( int i = 0; i < count( used ); ++i )
	{
		transmission = transmission || strcmp( at( used, i )->valuestring, "KHR_materials_transmission" ) == 0;
		ior = ior || strcmp( at( used, i )->valuestring, "KHR_materials_ior" ) == 0;
	}
	CHECK( transmission && ior );

	// the capsule's image: its bytes in the buffer, PNG, with texture coordinates on the mesh
	const cJSON* primitive = shapePrimitive( &g, findNode( &g, "paddle" ), 0 );
	CHECK( item( item( primitive, "attributes" ), "TEXCOORD_0" ) != NULL );
	const cJSON* tiles = item( primitiveMaterial( &g, primitive ), "pbrMetallicRoughness" );
	CHECK( num( tiles, "roughnessFactor" ) == 0.9 );
	int texture = (int)num( item( tiles, "baseColorTexture" ), "index" );
	const cJSON* image = at( item( g.doc, "images" ), (int)num( at( item( g.doc, "textures" ), texture ), "source" ) );
	CHECK( isString( image, "mimeType", "image/png" ) );
	const cJSON* view = at( item( g.doc, "bufferViews" ), (int)num( image, "bufferView" ) );
	size_t offset = (size_t)num( view, "byteOffset" );
	CHECK( num( view, "byteLength" ) == (double)sizeof( s_png ) );
	CHECK( offset + sizeof( s_png ) <= g.binSize && memcmp( g.bin + offset, s_png, sizeof( s_png ) ) == 0 );

	// the unstyled roller (body 3) in its palette colour, the unstyled static ground in grey
	const float* palette = cnPaletteColor( 3 );
	const cJSON* roller = item( primitiveMaterial( &g, shapePrimitive( &g, findNode( &g, "roller" ), 0 ) ),
								"pbrMetallicRoughness" );
	const cJSON* ground = item( primitiveMaterial( &g, shapePrimitive( &g, findNode( &g, "ground" ), 0 ) ),
								"pbrMetallicRoughness" );
	for ( int c = 0; c < 3; ++c )
	{
		CHECK_NEAR( num( at( item( roller, "baseColorFactor" ), c ), NULL ), palette[c], 1e-6 );
		CHECK_NEAR( num( at( item( ground, "baseColorFactor" ), c ), NULL ), 0.7, 1e-6 );
	}
	CHECK( num( roller, "metallicFactor" ) == 0.0 && num( roller, "roughnessFactor" ) == 0.4 );
	freeGltf( &g );
}

// The camera: where it was placed, looking down its local -z at the look-at point, its vertical
// field of view the one the horizontal 60 degrees gives at 2:1.
static void camera( void )
{
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	const cJSON* node = at( item( g.doc, "nodes" ), findNode( &g, "overview" ) );
	const cJSON* cam = at( item( g.doc, "cameras" ), (int)num( node, "camera" ) );
	CHECK( isString( cam, "type", "perspective" ) );
	const cJSON* perspective = item( cam, "perspective" );
	CHECK_NEAR( num( perspective, "aspectRatio" ), 2.0, 1e-12 );
	CHECK_NEAR( num( perspective, "yfov" ), 2.0 * atan( tan( 30.0 * CN_PI / 180.0 ) / 2.0 ), 1e-12 );
	CHECK( num( perspective, "znear" ) > 0.0 );
	cnCameraDef def = testCamera();
	cnVec3 p = toGltf( def.position );
	const cJSON* t = item( node, "translation" );
	CHECK_NEAR( num( at( t, 0 ), NULL ), p.x, 1e-12 );
	CHECK_NEAR( num( at( t, 1 ), NULL ), p.y, 1e-12 );
	CHECK_NEAR( num( at( t, 2 ), NULL ), p.z, 1e-12 );
	const cJSON* r = item( node, "rotation" );
	cnQuat q = { num( at( r, 3 ), NULL ), num( at( r, 0 ), NULL ), num( at( r, 1 ), NULL ), num( at( r, 2 ), NULL ) };
	cnVec3 forward = cnRotate( q, cnV3( 0, 0, -1 ) );
	cnVec3 expected = cnNormalize( toGltf( cnSub( def.lookAt, def.position ) ) );
	CHECK( cnLength( cnSub( forward, expected ) ) < 1e-12 );
	// upright: the camera's right is horizontal (glTF's y is up)
	CHECK( fabs( cnRotate( q, cnV3( 1, 0, 0 ) ).y ) < 1e-12 );
	CHECK( cnRotate( q, cnV3( 0, 1, 0 ) ).y > 0.0 );
	freeGltf( &g );
}

// The JSON form: the .gltf names the .bin beside it, which holds the same keys.
static void jsonForm( void )
{
	remove( GLTF_PATH );
	remove( BIN_PATH );
	char bin[64];
	CHECK( cnGltfBufferPath( GLTF_PATH, bin, sizeof( bin ) ) && strcmp( bin, BIN_PATH ) == 0 );
	CHECK( cnGltfFormatForPath( "a/b.GLTF" ) == cnGltfFormat_json );
	CHECK( cnGltfFormatForPath( "b.glb" ) == cnGltfFormat_binary );
	CHECK( cnGltfFormatForPath( "b.obj" ) == cnGltfFormat_auto );
	CHECK( cnWriteGltf( GLTF_PATH, s_recording, NULL, NULL ) );
	CHECK( fileExists( GLTF_PATH ) && fileExists( BIN_PATH ) );
	CHECK( fileExists( GLTF_PATH ".tmp" ) == false && fileExists( BIN_PATH ".tmp" ) == false );
	Gltf g;
	memset( &g, 0, sizeof( g ) );
	g.file = readAll( GLTF_PATH, &g.size );
	g.binFile = readAll( BIN_PATH, &g.binSize );
	g.bin = g.binFile;
	g.doc = g.file != NULL ? cJSON_ParseWithLength( (const char*)g.file, g.size ) : NULL;
	CHECK( g.doc != NULL && g.binFile != NULL );
	const cJSON* buffer = at( item( g.doc, "buffers" ), 0 );
	CHECK( isString( buffer, "uri", BIN_PATH ) );
	CHECK( num( buffer, "byteLength" ) == (double)g.binSize );
	// the automatic camera is there too
	CHECK( count( item( g.doc, "nodes" ) ) == bodyCount + shapeCount + 1 );
	int roller = findNode( &g, "roller" );
	int out = (int)num( at( item( at( item( g.doc, "animations" ), 0 ), "samplers" ), findSampler( &g, roller, "translation" ) ),
						"output" );
	cnVec3 p = toGltf( s_expected[frameCount - 1][3].p );
	CHECK_NEAR( value( &g, out, frameCount - 1, 0 ), p.x, 1e-6 );
	CHECK_NEAR( value( &g, out, frameCount - 1, 1 ), p.y, 1e-6 );
	CHECK_NEAR( value( &g, out, frameCount - 1, 2 ), p.z, 1e-6 );
	freeGltf( &g );
	remove( GLTF_PATH );
	remove( BIN_PATH );
}

// Every third frame, no camera.
static void strideWithoutCamera( void )
{
	cnGltfOptions options = cnDefaultGltfOptions();
	options.frameStride = 3;
	options.camera = false;
	CHECK( cnWriteGltf( GLB_PATH, s_recording, NULL, &options ) );
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	CHECK( count( item( g.doc, "nodes" ) ) == bodyCount + shapeCount );
	CHECK( item( g.doc, "cameras" ) == NULL );
	const cJSON* samplers = item( at( item( g.doc, "animations" ), 0 ), "samplers" );
	int node = findNode( &g, "crate" );
	const cJSON* sampler = at( samplers, findSampler( &g, node, "translation" ) );
	int input = (int)num( sampler, "input" );
	int out = (int)num( sampler, "output" );
	int keys = ( frameCount - 1 ) / 3 + 1;
	CHECK( accessorCount( &g, input ) == keys );
	for ( int k = 0; k < keys; ++k )
	{
		CHECK_NEAR( value( &g, input, k, 0 ), s_times[3 * k], 1e-6 );
		CHECK_NEAR( value( &g, out, k, 1 ), s_expected[3 * k][1].p.z, 1e-6 );
	}
	freeGltf( &g );
}

// A moving camera: a follow camera gets its own tracks, at the body's position plus the offset.
static void followCamera( void )
{
	cnCameraDef camera = cnDefaultCameraDef();
	camera.name = "chase";
	camera.type = cnCamera_follow;
	camera.body = "roller";
	camera.offset = cnV3( 0, -4, 1 );
	CHECK( cnWriteGltf( GLB_PATH, s_recording, &camera, NULL ) );
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	int node = findNode( &g, "chase" );
	int ts = findSampler( &g, node, "translation" );
	CHECK( ts >= 0 && findSampler( &g, node, "rotation" ) >= 0 );
	const cJSON* samplers = item( at( item( g.doc, "animations" ), 0 ), "samplers" );
	int out = (int)num( at( samplers, ts ), "output" );
	for ( int f = 0; f < frameCount; f += 4 )
	{
		cnVec3 p = toGltf( cnAdd( s_expected[f][3].p, camera.offset ) );
		CHECK_NEAR( value( &g, out, f, 0 ), p.x, 1e-6 );
		CHECK_NEAR( value( &g, out, f, 1 ), p.y, 1e-6 );
		CHECK_NEAR( value( &g, out, f, 2 ), p.z, 1e-6 );
	}
	freeGltf( &g );

	// a camera mounted on the crate turns with it: at each key it looks from the body's offset to
	// its look-at point, upright in the body (its right across the body's z)
	camera = cnDefaultCameraDef();
	camera.name = "onboard";
	camera.type = cnCamera_mounted;
	camera.body = "crate";
	camera.offset = cnV3( 0, -2, 1 );
	camera.localLookAt = cnV3( 0, 0, 0.5 );
	CHECK( cnWriteGltf( GLB_PATH, s_recording, &camera, NULL ) );
	if ( loadGlb( GLB_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	node = findNode( &g, "onboard" );
	samplers = item( at( item( g.doc, "animations" ), 0 ), "samplers" );
	int rs = findSampler( &g, node, "rotation" );
	CHECK( rs >= 0 );
	out = (int)num( at( samplers, rs ), "output" );
	for ( int f = 0; f < frameCount; f += 2 )
	{
		cnTransform xf = s_expected[f][1];
		cnVec3 forward = cnNormalize(
			toGltf( cnSub( cnTransformPoint( xf, camera.localLookAt ), cnTransformPoint( xf, camera.offset ) ) ) );
		cnVec3 bodyUp = toGltf( cnRotate( xf.q, cnV3( 0, 0, 1 ) ) );
		cnQuat q = { value( &g, out, f, 3 ), value( &g, out, f, 0 ), value( &g, out, f, 1 ), value( &g, out, f, 2 ) };
		CHECK( cnLength( cnSub( cnRotate( q, cnV3( 0, 0, -1 ) ), forward ) ) < 1e-6 );
		CHECK( fabs( cnDot( cnRotate( q, cnV3( 1, 0, 0 ) ), bodyUp ) ) < 1e-6 );
		CHECK( cnDot( cnRotate( q, cnV3( 0, 1, 0 ) ), bodyUp ) > 0.0 );
	}
	freeGltf( &g );
}

// Bad input fails with the file named and leaves nothing behind.
static void failures( void )
{
	remove( "test_gltf_out.obj" );
	CHECK( cnWriteGltf( "test_gltf_out.obj", s_recording, NULL, NULL ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );
	CHECK( strstr( cnGetError(), "test_gltf_out.obj" ) != NULL );
	CHECK( fileExists( "test_gltf_out.obj" ) == false );

	CHECK( cnWriteGltf( "no_such_folder/out.glb", s_recording, NULL, NULL ) == false );
	CHECK( cnGetErrorCode() == cnError_io );
	CHECK( strstr( cnGetError(), "no_such_folder/out.glb" ) != NULL );

	CHECK( cnWriteGltf( GLB_PATH, NULL, NULL, NULL ) == false );
	cnGltfOptions options = cnDefaultGltfOptions();
	options.segments = 4;
	CHECK( cnWriteGltf( GLB_PATH, s_recording, NULL, &options ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidArgument );

	cnCameraDef camera = cnDefaultCameraDef();
	camera.type = cnCamera_follow;
	camera.body = "nobody";
	remove( GLB_PATH );
	CHECK( cnWriteGltf( GLB_PATH, s_recording, &camera, NULL ) == false );
	CHECK( strstr( cnGetError(), GLB_PATH ) != NULL && strstr( cnGetError(), "nobody" ) != NULL );
	CHECK( fileExists( GLB_PATH ) == false && fileExists( GLB_PATH ".tmp" ) == false );

	// a texture that is missing, and one that is not an image
	const char* textures[2] = { "test_gltf_missing.png", NOT_PNG_PATH };
	writeAll( NOT_PNG_PATH, "not a picture", 13 );
	for ( int i = 0; i < 2; ++i )
	{
		cnWorld* world = buildWorld( textures[i] );
		cnRecording* recording = recordWorld( world, 2, NULL, NULL );
		cnDestroyWorld( world );
		if ( recording == NULL )
		{
			continue;
		}
		CHECK( cnWriteGltf( GLB_PATH, recording, NULL, NULL ) == false );
		CHECK( cnGetErrorCode() == ( i == 0 ? cnError_io : cnError_invalidArgument ) );
		CHECK( strstr( cnGetError(), GLB_PATH ) != NULL && strstr( cnGetError(), textures[i] ) != NULL );
		CHECK( fileExists( GLB_PATH ) == false && fileExists( GLB_PATH ".tmp" ) == false );
		cnDestroyRecording( recording );
	}
	remove( NOT_PNG_PATH );
}

// Planar polygons as slabs: a non-convex table and a segment. Their extent in the plane is the
// polygon's grown by its edge radius.
static void polygons( void )
{
	static const cnVec3 table[6] = { { -3, 0, 0 }, { 3, 0, 0 }, { 3, -1, 0 }, { 0.5, -0.25, 0 }, { -0.5, -0.25, 0 }, { -3, -1, 0 } };
	static const cnVec3 segment[2] = { { -0.75, 0.1, 0 }, { 0.75, -0.1, 0 } };
	const double radius = 0.05;
	cnWorldDef wd = tbWorldDef( cnMethod_impulse, cnV3( 0, -9.81, 0 ) );
	wd.planar = true;
	cnWorld* world = tbCreateWorld( &wd );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.name = "table";
	bd.type = cnBody_static;
	cnBodyId body = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_polygon;
	sd.vertices = table;
	sd.vertexCount = 6;
	sd.radius = radius;
	CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
	bd = cnDefaultBodyDef();
	bd.name = "stick";
	bd.position = cnV3( 0, 3, 0 );
	body = cnCreateBody( world, &bd );
	sd.vertices = segment;
	sd.vertexCount = 2;
	CHECK( cnCreateShape( world, body, &sd ).index >= 0 );
	CHECK( cnBody_SetMassData( world, body, 1.0, cnVec3_zero, cnDiagonal( 1.0, 1.0, 0.5 ) ) );
	cnRecording* recording = recordWorld( world, 3, NULL, NULL );
	cnDestroyWorld( world );
	if ( recording == NULL )
	{
		return;
	}
	CHECK( cnWriteGltf( GLB_PATH, recording, NULL, NULL ) );
	Gltf g;
	if ( loadGlb( GLB_PATH, &g ) )
	{
		const cJSON* primitive = shapePrimitive( &g, findNode( &g, "table" ), 0 );
		const cJSON* accessor = at( item( g.doc, "accessors" ), (int)num( item( primitive, "attributes" ), "POSITION" ) );
		const cJSON* min = item( accessor, "min" );
		const cJSON* max = item( accessor, "max" );
		// Cairn's x is glTF's x, Cairn's y glTF's -z
		CHECK_NEAR( num( at( min, 0 ), NULL ), -3.0 - radius, 1e-6 );
		CHECK_NEAR( num( at( max, 0 ), NULL ), 3.0 + radius, 1e-6 );
		CHECK_NEAR( num( at( min, 2 ), NULL ), -radius, 1e-6 );
		CHECK_NEAR( num( at( max, 2 ), NULL ), 1.0 + radius, 1e-6 );
		// a slab: as thick on both sides of the plane
		CHECK( num( at( min, 1 ), NULL ) < 0.0 && num( at( min, 1 ), NULL ) == -num( at( max, 1 ), NULL ) );
		primitive = shapePrimitive( &g, findNode( &g, "stick" ), 0 );
		accessor = at( item( g.doc, "accessors" ), (int)num( item( primitive, "attributes" ), "POSITION" ) );
		CHECK_NEAR( num( at( item( accessor, "min" ), 0 ), NULL ), -0.75 - radius, 1e-6 );
		CHECK_NEAR( num( at( item( accessor, "max" ), 2 ), NULL ), 0.1 + radius, 1e-6 );
		// the non-convex table's triangulation faces out like its walls, edges and corners
		CHECK( facesOutward( &g, shapePrimitive( &g, findNode( &g, "table" ), 0 ) ) );
		CHECK( facesOutward( &g, primitive ) );
	}
	freeGltf( &g );
	cnDestroyRecording( recording );
}

// ---------------------------------------------------------------------------------------------
// joints

#define JOINTS_PATH "test_gltf_joints.glb"

enum
{
	jointFrames = 7,
	jointCount = 6,
};

// A node's key f of an animated path (translation, rotation or scale) in glTF's axes; the node's
// static value when it has no track.
static bool nodeKey( const Gltf* g, int node, const char* path, int f, double out[4] )
{
	int sampler = findSampler( g, node, path );
	int n = strcmp( path, "rotation" ) == 0 ? 4 : 3;
	if ( sampler < 0 )
	{
		return false;
	}
	int output = (int)num( at( item( at( item( g->doc, "animations" ), 0 ), "samplers" ), sampler ), "output" );
	for ( int c = 0; c < n; ++c )
	{
		out[c] = value( g, output, f, c );
	}
	return true;
}

// Where a node's key f puts a point v of its mesh (glTF's axes): T + R (S v).
static cnVec3 placeAt( const Gltf* g, int node, int f, cnVec3 v )
{
	double t[4], r[4], s[4];
	if ( nodeKey( g, node, "translation", f, t ) == false || nodeKey( g, node, "rotation", f, r ) == false ||
		 nodeKey( g, node, "scale", f, s ) == false )
	{
		return cnV3( NAN, NAN, NAN );
	}
	cnQuat q = { r[3], r[0], r[1], r[2] };
	return cnAdd( cnV3( t[0], t[1], t[2] ), cnRotate( q, cnV3( s[0] * v.x, s[1] * v.y, s[2] * v.z ) ) );
}

static bool near3( cnVec3 a, cnVec3 b, double tolerance )
{
	return cnDistance( a, b ) <= tolerance;
}

// The child k of a named joint node.
static int jointPiece( const Gltf* g, const char* joint, int k )
{
	const cJSON* node = at( item( g->doc, "nodes" ), findNode( g, joint ) );
	const cJSON* child = at( item( node, "children" ), k );
	return child != NULL ? (int)num( child, NULL ) : -1;
}

// Joints as animated nodes: a node per joint, named after it, with its type in extras, and a child
// per piece whose translation, rotation and scale put a unit mesh between the anchors at every key:
// the rod's cylinder from anchor to anchor, the coil stretched from A's anchor to B's, the damper's
// cylinder from A's anchor and its rod from B's ending inside it, the ball joint's sphere at its
// anchor; a broken joint shrinks to nothing; the coil's faces point out.
static void joints( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	cnBodyId a = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 2 ), cnQuat_identity, cnV3( 1, 0, 0 ), cnV3( 0.2, 0.2, 0.2 ), 0 );
	cnBodyId b = tbSphere( world, cnBody_dynamic, cnV3( 1, 0.5, 1.5 ), cnV3( 0, 0, 2 ), 0.25, 0 );
	cnBodyId c = tbSphere( world, cnBody_dynamic, cnV3( -1, 0, 2 ), cnVec3_zero, 0.1, 0 );
	const char* names[jointCount] = { "coil", "shock", "rod", "nail", "fragile", "" };
	cnSpringJointDef spring = cnDefaultSpringJointDef();
	spring.base.name = names[0];
	spring.base.bodyA = a;
	spring.base.bodyB = b;
	spring.anchorA = cnV3( 0.1, 0, 2.1 );
	spring.anchorB = cnV3( 1, 0.5, 1.5 );
	spring.restLength = 0.8;
	CHECK( cnJoint_IsValid( world, cnCreateSpringJoint( world, &spring ) ) );
	cnDamperJointDef damper = cnDefaultDamperJointDef();
	damper.base.name = names[1];
	damper.base.bodyA = a;
	damper.base.bodyB = b;
	damper.anchorA = cnV3( 0, 0.1, 1.9 );
	damper.anchorB = cnV3( 1, 0.4, 1.5 );
	CHECK( cnJoint_IsValid( world, cnCreateDamperJoint( world, &damper ) ) );
	cnDistanceJointDef rod = cnDefaultDistanceJointDef();
	rod.base.name = names[2];
	rod.base.bodyA = c;
	rod.anchorA = cnV3( -1, 0, 2 );
	rod.anchorB = cnV3( -1, 0.5, 3 );
	CHECK( cnJoint_IsValid( world, cnCreateDistanceJoint( world, &rod ) ) );
	cnBallJointDef nail = cnDefaultBallJointDef();
	nail.base.name = names[3];
	nail.base.bodyA = c;
	nail.anchor = cnV3( -1, 0, 2.1 );
	CHECK( cnJoint_IsValid( world, cnCreateBallJoint( world, &nail ) ) );
	// a stretched spring that breaks in the first step
	spring.base.name = names[4];
	spring.base.breakForce = 1.0;
	spring.restLength = 0.1;
	CHECK( cnJoint_IsValid( world, cnCreateSpringJoint( world, &spring ) ) );
	cnSliderJointDef slider = cnDefaultSliderJointDef();
	slider.base.bodyA = a;
	slider.base.bodyB = b;
	slider.anchor = cnV3( 0.5, 0.2, 1.8 );
	slider.axis = cnV3( 1, 0.5, -0.5 );
	CHECK( cnJoint_IsValid( world, cnCreateSliderJoint( world, &slider ) ) );

	// the anchors at every frame, as the API gives them
	cnVec3 anchorA[jointFrames][jointCount], anchorB[jointFrames][jointCount];
	cnRecorderDef def = cnDefaultRecorderDef();
	def.sceneName = "joints";
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	for ( int f = 0; f < jointFrames; ++f )
	{
		for ( int s = 0; f > 0 && s < stepsPerFrame; ++s )
		{
			CHECK( cnWorld_Step( world, 1.0 / 90.0 ) );
		}
		for ( int j = 0; j < jointCount; ++j )
		{
			anchorA[f][j] = toGltf( cnJoint_GetAnchorA( world, cnWorld_GetJoint( world, j ) ) );
			anchorB[f][j] = toGltf( cnJoint_GetAnchorB( world, cnWorld_GetJoint( world, j ) ) );
		}
		CHECK( cnRecorder_AddFrame( recorder, world ) );
	}
	CHECK( cnRecorder_Finish( recorder ) );
	size_t size = 0;
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* recording = cnLoadRecordingFromMemory( bytes, size, "joints" );
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
	CHECK( recording != NULL );
	if ( recording == NULL )
	{
		return;
	}
	remove( JOINTS_PATH );
	CHECK( cnWriteGltf( JOINTS_PATH, recording, NULL, NULL ) );
	cnDestroyRecording( recording );
	Gltf g;
	if ( loadGlb( JOINTS_PATH, &g ) == false )
	{
		freeGltf( &g );
		return;
	}
	// a root node per joint, named after it ("joint N" without a name), its type in extras, its
	// pieces as children
	const cJSON* roots = item( at( item( g.doc, "scenes" ), 0 ), "nodes" );
	const char* nodeNames[jointCount] = { "coil", "shock", "rod", "nail", "fragile", "joint 5" };
	const char* types[jointCount] = { "spring", "damper", "distance", "ball", "spring", "slider" };
	const int pieces[jointCount] = { 1, 2, 1, 1, 1, 3 };
	// three bodies, six joints, the camera
	CHECK( count( roots ) == 3 + jointCount + 1 );
	for ( int j = 0; j < jointCount; ++j )
	{
		int node = findNode( &g, nodeNames[j] );
		CHECK( node >= 0 && num( at( roots, 3 + j ), NULL ) == node );
		const cJSON* n = at( item( g.doc, "nodes" ), node );
		CHECK( isString( item( n, "extras" ), "cairnJointType", types[j] ) );
		CHECK( count( item( n, "children" ) ) == pieces[j] );
		for ( int k = 0; k < pieces[j]; ++k )
		{
			const cJSON* piece = at( item( g.doc, "nodes" ), jointPiece( &g, nodeNames[j], k ) );
			CHECK( item( piece, "mesh" ) != NULL );
			double key[4];
			CHECK( nodeKey( &g, jointPiece( &g, nodeNames[j], k ), "scale", 0, key ) );
		}
	}
	int misplaced = 0;
	int coil = jointPiece( &g, "coil", 0 ), shockBody = jointPiece( &g, "shock", 0 ), shockRod = jointPiece( &g, "shock", 1 );
	int rodNode = jointPiece( &g, "rod", 0 ), nailNode = jointPiece( &g, "nail", 0 );
	double rest = cnDistance( anchorA[0][0], anchorB[0][0] );
	const double tol = 1e-5;
	for ( int f = 0; f < jointFrames; ++f )
	{
		// the rod: the unit cylinder's end centres (0, -+0.5, 0) at the anchors
		misplaced += !near3( placeAt( &g, rodNode, f, cnV3( 0, -0.5, 0 ) ), anchorA[f][2], tol );
		misplaced += !near3( placeAt( &g, rodNode, f, cnV3( 0, 0.5, 0 ) ), anchorB[f][2], tol );
		// the coil: built along its axis from 0 to the first frame's length, stretched to the anchors
		misplaced += !near3( placeAt( &g, coil, f, cnVec3_zero ), anchorA[f][0], tol );
		misplaced += !near3( placeAt( &g, coil, f, cnV3( 0, rest, 0 ) ), anchorB[f][0], tol );
		// the damper: its cylinder from A's anchor towards B's, its rod from B's anchor ending inside
		// the cylinder
		cnVec3 pa = anchorA[f][1], pb = anchorB[f][1];
		cnVec3 u = cnNormalize( cnSub( pb, pa ) );
		double d = cnDistance( pa, pb );
		cnVec3 bodyStart = placeAt( &g, shockBody, f, cnV3( 0, -0.5, 0 ) );
		cnVec3 bodyEnd = placeAt( &g, shockBody, f, cnV3( 0, 0.5, 0 ) );
		cnVec3 rodStart = placeAt( &g, shockRod, f, cnV3( 0, -0.5, 0 ) );
		cnVec3 rodEnd = placeAt( &g, shockRod, f, cnV3( 0, 0.5, 0 ) );
		double bodyLength = cnDot( cnSub( bodyEnd, pa ), u );
		double rodInner = cnDot( cnSub( rodEnd, pa ), u );
		misplaced += !near3( bodyStart, pa, tol ) || !near3( rodStart, pb, tol );
		misplaced += !near3( bodyEnd, cnMulAdd( pa, bodyLength, u ), tol ) || !( bodyLength > 0.0 && bodyLength <= d );
		misplaced += !near3( rodEnd, cnMulAdd( pa, rodInner, u ), tol ) || !( rodInner > 0.0 && rodInner < bodyLength );
		// the ball joint's sphere at its anchor
		misplaced += !near3( placeAt( &g, nailNode, f, cnVec3_zero ), anchorA[f][3], tol );
	}
	CHECK( misplaced == 0 );
	// the rod is round: its scale along x and z (glTF) is its radius
	double s[4];
	CHECK( nodeKey( &g, rodNode, "scale", 3, s ) && s[0] == s[2] && s[0] > 0.0 );
	// the fragile spring acts in the first frame and is broken from the second
	int fragile = jointPiece( &g, "fragile", 0 );
	CHECK( nodeKey( &g, fragile, "scale", 0, s ) && s[1] > 0.0 );
	for ( int f = 1; f < jointFrames; ++f )
	{
		CHECK( nodeKey( &g, fragile, "scale", f, s ) && s[0] == 0.0 && s[1] == 0.0 && s[2] == 0.0 );
	}
	// the coil's mesh faces out, and its material is the joints' steel
	const cJSON* nodes = item( g.doc, "nodes" );
	const cJSON* primitive = at( item( at( item( g.doc, "meshes" ), (int)num( at( nodes, coil ), "mesh" ) ), "primitives" ), 0 );
	CHECK( facesOutward( &g, primitive ) );
	CHECK( num( item( primitiveMaterial( &g, primitive ), "pbrMetallicRoughness" ), "metallicFactor" ) == 1.0 );
	freeGltf( &g );
	remove( JOINTS_PATH );
}

int main( void )
{
	writeAll( PNG_PATH, s_png, sizeof( s_png ) );
	cnWorld* world = buildWorld( PNG_PATH );
	s_recording = recordWorld( world, frameCount, s_expected, s_times );
	cnDestroyWorld( world );
	if ( s_recording != NULL )
	{
		// the bodies moved: the keys are not all the same
		CHECK( s_expected[frameCount - 1][1].p.z < s_expected[0][1].p.z );
		RUN_TEST( writeGlb );
		RUN_TEST( nodesAndNames );
		RUN_TEST( meshes );
		RUN_TEST( animation );
		RUN_TEST( materials );
		RUN_TEST( camera );
		RUN_TEST( jsonForm );
		RUN_TEST( strideWithoutCamera );
		RUN_TEST( followCamera );
		RUN_TEST( failures );
	}
	RUN_TEST( polygons );
	RUN_TEST( joints );
	cnDestroyRecording( s_recording );
	remove( GLB_PATH );
	remove( PNG_PATH );
	return TEST_SUMMARY();
}
