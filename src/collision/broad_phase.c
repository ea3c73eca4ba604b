// SPDX-License-Identifier: MIT
#include "collision/broad_phase.h"

#include <stdlib.h>
#include <string.h>

// Every allocation of this file goes through these two functions, so an allocator can be routed in.
static void* cnBroadRealloc( void* p, size_t size )
{
	return realloc( p, size );
}

static void cnBroadFree( void* p )
{
	free( p );
}

// Grows a growable array to hold at least needed items (doubling); false when out of memory.
static bool cnReserve( void** data, int* capacity, int needed, size_t itemSize, int minCapacity )
{
	if ( needed <= *capacity )
	{
		return true;
	}
	int newCapacity = *capacity > 0 ? *capacity : minCapacity;
	while ( newCapacity < needed )
	{
		newCapacity *= 2;
	}
	void* p = cnBroadRealloc( *data, (size_t)newCapacity * itemSize );
	if ( p == NULL )
	{
		return false;
	}
	*data = p;
	*capacity = newCapacity;
	return true;
}

void cnBroadPhase_Create( cnBroadPhase* bp )
{
	memset( bp, 0, sizeof( cnBroadPhase ) );
	bp->trees[cnProxy_static] = cnDynamicTree_Create();
	bp->trees[cnProxy_movable] = cnDynamicTree_Create();
}

void cnBroadPhase_Destroy( cnBroadPhase* bp )
{
	cnDynamicTree_Destroy( bp->trees + cnProxy_static );
	cnDynamicTree_Destroy( bp->trees + cnProxy_movable );
	cnBroadFree( bp->moveBuffer );
	cnBroadFree( bp->moveSlots[cnProxy_static] );
	cnBroadFree( bp->moveSlots[cnProxy_movable] );
	cnBroadFree( bp->pairs );
	memset( bp, 0, sizeof( cnBroadPhase ) );
}

// Puts a proxy in the move buffer unless it is there already (a proxy moved twice between updates
// is queried once). The per-proxy slot makes both that check and removal on destroy O(1).
static void cnBufferMove( cnBroadPhase* bp, int32_t proxyKey )
{
	cnProxyType type = CN_PROXY_TYPE( proxyKey );
	int32_t id = CN_PROXY_ID( proxyKey );

	if ( id >= bp->moveSlotCapacity[type] )
	{
		int old = bp->moveSlotCapacity[type];
		void* data = bp->moveSlots[type];
		// cover the whole node array of the tree: ids are node indices
		int needed = bp->trees[type].nodeCapacity > id ? bp->trees[type].nodeCapacity : id + 1;
		if ( cnReserve( &data, bp->moveSlotCapacity + type, needed, sizeof( int32_t ), 16 ) == false )
		{
			// out of memory: the proxy misses its new pairs until it moves again
			return;
		}
		bp->moveSlots[type] = data;
		for ( int i = old; i < bp->moveSlotCapacity[type]; ++i )
		{
			bp->moveSlots[type][i] = -1;
		}
	}

	if ( bp->moveSlots[type][id] >= 0 )
	{
		return;
	}

	void* data = bp->moveBuffer;
	if ( cnReserve( &data, &bp->moveCapacity, bp->moveCount + 1, sizeof( int32_t ), 16 ) == false )
	{
		return;
	}
	bp->moveBuffer = data;
	bp->moveSlots[type][id] = bp->moveCount;
	bp->moveBuffer[bp->moveCount++] = proxyKey;
}

static void cnUnbufferMove( cnBroadPhase* bp, int32_t proxyKey )
{
	cnProxyType type = CN_PROXY_TYPE( proxyKey );
	int32_t id = CN_PROXY_ID( proxyKey );
	if ( id < bp->moveSlotCapacity[type] && bp->moveSlots[type][id] >= 0 )
	{
		// leave a hole rather than reorder the buffer
		bp->moveBuffer[bp->moveSlots[type][id]] = CN_NULL_PROXY;
		bp->moveSlots[type][id] = -1;
	}
}

int32_t cnBroadPhase_CreateProxy( cnBroadPhase* bp, cnAABB fatAABB, int32_t shapeIndex, bool isStatic )
{
	cnProxyType type = isStatic ? cnProxy_static : cnProxy_movable;
	int32_t id = cnDynamicTree_CreateProxy( bp->trees + type, fatAABB, (uint64_t)(uint32_t)shapeIndex );
	if ( id == CN_NULL_NODE )
	{
		return CN_NULL_PROXY;
	}
	int32_t key = CN_PROXY_KEY( id, (int32_t)type );

	// A static proxy is buffered too, so a static shape added to a running world finds the movable
	// proxies already overlapping it; it queries only the movable tree.
	cnBufferMove( bp, key );
	return key;
}

void cnBroadPhase_DestroyProxy( cnBroadPhase* bp, int32_t proxyKey )
{
	if ( proxyKey == CN_NULL_PROXY )
	{
		return;
	}
	cnUnbufferMove( bp, proxyKey );
	cnDynamicTree_DestroyProxy( bp->trees + CN_PROXY_TYPE( proxyKey ), CN_PROXY_ID( proxyKey ) );
}

void cnBroadPhase_MoveProxy( cnBroadPhase* bp, int32_t proxyKey, cnAABB fatAABB )
{
	if ( proxyKey == CN_NULL_PROXY )
	{
		return;
	}
	cnDynamicTree_MoveProxy( bp->trees + CN_PROXY_TYPE( proxyKey ), CN_PROXY_ID( proxyKey ), fatAABB );
	cnBufferMove( bp, proxyKey );
}

bool cnBroadPhase_BeginMoves( cnBroadPhase* bp )
{
	return cnDynamicTree_ReserveRebuild( bp->trees + cnProxy_movable );
}

void cnBroadPhase_BatchMoveProxy( cnBroadPhase* bp, int32_t proxyKey, cnAABB fatAABB )
{
	if ( proxyKey == CN_NULL_PROXY )
	{
		return;
	}
	if ( CN_PROXY_TYPE( proxyKey ) != cnProxy_movable )
	{
		// not in the tree the batch rebuilds
		cnBroadPhase_MoveProxy( bp, proxyKey, fatAABB );
		return;
	}
	cnDynamicTree_SetLeafAABB( bp->trees + cnProxy_movable, CN_PROXY_ID( proxyKey ), fatAABB );
	cnBufferMove( bp, proxyKey );
}

void cnBroadPhase_EndMoves( cnBroadPhase* bp )
{
	// the memory was reserved by BeginMoves and no proxy was added since: this cannot fail
	cnDynamicTree_Rebuild( bp->trees + cnProxy_movable );
}

bool cnBroadPhase_PlanEndMoves( cnBroadPhase* bp, int jobs, cnRebuildPlan* plan )
{
	return cnDynamicTree_BeginRebuild( bp->trees + cnProxy_movable, jobs, plan );
}

void cnBroadPhase_BuildEndMovesJob( cnBroadPhase* bp, const cnRebuildJob* job )
{
	cnDynamicTree_BuildJob( bp->trees + cnProxy_movable, job );
}

void cnBroadPhase_FinishEndMoves( cnBroadPhase* bp, const cnRebuildPlan* plan )
{
	cnDynamicTree_EndRebuild( bp->trees + cnProxy_movable, plan );
}

int cnBroadPhase_GetProxyCount( const cnBroadPhase* bp, cnProxyType type )
{
	return cnDynamicTree_GetProxyCount( bp->trees + type );
}

cnAABB cnBroadPhase_GetFatAABB( const cnBroadPhase* bp, int32_t proxyKey )
{
	if ( proxyKey == CN_NULL_PROXY )
	{
		cnAABB empty = { cnVec3_zero, cnVec3_zero };
		return empty;
	}
	return cnDynamicTree_GetAABB( bp->trees + CN_PROXY_TYPE( proxyKey ), CN_PROXY_ID( proxyKey ) );
}

const cnDynamicTree* cnBroadPhase_GetTree( const cnBroadPhase* bp, cnProxyType type )
{
	return bp->trees + type;
}

// State of the query of one buffered proxy.
typedef struct cnPairQueryContext
{
	const cnBroadPhase* bp;
	// pairs not to report (the world's contacts), or NULL
	const cnPairMap* known;
	cnPairBuffer* out;
	int32_t queryKey;
	int32_t queryShape;
	// tree being queried
	cnProxyType treeType;
} cnPairQueryContext;

static bool cnPairQueryCallback( int32_t proxyId, uint64_t userData, void* context )
{
	cnPairQueryContext* q = context;
	const cnBroadPhase* bp = q->bp;
	int32_t proxyKey = CN_PROXY_KEY( proxyId, (int32_t)q->treeType );
	if ( proxyKey == q->queryKey )
	{
		return true;
	}

	// When both proxies are buffered, each one's query finds the other (a static query proxy sees
	// only movable proxies, and a movable one sees both trees), so only the query of the smaller
	// key reports the pair.
	bool otherMoved = proxyId < bp->moveSlotCapacity[q->treeType] && bp->moveSlots[q->treeType][proxyId] >= 0;
	if ( otherMoved && proxyKey < q->queryKey )
	{
		return true;
	}

	uint32_t a = (uint32_t)q->queryShape;
	uint32_t b = (uint32_t)userData;
	if ( a == b )
	{
		// two proxies of one shape (misuse): never pair a shape with itself
		return true;
	}
	uint64_t pair = a < b ? ( ( (uint64_t)a << 32 ) | b ) : ( ( (uint64_t)b << 32 ) | a );
	// a pair that already has its contact would only be looked up and dropped by the serial report:
	// in a moving pile that is most of them
	if ( q->known != NULL && cnPairMap_Find( q->known, pair ) >= 0 )
	{
		return true;
	}

	cnPairBuffer* out = q->out;
	void* data = out->pairs;
	if ( cnReserve( &data, &out->capacity, out->count + 1, sizeof( uint64_t ), 64 ) == false )
	{
		// out of memory: stop this query, the pairs found so far are still reported
		return false;
	}
	out->pairs = data;
	out->pairs[out->count++] = pair;
	return true;
}

// Sorting the packed keys sorts by shape A, then shape B.
static int cnComparePairs( const void* a, const void* b )
{
	uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
	return x < y ? -1 : ( x > y ? 1 : 0 );
}

int cnBroadPhase_GetMoveCount( const cnBroadPhase* bp )
{
	return bp->moveCount;
}

void cnBroadPhase_QueryMoved( const cnBroadPhase* bp, int start, int end, const cnPairMap* known, cnPairBuffer* out )
{
	cnPairQueryContext q;
	q.bp = bp;
	q.known = known;
	q.out = out;
	for ( int i = start; i < end; ++i )
	{
		int32_t key = bp->moveBuffer[i];
		if ( key == CN_NULL_PROXY )
		{
			continue;
		}
		cnProxyType type = CN_PROXY_TYPE( key );
		int32_t id = CN_PROXY_ID( key );
		const cnDynamicTree* tree = bp->trees + type;
		cnAABB box = cnDynamicTree_GetAABB( tree, id );
		q.queryKey = key;
		q.queryShape = (int32_t)cnDynamicTree_GetUserData( tree, id );

		// static proxies never pair with each other
		if ( type == cnProxy_movable )
		{
			q.treeType = cnProxy_static;
			cnDynamicTree_Query( bp->trees + cnProxy_static, box, cnPairQueryCallback, &q );
		}
		q.treeType = cnProxy_movable;
		cnDynamicTree_Query( bp->trees + cnProxy_movable, box, cnPairQueryCallback, &q );
	}
}

int cnBroadPhase_ReportPairs( cnBroadPhase* bp, cnPairBuffer* buffers, int bufferCount, cnPairFcn* fn, void* context )
{
	// gather the buffers (emptied for the next update)
	int total = 0;
	for ( int k = 0; k < bufferCount; ++k )
	{
		total += buffers[k].count;
	}
	void* data = bp->pairs;
	bp->pairCount = 0;
	if ( cnReserve( &data, &bp->pairCapacity, total, sizeof( uint64_t ), 64 ) )
	{
		bp->pairs = data;
		for ( int k = 0; k < bufferCount; ++k )
		{
			if ( buffers[k].count > 0 )
			{
				memcpy( bp->pairs + bp->pairCount, buffers[k].pairs, (size_t)buffers[k].count * sizeof( uint64_t ) );
				bp->pairCount += buffers[k].count;
			}
		}
	}
	// (out of memory: no pair this time; the proxies are not re-buffered, as a query stopped for
	// memory above loses its pairs)
	for ( int k = 0; k < bufferCount; ++k )
	{
		buffers[k].count = 0;
	}

	// clear the move buffer (after all queries: the duplicate rule above reads it)
	for ( int i = 0; i < bp->moveCount; ++i )
	{
		int32_t key = bp->moveBuffer[i];
		if ( key != CN_NULL_PROXY )
		{
			bp->moveSlots[CN_PROXY_TYPE( key )][CN_PROXY_ID( key )] = -1;
		}
	}
	bp->moveCount = 0;

	// The order the trees produce depends on their shape, i.e. on the history of insertions, and
	// the order within the buffers on how the queries were split over workers; the sort makes the
	// reported order depend only on which pairs overlap. The keys are distinct except for misuse
	// (two proxies of one shape), so the result does not depend on qsort's instability; duplicates
	// are dropped anyway so each pair is reported once.
	if ( bp->pairCount > 1 )
	{
		qsort( bp->pairs, (size_t)bp->pairCount, sizeof( uint64_t ), cnComparePairs );
	}
	int reported = 0;
	for ( int i = 0; i < bp->pairCount; ++i )
	{
		uint64_t pair = bp->pairs[i];
		if ( i > 0 && pair == bp->pairs[i - 1] )
		{
			continue;
		}
		fn( (int32_t)( pair >> 32 ), (int32_t)( pair & 0xffffffffu ), context );
		reported += 1;
	}
	return reported;
}

void cnPairBuffer_Destroy( cnPairBuffer* buffer )
{
	cnBroadFree( buffer->pairs );
	memset( buffer, 0, sizeof( cnPairBuffer ) );
}

int cnBroadPhase_UpdatePairs( cnBroadPhase* bp, cnPairFcn* fn, void* context )
{
	cnPairBuffer found = { 0 };
	cnBroadPhase_QueryMoved( bp, 0, bp->moveCount, NULL, &found );
	int reported = cnBroadPhase_ReportPairs( bp, &found, 1, fn, context );
	cnPairBuffer_Destroy( &found );
	return reported;
}
