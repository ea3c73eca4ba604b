// SPDX-License-Identifier: MIT
// Contact constraints of the impulse method: sequential impulses on soft contacts with warm
// starting, Coulomb friction on two tangents clamped to the friction cone, speculative points,
// relax and restitution (Catto, "Solver2D" and Box2D v3's soft step). This file builds the
// constraints and applies restitution; the passes over them run in graph colours
// (contact_graph.c, contact_kernel.h).
#include "methods/impulse/contact_wide.h"

#include "methods/bounce.h"
#include "task.h"

#include <float.h>

cnSoftness cnMakeSoft( double hertz, double zeta, double h )
{
	if ( hertz == 0.0 )
	{
		return (cnSoftness){ 0.0, 1.0, 0.0 };
	}
	// implicit spring-damper of stiffness omega^2 and damping 2 zeta omega, solved as a constraint:
	// the bias rate, the mass scale and the impulse scale follow from one implicit Euler step
	double omega = 2.0 * CN_PI * hertz;
	double a1 = 2.0 * zeta + h * omega;
	double a2 = h * omega * a1;
	double a3 = 1.0 / ( 1.0 + a2 );
	return (cnSoftness){ omega / a1, a2 * a3, a3 };
}

// A contact takes part in the solve when it touches and one of its bodies is simulated.
static bool cnIsSolved( const cnStepContext* context, const cnContact* c )
{
	if ( ( c->flags & cnContact_touching ) == 0 || c->manifoldCount == 0 )
	{
		return false;
	}
	int dummy = context->bodyCount;
	return context->solverIndexOf[c->bodyA] != dummy || context->solverIndexOf[c->bodyB] != dummy;
}

// The anchors of a point and its effective mass for the constraint's current normal. (The row's
// angular parts r x n are not kept: the SIMD kernel forms them itself, and restitution, which
// touches few points, forms them again; the constraints stay small for the copies into the lanes.)
static void cnSetPointGeometry( const cnStepContext* context, const cnContactConstraint* cc, cnConstraintPoint* cp,
								cnVec3 rA, cnVec3 rB )
{
	const cnMat3* invIA = &context->sims[cc->indexA].invI;
	const cnMat3* invIB = &context->sims[cc->indexB].invI;
	cnVec3 normal = cc->normal;
	cp->rA = rA;
	cp->rB = rB;
	cnVec3 rnA = cnCross( rA, normal ), rnB = cnCross( rB, normal );
	// effective mass 1 / (J M^-1 J^T)
	double k = cc->invMassA + cc->invMassB + cnDot( rnA, cnMulMV( *invIA, rnA ) ) + cnDot( rnB, cnMulMV( *invIB, rnB ) );
	cp->normalMass = k > 0.0 ? 1.0 / k : 0.0;
}

// Friction acts at the centre of the manifold's points, along both tangents at once with their
// coupled 2x2 mass, and as a twist about the normal (Box3D's central friction; PhysX's patch
// friction): one friction row per manifold instead of one per point, which keeps a stack from
// walking sideways through the small differences of its points' friction impulses.
static void cnSetFrictionGeometry( const cnStepContext* context, cnContactConstraint* cc )
{
	const cnMat3* invIA = &context->sims[cc->indexA].invI;
	const cnMat3* invIB = &context->sims[cc->indexB].invI;
	cnVec3 centerA = cnVec3_zero, centerB = cnVec3_zero;
	for ( int j = 0; j < cc->pointCount; ++j )
	{
		centerA = cnAdd( centerA, cc->points[j].rA );
		centerB = cnAdd( centerB, cc->points[j].rB );
	}
	double inv = 1.0 / cc->pointCount;
	centerA = cnMulSV( inv, centerA );
	centerB = cnMulSV( inv, centerB );
	cc->centerA = centerA;
	cc->centerB = centerB;
	for ( int j = 0; j < cc->pointCount; ++j )
	{
		cc->points[j].leverArm = cnLength( cnSub( cc->points[j].rA, centerA ) );
	}

	cnVec3 t1 = cc->tangent1, t2 = cc->tangent2;
	cnVec3 a1 = cnCross( centerA, t1 ), a2 = cnCross( centerA, t2 );
	cnVec3 b1 = cnCross( centerB, t1 ), b2 = cnCross( centerB, t2 );
	cnVec3 ia1 = cnMulMV( *invIA, a1 ), ia2 = cnMulMV( *invIA, a2 );
	cnVec3 ib1 = cnMulMV( *invIB, b1 ), ib2 = cnMulMV( *invIB, b2 );
	double m = cc->invMassA + cc->invMassB;
	double k11 = m + cnDot( a1, ia1 ) + cnDot( b1, ib1 );
	double k22 = m + cnDot( a2, ia2 ) + cnDot( b2, ib2 );
	double k12 = cnDot( a1, ia2 ) + cnDot( b1, ib2 );
	double det = k11 * k22 - k12 * k12;
	double invDet = det > 0.0 ? 1.0 / det : 0.0;
	cc->tangentMass[0] = invDet * k22;
	cc->tangentMass[1] = -invDet * k12;
	cc->tangentMass[2] = invDet * k11;

	double kTwist = cnDot( cc->normal, cnMulMV( *invIA, cc->normal ) ) + cnDot( cc->normal, cnMulMV( *invIB, cc->normal ) );
	cc->twistMass = kTwist > 0.0 ? 1.0 / kTwist : 0.0;
}

// The manifold keeps its friction as a force per point (points are matched from step to step, and
// new ones start at zero): the friction impulse F spread evenly plus the twist L as forces
// L (n x d_j) / sum |d_k|^2 about the centre (offsets d_j). Summing them gives back F and L exactly
// (cnKernelPrepare sums them at the next step). This writes the friction impulse (f1, f2) and twist
// of a manifold into its points; the offsets d_j are the anchors on A less the centre, out of the
// normal's direction.
// The anchor of point j is (x, y, z)[j * stride], read where the constraint or its lane holds it
// (copying the anchors into a local array first stalled on store forwarding: the copy was written a
// double at a time and read back two at a time).
static void cnFrictionToManifold( cnManifold* m, cnVec3 normal, cnVec3 t1, cnVec3 t2, cnVec3 centerA,
								  const double* x, const double* y, const double* z, int stride, int count,
								  double f1, double f2, double twist )
{
	cnVec3 offset[CN_MAX_MANIFOLD_POINTS];
	double spread = 0.0;
	for ( int j = 0; j < count; ++j )
	{
		cnVec3 d = cnSub( cnV3( x[j * stride], y[j * stride], z[j * stride] ), centerA );
		offset[j] = cnMulSub( d, cnDot( d, normal ), normal );
		spread += cnDot( offset[j], offset[j] );
	}
	double twistScale = spread > 0.0 ? twist / spread : 0.0;
	double inv = 1.0 / count;
	for ( int j = 0; j < count; ++j )
	{
		cnVec3 turn = cnMulSV( twistScale, cnCross( normal, offset[j] ) );
		m->points[j].tangentImpulse1 = inv * f1 + cnDot( turn, t1 );
		m->points[j].tangentImpulse2 = inv * f2 + cnDot( turn, t2 );
	}
}

// The acceleration of a simulated body's centre from gravity and its step forces, as its velocity
// update uses it (cnBodySim.linear; 0 for the dummy entry and kinematic bodies).
static cnVec3 cnBodyAcceleration( const cnStepContext* context, int index )
{
	const cnBodySim* sim = context->sims + index;
	return sim->dynamic ? sim->linear.acceleration : cnVec3_zero;
}

double cnContactNormalAcceleration( const cnStepContext* context, int indexA, int indexB, cnVec3 normal )
{
	return cnDot( normal, cnSub( cnBodyAcceleration( context, indexB ), cnBodyAcceleration( context, indexA ) ) );
}

typedef struct cnListTask
{
	cnStepContext* context;
	// the first constraint of each contact (-1: not solved)
	const int* first;
} cnListTask;

// Lists the constraints of contacts [startIndex, endIndex): each writes only its own refs.
static void cnListTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnListTask* task = taskContext;
	cnStepContext* context = task->context;
	const cnWorld* world = context->world;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		if ( task->first[i] < 0 )
		{
			continue;
		}
		const cnContact* c = world->contacts + i;
		bool spheres = world->shapes[c->shapeA].geom.type == cnShape_sphere &&
					   world->shapes[c->shapeB].geom.type == cnShape_sphere;
		for ( int mi = 0; mi < c->manifoldCount; ++mi )
		{
			cnConstraintRef* ref = context->refs + task->first[i] + mi;
			ref->indexA = context->solverIndexOf[c->bodyA];
			ref->indexB = context->solverIndexOf[c->bodyB];
			ref->contactIndex = i;
			ref->manifoldIndex = mi;
			ref->pointCount = cnContactManifold( c, mi )->pointCount;
			ref->spheres = spheres;
			ref->kept = c->restitution != 0.0 || spheres;
		}
	}
}

typedef struct cnCountTask
{
	const cnStepContext* context;
	// per contact: its manifolds when solved, -1 when not
	int* count;
} cnCountTask;

static void cnCountConstraintsFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnCountTask* task = taskContext;
	const cnContact* contacts = task->context->world->contacts;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		task->count[i] = cnIsSolved( task->context, contacts + i ) ? contacts[i].manifoldCount : -1;
	}
}

void cnPrepareContacts( cnStepContext* context )
{
	cnWorld* world = context->world;
	// one constraint per manifold (a planar polygon pair may have several), in contact order: each
	// contact's count in parallel (a cache miss per contact), then their running sum
	int* first = cnArena_Alloc( &world->arena, (size_t)( world->contactCount > 0 ? world->contactCount : 1 ) * sizeof( int ) );
	cnParallelFor( world, world->contactCount, 256, cnCountConstraintsFn, &(cnCountTask){ context, first } );
	// (without branches: whether a contact is solved follows no pattern, and the mispredicted branch
	// made this serial loop 0.8 % of the falling pile's step at two workers)
	int n = 0;
	int contactCount = world->contactCount;
	for ( int i = 0; i < contactCount; ++i )
	{
		int count = first[i];
		// all ones when the contact is not solved (count -1), else zero
		int skip = -( count < 0 );
		first[i] = ( n & ~skip ) | skip;
		n += count & ~skip;
	}

	// the records are written only for the kept constraints (cnBuildContactGraph prepares the others
	// straight into their lanes): the copy through an array of records was a large share of the step
	context->refs = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( cnConstraintRef ) );
	context->constraints = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( cnContactConstraint ) );
	context->constraintCount = n;

	cnListTask task = { context, first };
	cnParallelFor( world, world->contactCount, 64, cnListTaskFn, &task );
}

void cnPrepareSpherePairs( cnStepContext* context )
{
	cnWorld* world = context->world;
	int n = context->constraintCount;
	// the sphere pairs, listed once with what turning their normals needs: the sub-steps visit only them
	int pairCount = 0;
	for ( int k = 0; k < n; ++k )
	{
		pairCount += context->refs[k].spheres ? 1 : 0;
	}
	context->spherePairs = cnArena_Alloc( &world->arena, (size_t)( pairCount > 0 ? pairCount : 1 ) * sizeof( cnSpherePair ) );
	context->spherePairCount = pairCount;
	pairCount = 0;
	for ( int k = 0; k < n; ++k )
	{
		if ( context->refs[k].spheres == false )
		{
			continue;
		}
		// (a sphere pair's record is kept)
		const cnContactConstraint* cc = context->constraints + k;
		const cnContact* c = world->contacts + cc->contactIndex;
		const cnBody* ba = world->bodies + c->bodyA;
		const cnBody* bb = world->bodies + c->bodyB;
		const cnShape* sa = world->shapes + c->shapeA;
		const cnShape* sb = world->shapes + c->shapeB;
		cnSpherePair* pair = context->spherePairs + pairCount++;
		pair->constraint = k;
		pair->sphereA = cnSub( cnTransformPoint( ba->xf, sa->local.p ), ba->center );
		pair->sphereB = cnSub( cnTransformPoint( bb->xf, sb->local.p ), bb->center );
		pair->radiusA = sa->geom.radius;
		pair->radiusB = sb->geom.radius;
		pair->centerDelta = cnSub( cnAdd( bb->center, pair->sphereB ), cnAdd( ba->center, pair->sphereA ) );
		const cnBodyState* startA = context->states + cc->indexA;
		const cnBodyState* startB = context->states + cc->indexB;
		pair->startVA = startA->v;
		pair->startWA = startA->w;
		pair->startVB = startB->v;
		pair->startWB = startB->w;
	}
}

// Relative normal speed at a point: n . (vB + wB x rB - vA - wA x rA).
static inline double cnNormalSpeed( const cnBodyState* sA, const cnBodyState* sB, const cnContactConstraint* cc,
									const cnConstraintPoint* cp )
{
	return cnDot( cc->normal, cnSub( sB->v, sA->v ) ) + cnDot( sB->w, cnCross( cp->rB, cc->normal ) ) -
		   cnDot( sA->w, cnCross( cp->rA, cc->normal ) );
}

// Applies a normal impulse lambda n: -lambda n to A and +lambda n to B.
static inline void cnApplyNormal( const cnStepContext* context, cnBodyState* sA, cnBodyState* sB,
								  const cnContactConstraint* cc, const cnConstraintPoint* cp, double lambda )
{
	const cnMat3* invIA = &context->sims[cc->indexA].invI;
	const cnMat3* invIB = &context->sims[cc->indexB].invI;
	sA->v = cnMulSub( sA->v, cc->invMassA * lambda, cc->normal );
	sA->w = cnMulSub( sA->w, lambda, cnMulMV( *invIA, cnCross( cp->rA, cc->normal ) ) );
	sB->v = cnMulAdd( sB->v, cc->invMassB * lambda, cc->normal );
	sB->w = cnMulAdd( sB->w, lambda, cnMulMV( *invIB, cnCross( cp->rB, cc->normal ) ) );
}

// Friction at the centre after the restitution impulses: both tangents at once, clamped to the disk
// of radius mu times the total normal impulse.
static void cnSolveCentralFriction( const cnStepContext* context, cnBodyState* sA, cnBodyState* sB,
									cnContactConstraint* cc )
{
	cnVec3 vA = cnAdd( sA->v, cnCross( sA->w, cc->centerA ) );
	cnVec3 vB = cnAdd( sB->v, cnCross( sB->w, cc->centerB ) );
	cnVec3 dv = cnSub( vB, vA );
	double vt1 = cnDot( dv, cc->tangent1 ), vt2 = cnDot( dv, cc->tangent2 );
	double old1 = cc->frictionImpulse[0], old2 = cc->frictionImpulse[1];
	double new1 = old1 - ( cc->tangentMass[0] * vt1 + cc->tangentMass[1] * vt2 );
	double new2 = old2 - ( cc->tangentMass[1] * vt1 + cc->tangentMass[2] * vt2 );
	double total = 0.0;
	for ( int j = 0; j < cc->pointCount; ++j )
	{
		total += cc->points[j].normalImpulse;
	}
	double maxFriction = cc->friction * total;
	double len2 = new1 * new1 + new2 * new2;
	if ( len2 > maxFriction * maxFriction )
	{
		double scale = len2 > 0.0 ? maxFriction / sqrt( len2 ) : 0.0;
		new1 *= scale;
		new2 *= scale;
	}
	cc->frictionImpulse[0] = new1;
	cc->frictionImpulse[1] = new2;
	cnVec3 P = cnAdd( cnMulSV( new1 - old1, cc->tangent1 ), cnMulSV( new2 - old2, cc->tangent2 ) );
	sA->v = cnMulSub( sA->v, cc->invMassA, P );
	sA->w = cnSub( sA->w, cnMulMV( context->sims[cc->indexA].invI, cnCross( cc->centerA, P ) ) );
	sB->v = cnMulAdd( sB->v, cc->invMassB, P );
	sB->w = cnAdd( sB->w, cnMulMV( context->sims[cc->indexB].invI, cnCross( cc->centerB, P ) ) );
}

// The current separation of a point: its separation at the step's start plus the normal motion of
// its anchors since, to first order in the rotation (theta x r with theta = 2 vec(dq)): the exact
// rotated anchor would make a rolling sphere's contact point rise by r (1 - cos phi) and let it sink.
static double cnCurrentSeparation( const cnBodyState* sA, const cnBodyState* sB, cnVec3 normal,
								   const cnConstraintPoint* cp )
{
	cnVec3 thetaA = cnV3( 2.0 * sA->dq.x, 2.0 * sA->dq.y, 2.0 * sA->dq.z );
	cnVec3 thetaB = cnV3( 2.0 * sB->dq.x, 2.0 * sB->dq.y, 2.0 * sB->dq.z );
	cnVec3 d = cnAdd( cnSub( sB->dp, sA->dp ), cnSub( cnCross( thetaB, cp->rB ), cnCross( thetaA, cp->rA ) ) );
	return cnDot( d, normal ) + cp->separation;
}

// Turns the normals of sphere pairs [startIndex, endIndex) of the list; each writes only its own
// constraint and its own lane of the packed groups.
static void cnFollowSpheresTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	cnStepContext* context = taskContext;
	for ( int s = startIndex; s < endIndex; ++s )
	{
		const cnSpherePair* pair = context->spherePairs + s;
		int i = pair->constraint;
		cnContactConstraint* cc = context->constraints + i;
		const cnBodyState* sA = context->states + cc->indexA;
		const cnBodyState* sB = context->states + cc->indexB;
		// the sphere centres now: moved with their bodies' centres and turned with their rotations
		cnVec3 offsetA = cnRotate( sA->dq, pair->sphereA );
		cnVec3 offsetB = cnRotate( sB->dq, pair->sphereB );
		cnVec3 d = cnAdd( pair->centerDelta, cnAdd( cnSub( sB->dp, sA->dp ),
												 cnSub( cnSub( offsetB, pair->sphereB ), cnSub( offsetA, pair->sphereA ) ) ) );
		double distance = cnLength( d );
		if ( !( distance > 0.0 ) )
		{
			continue;
		}
		cnVec3 normal = cnMulSV( 1.0 / distance, d );
		cc->normal = normal;
		cnVec3 oldT1 = cc->tangent1, oldT2 = cc->tangent2;
		cc->tangent1 = cnPerp( normal );
		cc->tangent2 = cnCross( normal, cc->tangent1 );
		cnConstraintPoint* cp = cc->points;
		cnSetPointGeometry( context, cc, cp, cnMulAdd( offsetA, pair->radiusA, normal ), cnMulSub( offsetB, pair->radiusB, normal ) );
		cnSetFrictionGeometry( context, cc );
		// the friction impulse so far, on the turned tangents
		cnVec3 F = cnAdd( cnMulSV( cc->frictionImpulse[0], oldT1 ), cnMulSV( cc->frictionImpulse[1], oldT2 ) );
		cc->frictionImpulse[0] = cnDot( F, cc->tangent1 );
		cc->frictionImpulse[1] = cnDot( F, cc->tangent2 );
		cnRebaseFriction( context, i, oldT1, oldT2 );
		// the separation is exact now; cnCurrentSeparation adds the anchors' motion from here on
		cp->separation = 0.0;
		cp->separation = distance - pair->radiusA - pair->radiusB - cnCurrentSeparation( sA, sB, normal, cp );
		// the approach speed before the step's impulses, along the normal of the meeting
		cnVec3 vA = cnAdd( pair->startVA, cnCross( pair->startWA, cp->rA ) );
		cnVec3 vB = cnAdd( pair->startVB, cnCross( pair->startWB, cp->rB ) );
		cp->relativeVelocity = cnDot( normal, cnSub( vB, vA ) );
		cnPackGeometry( context, i );
	}
}

void cnFollowSpheres( cnStepContext* context )
{
	cnParallelFor( context->world, context->spherePairCount, 32, cnFollowSpheresTaskFn, context );
}

void cnApplyRestitution( cnStepContext* context )
{
	cnBodyState* states = context->states;
	double threshold = context->restitutionThreshold;

	for ( int i = 0; i < context->constraintCount; ++i )
	{
		cnContactConstraint* cc = context->constraints + i;
		// (only kept constraints have records: restitution's are among them)
		if ( context->refs[i].kept == false || cc->restitution == 0.0 )
		{
			continue;
		}
		cnBodyState* sA = states + cc->indexA;
		cnBodyState* sB = states + cc->indexB;
		bool bounced = false;
		for ( int j = 0; j < cc->pointCount; ++j )
		{
			cnConstraintPoint* cp = cc->points + j;
			// only points that met within the step (they pushed), faster than the threshold
			double v0 = cp->relativeVelocity;
			double s0 = cp->startSeparation > 0.0 ? cp->startSeparation : 0.0;
			double a = cc->normalAcceleration;
			if ( cp->maxNormalImpulse == 0.0 || !( v0 < 0.0 || s0 > 0.0 ) ||
				 !( cnImpactSpeedSquared( s0, v0, a ) > threshold * threshold ) )
			{
				continue;
			}
			// the speed that gives the bounce e^2 of its energy (methods/bounce.h), the positions
			// already integrated to the step's end
			double sEnd = cnCurrentSeparation( sA, sB, cc->normal, cp );
			double target;
			if ( cnBounceSpeed( s0, v0, a, context->h, cc->restitution, sEnd > 0.0 ? sEnd : 0.0, false, &target ) == false )
			{
				continue;
			}
			double vn = cnNormalSpeed( sA, sB, cc, cp );
			double impulse = -cp->normalMass * ( vn - target );
			double newImpulse = cp->normalImpulse + impulse;
			newImpulse = newImpulse > 0.0 ? newImpulse : 0.0;
			impulse = newImpulse - cp->normalImpulse;
			cp->normalImpulse = newImpulse;
			cp->maxNormalImpulse = cp->maxNormalImpulse > impulse ? cp->maxNormalImpulse : impulse;
			cnApplyNormal( context, sA, sB, cc, cp, impulse );
			bounced = true;
		}
		// friction acts over the whole impact, the restitution part included: a sliding impact
		// changes the tangential speed by mu (1 + e) |vn|
		if ( bounced )
		{
			cnSolveCentralFriction( context, sA, sB, cc );
		}
	}
}

_Static_assert( sizeof( cnConstraintPoint ) % sizeof( double ) == 0 && sizeof( cnWidePoint ) % sizeof( double ) == 0,
				"anchors are read with a stride in doubles" );

typedef struct cnStoreTask
{
	cnStepContext* context;
	// visit the groups from the last (items count from the end)
	bool reverse;
} cnStoreTask;

// Writes the constraints of groups [startIndex, endIndex) (counted from the last when reversed) back
// into their manifolds (one manifold each): those that restitution or a sphere pair worked on from
// their constraint, the others straight from their lanes, in group order (the lanes of a group share
// its cache lines; the approach speeds of these were written at preparation).
static void cnStoreTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnStoreTask* task = taskContext;
	cnStepContext* context = task->context;
	const cnContactGraph* graph = context->graph;
	int step = task->reverse ? -1 : 1;
	int first = task->reverse ? graph->groupCount - 1 : 0;
	for ( int item = startIndex; item < endIndex; ++item )
	{
		int i = first + step * item;
		// the next group's manifold points, to be written: in group order they are scattered, and each
		// was a cache miss (a third of the store's time)
		if ( item + 1 < endIndex )
		{
			const cnWideGroup* next = graph->groups + i + step;
			for ( int lane = 0; lane < next->laneCount; ++lane )
			{
				cnManifold* m = graph->slotManifold[( i + step ) * CN_LANES + lane];
				for ( int j = 0; j < next->pointCount[lane]; ++j )
				{
					__builtin_prefetch( &m->points[j].normalImpulse, 1 );
					__builtin_prefetch( &m->points[j].maxNormalImpulse, 1 );
				}
			}
		}
		const cnWideGroup* g = graph->groups + i;
		for ( int lane = 0; lane < g->laneCount; ++lane )
		{
			int slot = i * CN_LANES + lane;
			cnManifold* m = graph->slotManifold[slot];
			int count = g->pointCount[lane];
			if ( context->refs[g->constraint[lane]].kept )
			{
				const cnContactConstraint* cc = context->constraints + g->constraint[lane];
				for ( int j = 0; j < count; ++j )
				{
					const cnConstraintPoint* cp = cc->points + j;
					m->points[j].normalImpulse = cp->normalImpulse;
					m->points[j].maxNormalImpulse = cp->maxNormalImpulse;
					m->points[j].relativeVelocity = cp->relativeVelocity;
				}
				const cnVec3* rA = &cc->points[0].rA;
				cnFrictionToManifold( m, cc->normal, cc->tangent1, cc->tangent2, cc->centerA, &rA->x, &rA->y, &rA->z,
									  (int)( sizeof( cnConstraintPoint ) / sizeof( double ) ), count,
									  cc->frictionImpulse[0], cc->frictionImpulse[1], cc->twistImpulse );
				continue;
			}
			for ( int j = 0; j < count; ++j )
			{
				const cnWidePoint* p = g->points + j;
				m->points[j].normalImpulse = p->normalImpulse[lane];
				m->points[j].maxNormalImpulse = p->maxNormalImpulse[lane];
			}
			cnVec3 normal = cnV3( g->normal[0][lane], g->normal[1][lane], g->normal[2][lane] );
			cnVec3 t1 = cnV3( g->tangent1[0][lane], g->tangent1[1][lane], g->tangent1[2][lane] );
			cnVec3 t2 = cnV3( g->tangent2[0][lane], g->tangent2[1][lane], g->tangent2[2][lane] );
			cnVec3 centerA = cnV3( g->centerA[0][lane], g->centerA[1][lane], g->centerA[2][lane] );
			const cnWidePoint* p = g->points;
			cnFrictionToManifold( m, normal, t1, t2, centerA, &p->rA[0][lane], &p->rA[1][lane], &p->rA[2][lane],
								  (int)( sizeof( cnWidePoint ) / sizeof( double ) ), count, g->frictionImpulse[0][lane],
								  g->frictionImpulse[1][lane], g->twistImpulse[lane] );
		}
	}
}

void cnStoreImpulses( cnStepContext* context )
{
	// from the end of the groups the last pass left in the cache
	cnStoreTask task = { context, context->graph->lastPassReverse == false };
	cnParallelFor( context->world, context->graph->groupCount, 16, cnStoreTaskFn, &task );
}
