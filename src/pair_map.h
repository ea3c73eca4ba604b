// SPDX-License-Identifier: MIT
// Open-addressing hash map from 64-bit keys to 32-bit values, used by the world to find the contact
// of a shape pair (key = (uint64_t)min << 32 | max). Linear probing in a power-of-two table kept at
// most half full, so a lookup touches one or two cache lines; removal shifts the following entries
// back instead of leaving tombstones, so the table never degrades however many pairs come and go.
#pragma once

#include <stdbool.h>
#include <stdint.h>

/// One slot of the table.
typedef struct cnPairMapEntry
{
	uint64_t key;
	int32_t value;
	// 1 when the slot holds an entry
	int32_t used;
} cnPairMapEntry;

/// The map. count is the number of entries; the other fields are private.
typedef struct cnPairMap
{
	cnPairMapEntry* entries;
	// number of slots, a power of two (0 only when allocation failed)
	int capacity;
	int count;
} cnPairMap;

/// Makes an empty map sized for about capacity entries without growing.
void cnPairMap_Create( cnPairMap* map, int capacity );

/// Frees the map's memory.
void cnPairMap_Destroy( cnPairMap* map );

/// The value stored for key, or -1 when the key is absent.
int32_t cnPairMap_Find( const cnPairMap* map, uint64_t key );

/// Stores value for key, replacing any value already there.
void cnPairMap_Insert( cnPairMap* map, uint64_t key, int32_t value );

/// Removes key; returns false when it was absent.
bool cnPairMap_Remove( cnPairMap* map, uint64_t key );

/// Removes every entry, keeping the memory.
void cnPairMap_Clear( cnPairMap* map );

/// Key of an unordered pair of indices: (min << 32) | max.
static inline uint64_t cnPairKey( int a, int b )
{
	uint32_t lo = (uint32_t)( a < b ? a : b ), hi = (uint32_t)( a < b ? b : a );
	return ( (uint64_t)lo << 32 ) | (uint64_t)hi;
}
