// SPDX-License-Identifier: MIT
// Goldfarb-Idnani dual active-set method (Goldfarb & Idnani 1983, "A numerically stable dual method
// for solving strictly convex quadratic programs").
//
// The method starts at the unconstrained minimum x = -G^-1 g0, which is dual feasible, and adds
// violated constraints one at a time, keeping the iterate optimal for the active set A. It never
// factors G again: with G = L L^T and J = L^-T (so J J^T = G^-1), it maintains an orthogonal update
// of J and an upper triangular R with J^T N_A = [R; 0]. Then, for a violated constraint n_p,
//   d = J^T n_p,  z = J2 d2  (primal step direction: changes no active constraint),
//   r = R^-1 d1            (how the active multipliers must change),
// and the step is the shorter of the full step t2 = -s_p / |d2|^2 (constraint p becomes active) and
// the partial step t1 = min u_j / r_j over r_j > 0 (an active multiplier reaches zero: that
// constraint is dropped). A constraint that depends linearly on the active ones has d2 = 0, so only
// the dual step is possible: active constraints are dropped until p becomes independent, or, when
// no multiplier can decrease, no feasible point exists (the method's infeasibility test).
// Adding and dropping constraints update J and R with Givens rotations.
//
// Memory: one malloc/free pair per call holding J, R and a few vectors (2 n^2 + 4 n + p doubles and
// n + p ints). Every loop runs in index order, so results are bit-reproducible.
#include "solvers/qp.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// A constraint counts as violated when s_i < -tol with tol this fraction of |ci0_i| + |n_i| |x|,
// the size of the terms that make up s_i (so round-off in their sum is never read as a violation).
#define CN_QP_FEASIBILITY_TOL 1e-12

// n_p depends linearly on the active constraints when the part of d = J^T n_p outside the active
// span is below this fraction of |d|. Both are measured in the G^-1 norm, so the test does not
// depend on the scale of G or of the constraint.
#define CN_QP_DEPENDENCE_TOL 1e-10

// A dual direction entry r_j counts as positive above this fraction of max |r|.
#define CN_QP_DUAL_TOL 1e-12

typedef struct cnQpWork
{
	int n;
	double* J;	  // n x n column-major
	double* R;	  // n x n column-major, upper triangular in its first iq columns
	double* d;	  // n
	double* z;	  // n
	double* r;	  // n
	double* u;	  // n: multipliers of the active constraints
	double* norm; // p: Euclidean norm of each constraint's normal
	int* active;  // n: active constraint indices, in the order they were added
	int* isActive; // p
	int iq;		  // number of active constraints
} cnQpWork;

// Rotates columns a and b of J: J Q with the rotation that maps (x, y) to (h, 0) when applied as Q^T.
static void cnRotateColumns( double* J, int n, int a, int b, double c, double s )
{
	double* ca = J + (size_t)a * (size_t)n;
	double* cb = J + (size_t)b * (size_t)n;
	for ( int k = 0; k < n; ++k )
	{
		double x = ca[k], y = cb[k];
		ca[k] = c * x + s * y;
		cb[k] = c * y - s * x;
	}
}

// Appends constraint p, whose d = J^T n_p is in w->d: rotates d[iq..n-1] onto d[iq] (updating J)
// and makes d[0..iq] the new last column of R.
static void cnAddConstraint( cnQpWork* w, int p, double up )
{
	int n = w->n;
	double* d = w->d;
	for ( int j = n - 1; j > w->iq; --j )
	{
		double x = d[j - 1], y = d[j];
		if ( y == 0.0 )
		{
			continue;
		}
		double h = hypot( x, y );
		double c = x / h, s = y / h;
		d[j - 1] = h;
		d[j] = 0.0;
		cnRotateColumns( w->J, n, j - 1, j, c, s );
	}
	double* col = w->R + (size_t)w->iq * (size_t)n;
	for ( int i = 0; i <= w->iq; ++i )
	{
		col[i] = d[i];
	}
	for ( int i = w->iq + 1; i < n; ++i )
	{
		col[i] = 0.0;
	}
	w->u[w->iq] = up;
	w->active[w->iq] = p;
	w->isActive[p] = 1;
	w->iq += 1;
}

// Removes the active constraint at position k: deletes column k of R and restores the triangle with
// Givens rotations on consecutive rows (applied to the same columns of J).
static void cnDropConstraint( cnQpWork* w, int k )
{
	int n = w->n;
	double* R = w->R;
	w->isActive[w->active[k]] = 0;
	for ( int j = k; j < w->iq - 1; ++j )
	{
		memcpy( R + (size_t)j * (size_t)n, R + (size_t)( j + 1 ) * (size_t)n, (size_t)n * sizeof( double ) );
		w->u[j] = w->u[j + 1];
		w->active[j] = w->active[j + 1];
	}
	w->iq -= 1;
	int iq = w->iq;
	memset( R + (size_t)iq * (size_t)n, 0, (size_t)n * sizeof( double ) );

	// columns k..iq-1 now have one entry below the diagonal
	for ( int j = k; j < iq; ++j )
	{
		double x = R[(size_t)j + (size_t)j * (size_t)n];
		double y = R[(size_t)( j + 1 ) + (size_t)j * (size_t)n];
		if ( y == 0.0 )
		{
			continue;
		}
		double h = hypot( x, y );
		double c = x / h, s = y / h;
		for ( int col = j; col < iq; ++col )
		{
			double* rc = R + (size_t)col * (size_t)n;
			double a = rc[j], b = rc[j + 1];
			rc[j] = c * a + s * b;
			rc[j + 1] = c * b - s * a;
		}
		R[(size_t)( j + 1 ) + (size_t)j * (size_t)n] = 0.0;
		cnRotateColumns( w->J, n, j, j + 1, c, s );
	}
}

// Largest absolute value of an array.
static double cnMaxAbs( const double* a, size_t count )
{
	double m = 0.0;
	for ( size_t k = 0; k < count; ++k )
	{
		m = fmax( m, fabs( a[k] ) );
	}
	return m;
}

cnQpStatus cnSolveQpGoldfarbIdnani( int n, const double* G, const double* g0, int p, const double* CI,
									const double* ci0, double* x, double* lambda, int maxIterations )
{
	if ( n <= 0 || p < 0 || G == NULL || g0 == NULL || x == NULL ||
		 ( p > 0 && ( CI == NULL || ci0 == NULL || lambda == NULL ) ) )
	{
		return cnQp_invalid;
	}
	size_t nn = (size_t)n, pp = (size_t)p;
	if ( nn > SIZE_MAX / ( 4 * sizeof( double ) * nn ) || pp > SIZE_MAX / ( 4 * sizeof( double ) * nn ) )
	{
		return cnQp_invalid;
	}
	for ( size_t k = 0; k < nn * nn; ++k )
	{
		if ( isfinite( G[k] ) == 0 )
		{
			return cnQp_invalid;
		}
	}
	for ( size_t k = 0; k < nn; ++k )
	{
		if ( isfinite( g0[k] ) == 0 )
		{
			return cnQp_invalid;
		}
	}
	for ( size_t k = 0; k < nn * pp; ++k )
	{
		if ( isfinite( CI[k] ) == 0 )
		{
			return cnQp_invalid;
		}
	}
	for ( size_t k = 0; k < pp; ++k )
	{
		if ( isfinite( ci0[k] ) == 0 )
		{
			return cnQp_invalid;
		}
		lambda[k] = 0.0;
	}
	if ( maxIterations <= 0 )
	{
		maxIterations = 20 * ( n + p ) + 100;
	}

	size_t doubles = 2 * nn * nn + 4 * nn + pp;
	size_t ints = nn + pp;
	double* block = malloc( doubles * sizeof( double ) + ints * sizeof( int ) );
	if ( block == NULL )
	{
		return cnQp_invalid;
	}
	cnQpWork w;
	w.n = n;
	w.J = block;
	w.R = w.J + nn * nn;
	w.d = w.R + nn * nn;
	w.z = w.d + nn;
	w.r = w.z + nn;
	w.u = w.r + nn;
	w.norm = w.u + nn;
	w.active = (int*)( block + doubles );
	w.isActive = w.active + nn;
	w.iq = 0;
	memset( w.isActive, 0, pp * sizeof( int ) );

	// Cholesky G = L L^T from the lower triangle, L stored in R's space
	double* L = w.R;
	memset( L, 0, nn * nn * sizeof( double ) );
	for ( int j = 0; j < n; ++j )
	{
		double s = G[(size_t)j + (size_t)j * nn];
		for ( int k = 0; k < j; ++k )
		{
			double v = L[(size_t)j + (size_t)k * nn];
			s -= v * v;
		}
		if ( s <= 0.0 || isfinite( s ) == 0 )
		{
			free( block );
			return cnQp_invalid;
		}
		double ljj = sqrt( s );
		L[(size_t)j + (size_t)j * nn] = ljj;
		for ( int i = j + 1; i < n; ++i )
		{
			double t = G[(size_t)i + (size_t)j * nn];
			for ( int k = 0; k < j; ++k )
			{
				t -= L[(size_t)i + (size_t)k * nn] * L[(size_t)j + (size_t)k * nn];
			}
			L[(size_t)i + (size_t)j * nn] = t / ljj;
		}
	}

	// J = L^-T: column k of L^-1 solves L y = e_k, and is row k of J
	double* J = w.J;
	memset( J, 0, nn * nn * sizeof( double ) );
	for ( int k = 0; k < n; ++k )
	{
		double* y = w.d;
		for ( int i = 0; i < n; ++i )
		{
			double t = i == k ? 1.0 : 0.0;
			for ( int m = k; m < i; ++m )
			{
				t -= L[(size_t)i + (size_t)m * nn] * y[m];
			}
			y[i] = i < k ? 0.0 : t / L[(size_t)i + (size_t)i * nn];
		}
		for ( int i = k; i < n; ++i )
		{
			J[(size_t)k + (size_t)i * nn] = y[i];
		}
	}
	memset( w.R, 0, nn * nn * sizeof( double ) );

	// unconstrained minimum x = -J J^T g0
	for ( int k = 0; k < n; ++k )
	{
		const double* col = J + (size_t)k * nn;
		double s = 0.0;
		for ( int i = 0; i < n; ++i )
		{
			s += col[i] * g0[i];
		}
		w.d[k] = s;
	}
	for ( int i = 0; i < n; ++i )
	{
		double s = 0.0;
		for ( int k = 0; k < n; ++k )
		{
			s -= J[(size_t)i + (size_t)k * nn] * w.d[k];
		}
		x[i] = s;
	}

	for ( int i = 0; i < p; ++i )
	{
		const double* ni = CI + (size_t)i * nn;
		double s = 0.0;
		for ( int k = 0; k < n; ++k )
		{
			s += ni[k] * ni[k];
		}
		w.norm[i] = sqrt( s );
	}

	cnQpStatus status = cnQp_maxIterations;
	int iterations = 0;
	for ( ;; )
	{
		// step 1: the most violated constraint, measured as a distance (s_i / |n_i|)
		double xnorm = 0.0;
		for ( int k = 0; k < n; ++k )
		{
			xnorm += x[k] * x[k];
		}
		xnorm = sqrt( xnorm );
		int ip = -1;
		double worst = 0.0;
		bool infeasible = false;
		for ( int i = 0; i < p; ++i )
		{
			if ( w.isActive[i] )
			{
				continue;
			}
			const double* ni = CI + (size_t)i * nn;
			double s = ci0[i];
			for ( int k = 0; k < n; ++k )
			{
				s += ni[k] * x[k];
			}
			double tol = CN_QP_FEASIBILITY_TOL * ( fabs( ci0[i] ) + w.norm[i] * xnorm );
			if ( s >= -tol )
			{
				continue;
			}
			if ( w.norm[i] == 0.0 )
			{
				// 0 >= -ci0 > 0: no x satisfies it
				infeasible = true;
				break;
			}
			double distance = s / w.norm[i];
			if ( distance < worst )
			{
				worst = distance;
				ip = i;
			}
		}
		if ( infeasible )
		{
			status = cnQp_infeasible;
			break;
		}
		if ( ip < 0 )
		{
			status = cnQp_ok;
			break;
		}
		if ( iterations >= maxIterations )
		{
			break;
		}

		// step 2: move until constraint ip is active (or proven unsatisfiable)
		const double* np = CI + (size_t)ip * nn;
		double up = 0.0;
		bool added = false;
		while ( added == false && iterations < maxIterations )
		{
			iterations += 1;
			int iq = w.iq;
			double sp = ci0[ip];
			for ( int k = 0; k < n; ++k )
			{
				sp += np[k] * x[k];
			}

			// d = J^T n_p; z = J2 d2; r = R^-1 d1
			for ( int k = 0; k < n; ++k )
			{
				const double* col = J + (size_t)k * nn;
				double s = 0.0;
				for ( int i = 0; i < n; ++i )
				{
					s += col[i] * np[i];
				}
				w.d[k] = s;
			}
			double dnorm2 = 0.0, d2norm2 = 0.0;
			for ( int k = 0; k < n; ++k )
			{
				dnorm2 += w.d[k] * w.d[k];
				if ( k >= iq )
				{
					d2norm2 += w.d[k] * w.d[k];
				}
			}
			for ( int i = 0; i < n; ++i )
			{
				double s = 0.0;
				for ( int k = iq; k < n; ++k )
				{
					s += J[(size_t)i + (size_t)k * nn] * w.d[k];
				}
				w.z[i] = s;
			}
			for ( int i = iq - 1; i >= 0; --i )
			{
				double s = w.d[i];
				for ( int j = i + 1; j < iq; ++j )
				{
					s -= w.R[(size_t)i + (size_t)j * nn] * w.r[j];
				}
				w.r[i] = s / w.R[(size_t)i + (size_t)i * nn];
			}

			// partial step: the first active multiplier to reach zero
			double rmax = cnMaxAbs( w.r, (size_t)iq );
			double t1 = INFINITY;
			int kdrop = -1;
			for ( int j = 0; j < iq; ++j )
			{
				if ( w.r[j] > CN_QP_DUAL_TOL * rmax )
				{
					double t = w.u[j] / w.r[j];
					if ( t < t1 )
					{
						t1 = t;
						kdrop = j;
					}
				}
			}

			// full step: zero when n_p depends on the active constraints
			bool dependent = d2norm2 <= CN_QP_DEPENDENCE_TOL * CN_QP_DEPENDENCE_TOL * dnorm2;
			double t2 = dependent ? INFINITY : -sp / d2norm2;

			if ( t1 == INFINITY && t2 == INFINITY )
			{
				status = cnQp_infeasible;
				break;
			}

			if ( t2 == INFINITY )
			{
				// dual step only: x does not move; drop a constraint and try again
				for ( int j = 0; j < iq; ++j )
				{
					w.u[j] -= t1 * w.r[j];
				}
				up += t1;
				w.u[kdrop] = 0.0;
				cnDropConstraint( &w, kdrop );
				continue;
			}

			double t = fmin( t1, t2 );
			for ( int i = 0; i < n; ++i )
			{
				x[i] += t * w.z[i];
			}
			for ( int j = 0; j < iq; ++j )
			{
				w.u[j] -= t * w.r[j];
			}
			up += t;

			if ( t2 <= t1 )
			{
				// full step: ip joins the active set
				cnAddConstraint( &w, ip, up );
				added = true;
			}
			else
			{
				// partial step: constraint kdrop leaves, ip is still violated
				w.u[kdrop] = 0.0;
				cnDropConstraint( &w, kdrop );
			}
		}
		if ( status == cnQp_infeasible || added == false )
		{
			break;
		}
	}

	for ( int j = 0; j < w.iq; ++j )
	{
		lambda[w.active[j]] = fmax( w.u[j], 0.0 );
	}
	free( block );
	return status;
}
