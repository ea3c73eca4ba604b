// SPDX-License-Identifier: MIT
// Lemke's complementary pivoting for the standard LCP (cnSolveLcpLemke), and the pivoting core that
// the boxed LCP's fallback (lcp_boxed.c) runs on its reduced problem.
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
// Memory: one malloc/free pair per cnSolveLcpLemke call; the core itself allocates nothing.
#include "solvers/lcp_internal.h"

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

size_t cnLemkeDoubles( int m )
{
	return (size_t)m * (size_t)m + 8 * (size_t)m;
}

size_t cnLemkeInts( int m )
{
	return 3 * (size_t)m;
}

void cnLemkeCarve( cnLemkeWork* w, int m, double* dbl, int* ints )
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

// Equilibrates LCP(M, q) in place by powers of two (exact in floating point): the columns of M,
// then its rows with q, then q alone, so every entry lies in [-1, 1]. The column and row scales go
// to w; returns the scale of q.
static double cnLemkeEquilibrate( int m, double* M, double* q, cnLemkeWork* w )
{
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
	return qScale;
}

// One step of iterative refinement of the basic values of a solution: B xb = q with the basis
// columns taken from the scaled problem (the residual goes in w->d).
static void cnLemkeRefine( int m, const double* M, const double* q, cnLemkeWork* w )
{
	size_t mm = (size_t)m;
	double* res = w->d;
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

// Lemke's method on LCP(M, q) of size m. M (column-major) and q are scaled in place. x receives the
// solution (or the last iterate on failure); pivots, when not NULL, the number of pivots made.
cnLcpStatus cnLemkeCore( int m, double* M, double* q, double* x, int maxPivots, cnLemkeWork* w, int* pivots )
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

	double qScale = cnLemkeEquilibrate( m, M, q, w );

	// start from the basis of all w: binv = I, xb = q
	size_t mm = (size_t)m;
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

	// the solution read from the tableau (scaled), cleaned by one step of iterative refinement
	double* xt = w->xTableau;
	if ( status == cnLcp_ok )
	{
		cnLemkeRefine( m, M, q, w );
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
bool cnLcpInputsFinite( int n, const double* A, const double* b )
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
