// SPDX-License-Identifier: MIT
// Dynamic AABB tree (after Box2D v3): a binary tree of boxes whose leaves are proxies. Leaves are
// inserted where the surface-area heuristic says they cost least and rotations keep the cost down,
// so queries visit few nodes. All nodes live in one growable array with a free list: creating,
// moving and querying proxies allocates only when that array has to grow.
#pragma once

#include "cairn/math.h"

#include <stdbool.h>
#include <stdint.h>

/// Index of no node.
#define CN_NULL_NODE ( -1 )

/// A node of the tree: a leaf (proxy) when child1 is CN_NULL_NODE, otherwise an internal node
/// whose box encloses both children.
typedef struct cnTreeNode
{
	cnAABB aabb;
	uint64_t userData;
	union
	{
		// parent of an allocated node
		int32_t parent;
		// next free node of a node on the free list
		int32_t next;
	};
	int32_t child1, child2;
	// leaves have height 0
	int16_t height;
	// cnTreeNode_allocated
	uint16_t flags;
} cnTreeNode;

/// The tree. Treat the fields as read-only outside dynamic_tree.c.
typedef struct cnDynamicTree
{
	cnTreeNode* nodes;
	int32_t root;
	int32_t nodeCount;
	int32_t nodeCapacity;
	int32_t freeList;
	int32_t proxyCount;

	// scratch of the full rebuild, kept so a repeated rebuild does not allocate
	int32_t* leafIndices;
	cnVec3* leafCenters;
	// the internal nodes of the rebuild, taken from the free list in the order a serial top-down
	// build takes them (a subtree's nodes are a contiguous run of it, so subtrees build apart)
	int32_t* rebuildNodes;
	int32_t rebuildCapacity;
} cnDynamicTree;

/// The most subtrees a rebuild is split into (cnDynamicTree_BeginRebuild).
#define CN_REBUILD_MAX_JOBS 8

/// A subtree of a rebuild that one worker builds alone: leaves [begin, end) of the rebuild's leaf
/// list, its internal nodes from rebuildNodes[firstNode], hung under parent (its second child when
/// second is set; the root when parent is null).
typedef struct cnRebuildJob
{
	int32_t begin, end;
	int32_t firstNode;
	int32_t parent;
	bool second;
} cnRebuildJob;

/// A rebuild split into subtrees: the jobs, and the internal nodes above them (children first),
/// whose boxes are set once the jobs are built.
typedef struct cnRebuildPlan
{
	int jobCount;
	cnRebuildJob jobs[CN_REBUILD_MAX_JOBS];
	int topCount;
	int32_t top[CN_REBUILD_MAX_JOBS];
} cnRebuildPlan;

/// Query callback: called for each proxy whose box overlaps the query box. Return false to stop.
typedef bool cnTreeQueryFcn( int32_t proxyId, uint64_t userData, void* context );

/// The segment of a tree ray cast: p1 + t (p2 - p1) for t in [0, maxFraction].
typedef struct cnTreeRayInput
{
	cnVec3 p1, p2;
	double maxFraction;
} cnTreeRayInput;

/// Ray cast callback: called for each proxy whose box the (current, clipped) segment touches, with
/// that segment. Return a negative value to ignore the proxy, 0 to stop the cast, a fraction in
/// (0, input->maxFraction) to clip the segment there, or input->maxFraction to go on unchanged.
typedef double cnTreeRayCastFcn( const cnTreeRayInput* input, int32_t proxyId, uint64_t userData, void* context );

/// Makes an empty tree.
cnDynamicTree cnDynamicTree_Create( void );

/// Frees the tree's memory and leaves it empty.
void cnDynamicTree_Destroy( cnDynamicTree* tree );

/// Adds a proxy with the given box; returns its id (CN_NULL_NODE when out of memory).
int32_t cnDynamicTree_CreateProxy( cnDynamicTree* tree, cnAABB aabb, uint64_t userData );

/// Removes a proxy. Its id may be handed out again by a later create.
void cnDynamicTree_DestroyProxy( cnDynamicTree* tree, int32_t proxyId );

/// Gives a proxy a new box (removal and reinsertion); the id stays the same.
void cnDynamicTree_MoveProxy( cnDynamicTree* tree, int32_t proxyId, cnAABB aabb );

/// Calls fn for every proxy whose box overlaps aabb (touching counts), until fn returns false.
void cnDynamicTree_Query( const cnDynamicTree* tree, cnAABB aabb, cnTreeQueryFcn* fn, void* context );

/// Calls fn for every proxy whose box the segment touches, clipping the segment as fn asks.
void cnDynamicTree_RayCast( const cnDynamicTree* tree, const cnTreeRayInput* input, cnTreeRayCastFcn* fn,
							void* context );

/// The box of a proxy.
cnAABB cnDynamicTree_GetAABB( const cnDynamicTree* tree, int32_t proxyId );

/// The user data of a proxy.
uint64_t cnDynamicTree_GetUserData( const cnDynamicTree* tree, int32_t proxyId );

/// Height of the tree: 0 for a single leaf, -1 when empty.
int cnDynamicTree_GetHeight( const cnDynamicTree* tree );

/// Number of proxies in the tree.
int cnDynamicTree_GetProxyCount( const cnDynamicTree* tree );

/// Sum of the areas of internal nodes over the root's area: the SAH quality measure (lower is better).
double cnDynamicTree_GetAreaRatio( const cnDynamicTree* tree );

/// Checks the structure: parent links, heights, boxes enclosing children, node and proxy counts,
/// the free list. Returns true when all hold.
bool cnDynamicTree_Validate( const cnDynamicTree* tree );

/// Rebuilds the whole tree top-down (binned surface-area heuristic) from its leaves, keeping every
/// proxy id. Useful after a bulk load. Does nothing when out of memory (see ReserveRebuild).
void cnDynamicTree_Rebuild( cnDynamicTree* tree );

/// Starts a rebuild split into at most jobs (1 to CN_REBUILD_MAX_JOBS) subtrees: frees the internal
/// nodes, splits the top levels and fills the plan. The jobs may then be built in any order and at
/// once (cnDynamicTree_BuildJob), then EndRebuild finishes the tree; every split gives the same tree
/// as cnDynamicTree_Rebuild, node for node. False, with nothing changed, when out of memory.
bool cnDynamicTree_BeginRebuild( cnDynamicTree* tree, int jobs, cnRebuildPlan* plan );

/// Builds one subtree of a rebuild; touches only its own leaves and nodes.
void cnDynamicTree_BuildJob( cnDynamicTree* tree, const cnRebuildJob* job );

/// Finishes a rebuild once every job is built: the boxes and heights of the nodes above them.
void cnDynamicTree_EndRebuild( cnDynamicTree* tree, const cnRebuildPlan* plan );

/// Makes sure a rebuild of the tree as it is has its memory, so it cannot fail; false when out of
/// memory.
bool cnDynamicTree_ReserveRebuild( cnDynamicTree* tree );

/// Gives a leaf a new box in place, leaving its ancestors as they are: the tree is not valid again
/// until it is rebuilt (reserve first), so use this only for a batch of moves followed by a rebuild.
void cnDynamicTree_SetLeafAABB( cnDynamicTree* tree, int32_t proxyId, cnAABB aabb );
