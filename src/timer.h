// SPDX-License-Identifier: MIT
// Wall-clock timing of the step's stages (cnStats): seconds on a monotonic clock where the C
// library has one, so a clock adjustment never makes a stage take negative time.
#pragma once

#include <time.h>

/// Seconds since an arbitrary start.
static inline double cnSeconds( void )
{
	struct timespec ts;
#if defined( TIME_MONOTONIC )
	timespec_get( &ts, TIME_MONOTONIC );
#else
	timespec_get( &ts, TIME_UTC );
#endif
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/// Milliseconds since *mark; moves the mark to now (one lap of a stage timer).
static inline double cnLapMs( double* mark )
{
	double now = cnSeconds();
	double ms = 1000.0 * ( now - *mark );
	*mark = now;
	return ms;
}
