// SPDX-License-Identifier: MIT
// Small pieces libcairn_io's files share. libcairn_io sees only libcairn's public API, so it keeps
// its own copies of what it needs from libcairn's internals.
#pragma once

#include <stddef.h>

/// A malloc'd copy of s; NULL for NULL or when memory runs out.
char* cnIoCopyString( const char* s );

/// A malloc'd, terminated copy of the first length bytes of s; NULL when memory runs out.
char* cnIoCopyBytes( const char* s, size_t length );
