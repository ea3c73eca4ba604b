// SPDX-License-Identifier: MIT
// From public ids to the world's records: the validation every API call on a body or a shape starts
// with. A stale id (its slot reused or freed: the generation differs) or one out of range fails with
// cnError_invalidId; a valid one clears the error state, as a call that can fail does on success.
#include "lookup.h"

#include "error.h"
#include "world.h"

cnBody* cnGetBody( const cnWorld* world, cnBodyId id )
{
	if ( world == NULL )
	{
		return NULL;
	}
	if ( id.index < 0 || id.index >= world->bodyCount )
	{
		cnSetError( cnError_invalidId, "invalid body id (index %d)", id.index );
		return NULL;
	}
	cnBody* b = world->bodies + id.index;
	if ( b->alive == false || b->generation != id.generation )
	{
		cnSetError( cnError_invalidId, "stale body id (index %d, generation %u)", id.index, id.generation );
		return NULL;
	}
	cnClearError();
	return b;
}

cnShape* cnGetShape( const cnWorld* world, cnShapeId id )
{
	if ( world == NULL )
	{
		return NULL;
	}
	if ( id.index < 0 || id.index >= world->shapeCount )
	{
		cnSetError( cnError_invalidId, "invalid shape id (index %d)", id.index );
		return NULL;
	}
	cnShape* s = world->shapes + id.index;
	if ( s->alive == false || s->generation != id.generation )
	{
		cnSetError( cnError_invalidId, "stale shape id (index %d, generation %u)", id.index, id.generation );
		return NULL;
	}
	cnClearError();
	return s;
}
