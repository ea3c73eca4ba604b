// SPDX-License-Identifier: MIT
// Binary recordings: the writer (cnRecorder) and the validating reader (cnRecording).
// Every value is written byte by byte in little-endian order, so files are the same on every
// host; docs/recording-format.md gives the layout.
#include "cairn/recording.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert( sizeof( double ) == 8 && DBL_MANT_DIG == 53, "recordings store IEEE 754 binary64 doubles" );
_Static_assert( sizeof( float ) == 4 && FLT_MANT_DIG == 24, "recordings store IEEE 754 binary32 floats" );

// byte offsets of the fixed header fields (see docs/recording-format.md)
enum
{
	cn_recMagicOffset = 0,
	cn_recVersionOffset = 8,
	cn_recBodyCountOffset = 12,
	cn_recFrameCountOffset = 16,
	cn_recHeaderSizeOffset = 20,
	cn_recFpsOffset = 24,
	cn_recSceneNameOffset = 32,
	// type (4) + 12 doubles of size fields + 7 doubles of pose + 3 floats of colour
	cn_recShapeBytes = 4 + 8 * ( 1 + 3 + 1 + 3 + 1 ) + 8 * 7 + 4 * 3,
	// a polygon's vertex list after its shape record: count + 3 doubles per vertex (version 2)
	cn_recVertexCountBytes = 4,
	cn_recVertexBytes = 8 * 3,
	// position (3 doubles) + orientation (4 doubles)
	cn_recBodyFrameBytes = 8 * 7,
	// the smallest body record: name length, type, shape count
	cn_recMinBodyBytes = 12,
};

static void cnFormatError( char* error, int capacity, const char* format, ... )
{
	if ( error == NULL || capacity <= 0 )
	{
		return;
	}
	va_list args;
	va_start( args, format );
	vsnprintf( error, (size_t)capacity, format, args );
	va_end( args );
}

static char* cnDuplicateString( const char* s, size_t length )
{
	char* copy = malloc( length + 1 );
	if ( copy != NULL )
	{
		memcpy( copy, s, length );
		copy[length] = 0;
	}
	return copy;
}

// ---------------------------------------------------------------------------------------------
// little-endian encoding

static void cnPutU32( uint8_t* p, uint32_t v )
{
	for ( int i = 0; i < 4; ++i )
	{
		p[i] = (uint8_t)( v >> ( 8 * i ) );
	}
}

static void cnPutU64( uint8_t* p, uint64_t v )
{
	for ( int i = 0; i < 8; ++i )
	{
		p[i] = (uint8_t)( v >> ( 8 * i ) );
	}
}

static void cnPutF64( uint8_t* p, double v )
{
	uint64_t bits;
	memcpy( &bits, &v, 8 );
	cnPutU64( p, bits );
}

static void cnPutF32( uint8_t* p, float v )
{
	uint32_t bits;
	memcpy( &bits, &v, 4 );
	cnPutU32( p, bits );
}

static uint32_t cnGetU32( const uint8_t* p )
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double cnGetF64( const uint8_t* p )
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

static float cnGetF32( const uint8_t* p )
{
	uint32_t bits = cnGetU32( p );
	float v;
	memcpy( &v, &bits, 4 );
	return v;
}

// A growable byte buffer used to assemble the header before it is written in one go.
typedef struct cnBytes
{
	uint8_t* data;
	size_t size;
	size_t capacity;
	bool failed;
} cnBytes;

static uint8_t* cnBytes_Grow( cnBytes* b, size_t n )
{
	if ( b->failed )
	{
		return NULL;
	}
	if ( b->size + n > b->capacity )
	{
		size_t capacity = b->capacity < 256 ? 256 : b->capacity;
		while ( capacity < b->size + n )
		{
			capacity *= 2;
		}
		uint8_t* data = realloc( b->data, capacity );
		if ( data == NULL )
		{
			b->failed = true;
			return NULL;
		}
		b->data = data;
		b->capacity = capacity;
	}
	uint8_t* p = b->data + b->size;
	b->size += n;
	return p;
}

static void cnBytes_U32( cnBytes* b, uint32_t v )
{
	uint8_t* p = cnBytes_Grow( b, 4 );
	if ( p != NULL )
	{
		cnPutU32( p, v );
	}
}

static void cnBytes_F64( cnBytes* b, double v )
{
	uint8_t* p = cnBytes_Grow( b, 8 );
	if ( p != NULL )
	{
		cnPutF64( p, v );
	}
}

static void cnBytes_F32( cnBytes* b, float v )
{
	uint8_t* p = cnBytes_Grow( b, 4 );
	if ( p != NULL )
	{
		cnPutF32( p, v );
	}
}

static void cnBytes_String( cnBytes* b, const char* s )
{
	size_t length = s != NULL ? strlen( s ) : 0;
	cnBytes_U32( b, (uint32_t)length );
	uint8_t* p = cnBytes_Grow( b, length );
	if ( p != NULL && length > 0 )
	{
		memcpy( p, s, length );
	}
}

// ---------------------------------------------------------------------------------------------
// writer

struct cnRecorder
{
	FILE* file;
	char* path;
	char* tempPath;
	// only compared, never dereferenced: frames must come from the world the header describes
	const cnWorld* world;
	cnBodyId* bodies;
	int bodyCount;
	int frameCount;
	uint8_t* frame;
	size_t frameBytes;
	char error[256];
};

// Keeps only the size fields of the shape's type and zeroes the others, whatever the def held
// for them, so every written field is meaningful and finite (the reader checks them all).
static cnShapeDef cnShapeDefForRecording( cnShapeDef def )
{
	cnShapeDef out = def;
	out.radius = 0.0;
	out.halfExtents = cnVec3_zero;
	out.halfHeight = 0.0;
	out.normal = cnVec3_zero;
	out.offset = 0.0;
	out.vertexCount = 0;
	out.vertices = NULL;
	switch ( def.type )
	{
		case cnShape_sphere:
			out.radius = def.radius;
			break;
		case cnShape_box:
			out.halfExtents = def.halfExtents;
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			out.radius = def.radius;
			out.halfHeight = def.halfHeight;
			break;
		case cnShape_plane:
			out.normal = def.normal;
			out.offset = def.offset;
			break;
		case cnShape_polygon:
			out.radius = def.radius;
			out.vertexCount = def.vertexCount;
			out.vertices = def.vertices;
			break;
		default:
			break;
	}
	return out;
}

// Colours are display values; the library does not restrict them, the format does: [0, 1].
static float cnClampColor( float c )
{
	return c >= 0.0f ? ( c <= 1.0f ? c : 1.0f ) : 0.0f;
}

static void cnRecorder_Free( cnRecorder* r )
{
	free( r->path );
	free( r->tempPath );
	free( r->bodies );
	free( r->frame );
	free( r );
}

cnRecorder* cnRecorder_Create( const char* path, const cnWorld* world, const char* sceneName, double fps, char* error,
							   int errorCapacity )
{
	if ( path == NULL || path[0] == 0 || world == NULL )
	{
		cnFormatError( error, errorCapacity, "recording: no file name or no world given" );
		return NULL;
	}
	if ( !( fps > 0.0 ) || !isfinite( fps ) )
	{
		cnFormatError( error, errorCapacity, "%s: recording fps must be a finite number > 0 (got %g)", path, fps );
		return NULL;
	}
	if ( sceneName == NULL )
	{
		sceneName = "";
	}

	cnRecorder* r = calloc( 1, sizeof( cnRecorder ) );
	if ( r == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: out of memory", path );
		return NULL;
	}
	size_t pathLength = strlen( path );
	r->path = cnDuplicateString( path, pathLength );
	r->tempPath = malloc( pathLength + 5 );
	r->world = world;
	r->bodyCount = cnWorld_GetBodyCount( world );
	r->bodies = malloc( sizeof( cnBodyId ) * (size_t)( r->bodyCount > 0 ? r->bodyCount : 1 ) );
	r->frameBytes = 8 + (size_t)cn_recBodyFrameBytes * (size_t)r->bodyCount;
	r->frame = malloc( r->frameBytes );
	if ( r->path == NULL || r->tempPath == NULL || r->bodies == NULL || r->frame == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: out of memory", path );
		cnRecorder_Free( r );
		return NULL;
	}
	memcpy( r->tempPath, path, pathLength );
	memcpy( r->tempPath + pathLength, ".tmp", 5 );

	// assemble the whole header in memory, so the header size field is known before writing
	cnBytes b = { 0 };
	uint8_t* fixed = cnBytes_Grow( &b, cn_recSceneNameOffset );
	if ( fixed != NULL )
	{
		memset( fixed, 0, cn_recSceneNameOffset );
		memcpy( fixed + cn_recMagicOffset, CN_RECORDING_MAGIC, 8 );
		// the version is patched below, once it is known whether a polygon needs version 2
		cnPutU32( fixed + cn_recVersionOffset, CN_RECORDING_VERSION );
		cnPutU32( fixed + cn_recBodyCountOffset, (uint32_t)r->bodyCount );
		// the frame count is patched by cnRecorder_Finish
		cnPutU32( fixed + cn_recFrameCountOffset, 0 );
		cnPutF64( fixed + cn_recFpsOffset, fps );
	}
	cnBytes_String( &b, sceneName );

	enum
	{
		shapeCapacity = 64
	};
	cnShapeId shapes[shapeCapacity];
	// the file is version 1 unless a polygon needs version 2, so older readers keep reading it
	uint32_t version = 1;
	int badPolygonBody = -1;
	for ( int i = 0; i < r->bodyCount && badPolygonBody < 0; ++i )
	{
		cnBodyId id = cnWorld_GetBody( world, i );
		r->bodies[i] = id;
		cnBytes_String( &b, cnBody_GetName( world, id ) );
		cnBytes_U32( &b, (uint32_t)cnBody_GetType( world, id ) );
		int shapeCount = cnBody_GetShapeCount( world, id );
		cnShapeId* list = shapes;
		if ( shapeCount > shapeCapacity )
		{
			list = malloc( sizeof( cnShapeId ) * (size_t)shapeCount );
			if ( list == NULL )
			{
				b.failed = true;
				break;
			}
		}
		shapeCount = cnBody_GetShapes( world, id, list, shapeCount );
		cnBytes_U32( &b, (uint32_t)shapeCount );
		for ( int j = 0; j < shapeCount; ++j )
		{
			cnShapeDef def = cnShapeDefForRecording( cnShape_GetDef( world, list[j] ) );
			cnMaterialDef material = cnWorld_GetMaterial( world, def.material );
			cnBytes_U32( &b, (uint32_t)def.type );
			cnBytes_F64( &b, def.radius );
			cnBytes_F64( &b, def.halfExtents.x );
			cnBytes_F64( &b, def.halfExtents.y );
			cnBytes_F64( &b, def.halfExtents.z );
			cnBytes_F64( &b, def.halfHeight );
			cnBytes_F64( &b, def.normal.x );
			cnBytes_F64( &b, def.normal.y );
			cnBytes_F64( &b, def.normal.z );
			cnBytes_F64( &b, def.offset );
			cnBytes_F64( &b, def.position.x );
			cnBytes_F64( &b, def.position.y );
			cnBytes_F64( &b, def.position.z );
			cnBytes_F64( &b, def.orientation.w );
			cnBytes_F64( &b, def.orientation.x );
			cnBytes_F64( &b, def.orientation.y );
			cnBytes_F64( &b, def.orientation.z );
			cnBytes_F32( &b, cnClampColor( material.color[0] ) );
			cnBytes_F32( &b, cnClampColor( material.color[1] ) );
			cnBytes_F32( &b, cnClampColor( material.color[2] ) );
			if ( def.type == cnShape_polygon )
			{
				// the library never holds a polygon outside these bounds; a def that did would make a
				// file the reader rejects, so refuse it here instead
				if ( def.vertexCount < 2 || def.vertexCount > CN_RECORDING_MAX_POLYGON_VERTICES ||
					 def.vertices == NULL )
				{
					cnFormatError( error, errorCapacity,
								   "%s: body %d has a polygon with %d vertices (allowed: 2 to %d)", path, i,
								   def.vertexCount, CN_RECORDING_MAX_POLYGON_VERTICES );
					badPolygonBody = i;
					break;
				}
				version = CN_RECORDING_VERSION_POLYGON;
				cnBytes_U32( &b, (uint32_t)def.vertexCount );
				for ( int k = 0; k < def.vertexCount; ++k )
				{
					cnBytes_F64( &b, def.vertices[k].x );
					cnBytes_F64( &b, def.vertices[k].y );
					cnBytes_F64( &b, def.vertices[k].z );
				}
			}
		}
		if ( list != shapes )
		{
			free( list );
		}
	}
	if ( badPolygonBody >= 0 || b.failed || b.size > UINT32_MAX )
	{
		if ( badPolygonBody < 0 )
		{
			cnFormatError( error, errorCapacity, "%s: out of memory while describing the bodies", path );
		}
		free( b.data );
		cnRecorder_Free( r );
		return NULL;
	}
	cnPutU32( b.data + cn_recVersionOffset, version );
	cnPutU32( b.data + cn_recHeaderSizeOffset, (uint32_t)b.size );

	r->file = fopen( r->tempPath, "wb" );
	if ( r->file == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: cannot write: %s", r->tempPath, strerror( errno ) );
		free( b.data );
		cnRecorder_Free( r );
		return NULL;
	}
	size_t written = fwrite( b.data, 1, b.size, r->file );
	free( b.data );
	if ( written != b.size )
	{
		cnFormatError( error, errorCapacity, "%s: write failed", r->tempPath );
		cnRecorder_Abort( r );
		return NULL;
	}
	return r;
}

bool cnRecorder_AddFrame( cnRecorder* recorder, const cnWorld* world )
{
	if ( recorder == NULL )
	{
		return false;
	}
	if ( recorder->error[0] != 0 )
	{
		return false;
	}
	if ( world != recorder->world )
	{
		snprintf( recorder->error, sizeof( recorder->error ), "%s: frame from a different world than the recording's",
				  recorder->path );
		return false;
	}
	if ( recorder->frameCount == INT32_MAX )
	{
		snprintf( recorder->error, sizeof( recorder->error ), "%s: too many frames", recorder->path );
		return false;
	}

	uint8_t* p = recorder->frame;
	cnPutF64( p, cnWorld_GetTime( world ) );
	p += 8;
	for ( int i = 0; i < recorder->bodyCount; ++i )
	{
		cnBodyId id = recorder->bodies[i];
		if ( cnBody_IsValid( world, id ) == false )
		{
			snprintf( recorder->error, sizeof( recorder->error ), "%s: recorded body %d was destroyed", recorder->path,
					  i );
			return false;
		}
		cnTransform t = cnBody_GetTransform( world, id );
		double values[7] = { t.p.x, t.p.y, t.p.z, t.q.w, t.q.x, t.q.y, t.q.z };
		for ( int k = 0; k < 7; ++k )
		{
			cnPutF64( p, values[k] );
			p += 8;
		}
	}
	if ( fwrite( recorder->frame, 1, recorder->frameBytes, recorder->file ) != recorder->frameBytes )
	{
		snprintf( recorder->error, sizeof( recorder->error ), "%s: write failed", recorder->tempPath );
		return false;
	}
	recorder->frameCount += 1;
	return true;
}

int cnRecorder_GetFrameCount( const cnRecorder* recorder )
{
	return recorder != NULL ? recorder->frameCount : 0;
}

const char* cnRecorder_GetError( const cnRecorder* recorder )
{
	return recorder != NULL ? recorder->error : "";
}

bool cnRecorder_Finish( cnRecorder* recorder, char* error, int errorCapacity )
{
	if ( recorder == NULL )
	{
		cnFormatError( error, errorCapacity, "recording: no recorder" );
		return false;
	}
	if ( recorder->error[0] != 0 )
	{
		cnFormatError( error, errorCapacity, "%s", recorder->error );
		cnRecorder_Abort( recorder );
		return false;
	}

	uint8_t count[4];
	cnPutU32( count, (uint32_t)recorder->frameCount );
	bool ok = fseek( recorder->file, cn_recFrameCountOffset, SEEK_SET ) == 0;
	ok = ok && fwrite( count, 1, 4, recorder->file ) == 4;
	ok = ok && fflush( recorder->file ) == 0 && ferror( recorder->file ) == 0;
	// fclose can report a delayed write error (full disk), so its result counts too
	int closed = fclose( recorder->file );
	recorder->file = NULL;
	if ( ok == false || closed != 0 )
	{
		cnFormatError( error, errorCapacity, "%s: write failed", recorder->tempPath );
		cnRecorder_Abort( recorder );
		return false;
	}

	if ( rename( recorder->tempPath, recorder->path ) != 0 )
	{
		// some systems do not replace an existing file on rename
		remove( recorder->path );
		if ( rename( recorder->tempPath, recorder->path ) != 0 )
		{
			cnFormatError( error, errorCapacity, "%s: cannot rename %s to it: %s", recorder->path,
						   recorder->tempPath, strerror( errno ) );
			cnRecorder_Abort( recorder );
			return false;
		}
	}
	cnRecorder_Free( recorder );
	return true;
}

void cnRecorder_Abort( cnRecorder* recorder )
{
	if ( recorder == NULL )
	{
		return;
	}
	if ( recorder->file != NULL )
	{
		fclose( recorder->file );
	}
	remove( recorder->tempPath );
	cnRecorder_Free( recorder );
}

// ---------------------------------------------------------------------------------------------
// reader

typedef struct cnRecordedBody
{
	char* name;
	cnBodyType type;
	int firstShape;
	int shapeCount;
} cnRecordedBody;

struct cnRecording
{
	int version;
	char* sceneName;
	double fps;
	int frameCount;
	int bodyCount;
	cnRecordedBody* bodies;
	cnRecordedShape* shapes;
	int shapeCount;
	// the vertices of every polygon, in shape order; each polygon shape points into this array
	cnVec3* vertices;
	size_t vertexCount;
	double* times;
	// frameCount * bodyCount transforms, frame major
	cnTransform* transforms;
};

// A bounds-checked cursor over the file's bytes.
typedef struct cnReader
{
	const uint8_t* data;
	size_t size;
	size_t position;
} cnReader;

static const uint8_t* cnReader_Take( cnReader* r, size_t n )
{
	if ( n > r->size - r->position )
	{
		return NULL;
	}
	const uint8_t* p = r->data + r->position;
	r->position += n;
	return p;
}

static bool cnReadFile( const char* path, uint8_t** data, size_t* size, char* error, int errorCapacity )
{
	FILE* file = fopen( path, "rb" );
	if ( file == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: cannot open: %s", path, strerror( errno ) );
		return false;
	}
	size_t capacity = 1 << 16, used = 0;
	uint8_t* buffer = malloc( capacity );
	while ( buffer != NULL )
	{
		if ( used == capacity )
		{
			uint8_t* bigger = capacity < SIZE_MAX / 2 ? realloc( buffer, capacity * 2 ) : NULL;
			if ( bigger == NULL )
			{
				free( buffer );
				buffer = NULL;
				break;
			}
			buffer = bigger;
			capacity *= 2;
		}
		size_t n = fread( buffer + used, 1, capacity - used, file );
		used += n;
		if ( n == 0 )
		{
			break;
		}
	}
	bool readError = ferror( file ) != 0;
	fclose( file );
	if ( buffer == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: out of memory", path );
		return false;
	}
	if ( readError )
	{
		free( buffer );
		cnFormatError( error, errorCapacity, "%s: read error", path );
		return false;
	}
	*data = buffer;
	*size = used;
	return true;
}

static bool cnIsUnitQuatLike( double w, double x, double y, double z )
{
	// transforms written by the library are unit quaternions up to round-off; this wide band
	// accepts any of them and still rejects zeros and the huge values of a flipped exponent bit
	double n = w * w + x * x + y * y + z * z;
	return n > 0.5 && n < 2.0;
}

// Reads one shape record of a file of the given version; returns a reason when it is invalid, NULL
// when it is fine. A polygon's vertex list, which follows the record, is read by the caller.
static const char* cnReadShape( const uint8_t* p, uint32_t version, cnRecordedShape* s )
{
	uint32_t type = cnGetU32( p );
	p += 4;
	double v[16];
	for ( int k = 0; k < 16; ++k )
	{
		v[k] = cnGetF64( p );
		p += 8;
		if ( !isfinite( v[k] ) )
		{
			return "has a non-finite number";
		}
	}
	for ( int k = 0; k < 3; ++k )
	{
		s->color[k] = cnGetF32( p );
		p += 4;
		if ( !( s->color[k] >= 0.0f && s->color[k] <= 1.0f ) )
		{
			return "has a colour outside [0, 1]";
		}
	}
	if ( type >= (uint32_t)cnShape_count )
	{
		return "has an unknown shape type";
	}
	if ( type == (uint32_t)cnShape_polygon && version < CN_RECORDING_VERSION_POLYGON )
	{
		return "is a polygon, which this format version cannot hold";
	}
	s->type = (cnShapeType)type;
	s->vertexCount = 0;
	s->vertices = NULL;
	s->radius = v[0];
	s->halfExtents = cnV3( v[1], v[2], v[3] );
	s->halfHeight = v[4];
	s->normal = cnV3( v[5], v[6], v[7] );
	s->offset = v[8];
	s->localPose.p = cnV3( v[9], v[10], v[11] );
	s->localPose.q = ( cnQuat ){ v[12], v[13], v[14], v[15] };
	if ( !cnIsUnitQuatLike( v[12], v[13], v[14], v[15] ) )
	{
		return "has an orientation that is not a unit quaternion";
	}

	// the size fields of the type must describe a real shape, as the library requires
	switch ( s->type )
	{
		case cnShape_sphere:
			return s->radius > 0.0 ? NULL : "is a sphere of radius <= 0";
		case cnShape_box:
			return s->halfExtents.x > 0.0 && s->halfExtents.y > 0.0 && s->halfExtents.z > 0.0
					   ? NULL
					   : "is a box with a half extent <= 0";
		case cnShape_capsule:
		case cnShape_cylinder:
			return s->radius > 0.0 && s->halfHeight >= 0.0 ? NULL : "has a radius <= 0 or a half height < 0";
		case cnShape_plane:
			return cnLengthSquared( s->normal ) > 0.5 ? NULL : "is a plane without a unit normal";
		case cnShape_polygon:
			return s->radius > 0.0 ? NULL : "is a polygon of edge radius <= 0";
		default:
			return "has an unknown shape type";
	}
}

// Reads the vertex list that follows a polygon's shape record into rec->vertices and sets the
// shape's vertex count. Returns false with a message "truncated: ..." or "corrupt: ..." in reason
// when the list is invalid.
static bool cnReadPolygonVertices( cnReader* r, cnRecording* rec, size_t* vertexCapacity, cnRecordedShape* shape,
								   char* reason, size_t reasonCapacity )
{
	const uint8_t* p = cnReader_Take( r, cn_recVertexCountBytes );
	if ( p == NULL )
	{
		snprintf( reason, reasonCapacity, "truncated: the file ends before the polygon's vertex count" );
		return false;
	}
	uint32_t n = cnGetU32( p );
	if ( n < 2 || n > CN_RECORDING_MAX_POLYGON_VERTICES )
	{
		snprintf( reason, reasonCapacity, "corrupt: the polygon has %u vertices (allowed: 2 to %d)", n,
				  CN_RECORDING_MAX_POLYGON_VERTICES );
		return false;
	}
	// checked before allocating: the count cannot ask for more memory than the file holds
	const uint8_t* list = cnReader_Take( r, (size_t)n * cn_recVertexBytes );
	if ( list == NULL )
	{
		snprintf( reason, reasonCapacity, "truncated: the file ends inside the polygon's %u vertices", n );
		return false;
	}
	if ( rec->vertexCount + n > *vertexCapacity )
	{
		size_t capacity = *vertexCapacity < 64 ? 64 : *vertexCapacity;
		while ( capacity < rec->vertexCount + n )
		{
			capacity *= 2;
		}
		cnVec3* vertices = realloc( rec->vertices, sizeof( cnVec3 ) * capacity );
		if ( vertices == NULL )
		{
			snprintf( reason, reasonCapacity, "out of memory" );
			return false;
		}
		rec->vertices = vertices;
		*vertexCapacity = capacity;
	}
	for ( uint32_t k = 0; k < n; ++k )
	{
		cnVec3 v = cnV3( cnGetF64( list ), cnGetF64( list + 8 ), cnGetF64( list + 16 ) );
		list += cn_recVertexBytes;
		// the library keeps polygons in the shape's xy-plane
		if ( !isfinite( v.x ) || !isfinite( v.y ) || v.z != 0.0 )
		{
			snprintf( reason, reasonCapacity, "corrupt: polygon vertex %u is (%g, %g, %g), not finite with z = 0", k,
					  v.x, v.y, v.z );
			return false;
		}
		rec->vertices[rec->vertexCount + k] = v;
	}
	rec->vertexCount += n;
	shape->vertexCount = (int)n;
	return true;
}

static bool cnParseRecording( cnRecording* rec, const uint8_t* data, size_t size, const char* path, char* error,
							  int errorCapacity )
{
	cnReader r = { data, size, 0 };

	if ( size < 8 || memcmp( data, CN_RECORDING_MAGIC, 8 ) != 0 )
	{
		cnFormatError( error, errorCapacity, "%s: not a Cairn recording (the file does not start with \"%s\")", path,
					   CN_RECORDING_MAGIC );
		return false;
	}
	const uint8_t* fixed = cnReader_Take( &r, cn_recSceneNameOffset );
	if ( fixed == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: truncated: the file ends inside the %d-byte header (%zu bytes)", path,
					   cn_recSceneNameOffset, size );
		return false;
	}
	uint32_t version = cnGetU32( fixed + cn_recVersionOffset );
	if ( version == 0 || version > CN_RECORDING_VERSION )
	{
		cnFormatError( error, errorCapacity,
					   "%s: unsupported recording format version %u (this build of Cairn reads version %d)", path,
					   version, CN_RECORDING_VERSION );
		return false;
	}
	rec->version = (int)version;
	uint32_t bodyCount = cnGetU32( fixed + cn_recBodyCountOffset );
	uint32_t frameCount = cnGetU32( fixed + cn_recFrameCountOffset );
	uint32_t headerSize = cnGetU32( fixed + cn_recHeaderSizeOffset );
	rec->fps = cnGetF64( fixed + cn_recFpsOffset );
	if ( !( rec->fps > 0.0 ) || !isfinite( rec->fps ) )
	{
		cnFormatError( error, errorCapacity, "%s: corrupt: fps %g is not a finite number > 0", path, rec->fps );
		return false;
	}
	if ( bodyCount > INT32_MAX || frameCount > INT32_MAX )
	{
		cnFormatError( error, errorCapacity, "%s: corrupt: %u bodies, %u frames", path, bodyCount, frameCount );
		return false;
	}

	// scene name
	const uint8_t* p = cnReader_Take( &r, 4 );
	uint32_t nameLength = p != NULL ? cnGetU32( p ) : 0;
	const uint8_t* name = p != NULL ? cnReader_Take( &r, nameLength ) : NULL;
	if ( name == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: truncated: the file ends inside the scene name", path );
		return false;
	}
	rec->sceneName = cnDuplicateString( (const char*)name, nameLength );

	// bodies: every body record takes at least cn_recMinBodyBytes, which bounds the allocation
	// by the file size whatever the count field says
	if ( bodyCount > ( size - r.position ) / cn_recMinBodyBytes )
	{
		cnFormatError( error, errorCapacity, "%s: truncated: the header declares %u bodies but the file is too short",
					   path, bodyCount );
		return false;
	}
	rec->bodyCount = (int)bodyCount;
	rec->bodies = calloc( bodyCount > 0 ? bodyCount : 1, sizeof( cnRecordedBody ) );
	if ( rec->sceneName == NULL || rec->bodies == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: out of memory", path );
		return false;
	}
	int shapeCapacity = 0;
	size_t vertexCapacity = 0;
	for ( uint32_t i = 0; i < bodyCount; ++i )
	{
		cnRecordedBody* body = rec->bodies + i;
		p = cnReader_Take( &r, 4 );
		nameLength = p != NULL ? cnGetU32( p ) : 0;
		name = p != NULL ? cnReader_Take( &r, nameLength ) : NULL;
		const uint8_t* counts = name != NULL ? cnReader_Take( &r, 8 ) : NULL;
		if ( counts == NULL )
		{
			cnFormatError( error, errorCapacity, "%s: truncated: the file ends inside body %u of %u", path, i,
						   bodyCount );
			return false;
		}
		body->name = cnDuplicateString( (const char*)name, nameLength );
		if ( body->name == NULL )
		{
			cnFormatError( error, errorCapacity, "%s: out of memory", path );
			return false;
		}
		uint32_t type = cnGetU32( counts );
		uint32_t shapeCount = cnGetU32( counts + 4 );
		if ( type > (uint32_t)cnBody_dynamic )
		{
			cnFormatError( error, errorCapacity, "%s: corrupt: body %u (\"%s\") has unknown type %u", path, i,
						   body->name, type );
			return false;
		}
		body->type = (cnBodyType)type;
		if ( shapeCount > ( size - r.position ) / cn_recShapeBytes )
		{
			cnFormatError( error, errorCapacity, "%s: truncated: the file ends inside the shapes of body %u (\"%s\")",
						   path, i, body->name );
			return false;
		}
		if ( (int64_t)rec->shapeCount + shapeCount > INT32_MAX )
		{
			cnFormatError( error, errorCapacity, "%s: corrupt: too many shapes", path );
			return false;
		}
		body->firstShape = rec->shapeCount;
		body->shapeCount = (int)shapeCount;
		if ( rec->shapeCount + (int)shapeCount > shapeCapacity )
		{
			int capacity = shapeCapacity < 16 ? 16 : shapeCapacity;
			while ( capacity < rec->shapeCount + (int)shapeCount )
			{
				capacity = capacity > INT32_MAX / 2 ? INT32_MAX : capacity * 2;
			}
			cnRecordedShape* shapes = realloc( rec->shapes, sizeof( cnRecordedShape ) * (size_t)capacity );
			if ( shapes == NULL )
			{
				cnFormatError( error, errorCapacity, "%s: out of memory", path );
				return false;
			}
			rec->shapes = shapes;
			shapeCapacity = capacity;
		}
		for ( uint32_t j = 0; j < shapeCount; ++j )
		{
			// the count check above reserved cn_recShapeBytes per shape, but polygon vertex lists
			// between the records take bytes too, so a record can still run past the end
			const uint8_t* record = cnReader_Take( &r, cn_recShapeBytes );
			if ( record == NULL )
			{
				cnFormatError( error, errorCapacity, "%s: truncated: the file ends inside shape %u of body %u (\"%s\")",
							   path, j, i, body->name );
				return false;
			}
			cnRecordedShape* shape = rec->shapes + rec->shapeCount;
			const char* reason = cnReadShape( record, version, shape );
			if ( reason != NULL )
			{
				cnFormatError( error, errorCapacity, "%s: corrupt: shape %u of body %u (\"%s\") %s", path, j, i,
							   body->name, reason );
				return false;
			}
			char polygonError[160];
			if ( shape->type == cnShape_polygon &&
				 cnReadPolygonVertices( &r, rec, &vertexCapacity, shape, polygonError, sizeof( polygonError ) ) ==
					 false )
			{
				cnFormatError( error, errorCapacity, "%s: %s (shape %u of body %u, \"%s\")", path, polygonError, j, i,
							   body->name );
				return false;
			}
			rec->shapeCount += 1;
		}
	}
	// the vertex array no longer moves: point every polygon at its vertices, stored in shape order
	size_t nextVertex = 0;
	for ( int k = 0; k < rec->shapeCount; ++k )
	{
		if ( rec->shapes[k].type == cnShape_polygon )
		{
			rec->shapes[k].vertices = rec->vertices + nextVertex;
			nextVertex += (size_t)rec->shapes[k].vertexCount;
		}
	}
	if ( r.position != headerSize )
	{
		cnFormatError( error, errorCapacity,
					   "%s: corrupt: the body descriptions end at byte %zu but the header says frames start at %u", path,
					   r.position, headerSize );
		return false;
	}

	// frames: the size must match the frame count exactly
	size_t frameBytes = 8 + (size_t)cn_recBodyFrameBytes * bodyCount;
	size_t available = size - r.position;
	if ( frameCount > available / frameBytes )
	{
		cnFormatError( error, errorCapacity,
					   "%s: truncated: the header declares %u frames of %zu bytes but the file holds %zu bytes of "
					   "frames (%zu whole frames)",
					   path, frameCount, frameBytes, available, available / frameBytes );
		return false;
	}
	if ( available != frameCount * frameBytes )
	{
		cnFormatError( error, errorCapacity, "%s: corrupt: %zu unexpected bytes after frame %u, the last one", path,
					   available - frameCount * frameBytes, frameCount );
		return false;
	}
	rec->frameCount = (int)frameCount;
	rec->times = malloc( sizeof( double ) * ( frameCount > 0 ? frameCount : 1 ) );
	rec->transforms = malloc( sizeof( cnTransform ) * ( (size_t)frameCount * bodyCount > 0 ? (size_t)frameCount * bodyCount : 1 ) );
	if ( rec->times == NULL || rec->transforms == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: out of memory", path );
		return false;
	}
	for ( uint32_t f = 0; f < frameCount; ++f )
	{
		const uint8_t* frame = cnReader_Take( &r, frameBytes );
		double time = cnGetF64( frame );
		if ( !isfinite( time ) || ( f > 0 && time < rec->times[f - 1] ) )
		{
			cnFormatError( error, errorCapacity, "%s: corrupt: frame %u has time %g (not finite or going backwards)",
						   path, f, time );
			return false;
		}
		rec->times[f] = time;
		frame += 8;
		for ( uint32_t i = 0; i < bodyCount; ++i )
		{
			double v[7];
			bool finite = true;
			for ( int k = 0; k < 7; ++k )
			{
				v[k] = cnGetF64( frame );
				frame += 8;
				finite = finite && isfinite( v[k] );
			}
			if ( finite == false || !cnIsUnitQuatLike( v[3], v[4], v[5], v[6] ) )
			{
				cnFormatError( error, errorCapacity,
							   "%s: corrupt: frame %u, body %u (\"%s\"): position not finite or orientation not a "
							   "unit quaternion",
							   path, f, i, rec->bodies[i].name );
				return false;
			}
			cnTransform* t = rec->transforms + (size_t)f * bodyCount + i;
			t->p = cnV3( v[0], v[1], v[2] );
			t->q = ( cnQuat ){ v[3], v[4], v[5], v[6] };
		}
	}
	return true;
}

bool cnIsRecordingFile( const char* path )
{
	FILE* file = path != NULL ? fopen( path, "rb" ) : NULL;
	if ( file == NULL )
	{
		return false;
	}
	char magic[8];
	bool match = fread( magic, 1, 8, file ) == 8 && memcmp( magic, CN_RECORDING_MAGIC, 8 ) == 0;
	fclose( file );
	return match;
}

cnRecording* cnRecording_Load( const char* path, char* error, int errorCapacity )
{
	if ( path == NULL )
	{
		cnFormatError( error, errorCapacity, "recording: no file name given" );
		return NULL;
	}
	uint8_t* data = NULL;
	size_t size = 0;
	if ( cnReadFile( path, &data, &size, error, errorCapacity ) == false )
	{
		return NULL;
	}
	cnRecording* rec = cnRecording_LoadMemory( data, size, path, error, errorCapacity );
	free( data );
	return rec;
}

cnRecording* cnRecording_LoadMemory( const void* data, size_t size, const char* sourceName, char* error,
									 int errorCapacity )
{
	const char* name = sourceName != NULL ? sourceName : "recording";
	if ( data == NULL && size > 0 )
	{
		cnFormatError( error, errorCapacity, "%s: no data given", name );
		return NULL;
	}
	cnRecording* rec = calloc( 1, sizeof( cnRecording ) );
	if ( rec == NULL )
	{
		cnFormatError( error, errorCapacity, "%s: out of memory", name );
		return NULL;
	}
	if ( cnParseRecording( rec, data, size, name, error, errorCapacity ) == false )
	{
		cnRecording_Free( rec );
		return NULL;
	}
	return rec;
}

void cnRecording_Free( cnRecording* recording )
{
	if ( recording == NULL )
	{
		return;
	}
	for ( int i = 0; recording->bodies != NULL && i < recording->bodyCount; ++i )
	{
		free( recording->bodies[i].name );
	}
	free( recording->bodies );
	free( recording->sceneName );
	free( recording->shapes );
	free( recording->vertices );
	free( recording->times );
	free( recording->transforms );
	free( recording );
}

int cnRecording_GetVersion( const cnRecording* recording )
{
	return recording->version;
}

const char* cnRecording_GetSceneName( const cnRecording* recording )
{
	return recording->sceneName;
}

double cnRecording_GetFps( const cnRecording* recording )
{
	return recording->fps;
}

int cnRecording_GetFrameCount( const cnRecording* recording )
{
	return recording->frameCount;
}

double cnRecording_GetFrameTime( const cnRecording* recording, int frame )
{
	if ( frame < 0 || frame >= recording->frameCount )
	{
		return 0.0;
	}
	return recording->times[frame];
}

int cnRecording_GetBodyCount( const cnRecording* recording )
{
	return recording->bodyCount;
}

const char* cnRecording_GetBodyName( const cnRecording* recording, int body )
{
	if ( body < 0 || body >= recording->bodyCount )
	{
		return "";
	}
	return recording->bodies[body].name;
}

cnBodyType cnRecording_GetBodyType( const cnRecording* recording, int body )
{
	if ( body < 0 || body >= recording->bodyCount )
	{
		return cnBody_static;
	}
	return recording->bodies[body].type;
}

int cnRecording_GetShapeCount( const cnRecording* recording, int body )
{
	if ( body < 0 || body >= recording->bodyCount )
	{
		return 0;
	}
	return recording->bodies[body].shapeCount;
}

cnRecordedShape cnRecording_GetShape( const cnRecording* recording, int body, int shape )
{
	if ( body < 0 || body >= recording->bodyCount || shape < 0 || shape >= recording->bodies[body].shapeCount )
	{
		cnRecordedShape none = { 0 };
		none.type = cnShape_sphere;
		none.localPose = cnTransform_identity;
		return none;
	}
	return recording->shapes[recording->bodies[body].firstShape + shape];
}

cnTransform cnRecording_GetBodyTransform( const cnRecording* recording, int frame, int body )
{
	if ( frame < 0 || frame >= recording->frameCount || body < 0 || body >= recording->bodyCount )
	{
		return cnTransform_identity;
	}
	return recording->transforms[(size_t)frame * (size_t)recording->bodyCount + (size_t)body];
}
