// SPDX-License-Identifier: MIT
// The method stage: dispatch to the world's contact method.
#include "methods/method.h"

#include "error.h"
#include "world.h"

bool cnStepMethod( cnWorld* world, double timeStep )
{
	switch ( world->def.method )
	{
		case cnMethod_impulse:
			cnSolveImpulse( world, timeStep );
			return true;
		case cnMethod_lcp:
		case cnMethod_velocityProjection:
		case cnMethod_grLcp:
		case cnMethod_grVelocityProjection:
			return cnStepVelocityLevel( world, timeStep );
		case cnMethod_penalty:
			return cnStepPenalty( world, timeStep );
		case cnMethod_analyticImpulse:
			return cnStepAnalyticImpulse( world, timeStep );
		case cnMethod_constraint:
			return cnStepConstraint( world, timeStep );
		default:
			return cnFail( cnError_invalidArgument, "unknown method %d", (int)world->def.method );
	}
}
