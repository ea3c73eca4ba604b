// SPDX-License-Identifier: MIT
// Continuous collision (continuous.h, docs/continuous.md): conservative advancement (Mirtich) of
// each fast body's shapes against the static shapes its swept box overlaps, with the GJK distance.
#include "collision/continuous.h"

#include "body.h"
#include "collision/broad_phase.h"
#include "collision/gjk.h"
#include "contact.h"
#include "shape.h"
#include "world.h"

#include <float.h>
#include <math.h>

// a body that moves farther than this fraction of its smallest size in a step is swept
#define CN_FAST_FRACTION 0.25
// conservative advancement gives up (no hit) after this many distance queries
#define CN_TOI_ITERATIONS 64

bool cnUsesContinuous( const cnWorld* world )
{
	switch ( world->def.method )
	{
		case cnMethod_impulse:
		case cnMethod_lcp:
		case cnMethod_velocityProjection:
		case cnMethod_grLcp:
		case cnMethod_grVelocityProjection:
			return true;
		default:
			return false;
	}
}

void cnSaveStartPoses( cnWorld* world )
{
	// every dynamic body, asleep or not: the method may wake a body and move it
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( b->alive && b->type == cnBody_dynamic )
		{
			b->xf0 = b->xf;
			b->center0 = b->center;
		}
	}
}

// The motion of a body over the step as a function of t in [0, 1]: the centre of mass on a line,
// the orientation by slerp at a constant angular rate of angle per unit t.
typedef struct cnSweep
{
	cnVec3 c0, dc;
	cnQuat q0, q1;
	cnVec3 localCenter;
	double angle;
} cnSweep;

static cnQuat cnSlerp( cnQuat q0, cnQuat q1, double t, double angle )
{
	if ( angle < 1e-6 )
	{
		cnQuat q = { q0.w + t * ( q1.w - q0.w ), q0.x + t * ( q1.x - q0.x ), q0.y + t * ( q1.y - q0.y ),
					 q0.z + t * ( q1.z - q0.z ) };
		return cnNormalizeQuat( q );
	}
	// the half angle between the quaternions is angle / 2
	double h = 0.5 * angle;
	double s = sin( h );
	double a = sin( ( 1.0 - t ) * h ) / s;
	double b = sin( t * h ) / s;
	cnQuat q = { a * q0.w + b * q1.w, a * q0.x + b * q1.x, a * q0.y + b * q1.y, a * q0.z + b * q1.z };
	return cnNormalizeQuat( q );
}

static cnTransform cnSweepTransform( const cnSweep* sw, double t )
{
	cnTransform xf;
	xf.q = cnSlerp( sw->q0, sw->q1, t, sw->angle );
	cnVec3 c = cnMulAdd( sw->c0, t, sw->dc );
	xf.p = cnSub( c, cnRotate( xf.q, sw->localCenter ) );
	return xf;
}

// Smallest half-size of a shape: how far it can move before a thin obstacle may fit through.
static double cnInnerExtent( const cnGeometry* g )
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
		default:
			// planes and planar polygons are not swept
			return DBL_MAX;
	}
}

static bool cnIsSwept( const cnGeometry* g )
{
	return g->type == cnShape_sphere || g->type == cnShape_capsule || g->type == cnShape_box ||
		   g->type == cnShape_cylinder;
}

// What the static tree query needs: the fast shape, its sweep and the earliest hit so far.
typedef struct cnContinuousQuery
{
	cnWorld* world;
	const cnShape* shape;
	const cnSweep* sweep;
	// largest distance from the centre of mass to a point of the shape
	double reach;
	double target;
	// the shape's centre at the end pose
	cnVec3 endCenter;
	// earliest time of impact found (1: none)
	double fraction;
} cnContinuousQuery;

// Time of impact of the swept shape against a static shape by conservative advancement: t moves
// on by (distance - target) / (a bound on how fast the distance can shrink) until the shapes are
// within the target separation. Returns 1 when they do not meet before fraction. The distance
// shrinks at most at |dc . n| + angle reach per unit t along the current normal; should that step
// overshoot (the normal turns), the full bound |dc| + angle reach takes over from the last pose.
static double cnTimeOfImpact( const cnContinuousQuery* q, const cnShape* other, cnVec3* normal, cnVec3* point )
{
	const cnSweep* sw = q->sweep;
	const cnBody* body = q->world->bodies + other->body;
	cnTransform xfA = cnShapeWorldTransform( body, other );
	double tolerance = 0.25 * q->target;
	double t = 0.0;
	cnTransform xfB = cnMulTransforms( cnSweepTransform( sw, t ), q->shape->local );
	cnDistanceOutput out = cnShapeDistance( &other->geom, xfA, &q->shape->geom, xfB );
	if ( out.distance <= q->target )
	{
		// touching at the start: the contacts of the step took care of it
		return 1.0;
	}
	bool strict = false;
	double linear = cnLength( sw->dc );
	for ( int iter = 0; iter < CN_TOI_ITERATIONS; ++iter )
	{
		if ( out.distance < q->target + tolerance )
		{
			*normal = out.normal;
			*point = out.pointA;
			return t;
		}
		double rate = ( strict ? linear : fabs( cnDot( sw->dc, out.normal ) ) ) + sw->angle * q->reach;
		if ( rate <= 0.0 )
		{
			return 1.0;
		}
		double next = t + ( out.distance - q->target ) / rate;
		if ( next >= q->fraction )
		{
			return 1.0;
		}
		xfB = cnMulTransforms( cnSweepTransform( sw, next ), q->shape->local );
		cnDistanceOutput nextOut = cnShapeDistance( &other->geom, xfA, &q->shape->geom, xfB );
		if ( nextOut.distance < q->target - tolerance && strict == false )
		{
			// overshot: stay at t and advance by the bound that cannot overshoot
			strict = true;
			continue;
		}
		t = next;
		out = nextOut;
	}
	return 1.0;
}

static bool cnContinuousCallback( int32_t proxyId, uint64_t userData, void* context )
{
	(void)proxyId;
	cnContinuousQuery* q = context;
	const cnShape* other = q->world->shapes + (int)userData;
	if ( cnIsSwept( &other->geom ) == false || cnShouldShapesCollide( q->shape, other ) == false )
	{
		return true;
	}
	cnVec3 normal = cnVec3_zero, point = cnVec3_zero;
	double t = cnTimeOfImpact( q, other, &normal, &point );
	if ( t >= q->fraction )
	{
		return true;
	}
	// only a pass through counts: the shape's centre ends behind the surface it met. A fast body
	// that the method stopped in front of the surface (speculative contacts) is left alone, so
	// scenes without tunnelling run exactly as they would without this stage.
	if ( cnDot( cnSub( q->endCenter, point ), normal ) < 0.0 )
	{
		q->fraction = t;
	}
	return true;
}

void cnSolveContinuous( cnWorld* world )
{
	const cnDynamicTree* staticTree = cnBroadPhase_GetTree( &world->broadPhase, cnProxy_static );
	if ( staticTree->proxyCount == 0 )
	{
		return;
	}
	double target = world->def.linearSlop > 1e-4 ? world->def.linearSlop : 1e-4;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( b->alive == false || b->type != cnBody_dynamic || b->awake == false || b->firstShape < 0 )
		{
			continue;
		}
		cnSweep sw;
		sw.c0 = b->center0;
		sw.dc = cnSub( b->center, b->center0 );
		sw.q0 = b->xf0.q;
		sw.q1 = b->xf.q;
		double d = sw.q0.w * sw.q1.w + sw.q0.x * sw.q1.x + sw.q0.y * sw.q1.y + sw.q0.z * sw.q1.z;
		if ( d < 0.0 )
		{
			sw.q1 = (cnQuat){ -sw.q1.w, -sw.q1.x, -sw.q1.y, -sw.q1.z };
			d = -d;
		}
		sw.angle = 2.0 * acos( d < 1.0 ? d : 1.0 );
		sw.localCenter = b->localCenter;

		// fast: a bullet, or farther than a fraction of its smallest shape's smallest half-size
		double motion = cnLength( sw.dc ) + sw.angle * b->maxExtent;
		if ( b->isBullet == false )
		{
			double inner = DBL_MAX;
			for ( int s = b->firstShape; s >= 0; s = world->shapes[s].nextShape )
			{
				inner = fmin( inner, cnInnerExtent( &world->shapes[s].geom ) );
			}
			if ( !( motion > CN_FAST_FRACTION * inner ) )
			{
				continue;
			}
		}
		if ( motion <= 0.0 )
		{
			continue;
		}

		cnContinuousQuery q = { 0 };
		q.world = world;
		q.sweep = &sw;
		q.target = target;
		q.fraction = 1.0;
		for ( int s = b->firstShape; s >= 0; s = world->shapes[s].nextShape )
		{
			const cnShape* shape = world->shapes + s;
			if ( cnIsSwept( &shape->geom ) == false )
			{
				continue;
			}
			q.shape = shape;
			cnVec3 offset = cnSub( cnTransformPoint( shape->local, cnVec3_zero ), b->localCenter );
			double radius = cnShapeBoundingRadius( &shape->geom );
			q.reach = cnLength( offset ) + radius;
			q.endCenter = cnTransformPoint( cnMulTransforms( b->xf, shape->local ), cnVec3_zero );

			// the swept box: the boxes at both ends, widened for the bulge of the turning shape
			cnAABB box = cnAABB_Union( cnComputeShapeAABB( &shape->geom, cnMulTransforms( b->xf0, shape->local ) ),
									   cnComputeShapeAABB( &shape->geom, cnMulTransforms( b->xf, shape->local ) ) );
			double bulge = fmin( 0.5 * sw.angle, 1.0 ) * q.reach;
			cnVec3 pad = { bulge + target, bulge + target, bulge + target };
			box.lower = cnSub( box.lower, pad );
			box.upper = cnAdd( box.upper, pad );
			cnDynamicTree_Query( staticTree, box, cnContinuousCallback, &q );
		}

		if ( q.fraction < 1.0 )
		{
			// back to the pose at the time of impact, velocity kept: that pose is a target
			// separation away from the surface, so the next step's narrow phase finds the contact
			// and the method stops or bounces the body there
			cnTransform xf = cnSweepTransform( &sw, q.fraction );
			b->xf = xf;
			b->center = cnMulAdd( sw.c0, q.fraction, sw.dc );
			world->stats.continuousHitCount += 1;
		}
	}
}
