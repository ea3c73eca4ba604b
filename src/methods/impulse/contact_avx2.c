// SPDX-License-Identifier: MIT
// The contact kernel on four constraints at once with AVX2 (four doubles per register). Compiled with
// -mavx2 (no FMA) where the compiler has it, and run only where the CPU has it (cnBestSimdPath).
#include "methods/impulse/contact_wide.h"

#if defined( CAIRN_HAVE_AVX2 )

#include <immintrin.h>
#include <stddef.h>

typedef __m256d cnW;
typedef __m256d cnM;

static inline cnW cnW_add( cnW a, cnW b )
{
	return _mm256_add_pd( a, b );
}
static inline cnW cnW_sub( cnW a, cnW b )
{
	return _mm256_sub_pd( a, b );
}
static inline cnW cnW_mul( cnW a, cnW b )
{
	return _mm256_mul_pd( a, b );
}
static inline cnW cnW_div( cnW a, cnW b )
{
	return _mm256_div_pd( a, b );
}
// maxpd returns its second operand unless the first is greater: a > b ? a : b, NaN included
static inline cnW cnW_max( cnW a, cnW b )
{
	return _mm256_max_pd( a, b );
}
// minpd: a < b ? a : b
static inline cnW cnW_min( cnW a, cnW b )
{
	return _mm256_min_pd( a, b );
}
static inline cnW cnW_sqrt( cnW a )
{
	return _mm256_sqrt_pd( a );
}
static inline cnW cnW_splat( double a )
{
	return _mm256_set1_pd( a );
}
static inline cnM cnW_gt( cnW a, cnW b )
{
	return _mm256_cmp_pd( a, b, _CMP_GT_OQ );
}
static inline cnM cnW_lt( cnW a, cnW b )
{
	return _mm256_cmp_pd( a, b, _CMP_LT_OQ );
}
static inline cnW cnW_select( cnM m, cnW a, cnW b )
{
	return _mm256_blendv_pd( b, a, m );
}

// the lanes whose constraint has a point j
static inline cnM cnActiveLanes( const cnWideGroup* g, int j )
{
	__m256d count = _mm256_cvtepi32_pd( _mm_loadu_si128( (const __m128i*)g->pointCount ) );
	return _mm256_cmp_pd( count, _mm256_set1_pd( (double)j ), _CMP_GT_OQ );
}

#define CN_LD( array ) _mm256_loadu_pd( array )
#define CN_ST( array, value ) _mm256_storeu_pd( array, value )
#define CN_POINTS( g, lane ) ( ( g )->maxPointCount )
#define CN_ACTIVE( g, j, lane ) cnActiveLanes( g, j )
#define CN_SKIP( g, j, lane ) false
#define CN_FOUR_LANES

#include "methods/impulse/contact_kernel.h"

// the body state read as doubles: v, w, dp, dq (w, x, y, z)
_Static_assert( sizeof( cnBodyState ) == 13 * sizeof( double ), "cnBodyState is read as 13 doubles" );
_Static_assert( offsetof( cnBodyState, dq ) == 9 * sizeof( double ), "cnBodyState.dq follows dp" );

// Rows of four lanes to columns: out[k][lane] = in[lane][k].
static inline void cnTranspose( __m256d r0, __m256d r1, __m256d r2, __m256d r3, __m256d* c0, __m256d* c1,
								__m256d* c2, __m256d* c3 )
{
	__m256d t0 = _mm256_unpacklo_pd( r0, r1 );
	__m256d t1 = _mm256_unpackhi_pd( r0, r1 );
	__m256d t2 = _mm256_unpacklo_pd( r2, r3 );
	__m256d t3 = _mm256_unpackhi_pd( r2, r3 );
	*c0 = _mm256_permute2f128_pd( t0, t2, 0x20 );
	*c1 = _mm256_permute2f128_pd( t1, t3, 0x20 );
	*c2 = _mm256_permute2f128_pd( t0, t2, 0x31 );
	*c3 = _mm256_permute2f128_pd( t1, t3, 0x31 );
}

static inline void cnLoadBodies( const cnBodyState* states, const int index[CN_LANES], cnBodyW* X )
{
	const double* p0 = (const double*)( states + index[0] );
	const double* p1 = (const double*)( states + index[1] );
	const double* p2 = (const double*)( states + index[2] );
	const double* p3 = (const double*)( states + index[3] );
	cnTranspose( _mm256_loadu_pd( p0 ), _mm256_loadu_pd( p1 ), _mm256_loadu_pd( p2 ), _mm256_loadu_pd( p3 ), &X->v.x,
				 &X->v.y, &X->v.z, &X->w.x );
	cnTranspose( _mm256_loadu_pd( p0 + 4 ), _mm256_loadu_pd( p1 + 4 ), _mm256_loadu_pd( p2 + 4 ),
				 _mm256_loadu_pd( p3 + 4 ), &X->w.y, &X->w.z, &X->dp.x, &X->dp.y );
	__m256d dqw;
	cnTranspose( _mm256_loadu_pd( p0 + 8 ), _mm256_loadu_pd( p1 + 8 ), _mm256_loadu_pd( p2 + 8 ),
				 _mm256_loadu_pd( p3 + 8 ), &X->dp.z, &dqw, &X->th.x, &X->th.y );
	__m256d two = _mm256_set1_pd( 2.0 );
	X->th.x = _mm256_mul_pd( two, X->th.x );
	X->th.y = _mm256_mul_pd( two, X->th.y );
	X->th.z = _mm256_mul_pd( two, _mm256_set_pd( p3[12], p2[12], p1[12], p0[12] ) );
}

static inline void cnStoreBodies( cnBodyState* states, const int index[CN_LANES], const int write[CN_LANES],
								  const cnBodyW* X )
{
	__m256d a[4], b[4];
	cnTranspose( X->v.x, X->v.y, X->v.z, X->w.x, a + 0, a + 1, a + 2, a + 3 );
	cnTranspose( X->w.y, X->w.z, X->dp.x, X->dp.y, b + 0, b + 1, b + 2, b + 3 );
	for ( int lane = 0; lane < CN_LANES; ++lane )
	{
		// static, sleeping and kinematic bodies take no impulse: their state is never written
		if ( write[lane] )
		{
			double* p = (double*)( states + index[lane] );
			_mm256_storeu_pd( p, a[lane] );
			_mm_storeu_pd( p + 4, _mm256_castpd256_pd128( b[lane] ) );
		}
	}
}

CN_DEFINE_GROUP_LOOPS( cnWarmStartGroupsAvx2, cnSolveGroupsAvx2 )

#else

// no AVX2 in this build (another architecture or compiler): cnBestSimdPath never picks it
typedef int cnNoAvx2;

#endif
