// SPDX-License-Identifier: MIT
// AERO's analytic collision impulses with penalty forces for resting contact.
// (Being implemented: until then the step reports that the method is not available.)
#include "world.h"

bool cnStepAnalyticImpulse( cnWorld* world, double timeStep )
{
	(void)timeStep;
	return cnSetError( world, "method '%s' is not implemented yet", cnMethodName( world->def.method ) );
}
