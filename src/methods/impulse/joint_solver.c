// SPDX-License-Identifier: MIT
// Joint constraints of the impulse method, after Box2D v3's joint solver: each sub-step warm starts
// the accumulated impulses, solves with soft position correction, and relaxes without it. A joint's
// rows are rebuilt from the bodies' current poses in every pass, so a joint that turns fast within a
// step keeps its geometry. Per joint: springs first (their force law once per sub-step), then motors (clamped to the maximum force), then limits (speculative: a
// limit not yet reached lets the gap close within the sub-step and no further). Then the equality
// rows of all joints, solved exactly per island of joined bodies (joint_island.c), which is what
// keeps a long chain with a heavy end from stretching. Joints that share no body are independent:
// the groups of joined bodies run on the workers.
#include "methods/impulse/impulse.h"

#include "task.h"
#include "union_find.h"

#include <string.h>

// The current pose of a side: its start pose moved by the sub-steps so far.
static cnJointPose cnCurrentPose( const cnStepContext* context, const cnJointSide* side )
{
	if ( side->index == context->bodyCount )
	{
		return side->start;
	}
	const cnBodyState* s = context->states + side->index;
	cnJointPose p = side->start;
	p.center = cnAdd( p.center, s->dp );
	p.q = cnNormalizeQuat( cnMulQuat( s->dq, p.q ) );
	return p;
}

static void cnSetSide( const cnStepContext* context, int body, cnJointSide* side )
{
	const cnWorld* world = context->world;
	side->start = cnJointBodyPose( world, body );
	int index = body >= 0 ? world->bodies[body].solverIndex : -1;
	side->index = index >= 0 ? index : context->bodyCount;
	const cnBodySim* sim = context->sims + side->index;
	side->invMass = sim->invMass;
	side->invI = sim->invI;
}

// Groups the joints by the bodies they join (a static, sleeping or absent body joins nothing), each
// group keeping the joints' order: groups share no body, so the workers can take any groups and a
// body sees the same updates in the same order as in one loop over all joints.
static void cnGroupJoints( cnStepContext* context )
{
	cnWorld* world = context->world;
	int n = context->jointCount;
	int dummy = context->bodyCount;
	context->jointGroupCount = 0;
	context->jointGroupStart = cnArena_Alloc( &world->arena, (size_t)( n + 1 ) * sizeof( int ) );
	context->jointGroupJoints = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	context->jointGroupStart[0] = 0;
	if ( n == 0 )
	{
		return;
	}
	int* parent = cnArena_Alloc( &world->arena, (size_t)( dummy + 1 ) * sizeof( int ) );
	cnUnionFind_Reset( parent, dummy + 1 );
	for ( int i = 0; i < n; ++i )
	{
		const cnJointConstraint* jc = context->joints + i;
		if ( jc->a.index != dummy && jc->b.index != dummy )
		{
			cnUnionFind_Union( parent, jc->a.index, jc->b.index );
		}
	}
	// counting sort of the joints on their group's root, in joint order within a group
	int* count = cnArena_Alloc( &world->arena, (size_t)( dummy + 2 ) * sizeof( int ) );
	memset( count, 0, (size_t)( dummy + 2 ) * sizeof( int ) );
	int* rootOf = cnArena_Alloc( &world->arena, (size_t)n * sizeof( int ) );
	for ( int i = 0; i < n; ++i )
	{
		const cnJointConstraint* jc = context->joints + i;
		rootOf[i] = cnUnionFind_Find( parent, jc->a.index != dummy ? jc->a.index : jc->b.index );
		count[rootOf[i] + 1] += 1;
	}
	int groups = 0;
	for ( int r = 0; r <= dummy; ++r )
	{
		if ( count[r + 1] > 0 )
		{
			context->jointGroupStart[groups + 1] = context->jointGroupStart[groups] + count[r + 1];
			groups += 1;
		}
		count[r + 1] += count[r];
	}
	context->jointGroupCount = groups;
	for ( int i = 0; i < n; ++i )
	{
		context->jointGroupJoints[count[rootOf[i]]++] = i;
	}
}

void cnPrepareJoints( cnStepContext* context )
{
	cnWorld* world = context->world;
	int n = 0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		n += cnJointActive( world->joints + i ) ? 1 : 0;
	}
	context->joints = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( cnJointConstraint ) );
	int k = 0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		cnJoint* joint = world->joints + i;
		if ( cnJointActive( joint ) == false )
		{
			continue;
		}
		cnJointConstraint* jc = context->joints + k;
		jc->joint = joint;
		cnSetSide( context, joint->bodyA, &jc->a );
		cnSetSide( context, joint->bodyB, &jc->b );
		// a joint between two bodies that do not move this step (both asleep, static or the world)
		if ( jc->a.index == context->bodyCount && jc->b.index == context->bodyCount )
		{
			continue;
		}
		jc->rowCount = 0;
		k += 1;
	}
	context->jointCount = k;
	world->jointImpulseTime = context->h;
	cnGroupJoints( context );
}

// Rebuilds a joint's rows and their effective masses at the current poses.
static void cnUpdateRows( const cnStepContext* context, cnJointConstraint* jc )
{
	cnJointPose a = cnCurrentPose( context, &jc->a );
	cnJointPose b = cnCurrentPose( context, &jc->b );
	jc->rowCount = cnJointRows( jc->joint, &a, &b, jc->rows );
	for ( int r = 0; r < jc->rowCount; ++r )
	{
		const cnJointRow* row = jc->rows + r;
		jc->iA[r] = cnMulMV( jc->a.invI, row->angularA );
		jc->iB[r] = cnMulMV( jc->b.invI, row->angularB );
		double k = jc->a.invMass * cnLengthSquared( row->linearA ) + cnDot( row->angularA, jc->iA[r] ) +
				   jc->b.invMass * cnLengthSquared( row->linearB ) + cnDot( row->angularB, jc->iB[r] );
		jc->mass[r] = k > 0.0 ? 1.0 / k : 0.0;
		jc->k[r] = k;
	}
}

// dC/dt of a row.
static double cnRowSpeed( const cnStepContext* context, const cnJointConstraint* jc, const cnJointRow* row )
{
	const cnBodyState* sA = context->states + jc->a.index;
	const cnBodyState* sB = context->states + jc->b.index;
	return cnDot( row->linearA, sA->v ) + cnDot( row->angularA, sA->w ) + cnDot( row->linearB, sB->v ) +
		   cnDot( row->angularB, sB->w );
}

// Applies an impulse lambda on row r to both bodies (never to the dummy entry).
static void cnApplyRow( cnStepContext* context, const cnJointConstraint* jc, int r, double lambda )
{
	const cnJointRow* row = jc->rows + r;
	if ( jc->a.index != context->bodyCount )
	{
		cnBodyState* sA = context->states + jc->a.index;
		sA->v = cnMulAdd( sA->v, jc->a.invMass * lambda, row->linearA );
		sA->w = cnMulAdd( sA->w, lambda, jc->iA[r] );
	}
	if ( jc->b.index != context->bodyCount )
	{
		cnBodyState* sB = context->states + jc->b.index;
		sB->v = cnMulAdd( sB->v, jc->b.invMass * lambda, row->linearB );
		sB->w = cnMulAdd( sB->w, lambda, jc->iB[r] );
	}
}

// Warm starts the joints of groups [startIndex, endIndex).
static void cnWarmStartTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	cnStepContext* context = taskContext;
	for ( int k = context->jointGroupStart[startIndex]; k < context->jointGroupStart[endIndex]; ++k )
	{
		cnJointConstraint* jc = context->joints + context->jointGroupJoints[k];
		cnUpdateRows( context, jc );
		double* impulses = jc->joint->impulses;
		for ( int r = 0; r < jc->rowCount; ++r )
		{
			// springs are not warm started: their impulse is the force law's, computed afresh
			if ( jc->rows[r].type == cnJointRow_inactive || jc->rows[r].type == cnJointRow_spring )
			{
				impulses[r] = 0.0;
				continue;
			}
			cnApplyRow( context, jc, r, impulses[r] );
		}
	}
}

void cnWarmStartJoints( cnStepContext* context )
{
	cnParallelFor( context->world, context->jointGroupCount, 1, cnWarmStartTaskFn, context );
}

// A spring row's impulse over a sub-step h: the stiffness explicit and the damping implicit,
// lambda = -h (k C + c dC/dt_new), which with the positions' symplectic Euler keeps an undamped
// spring's energy (no numerical decay of its amplitude); a spring too stiff for that (omega h > 1/2,
// omega^2 = k K) takes the implicit soft form, gamma = 1 / (h (c + h k)), bias = C h k gamma, which
// is stable at any stiffness but damps.
static double cnSpringImpulse( const cnJointRow* row, double speed, double K, double h )
{
	double k = row->stiffness, c = row->damping;
	if ( k * K * h * h <= 0.25 )
	{
		return -h * ( k * row->error + c * speed ) / ( 1.0 + h * c * K );
	}
	double gamma = 1.0 / ( h * ( c + h * k ) );
	double bias = row->error * h * k * gamma;
	return -( speed + bias ) / ( K + gamma );
}

/// One pass of the joints' one-row-at-a-time rows handed to the workers.
typedef struct cnJointPassTask
{
	cnStepContext* context;
	bool useBias;
} cnJointPassTask;

// Springs, motors and limits of the joints of groups [startIndex, endIndex).
static void cnSolveRowsTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnJointPassTask* task = taskContext;
	cnStepContext* context = task->context;
	bool useBias = task->useBias;
	double h = context->h;
	for ( int k = context->jointGroupStart[startIndex]; k < context->jointGroupStart[endIndex]; ++k )
	{
		cnJointConstraint* jc = context->joints + context->jointGroupJoints[k];
		if ( useBias == false )
		{
			// the positions moved since the solve: rebuild the rows where the bodies are now
			cnUpdateRows( context, jc );
		}
		double* impulses = jc->joint->impulses;

		// springs, motors, limits, in that order
		for ( int pass = 0; pass < 3; ++pass )
		{
			for ( int r = 0; r < jc->rowCount; ++r )
			{
				const cnJointRow* row = jc->rows + r;
				double m = jc->mass[r];
				if ( m == 0.0 )
				{
					continue;
				}
				if ( pass == 0 && row->type == cnJointRow_spring )
				{
					// once per sub-step, in the solve pass: the spring's impulse over the sub-step
					if ( useBias )
					{
						double lambda = cnSpringImpulse( row, cnRowSpeed( context, jc, row ), jc->k[r], h );
						impulses[r] = lambda;
						cnApplyRow( context, jc, r, lambda );
					}
				}
				else if ( pass == 1 && row->type == cnJointRow_motor )
				{
					double maxImpulse = row->maxForce * h;
					double lambda = -m * ( cnRowSpeed( context, jc, row ) - row->speed );
					double old = impulses[r];
					double next = old + lambda;
					next = next < -maxImpulse ? -maxImpulse : next > maxImpulse ? maxImpulse : next;
					impulses[r] = next;
					cnApplyRow( context, jc, r, next - old );
				}
				else if ( pass == 2 && row->type == cnJointRow_limit )
				{
					double C = row->error;
					double bias = 0.0, massScale = 1.0, impulseScale = 0.0;
					if ( C > 0.0 )
					{
						// not reached: the gap may close within the sub-step, no further
						bias = C * context->inv_h;
					}
					else if ( useBias )
					{
						bias = context->jointSoftness.biasRate * C;
						massScale = context->jointSoftness.massScale;
						impulseScale = context->jointSoftness.impulseScale;
					}
					double lambda = -m * massScale * ( cnRowSpeed( context, jc, row ) + bias ) - impulseScale * impulses[r];
					double old = impulses[r];
					double next = old + lambda > 0.0 ? old + lambda : 0.0;
					impulses[r] = next;
					cnApplyRow( context, jc, r, next - old );
				}
			}
		}
	}
}

void cnSolveJoints( cnStepContext* context, bool useBias )
{
	cnSoftness rigid = { 0.0, 1.0, 0.0 };
	cnSoftness soft = useBias ? context->jointSoftness : rigid;
	cnJointPassTask task = { context, useBias };
	cnParallelFor( context->world, context->jointGroupCount, 1, cnSolveRowsTaskFn, &task );
	cnSolveJointIslands( context, soft, useBias );
}
