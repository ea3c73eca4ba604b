// SPDX-License-Identifier: MIT
// Row builders the joint types share: the point constraint, linear and angular rows, the joint
// frames, and the limit, motor and spring rows on a joint coordinate.
#include "joints/joint.h"

#include <math.h>

void cnPointRows( const cnJointPose* a, const cnJointPose* b, cnVec3 pA, cnVec3 pB, cnJointRow* rows )
{
	cnVec3 d = cnSub( pB, pA );
	static const cnVec3 axes[3] = { { 1.0, 0.0, 0.0 }, { 0.0, 1.0, 0.0 }, { 0.0, 0.0, 1.0 } };
	for ( int i = 0; i < 3; ++i )
	{
		rows[i] = cnLinearRow( a, b, pA, pB, axes[i], cnGet( d, i ), cnJointRow_equality );
	}
}

cnJointRow cnLinearRow( const cnJointPose* a, const cnJointPose* b, cnVec3 pA, cnVec3 pB, cnVec3 d, double error,
						cnJointRowType type )
{
	// dC/dt = d . (vB + wB x rB - vA - wA x rA), and w . (r x d) = (w x r) . d
	cnVec3 rA = cnSub( pA, a->center );
	cnVec3 rB = cnSub( pB, b->center );
	cnJointRow row = { 0 };
	row.linearA = cnNeg( d );
	row.angularA = cnNeg( cnCross( rA, d ) );
	row.linearB = d;
	row.angularB = cnCross( rB, d );
	row.error = error;
	row.type = type;
	return row;
}

cnJointRow cnAngularRow( cnVec3 d, double error, cnJointRowType type )
{
	cnJointRow row = { 0 };
	row.angularA = cnNeg( d );
	row.angularB = d;
	row.error = error;
	row.type = type;
	return row;
}

void cnRotationLockRows( cnQuat fa, cnQuat fb, cnJointRow* rows )
{
	// the small rotation taking frame fa to frame fb, as a world vector (angle times axis)
	cnQuat e = cnMulQuat( fb, cnConjugate( fa ) );
	double s = e.w < 0.0 ? -2.0 : 2.0;
	rows[0] = cnAngularRow( cnV3( 1.0, 0.0, 0.0 ), s * e.x, cnJointRow_equality );
	rows[1] = cnAngularRow( cnV3( 0.0, 1.0, 0.0 ), s * e.y, cnJointRow_equality );
	rows[2] = cnAngularRow( cnV3( 0.0, 0.0, 1.0 ), s * e.z, cnJointRow_equality );
}

double cnJointTwist( const cnJoint* j, const cnJointPose* a, const cnJointPose* b )
{
	// relative rotation = swing * twist with the twist about x: the twist is x's part of it
	cnQuat rel = cnInvMulQuat( cnJointFrameA( j, a ), cnJointFrameB( j, b ) );
	double angle = 2.0 * atan2( rel.x, rel.w );
	// atan2 of the half angle gives (-2 pi, 2 pi]: fold into (-pi, pi]
	if ( angle > CN_PI )
	{
		angle -= 2.0 * CN_PI;
	}
	else if ( angle <= -CN_PI )
	{
		angle += 2.0 * CN_PI;
	}
	return angle;
}

cnQuat cnJointFrameA( const cnJoint* j, const cnJointPose* a )
{
	return cnMulQuat( a->q, j->localFrameA );
}

cnQuat cnJointFrameB( const cnJoint* j, const cnJointPose* b )
{
	return cnMulQuat( b->q, j->localFrameB );
}

// A row with its Jacobian negated: the upper limit's C = upper - x has the opposite rate.
static cnJointRow cnNegatedRow( const cnJointRow* unit, double error )
{
	cnJointRow row = { 0 };
	row.linearA = cnNeg( unit->linearA );
	row.angularA = cnNeg( unit->angularA );
	row.linearB = cnNeg( unit->linearB );
	row.angularB = cnNeg( unit->angularB );
	row.error = error;
	row.type = cnJointRow_limit;
	return row;
}

void cnCoordinateRows( const cnJoint* j, const cnJointRow* unit, double x, cnJointRow* rows )
{
	for ( int i = 0; i < 4; ++i )
	{
		rows[i] = (cnJointRow){ 0 };
	}
	if ( j->enableLimit )
	{
		rows[0] = *unit;
		rows[0].error = x - j->lower;
		rows[0].type = cnJointRow_limit;
		rows[1] = cnNegatedRow( unit, j->upper - x );
	}
	if ( j->enableMotor )
	{
		rows[2] = *unit;
		rows[2].error = 0.0;
		rows[2].type = cnJointRow_motor;
		rows[2].speed = j->motorSpeed;
		rows[2].maxForce = j->maxMotorForce;
	}
	if ( j->enableSpring )
	{
		rows[3] = *unit;
		rows[3].error = x - j->rest;
		rows[3].type = cnJointRow_spring;
		rows[3].stiffness = j->stiffness;
		rows[3].damping = j->damping;
	}
}
