// SPDX-License-Identifier: MIT
// Universal joint (Kleppmann's joystick): the anchors coincide and A's axis (the frame's x axis in
// A) stays perpendicular to B's (the frame's y axis in B): C = axisA . axisB = 0.
#include "joints/joint.h"

#include "error.h"

#include <math.h>

int cnUniversalJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnPointRows( a, b, pA, pB, rows );
	cnVec3 axisA = cnRotate( cnJointFrameA( j, a ), cnV3( 1.0, 0.0, 0.0 ) );
	cnVec3 axisB = cnRotate( cnJointFrameB( j, b ), cnV3( 0.0, 1.0, 0.0 ) );
	// d/dt (axisA . axisB) = (wB - wA) . (axisB x axisA)
	rows[3] = cnAngularRow( cnCross( axisB, axisA ), cnDot( axisA, axisB ), cnJointRow_equality );
	return 4;
}

cnUniversalJointDef cnDefaultUniversalJointDef( void )
{
	cnUniversalJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.axisA = cnV3( 1.0, 0.0, 0.0 );
	def.axisB = cnV3( 0.0, 1.0, 0.0 );
	return def;
}

cnJointId cnCreateUniversalJoint( cnWorld* world, const cnUniversalJointDef* def )
{
	cnJointId id = cnJointId_null;
	cnVec3 a = def->axisA, b = def->axisB;
	double la = cnLength( a ), lb = cnLength( b );
	if ( !( la > 0.0 ) || !( lb > 0.0 ) || !isfinite( la + lb ) || fabs( cnDot( a, b ) ) > 1e-3 * la * lb )
	{
		cnSetError( cnError_invalidArgument, "universal joint: axisA and axisB must be finite, nonzero and perpendicular" );
		return id;
	}
	cnCreateJointBase( world, &def->base, cnJoint_universal, def->anchor, def->anchor, a, b, &id );
	return id;
}
