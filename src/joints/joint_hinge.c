// SPDX-License-Identifier: MIT
// Hinge (revolute) joint: the anchors coincide (three rows) and the axes of the two joint frames
// stay aligned (two angular rows about the directions perpendicular to A's axis); the angle about
// the axis may be limited, driven by a motor and pulled by a torsion spring.
#include "joints/joint.h"

#include "error.h"

#include <math.h>

int cnHingeJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnPointRows( a, b, pA, pB, rows );

	cnQuat fa = cnJointFrameA( j, a );
	cnVec3 axisA = cnRotate( fa, cnV3( 1.0, 0.0, 0.0 ) );
	cnVec3 axisB = cnRotate( cnJointFrameB( j, b ), cnV3( 1.0, 0.0, 0.0 ) );
	cnVec3 p1 = cnRotate( fa, cnV3( 0.0, 1.0, 0.0 ) );
	cnVec3 p2 = cnRotate( fa, cnV3( 0.0, 0.0, 1.0 ) );
	// a small turn of B by delta about p makes axisA x axisB = delta p
	cnVec3 e = cnCross( axisA, axisB );
	rows[3] = cnAngularRow( p1, cnDot( e, p1 ), cnJointRow_equality );
	rows[4] = cnAngularRow( p2, cnDot( e, p2 ), cnJointRow_equality );

	cnJointRow unit = cnAngularRow( axisA, 0.0, cnJointRow_inactive );
	cnCoordinateRows( j, &unit, cnJointTwist( j, a, b ), rows + 5 );
	return 9;
}

cnHingeJointDef cnDefaultHingeJointDef( void )
{
	cnHingeJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.axis = cnV3( 0.0, 0.0, 1.0 );
	return def;
}

cnJointId cnCreateHingeJoint( cnWorld* world, const cnHingeJointDef* def )
{
	cnJointId id = cnJointId_null;
	if ( !isfinite( def->lowerAngle ) || !isfinite( def->upperAngle ) || def->lowerAngle > def->upperAngle ||
		 def->lowerAngle < -CN_PI || def->upperAngle > CN_PI )
	{
		cnSetError( cnError_invalidArgument, "hinge joint: limits must satisfy -pi <= lowerAngle <= upperAngle <= pi" );
		return id;
	}
	if ( !isfinite( def->motorSpeed ) || !( def->maxMotorTorque >= 0.0 ) || !isfinite( def->maxMotorTorque ) )
	{
		cnSetError( cnError_invalidArgument, "hinge joint: motor speed must be finite, maxMotorTorque finite and >= 0" );
		return id;
	}
	if ( !( def->stiffness >= 0.0 ) || !( def->damping >= 0.0 ) || !isfinite( def->stiffness + def->damping ) ||
		 !isfinite( def->restAngle ) )
	{
		cnSetError( cnError_invalidArgument, "hinge joint: spring stiffness and damping must be finite and >= 0" );
		return id;
	}
	cnJoint* j = cnCreateJointBase( world, &def->base, cnJoint_hinge, def->anchor, def->anchor, def->axis, cnVec3_zero, &id );
	if ( j != NULL )
	{
		j->enableLimit = def->enableLimit;
		j->lower = def->lowerAngle;
		j->upper = def->upperAngle;
		j->enableMotor = def->enableMotor;
		j->motorSpeed = def->motorSpeed;
		j->maxMotorForce = def->maxMotorTorque;
		j->enableSpring = def->enableSpring;
		j->stiffness = def->stiffness;
		j->damping = def->damping;
		j->rest = def->restAngle;
	}
	return id;
}
