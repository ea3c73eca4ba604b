// SPDX-License-Identifier: MIT
// Slider (prismatic) joint: no relative rotation (three angular rows) and B's anchor stays on the
// line through A's anchor along A's axis (two linear rows); the translation along the axis may be
// limited, driven and sprung. The linear rows act at B's anchor on both bodies, so A's rotation
// moving the line is accounted for.
#include "joints/joint.h"

#include "error.h"

#include <math.h>

double cnSliderTranslation( const cnJoint* j, const cnJointPose* a, const cnJointPose* b )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnVec3 axis = cnRotate( cnJointFrameA( j, a ), cnV3( 1.0, 0.0, 0.0 ) );
	return cnDot( cnSub( pB, pA ), axis );
}

int cnSliderJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnQuat fa = cnJointFrameA( j, a );
	cnQuat fb = cnJointFrameB( j, b );
	cnRotationLockRows( fa, fb, rows );

	cnVec3 axis = cnRotate( fa, cnV3( 1.0, 0.0, 0.0 ) );
	cnVec3 p1 = cnRotate( fa, cnV3( 0.0, 1.0, 0.0 ) );
	cnVec3 p2 = cnRotate( fa, cnV3( 0.0, 0.0, 1.0 ) );
	cnVec3 d = cnSub( pB, pA );
	rows[3] = cnLinearRow( a, b, pB, pB, p1, cnDot( d, p1 ), cnJointRow_equality );
	rows[4] = cnLinearRow( a, b, pB, pB, p2, cnDot( d, p2 ), cnJointRow_equality );

	cnJointRow unit = cnLinearRow( a, b, pB, pB, axis, 0.0, cnJointRow_inactive );
	cnCoordinateRows( j, &unit, cnDot( d, axis ), rows + 5 );
	return 9;
}

cnSliderJointDef cnDefaultSliderJointDef( void )
{
	cnSliderJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.axis = cnV3( 0.0, 0.0, 1.0 );
	return def;
}

cnJointId cnCreateSliderJoint( cnWorld* world, const cnSliderJointDef* def )
{
	cnJointId id = cnJointId_null;
	if ( !isfinite( def->lowerTranslation ) || !isfinite( def->upperTranslation ) ||
		 def->lowerTranslation > def->upperTranslation )
	{
		cnSetError( cnError_invalidArgument, "slider joint: limits must be finite with lower <= upper" );
		return id;
	}
	if ( !isfinite( def->motorSpeed ) || !( def->maxMotorForce >= 0.0 ) || !isfinite( def->maxMotorForce ) )
	{
		cnSetError( cnError_invalidArgument, "slider joint: motor speed must be finite, maxMotorForce finite and >= 0" );
		return id;
	}
	if ( !( def->stiffness >= 0.0 ) || !( def->damping >= 0.0 ) || !isfinite( def->stiffness + def->damping ) ||
		 !isfinite( def->restTranslation ) )
	{
		cnSetError( cnError_invalidArgument, "slider joint: spring stiffness and damping must be finite and >= 0" );
		return id;
	}
	cnJoint* j = cnCreateJointBase( world, &def->base, cnJoint_slider, def->anchor, def->anchor, def->axis, cnVec3_zero, &id );
	if ( j != NULL )
	{
		j->enableLimit = def->enableLimit;
		j->lower = def->lowerTranslation;
		j->upper = def->upperTranslation;
		j->enableMotor = def->enableMotor;
		j->motorSpeed = def->motorSpeed;
		j->maxMotorForce = def->maxMotorForce;
		j->enableSpring = def->enableSpring;
		j->stiffness = def->stiffness;
		j->damping = def->damping;
		j->rest = def->restTranslation;
	}
	return id;
}
