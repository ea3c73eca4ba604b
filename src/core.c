// SPDX-License-Identifier: MIT
// Defaults, names and the material combination rules.
#include "core.h"

#include "cairn/cairn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.1.0"
#endif

const char* cnVersionString( void )
{
	return CAIRN_VERSION;
}

static const char* s_methodNames[cnMethod_count] = {
	"impulse", "lcp", "velocity-projection", "gr-lcp", "gr-velocity-projection", "penalty", "analytic-impulse",
	"constraint" };

const char* cnMethodName( cnMethod method )
{
	if ( (int)method < 0 || method >= cnMethod_count )
	{
		return "unknown";
	}
	return s_methodNames[method];
}

bool cnMethodFromName( const char* name, cnMethod* method )
{
	for ( int i = 0; name != NULL && i < cnMethod_count; ++i )
	{
		if ( strcmp( name, s_methodNames[i] ) == 0 )
		{
			*method = (cnMethod)i;
			return true;
		}
	}
	return false;
}

const char* cnShapeTypeName( cnShapeType type )
{
	static const char* names[cnShape_count] = { "sphere", "box", "capsule", "cylinder", "plane", "polygon" };
	if ( (int)type < 0 || type >= cnShape_count )
	{
		return "unknown";
	}
	return names[type];
}

const char* cnBodyTypeName( cnBodyType type )
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
	def.lcpSolver = cnLcp_dantzig;
	def.integrator = cnIntegrator_symplecticEuler;
	def.planar = false;
	def.positionCorrection = true;
	def.speculativeContacts = true;
	def.errorTolerance = 1e-6;
	def.subSteps = 8;
	def.contactHertz = 30.0;
	def.contactDampingRatio = 10.0;
	def.maxPushVelocity = 3.0;
	def.restitutionThreshold = 1.0;
	def.linearSlop = 0.005;
	def.speculativeDistance = 4.0 * 0.005;
	def.enableSleep = true;
	def.timeToSleep = 0.5;
	def.sleepLinearThreshold = 0.05;
	def.sleepAngularThreshold = 0.05;
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
