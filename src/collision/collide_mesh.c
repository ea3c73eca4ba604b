// SPDX-License-Identifier: MIT
// Pairs with a mesh or a heightfield: convex shapes against triangles, meshes against meshes.
// (Skeleton: the triangle narrow phase lands with the mesh layer.)
#include "collision/mesh.h"

int cnCollideMeshPair( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					   cnManifold* manifolds, int capacity )
{
	(void)a;
	(void)xfA;
	(void)b;
	(void)xfB;
	(void)maxDistance;
	(void)manifolds;
	(void)capacity;
	return 0;
}
