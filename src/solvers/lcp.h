// SPDX-License-Identifier: MIT
// Dense linear complementarity solvers shared by the velocity-level contact methods. Pure numerics:
// no world, no bodies, only column-major double arrays (A[i + j*n] is row i, column j). Each call
// makes at most one malloc/free pair for its scratch memory and is deterministic: the same inputs give
// bit-identical outputs. Implemented in lcp_lemke.c (Lemke), lcp_dantzig.c and lcp_dantzig_basis.c
// (principal pivoting on the boxed problem) and lcp_boxed.c (the boxed front end and its fallback),
// which share lcp_internal.h.
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

/// Boxed LCP: find z with lo_i <= z_i <= hi_i and w = A z + b such that z_i = lo_i => w_i >= 0,
/// z_i = hi_i => w_i <= 0, lo < z < hi => w_i = 0. Friction coupling: when findex[i] >= 0, the bounds
/// of row i are lo_i = -mu_i * z[findex[i]], hi_i = +mu_i * z[findex[i]] (mu_i given in hi[i] for such
/// rows, as in ODE), taken from the normal impulses of the solution itself, so normal and friction
/// impulses come from one solve (not two-phase). findex may be NULL (no friction rows). For a
/// friction row i, lo[i] is ignored, hi[i] = mu_i >= 0, and row findex[i] must be a non-friction row
/// with a finite lo >= 0. lo may be -INFINITY and hi +INFINITY. A is expected symmetric positive
/// semidefinite (J M^-1 J^T); it may be singular (redundant contacts: a box flat on a plane gives 4
/// normals with a rank-3 block, a table on three legs).
/// Solved first by Dantzig-style principal pivoting (Baraff 1994, the structure of ODE's dLCP): rows
/// taken one at a time, normals before friction rows, each kept clamped (w = 0) or on a bound while
/// later rows are driven, with an incrementally updated inverse of the clamped block. A friction row
/// on a bound is tied to -+mu times its normal impulse and moves with it, which is what makes the
/// pass solve the coupled problem. Three variants are tried in turn (ODE's frozen bounds followed by
/// a homotopy that ties them; ties from the start; ties with the friction rows in reverse order).
/// Rows whose columns depend on the clamped ones (singular A) stay on their bounds; nothing is
/// regularised. Without friction rows the first pass is Baraff's method, which ends at a solution for
/// symmetric positive semidefinite A. With friction the problem is not symmetric and a pass can turn
/// back where it started (Painleve-like cases); when no
/// variant reaches the conditions, the fallback is the friction split of Stewart-Trinkle /
/// Anitescu-Potra solved as one standard LCP by Lemke's method (retried on A + 1e-10 diag I,
/// finished by projected Gauss-Seidel), and the closer of the two points is returned.
/// maxIterations (<= 0: defaults) caps the steps of each Dantzig pass (which stops by itself after
/// 5 n + 100) and the pivots of each Lemke pass (default 10 (m + 10) for its m <= 3n variables).
/// cnLcp_ok means the conditions hold to 1e-8 of the problem's scale (|b| + |A| |z|); otherwise z is
/// the closest point found and the status says why (cnLcp_unbounded: ray, cnLcp_maxIterations: cap or
/// accuracy). Deterministic; one malloc/free per call.
cnLcpStatus cnSolveBoxedLcp( int n, const double* A, const double* b, const double* lo, const double* hi,
							 const int* findex, double* z, int maxIterations );

/// The paths of cnSolveBoxedLcpEx: which to run (auto: Dantzig, then Lemke when it misses), and
/// which one produced the returned z.
typedef enum cnBoxedLcpPath
{
	cnBoxedLcp_auto = 0,
	cnBoxedLcp_dantzig,
	cnBoxedLcp_lemke,
} cnBoxedLcpPath;

/// What a boxed solve did (diagnostics for tests and benchmarks).
typedef struct cnBoxedLcpInfo
{
	cnBoxedLcpPath path;		 // the path whose z was returned
	cnLcpStatus dantzigStatus;	 // how the last Dantzig pass ended (cnLcp_invalid when none ran)
	int dantzigSteps;			 // steps of the Dantzig passes, all variants together
	int dantzigPasses;			 // Dantzig passes run (1 to 3: the variants tried)
	double violation;			 // largest violation of the returned z, relative to the problem's scale
} cnBoxedLcpInfo;

/// cnSolveBoxedLcp with a choice of path (auto as cnSolveBoxedLcp, dantzig: no fallback, lemke: the
/// Lemke reduction alone, for comparisons) and a report in info (may be NULL).
cnLcpStatus cnSolveBoxedLcpEx( int n, const double* A, const double* b, const double* lo, const double* hi,
							   const int* findex, double* z, int maxIterations, cnBoxedLcpPath use,
							   cnBoxedLcpInfo* info );
