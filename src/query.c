// SPDX-License-Identifier: MIT
// World queries (cairn/query.h): ray casts, shape casts and overlap tests through the broad phase's
// two trees (static shapes, then movable ones). A cast carries its clipped fraction from the first
// tree to the second, so a hit in one shortens the search in the other, as in Box2D v3.
#include "world.h"

#include "collision/gjk.h"
#include "collision/mesh.h"
#include "collision/ray_cast.h"
#include "collision/time_of_impact.h"
#include "error.h"
#include "lookup.h"

#include <float.h>
#include <math.h>

// Shape casts stop within this fraction of the pair's size (the sum of the bounding radii, plus
// 1 m) of touching: far below any physical length, well above GJK's own accuracy.
#define CN_CAST_TOLERANCE 1e-9

// ---------------------------------------------------------------------------------------------
// input checks and shared helpers


static bool cnCheckTransform( cnTransform xf )
{
	double qn = cnQuatLength( xf.q );
	if ( !cnIsValidVec3( xf.p ) || !isfinite( qn ) || fabs( qn - 1.0 ) > 1e-6 )
	{
		return cnSetError( cnError_invalidArgument, "query transform must be finite with a unit quaternion" );
	}
	return true;
}

// The proxy as the collision code's geometry; false (with the error set) when it is not a convex
// solid of finite, valid size.
static bool cnProxyGeometry( const cnShapeProxy* proxy, cnGeometry* g )
{
	if ( proxy == NULL )
	{
		return cnSetError( cnError_invalidArgument, "shape proxy is NULL" );
	}
	*g = ( cnGeometry ){ 0 };
	g->type = proxy->type;
	g->radius = proxy->radius;
	g->halfHeight = proxy->halfHeight;
	g->halfExtents = proxy->halfExtents;
	bool valid = false;
	switch ( proxy->type )
	{
		case cnShape_sphere:
			valid = isfinite( proxy->radius ) && proxy->radius >= 0.0;
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			valid = isfinite( proxy->radius ) && proxy->radius > 0.0 && isfinite( proxy->halfHeight ) &&
					proxy->halfHeight > 0.0;
			break;
		case cnShape_box:
			valid = cnIsValidVec3( proxy->halfExtents ) && proxy->halfExtents.x > 0.0 && proxy->halfExtents.y > 0.0 &&
					proxy->halfExtents.z > 0.0;
			break;
		case cnShape_hull:
			g->hull = proxy->hull;
			valid = proxy->hull != NULL;
			break;
		default:
			return cnSetError( cnError_invalidArgument, "a shape proxy is a sphere, capsule, box, cylinder or hull (got %s)",
							   cnShapeType_GetName( proxy->type ) );
	}
	if ( valid == false )
	{
		return cnSetError( cnError_invalidArgument, "shape proxy (%s) has an invalid size", cnShapeType_GetName( proxy->type ) );
	}
	return true;
}

static bool cnShouldQueryShape( const cnShape* s, cnQueryFilter filter )
{
	return ( s->categoryBits & filter.maskBits ) != 0 && ( s->maskBits & filter.categoryBits ) != 0;
}

static cnShapeId cnQueryShapeId( const cnWorld* world, int index )
{
	cnShapeId id = { index, world->shapes[index].generation };
	return id;
}

static cnTransform cnQueryShapeTransform( const cnWorld* world, const cnShape* s )
{
	return cnShapeWorldTransform( world->bodies + s->body, s );
}

// The box in the frame xf of a box given in world coordinates (the box of its 8 corners).
static cnAABB cnWorldBoxInFrame( cnTransform xf, cnAABB box )
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

// Calls the triangles of a mesh or heightfield shape under a world box.
static void cnQueryTriangles( const cnShape* s, cnTransform xf, cnAABB worldBox, cnTriangleFn* fn, void* context )
{
	cnAABB box = cnWorldBoxInFrame( xf, worldBox );
	if ( s->geom.type == cnShape_mesh )
	{
		cnMeshQuery( s->geom.mesh, box, fn, context );
	}
	else
	{
		cnHeightfieldQuery( s->geom.heightfield, box, fn, context );
	}
}

// The lowest point of a convex shape at xf below a plane's surface (world): its support along -n.
static cnVec3 cnLowestPoint( const cnGeometry* g, cnTransform xf, cnVec3 n )
{
	return cnTransformPoint( xf, cnSupport( g, cnInvRotate( xf.q, cnNeg( n ) ) ) );
}

// A plane shape's unit normal and offset in world coordinates.
static void cnWorldPlane( const cnShape* s, cnTransform xf, cnVec3* n, double* offset )
{
	*n = cnRotate( xf.q, s->geom.normal );
	*offset = s->geom.offset + cnDot( *n, xf.p );
}

// ---------------------------------------------------------------------------------------------
// ray casts

typedef struct cnRayQuery
{
	const cnWorld* world;
	cnQueryFilter filter;
	cnCastResultFcn* fcn;
	void* context;
	// the cast so far: clipped to fraction, stopped when 0
	double fraction;
} cnRayQuery;

static double cnRayQueryCallback( const cnTreeRayInput* input, int32_t proxyId, uint64_t userData, void* context )
{
	(void)proxyId;
	cnRayQuery* q = context;
	const cnShape* s = q->world->shapes + (int)userData;
	if ( cnShouldQueryShape( s, q->filter ) == false )
	{
		return -1.0;
	}
	cnRayHit hit;
	cnVec3 translation = cnSub( input->p2, input->p1 );
	if ( cnRayCastShape( &s->geom, cnQueryShapeTransform( q->world, s ), input->p1, translation, input->maxFraction,
						 &hit ) == false )
	{
		return -1.0;
	}
	double f = q->fcn( cnQueryShapeId( q->world, (int)userData ), hit.point, hit.normal, hit.fraction, q->context );
	if ( 0.0 <= f && f < q->fraction )
	{
		q->fraction = f;
	}
	return f;
}

bool cnWorld_CastRay( const cnWorld* world, cnVec3 origin, cnVec3 translation, cnQueryFilter filter,
					  cnCastResultFcn* fcn, void* context )
{
	if ( cnRequireWorld( world ) == false )
	{
		return false;
	}
	if ( !cnIsValidVec3( origin ) || !cnIsValidVec3( translation ) || fcn == NULL )
	{
		return cnSetError( cnError_invalidArgument, "ray origin and translation must be finite and fcn set" );
	}
	cnClearError();
	if ( cnLengthSquared( translation ) == 0.0 )
	{
		return true;
	}
	cnRayQuery q = { world, filter, fcn, context, 1.0 };
	cnTreeRayInput input = { origin, cnAdd( origin, translation ), 1.0 };
	for ( int tree = 0; tree < 2 && q.fraction > 0.0; ++tree )
	{
		input.maxFraction = q.fraction;
		cnDynamicTree_RayCast( cnBroadPhase_GetTree( &world->broadPhase, (cnProxyType)tree ), &input,
							   cnRayQueryCallback, &q );
	}
	return true;
}

// Keeps the nearest hit and clips the cast there.
static double cnClosestCallback( cnShapeId shapeId, cnVec3 point, cnVec3 normal, double fraction, void* context )
{
	cnRayResult* r = context;
	r->shapeId = shapeId;
	r->point = point;
	r->normal = normal;
	r->fraction = fraction;
	r->hit = true;
	return fraction;
}

static cnRayResult cnNoHit( void )
{
	cnRayResult r = { 0 };
	r.shapeId = cnShapeId_null;
	r.bodyId = cnBodyId_null;
	return r;
}

static void cnSetResultBody( const cnWorld* world, cnRayResult* r )
{
	if ( r->hit )
	{
		int body = world->shapes[r->shapeId.index].body;
		r->bodyId = ( cnBodyId ){ body, world->bodies[body].generation };
	}
}

cnRayResult cnWorld_CastRayClosest( const cnWorld* world, cnVec3 origin, cnVec3 translation, cnQueryFilter filter )
{
	cnRayResult r = cnNoHit();
	if ( cnWorld_CastRay( world, origin, translation, filter, cnClosestCallback, &r ) )
	{
		cnSetResultBody( world, &r );
	}
	return r;
}

cnRayResult cnShape_RayCast( const cnWorld* world, cnShapeId id, cnVec3 origin, cnVec3 translation )
{
	cnRayResult r = cnNoHit();
	const cnShape* s = cnGetShape( world, id );
	if ( s == NULL )
	{
		return r;
	}
	if ( !cnIsValidVec3( origin ) || !cnIsValidVec3( translation ) )
	{
		cnSetError( cnError_invalidArgument, "ray origin and translation must be finite" );
		return r;
	}
	cnClearError();
	cnRayHit hit;
	if ( cnLengthSquared( translation ) > 0.0 &&
		 cnRayCastShape( &s->geom, cnQueryShapeTransform( world, s ), origin, translation, 1.0, &hit ) )
	{
		cnClosestCallback( id, hit.point, hit.normal, hit.fraction, &r );
		cnSetResultBody( world, &r );
	}
	return r;
}

// ---------------------------------------------------------------------------------------------
// shape casts

typedef struct cnCastQuery
{
	const cnWorld* world;
	cnQueryFilter filter;
	cnCastResultFcn* fcn;
	void* context;
	const cnGeometry* proxy;
	cnSweep sweep;
	cnTransform xf;
	cnVec3 translation;
	double fraction;
	bool stopped;
	// the earliest impact on the shape being visited (its triangles, for meshes and heightfields)
	cnTransform xfObstacle;
	cnAABB box;
	cnToiOutput best;
} cnCastQuery;

// Time of impact of the proxy against one convex obstacle; keeps it when earlier than the best.
static void cnCastAgainst( cnCastQuery* q, const cnGeometry* obstacle, cnTransform xfObstacle )
{
	double size = cnShapeBoundingRadius( obstacle ) + cnShapeBoundingRadius( q->proxy ) + 1.0;
	cnToiInput in = { 0 };
	in.obstacle = obstacle;
	in.xfObstacle = xfObstacle;
	in.shape = q->proxy;
	in.sweep = &q->sweep;
	in.local = cnTransform_identity;
	in.reach = 0.0;
	in.target = 0.0;
	in.tolerance = CN_CAST_TOLERANCE * size;
	in.maxFraction = q->best.state == cnToi_separated ? q->fraction : q->best.fraction;
	cnToiOutput out = cnTimeOfImpact( &in );
	if ( out.state != cnToi_separated && ( q->best.state == cnToi_separated || out.fraction < q->best.fraction ) )
	{
		q->best = out;
	}
}

static bool cnCastTriangle( void* context, int triangle, const cnVec3 vertices[3] )
{
	(void)triangle;
	cnCastQuery* q = context;
	cnVec3 local[3];
	cnGeometry g;
	cnTransform offset;
	cnMakeTriangle( vertices, local, &g, &offset );
	cnCastAgainst( q, &g, cnMulTransforms( q->xfObstacle, offset ) );
	// an overlap at the start cannot get earlier
	return q->best.state != cnToi_overlapped;
}

// A plane is a half-space: the proxy's lowest point along -n reaches the surface at a closed form.
static void cnCastPlane( cnCastQuery* q, const cnShape* s, cnTransform xf )
{
	cnVec3 n;
	double offset;
	cnWorldPlane( s, xf, &n, &offset );
	cnVec3 low = cnLowestPoint( q->proxy, q->xf, n );
	double d0 = cnDot( n, low ) - offset;
	double dn = cnDot( n, q->translation );
	cnToiOutput out = { cnToi_separated, 1.0, n, low, d0 };
	if ( d0 <= 0.0 )
	{
		out.state = cnToi_overlapped;
		out.fraction = 0.0;
		out.point = cnMulSub( low, d0, n );
	}
	else if ( dn < 0.0 && d0 / -dn <= q->fraction )
	{
		out.state = cnToi_hit;
		out.fraction = d0 / -dn;
		out.point = cnMulAdd( low, out.fraction, q->translation );
	}
	q->best = out;
}

static bool cnCastQueryCallback( int32_t proxyId, uint64_t userData, void* context )
{
	(void)proxyId;
	cnCastQuery* q = context;
	const cnWorld* world = q->world;
	int index = (int)userData;
	const cnShape* s = world->shapes + index;
	if ( cnShouldQueryShape( s, q->filter ) == false )
	{
		return true;
	}
	cnTransform xf = cnQueryShapeTransform( world, s );
	q->best = ( cnToiOutput ){ 0 };
	q->best.state = cnToi_separated;
	if ( s->geom.type == cnShape_plane )
	{
		cnCastPlane( q, s, xf );
	}
	else if ( cnIsManifoldSource( s->geom.type ) )
	{
		q->xfObstacle = xf;
		cnQueryTriangles( s, xf, q->box, cnCastTriangle, q );
	}
	else
	{
		cnCastAgainst( q, &s->geom, xf );
	}
	if ( q->best.state == cnToi_separated || q->best.fraction > q->fraction )
	{
		return true;
	}
	double f = q->fcn( cnQueryShapeId( world, index ), q->best.point, q->best.normal, q->best.fraction, q->context );
	if ( f == 0.0 )
	{
		q->stopped = true;
		return false;
	}
	if ( 0.0 < f && f < q->fraction )
	{
		q->fraction = f;
	}
	return true;
}

bool cnWorld_CastShape( const cnWorld* world, const cnShapeProxy* proxy, cnTransform transform, cnVec3 translation,
						cnQueryFilter filter, cnCastResultFcn* fcn, void* context )
{
	cnGeometry g;
	if ( cnRequireWorld( world ) == false || cnProxyGeometry( proxy, &g ) == false ||
		 cnCheckTransform( transform ) == false )
	{
		return false;
	}
	if ( !cnIsValidVec3( translation ) || fcn == NULL )
	{
		return cnSetError( cnError_invalidArgument, "cast translation must be finite and fcn set" );
	}
	cnClearError();
	transform.q = cnNormalizeQuat( transform.q );
	cnCastQuery q = { 0 };
	q.world = world;
	q.filter = filter;
	q.fcn = fcn;
	q.context = context;
	q.proxy = &g;
	q.xf = transform;
	q.translation = translation;
	q.sweep = cnMakeTranslationSweep( transform, translation );
	q.fraction = 1.0;
	// the swept box: the proxy's boxes at both ends (a translation sweeps nothing outside them)
	cnTransform end = { cnAdd( transform.p, translation ), transform.q };
	q.box = cnAABB_Union( cnComputeShapeAABB( &g, transform ), cnComputeShapeAABB( &g, end ) );
	for ( int tree = 0; tree < 2 && q.stopped == false; ++tree )
	{
		cnDynamicTree_Query( cnBroadPhase_GetTree( &world->broadPhase, (cnProxyType)tree ), q.box, cnCastQueryCallback,
							 &q );
	}
	return true;
}

cnRayResult cnWorld_CastShapeClosest( const cnWorld* world, const cnShapeProxy* proxy, cnTransform transform,
									  cnVec3 translation, cnQueryFilter filter )
{
	cnRayResult r = cnNoHit();
	if ( cnWorld_CastShape( world, proxy, transform, translation, filter, cnClosestCallback, &r ) )
	{
		cnSetResultBody( world, &r );
	}
	return r;
}

// ---------------------------------------------------------------------------------------------
// overlaps

typedef struct cnOverlapQuery
{
	const cnWorld* world;
	cnQueryFilter filter;
	cnOverlapResultFcn* fcn;
	void* context;
	cnAABB box;
	// the proxy (OverlapShape) or NULL (OverlapAABB)
	const cnGeometry* proxy;
	cnTransform xf;
	bool stopped;
	// a triangle of the mesh or heightfield being visited touches the proxy
	cnTransform xfObstacle;
	bool touching;
} cnOverlapQuery;

static bool cnOverlapTriangle( void* context, int triangle, const cnVec3 vertices[3] )
{
	(void)triangle;
	cnOverlapQuery* q = context;
	cnVec3 local[3];
	cnGeometry g;
	cnTransform offset;
	cnMakeTriangle( vertices, local, &g, &offset );
	q->touching = cnShapeDistance( &g, cnMulTransforms( q->xfObstacle, offset ), q->proxy, q->xf ).distance <= 0.0;
	return q->touching == false;
}

// The proxy touches or overlaps the shape.
static bool cnProxyTouches( cnOverlapQuery* q, const cnShape* s )
{
	cnTransform xf = cnQueryShapeTransform( q->world, s );
	if ( s->geom.type == cnShape_plane )
	{
		cnVec3 n;
		double offset;
		cnWorldPlane( s, xf, &n, &offset );
		return cnDot( n, cnLowestPoint( q->proxy, q->xf, n ) ) <= offset;
	}
	if ( cnIsManifoldSource( s->geom.type ) )
	{
		q->xfObstacle = xf;
		q->touching = false;
		cnQueryTriangles( s, xf, q->box, cnOverlapTriangle, q );
		return q->touching;
	}
	return cnShapeDistance( &s->geom, xf, q->proxy, q->xf ).distance <= 0.0;
}

static bool cnOverlapQueryCallback( int32_t proxyId, uint64_t userData, void* context )
{
	(void)proxyId;
	cnOverlapQuery* q = context;
	const cnShape* s = q->world->shapes + (int)userData;
	if ( cnShouldQueryShape( s, q->filter ) == false )
	{
		return true;
	}
	bool found = q->proxy == NULL ? cnAABB_Overlaps( s->aabb, q->box ) : cnProxyTouches( q, s );
	if ( found && q->fcn( cnQueryShapeId( q->world, (int)userData ), q->context ) == false )
	{
		q->stopped = true;
		return false;
	}
	return true;
}

static void cnRunOverlap( cnOverlapQuery* q )
{
	for ( int tree = 0; tree < 2 && q->stopped == false; ++tree )
	{
		cnDynamicTree_Query( cnBroadPhase_GetTree( &q->world->broadPhase, (cnProxyType)tree ), q->box,
							 cnOverlapQueryCallback, q );
	}
}

bool cnWorld_OverlapAABB( const cnWorld* world, cnAABB box, cnQueryFilter filter, cnOverlapResultFcn* fcn,
						  void* context )
{
	if ( cnRequireWorld( world ) == false )
	{
		return false;
	}
	if ( !cnIsValidVec3( box.lower ) || !cnIsValidVec3( box.upper ) || box.lower.x > box.upper.x ||
		 box.lower.y > box.upper.y || box.lower.z > box.upper.z || fcn == NULL )
	{
		return cnSetError( cnError_invalidArgument, "query box must be finite with lower <= upper, and fcn set" );
	}
	cnClearError();
	cnOverlapQuery q = { 0 };
	q.world = world;
	q.filter = filter;
	q.fcn = fcn;
	q.context = context;
	q.box = box;
	cnRunOverlap( &q );
	return true;
}

bool cnWorld_OverlapShape( const cnWorld* world, const cnShapeProxy* proxy, cnTransform transform,
						   cnQueryFilter filter, cnOverlapResultFcn* fcn, void* context )
{
	cnGeometry g;
	if ( cnRequireWorld( world ) == false || cnProxyGeometry( proxy, &g ) == false ||
		 cnCheckTransform( transform ) == false )
	{
		return false;
	}
	if ( fcn == NULL )
	{
		return cnSetError( cnError_invalidArgument, "overlap callback is NULL" );
	}
	cnClearError();
	cnOverlapQuery q = { 0 };
	q.world = world;
	q.filter = filter;
	q.fcn = fcn;
	q.context = context;
	q.proxy = &g;
	q.xf = transform;
	q.xf.q = cnNormalizeQuat( transform.q );
	q.box = cnComputeShapeAABB( &g, q.xf );
	cnRunOverlap( &q );
	return true;
}

// ---------------------------------------------------------------------------------------------
// filters and proxies

cnQueryFilter cnDefaultQueryFilter( void )
{
	cnQueryFilter filter = { 1, UINT64_MAX };
	return filter;
}

cnShapeProxy cnMakeSphereProxy( double radius )
{
	cnShapeProxy p = { 0 };
	p.type = cnShape_sphere;
	p.radius = radius;
	return p;
}

cnShapeProxy cnMakeBoxProxy( cnVec3 halfExtents )
{
	cnShapeProxy p = { 0 };
	p.type = cnShape_box;
	p.halfExtents = halfExtents;
	return p;
}

cnShapeProxy cnMakeCapsuleProxy( double radius, double halfHeight )
{
	cnShapeProxy p = { 0 };
	p.type = cnShape_capsule;
	p.radius = radius;
	p.halfHeight = halfHeight;
	return p;
}

cnShapeProxy cnMakeCylinderProxy( double radius, double halfHeight )
{
	cnShapeProxy p = { 0 };
	p.type = cnShape_cylinder;
	p.radius = radius;
	p.halfHeight = halfHeight;
	return p;
}

cnShapeProxy cnMakeHullProxy( const cnHull* hull )
{
	cnShapeProxy p = { 0 };
	p.type = cnShape_hull;
	p.hull = hull;
	return p;
}
