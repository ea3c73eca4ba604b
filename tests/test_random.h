// SPDX-License-Identifier: MIT
// The deterministic random numbers of the tests: a 64-bit LCG (Knuth's MMIX constants), so the
// random cases are the same on every machine. Only its upper bits are used.
#pragma once

#include <stdint.h>

/// The generator's state; seed it with an initialiser, e.g. Lcg g = { 12345u }.
typedef struct Lcg
{
	uint64_t state;
} Lcg;

/// Advances the generator one step and returns its new state.
static inline uint64_t lcgNext( Lcg* g )
{
	g->state = g->state * 6364136223846793005ull + 1442695040888963407ull;
	return g->state;
}

/// Uniform in [lo, hi) from the upper 53 bits of the next state.
static inline double lcgUniform( Lcg* g, double lo, double hi )
{
	double u = (double)( lcgNext( g ) >> 11 ) * ( 1.0 / 9007199254740992.0 );
	return lo + ( hi - lo ) * u;
}
