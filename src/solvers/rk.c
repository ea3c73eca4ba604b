// SPDX-License-Identifier: MIT
// Embedded Runge-Kutta pairs: the Dormand-Prince and Cash-Karp tableaux, the stage arithmetic
// they share, and the adaptive Dormand-Prince integrator with FSAL, PI step-size control and
// dense output (Hairer's DOPRI5).
#include "solvers/rk.h"

#include <math.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// tableaux

// Dormand and Prince (1980), with the error weights as DOPRI5 gives them (E1 = 71/57600, ...):
// those are not the rounded differences of the two rounded weight rows, and the integrator's
// results are pinned to DOPRI5's constants. The 5th-order weights are the last row of a, so the
// new state is the 7th stage's argument and k7 = f(t + h, y_new) is the next step's k1.
const cnRkTableau cnRk_dormandPrince = {
	.stages = 7,
	.order = 5,
	.fsal = true,
	.sum = cnRkSum_factored,
	.c = { 0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0 },
	.a = {
		{ 0.0 },
		{ 1.0 / 5.0 },
		{ 3.0 / 40.0, 9.0 / 40.0 },
		{ 44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0 },
		{ 19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0 },
		{ 9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0 },
		{ 35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0 },
	},
	.b = { 35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0.0 },
	.e = { 71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0, -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0 },
};

// Cash and Karp (1990), section 3; Numerical Recipes 16.2. The error weights are written as the
// 5th- less the 4th-order weights: the constant differences round exactly as the subtraction the
// step once made at run time.
const cnRkTableau cnRk_cashKarp = {
	.stages = 6,
	.order = 5,
	.fsal = false,
	.sum = cnRkSum_running,
	.c = { 0.0, 1.0 / 5.0, 3.0 / 10.0, 3.0 / 5.0, 1.0, 7.0 / 8.0 },
	.a = {
		{ 0.0 },
		{ 1.0 / 5.0 },
		{ 3.0 / 40.0, 9.0 / 40.0 },
		{ 3.0 / 10.0, -9.0 / 10.0, 6.0 / 5.0 },
		{ -11.0 / 54.0, 5.0 / 2.0, -70.0 / 27.0, 35.0 / 27.0 },
		{ 1631.0 / 55296.0, 175.0 / 512.0, 575.0 / 13824.0, 44275.0 / 110592.0, 253.0 / 4096.0 },
	},
	.b = { 37.0 / 378.0, 0.0, 250.0 / 621.0, 125.0 / 594.0, 0.0, 512.0 / 1771.0 },
	.e = {
		37.0 / 378.0 - 2825.0 / 27648.0,
		0.0 - 0.0,
		250.0 / 621.0 - 18575.0 / 48384.0,
		125.0 / 594.0 - 13525.0 / 55296.0,
		0.0 - 277.0 / 14336.0,
		512.0 / 1771.0 - 0.25,
	},
};

// ---------------------------------------------------------------------------------------------
// stage arithmetic

// out = y0 + h sum_j w_j k_j (y0 NULL: the sum alone) over count weights, in the tableau's order.
// The loops run term by term over all components, which keeps each component's operations in the
// order the comments give and lets the compiler vectorise them.
static void cnRkCombine( const cnRkTableau* tableau, const double* w, int count, int n, const double* y0, double h,
						 double* const* k, double* out )
{
	if ( tableau->sum == cnRkSum_running )
	{
		// v = y0 (or 0), then v += (h w_j) k_j for every weight, zeros included
		for ( int i = 0; i < n; ++i )
		{
			out[i] = y0 != NULL ? y0[i] : 0.0;
		}
		for ( int j = 0; j < count; ++j )
		{
			double hw = h * w[j];
			for ( int i = 0; i < n; ++i )
			{
				out[i] += hw * k[j][i];
			}
		}
		return;
	}

	// factored: the terms with a nonzero weight, left to right
	int term[CN_RK_MAX_STAGES];
	int terms = 0;
	for ( int j = 0; j < count; ++j )
	{
		if ( w[j] != 0.0 )
		{
			term[terms++] = j;
		}
	}
	if ( terms == 0 )
	{
		// no term: y0 (or 0)
		for ( int i = 0; i < n; ++i )
		{
			out[i] = y0 != NULL ? y0[i] : 0.0;
		}
		return;
	}
	if ( terms == 1 )
	{
		// a lone term is y0 + (h w) k, as DOPRI5 writes its second stage
		double hw = h * w[term[0]];
		const double* kj = k[term[0]];
		for ( int i = 0; i < n; ++i )
		{
			out[i] = y0 != NULL ? y0[i] + hw * kj[i] : hw * kj[i];
		}
		return;
	}
	// start from the first product, not from 0: 0 + (-0) would turn a -0 into +0
	for ( int i = 0; i < n; ++i )
	{
		out[i] = w[term[0]] * k[term[0]][i];
	}
	for ( int t = 1; t < terms; ++t )
	{
		double wj = w[term[t]];
		const double* kj = k[term[t]];
		for ( int i = 0; i < n; ++i )
		{
			out[i] += wj * kj[i];
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		out[i] = y0 != NULL ? y0[i] + h * out[i] : h * out[i];
	}
}

void cnRk_StageState( const cnRkTableau* tableau, int stage, int n, const double* y0, double h, double* const* k,
					  double* out )
{
	cnRkCombine( tableau, tableau->a[stage], stage, n, y0, h, k, out );
}

void cnRk_Solution( const cnRkTableau* tableau, int n, const double* y0, double h, double* const* k, double* out )
{
	cnRkCombine( tableau, tableau->b, tableau->stages, n, y0, h, k, out );
}

void cnRk_Error( const cnRkTableau* tableau, int n, double h, double* const* k, double* out )
{
	cnRkCombine( tableau, tableau->e, tableau->stages, n, NULL, h, k, out );
}

// ---------------------------------------------------------------------------------------------
// adaptive Dormand-Prince integrator

// continuous extension of order 4 (Hairer, Norsett, Wanner, II.6, as in DOPRI5's CONTD5)
static const double cnD1 = -12715105075.0 / 11282082432.0, cnD3 = 87487479700.0 / 32700410799.0,
					cnD4 = -10690763975.0 / 1880347072.0, cnD5 = 701980252875.0 / 199316789632.0,
					cnD6 = -1453857185.0 / 822651844.0, cnD7 = 69997945.0 / 29380423.0;

size_t cnRk_MemorySize( int n )
{
	// y, 7 stages, yNew, yStage, 5 dense vectors
	return (size_t)( n > 0 ? n : 1 ) * 15u;
}

void cnRk_Init( cnRk* rk, int n, double* memory, cnOdeFunction* f, void* context, double tol )
{
	memset( rk, 0, sizeof( cnRk ) );
	rk->n = n;
	rk->f = f;
	rk->context = context;
	rk->rtol = tol;
	rk->atol = tol;
	rk->safety = 0.9;
	rk->minFactor = 0.2;
	rk->maxFactor = 5.0;
	rk->beta = 0.04;
	rk->hMin = 0.0;
	rk->errOld = 1e-4;

	size_t m = (size_t)( n > 0 ? n : 1 );
	double* p = memory;
	rk->y = p, p += m;
	for ( int i = 0; i < 7; ++i )
	{
		rk->k[i] = p, p += m;
	}
	rk->yNew = p, p += m;
	rk->yStage = p, p += m;
	for ( int i = 0; i < 5; ++i )
	{
		rk->dense[i] = p, p += m;
	}
}

void cnRk_Reset( cnRk* rk, double t, const double* y, double h )
{
	rk->t = t;
	if ( rk->y != y )
	{
		memcpy( rk->y, y, (size_t)rk->n * sizeof( double ) );
	}
	rk->h = h;
	rk->fsal = false;
	rk->lastRejected = false;
	rk->errOld = 1e-4;
	rk->hPlanned = 0.0;
}

// Scaled error of the step: the max norm of err_i / (atol + rtol max(|y_i|, |y_new_i|)). The max
// norm rather than Hairer's root mean square, so that one body's error among many is not diluted
// by the number of bodies.
static double cnErrorNorm( const cnRk* rk, double h )
{
	const double* y = rk->y;
	const double* yNew = rk->yNew;
	// the stage state is free once the stages are done: it holds the error estimate
	double* e = rk->yStage;
	cnRk_Error( &cnRk_dormandPrince, rk->n, h, rk->k, e );
	double err = 0.0;
	for ( int i = 0; i < rk->n; ++i )
	{
		double scale = rk->atol + rk->rtol * fmax( fabs( y[i] ), fabs( yNew[i] ) );
		double r = fabs( e[i] ) / scale;
		if ( !( r <= err ) )
		{
			// also catches NaN, which must count as an infinite error
			err = isnan( r ) ? INFINITY : r;
		}
	}
	return err;
}

// The six new stages and the 5th-order solution of one step of size h from (t, y); k[0] holds
// f(t, y) on entry.
static void cnTrialStep( cnRk* rk, double h )
{
	const cnRkTableau* tableau = &cnRk_dormandPrince;
	double* const* k = rk->k;
	double t = rk->t;

	// stages 2 to 6; the 7th stage's argument is the solution itself (FSAL)
	for ( int stage = 1; stage < 6; ++stage )
	{
		cnRk_StageState( tableau, stage, rk->n, rk->y, h, k, rk->yStage );
		rk->f( t + tableau->c[stage] * h, rk->yStage, k[stage], rk->context );
	}
	cnRk_Solution( tableau, rk->n, rk->y, h, k, rk->yNew );
	rk->f( t + h, rk->yNew, k[6], rk->context );
	rk->evaluationCount += 6;
}

void cnRk_Invalidate( cnRk* rk )
{
	rk->fsal = false;
}

void cnRk_Prime( cnRk* rk )
{
	if ( rk->fsal == false )
	{
		rk->f( rk->t, rk->y, rk->k[0], rk->context );
		rk->evaluationCount += 1;
		rk->fsal = true;
	}
}

cnRkStatus cnRk_Step( cnRk* rk, double tEnd, double hMax )
{
	const double alpha = 0.2 - 0.75 * rk->beta;
	int n = rk->n;
	cnRk_Prime( rk );

	double h = rk->h;
	if ( !( h > 0.0 ) || !isfinite( h ) )
	{
		h = hMax;
	}
	h = fmin( h, hMax );
	for ( ;; )
	{
		// land exactly on tEnd: shorten the step, or stretch it by at most 1 % (within hMax) so that
		// no sliver of a step is left over
		double remaining = tEnd - rk->t;
		bool last = false;
		rk->hPlanned = 0.0;
		if ( rk->t + h >= tEnd || ( rk->t + 1.01 * h >= tEnd && remaining <= hMax ) )
		{
			rk->hPlanned = h;
			h = remaining;
			last = true;
		}
		if ( !( h > rk->hMin ) && !( last && h > 0.0 ) )
		{
			return cnRk_underflow;
		}

		cnTrialStep( rk, h );
		double err = cnErrorNorm( rk, h );

		if ( err <= 1.0 )
		{
			// accepted: PI controller, h_new = h / fac with fac = err^alpha / errOld^beta / safety
			double fac = pow( err, alpha ) / pow( rk->errOld, rk->beta ) / rk->safety;
			fac = fmax( 1.0 / rk->maxFactor, fmin( 1.0 / rk->minFactor, fac ) );
			double hNew = h / fac;
			if ( rk->lastRejected )
			{
				hNew = fmin( hNew, h );
			}
			rk->errOld = fmax( err, 1e-4 );
			rk->lastRejected = false;

			// dense output coefficients (before y is overwritten)
			double* const* k = rk->k;
			for ( int i = 0; i < n; ++i )
			{
				double y0 = rk->y[i];
				double y1 = rk->yNew[i];
				double diff = y1 - y0;
				double bspl = h * k[0][i] - diff;
				rk->dense[0][i] = y0;
				rk->dense[1][i] = diff;
				rk->dense[2][i] = bspl;
				rk->dense[3][i] = diff - h * k[6][i] - bspl;
				rk->dense[4][i] = h * ( cnD1 * k[0][i] + cnD3 * k[2][i] + cnD4 * k[3][i] + cnD5 * k[4][i] +
										cnD6 * k[5][i] + cnD7 * k[6][i] );
			}

			rk->tOld = rk->t;
			rk->hLast = h;
			rk->t = last ? tEnd : rk->t + h;
			memcpy( rk->y, rk->yNew, (size_t)n * sizeof( double ) );
			// FSAL: the last stage is f(t_new, y_new)
			double* swap = rk->k[0];
			rk->k[0] = rk->k[6];
			rk->k[6] = swap;
			rk->h = hNew;
			// a step shortened to land on tEnd says little about the step size the solution allows:
			// keep the larger of the proposal before shortening and the new one
			if ( last && rk->hPlanned > hNew )
			{
				rk->h = rk->hPlanned;
			}
			rk->acceptedCount += 1;
			return cnRk_accepted;
		}

		// rejected: shrink, never by less than the safety margin asks, never below minFactor
		rk->rejectedCount += 1;
		rk->lastRejected = true;
		double shrink = 1.0 / rk->minFactor;
		if ( isfinite( err ) )
		{
			shrink = fmin( shrink, pow( err, alpha ) / rk->safety );
		}
		h = h / shrink;
		rk->h = h;
	}
}

void cnRk_Interpolate( const cnRk* rk, double t, double* out )
{
	double theta = rk->hLast > 0.0 ? ( t - rk->tOld ) / rk->hLast : 1.0;
	double theta1 = 1.0 - theta;
	for ( int i = 0; i < rk->n; ++i )
	{
		out[i] = rk->dense[0][i] +
				 theta * ( rk->dense[1][i] +
						   theta1 * ( rk->dense[2][i] + theta * ( rk->dense[3][i] + theta1 * rk->dense[4][i] ) ) );
	}
}

bool cnRk_Integrate( cnRk* rk, double tEnd, double hMax )
{
	while ( rk->t < tEnd )
	{
		if ( cnRk_Step( rk, tEnd, hMax ) != cnRk_accepted )
		{
			return false;
		}
	}
	return true;
}
