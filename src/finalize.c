// SPDX-License-Identifier: MIT
// The finish stage shared by every contact method (finalize.h).
#include "finalize.h"

#include "arena.h"
#include "shape.h"
#include "task.h"
#include "world.h"

typedef struct cnFinalizeTask
{
	cnWorld* world;
	double timeStep;
	// per shape: 1 when its fat box moved (cnComputeBodyShapeBoxes)
	uint8_t* moved;
} cnFinalizeTask;

// Bodies [start, end): each touches only itself and its own shapes.
static void cnFinalizeRange( int start, int end, int workerIndex, void* context )
{
	(void)workerIndex;
	cnFinalizeTask* t = context;
	cnWorld* world = t->world;
	double linearThreshold = world->def.sleepLinearThreshold;
	double angularThreshold = world->def.sleepAngularThreshold;
	bool enableSleep = world->def.enableSleep;
	double timeStep = t->timeStep;
	for ( int i = start; i < end; ++i )
	{
		cnBody* body = world->bodies + i;
		if ( body->alive == false || body->type == cnBody_static || body->awake == false )
		{
			continue;
		}

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
		cnComputeBodyShapeBoxes( world, body, cnMulSV( timeStep, body->v ), t->moved );
	}
}

// Bodies per range of the parallel pass.
#define CN_FINALIZE_MIN_RANGE 64

void cnFinalizeBodies( cnWorld* world, double timeStep )
{
	// per body in parallel: forces, sleep timers, boxes
	uint8_t* moved = world->shapeCount > 0 ? cnArena_Alloc( &world->arena, (size_t)world->shapeCount ) : NULL;
	cnFinalizeTask task = { world, timeStep, moved };
	cnParallelFor( world, world->bodyCount, CN_FINALIZE_MIN_RANGE, cnFinalizeRange, &task );

	// then the broad-phase tree, serially in body order (the tree's shape depends on the order of
	// its moves, and the next broad phase on the tree's shape)
	int awake = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* body = world->bodies + i;
		if ( body->alive == false || body->type == cnBody_static || body->awake == false )
		{
			continue;
		}
		awake += 1;
		cnMoveBodyProxies( world, body, moved );
	}
	world->stats.awakeBodyCount = awake;
}
