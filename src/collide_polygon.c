// SPDX-License-Identifier: MIT
// Planar polygon against planar polygon, the contact model of FOSSSim's rigid bodies: every vertex of
// one polygon and every edge of the other whose distance is below the sum of the two edge radii
// (strict inequality) make one contact point with its own normal, from the closest point of the
// edge towards the vertex. Polygons need not be convex (FOSSSim's table has legs), so there is no
// separating axis or clipping here: the vertex-edge pairs are the contact set.
#include "collision.h"

// Bits of a feature id: side (which polygon gives the vertex) << 30 | vertex << 15 | edge. The
// shape validation keeps vertex counts below 2^15 so ids never collide.
#define CN_POLYGON_INDEX_BITS 15

// A candidate contact while the pairs are scanned: the manifold point plus its discovery order.
typedef struct cnPolygonContacts
{
	cnManifold* m;
	// discovery order of each kept point, so the kept points are reported in scan order
	int order[CN_MAX_MANIFOLD_POINTS];
	int found;
} cnPolygonContacts;

static int cnEdgeCount( const cnGeometry* g )
{
	// a closed polygon has as many edges as vertices; two vertices make one segment (FOSSSim's closed
	// loop would count it twice, giving every contact on it twice); one vertex is a disc
	return g->vertexCount >= 3 ? g->vertexCount : g->vertexCount - 1;
}

// Keeps at most CN_MAX_MANIFOLD_POINTS points: when full, a deeper point replaces the shallowest
// kept one (the latest found among equally shallow ones), so the deepest pairs survive.
static void cnAddPolygonPoint( cnPolygonContacts* c, cnVec3 point, cnVec3 normal, double separation, uint32_t id )
{
	cnManifold* m = c->m;
	int slot = m->pointCount;
	if ( slot == CN_MAX_MANIFOLD_POINTS )
	{
		slot = 0;
		for ( int i = 1; i < CN_MAX_MANIFOLD_POINTS; ++i )
		{
			if ( m->points[i].separation > m->points[slot].separation ||
				 ( m->points[i].separation == m->points[slot].separation && c->order[i] > c->order[slot] ) )
			{
				slot = i;
			}
		}
		if ( !( separation < m->points[slot].separation ) )
		{
			c->found += 1;
			return;
		}
	}
	else
	{
		m->pointCount += 1;
	}
	cnManifoldPoint* mp = m->points + slot;
	mp->point = point;
	mp->normal = normal;
	mp->separation = separation;
	mp->id = id;
	c->order[slot] = c->found;
	c->found += 1;
}

// Vertices of polygon v (at xfV) against the edges of polygon e (at xfE). The work is done in e's
// frame, so each vertex is transformed once. sign is +1 when e is shape A (the normal from the edge to
// the vertex then points from A to B) and -1 when e is shape B.
static void cnVerticesAgainstEdges( const cnGeometry* v, cnTransform xfV, const cnGeometry* e, cnTransform xfE,
									double maxDistance, double sign, uint32_t side, cnPolygonContacts* c )
{
	int edgeCount = cnEdgeCount( e );
	if ( edgeCount <= 0 || v->vertexCount <= 0 )
	{
		return;
	}
	double reach = v->radius + e->radius + maxDistance;

	// e's box in its own frame, grown by the reach, culls vertices that cannot touch any edge
	cnVec3 lower = e->vertices[0], upper = e->vertices[0];
	for ( int i = 1; i < e->vertexCount; ++i )
	{
		lower = cnMin( lower, e->vertices[i] );
		upper = cnMax( upper, e->vertices[i] );
	}

	cnTransform vToE = cnInvMulTransforms( xfE, xfV );
	for ( int i = 0; i < v->vertexCount; ++i )
	{
		cnVec3 p = cnTransformPoint( vToE, v->vertices[i] );
		// planar: only x and y count; a vertex off the plane is projected onto it
		p.z = 0.0;
		if ( p.x < lower.x - reach || p.x > upper.x + reach || p.y < lower.y - reach || p.y > upper.y + reach )
		{
			continue;
		}
		for ( int j = 0; j < edgeCount; ++j )
		{
			cnVec3 e0 = e->vertices[j];
			cnVec3 e1 = e->vertices[j + 1 < e->vertexCount ? j + 1 : 0];
			e0.z = 0.0;
			e1.z = 0.0;

			// closest point of the segment: t = (p - e0).(e1 - e0) / |e1 - e0|^2 clamped to [0, 1]
			cnVec3 d = cnSub( e1, e0 );
			double dd = cnDot( d, d );
			double t = dd > 0.0 ? cnDot( cnSub( p, e0 ), d ) / dd : 0.0;
			t = t < 0.0 ? 0.0 : ( t > 1.0 ? 1.0 : t );
			cnVec3 closest = cnMulAdd( e0, t, d );
			cnVec3 gap = cnSub( p, closest );
			double distance = cnLength( gap );
			double separation = distance - v->radius - e->radius;
			if ( !( separation < maxDistance ) )
			{
				continue;
			}

			// unit normal from the edge towards the vertex; a vertex exactly on the edge's centre line
			// takes the edge's perpendicular that points away from e's origin (its centre of mass)
			cnVec3 n;
			if ( distance > 0.0 )
			{
				n = cnMulSV( 1.0 / distance, gap );
			}
			else if ( dd > 0.0 )
			{
				n = cnNormalize( cnV3( -d.y, d.x, 0.0 ) );
				if ( cnDot( n, closest ) < 0.0 )
				{
					n = cnNeg( n );
				}
			}
			else
			{
				n = cnLengthSquared( closest ) > 0.0 ? cnNormalize( closest ) : cnV3( 1.0, 0.0, 0.0 );
			}

			// the point is the closest point of the edge's centre line: any point on the line through
			// the vertex along n gives both bodies the same moment arm r x n, and this one is where
			// FOSSSim measures the edge body's arm
			cnVec3 point = cnTransformPoint( xfE, closest );
			cnVec3 normal = cnMulSV( sign, cnRotate( xfE.q, n ) );
			uint32_t id = ( side << ( 2 * CN_POLYGON_INDEX_BITS ) ) | ( (uint32_t)i << CN_POLYGON_INDEX_BITS ) |
						  (uint32_t)j;
			cnAddPolygonPoint( c, point, normal, separation, id );
		}
	}
}

void cnCollidePolygons( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
						double maxDistance, cnManifold* m )
{
	m->pointCount = 0;
	cnPolygonContacts c = { m, { 0 }, 0 };

	// FOSSSim's order: the vertices of the first body against the edges of the second, then the
	// reverse
	cnVerticesAgainstEdges( a, xfA, b, xfB, maxDistance, -1.0, 0u, &c );
	cnVerticesAgainstEdges( b, xfB, a, xfA, maxDistance, 1.0, 1u, &c );
	if ( m->pointCount == 0 )
	{
		return;
	}

	// report the kept points in scan order (insertion sort of at most CN_MAX_MANIFOLD_POINTS)
	for ( int i = 1; i < m->pointCount; ++i )
	{
		cnManifoldPoint p = m->points[i];
		int order = c.order[i];
		int k = i - 1;
		while ( k >= 0 && c.order[k] > order )
		{
			m->points[k + 1] = m->points[k];
			c.order[k + 1] = c.order[k];
			k -= 1;
		}
		m->points[k + 1] = p;
		c.order[k + 1] = order;
	}

	// the manifold normal, for code that reads one normal per manifold: the deepest point's
	int deepest = 0;
	for ( int i = 1; i < m->pointCount; ++i )
	{
		if ( m->points[i].separation < m->points[deepest].separation )
		{
			deepest = i;
		}
	}
	m->normal = m->points[deepest].normal;
}
