// SPDX-License-Identifier: MIT
// The joints' common part: the world's joint table (create, destroy, look up), the public getters
// and setters, the rows of each type through one table, collision filtering of joined bodies,
// islands, and the stage after the method that measures errors and reactions and breaks joints.
#include "joints/joint.h"

#include "core.h"
#include "error.h"
#include "island.h"
#include "lookup.h"
#include "methods/method.h"
#include "union_find.h"
#include "world.h"

#include <stdlib.h>
#include <string.h>

static const char* const cnJointTypeNames[cnJoint_count] = {
	"ball", "hinge", "slider", "universal", "cone_twist", "fixed", "distance", "spring", "damper", "point_on_plane",
};

const char* cnJointType_GetName( cnJointType type )
{
	return (int)type >= 0 && type < cnJoint_count ? cnJointTypeNames[type] : NULL;
}

bool cnJointType_FromName( const char* name, cnJointType* type )
{
	for ( int i = 0; name != NULL && i < cnJoint_count; ++i )
	{
		if ( strcmp( name, cnJointTypeNames[i] ) == 0 )
		{
			*type = (cnJointType)i;
			return true;
		}
	}
	return false;
}

// ---------------------------------------------------------------------------------------------
// poses and rows

cnJointPose cnJointBodyPose( const cnWorld* world, int body )
{
	if ( body < 0 )
	{
		return (cnJointPose){ cnVec3_zero, cnQuat_identity, cnVec3_zero };
	}
	const cnBody* b = world->bodies + body;
	return (cnJointPose){ b->center, b->xf.q, b->localCenter };
}

void cnJointAnchors( const cnJoint* joint, const cnJointPose* a, const cnJointPose* b, cnVec3* pA, cnVec3* pB )
{
	// an anchor is stored in its body's origin frame: p = center + q (local - localCenter)
	*pA = cnAdd( a->center, cnRotate( a->q, cnSub( joint->localAnchorA, a->localCenter ) ) );
	*pB = cnAdd( b->center, cnRotate( b->q, cnSub( joint->localAnchorB, b->localCenter ) ) );
}

typedef int ( *cnJointRowFunction )( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );

static const cnJointRowFunction cnJointRowFunctions[cnJoint_count] = {
	cnBallJointRows,	  cnHingeJointRows, cnSliderJointRows,	 cnUniversalJointRows, cnConeTwistJointRows,
	cnFixedJointRows,	  cnDistanceJointRows, cnSpringJointRows, cnSpringJointRows, cnPointOnPlaneJointRows,
};

int cnJointRows( const cnJoint* joint, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	return cnJointRowFunctions[joint->type]( joint, a, b, rows );
}

double cnJointPosition( const cnJoint* joint, const cnJointPose* a, const cnJointPose* b )
{
	switch ( joint->type )
	{
		case cnJoint_hinge:
		case cnJoint_coneTwist:
			return cnJointTwist( joint, a, b );
		case cnJoint_slider:
			return cnSliderTranslation( joint, a, b );
		case cnJoint_distance:
		case cnJoint_spring:
		case cnJoint_damper:
		{
			cnVec3 pA, pB;
			cnJointAnchors( joint, a, b, &pA, &pB );
			return cnDistance( pA, pB );
		}
		case cnJoint_pointOnPlane:
		{
			cnJointRow row;
			cnPointOnPlaneJointRows( joint, a, b, &row );
			return row.error;
		}
		default:
			return 0.0;
	}
}

// ---------------------------------------------------------------------------------------------
// the table

// The joint of an id after validation, or NULL with cnError_invalidId.
static cnJoint* cnGetJoint( const cnWorld* world, cnJointId id )
{
	if ( world == NULL )
	{
		return NULL;
	}
	if ( id.index < 0 || id.index >= world->jointCount )
	{
		cnSetError( cnError_invalidId, "invalid joint id (index %d)", id.index );
		return NULL;
	}
	cnJoint* j = world->joints + id.index;
	if ( j->alive == false || j->generation != id.generation )
	{
		cnSetError( cnError_invalidId, "stale joint id (index %d, generation %u)", id.index, id.generation );
		return NULL;
	}
	cnClearError();
	return j;
}

static cnJointId cnJointIdOf( const cnWorld* world, const cnJoint* j )
{
	return (cnJointId){ (int32_t)( j - world->joints ), j->generation };
}

static void cnAddCollisionFilter( cnWorld* world, const cnJoint* j, int delta )
{
	if ( j->collideConnected || j->bodyB < 0 )
	{
		return;
	}
	uint64_t key = cnPairKey( j->bodyA, j->bodyB );
	int32_t count = cnPairMap_Find( &world->jointPairs, key );
	count = ( count < 0 ? 0 : count ) + delta;
	if ( count > 0 )
	{
		cnPairMap_Insert( &world->jointPairs, key, count );
		return;
	}
	cnPairMap_Remove( &world->jointPairs, key );
	if ( delta < 0 )
	{
		// the pair may collide again: A's shapes look for their pairs at the next update, even if their
		// boxes already overlap B's (the broad phase only reports pairs of proxies that moved)
		const cnBody* a = world->bodies + j->bodyA;
		for ( int s = a->firstShape; s >= 0; s = world->shapes[s].nextShape )
		{
			const cnShape* shape = world->shapes + s;
			if ( shape->proxyKey != CN_NULL_PROXY )
			{
				cnBroadPhase_MoveProxy( &world->broadPhase, shape->proxyKey, shape->fatAABB );
			}
		}
	}
}

bool cnJointsDisableCollision( const cnWorld* world, int bodyA, int bodyB )
{
	return world->jointPairs.count > 0 && cnPairMap_Find( &world->jointPairs, cnPairKey( bodyA, bodyB ) ) > 0;
}

static void cnWakeJointBodies( cnWorld* world, const cnJoint* j )
{
	cnWakeBody( world, world->bodies + j->bodyA );
	if ( j->bodyB >= 0 )
	{
		cnWakeBody( world, world->bodies + j->bodyB );
	}
}

// An orthonormal frame whose x axis is x and whose y axis is the part of y perpendicular to it
// (any perpendicular when y is zero or parallel).
static cnQuat cnFrameFromAxes( cnVec3 x, cnVec3 y )
{
	x = cnNormalize( x );
	cnVec3 yp = cnSub( y, cnMulSV( cnDot( y, x ), x ) );
	yp = cnLengthSquared( yp ) > 1e-20 ? cnNormalize( yp ) : cnPerp( x );
	cnMat3 m = { x, yp, cnCross( x, yp ) };
	return cnNormalizeQuat( cnQuatFromMat3( m ) );
}

static bool cnIsNonZeroVec3( cnVec3 v )
{
	return cnIsValidVec3( v ) && cnLengthSquared( v ) > 0.0 && isfinite( cnLengthSquared( v ) );
}

cnJoint* cnCreateJointBase( cnWorld* world, const cnJointDef* def, cnJointType type, cnVec3 anchorA, cnVec3 anchorB,
							cnVec3 axisX, cnVec3 axisY, cnJointId* id )
{
	*id = cnJointId_null;
	if ( cnRequireWorld( world ) == false )
	{
		return NULL;
	}
	const char* typeName = cnJointType_GetName( type );
	cnBody* a = cnGetBody( world, def->bodyA );
	if ( a == NULL )
	{
		cnPrefixError( "%s joint: body A: ", typeName );
		return NULL;
	}
	cnBody* b = NULL;
	if ( def->bodyB.index >= 0 )
	{
		b = cnGetBody( world, def->bodyB );
		if ( b == NULL )
		{
			cnPrefixError( "%s joint: body B: ", typeName );
			return NULL;
		}
		if ( b == a )
		{
			cnSetError( cnError_invalidArgument, "%s joint: a body cannot be joined to itself", typeName );
			return NULL;
		}
	}
	if ( a->type == cnBody_static && ( b == NULL || b->type == cnBody_static ) )
	{
		cnSetError( cnError_invalidArgument, "%s joint: joins two static bodies (or a static body to the world)", typeName );
		return NULL;
	}
	if ( !cnIsValidVec3( anchorA ) || !cnIsValidVec3( anchorB ) || fabs( anchorA.x ) + fabs( anchorA.y ) + fabs( anchorA.z ) > 1e150 ||
		 fabs( anchorB.x ) + fabs( anchorB.y ) + fabs( anchorB.z ) > 1e150 )
	{
		cnSetError( cnError_invalidArgument, "%s joint: anchors must be finite (and within 1e150)", typeName );
		return NULL;
	}
	if ( !cnIsNonZeroVec3( axisX ) || !cnIsValidVec3( axisY ) )
	{
		cnSetError( cnError_invalidArgument, "%s joint: the axis must be finite and nonzero", typeName );
		return NULL;
	}
	if ( !( def->breakForce >= 0.0 ) || !( def->breakTorque >= 0.0 ) )
	{
		cnSetError( cnError_invalidArgument, "%s joint: breakForce and breakTorque must be >= 0 (0: never breaks)", typeName );
		return NULL;
	}
	if ( ( cnGetMethodModule( world->def.method )->flags & cnMethodFlag_joints ) == 0 )
	{
		cnSetError( cnError_unsupported, "%s joint: the %s method does not solve joints", typeName,
					cnMethod_GetName( world->def.method ) );
		return NULL;
	}

	// a slot: from the free list or at the end
	int index = world->freeJoint;
	if ( index >= 0 )
	{
		world->freeJoint = world->joints[index].nextFree;
	}
	else
	{
		if ( world->jointCount == world->jointCapacity )
		{
			int capacity = world->jointCapacity > 0 ? 2 * world->jointCapacity : 16;
			cnJoint* joints = realloc( world->joints, (size_t)capacity * sizeof( cnJoint ) );
			if ( joints == NULL )
			{
				cnSetError( cnError_outOfMemory, "out of memory" );
				return NULL;
			}
			world->joints = joints;
			world->jointCapacity = capacity;
		}
		index = world->jointCount++;
		world->joints[index].generation = 0;
	}
	char* name = def->name != NULL ? cnCopyString( def->name ) : NULL;
	cnJoint* j = world->joints + index;
	uint32_t generation = j->generation + 1;
	memset( j, 0, sizeof( *j ) );
	j->name = name;
	j->generation = generation;
	j->alive = true;
	j->type = type;
	j->userData = def->userData;
	j->bodyA = def->bodyA.index;
	j->bodyB = b != NULL ? def->bodyB.index : -1;
	j->collideConnected = def->collideConnected;
	j->breakForce = def->breakForce;
	j->breakTorque = def->breakTorque;
	j->nextFree = -1;

	// anchors and the joint frame in each body's origin frame
	cnQuat frame = cnFrameFromAxes( axisX, axisY );
	j->localAnchorA = cnInvTransformPoint( a->xf, anchorA );
	j->localFrameA = cnNormalizeQuat( cnInvMulQuat( a->xf.q, frame ) );
	if ( b != NULL )
	{
		j->localAnchorB = cnInvTransformPoint( b->xf, anchorB );
		j->localFrameB = cnNormalizeQuat( cnInvMulQuat( b->xf.q, frame ) );
	}
	else
	{
		j->localAnchorB = anchorB;
		j->localFrameB = frame;
	}

	world->liveJointCount += 1;
	if ( j->collideConnected == false && b != NULL )
	{
		cnAddCollisionFilter( world, j, 1 );
		// drop the contacts the two bodies have now
		for ( int i = world->contactCount - 1; i >= 0; --i )
		{
			const cnContact* c = world->contacts + i;
			if ( cnPairKey( c->bodyA, c->bodyB ) == cnPairKey( j->bodyA, j->bodyB ) )
			{
				cnDestroyContact( world, i );
			}
		}
	}
	cnWakeJointBodies( world, j );
	*id = cnJointIdOf( world, j );
	cnClearError();
	return j;
}

static void cnFreeJoint( cnWorld* world, cnJoint* j )
{
	if ( j->broken == false )
	{
		cnAddCollisionFilter( world, j, -1 );
	}
	free( j->name );
	j->name = NULL;
	j->alive = false;
	j->nextFree = world->freeJoint;
	world->freeJoint = (int)( j - world->joints );
	world->liveJointCount -= 1;
}

bool cnDestroyJoint( cnWorld* world, cnJointId id )
{
	cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return false;
	}
	cnWakeJointBodies( world, j );
	cnFreeJoint( world, j );
	return true;
}

void cnDestroyBodyJoints( cnWorld* world, int body )
{
	for ( int i = 0; i < world->jointCount; ++i )
	{
		cnJoint* j = world->joints + i;
		if ( j->alive && ( j->bodyA == body || j->bodyB == body ) )
		{
			cnWakeJointBodies( world, j );
			cnFreeJoint( world, j );
		}
	}
}

void cnDestroyJoints( cnWorld* world )
{
	for ( int i = 0; i < world->jointCount; ++i )
	{
		free( world->joints[i].name );
	}
	free( world->joints );
	free( world->jointBreaks );
	cnPairMap_Destroy( &world->jointPairs );
}

// ---------------------------------------------------------------------------------------------
// islands

void cnLinkJointIslands( cnWorld* world, int* parent, bool* held )
{
	for ( int i = 0; i < world->jointCount; ++i )
	{
		const cnJoint* j = world->joints + i;
		if ( cnJointActive( j ) == false )
		{
			continue;
		}
		cnBody* a = world->bodies + j->bodyA;
		cnBody* b = j->bodyB >= 0 ? world->bodies + j->bodyB : NULL;
		bool aDynamic = a->type == cnBody_dynamic;
		bool bDynamic = b != NULL && b->type == cnBody_dynamic;
		if ( aDynamic && bDynamic )
		{
			// a joint keeps its two bodies in one island: awake together, asleep together
			if ( a->awake != b->awake )
			{
				cnWakeBody( world, a->awake ? b : a );
			}
			cnUnionFind_Union( parent, j->bodyA, j->bodyB );
		}
		else if ( aDynamic || bDynamic )
		{
			// joined to the world, a static body or a kinematic one
			cnBody* other = aDynamic ? b : a;
			cnBody* self = aDynamic ? a : b;
			bool moving = other != NULL && other->type == cnBody_kinematic &&
						  cnLengthSquared( other->v ) + cnLengthSquared( other->w ) > 0.0;
			if ( moving )
			{
				self->sleepTime = 0.0;
			}
			else
			{
				held[self - world->bodies] = true;
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// after the method: errors, reactions, breaks

static bool cnAddJointBreak( cnWorld* world, const cnJoint* j, double time, double force, double torque )
{
	if ( world->jointBreakCount == world->jointBreakCapacity )
	{
		int capacity = world->jointBreakCapacity > 0 ? 2 * world->jointBreakCapacity : 8;
		cnJointBreak* breaks = realloc( world->jointBreaks, (size_t)capacity * sizeof( cnJointBreak ) );
		if ( breaks == NULL )
		{
			return false;
		}
		world->jointBreaks = breaks;
		world->jointBreakCapacity = capacity;
	}
	world->jointBreaks[world->jointBreakCount++] =
		(cnJointBreak){ cnJointIdOf( world, j ), time, force, torque };
	return true;
}

void cnFinishJoints( cnWorld* world, double impulseTime, double timeStep )
{
	world->jointBreakCount = 0;
	double inv = impulseTime > 0.0 ? 1.0 / impulseTime : 0.0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		cnJoint* j = world->joints + i;
		if ( j->alive && j->broken )
		{
			// a broken joint acts no more: it reports no reaction after the step that broke it
			j->force = cnVec3_zero;
			j->torque = cnVec3_zero;
			continue;
		}
		if ( cnJointActive( j ) == false )
		{
			continue;
		}
		cnJointPose a = cnJointBodyPose( world, j->bodyA );
		cnJointPose b = cnJointBodyPose( world, j->bodyB );
		cnJointRow rows[CN_JOINT_MAX_ROWS];
		int n = cnJointRows( j, &a, &b, rows );
		cnVec3 force = cnVec3_zero, torque = cnVec3_zero;
		double linearError = 0.0, angularError = 0.0;
		for ( int k = 0; k < n; ++k )
		{
			const cnJointRow* r = rows + k;
			if ( r->type == cnJointRow_inactive )
			{
				continue;
			}
			bool angular = cnLengthSquared( r->linearB ) == 0.0 && cnLengthSquared( r->linearA ) == 0.0;
			double lambda = j->impulses[k] * inv;
			if ( angular )
			{
				torque = cnMulAdd( torque, lambda, r->angularB );
			}
			else
			{
				force = cnMulAdd( force, lambda, r->linearB );
			}
			double violation = r->type == cnJointRow_equality ? fabs( r->error )
							   : r->type == cnJointRow_limit  ? ( r->error < 0.0 ? -r->error : 0.0 )
															  : 0.0;
			if ( angular )
			{
				angularError = violation > angularError ? violation : angularError;
			}
			else
			{
				linearError = violation > linearError ? violation : linearError;
			}
		}
		// a joint to the world pushes A: B is the world, whose reaction is still reported as B's
		j->force = force;
		j->torque = torque;
		j->linearError = linearError;
		j->angularError = angularError;

		double f = cnLength( force ), t = cnLength( torque );
		if ( ( j->breakForce > 0.0 && f > j->breakForce ) || ( j->breakTorque > 0.0 && t > j->breakTorque ) )
		{
			j->broken = true;
			memset( j->impulses, 0, sizeof( j->impulses ) );
			cnAddCollisionFilter( world, j, -1 );
			cnAddJointBreak( world, j, world->time + timeStep, f, t );
			cnWakeJointBodies( world, j );
		}
	}
}

// ---------------------------------------------------------------------------------------------
// getters and setters

bool cnJoint_IsValid( const cnWorld* world, cnJointId id )
{
	return world != NULL && id.index >= 0 && id.index < world->jointCount && world->joints[id.index].alive &&
		   world->joints[id.index].generation == id.generation;
}

cnJointType cnJoint_GetType( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? j->type : cnJoint_count;
}

const char* cnJoint_GetName( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j == NULL ? NULL : j->name != NULL ? j->name : "";
}

static cnBodyId cnBodyIdOf( const cnWorld* world, int body )
{
	return body < 0 ? cnBodyId_null : (cnBodyId){ body, world->bodies[body].generation };
}

cnBodyId cnJoint_GetBodyA( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? cnBodyIdOf( world, j->bodyA ) : cnBodyId_null;
}

cnBodyId cnJoint_GetBodyB( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? cnBodyIdOf( world, j->bodyB ) : cnBodyId_null;
}

cnVec3 cnJoint_GetAnchorA( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return cnVec3_nan;
	}
	cnJointPose a = cnJointBodyPose( world, j->bodyA ), b = cnJointBodyPose( world, j->bodyB );
	cnVec3 pA, pB;
	cnJointAnchors( j, &a, &b, &pA, &pB );
	return pA;
}

cnVec3 cnJoint_GetAnchorB( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return cnVec3_nan;
	}
	cnJointPose a = cnJointBodyPose( world, j->bodyA ), b = cnJointBodyPose( world, j->bodyB );
	cnVec3 pA, pB;
	cnJointAnchors( j, &a, &b, &pA, &pB );
	return pB;
}

cnVec3 cnJoint_GetReactionForce( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? j->force : cnVec3_nan;
}

cnVec3 cnJoint_GetReactionTorque( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? j->torque : cnVec3_nan;
}

double cnJoint_GetLinearError( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? j->linearError : NAN;
}

double cnJoint_GetAngularError( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? j->angularError : NAN;
}

bool cnJoint_IsBroken( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL && j->broken;
}

uint64_t cnJoint_GetUserData( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	return j != NULL ? j->userData : 0;
}

bool cnJoint_SetBreakLimits( cnWorld* world, cnJointId id, double breakForce, double breakTorque )
{
	cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return false;
	}
	if ( !( breakForce >= 0.0 ) || !( breakTorque >= 0.0 ) )
	{
		return cnSetError( cnError_invalidArgument, "break limits must be >= 0 (0: never)" );
	}
	j->breakForce = breakForce;
	j->breakTorque = breakTorque;
	return true;
}

double cnJoint_GetPosition( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return NAN;
	}
	cnJointPose a = cnJointBodyPose( world, j->bodyA ), b = cnJointBodyPose( world, j->bodyB );
	return cnJointPosition( j, &a, &b );
}

double cnJoint_GetSpeed( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return NAN;
	}
	// the rate of the coordinate is the unit row's dC/dt: the motor row of hinges and sliders, the
	// first row of the others
	cnJointPose a = cnJointBodyPose( world, j->bodyA ), b = cnJointBodyPose( world, j->bodyB );
	cnJoint probe = *j;
	probe.enableMotor = true;
	probe.lower = 0.0;
	probe.upper = 1.0;
	probe.minLength = 0.0;
	cnJointRow rows[CN_JOINT_MAX_ROWS];
	cnJointRows( &probe, &a, &b, rows );
	const cnJointRow* r;
	switch ( j->type )
	{
		case cnJoint_hinge:
		case cnJoint_slider:
			r = rows + 7;
			break;
		case cnJoint_coneTwist:
			r = rows + 4;
			break;
		case cnJoint_distance:
		case cnJoint_spring:
		case cnJoint_damper:
		case cnJoint_pointOnPlane:
			r = rows;
			break;
		default:
			return 0.0;
	}
	const cnBody* ba = world->bodies + j->bodyA;
	double rate = cnDot( r->linearA, ba->v ) + cnDot( r->angularA, ba->w );
	if ( j->bodyB >= 0 )
	{
		const cnBody* bb = world->bodies + j->bodyB;
		rate += cnDot( r->linearB, bb->v ) + cnDot( r->angularB, bb->w );
	}
	// a point-on-plane row measures -dC/dt along -n: its sign is already that of C
	return rate;
}

int cnWorld_GetJointCount( const cnWorld* world )
{
	return world != NULL ? world->liveJointCount : 0;
}

cnJointId cnWorld_GetJoint( const cnWorld* world, int i )
{
	if ( world == NULL || i < 0 )
	{
		return cnJointId_null;
	}
	for ( int k = 0; k < world->jointCount; ++k )
	{
		const cnJoint* j = world->joints + k;
		if ( j->alive && i-- == 0 )
		{
			return cnJointIdOf( world, j );
		}
	}
	return cnJointId_null;
}

cnJointId cnWorld_FindJoint( const cnWorld* world, const char* name )
{
	for ( int k = 0; world != NULL && name != NULL && k < world->jointCount; ++k )
	{
		const cnJoint* j = world->joints + k;
		if ( j->alive && j->name != NULL && strcmp( j->name, name ) == 0 )
		{
			return cnJointIdOf( world, j );
		}
	}
	return cnJointId_null;
}

const cnJointBreak* cnWorld_GetJointBreaks( const cnWorld* world, int* count )
{
	*count = world != NULL ? world->jointBreakCount : 0;
	return world != NULL ? world->jointBreaks : NULL;
}

// Wakes the joint's bodies and drops its warm-start impulses after a change of its parameters.
static void cnJointChanged( cnWorld* world, cnJoint* j )
{
	memset( j->impulses, 0, sizeof( j->impulses ) );
	cnWakeJointBodies( world, j );
}

bool cnJoint_SetLimits( cnWorld* world, cnJointId id, bool enable, double lower, double upper )
{
	cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return false;
	}
	if ( j->type != cnJoint_hinge && j->type != cnJoint_slider )
	{
		return cnSetError( cnError_invalidArgument, "only hinge and slider joints have limits to switch" );
	}
	if ( !isfinite( lower ) || !isfinite( upper ) || lower > upper )
	{
		return cnSetError( cnError_invalidArgument, "limits must be finite with lower <= upper" );
	}
	j->enableLimit = enable;
	j->lower = lower;
	j->upper = upper;
	cnJointChanged( world, j );
	return true;
}

bool cnJoint_SetMotor( cnWorld* world, cnJointId id, bool enable, double speed, double maxForce )
{
	cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return false;
	}
	if ( j->type != cnJoint_hinge && j->type != cnJoint_slider )
	{
		return cnSetError( cnError_invalidArgument, "only hinge and slider joints have motors" );
	}
	if ( !isfinite( speed ) || !( maxForce >= 0.0 ) || !isfinite( maxForce ) )
	{
		return cnSetError( cnError_invalidArgument, "motor speed must be finite, its maximum force finite and >= 0" );
	}
	j->enableMotor = enable;
	j->motorSpeed = speed;
	j->maxMotorForce = maxForce;
	cnWakeJointBodies( world, j );
	return true;
}

bool cnJoint_SetSpring( cnWorld* world, cnJointId id, bool enable, double stiffness, double damping, double rest )
{
	cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return false;
	}
	if ( j->type != cnJoint_hinge && j->type != cnJoint_slider && j->type != cnJoint_spring && j->type != cnJoint_damper )
	{
		return cnSetError( cnError_invalidArgument, "only hinge, slider, spring and damper joints have springs" );
	}
	if ( !( stiffness >= 0.0 ) || !( damping >= 0.0 ) || !isfinite( stiffness + damping ) || !isfinite( rest ) )
	{
		return cnSetError( cnError_invalidArgument, "stiffness and damping must be finite and >= 0, rest finite" );
	}
	j->enableSpring = j->type == cnJoint_spring || j->type == cnJoint_damper ? true : enable;
	j->stiffness = stiffness;
	j->damping = damping;
	j->rest = rest;
	cnWakeJointBodies( world, j );
	return true;
}

bool cnJoint_SetLengthRange( cnWorld* world, cnJointId id, double minLength, double maxLength )
{
	cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return false;
	}
	if ( j->type != cnJoint_distance )
	{
		return cnSetError( cnError_invalidArgument, "only distance joints have a length range" );
	}
	if ( !( minLength >= 0.0 ) || !( maxLength >= minLength ) || !isfinite( minLength ) )
	{
		return cnSetError( cnError_invalidArgument, "lengths must satisfy 0 <= minLength <= maxLength" );
	}
	j->lower = minLength;
	j->upper = maxLength;
	cnJointChanged( world, j );
	return true;
}

bool cnJoint_GetLimits( const cnWorld* world, cnJointId id, double* lower, double* upper )
{
	const cnJoint* j = cnGetJoint( world, id );
	bool has = j != NULL && ( j->type == cnJoint_hinge || j->type == cnJoint_slider || j->type == cnJoint_distance ||
							  j->type == cnJoint_coneTwist );
	*lower = has ? j->lower : NAN;
	*upper = has ? j->upper : NAN;
	return has && j->enableLimit;
}

bool cnJoint_GetMotor( const cnWorld* world, cnJointId id, double* speed, double* maxForce )
{
	const cnJoint* j = cnGetJoint( world, id );
	bool has = j != NULL && ( j->type == cnJoint_hinge || j->type == cnJoint_slider );
	*speed = has ? j->motorSpeed : NAN;
	*maxForce = has ? j->maxMotorForce : NAN;
	return has && j->enableMotor;
}

bool cnJoint_GetSpring( const cnWorld* world, cnJointId id, double* stiffness, double* damping, double* rest )
{
	const cnJoint* j = cnGetJoint( world, id );
	bool has = j != NULL && ( j->type == cnJoint_hinge || j->type == cnJoint_slider || j->type == cnJoint_spring ||
							  j->type == cnJoint_damper );
	*stiffness = has ? ( j->type == cnJoint_damper ? 0.0 : j->stiffness ) : NAN;
	*damping = has ? j->damping : NAN;
	*rest = has ? j->rest : NAN;
	return has && j->enableSpring;
}

cnVec3 cnJoint_GetAxis( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnGetJoint( world, id );
	if ( j == NULL )
	{
		return cnVec3_nan;
	}
	// the point-on-plane normal is fixed in B; every other main axis in A
	bool onB = j->type == cnJoint_pointOnPlane;
	cnJointPose pose = cnJointBodyPose( world, onB ? j->bodyB : j->bodyA );
	cnQuat frame = onB ? cnJointFrameB( j, &pose ) : cnJointFrameA( j, &pose );
	return cnRotate( frame, cnV3( 1.0, 0.0, 0.0 ) );
}
