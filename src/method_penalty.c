// SPDX-License-Identifier: MIT
// Penalty contact springs integrated by adaptive Dormand-Prince RK5(4) (AERO).
// (Being implemented: until then the step reports that the method is not available.)
#include "world.h"

bool cnStepPenalty( cnWorld* world, double timeStep )
{
	(void)timeStep;
	return cnSetError( world, "method '%s' is not implemented yet", cnMethodName( world->def.method ) );
}
