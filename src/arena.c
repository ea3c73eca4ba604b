// SPDX-License-Identifier: MIT
#include "arena.h"

#include <stdlib.h>

void cnArena_Create( cnArena* arena, size_t capacity )
{
	arena->data = capacity > 0 ? malloc( capacity ) : NULL;
	arena->capacity = arena->data != NULL ? capacity : 0;
	arena->offset = 0;
	arena->overflow = 0;
	arena->peak = 0;
	arena->spill = NULL;
	arena->spillCount = 0;
	arena->spillCapacity = 0;
}

void cnArena_Destroy( cnArena* arena )
{
	cnArena_Reset( arena );
	free( arena->data );
	free( arena->spill );
	arena->data = NULL;
	arena->spill = NULL;
	arena->capacity = 0;
}

void* cnArena_Alloc( cnArena* arena, size_t size )
{
	size_t aligned = ( size + 15u ) & ~(size_t)15u;
	if ( aligned == 0 )
	{
		aligned = 16;
	}
	if ( arena->offset + aligned <= arena->capacity )
	{
		void* p = arena->data + arena->offset;
		arena->offset += aligned;
		if ( arena->offset > arena->peak )
		{
			arena->peak = arena->offset;
		}
		return p;
	}

	// does not fit: serve it from the heap this step and remember to grow at the next reset
	if ( arena->spillCount == arena->spillCapacity )
	{
		int capacity = arena->spillCapacity > 0 ? 2 * arena->spillCapacity : 8;
		void** spill = realloc( arena->spill, (size_t)capacity * sizeof( void* ) );
		if ( spill == NULL )
		{
			return NULL;
		}
		arena->spill = spill;
		arena->spillCapacity = capacity;
	}
	void* p = aligned_alloc( 16, aligned );
	if ( p == NULL )
	{
		return NULL;
	}
	arena->spill[arena->spillCount++] = p;
	arena->overflow += aligned;
	return p;
}

void cnArena_Reset( cnArena* arena )
{
	for ( int i = 0; i < arena->spillCount; ++i )
	{
		free( arena->spill[i] );
	}
	arena->spillCount = 0;
	arena->offset = 0;
	if ( arena->overflow > 0 )
	{
		// grow so the next step of the same size fits in one block
		size_t capacity = arena->capacity + arena->overflow + arena->overflow / 2;
		char* data = malloc( capacity );
		if ( data != NULL )
		{
			free( arena->data );
			arena->data = data;
			arena->capacity = capacity;
		}
		arena->overflow = 0;
	}
}
