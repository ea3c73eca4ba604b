// SPDX-License-Identifier: MIT
// Spring and damper (AERO's connections): a force element along the line of the anchors,
// F = stiffness (l - rest) + damping dl/dt, acting while the anchors are at least minLength apart
// (AERO's minimum active separation). A damper is a spring without stiffness.
#include "joints/joint.h"

#include "error.h"

#include <math.h>

int cnSpringJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	cnVec3 d = cnSub( pB, pA );
	double length = cnLength( d );
	rows[0] = (cnJointRow){ 0 };
	if ( length > 1e-12 && length >= j->minLength )
	{
		cnVec3 u = cnMulSV( 1.0 / length, d );
		rows[0] = cnLinearRow( a, b, pA, pB, u, length - j->rest, cnJointRow_spring );
		rows[0].stiffness = j->type == cnJoint_damper ? 0.0 : j->stiffness;
		rows[0].damping = j->damping;
	}
	return 1;
}

cnSpringJointDef cnDefaultSpringJointDef( void )
{
	cnSpringJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.stiffness = 100.0;
	def.restLength = -1.0;
	return def;
}

cnDamperJointDef cnDefaultDamperJointDef( void )
{
	cnDamperJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.damping = 10.0;
	return def;
}

// What a spring and a damper share: the anchors, the force law and the minimum active separation.
static cnJointId cnCreateForceElement( cnWorld* world, const cnJointDef* base, cnJointType type, cnVec3 anchorA,
									   cnVec3 anchorB, double stiffness, double damping, double rest, double minLength )
{
	cnJointId id = cnJointId_null;
	const char* name = cnJointType_GetName( type );
	if ( !( stiffness >= 0.0 ) || !( damping >= 0.0 ) || !isfinite( stiffness + damping ) || !isfinite( rest ) ||
		 !( minLength >= 0.0 ) || !isfinite( minLength ) )
	{
		cnSetError( cnError_invalidArgument, "%s joint: stiffness, damping and minLength must be finite and >= 0", name );
		return id;
	}
	cnVec3 axis = cnSub( anchorB, anchorA );
	cnJoint* j = cnCreateJointBase( world, base, type, anchorA, anchorB,
									cnLengthSquared( axis ) > 0.0 ? axis : cnV3( 1.0, 0.0, 0.0 ), cnVec3_zero, &id );
	if ( j != NULL )
	{
		j->enableSpring = true;
		j->stiffness = stiffness;
		j->damping = damping;
		j->rest = rest;
		j->minLength = minLength;
	}
	return id;
}

cnJointId cnCreateSpringJoint( cnWorld* world, const cnSpringJointDef* def )
{
	double rest = def->restLength < 0.0 ? cnDistance( def->anchorA, def->anchorB ) : def->restLength;
	return cnCreateForceElement( world, &def->base, cnJoint_spring, def->anchorA, def->anchorB, def->stiffness,
								 def->damping, rest, def->minLength );
}

cnJointId cnCreateDamperJoint( cnWorld* world, const cnDamperJointDef* def )
{
	if ( !( def->damping > 0.0 ) )
	{
		cnSetError( cnError_invalidArgument, "damper joint: damping must be > 0" );
		return cnJointId_null;
	}
	return cnCreateForceElement( world, &def->base, cnJoint_damper, def->anchorA, def->anchorB, 0.0, def->damping,
								 0.0, def->minLength );
}
