// SPDX-License-Identifier: MIT
// The scene's "cameras" (docs/scene-format.md, "Cameras"): fixed, following a body, mounted on a
// body (AERO's camera on a body) or along keyframes. Read once every body exists, so a camera's
// body is checked by name like a force's; each camera owns copies of its strings and keys, as the
// cJSON tree they came from is freed after loading.
#include "io_util.h"
#include "json_read.h"

#include "cairn/scene.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

static const char* const cnCameraTypeNames[] = { "fixed", "follow", "mounted", "path" };

// The keys each type takes; the others are refused with the type named, so a "body" on a fixed
// camera is not silently ignored.
static const char* const cnFixedKeys[] = { "name", "type", "position", "look_at", "fov_deg" };
static const char* const cnFollowKeys[] = { "name", "type", "body", "offset", "fov_deg" };
static const char* const cnMountedKeys[] = { "name", "type", "body", "offset", "look_at", "fov_deg" };
static const char* const cnPathKeys[] = { "name", "type", "keys", "fov_deg" };
static const char* const cnKeyKeys[] = { "time", "position", "look_at" };

void cnJsonFreeCameras( cnCameraDef* cameras, int count )
{
	for ( int i = 0; cameras != NULL && i < count; ++i )
	{
		free( (char*)cameras[i].name );
		free( (char*)cameras[i].body );
		free( (cnCameraKey*)cameras[i].keys );
	}
	free( cameras );
}

// The keys of a path camera: at least one, times increasing, each looking somewhere else than
// where it is.
static bool cnLoadCameraKeys( cnLoader* L, const cJSON* keys, cnCameraDef* def )
{
	int saved = cnJsonPushKey( L, "keys" );
	if ( cJSON_IsArray( keys ) == false || cJSON_GetArraySize( keys ) < 1 )
	{
		bool failed = cnJsonFail( L, "expected an array of at least one key {\"time\", \"position\", \"look_at\"}, got %s",
								  cJSON_IsArray( keys ) ? "an empty array" : cnJsonKind( keys ) );
		cnJsonPopPath( L, saved );
		return failed;
	}
	int count = cJSON_GetArraySize( keys );
	cnCameraKey* out = calloc( (size_t)count, sizeof( cnCameraKey ) );
	if ( out == NULL )
	{
		cnJsonPopPath( L, saved );
		return cnJsonFailOutOfMemory( L );
	}
	def->keys = out;
	def->keyCount = count;
	int index = 0;
	bool ok = true;
	for ( const cJSON* k = keys->child; ok && k != NULL; k = k->next, ++index )
	{
		int inner = cnJsonPushIndex( L, index );
		cnCameraKey* key = out + index;
		key->position = cnV3( 6.0, -8.0, 4.0 );
		key->lookAt = cnVec3_zero;
		ok = cJSON_IsObject( k ) ||
			 cnJsonFail( L, "expected an object {\"time\", \"position\", \"look_at\"}, got %s", cnJsonKind( k ) );
		ok = ok && cnJsonCheckKeys( L, k, cnKeyKeys, CN_COUNT( cnKeyKeys ), "a camera key" ) &&
			 cnJsonRequire( L, k, "time", "the key's time in seconds" ) &&
			 cnJsonRequire( L, k, "position", "where the camera is at that time" ) &&
			 cnJsonReadNumber( L, k, "time", cnJsonCheck_any, &key->time ) &&
			 cnJsonReadVec3( L, k, "position", cnJsonCheck_any, &key->position ) &&
			 cnJsonReadVec3( L, k, "look_at", cnJsonCheck_any, &key->lookAt );
		if ( ok && index > 0 && !( key->time > out[index - 1].time ) )
		{
			ok = cnJsonFailAt( L, "time", "key times must increase (%s after %s)", cnJsonShowNumber( key->time ).text,
							   cnJsonShowNumber( out[index - 1].time ).text );
		}
		if ( ok && cnDistance( key->position, key->lookAt ) == 0.0 )
		{
			ok = cnJsonFailAt( L, "look_at", "the camera would look at its own position" );
		}
		cnJsonPopPath( L, inner );
	}
	cnJsonPopPath( L, saved );
	return ok;
}

// One camera; its strings are copied into def.
static bool cnLoadCamera( cnLoader* L, const cJSON* c, cnCameraDef* def )
{
	if ( cJSON_IsObject( c ) == false )
	{
		return cnJsonFail( L, "expected a camera object {\"name\", \"type\", ...}, got %s", cnJsonKind( c ) );
	}
	const char* name = NULL;
	const char* type = "fixed";
	if ( cnJsonRequire( L, c, "name", "the camera's name (cairn render --camera NAME)" ) == false ||
		 cnJsonReadString( L, c, "name", &name ) == false || cnJsonReadString( L, c, "type", &type ) == false )
	{
		return false;
	}
	int t = 0;
	while ( t < CN_COUNT( cnCameraTypeNames ) && strcmp( cnCameraTypeNames[t], type ) != 0 )
	{
		t += 1;
	}
	if ( t == CN_COUNT( cnCameraTypeNames ) )
	{
		return cnJsonFailAt( L, "type", "unknown camera type \"%s\" (allowed: fixed, follow, mounted, path)", type );
	}
	def->type = (cnCameraType)t;
	def->name = cnIoCopyString( name );
	if ( def->name == NULL )
	{
		return cnJsonFailOutOfMemory( L );
	}
	static const char* const* const keys[] = { cnFixedKeys, cnFollowKeys, cnMountedKeys, cnPathKeys };
	static const int keyCounts[] = { CN_COUNT( cnFixedKeys ), CN_COUNT( cnFollowKeys ), CN_COUNT( cnMountedKeys ),
									 CN_COUNT( cnPathKeys ) };
	char what[48];
	snprintf( what, sizeof( what ), "a %s camera", type );
	if ( cnJsonCheckKeys( L, c, keys[t], keyCounts[t], what ) == false ||
		 cnJsonReadNumber( L, c, "fov_deg", cnJsonCheck_positive, &def->fovDeg ) == false )
	{
		return false;
	}
	if ( def->fovDeg >= 180.0 )
	{
		return cnJsonFailAt( L, "fov_deg", "a field of view must be below 180 degrees (got %s)",
							 cnJsonShowNumber( def->fovDeg ).text );
	}
	switch ( def->type )
	{
		case cnCamera_fixed:
			if ( cnJsonRequire( L, c, "position", "where the camera is" ) == false ||
				 cnJsonReadVec3( L, c, "position", cnJsonCheck_any, &def->position ) == false ||
				 cnJsonReadVec3( L, c, "look_at", cnJsonCheck_any, &def->lookAt ) == false )
			{
				return false;
			}
			if ( cnDistance( def->position, def->lookAt ) == 0.0 )
			{
				return cnJsonFailAt( L, "look_at", "the camera would look at its own position" );
			}
			return true;
		case cnCamera_follow:
		case cnCamera_mounted:
		{
			const char* body = NULL;
			cnBodyId id;
			// a follow camera sits behind and above its body by default; a mounted one at its origin
			def->offset = def->type == cnCamera_follow ? cnV3( 3.0, -4.0, 2.0 ) : cnVec3_zero;
			if ( cnJsonRequire( L, c, "body", "the name of the body it moves with" ) == false ||
				 cnJsonReadString( L, c, "body", &body ) == false )
			{
				return false;
			}
			int saved = cnJsonPushKey( L, "body" );
			bool found = cnJsonBodyByName( L, body, &id );
			cnJsonPopPath( L, saved );
			def->body = found ? cnIoCopyString( body ) : NULL;
			if ( found == false || def->body == NULL )
			{
				return found ? cnJsonFailOutOfMemory( L ) : false;
			}
			if ( cnJsonReadVec3( L, c, "offset", cnJsonCheck_any, &def->offset ) == false ||
				 cnJsonReadVec3( L, c, "look_at", cnJsonCheck_any, &def->localLookAt ) == false )
			{
				return false;
			}
			if ( def->type == cnCamera_follow && cnLength( def->offset ) == 0.0 )
			{
				return cnJsonFailAt( L, "offset", "a follow camera at its body's origin would look at its own position" );
			}
			if ( def->type == cnCamera_mounted && cnDistance( def->offset, def->localLookAt ) == 0.0 )
			{
				return cnJsonFailAt( L, "look_at", "the camera would look at its own position" );
			}
			return true;
		}
		case cnCamera_path:
			return cnJsonRequire( L, c, "keys", "the path's keyframes [{\"time\", \"position\", \"look_at\"}, ...]" ) &&
				   cnLoadCameraKeys( L, cnJsonField( c, "keys" ), def );
		default:
			return false;
	}
}

bool cnJsonLoadCameras( cnLoader* L, const cJSON* cameras )
{
	if ( cameras == NULL )
	{
		return true;
	}
	if ( cJSON_IsArray( cameras ) == false )
	{
		return cnJsonFail( L, "expected an array of cameras, got %s", cnJsonKind( cameras ) );
	}
	int count = cJSON_GetArraySize( cameras );
	if ( count == 0 )
	{
		return true;
	}
	L->cameras = calloc( (size_t)count, sizeof( cnCameraDef ) );
	if ( L->cameras == NULL )
	{
		return cnJsonFailOutOfMemory( L );
	}
	int index = 0;
	for ( const cJSON* c = cameras->child; c != NULL; c = c->next, ++index )
	{
		cnCameraDef* def = L->cameras + index;
		*def = cnDefaultCameraDef();
		def->name = NULL;
		L->cameraCount = index + 1;
		int saved = cnJsonPushIndex( L, index );
		bool ok = cnLoadCamera( L, c, def );
		for ( int j = 0; ok && j < index; ++j )
		{
			if ( strcmp( L->cameras[j].name, def->name ) == 0 )
			{
				ok = cnJsonFailAt( L, "name", "camera \"%s\" is defined twice (cameras[%d] and here)", def->name, j );
			}
		}
		cnJsonPopPath( L, saved );
		if ( ok == false )
		{
			return false;
		}
	}
	return true;
}

const cnCameraDef* cnScene_FindCamera( const cnScene* scene, const char* name )
{
	for ( int i = 0; scene != NULL && i < scene->cameraCount; ++i )
	{
		if ( name == NULL || strcmp( scene->cameras[i].name, name ) == 0 )
		{
			return scene->cameras + i;
		}
	}
	return NULL;
}
