// SPDX-License-Identifier: MIT
// Convex hulls: construction (qhull), exact mass properties, support mapping.
//
// qhull (the reentrant libqhull_r) finds which points are hull vertices and how they make faces;
// everything after is ours: vertices renumbered in the order of the input points, each face a
// merged coplanar polygon wound counter-clockwise seen from outside, its plane from Newell's method,
// the surface fanned into triangles, and the mass properties integrated exactly over those triangles
// (the divergence theorem, one tetrahedron per triangle).

// open_memstream (POSIX 2008): qhull's messages go to a memory buffer, never to stderr
#if !defined( _WIN32 ) && !defined( _POSIX_C_SOURCE )
#define _POSIX_C_SOURCE 200809L
#endif

#include "collision/hull.h"

#include "error.h"

#include <libqhull_r/qhull_ra.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Points that lie within this fraction of the cloud's extent of a line or a plane span no volume: a
// hull that thin has no usable inertia (and qhull would only meet it as a precision error).
#define CN_HULL_FLAT_TOLERANCE 1e-6

// qhull options: "Pp" keeps precision warnings out of the message buffer; the default pre-merge
// ('C-0': facets that are coplanar or non-convex within roundoff are merged) is what turns the
// two triangles of a box side into one quadrilateral face. No 'Qt': faces stay polygons.
#define CN_QHULL_OPTIONS "qhull Pp"

// Index of the point farthest from p (first on ties).
static int cnFarthestFrom( const cnVec3* points, int count, cnVec3 p )
{
	int best = 0;
	double bestD = -1.0;
	for ( int i = 0; i < count; ++i )
	{
		double d = cnLengthSquared( cnSub( points[i], p ) );
		if ( d > bestD )
		{
			best = i;
			bestD = d;
		}
	}
	return best;
}

// Sets an error and returns false when the points lie on a point, a line or a plane, relative to
// the cloud's extent (its diameter, approximated by the farthest pair found in two sweeps).
static bool cnCheckVolume( const cnVec3* points, int count )
{
	int i1 = cnFarthestFrom( points, count, points[0] );
	int i2 = cnFarthestFrom( points, count, points[i1] );
	cnVec3 p1 = points[i1];
	double size = cnLength( cnSub( points[i2], p1 ) );
	if ( size == 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "hull: all %d points coincide; a hull needs volume", count );
	}

	// farthest from the line through the farthest pair
	cnVec3 e = cnMulSV( 1.0 / size, cnSub( points[i2], p1 ) );
	int i3 = 0;
	double width = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		double d = cnLength( cnCross( cnSub( points[i], p1 ), e ) );
		if ( d > width )
		{
			i3 = i;
			width = d;
		}
	}
	if ( width <= CN_HULL_FLAT_TOLERANCE * size )
	{
		return cnSetError( cnError_invalidArgument,
						   "hull: the %d points are collinear (all within %.3g of the line through points %d and %d, "
						   "%.3g of their extent %.3g); a hull needs volume",
						   count, width, i1, i2, width / size, size );
	}

	// spread across the plane through those three points
	cnVec3 n = cnNormalize( cnCross( e, cnSub( points[i3], p1 ) ) );
	double lo = 0.0, hi = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		double d = cnDot( n, cnSub( points[i], p1 ) );
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	if ( hi - lo <= CN_HULL_FLAT_TOLERANCE * size )
	{
		return cnSetError( cnError_invalidArgument,
						   "hull: the %d points are coplanar (all within %.3g of the plane through points %d, %d and %d, "
						   "%.3g of their extent %.3g); a hull needs volume",
						   count, hi - lo, i1, i2, i3, ( hi - lo ) / size, size );
	}
	return true;
}

// The first line of qhull's message buffer, without its newline, into out.
static void cnFirstLine( const char* text, char* out, size_t capacity )
{
	size_t n = 0;
	while ( text != NULL && text[n] != '\0' && text[n] != '\n' && n + 1 < capacity )
	{
		out[n] = text[n];
		++n;
	}
	out[n] = '\0';
}

// A stream for qhull's messages. qhull writes to stderr when given none, so it always gets one.
typedef struct cnMessageStream
{
	FILE* file;
	char* buffer;
	size_t size;
} cnMessageStream;

static bool cnOpenMessages( cnMessageStream* s )
{
	memset( s, 0, sizeof( *s ) );
#if defined( _WIN32 )
	s->file = tmpfile();
#else
	s->file = open_memstream( &s->buffer, &s->size );
#endif
	return s->file != NULL;
}

// Closes the stream and copies the first line of what qhull wrote into out.
static void cnCloseMessages( cnMessageStream* s, char* out, size_t capacity )
{
	out[0] = '\0';
#if defined( _WIN32 )
	rewind( s->file );
	char line[256];
	if ( fgets( line, sizeof( line ), s->file ) != NULL )
	{
		cnFirstLine( line, out, capacity );
	}
	fclose( s->file );
#else
	fclose( s->file );
	cnFirstLine( s->buffer, out, capacity );
	free( s->buffer );
#endif
}

// Plane and orientation of a face loop: Newell's normal (the loop's area vector, exact for planar
// polygons and the least-squares-like average for slightly warped merged facets), reversed with its
// loop when it disagrees with qhull's outward normal.
static void cnFinishFace( cnHull* h, int face, const double* qhullNormal )
{
	int first = h->faceFirst[face], n = h->faceFirst[face + 1] - first;
	int* loop = h->faceVertices + first;
	cnVec3 o = h->vertices[loop[0]];
	cnVec3 area = cnVec3_zero;
	for ( int i = 1; i + 1 < n; ++i )
	{
		area = cnAdd( area, cnCross( cnSub( h->vertices[loop[i]], o ), cnSub( h->vertices[loop[i + 1]], o ) ) );
	}
	if ( area.x * qhullNormal[0] + area.y * qhullNormal[1] + area.z * qhullNormal[2] < 0.0 )
	{
		// reverse the loop, keeping its first vertex
		for ( int i = 1, j = n - 1; i < j; ++i, --j )
		{
			int t = loop[i];
			loop[i] = loop[j];
			loop[j] = t;
		}
		area = cnNeg( area );
	}
	cnVec3 normal = cnNormalize( area );
	double offset = 0.0;
	for ( int i = 0; i < n; ++i )
	{
		offset += cnDot( normal, h->vertices[loop[i]] );
	}
	h->faceNormals[face] = normal;
	h->faceOffsets[face] = offset / n;
}

// Volume, centroid and inertia about the centroid of the solid bounded by the (closed, outward)
// surface triangles, at unit density. Each triangle (a, b, c) and a reference point r span a
// tetrahedron of signed volume V = a . (b x c) / 6 (vertices relative to r); the signed tetrahedra
// sum to the solid (divergence theorem). A tetrahedron with one vertex at the origin has first
// moment V (a + b + c) / 4 and second moment
//   integral of x x^T dV = V / 20 (a a^T + b b^T + c c^T + s s^T),   s = a + b + c
// (Tonon, "Explicit exact formulas for the 3-D tetrahedron inertia tensor in terms of its vertex
// coordinates", J. Math. Stat. 1 (2004) 8-11). The reference point is the mean vertex, inside the
// hull, so the terms stay small and of one sign where they can; the second moment is then moved to
// the centroid (parallel axes) and turned into the inertia tensor I = tr(C) 1 - C.
static void cnHullMassProperties( cnHull* h )
{
	cnVec3 r = cnVec3_zero;
	for ( int i = 0; i < h->vertexCount; ++i )
	{
		r = cnAdd( r, h->vertices[i] );
	}
	r = cnMulSV( 1.0 / h->vertexCount, r );

	double v6 = 0.0;
	cnVec3 m24 = cnVec3_zero;
	// xx, yy, zz, xy, xz, yz of 120 times the second moment
	double c[6] = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
	for ( int t = 0; t < h->triangleCount; ++t )
	{
		cnVec3 a = cnSub( h->vertices[h->triangles[3 * t + 0]], r );
		cnVec3 b = cnSub( h->vertices[h->triangles[3 * t + 1]], r );
		cnVec3 d = cnSub( h->vertices[h->triangles[3 * t + 2]], r );
		double w = cnDot( a, cnCross( b, d ) );
		cnVec3 s = cnAdd( cnAdd( a, b ), d );
		v6 += w;
		m24 = cnMulAdd( m24, w, s );
		c[0] += w * ( a.x * a.x + b.x * b.x + d.x * d.x + s.x * s.x );
		c[1] += w * ( a.y * a.y + b.y * b.y + d.y * d.y + s.y * s.y );
		c[2] += w * ( a.z * a.z + b.z * b.z + d.z * d.z + s.z * s.z );
		c[3] += w * ( a.x * a.y + b.x * b.y + d.x * d.y + s.x * s.y );
		c[4] += w * ( a.x * a.z + b.x * b.z + d.x * d.z + s.x * s.z );
		c[5] += w * ( a.y * a.z + b.y * b.z + d.y * d.z + s.y * s.z );
	}
	double volume = v6 / 6.0;
	// centroid relative to r: (sum of V (a + b + c) / 4) / volume = (m24 / 24) / (v6 / 6)
	cnVec3 g = cnMulSV( 0.25 / v6, m24 );
	// second moment about the centroid: C_r / 120 - volume g g^T
	double xx = c[0] / 120.0 - volume * g.x * g.x;
	double yy = c[1] / 120.0 - volume * g.y * g.y;
	double zz = c[2] / 120.0 - volume * g.z * g.z;
	double xy = c[3] / 120.0 - volume * g.x * g.y;
	double xz = c[4] / 120.0 - volume * g.x * g.z;
	double yz = c[5] / 120.0 - volume * g.y * g.z;

	h->volume = volume;
	h->centroid = cnAdd( r, g );
	h->inertia.cx = cnV3( yy + zz, -xy, -xz );
	h->inertia.cy = cnV3( -xy, xx + zz, -yz );
	h->inertia.cz = cnV3( -xz, -yz, xx + yy );
}

static void cnFreeHull( cnHull* h )
{
	free( h->vertices );
	free( h->triangles );
	free( h->faceNormals );
	free( h->faceOffsets );
	free( h->faceFirst );
	free( h->faceVertices );
	free( h );
}

// The derived data of a hull whose vertices, faces and triangles are set: mass properties, outer
// and inner radius. false (error set) when the solid has no volume.
static bool cnFinishHull( cnHull* h, int count )
{
	cnHullMassProperties( h );
	if ( h->volume <= 0.0 || isfinite( h->volume ) == false )
	{
		return cnSetError( cnError_invalidArgument, "hull: the hull of %d points has no volume (%g)", count, h->volume );
	}
	h->radius = 0.0;
	for ( int i = 0; i < h->vertexCount; ++i )
	{
		double r = cnLength( h->vertices[i] );
		h->radius = r > h->radius ? r : h->radius;
	}
	h->innerRadius = INFINITY;
	for ( int i = 0; i < h->faceCount; ++i )
	{
		double d = h->faceOffsets[i] - cnDot( h->faceNormals[i], h->centroid );
		h->innerRadius = d < h->innerRadius ? d : h->innerRadius;
	}
	atomic_init( &h->refCount, 1 );
	return true;
}

// Copies qhull's result into h: vertices in the order of the input points, face loops, planes.
// Returns false (with the error set) when the hull has too many vertices or memory runs out.
static bool cnReadQhull( qhT* qh, int count, cnHull* h )
{
	int* map = malloc( (size_t)count * sizeof( int ) );
	if ( map == NULL )
	{
		return cnSetError( cnError_outOfMemory, "hull: out of memory (%d points)", count );
	}
	for ( int i = 0; i < count; ++i )
	{
		map[i] = -1;
	}
	vertexT* vertex;
	FORALLvertices
	{
		map[qh_pointid( qh, vertex->point )] = 0;
	}
	int vertexCount = 0;
	for ( int i = 0; i < count; ++i )
	{
		map[i] = map[i] == 0 ? vertexCount++ : -1;
	}
	if ( vertexCount > CN_HULL_MAX_VERTICES )
	{
		free( map );
		return cnSetError( cnError_invalidArgument,
						   "hull: the hull of the %d points has %d vertices, more than CN_HULL_MAX_VERTICES (%d); "
						   "simplify the point cloud",
						   count, vertexCount, CN_HULL_MAX_VERTICES );
	}

	int faceCount = 0, loopLength = 0;
	facetT* facet;
	FORALLfacets
	{
		++faceCount;
		loopLength += qh_setsize( qh, facet->vertices );
	}

	h->vertexCount = vertexCount;
	h->faceCount = faceCount;
	h->triangleCount = loopLength - 2 * faceCount;
	h->vertices = malloc( (size_t)vertexCount * sizeof( cnVec3 ) );
	h->faceNormals = malloc( (size_t)faceCount * sizeof( cnVec3 ) );
	h->faceOffsets = malloc( (size_t)faceCount * sizeof( double ) );
	h->faceFirst = malloc( (size_t)( faceCount + 1 ) * sizeof( int ) );
	h->faceVertices = calloc( (size_t)loopLength, sizeof( int ) );
	h->triangles = malloc( (size_t)( 3 * h->triangleCount ) * sizeof( int ) );
	if ( h->vertices == NULL || h->faceNormals == NULL || h->faceOffsets == NULL || h->faceFirst == NULL ||
		 h->faceVertices == NULL || h->triangles == NULL )
	{
		free( map );
		return cnSetError( cnError_outOfMemory, "hull: out of memory (%d vertices, %d faces)", vertexCount, faceCount );
	}

	FORALLvertices
	{
		double* p = vertex->point;
		h->vertices[map[qh_pointid( qh, p )]] = cnV3( p[0], p[1], p[2] );
	}

	// each face: its vertices in order around it (qh_facet3vertex walks the ridges of a merged
	// facet), wound counter-clockwise from outside by cnFinishFace, then fanned from its first vertex
	int face = 0, at = 0, tri = 0;
	FORALLfacets
	{
		h->faceFirst[face] = at;
		setT* loop = qh_facet3vertex( qh, facet );
		vertexT** vertexp;
		FOREACHvertex_( loop )
		{
			h->faceVertices[at++] = map[qh_pointid( qh, vertex->point )];
		}
		qh_settempfree( qh, &loop );
		h->faceFirst[face + 1] = at;
		cnFinishFace( h, face, facet->normal );
		const int* v = h->faceVertices + h->faceFirst[face];
		for ( int i = 1; i + 1 < at - h->faceFirst[face]; ++i )
		{
			h->triangles[3 * tri + 0] = v[0];
			h->triangles[3 * tri + 1] = v[i];
			h->triangles[3 * tri + 2] = v[i + 1];
			++tri;
		}
		++face;
	}
	free( map );
	return true;
}

cnHull* cnCreateHull( const cnVec3* points, int count )
{
	cnClearError();
	if ( points == NULL )
	{
		cnSetError( cnError_invalidArgument, "hull: points is NULL (count %d)", count );
		return NULL;
	}
	if ( count < 4 )
	{
		cnSetError( cnError_invalidArgument, "hull: %d points given; a hull needs at least 4 that span a volume",
					count );
		return NULL;
	}
	for ( int i = 0; i < count; ++i )
	{
		cnVec3 p = points[i];
		if ( isfinite( p.x ) == false || isfinite( p.y ) == false || isfinite( p.z ) == false )
		{
			cnSetError( cnError_invalidArgument, "hull: point %d of %d is not finite (%g, %g, %g)", i, count, p.x, p.y,
						p.z );
			return NULL;
		}
	}
	if ( cnCheckVolume( points, count ) == false )
	{
		return NULL;
	}

	cnHull* h = calloc( 1, sizeof( cnHull ) );
	coordT* coords = malloc( (size_t)count * 3 * sizeof( coordT ) );
	cnMessageStream messages;
	if ( h == NULL || coords == NULL || cnOpenMessages( &messages ) == false )
	{
		free( h );
		free( coords );
		cnSetError( cnError_outOfMemory, "hull: out of memory (%d points)", count );
		return NULL;
	}
	for ( int i = 0; i < count; ++i )
	{
		coords[3 * i + 0] = points[i].x;
		coords[3 * i + 1] = points[i].y;
		coords[3 * i + 2] = points[i].z;
	}

	// qhull reports its errors by longjmp back into qh_new_qhull, which returns the exit code; with
	// no output file it prints nothing but errors, and those go to the message stream
	qhT qhData;
	qhT* qh = &qhData;
	qh_zero( qh, messages.file );
	char options[] = CN_QHULL_OPTIONS;
	int exitCode = qh_new_qhull( qh, 3, count, coords, False, options, NULL, messages.file );
	bool ok = exitCode == 0 && cnReadQhull( qh, count, h );
	qh_freeqhull( qh, !qh_ALL );
	int curlong, totlong;
	qh_memfreeshort( qh, &curlong, &totlong );
	free( coords );

	char message[256];
	cnCloseMessages( &messages, message, sizeof( message ) );
	if ( exitCode != 0 )
	{
		cnSetError( cnError_invalidArgument, "hull: qhull failed on %d points (exit code %d): %s", count, exitCode,
					message );
		cnFreeHull( h );
		return NULL;
	}
	if ( ok == false )
	{
		cnFreeHull( h );
		return NULL;
	}

	if ( cnFinishHull( h, count ) == false )
	{
		cnFreeHull( h );
		return NULL;
	}
	return h;
}

cnHull* cnHullFromData( const cnHullData* d )
{
	if ( d->vertexCount < 4 || d->vertexCount > CN_HULL_MAX_VERTICES || d->faceCount < 4 ||
		 d->faceCount > 2 * CN_HULL_MAX_VERTICES || d->triangleCount < 4 || d->triangleCount > 2 * CN_HULL_MAX_VERTICES ||
		 d->faceFirst[0] != 0 )
	{
		cnSetError( cnError_invalidArgument, "hull: %d vertices, %d faces, %d triangles is not a hull", d->vertexCount,
					d->faceCount, d->triangleCount );
		return NULL;
	}
	int loopLength = d->faceFirst[d->faceCount];
	for ( int i = 0; i < d->faceCount; ++i )
	{
		if ( d->faceFirst[i + 1] - d->faceFirst[i] < 3 || d->faceFirst[i + 1] > loopLength )
		{
			cnSetError( cnError_invalidArgument, "hull: face %d has a broken vertex loop", i );
			return NULL;
		}
	}
	for ( int i = 0; i < loopLength; ++i )
	{
		if ( d->faceVertices[i] < 0 || d->faceVertices[i] >= d->vertexCount )
		{
			cnSetError( cnError_invalidArgument, "hull: a face vertex index is out of range" );
			return NULL;
		}
	}
	for ( int i = 0; i < 3 * d->triangleCount; ++i )
	{
		if ( d->triangles[i] < 0 || d->triangles[i] >= d->vertexCount )
		{
			cnSetError( cnError_invalidArgument, "hull: a triangle vertex index is out of range" );
			return NULL;
		}
	}
	// convex: every vertex on the inner side of every face plane, within a size-relative tolerance
	double size = 0.0;
	for ( int i = 0; i < d->vertexCount; ++i )
	{
		if ( cnIsValidVec3( d->vertices[i] ) == false )
		{
			cnSetError( cnError_invalidArgument, "hull: vertex %d is not finite", i );
			return NULL;
		}
		size = fmax( size, cnLength( d->vertices[i] ) );
	}
	for ( int f = 0; f < d->faceCount; ++f )
	{
		cnVec3 n = d->faceNormals[f];
		if ( cnIsValidVec3( n ) == false || fabs( cnLength( n ) - 1.0 ) > 1e-9 || isfinite( d->faceOffsets[f] ) == false )
		{
			cnSetError( cnError_invalidArgument, "hull: face %d has no unit normal", f );
			return NULL;
		}
		for ( int i = 0; i < d->vertexCount; ++i )
		{
			if ( cnDot( n, d->vertices[i] ) - d->faceOffsets[f] > 1e-6 * ( 1.0 + size ) )
			{
				cnSetError( cnError_invalidArgument, "hull: vertex %d lies outside face %d: not convex", i, f );
				return NULL;
			}
		}
	}

	cnHull* h = calloc( 1, sizeof( cnHull ) );
	if ( h == NULL )
	{
		cnSetError( cnError_outOfMemory, "hull: out of memory" );
		return NULL;
	}
	h->vertexCount = d->vertexCount;
	h->faceCount = d->faceCount;
	h->triangleCount = d->triangleCount;
	h->vertices = malloc( (size_t)d->vertexCount * sizeof( cnVec3 ) );
	h->faceNormals = malloc( (size_t)d->faceCount * sizeof( cnVec3 ) );
	h->faceOffsets = malloc( (size_t)d->faceCount * sizeof( double ) );
	h->faceFirst = malloc( (size_t)( d->faceCount + 1 ) * sizeof( int ) );
	h->faceVertices = malloc( (size_t)loopLength * sizeof( int ) );
	h->triangles = malloc( (size_t)( 3 * d->triangleCount ) * sizeof( int ) );
	if ( h->vertices == NULL || h->faceNormals == NULL || h->faceOffsets == NULL || h->faceFirst == NULL ||
		 h->faceVertices == NULL || h->triangles == NULL )
	{
		cnFreeHull( h );
		cnSetError( cnError_outOfMemory, "hull: out of memory" );
		return NULL;
	}
	memcpy( h->vertices, d->vertices, (size_t)d->vertexCount * sizeof( cnVec3 ) );
	memcpy( h->faceNormals, d->faceNormals, (size_t)d->faceCount * sizeof( cnVec3 ) );
	memcpy( h->faceOffsets, d->faceOffsets, (size_t)d->faceCount * sizeof( double ) );
	memcpy( h->faceFirst, d->faceFirst, (size_t)( d->faceCount + 1 ) * sizeof( int ) );
	memcpy( h->faceVertices, d->faceVertices, (size_t)loopLength * sizeof( int ) );
	memcpy( h->triangles, d->triangles, (size_t)( 3 * d->triangleCount ) * sizeof( int ) );
	if ( cnFinishHull( h, d->vertexCount ) == false )
	{
		cnFreeHull( h );
		return NULL;
	}
	return h;
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
		cnFreeHull( h );
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

int cnHullFace( const cnHull* hull, cnVec3 d )
{
	// the face whose outward normal is most aligned with d; the lowest index wins ties, so the
	// choice never depends on rounding order
	int best = 0;
	double bestDot = -INFINITY;
	for ( int i = 0; i < hull->faceCount; ++i )
	{
		double s = cnDot( hull->faceNormals[i], d );
		if ( s > bestDot )
		{
			best = i;
			bestDot = s;
		}
	}
	return best;
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
