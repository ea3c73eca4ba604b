// SPDX-License-Identifier: MIT
// Point on plane (Kleppmann's vertex/face confinement): A's anchor stays on the plane through B's
// anchor whose normal is the x axis of B's joint frame: C = n . (pA - pB). Its rate is measured at
// the point of B that coincides with pA, which makes it exact (the normal's turning cancels out).
#include "joints/joint.h"

int cnPointOnPlaneJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnVec3 n = cnRotate( cnJointFrameB( j, b ), cnV3( 1.0, 0.0, 0.0 ) );
	rows[0] = cnLinearRow( a, b, pA, pA, cnNeg( n ), cnDot( n, cnSub( pA, pB ) ), cnJointRow_equality );
	return 1;
}

cnPointOnPlaneJointDef cnDefaultPointOnPlaneJointDef( void )
{
	cnPointOnPlaneJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.normal = cnV3( 0.0, 0.0, 1.0 );
	return def;
}

cnJointId cnCreatePointOnPlaneJoint( cnWorld* world, const cnPointOnPlaneJointDef* def )
{
	cnJointId id;
	cnCreateJointBase( world, &def->base, cnJoint_pointOnPlane, def->anchor, def->anchor, def->normal, cnVec3_zero, &id );
	return id;
}
