// SPDX-License-Identifier: MIT
// Shape geometry: tight world bounding boxes, closed-form mass properties and support mappings.
#include "collision/collision.h"
#include "collision/hull.h"
#include "collision/mesh.h"

// Planes are unbounded; their box is huge but finite so box arithmetic never meets infinity.
#define CN_PLANE_EXTENT 1.0e18

cnAABB cnComputeShapeAABB( const cnGeometry* g, cnTransform xf )
{
	cnVec3 c = xf.p;
	cnVec3 e;
	switch ( g->type )
	{
		case cnShape_sphere:
			e = cnV3( g->radius, g->radius, g->radius );
			break;

		case cnShape_box:
		{
			// extent along world axis i: sum over the box axes of |R_ij| h_j
			cnMat3 r = cnMat3FromQuat( xf.q );
			cnVec3 h = g->halfExtents;
			e = cnAdd( cnAdd( cnMulSV( h.x, cnAbs( r.cx ) ), cnMulSV( h.y, cnAbs( r.cy ) ) ),
					   cnMulSV( h.z, cnAbs( r.cz ) ) );
			break;
		}

		case cnShape_capsule:
		{
			// the segment's box grown by the radius
			cnVec3 a = cnAbs( cnRotate( xf.q, cnV3( 0.0, 0.0, 1.0 ) ) );
			e = cnAdd( cnMulSV( g->halfHeight, a ), cnV3( g->radius, g->radius, g->radius ) );
			break;
		}

		case cnShape_cylinder:
		{
			// each cap is a disc of radius r perpendicular to the unit axis a: its extent along
			// world axis i is r |e_i x a| = r sqrt(1 - a_i^2), added to the cap centre offset |a_i| h
			cnVec3 a = cnRotate( xf.q, cnV3( 0.0, 0.0, 1.0 ) );
			double r = g->radius, h = g->halfHeight;
			double sx = 1.0 - a.x * a.x, sy = 1.0 - a.y * a.y, sz = 1.0 - a.z * a.z;
			e.x = fabs( a.x ) * h + r * sqrt( sx > 0.0 ? sx : 0.0 );
			e.y = fabs( a.y ) * h + r * sqrt( sy > 0.0 ? sy : 0.0 );
			e.z = fabs( a.z ) * h + r * sqrt( sz > 0.0 ? sz : 0.0 );
			break;
		}

		case cnShape_polygon:
		{
			// the vertices' box grown by the edge radius in every direction (z too: a planar polygon
			// is a slab of thickness 2 r around its plane)
			cnVec3 lower = xf.p, upper = xf.p;
			for ( int i = 0; i < g->vertexCount; ++i )
			{
				cnVec3 v = cnTransformPoint( xf, g->vertices[i] );
				lower = i == 0 ? v : cnMin( lower, v );
				upper = i == 0 ? v : cnMax( upper, v );
			}
			cnVec3 r = cnV3( g->radius, g->radius, g->radius );
			cnAABB box = { cnSub( lower, r ), cnAdd( upper, r ) };
			return box;
		}

		case cnShape_hull:
			return cnHullAABB( g->hull, xf );

		case cnShape_mesh:
			return cnMeshAABB( g->mesh, xf );

		case cnShape_heightfield:
			return cnHeightfieldAABB( g->heightfield, xf );

		default:
		{
			cnAABB box = { { -CN_PLANE_EXTENT, -CN_PLANE_EXTENT, -CN_PLANE_EXTENT },
						   { CN_PLANE_EXTENT, CN_PLANE_EXTENT, CN_PLANE_EXTENT } };
			return box;
		}
	}
	cnAABB box = { cnSub( c, e ), cnAdd( c, e ) };
	return box;
}

cnMassData cnComputeShapeMass( const cnGeometry* g, double density )
{
	cnMassData md;
	md.mass = 0.0;
	md.center = cnVec3_zero;
	md.inertia = cnMat3_zero;

	switch ( g->type )
	{
		case cnShape_sphere:
		{
			double r = g->radius;
			double m = density * ( 4.0 / 3.0 ) * CN_PI * r * r * r;
			double i = 0.4 * m * r * r;
			md.mass = m;
			md.inertia = cnDiagonal( i, i, i );
			break;
		}

		case cnShape_box:
		{
			cnVec3 h = g->halfExtents;
			double m = density * 8.0 * h.x * h.y * h.z;
			double k = m / 3.0;
			md.mass = m;
			md.inertia = cnDiagonal( k * ( h.y * h.y + h.z * h.z ), k * ( h.x * h.x + h.z * h.z ),
									 k * ( h.x * h.x + h.y * h.y ) );
			break;
		}

		case cnShape_cylinder:
		{
			double r = g->radius, h = g->halfHeight;
			double m = density * CN_PI * r * r * 2.0 * h;
			double axial = 0.5 * m * r * r;
			// full length 2h: m (3 r^2 + (2h)^2) / 12
			double transverse = m * ( 3.0 * r * r + 4.0 * h * h ) / 12.0;
			md.mass = m;
			md.inertia = cnDiagonal( transverse, transverse, axial );
			break;
		}

		case cnShape_capsule:
		{
			double r = g->radius, h = g->halfHeight;
			double mc = density * CN_PI * r * r * 2.0 * h;
			// one hemisphere
			double mh = density * ( 2.0 / 3.0 ) * CN_PI * r * r * r;
			double axial = 0.5 * mc * r * r + 2.0 * ( 0.4 * mh * r * r );
			// A hemisphere has 2/5 mh r^2 about any axis through its flat face's centre. Its own
			// centre of mass sits 3r/8 from that face, so about a parallel axis through that centre
			// it has 2/5 mh r^2 - mh (3r/8)^2; moving to the capsule centre, h + 3r/8 away, adds
			// mh (h + 3r/8)^2. The sum simplifies to mh (2/5 r^2 + h^2 + 3/4 h r).
			double hemi = mh * ( 0.4 * r * r + h * h + 0.75 * h * r );
			double transverse = mc * ( 3.0 * r * r + 4.0 * h * h ) / 12.0 + 2.0 * hemi;
			md.mass = mc + 2.0 * mh;
			md.inertia = cnDiagonal( transverse, transverse, axial );
			break;
		}

		case cnShape_hull:
			md = cnHullMass( g->hull, density );
			break;

		case cnShape_mesh:
			// a solid mesh's volume integrals; other meshes are static only
			md = cnMeshMass( g->mesh, density );
			break;

		case cnShape_polygon:
			// FOSSSim's polygons are point masses at the vertices: the scene loader sets the body's
			// mass data, the shape gives none
			break;

		default:
			// planes are static only: no mass
			break;
	}
	return md;
}

cnVec3 cnSupport( const cnGeometry* g, cnVec3 d )
{
	// ties (a zero component of d) go to the positive side so the result never depends on the
	// sign of a zero
	switch ( g->type )
	{
		case cnShape_sphere:
		{
			cnVec3 u = cnNormalize( d );
			if ( cnLengthSquared( u ) == 0.0 )
			{
				u = cnV3( 0.0, 0.0, 1.0 );
			}
			return cnMulSV( g->radius, u );
		}

		case cnShape_box:
		{
			cnVec3 h = g->halfExtents;
			return cnV3( d.x >= 0.0 ? h.x : -h.x, d.y >= 0.0 ? h.y : -h.y, d.z >= 0.0 ? h.z : -h.z );
		}

		case cnShape_capsule:
		{
			cnVec3 u = cnNormalize( d );
			if ( cnLengthSquared( u ) == 0.0 )
			{
				u = cnV3( 0.0, 0.0, 1.0 );
			}
			cnVec3 core = cnV3( 0.0, 0.0, d.z >= 0.0 ? g->halfHeight : -g->halfHeight );
			return cnMulAdd( core, g->radius, u );
		}

		case cnShape_cylinder:
		{
			cnVec3 p = cnV3( 0.0, 0.0, d.z >= 0.0 ? g->halfHeight : -g->halfHeight );
			// the rim point along the radial part of d; when d is (nearly) axial every point of the
			// cap supports and its centre is the symmetric choice (the support value then differs
			// from the rim's by at most r * 1e-12 |d|)
			double rr = d.x * d.x + d.y * d.y;
			if ( rr > 1e-24 * cnLengthSquared( d ) && rr > 0.0 )
			{
				double s = g->radius / sqrt( rr );
				p.x = s * d.x;
				p.y = s * d.y;
			}
			return p;
		}

		case cnShape_polygon:
		{
			// the farthest vertex (the first among ties) plus the radius along d: the support of the
			// convex hull of the thickened polygon
			int best = 0;
			double bestDot = -INFINITY;
			for ( int i = 0; i < g->vertexCount; ++i )
			{
				double s = cnDot( g->vertices[i], d );
				if ( s > bestDot )
				{
					best = i;
					bestDot = s;
				}
			}
			cnVec3 u = cnNormalize( d );
			if ( cnLengthSquared( u ) == 0.0 )
			{
				u = cnV3( 0.0, 0.0, 1.0 );
			}
			cnVec3 v = g->vertexCount > 0 ? g->vertices[best] : cnVec3_zero;
			return cnMulAdd( v, g->radius, u );
		}

		case cnShape_hull:
			return cnHullSupport( g->hull, d );

		default:
			return cnVec3_zero;
	}
}
