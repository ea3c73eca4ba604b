// SPDX-License-Identifier: MIT
// The equality rows of the impulse method's joints, solved exactly per island. Gauss-Seidel over
// joints one at a time converges slowly on long chains and with large mass ratios (a heavy weight on
// a light chain stretches it by decimetres, or, made stiffer, it goes unstable), so every sub-step
// solves all equality rows of a group of joined bodies at once: K dlambda = -(J v + bias), with
// K = J M^-1 J^T assembled over the rows that share a body and factored by an envelope Cholesky in
// the joints' order (a chain or a tree created link by link has a narrow envelope, so the cost is
// close to linear). The grouping and envelopes are built once per step, the factor at every pass;
// the islands are solved in parallel on the world's workers.
// Limits, motors and springs stay one-row-at-a-time before it (joint_solver.c).
#include "methods/impulse/impulse.h"

#include "task.h"

#include <string.h>

// One equality row of an island: its joint constraint, its row, and its two sides' solver indices.
typedef struct cnIslandRow
{
	int joint;
	int row;
	int a, b;
} cnIslandRow;

// K_ij: the coupling of two rows through the bodies they share (none: 0).
static double cnCoupling( const cnStepContext* context, const cnIslandRow* ri, const cnIslandRow* rj )
{
	const cnJointConstraint* ci = context->joints + ri->joint;
	const cnJointConstraint* cj = context->joints + rj->joint;
	const cnJointRow* Ri = ci->rows + ri->row;
	const cnJointRow* Rj = cj->rows + rj->row;
	int dummy = context->bodyCount;
	double k = 0.0;
	// side A of row i against both sides of row j, then side B
	if ( ri->a != dummy )
	{
		if ( ri->a == rj->a )
		{
			k += ci->a.invMass * cnDot( Ri->linearA, Rj->linearA ) + cnDot( Ri->angularA, cj->iA[rj->row] );
		}
		if ( ri->a == rj->b )
		{
			k += ci->a.invMass * cnDot( Ri->linearA, Rj->linearB ) + cnDot( Ri->angularA, cj->iB[rj->row] );
		}
	}
	if ( ri->b != dummy )
	{
		if ( ri->b == rj->a )
		{
			k += ci->b.invMass * cnDot( Ri->linearB, Rj->linearA ) + cnDot( Ri->angularB, cj->iA[rj->row] );
		}
		if ( ri->b == rj->b )
		{
			k += ci->b.invMass * cnDot( Ri->linearB, Rj->linearB ) + cnDot( Ri->angularB, cj->iB[rj->row] );
		}
	}
	return k;
}

// Factors one island's K = J M^-1 J^T: an envelope Cholesky, row i of L holding columns
// first[i]..i at L[offset[i] + j - first[i]].
static void cnFactorIsland( const cnStepContext* context, const cnIslandRow* rows, int m, const int* first,
							const int* offset, double* L )
{
	for ( int i = 0; i < m; ++i )
	{
		double* Li = L + offset[i] - first[i];
		for ( int j = first[i]; j <= i; ++j )
		{
			double* Lj = L + offset[j] - first[j];
			double s = cnCoupling( context, rows + i, rows + j );
			int k0 = first[i] > first[j] ? first[i] : first[j];
			for ( int k = k0; k < j; ++k )
			{
				s -= Li[k] * Lj[k];
			}
			if ( i == j )
			{
				// a row that depends on earlier ones (two joints locking the same freedom) gets a tiny
				// pivot: its share of the impulse stays bounded
				double kii = cnCoupling( context, rows + i, rows + i );
				double floor = 1e-9 * ( kii > 0.0 ? kii : 1.0 );
				Li[i] = sqrt( s > floor ? s : floor );
			}
			else
			{
				Li[j] = s / Lj[j];
			}
		}
	}
}

// Solves one island's rows with its factor and applies the impulses.
static void cnSolveIsland( cnStepContext* context, const cnIslandRow* rows, int m, const int* first, const int* offset,
						   const double* L, double* x, cnSoftness soft, bool useBias )
{
	// right-hand side: -(dC/dt + bias)
	for ( int i = 0; i < m; ++i )
	{
		const cnJointConstraint* jc = context->joints + rows[i].joint;
		const cnJointRow* R = jc->rows + rows[i].row;
		const cnBodyState* sA = context->states + rows[i].a;
		const cnBodyState* sB = context->states + rows[i].b;
		double speed = cnDot( R->linearA, sA->v ) + cnDot( R->angularA, sA->w ) + cnDot( R->linearB, sB->v ) +
					   cnDot( R->angularB, sB->w );
		x[i] = -( speed + ( useBias ? soft.biasRate * R->error : 0.0 ) );
	}
	// L y = rhs
	for ( int i = 0; i < m; ++i )
	{
		const double* Li = L + offset[i] - first[i];
		double s = x[i];
		for ( int k = first[i]; k < i; ++k )
		{
			s -= Li[k] * x[k];
		}
		x[i] = s / Li[i];
	}
	// L^T x = y: column sweeps from the last row up
	for ( int i = m - 1; i >= 0; --i )
	{
		const double* Li = L + offset[i] - first[i];
		x[i] /= Li[i];
		for ( int k = first[i]; k < i; ++k )
		{
			x[k] -= Li[k] * x[i];
		}
	}

	for ( int i = 0; i < m; ++i )
	{
		cnJointConstraint* jc = context->joints + rows[i].joint;
		int r = rows[i].row;
		double* impulses = jc->joint->impulses;
		double lambda = soft.massScale * x[i] - soft.impulseScale * impulses[r];
		impulses[r] += lambda;
		const cnJointRow* R = jc->rows + r;
		if ( rows[i].a != context->bodyCount )
		{
			cnBodyState* sA = context->states + rows[i].a;
			sA->v = cnMulAdd( sA->v, jc->a.invMass * lambda, R->linearA );
			sA->w = cnMulAdd( sA->w, lambda, jc->iA[r] );
		}
		if ( rows[i].b != context->bodyCount )
		{
			cnBodyState* sB = context->states + rows[i].b;
			sB->v = cnMulAdd( sB->v, jc->b.invMass * lambda, R->linearB );
			sB->w = cnMulAdd( sB->w, lambda, jc->iB[r] );
		}
	}
}

/// The islands of a step: the equality rows grouped by island of joined bodies and each island's
/// envelope, built at the step's first solve, and the factors of the current pass.
struct cnJointIslands
{
	int rowCount;
	cnIslandRow* rows;
	int islandCount;
	// islandCount + 1 entries: island k holds rows [start[k], start[k + 1])
	int* start;
	// per row: the first row of its island it couples with (island-relative), its envelope offset
	int* first;
	int* offset;
	// per island: where its factor starts in L
	int* factorStart;
	double* L;
	double* x;
};

// Groups the equality rows by island and lays out each island's envelope.
static cnJointIslands* cnBuildJointIslands( cnStepContext* context )
{
	cnWorld* world = context->world;
	int dummy = context->bodyCount;
	cnJointIslands* islands = cnArena_Alloc( &world->arena, sizeof( cnJointIslands ) );
	memset( islands, 0, sizeof( *islands ) );
	int total = 0;
	for ( int i = 0; i < context->jointCount; ++i )
	{
		const cnJointConstraint* jc = context->joints + i;
		for ( int r = 0; r < jc->rowCount; ++r )
		{
			total += jc->rows[r].type == cnJointRow_equality ? 1 : 0;
		}
	}
	islands->rowCount = total;
	if ( total == 0 )
	{
		return islands;
	}

	// the rows of each group of joined bodies (cnPrepareJoints groups the joints), in group order and
	// the joints' order within a group
	cnIslandRow* sorted = cnArena_Alloc( &world->arena, (size_t)total * sizeof( cnIslandRow ) );
	int groupCount = context->jointGroupCount;
	int* start = cnArena_Alloc( &world->arena, (size_t)( groupCount + 1 ) * sizeof( int ) );
	int k = 0;
	for ( int g = 0; g < groupCount; ++g )
	{
		start[g] = k;
		for ( int m = context->jointGroupStart[g]; m < context->jointGroupStart[g + 1]; ++m )
		{
			int i = context->jointGroupJoints[m];
			const cnJointConstraint* jc = context->joints + i;
			for ( int r = 0; r < jc->rowCount; ++r )
			{
				if ( jc->rows[r].type == cnJointRow_equality )
				{
					sorted[k++] = (cnIslandRow){ i, r, jc->a.index, jc->b.index };
				}
			}
		}
	}
	start[groupCount] = k;

	// the non-empty islands and their envelopes
	islands->rows = sorted;
	islands->start = cnArena_Alloc( &world->arena, (size_t)( groupCount + 1 ) * sizeof( int ) );
	islands->factorStart = cnArena_Alloc( &world->arena, (size_t)( groupCount + 1 ) * sizeof( int ) );
	islands->first = cnArena_Alloc( &world->arena, (size_t)total * sizeof( int ) );
	islands->offset = cnArena_Alloc( &world->arena, (size_t)total * sizeof( int ) );
	islands->x = cnArena_Alloc( &world->arena, (size_t)total * sizeof( double ) );
	int* earliest = cnArena_Alloc( &world->arena, (size_t)( dummy + 1 ) * sizeof( int ) );
	for ( int i = 0; i <= dummy; ++i )
	{
		earliest[i] = -1;
	}
	int size = 0;
	int n = 0;
	for ( int g = 0; g < groupCount; ++g )
	{
		int s = start[g], e = start[g + 1];
		if ( e == s )
		{
			continue;
		}
		islands->start[n] = s;
		islands->factorStart[n] = size;
		n += 1;
		const cnIslandRow* rows = sorted + s;
		int local = 0;
		for ( int i = 0; i < e - s; ++i )
		{
			int f = i;
			int bodies[2] = { rows[i].a, rows[i].b };
			for ( int k = 0; k < 2; ++k )
			{
				int b = bodies[k];
				if ( b == dummy )
				{
					continue;
				}
				if ( earliest[b] < 0 )
				{
					earliest[b] = i;
				}
				f = earliest[b] < f ? earliest[b] : f;
			}
			islands->first[s + i] = f;
			islands->offset[s + i] = local;
			local += i - f + 1;
		}
		for ( int i = 0; i < e - s; ++i )
		{
			earliest[rows[i].a] = -1;
			earliest[rows[i].b] = -1;
		}
		earliest[dummy] = -1;
		size += local;
	}
	islands->islandCount = n;
	islands->start[n] = total;
	islands->L = cnArena_Alloc( &world->arena, (size_t)( size > 0 ? size : 1 ) * sizeof( double ) );
	return islands;
}

/// A pass over the islands handed to the workers.
typedef struct cnIslandTask
{
	cnStepContext* context;
	cnSoftness soft;
	bool useBias;
} cnIslandTask;

// Factors and solves islands [startIndex, endIndex). Islands share no body (a static or sleeping
// body is the dummy entry, never written) and no joint, and each has its own stretch of L and x,
// so any split over the workers gives the same bits.
static void cnIslandTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnIslandTask* task = taskContext;
	cnStepContext* context = task->context;
	cnJointIslands* islands = context->jointIslands;
	for ( int k = startIndex; k < endIndex; ++k )
	{
		int s = islands->start[k];
		int m = islands->start[k + 1] - s;
		const cnIslandRow* rows = islands->rows + s;
		double* L = islands->L + islands->factorStart[k];
		// refactored every pass: reusing the solve pass's factor in the relax pass diverged on a taut
		// bridge of hinged planks (a closed loop, whose matrix is nearly singular)
		cnFactorIsland( context, rows, m, islands->first + s, islands->offset + s, L );
		cnSolveIsland( context, rows, m, islands->first + s, islands->offset + s, L, islands->x + s, task->soft,
					   task->useBias );
	}
}

void cnSolveJointIslands( cnStepContext* context, cnSoftness soft, bool useBias )
{
	if ( context->jointIslands == NULL )
	{
		context->jointIslands = cnBuildJointIslands( context );
	}
	cnIslandTask task = { context, soft, useBias };
	cnParallelFor( context->world, context->jointIslands->islandCount, 1, cnIslandTaskFn, &task );
}
