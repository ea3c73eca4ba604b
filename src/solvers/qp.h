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
/// G is read from its lower triangle; CI is n x p column-major (CI[i + k*n]); CI, ci0 and lambda may be
/// NULL when p == 0. The active set is returned through lambda: lambda[k] > 0 only for constraints
/// active at x (and G x + g0 = CI lambda). maxIterations caps adds plus drops (<= 0: 20 (n + p) + 100).
/// cnQp_invalid: n < 1, p < 0, a NULL array, a non-finite entry, or G not positive definite.
/// cnQp_infeasible: no x satisfies the constraints (x, lambda then hold the last iterate).
/// One malloc/free per call (2 n^2 + 4 n + p doubles, n + p ints).
cnQpStatus cnSolveQpGoldfarbIdnani( int n, const double* G, const double* g0, int p, const double* CI,
									const double* ci0, double* x, double* lambda, int maxIterations );
