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
/// maxPivots <= 0 picks 10 (n + 10). Returns cnLcp_unbounded on a secondary ray (no solution found,
/// e.g. b_i < 0 with a zero row i of A), cnLcp_invalid for n < 0, a NULL array or a non-finite entry.
/// z is the solution on cnLcp_ok, else the last iterate (>= 0). One malloc/free per call.
cnLcpStatus cnSolveLcpLemke( int n, const double* A, const double* b, double* z, int maxPivots );

/// Boxed LCP (Dantzig-style principal pivoting / or a robust projected variant as in ODE's dLCP):
/// find z with lo_i <= z_i <= hi_i and w = A z + b such that z_i = lo_i => w_i >= 0, z_i = hi_i => w_i <= 0,
/// lo < z < hi => w_i = 0. Friction coupling: when findex[i] >= 0, the bounds of row i are
/// lo_i = -mu_i * z[findex[i]], hi_i = +mu_i * z[findex[i]] (mu_i given in hi[i] for such rows, as in ODE),
/// updated from the current normal z during the solve, so normal and friction are solved together
/// (not two-phase). Must not fail on singular A (redundant contacts: a box flat on a plane gives 4 normals
/// with a rank-3 block): regularise minimally or pivot robustly, and report cnLcp_ok with a valid solution.
/// findex may be NULL (no friction rows). For a friction row i, lo[i] is ignored, hi[i] = mu_i >= 0, and
/// row findex[i] must be a non-friction row with a finite lo >= 0. lo may be -INFINITY and hi +INFINITY.
/// Solved as one LCP (Lemke, friction split as in Stewart-Trinkle / Anitescu-Potra), so the friction
/// bounds follow the normal impulses exactly. maxIterations caps the pivots of each Lemke pass
/// (<= 0: 10 (m + 10) for the m <= 3n LCP variables). cnLcp_ok means the conditions hold to 1e-8 of
/// the problem's scale (|b| + |A| |z|); otherwise z is the closest point found and the status says
/// why (cnLcp_unbounded: ray, cnLcp_maxIterations: cap or accuracy). One malloc/free per call.
cnLcpStatus cnSolveBoxedLcp( int n, const double* A, const double* b, const double* lo, const double* hi,
							 const int* findex, double* z, int maxIterations );
