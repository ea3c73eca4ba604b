// SPDX-License-Identifier: MIT
// Binary recordings: the validating reader (cnRecording). Every count, size and value is checked
// against the bytes that are really there before it is used, so a truncated, corrupt or hostile
// file gives a message naming what is wrong, never a crash.
#include "io/io_util.h"
#include "io/recording_codec.h"

#include "cairn/recording.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// reader

typedef struct cnRecordedBody
{
	char* name;
	cnBodyType type;
	int firstShape;
	int shapeCount;
	// the first frame the body exists at (version 6: the frame that describes it; else 0)
	int firstFrame;
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
	// the vertices of every polygon and surface, in shape order; each such shape points into this array
	cnVec3* vertices;
	size_t vertexCount;
	// the triangles of every surface (hull, mesh, heightfield: version 5), 3 indices each, in shape order
	int* triangles;
	size_t triangleCount;
	// texture names of the shapes (version 3), one allocation each; NULL entries read as ""
	char** textures;
	// slots of textures (NULL beyond the shapes read): a shape that fails after its appearance leaves
	// its name in the slot past shapeCount
	int textureCapacity;
	double* times;
	// frameCount * bodyCount transforms, frame major; version 6: frame f holds frameBodyCounts[f]
	// transforms from frameOffsets[f] on, with a cnRecordedBodyState each in bodyStates
	cnTransform* transforms;
	int* frameBodyCounts;
	size_t* frameOffsets;
	uint8_t* bodyStates;
	// the joints (version 4) with their names, and frameCount * jointCount states, frame major
	int jointCount;
	cnRecordedJoint* joints;
	char** jointNames;
	uint8_t* jointStates;
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
	bool surface = type == (uint32_t)cnShape_hull || type == (uint32_t)cnShape_mesh || type == (uint32_t)cnShape_heightfield;
	if ( surface && version < CN_RECORDING_VERSION_SURFACES )
	{
		return "is a hull, mesh or heightfield, which this format version cannot hold";
	}
	s->type = (cnShapeType)type;
	s->vertexCount = 0;
	s->vertices = NULL;
	s->triangleCount = 0;
	s->triangles = NULL;
	s->finish = cnFinish_plastic;
	s->ior = 1.5;
	s->texture = "";
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
		case cnShape_hull:
		case cnShape_mesh:
		case cnShape_heightfield:
			// the surface that follows is checked by cnReadSurface
			return NULL;
		default:
			return "has an unknown shape type";
	}
}


// Grows *data (elements of size bytes, *capacity of them) to hold at least needed; false when memory
// ran out (the array is then unchanged).
static bool cnGrowArray( void** data, size_t* capacity, size_t needed, size_t size )
{
	if ( needed <= *capacity )
	{
		return true;
	}
	size_t grown = *capacity < 64 ? 64 : *capacity;
	while ( grown < needed )
	{
		grown *= 2;
	}
	void* moved = realloc( *data, size * grown );
	if ( moved == NULL )
	{
		return false;
	}
	*data = moved;
	*capacity = grown;
	return true;
}

// Reads a vertex list (a u32 count in [lowest, highest], then 3 f64 per vertex) of a polygon
// (planar: z must be 0) or a surface and appends it to rec->vertices, setting shape->vertexCount.
// False with a message "truncated: ..." or "corrupt: ..." in reason when the list is invalid.
static bool cnReadVertices( cnReader* r, cnRecording* rec, size_t* vertexCapacity, cnRecordedShape* shape, bool planar,
							uint32_t lowest, uint32_t highest, char* reason, size_t reasonCapacity )
{
	const char* what = planar ? "polygon" : "surface";
	const uint8_t* p = cnReader_Take( r, cn_recVertexCountBytes );
	if ( p == NULL )
	{
		snprintf( reason, reasonCapacity, "truncated: the file ends before the %s's vertex count", what );
		return false;
	}
	uint32_t n = cnGetU32( p );
	if ( n < lowest || n > highest )
	{
		snprintf( reason, reasonCapacity, "corrupt: the %s has %u vertices (allowed: %u to %u)", what, n, lowest, highest );
		return false;
	}
	// checked before allocating: the count cannot ask for more memory than the file holds
	const uint8_t* list = cnReader_Take( r, (size_t)n * cn_recVertexBytes );
	if ( list == NULL )
	{
		snprintf( reason, reasonCapacity, "truncated: the file ends inside the %s's %u vertices", what, n );
		return false;
	}
	if ( cnGrowArray( (void**)&rec->vertices, vertexCapacity, rec->vertexCount + n, sizeof( cnVec3 ) ) == false )
	{
		snprintf( reason, reasonCapacity, "out of memory" );
		return false;
	}
	for ( uint32_t k = 0; k < n; ++k )
	{
		cnVec3 v = cnV3( cnGetF64( list ), cnGetF64( list + 8 ), cnGetF64( list + 16 ) );
		list += cn_recVertexBytes;
		// the library keeps polygons in the shape's xy-plane
		if ( cnIsValidVec3( v ) == false || ( planar && v.z != 0.0 ) )
		{
			snprintf( reason, reasonCapacity, "corrupt: %s vertex %u is (%g, %g, %g), not finite%s", what, k, v.x, v.y, v.z,
					  planar ? " with z = 0" : "" );
			return false;
		}
		rec->vertices[rec->vertexCount + k] = v;
	}
	rec->vertexCount += n;
	shape->vertexCount = (int)n;
	return true;
}

// Reads the surface that follows a hull, mesh or heightfield record (version 5): its vertices into
// rec->vertices, then its triangles (a u32 count and 3 u32 indices each) into rec->triangles. False
// with "truncated: ..." or "corrupt: ..." in reason when it is invalid.
static bool cnReadSurface( cnReader* r, cnRecording* rec, size_t* vertexCapacity, size_t* triangleCapacity,
						   cnRecordedShape* shape, char* reason, size_t reasonCapacity )
{
	if ( cnReadVertices( r, rec, vertexCapacity, shape, false, 3, CN_RECORDING_MAX_SURFACE_VERTICES, reason,
						 reasonCapacity ) == false )
	{
		return false;
	}
	uint32_t n = (uint32_t)shape->vertexCount;
	const uint8_t* p = cnReader_Take( r, 4 );
	uint32_t m = p != NULL ? cnGetU32( p ) : 0;
	if ( p == NULL || m < 1 || m > CN_RECORDING_MAX_SURFACE_TRIANGLES )
	{
		snprintf( reason, reasonCapacity, p == NULL ? "truncated: the file ends before the surface's triangle count"
													: "corrupt: the surface has %u triangles (allowed: 1 to %d)",
				  m, CN_RECORDING_MAX_SURFACE_TRIANGLES );
		return false;
	}
	const uint8_t* list = cnReader_Take( r, (size_t)m * 12 );
	if ( list == NULL )
	{
		snprintf( reason, reasonCapacity, "truncated: the file ends inside the surface's %u triangles", m );
		return false;
	}
	if ( cnGrowArray( (void**)&rec->triangles, triangleCapacity, rec->triangleCount + m, 3 * sizeof( int ) ) == false )
	{
		snprintf( reason, reasonCapacity, "out of memory" );
		return false;
	}
	for ( uint32_t k = 0; k < 3 * m; ++k )
	{
		uint32_t index = cnGetU32( list + 4 * k );
		if ( index >= n )
		{
			snprintf( reason, reasonCapacity, "corrupt: surface triangle %u has vertex index %u (of %u vertices)", k / 3,
					  index, n );
			return false;
		}
		rec->triangles[3 * rec->triangleCount + k] = (int)index;
	}
	rec->triangleCount += m;
	shape->triangleCount = (int)m;
	return true;
}

// Reads the appearance that follows a shape record in version 3: finish (u32), ior (f64), texture
// (u32 length and bytes). False with the error set when it is truncated or invalid.
static bool cnReadAppearance( cnReader* r, cnRecording* rec, int shapeIndex, cnRecordedShape* shape, const char* path,
							  uint32_t body, uint32_t j, const char* bodyName )
{
	const uint8_t* p = cnReader_Take( r, 4 + 8 + 4 );
	if ( p == NULL )
	{
		return cnSetError( cnError_badInput, "%s: truncated: the file ends inside the appearance of shape %u of body %u (\"%s\")",
						   path, j, body, bodyName );
	}
	uint32_t finish = cnGetU32( p );
	double ior = cnGetF64( p + 4 );
	uint32_t length = cnGetU32( p + 12 );
	if ( finish >= (uint32_t)cnFinish_count || !( ior >= 1.0 ) || !isfinite( ior ) || length > CN_RECORDING_MAX_TEXTURE )
	{
		return cnSetError( cnError_badInput,
						   "%s: corrupt: shape %u of body %u (\"%s\") has finish %u, ior %g or a texture name of %u bytes",
						   path, j, body, bodyName, finish, ior, length );
	}
	const uint8_t* name = cnReader_Take( r, length );
	if ( name == NULL )
	{
		return cnSetError( cnError_badInput, "%s: truncated: the file ends inside the texture name of shape %u of body %u",
						   path, j, body );
	}
	shape->finish = (cnFinish)finish;
	shape->ior = ior;
	if ( length > 0 )
	{
		rec->textures[shapeIndex] = cnIoCopyBytes( (const char*)name, length );
		if ( rec->textures[shapeIndex] == NULL )
		{
			return cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		}
	}
	return true;
}

// Reads the joint section that follows the body records in version 4: the joint count, then per joint
// its name, type, the recorded indices of its two bodies (or the world) and its anchors. False with
// the error set when it is truncated or invalid.
static bool cnReadJoints( cnReader* r, cnRecording* rec, const char* path )
{
	const uint8_t* p = cnReader_Take( r, cn_recJointCountBytes );
	if ( p == NULL )
	{
		return cnSetError( cnError_badInput, "%s: truncated: the file ends before the joint count", path );
	}
	uint32_t count = cnGetU32( p );
	// every joint record takes at least cn_recMinJointBytes, which bounds the allocation by the file
	// size whatever the count says
	if ( count > ( r->size - r->position ) / cn_recMinJointBytes )
	{
		return cnSetError( cnError_badInput, "%s: truncated: the file declares %u joints but is too short for them", path,
						   count );
	}
	rec->joints = calloc( count > 0 ? count : 1, sizeof( cnRecordedJoint ) );
	rec->jointNames = calloc( count > 0 ? count : 1, sizeof( char* ) );
	if ( rec->joints == NULL || rec->jointNames == NULL )
	{
		return cnSetError( cnError_outOfMemory, "%s: out of memory", path );
	}
	rec->jointCount = (int)count;
	for ( uint32_t i = 0; i < count; ++i )
	{
		p = cnReader_Take( r, 4 );
		uint32_t nameLength = p != NULL ? cnGetU32( p ) : 0;
		const uint8_t* name = p != NULL ? cnReader_Take( r, nameLength ) : NULL;
		const uint8_t* fixed = name != NULL ? cnReader_Take( r, cn_recJointFixedBytes ) : NULL;
		if ( fixed == NULL )
		{
			return cnSetError( cnError_badInput, "%s: truncated: the file ends inside joint %u of %u", path, i, count );
		}
		rec->jointNames[i] = cnIoCopyBytes( (const char*)name, nameLength );
		if ( rec->jointNames[i] == NULL )
		{
			return cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		}
		const char* jointName = rec->jointNames[i];
		cnRecordedJoint* joint = rec->joints + i;
		joint->name = jointName;
		uint32_t type = cnGetU32( fixed );
		uint32_t ends[2] = { cnGetU32( fixed + 4 ), cnGetU32( fixed + 8 ) };
		if ( type >= (uint32_t)cnJoint_count )
		{
			return cnSetError( cnError_badInput, "%s: corrupt: joint %u (\"%s\") has unknown type %u", path, i, jointName,
							   type );
		}
		joint->type = (cnJointType)type;
		for ( int k = 0; k < 2; ++k )
		{
			if ( ends[k] != CN_REC_WORLD_BODY && ends[k] >= (uint32_t)rec->bodyCount )
			{
				return cnSetError( cnError_badInput,
								   "%s: corrupt: joint %u (\"%s\") joins body %u, but the recording has %d bodies", path,
								   i, jointName, ends[k], rec->bodyCount );
			}
		}
		joint->bodyA = ends[0] == CN_REC_WORLD_BODY ? -1 : (int)ends[0];
		joint->bodyB = ends[1] == CN_REC_WORLD_BODY ? -1 : (int)ends[1];
		double v[6];
		for ( int k = 0; k < 6; ++k )
		{
			v[k] = cnGetF64( fixed + 12 + 8 * k );
			if ( !isfinite( v[k] ) )
			{
				return cnSetError( cnError_badInput, "%s: corrupt: joint %u (\"%s\") has an anchor that is not finite", path,
								   i, jointName );
			}
		}
		joint->localAnchorA = cnV3( v[0], v[1], v[2] );
		joint->localAnchorB = cnV3( v[3], v[4], v[5] );
	}
	return true;
}

// How far the growing arrays of a recording being read reach.
typedef struct cnReadCapacities
{
	int shapes;
	size_t vertices, triangles;
} cnReadCapacities;

static bool cnKeepCapacities( cnReadCapacities* caps, int shapes, size_t vertices, size_t triangles, bool ok )
{
	caps->shapes = shapes;
	caps->vertices = vertices;
	caps->triangles = triangles;
	return ok;
}

// Reads count body records at the reader's position and appends them to rec->bodies (the header's
// bodies, or in version 6 those a frame describes); false with the error set. The count is checked
// against the bytes left before anything is allocated for it.
static bool cnReadBodies( cnReader* r, cnRecording* rec, uint32_t count, uint32_t version, const char* path,
						  cnReadCapacities* caps )
{
	size_t size = r->size;
	const uint8_t* p;
	uint32_t nameLength;
	const uint8_t* name;
	if ( count > ( size - r->position ) / cn_recMinBodyBytes || (int64_t)rec->bodyCount + count > INT32_MAX )
	{
		cnSetError( cnError_badInput, "%s: truncated: the file declares %u bodies but is too short for them", path, count );
		return false;
	}
	uint32_t first = (uint32_t)rec->bodyCount, total = first + count;
	cnRecordedBody* grown = realloc( rec->bodies, sizeof( cnRecordedBody ) * ( total > 0 ? total : 1 ) );
	if ( grown == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		return false;
	}
	memset( grown + first, 0, sizeof( cnRecordedBody ) * count );
	rec->bodies = grown;
	rec->bodyCount = (int)total;
	int shapeCapacity = caps->shapes;
	size_t vertexCapacity = caps->vertices, triangleCapacity = caps->triangles;
	for ( uint32_t i = first; i < total; ++i )
	{
		cnRecordedBody* body = rec->bodies + i;
		p = cnReader_Take( r, 4 );
		nameLength = p != NULL ? cnGetU32( p ) : 0;
		name = p != NULL ? cnReader_Take( r, nameLength ) : NULL;
		const uint8_t* counts = name != NULL ? cnReader_Take( r, 8 ) : NULL;
		if ( counts == NULL )
		{
			cnSetError( cnError_badInput, "%s: truncated: the file ends inside body %u of %u", path, i,
						   total );
			return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
		}
		body->name = cnIoCopyBytes( (const char*)name, nameLength );
		if ( body->name == NULL )
		{
			cnSetError( cnError_outOfMemory, "%s: out of memory", path );
			return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
		}
		uint32_t type = cnGetU32( counts );
		uint32_t shapeCount = cnGetU32( counts + 4 );
		if ( type > (uint32_t)cnBody_dynamic )
		{
			cnSetError( cnError_badInput, "%s: corrupt: body %u (\"%s\") has unknown type %u", path, i,
						   body->name, type );
			return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
		}
		body->type = (cnBodyType)type;
		if ( shapeCount > ( size - r->position ) / cn_recShapeBytes )
		{
			cnSetError( cnError_badInput, "%s: truncated: the file ends inside the shapes of body %u (\"%s\")",
						   path, i, body->name );
			return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
		}
		if ( (int64_t)rec->shapeCount + shapeCount > INT32_MAX )
		{
			cnSetError( cnError_badInput, "%s: corrupt: too many shapes", path );
			return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
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
			if ( shapes != NULL )
			{
				rec->shapes = shapes;
			}
			char** textures = shapes != NULL ? realloc( rec->textures, sizeof( char* ) * (size_t)capacity ) : NULL;
			if ( textures == NULL )
			{
				cnSetError( cnError_outOfMemory, "%s: out of memory", path );
				return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
			}
			memset( textures + shapeCapacity, 0, sizeof( char* ) * (size_t)( capacity - shapeCapacity ) );
			rec->textures = textures;
			shapeCapacity = capacity;
			rec->textureCapacity = capacity;
		}
		for ( uint32_t j = 0; j < shapeCount; ++j )
		{
			// the count check above reserved cn_recShapeBytes per shape, but polygon vertex lists
			// between the records take bytes too, so a record can still run past the end
			const uint8_t* record = cnReader_Take( r, cn_recShapeBytes );
			if ( record == NULL )
			{
				cnSetError( cnError_badInput, "%s: truncated: the file ends inside shape %u of body %u (\"%s\")",
							   path, j, i, body->name );
				return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
			}
			cnRecordedShape* shape = rec->shapes + rec->shapeCount;
			const char* reason = cnReadShape( record, version, shape );
			if ( reason != NULL )
			{
				cnSetError( cnError_badInput, "%s: corrupt: shape %u of body %u (\"%s\") %s", path, j, i,
							   body->name, reason );
				return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
			}
			if ( version >= CN_RECORDING_VERSION_APPEARANCE &&
				 cnReadAppearance( r, rec, rec->shapeCount, shape, path, i, j, body->name ) == false )
			{
				return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
			}
			char polygonError[160];
			if ( shape->type == cnShape_polygon &&
				 cnReadVertices( r, rec, &vertexCapacity, shape, true, 2, CN_RECORDING_MAX_POLYGON_VERTICES, polygonError,
								 sizeof( polygonError ) ) ==
					 false )
			{
				cnSetError( cnError_badInput, "%s: %s (shape %u of body %u, \"%s\")", path, polygonError, j, i,
							   body->name );
				return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
			}
			bool surface = shape->type == cnShape_hull || shape->type == cnShape_mesh || shape->type == cnShape_heightfield;
			if ( surface && cnReadSurface( r, rec, &vertexCapacity, &triangleCapacity, shape, polygonError,
										   sizeof( polygonError ) ) == false )
			{
				cnSetError( cnError_badInput, "%s: %s (shape %u of body %u, \"%s\")", path, polygonError, j, i,
							body->name );
				return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, false );
			}
			rec->shapeCount += 1;
		}
	}
	return cnKeepCapacities( caps, shapeCapacity, vertexCapacity, triangleCapacity, true );
}

// Points every polygon and surface at its vertices and triangles, stored in shape order, and every
// shape at its texture name, once the arrays no longer move.
static void cnPointShapes( cnRecording* rec )
{
	size_t nextVertex = 0, nextTriangle = 0;
	for ( int k = 0; k < rec->shapeCount; ++k )
	{
		rec->shapes[k].texture = rec->textures[k] != NULL ? rec->textures[k] : "";
		if ( rec->shapes[k].vertexCount > 0 )
		{
			rec->shapes[k].vertices = rec->vertices + nextVertex;
			nextVertex += (size_t)rec->shapes[k].vertexCount;
		}
		if ( rec->shapes[k].triangleCount > 0 )
		{
			rec->shapes[k].triangles = rec->triangles + 3 * nextTriangle;
			nextTriangle += (size_t)rec->shapes[k].triangleCount;
		}
	}
}

// Reads the frames of a version-6 file: each its time, the count and records of the bodies it
// describes (created since the frame before), a state byte and a pose per body described so far,
// and a state byte per joint. False with the error set.
static bool cnReadChangingFrames( cnReader* r, cnRecording* rec, uint32_t frameCount, uint32_t version, const char* path,
								  cnReadCapacities* caps )
{
	size_t jointCount = (size_t)rec->jointCount;
	size_t bodyBytes = 1 + (size_t)cn_recBodyFrameBytes;
	// the smallest frame (no new body) bounds the frame count by the file size before any allocation
	size_t minFrame = 8 + 4 + bodyBytes * (size_t)rec->bodyCount + jointCount * (size_t)cn_recJointFrameBytes;
	size_t available = r->size - r->position;
	if ( frameCount > available / minFrame )
	{
		return cnSetError( cnError_badInput,
						   "%s: truncated: the header declares %u frames of at least %zu bytes but the file holds %zu bytes "
						   "of frames",
						   path, frameCount, minFrame, available );
	}
	size_t frames = frameCount > 0 ? frameCount : 1;
	rec->times = malloc( sizeof( double ) * frames );
	rec->frameBodyCounts = malloc( sizeof( int ) * frames );
	rec->frameOffsets = malloc( sizeof( size_t ) * frames );
	rec->jointStates = malloc( frameCount * jointCount > 0 ? frameCount * jointCount : 1 );
	if ( rec->times == NULL || rec->frameBodyCounts == NULL || rec->frameOffsets == NULL || rec->jointStates == NULL )
	{
		return cnSetError( cnError_outOfMemory, "%s: out of memory", path );
	}
	for ( int i = 0; i < rec->bodyCount; ++i )
	{
		rec->bodies[i].firstFrame = -1;
	}
	size_t used = 0, capacity = 0;
	for ( uint32_t f = 0; f < frameCount; ++f )
	{
		const uint8_t* head = cnReader_Take( r, 12 );
		if ( head == NULL )
		{
			return cnSetError( cnError_badInput, "%s: truncated: the file ends inside frame %u", path, f );
		}
		double time = cnGetF64( head );
		if ( !isfinite( time ) || ( f > 0 && time < rec->times[f - 1] ) )
		{
			return cnSetError( cnError_badInput, "%s: corrupt: frame %u has time %g (not finite or going backwards)", path,
							   f, time );
		}
		rec->times[f] = time;
		int before = rec->bodyCount;
		if ( cnReadBodies( r, rec, cnGetU32( head + 8 ), version, path, caps ) == false )
		{
			return false;
		}
		size_t n = (size_t)rec->bodyCount;
		for ( size_t i = (size_t)before; i < n; ++i )
		{
			rec->bodies[i].firstFrame = -1;
		}
		const uint8_t* q = cnReader_Take( r, bodyBytes * n + jointCount * (size_t)cn_recJointFrameBytes );
		if ( q == NULL )
		{
			return cnSetError( cnError_badInput, "%s: truncated: the file ends inside frame %u (%zu bodies, %zu joints)",
							   path, f, n, jointCount );
		}
		if ( used + n > capacity )
		{
			// every slot is backed by bodyBytes of the file, so this growth is bounded by its size
			size_t grown = capacity < 64 ? 64 : capacity;
			while ( grown < used + n )
			{
				grown *= 2;
			}
			cnTransform* transforms = realloc( rec->transforms, sizeof( cnTransform ) * grown );
			if ( transforms != NULL )
			{
				rec->transforms = transforms;
			}
			uint8_t* states = transforms != NULL ? realloc( rec->bodyStates, grown ) : NULL;
			if ( states == NULL )
			{
				return cnSetError( cnError_outOfMemory, "%s: out of memory", path );
			}
			rec->bodyStates = states;
			capacity = grown;
		}
		size_t previous = f > 0 ? rec->frameOffsets[f - 1] : 0;
		size_t previousCount = f > 0 ? (size_t)rec->frameBodyCounts[f - 1] : 0;
		for ( size_t i = 0; i < n; ++i )
		{
			const char* name = rec->bodies[i].name;
			uint8_t state = *q++;
			double v[7];
			bool finite = true;
			for ( int k = 0; k < 7; ++k )
			{
				v[k] = cnGetF64( q );
				q += 8;
				finite = finite && isfinite( v[k] );
			}
			if ( state != (uint8_t)cnRecordedBody_present && state != (uint8_t)cnRecordedBody_destroyed )
			{
				return cnSetError( cnError_badInput,
								   "%s: corrupt: frame %u, body %zu (\"%s\"): unknown state %u (0 present, 2 destroyed)",
								   path, f, i, name, state );
			}
			bool wasDestroyed = i < previousCount && rec->bodyStates[previous + i] == (uint8_t)cnRecordedBody_destroyed;
			cnTransform* t = rec->transforms + used + i;
			if ( state == (uint8_t)cnRecordedBody_destroyed )
			{
				if ( (int)i >= before )
				{
					return cnSetError( cnError_badInput,
									   "%s: corrupt: frame %u describes body %zu (\"%s\") but says it is destroyed there",
									   path, f, i, name );
				}
				// the pose written for a destroyed body is not read: it keeps the last one it had
				*t = i < previousCount ? rec->transforms[previous + i] : cnTransform_identity;
			}
			else
			{
				if ( wasDestroyed )
				{
					return cnSetError( cnError_badInput,
									   "%s: corrupt: frame %u, body %zu (\"%s\") is present after it was destroyed", path,
									   f, i, name );
				}
				if ( finite == false || !cnIsUnitQuatLike( v[3], v[4], v[5], v[6] ) )
				{
					return cnSetError( cnError_badInput,
									   "%s: corrupt: frame %u, body %zu (\"%s\"): position not finite or orientation not "
									   "a unit quaternion",
									   path, f, i, name );
				}
				t->p = cnV3( v[0], v[1], v[2] );
				t->q = ( cnQuat ){ v[3], v[4], v[5], v[6] };
				if ( rec->bodies[i].firstFrame < 0 )
				{
					rec->bodies[i].firstFrame = (int)f;
				}
			}
			rec->bodyStates[used + i] = state;
		}
		for ( size_t j = 0; j < jointCount; ++j )
		{
			uint8_t state = *q++;
			if ( state >= (uint8_t)cnRecordedJoint_stateCount )
			{
				return cnSetError( cnError_badInput, "%s: corrupt: frame %u, joint %zu (\"%s\"): unknown state %u", path,
								   f, j, rec->joints[j].name, state );
			}
			rec->jointStates[(size_t)f * jointCount + j] = state;
		}
		rec->frameOffsets[f] = used;
		rec->frameBodyCounts[f] = (int)n;
		used += n;
		rec->frameCount = (int)f + 1;
	}
	if ( r->position != r->size )
	{
		return cnSetError( cnError_badInput, "%s: corrupt: %zu unexpected bytes after frame %u, the last one", path,
						   r->size - r->position, frameCount );
	}
	return true;
}

static bool cnParseRecording( cnRecording* rec, const uint8_t* data, size_t size, const char* path )
{
	cnReader r = { data, size, 0 };

	if ( size < 8 || memcmp( data, CN_RECORDING_MAGIC, 8 ) != 0 )
	{
		cnSetError( cnError_badInput, "%s: not a Cairn recording (the file does not start with \"%s\")", path,
					   CN_RECORDING_MAGIC );
		return false;
	}
	const uint8_t* fixed = cnReader_Take( &r, cn_recSceneNameOffset );
	if ( fixed == NULL )
	{
		cnSetError( cnError_badInput, "%s: truncated: the file ends inside the %d-byte header (%zu bytes)", path,
					   cn_recSceneNameOffset, size );
		return false;
	}
	uint32_t version = cnGetU32( fixed + cn_recVersionOffset );
	if ( version == 0 || version > CN_RECORDING_VERSION )
	{
		cnSetError( cnError_badInput, "%s: unsupported recording format version %u (this build of Cairn reads version %d)", path,
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
		cnSetError( cnError_badInput, "%s: corrupt: fps %g is not a finite number > 0", path, rec->fps );
		return false;
	}
	if ( bodyCount > INT32_MAX || frameCount > INT32_MAX )
	{
		cnSetError( cnError_badInput, "%s: corrupt: %u bodies, %u frames", path, bodyCount, frameCount );
		return false;
	}

	// scene name
	const uint8_t* p = cnReader_Take( &r, 4 );
	uint32_t nameLength = p != NULL ? cnGetU32( p ) : 0;
	const uint8_t* name = p != NULL ? cnReader_Take( &r, nameLength ) : NULL;
	if ( name == NULL )
	{
		cnSetError( cnError_badInput, "%s: truncated: the file ends inside the scene name", path );
		return false;
	}
	rec->sceneName = cnIoCopyBytes( (const char*)name, nameLength );

	// bodies: every body record takes at least cn_recMinBodyBytes, which bounds the allocation
	// by the file size whatever the count field says
	cnReadCapacities capacities = { 0 };
	if ( rec->sceneName == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		return false;
	}
	if ( cnReadBodies( &r, rec, bodyCount, version, path, &capacities ) == false )
	{
		return false;
	}
	if ( version >= CN_RECORDING_VERSION_JOINTS && cnReadJoints( &r, rec, path ) == false )
	{
		return false;
	}
	if ( r.position != headerSize )
	{
		cnSetError( cnError_badInput, "%s: corrupt: the %s end at byte %zu but the header says frames start at %u", path,
					version >= CN_RECORDING_VERSION_JOINTS ? "joint descriptions" : "body descriptions", r.position,
					headerSize );
		return false;
	}

	if ( version >= CN_RECORDING_VERSION_CHANGING_BODIES )
	{
		if ( cnReadChangingFrames( &r, rec, frameCount, version, path, &capacities ) == false )
		{
			return false;
		}
		cnPointShapes( rec );
		return true;
	}

	// frames: the size must match the frame count exactly
	size_t jointCount = (size_t)rec->jointCount;
	size_t frameBytes = 8 + (size_t)cn_recBodyFrameBytes * bodyCount + (size_t)cn_recJointFrameBytes * jointCount;
	size_t available = size - r.position;
	if ( frameCount > available / frameBytes )
	{
		cnSetError( cnError_badInput, "%s: truncated: the header declares %u frames of %zu bytes but the file holds %zu bytes of "
					   "frames (%zu whole frames)",
					   path, frameCount, frameBytes, available, available / frameBytes );
		return false;
	}
	if ( available != frameCount * frameBytes )
	{
		cnSetError( cnError_badInput, "%s: corrupt: %zu unexpected bytes after frame %u, the last one", path,
					   available - frameCount * frameBytes, frameCount );
		return false;
	}
	rec->frameCount = (int)frameCount;
	rec->times = malloc( sizeof( double ) * ( frameCount > 0 ? frameCount : 1 ) );
	rec->transforms = malloc( sizeof( cnTransform ) * ( (size_t)frameCount * bodyCount > 0 ? (size_t)frameCount * bodyCount : 1 ) );
	rec->jointStates = malloc( frameCount * jointCount > 0 ? frameCount * jointCount : 1 );
	if ( rec->times == NULL || rec->transforms == NULL || rec->jointStates == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		return false;
	}
	for ( uint32_t f = 0; f < frameCount; ++f )
	{
		const uint8_t* frame = cnReader_Take( &r, frameBytes );
		if ( frame == NULL )
		{
			// cannot happen after the size check above; said so for the static analyzer
			cnSetError( cnError_badInput, "%s: truncated: frame %u", path, f );
			return false;
		}
		double time = cnGetF64( frame );
		if ( !isfinite( time ) || ( f > 0 && time < rec->times[f - 1] ) )
		{
			cnSetError( cnError_badInput, "%s: corrupt: frame %u has time %g (not finite or going backwards)",
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
				cnSetError( cnError_badInput, "%s: corrupt: frame %u, body %u (\"%s\"): position not finite or orientation not a "
							   "unit quaternion",
							   path, f, i, rec->bodies[i].name );
				return false;
			}
			cnTransform* t = rec->transforms + (size_t)f * bodyCount + i;
			t->p = cnV3( v[0], v[1], v[2] );
			t->q = ( cnQuat ){ v[3], v[4], v[5], v[6] };
		}
		for ( size_t j = 0; j < jointCount; ++j )
		{
			uint8_t state = *frame++;
			if ( state >= (uint8_t)cnRecordedJoint_stateCount )
			{
				cnSetError( cnError_badInput, "%s: corrupt: frame %u, joint %zu (\"%s\"): unknown state %u", path, f, j,
							rec->joints[j].name, state );
				return false;
			}
			rec->jointStates[(size_t)f * jointCount + j] = state;
		}
	}
	cnPointShapes( rec );
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

cnRecording* cnLoadRecording( const char* path )
{
	if ( path == NULL )
	{
		cnSetError( cnError_invalidArgument, "recording: no file name given" );
		return NULL;
	}
	size_t size = 0;
	char* data = cnIoReadFile( path, &size );
	if ( data == NULL )
	{
		return NULL;
	}
	cnRecording* rec = cnLoadRecordingFromMemory( data, size, path );
	free( data );
	return rec;
}

cnRecording* cnLoadRecordingFromMemory( const void* data, size_t size, const char* sourceName )
{
	const char* name = sourceName != NULL ? sourceName : "recording";
	if ( data == NULL && size > 0 )
	{
		cnSetError( cnError_invalidArgument, "%s: no data given", name );
		return NULL;
	}
	cnRecording* rec = calloc( 1, sizeof( cnRecording ) );
	if ( rec == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", name );
		return NULL;
	}
	if ( cnParseRecording( rec, data, size, name ) == false )
	{
		cnDestroyRecording( rec );
		return NULL;
	}
	cnClearError();
	return rec;
}

void cnDestroyRecording( cnRecording* recording )
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
	for ( int i = 0; recording->textures != NULL && i < recording->textureCapacity; ++i )
	{
		free( recording->textures[i] );
	}
	free( recording->textures );
	free( recording->shapes );
	free( recording->vertices );
	free( recording->triangles );
	free( recording->times );
	free( recording->transforms );
	free( recording->frameBodyCounts );
	free( recording->frameOffsets );
	free( recording->bodyStates );
	for ( int i = 0; recording->jointNames != NULL && i < recording->jointCount; ++i )
	{
		free( recording->jointNames[i] );
	}
	free( recording->jointNames );
	free( recording->joints );
	free( recording->jointStates );
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
	if ( recording->frameOffsets != NULL )
	{
		if ( body >= recording->frameBodyCounts[frame] )
		{
			return cnTransform_identity;
		}
		return recording->transforms[recording->frameOffsets[frame] + (size_t)body];
	}
	return recording->transforms[(size_t)frame * (size_t)recording->bodyCount + (size_t)body];
}

cnRecordedBodyState cnRecording_GetBodyState( const cnRecording* recording, int frame, int body )
{
	if ( frame < 0 || frame >= recording->frameCount || body < 0 || body >= recording->bodyCount )
	{
		return cnRecordedBody_notCreated;
	}
	if ( recording->frameOffsets == NULL )
	{
		return cnRecordedBody_present;
	}
	if ( body >= recording->frameBodyCounts[frame] )
	{
		return cnRecordedBody_notCreated;
	}
	return (cnRecordedBodyState)recording->bodyStates[recording->frameOffsets[frame] + (size_t)body];
}

bool cnRecording_IsBodyPresent( const cnRecording* recording, int frame, int body )
{
	return cnRecording_GetBodyState( recording, frame, body ) == cnRecordedBody_present;
}

int cnRecording_GetBodyFirstFrame( const cnRecording* recording, int body )
{
	if ( body < 0 || body >= recording->bodyCount )
	{
		return -1;
	}
	if ( recording->version < CN_RECORDING_VERSION_CHANGING_BODIES )
	{
		return recording->frameCount > 0 ? 0 : -1;
	}
	return recording->bodies[body].firstFrame;
}

int cnRecording_GetJointCount( const cnRecording* recording )
{
	return recording->jointCount;
}

cnRecordedJoint cnRecording_GetJoint( const cnRecording* recording, int joint )
{
	if ( joint < 0 || joint >= recording->jointCount )
	{
		cnRecordedJoint none = { 0 };
		none.name = "";
		none.type = cnJoint_ball;
		none.bodyA = -1;
		none.bodyB = -1;
		return none;
	}
	return recording->joints[joint];
}

cnRecordedJointState cnRecording_GetJointState( const cnRecording* recording, int frame, int joint )
{
	if ( frame < 0 || frame >= recording->frameCount || joint < 0 || joint >= recording->jointCount )
	{
		return cnRecordedJoint_removed;
	}
	return (cnRecordedJointState)recording->jointStates[(size_t)frame * (size_t)recording->jointCount + (size_t)joint];
}

bool cnRecording_GetJointAnchors( const cnRecording* recording, int frame, int joint, cnVec3* anchorA,
								  cnVec3* anchorB )
{
	cnVec3 a = cnV3( NAN, NAN, NAN ), b = a;
	bool ok = frame >= 0 && frame < recording->frameCount && joint >= 0 && joint < recording->jointCount;
	if ( ok )
	{
		// an anchor of the world (or of a static body that is not recorded) is a fixed world point
		const cnRecordedJoint* j = recording->joints + joint;
		a = j->bodyA >= 0 ? cnTransformPoint( cnRecording_GetBodyTransform( recording, frame, j->bodyA ), j->localAnchorA )
						  : j->localAnchorA;
		b = j->bodyB >= 0 ? cnTransformPoint( cnRecording_GetBodyTransform( recording, frame, j->bodyB ), j->localAnchorB )
						  : j->localAnchorB;
	}
	if ( anchorA != NULL )
	{
		*anchorA = a;
	}
	if ( anchorB != NULL )
	{
		*anchorB = b;
	}
	return ok;
}

double cnRecordedShape_GetReach( const cnRecordedShape* s )
{
	switch ( s->type )
	{
		case cnShape_sphere:
			return s->radius;
		case cnShape_box:
			return cnLength( s->halfExtents );
		case cnShape_capsule:
		case cnShape_cylinder:
			return s->radius + s->halfHeight;
		case cnShape_polygon:
		case cnShape_hull:
		case cnShape_mesh:
		case cnShape_heightfield:
		{
			double reach = 0.0;
			for ( int k = 0; k < s->vertexCount; ++k )
			{
				reach = fmax( reach, cnLength( s->vertices[k] ) );
			}
			// a polygon's edges are thickened by its radius
			return reach + ( s->type == cnShape_polygon ? s->radius : 0.0 );
		}
		default:
			return 0.0;
	}
}
