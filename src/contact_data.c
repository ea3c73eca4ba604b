// SPDX-License-Identifier: MIT
// Contact data (cairn/query.h): the touching manifolds of the world, of a body or of a shape, read
// from the contacts as the last step's narrow phase made them and the method left them (Box2D v3's
// b2World_GetContactData-style reads, b2Body_GetContactData, b2Shape_GetContactData). A contact
// keeps its manifold points in world coordinates, found at the poses the step started from, with
// the impulses the method stored into them; nothing here is computed again.
#include "contact.h"
#include "error.h"
#include "lookup.h"
#include "world.h"

#include <math.h>

// Which contacts a read takes: all, those of one body, or those of one shape.
typedef struct cnContactFilter
{
	int body;
	int shape;
} cnContactFilter;

static bool cnContactPasses( const cnContact* c, cnContactFilter f )
{
	if ( f.body >= 0 && c->bodyA != f.body && c->bodyB != f.body )
	{
		return false;
	}
	if ( f.shape >= 0 && c->shapeA != f.shape && c->shapeB != f.shape )
	{
		return false;
	}
	return true;
}

// One manifold as the public struct.
static void cnFillContactData( const cnWorld* world, const cnContact* c, const cnManifold* m, double scale,
							   cnContactData* out )
{
	out->shapeA = ( cnShapeId ){ c->shapeA, world->shapes[c->shapeA].generation };
	out->shapeB = ( cnShapeId ){ c->shapeB, world->shapes[c->shapeB].generation };
	out->bodyA = ( cnBodyId ){ c->bodyA, world->bodies[c->bodyA].generation };
	out->bodyB = ( cnBodyId ){ c->bodyB, world->bodies[c->bodyB].generation };
	out->normal = m->normal;
	out->pointCount = m->pointCount;
	for ( int j = 0; j < m->pointCount; ++j )
	{
		const cnManifoldPoint* mp = m->points + j;
		cnContactPointData* p = out->points + j;
		p->point = mp->point;
		p->normal = mp->normal;
		p->separation = mp->separation;
		p->normalImpulse = scale * mp->normalImpulse;
		p->tangentImpulse =
			scale * sqrt( mp->tangentImpulse1 * mp->tangentImpulse1 + mp->tangentImpulse2 * mp->tangentImpulse2 );
		p->maxNormalImpulse = mp->maxNormalImpulse;
		p->id = mp->id;
	}
	for ( int j = m->pointCount; j < 4; ++j )
	{
		out->points[j] = ( cnContactPointData ){ 0 };
	}
}

// Counts the touching manifolds that pass the filter and writes the first capacity of them.
static int cnReadContactData( const cnWorld* world, cnContactFilter f, cnContactData* data, int capacity )
{
	if ( capacity < 0 || ( capacity > 0 && data == NULL ) )
	{
		cnSetError( cnError_invalidArgument, "contact data: capacity must be >= 0 with room for it (got %d)", capacity );
		return -1;
	}
	// the impulse method keeps the impulse of one sub-step (each sub-step applies it again, warm
	// started): over the step that is the sub-step count times as much; the velocity-level methods
	// keep the step's own
	double scale = world->def.method == cnMethod_impulse ? (double)world->def.settings.impulse.subSteps : 1.0;
	int count = 0;
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->flags & cnContact_touching ) == 0 || cnContactPasses( c, f ) == false )
		{
			continue;
		}
		for ( int k = 0; k < c->manifoldCount; ++k )
		{
			const cnManifold* m = cnContactManifold( c, k );
			if ( m->pointCount <= 0 )
			{
				continue;
			}
			if ( count < capacity )
			{
				cnFillContactData( world, c, m, scale, data + count );
			}
			count += 1;
		}
	}
	cnClearError();
	return count;
}

int cnWorld_GetContactData( const cnWorld* world, cnContactData* data, int capacity )
{
	if ( cnRequireWorld( world ) == false )
	{
		return -1;
	}
	return cnReadContactData( world, ( cnContactFilter ){ -1, -1 }, data, capacity );
}

int cnBody_GetContactData( const cnWorld* world, cnBodyId id, cnContactData* data, int capacity )
{
	if ( cnRequireWorld( world ) == false || cnGetBody( world, id ) == NULL )
	{
		return -1;
	}
	return cnReadContactData( world, ( cnContactFilter ){ id.index, -1 }, data, capacity );
}

int cnShape_GetContactData( const cnWorld* world, cnShapeId id, cnContactData* data, int capacity )
{
	if ( cnRequireWorld( world ) == false || cnGetShape( world, id ) == NULL )
	{
		return -1;
	}
	return cnReadContactData( world, ( cnContactFilter ){ -1, id.index }, data, capacity );
}
