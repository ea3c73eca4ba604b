// SPDX-License-Identifier: MIT
// Joints in the velocity-level methods (lcp, velocity-projection, gr-lcp, gr-velocity-projection):
// bilateral rows in the LCP and in the projection QP. Per island of bodies linked by joints and
// contacts, at the poses of the step start (docs/joints.md has the derivation):
//  1. springs and dampers are forces: the stiffness explicit (symplectic Euler keeps an undamped
//     spring's energy), the damping trapezoidal, both made implicit enough to stay stable when the
//     step cannot resolve them; with the motors (boxed rows, |lambda| <= h f_max) they are one small
//     boxed LCP on the velocity the equality rows allow;
//  2. the equality rows J_E v = t are kept exactly: the velocity is projected onto them with
//     K = J_E M^-1 J_E^T (a dense Cholesky factor; rows that depend on earlier ones are left out),
//     and the targets t are found by a few Newton steps so that the rows' errors vanish at the
//     poses the step will reach, C(x + h v) = 0 (SHAKE's condition, in velocity form): an undamped
//     pendulum keeps its energy and its period to second order in h, and a joint does not drift;
//  3. the contact points and the active limits are one contact problem with the equality rows
//     eliminated: the LCP's matrix is A = N^T P N with the constrained inverse mass
//     P = M^-1 - M^-1 J_E^T K^-1 J_E M^-1 (Lemke, or the boxed LCP with friction), the projection
//     keeps J_E v = J_E q as equality constraints of its QP (Goldfarb-Idnani), and generalized
//     reflection repeats either on the points still approaching. Limits are speculative (a limit not
//     yet reached lets its gap close within the step) and push out a fifth of a violation per step.
#include "methods/velocity.h"

#include "error.h"
#include "solvers/lcp.h"

#include <math.h>
#include <string.h>

// A row of K whose pivot falls below this fraction of its diagonal depends on the rows before it
// (two joints locking the same freedom, a closed loop, a planar world's out-of-plane rows): it is
// left out of the factor, with no impulse of its own; the rows it repeats hold it.
#define CN_JOINT_DEPENDENT_PIVOT 1e-10

// Newton steps on the equality targets: each one takes the rows' error at the predicted poses down
// by about (h w)^2 for a joint turning at w, so three reach round-off at ordinary rates; it stops
// earlier when the largest error is below the tolerance (m or rad) or stops falling.
#define CN_JOINT_NEWTON_ITERATIONS 6
#define CN_JOINT_NEWTON_TOL 1e-12

// A row whose entries on the free dofs are below this fraction of its whole (squared) is out of a
// planar world's plane up to round-off, and is left out.
#define CN_JOINT_PLANAR_ROUNDOFF 1e-20

// a . b over n entries
static double cnDotN( const double* a, const double* b, int n )
{
	double sum = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		sum += a[i] * b[i];
	}
	return sum;
}

// A violated limit (C < 0: the curvature of the motion the step's linear prediction missed, or a
// limit moved by the user) is pushed out by this fraction of its violation per step (Baumgarte), so
// it ends at C = 0 without a velocity kick; a limit not yet reached closes its gap exactly.
#define CN_JOINT_LIMIT_RATE 0.2

// The joints' geometric stiffness (Tournier, Nesme, Gilles, Faure 2015; Andrews, Teichmann, Kry
// 2017): a joint's force turns with the bodies it acts on (its lever arms, its axes, a rod's
// direction), a stiffness of about |F| |r| against turning a body and |F| / L against moving across
// a rod. The rows are taken at the step start, so the step treats that stiffness explicitly, which is
// stable only while x = h^2 k / I stays below about 1: a weight of 100 links on a chain of light
// capsules has x near 40 at its top at 60 Hz, and its links whip until the chain flies apart. The
// stiffness of the last step's forces, h^2 phi(x) K with phi = x^3 / (1 + x^3), is added to the
// inertia (and for rods and springs to the translational mass) the step's solves see (never to the
// forces': gravity and user forces act on the true mass): where the step cannot resolve the stiffness
// the response is implicit in it, h^2 k / (I + h^2 k) < 1, and where it can it is left alone (a
// pendulum's x is (h w)^2 = 3e-3 at 60 Hz: an added inertia of 1e-10 of its own).
static double cnStiffnessShare( double x )
{
	double x3 = x * x * x;
	return x3 / ( 1.0 + x3 );
}

// m += w (I - u u^T) for a unit u.
static cnMat3 cnAddTransverse( cnMat3 m, double w, cnVec3 u )
{
	// columns of I - u u^T: e_i - u_i u
	cnMat3 t = { cnSub( cnV3( 1.0, 0.0, 0.0 ), cnMulSV( u.x, u ) ), cnSub( cnV3( 0.0, 1.0, 0.0 ), cnMulSV( u.y, u ) ),
				 cnSub( cnV3( 0.0, 0.0, 1.0 ), cnMulSV( u.z, u ) ) };
	return cnAddMM( m, cnMulSM( w, t ) );
}

void cnVelocityJointInertia( cnVelocityStep* s )
{
	cnWorld* world = s->world;
	s->linearMass = NULL;
	s->linearInvMass = NULL;
	int nb = s->map.bodyCount, d = s->dpb;
	if ( world->liveJointCount == 0 || nb == 0 )
	{
		return;
	}
	double h = s->h;
	cnMat3* rotation = NULL;
	cnMat3* linear = NULL;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		const cnJoint* joint = world->joints + i;
		if ( cnJointActive( joint ) == false )
		{
			continue;
		}
		int offs[2] = { s->map.offset[joint->bodyA], joint->bodyB >= 0 ? s->map.offset[joint->bodyB] : -1 };
		bool loaded = false;
		for ( int k = 0; k < CN_JOINT_MAX_ROWS; ++k )
		{
			loaded = loaded || joint->impulses[k] != 0.0;
		}
		if ( ( offs[0] < 0 && offs[1] < 0 ) || loaded == false )
		{
			continue;
		}
		if ( rotation == NULL )
		{
			rotation = cnArena_Alloc( &world->arena, (size_t)nb * sizeof( cnMat3 ) );
			linear = cnArena_Alloc( &world->arena, (size_t)nb * sizeof( cnMat3 ) );
			memset( rotation, 0, (size_t)nb * sizeof( cnMat3 ) );
			memset( linear, 0, (size_t)nb * sizeof( cnMat3 ) );
		}
		cnJointPose poses[2] = { cnJointBodyPose( world, joint->bodyA ), cnJointBodyPose( world, joint->bodyB ) };
		cnVec3 anchors[2];
		cnJointAnchors( joint, poses + 0, poses + 1, anchors + 0, anchors + 1 );
		cnVec3 along = cnSub( anchors[1], anchors[0] );
		double length = cnLength( along );
		bool rod = ( joint->type == cnJoint_distance || joint->type == cnJoint_spring || joint->type == cnJoint_damper ) &&
				   length > 1e-12;
		cnVec3 u = rod ? cnMulSV( 1.0 / length, along ) : cnVec3_zero;
		cnJointRow rows[CN_JOINT_MAX_ROWS];
		int n = cnJointRows( joint, poses + 0, poses + 1, rows );
		for ( int k = 0; k < n; ++k )
		{
			double force = fabs( joint->impulses[k] ) / h;
			if ( force == 0.0 || rows[k].type == cnJointRow_inactive )
			{
				continue;
			}
			for ( int side = 0; side < 2; ++side )
			{
				if ( offs[side] < 0 )
				{
					continue;
				}
				int body = offs[side] / d;
				cnVec3 lin = side == 0 ? rows[k].linearA : rows[k].linearB;
				cnVec3 ang = side == 0 ? rows[k].angularA : rows[k].angularB;
				double linLength = cnLength( lin ), angLength = cnLength( ang );
				if ( linLength > 0.0 )
				{
					cnVec3 r = cnSub( anchors[side], poses[side].center );
					double arm = cnLength( r );
					if ( arm > 0.0 )
					{
						rotation[body] = cnAddTransverse( rotation[body], force * linLength * arm, cnMulSV( 1.0 / arm, r ) );
					}
					if ( rod )
					{
						linear[body] = cnAddTransverse( linear[body], force * linLength / length, u );
					}
				}
				else if ( angLength > 0.0 )
				{
					rotation[body] = cnAddTransverse( rotation[body], force * angLength, cnMulSV( 1.0 / angLength, ang ) );
				}
			}
		}
	}
	if ( rotation == NULL )
	{
		return;
	}
	for ( int k = 0; k < nb; ++k )
	{
		const cnBody* b = world->bodies + s->map.bodies[k];
		// turning: against the inertia about a middle axis (half the trace); a point mass does not turn
		double stiffness = 0.5 * ( rotation[k].cx.x + rotation[k].cy.y + rotation[k].cz.z );
		double inertia = 0.5 * ( s->inertia[k].cx.x + s->inertia[k].cy.y + s->inertia[k].cz.z );
		if ( stiffness > 0.0 && inertia > 0.0 )
		{
			double share = cnStiffnessShare( h * h * stiffness / inertia );
			if ( share > 0.0 )
			{
				// linearly implicit Euler: (I + h^2 K) w+ = I w- + (the joints' impulses), so the free
				// angular velocity becomes (I + h^2 K)^-1 I w-
				cnMat3 I = s->inertia[k];
				s->inertia[k] = cnAddMM( I, cnMulSM( h * h * share, rotation[k] ) );
				s->invInertia[k] = cnInvertM( s->inertia[k] );
				double* q = s->q + k * d;
				if ( d == 3 )
				{
					// a planar body turns about z only
					s->invInertia[k].cz.z = 1.0 / s->inertia[k].cz.z;
					q[2] *= I.cz.z * s->invInertia[k].cz.z;
				}
				else
				{
					cnVec3 w = cnMulMV( s->invInertia[k], cnMulMV( I, cnV3( q[3], q[4], q[5] ) ) );
					q[3] = w.x, q[4] = w.y, q[5] = w.z;
				}
				memcpy( s->qMinus + k * d, q, (size_t)d * sizeof( double ) );
			}
		}
		stiffness = 0.5 * ( linear[k].cx.x + linear[k].cy.y + linear[k].cz.z );
		double share = stiffness > 0.0 ? cnStiffnessShare( h * h * stiffness / b->mass ) : 0.0;
		if ( share > 0.0 )
		{
			if ( s->linearMass == NULL )
			{
				s->linearMass = cnArena_Alloc( &world->arena, (size_t)nb * sizeof( cnMat3 ) );
				s->linearInvMass = cnArena_Alloc( &world->arena, (size_t)nb * sizeof( cnMat3 ) );
				for ( int j = 0; j < nb; ++j )
				{
					const cnBody* bj = world->bodies + s->map.bodies[j];
					s->linearMass[j] = cnDiagonal( bj->mass, bj->mass, bj->mass );
					s->linearInvMass[j] = cnDiagonal( bj->invMass, bj->invMass, bj->invMass );
				}
			}
			s->linearMass[k] = cnAddMM( s->linearMass[k], cnMulSM( h * h * share, linear[k] ) );
			if ( d == 3 )
			{
				// in the plane: the xy block
				s->linearMass[k].cz = cnV3( 0.0, 0.0, b->mass );
				s->linearMass[k].cx.z = 0.0;
				s->linearMass[k].cy.z = 0.0;
			}
			s->linearInvMass[k] = cnInvertM( s->linearMass[k] );
			double* q = s->q + k * d;
			cnVec3 v = cnMulMV( s->linearInvMass[k], cnMulSV( b->mass, cnV3( q[0], q[1], d == 3 ? 0.0 : q[2] ) ) );
			q[0] = v.x, q[1] = v.y;
			if ( d == 6 )
			{
				q[2] = v.z;
			}
			memcpy( s->qMinus + k * d, q, (size_t)d * sizeof( double ) );
		}
	}
}

// ---------------------------------------------------------------------------------------------
// rows

int cnVelocityJointCapacity( const cnWorld* world )
{
	int count = 0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		count += cnJointActive( world->joints + i ) ? CN_JOINT_MAX_ROWS : 0;
	}
	return count;
}

// One side of a joint row: its dof offset, entries (linear, angular; planar: x, y and the angle
// about z) and M^-1 J^T; a body without dofs adds its own velocity to fixed.
static void cnBuildJointSide( const cnVelocityStep* s, int body, cnVec3 linear, cnVec3 angular, int* off, double* j,
							  double* mj, double* fixed )
{
	for ( int i = 0; i < 6; ++i )
	{
		j[i] = 0.0;
		mj[i] = 0.0;
	}
	*off = body >= 0 ? s->map.offset[body] : -1;
	if ( *off < 0 )
	{
		if ( body >= 0 )
		{
			const cnBody* b = s->world->bodies + body;
			*fixed += cnDot( linear, b->v ) + cnDot( angular, b->w );
		}
		return;
	}
	const cnBody* b = s->world->bodies + body;
	int k = *off / s->dpb;
	cnVec3 vm = s->linearInvMass != NULL ? cnMulMV( s->linearInvMass[k], s->dpb == 3 ? cnV3( linear.x, linear.y, 0.0 ) : linear )
										 : cnMulSV( b->invMass, linear );
	if ( s->dpb == 3 )
	{
		j[0] = linear.x, j[1] = linear.y, j[2] = angular.z;
		mj[0] = vm.x, mj[1] = vm.y, mj[2] = s->invInertia[k].cz.z * j[2];
		return;
	}
	j[0] = linear.x, j[1] = linear.y, j[2] = linear.z;
	j[3] = angular.x, j[4] = angular.y, j[5] = angular.z;
	cnVec3 wm = cnMulMV( s->invInertia[k], angular );
	mj[0] = vm.x, mj[1] = vm.y, mj[2] = vm.z;
	mj[3] = wm.x, mj[4] = wm.y, mj[5] = wm.z;
}

void cnVelocityCollectJointRows( cnVelocityStep* s )
{
	cnWorld* world = s->world;
	int d = s->dpb;
	s->jointRows = cnArena_Alloc( &world->arena, (size_t)( s->jointCapacity > 0 ? s->jointCapacity : 1 ) *
													 sizeof( cnVelocityJointRow ) );
	s->jointRowCount = 0;
	s->jointLocal = NULL;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		cnJoint* joint = world->joints + i;
		if ( cnJointActive( joint ) == false )
		{
			continue;
		}
		memset( joint->impulses, 0, sizeof( joint->impulses ) );
		int offA = s->map.offset[joint->bodyA];
		int offB = joint->bodyB >= 0 ? s->map.offset[joint->bodyB] : -1;
		if ( offA < 0 && offB < 0 )
		{
			// neither body moves this step (asleep, kinematic, static or the world)
			continue;
		}
		cnJointPose a = cnJointBodyPose( world, joint->bodyA );
		cnJointPose b = cnJointBodyPose( world, joint->bodyB );
		cnJointRow rows[CN_JOINT_MAX_ROWS];
		int n = cnJointRows( joint, &a, &b, rows );
		for ( int k = 0; k < n; ++k )
		{
			const cnJointRow* r = rows + k;
			if ( r->type == cnJointRow_inactive || ( r->type == cnJointRow_spring && r->stiffness == 0.0 && r->damping == 0.0 ) ||
				 ( r->type == cnJointRow_motor && !( r->maxForce > 0.0 ) ) )
			{
				continue;
			}
			cnVelocityRow* row = s->rows + s->rowCount;
			row->fixed = 0.0;
			cnBuildJointSide( s, joint->bodyA, r->linearA, r->angularA, &row->offA, row->jA, row->mA, &row->fixed );
			cnBuildJointSide( s, joint->bodyB, r->linearB, r->angularB, &row->offB, row->jB, row->mB, &row->fixed );
			row->diagonal = cnVelocityCoupling( s, row, row );
			// the part of the row the free dofs see, against the whole row: a row out of a planar
			// world's plane keeps only round-off (a hinge's rows about x and y when its axis is z)
			double seen = cnDotN( row->jA, row->jA, 6 ) + cnDotN( row->jB, row->jB, 6 );
			double whole = cnLengthSquared( r->linearA ) + cnLengthSquared( r->angularA ) + cnLengthSquared( r->linearB ) +
						   cnLengthSquared( r->angularB );
			if ( !( row->diagonal > 0.0 ) || !( seen > CN_JOINT_PLANAR_ROUNDOFF * whole ) )
			{
				// no free dof moves along it: nothing to solve
				continue;
			}
			cnVelocityJointRow* jr = s->jointRows + s->jointRowCount;
			jr->joint = joint;
			jr->index = k;
			jr->row = s->rowCount++;
			jr->type = r->type;
			jr->error = r->error;
			jr->speed = r->speed;
			jr->maxForce = r->maxForce;
			jr->stiffness = r->stiffness;
			jr->damping = r->damping;
			jr->body = row->offA >= 0 ? row->offA / d : row->offB / d;
			jr->impulse = 0.0;
			if ( r->type == cnJointRow_limit )
			{
				// a limit is a unilateral row of the contact problem
				cnVelocityPoint* p = s->points + s->pointCount++;
				memset( p, 0, sizeof( *p ) );
				p->contact = -1;
				p->manifold = -1;
				p->index = -1;
				p->jointRow = s->jointRowCount;
				p->row = jr->row;
				p->body = jr->body;
			}
			s->jointRowCount += 1;
		}
	}
	if ( s->jointRowCount > 0 )
	{
		size_t nb = (size_t)( s->map.bodyCount > 0 ? s->map.bodyCount : 1 );
		s->jointLocal = cnArena_Alloc( &world->arena, nb * sizeof( int ) );
		for ( int k = 0; k < s->map.bodyCount; ++k )
		{
			s->jointLocal[k] = -1;
		}
	}
}

void cnVelocityStoreJointImpulses( cnVelocityStep* s )
{
	for ( int i = 0; i < s->jointRowCount; ++i )
	{
		const cnVelocityJointRow* jr = s->jointRows + i;
		jr->joint->impulses[jr->index] = jr->impulse;
	}
}

// ---------------------------------------------------------------------------------------------
// the equality rows: K = J_E M^-1 J_E^T, factored

// In-place Cholesky of the m x m matrix in L (lower triangle, column-major), leaving out the rows
// whose pivot shows them to depend on the ones before (their column is zeroed and skip set).
static void cnFactorEquality( double* L, bool* skip, int m )
{
	for ( int j = 0; j < m; ++j )
	{
		double* Lj = L + (size_t)j * (size_t)m;
		double diagonal = Lj[j];
		double sum = diagonal;
		for ( int k = 0; k < j; ++k )
		{
			double v = L[(size_t)j + (size_t)k * (size_t)m];
			sum -= v * v;
		}
		skip[j] = !( sum > CN_JOINT_DEPENDENT_PIVOT * diagonal );
		if ( skip[j] )
		{
			for ( int i = j; i < m; ++i )
			{
				Lj[i] = 0.0;
			}
			continue;
		}
		double ljj = sqrt( sum );
		Lj[j] = ljj;
		for ( int i = j + 1; i < m; ++i )
		{
			double t = Lj[i];
			for ( int k = 0; k < j; ++k )
			{
				t -= L[(size_t)i + (size_t)k * (size_t)m] * L[(size_t)j + (size_t)k * (size_t)m];
			}
			Lj[i] = t / ljj;
		}
	}
}

// x = K^-1 x over the rows kept (the others get 0).
static void cnSolveEquality( const double* L, const bool* skip, int m, double* x )
{
	for ( int i = 0; i < m; ++i )
	{
		if ( skip[i] )
		{
			x[i] = 0.0;
			continue;
		}
		double t = x[i];
		for ( int k = 0; k < i; ++k )
		{
			t -= L[(size_t)i + (size_t)k * (size_t)m] * x[k];
		}
		x[i] = t / L[(size_t)i + (size_t)i * (size_t)m];
	}
	for ( int i = m - 1; i >= 0; --i )
	{
		if ( skip[i] )
		{
			x[i] = 0.0;
			continue;
		}
		const double* Li = L + (size_t)i * (size_t)m;
		double t = x[i];
		for ( int k = i + 1; k < m; ++k )
		{
			t -= Li[k] * x[k];
		}
		x[i] = t / Li[i];
	}
}

// For each of r rows: U_i = J_E M^-1 J_i^T (how the row's impulse moves the equality rows) and
// W_i = K^-1 U_i, m entries each.
static void cnEliminationProducts( const cnVelocityStep* s, const cnJointElimination* e, const cnVelocityRow* const* rows,
								   int r, double* U, double* W )
{
	int m = e->count;
	for ( int i = 0; i < r; ++i )
	{
		double* u = U + (size_t)i * (size_t)m;
		double* w = W + (size_t)i * (size_t)m;
		for ( int k = 0; k < m; ++k )
		{
			u[k] = e->skip[k] ? 0.0 : cnVelocityCoupling( s, s->rows + e->rows[k], rows[i] );
			w[k] = u[k];
		}
		cnSolveEquality( e->L, e->skip, m, w );
	}
}

// Impulses mu on the equality rows: q += M^-1 J_E^T mu.
static void cnApplyEquality( const cnVelocityStep* s, const cnJointElimination* e, const double* mu )
{
	for ( int k = 0; k < e->count; ++k )
	{
		if ( mu[k] != 0.0 )
		{
			cnVelocityApplyRow( s, s->rows + e->rows[k], mu[k], s->q );
		}
	}
}

void cnVelocityEliminateLcp( cnVelocityStep* s, const cnVelocityRow* const* rows, int r, double* A )
{
	cnJointElimination* e = s->elim;
	int m = e->count;
	if ( m == 0 )
	{
		return;
	}
	cnEliminationProducts( s, e, rows, r, e->U, e->W );
	// A_ij -= U_i^T K^-1 U_j, symmetric
	for ( int j = 0; j < r; ++j )
	{
		const double* wj = e->W + (size_t)j * (size_t)m;
		for ( int i = j; i < r; ++i )
		{
			const double* ui = e->U + (size_t)i * (size_t)m;
			double a = 0.0;
			for ( int k = 0; k < m; ++k )
			{
				a += ui[k] * wj[k];
			}
			A[i + j * r] -= a;
			if ( i != j )
			{
				A[j + i * r] -= a;
			}
		}
	}
}

void cnVelocityEliminateImpulses( cnVelocityStep* s, int r, const double* z )
{
	cnJointElimination* e = s->elim;
	int m = e->count;
	if ( m == 0 )
	{
		return;
	}
	// the equality rows answer the LCP's impulses with mu = -K^-1 U z, which keeps J_E v
	double* mu = e->work;
	for ( int k = 0; k < m; ++k )
	{
		mu[k] = 0.0;
	}
	for ( int i = 0; i < r; ++i )
	{
		const double* w = e->W + (size_t)i * (size_t)m;
		for ( int k = 0; z[i] != 0.0 && k < m; ++k )
		{
			mu[k] -= z[i] * w[k];
		}
	}
	cnApplyEquality( s, e, mu );
	for ( int k = 0; k < m; ++k )
	{
		e->lambda[k] += mu[k];
	}
}

// ---------------------------------------------------------------------------------------------
// one island

// Where a side of a joint will be at the end of the step (symplectic Euler) with the velocities in
// s->q (free bodies) or its own (a moving kinematic body).
static cnJointPose cnPredictedPose( const cnVelocityStep* s, int body )
{
	if ( body < 0 )
	{
		return cnJointBodyPose( s->world, -1 );
	}
	const cnBody* b = s->world->bodies + body;
	cnJointPose p = { b->center, b->xf.q, b->localCenter };
	int o = s->map.offset[body];
	if ( o < 0 && ( b->type != cnBody_kinematic || b->awake == false ) )
	{
		return p;
	}
	cnVec3 v = b->v, w = b->w;
	if ( o >= 0 )
	{
		const double* q = s->q + o;
		v = s->dpb == 3 ? cnV3( q[0], q[1], 0.0 ) : cnV3( q[0], q[1], q[2] );
		w = s->dpb == 3 ? cnV3( 0.0, 0.0, q[2] ) : cnV3( q[3], q[4], q[5] );
	}
	// as cnIntegrateBodyPosition moves it
	p.center = cnMulAdd( p.center, s->h, v );
	p.q = cnIntegrateRotation( p.q, w, s->h );
	return p;
}

// The largest error of the equality rows at the predicted poses, each row's error in Cp.
static double cnPredictedErrors( const cnVelocityStep* s, const cnJointElimination* e, double* Cp )
{
	const cnJoint* current = NULL;
	cnJointRow rows[CN_JOINT_MAX_ROWS];
	double worst = 0.0;
	for ( int k = 0; k < e->count; ++k )
	{
		const cnVelocityJointRow* jr = s->jointRows + e->jointRows[k];
		if ( jr->joint != current )
		{
			current = jr->joint;
			cnJointPose a = cnPredictedPose( s, current->bodyA );
			cnJointPose b = cnPredictedPose( s, current->bodyB );
			cnJointRows( current, &a, &b, rows );
		}
		Cp[k] = rows[jr->index].error;
		worst = e->skip[k] ? worst : fmax( worst, fabs( Cp[k] ) );
	}
	return worst;
}

// The force rows of an island: springs and dampers (soft, free) and motors (boxed) as one boxed LCP
// on the velocity the equality rows allow, and the springs too soft to need it (explicit impulses).
typedef struct cnForceRows
{
	// the island's spring and motor rows (indices into s->jointRows), and their explicit impulses
	int total;
	int* jointRows;
	double* explicitImpulse;
	// the rows of the LCP (count of them): their index among the total, Jacobians, matrix (with the
	// soft springs' 1 / g on the diagonal), the constant part of b, bounds, solution
	int count;
	int* index;
	const cnVelocityRow** rows;
	double *A, *b0, *b, *lo, *hi, *z;
	// the equality rows' answer to a unit impulse on each row: U_i = J_E M^-1 J_i^T, W_i = K^-1 U_i
	double *U, *W;
} cnForceRows;

// Adds a row's free bodies to the island's body list.
static void cnAddIslandBodies( cnVelocityStep* s, const cnVelocityRow* row, int* bodies, int* count )
{
	int offs[2] = { row->offA, row->offB };
	for ( int side = 0; side < 2; ++side )
	{
		int k = offs[side] >= 0 ? offs[side] / s->dpb : -1;
		if ( k >= 0 && s->jointLocal[k] < 0 )
		{
			s->jointLocal[k] = *count;
			bodies[( *count )++] = k;
		}
	}
}

// The island's free bodies: those its joint rows and points act on, in that order; s->jointLocal
// holds each one's index among them until the island is solved.
static int cnIslandBodies( cnVelocityStep* s, const int* points, int count, const int* jointRows, int jointCount, int* bodies )
{
	int bodyCount = 0;
	for ( int i = 0; i < jointCount; ++i )
	{
		cnAddIslandBodies( s, s->rows + s->jointRows[jointRows[i]].row, bodies, &bodyCount );
	}
	for ( int i = 0; i < count; ++i )
	{
		cnAddIslandBodies( s, s->rows + s->points[points[i]].row, bodies, &bodyCount );
	}
	return bodyCount;
}

// The island's equality rows and the factor of K = J_E M^-1 J_E^T.
static void cnBuildElimination( cnVelocityStep* s, const int* jointRows, int jointCount, cnJointElimination* e )
{
	cnArena* arena = &s->world->arena;
	int m = 0;
	for ( int i = 0; i < jointCount; ++i )
	{
		m += s->jointRows[jointRows[i]].type == cnJointRow_equality ? 1 : 0;
	}
	size_t mm = (size_t)( m > 0 ? m : 1 );
	int* rows = cnArena_Alloc( arena, mm * sizeof( int ) );
	int* eqJointRows = cnArena_Alloc( arena, mm * sizeof( int ) );
	for ( int i = 0, k = 0; i < jointCount; ++i )
	{
		const cnVelocityJointRow* jr = s->jointRows + jointRows[i];
		if ( jr->type == cnJointRow_equality )
		{
			rows[k] = jr->row;
			eqJointRows[k++] = jointRows[i];
		}
	}
	double* L = cnArena_Alloc( arena, mm * mm * sizeof( double ) );
	bool* skip = cnArena_Alloc( arena, mm * sizeof( bool ) );
	for ( int j = 0; j < m; ++j )
	{
		for ( int i = j; i < m; ++i )
		{
			L[(size_t)i + (size_t)j * mm] = cnVelocityCoupling( s, s->rows + rows[i], s->rows + rows[j] );
		}
	}
	cnFactorEquality( L, skip, m );
	e->count = m;
	e->rows = rows;
	e->jointRows = eqJointRows;
	e->L = L;
	e->skip = skip;
	e->work = cnArena_Alloc( arena, mm * sizeof( double ) );
	e->lambda = cnArena_Alloc( arena, mm * sizeof( double ) );
	memset( e->lambda, 0, mm * sizeof( double ) );
}

// The springs' laws and the motors' bounds, as the LCP of cnForceRows, and the explicit impulses,
// which are applied to s->q (a force, like gravity).
//
// A spring's law, lambda = -h k (C + theta_k h dC/dt+) - h c ((1 - theta_c) dC/dt0 + theta_c dC/dt+),
// with dC/dt0 the rate at the step start and dC/dt+ at its end: the stiffness explicit (theta_k = 0,
// symplectic Euler's) and the damping trapezoidal (theta_c = 1/2), both second order. Where the step
// cannot resolve them (a = h^2 k A or x = h c A beyond 2, with A the row's effective inverse mass
// bounded by the sum of its couplings to the other springs), theta_k = 1/2 - 1/a and
// theta_c = 1 - 1/x keep the response stable (an explicit part h^2 k A (1 - 2 theta_k) of at most 2;
// a damper that never reverses the rate). With g = h (theta_k h k + theta_c c) the row is soft,
// (A + 1/g) lambda + dC/dt' + e / g = 0 with e = h k C + h c (1 - theta_c) dC/dt0 and dC/dt' the rate
// before the row acts; a row with g = 0 (no damping, stiffness resolved) is the explicit impulse -e.
static void cnBuildForceRows( cnVelocityStep* s, const cnJointElimination* e, const int* jointRows, int jointCount, cnForceRows* f )
{
	cnArena* arena = &s->world->arena;
	double h = s->h;
	int m = e->count, nf = 0;
	for ( int i = 0; i < jointCount; ++i )
	{
		cnJointRowType type = s->jointRows[jointRows[i]].type;
		nf += type == cnJointRow_spring || type == cnJointRow_motor ? 1 : 0;
	}
	size_t ff = (size_t)( nf > 0 ? nf : 1 ), mm = (size_t)( m > 0 ? m : 1 );
	f->total = nf;
	f->jointRows = cnArena_Alloc( arena, ff * sizeof( int ) );
	f->explicitImpulse = cnArena_Alloc( arena, ff * sizeof( double ) );
	f->index = cnArena_Alloc( arena, ff * sizeof( int ) );
	f->rows = cnArena_Alloc( arena, ff * sizeof( cnVelocityRow* ) );
	f->A = cnArena_Alloc( arena, ff * ff * sizeof( double ) );
	f->b0 = cnArena_Alloc( arena, ff * sizeof( double ) );
	f->b = cnArena_Alloc( arena, ff * sizeof( double ) );
	f->lo = cnArena_Alloc( arena, ff * sizeof( double ) );
	f->hi = cnArena_Alloc( arena, ff * sizeof( double ) );
	f->z = cnArena_Alloc( arena, ff * sizeof( double ) );
	f->U = cnArena_Alloc( arena, ff * mm * sizeof( double ) );
	f->W = cnArena_Alloc( arena, ff * mm * sizeof( double ) );
	f->count = 0;
	memset( f->W, 0, ff * mm * sizeof( double ) );
	for ( int i = 0, k = 0; i < jointCount; ++i )
	{
		const cnVelocityJointRow* jr = s->jointRows + jointRows[i];
		if ( jr->type == cnJointRow_spring || jr->type == cnJointRow_motor )
		{
			f->jointRows[k] = jointRows[i];
			f->rows[k++] = s->rows + jr->row;
		}
	}
	if ( nf == 0 )
	{
		return;
	}

	// A = J_F P J_F^T: the couplings, less what the equality rows take
	for ( int j = 0; j < nf; ++j )
	{
		for ( int i = j; i < nf; ++i )
		{
			double a = cnVelocityCoupling( s, f->rows[i], f->rows[j] );
			f->A[i + j * nf] = a;
			f->A[j + i * nf] = a;
		}
	}
	if ( m > 0 )
	{
		cnEliminationProducts( s, e, f->rows, nf, f->U, f->W );
		for ( int j = 0; j < nf; ++j )
		{
			for ( int i = j; i < nf; ++i )
			{
				double a = 0.0;
				for ( int k = 0; k < m; ++k )
				{
					a += f->U[(size_t)i * mm + (size_t)k] * f->W[(size_t)j * mm + (size_t)k];
				}
				f->A[i + j * nf] -= a;
				f->A[j + i * nf] -= i != j ? a : 0.0;
			}
		}
	}

	// each row's law; the soft springs' diagonal terms wait until every row has read its couplings
	double* soft = f->z;
	for ( int i = 0; i < nf; ++i )
	{
		const cnVelocityJointRow* jr = s->jointRows + f->jointRows[i];
		f->explicitImpulse[i] = 0.0;
		soft[i] = 0.0;
		if ( jr->type == cnJointRow_motor )
		{
			f->index[f->count++] = i;
			f->b0[i] = -jr->speed;
			f->lo[i] = -h * jr->maxForce;
			f->hi[i] = h * jr->maxForce;
			continue;
		}
		double stiffness = 0.0, damping = 0.0;
		for ( int j = 0; j < nf; ++j )
		{
			const cnVelocityJointRow* other = s->jointRows + f->jointRows[j];
			if ( other->type == cnJointRow_spring )
			{
				double a = fabs( f->A[i + j * nf] );
				stiffness += a * other->stiffness;
				damping += a * other->damping;
			}
		}
		double a = h * h * stiffness, x = h * damping;
		double thetaK = a > 2.0 ? 0.5 - 1.0 / a : 0.0;
		double thetaC = x > 2.0 ? 1.0 - 1.0 / x : 0.5;
		double g = h * ( thetaK * h * jr->stiffness + thetaC * jr->damping );
		double rate0 = cnVelocityRowRate( s, f->rows[i], s->qOld );
		double impulse = h * jr->stiffness * jr->error + h * jr->damping * ( 1.0 - thetaC ) * rate0;
		if ( g > 0.0 )
		{
			f->index[f->count++] = i;
			soft[i] = 1.0 / g;
			f->b0[i] = impulse / g;
			f->lo[i] = -INFINITY;
			f->hi[i] = INFINITY;
		}
		else
		{
			// a force on the free velocity, like gravity
			f->explicitImpulse[i] = -impulse;
			cnVelocityApplyRow( s, f->rows[i], -impulse, s->q );
		}
	}
	for ( int i = 0; i < nf; ++i )
	{
		f->A[i + i * nf] += soft[i];
	}

	// the LCP's rows packed in place (every entry moves to an index no larger than its own, never
	// over one not yet read)
	int n = f->count;
	for ( int j = 0; j < n; ++j )
	{
		for ( int i = 0; i < n; ++i )
		{
			f->A[i + j * n] = f->A[f->index[i] + f->index[j] * nf];
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		int from = f->index[i];
		f->rows[i] = f->rows[from];
		f->b0[i] = f->b0[from];
		f->lo[i] = f->lo[from];
		f->hi[i] = f->hi[from];
		memmove( f->W + (size_t)i * mm, f->W + (size_t)from * mm, mm * sizeof( double ) );
	}
}

// Velocity from the velocity in s->q with equality targets t (the rows' rates J_E v + fixed): the
// projection onto J_E v = t, then the springs and motors, whose impulses leave J_E v alone; the
// equality impulses in mu.
static bool cnJointResponse( cnVelocityStep* s, cnJointElimination* e, cnForceRows* f, const double* t, double* mu )
{
	int m = e->count;
	for ( int k = 0; k < m; ++k )
	{
		mu[k] = e->skip[k] ? 0.0 : t[k] - cnVelocityRowRate( s, s->rows + e->rows[k], s->q );
	}
	cnSolveEquality( e->L, e->skip, m, mu );
	cnApplyEquality( s, e, mu );
	int n = f->count;
	if ( n == 0 )
	{
		return true;
	}
	for ( int i = 0; i < n; ++i )
	{
		f->b[i] = f->b0[i] + cnVelocityRowRate( s, f->rows[i], s->q );
	}
	cnLcpStatus status = cnSolveBoxedLcp( n, f->A, f->b, f->lo, f->hi, NULL, f->z, 0 );
	if ( status != cnLcp_ok && cnVelocityLcpViolation( n, f->A, f->b, f->lo, f->hi, NULL, f->z ) > CN_LCP_ACCEPT_TOL )
	{
		return cnSetError( cnError_stepFailed, "%s: the joints' springs and motors (%d rows) have no solution at t = %g", s->name,
						   n, s->world->time );
	}
	double* dmu = e->work;
	for ( int k = 0; k < m; ++k )
	{
		dmu[k] = 0.0;
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( !isfinite( f->z[i] ) )
		{
			return cnSetError( cnError_stepFailed, "%s: a joint's spring or motor got a non-finite impulse at t = %g", s->name,
							   s->world->time );
		}
		cnVelocityApplyRow( s, f->rows[i], f->z[i], s->q );
		// the equality rows keep their rates: mu -= K^-1 U z
		const double* w = f->W + (size_t)i * (size_t)( m > 0 ? m : 1 );
		for ( int k = 0; k < m; ++k )
		{
			dmu[k] -= f->z[i] * w[k];
		}
	}
	cnApplyEquality( s, e, dmu );
	for ( int k = 0; k < m; ++k )
	{
		mu[k] += dmu[k];
	}
	return true;
}

// True when the island has contact points, or a limit active at the velocity s->q.
static bool cnIslandTouches( const cnVelocityStep* s, const int* points, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		const cnVelocityPoint* p = s->points + points[i];
		if ( p->contact >= 0 )
		{
			return true;
		}
		double C = s->jointRows[p->jointRow].error;
		if ( fmin( C, C + s->h * cnVelocityRowRate( s, s->rows + p->row, s->q ) ) <= CN_VELOCITY_ACTIVE_TOL )
		{
			return true;
		}
	}
	return false;
}

// Copies the island's velocities between s->q and a packed array (to: true copies into it).
static void cnCopyIslandVelocities( cnVelocityStep* s, const int* bodies, int count, double* packed, bool to )
{
	int d = s->dpb;
	for ( int l = 0; l < count; ++l )
	{
		double* q = s->q + bodies[l] * d;
		if ( to )
		{
			memcpy( packed + l * d, q, (size_t)d * sizeof( double ) );
		}
		else
		{
			memcpy( q, packed + l * d, (size_t)d * sizeof( double ) );
		}
	}
}

// The joints' own response: the equality targets found by Newton steps on C(x + h v) = 0 from
// J_E v = -C / h, each step projecting the velocity the island had (s->q) and solving the springs
// and motors again; the best step is kept. The equality impulses in mu, the force rows' in f->z.
static bool cnSolveEqualityTargets( cnVelocityStep* s, cnJointElimination* e, cnForceRows* f, const int* points,
									int count, double* mu )
{
	cnArena* arena = &s->world->arena;
	int m = e->count, d = s->dpb, nb = e->bodyCount;
	size_t mm = (size_t)( m > 0 ? m : 1 ), ff = (size_t)( f->count > 0 ? f->count : 1 ), nq = (size_t)( nb > 0 ? nb * d : 1 );
	double* q0 = cnArena_Alloc( arena, nq * sizeof( double ) );
	double* qBest = cnArena_Alloc( arena, nq * sizeof( double ) );
	double* t = cnArena_Alloc( arena, mm * sizeof( double ) );
	double* muBest = cnArena_Alloc( arena, mm * sizeof( double ) );
	double* zBest = cnArena_Alloc( arena, ff * sizeof( double ) );
	double* Cp = cnArena_Alloc( arena, mm * sizeof( double ) );
	cnCopyIslandVelocities( s, e->bodies, nb, q0, true );
	for ( int k = 0; k < m; ++k )
	{
		t[k] = -s->jointRows[e->jointRows[k]].error / s->h;
	}
	bool explicitEuler = s->world->def.settings.velocity.integrator == cnIntegrator_explicitEuler;
	double best = INFINITY, previous = INFINITY;
	for ( int iteration = 0;; ++iteration )
	{
		cnCopyIslandVelocities( s, e->bodies, nb, q0, false );
		if ( cnJointResponse( s, e, f, t, mu ) == false )
		{
			return false;
		}
		if ( m == 0 || explicitEuler || ( iteration == 0 && cnIslandTouches( s, points, count ) ) )
		{
			// first-order targets for an island whose bodies meet a contact or a limit this step: the
			// response changes the motion the second-order ones would be set for, and a body at rest on
			// its support would creep along the difference (the position projection after the step
			// removes the joints' own curvature error instead); and with explicit Euler, whose step
			// moves the bodies with the velocity it started with (predicting two steps ahead would
			// feed its energy growth)
			return true;
		}
		double error = cnPredictedErrors( s, e, Cp );
		if ( error < best )
		{
			best = error;
			cnCopyIslandVelocities( s, e->bodies, nb, qBest, true );
			memcpy( muBest, mu, mm * sizeof( double ) );
			memcpy( zBest, f->z, ff * sizeof( double ) );
		}
		if ( error <= CN_JOINT_NEWTON_TOL || iteration + 1 >= CN_JOINT_NEWTON_ITERATIONS || !( error < 0.5 * previous ) )
		{
			if ( error > best )
			{
				cnCopyIslandVelocities( s, e->bodies, nb, qBest, false );
				memcpy( mu, muBest, mm * sizeof( double ) );
				memcpy( f->z, zBest, ff * sizeof( double ) );
			}
			return true;
		}
		previous = error;
		for ( int k = 0; k < m; ++k )
		{
			t[k] -= e->skip[k] ? 0.0 : Cp[k] / s->h;
		}
	}
}

// The contact problem of the island: its contact points and its limits active at the velocity the
// joints' own response left, with the equality rows eliminated (cnVelocitySolveIsland with s->elim).
static bool cnSolveIslandPoints( cnVelocityStep* s, cnJointElimination* e, const int* points, int count )
{
	cnArena* arena = &s->world->arena;
	int* set = cnArena_Alloc( arena, (size_t)( count > 0 ? count : 1 ) * sizeof( int ) );
	int setCount = 0, lcpRows = 0;
	for ( int i = 0; i < count; ++i )
	{
		cnVelocityPoint* p = s->points + points[i];
		if ( p->contact < 0 )
		{
			double C = s->jointRows[p->jointRow].error;
			double predicted = C + s->h * cnVelocityRowRate( s, s->rows + p->row, s->q );
			if ( fmin( C, predicted ) > CN_VELOCITY_ACTIVE_TOL )
			{
				continue;
			}
			p->gapSpeed = C > 0.0 ? C / s->h : CN_JOINT_LIMIT_RATE * C / s->h;
		}
		set[setCount++] = points[i];
		lcpRows += 1 + ( s->friction && p->friction > 0.0 ? p->tangentCount : 0 );
	}
	if ( setCount == 0 )
	{
		return true;
	}
	// the velocities before the response, for generalized reflection's inelastic fallback
	size_t mm = (size_t)( e->count > 0 ? e->count : 1 ), rr = (size_t)lcpRows;
	double* qBase = cnArena_Alloc( arena, (size_t)( e->bodyCount > 0 ? e->bodyCount * s->dpb : 1 ) * sizeof( double ) );
	cnCopyIslandVelocities( s, e->bodies, e->bodyCount, qBase, true );
	e->qBase = qBase;
	e->U = cnArena_Alloc( arena, rr * mm * sizeof( double ) );
	e->W = cnArena_Alloc( arena, rr * mm * sizeof( double ) );
	e->projected = cnArena_Alloc( arena, mm * sizeof( double ) );
	memset( e->projected, 0, mm * sizeof( double ) );
	s->elim = e;
	bool ok = cnVelocitySolveIsland( s, set, setCount );
	s->elim = NULL;
	if ( ok && s->projection && e->count > 0 )
	{
		// the projection's equality impulses: mu = -K^-1 (U lambda summed over its solves)
		cnSolveEquality( e->L, e->skip, e->count, e->projected );
		for ( int k = 0; k < e->count; ++k )
		{
			e->lambda[k] -= e->projected[k];
		}
	}
	return ok;
}

bool cnVelocitySolveJointIsland( cnVelocityStep* s, const int* points, int count, const int* jointRows, int jointCount )
{
	cnArena* arena = &s->world->arena;
	cnJointElimination elim = { 0 };
	int* bodies = cnArena_Alloc( arena, (size_t)( 2 * ( jointCount + count ) ) * sizeof( int ) );
	elim.bodyCount = cnIslandBodies( s, points, count, jointRows, jointCount, bodies );
	elim.bodies = bodies;
	cnBuildElimination( s, jointRows, jointCount, &elim );
	cnForceRows force = { 0 };
	cnBuildForceRows( s, &elim, jointRows, jointCount, &force );

	// the joints' own response, then the contacts and limits
	double* mu = cnArena_Alloc( arena, (size_t)( elim.count > 0 ? elim.count : 1 ) * sizeof( double ) );
	if ( cnSolveEqualityTargets( s, &elim, &force, points, count, mu ) == false ||
		 cnSolveIslandPoints( s, &elim, points, count ) == false )
	{
		return false;
	}

	for ( int l = 0; l < elim.bodyCount; ++l )
	{
		s->jointLocal[bodies[l]] = -1;
	}

	// the impulses the rows took (the limits' are recorded by the contact solve)
	for ( int i = 0; i < force.total; ++i )
	{
		s->jointRows[force.jointRows[i]].impulse += force.explicitImpulse[i];
	}
	for ( int i = 0; i < force.count; ++i )
	{
		s->jointRows[force.jointRows[force.index[i]]].impulse += force.z[i];
	}
	for ( int k = 0; k < elim.count; ++k )
	{
		s->jointRows[elim.jointRows[k]].impulse += mu[k] + elim.lambda[k];
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// the projection over the velocities the equality rows allow

// The projection's QP, min 1/2 |v - q|_M^2 s.t. J_E v = J_E q and N^T v + c >= 0, is solved over the
// null space of the equality rows (the null-space method for equality-constrained QPs): with
// M = L L^T per body (Cholesky of each body's translational and rotational blocks), w = L^T v, the
// rows read J~ = J_E L^-T, and an orthonormal basis Q2 of the complement of J~'s row space gives
// Z = L^-T Q2 with Z^T M Z = I. Then v = q + Z y keeps every equality row, |v - q|_M = |y|, and
// the QP is Goldfarb-Idnani's on y alone: G = I, g0 = 0, constraint columns Z^T N_i. Its size is
// the island's freedom (a ragdoll's joint angles) instead of its bodies' dofs with the equality
// rows as constraints besides, which each reflection of gr-velocity-projection pays again. The
// equality rows' impulses follow from the KKT conditions, J_E M^-1 (M Z y) = 0 = K mu + U lambda:
// mu = -K^-1 U lambda, as in the LCP's elimination.

// Cholesky of a symmetric positive definite n x n block (n <= 3, column-major) into L (lower).
static void cnFactorBlock( const double* A, int n, double* L )
{
	for ( int j = 0; j < n; ++j )
	{
		for ( int i = 0; i < n; ++i )
		{
			L[i + j * n] = i >= j ? A[i + j * n] : 0.0;
		}
	}
	bool singular[3];
	cnFactorEquality( L, singular, n );
}

// x = L^-1 x (forward) or L^-T x (backward) for a lower triangular n x n block.
static void cnBlockSolve( const double* L, int n, double* x, bool transpose )
{
	if ( transpose == false )
	{
		for ( int i = 0; i < n; ++i )
		{
			double t = x[i];
			for ( int k = 0; k < i; ++k )
			{
				t -= L[i + k * n] * x[k];
			}
			x[i] = t / L[i + i * n];
		}
		return;
	}
	for ( int i = n - 1; i >= 0; --i )
	{
		double t = x[i];
		for ( int k = i + 1; k < n; ++k )
		{
			t -= L[k + i * n] * x[k];
		}
		x[i] = t / L[i + i * n];
	}
}

// Each island body's mass blocks as the step's solves see them (translational, then rotational),
// factored: 9 + 9 numbers per body. A body impulses cannot turn (a point mass) gets its mass as
// rotational weight and its rotation held (fixed: true).
static void cnIslandMassFactors( const cnVelocityStep* s, int body, double* linear, double* angular, bool* fixed )
{
	const cnBody* b = s->world->bodies + s->map.bodies[body];
	int nl = s->dpb == 3 ? 2 : 3, na = s->dpb == 3 ? 1 : 3;
	double A[9];
	cnMat3 Ml = s->linearMass != NULL ? s->linearMass[body] : cnDiagonal( b->mass, b->mass, b->mass );
	cnVec3 cl[3] = { Ml.cx, Ml.cy, Ml.cz };
	for ( int j = 0; j < nl; ++j )
	{
		for ( int i = 0; i < nl; ++i )
		{
			A[i + j * nl] = cnGet( cl[j], i );
		}
	}
	cnFactorBlock( A, nl, linear );
	const cnMat3* I = s->inertia + body;
	const cnMat3* invI = s->invInertia + body;
	*fixed = s->dpb == 3 ? invI->cz.z == 0.0
						 : cnLengthSquared( invI->cx ) + cnLengthSquared( invI->cy ) + cnLengthSquared( invI->cz ) == 0.0;
	cnVec3 ca[3] = { I->cx, I->cy, I->cz };
	for ( int j = 0; j < na; ++j )
	{
		for ( int i = 0; i < na; ++i )
		{
			A[i + j * na] = *fixed ? ( i == j ? b->mass : 0.0 ) : na == 1 ? I->cz.z : cnGet( ca[j], i );
		}
	}
	cnFactorBlock( A, na, angular );
}

// Orthogonalises x (length n) against the first count columns of B, twice (Gram-Schmidt with
// reorthogonalisation); returns its norm after.
static double cnOrthogonalise( const double* B, int n, int count, double* x )
{
	for ( int pass = 0; pass < 2; ++pass )
	{
		for ( int c = 0; c < count; ++c )
		{
			const double* b = B + (size_t)c * (size_t)n;
			double dot = cnDotN( b, x, n );
			for ( int i = 0; i < n; ++i )
			{
				x[i] -= dot * b[i];
			}
		}
	}
	return sqrt( cnDotN( x, x, n ) );
}

// Builds Z for the island of s->elim (see above).
static void cnBuildNullSpace( cnVelocityStep* s, cnJointElimination* e )
{
	cnArena* arena = &s->world->arena;
	int d = s->dpb, nb = e->bodyCount, n = nb * d, nl = d == 3 ? 2 : 3;
	size_t nn = (size_t)( n > 0 ? n : 1 );
	double* linear = cnArena_Alloc( arena, (size_t)nb * 9 * sizeof( double ) + 1 );
	double* angular = cnArena_Alloc( arena, (size_t)nb * 9 * sizeof( double ) + 1 );
	bool* fixed = cnArena_Alloc( arena, (size_t)nb * sizeof( bool ) + 1 );
	for ( int l = 0; l < nb; ++l )
	{
		cnIslandMassFactors( s, e->bodies[l], linear + 9 * l, angular + 9 * l, fixed + l );
	}

	// an orthonormal basis of the rows' span in w = L^T v (the rows kept by K's factor, each
	// L^-1 J^T; and the held rotations), then of its complement, greedily from the unit vectors
	// with the largest part outside the span so far (1 - sum of their squares)
	double* B = cnArena_Alloc( arena, nn * nn * sizeof( double ) );
	double* outside = cnArena_Alloc( arena, nn * sizeof( double ) );
	double* x = cnArena_Alloc( arena, nn * sizeof( double ) );
	int count = 0;
	int extra = 0;
	for ( int l = 0; l < nb; ++l )
	{
		extra += fixed[l] ? d - nl : 0;
	}
	for ( int k = 0; k < e->count + extra && count < n; ++k )
	{
		memset( x, 0, nn * sizeof( double ) );
		if ( k < e->count )
		{
			if ( e->skip[k] )
			{
				continue;
			}
			const cnVelocityRow* row = s->rows + e->rows[k];
			int offs[2] = { row->offA, row->offB };
			const double* js[2] = { row->jA, row->jB };
			for ( int side = 0; side < 2; ++side )
			{
				if ( offs[side] < 0 )
				{
					continue;
				}
				int l = s->jointLocal[offs[side] / d];
				double* xl = x + l * d;
				for ( int i = 0; i < d; ++i )
				{
					xl[i] += js[side][i];
				}
			}
			for ( int l = 0; l < nb; ++l )
			{
				cnBlockSolve( linear + 9 * l, nl, x + l * d, false );
				cnBlockSolve( angular + 9 * l, d - nl, x + l * d + nl, false );
			}
		}
		else
		{
			// the k-th held rotation dof
			int r = k - e->count;
			for ( int l = 0; l < nb; ++l )
			{
				if ( fixed[l] && r < d - nl )
				{
					x[l * d + nl + r] = 1.0;
					break;
				}
				r -= fixed[l] ? d - nl : 0;
			}
		}
		double before = sqrt( cnDotN( x, x, n ) );
		double after = cnOrthogonalise( B, n, count, x );
		if ( after > 1e-5 * before && after > 0.0 )
		{
			double* b = B + (size_t)count * nn;
			for ( int i = 0; i < n; ++i )
			{
				b[i] = x[i] / after;
			}
			count += 1;
		}
	}
	int rank = count;
	for ( int i = 0; i < n; ++i )
	{
		outside[i] = 1.0;
		for ( int c = 0; c < count; ++c )
		{
			double v = B[(size_t)i + (size_t)c * nn];
			outside[i] -= v * v;
		}
	}
	while ( count < n )
	{
		int best = 0;
		for ( int i = 1; i < n; ++i )
		{
			best = outside[i] > outside[best] ? i : best;
		}
		memset( x, 0, nn * sizeof( double ) );
		x[best] = 1.0;
		double norm = cnOrthogonalise( B, n, count, x );
		double* b = B + (size_t)count * nn;
		for ( int i = 0; i < n; ++i )
		{
			b[i] = x[i] / norm;
			outside[i] -= b[i] * b[i];
		}
		count += 1;
	}

	// Z = L^-T Q2
	e->dofs = n;
	e->nullity = n - rank;
	e->Z = B + (size_t)rank * nn;
	for ( int c = 0; c < e->nullity; ++c )
	{
		double* z = e->Z + (size_t)c * nn;
		for ( int l = 0; l < nb; ++l )
		{
			cnBlockSolve( linear + 9 * l, nl, z + l * d, true );
			cnBlockSolve( angular + 9 * l, d - nl, z + l * d + nl, true );
		}
	}
}

bool cnVelocitySolveJointProjection( cnVelocityStep* s, const int* set, int count, bool* changed )
{
	cnWorld* world = s->world;
	cnJointElimination* e = s->elim;
	int d = s->dpb;
	if ( e->Z == NULL )
	{
		cnBuildNullSpace( s, e );
	}
	int n = e->dofs, r = e->nullity;
	size_t nn = (size_t)n, rr = (size_t)( r > 0 ? r : 1 );
	if ( r == 0 )
	{
		// the joints hold the island still: nothing the contacts can change
		return true;
	}

	// G = I, g0 = 0; column i of CI is Z^T N_i, ci0 point i's constant with N_i^T q
	memset( s->G, 0, rr * rr * sizeof( double ) );
	for ( int c = 0; c < r; ++c )
	{
		s->G[(size_t)c + (size_t)c * rr] = 1.0;
		s->g0[c] = 0.0;
	}
	const cnVelocityRow** rows = cnArena_Alloc( &world->arena, (size_t)( count > 0 ? count : 1 ) * sizeof( cnVelocityRow* ) );
	for ( int i = 0; i < count; ++i )
	{
		const cnVelocityPoint* p = s->points + set[i];
		const cnVelocityRow* row = s->rows + p->row;
		rows[i] = row;
		double* col = s->CI + (size_t)i * rr;
		int offs[2] = { row->offA, row->offB };
		const double* js[2] = { row->jA, row->jB };
		for ( int c = 0; c < r; ++c )
		{
			const double* z = e->Z + (size_t)c * nn;
			double sum = 0.0;
			for ( int side = 0; side < 2; ++side )
			{
				if ( offs[side] >= 0 )
				{
					sum += cnDotN( js[side], z + s->jointLocal[offs[side] / d] * d, d );
				}
			}
			col[c] = sum;
		}
		double vn = cnVelocityRowRate( s, row, s->q );
		double e0 = cnVelocityRestitution( s, p, vn );
		if ( p->bounces && s->firstSolve && s->inelastic == false )
		{
			// N^T v + fixed >= target
			s->ci0[i] = vn - p->bounceTarget;
		}
		else
		{
			s->ci0[i] = ( 1.0 + e0 ) * vn + ( e0 == 0.0 ? p->gapSpeed : 0.0 );
		}
	}

	cnQpStatus status = cnSolveQpGoldfarbIdnani( r, s->G, s->g0, count, s->CI, s->ci0, s->x, s->lambda, 20 * ( r + count ) + 100 );
	if ( status != cnQp_ok )
	{
		return cnSetError( cnError_stepFailed, "%s: the projection QP over %d contact points and joints failed (%s) at t = %g", s->name,
						   count, cnVelocityQpStatusText( status ), world->time );
	}
	for ( int c = 0; c < r; ++c )
	{
		if ( !isfinite( s->x[c] ) )
		{
			return cnSetError( cnError_stepFailed, "%s: the projection gave a non-finite velocity at t = %g", s->name, world->time );
		}
		*changed = *changed || s->x[c] != 0.0;
	}

	// v = q + Z y over the island's dofs
	for ( int l = 0; l < e->bodyCount; ++l )
	{
		double* q = s->q + e->bodies[l] * d;
		for ( int i = 0; i < d; ++i )
		{
			double sum = 0.0;
			for ( int c = 0; c < r; ++c )
			{
				sum += e->Z[(size_t)( l * d + i ) + (size_t)c * nn] * s->x[c];
			}
			q[i] += sum;
		}
	}

	// the impulses: the points' multipliers, and the equality rows' mu = -K^-1 U lambda
	for ( int i = 0; i < count; ++i )
	{
		s->lambda[i] = s->lambda[i] > 0.0 ? s->lambda[i] : 0.0;
		cnVelocityRecordImpulse( s, s->points + set[i], s->lambda[i], 0.0, 0.0 );
	}
	// (U lambda is summed over the solves of the island, and solved with K once at its end)
	for ( int k = 0; k < e->count; ++k )
	{
		if ( e->skip[k] )
		{
			continue;
		}
		const cnVelocityRow* eq = s->rows + e->rows[k];
		for ( int i = 0; i < count; ++i )
		{
			e->projected[k] += s->lambda[i] != 0.0 ? s->lambda[i] * cnVelocityCoupling( s, eq, rows[i] ) : 0.0;
		}
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// after the positions moved

// The equality rows hold at the poses the step reaches by their targets (above), for the motion of
// the joints' own response. The contact response changes that motion (a bar resting on its limit or
// on the floor no longer turns as its targets allowed for: an error of order (h w)^2 r, 3e-6 m for
// a bar of 0.5 m stopped by its limit at 60 Hz), and the contact position correction moves bodies.
// What is left is projected out of the positions by Newton steps along M^-1 J^T, velocities
// untouched (Cline and Pai's post-stabilisation), while it exceeds the tolerance (m or rad).
#define CN_JOINT_POSITION_TOL 1e-10
#define CN_JOINT_POSITION_ITERATIONS 3

void cnVelocityProjectJointPositions( cnVelocityStep* s )
{
	cnWorld* world = s->world;
	cnArena* arena = &world->arena;
	int nb = s->map.bodyCount, d = s->dpb;
	double* delta = NULL;
	for ( int root = 0; root < nb; ++root )
	{
		int first = s->jointIslandStart[root], count = s->jointIslandStart[root + 1] - first;
		int m = 0;
		for ( int i = 0; i < count; ++i )
		{
			m += s->jointRows[s->jointIslandOrder[first + i]].type == cnJointRow_equality ? 1 : 0;
		}
		if ( m == 0 )
		{
			continue;
		}
		if ( delta == NULL )
		{
			delta = cnArena_Alloc( arena, (size_t)s->map.n * sizeof( double ) );
			memset( delta, 0, (size_t)s->map.n * sizeof( double ) );
		}
		// per free body: the last iteration that moved it (this island's iterations count from 1)
		int* moved = cnArena_Alloc( arena, (size_t)nb * sizeof( int ) );
		memset( moved, 0, (size_t)nb * sizeof( int ) );
		size_t mm = (size_t)m;
		int* eq = cnArena_Alloc( arena, mm * sizeof( int ) );
		double* C = cnArena_Alloc( arena, mm * sizeof( double ) );
		double* L = cnArena_Alloc( arena, mm * mm * sizeof( double ) );
		bool* skip = cnArena_Alloc( arena, mm * sizeof( bool ) );
		cnVelocityRow* rows = cnArena_Alloc( arena, mm * sizeof( cnVelocityRow ) );
		for ( int i = 0, k = 0; i < count; ++i )
		{
			int index = s->jointIslandOrder[first + i];
			if ( s->jointRows[index].type == cnJointRow_equality )
			{
				eq[k++] = index;
			}
		}
		for ( int iteration = 0; iteration < CN_JOINT_POSITION_ITERATIONS; ++iteration )
		{
			// the rows and their errors where the bodies are now
			const cnJoint* current = NULL;
			cnJointRow jointRows[CN_JOINT_MAX_ROWS];
			double worst = 0.0;
			for ( int k = 0; k < m; ++k )
			{
				const cnVelocityJointRow* jr = s->jointRows + eq[k];
				if ( k == 0 || jr->joint != current )
				{
					current = jr->joint;
					cnJointPose a = cnJointBodyPose( world, current->bodyA );
					cnJointPose b = cnJointBodyPose( world, current->bodyB );
					cnJointRows( current, &a, &b, jointRows );
				}
				const cnJointRow* r = jointRows + jr->index;
				double fixed = 0.0;
				cnBuildJointSide( s, current->bodyA, r->linearA, r->angularA, &rows[k].offA, rows[k].jA, rows[k].mA, &fixed );
				cnBuildJointSide( s, current->bodyB, r->linearB, r->angularB, &rows[k].offB, rows[k].jB, rows[k].mB, &fixed );
				C[k] = r->error;
				worst = fmax( worst, fabs( C[k] ) );
			}
			if ( worst <= CN_JOINT_POSITION_TOL )
			{
				break;
			}
			for ( int j = 0; j < m; ++j )
			{
				for ( int i = j; i < m; ++i )
				{
					L[(size_t)i + (size_t)j * mm] = cnVelocityCoupling( s, rows + i, rows + j );
				}
			}
			bool dependent = false;
			for ( int k = 0; k < m; ++k )
			{
				dependent = dependent || !( L[(size_t)k + (size_t)k * mm] > 0.0 );
			}
			if ( dependent )
			{
				// a row no free dof moves along where the bodies are now
				break;
			}
			cnFactorEquality( L, skip, m );
			for ( int k = 0; k < m; ++k )
			{
				C[k] = -C[k];
			}
			cnSolveEquality( L, skip, m, C );
			// position impulses: each free body moves by M^-1 J^T x (its centre, and turns by a rotation vector)
			for ( int k = 0; k < m; ++k )
			{
				if ( C[k] != 0.0 )
				{
					cnVelocityApplyRow( s, rows + k, C[k], delta );
				}
			}
			for ( int k = 0; k < m; ++k )
			{
				int offs[2] = { rows[k].offA, rows[k].offB };
				for ( int side = 0; side < 2; ++side )
				{
					cnBody* b = offs[side] >= 0 ? world->bodies + s->map.bodies[offs[side] / d] : NULL;
					if ( b == NULL || moved[offs[side] / d] == iteration + 1 )
					{
						continue;
					}
					moved[offs[side] / d] = iteration + 1;
					double* x = delta + offs[side];
					cnVec3 dx = d == 3 ? cnV3( x[0], x[1], 0.0 ) : cnV3( x[0], x[1], x[2] );
					cnVec3 dtheta = d == 3 ? cnV3( 0.0, 0.0, x[2] ) : cnV3( x[3], x[4], x[5] );
					b->center = cnAdd( b->center, dx );
					b->xf.q = cnIntegrateRotation( b->xf.q, dtheta, 1.0 );
					b->xf.p = cnSub( b->center, cnRotate( b->xf.q, b->localCenter ) );
					memset( x, 0, (size_t)d * sizeof( double ) );
				}
			}
		}
	}
}
