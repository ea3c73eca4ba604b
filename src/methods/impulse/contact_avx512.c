// SPDX-License-Identifier: MIT
// The contact kernel on eight constraints at once in one AVX-512 register of eight doubles. Compiled
// with -mavx512f (no FMA: the build keeps -ffp-contract=off) where the compiler has it, and run only
// where the CPU has it (cnBestSimdPath). One register holds the group, so the kernel has one chain of
// dependent operations in flight where the AVX2 path has two: half the instructions for the same
// latency. The 1240-box pyramid's solve took 14 % less time than on the AVX2 path, a 91-box one's
// (whose groups stay in the cache) 27 % less, with the same bits (docs/benchmarks.md).
#include "methods/impulse/contact_wide.h"

#if defined( CAIRN_HAVE_AVX512 )

#include "methods/impulse/contact_avx_bodies.h"

#include <immintrin.h>

typedef __m512d cnW;
// a comparison gives a mask register: one bit per lane
typedef __mmask8 cnM;

static inline cnW cnW_add( cnW a, cnW b )
{
	return _mm512_add_pd( a, b );
}
static inline cnW cnW_sub( cnW a, cnW b )
{
	return _mm512_sub_pd( a, b );
}
static inline cnW cnW_mul( cnW a, cnW b )
{
	return _mm512_mul_pd( a, b );
}
static inline cnW cnW_div( cnW a, cnW b )
{
	return _mm512_div_pd( a, b );
}
// vmaxpd returns its second operand unless the first is greater: a > b ? a : b, NaN included
static inline cnW cnW_max( cnW a, cnW b )
{
	return _mm512_max_pd( a, b );
}
// vminpd: a < b ? a : b
static inline cnW cnW_min( cnW a, cnW b )
{
	return _mm512_min_pd( a, b );
}
static inline cnW cnW_sqrt( cnW a )
{
	return _mm512_sqrt_pd( a );
}
static inline cnW cnW_splat( double a )
{
	return _mm512_set1_pd( a );
}
static inline cnM cnW_gt( cnW a, cnW b )
{
	return _mm512_cmp_pd_mask( a, b, _CMP_GT_OQ );
}
static inline cnM cnW_lt( cnW a, cnW b )
{
	return _mm512_cmp_pd_mask( a, b, _CMP_LT_OQ );
}
static inline cnM cnW_ge( cnW a, cnW b )
{
	return _mm512_cmp_pd_mask( a, b, _CMP_GE_OQ );
}
// m ? a : b (the blend takes its second operand where the mask is set)
static inline cnW cnW_select( cnM m, cnW a, cnW b )
{
	return _mm512_mask_blend_pd( m, b, a );
}
static inline cnW cnW_load( const double* p )
{
	return _mm512_loadu_pd( p );
}
static inline void cnW_store( double* p, cnW a )
{
	_mm512_storeu_pd( p, a );
}

// the point count of each lane's constraint
static inline cnW cnLaneCounts( const cnWideGroup* g )
{
	return _mm512_cvtepi32_pd( _mm256_loadu_si256( (const __m256i*)g->pointCount ) );
}

// a wide path: the kernel's loads, stores and point loops over whole groups (contact_kernel.h)
#define CN_WIDE_LANES

#include "methods/impulse/contact_kernel.h"

_Static_assert( CN_LANES == 8, "the AVX-512 path holds a group's lanes in one register of eight" );

// the bodies of lanes 0-3 and 4-7 are turned into columns four at a time, then joined
static inline void cnLoadBodies( const cnBodyState* states, const int index[CN_LANES], cnBodyW* X )
{
	__m256d lo[12], hi[12];
	cnLoadFour( states, index, lo );
	cnLoadFour( states, index + 4, hi );
	cnW* out[12] = { &X->v.x, &X->v.y, &X->v.z, &X->w.x, &X->w.y, &X->w.z,
					 &X->dp.x, &X->dp.y, &X->dp.z, &X->th.x, &X->th.y, &X->th.z };
	for ( int k = 0; k < 12; ++k )
	{
		*out[k] = _mm512_insertf64x4( _mm512_castpd256_pd512( lo[k] ), hi[k], 1 );
	}
}

static inline __m256d cnLow( cnW a )
{
	return _mm512_castpd512_pd256( a );
}

static inline __m256d cnHigh( cnW a )
{
	return _mm512_extractf64x4_pd( a, 1 );
}

static inline void cnStoreBodies( cnBodyState* states, const int index[CN_LANES], const int write[CN_LANES],
								  const cnBodyW* X )
{
	cnStoreFour( states, index, write, cnLow( X->v.x ), cnLow( X->v.y ), cnLow( X->v.z ), cnLow( X->w.x ),
				 cnLow( X->w.y ), cnLow( X->w.z ) );
	cnStoreFour( states, index + 4, write + 4, cnHigh( X->v.x ), cnHigh( X->v.y ), cnHigh( X->v.z ),
				 cnHigh( X->w.x ), cnHigh( X->w.y ), cnHigh( X->w.z ) );
}

CN_DEFINE_GROUP_LOOPS( cnWarmStartGroupsAvx512, cnSolveGroupsAvx512 )

void cnPrepareGroupAvx512( const cnBodyState* states, cnWideGroup* g, cnPrepareLanes* in )
{
	cnKernelPrepare( states, g, 0, in );
}

#else

// no AVX-512 in this build (another architecture or compiler): cnBestSimdPath never picks it
typedef int cnNoAvx512;

#endif
