// SPDX-License-Identifier: MIT
// Cone-twist joint (ragdoll shoulders and hips): the anchors coincide; B's twist axis may swing at
// most swingAngle away from A's (one limit row about the swing's axis) and B may twist about it
// within [lower, upper] (two limit rows, from the swing-twist split of the relative rotation).
#include "joints/joint.h"

#include "error.h"

#include <math.h>

int cnConeTwistJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnPointRows( a, b, pA, pB, rows );

	cnVec3 axisA = cnRotate( cnJointFrameA( j, a ), cnV3( 1.0, 0.0, 0.0 ) );
	cnVec3 axisB = cnRotate( cnJointFrameB( j, b ), cnV3( 1.0, 0.0, 0.0 ) );

	// swing: the angle between the axes, growing at (wB - wA) . n about n = axisA x axisB / |.|
	cnVec3 c = cnCross( axisA, axisB );
	double sinSwing = cnLength( c );
	double swing = atan2( sinSwing, cnDot( axisA, axisB ) );
	cnVec3 n = sinSwing > 1e-12 ? cnMulSV( 1.0 / sinSwing, c ) : cnPerp( axisA );
	// C = swingAngle - swing >= 0 falls at the rate (wB - wA) . n
	rows[3] = cnAngularRow( cnNeg( n ), j->swingAngle - swing, cnJointRow_limit );

	// twist about the mean axis
	cnVec3 t = cnAdd( axisA, axisB );
	double lt = cnLength( t );
	t = lt > 1e-12 ? cnMulSV( 1.0 / lt, t ) : axisA;
	cnJointRow unit = cnAngularRow( t, 0.0, cnJointRow_inactive );
	double twist = cnJointTwist( j, a, b );
	rows[4] = unit;
	rows[4].error = twist - j->lower;
	rows[4].type = cnJointRow_limit;
	rows[5] = cnAngularRow( cnNeg( t ), j->upper - twist, cnJointRow_limit );
	return 6;
}

cnConeTwistJointDef cnDefaultConeTwistJointDef( void )
{
	cnConeTwistJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.axis = cnV3( 0.0, 0.0, 1.0 );
	def.swingAngle = 0.25 * CN_PI;
	def.lowerTwist = -0.25 * CN_PI;
	def.upperTwist = 0.25 * CN_PI;
	return def;
}

cnJointId cnCreateConeTwistJoint( cnWorld* world, const cnConeTwistJointDef* def )
{
	cnJointId id = cnJointId_null;
	if ( !( def->swingAngle > 0.0 ) || !( def->swingAngle < CN_PI ) )
	{
		cnSetError( cnError_invalidArgument, "cone_twist joint: swingAngle must be in (0, pi)" );
		return id;
	}
	if ( !isfinite( def->lowerTwist ) || !isfinite( def->upperTwist ) || def->lowerTwist > 0.0 || def->upperTwist < 0.0 ||
		 def->lowerTwist < -CN_PI || def->upperTwist > CN_PI )
	{
		cnSetError( cnError_invalidArgument, "cone_twist joint: the twist range must satisfy -pi <= lower <= 0 <= upper <= pi" );
		return id;
	}
	cnJoint* j = cnCreateJointBase( world, &def->base, cnJoint_coneTwist, def->anchor, def->anchor, def->axis, cnVec3_zero,
									&id );
	if ( j != NULL )
	{
		j->swingAngle = def->swingAngle;
		j->enableLimit = true;
		j->lower = def->lowerTwist;
		j->upper = def->upperTwist;
	}
	return id;
}
