// SPDX-License-Identifier: MIT
// Goldfarb-Idnani against hand-derived optima: the textbook example, FOSSSim's velocity-projection
// oracles (t3m2/velocityprojection test01 and test05), duplicated and dependent constraints,
// infeasible sets, and random problems checked for the KKT conditions.
#include "solvers/qp.h"
#include "test.h"
#include "test_random.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define MAX_N 32
#define MAX_P 64

// The KKT conditions of min 1/2 x^T G x + g0^T x s.t. CI^T x + ci0 >= 0, to rel times the size of
// the terms: stationarity G x + g0 = CI lambda, primal feasibility s >= 0, dual feasibility
// lambda >= 0, complementarity lambda_i s_i = 0. For a strictly convex QP they characterise the
// unique minimiser, so passing them proves x optimal.
static bool kktHolds( int n, const double* G, const double* g0, int p, const double* CI, const double* ci0,
					  const double* x, const double* lambda, double rel )
{
	double xmax = 0.0, lmax = 0.0, gmax = 0.0, cmax = 0.0, g0max = 0.0, c0max = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		xmax = fmax( xmax, fabs( x[i] ) );
		g0max = fmax( g0max, fabs( g0[i] ) );
		for ( int j = 0; j < n; ++j )
		{
			gmax = fmax( gmax, fabs( G[i + j * n] ) );
		}
	}
	for ( int k = 0; k < p; ++k )
	{
		lmax = fmax( lmax, fabs( lambda[k] ) );
		c0max = fmax( c0max, fabs( ci0[k] ) );
		for ( int i = 0; i < n; ++i )
		{
			cmax = fmax( cmax, fabs( CI[i + k * n] ) );
		}
	}
	// x is measured against the larger of itself and |g0| / |G| (the size of the unconstrained
	// minimiser), so a solution that is exactly 0, like a stopped body, is not judged on round-off
	double xScale = fmax( xmax, g0max / ( gmax + 1e-300 ) );
	double forceScale = gmax * xScale + g0max + cmax * lmax + 1e-300;
	double slackScale = cmax * xScale + c0max + 1e-300;
	bool ok = true;
	for ( int i = 0; i < n; ++i )
	{
		double r = g0[i];
		for ( int j = 0; j < n; ++j )
		{
			r += G[i + j * n] * x[j];
		}
		for ( int k = 0; k < p; ++k )
		{
			r -= CI[i + k * n] * lambda[k];
		}
		ok = ok && fabs( r ) <= rel * forceScale;
	}
	for ( int k = 0; k < p; ++k )
	{
		double s = ci0[k];
		for ( int i = 0; i < n; ++i )
		{
			s += CI[i + k * n] * x[i];
		}
		ok = ok && s >= -rel * slackScale && lambda[k] >= 0.0;
		ok = ok && fmin( s / slackScale, lambda[k] / ( lmax + 1e-300 ) ) <= rel;
	}
	return ok;
}

// min 1/2 |x|^2 - x1 - x2 s.t. x1 + x2 <= 1 (CI = (-1, -1), ci0 = 1). Stationarity x - (1, 1) =
// lambda (-1, -1) gives x = (1 - lambda)(1, 1), and the active constraint 2 (1 - lambda) = 1 gives
// lambda = 1/2, x = (1/2, 1/2). Loosening the bound to 3 leaves the unconstrained x = (1, 1),
// lambda = 0. Tolerance 1e-15: a couple of operations on halves.
static void textbook( void )
{
	double G[4] = { 1.0, 0.0, 0.0, 1.0 };
	double g0[2] = { -1.0, -1.0 };
	double CI[2] = { -1.0, -1.0 };
	double ci0 = 1.0;
	double x[2], lambda;
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 1, CI, &ci0, x, &lambda, 0 ) == cnQp_ok );
	CHECK_NEAR( x[0], 0.5, 1e-15 );
	CHECK_NEAR( x[1], 0.5, 1e-15 );
	CHECK_NEAR( lambda, 0.5, 1e-15 );

	ci0 = 3.0;
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 1, CI, &ci0, x, &lambda, 0 ) == cnQp_ok );
	CHECK_NEAR( x[0], 1.0, 1e-15 );
	CHECK_NEAR( x[1], 1.0, 1e-15 );
	CHECK( lambda == 0.0 );

	// no constraints at all
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 0, NULL, NULL, x, NULL, 0 ) == cnQp_ok );
	CHECK_NEAR( x[0], 1.0, 1e-15 );
}

// A non-diagonal G with two active constraints: min 1/2 x^T G x, G = [[2, 1], [1, 2]], subject to
// x1 >= 1 and x2 >= 1. The unconstrained minimum is 0; at x = (1, 1), G x = (3, 3) = lambda, both
// positive, so both constraints are active with lambda = (3, 3). Tolerance 1e-14.
static void twoActive( void )
{
	double G[4] = { 2.0, 1.0, 1.0, 2.0 };
	double g0[2] = { 0.0, 0.0 };
	double CI[4] = { 1.0, 0.0, 0.0, 1.0 };
	double ci0[2] = { -1.0, -1.0 };
	double x[2], lambda[2];
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 2, CI, ci0, x, lambda, 0 ) == cnQp_ok );
	CHECK_NEAR( x[0], 1.0, 1e-14 );
	CHECK_NEAR( x[1], 1.0, 1e-14 );
	CHECK_NEAR( lambda[0], 3.0, 1e-14 );
	CHECK_NEAR( lambda[1], 3.0, 1e-14 );
}

// FOSSSim t3m2/velocityprojection/test05 (two rotating squares): M = diag(4, 4, 8, 4, 4, 8),
// -M qdot = (0, 8, 0, 0, 0, 0) so qdot = (0, -2, 0, 0, 0, 0), and the two non-zero columns of the
// printed 6x6 N: n1 = (0, 1, -1, 0, -1, -0.5), n2 = (0, 1, -0.5, 0, -1, -1); the other four printed
// columns are zero and kept (0 >= 0 always holds). By hand: N^T M^-1 N = [[21/32, 5/8], [5/8, 21/32]]
// and -N^T qdot = (2, 2), so lambda = 64/41 for both (positive: both active), and
// v = qdot + M^-1 N lambda = (0, -50/41, -12/41, 0, -32/41, -12/41), with N^T v = 0.
// Tolerance 1e-14: O(1) numbers, a few rotations.
static void fossSimTest05( void )
{
	double M[36] = { 0 };
	double diag[6] = { 4, 4, 8, 4, 4, 8 };
	for ( int i = 0; i < 6; ++i )
	{
		M[i + 6 * i] = diag[i];
	}
	double g0[6] = { -0.0, 8.0, -0.0, -0.0, -0.0, -0.0 };
	// N as printed (rows are coordinates, columns contacts), stored column by column
	double rows[6][6] = {
		{ 0, -0.0, 0, 0, 0, 0 }, { 1, 1, 0, 0, 0, 0 },		 { -1, -0.5, 0, 0, 0, 0 },
		{ -0.0, 0, 0, 0, 0, 0 }, { -1, -1, 0, 0, 0, 0 },	 { -0.5, -1, 0, 0, 0, 0 },
	};
	double N[36], ci0[6] = { 0 };
	for ( int i = 0; i < 6; ++i )
	{
		for ( int k = 0; k < 6; ++k )
		{
			N[i + 6 * k] = rows[i][k];
		}
	}
	double v[6], lambda[6];
	CHECK( cnSolveQpGoldfarbIdnani( 6, M, g0, 6, N, ci0, v, lambda, 0 ) == cnQp_ok );
	double expected[6] = { 0.0, -50.0 / 41.0, -12.0 / 41.0, 0.0, -32.0 / 41.0, -12.0 / 41.0 };
	for ( int i = 0; i < 6; ++i )
	{
		CHECK_NEAR( v[i], expected[i], 1e-14 );
	}
	CHECK_NEAR( lambda[0], 64.0 / 41.0, 1e-14 );
	CHECK_NEAR( lambda[1], 64.0 / 41.0, 1e-14 );
	for ( int k = 2; k < 6; ++k )
	{
		CHECK( lambda[k] == 0.0 );
	}
	CHECK( kktHolds( 6, M, g0, 6, N, ci0, v, lambda, 1e-14 ) );
}

// FOSSSim t3m2/velocityprojection/test01 (a table on eight legs falls on the floor):
// M = diag(16, 16, 289.75), -M qdot = (0, 139.52, 0), N = 3 x 24 with columns (0, 1, c) for
// c = -5, -4, -3, -2, 2, 3, 4, 5 and sixteen zero columns. The projection stops the table: the
// admissible set is v_y + c w >= 0 for c in [-5, 5], and the M-nearest point to (0, -8.72, 0) is
// v = 0 (any v with v_y >= 5 |w| is farther). The impulses are not unique (the redundant case) but
// they must sum to M * 8.72 = 139.52 with no net moment (sum c lambda = 0). Tolerance 1e-12
// relative to the 139.52 scale.
static void fossSimTest01( void )
{
	double G[9] = { 16, 0, 0, 0, 16, 0, 0, 0, 289.75 };
	double g0[3] = { -0.0, 139.52, -0.0 };
	double c[8] = { -5, -4, -3, -2, 2, 3, 4, 5 };
	double CI[3 * 24] = { 0 }, ci0[24] = { 0 }, v[3], lambda[24];
	for ( int k = 0; k < 8; ++k )
	{
		CI[1 + 3 * k] = 1.0;
		CI[2 + 3 * k] = c[k];
	}
	CHECK( cnSolveQpGoldfarbIdnani( 3, G, g0, 24, CI, ci0, v, lambda, 0 ) == cnQp_ok );
	for ( int i = 0; i < 3; ++i )
	{
		CHECK_NEAR( v[i], 0.0, 1e-12 );
	}
	double sum = 0.0, moment = 0.0;
	for ( int k = 0; k < 24; ++k )
	{
		CHECK( lambda[k] >= 0.0 );
		sum += lambda[k];
		moment += k < 8 ? c[k] * lambda[k] : 0.0;
	}
	CHECK_NEAR( sum, 139.52, 1e-12 * 139.52 );
	CHECK_NEAR( moment, 0.0, 1e-12 * 139.52 );
	CHECK( kktHolds( 3, G, g0, 24, CI, ci0, v, lambda, 1e-13 ) );
}

// Redundant constraints: the textbook constraint x1 + x2 <= 1 three times, once scaled by 2, plus the
// dependent pair x1 <= 1, x2 <= 1 (inactive). The optimum is still x = (1/2, 1/2), and the
// multipliers, though not unique, must give the same force: lambda0 + lambda1 + 2 lambda2 = 1/2.
static void duplicatedConstraints( void )
{
	double G[4] = { 1.0, 0.0, 0.0, 1.0 };
	double g0[2] = { -1.0, -1.0 };
	double CI[10] = { -1, -1, -1, -1, -2, -2, -1, 0, 0, -1 };
	double ci0[5] = { 1.0, 1.0, 2.0, 1.0, 1.0 };
	double x[2], lambda[5];
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 5, CI, ci0, x, lambda, 0 ) == cnQp_ok );
	CHECK_NEAR( x[0], 0.5, 1e-15 );
	CHECK_NEAR( x[1], 0.5, 1e-15 );
	CHECK_NEAR( lambda[0] + lambda[1] + 2.0 * lambda[2], 0.5, 1e-15 );
	CHECK( lambda[3] == 0.0 && lambda[4] == 0.0 );
	CHECK( kktHolds( 2, G, g0, 5, CI, ci0, x, lambda, 1e-15 ) );
}

// Infeasible sets: x1 >= 1 together with x1 <= 0; and 0^T x >= 1 (a zero constraint with a positive
// demand). Bad input: G not positive definite, a NaN, a negative size.
static void infeasibleAndInvalid( void )
{
	double G[4] = { 1.0, 0.0, 0.0, 1.0 };
	double g0[2] = { 0.0, 0.0 };
	double CI[4] = { 1.0, 0.0, -1.0, 0.0 };
	double ci0[2] = { -1.0, 0.0 };
	double x[2], lambda[2];
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 2, CI, ci0, x, lambda, 0 ) == cnQp_infeasible );

	double zero[2] = { 0.0, 0.0 };
	double one = -1.0;
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 1, zero, &one, x, lambda, 0 ) == cnQp_infeasible );

	double semi[4] = { 1.0, 0.0, 0.0, 0.0 };
	CHECK( cnSolveQpGoldfarbIdnani( 2, semi, g0, 2, CI, ci0, x, lambda, 0 ) == cnQp_invalid );
	double bad[2] = { NAN, 0.0 };
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, bad, 2, CI, ci0, x, lambda, 0 ) == cnQp_invalid );
	CHECK( cnSolveQpGoldfarbIdnani( -1, G, g0, 2, CI, ci0, x, lambda, 0 ) == cnQp_invalid );

	// an iteration cap of one cannot activate two constraints
	double CI2[4] = { 1.0, 0.0, 0.0, 1.0 };
	double ci2[2] = { -1.0, -1.0 };
	CHECK( cnSolveQpGoldfarbIdnani( 2, G, g0, 2, CI2, ci2, x, lambda, 1 ) == cnQp_maxIterations );
}

// Random velocity projections: G = B B^T + diag (SPD, condition up to ~1e3), constraints from a few
// base normals plus exact copies, sums and scaled copies of them (redundant), ci0 chosen so that a
// random point is feasible (so the set is never empty). Checked for the KKT conditions at 1e-11 of
// the terms' size, and solved twice for bit-identical output.
static void randomProjections( void )
{
	Lcg g = { 2024u };
	int failures = 0;
	for ( int trial = 0; trial < 500; ++trial )
	{
		int n = 1 + trial % 12;
		int p = 1 + (int)lcgUniform( &g, 0.0, 3.0 * n );
		if ( p > MAX_P )
		{
			p = MAX_P;
		}
		double G[MAX_N * MAX_N], g0[MAX_N], CI[MAX_N * MAX_P], ci0[MAX_P], feasible[MAX_N];
		double B[MAX_N * MAX_N];
		for ( int k = 0; k < n * n; ++k )
		{
			B[k] = lcgUniform( &g, -1.0, 1.0 );
		}
		for ( int i = 0; i < n; ++i )
		{
			for ( int j = 0; j < n; ++j )
			{
				double s = i == j ? lcgUniform( &g, 0.01, 1.0 ) : 0.0;
				for ( int k = 0; k < n; ++k )
				{
					s += B[i + k * n] * B[j + k * n];
				}
				G[i + j * n] = s;
			}
			g0[i] = lcgUniform( &g, -2.0, 2.0 );
			feasible[i] = lcgUniform( &g, -1.0, 1.0 );
		}
		for ( int k = 0; k < p; ++k )
		{
			double* col = CI + k * n;
			int kind = (int)lcgUniform( &g, 0.0, 4.0 );
			if ( k >= 2 && kind == 0 )
			{
				memcpy( col, CI + ( k - 1 ) * n, (size_t)n * sizeof( double ) );
			}
			else if ( k >= 2 && kind == 1 )
			{
				for ( int i = 0; i < n; ++i )
				{
					col[i] = CI[i + ( k - 1 ) * n] + CI[i + ( k - 2 ) * n];
				}
			}
			else if ( k >= 1 && kind == 2 )
			{
				for ( int i = 0; i < n; ++i )
				{
					col[i] = 3.0 * CI[i + ( k - 1 ) * n];
				}
			}
			else
			{
				for ( int i = 0; i < n; ++i )
				{
					col[i] = lcgUniform( &g, -1.0, 1.0 );
				}
			}
			double s = 0.0;
			for ( int i = 0; i < n; ++i )
			{
				s += col[i] * feasible[i];
			}
			// the random point satisfies every constraint, some of them exactly
			ci0[k] = -s + ( kind == 3 ? 0.0 : lcgUniform( &g, 0.0, 0.5 ) );
		}
		double x[MAX_N], x2[MAX_N], lambda[MAX_P], lambda2[MAX_P];
		cnQpStatus s1 = cnSolveQpGoldfarbIdnani( n, G, g0, p, CI, ci0, x, lambda, 0 );
		cnQpStatus s2 = cnSolveQpGoldfarbIdnani( n, G, g0, p, CI, ci0, x2, lambda2, 0 );
		bool good = s1 == cnQp_ok && s2 == s1 && memcmp( x, x2, (size_t)n * sizeof( double ) ) == 0 &&
					memcmp( lambda, lambda2, (size_t)p * sizeof( double ) ) == 0 &&
					kktHolds( n, G, g0, p, CI, ci0, x, lambda, 1e-11 );
		if ( good == false )
		{
			failures += 1;
			fprintf( stderr, "  random QP trial %d (n = %d, p = %d) failed, status %d\n", trial, n, p, (int)s1 );
		}
	}
	CHECK( failures == 0 );
}

int main( void )
{
	RUN_TEST( textbook );
	RUN_TEST( twoActive );
	RUN_TEST( fossSimTest05 );
	RUN_TEST( fossSimTest01 );
	RUN_TEST( duplicatedConstraints );
	RUN_TEST( infeasibleAndInvalid );
	RUN_TEST( randomProjections );
	return TEST_SUMMARY();
}
