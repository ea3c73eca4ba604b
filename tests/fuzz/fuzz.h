// SPDX-License-Identifier: MIT
// Fuzz targets (libFuzzer's entry point): each feeds arbitrary bytes to one reader of untrusted
// input. Built with -fsanitize=fuzzer by tools/fuzz.sh, and with replay.c as a plain program that
// runs a corpus folder through the target (the CTest tests fuzz_replay_*), so every seed and every
// crash once found is checked in CI under the sanitizers.
#pragma once

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point: must not crash, hang or leak on any input; returns 0.
int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size );

/// Writes the bytes to a file of this process named with the given extension (".xml", ".obj") and
/// returns its path, for readers that take a path; NULL when it cannot be written.
const char* cnFuzzWriteFile( const uint8_t* data, size_t size, const char* extension );
