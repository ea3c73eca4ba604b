// SPDX-License-Identifier: MIT
// The scene editor's requests (view_scene_edit.h): the scene document the page edits is loaded by
// the library's own loader, then described, written back or simulated.
#define _POSIX_C_SOURCE 200809L

#include "view_scene_edit.h"

#include "view_edit.h"
#include "view_server.h"
#include "view_text.h"

#include "cairn/scene.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cliViewSceneEdit_Handles( const char* url )
{
	return strcmp( url, "/api/editor/check" ) == 0 || strcmp( url, "/api/editor/save" ) == 0 ||
		   strcmp( url, "/api/editor/apply" ) == 0;
}

static enum MHD_Result cliViewSceneEdit_Send( struct MHD_Connection* connection, unsigned int status, cliViewText* text,
											  bool download )
{
	size_t size = 0;
	char* data = cliViewText_Take( text, &size );
	if ( data == NULL )
	{
		return MHD_NO;
	}
	struct MHD_Response* response = MHD_create_response_from_buffer( size, data, MHD_RESPMEM_MUST_FREE );
	if ( response == NULL )
	{
		free( data );
		return MHD_NO;
	}
	MHD_add_response_header( response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json" );
	MHD_add_response_header( response, "X-Content-Type-Options", "nosniff" );
	MHD_add_response_header( response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store" );
	if ( download )
	{
		MHD_add_response_header( response, "Content-Disposition", "attachment; filename=\"" CLI_VIEW_SCENE_NAME "\"" );
	}
	enum MHD_Result result = MHD_queue_response( connection, status, response );
	MHD_destroy_response( response );
	return result;
}

static enum MHD_Result cliViewSceneEdit_Error( struct MHD_Connection* connection, unsigned int status, const char* message )
{
	cliViewText text = { 0 };
	cliViewText_Puts( &text, "{\"error\":" );
	cliViewText_String( &text, message );
	cliViewText_Puts( &text, "}\n" );
	return cliViewSceneEdit_Send( connection, status, &text, false );
}

// Whether a parsed document has a "file" key anywhere (cJSON bounds the nesting, so the recursion
// is bounded too).
static bool cliViewSceneEdit_NamesFile( const cJSON* item )
{
	for ( const cJSON* child = item != NULL ? item->child : NULL; child != NULL; child = child->next )
	{
		if ( ( cJSON_IsObject( item ) && child->string != NULL && strcmp( child->string, "file" ) == 0 ) ||
			 cliViewSceneEdit_NamesFile( child ) )
		{
			return true;
		}
	}
	return false;
}

// Loads the scene text of a request with the library's loader. NULL with the message in error and
// the status to answer: 400 with the loader's own message when it refuses the scene.
static cnScene* cliViewSceneEdit_Load( const char* data, size_t size, char* error, size_t errorSize, unsigned int* status )
{
	*status = MHD_HTTP_BAD_REQUEST;
	if ( data == NULL || size == 0 )
	{
		snprintf( error, errorSize, "the body must be a scene: a JSON object {\"cairn\": 1, ...}" );
		return NULL;
	}
	if ( strlen( data ) != size )
	{
		snprintf( error, errorSize, "the body holds a zero byte" );
		return NULL;
	}
	// text the JSON parser refuses goes on to the loader, whose parser is the same, for its message
	cJSON* root = cJSON_ParseWithLength( data, size );
	bool namesFile = cliViewSceneEdit_NamesFile( root );
	cJSON_Delete( root );
	if ( namesFile )
	{
		snprintf( error, errorSize, "a scene sent to the viewer cannot name files (\"file\" keys): the server reads "
									"no file the network names; give points, vertices or heights inline" );
		return NULL;
	}
	cnScene* scene = cnLoadSceneFromString( data, CLI_VIEW_SCENE_NAME );
	if ( scene == NULL )
	{
		snprintf( error, errorSize, "%s", cnGetError() );
	}
	return scene;
}

// /api/editor/check: the loaded scene's name, warnings, bodies, shapes and joints (as /api/scene
// gives them), every body's pose [x, y, z, qw, qx, qy, qz] at t = 0 and its velocities [vx, vy, vz,
// wx, wy, wz] (the centre of mass's, as cnBody_GetLinearVelocity gives it, and the angular one).
static enum MHD_Result cliViewSceneEdit_Check( struct MHD_Connection* connection, cnScene* scene )
{
	cnWorld* world = scene->world;
	int bodyCount = cnWorld_GetBodyCount( world );
	cnBodyId* bodies = malloc( sizeof( cnBodyId ) * (size_t)( bodyCount > 0 ? bodyCount : 1 ) );
	if ( bodies == NULL )
	{
		return cliViewSceneEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory" );
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		bodies[i] = cnWorld_GetBody( world, i );
	}
	cnRecording* description = cliViewSource_Describe( scene, bodies );
	if ( description == NULL )
	{
		free( bodies );
		return cliViewSceneEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot describe the scene" );
	}
	cliViewText text = { 0 };
	cliViewText_Puts( &text, "{\"ok\":true,\"name\":" );
	cliViewText_String( &text, scene->name );
	cliViewText_Puts( &text, ",\"warnings\":[" );
	for ( int i = 0; i < scene->warningCount; ++i )
	{
		cliViewText_Puts( &text, i > 0 ? "," : "" );
		cliViewText_String( &text, scene->warnings[i] );
	}
	cliViewText_Puts( &text, "]," );
	cliViewServer_DescribeBodies( &text, description );
	cliViewText_Puts( &text, ",\"poses\":[" );
	for ( int i = 0; i < bodyCount; ++i )
	{
		cnTransform x = cnBody_GetTransform( world, bodies[i] );
		double pose[7] = { x.p.x, x.p.y, x.p.z, x.q.w, x.q.x, x.q.y, x.q.z };
		for ( int k = 0; k < 7; ++k )
		{
			cliViewText_Puts( &text, k == 0 ? ( i > 0 ? ",[" : "[" ) : "," );
			cliViewText_Number( &text, pose[k] );
		}
		cliViewText_Puts( &text, "]" );
	}
	// the velocities the loader gave: of the centre of mass and angular, what a cut's "velocity" sets
	cliViewText_Puts( &text, "],\"velocities\":[" );
	for ( int i = 0; i < bodyCount; ++i )
	{
		cnVec3 v = cnBody_GetLinearVelocity( world, bodies[i] ), w = cnBody_GetAngularVelocity( world, bodies[i] );
		double velocity[6] = { v.x, v.y, v.z, w.x, w.y, w.z };
		for ( int k = 0; k < 6; ++k )
		{
			cliViewText_Puts( &text, k == 0 ? ( i > 0 ? ",[" : "[" ) : "," );
			cliViewText_Number( &text, velocity[k] );
		}
		cliViewText_Puts( &text, "]" );
	}
	cliViewText_Puts( &text, "]}\n" );
	cnDestroyRecording( description );
	free( bodies );
	return cliViewSceneEdit_Send( connection, MHD_HTTP_OK, &text, false );
}

// /api/editor/save: the scene as the library writes it (its t = 0 is the loaded state), so the file
// loads bit for bit into the world the page's document made, and saving it again gives its bytes.
static enum MHD_Result cliViewSceneEdit_Save( struct MHD_Connection* connection, cnScene* scene )
{
	cnSceneWriteDef def = cnDefaultSceneWriteDef();
	def.name = scene->name;
	def.description = scene->description != NULL && scene->description[0] != 0 ? scene->description : NULL;
	def.timeStep = scene->timeStep;
	def.duration = scene->duration;
	def.fps = scene->fps;
	def.cameras = scene->cameras;
	def.cameraCount = scene->cameraCount;
	char* written = cnWriteSceneToString( scene->world, &def );
	if ( written == NULL )
	{
		char message[600];
		snprintf( message, sizeof( message ), "cannot write the scene: %s", cnGetError() );
		return cliViewSceneEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, message );
	}
	cliViewText text = { 0 };
	cliViewText_Puts( &text, written );
	cnFree( written );
	return cliViewSceneEdit_Send( connection, MHD_HTTP_OK, &text, true );
}

enum MHD_Result cliViewSceneEdit_Answer( cliViewSource* source, struct MHD_Connection* connection, const char* url,
										 const char* method, const char* uploadData, size_t* uploadSize,
										 void** requestContext, cliViewSceneEdit_ApplyFn* apply, void* applyContext )
{
	if ( strcmp( method, MHD_HTTP_METHOD_POST ) != 0 )
	{
		return cliViewSceneEdit_Error( connection, MHD_HTTP_METHOD_NOT_ALLOWED, "POST a scene here" );
	}
	bool applying = strcmp( url, "/api/editor/apply" ) == 0;
	if ( applying && source->simulated == false )
	{
		return cliViewSceneEdit_Error( connection, MHD_HTTP_CONFLICT,
									   "a recording is played as it was made: open a scene to edit and simulate it" );
	}
	const char* data = NULL;
	size_t size = 0;
	int read = cliViewEdit_ReadBody( connection, uploadData, uploadSize, requestContext, CLI_VIEW_MAX_SCENE_BODY, &data,
									 &size );
	if ( read != 1 )
	{
		return read == 0 ? MHD_YES : read == -1 ? cliViewSceneEdit_Error( connection, 413, "the scene is over 4 MiB" ) : MHD_NO;
	}
	char error[1024];
	unsigned int status = 0;
	cnScene* scene = cliViewSceneEdit_Load( data, size, error, sizeof( error ), &status );
	if ( scene == NULL )
	{
		return cliViewSceneEdit_Error( connection, status, error );
	}
	if ( strcmp( url, "/api/editor/check" ) == 0 )
	{
		enum MHD_Result result = cliViewSceneEdit_Check( connection, scene );
		cnDestroyScene( scene );
		return result;
	}
	if ( strcmp( url, "/api/editor/save" ) == 0 )
	{
		enum MHD_Result result = cliViewSceneEdit_Save( connection, scene );
		cnDestroyScene( scene );
		return result;
	}
	// the source owns the scene from here on
	if ( apply( applyContext, scene, error, sizeof( error ) ) == false )
	{
		return cliViewSceneEdit_Error( connection, MHD_HTTP_INTERNAL_SERVER_ERROR, error );
	}
	cliViewText text = { 0 };
	cliViewText_Puts( &text, "{\"ok\":true}\n" );
	return cliViewSceneEdit_Send( connection, MHD_HTTP_OK, &text, false );
}
