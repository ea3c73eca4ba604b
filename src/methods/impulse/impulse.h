// SPDX-License-Identifier: MIT
// The impulse method's data, shared by its step (impulse.c) and its contact constraints
// (contact_solver.c).
#pragma once

#include "integrate.h"

#include "world.h"

/// Hot state of a simulated body during a step, in one contiguous array.
typedef struct cnBodyState
{
	// centre of mass velocity and world angular velocity
	cnVec3 v, w;
	// displacement of the centre of mass and rotation since the start of the step
	cnVec3 dp;
	cnQuat dq;
} cnBodyState;

/// Per-step constant data of a simulated body.
typedef struct cnBodySim
{
	double invMass;
	// world inverse inertia at the start of the step
	cnMat3 invI;
	int body;
	// dynamic: takes impulses (kinematic bodies and the dummy entry do not); read here rather than
	// from the body's cold record, a cache miss per constraint
	bool dynamic;
	// the velocity update of every sub-step: its linear constants, and whether the angular one does
	// nothing (then the body's cold record is not read at all)
	bool spinFree;
	cnLinearStep linear;
} cnBodySim;

// The period of cnStepContext.sweep: even, and a multiple of 2 x every manifold's point count (1 to
// CN_MAX_MANIFOLD_POINTS) so the wrap changes neither the direction nor any manifold's lead.
#define CN_SWEEP_PERIOD 1680
_Static_assert( CN_MAX_MANIFOLD_POINTS <= 8, "CN_SWEEP_PERIOD = 2 x 840 covers manifolds of up to 8 points" );

/// Soft constraint coefficients (Box2D v3 "soft step").
typedef struct cnSoftness
{
	double biasRate;
	double massScale;
	double impulseScale;
} cnSoftness;

/// A contact point's rows. The Jacobian's angular parts r x d and their images under the inverse
/// inertia are precomputed once per step, so each iteration is a few dot products and axpys.
typedef struct cnConstraintPoint
{
	cnVec3 rA, rB;
	// separation at the start of the step (for a sphere pair: at the last cnFollowSpheres, less the
	// anchors' motion so far); the current one adds the normal motion of the anchors
	double separation;
	double startSeparation;
	double normalImpulse;
	// the manifold's friction and twist as a force on this point (what the manifold keeps for the
	// next step's warm start: cnStoreImpulses)
	double tangentImpulse1, tangentImpulse2;
	double maxNormalImpulse;
	double normalMass;
	double relativeVelocity;
	// distance from the friction centre
	double leverArm;
} cnConstraintPoint;

/// What a pair of spheres keeps for turning its normal through the step (cnFollowSpheres); kept
/// apart from its constraint, which stays small for the many pairs that are not spheres.
typedef struct cnSpherePair
{
	// the constraint
	int constraint;
	// the sphere centres relative to the bodies' centres of mass at the step's start; radii
	cnVec3 sphereA, sphereB;
	double radiusA, radiusB;
	// the line from A's sphere centre to B's at the step's start, and both bodies' velocities then
	// (the approach speed along the turned normal is measured with them)
	cnVec3 centerDelta;
	cnVec3 startVA, startWA, startVB, startWB;
} cnSpherePair;

/// What the colouring and the packing need of a contact constraint before it is prepared: the
/// constraint itself is prepared straight into its lane (contact_graph.c) and kept as a record only
/// when the step's end works on it.
typedef struct cnConstraintRef
{
	// solver indices of the bodies (bodyCount: the dummy entry)
	int indexA, indexB;
	int contactIndex, manifoldIndex;
	int pointCount;
	// a pair of spheres (cnSpherePair)
	bool spheres;
	// restitution or a pair of spheres, which the step's end works on after the sub-steps: its record
	// (cnStepContext.constraints) is kept and its impulses unpacked into it; the others' records are
	// never written
	bool kept;
} cnConstraintRef;

typedef struct cnContactConstraint
{
	int indexA, indexB;
	// a pair of spheres: its normal follows the line of centres through the step (cnSpherePair)
	bool spheres;
	// relative acceleration of B with respect to A along the normal from gravity and forces, for the
	// energy of a bounce
	double normalAcceleration;
	int contactIndex;
	// which of the contact's manifolds this constraint solves
	int manifoldIndex;
	int pointCount;
	cnVec3 normal, tangent1, tangent2;
	double friction, restitution;
	// friction at the centre of the points (anchors relative to each body's centre of mass), the
	// inverse of its 2x2 tangent mass (t1 t1, t1 t2, t2 t2) and its impulse along the tangents; twist
	// friction about the normal: effective mass and impulse
	cnVec3 centerA, centerB;
	double tangentMass[3];
	double frictionImpulse[2];
	double twistMass, twistImpulse;
	// (the inverse inertias are the bodies' own, read from cnStepContext.sims)
	double invMassA, invMassB;
	cnSoftness softness;
	cnConstraintPoint points[CN_MAX_MANIFOLD_POINTS];
} cnContactConstraint;

/// One side of a joint during a step: its solver index (bodyCount: the dummy entry, for the world,
/// static and sleeping bodies), its pose at the step's start and its inverse mass and inertia.
typedef struct cnJointSide
{
	int index;
	cnJointPose start;
	double invMass;
	cnMat3 invI;
} cnJointSide;

/// A joint during a step: its rows at the current poses and their effective masses.
typedef struct cnJointConstraint
{
	cnJoint* joint;
	cnJointSide a, b;
	int rowCount;
	cnJointRow rows[CN_JOINT_MAX_ROWS];
	// inverse inertia times each row's angular parts, the row's K = J M^-1 J^T and 1 / K
	cnVec3 iA[CN_JOINT_MAX_ROWS], iB[CN_JOINT_MAX_ROWS];
	double k[CN_JOINT_MAX_ROWS];
	double mass[CN_JOINT_MAX_ROWS];
} cnJointConstraint;

/// The equality rows of a step's joints grouped by island, and their factors (joint_island.c).
typedef struct cnJointIslands cnJointIslands;

/// Everything the sub-steps of one step work on.
typedef struct cnStepContext
{
	cnWorld* world;
	double h;
	double inv_h;
	int bodyCount;
	// bodyCount + 1 entries: the last is a dummy for static and sleeping bodies (never written)
	cnBodyState* states;
	cnBodySim* sims;
	// sims[i].dynamic in a byte per body: the colouring reads it for both bodies of every constraint,
	// and the sims' 136-byte stride made it a cache miss each (a quarter of the colouring's time)
	bool* takesImpulses;
	// per world body: its solver index, or the dummy entry (bodyCount) when it is not simulated (the
	// contact listing reads these instead of the bodies' cold records)
	int* solverIndexOf;
	// one per manifold solved, in contact order: refs for all; records only where refs[k].kept
	cnConstraintRef* refs;
	cnContactConstraint* constraints;
	int constraintCount;
	// the constraints between two spheres (cnFollowSpheres turns their normals every sub-step)
	cnSpherePair* spherePairs;
	int spherePairCount;
	cnJointConstraint* joints;
	int jointCount;
	// the joints grouped by the bodies they join: group g holds joints
	// jointGroupJoints[jointGroupStart[g] .. jointGroupStart[g + 1]), in joint order
	int jointGroupCount;
	int* jointGroupStart;
	int* jointGroupJoints;
	cnJointIslands* jointIslands;
	cnSoftness contactSoftness;
	cnSoftness jointSoftness;
	cnSoftness staticSoftness;
	double maxPushVelocity;
	double restitutionThreshold;
	// the world's gravity
	cnVec3 gravity;
	// the contact constraints in colours (contact_wide.h)
	struct cnContactGraph* graph;
	// the sub-step counted over the world's whole run, modulo CN_SWEEP_PERIOD: odd ones visit the
	// contacts in reverse order and the lead point walks with it (contact_graph.c)
	int sweep;
} cnStepContext;

/// Soft constraint coefficients for a stiffness in Hz, a damping ratio and a time step.
cnSoftness cnMakeSoft( double hertz, double zeta, double h );

/// Gathers the active joints with a simulated body.
void cnPrepareJoints( cnStepContext* context );
/// Rebuilds the joints' rows at the current poses and applies their accumulated impulses.
void cnWarmStartJoints( cnStepContext* context );
/// One pass over the joints; useBias corrects position errors softly, false relaxes (the rows are
/// rebuilt first, since the positions moved).
void cnSolveJoints( cnStepContext* context, bool useBias );

/// The equality rows of all joints, solved exactly per island of joined bodies (joint_island.c).
void cnSolveJointIslands( cnStepContext* context, cnSoftness soft, bool useBias );

/// Lists the contact constraints of every touching contact with an awake body (cnConstraintRef).
void cnPrepareContacts( cnStepContext* context );
/// The relative acceleration of a contact's bodies (solver indices) along a normal from gravity and
/// their step forces (B's less A's; 0 for a body that is not simulated or not dynamic), for a
/// bounce's energy.
double cnContactNormalAcceleration( const cnStepContext* context, int indexA, int indexB, cnVec3 normal );
/// Lists the sphere pairs among the kept constraints (after cnBuildContactGraph prepared them).
void cnPrepareSpherePairs( cnStepContext* context );
/// Applies last step's impulses (contact_graph.c, like the pass below).
void cnWarmStartContacts( cnStepContext* context );
/// One pass over the contacts; useBias pushes overlap out softly, false relaxes.
void cnSolveContacts( cnStepContext* context, bool useBias );
/// Moves the normal of every sphere pair to its current line of centres (after a position update).
void cnFollowSpheres( cnStepContext* context );
/// Applies restitution to points that approached faster than the threshold.
void cnApplyRestitution( cnStepContext* context );
/// Colours the constraints and packs them for the passes (contact_graph.c).
void cnBuildContactGraph( cnStepContext* context );
/// Copies the passes' impulses back into the kept constraints (cnConstraintRef.kept), which
/// restitution or the sphere pairs work on after the sub-steps; the others stay in their lanes for
/// cnStoreImpulses.
void cnUnpackImpulses( cnStepContext* context );
/// Writes the accumulated impulses back into the manifolds for the next step.
void cnStoreImpulses( cnStepContext* context );
