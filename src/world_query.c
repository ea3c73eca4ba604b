// SPDX-License-Identifier: MIT
// World-wide diagnostic queries that read contact data: used by `cairn compare` to measure how
// deep each contact method lets shapes sink into each other.
#include "core.h"
#include "world.h"

#include <string.h>

double cnWorld_GetMaxPenetration( const cnWorld* world )
{
	// separations are signed distances along the normal, negative when the shapes overlap; the
	// speculative points (separation > 0) only say that a contact may happen within the step
	double deepest = 0.0;
	if ( world == NULL )
	{
		return deepest;
	}
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* contact = world->contacts + i;
		if ( ( contact->flags & cnContact_touching ) == 0 )
		{
			continue;
		}
		for ( int k = 0; k < contact->manifoldCount; ++k )
		{
			const cnManifold* manifold = cnContactManifold( contact, k );
			for ( int j = 0; j < manifold->pointCount; ++j )
			{
				double depth = -manifold->points[j].separation;
				deepest = depth > deepest ? depth : deepest;
			}
		}
	}
	return deepest;
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
		for ( int v = 0; v < 7; ++v )
		{
			// the bytes of each double, least significant first (its memory order on x86 and ARM)
			uint64_t bits;
			memcpy( &bits, values + v, sizeof( bits ) );
			for ( int k = 0; k < 8; ++k )
			{
				h ^= ( bits >> ( 8 * k ) ) & 0xffu;
				h *= 1099511628211ull;
			}
		}
	}
	return h;
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

cnVec3 cnWorld_GetAngularMomentum( const cnWorld* world, cnVec3 point )
{
	if ( cnIsValidVec3( point ) == false )
	{
		cnSetError( cnError_invalidArgument, "cnWorld_GetAngularMomentum: the point must be finite" );
		return cnVec3_nan;
	}
	cnVec3 l = cnVec3_zero;
	for ( int k = 0; k < world->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + k;
		if ( b->alive )
		{
			l = cnAdd( l, cnBodyAngularMomentum( b, point ) );
		}
	}
	return l;
}

