// SPDX-License-Identifier: MIT
// Joints in Kleppmann's constraint method (docs/joints.md, "constraint"). Every joint is a function
// from the two bodies' poses to rows (src/joints/); here those rows join the contact rows of the
// method's system, at every Runge-Kutta stage:
//   - equality rows (C = 0) are bilateral acceleration-level constraints, J qddot + Jdot qdot = 0
//     (Kleppmann's equation 2.13 with k = d = 0), multipliers free; the drift the integrator leaves
//     is projected out after every internal step (post-stabilisation: positions onto C = 0, then
//     velocities onto J qdot = 0, each the correction of least kinetic metric), which keeps the
//     equations free of the stiff mode a Baumgarte term would add (docs/joints.md);
//   - limits (C >= 0) are unilateral rows like resting contacts, and their stops are impacts: a
//     limit reached at speed stops the step at the time of impact and takes an inelastic impulse;
//   - motors (dC/dt = s, |f| <= f_max) are boxed rows asking for Cddot = -d (Cdot - s);
//   - springs and dampers are forces f = -(k C + c Cdot) along their rows, added to the external
//     forces before the solve, so the constraint forces see them.
// Jdot qdot is the central difference of J(q(t)) qdot along the free path q(t) = q + t qdot (v and
// w constant), as for the contacts: exact for every joint type without a formula per row.
#include "arena.h"
#include "methods/constraint.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <string.h>

// Time offset of the central difference that gives Jdot qdot, s, and the largest turn of a
// Jacobian over it, rad: the truncation error is about (turn)^2 / 6 of the term (2e-9), the
// round-off about 1e-16 / turn of the rates (1e-12).
#define CN_JOINT_DIFFERENCE_TIME 1e-5
#define CN_JOINT_DIFFERENCE_TURN 1e-4

// Length over which a relative velocity turns a joint's Jacobian (a distance joint's or a spring's
// direction), m: it only sets the difference time.
#define CN_JOINT_DIFFERENCE_LENGTH 0.1

bool cnCreateConstraintJoints( cnConstraintSolver* s )
{
	cnWorld* world = s->world;
	cnArena* arena = &world->arena;
	int count = 0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		count += cnJointActive( world->joints + i ) ? 1 : 0;
	}
	s->joints = cnArena_Alloc( arena, (size_t)( count > 0 ? count : 1 ) * sizeof( cnConstraintJoint ) );
	if ( s->joints == NULL )
	{
		return false;
	}
	int rowCount = 0;
	s->jointCount = 0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		cnJoint* joint = world->joints + i;
		if ( cnJointActive( joint ) == false )
		{
			continue;
		}
		cnConstraintJoint* cj = s->joints + s->jointCount;
		cj->joint = joint;
		cj->slotA = joint->bodyA >= 0 ? s->slot[joint->bodyA] : -1;
		cj->slotB = joint->bodyB >= 0 ? s->slot[joint->bodyB] : -1;
		cj->dofA = cj->slotA >= 0 && s->dynamic[cj->slotA] ? cj->slotA : -1;
		cj->dofB = cj->slotB >= 0 && s->dynamic[cj->slotB] ? cj->slotB : -1;
		// a joint whose bodies cannot move (asleep, static, kinematic) acts on nothing this step
		if ( cj->dofA < 0 && cj->dofB < 0 )
		{
			continue;
		}
		cnJointPose a = cnJointBodyPose( world, joint->bodyA );
		cnJointPose b = cnJointBodyPose( world, joint->bodyB );
		cnJointRow rows[CN_JOINT_MAX_ROWS];
		cj->first = rowCount;
		cj->count = cnJointRows( joint, &a, &b, rows );
		cj->limits = false;
		for ( int r = 0; r < cj->count; ++r )
		{
			cj->limits = cj->limits || rows[r].type == cnJointRow_limit;
		}
		rowCount += cj->count;
		s->jointCount += 1;
	}

	s->jointRowCount = rowCount;
	size_t capacity = (size_t)( rowCount > 0 ? rowCount : 1 );
	s->jointForce = cnArena_Alloc( arena, capacity * sizeof( double ) );
	for ( int j = 0; j < CN_CONSTRAINT_STAGES; ++j )
	{
		s->stageForce[j] = cnArena_Alloc( arena, capacity * sizeof( double ) );
		if ( s->stageForce[j] == NULL )
		{
			return false;
		}
		memset( s->stageForce[j], 0, capacity * sizeof( double ) );
	}
	s->trialImpulse = cnArena_Alloc( arena, capacity * sizeof( double ) );
	s->fullImpulse = cnArena_Alloc( arena, capacity * sizeof( double ) );
	s->jointImpulse = cnArena_Alloc( arena, capacity * sizeof( double ) );
	s->startLimit = cnArena_Alloc( arena, capacity * sizeof( double ) );
	s->impactLimit = cnArena_Alloc( arena, capacity * sizeof( bool ) );
	if ( s->jointForce == NULL || s->trialImpulse == NULL || s->fullImpulse == NULL || s->jointImpulse == NULL ||
		 s->startLimit == NULL || s->impactLimit == NULL )
	{
		return false;
	}
	for ( size_t r = 0; r < capacity; ++r )
	{
		s->jointForce[r] = 0.0;
		s->trialImpulse[r] = 0.0;
		s->fullImpulse[r] = 0.0;
		s->jointImpulse[r] = 0.0;
		s->startLimit[r] = DBL_MAX;
		s->impactLimit[r] = false;
	}
	return true;
}

// Velocity and angular velocity of a side: those of its simulated body (kinematic ones move
// too), zero for the world, static and sleeping bodies.
static void cnSideVelocity( const cnConstraintSolver* s, int body, int slot, cnVec3* v, cnVec3* w )
{
	*v = cnVec3_zero;
	*w = cnVec3_zero;
	if ( slot >= 0 )
	{
		const cnBody* b = s->world->bodies + body;
		*v = b->v;
		*w = b->w;
	}
}

// dC/dt of a row for the sides' velocities.
static double cnJointRowRate( const cnJointRow* row, cnVec3 vA, cnVec3 wA, cnVec3 vB, cnVec3 wB )
{
	return cnDot( row->linearA, vA ) + cnDot( row->angularA, wA ) + cnDot( row->linearB, vB ) +
		   cnDot( row->angularB, wB );
}

// A side's pose moved for time t along its free path (v and w constant).
static cnJointPose cnFreePathPose( const cnConstraintSolver* s, int body, int slot, cnVec3 v, cnVec3 w, double t )
{
	cnJointPose p = cnJointBodyPose( s->world, body );
	if ( slot >= 0 )
	{
		p.center = cnMulAdd( p.center, t, v );
		p.q = cnIntegrateRotation( p.q, w, t );
	}
	return p;
}

// Jdot qdot of the joint's rows [first, first + count) of the solver's rows (those appended for
// it, in its row order), by the central difference of J(q(t)) qdot along the free path:
// d/dt (J qdot) = Jdot qdot there since qdot is constant. A row whose type changes along the path
// (a spring going slack) gets no term.
static void cnJointRowBias( cnConstraintSolver* s, const cnConstraintJoint* cj, const cnJointRow* rows, int first,
							int count )
{
	const cnJoint* joint = cj->joint;
	cnVec3 vA, wA, vB, wB;
	cnSideVelocity( s, joint->bodyA, cj->slotA, &vA, &wA );
	cnSideVelocity( s, joint->bodyB, cj->slotB, &vB, &wB );
	double turnRate = cnLength( wA ) + cnLength( wB ) + cnLength( cnSub( vB, vA ) ) / CN_JOINT_DIFFERENCE_LENGTH;
	double tau = CN_JOINT_DIFFERENCE_TIME;
	if ( turnRate * tau > CN_JOINT_DIFFERENCE_TURN )
	{
		tau = CN_JOINT_DIFFERENCE_TURN / turnRate;
	}

	double rates[2][CN_JOINT_MAX_ROWS];
	bool same[2][CN_JOINT_MAX_ROWS];
	for ( int side = 0; side < 2; ++side )
	{
		double t = side == 0 ? tau : -tau;
		cnJointPose a = cnFreePathPose( s, joint->bodyA, cj->slotA, vA, wA, t );
		cnJointPose b = cnFreePathPose( s, joint->bodyB, cj->slotB, vB, wB, t );
		cnJointRow moved[CN_JOINT_MAX_ROWS];
		int n = cnJointRows( joint, &a, &b, moved );
		for ( int r = 0; r < n; ++r )
		{
			rates[side][r] = cnJointRowRate( moved + r, vA, wA, vB, wB );
			same[side][r] = moved[r].type == rows[r].type;
		}
	}
	for ( int i = first; i < first + count; ++i )
	{
		cnConstraintRow* row = s->rows + i;
		int r = row->joint - cj->first;
		row->bias = same[0][r] && same[1][r] ? ( rates[0][r] - rates[1][r] ) / ( 2.0 * tau ) : 0.0;
	}
}

// Adds a spring or damper row's force f along the row to the external accelerations of its
// bodies (a force f linA and torque f angA on A, the same with B's blocks on B).
static void cnApplyJointSpring( cnConstraintSolver* s, const cnConstraintJoint* cj, const cnJointRow* row, double f )
{
	if ( cj->dofA >= 0 )
	{
		int k = cj->dofA;
		s->linearAcceleration[k] = cnMulAdd( s->linearAcceleration[k], f, cnMulVV( s->invMassLinear[k], row->linearA ) );
		s->angularAcceleration[k] = cnMulAdd( s->angularAcceleration[k], f, cnMulMV( s->invInertia[k], row->angularA ) );
	}
	if ( cj->dofB >= 0 )
	{
		int k = cj->dofB;
		s->linearAcceleration[k] = cnMulAdd( s->linearAcceleration[k], f, cnMulVV( s->invMassLinear[k], row->linearB ) );
		s->angularAcceleration[k] = cnMulAdd( s->angularAcceleration[k], f, cnMulMV( s->invInertia[k], row->angularB ) );
	}
}

int cnBuildJointRows( cnConstraintSolver* s, cnJointRowMode mode, bool recordStart )
{
	cnWorld* world = s->world;
	bool impulse = mode == cnJointRows_impulse;
	bool force = mode == cnJointRows_force;
	int collidingCount = 0;
	if ( force && s->jointRowCount > 0 )
	{
		memset( s->jointForce, 0, (size_t)s->jointRowCount * sizeof( double ) );
	}
	for ( int ji = 0; ji < s->jointCount; ++ji )
	{
		const cnConstraintJoint* cj = s->joints + ji;
		const cnJoint* joint = cj->joint;
		cnJointPose a = cnJointBodyPose( world, joint->bodyA );
		cnJointPose b = cnJointBodyPose( world, joint->bodyB );
		cnJointRow rows[CN_JOINT_MAX_ROWS];
		int n = cnJointRows( joint, &a, &b, rows );
		cnVec3 vA, wA, vB, wB;
		cnSideVelocity( s, joint->bodyA, cj->slotA, &vA, &wA );
		cnSideVelocity( s, joint->bodyB, cj->slotB, &vB, &wB );
		int first = s->rowCount;
		for ( int r = 0; r < n; ++r )
		{
			const cnJointRow* jr = rows + r;
			int slot = cj->first + r;
			if ( recordStart )
			{
				s->startLimit[slot] = jr->type == cnJointRow_limit ? jr->error : DBL_MAX;
			}
			double cdot = cnJointRowRate( jr, vA, wA, vB, wB );
			cnConstraintRowKind kind;
			bool colliding = false;
			if ( mode == cnJointRows_projection && jr->type != cnJointRow_equality )
			{
				continue;
			}
			switch ( jr->type )
			{
				case cnJointRow_spring:
					if ( force )
					{
						double f = -( jr->stiffness * jr->error + jr->damping * cdot );
						cnApplyJointSpring( s, cj, jr, f );
						s->jointForce[slot] = f;
					}
					continue;
				case cnJointRow_equality:
					kind = cnConstraintRow_equality;
					break;
				case cnJointRow_limit:
					// as a contact point: rows within the tolerance; resting ones get forces, the
					// ones that touch get impulses (colliding when they approach fast)
					if ( jr->error > s->contactTolerance )
					{
						continue;
					}
					colliding = impulse && cdot < -s->restSpeed && jr->error <= s->impactTolerance;
					if ( impulse ? ( fabs( cdot ) > s->restSpeed && colliding == false ) : cdot < -s->restSpeed )
					{
						continue;
					}
					kind = cnConstraintRow_limit;
					break;
				case cnJointRow_motor:
					// a finite force transfers no impulse
					if ( force == false || !( jr->maxForce > 0.0 ) )
					{
						continue;
					}
					kind = cnConstraintRow_motor;
					break;
				default:
					continue;
			}

			cnConstraintRow* row = s->rows + s->rowCount++;
			row->slotA = cj->dofA;
			row->slotB = cj->dofB;
			row->linA = jr->linearA;
			row->angA = jr->angularA;
			row->linB = jr->linearB;
			row->angB = jr->angularB;
			cnSetRowInverse( s, row );
			row->position = jr->error;
			row->velocity = cdot;
			row->bias = 0.0;
			row->lower = kind == cnConstraintRow_equality ? -DBL_MAX
						 : kind == cnConstraintRow_motor  ? -jr->maxForce
														  : 0.0;
			row->upper = kind == cnConstraintRow_motor ? jr->maxForce : DBL_MAX;
			// joints have no material: a limit stops dead
			row->restitution = 0.0;
			row->speed = kind == cnConstraintRow_motor ? jr->speed : 0.0;
			row->hint = force ? s->jointHintBase + slot : -1;
			row->joint = slot;
			row->kind = kind;
			row->colliding = colliding;
			row->id = 0;
			row->point = cnVec3_zero;
			row->normal = cnVec3_zero;
			collidingCount += colliding ? 1 : 0;
		}
		if ( force && s->rowCount > first )
		{
			cnJointRowBias( s, cj, rows, first, s->rowCount - first );
		}
	}
	return collidingCount;
}

void cnJointImpactFunction( cnConstraintSolver* s, bool trigger, double* g, double* rate )
{
	cnWorld* world = s->world;
	for ( int ji = 0; ji < s->jointCount; ++ji )
	{
		const cnConstraintJoint* cj = s->joints + ji;
		if ( cj->limits == false )
		{
			continue;
		}
		bool any = trigger;
		for ( int r = 0; r < cj->count && any == false; ++r )
		{
			any = s->impactLimit[cj->first + r];
		}
		if ( any == false )
		{
			continue;
		}
		const cnJoint* joint = cj->joint;
		cnJointPose a = cnJointBodyPose( world, joint->bodyA );
		cnJointPose b = cnJointBodyPose( world, joint->bodyB );
		cnJointRow rows[CN_JOINT_MAX_ROWS];
		int n = cnJointRows( joint, &a, &b, rows );
		cnVec3 vA, wA, vB, wB;
		cnSideVelocity( s, joint->bodyA, cj->slotA, &vA, &wA );
		cnSideVelocity( s, joint->bodyB, cj->slotB, &vB, &wB );
		for ( int r = 0; r < n; ++r )
		{
			int slot = cj->first + r;
			if ( trigger )
			{
				s->impactLimit[slot] = false;
			}
			else if ( s->impactLimit[slot] == false )
			{
				continue;
			}
			const cnJointRow* jr = rows + r;
			if ( jr->type != cnJointRow_limit )
			{
				continue;
			}
			// targets as for contact points: a new stop at touching; a limit that already touched
			// may sink up to the penetration tolerance and stops halfway there; one deeper than
			// that is the resting forces' business
			double start = s->startLimit[slot];
			if ( start != DBL_MAX && start <= -s->penetrationTolerance )
			{
				continue;
			}
			double target = start == DBL_MAX || start > 0.0 ? 0.0 : 0.5 * ( start - s->penetrationTolerance );
			double cdot = cnJointRowRate( jr, vA, wA, vB, wB );
			if ( trigger )
			{
				s->impactLimit[slot] = jr->error < target && ( jr->error < -s->penetrationTolerance || cdot < -s->restSpeed );
				if ( s->impactLimit[slot] == false )
				{
					continue;
				}
			}
			if ( jr->error - target < *g )
			{
				*g = jr->error - target;
				*rate = cdot;
			}
		}
	}
}

// Largest equality error after which the position projection stops iterating (m or rad), and
// the most Newton rounds it takes (one is enough for the drift of a step: its error is quadratic
// in a correction of about the integrator's tolerance).
#define CN_JOINT_PROJECTION_TOLERANCE 1e-13
#define CN_JOINT_PROJECTION_ROUNDS 3

bool cnProjectJoints( cnConstraintSolver* s )
{
	cnWorld* world = s->world;
	// positions: J M^-1 J^T dlambda = -C, moved by M^-1 J^T dlambda (the correction of least
	// kinetic metric), a Newton step on C(q) = 0 repeated while the error stays above the tolerance
	for ( int round = 0; round < CN_JOINT_PROJECTION_ROUNDS; ++round )
	{
		s->rowCount = 0;
		cnBuildJointRows( s, cnJointRows_projection, false );
		double worst = 0.0;
		for ( int i = 0; i < s->rowCount; ++i )
		{
			s->rhs[i] = -s->rows[i].position;
			worst = fabs( s->rows[i].position ) > worst ? fabs( s->rows[i].position ) : worst;
		}
		if ( worst <= CN_JOINT_PROJECTION_TOLERANCE )
		{
			break;
		}
		if ( cnSolveRows( s ) == false )
		{
			return false;
		}
		for ( int i = 0; i < s->rowCount; ++i )
		{
			const cnConstraintRow* row = s->rows + i;
			double l = s->lambda[i];
			for ( int side = 0; side < 2; ++side )
			{
				int slot = side == 0 ? row->slotA : row->slotB;
				if ( slot < 0 || l == 0.0 )
				{
					continue;
				}
				cnBody* b = world->bodies + s->bodies[slot];
				cnVec3 dx = cnMulSV( l, side == 0 ? row->invLinA : row->invLinB );
				cnVec3 dtheta = cnMulSV( l, side == 0 ? row->invAngA : row->invAngB );
				b->center = cnAdd( b->center, dx );
				b->xf.q = cnIntegrateRotation( b->xf.q, dtheta, 1.0 );
				b->xf.p = cnSub( b->center, cnRotate( b->xf.q, b->localCenter ) );
			}
		}
	}

	// velocities: J M^-1 J^T mu = -J qdot at the projected poses; the impulses mu go into the
	// joints' impulses of the step
	s->rowCount = 0;
	cnBuildJointRows( s, cnJointRows_projection, false );
	for ( int i = 0; i < s->rowCount; ++i )
	{
		s->rhs[i] = -s->rows[i].velocity;
	}
	if ( s->rowCount > 0 && cnSolveRows( s ) == false )
	{
		return false;
	}
	for ( int i = 0; i < s->rowCount; ++i )
	{
		const cnConstraintRow* row = s->rows + i;
		double mu = s->lambda[i];
		if ( mu == 0.0 )
		{
			continue;
		}
		s->jointImpulse[row->joint] += mu;
		if ( row->slotA >= 0 )
		{
			cnBody* b = world->bodies + s->bodies[row->slotA];
			b->v = cnMulAdd( b->v, mu, row->invLinA );
			b->w = cnMulAdd( b->w, mu, row->invAngA );
		}
		if ( row->slotB >= 0 )
		{
			cnBody* b = world->bodies + s->bodies[row->slotB];
			b->v = cnMulAdd( b->v, mu, row->invLinB );
			b->w = cnMulAdd( b->w, mu, row->invAngB );
		}
	}
	for ( int k = 0; k < s->bodyCount; ++k )
	{
		cnBody* b = world->bodies + s->bodies[k];
		cnProjectPlanar( world, &b->v, &b->w );
	}
	return true;
}

void cnStoreJointImpulses( cnConstraintSolver* s )
{
	for ( int ji = 0; ji < s->jointCount; ++ji )
	{
		const cnConstraintJoint* cj = s->joints + ji;
		for ( int r = 0; r < cj->count; ++r )
		{
			cj->joint->impulses[r] = s->jointImpulse[cj->first + r];
		}
	}
}
