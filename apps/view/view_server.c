// SPDX-License-Identifier: MIT
// The HTTP server of `cairn view` (view_server.h) on libmicrohttpd's internal threads.
//
// Routes (GET and HEAD only; a request body is never read):
//   /, /index.html, /viewer.js      the embedded page (view_assets.h)
//   /api/scene                      bodies, shapes (with their surfaces), joints, frame count
//   /api/status                     frame count, whether the simulation ended, why it ended early
//   /api/frames?from=A&count=N[&format=json|binary]   poses of every body in frames A to A+N-1
//   /api/quantities?from=A&count=N  energies and momentum of frames A to A+N-1 (scenes only)
//   /api/contacts?frame=F           the contact points and normals of frame F (scenes only)
//   /api/body?index=I&frame=F       body I's mass, velocities and energies at frame F (scenes only)
// Each /api/ path takes run=I to read run I of `cairn view --compare` (default 0).
// Every other path, every path holding "..", and every malformed query is answered with a JSON
// error ({"error": "..."}) and 400, 404, 405 or 414; nothing is ever read from disk.
#define _POSIX_C_SOURCE 200809L

#include "view_server.h"

#include "view_edit.h"
#include "view_scene_edit.h"

#include "view_assets.h"
#include "view_text.h"

#include <stdatomic.h>
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

struct cliViewServer
{
	struct MHD_Daemon* daemon;
	/// the runs (one per method with --compare, else one); source is the first
	cliViewSource* source;
	cliViewSource* sources;
	int runCount;
	int port;
	/// the Host header values a browser sends for this server ("127.0.0.1:PORT", ...); any when
	/// bound to an address other machines reach
	bool checkHost;
	char hostNames[4][80];
	/// set once the fields above are filled, after the daemon's threads have started (the port is
	/// known only then): a request that comes earlier is refused rather than read them half-written
	atomic_bool ready;
	/// the part of /api/scene that changes only when the editor applies a scene: name, source,
	/// fps, bodies, shapes and joints
	char* sceneJson;
	size_t sceneJsonSize;
	/// the source's bodySetVersion sceneJson describes; a cut that adds or deletes bodies makes the
	/// next /api/scene describe them again, under sceneLock
	int sceneVersion;
	pthread_mutex_t sceneLock;
	/// held for reading by every request that reads the source or sceneJson, for writing by the
	/// editor's apply (view_scene_edit.c), which replaces both while no request reads them
	pthread_rwlock_t swap;
};

// ---------------------------------------------------------------------------------------------
// the scene description

static void cliViewJson_Vec3( cliViewText* text, cnVec3 v )
{
	cliViewText_Puts( text, "[" );
	cliViewText_Number( text, v.x );
	cliViewText_Puts( text, "," );
	cliViewText_Number( text, v.y );
	cliViewText_Puts( text, "," );
	cliViewText_Number( text, v.z );
	cliViewText_Puts( text, "]" );
}

// One recorded shape: its type and the sizes of that type, its pose in the body frame, its colour
// and finish, and the polygon's vertices or the surface of a hull, mesh or heightfield.
static void cliViewJson_Shape( cliViewText* text, const cnRecordedShape* shape )
{
	cliViewText_Puts( text, "{\"type\":" );
	cliViewText_String( text, cnShapeType_GetName( shape->type ) );
	switch ( shape->type )
	{
		case cnShape_sphere:
			cliViewText_Puts( text, ",\"radius\":" );
			cliViewText_Number( text, shape->radius );
			break;
		case cnShape_box:
			cliViewText_Puts( text, ",\"halfExtents\":" );
			cliViewJson_Vec3( text, shape->halfExtents );
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			cliViewText_Puts( text, ",\"radius\":" );
			cliViewText_Number( text, shape->radius );
			cliViewText_Puts( text, ",\"halfHeight\":" );
			cliViewText_Number( text, shape->halfHeight );
			break;
		case cnShape_plane:
			cliViewText_Puts( text, ",\"normal\":" );
			cliViewJson_Vec3( text, shape->normal );
			cliViewText_Puts( text, ",\"offset\":" );
			cliViewText_Number( text, shape->offset );
			break;
		case cnShape_polygon:
			cliViewText_Puts( text, ",\"radius\":" );
			cliViewText_Number( text, shape->radius );
			break;
		default:
			break;
	}
	if ( shape->vertexCount > 0 && shape->vertices != NULL )
	{
		// float precision draws a surface exactly enough and keeps large meshes small
		cliViewText_Puts( text, ",\"vertices\":[" );
		for ( int i = 0; i < shape->vertexCount; ++i )
		{
			cnVec3 v = shape->vertices[i];
			cliViewText_Puts( text, i > 0 ? "," : "" );
			cliViewText_Short( text, v.x );
			cliViewText_Puts( text, "," );
			cliViewText_Short( text, v.y );
			cliViewText_Puts( text, "," );
			cliViewText_Short( text, v.z );
		}
		cliViewText_Puts( text, "]" );
	}
	if ( shape->triangleCount > 0 && shape->triangles != NULL )
	{
		cliViewText_Puts( text, ",\"triangles\":[" );
		for ( int i = 0; i < 3 * shape->triangleCount; ++i )
		{
			cliViewText_Printf( text, i > 0 ? ",%d" : "%d", shape->triangles[i] );
		}
		cliViewText_Puts( text, "]" );
	}
	cnTransform pose = shape->localPose;
	cliViewText_Puts( text, ",\"position\":" );
	cliViewJson_Vec3( text, pose.p );
	cliViewText_Puts( text, ",\"orientation\":[" );
	cliViewText_Number( text, pose.q.w );
	cliViewText_Puts( text, "," );
	cliViewText_Number( text, pose.q.x );
	cliViewText_Puts( text, "," );
	cliViewText_Number( text, pose.q.y );
	cliViewText_Puts( text, "," );
	cliViewText_Number( text, pose.q.z );
	cliViewText_Printf( text, "],\"color\":[%.6g,%.6g,%.6g],\"finish\":", (double)shape->color[0],
						(double)shape->color[1], (double)shape->color[2] );
	cliViewText_String( text, cnFinish_GetName( shape->finish ) );
	cliViewText_Puts( text, "}" );
}

// The fixed part of /api/scene (without the braces around it).
static void cliViewJson_Scene( cliViewText* text, const cliViewSource* source )
{
	const cnRecording* r = source->description;
	cliViewText_Puts( text, "\"name\":" );
	cliViewText_String( text, cnRecording_GetSceneName( r ) );
	cliViewText_Printf( text, ",\"source\":\"%s\",\"fps\":", source->simulated ? "scene" : "recording" );
	cliViewText_Number( text, source->fps );
	cliViewText_Puts( text, ",\"duration\":" );
	cliViewText_Number( text, source->duration );
	cliViewText_Printf( text, ",\"stride\":%d,\"bodySet\":%d,", source->stride, source->bodySetVersion );
	cliViewServer_DescribeBodies( text, r );
}

void cliViewServer_DescribeBodies( cliViewText* text, const cnRecording* r )
{
	cliViewText_Puts( text, "\"bodies\":[" );
	int bodyCount = cnRecording_GetBodyCount( r );
	for ( int b = 0; b < bodyCount; ++b )
	{
		cliViewText_Puts( text, b > 0 ? ",{\"name\":" : "{\"name\":" );
		cliViewText_String( text, cnRecording_GetBodyName( r, b ) );
		cliViewText_Puts( text, ",\"type\":" );
		cliViewText_String( text, cnBodyType_GetName( cnRecording_GetBodyType( r, b ) ) );
		cliViewText_Puts( text, ",\"shapes\":[" );
		int shapeCount = cnRecording_GetShapeCount( r, b );
		for ( int s = 0; s < shapeCount; ++s )
		{
			cnRecordedShape shape = cnRecording_GetShape( r, b, s );
			cliViewText_Puts( text, s > 0 ? "," : "" );
			cliViewJson_Shape( text, &shape );
		}
		cliViewText_Puts( text, "]}" );
	}
	cliViewText_Puts( text, "],\"joints\":[" );
	int jointCount = cnRecording_GetJointCount( r );
	for ( int j = 0; j < jointCount; ++j )
	{
		cnRecordedJoint joint = cnRecording_GetJoint( r, j );
		cliViewText_Puts( text, j > 0 ? ",{\"name\":" : "{\"name\":" );
		cliViewText_String( text, joint.name );
		cliViewText_Puts( text, ",\"type\":" );
		cliViewText_String( text, cnJointType_GetName( joint.type ) );
		cliViewText_Printf( text, ",\"bodyA\":%d,\"bodyB\":%d,\"anchorA\":", joint.bodyA, joint.bodyB );
		cliViewJson_Vec3( text, joint.localAnchorA );
		cliViewText_Puts( text, ",\"anchorB\":" );
		cliViewJson_Vec3( text, joint.localAnchorB );
		cliViewText_Puts( text, "}" );
	}
	cliViewText_Puts( text, "]" );
}

// The runs of /api/scene: the contact method of each ("" for a recording).
static void cliViewJson_Runs( cliViewText* text, const cliViewSource* sources, int count )
{
	cliViewText_Puts( text, ",\"runs\":[" );
	for ( int i = 0; i < count; ++i )
	{
		cliViewText_Puts( text, i > 0 ? ",{\"method\":" : "{\"method\":" );
		cliViewText_String( text, sources[i].method );
		cliViewText_Puts( text, "}" );
	}
	cliViewText_Puts( text, "]" );
}

// The centre of mass of every body in its own frame, which recordings do not hold: a scene's,
// read before its simulation starts (the page draws trails of them).
static void cliViewJson_Centers( cliViewText* text, const cliViewSource* source )
{
	if ( source->simulated == false )
	{
		return;
	}
	cliViewText_Puts( text, ",\"centers\":[" );
	int bodyCount = cnRecording_GetBodyCount( source->description );
	for ( int i = 0; i < bodyCount; ++i )
	{
		// (after a cut that added or deleted bodies, the centres it read: the world now runs)
		cnVec3 c = source->centers != NULL ? source->centers[i]
										   : cnBody_GetLocalCenterOfMass( source->scene->world, source->bodies[i] );
		// JSON has no NaN: a body without a centre (none is expected) is drawn from its origin
		c = isfinite( c.x + c.y + c.z ) ? c : cnV3( 0.0, 0.0, 0.0 );
		cliViewText_Puts( text, i > 0 ? "," : "" );
		cliViewJson_Vec3( text, c );
	}
	cliViewText_Puts( text, "]" );
}

// ---------------------------------------------------------------------------------------------
// answers

// Queues an answer. The bytes are copied or freed as mode says; a response that cannot be made
// fails the request (libmicrohttpd then closes the connection).
static enum MHD_Result cliViewServer_Send( struct MHD_Connection* connection, unsigned int status, const char* type,
										   const void* data, size_t size, enum MHD_ResponseMemoryMode mode,
										   bool page )
{
	struct MHD_Response* response = MHD_create_response_from_buffer( size, (void*)data, mode );
	if ( response == NULL )
	{
		if ( mode == MHD_RESPMEM_MUST_FREE )
		{
			free( (void*)data );
		}
		return MHD_NO;
	}
	MHD_add_response_header( response, MHD_HTTP_HEADER_CONTENT_TYPE, type );
	MHD_add_response_header( response, "X-Content-Type-Options", "nosniff" );
	MHD_add_response_header( response, "Referrer-Policy", "no-referrer" );
	MHD_add_response_header( response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store" );
	if ( page )
	{
		// the page runs only its own script and talks only to this server
		MHD_add_response_header( response, "Content-Security-Policy",
								 "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
								 "object-src 'none'; base-uri 'none'; frame-ancestors 'none'" );
	}
	enum MHD_Result result = MHD_queue_response( connection, status, response );
	MHD_destroy_response( response );
	return result;
}

// Queues a JSON error {"error": message}.
static enum MHD_Result cliViewServer_Error( struct MHD_Connection* connection, unsigned int status, const char* message )
{
	cliViewText text = { 0 };
	cliViewText_Puts( &text, "{\"error\":" );
	cliViewText_String( &text, message );
	cliViewText_Puts( &text, "}\n" );
	size_t size = 0;
	char* body = cliViewText_Take( &text, &size );
	if ( body == NULL )
	{
		return MHD_NO;
	}
	return cliViewServer_Send( connection, status, "application/json", body, size, MHD_RESPMEM_MUST_FREE, false );
}

// Queues a JSON answer built in text (a failed build is a 500).
static enum MHD_Result cliViewServer_SendJson( struct MHD_Connection* connection, cliViewText* text )
{
	size_t size = 0;
	char* body = cliViewText_Take( text, &size );
	if ( body == NULL )
	{
		return cliViewServer_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory" );
	}
	return cliViewServer_Send( connection, MHD_HTTP_OK, "application/json", body, size, MHD_RESPMEM_MUST_FREE, false );
}

// The frame count, whether it is final, and why the simulation ended early, as JSON members.
static void cliViewServer_AppendStatus( cliViewText* text, cliViewSource* source )
{
	bool complete = false;
	char message[512];
	int frameCount = cliViewSource_GetFrameCount( source, &complete, message, sizeof( message ) );
	cliViewText_Printf( text, "\"frameCount\":%d,\"complete\":%s,\"message\":", frameCount, complete ? "true" : "false" );
	cliViewText_String( text, message );
}

// Reads a query number: 1 to 10 decimal digits, at most INT_MAX. Absent: the default.
static bool cliViewServer_QueryInt( struct MHD_Connection* connection, const char* key, int fallback, int* out )
{
	const char* value = MHD_lookup_connection_value( connection, MHD_GET_ARGUMENT_KIND, key );
	if ( value == NULL )
	{
		*out = fallback;
		return true;
	}
	long long n = 0;
	int digits = 0;
	for ( const char* c = value; *c != 0; ++c, ++digits )
	{
		if ( *c < '0' || *c > '9' || digits >= 10 )
		{
			return false;
		}
		n = 10 * n + ( *c - '0' );
	}
	if ( digits == 0 || n > INT_MAX )
	{
		return false;
	}
	*out = (int)n;
	return true;
}

// Stores a double as 8 little-endian bytes, whatever the machine's byte order.
static void cliViewServer_StoreLittle( unsigned char* out, double value )
{
	uint64_t bits;
	memcpy( &bits, &value, sizeof( bits ) );
	for ( int i = 0; i < 8; ++i )
	{
		out[i] = (unsigned char)( bits >> ( 8 * i ) );
	}
}

// /api/frames: frames from..from+count-1 (as many as exist and fit), as JSON arrays
// [time, x, y, z, qw, qx, qy, qz, ...] or as raw little-endian doubles in the same order.
static enum MHD_Result cliViewServer_Frames( cliViewSource* source, struct MHD_Connection* connection )
{
	int from = 0, count = 0;
	if ( cliViewServer_QueryInt( connection, "from", 0, &from ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "from: expected a frame number from 0 to 2147483647" );
	}
	if ( cliViewServer_QueryInt( connection, "count", INT_MAX, &count ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "count: expected a number from 0 to 2147483647" );
	}
	const char* format = MHD_lookup_connection_value( connection, MHD_GET_ARGUMENT_KIND, "format" );
	bool binary = format != NULL && strcmp( format, "binary" ) == 0;
	if ( format != NULL && binary == false && strcmp( format, "json" ) != 0 )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "format: expected json or binary" );
	}
	// the answer is bounded whatever count asks for
	int stride = source->stride;
	int most = CLI_VIEW_MAX_FRAME_NUMBERS / stride;
	most = most < 1 ? 1 : most;
	count = count < most ? count : most;
	bool complete = false;
	int frameCount = cliViewSource_GetFrameCount( source, &complete, NULL, 0 );
	int available = from < frameCount ? frameCount - from : 0;
	count = count < available ? count : available;
	double* frames = malloc( sizeof( double ) * (size_t)stride * (size_t)( count > 0 ? count : 1 ) );
	if ( frames == NULL )
	{
		return cliViewServer_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory" );
	}
	// a scene's cache only grows, so the frames counted above are all there
	count = count > 0 ? cliViewSource_CopyFrames( source, from, count, frames ) : 0;
	size_t numbers = (size_t)count * (size_t)stride;
	if ( binary )
	{
		unsigned char* body = malloc( 8 * ( numbers > 0 ? numbers : 1 ) );
		if ( body == NULL )
		{
			free( frames );
			return cliViewServer_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory" );
		}
		for ( size_t i = 0; i < numbers; ++i )
		{
			cliViewServer_StoreLittle( body + 8 * i, frames[i] );
		}
		free( frames );
		struct MHD_Response* response = MHD_create_response_from_buffer( 8 * numbers, body, MHD_RESPMEM_MUST_FREE );
		if ( response == NULL )
		{
			free( body );
			return MHD_NO;
		}
		char value[32];
		MHD_add_response_header( response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/octet-stream" );
		MHD_add_response_header( response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store" );
		MHD_add_response_header( response, "X-Content-Type-Options", "nosniff" );
		snprintf( value, sizeof( value ), "%d", from );
		MHD_add_response_header( response, "X-Cairn-From", value );
		snprintf( value, sizeof( value ), "%d", count );
		MHD_add_response_header( response, "X-Cairn-Count", value );
		snprintf( value, sizeof( value ), "%d", stride );
		MHD_add_response_header( response, "X-Cairn-Stride", value );
		snprintf( value, sizeof( value ), "%d", frameCount );
		MHD_add_response_header( response, "X-Cairn-Frame-Count", value );
		MHD_add_response_header( response, "X-Cairn-Complete", complete ? "1" : "0" );
		enum MHD_Result result = MHD_queue_response( connection, MHD_HTTP_OK, response );
		MHD_destroy_response( response );
		return result;
	}
	cliViewText text = { 0 };
	cliViewText_Printf( &text, "{\"from\":%d,\"count\":%d,\"stride\":%d,\"frameCount\":%d,\"complete\":%s,\"frames\":[",
						from, count, stride, frameCount, complete ? "true" : "false" );
	for ( int f = 0; f < count; ++f )
	{
		const double* frame = frames + (size_t)f * (size_t)stride;
		cliViewText_Puts( &text, f > 0 ? ",[" : "[" );
		for ( int i = 0; i < stride; ++i )
		{
			if ( i > 0 )
			{
				cliViewText_Append( &text, ",", 1 );
			}
			cliViewText_Number( &text, frame[i] );
		}
		cliViewText_Puts( &text, "]" );
	}
	cliViewText_Puts( &text, "]}\n" );
	free( frames );
	return cliViewServer_SendJson( connection, &text );
}

// Reads the run a request asks for (run=I, default 0) into *source; false when it names none.
static bool cliViewServer_Run( cliViewServer* server, struct MHD_Connection* connection, cliViewSource** source )
{
	int run = 0;
	if ( cliViewServer_QueryInt( connection, "run", 0, &run ) == false || run >= server->runCount )
	{
		return false;
	}
	*source = server->sources + run;
	return true;
}

// /api/quantities: per frame [t, kinetic, potential, total, px, py, pz, Lx, Ly, Lz] (J, kg m/s,
// kg m^2/s about the world origin) as the simulation measured them. A recording holds poses only: it says so instead.
static enum MHD_Result cliViewServer_Quantities( cliViewSource* source, struct MHD_Connection* connection )
{
	int from = 0, count = 0;
	if ( cliViewServer_QueryInt( connection, "from", 0, &from ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "from: expected a frame number from 0 to 2147483647" );
	}
	if ( cliViewServer_QueryInt( connection, "count", INT_MAX, &count ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "count: expected a number from 0 to 2147483647" );
	}
	cliViewText text = { 0 };
	if ( source->simulated == false )
	{
		cliViewText_Puts( &text, "{\"available\":false,\"reason\":\"not available for recordings: they hold poses, "
								 "not masses or velocities\"}\n" );
		return cliViewServer_SendJson( connection, &text );
	}
	// bounded as /api/frames is: 10 numbers a frame
	const int numbers = 2 + CLI_VIEW_QUANTITY_COUNT;
	count = count < CLI_VIEW_MAX_FRAME_NUMBERS / numbers ? count : CLI_VIEW_MAX_FRAME_NUMBERS / numbers;
	bool complete = false;
	int frameCount = cliViewSource_GetFrameCount( source, &complete, NULL, 0 );
	int available = from < frameCount ? frameCount - from : 0;
	count = count < available ? count : available;
	double* q = malloc( sizeof( double ) * CLI_VIEW_QUANTITY_COUNT * (size_t)( count > 0 ? count : 1 ) );
	double* frames = malloc( sizeof( double ) * (size_t)source->stride * (size_t)( count > 0 ? count : 1 ) );
	if ( q == NULL || frames == NULL )
	{
		free( q );
		free( frames );
		return cliViewServer_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory" );
	}
	count = count > 0 ? cliViewSource_CopyQuantities( source, from, count, q ) : 0;
	count = count > 0 ? cliViewSource_CopyFrames( source, from, count, frames ) : 0;
	cliViewText_Printf( &text, "{\"available\":true,\"from\":%d,\"count\":%d,\"frameCount\":%d,\"complete\":%s,"
							   "\"quantities\":[",
						from, count, frameCount, complete ? "true" : "false" );
	for ( int f = 0; f < count; ++f )
	{
		const double* v = q + (size_t)f * CLI_VIEW_QUANTITY_COUNT;
		double row[2 + CLI_VIEW_QUANTITY_COUNT] = { frames[(size_t)f * (size_t)source->stride], v[0], v[1], v[0] + v[1],
													v[2], v[3], v[4], v[5], v[6], v[7] };
		cliViewText_Puts( &text, f > 0 ? ",[" : "[" );
		for ( int i = 0; i < numbers; ++i )
		{
			cliViewText_Puts( &text, i > 0 ? "," : "" );
			cliViewText_Number( &text, row[i] );
		}
		cliViewText_Puts( &text, "]" );
	}
	cliViewText_Puts( &text, "]}\n" );
	free( q );
	free( frames );
	return cliViewServer_SendJson( connection, &text );
}

// /api/contacts?frame=F: the points of the touching manifolds at frame F, [x, y, z, nx, ny, nz,
// separation, normal impulse] each (the normal from shape A to shape B).
static enum MHD_Result cliViewServer_Contacts( cliViewSource* source, struct MHD_Connection* connection )
{
	int frame = 0;
	if ( MHD_lookup_connection_value( connection, MHD_GET_ARGUMENT_KIND, "frame" ) == NULL ||
		 cliViewServer_QueryInt( connection, "frame", 0, &frame ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "frame: expected a frame number from 0 to 2147483647" );
	}
	cliViewText text = { 0 };
	if ( source->simulated == false )
	{
		cliViewText_Puts( &text, "{\"available\":false,\"reason\":\"not available for recordings: they hold poses, "
								 "not contacts\"}\n" );
		return cliViewServer_SendJson( connection, &text );
	}
	bool complete = false;
	int frameCount = cliViewSource_GetFrameCount( source, &complete, NULL, 0 );
	if ( frame >= frameCount )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "frame: past the frames simulated so far" );
	}
	int count = 0;
	bool ok = true;
	double* points = cliViewSource_CopyContacts( source, frame, &count, &ok );
	if ( ok == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory" );
	}
	cliViewText_Printf( &text, "{\"available\":true,\"frame\":%d,\"points\":[", frame );
	for ( int k = 0; k < count; ++k )
	{
		cliViewText_Puts( &text, k > 0 ? ",[" : "[" );
		for ( int i = 0; i < CLI_VIEW_CONTACT_NUMBERS; ++i )
		{
			cliViewText_Puts( &text, i > 0 ? "," : "" );
			cliViewText_Number( &text, points[(size_t)k * CLI_VIEW_CONTACT_NUMBERS + (size_t)i] );
		}
		cliViewText_Puts( &text, "]" );
	}
	cliViewText_Puts( &text, "]}\n" );
	free( points );
	return cliViewServer_SendJson( connection, &text );
}

// what the request-target check (cliViewServer_SeeTarget) found, as the request's context
static char s_targetTooLong;
static char s_targetHasNul;

// Sees each request's target as it came, before it is split and percent-decoded: a decoded "%00"
// would end the path early ("/viewer.js%00.html" would read as "/viewer.js"), and a long query
// would not show in the path. Its answer becomes the request's context.
static void* cliViewServer_SeeTarget( void* context, const char* target, struct MHD_Connection* connection )
{
	(void)context;
	(void)connection;
	if ( strnlen( target, CLI_VIEW_MAX_URL + 1 ) > CLI_VIEW_MAX_URL )
	{
		return &s_targetTooLong;
	}
	if ( strstr( target, "%00" ) != NULL )
	{
		return &s_targetHasNul;
	}
	return NULL;
}

// Frees what a request kept (the body of a POST, view_edit.c); the target check's marks are static.
static void cliViewServer_Completed( void* context, struct MHD_Connection* connection, void** requestContext,
									 enum MHD_RequestTerminationCode code )
{
	(void)context;
	(void)connection;
	(void)code;
	if ( *requestContext != NULL && *requestContext != &s_targetTooLong && *requestContext != &s_targetHasNul )
	{
		cliViewEdit_Completed( *requestContext );
	}
	*requestContext = NULL;
}

// Whether the Host header names this server: a page of another site that got its name resolved
// to 127.0.0.1 (DNS rebinding) sends its own name and is refused.
static bool cliViewServer_HostAllowed( const cliViewServer* server, struct MHD_Connection* connection )
{
	if ( server->checkHost == false )
	{
		return true;
	}
	const char* host = MHD_lookup_connection_value( connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST );
	if ( host == NULL )
	{
		// HTTP/1.0 clients may send none (HTTP/1.1 ones must: cliViewServer_Answer); browsers always do
		return true;
	}
	for ( int i = 0; i < 4; ++i )
	{
		if ( strcasecmp( host, server->hostNames[i] ) == 0 )
		{
			return true;
		}
	}
	return false;
}

static enum MHD_Result cliViewServer_Route( cliViewServer* server, cliViewSource* source,
											struct MHD_Connection* connection, const char* url, const char* method,
											const char* uploadData, size_t* uploadSize, void** requestContext,
											bool edit );

// The editor's apply (view_scene_edit.c), with the swap lock held for writing: the source is made
// anew from the edited scene and simulated from its t = 0, and /api/scene describes it from then on.
// On failure before the old source is closed nothing has changed.
static bool cliViewServer_Apply( void* context, cnScene* scene, char* error, size_t errorSize )
{
	cliViewServer* server = context;
	cliViewSource fresh;
	if ( cliViewSource_OpenScene( &fresh, scene, error, errorSize ) == false )
	{
		cliViewSource_Close( &fresh );
		return false;
	}
	cliViewText text = { 0 };
	cliViewJson_Scene( &text, &fresh );
	cliViewJson_Runs( &text, &fresh, 1 );
	cliViewJson_Centers( &text, &fresh );
	size_t size = 0;
	char* json = cliViewText_Take( &text, &size );
	if ( json == NULL )
	{
		cliViewSource_Close( &fresh );
		snprintf( error, errorSize, "out of memory" );
		return false;
	}
	cliViewSource_Replace( server->source, &fresh );
	free( server->sceneJson );
	server->sceneJson = json;
	server->sceneJsonSize = size;
	server->sceneVersion = server->source->bodySetVersion;
	if ( cliViewSource_Start( server->source ) == false )
	{
		snprintf( error, errorSize, "the scene was applied but its simulation thread cannot start" );
		return false;
	}
	return true;
}

static enum MHD_Result cliViewServer_Answer( void* context, struct MHD_Connection* connection, const char* url,
											 const char* method, const char* version, const char* uploadData,
											 size_t* uploadSize, void** requestContext )
{
	cliViewServer* server = context;
	// every answer is queued at the first call, before any request body is read: a body is never
	// wanted, and libmicrohttpd closes the connection instead of reading one after the answer
	// (but the sync points and cuts, view_edit.c, which read a small JSON body)
	bool edit = cliViewEdit_Handles( url );
	bool sceneEdit = cliViewSceneEdit_Handles( url );
	if ( strcmp( method, MHD_HTTP_METHOD_GET ) != 0 && strcmp( method, MHD_HTTP_METHOD_HEAD ) != 0 &&
		 ( ( edit == false && sceneEdit == false ) || strcmp( method, MHD_HTTP_METHOD_POST ) != 0 ) )
	{
		return cliViewServer_Error( connection, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD are served" );
	}
	if ( strcmp( version, MHD_HTTP_VERSION_1_1 ) == 0 &&
		 MHD_lookup_connection_value( connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST ) == NULL )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "an HTTP/1.1 request needs a Host header" );
	}
	if ( atomic_load_explicit( &server->ready, memory_order_acquire ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_SERVICE_UNAVAILABLE, "the viewer is starting" );
	}
	if ( cliViewServer_HostAllowed( server, connection ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_FORBIDDEN, "unknown Host" );
	}
	size_t length = strnlen( url, CLI_VIEW_MAX_URL + 1 );
	if ( *requestContext == &s_targetTooLong || length > CLI_VIEW_MAX_URL )
	{
		return cliViewServer_Error( connection, MHD_HTTP_URI_TOO_LONG, "the request target is too long" );
	}
	if ( *requestContext == &s_targetHasNul )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "bad path" );
	}
	// the path arrives percent-decoded: "%2e%2e" and "..%2f" are caught here too
	if ( url[0] != '/' || strstr( url, ".." ) != NULL || strchr( url, '\\' ) != NULL )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "bad path" );
	}
	cliViewSource* source = server->source;
	if ( strncmp( url, "/api/", 5 ) == 0 && cliViewServer_Run( server, connection, &source ) == false )
	{
		char message[96];
		snprintf( message, sizeof( message ), "run: expected a run from 0 to %d", server->runCount - 1 );
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, message );
	}
	if ( sceneEdit )
	{
		if ( server->runCount > 1 )
		{
			return cliViewServer_Error( connection, MHD_HTTP_CONFLICT, "the editor is not available with --compare" );
		}
		// only applying a scene replaces the source; checking and saving one read nothing of it
		bool apply = strcmp( url, "/api/editor/apply" ) == 0;
		if ( apply )
		{
			pthread_rwlock_wrlock( &server->swap );
		}
		else
		{
			pthread_rwlock_rdlock( &server->swap );
		}
		enum MHD_Result result = cliViewSceneEdit_Answer( source, connection, url, method, uploadData, uploadSize,
														  requestContext, cliViewServer_Apply, server );
		pthread_rwlock_unlock( &server->swap );
		return result;
	}
	// everything below reads the source (or sceneJson), which the editor's apply may replace
	pthread_rwlock_rdlock( &server->swap );
	enum MHD_Result result = cliViewServer_Route( server, source, connection, url, method, uploadData, uploadSize,
												  requestContext, edit );
	pthread_rwlock_unlock( &server->swap );
	return result;
}

// Writes a JSON member "key":[x,y,z].
static void cliViewServer_Vector( cliViewText* text, const char* key, const double* v )
{
	cliViewText_Printf( text, ",\"%s\":[", key );
	for ( int i = 0; i < 3; ++i )
	{
		cliViewText_Puts( text, i > 0 ? "," : "" );
		cliViewText_Number( text, v[i] );
	}
	cliViewText_Puts( text, "]" );
}

// Writes a JSON member "key":value.
static void cliViewServer_Member( cliViewText* text, const char* key, double value )
{
	cliViewText_Printf( text, ",\"%s\":", key );
	cliViewText_Number( text, value );
}

// /api/body?index=I&frame=F: body I at frame F as the simulation had it: mass, the centre of mass's
// velocity, the angular velocity, the kinetic (translational and rotational), potential and
// total energy, and the angular momentum about the centre of mass and about the world origin. Both keys are required; a body or frame that is not there is a 400. A recording
// holds poses only: it says so instead.
static enum MHD_Result cliViewServer_Body( cliViewSource* source, struct MHD_Connection* connection )
{
	int index = 0, frame = 0;
	if ( MHD_lookup_connection_value( connection, MHD_GET_ARGUMENT_KIND, "index" ) == NULL ||
		 cliViewServer_QueryInt( connection, "index", 0, &index ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "index: expected a body number from 0 to 2147483647" );
	}
	if ( MHD_lookup_connection_value( connection, MHD_GET_ARGUMENT_KIND, "frame" ) == NULL ||
		 cliViewServer_QueryInt( connection, "frame", 0, &frame ) == false )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "frame: expected a frame number from 0 to 2147483647" );
	}
	int bodyCount = cnRecording_GetBodyCount( source->description );
	if ( index >= bodyCount )
	{
		char message[96];
		snprintf( message, sizeof( message ), "index: expected a body from 0 to %d", bodyCount - 1 );
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, message );
	}
	bool complete = false;
	int frameCount = cliViewSource_GetFrameCount( source, &complete, NULL, 0 );
	if ( frame >= frameCount )
	{
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "frame: past the frames there are so far" );
	}
	cliViewText text = { 0 };
	if ( source->simulated == false )
	{
		cliViewText_Puts( &text, "{\"available\":false,\"reason\":\"not available for recordings: they hold poses, "
								 "not masses or velocities\"}\n" );
		return cliViewServer_SendJson( connection, &text );
	}
	double b[CLI_VIEW_BODY_NUMBERS];
	if ( cliViewSource_CopyBodyState( source, frame, index, b ) == false )
	{
		// a cut dropped the frame between the two reads
		return cliViewServer_Error( connection, MHD_HTTP_BAD_REQUEST, "frame: past the frames there are so far" );
	}
	double mass = b[8];
	double speed = sqrt( b[0] * b[0] + b[1] * b[1] + b[2] * b[2] );
	double translational = 0.5 * mass * speed * speed;
	cliViewText_Printf( &text, "{\"available\":true,\"index\":%d,\"frame\":%d,\"name\":", index, frame );
	cliViewText_String( &text, cnRecording_GetBodyName( source->description, index ) );
	cliViewServer_Member( &text, "mass", mass );
	cliViewServer_Vector( &text, "velocity", b );
	cliViewServer_Member( &text, "speed", speed );
	cliViewServer_Vector( &text, "angularVelocity", b + 3 );
	cliViewServer_Member( &text, "kinetic", b[6] );
	cliViewServer_Member( &text, "translational", translational );
	cliViewServer_Member( &text, "rotational", b[6] - translational );
	cliViewServer_Member( &text, "potential", b[7] );
	cliViewServer_Member( &text, "total", b[6] + b[7] );
	cliViewServer_Vector( &text, "angularMomentum", b + 9 );
	cliViewServer_Vector( &text, "angularMomentumOrigin", b + 12 );
	cliViewText_Puts( &text, "}\n" );
	return cliViewServer_SendJson( connection, &text );
}

// Answers a request that passed the checks of cliViewServer_Answer (under the swap lock).
static enum MHD_Result cliViewServer_Route( cliViewServer* server, cliViewSource* source,
											struct MHD_Connection* connection, const char* url, const char* method,
											const char* uploadData, size_t* uploadSize, void** requestContext,
											bool edit )
{
	if ( edit )
	{
		return cliViewEdit_Answer( server->sources, server->runCount, (int)( source - server->sources ), connection, url,
								   method, uploadData, uploadSize, requestContext );
	}
	if ( strcmp( url, "/api/frames" ) == 0 )
	{
		return cliViewServer_Frames( source, connection );
	}
	if ( strcmp( url, "/api/quantities" ) == 0 )
	{
		return cliViewServer_Quantities( source, connection );
	}
	if ( strcmp( url, "/api/contacts" ) == 0 )
	{
		return cliViewServer_Contacts( source, connection );
	}
	if ( strcmp( url, "/api/body" ) == 0 )
	{
		return cliViewServer_Body( source, connection );
	}
	if ( strcmp( url, "/api/scene" ) == 0 || strcmp( url, "/api/status" ) == 0 )
	{
		bool scene = strcmp( url, "/api/scene" ) == 0;
		cliViewText text = { 0 };
		cliViewText_Puts( &text, "{" );
		if ( scene )
		{
			pthread_mutex_lock( &server->sceneLock );
			if ( server->sceneVersion != source->bodySetVersion )
			{
				cliViewText fresh = { 0 };
				cliViewJson_Scene( &fresh, source );
				cliViewJson_Runs( &fresh, server->sources, server->runCount );
				cliViewJson_Centers( &fresh, source );
				size_t size = 0;
				char* json = cliViewText_Take( &fresh, &size );
				if ( json != NULL )
				{
					free( server->sceneJson );
					server->sceneJson = json;
					server->sceneJsonSize = size;
					server->sceneVersion = source->bodySetVersion;
				}
			}
			cliViewText_Append( &text, server->sceneJson, server->sceneJsonSize );
			pthread_mutex_unlock( &server->sceneLock );
			cliViewText_Puts( &text, "," );
		}
		cliViewServer_AppendStatus( &text, source );
		cliViewText_Puts( &text, "}\n" );
		return cliViewServer_SendJson( connection, &text );
	}
	const char* path = strcmp( url, "/" ) == 0 ? "/index.html" : url;
	for ( int i = 0; i < cliViewAssetCount; ++i )
	{
		const cliViewAsset* asset = cliViewAssets + i;
		if ( strcmp( path, asset->path ) == 0 )
		{
			bool page = strncmp( asset->type, "text/html", 9 ) == 0;
			return cliViewServer_Send( connection, MHD_HTTP_OK, asset->type, asset->data, asset->size,
									   MHD_RESPMEM_PERSISTENT, page );
		}
	}
	return cliViewServer_Error( connection, MHD_HTTP_NOT_FOUND, "not found" );
}

// ---------------------------------------------------------------------------------------------
// start and stop

bool cliViewServer_IsLoopback( const char* host )
{
	if ( strcasecmp( host, "localhost" ) == 0 )
	{
		return true;
	}
	struct in_addr v4;
	struct in6_addr v6;
	if ( inet_pton( AF_INET, host, &v4 ) == 1 )
	{
		return ( ntohl( v4.s_addr ) >> 24 ) == 127;
	}
	if ( inet_pton( AF_INET6, host, &v6 ) == 1 )
	{
		return IN6_IS_ADDR_LOOPBACK( &v6 );
	}
	return false;
}

cliViewServer* cliViewServer_Start( cliViewSource* source, const char* host, int port, char* error, size_t errorSize )
{
	return cliViewServer_StartRuns( source, 1, host, port, error, errorSize );
}

cliViewServer* cliViewServer_StartRuns( cliViewSource* sources, int runCount, const char* host, int port, char* error,
										size_t errorSize )
{
	cliViewSource* source = sources;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
	memset( &v4, 0, sizeof( v4 ) );
	memset( &v6, 0, sizeof( v6 ) );
	const struct sockaddr* address = NULL;
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD;
	const char* numeric = strcasecmp( host, "localhost" ) == 0 ? "127.0.0.1" : host;
	if ( inet_pton( AF_INET, numeric, &v4.sin_addr ) == 1 )
	{
		v4.sin_family = AF_INET;
		v4.sin_port = htons( (uint16_t)port );
		address = (const struct sockaddr*)&v4;
	}
	else if ( inet_pton( AF_INET6, numeric, &v6.sin6_addr ) == 1 )
	{
		v6.sin6_family = AF_INET6;
		v6.sin6_port = htons( (uint16_t)port );
		address = (const struct sockaddr*)&v6;
		flags |= MHD_USE_IPv6;
	}
	else
	{
		snprintf( error, errorSize, "--host %s: expected an IPv4 or IPv6 address, or localhost", host );
		return NULL;
	}

	cliViewServer* server = calloc( 1, sizeof( cliViewServer ) );
	if ( server == NULL )
	{
		snprintf( error, errorSize, "out of memory" );
		return NULL;
	}
	server->source = source;
	server->sources = sources;
	server->runCount = runCount;
	pthread_rwlock_init( &server->swap, NULL );
	pthread_mutex_init( &server->sceneLock, NULL );
	cliViewText text = { 0 };
	cliViewJson_Scene( &text, source );
	cliViewJson_Runs( &text, sources, runCount );
	cliViewJson_Centers( &text, source );
	server->sceneJson = cliViewText_Take( &text, &server->sceneJsonSize );
	if ( server->sceneJson == NULL )
	{
		snprintf( error, errorSize, "out of memory" );
		pthread_rwlock_destroy( &server->swap );
		pthread_mutex_destroy( &server->sceneLock );
		free( server );
		return NULL;
	}

	server->daemon = MHD_start_daemon(
		flags, (uint16_t)port, NULL, NULL, cliViewServer_Answer, server, MHD_OPTION_SOCK_ADDR, address,
		// a few threads answer everyone; answers are built in memory, so none waits on another
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)4, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)CLI_VIEW_MAX_CONNECTIONS,
		// request line and headers must fit in this much per connection (else 414 or 431)
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
		// a client that stops talking is dropped
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30, MHD_OPTION_URI_LOG_CALLBACK, cliViewServer_SeeTarget, NULL,
		// frees the body a POST kept (view_edit.c)
		MHD_OPTION_NOTIFY_COMPLETED, cliViewServer_Completed, NULL,
		MHD_OPTION_END );
	if ( server->daemon == NULL )
	{
		snprintf( error, errorSize, "cannot listen on %s port %d: %s", host, port,
				  errno != 0 ? strerror( errno ) : "the address is in use or not this machine's" );
		free( server->sceneJson );
		pthread_rwlock_destroy( &server->swap );
		pthread_mutex_destroy( &server->sceneLock );
		free( server );
		return NULL;
	}
	const union MHD_DaemonInfo* info = MHD_get_daemon_info( server->daemon, MHD_DAEMON_INFO_BIND_PORT );
	server->port = info != NULL ? (int)info->port : port;
	server->checkHost = cliViewServer_IsLoopback( host );
	snprintf( server->hostNames[0], sizeof( server->hostNames[0] ), "127.0.0.1:%d", server->port );
	snprintf( server->hostNames[1], sizeof( server->hostNames[1] ), "localhost:%d", server->port );
	snprintf( server->hostNames[2], sizeof( server->hostNames[2] ), "[::1]:%d", server->port );
	// the address given with --host (another loopback address than 127.0.0.1)
	bool bracket = address->sa_family == AF_INET6;
	snprintf( server->hostNames[3], sizeof( server->hostNames[3] ), "%s%.40s%s:%d", bracket ? "[" : "", numeric,
			  bracket ? "]" : "", server->port );
	atomic_store_explicit( &server->ready, true, memory_order_release );
	return server;
}

int cliViewServer_GetPort( const cliViewServer* server )
{
	return server->port;
}

void cliViewServer_Stop( cliViewServer* server )
{
	if ( server == NULL )
	{
		return;
	}
	MHD_stop_daemon( server->daemon );
	free( server->sceneJson );
	pthread_rwlock_destroy( &server->swap );
	pthread_mutex_destroy( &server->sceneLock );
	free( server );
}
