// SPDX-License-Identifier: MIT
// Ball-and-socket joint: the anchors of the two bodies coincide (three rows). With one body it is
// Kleppmann's nail: a point of the body fixed in space.
#include "joints/joint.h"

int cnBallJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnPointRows( a, b, pA, pB, rows );
	return 3;
}

cnBallJointDef cnDefaultBallJointDef( void )
{
	cnBallJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	return def;
}

cnJointId cnCreateBallJoint( cnWorld* world, const cnBallJointDef* def )
{
	cnJointId id;
	cnCreateJointBase( world, &def->base, cnJoint_ball, def->anchor, def->anchor, cnV3( 1.0, 0.0, 0.0 ), cnVec3_zero,
					   &id );
	return id;
}
