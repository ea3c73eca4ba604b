// SPDX-License-Identifier: MIT
// Lemke's complementary pivoting, and the boxed LCP with friction coupling built on it.
//
// Lemke works on the tableau w - M z - e z0 = q: the basis starts with every w, the artificial
// variable z0 enters, and then each pivot brings in the complement of the variable that just left,
// until z0 leaves (a solution) or the entering column has no usable positive entry (a secondary
// ray). The basis inverse is kept explicitly (row-major, m x m) and updated by Gauss-Jordan pivots,
// so a pivot costs O(m^2). Degenerate pivots (ties in the ratio test, common with redundant
// contacts whose w stay exactly zero) are broken lexicographically on the rows of the basis
// inverse, the classic perturbation argument that keeps Lemke from cycling; rows are compared in
// index order, so the choice is deterministic.
//
// Scale: the problem is first equilibrated by powers of two (exact in floating point), columns then
// rows of M, then q, so every entry lies in [-1, 1]; the tolerances below are then relative to the
// matrix scale, and the covering vector is e = (1..1) in those scaled coordinates.
//
// Round-off: a pivot entry must be large against both the column and the magnitudes it was summed
// from (exact zeros of a singular A come out as 1e-17, or as 1e-11 once the basis inverse has
// grown). At the end the complementary set of the final basis is solved again directly, and
// repaired by a few single principal pivots if round-off left it slightly wrong.
//
// The boxed LCP is reduced to a standard LCP in shifted variables (see cnSolveBoxedLcp), so one
// pivoting core serves both. Memory: one malloc/free pair per call, nothing else.
#include "lcp.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// An entering column entry is a usable pivot when it exceeds this fraction of the column's largest
// entry; below that it is round-off from a redundant row (a singular PSD A gives exact zeros that
// come out as 1e-17).
#define CN_LEMKE_PIVOT_TOL 1e-11

// Rounds of single principal pivots that may repair the final complementary set (each solves an
// |S| x |S| system) when round-off left it slightly wrong.
#define CN_LEMKE_REPAIR_ROUNDS 20

// A point whose largest violation of the scaled conditions is below this is a solution (the
// scaled data are O(1), so this is a relative 1e-12).
#define CN_LEMKE_ACCEPT_TOL 1e-12

// An entry that keeps less than this fraction of the magnitudes summed to form it is cancellation
// noise, however large it is against the rest of the column (a basis inverse with entries of 1e4
// turns exact zeros into 1e-11).
#define CN_LEMKE_CANCEL_TOL 1e-9

// Ratios (and lexicographic keys) within this relative distance of the minimum count as ties.
#define CN_LEMKE_TIE_TOL 1e-12

// The artificial variable z0 starts at -min q, below 1 in the scaled problem. Once a pivot would
// leave it at or below this value the basis is complementary up to round-off, so z0 leaves. Without
// this, a path through a singular A can bring z0 to 1e-14 instead of 0 and then stop on a ray.
#define CN_LEMKE_Z0_TOL 1e-9

// Sweeps of the projected Gauss-Seidel fallback.
#define CN_BOXED_PGS_SWEEPS 2000

// A boxed solution is accepted when every condition holds to this fraction of the problem's scale.
#define CN_BOXED_CHECK_TOL 1e-8

static bool cnIsFinite( double a )
{
	return isfinite( a ) != 0;
}

// The power of two 2^-e with |v| * 2^-e in [0.5, 1); 1 for zero. Scaling by it is exact.
static double cnInversePowerOfTwo( double v )
{
	if ( v <= 0.0 || cnIsFinite( v ) == false )
	{
		return 1.0;
	}
	int e = 0;
	frexp( v, &e );
	return ldexp( 1.0, -e );
}

// Scratch memory of the pivoting core for an LCP of size m.
typedef struct cnLemkeWork
{
	double* binv;	  // m x m basis inverse, row-major
	double* xb;		  // m basic variable values
	double* d;		  // m entering column in the current basis
	double* rowScale; // m
	double* colScale; // m
	double* xTableau; // m: solution read from the final tableau
	double* xPolish;  // m: solution of the final complementary system
	double* mag;	  // m: round-off scale of each entry of d
	int* basis;		  // m: variable in each row (w_i = i, z_j = m + j, z0 = 2m)
	int* ties;		  // m: rows tied in the ratio test
	int* set;		  // m: indices of the basic z at the end
} cnLemkeWork;

static size_t cnLemkeDoubles( int m )
{
	return (size_t)m * (size_t)m + 8 * (size_t)m;
}

static size_t cnLemkeInts( int m )
{
	return 3 * (size_t)m;
}

static void cnLemkeCarve( cnLemkeWork* w, int m, double* dbl, int* ints )
{
	size_t mm = (size_t)m;
	w->binv = dbl;
	w->xb = w->binv + mm * mm;
	w->d = w->xb + mm;
	w->rowScale = w->d + mm;
	w->colScale = w->rowScale + mm;
	w->xTableau = w->colScale + mm;
	w->xPolish = w->xTableau + mm;
	w->mag = w->xPolish + mm;
	w->basis = ints;
	w->ties = ints + mm;
	w->set = ints + 2 * mm;
}

// Largest violation of the LCP conditions x >= 0, w = M x + q >= 0, min(x, w) = 0 (scaled problem,
// so all terms are O(1)). tmp holds m doubles.
static double cnLcpViolation( int m, const double* M, const double* q, const double* x, double* tmp )
{
	size_t mm = (size_t)m;
	for ( int i = 0; i < m; ++i )
	{
		tmp[i] = q[i];
	}
	for ( int j = 0; j < m; ++j )
	{
		double xj = x[j];
		if ( xj == 0.0 )
		{
			continue;
		}
		const double* col = M + (size_t)j * mm;
		for ( int i = 0; i < m; ++i )
		{
			tmp[i] += col[i] * xj;
		}
	}
	double worst = 0.0;
	for ( int i = 0; i < m; ++i )
	{
		worst = fmax( worst, fmax( -x[i], -tmp[i] ) );
		worst = fmax( worst, fmin( x[i], tmp[i] ) );
	}
	return worst;
}

// Solves M_SS x_S = -q_S for the set S marked in w->set (x zero elsewhere) by Gaussian elimination
// with partial pivoting, in the space of the basis inverse, which is no longer needed. Returns false
// when the system is numerically singular. x is not clamped: a negative entry means S is wrong.
static bool cnLemkeSolveSet( int m, const double* M, const double* q, cnLemkeWork* w, double* x )
{
	size_t mm = (size_t)m;
	int* index = w->ties;
	int s = 0;
	for ( int j = 0; j < m; ++j )
	{
		if ( w->set[j] )
		{
			index[s++] = j;
		}
	}

	size_t ss = (size_t)s;
	double* K = w->binv;
	double* rhs = w->d;
	double kmax = 0.0;
	for ( int c = 0; c < s; ++c )
	{
		const double* col = M + (size_t)index[c] * mm;
		for ( int r = 0; r < s; ++r )
		{
			K[(size_t)r + (size_t)c * ss] = col[index[r]];
			kmax = fmax( kmax, fabs( col[index[r]] ) );
		}
		rhs[c] = -q[index[c]];
	}
	for ( int c = 0; c < s; ++c )
	{
		int p = c;
		for ( int r = c + 1; r < s; ++r )
		{
			if ( fabs( K[(size_t)r + (size_t)c * ss] ) > fabs( K[(size_t)p + (size_t)c * ss] ) )
			{
				p = r;
			}
		}
		double piv = K[(size_t)p + (size_t)c * ss];
		if ( fabs( piv ) <= CN_LEMKE_PIVOT_TOL * kmax || piv == 0.0 )
		{
			return false;
		}
		if ( p != c )
		{
			for ( int k = c; k < s; ++k )
			{
				double t = K[(size_t)c + (size_t)k * ss];
				K[(size_t)c + (size_t)k * ss] = K[(size_t)p + (size_t)k * ss];
				K[(size_t)p + (size_t)k * ss] = t;
			}
			double t = rhs[c];
			rhs[c] = rhs[p];
			rhs[p] = t;
		}
		for ( int r = c + 1; r < s; ++r )
		{
			double f = K[(size_t)r + (size_t)c * ss] / piv;
			if ( f == 0.0 )
			{
				continue;
			}
			for ( int k = c + 1; k < s; ++k )
			{
				K[(size_t)r + (size_t)k * ss] -= f * K[(size_t)c + (size_t)k * ss];
			}
			rhs[r] -= f * rhs[c];
		}
	}
	for ( int c = s - 1; c >= 0; --c )
	{
		double v = rhs[c];
		for ( int k = c + 1; k < s; ++k )
		{
			v -= K[(size_t)c + (size_t)k * ss] * rhs[k];
		}
		rhs[c] = v / K[(size_t)c + (size_t)c * ss];
	}
	for ( int j = 0; j < m; ++j )
	{
		x[j] = 0.0;
	}
	for ( int c = 0; c < s; ++c )
	{
		x[index[c]] = rhs[c];
	}
	return true;
}

// Finishes the solve: starting from the complementary set of the final basis, solves M_SS x_S = -q_S
// directly (independent of the pivot path, whose basis inverse may have grown through near-singular
// pivots), and while that point still violates the conditions, moves the most violated index in or
// out of S (single principal pivots) for a bounded number of rounds. best (in: the tableau's point)
// receives the point with the smallest violation; returns that violation.
static double cnLemkeFinish( int m, const double* M, const double* q, cnLemkeWork* w, double* best )
{
	double* trial = w->xPolish;
	double* wv = w->mag;
	double bestViolation = cnLcpViolation( m, M, q, best, wv );
	for ( int j = 0; j < m; ++j )
	{
		w->set[j] = 0;
	}
	for ( int t = 0; t < m; ++t )
	{
		int v = w->basis[t];
		if ( v >= m && v < 2 * m )
		{
			w->set[v - m] = 1;
		}
	}

	int rounds = CN_LEMKE_REPAIR_ROUNDS;
	for ( int round = 0; round <= rounds; ++round )
	{
		if ( cnLemkeSolveSet( m, M, q, w, trial ) == false )
		{
			break;
		}
		double violation = cnLcpViolation( m, M, q, trial, wv );
		if ( violation < bestViolation )
		{
			bestViolation = violation;
			memcpy( best, trial, (size_t)m * sizeof( double ) );
		}
		if ( violation <= CN_LEMKE_ACCEPT_TOL )
		{
			break;
		}

		// the most violated index: a negative x in S leaves, a negative w outside S joins
		int worst = -1;
		double amount = 0.0;
		for ( int j = 0; j < m; ++j )
		{
			double v = w->set[j] ? -trial[j] : -wv[j];
			if ( v > amount )
			{
				amount = v;
				worst = j;
			}
		}
		if ( worst < 0 )
		{
			break;
		}
		w->set[worst] = !w->set[worst];
	}
	return bestViolation;
}

// Gauss-Jordan pivot of the tableau [xb | binv] on row r with the entering column d.
static void cnLemkePivot( int m, cnLemkeWork* w, int r, const double* d )
{
	double* binv = w->binv;
	double* xb = w->xb;
	double* rowR = binv + (size_t)r * (size_t)m;
	double inv = 1.0 / d[r];
	xb[r] *= inv;
	for ( int k = 0; k < m; ++k )
	{
		rowR[k] *= inv;
	}
	for ( int i = 0; i < m; ++i )
	{
		double f = d[i];
		if ( i == r || f == 0.0 )
		{
			continue;
		}
		double* rowI = binv + (size_t)i * (size_t)m;
		for ( int k = 0; k < m; ++k )
		{
			rowI[k] -= f * rowR[k];
		}
		// basic values stay >= 0 in exact arithmetic (the ratio test guarantees it); what goes
		// below is round-off, and a negative value would poison the next ratio tests
		double v = xb[i] - f * xb[r];
		xb[i] = v > 0.0 ? v : 0.0;
	}
}

// d = binv * (column of variable v in [I, -M, -e]), and in mag the sums of the magnitudes of the
// products that make up each entry, the scale of its round-off.
static void cnLemkeColumn( int m, const double* M, const cnLemkeWork* w, int v, double* d, double* mag )
{
	const double* binv = w->binv;
	if ( v < m )
	{
		for ( int i = 0; i < m; ++i )
		{
			d[i] = binv[(size_t)i * (size_t)m + (size_t)v];
			mag[i] = fabs( d[i] );
		}
		return;
	}
	const double* col = v < 2 * m ? M + (size_t)( v - m ) * (size_t)m : NULL;
	for ( int i = 0; i < m; ++i )
	{
		const double* row = binv + (size_t)i * (size_t)m;
		double s = 0.0, a = 0.0;
		for ( int k = 0; k < m; ++k )
		{
			double t = col != NULL ? row[k] * col[k] : row[k];
			s += t;
			a += fabs( t );
		}
		d[i] = -s;
		mag[i] = a;
	}
}

// Whether z0 is basic at a value that is zero up to round-off.
static bool cnLemkeArtificialIsZero( int m, const cnLemkeWork* w )
{
	for ( int i = 0; i < m; ++i )
	{
		if ( w->basis[i] == 2 * m )
		{
			return w->xb[i] <= CN_LEMKE_Z0_TOL;
		}
	}
	return false;
}

// Whether entry i of the entering column is a usable (positive, not round-off) pivot.
static bool cnLemkeUsable( double d, double mag, double tolPivot )
{
	return d > tolPivot && d > CN_LEMKE_CANCEL_TOL * mag;
}

// Lexicographic minimum ratio test: the leaving row for the entering column d, or -1 when no entry
// of d is positive (ray). Prefers z0 when it is among the tied rows, since that ends the method.
static int cnLemkeLeavingRow( int m, const cnLemkeWork* w, const double* d, const double* mag )
{
	double dmax = 0.0;
	for ( int i = 0; i < m; ++i )
	{
		dmax = fmax( dmax, fabs( d[i] ) );
	}
	double tolPivot = CN_LEMKE_PIVOT_TOL * dmax;
	if ( dmax == 0.0 )
	{
		return -1;
	}

	double theta = INFINITY;
	for ( int i = 0; i < m; ++i )
	{
		if ( cnLemkeUsable( d[i], mag[i], tolPivot ) )
		{
			theta = fmin( theta, w->xb[i] / d[i] );
		}
	}
	if ( theta == INFINITY )
	{
		return -1;
	}

	int* ties = w->ties;
	int count = 0;
	double window = CN_LEMKE_TIE_TOL * fmax( theta, 1.0 );
	for ( int i = 0; i < m; ++i )
	{
		if ( cnLemkeUsable( d[i], mag[i], tolPivot ) && w->basis[i] == 2 * m && w->xb[i] - theta * d[i] <= CN_LEMKE_Z0_TOL )
		{
			return i;
		}
	}
	for ( int i = 0; i < m; ++i )
	{
		if ( cnLemkeUsable( d[i], mag[i], tolPivot ) && w->xb[i] / d[i] <= theta + window )
		{
			ties[count++] = i;
		}
	}

	// break ties on the rows of the basis inverse divided by the pivot entry, column by column:
	// the ratio test of the problem with q perturbed by (eps, eps^2, ...)
	for ( int k = 0; k < m && count > 1; ++k )
	{
		double best = INFINITY;
		for ( int t = 0; t < count; ++t )
		{
			int i = ties[t];
			best = fmin( best, w->binv[(size_t)i * (size_t)m + (size_t)k] / d[i] );
		}
		double lexWindow = CN_LEMKE_TIE_TOL * fmax( fabs( best ), 1.0 );
		int kept = 0;
		for ( int t = 0; t < count; ++t )
		{
			int i = ties[t];
			if ( w->binv[(size_t)i * (size_t)m + (size_t)k] / d[i] <= best + lexWindow )
			{
				ties[kept++] = i;
			}
		}
		count = kept;
	}
	return ties[0];
}

// Lemke's method on LCP(M, q) of size m. M (column-major) and q are scaled in place. x receives the
// solution (or the last iterate on failure); pivots, when not NULL, the number of pivots made.
static cnLcpStatus cnLemkeCore( int m, double* M, double* q, double* x, int maxPivots, cnLemkeWork* w, int* pivots )
{
	if ( pivots != NULL )
	{
		*pivots = 0;
	}
	bool trivial = true;
	for ( int i = 0; i < m; ++i )
	{
		x[i] = 0.0;
		trivial = trivial && q[i] >= 0.0;
	}
	if ( trivial )
	{
		return cnLcp_ok;
	}

	if ( maxPivots <= 0 )
	{
		maxPivots = 10 * ( m + 10 );
	}

	// equilibrate columns, then rows, then q, by powers of two
	size_t mm = (size_t)m;
	for ( int j = 0; j < m; ++j )
	{
		double* col = M + (size_t)j * mm;
		double cmax = 0.0;
		for ( int i = 0; i < m; ++i )
		{
			cmax = fmax( cmax, fabs( col[i] ) );
		}
		double s = cnInversePowerOfTwo( cmax );
		w->colScale[j] = s;
		for ( int i = 0; i < m; ++i )
		{
			col[i] *= s;
		}
	}
	for ( int i = 0; i < m; ++i )
	{
		double rmax = 0.0;
		for ( int j = 0; j < m; ++j )
		{
			rmax = fmax( rmax, fabs( M[(size_t)i + (size_t)j * mm] ) );
		}
		w->rowScale[i] = cnInversePowerOfTwo( rmax );
	}
	double qmax = 0.0;
	for ( int i = 0; i < m; ++i )
	{
		double s = w->rowScale[i];
		for ( int j = 0; j < m; ++j )
		{
			M[(size_t)i + (size_t)j * mm] *= s;
		}
		q[i] *= s;
		qmax = fmax( qmax, fabs( q[i] ) );
	}
	double qScale = cnInversePowerOfTwo( qmax );
	for ( int i = 0; i < m; ++i )
	{
		q[i] *= qScale;
	}

	// start from the basis of all w: binv = I, xb = q
	memset( w->binv, 0, mm * mm * sizeof( double ) );
	for ( int i = 0; i < m; ++i )
	{
		w->binv[(size_t)i * mm + (size_t)i] = 1.0;
		w->xb[i] = q[i];
		w->basis[i] = i;
	}

	// z0 enters at the level that makes every w >= 0: the row of the smallest q leaves; among
	// ties the last one, which is the lexicographic choice for the column -e
	int r = 0;
	double qmin = q[0];
	for ( int i = 1; i < m; ++i )
	{
		qmin = fmin( qmin, q[i] );
	}
	for ( int i = 0; i < m; ++i )
	{
		if ( q[i] <= qmin + CN_LEMKE_TIE_TOL )
		{
			r = i;
		}
	}
	double* d = w->d;
	cnLemkeColumn( m, M, w, 2 * m, d, w->mag );
	cnLemkePivot( m, w, r, d );
	int entering = m + r;
	w->basis[r] = 2 * m;

	cnLcpStatus status = cnLcp_maxIterations;
	int count = 1;
	while ( count < maxPivots )
	{
		cnLemkeColumn( m, M, w, entering, d, w->mag );
		r = cnLemkeLeavingRow( m, w, d, w->mag );
		if ( r < 0 )
		{
			// a ray; but when z0 is already zero up to round-off the basis is a solution
			status = cnLemkeArtificialIsZero( m, w ) ? cnLcp_ok : cnLcp_unbounded;
			break;
		}
		cnLemkePivot( m, w, r, d );
		count += 1;
		int leaving = w->basis[r];
		w->basis[r] = entering;
		if ( leaving == 2 * m )
		{
			status = cnLcp_ok;
			break;
		}
		if ( cnLemkeArtificialIsZero( m, w ) )
		{
			// z0 is zero up to round-off: the basis is complementary; pivoting it out would
			// take a pivot of round-off size
			status = cnLcp_ok;
			break;
		}
		// the complement of the variable that left enters next
		entering = leaving < m ? leaving + m : leaving - m;
	}
	if ( pivots != NULL )
	{
		*pivots = count;
	}

	// the solution read from the tableau (scaled), cleaned by one step of iterative refinement on
	// B xb = q with the basis columns taken from the scaled problem
	double* xt = w->xTableau;
	if ( status == cnLcp_ok )
	{
		double* res = d;
		for ( int i = 0; i < m; ++i )
		{
			res[i] = q[i];
		}
		for ( int t = 0; t < m; ++t )
		{
			int v = w->basis[t];
			double xv = w->xb[t];
			if ( v < m )
			{
				res[v] -= xv;
			}
			else if ( v == 2 * m )
			{
				for ( int i = 0; i < m; ++i )
				{
					res[i] += xv;
				}
			}
			else
			{
				const double* col = M + (size_t)( v - m ) * mm;
				for ( int i = 0; i < m; ++i )
				{
					res[i] += col[i] * xv;
				}
			}
		}
		for ( int i = 0; i < m; ++i )
		{
			const double* row = w->binv + (size_t)i * mm;
			double s = 0.0;
			for ( int k = 0; k < m; ++k )
			{
				s += row[k] * res[k];
			}
			double v = w->xb[i] + s;
			w->xb[i] = v > 0.0 ? v : 0.0;
		}
	}
	for ( int j = 0; j < m; ++j )
	{
		xt[j] = 0.0;
	}
	for ( int t = 0; t < m; ++t )
	{
		int v = w->basis[t];
		if ( v >= m && v < 2 * m )
		{
			xt[v - m] = w->xb[t];
		}
	}

	// the complementary set of the final basis, solved directly and repaired if need be
	if ( status != cnLcp_maxIterations )
	{
		double violation = cnLemkeFinish( m, M, q, w, xt );
		if ( status == cnLcp_unbounded && violation <= CN_LEMKE_ACCEPT_TOL )
		{
			// the path came within round-off of a solution before it lost its way
			status = cnLcp_ok;
		}
	}

	// undo the scaling: x = C x' / qScale
	for ( int j = 0; j < m; ++j )
	{
		x[j] = w->colScale[j] * fmax( xt[j], 0.0 ) / qScale;
	}
	return status;
}

cnLcpStatus cnSolveLcpLemke( int n, const double* A, const double* b, double* z, int maxPivots )
{
	if ( n < 0 || ( n > 0 && ( A == NULL || b == NULL || z == NULL ) ) )
	{
		return cnLcp_invalid;
	}
	if ( n == 0 )
	{
		return cnLcp_ok;
	}
	size_t nn = (size_t)n;
	for ( size_t k = 0; k < nn * nn; ++k )
	{
		if ( cnIsFinite( A[k] ) == false )
		{
			return cnLcp_invalid;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( cnIsFinite( b[i] ) == false )
		{
			return cnLcp_invalid;
		}
	}
	if ( nn > SIZE_MAX / ( 4 * sizeof( double ) * nn ) )
	{
		return cnLcp_invalid;
	}

	// one block: a copy of A and b (scaled in place by the core), then the core's scratch
	size_t doubles = nn * nn + nn + cnLemkeDoubles( n );
	size_t bytes = doubles * sizeof( double ) + cnLemkeInts( n ) * sizeof( int );
	double* block = malloc( bytes );
	if ( block == NULL )
	{
		return cnLcp_invalid;
	}
	double* M = block;
	double* q = M + nn * nn;
	memcpy( M, A, nn * nn * sizeof( double ) );
	memcpy( q, b, nn * sizeof( double ) );
	cnLemkeWork work;
	cnLemkeCarve( &work, n, q + nn, (int*)( block + doubles ) );

	cnLcpStatus status = cnLemkeCore( n, M, q, z, maxPivots, &work, NULL );
	free( block );
	return status;
}

// ------------------------------------------------------------------------------------------------
// Boxed LCP
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
		if ( kind == cnBox_friction )
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
		if ( map->kind[i] == cnBox_friction )
		{
			double bound = hi[i] * fmax( z[findex[i]], 0.0 );
			l = -bound;
			h = bound;
		}
		z[i] = fmin( fmax( z[i], l ), h );
	}
}

// Largest violation of the boxed conditions (friction bounds from z itself), relative to the
// problem's scale; 0 for an exact solution.
static double cnBoxViolation( int n, const double* A, const double* b, const double* lo, const double* hi,
							  const int* findex, const double* z )
{
	double zmax = 0.0, amax = 0.0, bmax = 0.0;
	size_t nn = (size_t)n;
	for ( int i = 0; i < n; ++i )
	{
		zmax = fmax( zmax, fabs( z[i] ) );
		bmax = fmax( bmax, fabs( b[i] ) );
	}
	for ( size_t k = 0; k < nn * nn; ++k )
	{
		amax = fmax( amax, fabs( A[k] ) );
	}
	double wScale = bmax + amax * zmax;
	double zScale = zmax;
	if ( wScale == 0.0 )
	{
		wScale = 1.0;
	}
	if ( zScale == 0.0 )
	{
		zScale = 1.0;
	}

	double worst = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		double w = b[i];
		for ( int j = 0; j < n; ++j )
		{
			w += A[(size_t)i + (size_t)j * nn] * z[j];
		}
		double l = lo[i], h = hi[i];
		if ( findex != NULL && findex[i] >= 0 )
		{
			double bound = hi[i] * fmax( z[findex[i]], 0.0 );
			l = -bound;
			h = bound;
		}
		worst = fmax( worst, ( l - z[i] ) / zScale );
		worst = fmax( worst, ( z[i] - h ) / zScale );
		// how far z is from each bound, and how wrong w is if z is taken to sit on it: the
		// smallest of these is the violation (a row is fine at lo with w >= 0, at hi with w <= 0,
		// or anywhere with w = 0)
		double atLo = fmax( ( z[i] - l ) / zScale, fmax( -w, 0.0 ) / wScale );
		double atHi = fmax( ( h - z[i] ) / zScale, fmax( w, 0.0 ) / wScale );
		double inside = fabs( w ) / wScale;
		worst = fmax( worst, fmin( inside, fmin( atLo, atHi ) ) );
	}
	return worst;
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

cnLcpStatus cnSolveBoxedLcp( int n, const double* A, const double* b, const double* lo, const double* hi,
							 const int* findex, double* z, int maxIterations )
{
	if ( n < 0 || ( n > 0 && ( A == NULL || b == NULL || lo == NULL || hi == NULL || z == NULL ) ) )
	{
		return cnLcp_invalid;
	}
	if ( n == 0 )
	{
		return cnLcp_ok;
	}
	size_t nn = (size_t)n;
	for ( size_t k = 0; k < nn * nn; ++k )
	{
		if ( cnIsFinite( A[k] ) == false )
		{
			return cnLcp_invalid;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( cnIsFinite( b[i] ) == false || isnan( lo[i] ) || isnan( hi[i] ) )
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

	// one block for everything: the map, an LCP of at most 3n variables, A Z, the core's scratch
	size_t m3 = 3 * nn;
	size_t doubles = 3 * nn			 // zc, blo, bhi
					 + 2 * nn		 // wc, and the best point of the Gauss-Seidel sweeps after it
					 + nn			 // best z of the attempts
					 + m3			 // x
					 + m3 * m3 + m3	 // M, q
					 + nn * m3		 // AZ
					 + cnLemkeDoubles( (int)m3 );
	size_t ints = 4 * nn + cnLemkeInts( (int)m3 );
	double* block = malloc( doubles * sizeof( double ) + ints * sizeof( int ) );
	if ( block == NULL )
	{
		return cnLcp_invalid;
	}
	cnBoxMap map;
	double* p = block;
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
	int* ip = (int*)( block + doubles );
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
		double violation = cnBoxViolation( n, A, b, lo, hi, findex, z );
		solved = violation <= CN_BOXED_CHECK_TOL;
		if ( violation < bestViolation )
		{
			bestViolation = violation;
			memcpy( zBest, z, nn * sizeof( double ) );
		}
	}

	if ( solved == false )
	{
		// last resort: projected Gauss-Seidel from the closest attempt (w is kept in wc)
		memcpy( z, zBest, nn * sizeof( double ) );
		solved = cnBoxProjectedGaussSeidel( n, A, b, lo, hi, findex, z, wc, bestViolation );
	}
	free( block );
	if ( solved )
	{
		return cnLcp_ok;
	}
	return status == cnLcp_ok ? cnLcp_maxIterations : status;
}
