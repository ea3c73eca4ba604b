// SPDX-License-Identifier: MIT
// The world: creation and destruction, its settings and the lists of its bodies.
#include "world.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool cnValidateWorldDef( const cnWorldDef* def, char* error, int errorCapacity )
{
	const char* why = NULL;
	if ( def == NULL )
	{
		why = "world def is NULL";
	}
	else if ( !cnIsValidVec3( def->gravity ) )
	{
		why = "gravity must be finite";
	}
	else if ( (int)def->method < 0 || def->method >= cnMethod_count )
	{
		why = "unknown contact method";
	}
	else if ( (int)def->lcpSolver < 0 || def->lcpSolver > cnLcp_lemke )
	{
		why = "unknown LCP solver";
	}
	else if ( (int)def->integrator < 0 || def->integrator > cnIntegrator_explicitEuler )
	{
		why = "unknown integrator";
	}
	else if ( !( def->errorTolerance > 0.0 ) || !isfinite( def->errorTolerance ) )
	{
		why = "errorTolerance must be finite and > 0";
	}
	else if ( def->subSteps < 1 || def->subSteps > 64 )
	{
		why = "subSteps must be in [1, 64]";
	}
	else if ( !( def->contactHertz > 0.0 ) || !( def->contactDampingRatio >= 0.0 ) || !( def->maxPushVelocity >= 0.0 ) ||
			  !isfinite( def->contactHertz ) || !isfinite( def->contactDampingRatio ) ||
			  !isfinite( def->maxPushVelocity ) )
	{
		why = "contact softness settings must be finite and positive";
	}
	else if ( !( def->restitutionThreshold >= 0.0 ) || !( def->linearSlop >= 0.0 ) ||
			  !( def->speculativeDistance >= 0.0 ) || !( def->timeToSleep >= 0.0 ) ||
			  !( def->sleepLinearThreshold >= 0.0 ) || !( def->sleepAngularThreshold >= 0.0 ) ||
			  !isfinite( def->restitutionThreshold + def->linearSlop + def->speculativeDistance + def->timeToSleep +
						 def->sleepLinearThreshold + def->sleepAngularThreshold ) )
	{
		why = "thresholds must be finite and >= 0";
	}
	if ( why != NULL )
	{
		cnFail( cnError_invalidArgument, "%s", why );
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "%s", why );
		}
		return false;
	}
	return true;
}

cnWorld* cnCreateWorld( const cnWorldDef* def, char* error, int errorCapacity )
{
	if ( !cnValidateWorldDef( def, error, errorCapacity ) )
	{
		return NULL;
	}
	cnWorld* world = calloc( 1, sizeof( cnWorld ) );
	if ( world == NULL )
	{
		cnFail( cnError_outOfMemory, "out of memory" );
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "out of memory" );
		}
		return NULL;
	}
	world->magic = CN_WORLD_MAGIC;
	world->def = *def;
	world->gravity = def->gravity;
	world->freeBody = -1;
	world->freeShape = -1;
	cnPairMap_Create( &world->contactMap, 256 );
	cnPairMap_Create( &world->disabledPairs, 16 );
	cnBroadPhase_Create( &world->broadPhase );
	cnArena_Create( &world->arena, 1 << 20 );

	// material 0 is the default material
	cnMaterialDef material = cnDefaultMaterialDef();
	material.name = "default";
	cnWorld_CreateMaterial( world, &material );
	return world;
}

void cnDestroyWorld( cnWorld* world )
{
	if ( world == NULL || world->magic != CN_WORLD_MAGIC )
	{
		return;
	}
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		free( world->bodies[i].name );
	}
	free( world->bodies );
	for ( int i = 0; i < world->shapeCount; ++i )
	{
		cnFreeGeometry( &world->shapes[i].geom );
	}
	free( world->shapes );
	for ( int i = 0; i < world->contactCount; ++i )
	{
		cnFreeContact( world->contacts + i );
	}
	free( world->contacts );
	cnDestroyMaterials( world );
	free( world->forces );
	for ( int i = 0; i < world->sleepIslandCount; ++i )
	{
		free( world->sleepIslands[i].bodies );
	}
	free( world->sleepIslands );
	cnPairMap_Destroy( &world->contactMap );
	cnPairMap_Destroy( &world->disabledPairs );
	cnBroadPhase_Destroy( &world->broadPhase );
	cnArena_Destroy( &world->arena );
	world->magic = 0;
	free( world );
}


double cnWorld_GetTime( const cnWorld* world )
{
	return world != NULL ? world->time : 0.0;
}

cnStats cnWorld_GetStats( const cnWorld* world )
{
	cnStats s = world->stats;
	s.bodyCount = world->liveBodyCount;
	s.shapeCount = world->liveShapeCount;
	s.contactCount = world->contactCount;
	s.bytes = (int64_t)world->arena.capacity;
	return s;
}

cnWorldDef cnWorld_GetDef( const cnWorld* world )
{
	cnWorldDef def = world->def;
	def.gravity = world->gravity;
	return def;
}

static void cnWakeAll( cnWorld* world )
{
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( b->alive && b->type != cnBody_static )
		{
			cnWakeBody( world, b );
			b->sleepTime = 0.0;
		}
	}
}

void cnWorld_SetGravity( cnWorld* world, cnVec3 gravity )
{
	if ( !cnIsValidVec3( gravity ) )
	{
		cnFail( cnError_invalidArgument, "gravity must be finite" );
		return;
	}
	world->gravity = gravity;
	cnWakeAll( world );
}

cnVec3 cnWorld_GetGravity( const cnWorld* world )
{
	return world->gravity;
}

void cnWorld_EnableSleeping( cnWorld* world, bool flag )
{
	world->def.enableSleep = flag;
	if ( flag == false )
	{
		cnWakeAll( world );
	}
}

int cnWorld_GetBodyCount( const cnWorld* world )
{
	return world->liveBodyCount;
}

cnBodyId cnWorld_GetBody( const cnWorld* world, int i )
{
	if ( i < 0 )
	{
		return cnBodyId_null;
	}
	for ( int k = 0, n = 0; k < world->bodyCount; ++k )
	{
		if ( world->bodies[k].alive )
		{
			if ( n == i )
			{
				cnBodyId id = { k, world->bodies[k].generation };
				return id;
			}
			n += 1;
		}
	}
	return cnBodyId_null;
}

cnBodyId cnWorld_FindBody( const cnWorld* world, const char* name )
{
	for ( int k = 0; name != NULL && k < world->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + k;
		if ( b->alive && b->name != NULL && strcmp( b->name, name ) == 0 )
		{
			cnBodyId id = { k, b->generation };
			return id;
		}
	}
	return cnBodyId_null;
}

const char* cnWorld_GetError( const cnWorld* world )
{
	(void)world;
	return cnGetError();
}
