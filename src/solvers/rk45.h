// SPDX-License-Identifier: MIT
// The embedded Dormand-Prince RK5(4) pair (7 stages, first same as last) for y' = f(t, y) on a
// plain vector of doubles, with error and step-size control (PI controller as in Hairer's DOPRI5),
// step rejection and the 4th-order continuous extension (dense output). The penalty and
// analytic-impulse methods integrate the bodies' state with it; it knows nothing about bodies.
//
// Reference: E. Hairer, S. P. Norsett, G. Wanner, Solving Ordinary Differential Equations I,
// 2nd ed., Springer 1993, section II.4 (step-size control) and II.6 (dense output).
#pragma once

#include <stdbool.h>
#include <stddef.h>

/// Right-hand side: writes f(t, y) into dydt (n values).
typedef void cnOdeFunction( double t, const double* y, double* dydt, void* context );

/// Outcome of one attempt to take an accepted step.
typedef enum cnRk45Status
{
	/// a step was accepted: t, y and the dense output are updated
	cnRk45_accepted = 0,
	/// the step size fell below hMin while the error stayed too large (or the state is not finite)
	cnRk45_underflow,
} cnRk45Status;

/// Integrator state. Fill with cnRk45_Init, set the initial value with cnRk45_Reset.
typedef struct cnRk45
{
	int n;
	cnOdeFunction* f;
	void* context;

	/// error per component must stay below atol + rtol * max(|y_old|, |y_new|)
	double rtol, atol;
	/// controller: h_new = h * clamp(safety * err^-alpha * errOld^beta, minFactor, maxFactor)
	double safety, minFactor, maxFactor, beta;
	/// smallest step size before the integrator gives up
	double hMin;

	/// current time and state
	double t;
	double* y;
	/// step size to try next (the controller's proposal)
	double h;
	/// the last accepted step: [tOld, tOld + hLast], the interval the dense output covers
	double tOld, hLast;
	/// the proposal before the last step was shortened to land on tEnd (0 when it was not)
	double hPlanned;
	/// error of the previous accepted step (PI controller memory)
	double errOld;
	/// k[0] holds f(t, y): the last stage of the previous step (FSAL)
	bool fsal;
	/// the previous attempt was rejected: the next proposal may not grow
	bool lastRejected;

	// scratch: 7 stages, the new state, a stage state, 5 dense output coefficient vectors
	double* k[7];
	double* yNew;
	double* yStage;
	double* dense[5];

	/// statistics
	int acceptedCount;
	int rejectedCount;
	int evaluationCount;
} cnRk45;

/// Number of doubles of scratch memory cnRk45_Init needs for a system of size n.
size_t cnRk45_MemorySize( int n );

/// Sets up an integrator on caller memory (cnRk45_MemorySize(n) doubles) with the default
/// controller (safety 0.9, factors in [0.2, 5], beta 0.04) and tolerances rtol = atol = tol.
void cnRk45_Init( cnRk45* rk, int n, double* memory, cnOdeFunction* f, void* context, double tol );

/// Sets time, state (copied) and the next step size; forgets the stored derivative (call after
/// any jump in the state, such as an impulse).
void cnRk45_Reset( cnRk45* rk, double t, const double* y, double h );

/// Forgets the stored derivative without touching t, y or the step size: the right-hand side has
/// changed (the penalty methods fix new contact points at the start of every step).
void cnRk45_Invalidate( cnRk45* rk );

/// Evaluates and stores f(t, y) for the next step if it is not stored yet (after cnRk45_Reset), so
/// that whatever the right-hand side records in its context describes the step's start.
void cnRk45_Prime( cnRk45* rk );

/// Takes one accepted step that ends at or before tEnd, no longer than hMax (> 0), rejecting and
/// retrying with smaller steps as needed. A step that would pass tEnd is shortened to end exactly
/// on it, and one that would stop short of it by less than 1 % of its length is stretched to it
/// (when that stays within hMax), so no sliver of a step is left.
cnRk45Status cnRk45_Step( cnRk45* rk, double tEnd, double hMax );

/// Dense output: the state at time t inside the last accepted step, [tOld, tOld + hLast], from
/// the 4th-order continuous extension.
void cnRk45_Interpolate( const cnRk45* rk, double t, double* out );

/// Integrates to exactly tEnd with steps no longer than hMax; false on step-size underflow.
bool cnRk45_Integrate( cnRk45* rk, double tEnd, double hMax );
