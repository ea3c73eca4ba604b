// SPDX-License-Identifier: MIT
// Velocity-level contact methods: lcp, velocity-projection, gr-lcp, gr-velocity-projection.
//
// One step, after the narrow phase (docs/method-velocity.md has the derivations):
//  1. free velocities: qdot_minus = qdot + h M^-1 f (gravity, forces, drag, damping, gyroscopic
//     term) for every awake dynamic body, in the dof map's generalised coordinates;
//  2. active contact points: every point of a touching contact with at least one free body whose
//     separation is, or is predicted to become within this step, <= 0 (speculative points that
//     close during the step are resolved now, "bouncing at a distance"), one Jacobian row along
//     its normal and, for the friction LCP, one or two along tangents;
//  3. the response, per island of free bodies linked by active points (the problem is block
//     diagonal, so islands are solved apart):
//     lcp                 z >= 0 _|_ N^T M^-1 N z + (1 + e) vn >= 0 (Lemke, frictionless), or the
//                         boxed LCP with Coulomb friction rows (one solve, normal and friction)
//     velocity-projection qdot_plus = argmin 1/2 |v - qdot_minus|_M^2 s.t. N^T v + c >= 0
//     gr-*                the same response, repeated on the points still approaching until none
//                         is (Smith, Kaufman, Vouga, Tamstorf, Grinspun 2012)
//  4. positions: symplectic Euler moves bodies with qdot_plus, explicit Euler with the velocity
//     the step started with; shapes are updated and the step's forces cleared.
// Joints (velocity_joints.c) join the islands: their springs and motors act first, their equality
// rows are kept exactly and eliminated from the contact problem (the contact rows see the
// constrained inverse mass), their limits are unilateral rows beside the contact points.
#include "error.h"

#include "integrate.h"
#include "methods/bounce.h"
#include "methods/contact_system.h"
#include "methods/method.h"
#include "methods/velocity.h"
#include "solvers/lcp.h"
#include "solvers/qp.h"
#include "timer.h"
#include "union_find.h"

#include <math.h>
#include <string.h>

// Generalized reflection treats a point as approaching when its normal speed is below -tol, tol
// this fraction of the island's largest point speed (the sum of the terms |J_k qdot_k| that make up
// a normal speed, so the round-off of a resting or grazing contact never reads as an approach). A
// reflected point leaves the solve at -e vn up to the solver's accuracy: Lemke and the projection
// are exact to round-off (1e-12 relative); the boxed solver accepts conditions that hold to 1e-8 of
// its scale, so a point can stay at -1e-10 relative and would be reflected again and again.
#define CN_GR_APPROACH_TOL 1e-10
#define CN_GR_APPROACH_TOL_BOXED 1e-7

// Generalized reflection gives up after 1000 + this many reflections per point of the island (a
// Newton's cradle of N balls takes N - 1, a racked pool break a few dozen; a body wedged between
// two fixed bodies with e = 1 would reflect forever) and takes one simultaneous inelastic response
// for the island instead (cnStats.grFallbackCount).
#define CN_GR_ITERATIONS_PER_POINT 20

// A tangential slip below this (m/s) has no direction of its own: the tangents are then a fixed
// perpendicular pair.
#define CN_SLIP_DIRECTION_TOL 1e-10

// Position correction (cnWorldDef.positionCorrection): velocity-level contacts keep bodies from
// approaching, but an overlap that happened (a tumbling box's corner at 50 m/s, which the linear
// prediction of the step start misses) would stay for ever. After the positions are integrated, a
// few Gauss-Seidel passes over the step's points move positions (never velocities) to remove a
// fifth of each overlap beyond linearSlop per step, at most 0.2 m, as Box2D's position solver does.
#define CN_VELOCITY_CORRECTION_RATE 0.2
#define CN_VELOCITY_MAX_CORRECTION 0.2
#define CN_VELOCITY_CORRECTION_PASSES 4

// A Jacobian row along a direction in which no free body can move (a normal perpendicular to the
// plane of a planar world) has J M^-1 J^T = 0 and is left out: no impulse can change its velocity.

// Velocity of a body's material point at p: a free body's from the generalised velocity q, any
// other body's from its own state.
static cnVec3 cnPointVelocity( const cnVelocityStep* s, int body, cnVec3 p, const double* q )
{
	const cnBody* b = s->world->bodies + body;
	int o = s->map.offset[body];
	cnVec3 v = b->v, w = b->w;
	if ( o >= 0 )
	{
		const double* x = q + o;
		if ( s->dpb == 3 )
		{
			v = cnV3( x[0], x[1], 0.0 );
			w = cnV3( 0.0, 0.0, x[2] );
		}
		else
		{
			v = cnV3( x[0], x[1], x[2] );
			w = cnV3( x[3], x[4], x[5] );
		}
	}
	return cnAdd( v, cnCross( w, cnSub( p, b->center ) ) );
}

// One side of a row: d/dqdot of sign * dir . (v + w x r) = sign (dir, r x dir), and M^-1 of it
// (the same blocks as cnBuildMassMatrix and cnApplyInverseMass).
static void cnBuildSide( const cnVelocityStep* s, int body, cnVec3 point, cnVec3 dir, double sign, int* off, double* j,
						 double* mj )
{
	for ( int i = 0; i < 6; ++i )
	{
		j[i] = 0.0;
		mj[i] = 0.0;
	}
	*off = s->map.offset[body];
	if ( *off < 0 )
	{
		return;
	}
	const cnBody* b = s->world->bodies + body;
	int k = *off / s->dpb;
	cnVec3 rxd = cnCross( cnSub( point, b->center ), dir );
	if ( s->dpb == 3 )
	{
		j[0] = sign * dir.x, j[1] = sign * dir.y, j[2] = sign * rxd.z;
		mj[0] = b->invMass * j[0], mj[1] = b->invMass * j[1], mj[2] = s->invInertia[k].cz.z * j[2];
		if ( s->linearInvMass != NULL )
		{
			// a joint's geometric stiffness added to the body's translational mass (velocity_joints.c)
			cnVec3 vm = cnMulMV( s->linearInvMass[k], cnV3( j[0], j[1], 0.0 ) );
			mj[0] = vm.x, mj[1] = vm.y;
		}
		return;
	}
	j[0] = sign * dir.x, j[1] = sign * dir.y, j[2] = sign * dir.z;
	j[3] = sign * rxd.x, j[4] = sign * rxd.y, j[5] = sign * rxd.z;
	cnVec3 wm = cnMulMV( s->invInertia[k], cnV3( j[3], j[4], j[5] ) );
	mj[0] = b->invMass * j[0], mj[1] = b->invMass * j[1], mj[2] = b->invMass * j[2];
	mj[3] = wm.x, mj[4] = wm.y, mj[5] = wm.z;
	if ( s->linearInvMass != NULL )
	{
		cnVec3 vm = cnMulMV( s->linearInvMass[k], cnV3( j[0], j[1], j[2] ) );
		mj[0] = vm.x, mj[1] = vm.y, mj[2] = vm.z;
	}
}

static double cnDotN( const double* a, const double* b, int n )
{
	double sum = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		sum += a[i] * b[i];
	}
	return sum;
}

// Entry (i, j) of the Delassus matrix J M^-1 J^T: the rows meet only on bodies they share.
double cnVelocityCoupling( const cnVelocityStep* s, const cnVelocityRow* ri, const cnVelocityRow* rj )
{
	int d = s->dpb;
	double sum = 0.0;
	if ( ri->offA >= 0 )
	{
		sum += ri->offA == rj->offA ? cnDotN( ri->jA, rj->mA, d ) : 0.0;
		sum += ri->offA == rj->offB ? cnDotN( ri->jA, rj->mB, d ) : 0.0;
	}
	if ( ri->offB >= 0 )
	{
		sum += ri->offB == rj->offA ? cnDotN( ri->jB, rj->mA, d ) : 0.0;
		sum += ri->offB == rj->offB ? cnDotN( ri->jB, rj->mB, d ) : 0.0;
	}
	return sum;
}

// The row of the relative velocity along dir of body B's point pointB with respect to body A's
// point pointA (the same point for a normal row; each body's own surface point for a friction row).
static void cnBuildRow( const cnVelocityStep* s, const cnContact* c, cnVec3 pointA, cnVec3 pointB, cnVec3 dir,
						cnVelocityRow* row )
{
	cnBuildSide( s, c->bodyA, pointA, dir, -1.0, &row->offA, row->jA, row->mA );
	cnBuildSide( s, c->bodyB, pointB, dir, 1.0, &row->offB, row->jB, row->mB );
	row->fixed = cnFixedVelocity( s->world, &s->map, c->bodyA, c->bodyB, pointA, pointB, dir );
	row->diagonal = cnVelocityCoupling( s, row, row );
}

// J q + fixed.
double cnVelocityRowRate( const cnVelocityStep* s, const cnVelocityRow* row, const double* q )
{
	double v = row->fixed;
	if ( row->offA >= 0 )
	{
		v += cnDotN( row->jA, q + row->offA, s->dpb );
	}
	if ( row->offB >= 0 )
	{
		v += cnDotN( row->jB, q + row->offB, s->dpb );
	}
	return v;
}

// |fixed| + sum |J_k q_k|: the size of the terms that make up the row velocity, against which its
// round-off is measured.
static double cnRowMagnitude( const cnVelocityStep* s, const cnVelocityRow* row, const double* q )
{
	double sum = fabs( row->fixed );
	for ( int i = 0; i < s->dpb; ++i )
	{
		sum += row->offA >= 0 ? fabs( row->jA[i] * q[row->offA + i] ) : 0.0;
		sum += row->offB >= 0 ? fabs( row->jB[i] * q[row->offB + i] ) : 0.0;
	}
	return sum;
}

// q += M^-1 J^T z.
void cnVelocityApplyRow( const cnVelocityStep* s, const cnVelocityRow* row, double z, double* q )
{
	for ( int i = 0; i < s->dpb; ++i )
	{
		if ( row->offA >= 0 )
		{
			q[row->offA + i] += z * row->mA[i];
		}
		if ( row->offB >= 0 )
		{
			q[row->offB + i] += z * row->mB[i];
		}
	}
}

static void cnPackVelocity( int dpb, cnVec3 v, cnVec3 w, double* q )
{
	if ( dpb == 3 )
	{
		q[0] = v.x, q[1] = v.y, q[2] = w.z;
	}
	else
	{
		q[0] = v.x, q[1] = v.y, q[2] = v.z, q[3] = w.x, q[4] = w.y, q[5] = w.z;
	}
}

static void cnUnpackVelocity( int dpb, const double* q, cnVec3* v, cnVec3* w )
{
	if ( dpb == 3 )
	{
		*v = cnV3( q[0], q[1], 0.0 );
		*w = cnV3( 0.0, 0.0, q[2] );
	}
	else
	{
		*v = cnV3( q[0], q[1], q[2] );
		*w = cnV3( q[3], q[4], q[5] );
	}
}

// The restitution coefficient a point gets for normal speed vn: Newton's law acts only on
// approaching points, and the single-solve methods skip approach speeds below the world's
// restitution threshold (as the impulse method does) so resting contact does not jitter.
double cnVelocityRestitution( const cnVelocityStep* s, const cnVelocityPoint* p, double vn )
{
	if ( !( vn < 0.0 ) || p->restitution == 0.0 || s->inelastic )
	{
		return 0.0;
	}
	if ( s->gr == false && vn > -s->world->def.restitutionThreshold )
	{
		return 0.0;
	}
	return p->restitution;
}

static const char* cnLcpStatusText( cnLcpStatus status )
{
	switch ( status )
	{
		case cnLcp_ok:
			return "ok";
		case cnLcp_maxIterations:
			return "no solution within the pivot limit";
		case cnLcp_unbounded:
			return "ray termination: no impulses satisfy every contact";
		default:
			return "invalid data";
	}
}

const char* cnVelocityQpStatusText( cnQpStatus status )
{
	switch ( status )
	{
		case cnQp_ok:
			return "ok";
		case cnQp_infeasible:
			return "infeasible: no velocity satisfies every contact";
		case cnQp_maxIterations:
			return "no solution within the iteration limit";
		default:
			return "invalid data";
	}
}

// Largest violation of the boxed LCP conditions (lo <= z <= hi, z = lo => w >= 0, z = hi => w <= 0,
// inside => w = 0, friction rows bounded by mu times their normal's z), relative to |b| + |A| |z|
// for w and to |z| for the bounds. Lemke's problem is the case lo = 0, hi = inf.
double cnVelocityLcpViolation( int r, const double* A, const double* b, const double* lo, const double* hi,
							  const int* findex, const double* z )
{
	double zmax = 0.0, amax = 0.0, bmax = 0.0;
	for ( int i = 0; i < r; ++i )
	{
		zmax = fmax( zmax, fabs( z[i] ) );
		bmax = fmax( bmax, fabs( b[i] ) );
	}
	for ( int k = 0; k < r * r; ++k )
	{
		amax = fmax( amax, fabs( A[k] ) );
	}
	double wScale = bmax + amax * zmax > 0.0 ? bmax + amax * zmax : 1.0;
	double zScale = zmax > 0.0 ? zmax : 1.0;
	double worst = 0.0;
	for ( int i = 0; i < r; ++i )
	{
		double w = b[i];
		for ( int j = 0; j < r; ++j )
		{
			w += A[i + j * r] * z[j];
		}
		double l = lo[i], h = hi[i];
		if ( findex[i] >= 0 )
		{
			h = hi[i] * fmax( z[findex[i]], 0.0 );
			l = -h;
		}
		if ( !isfinite( z[i] ) || !isfinite( w ) )
		{
			return INFINITY;
		}
		worst = fmax( worst, fmax( l - z[i], z[i] - h ) / zScale );
		// distance from the bounds decides which sign w may have
		double toLo = ( z[i] - l ) / zScale, toHi = ( h - z[i] ) / zScale;
		double wr = w / wScale;
		double allowed = 0.0;
		if ( toLo <= CN_LCP_ACCEPT_TOL && toHi <= CN_LCP_ACCEPT_TOL )
		{
			allowed = fabs( wr );
		}
		else if ( toLo <= CN_LCP_ACCEPT_TOL )
		{
			allowed = fmax( wr, 0.0 );
		}
		else if ( toHi <= CN_LCP_ACCEPT_TOL )
		{
			allowed = fmax( -wr, 0.0 );
		}
		worst = fmax( worst, fabs( wr ) - allowed );
	}
	return worst;
}

// Adds impulses to the manifold point's record (shown by viewers; nothing reads it back).
void cnVelocityRecordImpulse( cnVelocityStep* s, const cnVelocityPoint* p, double normal, double t1, double t2 )
{
	if ( p->contact < 0 )
	{
		// a joint limit: the joint reports it
		s->jointRows[p->jointRow].impulse += normal;
		return;
	}
	cnManifoldPoint* mp = cnContactManifold( s->world->contacts + p->contact, p->manifold )->points + p->index;
	mp->normalImpulse += normal;
	mp->tangentImpulse1 += t1;
	mp->tangentImpulse2 += t2;
	mp->maxNormalImpulse = fmax( mp->maxNormalImpulse, normal );
}

// The LCP response of the points in set (indices into s->points) at the current velocity s->q:
// normal rows first, then the friction rows of the boxed solver. Adds M^-1 J^T z to s->q.
static bool cnSolveLcpSet( cnVelocityStep* s, const int* set, int count, bool* changed )
{
	cnWorld* world = s->world;
	int r = count;
	if ( s->friction )
	{
		for ( int i = 0; i < count; ++i )
		{
			const cnVelocityPoint* p = s->points + set[i];
			r += p->friction > 0.0 ? p->tangentCount : 0;
		}
	}

	// rows of the LCP: the normals, then each point's tangents
	const cnVelocityRow** rows = s->lcpRows;
	int k = count;
	for ( int i = 0; i < count; ++i )
	{
		const cnVelocityPoint* p = s->points + set[i];
		rows[i] = s->rows + p->row;
		s->lo[i] = 0.0;
		s->hi[i] = INFINITY;
		s->findex[i] = -1;
		double vn = cnVelocityRowRate( s, rows[i], s->q );
		// w = vn_plus + e vn_minus = A z + (1 + e) vn_minus; a point that does not bounce may close its
		// gap: w = vn_plus + s / h; a bouncing point's first solve: w = vn_plus - target
		double e = cnVelocityRestitution( s, p, vn );
		if ( p->bounces && s->firstSolve && s->inelastic == false )
		{
			s->b[i] = vn - p->bounceTarget;
		}
		else
		{
			s->b[i] = ( 1.0 + e ) * vn + ( e == 0.0 ? p->gapSpeed : 0.0 );
		}
		if ( s->friction && p->friction > 0.0 )
		{
			for ( int t = 0; t < p->tangentCount; ++t )
			{
				rows[k] = s->rows + p->tangentRows[t];
				s->lo[k] = 0.0;
				s->hi[k] = p->friction;
				s->findex[k] = i;
				s->b[k] = cnVelocityRowRate( s, rows[k], s->q );
				k += 1;
			}
		}
	}
	for ( int j = 0; j < r; ++j )
	{
		for ( int i = j; i < r; ++i )
		{
			double a = i == j ? rows[i]->diagonal : cnVelocityCoupling( s, rows[i], rows[j] );
			s->A[i + j * r] = a;
			s->A[j + i * r] = a;
		}
	}
	if ( s->elim != NULL )
	{
		// an island with joints: the rows see the constrained inverse mass (equality rows eliminated)
		cnVelocityEliminateLcp( s, rows, r, s->A );
	}

	cnLcpStatus status;
	if ( world->def.settings.velocity.lcpSolver == cnLcp_lemke )
	{
		status = cnSolveLcpLemke( r, s->A, s->b, s->z, 50 * r + 100 );
	}
	else
	{
		status = cnSolveBoxedLcp( r, s->A, s->b, s->lo, s->hi, s->findex, s->z, 50 * r + 100 );
	}
	if ( status != cnLcp_ok && cnVelocityLcpViolation( r, s->A, s->b, s->lo, s->hi, s->findex, s->z ) <= CN_LCP_ACCEPT_TOL )
	{
		status = cnLcp_ok;
	}
	bool withFriction = r > count;
	if ( status != cnLcp_ok && withFriction )
	{
		// The boxed solver can end without a solution: with restitution none need exist, and on
		// large redundant sets (toppling dominoes leaning on each other, 4-point face contacts) the
		// pivoting and the Lemke reduction can miss one in round-off. The points then take the
		// frictionless response this step, which always exists for contacts that can separate:
		// non-penetration and momentum are kept, friction is lost for one step. Counted in
		// cnStats.frictionFallbackCount.
		// The normal block, repacked in place from stride r to stride count: every entry moves to a
		// lower index than any entry not yet read.
		for ( int j = 0; j < count; ++j )
		{
			for ( int i = 0; i < count; ++i )
			{
				s->A[i + j * count] = s->A[i + j * r];
			}
		}
		r = count;
		withFriction = false;
		status = cnSolveLcpLemke( r, s->A, s->b, s->z, 50 * r + 100 );
		if ( status != cnLcp_ok && cnVelocityLcpViolation( r, s->A, s->b, s->lo, s->hi, s->findex, s->z ) <= CN_LCP_ACCEPT_TOL )
		{
			status = cnLcp_ok;
		}
		world->stats.frictionFallbackCount += status == cnLcp_ok ? 1 : 0;
	}
	if ( status != cnLcp_ok && withFriction == false )
	{
		// No impulses satisfy every normal row: a jammed set (jacks interlocked arm in arm, a body
		// squeezed between two that approach it) whose rigid LCP is infeasible by a hair, or whose
		// pivots stall in round-off. A little compliance, A + eps I (ODE's constraint force mixing),
		// makes it a P-matrix LCP, which has exactly one solution; eps grows from 1e-9 to 1e-3 of the
		// largest diagonal entry until Lemke finds it. The contacts then give way by at most eps z
		// of velocity: nothing a frame shows. Counted in cnStats.compliantFallbackCount.
		double largest = 0.0;
		for ( int i = 0; i < r; ++i )
		{
			largest = fmax( largest, s->A[i + i * r] );
		}
		for ( double eps = 1e-9; eps <= 1e-3 && status != cnLcp_ok; eps *= 1000.0 )
		{
			for ( int i = 0; i < r; ++i )
			{
				s->A[i + i * r] += eps * largest;
			}
			status = cnSolveLcpLemke( r, s->A, s->b, s->z, 50 * r + 100 );
			for ( int i = 0; i < r; ++i )
			{
				s->A[i + i * r] -= eps * largest;
			}
		}
		world->stats.compliantFallbackCount += status == cnLcp_ok ? 1 : 0;
	}
	if ( status != cnLcp_ok )
	{
		return cnSetError( cnError_stepFailed, "%s: the %s LCP over %d contact points failed (%s) at t = %g", s->name,
						   world->def.settings.velocity.lcpSolver == cnLcp_lemke ? "Lemke" : "boxed", count, cnLcpStatusText( status ),
						   world->time );
	}
	for ( int i = 0; i < r; ++i )
	{
		if ( !isfinite( s->z[i] ) )
		{
			return cnSetError( cnError_stepFailed, "%s: the LCP gave a non-finite impulse at t = %g", s->name, world->time );
		}
	}

	k = count;
	for ( int i = 0; i < count; ++i )
	{
		const cnVelocityPoint* p = s->points + set[i];
		// Lemke's z is >= 0 up to round-off; the boxed solver's bounds are exact
		double zn = s->z[i] > 0.0 ? s->z[i] : 0.0;
		s->z[i] = zn;
		*changed = *changed || zn != 0.0;
		cnVelocityApplyRow( s, rows[i], zn, s->q );
		double zt[2] = { 0.0, 0.0 };
		if ( withFriction && p->friction > 0.0 )
		{
			for ( int t = 0; t < p->tangentCount; ++t )
			{
				zt[t] = s->z[k];
				*changed = *changed || zt[t] != 0.0;
				cnVelocityApplyRow( s, rows[k], zt[t], s->q );
				k += 1;
			}
		}
		cnVelocityRecordImpulse( s, p, zn, zt[0], zt[1] );
	}
	if ( s->elim != NULL )
	{
		cnVelocityEliminateImpulses( s, r, s->z );
	}
	return true;
}

// The velocity projection of the points in set: minimise 1/2 v^T M v - v^T M q subject to
// N^T v + c >= 0 over the degrees of freedom of the bodies the points touch (Goldfarb-Idnani).
static bool cnSolveProjectionSet( cnVelocityStep* s, const int* set, int count, bool* changed )
{
	if ( s->elim != NULL )
	{
		// an island with joints: the same QP over the velocities its equality rows allow
		return cnVelocitySolveJointProjection( s, set, count, changed );
	}
	cnWorld* world = s->world;
	int d = s->dpb;

	// the bodies involved, in the order the points meet them
	int bodyCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		const cnVelocityRow* row = s->rows + s->points[set[i]].row;
		int offs[2] = { row->offA, row->offB };
		for ( int side = 0; side < 2; ++side )
		{
			if ( offs[side] >= 0 && s->localOf[offs[side] / d] < 0 )
			{
				s->localOf[offs[side] / d] = bodyCount;
				s->localBodies[bodyCount++] = offs[side] / d;
			}
		}
	}
	int n = bodyCount * d;

	// G = M (block diagonal), g0 = -M q
	memset( s->G, 0, (size_t)n * (size_t)n * sizeof( double ) );
	for ( int l = 0; l < bodyCount; ++l )
	{
		int k = s->localBodies[l];
		const cnBody* b = world->bodies + s->map.bodies[k];
		int o = l * d;
		for ( int i = 0; i < ( d == 3 ? 2 : 3 ); ++i )
		{
			s->G[( o + i ) + ( o + i ) * n] = b->mass;
		}
		if ( s->linearMass != NULL )
		{
			// a joint's geometric stiffness added to the translational mass (velocity_joints.c)
			cnVec3 cols[3] = { s->linearMass[k].cx, s->linearMass[k].cy, s->linearMass[k].cz };
			for ( int c = 0; c < ( d == 3 ? 2 : 3 ); ++c )
			{
				for ( int i = 0; i < ( d == 3 ? 2 : 3 ); ++i )
				{
					s->G[( o + i ) + ( o + c ) * n] = cnGet( cols[c], i );
				}
			}
		}
		if ( d == 3 )
		{
			s->G[( o + 2 ) + ( o + 2 ) * n] = s->inertia[k].cz.z;
		}
		else
		{
			cnVec3 cols[3] = { s->inertia[k].cx, s->inertia[k].cy, s->inertia[k].cz };
			for ( int c = 0; c < 3; ++c )
			{
				s->G[( o + 3 ) + ( o + 3 + c ) * n] = cols[c].x;
				s->G[( o + 4 ) + ( o + 3 + c ) * n] = cols[c].y;
				s->G[( o + 5 ) + ( o + 3 + c ) * n] = cols[c].z;
			}
		}
	}
	for ( int l = 0; l < bodyCount; ++l )
	{
		int o = l * d, og = s->localBodies[l] * d;
		for ( int i = 0; i < d; ++i )
		{
			double sum = 0.0;
			for ( int j = 0; j < d; ++j )
			{
				sum += s->G[( o + i ) + ( o + j ) * n] * s->q[og + j];
			}
			s->g0[o + i] = -sum;
		}
	}

	// constraints: column i of CI is point i's normal row, ci0 its fixed velocity plus e vn
	memset( s->CI, 0, (size_t)n * (size_t)count * sizeof( double ) );
	for ( int i = 0; i < count; ++i )
	{
		const cnVelocityPoint* p = s->points + set[i];
		const cnVelocityRow* row = s->rows + p->row;
		double* col = s->CI + (size_t)i * (size_t)n;
		if ( row->offA >= 0 )
		{
			memcpy( col + s->localOf[row->offA / d] * d, row->jA, (size_t)d * sizeof( double ) );
		}
		if ( row->offB >= 0 )
		{
			memcpy( col + s->localOf[row->offB / d] * d, row->jB, (size_t)d * sizeof( double ) );
		}
		double vn = cnVelocityRowRate( s, row, s->q );
		double e = cnVelocityRestitution( s, p, vn );
		if ( p->bounces && s->firstSolve && s->inelastic == false )
		{
			// N^T v + fixed >= target
			s->ci0[i] = row->fixed - p->bounceTarget;
		}
		else
		{
			s->ci0[i] = row->fixed + e * vn + ( e == 0.0 ? p->gapSpeed : 0.0 );
		}
	}

	cnQpStatus status = cnSolveQpGoldfarbIdnani( n, s->G, s->g0, count, s->CI, s->ci0, s->x, s->lambda,
												 20 * ( n + count ) + 100 );
	for ( int l = 0; l < bodyCount; ++l )
	{
		s->localOf[s->localBodies[l]] = -1;
	}
	if ( status != cnQp_ok )
	{
		return cnSetError( cnError_stepFailed, "%s: the projection QP over %d contact points failed (%s) at t = %g", s->name, count,
						   cnVelocityQpStatusText( status ), world->time );
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( !isfinite( s->x[i] ) )
		{
			return cnSetError( cnError_stepFailed, "%s: the projection gave a non-finite velocity at t = %g", s->name, world->time );
		}
	}
	for ( int l = 0; l < bodyCount; ++l )
	{
		for ( int i = 0; i < d; ++i )
		{
			*changed = *changed || s->q[s->localBodies[l] * d + i] != s->x[l * d + i];
			s->q[s->localBodies[l] * d + i] = s->x[l * d + i];
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		cnVelocityRecordImpulse( s, s->points + set[i], s->lambda[i] > 0.0 ? s->lambda[i] : 0.0, 0.0, 0.0 );
	}
	return true;
}

// The response of the points in set; changed tells whether any velocity moved.
static bool cnSolveSet( cnVelocityStep* s, const int* set, int count, bool* changed )
{
	*changed = false;
	return s->projection ? cnSolveProjectionSet( s, set, count, changed ) : cnSolveLcpSet( s, set, count, changed );
}

// Moves a body by a position impulse P applied at r (from its centre): centre by P / m, orientation
// by I^-1 (r x P) (a rotation vector), in the plane in planar worlds.
static void cnPushBody( const cnVelocityStep* s, cnBody* b, int k, cnVec3 r, cnVec3 P )
{
	cnVec3 dx = cnMulSV( b->invMass, P );
	cnVec3 dtheta = cnMulMV( s->invInertia[k], cnCross( r, P ) );
	if ( s->world->def.planar )
	{
		dx.z = 0.0;
		dtheta = cnV3( 0.0, 0.0, s->invInertia[k].cz.z * cnCross( r, P ).z );
	}
	b->center = cnAdd( b->center, dx );
	b->xf.q = cnIntegrateRotation( b->xf.q, dtheta, 1.0 );
	b->xf.p = cnSub( b->center, cnRotate( b->xf.q, b->localCenter ) );
}

// The position correction stage (see CN_VELOCITY_CORRECTION_RATE). Each point's separation is
// followed from the step start to first order in the bodies' motion: its anchors (each body's
// surface point) turn with the bodies (startQ: orientations at the step start) and move with them.
static void cnCorrectPositions( cnVelocityStep* s, const cnQuat* startQ )
{
	cnWorld* world = s->world;
	const double slop = world->def.linearSlop;
	for ( int pass = 0; pass < CN_VELOCITY_CORRECTION_PASSES; ++pass )
	{
		bool moved = false;
		for ( int i = 0; i < s->contactPointCount; ++i )
		{
			const cnVelocityPoint* p = s->points + i;
			const cnContact* c = world->contacts + p->contact;
			const cnManifoldPoint* mp = cnContactManifold( c, p->manifold )->points + p->index;
			int kA = s->map.offset[c->bodyA] >= 0 ? s->map.offset[c->bodyA] / s->dpb : -1;
			int kB = s->map.offset[c->bodyB] >= 0 ? s->map.offset[c->bodyB] / s->dpb : -1;
			cnBody* a = world->bodies + c->bodyA;
			cnBody* b = world->bodies + c->bodyB;
			cnVec3 n = mp->normal;
			cnVec3 rA = cnRotate( a->xf.q, cnInvRotate( startQ[c->bodyA], mp->anchorA ) );
			cnVec3 rB = cnRotate( b->xf.q, cnInvRotate( startQ[c->bodyB], mp->anchorB ) );
			// the anchors are the bodies' own surface points: their distance along the normal is the
			// separation (at the step start, the narrow phase's)
			double separation = cnDot( n, cnSub( cnAdd( b->center, rB ), cnAdd( a->center, rA ) ) );
			double C = fmax( CN_VELOCITY_CORRECTION_RATE * ( separation + slop ), -CN_VELOCITY_MAX_CORRECTION );
			if ( !( C < 0.0 ) )
			{
				continue;
			}
			double K = 0.0;
			if ( kA >= 0 )
			{
				cnVec3 rn = cnCross( rA, n );
				K += a->invMass + cnDot( rn, cnMulMV( s->invInertia[kA], rn ) );
			}
			if ( kB >= 0 )
			{
				cnVec3 rn = cnCross( rB, n );
				K += b->invMass + cnDot( rn, cnMulMV( s->invInertia[kB], rn ) );
			}
			if ( !( K > 0.0 ) )
			{
				continue;
			}
			cnVec3 P = cnMulSV( -C / K, n );
			if ( kA >= 0 )
			{
				cnPushBody( s, a, kA, rA, cnNeg( P ) );
			}
			if ( kB >= 0 )
			{
				cnPushBody( s, b, kB, rB, P );
			}
			moved = true;
		}
		if ( moved == false )
		{
			break;
		}
	}
}

// Ends generalized reflection that did not finish within its passes (a body wedged between fixed
// bodies reflects forever with e = 1; with e < 1 a pile can pass impulses back and forth for longer
// than the cap): the island goes back to its velocities before the contact response and takes one
// simultaneous inelastic response over all its points, which ends every approach at once. Momentum
// is kept and impulses only push; energy is lost where the reflections would have kept it. Counted
// in cnStats.grFallbackCount.
static bool cnFinishInelastic( cnVelocityStep* s, const int* points, int count )
{
	cnJointElimination* elim = s->elim;
	if ( elim != NULL )
	{
		// an island with joints: its bodies go back to their velocities after the joints' own
		// response, and the impulses of the passes are forgotten
		for ( int l = 0; l < elim->bodyCount; ++l )
		{
			int o = elim->bodies[l] * s->dpb;
			memcpy( s->q + o, elim->qBase + l * s->dpb, (size_t)s->dpb * sizeof( double ) );
		}
		for ( int k = 0; k < elim->count; ++k )
		{
			elim->lambda[k] = 0.0;
			elim->projected[k] = 0.0;
		}
		for ( int i = 0; i < count; ++i )
		{
			const cnVelocityPoint* p = s->points + points[i];
			if ( p->contact < 0 )
			{
				s->jointRows[p->jointRow].impulse = 0.0;
			}
		}
	}
	// the island's dofs are those its rows touch; islands are independent, so qMinus holds their
	// velocities before this island's passes
	for ( int i = 0; elim == NULL && i < count; ++i )
	{
		const cnVelocityRow* row = s->rows + s->points[points[i]].row;
		int offsets[2] = { row->offA, row->offB };
		for ( int side = 0; side < 2; ++side )
		{
			for ( int k = 0; offsets[side] >= 0 && k < s->dpb; ++k )
			{
				s->q[offsets[side] + k] = s->qMinus[offsets[side] + k];
			}
		}
	}
	bool changed;
	s->inelastic = true;
	bool ok = cnSolveSet( s, points, count, &changed );
	s->inelastic = false;
	s->world->stats.grFallbackCount += 1;
	return ok;
}

// One island: a single response (lcp, velocity-projection) or generalized reflection: the response
// restricted to the points still approaching, repeated until none approaches. With e = 1 each
// reflection keeps the kinetic energy (the projection P onto the cone of the approaching points
// satisfies <P, P - q>_M = 0, so |2P - q|_M = |q|_M), so the sequence conserves momentum and
// energy and lets bodies separate one contact at a time.
bool cnVelocitySolveIsland( cnVelocityStep* s, const int* points, int count )
{
	bool changed;
	if ( s->gr == false )
	{
		s->firstSolve = true;
		return cnSolveSet( s, points, count, &changed );
	}

	double scale = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		scale = fmax( scale, cnRowMagnitude( s, s->rows + s->points[points[i]].row, s->q ) );
	}
	bool boxed = s->projection == false && s->world->def.settings.velocity.lcpSolver == cnLcp_dantzig;
	double tol = ( boxed ? CN_GR_APPROACH_TOL_BOXED : CN_GR_APPROACH_TOL ) * scale;
	int cap = 1000 + CN_GR_ITERATIONS_PER_POINT * count;
	for ( int iteration = 0;; ++iteration )
	{
		int approaching = 0;
		for ( int i = 0; i < count; ++i )
		{
			// (a joint limit not yet reached approaches only when it would pass its gap)
			const cnVelocityPoint* p = s->points + points[i];
			if ( cnVelocityRowRate( s, s->rows + p->row, s->q ) + p->gapSpeed < -tol )
			{
				s->set[approaching++] = points[i];
			}
		}
		if ( approaching == 0 )
		{
			return true;
		}
		if ( iteration == cap )
		{
			return cnFinishInelastic( s, points, count );
		}
		s->firstSolve = iteration == 0;
		if ( cnSolveSet( s, s->set, approaching, &changed ) == false )
		{
			return false;
		}
		if ( changed == false )
		{
			// the solver finds the approach within its accuracy: nothing is left to reflect
			return true;
		}
	}
}

// Collects the active points and their rows (and resets the manifold points' impulse records).
static void cnCollectPoints( cnVelocityStep* s )
{
	cnWorld* world = s->world;
	int capacity = 0;
	for ( int i = 0; i < world->contactCount; ++i )
	{
		capacity += cnContactPointCount( world->contacts + i );
	}
	// room for the joints' rows (and their limits as points) after the contacts'
	int extra = s->jointCapacity;
	s->points = cnArena_Alloc( &world->arena, (size_t)( capacity + extra > 0 ? capacity + extra : 1 ) * sizeof( cnVelocityPoint ) );
	s->rows = cnArena_Alloc( &world->arena, (size_t)( capacity + extra > 0 ? 3 * capacity + extra : 1 ) * sizeof( cnVelocityRow ) );
	s->pointCount = 0;
	s->rowCount = 0;
	bool explicitEuler = world->def.settings.velocity.integrator == cnIntegrator_explicitEuler;
	// speculative contacts need the new velocity to be the one that moves the bodies this step, and
	// would break generalized reflection's energy balance (a reflection from a distance)
	bool speculative = world->def.settings.velocity.speculativeContacts && explicitEuler == false && s->gr == false;
	bool bounceTargets = world->def.settings.velocity.speculativeContacts && explicitEuler == false;

	for ( int ci = 0; ci < world->contactCount; ++ci )
	{
		cnContact* c = world->contacts + ci;
		if ( ( c->flags & cnContact_touching ) == 0 || c->manifoldCount == 0 )
		{
			continue;
		}
		if ( s->map.offset[c->bodyA] < 0 && s->map.offset[c->bodyB] < 0 )
		{
			continue;
		}
		for ( int mi = 0; mi < c->manifoldCount; ++mi )
		{
			cnManifold* m = cnContactManifold( c, mi );
			for ( int pi = 0; pi < m->pointCount; ++pi )
			{
				cnManifoldPoint* mp = m->points + pi;
				mp->normalImpulse = 0.0;
				mp->tangentImpulse1 = 0.0;
				mp->tangentImpulse2 = 0.0;
				mp->maxNormalImpulse = 0.0;

				cnVec3 normal = mp->normal;
				double len2 = cnLengthSquared( normal );
				if ( !( fabs( len2 - 1.0 ) < 1e-6 ) )
				{
					normal = m->normal;
				}

				// the normal row acts along the normal, where the point along it does not matter
				cnVelocityRow* row = s->rows + s->rowCount;
				cnBuildRow( s, c, mp->point, mp->point, normal, row );
				if ( !( row->diagonal > 0.0 ) )
				{
					continue;
				}

				// active now, or closing within the step: the velocity that moves the bodies this step
				// is qdot_plus (symplectic) or the start velocity followed by qdot_minus (explicit)
				double sep = mp->separation;
				double vnMinus = cnVelocityRowRate( s, row, s->qMinus );
				double predicted = sep + s->h * vnMinus;
				if ( explicitEuler )
				{
					double vnOld = cnVelocityRowRate( s, row, s->qOld );
					predicted = fmin( sep + s->h * vnOld, sep + s->h * ( vnOld + vnMinus ) );
				}
				mp->relativeVelocity = vnMinus;
				if ( fmin( sep, predicted ) > CN_VELOCITY_ACTIVE_TOL )
				{
					continue;
				}

				cnVelocityPoint* p = s->points + s->pointCount;
				p->contact = ci;
				p->manifold = mi;
				p->index = pi;
				p->jointRow = -1;
				p->row = s->rowCount++;
				p->restitution = c->restitution;
				p->gapSpeed = speculative && sep > 0.0 ? sep / s->h : 0.0;
				// the energy-consistent bounce (cnBounceSpeed) replaces FOSSSim's law at the step's
				// end, which the FOSSSim scenes keep (speculativeContacts off there)
				p->bounces = false;
				if ( bounceTargets && c->restitution > 0.0 )
				{
					double vnOld = cnVelocityRowRate( s, row, s->qOld );
					double a = ( vnMinus - vnOld ) / s->h;
					double s0 = sep > 0.0 ? sep : 0.0;
					bool approaching = vnOld < 0.0 || ( s0 > 0.0 && vnMinus < 0.0 );
					double threshold = s->gr ? 0.0 : world->def.restitutionThreshold;
					if ( approaching && cnImpactSpeedSquared( s0, vnOld, a ) > threshold * threshold &&
						 cnBounceSpeed( s0, vnOld, a, s->h, c->restitution, s0, true, &p->bounceTarget ) &&
						 p->bounceTarget >= -s0 / s->h )
					{
						p->bounces = true;
					}
				}
				p->friction = c->friction;
				p->body = s->map.offset[c->bodyA] >= 0 ? s->map.offset[c->bodyA] / s->dpb : s->map.offset[c->bodyB] / s->dpb;
				p->tangentCount = 0;

				if ( s->friction && c->friction > 0.0 )
				{
					cnVec3 tangents[2];
					int tangentCount = 0;
					if ( s->dpb == 3 )
					{
						// the in-plane tangent; the out-of-plane one has no free dof
						cnVec3 t = cnCross( normal, cnV3( 0.0, 0.0, 1.0 ) );
						if ( cnLengthSquared( t ) > 1e-12 )
						{
							tangents[tangentCount++] = cnNormalize( t );
						}
					}
					else
					{
						// the first tangent follows the slip, so a sliding point meets the full mu N
						// (the friction pyramid's box is exact along its axes)
						cnVec3 vRel = cnSub( cnPointVelocity( s, c->bodyB, mp->point, s->qMinus ),
											 cnPointVelocity( s, c->bodyA, mp->point, s->qMinus ) );
						cnVec3 slip = cnMulSub( vRel, cnDot( vRel, normal ), normal );
						double slipSpeed = cnLength( slip );
						cnVec3 t1 = slipSpeed > CN_SLIP_DIRECTION_TOL ? cnMulSV( 1.0 / slipSpeed, slip ) : cnPerp( normal );
						tangents[tangentCount++] = t1;
						tangents[tangentCount++] = cnCross( normal, t1 );
					}
					// friction acts where the bodies meet: at each body's own surface point, half the
					// separation either side of the manifold point (for a speculative point, the
					// midpoint would lie in the gap and lengthen both lever arms)
					cnVec3 pointA = cnMulSub( mp->point, 0.5 * sep, normal );
					cnVec3 pointB = cnMulAdd( mp->point, 0.5 * sep, normal );
					for ( int t = 0; t < tangentCount; ++t )
					{
						cnVelocityRow* tr = s->rows + s->rowCount;
						cnBuildRow( s, c, pointA, pointB, tangents[t], tr );
						if ( tr->diagonal > 0.0 )
						{
							p->tangentRows[p->tangentCount++] = s->rowCount++;
						}
					}
				}
				s->pointCount += 1;
			}
		}
	}
	s->contactPointCount = s->pointCount;
}

// One step of a velocity-level method: the LCP (projection false) or the projection QP, once or
// by generalized reflection.
static bool cnStepVelocityLevel( cnWorld* world, double timeStep, bool projection, bool reflection )
{
	double t0 = cnSeconds();
	cnVelocityStep step = { 0 };
	cnVelocityStep* s = &step;
	s->world = world;
	s->h = timeStep;
	s->gr = reflection;
	s->projection = projection;
	s->friction = s->projection == false && world->def.settings.velocity.lcpSolver == cnLcp_dantzig;
	s->name = world->module->name;

	cnBuildDofMap( world, &s->map );
	s->dpb = s->map.dofsPerBody;
	int n = s->map.n, bodyCount = s->map.bodyCount, d = s->dpb;
	size_t nn = (size_t)( n > 0 ? n : 1 ), nb = (size_t)( bodyCount > 0 ? bodyCount : 1 );
	s->inertia = cnArena_Alloc( &world->arena, nb * sizeof( cnMat3 ) );
	s->invInertia = cnArena_Alloc( &world->arena, nb * sizeof( cnMat3 ) );
	s->qOld = cnArena_Alloc( &world->arena, nn * sizeof( double ) );
	s->qMinus = cnArena_Alloc( &world->arena, nn * sizeof( double ) );
	s->q = cnArena_Alloc( &world->arena, nn * sizeof( double ) );

	// 1. free velocities
	for ( int k = 0; k < bodyCount; ++k )
	{
		const cnBody* b = world->bodies + s->map.bodies[k];
		s->inertia[k] = cnRotateTensor( b->xf.q, b->inertia );
		s->invInertia[k] = cnRotateTensor( b->xf.q, b->invInertia );
		cnVec3 v = b->v, w = b->w;
		cnProjectPlanar( world, &v, &w );
		cnPackVelocity( d, v, w, s->qOld + k * d );
		v = cnIntegrateLinearVelocity( world, b, b->v, timeStep );
		w = cnIntegrateAngularVelocity( b, b->xf.q, b->w, timeStep );
		cnProjectPlanar( world, &v, &w );
		cnPackVelocity( d, v, w, s->qMinus + k * d );
	}
	memcpy( s->q, s->qMinus, (size_t)n * sizeof( double ) );
	double integrateSeconds = cnSeconds() - t0;

	// the joints' geometric stiffness, where the step cannot resolve it, joins the inertia
	cnVelocityJointInertia( s );

	// 2. active points (room kept for the joints' rows after them)
	s->jointCapacity = cnVelocityJointCapacity( world );
	cnCollectPoints( s );

	if ( world->captureTarget != NULL && world->captureTarget->captured == false && s->contactPointCount > 0 )
	{
		if ( cnVelocityCaptureSystem( s, world->captureTarget ) == false )
		{
			return false;
		}
		// a request is for one system
		world->captureTarget = NULL;
	}

	// joints: their rows at the step start, their limits as points
	cnVelocityCollectJointRows( s );

	// 3. islands: free bodies linked through points between two free bodies, and through joints
	if ( s->pointCount > 0 || s->jointRowCount > 0 )
	{
		int* parent = cnArena_Alloc( &world->arena, nb * sizeof( int ) );
		cnUnionFind_Reset( parent, bodyCount );
		for ( int i = 0; i < s->pointCount; ++i )
		{
			const cnVelocityRow* row = s->rows + s->points[i].row;
			if ( row->offA >= 0 && row->offB >= 0 )
			{
				cnUnionFind_Union( parent, row->offA / d, row->offB / d );
			}
		}
		for ( int i = 0; i < s->jointRowCount; ++i )
		{
			const cnVelocityRow* row = s->rows + s->jointRows[i].row;
			if ( row->offA >= 0 && row->offB >= 0 )
			{
				cnUnionFind_Union( parent, row->offA / d, row->offB / d );
			}
		}

		// points grouped by island (counting sort on the root, stable in point order)
		int* start = cnArena_Alloc( &world->arena, ( nb + 1 ) * sizeof( int ) );
		int* islandBodies = cnArena_Alloc( &world->arena, nb * sizeof( int ) );
		memset( start, 0, ( nb + 1 ) * sizeof( int ) );
		memset( islandBodies, 0, nb * sizeof( int ) );
		int* order = cnArena_Alloc( &world->arena, (size_t)s->pointCount * sizeof( int ) );
		for ( int i = 0; i < s->pointCount; ++i )
		{
			s->points[i].body = cnUnionFind_Find( parent, s->points[i].body );
			start[s->points[i].body + 1] += 1;
		}
		for ( int k = 0; k < bodyCount; ++k )
		{
			islandBodies[cnUnionFind_Find( parent, k )] += 1;
		}
		int maxPoints = 0, maxBodies = 0, maxRows = 0;
		for ( int k = 0; k < bodyCount; ++k )
		{
			maxPoints = start[k + 1] > maxPoints ? start[k + 1] : maxPoints;
			maxBodies = islandBodies[k] > maxBodies ? islandBodies[k] : maxBodies;
			start[k + 1] += start[k];
		}
		maxRows = ( s->friction ? 1 + ( d == 3 ? 1 : 2 ) : 1 ) * maxPoints;
		int* fill = cnArena_Alloc( &world->arena, nb * sizeof( int ) );
		memcpy( fill, start, nb * sizeof( int ) );
		for ( int i = 0; i < s->pointCount; ++i )
		{
			order[fill[s->points[i].body]++] = i;
		}

		// joint rows grouped by island the same way; the most equality rows of an island
		int* jointStart = NULL;
		int* jointOrder = NULL;
		int maxEq = 0;
		if ( s->jointRowCount > 0 )
		{
			jointStart = cnArena_Alloc( &world->arena, ( nb + 1 ) * sizeof( int ) );
			jointOrder = cnArena_Alloc( &world->arena, (size_t)s->jointRowCount * sizeof( int ) );
			int* eq = cnArena_Alloc( &world->arena, nb * sizeof( int ) );
			memset( jointStart, 0, ( nb + 1 ) * sizeof( int ) );
			memset( eq, 0, nb * sizeof( int ) );
			for ( int i = 0; i < s->jointRowCount; ++i )
			{
				cnVelocityJointRow* jr = s->jointRows + i;
				jr->body = cnUnionFind_Find( parent, jr->body );
				jointStart[jr->body + 1] += 1;
				eq[jr->body] += jr->type == cnJointRow_equality ? 1 : 0;
			}
			for ( int k = 0; k < bodyCount; ++k )
			{
				maxEq = eq[k] > maxEq ? eq[k] : maxEq;
				jointStart[k + 1] += jointStart[k];
			}
			memcpy( fill, jointStart, nb * sizeof( int ) );
			for ( int i = 0; i < s->jointRowCount; ++i )
			{
				jointOrder[fill[s->jointRows[i].body]++] = i;
			}
			s->jointIslandStart = jointStart;
			s->jointIslandOrder = jointOrder;
		}

		// scratch for the largest island (its equality rows too take the dense solvers' limit)
		size_t r = (size_t)maxRows, p = (size_t)maxPoints, ln = (size_t)maxBodies * (size_t)d;
		int size = s->projection ? ( maxBodies * d > maxPoints ? maxBodies * d : maxPoints ) : maxRows;
		size = maxEq > size ? maxEq : size;
		if ( size > CN_VELOCITY_MAX_ISLAND_SIZE )
		{
			return cnSetError( cnError_stepFailed, "%s: an island of %d bodies and %d contact points (%d %s) exceeds the dense solver's limit "
							   "of %d at t = %g; use the impulse method for scenes this large",
							   s->name, maxBodies, maxPoints, size, s->projection ? "QP unknowns or constraints" : "LCP rows",
							   CN_VELOCITY_MAX_ISLAND_SIZE, world->time );
		}
		s->set = cnArena_Alloc( &world->arena, p * sizeof( int ) );
		if ( s->projection )
		{
			s->G = cnArena_Alloc( &world->arena, ln * ln * sizeof( double ) );
			s->g0 = cnArena_Alloc( &world->arena, ln * sizeof( double ) );
			s->CI = cnArena_Alloc( &world->arena, ln * p * sizeof( double ) );
			s->ci0 = cnArena_Alloc( &world->arena, p * sizeof( double ) );
			s->x = cnArena_Alloc( &world->arena, ln * sizeof( double ) );
			s->lambda = cnArena_Alloc( &world->arena, p * sizeof( double ) );
			s->localBodies = cnArena_Alloc( &world->arena, nb * sizeof( int ) );
			s->localOf = cnArena_Alloc( &world->arena, nb * sizeof( int ) );
			for ( int k = 0; k < bodyCount; ++k )
			{
				s->localOf[k] = -1;
			}
		}
		else
		{
			s->lcpRows = cnArena_Alloc( &world->arena, r * sizeof( cnVelocityRow* ) );
			s->A = cnArena_Alloc( &world->arena, r * r * sizeof( double ) );
			s->b = cnArena_Alloc( &world->arena, r * sizeof( double ) );
			s->z = cnArena_Alloc( &world->arena, r * sizeof( double ) );
			s->lo = cnArena_Alloc( &world->arena, r * sizeof( double ) );
			s->hi = cnArena_Alloc( &world->arena, r * sizeof( double ) );
			s->findex = cnArena_Alloc( &world->arena, r * sizeof( int ) );
		}

		for ( int k = 0; k < bodyCount; ++k )
		{
			int count = start[k + 1] - start[k];
			int joints = jointStart != NULL ? jointStart[k + 1] - jointStart[k] : 0;
			if ( joints > 0 )
			{
				if ( cnCheckCancel( world ) ||
					 cnVelocitySolveJointIsland( s, order + start[k], count, jointOrder + jointStart[k], joints ) == false )
				{
					return false;
				}
			}
			else if ( count > 0 && ( cnCheckCancel( world ) || cnVelocitySolveIsland( s, order + start[k], count ) == false ) )
			{
				return false;
			}
		}
		cnVelocityStoreJointImpulses( s );
	}

	for ( int i = 0; i < n; ++i )
	{
		if ( !isfinite( s->q[i] ) )
		{
			return cnSetError( cnError_stepFailed, "%s: non-finite velocity after the contact solve at t = %g", s->name, world->time );
		}
	}

	// 4. positions. Symplectic Euler: x += h qdot_plus. Explicit Euler (FOSSSim's): x += h qdot with
	// the velocity the step started with, then the velocity becomes qdot_plus.
	double t1 = cnSeconds();
	bool correct = world->def.settings.velocity.positionCorrection && s->contactPointCount > 0;
	cnQuat* startQ = NULL;
	if ( correct )
	{
		startQ = cnArena_Alloc( &world->arena, (size_t)world->bodyCount * sizeof( cnQuat ) );
		for ( int i = 0; i < world->bodyCount; ++i )
		{
			startQ[i] = world->bodies[i].xf.q;
		}
	}
	bool explicitEuler = world->def.settings.velocity.integrator == cnIntegrator_explicitEuler;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( b->alive == false || b->type == cnBody_static || b->awake == false )
		{
			continue;
		}
		int o = s->map.offset[i];
		if ( o >= 0 )
		{
			cnVec3 v, w;
			cnUnpackVelocity( d, s->q + o, &v, &w );
			if ( explicitEuler )
			{
				cnUnpackVelocity( d, s->qOld + o, &b->v, &b->w );
				cnIntegrateBodyPosition( b, timeStep );
			}
			b->v = v;
			b->w = w;
			if ( explicitEuler == false )
			{
				cnIntegrateBodyPosition( b, timeStep );
			}
		}
		else
		{
			// kinematic: moves with its prescribed velocity
			cnIntegrateBodyPosition( b, timeStep );
		}
	}

	// 5. position correction (the finish stage then moves the shapes with their bodies)
	if ( correct )
	{
		cnCorrectPositions( s, startQ );
	}
	if ( s->jointIslandStart != NULL )
	{
		cnVelocityProjectJointPositions( s );
	}
	integrateSeconds += cnSeconds() - t1;
	world->stats.integrateMs = 1000.0 * integrateSeconds;
	return true;
}

static bool cnStepLcp( cnWorld* world, double timeStep )
{
	return cnStepVelocityLevel( world, timeStep, false, false );
}

static bool cnStepVelocityProjection( cnWorld* world, double timeStep )
{
	return cnStepVelocityLevel( world, timeStep, true, false );
}

static bool cnStepGrLcp( cnWorld* world, double timeStep )
{
	return cnStepVelocityLevel( world, timeStep, false, true );
}

static bool cnStepGrVelocityProjection( cnWorld* world, double timeStep )
{
	return cnStepVelocityLevel( world, timeStep, true, true );
}

static const char* cnValidateVelocity( const cnMethodSettings* settings )
{
	const cnVelocitySettings* s = &settings->velocity;
	if ( (int)s->lcpSolver < 0 || s->lcpSolver > cnLcp_lemke )
	{
		return "velocity settings: unknown LCP solver";
	}
	if ( (int)s->integrator < 0 || s->integrator > cnIntegrator_explicitEuler )
	{
		return "velocity settings: unknown integrator";
	}
	return NULL;
}

const cnMethodModule cnLcpModule = {
	.method = cnMethod_lcp,
	.name = "lcp",
	.summary = "velocity-level LCP: Lemke (frictionless) or a boxed LCP with Coulomb friction",
	.flags = cnMethodFlag_velocityLevel | cnMethodFlag_friction | cnMethodFlag_planar | cnMethodFlag_joints,
	.validate = cnValidateVelocity,
	.step = cnStepLcp,
};

const cnMethodModule cnVelocityProjectionModule = {
	.method = cnMethod_velocityProjection,
	.name = "velocity-projection",
	.summary = "M-norm projection of the velocity, a QP (Goldfarb-Idnani; frictionless)",
	.flags = cnMethodFlag_velocityLevel | cnMethodFlag_planar | cnMethodFlag_joints,
	.validate = cnValidateVelocity,
	.step = cnStepVelocityProjection,
};

const cnMethodModule cnGrLcpModule = {
	.method = cnMethod_grLcp,
	.name = "gr-lcp",
	.summary = "generalized reflection over the LCP: simultaneous impacts (Smith et al. 2012)",
	.flags = cnMethodFlag_velocityLevel | cnMethodFlag_reflection | cnMethodFlag_friction | cnMethodFlag_planar |
			 cnMethodFlag_joints,
	.validate = cnValidateVelocity,
	.step = cnStepGrLcp,
};

const cnMethodModule cnGrVelocityProjectionModule = {
	.method = cnMethod_grVelocityProjection,
	.name = "gr-velocity-projection",
	.summary = "generalized reflection over the projection (frictionless)",
	.flags = cnMethodFlag_velocityLevel | cnMethodFlag_reflection | cnMethodFlag_planar | cnMethodFlag_joints,
	.validate = cnValidateVelocity,
	.step = cnStepGrVelocityProjection,
};
