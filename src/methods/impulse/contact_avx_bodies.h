// SPDX-License-Identifier: MIT
// The body states of four lanes in and out of AVX registers, for the wide paths that need AVX
// (contact_avx2.c and contact_avx512.c, each compiled with its instruction set). A lane's state is
// 13 doubles in a row (cnBodyState); four rows are turned into one register per component.
#pragma once

#include "methods/impulse/impulse.h"

#include <immintrin.h>
#include <stddef.h>

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

// The states of the bodies of four lanes into one register per component (v, w, dp, th = 2 vec(dq)).
static inline void cnLoadFour( const cnBodyState* states, const int index[4], __m256d out[12] )
{
	const double* p0 = (const double*)( states + index[0] );
	const double* p1 = (const double*)( states + index[1] );
	const double* p2 = (const double*)( states + index[2] );
	const double* p3 = (const double*)( states + index[3] );
	cnTranspose( _mm256_loadu_pd( p0 ), _mm256_loadu_pd( p1 ), _mm256_loadu_pd( p2 ), _mm256_loadu_pd( p3 ), out + 0,
				 out + 1, out + 2, out + 3 );
	cnTranspose( _mm256_loadu_pd( p0 + 4 ), _mm256_loadu_pd( p1 + 4 ), _mm256_loadu_pd( p2 + 4 ),
				 _mm256_loadu_pd( p3 + 4 ), out + 4, out + 5, out + 6, out + 7 );
	__m256d dqw;
	cnTranspose( _mm256_loadu_pd( p0 + 8 ), _mm256_loadu_pd( p1 + 8 ), _mm256_loadu_pd( p2 + 8 ),
				 _mm256_loadu_pd( p3 + 8 ), out + 8, &dqw, out + 9, out + 10 );
	__m256d two = _mm256_set1_pd( 2.0 );
	out[9] = _mm256_mul_pd( two, out[9] );
	out[10] = _mm256_mul_pd( two, out[10] );
	out[11] = _mm256_mul_pd( two, _mm256_set_pd( p3[12], p2[12], p1[12], p0[12] ) );
}

// Writes the velocities of four lanes' bodies (those that take impulses).
static inline void cnStoreFour( cnBodyState* states, const int index[4], const int write[4], __m256d vx, __m256d vy,
								__m256d vz, __m256d wx, __m256d wy, __m256d wz )
{
	__m256d a[4], b[4];
	__m256d zero = _mm256_setzero_pd();
	cnTranspose( vx, vy, vz, wx, a + 0, a + 1, a + 2, a + 3 );
	cnTranspose( wy, wz, zero, zero, b + 0, b + 1, b + 2, b + 3 );
	for ( int lane = 0; lane < 4; ++lane )
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
