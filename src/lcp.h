// SPDX-License-Identifier: MIT
// Dense linear complementarity solvers shared by the velocity-level contact methods. Pure numerics:
// no world, no bodies, only column-major double arrays (A[i + j*n] is row i, column j). Each call
// makes at most one malloc/free pair for its scratch memory and is deterministic: the same inputs give
// bit-identical outputs.
#pragma once

typedef enum cnLcpStatus
{
	cnLcp_ok = 0,
	cnLcp_maxIterations,
	cnLcp_unbounded, // ray termination
	cnLcp_invalid
} cnLcpStatus;

/// Lemke's complementary pivoting: finds z >= 0 with w = A z + b >= 0 and z^T w = 0.
/// Uses the covering vector e = (1..1) and lexicographic (or index-based, deterministic) tie breaking,
/// so degenerate and singular positive-semidefinite A (redundant contacts) do not cycle.
cnLcpStatus cnSolveLcpLemke( int n, const double* A, const double* b, double* z, int maxPivots );

/// Boxed LCP (Dantzig-style principal pivoting / or a robust projected variant as in ODE's dLCP):
/// find z with lo_i <= z_i <= hi_i and w = A z + b such that z_i = lo_i => w_i >= 0, z_i = hi_i => w_i <= 0,
/// lo < z < hi => w_i = 0. Friction coupling: when findex[i] >= 0, the bounds of row i are
/// lo_i = -mu_i * z[findex[i]], hi_i = +mu_i * z[findex[i]] (mu_i given in hi[i] for such rows, as in ODE),
/// updated from the current normal z during the solve, so normal and friction are solved together
/// (not two-phase). Must not fail on singular A (redundant contacts: a box flat on a plane gives 4 normals
/// with a rank-3 block): regularise minimally or pivot robustly, and report cnLcp_ok with a valid solution.
cnLcpStatus cnSolveBoxedLcp( int n, const double* A, const double* b, const double* lo, const double* hi,
							 const int* findex, double* z, int maxIterations );
