// SPDX-License-Identifier: MIT
// Velocity-level contact methods: lcp, velocity-projection, gr-lcp, gr-velocity-projection.
// (Being implemented: until then the step reports that the method is not available.)
#include "world.h"

bool cnStepVelocityLevel( cnWorld* world, double timeStep )
{
	(void)timeStep;
	return cnSetError( world, "method '%s' is not implemented yet", cnMethodName( world->def.method ) );
}
