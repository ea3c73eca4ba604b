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

/// Marks the functions a Cairn shared library exports; everything else it builds is hidden.
#if defined( _WIN32 ) && defined( CAIRN_BUILDING_SHARED )
#define CN_API __declspec( dllexport )
#elif defined( __GNUC__ )
#define CN_API __attribute__( ( visibility( "default" ) ) )
#else
#define CN_API
#endif

// ---------------------------------------------------------------------------------------------
// ids

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

/// A user force handle (cnCreateForce), validated like a body id.
typedef struct cnForceId
{
	int32_t index;
	uint32_t generation;
} cnForceId;

/// A material is an index into the world's material table (0 is the default material).
typedef int32_t cnMaterialId;

/// The ids that refer to nothing.
static const cnBodyId cnBodyId_null = { -1, 0 };
static const cnShapeId cnShapeId_null = { -1, 0 };
static const cnForceId cnForceId_null = { -1, 0 };

// ---------------------------------------------------------------------------------------------
// errors

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
	/// the instability guard stopped the world: a body's state went non-finite, too fast or its
	/// energy jumped (cnWorldDef.onInstability; the report: cnWorld_GetInstabilityReport)
	cnError_unstable,
} cnErrorCode;

// ---------------------------------------------------------------------------------------------
// contact methods and their settings

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

/// What a contact method can do (cnMethod_GetFlags): tools ask these instead of listing methods.
typedef enum cnMethodFlags
{
	/// resolves contacts once per step at the velocity level and so has a contact system (a matrix
	/// problem: the LCP's A, b or the projection's M, N) that can be captured (lcp,
	/// velocity-projection, gr-*)
	cnMethodFlag_velocityLevel = 1 << 0,
	/// integrates with an adaptive internal step under an error tolerance (penalty,
	/// analytic-impulse, constraint)
	cnMethodFlag_adaptive = 1 << 1,
	/// models Coulomb friction (lcp and gr-lcp with the dantzig solver only)
	cnMethodFlag_friction = 1 << 2,
	/// runs planar worlds (bodies in the xy-plane, state x, y, theta)
	cnMethodFlag_planar = 1 << 3,
	/// solves joints (cairn/joint.h); a joint cannot be created in a world whose method lacks this
	cnMethodFlag_joints = 1 << 4,
	/// resolves simultaneous impacts by generalized reflection, repeating the response on the points
	/// still approaching (gr-lcp, gr-velocity-projection)
	cnMethodFlag_reflection = 1 << 5,
	/// splits each step into sub-steps (impulse)
	cnMethodFlag_subSteps = 1 << 6,
	/// lets the narrow phase recycle the manifolds of pairs whose relative pose barely changed
	/// (cnWorldDef.contactRecycleDistance; impulse)
	cnMethodFlag_recycledContacts = 1 << 7,
} cnMethodFlags;

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

// ---------------------------------------------------------------------------------------------
// body and shape types

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

/// Shared, immutable geometry objects that shapes refer to (include/cairn/geometry.h).
typedef struct cnHull cnHull;
typedef struct cnMesh cnMesh;
typedef struct cnHeightfield cnHeightfield;

/// Shape type. Cylinders and capsules have their axis along the shape's local z.
typedef enum cnShapeType
{
	cnShape_sphere = 0,
	cnShape_box,
	cnShape_capsule,
	cnShape_cylinder,
	cnShape_plane,
	/// planar polygon in the shape's xy-plane, edges thickened by radius (FOSSSim rigid bodies); needs a
	/// planar world and collides only with other polygons (src/collision/collide_polygon.c)
	cnShape_polygon,
	/// convex hull of a point cloud (cnHull, include/cairn/geometry.h)
	cnShape_hull,
	/// triangle mesh (cnMesh): any mesh on a static body, a closed outward 2-manifold on a moving one
	cnShape_mesh,
	/// height grid over the shape's xy-plane, heights along local z (cnHeightfield); static bodies only
	cnShape_heightfield,
	cnShape_count
} cnShapeType;

/// Which instructions solve the impulse method's contacts. Every path gives the same bits (they do
/// the same operations in the same order on each lane); only the speed differs. A path this
/// machine lacks falls back to the best it has.
typedef enum cnSimdPath
{
	/// the best this machine has: AVX-512, else AVX2, else SSE2, else scalar
	cnSimd_auto = 0,
	/// one constraint at a time in plain doubles
	cnSimd_scalar,
	/// eight constraints at a time in four SSE2 registers of two doubles (x86-64)
	cnSimd_sse2,
	/// eight constraints at a time in two AVX2 registers of four doubles (x86-64 from 2013 on)
	cnSimd_avx2,
	/// eight constraints at a time in one AVX-512 register (x86-64 servers from 2017 on)
	cnSimd_avx512,
} cnSimdPath;

/// Settings of the impulse method (Box2D v3's soft step).
typedef struct cnImpulseSettings
{
	/// solver sub-steps per step, 1 to 64
	int subSteps;
	/// the contact solve's instructions (auto by default)
	cnSimdPath simd;
	/// contact stiffness in cycles per second for the soft step (capped at a quarter of the sub-step rate)
	double contactHertz;
	/// contact damping ratio (non-dimensional)
	double contactDampingRatio;
	/// maximum speed at which overlap is pushed out, m/s
	double maxPushVelocity;
	/// rigid (relax) passes over the contacts and joints per sub-step, after the positions move, 1 to
	/// 16: the second lets 4 sub-steps hold a 20-box tower that 1 pass lets fall (docs/methods.md)
	int relaxIterations;
} cnImpulseSettings;

/// Settings of the velocity-level methods (lcp, velocity-projection, gr-lcp, gr-velocity-projection).
typedef struct cnVelocitySettings
{
	/// solver of lcp and gr-lcp
	cnLcpSolver lcpSolver;
	/// how positions follow the new velocities
	cnIntegrator integrator;
	/// push overlaps deeper than linearSlop out by moving positions after each step, leaving
	/// velocities alone (FOSSSim scenes: off, as in FOSSSim)
	bool positionCorrection;
	/// a contact that does not bounce and is predicted to close within the step may close its gap s
	/// (n . v >= -s / h) instead of stopping at its current distance (FOSSSim scenes: off)
	bool speculativeContacts;
} cnVelocitySettings;

/// Settings of the penalty and analytic-impulse methods (AERO's springs under Dormand-Prince).
typedef struct cnPenaltySettings
{
	/// relative error tolerance of the adaptive integrator
	double errorTolerance;
} cnPenaltySettings;

/// Settings of Kleppmann's constraint method.
typedef struct cnConstraintSettings
{
	/// relative error tolerance of the adaptive integrator
	double errorTolerance;
	/// frequency (Hz) of the position stabilisation that pulls drifted contacts back to touching
	double stabilizationHertz;
	/// fastest speed (m/s) at which the stabilisation removes an overlap
	double maxCorrectionSpeed;
} cnConstraintSettings;

/// The settings of every method, one part each: a world reads the part of its method, and keeps
/// the others so that a scene can be run with another method unchanged.
typedef struct cnMethodSettings
{
	cnImpulseSettings impulse;
	cnVelocitySettings velocity;
	cnPenaltySettings penalty;
	cnConstraintSettings constraint;
} cnMethodSettings;

// ---------------------------------------------------------------------------------------------
// world

/// What the instability guard does when a step leaves a body non-finite, faster than the world's
/// bounds or the world's energy jumping (cnWorldDef.onInstability; docs/reliability.md).
typedef enum cnInstabilityAction
{
	/// the step fails with cnError_unstable and the report as its message; the world is left as
	/// the step left it, to be inspected
	cnInstability_stop = 0,
	/// the step succeeds; the report is kept (cnWorld_GetInstabilityReport) and counted in cnStats
	cnInstability_warn,
	/// the offending body is stopped: its velocities zeroed, a non-finite pose put back to where the
	/// step started, and put to sleep on its own (it wakes when something touches it); counted and
	/// reported, the step succeeds
	cnInstability_freezeBody,
	cnInstability_count
} cnInstabilityAction;

// ---------------------------------------------------------------------------------------------
// threads: the world's workers, or an embedding program's own scheduler (as Box2D v3 takes one)

/// The most workers a world can have (cnWorldDef.workerCount).
#define CN_MAX_WORKERS 64

/// One piece of a step's parallel work: the items [startIndex, endIndex) on the worker workerIndex
/// (0 <= workerIndex < cnWorldDef.workerCount; no two pieces run at once on one worker index).
typedef void cnTaskCallback( int startIndex, int endIndex, int workerIndex, void* taskContext );

/// A user scheduler's enqueue: runs task over the items [0, itemCount) in contiguous pieces of at
/// least minRange items (any split: the step's results do not depend on it), each piece once, with
/// a worker index below cnWorldDef.workerCount that no other running piece has. Returns the user's
/// handle for cnFinishTaskCallback, or NULL when it ran every piece before returning.
typedef void* cnEnqueueTaskCallback( cnTaskCallback* task, int itemCount, int minRange, void* taskContext,
									 void* userContext );

/// A user scheduler's finish: returns once every piece of the task enqueued as userTask has run.
typedef void cnFinishTaskCallback( void* userTask, void* userContext );

/// World settings: what every method shares, the method and its settings.
typedef struct cnWorldDef
{
	/// gravity acceleration, m/s^2
	cnVec3 gravity;
	/// planar mode: bodies move in the xy-plane only (state x, y, theta)
	bool planar;
	/// contact method
	cnMethod method;
	/// the methods' own settings
	cnMethodSettings settings;
	/// approach speeds below this do not bounce, m/s
	double restitutionThreshold;
	/// allowed overlap that is not corrected, m
	double linearSlop;
	/// contact points closer than this are created before touching (speculative), m
	double speculativeDistance;
	/// contact recycling, for the methods that allow it (cnMethodFlag_recycledContacts): a pair
	/// whose shapes moved relative to each other by less than this since its manifolds were made
	/// (and by less than speculativeDistance) keeps them, carried with the bodies, instead of
	/// colliding again, m (0: always collide; docs/architecture.md)
	double contactRecycleDistance;
	/// continuous collision for fast bodies that are not bullets: a dynamic body that moves farther
	/// than a quarter of its smallest size in a step is swept against static shapes (impulse and the
	/// velocity-level methods; bullets are swept whatever this says; docs/continuous.md)
	bool enableContinuous;
	/// allow bodies to sleep when at rest
	bool enableSleep;
	/// seconds a body must be at rest before its island can sleep
	double timeToSleep;
	/// linear speed under which a body counts as resting, m/s
	double sleepLinearThreshold;
	/// angular speed under which a body counts as resting, rad/s
	double sleepAngularThreshold;
	/// a contact whose shapes ask for hit events reports a hit when its points approached faster
	/// than this at the start of the step in which the method stopped them, m/s (cairn/query.h)
	double hitEventThreshold;
	/// what the instability guard does when a step goes unstable (stop by default)
	cnInstabilityAction onInstability;
	/// a dynamic body faster than this after a step is unstable, m/s (> 0; INFINITY: no bound)
	double maxSpeed;
	/// a dynamic body turning faster than this after a step is unstable, rad/s (> 0; INFINITY: no
	/// bound)
	double maxAngularSpeed;
	/// the world's mechanical energy (kinetic plus gravitational) is runaway when one step raises it
	/// above the highest it has recently been by more than this multiple of the highest recent kinetic
	/// energy plus a floor (what the awake mass has at 10 m/s); only checked in steps where no user
	/// force, moving kinematic body, joint motor or joint spring could add energy (> 0; INFINITY: no
	/// check; docs/reliability.md)
	double maxEnergyGrowth;
	/// workers that run the step's parallel stages, 1 to CN_MAX_WORKERS (default 1: the calling
	/// thread alone). Results are bit-identical for any count. Not simulation state: snapshots do
	/// not keep it (cnWorld_SetWorkerCount).
	int workerCount;
	/// an embedding program's scheduler (both or neither): when set, the world hands its parallel
	/// work to these instead of starting workerCount - 1 threads of its own
	cnEnqueueTaskCallback* enqueueTask;
	/// see enqueueTask
	cnFinishTaskCallback* finishTask;
	/// passed to enqueueTask and finishTask as userContext
	void* userTaskContext;
} cnWorldDef;

// ---------------------------------------------------------------------------------------------
// bodies

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
	/// a bullet: continuous collision every step, whatever its speed, against static shapes and the
	/// kinematic and non-bullet dynamic bodies at their poses at the end of the step (impulse and
	/// the velocity-level methods). Bodies that move farther than a quarter of their smallest size
	/// in a step are swept against static shapes anyway (cnWorldDef.enableContinuous,
	/// docs/continuous.md)
	bool isBullet;
	/// user data
	uint64_t userData;
} cnBodyDef;

// ---------------------------------------------------------------------------------------------
// materials

/// How a material's surface looks in renders and exports (POV-Ray textures, glTF PBR materials);
/// the simulation never reads it.
typedef enum cnFinish
{
	/// smooth with soft highlights (the default)
	cnFinish_plastic = 0,
	/// no highlights (chalk, cloth, concrete)
	cnFinish_matte,
	/// metallic reflection tinted by the colour
	cnFinish_metal,
	/// transparent and refracting by the material's ior
	cnFinish_glass,
	/// wood grain in the colour
	cnFinish_wood,
	/// veined stone in the colour
	cnFinish_marble,
	/// dark, soft and barely shiny
	cnFinish_rubber,
	cnFinish_count
} cnFinish;

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
	/// optional texture image file for renderers (copied)
	const char* texture;
	/// surface finish for renderers
	cnFinish finish;
	/// index of refraction of a glass finish (>= 1; 1.5 by default)
	double ior;
} cnMaterialDef;

// ---------------------------------------------------------------------------------------------
// shapes

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
	/// plane: normal (body frame) of any finite non-zero length, normalised at creation (scaled first, so
	/// neither [1e300, 1e300, 0] nor [1e-200, 0, 1e-200] is lost); points on the plane satisfy
	/// dot(n, x) = offset with n the unit normal
	cnVec3 normal;
	/// plane offset: the plane's signed distance from the shape origin along the unit normal, metres
	/// (not scaled by the given normal's length)
	double offset;
	/// polygon: vertexCount (>= 2) vertices (x, y, 0) in the shape frame, copied at creation; edges join
	/// consecutive vertices and the last to the first (2 vertices: one segment); radius thickens the edges
	int vertexCount;
	const cnVec3* vertices;
	/// hull, mesh and heightfield: the shared geometry object of the chosen type (created with
	/// cnCreateHull, cnCreateMesh or cnCreateHeightfield); the shape holds its own reference, so the
	/// caller may release the object once the shape exists
	const cnHull* hull;
	const cnMesh* mesh;
	const cnHeightfield* heightfield;
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
	/// begin and end touch events for the contacts of this shape (either shape of a pair asks)
	bool enableContactEvents;
	/// hit events for the contacts of this shape (either shape of a pair asks; cairn/query.h)
	bool enableHitEvents;
} cnShapeDef;

// ---------------------------------------------------------------------------------------------
// user forces

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

// ---------------------------------------------------------------------------------------------
// diagnostics

/// The contact system one step of a velocity-level method solves (cnWorld_CaptureContactSystem), in
/// generalised coordinates: per awake dynamic body, in body index order, (vx, vy, vz, wx, wy, wz)
/// or, in a planar world, (vx, vy, wz) (FOSSSim's x, y, theta). One column of N per active contact
/// point (contact order, then manifold point order), along the point's normal (from body A to body
/// B). Matrices are column-major: X[i + j * rows] is row i, column j. Only the normal rows are kept,
/// not friction rows. The arrays are owned by the struct: cnContactSystem_Free releases them.
typedef struct cnContactSystem
{
	/// set once a non-empty system was captured (the request is then done)
	bool captured;
	/// the world's method, and the simulated time at the start of the captured step
	cnMethod method;
	double time;
	/// degrees of freedom and active contact points
	int n, m;
	/// world body index (cnBodyId.index) of each free body, n / dofs-per-body of them
	int bodyCount;
	int* bodies;
	/// the pre-contact velocity qdot_minus (n): start velocity plus h times the forces
	double* qdot;
	/// mass matrix (n x n) and the projection's linear term -M qdot (n)
	double* M;
	double* minusMqdot;
	/// contact normals' Jacobian (n x m) and the constraint offsets c (m): the projection keeps
	/// N^T v + c >= 0, where c holds kinematic bodies' velocity and the restitution term e vn
	double* N;
	double* c;
	/// the LCP over the normals: A = N^T M^-1 N (m x m), b = N^T qdot + c (m), z >= 0 _|_ A z + b >= 0
	double* A;
	double* b;
	/// lcp and gr-lcp: the solution z of that LCP by Lemke's method (m), NULL when Lemke's method
	/// found none or the method is a projection
	double* lambda;
} cnContactSystem;

/// What the instability guard found (cnInstabilityReport.kind).
typedef enum cnInstabilityKind
{
	/// nothing yet
	cnInstabilityKind_none = 0,
	/// a pose or velocity that is NaN or infinite
	cnInstabilityKind_nonFinite,
	/// a linear speed above cnWorldDef.maxSpeed
	cnInstabilityKind_speed,
	/// an angular speed above cnWorldDef.maxAngularSpeed
	cnInstabilityKind_angularSpeed,
	/// a jump of the world's mechanical energy beyond cnWorldDef.maxEnergyGrowth
	cnInstabilityKind_energy,
} cnInstabilityKind;

/// The instability guard's last report (cnWorld_GetInstabilityReport): which body, when, what was
/// exceeded and what likely caused it. The message says it all in one line.
typedef struct cnInstabilityReport
{
	cnInstabilityKind kind;
	/// what the guard did (the world's cnWorldDef.onInstability then)
	cnInstabilityAction action;
	/// the offending body (energy: the body with the most kinetic energy after the step); when several
	/// bodies offend in one step, the first in index order, and bodyCount says how many
	cnBodyId body;
	int bodyCount;
	/// simulated time at the end of the step that went unstable, and that step's number (1: the first)
	double time;
	int64_t step;
	/// what was measured (m/s, rad/s or J; NaN for a non-finite state) and its bound
	double value;
	double bound;
	/// likely causes, measured for the body: the deepest overlap among its contacts at the step's
	/// start (m, 0 when none) and the body it overlaps
	double overlap;
	cnBodyId overlapBody;
	/// the largest mass ratio (>= 1; 1 when none) with a dynamic body it touches or is joined to
	double massRatio;
	cnBodyId massRatioBody;
	/// how far it would move in one step at its speed after the step (m; NaN when non-finite) and
	/// its size: the farthest corner of its shapes' boxes from its centre of mass (m), an upper bound
	/// of the distance to its surface
	double travel;
	double size;
	/// one line: the body, the time, what was exceeded and the likely cause
	char message[512];
} cnInstabilityReport;

/// Per-stage timings (milliseconds, last step) and counters.
typedef struct cnStats
{
	double stepMs;
	/// the stages in step order: user forces, broad phase, narrow phase, the method's solve and its
	/// integration, continuous collision, the shared finish stage (sleep timers, shape boxes),
	/// islands and sleep, the instability guard
	double forcesMs;
	double broadPhaseMs;
	double narrowPhaseMs;
	double solveMs;
	double integrateMs;
	double finishMs;
	/// continuous collision of fast bodies against static shapes (docs/continuous.md)
	double continuousMs;
	double islandMs;
	/// the instability guard: the energy at the step's start and the checks at its end
	double guardMs;
	int bodyCount;
	int awakeBodyCount;
	int shapeCount;
	/// pairs of overlapping fat boxes the broad phase found this step that had no contact yet
	int pairCount;
	int contactCount;
	int touchingCount;
	int manifoldPointCount;
	int islandCount;
	int sleepingIslandCount;
	/// contacts whose manifolds the last narrow phase recycled instead of colliding again
	int recycledContactCount;
	/// total over the life of the world
	int64_t stepCount;
	/// total over the life of the world: islands whose generalized reflection (gr-* methods) did
	/// not finish within its passes and took one simultaneous inelastic response instead
	int64_t grFallbackCount;
	/// total over the life of the world: contact sets whose boxed friction LCP (lcp, gr-lcp with the
	/// dantzig solver) had no solution and took the frictionless response for one step
	int64_t frictionFallbackCount;
	/// total over the life of the world: contact sets whose frictionless LCP (lcp, gr-lcp) had no
	/// solution (jammed bodies) and were solved with a little compliance, A + eps I
	int64_t compliantFallbackCount;
	/// total over the life of the world: fast bodies moved back to their time of impact by the
	/// continuous stage
	int64_t continuousHitCount;
	/// total over the life of the world: instabilities the guard found (one per offending body and
	/// step; an energy jump counts one), whatever cnWorldDef.onInstability did about them
	int64_t instabilityCount;
	/// total over the life of the world: bodies the guard froze (cnInstability_freezeBody)
	int64_t frozenBodyCount;
	/// bytes currently allocated by this world
	int64_t bytes;
} cnStats;

// ---------------------------------------------------------------------------------------------
// run loop

/// One frame of a run: its index (0 at the run's start) and the world's time then.
typedef struct cnFrame
{
	int index;
	double time;
} cnFrame;

/// Takes the frames of a run (cnRun): a recording, a CSV file, a renderer, a viewer's stream. The
/// functions get the writer's context first.
typedef struct cnFrameWriter
{
	/// called with the world at each frame the run writes; false stops the run as failed (set the
	/// error to say why)
	bool ( *writeFrame )( void* context, const cnWorld* world, const cnFrame* frame );
	/// called once when the run ends: complete is true when it reached its end, and the writer then
	/// commits its output; false (failed, cancelled or stopped early) asks it to discard what it
	/// wrote. Returns false when the output could not be completed (set the error). May be NULL.
	bool ( *finish )( void* context, bool complete );
	void* context;
} cnFrameWriter;

/// Where a run is (cnRunDef.progress).
typedef struct cnRunProgress
{
	/// simulated time now, and at the run's start and end
	double time, startTime, endTime;
	/// steps taken and in all
	int64_t stepCount, totalSteps;
	/// wall seconds since the run started, and an estimate of those left (from the steps per second
	/// so far; 0 at the end)
	double wallSeconds, secondsLeft;
	/// steps per wall second so far
	double stepsPerSecond;
	/// true at the last call, once the run has ended
	bool done;
} cnRunProgress;

/// What a run does (cnRun). Fill with cnDefaultRunDef().
typedef struct cnRunDef
{
	/// simulated seconds from the world's current time (>= 0)
	double duration;
	/// frames per second (> 0): frame k falls at t0 + k / fps, frame 0 at the start; the last frame
	/// is the last whole one within the duration
	double fps;
	/// longest step (> 0): each frame interval takes k = ceil((1/fps) / maxTimeStep) steps of exactly
	/// (1/fps) / k, so frames fall on multiples of 1/fps
	double maxTimeStep;
	/// the writers get every frameStride-th frame (frame 0, stride, 2 stride, ...; 1: all of them)
	int frameStride;
	/// the frame writers
	const cnFrameWriter* writers;
	int writerCount;
	/// called before every step (to apply per-step forces); false stops the run as failed
	bool ( *beforeStep )( cnWorld* world, void* context );
	/// called after every step; false stops the run early (cnRun_stopped, not a failure)
	bool ( *afterStep )( cnWorld* world, void* context );
	/// called about every progressInterval wall seconds and once at the end (NULL: never)
	void ( *progress )( const cnRunProgress* progress, void* context );
	double progressInterval;
	/// handed to beforeStep, afterStep and progress
	void* context;
} cnRunDef;

/// How a run ended.
typedef enum cnRunStatus
{
	/// it reached its duration and every writer finished
	cnRun_finished = 0,
	/// afterStep asked it to stop; writers were told to discard
	cnRun_stopped,
	/// cnWorld_Cancel stopped it (within a step); writers were told to discard
	cnRun_cancelled,
	/// a step, a callback or a writer failed (cnGetError says why); writers were told to discard
	cnRun_failed,
} cnRunStatus;

/// What a run did.
typedef struct cnRunResult
{
	cnRunStatus status;
	/// frames reached (frame 0 included) and frames handed to the writers
	int frameCount;
	int framesWritten;
	/// steps taken, steps per frame interval and their size
	int64_t stepCount;
	int stepsPerFrame;
	double stepSize;
	/// wall seconds the run took
	double wallSeconds;
} cnRunResult;

// ---------------------------------------------------------------------------------------------
// defaults

/// World defaults: gravity (0, 0, -9.81), impulse method, every method's default settings.
CN_API cnWorldDef cnDefaultWorldDef( void );

/// Default settings of every method (impulse: 8 sub-steps, 30 Hz; velocity-level: dantzig solver,
/// symplectic Euler, position correction and speculative contacts on; tolerances 1e-6).
CN_API cnMethodSettings cnDefaultMethodSettings( void );

/// Run defaults: 5 s at 60 frames per second, steps of at most 1/120 s, every frame written, no
/// callbacks, progress every 0.1 s when a progress callback is given.
CN_API cnRunDef cnDefaultRunDef( void );

/// Body defaults: dynamic, at the origin, at rest, gravity scale 1, may sleep.
CN_API cnBodyDef cnDefaultBodyDef( void );

/// Material defaults: density 1000, friction 0.6, restitution 0, grey plastic, ior 1.5.
CN_API cnMaterialDef cnDefaultMaterialDef( void );

/// Shape defaults: a unit sphere at the body origin with material 0.
CN_API cnShapeDef cnDefaultShapeDef( void );

/// Force defaults: a zero world force at the body origin, active forever.
CN_API cnForceDef cnDefaultForceDef( void );

#ifdef __cplusplus
}
#endif
