// SPDX-License-Identifier: MIT
// Joint getters that the scene writer needs to create a joint again (cairn/joint.h): the values a
// def gave that the other getters do not return.
#include "joints/joint.h"

#include "core.h"
#include "error.h"
#include "world.h"

#include <math.h>

// The joint of an id, or NULL with cnError_invalidId (joint.c's check, for the getters here).
static const cnJoint* cnFindJoint( const cnWorld* world, cnJointId id )
{
	if ( world == NULL || id.index < 0 || id.index >= world->jointCount || world->joints[id.index].alive == false ||
		 world->joints[id.index].generation != id.generation )
	{
		cnSetError( cnError_invalidId, "invalid joint id (index %d)", id.index );
		return NULL;
	}
	return world->joints + id.index;
}

cnVec3 cnJoint_GetSecondAxis( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnFindJoint( world, id );
	if ( j == NULL )
	{
		return cnVec3_nan;
	}
	// the joint frame's y axis in B (a universal joint's second axis)
	cnJointPose pose = cnJointBodyPose( world, j->bodyB );
	return cnRotate( cnJointFrameB( j, &pose ), cnV3( 0.0, 1.0, 0.0 ) );
}

double cnJoint_GetSwingAngle( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnFindJoint( world, id );
	return j != NULL && j->type == cnJoint_coneTwist ? j->swingAngle : NAN;
}

double cnJoint_GetMinLength( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnFindJoint( world, id );
	return j != NULL && ( j->type == cnJoint_spring || j->type == cnJoint_damper ) ? j->minLength : NAN;
}

bool cnJoint_GetCollideConnected( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnFindJoint( world, id );
	return j != NULL && j->collideConnected;
}

cnJointBreakLimits cnJoint_GetBreakLimits( const cnWorld* world, cnJointId id )
{
	const cnJoint* j = cnFindJoint( world, id );
	cnJointBreakLimits limits = { NAN, NAN };
	if ( j != NULL )
	{
		limits.force = j->breakForce;
		limits.torque = j->breakTorque;
	}
	return limits;
}
