// SPDX-License-Identifier: MIT
// Joints and connections: constraints and force elements between two bodies or between a body and
// the fixed world (Kleppmann's constrained bodies, AERO's connections). Included by cairn/cairn.h.
//
// Every joint type has its own def struct that starts with a cnJointDef (the bodies and what all
// joints share), a cnDefaultXJointDef() and a cnCreateXJoint(). Anchors and axes in a def are world
// coordinates at the moment of creation (as ODE takes them); the joint stores them in each body's
// frame. Several joints may join the same pair of bodies. Bodies joined by a joint do not collide
// unless one of the joints between them sets collideConnected.
//
// How each contact method solves joints (soft rows in impulse, bilateral rows in the LCP and the
// projection, Lagrange multipliers in constraint, stiff springs in penalty) is in docs/joints.md.
#pragma once

#include "cairn/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A joint handle, validated like a body id.
typedef struct cnJointId
{
	int32_t index;
	uint32_t generation;
} cnJointId;

/// The id that refers to no joint.
static const cnJointId cnJointId_null = { -1, 0 };

/// Joint types.
typedef enum cnJointType
{
	/// ball-and-socket: one point shared (with one body: Kleppmann's nail, a point fixed in space)
	cnJoint_ball = 0,
	/// revolute: a point and an axis shared; limits, motor and spring on the angle
	cnJoint_hinge,
	/// prismatic: translation along one axis only, no rotation; limits, motor and spring
	cnJoint_slider,
	/// a point shared and two axes (one per body) kept perpendicular (Kleppmann's joystick)
	cnJoint_universal,
	/// a point shared, the swing of the twist axis limited to a cone and the twist to a range
	cnJoint_coneTwist,
	/// weld: the relative pose kept (AERO's rigid connection)
	cnJoint_fixed,
	/// a rod of fixed length between two points, or a rope between a minimum and a maximum length
	cnJoint_distance,
	/// a linear spring (and optional damper) between two points (AERO)
	cnJoint_spring,
	/// a linear damper between two points (AERO)
	cnJoint_damper,
	/// a point of the first body kept on a plane fixed in the second body or the world (Kleppmann)
	cnJoint_pointOnPlane,
	cnJoint_count
} cnJointType;

/// What every joint def starts with.
typedef struct cnJointDef
{
	/// optional name (copied)
	const char* name;
	/// the first body (required, not static)
	cnBodyId bodyA;
	/// the second body, or cnBodyId_null for the fixed world
	cnBodyId bodyB;
	/// the two bodies keep colliding with each other
	bool collideConnected;
	/// the joint breaks when its reaction force exceeds this, N (0: never)
	double breakForce;
	/// the joint breaks when its reaction torque exceeds this, N m (0: never)
	double breakTorque;
	/// user data
	uint64_t userData;
} cnJointDef;

/// Ball-and-socket joint.
typedef struct cnBallJointDef
{
	cnJointDef base;
	/// the shared point, world coordinates at creation
	cnVec3 anchor;
} cnBallJointDef;

/// Hinge (revolute) joint. The angle is the rotation of B relative to A about the axis, 0 at creation.
typedef struct cnHingeJointDef
{
	cnJointDef base;
	/// a point on the axis, world coordinates at creation
	cnVec3 anchor;
	/// the axis direction (any nonzero length), world at creation
	cnVec3 axis;
	/// keep the angle in [lowerAngle, upperAngle], radians
	bool enableLimit;
	double lowerAngle, upperAngle;
	/// drive the angular speed towards motorSpeed (rad/s) with at most maxMotorTorque (N m)
	bool enableMotor;
	double motorSpeed;
	double maxMotorTorque;
	/// a torsion spring towards restAngle: stiffness N m/rad, damping N m s/rad
	bool enableSpring;
	double stiffness;
	double damping;
	double restAngle;
} cnHingeJointDef;

/// Slider (prismatic) joint. The translation is B's anchor relative to A's along the axis, 0 at creation.
typedef struct cnSliderJointDef
{
	cnJointDef base;
	/// a point on the axis, world coordinates at creation
	cnVec3 anchor;
	/// the sliding direction (any nonzero length), world at creation
	cnVec3 axis;
	/// keep the translation in [lowerTranslation, upperTranslation], m
	bool enableLimit;
	double lowerTranslation, upperTranslation;
	/// drive the sliding speed towards motorSpeed (m/s) with at most maxMotorForce (N)
	bool enableMotor;
	double motorSpeed;
	double maxMotorForce;
	/// a spring towards restTranslation: stiffness N/m, damping N s/m
	bool enableSpring;
	double stiffness;
	double damping;
	double restTranslation;
} cnSliderJointDef;

/// Universal joint (Kleppmann's joystick): a shared point, axisA fixed in A and axisB fixed in B
/// kept perpendicular, so B turns freely about both.
typedef struct cnUniversalJointDef
{
	cnJointDef base;
	/// the shared point, world coordinates at creation
	cnVec3 anchor;
	/// the two axes, world at creation; they must be perpendicular (they are orthogonalised)
	cnVec3 axisA, axisB;
} cnUniversalJointDef;

/// Cone-twist joint (ragdoll shoulder and hip): a shared point; the twist axis of B may swing at
/// most swingAngle away from A's and twist about itself within [lowerTwist, upperTwist].
typedef struct cnConeTwistJointDef
{
	cnJointDef base;
	/// the shared point, world coordinates at creation
	cnVec3 anchor;
	/// the twist axis, world at creation (fixed in both bodies then)
	cnVec3 axis;
	/// half-angle of the swing cone, radians, in (0, pi)
	double swingAngle;
	/// twist range, radians, lowerTwist <= 0 <= upperTwist
	double lowerTwist, upperTwist;
} cnConeTwistJointDef;

/// Fixed joint (weld): the relative position and orientation at creation are kept.
typedef struct cnFixedJointDef
{
	cnJointDef base;
	/// the point where the weld acts, world coordinates at creation (the reaction is reported there)
	cnVec3 anchor;
} cnFixedJointDef;

/// Distance joint: the points anchorA (on A) and anchorB (on B or the world) stay between
/// minLength and maxLength apart: a rod when they are equal, a rope when minLength is 0.
typedef struct cnDistanceJointDef
{
	cnJointDef base;
	/// the two points, world coordinates at creation
	cnVec3 anchorA, anchorB;
	/// the rod's length, m; negative: the anchors' distance at creation
	double length;
	/// the allowed range, m; negative: equal to length (a rod)
	double minLength, maxLength;
} cnDistanceJointDef;

/// Spring (AERO): a force stiffness (l - restLength) + damping dl/dt pulling anchorA and anchorB
/// together, acting only while the anchors are at least minLength apart (AERO's minimum active
/// separation; 0: always).
typedef struct cnSpringJointDef
{
	cnJointDef base;
	/// the two points, world coordinates at creation
	cnVec3 anchorA, anchorB;
	/// N/m (>= 0)
	double stiffness;
	/// N s/m (>= 0)
	double damping;
	/// m; negative: the anchors' distance at creation
	double restLength;
	/// m (>= 0)
	double minLength;
} cnSpringJointDef;

/// Damper (AERO): a force damping dl/dt along the line of the anchors, acting only while the
/// anchors are at least minLength apart.
typedef struct cnDamperJointDef
{
	cnJointDef base;
	/// the two points, world coordinates at creation
	cnVec3 anchorA, anchorB;
	/// N s/m (> 0)
	double damping;
	/// m (>= 0)
	double minLength;
} cnDamperJointDef;

/// Point on plane (Kleppmann's vertex/face confinement): the point anchor of A stays on the plane
/// through anchor with the given normal, fixed in B (or the world).
typedef struct cnPointOnPlaneJointDef
{
	cnJointDef base;
	/// the point of A, and a point of the plane, world coordinates at creation
	cnVec3 anchor;
	/// the plane's normal (any nonzero length), world at creation
	cnVec3 normal;
} cnPointOnPlaneJointDef;

/// A joint that broke in the last step (cnWorld_GetJointBreaks).
typedef struct cnJointBreak
{
	cnJointId joint;
	/// simulated time at the end of the step in which it broke
	double time;
	/// the reaction that broke it, N and N m
	double force, torque;
} cnJointBreak;

/// Default joint defs: a body must still be set; anchors at the origin, axes along +z.
CN_API cnBallJointDef cnDefaultBallJointDef( void );
/// Default hinge def: no limit, motor or spring.
CN_API cnHingeJointDef cnDefaultHingeJointDef( void );
/// Default slider def: no limit, motor or spring.
CN_API cnSliderJointDef cnDefaultSliderJointDef( void );
/// Default universal def: axisA along x, axisB along y.
CN_API cnUniversalJointDef cnDefaultUniversalJointDef( void );
/// Default cone-twist def: 45 degree cone, twist in [-45, 45] degrees.
CN_API cnConeTwistJointDef cnDefaultConeTwistJointDef( void );
/// Default fixed joint def.
CN_API cnFixedJointDef cnDefaultFixedJointDef( void );
/// Default distance def: a rod of the anchors' distance at creation.
CN_API cnDistanceJointDef cnDefaultDistanceJointDef( void );
/// Default spring def: 100 N/m, no damping, rest length the anchors' distance at creation.
CN_API cnSpringJointDef cnDefaultSpringJointDef( void );
/// Default damper def: 10 N s/m.
CN_API cnDamperJointDef cnDefaultDamperJointDef( void );
/// Default point-on-plane def: normal along +z.
CN_API cnPointOnPlaneJointDef cnDefaultPointOnPlaneJointDef( void );

/// Creates a ball joint; the null id when the def is invalid (see cnJointDef).
CN_API cnJointId cnCreateBallJoint( cnWorld* world, const cnBallJointDef* def );
/// Creates a hinge joint.
CN_API cnJointId cnCreateHingeJoint( cnWorld* world, const cnHingeJointDef* def );
/// Creates a slider joint.
CN_API cnJointId cnCreateSliderJoint( cnWorld* world, const cnSliderJointDef* def );
/// Creates a universal joint.
CN_API cnJointId cnCreateUniversalJoint( cnWorld* world, const cnUniversalJointDef* def );
/// Creates a cone-twist joint.
CN_API cnJointId cnCreateConeTwistJoint( cnWorld* world, const cnConeTwistJointDef* def );
/// Creates a fixed joint.
CN_API cnJointId cnCreateFixedJoint( cnWorld* world, const cnFixedJointDef* def );
/// Creates a distance joint (rod or rope).
CN_API cnJointId cnCreateDistanceJoint( cnWorld* world, const cnDistanceJointDef* def );
/// Creates a spring.
CN_API cnJointId cnCreateSpringJoint( cnWorld* world, const cnSpringJointDef* def );
/// Creates a damper.
CN_API cnJointId cnCreateDamperJoint( cnWorld* world, const cnDamperJointDef* def );
/// Creates a point-on-plane joint.
CN_API cnJointId cnCreatePointOnPlaneJoint( cnWorld* world, const cnPointOnPlaneJointDef* def );

/// Removes a joint and wakes its bodies.
CN_API bool cnDestroyJoint( cnWorld* world, cnJointId id );
/// True when id refers to a live joint of this world (never sets the error).
CN_API bool cnJoint_IsValid( const cnWorld* world, cnJointId id );
/// The joint's type (cnJoint_count for an invalid id).
CN_API cnJointType cnJoint_GetType( const cnWorld* world, cnJointId id );
/// The name of a joint type as in scene files ("ball", "cone_twist", ...), NULL when out of range.
CN_API const char* cnJointType_GetName( cnJointType type );
/// The joint type of a scene-file name; false when unknown.
CN_API bool cnJointType_FromName( const char* name, cnJointType* type );
/// The joint's name ("" when it has none, NULL for an invalid id).
CN_API const char* cnJoint_GetName( const cnWorld* world, cnJointId id );
/// The first body.
CN_API cnBodyId cnJoint_GetBodyA( const cnWorld* world, cnJointId id );
/// The second body (the null id for the fixed world).
CN_API cnBodyId cnJoint_GetBodyB( const cnWorld* world, cnJointId id );
/// The joint's point on body A, current world coordinates.
CN_API cnVec3 cnJoint_GetAnchorA( const cnWorld* world, cnJointId id );
/// The joint's point on body B (or the world), current world coordinates.
CN_API cnVec3 cnJoint_GetAnchorB( const cnWorld* world, cnJointId id );
/// The force the joint applied to body B in the last step (to A: its opposite), N.
CN_API cnVec3 cnJoint_GetReactionForce( const cnWorld* world, cnJointId id );
/// The torque the joint's angular constraints, limits, motor and spring applied to body B in the
/// last step, N m (the moment of the reaction force about the anchor is not included).
CN_API cnVec3 cnJoint_GetReactionTorque( const cnWorld* world, cnJointId id );
/// The largest positional violation of the joint's equality constraints and violated limits after
/// the last step, m (NaN for an invalid id).
CN_API double cnJoint_GetLinearError( const cnWorld* world, cnJointId id );
/// The largest angular violation after the last step, radians.
CN_API double cnJoint_GetAngularError( const cnWorld* world, cnJointId id );
/// True when the joint broke (it no longer acts, and its bodies collide again).
CN_API bool cnJoint_IsBroken( const cnWorld* world, cnJointId id );
/// The joint's user data.
CN_API uint64_t cnJoint_GetUserData( const cnWorld* world, cnJointId id );
/// Sets the reaction force and torque beyond which the joint breaks (0: never).
CN_API bool cnJoint_SetBreakLimits( cnWorld* world, cnJointId id, double breakForce, double breakTorque );
/// The joint's current position coordinate: the angle of a hinge (rad), the translation of a slider
/// (m), the anchors' distance of a distance, spring or damper joint (m), the twist of a cone-twist
/// (rad), the plane distance of a point-on-plane joint (m); 0 for the others.
CN_API double cnJoint_GetPosition( const cnWorld* world, cnJointId id );
/// The rate of that coordinate (rad/s or m/s).
CN_API double cnJoint_GetSpeed( const cnWorld* world, cnJointId id );

/// Number of live joints.
CN_API int cnWorld_GetJointCount( const cnWorld* world );
/// The i-th live joint in index order, null id when out of range.
CN_API cnJointId cnWorld_GetJoint( const cnWorld* world, int i );
/// The joint with this name (the first in index order), null id when none.
CN_API cnJointId cnWorld_FindJoint( const cnWorld* world, const char* name );
/// The joints that broke in the last step: *count of them (the array is the world's, valid until
/// the next step).
CN_API const cnJointBreak* cnWorld_GetJointBreaks( const cnWorld* world, int* count );

/// Hinge and slider: switches the limit and sets its range (rad or m).
CN_API bool cnJoint_SetLimits( cnWorld* world, cnJointId id, bool enable, double lower, double upper );
/// Hinge and slider: switches the motor and sets its speed and maximum torque (or force).
CN_API bool cnJoint_SetMotor( cnWorld* world, cnJointId id, bool enable, double speed, double maxForce );
/// Hinge, slider, spring and damper: sets the spring (enable is ignored by spring and damper joints,
/// whose stiffness or damping may be 0); rest is the rest angle, translation or length.
CN_API bool cnJoint_SetSpring( cnWorld* world, cnJointId id, bool enable, double stiffness, double damping,
							   double rest );
/// Distance joints: sets the range (a rod when minLength == maxLength).
CN_API bool cnJoint_SetLengthRange( cnWorld* world, cnJointId id, double minLength, double maxLength );

/// Hinge and slider: whether the limit is on, and its range (rad or m); distance joints: their
/// length range; cone-twist: the twist range. False (and NaN) for an invalid id or another type.
CN_API bool cnJoint_GetLimits( const cnWorld* world, cnJointId id, double* lower, double* upper );
/// Hinge and slider: whether the motor is on, its speed and maximum torque (or force).
CN_API bool cnJoint_GetMotor( const cnWorld* world, cnJointId id, double* speed, double* maxForce );
/// Hinge, slider, spring and damper: whether the spring is on, its stiffness, damping and rest
/// angle, translation or length (a damper: stiffness 0).
CN_API bool cnJoint_GetSpring( const cnWorld* world, cnJointId id, double* stiffness, double* damping, double* rest );
/// The joint's axis on body A, current world direction: a hinge's axis, a slider's direction, a
/// cone-twist's twist axis, a universal joint's first axis, a point-on-plane joint's normal (on body
/// B), the anchors' line of a distance joint, spring or damper at creation.
CN_API cnVec3 cnJoint_GetAxis( const cnWorld* world, cnJointId id );

/// A universal joint's second axis (fixed in B), current world direction; for the other types the
/// y axis of the joint frame in B.
CN_API cnVec3 cnJoint_GetSecondAxis( const cnWorld* world, cnJointId id );
/// A cone-twist joint's swing half angle, radians (NaN for another type or an invalid id).
CN_API double cnJoint_GetSwingAngle( const cnWorld* world, cnJointId id );
/// A spring's or damper's minimum active separation, m (NaN for another type or an invalid id).
CN_API double cnJoint_GetMinLength( const cnWorld* world, cnJointId id );
/// Whether the joined bodies keep colliding with each other (cnJointDef.collideConnected).
CN_API bool cnJoint_GetCollideConnected( const cnWorld* world, cnJointId id );

/// The reaction force and torque beyond which a joint breaks (0: never).
typedef struct cnJointBreakLimits
{
	/// N
	double force;
	/// N m
	double torque;
} cnJointBreakLimits;

/// The joint's break limits (NaN for an invalid id).
CN_API cnJointBreakLimits cnJoint_GetBreakLimits( const cnWorld* world, cnJointId id );

#ifdef __cplusplus
}
#endif
