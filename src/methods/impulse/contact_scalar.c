// SPDX-License-Identifier: MIT
// The contact kernel on one lane at a time, in plain doubles: the overflow constraints (which may
// share bodies, so they go one after another) and the scalar path.
#include "methods/impulse/contact_wide.h"

typedef double cnW;
typedef bool cnM;

static inline cnW cnW_add( cnW a, cnW b )
{
	return a + b;
}
static inline cnW cnW_sub( cnW a, cnW b )
{
	return a - b;
}
static inline cnW cnW_mul( cnW a, cnW b )
{
	return a * b;
}
static inline cnW cnW_div( cnW a, cnW b )
{
	return a / b;
}
static inline cnW cnW_max( cnW a, cnW b )
{
	return a > b ? a : b;
}
static inline cnW cnW_min( cnW a, cnW b )
{
	return a < b ? a : b;
}
static inline cnW cnW_sqrt( cnW a )
{
	return sqrt( a );
}
static inline cnW cnW_splat( double a )
{
	return a;
}
static inline cnM cnW_gt( cnW a, cnW b )
{
	return a > b;
}
static inline cnM cnW_lt( cnW a, cnW b )
{
	return a < b;
}
static inline cnM cnW_ge( cnW a, cnW b )
{
	return a >= b;
}
static inline cnW cnW_select( cnM m, cnW a, cnW b )
{
	return m ? a : b;
}

#define CN_LD( array ) ( ( array )[lane] )
#define CN_ST( array, value ) ( ( array )[lane] = ( value ) )
#define CN_POINTS( g, lane ) ( ( g )->pointCount[lane] )
#define CN_ACTIVE( g, j, lane ) true
#define CN_SKIP( g, j, lane ) ( ( j ) >= ( g )->pointCount[lane] )
#define CN_COUNT( g, lane ) ( (double)( g )->pointCount[lane] )

#include "methods/impulse/contact_kernel.h"

static inline cnBodyW cnLoadBody( const cnBodyState* s )
{
	return (cnBodyW){ { s->v.x, s->v.y, s->v.z },
					  { s->w.x, s->w.y, s->w.z },
					  { s->dp.x, s->dp.y, s->dp.z },
					  { 2.0 * s->dq.x, 2.0 * s->dq.y, 2.0 * s->dq.z } };
}

static inline void cnGather( const cnBodyState* states, const cnWideGroup* g, int lane, cnBodyW* A, cnBodyW* B )
{
	*A = cnLoadBody( states + g->indexA[lane] );
	*B = cnLoadBody( states + g->indexB[lane] );
}

static inline void cnScatter( cnBodyState* states, const cnWideGroup* g, int lane, const cnBodyW* A, const cnBodyW* B )
{
	// static, sleeping and kinematic bodies take no impulse: their state is never written
	if ( g->writeA[lane] )
	{
		cnBodyState* s = states + g->indexA[lane];
		s->v = cnV3( A->v.x, A->v.y, A->v.z );
		s->w = cnV3( A->w.x, A->w.y, A->w.z );
	}
	if ( g->writeB[lane] )
	{
		cnBodyState* s = states + g->indexB[lane];
		s->v = cnV3( B->v.x, B->v.y, B->v.z );
		s->w = cnV3( B->w.x, B->w.y, B->w.z );
	}
}

void cnWarmStartLane( cnBodyState* states, cnWideGroup* g, int lane )
{
	cnKernelWarmStart( states, g, lane );
}

void cnSolveLane( cnBodyState* states, cnWideGroup* g, int lane, const cnSolvePass* pass )
{
	cnKernelSolve( states, g, lane, pass );
}

void cnPrepareLane( const cnBodyState* states, cnWideGroup* g, int lane, cnPrepareLanes* in )
{
	cnKernelPrepare( states, g, lane, in );
}
