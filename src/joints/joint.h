// SPDX-License-Identifier: MIT
// Joints inside the library. A joint is plain data (cnJoint) plus one function per type that turns
// the two bodies' current poses into constraint rows (cnJointRow): a Jacobian for the two bodies, a
// position error and what kind of row it is. Every contact method consumes the same rows in its own
// way (docs/joints.md): the impulse method solves them as soft constraints in its sub-steps, the
// velocity-level methods add them to their matrix problems, the constraint method to its
// Lagrange-multiplier system, the penalty methods turn them into stiff springs. Each type's rows
// are in its own file (joint_ball.c, joint_hinge.c, ...); joint.c keeps the table, the common API,
// and the stage after the method that measures errors, reactions and breaks.
#pragma once

#include "cairn/joint.h"

#include "cairn/types.h"

/// Rows a joint can have: the most is a hinge or slider (5 locks, 2 limits, a motor and a spring).
#define CN_JOINT_MAX_ROWS 9

/// What a row asks for.
typedef enum cnJointRowType
{
	/// nothing this step (a limit, motor or spring that is switched off, a slack spring)
	cnJointRow_inactive = 0,
	/// C = 0, any impulse
	cnJointRow_equality,
	/// C >= 0, impulse >= 0 (limits are speculative: a row whose C > 0 still lets the gap close)
	cnJointRow_limit,
	/// dC/dt = speed, |force| <= maxForce
	cnJointRow_motor,
	/// a force element: force = -(stiffness C + damping dC/dt) along the row
	cnJointRow_spring,
} cnJointRowType;

/// One scalar constraint or force row: dC/dt = linearA . vA + angularA . wA + linearB . vB +
/// angularB . wB, with v the centre-of-mass velocity and w the angular velocity (world frame). An
/// impulse lambda on the row adds lambda * linear to the momentum of each body and lambda * angular
/// to its angular momentum.
typedef struct cnJointRow
{
	cnVec3 linearA, angularA, linearB, angularB;
	/// position error C (m or rad)
	double error;
	cnJointRowType type;
	/// motor: the wanted dC/dt; its maximum force (N or N m)
	double speed;
	double maxForce;
	/// spring: N/m or N m/rad, and N s/m or N m s/rad
	double stiffness;
	double damping;
} cnJointRow;

/// Where a side of a joint is: a body's centre of mass, orientation and the centre in the body's
/// frame (the fixed world: all zero and identity).
typedef struct cnJointPose
{
	cnVec3 center;
	cnQuat q;
	cnVec3 localCenter;
} cnJointPose;

/// A joint.
typedef struct cnJoint
{
	char* name;
	uint64_t userData;
	uint32_t generation;
	bool alive;
	cnJointType type;

	// the two bodies (bodyB = -1: the fixed world)
	int bodyA, bodyB;
	// anchors in each body's frame (origin frame; for the world: world coordinates)
	cnVec3 localAnchorA, localAnchorB;
	// the joint frame in each body's frame: its x axis is the main axis (hinge, slider, twist axis,
	// plane normal), its y axis the second axis of a universal joint; both frames agree at creation
	cnQuat localFrameA, localFrameB;

	bool collideConnected;
	double breakForce, breakTorque;
	bool broken;

	// limits (hinge, slider, distance: minimum and maximum length; cone-twist: the twist range)
	bool enableLimit;
	double lower, upper;
	// motor (hinge, slider)
	bool enableMotor;
	double motorSpeed, maxMotorForce;
	// spring (hinge, slider, spring, damper)
	bool enableSpring;
	double stiffness, damping, rest;
	// spring and damper: the minimum active separation; cone-twist: the swing cone's half angle
	double minLength;
	double swingAngle;

	// accumulated impulse of each row (the impulse method warm starts with them), N s or N m s
	double impulses[CN_JOINT_MAX_ROWS];
	// what the last step measured: reaction on body B, and the largest violations
	cnVec3 force, torque;
	double linearError, angularError;

	// the free list of dead joints
	int nextFree;
} cnJoint;

/// The pose of one side of a joint from the world's body records (index -1: the world).
cnJointPose cnJointBodyPose( const cnWorld* world, int body );

/// A joint's two anchors in world coordinates for the given poses.
void cnJointAnchors( const cnJoint* joint, const cnJointPose* a, const cnJointPose* b, cnVec3* pA, cnVec3* pB );

/// The joint's rows for the given poses: always the same number for a joint, in the same order, so
/// row i's impulse carries from step to step; returns that number (<= CN_JOINT_MAX_ROWS).
int cnJointRows( const cnJoint* joint, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );

/// The joint's position coordinate (cnJoint_GetPosition) for the given poses.
double cnJointPosition( const cnJoint* joint, const cnJointPose* a, const cnJointPose* b );

/// True when the joint takes part in the step: alive and not broken.
static inline bool cnJointActive( const cnJoint* joint )
{
	return joint->alive && joint->broken == false;
}

/// After the method: measures each joint's errors at the new poses, converts the row impulses the
/// method left in joint->impulses (over one interval of length impulseTime) into the reaction force
/// and torque, and breaks the joints whose reaction exceeds their limits (recording the breaks).
void cnFinishJoints( cnWorld* world, double impulseTime, double timeStep );

/// Links the bodies of every active joint into the sleep islands (union-find parent array) and
/// marks which bodies a joint to the world or a static body holds; wakes a sleeping body joined to
/// an awake one.
void cnLinkJointIslands( cnWorld* world, int* parent, bool* held );

/// Validates what every joint shares, takes a slot and sets the bodies, anchors (world points at
/// creation) and the joint frame (x along axisX, y along the part of axisY perpendicular to it);
/// NULL with the error set when something is invalid (the error names the type).
cnJoint* cnCreateJointBase( cnWorld* world, const cnJointDef* def, cnJointType type, cnVec3 anchorA, cnVec3 anchorB,
							cnVec3 axisX, cnVec3 axisY, cnJointId* id );

/// Removes the joints of a body being destroyed.
void cnDestroyBodyJoints( cnWorld* world, int body );

/// True when a joint between the two bodies switches off their collision.
bool cnJointsDisableCollision( const cnWorld* world, int bodyA, int bodyB );

/// Frees the world's joints.
void cnDestroyJoints( cnWorld* world );

// rows and helpers of each type (joint_*.c)
int cnBallJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnHingeJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnSliderJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnUniversalJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnConeTwistJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnFixedJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnDistanceJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnSpringJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );
int cnPointOnPlaneJointRows( const cnJoint* j, const cnJointPose* a, const cnJointPose* b, cnJointRow* rows );

/// A slider's translation for the given poses.
double cnSliderTranslation( const cnJoint* j, const cnJointPose* a, const cnJointPose* b );
/// The rotation of B's joint frame relative to A's about the frame's x axis, in (-pi, pi]: the
/// twist part of the swing-twist split (a hinge's angle, a cone-twist's twist).
double cnJointTwist( const cnJoint* j, const cnJointPose* a, const cnJointPose* b );

// row builders shared by the types (joint_rows.c)

/// The three rows keeping anchors pA (on A) and pB (on B) together, along the world axes.
void cnPointRows( const cnJointPose* a, const cnJointPose* b, cnVec3 pA, cnVec3 pB, cnJointRow* rows );
/// One linear row along the world direction d between the points pA and pB, error C.
cnJointRow cnLinearRow( const cnJointPose* a, const cnJointPose* b, cnVec3 pA, cnVec3 pB, cnVec3 d, double error,
						cnJointRowType type );
/// One angular row about the world direction d (dC/dt = d . (wB - wA)), error C.
cnJointRow cnAngularRow( cnVec3 d, double error, cnJointRowType type );
/// The three angular rows keeping joint frame fb turned as frame fa (fixed joint, slider): about the
/// world axes, with the error the small rotation from fa to fb.
void cnRotationLockRows( cnQuat fa, cnQuat fb, cnJointRow* rows );
/// The joint's frame in world coordinates on each side.
cnQuat cnJointFrameA( const cnJoint* j, const cnJointPose* a );
cnQuat cnJointFrameB( const cnJoint* j, const cnJointPose* b );
/// Limit, motor and spring rows on a coordinate x with rate dC/dt given by the row template
/// (a unit-speed row: its Jacobian measures dx/dt): lower and upper limit, motor, spring (4 rows).
void cnCoordinateRows( const cnJoint* j, const cnJointRow* unit, double x, cnJointRow* rows );
