// SPDX-License-Identifier: MIT
// Binary recordings: the writer (cnRecorder), to a file that appears only complete or into memory.
// docs/recording-format.md gives the layout.
#include "io/io_util.h"
#include "io/recording_codec.h"

#include "cairn/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A growable byte buffer: the header is assembled in it before it is written in one go, and a memory
// recording keeps the whole file in it.
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
	// a file recording writes through an output file; a memory recording keeps everything in bytes
	cnOutputFile* file;
	cnBytes bytes;
	// the name messages give: the path, or "recording" in memory
	char* name;
	// only compared, never dereferenced: frames must come from the world the header describes
	const cnWorld* world;
	cnBodyId* bodies;
	int bodyCount;
	int bodyCapacity;
	// version 6 (cnRecorderDef.changingBodies): the format version, whether bodies created later are
	// recorded (every body), how many bodies the frames written so far describe, each recorded body's
	// last pose (written for a destroyed body), and a world body index -> recorded index map (-1: none)
	uint32_t version;
	bool changing;
	bool recordNew;
	int describedCount;
	cnTransform* lastPoses;
	int* recordedOf;
	int recordedOfSize;
	// the recorded joints (version 4), whose state every frame holds
	cnJointId* joints;
	int* jointEnds;
	int jointCount;
	int frameCount;
	uint8_t* frame;
	size_t frameBytes;
	bool failed;
	bool finished;
	// why the first frame that failed did: repeated by later calls
	cnErrorCode failure;
	char failureMessage[512];
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
		case cnShape_hull:
		case cnShape_mesh:
		case cnShape_heightfield:
			// the surface follows the record (cnDescribeSurface)
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
	cnDestroyOutputFile( r->file );
	free( r->bytes.data );
	free( r->name );
	free( r->bodies );
	free( r->lastPoses );
	free( r->recordedOf );
	free( r->joints );
	free( r->jointEnds );
	free( r->frame );
	free( r );
}

cnRecorderDef cnDefaultRecorderDef( void )
{
	cnRecorderDef def = { 0 };
	def.fps = 60.0;
	return def;
}


// What the recorded shapes need of the format: *appearance when a material looks other than the
// defaults (plastic, ior 1.5, no texture: version 3), *surfaces when a shape is a hull, mesh or
// heightfield (version 5).
static void cnScanShapes( const cnRecorder* r, bool* appearance, bool* surfaces )
{
	*appearance = false;
	*surfaces = false;
	for ( int i = 0; i < r->bodyCount; ++i )
	{
		int count = cnBody_GetShapeCount( r->world, r->bodies[i] );
		cnShapeId* shapes = malloc( sizeof( cnShapeId ) * (size_t)( count > 0 ? count : 1 ) );
		count = shapes != NULL ? cnBody_GetShapes( r->world, r->bodies[i], shapes, count ) : 0;
		for ( int j = 0; j < count; ++j )
		{
			cnShapeDef def = cnShape_GetDef( r->world, shapes[j] );
			cnMaterialDef m = cnMaterial_GetDef( r->world, def.material );
			*appearance = *appearance || m.finish != cnFinish_plastic || m.ior != 1.5 ||
						  ( m.texture != NULL && m.texture[0] != 0 );
			*surfaces = *surfaces || def.type == cnShape_hull || def.type == cnShape_mesh ||
						def.type == cnShape_heightfield;
		}
		free( shapes );
	}
}

// Writes the triangulated surface of a hull, mesh or heightfield shape (version 5): the vertex count
// and vertices, then the triangle count and 3 indices per triangle. A heightfield's cells are split
// as the collision splits them (cnHeightfieldQuery): (i, j) (i+1, j) (i+1, j+1) and (i, j) (i+1, j+1)
// (i, j+1).
static void cnDescribeSurface( cnBytes* b, const cnShapeDef* def )
{
	if ( def->type == cnShape_heightfield )
	{
		const cnHeightfield* h = def->heightfield;
		int columns = cnHeightfield_GetColumnCount( h ), rows = cnHeightfield_GetRowCount( h );
		cnVec3 size = cnHeightfield_GetSize( h );
		cnBytes_U32( b, (uint32_t)( columns * rows ) );
		for ( int j = 0; j < rows; ++j )
		{
			for ( int i = 0; i < columns; ++i )
			{
				cnBytes_F64( b, -0.5 * size.x + i * size.x / ( columns - 1 ) );
				cnBytes_F64( b, -0.5 * size.y + j * size.y / ( rows - 1 ) );
				cnBytes_F64( b, cnHeightfield_GetHeight( h, i, j ) );
			}
		}
		cnBytes_U32( b, (uint32_t)( 2 * ( columns - 1 ) * ( rows - 1 ) ) );
		for ( int j = 0; j + 1 < rows; ++j )
		{
			for ( int i = 0; i + 1 < columns; ++i )
			{
				uint32_t v00 = (uint32_t)( j * columns + i ), v10 = v00 + 1, v01 = v00 + (uint32_t)columns, v11 = v01 + 1;
				uint32_t t[6] = { v00, v10, v11, v00, v11, v01 };
				for ( int k = 0; k < 6; ++k )
				{
					cnBytes_U32( b, t[k] );
				}
			}
		}
		return;
	}
	bool hull = def->type == cnShape_hull;
	int vertexCount = hull ? cnHull_GetVertexCount( def->hull ) : cnMesh_GetVertexCount( def->mesh );
	int triangleCount = hull ? cnHull_GetTriangleCount( def->hull ) : cnMesh_GetTriangleCount( def->mesh );
	cnBytes_U32( b, (uint32_t)vertexCount );
	for ( int k = 0; k < vertexCount; ++k )
	{
		cnVec3 v = hull ? cnHull_GetVertex( def->hull, k ) : cnMesh_GetVertex( def->mesh, k );
		cnBytes_F64( b, v.x );
		cnBytes_F64( b, v.y );
		cnBytes_F64( b, v.z );
	}
	cnBytes_U32( b, (uint32_t)triangleCount );
	for ( int k = 0; k < triangleCount; ++k )
	{
		int t[3];
		if ( hull )
		{
			cnHull_GetTriangle( def->hull, k, t );
		}
		else
		{
			cnMesh_GetTriangle( def->mesh, k, t );
		}
		cnBytes_U32( b, (uint32_t)t[0] );
		cnBytes_U32( b, (uint32_t)t[1] );
		cnBytes_U32( b, (uint32_t)t[2] );
	}
}

static bool cnDescribeBody( cnRecorder* r, cnBytes* b, int i );

// Describes the recorded bodies and their shapes into b after the fixed header; returns the format
// version they need (1 unless a polygon needs 2, an appearance 3 or a joint 4), or 0 with the error
// set.
static uint32_t cnDescribeBodies( cnRecorder* r, cnBytes* b )
{
	const char* path = r->name;
	// the file is version 1 unless a polygon needs version 2, an appearance version 3 or a joint
	// version 4, so older readers keep reading it
	bool appearance, surfaces;
	cnScanShapes( r, &appearance, &surfaces );
	uint32_t version = surfaces			  ? CN_RECORDING_VERSION_SURFACES
					   : r->jointCount > 0 ? CN_RECORDING_VERSION_JOINTS
										   : ( appearance ? CN_RECORDING_VERSION_APPEARANCE : 1 );
	if ( r->changing )
	{
		version = CN_RECORDING_VERSION_CHANGING_BODIES;
	}
	r->version = version;
	for ( int i = 0; i < r->bodyCount; ++i )
	{
		if ( cnDescribeBody( r, b, i ) == false )
		{
			return 0;
		}
	}
	if ( b->failed || b->size > UINT32_MAX )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory while describing the bodies", path );
		return 0;
	}
	return r->version;
}

// Describes recorded body i (its name, type and shapes) into b in the layout of r->version, which a
// polygon raises to at least 2; false with the error set.
static bool cnDescribeBody( cnRecorder* r, cnBytes* b, int i )
{
	const cnWorld* world = r->world;
	const char* path = r->name;
	enum
	{
		shapeCapacity = 64
	};
	cnShapeId shapes[shapeCapacity];
	uint32_t version = r->version;
	int badPolygonBody = -1;
	{
		cnBodyId id = r->bodies[i];
		cnBytes_String( b, cnBody_GetName( world, id ) );
		cnBytes_U32( b, (uint32_t)cnBody_GetType( world, id ) );
		int shapeCount = cnBody_GetShapeCount( world, id );
		cnShapeId* list = shapes;
		if ( shapeCount > shapeCapacity )
		{
			list = malloc( sizeof( cnShapeId ) * (size_t)shapeCount );
			if ( list == NULL )
			{
				b->failed = true;
				return cnSetError( cnError_outOfMemory, "%s: out of memory while describing the bodies", path );
			}
		}
		shapeCount = cnBody_GetShapes( world, id, list, shapeCount );
		cnBytes_U32( b, (uint32_t)shapeCount );
		for ( int j = 0; j < shapeCount; ++j )
		{
			cnShapeDef def = cnShapeDefForRecording( cnShape_GetDef( world, list[j] ) );
			cnMaterialDef material = cnMaterial_GetDef( world, def.material );
			cnBytes_U32( b, (uint32_t)def.type );
			cnBytes_F64( b, def.radius );
			cnBytes_F64( b, def.halfExtents.x );
			cnBytes_F64( b, def.halfExtents.y );
			cnBytes_F64( b, def.halfExtents.z );
			cnBytes_F64( b, def.halfHeight );
			cnBytes_F64( b, def.normal.x );
			cnBytes_F64( b, def.normal.y );
			cnBytes_F64( b, def.normal.z );
			cnBytes_F64( b, def.offset );
			cnBytes_F64( b, def.position.x );
			cnBytes_F64( b, def.position.y );
			cnBytes_F64( b, def.position.z );
			cnBytes_F64( b, def.orientation.w );
			cnBytes_F64( b, def.orientation.x );
			cnBytes_F64( b, def.orientation.y );
			cnBytes_F64( b, def.orientation.z );
			cnBytes_F32( b, cnClampColor( material.color[0] ) );
			cnBytes_F32( b, cnClampColor( material.color[1] ) );
			cnBytes_F32( b, cnClampColor( material.color[2] ) );
			if ( version >= CN_RECORDING_VERSION_APPEARANCE )
			{
				const char* texture = material.texture != NULL ? material.texture : "";
				size_t length = strlen( texture );
				cnBytes_U32( b, (uint32_t)material.finish );
				cnBytes_F64( b, material.ior );
				cnBytes_String( b, length <= CN_RECORDING_MAX_TEXTURE ? texture : "" );
			}
			if ( def.type == cnShape_polygon )
			{
				// the library never holds a polygon outside these bounds; a def that did would make a
				// file the reader rejects, so refuse it here instead
				if ( def.vertexCount < 2 || def.vertexCount > CN_RECORDING_MAX_POLYGON_VERTICES ||
					 def.vertices == NULL )
				{
					cnSetError( cnError_invalidArgument, "%s: body %d has a polygon with %d vertices (allowed: 2 to %d)",
								path, i, def.vertexCount, CN_RECORDING_MAX_POLYGON_VERTICES );
					badPolygonBody = i;
					break;
				}
				version = version > CN_RECORDING_VERSION_POLYGON ? version : CN_RECORDING_VERSION_POLYGON;
				cnBytes_U32( b, (uint32_t)def.vertexCount );
				for ( int k = 0; k < def.vertexCount; ++k )
				{
					cnBytes_F64( b, def.vertices[k].x );
					cnBytes_F64( b, def.vertices[k].y );
					cnBytes_F64( b, def.vertices[k].z );
				}
			}
			if ( def.type == cnShape_hull || def.type == cnShape_mesh || def.type == cnShape_heightfield )
			{
				cnDescribeSurface( b, &def );
			}
		}
		if ( list != shapes )
		{
			free( list );
		}
	}
	r->version = version;
	if ( b->failed )
	{
		return cnSetError( cnError_outOfMemory, "%s: out of memory while describing the bodies", path );
	}
	return badPolygonBody < 0;
}

// The recorded end of a joint: the index of its body in the recording, -1 for the fixed world or a
// static body that is not recorded (its anchor is then a fixed world point), -2 for a moving body
// that is not recorded (the joint is left out: no frame would say where its anchor is).
static int cnJointEnd( const cnRecorder* r, const int* recordedIndex, int mapSize, cnBodyId body )
{
	if ( body.index < 0 )
	{
		return -1;
	}
	if ( body.index < mapSize && recordedIndex[body.index] >= 0 )
	{
		return recordedIndex[body.index];
	}
	return cnBody_GetType( r->world, body ) == cnBody_static ? -1 : -2;
}

// Chooses the joints to record: r->joints and the recorded indices of their ends, r->jointEnds (two a
// joint). False with the error set.
static bool cnChooseJoints( cnRecorder* r )
{
	const cnWorld* world = r->world;
	int count = cnWorld_GetJointCount( world );
	// a body's index in the world -> its index in the recording (the first, if it is listed twice)
	int mapSize = 0;
	for ( int i = 0; i < r->bodyCount; ++i )
	{
		mapSize = r->bodies[i].index + 1 > mapSize ? r->bodies[i].index + 1 : mapSize;
	}
	int* recordedIndex = malloc( sizeof( int ) * (size_t)( mapSize > 0 ? mapSize : 1 ) );
	r->joints = malloc( sizeof( cnJointId ) * (size_t)( count > 0 ? count : 1 ) );
	r->jointEnds = malloc( sizeof( int ) * 2 * (size_t)( count > 0 ? count : 1 ) );
	if ( recordedIndex == NULL || r->joints == NULL || r->jointEnds == NULL )
	{
		free( recordedIndex );
		return cnSetError( cnError_outOfMemory, "%s: out of memory", r->name );
	}
	for ( int i = 0; i < mapSize; ++i )
	{
		recordedIndex[i] = -1;
	}
	for ( int i = r->bodyCount - 1; i >= 0; --i )
	{
		recordedIndex[r->bodies[i].index] = i;
	}
	for ( int i = 0; i < count; ++i )
	{
		cnJointId id = cnWorld_GetJoint( world, i );
		int endA = cnJointEnd( r, recordedIndex, mapSize, cnJoint_GetBodyA( world, id ) );
		int endB = cnJointEnd( r, recordedIndex, mapSize, cnJoint_GetBodyB( world, id ) );
		if ( endA >= -1 && endB >= -1 )
		{
			r->joints[r->jointCount] = id;
			r->jointEnds[2 * r->jointCount + 0] = endA;
			r->jointEnds[2 * r->jointCount + 1] = endB;
			r->jointCount += 1;
		}
	}
	free( recordedIndex );
	return true;
}

// Describes the recorded joints into b after the body records (version 4): their count, then per
// joint its name, type, the recorded indices of its bodies and its anchors in their frames now.
// False with the error set.
static bool cnDescribeJoints( cnRecorder* r, cnBytes* b )
{
	const cnWorld* world = r->world;
	cnBytes_U32( b, (uint32_t)r->jointCount );
	for ( int i = 0; i < r->jointCount; ++i )
	{
		cnJointId id = r->joints[i];
		int endA = r->jointEnds[2 * i + 0], endB = r->jointEnds[2 * i + 1];
		// the anchors in the frames of the bodies they belong to, so a reader places them from the
		// bodies' poses at any frame
		cnVec3 anchorA = cnJoint_GetAnchorA( world, id ), anchorB = cnJoint_GetAnchorB( world, id );
		cnVec3 localA = endA >= 0 ? cnInvTransformPoint( cnBody_GetTransform( world, r->bodies[endA] ), anchorA ) : anchorA;
		cnVec3 localB = endB >= 0 ? cnInvTransformPoint( cnBody_GetTransform( world, r->bodies[endB] ), anchorB ) : anchorB;
		if ( cnIsValidVec3( localA ) == false || cnIsValidVec3( localB ) == false )
		{
			return cnSetError( cnError_invalidArgument, "%s: joint %d (\"%s\") has an anchor that is not finite", r->name,
							   i, cnJoint_GetName( world, id ) );
		}
		cnBytes_String( b, cnJoint_GetName( world, id ) );
		cnBytes_U32( b, (uint32_t)cnJoint_GetType( world, id ) );
		cnBytes_U32( b, endA >= 0 ? (uint32_t)endA : CN_REC_WORLD_BODY );
		cnBytes_U32( b, endB >= 0 ? (uint32_t)endB : CN_REC_WORLD_BODY );
		double values[6] = { localA.x, localA.y, localA.z, localB.x, localB.y, localB.z };
		for ( int k = 0; k < 6; ++k )
		{
			cnBytes_F64( b, values[k] );
		}
	}
	if ( b->failed || b->size > UINT32_MAX )
	{
		return cnSetError( cnError_outOfMemory, "%s: out of memory while describing the joints", r->name );
	}
	return true;
}

// Enters recorded bodies from first on into r->recordedOf (world index -> recorded index), growing
// it; false with the error set.
static bool cnMapRecordedBodies( cnRecorder* r, int first )
{
	for ( int i = first; i < r->bodyCount; ++i )
	{
		int index = r->bodies[i].index;
		if ( index >= r->recordedOfSize )
		{
			int size = r->recordedOfSize < 64 ? 64 : r->recordedOfSize;
			while ( size <= index )
			{
				size *= 2;
			}
			int* map = realloc( r->recordedOf, sizeof( int ) * (size_t)size );
			if ( map == NULL )
			{
				return cnSetError( cnError_outOfMemory, "%s: out of memory", r->name );
			}
			for ( int k = r->recordedOfSize; k < size; ++k )
			{
				map[k] = -1;
			}
			r->recordedOf = map;
			r->recordedOfSize = size;
		}
		if ( r->recordedOf[index] < 0 ||
			 r->bodies[r->recordedOf[index]].generation != r->bodies[i].generation )
		{
			r->recordedOf[index] = i;
		}
	}
	return true;
}

// Version 6, recording every body: appends the world's bodies that are not recorded yet (created
// since the last frame) to r->bodies; false with the error set.
static bool cnRecordNewBodies( cnRecorder* r, const cnWorld* world )
{
	int count = cnWorld_GetBodyCount( world );
	for ( int i = 0; i < count; ++i )
	{
		cnBodyId id = cnWorld_GetBody( world, i );
		bool known = id.index < r->recordedOfSize && r->recordedOf[id.index] >= 0 &&
					 r->bodies[r->recordedOf[id.index]].generation == id.generation;
		if ( known )
		{
			continue;
		}
		if ( r->bodyCount == r->bodyCapacity )
		{
			if ( r->bodyCapacity > INT32_MAX / 2 )
			{
				return cnSetError( cnError_outOfMemory, "%s: too many bodies", r->name );
			}
			int capacity = 2 * r->bodyCapacity;
			cnBodyId* bodies = realloc( r->bodies, sizeof( cnBodyId ) * (size_t)capacity );
			if ( bodies != NULL )
			{
				r->bodies = bodies;
			}
			cnTransform* poses = bodies != NULL ? realloc( r->lastPoses, sizeof( cnTransform ) * (size_t)capacity ) : NULL;
			if ( poses == NULL )
			{
				return cnSetError( cnError_outOfMemory, "%s: out of memory", r->name );
			}
			r->lastPoses = poses;
			r->bodyCapacity = capacity;
		}
		r->bodies[r->bodyCount] = id;
		r->lastPoses[r->bodyCount] = cnBody_GetTransform( world, id );
		r->bodyCount += 1;
		if ( cnMapRecordedBodies( r, r->bodyCount - 1 ) == false )
		{
			return false;
		}
	}
	return true;
}

// Version 6: builds frame f into b: the time, the bodies created since the last frame (their count
// and records), then per recorded body its state byte and pose, then the joints' states. False with
// the error set.
static bool cnBuildChangingFrame( cnRecorder* r, const cnWorld* world, cnBytes* b )
{
	b->size = 0;
	cnBytes_F64( b, cnWorld_GetTime( world ) );
	if ( r->recordNew && cnRecordNewBodies( r, world ) == false )
	{
		return false;
	}
	cnBytes_U32( b, (uint32_t)( r->bodyCount - r->describedCount ) );
	for ( int i = r->describedCount; i < r->bodyCount; ++i )
	{
		if ( cnDescribeBody( r, b, i ) == false )
		{
			return false;
		}
	}
	r->describedCount = r->bodyCount;
	for ( int i = 0; i < r->bodyCount; ++i )
	{
		bool present = cnBody_IsValid( world, r->bodies[i] );
		if ( present )
		{
			r->lastPoses[i] = cnBody_GetTransform( world, r->bodies[i] );
		}
		uint8_t* p = cnBytes_Grow( b, 1 );
		if ( p != NULL )
		{
			*p = (uint8_t)( present ? cnRecordedBody_present : cnRecordedBody_destroyed );
		}
		cnTransform t = r->lastPoses[i];
		double values[7] = { t.p.x, t.p.y, t.p.z, t.q.w, t.q.x, t.q.y, t.q.z };
		for ( int k = 0; k < 7; ++k )
		{
			cnBytes_F64( b, values[k] );
		}
	}
	for ( int i = 0; i < r->jointCount; ++i )
	{
		cnJointId id = r->joints[i];
		cnRecordedJointState state = cnJoint_IsValid( world, id ) == false ? cnRecordedJoint_removed
									 : cnJoint_IsBroken( world, id )	   ? cnRecordedJoint_broken
																		   : cnRecordedJoint_acting;
		uint8_t* p = cnBytes_Grow( b, 1 );
		if ( p != NULL )
		{
			*p = (uint8_t)state;
		}
	}
	if ( b->failed )
	{
		return cnSetError( cnError_outOfMemory, "%s: out of memory", r->name );
	}
	return true;
}

cnRecorder* cnCreateRecorder( const cnWorld* world, const cnRecorderDef* def )
{
	if ( world == NULL || def == NULL )
	{
		cnSetError( cnError_invalidArgument, "recording: no world or no def given" );
		return NULL;
	}
	const char* name = def->path != NULL ? def->path : "recording";
	if ( def->path != NULL && def->path[0] == 0 )
	{
		cnSetError( cnError_invalidArgument, "recording: empty file name" );
		return NULL;
	}
	if ( !( def->fps > 0.0 ) || !isfinite( def->fps ) )
	{
		cnSetError( cnError_invalidArgument, "%s: recording fps must be a finite number > 0 (got %g)", name, def->fps );
		return NULL;
	}
	if ( def->bodyCount < 0 || ( def->bodyCount > 0 && def->bodies == NULL ) )
	{
		cnSetError( cnError_invalidArgument, "%s: a body count without bodies", name );
		return NULL;
	}

	cnRecorder* r = calloc( 1, sizeof( cnRecorder ) );
	if ( r == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", name );
		return NULL;
	}
	r->name = cnIoCopyString( name );
	r->world = world;
	r->changing = def->changingBodies;
	r->recordNew = def->changingBodies && def->bodies == NULL;
	r->bodyCount = def->bodies != NULL ? def->bodyCount : cnWorld_GetBodyCount( world );
	r->bodyCapacity = r->bodyCount > 0 ? r->bodyCount : 1;
	r->bodies = calloc( (size_t)r->bodyCapacity, sizeof( cnBodyId ) );
	r->lastPoses = r->changing ? calloc( (size_t)r->bodyCapacity, sizeof( cnTransform ) ) : NULL;
	if ( r->name == NULL || r->bodies == NULL || ( r->changing && r->lastPoses == NULL ) )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", name );
		cnRecorder_Free( r );
		return NULL;
	}
	for ( int i = 0; i < r->bodyCount; ++i )
	{
		r->bodies[i] = def->bodies != NULL ? def->bodies[i] : cnWorld_GetBody( world, i );
		if ( cnBody_IsValid( world, r->bodies[i] ) == false )
		{
			cnSetError( cnError_invalidId, "%s: body %d of the list is not a body of the world", name, i );
			cnRecorder_Free( r );
			return NULL;
		}
	}
	if ( cnChooseJoints( r ) == false || ( r->changing && cnMapRecordedBodies( r, 0 ) == false ) )
	{
		cnRecorder_Free( r );
		return NULL;
	}
	for ( int i = 0; r->changing && i < r->bodyCount; ++i )
	{
		r->lastPoses[i] = cnBody_GetTransform( world, r->bodies[i] );
	}
	r->describedCount = r->bodyCount;
	// a frame: the time, every body's pose, every joint's state
	r->frameBytes = 8 + (size_t)cn_recBodyFrameBytes * (size_t)r->bodyCount +
					(size_t)cn_recJointFrameBytes * (size_t)r->jointCount;
	r->frame = malloc( r->frameBytes );
	if ( r->frame == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", name );
		cnRecorder_Free( r );
		return NULL;
	}

	// assemble the whole header in memory, so the header size field is known before writing
	cnBytes b = { 0 };
	uint8_t* fixed = cnBytes_Grow( &b, cn_recSceneNameOffset );
	if ( fixed != NULL )
	{
		memset( fixed, 0, cn_recSceneNameOffset );
		memcpy( fixed + cn_recMagicOffset, CN_RECORDING_MAGIC, 8 );
		cnPutU32( fixed + cn_recBodyCountOffset, (uint32_t)r->bodyCount );
		// the frame count is patched by cnRecorder_Finish
		cnPutU32( fixed + cn_recFrameCountOffset, 0 );
		cnPutF64( fixed + cn_recFpsOffset, def->fps );
	}
	cnBytes_String( &b, def->sceneName != NULL ? def->sceneName : "" );
	uint32_t version = cnDescribeBodies( r, &b );
	if ( version >= CN_RECORDING_VERSION_JOINTS && cnDescribeJoints( r, &b ) == false )
	{
		version = 0;
	}
	if ( version == 0 )
	{
		free( b.data );
		cnRecorder_Free( r );
		return NULL;
	}
	cnPutU32( b.data + cn_recVersionOffset, version );
	cnPutU32( b.data + cn_recHeaderSizeOffset, (uint32_t)b.size );

	if ( def->path == NULL )
	{
		// a memory recording grows the header's buffer frame by frame
		r->bytes = b;
		cnClearError();
		return r;
	}
	r->file = cnCreateOutputFile( def->path );
	if ( r->file == NULL )
	{
		free( b.data );
		cnRecorder_Free( r );
		return NULL;
	}
	size_t written = fwrite( b.data, 1, b.size, cnOutputFile_GetStream( r->file ) );
	free( b.data );
	if ( written != b.size )
	{
		cnSetError( cnError_io, "%s: write failed", name );
		cnRecorder_Free( r );
		return NULL;
	}
	cnClearError();
	return r;
}

// Marks the recorder failed and records why (kept for later calls); returns false.
static bool cnRecorderFail( cnRecorder* r, cnErrorCode code, const char* what )
{
	r->failed = true;
	r->failure = code;
	snprintf( r->failureMessage, sizeof( r->failureMessage ), "%s: %s", r->name, what );
	return cnSetError( code, "%s", r->failureMessage );
}

bool cnRecorder_AddFrame( cnRecorder* recorder, const cnWorld* world )
{
	if ( recorder == NULL || recorder->finished )
	{
		return cnSetError( cnError_invalidArgument, "recording: no recorder, or it is finished" );
	}
	if ( recorder->failed )
	{
		return cnSetError( recorder->failure, "%s", recorder->failureMessage );
	}
	if ( world != recorder->world )
	{
		return cnRecorderFail( recorder, cnError_invalidArgument, "frame from a different world than the recording's" );
	}
	if ( recorder->frameCount == INT32_MAX )
	{
		return cnRecorderFail( recorder, cnError_invalidArgument, "too many frames" );
	}

	if ( recorder->changing )
	{
		cnBytes frame = { 0 };
		bool built = cnBuildChangingFrame( recorder, world, &frame );
		bool ok = built;
		if ( built && recorder->file != NULL )
		{
			ok = fwrite( frame.data, 1, frame.size, cnOutputFile_GetStream( recorder->file ) ) == frame.size;
		}
		else if ( built )
		{
			uint8_t* q = cnBytes_Grow( &recorder->bytes, frame.size );
			ok = q != NULL;
			if ( q != NULL )
			{
				memcpy( q, frame.data, frame.size );
			}
		}
		free( frame.data );
		if ( built == false )
		{
			char what[400];
			snprintf( what, sizeof( what ), "%s", cnGetError() );
			recorder->failed = true;
			recorder->failure = cnGetErrorCode();
			snprintf( recorder->failureMessage, sizeof( recorder->failureMessage ), "%s", what );
			return false;
		}
		if ( ok == false )
		{
			return cnRecorderFail( recorder, recorder->file != NULL ? cnError_io : cnError_outOfMemory,
								   recorder->file != NULL ? "write failed" : "out of memory" );
		}
		recorder->frameCount += 1;
		return true;
	}

	uint8_t* p = recorder->frame;
	cnPutF64( p, cnWorld_GetTime( world ) );
	p += 8;
	for ( int i = 0; i < recorder->bodyCount; ++i )
	{
		cnBodyId id = recorder->bodies[i];
		if ( cnBody_IsValid( world, id ) == false )
		{
			char what[64];
			snprintf( what, sizeof( what ), "recorded body %d was destroyed", i );
			return cnRecorderFail( recorder, cnError_invalidId, what );
		}
		cnTransform t = cnBody_GetTransform( world, id );
		double values[7] = { t.p.x, t.p.y, t.p.z, t.q.w, t.q.x, t.q.y, t.q.z };
		for ( int k = 0; k < 7; ++k )
		{
			cnPutF64( p, values[k] );
			p += 8;
		}
	}
	for ( int i = 0; i < recorder->jointCount; ++i )
	{
		// a joint destroyed through the API is gone from the picture, as a broken one is
		cnJointId id = recorder->joints[i];
		cnRecordedJointState state = cnJoint_IsValid( world, id ) == false ? cnRecordedJoint_removed
									 : cnJoint_IsBroken( world, id )	   ? cnRecordedJoint_broken
																		   : cnRecordedJoint_acting;
		*p++ = (uint8_t)state;
	}
	if ( recorder->file != NULL )
	{
		if ( fwrite( recorder->frame, 1, recorder->frameBytes, cnOutputFile_GetStream( recorder->file ) ) !=
			 recorder->frameBytes )
		{
			return cnRecorderFail( recorder, cnError_io, "write failed" );
		}
	}
	else
	{
		uint8_t* q = cnBytes_Grow( &recorder->bytes, recorder->frameBytes );
		if ( q == NULL )
		{
			return cnRecorderFail( recorder, cnError_outOfMemory, "out of memory" );
		}
		memcpy( q, recorder->frame, recorder->frameBytes );
	}
	recorder->frameCount += 1;
	return true;
}

int cnRecorder_GetFrameCount( const cnRecorder* recorder )
{
	return recorder != NULL ? recorder->frameCount : 0;
}

bool cnRecorder_Finish( cnRecorder* recorder )
{
	if ( recorder == NULL || recorder->finished )
	{
		return cnSetError( cnError_invalidArgument, "recording: no recorder, or it is finished" );
	}
	if ( recorder->failed )
	{
		return cnSetError( recorder->failure, "%s", recorder->failureMessage );
	}
	uint8_t count[4];
	cnPutU32( count, (uint32_t)recorder->frameCount );
	if ( recorder->file == NULL )
	{
		memcpy( recorder->bytes.data + cn_recFrameCountOffset, count, 4 );
		recorder->finished = true;
		cnClearError();
		return true;
	}
	FILE* stream = cnOutputFile_GetStream( recorder->file );
	bool ok = fseek( stream, cn_recFrameCountOffset, SEEK_SET ) == 0 && fwrite( count, 1, 4, stream ) == 4;
	if ( ok == false )
	{
		return cnRecorderFail( recorder, cnError_io, "write failed" );
	}
	if ( cnOutputFile_Commit( recorder->file ) == false )
	{
		// keep the output file's own message (which names the temporary file or the rename)
		recorder->failed = true;
		recorder->failure = cnGetErrorCode();
		snprintf( recorder->failureMessage, sizeof( recorder->failureMessage ), "%s", cnGetError() );
		return false;
	}
	recorder->finished = true;
	return true;
}

const void* cnRecorder_GetBytes( const cnRecorder* recorder, size_t* size )
{
	if ( recorder == NULL || recorder->file != NULL || recorder->finished == false )
	{
		if ( size != NULL )
		{
			*size = 0;
		}
		return NULL;
	}
	if ( size != NULL )
	{
		*size = recorder->bytes.size;
	}
	return recorder->bytes.data;
}

void cnDestroyRecorder( cnRecorder* recorder )
{
	if ( recorder != NULL )
	{
		cnRecorder_Free( recorder );
	}
}

static bool cnRecorderWriteFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	(void)frame;
	return cnRecorder_AddFrame( context, world );
}

static bool cnRecorderFinish( void* context, bool complete )
{
	// an incomplete run leaves its file to cnDestroyRecorder, which removes it
	return complete ? cnRecorder_Finish( context ) : true;
}

cnFrameWriter cnRecorder_AsFrameWriter( cnRecorder* recorder )
{
	cnFrameWriter w = { cnRecorderWriteFrame, cnRecorderFinish, recorder };
	return w;
}
