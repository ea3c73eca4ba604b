// SPDX-License-Identifier: MIT
// Dormand-Prince RK5(4)7M with FSAL, PI step-size control and dense output (Hairer's DOPRI5).
#include "solvers/rk45.h"

#include <math.h>
#include <string.h>

// Butcher tableau of Dormand and Prince (1980). The 5th-order weights are the last row of a, so
// the new state is the 7th stage's argument and k7 = f(t + h, y_new) is the next step's k1.
static const double cnC2 = 1.0 / 5.0, cnC3 = 3.0 / 10.0, cnC4 = 4.0 / 5.0, cnC5 = 8.0 / 9.0;
static const double cnA21 = 1.0 / 5.0;
static const double cnA31 = 3.0 / 40.0, cnA32 = 9.0 / 40.0;
static const double cnA41 = 44.0 / 45.0, cnA42 = -56.0 / 15.0, cnA43 = 32.0 / 9.0;
static const double cnA51 = 19372.0 / 6561.0, cnA52 = -25360.0 / 2187.0, cnA53 = 64448.0 / 6561.0,
					cnA54 = -212.0 / 729.0;
static const double cnA61 = 9017.0 / 3168.0, cnA62 = -355.0 / 33.0, cnA63 = 46732.0 / 5247.0, cnA64 = 49.0 / 176.0,
					cnA65 = -5103.0 / 18656.0;
static const double cnA71 = 35.0 / 384.0, cnA73 = 500.0 / 1113.0, cnA74 = 125.0 / 192.0, cnA75 = -2187.0 / 6784.0,
					cnA76 = 11.0 / 84.0;

// error estimate: the difference of the 5th- and the embedded 4th-order weights
static const double cnE1 = 71.0 / 57600.0, cnE3 = -71.0 / 16695.0, cnE4 = 71.0 / 1920.0, cnE5 = -17253.0 / 339200.0,
					cnE6 = 22.0 / 525.0, cnE7 = -1.0 / 40.0;

// continuous extension of order 4 (Hairer, Norsett, Wanner, II.6, as in DOPRI5's CONTD5)
static const double cnD1 = -12715105075.0 / 11282082432.0, cnD3 = 87487479700.0 / 32700410799.0,
					cnD4 = -10690763975.0 / 1880347072.0, cnD5 = 701980252875.0 / 199316789632.0,
					cnD6 = -1453857185.0 / 822651844.0, cnD7 = 69997945.0 / 29380423.0;

size_t cnRk45_MemorySize( int n )
{
	// y, 7 stages, yNew, yStage, 5 dense vectors
	return (size_t)( n > 0 ? n : 1 ) * 15u;
}

void cnRk45_Init( cnRk45* rk, int n, double* memory, cnOdeFunction* f, void* context, double tol )
{
	memset( rk, 0, sizeof( cnRk45 ) );
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

void cnRk45_Reset( cnRk45* rk, double t, const double* y, double h )
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
static double cnErrorNorm( const cnRk45* rk, double h )
{
	const double* y = rk->y;
	const double* yNew = rk->yNew;
	double* const* k = rk->k;
	double err = 0.0;
	for ( int i = 0; i < rk->n; ++i )
	{
		double e = h * ( cnE1 * k[0][i] + cnE3 * k[2][i] + cnE4 * k[3][i] + cnE5 * k[4][i] + cnE6 * k[5][i] +
						 cnE7 * k[6][i] );
		double scale = rk->atol + rk->rtol * fmax( fabs( y[i] ), fabs( yNew[i] ) );
		double r = fabs( e ) / scale;
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
static void cnTrialStep( cnRk45* rk, double h )
{
	int n = rk->n;
	const double* y = rk->y;
	double* ys = rk->yStage;
	double* const* k = rk->k;
	double t = rk->t;

	for ( int i = 0; i < n; ++i )
	{
		ys[i] = y[i] + h * cnA21 * k[0][i];
	}
	rk->f( t + cnC2 * h, ys, k[1], rk->context );
	for ( int i = 0; i < n; ++i )
	{
		ys[i] = y[i] + h * ( cnA31 * k[0][i] + cnA32 * k[1][i] );
	}
	rk->f( t + cnC3 * h, ys, k[2], rk->context );
	for ( int i = 0; i < n; ++i )
	{
		ys[i] = y[i] + h * ( cnA41 * k[0][i] + cnA42 * k[1][i] + cnA43 * k[2][i] );
	}
	rk->f( t + cnC4 * h, ys, k[3], rk->context );
	for ( int i = 0; i < n; ++i )
	{
		ys[i] = y[i] + h * ( cnA51 * k[0][i] + cnA52 * k[1][i] + cnA53 * k[2][i] + cnA54 * k[3][i] );
	}
	rk->f( t + cnC5 * h, ys, k[4], rk->context );
	for ( int i = 0; i < n; ++i )
	{
		ys[i] = y[i] + h * ( cnA61 * k[0][i] + cnA62 * k[1][i] + cnA63 * k[2][i] + cnA64 * k[3][i] + cnA65 * k[4][i] );
	}
	rk->f( t + h, ys, k[5], rk->context );
	for ( int i = 0; i < n; ++i )
	{
		rk->yNew[i] = y[i] + h * ( cnA71 * k[0][i] + cnA73 * k[2][i] + cnA74 * k[3][i] + cnA75 * k[4][i] +
								   cnA76 * k[5][i] );
	}
	rk->f( t + h, rk->yNew, k[6], rk->context );
	rk->evaluationCount += 6;
}

void cnRk45_Invalidate( cnRk45* rk )
{
	rk->fsal = false;
}

void cnRk45_Prime( cnRk45* rk )
{
	if ( rk->fsal == false )
	{
		rk->f( rk->t, rk->y, rk->k[0], rk->context );
		rk->evaluationCount += 1;
		rk->fsal = true;
	}
}

cnRk45Status cnRk45_Step( cnRk45* rk, double tEnd, double hMax )
{
	const double alpha = 0.2 - 0.75 * rk->beta;
	int n = rk->n;
	cnRk45_Prime( rk );

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
			return cnRk45_underflow;
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
			return cnRk45_accepted;
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

void cnRk45_Interpolate( const cnRk45* rk, double t, double* out )
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

bool cnRk45_Integrate( cnRk45* rk, double tEnd, double hMax )
{
	while ( rk->t < tEnd )
	{
		if ( cnRk45_Step( rk, tEnd, hMax ) != cnRk45_accepted )
		{
			return false;
		}
	}
	return true;
}
