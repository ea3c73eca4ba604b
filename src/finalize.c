// SPDX-License-Identifier: MIT
// The finish stage shared by every contact method (finalize.h).
#include "finalize.h"

#include "shape.h"
#include "world.h"

void cnFinalizeBodies( cnWorld* world, double timeStep )
{
	double linearThreshold = world->def.sleepLinearThreshold;
	double angularThreshold = world->def.sleepAngularThreshold;
	bool enableSleep = world->def.enableSleep;
	int awake = 0;

	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* body = world->bodies + i;
		if ( body->alive == false || body->type == cnBody_static || body->awake == false )
		{
			continue;
		}
		awake += 1;

		// the forces of cnBody_ApplyForce and of the force table last one step
		body->force = cnVec3_zero;
		body->torque = cnVec3_zero;

		// the sleep timer runs while the body moves slower than the thresholds; the islands stage
		// puts an island to sleep when all its bodies have rested long enough. Kinematic bodies
		// never rest: they move by decree.
		if ( enableSleep == false || body->enableSleep == false || body->type == cnBody_kinematic ||
			 cnLengthSquared( body->v ) > linearThreshold * linearThreshold ||
			 cnLengthSquared( body->w ) > angularThreshold * angularThreshold )
		{
			body->sleepTime = 0.0;
		}
		else
		{
			body->sleepTime += timeStep;
		}

		// shape boxes at the new pose, fat boxes swept over the next step's expected motion
		cnUpdateBodyShapes( world, body, cnMulSV( timeStep, body->v ) );
	}
	world->stats.awakeBodyCount = awake;
}
