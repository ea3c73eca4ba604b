// SPDX-License-Identifier: MIT
// Closed forms the physics tests compare against (../shared/VALIDATION.md), written once.
#pragma once

#include "cairn/math.h"

#include <math.h>

/// K(k), the complete elliptic integral of the first kind, by the arithmetic-geometric mean:
/// K = pi / (2 AGM(1, sqrt(1 - k^2))). The large-amplitude pendulum's period is 4 sqrt(L/g) K(sin(theta0/2)).
static inline double cfEllipticK( double k )
{
	double a = 1.0, b = sqrt( 1.0 - k * k );
	for ( int i = 0; i < 40 && fabs( a - b ) > 1e-16 * a; ++i )
	{
		double m = 0.5 * ( a + b );
		b = sqrt( a * b );
		a = m;
	}
	return CN_PI / ( 2.0 * a );
}
