// SPDX-License-Identifier: MIT
// Time of impact by conservative advancement (time_of_impact.h), shared by shape casts and
// continuous collision. Every distance is cnShapeDistance's, so any pair GJK handles works: the
// solids, and mesh and heightfield triangles as three-vertex polygons.
#include "collision/time_of_impact.h"

#include "collision/gjk.h"

#include <math.h>

// conservative advancement stops after this many distance queries
#define CN_TOI_ITERATIONS 64

cnTransform cnSweepTransform( const cnSweep* sw, double t )
{
	cnTransform xf;
	xf.q = cnNormalizeQuat( cnMulQuat( cnQuatFromAxisAngle( sw->axis, t * sw->angle ), sw->q0 ) );
	cnVec3 c = cnMulAdd( sw->c0, t, sw->dc );
	xf.p = cnSub( c, cnRotate( xf.q, sw->localCenter ) );
	return xf;
}

cnSweep cnMakeTranslationSweep( cnTransform xf, cnVec3 translation )
{
	cnSweep sw;
	sw.c0 = xf.p;
	sw.dc = translation;
	sw.q0 = xf.q;
	sw.axis = cnV3( 0.0, 0.0, 1.0 );
	sw.angle = 0.0;
	sw.localCenter = cnVec3_zero;
	return sw;
}

static cnDistanceOutput cnToiDistance( const cnToiInput* in, double t )
{
	cnTransform xf = cnMulTransforms( cnSweepTransform( in->sweep, t ), in->local );
	return cnShapeDistance( in->obstacle, in->xfObstacle, in->shape, xf );
}

static cnToiOutput cnToiResult( cnToiState state, double t, const cnDistanceOutput* d )
{
	cnToiOutput out;
	out.state = state;
	out.fraction = t;
	out.normal = d->normal;
	out.point = d->pointA;
	out.distance = d->distance;
	return out;
}

// No point of the moving shape moves faster than |dc| + angle reach per unit t (the centre's speed
// plus the angular rate times the farthest point's distance from the centre); along the current
// normal the distance shrinks at most at |dc . n| + angle reach.
cnToiOutput cnTimeOfImpact( const cnToiInput* in )
{
	const cnSweep* sw = in->sweep;
	double t = 0.0;
	cnDistanceOutput out = cnToiDistance( in, t );
	if ( out.distance <= in->target )
	{
		return cnToiResult( cnToi_overlapped, 0.0, &out );
	}
	bool strict = false;
	double linear = cnLength( sw->dc );
	double angular = sw->angle * in->reach;
	// the bound on the approach must be a number: with an infinite or NaN one every step below
	// would be NaN or zero, and the loop would spend all its distance queries getting nowhere
	// (the callers keep sweeps finite; this keeps the loop finite and cheap whatever it is given)
	if ( !isfinite( linear ) || !isfinite( angular ) || !isfinite( out.distance ) )
	{
		return cnToiResult( cnToi_separated, 1.0, &out );
	}
	for ( int iter = 0; iter < CN_TOI_ITERATIONS; ++iter )
	{
		if ( out.distance < in->target + in->tolerance )
		{
			return cnToiResult( cnToi_hit, t, &out );
		}
		double rate = ( strict ? linear : fabs( cnDot( sw->dc, out.normal ) ) ) + angular;
		if ( rate <= 0.0 )
		{
			return cnToiResult( cnToi_separated, 1.0, &out );
		}
		double next = t + ( out.distance - in->target ) / rate;
		// (written so that a NaN, from a NaN distance, also ends the search)
		if ( !( next < in->maxFraction ) )
		{
			return cnToiResult( cnToi_separated, 1.0, &out );
		}
		cnDistanceOutput nextOut = cnToiDistance( in, next );
		if ( nextOut.distance < in->target - in->tolerance && strict == false )
		{
			// overshot: stay at t and advance by the bound that cannot overshoot
			strict = true;
			continue;
		}
		t = next;
		out = nextOut;
	}
	// out of iterations (a grazing approach): the pose reached is still apart, stop there
	return cnToiResult( cnToi_hit, t, &out );
}

void cnMakeTriangle( const cnVec3 vertices[3], cnVec3 local[3], cnGeometry* g, cnTransform* offset )
{
	cnVec3 centroid = cnMulSV( 1.0 / 3.0, cnAdd( vertices[0], cnAdd( vertices[1], vertices[2] ) ) );
	for ( int i = 0; i < 3; ++i )
	{
		local[i] = cnSub( vertices[i], centroid );
	}
	*g = ( cnGeometry ){ 0 };
	g->type = cnShape_polygon;
	g->vertexCount = 3;
	g->vertices = local;
	offset->p = centroid;
	offset->q = cnQuat_identity;
}
