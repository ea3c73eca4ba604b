// SPDX-License-Identifier: MIT
#include "pair_map.h"

#include <stdlib.h>
#include <string.h>

// the smallest table; also what an empty map grows to on its first insert
#define CN_PAIR_MAP_MIN_CAPACITY 16

// Every allocation of this file goes through this function, so an allocator can be routed in later.
static cnPairMapEntry* cnAllocEntries( int capacity )
{
	// zeroed memory: every slot starts unused
	return calloc( (size_t)capacity, sizeof( cnPairMapEntry ) );
}

static void cnFreeEntries( cnPairMapEntry* entries )
{
	free( entries );
}

// splitmix64 finaliser: every input bit flips about half the output bits, so the low bits used as
// the slot index depend on both shape indices of a pair key, not only on the larger one.
static inline uint64_t cnHashKey( uint64_t x )
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

// Smallest power of two that holds n entries at load 0.5.
static int cnTableSize( int n )
{
	int size = CN_PAIR_MAP_MIN_CAPACITY;
	while ( size < 2 * n && size < ( 1 << 29 ) )
	{
		size *= 2;
	}
	return size;
}

void cnPairMap_Create( cnPairMap* map, int capacity )
{
	int size = cnTableSize( capacity );
	map->entries = cnAllocEntries( size );
	map->capacity = map->entries != NULL ? size : 0;
	map->count = 0;
}

void cnPairMap_Destroy( cnPairMap* map )
{
	cnFreeEntries( map->entries );
	map->entries = NULL;
	map->capacity = 0;
	map->count = 0;
}

// Slot holding key, or the empty slot where it would go. The table always has an empty slot
// (load <= 0.5), so the probe ends.
static int cnFindSlot( const cnPairMapEntry* entries, int capacity, uint64_t key )
{
	uint32_t mask = (uint32_t)capacity - 1u;
	uint32_t i = (uint32_t)cnHashKey( key ) & mask;
	while ( entries[i].used && entries[i].key != key )
	{
		i = ( i + 1u ) & mask;
	}
	return (int)i;
}

int32_t cnPairMap_Find( const cnPairMap* map, uint64_t key )
{
	if ( map->count == 0 )
	{
		return -1;
	}
	int i = cnFindSlot( map->entries, map->capacity, key );
	return map->entries[i].used ? map->entries[i].value : -1;
}

// Rehashes into a table of the given size. The old order of probing does not matter: each entry
// simply goes to its first free slot in the new table.
static bool cnPairMap_Grow( cnPairMap* map, int capacity )
{
	cnPairMapEntry* entries = cnAllocEntries( capacity );
	if ( entries == NULL )
	{
		return false;
	}
	for ( int i = 0; i < map->capacity; ++i )
	{
		if ( map->entries[i].used )
		{
			int j = cnFindSlot( entries, capacity, map->entries[i].key );
			entries[j] = map->entries[i];
		}
	}
	cnFreeEntries( map->entries );
	map->entries = entries;
	map->capacity = capacity;
	return true;
}

void cnPairMap_Insert( cnPairMap* map, uint64_t key, int32_t value )
{
	if ( map->capacity > 0 )
	{
		int i = cnFindSlot( map->entries, map->capacity, key );
		if ( map->entries[i].used )
		{
			map->entries[i].value = value;
			return;
		}
	}

	// keep the load at most 0.5 so probe sequences stay short
	if ( 2 * ( map->count + 1 ) > map->capacity )
	{
		int capacity = map->capacity > 0 ? 2 * map->capacity : CN_PAIR_MAP_MIN_CAPACITY;
		if ( cnPairMap_Grow( map, capacity ) == false && map->count + 1 >= map->capacity )
		{
			// out of memory and no room left that would keep an empty slot: drop the entry
			return;
		}
	}

	int i = cnFindSlot( map->entries, map->capacity, key );
	map->entries[i].key = key;
	map->entries[i].value = value;
	map->entries[i].used = 1;
	map->count += 1;
}

bool cnPairMap_Remove( cnPairMap* map, uint64_t key )
{
	if ( map->count == 0 )
	{
		return false;
	}
	uint32_t mask = (uint32_t)map->capacity - 1u;
	cnPairMapEntry* entries = map->entries;
	uint32_t i = (uint32_t)cnFindSlot( entries, map->capacity, key );
	if ( entries[i].used == 0 )
	{
		return false;
	}

	// Backward shift: walk the run after the hole. An entry whose home slot lies cyclically in
	// (hole, j] would become unreachable if moved before its home, so it stays; any other entry
	// moves into the hole, which then moves to where that entry was.
	uint32_t j = i;
	for ( ;; )
	{
		j = ( j + 1u ) & mask;
		if ( entries[j].used == 0 )
		{
			break;
		}
		uint32_t home = (uint32_t)cnHashKey( entries[j].key ) & mask;
		bool stays = ( ( j - home ) & mask ) < ( ( j - i ) & mask );
		if ( stays == false )
		{
			entries[i] = entries[j];
			i = j;
		}
	}
	entries[i].used = 0;
	entries[i].key = 0;
	entries[i].value = 0;
	map->count -= 1;
	return true;
}

void cnPairMap_Clear( cnPairMap* map )
{
	if ( map->entries != NULL )
	{
		memset( map->entries, 0, (size_t)map->capacity * sizeof( cnPairMapEntry ) );
	}
	map->count = 0;
}
