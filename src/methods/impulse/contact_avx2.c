// SPDX-License-Identifier: MIT
// The contact kernel on eight constraints at once with AVX2 (two registers of four doubles). Compiled with
// -mavx2 (no FMA) where the compiler has it, and run only where the CPU has it (cnBestSimdPath).
#include "methods/impulse/contact_wide.h"

#if defined( CAIRN_HAVE_AVX2 )

#include "methods/impulse/contact_avx_bodies.h"

#include <immintrin.h>

// eight lanes in two registers: two independent chains of the kernel's dependent operations in
// flight at once (one register's chain of a point's impulse waits on latency, not on throughput)
typedef struct cnW
{
	__m256d lo, hi;
} cnW;
typedef cnW cnM;

#define CN_PAIRWISE( name, op )                                                                                        \
	static inline cnW name( cnW a, cnW b )                                                                             \
	{                                                                                                                  \
		return (cnW){ op( a.lo, b.lo ), op( a.hi, b.hi ) };                                                            \
	}

CN_PAIRWISE( cnW_add, _mm256_add_pd )
CN_PAIRWISE( cnW_sub, _mm256_sub_pd )
CN_PAIRWISE( cnW_mul, _mm256_mul_pd )
CN_PAIRWISE( cnW_div, _mm256_div_pd )
// maxpd returns its second operand unless the first is greater: a > b ? a : b, NaN included
CN_PAIRWISE( cnW_max, _mm256_max_pd )
// minpd: a < b ? a : b
CN_PAIRWISE( cnW_min, _mm256_min_pd )

static inline cnW cnW_sqrt( cnW a )
{
	return (cnW){ _mm256_sqrt_pd( a.lo ), _mm256_sqrt_pd( a.hi ) };
}
static inline cnW cnW_splat( double a )
{
	return (cnW){ _mm256_set1_pd( a ), _mm256_set1_pd( a ) };
}
static inline cnM cnW_gt( cnW a, cnW b )
{
	return (cnW){ _mm256_cmp_pd( a.lo, b.lo, _CMP_GT_OQ ), _mm256_cmp_pd( a.hi, b.hi, _CMP_GT_OQ ) };
}
static inline cnM cnW_lt( cnW a, cnW b )
{
	return (cnW){ _mm256_cmp_pd( a.lo, b.lo, _CMP_LT_OQ ), _mm256_cmp_pd( a.hi, b.hi, _CMP_LT_OQ ) };
}
static inline cnM cnW_ge( cnW a, cnW b )
{
	return (cnW){ _mm256_cmp_pd( a.lo, b.lo, _CMP_GE_OQ ), _mm256_cmp_pd( a.hi, b.hi, _CMP_GE_OQ ) };
}
static inline cnW cnW_select( cnM m, cnW a, cnW b )
{
	return (cnW){ _mm256_blendv_pd( b.lo, a.lo, m.lo ), _mm256_blendv_pd( b.hi, a.hi, m.hi ) };
}
static inline cnW cnW_load( const double* p )
{
	return (cnW){ _mm256_loadu_pd( p ), _mm256_loadu_pd( p + 4 ) };
}
static inline void cnW_store( double* p, cnW a )
{
	_mm256_storeu_pd( p, a.lo );
	_mm256_storeu_pd( p + 4, a.hi );
}

// the point count of each lane's constraint
static inline cnW cnLaneCounts( const cnWideGroup* g )
{
	return (cnW){ _mm256_cvtepi32_pd( _mm_loadu_si128( (const __m128i*)g->pointCount ) ),
				  _mm256_cvtepi32_pd( _mm_loadu_si128( (const __m128i*)( g->pointCount + 4 ) ) ) };
}

// a wide path: the kernel's loads, stores and point loops over whole groups (contact_kernel.h)
#define CN_WIDE_LANES

#include "methods/impulse/contact_kernel.h"

_Static_assert( CN_LANES == 8, "the AVX2 path holds a group's lanes in two registers of four" );

static inline void cnLoadBodies( const cnBodyState* states, const int index[CN_LANES], cnBodyW* X )
{
	__m256d lo[12], hi[12];
	cnLoadFour( states, index, lo );
	cnLoadFour( states, index + 4, hi );
	cnW* out[12] = { &X->v.x, &X->v.y, &X->v.z, &X->w.x, &X->w.y, &X->w.z,
					 &X->dp.x, &X->dp.y, &X->dp.z, &X->th.x, &X->th.y, &X->th.z };
	for ( int k = 0; k < 12; ++k )
	{
		*out[k] = (cnW){ lo[k], hi[k] };
	}
}

static inline void cnStoreBodies( cnBodyState* states, const int index[CN_LANES], const int write[CN_LANES],
								  const cnBodyW* X )
{
	cnStoreFour( states, index, write, X->v.x.lo, X->v.y.lo, X->v.z.lo, X->w.x.lo, X->w.y.lo, X->w.z.lo );
	cnStoreFour( states, index + 4, write + 4, X->v.x.hi, X->v.y.hi, X->v.z.hi, X->w.x.hi, X->w.y.hi, X->w.z.hi );
}

CN_DEFINE_GROUP_LOOPS( cnWarmStartGroupsAvx2, cnSolveGroupsAvx2 )

void cnPrepareGroupAvx2( const cnBodyState* states, cnWideGroup* g, cnPrepareLanes* in )
{
	cnKernelPrepare( states, g, 0, in );
}

#else

// no AVX2 in this build (another architecture or compiler): cnBestSimdPath never picks it
typedef int cnNoAvx2;

#endif
