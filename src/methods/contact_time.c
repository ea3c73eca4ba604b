// SPDX-License-Identifier: MIT
// Time of contact by safeguarded Newton-Raphson (Kleppmann 2007, section 3.2.2); see
// contact_time.h and docs/method-constraint.md.
#include "methods/contact_time.h"

#include "world.h"

#include <math.h>

cnContactTimeStatus cnFindContactTime( cnContactTimeSearch* search, cnContactTimeFunction* g, void* context )
{
	double lo = search->lo, hi = search->hi;
	double x = hi, value = search->gHi, rate = search->rateHi;
	// |g| of the last iterate: Newton that does not halve it converges too slowly (or cycles)
	double previous = INFINITY;
	search->iterations = 0;
	search->g = value;
	search->rate = rate;
	while ( search->iterations < search->maxIterations )
	{
		// Newton: the separation closes at rate dg/ds < 0, so the root lies at x - g / rate
		double next = rate < 0.0 ? x - value / rate : NAN;
		if ( !( next > lo && next < hi ) || !( fabs( value ) <= 0.5 * previous ) )
		{
			next = 0.5 * ( lo + hi );
		}
		previous = fabs( value );
		x = next;
		value = g( context, x, &rate );
		search->iterations += 1;
		search->g = value;
		search->rate = rate;
		if ( fabs( value ) <= search->gTolerance )
		{
			search->lo = value > 0.0 ? x : lo;
			search->hi = value > 0.0 ? hi : x;
			search->root = x;
			return cnContactTime_found;
		}
		if ( value > 0.0 )
		{
			lo = x;
		}
		else
		{
			hi = x;
		}
		if ( hi - lo <= search->sTolerance )
		{
			break;
		}
	}
	search->lo = lo;
	search->hi = hi;
	search->root = hi;
	return cnContactTime_bracketed;
}

void cnRecordContactTime( cnWorld* world, double t )
{
	cnContactTimeState* state = world->methodState;
	state->lastTime = world->time + t;
	state->count += 1;
}

double cnGetLastContactTime( const cnWorld* world, int64_t* count )
{
	bool adaptive = world->def.method == cnMethod_constraint || world->def.method == cnMethod_analyticImpulse ||
					world->def.method == cnMethod_penalty;
	const cnContactTimeState* state = world->methodState;
	if ( count != NULL )
	{
		*count = adaptive ? state->count : 0;
	}
	return adaptive && state->count > 0 ? state->lastTime : -1.0;
}
