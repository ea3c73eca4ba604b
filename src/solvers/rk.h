// SPDX-License-Identifier: MIT
// Explicit embedded Runge-Kutta pairs for y' = f(t, y) on a plain vector of doubles. Three parts:
// - the Butcher tableaux of the Dormand-Prince 5(4) and the Cash-Karp 5(4) pairs, as data;
// - the stage arithmetic every explicit embedded pair shares: the stage states
//   y0 + h sum_j a_ij k_j, the higher-order solution and the embedded error estimate;
// - the adaptive Dormand-Prince integrator (7 stages, first same as last) with error and step-size
//   control (PI controller as in Hairer's DOPRI5), step rejection and the 4th-order continuous
//   extension (dense output). The penalty and analytic-impulse methods integrate the bodies' state
//   with it.
// The constraint method drives Cash-Karp steps with the stage routines and keeps its own error
// norm and step control. Nothing here knows about bodies.
//
// References:
// - J. R. Dormand, P. J. Prince, A family of embedded Runge-Kutta formulae, J. Comput. Appl. Math.
//   6(1), 1980, 19-26.
// - E. Hairer, S. P. Norsett, G. Wanner, Solving Ordinary Differential Equations I, 2nd ed.,
//   Springer 1993, section II.4 (step-size control), II.5 (DOPRI5) and II.6 (dense output).
// - J. R. Cash, A. H. Karp, A variable order Runge-Kutta method for initial value problems with
//   rapidly varying right-hand sides, ACM Trans. Math. Software 16(3), 1990, 201-222.
#pragma once

#include <stdbool.h>
#include <stddef.h>

// ---------------------------------------------------------------------------------------------
// tableaux and stage arithmetic

/// Most stages of a tableau.
#define CN_RK_MAX_STAGES 7

/// Operation order of the weighted sums of stage derivatives. Floating-point addition does not
/// associate, and the methods' results are pinned to the bit, so each pair keeps the order its
/// integrator was written with.
typedef enum cnRkSum
{
	/// y0 + h * (w_1 k_1 + w_2 k_2 + ...) over the nonzero weights, left to right; a sum of one
	/// term is y0 + (h * w) * k (the order of Hairer's DOPRI5)
	cnRkSum_factored = 0,
	/// v = y0, then v += (h * w_j) * k_j for every weight in turn, zeros included (the order of
	/// Numerical Recipes' rkck)
	cnRkSum_running,
} cnRkSum;

/// Butcher tableau of an explicit embedded pair.
typedef struct cnRkTableau
{
	/// number of stages
	int stages;
	/// order of the solution; the embedded one, which only gives the error estimate, is one less
	int order;
	/// first same as last: the last stage is f at the solution, the next step's first stage
	bool fsal;
	cnRkSum sum;
	/// nodes: stage i is evaluated at t + c[i] h
	double c[CN_RK_MAX_STAGES];
	/// coupling coefficients a[i][j], j < i
	double a[CN_RK_MAX_STAGES][CN_RK_MAX_STAGES];
	/// weights of the higher-order solution
	double b[CN_RK_MAX_STAGES];
	/// error weights: b less the weights of the embedded lower-order solution
	double e[CN_RK_MAX_STAGES];
} cnRkTableau;

/// Dormand-Prince RK5(4)7M (1980): 7 stages, first same as last, factored sums.
extern const cnRkTableau cnRk_dormandPrince;

/// Cash-Karp RK5(4) (1990): 6 stages, running sums.
extern const cnRkTableau cnRk_cashKarp;

// The three routines below write n values into out, which must not overlap y0 or k.

/// Argument of stage i (1 <= i < stages): out = y0 + h sum_{j<i} a[i][j] k[j].
void cnRk_StageState( const cnRkTableau* tableau, int stage, int n, const double* y0, double h, double* const* k,
					  double* out );

/// Higher-order solution: out = y0 + h sum_j b[j] k[j].
void cnRk_Solution( const cnRkTableau* tableau, int n, const double* y0, double h, double* const* k, double* out );

/// Embedded error estimate: out = h sum_j e[j] k[j].
void cnRk_Error( const cnRkTableau* tableau, int n, double h, double* const* k, double* out );

// ---------------------------------------------------------------------------------------------
// adaptive Dormand-Prince integrator

/// Right-hand side: writes f(t, y) into dydt (n values).
typedef void cnOdeFunction( double t, const double* y, double* dydt, void* context );

/// Outcome of one attempt to take an accepted step.
typedef enum cnRkStatus
{
	/// a step was accepted: t, y and the dense output are updated
	cnRk_accepted = 0,
	/// the step size fell below hMin while the error stayed too large (or the state is not finite)
	cnRk_underflow,
} cnRkStatus;

/// Integrator state. Fill with cnRk_Init, set the initial value with cnRk_Reset.
typedef struct cnRk
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
	double* k[CN_RK_MAX_STAGES];
	double* yNew;
	double* yStage;
	double* dense[5];

	/// statistics
	int acceptedCount;
	int rejectedCount;
	int evaluationCount;
} cnRk;

/// Number of doubles of scratch memory cnRk_Init needs for a system of size n.
size_t cnRk_MemorySize( int n );

/// Sets up an integrator on caller memory (cnRk_MemorySize(n) doubles) with the default
/// controller (safety 0.9, factors in [0.2, 5], beta 0.04) and tolerances rtol = atol = tol.
void cnRk_Init( cnRk* rk, int n, double* memory, cnOdeFunction* f, void* context, double tol );

/// Sets time, state (copied) and the next step size; forgets the stored derivative (call after
/// any jump in the state, such as an impulse).
void cnRk_Reset( cnRk* rk, double t, const double* y, double h );

/// Forgets the stored derivative without touching t, y or the step size: the right-hand side has
/// changed (the penalty methods fix new contact points at the start of every step).
void cnRk_Invalidate( cnRk* rk );

/// Evaluates and stores f(t, y) for the next step if it is not stored yet (after cnRk_Reset), so
/// that whatever the right-hand side records in its context describes the step's start.
void cnRk_Prime( cnRk* rk );

/// Takes one accepted step that ends at or before tEnd, no longer than hMax (> 0), rejecting and
/// retrying with smaller steps as needed. A step that would pass tEnd is shortened to end exactly
/// on it, and one that would stop short of it by less than 1 % of its length is stretched to it
/// (when that stays within hMax), so no sliver of a step is left.
cnRkStatus cnRk_Step( cnRk* rk, double tEnd, double hMax );

/// Dense output: the state at time t inside the last accepted step, [tOld, tOld + hLast], from
/// the 4th-order continuous extension.
void cnRk_Interpolate( const cnRk* rk, double t, double* out );

/// Integrates to exactly tEnd with steps no longer than hMax; false on step-size underflow.
bool cnRk_Integrate( cnRk* rk, double tEnd, double hMax );
