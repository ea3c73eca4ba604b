// SPDX-License-Identifier: MIT
// Contact constraints of the impulse method: sequential impulses on soft contacts with warm
// starting, Coulomb friction on two tangents clamped to the friction cone, speculative points,
// relax and restitution (Catto, "Solver2D" and Box2D v3's soft step). This file builds the
// constraints and applies restitution; the passes over them run in graph colours
// (contact_graph.c, contact_kernel.h).
#include "methods/impulse/contact_wide.h"

#include "methods/bounce.h"

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
static bool cnIsSolved( const cnWorld* world, const cnContact* c )
{
	if ( ( c->flags & cnContact_touching ) == 0 || c->manifoldCount == 0 )
	{
		return false;
	}
	return world->bodies[c->bodyA].solverIndex >= 0 || world->bodies[c->bodyB].solverIndex >= 0;
}

// The anchors of a point, its Jacobian's angular parts r x d and their images under the inverse
// inertia (so each iteration is a few dot products and axpys), and its effective masses, for the
// constraint's current normal and tangents.
static void cnSetPointGeometry( const cnContactConstraint* cc, cnConstraintPoint* cp, cnVec3 rA, cnVec3 rB )
{
	double mA = cc->invMassA, mB = cc->invMassB;
	cnMat3 iA = cc->invIA, iB = cc->invIB;
	cnVec3 normal = cc->normal, t1 = cc->tangent1, t2 = cc->tangent2;
	cp->rA = rA;
	cp->rB = rB;
	cp->rnA = cnCross( rA, normal );
	cp->rnB = cnCross( rB, normal );
	cp->rt1A = cnCross( rA, t1 );
	cp->rt1B = cnCross( rB, t1 );
	cp->rt2A = cnCross( rA, t2 );
	cp->rt2B = cnCross( rB, t2 );
	cp->inA = cnMulMV( iA, cp->rnA );
	cp->inB = cnMulMV( iB, cp->rnB );
	cp->it1A = cnMulMV( iA, cp->rt1A );
	cp->it1B = cnMulMV( iB, cp->rt1B );
	cp->it2A = cnMulMV( iA, cp->rt2A );
	cp->it2B = cnMulMV( iB, cp->rt2B );

	// effective masses 1 / (J M^-1 J^T) for the normal and the two tangents
	double kNormal = mA + mB + cnDot( cp->rnA, cp->inA ) + cnDot( cp->rnB, cp->inB );
	cp->normalMass = kNormal > 0.0 ? 1.0 / kNormal : 0.0;
	double kT1 = mA + mB + cnDot( cp->rt1A, cp->it1A ) + cnDot( cp->rt1B, cp->it1B );
	cp->tangentMass1 = kT1 > 0.0 ? 1.0 / kT1 : 0.0;
	double kT2 = mA + mB + cnDot( cp->rt2A, cp->it2A ) + cnDot( cp->rt2B, cp->it2B );
	cp->tangentMass2 = kT2 > 0.0 ? 1.0 / kT2 : 0.0;
}

// The acceleration of a simulated body's centre from gravity and its step forces (0 for the others).
static cnVec3 cnBodyAcceleration( const cnStepContext* context, const cnBody* body )
{
	if ( body->solverIndex < 0 || body->type != cnBody_dynamic )
	{
		return cnVec3_zero;
	}
	return cnMulAdd( cnMulSV( body->gravityScale, context->gravity ), body->invMass, body->force );
}

// Fills the constraint of manifold mi of contact i.
static void cnPrepareManifold( cnStepContext* context, const cnContact* c, int i, int mi, const cnBody* ba,
							   const cnBody* bb, cnContactConstraint* cc )
{
	int dummy = context->bodyCount;
	const cnManifold* manifold = cnContactManifold( c, mi );

	cc->indexA = ba->solverIndex >= 0 ? ba->solverIndex : dummy;
	cc->indexB = bb->solverIndex >= 0 ? bb->solverIndex : dummy;
	cc->contactIndex = i;
	cc->manifoldIndex = mi;
	cc->pointCount = manifold->pointCount;
	cc->friction = c->friction;
	cc->restitution = c->restitution;

	const cnBodySim* simA = context->sims + cc->indexA;
	const cnBodySim* simB = context->sims + cc->indexB;
	cc->invMassA = simA->invMass;
	cc->invMassB = simB->invMass;
	cc->invIA = simA->invI;
	cc->invIB = simB->invI;

	// a contact with a static body is stiffer: nothing on the other side gives way
	cc->softness = ( cc->indexA == dummy || cc->indexB == dummy ) ? context->staticSoftness
																	  : context->contactSoftness;

	cnVec3 normal = manifold->normal;
	cnVec3 t1 = cnPerp( normal );
	cnVec3 t2 = cnCross( normal, t1 );
	cc->normal = normal;
	cc->tangent1 = t1;
	cc->tangent2 = t2;
	cc->normalAcceleration = cnDot( normal, cnSub( cnBodyAcceleration( context, bb ), cnBodyAcceleration( context, ba ) ) );

	// two spheres: their normal is the line of centres, which turns within the step as they move past
	// each other (cnFollowSpheres)
	const cnWorld* world = context->world;
	const cnShape* sa = world->shapes + c->shapeA;
	const cnShape* sb = world->shapes + c->shapeB;
	cc->spheres = sa->geom.type == cnShape_sphere && sb->geom.type == cnShape_sphere;
	if ( cc->spheres )
	{
		cc->sphereA = cnSub( cnTransformPoint( ba->xf, sa->local.p ), ba->center );
		cc->sphereB = cnSub( cnTransformPoint( bb->xf, sb->local.p ), bb->center );
		cc->radiusA = sa->geom.radius;
		cc->radiusB = sb->geom.radius;
		cc->centerDelta = cnSub( cnAdd( bb->center, cc->sphereB ), cnAdd( ba->center, cc->sphereA ) );
		const cnBodyState* startA = context->states + cc->indexA;
		const cnBodyState* startB = context->states + cc->indexB;
		cc->startVA = startA->v;
		cc->startWA = startA->w;
		cc->startVB = startB->v;
		cc->startWB = startB->w;
	}

	const cnBodyState* sA = context->states + cc->indexA;
	const cnBodyState* sB = context->states + cc->indexB;

	for ( int j = 0; j < cc->pointCount; ++j )
	{
		const cnManifoldPoint* mp = manifold->points + j;
		cnConstraintPoint* cp = cc->points + j;
		cp->normalImpulse = mp->normalImpulse;
		cp->tangentImpulse1 = mp->tangentImpulse1;
		cp->tangentImpulse2 = mp->tangentImpulse2;
		cp->maxNormalImpulse = 0.0;

		cp->separation = mp->separation;
		cp->startSeparation = mp->separation;
		cnSetPointGeometry( cc, cp, mp->anchorA, mp->anchorB );

		// approach speed before the solve, for restitution
		cnVec3 vA = cnAdd( sA->v, cnCross( sA->w, cp->rA ) );
		cnVec3 vB = cnAdd( sB->v, cnCross( sB->w, cp->rB ) );
		cp->relativeVelocity = cnDot( normal, cnSub( vB, vA ) );
	}
}

void cnPrepareContacts( cnStepContext* context )
{
	cnWorld* world = context->world;
	// one constraint per manifold (a planar polygon pair may have several)
	int n = 0;
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		n += cnIsSolved( world, c ) ? c->manifoldCount : 0;
	}

	context->constraints = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( cnContactConstraint ) );
	context->constraintCount = n;

	int k = 0;
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		if ( cnIsSolved( world, c ) == false )
		{
			continue;
		}
		const cnBody* ba = world->bodies + c->bodyA;
		const cnBody* bb = world->bodies + c->bodyB;
		for ( int mi = 0; mi < c->manifoldCount; ++mi )
		{
			cnPrepareManifold( context, c, i, mi, ba, bb, context->constraints + k++ );
		}
	}
}

// Relative normal speed at a point: n . (vB + wB x rB - vA - wA x rA).
static inline double cnNormalSpeed( const cnBodyState* sA, const cnBodyState* sB, const cnContactConstraint* cc,
									const cnConstraintPoint* cp )
{
	return cnDot( cc->normal, cnSub( sB->v, sA->v ) ) + cnDot( sB->w, cp->rnB ) - cnDot( sA->w, cp->rnA );
}

// Applies a normal impulse lambda n: -lambda n to A and +lambda n to B.
static inline void cnApplyNormal( cnBodyState* sA, cnBodyState* sB, const cnContactConstraint* cc,
								  const cnConstraintPoint* cp, double lambda )
{
	sA->v = cnMulSub( sA->v, cc->invMassA * lambda, cc->normal );
	sA->w = cnMulSub( sA->w, lambda, cp->inA );
	sB->v = cnMulAdd( sB->v, cc->invMassB * lambda, cc->normal );
	sB->w = cnMulAdd( sB->w, lambda, cp->inB );
}

// Applies a tangent impulse l1 t1 + l2 t2.
static inline void cnApplyTangent( cnBodyState* sA, cnBodyState* sB, const cnContactConstraint* cc,
								   const cnConstraintPoint* cp, double l1, double l2 )
{
	cnVec3 P = cnAdd( cnMulSV( l1, cc->tangent1 ), cnMulSV( l2, cc->tangent2 ) );
	sA->v = cnMulSub( sA->v, cc->invMassA, P );
	sA->w = cnSub( sA->w, cnAdd( cnMulSV( l1, cp->it1A ), cnMulSV( l2, cp->it2A ) ) );
	sB->v = cnMulAdd( sB->v, cc->invMassB, P );
	sB->w = cnAdd( sB->w, cnAdd( cnMulSV( l1, cp->it1B ), cnMulSV( l2, cp->it2B ) ) );
}

// Friction at one point: both tangents at once, the accumulated impulse clamped to the disk of radius
// mu times the point's accumulated normal impulse (a true cone, not a pyramid).
static void cnSolveFriction( cnBodyState* sA, cnBodyState* sB, const cnContactConstraint* cc, cnConstraintPoint* cp )
{
	cnVec3 dv = cnSub( sB->v, sA->v );
	double vt1 = cnDot( dv, cc->tangent1 ) + cnDot( sB->w, cp->rt1B ) - cnDot( sA->w, cp->rt1A );
	double vt2 = cnDot( dv, cc->tangent2 ) + cnDot( sB->w, cp->rt2B ) - cnDot( sA->w, cp->rt2A );
	double lambda1 = -cp->tangentMass1 * vt1;
	double lambda2 = -cp->tangentMass2 * vt2;
	double old1 = cp->tangentImpulse1, old2 = cp->tangentImpulse2;
	double new1 = old1 + lambda1, new2 = old2 + lambda2;
	double maxFriction = cc->friction * cp->normalImpulse;
	double len2 = new1 * new1 + new2 * new2;
	if ( len2 > maxFriction * maxFriction )
	{
		double scale = len2 > 0.0 ? maxFriction / sqrt( len2 ) : 0.0;
		new1 *= scale;
		new2 *= scale;
	}
	cp->tangentImpulse1 = new1;
	cp->tangentImpulse2 = new2;
	cnApplyTangent( sA, sB, cc, cp, new1 - old1, new2 - old2 );
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

void cnFollowSpheres( cnStepContext* context )
{
	for ( int i = 0; i < context->constraintCount; ++i )
	{
		cnContactConstraint* cc = context->constraints + i;
		if ( cc->spheres == false )
		{
			continue;
		}
		const cnBodyState* sA = context->states + cc->indexA;
		const cnBodyState* sB = context->states + cc->indexB;
		// the sphere centres now: moved with their bodies' centres and turned with their rotations
		cnVec3 offsetA = cnRotate( sA->dq, cc->sphereA );
		cnVec3 offsetB = cnRotate( sB->dq, cc->sphereB );
		cnVec3 d = cnAdd( cc->centerDelta, cnAdd( cnSub( sB->dp, sA->dp ),
												 cnSub( cnSub( offsetB, cc->sphereB ), cnSub( offsetA, cc->sphereA ) ) ) );
		double distance = cnLength( d );
		if ( !( distance > 0.0 ) )
		{
			continue;
		}
		cnVec3 normal = cnMulSV( 1.0 / distance, d );
		cc->normal = normal;
		cc->tangent1 = cnPerp( normal );
		cc->tangent2 = cnCross( normal, cc->tangent1 );
		cnConstraintPoint* cp = cc->points;
		cnSetPointGeometry( cc, cp, cnMulAdd( offsetA, cc->radiusA, normal ), cnMulSub( offsetB, cc->radiusB, normal ) );
		// the separation is exact now; cnCurrentSeparation adds the anchors' motion from here on
		cp->separation = 0.0;
		cp->separation = distance - cc->radiusA - cc->radiusB - cnCurrentSeparation( sA, sB, normal, cp );
		// the approach speed before the step's impulses, along the normal of the meeting
		cnVec3 vA = cnAdd( cc->startVA, cnCross( cc->startWA, cp->rA ) );
		cnVec3 vB = cnAdd( cc->startVB, cnCross( cc->startWB, cp->rB ) );
		cp->relativeVelocity = cnDot( normal, cnSub( vB, vA ) );
		cnPackGeometry( context, i );
	}
}

void cnApplyRestitution( cnStepContext* context )
{
	cnBodyState* states = context->states;
	double threshold = context->restitutionThreshold;

	for ( int i = 0; i < context->constraintCount; ++i )
	{
		cnContactConstraint* cc = context->constraints + i;
		if ( cc->restitution == 0.0 )
		{
			continue;
		}
		cnBodyState* sA = states + cc->indexA;
		cnBodyState* sB = states + cc->indexB;
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
			cnApplyNormal( sA, sB, cc, cp, impulse );

			// friction acts over the whole impact, the restitution part included: a sliding impact
			// changes the tangential speed by mu (1 + e) |vn|
			cnSolveFriction( sA, sB, cc, cp );
		}
	}
}

void cnStoreImpulses( cnStepContext* context )
{
	cnWorld* world = context->world;
	for ( int i = 0; i < context->constraintCount; ++i )
	{
		const cnContactConstraint* cc = context->constraints + i;
		cnManifold* m = cnContactManifold( world->contacts + cc->contactIndex, cc->manifoldIndex );
		for ( int j = 0; j < cc->pointCount; ++j )
		{
			m->points[j].normalImpulse = cc->points[j].normalImpulse;
			m->points[j].tangentImpulse1 = cc->points[j].tangentImpulse1;
			m->points[j].tangentImpulse2 = cc->points[j].tangentImpulse2;
			m->points[j].maxNormalImpulse = cc->points[j].maxNormalImpulse;
			m->points[j].relativeVelocity = cc->points[j].relativeVelocity;
		}
	}
}
