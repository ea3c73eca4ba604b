// SPDX-License-Identifier: MIT
// Fixed joint (weld, AERO's rigid connection): the anchors coincide and the joint frames keep the
// orientation they had at creation (three point rows, three angular rows).
#include "joints/joint.h"

#include <math.h>

int cnFixedJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnPointRows( a, b, pA, pB, rows );
	cnRotationLockRows( cnJointFrameA( j, a ), cnJointFrameB( j, b ), rows + 3 );
	return 6;
}

cnFixedJointDef cnDefaultFixedJointDef( void )
{
	cnFixedJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	return def;
}

cnJointId cnCreateFixedJoint( cnWorld* world, const cnFixedJointDef* def )
{
	cnJointId id;
	cnCreateJointBase( world, &def->base, cnJoint_fixed, def->anchor, def->anchor, cnV3( 1.0, 0.0, 0.0 ), cnVec3_zero,
					   &id );
	return id;
}
