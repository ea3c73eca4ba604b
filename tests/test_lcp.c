// SPDX-License-Identifier: MIT
// Lemke's method and the boxed LCP against hand-derived solutions: FOSSSim's printed oracles, the
// block on a table edge, redundant contacts of a box flat on a plane, a frictional contact that
// sticks or slides, and random contact problems checked for the complementarity conditions.
#include "lcp.h"
#include "test.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define MAX_N 64

// A deterministic generator (64-bit LCG, Knuth's MMIX constants), so the random cases are the same
// on every machine.
typedef struct Lcg
{
	uint64_t state;
} Lcg;

static double lcgUniform( Lcg* g, double lo, double hi )
{
	g->state = g->state * 6364136223846793005ull + 1442695040888963407ull;
	double u = (double)( g->state >> 11 ) * ( 1.0 / 9007199254740992.0 );
	return lo + ( hi - lo ) * u;
}

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
		double B[MAX_N][6], v[6];
		for ( int i = 0; i < n; ++i )
		{
			int kind = (int)lcgUniform( &g, 0.0, 4.0 );
			for ( int c = 0; c < k; ++c )
			{
				B[i][c] = lcgUniform( &g, -1.0, 1.0 );
			}
			if ( i >= 2 && kind == 0 )
			{
				memcpy( B[i], B[i - 1], sizeof( B[i] ) );
			}
			else if ( i >= 2 && kind == 1 )
			{
				for ( int c = 0; c < k; ++c )
				{
					B[i][c] = B[i - 1][c] + 0.5 * B[i - 2][c];
				}
			}
		}
		for ( int c = 0; c < k; ++c )
		{
			v[c] = lcgUniform( &g, -2.0, 1.0 );
		}
		double A[MAX_N * MAX_N], b[MAX_N], z[MAX_N], z2[MAX_N];
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
	return TEST_SUMMARY();
}
