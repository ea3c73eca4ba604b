// SPDX-License-Identifier: MIT
// Cairn: rigid body simulation and physically based animation. The public C API.
//
// A world owns bodies, shapes, materials and user forces. Bodies and shapes are referred to by
// small value ids (index + generation) that every call validates, so a stale or foreign id fails
// softly: the call returns false, a null id or a zero value, and cnWorld_GetError() says why.
// The library never exits the process and keeps no global mutable state: every world is
// independent, and two worlds may be stepped from two threads at once.
#pragma once

#include "cairn/math.h"
#include "cairn/types.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// errors
//
// A call that fails returns false, a null id, NULL or NaN and records why in the calling thread's
// error state: a code and a one-line message. A call that can fail clears that state when it
// starts, so after any call cnGetErrorCode() says whether that call failed. The state is
// thread-local: it is the library's only mutable state outside the objects it creates.

/// Message of the calling thread's last failed call ("" when the last call succeeded).
const char* cnGetError( void );

/// Code of the calling thread's last failed call (cnError_none when the last call succeeded).
cnErrorCode cnGetErrorCode( void );

/// Clears the calling thread's error state.
void cnClearError( void );

/// Name of an error code ("invalid argument", ...).
const char* cnErrorCodeName( cnErrorCode code );

// ---------------------------------------------------------------------------------------------
// names

/// Library version string, "major.minor.patch".
const char* cnVersionString( void );

/// Canonical name of a contact method ("impulse", ...).
const char* cnMethodName( cnMethod method );

/// Parses a method name; returns false when the name is unknown.
bool cnMethodFromName( const char* name, cnMethod* method );

/// Name of a shape type ("sphere", "box", ...).
const char* cnShapeTypeName( cnShapeType type );

/// Name of a body type ("static", "kinematic", "dynamic").
const char* cnBodyTypeName( cnBodyType type );

/// Combined friction of two materials: the geometric mean (equal materials keep their value).
double cnMixFriction( double friction1, double friction2 );

/// Combined restitution of two materials: the larger one (equal materials keep their value).
double cnMixRestitution( double restitution1, double restitution2 );

// ---------------------------------------------------------------------------------------------
// world

/// Creates a world. Returns NULL and writes a message into error (if given) when def is invalid.
cnWorld* cnCreateWorld( const cnWorldDef* def, char* error, int errorCapacity );

/// Destroys a world and everything in it.
void cnDestroyWorld( cnWorld* world );

/// Message of the last failed call on this world ("" when none failed).
const char* cnWorld_GetError( const cnWorld* world );

/// Advances the world by timeStep seconds. Returns false (and sets the error) on invalid input or
/// when the state became non-finite; the state is then left as it was before the step.
bool cnWorld_Step( cnWorld* world, double timeStep );

/// Simulated time: the sum of all step sizes so far.
double cnWorld_GetTime( const cnWorld* world );

/// Timings of the last step and current counters.
cnStats cnWorld_GetStats( const cnWorld* world );

/// The settings the world was created with (gravity may have changed since).
cnWorldDef cnWorld_GetDef( const cnWorld* world );

/// Sets gravity (m/s^2) and wakes every body.
void cnWorld_SetGravity( cnWorld* world, cnVec3 gravity );

/// Current gravity.
cnVec3 cnWorld_GetGravity( const cnWorld* world );

/// Switches sleeping on or off for the whole world (off wakes every body).
void cnWorld_EnableSleeping( cnWorld* world, bool flag );

/// 64-bit FNV-1a hash of the positions and orientations of all live bodies in creation order.
uint64_t cnWorld_Hash( const cnWorld* world );

/// Number of live bodies.
int cnWorld_GetBodyCount( const cnWorld* world );

/// The i-th live body in creation order (0 <= i < cnWorld_GetBodyCount), null id when out of range.
cnBodyId cnWorld_GetBody( const cnWorld* world, int i );

/// Finds a body by name; null id when there is none.
cnBodyId cnWorld_FindBody( const cnWorld* world, const char* name );

/// Total kinetic energy of all bodies (J).
double cnWorld_GetKineticEnergy( const cnWorld* world );

/// Total gravitational potential energy -m g.x of all dynamic bodies, zero at the origin (J).
double cnWorld_GetPotentialEnergy( const cnWorld* world );

/// Total linear momentum of the dynamic bodies.
cnVec3 cnWorld_GetLinearMomentum( const cnWorld* world );

/// Deepest overlap (m, >= 0) among the points of the touching contact manifolds, as found by the
/// last step's narrow phase (so the state at the start of that step); 0 when nothing overlaps.
double cnWorld_GetMaxPenetration( const cnWorld* world );

// ---------------------------------------------------------------------------------------------
// materials

/// Adds a material; returns its id, or -1 (with the error set) when def is invalid.
/// Material 0 exists from the start with cnDefaultMaterialDef() values.
cnMaterialId cnWorld_CreateMaterial( cnWorld* world, const cnMaterialDef* def );

/// Replaces the values of an existing material (bodies created later use the new density).
bool cnWorld_SetMaterial( cnWorld* world, cnMaterialId id, const cnMaterialDef* def );

/// Number of materials.
int cnWorld_GetMaterialCount( const cnWorld* world );

/// The definition of a material (name and texture point into the world's copy).
cnMaterialDef cnWorld_GetMaterial( const cnWorld* world, cnMaterialId id );

/// Finds a material by name; -1 when there is none.
cnMaterialId cnWorld_FindMaterial( const cnWorld* world, const char* name );

/// Overrides the combined friction and restitution of two materials (in either order).
bool cnWorld_SetMaterialPair( cnWorld* world, cnMaterialId a, cnMaterialId b, double friction, double restitution );

/// Friction and restitution used when materials a and b touch.
void cnWorld_GetMaterialPair( const cnWorld* world, cnMaterialId a, cnMaterialId b, double* friction,
							  double* restitution );

// ---------------------------------------------------------------------------------------------
// bodies

/// Creates a body without shapes; returns the null id (with the error set) when def is invalid.
cnBodyId cnWorld_CreateBody( cnWorld* world, const cnBodyDef* def );

/// Destroys a body, its shapes and its contacts, waking what it touched.
bool cnBody_Destroy( cnWorld* world, cnBodyId id );

/// True when id refers to a live body of this world.
bool cnBody_IsValid( const cnWorld* world, cnBodyId id );

/// The body's name ("" when it has none).
const char* cnBody_GetName( const cnWorld* world, cnBodyId id );

/// Static, kinematic or dynamic.
cnBodyType cnBody_GetType( const cnWorld* world, cnBodyId id );

/// Position of the body origin.
cnVec3 cnBody_GetPosition( const cnWorld* world, cnBodyId id );

/// Orientation of the body frame.
cnQuat cnBody_GetOrientation( const cnWorld* world, cnBodyId id );

/// Transform of the body frame.
cnTransform cnBody_GetTransform( const cnWorld* world, cnBodyId id );

/// Moves a body (teleport) and wakes it.
bool cnBody_SetTransform( cnWorld* world, cnBodyId id, cnVec3 position, cnQuat orientation );

/// Centre of mass in world coordinates.
cnVec3 cnBody_GetWorldCenterOfMass( const cnWorld* world, cnBodyId id );

/// Centre of mass in body coordinates.
cnVec3 cnBody_GetLocalCenterOfMass( const cnWorld* world, cnBodyId id );

/// Velocity of the centre of mass.
cnVec3 cnBody_GetLinearVelocity( const cnWorld* world, cnBodyId id );

/// Angular velocity, world frame.
cnVec3 cnBody_GetAngularVelocity( const cnWorld* world, cnBodyId id );

/// Sets the velocity of the centre of mass and wakes the body.
bool cnBody_SetLinearVelocity( cnWorld* world, cnBodyId id, cnVec3 v );

/// Sets the angular velocity (world frame) and wakes the body.
bool cnBody_SetAngularVelocity( cnWorld* world, cnBodyId id, cnVec3 w );

/// Velocity of a world point moving with the body.
cnVec3 cnBody_GetPointVelocity( const cnWorld* world, cnBodyId id, cnVec3 worldPoint );

/// Applies a force (N) at a world point for the next step only, waking the body.
bool cnBody_ApplyForce( cnWorld* world, cnBodyId id, cnVec3 force, cnVec3 worldPoint );

/// Applies a torque (N m, world frame) for the next step only, waking the body.
bool cnBody_ApplyTorque( cnWorld* world, cnBodyId id, cnVec3 torque );

/// Applies an impulse (N s) at a world point now, waking the body.
bool cnBody_ApplyLinearImpulse( cnWorld* world, cnBodyId id, cnVec3 impulse, cnVec3 worldPoint );

/// Mass in kg (0 for static and kinematic bodies).
double cnBody_GetMass( const cnWorld* world, cnBodyId id );

/// Rotational inertia about the centre of mass in body coordinates.
cnMat3 cnBody_GetLocalInertia( const cnWorld* world, cnBodyId id );

/// Principal moments of inertia (ascending) and, if axes is given, the rotation from the principal
/// frame to the body frame.
cnVec3 cnBody_GetPrincipalInertia( const cnWorld* world, cnBodyId id, cnQuat* axes );

/// Overrides the mass: the density-derived mass and inertia are scaled to this mass (kg > 0).
bool cnBody_SetMass( cnWorld* world, cnBodyId id, double mass );

/// Sets mass, centre of mass (body coordinates) and inertia about it (body coordinates,
/// symmetric positive definite) directly, replacing what the shapes give.
bool cnBody_SetMassData( cnWorld* world, cnBodyId id, double mass, cnVec3 localCenter, cnMat3 inertia );

/// Kinetic energy of the body (J).
double cnBody_GetKineticEnergy( const cnWorld* world, cnBodyId id );

/// True when the body is simulated this step (false when asleep; static bodies are never awake).
bool cnBody_IsAwake( const cnWorld* world, cnBodyId id );

/// Wakes (true) or puts to sleep (false) the body's whole island.
bool cnBody_SetAwake( cnWorld* world, cnBodyId id, bool awake );

/// Gravity scale of the body.
double cnBody_GetGravityScale( const cnWorld* world, cnBodyId id );

/// User data given in the body def.
uint64_t cnBody_GetUserData( const cnWorld* world, cnBodyId id );

/// Number of shapes on the body.
int cnBody_GetShapeCount( const cnWorld* world, cnBodyId id );

/// Writes up to capacity shape ids of the body into shapes; returns how many were written.
int cnBody_GetShapes( const cnWorld* world, cnBodyId id, cnShapeId* shapes, int capacity );

/// Number of touching contact manifolds the body takes part in.
int cnBody_GetContactCount( const cnWorld* world, cnBodyId id );

// ---------------------------------------------------------------------------------------------
// shapes

/// Attaches a shape to a body and updates the body's mass properties.
/// Returns the null id (with the error set) when def is invalid (zero or negative size, plane on a
/// non-static body, unknown material, ...).
cnShapeId cnCreateShape( cnWorld* world, cnBodyId body, const cnShapeDef* def );

/// True when id refers to a live shape of this world.
bool cnShape_IsValid( const cnWorld* world, cnShapeId id );

/// The definition the shape was created with.
cnShapeDef cnShape_GetDef( const cnWorld* world, cnShapeId id );

/// The body the shape belongs to.
cnBodyId cnShape_GetBody( const cnWorld* world, cnShapeId id );

/// The shape's tight world bounding box as of the last step.
cnAABB cnShape_GetAABB( const cnWorld* world, cnShapeId id );

/// The shape frame in world coordinates.
cnTransform cnShape_GetTransform( const cnWorld* world, cnShapeId id );

// ---------------------------------------------------------------------------------------------
// collision control and user forces

/// Stops all collision between two bodies (both directions); wakes both.
bool cnWorld_DisableCollision( cnWorld* world, cnBodyId a, cnBodyId b );

/// Adds a persistent user force or torque active during [t0, t1); returns its index or -1.
int cnWorld_CreateForce( cnWorld* world, const cnForceDef* def );

/// Number of user forces.
int cnWorld_GetForceCount( const cnWorld* world );

/// The definition of a user force.
cnForceDef cnWorld_GetForce( const cnWorld* world, int index );

#ifdef __cplusplus
}
#endif
