// SPDX-License-Identifier: MIT
// The boxed LCP's first path: Dantzig-style principal pivoting with friction coupling
// (cnBoxedDantzig, one pass per variant, run by the front end in lcp_boxed.c). This file holds the
// pass: its driver, the path of one row's drive or of the homotopy, step by step, and the homotopy;
// the basis it pivots on (the sets, K^-1 and its updates, the step direction, the polish) is in
// lcp_dantzig_basis.c.
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
// When no variant reaches the conditions, the Lemke reduction (lcp_boxed.c) solves the problem.
//
// Linear algebra (lcp_dantzig_basis.c): K^-1 (nC x nC) is kept explicitly and updated in O(nC^2)
// per event: a bordering formula when a row joins C, the inverse of the Schur complement when one
// leaves, a Sherman-Morrison update of column f when a friction row of normal f is tied or untied.
// Every step checks that w_C stays zero along the new direction (computed anyway); when it does not
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
#include "solvers/lcp_internal.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

// Changes of w_k smaller than this fraction of max_j |A_kj| sum |dz| are round-off (a row that
// depends on the rows of C gets 1e-17 instead of 0) and are treated as zero.
#define CN_DANTZIG_NOISE 1e-11

// w_i within this fraction of |b_i| + sum |A_ij z_j| counts as zero when row i is taken.
#define CN_DANTZIG_WTOL 1e-10

// Slopes of the distance to a bound below this fraction of max |dz| are round-off (no event).
#define CN_DANTZIG_SLOPE_TOL 1e-12

// Rounds of the one-row-at-a-time homotopy (rows whose path came back are tried again).
#define CN_DANTZIG_ROUNDS 4

// w_C may drift by this fraction of max_j |A_kj| sum |dz| along a direction before K^-1 is
// rebuilt from a fresh factorisation.
#define CN_DANTZIG_DRIFT_TOL 1e-9

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

// Where a path stands between its steps, and the step it is taking.
typedef struct cnDantzigPathState
{
	int i;		   // the row driven, -1 for the homotopy
	bool homotopy; // i < 0
	// the orientation of the path, and the last event that did not end it (its row, and the set
	// it left), which decides the orientation of the next piece
	double dir;
	int lastEvent, lastWho, lastFrom;
	bool fresh;		// no step taken yet
	bool wasNull;	// the last piece drove i along a null direction
	bool forceNull; // i's move into C was refused: the next piece drives it along the null direction
	// a row whose move into C was refused (its column depends on those of C, so its w does not
	// really move): left out of the events until the sets change
	int skip;
	// the driven row at the start of the piece: w_i, the tolerance within which it counts as zero,
	// the bounds of z_i, and whether i is driven along a null direction (w_i does not move)
	double wi, tolw, l, h;
	bool nullDrive;
	// the scale of the direction: sum and largest |dz|, and the slope of a distance to a bound below
	// which the bound does not move
	double dzsum, dzmax, slopeTol;
	// the first event along the direction: its step length, kind and row
	double s;
	int event, who;
	cnLcpStatus status; // how the path ended
} cnDantzigPathState;

// What a stage of a step leaves for the path.
typedef enum cnDantzigNext
{
	cnDantzigNext_goOn,		 // the step goes on
	cnDantzigNext_nextPiece, // the path starts its next piece afresh
	cnDantzigNext_end,		 // the path ends, with p->status
} cnDantzigNext;

// Ends the path with status.
static cnDantzigNext cnDantzigEnd( cnDantzigPathState* p, cnLcpStatus status )
{
	p->status = status;
	return cnDantzigNext_end;
}

// The start of a piece of row i's drive: w_i afresh, then either i joins a set at once (the path
// ends) or it is driven, and which way.
static cnDantzigNext cnDantzigDriveStart( cnDantzig* d, cnDantzigPathState* p )
{
	int n = d->n;
	size_t nn = (size_t)n;
	int i = p->i;
	p->nullDrive = false;
	// w_i afresh (it is not maintained while i is driven) and its scale
	double ws = fabs( d->b[i] );
	double wi = d->b[i];
	for ( int j = 0; j < n; ++j )
	{
		double t = d->A[(size_t)i + (size_t)j * nn] * d->z[j];
		wi += t;
		ws += fabs( t );
	}
	d->w[i] = wi;
	double tolw = CN_DANTZIG_WTOL * ws;
	double l, h;
	cnDantzigBounds( d, i, &l, &h );
	p->wi = wi;
	p->tolw = tolw;
	p->l = l;
	p->h = h;
	if ( d->z[i] <= l && wi >= -tolw )
	{
		return cnDantzigEnd( p, cnDantzigToBound( d, i, cnDantzig_lower ) ? cnLcp_ok : cnLcp_maxIterations );
	}
	if ( d->z[i] >= h && wi <= tolw )
	{
		return cnDantzigEnd( p, cnDantzigToBound( d, i, cnDantzig_upper ) ? cnLcp_ok : cnLcp_maxIterations );
	}
	// w_i is zero with z_i between its bounds: i joins C, unless its column depends on those
	// of C (a redundant contact whose w became zero together with the last row that joined
	// C). Then w_i stays zero whatever z_i does, and i is driven along that null direction
	// to its nearer bound instead, where redundant rows end in Baraff's method.
	if ( fabs( wi ) <= tolw || p->forceNull )
	{
		p->forceNull = false;
		if ( cnDantzigToClamped( d, i ) )
		{
			return cnDantzigEnd( p, cnLcp_ok );
		}
		d->state[i] = cnDantzig_pending;
		if ( l == -INFINITY && h == INFINITY )
		{
			// a free row has no bound to go to: it stays where it is, its w kept at zero by
			// the rows of C it depends on, and joins C once its w moves
			d->state[i] = cnDantzig_pinned;
			return cnDantzigEnd( p, cnLcp_ok );
		}
		p->nullDrive = true;
	}
	if ( p->nullDrive )
	{
		if ( p->wasNull == false )
		{
			p->dir = h - d->z[i] < d->z[i] - l ? 1.0 : -1.0;
		}
		p->wasNull = true;
		p->lastWho = -1;
	}
	else if ( p->wasNull || p->fresh )
	{
		// a fresh drive: towards w_i = 0
		p->dir = wi < 0.0 ? 1.0 : -1.0;
		p->wasNull = false;
	}
	return cnDantzigNext_goOn;
}

// Tied rows with zero-width bounds take the side their w asks for, so they are consistent once
// their normal (in C, free to grow) moves. False when K turns singular.
static bool cnDantzigSettleClosedTies( cnDantzig* d )
{
	int n = d->n;
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
				return false;
			}
		}
	}
	return true;
}

// The direction of the step and its scale. w_C must stay zero along dz; when it does not, K^-1
// has drifted: it is rebuilt and the piece starts again (the step is not counted).
static cnDantzigNext cnDantzigStepDirection( cnDantzig* d, cnDantzigPathState* p )
{
	cnDantzigDirection( d, p->i, p->dir );
	double dzsum = 0.0, dzmax = 0.0;
	for ( int t = 0; t < d->nnz; ++t )
	{
		double a = fabs( d->dz[d->nz[t]] );
		dzsum += a;
		dzmax = fmax( dzmax, a );
	}
	if ( p->homotopy )
	{
		// the scale of a step is that of the offsets' effect, but never below round-off of z
		dzsum = fmax( dzsum, 1e-300 );
	}
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
			return cnDantzigEnd( p, cnLcp_maxIterations );
		}
		cnDantzigRefreshW( d );
		d->steps -= 1;
		return cnDantzigNext_nextPiece;
	}
	p->dzsum = dzsum;
	p->dzmax = dzmax;
	p->slopeTol = CN_DANTZIG_SLOPE_TOL * dzmax;
	return cnDantzigNext_goOn;
}

// The rate at which the homotopy bound mu z_f + (1 - t) delta of tied row k moves along dz, and in
// *tol the rate below which it counts as still.
static double cnDantzigOffsetRate( const cnDantzig* d, int k, double dzmax, double* tol )
{
	*tol = CN_DANTZIG_SLOPE_TOL * ( d->mu[k] * dzmax + fabs( d->delta[k] ) );
	return d->mu[k] * d->dz[d->normalOf[k]] - d->delta[k] * cnDantzigTRate( d, k );
}

// Whether the row that changed sets last (p->lastWho >= 0) would move back out of its new set
// along dz: a row put on a bound must see its w move the allowed way, a row put in C must move off
// its bound, a closed homotopy bound must stay closed and an opened one open.
static bool cnDantzigLeavesNewSet( const cnDantzig* d, const cnDantzigPathState* p )
{
	int k = p->lastWho;
	int lastEvent = p->lastEvent;
	double noise = CN_DANTZIG_NOISE * d->arow[k] * p->dzsum;
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
		double rateTol;
		double rate = cnDantzigOffsetRate( d, k, p->dzmax, &rateTol );
		flip = lastEvent == cnDantzigEvent_close ? rate > rateTol : rate < -rateTol;
	}
	else
	{
		double dl, dh;
		cnDantzigBoundRates( d, k, &dl, &dh );
		if ( p->lastFrom == cnDantzig_lower )
		{
			flip = d->dz[k] - dl < -p->slopeTol;
		}
		else if ( p->lastFrom == cnDantzig_upper )
		{
			flip = dh - d->dz[k] < -p->slopeTol;
		}
	}
	return flip;
}

// Turns the path around: the opposite orientation, dz and dw negated.
static void cnDantzigReverse( cnDantzig* d, cnDantzigPathState* p )
{
	p->dir = -p->dir;
	d->tRate = -d->tRate;
	for ( int t = 0; t < d->nnz; ++t )
	{
		d->dz[d->nz[t]] = -d->dz[d->nz[t]];
	}
	for ( int r = 0; r < d->n; ++r )
	{
		d->dw[r] = -d->dw[r];
	}
}

// The event at step length t becomes the first one when it comes strictly before the first so far
// (ties go to the earlier candidate: the path's own end, then the lowest row).
static void cnDantzigCandidate( cnDantzigPathState* p, double t, int event, int who )
{
	if ( t < p->s )
	{
		p->s = t;
		p->event = event;
		p->who = who;
	}
}

// A distance gap (>= 0 up to round-off) that shrinks at the rate -slope, when that rate exceeds
// tol: a candidate event at step length max(gap, 0) / -slope.
static void cnDantzigGapEvent( cnDantzigPathState* p, double gap, double slope, double tol, int event, int who )
{
	if ( slope < -tol )
	{
		cnDantzigCandidate( p, fmax( gap, 0.0 ) / -slope, event, who );
	}
}

// The path's own end along dz: t reaching 1 or back at 0 in the homotopy; in a drive, w_i reaching
// zero or z_i reaching a bound.
static void cnDantzigOwnEvent( const cnDantzig* d, cnDantzigPathState* p )
{
	int i = p->i;
	p->s = INFINITY;
	p->event = cnDantzigEvent_none;
	p->who = i;
	if ( p->homotopy )
	{
		p->s = p->dir > 0.0 ? 1.0 - d->t : d->t;
		p->event = p->dir > 0.0 ? cnDantzigEvent_homotopyDone : cnDantzigEvent_homotopyBack;
		return;
	}
	double wi = p->wi, dwi = d->dw[i];
	if ( p->nullDrive == false && fabs( dwi ) > CN_DANTZIG_NOISE * d->arow[i] * p->dzsum && wi * dwi < 0.0 )
	{
		p->s = -wi / dwi;
		p->event = cnDantzigEvent_driveToC;
	}
	// z_i against both bounds: a friction row's bounds move with its normal, so the one
	// behind z_i can catch up with it
	double dl, dh;
	cnDantzigBoundRates( d, i, &dl, &dh );
	double slopeHi = dh - d->dz[i], slopeLo = d->dz[i] - dl;
	if ( p->h < INFINITY )
	{
		cnDantzigGapEvent( p, p->h - d->z[i], slopeHi, p->slopeTol, cnDantzigEvent_driveToUpper, i );
	}
	if ( p->l > -INFINITY )
	{
		cnDantzigGapEvent( p, d->z[i] - p->l, slopeLo, p->slopeTol, cnDantzigEvent_driveToLower, i );
	}
}

// The events of taken row k (not the driven one) along dz: a row of C reaching a bound, the
// homotopy bound of a tied row closing or opening, the w of a row on a bound (or pinned) reaching
// zero.
static void cnDantzigRowEvents( const cnDantzig* d, cnDantzigPathState* p, int k )
{
	int st = d->state[k];
	double lk, hk, dl, dh;
	cnDantzigBounds( d, k, &lk, &hk );
	cnDantzigBoundRates( d, k, &dl, &dh );
	if ( st == cnDantzig_clamped )
	{
		double slopeLo = d->dz[k] - dl, slopeHi = dh - d->dz[k];
		if ( lk > -INFINITY )
		{
			cnDantzigGapEvent( p, d->z[k] - lk, slopeLo, p->slopeTol, cnDantzigEvent_toLower, k );
		}
		if ( hk < INFINITY )
		{
			cnDantzigGapEvent( p, hk - d->z[k], slopeHi, p->slopeTol, cnDantzigEvent_toUpper, k );
		}
		return;
	}
	// the homotopy bound mu z_f + (1 - t) delta of a tied row must not go below zero: it
	// closes there (the row is fixed at zero) and opens again when it turns positive
	if ( p->homotopy && d->normalOf[k] >= 0 && d->delta[k] != 0.0 )
	{
		int f = d->normalOf[k];
		double raw = d->mu[k] * d->z[f] + ( 1.0 - d->tk[k] ) * d->delta[k];
		double rateTol;
		double rate = cnDantzigOffsetRate( d, k, p->dzmax, &rateTol );
		if ( d->closed[k] == 0 )
		{
			cnDantzigGapEvent( p, raw, rate, rateTol, cnDantzigEvent_close, k );
		}
		else
		{
			cnDantzigGapEvent( p, -raw, -rate, rateTol, cnDantzigEvent_open, k );
		}
	}
	// on a bound: a fixed row never moves, nor does a tied row whose bounds stay [0, 0]
	if ( lk == hk && dh == 0.0 )
	{
		return;
	}
	double noise = CN_DANTZIG_NOISE * d->arow[k] * p->dzsum;
	double dwk = d->dw[k];
	if ( st == cnDantzig_lower )
	{
		cnDantzigGapEvent( p, d->w[k], dwk, noise, cnDantzigEvent_toC, k );
	}
	else if ( st == cnDantzig_upper )
	{
		cnDantzigGapEvent( p, -d->w[k], -dwk, noise, cnDantzigEvent_toC, k );
	}
	else if ( st == cnDantzig_pinned && fabs( dwk ) > noise )
	{
		cnDantzigCandidate( p, fmax( -d->w[k] / dwk, 0.0 ), cnDantzigEvent_toC, k );
	}
}

// The first event along dz into p->s, p->event and p->who (cnDantzigEvent_none: nothing stops the
// step).
static void cnDantzigFirstEvent( const cnDantzig* d, cnDantzigPathState* p )
{
	cnDantzigOwnEvent( d, p );
	for ( int k = 0; k < d->n; ++k )
	{
		if ( k == p->i || k == p->skip || cnDantzigTaken( d->state[k] ) == false )
		{
			continue;
		}
		cnDantzigRowEvents( d, p, k );
	}
}

// Moves along dz to the first event, then snaps the round-off of the step.
static void cnDantzigTakeStep( cnDantzig* d, const cnDantzigPathState* p )
{
	int n = d->n;
	double s = p->s;
	if ( s > 0.0 )
	{
		for ( int t = 0; t < d->nnz; ++t )
		{
			int k = d->nz[t];
			d->z[k] += s * d->dz[k];
		}
		for ( int r = 0; r < n; ++r )
		{
			if ( cnDantzigTaken( d->state[r] ) || r == p->i )
			{
				d->w[r] += s * d->dw[r];
			}
		}
		d->t += s * d->tRate;
		cnDantzigSyncT( d );
	}
	if ( p->event == cnDantzigEvent_homotopyDone )
	{
		d->t = 1.0;
		cnDantzigSyncT( d );
	}
	cnDantzigSnap( d );
}

// The homotopy reached t = 1: every bound is mu z_f >= 0 again, and a closed one opens on the side
// its w asks for.
static cnLcpStatus cnDantzigHomotopyDone( cnDantzig* d )
{
	for ( int k = 0; k < d->n; ++k )
	{
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
}

// The driven row reached its lower (lower true) or upper bound and goes there. A path that went
// backwards may reach a bound with w_i still of the wrong sign: a dead end. A friction row is then
// left tied on that bound (its w unchecked) and taken again after the rows still queued, whose
// drives change the sets it meets.
static cnLcpStatus cnDantzigDriveOnBound( cnDantzig* d, const cnDantzigPathState* p, bool lower )
{
	int i = p->i;
	if ( cnDantzigToBound( d, i, lower ? cnDantzig_lower : cnDantzig_upper ) == false )
	{
		return cnLcp_maxIterations;
	}
	if ( lower ? d->w[i] >= -p->tolw : d->w[i] <= p->tolw )
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

// What the first event does: the path's own end ends it (the driven row joins a set, the homotopy
// reaches t = 1 or comes back to 0); a row that changes sets is moved and the path goes on.
static cnDantzigNext cnDantzigHandleEvent( cnDantzig* d, cnDantzigPathState* p )
{
	int event = p->event, who = p->who;
	p->lastEvent = event;
	p->lastWho = who;
	p->lastFrom = who >= 0 ? d->state[who] : cnDantzig_pending;
	bool fine = true;
	switch ( event )
	{
		case cnDantzigEvent_homotopyDone:
			return cnDantzigEnd( p, cnDantzigHomotopyDone( d ) );
		case cnDantzigEvent_homotopyBack:
			// the path came back to where the homotopy started: a dead end
			d->deadEnd = true;
			return cnDantzigEnd( p, cnLcp_maxIterations );
		case cnDantzigEvent_driveToC:
			if ( cnDantzigToClamped( d, p->i ) )
			{
				return cnDantzigEnd( p, cnLcp_ok );
			}
			// i depends on the rows of C: it goes on along the null direction
			p->forceNull = true;
			p->lastWho = -1;
			return cnDantzigNext_nextPiece;
		case cnDantzigEvent_driveToLower:
		case cnDantzigEvent_driveToUpper:
			return cnDantzigEnd( p, cnDantzigDriveOnBound( d, p, event == cnDantzigEvent_driveToLower ) );
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
				p->skip = who;
				p->lastWho = -1;
				return cnDantzigNext_nextPiece;
			}
			break;
	}
	if ( fine == false )
	{
		return cnDantzigEnd( p, cnLcp_maxIterations );
	}
	p->skip = -1;
	cnDantzigSnap( d );
	return cnDantzigNext_goOn;
}

// Follows one path: the drive of row i (i >= 0) until it joins C, L or H, or the homotopy (i < 0)
// until t reaches 1. Returns cnLcp_ok, or why the pass must stop. Each step: the start of the piece
// (the driven row may join a set at once), its direction, its orientation, the first event along
// it, the step to that event, and what the event does.
static cnLcpStatus cnDantzigPath( cnDantzig* d, int i, int maxSteps )
{
	cnDantzigPathState p = {
		.i = i,
		.homotopy = i < 0,
		.dir = 1.0,
		.fresh = true,
		.lastEvent = cnDantzigEvent_none,
		.lastWho = -1,
		.lastFrom = cnDantzig_pending,
		.skip = -1,
		.l = -INFINITY,
		.h = INFINITY,
		.status = cnLcp_ok,
	};
	if ( p.homotopy == false && ( d->state[i] == cnDantzig_deferredLower || d->state[i] == cnDantzig_deferredUpper ) )
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
		if ( p.homotopy == false )
		{
			if ( cnDantzigDriveStart( d, &p ) == cnDantzigNext_end )
			{
				return p.status;
			}
		}
		else if ( d->t >= 1.0 )
		{
			d->t = 1.0;
			cnDantzigSyncT( d );
			return cnLcp_ok;
		}
		p.fresh = false;
		if ( d->steps >= maxSteps )
		{
			return cnLcp_maxIterations;
		}
		d->steps += 1;

		if ( cnDantzigSettleClosedTies( d ) == false )
		{
			return cnLcp_maxIterations;
		}
		cnDantzigNext next = cnDantzigStepDirection( d, &p );
		if ( next == cnDantzigNext_end )
		{
			return p.status;
		}
		if ( next == cnDantzigNext_nextPiece )
		{
			continue;
		}

		// The orientation on the new piece of the path: the row that changed sets last must move
		// into its new set. For symmetric positive semidefinite A that is always the way that keeps
		// bringing w_i to zero; with friction ties it may not be (both sets of the row are blocked
		// along the old orientation), and the path then continues backwards as in Cottle and
		// Dantzig's principal pivoting method, instead of cycling between the two sets.
		if ( p.lastWho >= 0 && cnDantzigLeavesNewSet( d, &p ) )
		{
			cnDantzigReverse( d, &p );
		}

		cnDantzigFirstEvent( d, &p );
		if ( p.event == cnDantzigEvent_none )
		{
			// a ray: nothing stops the drive (no solution along this path)
			return cnLcp_unbounded;
		}
		cnDantzigTakeStep( d, &p );
		if ( cnDantzigHandleEvent( d, &p ) == cnDantzigNext_end )
		{
			return p.status;
		}
	}
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

size_t cnDantzigDoubles( int n )
{
	return 2 * (size_t)n * (size_t)n + 15 * (size_t)n;
}

size_t cnDantzigInts( int n )
{
	return 12 * (size_t)n + 1;
}

// Points the arrays of the pass into its scratch (dbl: cnDantzigDoubles(n) doubles, ints:
// cnDantzigInts(n) ints) and starts it with nothing taken. Returns the n doubles left for the
// polished point.
static double* cnDantzigCarve( cnDantzig* d, int n, const double* A, const double* b, double* z, double* dbl, int* ints )
{
	size_t nn = (size_t)n;
	d->n = n;
	d->A = A;
	d->b = b;
	d->z = z;
	d->kinv = dbl;
	d->lu = d->kinv + nn * nn;
	d->w = d->lu + nn * nn;
	d->dz = d->w + nn;
	d->dw = d->dz + nn;
	d->lo = d->dw + nn;
	d->hi = d->lo + nn;
	d->mu = d->hi + nn;
	d->arow = d->mu + nn;
	d->u = d->arow + nn;
	d->v = d->u + nn;
	d->x = d->v + nn;
	d->y = d->x + nn;
	d->delta = d->y + nn;
	d->tk = d->delta + nn;
	d->state = ints;
	d->pos = d->state + nn;
	d->clist = d->pos + nn;
	d->normalOf = d->clist + nn;
	d->coupledNormal = d->normalOf + nn;
	d->closed = d->coupledNormal + nn;
	d->tieList = d->closed + nn;
	d->nz = d->tieList + nn;
	d->perm = d->nz + nn;
	d->order = d->perm + nn;
	d->tieStart = d->order + 2 * nn;
	d->nC = 0;
	d->nnz = 0;
	d->updates = 0;
	d->steps = 0;
	d->t = 1.0;
	d->tRate = 0.0;
	d->active = -1;
	d->deadEnd = false;
	return d->tk + nn;
}

// The kind, bounds and start value of every row, and the scales of A. A friction row with mu > 0
// and a normal that can move is coupled; one with mu = 0 or a fixed normal has the constant box
// -+mu lo_f.
static void cnDantzigRows( cnDantzig* d, const double* lo, const double* hi, const int* findex )
{
	int n = d->n;
	size_t nn = (size_t)n;
	const double* A = d->A;
	d->dscale = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		d->normalOf[i] = -1;
		d->coupledNormal[i] = -1;
		d->closed[i] = 0;
		d->mu[i] = 0.0;
		d->delta[i] = 0.0;
		d->tk[i] = 1.0;
		d->lo[i] = lo[i];
		d->hi[i] = hi[i];
		if ( findex != NULL && findex[i] >= 0 )
		{
			int f = findex[i];
			if ( hi[i] > 0.0 && lo[f] < hi[f] )
			{
				d->coupledNormal[i] = f;
				d->mu[i] = hi[i];
				d->lo[i] = -INFINITY;
				d->hi[i] = INFINITY;
			}
			else
			{
				d->lo[i] = -hi[i] * lo[f];
				d->hi[i] = hi[i] * lo[f];
			}
		}
		double amax = 0.0;
		for ( int j = 0; j < n; ++j )
		{
			amax = fmax( amax, fabs( A[(size_t)i + (size_t)j * nn] ) );
		}
		d->arow[i] = amax;
		d->dscale = fmax( d->dscale, fabs( A[(size_t)i + (size_t)i * nn] ) );
		d->state[i] = cnDantzig_pending;
		d->pos[i] = -1;
		d->dz[i] = 0.0;
		d->z[i] = d->coupledNormal[i] >= 0 ? 0.0 : fmin( fmax( 0.0, d->lo[i] ), d->hi[i] );
	}
	if ( d->dscale == 0.0 )
	{
		d->dscale = 1.0;
	}
}

// The friction rows of each normal in index order, and the queue of rows to take: the other rows
// first, then the friction rows (last to first in the reversed variant). Returns where the
// friction rows start in the queue, whose length goes to d->orderCount.
static int cnDantzigQueue( cnDantzig* d, int variant )
{
	int n = d->n;
	// the friction rows of each normal, in index order
	for ( int i = 0; i <= n; ++i )
	{
		d->tieStart[i] = 0;
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( d->coupledNormal[i] >= 0 )
		{
			d->tieStart[d->coupledNormal[i] + 1] += 1;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		d->tieStart[i + 1] += d->tieStart[i];
	}
	for ( int i = 0; i < n; ++i )
	{
		d->pos[i] = d->tieStart[i];
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( d->coupledNormal[i] >= 0 )
		{
			d->tieList[d->pos[d->coupledNormal[i]]++] = i;
		}
	}
	int count = 0;
	for ( int i = 0; i < n; ++i )
	{
		d->pos[i] = -1;
		if ( d->coupledNormal[i] < 0 )
		{
			d->order[count++] = i;
		}
	}
	int firstFriction = count;
	for ( int t = 0; t < n; ++t )
	{
		int i = variant == cnDantzigVariant_tiedReversed ? n - 1 - t : t;
		if ( d->coupledNormal[i] >= 0 )
		{
			d->order[count++] = i;
		}
	}
	d->orderCount = count;
	return firstFriction;
}

// The friction rows once the first of them is taken: tied to their normals from then on, or in the
// homotopy variant frozen at the normal impulses so far (ODE), the gap closed by the homotopy.
static void cnDantzigStartFriction( cnDantzig* d, int variant )
{
	for ( int j = 0; j < d->n; ++j )
	{
		int f = d->coupledNormal[j];
		if ( f < 0 )
		{
			continue;
		}
		if ( variant != cnDantzigVariant_homotopy )
		{
			d->normalOf[j] = f;
		}
		else
		{
			d->lo[j] = -d->mu[j] * d->z[f];
			d->hi[j] = d->mu[j] * d->z[f];
		}
	}
}

// The Dantzig pass on a validated problem. z receives the best point found; *violation its
// largest violation of the boxed conditions; *steps the steps taken. Scratch: cnDantzigDoubles(n)
// doubles and cnDantzigInts(n) ints.
cnLcpStatus cnBoxedDantzig( int n, const double* A, const double* b, const double* lo, const double* hi,
							const int* findex, double* z, int maxSteps, int variant, double* dbl, int* ints,
							double* violation, int* steps )
{
	size_t nn = (size_t)n;
	cnDantzig d;
	double* zp = cnDantzigCarve( &d, n, A, b, z, dbl, ints );
	cnDantzigRows( &d, lo, hi, findex );
	int firstFriction = cnDantzigQueue( &d, variant );
	int count = d.orderCount;
	for ( int i = 0; i < n; ++i )
	{
		double s = b[i];
		for ( int j = 0; j < n; ++j )
		{
			s += A[(size_t)i + (size_t)j * nn] * z[j];
		}
		d.w[i] = s;
	}

	// the rows in the order of the queue, which a row that met a dead end joins again
	cnLcpStatus status = cnLcp_ok;
	d.deferrals = 0;
	for ( int t = 0; t < d.orderCount && status == cnLcp_ok; ++t )
	{
		if ( t == firstFriction )
		{
			cnDantzigStartFriction( &d, variant );
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

// Largest violation of the boxed conditions (friction bounds from z itself), relative to the
// problem's scale; 0 for an exact solution.
double cnBoxViolation( int n, const double* A, const double* b, const double* lo, const double* hi,
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
