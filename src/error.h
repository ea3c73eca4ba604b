// SPDX-License-Identifier: MIT
// The error model: a call that fails records why in the calling thread's error state (a code and
// a one-line message) and returns false, a null id, NULL or NaN; a call that can fail clears it
// when it starts. Thread-local, so const calls and two worlds on two threads never race.
#pragma once

#include "cairn/cairn.h"

/// Prefixes the calling thread's current error message with a formatted context ("FILE: ").
void cnPrefixError( const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 1, 2 ) ) )
#endif
	;
