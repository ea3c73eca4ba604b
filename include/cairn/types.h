// SPDX-License-Identifier: MIT
// Cairn plain types: ids, enums and the "def" structs that describe what to create.
// Fill a def with its cnDefault...Def() function, change what you need, pass it to a create call.
#pragma once

#include "cairn/math.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Opaque simulation world.
typedef struct cnWorld cnWorld;

/// A body handle: index into the world's body table plus a generation that detects stale ids.
typedef struct cnBodyId
{
	int32_t index;
	uint32_t generation;
} cnBodyId;

/// A shape handle, validated like a body id.
typedef struct cnShapeId
{
	int32_t index;
	uint32_t generation;
} cnShapeId;

/// A material is an index into the world's material table (0 is the default material).
typedef int32_t cnMaterialId;

/// The id that refers to nothing.
static const cnBodyId cnBodyId_null = { -1, 0 };
static const cnShapeId cnShapeId_null = { -1, 0 };

/// What kind of failure the calling thread's last failed call had (cnGetErrorCode).
typedef enum cnErrorCode
{
	/// no failure since the last call that can fail
	cnError_none = 0,
	/// a value passed to a call is out of range, non-finite or inconsistent
	cnError_invalidArgument,
	/// an id that is stale (destroyed), out of range or of another world
	cnError_invalidId,
	/// a file or string that does not parse or does not describe a valid scene or recording
	cnError_badInput,
	/// a file cannot be read or written
	cnError_io,
	/// memory ran out
	cnError_outOfMemory,
	/// the simulation cannot go on: a non-finite state, a solver or integrator that failed
	cnError_stepFailed,
	/// stopped on request (cnWorld_Cancel) before it finished
	cnError_cancelled,
	/// a valid request that this method or world cannot carry out
	cnError_unsupported,
} cnErrorCode;

/// How contacts are resolved. Chosen per world (per scene).
typedef enum cnMethod
{
	/// sequential impulses, soft step with sub-steps and relax (Box2D v3 style)
	cnMethod_impulse = 0,
	/// velocity-level LCP per step (Lemke, or a boxed LCP coupling friction), see cnLcpSolver
	cnMethod_lcp,
	/// M-norm projection of the velocity onto the admissible set, a QP (Goldfarb-Idnani)
	cnMethod_velocityProjection,
	/// generalized reflection (Smith et al. 2012) over the LCP
	cnMethod_grLcp,
	/// generalized reflection over the velocity projection
	cnMethod_grVelocityProjection,
	/// penalty springs integrated by adaptive Dormand-Prince RK5(4) (AERO)
	cnMethod_penalty,
	/// AERO's analytic impulses for colliding points, penalty for resting ones
	cnMethod_analyticImpulse,
	/// Kleppmann's unified constraint method (frictionless)
	cnMethod_constraint,
	cnMethod_count
} cnMethod;

/// Solver of the "lcp" methods.
typedef enum cnLcpSolver
{
	/// a boxed LCP that solves normal and friction impulses together (Dantzig-style pivoting)
	cnLcp_dantzig = 0,
	/// Lemke's complementary pivoting (normal impulses only: frictionless)
	cnLcp_lemke,
} cnLcpSolver;

/// Time integrator of the velocity-level methods (lcp, velocity-projection, gr-*).
typedef enum cnIntegrator
{
	/// v += h a; x += h v (the new v)
	cnIntegrator_symplecticEuler = 0,
	/// x += h v (the old v); v += h a
	cnIntegrator_explicitEuler,
} cnIntegrator;

/// Body motion type.
typedef enum cnBodyType
{
	/// never moves, infinite mass
	cnBody_static = 0,
	/// moved by its prescribed velocity, infinite mass, pushes dynamic bodies
	cnBody_kinematic = 1,
	/// moved by forces and contacts
	cnBody_dynamic = 2,
} cnBodyType;

/// Shape type. Cylinders and capsules have their axis along the shape's local z.
typedef enum cnShapeType
{
	cnShape_sphere = 0,
	cnShape_box,
	cnShape_capsule,
	cnShape_cylinder,
	cnShape_plane,
	/// planar polygon in the shape's xy-plane, edges thickened by radius (FOSSSim rigid bodies); needs a
	/// planar world and collides only with other polygons (added for planar scenes, src/collide_polygon.c)
	cnShape_polygon,
	cnShape_count
} cnShapeType;

/// World settings.
typedef struct cnWorldDef
{
	/// gravity acceleration, m/s^2
	cnVec3 gravity;
	/// contact method
	cnMethod method;
	/// solver of the lcp methods
	cnLcpSolver lcpSolver;
	/// integrator of the velocity-level methods
	cnIntegrator integrator;
	/// planar mode: bodies move in the xy-plane only (state x, y, theta)
	bool planar;
	/// velocity-level methods (lcp, velocity-projection, gr-*): push overlaps deeper than linearSlop
	/// out by moving positions after each step, leaving velocities alone (FOSSSim scenes: off, as
	/// in FOSSSim)
	bool positionCorrection;
	/// velocity-level methods (lcp, velocity-projection): a contact that does not bounce and is
	/// predicted to close within the step may close its gap s (n . v >= -s / h) instead of stopping
	/// at its current distance (FOSSSim scenes: off, as in FOSSSim)
	bool speculativeContacts;
	/// relative error tolerance of the adaptive integrators (penalty, constraint)
	double errorTolerance;
	/// number of solver sub-steps per step (impulse method)
	int subSteps;
	/// contact stiffness in cycles per second for the soft step (capped at a quarter of the sub-step rate)
	double contactHertz;
	/// contact damping ratio (non-dimensional)
	double contactDampingRatio;
	/// maximum speed at which overlap is pushed out, m/s
	double maxPushVelocity;
	/// approach speeds below this do not bounce, m/s
	double restitutionThreshold;
	/// allowed overlap that is not corrected, m
	double linearSlop;
	/// contact points closer than this are created before touching (speculative), m
	double speculativeDistance;
	/// allow bodies to sleep when at rest
	bool enableSleep;
	/// seconds a body must be at rest before its island can sleep
	double timeToSleep;
	/// linear speed under which a body counts as resting, m/s
	double sleepLinearThreshold;
	/// angular speed under which a body counts as resting, rad/s
	double sleepAngularThreshold;
} cnWorldDef;

/// Body settings.
typedef struct cnBodyDef
{
	/// optional name (copied); unique names are required by the scene loader, not by the library
	const char* name;
	cnBodyType type;
	/// position of the body origin (the frame shapes are placed in), world frame
	cnVec3 position;
	/// orientation of the body frame, unit quaternion
	cnQuat orientation;
	/// velocity of the body origin, world frame, m/s
	cnVec3 linearVelocity;
	/// angular velocity, world frame, rad/s
	cnVec3 angularVelocity;
	/// multiplies the world gravity for this body (0 switches gravity off)
	double gravityScale;
	/// linear damping: dv/dt = -c v (1/s)
	double linearDamping;
	/// angular damping: dw/dt = -c w (1/s)
	double angularDamping;
	/// quadratic air drag coefficient k: F = -k |v| v (kg/m)
	double dragCoefficient;
	/// may this body fall asleep
	bool enableSleep;
	/// starts awake
	bool isAwake;
	/// user data
	uint64_t userData;
} cnBodyDef;

/// Material settings. Values of two materials in contact are combined (see cnMixFriction).
typedef struct cnMaterialDef
{
	/// optional name (copied)
	const char* name;
	/// kg/m^3
	double density;
	/// Coulomb friction coefficient
	double friction;
	/// Newton restitution coefficient in [0, 1]
	double restitution;
	/// contact stiffness for penalty methods, N/m (0 = method default)
	double stiffness;
	/// contact damping for penalty methods, N s/m (0 = method default)
	double damping;
	/// display colour, linear RGB in [0, 1]
	float color[3];
	/// optional texture file name for renderers (copied)
	const char* texture;
} cnMaterialDef;

/// Shape settings. Fill only the size fields of the chosen type.
typedef struct cnShapeDef
{
	cnShapeType type;
	/// sphere, capsule, cylinder radius
	double radius;
	/// box half extents along local x, y, z
	cnVec3 halfExtents;
	/// capsule and cylinder half height along local z (capsule: of the segment between the cap centres)
	double halfHeight;
	/// plane: unit normal (body frame); points on the plane satisfy dot(n, x) = offset
	cnVec3 normal;
	/// plane offset along its normal
	double offset;
	/// polygon: vertexCount (>= 2) vertices (x, y, 0) in the shape frame, copied at creation; edges join
	/// consecutive vertices and the last to the first (2 vertices: one segment); radius thickens the edges
	int vertexCount;
	const cnVec3* vertices;
	/// shape frame relative to the body frame
	cnVec3 position;
	cnQuat orientation;
	/// material of this shape
	cnMaterialId material;
	/// collision filtering as in Box2D: shapes A and B collide when
	/// (A.category & B.mask) && (B.category & A.mask), unless they share a negative group;
	/// a shared positive group always collides
	uint64_t categoryBits;
	uint64_t maskBits;
	int32_t groupIndex;
} cnShapeDef;

/// How the direction of a user force is given.
typedef enum cnForceFrame
{
	/// a fixed world direction
	cnForce_world = 0,
	/// a direction fixed in the body, rotating with it
	cnForce_body,
	/// pointing from the application point towards a point on another body (or the world)
	cnForce_target,
} cnForceFrame;

/// A constant force (or torque) on a body during a time window.
typedef struct cnForceDef
{
	cnBodyId body;
	/// true: a torque (point and target are ignored; frame is world or body)
	bool isTorque;
	cnForceFrame frame;
	/// application point in body coordinates (relative to the body origin)
	cnVec3 localPoint;
	/// force (N) or torque (N m): a world vector for cnForce_world, a body vector for cnForce_body;
	/// for cnForce_target only its length is used (the magnitude)
	cnVec3 vector;
	/// cnForce_target: the body to point at (null id: targetPoint is a world point)
	cnBodyId target;
	/// cnForce_target: target point in the target body's coordinates (or world)
	cnVec3 targetPoint;
	/// active while t0 <= t < t1 (seconds of simulated time)
	double t0, t1;
} cnForceDef;

/// Per-stage timings (milliseconds, last step) and counters.
typedef struct cnStats
{
	double stepMs;
	/// the stages in step order: user forces, broad phase, narrow phase, the method's solve and its
	/// integration, the shared finish stage (sleep timers, shape boxes), islands and sleep
	double forcesMs;
	double broadPhaseMs;
	double narrowPhaseMs;
	double solveMs;
	double integrateMs;
	double finishMs;
	double islandMs;
	int bodyCount;
	int awakeBodyCount;
	int shapeCount;
	int pairCount;
	int contactCount;
	int touchingCount;
	int manifoldPointCount;
	int islandCount;
	int sleepingIslandCount;
	/// total over the life of the world
	int64_t stepCount;
	/// total over the life of the world: islands whose generalized reflection (gr-* methods) did
	/// not finish within its passes and took one simultaneous inelastic response instead
	int64_t grFallbackCount;
	/// total over the life of the world: contact sets whose boxed friction LCP (lcp, gr-lcp with the
	/// dantzig solver) had no solution and took the frictionless response for one step
	int64_t frictionFallbackCount;
	/// bytes currently allocated by this world
	int64_t bytes;
} cnStats;

/// World defaults: gravity (0, 0, -9.81), impulse method, 8 sub-steps.
cnWorldDef cnDefaultWorldDef( void );

/// Body defaults: dynamic, at the origin, at rest, gravity scale 1, may sleep.
cnBodyDef cnDefaultBodyDef( void );

/// Material defaults: density 1000, friction 0.6, restitution 0.
cnMaterialDef cnDefaultMaterialDef( void );

/// Shape defaults: a unit sphere at the body origin with material 0.
cnShapeDef cnDefaultShapeDef( void );

/// Force defaults: a zero world force at the body origin, active forever.
cnForceDef cnDefaultForceDef( void );

#ifdef __cplusplus
}
#endif
