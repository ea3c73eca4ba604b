// SPDX-License-Identifier: MIT
#include "lcp.h"

cnLcpStatus cnSolveLcpLemke( int n, const double* A, const double* b, double* z, int maxPivots )
{
	(void)n; (void)A; (void)b; (void)z; (void)maxPivots;
	return cnLcp_invalid;
}

cnLcpStatus cnSolveBoxedLcp( int n, const double* A, const double* b, const double* lo, const double* hi,
							 const int* findex, double* z, int maxIterations )
{
	(void)n; (void)A; (void)b; (void)lo; (void)hi; (void)findex; (void)z; (void)maxIterations;
	return cnLcp_invalid;
}
