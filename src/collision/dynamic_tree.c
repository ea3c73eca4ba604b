// SPDX-License-Identifier: MIT
#include "collision/dynamic_tree.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

enum
{
	cnTreeNode_allocated = 1,
};

// Queries walk the tree with an explicit stack. A balanced tree of a million proxies is about 40
// deep and the stack holds at most height + 1 entries, so this fixed size almost never spills to
// the heap.
#define CN_TREE_STACK_SIZE 256

// Every allocation of this file goes through these two functions, so an allocator can be routed in.
static void* cnTreeRealloc( void* p, size_t size )
{
	return realloc( p, size );
}

static void cnTreeFree( void* p )
{
	free( p );
}

static inline bool cnIsLeaf( const cnTreeNode* node )
{
	return node->child1 == CN_NULL_NODE;
}

static inline int16_t cnMaxHeight( int16_t a, int16_t b )
{
	return a > b ? a : b;
}

static inline cnVec3 cnAABB_Center( cnAABB a )
{
	return cnMulSV( 0.5, cnAdd( a.lower, a.upper ) );
}

// ---------------------------------------------------------------------------------------------
// query stack: fixed storage first, heap only when a pathological tree is deeper than that

typedef struct cnTreeStack
{
	int32_t* data;
	int count;
	int capacity;
	int32_t local[CN_TREE_STACK_SIZE];
} cnTreeStack;

static void cnStack_Init( cnTreeStack* s )
{
	s->data = s->local;
	s->count = 0;
	s->capacity = CN_TREE_STACK_SIZE;
}

static bool cnStack_Push( cnTreeStack* s, int32_t value )
{
	if ( s->count == s->capacity )
	{
		int capacity = 2 * s->capacity;
		int32_t* data = cnTreeRealloc( s->data == s->local ? NULL : s->data, (size_t)capacity * sizeof( int32_t ) );
		if ( data == NULL )
		{
			return false;
		}
		if ( s->data == s->local )
		{
			memcpy( data, s->local, sizeof( s->local ) );
		}
		s->data = data;
		s->capacity = capacity;
	}
	s->data[s->count++] = value;
	return true;
}

static void cnStack_Free( cnTreeStack* s )
{
	if ( s->data != s->local )
	{
		cnTreeFree( s->data );
	}
}

// ---------------------------------------------------------------------------------------------
// node pool

cnDynamicTree cnDynamicTree_Create( void )
{
	cnDynamicTree tree;
	memset( &tree, 0, sizeof( tree ) );
	tree.root = CN_NULL_NODE;
	tree.freeList = CN_NULL_NODE;
	return tree;
}

void cnDynamicTree_Destroy( cnDynamicTree* tree )
{
	cnTreeFree( tree->nodes );
	cnTreeFree( tree->leafIndices );
	cnTreeFree( tree->leafCenters );
	cnTreeFree( tree->rebuildNodes );
	*tree = cnDynamicTree_Create();
}

// Takes a node from the free list, doubling the array when the list is empty.
static int32_t cnAllocateNode( cnDynamicTree* tree )
{
	if ( tree->freeList == CN_NULL_NODE )
	{
		int32_t capacity = tree->nodeCapacity > 0 ? 2 * tree->nodeCapacity : 16;
		cnTreeNode* nodes = cnTreeRealloc( tree->nodes, (size_t)capacity * sizeof( cnTreeNode ) );
		if ( nodes == NULL )
		{
			return CN_NULL_NODE;
		}
		// chain the new nodes in index order so ids are handed out in a fixed order
		for ( int32_t i = tree->nodeCapacity; i < capacity; ++i )
		{
			memset( nodes + i, 0, sizeof( cnTreeNode ) );
			nodes[i].next = i + 1 < capacity ? i + 1 : CN_NULL_NODE;
		}
		tree->freeList = tree->nodeCapacity;
		tree->nodes = nodes;
		tree->nodeCapacity = capacity;
	}

	int32_t index = tree->freeList;
	cnTreeNode* node = tree->nodes + index;
	tree->freeList = node->next;
	node->parent = CN_NULL_NODE;
	node->child1 = CN_NULL_NODE;
	node->child2 = CN_NULL_NODE;
	node->height = 0;
	node->userData = 0;
	node->flags = cnTreeNode_allocated;
	tree->nodeCount += 1;
	return index;
}

static void cnFreeNode( cnDynamicTree* tree, int32_t index )
{
	cnTreeNode* node = tree->nodes + index;
	node->next = tree->freeList;
	node->flags = 0;
	node->height = -1;
	tree->freeList = index;
	tree->nodeCount -= 1;
}

// ---------------------------------------------------------------------------------------------
// insertion and removal

// Finds the node that becomes the sibling of a new leaf with box D: the node whose pairing with D
// adds the least surface area to the tree. Pairing with node X costs area(X u D) for the new parent
// plus the growth of every ancestor of X (the "inherited" cost). Descends greedily from the root
// towards the child with the lower bound on cost, stopping when neither child can beat the best
// so far (Box2D v3's branch-and-bound descent, one path only).
static int32_t cnFindBestSibling( const cnDynamicTree* tree, cnAABB boxD )
{
	const cnTreeNode* nodes = tree->nodes;
	cnVec3 centerD = cnAABB_Center( boxD );
	double areaD = cnAABB_Area( boxD );

	int32_t index = tree->root;
	cnAABB rootBox = nodes[index].aabb;
	double areaBase = cnAABB_Area( rootBox );
	double directCost = cnAABB_Area( cnAABB_Union( rootBox, boxD ) );
	double inheritedCost = 0.0;

	int32_t bestSibling = index;
	double bestCost = directCost;

	while ( cnIsLeaf( nodes + index ) == false )
	{
		int32_t child1 = nodes[index].child1;
		int32_t child2 = nodes[index].child2;

		// cost of making a new parent for this node and D
		double cost = directCost + inheritedCost;
		if ( cost < bestCost )
		{
			bestSibling = index;
			bestCost = cost;
		}

		// this node grows whatever happens below it
		inheritedCost += directCost - areaBase;

		bool leaf1 = cnIsLeaf( nodes + child1 );
		bool leaf2 = cnIsLeaf( nodes + child2 );

		cnAABB box1 = nodes[child1].aabb;
		double directCost1 = cnAABB_Area( cnAABB_Union( box1, boxD ) );
		double area1 = 0.0;
		double lowerCost1 = DBL_MAX;
		if ( leaf1 )
		{
			// a leaf can only become D's sibling
			double cost1 = directCost1 + inheritedCost;
			if ( cost1 < bestCost )
			{
				bestSibling = child1;
				bestCost = cost1;
			}
		}
		else
		{
			// below child 1 the cost is at least its own growth plus D's area if D is larger
			area1 = cnAABB_Area( box1 );
			double growth = areaD - area1;
			lowerCost1 = inheritedCost + directCost1 + ( growth < 0.0 ? growth : 0.0 );
		}

		cnAABB box2 = nodes[child2].aabb;
		double directCost2 = cnAABB_Area( cnAABB_Union( box2, boxD ) );
		double area2 = 0.0;
		double lowerCost2 = DBL_MAX;
		if ( leaf2 )
		{
			double cost2 = directCost2 + inheritedCost;
			if ( cost2 < bestCost )
			{
				bestSibling = child2;
				bestCost = cost2;
			}
		}
		else
		{
			area2 = cnAABB_Area( box2 );
			double growth = areaD - area2;
			lowerCost2 = inheritedCost + directCost2 + ( growth < 0.0 ? growth : 0.0 );
		}

		if ( leaf1 && leaf2 )
		{
			break;
		}

		// neither subtree can do better than what we have
		if ( bestCost <= lowerCost1 && bestCost <= lowerCost2 )
		{
			break;
		}

		if ( lowerCost1 == lowerCost2 && leaf1 == false )
		{
			// no preference by area, as when both children contain D: go towards the nearer centre
			lowerCost1 = cnLengthSquared( cnSub( cnAABB_Center( box1 ), centerD ) );
			lowerCost2 = cnLengthSquared( cnSub( cnAABB_Center( box2 ), centerD ) );
		}

		if ( lowerCost1 < lowerCost2 && leaf1 == false )
		{
			index = child1;
			areaBase = area1;
			directCost = directCost1;
		}
		else
		{
			index = child2;
			areaBase = area2;
			directCost = directCost2;
		}
	}

	return bestSibling;
}

// Rotation at node A: swaps a child of A with a grandchild on the other side when that lowers the
// total area of internal nodes (the SAH cost). Only the boxes and heights of A's children change,
// so the fix is local. Box2D v3 keeps its trees balanced this way; a swap that lowers area also
// tends to undo the lopsided growth that in-order insertion produces.
static void cnRotateNodes( cnDynamicTree* tree, int32_t iA )
{
	cnTreeNode* nodes = tree->nodes;
	cnTreeNode* A = nodes + iA;
	if ( A->height < 2 )
	{
		return;
	}

	int32_t iB = A->child1;
	int32_t iC = A->child2;
	cnTreeNode* B = nodes + iB;
	cnTreeNode* C = nodes + iC;

	if ( B->height == 0 )
	{
		// B is a leaf and C is internal: try swapping B with a child of C
		int32_t iF = C->child1;
		int32_t iG = C->child2;
		cnTreeNode* F = nodes + iF;
		cnTreeNode* G = nodes + iG;

		double costBase = cnAABB_Area( C->aabb );
		// swapping B and F leaves C = B u G
		cnAABB aabbBG = cnAABB_Union( B->aabb, G->aabb );
		double costBF = cnAABB_Area( aabbBG );
		// swapping B and G leaves C = B u F
		cnAABB aabbBF = cnAABB_Union( B->aabb, F->aabb );
		double costBG = cnAABB_Area( aabbBF );

		if ( costBase <= costBF && costBase <= costBG )
		{
			return;
		}

		if ( costBF < costBG )
		{
			A->child1 = iF;
			C->child1 = iB;
			B->parent = iC;
			F->parent = iA;
			C->aabb = aabbBG;
			C->height = 1 + cnMaxHeight( B->height, G->height );
			A->height = 1 + cnMaxHeight( C->height, F->height );
		}
		else
		{
			A->child1 = iG;
			C->child2 = iB;
			B->parent = iC;
			G->parent = iA;
			C->aabb = aabbBF;
			C->height = 1 + cnMaxHeight( B->height, F->height );
			A->height = 1 + cnMaxHeight( C->height, G->height );
		}
	}
	else if ( C->height == 0 )
	{
		// C is a leaf and B is internal: try swapping C with a child of B
		int32_t iD = B->child1;
		int32_t iE = B->child2;
		cnTreeNode* D = nodes + iD;
		cnTreeNode* E = nodes + iE;

		double costBase = cnAABB_Area( B->aabb );
		// swapping C and D leaves B = C u E
		cnAABB aabbCE = cnAABB_Union( C->aabb, E->aabb );
		double costCD = cnAABB_Area( aabbCE );
		// swapping C and E leaves B = C u D
		cnAABB aabbCD = cnAABB_Union( C->aabb, D->aabb );
		double costCE = cnAABB_Area( aabbCD );

		if ( costBase <= costCD && costBase <= costCE )
		{
			return;
		}

		if ( costCD < costCE )
		{
			A->child2 = iD;
			B->child1 = iC;
			C->parent = iB;
			D->parent = iA;
			B->aabb = aabbCE;
			B->height = 1 + cnMaxHeight( C->height, E->height );
			A->height = 1 + cnMaxHeight( B->height, D->height );
		}
		else
		{
			A->child2 = iE;
			B->child2 = iC;
			C->parent = iB;
			E->parent = iA;
			B->aabb = aabbCD;
			B->height = 1 + cnMaxHeight( C->height, D->height );
			A->height = 1 + cnMaxHeight( B->height, E->height );
		}
	}
	else
	{
		// both internal: four candidate swaps. The areas of the swapped nodes themselves do not
		// change, so each cost is the area of the one internal node that gets a new box plus the
		// unchanged other child.
		int32_t iD = B->child1;
		int32_t iE = B->child2;
		int32_t iF = C->child1;
		int32_t iG = C->child2;
		cnTreeNode* D = nodes + iD;
		cnTreeNode* E = nodes + iE;
		cnTreeNode* F = nodes + iF;
		cnTreeNode* G = nodes + iG;

		double areaB = cnAABB_Area( B->aabb );
		double areaC = cnAABB_Area( C->aabb );
		double bestCost = areaB + areaC;
		enum
		{
			rotateNone,
			rotateBF,
			rotateBG,
			rotateCD,
			rotateCE
		} best = rotateNone;

		cnAABB aabbBG = cnAABB_Union( B->aabb, G->aabb );
		double costBF = areaB + cnAABB_Area( aabbBG );
		if ( costBF < bestCost )
		{
			best = rotateBF;
			bestCost = costBF;
		}

		cnAABB aabbBF = cnAABB_Union( B->aabb, F->aabb );
		double costBG = areaB + cnAABB_Area( aabbBF );
		if ( costBG < bestCost )
		{
			best = rotateBG;
			bestCost = costBG;
		}

		cnAABB aabbCE = cnAABB_Union( C->aabb, E->aabb );
		double costCD = areaC + cnAABB_Area( aabbCE );
		if ( costCD < bestCost )
		{
			best = rotateCD;
			bestCost = costCD;
		}

		cnAABB aabbCD = cnAABB_Union( C->aabb, D->aabb );
		double costCE = areaC + cnAABB_Area( aabbCD );
		if ( costCE < bestCost )
		{
			best = rotateCE;
		}

		switch ( best )
		{
			case rotateNone:
				break;

			case rotateBF:
				A->child1 = iF;
				C->child1 = iB;
				B->parent = iC;
				F->parent = iA;
				C->aabb = aabbBG;
				C->height = 1 + cnMaxHeight( B->height, G->height );
				A->height = 1 + cnMaxHeight( C->height, F->height );
				break;

			case rotateBG:
				A->child1 = iG;
				C->child2 = iB;
				B->parent = iC;
				G->parent = iA;
				C->aabb = aabbBF;
				C->height = 1 + cnMaxHeight( B->height, F->height );
				A->height = 1 + cnMaxHeight( C->height, G->height );
				break;

			case rotateCD:
				A->child2 = iD;
				B->child1 = iC;
				C->parent = iB;
				D->parent = iA;
				B->aabb = aabbCE;
				B->height = 1 + cnMaxHeight( C->height, E->height );
				A->height = 1 + cnMaxHeight( B->height, D->height );
				break;

			case rotateCE:
				A->child2 = iE;
				B->child2 = iC;
				C->parent = iB;
				E->parent = iA;
				B->aabb = aabbCD;
				B->height = 1 + cnMaxHeight( C->height, D->height );
				A->height = 1 + cnMaxHeight( B->height, E->height );
				break;
		}
	}
}

// Links an allocated leaf into the tree. Needs one spare node for the new parent, which the caller
// has already reserved (so this cannot fail).
static void cnInsertLeaf( cnDynamicTree* tree, int32_t leaf, int32_t newParent )
{
	cnTreeNode* nodes = tree->nodes;
	if ( tree->root == CN_NULL_NODE )
	{
		tree->root = leaf;
		nodes[leaf].parent = CN_NULL_NODE;
		return;
	}

	cnAABB leafBox = nodes[leaf].aabb;
	int32_t sibling = cnFindBestSibling( tree, leafBox );

	// new parent takes the sibling's place
	int32_t oldParent = nodes[sibling].parent;
	cnTreeNode* parent = nodes + newParent;
	parent->parent = oldParent;
	parent->userData = 0;
	parent->aabb = cnAABB_Union( leafBox, nodes[sibling].aabb );
	parent->height = (int16_t)( nodes[sibling].height + 1 );
	parent->child1 = sibling;
	parent->child2 = leaf;

	if ( oldParent != CN_NULL_NODE )
	{
		if ( nodes[oldParent].child1 == sibling )
		{
			nodes[oldParent].child1 = newParent;
		}
		else
		{
			nodes[oldParent].child2 = newParent;
		}
	}
	else
	{
		tree->root = newParent;
	}
	nodes[sibling].parent = newParent;
	nodes[leaf].parent = newParent;

	// walk back up refitting boxes and heights, rotating where it lowers the cost
	int32_t index = oldParent;
	while ( index != CN_NULL_NODE )
	{
		cnTreeNode* node = nodes + index;
		int32_t child1 = node->child1;
		int32_t child2 = node->child2;
		node->aabb = cnAABB_Union( nodes[child1].aabb, nodes[child2].aabb );
		node->height = 1 + cnMaxHeight( nodes[child1].height, nodes[child2].height );
		cnRotateNodes( tree, index );
		index = node->parent;
	}
}

// Unlinks a leaf: its sibling takes the parent's place and the parent node is freed.
static void cnRemoveLeaf( cnDynamicTree* tree, int32_t leaf )
{
	cnTreeNode* nodes = tree->nodes;
	if ( leaf == tree->root )
	{
		tree->root = CN_NULL_NODE;
		return;
	}

	int32_t parent = nodes[leaf].parent;
	int32_t grandParent = nodes[parent].parent;
	int32_t sibling = nodes[parent].child1 == leaf ? nodes[parent].child2 : nodes[parent].child1;

	if ( grandParent != CN_NULL_NODE )
	{
		if ( nodes[grandParent].child1 == parent )
		{
			nodes[grandParent].child1 = sibling;
		}
		else
		{
			nodes[grandParent].child2 = sibling;
		}
		nodes[sibling].parent = grandParent;
		cnFreeNode( tree, parent );

		// refit the ancestors
		int32_t index = grandParent;
		while ( index != CN_NULL_NODE )
		{
			cnTreeNode* node = nodes + index;
			int32_t child1 = node->child1;
			int32_t child2 = node->child2;
			node->aabb = cnAABB_Union( nodes[child1].aabb, nodes[child2].aabb );
			node->height = 1 + cnMaxHeight( nodes[child1].height, nodes[child2].height );
			index = node->parent;
		}
	}
	else
	{
		tree->root = sibling;
		nodes[sibling].parent = CN_NULL_NODE;
		cnFreeNode( tree, parent );
	}
	nodes[leaf].parent = CN_NULL_NODE;
}

int32_t cnDynamicTree_CreateProxy( cnDynamicTree* tree, cnAABB aabb, uint64_t userData )
{
	// A leaf brings one internal node with it (n leaves, n - 1 internal nodes). Allocate both up
	// front so a failed allocation leaves the tree untouched.
	int32_t proxyId = cnAllocateNode( tree );
	if ( proxyId == CN_NULL_NODE )
	{
		return CN_NULL_NODE;
	}
	int32_t parent = CN_NULL_NODE;
	if ( tree->root != CN_NULL_NODE )
	{
		parent = cnAllocateNode( tree );
		if ( parent == CN_NULL_NODE )
		{
			cnFreeNode( tree, proxyId );
			return CN_NULL_NODE;
		}
	}

	cnTreeNode* node = tree->nodes + proxyId;
	node->aabb = aabb;
	node->userData = userData;
	node->height = 0;
	cnInsertLeaf( tree, proxyId, parent );
	tree->proxyCount += 1;
	return proxyId;
}

void cnDynamicTree_DestroyProxy( cnDynamicTree* tree, int32_t proxyId )
{
	if ( proxyId < 0 || proxyId >= tree->nodeCapacity || cnIsLeaf( tree->nodes + proxyId ) == false ||
		 ( tree->nodes[proxyId].flags & cnTreeNode_allocated ) == 0 )
	{
		return;
	}
	cnRemoveLeaf( tree, proxyId );
	cnFreeNode( tree, proxyId );
	tree->proxyCount -= 1;
}

void cnDynamicTree_MoveProxy( cnDynamicTree* tree, int32_t proxyId, cnAABB aabb )
{
	if ( proxyId < 0 || proxyId >= tree->nodeCapacity || ( tree->nodes[proxyId].flags & cnTreeNode_allocated ) == 0 ||
		 cnIsLeaf( tree->nodes + proxyId ) == false )
	{
		return;
	}

	// Removal frees the leaf's parent (or leaves the tree with just this leaf); reinsertion needs
	// one node back, which the free list now certainly has, so neither step can fail.
	cnRemoveLeaf( tree, proxyId );
	tree->nodes[proxyId].aabb = aabb;
	int32_t parent = CN_NULL_NODE;
	if ( tree->root != CN_NULL_NODE )
	{
		parent = cnAllocateNode( tree );
	}
	cnInsertLeaf( tree, proxyId, parent );
}

// ---------------------------------------------------------------------------------------------
// queries

void cnDynamicTree_Query( const cnDynamicTree* tree, cnAABB aabb, cnTreeQueryFcn* fn, void* context )
{
	if ( tree->root == CN_NULL_NODE )
	{
		return;
	}

	const cnTreeNode* nodes = tree->nodes;
	cnTreeStack stack;
	cnStack_Init( &stack );
	cnStack_Push( &stack, tree->root );

	while ( stack.count > 0 )
	{
		int32_t index = stack.data[--stack.count];
		const cnTreeNode* node = nodes + index;
		if ( cnAABB_Overlaps( node->aabb, aabb ) == false )
		{
			continue;
		}

		if ( cnIsLeaf( node ) )
		{
			if ( fn( index, node->userData, context ) == false )
			{
				break;
			}
		}
		else
		{
			// child2 first so child1 is visited first: a fixed, documented order
			if ( cnStack_Push( &stack, node->child2 ) == false || cnStack_Push( &stack, node->child1 ) == false )
			{
				break;
			}
		}
	}

	cnStack_Free( &stack );
}

// Parameter interval [t0, t1] within [0, tMax] of the segment p + t d inside the box, computed slab
// by slab; false when empty. A zero direction component leaves the segment inside or outside that
// slab for all t, which is tested directly (dividing would make 0 * inf = NaN on the slab's face).
static bool cnSegmentOverlapsBox( cnVec3 p, cnVec3 d, double tMax, cnAABB box )
{
	double t0 = 0.0, t1 = tMax;
	for ( int axis = 0; axis < 3; ++axis )
	{
		double pi = cnGet( p, axis );
		double di = cnGet( d, axis );
		double lo = cnGet( box.lower, axis );
		double hi = cnGet( box.upper, axis );
		if ( di == 0.0 )
		{
			if ( pi < lo || hi < pi )
			{
				return false;
			}
			continue;
		}
		double inv = 1.0 / di;
		double ta = ( lo - pi ) * inv;
		double tb = ( hi - pi ) * inv;
		if ( ta > tb )
		{
			double tmp = ta;
			ta = tb;
			tb = tmp;
		}
		t0 = ta > t0 ? ta : t0;
		t1 = tb < t1 ? tb : t1;
		if ( t0 > t1 )
		{
			return false;
		}
	}
	return true;
}

void cnDynamicTree_RayCast( const cnDynamicTree* tree, const cnTreeRayInput* input, cnTreeRayCastFcn* fn,
							void* context )
{
	if ( tree->root == CN_NULL_NODE )
	{
		return;
	}

	cnVec3 p1 = input->p1;
	cnVec3 d = cnSub( input->p2, input->p1 );
	double maxFraction = input->maxFraction;
	cnTreeRayInput subInput = *input;

	const cnTreeNode* nodes = tree->nodes;
	cnTreeStack stack;
	cnStack_Init( &stack );
	cnStack_Push( &stack, tree->root );

	while ( stack.count > 0 )
	{
		int32_t index = stack.data[--stack.count];
		const cnTreeNode* node = nodes + index;
		if ( cnSegmentOverlapsBox( p1, d, maxFraction, node->aabb ) == false )
		{
			continue;
		}

		if ( cnIsLeaf( node ) )
		{
			subInput.maxFraction = maxFraction;
			double value = fn( &subInput, index, node->userData, context );
			if ( value == 0.0 )
			{
				// the caller asked to stop
				break;
			}
			if ( 0.0 < value && value < maxFraction )
			{
				// clip the segment: later boxes must be hit before this fraction
				maxFraction = value;
			}
		}
		else
		{
			if ( cnStack_Push( &stack, node->child2 ) == false || cnStack_Push( &stack, node->child1 ) == false )
			{
				break;
			}
		}
	}

	cnStack_Free( &stack );
}

cnAABB cnDynamicTree_GetAABB( const cnDynamicTree* tree, int32_t proxyId )
{
	return tree->nodes[proxyId].aabb;
}

uint64_t cnDynamicTree_GetUserData( const cnDynamicTree* tree, int32_t proxyId )
{
	return tree->nodes[proxyId].userData;
}

int cnDynamicTree_GetHeight( const cnDynamicTree* tree )
{
	return tree->root == CN_NULL_NODE ? -1 : tree->nodes[tree->root].height;
}

int cnDynamicTree_GetProxyCount( const cnDynamicTree* tree )
{
	return tree->proxyCount;
}

double cnDynamicTree_GetAreaRatio( const cnDynamicTree* tree )
{
	if ( tree->root == CN_NULL_NODE )
	{
		return 0.0;
	}
	double rootArea = cnAABB_Area( tree->nodes[tree->root].aabb );
	double totalArea = 0.0;
	for ( int32_t i = 0; i < tree->nodeCapacity; ++i )
	{
		const cnTreeNode* node = tree->nodes + i;
		if ( ( node->flags & cnTreeNode_allocated ) && cnIsLeaf( node ) == false && i != tree->root )
		{
			totalArea += cnAABB_Area( node->aabb );
		}
	}
	return rootArea > 0.0 ? totalArea / rootArea : 0.0;
}

// ---------------------------------------------------------------------------------------------
// validation

// Checks one node reached from parent: allocated, linked back to its parent, a leaf of height 0
// or an inner node with two distinct children. Counts it.
static bool cnValidateNode( const cnDynamicTree* tree, int32_t index, int32_t parent, int* leafCount, int* nodeCount )
{
	if ( index < 0 || index >= tree->nodeCapacity )
	{
		return false;
	}
	const cnTreeNode* node = tree->nodes + index;
	if ( ( node->flags & cnTreeNode_allocated ) == 0 || node->parent != parent )
	{
		return false;
	}
	*nodeCount += 1;
	if ( cnIsLeaf( node ) )
	{
		*leafCount += 1;
		return node->child2 == CN_NULL_NODE && node->height == 0;
	}
	return node->child2 != CN_NULL_NODE && node->child1 != node->child2;
}

bool cnDynamicTree_Validate( const cnDynamicTree* tree )
{
	int leafCount = 0;
	int nodeCount = 0;
	if ( tree->nodeCount < 0 || tree->nodeCount > tree->nodeCapacity || tree->proxyCount < 0 )
	{
		return false;
	}
	if ( tree->root != CN_NULL_NODE )
	{
		// depth first with an explicit stack: a tree read from a file may be as deep as it is large.
		// A node is pushed only by the parent it names, and no more nodes than the tree holds are
		// visited, so a cycle cannot run on
		int32_t* stack = malloc( (size_t)tree->nodeCount * sizeof( int32_t ) + sizeof( int32_t ) );
		if ( stack == NULL || cnValidateNode( tree, tree->root, CN_NULL_NODE, &leafCount, &nodeCount ) == false )
		{
			free( stack );
			return false;
		}
		int top = 0;
		stack[top++] = tree->root;
		bool ok = true;
		while ( top > 0 && ok )
		{
			int32_t index = stack[--top];
			const cnTreeNode* node = tree->nodes + index;
			if ( cnIsLeaf( node ) )
			{
				continue;
			}
			int32_t child1 = node->child1, child2 = node->child2;
			ok = cnValidateNode( tree, child1, index, &leafCount, &nodeCount ) &&
				 cnValidateNode( tree, child2, index, &leafCount, &nodeCount ) && nodeCount <= tree->nodeCount;
			if ( ok )
			{
				const cnTreeNode* c1 = tree->nodes + child1;
				const cnTreeNode* c2 = tree->nodes + child2;
				ok = node->height == 1 + cnMaxHeight( c1->height, c2->height ) && cnAABB_Contains( node->aabb, c1->aabb ) &&
					 cnAABB_Contains( node->aabb, c2->aabb ) && top + 2 <= tree->nodeCount;
			}
			if ( ok )
			{
				stack[top++] = child1;
				stack[top++] = child2;
			}
		}
		free( stack );
		if ( ok == false )
		{
			return false;
		}
	}
	if ( leafCount != tree->proxyCount || nodeCount != tree->nodeCount )
	{
		return false;
	}
	// a binary tree with n leaves has n - 1 internal nodes
	if ( leafCount > 0 && nodeCount != 2 * leafCount - 1 )
	{
		return false;
	}

	// the free list holds exactly the nodes not in the tree
	int freeCount = 0;
	int32_t index = tree->freeList;
	while ( index != CN_NULL_NODE )
	{
		if ( index < 0 || index >= tree->nodeCapacity || ( tree->nodes[index].flags & cnTreeNode_allocated ) != 0 )
		{
			return false;
		}
		freeCount += 1;
		if ( freeCount > tree->nodeCapacity )
		{
			return false;
		}
		index = tree->nodes[index].next;
	}
	return freeCount + tree->nodeCount == tree->nodeCapacity;
}

// ---------------------------------------------------------------------------------------------
// full rebuild

// Number of bins of the binned SAH split. 16 gets within a few percent of the exact sweep.
#define CN_REBUILD_BINS 16

typedef struct cnBuildBin
{
	cnAABB box;
	int count;
} cnBuildBin;

// Partitions leaves [begin, end) by a binned SAH split along the widest axis of their centres;
// returns the split point (begin < split < end).
static int cnPartitionSAH( cnDynamicTree* tree, int begin, int end )
{
	int32_t* leaves = tree->leafIndices;
	cnVec3* centers = tree->leafCenters;
	const cnTreeNode* nodes = tree->nodes;
	int count = end - begin;

	cnVec3 lo = centers[begin], hi = centers[begin];
	for ( int i = begin + 1; i < end; ++i )
	{
		lo = cnMin( lo, centers[i] );
		hi = cnMax( hi, centers[i] );
	}
	cnVec3 extent = cnSub( hi, lo );
	int axis = 0;
	if ( extent.y > extent.x )
	{
		axis = 1;
	}
	if ( extent.z > cnGet( extent, axis ) )
	{
		axis = 2;
	}
	double axisLo = cnGet( lo, axis );
	double axisExtent = cnGet( extent, axis );

	int split = begin + count / 2;
	if ( axisExtent > 0.0 )
	{
		cnBuildBin bins[CN_REBUILD_BINS];
		for ( int b = 0; b < CN_REBUILD_BINS; ++b )
		{
			bins[b].count = 0;
		}
		double scale = CN_REBUILD_BINS / axisExtent;
		for ( int i = begin; i < end; ++i )
		{
			int b = (int)( ( cnGet( centers[i], axis ) - axisLo ) * scale );
			b = b < 0 ? 0 : ( b >= CN_REBUILD_BINS ? CN_REBUILD_BINS - 1 : b );
			cnAABB box = nodes[leaves[i]].aabb;
			bins[b].box = bins[b].count == 0 ? box : cnAABB_Union( bins[b].box, box );
			bins[b].count += 1;
		}

		// sweep from the right for the area of everything right of each plane
		double rightArea[CN_REBUILD_BINS];
		int rightCount[CN_REBUILD_BINS];
		cnAABB box = bins[CN_REBUILD_BINS - 1].box;
		int n = 0;
		for ( int b = CN_REBUILD_BINS - 1; b > 0; --b )
		{
			if ( bins[b].count > 0 )
			{
				box = n == 0 ? bins[b].box : cnAABB_Union( box, bins[b].box );
				n += bins[b].count;
			}
			rightArea[b] = n > 0 ? cnAABB_Area( box ) : 0.0;
			rightCount[b] = n;
		}

		// sweep from the left; plane b separates bins [0, b) from [b, BINS)
		double bestCost = DBL_MAX;
		int bestPlane = -1;
		n = 0;
		for ( int b = 1; b < CN_REBUILD_BINS; ++b )
		{
			if ( bins[b - 1].count > 0 )
			{
				box = n == 0 ? bins[b - 1].box : cnAABB_Union( box, bins[b - 1].box );
				n += bins[b - 1].count;
			}
			if ( n == 0 || rightCount[b] == 0 )
			{
				continue;
			}
			double cost = n * cnAABB_Area( box ) + rightCount[b] * rightArea[b];
			if ( cost < bestCost )
			{
				bestCost = cost;
				bestPlane = b;
			}
		}

		if ( bestPlane > 0 )
		{
			// stable two-way partition by bin, done in place with swaps (order inside each side is
			// irrelevant to correctness but fixed by the input order, so the build is deterministic)
			int i = begin;
			int j = end - 1;
			while ( i <= j )
			{
				int b = (int)( ( cnGet( centers[i], axis ) - axisLo ) * scale );
				b = b < 0 ? 0 : ( b >= CN_REBUILD_BINS ? CN_REBUILD_BINS - 1 : b );
				if ( b < bestPlane )
				{
					++i;
				}
				else
				{
					int32_t ti = leaves[i];
					leaves[i] = leaves[j];
					leaves[j] = ti;
					cnVec3 tc = centers[i];
					centers[i] = centers[j];
					centers[j] = tc;
					--j;
				}
			}
			split = i;
		}
	}

	if ( split <= begin || split >= end )
	{
		// all centres coincide (or binning failed to separate): split by count
		split = begin + count / 2;
	}
	return split;
}

// Builds the subtree over leaves [begin, end) and returns its root; its internal nodes are
// rebuildNodes[firstNode ...] in pre-order (the root first, then the first child's subtree, whose
// count - 1 nodes come before the second's). Recursion depth is the depth of the built tree, which
// the SAH split keeps logarithmic in practice; the count split fallback bounds it in the degenerate
// cases. With a plan, only the top depth levels are split: each subtree below them becomes a job
// (it returns null; the job hangs its root in place) and the nodes above get their boxes once the
// jobs are built (cnDynamicTree_EndRebuild). Without one (depth -1) the whole subtree is built.
static int32_t cnBuildSubtree( cnDynamicTree* tree, cnRebuildPlan* plan, int begin, int end, int32_t parent,
							   bool second, int firstNode, int depth )
{
	if ( end - begin == 1 )
	{
		int32_t leaf = tree->leafIndices[begin];
		tree->nodes[leaf].parent = parent;
		return leaf;
	}
	if ( depth == 0 )
	{
		plan->jobs[plan->jobCount++] = (cnRebuildJob){ begin, end, firstNode, parent, second };
		return CN_NULL_NODE;
	}

	int split = cnPartitionSAH( tree, begin, end );
	int32_t index = tree->rebuildNodes[firstNode];
	int32_t child1 = cnBuildSubtree( tree, plan, begin, split, index, false, firstNode + 1, depth - 1 );
	int32_t child2 = cnBuildSubtree( tree, plan, split, end, index, true, firstNode + ( split - begin ), depth - 1 );

	cnTreeNode* nodes = tree->nodes;
	cnTreeNode* node = nodes + index;
	node->parent = parent;
	if ( depth > 0 )
	{
		// a node above the jobs: a job's root is hung here when the job is built
		node->child1 = child1 != CN_NULL_NODE ? child1 : node->child1;
		node->child2 = child2 != CN_NULL_NODE ? child2 : node->child2;
		plan->top[plan->topCount++] = index;
		return index;
	}
	node->child1 = child1;
	node->child2 = child2;
	node->aabb = cnAABB_Union( nodes[child1].aabb, nodes[child2].aabb );
	node->height = 1 + cnMaxHeight( nodes[child1].height, nodes[child2].height );
	return index;
}

bool cnDynamicTree_ReserveRebuild( cnDynamicTree* tree )
{
	int leafCount = tree->proxyCount;
	if ( tree->rebuildCapacity < leafCount )
	{
		int capacity = leafCount + leafCount / 2;
		int32_t* indices = cnTreeRealloc( tree->leafIndices, (size_t)capacity * sizeof( int32_t ) );
		if ( indices == NULL )
		{
			return false;
		}
		tree->leafIndices = indices;
		cnVec3* centers = cnTreeRealloc( tree->leafCenters, (size_t)capacity * sizeof( cnVec3 ) );
		if ( centers == NULL )
		{
			return false;
		}
		tree->leafCenters = centers;
		int32_t* internal = cnTreeRealloc( tree->rebuildNodes, (size_t)capacity * sizeof( int32_t ) );
		if ( internal == NULL )
		{
			return false;
		}
		tree->rebuildNodes = internal;
		tree->rebuildCapacity = capacity;
	}
	return true;
}

void cnDynamicTree_SetLeafAABB( cnDynamicTree* tree, int32_t proxyId, cnAABB aabb )
{
	if ( proxyId < 0 || proxyId >= tree->nodeCapacity || ( tree->nodes[proxyId].flags & cnTreeNode_allocated ) == 0 ||
		 cnIsLeaf( tree->nodes + proxyId ) == false )
	{
		return;
	}
	tree->nodes[proxyId].aabb = aabb;
}

bool cnDynamicTree_BeginRebuild( cnDynamicTree* tree, int jobs, cnRebuildPlan* plan )
{
	plan->jobCount = 0;
	plan->topCount = 0;
	int leafCount = tree->proxyCount;
	if ( leafCount == 0 || cnDynamicTree_ReserveRebuild( tree ) == false )
	{
		return false;
	}

	// collect leaves in index order and free the internal nodes
	int n = 0;
	for ( int32_t i = 0; i < tree->nodeCapacity; ++i )
	{
		cnTreeNode* node = tree->nodes + i;
		if ( ( node->flags & cnTreeNode_allocated ) == 0 )
		{
			continue;
		}
		if ( cnIsLeaf( node ) )
		{
			tree->leafIndices[n] = i;
			tree->leafCenters[n] = cnAABB_Center( node->aabb );
			n += 1;
		}
		else
		{
			cnFreeNode( tree, i );
		}
	}
	// the n - 1 internal nodes, in the order the free list hands them out (it holds at least the
	// ones just freed, so this allocates nothing)
	for ( int k = 0; k + 1 < n; ++k )
	{
		tree->rebuildNodes[k] = cnAllocateNode( tree );
	}

	// 2^depth subtrees at most
	int depth = 0;
	while ( ( 2 << depth ) <= jobs && ( 2 << depth ) <= CN_REBUILD_MAX_JOBS )
	{
		depth += 1;
	}
	tree->root = cnBuildSubtree( tree, plan, 0, n, CN_NULL_NODE, false, 0, depth );
	return true;
}

void cnDynamicTree_BuildJob( cnDynamicTree* tree, const cnRebuildJob* job )
{
	int32_t root = cnBuildSubtree( tree, NULL, job->begin, job->end, job->parent, job->second, job->firstNode, -1 );
	if ( job->parent == CN_NULL_NODE )
	{
		tree->root = root;
	}
	else if ( job->second )
	{
		tree->nodes[job->parent].child2 = root;
	}
	else
	{
		tree->nodes[job->parent].child1 = root;
	}
}

void cnDynamicTree_EndRebuild( cnDynamicTree* tree, const cnRebuildPlan* plan )
{
	// children before parents: each node's children are final when it is reached
	cnTreeNode* nodes = tree->nodes;
	for ( int k = 0; k < plan->topCount; ++k )
	{
		cnTreeNode* node = nodes + plan->top[k];
		node->aabb = cnAABB_Union( nodes[node->child1].aabb, nodes[node->child2].aabb );
		node->height = 1 + cnMaxHeight( nodes[node->child1].height, nodes[node->child2].height );
	}
}

void cnDynamicTree_Rebuild( cnDynamicTree* tree )
{
	cnRebuildPlan plan;
	if ( cnDynamicTree_BeginRebuild( tree, 1, &plan ) == false )
	{
		return;
	}
	for ( int k = 0; k < plan.jobCount; ++k )
	{
		cnDynamicTree_BuildJob( tree, plan.jobs + k );
	}
	cnDynamicTree_EndRebuild( tree, &plan );
}
