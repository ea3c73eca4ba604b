// SPDX-License-Identifier: MIT
// Sync points, cuts and saving the edited history of a simulated scene (view_edit.h).
//
// A cut at frame f: the world at f is made again from the latest snapshot at or before f, stepped on
// by the scene's own run loop (deterministic, so it is the world that made frame f; checked against
// the cached frame), the edits are applied to it through the public API, and only when they all
// succeed is the running simulation stopped, the frames from f on dropped, and the run started
// again from the edited world. Until then nothing has changed, so a failed edit is a 400 and the
// history is as it was.
#define _POSIX_C_SOURCE 200809L

#include "view_edit.h"

#include "view_compare.h"
#include "view_history.h"
#include "view_text.h"

#include "cairn/recording.h"
#include "cairn/scene.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// cuts come one at a time: each stops and restarts the simulation thread
static pthread_mutex_t s_cutLock = PTHREAD_MUTEX_INITIALIZER;

// The body of a POST read so far.
typedef struct cliViewBody
{
	char* data;
	size_t size;
	bool tooLarge;
} cliViewBody;

bool cliViewEdit_Handles( const char* url )
{
	return strcmp( url, "/api/sync" ) == 0 || strcmp( url, "/api/cut" ) == 0 || strcmp( url, "/api/save/scene" ) == 0 ||
		   strcmp( url, "/api/save/recording" ) == 0;
}

void cliViewEdit_Completed( void* requestContext )
{
	cliViewBody* body = requestContext;
	if ( body != NULL )
	{
		free( body->data );
		free( body );
	}
}

int cliViewEdit_ReadBody( struct MHD_Connection* connection, const char* uploadData, size_t* uploadSize,
						  void** requestContext, size_t maxBytes, const char** data, size_t* size )
{
	cliViewBody* body = *requestContext;
	if ( body == NULL )
	{
		// a Content-Length over the cap is refused before a byte is read
		const char* length = MHD_lookup_connection_value( connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH );
		if ( length != NULL && ( strlen( length ) > 9 || strtol( length, NULL, 10 ) > (long)maxBytes ) )
		{
			return -1;
		}
		body = calloc( 1, sizeof( cliViewBody ) );
		if ( body == NULL )
		{
			return -2;
		}
		*requestContext = body;
		return 0;
	}
	if ( *uploadSize > 0 )
	{
		if ( body->tooLarge == false && body->size + *uploadSize <= maxBytes )
		{
			char* grown = realloc( body->data, body->size + *uploadSize + 1 );
			if ( grown == NULL )
			{
				return -2;
			}
			memcpy( grown + body->size, uploadData, *uploadSize );
			body->data = grown;
			body->size += *uploadSize;
			body->data[body->size] = 0;
		}
		else
		{
			// (read on to the end, so the answer is a 413 rather than a dropped connection)
			body->tooLarge = true;
		}
		*uploadSize = 0;
		return 0;
	}
	if ( body->tooLarge )
	{
		return -1;
	}
	*data = body->data;
	*size = body->size;
	return 1;
}

// ---------------------------------------------------------------------------------------------
// answers

static enum MHD_Result cliViewEdit_Send( struct MHD_Connection* connection, unsigned int status, const char* type,
										 void* data, size_t size, const char* fileName )
{
	struct MHD_Response* response = MHD_create_response_from_buffer( size, data, MHD_RESPMEM_MUST_FREE );
	if ( response == NULL )
	{
		free( data );
		return MHD_NO;
	}
	MHD_add_response_header( response, MHD_HTTP_HEADER_CONTENT_TYPE, type );
	MHD_add_response_header( response, "X-Content-Type-Options", "nosniff" );
	MHD_add_response_header( response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store" );
	if ( fileName != NULL )
	{
		char disposition[300];
		snprintf( disposition, sizeof( disposition ), "attachment; filename=\"%s\"", fileName );
		MHD_add_response_header( response, "Content-Disposition", disposition );
	}
	enum MHD_Result result = MHD_queue_response( connection, status, response );
	MHD_destroy_response( response );
	return result;
}

static enum MHD_Result cliViewEdit_Json( struct MHD_Connection* connection, unsigned int status, cliViewText* text )
{
	size_t size = 0;
	char* data = cliViewText_Take( text, &size );
	if ( data == NULL )
	{
		return MHD_NO;
	}
	return cliViewEdit_Send( connection, status, "application/json", data, size, NULL );
}

static enum MHD_Result cliViewEdit_Error( struct MHD_Connection* connection, unsigned int status, const char* message )
{
	cliViewText text = { 0 };
	cliViewText_Puts( &text, "{\"error\":" );
	cliViewText_String( &text, message );
	cliViewText_Puts( &text, "}\n" );
	return cliViewEdit_Json( connection, status, &text );
}

// {"syncPoints": [...], "cutFrame": f or -1, "cuts": n, "bodyCount": n, "bodySet": v,
//  "snapshotFailures": n, "snapshotError": "..." (the last failure's reason, "" when none)}
static enum MHD_Result cliViewEdit_SyncList( cliViewSource* source, struct MHD_Connection* connection )
{
	cliViewText text = { 0 };
	pthread_mutex_lock( &source->lock );
	cliViewText_Puts( &text, "{\"syncPoints\":[" );
	for ( int i = 0; i < source->history.syncCount; ++i )
	{
		cliViewText_Printf( &text, "%s%d", i > 0 ? "," : "", source->history.syncPoints[i] );
	}
	cliViewText_Printf( &text, "],\"cutFrame\":%d,\"cuts\":%d,\"bodyCount\":%d,\"bodySet\":%d,\"snapshotFailures\":%d,",
						source->history.cutFrame, source->history.cutCount, ( source->stride - 1 ) / 7,
						source->bodySetVersion, source->history.snapshotFailures );
	cliViewText_Puts( &text, "\"snapshotError\":" );
	cliViewText_String( &text, source->history.snapshotError );
	cliViewText_Puts( &text, "}\n" );
	pthread_mutex_unlock( &source->lock );
	return cliViewEdit_Json( connection, MHD_HTTP_OK, &text );
}

// ---------------------------------------------------------------------------------------------
// the world at a frame

// Stops cnRun once the frame `stop` has been written (the world is then exactly that frame's).
typedef struct cliViewRestep
{
	int frame;
	int stop;
} cliViewRestep;

static bool cliViewEdit_CountFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	(void)world;
	(void)frame;
	cliViewRestep* r = context;
	if ( r->frame++ == r->stop )
	{
		cnSetError( cnError_cancelled, "reached the frame" );
		return false;
	}
	return true;
}

// The world of frame `frame`, made from its snapshot; NULL with message set.
static cnWorld* cliViewEdit_WorldAt( cliViewSource* source, int frame, char* message, size_t messageSize )
{
	pthread_mutex_lock( &source->lock );
	const cliViewSnapshot* s = cliViewHistory_Find( &source->history, frame );
	void* copy = s != NULL ? malloc( s->size ) : NULL;
	size_t size = s != NULL ? s->size : 0;
	int start = s != NULL ? s->frame : -1;
	if ( copy != NULL )
	{
		memcpy( copy, s->data, size );
	}
	pthread_mutex_unlock( &source->lock );
	if ( copy == NULL )
	{
		snprintf( message, messageSize, "no snapshot at or before frame %d", frame );
		return NULL;
	}
	cnWorld* world = cnWorld_Load( copy, size );
	free( copy );
	if ( world == NULL )
	{
		snprintf( message, messageSize, "cannot load the snapshot of frame %d: %s", start, cnGetError() );
		return NULL;
	}
	if ( start < frame )
	{
		// the scene's run from the snapshot on, as the simulation thread ran it
		cliViewRestep restep = { start, frame };
		cnFrameWriter writer = { cliViewEdit_CountFrame, NULL, &restep };
		cnRunDef def = cnScene_GetRunDef( source->scene );
		def.writers = &writer;
		def.writerCount = 1;
		cnRun( world, &def );
		if ( restep.frame != frame + 1 )
		{
			snprintf( message, messageSize, "cannot step to frame %d: %s", frame, cnGetError() );
			cnDestroyWorld( world );
			return NULL;
		}
	}
	return world;
}

// True when the world's poses are the cached frame's bit for bit: the world made again is the one
// that made the frame, as the run is deterministic (a body that does not exist in it is not drawn
// in the frame: a zero quaternion).
static bool cliViewEdit_MatchesFrame( cliViewSource* source, const cnWorld* world, int frame )
{
	int bodyCount = ( source->stride - 1 ) / 7;
	double* cached = malloc( (size_t)source->stride * sizeof( double ) );
	bool same = cached != NULL && cliViewSource_CopyFrames( source, frame, 1, cached ) == 1;
	for ( int i = 0; same && i < bodyCount; ++i )
	{
		const double* pose = cached + 1 + 7 * i;
		if ( cnBody_IsValid( world, source->bodies[i] ) == false )
		{
			same = pose[3] == 0.0 && pose[4] == 0.0 && pose[5] == 0.0 && pose[6] == 0.0;
			continue;
		}
		cnTransform xf = cnBody_GetTransform( world, source->bodies[i] );
		same = pose[0] == xf.p.x && pose[1] == xf.p.y && pose[2] == xf.p.z && pose[3] == xf.q.w && pose[4] == xf.q.x &&
			   pose[5] == xf.q.y && pose[6] == xf.q.z;
	}
	free( cached );
	return same;
}

// ---------------------------------------------------------------------------------------------
// edits

static bool cliViewEdit_Fail( char* message, size_t size, int index, const char* what )
{
	snprintf( message, size, "edits[%d]: %s", index, what );
	return false;
}

static bool cliViewEdit_Vec( const cJSON* obj, const char* key, cnVec3* out )
{
	const cJSON* a = cJSON_GetObjectItemCaseSensitive( obj, key );
	if ( cJSON_IsArray( a ) == false || cJSON_GetArraySize( a ) != 3 )
	{
		return false;
	}
	double v[3];
	for ( int i = 0; i < 3; ++i )
	{
		const cJSON* x = cJSON_GetArrayItem( a, i );
		if ( cJSON_IsNumber( x ) == false || isfinite( x->valuedouble ) == false )
		{
			return false;
		}
		v[i] = x->valuedouble;
	}
	*out = cnV3( v[0], v[1], v[2] );
	return true;
}

// the body an edit names: {"body": "name"} or {"body": index}
static cnBodyId cliViewEdit_Body( cnWorld* world, const cJSON* edit )
{
	const cJSON* b = cJSON_GetObjectItemCaseSensitive( edit, "body" );
	int count = cnWorld_GetBodyCount( world );
	if ( cJSON_IsNumber( b ) && b->valuedouble >= 0 && b->valuedouble < count && b->valuedouble == floor( b->valuedouble ) )
	{
		return cnWorld_GetBody( world, (int)b->valuedouble );
	}
	if ( cJSON_IsString( b ) )
	{
		return cnWorld_FindBody( world, b->valuestring );
	}
	return cnBodyId_null;
}

// A library call's failure as the edit's message.
static bool cliViewEdit_Library( char* message, size_t size, int index, const char* op )
{
	snprintf( message, size, "edits[%d] (%s): %s", index, op, cnGetError() );
	return false;
}

// Whether a parsed value has a "file" key anywhere (cJSON bounds the nesting, so the recursion is
// bounded too): the server reads no file the network names.
static bool cliViewEdit_NamesFile( const cJSON* item )
{
	for ( const cJSON* child = item != NULL ? item->child : NULL; child != NULL; child = child->next )
	{
		if ( ( cJSON_IsObject( item ) && child->string != NULL && strcmp( child->string, "file" ) == 0 ) ||
			 cliViewEdit_NamesFile( child ) )
		{
			return true;
		}
	}
	return false;
}

// The material of `from` (a shape's, in another world) in world: the one of the same name, else a
// new one with its def; -1 when it cannot be made.
static cnMaterialId cliViewEdit_Material( cnWorld* world, const cnWorld* from, cnMaterialId id )
{
	cnMaterialDef def = cnMaterial_GetDef( from, id );
	if ( def.name != NULL && def.name[0] != 0 )
	{
		cnMaterialId same = cnWorld_FindMaterial( world, def.name );
		if ( same >= 0 )
		{
			return same;
		}
	}
	return cnCreateMaterial( world, &def );
}

// The forces and torques the loader gave body `source` of the checked world `from`, made on body `id`
// of the world at the cut, in their order. The checked scene's t = 0 is the cut, so their windows
// are shifted by the world's time; a target body is the one at the same place in the world's live
// bodies (the scene the world wrote lists them in that order; the added body is the last).
static bool cliViewEdit_AddForces( cnWorld* world, const cnWorld* from, cnBodyId source, cnBodyId id )
{
	double now = cnWorld_GetTime( world );
	int count = cnWorld_GetForceCount( from );
	bool ok = true;
	for ( int i = 0; ok && i < count; ++i )
	{
		cnForceDef def = cnForce_GetDef( from, cnWorld_GetForce( from, i ) );
		if ( def.body.index != source.index || def.body.generation != source.generation )
		{
			continue;
		}
		def.body = id;
		if ( cnBody_IsValid( from, def.target ) )
		{
			int at = 0;
			while ( cnWorld_GetBody( from, at ).index != def.target.index )
			{
				++at;
			}
			def.target = def.target.index == source.index ? id : cnWorld_GetBody( world, at );
		}
		def.t0 += now;
		def.t1 += now;
		ok = cnForce_IsValid( world, cnCreateForce( world, &def ) );
	}
	return ok;
}

// {"op": "add", "body": {...}}: the body, in the scene format, is checked by the scene loader itself
// in the scene the world at the cut writes (so its materials and the other bodies' names are known),
// then made in the world with the shapes, materials, mass, forces and torques the loader gave it.
static bool cliViewEdit_Add( const cnScene* scene, cnWorld* world, const cJSON* edit, int index, char* message,
							 size_t size, cnBodyId* added )
{
	const cJSON* body = cJSON_GetObjectItemCaseSensitive( edit, "body" );
	if ( cJSON_IsObject( body ) == false )
	{
		return cliViewEdit_Fail( message, size, index,
								 "\"body\": expected a body as a scene's \"bodies\" holds one (docs/scene-format.md)" );
	}
	if ( cliViewEdit_NamesFile( body ) )
	{
		return cliViewEdit_Fail( message, size, index,
								 "\"body\": a \"file\" key: the viewer reads no file a request names (write the "
								 "geometry inline)" );
	}
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.name = scene->name;
	def.timeStep = scene->timeStep;
	def.fps = scene->fps;
	def.duration = scene->duration;
	char* text = cnWriteSceneToString( world, &def );
	cJSON* doc = text != NULL ? cJSON_Parse( text ) : NULL;
	cnFree( text );
	cJSON* bodies = cJSON_GetObjectItemCaseSensitive( doc, "bodies" );
	cJSON* copy = cJSON_IsArray( bodies ) ? cJSON_Duplicate( body, true ) : NULL;
	if ( copy == NULL )
	{
		cJSON_Delete( doc );
		return cliViewEdit_Fail( message, size, index, "cannot write the world at the cut as a scene" );
	}
	int at = cJSON_GetArraySize( bodies );
	cJSON_AddItemToArray( bodies, copy );
	char* json = cJSON_PrintUnformatted( doc );
	cJSON_Delete( doc );
	cnScene* checked = json != NULL ? cnLoadSceneFromString( json, "the scene at the cut" ) : NULL;
	cJSON_free( json );
	if ( checked == NULL )
	{
		snprintf( message, size, "edits[%d] (add): %s", index, cnGetError() );
		return false;
	}
	const cnWorld* from = checked->world;
	cnBodyId source = cnWorld_GetBody( from, at );
	cnBodyDef bodyDef = cnBody_GetDef( from, source );
	cnBodyId id = cnCreateBody( world, &bodyDef );
	bool ok = cnBody_IsValid( world, id );
	int shapeCount = ok ? cnBody_GetShapeCount( from, source ) : 0;
	cnShapeId* shapes = malloc( sizeof( cnShapeId ) * (size_t)( shapeCount > 0 ? shapeCount : 1 ) );
	ok = ok && shapes != NULL;
	shapeCount = ok ? cnBody_GetShapes( from, source, shapes, shapeCount ) : 0;
	for ( int i = 0; ok && i < shapeCount; ++i )
	{
		// (the shape takes its own reference to a hull, mesh or heightfield of the checked world)
		cnShapeDef shapeDef = cnShape_GetDef( from, shapes[i] );
		shapeDef.material = cliViewEdit_Material( world, from, shapeDef.material );
		ok = shapeDef.material >= 0 && cnShape_IsValid( world, cnCreateShape( world, id, &shapeDef ) );
	}
	free( shapes );
	if ( ok && cnBody_GetType( from, source ) == cnBody_dynamic &&
		 cnBody_GetMass( from, source ) != cnBody_GetMass( world, id ) )
	{
		ok = cnBody_SetMass( world, id, cnBody_GetMass( from, source ) );
	}
	ok = ok && cliViewEdit_AddForces( world, from, source, id );
	cnDestroyScene( checked );
	if ( ok == false )
	{
		cnDestroyBody( world, id );
		return cliViewEdit_Library( message, size, index, "add" );
	}
	*added = id;
	return true;
}

// The shapes of a body, allocated (*count of them); NULL when it has none or without memory.
static cnShapeId* cliViewEdit_Shapes( const cnWorld* world, cnBodyId body, int* count )
{
	int n = cnBody_GetShapeCount( world, body );
	cnShapeId* shapes = n > 0 ? malloc( sizeof( cnShapeId ) * (size_t)n ) : NULL;
	*count = shapes != NULL ? cnBody_GetShapes( world, body, shapes, n ) : 0;
	return shapes;
}

// Whether a shape of a body other than `body` uses material m (*shared); false without memory.
static bool cliViewEdit_MaterialShared( const cnWorld* world, cnBodyId body, cnMaterialId m, bool* shared )
{
	*shared = false;
	int bodies = cnWorld_GetBodyCount( world );
	for ( int i = 0; i < bodies && *shared == false; ++i )
	{
		cnBodyId other = cnWorld_GetBody( world, i );
		int n = 0;
		cnShapeId* shapes = other.index != body.index ? cliViewEdit_Shapes( world, other, &n ) : NULL;
		if ( shapes == NULL && other.index != body.index && cnBody_GetShapeCount( world, other ) > 0 )
		{
			return false;
		}
		for ( int k = 0; k < n && *shared == false; ++k )
		{
			*shared = cnShape_GetDef( world, shapes[k] ).material == m;
		}
		free( shapes );
	}
	return true;
}

// {"op": "material", "own": true}: only this body changes. Each material of its shapes that a shape
// of another body uses too is copied, with the new friction and restitution, under a name of its
// own ("floor (box)", else "floor (box) 2", ...) and given to the body's shapes of it
// (cnShape_SetMaterial: their touching contacts take the new values); a material only this body
// uses (the copy an earlier edit made) is changed in place. The density is the old one, so the mass
// is unchanged.
static bool cliViewEdit_OwnMaterial( cnWorld* world, cnBodyId body, const cJSON* f, const cJSON* r, char* message,
									 size_t size, int index )
{
	int count = 0;
	cnShapeId* shapes = cliViewEdit_Shapes( world, body, &count );
	cnMaterialId* from = malloc( sizeof( cnMaterialId ) * (size_t)( count > 0 ? count : 1 ) );
	cnMaterialId* to = malloc( sizeof( cnMaterialId ) * (size_t)( count > 0 ? count : 1 ) );
	int pairs = 0;
	bool ok = shapes != NULL && from != NULL && to != NULL;
	bool library = true;
	const char* bodyName = cnBody_GetName( world, body );
	for ( int i = 0; ok && i < count; ++i )
	{
		cnMaterialId m = cnShape_GetDef( world, shapes[i] ).material;
		int k = 0;
		while ( k < pairs && from[k] != m )
		{
			++k;
		}
		if ( k == pairs )
		{
			bool shared = false;
			ok = cliViewEdit_MaterialShared( world, body, m, &shared );
			library = ok;
			cnMaterialDef def = cnMaterial_GetDef( world, m );
			def.friction = f != NULL ? f->valuedouble : def.friction;
			def.restitution = r != NULL ? r->valuedouble : def.restitution;
			cnMaterialId target = m;
			if ( ok && shared )
			{
				char base[160], name[200];
				if ( def.name != NULL && def.name[0] != 0 )
				{
					snprintf( base, sizeof( base ), "%s (%s)", def.name,
							  bodyName != NULL && bodyName[0] != 0 ? bodyName : "body" );
				}
				else
				{
					snprintf( base, sizeof( base ), "%s (%s)", m == 0 ? "default" : "material",
							  bodyName != NULL && bodyName[0] != 0 ? bodyName : "body" );
				}
				snprintf( name, sizeof( name ), "%s", base );
				for ( int n = 2; cnWorld_FindMaterial( world, name ) >= 0; ++n )
				{
					snprintf( name, sizeof( name ), "%s %d", base, n );
				}
				def.name = name;
				target = cnCreateMaterial( world, &def );
				ok = target >= 0;
			}
			else if ( ok )
			{
				ok = cnMaterial_SetDef( world, m, &def );
			}
			from[pairs] = m;
			to[pairs] = target;
			++pairs;
		}
		if ( ok && to[k] != m )
		{
			ok = cnShape_SetMaterial( world, shapes[i], to[k] );
		}
	}
	if ( shapes == NULL || from == NULL || to == NULL )
	{
		library = false;
	}
	free( shapes );
	free( from );
	free( to );
	if ( ok == false )
	{
		return library ? cliViewEdit_Library( message, size, index, "material" )
					   : cliViewEdit_Fail( message, size, index, "out of memory" );
	}
	return true;
}

// Applies one edit to the world at the cut; *added is the body an "add" made (else the null id).
static bool cliViewEdit_Apply( const cnScene* scene, cnWorld* world, const cJSON* edit, int index, char* message,
							   size_t size, cnBodyId* added )
{
	*added = cnBodyId_null;
	const cJSON* opItem = cJSON_GetObjectItemCaseSensitive( edit, "op" );
	if ( cJSON_IsObject( edit ) == false || cJSON_IsString( opItem ) == false )
	{
		return cliViewEdit_Fail( message, size, index, "expected an object with \"op\"" );
	}
	const char* op = opItem->valuestring;
	if ( strcmp( op, "add" ) == 0 )
	{
		return cliViewEdit_Add( scene, world, edit, index, message, size, added );
	}
	cnBodyId body = cliViewEdit_Body( world, edit );
	if ( cnBody_IsValid( world, body ) == false )
	{
		return cliViewEdit_Fail( message, size, index, "\"body\": expected the name or index of a body" );
	}
	if ( strcmp( op, "delete" ) == 0 )
	{
		// its joints, forces and contacts go with it
		return cnDestroyBody( world, body ) || cliViewEdit_Library( message, size, index, op );
	}
	if ( strcmp( op, "move" ) == 0 )
	{
		cnVec3 p;
		cnQuat q = cnBody_GetOrientation( world, body );
		const cJSON* o = cJSON_GetObjectItemCaseSensitive( edit, "orientation" );
		if ( cliViewEdit_Vec( edit, "position", &p ) == false )
		{
			return cliViewEdit_Fail( message, size, index, "\"position\": expected [x, y, z]" );
		}
		if ( o != NULL )
		{
			double w[4];
			bool ok = cJSON_IsArray( o ) && cJSON_GetArraySize( o ) == 4;
			for ( int i = 0; ok && i < 4; ++i )
			{
				const cJSON* x = cJSON_GetArrayItem( o, i );
				ok = cJSON_IsNumber( x ) && isfinite( x->valuedouble );
				w[i] = ok ? x->valuedouble : 0.0;
			}
			if ( ok == false )
			{
				return cliViewEdit_Fail( message, size, index, "\"orientation\": expected [w, x, y, z]" );
			}
			q.x = w[1];
			q.y = w[2];
			q.z = w[3];
			q.w = w[0];
		}
		return cnBody_SetTransform( world, body, p, q ) || cliViewEdit_Library( message, size, index, op );
	}
	if ( strcmp( op, "velocity" ) == 0 )
	{
		cnVec3 v = cnBody_GetLinearVelocity( world, body ), w = cnBody_GetAngularVelocity( world, body );
		bool hasLinear = cJSON_GetObjectItemCaseSensitive( edit, "linear" ) != NULL;
		bool hasAngular = cJSON_GetObjectItemCaseSensitive( edit, "angular" ) != NULL;
		if ( ( hasLinear && cliViewEdit_Vec( edit, "linear", &v ) == false ) ||
			 ( hasAngular && cliViewEdit_Vec( edit, "angular", &w ) == false ) || ( !hasLinear && !hasAngular ) )
		{
			return cliViewEdit_Fail( message, size, index, "\"linear\" and/or \"angular\": expected [x, y, z]" );
		}
		bool ok = cnBody_SetLinearVelocity( world, body, v ) && cnBody_SetAngularVelocity( world, body, w );
		return ok || cliViewEdit_Library( message, size, index, op );
	}
	if ( strcmp( op, "impulse" ) == 0 )
	{
		cnVec3 impulse, point = cnBody_GetWorldCenterOfMass( world, body );
		if ( cliViewEdit_Vec( edit, "impulse", &impulse ) == false ||
			 ( cJSON_GetObjectItemCaseSensitive( edit, "point" ) != NULL && cliViewEdit_Vec( edit, "point", &point ) == false ) )
		{
			return cliViewEdit_Fail( message, size, index, "\"impulse\" (and \"point\"): expected [x, y, z]" );
		}
		return cnBody_ApplyLinearImpulse( world, body, impulse, point ) || cliViewEdit_Library( message, size, index, op );
	}
	if ( strcmp( op, "material" ) == 0 )
	{
		const cJSON* f = cJSON_GetObjectItemCaseSensitive( edit, "friction" );
		const cJSON* r = cJSON_GetObjectItemCaseSensitive( edit, "restitution" );
		const cJSON* own = cJSON_GetObjectItemCaseSensitive( edit, "own" );
		if ( ( f != NULL && cJSON_IsNumber( f ) == false ) || ( r != NULL && cJSON_IsNumber( r ) == false ) ||
			 ( f == NULL && r == NULL ) )
		{
			return cliViewEdit_Fail( message, size, index, "\"friction\" and/or \"restitution\": expected numbers" );
		}
		if ( own != NULL && cJSON_IsBool( own ) == false )
		{
			return cliViewEdit_Fail( message, size, index, "\"own\": expected true or false" );
		}
		if ( cnBody_GetShapeCount( world, body ) < 1 )
		{
			return cliViewEdit_Fail( message, size, index, "the body has no shapes" );
		}
		if ( cJSON_IsTrue( own ) )
		{
			return cliViewEdit_OwnMaterial( world, body, f, r, message, size, index );
		}
		// the material of the body's first shape, changed for every shape that uses it
		cnShapeId shape;
		cnBody_GetShapes( world, body, &shape, 1 );
		cnMaterialId id = cnShape_GetDef( world, shape ).material;
		cnMaterialDef def = cnMaterial_GetDef( world, id );
		def.friction = f != NULL ? f->valuedouble : def.friction;
		def.restitution = r != NULL ? r->valuedouble : def.restitution;
		return cnMaterial_SetDef( world, id, &def ) || cliViewEdit_Library( message, size, index, op );
	}
	return cliViewEdit_Fail( message, size, index,
							 "unknown \"op\" (allowed: move, velocity, impulse, material, add, delete)" );
}

// ---------------------------------------------------------------------------------------------
// the requests

// frame: a whole number from 0 to the last frame made
static bool cliViewEdit_Frame( cliViewSource* source, const cJSON* root, int* frame )
{
	const cJSON* f = cJSON_GetObjectItemCaseSensitive( root, "frame" );
	bool complete = false;
	int count = cliViewSource_GetFrameCount( source, &complete, NULL, 0 );
	if ( cJSON_IsNumber( f ) == false || !( f->valuedouble >= 0 ) || f->valuedouble >= count ||
		 f->valuedouble != floor( f->valuedouble ) )
	{
		return false;
	}
	*frame = (int)f->valuedouble;
	return true;
}

// Marks or unmarks a sync point in every run (with --compare they share the one timeline, and a cut,
// which drops the later ones, cuts every run at the same frame: the lists stay the same).
static enum MHD_Result cliViewEdit_Sync( cliViewSource* sources, int runCount, int run,
										 struct MHD_Connection* connection, const cJSON* root )
{
	int frame = 0;
	if ( cliViewEdit_Frame( sources + run, root, &frame ) == false )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST, "frame: expected a frame that exists (0 to the last)" );
	}
	const cJSON* remove = cJSON_GetObjectItemCaseSensitive( root, "remove" );
	bool ok = true;
	for ( int r = 0; r < runCount; ++r )
	{
		pthread_mutex_lock( &sources[r].lock );
		ok = cliViewHistory_SetSync( &sources[r].history, frame, cJSON_IsTrue( remove ) == false ) && ok;
		pthread_mutex_unlock( &sources[r].lock );
	}
	if ( ok == false )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST, "too many sync points" );
	}
	return cliViewEdit_SyncList( sources + run, connection );
}

// Whether an edit list adds a body (adds only: true), or adds or deletes one.
static bool cliViewEdit_ChangesBodies( const cJSON* edits, bool addsOnly )
{
	for ( const cJSON* e = edits != NULL ? edits->child : NULL; e != NULL; e = e->next )
	{
		const cJSON* op = cJSON_GetObjectItemCaseSensitive( e, "op" );
		if ( cJSON_IsString( op ) &&
			 ( strcmp( op->valuestring, "add" ) == 0 || ( addsOnly == false && strcmp( op->valuestring, "delete" ) == 0 ) ) )
		{
			return true;
		}
	}
	return false;
}

// The same of an edit list kept as JSON text.
static bool cliViewEdit_TextChangesBodies( const char* text, bool addsOnly )
{
	cJSON* edits = cJSON_Parse( text );
	bool changes = cliViewEdit_ChangesBodies( edits, addsOnly );
	cJSON_Delete( edits );
	return changes;
}

// Describes every body the history holds, in the order the viewer numbers them: frame 0's world,
// then at each cut (frames ascending; one at frame 0 is in frame 0's snapshot already) the bodies
// its edits add and delete, recorded with a changing body set (format version 6). *ids gets the
// bodies' ids (*count of them), which are those of the simulated world too: a snapshot keeps every
// id, and the same bodies are made and destroyed in the same order. NULL with message set.
static cnRecording* cliViewEdit_DescribeHistory( cliViewSource* source, const int* cutFrames, char* const* cutEdits,
												 int cuts, cnBodyId** ids, int* count, char* message, size_t size )
{
	cnWorld* world = cliViewEdit_WorldAt( source, 0, message, size );
	if ( world == NULL )
	{
		return NULL;
	}
	int n = cnWorld_GetBodyCount( world ), capacity = n + 16;
	cnBodyId* list = malloc( sizeof( cnBodyId ) * (size_t)capacity );
	cnRecorderDef def = cnDefaultRecorderDef();
	def.sceneName = source->scene->name;
	def.fps = source->scene->fps;
	def.changingBodies = true;
	cnRecorder* recorder = list != NULL ? cnCreateRecorder( world, &def ) : NULL;
	bool ok = recorder != NULL && cnRecorder_AddFrame( recorder, world );
	for ( int i = 0; ok && i < n; ++i )
	{
		list[i] = cnWorld_GetBody( world, i );
	}
	for ( int k = 0; ok && k < cuts; ++k )
	{
		if ( cutFrames[k] == 0 )
		{
			continue;
		}
		cJSON* edits = cJSON_Parse( cutEdits[k] );
		int index = 0;
		for ( const cJSON* e = edits != NULL ? edits->child : NULL; ok && e != NULL; e = e->next, ++index )
		{
			const cJSON* op = cJSON_GetObjectItemCaseSensitive( e, "op" );
			if ( cJSON_IsString( op ) == false ||
				 ( strcmp( op->valuestring, "add" ) != 0 && strcmp( op->valuestring, "delete" ) != 0 ) )
			{
				continue;
			}
			cnBodyId added;
			ok = cliViewEdit_Apply( source->scene, world, e, index, message, size, &added );
			if ( ok && cnBody_IsValid( world, added ) )
			{
				if ( n == capacity )
				{
					capacity *= 2;
					cnBodyId* grown = realloc( list, sizeof( cnBodyId ) * (size_t)capacity );
					ok = grown != NULL;
					list = grown != NULL ? grown : list;
				}
				if ( ok )
				{
					list[n++] = added;
				}
			}
		}
		cJSON_Delete( edits );
		ok = ok && cnRecorder_AddFrame( recorder, world );
	}
	size_t bytesSize = 0;
	const void* bytes = ok && cnRecorder_Finish( recorder ) ? cnRecorder_GetBytes( recorder, &bytesSize ) : NULL;
	cnRecording* description = bytes != NULL ? cnLoadRecordingFromMemory( bytes, bytesSize, source->scene->path ) : NULL;
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
	if ( description == NULL || cnRecording_GetBodyCount( description ) != n )
	{
		if ( message[0] == 0 || ok )
		{
			snprintf( message, size, "cannot describe the bodies of the edited history" );
		}
		cnDestroyRecording( description );
		free( list );
		return NULL;
	}
	*ids = list;
	*count = n;
	return description;
}

// One run's cut, made ready but not started: the world at the frame, edited; the cut list's entry
// for it; and, when the bodies change, the new body list and description. Nothing of the source
// has changed while it is ready, so a cut over several runs (--compare) starts none of them until
// every run's edits have succeeded.
typedef struct cliViewCutPlan
{
	cnWorld* world;
	char* editsText;
	cnBodyId* ids;
	int idCount;
	cnRecording* description;
} cliViewCutPlan;

static void cliViewEdit_FreePlan( cliViewCutPlan* plan )
{
	cnDestroyWorld( plan->world );
	cJSON_free( plan->editsText );
	free( plan->ids );
	cnDestroyRecording( plan->description );
	memset( plan, 0, sizeof( *plan ) );
}

// Makes the world at frame again from its snapshot, checks it against the cached frame, applies the
// edits and works out the history the cut leaves. 0 when ready, else the HTTP status with message
// set (and nothing kept). Called with s_cutLock held.
static unsigned int cliViewEdit_Prepare( cliViewSource* source, int frame, const cJSON* edits, cliViewCutPlan* plan,
										 char* message, size_t messageSize )
{
	memset( plan, 0, sizeof( *plan ) );
	cnWorld* world = cliViewEdit_WorldAt( source, frame, message, messageSize );
	if ( world == NULL )
	{
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
	int bodyCount = ( source->stride - 1 ) / 7;
	if ( cliViewEdit_MatchesFrame( source, world, frame ) == false )
	{
		cnDestroyWorld( world );
		snprintf( message, messageSize, "the world made again from its snapshot differs from the frame shown" );
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
	int index = 0;
	for ( const cJSON* e = edits != NULL ? edits->child : NULL; e != NULL; e = e->next, ++index )
	{
		cnBodyId added;
		if ( cliViewEdit_Apply( source->scene, world, e, index, message, messageSize, &added ) == false )
		{
			cnDestroyWorld( world );
			return MHD_HTTP_BAD_REQUEST;
		}
	}

	// the history this cut leaves: the cuts before its frame, then this one (a cut at the same frame
	// as the last one adds to its edits: the world at the frame is already that cut's)
	pthread_mutex_lock( &source->lock );
	int kept = 0;
	while ( kept < source->history.cutListCount && source->history.cutFrames[kept] < frame )
	{
		++kept;
	}
	bool changedBefore = false;
	for ( int i = 0; i < source->history.cutListCount; ++i )
	{
		changedBefore = changedBefore || cliViewEdit_TextChangesBodies( source->history.cutEdits[i], true );
	}
	int* cutFrames = malloc( sizeof( int ) * (size_t)( kept + 1 ) );
	char** cutEdits = calloc( (size_t)kept + 1, sizeof( char* ) );
	cJSON* merged = cJSON_CreateArray();
	bool ok = cutFrames != NULL && cutEdits != NULL && merged != NULL;
	for ( int i = 0; ok && i < kept; ++i )
	{
		cutFrames[i] = source->history.cutFrames[i];
		cutEdits[i] = source->history.cutEdits[i];
	}
	for ( int i = kept; ok && i < source->history.cutListCount && source->history.cutFrames[i] == frame; ++i )
	{
		cJSON* before = cJSON_Parse( source->history.cutEdits[i] );
		for ( cJSON* e = before != NULL ? before->child : NULL; e != NULL; e = e->next )
		{
			cJSON_AddItemToArray( merged, cJSON_Duplicate( e, true ) );
		}
		cJSON_Delete( before );
	}
	pthread_mutex_unlock( &source->lock );
	for ( const cJSON* e = edits != NULL && ok ? edits->child : NULL; e != NULL; e = e->next )
	{
		cJSON_AddItemToArray( merged, cJSON_Duplicate( e, true ) );
	}
	char* editsText = ok ? cJSON_PrintUnformatted( merged ) : NULL;
	cJSON_Delete( merged );
	ok = ok && editsText != NULL;
	if ( ok )
	{
		cutFrames[kept] = frame;
		cutEdits[kept] = editsText;
	}
	// bodies added (now, or by the cuts this one drops or keeps): every body the history holds,
	// described again (a deleted body keeps its place: it is only absent from the cut on)
	cnBodyId* ids = NULL;
	int idCount = 0;
	cnRecording* description = NULL;
	if ( ok && ( changedBefore || cliViewEdit_ChangesBodies( edits, true ) ) )
	{
		description = cliViewEdit_DescribeHistory( source, cutFrames, cutEdits, kept + 1, &ids, &idCount, message,
												   messageSize );
		ok = description != NULL;
		if ( ok && idCount == bodyCount && memcmp( ids, source->bodies, sizeof( cnBodyId ) * (size_t)idCount ) == 0 )
		{
			// the same bodies as before (a cut at the frame of the one that added them): nothing to change
			free( ids );
			cnDestroyRecording( description );
			ids = NULL;
			description = NULL;
		}
	}
	free( cutFrames );
	free( cutEdits );
	if ( ok == false )
	{
		cJSON_free( editsText );
		cnDestroyWorld( world );
		if ( message[0] == 0 )
		{
			snprintf( message, messageSize, "out of memory" );
		}
		return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
	plan->world = world;
	plan->editsText = editsText;
	plan->ids = ids;
	plan->idCount = idCount;
	plan->description = description;
	return 0;
}

// Starts the run again from the plan's world (which the source then owns, with the body list and
// description) and records the cut; false when the thread cannot start. Called with s_cutLock held.
static bool cliViewEdit_Commit( cliViewSource* source, int frame, cliViewCutPlan* plan )
{
	bool ok = cliViewSource_Restart( source, plan->world, frame, plan->ids, plan->idCount, plan->description );
	plan->world = NULL;
	plan->ids = NULL;
	plan->description = NULL;
	pthread_mutex_lock( &source->lock );
	// (Restart dropped the later cuts; without memory for this one, the saved recording stops here)
	bool added = cliViewHistory_AddCut( &source->history, frame, plan->editsText );
	pthread_mutex_unlock( &source->lock );
	(void)added;
	cliViewEdit_FreePlan( plan );
	return ok;
}

// A cut at one frame of every run (one with --compare: the runs share frame numbers, and the same
// edits go to each run's world, restored from its own snapshot). No run is restarted until every
// run's world is made and edited, so a refused edit changes none; the answer is run `run`'s list.
static enum MHD_Result cliViewEdit_Cut( cliViewSource* sources, int runCount, int run,
										struct MHD_Connection* connection, const cJSON* root )
{
	int frame = 0;
	const cJSON* edits = cJSON_GetObjectItemCaseSensitive( root, "edits" );
	if ( runCount < 1 || runCount > CLI_VIEW_COMPARE_MAX )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "too many runs to cut" );
	}
	if ( edits != NULL && cJSON_IsArray( edits ) == false )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST, "edits: expected an array" );
	}
	// the frame is checked under the cut lock: only a cut drops frames, so a cut that came first
	// cannot drop it between the check and the world made again at it
	pthread_mutex_lock( &s_cutLock );
	for ( int r = 0; r < runCount; ++r )
	{
		if ( cliViewEdit_Frame( sources + r, root, &frame ) == false )
		{
			pthread_mutex_unlock( &s_cutLock );
			if ( runCount == 1 )
			{
				return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST,
										  "frame: expected a frame that exists (0 to the last)" );
			}
			char message[160];
			snprintf( message, sizeof( message ),
					  "frame: expected a frame every run has made (run %d, %s, has %d so far)", r, sources[r].method,
					  cliViewSource_GetFrameCount( sources + r, &(bool){ false }, NULL, 0 ) );
			return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST, message );
		}
	}
	char message[600] = "";
	cliViewCutPlan plans[CLI_VIEW_COMPARE_MAX];
	for ( int r = 0; r < runCount; ++r )
	{
		unsigned int status = cliViewEdit_Prepare( sources + r, frame, edits, plans + r, message, sizeof( message ) );
		if ( status != 0 )
		{
			for ( int k = 0; k < r; ++k )
			{
				cliViewEdit_FreePlan( plans + k );
			}
			pthread_mutex_unlock( &s_cutLock );
			if ( runCount > 1 )
			{
				// which run refused (the edits are the same for every run, the worlds not quite)
				char which[720];
				snprintf( which, sizeof( which ), "run %d (%s): %s", r, sources[r].method, message );
				return cliViewEdit_Error( connection, status, which );
			}
			return cliViewEdit_Error( connection, status, message );
		}
	}
	bool ok = true;
	for ( int r = 0; r < runCount; ++r )
	{
		ok = cliViewEdit_Commit( sources + r, frame, plans + r ) && ok;
	}
	pthread_mutex_unlock( &s_cutLock );
	if ( ok == false )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot start the simulation again" );
	}
	return cliViewEdit_SyncList( sources + run, connection );
}

// The world at the start of the running segment (the last cut, else frame 0), as a scene; with
// ?frame=N, the world at frame N (made again from its snapshot and checked against the cached
// frame bit for bit, as a cut makes it, but cutting nothing): the editor's document at the frame
// shown.
static enum MHD_Result cliViewEdit_SaveScene( cliViewSource* source, struct MHD_Connection* connection )
{
	const char* query = MHD_lookup_connection_value( connection, MHD_GET_ARGUMENT_KIND, "frame" );
	char message[600];
	cnWorld* world = NULL;
	if ( query != NULL )
	{
		// 1 to 10 decimal digits, as every frame number of the API
		long long n = 0;
		size_t digits = strlen( query );
		bool ok = digits > 0 && digits <= 10;
		for ( size_t i = 0; ok && i < digits; ++i )
		{
			ok = query[i] >= '0' && query[i] <= '9';
			n = 10 * n + ( query[i] - '0' );
		}
		if ( ok == false || n > 2147483647 )
		{
			return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST, "frame: expected a frame number from 0 to 2147483647" );
		}
		// under the cut lock: no cut drops the frame between the check and the world made at it
		pthread_mutex_lock( &s_cutLock );
		bool complete = false;
		int count = cliViewSource_GetFrameCount( source, &complete, NULL, 0 );
		if ( n >= count )
		{
			pthread_mutex_unlock( &s_cutLock );
			snprintf( message, sizeof( message ), "frame: frame %lld is not simulated yet (%d frames so far)", n, count );
			return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST, message );
		}
		world = cliViewEdit_WorldAt( source, (int)n, message, sizeof( message ) );
		if ( world != NULL && cliViewEdit_MatchesFrame( source, world, (int)n ) == false )
		{
			cnDestroyWorld( world );
			world = NULL;
			snprintf( message, sizeof( message ), "the world made again from its snapshot differs from frame %lld", n );
		}
		pthread_mutex_unlock( &s_cutLock );
	}
	else
	{
		pthread_mutex_lock( &source->lock );
		int start = source->history.runStart;
		pthread_mutex_unlock( &source->lock );
		world = cliViewEdit_WorldAt( source, start, message, sizeof( message ) );
	}
	if ( world == NULL )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, message );
	}
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.name = source->scene->name;
	def.timeStep = source->scene->timeStep;
	def.fps = source->scene->fps;
	// what was left of the run at the cut
	def.duration = fmax( 0.0, source->scene->duration - cnWorld_GetTime( world ) );
	// the scene's cameras; one on a body a cut deleted is left out
	def.cameras = source->scene->cameras;
	def.cameraCount = source->scene->cameraCount;
	char* text = cnWriteSceneToString( world, &def );
	cnDestroyWorld( world );
	if ( text == NULL )
	{
		snprintf( message, sizeof( message ), "cannot write the scene: %s", cnGetError() );
		return cliViewEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, message );
	}
	// (cnFree is free: the answer frees it)
	return cliViewEdit_Send( connection, MHD_HTTP_OK, "application/json", text, strlen( text ), "scene.json" );
}

// Records every frame made so far again in one world: from frame 0's snapshot the scene's run,
// stopped at each cut of the running history to apply its edits again (deterministic, so this is
// the edited history frame for frame).
typedef struct cliViewReplay
{
	cnRecorder* recorder;
	int frame;
	int stop;
} cliViewReplay;

static bool cliViewEdit_RecordFrame( void* context, const cnWorld* world, const cnFrame* frame )
{
	(void)frame;
	cliViewReplay* r = context;
	if ( r->frame >= r->stop )
	{
		cnSetError( cnError_cancelled, "reached the frame" );
		return false;
	}
	r->frame += 1;
	return cnRecorder_AddFrame( r->recorder, world );
}

static enum MHD_Result cliViewEdit_SaveRecording( cliViewSource* source, struct MHD_Connection* connection )
{
	pthread_mutex_lock( &s_cutLock );
	bool complete = false;
	int frames = cliViewSource_GetFrameCount( source, &complete, NULL, 0 );
	pthread_mutex_lock( &source->lock );
	int cuts = source->history.cutListCount;
	int* cutFrames = malloc( sizeof( int ) * (size_t)( cuts + 1 ) );
	char** cutEdits = calloc( (size_t)cuts + 1, sizeof( char* ) );
	bool ok = cutFrames != NULL && cutEdits != NULL;
	for ( int i = 0; ok && i < cuts; ++i )
	{
		cutFrames[i] = source->history.cutFrames[i];
		size_t n = strlen( source->history.cutEdits[i] ) + 1;
		cutEdits[i] = malloc( n );
		ok = cutEdits[i] != NULL;
		if ( ok )
		{
			memcpy( cutEdits[i], source->history.cutEdits[i], n );
		}
	}
	pthread_mutex_unlock( &source->lock );
	char message[600] = "";
	cnWorld* world = ok ? cliViewEdit_WorldAt( source, 0, message, sizeof( message ) ) : NULL;
	cliViewReplay replay = { NULL, 0, 0 };
	if ( world != NULL )
	{
		cnRecorderDef def = cnDefaultRecorderDef();
		def.sceneName = source->scene->name;
		def.fps = source->scene->fps;
		// bodies added or deleted at a cut: format version 6 (else the version a run records)
		for ( int i = 0; i < cuts; ++i )
		{
			def.changingBodies = def.changingBodies || cliViewEdit_TextChangesBodies( cutEdits[i], false );
		}
		replay.recorder = cnCreateRecorder( world, &def );
	}
	ok = replay.recorder != NULL;
	for ( int segment = 0; ok && segment <= cuts && replay.frame < frames; ++segment )
	{
		// (a cut at frame 0 is in frame 0's snapshot already)
		if ( segment > 0 && cutFrames[segment - 1] > 0 )
		{
			cJSON* edits = cJSON_Parse( cutEdits[segment - 1] );
			int index = 0;
			for ( const cJSON* e = edits != NULL ? edits->child : NULL; ok && e != NULL; e = e->next, ++index )
			{
				cnBodyId added;
				ok = cliViewEdit_Apply( source->scene, world, e, index, message, sizeof( message ), &added );
			}
			cJSON_Delete( edits );
		}
		replay.stop = segment < cuts && cutFrames[segment] < frames ? cutFrames[segment] : frames;
		if ( ok )
		{
			cnFrameWriter writer = { cliViewEdit_RecordFrame, NULL, &replay };
			cnRunDef def = cnScene_GetRunDef( source->scene );
			double left = def.duration - cnWorld_GetTime( world );
			def.duration = left > 0.0 ? left : 0.0;
			def.writers = &writer;
			def.writerCount = 1;
			cnRun( world, &def );
			ok = replay.frame == replay.stop;
			if ( ok == false )
			{
				snprintf( message, sizeof( message ), "the replay stopped at frame %d: %s", replay.frame, cnGetError() );
			}
		}
	}
	for ( int i = 0; cutEdits != NULL && i < cuts; ++i )
	{
		free( cutEdits[i] );
	}
	free( cutEdits );
	free( cutFrames );
	pthread_mutex_unlock( &s_cutLock );
	size_t size = 0;
	const void* bytes = NULL;
	void* copy = NULL;
	if ( ok && cnRecorder_Finish( replay.recorder ) && ( bytes = cnRecorder_GetBytes( replay.recorder, &size ) ) != NULL )
	{
		copy = malloc( size > 0 ? size : 1 );
		if ( copy != NULL )
		{
			memcpy( copy, bytes, size );
		}
	}
	cnDestroyRecorder( replay.recorder );
	cnDestroyWorld( world );
	if ( copy == NULL )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR,
								  message[0] != 0 ? message : "cannot make the recording" );
	}
	return cliViewEdit_Send( connection, MHD_HTTP_OK, "application/octet-stream", copy, size, "history.cnrec" );
}

enum MHD_Result cliViewEdit_Answer( cliViewSource* sources, int runCount, int run, struct MHD_Connection* connection,
									const char* url, const char* method, const char* uploadData, size_t* uploadSize,
									void** requestContext )
{
	cliViewSource* source = sources + run;
	bool post = strcmp( method, MHD_HTTP_METHOD_POST ) == 0;
	bool get = strcmp( method, MHD_HTTP_METHOD_GET ) == 0 || strcmp( method, MHD_HTTP_METHOD_HEAD ) == 0;
	bool postable = strcmp( url, "/api/sync" ) == 0 || strcmp( url, "/api/cut" ) == 0;
	if ( ( post && postable == false ) || ( get && strcmp( url, "/api/cut" ) == 0 ) || ( !post && !get ) )
	{
		return cliViewEdit_Error( connection, MHD_HTTP_METHOD_NOT_ALLOWED,
								  postable ? "POST a JSON body here" : "only GET and HEAD are served here" );
	}
	if ( source->simulated == false && strcmp( url, "/api/sync" ) != 0 )
	{
		// a recording is played as it was made: nothing to simulate again
		return cliViewEdit_Error( connection, MHD_HTTP_CONFLICT, "a recording cannot be cut or saved again: open its scene" );
	}
	if ( get )
	{
		if ( strcmp( url, "/api/sync" ) == 0 )
		{
			return cliViewEdit_SyncList( source, connection );
		}
		return strcmp( url, "/api/save/scene" ) == 0 ? cliViewEdit_SaveScene( source, connection )
													 : cliViewEdit_SaveRecording( source, connection );
	}

	// a POST: gather the body, then answer
	const char* data = NULL;
	size_t size = 0;
	int read = cliViewEdit_ReadBody( connection, uploadData, uploadSize, requestContext, CLI_VIEW_MAX_BODY, &data, &size );
	if ( read != 1 )
	{
		return read == 0 ? MHD_YES : read == -1 ? cliViewEdit_Error( connection, 413, "the request body is over 64 KiB" ) : MHD_NO;
	}
	cJSON* root = data != NULL ? cJSON_ParseWithLength( data, size ) : NULL;
	if ( cJSON_IsObject( root ) == false )
	{
		cJSON_Delete( root );
		return cliViewEdit_Error( connection, MHD_HTTP_BAD_REQUEST, "the body must be a JSON object" );
	}
	enum MHD_Result result = strcmp( url, "/api/sync" ) == 0 ? cliViewEdit_Sync( sources, runCount, run, connection, root )
															 : cliViewEdit_Cut( sources, runCount, run, connection, root );
	cJSON_Delete( root );
	return result;
}
