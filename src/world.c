// SPDX-License-Identifier: MIT
// The world: creation, the step pipeline, materials, user forces and world-wide queries.
#include "world.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool cnSetError( cnWorld* world, const char* fmt, ... )
{
	va_list args;
	va_start( args, fmt );
	vsnprintf( world->error, sizeof( world->error ), fmt, args );
	va_end( args );
	return false;
}

static char* cnDuplicateString( const char* s )
{
	if ( s == NULL )
	{
		return NULL;
	}
	size_t n = strlen( s ) + 1;
	char* copy = malloc( n );
	if ( copy != NULL )
	{
		memcpy( copy, s, n );
	}
	return copy;
}

static bool cnValidateMaterialDef( cnWorld* world, const cnMaterialDef* def )
{
	if ( def == NULL )
	{
		return cnSetError( world, "material def is NULL" );
	}
	if ( !isfinite( def->density ) || def->density < 0.0 )
	{
		return cnSetError( world, "material density must be finite and >= 0 (got %g)", def->density );
	}
	if ( !isfinite( def->friction ) || def->friction < 0.0 )
	{
		return cnSetError( world, "material friction must be finite and >= 0 (got %g)", def->friction );
	}
	if ( !isfinite( def->restitution ) || def->restitution < 0.0 || def->restitution > 1.0 )
	{
		return cnSetError( world, "material restitution must be in [0, 1] (got %g)", def->restitution );
	}
	if ( !isfinite( def->stiffness ) || def->stiffness < 0.0 || !isfinite( def->damping ) || def->damping < 0.0 )
	{
		return cnSetError( world, "material stiffness and damping must be finite and >= 0" );
	}
	return true;
}

static bool cnValidateWorldDef( const cnWorldDef* def, char* error, int errorCapacity )
{
	const char* why = NULL;
	if ( def == NULL )
	{
		why = "world def is NULL";
	}
	else if ( !cnIsValidVec3( def->gravity ) )
	{
		why = "gravity must be finite";
	}
	else if ( (int)def->method < 0 || def->method >= cnMethod_count )
	{
		why = "unknown contact method";
	}
	else if ( (int)def->lcpSolver < 0 || def->lcpSolver > cnLcp_lemke )
	{
		why = "unknown LCP solver";
	}
	else if ( (int)def->integrator < 0 || def->integrator > cnIntegrator_explicitEuler )
	{
		why = "unknown integrator";
	}
	else if ( !( def->errorTolerance > 0.0 ) || !isfinite( def->errorTolerance ) )
	{
		why = "errorTolerance must be finite and > 0";
	}
	else if ( def->subSteps < 1 || def->subSteps > 64 )
	{
		why = "subSteps must be in [1, 64]";
	}
	else if ( !( def->contactHertz > 0.0 ) || !( def->contactDampingRatio >= 0.0 ) || !( def->maxPushVelocity >= 0.0 ) ||
			  !isfinite( def->contactHertz ) || !isfinite( def->contactDampingRatio ) ||
			  !isfinite( def->maxPushVelocity ) )
	{
		why = "contact softness settings must be finite and positive";
	}
	else if ( !( def->restitutionThreshold >= 0.0 ) || !( def->linearSlop >= 0.0 ) ||
			  !( def->speculativeDistance >= 0.0 ) || !( def->timeToSleep >= 0.0 ) ||
			  !( def->sleepLinearThreshold >= 0.0 ) || !( def->sleepAngularThreshold >= 0.0 ) ||
			  !isfinite( def->restitutionThreshold + def->linearSlop + def->speculativeDistance + def->timeToSleep +
						 def->sleepLinearThreshold + def->sleepAngularThreshold ) )
	{
		why = "thresholds must be finite and >= 0";
	}
	if ( why != NULL )
	{
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "%s", why );
		}
		return false;
	}
	return true;
}

cnWorld* cnCreateWorld( const cnWorldDef* def, char* error, int errorCapacity )
{
	if ( !cnValidateWorldDef( def, error, errorCapacity ) )
	{
		return NULL;
	}
	cnWorld* world = calloc( 1, sizeof( cnWorld ) );
	if ( world == NULL )
	{
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "out of memory" );
		}
		return NULL;
	}
	world->magic = CN_WORLD_MAGIC;
	world->def = *def;
	world->gravity = def->gravity;
	world->freeBody = -1;
	world->freeShape = -1;
	cnPairMap_Create( &world->contactMap, 256 );
	cnPairMap_Create( &world->disabledPairs, 16 );
	cnBroadPhase_Create( &world->broadPhase );
	cnArena_Create( &world->arena, 1 << 20 );

	// material 0 is the default material
	cnMaterialDef material = cnDefaultMaterialDef();
	material.name = "default";
	cnWorld_CreateMaterial( world, &material );
	return world;
}

void cnDestroyWorld( cnWorld* world )
{
	if ( world == NULL || world->magic != CN_WORLD_MAGIC )
	{
		return;
	}
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		free( world->bodies[i].name );
	}
	free( world->bodies );
	for ( int i = 0; i < world->shapeCount; ++i )
	{
		cnFreeGeometry( &world->shapes[i].geom );
	}
	free( world->shapes );
	for ( int i = 0; i < world->contactCount; ++i )
	{
		cnFreeContact( world->contacts + i );
	}
	free( world->contacts );
	for ( int i = 0; i < world->materialCount; ++i )
	{
		free( world->materials[i].name );
		free( world->materials[i].texture );
	}
	free( world->materials );
	free( world->materialPairs );
	free( world->forces );
	for ( int i = 0; i < world->sleepIslandCount; ++i )
	{
		free( world->sleepIslands[i].bodies );
	}
	free( world->sleepIslands );
	cnPairMap_Destroy( &world->contactMap );
	cnPairMap_Destroy( &world->disabledPairs );
	cnBroadPhase_Destroy( &world->broadPhase );
	cnArena_Destroy( &world->arena );
	world->magic = 0;
	free( world );
}

const char* cnWorld_GetError( const cnWorld* world )
{
	return world != NULL ? world->error : "world is NULL";
}

static double cnSeconds( void )
{
	struct timespec ts;
	timespec_get( &ts, TIME_UTC );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Applies the user forces of the world's force table that are active at the current time.
static void cnApplyUserForces( cnWorld* world )
{
	for ( int i = 0; i < world->forceCount; ++i )
	{
		const cnForceDef* f = world->forces + i;
		if ( !( world->time >= f->t0 && world->time < f->t1 ) )
		{
			continue;
		}
		cnBody* body = cnGetBody( world, f->body );
		if ( body == NULL || body->type != cnBody_dynamic )
		{
			continue;
		}
		if ( body->awake == false )
		{
			cnWakeBody( world, body );
		}
		body->sleepTime = 0.0;

		if ( f->isTorque )
		{
			cnVec3 torque = f->frame == cnForce_body ? cnRotate( body->xf.q, f->vector ) : f->vector;
			body->torque = cnAdd( body->torque, torque );
			continue;
		}

		cnVec3 point = cnTransformPoint( body->xf, f->localPoint );
		cnVec3 force = f->vector;
		if ( f->frame == cnForce_body )
		{
			force = cnRotate( body->xf.q, f->vector );
		}
		else if ( f->frame == cnForce_target )
		{
			cnVec3 target = f->targetPoint;
			cnBody* targetBody = f->target.index >= 0 ? cnGetBody( world, f->target ) : NULL;
			if ( targetBody != NULL )
			{
				target = cnTransformPoint( targetBody->xf, f->targetPoint );
			}
			force = cnMulSV( cnLength( f->vector ), cnNormalize( cnSub( target, point ) ) );
		}
		body->force = cnAdd( body->force, force );
		body->torque = cnAdd( body->torque, cnCross( cnSub( point, body->center ), force ) );
	}
}

// Detects a non-finite state after a step, as MuJoCo does, so garbage never propagates silently.
static bool cnCheckState( cnWorld* world )
{
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->alive && b->type != cnBody_static )
		{
			if ( !cnIsValidVec3( b->center ) || !cnIsValidVec3( b->v ) || !cnIsValidVec3( b->w ) ||
				 !isfinite( b->xf.q.w + b->xf.q.x + b->xf.q.y + b->xf.q.z ) )
			{
				return cnSetError( world, "body '%s' has a non-finite state at t = %g", b->name ? b->name : "",
								   world->time );
			}
		}
	}
	return true;
}

bool cnWorld_Step( cnWorld* world, double timeStep )
{
	if ( world == NULL || world->magic != CN_WORLD_MAGIC )
	{
		return false;
	}
	if ( !isfinite( timeStep ) || timeStep < 0.0 )
	{
		return cnSetError( world, "time step must be finite and >= 0 (got %g)", timeStep );
	}
	if ( timeStep == 0.0 )
	{
		return true;
	}

	double t0 = cnSeconds();
	cnStats* s = &world->stats;

	// user forces of the force table (they wake their bodies)
	cnApplyUserForces( world );

	// broad phase: new pairs from shapes whose fat boxes moved
	double t1 = cnSeconds();
	cnUpdatePairs( world );

	// narrow phase: contact manifolds
	double t2 = cnSeconds();
	cnCollideContacts( world, timeStep );

	// solve: the contact method resolves contacts and integrates the bodies (the integrate part
	// times itself)
	double t3 = cnSeconds();
	s->integrateMs = 0.0;
	bool ok = true;
	switch ( world->def.method )
	{
		case cnMethod_impulse:
			cnSolveImpulse( world, timeStep );
			break;
		case cnMethod_lcp:
		case cnMethod_velocityProjection:
		case cnMethod_grLcp:
		case cnMethod_grVelocityProjection:
			ok = cnStepVelocityLevel( world, timeStep );
			break;
		case cnMethod_penalty:
			ok = cnStepPenalty( world, timeStep );
			break;
		case cnMethod_analyticImpulse:
			ok = cnStepAnalyticImpulse( world, timeStep );
			break;
		case cnMethod_constraint:
			ok = cnStepConstraint( world, timeStep );
			break;
		default:
			ok = cnSetError( world, "unknown method" );
			break;
	}
	if ( ok == false )
	{
		cnArena_Reset( &world->arena );
		return false;
	}

	// islands and sleep
	double t4 = cnSeconds();
	cnUpdateSleep( world, timeStep );
	double t5 = cnSeconds();

	cnArena_Reset( &world->arena );

	world->time += timeStep;
	world->stepCount += 1;

	s->broadPhaseMs = 1000.0 * ( t2 - t1 );
	s->narrowPhaseMs = 1000.0 * ( t3 - t2 );
	s->solveMs = 1000.0 * ( t4 - t3 ) - s->integrateMs;
	s->islandMs = 1000.0 * ( t5 - t4 );
	s->stepMs = 1000.0 * ( t5 - t0 );
	s->stepCount = world->stepCount;

	return cnCheckState( world );
}

double cnWorld_GetTime( const cnWorld* world )
{
	return world != NULL ? world->time : 0.0;
}

cnStats cnWorld_GetStats( const cnWorld* world )
{
	cnStats s = world->stats;
	s.bodyCount = world->liveBodyCount;
	s.shapeCount = world->liveShapeCount;
	s.contactCount = world->contactCount;
	s.bytes = (int64_t)world->arena.capacity;
	return s;
}

cnWorldDef cnWorld_GetDef( const cnWorld* world )
{
	cnWorldDef def = world->def;
	def.gravity = world->gravity;
	return def;
}

static void cnWakeAll( cnWorld* world )
{
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBody* b = world->bodies + i;
		if ( b->alive && b->type != cnBody_static )
		{
			cnWakeBody( world, b );
			b->sleepTime = 0.0;
		}
	}
}

void cnWorld_SetGravity( cnWorld* world, cnVec3 gravity )
{
	if ( !cnIsValidVec3( gravity ) )
	{
		cnSetError( world, "gravity must be finite" );
		return;
	}
	world->gravity = gravity;
	cnWakeAll( world );
}

cnVec3 cnWorld_GetGravity( const cnWorld* world )
{
	return world->gravity;
}

void cnWorld_EnableSleeping( cnWorld* world, bool flag )
{
	world->def.enableSleep = flag;
	if ( flag == false )
	{
		cnWakeAll( world );
	}
}

uint64_t cnWorld_Hash( const cnWorld* world )
{
	// FNV-1a over the bytes of every live body's position and orientation, in creation order
	uint64_t h = 14695981039346656037ull;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->alive == false )
		{
			continue;
		}
		double values[7] = { b->xf.p.x, b->xf.p.y, b->xf.p.z, b->xf.q.w, b->xf.q.x, b->xf.q.y, b->xf.q.z };
		const unsigned char* bytes = (const unsigned char*)values;
		for ( size_t k = 0; k < sizeof( values ); ++k )
		{
			h ^= bytes[k];
			h *= 1099511628211ull;
		}
	}
	return h;
}

int cnWorld_GetBodyCount( const cnWorld* world )
{
	return world->liveBodyCount;
}

cnBodyId cnWorld_GetBody( const cnWorld* world, int i )
{
	if ( i < 0 )
	{
		return cnBodyId_null;
	}
	for ( int k = 0, n = 0; k < world->bodyCount; ++k )
	{
		if ( world->bodies[k].alive )
		{
			if ( n == i )
			{
				cnBodyId id = { k, world->bodies[k].generation };
				return id;
			}
			n += 1;
		}
	}
	return cnBodyId_null;
}

cnBodyId cnWorld_FindBody( const cnWorld* world, const char* name )
{
	for ( int k = 0; name != NULL && k < world->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + k;
		if ( b->alive && b->name != NULL && strcmp( b->name, name ) == 0 )
		{
			cnBodyId id = { k, b->generation };
			return id;
		}
	}
	return cnBodyId_null;
}

double cnWorld_GetKineticEnergy( const cnWorld* world )
{
	double e = 0.0;
	for ( int k = 0; k < world->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + k;
		if ( b->alive && b->type == cnBody_dynamic )
		{
			cnVec3 wLocal = cnInvRotate( b->xf.q, b->w );
			e += 0.5 * b->mass * cnDot( b->v, b->v ) + 0.5 * cnDot( wLocal, cnMulMV( b->inertia, wLocal ) );
		}
	}
	return e;
}

double cnWorld_GetPotentialEnergy( const cnWorld* world )
{
	double e = 0.0;
	for ( int k = 0; k < world->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + k;
		if ( b->alive && b->type == cnBody_dynamic )
		{
			e -= b->mass * b->gravityScale * cnDot( world->gravity, b->center );
		}
	}
	return e;
}

cnVec3 cnWorld_GetLinearMomentum( const cnWorld* world )
{
	cnVec3 p = cnVec3_zero;
	for ( int k = 0; k < world->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + k;
		if ( b->alive && b->type == cnBody_dynamic )
		{
			p = cnMulAdd( p, b->mass, b->v );
		}
	}
	return p;
}

// ---------------------------------------------------------------------------------------------
// materials

cnMaterialId cnWorld_CreateMaterial( cnWorld* world, const cnMaterialDef* def )
{
	if ( !cnValidateMaterialDef( world, def ) )
	{
		return -1;
	}
	cnMaterial* materials = realloc( world->materials, (size_t)( world->materialCount + 1 ) * sizeof( cnMaterial ) );
	if ( materials == NULL )
	{
		cnSetError( world, "out of memory" );
		return -1;
	}
	world->materials = materials;
	cnMaterial* m = materials + world->materialCount;
	m->def = *def;
	m->name = cnDuplicateString( def->name );
	m->texture = cnDuplicateString( def->texture );
	m->def.name = m->name;
	m->def.texture = m->texture;
	return world->materialCount++;
}

bool cnWorld_SetMaterial( cnWorld* world, cnMaterialId id, const cnMaterialDef* def )
{
	if ( id < 0 || id >= world->materialCount )
	{
		return cnSetError( world, "invalid material id %d", id );
	}
	if ( !cnValidateMaterialDef( world, def ) )
	{
		return false;
	}
	cnMaterial* m = world->materials + id;
	char* name = cnDuplicateString( def->name != NULL ? def->name : m->name );
	char* texture = cnDuplicateString( def->texture );
	free( m->name );
	free( m->texture );
	m->def = *def;
	m->name = name;
	m->texture = texture;
	m->def.name = name;
	m->def.texture = texture;
	return true;
}

int cnWorld_GetMaterialCount( const cnWorld* world )
{
	return world->materialCount;
}

cnMaterialDef cnWorld_GetMaterial( const cnWorld* world, cnMaterialId id )
{
	if ( id < 0 || id >= world->materialCount )
	{
		return cnDefaultMaterialDef();
	}
	return world->materials[id].def;
}

cnMaterialId cnWorld_FindMaterial( const cnWorld* world, const char* name )
{
	for ( int i = 0; name != NULL && i < world->materialCount; ++i )
	{
		if ( world->materials[i].name != NULL && strcmp( world->materials[i].name, name ) == 0 )
		{
			return i;
		}
	}
	return -1;
}

bool cnWorld_SetMaterialPair( cnWorld* world, cnMaterialId a, cnMaterialId b, double friction, double restitution )
{
	if ( a < 0 || a >= world->materialCount || b < 0 || b >= world->materialCount )
	{
		return cnSetError( world, "invalid material id in pair (%d, %d)", a, b );
	}
	if ( !isfinite( friction ) || friction < 0.0 )
	{
		return cnSetError( world, "pair friction must be finite and >= 0 (got %g)", friction );
	}
	if ( !isfinite( restitution ) || restitution < 0.0 || restitution > 1.0 )
	{
		return cnSetError( world, "pair restitution must be in [0, 1] (got %g)", restitution );
	}
	for ( int i = 0; i < world->materialPairCount; ++i )
	{
		cnMaterialPair* p = world->materialPairs + i;
		if ( ( p->a == a && p->b == b ) || ( p->a == b && p->b == a ) )
		{
			p->friction = friction;
			p->restitution = restitution;
			return true;
		}
	}
	cnMaterialPair* pairs =
		realloc( world->materialPairs, (size_t)( world->materialPairCount + 1 ) * sizeof( cnMaterialPair ) );
	if ( pairs == NULL )
	{
		return cnSetError( world, "out of memory" );
	}
	world->materialPairs = pairs;
	pairs[world->materialPairCount++] = (cnMaterialPair){ a, b, friction, restitution };
	return true;
}

void cnMixMaterials( const cnWorld* world, cnMaterialId a, cnMaterialId b, double* friction, double* restitution )
{
	for ( int i = 0; i < world->materialPairCount; ++i )
	{
		const cnMaterialPair* p = world->materialPairs + i;
		if ( ( p->a == a && p->b == b ) || ( p->a == b && p->b == a ) )
		{
			*friction = p->friction;
			*restitution = p->restitution;
			return;
		}
	}
	const cnMaterialDef* ma = &world->materials[a].def;
	const cnMaterialDef* mb = &world->materials[b].def;
	*friction = cnMixFriction( ma->friction, mb->friction );
	*restitution = cnMixRestitution( ma->restitution, mb->restitution );
}

void cnWorld_GetMaterialPair( const cnWorld* world, cnMaterialId a, cnMaterialId b, double* friction,
							  double* restitution )
{
	if ( a < 0 || a >= world->materialCount || b < 0 || b >= world->materialCount )
	{
		*friction = 0.0;
		*restitution = 0.0;
		return;
	}
	cnMixMaterials( world, a, b, friction, restitution );
}

// ---------------------------------------------------------------------------------------------
// collision control and user forces

bool cnWorld_DisableCollision( cnWorld* world, cnBodyId a, cnBodyId b )
{
	cnBody* bodyA = cnGetBody( world, a );
	cnBody* bodyB = cnGetBody( world, b );
	if ( bodyA == NULL || bodyB == NULL )
	{
		return false;
	}
	if ( a.index == b.index )
	{
		return cnSetError( world, "cannot disable collision of a body with itself" );
	}
	cnPairMap_Insert( &world->disabledPairs, cnPairKey( a.index, b.index ), 1 );

	// drop existing contacts between the two bodies
	for ( int i = world->contactCount - 1; i >= 0; --i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->bodyA == a.index && c->bodyB == b.index ) || ( c->bodyA == b.index && c->bodyB == a.index ) )
		{
			cnDestroyContact( world, i );
		}
	}
	if ( bodyA->type != cnBody_static )
	{
		cnWakeBody( world, bodyA );
	}
	if ( bodyB->type != cnBody_static )
	{
		cnWakeBody( world, bodyB );
	}
	return true;
}

int cnWorld_CreateForce( cnWorld* world, const cnForceDef* def )
{
	if ( def == NULL )
	{
		cnSetError( world, "force def is NULL" );
		return -1;
	}
	cnBody* body = cnGetBody( world, def->body );
	if ( body == NULL )
	{
		return -1;
	}
	if ( !cnIsValidVec3( def->localPoint ) || !cnIsValidVec3( def->vector ) || !cnIsValidVec3( def->targetPoint ) )
	{
		cnSetError( world, "force point, vector and target must be finite" );
		return -1;
	}
	if ( isnan( def->t0 ) || isnan( def->t1 ) || def->t1 < def->t0 )
	{
		cnSetError( world, "force time window [%g, %g) is invalid", def->t0, def->t1 );
		return -1;
	}
	if ( (int)def->frame < 0 || def->frame > cnForce_target || ( def->isTorque && def->frame == cnForce_target ) )
	{
		cnSetError( world, "invalid force frame" );
		return -1;
	}
	if ( def->frame == cnForce_target && def->target.index >= 0 && cnGetBody( world, def->target ) == NULL )
	{
		return -1;
	}
	cnForceDef* forces = realloc( world->forces, (size_t)( world->forceCount + 1 ) * sizeof( cnForceDef ) );
	if ( forces == NULL )
	{
		cnSetError( world, "out of memory" );
		return -1;
	}
	world->forces = forces;
	forces[world->forceCount] = *def;
	return world->forceCount++;
}

int cnWorld_GetForceCount( const cnWorld* world )
{
	return world->forceCount;
}

cnForceDef cnWorld_GetForce( const cnWorld* world, int index )
{
	if ( index < 0 || index >= world->forceCount )
	{
		return cnDefaultForceDef();
	}
	return world->forces[index];
}
