// SPDX-License-Identifier: MIT
// Small pieces every part of the library shares.
#pragma once

#include "cairn/math.h"

#include <math.h>

/// What getters return for an invalid id: NaN propagates, so a stale id never reads as a plausible
/// value (the error state says why).
static const cnVec3 cnVec3_nan = { NAN, NAN, NAN };
static const cnQuat cnQuat_nan = { NAN, NAN, NAN, NAN };
static const cnTransform cnTransform_nan = { { NAN, NAN, NAN }, { NAN, NAN, NAN, NAN } };
static const cnMat3 cnMat3_nan = { { NAN, NAN, NAN }, { NAN, NAN, NAN }, { NAN, NAN, NAN } };

/// A malloc'd copy of s; NULL for NULL or when memory runs out.
char* cnCopyString( const char* s );

/// Sorts n doubles ascending in place: insertion sort, for the few values of a collision routine.
static inline void cnSortDoubles( double* x, int n )
{
	for ( int i = 1; i < n; ++i )
	{
		double value = x[i];
		int j = i - 1;
		while ( j >= 0 && x[j] > value )
		{
			x[j + 1] = x[j];
			--j;
		}
		x[j + 1] = value;
	}
}
