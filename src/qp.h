// SPDX-License-Identifier: MIT
// Dense strictly convex quadratic programming (Goldfarb-Idnani dual active-set method), shared by the
// velocity-projection contact methods. Pure numerics on column-major double arrays (G[i + j*n] is row i,
// column j). Each call makes at most one malloc/free pair for its scratch memory and is deterministic.
#pragma once

typedef enum cnQpStatus
{
	cnQp_ok = 0,
	cnQp_infeasible,
	cnQp_maxIterations,
	cnQp_invalid
} cnQpStatus;

/// Goldfarb-Idnani dual active-set method for the strictly convex QP
///   minimise 1/2 x^T G x + g0^T x  subject to  CI^T x + ci0 >= 0   (p inequality constraints, columns of CI n x p)
/// with G symmetric positive definite (n x n). Returns x and the multipliers lambda (p, >= 0) and the active
/// set. Robust to redundant (linearly dependent) constraints, as the original method is (it drops a
/// dependent constraint from the active set or skips it when its step is zero). Deterministic.
cnQpStatus cnSolveQpGoldfarbIdnani( int n, const double* G, const double* g0, int p, const double* CI,
									const double* ci0, double* x, double* lambda, int maxIterations );
