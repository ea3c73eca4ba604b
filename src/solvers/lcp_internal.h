// SPDX-License-Identifier: MIT
// What the LCP solver files share, private to them (the library's interface is lcp.h):
//   lcp_lemke.c          Lemke's complementary pivoting (standard LCP), the core of both public paths,
//   lcp_dantzig.c        the Dantzig-style principal pivoting pass on the boxed LCP (Baraff 1994, ODE's
//                        dLCP), its path, homotopy and driver,
//   lcp_dantzig_basis.c  that pass's basis: the sets C, L, H, the inverse of the clamped block and its
//                        updates, the step direction and the final polish,
//   lcp_boxed.c          the boxed front end: input checks, the Dantzig variants, the reduction to one
//                        standard LCP for Lemke (Stewart-Trinkle / Anitescu-Potra), projected Gauss-Seidel
//                        and the violation measure both paths are judged by.
// Every function here is deterministic and allocates nothing; the callers carve their scratch memory
// out of the one block each public call allocates.
#pragma once

#include "solvers/lcp.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

// A boxed solution is accepted when every condition holds to this fraction of the problem's scale.
#define CN_BOXED_CHECK_TOL 1e-8

// Whether a is a finite number (not NaN, not +-infinity).
static inline bool cnIsFinite( double a )
{
	return isfinite( a ) != 0;
}

// ------------------------------------------------------------------------------------------------
// Lemke (lcp_lemke.c)

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

// Doubles of scratch the Lemke core needs for an LCP of size m.
size_t cnLemkeDoubles( int m );

// Ints of scratch the Lemke core needs for an LCP of size m.
size_t cnLemkeInts( int m );

// Points the arrays of w into dbl (cnLemkeDoubles(m) doubles) and ints (cnLemkeInts(m) ints).
void cnLemkeCarve( cnLemkeWork* w, int m, double* dbl, int* ints );

// Lemke's method on LCP(M, q) of size m, M (column-major) and q scaled in place; x gets the solution.
cnLcpStatus cnLemkeCore( int m, double* M, double* q, double* x, int maxPivots, cnLemkeWork* w, int* pivots );

// True when the n x n matrix A and the vector b hold only finite numbers.
bool cnLcpInputsFinite( int n, const double* A, const double* b );

// ------------------------------------------------------------------------------------------------
// Boxed LCP front end (lcp_boxed.c)

// Largest violation of the boxed conditions (friction bounds from z itself), relative to the scale.
double cnBoxViolation( int n, const double* A, const double* b, const double* lo, const double* hi,
					   const int* findex, const double* z );

// ------------------------------------------------------------------------------------------------
// Dantzig pass, as the front end runs it (lcp_dantzig.c)

// The variants of the pass, tried in this order until one reaches the conditions.
typedef enum cnDantzigVariant
{
	cnDantzigVariant_homotopy,	   // friction bounds frozen as in ODE, then tied by the homotopy
	cnDantzigVariant_tied,		   // friction rows tied to their normals from the start
	cnDantzigVariant_tiedReversed, // the same, friction rows taken last to first
	cnDantzigVariant_count
} cnDantzigVariant;

// Doubles of scratch one Dantzig pass needs for n rows.
size_t cnDantzigDoubles( int n );

// Ints of scratch one Dantzig pass needs for n rows.
size_t cnDantzigInts( int n );

// One Dantzig pass (a cnDantzigVariant) on a validated problem; z gets the best point found.
cnLcpStatus cnBoxedDantzig( int n, const double* A, const double* b, const double* lo, const double* hi,
							const int* findex, double* z, int maxSteps, int variant, double* dbl, int* ints,
							double* violation, int* steps );

// ------------------------------------------------------------------------------------------------
// Dantzig pass, its state (shared by lcp_dantzig.c and lcp_dantzig_basis.c)

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

// Whether a row is taken (its conditions hold and are kept).
static inline bool cnDantzigTaken( int state )
{
	return state == cnDantzig_clamped || state == cnDantzig_lower || state == cnDantzig_upper ||
		   state == cnDantzig_pinned;
}

// The coefficient of tied row j in its normal's direction: -mu on the lower bound, +mu on the
// upper one, 0 when j is not tied (in C, not taken, or not a coupled friction row).
static inline double cnDantzigTie( const cnDantzig* d, int j )
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
static inline double cnDantzigAp( const cnDantzig* d, int r, int k )
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
static inline double cnDantzigTRate( const cnDantzig* d, int k )
{
	return d->active < 0 || d->active == k ? d->tRate : 0.0;
}

// The current bounds of row k. A coupled friction row's are -+b with b = mu z_f + (1 - t) delta_k:
// the friction bound of its normal impulse, plus the offset that the homotopy phase shrinks to zero
// (t = 1 outside that phase).
static inline void cnDantzigBounds( const cnDantzig* d, int k, double* l, double* h )
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
static inline void cnDantzigBoundRates( const cnDantzig* d, int k, double* dl, double* dh )
{
	int f = d->normalOf[k];
	double rate = f >= 0 && d->closed[k] == 0 ? d->mu[k] * d->dz[f] - d->delta[k] * cnDantzigTRate( d, k ) : 0.0;
	*dl = -rate;
	*dh = rate;
}

// The basis (lcp_dantzig_basis.c)

// Rebuilds K^-1 from a fresh LU factorisation of K; false when K is numerically singular.
bool cnDantzigRefactor( cnDantzig* d );

// Friction row j of normal f changed its tie coefficient by delta: updates K^-1 when f is in C.
bool cnDantzigRetie( cnDantzig* d, int f, int j, double delta );

// Puts row k (in C, or being taken) on its lower or upper bound (side), tied if it is a friction row.
bool cnDantzigToBound( cnDantzig* d, int k, int side );

// Moves row k (on a bound, or being taken) into C; false, k left where it was, when K turns singular.
bool cnDantzigToClamped( cnDantzig* d, int k );

// Clamps the rows of C into their bounds and puts tied rows exactly on theirs (round-off of a step).
void cnDantzigSnap( cnDantzig* d );

// The direction dz, dw = A dz of a step: row i driven by dir (i >= 0), or the homotopy (i < 0).
void cnDantzigDirection( cnDantzig* d, int i, double dir );

// Recomputes w = A z + b for the rows taken (after K^-1 was rebuilt, to drop accumulated drift).
void cnDantzigRefreshW( cnDantzig* d );

// Solves the final sets afresh into zp (n doubles); false when K is singular.
bool cnDantzigPolish( cnDantzig* d, double* zp );
