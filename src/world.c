// SPDX-License-Identifier: MIT
// The world: creation and destruction, its settings and the lists of its bodies.
#include "world.h"

#include "error.h"
#include "island.h"
#include "methods/method.h"
#include "task.h"

#include <stdlib.h>
#include <string.h>

bool cnRequireWorld( const cnWorld* world )
{
	if ( world == NULL || world->magic != CN_WORLD_MAGIC )
	{
		return cnSetError( cnError_invalidArgument, "world is NULL or destroyed" );
	}
	return true;
}

// Checks a world def; NULL when valid, else the reason.
static const char* cnCheckWorldDef( const cnWorldDef* def )
{
	if ( def == NULL )
	{
		return "world def is NULL";
	}
	if ( !cnIsValidVec3( def->gravity ) )
	{
		return "gravity must be finite";
	}
	if ( cnGetMethodModule( def->method ) == NULL )
	{
		return "unknown contact method";
	}
	const char* why = cnValidateMethodSettings( &def->settings );
	if ( why != NULL )
	{
		return why;
	}
	if ( !( def->restitutionThreshold >= 0.0 ) || !( def->linearSlop >= 0.0 ) || !( def->speculativeDistance >= 0.0 ) ||
		 !( def->contactRecycleDistance >= 0.0 ) || !( def->timeToSleep >= 0.0 ) ||
		 !( def->sleepLinearThreshold >= 0.0 ) || !( def->sleepAngularThreshold >= 0.0 ) ||
		 !isfinite( def->restitutionThreshold + def->linearSlop + def->speculativeDistance +
					def->contactRecycleDistance + def->timeToSleep + def->sleepLinearThreshold +
					def->sleepAngularThreshold ) )
	{
		return "thresholds must be finite and >= 0";
	}
	if ( !( def->hitEventThreshold >= 0.0 ) || !isfinite( def->hitEventThreshold ) )
	{
		return "hit event threshold must be finite and >= 0";
	}
	// the instability guard's settings (guard.c); INFINITY switches a bound off
	if ( (int)def->onInstability < 0 || def->onInstability >= cnInstability_count )
	{
		return "onInstability must be cnInstability_stop, cnInstability_warn or cnInstability_freezeBody";
	}
	if ( !( def->maxSpeed > 0.0 ) )
	{
		return "maxSpeed must be > 0 (INFINITY: no bound)";
	}
	if ( !( def->maxAngularSpeed > 0.0 ) )
	{
		return "maxAngularSpeed must be > 0 (INFINITY: no bound)";
	}
	if ( !( def->maxEnergyGrowth > 0.0 ) )
	{
		return "maxEnergyGrowth must be > 0 (INFINITY: no check)";
	}
	if ( def->workerCount < 1 || def->workerCount > CN_MAX_WORKERS )
	{
		return "workerCount must be from 1 to CN_MAX_WORKERS (64)";
	}
	if ( ( def->enqueueTask == NULL ) != ( def->finishTask == NULL ) )
	{
		return "enqueueTask and finishTask must be set together";
	}
	return NULL;
}

cnWorld* cnCreateWorld( const cnWorldDef* def )
{
	const char* why = cnCheckWorldDef( def );
	if ( why != NULL )
	{
		cnSetError( cnError_invalidArgument, "%s", why );
		return NULL;
	}
	const cnMethodModule* module = cnGetMethodModule( def->method );
	cnWorld* world = calloc( 1, sizeof( cnWorld ) );
	void* methodState = module->stateSize > 0 ? calloc( 1, module->stateSize ) : NULL;
	if ( world == NULL || ( module->stateSize > 0 && methodState == NULL ) )
	{
		free( world );
		free( methodState );
		cnSetError( cnError_outOfMemory, "out of memory" );
		return NULL;
	}
	// the world's threads, unless the program schedules the work (task.c); a thread that cannot
	// start fails the creation, with the reason
	if ( def->workerCount > 1 && def->enqueueTask == NULL )
	{
		world->taskPool = cnTaskPool_Create( def->workerCount );
		if ( world->taskPool == NULL )
		{
			free( world );
			free( methodState );
			return NULL;
		}
	}
	world->magic = CN_WORLD_MAGIC;
	world->def = *def;
	world->module = module;
	world->methodState = methodState;
	world->gravity = def->gravity;
	world->freeBody = -1;
	world->freeShape = -1;
	cnPairMap_Create( &world->contactMap, 256 );
	cnPairMap_Create( &world->disabledPairs, 16 );
	cnPairMap_Create( &world->jointPairs, 16 );
	world->freeJoint = -1;
	cnBroadPhase_Create( &world->broadPhase );
	cnArena_Create( &world->arena, 1 << 20 );

	// material 0 is the default material
	cnMaterialDef material = cnDefaultMaterialDef();
	material.name = "default";
	cnCreateMaterial( world, &material );
	cnClearError();
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
	cnDestroyContactEvents( &world->events );
	cnDestroyMaterials( world );
	cnDestroyJoints( world );
	free( world->forces );
	for ( int i = 0; i < world->sleepIslandCount; ++i )
	{
		free( world->sleepIslands[i].bodies );
	}
	free( world->sleepIslands );
	cnPairMap_Destroy( &world->contactMap );
	cnPairMap_Destroy( &world->disabledPairs );
	cnBroadPhase_Destroy( &world->broadPhase );
	for ( int i = 0; i < world->pairBufferCount; ++i )
	{
		cnPairBuffer_Destroy( world->pairBuffers + i );
	}
	free( world->pairBuffers );
	cnArena_Destroy( &world->arena );
	free( world->methodState );
	cnTaskPool_Destroy( world->taskPool );
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

bool cnWorld_SetGravity( cnWorld* world, cnVec3 gravity )
{
	if ( !cnIsValidVec3( gravity ) )
	{
		return cnSetError( cnError_invalidArgument, "gravity must be finite" );
	}
	world->gravity = gravity;
	cnWakeAll( world );
	cnClearError();
	return true;
}

bool cnWorld_SetWorkerCount( cnWorld* world, int workerCount )
{
	if ( workerCount < 1 || workerCount > CN_MAX_WORKERS )
	{
		return cnSetError( cnError_invalidArgument, "workerCount must be from 1 to CN_MAX_WORKERS (64), got %d",
						   workerCount );
	}
	cnTaskPool_Destroy( world->taskPool );
	world->taskPool = NULL;
	world->def.workerCount = workerCount;
	if ( workerCount > 1 && world->def.enqueueTask == NULL )
	{
		world->taskPool = cnTaskPool_Create( workerCount );
		if ( world->taskPool == NULL )
		{
			world->def.workerCount = 1;
			return false;
		}
	}
	cnClearError();
	return true;
}

cnVec3 cnWorld_GetGravity( const cnWorld* world )
{
	return world->gravity;
}

bool cnWorld_SetContactRecycleDistance( cnWorld* world, double distance )
{
	if ( cnRequireWorld( world ) == false )
	{
		return false;
	}
	if ( !( distance >= 0.0 ) || !isfinite( distance ) )
	{
		return cnSetError( cnError_invalidArgument, "contact recycle distance must be finite and >= 0 (got %g)", distance );
	}
	world->def.contactRecycleDistance = distance;
	return true;
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
