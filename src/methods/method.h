// SPDX-License-Identifier: MIT
// The method interface. A contact method is a module: a name, its capability flags, a check of its
// settings, the state it keeps between steps and its step. The world's step (step.c) runs the
// shared stages and calls the module's step as its method stage; no other file asks which method a
// world has.
//
// How joints enter (docs/architecture.md): a joint contributes bilateral or bounded rows
// (Jacobians, bias, bounds) that every module consumes in its own way: the impulse method solves
// them in its sub-step loop beside the contacts, the velocity-level methods add them to their
// matrix problem as equality (or boxed) rows, the constraint method adds them to its row system,
// the penalty methods turn them into stiff springs. A module sets cnMethodFlag_joints once it does.
#pragma once

#include "cairn/types.h"

#include <stddef.h>

/// A contact method.
typedef struct cnMethodModule
{
	cnMethod method;
	/// canonical name, as in scene files and on the command line
	const char* name;
	/// one line for help texts
	const char* summary;
	/// cnMethodFlags
	uint32_t flags;
	/// checks the part of the settings this method reads; NULL when fine, else the reason (a
	/// static string naming the setting)
	const char* ( *validate )( const cnMethodSettings* settings );
	/// bytes of state the method keeps in the world between steps (zeroed at creation; 0: none)
	size_t stateSize;
	/// the method stage: resolves contacts and writes the new pose and velocity of every awake
	/// non-static body (the finish stage does the rest); false with the error set when it cannot
	bool ( *step )( cnWorld* world, double timeStep );
} cnMethodModule;

/// The module of a method, NULL when out of range.
const cnMethodModule* cnGetMethodModule( cnMethod method );

/// Checks every module's part of the settings; NULL when all are fine, else the reason.
const char* cnValidateMethodSettings( const cnMethodSettings* settings );

/// State of the adaptive methods (penalty, analytic-impulse, constraint) between steps.
typedef struct cnAdaptiveState
{
	/// the last accepted internal step size, carried into the next world step (0 = none yet)
	double lastStep;
} cnAdaptiveState;

/// The method stage of the world's step.
bool cnStepMethod( cnWorld* world, double timeStep );

// the modules (each in its method's file)
extern const cnMethodModule cnImpulseModule;
extern const cnMethodModule cnLcpModule;
extern const cnMethodModule cnVelocityProjectionModule;
extern const cnMethodModule cnGrLcpModule;
extern const cnMethodModule cnGrVelocityProjectionModule;
extern const cnMethodModule cnPenaltyModule;
extern const cnMethodModule cnAnalyticImpulseModule;
extern const cnMethodModule cnConstraintModule;
