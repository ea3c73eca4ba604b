// SPDX-License-Identifier: MIT
// The contact kernel on four constraints at once with SSE2 (two registers of two doubles per value):
// the path of x86-64 processors without AVX2.
#include "methods/impulse/contact_wide.h"

#if defined( __SSE2__ )

#include <emmintrin.h>

typedef struct cnW
{
	__m128d lo, hi;
} cnW;
typedef cnW cnM;

#define CN_PAIRWISE( name, op )                                                                                        \
	static inline cnW name( cnW a, cnW b )                                                                             \
	{                                                                                                                  \
		return (cnW){ op( a.lo, b.lo ), op( a.hi, b.hi ) };                                                            \
	}
CN_PAIRWISE( cnW_add, _mm_add_pd )
CN_PAIRWISE( cnW_sub, _mm_sub_pd )
CN_PAIRWISE( cnW_mul, _mm_mul_pd )
CN_PAIRWISE( cnW_div, _mm_div_pd )
// maxpd returns its second operand unless the first is greater: a > b ? a : b, NaN included
CN_PAIRWISE( cnW_max, _mm_max_pd )
// minpd: a < b ? a : b
CN_PAIRWISE( cnW_min, _mm_min_pd )
CN_PAIRWISE( cnW_gt, _mm_cmpgt_pd )
CN_PAIRWISE( cnW_lt, _mm_cmplt_pd )

static inline cnW cnW_sqrt( cnW a )
{
	return (cnW){ _mm_sqrt_pd( a.lo ), _mm_sqrt_pd( a.hi ) };
}
static inline cnW cnW_splat( double a )
{
	return (cnW){ _mm_set1_pd( a ), _mm_set1_pd( a ) };
}
// m ? a : b by the bits of the mask (SSE2 has no blend)
static inline cnW cnW_select( cnM m, cnW a, cnW b )
{
	return (cnW){ _mm_or_pd( _mm_and_pd( m.lo, a.lo ), _mm_andnot_pd( m.lo, b.lo ) ),
				  _mm_or_pd( _mm_and_pd( m.hi, a.hi ), _mm_andnot_pd( m.hi, b.hi ) ) };
}
static inline cnW cnW_load( const double* p )
{
	return (cnW){ _mm_loadu_pd( p ), _mm_loadu_pd( p + 2 ) };
}
static inline void cnW_store( double* p, cnW a )
{
	_mm_storeu_pd( p, a.lo );
	_mm_storeu_pd( p + 2, a.hi );
}

// the lanes whose constraint has a point j
static inline cnM cnActiveLanes( const cnWideGroup* g, int j )
{
	const int* c = g->pointCount;
	return cnW_gt( (cnW){ _mm_set_pd( c[1], c[0] ), _mm_set_pd( c[3], c[2] ) }, cnW_splat( (double)j ) );
}

#define CN_LD( array ) cnW_load( array )
#define CN_ST( array, value ) cnW_store( array, value )
#define CN_POINTS( g, lane ) ( ( g )->maxPointCount )
#define CN_ACTIVE( g, j, lane ) cnActiveLanes( g, j )
#define CN_SKIP( g, j, lane ) false
#define CN_FOUR_LANES

#include "methods/impulse/contact_kernel.h"

static inline cnW cnW_gather( const cnBodyState* states, const int index[CN_LANES], size_t offset )
{
	const double* p0 = (const double*)( states + index[0] );
	const double* p1 = (const double*)( states + index[1] );
	const double* p2 = (const double*)( states + index[2] );
	const double* p3 = (const double*)( states + index[3] );
	return (cnW){ _mm_set_pd( p1[offset], p0[offset] ), _mm_set_pd( p3[offset], p2[offset] ) };
}

static inline void cnLoadBodies( const cnBodyState* states, const int index[CN_LANES], cnBodyW* X )
{
	cnW two = cnW_splat( 2.0 );
	X->v = (cnV3W){ cnW_gather( states, index, 0 ), cnW_gather( states, index, 1 ), cnW_gather( states, index, 2 ) };
	X->w = (cnV3W){ cnW_gather( states, index, 3 ), cnW_gather( states, index, 4 ), cnW_gather( states, index, 5 ) };
	X->dp = (cnV3W){ cnW_gather( states, index, 6 ), cnW_gather( states, index, 7 ), cnW_gather( states, index, 8 ) };
	X->th = (cnV3W){ cnW_mul( two, cnW_gather( states, index, 10 ) ), cnW_mul( two, cnW_gather( states, index, 11 ) ),
					 cnW_mul( two, cnW_gather( states, index, 12 ) ) };
}

static inline void cnStoreBodies( cnBodyState* states, const int index[CN_LANES], const int write[CN_LANES],
								  const cnBodyW* X )
{
	double v[6][CN_LANES];
	cnW_store( v[0], X->v.x );
	cnW_store( v[1], X->v.y );
	cnW_store( v[2], X->v.z );
	cnW_store( v[3], X->w.x );
	cnW_store( v[4], X->w.y );
	cnW_store( v[5], X->w.z );
	for ( int lane = 0; lane < CN_LANES; ++lane )
	{
		// static, sleeping and kinematic bodies take no impulse: their state is never written
		if ( write[lane] )
		{
			cnBodyState* s = states + index[lane];
			s->v = cnV3( v[0][lane], v[1][lane], v[2][lane] );
			s->w = cnV3( v[3][lane], v[4][lane], v[5][lane] );
		}
	}
}

CN_DEFINE_GROUP_LOOPS( cnWarmStartGroupsSse2, cnSolveGroupsSse2 )

#else

// no SSE2 in this build (another architecture): cnBestSimdPath never picks it
typedef int cnNoSse2;

#endif
