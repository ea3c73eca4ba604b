// SPDX-License-Identifier: MIT
// Materials: the world's table, per-pair overrides and the rules that combine two materials.
#include "material.h"

#include "contact.h"

#include "world.h"

#include "core.h"
#include "error.h"
#include "island.h"
#include "lookup.h"
#include "mass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool cnValidateMaterialDef( const cnMaterialDef* def )
{
	if ( def == NULL )
	{
		return cnSetError( cnError_invalidArgument, "material def is NULL" );
	}
	if ( !isfinite( def->density ) || def->density < 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "material density must be finite and >= 0 (got %g)", def->density );
	}
	if ( !isfinite( def->friction ) || def->friction < 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "material friction must be finite and >= 0 (got %g)", def->friction );
	}
	if ( !isfinite( def->restitution ) || def->restitution < 0.0 || def->restitution > 1.0 )
	{
		return cnSetError( cnError_invalidArgument, "material restitution must be in [0, 1] (got %g)", def->restitution );
	}
	if ( (int)def->finish < 0 || def->finish >= cnFinish_count )
	{
		return cnSetError( cnError_invalidArgument, "material finish %d is not a cnFinish", (int)def->finish );
	}
	if ( !isfinite( def->ior ) || def->ior < 1.0 )
	{
		return cnSetError( cnError_invalidArgument, "material ior must be finite and >= 1 (got %g)", def->ior );
	}
	if ( !isfinite( def->stiffness ) || def->stiffness < 0.0 || !isfinite( def->damping ) || def->damping < 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "material stiffness and damping must be finite and >= 0" );
	}
	return true;
}

cnMaterialId cnCreateMaterial( cnWorld* world, const cnMaterialDef* def )
{
	cnClearError();
	if ( !cnValidateMaterialDef( def ) )
	{
		return -1;
	}
	cnMaterial* materials = realloc( world->materials, (size_t)( world->materialCount + 1 ) * sizeof( cnMaterial ) );
	if ( materials == NULL )
	{
		cnSetError( cnError_outOfMemory, "out of memory" );
		return -1;
	}
	world->materials = materials;
	cnMaterial* m = materials + world->materialCount;
	m->def = *def;
	m->name = cnCopyString( def->name );
	m->texture = cnCopyString( def->texture );
	m->def.name = m->name;
	m->def.texture = m->texture;
	return world->materialCount++;
}

// Mixes the friction and restitution of every existing contact again: contacts mix them when they
// are made, so a material or pair changed while shapes touch (an edit at a cut in the viewer) would
// otherwise act only on pairs that meet later. shape >= 0: only that shape's contacts.
static void cnRemixContacts( cnWorld* world, int shape )
{
	for ( int i = 0; i < world->contactCount; ++i )
	{
		cnContact* c = world->contacts + i;
		if ( shape >= 0 && c->shapeA != shape && c->shapeB != shape )
		{
			continue;
		}
		cnMixMaterials( world, world->shapes[c->shapeA].material, world->shapes[c->shapeB].material, &c->friction,
						&c->restitution );
	}
}

bool cnMaterial_SetDef( cnWorld* world, cnMaterialId id, const cnMaterialDef* def )
{
	cnClearError();
	if ( id < 0 || id >= world->materialCount )
	{
		return cnSetError( cnError_invalidId, "invalid material id %d", id );
	}
	if ( !cnValidateMaterialDef( def ) )
	{
		return false;
	}
	cnMaterial* m = world->materials + id;
	char* name = cnCopyString( def->name != NULL ? def->name : m->name );
	char* texture = cnCopyString( def->texture );
	free( m->name );
	free( m->texture );
	m->def = *def;
	m->name = name;
	m->texture = texture;
	m->def.name = name;
	m->def.texture = texture;
	cnRemixContacts( world, -1 );
	return true;
}

bool cnShape_SetMaterial( cnWorld* world, cnShapeId id, cnMaterialId material )
{
	cnShape* shape = cnGetShape( world, id );
	if ( shape == NULL )
	{
		return false;
	}
	if ( material < 0 || material >= world->materialCount )
	{
		return cnSetError( cnError_invalidId, "invalid material id %d", material );
	}
	cnBody* body = world->bodies + shape->body;
	cnMaterialId old = shape->material;
	double oldDensity = world->materials[old].def.density;
	double newDensity = world->materials[material].def.density;
	shape->material = material;
	// another density gives the body other mass properties, checked as cnCreateShape checks them
	// (a mass override keeps the mass and takes the new distribution); the same density leaves
	// them exactly as they were
	if ( newDensity != oldDensity && shape->geom.type != cnShape_plane )
	{
		cnBodyMass mass;
		if ( cnComputeBodyMass( world, body, NULL, -1, &mass ) == false )
		{
			shape->material = old;
			cnPrefixError( "with material %d on this shape ", material );
			return false;
		}
		cnChangeBodyMass( world, body, &mass );
	}
	cnRemixContacts( world, id.index );
	if ( body->type != cnBody_static )
	{
		cnWakeBody( world, body );
	}
	return true;
}

int cnWorld_GetMaterialCount( const cnWorld* world )
{
	return world->materialCount;
}

cnMaterialDef cnMaterial_GetDef( const cnWorld* world, cnMaterialId id )
{
	cnClearError();
	if ( id < 0 || id >= world->materialCount )
	{
		cnSetError( cnError_invalidId, "invalid material id %d", id );
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
	cnClearError();
	if ( a < 0 || a >= world->materialCount || b < 0 || b >= world->materialCount )
	{
		return cnSetError( cnError_invalidId, "invalid material id in pair (%d, %d)", a, b );
	}
	if ( !isfinite( friction ) || friction < 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "pair friction must be finite and >= 0 (got %g)", friction );
	}
	if ( !isfinite( restitution ) || restitution < 0.0 || restitution > 1.0 )
	{
		return cnSetError( cnError_invalidArgument, "pair restitution must be in [0, 1] (got %g)", restitution );
	}
	for ( int i = 0; i < world->materialPairCount; ++i )
	{
		cnMaterialPair* p = world->materialPairs + i;
		if ( ( p->a == a && p->b == b ) || ( p->a == b && p->b == a ) )
		{
			p->friction = friction;
			p->restitution = restitution;
			cnRemixContacts( world, -1 );
			return true;
		}
	}
	cnMaterialPair* pairs =
		realloc( world->materialPairs, (size_t)( world->materialPairCount + 1 ) * sizeof( cnMaterialPair ) );
	if ( pairs == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory" );
	}
	world->materialPairs = pairs;
	pairs[world->materialPairCount++] = (cnMaterialPair){ a, b, friction, restitution };
	cnRemixContacts( world, -1 );
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

double cnMixFriction( double friction1, double friction2 )
{
	// geometric mean: a slippery surface stays slippery whatever touches it; equal values are
	// returned as they are so two bodies of one material get exactly that material's friction
	if ( friction1 == friction2 )
	{
		return friction1;
	}
	return sqrt( friction1 * friction2 );
}

double cnMixRestitution( double restitution1, double restitution2 )
{
	// the bouncier material wins, so a rubber ball bounces on concrete
	return restitution1 > restitution2 ? restitution1 : restitution2;
}

void cnDestroyMaterials( cnWorld* world )
{
	for ( int i = 0; i < world->materialCount; ++i )
	{
		free( world->materials[i].name );
		free( world->materials[i].texture );
	}
	free( world->materials );
	free( world->materialPairs );
	world->materials = NULL;
	world->materialPairs = NULL;
	world->materialCount = 0;
	world->materialPairCount = 0;
}
