// SPDX-License-Identifier: MIT
// Ray casts against one shape (ray_cast.h). Every cast works in the shape's frame, where the
// primitives are centred and aligned: spheres and the caps of capsules by the quadratic of
// |p + t d| = r, the sides of capsules and cylinders by the same quadratic in x and y, boxes, hulls
// and cylinder caps by slabs (the entry is the latest plane entered, the exit the earliest left), as
// in Box2D's polygon cast. Shapes with only a support function go through conservative
// advancement on the GJK distance.
#include "collision/ray_cast.h"

#include "collision/gjk.h"
#include "collision/hull.h"
#include "collision/mesh.h"

#include <float.h>
#include <math.h>

// conservative advancement of a ray gives up after this many distance queries
#define CN_RAY_ITERATIONS 64

// The first root of a t^2 + 2 b t + c = 0 for a ray that starts outside (c >= 0) and approaches
// (b < 0): t1 = c / (-b + sqrt(b^2 - a c)), the product form t1 t2 = c / a, which keeps its digits
// when c is small (the origin near the surface) where (-b - sqrt(...)) / a would cancel.
static bool cnEntryRoot( double a, double b, double c, double* t )
{
	if ( a <= 0.0 || c < 0.0 || b >= 0.0 )
	{
		return false;
	}
	double disc = b * b - a * c;
	if ( disc < 0.0 )
	{
		return false;
	}
	*t = c / ( -b + sqrt( disc ) );
	return true;
}

// Sphere of radius r at centre, local origin p and direction d. A ray starting inside misses.
static bool cnRaySphere( cnVec3 centre, double r, cnVec3 p, cnVec3 d, double* t, cnVec3* normal )
{
	cnVec3 s = cnSub( p, centre );
	if ( cnEntryRoot( cnDot( d, d ), cnDot( s, d ), cnDot( s, s ) - r * r, t ) == false )
	{
		return false;
	}
	*normal = cnMulSV( 1.0 / r, cnMulAdd( s, *t, d ) );
	return true;
}

static bool cnRayCapsule( const cnGeometry* g, cnVec3 p, cnVec3 d, double* t, cnVec3* normal )
{
	double r = g->radius, h = g->halfHeight;
	// inside the capsule: closer than r to its segment
	double z = fmax( -h, fmin( h, p.z ) );
	cnVec3 q = { p.x, p.y, p.z - z };
	if ( cnDot( q, q ) < r * r )
	{
		return false;
	}
	// the first entry into the union of the side, the two cap spheres: the origin is outside all
	// three, so the earliest entry is where the capsule begins
	bool hit = false;
	double side;
	if ( cnEntryRoot( d.x * d.x + d.y * d.y, p.x * d.x + p.y * d.y, p.x * p.x + p.y * p.y - r * r, &side ) )
	{
		double zs = p.z + side * d.z;
		if ( -h <= zs && zs <= h )
		{
			*t = side;
			*normal = cnV3( ( p.x + side * d.x ) / r, ( p.y + side * d.y ) / r, 0.0 );
			hit = true;
		}
	}
	for ( int k = 0; k < 2; ++k )
	{
		double tc;
		cnVec3 nc;
		if ( cnRaySphere( cnV3( 0.0, 0.0, k == 0 ? -h : h ), r, p, d, &tc, &nc ) && ( hit == false || tc < *t ) )
		{
			*t = tc;
			*normal = nc;
			hit = true;
		}
	}
	return hit;
}

// The interval of t over which a scalar x(t) = p + t d lies in [-h, h]: false when never.
static bool cnSlab( double p, double d, double h, double* enter, double* exit, double* sign )
{
	if ( d == 0.0 )
	{
		*enter = -DBL_MAX;
		*exit = DBL_MAX;
		*sign = 0.0;
		return -h <= p && p <= h;
	}
	double t1 = ( -h - p ) / d, t2 = ( h - p ) / d;
	// entering through the face the ray faces: -h when moving up, +h when moving down
	*sign = d > 0.0 ? -1.0 : 1.0;
	*enter = fmin( t1, t2 );
	*exit = fmax( t1, t2 );
	return true;
}

static bool cnRayBox( const cnGeometry* g, cnVec3 p, cnVec3 d, double* t, cnVec3* normal )
{
	double lower = -DBL_MAX, upper = DBL_MAX;
	int axis = -1;
	double axisSign = 0.0;
	double pv[3] = { p.x, p.y, p.z }, dv[3] = { d.x, d.y, d.z };
	double hv[3] = { g->halfExtents.x, g->halfExtents.y, g->halfExtents.z };
	for ( int i = 0; i < 3; ++i )
	{
		double enter, exit, sign;
		if ( cnSlab( pv[i], dv[i], hv[i], &enter, &exit, &sign ) == false )
		{
			return false;
		}
		if ( enter > lower )
		{
			lower = enter;
			axis = i;
			axisSign = sign;
		}
		upper = fmin( upper, exit );
	}
	// a ray inside the box (lower < 0) or one that leaves a slab before entering another misses
	if ( axis < 0 || lower < 0.0 || lower > upper )
	{
		return false;
	}
	double n[3] = { 0.0, 0.0, 0.0 };
	n[axis] = axisSign;
	*t = lower;
	*normal = cnV3( n[0], n[1], n[2] );
	return true;
}

static bool cnRayCylinder( const cnGeometry* g, cnVec3 p, cnVec3 d, double* t, cnVec3* normal )
{
	double r = g->radius;
	// the side: x^2 + y^2 <= r^2 between two roots (all t when the ray is parallel to the axis and
	// within the radius)
	double a = d.x * d.x + d.y * d.y;
	double b = p.x * d.x + p.y * d.y;
	double c = p.x * p.x + p.y * p.y - r * r;
	double sideEnter = -DBL_MAX, sideExit = DBL_MAX;
	if ( a == 0.0 )
	{
		if ( c > 0.0 )
		{
			return false;
		}
	}
	else
	{
		double disc = b * b - a * c;
		if ( disc < 0.0 )
		{
			return false;
		}
		// both roots without cancellation: q = -(b + sign(b) sqrt(disc)), roots q / a and c / q
		double q = -( b + ( b >= 0.0 ? 1.0 : -1.0 ) * sqrt( disc ) );
		double t1 = q / a;
		double t2 = q != 0.0 ? c / q : t1;
		sideEnter = fmin( t1, t2 );
		sideExit = fmax( t1, t2 );
	}
	double capEnter, capExit, capSign;
	if ( cnSlab( p.z, d.z, g->halfHeight, &capEnter, &capExit, &capSign ) == false )
	{
		return false;
	}
	double enter = fmax( sideEnter, capEnter );
	double exit = fmin( sideExit, capExit );
	if ( enter > exit || enter < 0.0 || enter == -DBL_MAX )
	{
		return false;
	}
	*t = enter;
	if ( capEnter >= sideEnter )
	{
		*normal = cnV3( 0.0, 0.0, capSign );
	}
	else
	{
		*normal = cnV3( ( p.x + enter * d.x ) / r, ( p.y + enter * d.y ) / r, 0.0 );
	}
	return true;
}

// Half-space {n . x <= offset}: hit from outside (above) only.
static bool cnRayPlane( const cnGeometry* g, cnVec3 p, cnVec3 d, double* t, cnVec3* normal )
{
	double s0 = cnDot( g->normal, p ) - g->offset;
	double dn = cnDot( g->normal, d );
	if ( s0 < 0.0 || dn >= 0.0 )
	{
		return false;
	}
	*t = s0 / -dn;
	*normal = g->normal;
	return true;
}

// Hull by its face planes, Box2D's polygon cast in 3D.
static bool cnRayHullFaces( const cnHull* hull, cnVec3 p, cnVec3 d, double* t, cnVec3* normal )
{
	double lower = -DBL_MAX, upper = DBL_MAX;
	int index = -1;
	for ( int i = 0; i < hull->faceCount; ++i )
	{
		// p + t d is inside face i's half-space when numerator - t denominator >= 0
		double numerator = hull->faceOffsets[i] - cnDot( hull->faceNormals[i], p );
		double denominator = cnDot( hull->faceNormals[i], d );
		if ( denominator == 0.0 )
		{
			if ( numerator < 0.0 )
			{
				return false;
			}
		}
		else if ( denominator < 0.0 )
		{
			double enter = numerator / denominator;
			if ( enter > lower )
			{
				lower = enter;
				index = i;
			}
		}
		else
		{
			upper = fmin( upper, numerator / denominator );
		}
		if ( upper < lower )
		{
			return false;
		}
	}
	if ( index < 0 || lower < 0.0 )
	{
		return false;
	}
	*t = lower;
	*normal = hull->faceNormals[index];
	return true;
}

bool cnRayCastConvex( const cnGeometry* g, cnTransform xf, cnVec3 origin, cnVec3 translation, double maxFraction,
					  cnRayHit* hit )
{
	// a point is a sphere of radius 0 (GJK treats it as its core)
	cnGeometry point = { 0 };
	point.type = cnShape_sphere;
	double tolerance = 1e-9 * ( 1.0 + cnShapeBoundingRadius( g ) );
	double t = 0.0;
	cnTransform xfPoint = { origin, cnQuat_identity };
	cnDistanceOutput out = cnShapeDistance( g, xf, &point, xfPoint );
	if ( out.distance <= 0.0 )
	{
		// starts inside (or on the surface): no entry
		return false;
	}
	for ( int iter = 0; iter < CN_RAY_ITERATIONS && out.distance > tolerance; ++iter )
	{
		// the distance to a convex shape shrinks at most at the speed along the normal towards it,
		// so advancing by distance / speed never passes the surface (exact for a flat face)
		double rate = -cnDot( translation, out.normal );
		if ( rate <= 0.0 )
		{
			return false;
		}
		t += out.distance / rate;
		if ( t > maxFraction )
		{
			return false;
		}
		xfPoint.p = cnMulAdd( origin, t, translation );
		out = cnShapeDistance( g, xf, &point, xfPoint );
	}
	hit->fraction = t;
	hit->point = cnMulAdd( origin, t, translation );
	hit->normal = out.normal;
	return true;
}

bool cnRayCastShape( const cnGeometry* g, cnTransform xf, cnVec3 origin, cnVec3 translation, double maxFraction,
					 cnRayHit* hit )
{
	cnVec3 p = cnInvTransformPoint( xf, origin );
	cnVec3 d = cnInvRotate( xf.q, translation );
	double t = 0.0;
	cnVec3 n = cnVec3_zero;
	bool found = false;
	switch ( g->type )
	{
		case cnShape_sphere:
			found = cnRaySphere( cnVec3_zero, g->radius, p, d, &t, &n );
			break;
		case cnShape_capsule:
			found = cnRayCapsule( g, p, d, &t, &n );
			break;
		case cnShape_box:
			found = cnRayBox( g, p, d, &t, &n );
			break;
		case cnShape_cylinder:
			found = cnRayCylinder( g, p, d, &t, &n );
			break;
		case cnShape_plane:
			found = cnRayPlane( g, p, d, &t, &n );
			break;
		case cnShape_hull:
			if ( g->hull->faceCount > 0 )
			{
				found = cnRayHullFaces( g->hull, p, d, &t, &n );
				break;
			}
			return cnRayCastConvex( g, xf, origin, translation, maxFraction, hit );
		case cnShape_mesh:
			found = cnMeshRayCast( g->mesh, p, d, maxFraction, &t, &n );
			break;
		case cnShape_heightfield:
			found = cnHeightfieldRayCast( g->heightfield, p, d, maxFraction, &t, &n );
			break;
		case cnShape_polygon:
			// a planar polygon as its convex hull thickened by its radius (its support function)
			return cnRayCastConvex( g, xf, origin, translation, maxFraction, hit );
		default:
			return false;
	}
	if ( found == false || t > maxFraction )
	{
		return false;
	}
	hit->fraction = t;
	hit->point = cnMulAdd( origin, t, translation );
	hit->normal = cnRotate( xf.q, n );
	return true;
}
