// SPDX-License-Identifier: MIT
// User forces: the world's table of forces and torques with time windows, and the stage that
// applies the active ones.
#include "force.h"

#include "body.h"
#include "error.h"
#include "world.h"

#include <stdlib.h>

// Applies the user forces of the world's force table that are active at the current time.
void cnApplyUserForces( cnWorld* world )
{
	for ( int i = 0; i < world->forceCount; ++i )
	{
		const cnForceDef* f = world->forces + i;
		if ( !( world->time >= f->t0 && world->time < f->t1 ) )
		{
			continue;
		}
		cnBody* body = cnGetBody( world, f->body );
		if ( body == NULL || body->type != cnBody_dynamic )
		{
			continue;
		}
		if ( body->awake == false )
		{
			cnWakeBody( world, body );
		}
		body->sleepTime = 0.0;

		if ( f->isTorque )
		{
			cnVec3 torque = f->frame == cnForce_body ? cnRotate( body->xf.q, f->vector ) : f->vector;
			body->torque = cnAdd( body->torque, torque );
			continue;
		}

		cnVec3 point = cnTransformPoint( body->xf, f->localPoint );
		cnVec3 force = f->vector;
		if ( f->frame == cnForce_body )
		{
			force = cnRotate( body->xf.q, f->vector );
		}
		else if ( f->frame == cnForce_target )
		{
			cnVec3 target = f->targetPoint;
			cnBody* targetBody = f->target.index >= 0 ? cnGetBody( world, f->target ) : NULL;
			if ( targetBody != NULL )
			{
				target = cnTransformPoint( targetBody->xf, f->targetPoint );
			}
			force = cnMulSV( cnLength( f->vector ), cnNormalize( cnSub( target, point ) ) );
		}
		body->force = cnAdd( body->force, force );
		body->torque = cnAdd( body->torque, cnCross( cnSub( point, body->center ), force ) );
	}
}

int cnWorld_CreateForce( cnWorld* world, const cnForceDef* def )
{
	if ( def == NULL )
	{
		cnFail( cnError_invalidArgument, "force def is NULL" );
		return -1;
	}
	cnBody* body = cnGetBody( world, def->body );
	if ( body == NULL )
	{
		return -1;
	}
	if ( !cnIsValidVec3( def->localPoint ) || !cnIsValidVec3( def->vector ) || !cnIsValidVec3( def->targetPoint ) )
	{
		cnFail( cnError_invalidArgument, "force point, vector and target must be finite" );
		return -1;
	}
	if ( isnan( def->t0 ) || isnan( def->t1 ) || def->t1 < def->t0 )
	{
		cnFail( cnError_invalidArgument, "force time window [%g, %g) is invalid", def->t0, def->t1 );
		return -1;
	}
	if ( (int)def->frame < 0 || def->frame > cnForce_target || ( def->isTorque && def->frame == cnForce_target ) )
	{
		cnFail( cnError_invalidArgument, "invalid force frame" );
		return -1;
	}
	if ( def->frame == cnForce_target && def->target.index >= 0 && cnGetBody( world, def->target ) == NULL )
	{
		return -1;
	}
	cnForceDef* forces = realloc( world->forces, (size_t)( world->forceCount + 1 ) * sizeof( cnForceDef ) );
	if ( forces == NULL )
	{
		cnFail( cnError_outOfMemory, "out of memory" );
		return -1;
	}
	world->forces = forces;
	forces[world->forceCount] = *def;
	return world->forceCount++;
}

int cnWorld_GetForceCount( const cnWorld* world )
{
	return world->forceCount;
}

cnForceDef cnWorld_GetForce( const cnWorld* world, int index )
{
	if ( index < 0 || index >= world->forceCount )
	{
		return cnDefaultForceDef();
	}
	return world->forces[index];
}
