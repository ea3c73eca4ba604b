// SPDX-License-Identifier: MIT
// Geometry builders shared by the collision and mass tests: primitive shapes as the narrow phase
// sees them (cnGeometry, no world involved), placements, rotations about the axes, and a
// comparison of the feature ids of two manifolds.
#pragma once

#include "collision/collision.h"

#include <stdbool.h>
#include <string.h>

/// A geometry of the given type with every field zero but the plane normal, +z.
static inline cnGeometry makeGeom( cnShapeType type )
{
	cnGeometry g;
	memset( &g, 0, sizeof( g ) );
	g.type = type;
	g.normal = cnV3( 0.0, 0.0, 1.0 );
	return g;
}

/// A sphere of radius r.
static inline cnGeometry sphereGeom( double r )
{
	cnGeometry g = makeGeom( cnShape_sphere );
	g.radius = r;
	return g;
}

/// A box with half extents (x, y, z).
static inline cnGeometry boxGeom( double x, double y, double z )
{
	cnGeometry g = makeGeom( cnShape_box );
	g.halfExtents = cnV3( x, y, z );
	return g;
}

/// A shape of the given type with radius r and half height h along z (capsule or cylinder).
static inline cnGeometry axialGeom( cnShapeType type, double r, double h )
{
	cnGeometry g = makeGeom( type );
	g.radius = r;
	g.halfHeight = h;
	return g;
}

/// A capsule of radius r whose core segment runs along z from -h to h.
static inline cnGeometry capsuleGeom( double r, double h )
{
	return axialGeom( cnShape_capsule, r, h );
}

/// A cylinder of radius r along z from -h to h.
static inline cnGeometry cylinderGeom( double r, double h )
{
	return axialGeom( cnShape_cylinder, r, h );
}

/// The plane n . x = offset (n a unit vector; solid below).
static inline cnGeometry planeGeom( cnVec3 n, double offset )
{
	cnGeometry g = makeGeom( cnShape_plane );
	g.normal = n;
	g.offset = offset;
	return g;
}

/// The placement at (x, y, z) with orientation q.
static inline cnTransform makeXf( double x, double y, double z, cnQuat q )
{
	cnTransform xf = { { x, y, z }, q };
	return xf;
}

/// The unrotated placement at (x, y, z).
static inline cnTransform at( double x, double y, double z )
{
	return makeXf( x, y, z, cnQuat_identity );
}

/// The rotation by a radians about x.
static inline cnQuat rotX( double a )
{
	return cnQuatFromAxisAngle( cnV3( 1, 0, 0 ), a );
}

/// The rotation by a radians about y.
static inline cnQuat rotY( double a )
{
	return cnQuatFromAxisAngle( cnV3( 0, 1, 0 ), a );
}

/// The rotation by a radians about z.
static inline cnQuat rotZ( double a )
{
	return cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), a );
}

/// True when both manifolds hold the same set of feature ids (the order of points is free): the same
/// features from step to step.
static inline bool sameIds( const cnManifold* m1, const cnManifold* m2 )
{
	if ( m1->pointCount != m2->pointCount )
	{
		return false;
	}
	for ( int i = 0; i < m1->pointCount; ++i )
	{
		bool found = false;
		for ( int j = 0; j < m2->pointCount; ++j )
		{
			found = found || m1->points[i].id == m2->points[j].id;
		}
		if ( found == false )
		{
			return false;
		}
	}
	return true;
}
