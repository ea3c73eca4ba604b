// SPDX-License-Identifier: MIT
// Scene-building helpers shared by the physics tests: a material, a static ground plane, and a
// body with one sphere or box shape. Each test file keeps its own small wrappers with the
// arguments it cares about; the bodies are built here once.
#pragma once

#include "cairn/cairn.h"
#include "test.h"

/// A material with the given friction and restitution (defaults otherwise).
static inline cnMaterialId tbMaterial( cnWorld* world, double friction, double restitution )
{
	cnMaterialDef md = cnDefaultMaterialDef();
	md.friction = friction;
	md.restitution = restitution;
	return cnCreateMaterial( world, &md );
}

/// A body of the given type, pose and velocity carrying one shape.
static inline cnBodyId tbBody( cnWorld* world, cnBodyType type, cnVec3 position, cnQuat q, cnVec3 velocity,
							   const cnShapeDef* shape )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = type;
	bd.position = position;
	bd.orientation = q;
	if ( type != cnBody_static )
	{
		bd.linearVelocity = velocity;
	}
	cnBodyId id = cnCreateBody( world, &bd );
	CHECK( cnCreateShape( world, id, shape ).index >= 0 );
	return id;
}

/// A static plane through the origin with the given unit normal.
static inline cnBodyId tbPlane( cnWorld* world, cnVec3 normal, cnMaterialId material )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_plane;
	sd.normal = normal;
	sd.offset = 0.0;
	sd.material = material;
	return tbBody( world, cnBody_static, cnVec3_zero, cnQuat_identity, cnVec3_zero, &sd );
}

/// A body with one sphere.
static inline cnBodyId tbSphere( cnWorld* world, cnBodyType type, cnVec3 position, cnVec3 velocity, double radius,
								 cnMaterialId material )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.radius = radius;
	sd.material = material;
	return tbBody( world, type, position, cnQuat_identity, velocity, &sd );
}

/// A body with one box.
static inline cnBodyId tbBox( cnWorld* world, cnBodyType type, cnVec3 position, cnQuat q, cnVec3 velocity,
							  cnVec3 halfExtents, cnMaterialId material )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_box;
	sd.halfExtents = halfExtents;
	sd.material = material;
	return tbBody( world, type, position, q, velocity, &sd );
}
