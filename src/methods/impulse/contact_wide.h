// SPDX-License-Identifier: MIT
// The impulse method's contact solve in graph colours: the constraints of one colour touch disjoint
// simulated bodies, so eight of them are solved at once in SIMD lanes, and a colour's groups in
// parallel. The layout is a structure of arrays per group of eight constraints ("wide"); the
// constraints are prepared in their lanes (cnKernelPrepare), and a record (cnContactConstraint) is kept only
// for those that restitution or a sphere pair works on after the sub-steps.
//
// Every path computes the same operations in the same order on each lane (no FMA: the build keeps
// -ffp-contract=off), so the scalar, SSE2, AVX2 and AVX-512 paths give the same bits (tested).
#pragma once

#include "methods/impulse/impulse.h"

/// Lanes per group of constraints: two AVX2 registers of four doubles, so the kernel has two
/// independent chains of dependent operations in flight (with one register it waited on their
/// latency: 8 lanes took the pyramid's solve from 13.0 to 11.7 ms/step, the same bits); one AVX-512
/// register of eight (there a second register's chain gained nothing: docs/benchmarks.md).
#define CN_LANES 8

/// Colours of the constraint graph; a constraint that finds none free goes to the overflow set,
/// solved one constraint at a time before the colours (Box2D v3 does the same with 24).
#define CN_COLOR_COUNT 24

/// One contact point of a group's constraints.
typedef struct cnWidePoint
{
	// anchors relative to the centres of mass at the step's start
	double rA[3][CN_LANES], rB[3][CN_LANES];
	// separation at the step's start (cnCurrentSeparation adds the anchors' motion)
	double separation[CN_LANES];
	double normalMass[CN_LANES];
	double normalImpulse[CN_LANES];
	double maxNormalImpulse[CN_LANES];
	// distance from the friction centre: the twist friction a point can hold is mu lambda leverArm
	double leverArm[CN_LANES];
} cnWidePoint;

/// CN_LANES contact constraints (manifolds) side by side, one per lane. Lanes past the group's count,
/// and points past a lane's point count, hold zeros and are never written back.
typedef struct cnWideGroup
{
	// solver indices of the bodies (the dummy entry for static and sleeping ones)
	int indexA[CN_LANES], indexB[CN_LANES];
	// 1 when the body takes impulses (dynamic and simulated): others are never written
	int writeA[CN_LANES], writeB[CN_LANES];
	// the constraint (cnStepContext.constraints) of each lane, and the points of each lane
	int constraint[CN_LANES];
	int pointCount[CN_LANES];
	// the lanes in use and the most points of any lane
	int laneCount;
	int maxPointCount;
	double invMassA[CN_LANES], invMassB[CN_LANES];
	// world inverse inertia at the step's start, symmetric: xx, yy, zz, xy, xz, yz
	double invIA[6][CN_LANES], invIB[6][CN_LANES];
	double normal[3][CN_LANES], tangent1[3][CN_LANES], tangent2[3][CN_LANES];
	double friction[CN_LANES];
	// friction at the manifold's centre: its anchors, the inverse of its 2x2 tangent mass matrix
	// (t1 t1, t1 t2, t2 t2), its accumulated impulse along the tangents; twist friction about the
	// normal: its effective mass and accumulated impulse
	double centerA[3][CN_LANES], centerB[3][CN_LANES];
	double tangentMass[3][CN_LANES];
	double frictionImpulse[2][CN_LANES];
	double twistMass[CN_LANES], twistImpulse[CN_LANES];
	// soft contact coefficients (stiffer against static bodies)
	double biasRate[CN_LANES], massScale[CN_LANES], impulseScale[CN_LANES];
	cnWidePoint points[CN_MAX_MANIFOLD_POINTS];
} cnWideGroup;

/// The step-wide constants of a solve pass.
typedef struct cnSolvePass
{
	double inv_h;
	double maxPush;
	double slop;
	bool useBias;
	// visit each manifold's points from the last (odd sub-steps)
	bool reverse;
	// how far the lead has walked back around each manifold's points (sub-step / 2): a pass visits
	// them from point -turn (mod its point count), forwards or backwards
	int turn;
} cnSolvePass;

/// The contact constraints of a step in colours: groups [colorStart[c], colorStart[c + 1]) hold
/// colour c; the overflow groups come after the last colour and are solved lane by lane in order.
typedef struct cnContactGraph
{
	cnWideGroup* groups;
	int groupCount;
	int colorCount;
	int colorStart[CN_COLOR_COUNT + 1];
	int overflowStart;
	// group * CN_LANES + lane of each constraint
	int* slots;
	// the manifold of each slot's constraint (for the step's end, kept out of the groups the passes
	// stream)
	cnManifold** slotManifold;
	// the solve path in use (cnSimdPath, never auto)
	int path;
	// whether the last pass ran the colours from the last: the store then starts from the first,
	// whose groups that pass left in the cache
	bool lastPassReverse;
} cnContactGraph;

/// What the preparation of a group (cnKernelPrepare) reads besides the group's lanes, and the approach
/// speeds it measures for the manifolds: per lane both bodies' world inverse inertia in full, as
/// cnMat3's columns (the solve's symmetric copy would round differently), and per point the friction
/// impulses the manifold carried from the last step and the approach speed at the step's start.
typedef struct cnPrepareLanes
{
	double invIA[9][CN_LANES], invIB[9][CN_LANES];
	double tangentImpulse[CN_MAX_MANIFOLD_POINTS][2][CN_LANES];
	double relativeVelocity[CN_MAX_MANIFOLD_POINTS][CN_LANES];
} cnPrepareLanes;

/// The paths compiled into this build and supported by this CPU, the best first.
int cnBestSimdPath( void );
/// Whether a path can run here.
bool cnSimdPathAvailable( int path );

/// Colours the step's contact constraints and packs them into groups (contact_graph.c).
void cnBuildContactGraph( cnStepContext* context );
/// Copies a constraint's geometry (normal, tangents, anchors, separations, masses) into its lane,
/// after cnFollowSpheres moved it.
void cnPackGeometry( cnStepContext* context, int constraintIndex );
/// Turns a lane's friction impulse so far from the old tangents onto its constraint's current ones.
void cnRebaseFriction( cnStepContext* context, int constraintIndex, cnVec3 oldT1, cnVec3 oldT2 );

// One lane of a group at a time (contact_scalar.c): the overflow set and the scalar path.
void cnWarmStartLane( cnBodyState* states, cnWideGroup* g, int lane );
void cnSolveLane( cnBodyState* states, cnWideGroup* g, int lane, const cnSolvePass* pass );
void cnPrepareLane( const cnBodyState* states, cnWideGroup* g, int lane, cnPrepareLanes* in );

// Whole groups at once: the preparation one group, the passes groups [begin, end) of one colour.
void cnPrepareGroupSse2( const cnBodyState* states, cnWideGroup* g, cnPrepareLanes* in );
void cnPrepareGroupAvx2( const cnBodyState* states, cnWideGroup* g, cnPrepareLanes* in );
void cnWarmStartGroupsSse2( cnBodyState* states, cnWideGroup* groups, int begin, int end );
void cnSolveGroupsSse2( cnBodyState* states, cnWideGroup* groups, int begin, int end, const cnSolvePass* pass );
void cnWarmStartGroupsAvx2( cnBodyState* states, cnWideGroup* groups, int begin, int end );
void cnSolveGroupsAvx2( cnBodyState* states, cnWideGroup* groups, int begin, int end, const cnSolvePass* pass );
void cnPrepareGroupAvx512( const cnBodyState* states, cnWideGroup* g, cnPrepareLanes* in );
void cnWarmStartGroupsAvx512( cnBodyState* states, cnWideGroup* groups, int begin, int end );
void cnSolveGroupsAvx512( cnBodyState* states, cnWideGroup* groups, int begin, int end, const cnSolvePass* pass );
