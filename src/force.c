// SPDX-License-Identifier: MIT
// User forces: the world's table of forces and torques with time windows, and the stage that
// applies the active ones.
#include "force.h"

#include "body.h"
#include "error.h"
#include "island.h"
#include "lookup.h"
#include "mass.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>

// Applies the user forces of the world's force table that are active at the current time.
void cnApplyUserForces( cnWorld* world )
{
	for ( int i = 0; i < world->forceCount; ++i )
	{
		const cnForce* entry = world->forces + i;
		const cnForceDef* f = &entry->def;
		if ( entry->alive == false || !( world->time >= f->t0 && world->time < f->t1 ) )
		{
			continue;
		}
		// a force lives no longer than its body and target (cnDestroyBody destroys it)
		cnBody* body = world->bodies + f->body.index;
		if ( body->type != cnBody_dynamic )
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
			if ( f->target.index >= 0 )
			{
				target = cnTransformPoint( world->bodies[f->target.index].xf, f->targetPoint );
			}
			force = cnMulSV( cnLength( f->vector ), cnNormalize( cnSub( target, point ) ) );
		}
		body->force = cnAdd( body->force, force );
		body->torque = cnAdd( body->torque, cnCross( cnSub( point, body->center ), force ) );
	}
}

static cnForce* cnGetForce( const cnWorld* world, cnForceId id )
{
	if ( world == NULL || id.index < 0 || id.index >= world->forceCount || world->forces[id.index].alive == false ||
		 world->forces[id.index].generation != id.generation )
	{
		cnSetError( cnError_invalidId, "invalid or stale force id (index %d, generation %u)", id.index, id.generation );
		return NULL;
	}
	cnClearError();
	return world->forces + id.index;
}

// Length of a finite vector without overflow or underflow in its squares (scaled by its largest
// component first): inf only when the length itself is beyond the double range.
static double cnScaledLength( cnVec3 v )
{
	double largest = fmax( fabs( v.x ), fmax( fabs( v.y ), fabs( v.z ) ) );
	if ( largest == 0.0 || isfinite( largest ) == false )
	{
		return largest;
	}
	return largest * cnLength( cnV3( v.x / largest, v.y / largest, v.z / largest ) );
}

// Largest absolute row sum of a matrix: a bound on how much it stretches a vector.
static double cnRowSumNorm( cnMat3 m )
{
	double r0 = fabs( m.cx.x ) + fabs( m.cy.x ) + fabs( m.cz.x );
	double r1 = fabs( m.cx.y ) + fabs( m.cy.y ) + fabs( m.cz.y );
	double r2 = fabs( m.cx.z ) + fabs( m.cy.z ) + fabs( m.cz.z );
	return fmax( r0, fmax( r1, r2 ) );
}

// What the force stage derives from a force must stay finite: its length (a target force's
// magnitude) and its moment about the centre of mass; and the accelerations they give the body at
// its current mass must stay below CN_SAFE_MAX, as masses do, so the step's products of them stay
// finite too. Sets the error and returns false when one does not.
static bool cnCheckForceSize( const cnWorld* world, const cnForceDef* def )
{
	const cnBody* body = world->bodies + def->body.index;
	const char* what = def->isTorque ? "torque" : "force";
	double length = cnScaledLength( def->vector );
	if ( isfinite( length ) == false )
	{
		return cnSetError( cnError_invalidArgument, "%s vector (%g, %g, %g) has a length that is not finite", what,
						   def->vector.x, def->vector.y, def->vector.z );
	}
	double torque = length;
	if ( def->isTorque == false )
	{
		double arm = cnScaledLength( cnSub( def->localPoint, body->localCenter ) );
		torque = arm * length;
		if ( isfinite( torque ) == false )
		{
			return cnSetError( cnError_invalidArgument,
							   "force of %g N at %g m from the centre of mass has a torque that is not finite", length,
							   arm );
		}
		double acceleration = length * body->invMass;
		if ( !( acceleration <= CN_SAFE_MAX ) )
		{
			return cnSetError( cnError_invalidArgument,
							   "force of %g N gives the body (%g kg) an acceleration that is too large: %g m/s^2 "
							   "(above 1e150, where the step's products overflow)",
							   length, body->mass, acceleration );
		}
	}
	double angular = torque * cnRowSumNorm( body->invInertia );
	if ( !( angular <= CN_SAFE_MAX ) )
	{
		return cnSetError( cnError_invalidArgument,
						   "%s gives the body an angular acceleration that is too large: up to %g rad/s^2 from a "
						   "torque of %g N m (above 1e150, where the step's products overflow)",
						   what, angular, torque );
	}
	return true;
}

cnForceId cnCreateForce( cnWorld* world, const cnForceDef* def )
{
	if ( def == NULL )
	{
		cnSetError( cnError_invalidArgument, "force def is NULL" );
		return cnForceId_null;
	}
	if ( cnGetBody( world, def->body ) == NULL )
	{
		return cnForceId_null;
	}
	if ( !cnIsValidVec3( def->localPoint ) || !cnIsValidVec3( def->vector ) || !cnIsValidVec3( def->targetPoint ) )
	{
		cnSetError( cnError_invalidArgument, "force point, vector and target must be finite" );
		return cnForceId_null;
	}
	if ( isnan( def->t0 ) || isnan( def->t1 ) || def->t1 < def->t0 )
	{
		cnSetError( cnError_invalidArgument, "force time window [%g, %g) is invalid", def->t0, def->t1 );
		return cnForceId_null;
	}
	if ( (int)def->frame < 0 || def->frame > cnForce_target || ( def->isTorque && def->frame == cnForce_target ) )
	{
		cnSetError( cnError_invalidArgument, "invalid force frame" );
		return cnForceId_null;
	}
	if ( def->frame == cnForce_target && def->target.index >= 0 && cnGetBody( world, def->target ) == NULL )
	{
		return cnForceId_null;
	}
	if ( cnCheckForceSize( world, def ) == false )
	{
		return cnForceId_null;
	}

	// reuse a destroyed entry, else append; forces apply in index order
	int index = -1;
	for ( int i = 0; i < world->forceCount; ++i )
	{
		if ( world->forces[i].alive == false )
		{
			index = i;
			break;
		}
	}
	if ( index < 0 )
	{
		cnForce* forces = realloc( world->forces, (size_t)( world->forceCount + 1 ) * sizeof( cnForce ) );
		if ( forces == NULL )
		{
			cnSetError( cnError_outOfMemory, "out of memory" );
			return cnForceId_null;
		}
		world->forces = forces;
		index = world->forceCount++;
		world->forces[index].generation = 0;
	}
	cnForce* f = world->forces + index;
	f->def = *def;
	f->alive = true;
	f->generation += 1;
	world->liveForceCount += 1;
	cnClearError();
	return ( cnForceId ){ index, f->generation };
}

bool cnDestroyForce( cnWorld* world, cnForceId id )
{
	cnForce* f = cnGetForce( world, id );
	if ( f == NULL )
	{
		return false;
	}
	f->alive = false;
	world->liveForceCount -= 1;
	return true;
}

void cnDestroyBodyForces( cnWorld* world, int bodyIndex )
{
	for ( int i = 0; i < world->forceCount; ++i )
	{
		cnForce* f = world->forces + i;
		if ( f->alive && ( f->def.body.index == bodyIndex || f->def.target.index == bodyIndex ) )
		{
			f->alive = false;
			world->liveForceCount -= 1;
		}
	}
}

bool cnForce_IsValid( const cnWorld* world, cnForceId id )
{
	return world != NULL && id.index >= 0 && id.index < world->forceCount && world->forces[id.index].alive &&
		   world->forces[id.index].generation == id.generation;
}

cnForceDef cnForce_GetDef( const cnWorld* world, cnForceId id )
{
	cnForce* f = cnGetForce( world, id );
	return f != NULL ? f->def : cnDefaultForceDef();
}

int cnWorld_GetForceCount( const cnWorld* world )
{
	return world != NULL ? world->liveForceCount : 0;
}

cnForceId cnWorld_GetForce( const cnWorld* world, int i )
{
	for ( int k = 0, n = 0; world != NULL && i >= 0 && k < world->forceCount; ++k )
	{
		if ( world->forces[k].alive )
		{
			if ( n == i )
			{
				cnClearError();
				return ( cnForceId ){ k, world->forces[k].generation };
			}
			n += 1;
		}
	}
	cnSetError( cnError_invalidArgument, "no force %d (the world has %d)", i, world != NULL ? world->liveForceCount : 0 );
	return cnForceId_null;
}
