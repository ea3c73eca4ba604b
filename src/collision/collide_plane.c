// SPDX-License-Identifier: MIT
// Plane (shape A) against a convex shape (shape B). The plane is the half-space
// {x : dot(normal, x) <= offset} of its shape frame, so every candidate point of B is measured
// exactly by its signed height above the surface; the manifold normal is the plane normal.
#include "collision/collision.h"
#include "collision/hull.h"

// A cylinder counts as upright when its axis is within about 0.3 degrees of the plane normal
// (sine 0.005). It then stands on four rim points fixed in its own frame, which keeps their ids
// from step to step; they miss the true deepest rim point by at most r (1 - cos 45 deg) times
// that sine, 0.0015 r.
#define CN_UPRIGHT_SIN 0.005

typedef struct cnPlaneCandidate
{
	cnVec3 point;
	double separation;
	uint32_t id;
} cnPlaneCandidate;

// Writes the (up to) four deepest candidates with separation <= maxDistance to m, earlier
// candidates first on ties, so the choice never depends on rounding order.
static void cnKeepDeepest( const cnPlaneCandidate* c, int count, cnVec3 n, double maxDistance, cnManifold* m )
{
	bool used[8] = { false, false, false, false, false, false, false, false };
	int kept = 0;
	while ( kept < CN_MAX_MANIFOLD_POINTS )
	{
		int best = -1;
		for ( int i = 0; i < count; ++i )
		{
			if ( used[i] || c[i].separation > maxDistance )
			{
				continue;
			}
			if ( best < 0 || c[i].separation < c[best].separation )
			{
				best = i;
			}
		}
		if ( best < 0 )
		{
			break;
		}
		used[best] = true;
		cnManifoldPoint* mp = m->points + kept++;
		// midway between the surface point of B and its projection onto the plane
		mp->point = cnMulSub( c[best].point, 0.5 * c[best].separation, n );
		mp->separation = c[best].separation;
		mp->id = c[best].id;
	}
	m->pointCount = kept;
}

// Hull vertices within maxDistance of the plane, reduced to at most four: the deepest (the first
// by vertex index within a thousandth of the inner radius of it, so a hull resting on a face keeps
// the same points and ids from step to step), then the ones spanning the largest area (collide_clip.c).
// id = the vertex index.
static void cnCollidePlaneHull( const cnHull* hull, cnVec3 n, double h0, cnVec3 nB, cnTransform xfB,
								double maxDistance, cnManifold* m )
{
	cnClipPoint c[CN_HULL_MAX_VERTICES];
	int count = 0;
	for ( int i = 0; i < hull->vertexCount; ++i )
	{
		double separation = h0 + cnDot( nB, hull->vertices[i] );
		if ( separation > maxDistance )
		{
			continue;
		}
		c[count].point = cnTransformPoint( xfB, hull->vertices[i] );
		c[count].separation = separation;
		c[count].id = (uint32_t)i;
		++count;
	}
	int keep[CN_MAX_MANIFOLD_POINTS];
	int kept = cnReduceManifoldPoints( c, count, n, 1e-3 * hull->innerRadius, 1e-6 * hull->radius, keep );
	for ( int i = 0; i < kept; ++i )
	{
		const cnClipPoint* k = c + keep[i];
		cnManifoldPoint* mp = m->points + i;
		// midway between the vertex and its projection onto the plane
		mp->point = cnMulSub( k->point, 0.5 * k->separation, n );
		mp->separation = k->separation;
		mp->id = k->id;
	}
	m->pointCount = kept;
}

void cnCollidePlane( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					 cnManifold* m )
{
	m->pointCount = 0;
	// world plane: dot(n, x) = offset + dot(n, pA)
	cnVec3 n = cnRotate( xfA.q, a->normal );
	// height of B's origin above the plane
	double h0 = cnDot( n, cnSub( xfB.p, xfA.p ) ) - a->offset;
	// the plane normal in B's frame: heights of points of B are h0 + dot(nB, local point)
	cnVec3 nB = cnInvRotate( xfB.q, n );
	m->normal = n;

	cnPlaneCandidate c[8];
	int count = 0;
	switch ( b->type )
	{
		case cnShape_sphere:
		{
			c[0].separation = h0 - b->radius;
			c[0].point = cnMulSub( xfB.p, b->radius, n );
			c[0].id = 0;
			count = 1;
			break;
		}

		case cnShape_box:
		{
			// all eight vertices; id = the vertex's sign bits
			cnVec3 hb = b->halfExtents;
			for ( uint32_t v = 0; v < 8; ++v )
			{
				cnVec3 local = cnV3( ( v & 1u ) ? hb.x : -hb.x, ( v & 2u ) ? hb.y : -hb.y, ( v & 4u ) ? hb.z : -hb.z );
				c[v].separation = h0 + cnDot( nB, local );
				c[v].point = cnTransformPoint( xfB, local );
				c[v].id = v;
			}
			count = 8;
			break;
		}

		case cnShape_capsule:
		{
			// the lowest point of each cap sphere: both touch when the capsule lies flat
			double r = b->radius;
			for ( uint32_t e = 0; e < 2; ++e )
			{
				cnVec3 local = cnV3( 0.0, 0.0, e == 0 ? -b->halfHeight : b->halfHeight );
				c[e].separation = h0 + cnDot( nB, local ) - r;
				c[e].point = cnMulSub( cnTransformPoint( xfB, local ), r, n );
				c[e].id = e;
			}
			count = 2;
			break;
		}

		case cnShape_cylinder:
		{
			double r = b->radius, hh = b->halfHeight;
			// radial part of the normal in the cylinder frame: the deepest rim point of a cap lies
			// along its opposite
			double rho = sqrt( nB.x * nB.x + nB.y * nB.y );
			if ( rho < CN_UPRIGHT_SIN )
			{
				// upright: four points at 90 degrees on the lower cap's rim, along the cylinder's
				// own x and y axes; id = direction
				double z = nB.z > 0.0 ? -hh : hh;
				static const double dx[4] = { 1.0, 0.0, -1.0, 0.0 };
				static const double dy[4] = { 0.0, 1.0, 0.0, -1.0 };
				for ( int k = 0; k < 4; ++k )
				{
					cnVec3 local = cnV3( r * dx[k], r * dy[k], z );
					c[k].separation = h0 + cnDot( nB, local );
					c[k].point = cnTransformPoint( xfB, local );
					c[k].id = (uint32_t)k;
				}
				count = 4;
			}
			else
			{
				// tilted: the deepest rim point of each cap (one per cap rim when lying on its side)
				double ux = -nB.x / rho, uy = -nB.y / rho;
				for ( int e = 0; e < 2; ++e )
				{
					cnVec3 local = cnV3( r * ux, r * uy, e == 0 ? -hh : hh );
					c[e].separation = h0 + cnDot( nB, local );
					c[e].point = cnTransformPoint( xfB, local );
					c[e].id = 4u + (uint32_t)e;
				}
				count = 2;
			}
			break;
		}

		case cnShape_hull:
			cnCollidePlaneHull( b->hull, n, h0, nB, xfB, maxDistance, m );
			return;

		default:
			return;
	}

	cnKeepDeepest( c, count, n, maxDistance, m );
}
