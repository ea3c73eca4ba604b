// SPDX-License-Identifier: MIT
// Cairn: rigid body simulation and physically based animation. The public C API of libcairn.
//
// A world owns bodies, shapes, materials and user forces. They are referred to by small value ids
// (index + generation) that every call validates, so a stale or foreign id fails softly.
//
// Naming: cnCreateX(parent, def) makes an X from a def struct filled by cnDefaultXDef();
// cnDestroyX(parent, id) removes it; cnX_Verb(parent, id, ...) acts on one. World-wide calls are
// cnWorld_Verb(world, ...).
//
// Errors: a call that fails returns false, a null id, NULL or NaN values, and records why in the
// calling thread's error state (cnGetError, cnGetErrorCode). A call that can fail clears that state
// when it succeeds, so after any call cnGetErrorCode() tells whether that call failed. The library
// never exits the process. Its only mutable state outside the objects it creates is that
// thread-local error state: every world is independent, and two worlds may be stepped from two
// threads at once.
//
// Reading and writing files (scenes, recordings, CSV) is libcairn_io's (cairn/io.h).
#pragma once

#include "cairn/math.h"
#include "cairn/types.h"
#include "cairn/joint.h"
#include "cairn/geometry.h"
#include "cairn/query.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// errors

/// Message of the calling thread's last failed call ("" when the last call that can fail succeeded).
CN_API const char* cnGetError( void );

/// Code of the calling thread's last failed call (cnError_none when the last call succeeded).
CN_API cnErrorCode cnGetErrorCode( void );

/// Clears the calling thread's error state.
CN_API void cnClearError( void );

/// Records an error as the calling thread's (for code built on Cairn: libcairn_io, writers and
/// callbacks report through the same state); returns false.
CN_API bool cnSetError( cnErrorCode code, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 2, 3 ) ) )
#endif
	;

/// Name of an error code ("invalid argument", ...).
CN_API const char* cnErrorCodeName( cnErrorCode code );

// ---------------------------------------------------------------------------------------------
// version and names

/// Library version string, "major.minor.patch".
CN_API const char* cnGetVersion( void );

/// Canonical name of a contact method ("impulse", ...); "unknown" when out of range.
CN_API const char* cnMethod_GetName( cnMethod method );

/// One-line description of a contact method.
CN_API const char* cnMethod_GetSummary( cnMethod method );

/// Capabilities of a contact method: a combination of cnMethodFlags (0 when out of range). The
/// friction flag of lcp and gr-lcp holds for their dantzig solver only.
CN_API uint32_t cnMethod_GetFlags( cnMethod method );

/// Parses a method name; returns false (with the error set) when the name is unknown.
CN_API bool cnMethod_FromName( const char* name, cnMethod* method );

/// The method names separated by ", " in enum order ("impulse, lcp, ...").
CN_API const char* cnMethod_GetNameList( void );

/// Name of a shape type ("sphere", "box", ...).
CN_API const char* cnShapeType_GetName( cnShapeType type );

/// Name of a finish ("plastic", "matte", "metal", "glass", "wood", "marble", "rubber").
CN_API const char* cnFinish_GetName( cnFinish finish );

/// Parses a finish name; returns false (with the error set) when the name is unknown.
CN_API bool cnFinish_FromName( const char* name, cnFinish* finish );

/// Name of a body type ("static", "kinematic", "dynamic").
CN_API const char* cnBodyType_GetName( cnBodyType type );

/// Name of an instability action ("stop", "warn", "freeze-body"; "unknown" when out of range).
CN_API const char* cnInstabilityAction_GetName( cnInstabilityAction action );

/// Parses an instability action name; returns false (with the error set) when the name is unknown.
CN_API bool cnInstabilityAction_FromName( const char* name, cnInstabilityAction* action );

// ---------------------------------------------------------------------------------------------
// world

/// Creates a world; NULL when def is invalid (the error says which setting and why).
CN_API cnWorld* cnCreateWorld( const cnWorldDef* def );

/// Destroys a world and everything in it (NULL is allowed).
CN_API void cnDestroyWorld( cnWorld* world );

/// Advances the world by timeStep seconds through the stages of docs/architecture.md. Returns false
/// on invalid input, when the method cannot go on (a failed solve, a non-finite impulse) or when
/// cnWorld_Cancel stopped it; the bodies are then where the step started (the forces it applied are
/// kept). Also false (cnError_unstable) when the instability guard stops the world
/// (cnWorldDef.onInstability): the world is then left as the step left it, its time advanced, so
/// the offending state can be read (cnWorld_GetInstabilityReport).
CN_API bool cnWorld_Step( cnWorld* world, double timeStep );

/// Simulated time: the sum of all step sizes so far.
CN_API double cnWorld_GetTime( const cnWorld* world );

/// Timings of the last step and current counters.
CN_API cnStats cnWorld_GetStats( const cnWorld* world );

/// The settings the world was created with (gravity may have changed since).
CN_API cnWorldDef cnWorld_GetDef( const cnWorld* world );

/// Sets gravity (m/s^2) and wakes every body.
CN_API bool cnWorld_SetGravity( cnWorld* world, cnVec3 gravity );

/// Current gravity.
CN_API cnVec3 cnWorld_GetGravity( const cnWorld* world );

/// Switches sleeping on or off for the whole world (off wakes every body).
CN_API void cnWorld_EnableSleeping( cnWorld* world, bool flag );

/// Sets the contact recycling distance (m, >= 0; 0 switches recycling off) from the next step on
/// (cnWorldDef.contactRecycleDistance).
CN_API bool cnWorld_SetContactRecycleDistance( cnWorld* world, double distance );

/// Changes what the instability guard does from the next step on (cnWorldDef.onInstability).
CN_API bool cnWorld_SetInstabilityAction( cnWorld* world, cnInstabilityAction action );

/// Changes the number of workers (1 to CN_MAX_WORKERS) from the next step on, restarting the world's
/// threads (a world with a user scheduler keeps it); results do not depend on it. false when out of
/// range or a thread cannot start (the world then runs on 1 worker).
CN_API bool cnWorld_SetWorkerCount( cnWorld* world, int workerCount );

/// 64-bit FNV-1a hash of the positions and orientations of all live bodies in creation order.
CN_API uint64_t cnWorld_Hash( const cnWorld* world );

// ---------------------------------------------------------------------------------------------
// snapshots (docs/snapshots.md)

/// Writes everything the world's next step depends on (bodies, shapes, contacts with their warm-start
/// impulses, joints, forces, sleep, the broad phase, the method's state) into a snapshot: *data, of
/// *size bytes, allocated for the caller (free it with cnFree). false when out of memory.
CN_API bool cnWorld_Save( const cnWorld* world, void** data, size_t* size );

/// A new world from a snapshot made by cnWorld_Save: stepping it gives bit-identical results to
/// stepping the saved world (same build). NULL with the reason when the bytes are not a valid
/// snapshot of this format version (damaged, truncated, inconsistent).
CN_API cnWorld* cnWorld_Load( const void* data, size_t size );

/// Frees memory the library allocated for the caller (snapshot bytes).
CN_API void cnFree( void* memory );

/// Number of live bodies.
CN_API int cnWorld_GetBodyCount( const cnWorld* world );

/// The i-th live body in creation order (0 <= i < cnWorld_GetBodyCount), null id when out of range.
CN_API cnBodyId cnWorld_GetBody( const cnWorld* world, int i );

/// Finds a body by name; null id when there is none.
CN_API cnBodyId cnWorld_FindBody( const cnWorld* world, const char* name );

/// Total kinetic energy of all bodies (J).
CN_API double cnWorld_GetKineticEnergy( const cnWorld* world );

/// Total gravitational potential energy -m g.x of all dynamic bodies, zero at the origin (J).
CN_API double cnWorld_GetPotentialEnergy( const cnWorld* world );

/// Total linear momentum of the dynamic bodies.
CN_API cnVec3 cnWorld_GetLinearMomentum( const cnWorld* world );

/// Total angular momentum of the dynamic bodies about a world point: the sum of (c - point) x m v
/// and I_world w over the bodies (kg m^2/s); NaN (cnError_invalidArgument) for a point not finite.
CN_API cnVec3 cnWorld_GetAngularMomentum( const cnWorld* world, cnVec3 point );

/// Deepest overlap (m, >= 0) among the points of the touching contact manifolds, as found by the
/// last step's narrow phase (so the state at the start of that step); 0 when nothing overlaps.
CN_API double cnWorld_GetMaxPenetration( const cnWorld* world );

/// No more collision between bodies a and b (both directions); drops their contacts and wakes both.
CN_API bool cnWorld_DisableCollision( cnWorld* world, cnBodyId a, cnBodyId b );

/// Whether cnWorld_DisableCollision was called for this pair (joints' own rule not included).
CN_API bool cnWorld_IsCollisionDisabled( const cnWorld* world, cnBodyId a, cnBodyId b );

// ---------------------------------------------------------------------------------------------
// materials

/// Adds a material; returns its id, or -1 when def is invalid.
/// Material 0 exists from the start with cnDefaultMaterialDef() values.
CN_API cnMaterialId cnCreateMaterial( cnWorld* world, const cnMaterialDef* def );

/// Replaces the values of an existing material (bodies created later use the new density; touching
/// contacts take the new friction and restitution from the next step).
CN_API bool cnMaterial_SetDef( cnWorld* world, cnMaterialId id, const cnMaterialDef* def );

/// The definition of a material (name and texture point into the world's copy).
CN_API cnMaterialDef cnMaterial_GetDef( const cnWorld* world, cnMaterialId id );

/// Number of materials.
CN_API int cnWorld_GetMaterialCount( const cnWorld* world );

/// Finds a material by name; -1 when there is none.
CN_API cnMaterialId cnWorld_FindMaterial( const cnWorld* world, const char* name );

/// Overrides the combined friction and restitution of two materials (in either order), touching
/// contacts included.
CN_API bool cnWorld_SetMaterialPair( cnWorld* world, cnMaterialId a, cnMaterialId b, double friction,
									 double restitution );

/// Friction and restitution used when materials a and b touch (both 0 for an invalid id).
CN_API void cnWorld_GetMaterialPair( const cnWorld* world, cnMaterialId a, cnMaterialId b, double* friction,
									 double* restitution );

/// Combined friction of two materials: the geometric mean (equal materials keep their value).
CN_API double cnMixFriction( double friction1, double friction2 );

/// Combined restitution of two materials: the larger one (equal materials keep their value).
CN_API double cnMixRestitution( double restitution1, double restitution2 );

// ---------------------------------------------------------------------------------------------
// bodies
//
// Getters on an invalid id return NaN values (NULL names, -1 counts) and set cnError_invalidId.

/// Creates a body without shapes; the null id when def is invalid.
CN_API cnBodyId cnCreateBody( cnWorld* world, const cnBodyDef* def );

/// Destroys a body, its shapes, its contacts and the user forces on or towards it, waking what it
/// touched.
CN_API bool cnDestroyBody( cnWorld* world, cnBodyId id );

/// True when id refers to a live body of this world (never sets the error).
CN_API bool cnBody_IsValid( const cnWorld* world, cnBodyId id );

/// The body's name ("" when it has none).
CN_API const char* cnBody_GetName( const cnWorld* world, cnBodyId id );

/// Static, kinematic or dynamic.
CN_API cnBodyType cnBody_GetType( const cnWorld* world, cnBodyId id );

/// Position of the body origin.
CN_API cnVec3 cnBody_GetPosition( const cnWorld* world, cnBodyId id );

/// Orientation of the body frame.
CN_API cnQuat cnBody_GetOrientation( const cnWorld* world, cnBodyId id );

/// Transform of the body frame.
CN_API cnTransform cnBody_GetTransform( const cnWorld* world, cnBodyId id );

/// Moves a body (teleport) and wakes it.
CN_API bool cnBody_SetTransform( cnWorld* world, cnBodyId id, cnVec3 position, cnQuat orientation );

/// Centre of mass in world coordinates.
CN_API cnVec3 cnBody_GetWorldCenterOfMass( const cnWorld* world, cnBodyId id );

/// Centre of mass in body coordinates.
CN_API cnVec3 cnBody_GetLocalCenterOfMass( const cnWorld* world, cnBodyId id );

/// Velocity of the centre of mass.
CN_API cnVec3 cnBody_GetLinearVelocity( const cnWorld* world, cnBodyId id );

/// Angular velocity, world frame.
CN_API cnVec3 cnBody_GetAngularVelocity( const cnWorld* world, cnBodyId id );

/// Sets the velocity of the centre of mass and wakes the body.
CN_API bool cnBody_SetLinearVelocity( cnWorld* world, cnBodyId id, cnVec3 v );

/// Sets the angular velocity (world frame) and wakes the body.
CN_API bool cnBody_SetAngularVelocity( cnWorld* world, cnBodyId id, cnVec3 w );

/// Velocity of a world point moving with the body.
CN_API cnVec3 cnBody_GetPointVelocity( const cnWorld* world, cnBodyId id, cnVec3 worldPoint );

/// Applies a force (N) at a world point for the next step only, waking the body.
CN_API bool cnBody_ApplyForce( cnWorld* world, cnBodyId id, cnVec3 force, cnVec3 worldPoint );

/// Applies a torque (N m, world frame) for the next step only, waking the body.
CN_API bool cnBody_ApplyTorque( cnWorld* world, cnBodyId id, cnVec3 torque );

/// Applies an impulse (N s) at a world point now, waking the body.
CN_API bool cnBody_ApplyLinearImpulse( cnWorld* world, cnBodyId id, cnVec3 impulse, cnVec3 worldPoint );

/// Mass in kg (0 for static and kinematic bodies).
CN_API double cnBody_GetMass( const cnWorld* world, cnBodyId id );

/// Rotational inertia about the centre of mass in body coordinates.
CN_API cnMat3 cnBody_GetLocalInertia( const cnWorld* world, cnBodyId id );

/// Principal moments of inertia (ascending) and, if axes is given, the rotation from the principal
/// frame to the body frame.
CN_API cnVec3 cnBody_GetPrincipalInertia( const cnWorld* world, cnBodyId id, cnQuat* axes );

/// Overrides the mass: the density-derived mass and inertia are scaled to this mass (kg in [1e-150,
/// 1e150]); fails when the scaled inertia leaves that range.
CN_API bool cnBody_SetMass( cnWorld* world, cnBodyId id, double mass );

/// Sets mass, centre of mass (body coordinates) and inertia about it (body coordinates,
/// symmetric positive definite) directly, replacing what the shapes give; mass and moments in
/// [1e-150, 1e150].
CN_API bool cnBody_SetMassData( cnWorld* world, cnBodyId id, double mass, cnVec3 localCenter, cnMat3 inertia );

/// Kinetic energy of the body (J).
CN_API double cnBody_GetKineticEnergy( const cnWorld* world, cnBodyId id );

/// Angular momentum of the body about a world point, (c - point) x m v + I_world w with c its centre
/// of mass (about c itself: I_world w); zero for static and kinematic bodies, NaN for a bad id or point.
CN_API cnVec3 cnBody_GetAngularMomentum( const cnWorld* world, cnBodyId id, cnVec3 point );

/// True when the body is simulated this step (false when asleep; static bodies are never awake).
CN_API bool cnBody_IsAwake( const cnWorld* world, cnBodyId id );

/// Wakes (true) or puts to sleep (false) the body's whole island.
CN_API bool cnBody_SetAwake( cnWorld* world, cnBodyId id, bool awake );
/// Marks a body as a bullet: it gets continuous collision every step, against static shapes and
/// against the moving bodies at their final poses (docs/continuous.md). False when the id is stale.
CN_API bool cnBody_SetBullet( cnWorld* world, cnBodyId id, bool flag );
/// Whether a body is marked as a bullet (false when the id is stale).
CN_API bool cnBody_IsBullet( const cnWorld* world, cnBodyId id );

/// Gravity scale of the body.
CN_API double cnBody_GetGravityScale( const cnWorld* world, cnBodyId id );

/// The body as a def that would create it now: its current pose and velocities (of the origin), damping,
/// drag, sleep and bullet flags; the name is the world's (valid while the body lives). Defaults for a bad id.
CN_API cnBodyDef cnBody_GetDef( const cnWorld* world, cnBodyId id );

/// User data given in the body def (0 for an invalid id).
CN_API uint64_t cnBody_GetUserData( const cnWorld* world, cnBodyId id );

/// Number of shapes on the body (-1 for an invalid id).
CN_API int cnBody_GetShapeCount( const cnWorld* world, cnBodyId id );

/// Writes up to capacity shape ids of the body into shapes; returns how many were written.
CN_API int cnBody_GetShapes( const cnWorld* world, cnBodyId id, cnShapeId* shapes, int capacity );

/// Number of touching contact manifolds the body takes part in (-1 for an invalid id).
CN_API int cnBody_GetContactCount( const cnWorld* world, cnBodyId id );

// ---------------------------------------------------------------------------------------------
// shapes

/// Attaches a shape to a body and updates the body's mass properties. Returns the null id when def
/// is invalid (zero or negative size, plane on a non-static body, unknown material, ...) or when
/// the masses it derives leave the range the step can compute with: the shape's mass and moments
/// of inertia (density times size; at unit density for static and kinematic bodies) and the body's
/// totals with it must lie in [1e-150, 1e150] (docs/scene-format.md, "Derived quantities").
CN_API cnShapeId cnCreateShape( cnWorld* world, cnBodyId body, const cnShapeDef* def );

/// Removes a shape from its body (its contacts go with it), updates the body's mass properties and
/// wakes it. Fails (cnError_invalidArgument) when the mass properties left would be out of range.
CN_API bool cnDestroyShape( cnWorld* world, cnShapeId id );

/// True when id refers to a live shape of this world (never sets the error).
CN_API bool cnShape_IsValid( const cnWorld* world, cnShapeId id );

/// The definition the shape was created with (polygon vertices point into the world's copy).
CN_API cnShapeDef cnShape_GetDef( const cnWorld* world, cnShapeId id );

/// Gives one shape another material (touching contacts remix, another density updates the body's mass; wakes it).
CN_API bool cnShape_SetMaterial( cnWorld* world, cnShapeId id, cnMaterialId material );

/// The body the shape belongs to.
CN_API cnBodyId cnShape_GetBody( const cnWorld* world, cnShapeId id );

/// The shape's tight world bounding box as of the last step.
CN_API cnAABB cnShape_GetAABB( const cnWorld* world, cnShapeId id );

/// The shape frame in world coordinates.
CN_API cnTransform cnShape_GetTransform( const cnWorld* world, cnShapeId id );

// ---------------------------------------------------------------------------------------------
// user forces

/// Adds a persistent user force or torque on a body, active during [t0, t1) of simulated time;
/// the null id when def is invalid, including a vector whose length or moment overflows and one
/// that gives the body (at its current mass) an acceleration above 1e150. Forces apply in the order
/// of their ids' indices.
CN_API cnForceId cnCreateForce( cnWorld* world, const cnForceDef* def );

/// Removes a user force.
CN_API bool cnDestroyForce( cnWorld* world, cnForceId id );

/// True when id refers to a live force of this world (never sets the error).
CN_API bool cnForce_IsValid( const cnWorld* world, cnForceId id );

/// The definition of a user force.
CN_API cnForceDef cnForce_GetDef( const cnWorld* world, cnForceId id );

/// Number of live user forces.
CN_API int cnWorld_GetForceCount( const cnWorld* world );

/// The i-th live user force in index order (0 <= i < cnWorld_GetForceCount), null id when out of range.
CN_API cnForceId cnWorld_GetForce( const cnWorld* world, int i );

// ---------------------------------------------------------------------------------------------
// run loop

/// Runs the world for def->duration at def->fps: calls beforeStep, steps, calls afterStep, hands
/// every frameStride-th frame (frame 0 first, at the world's current time) to the writers, reports
/// progress, and at the end tells each writer to commit (finished) or discard (any other ending).
/// The result says how it ended; cnGetError says why when it failed.
CN_API cnRunResult cnRun( cnWorld* world, const cnRunDef* def );

/// Asks the world to stop: the step running now (or the next one) returns false with
/// cnError_cancelled at its next checkpoint, leaving the bodies where that step started, and a
/// cnRun ends as cancelled. Even a step that takes seconds (penalty methods on large stacks)
/// answers within one of its internal steps. Safe to call from a signal handler or another thread;
/// the request is consumed by the step that reports it.
CN_API void cnWorld_Cancel( cnWorld* world );

// ---------------------------------------------------------------------------------------------
// diagnostics

/// Asks the world to copy the contact system of its next step that has active contact points into
/// system (zeroed by the caller; it must stay valid until system->captured is set or the request is
/// withdrawn by passing NULL). Only the velocity-level methods assemble a contact system: for the
/// others this fails with cnError_unsupported. The step's results are the same with or without a
/// request.
CN_API bool cnWorld_CaptureContactSystem( cnWorld* world, cnContactSystem* system );

/// Frees a captured contact system's arrays and zeroes it (so it can capture again).
CN_API void cnContactSystem_Free( cnContactSystem* system );

/// The instability guard's last report (kind cnInstabilityKind_none when it has found nothing yet);
/// counts are in cnStats (instabilityCount, frozenBodyCount). See docs/reliability.md.
CN_API cnInstabilityReport cnWorld_GetInstabilityReport( const cnWorld* world );

#ifdef __cplusplus
}
#endif
