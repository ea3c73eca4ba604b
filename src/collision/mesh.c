// SPDX-License-Identifier: MIT
// Triangle meshes: construction with validation, the solidity check (closed, manifold, outward),
// edge adjacency and active edges, bounds and exact mass properties by the divergence theorem.
// The bounding volume tree and the queries through it are in mesh_tree.c.
#include "collision/mesh.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A directed triangle edge, sorted by its undirected key to find the triangles sharing it.
typedef struct cnMeshEdge
{
	int lo, hi;
	int triangle, k;
} cnMeshEdge;

static int cnCompareEdges( const void* pa, const void* pb )
{
	const cnMeshEdge* a = pa;
	const cnMeshEdge* b = pb;
	if ( a->lo != b->lo )
	{
		return a->lo < b->lo ? -1 : 1;
	}
	if ( a->hi != b->hi )
	{
		return a->hi < b->hi ? -1 : 1;
	}
	if ( a->triangle != b->triangle )
	{
		return a->triangle < b->triangle ? -1 : 1;
	}
	return a->k < b->k ? -1 : ( a->k > b->k ? 1 : 0 );
}

static void cnFreeMesh( cnMesh* m )
{
	free( m->vertices );
	free( m->triangles );
	free( m->normals );
	free( m->neighbors );
	free( m->edgeFlags );
	free( m->vertexOwner );
	free( m->fanStart );
	free( m->fan );
	free( m->nodes );
	free( m->order );
	free( m );
}

bool cnIsActiveEdge( const cnVec3 v[3], cnVec3 n, int k, cnVec3 nn, cnVec3 c )
{
	// convex: the neighbour bends away below this face's plane; coplanar and concave edges are
	// internal (the faces on both sides already give every contact they can)
	return cnDot( n, nn ) < CN_ACTIVE_EDGE_COS && cnDot( cnSub( c, v[k] ), n ) < 0.0;
}

// Keeps the triangles that span an area: no repeated index, and a cross product of the two edges
// above 1e-14 of the longest edge squared (a sliver thinner than that has no usable normal).
static int cnKeepTriangles( const cnVec3* vertices, const int* indices, int triangleCount, int* kept )
{
	int count = 0;
	for ( int t = 0; t < triangleCount; ++t )
	{
		int i0 = indices[3 * t], i1 = indices[3 * t + 1], i2 = indices[3 * t + 2];
		if ( i0 == i1 || i1 == i2 || i2 == i0 )
		{
			continue;
		}
		cnVec3 e1 = cnSub( vertices[i1], vertices[i0] ), e2 = cnSub( vertices[i2], vertices[i0] );
		cnVec3 e3 = cnSub( vertices[i2], vertices[i1] );
		double longest = fmax( cnLengthSquared( e1 ), fmax( cnLengthSquared( e2 ), cnLengthSquared( e3 ) ) );
		if ( cnLength( cnCross( e1, e2 ) ) <= 1e-14 * longest )
		{
			continue;
		}
		kept[3 * count] = i0;
		kept[3 * count + 1] = i1;
		kept[3 * count + 2] = i2;
		++count;
	}
	return count;
}

// Pairs the triangles across each edge (neighbors) and records the first defect in sorted edge
// order: an open edge (one triangle), a non-manifold edge (three or more) or two triangles
// running the same way along an edge (inconsistent winding). False when out of memory.
static bool cnLinkEdges( cnMesh* m, bool* closed )
{
	int n = 3 * m->triangleCount;
	cnMeshEdge* edges = malloc( (size_t)n * sizeof( cnMeshEdge ) );
	if ( edges == NULL )
	{
		return false;
	}
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		for ( int k = 0; k < 3; ++k )
		{
			int a = m->triangles[3 * t + k], b = m->triangles[3 * t + ( k + 1 ) % 3];
			edges[3 * t + k] = ( cnMeshEdge ){ a < b ? a : b, a < b ? b : a, t, k };
			m->neighbors[3 * t + k] = -1;
		}
	}
	qsort( edges, (size_t)n, sizeof( cnMeshEdge ), cnCompareEdges );

	*closed = true;
	for ( int i = 0; i < n; )
	{
		int j = i + 1;
		while ( j < n && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi )
		{
			++j;
		}
		const cnMeshEdge* e = edges + i;
		// the edge as its first triangle runs it
		int from = m->triangles[3 * e->triangle + e->k], to = m->triangles[3 * e->triangle + ( e->k + 1 ) % 3];
		if ( j - i == 2 )
		{
			const cnMeshEdge* f = edges + i + 1;
			int fromF = m->triangles[3 * f->triangle + f->k];
			if ( fromF == from )
			{
				if ( *closed )
				{
					snprintf( m->defect, sizeof( m->defect ),
							  "triangles %d and %d both run edge (%d, %d) the same way: their winding is inconsistent",
							  e->triangle, f->triangle, from, to );
				}
				*closed = false;
			}
			else
			{
				m->neighbors[3 * e->triangle + e->k] = f->triangle;
				m->neighbors[3 * f->triangle + f->k] = e->triangle;
			}
		}
		else if ( *closed )
		{
			if ( j - i == 1 )
			{
				snprintf( m->defect, sizeof( m->defect ), "open edge (%d, %d) of triangle %d: the mesh is not closed",
						  from, to, e->triangle );
			}
			else
			{
				snprintf( m->defect, sizeof( m->defect ),
						  "edge (%d, %d) is shared by %d triangles: the mesh is not manifold", from, to, j - i );
			}
			*closed = false;
		}
		else
		{
			*closed = false;
		}
		i = j;
	}
	free( edges );
	return true;
}

// Volume, centroid and inertia about the centroid of the closed surface at unit density, by the
// divergence theorem: the solid is the signed sum of the tetrahedra joining a reference point r to
// each triangle. Tetrahedron (r, a, b, c) with d = a . (b x c) (relative to r) has volume d/6, first
// moment d/24 (a + b + c) and second moment (covariance) d/120 (a a^T + b b^T + c c^T + s s^T)
// with s = a + b + c (Tonon 2004; Kallay 2006). The inertia is trace(C) I - C of the covariance C
// moved to the centroid. Every step is exact for a box up to rounding.
static void cnMeshIntegrals( cnMesh* m )
{
	cnVec3 r = cnMulSV( 0.5, cnAdd( m->bounds.lower, m->bounds.upper ) );
	double volume = 0.0;
	cnVec3 first = cnVec3_zero;
	cnMat3 cov = cnMat3_zero;
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		cnVec3 a = cnSub( m->vertices[m->triangles[3 * t]], r );
		cnVec3 b = cnSub( m->vertices[m->triangles[3 * t + 1]], r );
		cnVec3 c = cnSub( m->vertices[m->triangles[3 * t + 2]], r );
		double d = cnDot( a, cnCross( b, c ) );
		cnVec3 s = cnAdd( a, cnAdd( b, c ) );
		volume += d / 6.0;
		first = cnMulAdd( first, d / 24.0, s );
		const cnVec3 p[4] = { a, b, c, s };
		for ( int k = 0; k < 4; ++k )
		{
			cnMat3 outer = { cnMulSV( p[k].x, p[k] ), cnMulSV( p[k].y, p[k] ), cnMulSV( p[k].z, p[k] ) };
			cov = cnAddMM( cov, cnMulSM( d / 120.0, outer ) );
		}
	}
	m->volume = volume;
	if ( volume <= 0.0 )
	{
		m->centroid = r;
		m->inertia = cnMat3_zero;
		return;
	}
	cnVec3 c = cnMulSV( 1.0 / volume, first );
	cnMat3 shift = { cnMulSV( volume * c.x, c ), cnMulSV( volume * c.y, c ), cnMulSV( volume * c.z, c ) };
	cov = cnAddMM( cov, cnMulSM( -1.0, shift ) );
	double trace = cov.cx.x + cov.cy.y + cov.cz.z;
	m->inertia = cnAddMM( cnDiagonal( trace, trace, trace ), cnMulSM( -1.0, cov ) );
	m->centroid = cnAdd( r, c );
}

cnMesh* cnCreateMesh( const cnVec3* vertices, int vertexCount, const int* indices, int triangleCount )
{
	cnClearError();
	if ( vertices == NULL || indices == NULL || vertexCount < 3 || triangleCount < 1 ||
		 triangleCount > CN_MESH_MAX_TRIANGLES )
	{
		cnSetError( cnError_invalidArgument, "a mesh needs at least 3 vertices and 1 to %d triangles (got %d and %d)",
					CN_MESH_MAX_TRIANGLES, vertexCount, triangleCount );
		return NULL;
	}
	for ( int i = 0; i < vertexCount; ++i )
	{
		if ( !cnIsValidVec3( vertices[i] ) )
		{
			cnSetError( cnError_invalidArgument, "mesh vertex %d is not finite", i );
			return NULL;
		}
	}
	for ( int t = 0; t < 3 * triangleCount; ++t )
	{
		if ( indices[t] < 0 || indices[t] >= vertexCount )
		{
			cnSetError( cnError_invalidArgument, "mesh triangle %d has vertex index %d out of range [0, %d)", t / 3,
						indices[t], vertexCount );
			return NULL;
		}
	}
	cnMesh* m = calloc( 1, sizeof( cnMesh ) );
	if ( m == NULL )
	{
		cnSetError( cnError_outOfMemory, "out of memory" );
		return NULL;
	}
	size_t tn = (size_t)triangleCount;
	m->vertices = malloc( (size_t)vertexCount * sizeof( cnVec3 ) );
	m->triangles = malloc( tn * 3 * sizeof( int ) );
	m->normals = malloc( tn * sizeof( cnVec3 ) );
	m->neighbors = malloc( tn * 3 * sizeof( int ) );
	m->edgeFlags = malloc( tn );
	m->vertexOwner = malloc( (size_t)vertexCount * sizeof( int ) );
	m->fanStart = calloc( (size_t)vertexCount + 1, sizeof( int ) );
	m->fan = malloc( tn * 3 * sizeof( int ) );
	if ( m->vertices == NULL || m->triangles == NULL || m->normals == NULL || m->neighbors == NULL ||
		 m->edgeFlags == NULL || m->vertexOwner == NULL || m->fanStart == NULL || m->fan == NULL )
	{
		cnFreeMesh( m );
		cnSetError( cnError_outOfMemory, "out of memory" );
		return NULL;
	}
	atomic_init( &m->refCount, 1 );
	memcpy( m->vertices, vertices, (size_t)vertexCount * sizeof( cnVec3 ) );
	m->vertexCount = vertexCount;
	m->triangleCount = cnKeepTriangles( vertices, indices, triangleCount, m->triangles );
	if ( m->triangleCount == 0 )
	{
		cnFreeMesh( m );
		cnSetError( cnError_invalidArgument, "every one of the mesh's %d triangles is degenerate (no area)",
					triangleCount );
		return NULL;
	}
	m->bounds.lower = m->bounds.upper = vertices[0];
	for ( int i = 1; i < vertexCount; ++i )
	{
		m->bounds.lower = cnMin( m->bounds.lower, vertices[i] );
		m->bounds.upper = cnMax( m->bounds.upper, vertices[i] );
	}
	for ( int i = 0; i < vertexCount; ++i )
	{
		m->vertexOwner[i] = -1;
	}
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		const int* tri = m->triangles + 3 * t;
		cnVec3 e1 = cnSub( vertices[tri[1]], vertices[tri[0]] ), e2 = cnSub( vertices[tri[2]], vertices[tri[0]] );
		m->normals[t] = cnNormalize( cnCross( e1, e2 ) );
		for ( int k = 0; k < 3; ++k )
		{
			if ( m->vertexOwner[tri[k]] < 0 )
			{
				m->vertexOwner[tri[k]] = t;
			}
		}
	}

	// the triangle fans around the vertices (counting sort by vertex)
	for ( int k = 0; k < 3 * m->triangleCount; ++k )
	{
		m->fanStart[m->triangles[k] + 1] += 1;
	}
	for ( int i = 0; i < vertexCount; ++i )
	{
		m->fanStart[i + 1] += m->fanStart[i];
	}
	int* cursor = malloc( (size_t)vertexCount * sizeof( int ) );
	if ( cursor == NULL )
	{
		cnFreeMesh( m );
		cnSetError( cnError_outOfMemory, "out of memory" );
		return NULL;
	}
	memcpy( cursor, m->fanStart, (size_t)vertexCount * sizeof( int ) );
	for ( int k = 0; k < 3 * m->triangleCount; ++k )
	{
		m->fan[cursor[m->triangles[k]]++] = k / 3;
	}
	free( cursor );

	// solidity: closed and manifold with consistent winding, then outward (positive volume)
	bool closed;
	if ( cnLinkEdges( m, &closed ) == false || cnMeshBuildTree( m ) == false )
	{
		cnFreeMesh( m );
		cnSetError( cnError_outOfMemory, "out of memory" );
		return NULL;
	}
	cnMeshIntegrals( m );
	m->solid = closed && m->volume > 0.0;
	if ( closed && m->volume <= 0.0 )
	{
		snprintf( m->defect, sizeof( m->defect ),
				  "the triangles are wound inward (signed volume %g <= 0): reverse every triangle", m->volume );
	}
	else if ( closed )
	{
		m->defect[0] = '\0';
	}

	// active edges: open ones, and convex ones sharper than CN_ACTIVE_EDGE_COS
	for ( int t = 0; t < m->triangleCount; ++t )
	{
		const int* tri = m->triangles + 3 * t;
		cnVec3 v[3] = { vertices[tri[0]], vertices[tri[1]], vertices[tri[2]] };
		uint8_t flags = 0;
		for ( int k = 0; k < 3; ++k )
		{
			int nb = m->neighbors[3 * t + k];
			if ( nb < 0 )
			{
				flags |= (uint8_t)( 1u << k );
				continue;
			}
			const int* o = m->triangles + 3 * nb;
			cnVec3 c = cnMulSV( 1.0 / 3.0, cnAdd( vertices[o[0]], cnAdd( vertices[o[1]], vertices[o[2]] ) ) );
			if ( cnIsActiveEdge( v, m->normals[t], k, m->normals[nb], c ) )
			{
				flags |= (uint8_t)( 1u << k );
			}
		}
		m->edgeFlags[t] = flags;
	}
	return m;
}

const cnMesh* cnMeshRetain( const cnMesh* mesh )
{
	atomic_fetch_add( &( (cnMesh*)mesh )->refCount, 1 );
	return mesh;
}

void cnMeshRelease( const cnMesh* mesh )
{
	if ( mesh == NULL )
	{
		return;
	}
	cnMesh* m = (cnMesh*)mesh;
	if ( atomic_fetch_sub( &m->refCount, 1 ) == 1 )
	{
		cnFreeMesh( m );
	}
}

void cnReleaseMesh( cnMesh* mesh )
{
	cnMeshRelease( mesh );
}

int cnMesh_GetVertexCount( const cnMesh* mesh )
{
	return mesh != NULL ? mesh->vertexCount : 0;
}

cnVec3 cnMesh_GetVertex( const cnMesh* mesh, int i )
{
	return mesh != NULL && i >= 0 && i < mesh->vertexCount ? mesh->vertices[i] : cnVec3_zero;
}

int cnMesh_GetTriangleCount( const cnMesh* mesh )
{
	return mesh != NULL ? mesh->triangleCount : 0;
}

void cnMesh_GetTriangle( const cnMesh* mesh, int i, int indices[3] )
{
	bool valid = mesh != NULL && i >= 0 && i < mesh->triangleCount;
	for ( int k = 0; k < 3; ++k )
	{
		indices[k] = valid ? mesh->triangles[3 * i + k] : 0;
	}
}

bool cnMesh_IsSolid( const cnMesh* mesh )
{
	return mesh != NULL && mesh->solid;
}

const char* cnMesh_GetDefect( const cnMesh* mesh )
{
	return mesh != NULL ? mesh->defect : "no mesh";
}

cnAABB cnMeshAABB( const cnMesh* mesh, cnTransform xf )
{
	cnAABB box = { xf.p, xf.p };
	for ( int i = 0; i < mesh->vertexCount; ++i )
	{
		cnVec3 v = cnTransformPoint( xf, mesh->vertices[i] );
		box.lower = i == 0 ? v : cnMin( box.lower, v );
		box.upper = i == 0 ? v : cnMax( box.upper, v );
	}
	return box;
}

cnMassData cnMeshMass( const cnMesh* mesh, double density )
{
	cnMassData md;
	md.mass = mesh->solid ? density * mesh->volume : 0.0;
	md.center = mesh->centroid;
	md.inertia = cnMulSM( mesh->solid ? density : 0.0, mesh->inertia );
	return md;
}
