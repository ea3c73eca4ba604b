// SPDX-License-Identifier: MIT
// The time of contact of the adaptive methods (constraint, analytic-impulse, penalty): when an
// internal step brings two shapes into contact, the step is retried up to the moment the
// separation crosses zero, so impacts happen at their true time (M. Kleppmann, "Simulation of
// colliding constrained rigid bodies", UCAM-CL-TR-683, 2007, section 3.2.2: Newton-Raphson on the
// penetration depth, binary search when Newton diverges or converges too slowly).
//
// The search knows nothing about bodies: the caller gives the contact function g(s) of the trial
// time s (the separation of the points that meet, minus their targets) with its rate dg/ds (their
// normal approach speed) and a bracket with g > 0 at its start and g <= 0 at its end. The
// constraint method evaluates g by retrying its Cash-Karp step with length s; analytic-impulse and
// penalty evaluate it on the Dormand-Prince dense output of the step just taken. The located times
// are also recorded in the method's state, so tests can read when the last contact began.
#pragma once

#include "methods/method.h"

#include <stdbool.h>
#include <stdint.h>

/// The contact function at the trial time s: returns g(s) and writes its rate dg/ds.
typedef double cnContactTimeFunction( void* context, double s, double* rate );

/// Outcome of a search.
typedef enum cnContactTimeStatus
{
	/// |g| <= gTolerance at root (the last evaluation was there)
	cnContactTime_found = 0,
	/// the bracket shrank below sTolerance (or the iterations ran out) first: g(lo) > 0 >= g(hi)
	cnContactTime_bracketed,
} cnContactTimeStatus;

/// A search for the zero crossing of g in (lo, hi).
typedef struct cnContactTimeSearch
{
	/// the bracket: g(lo) > 0 (apart), g(hi) <= 0 (in contact); narrowed by the search
	double lo, hi;
	/// g and dg/ds at hi, where Newton starts (the end of the step that found the contact)
	double gHi, rateHi;
	/// stop when |g| <= gTolerance (length) or hi - lo <= sTolerance (time)
	double gTolerance, sTolerance;
	/// the largest number of evaluations of g
	int maxIterations;
	/// out: the time of contact (found; for bracketed the contact side, hi), g and dg/ds at the last
	/// evaluation, and the number of evaluations
	double root;
	double g, rate;
	int iterations;
} cnContactTimeSearch;

/// Newton-Raphson on g from hi with the bracket as a safeguard: an iterate that leaves the bracket,
/// or one that did not halve |g| (Newton converging too slowly, as at a grazing contact where
/// dg/ds -> 0), is replaced by the bisection of the bracket. Each evaluation narrows the bracket by
/// the sign of g.
cnContactTimeStatus cnFindContactTime( cnContactTimeSearch* search, cnContactTimeFunction* g, void* context );

/// State of the adaptive methods between steps: the step size (cnAdaptiveState, first, so the
/// shared code reads it through a cnAdaptiveState pointer) and the last located contact.
typedef struct cnContactTimeState
{
	cnAdaptiveState adaptive;
	/// world time of the last contact located by a search, and how many were located so far
	double lastTime;
	int64_t count;
} cnContactTimeState;

/// Records a contact located at time t within the world step that starts at the world's time.
void cnRecordContactTime( cnWorld* world, double t );

/// The world time of the last contact located by the adaptive method of the world (constraint,
/// analytic-impulse, penalty) and how many it located so far (count may be NULL); -1 when none or
/// the method has no search.
double cnGetLastContactTime( const cnWorld* world, int64_t* count );
