// SPDX-License-Identifier: MIT
// Planar polygon against planar polygon, the contact model of FOSSSim's rigid bodies: every vertex of
// one polygon and every edge of the other whose distance is below the sum of the two edge radii
// (strict inequality) make one contact point with its own normal, from the closest point of the
// edge towards the vertex. Polygons need not be convex (FOSSSim's table has legs), so there is no
// separating axis or clipping here: the vertex-edge pairs are the contact set.
#include "collision/collision.h"

// Bits of a feature id: side (which polygon gives the vertex) << 30 | vertex << 15 | edge. The
// shape validation keeps vertex counts below 2^15 so ids never collide.
#define CN_POLYGON_INDEX_BITS 15

// The vertex-edge points of one polygon pair while the pairs are scanned, in scan order.
typedef struct cnPolygonContacts
{
	cnManifoldPoint points[CN_MAX_PAIR_POINTS];
	// discovery order of each kept point, so the kept points are reported in scan order
	int order[CN_MAX_PAIR_POINTS];
	int count;
	// how many points the scan found (kept or not)
	int found;
	// how many points may be kept
	int capacity;
} cnPolygonContacts;

static int cnEdgeCount( const cnGeometry* g )
{
	// a closed polygon has as many edges as vertices; two vertices make one segment (FOSSSim's closed
	// loop would count it twice, giving every contact on it twice); one vertex is a disc
	return g->vertexCount >= 3 ? g->vertexCount : g->vertexCount - 1;
}

// Keeps at most c->capacity points: when full, a deeper point replaces the shallowest kept one (the
// latest found among equally shallow ones), so the deepest pairs survive.
static void cnAddPolygonPoint( cnPolygonContacts* c, cnVec3 point, cnVec3 normal, double separation, uint32_t id )
{
	int slot = c->count;
	if ( slot == c->capacity )
	{
		slot = 0;
		for ( int i = 1; i < c->capacity; ++i )
		{
			if ( c->points[i].separation > c->points[slot].separation ||
				 ( c->points[i].separation == c->points[slot].separation && c->order[i] > c->order[slot] ) )
			{
				slot = i;
			}
		}
		if ( !( separation < c->points[slot].separation ) )
		{
			c->found += 1;
			return;
		}
	}
	else
	{
		c->count += 1;
	}
	cnManifoldPoint* mp = c->points + slot;
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

// Scans both polygons' vertex-edge pairs, keeping at most capacity points (the deepest), and sorts
// the kept points into scan order.
static void cnScanPolygons( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							double maxDistance, int capacity, cnPolygonContacts* c )
{
	c->count = 0;
	c->found = 0;
	c->capacity = capacity;

	// FOSSSim's order: the vertices of the first body against the edges of the second, then the
	// reverse
	cnVerticesAgainstEdges( a, xfA, b, xfB, maxDistance, -1.0, 0u, c );
	cnVerticesAgainstEdges( b, xfB, a, xfA, maxDistance, 1.0, 1u, c );

	// insertion sort by discovery order (the points are nearly sorted: only replacements move)
	for ( int i = 1; i < c->count; ++i )
	{
		cnManifoldPoint p = c->points[i];
		int order = c->order[i];
		int k = i - 1;
		while ( k >= 0 && c->order[k] > order )
		{
			c->points[k + 1] = c->points[k];
			c->order[k + 1] = c->order[k];
			k -= 1;
		}
		c->points[k + 1] = p;
		c->order[k + 1] = order;
	}
}

// Sets a manifold's normal to its deepest point's, for code that reads one normal per manifold.
static void cnSetDeepestNormal( cnManifold* m )
{
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

void cnCollidePolygons( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
						double maxDistance, cnManifold* m )
{
	cnPolygonContacts c;
	cnScanPolygons( a, xfA, b, xfB, maxDistance, CN_MAX_MANIFOLD_POINTS, &c );
	m->pointCount = c.count;
	for ( int i = 0; i < c.count; ++i )
	{
		m->points[i] = c.points[i];
	}
	if ( m->pointCount > 0 )
	{
		cnSetDeepestNormal( m );
	}
}

// Two vertex-edge normals belong to one manifold when they agree to round-off: the points of one flat
// face against one edge, the legs of a table on the floor. 1 - cos < 1e-12 is an angle below 1.5e-6.
#define CN_POLYGON_SAME_NORMAL ( 1.0 - 1.0e-12 )

int cnCollidePolygonManifolds( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB,
							   double maxDistance, cnManifold* manifolds, int capacity )
{
	cnPolygonContacts c;
	cnScanPolygons( a, xfA, b, xfB, maxDistance, CN_MAX_PAIR_POINTS, &c );

	// group the points in scan order: a point joins the first manifold that shares its normal and has
	// room, else opens a new one. Every method reads each point's own normal; grouping by normal makes
	// the manifold normal (what the impulse method and the penalty springs use) exact for every point.
	int count = 0;
	for ( int i = 0; i < c.count; ++i )
	{
		const cnManifoldPoint* p = c.points + i;
		int k = 0;
		while ( k < count && ( manifolds[k].pointCount == CN_MAX_MANIFOLD_POINTS ||
							   cnDot( manifolds[k].points[0].normal, p->normal ) < CN_POLYGON_SAME_NORMAL ) )
		{
			k += 1;
		}
		if ( k == count )
		{
			if ( count == capacity )
			{
				// more distinct normals than manifolds: this point is left out (capacity is
				// CN_MAX_PAIR_MANIFOLDS in the engine, far above what FOSSSim's scenes need)
				continue;
			}
			manifolds[count].pointCount = 0;
			count += 1;
		}
		manifolds[k].points[manifolds[k].pointCount++] = *p;
	}
	for ( int k = 0; k < count; ++k )
	{
		cnSetDeepestNormal( manifolds + k );
	}
	return count;
}
