// SPDX-License-Identifier: MIT
// The instability guard (docs/reliability.md, "Instability guards"): after each step it looks for
// bodies whose state went non-finite or faster than the world's bounds and for jumps of the world's
// mechanical energy, reports the first offender with the likely cause, and stops the world, warns or
// freezes the body as cnWorldDef.onInstability says. A pure check unless it finds something.
#pragma once

#include "cairn/types.h"

/// What the guard keeps in the world (cnWorld.guard). Plain values only, so a snapshot copies it.
typedef struct cnGuardState
{
	// the highest mechanical energy (kinetic plus gravitational, J) and kinetic energy the world has
	// had lately: each relaxes towards the current value with a time constant of a second, so energy
	// a spring or a penalty contact held for a moment may come back without counting as a jump
	double referenceEnergy;
	double referenceKinetic;
	// the references hold values (false at the start and after a non-finite energy)
	bool hasReference;

	// within a step, from cnGuardBeginStep to cnGuardStep: the mass of the awake dynamic bodies at
	// the step's start, whether a user force, a moving kinematic body, a joint motor or a joint
	// spring may add energy during the step, and whether the bodies' start poses (cnBody.xf0,
	// center0) were saved for freeze-body
	double awakeMass;
	bool energySource;
	bool startPosesSaved;

	// the last report (kind none until the guard finds something)
	cnInstabilityReport report;
} cnGuardState;

/// Guard stage, first part (before the method): measures the energy the step starts from, notes
/// what could add energy in it and, for freeze-body, saves the bodies' start poses.
void cnGuardBeginStep( cnWorld* world, double timeStep );

/// Guard stage, second part (the step's last): checks every body and the energy; false (with
/// cnError_unstable and the report as the message) when the world must stop.
bool cnGuardStep( cnWorld* world, double timeStep );
