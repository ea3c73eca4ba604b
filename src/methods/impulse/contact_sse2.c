// SPDX-License-Identifier: MIT
// The contact kernel on eight constraints at once with SSE2 (four registers of two doubles per value):
// the path of x86-64 processors without AVX2.
#include "methods/impulse/contact_wide.h"

#if defined( __SSE2__ )

#include <emmintrin.h>

// a group's eight lanes in four registers of two
typedef struct cnW
{
	__m128d r0, r1, r2, r3;
} cnW;
typedef cnW cnM;

#define CN_PAIRWISE( name, op )                                                                                        \
	static inline cnW name( cnW a, cnW b )                                                                             \
	{                                                                                                                  \
		return (cnW){ op( a.r0, b.r0 ), op( a.r1, b.r1 ), op( a.r2, b.r2 ), op( a.r3, b.r3 ) };                        \
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
CN_PAIRWISE( cnW_ge, _mm_cmpge_pd )

static inline cnW cnW_sqrt( cnW a )
{
	return (cnW){ _mm_sqrt_pd( a.r0 ), _mm_sqrt_pd( a.r1 ), _mm_sqrt_pd( a.r2 ), _mm_sqrt_pd( a.r3 ) };
}
static inline cnW cnW_splat( double a )
{
	__m128d x = _mm_set1_pd( a );
	return (cnW){ x, x, x, x };
}
// m ? a : b by the bits of the mask (SSE2 has no blend)
static inline __m128d cnSelect2( __m128d m, __m128d a, __m128d b )
{
	return _mm_or_pd( _mm_and_pd( m, a ), _mm_andnot_pd( m, b ) );
}
static inline cnW cnW_select( cnM m, cnW a, cnW b )
{
	return (cnW){ cnSelect2( m.r0, a.r0, b.r0 ), cnSelect2( m.r1, a.r1, b.r1 ), cnSelect2( m.r2, a.r2, b.r2 ),
				  cnSelect2( m.r3, a.r3, b.r3 ) };
}
static inline cnW cnW_load( const double* p )
{
	return (cnW){ _mm_loadu_pd( p ), _mm_loadu_pd( p + 2 ), _mm_loadu_pd( p + 4 ), _mm_loadu_pd( p + 6 ) };
}
static inline void cnW_store( double* p, cnW a )
{
	_mm_storeu_pd( p, a.r0 );
	_mm_storeu_pd( p + 2, a.r1 );
	_mm_storeu_pd( p + 4, a.r2 );
	_mm_storeu_pd( p + 6, a.r3 );
}

// the point count of each lane's constraint
static inline cnW cnLaneCounts( const cnWideGroup* g )
{
	const int* c = g->pointCount;
	return (cnW){ _mm_set_pd( c[1], c[0] ), _mm_set_pd( c[3], c[2] ), _mm_set_pd( c[5], c[4] ), _mm_set_pd( c[7], c[6] ) };
}

// a wide path: the kernel's loads, stores and point loops over whole groups (contact_kernel.h)
#define CN_WIDE_LANES

#include "methods/impulse/contact_kernel.h"

_Static_assert( CN_LANES == 8, "the SSE2 path holds a group's lanes in four registers of two" );

// One component (the double at offset in cnBodyState) of the bodies of every lane.
static inline cnW cnW_gather( const cnBodyState* states, const int index[CN_LANES], size_t offset )
{
	double x[CN_LANES];
	for ( int lane = 0; lane < CN_LANES; ++lane )
	{
		x[lane] = ( (const double*)( states + index[lane] ) )[offset];
	}
	return cnW_load( x );
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

void cnPrepareGroupSse2( const cnBodyState* states, cnWideGroup* g, cnPrepareLanes* in )
{
	cnKernelPrepare( states, g, 0, in );
}

#else

// no SSE2 in this build (another architecture): cnBestSimdPath never picks it
typedef int cnNoSse2;

#endif
