// SPDX-License-Identifier: MIT
// Continuous collision (continuous.h, docs/continuous.md): conservative advancement (Mirtich) of
// each fast body's shapes against the shapes its swept box overlaps, with the GJK distance. Every
// pair goes through cnShapeDistance; a mesh or heightfield obstacle is its triangles under the
// swept box, each a three-vertex polygon of radius 0.
#include "collision/continuous.h"

#include "body.h"
#include "collision/broad_phase.h"
#include "collision/gjk.h"
#include "collision/hull.h"
#include "collision/mesh.h"
#include "collision/time_of_impact.h"
#include "contact.h"
#include "joints/joint.h"
#include "mass.h"
#include "pair_map.h"
#include "shape.h"
#include "task.h"
#include "world.h"

#include <float.h>
#include <math.h>

// a body that moves farther than this fraction of its smallest size in a step is swept
#define CN_FAST_FRACTION 0.25

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

// Bodies [start, end): each writes only its own start pose.
static void cnSaveStartPosesRange( int start, int end, int workerIndex, void* context )
{
	(void)workerIndex;
	cnWorld* world = context;
	// every dynamic body, asleep or not: the method may wake a body and move it
	for ( int i = start; i < end; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( b->alive && b->type == cnBody_dynamic )
		{
			b->xf0 = b->xf;
			b->center0 = b->center;
		}
	}
}

void cnSaveStartPoses( cnWorld* world )
{
	cnParallelFor( world, world->bodyCount, 256, cnSaveStartPosesRange, world );
}


// The sweep of a body from its start pose to its current pose. The rotation between the two
// orientations is known only up to whole turns about its axis: the shortest arc is taken unless the
// body's angular velocity says it turned farther (a rod spinning at 400 rad/s turns 6.7 rad in a
// step of 1/60 s, and the shortest arc, 0.4 rad the other way, would miss where its tips went).
static cnSweep cnMakeSweep( const cnBody* b, double timeStep )
{
	cnSweep sw;
	sw.c0 = b->center0;
	sw.dc = cnSub( b->center, b->center0 );
	sw.q0 = b->xf0.q;
	sw.localCenter = b->localCenter;

	// world-frame rotation from q0 to q1: q1 = delta q0
	cnQuat delta = cnMulQuat( b->xf.q, cnConjugate( b->xf0.q ) );
	if ( delta.w < 0.0 )
	{
		delta = (cnQuat){ -delta.w, -delta.x, -delta.y, -delta.z };
	}
	cnVec3 u = { delta.x, delta.y, delta.z };
	double s = cnLength( u );
	if ( s < 1e-12 )
	{
		// the same orientation at both ends: no turn, or whole turns about the spin axis
		sw.angle = 0.0;
		double w = cnLength( b->w );
		if ( w * timeStep < CN_PI )
		{
			sw.axis = cnV3( 0.0, 0.0, 1.0 );
			return sw;
		}
		sw.axis = cnMulSV( 1.0 / w, b->w );
	}
	else
	{
		sw.axis = cnMulSV( 1.0 / s, u );
		sw.angle = 2.0 * atan2( s, delta.w );
	}
	// unwrap: angle + 2 pi k about the same axis reaches the same orientation; choose k nearest the
	// turn the angular velocity gives
	double spin = cnDot( b->w, sw.axis ) * timeStep;
	double k = floor( ( spin - sw.angle ) / ( 2.0 * CN_PI ) + 0.5 );
	double angle = sw.angle + 2.0 * CN_PI * k;
	if ( angle < 0.0 )
	{
		sw.axis = cnNeg( sw.axis );
		angle = -angle;
	}
	sw.angle = angle;
	return sw;
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
		case cnShape_hull:
			return g->hull->innerRadius;
		default:
			// planes, planar polygons, meshes and heightfields are not swept
			return DBL_MAX;
	}
}

// Shapes that are swept: the convex solids.
static bool cnIsSwept( const cnGeometry* g )
{
	return g->type == cnShape_sphere || g->type == cnShape_capsule || g->type == cnShape_box ||
		   g->type == cnShape_cylinder || g->type == cnShape_hull;
}

// Shapes a sweep can stop at: the convex solids and the triangles of meshes and heightfields. A
// plane is a half-space that cannot be crossed; planar polygons only meet polygons.
static bool cnIsObstacle( const cnGeometry* g )
{
	return cnIsSwept( g ) || g->type == cnShape_mesh || g->type == cnShape_heightfield;
}

// One swept shape and the earliest hit found for its body so far.
typedef struct cnSweepQuery
{
	cnWorld* world;
	int bodyIndex;
	const cnShape* shape;
	const cnSweep* sweep;
	// largest distance from the centre of mass to a point of the shape
	double reach;
	double target;
	// an end pose deeper than this in an obstacle counts as a hit: twice the target, or the shape's
	// smallest half-size when larger (a velocity-level method may leave a can a centimetre deep in
	// the floor, and resolves that itself)
	double deep;
	// the shape at the end pose, and its origin at the start pose
	cnTransform xfEnd;
	cnVec3 startCentre;
	// the swept box (world)
	cnAABB box;
	// the movable tree is being queried (bullets)
	bool movable;
	// earliest time of impact found (1: none) and the normal there, from the obstacle to the shape
	double fraction;
	cnVec3 normal;
	// the obstacle's transform while its triangles are visited, and the shape's origin at the start and
	// end poses in the obstacle's frame (what decides which side of a triangle's plane it is on)
	cnTransform xfObstacle;
	cnVec3 startLocal, endLocal;
} cnSweepQuery;

// Time of impact of the swept shape against an obstacle at xfA (time_of_impact.c: conservative
// advancement, no point of the shape moving faster than |dc| + angle reach per unit t, the tips of a
// long body included). Returns 1 when they do not meet before q->fraction, or when they touch at the
// start (the contacts of the step took care of that).
static double cnTimeOfImpactOf( const cnSweepQuery* q, const cnGeometry* other, cnTransform xfA, cnVec3* normal )
{
	cnToiInput in = { other, xfA, &q->shape->geom, q->sweep, q->shape->local, q->reach,
					  q->target, 0.25 * q->target, q->fraction };
	cnToiOutput out = cnTimeOfImpact( &in );
	if ( out.state != cnToi_hit )
	{
		return 1.0;
	}
	*normal = out.normal;
	return out.fraction;
}

// Sweeps the shape against one convex obstacle (a solid or a triangle) and keeps the hit when the
// shape passed through or ended deep in it: at the end pose it is on the other side of the obstacle,
// or overlaps it so that the way out is forward, or overlaps it by more than q->deep (the tip of a
// spinning rod that swung into a plate). A body the method stopped in front
// of a surface (its speculative contact) ends on the side it came from, at most about linearSlop
// deep, and is left alone, so scenes without tunnelling run exactly as they would without these
// stages. crossed is false for a triangle whose plane the shape's centre did not cross: a shape
// sliding over a floor of triangles onto the next one meets that triangle's edge from the side,
// with a normal along the floor, and ends barely overlapping its face, with the face normal, at
// right angles to the first; the sign of that product is round-off, and a hit there stopped a box
// sliding at 4 m/s over a heightfield dead in one step (test_heightfield). Only ending deep counts
// then.
static void cnSweepAgainst( cnSweepQuery* q, const cnGeometry* other, cnTransform xfA, bool crossed )
{
	cnVec3 normal = cnVec3_zero;
	double t = cnTimeOfImpactOf( q, other, xfA, &normal );
	// a hit on a static box's internal face is on a seam inside the solid it makes with its
	// neighbour, which the shape could reach only through the neighbour (a box sliding over a
	// tiled floor meets the next tile's side as it crosses the seam)
	if ( t >= q->fraction || cnLeansIntoInternalFace( other, xfA.q, normal ) )
	{
		return;
	}
	cnDistanceOutput end = cnShapeDistance( other, xfA, &q->shape->geom, q->xfEnd );
	if ( ( crossed && cnDot( end.normal, normal ) < 0.0 ) || end.distance < -q->deep )
	{
		q->fraction = t;
		q->normal = normal;
	}
}

// A mesh or heightfield triangle found under the swept box: a polygon of three vertices and radius
// 0, placed at its centroid so the distance query works with small numbers. Triangles are one-sided
// (collide_mesh.c): the shape passed through one only when its centre went from in front of the
// triangle's plane to behind it.
static bool cnTriangleCallback( void* context, int triangle, const cnVec3 vertices[3] )
{
	(void)triangle;
	cnSweepQuery* q = context;
	cnVec3 local[3];
	cnGeometry g;
	cnTransform offset;
	cnMakeTriangle( vertices, local, &g, &offset );
	// the plane in the obstacle's frame
	cnVec3 face = cnCross( cnSub( vertices[1], vertices[0] ), cnSub( vertices[2], vertices[0] ) );
	double start = cnDot( face, cnSub( q->startLocal, vertices[0] ) );
	double end = cnDot( face, cnSub( q->endLocal, vertices[0] ) );
	cnSweepAgainst( q, &g, cnMulTransforms( q->xfObstacle, offset ), start > 0.0 && end < 0.0 );
	return true;
}

// The box in the frame xf of a box given in world coordinates (the box of its 8 corners).
static cnAABB cnBoxInFrame( cnTransform xf, cnAABB box )
{
	cnAABB out = { { DBL_MAX, DBL_MAX, DBL_MAX }, { -DBL_MAX, -DBL_MAX, -DBL_MAX } };
	for ( int i = 0; i < 8; ++i )
	{
		cnVec3 corner = { ( i & 1 ) ? box.upper.x : box.lower.x, ( i & 2 ) ? box.upper.y : box.lower.y,
						  ( i & 4 ) ? box.upper.z : box.lower.z };
		cnVec3 p = cnInvTransformPoint( xf, corner );
		out.lower = cnMin( out.lower, p );
		out.upper = cnMax( out.upper, p );
	}
	return out;
}

// Broad-phase callback: a shape whose box overlaps the swept box.
static bool cnSweepCallback( int32_t proxyId, uint64_t userData, void* context )
{
	(void)proxyId;
	cnSweepQuery* q = context;
	cnWorld* world = q->world;
	const cnShape* other = world->shapes + (int)userData;
	if ( other->body == q->bodyIndex || cnIsObstacle( &other->geom ) == false ||
		 cnShouldShapesCollide( q->shape, other ) == false )
	{
		return true;
	}
	const cnBody* body = world->bodies + other->body;
	if ( q->movable && body->type == cnBody_dynamic && body->isBullet )
	{
		// bullets do not stop at bullets: neither has its final pose
		return true;
	}
	if ( world->disabledPairs.count > 0 &&
		 cnPairMap_Find( &world->disabledPairs, cnPairKey( q->bodyIndex, other->body ) ) >= 0 )
	{
		return true;
	}
	if ( world->liveJointCount > 0 && cnJointsDisableCollision( world, q->bodyIndex, other->body ) )
	{
		return true;
	}

	q->xfObstacle = cnShapeWorldTransform( body, other );
	if ( other->geom.type == cnShape_mesh || other->geom.type == cnShape_heightfield )
	{
		q->startLocal = cnInvTransformPoint( q->xfObstacle, q->startCentre );
		q->endLocal = cnInvTransformPoint( q->xfObstacle, q->xfEnd.p );
	}
	if ( other->geom.type == cnShape_mesh )
	{
		cnMeshQuery( other->geom.mesh, cnBoxInFrame( q->xfObstacle, q->box ), cnTriangleCallback, q );
	}
	else if ( other->geom.type == cnShape_heightfield )
	{
		cnHeightfieldQuery( other->geom.heightfield, cnBoxInFrame( q->xfObstacle, q->box ), cnTriangleCallback, q );
	}
	else
	{
		cnSweepAgainst( q, &other->geom, q->xfObstacle, true );
	}
	return true;
}

// Sweeps the body's shapes from its start pose to its current pose against the shapes of the trees
// (static, and movable for bullets) and moves it back to its earliest time of impact. True when it
// was moved.
static bool cnSweepBody( cnWorld* world, int bodyIndex, const cnSweep* sw, bool movable )
{
	cnBody* b = world->bodies + bodyIndex;
	double target = world->def.linearSlop > 1e-4 ? world->def.linearSlop : 1e-4;
	cnSweepQuery q = { 0 };
	q.world = world;
	q.bodyIndex = bodyIndex;
	q.sweep = sw;
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
		// the farthest point of the shape from the centre of mass: the shape's origin's distance
		// plus the shape's bounding radius about its origin
		cnVec3 offset = cnSub( shape->local.p, b->localCenter );
		q.reach = cnLength( offset ) + cnShapeBoundingRadius( &shape->geom );
		q.xfEnd = cnMulTransforms( b->xf, shape->local );
		q.startCentre = cnTransformPoint( b->xf0, shape->local.p );
		q.deep = fmax( 2.0 * target, cnInnerExtent( &shape->geom ) );

		// the swept box: the boxes at both ends, widened for the bulge of the turning shape (a point
		// at r from the centre strays at most r (1 - cos(angle / 2)) <= r angle / 2 from the chord
		// between its end positions, and never more than r from the centre's line)
		cnAABB box = cnAABB_Union( cnComputeShapeAABB( &shape->geom, cnMulTransforms( b->xf0, shape->local ) ),
								   cnComputeShapeAABB( &shape->geom, q.xfEnd ) );
		double bulge = fmin( 0.5 * sw->angle, 1.0 ) * q.reach;
		cnVec3 pad = { bulge + target, bulge + target, bulge + target };
		box.lower = cnSub( box.lower, pad );
		box.upper = cnAdd( box.upper, pad );
		q.box = box;

		q.movable = false;
		cnDynamicTree_Query( cnBroadPhase_GetTree( &world->broadPhase, cnProxy_static ), box, cnSweepCallback, &q );
		if ( movable )
		{
			q.movable = true;
			cnDynamicTree_Query( cnBroadPhase_GetTree( &world->broadPhase, cnProxy_movable ), box, cnSweepCallback,
								 &q );
		}
	}
	if ( q.fraction >= 1.0 )
	{
		return false;
	}
	// back to the pose at the time of impact, velocity kept: that pose is a target separation away
	// from the surface, so the next step's narrow phase finds the contact and the method stops or
	// bounces the body there
	b->xf = cnSweepTransform( sw, q.fraction );
	b->center = cnMulAdd( sw->c0, q.fraction, sw->dc );
	if ( q.fraction == 0.0 )
	{
		// stuck: the body started the step at the surface (where the last move back left it) and
		// the method could not stop it there (a fast spin that its contacts, linear in the pose,
		// do not follow). Moving back alone would hold it in place with its velocity for ever: it
		// stops at the surface instead, its approach along the normal and its spin removed.
		double vn = cnDot( b->v, q.normal );
		if ( vn < 0.0 )
		{
			b->v = cnMulSub( b->v, vn, q.normal );
		}
		b->w = cnVec3_zero;
	}
	return true;
}

// A sweep the stages can follow: start and motion finite and within CN_SAFE_MAX (1e150 m, and rad
// for the turn), below which the distance queries' products cannot overflow. A body that went
// farther in one step (a time step of 1e86 s under gravity, found by fuzzing:
// tests/fuzz/crashes/scene_json/timeout-7e4d...) is lost whatever is done here, and sweeping it
// would cost without bound: its swept box holds every triangle of every mesh and heightfield, and
// against each one conservative advancement on infinite or NaN numbers ran all its distance queries,
// each GJK to its iteration cap (3 s per step in a Release build for a heightfield of 1682
// triangles, growing with the triangles). It is not swept; the guard stage that ends the step
// reports a body whose pose is not finite.
static bool cnIsSweepable( const cnSweep* sw )
{
	return fabs( sw->c0.x ) <= CN_SAFE_MAX && fabs( sw->c0.y ) <= CN_SAFE_MAX && fabs( sw->c0.z ) <= CN_SAFE_MAX &&
		   fabs( sw->dc.x ) <= CN_SAFE_MAX && fabs( sw->dc.y ) <= CN_SAFE_MAX && fabs( sw->dc.z ) <= CN_SAFE_MAX &&
		   fabs( sw->angle ) <= CN_SAFE_MAX;
}

// A body the stages may sweep: awake, dynamic, with shapes.
static bool cnIsCandidate( const cnBody* b )
{
	return b->alive && b->type == cnBody_dynamic && b->awake && b->firstShape >= 0;
}

typedef struct cnContinuousTask
{
	cnWorld* world;
	double timeStep;
	// per worker: the bodies moved back (integers: the sum is exact in any grouping)
	int hits[CN_MAX_WORKERS];
} cnContinuousTask;

// Bodies [start, end) of the fast-body pass. Each sweeps against the static tree alone and writes
// only its own pose and velocity, so the bodies can go in any order and on any worker.
static void cnContinuousRange( int start, int end, int workerIndex, void* context )
{
	cnContinuousTask* t = context;
	cnWorld* world = t->world;
	int hits = 0;
	for ( int i = start; i < end; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( cnIsCandidate( b ) == false || b->isBullet )
		{
			continue;
		}
		cnSweep sw = cnMakeSweep( b, t->timeStep );
		if ( cnIsSweepable( &sw ) == false )
		{
			continue;
		}

		// fast: farther than a fraction of its smallest shape's smallest half-size (the centre's
		// travel plus the turn times the body's largest extent)
		double motion = cnLength( sw.dc ) + sw.angle * b->maxExtent;
		double inner = DBL_MAX;
		for ( int s = b->firstShape; s >= 0; s = world->shapes[s].nextShape )
		{
			inner = fmin( inner, cnInnerExtent( &world->shapes[s].geom ) );
		}
		if ( motion > CN_FAST_FRACTION * inner && cnSweepBody( world, i, &sw, false ) )
		{
			hits += 1;
		}
	}
	t->hits[workerIndex] += hits;
}

// Bodies per range of the fast-body pass.
#define CN_CONTINUOUS_MIN_RANGE 64

void cnSolveContinuous( cnWorld* world, double timeStep )
{
	if ( world->def.enableContinuous == false ||
		 cnBroadPhase_GetTree( &world->broadPhase, cnProxy_static )->proxyCount == 0 )
	{
		return;
	}
	cnContinuousTask task = { world, timeStep, { 0 } };
	cnParallelFor( world, world->bodyCount, CN_CONTINUOUS_MIN_RANGE, cnContinuousRange, &task );
	for ( int w = 0; w < CN_MAX_WORKERS; ++w )
	{
		world->stats.continuousHitCount += task.hits[w];
	}
}

void cnSolveBullets( cnWorld* world, double timeStep )
{
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( cnIsCandidate( b ) == false || b->isBullet == false )
		{
			continue;
		}
		cnSweep sw = cnMakeSweep( b, timeStep );
		if ( cnIsSweepable( &sw ) == false || cnLength( sw.dc ) + sw.angle * b->maxExtent <= 0.0 )
		{
			continue;
		}
		if ( cnSweepBody( world, i, &sw, true ) )
		{
			world->stats.continuousHitCount += 1;
			// the finish stage already moved its boxes to the end pose
			cnUpdateBodyShapes( world, b, cnMulSV( timeStep, b->v ) );
		}
	}
}
