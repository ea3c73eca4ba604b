// SPDX-License-Identifier: MIT
// glTF 2.0 export (gltf.h, docs/export.md): a recording as one animated asset. The JSON is built
// with cJSON; vertex, index, animation and image bytes go into one buffer, which is either the
// binary chunk of a .glb or a .bin beside a .gltf. The shapes' triangles come from gltf_mesh.c.
//
// Cairn is right-handed with z up, glTF right-handed with y up. The turn P of -90 degrees about x,
// (x, y, z) -> (x, z, -y), maps one onto the other; it is applied to every point and direction
// (vertices, normals, translations) and, as P R P^T, to every rotation, which for a quaternion turns
// its vector part by P (gltf_mesh.h). No root node carries it, so body nodes hold world values;
// importers that turn glTF's y-up back to z-up (Blender's) undo P exactly.
#include "io/io_util.h"
#include "render/gltf_mesh.h"
#include "render/joint_draw.h"
#include "render/palette.h"

#include "cairn/gltf.h"
#include "cairn/io.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// glTF's numeric codes (the OpenGL enums it kept)
enum
{
	cnGl_unsignedInt = 5125,
	cnGl_float = 5126,
	cnGl_arrayBuffer = 34962,
	cnGl_elementArrayBuffer = 34963,
	cnGl_linear = 9729,
	cnGl_linearMipmapLinear = 9987,
	cnGl_repeat = 10497,
};

cnGltfOptions cnDefaultGltfOptions( void )
{
	cnGltfOptions options;
	memset( &options, 0, sizeof( options ) );
	options.format = cnGltfFormat_auto;
	options.aspect = 16.0 / 9.0;
	options.camera = true;
	options.frameStride = 1;
	options.segments = 32;
	options.textureDir = NULL;
	return options;
}

// Whether name ends in suffix, ignoring ASCII case.
static bool cnEndsWith( const char* name, const char* suffix )
{
	size_t n = strlen( name ), k = strlen( suffix );
	if ( n < k )
	{
		return false;
	}
	for ( size_t i = 0; i < k; ++i )
	{
		if ( ( name[n - k + i] | 0x20 ) != suffix[i] )
		{
			return false;
		}
	}
	return true;
}

cnGltfFormat cnGltfFormatForPath( const char* path )
{
	if ( path != NULL && cnEndsWith( path, ".glb" ) )
	{
		return cnGltfFormat_binary;
	}
	if ( path != NULL && cnEndsWith( path, ".gltf" ) )
	{
		return cnGltfFormat_json;
	}
	return cnGltfFormat_auto;
}

bool cnGltfBufferPath( const char* path, char* buffer, size_t size )
{
	if ( path == NULL || buffer == NULL )
	{
		return false;
	}
	// the extension is what follows the last dot of the file's own name
	const char* slash = strrchr( path, '/' );
	const char* name = slash != NULL ? slash + 1 : path;
	const char* dot = strrchr( name, '.' );
	size_t stem = dot != NULL && dot != name ? (size_t)( dot - path ) : strlen( path );
	if ( stem + 5 > size )
	{
		return false;
	}
	memcpy( buffer, path, stem );
	memcpy( buffer + stem, ".bin", 5 );
	return true;
}

// ---------------------------------------------------------------------------------------------
// the binary buffer

typedef struct cnGltfBytes
{
	uint8_t* data;
	size_t size;
	size_t capacity;
} cnGltfBytes;

// Appends size bytes at the next multiple of 4 (every accessor's component size divides 4), zeros
// in the gap; the offset they start at, or SIZE_MAX when memory runs out.
static size_t cnBytesAppend( cnGltfBytes* b, const void* data, size_t size )
{
	size_t offset = ( b->size + 3 ) & ~(size_t)3;
	if ( size > SIZE_MAX / 2 - offset )
	{
		return SIZE_MAX;
	}
	if ( offset + size > b->capacity )
	{
		size_t capacity = b->capacity > 0 ? b->capacity : 4096;
		while ( capacity < offset + size )
		{
			capacity *= 2;
		}
		uint8_t* grown = realloc( b->data, capacity );
		if ( grown == NULL )
		{
			return SIZE_MAX;
		}
		b->data = grown;
		b->capacity = capacity;
	}
	if ( offset > b->size )
	{
		memset( b->data + b->size, 0, offset - b->size );
	}
	if ( size > 0 )
	{
		memcpy( b->data + offset, data, size );
	}
	b->size = offset + size;
	return offset;
}

// Makes room for one more item of an array that grows by doubling; false when memory runs out.
static bool cnReserve( void** array, int* capacity, int count, size_t itemSize )
{
	if ( count < *capacity )
	{
		return true;
	}
	int grown = *capacity > 0 ? 2 * *capacity : 16;
	void* data = realloc( *array, (size_t)grown * itemSize );
	if ( data == NULL )
	{
		return false;
	}
	*array = data;
	*capacity = grown;
	return true;
}

// ---------------------------------------------------------------------------------------------
// the writer

// A distinct shape geometry: the recorded shape it was made from (the key) and its accessors.
typedef struct cnGltfGeometry
{
	cnRecordedShape shape;
	bool textured;
	// a joint's coil, never shared with a shape
	bool coil;
	int position, normal, texcoord, indices;
} cnGltfGeometry;

// A distinct appearance: the key of a material.
typedef struct cnGltfMaterialKey
{
	float color[3];
	cnFinish finish;
	double ior;
	const char* texture;
} cnGltfMaterialKey;

// A mesh: a geometry drawn with a material.
typedef struct cnGltfMeshKey
{
	int geometry, material;
} cnGltfMeshKey;

typedef struct cnGltfWriter
{
	const char* path;
	const cnRecording* recording;
	const cnGltfOptions* options;
	cJSON* root;
	cJSON *accessors, *bufferViews, *meshes, *materials, *nodes, *images, *textures;
	int accessorCount, bufferViewCount, nodeCount, imageCount;
	cnGltfBytes bin;
	cnGltfGeometry* geometries;
	int geometryCount, geometryCapacity;
	cnGltfMaterialKey* materialKeys;
	int materialCount, materialCapacity;
	cnGltfMeshKey* meshKeys;
	int meshCount, meshCapacity;
	// resolved texture paths, one per image
	char** imagePaths;
	int imageCapacity;
	// a glass material: KHR_materials_transmission and KHR_materials_ior are used
	bool glass;
	// a cJSON allocation failed somewhere
	bool outOfMemory;
	// the recording's extent: where planes are cut and how near the camera sees
	cnVec3 centre;
	double size;
} cnGltfWriter;

// Adds item to an array (or, with name, to an object); notes a failed allocation.
static cJSON* cnJsonAdd( cnGltfWriter* w, cJSON* parent, const char* name, cJSON* item )
{
	bool added = item != NULL && parent != NULL &&
				 ( name != NULL ? cJSON_AddItemToObject( parent, name, item ) : cJSON_AddItemToArray( parent, item ) );
	if ( added == false )
	{
		cJSON_Delete( item );
		w->outOfMemory = true;
		return NULL;
	}
	return item;
}

static void cnJsonNumber( cnGltfWriter* w, cJSON* object, const char* name, double value )
{
	cnJsonAdd( w, object, name, cJSON_CreateNumber( value ) );
}

static void cnJsonString( cnGltfWriter* w, cJSON* object, const char* name, const char* value )
{
	cnJsonAdd( w, object, name, cJSON_CreateString( value ) );
}

static void cnJsonNumbers( cnGltfWriter* w, cJSON* object, const char* name, const double* values, int count )
{
	cnJsonAdd( w, object, name, cJSON_CreateDoubleArray( values, count ) );
}

// A single-precision value exactly (17 digits of its double): accessor bounds must equal the stored
// floats bit for bit, which the shortest double form of cJSON does not promise.
static cJSON* cnJsonExactFloat( float value )
{
	char text[40];
	snprintf( text, sizeof( text ), "%.17g", (double)value );
	return cJSON_CreateRaw( text );
}

// A colour component at 6 digits, so the JSON shows 0.8 and not the float's 0.800000011920929.
static double cnRound6( float value )
{
	char text[32];
	snprintf( text, sizeof( text ), "%.6g", (double)value );
	return strtod( text, NULL );
}

static bool cnWriterOutOfMemory( cnGltfWriter* w )
{
	return cnSetError( cnError_outOfMemory, "%s: out of memory", w->path );
}

// Appends count items of components floats or unsigned ints to the buffer as a buffer view of its
// own and describes them by an accessor (float bounds when minMax); its index, -1 when memory ran
// out.
static int cnAddAccessor( cnGltfWriter* w, const void* data, int count, int components, int componentType, int target,
						  bool minMax )
{
	static const char* const types[5] = { "", "SCALAR", "VEC2", "VEC3", "VEC4" };
	size_t bytes = (size_t)count * (size_t)components * 4;
	size_t offset = cnBytesAppend( &w->bin, data, bytes );
	if ( offset == SIZE_MAX )
	{
		w->outOfMemory = true;
		return -1;
	}
	cJSON* view = cnJsonAdd( w, w->bufferViews, NULL, cJSON_CreateObject() );
	cnJsonNumber( w, view, "buffer", 0 );
	cnJsonNumber( w, view, "byteOffset", (double)offset );
	cnJsonNumber( w, view, "byteLength", (double)bytes );
	if ( target != 0 )
	{
		cnJsonNumber( w, view, "target", target );
	}
	cJSON* accessor = cnJsonAdd( w, w->accessors, NULL, cJSON_CreateObject() );
	cnJsonNumber( w, accessor, "bufferView", w->bufferViewCount++ );
	cnJsonNumber( w, accessor, "componentType", componentType );
	cnJsonNumber( w, accessor, "count", count );
	cnJsonString( w, accessor, "type", types[components] );
	if ( minMax && count > 0 )
	{
		const float* f = data;
		float lo[4], hi[4];
		for ( int c = 0; c < components; ++c )
		{
			lo[c] = hi[c] = f[c];
		}
		for ( int i = 1; i < count; ++i )
		{
			for ( int c = 0; c < components; ++c )
			{
				float x = f[i * components + c];
				lo[c] = x < lo[c] ? x : lo[c];
				hi[c] = x > hi[c] ? x : hi[c];
			}
		}
		cJSON* min = cnJsonAdd( w, accessor, "min", cJSON_CreateArray() );
		cJSON* max = cnJsonAdd( w, accessor, "max", cJSON_CreateArray() );
		for ( int c = 0; c < components; ++c )
		{
			cnJsonAdd( w, min, NULL, cnJsonExactFloat( lo[c] ) );
			cnJsonAdd( w, max, NULL, cnJsonExactFloat( hi[c] ) );
		}
	}
	return w->outOfMemory ? -1 : w->accessorCount++;
}

// A node's translation and rotation from a transform in Cairn's axes.
static void cnJsonPose( cnGltfWriter* w, cJSON* node, cnTransform xf )
{
	cnVec3 p = cnToGltf( xf.p );
	cnQuat q = cnQuatToGltf( cnNormalizeQuat( xf.q ) );
	double translation[3] = { p.x, p.y, p.z };
	double rotation[4] = { q.x, q.y, q.z, q.w };
	cnJsonNumbers( w, node, "translation", translation, 3 );
	cnJsonNumbers( w, node, "rotation", rotation, 4 );
}

// ---------------------------------------------------------------------------------------------
// materials and textures

// The image of a texture file, embedded once however many materials use it; its index in
// "images" (and "textures", one texture per image), -1 with the error set.
static int cnTextureFor( cnGltfWriter* w, const char* texture )
{
	char path[CN_RECORDING_MAX_TEXTURE + 1024];
	const char* dir = w->options->textureDir;
	bool relative = texture[0] != '/' && dir != NULL && dir[0] != 0;
	int n = snprintf( path, sizeof( path ), "%s%s%s", relative ? dir : "", relative ? "/" : "", texture );
	if ( n < 0 || n >= (int)sizeof( path ) )
	{
		cnSetError( cnError_invalidArgument, "%s: texture \"%s\": the path is too long", w->path, texture );
		return -1;
	}
	for ( int i = 0; i < w->imageCount; ++i )
	{
		if ( strcmp( w->imagePaths[i], path ) == 0 )
		{
			return i;
		}
	}
	size_t size = 0;
	char* bytes = cnIoReadFile( path, &size );
	if ( bytes == NULL )
	{
		// the reader's message names the texture file and the reason; put the output's name first
		char reason[1024];
		snprintf( reason, sizeof( reason ), "%s", cnGetError() );
		cnSetError( cnGetErrorCode(), "%s: texture: %s", w->path, reason );
		return -1;
	}
	// glTF holds PNG and JPEG images; told by their signatures, not by the name
	const uint8_t* b = (const uint8_t*)bytes;
	const char* mime = NULL;
	if ( size >= 8 && memcmp( b, "\x89PNG\r\n\x1a\n", 8 ) == 0 )
	{
		mime = "image/png";
	}
	else if ( size >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF )
	{
		mime = "image/jpeg";
	}
	if ( mime == NULL )
	{
		free( bytes );
		cnSetError( cnError_invalidArgument, "%s: texture \"%s\": not a PNG or JPEG image (glTF holds only those)",
					w->path, path );
		return -1;
	}
	char* copy = cnIoCopyString( path );
	if ( copy == NULL || cnReserve( (void**)&w->imagePaths, &w->imageCapacity, w->imageCount, sizeof( char* ) ) == false )
	{
		free( copy );
		free( bytes );
		cnWriterOutOfMemory( w );
		return -1;
	}
	size_t offset = cnBytesAppend( &w->bin, bytes, size );
	free( bytes );
	if ( offset == SIZE_MAX )
	{
		free( copy );
		cnWriterOutOfMemory( w );
		return -1;
	}
	w->imagePaths[w->imageCount] = copy;
	cJSON* view = cnJsonAdd( w, w->bufferViews, NULL, cJSON_CreateObject() );
	cnJsonNumber( w, view, "buffer", 0 );
	cnJsonNumber( w, view, "byteOffset", (double)offset );
	cnJsonNumber( w, view, "byteLength", (double)size );
	cJSON* image = cnJsonAdd( w, w->images, NULL, cJSON_CreateObject() );
	const char* slash = strrchr( path, '/' );
	cnJsonString( w, image, "name", slash != NULL ? slash + 1 : path );
	cnJsonNumber( w, image, "bufferView", w->bufferViewCount++ );
	cnJsonString( w, image, "mimeType", mime );
	cJSON* tex = cnJsonAdd( w, w->textures, NULL, cJSON_CreateObject() );
	cnJsonNumber( w, tex, "sampler", 0 );
	cnJsonNumber( w, tex, "source", w->imageCount );
	return w->imageCount++;
}

// The roughness of each finish (metal's is low so its reflection reads as metal).
static double cnFinishRoughness( cnFinish finish )
{
	switch ( finish )
	{
		case cnFinish_matte:
			return 0.9;
		case cnFinish_metal:
			return 0.25;
		case cnFinish_glass:
			return 0.05;
		case cnFinish_wood:
			return 0.6;
		case cnFinish_marble:
			return 0.2;
		case cnFinish_rubber:
			return 0.8;
		default:
			return 0.4;
	}
}

// The material of an appearance (color: the shape's, or its palette colour), made once; its index,
// -1 with the error set.
static int cnMaterialFor( cnGltfWriter* w, const cnRecordedShape* s, const float color[3] )
{
	cnGltfMaterialKey key;
	memset( &key, 0, sizeof( key ) );
	memcpy( key.color, color, sizeof( key.color ) );
	key.finish = s->finish;
	key.ior = s->finish == cnFinish_glass ? s->ior : 0.0;
	key.texture = s->texture != NULL && s->texture[0] != 0 ? s->texture : NULL;
	for ( int i = 0; i < w->materialCount; ++i )
	{
		const cnGltfMaterialKey* k = w->materialKeys + i;
		bool sameTexture = ( k->texture == NULL && key.texture == NULL ) ||
						   ( k->texture != NULL && key.texture != NULL && strcmp( k->texture, key.texture ) == 0 );
		if ( memcmp( k->color, key.color, sizeof( key.color ) ) == 0 && k->finish == key.finish && k->ior == key.ior &&
			 sameTexture )
		{
			return i;
		}
	}
	int texture = -1;
	if ( key.texture != NULL && ( texture = cnTextureFor( w, key.texture ) ) < 0 )
	{
		return -1;
	}
	if ( cnReserve( (void**)&w->materialKeys, &w->materialCapacity, w->materialCount, sizeof( key ) ) == false )
	{
		cnWriterOutOfMemory( w );
		return -1;
	}
	w->materialKeys[w->materialCount] = key;

	bool glass = s->finish == cnFinish_glass;
	cJSON* material = cnJsonAdd( w, w->materials, NULL, cJSON_CreateObject() );
	char name[128];
	snprintf( name, sizeof( name ), "%s %.3g %.3g %.3g%s", cnFinish_GetName( s->finish ), (double)color[0],
			  (double)color[1], (double)color[2], texture >= 0 ? " textured" : "" );
	cnJsonString( w, material, "name", name );
	cJSON* pbr = cnJsonAdd( w, material, "pbrMetallicRoughness", cJSON_CreateObject() );
	// an image shows as it is (as in the POV-Ray render, it replaces the colour); glass lets most
	// light through
	double alpha = glass ? 0.25 : 1.0;
	double base[4] = { texture >= 0 ? 1.0 : cnRound6( color[0] ), texture >= 0 ? 1.0 : cnRound6( color[1] ),
					   texture >= 0 ? 1.0 : cnRound6( color[2] ), alpha };
	cnJsonNumbers( w, pbr, "baseColorFactor", base, 4 );
	if ( texture >= 0 )
	{
		cJSON* info = cnJsonAdd( w, pbr, "baseColorTexture", cJSON_CreateObject() );
		cnJsonNumber( w, info, "index", texture );
	}
	cnJsonNumber( w, pbr, "metallicFactor", s->finish == cnFinish_metal ? 1.0 : 0.0 );
	cnJsonNumber( w, pbr, "roughnessFactor", cnFinishRoughness( s->finish ) );
	if ( glass )
	{
		cnJsonString( w, material, "alphaMode", "BLEND" );
		cJSON* extensions = cnJsonAdd( w, material, "extensions", cJSON_CreateObject() );
		cJSON* transmission = cnJsonAdd( w, extensions, "KHR_materials_transmission", cJSON_CreateObject() );
		cnJsonNumber( w, transmission, "transmissionFactor", 1.0 );
		cJSON* ior = cnJsonAdd( w, extensions, "KHR_materials_ior", cJSON_CreateObject() );
		cnJsonNumber( w, ior, "ior", s->ior >= 1.0 ? s->ior : 1.5 );
		w->glass = true;
	}
	return w->materialCount++;
}

// ---------------------------------------------------------------------------------------------
// geometry and meshes

// Whether two recorded shapes have the same geometry (planes never share: each is cut under the
// recording around its own place).
static bool cnSameGeometry( const cnRecordedShape* a, const cnRecordedShape* b )
{
	if ( a->type != b->type || a->type == cnShape_plane )
	{
		return false;
	}
	switch ( a->type )
	{
		case cnShape_sphere:
			return a->radius == b->radius;
		case cnShape_box:
			return a->halfExtents.x == b->halfExtents.x && a->halfExtents.y == b->halfExtents.y &&
				   a->halfExtents.z == b->halfExtents.z;
		case cnShape_capsule:
		case cnShape_cylinder:
			return a->radius == b->radius && a->halfHeight == b->halfHeight;
		case cnShape_polygon:
			return a->radius == b->radius && a->vertexCount == b->vertexCount &&
				   memcmp( a->vertices, b->vertices, sizeof( cnVec3 ) * (size_t)a->vertexCount ) == 0;
		case cnShape_hull:
		case cnShape_mesh:
		case cnShape_heightfield:
			// fifty jacks of one hull share one glTF mesh
			return a->vertexCount == b->vertexCount && a->triangleCount == b->triangleCount &&
				   memcmp( a->vertices, b->vertices, sizeof( cnVec3 ) * (size_t)a->vertexCount ) == 0 &&
				   memcmp( a->triangles, b->triangles, sizeof( int ) * 3 * (size_t)a->triangleCount ) == 0;
		default:
			return false;
	}
}

// Stores a built mesh as a geometry with its accessors (and frees the builder); its index, -1 when
// memory ran out, -2 for a mesh without triangles.
static int cnAddGeometry( cnGltfWriter* w, const cnRecordedShape* s, bool textured, bool coil, cnMeshBuilder* builder )
{
	cnMeshBuilder m = *builder;
	if ( m.failed == false && ( m.vertexCount == 0 || m.indexCount == 0 ) )
	{
		// a shape type this exporter does not draw yet: no mesh (glTF refuses empty accessors)
		cnFreeMeshBuilder( &m );
		return -2;
	}
	if ( m.failed || cnReserve( (void**)&w->geometries, &w->geometryCapacity, w->geometryCount,
								sizeof( cnGltfGeometry ) ) == false )
	{
		cnFreeMeshBuilder( &m );
		cnWriterOutOfMemory( w );
		return -1;
	}
	cnGltfGeometry* g = w->geometries + w->geometryCount;
	g->shape = *s;
	g->textured = textured;
	g->coil = coil;
	g->position = cnAddAccessor( w, m.positions, m.vertexCount, 3, cnGl_float, cnGl_arrayBuffer, true );
	g->normal = cnAddAccessor( w, m.normals, m.vertexCount, 3, cnGl_float, cnGl_arrayBuffer, false );
	g->texcoord = textured ? cnAddAccessor( w, m.uvs, m.vertexCount, 2, cnGl_float, cnGl_arrayBuffer, false ) : -1;
	g->indices = cnAddAccessor( w, m.indices, m.indexCount, 1, cnGl_unsignedInt, cnGl_elementArrayBuffer, false );
	cnFreeMeshBuilder( &m );
	if ( w->outOfMemory )
	{
		cnWriterOutOfMemory( w );
		return -1;
	}
	return w->geometryCount++;
}

// The geometry of a shape (made once per distinct shape); its index, -1 when memory ran out, -2 for
// a shape with nothing to draw.
static int cnGeometryFor( cnGltfWriter* w, const cnRecordedShape* s, bool textured, cnTransform shapeWorld )
{
	for ( int i = 0; i < w->geometryCount; ++i )
	{
		if ( w->geometries[i].textured == textured && w->geometries[i].coil == false &&
			 cnSameGeometry( &w->geometries[i].shape, s ) )
		{
			return i;
		}
	}
	cnMeshBuilder m;
	memset( &m, 0, sizeof( m ) );
	if ( s->type == cnShape_plane )
	{
		// a square under the recording's centre, its side three times the recording's diagonal
		cnMeshPlane( &m, s, cnInvTransformPoint( shapeWorld, w->centre ), 1.5 * fmax( w->size, 1.0 ) );
	}
	else
	{
		cnMeshShape( &m, s, w->options->segments );
	}
	return cnAddGeometry( w, s, textured, false, &m );
}

// The mesh drawing a geometry with a material (made once per pair); its index, -1 when memory ran out.
static int cnMeshFor( cnGltfWriter* w, int geometry, int material )
{
	for ( int i = 0; i < w->meshCount; ++i )
	{
		if ( w->meshKeys[i].geometry == geometry && w->meshKeys[i].material == material )
		{
			return i;
		}
	}
	if ( cnReserve( (void**)&w->meshKeys, &w->meshCapacity, w->meshCount, sizeof( cnGltfMeshKey ) ) == false )
	{
		cnWriterOutOfMemory( w );
		return -1;
	}
	w->meshKeys[w->meshCount] = ( cnGltfMeshKey ){ geometry, material };
	const cnGltfGeometry* g = w->geometries + geometry;
	cJSON* mesh = cnJsonAdd( w, w->meshes, NULL, cJSON_CreateObject() );
	char name[64];
	snprintf( name, sizeof( name ), "%s %d", g->coil ? "coil" : cnShapeType_GetName( g->shape.type ), w->meshCount );
	cnJsonString( w, mesh, "name", name );
	cJSON* primitives = cnJsonAdd( w, mesh, "primitives", cJSON_CreateArray() );
	cJSON* primitive = cnJsonAdd( w, primitives, NULL, cJSON_CreateObject() );
	cJSON* attributes = cnJsonAdd( w, primitive, "attributes", cJSON_CreateObject() );
	cnJsonNumber( w, attributes, "POSITION", g->position );
	cnJsonNumber( w, attributes, "NORMAL", g->normal );
	if ( g->texcoord >= 0 )
	{
		cnJsonNumber( w, attributes, "TEXCOORD_0", g->texcoord );
	}
	cnJsonNumber( w, primitive, "indices", g->indices );
	cnJsonNumber( w, primitive, "material", material );
	if ( w->outOfMemory )
	{
		cnWriterOutOfMemory( w );
		return -1;
	}
	return w->meshCount++;
}

// ---------------------------------------------------------------------------------------------
// bodies, camera, animation

// A body's pose at a frame as the export shows it: before the body is created (version 6) its first
// pose, once destroyed its last one (the body is then scaled to nothing).
static cnTransform cnGltfBodyPose( const cnRecording* rec, int frame, int body )
{
	if ( cnRecording_GetBodyState( rec, frame, body ) == cnRecordedBody_notCreated )
	{
		int first = cnRecording_GetBodyFirstFrame( rec, body );
		return first >= 0 ? cnRecording_GetBodyTransform( rec, first, body ) : cnTransform_identity;
	}
	return cnRecording_GetBodyTransform( rec, frame, body );
}

// A body's node with its shapes as child nodes; the body node's index, -1 with the error set.
static int cnWriteBody( cnGltfWriter* w, int body )
{
	const cnRecording* rec = w->recording;
	cnTransform xf = cnGltfBodyPose( rec, 0, body );
	cnBodyType type = cnRecording_GetBodyType( rec, body );
	const char* bodyName = cnRecording_GetBodyName( rec, body );
	char fallback[32];
	if ( bodyName[0] == 0 )
	{
		snprintf( fallback, sizeof( fallback ), "body %d", body );
		bodyName = fallback;
	}
	cJSON* node = cnJsonAdd( w, w->nodes, NULL, cJSON_CreateObject() );
	int index = w->nodeCount++;
	cnJsonString( w, node, "name", bodyName );
	cnJsonPose( w, node, xf );
	if ( cnRecording_IsBodyPresent( rec, 0, body ) == false )
	{
		// a body that does not exist at the first frame (version 6) starts scaled to nothing
		cJSON* scale = cnJsonAdd( w, node, "scale", cJSON_CreateArray() );
		for ( int k = 0; k < 3; ++k )
		{
			cnJsonAdd( w, scale, NULL, cJSON_CreateNumber( 0.0 ) );
		}
	}
	cJSON* extras = cnJsonAdd( w, node, "extras", cJSON_CreateObject() );
	cnJsonString( w, extras, "cairnBodyType", cnBodyType_GetName( type ) );
	int shapes = cnRecording_GetShapeCount( rec, body );
	cJSON* children = shapes > 0 ? cnJsonAdd( w, node, "children", cJSON_CreateArray() ) : NULL;
	for ( int k = 0; k < shapes; ++k )
	{
		cnRecordedShape s = cnRecording_GetShape( rec, body, k );
		// unstyled moving bodies get palette colours, as in the POV-Ray render
		const float* color = cnIsUnstyled( &s ) && type != cnBody_static ? cnPaletteColor( body ) : s.color;
		int material = cnMaterialFor( w, &s, color );
		if ( material < 0 )
		{
			return -1;
		}
		bool textured = s.texture != NULL && s.texture[0] != 0;
		int geometry = cnGeometryFor( w, &s, textured, cnMulTransforms( xf, s.localPose ) );
		if ( geometry == -2 )
		{
			continue;
		}
		int mesh = geometry >= 0 ? cnMeshFor( w, geometry, material ) : -1;
		if ( mesh < 0 )
		{
			return -1;
		}
		cJSON* child = cnJsonAdd( w, w->nodes, NULL, cJSON_CreateObject() );
		char name[512];
		snprintf( name, sizeof( name ), "%s shape %d", bodyName, k );
		cnJsonString( w, child, "name", name );
		cnJsonNumber( w, child, "mesh", mesh );
		cnJsonPose( w, child, s.localPose );
		cnJsonNumber( w, children, NULL, w->nodeCount++ );
	}
	if ( children != NULL && cJSON_GetArraySize( children ) == 0 )
	{
		// glTF refuses an empty list
		cJSON_DeleteItemFromObjectCaseSensitive( node, "children" );
	}
	if ( w->outOfMemory )
	{
		cnWriterOutOfMemory( w );
		return -1;
	}
	return index;
}

// The pose of a glTF camera node seeing view: at its position, looking down its local -z with its
// local +y towards the view's up (in glTF's axes).
static cnTransform cnCameraPose( const cnView* view )
{
	cnVec3 forward = cnNormalize( cnToGltf( cnSub( view->lookAt, view->position ) ) );
	cnVec3 up = cnToGltf( view->up );
	cnVec3 right = cnCross( forward, up );
	double len = cnLength( right );
	// an up along the line of sight says nothing: any perpendicular will do
	right = len > 1e-12 ? cnMulSV( 1.0 / len, right ) : cnPerp( forward );
	cnMat3 r;
	r.cz = cnNeg( forward );
	r.cx = right;
	r.cy = cnCross( r.cz, r.cx );
	cnTransform pose = { cnToGltf( view->position ), cnQuatFromMat3( r ) };
	return pose;
}

// The sampler output of a rotation track: quaternions [x, y, z, w], each on the side of the one
// before (q and -q are the same turn; interpolating across the sign would spin the long way).
static void cnStoreRotation( float* out, int key, cnQuat q, cnQuat* previous )
{
	if ( key > 0 && q.w * previous->w + q.x * previous->x + q.y * previous->y + q.z * previous->z < 0.0 )
	{
		q = ( cnQuat ){ -q.w, -q.x, -q.y, -q.z };
	}
	*previous = q;
	out[4 * key + 0] = (float)q.x;
	out[4 * key + 1] = (float)q.y;
	out[4 * key + 2] = (float)q.z;
	out[4 * key + 3] = (float)q.w;
}

// The animation being built: one time accessor shared by every sampler.
typedef struct cnGltfAnimation
{
	cJSON* samplers;
	cJSON* channels;
	int samplerCount;
	int input;
	const float* times;
	int keyCount;
} cnGltfAnimation;

// Adds translation and rotation tracks (keyCount keys, already in glTF's axes) for a node, and a
// scale track when scales is not NULL.
static void cnAddTracks( cnGltfWriter* w, cnGltfAnimation* a, int node, const float* translations,
						 const float* rotations, const float* scales )
{
	if ( a->input < 0 )
	{
		a->input = cnAddAccessor( w, a->times, a->keyCount, 1, cnGl_float, 0, true );
	}
	int tracks = scales != NULL ? 3 : 2;
	int outputs[3] = { cnAddAccessor( w, translations, a->keyCount, 3, cnGl_float, 0, false ),
					   cnAddAccessor( w, rotations, a->keyCount, 4, cnGl_float, 0, false ),
					   scales != NULL ? cnAddAccessor( w, scales, a->keyCount, 3, cnGl_float, 0, false ) : -1 };
	static const char* const paths[3] = { "translation", "rotation", "scale" };
	for ( int i = 0; i < tracks; ++i )
	{
		cJSON* sampler = cnJsonAdd( w, a->samplers, NULL, cJSON_CreateObject() );
		cnJsonNumber( w, sampler, "input", a->input );
		cnJsonNumber( w, sampler, "output", outputs[i] );
		cnJsonString( w, sampler, "interpolation", "LINEAR" );
		cJSON* channel = cnJsonAdd( w, a->channels, NULL, cJSON_CreateObject() );
		cnJsonNumber( w, channel, "sampler", a->samplerCount++ );
		cJSON* target = cnJsonAdd( w, channel, "target", cJSON_CreateObject() );
		cnJsonNumber( w, target, "node", node );
		cnJsonString( w, target, "path", paths[i] );
	}
}

// ---------------------------------------------------------------------------------------------
// joints

// The unit meshes joint pieces are scaled from (render/joint_draw.h): a sphere of radius 1, a
// cylinder of radius 1 and length 1 along z, a cube of half side 1; and a coil built at the joint's
// size. The geometry's index, -1 when memory ran out.
static int cnJointGeometry( cnGltfWriter* w, const cnJointPiece* piece, const cnJointLook* look )
{
	cnRecordedShape s;
	memset( &s, 0, sizeof( s ) );
	s.localPose = cnTransform_identity;
	s.texture = "";
	s.ior = 1.5;
	switch ( piece->kind )
	{
		case cnJointPiece_sphere:
			s.type = cnShape_sphere;
			s.radius = 1.0;
			break;
		case cnJointPiece_rod:
			s.type = cnShape_cylinder;
			s.radius = 1.0;
			s.halfHeight = 0.5;
			break;
		case cnJointPiece_marker:
			s.type = cnShape_box;
			s.halfExtents = cnV3( 1.0, 1.0, 1.0 );
			break;
		case cnJointPiece_coil:
		{
			// a coil's key: its coil radius, wire radius, length and turns
			s.type = cnShape_sphere;
			s.radius = look->coilRadius;
			s.halfExtents = cnV3( look->wireRadius, look->meshLength, (double)look->turns );
			for ( int i = 0; i < w->geometryCount; ++i )
			{
				const cnRecordedShape* k = &w->geometries[i].shape;
				if ( w->geometries[i].coil && k->radius == s.radius && k->halfExtents.x == s.halfExtents.x &&
					 k->halfExtents.y == s.halfExtents.y && k->halfExtents.z == s.halfExtents.z )
				{
					return i;
				}
			}
			cnMeshBuilder m;
			memset( &m, 0, sizeof( m ) );
			cnMeshCoil( &m, look->coilRadius, look->wireRadius, look->turns, look->meshLength, w->options->segments );
			return cnAddGeometry( w, &s, false, true, &m );
		}
	}
	return cnGeometryFor( w, &s, false, cnTransform_identity );
}

// Where a piece's node puts its unit mesh, in Cairn's axes: translation, rotation and the scale along
// the mesh's own x, y, z (zero when the piece is not drawn).
static void cnJointPiecePose( const cnJointPiece* p, const cnJointLook* look, cnTransform* pose, cnVec3* scale )
{
	double length = cnDistance( p->a, p->b );
	cnVec3 u = length > 0.0 ? cnMulSV( 1.0 / length, cnSub( p->b, p->a ) ) : cnV3( 0.0, 0.0, 1.0 );
	pose->p = p->a;
	pose->q = p->q;
	*scale = cnV3( p->radius, p->radius, p->radius );
	switch ( p->kind )
	{
		case cnJointPiece_rod:
			// the unit cylinder is centred on its origin
			pose->p = cnMulSV( 0.5, cnAdd( p->a, p->b ) );
			pose->q = cnRotationFromZ( u );
			*scale = cnV3( p->radius, p->radius, length );
			break;
		case cnJointPiece_coil:
			// the coil mesh rises from its origin to meshLength: stretched to the anchors' distance
			pose->q = cnRotationFromZ( u );
			*scale = cnV3( 1.0, 1.0, length / look->meshLength );
			break;
		default:
			break;
	}
	if ( p->visible == false )
	{
		*scale = cnVec3_zero;
	}
}

// A scale in glTF's axes: the turn P swaps the mesh's y and z (P S P^T for a diagonal S).
static cnVec3 cnScaleToGltf( cnVec3 s )
{
	return cnV3( s.x, s.z, s.y );
}

// What a joint's pieces are called in its nodes' names.
static const char* cnJointPieceName( cnJointType type, int k )
{
	switch ( type )
	{
		case cnJoint_spring:
			return "coil";
		case cnJoint_damper:
			return k == 0 ? "cylinder" : "rod";
		case cnJoint_distance:
			return "rod";
		case cnJoint_fixed:
			return "marker";
		case cnJoint_slider:
		case cnJoint_pointOnPlane:
			return k == 0 ? "marker A" : ( k == 1 ? "marker B" : "rail" );
		default:
			return "sphere";
	}
}

// A node per joint (named after it, extras.cairnJointType its type) with a child node per piece,
// each a unit mesh placed, turned and scaled between the anchors, with translation, rotation and
// scale tracks when the recording has several frames; a piece that is not drawn (a broken joint)
// shrinks to nothing where it was last seen. The joint nodes' indices go to jointNodes; false with
// the error set.
static bool cnWriteJoints( cnGltfWriter* w, cnGltfAnimation* animation, int* jointNodes )
{
	const cnRecording* rec = w->recording;
	int count = cnRecording_GetJointCount( rec );
	if ( count == 0 )
	{
		return true;
	}
	int keys = animation->keyCount;
	cnJointLook* looks = cnJointLooks( rec );
	float* translations = malloc( sizeof( float ) * 3 * (size_t)keys );
	float* rotations = malloc( sizeof( float ) * 4 * (size_t)keys );
	float* scales = malloc( sizeof( float ) * 3 * (size_t)keys );
	if ( looks == NULL || translations == NULL || rotations == NULL || scales == NULL )
	{
		free( looks );
		free( translations );
		free( rotations );
		free( scales );
		return cnWriterOutOfMemory( w );
	}
	// steel for every piece, a dark finish for dampers' cylinders
	cnRecordedShape steel;
	memset( &steel, 0, sizeof( steel ) );
	steel.finish = cnFinish_metal;
	steel.ior = 1.5;
	steel.texture = "";
	cnRecordedShape dark = steel;
	dark.finish = cnFinish_plastic;
	static const float steelColor[3] = { 0.72f, 0.73f, 0.76f };
	static const float darkColor[3] = { 0.16f, 0.16f, 0.18f };
	int materials[2] = { cnMaterialFor( w, &steel, steelColor ), cnMaterialFor( w, &dark, darkColor ) };
	bool ok = materials[0] >= 0 && materials[1] >= 0;
	for ( int i = 0; i < count && ok; ++i )
	{
		cnRecordedJoint joint = cnRecording_GetJoint( rec, i );
		const cnJointLook* look = looks + i;
		char name[512];
		if ( joint.name[0] != 0 )
		{
			snprintf( name, sizeof( name ), "%s", joint.name );
		}
		else
		{
			snprintf( name, sizeof( name ), "joint %d", i );
		}
		cJSON* node = cnJsonAdd( w, w->nodes, NULL, cJSON_CreateObject() );
		jointNodes[i] = w->nodeCount++;
		cnJsonString( w, node, "name", name );
		cJSON* extras = cnJsonAdd( w, node, "extras", cJSON_CreateObject() );
		cnJsonString( w, extras, "cairnJointType", cnJointType_GetName( joint.type ) );
		cJSON* children = cnJsonAdd( w, node, "children", cJSON_CreateArray() );
		cnJointPiece pieces[CN_JOINT_PIECES_MAX];
		int pieceCount = cnJointPieces( rec, look, 0, i, pieces );
		for ( int k = 0; k < pieceCount && ok; ++k )
		{
			int geometry = cnJointGeometry( w, pieces + k, look );
			int mesh = geometry >= 0 ? cnMeshFor( w, geometry, materials[pieces[k].dark ? 1 : 0] ) : -1;
			if ( mesh < 0 )
			{
				ok = false;
				break;
			}
			cJSON* child = cnJsonAdd( w, w->nodes, NULL, cJSON_CreateObject() );
			int childIndex = w->nodeCount++;
			char childName[600];
			snprintf( childName, sizeof( childName ), "%s %s", name, cnJointPieceName( joint.type, k ) );
			cnJsonString( w, child, "name", childName );
			cnJsonNumber( w, child, "mesh", mesh );
			cnJsonNumber( w, children, NULL, childIndex );
			// the first frame's pose, what a still shows
			cnTransform pose;
			cnVec3 scale;
			cnJointPiecePose( pieces + k, look, &pose, &scale );
			cnJsonPose( w, child, pose );
			cnVec3 gs = cnScaleToGltf( scale );
			double s3[3] = { gs.x, gs.y, gs.z };
			cnJsonNumbers( w, child, "scale", s3, 3 );
			if ( keys < 2 )
			{
				continue;
			}
			cnQuat previous = cnQuat_identity;
			cnTransform seen = pose;
			for ( int f = 0; f < keys; ++f )
			{
				cnJointPiece frame[CN_JOINT_PIECES_MAX];
				cnJointPieces( rec, look, f * w->options->frameStride, i, frame );
				cnJointPiecePose( frame + k, look, &pose, &scale );
				// a piece that is not drawn shrinks where it was last seen, so it does not fly off
				// while it shrinks
				seen = frame[k].visible || f == 0 ? pose : seen;
				cnVec3 p = cnToGltf( seen.p );
				gs = cnScaleToGltf( scale );
				translations[3 * f + 0] = (float)p.x;
				translations[3 * f + 1] = (float)p.y;
				translations[3 * f + 2] = (float)p.z;
				cnStoreRotation( rotations, f, cnQuatToGltf( cnNormalizeQuat( seen.q ) ), &previous );
				scales[3 * f + 0] = (float)gs.x;
				scales[3 * f + 1] = (float)gs.y;
				scales[3 * f + 2] = (float)gs.z;
			}
			cnAddTracks( w, animation, childIndex, translations, rotations, scales );
		}
	}
	free( looks );
	free( translations );
	free( rotations );
	free( scales );
	if ( ok && w->outOfMemory )
	{
		return cnWriterOutOfMemory( w );
	}
	return ok;
}

// The camera node (and its tracks when it moves); false with the error set.
static bool cnWriteCamera( cnGltfWriter* w, const cnCameraDef* camera, cnGltfAnimation* animation, float* translations,
						   float* rotations )
{
	const cnRecording* rec = w->recording;
	cnView view;
	if ( camera != NULL )
	{
		if ( cnCamera_GetView( camera, rec, 0, &view ) == false )
		{
			char reason[1024];
			snprintf( reason, sizeof( reason ), "%s", cnGetError() );
			return cnSetError( cnGetErrorCode(), "%s: %s", w->path, reason );
		}
	}
	else
	{
		view = cnRecording_GetAutoView( rec, w->options->aspect );
	}
	// glTF's field of view is vertical: the one the horizontal one gives at the aspect ratio
	double aspect = w->options->aspect;
	double yfov = 2.0 * atan( tan( 0.5 * view.fovDeg * CN_PI / 180.0 ) / aspect );
	cJSON* cameras = cnJsonAdd( w, w->root, "cameras", cJSON_CreateArray() );
	cJSON* cam = cnJsonAdd( w, cameras, NULL, cJSON_CreateObject() );
	const char* name = camera != NULL && camera->name != NULL && camera->name[0] != 0 ? camera->name : "camera";
	cnJsonString( w, cam, "name", name );
	cnJsonString( w, cam, "type", "perspective" );
	cJSON* perspective = cnJsonAdd( w, cam, "perspective", cJSON_CreateObject() );
	cnJsonNumber( w, perspective, "aspectRatio", aspect );
	cnJsonNumber( w, perspective, "yfov", yfov );
	// no far plane (an infinite projection); the near one small against the scene
	cnJsonNumber( w, perspective, "znear", fmax( 1e-3 * w->size, 1e-4 ) );

	cJSON* node = cnJsonAdd( w, w->nodes, NULL, cJSON_CreateObject() );
	int index = w->nodeCount++;
	cnJsonString( w, node, "name", name );
	cnJsonNumber( w, node, "camera", 0 );
	cnTransform pose = cnCameraPose( &view );
	double translation[3] = { pose.p.x, pose.p.y, pose.p.z };
	double rotation[4] = { pose.q.x, pose.q.y, pose.q.z, pose.q.w };
	cnJsonNumbers( w, node, "translation", translation, 3 );
	cnJsonNumbers( w, node, "rotation", rotation, 4 );

	bool moves = camera != NULL && camera->type != cnCamera_fixed && animation->keyCount > 1;
	if ( moves )
	{
		cnQuat previous = cnQuat_identity;
		for ( int k = 0; k < animation->keyCount; ++k )
		{
			if ( cnCamera_GetView( camera, rec, k * w->options->frameStride, &view ) == false )
			{
				char reason[1024];
				snprintf( reason, sizeof( reason ), "%s", cnGetError() );
				return cnSetError( cnGetErrorCode(), "%s: %s", w->path, reason );
			}
			pose = cnCameraPose( &view );
			translations[3 * k + 0] = (float)pose.p.x;
			translations[3 * k + 1] = (float)pose.p.y;
			translations[3 * k + 2] = (float)pose.p.z;
			cnStoreRotation( rotations, k, pose.q, &previous );
		}
		cnAddTracks( w, animation, index, translations, rotations, NULL );
	}
	return w->outOfMemory ? cnWriterOutOfMemory( w ) : true;
}

// ---------------------------------------------------------------------------------------------
// files

// The buffer file's name as a URI relative to the .gltf: its base name with everything but
// unreserved characters percent-encoded.
static void cnBufferUri( const char* binPath, char* uri, size_t size )
{
	const char* slash = strrchr( binPath, '/' );
	const char* name = slash != NULL ? slash + 1 : binPath;
	size_t n = 0;
	for ( const unsigned char* c = (const unsigned char*)name; *c != 0 && n + 4 < size; ++c )
	{
		if ( ( *c >= 'A' && *c <= 'Z' ) || ( *c >= 'a' && *c <= 'z' ) || ( *c >= '0' && *c <= '9' ) || *c == '-' ||
			 *c == '.' || *c == '_' || *c == '~' )
		{
			uri[n++] = (char)*c;
		}
		else
		{
			n += (size_t)snprintf( uri + n, size - n, "%%%02X", *c );
		}
	}
	uri[n] = 0;
}

static void cnPutU32( uint8_t* p, uint32_t v )
{
	for ( int i = 0; i < 4; ++i )
	{
		p[i] = (uint8_t)( v >> ( 8 * i ) );
	}
}

static bool cnWriteBytes( cnOutputFile* file, const void* data, size_t size )
{
	return size == 0 || fwrite( data, 1, size, cnOutputFile_GetStream( file ) ) == size;
}

// The binary form: a 12-byte header, the JSON chunk padded with spaces and the buffer's chunk padded
// with zeros, each to a multiple of 4 bytes.
static bool cnWriteGlb( cnGltfWriter* w )
{
	if ( w->bin.size > 0 )
	{
		cJSON* buffers = cnJsonAdd( w, w->root, "buffers", cJSON_CreateArray() );
		cJSON* buffer = cnJsonAdd( w, buffers, NULL, cJSON_CreateObject() );
		cnJsonNumber( w, buffer, "byteLength", (double)w->bin.size );
	}
	char* json = w->outOfMemory ? NULL : cJSON_PrintUnformatted( w->root );
	if ( json == NULL )
	{
		return cnWriterOutOfMemory( w );
	}
	size_t jsonSize = strlen( json );
	size_t jsonPadded = ( jsonSize + 3 ) & ~(size_t)3;
	size_t binPadded = ( w->bin.size + 3 ) & ~(size_t)3;
	size_t total = 12 + 8 + jsonPadded + ( binPadded > 0 ? 8 + binPadded : 0 );
	if ( total > UINT32_MAX )
	{
		free( json );
		return cnSetError( cnError_invalidArgument, "%s: %zu bytes is more than a .glb can hold (4 GiB); write .gltf",
						   w->path, total );
	}
	cnOutputFile* file = cnCreateOutputFile( w->path );
	if ( file == NULL )
	{
		free( json );
		return false;
	}
	uint8_t header[20];
	memcpy( header, "glTF", 4 );
	cnPutU32( header + 4, 2 );
	cnPutU32( header + 8, (uint32_t)total );
	cnPutU32( header + 12, (uint32_t)jsonPadded );
	memcpy( header + 16, "JSON", 4 );
	static const uint8_t zeros[4] = { 0, 0, 0, 0 };
	bool ok = cnWriteBytes( file, header, 20 ) && cnWriteBytes( file, json, jsonSize ) &&
			  cnWriteBytes( file, "   ", jsonPadded - jsonSize );
	if ( ok && binPadded > 0 )
	{
		uint8_t chunk[8];
		cnPutU32( chunk, (uint32_t)binPadded );
		memcpy( chunk + 4, "BIN\0", 4 );
		ok = cnWriteBytes( file, chunk, 8 ) && cnWriteBytes( file, w->bin.data, w->bin.size ) &&
			 cnWriteBytes( file, zeros, binPadded - w->bin.size );
	}
	free( json );
	if ( ok == false )
	{
		cnDestroyOutputFile( file );
		return cnSetError( cnError_io, "%s: write failed", w->path );
	}
	ok = cnOutputFile_Commit( file );
	cnDestroyOutputFile( file );
	return ok;
}

// The JSON form: the .gltf and the buffer beside it, both renamed into place only once both are
// written.
static bool cnWriteJsonForm( cnGltfWriter* w )
{
	char binPath[4096 + 16];
	if ( cnGltfBufferPath( w->path, binPath, sizeof( binPath ) ) == false )
	{
		return cnSetError( cnError_invalidArgument, "%s: the file name is too long", w->path );
	}
	if ( strcmp( binPath, w->path ) == 0 )
	{
		return cnSetError( cnError_invalidArgument, "%s: the buffer would be written over the .gltf itself", w->path );
	}
	if ( w->bin.size > 0 )
	{
		char uri[3 * sizeof( binPath )];
		cnBufferUri( binPath, uri, sizeof( uri ) );
		cJSON* buffers = cnJsonAdd( w, w->root, "buffers", cJSON_CreateArray() );
		cJSON* buffer = cnJsonAdd( w, buffers, NULL, cJSON_CreateObject() );
		cnJsonNumber( w, buffer, "byteLength", (double)w->bin.size );
		cnJsonString( w, buffer, "uri", uri );
	}
	char* json = w->outOfMemory ? NULL : cJSON_Print( w->root );
	if ( json == NULL )
	{
		return cnWriterOutOfMemory( w );
	}
	cnOutputFile* bin = NULL;
	if ( w->bin.size > 0 )
	{
		bin = cnCreateOutputFile( binPath );
		if ( bin == NULL )
		{
			free( json );
			return false;
		}
		if ( cnWriteBytes( bin, w->bin.data, w->bin.size ) == false )
		{
			free( json );
			cnDestroyOutputFile( bin );
			return cnSetError( cnError_io, "%s: write failed", binPath );
		}
	}
	cnOutputFile* file = cnCreateOutputFile( w->path );
	if ( file == NULL )
	{
		free( json );
		cnDestroyOutputFile( bin );
		return false;
	}
	bool ok = cnWriteBytes( file, json, strlen( json ) ) && cnWriteBytes( file, "\n", 1 );
	free( json );
	if ( ok == false )
	{
		cnDestroyOutputFile( file );
		cnDestroyOutputFile( bin );
		return cnSetError( cnError_io, "%s: write failed", w->path );
	}
	// the buffer first: a .gltf never names a buffer that is not there
	if ( bin != NULL && cnOutputFile_Commit( bin ) == false )
	{
		cnDestroyOutputFile( file );
		cnDestroyOutputFile( bin );
		return false;
	}
	ok = cnOutputFile_Commit( file );
	if ( ok == false && bin != NULL )
	{
		remove( binPath );
	}
	cnDestroyOutputFile( file );
	cnDestroyOutputFile( bin );
	return ok;
}

static void cnFreeWriter( cnGltfWriter* w )
{
	cJSON_Delete( w->root );
	free( w->bin.data );
	free( w->geometries );
	free( w->materialKeys );
	free( w->meshKeys );
	for ( int i = 0; i < w->imageCount; ++i )
	{
		free( w->imagePaths[i] );
	}
	free( w->imagePaths );
}

// Checks the arguments; the format to write, cnGltfFormat_auto with the error set when they are bad.
static cnGltfFormat cnCheckArguments( const char* path, const cnRecording* recording, const cnGltfOptions* o )
{
	if ( path == NULL || path[0] == 0 )
	{
		cnSetError( cnError_invalidArgument, "glTF export: no file name given" );
		return cnGltfFormat_auto;
	}
	if ( recording == NULL )
	{
		cnSetError( cnError_invalidArgument, "%s: no recording to export", path );
		return cnGltfFormat_auto;
	}
	if ( cnRecording_GetFrameCount( recording ) < 1 )
	{
		cnSetError( cnError_invalidArgument, "%s: the recording has no frames", path );
		return cnGltfFormat_auto;
	}
	if ( !( o->aspect > 0.0 && isfinite( o->aspect ) ) || o->frameStride < 1 || o->segments < 8 || o->segments > 256 )
	{
		cnSetError( cnError_invalidArgument,
					"%s: bad options (aspect %g must be > 0, frame stride %d >= 1, segments %d in [8, 256])", path,
					o->aspect, o->frameStride, o->segments );
		return cnGltfFormat_auto;
	}
	cnGltfFormat format = o->format == cnGltfFormat_auto ? cnGltfFormatForPath( path ) : o->format;
	if ( format != cnGltfFormat_binary && format != cnGltfFormat_json )
	{
		cnSetError( cnError_invalidArgument, "%s: the file name must end in .glb (binary glTF) or .gltf (JSON + .bin)",
					path );
		return cnGltfFormat_auto;
	}
	return format;
}

bool cnWriteGltf( const char* path, const cnRecording* recording, const cnCameraDef* camera,
				  const cnGltfOptions* options )
{
	cnGltfOptions defaults = cnDefaultGltfOptions();
	const cnGltfOptions* o = options != NULL ? options : &defaults;
	cnGltfFormat format = cnCheckArguments( path, recording, o );
	if ( format == cnGltfFormat_auto )
	{
		return false;
	}
	int frames = cnRecording_GetFrameCount( recording );
	int bodies = cnRecording_GetBodyCount( recording );
	int keys = ( frames - 1 ) / o->frameStride + 1;

	cnGltfWriter w;
	memset( &w, 0, sizeof( w ) );
	w.path = path;
	w.recording = recording;
	w.options = o;
	cnAABB bounds;
	if ( cnRecording_GetBounds( recording, &bounds ) )
	{
		w.centre = cnMulSV( 0.5, cnAdd( bounds.lower, bounds.upper ) );
		w.size = cnLength( cnSub( bounds.upper, bounds.lower ) );
	}
	else
	{
		// nothing but planes: a floor of some metres around the origin
		w.size = 5.0;
	}

	float* times = malloc( sizeof( float ) * (size_t)keys );
	float* translations = malloc( sizeof( float ) * 3 * (size_t)keys );
	float* rotations = malloc( sizeof( float ) * 4 * (size_t)keys );
	float* presence = malloc( sizeof( float ) * 3 * (size_t)keys );
	int* bodyNodes = malloc( sizeof( int ) * (size_t)( bodies > 0 ? bodies : 1 ) );
	int joints = cnRecording_GetJointCount( recording );
	int* jointNodes = malloc( sizeof( int ) * (size_t)( joints > 0 ? joints : 1 ) );
	w.root = cJSON_CreateObject();
	bool ok = times != NULL && translations != NULL && rotations != NULL && presence != NULL && bodyNodes != NULL &&
			  jointNodes != NULL && w.root != NULL;
	if ( ok == false )
	{
		cnWriterOutOfMemory( &w );
		goto done;
	}

	// the keys' times: glTF wants them increasing, which single precision can undo for frames closer
	// than its resolution at that time
	for ( int k = 0; k < keys && ok; ++k )
	{
		times[k] = (float)cnRecording_GetFrameTime( recording, k * o->frameStride );
		if ( k == 0 && !( times[0] >= 0.0f ) )
		{
			ok = cnSetError( cnError_invalidArgument, "%s: the recording starts at t = %g s; glTF times start at 0 or later",
							 path, (double)times[0] );
		}
		else if ( k > 0 && !( times[k] > times[k - 1] ) )
		{
			ok = cnSetError( cnError_invalidArgument,
							 "%s: frames %d and %d have the same time in single precision (%.9g s); keep fewer frames",
							 path, ( k - 1 ) * o->frameStride, k * o->frameStride, (double)times[k] );
		}
	}
	if ( ok == false )
	{
		goto done;
	}

	cJSON* asset = cnJsonAdd( &w, w.root, "asset", cJSON_CreateObject() );
	cnJsonString( &w, asset, "version", "2.0" );
	char generator[64];
	snprintf( generator, sizeof( generator ), "Cairn %s", cnGetVersion() );
	cnJsonString( &w, asset, "generator", generator );
	// the arrays in the order glTF lists them; the empty ones are removed before writing
	w.accessors = cnJsonAdd( &w, w.root, "accessors", cJSON_CreateArray() );
	w.bufferViews = cnJsonAdd( &w, w.root, "bufferViews", cJSON_CreateArray() );
	w.images = cnJsonAdd( &w, w.root, "images", cJSON_CreateArray() );
	w.textures = cnJsonAdd( &w, w.root, "textures", cJSON_CreateArray() );
	w.materials = cnJsonAdd( &w, w.root, "materials", cJSON_CreateArray() );
	w.meshes = cnJsonAdd( &w, w.root, "meshes", cJSON_CreateArray() );
	w.nodes = cnJsonAdd( &w, w.root, "nodes", cJSON_CreateArray() );

	for ( int b = 0; b < bodies && ok; ++b )
	{
		bodyNodes[b] = cnWriteBody( &w, b );
		ok = bodyNodes[b] >= 0;
	}
	if ( ok == false )
	{
		goto done;
	}

	cnGltfAnimation animation = { 0 };
	animation.samplers = cJSON_CreateArray();
	animation.channels = cJSON_CreateArray();
	animation.input = -1;
	animation.times = times;
	animation.keyCount = keys;
	if ( animation.samplers == NULL || animation.channels == NULL )
	{
		cJSON_Delete( animation.samplers );
		cJSON_Delete( animation.channels );
		ok = cnWriterOutOfMemory( &w );
		goto done;
	}
	// a still (one key) needs no animation; static bodies never move
	for ( int b = 0; b < bodies && keys > 1; ++b )
	{
		// a body that is created or destroyed while recording (version 6) gets a scale track: 1 where
		// it exists, 0 where it does not
		bool comesAndGoes = false;
		for ( int k = 0; k < keys && comesAndGoes == false; ++k )
		{
			comesAndGoes = cnRecording_IsBodyPresent( recording, k * o->frameStride, b ) == false;
		}
		if ( cnRecording_GetBodyType( recording, b ) == cnBody_static && comesAndGoes == false )
		{
			continue;
		}
		cnQuat previous = cnQuat_identity;
		for ( int k = 0; k < keys; ++k )
		{
			cnTransform xf = cnGltfBodyPose( recording, k * o->frameStride, b );
			cnVec3 p = cnToGltf( xf.p );
			translations[3 * k + 0] = (float)p.x;
			translations[3 * k + 1] = (float)p.y;
			translations[3 * k + 2] = (float)p.z;
			cnStoreRotation( rotations, k, cnQuatToGltf( cnNormalizeQuat( xf.q ) ), &previous );
			float shown = cnRecording_IsBodyPresent( recording, k * o->frameStride, b ) ? 1.0f : 0.0f;
			presence[3 * k + 0] = shown;
			presence[3 * k + 1] = shown;
			presence[3 * k + 2] = shown;
		}
		cnAddTracks( &w, &animation, bodyNodes[b], translations, rotations, comesAndGoes ? presence : NULL );
	}
	ok = cnWriteJoints( &w, &animation, jointNodes );
	if ( ok && o->camera )
	{
		ok = cnWriteCamera( &w, camera, &animation, translations, rotations );
	}
	if ( animation.samplerCount > 0 )
	{
		cJSON* animations = cnJsonAdd( &w, w.root, "animations", cJSON_CreateArray() );
		cJSON* a = cnJsonAdd( &w, animations, NULL, cJSON_CreateObject() );
		const char* sceneName = cnRecording_GetSceneName( recording );
		cnJsonString( &w, a, "name", sceneName[0] != 0 ? sceneName : "cairn" );
		cnJsonAdd( &w, a, "channels", animation.channels );
		cnJsonAdd( &w, a, "samplers", animation.samplers );
	}
	else
	{
		cJSON_Delete( animation.samplers );
		cJSON_Delete( animation.channels );
	}
	if ( ok == false )
	{
		goto done;
	}

	// the scene: every body, every joint and the camera are roots (shapes hang under their bodies,
	// pieces under their joints)
	cnJsonNumber( &w, w.root, "scene", 0 );
	cJSON* scenes = cnJsonAdd( &w, w.root, "scenes", cJSON_CreateArray() );
	cJSON* scene = cnJsonAdd( &w, scenes, NULL, cJSON_CreateObject() );
	const char* sceneName = cnRecording_GetSceneName( recording );
	cnJsonString( &w, scene, "name", sceneName[0] != 0 ? sceneName : "cairn" );
	cJSON* roots = cnJsonAdd( &w, scene, "nodes", cJSON_CreateArray() );
	for ( int b = 0; b < bodies; ++b )
	{
		cnJsonNumber( &w, roots, NULL, bodyNodes[b] );
	}
	for ( int j = 0; j < joints; ++j )
	{
		cnJsonNumber( &w, roots, NULL, jointNodes[j] );
	}
	if ( o->camera )
	{
		cnJsonNumber( &w, roots, NULL, w.nodeCount - 1 );
	}
	if ( w.imageCount > 0 )
	{
		cJSON* samplers = cnJsonAdd( &w, w.root, "samplers", cJSON_CreateArray() );
		cJSON* sampler = cnJsonAdd( &w, samplers, NULL, cJSON_CreateObject() );
		cnJsonNumber( &w, sampler, "magFilter", cnGl_linear );
		cnJsonNumber( &w, sampler, "minFilter", cnGl_linearMipmapLinear );
		cnJsonNumber( &w, sampler, "wrapS", cnGl_repeat );
		cnJsonNumber( &w, sampler, "wrapT", cnGl_repeat );
	}
	if ( w.glass )
	{
		const char* used[2] = { "KHR_materials_transmission", "KHR_materials_ior" };
		cnJsonAdd( &w, w.root, "extensionsUsed", cJSON_CreateStringArray( used, 2 ) );
	}
	// glTF refuses empty arrays
	static const char* const arrays[] = { "accessors", "bufferViews", "images", "textures", "materials", "meshes", "nodes" };
	for ( size_t i = 0; i < sizeof( arrays ) / sizeof( arrays[0] ); ++i )
	{
		if ( cJSON_GetArraySize( cJSON_GetObjectItemCaseSensitive( w.root, arrays[i] ) ) == 0 )
		{
			cJSON_DeleteItemFromObjectCaseSensitive( w.root, arrays[i] );
		}
	}
	if ( w.outOfMemory )
	{
		ok = cnWriterOutOfMemory( &w );
		goto done;
	}
	ok = format == cnGltfFormat_binary ? cnWriteGlb( &w ) : cnWriteJsonForm( &w );

done:
	free( times );
	free( translations );
	free( rotations );
	free( presence );
	free( bodyNodes );
	free( jointNodes );
	cnFreeWriter( &w );
	if ( ok )
	{
		cnClearError();
	}
	return ok;
}
