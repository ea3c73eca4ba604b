// SPDX-License-Identifier: MIT
// Time of impact of a moving convex shape against a fixed one by conservative advancement (Mirtich)
// on the GJK distance (time_of_impact.c): what shape casts (query.c) and continuous collision share.
#pragma once

#include "collision/collision.h"

/// The motion of a frame as a function of t in [0, 1]: its centre (the point localCenter of the
/// frame) on a line, its orientation turning about a fixed world axis at a constant rate of angle
/// per unit t.
typedef struct cnSweep
{
	cnVec3 c0, dc;
	cnQuat q0;
	cnVec3 axis;
	// rotation over the whole sweep, radians, >= 0 (may exceed pi)
	double angle;
	cnVec3 localCenter;
} cnSweep;

/// The frame of a sweep at t.
cnTransform cnSweepTransform( const cnSweep* sw, double t );

/// A sweep that moves frame xf by translation without turning.
cnSweep cnMakeTranslationSweep( cnTransform xf, cnVec3 translation );

/// A moving shape against a fixed obstacle.
typedef struct cnToiInput
{
	/// the fixed shape and its frame (world)
	const cnGeometry* obstacle;
	cnTransform xfObstacle;
	/// the moving shape: its frame is cnSweepTransform(sweep, t) * local
	const cnGeometry* shape;
	const cnSweep* sweep;
	cnTransform local;
	/// largest distance from the sweep's centre to a point of the moving shape (bounds how fast a
	/// turn moves its points)
	double reach;
	/// the impact is where the distance comes within target +- tolerance
	double target;
	double tolerance;
	/// only impacts before this fraction count
	double maxFraction;
} cnToiInput;

typedef enum cnToiState
{
	/// no impact before maxFraction
	cnToi_separated = 0,
	/// an impact at fraction
	cnToi_hit,
	/// within target already at t = 0 (fraction 0)
	cnToi_overlapped,
} cnToiState;

typedef struct cnToiOutput
{
	cnToiState state;
	double fraction;
	/// unit normal from the obstacle towards the moving shape, and the obstacle's closest point, at
	/// the fraction reached
	cnVec3 normal;
	cnVec3 point;
	/// distance at the fraction reached
	double distance;
} cnToiOutput;

/// Time of impact by conservative advancement: t moves on by (distance - target) / (a bound on how
/// fast the distance can shrink) until the shapes are within target + tolerance. Should a step
/// overshoot (the normal turns), the full speed bound takes over from the last pose, which cannot.
/// After its iterations it reports the last pose reached (still apart) as the hit.
cnToiOutput cnTimeOfImpact( const cnToiInput* input );

/// A triangle as a convex geometry: a polygon of three vertices and radius 0 centred at its
/// centroid (small numbers for GJK). local holds the three vertices relative to the centroid and
/// must outlive g; offset places g where the triangle is (in the frame the vertices were given in).
void cnMakeTriangle( const cnVec3 vertices[3], cnVec3 local[3], cnGeometry* g, cnTransform* offset );
