// SPDX-License-Identifier: MIT
// Pairs with a mesh or a heightfield: convex shapes against triangles, planes against a mesh's
// vertices, meshes against meshes (Kleppmann's vertex-face and edge-edge contacts through both
// trees). Every routine works in the frame of the triangle side (the "source": a mesh or a
// heightfield), collects candidate points each with its own normal, then groups the points of equal
// normal into manifolds of at most four points (cnReduceManifoldPoints).
//
// Convex against a triangle: GJK/EPA between the convex and the triangle (a polygon of three
// vertices and radius 0) gives the normal; the triangle's feature along it (its face, an edge or a
// vertex) decides whether that normal stands. A contact on an internal edge or vertex (coplanar
// or concave neighbours, cnMesh.edgeFlags) takes the triangle's face normal instead, as Jolt's
// active edges do, so a box sliding over a floor of many triangles never meets the seams. With the
// face normal the convex's supporting feature (a box face, a capsule's segment, a cylinder's cap
// or side, a hull face or edge: collide_convex.c's cnMakeFeature, the same a convex pair clips) is
// clipped to the triangle; with an edge or vertex normal the triangle is clipped to the convex's
// face when it has one facing the normal, else the GJK/EPA point stands alone. Triangles are
// one-sided: a convex whose centre is behind a triangle's plane ignores it.
#include "collision/feature.h"
#include "collision/gjk.h"
#include "collision/hull.h"
#include "collision/mesh.h"

#include <stdlib.h>
#include <string.h>

// points of one normal merge into one manifold when their normals differ by less than ~0.8 degrees
#define CN_MESH_NORMAL_COS 0.9999
// a GJK/EPA normal within this of the face normal is the face normal (1 - cos: ~4.5e-5 rad)
#define CN_MESH_FACE_COS ( 1.0 - 1e-9 )
// a convex face facing the normal within ~18 degrees is clipped against (as collide_convex.c)
#define CN_MESH_CONVEX_FACE_COS 0.95
// depths within this fraction of the shape's size count as equal in the reduction (as collide_convex.c)
#define CN_MESH_DEPTH_TOLERANCE 1e-3

// feature id kinds, mixed with the triangle or vertex indices
#define CN_MESH_ID_FACE 0x01000000u
#define CN_MESH_ID_CONVEX_FACE 0x02000000u
#define CN_MESH_ID_WITNESS 0x03000000u
#define CN_MESH_ID_VERTEX_FACE 0x04000000u
#define CN_MESH_ID_FACE_VERTEX 0x05000000u
#define CN_MESH_ID_EDGE_EDGE 0x06000000u

// ---------------------------------------------------------------------------------------------
// candidate points

// A candidate contact point in the source's frame with its own normal (from the source to the other shape).
typedef struct cnMeshPoint
{
	cnVec3 point;
	cnVec3 normal;
	double separation;
	uint32_t id;
	// 0 for a vertex of a feature (a box corner, a mesh vertex, the deepest point), 1 for a crossing
	// of edges: the reduction starts from a vertex, so a flat contact keeps its corners
	int rank;
} cnMeshPoint;

// A growing list of candidates: on the stack up to 64, on the heap beyond.
typedef struct cnPointList
{
	cnMeshPoint* items;
	int count, capacity;
	cnMeshPoint inlineItems[64];
} cnPointList;

static void cnInitPoints( cnPointList* list )
{
	list->items = list->inlineItems;
	list->count = 0;
	list->capacity = 64;
}

static void cnFreePoints( cnPointList* list )
{
	if ( list->items != list->inlineItems )
	{
		free( list->items );
	}
}

static void cnPushPoint( cnPointList* list, cnVec3 point, cnVec3 normal, double separation, uint32_t id, int rank )
{
	if ( list->count == list->capacity )
	{
		int capacity = 2 * list->capacity;
		cnMeshPoint* items = malloc( (size_t)capacity * sizeof( cnMeshPoint ) );
		if ( items == NULL )
		{
			// out of memory: the points so far still make manifolds
			return;
		}
		memcpy( items, list->items, (size_t)list->count * sizeof( cnMeshPoint ) );
		cnFreePoints( list );
		list->items = items;
		list->capacity = capacity;
	}
	list->items[list->count++] = ( cnMeshPoint ){ point, normal, separation, id, rank };
}

// A feature id from a kind, an index (triangle, vertex or edge) and a local key: mixed so that
// neighbouring triangles' keys do not meet (ids only need to be stable, not decodable).
static uint32_t cnMeshId( uint32_t kind, uint32_t index, uint32_t key )
{
	uint32_t h = index * 2654435761u;
	h ^= key * 2246822519u + ( h >> 15 );
	return kind ^ ( h & 0x00ffffffu ) ^ ( ( h >> 24 ) << 27 );
}

// Groups the candidates by normal (in order of first appearance), keeps the capacity deepest
// groups, reduces each to at most four points and writes them as world manifolds: points through
// xf, normals rotated and negated when flip (the source is shape B). Returns the manifold count.
static int cnEmitManifolds( const cnPointList* list, cnTransform xf, bool flip, double scale, cnManifold* manifolds,
							int capacity )
{
	int n = list->count;
	if ( n == 0 )
	{
		return 0;
	}
	int* group = malloc( (size_t)n * sizeof( int ) );
	int* leader = malloc( (size_t)n * sizeof( int ) );
	double* depth = malloc( (size_t)n * sizeof( double ) );
	cnClipPoint* clip = calloc( (size_t)n, sizeof( cnClipPoint ) );
	if ( group == NULL || leader == NULL || depth == NULL || clip == NULL )
	{
		free( group );
		free( leader );
		free( depth );
		free( clip );
		return 0;
	}
	int groupCount = 0;
	for ( int i = 0; i < n; ++i )
	{
		const cnMeshPoint* p = list->items + i;
		int g = 0;
		while ( g < groupCount && cnDot( list->items[leader[g]].normal, p->normal ) < CN_MESH_NORMAL_COS )
		{
			++g;
		}
		if ( g == groupCount )
		{
			leader[groupCount] = i;
			depth[groupCount] = p->separation;
			++groupCount;
		}
		group[i] = g;
		depth[g] = fmin( depth[g], p->separation );
	}

	// more groups than manifolds: the deepest stay (ties to the first found)
	int count = 0;
	cnMat3 r = cnMat3FromQuat( xf.q );
	for ( int g = 0; g < groupCount && count < capacity; ++g )
	{
		int deeper = 0;
		for ( int h = 0; h < groupCount; ++h )
		{
			deeper += depth[h] < depth[g] || ( depth[h] == depth[g] && h < g );
		}
		if ( deeper >= capacity )
		{
			continue;
		}
		cnVec3 normal = list->items[leader[g]].normal;
		int m = 0;
		for ( int rank = 0; rank < 2; ++rank )
		{
			for ( int i = 0; i < n; ++i )
			{
				if ( group[i] == g && list->items[i].rank == rank )
				{
					clip[m++] = ( cnClipPoint ){ list->items[i].point, list->items[i].separation, list->items[i].id };
				}
			}
		}
		int keep[CN_MAX_MANIFOLD_POINTS];
		int kept = cnReduceManifoldPoints( clip, m, normal, CN_MESH_DEPTH_TOLERANCE * scale, 1e-6 * scale, keep );
		cnManifold* out = manifolds + count++;
		cnVec3 wn = cnMulMV( r, normal );
		out->normal = flip ? cnNeg( wn ) : wn;
		out->pointCount = kept;
		for ( int k = 0; k < kept; ++k )
		{
			cnManifoldPoint* mp = out->points + k;
			memset( mp, 0, sizeof( *mp ) );
			mp->point = cnTransformPoint( xf, clip[keep[k]].point );
			mp->separation = clip[keep[k]].separation;
			mp->id = clip[keep[k]].id;
			mp->normal = out->normal;
		}
	}
	free( group );
	free( leader );
	free( depth );
	free( clip );
	return count;
}

// ---------------------------------------------------------------------------------------------
// triangle sources: a mesh or a heightfield

typedef struct cnSource
{
	const cnMesh* mesh;
	const cnHeightfield* heightfield;
} cnSource;

static void cnSourceQuery( const cnSource* s, cnAABB box, cnTriangleFn* fn, void* context )
{
	if ( s->mesh != NULL )
	{
		cnMeshQuery( s->mesh, box, fn, context );
	}
	else
	{
		cnHeightfieldQuery( s->heightfield, box, fn, context );
	}
}

static uint8_t cnSourceEdgeFlags( const cnSource* s, int t )
{
	return s->mesh != NULL ? s->mesh->edgeFlags[t] : cnHeightfieldEdgeFlags( s->heightfield, t );
}

static int cnSourceNeighbor( const cnSource* s, int t, int k )
{
	return s->mesh != NULL ? s->mesh->neighbors[3 * t + k] : cnHeightfieldNeighbor( s->heightfield, t, k );
}

static cnVec3 cnTriangleNormal( const cnVec3 v[3] )
{
	return cnNormalize( cnCross( cnSub( v[1], v[0] ), cnSub( v[2], v[0] ) ) );
}

static cnVec3 cnSourceNormal( const cnSource* s, int t )
{
	if ( s->mesh != NULL )
	{
		return s->mesh->normals[t];
	}
	cnVec3 v[3];
	cnHeightfieldTriangle( s->heightfield, t, v );
	return cnTriangleNormal( v );
}

static cnAABB cnSourceBounds( const cnSource* s )
{
	if ( s->mesh != NULL )
	{
		return s->mesh->bounds;
	}
	const cnHeightfield* h = s->heightfield;
	cnAABB box = { { -0.5 * h->sizeX, -0.5 * h->sizeY, h->minHeight }, { 0.5 * h->sizeX, 0.5 * h->sizeY, h->maxHeight } };
	return box;
}

// Whether p projects inside the triangle of unit normal n (within a relative tolerance, so a point
// on a shared edge belongs to both triangles).
static bool cnProjectsInside( const cnVec3 v[3], cnVec3 n, cnVec3 p )
{
	for ( int k = 0; k < 3; ++k )
	{
		cnVec3 e = cnSub( v[( k + 1 ) % 3], v[k] );
		if ( cnDot( cnCross( e, cnSub( p, v[k] ) ), n ) < -1e-9 * cnLengthSquared( e ) )
		{
			return false;
		}
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// convex shapes against triangles

// Side planes of a convex polygon counter-clockwise about its unit normal n, facing outwards.
static int cnSidePlanes( const cnVec3* points, const uint8_t* ids, int count, cnVec3 n, cnClipPlane* planes )
{
	int planeCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		cnVec3 a = points[i], b = points[( i + 1 ) % count];
		cnVec3 s = cnNormalize( cnCross( cnSub( b, a ), n ) );
		if ( cnLengthSquared( s ) == 0.0 )
		{
			continue;
		}
		planes[planeCount++] = ( cnClipPlane ){ s, cnDot( s, a ), 128u + ids[i], -1 };
	}
	return planeCount;
}

typedef struct cnConvexQuery
{
	const cnGeometry* g;
	// the convex in the source's frame
	cnTransform xf;
	const cnSource* source;
	double maxDistance;
	// the convex's bounding radius: the scale of tolerances
	double radius;
	// the convex's centre (a hull's centroid; the origin of the others), for the one-sided test
	cnVec3 centre;
	cnPointList* list;
} cnConvexQuery;

// Face contact: the convex's feature facing the triangle clipped to it, plus the convex's deepest
// point along the face normal when the clipped points miss it (a curved shape, an internal edge).
static void cnFaceContact( cnConvexQuery* q, int t, const cnVec3 v[3], cnVec3 fn )
{
	cnVec3 support = cnTransformPoint( q->xf, cnSupport( q->g, cnInvRotate( q->xf.q, cnNeg( fn ) ) ) );
	double supportSep = cnDot( cnSub( support, v[0] ), fn );
	if ( supportSep > q->maxDistance )
	{
		return;
	}
	cnFeature f;
	cnMakeFeature( q->g, q->xf, cnNeg( fn ), &f );
	int added = 0;
	double minSep = INFINITY;
	if ( f.count >= 2 )
	{
		static const uint8_t triangleIds[3] = { 0, 1, 2 };
		cnClipPlane planes[3];
		int planeCount = cnSidePlanes( v, triangleIds, 3, fn, planes );
		cnClipVertex poly[CN_CLIP_MAX_VERTICES], scratch[CN_CLIP_MAX_VERTICES];
		for ( int i = 0; i < f.count; ++i )
		{
			poly[i].p = f.points[i];
			poly[i].key = 0x10000u | f.ids[i];
			poly[i].edge = 1u + f.ids[f.count == 2 ? 0 : i];
		}
		int count = cnClipPolygon( poly, f.count, planes, planeCount, 0.0, scratch );
		for ( int i = 0; i < count; ++i )
		{
			double sep = cnDot( cnSub( poly[i].p, v[0] ), fn );
			if ( sep > q->maxDistance )
			{
				continue;
			}
			cnPushPoint( q->list, cnMulSub( poly[i].p, 0.5 * sep, fn ), fn, sep,
						 cnMeshId( CN_MESH_ID_FACE, (uint32_t)t, poly[i].key ), poly[i].key >= 0x10000u ? 0 : 1 );
			minSep = fmin( minSep, sep );
			++added;
		}
	}
	if ( added == 0 || minSep > supportSep + CN_MESH_DEPTH_TOLERANCE * q->radius )
	{
		cnPushPoint( q->list, cnMulSub( support, 0.5 * supportSep, fn ), fn, supportSep,
					 cnMeshId( CN_MESH_ID_WITNESS, (uint32_t)t, 0 ), 0 );
	}
}

// Edge or vertex contact along the GJK/EPA normal n: the triangle clipped to the convex's face
// when one faces the triangle, plus the GJK/EPA point when the clipped points miss it.
static void cnEdgeContact( cnConvexQuery* q, int t, const cnVec3 v[3], cnVec3 n, cnVec3 witness, double distance )
{
	cnFeature f;
	cnMakeFeature( q->g, q->xf, cnNeg( n ), &f );
	int added = 0;
	double minSep = INFINITY;
	double mn = cnDot( f.normal, n );
	if ( f.count >= 3 && -mn >= CN_MESH_CONVEX_FACE_COS )
	{
		cnClipPlane planes[CN_FEATURE_MAX_VERTICES];
		int planeCount = cnSidePlanes( f.points, f.ids, f.count, f.normal, planes );
		cnClipVertex poly[CN_CLIP_MAX_VERTICES], scratch[CN_CLIP_MAX_VERTICES];
		for ( int i = 0; i < 3; ++i )
		{
			poly[i].p = v[i];
			poly[i].key = 0x10000u | (uint32_t)i;
			poly[i].edge = 1u + (uint32_t)i;
		}
		int count = cnClipPolygon( poly, 3, planes, planeCount, 0.0, scratch );
		for ( int i = 0; i < count; ++i )
		{
			// p + s n lies on the convex's face plane; the triangle is on the source's side
			double s = cnDot( cnSub( f.points[0], poly[i].p ), f.normal ) / mn;
			if ( s > q->maxDistance )
			{
				continue;
			}
			cnPushPoint( q->list, cnMulAdd( poly[i].p, 0.5 * s, n ), n, s,
						 cnMeshId( CN_MESH_ID_CONVEX_FACE, (uint32_t)t, poly[i].key ), poly[i].key >= 0x10000u ? 0 : 1 );
			minSep = fmin( minSep, s );
			++added;
		}
	}
	if ( added == 0 || minSep > distance + CN_MESH_DEPTH_TOLERANCE * q->radius )
	{
		cnPushPoint( q->list, witness, n, distance, cnMeshId( CN_MESH_ID_WITNESS, (uint32_t)t, 1 ), 0 );
	}
}

static bool cnConvexTriangle( void* context, int t, const cnVec3 v[3] )
{
	cnConvexQuery* q = context;
	cnVec3 fn = cnTriangleNormal( v );
	if ( cnLengthSquared( fn ) == 0.0 || cnDot( cnSub( q->centre, v[0] ), fn ) < 0.0 )
	{
		// no normal, or the convex's centre is behind the triangle: one-sided triangles ignore it
		return true;
	}

	// the triangle as a polygon about its centroid, so GJK works with small numbers
	cnVec3 ct = cnMulSV( 1.0 / 3.0, cnAdd( v[0], cnAdd( v[1], v[2] ) ) );
	cnVec3 local[3] = { cnSub( v[0], ct ), cnSub( v[1], ct ), cnSub( v[2], ct ) };
	cnGeometry tri = { 0 };
	tri.type = cnShape_polygon;
	tri.vertexCount = 3;
	tri.vertices = local;
	cnTransform xfl = { cnSub( q->xf.p, ct ), q->xf.q };
	cnDistanceOutput out = cnShapeDistanceLocal( &tri, q->g, xfl );
	if ( out.distance > q->maxDistance )
	{
		return true;
	}
	cnVec3 n = out.normal;

	// the triangle's feature along n: the vertices within a hair of the farthest
	double s[3], smax = -INFINITY, longest = 0.0;
	for ( int k = 0; k < 3; ++k )
	{
		s[k] = cnDot( v[k], n );
		smax = fmax( smax, s[k] );
		longest = fmax( longest, cnLength( cnSub( v[( k + 1 ) % 3], v[k] ) ) );
	}
	int top = 0, missing = -1, only = -1;
	for ( int k = 0; k < 3; ++k )
	{
		if ( s[k] >= smax - 1e-6 * longest )
		{
			++top;
			only = k;
		}
		else
		{
			missing = k;
		}
	}
	uint8_t flags = cnSourceEdgeFlags( q->source, t );
	bool active;
	// top == 0 only for a normal that is not finite: no feature to choose, the face stands in
	if ( top == 3 || top == 0 || cnDot( n, fn ) >= CN_MESH_FACE_COS )
	{
		active = false;
	}
	else if ( top == 2 )
	{
		// the edge from the vertex after the missing one
		active = ( flags & ( 1u << ( ( missing + 1 ) % 3 ) ) ) != 0;
	}
	else
	{
		// a vertex stands for an edge when either of its edges is active
		active = ( flags & ( ( 1u << only ) | ( 1u << ( ( only + 2 ) % 3 ) ) ) ) != 0;
	}
	if ( active == false || cnDot( n, fn ) < 0.0 )
	{
		cnFaceContact( q, t, v, fn );
	}
	else
	{
		cnVec3 witness = cnAdd( ct, cnLerp( out.pointA, out.pointB, 0.5 ) );
		cnEdgeContact( q, t, v, n, witness, out.distance );
	}
	return true;
}

// Convex g at xf (source frame) against the source's triangles under its box.
static void cnCollideConvexSource( const cnSource* source, const cnGeometry* g, cnTransform xf, double maxDistance,
								   cnPointList* list, double* scale )
{
	cnAABB box = cnComputeShapeAABB( g, xf );
	cnVec3 grow = cnV3( maxDistance, maxDistance, maxDistance );
	box.lower = cnSub( box.lower, grow );
	box.upper = cnAdd( box.upper, grow );
	cnVec3 centre = g->type == cnShape_hull ? cnTransformPoint( xf, g->hull->centroid ) : xf.p;
	cnConvexQuery q = { g, xf, source, maxDistance, cnShapeBoundingRadius( g ), centre, list };
	*scale = q.radius;
	cnSourceQuery( source, box, cnConvexTriangle, &q );
}

// ---------------------------------------------------------------------------------------------
// planes against meshes

// The mesh's vertices within maxDistance of the plane (world frame, normal from the plane).
static void cnCollidePlaneMesh( const cnGeometry* plane, cnTransform xfP, const cnMesh* mesh, cnTransform xfM,
								double maxDistance, cnPointList* list )
{
	cnVec3 n = cnRotate( xfP.q, plane->normal );
	double offset = plane->offset + cnDot( n, xfP.p );
	for ( int i = 0; i < mesh->vertexCount; ++i )
	{
		if ( mesh->vertexOwner[i] < 0 )
		{
			continue;
		}
		cnVec3 w = cnTransformPoint( xfM, mesh->vertices[i] );
		double sep = cnDot( n, w ) - offset;
		if ( sep <= maxDistance )
		{
			cnPushPoint( list, cnMulSub( w, 0.5 * sep, n ), n, sep, (uint32_t)i, 0 );
		}
	}
}

// ---------------------------------------------------------------------------------------------
// meshes against meshes (Kleppmann): vertex-face and edge-edge contacts through both trees

typedef struct cnMeshMeshQuery
{
	const cnSource* source;
	const cnMesh* mesh;
	// the mesh in the source's frame
	cnTransform xf;
	double maxDistance;
	// deepest penetration a contact may report: deeper ones belong to another face
	double depth;
	cnPointList* list;
	// vertex-face search: the vertex (in the frame of the triangles searched), its own shape (a mesh
	// or the heightfield) with its index there and the rotation from the triangles' frame to its
	// shape's, and the best face
	cnVec3 p;
	const cnMesh* vertexMesh;
	const cnHeightfield* vertexField;
	int vertexIndex;
	cnQuat toVertexFrame;
	double bestSep;
	int bestTriangle;
	cnVec3 bestNormal;
	// edge-edge search: the mesh's edge in the source's frame and the normals of its faces
	cnVec3 q0, q1, qn1, qn2;
	bool qTwo;
	uint32_t qEdge;
} cnMeshMeshQuery;

// A vertex touches a face only where it is its solid's farthest point towards the face, else the
// face lies beside it (a box's corner near the side of the box below it, found slightly inside that
// side, must not push sideways): no edge from the vertex may rise towards the face, along d, by more
// than CN_MESH_VERTEX_SLOPE of its length (about 11.5 degrees, room for faces tilted against each other).
#define CN_MESH_VERTEX_SLOPE 0.2

static bool cnRises( cnVec3 v, cnVec3 u, cnVec3 d )
{
	cnVec3 e = cnSub( u, v );
	return cnDot( e, d ) > CN_MESH_VERTEX_SLOPE * cnLength( e );
}

static bool cnVertexFacesAlong( const cnMeshMeshQuery* q, cnVec3 d )
{
	if ( q->vertexMesh != NULL )
	{
		const cnMesh* m = q->vertexMesh;
		int vi = q->vertexIndex;
		cnVec3 v = m->vertices[vi];
		for ( int f = m->fanStart[vi]; f < m->fanStart[vi + 1]; ++f )
		{
			const int* tri = m->triangles + 3 * m->fan[f];
			for ( int k = 0; k < 3; ++k )
			{
				if ( tri[k] != vi && cnRises( v, m->vertices[tri[k]], d ) )
				{
					return false;
				}
			}
		}
		return true;
	}
	// a heightfield sample's neighbours along the grid and the cells' diagonals
	const cnHeightfield* h = q->vertexField;
	int i = q->vertexIndex % h->columns, j = q->vertexIndex / h->columns;
	double dx = h->sizeX / ( h->columns - 1 ), dy = h->sizeY / ( h->rows - 1 );
	cnVec3 v = cnV3( i * dx, j * dy, h->heights[q->vertexIndex] );
	static const int di[6] = { 1, -1, 0, 0, 1, -1 }, dj[6] = { 0, 0, 1, -1, 1, -1 };
	for ( int k = 0; k < 6; ++k )
	{
		int a = i + di[k], b = j + dj[k];
		if ( a >= 0 && b >= 0 && a < h->columns && b < h->rows &&
			 cnRises( v, cnV3( a * dx, b * dy, h->heights[b * h->columns + a] ), d ) )
		{
			return false;
		}
	}
	return true;
}

// The face of least penetration (largest separation within [-depth, maxDistance]) that the point
// projects onto.
static bool cnVertexFace( void* context, int t, const cnVec3 v[3] )
{
	cnMeshMeshQuery* q = context;
	cnVec3 n = cnTriangleNormal( v );
	double d = cnDot( cnSub( q->p, v[0] ), n );
	if ( d > q->maxDistance || d < -q->depth || d <= q->bestSep || cnProjectsInside( v, n, q->p ) == false ||
		 cnVertexFacesAlong( q, cnRotate( q->toVertexFrame, cnNeg( n ) ) ) == false )
	{
		return true;
	}
	q->bestSep = d;
	q->bestTriangle = t;
	q->bestNormal = n;
	return true;
}

static cnAABB cnPointBox( cnVec3 p, double r )
{
	cnVec3 e = cnV3( r, r, r );
	return ( cnAABB ){ cnSub( p, e ), cnAdd( p, e ) };
}

// A source vertex p (source frame, index i) against the mesh's faces.
static void cnSourceVertex( cnMeshMeshQuery* q, int i, cnVec3 p )
{
	cnMeshMeshQuery* mq = q;
	mq->p = cnInvTransformPoint( q->xf, p );
	mq->vertexMesh = q->source->mesh;
	mq->vertexField = q->source->heightfield;
	mq->vertexIndex = i;
	mq->toVertexFrame = q->xf.q;
	mq->bestSep = -INFINITY;
	mq->bestTriangle = -1;
	cnMeshQuery( q->mesh, cnPointBox( mq->p, fmax( q->maxDistance, q->depth ) ), cnVertexFace, mq );
	if ( mq->bestTriangle >= 0 )
	{
		// the mesh's outward normal points at the source: the contact normal is its opposite
		cnVec3 n = cnNeg( cnRotate( q->xf.q, mq->bestNormal ) );
		cnPushPoint( q->list, cnMulAdd( p, 0.5 * mq->bestSep, n ), n, mq->bestSep,
					 cnMeshId( CN_MESH_ID_FACE_VERTEX, (uint32_t)i, (uint32_t)mq->bestTriangle ), 0 );
	}
}

typedef struct cnVertexWalk
{
	cnMeshMeshQuery* q;
	cnAABB region;
} cnVertexWalk;

// A source mesh's triangle in the region: its vertices it owns (each vertex once) against the mesh.
static bool cnSourceMeshVertices( void* context, int t, const cnVec3 v[3] )
{
	cnVertexWalk* w = context;
	const cnMesh* s = w->q->source->mesh;
	for ( int k = 0; k < 3; ++k )
	{
		int vi = s->triangles[3 * t + k];
		if ( s->vertexOwner[vi] == t && cnAABB_Contains( w->region, ( cnAABB ){ v[k], v[k] } ) )
		{
			cnSourceVertex( w->q, vi, v[k] );
		}
	}
	return true;
}

// Whether the unit direction n lies in the cone of outward normals of an edge between faces of
// normals n1 and n2 (n1 alone at an open edge): n = a n1 + b n2 with a, b >= 0, give or take about
// 3 degrees. Two faces resting on each other cross edges at their boundaries, and the slightest
// tilt puts the edges' common normal just outside one of the cones: those crossings are the corners
// of the contact and must stay.
#define CN_MESH_CONE_SLACK 0.05

static bool cnInEdgeCone( cnVec3 n, cnVec3 n1, cnVec3 n2, bool two )
{
	if ( two == false )
	{
		return cnDot( n, n1 ) > 0.0;
	}
	cnVec3 c = cnCross( n1, n2 );
	double slack = CN_MESH_CONE_SLACK * cnLength( c );
	return cnDot( cnCross( n, n2 ), c ) >= -slack && cnDot( cnCross( n1, n ), c ) >= -slack &&
		   cnDot( n, cnAdd( n1, n2 ) ) > 0.0;
}

// Source triangle t's active edges it owns against the mesh's edge in the query.
static bool cnEdgeEdge( void* context, int t, const cnVec3 v[3] )
{
	cnMeshMeshQuery* q = context;
	uint8_t flags = cnSourceEdgeFlags( q->source, t );
	for ( int k = 0; k < 3; ++k )
	{
		int nb = cnSourceNeighbor( q->source, t, k );
		if ( ( flags & ( 1u << k ) ) == 0 || ( nb >= 0 && nb < t ) )
		{
			continue;
		}
		cnVec3 p0 = v[k], p1 = v[( k + 1 ) % 3];
		cnVec3 d1 = cnSub( p1, p0 ), d2 = cnSub( q->q1, q->q0 ), r = cnSub( p0, q->q0 );
		double a = cnDot( d1, d1 ), e = cnDot( d2, d2 ), b = cnDot( d1, d2 );
		double c = cnDot( d1, r ), f = cnDot( d2, r );
		double denom = a * e - b * b;
		if ( denom <= 1e-12 * a * e )
		{
			// parallel edges: their contacts are the vertex-face ones
			continue;
		}
		// closest points of the two lines; inside both edges only (the ends are vertex contacts)
		double s = ( b * f - c * e ) / denom, u = ( a * f - b * c ) / denom;
		if ( s <= 1e-6 || s >= 1.0 - 1e-6 || u <= 1e-6 || u >= 1.0 - 1e-6 )
		{
			continue;
		}
		cnVec3 pa = cnMulAdd( p0, s, d1 ), pb = cnMulAdd( q->q0, u, d2 );
		cnVec3 n = cnNormalize( cnCross( d1, d2 ) );
		cnVec3 n1 = cnSourceNormal( q->source, t );
		cnVec3 n2 = nb >= 0 ? cnSourceNormal( q->source, nb ) : n1;
		if ( cnDot( n, cnAdd( n1, n2 ) ) < 0.0 )
		{
			n = cnNeg( n );
		}
		if ( cnInEdgeCone( n, n1, n2, nb >= 0 ) == false || cnInEdgeCone( cnNeg( n ), q->qn1, q->qn2, q->qTwo ) == false )
		{
			continue;
		}
		double sep = cnDot( cnSub( pb, pa ), n );
		if ( sep > q->maxDistance || sep < -q->depth )
		{
			continue;
		}
		cnPushPoint( q->list, cnLerp( pa, pb, 0.5 ), n, sep,
					 cnMeshId( CN_MESH_ID_EDGE_EDGE, (uint32_t)( 3 * t + k ), q->qEdge ), 1 );
	}
	return true;
}

static double cnMinExtent( cnAABB box )
{
	cnVec3 e = cnSub( box.upper, box.lower );
	return fmin( e.x, fmin( e.y, e.z ) );
}

// Mesh at xf (source frame) against the source: the mesh's vertices on the source's faces, the
// source's vertices on the mesh's faces, and the crossing active edges of both.
static void cnCollideMeshSource( const cnSource* source, const cnMesh* mesh, cnTransform xf, double maxDistance,
								 cnPointList* list, double* scale )
{
	cnAABB region = cnMeshAABB( mesh, xf );
	cnAABB sourceBounds = cnSourceBounds( source );
	cnVec3 grow = cnV3( maxDistance, maxDistance, maxDistance );
	region.lower = cnSub( region.lower, grow );
	region.upper = cnAdd( region.upper, grow );
	if ( cnAABB_Overlaps( region, sourceBounds ) == false )
	{
		return;
	}
	*scale = 0.5 * cnLength( cnSub( mesh->bounds.upper, mesh->bounds.lower ) );
	// a quarter of the thinner solid: a resting contact sinks far less, and a vertex deeper than
	// that is nearer another face
	double depth = 0.25 * cnMinExtent( mesh->bounds );
	if ( source->mesh != NULL && source->mesh->solid )
	{
		depth = fmin( depth, 0.25 * cnMinExtent( source->mesh->bounds ) );
	}
	cnMeshMeshQuery q;
	memset( &q, 0, sizeof( q ) );
	q.source = source;
	q.mesh = mesh;
	q.xf = xf;
	q.maxDistance = maxDistance;
	q.depth = depth;
	q.list = list;
	double reach = fmax( maxDistance, depth );

	// the mesh's vertices against the source's faces
	for ( int i = 0; i < mesh->vertexCount; ++i )
	{
		cnVec3 p = cnTransformPoint( xf, mesh->vertices[i] );
		if ( mesh->vertexOwner[i] < 0 || cnAABB_Overlaps( cnPointBox( p, reach ), sourceBounds ) == false )
		{
			continue;
		}
		q.p = p;
		q.vertexMesh = mesh;
		q.vertexField = NULL;
		q.vertexIndex = i;
		q.toVertexFrame = cnConjugate( xf.q );
		q.bestSep = -INFINITY;
		q.bestTriangle = -1;
		cnSourceQuery( source, cnPointBox( p, reach ), cnVertexFace, &q );
		if ( q.bestTriangle >= 0 )
		{
			cnPushPoint( list, cnMulSub( p, 0.5 * q.bestSep, q.bestNormal ), q.bestNormal, q.bestSep,
						 cnMeshId( CN_MESH_ID_VERTEX_FACE, (uint32_t)i, (uint32_t)q.bestTriangle ), 0 );
		}
	}

	// the source's vertices in the region against the mesh's faces
	if ( source->mesh != NULL )
	{
		cnVertexWalk w = { &q, region };
		cnMeshQuery( source->mesh, region, cnSourceMeshVertices, &w );
	}
	else
	{
		const cnHeightfield* h = source->heightfield;
		double dx = h->sizeX / ( h->columns - 1 ), dy = h->sizeY / ( h->rows - 1 );
		double x0 = -0.5 * h->sizeX, y0 = -0.5 * h->sizeY;
		int i0 = (int)fmax( 0.0, ceil( ( region.lower.x - x0 ) / dx ) );
		int i1 = (int)fmin( h->columns - 1.0, floor( ( region.upper.x - x0 ) / dx ) );
		int j0 = (int)fmax( 0.0, ceil( ( region.lower.y - y0 ) / dy ) );
		int j1 = (int)fmin( h->rows - 1.0, floor( ( region.upper.y - y0 ) / dy ) );
		for ( int j = j0; j <= j1; ++j )
		{
			for ( int i = i0; i <= i1; ++i )
			{
				double z = h->heights[(size_t)j * (size_t)h->columns + (size_t)i];
				if ( z >= region.lower.z && z <= region.upper.z )
				{
					cnSourceVertex( &q, j * h->columns + i, cnV3( x0 + i * dx, y0 + j * dy, z ) );
				}
			}
		}
	}

	// crossing edges: each active edge of the mesh (once) against the source's active edges near it
	for ( int t = 0; t < mesh->triangleCount; ++t )
	{
		uint8_t flags = mesh->edgeFlags[t];
		for ( int k = 0; k < 3 && flags != 0; ++k )
		{
			int nb = mesh->neighbors[3 * t + k];
			if ( ( flags & ( 1u << k ) ) == 0 || ( nb >= 0 && nb < t ) )
			{
				continue;
			}
			q.q0 = cnTransformPoint( xf, mesh->vertices[mesh->triangles[3 * t + k]] );
			q.q1 = cnTransformPoint( xf, mesh->vertices[mesh->triangles[3 * t + ( k + 1 ) % 3]] );
			q.qn1 = cnRotate( xf.q, mesh->normals[t] );
			q.qn2 = nb >= 0 ? cnRotate( xf.q, mesh->normals[nb] ) : q.qn1;
			q.qTwo = nb >= 0;
			q.qEdge = (uint32_t)( 3 * t + k );
			cnAABB box = { cnMin( q.q0, q.q1 ), cnMax( q.q0, q.q1 ) };
			box.lower = cnSub( box.lower, cnV3( reach, reach, reach ) );
			box.upper = cnAdd( box.upper, cnV3( reach, reach, reach ) );
			if ( cnAABB_Overlaps( box, sourceBounds ) )
			{
				cnSourceQuery( source, box, cnEdgeEdge, &q );
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// dispatch

int cnCollideMeshPair( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					   cnManifold* manifolds, int capacity )
{
	if ( capacity <= 0 || a->type == cnShape_polygon || b->type == cnShape_polygon )
	{
		return 0;
	}
	cnPointList list;
	cnInitPoints( &list );
	double scale = 1.0;
	int count = 0;
	bool sourceA = cnIsManifoldSource( a->type ), sourceB = cnIsManifoldSource( b->type );

	if ( a->type == cnShape_plane || b->type == cnShape_plane )
	{
		// a plane touches a mesh's vertices; heightfields and planes are both static
		bool planeA = a->type == cnShape_plane;
		const cnGeometry* mesh = planeA ? b : a;
		if ( mesh->type == cnShape_mesh )
		{
			cnCollidePlaneMesh( planeA ? a : b, planeA ? xfA : xfB, mesh->mesh, planeA ? xfB : xfA, maxDistance, &list );
			cnAABB box = mesh->mesh->bounds;
			scale = 0.5 * cnLength( cnSub( box.upper, box.lower ) );
			count = cnEmitManifolds( &list, cnTransform_identity, planeA == false, scale, manifolds, capacity );
		}
	}
	else if ( sourceA && sourceB )
	{
		// a heightfield is always the source; of two meshes, A is
		bool flip = b->type == cnShape_heightfield;
		const cnGeometry* s = flip ? b : a;
		const cnGeometry* m = flip ? a : b;
		if ( m->type == cnShape_mesh )
		{
			cnSource source = { s->mesh, s->heightfield };
			cnTransform xfS = flip ? xfB : xfA, xfM = flip ? xfA : xfB;
			cnCollideMeshSource( &source, m->mesh, cnInvMulTransforms( xfS, xfM ), maxDistance, &list, &scale );
			count = cnEmitManifolds( &list, xfS, flip, scale, manifolds, capacity );
		}
	}
	else
	{
		// a convex shape against the triangles
		bool flip = sourceB;
		const cnGeometry* s = flip ? b : a;
		const cnGeometry* g = flip ? a : b;
		cnSource source = { s->type == cnShape_mesh ? s->mesh : NULL, s->type == cnShape_heightfield ? s->heightfield : NULL };
		cnTransform xfS = flip ? xfB : xfA, xfG = flip ? xfA : xfB;
		cnCollideConvexSource( &source, g, cnInvMulTransforms( xfS, xfG ), maxDistance, &list, &scale );
		count = cnEmitManifolds( &list, xfS, flip, scale, manifolds, capacity );
	}
	cnFreePoints( &list );
	return count;
}
