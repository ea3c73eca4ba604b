// SPDX-License-Identifier: MIT
// Convex hulls: construction (qhull), mass properties, support mapping. (Skeleton: construction lands
// with the hull layer.)
#include "collision/hull.h"

#include "error.h"

#include <stdlib.h>

cnHull* cnCreateHull( const cnVec3* points, int count )
{
	(void)points;
	cnClearError();
	cnSetError( cnError_invalidArgument, "hulls are not built yet (%d points)", count );
	return NULL;
}

const cnHull* cnHullRetain( const cnHull* hull )
{
	atomic_fetch_add( &( (cnHull*)hull )->refCount, 1 );
	return hull;
}

void cnHullRelease( const cnHull* hull )
{
	if ( hull == NULL )
	{
		return;
	}
	cnHull* h = (cnHull*)hull;
	if ( atomic_fetch_sub( &h->refCount, 1 ) == 1 )
	{
		free( h->vertices );
		free( h->triangles );
		free( h->faceNormals );
		free( h->faceOffsets );
		free( h );
	}
}

void cnReleaseHull( cnHull* hull )
{
	cnHullRelease( hull );
}

int cnHull_GetVertexCount( const cnHull* hull )
{
	return hull != NULL ? hull->vertexCount : 0;
}

cnVec3 cnHull_GetVertex( const cnHull* hull, int i )
{
	return hull != NULL && i >= 0 && i < hull->vertexCount ? hull->vertices[i] : cnVec3_zero;
}

int cnHull_GetFaceCount( const cnHull* hull )
{
	return hull != NULL ? hull->faceCount : 0;
}

int cnHull_GetTriangleCount( const cnHull* hull )
{
	return hull != NULL ? hull->triangleCount : 0;
}

void cnHull_GetTriangle( const cnHull* hull, int i, int indices[3] )
{
	bool valid = hull != NULL && i >= 0 && i < hull->triangleCount;
	for ( int k = 0; k < 3; ++k )
	{
		indices[k] = valid ? hull->triangles[3 * i + k] : 0;
	}
}

cnAABB cnHullAABB( const cnHull* hull, cnTransform xf )
{
	cnAABB box = { xf.p, xf.p };
	for ( int i = 0; i < hull->vertexCount; ++i )
	{
		cnVec3 v = cnTransformPoint( xf, hull->vertices[i] );
		box.lower = i == 0 ? v : cnMin( box.lower, v );
		box.upper = i == 0 ? v : cnMax( box.upper, v );
	}
	return box;
}

cnMassData cnHullMass( const cnHull* hull, double density )
{
	cnMassData md;
	md.mass = density * hull->volume;
	md.center = hull->centroid;
	md.inertia = cnMulSM( density, hull->inertia );
	return md;
}

cnVec3 cnHullSupport( const cnHull* hull, cnVec3 d )
{
	int best = 0;
	double bestDot = -INFINITY;
	for ( int i = 0; i < hull->vertexCount; ++i )
	{
		double s = cnDot( hull->vertices[i], d );
		if ( s > bestDot )
		{
			best = i;
			bestDot = s;
		}
	}
	return hull->vertexCount > 0 ? hull->vertices[best] : cnVec3_zero;
}
