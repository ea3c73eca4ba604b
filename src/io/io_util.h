// SPDX-License-Identifier: MIT
// Small pieces libcairn_io's files share. libcairn_io sees only libcairn's public API, so it keeps
// its own copies of what it needs from libcairn's internals.
#pragma once

#include "cairn/io.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// A malloc'd copy of s; NULL for NULL or when memory runs out.
char* cnIoCopyString( const char* s );

/// A malloc'd, terminated copy of the first length bytes of s; NULL when memory runs out.
char* cnIoCopyBytes( const char* s, size_t length );

/// Reads a whole file into a malloc'd buffer with a 0 byte after its size bytes (so text can be
/// parsed as a string); in chunks, so pipes and files of unknown size work. NULL with the error
/// set ("PATH: cannot open: ...", "PATH: cannot read: ...", "PATH: out of memory") on failure.
char* cnIoReadFile( const char* path, size_t* size );

/// Writes a CSV field, quoted (RFC 4180) only when it holds a separator, quote or line break.
void cnIoWriteCsvField( FILE* file, const char* text );

/// The end of a frame-by-frame text writer (CSV, joint CSV): fails ("PATH: a frame failed, nothing
/// written") when a frame failed, else commits the file (renames PATH.tmp to PATH); *failed records
/// a failed commit too.
bool cnIoCommitFrames( cnOutputFile* file, bool* failed );
