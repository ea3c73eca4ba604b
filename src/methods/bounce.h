// SPDX-License-Identifier: MIT
// The speed a bouncing contact leaves a step with, shared by the methods that step at the velocity
// level (impulse, lcp, velocity-projection, gr-*; docs/methods.md, "At an impact").
//
// Along a contact's normal the motion is one-dimensional: separation x, normal speed v, a constant
// normal acceleration a from gravity and forces. Symplectic Euler with step h (v += a h, then
// x += h v) keeps E = v^2 / 2 - a x + a h v / 2 exactly in free flight, so the apex after a bounce
// is set by E when the step that holds the bounce ends. Choosing the speed the step ends with so
// that E(end) = e^2 E(start) makes every apex e^2 times the one before, and keeps it exactly for
// e = 1 over any number of bounces. The usual law, -e times the normal speed at the step's end,
// takes in the rest of the step's gravity and gains about g h per bounce; -e times the speed at the
// step's start ignores the speed gained while the gap closed and loses it. Without acceleration
// (a = 0) the rule is Newton's law, -e v0.
#pragma once

#include <math.h>
#include <stdbool.h>

/// The normal speed v with which a contact that starts the step at separation s0 >= 0 and normal
/// speed v0 (< 0: approaching) ends it after a bounce of restitution e, so that E(end) = e^2 E(start)
/// (above). a: normal acceleration, h: the integrator's step; the separation at the end is
/// sEnd + h v when movesWithEnd (the positions follow the end speed, as in the velocity-level
/// methods), else sEnd (the impulse method, whose positions are already integrated). Returns false
/// when no speed gives that energy (the bounce is too weak to leave before the step ends).
static inline bool cnBounceSpeed( double s0, double v0, double a, double h, double e, double sEnd, bool movesWithEnd,
								  double* v )
{
	double start = 0.5 * v0 * v0 - a * s0 + 0.5 * a * h * v0;
	// v^2 / 2 + a h (1/2 - m) v - a sEnd - e^2 E(start) = 0, m = 1 when the end moves with v
	double half = movesWithEnd ? -0.5 * a * h : 0.5 * a * h;
	double radicand = half * half + 2.0 * ( a * sEnd + e * e * start );
	if ( !( radicand >= 0.0 ) )
	{
		return false;
	}
	*v = -half + sqrt( radicand );
	return true;
}

/// The squared speed at which a contact at separation s0 >= 0 with normal speed v0 and normal
/// acceleration a meets: v0^2 - 2 a s0 (what the restitution threshold compares with).
static inline double cnImpactSpeedSquared( double s0, double v0, double a )
{
	return v0 * v0 - 2.0 * a * s0;
}
