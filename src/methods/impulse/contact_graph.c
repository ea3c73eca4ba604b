// SPDX-License-Identifier: MIT
// The contact constraint graph of an impulse step: each constraint takes the first colour in which
// neither of its dynamic bodies is used yet (static, sleeping and kinematic bodies take no impulse,
// so they do not count), up to CN_COLOR_COUNT colours, the rest going to an overflow set. A colour's
// constraints are packed eight to a group, those of each point count in groups of their own and in
// the order of their bodies, and solved a group at a time by the chosen path; the overflow set is
// solved first, one constraint at a time in contact order. The order of a colour's constraints does
// not change their result (they share no body, and a group's lanes have equal point counts), which
// is what lets the lanes and the workers take them in any grouping.
#include "methods/impulse/contact_wide.h"

#include "task.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// The fewest groups of a colour one worker takes (32 constraints). The ranges of a loop shrink
// towards where the workers meet (task.c), so only the last few are this short: 4 rather than 8
// made the 1240-box pyramid's step 4 % faster at two workers, the falling pile's 2 % (one process,
// the two alternating); 2 was no better.
#define CN_GROUPS_PER_TASK 4

bool cnSimdPathAvailable( int path )
{
	switch ( path )
	{
		case cnSimd_scalar:
			return true;
		case cnSimd_sse2:
#if defined( __SSE2__ )
			return true;
#else
			return false;
#endif
		case cnSimd_avx2:
#if defined( CAIRN_HAVE_AVX2 )
			__builtin_cpu_init();
			return __builtin_cpu_supports( "avx2" );
#else
			return false;
#endif
		case cnSimd_avx512:
#if defined( CAIRN_HAVE_AVX512 )
			__builtin_cpu_init();
			return __builtin_cpu_supports( "avx512f" );
#else
			return false;
#endif
		default:
			return false;
	}
}

int cnBestSimdPath( void )
{
	const cnSimdPath bestFirst[] = { cnSimd_avx512, cnSimd_avx2, cnSimd_sse2 };
	for ( int i = 0; i < (int)( sizeof( bestFirst ) / sizeof( bestFirst[0] ) ); ++i )
	{
		if ( cnSimdPathAvailable( bestFirst[i] ) )
		{
			return bestFirst[i];
		}
	}
	return cnSimd_scalar;
}

_Static_assert( CN_COLOR_COUNT < 32, "a body's colours in use fit a 32-bit mask" );

// Whether a pass of this sub-step visits the colours from the last: odd sub-steps do, and the warm
// start runs against the solve that follows it, and so against the relax before it. Every pass then
// starts where the last one ended, in the groups it left in the cache: a pass streams megabytes of
// groups (the 1240-box pyramid: 6 MB), and this took a sixth of the passes' cache misses away
// (callgrind with a 2 MB cache). A warm start's order changes only the rounding of each body's sum
// of impulses.
static bool cnPassRunsReverse( const cnStepContext* context, bool warmStart )
{
	bool reverse = ( context->sweep & 1 ) != 0;
	return warmStart ? !reverse : reverse;
}

// A body of a constraint takes impulses when it is simulated and dynamic.
static bool cnTakesImpulses( const cnStepContext* context, int index )
{
	// (the dummy entry is not dynamic)
	return context->takesImpulses[index];
}

static inline void cnPutV3( double out[3][CN_LANES], int lane, cnVec3 v )
{
	out[0][lane] = v.x;
	out[1][lane] = v.y;
	out[2][lane] = v.z;
}

// the symmetric inverse inertia as xx, yy, zz, xy, xz, yz (the upper triangle)
static inline void cnPutInertia( double out[6][CN_LANES], int lane, cnMat3 m )
{
	out[0][lane] = m.cx.x;
	out[1][lane] = m.cy.y;
	out[2][lane] = m.cz.z;
	out[3][lane] = m.cy.x;
	out[4][lane] = m.cz.x;
	out[5][lane] = m.cz.y;
}

// Copies a constraint's geometry into lane `lane` of group g.
static void cnPutGeometry( cnWideGroup* g, int lane, const cnContactConstraint* cc )
{
	cnPutV3( g->normal, lane, cc->normal );
	cnPutV3( g->tangent1, lane, cc->tangent1 );
	cnPutV3( g->tangent2, lane, cc->tangent2 );
	for ( int j = 0; j < cc->pointCount; ++j )
	{
		const cnConstraintPoint* cp = cc->points + j;
		cnWidePoint* p = g->points + j;
		cnPutV3( p->rA, lane, cp->rA );
		cnPutV3( p->rB, lane, cp->rB );
		p->separation[lane] = cp->separation;
		p->normalMass[lane] = cp->normalMass;
		p->leverArm[lane] = cp->leverArm;
	}
	cnPutV3( g->centerA, lane, cc->centerA );
	cnPutV3( g->centerB, lane, cc->centerB );
	for ( int i = 0; i < 3; ++i )
	{
		g->tangentMass[i][lane] = cc->tangentMass[i];
	}
	g->twistMass[lane] = cc->twistMass;
}

void cnPackGeometry( cnStepContext* context, int constraintIndex )
{
	int slot = context->graph->slots[constraintIndex];
	cnPutGeometry( context->graph->groups + slot / CN_LANES, slot % CN_LANES, context->constraints + constraintIndex );
}

void cnRebaseFriction( cnStepContext* context, int constraintIndex, cnVec3 oldT1, cnVec3 oldT2 )
{
	const cnContactConstraint* cc = context->constraints + constraintIndex;
	int slot = context->graph->slots[constraintIndex];
	cnWideGroup* g = context->graph->groups + slot / CN_LANES;
	int lane = slot % CN_LANES;
	cnVec3 F = cnAdd( cnMulSV( g->frictionImpulse[0][lane], oldT1 ), cnMulSV( g->frictionImpulse[1][lane], oldT2 ) );
	g->frictionImpulse[0][lane] = cnDot( F, cc->tangent1 );
	g->frictionImpulse[1][lane] = cnDot( F, cc->tangent2 );
}

// A full matrix into nine rows of lanes (cnMat3's columns, for cnKernelPrepare).
static inline void cnPutMatrix( double out[9][CN_LANES], int lane, cnMat3 m )
{
	cnPutV3( out, lane, m.cx );
	cnPutV3( out + 3, lane, m.cy );
	cnPutV3( out + 6, lane, m.cz );
}

static inline cnVec3 cnGetV3( const double in[3][CN_LANES], int lane )
{
	return cnV3( in[0][lane], in[1][lane], in[2][lane] );
}

// Fills the lane of constraint k with what its manifold and bodies give (the preparation,
// cnKernelPrepare, works out the rest): its bodies, masses, softness, the normal, each point's
// anchors, separation and warm-start impulse, and in `in` the inverse inertias and carried friction.
static void cnGatherConstraint( cnStepContext* context, int k, cnWideGroup* g, int lane, cnPrepareLanes* in )
{
	const cnConstraintRef* ref = context->refs + k;
	const cnContact* c = context->world->contacts + ref->contactIndex;
	cnManifold* m = cnContactManifold( c, ref->manifoldIndex );
	int dummy = context->bodyCount;
	g->constraint[lane] = k;
	context->graph->slotManifold[context->graph->slots[k]] = m;
	g->indexA[lane] = ref->indexA;
	g->indexB[lane] = ref->indexB;
	g->writeA[lane] = cnTakesImpulses( context, ref->indexA );
	g->writeB[lane] = cnTakesImpulses( context, ref->indexB );
	g->pointCount[lane] = m->pointCount;
	const cnBodySim* simA = context->sims + ref->indexA;
	const cnBodySim* simB = context->sims + ref->indexB;
	g->invMassA[lane] = simA->invMass;
	g->invMassB[lane] = simB->invMass;
	cnPutInertia( g->invIA, lane, simA->invI );
	cnPutInertia( g->invIB, lane, simB->invI );
	cnPutMatrix( in->invIA, lane, simA->invI );
	cnPutMatrix( in->invIB, lane, simB->invI );
	g->friction[lane] = c->friction;
	// a contact with a static body is stiffer: nothing on the other side gives way
	cnSoftness soft = ( ref->indexA == dummy || ref->indexB == dummy ) ? context->staticSoftness : context->contactSoftness;
	g->biasRate[lane] = soft.biasRate;
	g->massScale[lane] = soft.massScale;
	g->impulseScale[lane] = soft.impulseScale;
	cnPutV3( g->normal, lane, m->normal );
	for ( int j = 0; j < m->pointCount; ++j )
	{
		const cnManifoldPoint* mp = m->points + j;
		cnWidePoint* p = g->points + j;
		cnPutV3( p->rA, lane, mp->anchorA );
		cnPutV3( p->rB, lane, mp->anchorB );
		p->separation[lane] = mp->separation;
		p->normalImpulse[lane] = mp->normalImpulse;
		p->maxNormalImpulse[lane] = 0.0;
		in->tangentImpulse[j][0][lane] = mp->tangentImpulse1;
		in->tangentImpulse[j][1][lane] = mp->tangentImpulse2;
	}
}

// The record of a kept constraint (restitution, a sphere pair), read from its prepared lane.
static void cnReadLaneConstraint( cnStepContext* context, int k, const cnWideGroup* g, int lane, const cnPrepareLanes* in )
{
	const cnConstraintRef* ref = context->refs + k;
	const cnContact* c = context->world->contacts + ref->contactIndex;
	cnContactConstraint* cc = context->constraints + k;
	cc->indexA = ref->indexA;
	cc->indexB = ref->indexB;
	cc->contactIndex = ref->contactIndex;
	cc->manifoldIndex = ref->manifoldIndex;
	// two spheres: their normal is the line of centres, which turns within the step as they move past
	// each other (cnFollowSpheres)
	cc->spheres = ref->spheres;
	cc->pointCount = g->pointCount[lane];
	cc->friction = c->friction;
	cc->restitution = c->restitution;
	cc->invMassA = g->invMassA[lane];
	cc->invMassB = g->invMassB[lane];
	cc->softness = (cnSoftness){ g->biasRate[lane], g->massScale[lane], g->impulseScale[lane] };
	cc->normal = cnGetV3( g->normal, lane );
	cc->tangent1 = cnGetV3( g->tangent1, lane );
	cc->tangent2 = cnGetV3( g->tangent2, lane );
	cc->normalAcceleration = cnContactNormalAcceleration( context, ref->indexA, ref->indexB, cc->normal );
	for ( int j = 0; j < cc->pointCount; ++j )
	{
		const cnWidePoint* p = g->points + j;
		cnConstraintPoint* cp = cc->points + j;
		cp->rA = cnGetV3( p->rA, lane );
		cp->rB = cnGetV3( p->rB, lane );
		cp->separation = p->separation[lane];
		cp->startSeparation = p->separation[lane];
		cp->normalImpulse = p->normalImpulse[lane];
		cp->tangentImpulse1 = in->tangentImpulse[j][0][lane];
		cp->tangentImpulse2 = in->tangentImpulse[j][1][lane];
		cp->maxNormalImpulse = 0.0;
		cp->normalMass = p->normalMass[lane];
		cp->relativeVelocity = in->relativeVelocity[j][lane];
		cp->leverArm = p->leverArm[lane];
	}
	cc->centerA = cnGetV3( g->centerA, lane );
	cc->centerB = cnGetV3( g->centerB, lane );
	for ( int i = 0; i < 3; ++i )
	{
		cc->tangentMass[i] = g->tangentMass[i][lane];
	}
	cc->frictionImpulse[0] = g->frictionImpulse[0][lane];
	cc->frictionImpulse[1] = g->frictionImpulse[1][lane];
	cc->twistMass = g->twistMass[lane];
	cc->twistImpulse = g->twistImpulse[lane];
}

// Prepares a group whose lanes were gathered, on the graph's path.
static void cnPrepareGroup( const cnStepContext* context, cnWideGroup* g, cnPrepareLanes* in )
{
	switch ( context->graph->path )
	{
#if defined( CAIRN_HAVE_AVX512 )
		case cnSimd_avx512:
			cnPrepareGroupAvx512( context->states, g, in );
			return;
#endif
#if defined( CAIRN_HAVE_AVX2 )
		case cnSimd_avx2:
			cnPrepareGroupAvx2( context->states, g, in );
			return;
#endif
#if defined( __SSE2__ )
		case cnSimd_sse2:
			cnPrepareGroupSse2( context->states, g, in );
			return;
#endif
		default:
			for ( int lane = 0; lane < g->laneCount; ++lane )
			{
				cnPrepareLane( context->states, g, lane, in );
			}
			return;
	}
}

typedef struct cnPackTask
{
	cnStepContext* context;
	const int* constraintOfSlot;
	// visit the groups from the last (items count from the end)
	bool reverse;
} cnPackTask;

// Prepares the constraints of groups [startIndex, endIndex) straight into their lanes (a record is
// kept only where the step's end needs it); empty lanes read the dummy body (at rest, never written).
static void cnPackTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnPackTask* task = taskContext;
	cnStepContext* context = task->context;
	int step = task->reverse ? -1 : 1;
	int first = task->reverse ? context->graph->groupCount - 1 : 0;
	for ( int item = startIndex; item < endIndex; ++item )
	{
		int i = first + step * item;
		// the next group's contacts (their heads and first manifolds) while this one is prepared: in
		// group order they are scattered, and each was a cache miss
		for ( int lane = 0; item + 1 < endIndex && lane < CN_LANES; ++lane )
		{
			int k = task->constraintOfSlot[( i + step ) * CN_LANES + lane];
			if ( k >= 0 )
			{
				const char* c = (const char*)( context->world->contacts + context->refs[k].contactIndex );
				for ( size_t offset = 0; offset < offsetof( cnContact, manifoldCount ); offset += 64 )
				{
					__builtin_prefetch( c + offset );
				}
			}
		}
		cnWideGroup* g = context->graph->groups + i;
		// a group of full manifolds in every lane has every field written below; any other is cleared first,
		// since empty lanes and the points past a lane's count must read as zeros
		bool full = true;
		for ( int lane = 0; lane < CN_LANES; ++lane )
		{
			int k = task->constraintOfSlot[i * CN_LANES + lane];
			full = full && k >= 0 && context->refs[k].pointCount == CN_MAX_MANIFOLD_POINTS;
		}
		cnPrepareLanes in;
		if ( full == false )
		{
			memset( g, 0, sizeof( *g ) );
			memset( &in, 0, sizeof( in ) );
		}
		g->laneCount = 0;
		g->maxPointCount = 0;
		for ( int lane = 0; lane < CN_LANES; ++lane )
		{
			g->indexA[lane] = context->bodyCount;
			g->indexB[lane] = context->bodyCount;
			int k = task->constraintOfSlot[i * CN_LANES + lane];
			if ( k < 0 )
			{
				continue;
			}
			cnGatherConstraint( context, k, g, lane, &in );
			int points = g->pointCount[lane];
			g->laneCount = lane + 1;
			g->maxPointCount = g->maxPointCount > points ? g->maxPointCount : points;
		}
		cnPrepareGroup( context, g, &in );
		for ( int lane = 0; lane < g->laneCount; ++lane )
		{
			// the approach speed before the solve, for restitution and events: the manifold keeps it (a
			// sphere pair's, which cnFollowSpheres measures again, is stored again at the step's end)
			cnManifold* m = context->graph->slotManifold[i * CN_LANES + lane];
			for ( int j = 0; j < m->pointCount; ++j )
			{
				m->points[j].relativeVelocity = in.relativeVelocity[j][lane];
			}
			int k = g->constraint[lane];
			if ( context->refs[k].kept )
			{
				cnReadLaneConstraint( context, k, g, lane, &in );
			}
		}
	}
}

void cnBuildContactGraph( cnStepContext* context )
{
	cnWorld* world = context->world;
	int n = context->constraintCount;
	cnContactGraph* graph = cnArena_Alloc( &world->arena, sizeof( cnContactGraph ) );
	memset( graph, 0, sizeof( *graph ) );
	context->graph = graph;

	int path = world->def.settings.impulse.simd;
	graph->path = cnSimdPathAvailable( path ) ? path : cnBestSimdPath();

	// colour: each constraint takes the lowest colour free at both of its bodies that take impulses
	// (a mask of the colours in use per simulated body: one lookup per constraint, not one per colour)
	uint32_t* used = cnArena_Alloc( &world->arena, (size_t)( context->bodyCount + 1 ) * sizeof( uint32_t ) );
	memset( used, 0, (size_t)( context->bodyCount + 1 ) * sizeof( uint32_t ) );
	int* colors = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	int sizes[CN_COLOR_COUNT + 1] = { 0 };
	const uint32_t allColors = ( (uint32_t)1 << CN_COLOR_COUNT ) - 1u;
	for ( int k = 0; k < n; ++k )
	{
		const cnConstraintRef* cc = context->refs + k;
		int a = cnTakesImpulses( context, cc->indexA ) ? cc->indexA : -1;
		int b = cnTakesImpulses( context, cc->indexB ) ? cc->indexB : -1;
		uint32_t busy = ( a >= 0 ? used[a] : 0u ) | ( b >= 0 ? used[b] : 0u );
		uint32_t free = ~busy & allColors;
		int color = free != 0u ? __builtin_ctz( free ) : CN_COLOR_COUNT;
		if ( color < CN_COLOR_COUNT )
		{
			uint32_t bit = (uint32_t)1 << color;
			if ( a >= 0 )
			{
				used[a] |= bit;
			}
			if ( b >= 0 )
			{
				used[b] |= bit;
			}
		}
		colors[k] = color;
		sizes[color] += 1;
	}

	// groups: the colours in order, then the overflow set. Within a colour, the constraints of each
	// point count fill groups of their own: every lane of a group then has the group's point count,
	// so a lane's pass (which walks the group's points, cnKernelSolve) depends only on its own
	// constraint and the grouping cannot change a bit. (Mixed groups also spent the full lanes' work
	// on manifolds of one or two points.)
	int classSize[CN_COLOR_COUNT][CN_MAX_MANIFOLD_POINTS + 1];
	memset( classSize, 0, sizeof( classSize ) );
	for ( int k = 0; k < n; ++k )
	{
		if ( colors[k] < CN_COLOR_COUNT )
		{
			classSize[colors[k]][context->refs[k].pointCount] += 1;
		}
	}
	int colorCount = 0;
	for ( int c = 0; c < CN_COLOR_COUNT; ++c )
	{
		colorCount = sizes[c] > 0 ? c + 1 : colorCount;
	}
	graph->colorCount = colorCount;
	int groupCount = 0;
	for ( int c = 0; c < colorCount; ++c )
	{
		graph->colorStart[c] = groupCount;
		for ( int points = 0; points <= CN_MAX_MANIFOLD_POINTS; ++points )
		{
			groupCount += ( classSize[c][points] + CN_LANES - 1 ) / CN_LANES;
		}
	}
	graph->colorStart[colorCount] = groupCount;
	graph->overflowStart = groupCount;
	int overflowStart = groupCount;
	groupCount += ( sizes[CN_COLOR_COUNT] + CN_LANES - 1 ) / CN_LANES;
	graph->groupCount = groupCount;

	graph->groups = cnArena_Alloc( &world->arena, (size_t)( groupCount > 0 ? groupCount : 1 ) * sizeof( cnWideGroup ) );
	graph->slots = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	size_t slotCount = (size_t)( groupCount > 0 ? groupCount : 1 ) * CN_LANES;
	graph->slotManifold = cnArena_Alloc( &world->arena, slotCount * sizeof( cnManifold* ) );
	int* constraintOfSlot = cnArena_Alloc( &world->arena, (size_t)( groupCount > 0 ? groupCount : 1 ) * CN_LANES * sizeof( int ) );
	for ( int i = 0; i < groupCount * CN_LANES; ++i )
	{
		constraintOfSlot[i] = -1;
	}

	// the constraints in the order of their first simulated body (a stable counting sort), each
	// colour's groups in the order they open: a group opens when the first constraint of its point
	// count finds the last one of that count full. So a colour's groups follow the bodies whatever
	// their point counts, the lanes of a group and the groups a worker takes touch nearby body
	// states, and the next colour's groups and the body loops find them in that worker's cache
	// (task.c gives each worker the same end of every loop; with the classes one after another, a
	// worker took the four-point manifolds of every body and the other the rest). The overflow set
	// keeps contact order: its order changes its result
	int* order = cnArena_Alloc( &world->arena, (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	int* bucket = cnArena_Alloc( &world->arena, (size_t)( context->bodyCount + 2 ) * sizeof( int ) );
	memset( bucket, 0, (size_t)( context->bodyCount + 2 ) * sizeof( int ) );
	for ( int k = 0; k < n; ++k )
	{
		const cnConstraintRef* cc = context->refs + k;
		int key = cc->indexA < cc->indexB ? cc->indexA : cc->indexB;
		bucket[key + 1] += 1;
	}
	for ( int i = 0; i <= context->bodyCount; ++i )
	{
		bucket[i + 1] += bucket[i];
	}
	for ( int k = 0; k < n; ++k )
	{
		const cnConstraintRef* cc = context->refs + k;
		int key = cc->indexA < cc->indexB ? cc->indexA : cc->indexB;
		order[bucket[key]++] = k;
	}
	// per colour: the groups opened so far; per colour and point count: its open group and its lanes
	// in use (CN_LANES: none open)
	int opened[CN_COLOR_COUNT] = { 0 };
	int openGroup[CN_COLOR_COUNT][CN_MAX_MANIFOLD_POINTS + 1];
	int openFill[CN_COLOR_COUNT][CN_MAX_MANIFOLD_POINTS + 1];
	for ( int c = 0; c < CN_COLOR_COUNT; ++c )
	{
		for ( int points = 0; points <= CN_MAX_MANIFOLD_POINTS; ++points )
		{
			openFill[c][points] = CN_LANES;
		}
	}
	for ( int i = 0; i < n; ++i )
	{
		int k = order[i];
		int c = colors[k];
		if ( c < CN_COLOR_COUNT )
		{
			int points = context->refs[k].pointCount;
			if ( openFill[c][points] == CN_LANES )
			{
				openGroup[c][points] = graph->colorStart[c] + opened[c]++;
				openFill[c][points] = 0;
			}
			graph->slots[k] = openGroup[c][points] * CN_LANES + openFill[c][points]++;
			constraintOfSlot[graph->slots[k]] = k;
		}
	}
	int overflowFill = 0;
	for ( int k = 0; k < n; ++k )
	{
		if ( colors[k] == CN_COLOR_COUNT )
		{
			graph->slots[k] = overflowStart * CN_LANES + overflowFill++;
			constraintOfSlot[graph->slots[k]] = k;
		}
	}

	// each group is filled by one task: any split over the workers gives the same bits. The groups are
	// filled towards the colour the first warm start begins with, which then finds them in the cache
	cnPackTask task = { context, constraintOfSlot, cnPassRunsReverse( context, true ) == false };
	cnParallelFor( world, groupCount, 16, cnPackTaskFn, &task );
}

// Copies one constraint's impulses out of its lane into its record.
static void cnReadLaneImpulses( const cnStepContext* context, int k )
{
	const cnContactGraph* graph = context->graph;
	cnContactConstraint* cc = context->constraints + k;
	int slot = graph->slots[k];
	const cnWideGroup* g = graph->groups + slot / CN_LANES;
	int lane = slot % CN_LANES;
	for ( int j = 0; j < cc->pointCount; ++j )
	{
		const cnWidePoint* p = g->points + j;
		cnConstraintPoint* cp = cc->points + j;
		cp->normalImpulse = p->normalImpulse[lane];
		cp->maxNormalImpulse = p->maxNormalImpulse[lane];
	}
	cc->frictionImpulse[0] = g->frictionImpulse[0][lane];
	cc->frictionImpulse[1] = g->frictionImpulse[1][lane];
	cc->twistImpulse = g->twistImpulse[lane];
}

// Copies the impulses of the constraints of groups [startIndex, endIndex) that the step's end still
// works on (restitution, sphere pairs) out of their lanes; cnStoreImpulses reads the others' from
// the lanes.
static void cnUnpackTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	cnStepContext* context = taskContext;
	const cnContactGraph* graph = context->graph;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		const cnWideGroup* g = graph->groups + i;
		for ( int lane = 0; lane < g->laneCount; ++lane )
		{
			int k = g->constraint[lane];
			if ( context->refs[k].kept )
			{
				cnReadLaneImpulses( context, k );
			}
		}
	}
}

void cnUnpackImpulses( cnStepContext* context )
{
	cnParallelFor( context->world, context->graph->groupCount, 16, cnUnpackTaskFn, context );
}

// Runs one pass (warm start when pass is NULL) on one lane of a group.
static inline void cnRunLane( cnBodyState* states, cnWideGroup* g, int lane, const cnSolvePass* pass )
{
	pass ? cnSolveLane( states, g, lane, pass ) : cnWarmStartLane( states, g, lane );
}

// Runs one pass (warm start when pass is NULL) over groups [begin, end) of a colour on the graph's path.
static void cnRunGroupRange( cnStepContext* context, int begin, int end, const cnSolvePass* pass )
{
	cnContactGraph* graph = context->graph;
	cnBodyState* states = context->states;
	switch ( graph->path )
	{
#if defined( CAIRN_HAVE_AVX512 )
		case cnSimd_avx512:
			pass ? cnSolveGroupsAvx512( states, graph->groups, begin, end, pass )
				 : cnWarmStartGroupsAvx512( states, graph->groups, begin, end );
			return;
#endif
#if defined( CAIRN_HAVE_AVX2 )
		case cnSimd_avx2:
			pass ? cnSolveGroupsAvx2( states, graph->groups, begin, end, pass )
				 : cnWarmStartGroupsAvx2( states, graph->groups, begin, end );
			return;
#endif
#if defined( __SSE2__ )
		case cnSimd_sse2:
			pass ? cnSolveGroupsSse2( states, graph->groups, begin, end, pass )
				 : cnWarmStartGroupsSse2( states, graph->groups, begin, end );
			return;
#endif
		default:
			for ( int i = begin; i < end; ++i )
			{
				cnWideGroup* g = graph->groups + i;
				for ( int lane = 0; lane < g->laneCount; ++lane )
				{
					cnRunLane( states, g, lane, pass );
				}
			}
			return;
	}
}

// The overflow set, one constraint at a time, in contact order or in reverse.
static void cnRunOverflow( cnStepContext* context, const cnSolvePass* pass, bool reverse )
{
	cnContactGraph* graph = context->graph;
	int first = graph->overflowStart, count = graph->groupCount - graph->overflowStart;
	for ( int k = 0; k < count; ++k )
	{
		cnWideGroup* g = graph->groups + ( reverse ? graph->groupCount - 1 - k : first + k );
		for ( int m = 0; m < g->laneCount; ++m )
		{
			cnRunLane( context->states, g, reverse ? g->laneCount - 1 - m : m, pass );
		}
	}
}

/// A colour's groups handed to the workers.
typedef struct cnColorTask
{
	cnStepContext* context;
	int begin;
	const cnSolvePass* pass;
} cnColorTask;

static void cnColorTaskFn( int startIndex, int endIndex, int workerIndex, void* taskContext )
{
	(void)workerIndex;
	const cnColorTask* task = taskContext;
	cnRunGroupRange( task->context, task->begin + startIndex, task->begin + endIndex, task->pass );
}

// A colour's groups share no dynamic body (static, sleeping and kinematic ones are read, never
// written), so the workers can take any ranges of them and the bits do not depend on the split.
static void cnRunGroups( cnStepContext* context, int begin, int end, const cnSolvePass* pass )
{
	cnColorTask task = { context, begin, pass };
	cnParallelFor( context->world, end - begin, CN_GROUPS_PER_TASK, cnColorTaskFn, &task );
}

// One pass over every contact constraint: the overflow set one at a time in contact order, then
// each colour; on odd sub-steps the same in reverse (the colours from the last, then the overflow set
// from its end, and each manifold's points backwards), so two sub-steps make one symmetric
// Gauss-Seidel sweep. The point a manifold's pass starts from (its lead) also walks back: sub-steps
// 2k and 2k + 1 start from point -k, forwards then backwards, so each point leads two sub-steps in a
// row and hands the lead to its neighbour. A fixed order leaves the same small bias in every pass,
// which rocked the 20-box tower (../shared/peers, 1000 steps at 1/60 s) 20 cm sideways. Reversing
// alone left 1.9 cm: a face's first point forwards and its first point backwards are neighbours on
// one edge, so that edge always took the load first and the tower kept tipping towards it. Walking
// the lead round every corner leaves 0.13 cm. (Starting from point +k instead left 0.17 cm but let a
// box dropped on a heightfield slide 1.1 mm where it landed, against 0.26 mm.)
static void cnRunPass( cnStepContext* context, const cnSolvePass* pass )
{
	cnContactGraph* graph = context->graph;
	bool reverse = cnPassRunsReverse( context, pass == NULL );
	graph->lastPassReverse = reverse;
	if ( reverse == false )
	{
		cnRunOverflow( context, pass, false );
	}
	for ( int k = 0; k < graph->colorCount; ++k )
	{
		int c = reverse ? graph->colorCount - 1 - k : k;
		cnRunGroups( context, graph->colorStart[c], graph->colorStart[c + 1], pass );
	}
	if ( reverse )
	{
		cnRunOverflow( context, pass, true );
	}
}

void cnWarmStartContacts( cnStepContext* context )
{
	cnRunPass( context, NULL );
}

void cnSolveContacts( cnStepContext* context, bool useBias )
{
	cnSolvePass pass = { context->inv_h, context->maxPushVelocity, context->world->def.linearSlop, useBias,
						 ( context->sweep & 1 ) != 0, context->sweep / 2 };
	cnRunPass( context, &pass );
}
