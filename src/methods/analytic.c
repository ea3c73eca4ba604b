// SPDX-License-Identifier: MIT
// AERO's analytic collision handling: contact points that approach faster than a maximum contact
// velocity are collisions, resolved by impulses from momentum conservation and Newton's
// restitution law, one point after another until every point separates; slower points are
// resting contact, held by the penalty springs of penalty.c while the same adaptive
// Dormand-Prince integration carries the bodies through the step. Collisions are looked for at
// the step start and after every internal step; a new one is located in time on the integrator's
// dense output, so impacts happen where the surfaces meet. See docs/method-analytic.md.
#include "error.h"
#include "methods/contact_time.h"
#include "methods/penalty.h"

#include <string.h>

// A contact point taking part in a collision.
typedef struct cnImpactPoint
{
	int contact;
	cnVec3 point;
	cnVec3 normal;
} cnImpactPoint;

// Adds the impulse j (acting on B at rB, -j on A at rA) to the velocities.
static void cnApplyPointImpulse( cnPenaltyBody* a, cnPenaltyBody* b, cnVec3 rA, cnVec3 rB, cnVec3 j, bool planar )
{
	b->v = cnMulAdd( b->v, b->invMass, j );
	b->w = cnAdd( b->w, cnMulMV( b->invI, cnCross( rB, j ) ) );
	a->v = cnMulSub( a->v, a->invMass, j );
	a->w = cnSub( a->w, cnMulMV( a->invI, cnCross( rA, j ) ) );
	if ( planar )
	{
		a->v.z = 0.0, a->w.x = 0.0, a->w.y = 0.0;
		b->v.z = 0.0, b->w.x = 0.0, b->w.y = 0.0;
	}
}

static cnVec3 cnRelativeVelocity( const cnPenaltyBody* a, const cnPenaltyBody* b, cnVec3 rA, cnVec3 rB )
{
	return cnSub( cnAdd( b->v, cnCross( b->w, rB ) ), cnAdd( a->v, cnCross( a->w, rA ) ) );
}

double cnAnalyticImpulse( cnPenaltyBody* a, cnPenaltyBody* b, cnVec3 p, cnVec3 n, double restitution, double friction,
						  double vMax, bool planar )
{
	cnVec3 rA = cnSub( p, a->center );
	cnVec3 rB = cnSub( p, b->center );
	double vn = cnDot( cnRelativeVelocity( a, b, rA, rB ), n );
	if ( !( vn < -vMax ) )
	{
		return 0.0;
	}
	double mN = cnPenaltyEffectiveMass( a, b, p, n );
	if ( mN <= 0.0 )
	{
		return 0.0;
	}

	// Newton: the normal relative velocity changes by -(1 + e) v_n, which takes P = -(1 + e) v_n m_eff
	double impulse = -( 1.0 + restitution ) * vn * mN;
	cnApplyPointImpulse( a, b, rA, rB, cnMulSV( impulse, n ), planar );

	// Coulomb on the impulse: a tangential impulse against the remaining slip, large enough to stop
	// it when that takes no more than mu P (sticking), mu P otherwise (sliding)
	if ( friction > 0.0 )
	{
		cnVec3 vrel = cnRelativeVelocity( a, b, rA, rB );
		cnVec3 vt = cnMulSub( vrel, cnDot( vrel, n ), n );
		double slip = cnLength( vt );
		if ( slip > 0.0 )
		{
			cnVec3 t = cnMulSV( 1.0 / slip, vt );
			double mT = cnPenaltyEffectiveMass( a, b, p, t );
			double jt = fmin( slip * mT, friction * impulse );
			cnApplyPointImpulse( a, b, rA, rB, cnMulSV( -jt, t ), planar );
		}
	}
	return impulse;
}

// Normal relative velocity of a point at the loaded stage.
static double cnNormalVelocity( const cnPenaltyBody* a, const cnPenaltyBody* b, cnVec3 p, cnVec3 n )
{
	return cnDot( cnRelativeVelocity( a, b, cnSub( p, a->center ), cnSub( p, b->center ) ), n );
}

// Looks at the state y at time t for new collisions: a point that overlaps now, did not at the last
// accepted state, and approaches faster than v_max. Flags the contacts that have one (only those
// when onlyFlagged is set, for the bisection) and returns whether there is any.
static bool cnFindNewCollisions( cnPenaltySystem* sys, double t, const double* y, bool onlyFlagged )
{
	cnPenaltyLoadStage( sys, t, y );
	bool any = false;
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		cnPenaltyContact* pc = sys->contacts + i;
		if ( onlyFlagged && pc->event == false )
		{
			continue;
		}
		bool found = false;
		cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
		cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
		cnManifoldPoint mps[CN_MAX_PAIR_POINTS];
		int mpCount = cnPenaltyCollide( sys, pc, &a, &b, 0.0, mps );
		for ( int k = 0; k < mpCount && found == false; ++k )
		{
			const cnManifoldPoint* mp = mps + k;
			if ( mp->separation <= 0.0 && cnPenaltyWasOverlapping( pc, mp->id ) == false &&
				 cnNormalVelocity( &a, &b, mp->point, mp->normal ) < -CN_ANALYTIC_MAX_CONTACT_VELOCITY )
			{
				found = true;
			}
		}
		if ( onlyFlagged == false )
		{
			pc->event = found;
		}
		any = any || found;
	}
	return any;
}

// The time-of-contact search of a collision found at the end of a step: the smallest separation
// over the flagged contacts' new, fast points at time t on the step's dense output (its rate the
// point's normal velocity), or the margin when none is within it.
typedef struct cnCollisionSearch
{
	cnPenaltySystem* sys;
	double* probe;
	double margin;
} cnCollisionSearch;

static double cnCollisionGap( void* context, double t, double* rate )
{
	cnCollisionSearch* cs = context;
	cnPenaltySystem* sys = cs->sys;
	cnPenaltyLoadStageAt( sys, t, cs->probe );
	double gap = cs->margin;
	*rate = 0.0;
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		cnPenaltyContact* pc = sys->contacts + i;
		if ( pc->event == false )
		{
			continue;
		}
		cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
		cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
		cnManifoldPoint mps[CN_MAX_PAIR_POINTS];
		int mpCount = cnPenaltyCollide( sys, pc, &a, &b, cs->margin, mps );
		for ( int k = 0; k < mpCount; ++k )
		{
			const cnManifoldPoint* mp = mps + k;
			double vn = cnNormalVelocity( &a, &b, mp->point, mp->normal );
			if ( mp->separation < gap && vn < -CN_ANALYTIC_MAX_CONTACT_VELOCITY &&
				 cnPenaltyWasOverlapping( pc, mp->id ) == false )
			{
				gap = mp->separation;
				*rate = vn;
			}
		}
	}
	return gap;
}

// How far apart the points of a flagged contact can have been at the start of a step of length h
// that ends with them overlapping: twice the distance their fastest points cover at the step's end
// (the motion bound keeps a step's speed change small), and never less than a micrometre.
static double cnCollisionMargin( cnPenaltySystem* sys, double h )
{
	cnPenaltyLoadStage( sys, sys->rk.t, sys->rk.y );
	double margin = 1e-6;
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		const cnPenaltyContact* pc = sys->contacts + i;
		if ( pc->event == false )
		{
			continue;
		}
		cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
		cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
		double speed = cnLength( a.v ) + cnLength( a.w ) * sys->world->bodies[pc->bodyA].maxExtent + cnLength( b.v ) +
					   cnLength( b.w ) * sys->world->bodies[pc->bodyB].maxExtent;
		margin = fmax( margin, 2.0 * h * speed );
	}
	return margin;
}

// Remembers which points overlap at the state y (time t): only points that start to overlap later
// can be new collisions.
static void cnMarkOverlaps( cnPenaltySystem* sys, double t, const double* y )
{
	cnPenaltyLoadStage( sys, t, y );
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		cnPenaltyContact* pc = sys->contacts + i;
		cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
		cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
		cnManifoldPoint mps[CN_MAX_PAIR_POINTS];
		int mpCount = cnPenaltyCollide( sys, pc, &a, &b, 0.0, mps );
		pc->overlapCount = 0;
		pc->event = false;
		for ( int k = 0; k < mpCount; ++k )
		{
			if ( mps[k].separation <= 0.0 )
			{
				pc->overlapIds[pc->overlapCount++] = mps[k].id;
			}
		}
	}
}

// Resolves the collisions at the state y (time t) and writes the new velocities into y: every
// point within the touch distance takes part; those approaching faster than v_max get impulses,
// one after another in contact order, in rounds until none approaches faster than v_max, at most
// 2k rounds for the k points taking part (an impact travels along a row of touching bodies one
// contact per round when the contact order runs against it). Returns the number of impulses.
static int cnResolveImpacts( cnPenaltySystem* sys, double t, double* y, cnImpactPoint* points )
{
	const double vMax = CN_ANALYTIC_MAX_CONTACT_VELOCITY;
	cnPenaltyLoadStage( sys, t, y );

	int count = 0, colliding = 0;
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		cnPenaltyContact* pc = sys->contacts + i;
		cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
		cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
		cnManifoldPoint mps[CN_MAX_PAIR_POINTS];
		int mpCount = cnPenaltyCollide( sys, pc, &a, &b, CN_ANALYTIC_TOUCH_DISTANCE, mps );
		for ( int k = 0; k < mpCount; ++k )
		{
			const cnManifoldPoint* mp = mps + k;
			points[count++] = (cnImpactPoint){ i, mp->point, mp->normal };
			if ( cnNormalVelocity( &a, &b, mp->point, mp->normal ) < -vMax )
			{
				colliding += 1;
			}
		}
	}
	if ( colliding == 0 )
	{
		return 0;
	}

	int impulses = 0;
	for ( int round = 0; round < 2 * count; ++round )
	{
		bool any = false;
		for ( int i = 0; i < count; ++i )
		{
			const cnImpactPoint* ip = points + i;
			const cnPenaltyContact* pc = sys->contacts + ip->contact;
			int slotA = sys->slot[pc->bodyA], slotB = sys->slot[pc->bodyB];
			// bodies without a slot have infinite mass: a copy takes their (zero) velocity change
			cnPenaltyBody fixedA = cnPenaltyGetBody( sys, pc->bodyA );
			cnPenaltyBody fixedB = cnPenaltyGetBody( sys, pc->bodyB );
			cnPenaltyBody* a = slotA >= 0 ? sys->stage + slotA : &fixedA;
			cnPenaltyBody* b = slotB >= 0 ? sys->stage + slotB : &fixedB;
			if ( cnAnalyticImpulse( a, b, ip->point, ip->normal, pc->restitution, pc->friction, vMax, sys->planar ) >
				 0.0 )
			{
				any = true;
				impulses += 1;
			}
		}
		if ( any == false )
		{
			break;
		}
	}

	for ( int k = 0; k < sys->bodyCount; ++k )
	{
		double* s = y + CN_PENALTY_STRIDE * k;
		const cnPenaltyBody* p = sys->stage + k;
		s[7] = p->v.x, s[8] = p->v.y, s[9] = p->v.z;
		s[10] = p->w.x, s[11] = p->w.y, s[12] = p->w.z;
	}
	return impulses;
}

static bool cnStepAnalyticImpulse( cnWorld* world, double timeStep )
{
	cnPenaltySystem sys;
	if ( cnPenaltyBegin( world, &sys, timeStep ) == false )
	{
		return false;
	}
	if ( sys.bodyCount == 0 )
	{
		cnPenaltyFinish( &sys, sys.y0 );
		return true;
	}
	sys.analytic = true;

	int n = sys.n;
	double* y = cnArena_Alloc( &world->arena, (size_t)n * sizeof( double ) );
	double* probe = cnArena_Alloc( &world->arena, (size_t)n * sizeof( double ) );
	size_t pointCapacity = (size_t)( sys.contactCount > 0 ? sys.contactCount : 1 ) * CN_MAX_PAIR_POINTS;
	cnImpactPoint* points = cnArena_Alloc( &world->arena, pointCapacity * sizeof( cnImpactPoint ) );
	if ( y == NULL || probe == NULL || points == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory in the analytic-impulse step" );
	}
	memcpy( y, sys.y0, (size_t)n * sizeof( double ) );

	// collisions at the step start
	cnResolveImpacts( &sys, 0.0, y, points );
	cnMarkOverlaps( &sys, 0.0, y );

	double last = ( (cnAdaptiveState*)world->methodState )->lastStep;
	double h = last > 0.0 ? fmin( last, timeStep ) : timeStep;
	cnRk* rk = &sys.rk;
	cnRk_Reset( rk, 0.0, y, h );
	int steps = 0;
	while ( rk->t < timeStep )
	{
		if ( cnCheckCancel( world ) )
		{
			return false;
		}
		if ( ++steps > CN_PENALTY_MAX_STEPS )
		{
			return cnSetError( cnError_stepFailed, "analytic-impulse: more than %d internal steps in one step of %g s",
							   CN_PENALTY_MAX_STEPS, timeStep );
		}
		cnPenaltyRefresh( &sys, timeStep );
		cnRk_Prime( rk );
		if ( sys.jointCount > 0 )
		{
			cnPenaltySampleJoints( &sys, rk->t );
		}
		double hMax = cnPenaltyStepBound( &sys, rk->y );
		if ( cnRk_Step( rk, timeStep, hMax ) != cnRk_accepted )
		{
			return cnSetError( cnError_stepFailed, "analytic-impulse: step size underflow at t = %g (tolerance %g not reachable)",
							   world->time + rk->t, world->def.settings.penalty.errorTolerance );
		}

		if ( cnFindNewCollisions( &sys, rk->t, rk->y, false ) == false )
		{
			cnMarkOverlaps( &sys, rk->t, rk->y );
			continue;
		}

		// a new collision inside the last step: find the moment the surfaces meet on the dense output
		// (Newton-Raphson on the separation with bisection as fallback, contact_time.c, to 1e-12 m or
		// 1e-12 of the world step), resolve it there and restart the integrator from that state
		cnCollisionSearch cs = { &sys, probe, 0.0 };
		cnContactTimeSearch search = {
			.lo = rk->tOld,
			.hi = rk->t,
			.gTolerance = CN_ANALYTIC_CONTACT_TOLERANCE,
			.sTolerance = 1e-12 * timeStep,
			.maxIterations = 64,
		};
		cs.margin = cnCollisionMargin( &sys, rk->t - rk->tOld );
		search.gHi = cnCollisionGap( &cs, rk->t, &search.rateHi );
		cnFindContactTime( &search, cnCollisionGap, &cs );
		double tb = search.root;
		if ( tb <= rk->tOld + 2.0 * search.sTolerance )
		{
			// the point was already within the contact tolerance at the step's start but slower than
			// v_max there (resting on a facet, then driven fast into the next one of a mesh or
			// heightfield): resolving at the start would change nothing and the same step would find
			// it again forever. It is resolved where it was found fast, at the step's end.
			tb = rk->t;
		}
		if ( tb < rk->t )
		{
			cnRk_Interpolate( rk, tb, y );
		}
		else
		{
			memcpy( y, rk->y, (size_t)n * sizeof( double ) );
		}
		cnRecordContactTime( world, tb );
		cnResolveImpacts( &sys, tb, y, points );
		cnMarkOverlaps( &sys, tb, y );
		cnRk_Reset( rk, tb, y, rk->h );
	}
	cnPenaltyFinish( &sys, rk->y );
	return true;
}

const cnMethodModule cnAnalyticImpulseModule = {
	.method = cnMethod_analyticImpulse,
	.name = "analytic-impulse",
	.summary = "AERO's analytic impulses at impacts, penalty springs at rest",
	.flags = cnMethodFlag_adaptive | cnMethodFlag_friction | cnMethodFlag_planar | cnMethodFlag_joints,
	.validate = cnValidatePenaltySettings,
	.stateSize = sizeof( cnContactTimeState ),
	.step = cnStepAnalyticImpulse,
};
