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
	// per worker: awake bodies and moved shapes counted (integers: the sums are exact in any grouping)
	int awake[CN_MAX_WORKERS];
	int movedCount[CN_MAX_WORKERS];
} cnFinalizeTask;

// Bodies [start, end): each touches only itself and its own shapes.
static void cnFinalizeRange( int start, int end, int workerIndex, void* context )
{
	cnFinalizeTask* t = context;
	int awake = 0, movedCount = 0;
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
		awake += 1;
		for ( int s = body->firstShape; s >= 0; s = world->shapes[s].nextShape )
		{
			movedCount += t->moved[s];
		}
	}
	t->awake[workerIndex] += awake;
	t->movedCount[workerIndex] += movedCount;
}

typedef struct cnRebuildTask
{
	cnBroadPhase* bp;
	const cnRebuildPlan* plan;
} cnRebuildTask;

// Subtrees [start, end) of the movable tree's rebuild.
static void cnRebuildRange( int start, int end, int workerIndex, void* context )
{
	(void)workerIndex;
	const cnRebuildTask* t = context;
	for ( int k = start; k < end; ++k )
	{
		cnBroadPhase_BuildEndMovesJob( t->bp, t->plan->jobs + k );
	}
}

// Bodies per range of the parallel pass.
#define CN_FINALIZE_MIN_RANGE 64

// Moved proxies from which the movable tree is rebuilt rather than repaired (when they are also a
// quarter of its proxies or more).
#define CN_REBUILD_MIN_MOVES 64

void cnFinalizeBodies( cnWorld* world, double timeStep )
{
	// per body in parallel: forces, sleep timers, boxes
	uint8_t* moved = world->shapeCount > 0 ? cnArena_Alloc( &world->arena, (size_t)world->shapeCount ) : NULL;
	cnFinalizeTask task = { world, timeStep, moved, { 0 }, { 0 } };
	cnParallelFor( world, world->bodyCount, CN_FINALIZE_MIN_RANGE, cnFinalizeRange, &task );
	int awake = 0, movedCount = 0;
	for ( int w = 0; w < CN_MAX_WORKERS; ++w )
	{
		awake += task.awake[w];
		movedCount += task.movedCount[w];
	}
	world->stats.awakeBodyCount = awake;

	// then the broad-phase tree, serially in body order (the tree's shape depends on the order of
	// its moves, and the next broad phase on the tree's shape). When a good part of the movable tree
	// moved (a falling pile), the leaves take their boxes in place and the tree is rebuilt once: a
	// binned SAH build of n leaves costs less than removing and inserting a quarter of them, and
	// makes a better tree for the next step's queries than thousands of local repairs.
	cnBroadPhase* bp = &world->broadPhase;
	bool rebuild = movedCount >= CN_REBUILD_MIN_MOVES &&
				   4 * movedCount >= cnBroadPhase_GetProxyCount( bp, cnProxy_movable ) && cnBroadPhase_BeginMoves( bp );
	for ( int i = 0; i < world->bodyCount && movedCount > 0; ++i )
	{
		const cnBody* body = world->bodies + i;
		if ( body->alive == false || body->type == cnBody_static || body->awake == false )
		{
			continue;
		}
		for ( int s = body->firstShape; s >= 0; s = world->shapes[s].nextShape )
		{
			if ( moved[s] == 0 )
			{
				continue;
			}
			const cnShape* shape = world->shapes + s;
			if ( rebuild )
			{
				cnBroadPhase_BatchMoveProxy( bp, shape->proxyKey, shape->fatAABB );
			}
			else
			{
				cnBroadPhase_MoveProxy( bp, shape->proxyKey, shape->fatAABB );
			}
		}
	}
	if ( rebuild )
	{
		// the rebuild's top levels split serially, then its subtrees on the workers (each touches
		// only its own leaves and nodes, and the tree is the serial one whatever the split)
		// (one worker builds the subtrees in turn, for the same work as one whole build)
		cnRebuildPlan plan;
		if ( cnBroadPhase_PlanEndMoves( bp, CN_REBUILD_MAX_JOBS, &plan ) )
		{
			cnRebuildTask task = { bp, &plan };
			cnParallelFor( world, plan.jobCount, 1, cnRebuildRange, &task );
			cnBroadPhase_FinishEndMoves( bp, &plan );
		}
	}
}
