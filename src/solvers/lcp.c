// SPDX-License-Identifier: MIT
// Lemke's complementary pivoting, and the boxed LCP with friction coupling: Dantzig-style principal
// pivoting first, the boxed problem reduced to one standard LCP for Lemke as the fallback.
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
// The boxed LCP is solved by principal pivoting on the boxed problem itself (the Dantzig section
// below); when that cannot reach the conditions, it is reduced to a standard LCP in shifted
// variables and solved by the same Lemke core. Memory: one malloc/free pair per call, nothing else.
#include "solvers/lcp.h"

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
	if ( v == 2 * m )
	{
		// the covering vector e = (1..1)
		for ( int i = 0; i < m; ++i )
		{
			const double* row = binv + (size_t)i * (size_t)m;
			double s = 0.0, a = 0.0;
			for ( int k = 0; k < m; ++k )
			{
				s += row[k];
				a += fabs( row[k] );
			}
			d[i] = -s;
			mag[i] = a;
		}
		return;
	}
	// only the nonzero entries of the column (a third of the reduced boxed LCP's are zero, its
	// sliding-speed columns have two): the same sums, term for term, in the same order (a zero
	// term leaves a finite sum unchanged, so d and mag are bit-identical). Their indices go in
	// w->ties, which only the ratio test after this uses.
	const double* col = M + (size_t)( v - m ) * (size_t)m;
	int* nz = w->ties;
	int count = 0;
	for ( int k = 0; k < m; ++k )
	{
		if ( col[k] != 0.0 )
		{
			nz[count++] = k;
		}
	}
	for ( int i = 0; i < m; ++i )
	{
		const double* row = binv + (size_t)i * (size_t)m;
		double s = 0.0, a = 0.0;
		for ( int t = 0; t < count; ++t )
		{
			int k = nz[t];
			double p = row[k] * col[k];
			s += p;
			a += fabs( p );
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

// True when the n x n matrix A and the vector b hold only finite numbers.
static bool cnLcpInputsFinite( int n, const double* A, const double* b )
{
	size_t nn = (size_t)n;
	for ( size_t k = 0; k < nn * nn; ++k )
	{
		if ( cnIsFinite( A[k] ) == false )
		{
			return false;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( cnIsFinite( b[i] ) == false )
		{
			return false;
		}
	}
	return true;
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
	if ( cnLcpInputsFinite( n, A, b ) == false )
	{
		return cnLcp_invalid;
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

// ------------------------------------------------------------------------------------------------
// Boxed LCP, first path: Dantzig-style principal pivoting with friction coupling
//
// Principal pivoting as in Baraff ("Fast contact force computation for nonpenetrating rigid
// bodies", SIGGRAPH 1994) and ODE's dLCP (R. Smith): rows are taken one at a time, and every row
// taken is in one of three sets:
//   C (clamped):  w_i = 0, z_i anywhere between its bounds,
//   L (lower):    z_i on its lower bound, w_i >= 0,
//   H (upper):    z_i on its upper bound, w_i <= 0;
// rows not taken yet keep their start value (0 clamped into the box) and their w is ignored.
// Taking row i: when (z_i, w_i) already satisfies one of the three, i joins that set; otherwise z_i
// is driven the way that brings w_i to zero (up when w_i < 0), z_C following so that w_C stays
// zero: dz_C = -dir K^-1 (A p_i)_C with K = A_CC. A step ends at the first event: w_i reaches zero
// (i joins C), z_i reaches a bound (i joins L or H), a row of C reaches a bound (it moves to L or
// H, and the drive goes on), or the w of a row in L or H reaches zero (it moves to C, the drive goes
// on). For symmetric positive semidefinite A every drive brings w_i monotonically to zero and the
// pass ends at a solution.
//
// Friction rows (findex f >= 0, bounds -+mu z_f) are taken after all other rows, as in ODE, so
// their normal impulses exist when they are taken. ODE then freezes every friction bound at mu z_f
// of that moment, and its answer misses the coupled conditions by as much as the normals move
// afterwards. Here a friction row on a bound is *tied* to its normal instead, z_j = -+mu z_f, and
// moves with it: the direction p_f of a normal in C is e_f -+ mu e_j for each friction row j tied
// to it, K = (A P)_CC (no longer symmetric), a friction row in C meets bounds that move with z_f,
// and a normal dropping to zero takes its tied rows to zero. Every set keeps the exact conditions
// with the bounds of the current normal impulses, so a pass that ends has solved the coupled
// problem: one solve, no normal-then-friction phases, no fixed-point loop on the bounds. A tied row
// whose normal is zero (bounds [0, 0]) takes the side its w asks for before each step, so it is
// consistent the moment its normal grows. Three variants of the pass are tried in turn:
//   1. homotopy: the ODE pass (friction bounds frozen when the first friction row is taken: a
//      symmetric problem), then every friction row is tied with the offset delta_j = frozen bound -
//      mu z_f, its bound being mu z_f + (1 - t) delta_j, and t is moved from 0 to 1 with the same
//      events (a bound about to go below zero closes, the row fixed at zero, and opens again when
//      it turns positive). At t = 1 the bounds are -+mu z_f exactly. When the path comes back to
//      t = 0, the offsets are removed one row at a time instead, each row's own path.
//   2. tied: every friction row tied from the end of its own drive.
//   3. as 2, the friction rows taken last to first.
// Without friction rows only the first runs, and it is plain Baraff / ODE. With ties the
// monotonicity above is lost (frictional contact is not a P-matrix problem; Baraff 1991 shows it
// NP-hard in general). After an event the path keeps the orientation on which the row that changed
// sets moves into its new set (a row put on a bound sees its w move the allowed way, a row put in
// C moves off its bound), as in Cottle and Dantzig's principal pivoting method, so it may run
// backwards instead of cycling between two sets. A path that comes back to where it started (a
// drive back on its first bound with w_i still of the wrong sign: that friction row is queued again
// behind the others; the homotopy back at t = 0), a ray, the step cap or a singular K ends a pass.
// When no variant reaches the conditions, the Lemke reduction below solves the problem.
//
// Linear algebra: K^-1 (nC x nC) is kept explicitly and updated in O(nC^2) per event: a bordering
// formula when a row joins C, the inverse of the Schur complement when one leaves, a
// Sherman-Morrison update of column f when a friction row of normal f is tied or untied. Every step
// checks that w_C stays zero along the new direction (computed anyway); when it does not
// (round-off grown through many updates), K is factorised afresh (LU with partial pivoting) and
// K^-1 rebuilt. At the end the final sets are solved once more directly (fresh LU) and the point
// with the smaller violation is kept.
//
// Singular A (redundant contacts): a row whose column depends on those of C has a zero Schur
// complement, so its w does not move while it is driven or while it sits in L or H (w_k changes by
// lambda^T dw_C = 0). Round-off turns those zeros into 1e-17; changes of w below CN_DANTZIG_NOISE of
// the magnitudes that make them count as zero, and a pivot that cancels to below
// CN_DANTZIG_CANCEL_TOL of its terms (or CN_DANTZIG_PIVOT_TOL of A's diagonal) is refused, so a
// dependent row never enters C: it stays on its bound, and a row being driven whose w is already
// zero is driven along the null direction to its nearer bound (a box flat on a plane ends with
// three normals in C and the fourth at zero, Baraff's answer). Nothing is regularised: a diagonal
// shift small enough not to disturb the 1e-8 conditions (1e-12 of the diagonal) makes K^-1 grow by
// 1e12 on those rows and spoils every later direction.

// A pivot that keeps less than this fraction of the magnitudes it is computed from is cancellation
// noise: the row depends on those of C. One below CN_DANTZIG_SUSPECT_TOL is computed again from a
// freshly factorised K, since an updated K^-1 carries round-off of that order.
#define CN_DANTZIG_CANCEL_TOL 1e-10
#define CN_DANTZIG_SUSPECT_TOL 1e-6

// A pivot below this fraction of its terms is refused at once, even from an updated K^-1.
#define CN_DANTZIG_DEPENDENT_TOL 1e-13

// Changes of w_k smaller than this fraction of max_j |A_kj| sum |dz| are round-off (a row that
// depends on the rows of C gets 1e-17 instead of 0) and are treated as zero.
#define CN_DANTZIG_NOISE 1e-11

// w_i within this fraction of |b_i| + sum |A_ij z_j| counts as zero when row i is taken.
#define CN_DANTZIG_WTOL 1e-10

// Slopes of the distance to a bound below this fraction of max |dz| are round-off (no event).
#define CN_DANTZIG_SLOPE_TOL 1e-12

// A pivot (Schur complement of a row joining C, pivot of a fresh factorisation) must exceed this
// fraction of A's largest diagonal entry; Sherman-Morrison denominators (dimensionless) must
// exceed it in absolute value.
#define CN_DANTZIG_PIVOT_TOL 1e-12

// Rounds of the one-row-at-a-time homotopy (rows whose path came back are tried again).
#define CN_DANTZIG_ROUNDS 4

// Steps of one Dantzig pass, per row (plus 100): a pass that succeeds takes about two.
#define CN_DANTZIG_STEPS_PER_ROW 5

// w_C may drift by this fraction of max_j |A_kj| sum |dz| along a direction before K^-1 is
// rebuilt from a fresh factorisation.
#define CN_DANTZIG_DRIFT_TOL 1e-9

// The variants of the pass, tried in this order until one reaches the conditions.
typedef enum cnDantzigVariant
{
	cnDantzigVariant_homotopy,	   // friction bounds frozen as in ODE, then tied by the homotopy
	cnDantzigVariant_tied,		   // friction rows tied to their normals from the start
	cnDantzigVariant_tiedReversed, // the same, friction rows taken last to first
	cnDantzigVariant_count
} cnDantzigVariant;

typedef enum cnDantzigState
{
	cnDantzig_pending = 0, // not taken yet: z at its start value, w not maintained
	cnDantzig_clamped,	   // in C: w = 0, z between its bounds
	cnDantzig_lower,	   // on its lower bound (tied to -mu z_f for a friction row), w >= 0
	cnDantzig_upper,	   // on its upper bound (tied to +mu z_f), w <= 0
	cnDantzig_deferredLower, // a friction row whose drive met a dead end: tied to -mu z_f, taken again later
	cnDantzig_deferredUpper, // the same, tied to +mu z_f
	cnDantzig_pinned,		 // a free row whose column depends on those of C: z fixed, w = 0 kept by C
} cnDantzigState;

// Whether a row is taken (its conditions hold and are kept).
static bool cnDantzigTaken( int state )
{
	return state == cnDantzig_clamped || state == cnDantzig_lower || state == cnDantzig_upper ||
		   state == cnDantzig_pinned;
}

// The events that end a step.
typedef enum cnDantzigEvent
{
	cnDantzigEvent_none = 0,
	cnDantzigEvent_driveToC,	 // w_i reached zero
	cnDantzigEvent_driveToLower, // z_i reached its lower bound
	cnDantzigEvent_driveToUpper, // z_i reached its upper bound
	cnDantzigEvent_toLower,		 // a row of C reached its lower bound
	cnDantzigEvent_toUpper,		 // a row of C reached its upper bound
	cnDantzigEvent_toC,			 // the w of a row in L or H reached zero
	cnDantzigEvent_homotopyDone, // t reached 1
	cnDantzigEvent_homotopyBack, // t came back to 0
	cnDantzigEvent_close,		 // the homotopy bound of a tied row reached zero
	cnDantzigEvent_open,		 // ... and turned positive again
} cnDantzigEvent;

typedef struct cnDantzig
{
	int n;
	const double* A;
	const double* b;
	double* z;	   // n: the iterate (the caller's output array)
	double* w;	   // n: A z + b for the rows taken (zero in C up to round-off)
	double* dz;	   // n: direction of the current step (zero outside nz)
	double* dw;	   // n: A dz
	double* lo;	   // n: bounds of the uncoupled rows (frozen friction bounds included)
	double* hi;	   // n
	double* mu;	   // n: friction coefficient of a coupled friction row
	double* arow;  // n: max_j |A_ij|, the scale of the round-off in w_i
	double* delta; // n: offset of a coupled friction row's bound in the homotopy
	double* tk;	   // n: homotopy parameter of each coupled friction row (1 outside the homotopy)
	double* kinv;  // n x n: K^-1 for the nC x nC block K = (A P)_CC, leading dimension n
	double* lu;	   // n x n: fresh LU factorisations of K
	double* u;	   // n: scratch vectors
	double* v;
	double* x;
	double* y;
	int* state;			// n: cnDantzigState
	int* pos;			// n: position in C, or -1
	int* clist;			// n: the rows of C in the order of K's rows and columns
	int* normalOf;		// n: the normal of a coupled friction row while it is tied to it, else -1
	int* coupledNormal; // n: the normal of a coupled friction row, -1 for other rows
	int* closed;		// n: a coupled friction row whose homotopy bound closed at zero
	int* tieStart;		// n + 1: the friction rows of normal f are tieList[tieStart[f] .. tieStart[f + 1])
	int* tieList;		// n
	int* nz;			// n: rows with dz != 0
	int* perm;			// n: pivot rows of lu
	int* order;			// 2n: the queue of rows to take (a row met a dead end is queued again)
	int orderCount;
	int deferrals; // rows queued again
	int nC;
	int nnz;
	double dscale; // largest diagonal entry of A
	int updates;   // rank-one changes of K^-1 since its last fresh factorisation
	int steps;	   // steps of the pass
	int active;	   // the row whose offset the homotopy removes, -1 for all of them at once
	double t;	   // the parameter of the current homotopy
	double tRate;  // dt per unit step along the current direction (0 in a row's drive)
	bool deadEnd;  // the last homotopy came back to its start
} cnDantzig;

static size_t cnDantzigDoubles( int n )
{
	return 2 * (size_t)n * (size_t)n + 15 * (size_t)n;
}

static size_t cnDantzigInts( int n )
{
	return 12 * (size_t)n + 1;
}

// The coefficient of tied row j in its normal's direction: -mu on the lower bound, +mu on the
// upper one, 0 when j is not tied (in C, not taken, or not a coupled friction row).
static double cnDantzigTie( const cnDantzig* d, int j )
{
	if ( d->normalOf[j] < 0 || d->closed[j] )
	{
		return 0.0;
	}
	int st = d->state[j];
	if ( st == cnDantzig_lower || st == cnDantzig_deferredLower )
	{
		return -d->mu[j];
	}
	if ( st == cnDantzig_upper || st == cnDantzig_deferredUpper )
	{
		return d->mu[j];
	}
	return 0.0;
}

// (A p_k)_r: the change of w_r when z_k moves by one and the friction rows tied to k move with it.
static double cnDantzigAp( const cnDantzig* d, int r, int k )
{
	size_t nn = (size_t)d->n;
	double s = d->A[(size_t)r + (size_t)k * nn];
	for ( int t = d->tieStart[k]; t < d->tieStart[k + 1]; ++t )
	{
		int j = d->tieList[t];
		double c = cnDantzigTie( d, j );
		if ( c != 0.0 )
		{
			s += c * d->A[(size_t)r + (size_t)j * nn];
		}
	}
	return s;
}

// The rate at which the homotopy parameter of row k moves along dz (all rows in the global
// homotopy, only the active row in a row's own).
static double cnDantzigTRate( const cnDantzig* d, int k )
{
	return d->active < 0 || d->active == k ? d->tRate : 0.0;
}

// The current bounds of row k. A coupled friction row's are -+b with b = mu z_f + (1 - t) delta_k:
// the friction bound of its normal impulse, plus the offset that the homotopy phase shrinks to zero
// (t = 1 outside that phase).
static void cnDantzigBounds( const cnDantzig* d, int k, double* l, double* h )
{
	int f = d->normalOf[k];
	if ( f >= 0 )
	{
		double bound = d->closed[k] ? 0.0 : fmax( d->mu[k] * d->z[f] + ( 1.0 - d->tk[k] ) * d->delta[k], 0.0 );
		*l = -bound;
		*h = bound;
	}
	else
	{
		*l = d->lo[k];
		*h = d->hi[k];
	}
}

// The rates at which the bounds of row k move along dz (t moves at tRate).
static void cnDantzigBoundRates( const cnDantzig* d, int k, double* dl, double* dh )
{
	int f = d->normalOf[k];
	double rate = f >= 0 && d->closed[k] == 0 ? d->mu[k] * d->dz[f] - d->delta[k] * cnDantzigTRate( d, k ) : 0.0;
	*dl = -rate;
	*dh = rate;
}

// out = K^-1 in (nC entries).
static void cnDantzigApplyInverse( const cnDantzig* d, const double* in, double* out )
{
	int c = d->nC;
	size_t nn = (size_t)d->n;
	for ( int r = 0; r < c; ++r )
	{
		out[r] = 0.0;
	}
	for ( int q = 0; q < c; ++q )
	{
		double s = in[q];
		if ( s == 0.0 )
		{
			continue;
		}
		const double* col = d->kinv + (size_t)q * nn;
		for ( int r = 0; r < c; ++r )
		{
			out[r] += col[r] * s;
		}
	}
}

// LU factorisation with partial pivoting of K = (A P)_CC into d->lu and d->perm. False when a pivot
// is below CN_DANTZIG_PIVOT_TOL of A's diagonal scale (K numerically singular).
static bool cnDantzigFactor( cnDantzig* d )
{
	int c = d->nC;
	size_t nn = (size_t)d->n;
	double* L = d->lu;
	for ( int q = 0; q < c; ++q )
	{
		int k = d->clist[q];
		for ( int r = 0; r < c; ++r )
		{
			L[(size_t)r + (size_t)q * nn] = cnDantzigAp( d, d->clist[r], k );
		}
	}
	for ( int q = 0; q < c; ++q )
	{
		double* colQ = L + (size_t)q * nn;
		int p = q;
		for ( int r = q + 1; r < c; ++r )
		{
			if ( fabs( colQ[r] ) > fabs( colQ[p] ) )
			{
				p = r;
			}
		}
		double piv = colQ[p];
		if ( !( fabs( piv ) > CN_DANTZIG_PIVOT_TOL * d->dscale ) )
		{
			return false;
		}
		d->perm[q] = p;
		if ( p != q )
		{
			for ( int k = 0; k < c; ++k )
			{
				double* col = L + (size_t)k * nn;
				double t = col[q];
				col[q] = col[p];
				col[p] = t;
			}
		}
		double inv = 1.0 / piv;
		for ( int r = q + 1; r < c; ++r )
		{
			colQ[r] *= inv;
		}
		for ( int k = q + 1; k < c; ++k )
		{
			double* col = L + (size_t)k * nn;
			double f = col[q];
			if ( f == 0.0 )
			{
				continue;
			}
			for ( int r = q + 1; r < c; ++r )
			{
				col[r] -= colQ[r] * f;
			}
		}
	}
	return true;
}

// Solves K x = rhs in place with the factorisation in d->lu.
static void cnDantzigLuSolve( const cnDantzig* d, double* x )
{
	int c = d->nC;
	size_t nn = (size_t)d->n;
	const double* L = d->lu;
	for ( int q = 0; q < c; ++q )
	{
		int p = d->perm[q];
		if ( p != q )
		{
			double t = x[q];
			x[q] = x[p];
			x[p] = t;
		}
	}
	for ( int q = 0; q < c; ++q )
	{
		double s = x[q];
		if ( s == 0.0 )
		{
			continue;
		}
		const double* col = L + (size_t)q * nn;
		for ( int r = q + 1; r < c; ++r )
		{
			x[r] -= col[r] * s;
		}
	}
	for ( int q = c - 1; q >= 0; --q )
	{
		const double* col = L + (size_t)q * nn;
		x[q] /= col[q];
		double s = x[q];
		for ( int r = 0; r < q; ++r )
		{
			x[r] -= col[r] * s;
		}
	}
}

// Rebuilds K^-1 from a fresh factorisation of K; false when K is numerically singular.
static bool cnDantzigRefactor( cnDantzig* d )
{
	d->updates = 0;
	if ( cnDantzigFactor( d ) == false )
	{
		return false;
	}
	int c = d->nC;
	size_t nn = (size_t)d->n;
	for ( int q = 0; q < c; ++q )
	{
		double* col = d->kinv + (size_t)q * nn;
		for ( int r = 0; r < c; ++r )
		{
			col[r] = r == q ? 1.0 : 0.0;
		}
		cnDantzigLuSolve( d, col );
	}
	return true;
}

// Appends row k to C: K gains the column u = (A p_k)_C, the row v_q = (A p_{C_q})_k and the corner
// a = (A p_k)_k, and K^-1 the bordered inverse through the Schur complement a - v K^-1 u.
static bool cnDantzigAdd( cnDantzig* d, int k )
{
	int c = d->nC;
	size_t nn = (size_t)d->n;
	double *u = d->u, *v = d->v, *x = d->x, *y = d->y;
	for ( int r = 0; r < c; ++r )
	{
		u[r] = cnDantzigAp( d, d->clist[r], k );
		v[r] = cnDantzigAp( d, k, d->clist[r] );
	}
	double a = cnDantzigAp( d, k, k );
	double sigma = 0.0;
	for ( int attempt = 0;; ++attempt )
	{
		cnDantzigApplyInverse( d, u, x );
		double vx = 0.0;
		for ( int q = 0; q < c; ++q )
		{
			const double* col = d->kinv + (size_t)q * nn;
			double s = 0.0;
			for ( int r = 0; r < c; ++r )
			{
				s += col[r] * v[r];
			}
			y[q] = s;
			vx += v[q] * x[q];
		}
		sigma = a - vx;
		double mag = fabs( a );
		for ( int q = 0; q < c; ++q )
		{
			mag += fabs( v[q] * x[q] );
		}
		// a pivot that keeps little of its terms may be round-off of an updated K^-1: judged again
		// on a fresh one
		if ( attempt == 0 && d->updates > 0 && fabs( sigma ) <= CN_DANTZIG_SUSPECT_TOL * mag &&
			 fabs( sigma ) > CN_DANTZIG_DEPENDENT_TOL * mag )
		{
			if ( cnDantzigRefactor( d ) == false )
			{
				return false;
			}
			continue;
		}
		// refused when tiny against A's diagonal, or when it is round-off left by cancellation (a
		// row that depends on those of C, as it must once C spans A's rank)
		if ( !( fabs( sigma ) > CN_DANTZIG_PIVOT_TOL * d->dscale && fabs( sigma ) > CN_DANTZIG_CANCEL_TOL * mag ) )
		{
			return false;
		}
		break;
	}
	double inv = 1.0 / sigma;
	for ( int q = 0; q < c; ++q )
	{
		double* col = d->kinv + (size_t)q * nn;
		double yq = y[q] * inv;
		if ( yq != 0.0 )
		{
			for ( int r = 0; r < c; ++r )
			{
				col[r] += x[r] * yq;
			}
		}
		col[c] = -yq;
	}
	double* last = d->kinv + (size_t)c * nn;
	for ( int r = 0; r < c; ++r )
	{
		last[r] = -x[r] * inv;
	}
	last[c] = inv;
	d->clist[c] = k;
	d->pos[k] = c;
	d->nC = c + 1;
	d->updates += 1;
	return true;
}

// Removes row k from C: K^-1 of the remaining block is K^-1 minus the outer product of its column
// and row at k over its pivot; the last row of C then takes k's place.
static bool cnDantzigRemove( cnDantzig* d, int k )
{
	int c = d->nC;
	int r = d->pos[k];
	size_t nn = (size_t)d->n;
	double* kinv = d->kinv;
	double p = kinv[(size_t)r + (size_t)r * nn];
	// a tiny pivot means the remaining block is nearly singular: the update would amplify
	// round-off, so the remaining block is factorised afresh instead
	bool fresh = !( fabs( p ) * d->dscale > CN_DANTZIG_PIVOT_TOL );
	if ( fresh == false )
	{
		double *x = d->x, *y = d->y;
		for ( int a = 0; a < c; ++a )
		{
			x[a] = kinv[(size_t)a + (size_t)r * nn];
			y[a] = kinv[(size_t)r + (size_t)a * nn];
		}
		for ( int q = 0; q < c; ++q )
		{
			if ( q == r )
			{
				continue;
			}
			double yq = y[q] / p;
			if ( yq == 0.0 )
			{
				continue;
			}
			double* col = kinv + (size_t)q * nn;
			for ( int a = 0; a < c; ++a )
			{
				col[a] -= x[a] * yq;
			}
		}
		int last = c - 1;
		if ( r != last )
		{
			double* colR = kinv + (size_t)r * nn;
			const double* colLast = kinv + (size_t)last * nn;
			for ( int a = 0; a < c; ++a )
			{
				colR[a] = colLast[a];
			}
			for ( int q = 0; q < c; ++q )
			{
				kinv[(size_t)r + (size_t)q * nn] = kinv[(size_t)last + (size_t)q * nn];
			}
		}
	}
	int last = c - 1;
	d->clist[r] = d->clist[last];
	d->pos[d->clist[r]] = r;
	d->pos[k] = -1;
	d->nC = last;
	d->updates += 1;
	return fresh ? cnDantzigRefactor( d ) : true;
}

// Friction row j of normal f changed its tie coefficient by delta: when f is in C, column f of K
// changes by delta (A e_j)_C, a Sherman-Morrison update of K^-1.
static bool cnDantzigRetie( cnDantzig* d, int f, int j, double delta )
{
	if ( delta == 0.0 || d->state[f] != cnDantzig_clamped )
	{
		return true;
	}
	int c = d->nC;
	int q = d->pos[f];
	size_t nn = (size_t)d->n;
	double *u = d->u, *x = d->x, *y = d->y;
	const double* colJ = d->A + (size_t)j * nn;
	for ( int r = 0; r < c; ++r )
	{
		u[r] = delta * colJ[d->clist[r]];
	}
	cnDantzigApplyInverse( d, u, x );
	double denom = 1.0 + x[q];
	if ( !( fabs( denom ) > CN_DANTZIG_PIVOT_TOL ) )
	{
		return false;
	}
	for ( int a = 0; a < c; ++a )
	{
		y[a] = d->kinv[(size_t)q + (size_t)a * nn] / denom;
	}
	for ( int a = 0; a < c; ++a )
	{
		if ( y[a] == 0.0 )
		{
			continue;
		}
		double* col = d->kinv + (size_t)a * nn;
		for ( int r = 0; r < c; ++r )
		{
			col[r] -= x[r] * y[a];
		}
	}
	d->updates += 1;
	return true;
}

// Puts row k (in C, or being taken) on its lower or upper bound, tied to its normal if it is a
// coupled friction row.
static bool cnDantzigToBound( cnDantzig* d, int k, int side )
{
	if ( d->state[k] == cnDantzig_clamped && cnDantzigRemove( d, k ) == false )
	{
		return false;
	}
	double before = cnDantzigTie( d, k );
	d->state[k] = side;
	double l, h;
	cnDantzigBounds( d, k, &l, &h );
	d->z[k] = side == cnDantzig_lower ? l : h;
	int f = d->normalOf[k];
	if ( f >= 0 )
	{
		return cnDantzigRetie( d, f, k, cnDantzigTie( d, k ) - before );
	}
	// a normal on its bound: the friction rows tied to it stop with it
	for ( int t = d->tieStart[k]; t < d->tieStart[k + 1]; ++t )
	{
		int j = d->tieList[t];
		if ( cnDantzigTie( d, j ) != 0.0 )
		{
			cnDantzigBounds( d, j, &l, &h );
			d->z[j] = cnDantzigTie( d, j ) < 0.0 ? l : h;
		}
	}
	return true;
}

// Moves row k (on a bound, or being taken) into C; a tied friction row leaves its normal's column.
// False when K would become singular; k then stays where it was.
static bool cnDantzigToClamped( cnDantzig* d, int k )
{
	int f = d->normalOf[k];
	int before = d->state[k];
	double tie = cnDantzigTie( d, k );
	if ( f >= 0 && cnDantzigRetie( d, f, k, -tie ) == false )
	{
		return false;
	}
	d->state[k] = cnDantzig_clamped;
	if ( cnDantzigAdd( d, k ) )
	{
		d->w[k] = 0.0;
		return true;
	}
	d->state[k] = before;
	if ( f >= 0 )
	{
		cnDantzigRetie( d, f, k, tie );
	}
	return false;
}

// Round-off after a step: rows of C are clamped into their bounds (normals first, so the friction
// bounds are final), and tied rows are put exactly on theirs.
static void cnDantzigSnap( cnDantzig* d )
{
	int n = d->n;
	for ( int k = 0; k < n; ++k )
	{
		if ( d->state[k] == cnDantzig_clamped && d->normalOf[k] < 0 )
		{
			d->z[k] = fmin( fmax( d->z[k], d->lo[k] ), d->hi[k] );
		}
	}
	for ( int k = 0; k < n; ++k )
	{
		if ( d->normalOf[k] < 0 || d->state[k] == cnDantzig_pending )
		{
			continue;
		}
		double l, h;
		cnDantzigBounds( d, k, &l, &h );
		int st = d->state[k];
		if ( st == cnDantzig_clamped )
		{
			d->z[k] = fmin( fmax( d->z[k], l ), h );
		}
		else
		{
			d->z[k] = st == cnDantzig_lower || st == cnDantzig_deferredLower ? l : h;
		}
	}
}

// The direction of a step, dz and dw = A dz, per unit of the path parameter s. Row drive (i >= 0):
// z_i moves by dir. Homotopy (i < 0): t moves by dir, and each tied row by -+delta dir (its offset
// shrinking). Rows of C follow so that w_C stays zero: dz_C = -K^-1 (A dz_driven)_C, and tied rows
// follow their normals.
static void cnDantzigDirection( cnDantzig* d, int i, double dir )
{
	int n = d->n, c = d->nC;
	size_t nn = (size_t)n;
	for ( int t = 0; t < d->nnz; ++t )
	{
		d->dz[d->nz[t]] = 0.0;
	}
	d->nnz = 0;
	for ( int r = 0; r < c; ++r )
	{
		d->u[r] = 0.0;
	}
	if ( i >= 0 )
	{
		d->tRate = 0.0;
		for ( int r = 0; r < c; ++r )
		{
			d->u[r] = dir * cnDantzigAp( d, d->clist[r], i );
		}
		d->dz[i] = dir;
		d->nz[d->nnz++] = i;
	}
	else
	{
		d->tRate = dir;
		for ( int j = 0; j < n; ++j )
		{
			double tie = cnDantzigTie( d, j );
			if ( tie == 0.0 )
			{
				continue;
			}
			double force = ( tie < 0.0 ? d->delta[j] : -d->delta[j] ) * cnDantzigTRate( d, j );
			d->dz[j] = force;
			d->nz[d->nnz++] = j;
			if ( force != 0.0 )
			{
				const double* col = d->A + (size_t)j * nn;
				for ( int r = 0; r < c; ++r )
				{
					d->u[r] += col[d->clist[r]] * force;
				}
			}
		}
	}
	cnDantzigApplyInverse( d, d->u, d->x );
	int driven = d->nnz;
	for ( int r = 0; r < c; ++r )
	{
		int k = d->clist[r];
		d->dz[k] = -d->x[r];
		d->nz[d->nnz++] = k;
	}
	// tied rows follow their moving normals (in homotopy mode they are listed already)
	int moving = d->nnz;
	for ( int t = 0; t < moving; ++t )
	{
		int k = d->nz[t];
		if ( i < 0 && t < driven )
		{
			continue;
		}
		for ( int s = d->tieStart[k]; s < d->tieStart[k + 1]; ++s )
		{
			int j = d->tieList[s];
			double coef = cnDantzigTie( d, j );
			if ( coef != 0.0 )
			{
				if ( i >= 0 )
				{
					d->nz[d->nnz++] = j;
				}
				d->dz[j] += coef * d->dz[k];
			}
		}
	}
	memset( d->dw, 0, nn * sizeof( double ) );
	for ( int t = 0; t < d->nnz; ++t )
	{
		int k = d->nz[t];
		double s = d->dz[k];
		if ( s == 0.0 )
		{
			continue;
		}
		const double* col = d->A + (size_t)k * nn;
		for ( int r = 0; r < n; ++r )
		{
			d->dw[r] += col[r] * s;
		}
	}
}


// Recomputes w = A z + b for the rows taken (after K^-1 was rebuilt, to drop accumulated drift).
static void cnDantzigRefreshW( cnDantzig* d )
{
	int n = d->n;
	size_t nn = (size_t)n;
	for ( int r = 0; r < n; ++r )
	{
		if ( cnDantzigTaken( d->state[r] ) == false )
		{
			continue;
		}
		if ( d->state[r] == cnDantzig_clamped )
		{
			d->w[r] = 0.0;
			continue;
		}
		double s = d->b[r];
		for ( int j = 0; j < n; ++j )
		{
			s += d->A[(size_t)r + (size_t)j * nn] * d->z[j];
		}
		d->w[r] = s;
	}
}

// Copies the path's homotopy parameter to the rows it moves.
static void cnDantzigSyncT( cnDantzig* d )
{
	if ( d->active >= 0 )
	{
		d->tk[d->active] = d->t;
		return;
	}
	for ( int k = 0; k < d->n; ++k )
	{
		if ( d->coupledNormal[k] >= 0 )
		{
			d->tk[k] = d->t;
		}
	}
}

// Follows one path: the drive of row i (i >= 0) until it joins C, L or H, or the homotopy (i < 0)
// until t reaches 1. Returns cnLcp_ok, or why the pass must stop.
static cnLcpStatus cnDantzigPath( cnDantzig* d, int i, int maxSteps )
{
	int n = d->n;
	size_t nn = (size_t)n;
	bool homotopy = i < 0;
	// the orientation of the path, and the last event that did not end it (its row, and the set
	// it left), which decides the orientation of the next piece
	double dir = 1.0;
	bool fresh = true, wasNull = false, forceNull = false;
	// a row whose move into C was refused (its column depends on those of C, so its w does not
	// really move): left out of the events until the sets change
	int skip = -1;
	int lastEvent = cnDantzigEvent_none, lastWho = -1, lastFrom = cnDantzig_pending;
	if ( homotopy == false && ( d->state[i] == cnDantzig_deferredLower || d->state[i] == cnDantzig_deferredUpper ) )
	{
		// taken again: untied from its normal, it starts from the bound it was left on
		int f = d->normalOf[i];
		double before = cnDantzigTie( d, i );
		d->state[i] = cnDantzig_pending;
		if ( cnDantzigRetie( d, f, i, -before ) == false )
		{
			return cnLcp_maxIterations;
		}
	}
	for ( ;; )
	{
		double wi = 0.0, tolw = 0.0, l = -INFINITY, h = INFINITY;
		bool nullDrive = false;
		if ( homotopy == false )
		{
			// w_i afresh (it is not maintained while i is driven) and its scale
			double ws = fabs( d->b[i] );
			wi = d->b[i];
			for ( int j = 0; j < n; ++j )
			{
				double t = d->A[(size_t)i + (size_t)j * nn] * d->z[j];
				wi += t;
				ws += fabs( t );
			}
			d->w[i] = wi;
			tolw = CN_DANTZIG_WTOL * ws;
			cnDantzigBounds( d, i, &l, &h );
			if ( d->z[i] <= l && wi >= -tolw )
			{
				return cnDantzigToBound( d, i, cnDantzig_lower ) ? cnLcp_ok : cnLcp_maxIterations;
			}
			if ( d->z[i] >= h && wi <= tolw )
			{
				return cnDantzigToBound( d, i, cnDantzig_upper ) ? cnLcp_ok : cnLcp_maxIterations;
			}
			// w_i is zero with z_i between its bounds: i joins C, unless its column depends on those
			// of C (a redundant contact whose w became zero together with the last row that joined
			// C). Then w_i stays zero whatever z_i does, and i is driven along that null direction
			// to its nearer bound instead, where redundant rows end in Baraff's method.
			if ( fabs( wi ) <= tolw || forceNull )
			{
				forceNull = false;
				if ( cnDantzigToClamped( d, i ) )
				{
					return cnLcp_ok;
				}
				d->state[i] = cnDantzig_pending;
				if ( l == -INFINITY && h == INFINITY )
				{
					// a free row has no bound to go to: it stays where it is, its w kept at zero by
					// the rows of C it depends on, and joins C once its w moves
					d->state[i] = cnDantzig_pinned;
					return cnLcp_ok;
				}
				nullDrive = true;
			}
			if ( nullDrive )
			{
				if ( wasNull == false )
				{
					dir = h - d->z[i] < d->z[i] - l ? 1.0 : -1.0;
				}
				wasNull = true;
				lastWho = -1;
			}
			else if ( wasNull || fresh )
			{
				// a fresh drive: towards w_i = 0
				dir = wi < 0.0 ? 1.0 : -1.0;
				wasNull = false;
			}
		}
		else if ( d->t >= 1.0 )
		{
			d->t = 1.0;
			cnDantzigSyncT( d );
			return cnLcp_ok;
		}
		fresh = false;
		if ( d->steps >= maxSteps )
		{
			return cnLcp_maxIterations;
		}
		d->steps += 1;

		// tied rows with zero-width bounds take the side their w asks for, so they are consistent
		// once their normal (in C, free to grow) moves
		for ( int j = 0; j < n; ++j )
		{
			int f = d->normalOf[j];
			int st = d->state[j];
			if ( f < 0 || ( st != cnDantzig_lower && st != cnDantzig_upper ) || d->state[f] != cnDantzig_clamped )
			{
				continue;
			}
			double lj, hj;
			cnDantzigBounds( d, j, &lj, &hj );
			if ( hj != 0.0 )
			{
				continue;
			}
			int want = d->w[j] >= 0.0 ? cnDantzig_lower : cnDantzig_upper;
			if ( want != st )
			{
				double before = cnDantzigTie( d, j );
				d->state[j] = want;
				if ( cnDantzigRetie( d, f, j, cnDantzigTie( d, j ) - before ) == false )
				{
					return cnLcp_maxIterations;
				}
			}
		}

		cnDantzigDirection( d, i, dir );
		double dzsum = 0.0, dzmax = 0.0;
		for ( int t = 0; t < d->nnz; ++t )
		{
			double a = fabs( d->dz[d->nz[t]] );
			dzsum += a;
			dzmax = fmax( dzmax, a );
		}
		if ( homotopy )
		{
			// the scale of a step is that of the offsets' effect, but never below round-off of z
			dzsum = fmax( dzsum, 1e-300 );
		}
		// w_C must stay zero along dz; if it does not, K^-1 has drifted: rebuild it once
		bool drift = false;
		for ( int r = 0; r < d->nC && drift == false; ++r )
		{
			int k = d->clist[r];
			drift = fabs( d->dw[k] ) > CN_DANTZIG_DRIFT_TOL * d->arow[k] * dzsum;
		}
		if ( drift && d->updates > 0 )
		{
			if ( cnDantzigRefactor( d ) == false )
			{
				return cnLcp_maxIterations;
			}
			cnDantzigRefreshW( d );
			d->steps -= 1;
			continue;
		}
		double slopeTol = CN_DANTZIG_SLOPE_TOL * dzmax;

		// The orientation on the new piece of the path: the row that changed sets last must move
		// into its new set (a row put on a bound must see its w move the allowed way, a row put in C
		// must move off its bound). For symmetric positive semidefinite A that is always the way
		// that keeps bringing w_i to zero; with friction ties it may not be (both sets of the row
		// are blocked along the old orientation), and the path then continues backwards as in
		// Cottle and Dantzig's principal pivoting method, instead of cycling between the two sets.
		if ( lastWho >= 0 )
		{
			int k = lastWho;
			double noise = CN_DANTZIG_NOISE * d->arow[k] * dzsum;
			bool flip = false;
			if ( lastEvent == cnDantzigEvent_toLower )
			{
				flip = d->dw[k] < -noise;
			}
			else if ( lastEvent == cnDantzigEvent_toUpper )
			{
				flip = d->dw[k] > noise;
			}
			else if ( lastEvent == cnDantzigEvent_close || lastEvent == cnDantzigEvent_open )
			{
				// a closed bound must stay closed, an opened one open
				double rate = d->mu[k] * d->dz[d->normalOf[k]] - d->delta[k] * cnDantzigTRate( d, k );
				double rateTol = CN_DANTZIG_SLOPE_TOL * ( d->mu[k] * dzmax + fabs( d->delta[k] ) );
				flip = lastEvent == cnDantzigEvent_close ? rate > rateTol : rate < -rateTol;
			}
			else
			{
				double dl, dh;
				cnDantzigBoundRates( d, k, &dl, &dh );
				if ( lastFrom == cnDantzig_lower )
				{
					flip = d->dz[k] - dl < -slopeTol;
				}
				else if ( lastFrom == cnDantzig_upper )
				{
					flip = dh - d->dz[k] < -slopeTol;
				}
			}
			if ( flip )
			{
				dir = -dir;
				d->tRate = -d->tRate;
				for ( int t = 0; t < d->nnz; ++t )
				{
					d->dz[d->nz[t]] = -d->dz[d->nz[t]];
				}
				for ( int r = 0; r < n; ++r )
				{
					d->dw[r] = -d->dw[r];
				}
			}
		}

		// the first event along dz; ties go to the path's own end, then to the lowest row
		double s = INFINITY;
		int event = cnDantzigEvent_none, who = i;
		if ( homotopy )
		{
			s = dir > 0.0 ? 1.0 - d->t : d->t;
			event = dir > 0.0 ? cnDantzigEvent_homotopyDone : cnDantzigEvent_homotopyBack;
		}
		else
		{
			double dwi = d->dw[i];
			if ( nullDrive == false && fabs( dwi ) > CN_DANTZIG_NOISE * d->arow[i] * dzsum && wi * dwi < 0.0 )
			{
				s = -wi / dwi;
				event = cnDantzigEvent_driveToC;
			}
			// z_i against both bounds: a friction row's bounds move with its normal, so the one
			// behind z_i can catch up with it
			double dl, dh;
			cnDantzigBoundRates( d, i, &dl, &dh );
			double slopeHi = dh - d->dz[i], slopeLo = d->dz[i] - dl;
			if ( h < INFINITY && slopeHi < -slopeTol )
			{
				double t = fmax( h - d->z[i], 0.0 ) / -slopeHi;
				if ( t < s )
				{
					s = t;
					event = cnDantzigEvent_driveToUpper;
				}
			}
			if ( l > -INFINITY && slopeLo < -slopeTol )
			{
				double t = fmax( d->z[i] - l, 0.0 ) / -slopeLo;
				if ( t < s )
				{
					s = t;
					event = cnDantzigEvent_driveToLower;
				}
			}
		}
		for ( int k = 0; k < n; ++k )
		{
			int st = d->state[k];
			if ( k == i || k == skip || cnDantzigTaken( st ) == false )
			{
				continue;
			}
			double lk, hk, dl, dh;
			cnDantzigBounds( d, k, &lk, &hk );
			cnDantzigBoundRates( d, k, &dl, &dh );
			if ( st == cnDantzig_clamped )
			{
				double slopeLo = d->dz[k] - dl, slopeHi = dh - d->dz[k];
				if ( lk > -INFINITY && slopeLo < -slopeTol )
				{
					double t = fmax( d->z[k] - lk, 0.0 ) / -slopeLo;
					if ( t < s )
					{
						s = t;
						event = cnDantzigEvent_toLower;
						who = k;
					}
				}
				if ( hk < INFINITY && slopeHi < -slopeTol )
				{
					double t = fmax( hk - d->z[k], 0.0 ) / -slopeHi;
					if ( t < s )
					{
						s = t;
						event = cnDantzigEvent_toUpper;
						who = k;
					}
				}
				continue;
			}
			// the homotopy bound mu z_f + (1 - t) delta of a tied row must not go below zero: it
			// closes there (the row is fixed at zero) and opens again when it turns positive
			if ( homotopy && d->normalOf[k] >= 0 && d->delta[k] != 0.0 )
			{
				int f = d->normalOf[k];
				double raw = d->mu[k] * d->z[f] + ( 1.0 - d->tk[k] ) * d->delta[k];
				double rate = d->mu[k] * d->dz[f] - d->delta[k] * cnDantzigTRate( d, k );
				double rateTol = CN_DANTZIG_SLOPE_TOL * ( d->mu[k] * dzmax + fabs( d->delta[k] ) );
				if ( d->closed[k] == 0 && rate < -rateTol )
				{
					double t = fmax( raw, 0.0 ) / -rate;
					if ( t < s )
					{
						s = t;
						event = cnDantzigEvent_close;
						who = k;
					}
				}
				else if ( d->closed[k] && rate > rateTol )
				{
					double t = fmax( -raw, 0.0 ) / rate;
					if ( t < s )
					{
						s = t;
						event = cnDantzigEvent_open;
						who = k;
					}
				}
			}
			// on a bound: a fixed row never moves, nor does a tied row whose bounds stay [0, 0]
			if ( lk == hk && dh == 0.0 )
			{
				continue;
			}
			double noise = CN_DANTZIG_NOISE * d->arow[k] * dzsum;
			double dwk = d->dw[k];
			if ( st == cnDantzig_lower && dwk < -noise )
			{
				double t = fmax( d->w[k], 0.0 ) / -dwk;
				if ( t < s )
				{
					s = t;
					event = cnDantzigEvent_toC;
					who = k;
				}
			}
			else if ( st == cnDantzig_upper && dwk > noise )
			{
				double t = fmax( -d->w[k], 0.0 ) / dwk;
				if ( t < s )
				{
					s = t;
					event = cnDantzigEvent_toC;
					who = k;
				}
			}
			else if ( st == cnDantzig_pinned && fabs( dwk ) > noise )
			{
				double t = fmax( -d->w[k] / dwk, 0.0 );
				if ( t < s )
				{
					s = t;
					event = cnDantzigEvent_toC;
					who = k;
				}
			}
		}
		if ( event == cnDantzigEvent_none )
		{
			// a ray: nothing stops the drive (no solution along this path)
			return cnLcp_unbounded;
		}

		// take the step
		if ( s > 0.0 )
		{
			for ( int t = 0; t < d->nnz; ++t )
			{
				int k = d->nz[t];
				d->z[k] += s * d->dz[k];
			}
			for ( int r = 0; r < n; ++r )
			{
				if ( cnDantzigTaken( d->state[r] ) || r == i )
				{
					d->w[r] += s * d->dw[r];
				}
			}
			d->t += s * d->tRate;
			cnDantzigSyncT( d );
		}
		if ( event == cnDantzigEvent_homotopyDone )
		{
			d->t = 1.0;
			cnDantzigSyncT( d );
		}
		cnDantzigSnap( d );

		lastEvent = event;
		lastWho = who;
		lastFrom = who >= 0 ? d->state[who] : cnDantzig_pending;
		bool fine = true;
		switch ( event )
		{
			case cnDantzigEvent_homotopyDone:
				for ( int k = 0; k < n; ++k )
				{
					// at t = 1 every bound is mu z_f >= 0 again
					if ( d->closed[k] && d->tk[k] >= 1.0 )
					{
						int f = d->normalOf[k];
						d->closed[k] = 0;
						d->state[k] = d->w[k] >= 0.0 ? cnDantzig_lower : cnDantzig_upper;
						if ( cnDantzigRetie( d, f, k, cnDantzigTie( d, k ) ) == false )
						{
							return cnLcp_maxIterations;
						}
					}
				}
				cnDantzigSnap( d );
				return cnLcp_ok;
			case cnDantzigEvent_homotopyBack:
				// the path came back to where the homotopy started: a dead end
				d->deadEnd = true;
				return cnLcp_maxIterations;
			case cnDantzigEvent_driveToC:
				if ( cnDantzigToClamped( d, i ) )
				{
					return cnLcp_ok;
				}
				// i depends on the rows of C: it goes on along the null direction
				forceNull = true;
				lastWho = -1;
				continue;
			case cnDantzigEvent_driveToLower:
			case cnDantzigEvent_driveToUpper:
			{
				bool lower = event == cnDantzigEvent_driveToLower;
				if ( cnDantzigToBound( d, i, lower ? cnDantzig_lower : cnDantzig_upper ) == false )
				{
					return cnLcp_maxIterations;
				}
				// a path that went backwards may reach a bound with w_i still of the wrong sign: a dead
				// end. A friction row is then left tied on that bound (its w unchecked) and taken
				// again after the rows still queued, whose drives change the sets it meets.
				if ( lower ? d->w[i] >= -tolw : d->w[i] <= tolw )
				{
					return cnLcp_ok;
				}
				if ( d->normalOf[i] < 0 || d->deferrals >= d->n )
				{
					return cnLcp_maxIterations;
				}
				d->state[i] = lower ? cnDantzig_deferredLower : cnDantzig_deferredUpper;
				d->order[d->orderCount++] = i;
				d->deferrals += 1;
				return cnLcp_ok;
			}
			case cnDantzigEvent_close:
			{
				int f = d->normalOf[who];
				fine = cnDantzigRetie( d, f, who, -cnDantzigTie( d, who ) );
				d->closed[who] = 1;
				d->z[who] = 0.0;
				break;
			}
			case cnDantzigEvent_open:
			{
				int f = d->normalOf[who];
				d->closed[who] = 0;
				d->state[who] = d->w[who] >= 0.0 ? cnDantzig_lower : cnDantzig_upper;
				fine = cnDantzigRetie( d, f, who, cnDantzigTie( d, who ) );
				break;
			}
			case cnDantzigEvent_toLower:
				fine = cnDantzigToBound( d, who, cnDantzig_lower );
				break;
			case cnDantzigEvent_toUpper:
				fine = cnDantzigToBound( d, who, cnDantzig_upper );
				break;
			default:
				if ( cnDantzigToClamped( d, who ) == false )
				{
					skip = who;
					lastWho = -1;
					continue;
				}
				break;
		}
		if ( fine == false )
		{
			return cnLcp_maxIterations;
		}
		skip = -1;
		cnDantzigSnap( d );
	}
}

// Solves the final sets once more from scratch: z_C from K z_C = -(b + A z_N)_C with a fresh LU,
// tied rows from their normals. zp receives the point; false when K is singular.
static bool cnDantzigPolish( cnDantzig* d, double* zp )
{
	int n = d->n, c = d->nC;
	size_t nn = (size_t)n;
	memcpy( zp, d->z, nn * sizeof( double ) );
	for ( int r = 0; r < c; ++r )
	{
		int k = d->clist[r];
		zp[k] = 0.0;
		for ( int t = d->tieStart[k]; t < d->tieStart[k + 1]; ++t )
		{
			int j = d->tieList[t];
			if ( cnDantzigTie( d, j ) != 0.0 )
			{
				zp[j] = 0.0;
			}
		}
	}
	double* rhs = d->y;
	for ( int r = 0; r < c; ++r )
	{
		int k = d->clist[r];
		double s = d->b[k];
		for ( int j = 0; j < n; ++j )
		{
			s += d->A[(size_t)k + (size_t)j * nn] * zp[j];
		}
		rhs[r] = -s;
	}
	if ( cnDantzigFactor( d ) == false )
	{
		return false;
	}
	cnDantzigLuSolve( d, rhs );
	for ( int r = 0; r < c; ++r )
	{
		zp[d->clist[r]] = rhs[r];
	}
	for ( int k = 0; k < n; ++k )
	{
		if ( d->state[k] == cnDantzig_clamped && d->normalOf[k] < 0 )
		{
			zp[k] = fmin( fmax( zp[k], d->lo[k] ), d->hi[k] );
		}
	}
	for ( int k = 0; k < n; ++k )
	{
		int f = d->normalOf[k];
		if ( f < 0 )
		{
			continue;
		}
		double bound = d->mu[k] * zp[f];
		double tie = cnDantzigTie( d, k );
		zp[k] = d->state[k] == cnDantzig_clamped ? fmin( fmax( zp[k], -bound ), bound ) : tie * zp[f];
	}
	return true;
}

// The second half of the homotopy variant: unfreezes the friction bounds (every friction row tied
// to its normal, with the offset delta = frozen bound - mu z_f) and takes the offsets to zero,
// all at once, or one row at a time when that path comes back to its start.
static cnLcpStatus cnDantzigHomotopy( cnDantzig* d, int maxSteps )
{
	int n = d->n;
	bool offsets = false;
	for ( int j = 0; j < n; ++j )
	{
		int f = d->coupledNormal[j];
		if ( f < 0 )
		{
			continue;
		}
		d->normalOf[j] = f;
		d->delta[j] = d->hi[j] - d->mu[j] * d->z[f];
		d->lo[j] = -INFINITY;
		d->hi[j] = INFINITY;
		offsets = offsets || d->delta[j] != 0.0;
	}
	if ( offsets == false )
	{
		// the normals did not move since the bounds were frozen: already the coupled solution
		return cnLcp_ok;
	}
	d->t = 0.0;
	cnDantzigSyncT( d );
	if ( cnDantzigRefactor( d ) == false )
	{
		return cnLcp_maxIterations;
	}
	cnDantzigRefreshW( d );
	d->deadEnd = false;
	cnLcpStatus status = cnDantzigPath( d, -1, maxSteps );
	if ( d->deadEnd == false )
	{
		return status;
	}

	// one offset at a time, each its own path; a row whose path comes back is tried again after
	// the others, for a few rounds while some succeed
	status = cnLcp_maxIterations;
	for ( int round = 0; round < CN_DANTZIG_ROUNDS; ++round )
	{
		bool left = false, progress = false;
		for ( int j = 0; j < n; ++j )
		{
			if ( d->coupledNormal[j] < 0 || d->tk[j] >= 1.0 )
			{
				continue;
			}
			if ( d->delta[j] == 0.0 )
			{
				d->tk[j] = 1.0;
				continue;
			}
			d->active = j;
			d->t = d->tk[j];
			d->deadEnd = false;
			cnLcpStatus rowStatus = cnDantzigPath( d, -1, maxSteps );
			if ( rowStatus == cnLcp_ok )
			{
				progress = true;
			}
			else if ( d->deadEnd )
			{
				left = true;
			}
			else
			{
				d->active = -1;
				return rowStatus;
			}
		}
		if ( left == false )
		{
			status = cnLcp_ok;
			break;
		}
		if ( progress == false )
		{
			break;
		}
	}
	d->active = -1;
	return status;
}

// The Dantzig pass on a validated problem. z receives the best point found; *violation its
// largest violation of the boxed conditions; *steps the steps taken. Scratch: cnDantzigDoubles(n)
// doubles and cnDantzigInts(n) ints.
static cnLcpStatus cnBoxedDantzig( int n, const double* A, const double* b, const double* lo, const double* hi,
								   const int* findex, double* z, int maxSteps, int variant, double* dbl, int* ints,
								   double* violation, int* steps )
{
	size_t nn = (size_t)n;
	cnDantzig d;
	d.n = n;
	d.A = A;
	d.b = b;
	d.z = z;
	d.kinv = dbl;
	d.lu = d.kinv + nn * nn;
	d.w = d.lu + nn * nn;
	d.dz = d.w + nn;
	d.dw = d.dz + nn;
	d.lo = d.dw + nn;
	d.hi = d.lo + nn;
	d.mu = d.hi + nn;
	d.arow = d.mu + nn;
	d.u = d.arow + nn;
	d.v = d.u + nn;
	d.x = d.v + nn;
	d.y = d.x + nn;
	d.delta = d.y + nn;
	d.tk = d.delta + nn;
	double* zp = d.tk + nn;
	d.state = ints;
	d.pos = d.state + nn;
	d.clist = d.pos + nn;
	d.normalOf = d.clist + nn;
	d.coupledNormal = d.normalOf + nn;
	d.closed = d.coupledNormal + nn;
	d.tieList = d.closed + nn;
	d.nz = d.tieList + nn;
	d.perm = d.nz + nn;
	d.order = d.perm + nn;
	d.tieStart = d.order + 2 * nn;
	d.nC = 0;
	d.nnz = 0;
	d.updates = 0;
	d.steps = 0;
	d.t = 1.0;
	d.tRate = 0.0;
	d.active = -1;
	d.deadEnd = false;

	// row kinds: a friction row with mu > 0 and a normal that can move is coupled; one with mu = 0
	// or a fixed normal has the constant box -+mu lo_f
	d.dscale = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		d.normalOf[i] = -1;
		d.coupledNormal[i] = -1;
		d.closed[i] = 0;
		d.mu[i] = 0.0;
		d.delta[i] = 0.0;
		d.tk[i] = 1.0;
		d.lo[i] = lo[i];
		d.hi[i] = hi[i];
		if ( findex != NULL && findex[i] >= 0 )
		{
			int f = findex[i];
			if ( hi[i] > 0.0 && lo[f] < hi[f] )
			{
				d.coupledNormal[i] = f;
				d.mu[i] = hi[i];
				d.lo[i] = -INFINITY;
				d.hi[i] = INFINITY;
			}
			else
			{
				d.lo[i] = -hi[i] * lo[f];
				d.hi[i] = hi[i] * lo[f];
			}
		}
		double amax = 0.0;
		for ( int j = 0; j < n; ++j )
		{
			amax = fmax( amax, fabs( A[(size_t)i + (size_t)j * nn] ) );
		}
		d.arow[i] = amax;
		d.dscale = fmax( d.dscale, fabs( A[(size_t)i + (size_t)i * nn] ) );
		d.state[i] = cnDantzig_pending;
		d.pos[i] = -1;
		d.dz[i] = 0.0;
		d.z[i] = d.coupledNormal[i] >= 0 ? 0.0 : fmin( fmax( 0.0, d.lo[i] ), d.hi[i] );
	}
	if ( d.dscale == 0.0 )
	{
		d.dscale = 1.0;
	}
	// the friction rows of each normal, in index order
	for ( int i = 0; i <= n; ++i )
	{
		d.tieStart[i] = 0;
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( d.coupledNormal[i] >= 0 )
		{
			d.tieStart[d.coupledNormal[i] + 1] += 1;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		d.tieStart[i + 1] += d.tieStart[i];
	}
	for ( int i = 0; i < n; ++i )
	{
		d.pos[i] = d.tieStart[i];
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( d.coupledNormal[i] >= 0 )
		{
			d.tieList[d.pos[d.coupledNormal[i]]++] = i;
		}
	}
	int count = 0;
	for ( int i = 0; i < n; ++i )
	{
		d.pos[i] = -1;
		if ( d.coupledNormal[i] < 0 )
		{
			d.order[count++] = i;
		}
	}
	int firstFriction = count;
	for ( int t = 0; t < n; ++t )
	{
		int i = variant == cnDantzigVariant_tiedReversed ? n - 1 - t : t;
		if ( d.coupledNormal[i] >= 0 )
		{
			d.order[count++] = i;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		double s = b[i];
		for ( int j = 0; j < n; ++j )
		{
			s += A[(size_t)i + (size_t)j * nn] * z[j];
		}
		d.w[i] = s;
	}


	cnLcpStatus status = cnLcp_ok;
	d.orderCount = count;
	d.deferrals = 0;
	for ( int t = 0; t < d.orderCount && status == cnLcp_ok; ++t )
	{
		if ( t == firstFriction )
		{
			for ( int j = 0; j < n; ++j )
			{
				int f = d.coupledNormal[j];
				if ( f < 0 )
				{
					continue;
				}
				if ( variant != cnDantzigVariant_homotopy )
				{
					// tied from the start
					d.normalOf[j] = f;
				}
				else
				{
					// frozen at the normal impulses so far (ODE), the gap closed by the homotopy
					d.lo[j] = -d.mu[j] * d.z[f];
					d.hi[j] = d.mu[j] * d.z[f];
				}
			}
		}
		status = cnDantzigPath( &d, d.order[t], maxSteps );
	}
	if ( status == cnLcp_ok && variant == cnDantzigVariant_homotopy && firstFriction < count )
	{
		status = cnDantzigHomotopy( &d, maxSteps );
	}
	*steps = d.steps;
	if ( status != cnLcp_ok )
	{
		*violation = INFINITY;
		return status;
	}

	// the final sets solved afresh; the better of the two points is kept
	double v = cnBoxViolation( n, A, b, lo, hi, findex, z );
	if ( cnDantzigPolish( &d, zp ) )
	{
		double vp = cnBoxViolation( n, A, b, lo, hi, findex, zp );
		if ( vp < v )
		{
			v = vp;
			memcpy( z, zp, nn * sizeof( double ) );
		}
	}
	*violation = v;
	return v <= CN_BOXED_CHECK_TOL ? cnLcp_ok : cnLcp_maxIterations;
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
