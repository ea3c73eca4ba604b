// SPDX-License-Identifier: MIT
// Shapes: creation with validation, bounding boxes and their broad-phase proxies.
#include "shape.h"

#include "collision/hull.h"
#include "collision/mesh.h"
#include "core.h"
#include "error.h"
#include "island.h"
#include "lookup.h"
#include "mass.h"
#include "world.h"

#include <stdlib.h>
#include <string.h>

// Fat boxes are larger than the shape by this margin so a slowly moving shape does not touch the
// broad phase every step (metres).
#define CN_AABB_MARGIN 0.1

// Most vertices of a polygon shape: collide_polygon.c packs a vertex and an edge index in 15 bits each.
#define CN_MAX_POLYGON_VERTICES 32767


bool cnValidateShapeDef( const cnWorld* world, const cnBody* body, const cnShapeDef* def )
{
	if ( (int)def->type < 0 || def->type >= cnShape_count )
	{
		return cnSetError( cnError_invalidArgument, "invalid shape type %d", (int)def->type );
	}
	if ( !cnIsValidVec3( def->position ) )
	{
		return cnSetError( cnError_invalidArgument, "shape position must be finite" );
	}
	double qn = cnQuatLength( def->orientation );
	if ( !isfinite( qn ) || fabs( qn - 1.0 ) > 1e-6 )
	{
		return cnSetError( cnError_invalidArgument, "shape orientation must be a unit quaternion (norm %g)", qn );
	}
	if ( def->material < 0 || def->material >= world->materialCount )
	{
		return cnSetError( cnError_invalidArgument, "invalid material id %d", def->material );
	}
	switch ( def->type )
	{
		case cnShape_sphere:
			if ( !isfinite( def->radius ) || def->radius <= 0.0 )
			{
				return cnSetError( cnError_invalidArgument, "sphere radius must be finite and > 0 (got %g)", def->radius );
			}
			break;
		case cnShape_box:
			if ( !cnIsValidVec3( def->halfExtents ) || def->halfExtents.x <= 0.0 || def->halfExtents.y <= 0.0 ||
				 def->halfExtents.z <= 0.0 )
			{
				return cnSetError( cnError_invalidArgument, "box half extents must be finite and > 0 (got %g, %g, %g)", def->halfExtents.x,
								   def->halfExtents.y, def->halfExtents.z );
			}
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			if ( !isfinite( def->radius ) || def->radius <= 0.0 )
			{
				return cnSetError( cnError_invalidArgument, "%s radius must be finite and > 0 (got %g)", cnShapeType_GetName( def->type ),
								   def->radius );
			}
			if ( !isfinite( def->halfHeight ) || def->halfHeight <= 0.0 )
			{
				return cnSetError( cnError_invalidArgument, "%s half height must be finite and > 0 (got %g)",
								   cnShapeType_GetName( def->type ), def->halfHeight );
			}
			break;
		case cnShape_plane:
			if ( body->type != cnBody_static )
			{
				return cnSetError( cnError_invalidArgument, "a plane can only belong to a static body" );
			}
			// any finite non-zero normal will do: cnUnitNormal scales it before normalising, so neither
			// [1e300, 1e300, 0] nor [1e-200, 0, 1e-200] is lost to overflow or underflow
			bool zero = def->normal.x == 0.0 && def->normal.y == 0.0 && def->normal.z == 0.0;
			if ( !cnIsValidVec3( def->normal ) || zero || !isfinite( def->offset ) )
			{
				return cnSetError( cnError_invalidArgument,
								   "plane normal must be finite and not zero (got %g, %g, %g), offset finite (got %g)",
								   def->normal.x, def->normal.y, def->normal.z, def->offset );
			}
			break;
		case cnShape_polygon:
			// planar polygons (FOSSSim bodies): vertices in the shape's xy-plane, which must be the
			// world's xy-plane, and at most 2^15 - 1 of them (collide_polygon.c packs indices in ids)
			if ( world->def.planar == false )
			{
				return cnSetError( cnError_invalidArgument, "a polygon shape needs a planar world" );
			}
			if ( def->vertexCount < 2 || def->vertexCount > CN_MAX_POLYGON_VERTICES || def->vertices == NULL )
			{
				return cnSetError( cnError_invalidArgument, "a polygon needs 2 to %d vertices (got %d%s)", CN_MAX_POLYGON_VERTICES,
								   def->vertexCount, def->vertices == NULL ? ", vertices NULL" : "" );
			}
			for ( int i = 0; i < def->vertexCount; ++i )
			{
				if ( !cnIsValidVec3( def->vertices[i] ) || def->vertices[i].z != 0.0 )
				{
					return cnSetError( cnError_invalidArgument, "polygon vertex %d must be finite with z = 0", i );
				}
				// the collision squares edge lengths and distances to edges: they must stay finite
				if ( !isfinite( cnLengthSquared( def->vertices[i] ) ) )
				{
					return cnSetError( cnError_invalidArgument,
									   "polygon vertex %d (%g, %g) is too far from the shape origin: its squared "
									   "distance overflows",
									   i, def->vertices[i].x, def->vertices[i].y );
				}
				int next = ( i + 1 ) % def->vertexCount;
				if ( !isfinite( cnLengthSquared( cnSub( def->vertices[next], def->vertices[i] ) ) ) )
				{
					return cnSetError( cnError_invalidArgument,
									   "polygon edge from vertex %d to %d is too long: its squared length overflows", i,
									   next );
				}
			}
			if ( !isfinite( def->radius ) || def->radius <= 0.0 || !isfinite( def->radius * def->radius ) )
			{
				return cnSetError( cnError_invalidArgument,
								   "polygon radius must be finite and > 0 with a finite square (got %g)", def->radius );
			}
			if ( fabs( def->orientation.x ) > 1e-12 || fabs( def->orientation.y ) > 1e-12 || def->position.z != 0.0 )
			{
				return cnSetError( cnError_invalidArgument, "a polygon shape may only be turned about z and moved in the xy-plane" );
			}
			break;
		case cnShape_hull:
			if ( def->hull == NULL )
			{
				return cnSetError( cnError_invalidArgument, "a hull shape needs a hull (cnCreateHull)" );
			}
			break;
		case cnShape_mesh:
			if ( def->mesh == NULL )
			{
				return cnSetError( cnError_invalidArgument, "a mesh shape needs a mesh (cnCreateMesh)" );
			}
			// a moving mesh needs an inside: its mass comes from its volume and its contacts push
			// outwards (Kleppmann's closed meshes); a static one may be any triangle soup
			if ( body->type == cnBody_dynamic && def->mesh->solid == false )
			{
				return cnSetError( cnError_invalidArgument,
								   "a mesh on a dynamic body must be closed, manifold and wound outwards: %s",
								   def->mesh->defect );
			}
			break;
		case cnShape_heightfield:
			if ( def->heightfield == NULL )
			{
				return cnSetError( cnError_invalidArgument, "a heightfield shape needs a heightfield (cnCreateHeightfield)" );
			}
			if ( body->type != cnBody_static )
			{
				return cnSetError( cnError_invalidArgument, "a heightfield can only belong to a static body" );
			}
			break;
		default:
			break;
	}
	if ( world->def.planar && ( def->type == cnShape_mesh || def->type == cnShape_heightfield ) &&
		 body->type != cnBody_static )
	{
		return cnSetError( cnError_invalidArgument, "a planar world takes meshes on static bodies only" );
	}

	// a solid's mass and inertia come from products of its sizes: they must stay in the double range
	// (a radius of 1e-300 weighs 0 kg, one of 1e200 has an infinite volume). Dynamic bodies are checked
	// at the material's density; the others, whose mass is not used, at unit density, which still
	// catches sizes whose squares and cubes leave the range.
	if ( def->type != cnShape_plane && def->type != cnShape_polygon && def->type != cnShape_heightfield &&
		 ( def->type != cnShape_mesh || def->mesh->solid ) )
	{
		cnGeometry g = { 0 };
		g.type = def->type;
		g.radius = def->radius;
		g.halfExtents = def->halfExtents;
		g.halfHeight = def->halfHeight;
		g.hull = def->hull;
		g.mesh = def->mesh;
		double density = world->materials[def->material].def.density;
		// a zero density (a massless shape) leaves only the size to check
		bool sizeOnly = body->type != cnBody_dynamic || density == 0.0;
		if ( cnCheckShapeMass( &g, sizeOnly ? 1.0 : density, sizeOnly ) == false )
		{
			return false;
		}
	}
	return true;
}

// The unit normal of a plane given a finite non-zero normal of any length: divided by its largest
// component first, so its squared length cannot overflow or underflow, then normalised.
static cnVec3 cnUnitNormal( cnVec3 n )
{
	double largest = fmax( fabs( n.x ), fmax( fabs( n.y ), fabs( n.z ) ) );
	cnVec3 scaled = cnMulSV( 1.0 / largest, n );
	// 1 / largest overflows for a subnormal largest component: divide each instead
	if ( cnIsValidVec3( scaled ) == false )
	{
		scaled = cnV3( n.x / largest, n.y / largest, n.z / largest );
	}
	return cnMulSV( 1.0 / cnLength( scaled ), scaled );
}

void cnFreeGeometry( cnGeometry* g )
{
	if ( g->type == cnShape_polygon )
	{
		free( g->vertices );
		g->vertices = NULL;
		g->vertexCount = 0;
	}
	// drop the shape's reference to its shared object
	cnHullRelease( g->hull );
	cnMeshRelease( g->mesh );
	cnHeightfieldRelease( g->heightfield );
	g->hull = NULL;
	g->mesh = NULL;
	g->heightfield = NULL;
}

cnShapeId cnCreateShape( cnWorld* world, cnBodyId bodyId, const cnShapeDef* def )
{
	cnClearError();
	cnBody* body = cnGetBody( world, bodyId );
	if ( body == NULL )
	{
		return cnShapeId_null;
	}
	if ( def == NULL )
	{
		cnSetError( cnError_invalidArgument, "shape def is NULL" );
		return cnShapeId_null;
	}
	if ( !cnValidateShapeDef( world, body, def ) )
	{
		return cnShapeId_null;
	}

	// the body's mass properties with the shape: refused when they leave the double range (two
	// shapes of 1e308 kg, a shape so far from the others that the parallel axis term overflows)
	cnShape trial = { 0 };
	trial.geom.type = def->type;
	trial.geom.radius = def->radius;
	trial.geom.halfExtents = def->halfExtents;
	trial.geom.halfHeight = def->halfHeight;
	trial.geom.vertexCount = def->type == cnShape_polygon ? def->vertexCount : 0;
	trial.geom.vertices = def->type == cnShape_polygon ? (cnVec3*)def->vertices : NULL;
	trial.geom.hull = def->type == cnShape_hull ? def->hull : NULL;
	trial.geom.mesh = def->type == cnShape_mesh ? def->mesh : NULL;
	trial.geom.heightfield = def->type == cnShape_heightfield ? def->heightfield : NULL;
	trial.local.p = def->position;
	trial.local.q = cnNormalizeQuat( def->orientation );
	trial.material = def->material;
	cnBodyMass mass;
	if ( cnComputeBodyMass( world, body, &trial, -1, &mass ) == false )
	{
		cnPrefixError( "with this shape (at %g, %g, %g) ", def->position.x, def->position.y, def->position.z );
		return cnShapeId_null;
	}

	// a polygon's vertices: the world's own copy (freed with the shape, cnFreeGeometry), taken first
	// so a failure leaves the shape table untouched
	cnVec3* vertices = NULL;
	if ( def->type == cnShape_polygon )
	{
		vertices = malloc( (size_t)def->vertexCount * sizeof( cnVec3 ) );
		if ( vertices == NULL )
		{
			cnSetError( cnError_outOfMemory, "out of memory" );
			return cnShapeId_null;
		}
		memcpy( vertices, def->vertices, (size_t)def->vertexCount * sizeof( cnVec3 ) );
	}

	int index;
	bool reused = world->freeShape >= 0;
	if ( reused )
	{
		index = world->freeShape;
		world->freeShape = world->shapes[index].nextShape;
	}
	else
	{
		if ( world->shapeCount == world->shapeCapacity )
		{
			int capacity = world->shapeCapacity > 0 ? 2 * world->shapeCapacity : 64;
			cnShape* shapes = realloc( world->shapes, (size_t)capacity * sizeof( cnShape ) );
			if ( shapes == NULL )
			{
				free( vertices );
				cnSetError( cnError_outOfMemory, "out of memory" );
				return cnShapeId_null;
			}
			world->shapes = shapes;
			world->shapeCapacity = capacity;
		}
		index = world->shapeCount++;
		world->shapes[index].generation = 0;
	}

	cnShape* s = world->shapes + index;
	uint32_t generation = s->generation + 1;
	// a reused slot may still own the vertices of a destroyed polygon
	if ( reused )
	{
		cnFreeGeometry( &s->geom );
	}
	memset( s, 0, sizeof( cnShape ) );
	s->generation = generation;
	s->alive = true;
	s->geom.type = def->type;
	s->geom.radius = def->radius;
	s->geom.halfExtents = def->halfExtents;
	s->geom.halfHeight = def->halfHeight;
	s->geom.vertexCount = vertices != NULL ? def->vertexCount : 0;
	s->geom.vertices = vertices;
	s->geom.hull = def->type == cnShape_hull ? cnHullRetain( def->hull ) : NULL;
	s->geom.mesh = def->type == cnShape_mesh ? cnMeshRetain( def->mesh ) : NULL;
	s->geom.heightfield = def->type == cnShape_heightfield ? cnHeightfieldRetain( def->heightfield ) : NULL;
	if ( def->type == cnShape_plane )
	{
		// the offset is a distance along the unit normal: the length of the given normal does not scale it
		s->geom.normal = cnUnitNormal( def->normal );
		s->geom.offset = def->offset;
	}
	s->local.p = def->position;
	s->local.q = cnNormalizeQuat( def->orientation );
	s->body = bodyId.index;
	s->material = def->material;
	s->categoryBits = def->categoryBits;
	s->maskBits = def->maskBits;
	s->groupIndex = def->groupIndex;
	s->enableContactEvents = def->enableContactEvents;
	s->enableHitEvents = def->enableHitEvents;

	s->nextShape = body->firstShape;
	body->firstShape = index;
	body->shapeCount += 1;
	world->liveShapeCount += 1;

	cnTransform xf = cnShapeWorldTransform( body, s );
	s->aabb = cnComputeShapeAABB( &s->geom, xf );
	double margin = body->type == cnBody_static ? 0.0 : CN_AABB_MARGIN;
	s->fatAABB = s->aabb;
	s->fatAABB.lower = cnSub( s->fatAABB.lower, cnV3( margin, margin, margin ) );
	s->fatAABB.upper = cnAdd( s->fatAABB.upper, cnV3( margin, margin, margin ) );
	s->proxyKey = cnBroadPhase_CreateProxy( &world->broadPhase, s->fatAABB, index, body->type == cnBody_static );
	world->internalFacesDirty |= body->type == cnBody_static;

	cnChangeBodyMass( world, body, &mass );
	if ( body->type != cnBody_static )
	{
		cnWakeBody( world, body );
	}
	cnShapeId id = { index, generation };
	return id;
}

// A shape's box at its body's pose, and its fat box swept over sweep; true when the swept box left the
// fat box, which then grows around it (its proxy must move).
static bool cnComputeShapeBoxes( const cnBody* body, cnShape* s, cnVec3 sweep )
{
	cnTransform xf = cnShapeWorldTransform( body, s );
	cnAABB box = cnComputeShapeAABB( &s->geom, xf );
	s->aabb = box;

	// the box swept over the expected motion of the next step, so the broad phase finds pairs
	// before they touch (speculative contact needs the pair to exist)
	cnAABB swept = box;
	swept.lower = cnAdd( swept.lower, cnMin( sweep, cnVec3_zero ) );
	swept.upper = cnAdd( swept.upper, cnMax( sweep, cnVec3_zero ) );
	if ( cnAABB_Contains( s->fatAABB, swept ) )
	{
		return false;
	}
	double margin = body->type == cnBody_static ? 0.0 : CN_AABB_MARGIN;
	s->fatAABB.lower = cnSub( swept.lower, cnV3( margin, margin, margin ) );
	s->fatAABB.upper = cnAdd( swept.upper, cnV3( margin, margin, margin ) );
	return true;
}

void cnUpdateBodyShapes( cnWorld* world, cnBody* body, cnVec3 sweep )
{
	world->internalFacesDirty |= body->type == cnBody_static && body->firstShape >= 0;
	for ( int i = body->firstShape; i >= 0; i = world->shapes[i].nextShape )
	{
		cnShape* s = world->shapes + i;
		if ( cnComputeShapeBoxes( body, s, sweep ) )
		{
			cnBroadPhase_MoveProxy( &world->broadPhase, s->proxyKey, s->fatAABB );
		}
	}
}

void cnComputeBodyShapeBoxes( cnWorld* world, const cnBody* body, cnVec3 sweep, uint8_t* moved )
{
	for ( int i = body->firstShape; i >= 0; i = world->shapes[i].nextShape )
	{
		moved[i] = cnComputeShapeBoxes( body, world->shapes + i, sweep ) ? 1 : 0;
	}
}

void cnFreeShape( cnWorld* world, int shapeIndex )
{
	cnShape* shape = world->shapes + shapeIndex;
	world->internalFacesDirty |= world->bodies[shape->body].type == cnBody_static;
	cnBroadPhase_DestroyProxy( &world->broadPhase, shape->proxyKey );
	cnFreeGeometry( &shape->geom );
	shape->alive = false;
	shape->nextShape = world->freeShape;
	world->freeShape = shapeIndex;
	world->liveShapeCount -= 1;
}

bool cnDestroyShape( cnWorld* world, cnShapeId id )
{
	cnShape* shape = cnGetShape( world, id );
	if ( shape == NULL )
	{
		return false;
	}
	cnBody* body = world->bodies + shape->body;

	// the mass properties the body is left with must stay in the double range too (a mass override
	// spread over a much lighter remaining shape)
	cnBodyMass mass;
	if ( cnComputeBodyMass( world, body, NULL, id.index, &mass ) == false )
	{
		cnPrefixError( "without this shape " );
		return false;
	}

	// its contacts go, waking what they touched
	for ( int i = world->contactCount - 1; i >= 0; --i )
	{
		cnContact* c = world->contacts + i;
		if ( c->shapeA == id.index || c->shapeB == id.index )
		{
			int other = c->bodyA == shape->body ? c->bodyB : c->bodyA;
			if ( ( c->flags & cnContact_touching ) && world->bodies[other].type != cnBody_static )
			{
				cnWakeBody( world, world->bodies + other );
			}
			cnDestroyContact( world, i );
		}
	}

	// unlink it from its body's list
	int* link = &body->firstShape;
	while ( *link != id.index )
	{
		link = &world->shapes[*link].nextShape;
	}
	*link = shape->nextShape;
	body->shapeCount -= 1;
	cnFreeShape( world, id.index );

	cnChangeBodyMass( world, body, &mass );
	cnWakeBody( world, body );
	return true;
}

bool cnShape_IsValid( const cnWorld* world, cnShapeId id )
{
	return world != NULL && id.index >= 0 && id.index < world->shapeCount && world->shapes[id.index].alive &&
		   world->shapes[id.index].generation == id.generation;
}

cnShapeDef cnShape_GetDef( const cnWorld* world, cnShapeId id )
{
	cnShapeDef def = cnDefaultShapeDef();
	cnShape* s = cnGetShape( world, id );
	if ( s == NULL )
	{
		return def;
	}
	def.type = s->geom.type;
	def.radius = s->geom.radius;
	def.halfExtents = s->geom.halfExtents;
	def.halfHeight = s->geom.halfHeight;
	def.normal = s->geom.normal;
	def.offset = s->geom.offset;
	def.vertexCount = s->geom.vertexCount;
	def.vertices = s->geom.vertices;
	def.hull = s->geom.hull;
	def.mesh = s->geom.mesh;
	def.heightfield = s->geom.heightfield;
	def.position = s->local.p;
	def.orientation = s->local.q;
	def.material = s->material;
	def.categoryBits = s->categoryBits;
	def.maskBits = s->maskBits;
	def.groupIndex = s->groupIndex;
	def.enableContactEvents = s->enableContactEvents;
	def.enableHitEvents = s->enableHitEvents;
	return def;
}

cnBodyId cnShape_GetBody( const cnWorld* world, cnShapeId id )
{
	cnShape* s = cnGetShape( world, id );
	if ( s == NULL )
	{
		return cnBodyId_null;
	}
	cnBodyId b = { s->body, world->bodies[s->body].generation };
	return b;
}

cnAABB cnShape_GetAABB( const cnWorld* world, cnShapeId id )
{
	cnShape* s = cnGetShape( world, id );
	if ( s == NULL )
	{
		cnAABB empty = { cnVec3_nan, cnVec3_nan };
		return empty;
	}
	return s->aabb;
}

cnTransform cnShape_GetTransform( const cnWorld* world, cnShapeId id )
{
	cnShape* s = cnGetShape( world, id );
	if ( s == NULL )
	{
		return cnTransform_nan;
	}
	return cnShapeWorldTransform( world->bodies + s->body, s );
}
