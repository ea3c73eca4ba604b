// SPDX-License-Identifier: MIT
// A tiny test harness. Each test executable runs its cases with RUN_TEST and ends with
// TEST_SUMMARY(), which prints "N passed, N failed" (a line CTest logs and CI reads) and
// returns the exit status.
#pragma once

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/// True when CAIRN_FAST_TESTS=1 (CI's sanitizer run): long physics checks take their short variant.
static inline int testFast( void )
{
	const char* s = getenv( "CAIRN_FAST_TESTS" );
	return s != NULL && s[0] == '1';
}

static int cn_test_checks_passed = 0;
static int cn_test_skipped = 0;
static int cn_test_checks_failed = 0;
static int cn_test_cases_passed = 0;
static int cn_test_cases_failed = 0;

/// Fails the current case when cond is false, printing where and why.
#define CHECK( cond )                                                                                                  \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( cond )                                                                                                    \
			cn_test_checks_passed++;                                                                                   \
		else                                                                                                           \
		{                                                                                                              \
			cn_test_checks_failed++;                                                                                   \
			fprintf( stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond );                                 \
		}                                                                                                              \
	} while ( 0 )

/// Fails the current case when |a - b| > tol, printing both values.
#define CHECK_NEAR( a, b, tol )                                                                                        \
	do                                                                                                                 \
	{                                                                                                                  \
		double cn_a_ = ( a ), cn_b_ = ( b ), cn_t_ = ( tol );                                                          \
		if ( fabs( cn_a_ - cn_b_ ) <= cn_t_ )                                                                          \
			cn_test_checks_passed++;                                                                                   \
		else                                                                                                           \
		{                                                                                                              \
			cn_test_checks_failed++;                                                                                   \
			fprintf( stderr, "%s:%d: CHECK_NEAR failed: %s = %.12g, %s = %.12g, |diff| = %.3g > %.3g\n", __FILE__,      \
					 __LINE__, #a, cn_a_, #b, cn_b_, fabs( cn_a_ - cn_b_ ), cn_t_ );                                   \
		}                                                                                                              \
	} while ( 0 )

/// Runs one test case (a void function) and counts it as passed when none of its checks failed.
#define RUN_TEST( fn )                                                                                                 \
	do                                                                                                                 \
	{                                                                                                                  \
		int cn_before_ = cn_test_checks_failed;                                                                        \
		fn();                                                                                                          \
		if ( cn_test_checks_failed == cn_before_ )                                                                     \
		{                                                                                                              \
			cn_test_cases_passed++;                                                                                    \
			printf( "ok   %s\n", #fn );                                                                                \
		}                                                                                                              \
		else                                                                                                           \
		{                                                                                                              \
			cn_test_cases_failed++;                                                                                    \
			printf( "FAIL %s\n", #fn );                                                                                \
		}                                                                                                              \
		fflush( stdout );                                                                                              \
	} while ( 0 )

/// Says that part of a case did not run because an input it needs is absent (third-party reference
/// data beside the repository): the test then reports itself skipped to CTest (exit status 77,
/// SKIP_RETURN_CODE in tests/CMakeLists.txt) instead of passed, unless something failed.
#define TEST_SKIP( ... )                                                                                               \
	do                                                                                                                 \
	{                                                                                                                  \
		printf( "  skipped: " );                                                                                       \
		printf( __VA_ARGS__ );                                                                                         \
		printf( "\n" );                                                                                                \
		cn_test_skipped++;                                                                                             \
	} while ( 0 )

/// Prints the summary line and yields the exit status for main: 1 when a case failed, 77 (skipped)
/// when something was skipped for a missing input, else 0.
#define TEST_SUMMARY()                                                                                                 \
	( printf( "%d passed, %d failed, %d parts skipped\n", cn_test_cases_passed, cn_test_cases_failed,                 \
			  cn_test_skipped ),                                                                                       \
	  ( cn_test_cases_failed > 0 || cn_test_cases_passed == 0 ) ? 1 : ( cn_test_skipped > 0 ? 77 : 0 ) )
