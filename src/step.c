// SPDX-License-Identifier: MIT
// The step: a short script of named, timed stages over the world's data. Every contact method
// plugs in as one stage; what they share (forces, collision, the finish stage, islands and sleep)
// runs here once for all of them.
#include "world.h"

#include "collision/continuous.h"
#include "error.h"
#include "finalize.h"
#include "force.h"
#include "guard.h"
#include "internal_faces.h"
#include "methods/method.h"
#include "timer.h"

bool cnWorld_Step( cnWorld* world, double timeStep )
{
	if ( cnRequireWorld( world ) == false )
	{
		return false;
	}
	if ( !isfinite( timeStep ) || timeStep < 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "time step must be finite and >= 0 (got %g)", timeStep );
	}
	cnClearError();
	if ( cnCheckCancel( world ) )
	{
		return false;
	}
	// contact events: the last step's begin and hit events go (end events are published at the end)
	cnClearContactEvents( world );
	if ( timeStep == 0.0 )
	{
		cnPublishEndEvents( world );
		return true;
	}

	cnStats* s = &world->stats;
	double start = cnSeconds();
	double mark = start;

	// forces: the force table's active forces and torques (they wake their bodies)
	cnApplyUserForces( world );
	s->forcesMs = cnLapMs( &mark );

	// broad phase: new pairs from shapes whose fat boxes moved; the static boxes' internal faces
	// when a static shape changed
	cnUpdatePairs( world );
	cnUpdateInternalFaces( world );
	s->broadPhaseMs = cnLapMs( &mark );

	// narrow phase: contact manifolds
	cnCollideContacts( world, timeStep );
	s->narrowPhaseMs = cnLapMs( &mark );

	// continuous collision needs the poses the method starts from
	bool continuous = cnUsesContinuous( world );
	if ( continuous )
	{
		cnSaveStartPoses( world );
	}
	s->continuousMs = cnLapMs( &mark );

	// instability guard: the energy the step starts from (and the start poses, for freeze-body)
	cnGuardBeginStep( world, timeStep );
	s->guardMs = cnLapMs( &mark );

	// the method: resolves contacts and joints and moves the awake bodies (it times its own
	// integration)
	s->integrateMs = 0.0;
	world->jointImpulseTime = timeStep;
	if ( cnStepMethod( world, timeStep ) == false )
	{
		cnArena_Reset( &world->arena );
		cnPublishEndEvents( world );
		return false;
	}
	s->solveMs = cnLapMs( &mark ) - s->integrateMs;

	// continuous collision: fast bodies that passed through a static shape go back to their time
	// of impact (impulse and the velocity-level methods)
	if ( continuous )
	{
		cnSolveContinuous( world, timeStep );
	}
	s->continuousMs += cnLapMs( &mark );

	// hit events: the contacts the method stopped, from the velocities it left
	cnCollectHitEvents( world, timeStep );

	// joints: errors and reactions at the new poses, breaks
	if ( world->liveJointCount > 0 )
	{
		cnFinishJoints( world, world->jointImpulseTime, timeStep );
	}

	// finish: forces cleared, sleep timers, shape boxes
	cnFinalizeBodies( world, timeStep );
	s->finishMs = cnLapMs( &mark );

	// continuous collision of bullets: against static shapes and the other bodies at their final
	// poses, whose boxes the finish stage has just moved
	if ( continuous )
	{
		cnSolveBullets( world, timeStep );
	}
	s->continuousMs += cnLapMs( &mark );

	// islands and sleep
	cnUpdateSleep( world, timeStep );
	s->islandMs = cnLapMs( &mark );

	cnPublishEndEvents( world );
	world->time += timeStep;
	world->stepCount += 1;
	s->stepCount = world->stepCount;

	// instability guard: non-finite or runaway bodies and energy jumps, as the world says to act
	bool stable = cnGuardStep( world, timeStep );
	s->guardMs += cnLapMs( &mark );
	cnArena_Reset( &world->arena );
	s->stepMs = 1000.0 * ( mark - start );
	return stable;
}

void cnWorld_Cancel( cnWorld* world )
{
	// only an atomic store: safe in a signal handler
	if ( world != NULL )
	{
		atomic_store( &world->cancelRequested, 1 );
	}
}

bool cnCheckCancel( cnWorld* world )
{
	if ( atomic_load_explicit( &world->cancelRequested, memory_order_relaxed ) == 0 )
	{
		return false;
	}
	atomic_store( &world->cancelRequested, 0 );
	return cnSetError( cnError_cancelled, "cancelled at t = %.9g s", world->time ) == false;
}
