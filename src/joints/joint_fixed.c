// SPDX-License-Identifier: MIT
// Fixed joint (weld, AERO's rigid connection): the anchors coincide and the joint frames keep the
// orientation they had at creation (three point rows, three angular rows).
#include "joints/joint.h"

#include <math.h>

// The small rotation taking frame fa to frame fb, as a world vector (angle times axis).
static cnVec3 cnRotationError( cnQuat fa, cnQuat fb )
{
	cnQuat e = cnMulQuat( fb, cnConjugate( fa ) );
	double s = e.w < 0.0 ? -2.0 : 2.0;
	return cnV3( s * e.x, s * e.y, s * e.z );
}

int cnFixedJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnPointRows( a, b, pA, pB, rows );
	cnVec3 theta = cnRotationError( cnJointFrameA( j, a ), cnJointFrameB( j, b ) );
	rows[3] = cnAngularRow( cnV3( 1.0, 0.0, 0.0 ), theta.x, cnJointRow_equality );
	rows[4] = cnAngularRow( cnV3( 0.0, 1.0, 0.0 ), theta.y, cnJointRow_equality );
	rows[5] = cnAngularRow( cnV3( 0.0, 0.0, 1.0 ), theta.z, cnJointRow_equality );
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
