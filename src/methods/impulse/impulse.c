// SPDX-License-Identifier: MIT
// Solve stage of the impulse method (Box2D v3's soft step in 3D). Per step: gather the awake
// bodies into contiguous arrays and prepare contacts; per sub-step: integrate velocities, warm
// start, solve with soft position correction, integrate positions, relax without it; then apply
// restitution, store impulses for warm starting and write the bodies back.
#include "methods/impulse/impulse.h"

#include "integrate.h"
#include "methods/method.h"
#include "task.h"
#include "timer.h"


// Integrate velocities of bodies [startIndex, endIndex): gravity, user forces, drag, damping and the
// gyroscopic term.
static void cnIntegrateVelocitiesTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	cnStepContext* context = taskContext;
	cnWorld* world = context->world;
	double h = context->h;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		const cnBodySim* sim = context->sims + i;
		if ( sim->dynamic == false )
		{
			continue;
		}
		cnBodyState* state = context->states + i;
		cnVec3 v = cnApplyLinearStep( &sim->linear, state->v, h );
		cnVec3 w = state->w;
		if ( sim->spinFree == false )
		{
			const cnBody* body = world->bodies + sim->body;
			w = cnIntegrateAngularVelocity( body, cnMulQuat( state->dq, body->xf.q ), w, h );
		}
		cnProjectPlanar( world, &v, &w );
		state->v = v;
		state->w = w;
	}
}

// Integrate positions of bodies [startIndex, endIndex): the centre moves with v, the orientation with
// the exact rotation of w.
static void cnIntegratePositionsTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	cnStepContext* context = taskContext;
	double h = context->h;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		cnBodyState* state = context->states + i;
		cnProjectPlanar( context->world, &state->v, &state->w );
		state->dp = cnMulAdd( state->dp, h, state->v );
		state->dq = cnIntegrateRotation( state->dq, state->w, h );
	}
}

// Writes the step's result back to bodies [startIndex, endIndex) (the finish stage does the rest).
static void cnWriteBackTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	cnStepContext* context = taskContext;
	cnWorld* world = context->world;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		const cnBodySim* sim = context->sims + i;
		const cnBodyState* state = context->states + i;
		cnBody* body = world->bodies + sim->body;

		body->v = state->v;
		body->w = state->w;
		// relax and restitution run after the last position update: keep a planar world's velocities in
		// its plane
		cnProjectPlanar( world, &body->v, &body->w );
		body->center = cnAdd( body->center, state->dp );
		body->xf.q = cnNormalizeQuat( cnMulQuat( state->dq, body->xf.q ) );
		body->xf.p = cnSub( body->center, cnRotate( body->xf.q, body->localCenter ) );
		body->solverIndex = -1;
	}
}

// Copies world bodies [startIndex, endIndex) that take part in the step into their solver slots.
static void cnGatherTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	cnStepContext* context = taskContext;
	cnWorld* world = context->world;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		// a dead body's solverIndex links the free list (body.c)
		cnBody* b = world->bodies + i;
		if ( b->alive == false )
		{
			continue;
		}
		int index = context->solverIndexOf[i];
		b->solverIndex = index < context->bodyCount ? index : -1;
		if ( b->solverIndex < 0 )
		{
			continue;
		}
		cnBodyState* s = context->states + b->solverIndex;
		cnBodySim* sim = context->sims + b->solverIndex;
		s->v = b->v;
		s->w = b->w;
		s->dp = cnVec3_zero;
		s->dq = cnQuat_identity;
		sim->invMass = b->invMass;
		sim->invI = b->type == cnBody_dynamic ? cnRotateTensor( b->xf.q, b->invInertia ) : cnMat3_zero;
		sim->body = i;
		sim->dynamic = b->type == cnBody_dynamic;
		context->takesImpulses[b->solverIndex] = sim->dynamic;
		sim->spinFree = cnSpinIsFree( b );
		sim->linear = cnLinearStepOf( world, b, context->h );
	}
}

// The sweep of sub-step `step` (cnStepContext.sweep): it counts the sub-steps of the world's life.
static int cnSubStepSweep( const cnWorld* world, int subSteps, int step )
{
	return (int)( ( ( world->stepCount % CN_SWEEP_PERIOD ) * subSteps + step ) % CN_SWEEP_PERIOD );
}

// Per-body loops of the step (each body writes only its own slot: any split gives the same bits).
#define CN_BODIES_PER_TASK 64

// The joints' position correction is nearly rigid: omega h = 10 per sub-step with critical damping
// gives a bias rate of 0.83 / h, a mass scale of 0.992 and an impulse scale of 0.008. Box2D v3's
// softer 60 Hz with damping ratio 2 works for one joint at a time but, with the equality rows
// solved exactly per island (joint_island.c), only loses: ragdolls opened their joints by 6 mm at
// 1/960 s (0.1 mm now) and a double pendulum lost 5 % of its energy in 15 s (0.1 % now).
#define CN_JOINT_STIFFNESS 10.0
#define CN_JOINT_DAMPING_RATIO 1.0

typedef struct cnMarkTask
{
	const cnWorld* world;
	bool* simulated;
} cnMarkTask;

// Marks the world bodies [startIndex, endIndex) that the step simulates: awake dynamic and kinematic
// ones (the records are read here in parallel, a cache miss each; the numbering reads the marks).
static void cnMarkSimulatedTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnMarkTask* task = taskContext;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		const cnBody* b = task->world->bodies + i;
		task->simulated[i] = b->alive && b->type != cnBody_static && b->awake;
	}
}

static bool cnStepImpulse( cnWorld* world, double timeStep )
{
	// the simulated bodies, numbered in body order; the others map to the dummy entry (count)
	int worldCount = world->bodyCount > 0 ? world->bodyCount : 1;
	bool* simulated = cnArena_Alloc( &world->arena, (size_t)worldCount * sizeof( bool ) );
	cnParallelFor( world, world->bodyCount, 256, cnMarkSimulatedTaskFn, &(cnMarkTask){ world, simulated } );
	int count = 0;
	int* solverIndexOf = cnArena_Alloc( &world->arena, (size_t)worldCount * sizeof( int ) );
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		solverIndexOf[i] = simulated[i] ? count++ : -1;
	}
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		solverIndexOf[i] = solverIndexOf[i] >= 0 ? solverIndexOf[i] : count;
	}

	cnStepContext context = { 0 };
	context.world = world;
	context.bodyCount = count;
	context.solverIndexOf = solverIndexOf;
	const cnImpulseSettings* settings = &world->def.settings.impulse;
	int subSteps = settings->subSteps;
	double h = timeStep / subSteps;
	context.h = h;
	context.inv_h = 1.0 / h;
	context.states = cnArena_Alloc( &world->arena, (size_t)( count + 1 ) * sizeof( cnBodyState ) );
	context.sims = cnArena_Alloc( &world->arena, (size_t)( count + 1 ) * sizeof( cnBodySim ) );
	context.takesImpulses = cnArena_Alloc( &world->arena, (size_t)( count + 1 ) * sizeof( bool ) );
	cnParallelFor( world, world->bodyCount, CN_BODIES_PER_TASK, cnGatherTaskFn, &context );
	// the dummy entry stands for every static or sleeping body: at rest, infinite mass
	context.states[count] = (cnBodyState){ cnVec3_zero, cnVec3_zero, cnVec3_zero, cnQuat_identity };
	context.sims[count] = (cnBodySim){ .invMass = 0.0, .invI = cnMat3_zero, .body = -1, .dynamic = false };
	context.takesImpulses[count] = false;

	// contact stiffness is capped at a quarter of the sub-step rate so the soft constraint stays stable
	double hertz = settings->contactHertz < 0.25 * context.inv_h ? settings->contactHertz : 0.25 * context.inv_h;
	context.contactSoftness = cnMakeSoft( hertz, settings->contactDampingRatio, h );
	context.staticSoftness = cnMakeSoft( 2.0 * hertz, settings->contactDampingRatio, h );
	// joints: nearly rigid (CN_JOINT_STIFFNESS)
	context.jointSoftness = cnMakeSoft( CN_JOINT_STIFFNESS / ( 2.0 * CN_PI * h ), CN_JOINT_DAMPING_RATIO, h );
	context.maxPushVelocity = settings->maxPushVelocity;
	context.restitutionThreshold = world->def.restitutionThreshold;
	context.gravity = world->gravity;

	// the first sub-step's sweep (cnBuildContactGraph packs the groups towards where its warm start
	// begins)
	context.sweep = cnSubStepSweep( world, subSteps, 0 );
	cnPrepareJoints( &context );
	cnPrepareContacts( &context );
	cnBuildContactGraph( &context );
	cnPrepareSpherePairs( &context );

	double integrateSeconds = 0.0;
	for ( int step = 0; step < subSteps; ++step )
	{
		context.sweep = cnSubStepSweep( world, subSteps, step );
		double t0 = cnSeconds();
		cnParallelFor( world, count, CN_BODIES_PER_TASK, cnIntegrateVelocitiesTaskFn, &context );
		integrateSeconds += cnSeconds() - t0;

		cnFollowSpheres( &context );
		cnWarmStartJoints( &context );
		cnWarmStartContacts( &context );
		cnSolveJoints( &context, true );
		cnSolveContacts( &context, true );

		t0 = cnSeconds();
		cnParallelFor( world, count, CN_BODIES_PER_TASK, cnIntegratePositionsTaskFn, &context );
		integrateSeconds += cnSeconds() - t0;

		// relax: rigid passes that take out the velocity the soft correction added. They alternate
		// direction so that the last one runs against the solve pass: each sub-step is then a
		// symmetric sweep. The 20-box tower holds only so: one relax pass the solve's way let it
		// fall, as did two passes whose last ran the solve's way (docs/methods.md)
		int sweep = context.sweep;
		for ( int pass = 0; pass < settings->relaxIterations; ++pass )
		{
			context.sweep = sweep ^ ( ( settings->relaxIterations - pass ) & 1 );
			cnSolveJoints( &context, false );
			cnSolveContacts( &context, false );
		}
		context.sweep = sweep;
	}

	cnUnpackImpulses( &context );
	cnFollowSpheres( &context );
	cnApplyRestitution( &context );
	cnStoreImpulses( &context );

	double t0 = cnSeconds();
	cnParallelFor( world, count, CN_BODIES_PER_TASK, cnWriteBackTaskFn, &context );
	integrateSeconds += cnSeconds() - t0;
	world->stats.integrateMs = 1000.0 * integrateSeconds;
	return true;
}

static const char* cnValidateImpulse( const cnMethodSettings* settings )
{
	const cnImpulseSettings* s = &settings->impulse;
	if ( s->subSteps < 1 || s->subSteps > 64 )
	{
		return "impulse settings: subSteps must be in [1, 64]";
	}
	if ( (int)s->simd < cnSimd_auto || (int)s->simd > cnSimd_avx512 )
	{
		return "impulse settings: simd must be a cnSimdPath (auto, scalar, sse2, avx2 or avx512)";
	}
	if ( s->relaxIterations < 1 || s->relaxIterations > 16 )
	{
		return "impulse settings: relaxIterations must be in [1, 16]";
	}
	if ( !( s->contactHertz > 0.0 ) || !isfinite( s->contactHertz ) || !( s->contactDampingRatio >= 0.0 ) ||
		 !isfinite( s->contactDampingRatio ) || !( s->maxPushVelocity >= 0.0 ) || !isfinite( s->maxPushVelocity ) )
	{
		return "impulse settings: contactHertz must be finite and > 0, contactDampingRatio and maxPushVelocity finite "
			   "and >= 0";
	}
	return NULL;
}

const cnMethodModule cnImpulseModule = {
	.method = cnMethod_impulse,
	.name = "impulse",
	.summary = "sequential impulses on soft contacts, sub-steps and relax (Box2D v3's soft step)",
	.flags = cnMethodFlag_friction | cnMethodFlag_planar | cnMethodFlag_subSteps | cnMethodFlag_joints |
			 cnMethodFlag_recycledContacts,
	.validate = cnValidateImpulse,
	.stateSize = 0,
	.step = cnStepImpulse,
};
