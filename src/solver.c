// SPDX-License-Identifier: MIT
// Solve stage of the impulse method (Box2D v3's soft step in 3D). Per step: gather the awake
// bodies into contiguous arrays and prepare contacts; per sub-step: integrate velocities, warm
// start, solve with soft position correction, integrate positions, relax without it; then apply
// restitution, store impulses for warm starting and write the bodies back.
#include "solver.h"

#include <time.h>

static double cnNow( void )
{
	struct timespec ts;
	timespec_get( &ts, TIME_UTC );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Angular velocity update in the body frame by the implicit midpoint rule:
//   I (w1 - w0) + h wm x (I wm) = h tau,   wm = (w0 + w1) / 2.
// The midpoint rule conserves kinetic energy and |L| of a torque-free body exactly (both are
// quadratic invariants of Euler's equations), so the gyroscopic term neither pumps nor drains
// energy and the Dzhanibekov flip keeps its period. Solved by Newton's method on the 3x3 system.
static cnVec3 cnIntegrateGyroscopic( cnMat3 inertia, cnVec3 w0, cnVec3 hTau, double h )
{
	cnVec3 w1 = w0;
	for ( int iter = 0; iter < 8; ++iter )
	{
		cnVec3 wm = cnMulSV( 0.5, cnAdd( w0, w1 ) );
		cnVec3 Iwm = cnMulMV( inertia, wm );
		cnVec3 F = cnSub( cnAdd( cnMulMV( inertia, cnSub( w1, w0 ) ), cnMulSV( h, cnCross( wm, Iwm ) ) ), hTau );
		// dF/dw1 = I + h/2 ([wm]x I - [I wm]x)
		cnMat3 J = cnAddMM( inertia, cnMulSM( 0.5 * h, cnAddMM( cnMulMM( cnSkew( wm ), inertia ), cnMulSM( -1.0, cnSkew( Iwm ) ) ) ) );
		cnVec3 dw = cnSolve3( J, F );
		w1 = cnSub( w1, dw );
		if ( cnLengthSquared( dw ) <= 1e-30 * ( 1.0 + cnLengthSquared( w1 ) ) )
		{
			break;
		}
	}
	return w1;
}

// Integrate velocities: gravity, user forces, drag, damping and the gyroscopic term.
static void cnIntegrateVelocities( cnStepContext* context )
{
	cnWorld* world = context->world;
	double h = context->h;
	cnVec3 gravity = world->gravity;
	for ( int i = 0; i < context->bodyCount; ++i )
	{
		const cnBodySim* sim = context->sims + i;
		const cnBody* body = world->bodies + sim->body;
		if ( body->type != cnBody_dynamic )
		{
			continue;
		}
		cnBodyState* state = context->states + i;

		// linear: v += h (F / m + s g), then quadratic drag and damping, both implicit so that
		// a large coefficient slows the body down but never reverses it
		// (the drag factor uses the speed at the start of the sub-step: then the terminal speed
		// sqrt(m g / k) is an exact fixed point of the update)
		double dragFactor = 1.0 + h * sim->invMass * body->drag * cnLength( state->v );
		cnVec3 v = cnAdd( state->v, cnMulSV( h, cnMulAdd( cnMulSV( body->gravityScale, gravity ), sim->invMass, body->force ) ) );
		if ( body->drag > 0.0 )
		{
			v = cnMulSV( 1.0 / dragFactor, v );
		}
		if ( body->linearDamping > 0.0 )
		{
			v = cnMulSV( 1.0 / ( 1.0 + h * body->linearDamping ), v );
		}
		state->v = v;

		// angular: implicit midpoint in the body frame
		cnVec3 w = state->w;
		if ( body->isotropic )
		{
			// w x (I w) vanishes when I is a multiple of the identity
			w = cnAdd( w, cnMulMV( sim->invI, cnMulSV( h, body->torque ) ) );
		}
		else if ( sim->invI.cx.x != 0.0 || sim->invI.cy.y != 0.0 || sim->invI.cz.z != 0.0 )
		{
			cnQuat q = cnMulQuat( state->dq, body->xf.q );
			cnVec3 wLocal = cnInvRotate( q, w );
			cnVec3 hTau = cnMulSV( h, cnInvRotate( q, body->torque ) );
			wLocal = cnIntegrateGyroscopic( body->inertia, wLocal, hTau, h );
			w = cnRotate( q, wLocal );
		}
		if ( body->angularDamping > 0.0 )
		{
			w = cnMulSV( 1.0 / ( 1.0 + h * body->angularDamping ), w );
		}
		state->w = w;
	}
}

// Integrate positions: the centre moves with v, the orientation with the exact rotation of w.
static void cnIntegratePositions( cnStepContext* context )
{
	double h = context->h;
	for ( int i = 0; i < context->bodyCount; ++i )
	{
		cnBodyState* state = context->states + i;
		state->dp = cnMulAdd( state->dp, h, state->v );
		state->dq = cnIntegrateRotation( state->dq, state->w, h );
	}
}

// Writes the step's result back to the bodies, updates sleep timers and shape boxes.
static void cnFinalizeBodies( cnStepContext* context, double timeStep )
{
	cnWorld* world = context->world;
	double linearThreshold = world->def.sleepLinearThreshold;
	double angularThreshold = world->def.sleepAngularThreshold;
	bool enableSleep = world->def.enableSleep;

	for ( int i = 0; i < context->bodyCount; ++i )
	{
		const cnBodySim* sim = context->sims + i;
		const cnBodyState* state = context->states + i;
		cnBody* body = world->bodies + sim->body;

		body->v = state->v;
		body->w = state->w;
		body->center = cnAdd( body->center, state->dp );
		body->xf.q = cnNormalizeQuat( cnMulQuat( state->dq, body->xf.q ) );
		body->xf.p = cnSub( body->center, cnRotate( body->xf.q, body->localCenter ) );
		body->force = cnVec3_zero;
		body->torque = cnVec3_zero;

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

		cnUpdateBodyShapes( world, body, cnMulSV( timeStep, body->v ) );
		body->solverIndex = -1;
	}
}

void cnSolveImpulse( cnWorld* world, double timeStep )
{
	// gather the simulated bodies: awake dynamic and kinematic ones
	int count = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		b->solverIndex = -1;
		if ( b->alive && b->type != cnBody_static && b->awake )
		{
			b->solverIndex = count++;
		}
	}
	world->stats.awakeBodyCount = count;

	cnStepContext context = { 0 };
	context.world = world;
	context.bodyCount = count;
	context.states = cnArena_Alloc( &world->arena, (size_t)( count + 1 ) * sizeof( cnBodyState ) );
	context.sims = cnArena_Alloc( &world->arena, (size_t)( count + 1 ) * sizeof( cnBodySim ) );
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->solverIndex < 0 )
		{
			continue;
		}
		cnBodyState* s = context.states + b->solverIndex;
		cnBodySim* sim = context.sims + b->solverIndex;
		s->v = b->v;
		s->w = b->w;
		s->dp = cnVec3_zero;
		s->dq = cnQuat_identity;
		sim->invMass = b->invMass;
		sim->invI = b->type == cnBody_dynamic ? cnRotateTensor( b->xf.q, b->invInertia ) : cnMat3_zero;
		sim->body = i;
	}
	// the dummy entry stands for every static or sleeping body: at rest, infinite mass
	context.states[count] = (cnBodyState){ cnVec3_zero, cnVec3_zero, cnVec3_zero, cnQuat_identity };
	context.sims[count] = (cnBodySim){ 0.0, cnMat3_zero, -1 };

	int subSteps = world->def.subSteps;
	double h = timeStep / subSteps;
	context.h = h;
	context.inv_h = 1.0 / h;
	// contact stiffness is capped at a quarter of the sub-step rate so the soft constraint stays stable
	double hertz = world->def.contactHertz < 0.25 * context.inv_h ? world->def.contactHertz : 0.25 * context.inv_h;
	context.contactSoftness = cnMakeSoft( hertz, world->def.contactDampingRatio, h );
	context.staticSoftness = cnMakeSoft( 2.0 * hertz, world->def.contactDampingRatio, h );
	context.maxPushVelocity = world->def.maxPushVelocity;
	context.restitutionThreshold = world->def.restitutionThreshold;

	cnPrepareContacts( &context );

	double integrateSeconds = 0.0;
	for ( int step = 0; step < subSteps; ++step )
	{
		double t0 = cnNow();
		cnIntegrateVelocities( &context );
		integrateSeconds += cnNow() - t0;

		cnWarmStartContacts( &context );
		cnSolveContacts( &context, true );

		t0 = cnNow();
		cnIntegratePositions( &context );
		integrateSeconds += cnNow() - t0;

		cnSolveContacts( &context, false );
	}

	cnApplyRestitution( &context );
	cnStoreImpulses( &context );

	double t0 = cnNow();
	cnFinalizeBodies( &context, timeStep );
	integrateSeconds += cnNow() - t0;
	world->stats.integrateMs = 1000.0 * integrateSeconds;
}
