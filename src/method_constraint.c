// SPDX-License-Identifier: MIT
// Kleppmann's unified constraint method (frictionless).
// (Being implemented: until then the step reports that the method is not available.)
#include "world.h"

bool cnStepConstraint( cnWorld* world, double timeStep )
{
	(void)timeStep;
	return cnSetError( world, "method '%s' is not implemented yet", cnMethodName( world->def.method ) );
}
