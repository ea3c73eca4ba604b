// SPDX-License-Identifier: MIT
// Scene-building helpers shared by the physics tests: a world, a material, a static ground plane,
// and a body with one sphere or box shape. Each test file keeps its own small wrappers with the
// arguments it cares about; the worlds and bodies are built here once.
#pragma once

#include "cairn/cairn.h"
#include "test.h"

/// A contact method, the LCP solver of its velocity-level solve, and its name in messages.
typedef struct tbConfig
{
	cnMethod method;
	cnLcpSolver solver;
	const char* label;
} tbConfig;

/// The default world definition with the given method and gravity and sleeping off (sleeping would
/// hide drift: the tests watch the method itself).
static inline cnWorldDef tbWorldDef( cnMethod method, cnVec3 gravity )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.method = method;
	def.gravity = gravity;
	def.enableSleep = false;
	return def;
}

/// Creates the world of def, checking that it was created.
static inline cnWorld* tbCreateWorld( const cnWorldDef* def )
{
	cnWorld* world = cnCreateWorld( def );
	CHECK( world != NULL );
	return world;
}

/// A world with the given method and gravity, sleeping off.
static inline cnWorld* tbWorld( cnMethod method, cnVec3 gravity )
{
	cnWorldDef def = tbWorldDef( method, gravity );
	return tbCreateWorld( &def );
}

/// A world with the given method, LCP solver and gravity, sleeping off.
static inline cnWorld* tbWorldLcp( cnMethod method, cnLcpSolver solver, cnVec3 gravity )
{
	cnWorldDef def = tbWorldDef( method, gravity );
	def.settings.velocity.lcpSolver = solver;
	return tbCreateWorld( &def );
}

/// A world with the method and LCP solver of config and the given gravity, sleeping off.
static inline cnWorld* tbConfigWorld( const tbConfig* config, cnVec3 gravity )
{
	return tbWorldLcp( config->method, config->solver, gravity );
}

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

/// A material with the given friction and restitution and a static ground plane z = 0 of it;
/// returns the material.
static inline cnMaterialId tbGround( cnWorld* world, double friction, double restitution )
{
	cnMaterialId material = tbMaterial( world, friction, restitution );
	tbPlane( world, cnV3( 0, 0, 1 ), material );
	return material;
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

/// A point mass (AERO): a dynamic body with a mass and no shapes.
static inline cnBodyId tbPointMass( cnWorld* world, cnVec3 position, double mass )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = cnBody_dynamic;
	bd.position = position;
	cnBodyId id = cnCreateBody( world, &bd );
	CHECK( cnBody_SetMass( world, id, mass ) );
	return id;
}
