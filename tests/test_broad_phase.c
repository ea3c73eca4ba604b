// SPDX-License-Identifier: MIT
// Dynamic tree, broad phase and pair map against brute-force references on random data.
// Everything is compared exactly: the structures only select and order items, they compute no
// numbers of their own that a reference could disagree with by rounding.
#include "collision/broad_phase.h"
#include "collision/dynamic_tree.h"
#include "pair_map.h"
#include "test.h"
#include "test_random.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---------------------------------------------------------------------------------------------
// deterministic random numbers (test_random.h), the upper 32 bits of each state

static Lcg g_rng = { 0x2545F4914F6CDD1Dull };

static void SeedRandom( uint64_t seed )
{
	g_rng.state = seed;
}

static uint32_t RandomU32( void )
{
	return (uint32_t)( lcgNext( &g_rng ) >> 32 );
}

// uniform in [0, 1)
static double RandomUnit( void )
{
	return RandomU32() * ( 1.0 / 4294967296.0 );
}

static double RandomRange( double lo, double hi )
{
	return lo + ( hi - lo ) * RandomUnit();
}

static int RandomInt( int n )
{
	return (int)( RandomU32() % (uint32_t)n );
}

// a box with its centre in [-extent, extent]^3 and half-sizes in [minHalf, maxHalf]
static cnAABB RandomBox( double extent, double minHalf, double maxHalf )
{
	cnVec3 c = cnV3( RandomRange( -extent, extent ), RandomRange( -extent, extent ), RandomRange( -extent, extent ) );
	cnVec3 h = cnV3( RandomRange( minHalf, maxHalf ), RandomRange( minHalf, maxHalf ), RandomRange( minHalf, maxHalf ) );
	cnAABB box = { cnSub( c, h ), cnAdd( c, h ) };
	return box;
}

static bool BoxEqual( cnAABB a, cnAABB b )
{
	return a.lower.x == b.lower.x && a.lower.y == b.lower.y && a.lower.z == b.lower.z && a.upper.x == b.upper.x &&
		   a.upper.y == b.upper.y && a.upper.z == b.upper.z;
}

// ---------------------------------------------------------------------------------------------
// dynamic tree

#define TREE_MAX 512

// The reference model of a tree: which ids are live and their boxes.
typedef struct TreeModel
{
	int32_t ids[TREE_MAX];
	cnAABB boxes[TREE_MAX];
	bool alive[TREE_MAX];
	int count;
} TreeModel;

typedef struct QueryCollect
{
	int hits[4 * TREE_MAX];
	int count;
	int calls;
	int stopAfter;
} QueryCollect;

static bool CollectQuery( int32_t proxyId, uint64_t userData, void* context )
{
	QueryCollect* q = context;
	q->calls += 1;
	q->hits[q->count++] = (int)userData;
	(void)proxyId;
	return q->stopAfter <= 0 || q->calls < q->stopAfter;
}

static int CompareInts( const void* a, const void* b )
{
	int x = *(const int*)a, y = *(const int*)b;
	return ( x > y ) - ( x < y );
}

// Runs a tree query and a brute-force scan of the model and checks they find the same items.
static bool QueryMatches( const cnDynamicTree* tree, const TreeModel* m, cnAABB box )
{
	static QueryCollect q;
	q.count = 0;
	q.calls = 0;
	q.stopAfter = 0;
	cnDynamicTree_Query( tree, box, CollectQuery, &q );

	int expected[TREE_MAX];
	int n = 0;
	for ( int i = 0; i < m->count; ++i )
	{
		if ( m->alive[i] && cnAABB_Overlaps( m->boxes[i], box ) )
		{
			expected[n++] = i;
		}
	}
	if ( n != q.count )
	{
		return false;
	}
	qsort( q.hits, (size_t)q.count, sizeof( int ), CompareInts );
	for ( int i = 0; i < n; ++i )
	{
		if ( q.hits[i] != expected[i] )
		{
			return false;
		}
	}
	return true;
}

// Random creates, moves and destroys; the tree is validated and queried after every change.
static void TestTreeRandom( void )
{
	SeedRandom( 12345 );
	cnDynamicTree tree = cnDynamicTree_Create();
	static TreeModel m;
	memset( &m, 0, sizeof( m ) );

	CHECK( cnDynamicTree_Validate( &tree ) );
	CHECK( cnDynamicTree_GetHeight( &tree ) == -1 );

	bool valid = true, queries = true, data = true;
	for ( int step = 0; step < 3000; ++step )
	{
		int op = RandomInt( 10 );
		if ( m.count < TREE_MAX && ( op < 4 || m.count < 10 ) )
		{
			// create: user data is the model index
			int i = m.count++;
			m.boxes[i] = RandomBox( 10.0, 0.1, 2.0 );
			m.ids[i] = cnDynamicTree_CreateProxy( &tree, m.boxes[i], (uint64_t)i );
			m.alive[i] = true;
		}
		else
		{
			int i = RandomInt( m.count );
			if ( m.alive[i] == false )
			{
				// re-create a destroyed one: its id may be reused
				m.boxes[i] = RandomBox( 10.0, 0.1, 2.0 );
				m.ids[i] = cnDynamicTree_CreateProxy( &tree, m.boxes[i], (uint64_t)i );
				m.alive[i] = true;
			}
			else if ( op < 8 )
			{
				m.boxes[i] = RandomBox( 10.0, 0.1, 2.0 );
				cnDynamicTree_MoveProxy( &tree, m.ids[i], m.boxes[i] );
			}
			else
			{
				cnDynamicTree_DestroyProxy( &tree, m.ids[i] );
				m.alive[i] = false;
			}
		}

		valid = valid && cnDynamicTree_Validate( &tree );
		if ( step % 10 == 0 )
		{
			queries = queries && QueryMatches( &tree, &m, RandomBox( 10.0, 0.5, 5.0 ) );
		}
	}

	// live ids are distinct and map back to their box and user data
	int live = 0;
	for ( int i = 0; i < m.count; ++i )
	{
		if ( m.alive[i] == false )
		{
			continue;
		}
		live += 1;
		data = data && BoxEqual( cnDynamicTree_GetAABB( &tree, m.ids[i] ), m.boxes[i] );
		data = data && cnDynamicTree_GetUserData( &tree, m.ids[i] ) == (uint64_t)i;
		for ( int j = i + 1; j < m.count; ++j )
		{
			data = data && ( m.alive[j] == false || m.ids[j] != m.ids[i] );
		}
	}
	CHECK( valid );
	CHECK( queries );
	CHECK( data );
	CHECK( cnDynamicTree_GetProxyCount( &tree ) == live );

	// a query that covers everything, one that covers nothing, and an early stop
	cnAABB all = { cnV3( -100, -100, -100 ), cnV3( 100, 100, 100 ) };
	cnAABB none = { cnV3( 50, 50, 50 ), cnV3( 60, 60, 60 ) };
	CHECK( QueryMatches( &tree, &m, all ) );
	CHECK( QueryMatches( &tree, &m, none ) );
	static QueryCollect q;
	q.count = 0;
	q.calls = 0;
	q.stopAfter = 3;
	cnDynamicTree_Query( &tree, all, CollectQuery, &q );
	CHECK( q.calls == 3 );

	// rebuild keeps every id and gives the same answers
	int32_t capacityBefore = tree.nodeCapacity;
	cnDynamicTree_Rebuild( &tree );
	CHECK( cnDynamicTree_Validate( &tree ) );
	CHECK( tree.nodeCapacity == capacityBefore );
	bool rebuilt = true;
	for ( int k = 0; k < 200; ++k )
	{
		rebuilt = rebuilt && QueryMatches( &tree, &m, RandomBox( 10.0, 0.5, 5.0 ) );
	}
	CHECK( rebuilt );

	// and it stays a working tree afterwards
	for ( int i = 0; i < m.count; ++i )
	{
		if ( m.alive[i] )
		{
			m.boxes[i] = RandomBox( 10.0, 0.1, 2.0 );
			cnDynamicTree_MoveProxy( &tree, m.ids[i], m.boxes[i] );
		}
	}
	CHECK( cnDynamicTree_Validate( &tree ) );
	CHECK( QueryMatches( &tree, &m, RandomBox( 10.0, 0.5, 5.0 ) ) );

	// destroying everything leaves an empty, valid tree
	for ( int i = 0; i < m.count; ++i )
	{
		if ( m.alive[i] )
		{
			cnDynamicTree_DestroyProxy( &tree, m.ids[i] );
			m.alive[i] = false;
		}
	}
	CHECK( cnDynamicTree_Validate( &tree ) );
	CHECK( cnDynamicTree_GetHeight( &tree ) == -1 );
	CHECK( cnDynamicTree_GetProxyCount( &tree ) == 0 );
	CHECK( tree.nodeCount == 0 );
	cnDynamicTree_Destroy( &tree );
}

// Moves do not allocate: a leaf moved keeps its node and reuses its freed parent.
static void TestTreeNoAllocationOnMove( void )
{
	SeedRandom( 777 );
	cnDynamicTree tree = cnDynamicTree_Create();
	int32_t ids[100];
	for ( int i = 0; i < 100; ++i )
	{
		ids[i] = cnDynamicTree_CreateProxy( &tree, RandomBox( 5.0, 0.1, 1.0 ), (uint64_t)i );
	}
	const cnTreeNode* nodes = tree.nodes;
	int32_t capacity = tree.nodeCapacity;
	int32_t nodeCount = tree.nodeCount;
	for ( int k = 0; k < 5000; ++k )
	{
		cnDynamicTree_MoveProxy( &tree, ids[RandomInt( 100 )], RandomBox( 5.0, 0.1, 1.0 ) );
	}
	CHECK( tree.nodes == nodes );
	CHECK( tree.nodeCapacity == capacity );
	// n leaves and n - 1 internal nodes
	CHECK( tree.nodeCount == nodeCount && nodeCount == 199 );
	CHECK( cnDynamicTree_Validate( &tree ) );
	cnDynamicTree_Destroy( &tree );
}

// Reference segment-box test (Liang-Barsky clipping of p + t d, t in [0, tMax], against the six
// faces). Returns the entry fraction, or -1 when the segment misses.
static double SegmentEntry( cnVec3 p, cnVec3 d, double tMax, cnAABB box )
{
	double tEnter = 0.0, tExit = tMax;
	double pc[3] = { p.x, p.y, p.z }, dc[3] = { d.x, d.y, d.z };
	double lo[3] = { box.lower.x, box.lower.y, box.lower.z }, hi[3] = { box.upper.x, box.upper.y, box.upper.z };
	for ( int a = 0; a < 3; ++a )
	{
		if ( dc[a] == 0.0 )
		{
			if ( pc[a] < lo[a] || pc[a] > hi[a] )
			{
				return -1.0;
			}
			continue;
		}
		double t1 = ( lo[a] - pc[a] ) / dc[a];
		double t2 = ( hi[a] - pc[a] ) / dc[a];
		double tNear = t1 < t2 ? t1 : t2;
		double tFar = t1 < t2 ? t2 : t1;
		tEnter = tNear > tEnter ? tNear : tEnter;
		tExit = tFar < tExit ? tFar : tExit;
	}
	return tEnter <= tExit ? tEnter : -1.0;
}

typedef struct RayCollect
{
	const TreeModel* model;
	bool clip;
	int hits[TREE_MAX];
	int count;
	double closest;
	int closestIndex;
	bool inputOk;
} RayCollect;

static double CollectRay( const cnTreeRayInput* input, int32_t proxyId, uint64_t userData, void* context )
{
	RayCollect* r = context;
	(void)proxyId;
	int i = (int)userData;
	r->hits[r->count++] = i;
	if ( r->clip == false )
	{
		// go on unchanged: every box on the segment is reported
		return input->maxFraction;
	}
	double t = SegmentEntry( input->p1, cnSub( input->p2, input->p1 ), input->maxFraction, r->model->boxes[i] );
	if ( t < 0.0 )
	{
		// the tree may report a box the clipped segment no longer reaches only if its test differs
		r->inputOk = false;
		return -1.0;
	}
	if ( t < r->closest )
	{
		r->closest = t;
		r->closestIndex = i;
	}
	// a start inside a box gives 0, which stops the cast: nothing can be closer
	return t;
}

static void TestTreeRayCast( void )
{
	SeedRandom( 4242 );
	cnDynamicTree tree = cnDynamicTree_Create();
	static TreeModel m;
	memset( &m, 0, sizeof( m ) );
	for ( int i = 0; i < 300; ++i )
	{
		m.boxes[i] = RandomBox( 20.0, 0.5, 3.0 );
		m.ids[i] = cnDynamicTree_CreateProxy( &tree, m.boxes[i], (uint64_t)i );
		m.alive[i] = true;
	}
	m.count = 300;

	bool allMatch = true, closestMatch = true, inputOk = true;
	int totalHits = 0;
	for ( int k = 0; k < 400; ++k )
	{
		cnTreeRayInput input;
		input.p1 = cnV3( RandomRange( -25, 25 ), RandomRange( -25, 25 ), RandomRange( -25, 25 ) );
		input.p2 = cnV3( RandomRange( -25, 25 ), RandomRange( -25, 25 ), RandomRange( -25, 25 ) );
		if ( k % 4 == 0 )
		{
			// axis-aligned segments exercise the zero-direction branch
			input.p2.y = input.p1.y;
			input.p2.z = input.p1.z;
		}
		input.maxFraction = k % 3 == 0 ? 0.6 : 1.0;
		cnVec3 d = cnSub( input.p2, input.p1 );

		// every box on the segment, without clipping
		static RayCollect r;
		r.model = &m;
		r.clip = false;
		r.count = 0;
		r.inputOk = true;
		cnDynamicTree_RayCast( &tree, &input, CollectRay, &r );
		int expected[TREE_MAX];
		int n = 0;
		double closest = 2.0;
		for ( int i = 0; i < m.count; ++i )
		{
			double t = SegmentEntry( input.p1, d, input.maxFraction, m.boxes[i] );
			if ( t >= 0.0 )
			{
				expected[n++] = i;
				closest = t < closest ? t : closest;
			}
		}
		totalHits += n;
		qsort( r.hits, (size_t)r.count, sizeof( int ), CompareInts );
		bool same = r.count == n;
		for ( int i = 0; same && i < n; ++i )
		{
			same = r.hits[i] == expected[i];
		}
		allMatch = allMatch && same;

		// closest hit with clipping
		r.clip = true;
		r.count = 0;
		r.closest = 2.0;
		r.closestIndex = -1;
		cnDynamicTree_RayCast( &tree, &input, CollectRay, &r );
		if ( n == 0 )
		{
			closestMatch = closestMatch && r.closestIndex == -1;
		}
		else
		{
			// the same fraction; the box may differ only on a tie (a start inside several boxes)
			closestMatch = closestMatch && r.closest == closest && r.closestIndex >= 0 &&
						   SegmentEntry( input.p1, d, input.maxFraction, m.boxes[r.closestIndex] ) == closest;
		}
		inputOk = inputOk && r.inputOk && r.count <= n;
	}
	CHECK( allMatch );
	CHECK( closestMatch );
	CHECK( inputOk );
	// the random segments must actually hit things for the comparison to mean anything
	printf( "  400 segments: %d box hits\n", totalHits );
	CHECK( totalHits > 400 );

	// a segment along x through a row of unit boxes: the first box is entered at a known fraction
	cnDynamicTree row = cnDynamicTree_Create();
	static TreeModel rowModel;
	for ( int i = 0; i < 10; ++i )
	{
		cnAABB box = { cnV3( 2.0 * i, -0.5, -0.5 ), cnV3( 2.0 * i + 1.0, 0.5, 0.5 ) };
		rowModel.boxes[i] = box;
		rowModel.ids[i] = cnDynamicTree_CreateProxy( &row, box, (uint64_t)i );
	}
	rowModel.count = 10;
	static RayCollect r;
	r.model = &rowModel;
	r.clip = true;
	r.count = 0;
	r.closest = 2.0;
	r.closestIndex = -1;
	r.inputOk = true;
	// from x = -4 to x = 16: box 0 is entered at x = 0, fraction 4 / 20; the tolerance allows the
	// rounding of one division (0.2 is not a binary fraction)
	cnTreeRayInput input = { cnV3( -4.0, 0.0, 0.0 ), cnV3( 16.0, 0.0, 0.0 ), 1.0 };
	cnDynamicTree_RayCast( &row, &input, CollectRay, &r );
	CHECK( r.closestIndex == 0 );
	CHECK_NEAR( r.closest, 4.0 / 20.0, 1e-15 );
	cnDynamicTree_Destroy( &row );
	cnDynamicTree_Destroy( &tree );
}

// Degenerate insertion orders must not produce a degenerate (list-like) tree.
static void TestTreeBalance( void )
{
	// boxes along a line, inserted in order: the worst case for a tree without rotations
	cnDynamicTree line = cnDynamicTree_Create();
	for ( int i = 0; i < 1000; ++i )
	{
		cnAABB box = { cnV3( i, 0.0, 0.0 ), cnV3( i + 0.5, 0.5, 0.5 ) };
		cnDynamicTree_CreateProxy( &line, box, (uint64_t)i );
	}
	CHECK( cnDynamicTree_Validate( &line ) );
	int lineHeight = cnDynamicTree_GetHeight( &line );
	// a perfectly balanced tree of 1000 leaves has height 10; a list has 999
	printf( "  line of 1000: height %d, area ratio %.2f\n", lineHeight, cnDynamicTree_GetAreaRatio( &line ) );
	CHECK( lineHeight <= 40 );
	cnDynamicTree_Rebuild( &line );
	CHECK( cnDynamicTree_Validate( &line ) );
	printf( "  after rebuild: height %d, area ratio %.2f\n", cnDynamicTree_GetHeight( &line ),
			cnDynamicTree_GetAreaRatio( &line ) );
	CHECK( cnDynamicTree_GetHeight( &line ) <= 20 );
	cnDynamicTree_Destroy( &line );

	// nested boxes, each inside the previous one
	cnDynamicTree nested = cnDynamicTree_Create();
	static TreeModel m;
	memset( &m, 0, sizeof( m ) );
	for ( int i = 0; i < 400; ++i )
	{
		double h = 1000.0 - 2.0 * i;
		cnAABB box = { cnV3( -h, -h, -h ), cnV3( h, h, h ) };
		m.boxes[i] = box;
		m.alive[i] = true;
		m.ids[i] = cnDynamicTree_CreateProxy( &nested, box, (uint64_t)i );
	}
	m.count = 400;
	CHECK( cnDynamicTree_Validate( &nested ) );
	// Perfectly nested boxes make a chain, and rightly so: every internal node's area is that of
	// its largest leaf, and a chain is the only shape where the largest box heads just one internal
	// node. The chain is deeper than the fixed query stack, so the queries below also exercise the
	// stack's spill to the heap.
	printf( "  400 nested: height %d\n", cnDynamicTree_GetHeight( &nested ) );
	CHECK( cnDynamicTree_GetHeight( &nested ) > 256 );
	cnAABB probe = { cnV3( 0, 0, 0 ), cnV3( 1, 1, 1 ) };
	CHECK( QueryMatches( &nested, &m, probe ) );
	cnAABB corner = { cnV3( 700, 700, 700 ), cnV3( 701, 701, 701 ) };
	CHECK( QueryMatches( &nested, &m, corner ) );
	cnDynamicTree_Destroy( &nested );
}

// The same random tree twice, some proxies destroyed: rebuilt serially and rebuilt in 2, 3 and 8
// subtrees built in reverse order (as workers may finish them), the trees are the same node for node:
// same root, free list, links, heights and boxes.
static void TestTreeSplitRebuild( void )
{
	const int jobCounts[] = { 2, 3, 8 };
	for ( int t = 0; t < 3; ++t )
	{
		cnDynamicTree a = cnDynamicTree_Create(), b = cnDynamicTree_Create();
		SeedRandom( 77 + (uint64_t)t );
		int32_t ids[700];
		for ( int i = 0; i < 700; ++i )
		{
			cnVec3 c = cnV3( RandomRange( -50, 50 ), RandomRange( -50, 50 ), RandomRange( 0, 20 ) );
			cnVec3 h = cnV3( RandomRange( 0.1, 2 ), RandomRange( 0.1, 2 ), RandomRange( 0.1, 2 ) );
			cnAABB box = { cnSub( c, h ), cnAdd( c, h ) };
			ids[i] = cnDynamicTree_CreateProxy( &a, box, (uint64_t)i );
			CHECK( cnDynamicTree_CreateProxy( &b, box, (uint64_t)i ) == ids[i] );
		}
		for ( int i = 0; i < 700; i += 7 )
		{
			cnDynamicTree_DestroyProxy( &a, ids[i] );
			cnDynamicTree_DestroyProxy( &b, ids[i] );
		}
		cnDynamicTree_Rebuild( &a );
		cnRebuildPlan plan;
		CHECK( cnDynamicTree_BeginRebuild( &b, jobCounts[t], &plan ) );
		CHECK( plan.jobCount >= 2 && plan.jobCount <= CN_REBUILD_MAX_JOBS && plan.jobCount <= 2 * jobCounts[t] );
		for ( int k = plan.jobCount - 1; k >= 0; --k )
		{
			cnDynamicTree_BuildJob( &b, plan.jobs + k );
		}
		cnDynamicTree_EndRebuild( &b, &plan );
		CHECK( cnDynamicTree_Validate( &a ) && cnDynamicTree_Validate( &b ) );
		CHECK( a.root == b.root && a.freeList == b.freeList && a.nodeCount == b.nodeCount &&
			   a.nodeCapacity == b.nodeCapacity );
		int same = 0;
		for ( int i = 0; i < a.nodeCapacity && i < b.nodeCapacity; ++i )
		{
			const cnTreeNode* x = a.nodes + i;
			const cnTreeNode* y = b.nodes + i;
			// (flags bit 1: allocated; a free node's parent field links the free list)
			bool equal = x->flags == y->flags && x->parent == y->parent;
			if ( equal && ( x->flags & 1 ) )
			{
				equal = x->parent == y->parent && x->child1 == y->child1 && x->child2 == y->child2 &&
						x->height == y->height && memcmp( &x->aabb, &y->aabb, sizeof( x->aabb ) ) == 0;
			}
			same += equal ? 1 : 0;
		}
		CHECK( same == a.nodeCapacity );
		cnDynamicTree_Destroy( &a );
		cnDynamicTree_Destroy( &b );
	}
}

// 5000 proxies: creation, moves and queries compared with brute force, fast.
static void TestTreeLarge( void )
{
	enum
	{
		N = 5000
	};
	SeedRandom( 99 );
	static cnAABB boxes[N];
	static int32_t ids[N];
	static int mark[N];
	clock_t start = clock();

	cnDynamicTree tree = cnDynamicTree_Create();
	for ( int i = 0; i < N; ++i )
	{
		boxes[i] = RandomBox( 100.0, 0.2, 2.0 );
		ids[i] = cnDynamicTree_CreateProxy( &tree, boxes[i], (uint64_t)i );
	}
	CHECK( cnDynamicTree_Validate( &tree ) );
	for ( int k = 0; k < 2 * N; ++k )
	{
		int i = RandomInt( N );
		// small moves as in a simulation, and some teleports
		cnVec3 shift = k % 10 == 0 ? cnV3( RandomRange( -50, 50 ), RandomRange( -50, 50 ), RandomRange( -50, 50 ) )
								   : cnV3( RandomRange( -1, 1 ), RandomRange( -1, 1 ), RandomRange( -1, 1 ) );
		boxes[i].lower = cnAdd( boxes[i].lower, shift );
		boxes[i].upper = cnAdd( boxes[i].upper, shift );
		cnDynamicTree_MoveProxy( &tree, ids[i], boxes[i] );
	}
	CHECK( cnDynamicTree_Validate( &tree ) );
	int height = cnDynamicTree_GetHeight( &tree );

	// queries against brute force
	bool match = true;
	static QueryCollect q;
	int total = 0;
	for ( int k = 0; k < 300; ++k )
	{
		cnAABB box = RandomBox( 100.0, 2.0, 10.0 );
		int count = 0;
		memset( mark, 0, sizeof( mark ) );
		q.count = 0;
		q.calls = 0;
		q.stopAfter = 0;
		cnDynamicTree_Query( &tree, box, CollectQuery, &q );
		for ( int j = 0; j < q.count; ++j )
		{
			mark[q.hits[j]] += 1;
		}
		for ( int i = 0; i < N; ++i )
		{
			bool overlaps = cnAABB_Overlaps( boxes[i], box );
			count += overlaps;
			match = match && mark[i] == ( overlaps ? 1 : 0 );
		}
		match = match && count == q.count;
		total += count;
	}
	double seconds = (double)( clock() - start ) / CLOCKS_PER_SEC;
	printf( "  5000 proxies: height %d, area ratio %.2f, %d query hits, %.3f s\n", height,
			cnDynamicTree_GetAreaRatio( &tree ), total, seconds );
	CHECK( match );
	CHECK( total > 300 );
	// log2(5000) = 12.3; three times that still rules out a degenerate tree
	CHECK( height <= 40 );
#if !defined( __SANITIZE_ADDRESS__ )
	// CPU time, so a loaded machine does not fail it; the work here takes a few tens of milliseconds
	CHECK( seconds < 1.0 );
#endif
	cnDynamicTree_Destroy( &tree );
}

// ---------------------------------------------------------------------------------------------
// broad phase

#define BP_MAX 400

// The reference model: one entry per shape index.
typedef struct BroadModel
{
	cnAABB boxes[BP_MAX];
	int32_t keys[BP_MAX];
	bool alive[BP_MAX];
	bool isStatic[BP_MAX];
	// created or moved since the last update
	bool moved[BP_MAX];
} BroadModel;

typedef struct PairCollect
{
	uint64_t* pairs;
	int count;
	int capacity;
	bool ordered;
} PairCollect;

static void CollectPair( int32_t a, int32_t b, void* context )
{
	PairCollect* p = context;
	uint64_t key = ( (uint64_t)(uint32_t)a << 32 ) | (uint32_t)b;
	if ( a >= b || ( p->count > 0 && key <= p->pairs[p->count - 1] ) )
	{
		// A < B and strictly increasing (A, B): sorted and no pair twice
		p->ordered = false;
	}
	if ( p->count < p->capacity )
	{
		p->pairs[p->count] = key;
	}
	p->count += 1;
}

// The pairs the broad phase must report: overlapping, not both static, at least one moved.
static int BrutePairs( const BroadModel* m, int n, uint64_t* out, int capacity )
{
	int count = 0;
	for ( int a = 0; a < n; ++a )
	{
		if ( m->alive[a] == false )
		{
			continue;
		}
		for ( int b = a + 1; b < n; ++b )
		{
			if ( m->alive[b] == false || ( m->isStatic[a] && m->isStatic[b] ) )
			{
				continue;
			}
			if ( ( m->moved[a] || m->moved[b] ) && cnAABB_Overlaps( m->boxes[a], m->boxes[b] ) )
			{
				if ( count < capacity )
				{
					out[count] = ( (uint64_t)a << 32 ) | (uint64_t)b;
				}
				count += 1;
			}
		}
	}
	return count;
}

// Updates the broad phase and compares with brute force; clears the model's moved flags.
static bool UpdateMatches( cnBroadPhase* bp, BroadModel* m, int n, int* pairCount )
{
	static uint64_t got[BP_MAX * BP_MAX / 2], expected[BP_MAX * BP_MAX / 2];
	PairCollect p = { got, 0, BP_MAX * BP_MAX / 2, true };
	int reported = cnBroadPhase_UpdatePairs( bp, CollectPair, &p );
	int count = BrutePairs( m, n, expected, BP_MAX * BP_MAX / 2 );
	for ( int i = 0; i < n; ++i )
	{
		m->moved[i] = false;
	}
	*pairCount = count;
	if ( reported != p.count || p.count != count || p.ordered == false )
	{
		return false;
	}
	// both lists are sorted, so they must agree element by element
	return memcmp( got, expected, (size_t)count * sizeof( uint64_t ) ) == 0;
}

static bool TreesValid( const cnBroadPhase* bp )
{
	return cnDynamicTree_Validate( cnBroadPhase_GetTree( bp, cnProxy_static ) ) &&
		   cnDynamicTree_Validate( cnBroadPhase_GetTree( bp, cnProxy_movable ) );
}

static void CreateShape( cnBroadPhase* bp, BroadModel* m, int i, bool isStatic )
{
	m->boxes[i] = RandomBox( 12.0, 0.3, 2.0 );
	m->isStatic[i] = isStatic;
	m->alive[i] = true;
	m->moved[i] = true;
	m->keys[i] = cnBroadPhase_CreateProxy( bp, m->boxes[i], i, isStatic );
}

static void TestBroadPhaseRandom( void )
{
	SeedRandom( 2024 );
	cnBroadPhase bp;
	cnBroadPhase_Create( &bp );
	static BroadModel m;
	memset( &m, 0, sizeof( m ) );
	int n = 300;
	for ( int i = 0; i < n; ++i )
	{
		CreateShape( &bp, &m, i, RandomInt( 4 ) == 0 );
	}
	CHECK( TreesValid( &bp ) );

	// keys are distinct and give back the boxes
	bool keysOk = true;
	for ( int i = 0; i < n; ++i )
	{
		keysOk = keysOk && m.keys[i] != CN_NULL_PROXY && BoxEqual( cnBroadPhase_GetFatAABB( &bp, m.keys[i] ), m.boxes[i] );
		keysOk = keysOk && CN_PROXY_TYPE( m.keys[i] ) == ( m.isStatic[i] ? cnProxy_static : cnProxy_movable );
		for ( int j = 0; j < i; ++j )
		{
			keysOk = keysOk && m.keys[j] != m.keys[i];
		}
	}
	CHECK( keysOk );

	int pairs = 0;
	CHECK( UpdateMatches( &bp, &m, n, &pairs ) );
	// the scene is dense enough that the comparison is not vacuous
	CHECK( pairs > 200 );
	printf( "  first update: %d pairs\n", pairs );

	// an update with nothing moved reports nothing
	CHECK( UpdateMatches( &bp, &m, n, &pairs ) );
	CHECK( pairs == 0 );

	bool valid = true, match = true;
	int totalPairs = 0;
	for ( int round = 0; round < 60; ++round )
	{
		int changes = 1 + RandomInt( 40 );
		for ( int c = 0; c < changes; ++c )
		{
			int i = RandomInt( n );
			int op = RandomInt( 10 );
			if ( m.alive[i] == false )
			{
				// re-create under the same shape index, as the world reuses shape slots
				CreateShape( &bp, &m, i, RandomInt( 4 ) == 0 );
			}
			else if ( op < 7 )
			{
				// move: a small step or a jump; static shapes may be moved too
				cnVec3 shift = op < 5 ? cnV3( RandomRange( -1, 1 ), RandomRange( -1, 1 ), RandomRange( -1, 1 ) )
									  : cnV3( RandomRange( -10, 10 ), RandomRange( -10, 10 ), RandomRange( -10, 10 ) );
				m.boxes[i].lower = cnAdd( m.boxes[i].lower, shift );
				m.boxes[i].upper = cnAdd( m.boxes[i].upper, shift );
				m.moved[i] = true;
				cnBroadPhase_MoveProxy( &bp, m.keys[i], m.boxes[i] );
			}
			else if ( op < 9 )
			{
				// destroy (possibly after a move in this round: it must not be reported)
				cnBroadPhase_DestroyProxy( &bp, m.keys[i] );
				m.alive[i] = false;
				m.moved[i] = false;
			}
			else
			{
				// destroy and re-create before the update: the new proxy may reuse the old id
				cnBroadPhase_DestroyProxy( &bp, m.keys[i] );
				CreateShape( &bp, &m, i, RandomInt( 4 ) == 0 );
			}
			valid = valid && TreesValid( &bp );
		}
		match = match && UpdateMatches( &bp, &m, n, &pairs );
		totalPairs += pairs;
	}
	CHECK( valid );
	CHECK( match );
	CHECK( totalPairs > 500 );

	// every live proxy still holds the model's box
	bool boxes = true;
	for ( int i = 0; i < n; ++i )
	{
		boxes = boxes && ( m.alive[i] == false || BoxEqual( cnBroadPhase_GetFatAABB( &bp, m.keys[i] ), m.boxes[i] ) );
	}
	CHECK( boxes );
	cnBroadPhase_Destroy( &bp );
}

// Static proxies: never paired with each other; a static proxy added later pairs with movable
// proxies that were already there and did not move.
static void TestBroadPhaseStatic( void )
{
	cnBroadPhase bp;
	cnBroadPhase_Create( &bp );
	cnAABB unit = { cnV3( 0, 0, 0 ), cnV3( 1, 1, 1 ) };
	cnAABB shifted = { cnV3( 0.5, 0.5, 0.5 ), cnV3( 1.5, 1.5, 1.5 ) };
	cnAABB far = { cnV3( 10, 10, 10 ), cnV3( 11, 11, 11 ) };

	static uint64_t buffer[16];
	PairCollect p = { buffer, 0, 16, true };

	// two overlapping statics: nothing
	int32_t s0 = cnBroadPhase_CreateProxy( &bp, unit, 5, true );
	int32_t s1 = cnBroadPhase_CreateProxy( &bp, shifted, 2, true );
	CHECK( cnBroadPhase_UpdatePairs( &bp, CollectPair, &p ) == 0 );

	// a movable one overlapping both: two pairs, sorted with the smaller shape index first
	int32_t d0 = cnBroadPhase_CreateProxy( &bp, shifted, 7, false );
	p.count = 0;
	CHECK( cnBroadPhase_UpdatePairs( &bp, CollectPair, &p ) == 2 );
	CHECK( p.count == 2 && p.ordered );
	CHECK( buffer[0] == ( ( (uint64_t)2 << 32 ) | 7 ) );
	CHECK( buffer[1] == ( ( (uint64_t)5 << 32 ) | 7 ) );

	// a static added under the resting movable one finds it
	int32_t s2 = cnBroadPhase_CreateProxy( &bp, unit, 9, true );
	p.count = 0;
	CHECK( cnBroadPhase_UpdatePairs( &bp, CollectPair, &p ) == 1 );
	CHECK( p.count == 1 && buffer[0] == ( ( (uint64_t)7 << 32 ) | 9 ) );

	// a static and a movable both buffered and overlapping: one report, not two
	cnBroadPhase_MoveProxy( &bp, s2, shifted );
	cnBroadPhase_MoveProxy( &bp, d0, unit );
	// moving twice before an update still queries once
	cnBroadPhase_MoveProxy( &bp, d0, unit );
	p.count = 0;
	CHECK( cnBroadPhase_UpdatePairs( &bp, CollectPair, &p ) == 3 );
	CHECK( p.count == 3 && p.ordered );

	// a movable moved far away, then destroyed before the update: nothing
	cnBroadPhase_MoveProxy( &bp, d0, far );
	cnBroadPhase_DestroyProxy( &bp, d0 );
	p.count = 0;
	CHECK( cnBroadPhase_UpdatePairs( &bp, CollectPair, &p ) == 0 );
	CHECK( TreesValid( &bp ) );

	cnBroadPhase_DestroyProxy( &bp, s0 );
	cnBroadPhase_DestroyProxy( &bp, s1 );
	cnBroadPhase_DestroyProxy( &bp, s2 );
	CHECK( cnDynamicTree_GetProxyCount( cnBroadPhase_GetTree( &bp, cnProxy_static ) ) == 0 );
	CHECK( cnDynamicTree_GetProxyCount( cnBroadPhase_GetTree( &bp, cnProxy_movable ) ) == 0 );
	cnBroadPhase_Destroy( &bp );
}

// The reported sequence depends only on the boxes, not on the order proxies were created in, and
// steady-state updates do not allocate.
static void TestBroadPhaseOrderAndReuse( void )
{
	enum
	{
		N = 200
	};
	SeedRandom( 31337 );
	static cnAABB boxes[N];
	static bool isStatic[N];
	for ( int i = 0; i < N; ++i )
	{
		boxes[i] = RandomBox( 8.0, 0.3, 1.5 );
		isStatic[i] = i % 5 == 0;
	}

	cnBroadPhase forward, backward;
	cnBroadPhase_Create( &forward );
	cnBroadPhase_Create( &backward );
	static int32_t keysForward[N], keysBackward[N];
	for ( int i = 0; i < N; ++i )
	{
		keysForward[i] = cnBroadPhase_CreateProxy( &forward, boxes[i], i, isStatic[i] );
	}
	for ( int i = N - 1; i >= 0; --i )
	{
		keysBackward[i] = cnBroadPhase_CreateProxy( &backward, boxes[i], i, isStatic[i] );
	}

	static uint64_t a[N * N / 2], b[N * N / 2];
	PairCollect pa = { a, 0, N * N / 2, true };
	PairCollect pb = { b, 0, N * N / 2, true };
	int na = cnBroadPhase_UpdatePairs( &forward, CollectPair, &pa );
	int nb = cnBroadPhase_UpdatePairs( &backward, CollectPair, &pb );
	CHECK( na == nb && na > 50 );
	CHECK( pa.ordered && pb.ordered );
	CHECK( memcmp( a, b, (size_t)na * sizeof( uint64_t ) ) == 0 );

	// steady state: the same proxies move every update, nothing reallocates
	const uint64_t* pairs = NULL;
	const int32_t* moveBuffer = NULL;
	const cnTreeNode* nodes = NULL;
	bool stable = true;
	for ( int round = 0; round < 20; ++round )
	{
		double dx = round % 2 == 0 ? 0.25 : -0.25;
		for ( int i = 1; i < N; i += 2 )
		{
			boxes[i].lower.x += dx;
			boxes[i].upper.x += dx;
			cnBroadPhase_MoveProxy( &forward, keysForward[i], boxes[i] );
		}
		pa.count = 0;
		cnBroadPhase_UpdatePairs( &forward, CollectPair, &pa );
		if ( round == 2 )
		{
			pairs = forward.pairs;
			moveBuffer = forward.moveBuffer;
			nodes = forward.trees[cnProxy_movable].nodes;
		}
		else if ( round > 2 )
		{
			stable = stable && forward.pairs == pairs && forward.moveBuffer == moveBuffer &&
					 forward.trees[cnProxy_movable].nodes == nodes;
		}
	}
	CHECK( stable );
	(void)keysBackward;
	cnBroadPhase_Destroy( &forward );
	cnBroadPhase_Destroy( &backward );
}

// A batch of moves (BeginMoves, BatchMoveProxy, EndMoves: leaves set in place, the movable tree
// rebuilt) against the same moves one by one (MoveProxy): a valid tree, the same pairs reported, in
// the same order, each round; static proxies given to the batch are moved the ordinary way.
static void TestBroadPhaseBatchMoves( void )
{
	enum
	{
		N = 400
	};
	SeedRandom( 4242 );
	static cnAABB boxes[N];
	cnBroadPhase one, batch;
	cnBroadPhase_Create( &one );
	cnBroadPhase_Create( &batch );
	static int32_t keysOne[N], keysBatch[N];
	for ( int i = 0; i < N; ++i )
	{
		boxes[i] = RandomBox( 6.0, 0.3, 1.2 );
		keysOne[i] = cnBroadPhase_CreateProxy( &one, boxes[i], i, i % 7 == 0 );
		keysBatch[i] = cnBroadPhase_CreateProxy( &batch, boxes[i], i, i % 7 == 0 );
	}
	static uint64_t a[N * N / 2], b[N * N / 2];
	bool same = true, valid = true;
	int reported = 0;
	for ( int round = 0; round < 6; ++round )
	{
		CHECK( cnBroadPhase_BeginMoves( &batch ) );
		for ( int i = round % 2; i < N; i += 2 )
		{
			cnVec3 d = cnV3( RandomRange( -0.6, 0.6 ), RandomRange( -0.6, 0.6 ), RandomRange( -0.6, 0.6 ) );
			boxes[i].lower = cnAdd( boxes[i].lower, d );
			boxes[i].upper = cnAdd( boxes[i].upper, d );
			cnBroadPhase_MoveProxy( &one, keysOne[i], boxes[i] );
			cnBroadPhase_BatchMoveProxy( &batch, keysBatch[i], boxes[i] );
		}
		cnBroadPhase_EndMoves( &batch );
		valid = valid && cnDynamicTree_Validate( cnBroadPhase_GetTree( &batch, cnProxy_movable ) ) &&
				cnDynamicTree_Validate( cnBroadPhase_GetTree( &batch, cnProxy_static ) );
		PairCollect pa = { a, 0, N * N / 2, true };
		PairCollect pb = { b, 0, N * N / 2, true };
		int na = cnBroadPhase_UpdatePairs( &one, CollectPair, &pa );
		int nb = cnBroadPhase_UpdatePairs( &batch, CollectPair, &pb );
		same = same && na == nb && pb.ordered && memcmp( a, b, (size_t)na * sizeof( uint64_t ) ) == 0;
		reported += na;
	}
	CHECK( valid );
	CHECK( same );
	CHECK( reported > 6 * 50 );
	cnBroadPhase_Destroy( &one );
	cnBroadPhase_Destroy( &batch );
}

// A larger broad phase against brute force: 3000 proxies, one update.
static void TestBroadPhaseLarge( void )
{
	enum
	{
		N = 3000
	};
	SeedRandom( 8080 );
	static cnAABB boxes[N];
	cnBroadPhase bp;
	cnBroadPhase_Create( &bp );
	for ( int i = 0; i < N; ++i )
	{
		boxes[i] = RandomBox( 25.0, 0.3, 1.5 );
		cnBroadPhase_CreateProxy( &bp, boxes[i], i, i % 7 == 0 );
	}
	static uint64_t got[200000];
	PairCollect p = { got, 0, 200000, true };
	int n = cnBroadPhase_UpdatePairs( &bp, CollectPair, &p );

	int count = 0;
	bool match = p.ordered && n == p.count;
	for ( int a = 0; a < N && match; ++a )
	{
		for ( int b = a + 1; b < N; ++b )
		{
			if ( ( a % 7 == 0 && b % 7 == 0 ) || cnAABB_Overlaps( boxes[a], boxes[b] ) == false )
			{
				continue;
			}
			uint64_t key = ( (uint64_t)a << 32 ) | (uint64_t)b;
			match = match && count < p.count && got[count] == key;
			count += 1;
		}
	}
	CHECK( match );
	CHECK( count == n );
	CHECK( n > 1000 );
	printf( "  3000 proxies: %d pairs\n", n );
	cnBroadPhase_Destroy( &bp );
}

// ---------------------------------------------------------------------------------------------
// pair map

// The map's hash, repeated here to construct keys that collide on purpose.
static uint64_t MixKey( uint64_t x )
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

#define REF_MAX 8192

typedef struct RefMap
{
	uint64_t keys[REF_MAX];
	int32_t values[REF_MAX];
	bool present[REF_MAX];
} RefMap;

static void TestPairMap( void )
{
	SeedRandom( 555 );
	static RefMap ref;
	memset( &ref, 0, sizeof( ref ) );

	// key pool: 3000 random pair keys, 500 keys whose hash has the same low 10 bits (one probe run
	// in every table of up to 1024 slots), and 200 whose home is the last slot (runs that wrap)
	int n = 0;
	while ( n < 3000 )
	{
		uint32_t lo = RandomU32() % 5000u, hi = RandomU32() % 5000u;
		uint64_t key = ( (uint64_t)( lo < hi ? lo : hi ) << 32 ) | ( lo < hi ? hi : lo );
		bool dup = false;
		for ( int i = 0; i < n && dup == false; ++i )
		{
			dup = ref.keys[i] == key;
		}
		if ( dup == false )
		{
			ref.keys[n++] = key;
		}
	}
	for ( uint64_t k = 1ull << 40; n < 3500; ++k )
	{
		if ( ( MixKey( k ) & 1023u ) == 77u )
		{
			ref.keys[n++] = k;
		}
	}
	for ( uint64_t k = 1ull << 41; n < 3700; ++k )
	{
		if ( ( MixKey( k ) & 1023u ) == 1023u )
		{
			ref.keys[n++] = k;
		}
	}

	cnPairMap map;
	cnPairMap_Create( &map, 4 );
	CHECK( map.count == 0 );
	CHECK( cnPairMap_Find( &map, 123 ) == -1 );
	CHECK( cnPairMap_Remove( &map, 123 ) == false );

	bool consistent = true, load = true;
	int refCount = 0;
	for ( int op = 0; op < 60000; ++op )
	{
		// the first half favours inserts so the table grows through several sizes
		int i = RandomInt( n );
		int kind = RandomInt( op < 30000 ? 3 : 2 );
		uint64_t key = ref.keys[i];
		if ( kind == 0 )
		{
			bool removed = cnPairMap_Remove( &map, key );
			consistent = consistent && removed == ref.present[i];
			refCount -= ref.present[i] ? 1 : 0;
			ref.present[i] = false;
		}
		else
		{
			int32_t value = (int32_t)RandomInt( 1000000 );
			cnPairMap_Insert( &map, key, value );
			refCount += ref.present[i] ? 0 : 1;
			ref.present[i] = true;
			ref.values[i] = value;
		}
		consistent = consistent && map.count == refCount;
		load = load && 2 * map.count <= map.capacity;

		if ( op % 2000 == 0 )
		{
			for ( int j = 0; j < n; ++j )
			{
				int32_t expected = ref.present[j] ? ref.values[j] : -1;
				consistent = consistent && cnPairMap_Find( &map, ref.keys[j] ) == expected;
			}
		}
	}
	CHECK( consistent );
	CHECK( load );

	// drain the colliding keys first (long runs with backward shifts), then everything
	bool drained = true;
	for ( int j = n - 1; j >= 0; --j )
	{
		bool removed = cnPairMap_Remove( &map, ref.keys[j] );
		drained = drained && removed == ref.present[j];
		ref.present[j] = false;
		if ( j % 97 == 0 )
		{
			for ( int k = 0; k < n; ++k )
			{
				drained = drained && cnPairMap_Find( &map, ref.keys[k] ) == ( ref.present[k] ? ref.values[k] : -1 );
			}
		}
	}
	CHECK( drained );
	CHECK( map.count == 0 );

	// clear keeps the memory and empties the map
	cnPairMap_Insert( &map, 42, 1 );
	cnPairMap_Insert( &map, 42, 2 );
	CHECK( map.count == 1 && cnPairMap_Find( &map, 42 ) == 2 );
	int capacity = map.capacity;
	cnPairMap_Clear( &map );
	CHECK( map.count == 0 && map.capacity == capacity && cnPairMap_Find( &map, 42 ) == -1 );
	// the all-ones key is an ordinary key (occupancy is stored separately)
	cnPairMap_Insert( &map, UINT64_MAX, 7 );
	cnPairMap_Insert( &map, 0, 8 );
	CHECK( cnPairMap_Find( &map, UINT64_MAX ) == 7 && cnPairMap_Find( &map, 0 ) == 8 );
	cnPairMap_Destroy( &map );

	// a destroyed map is empty and usable again after create
	cnPairMap_Create( &map, 0 );
	cnPairMap_Insert( &map, 1, 1 );
	CHECK( cnPairMap_Find( &map, 1 ) == 1 );
	cnPairMap_Destroy( &map );
}

int main( void )
{
	RUN_TEST( TestTreeRandom );
	RUN_TEST( TestTreeNoAllocationOnMove );
	RUN_TEST( TestTreeRayCast );
	RUN_TEST( TestTreeBalance );
	RUN_TEST( TestTreeLarge );
	RUN_TEST( TestTreeSplitRebuild );
	RUN_TEST( TestBroadPhaseRandom );
	RUN_TEST( TestBroadPhaseStatic );
	RUN_TEST( TestBroadPhaseOrderAndReuse );
	RUN_TEST( TestBroadPhaseLarge );
	RUN_TEST( TestBroadPhaseBatchMoves );
	RUN_TEST( TestPairMap );
	return TEST_SUMMARY();
}
