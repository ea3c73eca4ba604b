// SPDX-License-Identifier: MIT
// Broad phase (after Box2D v3): one dynamic tree for static proxies and one for movable (kinematic
// and dynamic) proxies, plus a buffer of the proxies created or moved since the last update. An
// update queries the trees only for those proxies, so the cost follows what moved, not the scene.
#pragma once

#include "collision/dynamic_tree.h"
#include "pair_map.h"

#include <stdbool.h>
#include <stdint.h>

/// The tree a proxy lives in; the low bit of a proxy key.
typedef enum cnProxyType
{
	cnProxy_static = 0,
	cnProxy_movable = 1,
} cnProxyType;

/// A proxy key: the proxy id in its tree, shifted, with the tree in the low bit.
#define CN_PROXY_KEY( id, type ) ( ( ( id ) << 1 ) | ( type ) )
/// Tree of a proxy key.
#define CN_PROXY_TYPE( key ) ( (cnProxyType)( ( key ) & 1 ) )
/// Proxy id of a proxy key.
#define CN_PROXY_ID( key ) ( ( key ) >> 1 )
/// The key of no proxy.
#define CN_NULL_PROXY ( -1 )

/// The broad phase. Treat the fields as private to broad_phase.c.
typedef struct cnBroadPhase
{
	cnDynamicTree trees[2];

	// proxies to query at the next update; an entry is CN_NULL_PROXY once its proxy is destroyed
	int32_t* moveBuffer;
	int moveCount;
	int moveCapacity;

	// per tree and proxy id: the proxy's slot in the move buffer, -1 when not buffered
	int32_t* moveSlots[2];
	int moveSlotCapacity[2];

	// pairs found by an update, as (uint64_t)shapeA << 32 | shapeB
	uint64_t* pairs;
	int pairCount;
	int pairCapacity;
} cnBroadPhase;

/// Called once per overlapping pair with shapeIndexA < shapeIndexB.
typedef void cnPairFcn( int32_t shapeIndexA, int32_t shapeIndexB, void* context );

/// Makes an empty broad phase.
void cnBroadPhase_Create( cnBroadPhase* bp );

/// Frees the broad phase's memory.
void cnBroadPhase_Destroy( cnBroadPhase* bp );

/// Adds a proxy for a shape; returns its key (CN_NULL_PROXY when out of memory). The proxy finds its
/// pairs at the next update, static proxies included (pairs with movable proxies only).
int32_t cnBroadPhase_CreateProxy( cnBroadPhase* bp, cnAABB fatAABB, int32_t shapeIndex, bool isStatic );

/// Removes a proxy (and drops it from the move buffer).
void cnBroadPhase_DestroyProxy( cnBroadPhase* bp, int32_t proxyKey );

/// Gives a proxy a new fat box; it finds its pairs at the next update. The key stays the same.
void cnBroadPhase_MoveProxy( cnBroadPhase* bp, int32_t proxyKey, cnAABB fatAABB );

// Moving many proxies at once: when a good part of the movable tree moves (a falling pile), one
// rebuild of the tree costs less than removing and inserting each leaf, and gives a better tree.

/// Starts a batch of moves of movable proxies; false (use MoveProxy) when the rebuild's memory cannot
/// be had.
bool cnBroadPhase_BeginMoves( cnBroadPhase* bp );

/// Gives a proxy a new fat box within a batch (BeginMoves): its leaf's box only, buffered for the
/// next update like MoveProxy. The movable tree is invalid until EndMoves.
void cnBroadPhase_BatchMoveProxy( cnBroadPhase* bp, int32_t proxyKey, cnAABB fatAABB );

/// Ends a batch of moves: rebuilds the movable tree from its leaves.
void cnBroadPhase_EndMoves( cnBroadPhase* bp );

/// EndMoves in parts, for workers: plans the rebuild of the movable tree in at most jobs subtrees
/// (false when there is nothing to rebuild), builds one of them (any order, at once), finishes the
/// tree. The tree is the one EndMoves builds, node for node.
bool cnBroadPhase_PlanEndMoves( cnBroadPhase* bp, int jobs, cnRebuildPlan* plan );
void cnBroadPhase_BuildEndMovesJob( cnBroadPhase* bp, const cnRebuildJob* job );
void cnBroadPhase_FinishEndMoves( cnBroadPhase* bp, const cnRebuildPlan* plan );

/// Proxies in the tree of static or of movable proxies.
int cnBroadPhase_GetProxyCount( const cnBroadPhase* bp, cnProxyType type );

/// The fat box of a proxy.
cnAABB cnBroadPhase_GetFatAABB( const cnBroadPhase* bp, int32_t proxyKey );

/// The tree of static or of movable proxies, for queries.
const cnDynamicTree* cnBroadPhase_GetTree( const cnBroadPhase* bp, cnProxyType type );

/// Reports every pair of overlapping fat boxes that involves a proxy created or moved since the last
/// update, each pair once, sorted by shape A then shape B, never static with static; then clears the
/// move buffer. Returns the number of pairs reported.
int cnBroadPhase_UpdatePairs( cnBroadPhase* bp, cnPairFcn* fn, void* context );

// The same update in two halves, so the queries can run on several threads (contact.c): queries of
// ranges of the move buffer into one pair buffer per worker, then one serial report.

/// Pairs found by the queries of one worker (packed as in cnBroadPhase.pairs).
typedef struct cnPairBuffer
{
	uint64_t* pairs;
	int count;
	int capacity;
} cnPairBuffer;

/// Frees a pair buffer's memory.
void cnPairBuffer_Destroy( cnPairBuffer* buffer );

/// Entries in the move buffer: the items of cnBroadPhase_QueryMoved.
int cnBroadPhase_GetMoveCount( const cnBroadPhase* bp );

/// Queries the trees for the move buffer's entries [start, end), appending the pairs found to out,
/// except those known holds (NULL: none; keys as cnPairKey of the shape indices). Reads the broad
/// phase and known only, so ranges can be queried at once on several threads.
void cnBroadPhase_QueryMoved( const cnBroadPhase* bp, int start, int end, const cnPairMap* known, cnPairBuffer* out );

/// Reports the pairs of the buffers (emptied) as cnBroadPhase_UpdatePairs does, sorted, each once,
/// and clears the move buffer; how the queries were split over the buffers does not matter.
int cnBroadPhase_ReportPairs( cnBroadPhase* bp, cnPairBuffer* buffers, int bufferCount, cnPairFcn* fn,
							  void* context );
