// SPDX-License-Identifier: MIT
// The boxed LCP with friction coupling, front end: cnSolveBoxedLcp / cnSolveBoxedLcpEx check the
// input, run the Dantzig-style principal pivoting pass (lcp_dantzig.c: Baraff 1994, the structure
// of ODE's dLCP) in its three variants, and when none reaches the conditions fall back on the
// boxed problem reduced to one standard LCP (the friction split of Stewart-Trinkle and
// Anitescu-Potra 1997) solved by Lemke's method (lcp_lemke.c), retried on A + eps I and finished by
// projected Gauss-Seidel. Also here: the violation of the boxed conditions that every path is
// judged by. Memory: one malloc/free pair per call, shared by the paths.
#include "solvers/lcp_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Sweeps of the projected Gauss-Seidel fallback.
#define CN_BOXED_PGS_SWEEPS 2000

// Steps of one Dantzig pass, per row (plus 100): a pass that succeeds takes about two.
#define CN_DANTZIG_STEPS_PER_ROW 5

// ------------------------------------------------------------------------------------------------
// Boxed LCP: the reduction to one standard LCP for Lemke (the fallback path), and the check of the
// boxed conditions that both paths are judged by
//
// Each row is rewritten with non-negative variables and the box conditions become complementarity
// conditions. For a fixed box, w = sigma - tau with sigma _|_ (z - lo), tau _|_ (hi - z) and
// sigma, tau >= 0 (at lo, w = sigma >= 0; at hi, w = -tau <= 0; inside, w = 0):
//   lower only  (lo finite, hi = +inf):  z = lo + a,   a _|_ w
//   upper only  (lo = -inf, hi finite):  z = hi - a,   a _|_ -w
//   free        (both infinite):         z = a - c,    a _|_ w, c _|_ -w
//   box         (lo < hi, both finite):  z = lo + a,   a _|_ w + c, c _|_ (hi - lo) - a
//   fixed       (lo == hi, or mu = 0):   z = lo,       no variable
// A friction row (findex f >= 0, bounds -+mu z_f) is split as in Stewart-Trinkle and
// Anitescu-Potra, one direction pair per row, which keeps the box semantics exactly:
//   friction:  z = a - c,  a _|_ w + s,  c _|_ -w + s,  s _|_ mu z_f - a - c
// s is the sliding speed along the row: s = 0 allows any |z| <= mu z_f with w = 0 (stick); s > 0
// puts z on the bound opposing w (slip). z_f = lo_f + a_f is the normal row's own variable, so the
// friction bound is linear in the unknowns and one LCP gives normal and friction impulses together:
// no two-phase split, no fixed-point loop on the bounds. Its matrix is the PSD Z^T A Z plus a skew
// part plus the mu entries: copositive, the structure for which Anitescu and Potra (1997) show the
// LCP solvable by Lemke's method (in exact arithmetic). Should it still stop short (round-off on a very
// degenerate problem), the solve is retried on A + eps I with eps a 1e-10 fraction of A's
// diagonal, and then finished by projected Gauss-Seidel sweeps from the closest point; the result
// is reported ok only when it satisfies the conditions.

typedef enum cnBoxKind
{
	cnBox_fixed,
	cnBox_lower,
	cnBox_upper,
	cnBox_free,
	cnBox_box,
	cnBox_friction,
} cnBoxKind;

// The reduction of a boxed problem: per row its kind, its variables and z = zc + sum coef * x.
typedef struct cnBoxMap
{
	int* kind;	   // n
	int* varA;	   // n: first variable of the row, or -1
	int* varC;	   // n: second variable, or -1
	int* varS;	   // n: sliding speed of a friction row, or -1
	double* zc;	   // n: constant part of z
	double* blo;   // n: fixed lower bound of the row (friction rows: -mu z_f at the last solve)
	double* bhi;   // n: fixed upper bound
	int m;		   // number of LCP variables
} cnBoxMap;

// Builds the map: the kind and variables of every row.
static void cnBoxBuildMap( cnBoxMap* map, int n, const double* lo, const double* hi, const int* findex )
{
	int m = 0;
	for ( int i = 0; i < n; ++i )
	{
		double l = lo[i], h = hi[i];
		map->varA[i] = -1;
		map->varC[i] = -1;
		map->varS[i] = -1;
		map->zc[i] = 0.0;
		if ( findex != NULL && findex[i] >= 0 )
		{
			int f = findex[i];
			double mu = h;
			if ( mu > 0.0 && lo[f] < hi[f] )
			{
				map->kind[i] = cnBox_friction;
				map->varA[i] = m++;
				map->varC[i] = m++;
				map->varS[i] = m++;
				map->blo[i] = -INFINITY;
				map->bhi[i] = INFINITY;
				continue;
			}
			// no friction, or the normal impulse is fixed at lo_f: a constant box
			l = -mu * lo[f];
			h = mu * lo[f];
		}
		map->blo[i] = l;
		map->bhi[i] = h;

		bool finiteLo = l > -INFINITY, finiteHi = h < INFINITY;
		if ( finiteLo && finiteHi && l >= h )
		{
			map->kind[i] = cnBox_fixed;
			map->zc[i] = l;
		}
		else if ( finiteLo && finiteHi )
		{
			map->kind[i] = cnBox_box;
			map->varA[i] = m++;
			map->varC[i] = m++;
			map->zc[i] = l;
		}
		else if ( finiteLo )
		{
			map->kind[i] = cnBox_lower;
			map->varA[i] = m++;
			map->zc[i] = l;
		}
		else if ( finiteHi )
		{
			map->kind[i] = cnBox_upper;
			map->varA[i] = m++;
			map->zc[i] = h;
		}
		else
		{
			map->kind[i] = cnBox_free;
			map->varA[i] = m++;
			map->varC[i] = m++;
		}
	}
	map->m = m;
}

// The coefficients of z_i on its variables a and c (z_i = zc_i + ca x_a + cc x_c).
static void cnBoxRowCoefficients( const cnBoxMap* map, int i, double* ca, double* cc )
{
	*ca = 0.0;
	*cc = 0.0;
	switch ( map->kind[i] )
	{
		case cnBox_lower:
		case cnBox_box:
			*ca = 1.0;
			break;
		case cnBox_upper:
			*ca = -1.0;
			break;
		case cnBox_free:
		case cnBox_friction:
			*ca = 1.0;
			*cc = -1.0;
			break;
		default:
			break;
	}
}

// Fills the LCP (M, q) of size map->m; diagonalShift is added to A's diagonal. AZ (n x m) and wc
// (n) are scratch.
static void cnBoxBuildLcp( const cnBoxMap* map, int n, const double* A, const double* b, const double* lo,
						   const double* hi, const int* findex, double diagonalShift, double* AZ, double* M, double* q,
						   double* wc )
{
	int m = map->m;
	size_t nn = (size_t)n, mm = (size_t)m;

	// AZ = (A + shift I) Z column by column, wc = (A + shift I) zc + b
	memset( AZ, 0, nn * mm * sizeof( double ) );
	for ( int i = 0; i < n; ++i )
	{
		wc[i] = b[i] + diagonalShift * map->zc[i];
	}
	for ( int j = 0; j < n; ++j )
	{
		const double* colA = A + (size_t)j * nn;
		double ca, cc;
		cnBoxRowCoefficients( map, j, &ca, &cc );
		int vars[2] = { map->varA[j], map->varC[j] };
		double coefs[2] = { ca, cc };
		for ( int t = 0; t < 2; ++t )
		{
			if ( vars[t] < 0 || coefs[t] == 0.0 )
			{
				continue;
			}
			double* colZ = AZ + (size_t)vars[t] * nn;
			for ( int i = 0; i < n; ++i )
			{
				colZ[i] += coefs[t] * colA[i];
			}
			colZ[j] += coefs[t] * diagonalShift;
		}
		double zc = map->zc[j];
		if ( zc != 0.0 )
		{
			for ( int i = 0; i < n; ++i )
			{
				wc[i] += zc * colA[i];
			}
		}
	}

	// one slack row per variable: +-w_i plus the coupling terms
	memset( M, 0, mm * mm * sizeof( double ) );
	for ( int i = 0; i < n; ++i )
	{
		int a = map->varA[i], c = map->varC[i], s = map->varS[i];
		int kind = map->kind[i];
		if ( kind == cnBox_fixed )
		{
			continue;
		}
		double signA = kind == cnBox_upper ? -1.0 : 1.0;
		for ( int v = 0; v < m; ++v )
		{
			M[(size_t)a + (size_t)v * mm] = signA * AZ[(size_t)i + (size_t)v * nn];
		}
		q[a] = signA * wc[i];
		if ( kind == cnBox_free || kind == cnBox_friction )
		{
			// c _|_ -w (+ s)
			for ( int v = 0; v < m; ++v )
			{
				M[(size_t)c + (size_t)v * mm] = -AZ[(size_t)i + (size_t)v * nn];
			}
			q[c] = -wc[i];
		}
		if ( kind == cnBox_box )
		{
			// a _|_ w + c, c _|_ (hi - lo) - a
			M[(size_t)a + (size_t)c * mm] += 1.0;
			M[(size_t)c + (size_t)a * mm] = -1.0;
			q[c] = map->bhi[i] - map->blo[i];
		}
		// (friction rows exist only with a friction index)
		if ( kind == cnBox_friction && findex != NULL )
		{
			// a _|_ w + s, c _|_ -w + s, s _|_ mu (lo_f + a_f) - a - c
			int f = findex[i];
			double mu = hi[i];
			M[(size_t)a + (size_t)s * mm] += 1.0;
			M[(size_t)c + (size_t)s * mm] += 1.0;
			M[(size_t)s + (size_t)a * mm] = -1.0;
			M[(size_t)s + (size_t)c * mm] = -1.0;
			M[(size_t)s + (size_t)map->varA[f] * mm] += mu;
			q[s] = mu * lo[f];
		}
	}
}

// z from the LCP variables, clamped onto its bounds (a round-off step at most).
static void cnBoxRecover( const cnBoxMap* map, int n, const double* x, const double* hi, const int* findex, double* z )
{
	for ( int i = 0; i < n; ++i )
	{
		double ca, cc;
		cnBoxRowCoefficients( map, i, &ca, &cc );
		double v = map->zc[i];
		if ( map->varA[i] >= 0 )
		{
			v += ca * x[map->varA[i]];
		}
		if ( map->varC[i] >= 0 && cc != 0.0 )
		{
			v += cc * x[map->varC[i]];
		}
		z[i] = v;
	}
	for ( int i = 0; i < n; ++i )
	{
		double l = map->blo[i], h = map->bhi[i];
		if ( map->kind[i] == cnBox_friction && findex != NULL )
		{
			double bound = hi[i] * fmax( z[findex[i]], 0.0 );
			l = -bound;
			h = bound;
		}
		z[i] = fmin( fmax( z[i], l ), h );
	}
}


// Projected Gauss-Seidel sweeps (friction bounds from the current normal impulses) starting from z,
// until the conditions hold to CN_BOXED_CHECK_TOL or CN_BOXED_PGS_SWEEPS have run. It converges for
// positive semidefinite A, slowly when A is ill-conditioned, which is why it only finishes what Lemke
// got close to. w (n) is scratch. z keeps the point with the smallest violation.
static bool cnBoxProjectedGaussSeidel( int n, const double* A, const double* b, const double* lo, const double* hi,
									   const int* findex, double* z, double* w, double violation )
{
	size_t nn = (size_t)n;
	double* zBest = w + nn;
	memcpy( zBest, z, nn * sizeof( double ) );
	double bestViolation = violation;
	for ( int i = 0; i < n; ++i )
	{
		double s = b[i];
		for ( int j = 0; j < n; ++j )
		{
			s += A[(size_t)i + (size_t)j * nn] * z[j];
		}
		w[i] = s;
	}
	for ( int sweep = 1; sweep <= CN_BOXED_PGS_SWEEPS; ++sweep )
	{
		for ( int i = 0; i < n; ++i )
		{
			double aii = A[(size_t)i + (size_t)i * nn];
			if ( aii <= 0.0 )
			{
				continue;
			}
			double l = lo[i], h = hi[i];
			if ( findex != NULL && findex[i] >= 0 )
			{
				double bound = hi[i] * fmax( z[findex[i]], 0.0 );
				l = -bound;
				h = bound;
			}
			double zi = fmin( fmax( z[i] - w[i] / aii, l ), h );
			double dz = zi - z[i];
			if ( dz != 0.0 )
			{
				z[i] = zi;
				const double* col = A + (size_t)i * nn;
				for ( int k = 0; k < n; ++k )
				{
					w[k] += col[k] * dz;
				}
			}
		}
		if ( sweep % 16 == 0 )
		{
			double v = cnBoxViolation( n, A, b, lo, hi, findex, z );
			if ( v < bestViolation )
			{
				bestViolation = v;
				memcpy( zBest, z, nn * sizeof( double ) );
			}
			if ( v <= CN_BOXED_CHECK_TOL )
			{
				return true;
			}
		}
	}
	memcpy( z, zBest, nn * sizeof( double ) );
	return false;
}

// ------------------------------------------------------------------------------------------------
// Boxed LCP, the solver: the Dantzig variants, then, when none reaches the conditions, the Lemke
// reduction (above), retried on A + eps I and finished by projected Gauss-Seidel.

static size_t cnBoxedLemkeDoubles( int n )
{
	size_t nn = (size_t)n, m3 = 3 * nn;
	return 3 * nn		   // zc, blo, bhi
		   + 2 * nn		   // wc, and the best point of the Gauss-Seidel sweeps after it
		   + nn			   // best z of the attempts
		   + m3			   // x
		   + m3 * m3 + m3 // M, q
		   + nn * m3	   // AZ
		   + cnLemkeDoubles( (int)m3 );
}

static size_t cnBoxedLemkeInts( int n )
{
	return 4 * (size_t)n + cnLemkeInts( 3 * n );
}

// The Lemke path on a validated problem; scratch: cnBoxedLemkeDoubles(n) doubles and
// cnBoxedLemkeInts(n) ints. *violation receives the violation of the returned z.
static cnLcpStatus cnBoxedLemke( int n, const double* A, const double* b, const double* lo, const double* hi,
								 const int* findex, double* z, int maxIterations, double* dbl, int* ints,
								 double* violation )
{
	size_t nn = (size_t)n;
	size_t m3 = 3 * nn;
	cnBoxMap map;
	double* p = dbl;
	map.zc = p;
	p += nn;
	map.blo = p;
	p += nn;
	map.bhi = p;
	p += nn;
	double* wc = p;
	p += 2 * nn;
	double* zBest = p;
	p += nn;
	double* x = p;
	p += m3;
	double* M = p;
	p += m3 * m3;
	double* q = p;
	p += m3;
	double* AZ = p;
	p += nn * m3;
	double* lemkeDoubles = p;
	int* ip = ints;
	map.kind = ip;
	ip += nn;
	map.varA = ip;
	ip += nn;
	map.varC = ip;
	ip += nn;
	map.varS = ip;
	ip += nn;
	int* lemkeInts = ip;

	// the regularisation of the second attempt: a 1e-10 fraction of the largest diagonal entry
	double diagMax = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		diagMax = fmax( diagMax, fabs( A[(size_t)i + (size_t)i * nn] ) );
	}
	double shifts[2] = { 0.0, 1e-10 * diagMax };

	// the coupled problem: normal and friction impulses from one LCP
	cnLemkeWork work;
	cnLcpStatus status = cnLcp_maxIterations;
	bool solved = false;
	double bestViolation = INFINITY;
	for ( int i = 0; i < n; ++i )
	{
		zBest[i] = 0.0;
	}
	for ( int attempt = 0; attempt < 2 && solved == false; ++attempt )
	{
		if ( attempt == 1 && shifts[1] == 0.0 )
		{
			break;
		}
		cnBoxBuildMap( &map, n, lo, hi, findex );
		cnLemkeCarve( &work, map.m, lemkeDoubles, lemkeInts );
		cnBoxBuildLcp( &map, n, A, b, lo, hi, findex, shifts[attempt], AZ, M, q, wc );
		status = cnLemkeCore( map.m, M, q, x, maxIterations, &work, NULL );
		cnBoxRecover( &map, n, x, hi, findex, z );
		// judged on the result, not on the status: a ray met when z0 is already at round-off level
		// still leaves a solution
		double v = cnBoxViolation( n, A, b, lo, hi, findex, z );
		solved = v <= CN_BOXED_CHECK_TOL;
		if ( v < bestViolation )
		{
			bestViolation = v;
			memcpy( zBest, z, nn * sizeof( double ) );
		}
	}

	if ( solved == false )
	{
		// last resort: projected Gauss-Seidel from the closest attempt (w is kept in wc)
		memcpy( z, zBest, nn * sizeof( double ) );
		solved = cnBoxProjectedGaussSeidel( n, A, b, lo, hi, findex, z, wc, bestViolation );
		bestViolation = cnBoxViolation( n, A, b, lo, hi, findex, z );
	}
	*violation = bestViolation;
	if ( solved )
	{
		return cnLcp_ok;
	}
	return status == cnLcp_ok ? cnLcp_maxIterations : status;
}

cnLcpStatus cnSolveBoxedLcpEx( int n, const double* A, const double* b, const double* lo, const double* hi,
							   const int* findex, double* z, int maxIterations, cnBoxedLcpPath use,
							   cnBoxedLcpInfo* info )
{
	if ( info != NULL )
	{
		info->path = cnBoxedLcp_auto;
		info->dantzigStatus = cnLcp_invalid;
		info->dantzigSteps = 0;
		info->dantzigPasses = 0;
		info->violation = INFINITY;
	}
	if ( n < 0 || ( n > 0 && ( A == NULL || b == NULL || lo == NULL || hi == NULL || z == NULL ) ) )
	{
		return cnLcp_invalid;
	}
	if ( n == 0 )
	{
		if ( info != NULL )
		{
			info->path = use == cnBoxedLcp_lemke ? cnBoxedLcp_lemke : cnBoxedLcp_dantzig;
			info->dantzigStatus = cnLcp_ok;
			info->violation = 0.0;
		}
		return cnLcp_ok;
	}
	size_t nn = (size_t)n;
	if ( cnLcpInputsFinite( n, A, b ) == false )
	{
		return cnLcp_invalid;
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( isnan( lo[i] ) || isnan( hi[i] ) )
		{
			return cnLcp_invalid;
		}
		if ( findex != NULL && findex[i] >= 0 )
		{
			// a friction row: mu in hi, and its normal row has a finite lower bound >= 0 and no
			// findex of its own
			int f = findex[i];
			if ( f >= n || f == i || findex[f] >= 0 || cnIsFinite( hi[i] ) == false || hi[i] < 0.0 ||
				 lo[f] < 0.0 || cnIsFinite( lo[f] ) == false || lo[f] > hi[f] )
			{
				return cnLcp_invalid;
			}
		}
		else if ( lo[i] > hi[i] || lo[i] == INFINITY || hi[i] == -INFINITY )
		{
			return cnLcp_invalid;
		}
	}
	if ( nn > SIZE_MAX / ( 64 * sizeof( double ) * nn ) )
	{
		return cnLcp_invalid;
	}
	// a Dantzig pass that succeeds takes about two steps per row; one that wanders much longer
	// has lost its way (a long path through degenerate sets), and the next pass does better
	int dantzigSteps = CN_DANTZIG_STEPS_PER_ROW * n + 100;
	if ( maxIterations > 0 && maxIterations < dantzigSteps )
	{
		dantzigSteps = maxIterations;
	}

	// one block for both paths (they run one after the other and share it), plus the Dantzig
	// point kept while the Lemke path runs; the Lemke part is only touched when it runs
	size_t doubles = cnDantzigDoubles( n );
	size_t ints = cnDantzigInts( n );
	if ( use != cnBoxedLcp_dantzig )
	{
		size_t ld = cnBoxedLemkeDoubles( n ), li = cnBoxedLemkeInts( n );
		doubles = doubles > ld ? doubles : ld;
		ints = ints > li ? ints : li;
	}
	double* block = malloc( ( nn + doubles ) * sizeof( double ) + ints * sizeof( int ) );
	if ( block == NULL )
	{
		return cnLcp_invalid;
	}
	double* zDantzig = block;
	double* scratch = block + nn;
	int* iscratch = (int*)( scratch + doubles );

	cnLcpStatus status = cnLcp_maxIterations;
	cnBoxedLcpPath path = cnBoxedLcp_dantzig;
	double violation = INFINITY;
	if ( use != cnBoxedLcp_lemke )
	{
		// the variants in turn until one reaches the conditions (only problems with friction rows
		// can need more than the first)
		int steps = 0, passes = 0;
		for ( int variant = 0; variant < cnDantzigVariant_count && status != cnLcp_ok; ++variant )
		{
			int passSteps = 0;
			status = cnBoxedDantzig( n, A, b, lo, hi, findex, z, dantzigSteps, variant, scratch, iscratch,
									 &violation, &passSteps );
			steps += passSteps;
			passes += 1;
		}
		if ( info != NULL )
		{
			info->dantzigStatus = status;
			info->dantzigSteps = steps;
			info->dantzigPasses = passes;
		}
	}
	if ( status != cnLcp_ok && use != cnBoxedLcp_dantzig )
	{
		// the fallback: the Lemke reduction; the closer of the two points is returned
		double dantzigViolation = violation;
		memcpy( zDantzig, z, nn * sizeof( double ) );
		status = cnBoxedLemke( n, A, b, lo, hi, findex, z, maxIterations, scratch, iscratch, &violation );
		path = cnBoxedLcp_lemke;
		if ( use == cnBoxedLcp_auto && status != cnLcp_ok && dantzigViolation < violation )
		{
			memcpy( z, zDantzig, nn * sizeof( double ) );
			violation = dantzigViolation;
			path = cnBoxedLcp_dantzig;
		}
	}
	free( block );
	if ( info != NULL )
	{
		info->path = path;
		info->violation = violation;
	}
	return status;
}

cnLcpStatus cnSolveBoxedLcp( int n, const double* A, const double* b, const double* lo, const double* hi,
							 const int* findex, double* z, int maxIterations )
{
	return cnSolveBoxedLcpEx( n, A, b, lo, hi, findex, z, maxIterations, cnBoxedLcp_auto, NULL );
}
