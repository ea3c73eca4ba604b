// SPDX-License-Identifier: MIT
// Narrow-phase dispatch: picks the routine for an ordered pair of shape types. Each routine takes
// its shapes in the order of its name, so a reversed pair is handled by swapping the arguments
// and flipping the normal, which keeps it pointing from A to B. Points are midway between the
// surfaces and separations are symmetric, so nothing else changes under the swap.
#include "collision/collision.h"

static void cnFlipNormal( cnManifold* m )
{
	m->normal = cnNeg( m->normal );
}

static void cnCollideDispatch( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							   double maxDistance, cnManifold* manifold )
{
	cnShapeType ta = a->type, tb = b->type;

	if ( ta == cnShape_plane || tb == cnShape_plane )
	{
		if ( ta == tb )
		{
			// two half-spaces have no manifold
			return;
		}
		if ( ta == cnShape_plane )
		{
			cnCollidePlane( a, xfA, b, xfB, maxDistance, manifold );
		}
		else
		{
			cnCollidePlane( b, xfB, a, xfA, maxDistance, manifold );
			cnFlipNormal( manifold );
		}
		return;
	}

	if ( ta == cnShape_cylinder || tb == cnShape_cylinder || ta == cnShape_hull || tb == cnShape_hull )
	{
		// the general routine takes either order. A static box meets a cylinder or hull grown
		// through its internal faces by the other's box diagonal, which bounds what it can span
		cnGeometry grownA, grownB;
		if ( ta == cnShape_box && a->internalFaces != 0 )
		{
			cnAABB box = cnComputeShapeAABB( b, xfB );
			a = cnBoxThroughSeams( a, &xfA, cnLength( cnSub( box.upper, box.lower ) ) + maxDistance, &grownA );
		}
		if ( tb == cnShape_box && b->internalFaces != 0 )
		{
			cnAABB box = cnComputeShapeAABB( a, xfA );
			b = cnBoxThroughSeams( b, &xfB, cnLength( cnSub( box.upper, box.lower ) ) + maxDistance, &grownB );
		}
		cnCollideConvex( a, xfA, b, xfB, maxDistance, manifold );
		return;
	}

	// spheres, boxes and capsules
	switch ( ta )
	{
		case cnShape_sphere:
			switch ( tb )
			{
				case cnShape_sphere:
					cnCollideSpheres( a, xfA, b, xfB, maxDistance, manifold );
					return;
				case cnShape_capsule:
					cnCollideCapsuleAndSphere( b, xfB, a, xfA, maxDistance, manifold );
					cnFlipNormal( manifold );
					return;
				case cnShape_box:
					cnCollideBoxAndSphere( b, xfB, a, xfA, maxDistance, manifold );
					cnFlipNormal( manifold );
					return;
				default:
					return;
			}

		case cnShape_capsule:
			switch ( tb )
			{
				case cnShape_sphere:
					cnCollideCapsuleAndSphere( a, xfA, b, xfB, maxDistance, manifold );
					return;
				case cnShape_capsule:
					cnCollideCapsules( a, xfA, b, xfB, maxDistance, manifold );
					return;
				case cnShape_box:
					cnCollideBoxAndCapsule( b, xfB, a, xfA, maxDistance, manifold );
					cnFlipNormal( manifold );
					return;
				default:
					return;
			}

		case cnShape_box:
			switch ( tb )
			{
				case cnShape_sphere:
					cnCollideBoxAndSphere( a, xfA, b, xfB, maxDistance, manifold );
					return;
				case cnShape_capsule:
					cnCollideBoxAndCapsule( a, xfA, b, xfB, maxDistance, manifold );
					return;
				case cnShape_box:
					cnCollideBoxes( a, xfA, b, xfB, maxDistance, manifold );
					return;
				default:
					return;
			}

		default:
			return;
	}
}

void cnCollide( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
				cnManifold* manifold )
{
	manifold->pointCount = 0;
	manifold->normal = cnV3( 0.0, 0.0, 1.0 );

	// planar polygons (FOSSSim bodies) collide with each other only; each of their points carries
	// its own normal
	if ( a->type == cnShape_polygon || b->type == cnShape_polygon )
	{
		if ( a->type == b->type )
		{
			cnCollidePolygons( a, xfA, b, xfB, maxDistance, manifold );
		}
		return;
	}

	// meshes and heightfields make several manifolds: the first stands for them here
	if ( cnIsManifoldSource( a->type ) || cnIsManifoldSource( b->type ) )
	{
		cnManifold list[CN_MAX_PAIR_MANIFOLDS];
		if ( cnCollideMeshPair( a, xfA, b, xfB, maxDistance, list, CN_MAX_PAIR_MANIFOLDS ) > 0 )
		{
			*manifold = list[0];
		}
		return;
	}

	cnCollideDispatch( a, xfA, b, xfB, maxDistance, manifold );

	// every other pair shares the manifold normal, which each point also carries
	for ( int i = 0; i < manifold->pointCount; ++i )
	{
		manifold->points[i].normal = manifold->normal;
	}
}

int cnCollidePair( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
				   cnManifold* manifolds, int capacity )
{
	if ( capacity <= 0 )
	{
		return 0;
	}
	if ( a->type == cnShape_polygon && b->type == cnShape_polygon )
	{
		return cnCollidePolygonManifolds( a, xfA, b, xfB, maxDistance, manifolds, capacity );
	}
	if ( cnIsManifoldSource( a->type ) || cnIsManifoldSource( b->type ) )
	{
		return cnCollideMeshPair( a, xfA, b, xfB, maxDistance, manifolds, capacity );
	}
	cnCollide( a, xfA, b, xfB, maxDistance, manifolds );
	return manifolds[0].pointCount > 0 ? 1 : 0;
}

int cnCollidePoints( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					 cnManifoldPoint* points, int capacity )
{
	cnManifold manifolds[CN_MAX_PAIR_MANIFOLDS];
	int manifoldCount = cnCollidePair( a, xfA, b, xfB, maxDistance, manifolds, CN_MAX_PAIR_MANIFOLDS );
	int count = 0;
	for ( int k = 0; k < manifoldCount; ++k )
	{
		for ( int j = 0; j < manifolds[k].pointCount && count < capacity; ++j )
		{
			points[count++] = manifolds[k].points[j];
		}
	}
	return count;
}
