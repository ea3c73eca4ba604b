// SPDX-License-Identifier: MIT
// Distance joint: a rod (one equality row on the anchors' distance) or a rope (the distance kept
// between a minimum and a maximum by two limit rows).
#include "joints/joint.h"

#include "error.h"

#include <math.h>

// The unit direction from pA to pB and their distance; along z when they coincide.
static cnVec3 cnDirection( cnVec3 pA, cnVec3 pB, double* length )
{
	cnVec3 d = cnSub( pB, pA );
	*length = cnLength( d );
	return *length > 1e-12 ? cnMulSV( 1.0 / *length, d ) : cnV3( 0.0, 0.0, 1.0 );
}

int cnDistanceJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows )
{
	cnVec3 pA, pB;
	cnJointAnchors( j, a, b, &pA, &pB );
	double length;
	cnVec3 u = cnDirection( pA, pB, &length );
	rows[0] = (cnJointRow){ 0 };
	rows[1] = (cnJointRow){ 0 };
	if ( j->lower == j->upper )
	{
		rows[0] = cnLinearRow( a, b, pA, pB, u, length - j->lower, cnJointRow_equality );
		return 2;
	}
	if ( j->lower > 0.0 )
	{
		rows[0] = cnLinearRow( a, b, pA, pB, u, length - j->lower, cnJointRow_limit );
	}
	if ( isfinite( j->upper ) )
	{
		rows[1] = cnLinearRow( a, b, pA, pB, cnNeg( u ), j->upper - length, cnJointRow_limit );
	}
	return 2;
}

cnDistanceJointDef cnDefaultDistanceJointDef( void )
{
	cnDistanceJointDef def = { 0 };
	def.base.bodyA = cnBodyId_null;
	def.base.bodyB = cnBodyId_null;
	def.length = -1.0;
	def.minLength = -1.0;
	def.maxLength = -1.0;
	return def;
}

cnJointId cnCreateDistanceJoint( cnWorld* world, const cnDistanceJointDef* def )
{
	cnJointId id = cnJointId_null;
	double length = def->length < 0.0 ? cnDistance( def->anchorA, def->anchorB ) : def->length;
	double lower = def->minLength < 0.0 ? length : def->minLength;
	double upper = def->maxLength < 0.0 ? length : def->maxLength;
	if ( !isfinite( length ) || !isfinite( lower ) || !( upper >= lower ) || isnan( upper ) )
	{
		cnSetError( cnError_invalidArgument, "distance joint: lengths must be finite with minLength <= maxLength" );
		return id;
	}
	cnVec3 axis = cnSub( def->anchorB, def->anchorA );
	cnJoint* j = cnCreateJointBase( world, &def->base, cnJoint_distance, def->anchorA, def->anchorB,
									cnLengthSquared( axis ) > 0.0 ? axis : cnV3( 1.0, 0.0, 0.0 ), cnVec3_zero, &id );
	if ( j != NULL )
	{
		j->enableLimit = true;
		j->lower = lower;
		j->upper = upper;
	}
	return id;
}
