// SPDX-License-Identifier: MIT
// The penalty method (AERO): contacts are stiff spring-dashpots with Coulomb friction, and the
// bodies' equations of motion are integrated by adaptive Dormand-Prince RK5(4). The contact points
// are taken from the narrow phase at the start of every internal step and carried by the bodies
// through it, so the force follows the bodies smoothly within the step (the narrow phase's choice
// of points changes only between steps); the world step is one output interval made of as many
// internal steps as the error tolerance and the motion bound ask. Joints are stiff springs beside
// the contacts (penalty_joints.c). See docs/method-penalty.md.
#include "collision/hull.h"
#include "collision/mesh.h"
#include "error.h"
#include "methods/contact_time.h"
#include "methods/penalty.h"

#include <float.h>
#include <string.h>

// Below this distance from zeta = 1 the two closed forms of the restitution are replaced by their
// common limit exp(-2) (both are 0/0 there).
#define CN_CRITICAL_BAND 1e-7

double cnPenaltyRestitution( double zeta )
{
	if ( zeta <= 0.0 )
	{
		return 1.0;
	}
	if ( fabs( zeta - 1.0 ) < CN_CRITICAL_BAND )
	{
		return exp( -2.0 );
	}
	if ( zeta < 1.0 )
	{
		// x(t) = v0/wd exp(-zeta w t) sin(wd t); the force k x + c x' reaches zero (the contact lets go)
		// at wd t = acos(2 zeta^2 - 1) = 2 acos(zeta), where |x'| = v0 exp(-zeta w t)
		double phi = acos( zeta );
		return exp( -2.0 * phi * zeta / sqrt( 1.0 - zeta * zeta ) );
	}
	// overdamped: roots r1 > r2 of s^2 + 2 zeta w s + w^2; the force vanishes at
	// exp((r1 - r2) t) = (r2 / r1)^2, where the speed is v0 (r1 / r2) exp(r1 t)
	double s = sqrt( zeta * zeta - 1.0 );
	double rho = ( zeta + s ) * ( zeta + s );
	return exp( -( rho + 1.0 ) / ( rho - 1.0 ) * log( rho ) );
}

double cnPenaltyDampingRatio( double restitution )
{
	if ( restitution >= 1.0 )
	{
		return 0.0;
	}
	double hi = CN_PENALTY_MAX_DAMPING_RATIO;
	if ( !( restitution > cnPenaltyRestitution( hi ) ) )
	{
		return hi;
	}
	// e(zeta) decreases monotonically: bisection to round-off
	double lo = 0.0;
	for ( int i = 0; i < 80 && hi - lo > 1e-15; ++i )
	{
		double mid = 0.5 * ( lo + hi );
		if ( cnPenaltyRestitution( mid ) > restitution )
		{
			lo = mid;
		}
		else
		{
			hi = mid;
		}
	}
	return 0.5 * ( lo + hi );
}

// Smallest size of a shape: what a body may move per internal step is a fraction of it.
static double cnShapeMinSize( const cnGeometry* g )
{
	switch ( g->type )
	{
		case cnShape_sphere:
		case cnShape_capsule:
			return g->radius;
		case cnShape_box:
			return fmin( g->halfExtents.x, fmin( g->halfExtents.y, g->halfExtents.z ) );
		case cnShape_cylinder:
			return fmin( g->radius, g->halfHeight );
		case cnShape_hull:
			return g->hull->innerRadius;
		case cnShape_mesh:
		{
			cnVec3 e = cnSub( g->mesh->bounds.upper, g->mesh->bounds.lower );
			return 0.5 * fmin( e.x, fmin( e.y, e.z ) );
		}
		default:
			return INFINITY;
	}
}

static double cnBodyMinSize( const cnWorld* world, const cnBody* body )
{
	double size = INFINITY;
	for ( int i = body->firstShape; i >= 0; i = world->shapes[i].nextShape )
	{
		size = fmin( size, cnShapeMinSize( &world->shapes[i].geom ) );
	}
	return size;
}

// Series springs (or dashpots): 1/k = 1/k1 + 1/k2; a zero value means "not given" and leaves the
// other alone.
static double cnCombineSeries( double a, double b )
{
	if ( a > 0.0 && b > 0.0 )
	{
		return a * b / ( a + b );
	}
	return a > 0.0 ? a : b;
}

bool cnPenaltyBegin( cnWorld* world, cnPenaltySystem* sys, double timeStep )
{
	memset( sys, 0, sizeof( cnPenaltySystem ) );
	sys->world = world;
	sys->timeStep = timeStep;
	sys->planar = world->def.planar;

	int dynamicCount = 0, kinematicCount = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->alive && b->awake && b->type == cnBody_dynamic )
		{
			dynamicCount += 1;
		}
		else if ( b->alive && b->awake && b->type == cnBody_kinematic )
		{
			kinematicCount += 1;
		}
	}

	cnArena* arena = &world->arena;
	int n = CN_PENALTY_STRIDE * dynamicCount;
	size_t bodySlots = (size_t)( dynamicCount > 0 ? dynamicCount : 1 );
	sys->bodyCount = dynamicCount;
	sys->n = n;
	sys->bodies = cnArena_Alloc( arena, bodySlots * sizeof( int ) );
	sys->slot = cnArena_Alloc( arena, (size_t)( world->bodyCount > 0 ? world->bodyCount : 1 ) * sizeof( int ) );
	sys->minSize = cnArena_Alloc( arena, bodySlots * sizeof( double ) );
	sys->kinematics = cnArena_Alloc( arena, (size_t)( kinematicCount > 0 ? kinematicCount : 1 ) * sizeof( int ) );
	sys->stage = cnArena_Alloc( arena, bodySlots * sizeof( cnPenaltyBody ) );
	sys->force = cnArena_Alloc( arena, bodySlots * sizeof( cnVec3 ) );
	sys->torque = cnArena_Alloc( arena, bodySlots * sizeof( cnVec3 ) );
	sys->modes = cnArena_Alloc( arena, bodySlots * sizeof( double ) );
	sys->accel = cnArena_Alloc( arena, bodySlots * sizeof( double ) );
	size_t contactSlots = (size_t)( world->contactCount > 0 ? world->contactCount : 1 );
	sys->contacts = cnArena_Alloc( arena, contactSlots * sizeof( cnPenaltyContact ) );
	cnPenaltyPoint* pointPool = cnArena_Alloc( arena, contactSlots * CN_MAX_PAIR_POINTS * sizeof( cnPenaltyPoint ) );
	sys->y0 = cnArena_Alloc( arena, bodySlots * CN_PENALTY_STRIDE * sizeof( double ) );
	double* memory = cnArena_Alloc( arena, cnRk_MemorySize( n ) * sizeof( double ) );
	if ( sys->bodies == NULL || sys->slot == NULL || sys->minSize == NULL || sys->kinematics == NULL ||
		 sys->stage == NULL || sys->force == NULL || sys->torque == NULL || sys->modes == NULL ||
		 sys->accel == NULL || sys->contacts == NULL || pointPool == NULL || sys->y0 == NULL || memory == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory in the penalty step" );
	}

	// bodies: awake dynamic ones form the state, in body index order (deterministic)
	int k = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		sys->slot[i] = -1;
		if ( b->alive && b->awake && b->type == cnBody_kinematic )
		{
			sys->kinematics[sys->kinematicCount++] = i;
		}
		if ( !( b->alive && b->awake && b->type == cnBody_dynamic ) )
		{
			continue;
		}
		sys->slot[i] = k;
		sys->bodies[k] = i;
		sys->minSize[k] = cnBodyMinSize( world, b );
		sys->modes[k] = 0.0;
		// until the first evaluation of the derivative: gravity and the user force
		sys->accel[k] = b->gravityScale * cnLength( world->gravity ) + b->invMass * cnLength( b->force );
		cnVec3 v = b->v, w = b->w;
		cnProjectPlanar( world, &v, &w );
		double* s = sys->y0 + CN_PENALTY_STRIDE * k;
		s[0] = b->center.x, s[1] = b->center.y, s[2] = b->center.z;
		s[3] = b->xf.q.w, s[4] = b->xf.q.x, s[5] = b->xf.q.y, s[6] = b->xf.q.z;
		s[7] = v.x, s[8] = v.y, s[9] = v.z;
		s[10] = w.x, s[11] = w.y, s[12] = w.z;
		k += 1;
	}

	// contacts the narrow phase found within its speculative margin: its margin covers the
	// relative motion of the whole step, so no other pair can touch before the step ends
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->flags & cnContact_touching ) == 0 )
		{
			continue;
		}
		if ( sys->slot[c->bodyA] < 0 && sys->slot[c->bodyB] < 0 )
		{
			continue;
		}
		const cnMaterialDef* ma = &world->materials[world->shapes[c->shapeA].material].def;
		const cnMaterialDef* mb = &world->materials[world->shapes[c->shapeB].material].def;
		cnPenaltyContact* pc = sys->contacts + sys->contactCount++;
		memset( pc, 0, sizeof( cnPenaltyContact ) );
		pc->contact = i;
		pc->bodyA = c->bodyA;
		pc->bodyB = c->bodyB;
		pc->friction = c->friction;
		pc->restitution = c->restitution;
		pc->stiffness = cnCombineSeries( ma->stiffness, mb->stiffness );
		pc->damping = cnCombineSeries( ma->damping, mb->damping );
		pc->dampingRatio = cnPenaltyDampingRatio( c->restitution );
		pc->points = pointPool + (size_t)( sys->contactCount - 1 ) * CN_MAX_PAIR_POINTS;
		pc->pointCount = 0;
	}

	cnRk_Init( &sys->rk, n, memory, cnPenaltyDerivative, sys, world->def.settings.penalty.errorTolerance );
	sys->rk.hMin = 1e-12 * timeStep;
	return world->liveJointCount > 0 ? cnPenaltyBeginJoints( sys ) : true;
}

void cnPenaltyLoadStageAt( cnPenaltySystem* sys, double t, double* probe )
{
	const cnRk* rk = &sys->rk;
	const double* y = rk->y;
	if ( t != rk->t )
	{
		cnRk_Interpolate( rk, t, probe );
		y = probe;
	}
	cnPenaltyLoadStage( sys, t, y );
}

void cnPenaltyLoadStage( cnPenaltySystem* sys, double t, const double* y )
{
	const cnWorld* world = sys->world;
	sys->stageTime = t;
	for ( int k = 0; k < sys->bodyCount; ++k )
	{
		const cnBody* body = world->bodies + sys->bodies[k];
		const double* s = y + CN_PENALTY_STRIDE * k;
		cnPenaltyBody* p = sys->stage + k;
		p->center = cnV3( s[0], s[1], s[2] );
		cnQuat q = { s[3], s[4], s[5], s[6] };
		p->q = cnNormalizeQuat( q );
		p->v = cnV3( s[7], s[8], s[9] );
		p->w = cnV3( s[10], s[11], s[12] );
		p->invMass = body->invMass;
		cnMat3 R = cnMat3FromQuat( p->q );
		cnMat3 Rt = cnTransposeM( R );
		p->I = cnMulMM( R, cnMulMM( body->inertia, Rt ) );
		if ( sys->planar )
		{
			// the planar dofs rotate about z only: the inertia they see is I_zz of the world tensor
			// (a body whose inertia has no inverse does not rotate, as in 3D)
			double izz = p->I.cz.z;
			bool rotates = body->invInertia.cx.x != 0.0 || body->invInertia.cy.y != 0.0 || body->invInertia.cz.z != 0.0;
			p->invI = cnDiagonal( 0.0, 0.0, rotates && izz > 0.0 ? 1.0 / izz : 0.0 );
		}
		else
		{
			p->invI = cnMulMM( R, cnMulMM( body->invInertia, Rt ) );
		}
		sys->force[k] = body->force;
		sys->torque[k] = body->torque;
	}
}

cnPenaltyBody cnPenaltyGetBody( const cnPenaltySystem* sys, int bodyIndex )
{
	int slot = sys->slot[bodyIndex];
	if ( slot >= 0 )
	{
		return sys->stage[slot];
	}
	const cnBody* b = sys->world->bodies + bodyIndex;
	cnPenaltyBody p;
	memset( &p, 0, sizeof( p ) );
	p.center = b->center;
	p.q = b->xf.q;
	if ( b->type == cnBody_kinematic && b->awake )
	{
		// the same motion as cnIntegrateBodyPosition over the stage time
		double t = sys->stageTime;
		p.v = b->v;
		p.w = b->w;
		p.center = cnMulAdd( b->center, t, b->v );
		p.q = cnIntegrateRotation( b->xf.q, b->w, t );
	}
	return p;
}

int cnPenaltyCollide( const cnPenaltySystem* sys, const cnPenaltyContact* pc, const cnPenaltyBody* a,
					  const cnPenaltyBody* b, double maxDistance, cnManifoldPoint* points )
{
	const cnWorld* world = sys->world;
	const cnContact* c = world->contacts + pc->contact;
	const cnShape* sa = world->shapes + c->shapeA;
	const cnShape* sb = world->shapes + c->shapeB;
	const cnBody* ba = world->bodies + pc->bodyA;
	const cnBody* bb = world->bodies + pc->bodyB;
	cnTransform xfA = { cnSub( a->center, cnRotate( a->q, ba->localCenter ) ), a->q };
	cnTransform xfB = { cnSub( b->center, cnRotate( b->q, bb->localCenter ) ), b->q };
	return cnCollidePoints( &sa->geom, cnMulTransforms( xfA, sa->local ), &sb->geom, cnMulTransforms( xfB, sb->local ),
							maxDistance, points, CN_MAX_PAIR_POINTS );
}

double cnPenaltyEffectiveMass( const cnPenaltyBody* a, const cnPenaltyBody* b, cnVec3 p, cnVec3 d )
{
	cnVec3 rnA = cnCross( cnSub( p, a->center ), d );
	cnVec3 rnB = cnCross( cnSub( p, b->center ), d );
	double k = a->invMass + b->invMass + cnDot( rnA, cnMulMV( a->invI, rnA ) ) + cnDot( rnB, cnMulMV( b->invI, rnB ) );
	return k > 0.0 ? 1.0 / k : 0.0;
}

// The line core of a surface point: a segment of the body along the world unit axis, from low to
// high relative to the carrier (zero axis: a point).
typedef struct cnPenaltyLine
{
	cnVec3 axis;
	double low, high;
} cnPenaltyLine;

// What the surface point p of shape g (at xf in the world) with outward unit normal d is, and the
// point that carries it with the body: the centre of the rounding for a rounded surface (a ball
// rolling on the floor keeps touching it at its bottom, not at the point of the ball that touched
// first), p itself otherwise. line: the core the carrier may slide along when the other side is not
// a face (capsule segment, cylinder axis, box edge; a point otherwise).
static cnPenaltySurface cnClassifySurface( const cnGeometry* g, cnTransform xf, cnVec3 p, cnVec3 d, cnVec3* carrier,
										   cnPenaltyLine* line )
{
	*carrier = p;
	line->axis = cnVec3_zero;
	line->low = line->high = 0.0;
	cnVec3 local = cnInvTransformPoint( xf, p );
	cnVec3 zAxis = cnRotate( xf.q, cnV3( 0.0, 0.0, 1.0 ) );
	switch ( g->type )
	{
		case cnShape_sphere:
			*carrier = xf.p;
			return cnPenaltySurface_round;
		case cnShape_capsule:
		{
			cnVec3 core = cnInvTransformPoint( xf, cnMulSub( p, g->radius, d ) );
			double z = fmax( -g->halfHeight, fmin( g->halfHeight, core.z ) );
			*carrier = cnTransformPoint( xf, cnV3( 0.0, 0.0, z ) );
			*line = (cnPenaltyLine){ zAxis, -g->halfHeight - z, g->halfHeight - z };
			return cnPenaltySurface_round;
		}
		case cnShape_cylinder:
		{
			// round where the point is the support point of its circle about the axis along d: on
			// the side, or the deepest point of a rim; the vertices of a cap's polygon (fixed in the
			// body) are corners, the inside of a cap is a face
			double tolerance = 1e-6 * fmax( g->radius, g->halfHeight );
			cnVec3 dl = cnInvRotate( xf.q, d );
			double radial = sqrt( dl.x * dl.x + dl.y * dl.y );
			double rim = sqrt( local.x * local.x + local.y * local.y );
			if ( radial > 1e-3 && fabs( rim - g->radius ) < tolerance &&
				 local.x * dl.x + local.y * dl.y > ( 1.0 - 1e-9 ) * rim * radial )
			{
				double z = fmax( -g->halfHeight, fmin( g->halfHeight, local.z ) );
				*carrier = cnTransformPoint( xf, cnV3( 0.0, 0.0, z ) );
				*line = (cnPenaltyLine){ zAxis, -g->halfHeight - z, g->halfHeight - z };
				return cnPenaltySurface_round;
			}
			return rim > g->radius * cos( CN_PI / 16.0 ) - tolerance ? cnPenaltySurface_feature : cnPenaltySurface_face;
		}
		case cnShape_box:
		{
			// on an edge or a corner when two coordinates are at the box's extent
			cnVec3 h = g->halfExtents;
			double tolerance = 1e-6 * fmax( h.x, fmax( h.y, h.z ) );
			bool ex = fabs( local.x ) > h.x - tolerance, ey = fabs( local.y ) > h.y - tolerance,
				 ez = fabs( local.z ) > h.z - tolerance;
			int extremes = ex + ey + ez;
			if ( extremes == 2 )
			{
				// an edge: along the coordinate that is not at the extent
				int k = ex == false ? 0 : ey == false ? 1 : 2;
				double c = k == 0 ? local.x : k == 1 ? local.y : local.z;
				double e = k == 0 ? h.x : k == 1 ? h.y : h.z;
				cnVec3 axis = cnRotate( xf.q, cnV3( k == 0, k == 1, k == 2 ) );
				*line = (cnPenaltyLine){ axis, -e - c, e - c };
			}
			return extremes >= 2 ? cnPenaltySurface_feature : cnPenaltySurface_face;
		}
		case cnShape_plane:
		case cnShape_heightfield:
		case cnShape_mesh:
			// triangles: their insides are faces (a vertex of a moving mesh counts as one too)
			return cnPenaltySurface_face;
		case cnShape_hull:
		{
			// inside a face when exactly one face plane passes through the point
			const cnHull* h = g->hull;
			double tolerance = 1e-6 * h->radius;
			int planes = 0;
			for ( int i = 0; i < h->faceCount && planes < 2; ++i )
			{
				planes += fabs( cnDot( h->faceNormals[i], local ) - h->faceOffsets[i] ) < tolerance;
			}
			return planes == 1 ? cnPenaltySurface_face : cnPenaltySurface_feature;
		}
		case cnShape_polygon:
		{
			// a vertex, or inside an edge (the planar polygon's face)
			double size = 0.0;
			for ( int i = 0; i < g->vertexCount; ++i )
			{
				size = fmax( size, cnLength( g->vertices[i] ) );
			}
			for ( int i = 0; i < g->vertexCount; ++i )
			{
				cnVec3 e = cnSub( local, g->vertices[i] );
				if ( e.x * e.x + e.y * e.y < 1e-12 * size * size )
				{
					return cnPenaltySurface_feature;
				}
			}
			return cnPenaltySurface_face;
		}
		default:
			return cnPenaltySurface_feature;
	}
}

// Direction from the centre of the rounding to the surface point of shape g (orientation q) whose
// outward normal is d: d itself for spheres and capsules, its part perpendicular to the axis for a
// cylinder's side.
static cnVec3 cnRoundingDirection( const cnGeometry* g, cnQuat q, cnVec3 d )
{
	if ( g->type != cnShape_cylinder )
	{
		return d;
	}
	cnVec3 axis = cnRotate( q, cnV3( 0.0, 0.0, 1.0 ) );
	cnVec3 radial = cnMulSub( d, cnDot( d, axis ), axis );
	double length = cnLength( radial );
	return length > 1e-12 ? cnMulSV( 1.0 / length, radial ) : d;
}

// World transform of shape s of a body at the pose of p.
static cnTransform cnStageShapeTransform( const cnBody* body, const cnShape* s, const cnPenaltyBody* p )
{
	cnTransform xf = { cnSub( p->center, cnRotate( p->q, body->localCenter ) ), p->q };
	return cnMulTransforms( xf, s->local );
}

// Fixes the narrow phase point mp to the bodies at their poses a and b (unless the contact has it
// already: the speculative query repeats the overlapping points).
static void cnPenaltyKeepPoint( const cnPenaltySystem* sys, cnPenaltyContact* pc, const cnPenaltyBody* a,
								const cnPenaltyBody* b, const cnManifoldPoint* mp )
{
	for ( int i = 0; i < pc->pointCount; ++i )
	{
		const cnPenaltyPoint* pp = pc->points + i;
		if ( pp->id == mp->id && cnDot( pp->normal, mp->normal ) > 1.0 - 1e-12 )
		{
			return;
		}
	}
	if ( pc->pointCount == CN_MAX_PAIR_POINTS )
	{
		return;
	}
	const cnWorld* world = sys->world;
	const cnContact* c = world->contacts + pc->contact;
	const cnShape* sa = world->shapes + c->shapeA;
	const cnShape* sb = world->shapes + c->shapeB;
	cnVec3 n = mp->normal;
	// the surface points on either side of the midpoint
	cnVec3 pA = cnMulSub( mp->point, 0.5 * mp->separation, n );
	cnVec3 pB = cnMulAdd( mp->point, 0.5 * mp->separation, n );
	cnPenaltyPoint* pp = pc->points + pc->pointCount++;
	pp->normal = n;
	pp->id = mp->id;
	cnVec3 carrier;
	cnPenaltyLine line;
	pp->surfaceA = (uint8_t)cnClassifySurface( &sa->geom, cnStageShapeTransform( world->bodies + pc->bodyA, sa, a ), pA, n,
											   &carrier, &line );
	pp->localA = cnInvRotate( a->q, cnSub( carrier, a->center ) );
	pp->axisA = cnInvRotate( a->q, line.axis );
	pp->lowA = line.low, pp->highA = line.high;
	pp->surfaceB = (uint8_t)cnClassifySurface( &sb->geom, cnStageShapeTransform( world->bodies + pc->bodyB, sb, b ), pB,
											   cnNeg( n ), &carrier, &line );
	pp->localB = cnInvRotate( b->q, cnSub( carrier, b->center ) );
	pp->axisB = cnInvRotate( b->q, line.axis );
	pp->lowB = line.low, pp->highB = line.high;
	// a face's normal turns with the face
	pp->faceNormal = n;
	if ( pp->surfaceA == cnPenaltySurface_face && pp->surfaceB != cnPenaltySurface_face )
	{
		pp->faceNormal = cnInvRotate( a->q, n );
	}
	else if ( pp->surfaceB == cnPenaltySurface_face && pp->surfaceA != cnPenaltySurface_face )
	{
		pp->faceNormal = cnInvRotate( b->q, n );
	}
}

// The normal force of a point in contact over its stiffness, k d - c v_n over k, as a length, or
// the depth d where that is smaller (the force is zero for d <= 0 whatever the dashpot); its rate
// -v_n into rate (the dashpot term's own rate, -(c / k) times the normal acceleration, left out:
// the time-of-contact search only needs the rate as a guide).
static double cnForceGap( const cnPenaltyContact* pc, const cnPenaltyBody* a, const cnPenaltyBody* b,
						  const cnManifoldPoint* mp, double* rate )
{
	const double omega = 2.0 * CN_PI * CN_PENALTY_FREQUENCY;
	cnVec3 rA = cnSub( mp->point, a->center ), rB = cnSub( mp->point, b->center );
	cnVec3 vrel = cnSub( cnAdd( b->v, cnCross( b->w, rB ) ), cnAdd( a->v, cnCross( a->w, rA ) ) );
	double vn = cnDot( vrel, mp->normal );
	double depth = -mp->separation;
	*rate = -vn;
	double mEff = cnPenaltyEffectiveMass( a, b, mp->point, mp->normal );
	if ( !( mEff > 0.0 ) )
	{
		return depth;
	}
	double k = pc->stiffness > 0.0 ? pc->stiffness : mEff * omega * omega;
	double c = pc->damping > 0.0 ? pc->damping : 2.0 * pc->dampingRatio * sqrt( k * mEff );
	return fmin( depth, depth - ( c / k ) * vn );
}

// Largest speed and acceleration of a point of a body at the loaded stage (fixed bodies: zero).
static void cnPointMotion( const cnPenaltySystem* sys, int bodyIndex, const cnPenaltyBody* p, double* speed,
						   double* accel )
{
	const cnBody* body = sys->world->bodies + bodyIndex;
	int slot = sys->slot[bodyIndex];
	*speed = cnLength( p->v ) + cnLength( p->w ) * body->maxExtent;
	*accel = slot >= 0 ? sys->accel[slot] : 0.0;
}

void cnPenaltyRefresh( cnPenaltySystem* sys, double tEnd )
{
	cnRk* rk = &sys->rk;
	// the longest the next step can be: the integrator's proposal (which it may stretch by 1 % to
	// land on tEnd), or what is left of the interval
	double horizon = tEnd - rk->t;
	if ( rk->h > 0.0 && 1.01 * rk->h < horizon )
	{
		horizon = 1.01 * rk->h;
	}
	cnPenaltyLoadStage( sys, rk->t, rk->y );
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		cnPenaltyContact* pc = sys->contacts + i;
		cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
		cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
		cnManifoldPoint found[CN_MAX_PAIR_POINTS];
		pc->pointCount = 0;

		// the overlapping points: the narrow phase picks at most four per manifold among them
		int count = cnPenaltyCollide( sys, pc, &a, &b, 0.0, found );
		for ( int k = 0; k < count; ++k )
		{
			cnPenaltyKeepPoint( sys, pc, &a, &b, found + k );
		}

		// and those that can come into contact within the step: the points of either body move at
		// most (|v| + |w| r_max) h + a h^2 (twice the distance the acceleration gives)
		double speedA, speedB, accelA, accelB;
		cnPointMotion( sys, pc->bodyA, &a, &speedA, &accelA );
		cnPointMotion( sys, pc->bodyB, &b, &speedB, &accelB );
		double margin = horizon * ( speedA + speedB ) + horizon * horizon * ( accelA + accelB );
		if ( margin > 0.0 )
		{
			count = cnPenaltyCollide( sys, pc, &a, &b, margin, found );
			for ( int k = 0; k < count; ++k )
			{
				cnPenaltyKeepPoint( sys, pc, &a, &b, found + k );
			}
		}

		// how each point's force can switch within the step: on if it is apart now, off if it pushes
		double rate;
		cnPenaltyStagePoints( sys, pc, &a, &b, found );
		for ( int k = 0; k < pc->pointCount; ++k )
		{
			pc->switching[k] = cnPenaltySwitch_none;
			if ( found[k].separation > 0.0 )
			{
				pc->switching[k] = cnPenaltySwitch_onset;
			}
			else if ( cnForceGap( pc, &a, &b, found + k, &rate ) > 0.0 )
			{
				pc->switching[k] = cnPenaltySwitch_release;
			}
		}
	}
	cnRk_Invalidate( rk );
}

// A core of a contact point at a stage: the carrier c, the world axis of its line (zero: a point)
// with the line's extent about c, and the radius of the rounding about it (0 for a corner or an
// edge); a cylinder's line ends in its rims, sharp circles.
typedef struct cnStageCore
{
	cnVec3 c, axis;
	double low, high, radius;
	bool cylinder;
} cnStageCore;

static cnStageCore cnMakeStageCore( const cnGeometry* g, const cnPenaltyBody* body, cnVec3 local, cnVec3 axis,
									double low, double high, uint8_t surface )
{
	cnStageCore k;
	k.c = cnAdd( body->center, cnRotate( body->q, local ) );
	k.axis = cnRotate( body->q, axis );
	k.low = low;
	k.high = high;
	k.radius = surface == cnPenaltySurface_round ? g->radius : 0.0;
	k.cylinder = surface == cnPenaltySurface_round && g->type == cnShape_cylinder;
	return k;
}

// The point of the core closest to target, and the radius of the rounding about it: the core's own
// for a point or inside the line; a cylinder beyond its cap plane meets target at its rim, a point
// without rounding.
static cnVec3 cnCoreClosest( const cnStageCore* k, cnVec3 target, double* radius )
{
	*radius = k->radius;
	if ( k->axis.x == 0.0 && k->axis.y == 0.0 && k->axis.z == 0.0 )
	{
		return k->c;
	}
	double t = cnDot( cnSub( target, k->c ), k->axis );
	double tc = fmax( k->low, fmin( k->high, t ) );
	cnVec3 q = cnMulAdd( k->c, tc, k->axis );
	if ( k->cylinder && tc != t )
	{
		cnVec3 r = cnSub( target, q );
		cnVec3 radial = cnMulSub( r, cnDot( r, k->axis ), k->axis );
		double length = cnLength( radial );
		if ( length > 1e-12 * k->radius )
		{
			*radius = 0.0;
			return cnMulAdd( q, k->radius / length, radial );
		}
	}
	return q;
}

int cnPenaltyStagePoints( const cnPenaltySystem* sys, const cnPenaltyContact* pc, const cnPenaltyBody* a,
						  const cnPenaltyBody* b, cnManifoldPoint* points )
{
	const cnWorld* world = sys->world;
	const cnContact* c = world->contacts + pc->contact;
	const cnShape* sa = world->shapes + c->shapeA;
	const cnShape* sb = world->shapes + c->shapeB;
	cnQuat qA = cnMulQuat( a->q, sa->local.q );
	cnQuat qB = cnMulQuat( b->q, sb->local.q );
	for ( int i = 0; i < pc->pointCount; ++i )
	{
		const cnPenaltyPoint* pp = pc->points + i;
		cnManifoldPoint* mp = points + i;
		mp->id = pp->id;
		bool faceA = pp->surfaceA == cnPenaltySurface_face, faceB = pp->surfaceB == cnPenaltySurface_face;

		if ( faceA == false && faceB == false &&
			 ( pp->surfaceA == cnPenaltySurface_round || pp->surfaceB == cnPenaltySurface_round ) )
		{
			// a rounded surface against a rounded one, a corner or an edge: the normal is the line
			// between the closest points of the two cores (the centres of two spheres), so the force
			// passes through the centre of every rounding; the cores slide along their lines
			// (capsule segments, cylinder axes, box edges), alternately, to the closest points
			cnStageCore kA = cnMakeStageCore( &sa->geom, a, pp->localA, pp->axisA, pp->lowA, pp->highA, pp->surfaceA );
			cnStageCore kB = cnMakeStageCore( &sb->geom, b, pp->localB, pp->axisB, pp->lowB, pp->highB, pp->surfaceB );
			bool lineA = cnLength( kA.axis ) > 0.0, lineB = cnLength( kB.axis ) > 0.0;
			cnVec3 cA = kA.c, cB = kB.c;
			double rA = kA.radius, rB = kB.radius;
			int passes = lineA && lineB ? 4 : 1;
			for ( int pass = 0; pass < passes; ++pass )
			{
				if ( lineA )
				{
					cA = cnCoreClosest( &kA, cB, &rA );
				}
				if ( lineB )
				{
					cB = cnCoreClosest( &kB, cA, &rB );
				}
			}
			// signed: a corner or an edge may be inside the other core's rounding; a direction far
			// from the step's normal (cores nearly coinciding) falls back to it
			cnVec3 d = cnSub( cB, cA );
			double length = cnLength( d ), along = cnDot( d, pp->normal );
			cnVec3 n = pp->normal;
			if ( length > 1e-9 * ( rA + rB ) + 1e-12 && fabs( along ) > 0.5 * length )
			{
				n = cnMulSV( ( along > 0.0 ? 1.0 : -1.0 ) / length, d );
			}
			cnVec3 pA = cnMulAdd( cA, rA, n );
			cnVec3 pB = cnMulSub( cB, rB, n );
			mp->separation = cnDot( cnSub( pB, pA ), n );
			mp->point = cnLerp( pA, pB, 0.5 );
			mp->normal = n;
			continue;
		}

		// a face's normal turns with its body (a vertex or a ball against a turning face); two faces,
		// or corners and edges against each other, keep the normal of the step start
		cnVec3 n = pp->normal;
		if ( faceA && faceB == false )
		{
			n = cnRotate( a->q, pp->faceNormal );
		}
		else if ( faceB && faceA == false )
		{
			n = cnRotate( b->q, pp->faceNormal );
		}
		cnVec3 pA = cnAdd( a->center, cnRotate( a->q, pp->localA ) );
		if ( pp->surfaceA == cnPenaltySurface_round )
		{
			pA = cnMulAdd( pA, sa->geom.radius, cnRoundingDirection( &sa->geom, qA, n ) );
		}
		cnVec3 pB = cnAdd( b->center, cnRotate( b->q, pp->localB ) );
		if ( pp->surfaceB == cnPenaltySurface_round )
		{
			pB = cnMulAdd( pB, sb->geom.radius, cnRoundingDirection( &sb->geom, qB, cnNeg( n ) ) );
		}
		mp->separation = cnDot( cnSub( pB, pA ), n );
		// midway between the surfaces, beside the side that carries the point: a vertex sliding on a
		// face takes the contact with it, as the narrow phase would place it, and the force acts
		// along the face's normal through the vertex or the centre of the rounding
		if ( faceA && faceB == false )
		{
			mp->point = cnMulSub( pB, 0.5 * mp->separation, n );
		}
		else if ( faceB && faceA == false )
		{
			mp->point = cnMulAdd( pA, 0.5 * mp->separation, n );
		}
		else
		{
			mp->point = cnLerp( pA, pB, 0.5 );
		}
		mp->normal = n;
	}
	return pc->pointCount;
}

// Radius of the stability region of Dormand-Prince's 5th-order solution, |R(z)| <= 1 with
// R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 + z^5/120 + z^6/600, along the ray of the eigenvalue
// w (-zeta + i sqrt(1 - zeta^2)) of an underdamped spring-dashpot. Measured on R and tabulated;
// linear interpolation between the samples stays below the (concave) true radius. On the
// imaginary axis (zeta = 0) the method damps only up to |z| ~ 1 and amplifies slowly beyond, too
// slowly for the error estimate to notice while the motion is at round-off level: undamped resting
// contacts would otherwise grow noise up to the error tolerance.
double cnPenaltyStabilityRadius( double zeta )
{
	static const double zetas[] = { 0.0,   0.0035, 0.0087, 0.0175, 0.035, 0.052,
									0.07,  0.087,  0.122,  0.174,  0.342, 1.0 };
	static const double radii[] = { 1.0, 1.6, 1.83, 2.03, 2.27, 2.42, 2.53, 2.62, 2.76, 2.93, 3.28, 3.29 };
	const int count = (int)( sizeof( zetas ) / sizeof( zetas[0] ) );
	if ( !( zeta > 0.0 ) )
	{
		return radii[0];
	}
	for ( int i = 1; i < count; ++i )
	{
		if ( zeta <= zetas[i] )
		{
			double s = ( zeta - zetas[i - 1] ) / ( zetas[i] - zetas[i - 1] );
			return radii[i - 1] + s * ( radii[i] - radii[i - 1] );
		}
	}
	return radii[count - 1];
}

// Adds the spring-dashpot and friction forces of one contact at the loaded stage.
static void cnPenaltyContactForce( cnPenaltySystem* sys, const cnPenaltyContact* pc )
{
	const double omega = 2.0 * CN_PI * CN_PENALTY_FREQUENCY;
	cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
	cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
	cnManifoldPoint points[CN_MAX_PAIR_POINTS];
	int pointCount = cnPenaltyStagePoints( sys, pc, &a, &b, points );
	int slotA = sys->slot[pc->bodyA], slotB = sys->slot[pc->bodyB];

	for ( int i = 0; i < pointCount; ++i )
	{
		const cnManifoldPoint* mp = points + i;
		// each point's own normal: a planar polygon pair's points need not share one
		cnVec3 n = mp->normal;
		double depth = -mp->separation;
		if ( !( depth > 0.0 ) )
		{
			continue;
		}
		cnVec3 rA = cnSub( mp->point, a.center );
		cnVec3 rB = cnSub( mp->point, b.center );
		cnVec3 vrel = cnSub( cnAdd( b.v, cnCross( b.w, rB ) ), cnAdd( a.v, cnCross( a.w, rA ) ) );
		double vn = cnDot( vrel, n );
		if ( sys->analytic && vn < -CN_ANALYTIC_MAX_CONTACT_VELOCITY && cnPenaltyWasOverlapping( pc, mp->id ) == false )
		{
			// a collision: the impulse takes it once the step has found it, the spring must not
			// act before (its force would leak into the dense output the impact is located on)
			continue;
		}

		// stiffness and damping per point: k = m_eff w0^2 keeps the natural frequency of every point
		// contact at CN_PENALTY_FREQUENCY, and c = 2 zeta sqrt(k m_eff) gives the restitution
		double mEff = cnPenaltyEffectiveMass( &a, &b, mp->point, n );
		if ( mEff <= 0.0 )
		{
			continue;
		}
		double k = pc->stiffness > 0.0 ? pc->stiffness : mEff * omega * omega;
		double c = pc->damping > 0.0 ? pc->damping : 2.0 * pc->dampingRatio * sqrt( k * mEff );

		// the dashpot may slow the separation but the contact never pulls
		double fn = k * depth - c * vn;
		if ( !( fn > 0.0 ) )
		{
			continue;
		}

		// Coulomb friction against the slip, viscous (regularised static friction) below the slip speed
		cnVec3 vt = cnMulSub( vrel, vn, n );
		double slip = cnLength( vt );
		cnVec3 f = cnMulSV( fn, n );
		if ( slip > 0.0 && pc->friction > 0.0 )
		{
			// the viscous part is a damper on the slip, of rate mu F_n / (m_t v_eps) with m_t the
			// effective mass along the slip: capped at CN_PENALTY_FRICTION_RATE times the point's
			// own frequency, so that impacts (normal forces hundreds of times a body's weight) do not
			// make friction far stiffer than the contact spring
			double coulomb = pc->friction * fn;
			double mT = cnPenaltyEffectiveMass( &a, &b, mp->point, cnMulSV( 1.0 / slip, vt ) );
			double damper = fmin( coulomb / CN_PENALTY_SLIP_SPEED, CN_PENALTY_FRICTION_RATE * mT * sqrt( k / mEff ) );
			double ft = fmin( coulomb, damper * slip );
			f = cnMulSub( f, ft / slip, vt );
		}

		// this point's oscillation mode, scaled by the stability radius in its direction
		double mode = 0.0;
		double zeta = 0.5 * c / sqrt( k * mEff );
		if ( zeta < 1.0 )
		{
			double r = cnPenaltyStabilityRadius( zeta );
			mode = k / ( mEff * r * r );
		}

		// f acts on B at the point, -f on A
		if ( slotB >= 0 )
		{
			sys->force[slotB] = cnAdd( sys->force[slotB], f );
			sys->torque[slotB] = cnAdd( sys->torque[slotB], cnCross( rB, f ) );
			sys->modes[slotB] += mode;
		}
		if ( slotA >= 0 )
		{
			sys->force[slotA] = cnSub( sys->force[slotA], f );
			sys->torque[slotA] = cnSub( sys->torque[slotA], cnCross( rA, f ) );
			sys->modes[slotA] += mode;
		}
	}
}

void cnPenaltyDerivative( double t, const double* y, double* dydt, void* context )
{
	cnPenaltySystem* sys = context;
	const cnWorld* world = sys->world;
	cnPenaltyLoadStage( sys, t, y );
	for ( int k = 0; k < sys->bodyCount; ++k )
	{
		sys->modes[k] = 0.0;
	}
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		cnPenaltyContactForce( sys, sys->contacts + i );
	}
	if ( sys->jointCount > 0 )
	{
		cnPenaltyJointForces( sys );
	}

	for ( int k = 0; k < sys->bodyCount; ++k )
	{
		const cnBody* body = world->bodies + sys->bodies[k];
		const cnPenaltyBody* p = sys->stage + k;
		const double* s = y + CN_PENALTY_STRIDE * k;
		double* d = dydt + CN_PENALTY_STRIDE * k;

		// x' = v; q' = 1/2 (0, w) q with w in the world frame (q as integrated, not renormalised, so
		// the exact flow keeps |q|)
		cnVec3 v = p->v, w = p->w;
		cnQuat q = { s[3], s[4], s[5], s[6] };
		cnQuat wq = { 0.0, w.x, w.y, w.z };
		cnQuat dq = cnMulQuat( wq, q );

		// m v' = m s g + F - m c v - k |v| v (gravity, forces, linear damping, quadratic drag)
		cnVec3 a = cnMulAdd( cnMulSV( body->gravityScale, world->gravity ), p->invMass, sys->force[k] );
		a = cnMulSub( a, body->linearDamping, v );
		a = cnMulSub( a, body->drag * p->invMass * cnLength( v ), v );

		// I w' = tau - w x (I w) - I c w (Euler's equations in the world frame, angular damping)
		cnVec3 tau = sys->torque[k];
		if ( body->isotropic == false )
		{
			tau = cnSub( tau, cnCross( w, cnMulMV( p->I, w ) ) );
		}
		cnVec3 alpha = cnMulSub( cnMulMV( p->invI, tau ), body->angularDamping, w );
		cnProjectPlanar( world, &a, &alpha );
		sys->accel[k] = cnLength( a ) + cnLength( alpha ) * body->maxExtent;

		d[0] = v.x, d[1] = v.y, d[2] = v.z;
		d[3] = 0.5 * dq.w, d[4] = 0.5 * dq.x, d[5] = 0.5 * dq.y, d[6] = 0.5 * dq.z;
		d[7] = a.x, d[8] = a.y, d[9] = a.z;
		d[10] = alpha.x, d[11] = alpha.y, d[12] = alpha.z;
	}
}

double cnPenaltyStepBound( const cnPenaltySystem* sys, const double* y )
{
	const cnWorld* world = sys->world;
	double bound = sys->timeStep;
	if ( sys->jointCount > 0 )
	{
		cnPenaltyJointModes( sys );
	}
	for ( int k = 0; k < sys->bodyCount; ++k )
	{
		const cnBody* body = world->bodies + sys->bodies[k];
		const double* s = y + CN_PENALTY_STRIDE * k;
		double v = sqrt( s[7] * s[7] + s[8] * s[8] + s[9] * s[9] );
		double w = sqrt( s[10] * s[10] + s[11] * s[11] + s[12] * s[12] );
		double speed = v + w * body->maxExtent;
		double reach = CN_PENALTY_MOTION_FRACTION * sys->minSize[k];
		if ( speed * bound > reach )
		{
			bound = reach / speed;
		}
		// stability of the contacts' and the joints' oscillation
		double modes = sys->jointCount > 0 ? sys->modes[k] + sys->jointModes[k] : sys->modes[k];
		double omega = sqrt( modes );
		if ( omega * bound > CN_PENALTY_STABLE_FRACTION )
		{
			bound = CN_PENALTY_STABLE_FRACTION / omega;
		}
	}
	for ( int i = 0; i < sys->kinematicCount; ++i )
	{
		const cnBody* body = world->bodies + sys->kinematics[i];
		double speed = cnLength( body->v ) + cnLength( body->w ) * body->maxExtent;
		double reach = CN_PENALTY_MOTION_FRACTION * cnBodyMinSize( world, body );
		if ( speed * bound > reach )
		{
			bound = reach / speed;
		}
	}
	return bound;
}

void cnPenaltyFinish( cnPenaltySystem* sys, const double* y )
{
	cnWorld* world = sys->world;
	double timeStep = sys->timeStep;
	if ( sys->jointCount > 0 )
	{
		cnPenaltyEndJoints( sys, timeStep, y );
	}
	for ( int k = 0; k < sys->bodyCount; ++k )
	{
		cnBody* body = world->bodies + sys->bodies[k];
		const double* s = y + CN_PENALTY_STRIDE * k;
		cnQuat q = { s[3], s[4], s[5], s[6] };
		cnVec3 v = cnV3( s[7], s[8], s[9] ), w = cnV3( s[10], s[11], s[12] );
		cnProjectPlanar( world, &v, &w );
		body->center = cnV3( s[0], s[1], s[2] );
		body->xf.q = cnNormalizeQuat( q );
		body->xf.p = cnSub( body->center, cnRotate( body->xf.q, body->localCenter ) );
		body->v = v;
		body->w = w;
	}
	for ( int i = 0; i < sys->kinematicCount; ++i )
	{
		cnIntegrateBodyPosition( world->bodies + sys->kinematics[i], timeStep );
	}
	if ( sys->bodyCount > 0 )
	{
		( (cnAdaptiveState*)world->methodState )->lastStep = sys->rk.h;
	}
}

// The switch search's g(t) at time t on the step's dense output: the smallest, over the step's
// points whose force can switch, of the separation (a point apart at the step start) or of
// cnForceGap (a point pushing then), with its rate; DBL_MAX when there are none.
typedef struct cnSwitchSearch
{
	cnPenaltySystem* sys;
	double* probe;
	/// out: the kind of switch of the point with the smallest gap at the last evaluation
	cnPenaltySwitch kind;
} cnSwitchSearch;

static double cnSwitchGap( void* context, double t, double* rate )
{
	cnSwitchSearch* ss = context;
	cnPenaltySystem* sys = ss->sys;
	cnPenaltyLoadStageAt( sys, t, ss->probe );
	double gap = DBL_MAX;
	*rate = 0.0;
	for ( int i = 0; i < sys->contactCount; ++i )
	{
		const cnPenaltyContact* pc = sys->contacts + i;
		bool any = false;
		for ( int k = 0; k < pc->pointCount; ++k )
		{
			any = any || pc->switching[k] != cnPenaltySwitch_none;
		}
		if ( any == false )
		{
			continue;
		}
		cnPenaltyBody a = cnPenaltyGetBody( sys, pc->bodyA );
		cnPenaltyBody b = cnPenaltyGetBody( sys, pc->bodyB );
		cnManifoldPoint points[CN_MAX_PAIR_POINTS];
		int count = cnPenaltyStagePoints( sys, pc, &a, &b, points );
		for ( int k = 0; k < count; ++k )
		{
			const cnManifoldPoint* mp = points + k;
			double value, speed;
			if ( pc->switching[k] == cnPenaltySwitch_onset )
			{
				value = mp->separation;
				cnForceGap( pc, &a, &b, mp, &speed );
				speed = -speed;
			}
			else if ( pc->switching[k] == cnPenaltySwitch_release )
			{
				value = cnForceGap( pc, &a, &b, mp, &speed );
			}
			else
			{
				continue;
			}
			if ( value < gap )
			{
				gap = value;
				*rate = speed;
				ss->kind = pc->switching[k];
			}
		}
	}
	return gap;
}

bool cnPenaltyLocateSwitch( cnPenaltySystem* sys, double t0, const double* start, double hMax, double* probe )
{
	cnRk* rk = &sys->rk;
	cnSwitchSearch ss = { sys, probe, cnPenaltySwitch_none };
	double rate;
	double g = cnSwitchGap( &ss, rk->t, &rate );
	if ( g > 0.0 )
	{
		return true;
	}

	// a point's force switched within the step: Newton-Raphson on its gap along the dense output,
	// bisection as fallback, for the first moment one crossed zero
	double t1 = rk->t;
	cnContactTimeSearch search = {
		.lo = t0,
		.hi = t1,
		.gHi = g,
		.rateHi = rate,
		.gTolerance = CN_PENALTY_SWITCH_TOLERANCE,
		.sTolerance = 1e-12 * sys->timeStep,
		.maxIterations = 64,
	};
	cnFindContactTime( &search, cnSwitchGap, &ss );
	double tc = search.root;
	if ( search.g > 0.0 )
	{
		// just short of the switch: step over it by twice the remaining gap, so the retried step
		// ends with the force on its new branch and the next step starts there
		double t = search.rate < 0.0 ? tc - 2.0 * search.g / search.rate : search.hi;
		tc = search.hi;
		if ( t > search.root && t < search.hi && cnSwitchGap( &ss, t, &rate ) <= 0.0 )
		{
			tc = t;
		}
	}

	// nothing to gain from a retry that ends where the step began or where it ended
	if ( !( tc - t0 > 1e-9 * sys->timeStep ) || !( tc < t1 ) )
	{
		return true;
	}

	// the retry: the same step from the same start and points, cut at the switch (a shorter step
	// than one just accepted, so it is accepted in turn unless the error happens to grow). The dense
	// output fits the whole step, the force after the switch included, so the retried step can end
	// a little short of the switch: then it is taken again, longer by twice the gap left (Newton on
	// the retried step's own gap, as Kleppmann's retries)
	double proposal = rk->h;
	for ( int attempt = 0; attempt < 4; ++attempt )
	{
		cnRk_Reset( rk, t0, start, tc - t0 );
		if ( cnRk_Step( rk, tc, hMax ) != cnRk_accepted )
		{
			return false;
		}
		if ( rk->t != tc )
		{
			break;
		}
		g = cnSwitchGap( &ss, tc, &rate );
		if ( g <= 0.0 )
		{
			if ( ss.kind == cnPenaltySwitch_onset )
			{
				// a contact began here: its time is kept for the tests (contact_time.h)
				cnRecordContactTime( sys->world, tc );
			}
			break;
		}
		double next = rate < 0.0 ? tc - 2.0 * g / rate : t1;
		if ( !( next > tc && next < t1 ) )
		{
			break;
		}
		tc = next;
	}
	rk->h = fmax( rk->h, proposal );
	return true;
}

static bool cnStepPenalty( cnWorld* world, double timeStep )
{
	cnPenaltySystem sys;
	if ( cnPenaltyBegin( world, &sys, timeStep ) == false )
	{
		return false;
	}

	// carry the step size of the last world step; the first one starts from the whole interval and
	// lets rejections find the scale
	double last = ( (cnAdaptiveState*)world->methodState )->lastStep;
	double h = last > 0.0 ? fmin( last, timeStep ) : timeStep;
	cnRk_Reset( &sys.rk, 0.0, sys.y0, h );
	double* start = cnArena_Alloc( &world->arena, (size_t)( sys.n > 0 ? sys.n : 1 ) * sizeof( double ) );
	double* probe = cnArena_Alloc( &world->arena, (size_t)( sys.n > 0 ? sys.n : 1 ) * sizeof( double ) );
	if ( start == NULL || probe == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory in the penalty step" );
	}
	int steps = 0;
	while ( sys.bodyCount > 0 && sys.rk.t < timeStep )
	{
		if ( cnCheckCancel( world ) )
		{
			return false;
		}
		if ( ++steps > CN_PENALTY_MAX_STEPS )
		{
			return cnSetError( cnError_stepFailed, "penalty: more than %d internal steps in one step of %g s", CN_PENALTY_MAX_STEPS,
							   timeStep );
		}
		cnPenaltyRefresh( &sys, timeStep );
		cnRk_Prime( &sys.rk );
		if ( sys.jointCount > 0 )
		{
			cnPenaltySampleJoints( &sys, sys.rk.t );
		}
		double hMax = cnPenaltyStepBound( &sys, sys.rk.y );
		double t0 = sys.rk.t;
		memcpy( start, sys.rk.y, (size_t)sys.n * sizeof( double ) );
		if ( cnRk_Step( &sys.rk, timeStep, hMax ) != cnRk_accepted ||
			 cnPenaltyLocateSwitch( &sys, t0, start, hMax, probe ) == false )
		{
			return cnSetError( cnError_stepFailed, "penalty: step size underflow at t = %g (error tolerance %g not reachable)",
							   world->time + sys.rk.t, world->def.settings.penalty.errorTolerance );
		}
	}
	cnPenaltyFinish( &sys, sys.rk.y );
	return true;
}

const char* cnValidatePenaltySettings( const cnMethodSettings* settings )
{
	if ( !( settings->penalty.errorTolerance > 0.0 ) || !isfinite( settings->penalty.errorTolerance ) )
	{
		return "penalty settings: errorTolerance must be finite and > 0";
	}
	return NULL;
}

const cnMethodModule cnPenaltyModule = {
	.method = cnMethod_penalty,
	.name = "penalty",
	.summary = "contact springs under adaptive Dormand-Prince RK5(4) (AERO)",
	.flags = cnMethodFlag_adaptive | cnMethodFlag_friction | cnMethodFlag_planar | cnMethodFlag_joints,
	.validate = cnValidatePenaltySettings,
	.stateSize = sizeof( cnContactTimeState ),
	.step = cnStepPenalty,
};
