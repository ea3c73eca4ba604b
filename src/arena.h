// SPDX-License-Identifier: MIT
// Per-step scratch memory: a stack of blocks handed out in order and released all at once at the
// end of the step, so the step itself does not call malloc once the arena has grown to fit.
#pragma once

#include <stddef.h>

typedef struct cnArena
{
	char* data;
	size_t capacity;
	size_t offset;
	// bytes that did not fit this step (served by malloc); the arena grows by this much on reset
	size_t overflow;
	size_t peak;
	// overflow blocks of this step, freed on reset
	void** spill;
	int spillCount, spillCapacity;
} cnArena;

/// Creates an arena with the given starting capacity in bytes.
void cnArena_Create( cnArena* arena, size_t capacity );

/// Frees the arena's memory.
void cnArena_Destroy( cnArena* arena );

/// Returns uninitialised memory of the given size, 16-byte aligned, valid until the next reset.
void* cnArena_Alloc( cnArena* arena, size_t size );

/// Releases everything allocated since the last reset and grows the arena if it overflowed.
void cnArena_Reset( cnArena* arena );
