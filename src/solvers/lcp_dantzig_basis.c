// SPDX-License-Identifier: MIT
// The basis of the Dantzig-style principal pivoting pass of the boxed LCP (the pass itself is in
// lcp_dantzig.c, whose header explains the method; Baraff 1994, the structure of ODE's dLCP by
// R. Smith): the moves of rows between the sets C, L and H, the inverse K^-1 of the clamped block
// K = (A P)_CC that the moves keep up to date, the direction of a step, and the final polish.
//
// K^-1 (nC x nC) is kept explicitly and updated in O(nC^2) per move: a bordering formula when a
// row joins C, the inverse of the Schur complement when one leaves, a Sherman-Morrison update of
// column f when a friction row of normal f is tied or untied. When round-off has grown (the pass
// checks w_C along every direction), K is factorised afresh (LU with partial pivoting) and K^-1
// rebuilt. Pivots that are cancellation noise (a row whose column depends on those of C) are
// refused, so a dependent row never enters C; nothing is regularised.
#include "solvers/lcp_internal.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

// A pivot that keeps less than this fraction of the magnitudes it is computed from is cancellation
// noise: the row depends on those of C. One below CN_DANTZIG_SUSPECT_TOL is computed again from a
// freshly factorised K, since an updated K^-1 carries round-off of that order.
#define CN_DANTZIG_CANCEL_TOL 1e-10
#define CN_DANTZIG_SUSPECT_TOL 1e-6

// A pivot below this fraction of its terms is refused at once, even from an updated K^-1.
#define CN_DANTZIG_DEPENDENT_TOL 1e-13

// A pivot (Schur complement of a row joining C, pivot of a fresh factorisation) must exceed this
// fraction of A's largest diagonal entry; Sherman-Morrison denominators (dimensionless) must
// exceed it in absolute value.
#define CN_DANTZIG_PIVOT_TOL 1e-12

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
bool cnDantzigRefactor( cnDantzig* d )
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
bool cnDantzigRetie( cnDantzig* d, int f, int j, double delta )
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
bool cnDantzigToBound( cnDantzig* d, int k, int side )
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
bool cnDantzigToClamped( cnDantzig* d, int k )
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
void cnDantzigSnap( cnDantzig* d )
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
void cnDantzigDirection( cnDantzig* d, int i, double dir )
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
void cnDantzigRefreshW( cnDantzig* d )
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

// Solves the final sets once more from scratch: z_C from K z_C = -(b + A z_N)_C with a fresh LU,
// tied rows from their normals. zp receives the point; false when K is singular.
bool cnDantzigPolish( cnDantzig* d, double* zp )
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
