// SPDX-License-Identifier: MIT
// Lemke's method and the boxed LCP against hand-derived solutions: FOSSSim's printed oracles, the
// block on a table edge, redundant contacts of a box flat on a plane, a frictional contact that
// sticks or slides, and random contact problems checked for the complementarity conditions. The
// boxed solver's Dantzig path on its own: closed-form boxes, a block on an incline, coupled friction,
// singular positive semidefinite problems, agreement with the Lemke reduction, stacks of boxes (with
// the share of problems left to the fallback), and a speed report against the Lemke reduction.
#include "solvers/lcp.h"
#include "test.h"
#include "test_random.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define MAX_N 64

// w = A z + b
static void computeW( int n, const double* A, const double* b, const double* z, double* w )
{
	for ( int i = 0; i < n; ++i )
	{
		double s = b[i];
		for ( int j = 0; j < n; ++j )
		{
			s += A[i + j * n] * z[j];
		}
		w[i] = s;
	}
}

// The scale of the problem's terms: |b| + |A| |z| (max norms). Conditions are checked relative to
// it: a solver working in double precision leaves residuals of a few ulps of the terms it sums.
static double problemScale( int n, const double* A, const double* b, const double* z )
{
	double amax = 0.0, bmax = 0.0, zmax = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		bmax = fmax( bmax, fabs( b[i] ) );
		zmax = fmax( zmax, fabs( z[i] ) );
		for ( int j = 0; j < n; ++j )
		{
			amax = fmax( amax, fabs( A[i + j * n] ) );
		}
	}
	return bmax + amax * zmax;
}

// The LCP conditions z >= 0, w >= 0, z_i w_i = 0, to rel * scale (complementarity is measured as
// min(z_i |A|, w_i) so both factors share w's units).
static bool lcpHolds( int n, const double* A, const double* b, const double* z, double rel )
{
	double w[MAX_N];
	computeW( n, A, b, z, w );
	double scale = problemScale( n, A, b, z );
	double amax = 0.0;
	for ( int k = 0; k < n * n; ++k )
	{
		amax = fmax( amax, fabs( A[k] ) );
	}
	double tol = rel * scale;
	bool ok = true;
	for ( int i = 0; i < n; ++i )
	{
		ok = ok && z[i] >= 0.0 && w[i] >= -tol && fmin( z[i] * amax, w[i] ) <= tol;
	}
	return ok;
}

// The boxed conditions with friction bounds +-mu z_f from z itself, to rel * scale.
static bool boxedHolds( int n, const double* A, const double* b, const double* lo, const double* hi,
						const int* findex, const double* z, double rel )
{
	double w[MAX_N];
	computeW( n, A, b, z, w );
	double scale = problemScale( n, A, b, z );
	double zmax = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		zmax = fmax( zmax, fabs( z[i] ) );
	}
	double tolw = rel * scale + 1e-300, tolz = rel * zmax + 1e-300;
	bool ok = true;
	for ( int i = 0; i < n; ++i )
	{
		double l = lo[i], h = hi[i];
		if ( findex != NULL && findex[i] >= 0 )
		{
			l = -hi[i] * z[findex[i]];
			h = hi[i] * z[findex[i]];
		}
		ok = ok && z[i] >= l - tolz && z[i] <= h + tolz;
		bool atLo = z[i] <= l + tolz, atHi = z[i] >= h - tolz;
		if ( atLo && atHi )
		{
			continue;
		}
		if ( atLo )
		{
			ok = ok && w[i] >= -tolw;
		}
		else if ( atHi )
		{
			ok = ok && w[i] <= tolw;
		}
		else
		{
			ok = ok && fabs( w[i] ) <= tolw;
		}
	}
	return ok;
}

// FOSSSim t3m2/lcp/test01: A = 0.666667, b = -1 -> lambda = 1.5. With the exact 2/3 the answer is
// exactly 3/2 (one pivot: a division, so 1e-15); with the printed 6 digits it is 1/0.666667, which
// rounds to 1.5 at FOSSSim's printed precision (1e-6 relative in A gives 1e-6 in z).
static void lemkeScalar( void )
{
	double A = 2.0 / 3.0, b = -1.0, z = -1.0;
	CHECK( cnSolveLcpLemke( 1, &A, &b, &z, 0 ) == cnLcp_ok );
	CHECK_NEAR( z, 1.5, 1e-15 );

	double Ap = 0.666667;
	CHECK( cnSolveLcpLemke( 1, &Ap, &b, &z, 0 ) == cnLcp_ok );
	CHECK_NEAR( z, 1.5, 2e-6 );
}

// The 2D block on a table edge (issue 3): A = [[13/20, 9/20], [9/20, 7/20]], b = (-2, -2).
// Both contacts active would need z = A^-1 (2, 2) = (-8, 16), not >= 0; the solution is z = (0, 40/7):
// w1 = 7/20 * 40/7 - 2 = 0 and w0 = 9/20 * 40/7 - 2 = 4/7 >= 0. Tolerance: a couple of pivots on
// O(1) numbers, 1e-13.
static void lemkeTableEdge( void )
{
	double A[4] = { 13.0 / 20.0, 9.0 / 20.0, 9.0 / 20.0, 7.0 / 20.0 };
	double b[2] = { -2.0, -2.0 };
	double z[2], w[2];
	CHECK( cnSolveLcpLemke( 2, A, b, z, 0 ) == cnLcp_ok );
	CHECK_NEAR( z[0], 0.0, 1e-13 );
	CHECK_NEAR( z[1], 40.0 / 7.0, 1e-13 );
	computeW( 2, A, b, z, w );
	CHECK_NEAR( w[0], 4.0 / 7.0, 1e-13 );
	CHECK_NEAR( w[1], 0.0, 1e-13 );
	CHECK( lcpHolds( 2, A, b, z, 1e-14 ) );
}

// FOSSSim t3m2/lcp/test03: two triangles hit a square at four points; the printed A and b = -1
// have the solution lambda = 1.5 at all four contacts (each row of A sums to 0.666667). Tolerance:
// the printed A has 6 digits, which moves z by about 1e-6.
static void lemkeFossSimTest03( void )
{
	double A[16] = {
		0.828869, 0.337798, -0.28125, -0.21875, 0.337798, 0.828869, -0.21875, -0.28125,
		-0.28125, -0.21875, 0.828869, 0.337798, -0.21875, -0.28125, 0.337798, 0.828869,
	};
	double b[4] = { -1.0, -1.0, -1.0, -1.0 };
	double z[4];
	CHECK( cnSolveLcpLemke( 4, A, b, z, 0 ) == cnLcp_ok );
	for ( int i = 0; i < 4; ++i )
	{
		CHECK_NEAR( z[i], 1.5, 1e-5 );
	}
	CHECK( lcpHolds( 4, A, b, z, 1e-12 ) );
}

// Fills the rows of J (6 columns: linear, angular) for a contact at r from the centre of mass
// with direction d: [d, r x d].
static void jacobianRow( double* row, const double r[3], const double d[3] )
{
	row[0] = d[0];
	row[1] = d[1];
	row[2] = d[2];
	row[3] = r[1] * d[2] - r[2] * d[1];
	row[4] = r[2] * d[0] - r[0] * d[2];
	row[5] = r[0] * d[1] - r[1] * d[0];
}

// A = J M^-1 J^T for a single body with mass m and diagonal inertia I (J row-major, 6 wide).
static void effectiveMass( int rows, const double* J, double m, const double I[3], double* A )
{
	double inv[6] = { 1.0 / m, 1.0 / m, 1.0 / m, 1.0 / I[0], 1.0 / I[1], 1.0 / I[2] };
	for ( int i = 0; i < rows; ++i )
	{
		for ( int j = 0; j < rows; ++j )
		{
			double s = 0.0;
			for ( int k = 0; k < 6; ++k )
			{
				s += J[6 * i + k] * inv[k] * J[6 * j + k];
			}
			A[i + j * rows] = s;
		}
	}
}

// b = J v0
static void contactVelocity( int rows, const double* J, const double v0[6], double* b )
{
	for ( int i = 0; i < rows; ++i )
	{
		double s = 0.0;
		for ( int k = 0; k < 6; ++k )
		{
			s += J[6 * i + k] * v0[k];
		}
		b[i] = s;
	}
}

// A box (half extents 1, 0.5, 0.25, mass 2) lands flat at 1 m/s on four corner contacts: A is 4x4
// of rank 3 (the four normals only span vz, wx, wy). Every solution stops the box, so
// hand-derived: w = 0 at all four corners, the impulses sum to m * 1 (momentum) and their moments
// about the centre vanish (no spin). Tolerance 1e-12: O(1) numbers through a handful of pivots.
static void lemkeRedundantBox( void )
{
	double m = 2.0, hx = 1.0, hy = 0.5, hz = 0.25;
	double I[3] = { m / 3.0 * ( hy * hy + hz * hz ), m / 3.0 * ( hx * hx + hz * hz ), m / 3.0 * ( hx * hx + hy * hy ) };
	double J[4][6];
	double n[3] = { 0.0, 0.0, 1.0 };
	double corners[4][3] = { { -hx, -hy, -hz }, { hx, -hy, -hz }, { hx, hy, -hz }, { -hx, hy, -hz } };
	for ( int c = 0; c < 4; ++c )
	{
		jacobianRow( J[c], corners[c], n );
	}
	double A[16], b[4], z[4], w[4];
	effectiveMass( 4, &J[0][0], m, I, A );
	double v0[6] = { 0.0, 0.0, -1.0, 0.0, 0.0, 0.0 };
	contactVelocity( 4, &J[0][0], v0, b );
	CHECK_NEAR( b[0], -1.0, 0.0 );

	CHECK( cnSolveLcpLemke( 4, A, b, z, 0 ) == cnLcp_ok );
	CHECK( lcpHolds( 4, A, b, z, 1e-12 ) );
	computeW( 4, A, b, z, w );
	double sum = 0.0, mx = 0.0, my = 0.0;
	for ( int c = 0; c < 4; ++c )
	{
		CHECK( w[c] >= -1e-9 );
		CHECK_NEAR( w[c], 0.0, 1e-12 );
		sum += z[c];
		mx += z[c] * corners[c][1];
		my += z[c] * corners[c][0];
	}
	CHECK_NEAR( sum, m, 1e-12 );
	CHECK_NEAR( mx, 0.0, 1e-12 );
	CHECK_NEAR( my, 0.0, 1e-12 );
}

// FOSSSim t3m2/velocityprojection/test01 as an LCP: a comb-shaped table on 8 legs hits the floor.
// From the printed M = diag(16, 16, 289.75), -M qdot = (0, 139.52, 0) and N (columns (0, 1, c),
// c = -5..-2, 2..5): A = N^T M^-1 N (8x8, rank 2), b = N^T qdot = -8.72 each. Every solution stops
// the table: w = 0, sum z = 16 * 8.72 = 139.52, sum c z = 0 (no spin). Tolerance 1e-10 relative.
static void lemkeEightLegs( void )
{
	double c[8] = { -5, -4, -3, -2, 2, 3, 4, 5 };
	double A[64], b[8], z[8], w[8];
	for ( int i = 0; i < 8; ++i )
	{
		for ( int j = 0; j < 8; ++j )
		{
			A[i + 8 * j] = 1.0 / 16.0 + c[i] * c[j] / 289.75;
		}
		b[i] = -139.52 / 16.0;
	}
	CHECK( cnSolveLcpLemke( 8, A, b, z, 0 ) == cnLcp_ok );
	CHECK( lcpHolds( 8, A, b, z, 1e-12 ) );
	computeW( 8, A, b, z, w );
	double sum = 0.0, moment = 0.0;
	for ( int i = 0; i < 8; ++i )
	{
		CHECK_NEAR( w[i], 0.0, 1e-12 );
		sum += z[i];
		moment += c[i] * z[i];
	}
	CHECK_NEAR( sum, 139.52, 1e-10 );
	CHECK_NEAR( moment, 0.0, 1e-10 );
}

// b >= 0: nothing approaches, z = 0 exactly without a pivot.
static void lemkeTrivial( void )
{
	double A[4] = { 1.0, 0.5, 0.5, 1.0 };
	double b[2] = { 0.0, 3.0 };
	double z[2] = { 7.0, 7.0 };
	CHECK( cnSolveLcpLemke( 2, A, b, z, 0 ) == cnLcp_ok );
	CHECK( z[0] == 0.0 && z[1] == 0.0 );
	CHECK( cnSolveLcpLemke( 0, NULL, NULL, NULL, 0 ) == cnLcp_ok );
}

// Ray termination and bad input: A = 0, b = -1 has no solution (w = -1 whatever z); a NaN or a
// negative size is invalid.
static void lemkeFailures( void )
{
	double A = 0.0, b = -1.0, z = 0.0;
	CHECK( cnSolveLcpLemke( 1, &A, &b, &z, 0 ) == cnLcp_unbounded );
	double nanA = NAN;
	CHECK( cnSolveLcpLemke( 1, &nanA, &b, &z, 0 ) == cnLcp_invalid );
	CHECK( cnSolveLcpLemke( -1, &A, &b, &z, 0 ) == cnLcp_invalid );

	// a 1-pivot cap on a problem that needs more than one pivot
	double A2[4] = { 2.0, 1.0, 1.0, 2.0 };
	double b2[2] = { -1.0, -1.0 };
	double z2[2];
	CHECK( cnSolveLcpLemke( 2, A2, b2, z2, 1 ) == cnLcp_maxIterations );
}

// Rows of a contact-like Jacobian B (n x k, k <= 8): random rows, with exact duplicates and
// combinations B_i = B_(i-1) + sum B_(i-2) mixed in (redundant contacts).
static void redundantRows( Lcg* g, int n, int k, double sum, double B[][8] )
{
	for ( int i = 0; i < n; ++i )
	{
		int kind = (int)lcgUniform( g, 0.0, 4.0 );
		for ( int c = 0; c < k; ++c )
		{
			B[i][c] = lcgUniform( g, -1.0, 1.0 );
		}
		if ( i >= 2 && kind == 0 )
		{
			memcpy( B[i], B[i - 1], sizeof( B[i] ) );
		}
		else if ( i >= 2 && kind == 1 )
		{
			for ( int c = 0; c < k; ++c )
			{
				B[i][c] = B[i - 1][c] + sum * B[i - 2][c];
			}
		}
	}
}

// A = B B^T (column-major n x n), positive semidefinite and singular when B has dependent rows.
static void gramMatrix( int n, int k, double B[][8], double* A )
{
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = 0; j < n; ++j )
		{
			double s = 0.0;
			for ( int c = 0; c < k; ++c )
			{
				s += B[i][c] * B[j][c];
			}
			A[i + j * n] = s;
		}
	}
}

// Random contact-like LCPs: A = B B^T with B (n x k, k < n random rows plus exact duplicates and
// sums of rows: redundant contacts) and b = B v + delta, delta >= 0, which is always solvable (it
// is the optimality system of a projection onto a non-empty set). Checked for the LCP conditions
// at 1e-10 relative to the problem's scale (a few hundred pivots of O(1) data lose a few digits
// when A is singular), and solved twice for bit-identical output.
static void lemkeRandomPsd( void )
{
	Lcg g = { 12345u };
	int failures = 0;
	for ( int trial = 0; trial < 300; ++trial )
	{
		int n = 1 + trial % 40;
		int k = 1 + (int)lcgUniform( &g, 0.0, 6.0 );
		double B[MAX_N][8], v[8];
		redundantRows( &g, n, k, 0.5, B );
		for ( int c = 0; c < k; ++c )
		{
			v[c] = lcgUniform( &g, -2.0, 1.0 );
		}
		double A[MAX_N * MAX_N], b[MAX_N], z[MAX_N], z2[MAX_N];
		gramMatrix( n, k, B, A );
		for ( int i = 0; i < n; ++i )
		{
			double s = 0.0;
			for ( int c = 0; c < k; ++c )
			{
				s += B[i][c] * v[c];
			}
			b[i] = s + ( trial % 3 == 0 ? lcgUniform( &g, 0.0, 0.5 ) : 0.0 );
		}
		cnLcpStatus s1 = cnSolveLcpLemke( n, A, b, z, 0 );
		cnLcpStatus s2 = cnSolveLcpLemke( n, A, b, z2, 0 );
		bool good = s1 == cnLcp_ok && s2 == s1 && memcmp( z, z2, (size_t)n * sizeof( double ) ) == 0 &&
					lcpHolds( n, A, b, z, 1e-10 );
		if ( good == false )
		{
			failures += 1;
			fprintf( stderr, "  random LCP trial %d (n = %d, rank <= %d) failed, status %d\n", trial, n, k, (int)s1 );
		}
	}
	CHECK( failures == 0 );
}

// One contact with friction on a rigid body: mass 1, unit inertia, contact at r = (1, 0, -1) from
// the centre, normal z, tangents x and y. Rows [d, r x d]: n = (0,0,1, 0,-1,0),
// t1 = (1,0,0, 0,-1,0), t2 = (0,1,0, 1,0,1), so A = J J^T = [[2,1,0],[1,2,0],[0,0,3]]: the
// x-friction couples with the normal impulse through the rotation about y.
static void frictionMatrix( double A[9] )
{
	double J[3][6] = { { 0, 0, 1, 0, -1, 0 }, { 1, 0, 0, 0, -1, 0 }, { 0, 1, 0, 1, 0, 1 } };
	double I[3] = { 1.0, 1.0, 1.0 };
	effectiveMass( 3, &J[0][0], 1.0, I, A );
}

// b = (-1, 0.5, 0.6): approaching with a tangential slip in +x and +y.
// mu = 1 sticks: A z = -b gives z_n = 5/6, z_t1 = -2/3, z_t2 = -0.2 (|z_t| <= z_n), w = 0.
// mu = 0.5 slides in x: z_t1 = -mu z_n (opposes +x) and w_n = 0: 2 z_n - z_n / 2 = 1, so
// z_n = 2/3, z_t1 = -1/3, w_t1 = 2/3 - 2/3 + 0.5 = 0.5 >= 0; y still sticks: z_t2 = -0.2 within
// 1/3. A two-phase solve (normal first) would give z_n = 1/2 instead. Tolerance 1e-12 (a few pivots).
static void boxedStickSlip( void )
{
	double A[9];
	frictionMatrix( A );
	CHECK_NEAR( A[0], 2.0, 0.0 );
	CHECK_NEAR( A[1], 1.0, 0.0 );
	CHECK_NEAR( A[8], 3.0, 0.0 );
	double b[3] = { -1.0, 0.5, 0.6 };
	double lo[3] = { 0.0, 0.0, 0.0 };
	int findex[3] = { -1, 0, 0 };
	double z[3], w[3];

	double hiStick[3] = { INFINITY, 1.0, 1.0 };
	CHECK( cnSolveBoxedLcp( 3, A, b, lo, hiStick, findex, z, 0 ) == cnLcp_ok );
	CHECK_NEAR( z[0], 5.0 / 6.0, 1e-12 );
	CHECK_NEAR( z[1], -2.0 / 3.0, 1e-12 );
	CHECK_NEAR( z[2], -0.2, 1e-12 );
	computeW( 3, A, b, z, w );
	for ( int i = 0; i < 3; ++i )
	{
		CHECK_NEAR( w[i], 0.0, 1e-12 );
	}

	double hiSlide[3] = { INFINITY, 0.5, 0.5 };
	CHECK( cnSolveBoxedLcp( 3, A, b, lo, hiSlide, findex, z, 0 ) == cnLcp_ok );
	CHECK_NEAR( z[0], 2.0 / 3.0, 1e-12 );
	CHECK_NEAR( z[1], -1.0 / 3.0, 1e-12 );
	CHECK_NEAR( z[2], -0.2, 1e-12 );
	computeW( 3, A, b, z, w );
	CHECK_NEAR( w[0], 0.0, 1e-12 );
	CHECK_NEAR( w[1], 0.5, 1e-12 );
	CHECK_NEAR( w[2], 0.0, 1e-12 );
	CHECK( boxedHolds( 3, A, b, lo, hiSlide, findex, z, 1e-12 ) );
}

// Sliding the other way, fast, in both directions: b = (-1, -2, 3), mu = 0.5.
// x: sticking would need z_n = (2 + b_t1) / 3 = 0, so it slides in -x and friction sits on the
// upper bound: 2 z_n + mu z_n = 1, z_n = 0.4, z_t1 = +0.2, w_t1 = 0.4 + 0.4 - 2 = -1.2 <= 0.
// y: sticking would need z_t2 = -1 beyond mu z_n = 0.2, so z_t2 = -0.2, w_t2 = -0.6 + 3 = 2.4 >= 0.
// A separating contact (b_n = +1) gets no impulse at all, friction included.
static void boxedSlideBothAxes( void )
{
	double A[9];
	frictionMatrix( A );
	double b[3] = { -1.0, -2.0, 3.0 };
	double lo[3] = { 0.0, 0.0, 0.0 };
	double hi[3] = { INFINITY, 0.5, 0.5 };
	int findex[3] = { -1, 0, 0 };
	double z[3], w[3];
	CHECK( cnSolveBoxedLcp( 3, A, b, lo, hi, findex, z, 0 ) == cnLcp_ok );
	CHECK_NEAR( z[0], 0.4, 1e-12 );
	CHECK_NEAR( z[1], 0.2, 1e-12 );
	CHECK_NEAR( z[2], -0.2, 1e-12 );
	computeW( 3, A, b, z, w );
	CHECK_NEAR( w[0], 0.0, 1e-12 );
	CHECK_NEAR( w[1], -1.2, 1e-12 );
	CHECK_NEAR( w[2], 2.4, 1e-12 );

	double bSep[3] = { 1.0, -2.0, 3.0 };
	CHECK( cnSolveBoxedLcp( 3, A, bSep, lo, hi, findex, z, 0 ) == cnLcp_ok );
	CHECK( z[0] == 0.0 && z[1] == 0.0 && z[2] == 0.0 );
}

// Fixed bounds without friction: a bilateral row (free), a box row, an upper-only row, a fixed row.
// A = diag(1, 2, 4, 1), b = (-3, -10, 2, 5), lo = (-inf, -1, -inf, 0.5), hi = (inf, 1, 0, 0.5):
// z0 = 3 (w = 0), z1 = 5 would leave [-1, 1] so z1 = 1 with w = -8 <= 0, z2 = -0.5 (w = 0, within
// (-inf, 0]), z3 = 0.5 fixed. Exact arithmetic on small integers and halves: 1e-14.
static void boxedFixedBounds( void )
{
	double A[16] = { 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1 };
	double b[4] = { -3.0, -10.0, 2.0, 5.0 };
	double lo[4] = { -INFINITY, -1.0, -INFINITY, 0.5 };
	double hi[4] = { INFINITY, 1.0, 0.0, 0.5 };
	double z[4];
	CHECK( cnSolveBoxedLcp( 4, A, b, lo, hi, NULL, z, 0 ) == cnLcp_ok );
	CHECK_NEAR( z[0], 3.0, 1e-14 );
	CHECK_NEAR( z[1], 1.0, 1e-14 );
	CHECK_NEAR( z[2], -0.5, 1e-14 );
	CHECK_NEAR( z[3], 0.5, 0.0 );
	CHECK( boxedHolds( 4, A, b, lo, hi, NULL, z, 1e-14 ) );

	double badLo[1] = { 1.0 }, badHi[1] = { 0.0 }, one = 1.0, zero = 0.0;
	CHECK( cnSolveBoxedLcp( 1, &one, &zero, badLo, badHi, NULL, z, 0 ) == cnLcp_invalid );
}

// The box flat on a plane with friction at its four corners (12 rows, A of rank 6 at most: the
// redundant case). Landing while sliding at 2 m/s along x with mu = 0.3: the solve must succeed and
// satisfy every condition, with friction bounds from its own normal impulses. Landing with a small
// slip (0.1 m/s) and mu = 1: every corner can stick, and then the box stops, so the impulses add up
// to -m v0 (hand-derived from momentum). The slide also checks that the friction opposes the
// motion and that the total friction does not exceed mu times the total normal impulse.
static void boxedRedundantBox( void )
{
	double m = 2.0, hx = 1.0, hy = 0.5, hz = 0.25;
	double I[3] = { m / 3.0 * ( hy * hy + hz * hz ), m / 3.0 * ( hx * hx + hz * hz ), m / 3.0 * ( hx * hx + hy * hy ) };
	double corners[4][3] = { { -hx, -hy, -hz }, { hx, -hy, -hz }, { hx, hy, -hz }, { -hx, hy, -hz } };
	double dirs[3][3] = { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } };
	double J[12][6];
	int findex[12];
	double lo[12], hiSlide[12], hiStick[12];
	for ( int c = 0; c < 4; ++c )
	{
		for ( int d = 0; d < 3; ++d )
		{
			int row = 3 * c + d;
			jacobianRow( J[row], corners[c], dirs[d] );
			findex[row] = d == 0 ? -1 : 3 * c;
			lo[row] = 0.0;
			hiSlide[row] = d == 0 ? INFINITY : 0.3;
			hiStick[row] = d == 0 ? INFINITY : 1.0;
		}
	}
	double A[144], b[12], z[12];
	effectiveMass( 12, &J[0][0], m, I, A );

	double vSlide[6] = { 2.0, 0.0, -1.0, 0.0, 0.0, 0.0 };
	contactVelocity( 12, &J[0][0], vSlide, b );
	CHECK( cnSolveBoxedLcp( 12, A, b, lo, hiSlide, findex, z, 0 ) == cnLcp_ok );
	CHECK( boxedHolds( 12, A, b, lo, hiSlide, findex, z, 1e-10 ) );
	double sumN = 0.0, sumX = 0.0;
	for ( int c = 0; c < 4; ++c )
	{
		sumN += z[3 * c];
		sumX += z[3 * c + 1];
	}
	CHECK( sumN > 0.0 );
	CHECK( sumX < 0.0 );
	CHECK( fabs( sumX ) <= 0.3 * sumN * ( 1.0 + 1e-12 ) );

	double vStick[6] = { 0.1, 0.0, -1.0, 0.0, 0.0, 0.0 };
	contactVelocity( 12, &J[0][0], vStick, b );
	CHECK( cnSolveBoxedLcp( 12, A, b, lo, hiStick, findex, z, 0 ) == cnLcp_ok );
	CHECK( boxedHolds( 12, A, b, lo, hiStick, findex, z, 1e-10 ) );
	double w[12], total[3] = { 0.0, 0.0, 0.0 };
	computeW( 12, A, b, z, w );
	for ( int c = 0; c < 4; ++c )
	{
		for ( int d = 0; d < 3; ++d )
		{
			total[d] += z[3 * c + d];
			CHECK_NEAR( w[3 * c + d], 0.0, 1e-10 );
		}
	}
	CHECK_NEAR( total[0], m * 1.0, 1e-10 );
	CHECK_NEAR( total[1], -m * 0.1, 1e-10 );
	CHECK_NEAR( total[2], 0.0, 1e-10 );
}

// Random frictional contact problems on one body: up to 8 contacts at random points below the
// centre with random normals near +z, mu in [0, 1.2], random velocities. Every problem must be
// solved (status ok) and satisfy the boxed conditions at 1e-9 relative; each runs twice for
// bit-identical output.
static void boxedRandomContacts( void )
{
	Lcg g = { 987654321u };
	int failures = 0;
	for ( int trial = 0; trial < 400; ++trial )
	{
		int contacts = 1 + trial % 8;
		int n = 3 * contacts;
		double mass = lcgUniform( &g, 0.5, 5.0 );
		double I[3] = { lcgUniform( &g, 0.1, 2.0 ), lcgUniform( &g, 0.1, 2.0 ), lcgUniform( &g, 0.1, 2.0 ) };
		double J[MAX_N][6];
		int findex[MAX_N];
		double lo[MAX_N], hi[MAX_N];
		for ( int c = 0; c < contacts; ++c )
		{
			double r[3] = { lcgUniform( &g, -1.0, 1.0 ), lcgUniform( &g, -1.0, 1.0 ), lcgUniform( &g, -1.0, -0.2 ) };
			if ( c > 0 && trial % 4 == 0 )
			{
				// redundant: corners of a flat face all at the same height
				r[2] = -0.5;
			}
			double nx = lcgUniform( &g, -0.3, 0.3 ), ny = lcgUniform( &g, -0.3, 0.3 );
			if ( trial % 4 == 0 )
			{
				nx = 0.0;
				ny = 0.0;
			}
			double len = sqrt( nx * nx + ny * ny + 1.0 );
			double nrm[3] = { nx / len, ny / len, 1.0 / len };
			// tangents: t1 = normalize(y x n), t2 = n x t1
			double t1[3] = { nrm[2], 0.0, -nrm[0] };
			double l1 = sqrt( t1[0] * t1[0] + t1[2] * t1[2] );
			t1[0] /= l1;
			t1[2] /= l1;
			double t2[3] = { nrm[1] * t1[2] - nrm[2] * t1[1], nrm[2] * t1[0] - nrm[0] * t1[2],
							 nrm[0] * t1[1] - nrm[1] * t1[0] };
			jacobianRow( J[3 * c], r, nrm );
			jacobianRow( J[3 * c + 1], r, t1 );
			jacobianRow( J[3 * c + 2], r, t2 );
			double mu = trial % 5 == 0 ? 0.0 : lcgUniform( &g, 0.0, 1.2 );
			for ( int d = 0; d < 3; ++d )
			{
				findex[3 * c + d] = d == 0 ? -1 : 3 * c;
				lo[3 * c + d] = 0.0;
				hi[3 * c + d] = d == 0 ? INFINITY : mu;
			}
		}
		double v0[6];
		for ( int k = 0; k < 6; ++k )
		{
			v0[k] = lcgUniform( &g, -2.0, 2.0 );
		}
		v0[2] = lcgUniform( &g, -3.0, 0.5 );
		double A[MAX_N * MAX_N], b[MAX_N], z[MAX_N], z2[MAX_N];
		effectiveMass( n, &J[0][0], mass, I, A );
		contactVelocity( n, &J[0][0], v0, b );
		cnLcpStatus s1 = cnSolveBoxedLcp( n, A, b, lo, hi, findex, z, 0 );
		cnLcpStatus s2 = cnSolveBoxedLcp( n, A, b, lo, hi, findex, z2, 0 );
		bool good = s1 == cnLcp_ok && s2 == s1 && memcmp( z, z2, (size_t)n * sizeof( double ) ) == 0 &&
					boxedHolds( n, A, b, lo, hi, findex, z, 1e-9 );
		if ( good == false )
		{
			failures += 1;
			fprintf( stderr, "  random boxed trial %d (%d contacts) failed, status %d\n", trial, contacts, (int)s1 );
		}
	}
	CHECK( failures == 0 );
}

// ------------------------------------------------------------------------------------------------
// The Dantzig path of the boxed solver (principal pivoting with friction rows tied to their
// normals). cnSolveBoxedLcpEx says which path produced z, so these cases check that the pivoting
// itself solves them, not the Lemke fallback.

// The boxed conditions with friction bounds +-mu z_f from z itself, for any n: the largest
// violation relative to the scale (|b| + |A| |z| for w, |z| for z), as boxedHolds measures it.
static double boxedViolation( int n, const double* A, const double* b, const double* lo, const double* hi,
							  const int* findex, const double* z )
{
	double* w = malloc( (size_t)n * sizeof( double ) );
	computeW( n, A, b, z, w );
	double scale = problemScale( n, A, b, z ), zmax = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		zmax = fmax( zmax, fabs( z[i] ) );
	}
	scale = scale > 0.0 ? scale : 1.0;
	zmax = zmax > 0.0 ? zmax : 1.0;
	double worst = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		double l = lo[i], h = hi[i];
		if ( findex != NULL && findex[i] >= 0 )
		{
			l = -hi[i] * z[findex[i]];
			h = hi[i] * z[findex[i]];
		}
		worst = fmax( worst, fmax( l - z[i], z[i] - h ) / zmax );
		// on the lower bound w >= 0, on the upper one w <= 0, inside w = 0: the smallest of the three
		// readings is the violation
		double atLo = fmax( ( z[i] - l ) / zmax, -w[i] / scale );
		double atHi = fmax( ( h - z[i] ) / zmax, w[i] / scale );
		double inside = fabs( w[i] ) / scale;
		worst = fmax( worst, fmin( inside, fmin( atLo, atHi ) ) );
	}
	free( w );
	return worst;
}

// One row, closed forms. A = 2, b = -4: unbounded z = 2. In [-1, 1] it stops on the upper bound
// with w = 2 - 4 = -2 <= 0; in [-5, 5] it is 2 with w = 0; with b = +3 and lo = 0 it stays at 0
// (w = 3); with lo = -inf, hi = 0.5 and b = +3 it is -1.5 (w = 0). Each is one step of exact
// arithmetic on small numbers: exact.
static void dantzigScalar( void )
{
	double A = 2.0, z = 7.0;
	struct
	{
		double b, lo, hi, z, w;
	} cases[4] = {
		{ -4.0, -1.0, 1.0, 1.0, -2.0 },
		{ -4.0, -5.0, 5.0, 2.0, 0.0 },
		{ 3.0, 0.0, INFINITY, 0.0, 3.0 },
		{ 3.0, -INFINITY, 0.5, -1.5, 0.0 },
	};
	for ( int c = 0; c < 4; ++c )
	{
		cnBoxedLcpInfo info;
		CHECK( cnSolveBoxedLcpEx( 1, &A, &cases[c].b, &cases[c].lo, &cases[c].hi, NULL, &z, 0, cnBoxedLcp_dantzig, &info ) ==
			   cnLcp_ok );
		CHECK( info.path == cnBoxedLcp_dantzig );
		CHECK_NEAR( z, cases[c].z, 0.0 );
		CHECK_NEAR( A * z + cases[c].b, cases[c].w, 0.0 );
	}
}

// Two rows with both bounds active. A = [[2, 1], [1, 2]], b = (-4, 1): unbounded z = -A^-1 b =
// (3, -2). With z0 <= 1 and z1 >= -0.25: z0 = 1 on its upper bound, then w1 = 1 + 2 z1 + 1 = 0 would
// need z1 = -1, below -0.25, so z1 = -0.25 on its lower bound with w1 = 1 - 0.5 + 1 = 1.5 >= 0, and
// w0 = 2 - 0.25 - 4 = -2.25 <= 0. Small binary fractions: exact.
static void dantzigTwoBounds( void )
{
	double A[4] = { 2.0, 1.0, 1.0, 2.0 };
	double b[2] = { -4.0, 1.0 };
	double lo[2] = { 0.0, -0.25 }, hi[2] = { 1.0, 0.25 };
	double z[2], w[2];
	cnBoxedLcpInfo info;
	CHECK( cnSolveBoxedLcpEx( 2, A, b, lo, hi, NULL, z, 0, cnBoxedLcp_dantzig, &info ) == cnLcp_ok );
	CHECK( info.path == cnBoxedLcp_dantzig );
	computeW( 2, A, b, z, w );
	CHECK_NEAR( z[0], 1.0, 0.0 );
	CHECK_NEAR( z[1], -0.25, 0.0 );
	CHECK_NEAR( w[0], -2.25, 1e-15 );
	CHECK_NEAR( w[1], 1.5, 1e-15 );
}

// A point mass m = 2 resting on an incline of angle theta (no rotation): rows normal, down-slope,
// across; A = I / m. One step of gravity (h = 0.01, g = 10) gives b = (-h g cos, h g sin, 0). The
// normal impulse stops the approach: z_n = m h g cos. With mu = 0.5 at 20 degrees (tan = 0.36 < mu)
// the block sticks: z_t = -m h g sin, w_t = 0. At 35 degrees (tan = 0.70 > mu) it slides: the
// friction impulse sits on its bound -mu z_n, the bound of the normal found in the same solve, and
// the block keeps w_t = h g (sin - mu cos) down the slope. A handful of operations: 1e-15.
static void dantzigIncline( void )
{
	double m = 2.0, h = 0.01, g = 10.0, mu = 0.5;
	double A[9] = { 1.0 / m, 0, 0, 0, 1.0 / m, 0, 0, 0, 1.0 / m };
	double lo[3] = { 0.0, 0.0, 0.0 }, hi[3] = { INFINITY, mu, mu };
	int findex[3] = { -1, 0, 0 };
	double degrees[2] = { 20.0, 35.0 };
	for ( int c = 0; c < 2; ++c )
	{
		double theta = degrees[c] * 3.14159265358979323846 / 180.0;
		double b[3] = { -h * g * cos( theta ), h * g * sin( theta ), 0.0 };
		double z[3], w[3];
		cnBoxedLcpInfo info;
		CHECK( cnSolveBoxedLcpEx( 3, A, b, lo, hi, findex, z, 0, cnBoxedLcp_dantzig, &info ) == cnLcp_ok );
		CHECK( info.path == cnBoxedLcp_dantzig );
		computeW( 3, A, b, z, w );
		double zn = m * h * g * cos( theta );
		CHECK_NEAR( z[0], zn, 1e-15 );
		CHECK_NEAR( w[0], 0.0, 1e-15 );
		CHECK_NEAR( z[2], 0.0, 0.0 );
		if ( c == 0 )
		{
			CHECK_NEAR( z[1], -m * h * g * sin( theta ), 1e-15 );
			CHECK_NEAR( w[1], 0.0, 1e-15 );
			CHECK( fabs( z[1] ) < mu * z[0] );
		}
		else
		{
			CHECK_NEAR( z[1], -mu * zn, 1e-15 );
			CHECK_NEAR( w[1], h * g * ( sin( theta ) - mu * cos( theta ) ), 1e-15 );
		}
	}
}

// The coupled stick/slip cases above (frictionMatrix: the x-friction turns the body and so changes
// the normal impulse) solved by the pivoting alone. Sliding in x with mu = 0.5 needs z_n = 2/3; the
// normal solved first (z_n = 1/2) and friction after it would be off by 1/6. Tolerance as above.
static void dantzigCoupledFriction( void )
{
	double A[9];
	frictionMatrix( A );
	double lo[3] = { 0.0, 0.0, 0.0 };
	int findex[3] = { -1, 0, 0 };
	double z[3];
	cnBoxedLcpInfo info;

	double b[3] = { -1.0, 0.5, 0.6 };
	double hiSlide[3] = { INFINITY, 0.5, 0.5 };
	CHECK( cnSolveBoxedLcpEx( 3, A, b, lo, hiSlide, findex, z, 0, cnBoxedLcp_dantzig, &info ) == cnLcp_ok );
	CHECK( info.path == cnBoxedLcp_dantzig );
	CHECK_NEAR( z[0], 2.0 / 3.0, 1e-12 );
	CHECK_NEAR( z[1], -1.0 / 3.0, 1e-12 );
	CHECK_NEAR( z[2], -0.2, 1e-12 );

	double hiStick[3] = { INFINITY, 1.0, 1.0 };
	CHECK( cnSolveBoxedLcpEx( 3, A, b, lo, hiStick, findex, z, 0, cnBoxedLcp_dantzig, &info ) == cnLcp_ok );
	CHECK_NEAR( z[0], 5.0 / 6.0, 1e-12 );
	CHECK_NEAR( z[1], -2.0 / 3.0, 1e-12 );

	double bBoth[3] = { -1.0, -2.0, 3.0 };
	CHECK( cnSolveBoxedLcpEx( 3, A, bBoth, lo, hiSlide, findex, z, 0, cnBoxedLcp_dantzig, &info ) == cnLcp_ok );
	CHECK_NEAR( z[0], 0.4, 1e-12 );
	CHECK_NEAR( z[1], 0.2, 1e-12 );
	CHECK_NEAR( z[2], -0.2, 1e-12 );
}

// The box flat on a plane (redundant contacts, rank 3 normals) landing without friction: the
// pivoting keeps a dependent normal on its bound instead of factorising a singular block. Every
// solution stops the box: w = 0 at the corners, impulses summing to m (momentum), no moment.
static void dantzigRedundantBox( void )
{
	double m = 2.0, hx = 1.0, hy = 0.5, hz = 0.25;
	double I[3] = { m / 3.0 * ( hy * hy + hz * hz ), m / 3.0 * ( hx * hx + hz * hz ), m / 3.0 * ( hx * hx + hy * hy ) };
	double n[3] = { 0.0, 0.0, 1.0 };
	double corners[4][3] = { { -hx, -hy, -hz }, { hx, -hy, -hz }, { hx, hy, -hz }, { -hx, hy, -hz } };
	double J[4][6];
	for ( int c = 0; c < 4; ++c )
	{
		jacobianRow( J[c], corners[c], n );
	}
	double A[16], b[4], z[4], w[4];
	double lo[4] = { 0.0, 0.0, 0.0, 0.0 }, hi[4] = { INFINITY, INFINITY, INFINITY, INFINITY };
	effectiveMass( 4, &J[0][0], m, I, A );
	double v0[6] = { 0.0, 0.0, -1.0, 0.0, 0.0, 0.0 };
	contactVelocity( 4, &J[0][0], v0, b );
	cnBoxedLcpInfo info;
	CHECK( cnSolveBoxedLcpEx( 4, A, b, lo, hi, NULL, z, 0, cnBoxedLcp_dantzig, &info ) == cnLcp_ok );
	CHECK( info.path == cnBoxedLcp_dantzig );
	computeW( 4, A, b, z, w );
	double sum = 0.0, mx = 0.0, my = 0.0;
	int zeros = 0;
	for ( int c = 0; c < 4; ++c )
	{
		CHECK_NEAR( w[c], 0.0, 1e-12 );
		CHECK( z[c] >= 0.0 );
		zeros += z[c] == 0.0;
		sum += z[c];
		mx += z[c] * corners[c][1];
		my += z[c] * corners[c][0];
	}
	// Baraff's answer for redundant rows: one of the four stays exactly on its bound
	CHECK( zeros >= 1 );
	CHECK_NEAR( sum, m, 1e-12 );
	CHECK_NEAR( mx, 0.0, 1e-12 );
	CHECK_NEAR( my, 0.0, 1e-12 );
}

// Random symmetric positive semidefinite boxed problems without friction: A = B B^T with B of rank
// k <= 8 (duplicated and combined rows: redundant contacts, singular A), rows of every kind (lower
// bound 0, box around 0, upper bound only, free, fixed), and b built from a solution chosen first,
// so every problem is solvable. The pivoting must solve every one by itself (no fallback), to the
// 1e-8 conditions, with bit-identical output on a second run.
static void dantzigRandomPsd( void )
{
	Lcg g = { 2024u };
	int failures = 0;
	int trials = 400;
	for ( int trial = 0; trial < trials; ++trial )
	{
		int n = 1 + trial % 48;
		int k = 1 + (int)lcgUniform( &g, 0.0, 8.0 );
		double B[MAX_N][8];
		double lo[MAX_N], hi[MAX_N], A[MAX_N * MAX_N], b[MAX_N], z[MAX_N], z2[MAX_N];
		redundantRows( &g, n, k, -0.5, B );
		gramMatrix( n, k, B, A );
		// a solution z* with its w* chosen first, so every problem is solvable: b = w* - A z*
		double zs[MAX_N], ws[MAX_N];
		for ( int i = 0; i < n; ++i )
		{
			int kind = (int)lcgUniform( &g, 0.0, 10.0 );
			int side = (int)lcgUniform( &g, 0.0, 3.0 );
			if ( kind < 5 )
			{
				// a contact: z >= 0
				lo[i] = 0.0;
				hi[i] = INFINITY;
				zs[i] = side == 0 ? lcgUniform( &g, 0.0, 1.0 ) : 0.0;
				ws[i] = side == 0 ? 0.0 : lcgUniform( &g, 0.0, 1.0 );
			}
			else if ( kind < 7 )
			{
				// a box around zero
				lo[i] = -lcgUniform( &g, 0.1, 1.0 );
				hi[i] = lcgUniform( &g, 0.1, 1.0 );
				zs[i] = side == 0 ? lo[i] : side == 1 ? hi[i] : lcgUniform( &g, lo[i], hi[i] );
				ws[i] = side == 0 ? lcgUniform( &g, 0.0, 1.0 ) : side == 1 ? -lcgUniform( &g, 0.0, 1.0 ) : 0.0;
			}
			else if ( kind == 7 )
			{
				// an upper bound only
				lo[i] = -INFINITY;
				hi[i] = lcgUniform( &g, 0.0, 1.0 );
				zs[i] = side == 0 ? hi[i] : hi[i] - lcgUniform( &g, 0.0, 1.0 );
				ws[i] = side == 0 ? -lcgUniform( &g, 0.0, 1.0 ) : 0.0;
			}
			else if ( kind == 8 )
			{
				// free (bilateral)
				lo[i] = -INFINITY;
				hi[i] = INFINITY;
				zs[i] = lcgUniform( &g, -1.0, 1.0 );
				ws[i] = 0.0;
			}
			else
			{
				// fixed
				lo[i] = hi[i] = zs[i] = lcgUniform( &g, -0.5, 0.5 );
				ws[i] = lcgUniform( &g, -1.0, 1.0 );
			}
		}
		for ( int i = 0; i < n; ++i )
		{
			double s = ws[i];
			for ( int j = 0; j < n; ++j )
			{
				s -= A[i + j * n] * zs[j];
			}
			b[i] = s;
		}
		cnBoxedLcpInfo info;
		cnLcpStatus s1 = cnSolveBoxedLcpEx( n, A, b, lo, hi, NULL, z, 0, cnBoxedLcp_auto, &info );
		cnLcpStatus s2 = cnSolveBoxedLcpEx( n, A, b, lo, hi, NULL, z2, 0, cnBoxedLcp_auto, NULL );
		bool good = s1 == cnLcp_ok && s2 == s1 && info.path == cnBoxedLcp_dantzig &&
					memcmp( z, z2, (size_t)n * sizeof( double ) ) == 0 && boxedHolds( n, A, b, lo, hi, NULL, z, 1e-8 );
		if ( good == false )
		{
			failures += 1;
			fprintf( stderr, "  random PSD boxed trial %d (n = %d, rank <= %d): status %d, path %d, violation %.3g\n", trial,
					 n, k, (int)s1, (int)info.path, info.violation );
		}
	}
	CHECK( failures == 0 );
}

// A body touched at points with friction pyramids (3 rows per point), A = J M^-1 J^T.
typedef struct FrictionProblem
{
	int n;
	double* A;
	double* b;
	double* lo;
	double* hi;
	int* findex;
} FrictionProblem;

static FrictionProblem frictionProblemAlloc( int n )
{
	FrictionProblem p;
	p.n = n;
	p.A = malloc( (size_t)n * (size_t)n * sizeof( double ) );
	p.b = malloc( (size_t)n * sizeof( double ) );
	p.lo = malloc( (size_t)n * sizeof( double ) );
	p.hi = malloc( (size_t)n * sizeof( double ) );
	p.findex = malloc( (size_t)n * sizeof( int ) );
	return p;
}

static void frictionProblemFree( FrictionProblem* p )
{
	free( p->A );
	free( p->b );
	free( p->lo );
	free( p->hi );
	free( p->findex );
}

// a x b
static void cross3( const double a[3], const double b[3], double c[3] )
{
	c[0] = a[1] * b[2] - a[2] * b[1];
	c[1] = a[2] * b[0] - a[0] * b[2];
	c[2] = a[0] * b[1] - a[1] * b[0];
}

// A stack of boxes on the ground, like the contact systems of the velocity-level methods: box k
// rests on box k - 1 (box 0 on the ground) at the four corners of their overlap, normal +z, two
// tangents; rows are the normals first, then the two tangents of each point (the order of
// src/methods/velocity.c). Resting: every box falls at the step's g h with velocity noise `noise`;
// otherwise the boxes approach each other at random speeds up to 1 m/s and slide and spin at up
// to 0.3. mu per interface in [0.1, muMax] (one in ten frictionless). A = J M^-1 J^T (6 dofs a box,
// rank 6 per box for 12 rows: redundant), b = J v with (1 + e) on the normals, e = 0.5.
static FrictionProblem stackProblem( Lcg* g, int boxes, bool resting, double noise, double muMax )
{
	int n = 12 * boxes, dof = 6 * boxes, contacts = 4 * boxes;
	FrictionProblem p = frictionProblemAlloc( n );
	double* J = calloc( (size_t)n * (size_t)dof, sizeof( double ) );
	double* invM = malloc( (size_t)dof * sizeof( double ) );
	double* v = malloc( (size_t)dof * sizeof( double ) );
	double* hx = malloc( 3 * (size_t)boxes * sizeof( double ) );
	for ( int k = 0; k < boxes; ++k )
	{
		double m = lcgUniform( g, 0.2, 5.0 );
		double* he = hx + 3 * k;
		he[0] = lcgUniform( g, 0.3, 1.0 );
		he[1] = lcgUniform( g, 0.3, 1.0 );
		he[2] = lcgUniform( g, 0.1, 0.5 );
		double I[3] = { m / 3.0 * ( he[1] * he[1] + he[2] * he[2] ), m / 3.0 * ( he[0] * he[0] + he[2] * he[2] ),
						m / 3.0 * ( he[0] * he[0] + he[1] * he[1] ) };
		for ( int a = 0; a < 3; ++a )
		{
			invM[6 * k + a] = 1.0 / m;
			invM[6 * k + 3 + a] = 1.0 / I[a];
		}
		double spread = resting ? noise : 0.3;
		for ( int a = 0; a < 6; ++a )
		{
			v[6 * k + a] = lcgUniform( g, -spread, spread );
		}
		v[6 * k + 2] += resting ? -9.81 / 120.0 : lcgUniform( g, -1.0, 0.2 );
	}
	double dirs[3][3] = { { 0.0, 0.0, 1.0 }, { 1.0, 0.0, 0.0 }, { 0.0, 1.0, 0.0 } };
	for ( int k = 0; k < boxes; ++k )
	{
		const double* he = hx + 3 * k;
		double ex = k > 0 ? fmin( he[0], hx[3 * ( k - 1 )] ) : he[0];
		double ey = k > 0 ? fmin( he[1], hx[3 * ( k - 1 ) + 1] ) : he[1];
		double cx = lcgUniform( g, -0.2, 0.2 ), cy = lcgUniform( g, -0.2, 0.2 );
		double mu = lcgUniform( g, 0.0, 1.0 ) < 0.1 ? 0.0 : lcgUniform( g, 0.1, muMax );
		for ( int c = 0; c < 4; ++c )
		{
			int point = 4 * k + c;
			double px = ( c == 1 || c == 2 ? 0.9 : -0.9 ) * ex + cx, py = ( c >= 2 ? 0.9 : -0.9 ) * ey + cy;
			double rB[3] = { px, py, -he[2] }, rA[3] = { px, py, k > 0 ? hx[3 * ( k - 1 ) + 2] : 0.0 };
			for ( int d = 0; d < 3; ++d )
			{
				int row = d == 0 ? point : contacts + 2 * point + d - 1;
				double* Jr = J + (size_t)row * (size_t)dof;
				double rx[3];
				cross3( rB, dirs[d], rx );
				for ( int a = 0; a < 3; ++a )
				{
					Jr[6 * k + a] = dirs[d][a];
					Jr[6 * k + 3 + a] = rx[a];
				}
				if ( k > 0 )
				{
					cross3( rA, dirs[d], rx );
					for ( int a = 0; a < 3; ++a )
					{
						Jr[6 * ( k - 1 ) + a] = -dirs[d][a];
						Jr[6 * ( k - 1 ) + 3 + a] = -rx[a];
					}
				}
				p.findex[row] = d == 0 ? -1 : point;
				p.lo[row] = 0.0;
				p.hi[row] = d == 0 ? INFINITY : mu;
			}
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		const double* Ji = J + (size_t)i * (size_t)dof;
		for ( int j = 0; j <= i; ++j )
		{
			const double* Jj = J + (size_t)j * (size_t)dof;
			double s = 0.0;
			for ( int a = 0; a < dof; ++a )
			{
				s += Ji[a] * invM[a] * Jj[a];
			}
			p.A[i + j * n] = s;
			p.A[j + i * n] = s;
		}
		double s = 0.0;
		for ( int a = 0; a < dof; ++a )
		{
			s += Ji[a] * v[a];
		}
		p.b[i] = p.findex[i] < 0 ? 1.5 * s : s;
	}
	free( J );
	free( invM );
	free( v );
	free( hx );
	return p;
}

// A batch of stack problems: every solve must succeed (Dantzig or its Lemke fallback), satisfy the
// boxed conditions with friction bounds from its own normals to 1e-8, and give bit-identical z on
// a second run. Prints how often the pivoting needed the fallback; the fallback share must stay
// small (the pivoting does the work): at most 1 % of resting stacks, 3 % of violent ones.
static int stackBatch( const char* label, uint64_t seed, int count, int maxBoxes, bool resting, double noise )
{
	Lcg g = { seed };
	int failures = 0, fallbacks = 0, rows = 0;
	for ( int trial = 0; trial < count; ++trial )
	{
		int boxes = 1 + (int)lcgUniform( &g, 0.0, (double)maxBoxes );
		FrictionProblem p = stackProblem( &g, boxes, resting, noise, 1.0 );
		double* z = malloc( (size_t)p.n * sizeof( double ) );
		double* z2 = malloc( (size_t)p.n * sizeof( double ) );
		cnBoxedLcpInfo info;
		cnLcpStatus s1 = cnSolveBoxedLcpEx( p.n, p.A, p.b, p.lo, p.hi, p.findex, z, 0, cnBoxedLcp_auto, &info );
		cnLcpStatus s2 = cnSolveBoxedLcp( p.n, p.A, p.b, p.lo, p.hi, p.findex, z2, 0 );
		double violation = boxedViolation( p.n, p.A, p.b, p.lo, p.hi, p.findex, z );
		bool good = s1 == cnLcp_ok && s2 == s1 && memcmp( z, z2, (size_t)p.n * sizeof( double ) ) == 0 && violation <= 1e-8;
		if ( good == false )
		{
			failures += 1;
			fprintf( stderr, "  %s stack %d (%d boxes): status %d, violation %.3g\n", label, trial, boxes, (int)s1,
					 violation );
		}
		fallbacks += info.path != cnBoxedLcp_dantzig;
		rows += p.n;
		free( z );
		free( z2 );
		frictionProblemFree( &p );
	}
	printf( "  %s stacks: %d problems (%.0f rows on average), Lemke fallback %d (%.2f %%)\n", label, count,
			(double)rows / count, fallbacks, 100.0 * fallbacks / count );
	CHECK( failures == 0 );
	return fallbacks;
}

static void dantzigStacks( void )
{
	int count = testFast() ? 40 : 300;
	int resting = stackBatch( "resting", 11u, count, 8, true, 0.05 );
	int violent = stackBatch( "violent", 12u, count, 8, false, 0.0 );
	CHECK( resting <= count / 100 );
	CHECK( violent <= 3 * count / 100 );
}

// Random frictional problems on three free bodies (18 dofs, up to 5 points: A positive definite)
// with mu <= 0.3, where the solution is unique: the pivoting's w = A z + b (the velocities after the
// impulses) must agree with the Lemke reduction's to 1e-9 of |b|.
static void dantzigAgreesWithLemke( void )
{
	Lcg g = { 31337u };
	int failures = 0;
	for ( int trial = 0; trial < 400; ++trial )
	{
		int contacts = 1 + trial % 5, n = 3 * contacts;
		double J[15][18], inv[18], v[18];
		memset( J, 0, sizeof( J ) );
		for ( int k = 0; k < 18; ++k )
		{
			inv[k] = 1.0 / lcgUniform( &g, 0.3, 3.0 );
			v[k] = lcgUniform( &g, -2.0, 2.0 );
		}
		FrictionProblem p = frictionProblemAlloc( n );
		for ( int c = 0; c < contacts; ++c )
		{
			int bodyA = (int)lcgUniform( &g, 0.0, 3.0 ), bodyB = (int)lcgUniform( &g, -1.0, 3.0 );
			bodyB = bodyB == bodyA ? -1 : bodyB;
			double nrm[3] = { lcgUniform( &g, -0.3, 0.3 ), lcgUniform( &g, -0.3, 0.3 ), 1.0 };
			double len = sqrt( nrm[0] * nrm[0] + nrm[1] * nrm[1] + 1.0 );
			for ( int a = 0; a < 3; ++a )
			{
				nrm[a] /= len;
			}
			double t1[3] = { nrm[2], 0.0, -nrm[0] };
			double l1 = sqrt( t1[0] * t1[0] + t1[2] * t1[2] );
			t1[0] /= l1;
			t1[2] /= l1;
			double t2[3];
			cross3( nrm, t1, t2 );
			const double* dirs[3] = { nrm, t1, t2 };
			double rA[3] = { lcgUniform( &g, -1.0, 1.0 ), lcgUniform( &g, -1.0, 1.0 ), lcgUniform( &g, -1.0, -0.2 ) };
			double rB[3] = { lcgUniform( &g, -1.0, 1.0 ), lcgUniform( &g, -1.0, 1.0 ), lcgUniform( &g, 0.2, 1.0 ) };
			double mu = lcgUniform( &g, 0.0, 0.3 );
			for ( int d = 0; d < 3; ++d )
			{
				double rx[3];
				cross3( rA, dirs[d], rx );
				for ( int a = 0; a < 3; ++a )
				{
					J[3 * c + d][6 * bodyA + a] += dirs[d][a];
					J[3 * c + d][6 * bodyA + 3 + a] += rx[a];
				}
				if ( bodyB >= 0 )
				{
					cross3( rB, dirs[d], rx );
					for ( int a = 0; a < 3; ++a )
					{
						J[3 * c + d][6 * bodyB + a] -= dirs[d][a];
						J[3 * c + d][6 * bodyB + 3 + a] -= rx[a];
					}
				}
				p.findex[3 * c + d] = d == 0 ? -1 : 3 * c;
				p.lo[3 * c + d] = 0.0;
				p.hi[3 * c + d] = d == 0 ? INFINITY : mu;
			}
		}
		double bmax = 0.0;
		for ( int i = 0; i < n; ++i )
		{
			for ( int j = 0; j < n; ++j )
			{
				double s = 0.0;
				for ( int k = 0; k < 18; ++k )
				{
					s += J[i][k] * inv[k] * J[j][k];
				}
				p.A[i + j * n] = s;
			}
			double s = 0.0;
			for ( int k = 0; k < 18; ++k )
			{
				s += J[i][k] * v[k];
			}
			p.b[i] = s;
			bmax = fmax( bmax, fabs( s ) );
		}
		double zd[15], zl[15], wd[15], wl[15];
		cnBoxedLcpInfo info;
		cnLcpStatus sd = cnSolveBoxedLcpEx( n, p.A, p.b, p.lo, p.hi, p.findex, zd, 0, cnBoxedLcp_auto, &info );
		cnLcpStatus sl = cnSolveBoxedLcpEx( n, p.A, p.b, p.lo, p.hi, p.findex, zl, 0, cnBoxedLcp_lemke, NULL );
		computeW( n, p.A, p.b, zd, wd );
		computeW( n, p.A, p.b, zl, wl );
		double diff = 0.0;
		for ( int i = 0; i < n; ++i )
		{
			diff = fmax( diff, fabs( wd[i] - wl[i] ) );
		}
		if ( sd != cnLcp_ok || sl != cnLcp_ok || info.path != cnBoxedLcp_dantzig || diff > 1e-9 * bmax )
		{
			failures += 1;
			fprintf( stderr, "  agreement trial %d (n = %d): status %d / %d, path %d, |w - w_lemke| = %.3g\n", trial, n,
					 (int)sd, (int)sl, (int)info.path, diff );
		}
		frictionProblemFree( &p );
	}
	CHECK( failures == 0 );
}

// A box flat on the ground on three points, sliding and spinning, mu up to 0.68: the Lemke
// reduction finds the impulses with the second point carrying z_n = 0.25 and both its friction rows
// on their bounds (0.68 z_n), where the friction rows' pull makes that normal's effective stiffness
// negative (a Painleve-like, impulsive answer); the pivoting paths turn back before they get there.
// Whatever the pivoting does, the returned z must satisfy the conditions, and when the Dantzig path
// alone reports failure the answer must be the Lemke reduction's (the fallback ran).
static void dantzigFallback( void )
{
	double r[3][3] = { { 0.660747, 0.303843, -0.5 }, { 0.534611, 0.567503, -0.5 }, { 0.807985, -0.455109, -0.5 } };
	double mu[3] = { 0.135093, 0.683987, 0.678954 };
	double I[3] = { 0.285862, 1.58778, 1.26768 };
	double v0[6] = { -1.43806, -0.940673, -0.441256, -0.228117, 1.0963, -1.36004 };
	double dirs[3][3] = { { 0.0, 0.0, 1.0 }, { 1.0, 0.0, 0.0 }, { 0.0, 1.0, 0.0 } };
	double J[9][6], A[81], b[9], lo[9], hi[9], z[9], zAlone[9];
	int findex[9];
	for ( int c = 0; c < 3; ++c )
	{
		for ( int d = 0; d < 3; ++d )
		{
			jacobianRow( J[3 * c + d], r[c], dirs[d] );
			findex[3 * c + d] = d == 0 ? -1 : 3 * c;
			lo[3 * c + d] = 0.0;
			hi[3 * c + d] = d == 0 ? INFINITY : mu[c];
		}
	}
	effectiveMass( 9, &J[0][0], 3.97272, I, A );
	contactVelocity( 9, &J[0][0], v0, b );

	cnBoxedLcpInfo alone, info;
	cnLcpStatus sAlone = cnSolveBoxedLcpEx( 9, A, b, lo, hi, findex, zAlone, 0, cnBoxedLcp_dantzig, &alone );
	CHECK( cnSolveBoxedLcpEx( 9, A, b, lo, hi, findex, z, 0, cnBoxedLcp_auto, &info ) == cnLcp_ok );
	CHECK( boxedHolds( 9, A, b, lo, hi, findex, z, 1e-9 ) );
	CHECK( info.violation <= 1e-8 );
	if ( sAlone != cnLcp_ok )
	{
		CHECK( info.path == cnBoxedLcp_lemke );
		CHECK( alone.dantzigPasses == 3 );
	}
	printf( "  Dantzig alone: status %d after %d passes; returned by the %s path\n", (int)sAlone, alone.dantzigPasses,
			info.path == cnBoxedLcp_dantzig ? "Dantzig" : "Lemke" );
}

// Seconds since an arbitrary start (C11 timespec_get).
static double nowSeconds( void )
{
	struct timespec t;
	timespec_get( &t, TIME_UTC );
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Speed report (no timing assertions): 100 stack problems of 60 to 300 rows solved by the default
// path (Dantzig, with its fallback when taken) and by the Lemke reduction alone. Only with
// CAIRN_LCP_BENCH=1: the Lemke side takes seconds.
static void dantzigSpeedReport( void )
{
	const char* s = getenv( "CAIRN_LCP_BENCH" );
	if ( s == NULL || s[0] != '1' )
	{
		printf( "  speed report skipped (set CAIRN_LCP_BENCH=1)\n" );
		return;
	}
	Lcg g = { 99u };
	double tDantzig = 0.0, tLemke = 0.0;
	int rows = 0, fallbacks = 0;
	for ( int trial = 0; trial < 100; ++trial )
	{
		int boxes = 5 + trial % 21;
		FrictionProblem p = stackProblem( &g, boxes, trial % 2 == 0, 0.05, 1.0 );
		double* z = malloc( (size_t)p.n * sizeof( double ) );
		cnBoxedLcpInfo info;
		double t0 = nowSeconds();
		cnLcpStatus sd = cnSolveBoxedLcpEx( p.n, p.A, p.b, p.lo, p.hi, p.findex, z, 0, cnBoxedLcp_auto, &info );
		double t1 = nowSeconds();
		cnLcpStatus sl = cnSolveBoxedLcpEx( p.n, p.A, p.b, p.lo, p.hi, p.findex, z, 0, cnBoxedLcp_lemke, NULL );
		double t2 = nowSeconds();
		CHECK( sd == cnLcp_ok && sl == cnLcp_ok );
		tDantzig += t1 - t0;
		tLemke += t2 - t1;
		rows += p.n;
		fallbacks += info.path != cnBoxedLcp_dantzig;
		free( z );
		frictionProblemFree( &p );
	}
	printf( "  100 stacks, %.0f rows on average: Dantzig %.3f s (%d fallbacks), Lemke reduction %.3f s, ratio %.1f\n",
			rows / 100.0, tDantzig, fallbacks, tLemke, tLemke / tDantzig );
}

int main( void )
{
	RUN_TEST( lemkeScalar );
	RUN_TEST( lemkeTableEdge );
	RUN_TEST( lemkeFossSimTest03 );
	RUN_TEST( lemkeRedundantBox );
	RUN_TEST( lemkeEightLegs );
	RUN_TEST( lemkeTrivial );
	RUN_TEST( lemkeFailures );
	RUN_TEST( lemkeRandomPsd );
	RUN_TEST( boxedStickSlip );
	RUN_TEST( boxedSlideBothAxes );
	RUN_TEST( boxedFixedBounds );
	RUN_TEST( boxedRedundantBox );
	RUN_TEST( boxedRandomContacts );
	RUN_TEST( dantzigScalar );
	RUN_TEST( dantzigTwoBounds );
	RUN_TEST( dantzigIncline );
	RUN_TEST( dantzigCoupledFriction );
	RUN_TEST( dantzigRedundantBox );
	RUN_TEST( dantzigRandomPsd );
	RUN_TEST( dantzigAgreesWithLemke );
	RUN_TEST( dantzigStacks );
	RUN_TEST( dantzigFallback );
	RUN_TEST( dantzigSpeedReport );
	return TEST_SUMMARY();
}
