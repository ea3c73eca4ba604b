// SPDX-License-Identifier: MIT
// World-wide diagnostic queries that read contact data: used by `cairn compare` to measure how
// deep each contact method lets shapes sink into each other.
#include "world.h"

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
