// SPDX-License-Identifier: MIT
// World queries and contact events (as Box2D v3 and Box3D offer them). Included by cairn/cairn.h.
//
// Queries read the world as the last step (or the last body or shape change) left it: ray casts,
// shape casts (a convex shape swept along a translation) and overlap tests, each through the broad
// phase's trees, each seeing only the shapes its filter lets through. They never change the world;
// a callback must not create or destroy bodies or shapes while a query runs.
//
// Contact events tell what the last step's narrow phase and method did: contacts that began or
// ended touching, and hits (contacts that were approaching faster than a threshold when the method
// stopped them). The arrays stay valid until the next step. docs/queries.md has the semantics.
#pragma once

#include "cairn/types.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// queries

/// Which shapes a query sees: a shape is seen when (shape.categoryBits & filter.maskBits) != 0 and
/// (shape.maskBits & filter.categoryBits) != 0, the shapes' own rule with the query as one side.
typedef struct cnQueryFilter
{
	uint64_t categoryBits;
	uint64_t maskBits;
} cnQueryFilter;

/// A convex shape to cast or test for overlap: sphere (radius >= 0: 0 casts a point), capsule,
/// box, cylinder (radius, halfHeight along local z, halfExtents as in cnShapeDef) or hull.
typedef struct cnShapeProxy
{
	cnShapeType type;
	double radius;
	double halfHeight;
	cnVec3 halfExtents;
	const cnHull* hull;
} cnShapeProxy;

/// The closest hit of a ray or shape cast.
typedef struct cnRayResult
{
	cnShapeId shapeId;
	cnBodyId bodyId;
	/// world point where the cast meets the shape's surface
	cnVec3 point;
	/// unit surface normal of the shape hit there, facing the cast
	cnVec3 normal;
	/// the hit lies at origin + fraction translation, fraction in [0, 1]
	double fraction;
	bool hit;
} cnRayResult;

/// Called for each shape a ray or shape cast hits, with the hit point, the hit shape's surface
/// normal there and the fraction of the translation. Return -1 to ignore the shape and go on, 0 to
/// stop the cast, the fraction to clip the cast there (later calls then only report nearer hits), or
/// 1 to go on unclipped. Calls come in no particular order.
typedef double cnCastResultFcn( cnShapeId shapeId, cnVec3 point, cnVec3 normal, double fraction, void* context );

/// Called for each shape an overlap query finds; return false to stop the query.
typedef bool cnOverlapResultFcn( cnShapeId shapeId, void* context );

/// Query filter defaults: category 1, every mask bit (sees every shape of default filtering).
CN_API cnQueryFilter cnDefaultQueryFilter( void );

/// A sphere proxy (radius >= 0).
CN_API cnShapeProxy cnMakeSphereProxy( double radius );

/// A box proxy of the given half extents.
CN_API cnShapeProxy cnMakeBoxProxy( cnVec3 halfExtents );

/// A capsule proxy along local z: radius and the half height of its segment.
CN_API cnShapeProxy cnMakeCapsuleProxy( double radius, double halfHeight );

/// A cylinder proxy along local z.
CN_API cnShapeProxy cnMakeCylinderProxy( double radius, double halfHeight );

/// A hull proxy (the caller keeps the hull alive while the proxy is used).
CN_API cnShapeProxy cnMakeHullProxy( const cnHull* hull );

/// Casts the segment origin + t translation, t in [0, 1], against the shapes the filter lets
/// through, calling fcn for hits as cnCastResultFcn says. A ray that starts inside a solid shape
/// (or under a plane) does not hit it; meshes and heightfields are hit from either side. False
/// (with the error set) on invalid input.
CN_API bool cnWorld_CastRay( const cnWorld* world, cnVec3 origin, cnVec3 translation, cnQueryFilter filter,
							 cnCastResultFcn* fcn, void* context );

/// The closest shape the segment origin + t translation hits (result.hit false when none).
CN_API cnRayResult cnWorld_CastRayClosest( const cnWorld* world, cnVec3 origin, cnVec3 translation,
										   cnQueryFilter filter );

/// Sweeps the proxy from transform (its frame in world coordinates) along translation, without
/// turning, and calls fcn with the first time of impact against each shape it meets: the point on
/// that shape, its normal facing the proxy and the fraction of the translation. A shape the proxy
/// already touches at the start is reported at fraction 0. False (with the error set) on invalid
/// input.
CN_API bool cnWorld_CastShape( const cnWorld* world, const cnShapeProxy* proxy, cnTransform transform,
							   cnVec3 translation, cnQueryFilter filter, cnCastResultFcn* fcn, void* context );

/// The first shape the proxy swept along translation meets (result.hit false when none).
CN_API cnRayResult cnWorld_CastShapeClosest( const cnWorld* world, const cnShapeProxy* proxy, cnTransform transform,
											 cnVec3 translation, cnQueryFilter filter );

/// Calls fcn for every shape whose tight box (cnShape_GetAABB) overlaps box (touching counts).
CN_API bool cnWorld_OverlapAABB( const cnWorld* world, cnAABB box, cnQueryFilter filter, cnOverlapResultFcn* fcn,
								 void* context );

/// Calls fcn for every shape the proxy at transform overlaps or touches (exact: distance <= 0).
CN_API bool cnWorld_OverlapShape( const cnWorld* world, const cnShapeProxy* proxy, cnTransform transform,
								  cnQueryFilter filter, cnOverlapResultFcn* fcn, void* context );

/// Casts the segment origin + t translation, t in [0, 1], against one shape (result.hit false when it
/// misses; filters are not applied).
CN_API cnRayResult cnShape_RayCast( const cnWorld* world, cnShapeId id, cnVec3 origin, cnVec3 translation );

// ---------------------------------------------------------------------------------------------
// contact events

/// Two shapes began touching: their contact has manifold points (which, as in Box2D, include
/// speculative points within the contact margin, so a begin may come a step before the surfaces meet).
typedef struct cnContactBeginTouchEvent
{
	cnShapeId shapeIdA, shapeIdB;
	/// the deepest manifold point and the normal from A to B
	cnVec3 point;
	cnVec3 normal;
} cnContactBeginTouchEvent;

/// Two shapes stopped touching, or their contact went away while touching (a shape or body
/// destroyed, collision disabled between the bodies, a joint that filters the pair). The ids may be
/// stale by then: check them with cnShape_IsValid.
typedef struct cnContactEndTouchEvent
{
	cnShapeId shapeIdA, shapeIdB;
} cnContactEndTouchEvent;

/// A contact was approaching faster than cnWorldDef.hitEventThreshold at the start of a step in
/// which the method stopped (or slowed) that approach: one event per impact.
typedef struct cnContactHitEvent
{
	cnShapeId shapeIdA, shapeIdB;
	/// the fastest approaching manifold point and the normal from A to B
	cnVec3 point;
	cnVec3 normal;
	/// approach speed along the normal at that point at the start of the step, m/s (> 0)
	double approachSpeed;
} cnContactHitEvent;

/// The contact events of the last step, valid until the next step (or the world's destruction).
typedef struct cnContactEvents
{
	const cnContactBeginTouchEvent* beginEvents;
	const cnContactEndTouchEvent* endEvents;
	const cnContactHitEvent* hitEvents;
	int beginCount;
	int endCount;
	int hitCount;
} cnContactEvents;

/// The contact events of the last step. End events of contacts removed between two steps (a
/// destroyed shape or body) come with the events of the next step.
CN_API cnContactEvents cnWorld_GetContactEvents( const cnWorld* world );

/// Sets the approach speed (m/s, finite, >= 0) above which contacts report hit events.
CN_API bool cnWorld_SetHitEventThreshold( cnWorld* world, double threshold );

/// Switches begin and end touch events on or off for the shape's contacts (either shape of a pair
/// asking is enough). A contact that reported a begin still reports its end.
CN_API bool cnShape_EnableContactEvents( cnWorld* world, cnShapeId id, bool flag );

/// Switches hit events on or off for the shape's contacts (either shape of a pair asking is enough).
CN_API bool cnShape_EnableHitEvents( cnWorld* world, cnShapeId id, bool flag );

// ---------------------------------------------------------------------------------------------
// contact data

/// One point of a contact manifold, as the last step's narrow phase found it and the method left it.
typedef struct cnContactPointData
{
	/// world point midway between the two surfaces, at the poses the last step started from
	cnVec3 point;
	/// unit normal of this point from shape A to shape B (the manifold's, except for planar polygon
	/// pairs, whose vertex-edge points each have their own)
	cnVec3 normal;
	/// signed distance between the surfaces along the normal: negative when they overlap, positive
	/// for a speculative point (within the contact margin, not touching yet)
	double separation;
	/// normal impulse at the point over the last step (N s, >= 0; its sum over a resting body's
	/// points is m g h, h the step): the impulse method's last sub-step's times its sub-step count,
	/// the velocity-level methods' own; 0 in the penalty, analytic-impulse and constraint methods,
	/// which keep no impulses
	double normalImpulse;
	/// size of the friction impulse at the point over the last step (N s, >= 0), as normalImpulse
	double tangentImpulse;
	/// largest normal impulse of one solver iteration in the last step (N s; the velocity-level
	/// methods: the step's): a sign of an impact, as Box2D's maxNormalImpulse
	double maxNormalImpulse;
	/// feature id: the same pair of features keeps its id from step to step
	uint32_t id;
} cnContactPointData;

/// A touching contact manifold between two shapes: up to four points sharing one normal.
typedef struct cnContactData
{
	cnShapeId shapeA, shapeB;
	cnBodyId bodyA, bodyB;
	/// unit normal from shape A to shape B
	cnVec3 normal;
	/// points in points[0 .. pointCount - 1], 1 to 4
	int pointCount;
	cnContactPointData points[4];
} cnContactData;

/// Writes the world's touching contact manifolds (every manifold with points, speculative ones
/// included, as Box2D v3 reports them; sleeping bodies' too) into data, at most capacity of them,
/// and returns how many there are (which may exceed capacity: capacity 0 with data NULL asks for the
/// count). -1 (with the error set) for a NULL or destroyed world or a negative capacity.
CN_API int cnWorld_GetContactData( const cnWorld* world, cnContactData* data, int capacity );

/// The same for the manifolds one body takes part in (-1 for an invalid id).
CN_API int cnBody_GetContactData( const cnWorld* world, cnBodyId id, cnContactData* data, int capacity );

/// The same for the manifolds one shape takes part in (-1 for an invalid id).
CN_API int cnShape_GetContactData( const cnWorld* world, cnShapeId id, cnContactData* data, int capacity );

#ifdef __cplusplus
}
#endif
