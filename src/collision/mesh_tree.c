// SPDX-License-Identifier: MIT
// A mesh's bounding volume tree: built once at creation, top-down, splitting each node's triangles
// at the median of their centroids along the longest axis of the centroids' box, down to leaves of
// at most CN_MESH_LEAF_SIZE triangles. The nodes sit in one array in depth-first order, so a query
// walks it with a small stack and no pointers. A median split gives a balanced tree (depth
// log2(n / 4)), which is what a static mesh queried by many small boxes wants; SAH would buy a few
// percent on uneven meshes at a much longer build.
#include "collision/mesh.h"

#include <stdlib.h>

#define CN_MESH_LEAF_SIZE 4
// deeper than any balanced tree of CN_MESH_MAX_TRIANGLES triangles (2^24 / 4 leaves: 22 levels)
#define CN_MESH_STACK 64

typedef struct cnTreeBuilder
{
	cnMesh* mesh;
	cnVec3* centroids;
	cnAABB* boxes;
	int axis;
} cnTreeBuilder;

// qsort has no context argument: the builder being sorted for (one build at a time per thread)
static _Thread_local const cnTreeBuilder* cnSortBuilder;

static int cnCompareCentroids( const void* pa, const void* pb )
{
	int a = *(const int*)pa, b = *(const int*)pb;
	double ca = cnGet( cnSortBuilder->centroids[a], cnSortBuilder->axis );
	double cb = cnGet( cnSortBuilder->centroids[b], cnSortBuilder->axis );
	if ( ca != cb )
	{
		return ca < cb ? -1 : 1;
	}
	// ties by index, so the tree does not depend on the sort's algorithm
	return a < b ? -1 : ( a > b ? 1 : 0 );
}

// Builds the node for order[first .. first + count) at the next free slot; returns its index.
static int cnBuildNode( cnTreeBuilder* b, int first, int count )
{
	cnMesh* m = b->mesh;
	int index = m->nodeCount++;
	cnMeshNode* node = m->nodes + index;
	cnAABB box = b->boxes[m->order[first]];
	cnAABB cbox = { b->centroids[m->order[first]], b->centroids[m->order[first]] };
	for ( int i = 1; i < count; ++i )
	{
		int t = m->order[first + i];
		box = cnAABB_Union( box, b->boxes[t] );
		cbox.lower = cnMin( cbox.lower, b->centroids[t] );
		cbox.upper = cnMax( cbox.upper, b->centroids[t] );
	}
	node->box = box;
	if ( count <= CN_MESH_LEAF_SIZE )
	{
		node->index = first;
		node->count = count;
		return index;
	}
	cnVec3 e = cnSub( cbox.upper, cbox.lower );
	b->axis = ( e.x >= e.y && e.x >= e.z ) ? 0 : ( e.y >= e.z ? 1 : 2 );
	cnSortBuilder = b;
	qsort( m->order + first, (size_t)count, sizeof( int ), cnCompareCentroids );
	int half = count / 2;
	node->count = 0;
	cnBuildNode( b, first, half );
	int second = cnBuildNode( b, first + half, count - half );
	// the array may not move (allocated for the worst case), but re-find the node for clarity
	m->nodes[index].index = second;
	return index;
}

bool cnMeshBuildTree( cnMesh* mesh )
{
	int n = mesh->triangleCount;
	if ( n <= 0 )
	{
		// cnCreateMesh refuses a mesh without triangles before it gets here
		return false;
	}
	// a binary tree with leaves of at least one triangle has fewer than 2 n nodes
	mesh->nodes = malloc( (size_t)( 2 * n ) * sizeof( cnMeshNode ) );
	mesh->order = malloc( (size_t)n * sizeof( int ) );
	cnTreeBuilder b = { mesh, malloc( (size_t)n * sizeof( cnVec3 ) ), malloc( (size_t)n * sizeof( cnAABB ) ), 0 };
	if ( mesh->nodes == NULL || mesh->order == NULL || b.centroids == NULL || b.boxes == NULL )
	{
		free( b.centroids );
		free( b.boxes );
		return false;
	}
	for ( int t = 0; t < n; ++t )
	{
		const int* tri = mesh->triangles + 3 * t;
		cnVec3 v0 = mesh->vertices[tri[0]], v1 = mesh->vertices[tri[1]], v2 = mesh->vertices[tri[2]];
		b.boxes[t] = ( cnAABB ){ cnMin( v0, cnMin( v1, v2 ) ), cnMax( v0, cnMax( v1, v2 ) ) };
		b.centroids[t] = cnMulSV( 1.0 / 3.0, cnAdd( v0, cnAdd( v1, v2 ) ) );
		mesh->order[t] = t;
	}
	mesh->nodeCount = 0;
	cnBuildNode( &b, 0, n );
	free( b.centroids );
	free( b.boxes );
	return true;
}

static void cnMeshTriangle( const cnMesh* m, int t, cnVec3 v[3] )
{
	const int* tri = m->triangles + 3 * t;
	v[0] = m->vertices[tri[0]];
	v[1] = m->vertices[tri[1]];
	v[2] = m->vertices[tri[2]];
}

void cnMeshQuery( const cnMesh* mesh, cnAABB box, cnTriangleFn* fn, void* context )
{
	int stack[CN_MESH_STACK];
	int top = 0;
	stack[top++] = 0;
	while ( top > 0 )
	{
		const cnMeshNode* node = mesh->nodes + stack[--top];
		if ( cnAABB_Overlaps( node->box, box ) == false )
		{
			continue;
		}
		if ( node->count == 0 )
		{
			// second child below the first, so the first is visited first
			stack[top++] = node->index;
			stack[top++] = (int)( node - mesh->nodes ) + 1;
			continue;
		}
		for ( int i = 0; i < node->count; ++i )
		{
			int t = mesh->order[node->index + i];
			cnVec3 v[3];
			cnMeshTriangle( mesh, t, v );
			cnAABB tb = { cnMin( v[0], cnMin( v[1], v[2] ) ), cnMax( v[0], cnMax( v[1], v[2] ) ) };
			if ( cnAABB_Overlaps( tb, box ) && fn( context, t, v ) == false )
			{
				return;
			}
		}
	}
}

// Slab test: the entry fraction of the segment origin + t d into the box, or INFINITY when it
// misses the box within [0, maxT]. invD holds 1/d (infinite for a zero component).
static double cnRayBox( cnAABB box, cnVec3 origin, cnVec3 invD, double maxT )
{
	double t0 = 0.0, t1 = maxT;
	for ( int i = 0; i < 3; ++i )
	{
		double o = cnGet( origin, i ), inv = cnGet( invD, i );
		double lo = cnGet( box.lower, i ), hi = cnGet( box.upper, i );
		if ( isinf( inv ) )
		{
			if ( o < lo || o > hi )
			{
				return INFINITY;
			}
			continue;
		}
		double a = ( lo - o ) * inv, b = ( hi - o ) * inv;
		t0 = fmax( t0, fmin( a, b ) );
		t1 = fmin( t1, fmax( a, b ) );
		if ( t0 > t1 )
		{
			return INFINITY;
		}
	}
	return t0;
}

bool cnRayTriangle( const cnVec3 v[3], cnVec3 origin, cnVec3 d, double maxT, double* t, cnVec3* normal )
{
	// Moller-Trumbore: solve origin + t d = v0 + u e1 + w e2 for (t, u, w)
	cnVec3 e1 = cnSub( v[1], v[0] ), e2 = cnSub( v[2], v[0] );
	cnVec3 p = cnCross( d, e2 );
	double det = cnDot( e1, p );
	cnVec3 n = cnCross( e1, e2 );
	// parallel to the plane (or a zero translation): no crossing
	if ( fabs( det ) <= 1e-14 * cnLength( n ) * cnLength( d ) || det == 0.0 )
	{
		return false;
	}
	double inv = 1.0 / det;
	cnVec3 s = cnSub( origin, v[0] );
	double u = cnDot( s, p ) * inv;
	if ( u < 0.0 || u > 1.0 )
	{
		return false;
	}
	cnVec3 q = cnCross( s, e1 );
	double w = cnDot( d, q ) * inv;
	if ( w < 0.0 || u + w > 1.0 )
	{
		return false;
	}
	double hit = cnDot( e2, q ) * inv;
	if ( hit < 0.0 || hit > maxT )
	{
		return false;
	}
	*t = hit;
	// the face the ray meets: the normal against the ray
	n = cnNormalize( n );
	*normal = cnDot( n, d ) > 0.0 ? cnNeg( n ) : n;
	return true;
}

bool cnMeshRayCast( const cnMesh* mesh, cnVec3 origin, cnVec3 translation, double maxFraction, double* fraction,
					cnVec3* normal )
{
	cnVec3 invD = cnV3( 1.0 / translation.x, 1.0 / translation.y, 1.0 / translation.z );
	double best = maxFraction;
	bool hit = false;
	int stack[CN_MESH_STACK];
	int top = 0;
	stack[top++] = 0;
	while ( top > 0 )
	{
		const cnMeshNode* node = mesh->nodes + stack[--top];
		if ( cnRayBox( node->box, origin, invD, best ) == INFINITY )
		{
			continue;
		}
		if ( node->count == 0 )
		{
			// the nearer child last, so it is searched first and shortens the segment for the other
			int first = (int)( node - mesh->nodes ) + 1, second = node->index;
			double t1 = cnRayBox( mesh->nodes[first].box, origin, invD, best );
			double t2 = cnRayBox( mesh->nodes[second].box, origin, invD, best );
			stack[top++] = t1 <= t2 ? second : first;
			stack[top++] = t1 <= t2 ? first : second;
			continue;
		}
		for ( int i = 0; i < node->count; ++i )
		{
			int t = mesh->order[node->index + i];
			cnVec3 v[3];
			cnMeshTriangle( mesh, t, v );
			double f;
			cnVec3 n;
			if ( cnRayTriangle( v, origin, translation, best, &f, &n ) )
			{
				best = f;
				*fraction = f;
				*normal = n;
				hit = true;
			}
		}
	}
	return hit;
}
