// SPDX-License-Identifier: MIT
// The step data of the velocity-level methods (lcp, velocity-projection, gr-lcp,
// gr-velocity-projection), shared by velocity.c (contact points, the LCP and QP solves, generalized
// reflection, the step) and velocity_joints.c (joint rows: springs and motors before the contacts,
// equality rows eliminated from the contact problem, limits as unilateral rows). The derivations are
// in docs/method-velocity.md and docs/joints.md.
#pragma once

#include "joints/joint.h"
#include "methods/contact_system.h"
#include "solvers/qp.h"

// A point is active when its separation, now or predicted at the end of the step, is at most this
// (m). Touching shapes come out of the narrow phase with separations of round-off size. Joint
// limits use the same test on their error (m or rad).
#define CN_VELOCITY_ACTIVE_TOL 1e-9

// An LCP solve that reports failure is still accepted when its last iterate satisfies the
// conditions to this fraction of the problem's scale (|b| + |A| |z|): the boxed solver insists on
// 1e-8 and can miss it by a little on the degenerate problems of redundant contacts with friction
// (a box landing flat: a rank-3 normal block and eight friction rows), where the iterate it stops
// at is a solution to 2e-8. An error of 1e-6 of the velocity scale is far below what the step's
// first-order time discretisation already makes.
#define CN_LCP_ACCEPT_TOL 1e-6

// Largest island the dense solvers take: LCP rows (normal and friction), or the projection QP's
// unknowns (free dofs) or constraints, or an island's joint equality rows. Its matrix is 32 MiB and
// a solve some 1e10 operations, a few seconds; a pyramid of 1240 boxes would need 94 000 rows and
// 70 GB. Beyond it the step reports an error instead of exhausting memory: scenes that large are
// the impulse method's.
#define CN_VELOCITY_MAX_ISLAND_SIZE 2048

// One Jacobian row: the relative velocity of body B with respect to body A at a point along a
// direction (or a joint row's dC/dt), J qdot + fixed. Each side holds its body's dof offset (or
// -1), its entries and M^-1 J^T.
typedef struct cnVelocityRow
{
	int offA, offB;
	double jA[6], jB[6];
	double mA[6], mB[6];
	// the part of the relative velocity from bodies without degrees of freedom
	double fixed;
	// J M^-1 J^T
	double diagonal;
} cnVelocityRow;

// An active contact point, or a joint limit row (contact -1), which takes part in the contact
// problem as a unilateral row without restitution or friction.
typedef struct cnVelocityPoint
{
	// contact, its manifold and the point in it (contact -1: a joint limit, jointRow its row)
	int contact, manifold, index;
	int jointRow;
	int row;
	int tangentRows[2];
	int tangentCount;
	double restitution, friction;
	// speculative contact: the approach speed the gap allows, max(s, 0) / h, taken by a point that
	// does not bounce (0 when the world's speculativeContacts is off, for gr-* and explicit Euler);
	// a limit's is C / h while it is not reached, and its position correction when it is violated
	double gapSpeed;
	// a point that bounces this step (restitution, an impact faster than the threshold) leaves at this
	// normal speed in its first solve (cnBounceSpeed, methods/bounce.h); false: the law -e vn
	bool bounces;
	double bounceTarget;
	// a free body (dof map index) of the point; the root of its island once islands are built
	int body;
} cnVelocityPoint;

// A row of a joint with at least one free body, at the poses of the step start.
typedef struct cnVelocityJointRow
{
	cnJoint* joint;
	// the row's index among the joint's rows (its impulse goes to joint->impulses[index])
	int index;
	// its Jacobian in the step's rows (s->rows)
	int row;
	cnJointRowType type;
	double error;
	double speed, maxForce;
	double stiffness, damping;
	// a free body (dof map index) of the row; the root of its island once islands are built
	int body;
	// the impulse the step gave the row
	double impulse;
} cnVelocityJointRow;

// The equality rows of the island being solved, eliminated from its contact problem: with
// K = J_E M^-1 J_E^T (factored, rows that depend on earlier ones skipped), the contact rows see the
// constrained inverse mass P = M^-1 - M^-1 J_E^T K^-1 J_E M^-1 (velocity_joints.c).
typedef struct cnJointElimination
{
	int count;
	// the rows (indices into s->rows) and their joint rows (into s->jointRows)
	const int* rows;
	const int* jointRows;
	// the factor L of K (count x count, column-major lower triangle) and the rows left out of it
	const double* L;
	const bool* skip;
	// the island's free bodies (dof map indices) and their velocities before the contact response
	const int* bodies;
	int bodyCount;
	const double* qBase;
	// equality impulses added by the contact response (count)
	double* lambda;
	// scratch: count doubles, and count per LCP row twice
	double* work;
	double* U;
	double* W;
	// the projection's unknowns (velocity_joints.c, built at its first solve): v = q + Z y, Z an
	// M-orthonormal basis (dofs x nullity, column-major) of the island's velocities that keep J_E v
	double* Z;
	int dofs;
	int nullity;
	// the projection's U lambda, summed over its solves (count)
	double* projected;
} cnJointElimination;

typedef struct cnVelocityStep
{
	cnWorld* world;
	cnDofMap map;
	int dpb;
	double h;
	bool gr, projection, friction;
	// set while an island whose reflections did not finish is solved once, inelastically
	bool inelastic;
	// set during an island's first solve, where bouncing points take their bounce target
	bool firstSolve;
	const char* name;

	// per free body: world inertia and inverse inertia (with the joints' geometric stiffness added)
	cnMat3* inertia;
	cnMat3* invInertia;
	// per free body: the translational mass and its inverse where the joints' geometric stiffness
	// adds to it (NULL when no body's does: then m I and I / m)
	cnMat3* linearMass;
	cnMat3* linearInvMass;

	// velocities: at the start of the step, free (qdot_minus), and the solution being built
	double* qOld;
	double* qMinus;
	double* q;

	cnVelocityRow* rows;
	int rowCount;
	// contact points [0, contactPointCount), then joint limits
	cnVelocityPoint* points;
	int pointCount;
	int contactPointCount;

	// joint rows of the step; the room left for them in rows and points
	cnVelocityJointRow* jointRows;
	int jointRowCount;
	int jointCapacity;
	// the equality rows of the island being solved (NULL: none)
	cnJointElimination* elim;
	// per free body: its index among the bodies of the joint island being solved, or -1
	int* jointLocal;
	// the joint rows grouped by island: those of the island whose root is free body k are
	// jointIslandOrder[jointIslandStart[k] .. jointIslandStart[k + 1])
	const int* jointIslandStart;
	const int* jointIslandOrder;

	// scratch for one solve, sized for the largest island
	int* set;
	const cnVelocityRow** lcpRows;
	double *A, *b, *z, *lo, *hi;
	int* findex;
	double *G, *g0, *CI, *ci0, *x, *lambda;
	int* localBodies;
	int* localOf;
} cnVelocityStep;

// shared by velocity.c and velocity_joints.c

/// Entry (i, j) of the Delassus matrix J M^-1 J^T: the rows meet only on bodies they share.
double cnVelocityCoupling( const cnVelocityStep* s, const cnVelocityRow* ri, const cnVelocityRow* rj );
/// J q + fixed.
double cnVelocityRowRate( const cnVelocityStep* s, const cnVelocityRow* row, const double* q );
/// q += M^-1 J^T z.
void cnVelocityApplyRow( const cnVelocityStep* s, const cnVelocityRow* row, double z, double* q );
/// Largest violation of the boxed LCP conditions, relative to the problem's scale.
double cnVelocityLcpViolation( int r, const double* A, const double* b, const double* lo, const double* hi,
							   const int* findex, const double* z );
/// The contact response of one island's points (a single solve, or generalized reflection).
bool cnVelocitySolveIsland( cnVelocityStep* s, const int* points, int count );
/// The restitution coefficient a point gets for normal speed vn (Newton's law on approaching points,
/// above the world's restitution threshold for the single-solve methods).
double cnVelocityRestitution( const cnVelocityStep* s, const cnVelocityPoint* p, double vn );
/// Adds a point's impulses to its record (a contact's manifold point, a limit's joint row).
void cnVelocityRecordImpulse( cnVelocityStep* s, const cnVelocityPoint* p, double normal, double t1, double t2 );
/// The words for a QP solver status in messages.
const char* cnVelocityQpStatusText( cnQpStatus status );

// velocity_capture.c

/// Copies the step's contact system (its contact points) into the capture target.
bool cnVelocityCaptureSystem( cnVelocityStep* s, cnContactSystem* dump );

// velocity_joints.c

/// How many rows the step's joints can add (their rows in s->rows, their limits in s->points).
int cnVelocityJointCapacity( const cnWorld* world );
/// Adds to the inertia (and for rods, ropes and springs the translational mass) of the bodies joints
/// act on the geometric stiffness of the joints' forces of the last step, where the step cannot
/// resolve it (s->inertia, s->invInertia, s->linearMass, s->linearInvMass).
void cnVelocityJointInertia( cnVelocityStep* s );
/// Collects the rows of every active joint with a free body, at the poses of the step start, and
/// appends its limit rows to the points; clears the joints' impulses.
void cnVelocityCollectJointRows( cnVelocityStep* s );
/// One island with joint rows: springs and motors, the equality rows (kept to second order in the
/// step's motion), then the contact response of its points and active limits with the equality rows
/// eliminated. points: the island's contact points and limits (indices into s->points).
bool cnVelocitySolveJointIsland( cnVelocityStep* s, const int* points, int count, const int* jointRows, int jointCount );
/// After the positions moved: what is left of the equality rows' errors (the contact response
/// changed the motion the step's targets were set for) is projected out of the positions.
void cnVelocityProjectJointPositions( cnVelocityStep* s );
/// Writes the step's row impulses into the joints (world->jointImpulseTime is the step).
void cnVelocityStoreJointImpulses( cnVelocityStep* s );
/// Adds the elimination's correction to the LCP matrix of rows (r x r, column-major):
/// A -= (J_E M^-1 J_r^T)^T K^-1 (J_E M^-1 J_r^T); keeps the products for cnVelocityEliminateImpulses.
void cnVelocityEliminateLcp( cnVelocityStep* s, const cnVelocityRow* const* rows, int r, double* A );
/// After impulses z on the LCP's rows: the equality rows' share, -K^-1 J_E M^-1 J_r^T z, applied to q.
void cnVelocityEliminateImpulses( cnVelocityStep* s, int r, const double* z );
/// The velocity projection of the points in set in an island with equality rows (s->elim): the QP
/// over v = q + Z y, the velocities that keep the equality rows; changed tells whether q moved.
bool cnVelocitySolveJointProjection( cnVelocityStep* s, const int* set, int count, bool* changed );
