// SPDX-License-Identifier: MIT
// Defaults of the def structs, the version, names of enums and string copies.
#include "core.h"
#include "error.h"

#include "cairn/cairn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.1.0"
#endif

const char* cnGetVersion( void )
{
	return CAIRN_VERSION;
}

const char* cnShapeType_GetName( cnShapeType type )
{
	static const char* names[cnShape_count] = { "sphere", "box", "capsule", "cylinder", "plane", "polygon", "hull", "mesh", "heightfield" };
	if ( (int)type < 0 || type >= cnShape_count )
	{
		return "unknown";
	}
	return names[type];
}

static const char* const s_finishNames[cnFinish_count] = { "plastic", "matte",	"metal", "glass",
														  "wood",	 "marble", "rubber" };

const char* cnFinish_GetName( cnFinish finish )
{
	if ( (int)finish < 0 || finish >= cnFinish_count )
	{
		return "unknown";
	}
	return s_finishNames[finish];
}

bool cnFinish_FromName( const char* name, cnFinish* finish )
{
	for ( int i = 0; name != NULL && i < cnFinish_count; ++i )
	{
		if ( strcmp( name, s_finishNames[i] ) == 0 )
		{
			*finish = (cnFinish)i;
			cnClearError();
			return true;
		}
	}
	return cnSetError( cnError_invalidArgument,
					   "unknown finish \"%s\" (known: plastic, matte, metal, glass, wood, marble, rubber)",
					   name != NULL ? name : "(null)" );
}

const char* cnBodyType_GetName( cnBodyType type )
{
	switch ( type )
	{
		case cnBody_static:
			return "static";
		case cnBody_kinematic:
			return "kinematic";
		case cnBody_dynamic:
			return "dynamic";
	}
	return "unknown";
}

cnWorldDef cnDefaultWorldDef( void )
{
	cnWorldDef def;
	memset( &def, 0, sizeof( def ) );
	def.gravity = cnV3( 0.0, 0.0, -9.81 );
	def.method = cnMethod_impulse;
	def.settings = cnDefaultMethodSettings();
	def.planar = false;
	def.restitutionThreshold = 1.0;
	def.linearSlop = 0.005;
	def.speculativeDistance = 4.0 * 0.005;
	def.contactRecycleDistance = 0.005;
	def.enableContinuous = true;
	def.enableSleep = true;
	def.timeToSleep = 0.5;
	def.sleepLinearThreshold = 0.05;
	def.sleepAngularThreshold = 0.05;
	def.hitEventThreshold = 1.0;
	// the instability guard: no speed bound of its own (a fixed one would be wrong for some scale:
	// a sphere of 1e24 m legitimately moves at 1e23 m/s), energy jumps beyond half the kinetic
	// energy plus a floor (guard.c)
	def.onInstability = cnInstability_stop;
	def.maxSpeed = INFINITY;
	def.maxAngularSpeed = INFINITY;
	def.maxEnergyGrowth = 0.5;
	def.workerCount = 1;
	return def;
}

cnBodyDef cnDefaultBodyDef( void )
{
	cnBodyDef def;
	memset( &def, 0, sizeof( def ) );
	def.type = cnBody_dynamic;
	def.orientation = cnQuat_identity;
	def.gravityScale = 1.0;
	def.enableSleep = true;
	def.isAwake = true;
	return def;
}

cnMaterialDef cnDefaultMaterialDef( void )
{
	cnMaterialDef def;
	memset( &def, 0, sizeof( def ) );
	def.density = 1000.0;
	def.friction = 0.6;
	def.restitution = 0.0;
	def.color[0] = 0.7f;
	def.color[1] = 0.7f;
	def.color[2] = 0.7f;
	def.finish = cnFinish_plastic;
	def.ior = 1.5;
	return def;
}

cnShapeDef cnDefaultShapeDef( void )
{
	cnShapeDef def;
	memset( &def, 0, sizeof( def ) );
	def.type = cnShape_sphere;
	def.radius = 1.0;
	def.halfExtents = cnV3( 0.5, 0.5, 0.5 );
	def.halfHeight = 0.5;
	def.normal = cnV3( 0.0, 0.0, 1.0 );
	def.orientation = cnQuat_identity;
	def.material = 0;
	def.categoryBits = 1;
	def.maskBits = UINT64_MAX;
	def.enableContactEvents = true;
	def.enableHitEvents = false;
	return def;
}

cnForceDef cnDefaultForceDef( void )
{
	cnForceDef def;
	memset( &def, 0, sizeof( def ) );
	def.body = cnBodyId_null;
	def.target = cnBodyId_null;
	def.frame = cnForce_world;
	def.t0 = 0.0;
	def.t1 = INFINITY;
	return def;
}

char* cnCopyString( const char* s )
{
	if ( s == NULL )
	{
		return NULL;
	}
	size_t n = strlen( s ) + 1;
	char* copy = malloc( n );
	if ( copy != NULL )
	{
		memcpy( copy, s, n );
	}
	return copy;
}
