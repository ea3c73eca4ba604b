// SPDX-License-Identifier: MIT
// Kleppmann's unified constraint method, frictionless (M. Kleppmann, "Simulation of colliding
// constrained rigid bodies", University of Cambridge tech report UCAM-CL-TR-683, 2007).
//
// Every constraint is a row of one Jacobian J over the generalised velocities qdot. Per internal
// step of an adaptive Cash-Karp Runge-Kutta integrator:
//   1. colliding contacts (touching, approaching faster than a threshold) get impulses P that
//      give cdot' = -e cdot, solved simultaneously: J M^-1 J^T P = cdot' - cdot;
//   2. at every Runge-Kutta stage the resting contacts (touching, not approaching fast) get forces
//      J^T lambda from  -J M^-1 J^T lambda = Jdot qdot + J M^-1 F + k c + d cdot;
//   3. a step that lets a contact penetrate is retried with the step size that reaches the time of
//      impact, found by Newton-Raphson on the penetration depth (bisection as fallback).
// Both solves use an active set: unilateral rows whose multiplier comes out negative (pulling) are
// dropped and the system is solved again; dropped rows that would then penetrate are taken back
// (block principal pivoting), which ends at the unique LCP solution. Joints are rows of the same
// system (constraint_joints.c): equality rows with free multipliers, limits like contacts, motors
// with boxed multipliers; springs and dampers are forces. They join the contacts' islands.
// See docs/method-constraint.md and docs/joints.md for the derivations and the parameters.
#include "error.h"
#include "integrate.h"
#include "methods/constraint.h"
#include "methods/contact_time.h"
#include "methods/method.h"
#include "solvers/rk.h"
#include "union_find.h"
#include "world.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

// Contacts approaching slower than this (m/s) are resting: they are held by constraint forces.
// Faster approach is a collision, resolved by an impulse. Separating contacts stay in the row set
// and leave it through a multiplier that reaches zero, which keeps the force continuous.
#define CN_CONSTRAINT_REST_SPEED 0.01

// Damping ratio of the constraint stabilisation: critical, so the separation error decays as
// fast as it can without overshoot.
#define CN_CONSTRAINT_DAMPING_RATIO 1.0

// Time offset of the central difference that gives Jdot qdot (seconds, before scaling by speed).
#define CN_CONSTRAINT_DIFFERENCE_TIME 1e-5

// Regularisation of the dense solve, relative to the largest diagonal entry: it makes redundant
// rows (a box flat on a plane: 4 rows of rank 3) solvable and biases the result by about 1e-10.
#define CN_CONSTRAINT_REGULARISATION 1e-10

// Limits that turn a runaway into a reported error instead of a hang.
#define CN_CONSTRAINT_MAX_STEPS 200000
#define CN_CONSTRAINT_MAX_IMPACT_ITERATIONS 60
#define CN_CONSTRAINT_MAX_IMPULSE_ROUNDS 16

// Rounds of block pivoting without fewer violations before the solve falls back to single flips.
#define CN_CONSTRAINT_BLOCK_PIVOT_TRIES 3

// Largest island (rows coupled through shared bodies) the dense solver takes: its matrix is
// 32 MiB and a factorisation about 3e9 operations. Beyond it the step reports an error.
#define CN_CONSTRAINT_MAX_ISLAND_ROWS 2048

// ---------------------------------------------------------------------------------------------
// state vector <-> bodies

// Writes a state vector into the simulated bodies (pose and velocity) and refreshes the inverse
// mass blocks and external accelerations that depend on it.
static void cnScatterState( cnConstraintSolver* s, const double* y )
{
	cnWorld* world = s->world;
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		cnBody* b = world->bodies + s->bodies[k];
		const double* x = y + k * CN_STATE_SIZE;
		cnQuat q = { x[3], x[4], x[5], x[6] };
		q = cnNormalizeQuat( q );
		cnVec3 v = cnV3( x[7], x[8], x[9] );
		cnVec3 w = cnV3( x[10], x[11], x[12] );
		cnProjectPlanar( world, &v, &w );
		b->center = cnV3( x[0], x[1], x[2] );
		b->xf.q = q;
		b->xf.p = cnSub( b->center, cnRotate( q, b->localCenter ) );
		b->v = v;
		b->w = w;

		if ( s->dynamic[k] == false )
		{
			s->invMassLinear[k] = cnVec3_zero;
			s->invInertia[k] = cnMat3_zero;
			s->linearAcceleration[k] = cnVec3_zero;
			s->angularAcceleration[k] = cnVec3_zero;
			continue;
		}

		// gravity, user force, linear damping dv/dt = -c v and quadratic drag -k |v| v / m
		cnVec3 a = cnMulAdd( cnMulSV( b->gravityScale, world->gravity ), b->invMass, b->force );
		a = cnMulSub( a, b->linearDamping, v );
		a = cnMulSub( a, b->invMass * b->drag * cnLength( v ), v );

		cnMat3 inertia = cnRotateTensor( q, b->inertia );
		cnMat3 invInertia = cnRotateTensor( q, b->invInertia );
		cnVec3 alpha;
		if ( s->planar )
		{
			// rotation about z only: Izz wz' = tau_z (the gyroscopic term has no z component)
			double invIzz = inertia.cz.z > 0.0 ? 1.0 / inertia.cz.z : 0.0;
			invInertia = cnDiagonal( 0.0, 0.0, invIzz );
			alpha = cnV3( 0.0, 0.0, invIzz * b->torque.z );
			s->invMassLinear[k] = cnV3( b->invMass, b->invMass, 0.0 );
			a.z = 0.0;
		}
		else
		{
			// Euler's equations in the world frame: I w' = tau - w x (I w)
			cnVec3 tau = b->torque;
			if ( b->isotropic == false )
			{
				tau = cnSub( tau, cnCross( w, cnMulMV( inertia, w ) ) );
			}
			alpha = cnMulMV( invInertia, tau );
			s->invMassLinear[k] = cnV3( b->invMass, b->invMass, b->invMass );
		}
		alpha = cnMulSub( alpha, b->angularDamping, w );
		s->invInertia[k] = invInertia;
		s->linearAcceleration[k] = a;
		s->angularAcceleration[k] = alpha;
	}
}

// Reads the simulated bodies into a state vector.
static void cnGatherState( const cnConstraintSolver* s, double* y )
{
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		const cnBody* b = s->world->bodies + s->bodies[k];
		double* x = y + k * CN_STATE_SIZE;
		x[0] = b->center.x, x[1] = b->center.y, x[2] = b->center.z;
		x[3] = b->xf.q.w, x[4] = b->xf.q.x, x[5] = b->xf.q.y, x[6] = b->xf.q.z;
		x[7] = b->v.x, x[8] = b->v.y, x[9] = b->v.z;
		x[10] = b->w.x, x[11] = b->w.y, x[12] = b->w.z;
	}
}

// ---------------------------------------------------------------------------------------------
// contact rows

// Velocity of a body's material point at world point p.
static cnVec3 cnPointVelocity( const cnBody* b, cnVec3 p )
{
	return cnAdd( b->v, cnCross( b->w, cnSub( p, b->center ) ) );
}

// Contact manifold of a contact with both bodies moved along their current velocities for time
// tau (a free path: v and w constant), so that differences along it give Jdot qdot.
static int cnCollideAlongFreePath( const cnConstraintSolver* s, const cnContact* c, double tau, double maxDistance,
								   cnManifoldPoint* points, cnVec3* centerA, cnVec3* centerB )
{
	const cnWorld* world = s->world;
	const cnShape* shapes[2] = { world->shapes + c->shapeA, world->shapes + c->shapeB };
	const cnBody* bodies[2] = { world->bodies + c->bodyA, world->bodies + c->bodyB };
	cnTransform xf[2];
	cnVec3 centers[2];
	for ( int i = 0; i < 2; ++i )
	{
		const cnBody* b = bodies[i];
		cnTransform bodyXf = b->xf;
		centers[i] = b->center;
		if ( b->type != cnBody_static )
		{
			centers[i] = cnMulAdd( b->center, tau, b->v );
			bodyXf.q = cnIntegrateRotation( b->xf.q, b->w, tau );
			bodyXf.p = cnSub( centers[i], cnRotate( bodyXf.q, b->localCenter ) );
		}
		xf[i] = cnMulTransforms( bodyXf, shapes[i]->local );
	}
	*centerA = centers[0];
	*centerB = centers[1];
	return cnCollidePoints( &shapes[0]->geom, xf[0], &shapes[1]->geom, xf[1], maxDistance, points, CN_MAX_PAIR_POINTS );
}

// Jdot qdot of the rows [first, first + count) of one contact, by a central difference of
// J(q(t)) qdot along the free path q(t) = q + t qdot:  d/dt (J qdot) = Jdot qdot there, since
// qdot is constant. The manifold point is matched by feature id, else by position. The free
// path moves the contact point exactly as the geometry dictates (a sphere rolls its contact
// point along, a box corner swings with the box), so the curvature terms come out right for
// every shape pair without a formula per pair.
static void cnComputeRowBias( cnConstraintSolver* s, const cnContact* c, int first, int count )
{
	const cnWorld* world = s->world;
	const cnBody* ba = world->bodies + c->bodyA;
	const cnBody* bb = world->bodies + c->bodyB;
	// keep the points' displacement over tau below about 0.1 mm so their ids still match
	double speed = cnLength( ba->v ) + cnLength( bb->v ) + cnLength( ba->w ) * ba->maxExtent +
				   cnLength( bb->w ) * bb->maxExtent;
	double tau = CN_CONSTRAINT_DIFFERENCE_TIME / ( speed > 10.0 ? 0.1 * speed : 1.0 );
	double maxDistance = s->contactTolerance + 1e-3;

	double rates[2][CN_MAX_PAIR_POINTS];
	bool found[2][CN_MAX_PAIR_POINTS];
	for ( int side = 0; side < 2; ++side )
	{
		double t = side == 0 ? tau : -tau;
		cnManifoldPoint points[CN_MAX_PAIR_POINTS];
		cnVec3 centerA, centerB;
		int pointCount = cnCollideAlongFreePath( s, c, t, maxDistance, points, &centerA, &centerB );
		for ( int r = 0; r < count; ++r )
		{
			const cnConstraintRow* row = s->rows + first + r;
			int match = -1;
			for ( int j = 0; j < pointCount; ++j )
			{
				if ( points[j].id == row->id )
				{
					match = j;
					break;
				}
			}
			if ( match < 0 )
			{
				double best = 1e-6 + 4.0 * tau * speed;
				best *= best;
				for ( int j = 0; j < pointCount; ++j )
				{
					double d2 = cnLengthSquared( cnSub( points[j].point, row->point ) );
					if ( d2 < best )
					{
						best = d2;
						match = j;
					}
				}
			}
			found[side][r] = match >= 0;
			if ( match >= 0 )
			{
				cnVec3 p = points[match].point;
				cnVec3 vA = cnAdd( ba->v, cnCross( ba->w, cnSub( p, centerA ) ) );
				cnVec3 vB = cnAdd( bb->v, cnCross( bb->w, cnSub( p, centerB ) ) );
				rates[side][r] = cnDot( points[match].normal, cnSub( vB, vA ) );
			}
		}
	}
	for ( int r = 0; r < count; ++r )
	{
		cnConstraintRow* row = s->rows + first + r;
		// a point that vanished along the path (a feature change) gets no curvature term
		row->bias = found[0][r] && found[1][r] ? ( rates[0][r] - rates[1][r] ) / ( 2.0 * tau ) : 0.0;
	}
}

// Fills the Jacobian blocks and M^-1 J^T of a contact row at a world point along the normal.
static void cnSetContactJacobian( const cnConstraintSolver* s, cnConstraintRow* row, const cnBody* ba,
								  const cnBody* bb, int slotA, int slotB )
{
	cnVec3 n = row->normal;
	cnVec3 rA = cnSub( row->point, ba->center );
	cnVec3 rB = cnSub( row->point, bb->center );
	row->slotA = slotA;
	row->slotB = slotB;
	row->linA = cnNeg( n );
	row->angA = cnNeg( cnCross( rA, n ) );
	row->linB = n;
	row->angB = cnCross( rB, n );
	cnSetRowInverse( s, row );
}

void cnSetRowInverse( const cnConstraintSolver* s, cnConstraintRow* row )
{
	row->invLinA = row->invAngA = row->invLinB = row->invAngB = cnVec3_zero;
	if ( row->slotA >= 0 )
	{
		row->invLinA = cnMulVV( s->invMassLinear[row->slotA], row->linA );
		row->invAngA = cnMulMV( s->invInertia[row->slotA], row->angA );
	}
	if ( row->slotB >= 0 )
	{
		row->invLinB = cnMulVV( s->invMassLinear[row->slotB], row->linB );
		row->invAngB = cnMulMV( s->invInertia[row->slotB], row->angB );
	}
}

// Collides every contact at the current body state and appends a row per contact point within
// the contact tolerance that the mode wants: points not approaching fast for the force solve;
// colliding points and touching slow ones for the impulse solve. Optionally records the points
// (feature id and separation) of each pair. Returns the number of colliding rows.
static int cnBuildContactRows( cnConstraintSolver* s, bool impulse, bool recordStart )
{
	cnWorld* world = s->world;
	int collidingCount = 0;
	s->rowCount = 0;
	for ( int ci = 0; ci < s->contactCount; ++ci )
	{
		const cnContact* c = world->contacts + s->contacts[ci];
		const cnShape* sa = world->shapes + c->shapeA;
		const cnShape* sb = world->shapes + c->shapeB;
		const cnBody* ba = world->bodies + c->bodyA;
		const cnBody* bb = world->bodies + c->bodyB;
		cnManifoldPoint points[CN_MAX_PAIR_POINTS];
		int capacity = s->pointOffset[ci + 1] - s->pointOffset[ci];
		int pointCount = cnCollidePoints( &sa->geom, cnShapeWorldTransform( ba, sa ), &sb->geom,
										  cnShapeWorldTransform( bb, sb ), s->contactTolerance, points, capacity );

		int slotA = s->slot[c->bodyA], slotB = s->slot[c->bodyB];
		int dofA = slotA >= 0 && s->dynamic[slotA] ? slotA : -1;
		int dofB = slotB >= 0 && s->dynamic[slotB] ? slotB : -1;
		int first = s->rowCount;
		if ( recordStart )
		{
			s->startCount[ci] = pointCount;
			for ( int j = 0; j < pointCount; ++j )
			{
				s->startId[s->pointOffset[ci] + j] = points[j].id;
				s->startSeparation[s->pointOffset[ci] + j] = points[j].separation;
			}
		}
		for ( int j = 0; j < pointCount; ++j )
		{
			const cnManifoldPoint* mp = points + j;
			if ( mp->separation > s->contactTolerance || ( dofA < 0 && dofB < 0 ) )
			{
				continue;
			}
			double cdot = cnDot( mp->normal, cnSub( cnPointVelocity( bb, mp->point ), cnPointVelocity( ba, mp->point ) ) );
			bool colliding = cdot < -s->restSpeed && mp->separation <= s->impactTolerance;
			bool keep = impulse ? ( fabs( cdot ) <= s->restSpeed || colliding ) : cdot >= -s->restSpeed;
			if ( keep == false )
			{
				continue;
			}
			if ( s->rowCount == s->rowCapacity )
			{
				break;
			}
			cnConstraintRow* row = s->rows + s->rowCount++;
			row->point = mp->point;
			row->normal = mp->normal;
			row->id = mp->id;
			row->position = mp->separation;
			row->velocity = cdot;
			row->bias = 0.0;
			row->lower = 0.0;
			row->upper = DBL_MAX;
			row->restitution = c->restitution;
			row->speed = 0.0;
			row->hint = impulse ? -1 : s->pointOffset[ci] + j;
			row->joint = -1;
			row->kind = cnConstraintRow_contact;
			row->colliding = impulse && colliding;
			cnSetContactJacobian( s, row, ba, bb, dofA, dofB );
			collidingCount += row->colliding ? 1 : 0;
		}
		if ( impulse == false && s->rowCount > first )
		{
			cnComputeRowBias( s, c, first, s->rowCount - first );
		}
	}
	return collidingCount;
}

// ---------------------------------------------------------------------------------------------
// dense solve with an active set

// Makes room for the dense m x m matrices.
static bool cnReserveMatrix( cnConstraintSolver* s, int m )
{
	if ( m <= s->matrixCapacity )
	{
		return true;
	}
	free( s->matrix );
	free( s->factor );
	size_t bytes = (size_t)m * (size_t)m * sizeof( double );
	s->matrix = malloc( bytes );
	s->factor = malloc( bytes );
	if ( s->matrix == NULL || s->factor == NULL )
	{
		free( s->matrix );
		free( s->factor );
		s->matrix = s->factor = NULL;
		s->matrixCapacity = 0;
		return false;
	}
	s->matrixCapacity = m;
	return true;
}

// Entry (i, j) of J M^-1 J^T: the rows interact through the bodies they share.
static double cnRowCoupling( const cnConstraintRow* ri, const cnConstraintRow* rj )
{
	double a = 0.0;
	if ( ri->slotA >= 0 )
	{
		if ( ri->slotA == rj->slotA )
		{
			a += cnDot( ri->linA, rj->invLinA ) + cnDot( ri->angA, rj->invAngA );
		}
		if ( ri->slotA == rj->slotB )
		{
			a += cnDot( ri->linA, rj->invLinB ) + cnDot( ri->angA, rj->invAngB );
		}
	}
	if ( ri->slotB >= 0 )
	{
		if ( ri->slotB == rj->slotA )
		{
			a += cnDot( ri->linB, rj->invLinA ) + cnDot( ri->angB, rj->invAngA );
		}
		if ( ri->slotB == rj->slotB )
		{
			a += cnDot( ri->linB, rj->invLinB ) + cnDot( ri->angB, rj->invAngB );
		}
	}
	return a;
}

// Solves (S + eps I) x = b for the symmetric positive semi-definite S (count x count, row-major,
// overwritten by its Cholesky factor) in place of b. The regularisation eps > 0 makes redundant
// rows solvable, so the factorisation never fails.
static void cnCholeskySolve( double* S, int count, double* b, double eps )
{
	for ( int j = 0; j < count; ++j )
	{
		double d = S[j * count + j] + eps;
		for ( int k = 0; k < j; ++k )
		{
			d -= S[j * count + k] * S[j * count + k];
		}
		// round-off on a dependent row can leave less than eps; eps keeps the pivot positive
		d = d > eps ? d : eps;
		double ljj = sqrt( d );
		S[j * count + j] = ljj;
		for ( int i = j + 1; i < count; ++i )
		{
			double v = S[i * count + j];
			for ( int k = 0; k < j; ++k )
			{
				v -= S[i * count + k] * S[j * count + k];
			}
			S[i * count + j] = v / ljj;
		}
	}
	// L z = b, then L^T x = z
	for ( int i = 0; i < count; ++i )
	{
		double v = b[i];
		for ( int k = 0; k < i; ++k )
		{
			v -= S[i * count + k] * b[k];
		}
		b[i] = v / S[i * count + i];
	}
	for ( int i = count - 1; i >= 0; --i )
	{
		double v = b[i];
		for ( int k = i + 1; k < count; ++k )
		{
			v -= S[k * count + i] * b[k];
		}
		b[i] = v / S[i * count + i];
	}
}

// The same solve for a matrix whose rows start late: row i of S is zero left of first[i] (its
// envelope), and so is row i of its Cholesky factor, so the sums skip those columns. A chain of
// joints, its rows in joint order, has a narrow envelope and factors in about linear time (the
// impulse method's joint islands use the same property, methods/impulse/joint_island.c). first
// (count entries) is scratch.
static void cnEnvelopeCholeskySolve( double* S, int count, double* b, double eps, int* first )
{
	for ( int i = 0; i < count; ++i )
	{
		int f = 0;
		while ( f < i && S[i * count + f] == 0.0 )
		{
			f += 1;
		}
		first[i] = f;
	}
	for ( int j = 0; j < count; ++j )
	{
		double d = S[j * count + j] + eps;
		for ( int k = first[j]; k < j; ++k )
		{
			d -= S[j * count + k] * S[j * count + k];
		}
		d = d > eps ? d : eps;
		double ljj = sqrt( d );
		S[j * count + j] = ljj;
		for ( int i = j + 1; i < count; ++i )
		{
			if ( first[i] > j )
			{
				continue;
			}
			double v = S[i * count + j];
			for ( int k = first[i] > first[j] ? first[i] : first[j]; k < j; ++k )
			{
				v -= S[i * count + k] * S[j * count + k];
			}
			S[i * count + j] = v / ljj;
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		double v = b[i];
		for ( int k = first[i]; k < i; ++k )
		{
			v -= S[i * count + k] * b[k];
		}
		b[i] = v / S[i * count + i];
	}
	for ( int i = count - 1; i >= 0; --i )
	{
		double v = b[i];
		for ( int k = i + 1; k < count; ++k )
		{
			if ( first[k] <= i )
			{
				v -= S[k * count + i] * b[k];
			}
		}
		b[i] = v / S[i * count + i];
	}
}

// Solves the complementarity problem of one island (the rows index[0..m), which share no body
// with other islands) with an active set. Each row is free (solved as an equality), or held at its
// lower or upper bound; the free rows are solved as (A + eps I) x = rhs - A x_bound with
// A = J M^-1 J^T. Kleppmann drops the unilateral rows whose multiplier comes out negative (they
// would pull) and solves again; here a row held at a bound whose residual w = (A x - rhs) points
// the wrong way (a dropped contact that would penetrate, a saturated motor that needs less than
// its bound) is also freed again, and a free row beyond a bound is held there. All
// violating rows change state at once while their number keeps falling (block principal pivoting,
// Kostreva 1978, Judice and Pires 1994); after a few rounds without progress only the
// highest-index one does (Murty's rule), which guarantees the end. A + eps I is positive definite,
// so this ends at the unique solution of the mixed (boxed) complementarity problem
//   lower <= x <= upper;  x = lower: w >= 0;  x = upper: w <= 0;  between: w = 0
// (contacts and limits [0, inf), equality rows (-inf, inf), motors [-maxForce, maxForce]), which
// depends continuously on the state: the adaptive integrator sees no jumps from the choice of
// active rows (the drop-only rule can pick different sets for nearby states). The start is the
// previous evaluation's states where known, else the rows the free motion would violate.
static bool cnSolveIsland( cnConstraintSolver* s, const int* index, int m )
{
	if ( m > CN_CONSTRAINT_MAX_ISLAND_ROWS )
	{
		return cnSetError( cnError_stepFailed, "constraint method: %d rows in one island exceed the dense solver's limit of %d; "
						   "use another method for scenes this large",
						   m, CN_CONSTRAINT_MAX_ISLAND_ROWS );
	}
	if ( cnReserveMatrix( s, m ) == false )
	{
		return cnSetError( cnError_outOfMemory, "constraint method: out of memory for %d rows", m );
	}
	double* A = s->matrix;
	double* x = s->x;
	int8_t* state = s->state;
	double maxDiagonal = 0.0, maxRhs = 0.0;
	bool joints = false;
	for ( int a = 0; a < m; ++a )
	{
		joints = joints || s->rows[index[a]].joint >= 0;
		for ( int b = 0; b <= a; ++b )
		{
			double v = cnRowCoupling( s->rows + index[a], s->rows + index[b] );
			A[a * m + b] = v;
			A[b * m + a] = v;
		}
		maxDiagonal = A[a * m + a] > maxDiagonal ? A[a * m + a] : maxDiagonal;
		maxRhs = fabs( s->rhs[index[a]] ) > maxRhs ? fabs( s->rhs[index[a]] ) : maxRhs;
	}
	double eps = CN_CONSTRAINT_REGULARISATION * maxDiagonal + DBL_MIN;

	for ( int a = 0; a < m; ++a )
	{
		const cnConstraintRow* row = s->rows + index[a];
		// a row that moves no degree of freedom (a planar world's out-of-plane normal) cannot act:
		// it stays at state 0 with x = 0 and is never checked
		s->usable[a] = A[a * m + a] > 1e-12 * maxDiagonal;
		bool bilateral = row->lower == -DBL_MAX && row->upper == DBL_MAX;
		bool boxed = row->lower > -DBL_MAX && row->upper < DBL_MAX;
		int hint = row->hint >= 0 ? s->hint[row->hint] : -1;
		int start = hint >= 0 ? hint : boxed || s->rhs[index[a]] > 0.0 ? 1 : 0;
		state[a] = (int8_t)( s->usable[a] == false ? 0 : bilateral ? 1 : start );
		x[a] = 0.0;
	}

	// round-off margin of the residual test, relative to the size of its terms
	double wTolerance = 1e-10 * maxRhs;
	int maxIterations = 10 * m + 20;
	int bestViolations = m + 1, tries = CN_CONSTRAINT_BLOCK_PIVOT_TRIES;
	bool solved = false;
	for ( int iteration = 0; iteration < maxIterations && solved == false; ++iteration )
	{
		// the multipliers held at a bound (0 for unusable rows and contacts at their lower bound);
		// the free rows first in map, the rows held at a nonzero bound (saturated motors) after
		int count = 0, held = 0;
		for ( int a = 0; a < m; ++a )
		{
			const cnConstraintRow* row = s->rows + index[a];
			x[a] = s->usable[a] == false || state[a] == 1 ? 0.0 : state[a] == 0 ? row->lower : row->upper;
			if ( state[a] == 1 )
			{
				s->map[count++] = a;
			}
		}
		for ( int a = 0; a < m; ++a )
		{
			if ( x[a] != 0.0 )
			{
				s->map[count + held++] = a;
			}
		}
		for ( int i = 0; i < count; ++i )
		{
			for ( int j = 0; j < count; ++j )
			{
				s->factor[i * count + j] = A[s->map[i] * m + s->map[j]];
			}
			s->work[i] = s->rhs[index[s->map[i]]];
			for ( int h = 0; h < held; ++h )
			{
				int b = s->map[count + h];
				s->work[i] -= A[s->map[i] * m + b] * x[b];
			}
		}
		// islands with joints: their rows come first in joint order (cnSolveRows), a narrow
		// envelope; contact islands keep the dense loops (and their results to the bit)
		if ( joints )
		{
			cnEnvelopeCholeskySolve( s->factor, count, s->work, eps, s->envelope );
		}
		else
		{
			cnCholeskySolve( s->factor, count, s->work, eps );
		}
		double maxX = 0.0;
		for ( int a = 0; a < m; ++a )
		{
			maxX = fabs( x[a] ) > maxX ? fabs( x[a] ) : maxX;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( !isfinite( s->work[i] ) )
			{
				return cnSetError( cnError_stepFailed, "constraint method: the constraint solve gave a non-finite multiplier" );
			}
			x[s->map[i]] = s->work[i];
			maxX = fabs( s->work[i] ) > maxX ? fabs( s->work[i] ) : maxX;
		}

		// rows that violate their conditions: free rows beyond a bound (a pulling contact, an
		// overdriven motor), rows at a bound whose residual points inside (a dropped contact that
		// would penetrate, a saturated motor that needs less than its bound)
		int violations = 0, last = -1;
		for ( int a = 0; a < m; ++a )
		{
			const cnConstraintRow* row = s->rows + index[a];
			s->violated[a] = false;
			if ( s->usable[a] == false || ( row->lower == -DBL_MAX && row->upper == DBL_MAX ) )
			{
				continue;
			}
			if ( state[a] == 1 )
			{
				s->violated[a] = x[a] < row->lower - 1e-12 * maxX || x[a] > row->upper + 1e-12 * maxX;
			}
			else
			{
				double w = -s->rhs[index[a]];
				for ( int b = 0; b < m; ++b )
				{
					w += A[a * m + b] * x[b];
				}
				double margin = wTolerance + 1e-10 * maxDiagonal * maxX;
				s->violated[a] = state[a] == 0 ? w < -margin : w > margin;
			}
			if ( s->violated[a] )
			{
				violations += 1;
				last = a;
			}
		}
		if ( violations == 0 )
		{
			solved = true;
			break;
		}
		if ( violations < bestViolations )
		{
			bestViolations = violations;
			tries = CN_CONSTRAINT_BLOCK_PIVOT_TRIES;
		}
		else
		{
			tries -= 1;
		}
		for ( int a = 0; a < m; ++a )
		{
			if ( s->violated[a] && ( tries > 0 || a == last ) )
			{
				const cnConstraintRow* row = s->rows + index[a];
				state[a] = (int8_t)( state[a] != 1 ? 1 : x[a] < row->lower ? 0 : 2 );
			}
		}
	}

	for ( int a = 0; a < m; ++a )
	{
		cnConstraintRow* row = s->rows + index[a];
		double v = x[a];
		// past the iteration cap: keep the last multipliers, clipped to their bounds
		if ( solved == false )
		{
			v = v < row->lower ? row->lower : v > row->upper ? row->upper : v;
		}
		s->lambda[index[a]] = v;
		if ( row->hint >= 0 )
		{
			s->hint[row->hint] = state[a];
		}
	}
	return true;
}

// Solves the current rows for their multipliers (lambda), island by island: rows that share no
// body (through chains of rows) are independent problems, and the dense solve costs the cube of
// an island's size, not of the whole scene's. Returns false when a solve fails.
bool cnSolveRows( cnConstraintSolver* s )
{
	int m = s->rowCount;
	if ( m == 0 )
	{
		return true;
	}
	int* parent = s->parent;
	cnUnionFind_Reset( parent, s->bodyCount );
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		s->islandStart[k] = 0;
	}
	s->islandStart[s->bodyCount] = 0;
	for ( int i = 0; i < m; ++i )
	{
		const cnConstraintRow* row = s->rows + i;
		if ( row->slotA >= 0 && row->slotB >= 0 )
		{
			cnUnionFind_Union( parent, row->slotA, row->slotB );
		}
	}
	// counting sort of the rows by island root, stable in row order
	for ( int i = 0; i < m; ++i )
	{
		const cnConstraintRow* row = s->rows + i;
		int root = cnUnionFind_Find( parent, row->slotA >= 0 ? row->slotA : row->slotB );
		s->rowIsland[i] = root;
		s->islandStart[root + 1] += 1;
	}
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		s->islandStart[k + 1] += s->islandStart[k];
	}
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		s->islandFill[k] = s->islandStart[k];
	}
	// joint rows first, in joint order, then the contacts: a chain's rows then form a band, and the
	// few contact rows on it add only their own rows below (cnEnvelopeCholeskySolve)
	for ( int pass = 0; pass < 2; ++pass )
	{
		for ( int i = 0; i < m; ++i )
		{
			if ( ( s->rows[i].joint >= 0 ) == ( pass == 0 ) )
			{
				s->order[s->islandFill[s->rowIsland[i]]++] = i;
			}
		}
	}
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		int count = s->islandStart[k + 1] - s->islandStart[k];
		if ( count > 0 && cnSolveIsland( s, s->order + s->islandStart[k], count ) == false )
		{
			return false;
		}
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// forces, impulses and the integrator

// Time derivative of the state: the resting contact forces are solved at this state.
static bool cnDerivative( cnConstraintSolver* s, const double* y, double* dy )
{
	cnScatterState( s, y );
	cnBuildContactRows( s, false, false );
	// after the contacts: the joints' springs and dampers add to the external accelerations
	cnBuildJointRows( s, cnJointRows_force, false );

	// -J M^-1 J^T lambda = Jdot qdot + J a_ext + k c + d cdot, with a_ext = M^-1 F. The depth in
	// the position term is capped at c_max = 2 v_push / omega: below it the target
	// cddot = k c_max - d cdot settles at cdot = omega c_max / 2 = v_push, so a deep overlap is
	// pushed out no faster than the world's maxPushVelocity (and the cap keeps the force continuous).
	// A joint's equality row asks for cddot = 0 exactly (k = d = 0): its drift is projected out
	// after each internal step (cnProjectJoints), which keeps the equations free of the stiff
	// Baumgarte mode. A motor asks for cddot = -d (cdot - speed), a velocity servo whose load is
	// part of J a_ext, so it holds its speed exactly under load while its force stays in bounds.
	for ( int i = 0; i < s->rowCount; ++i )
	{
		const cnConstraintRow* row = s->rows + i;
		double ja = 0.0;
		if ( row->slotA >= 0 )
		{
			ja += cnDot( row->linA, s->linearAcceleration[row->slotA] ) +
				  cnDot( row->angA, s->angularAcceleration[row->slotA] );
		}
		if ( row->slotB >= 0 )
		{
			ja += cnDot( row->linB, s->linearAcceleration[row->slotB] ) +
				  cnDot( row->angB, s->angularAcceleration[row->slotB] );
		}
		if ( row->kind == cnConstraintRow_motor )
		{
			s->rhs[i] = -( row->bias + ja + s->damping * ( row->velocity - row->speed ) );
			continue;
		}
		if ( row->kind == cnConstraintRow_equality )
		{
			s->rhs[i] = -( row->bias + ja );
			continue;
		}
		double c = row->position > -s->maxCorrection ? row->position : -s->maxCorrection;
		s->rhs[i] = -( row->bias + ja + s->stiffness * c + s->damping * row->velocity );
	}
	if ( cnSolveRows( s ) == false )
	{
		return false;
	}
	for ( int i = 0; i < s->rowCount; ++i )
	{
		if ( s->rows[i].joint >= 0 )
		{
			s->jointForce[s->rows[i].joint] = s->lambda[i];
		}
	}

	for ( int k = 0; k < s->bodyCount; ++k )
	{
		const cnBody* b = s->world->bodies + s->bodies[k];
		double* d = dy + k * CN_STATE_SIZE;
		cnVec3 a = s->linearAcceleration[k];
		cnVec3 alpha = s->angularAcceleration[k];
		// velocities and the external accelerations; the constraint forces are added below
		d[0] = b->v.x, d[1] = b->v.y, d[2] = b->v.z;
		// qdot = 1/2 (0, w) q
		cnQuat wq = { 0.0, b->w.x, b->w.y, b->w.z };
		cnQuat qd = cnMulQuat( wq, b->xf.q );
		d[3] = 0.5 * qd.w, d[4] = 0.5 * qd.x, d[5] = 0.5 * qd.y, d[6] = 0.5 * qd.z;
		d[7] = a.x, d[8] = a.y, d[9] = a.z;
		d[10] = alpha.x, d[11] = alpha.y, d[12] = alpha.z;
	}
	for ( int i = 0; i < s->rowCount; ++i )
	{
		const cnConstraintRow* row = s->rows + i;
		double l = s->lambda[i];
		if ( l == 0.0 )
		{
			continue;
		}
		if ( row->slotA >= 0 )
		{
			double* d = dy + row->slotA * CN_STATE_SIZE;
			d[7] += l * row->invLinA.x, d[8] += l * row->invLinA.y, d[9] += l * row->invLinA.z;
			d[10] += l * row->invAngA.x, d[11] += l * row->invAngA.y, d[12] += l * row->invAngA.z;
		}
		if ( row->slotB >= 0 )
		{
			double* d = dy + row->slotB * CN_STATE_SIZE;
			d[7] += l * row->invLinB.x, d[8] += l * row->invLinB.y, d[9] += l * row->invLinB.z;
			d[10] += l * row->invAngB.x, d[11] += l * row->invAngB.y, d[12] += l * row->invAngB.z;
		}
	}
	return true;
}

// Colliding contacts at the current state get simultaneous impulses P >= 0 with targets
// cdot' = -e cdot (e = 0 below the world's restitution threshold), solved with the same active set
// as the forces: J M^-1 J^T P = cdot' - cdot on the active rows, cdot' >= target on the others.
// Touching slow points take part with target 0, so an impulse cannot push a body into a resting
// contact (a ball dropped on a resting box rebounds as from the ground). Rounds repeat while a
// point outside the last set approaches fast. Records the pairs' points at this state.
static bool cnResolveCollisions( cnConstraintSolver* s )
{
	cnWorld* world = s->world;
	for ( int round = 0; round < CN_CONSTRAINT_MAX_IMPULSE_ROUNDS; ++round )
	{
		int colliding = cnBuildContactRows( s, true, round == 0 );
		colliding += cnBuildJointRows( s, cnJointRows_impulse, round == 0 );
		if ( colliding == 0 )
		{
			return true;
		}
		for ( int i = 0; i < s->rowCount; ++i )
		{
			const cnConstraintRow* row = s->rows + i;
			double target = 0.0;
			if ( row->colliding && -row->velocity > world->def.restitutionThreshold )
			{
				target = -row->restitution * row->velocity;
			}
			// a joint's equality rows keep their rates: the impulses only keep the joint together
			s->rhs[i] = row->kind == cnConstraintRow_equality ? 0.0 : target - row->velocity;
		}
		if ( cnSolveRows( s ) == false )
		{
			return false;
		}
		for ( int i = 0; i < s->rowCount; ++i )
		{
			const cnConstraintRow* row = s->rows + i;
			double p = s->lambda[i];
			if ( p == 0.0 )
			{
				continue;
			}
			if ( row->joint >= 0 )
			{
				s->jointImpulse[row->joint] += p;
			}
			if ( row->slotA >= 0 )
			{
				cnBody* b = world->bodies + s->bodies[row->slotA];
				b->v = cnMulAdd( b->v, p, row->invLinA );
				b->w = cnMulAdd( b->w, p, row->invAngA );
			}
			if ( row->slotB >= 0 )
			{
				cnBody* b = world->bodies + s->bodies[row->slotB];
				b->v = cnMulAdd( b->v, p, row->invLinB );
				b->w = cnMulAdd( b->w, p, row->invAngB );
			}
		}
		for ( int k = 0; k < s->bodyCount; ++k )
		{
			cnBody* b = world->bodies + s->bodies[k];
			cnProjectPlanar( world, &b->v, &b->w );
		}
	}
	return true;
}

// Keeps the joint forces of the derivative just evaluated as those of a Runge-Kutta stage.
static void cnSaveStageForces( cnConstraintSolver* s, int stage )
{
	if ( s->jointRowCount > 0 )
	{
		memcpy( s->stageForce[stage], s->jointForce, (size_t)s->jointRowCount * sizeof( double ) );
	}
}

// One Cash-Karp step of size h from y0 (whose derivative is k[0]) into y1; writes the scaled
// error norm (<= 1 is acceptable). The node times are not needed: within a step the forces do
// not depend on time.
static bool cnCashKarpStep( cnConstraintSolver* s, const double* y0, double h, double* y1, double* errorNorm )
{
	const cnRkTableau* tableau = &cnRk_cashKarp;
	int n = s->n;
	for ( int stage = 1; stage < tableau->stages; ++stage )
	{
		cnRk_StageState( tableau, stage, n, y0, h, s->k, s->yStage );
		if ( cnDerivative( s, s->yStage, s->k[stage] ) == false )
		{
			return false;
		}
		cnSaveStageForces( s, stage );
	}
	cnRk_Solution( tableau, n, y0, h, s->k, y1 );
	// the joints' impulse over the step: the solution's weights over the stage forces, the same
	// quadrature that integrates the velocities, so it is the momentum the joints transferred
	for ( int r = 0; r < s->jointRowCount; ++r )
	{
		double sum = 0.0;
		for ( int stage = 0; stage < tableau->stages; ++stage )
		{
			sum += tableau->b[stage] * s->stageForce[stage][r];
		}
		s->trialImpulse[r] = h * sum;
	}
	// the stage state is free once the stages are done: it holds the error estimate
	double* e = s->yStage;
	cnRk_Error( tableau, n, h, s->k, e );
	double norm = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		// mixed absolute and relative error: tolerance * (1 + |y|)
		double scale = s->errorTolerance * ( 1.0 + fmax( fabs( y0[i] ), fabs( y1[i] ) ) );
		double r = fabs( e[i] ) / scale;
		norm = r > norm ? r : norm;
	}
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		double* x = y1 + k * CN_STATE_SIZE;
		cnQuat q = cnNormalizeQuat( ( cnQuat ){ x[3], x[4], x[5], x[6] } );
		x[3] = q.w, x[4] = q.x, x[5] = q.y, x[6] = q.z;
	}
	if ( !isfinite( norm ) )
	{
		return cnSetError( cnError_stepFailed, "constraint method: the integrator produced a non-finite state" );
	}
	*errorNorm = norm;
	return true;
}

// Impact target of a point: new contacts stop at touching (0); a point that already touched at
// the start of the step (matched by feature id) may sink up to the penetration tolerance before it
// counts, and stops halfway between its start depth and that tolerance. Returns false for a point
// that was already deeper than the tolerance: that is the resting forces' business.
static bool cnPointImpactTarget( const cnConstraintSolver* s, int ci, uint32_t id, double* target )
{
	*target = 0.0;
	for ( int j = 0; j < s->startCount[ci]; ++j )
	{
		if ( s->startId[s->pointOffset[ci] + j] == id )
		{
			double d = s->startSeparation[s->pointOffset[ci] + j];
			if ( d <= -s->penetrationTolerance )
			{
				return false;
			}
			*target = d > 0.0 ? 0.0 : 0.5 * ( d - s->penetrationTolerance );
			return true;
		}
	}
	return true;
}

// The impact function of the time-of-impact search at state y: the smallest separation (or joint
// limit C) minus its target over the points of the pairs (and the limits) in the search, and its
// rate. When trigger is set it
// first marks the pairs that have a point below its target that is deeper than the tolerance or
// still approaching fast (resting points may sink a little; an impact may not sink at all).
static double cnImpactFunction( cnConstraintSolver* s, const double* y, bool trigger, double* rate )
{
	cnWorld* world = s->world;
	cnScatterState( s, y );
	double g = DBL_MAX;
	*rate = 0.0;
	for ( int ci = 0; ci < s->contactCount; ++ci )
	{
		if ( trigger )
		{
			s->impactPair[ci] = false;
		}
		else if ( s->impactPair[ci] == false )
		{
			continue;
		}
		const cnContact* c = world->contacts + s->contacts[ci];
		const cnShape* sa = world->shapes + c->shapeA;
		const cnShape* sb = world->shapes + c->shapeB;
		const cnBody* ba = world->bodies + c->bodyA;
		const cnBody* bb = world->bodies + c->bodyB;
		cnManifoldPoint points[CN_MAX_PAIR_POINTS];
		int capacity = s->pointOffset[ci + 1] - s->pointOffset[ci];
		int pointCount = cnCollidePoints( &sa->geom, cnShapeWorldTransform( ba, sa ), &sb->geom,
										  cnShapeWorldTransform( bb, sb ), s->contactTolerance, points, capacity );
		double pairValue = DBL_MAX;
		double pairRate = 0.0;
		bool penetrates = false;
		for ( int j = 0; j < pointCount; ++j )
		{
			const cnManifoldPoint* mp = points + j;
			double target;
			if ( cnPointImpactTarget( s, ci, mp->id, &target ) == false )
			{
				continue;
			}
			double cdot = cnDot( mp->normal, cnSub( cnPointVelocity( bb, mp->point ), cnPointVelocity( ba, mp->point ) ) );
			if ( mp->separation - target < pairValue )
			{
				pairValue = mp->separation - target;
				pairRate = cdot;
			}
			if ( mp->separation < target && ( mp->separation < -s->penetrationTolerance || cdot < -s->restSpeed ) )
			{
				penetrates = true;
			}
		}
		if ( trigger )
		{
			s->impactPair[ci] = penetrates;
			if ( penetrates == false )
			{
				continue;
			}
		}
		if ( pairValue < g )
		{
			g = pairValue;
			*rate = pairRate;
		}
	}
	// joint limits reaching their stops are impacts too
	cnJointImpactFunction( s, trigger, &g, rate );
	return g;
}

// Copies the joint row impulses of one trial step (the full step is kept while the
// time-of-impact search tries shorter ones).
static void cnCopyJointImpulses( cnConstraintSolver* s, double* to, const double* from )
{
	if ( s->jointRowCount > 0 )
	{
		memcpy( to, from, (size_t)s->jointRowCount * sizeof( double ) );
	}
}

// The impact function after a trial Cash-Karp step of length s from y0 (the time-of-contact
// search's g(s)); the trial state is left in s->y1.
typedef struct cnImpactTrial
{
	cnConstraintSolver* solver;
	const double* y0;
	bool failed;
} cnImpactTrial;

static double cnImpactAfterStep( void* context, double step, double* rate )
{
	cnImpactTrial* trial = context;
	double error;
	if ( cnCashKarpStep( trial->solver, trial->y0, step, trial->solver->y1, &error ) == false )
	{
		trial->failed = true;
		*rate = 0.0;
		return 0.0;
	}
	return cnImpactFunction( trial->solver, trial->solver->y1, false, rate );
}

// Finds the step size in (0, h) at which the marked pairs reach their impact targets: Kleppmann's
// retry, the step taken again with the length Newton-Raphson on the impact function g(step)
// proposes (the separation rate as g'), bisection whenever Newton leaves the bracket or slows down
// (contact_time.c), until |g| <= the root tolerance. Leaves the state in y1. The full step (in y1
// on entry) is kept when the search cannot make progress, so it never stalls the simulation: when
// the pair is already at its target at the start (an impulse that the active set dropped left it
// approaching), or when no step short of the impact is found (g < 0 down to a vanishing step: the
// feature ids did not match).
static bool cnFindImpact( cnConstraintSolver* s, const double* y0, double h, double gEnd, double rateEnd, double* step )
{
	double error;
	memcpy( s->yFull, s->y1, (size_t)s->n * sizeof( double ) );
	cnCopyJointImpulses( s, s->fullImpulse, s->trialImpulse );
	double rateStart;
	if ( cnImpactFunction( s, y0, false, &rateStart ) <= s->impactTolerance )
	{
		*step = h;
		return true;
	}
	cnContactTimeSearch search = {
		.lo = 0.0,
		.hi = h,
		.gHi = gEnd,
		.rateHi = rateEnd,
		.gTolerance = s->rootTolerance,
		.sTolerance = 1e-14 * h,
		.maxIterations = CN_CONSTRAINT_MAX_IMPACT_ITERATIONS,
	};
	cnImpactTrial trial = { s, y0, false };
	cnContactTimeStatus status = cnFindContactTime( &search, cnImpactAfterStep, &trial );
	if ( trial.failed )
	{
		return false;
	}
	if ( status == cnContactTime_found )
	{
		*step = search.root;
		return true;
	}
	if ( search.lo == 0.0 )
	{
		*step = h;
		memcpy( s->y1, s->yFull, (size_t)s->n * sizeof( double ) );
		cnCopyJointImpulses( s, s->trialImpulse, s->fullImpulse );
		return true;
	}
	// no convergence: stop just before the impact
	*step = search.lo;
	return cnCashKarpStep( s, y0, search.lo, s->y1, &error );
}

// ---------------------------------------------------------------------------------------------
// the step

// Sets up the workspace from the step arena. Returns false when out of memory.
static bool cnCreateSolver( cnWorld* world, cnConstraintSolver* s )
{
	memset( s, 0, sizeof( *s ) );
	s->world = world;
	s->planar = world->def.planar;
	cnArena* arena = &world->arena;

	int count = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->alive && b->type != cnBody_static && b->awake )
		{
			count += 1;
		}
	}
	int capacity = count > 0 ? count : 1;
	s->bodyCount = count;
	s->bodies = cnArena_Alloc( arena, (size_t)capacity * sizeof( int ) );
	s->slot = cnArena_Alloc( arena, (size_t)( world->bodyCount > 0 ? world->bodyCount : 1 ) * sizeof( int ) );
	s->dynamic = cnArena_Alloc( arena, (size_t)capacity * sizeof( bool ) );
	s->invMassLinear = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnVec3 ) );
	s->invInertia = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnMat3 ) );
	s->linearAcceleration = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnVec3 ) );
	s->angularAcceleration = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnVec3 ) );
	s->savedCenter = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnVec3 ) );
	s->savedTransform = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnTransform ) );
	s->savedV = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnVec3 ) );
	s->savedW = cnArena_Alloc( arena, (size_t)capacity * sizeof( cnVec3 ) );
	int k = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		s->slot[i] = -1;
		if ( b->alive && b->type != cnBody_static && b->awake )
		{
			s->slot[i] = k;
			s->bodies[k] = i;
			s->dynamic[k] = b->type == cnBody_dynamic;
			s->savedCenter[k] = b->center;
			s->savedTransform[k] = b->xf;
			s->savedV[k] = b->v;
			s->savedW[k] = b->w;
			k += 1;
		}
	}

	// contacts that can act: at least one awake dynamic body
	s->contacts = cnArena_Alloc( arena, (size_t)( world->contactCount > 0 ? world->contactCount : 1 ) * sizeof( int ) );
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		int a = s->slot[c->bodyA], b = s->slot[c->bodyB];
		if ( ( a >= 0 && s->dynamic[a] ) || ( b >= 0 && s->dynamic[b] ) )
		{
			s->contacts[s->contactCount++] = i;
		}
	}
	int contactCapacity = s->contactCount > 0 ? s->contactCount : 1;
	s->pointOffset = cnArena_Alloc( arena, (size_t)( contactCapacity + 1 ) * sizeof( int ) );
	s->pointOffset[0] = 0;
	for ( int ci = 0; ci < s->contactCount; ++ci )
	{
		const cnContact* c = world->contacts + s->contacts[ci];
		bool polygons = world->shapes[c->shapeA].geom.type == cnShape_polygon &&
						world->shapes[c->shapeB].geom.type == cnShape_polygon;
		s->pointOffset[ci + 1] = s->pointOffset[ci] + ( polygons ? CN_MAX_PAIR_POINTS : CN_MAX_MANIFOLD_POINTS );
	}
	int pointCapacity = s->contactCount > 0 ? s->pointOffset[s->contactCount] : 1;
	s->startCount = cnArena_Alloc( arena, (size_t)contactCapacity * sizeof( int ) );
	s->startId = cnArena_Alloc( arena, (size_t)pointCapacity * sizeof( uint32_t ) );
	s->startSeparation = cnArena_Alloc( arena, (size_t)pointCapacity * sizeof( double ) );
	s->impactPair = cnArena_Alloc( arena, (size_t)contactCapacity * sizeof( bool ) );

	// joints: their rows follow the contact points' in the row and hint arrays
	if ( cnCreateConstraintJoints( s ) == false )
	{
		return false;
	}
	s->jointHintBase = pointCapacity;
	s->rowCapacity = pointCapacity + s->jointRowCount;
	s->rows = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( cnConstraintRow ) );
	s->rhs = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( double ) );
	s->lambda = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( double ) );
	s->hint = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( int8_t ) );
	if ( s->hint == NULL )
	{
		return false;
	}
	memset( s->hint, -1, (size_t)s->rowCapacity * sizeof( int8_t ) );
	s->parent = cnArena_Alloc( arena, (size_t)capacity * sizeof( int ) );
	s->islandStart = cnArena_Alloc( arena, (size_t)( capacity + 1 ) * sizeof( int ) );
	s->islandFill = cnArena_Alloc( arena, (size_t)capacity * sizeof( int ) );
	s->rowIsland = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( int ) );
	s->order = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( int ) );
	s->x = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( double ) );
	s->usable = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( bool ) );
	s->state = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( int8_t ) );
	s->violated = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( bool ) );
	s->map = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( int ) );
	s->envelope = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( int ) );
	s->work = cnArena_Alloc( arena, (size_t)s->rowCapacity * sizeof( double ) );

	s->n = capacity * CN_STATE_SIZE;
	s->y = cnArena_Alloc( arena, (size_t)s->n * sizeof( double ) );
	s->y1 = cnArena_Alloc( arena, (size_t)s->n * sizeof( double ) );
	s->yFull = cnArena_Alloc( arena, (size_t)s->n * sizeof( double ) );
	s->yStage = cnArena_Alloc( arena, (size_t)s->n * sizeof( double ) );
	for ( int j = 0; j < CN_CONSTRAINT_STAGES; ++j )
	{
		s->k[j] = cnArena_Alloc( arena, (size_t)s->n * sizeof( double ) );
	}
	s->n = count * CN_STATE_SIZE;

	// parameters
	double slop = world->def.linearSlop;
	s->contactTolerance = slop > 1e-5 ? slop : 1e-5;
	s->penetrationTolerance = 0.2 * s->contactTolerance;
	// the search stops within 1 nm of the target (at the default slop): 1e-10 s at 10 m/s; points
	// within 2 um of theirs take part in the impact (the window of simultaneous impacts)
	s->rootTolerance = 1e-6 * s->penetrationTolerance;
	s->impactTolerance = 2e-3 * s->penetrationTolerance;
	s->restSpeed = CN_CONSTRAINT_REST_SPEED;
	double omega = 2.0 * CN_PI * world->def.settings.constraint.stabilizationHertz;
	s->stiffness = omega * omega;
	s->damping = 2.0 * CN_CONSTRAINT_DAMPING_RATIO * omega;
	s->maxCorrection = 2.0 * world->def.settings.constraint.maxCorrectionSpeed / omega;
	s->errorTolerance = world->def.settings.constraint.errorTolerance;
	return s->bodies != NULL && s->slot != NULL && s->rows != NULL && s->k[5] != NULL;
}

// Puts the bodies back as they were at the step start (a failed step changes nothing).
static void cnRestoreBodies( cnConstraintSolver* s )
{
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		cnBody* b = s->world->bodies + s->bodies[k];
		b->center = s->savedCenter[k];
		b->xf = s->savedTransform[k];
		b->v = s->savedV[k];
		b->w = s->savedW[k];
	}
}

static void cnDestroySolver( cnConstraintSolver* s )
{
	free( s->matrix );
	free( s->factor );
	s->matrix = s->factor = NULL;
	s->matrixCapacity = 0;
}

// Advances the state over timeStep with collisions, adaptive steps and time-of-impact retries.
static bool cnAdvance( cnConstraintSolver* s, double timeStep )
{
	cnWorld* world = s->world;
	double hMin = 1e-9 * timeStep;
	double last = ( (cnAdaptiveState*)world->methodState )->lastStep;
	double h = last > 0.0 ? last : timeStep;
	h = h < timeStep ? h : timeStep;
	double t = 0.0;
	cnGatherState( s, s->y );
	for ( int steps = 0; timeStep - t > 1e-12 * timeStep; ++steps )
	{
		if ( cnCheckCancel( world ) )
		{
			return false;
		}
		if ( steps >= CN_CONSTRAINT_MAX_STEPS )
		{
			return cnSetError( cnError_stepFailed, "constraint method: more than %d internal steps in one step", steps );
		}

		// colliding contacts: impulses at the current state
		cnScatterState( s, s->y );
		if ( cnResolveCollisions( s ) == false )
		{
			return false;
		}
		cnGatherState( s, s->y );

		// adaptive Cash-Karp step, never past the end of the step
		double remaining = timeStep - t;
		bool last = h >= remaining;
		double step = last ? remaining : h;
		if ( cnDerivative( s, s->y, s->k[0] ) == false )
		{
			return false;
		}
		cnSaveStageForces( s, 0 );
		double error = 0.0;
		for ( ;; )
		{
			if ( cnCashKarpStep( s, s->y, step, s->y1, &error ) == false )
			{
				return false;
			}
			if ( error <= 1.0 || step <= hMin )
			{
				break;
			}
			double shrink = 0.9 * pow( error, -0.2 );
			step *= shrink > 0.2 ? shrink : 0.2;
			step = step > hMin ? step : hMin;
			last = false;
		}
		double grow = error > 0.0 ? 0.9 * pow( error, -0.2 ) : 5.0;
		grow = grow < 5.0 ? grow : 5.0;
		grow = grow > 0.2 ? grow : 0.2;
		double next = step * grow;
		if ( last )
		{
			// a step cut short by the end of the step says nothing against the longer one
			next = next > h ? next : h;
		}

		// time of impact: a step that lets a pair penetrate is retried up to the impact
		double rate;
		double g = cnImpactFunction( s, s->y1, true, &rate );
		if ( g < 0.0 )
		{
			double full = step;
			if ( cnFindImpact( s, s->y, full, g, rate, &step ) == false )
			{
				return false;
			}
			last = false;
			if ( step < hMin )
			{
				// an impact at the very start that the impulses did not resolve: take the full
				// step and let the resting forces push the overlap out, rather than not advance
				step = full;
				last = full == remaining;
				memcpy( s->y1, s->yFull, (size_t)s->n * sizeof( double ) );
				cnCopyJointImpulses( s, s->trialImpulse, s->fullImpulse );
			}
			else if ( step < full )
			{
				cnRecordContactTime( world, t + step );
			}
		}

		memcpy( s->y, s->y1, (size_t)s->n * sizeof( double ) );
		for ( int r = 0; r < s->jointRowCount; ++r )
		{
			s->jointImpulse[r] += s->trialImpulse[r];
		}
		// post-stabilisation: the joints' drift of this step projected out
		if ( s->jointCount > 0 )
		{
			cnScatterState( s, s->y );
			if ( cnProjectJoints( s ) == false )
			{
				return false;
			}
			cnGatherState( s, s->y );
		}
		t = last ? timeStep : t + step;
		h = next < timeStep ? next : timeStep;
		h = h > hMin ? h : hMin;
	}
	( (cnAdaptiveState*)world->methodState )->lastStep = h;
	cnScatterState( s, s->y );
	return true;
}

static bool cnStepConstraint( cnWorld* world, double timeStep )
{
	cnConstraintSolver s;
	if ( cnCreateSolver( world, &s ) == false )
	{
		return cnSetError( cnError_outOfMemory, "constraint method: out of memory" );
	}

	bool ok = cnAdvance( &s, timeStep );
	cnDestroySolver( &s );
	if ( ok == false )
	{
		cnRestoreBodies( &s );
		return false;
	}

	// the joints' impulses over the whole step (world->jointImpulseTime is the step): the
	// reactions cnFinishJoints reports are the mean forces of the step, impacts included
	cnStoreJointImpulses( &s );
	return true;
}

static const char* cnValidateConstraint( const cnMethodSettings* settings )
{
	const cnConstraintSettings* s = &settings->constraint;
	if ( !( s->errorTolerance > 0.0 ) || !isfinite( s->errorTolerance ) )
	{
		return "constraint settings: errorTolerance must be finite and > 0";
	}
	if ( !( s->stabilizationHertz > 0.0 ) || !isfinite( s->stabilizationHertz ) || !( s->maxCorrectionSpeed >= 0.0 ) ||
		 !isfinite( s->maxCorrectionSpeed ) )
	{
		return "constraint settings: stabilizationHertz must be finite and > 0, maxCorrectionSpeed finite and >= 0";
	}
	return NULL;
}

const cnMethodModule cnConstraintModule = {
	.method = cnMethod_constraint,
	.name = "constraint",
	.summary = "Kleppmann's constraint forces, impacts at the time of contact (frictionless)",
	.flags = cnMethodFlag_adaptive | cnMethodFlag_planar | cnMethodFlag_joints,
	.validate = cnValidateConstraint,
	.stateSize = sizeof( cnContactTimeState ),
	.step = cnStepConstraint,
};
