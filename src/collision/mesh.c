// SPDX-License-Identifier: MIT
// Triangle meshes: construction with validation, bounds, mass properties. (Skeleton: the tree, the
// solidity check and the volume integrals land with the mesh layer.)
#include "collision/mesh.h"

#include "error.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

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
	if ( m != NULL )
	{
		m->vertices = malloc( (size_t)vertexCount * sizeof( cnVec3 ) );
		m->triangles = malloc( (size_t)triangleCount * 3 * sizeof( int ) );
	}
	if ( m == NULL || m->vertices == NULL || m->triangles == NULL )
	{
		if ( m != NULL )
		{
			free( m->vertices );
			free( m->triangles );
			free( m );
		}
		cnSetError( cnError_outOfMemory, "out of memory" );
		return NULL;
	}
	atomic_init( &m->refCount, 1 );
	memcpy( m->vertices, vertices, (size_t)vertexCount * sizeof( cnVec3 ) );
	memcpy( m->triangles, indices, (size_t)triangleCount * 3 * sizeof( int ) );
	m->vertexCount = vertexCount;
	m->triangleCount = triangleCount;
	m->bounds.lower = m->bounds.upper = vertices[0];
	for ( int i = 1; i < vertexCount; ++i )
	{
		m->bounds.lower = cnMin( m->bounds.lower, vertices[i] );
		m->bounds.upper = cnMax( m->bounds.upper, vertices[i] );
	}
	m->solid = false;
	snprintf( m->defect, sizeof( m->defect ), "solidity is not checked yet" );
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
		free( m->vertices );
		free( m->triangles );
		free( m );
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

// (Skeleton: every triangle is tested; the tree replaces this.)
void cnMeshQuery( const cnMesh* mesh, cnAABB box, cnTriangleFn* fn, void* context )
{
	for ( int t = 0; t < mesh->triangleCount; ++t )
	{
		cnVec3 v[3] = { mesh->vertices[mesh->triangles[3 * t]], mesh->vertices[mesh->triangles[3 * t + 1]],
						mesh->vertices[mesh->triangles[3 * t + 2]] };
		cnAABB tb = { cnMin( v[0], cnMin( v[1], v[2] ) ), cnMax( v[0], cnMax( v[1], v[2] ) ) };
		if ( cnAABB_Overlaps( tb, box ) && fn( context, t, v ) == false )
		{
			return;
		}
	}
}

bool cnMeshRayCast( const cnMesh* mesh, cnVec3 origin, cnVec3 translation, double maxFraction, double* fraction,
					cnVec3* normal )
{
	(void)mesh;
	(void)origin;
	(void)translation;
	(void)maxFraction;
	(void)fraction;
	(void)normal;
	return false;
}
