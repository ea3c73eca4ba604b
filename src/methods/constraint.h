// SPDX-License-Identifier: MIT
// Kleppmann's constraint method inside the library: its row and workspace types, shared by the
// method's two files. constraint.c holds the contact rows, the active-set solve, the integrator and
// the time-of-impact search; constraint_joints.c turns the joints into rows of the same system
// (equality, limit and motor rows; springs and dampers as forces) and reports their impulses.
// See docs/method-constraint.md and docs/joints.md.
#pragma once

#include "joints/joint.h"

#include "cairn/math.h"

#include <stdbool.h>
#include <stdint.h>

// State of one simulated body in the integrator's vector: centre (3), orientation (4), linear
// velocity (3), angular velocity (3).
#define CN_STATE_SIZE 13

// Stages of the Cash-Karp pair.
#define CN_CONSTRAINT_STAGES 6

/// What a row of the system is, which decides its right-hand side and its bounds.
typedef enum cnConstraintRowKind
{
	/// a contact point: multiplier >= 0, Baumgarte on the separation (capped push-out)
	cnConstraintRow_contact = 0,
	/// a joint's equality row: multiplier free, Baumgarte on C (capped both ways)
	cnConstraintRow_equality,
	/// a joint limit: multiplier >= 0, like a contact
	cnConstraintRow_limit,
	/// a joint motor: multiplier in [-maxForce, maxForce], drives dC/dt to its speed
	cnConstraintRow_motor,
} cnConstraintRowKind;

/// One row of the constraint Jacobian: the relative velocity of two bodies along a direction,
/// cdot = linA . vA + angA . wA + linB . vB + angB . wB. Bodies without degrees of freedom
/// (static, kinematic, asleep) have slot -1 or zero inverse mass blocks.
typedef struct cnConstraintRow
{
	int slotA, slotB;
	cnVec3 linA, angA, linB, angB;
	// M^-1 J^T, the velocity change of each body per unit multiplier
	cnVec3 invLinA, invAngA, invLinB, invAngB;
	// constraint value c (the separation, or a joint's C), its rate cdot and Jdot qdot
	double position;
	double velocity;
	double bias;
	// bounds of the multiplier: [0, DBL_MAX) for a contact or limit, (-DBL_MAX, DBL_MAX) for an
	// equality row, [-maxForce, maxForce] for a motor
	double lower;
	double upper;
	double restitution;
	// a motor's wanted dC/dt
	double speed;
	// index into the solver's active-set hints, -1 for none
	int hint;
	// the joint row slot (cnConstraintSolver.joint*), -1 for a contact
	int joint;
	cnConstraintRowKind kind;
	// a contact or limit approaching fast enough to need an impulse
	bool colliding;
	// origin of a contact row: the manifold point's feature id, world point and normal
	uint32_t id;
	cnVec3 point;
	cnVec3 normal;
} cnConstraintRow;

/// A joint the step solves: its bodies' slots and where its rows sit among the joint row slots.
typedef struct cnConstraintJoint
{
	cnJoint* joint;
	// simulated slots of the two sides (-1: the world, a static or a sleeping body) and their
	// degrees of freedom (-1 unless the slot is dynamic)
	int slotA, slotB;
	int dofA, dofB;
	// row i of the joint is joint row slot first + i
	int first;
	int count;
	// it has limit rows (the time-of-impact search looks only at those joints)
	bool limits;
} cnConstraintJoint;

/// Per-step workspace of the method.
typedef struct cnConstraintSolver
{
	cnWorld* world;

	// simulated bodies (awake, not static): world index per slot and slot per world body
	int bodyCount;
	int* bodies;
	int* slot;
	// per slot: moved by forces (dynamic) or by its prescribed velocity (kinematic)
	bool* dynamic;
	// per slot, refreshed at each state: inverse mass blocks and external accelerations
	cnVec3* invMassLinear;
	cnMat3* invInertia;
	cnVec3* linearAcceleration;
	cnVec3* angularAcceleration;
	// the state at the start of the step, restored on failure
	cnVec3* savedCenter;
	cnTransform* savedTransform;
	cnVec3* savedV;
	cnVec3* savedW;

	// contacts with a simulated dynamic body (indices into world->contacts)
	int contactCount;
	int* contacts;
	// per contact: where its points start in the per-point arrays (contactCount + 1 offsets; a
	// convex pair has CN_MAX_MANIFOLD_POINTS slots, a planar polygon pair CN_MAX_PAIR_POINTS)
	int* pointOffset;
	// per contact: the points within the contact tolerance at the start of the internal step
	// (feature id and separation, at pointOffset), and whether the pair takes part in the
	// time-of-impact search
	int* startCount;
	uint32_t* startId;
	double* startSeparation;
	bool* impactPair;

	// joints with a simulated dynamic body, and their row slots (every row of every such joint,
	// inactive ones included, so that slot first + i is always row i of its joint)
	int jointCount;
	cnConstraintJoint* joints;
	int jointRowCount;
	// where the joint rows' active-set hints start in hint
	int jointHintBase;
	// per joint row slot: the multiplier (or spring force) of the last derivative, N or N m
	double* jointForce;
	// per joint row slot: the multipliers of each Runge-Kutta stage of the current trial step,
	// the impulse of the trial step (the solution weights over the stage forces), of the full
	// step before a time-of-impact search, and of the world step so far
	double* stageForce[CN_CONSTRAINT_STAGES];
	double* trialImpulse;
	double* fullImpulse;
	double* jointImpulse;
	// per joint row slot: a limit's C at the start of the internal step (DBL_MAX when the row was
	// no limit then), and whether the limit takes part in the time-of-impact search
	double* startLimit;
	bool* impactLimit;

	// rows of the current solve
	cnConstraintRow* rows;
	int rowCount;
	int rowCapacity;
	double* rhs;
	double* lambda;
	// per contact point (at pointOffset), then per joint row slot (at jointHintBase): the row's
	// state in the last solve (0 at its lower bound, 1 free, 2 at its upper bound, -1 unknown),
	// the start of the next active set search
	int8_t* hint;
	// island decomposition: union-find parents per body slot, island start offsets (bodyCount + 1)
	// and fill counters, each row's island and the rows sorted by island
	int* parent;
	int* islandStart;
	int* islandFill;
	int* rowIsland;
	int* order;
	// per island row: solution, usable flag, state (as hint), violation flag, compact index map,
	// compact work vector
	double* x;
	bool* usable;
	int8_t* state;
	bool* violated;
	int* map;
	double* work;
	// per free row: the first column of its envelope (cnEnvelopeCholeskySolve)
	int* envelope;
	// dense matrices (heap, grown on demand): the full system and the factored active part
	double* matrix;
	double* factor;
	int matrixCapacity;

	// integrator vectors; k holds the Cash-Karp stage derivatives (solvers/rk.h)
	int n;
	double* y;
	double* y1;
	double* yFull;
	double* yStage;
	double* k[CN_CONSTRAINT_STAGES];

	// parameters (see docs/method-constraint.md)
	double contactTolerance;
	double penetrationTolerance;
	double impactTolerance;
	double rootTolerance;
	double restSpeed;
	double stiffness;
	double damping;
	double maxCorrection;
	double errorTolerance;
	bool planar;
} cnConstraintSolver;

/// Fills M^-1 J^T of a row from its Jacobian blocks and slots.
void cnSetRowInverse( const cnConstraintSolver* s, cnConstraintRow* row );

// the joints (constraint_joints.c)

/// Finds the joints the step solves and gives their rows slots; allocates the per-slot arrays from
/// the step arena. False when out of memory.
bool cnCreateConstraintJoints( cnConstraintSolver* s );

/// What the joint rows are built for.
typedef enum cnJointRowMode
{
	/// the force solve at a Runge-Kutta stage
	cnJointRows_force = 0,
	/// the impulse solve at the start of an internal step
	cnJointRows_impulse,
	/// the projection onto the equality constraints after an internal step
	cnJointRows_projection,
} cnJointRowMode;

/// Appends the joint rows at the current body state. For the force solve: the equality rows, the
/// limits within the contact tolerance that do not approach fast, the motors, each with Jdot qdot;
/// the springs and dampers become forces added to the external accelerations (and jointForce). For
/// the impulse solve: the equality rows (their rates kept) and the limits that touch (colliding
/// when they approach fast). For the projection: the equality rows. recordStart records each
/// limit's C as the start of the internal step. Returns the number of colliding rows.
int cnBuildJointRows( cnConstraintSolver* s, cnJointRowMode mode, bool recordStart );

/// Post-stabilisation after an accepted internal step (bodies at its state): moves the bodies onto
/// the joints' equality constraints (C = 0) by the smallest mass-weighted correction, then their
/// velocities onto J qdot = 0. False when a solve fails.
bool cnProjectJoints( cnConstraintSolver* s );

/// Solves the current rows for their multipliers (constraint.c).
bool cnSolveRows( cnConstraintSolver* s );

/// The joint limits' part of the impact function at the current body state (see cnImpactFunction
/// in constraint.c): lowers *g (and sets *rate) where a limit in the search is closer to its
/// target; with trigger, first marks the limits that pass their target deep or fast.
void cnJointImpactFunction( cnConstraintSolver* s, bool trigger, double* g, double* rate );

/// Writes each solved joint's impulses of the world step into joint->impulses.
void cnStoreJointImpulses( cnConstraintSolver* s );
