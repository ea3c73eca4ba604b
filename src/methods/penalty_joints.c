// SPDX-License-Identifier: MIT
// Joints in the penalty and analytic-impulse methods, as AERO's connections: every joint row
// (src/joints/) is a force evaluated at every stage of the Dormand-Prince integrator from the
// stage's poses and velocities. An equality row is a stiff damped spring whose constants come from
// the row's effective mass, so that every row has the same natural frequency whatever the bodies;
// a limit is the same spring acting one way; a motor is a velocity servo clamped to its maximum
// force; a spring or a damper is exactly its own force law. The rows' forces are integrated over
// the step for the reactions and breaks, and the step bound includes the rows' stiffness so that
// the integrator does not have to find it by rejected steps. See docs/joints.md.
#include "error.h"
#include "methods/penalty.h"

#include <string.h>

// One side of a joint at the loaded stage: the body (the stage's entry for a body of the state, a
// copy in `fixed` for the others; the world at rest) and its pose.
typedef struct cnStageSide
{
	const cnPenaltyBody* body;
	cnPenaltyBody fixed;
	cnJointPose pose;
	int slot;
} cnStageSide;

static void cnGetSide( const cnPenaltySystem* sys, int bodyIndex, cnStageSide* side )
{
	side->slot = bodyIndex >= 0 ? sys->slot[bodyIndex] : -1;
	if ( side->slot >= 0 )
	{
		side->body = sys->stage + side->slot;
	}
	else
	{
		if ( bodyIndex >= 0 )
		{
			side->fixed = cnPenaltyGetBody( sys, bodyIndex );
		}
		else
		{
			memset( &side->fixed, 0, sizeof( side->fixed ) );
			side->fixed.q = cnQuat_identity;
		}
		side->body = &side->fixed;
	}
	cnVec3 localCenter = bodyIndex >= 0 ? sys->world->bodies[bodyIndex].localCenter : cnVec3_zero;
	side->pose = (cnJointPose){ side->body->center, side->body->q, localCenter };
}

// The slot of a joint's side, -1 for the world and bodies that do not move in the state.
static int cnSideSlot( const cnPenaltySystem* sys, int bodyIndex )
{
	return bodyIndex >= 0 ? sys->slot[bodyIndex] : -1;
}

bool cnPenaltyBeginJoints( cnPenaltySystem* sys )
{
	cnWorld* world = sys->world;
	int count = 0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		cnJoint* j = world->joints + i;
		if ( cnJointActive( j ) == false )
		{
			continue;
		}
		// what the step does not move gets no reaction
		memset( j->impulses, 0, sizeof( j->impulses ) );
		if ( cnSideSlot( sys, j->bodyA ) >= 0 || cnSideSlot( sys, j->bodyB ) >= 0 )
		{
			count += 1;
		}
	}
	if ( count == 0 )
	{
		return true;
	}

	cnArena* arena = &world->arena;
	size_t rowSlots = (size_t)count * CN_JOINT_MAX_ROWS;
	size_t bodySlots = (size_t)( sys->bodyCount > 0 ? sys->bodyCount : 1 );
	sys->joints = cnArena_Alloc( arena, (size_t)count * sizeof( int ) );
	sys->jointStart = cnArena_Alloc( arena, ( bodySlots + 1 ) * sizeof( int ) );
	sys->jointList = cnArena_Alloc( arena, 2 * (size_t)count * sizeof( int ) );
	sys->jointRows = cnArena_Alloc( arena, rowSlots * sizeof( cnJointRow ) );
	sys->jointForce = cnArena_Alloc( arena, rowSlots * sizeof( double ) );
	sys->jointSampleForce = cnArena_Alloc( arena, rowSlots * sizeof( double ) );
	sys->jointImpulse = cnArena_Alloc( arena, rowSlots * sizeof( double ) );
	sys->jointModes = cnArena_Alloc( arena, bodySlots * sizeof( double ) );
	sys->jointWeighted = cnArena_Alloc( arena, 5 * rowSlots * sizeof( cnVec3 ) );
	if ( sys->joints == NULL || sys->jointStart == NULL || sys->jointList == NULL || sys->jointRows == NULL ||
		 sys->jointForce == NULL || sys->jointSampleForce == NULL || sys->jointImpulse == NULL ||
		 sys->jointModes == NULL || sys->jointWeighted == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory in the penalty step's joints" );
	}
	memset( sys->jointRows, 0, rowSlots * sizeof( cnJointRow ) );
	memset( sys->jointForce, 0, rowSlots * sizeof( double ) );
	memset( sys->jointSampleForce, 0, rowSlots * sizeof( double ) );
	memset( sys->jointImpulse, 0, rowSlots * sizeof( double ) );
	memset( sys->jointModes, 0, bodySlots * sizeof( double ) );
	sys->jointSampleTime = -1.0;

	// the joints in index order (deterministic), and per slot the joints acting on it
	memset( sys->jointStart, 0, ( bodySlots + 1 ) * sizeof( int ) );
	for ( int i = 0; i < world->jointCount; ++i )
	{
		const cnJoint* j = world->joints + i;
		int slotA = cnJointActive( j ) ? cnSideSlot( sys, j->bodyA ) : -1;
		int slotB = cnJointActive( j ) ? cnSideSlot( sys, j->bodyB ) : -1;
		if ( slotA < 0 && slotB < 0 )
		{
			continue;
		}
		sys->joints[sys->jointCount++] = i;
		if ( slotA >= 0 )
		{
			sys->jointStart[slotA + 1] += 1;
		}
		if ( slotB >= 0 && slotB != slotA )
		{
			sys->jointStart[slotB + 1] += 1;
		}
	}
	for ( int k = 0; k < sys->bodyCount; ++k )
	{
		sys->jointStart[k + 1] += sys->jointStart[k];
	}
	int* fill = cnArena_Alloc( arena, bodySlots * sizeof( int ) );
	if ( fill == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory in the penalty step's joints" );
	}
	memcpy( fill, sys->jointStart, bodySlots * sizeof( int ) );
	for ( int n = 0; n < sys->jointCount; ++n )
	{
		const cnJoint* j = world->joints + sys->joints[n];
		int slotA = cnSideSlot( sys, j->bodyA ), slotB = cnSideSlot( sys, j->bodyB );
		if ( slotA >= 0 )
		{
			sys->jointList[fill[slotA]++] = n;
		}
		if ( slotB >= 0 && slotB != slotA )
		{
			sys->jointList[fill[slotB]++] = n;
		}
	}
	return true;
}

// J M^-1 J^T of a row at the stage: the inverse of its effective mass.
static double cnRowInverseMass( const cnJointRow* row, const cnPenaltyBody* a, const cnPenaltyBody* b )
{
	return a->invMass * cnLengthSquared( row->linearA ) + cnDot( row->angularA, cnMulMV( a->invI, row->angularA ) ) +
		   b->invMass * cnLengthSquared( row->linearB ) + cnDot( row->angularB, cnMulMV( b->invI, row->angularB ) );
}

// The force lambda of a row at the stage (its impulse rate: lambda * linear on each body's momentum,
// lambda * angular on its angular momentum). Writes the stiffness and damping that made it into
// row->stiffness and row->damping (0 and 0 for a row that does nothing now), which is what the
// step bound needs: a motor is a damper of coefficient m_eff rate.
static double cnRowForce( cnJointRow* row, const cnPenaltyBody* a, const cnPenaltyBody* b )
{
	const double omega = 2.0 * CN_PI * CN_PENALTY_JOINT_FREQUENCY;
	double speed = cnDot( row->linearA, a->v ) + cnDot( row->angularA, a->w ) + cnDot( row->linearB, b->v ) +
				   cnDot( row->angularB, b->w );
	switch ( row->type )
	{
		case cnJointRow_equality:
		case cnJointRow_limit:
		{
			// a spring of natural frequency omega on the row's own effective mass, damped at
			// CN_PENALTY_JOINT_DAMPING_RATIO: f = -(k C + c dC/dt); a limit only pushes, and only
			// while it is violated (the dashpot may slow the way out, never pull back)
			double inverseMass = cnRowInverseMass( row, a, b );
			if ( !( inverseMass > 0.0 ) || ( row->type == cnJointRow_limit && !( row->error < 0.0 ) ) )
			{
				break;
			}
			double mEff = 1.0 / inverseMass;
			row->stiffness = mEff * omega * omega;
			row->damping = 2.0 * CN_PENALTY_JOINT_DAMPING_RATIO * mEff * omega;
			double f = -( row->stiffness * row->error + row->damping * speed );
			return row->type == cnJointRow_limit && f < 0.0 ? 0.0 : f;
		}
		case cnJointRow_motor:
		{
			// a velocity servo: closes the speed error at the rate CN_PENALTY_MOTOR_RATE omega, no
			// harder than the motor's maximum force
			double inverseMass = cnRowInverseMass( row, a, b );
			if ( !( inverseMass > 0.0 ) )
			{
				break;
			}
			row->stiffness = 0.0;
			row->damping = CN_PENALTY_MOTOR_RATE * omega / inverseMass;
			double f = row->damping * ( row->speed - speed );
			return fmax( -row->maxForce, fmin( row->maxForce, f ) );
		}
		case cnJointRow_spring:
			// AERO's springs and dampers: their own force law, nothing added
			return -( row->stiffness * row->error + row->damping * speed );
		default:
			break;
	}
	row->stiffness = 0.0;
	row->damping = 0.0;
	return 0.0;
}

void cnPenaltyJointForces( cnPenaltySystem* sys )
{
	const cnWorld* world = sys->world;
	for ( int n = 0; n < sys->jointCount; ++n )
	{
		const cnJoint* j = world->joints + sys->joints[n];
		cnStageSide a, b;
		cnGetSide( sys, j->bodyA, &a );
		cnGetSide( sys, j->bodyB, &b );
		cnJointRow* rows = sys->jointRows + (size_t)n * CN_JOINT_MAX_ROWS;
		double* forces = sys->jointForce + (size_t)n * CN_JOINT_MAX_ROWS;
		int rowCount = cnJointRows( j, &a.pose, &b.pose, rows );
		cnVec3 fA = cnVec3_zero, tA = cnVec3_zero, fB = cnVec3_zero, tB = cnVec3_zero;
		for ( int r = 0; r < rowCount; ++r )
		{
			cnJointRow* row = rows + r;
			double f = cnRowForce( row, a.body, b.body );
			forces[r] = f;
			if ( f == 0.0 )
			{
				continue;
			}
			fA = cnMulAdd( fA, f, row->linearA );
			tA = cnMulAdd( tA, f, row->angularA );
			fB = cnMulAdd( fB, f, row->linearB );
			tB = cnMulAdd( tB, f, row->angularB );
		}
		for ( int r = rowCount; r < CN_JOINT_MAX_ROWS; ++r )
		{
			rows[r] = (cnJointRow){ 0 };
			forces[r] = 0.0;
		}
		if ( a.slot >= 0 )
		{
			sys->force[a.slot] = cnAdd( sys->force[a.slot], fA );
			sys->torque[a.slot] = cnAdd( sys->torque[a.slot], tA );
		}
		if ( b.slot >= 0 )
		{
			sys->force[b.slot] = cnAdd( sys->force[b.slot], fB );
			sys->torque[b.slot] = cnAdd( sys->torque[b.slot], tB );
		}
	}
}

void cnPenaltySampleJoints( cnPenaltySystem* sys, double t )
{
	size_t rowCount = (size_t)sys->jointCount * CN_JOINT_MAX_ROWS;
	if ( sys->jointSampleTime >= 0.0 )
	{
		// the trapezoid over the last internal step (or to the state an impact restarted from)
		double h = t - sys->jointSampleTime;
		for ( size_t i = 0; i < rowCount; ++i )
		{
			sys->jointImpulse[i] += 0.5 * h * ( sys->jointSampleForce[i] + sys->jointForce[i] );
		}
	}
	memcpy( sys->jointSampleForce, sys->jointForce, rowCount * sizeof( double ) );
	sys->jointSampleTime = t;
}

// J_r M^-1 J_s^T of two rows through the bodies they share: row r of joint jr and row s of joint js
// (its M^-1 J^T in ws, from cnPenaltyJointModes), for each pair of their sides on the same moving
// body.
static double cnRowCoupling( const cnPenaltySystem* sys, const cnJoint* jr, const cnJointRow* r, const cnJoint* js,
							 const cnVec3* ws )
{
	const int sidesR[2] = { jr->bodyA, jr->bodyB };
	const int sidesS[2] = { js->bodyA, js->bodyB };
	double sum = 0.0;
	for ( int p = 0; p < 2; ++p )
	{
		if ( cnSideSlot( sys, sidesR[p] ) < 0 )
		{
			continue;
		}
		cnVec3 linR = p == 0 ? r->linearA : r->linearB, angR = p == 0 ? r->angularA : r->angularB;
		for ( int q = 0; q < 2; ++q )
		{
			if ( sidesS[q] == sidesR[p] )
			{
				sum += cnDot( linR, ws[2 * q] ) + cnDot( angR, ws[2 * q + 1] );
			}
		}
	}
	return sum;
}

// True when joint m (a system index) acts on the body in the slot: a joint on both bodies of
// another is met in both bodies' lists and must be counted once.
static bool cnJointOnSlot( const cnPenaltySystem* sys, int slot, int m )
{
	for ( int i = sys->jointStart[slot]; i < sys->jointStart[slot + 1]; ++i )
	{
		if ( sys->jointList[i] == m )
		{
			return true;
		}
	}
	return false;
}

void cnPenaltyJointModes( const cnPenaltySystem* sys )
{
	const cnWorld* world = sys->world;
	memset( sys->jointModes, 0, (size_t)sys->bodyCount * sizeof( double ) );

	// M^-1 J^T of every row that acts (the world and fixed bodies: zero) and the square roots of its
	// constants, once
	for ( int n = 0; n < sys->jointCount; ++n )
	{
		const cnJoint* j = world->joints + sys->joints[n];
		cnStageSide a, b;
		cnGetSide( sys, j->bodyA, &a );
		cnGetSide( sys, j->bodyB, &b );
		for ( int r = 0; r < CN_JOINT_MAX_ROWS; ++r )
		{
			size_t i = (size_t)n * CN_JOINT_MAX_ROWS + (size_t)r;
			const cnJointRow* row = sys->jointRows + i;
			cnVec3* w = sys->jointWeighted + 5 * i;
			if ( row->stiffness == 0.0 && row->damping == 0.0 )
			{
				continue;
			}
			w[0] = cnMulSV( a.body->invMass, row->linearA );
			w[1] = cnMulMV( a.body->invI, row->angularA );
			w[2] = cnMulSV( b.body->invMass, row->linearB );
			w[3] = cnMulMV( b.body->invI, row->angularB );
			w[4] = cnV3( sqrt( row->stiffness ), sqrt( row->damping ), 0.0 );
		}
	}

	for ( int n = 0; n < sys->jointCount; ++n )
	{
		const cnJoint* j = world->joints + sys->joints[n];
		const cnJointRow* rows = sys->jointRows + (size_t)n * CN_JOINT_MAX_ROWS;
		int slots[2] = { cnSideSlot( sys, j->bodyA ), cnSideSlot( sys, j->bodyB ) };
		for ( int r = 0; r < CN_JOINT_MAX_ROWS; ++r )
		{
			const cnJointRow* row = rows + r;
			if ( row->stiffness == 0.0 && row->damping == 0.0 )
			{
				continue;
			}
			const cnVec3* wr = sys->jointWeighted + 5 * ( (size_t)n * CN_JOINT_MAX_ROWS + (size_t)r );
			// Gershgorin's bound on the rows' stiffness K^1/2 A K^1/2 and damping C^1/2 A C^1/2
			// (A = J M^-1 J^T, K and C the rows' constants): the sums over every row that shares a
			// moving body with this one. For a row alone they are w^2 and 2 zeta w; in a chain of
			// equal links, 2 w^2 and 4 zeta w, the chain's fastest mode.
			double stiffness = 0.0, damping = 0.0;
			for ( int side = 0; side < 2; ++side )
			{
				int slot = slots[side];
				if ( slot < 0 || ( side == 1 && slot == slots[0] ) )
				{
					continue;
				}
				for ( int i = sys->jointStart[slot]; i < sys->jointStart[slot + 1]; ++i )
				{
					int m = sys->jointList[i];
					if ( side == 1 && slots[0] >= 0 && cnJointOnSlot( sys, slots[0], m ) )
					{
						continue;
					}
					const cnJoint* other = world->joints + sys->joints[m];
					const cnJointRow* otherRows = sys->jointRows + (size_t)m * CN_JOINT_MAX_ROWS;
					for ( int s = 0; s < CN_JOINT_MAX_ROWS; ++s )
					{
						const cnJointRow* o = otherRows + s;
						if ( o->stiffness == 0.0 && o->damping == 0.0 )
						{
							continue;
						}
						const cnVec3* ws = sys->jointWeighted + 5 * ( (size_t)m * CN_JOINT_MAX_ROWS + (size_t)s );
						double coupling = fabs( cnRowCoupling( sys, j, row, other, ws ) );
						stiffness += wr[4].x * ws[4].x * coupling;
						damping += wr[4].y * ws[4].y * coupling;
					}
				}
			}

			// the fastest eigenvalue of s^2 + damping s + stiffness = 0, scaled by the stability
			// radius in its direction: complex below critical damping, real (the fast root) above
			double size, radius;
			if ( damping * damping >= 4.0 * stiffness )
			{
				size = 0.5 * damping + sqrt( fmax( 0.0, 0.25 * damping * damping - stiffness ) );
				radius = cnPenaltyStabilityRadius( 1.0 );
			}
			else
			{
				size = sqrt( stiffness );
				radius = cnPenaltyStabilityRadius( 0.5 * damping / size );
			}
			double mode = size * size / ( radius * radius );
			for ( int side = 0; side < 2; ++side )
			{
				if ( slots[side] >= 0 && mode > sys->jointModes[slots[side]] )
				{
					sys->jointModes[slots[side]] = mode;
				}
			}
		}
	}
}

void cnPenaltyEndJoints( cnPenaltySystem* sys, double t, const double* y )
{
	cnWorld* world = sys->world;
	cnPenaltyLoadStage( sys, t, y );
	cnPenaltyJointForces( sys );
	cnPenaltySampleJoints( sys, t );
	for ( int n = 0; n < sys->jointCount; ++n )
	{
		cnJoint* j = world->joints + sys->joints[n];
		memcpy( j->impulses, sys->jointImpulse + (size_t)n * CN_JOINT_MAX_ROWS, sizeof( j->impulses ) );
	}
}
