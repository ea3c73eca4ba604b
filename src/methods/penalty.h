// SPDX-License-Identifier: MIT
// Internals shared by the penalty method (penalty.c) and the analytic-impulse method
// (analytic.c), both after AERO: the bodies' state as one vector for the adaptive
// Dormand-Prince integrator, the contact points fixed to the bodies over each internal step, the
// spring-damper and Coulomb forces they carry at every stage, the joints' rows as stiff springs
// (penalty_joints.c), and the write-back at the end of the step.
#pragma once

#include "solvers/rk.h"
#include "integrate.h"
#include "methods/method.h"
#include "world.h"

/// Natural frequency of a contact point whose stiffness is left at 0 (Hz): k = m_eff (2 pi f)^2.
/// A body resting on one point sinks g / (2 pi f)^2 = 25 micrometres under its own weight.
#define CN_PENALTY_FREQUENCY 100.0

/// Slip speed below which friction is viscous (m/s): F_t = mu F_n |v_t| / v_eps. A block held by
/// static friction creeps at v_eps tan(theta) / mu.
#define CN_PENALTY_SLIP_SPEED 1e-3

/// Largest rate of the viscous friction, mu F_n / (m_t v_eps) (m_t the effective mass along the
/// slip), as a multiple of the contact point's own frequency w = sqrt(k / m_eff). Above it the
/// point's slip speed grows with its load instead. A box's own weight on its corners gives
/// mu g / v_eps, about 8 w at mu = 0.5 with the default stiffness; an impact hundreds of times that.
#define CN_PENALTY_FRICTION_RATE 16.0

/// Largest damping ratio derived from restitution (restitution at or below ~0.009 maps here).
#define CN_PENALTY_MAX_DAMPING_RATIO 5.0

/// Largest fraction of a body's smallest shape size it may move in one internal step.
#define CN_PENALTY_MOTION_FRACTION 0.25

/// Stability bound for the contacts' oscillation: h w / r(zeta) stays below this, where r(zeta) is
/// the radius of Dormand-Prince's stability region in the direction of the eigenvalue of a contact
/// spring-dashpot of damping ratio zeta (1.0 for zeta = 0, 3.3 for zeta >= 0.34).
#define CN_PENALTY_STABLE_FRACTION 0.8

/// Doubles per body in the state vector: centre (3), quaternion (4), v (3), w (3).
#define CN_PENALTY_STRIDE 13

/// Analytic-impulse: contact points approaching faster than this are collisions resolved by
/// impulses; slower ones are resting contact for the penalty force (m/s).
#define CN_ANALYTIC_MAX_CONTACT_VELOCITY 0.1

/// Analytic-impulse: points closer than this (m) take part in a collision (simultaneous impacts).
#define CN_ANALYTIC_TOUCH_DISTANCE 1e-6

/// Analytic-impulse: a collision's time of contact is searched until the separation of its first
/// point is within this (m) of zero (or the search's bracket is below 1e-12 of the world step).
#define CN_ANALYTIC_CONTACT_TOLERANCE 1e-12

/// Penalty: the switch of a point's force (its contact's onset or release) is searched until its
/// gap is within this (m) of zero, on the far side (or the bracket is below 1e-12 of the world step).
#define CN_PENALTY_SWITCH_TOLERANCE 1e-12

/// Internal steps allowed per world step before the step is declared failed.
#define CN_PENALTY_MAX_STEPS 200000

/// Natural frequency of a joint's equality and limit rows (Hz): each row is a spring
/// k = m_eff (2 pi f)^2, m_eff = 1 / (J M^-1 J^T) at the stage, so every row oscillates at f whatever
/// the masses. A rod holding its own bob stretches g / (2 pi f)^2 = 0.25 micrometres; a row carrying
/// N times the mass of its effective mass stretches N times that (penalty_joints.c,
/// docs/joints.md). Ten times the contact frequency.
#define CN_PENALTY_JOINT_FREQUENCY 1000.0

/// Damping ratio of a joint's equality and limit rows: c = 2 zeta m_eff w. Below critical: rows
/// coupled through a body damp their fastest modes more than alone (a chain of equal links: sqrt 2
/// times), and overdamped modes cost the explicit integrator steps.
#define CN_PENALTY_JOINT_DAMPING_RATIO 0.7

/// Rate of a joint motor's velocity servo, as a multiple of w = 2 pi CN_PENALTY_JOINT_FREQUENCY: the
/// force m_eff rate w (speed - dC/dt), clamped to the motor's maximum, closes a speed error e-fold
/// in 1 / (rate w).
#define CN_PENALTY_MOTOR_RATE 1.0

/// A body as one stage of the integrator sees it.
typedef struct cnPenaltyBody
{
	cnVec3 center;
	/// unit orientation
	cnQuat q;
	cnVec3 v, w;
	/// 0 for static, kinematic and sleeping bodies
	double invMass;
	/// world inverse inertia (planar worlds: only the z-z entry, 1 / I_zz), zero for fixed bodies
	cnMat3 invI;
	/// world inertia (gyroscopic term)
	cnMat3 I;
} cnPenaltyBody;

/// What a contact point is on one of the two surfaces.
typedef enum cnPenaltySurface
{
	/// inside a flat face (or on a plane): the point is where the other side's point meets it
	cnPenaltySurface_face = 0,
	/// a vertex or an edge: a material point of the body
	cnPenaltySurface_feature,
	/// a rounded surface (sphere, capsule, cylinder side): the point lies one radius from a material
	/// centre of the rounding, towards the other body
	cnPenaltySurface_round,
} cnPenaltySurface;

/// How a contact point's normal force can switch within an internal step.
typedef enum cnPenaltySwitch
{
	/// overlapping but not pushing at the step start (the dashpot cancels the spring), or no point
	cnPenaltySwitch_none = 0,
	/// apart at the step start: the force switches on where the separation crosses zero
	cnPenaltySwitch_onset,
	/// pushing at the step start: the force switches off where k d - c v_n (or d) reaches zero
	cnPenaltySwitch_release,
} cnPenaltySwitch;

/// A contact point held fixed over one internal step: the two surface points as material points of
/// their bodies, so that the contact force is a smooth function of the state within the step (the
/// narrow phase's choice of points is not: see cnPenaltyRefresh).
///
/// The normal at a stage is the surface normal the carried features give at the stage's poses, so
/// that a frictionless force acts along it through the centre of every rounding (no torque about a
/// sphere's centre): the face's normal turned with its body when one side is a face; the line
/// between the two cores (a sphere's centre, the closest point of a capsule's segment, of a
/// cylinder's axis or of a box edge, a corner) when one side is rounded; the normal of the step start
/// otherwise (two faces, two corners or edges). See cnPenaltyStagePoints.
typedef struct cnPenaltyPoint
{
	/// the point on each surface, in the body frame relative to the centre of mass (for a rounded
	/// surface the centre of the rounding)
	cnVec3 localA, localB;
	/// a line core through localA / localB (capsule segment, cylinder axis, box edge): unit
	/// direction in the body frame, zero for a point (sphere centre, corner, face point)
	cnVec3 axisA, axisB;
	/// extent of the line core along the axis, relative to localA / localB
	double lowA, highA, lowB, highB;
	/// unit world normal from A to B at the step start (the narrow phase's)
	cnVec3 normal;
	/// the same normal in the body frame of the face side when exactly one side is a face (it
	/// turns with that face over the step)
	cnVec3 faceNormal;
	/// the narrow phase's feature id
	uint32_t id;
	/// cnPenaltySurface of each side
	uint8_t surfaceA, surfaceB;
} cnPenaltyPoint;

/// A contact pair of the world as the penalty methods use it.
typedef struct cnPenaltyContact
{
	/// index into world->contacts
	int contact;
	int bodyA, bodyB;
	double friction, restitution;
	/// combined material stiffness (N/m per point), 0: from the effective mass and the frequency
	double stiffness;
	/// combined material damping (N s/m per point), 0: from the restitution and dampingRatio
	double damping;
	/// damping ratio that gives the restitution for a spring-dashpot that cannot pull
	double dampingRatio;
	/// the points of the current internal step (CN_MAX_PAIR_POINTS slots), set by cnPenaltyRefresh
	cnPenaltyPoint* points;
	int pointCount;
	/// penalty: per point of the current internal step, whether its force can switch within the
	/// step (cnPenaltyLocateSwitch): cnPenaltySwitch_onset for a point apart (separation > 0) at the
	/// step start, cnPenaltySwitch_release for one pushing then (k d - c v_n > 0)
	uint8_t switching[CN_MAX_PAIR_POINTS];
	/// analytic-impulse: feature ids of the points that overlapped at the last accepted state
	uint32_t overlapIds[CN_MAX_PAIR_POINTS];
	int overlapCount;
	/// analytic-impulse: a new fast overlap was found here at the end of the last step
	bool event;
} cnPenaltyContact;

/// The whole system of one world step. Every array lives in the world's step arena.
typedef struct cnPenaltySystem
{
	cnWorld* world;
	double timeStep;
	bool planar;
	/// analytic-impulse: points that start to overlap faster than v_max get no spring force (they
	/// are collisions for the impulses, located at the end of the internal step)
	bool analytic;

	/// awake dynamic bodies: the state vector holds them in this order
	int bodyCount;
	int* bodies;
	/// per world body: its slot in the state, or -1 (static, kinematic, sleeping, dead)
	int* slot;
	/// per slot: smallest shape size (radius or half extent), m
	double* minSize;
	/// awake kinematic bodies: moved by their velocity, included in the motion bound
	int kinematicCount;
	int* kinematics;

	int contactCount;
	cnPenaltyContact* contacts;

	/// the stage being evaluated: per slot body data and accumulated forces
	double stageTime;
	cnPenaltyBody* stage;
	cnVec3* force;
	cnVec3* torque;
	/// per slot, from the last evaluation of the derivative: the sum over the body's active,
	/// underdamped contact points of (w / r(zeta))^2, w^2 = k / m_eff (a Gershgorin-like bound of the
	/// oscillation eigenvalues, scaled by the stability radius in their direction)
	double* modes;
	/// per slot, from the last evaluation of the derivative: |a| + |alpha| maxExtent, the largest
	/// acceleration of a point of the body (the speculative margin of cnPenaltyRefresh)
	double* accel;

	/// joints with a moving side (penalty_joints.c), in joint index order: their indices into
	/// world->joints; per slot, the system's joints that act on the body (jointStart[k] ..
	/// jointStart[k + 1] in jointList)
	int jointCount;
	int* joints;
	int* jointStart;
	int* jointList;
	/// per joint, CN_JOINT_MAX_ROWS each: the rows at the stage of the last evaluation with the row
	/// force lambda (N or N m) and the spring and damper constants that made it; the force's
	/// integral over the step so far (trapezoids between the starts of the internal steps)
	cnJointRow* jointRows;
	double* jointForce;
	double* jointSampleForce;
	double* jointImpulse;
	double jointSampleTime;
	/// per slot: the joints' part of the oscillation bound, (|s| / r)^2 as modes; per row, scratch
	/// of the bound: M^-1 J^T, its linear and angular parts on A and on B, and (sqrt k, sqrt c, 0)
	/// (5 vectors a row)
	double* jointModes;
	cnVec3* jointWeighted;

	/// state size, 13 per body, and the state at the step start
	int n;
	double* y0;
	cnRk rk;
} cnPenaltySystem;

/// True when the feature id is among the contact's overlapping points of the last accepted state.
static inline bool cnPenaltyWasOverlapping( const cnPenaltyContact* pc, uint32_t id )
{
	for ( int i = 0; i < pc->overlapCount; ++i )
	{
		if ( pc->overlapIds[i] == id )
		{
			return true;
		}
	}
	return false;
}

/// Damping ratio zeta of a linear spring-dashpot contact that cannot pull whose impacts have the
/// restitution e: the inverse of e = exp(-2 phi cot phi), zeta = cos phi (zeta <= 1), and of
/// e = rho^(-(rho + 1) / (rho - 1)), rho = (zeta + sqrt(zeta^2 - 1))^2 (zeta > 1).
double cnPenaltyDampingRatio( double restitution );

/// Restitution of the same contact for a given damping ratio (the closed form above).
double cnPenaltyRestitution( double dampingRatio );

/// Gathers the bodies and contacts of the world into a system and the initial state (sys->y0);
/// false with the world's error set when memory runs out.
bool cnPenaltyBegin( cnWorld* world, cnPenaltySystem* sys, double timeStep );

/// Unpacks the state y at time t (relative to the step start) into sys->stage.
void cnPenaltyLoadStage( cnPenaltySystem* sys, double t, const double* y );

/// Loads the stage at time t of the current step: the integrator's state when t is the step's end,
/// else its dense output at t, interpolated into probe (one state vector of scratch).
void cnPenaltyLoadStageAt( cnPenaltySystem* sys, double t, double* probe );

/// A body at the loaded stage: its slot entry, or the static / kinematic / sleeping body at the
/// stage time.
cnPenaltyBody cnPenaltyGetBody( const cnPenaltySystem* sys, int bodyIndex );

/// The contact points of a contact with its bodies at poses a and b (from cnPenaltyGetBody), points up
/// to maxDistance apart, each with its normal from A to B. points holds CN_MAX_PAIR_POINTS; returns
/// how many were written.
int cnPenaltyCollide( const cnPenaltySystem* sys, const cnPenaltyContact* pc, const cnPenaltyBody* a,
					  const cnPenaltyBody* b, double maxDistance, cnManifoldPoint* points );

/// Takes the contact points for the next internal step from the narrow phase at the integrator's
/// state (the points overlapping now, and those that can come into contact within the next step,
/// up to tEnd), fixes them to the bodies, and has the integrator evaluate the derivative afresh.
/// Within the step the force then follows these points as the bodies move and turn.
void cnPenaltyRefresh( cnPenaltySystem* sys, double tEnd );

/// The contact points of a contact at the loaded stage: the step's points (cnPenaltyRefresh) carried
/// by the bodies a and b, with their separation and normal now. points holds CN_MAX_PAIR_POINTS;
/// returns how many were written.
int cnPenaltyStagePoints( const cnPenaltySystem* sys, const cnPenaltyContact* pc, const cnPenaltyBody* a,
						  const cnPenaltyBody* b, cnManifoldPoint* points );

/// Effective mass along the unit direction d of a contact at the world point p (incl. rotation).
double cnPenaltyEffectiveMass( const cnPenaltyBody* a, const cnPenaltyBody* b, cnVec3 p, cnVec3 d );

/// The right-hand side of the equations of motion (a cnOdeFunction; context is the system).
void cnPenaltyDerivative( double t, const double* y, double* dydt, void* context );

/// Step-size limit at the state y, which must be the state of the last derivative evaluation
/// (cnRk_Prime): no body moves more than CN_PENALTY_MOTION_FRACTION of its smallest shape size in
/// one internal step, and the step stays within the stability bound of the contacts and the joints
/// (at most timeStep).
double cnPenaltyStepBound( const cnPenaltySystem* sys, const double* y );

/// Writes the final state back into the bodies (and the joints' impulses over the step into the
/// joints), moves kinematic bodies, and stores the integrator's step size for the next world step.
void cnPenaltyFinish( cnPenaltySystem* sys, const double* y );

/// Radius of Dormand-Prince's stability region along the ray of the eigenvalue of a spring-dashpot
/// with damping ratio zeta (1.0 on the imaginary axis, 3.29 on the real axis for zeta >= 1).
double cnPenaltyStabilityRadius( double zeta );

/// Joints (penalty_joints.c): gathers the active joints with a moving side into the system and
/// clears every active joint's row impulses; false with the world's error set when memory runs out.
bool cnPenaltyBeginJoints( cnPenaltySystem* sys );

/// Adds the joints' row forces at the loaded stage to sys->force and sys->torque and keeps each
/// row's force: equality rows are stiff damped springs from the row's effective mass, limits
/// one-sided springs, motors clamped velocity servos, springs and dampers their own law.
void cnPenaltyJointForces( cnPenaltySystem* sys );

/// Adds the row forces of the last evaluation, which must be at time t, to the rows' impulses over
/// the step (the trapezoid since the last sample).
void cnPenaltySampleJoints( cnPenaltySystem* sys, double t );

/// The joints' part of the oscillation bound at the loaded stage, per slot into sys->jointModes
/// (a Gershgorin bound of the rows' stiffness and damping coupled through shared bodies).
void cnPenaltyJointModes( const cnPenaltySystem* sys );

/// At the state y at the step's end: the last sample, and each joint's row impulses over the step
/// into joint->impulses (cnFinishJoints turns them into reactions over the world step).
void cnPenaltyEndJoints( cnPenaltySystem* sys, double t, const double* y );

/// Penalty: after an accepted internal step from (t0, start), whether the normal force of one of its
/// points switched within it: a point apart at the step start overlaps at its end (the onset of the
/// contact, the kink of k d and the jump of the dashpot's -c v_n), or one pushing at the start has
/// let go (the kink where k d - c v_n reaches zero). If so the first such moment is found on the
/// dense output (Newton-Raphson on the separation, or on d - (c / k) v_n, with bisection as fallback;
/// contact_time.c) and the step is taken again from start, ending there (Kleppmann's retry), so the
/// switch falls on a step boundary and every step integrates a smooth force. Returns false on
/// step-size underflow.
bool cnPenaltyLocateSwitch( cnPenaltySystem* sys, double t0, const double* start, double hMax, double* probe );

/// Analytic-impulse: the collision impulse of one contact point at p with unit normal n (from A to
/// B), applied to the velocities of a and b in place when the point approaches faster than vMax:
/// Newton's law v_n' = -e v_n with the effective mass including rotation, then a friction
/// impulse that stops the slip, no larger than mu times the normal impulse. Returns the normal
/// impulse (0 when the point is not colliding).
double cnAnalyticImpulse( cnPenaltyBody* a, cnPenaltyBody* b, cnVec3 p, cnVec3 n, double restitution, double friction,
						  double vMax, bool planar );

/// Checks the penalty part of the settings (shared by penalty and analytic-impulse).
const char* cnValidatePenaltySettings( const cnMethodSettings* settings );
