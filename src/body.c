// SPDX-License-Identifier: MIT
// Bodies: creation, mass properties, state access and waking.
#include "body.h"

#include "core.h"
#include "error.h"
#include "force.h"
#include "island.h"
#include "lookup.h"
#include "mass.h"
#include "shape.h"
#include "world.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>


static bool cnIsUnitQuat( cnQuat q )
{
	double n = cnQuatLength( q );
	return isfinite( n ) && fabs( n - 1.0 ) <= 1e-6;
}

cnBodyId cnCreateBody( cnWorld* world, const cnBodyDef* def )
{
	cnClearError();
	if ( world == NULL || def == NULL )
	{
		return cnBodyId_null;
	}
	if ( (int)def->type < 0 || def->type > cnBody_dynamic )
	{
		cnSetError( cnError_invalidArgument, "invalid body type" );
		return cnBodyId_null;
	}
	if ( !cnIsValidVec3( def->position ) || !cnIsValidVec3( def->linearVelocity ) ||
		 !cnIsValidVec3( def->angularVelocity ) )
	{
		cnSetError( cnError_invalidArgument, "body position and velocities must be finite" );
		return cnBodyId_null;
	}
	if ( !cnIsUnitQuat( def->orientation ) )
	{
		cnSetError( cnError_invalidArgument, "body orientation must be a unit quaternion (norm %g)", cnQuatLength( def->orientation ) );
		return cnBodyId_null;
	}
	if ( !isfinite( def->gravityScale ) || !isfinite( def->linearDamping ) || def->linearDamping < 0.0 ||
		 !isfinite( def->angularDamping ) || def->angularDamping < 0.0 || !isfinite( def->dragCoefficient ) ||
		 def->dragCoefficient < 0.0 )
	{
		cnSetError( cnError_invalidArgument, "gravity scale must be finite; damping and drag must be finite and >= 0" );
		return cnBodyId_null;
	}

	int index;
	if ( world->freeBody >= 0 )
	{
		index = world->freeBody;
		world->freeBody = world->bodies[index].solverIndex;
	}
	else
	{
		if ( world->bodyCount == world->bodyCapacity )
		{
			int capacity = world->bodyCapacity > 0 ? 2 * world->bodyCapacity : 64;
			cnBody* bodies = realloc( world->bodies, (size_t)capacity * sizeof( cnBody ) );
			if ( bodies == NULL )
			{
				cnSetError( cnError_outOfMemory, "out of memory" );
				return cnBodyId_null;
			}
			world->bodies = bodies;
			world->bodyCapacity = capacity;
		}
		index = world->bodyCount++;
		world->bodies[index].generation = 0;
	}

	cnBody* b = world->bodies + index;
	uint32_t generation = b->generation + 1;
	memset( b, 0, sizeof( cnBody ) );
	b->generation = generation;
	b->alive = true;
	b->name = cnCopyString( def->name );
	b->userData = def->userData;
	b->type = def->type;
	b->xf.p = def->position;
	b->xf.q = cnNormalizeQuat( def->orientation );
	b->center = def->position;
	b->localCenter = cnVec3_zero;
	if ( def->type != cnBody_static )
	{
		b->v = def->linearVelocity;
		b->w = def->angularVelocity;
	}
	b->gravityScale = def->gravityScale;
	b->linearDamping = def->linearDamping;
	b->angularDamping = def->angularDamping;
	b->drag = def->dragCoefficient;
	b->firstShape = -1;
	b->enableSleep = def->enableSleep;
	b->isBullet = def->isBullet;
	b->awake = def->type != cnBody_static && def->isAwake;
	b->sleepIsland = -1;
	b->solverIndex = -1;
	world->liveBodyCount += 1;

	cnUpdateBodyMass( world, b );
	cnBodyId id = { index, generation };
	return id;
}

bool cnDestroyBody( cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}

	// wake what it touched and remove its contacts
	for ( int i = world->contactCount - 1; i >= 0; --i )
	{
		cnContact* c = world->contacts + i;
		if ( c->bodyA == id.index || c->bodyB == id.index )
		{
			int other = c->bodyA == id.index ? c->bodyB : c->bodyA;
			cnBody* ob = world->bodies + other;
			if ( ob->type != cnBody_static && ( c->flags & cnContact_touching ) )
			{
				cnWakeBody( world, ob );
			}
			cnDestroyContact( world, i );
		}
	}
	if ( b->sleepIsland >= 0 )
	{
		cnWakeIsland( world, b->sleepIsland );
	}

	// its joints (before its shapes go: a joint that stops filtering a pair re-queries them)
	cnDestroyBodyJoints( world, id.index );

	// shapes and the user forces on it or towards it
	int s = b->firstShape;
	while ( s >= 0 )
	{
		int next = world->shapes[s].nextShape;
		cnFreeShape( world, s );
		s = next;
	}
	cnDestroyBodyForces( world, id.index );

	free( b->name );
	b->name = NULL;
	b->alive = false;
	b->solverIndex = world->freeBody;
	world->freeBody = id.index;
	world->liveBodyCount -= 1;
	return true;
}

bool cnBody_IsValid( const cnWorld* world, cnBodyId id )
{
	return world != NULL && id.index >= 0 && id.index < world->bodyCount && world->bodies[id.index].alive &&
		   world->bodies[id.index].generation == id.generation;
}



// ---------------------------------------------------------------------------------------------
// state access

const char* cnBody_GetName( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL && b->name != NULL ? b->name : "";
}

cnBodyType cnBody_GetType( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->type : cnBody_static;
}

cnVec3 cnBody_GetPosition( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->xf.p : cnVec3_nan;
}

cnQuat cnBody_GetOrientation( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->xf.q : cnQuat_nan;
}

cnTransform cnBody_GetTransform( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->xf : cnTransform_nan;
}

bool cnBody_SetTransform( cnWorld* world, cnBodyId id, cnVec3 position, cnQuat orientation )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( !cnIsValidVec3( position ) || !cnIsUnitQuat( orientation ) )
	{
		return cnSetError( cnError_invalidArgument, "transform must be finite with a unit quaternion" );
	}
	b->xf.p = position;
	b->xf.q = cnNormalizeQuat( orientation );
	b->center = cnTransformPoint( b->xf, b->localCenter );
	cnUpdateBodyShapes( world, b, cnVec3_zero );
	cnWakeBody( world, b );
	return true;
}

cnVec3 cnBody_GetWorldCenterOfMass( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->center : cnVec3_nan;
}

cnVec3 cnBody_GetLocalCenterOfMass( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->localCenter : cnVec3_nan;
}

cnVec3 cnBody_GetLinearVelocity( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->v : cnVec3_nan;
}

cnVec3 cnBody_GetAngularVelocity( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->w : cnVec3_nan;
}

bool cnBody_SetLinearVelocity( cnWorld* world, cnBodyId id, cnVec3 v )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( !cnIsValidVec3( v ) )
	{
		return cnSetError( cnError_invalidArgument, "velocity must be finite" );
	}
	if ( b->type == cnBody_static )
	{
		return cnSetError( cnError_invalidArgument, "a static body cannot move" );
	}
	b->v = v;
	cnWakeBody( world, b );
	return true;
}

bool cnBody_SetAngularVelocity( cnWorld* world, cnBodyId id, cnVec3 w )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( !cnIsValidVec3( w ) )
	{
		return cnSetError( cnError_invalidArgument, "angular velocity must be finite" );
	}
	if ( b->type == cnBody_static )
	{
		return cnSetError( cnError_invalidArgument, "a static body cannot move" );
	}
	b->w = w;
	cnWakeBody( world, b );
	return true;
}

cnVec3 cnBody_GetPointVelocity( const cnWorld* world, cnBodyId id, cnVec3 worldPoint )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return cnVec3_zero;
	}
	return cnAdd( b->v, cnCross( b->w, cnSub( worldPoint, b->center ) ) );
}

bool cnBody_ApplyForce( cnWorld* world, cnBodyId id, cnVec3 force, cnVec3 worldPoint )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( !cnIsValidVec3( force ) || !cnIsValidVec3( worldPoint ) )
	{
		return cnSetError( cnError_invalidArgument, "force and point must be finite" );
	}
	if ( b->type != cnBody_dynamic )
	{
		return true;
	}
	b->force = cnAdd( b->force, force );
	b->torque = cnAdd( b->torque, cnCross( cnSub( worldPoint, b->center ), force ) );
	cnWakeBody( world, b );
	return true;
}

bool cnBody_ApplyTorque( cnWorld* world, cnBodyId id, cnVec3 torque )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( !cnIsValidVec3( torque ) )
	{
		return cnSetError( cnError_invalidArgument, "torque must be finite" );
	}
	if ( b->type != cnBody_dynamic )
	{
		return true;
	}
	b->torque = cnAdd( b->torque, torque );
	cnWakeBody( world, b );
	return true;
}

bool cnBody_ApplyLinearImpulse( cnWorld* world, cnBodyId id, cnVec3 impulse, cnVec3 worldPoint )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( !cnIsValidVec3( impulse ) || !cnIsValidVec3( worldPoint ) )
	{
		return cnSetError( cnError_invalidArgument, "impulse and point must be finite" );
	}
	if ( b->type != cnBody_dynamic )
	{
		return true;
	}
	b->v = cnMulAdd( b->v, b->invMass, impulse );
	cnMat3 invI = cnRotateTensor( b->xf.q, b->invInertia );
	b->w = cnAdd( b->w, cnMulMV( invI, cnCross( cnSub( worldPoint, b->center ), impulse ) ) );
	cnWakeBody( world, b );
	return true;
}

double cnBody_GetMass( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->mass : NAN;
}

cnMat3 cnBody_GetLocalInertia( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->inertia : cnMat3_nan;
}

// Jacobi eigenvalue iteration for a symmetric 3x3 matrix: a handful of rotations converge to
// round-off, and the result does not depend on the order of the shapes.
static cnVec3 cnSymmetricEigen( cnMat3 m, cnMat3* vectors )
{
	double a[3][3] = { { m.cx.x, m.cy.x, m.cz.x }, { m.cx.y, m.cy.y, m.cz.y }, { m.cx.z, m.cy.z, m.cz.z } };
	double v[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
	for ( int sweep = 0; sweep < 50; ++sweep )
	{
		double off = fabs( a[0][1] ) + fabs( a[0][2] ) + fabs( a[1][2] );
		double scale = fabs( a[0][0] ) + fabs( a[1][1] ) + fabs( a[2][2] );
		if ( off <= 1e-15 * scale || off == 0.0 )
		{
			break;
		}
		for ( int p = 0; p < 2; ++p )
		{
			for ( int q = p + 1; q < 3; ++q )
			{
				if ( a[p][q] == 0.0 )
				{
					continue;
				}
				double theta = ( a[q][q] - a[p][p] ) / ( 2.0 * a[p][q] );
				double t = ( theta >= 0.0 ? 1.0 : -1.0 ) / ( fabs( theta ) + sqrt( theta * theta + 1.0 ) );
				double c = 1.0 / sqrt( t * t + 1.0 ), s = t * c;
				for ( int k = 0; k < 3; ++k )
				{
					double akp = a[k][p], akq = a[k][q];
					a[k][p] = c * akp - s * akq;
					a[k][q] = s * akp + c * akq;
				}
				for ( int k = 0; k < 3; ++k )
				{
					double apk = a[p][k], aqk = a[q][k];
					a[p][k] = c * apk - s * aqk;
					a[q][k] = s * apk + c * aqk;
				}
				for ( int k = 0; k < 3; ++k )
				{
					double vkp = v[k][p], vkq = v[k][q];
					v[k][p] = c * vkp - s * vkq;
					v[k][q] = s * vkp + c * vkq;
				}
			}
		}
	}
	// sort ascending
	int order[3] = { 0, 1, 2 };
	for ( int i = 0; i < 3; ++i )
	{
		for ( int j = i + 1; j < 3; ++j )
		{
			if ( a[order[j]][order[j]] < a[order[i]][order[i]] )
			{
				int t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
		}
	}
	cnVec3 cols[3];
	for ( int i = 0; i < 3; ++i )
	{
		cols[i] = cnV3( v[0][order[i]], v[1][order[i]], v[2][order[i]] );
	}
	// right-handed frame
	cols[2] = cnCross( cols[0], cols[1] );
	vectors->cx = cols[0];
	vectors->cy = cols[1];
	vectors->cz = cols[2];
	return cnV3( a[order[0]][order[0]], a[order[1]][order[1]], a[order[2]][order[2]] );
}

cnVec3 cnBody_GetPrincipalInertia( const cnWorld* world, cnBodyId id, cnQuat* axes )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		if ( axes != NULL )
		{
			*axes = cnQuat_nan;
		}
		return cnVec3_nan;
	}
	cnMat3 vectors;
	cnVec3 moments = cnSymmetricEigen( b->inertia, &vectors );
	if ( axes != NULL )
	{
		*axes = cnQuatFromMat3( vectors );
	}
	return moments;
}

bool cnBody_SetMass( cnWorld* world, cnBodyId id, double mass )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( !isfinite( mass ) || mass <= 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "mass must be finite and > 0 (got %g)", mass );
	}
	if ( cnIsUsableMass( mass ) == false )
	{
		return cnSetError( cnError_invalidArgument, "mass %g kg is out of range (%s)", mass, cnMassProblem( mass ) );
	}
	if ( b->type != cnBody_dynamic )
	{
		return cnSetError( cnError_invalidArgument, "only dynamic bodies have a mass" );
	}
	// the shapes' inertia scaled to this mass must stay in the double range: tried on a copy first
	cnBody trial = *b;
	trial.massOverride = mass;
	trial.hasMassData = false;
	cnBodyMass data;
	if ( cnComputeBodyMass( world, &trial, NULL, -1, &data ) == false )
	{
		cnPrefixError( "with mass %g kg ", mass );
		return false;
	}
	b->massOverride = mass;
	b->hasMassData = false;
	cnChangeBodyMass( world, b, &data );
	return true;
}

bool cnBody_SetMassData( cnWorld* world, cnBodyId id, double mass, cnVec3 localCenter, cnMat3 inertia )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( b->type != cnBody_dynamic )
	{
		return cnSetError( cnError_invalidArgument, "only dynamic bodies have a mass" );
	}
	if ( !isfinite( mass ) || mass <= 0.0 || !cnIsValidVec3( localCenter ) )
	{
		return cnSetError( cnError_invalidArgument, "mass must be finite and > 0 and the centre finite" );
	}
	if ( cnIsUsableMass( mass ) == false )
	{
		return cnSetError( cnError_invalidArgument, "mass %g kg is out of range (%s)", mass, cnMassProblem( mass ) );
	}
	if ( !cnIsValidVec3( inertia.cx ) || !cnIsValidVec3( inertia.cy ) || !cnIsValidVec3( inertia.cz ) )
	{
		return cnSetError( cnError_invalidArgument, "inertia must be finite" );
	}
	// symmetric positive definite: symmetric, and all leading minors positive (Sylvester), tested on
	// the inertia scaled to a largest moment of 1 so that the minors, products of two and three
	// moments, do not leave the double range for a tiny or a huge body
	double largest = fmax( fabs( inertia.cx.x ), fmax( fabs( inertia.cy.y ), fabs( inertia.cz.z ) ) );
	cnMat3 unit = largest >= DBL_MIN && largest <= DBL_MAX ? cnMulSM( 1.0 / largest, inertia ) : inertia;
	double m1 = unit.cx.x;
	double m2 = unit.cx.x * unit.cy.y - unit.cy.x * unit.cx.y;
	double m3 = cnDeterminant( unit );
	bool symmetric = fabs( unit.cy.x - unit.cx.y ) <= 1e-12 * ( 1.0 + fabs( m1 ) ) &&
					 fabs( unit.cz.x - unit.cx.z ) <= 1e-12 * ( 1.0 + fabs( m1 ) ) &&
					 fabs( unit.cz.y - unit.cy.z ) <= 1e-12 * ( 1.0 + fabs( m1 ) );
	if ( !symmetric || !( m1 > 0.0 ) || !( m2 > 0.0 ) || !( m3 > 0.0 ) || !isfinite( m3 ) )
	{
		return cnSetError( cnError_invalidArgument, "inertia must be symmetric positive definite" );
	}
	cnBody trial = *b;
	trial.hasMassData = true;
	trial.massOverride = mass;
	trial.userCenter = localCenter;
	trial.userInertia = inertia;
	cnBodyMass data;
	if ( cnComputeBodyMass( world, &trial, NULL, -1, &data ) == false )
	{
		cnPrefixError( "with this mass data " );
		return false;
	}
	b->hasMassData = true;
	b->massOverride = mass;
	b->userCenter = localCenter;
	b->userInertia = inertia;
	cnChangeBodyMass( world, b, &data );
	return true;
}

double cnBody_GetKineticEnergy( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return NAN;
	}
	if ( b->type != cnBody_dynamic )
	{
		return 0.0;
	}
	cnVec3 wLocal = cnInvRotate( b->xf.q, b->w );
	return 0.5 * b->mass * cnDot( b->v, b->v ) + 0.5 * cnDot( wLocal, cnMulMV( b->inertia, wLocal ) );
}

cnVec3 cnBody_GetAngularMomentum( const cnWorld* world, cnBodyId id, cnVec3 point )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return cnVec3_nan;
	}
	if ( cnIsValidVec3( point ) == false )
	{
		cnSetError( cnError_invalidArgument, "cnBody_GetAngularMomentum: the point must be finite" );
		return cnVec3_nan;
	}
	return cnBodyAngularMomentum( b, point );
}

bool cnBody_IsAwake( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL && b->awake;
}

bool cnBody_SetAwake( cnWorld* world, cnBodyId id, bool awake )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	if ( awake )
	{
		cnWakeBody( world, b );
	}
	else if ( b->type != cnBody_static )
	{
		// let the island test put it to sleep on the next step
		b->sleepTime = world->def.timeToSleep + 1.0;
	}
	return true;
}

bool cnBody_SetBullet( cnWorld* world, cnBodyId id, bool flag )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return false;
	}
	b->isBullet = flag;
	return true;
}

bool cnBody_IsBullet( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL && b->isBullet;
}

double cnBody_GetGravityScale( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->gravityScale : NAN;
}

cnBodyDef cnBody_GetDef( const cnWorld* world, cnBodyId id )
{
	cnBodyDef def = cnDefaultBodyDef();
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return def;
	}
	def.name = b->name;
	def.type = b->type;
	def.position = b->xf.p;
	def.orientation = b->xf.q;
	// a def gives the velocity of the origin, the body keeps that of its centre of mass
	def.linearVelocity = cnAdd( b->v, cnCross( b->w, cnSub( b->xf.p, b->center ) ) );
	def.angularVelocity = b->w;
	def.gravityScale = b->gravityScale;
	def.linearDamping = b->linearDamping;
	def.angularDamping = b->angularDamping;
	def.dragCoefficient = b->drag;
	def.enableSleep = b->enableSleep;
	def.isAwake = b->awake;
	def.isBullet = b->isBullet;
	def.userData = b->userData;
	return def;
}

uint64_t cnBody_GetUserData( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->userData : 0;
}

int cnBody_GetShapeCount( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	return b != NULL ? b->shapeCount : -1;
}

int cnBody_GetShapes( const cnWorld* world, cnBodyId id, cnShapeId* shapes, int capacity )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return 0;
	}
	// shapes are linked newest first; report them in creation order
	int n = 0;
	for ( int s = b->firstShape; s >= 0; s = world->shapes[s].nextShape )
	{
		n += 1;
	}
	int written = 0;
	int k = n - 1;
	for ( int s = b->firstShape; s >= 0; s = world->shapes[s].nextShape, --k )
	{
		if ( k < capacity )
		{
			shapes[k] = (cnShapeId){ s, world->shapes[s].generation };
			written += 1;
		}
	}
	return written;
}

int cnBody_GetContactCount( const cnWorld* world, cnBodyId id )
{
	cnBody* b = cnGetBody( world, id );
	if ( b == NULL )
	{
		return -1;
	}
	int n = 0;
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->bodyA == id.index || c->bodyB == id.index ) && ( c->flags & cnContact_touching ) )
		{
			n += 1;
		}
	}
	return n;
}
