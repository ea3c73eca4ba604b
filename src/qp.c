// SPDX-License-Identifier: MIT
#include "qp.h"

cnQpStatus cnSolveQpGoldfarbIdnani( int n, const double* G, const double* g0, int p, const double* CI,
									const double* ci0, double* x, double* lambda, int maxIterations )
{
	(void)n; (void)G; (void)g0; (void)p; (void)CI; (void)ci0; (void)x; (void)lambda; (void)maxIterations;
	return cnQp_invalid;
}
