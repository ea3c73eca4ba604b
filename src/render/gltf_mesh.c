// SPDX-License-Identifier: MIT
// Triangle meshes of recorded shapes for the glTF exporter (gltf_mesh.h): surfaces of revolution
// for spheres, capsules and cylinders, six quads for a box, a square for a plane, and polygons as
// slabs (their prism, triangulated by ear clipping, and their rounded edges), every triangle
// counter-clockwise seen from outside.
#include "render/gltf_mesh.h"
#include "render/joint_draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cnFreeMeshBuilder( cnMeshBuilder* m )
{
	free( m->positions );
	free( m->normals );
	free( m->uvs );
	free( m->indices );
	memset( m, 0, sizeof( *m ) );
}

// Adds a vertex given in the shape's frame (Cairn axes); its index.
static uint32_t cnMeshVertex( cnMeshBuilder* m, cnVec3 p, cnVec3 n, double u, double v )
{
	if ( m->failed )
	{
		return 0;
	}
	if ( m->vertexCount == m->vertexCapacity )
	{
		if ( m->vertexCapacity > INT32_MAX / 2 )
		{
			m->failed = true;
			return 0;
		}
		int capacity = m->vertexCapacity > 0 ? 2 * m->vertexCapacity : 256;
		float* positions = realloc( m->positions, sizeof( float ) * 3 * (size_t)capacity );
		m->positions = positions != NULL ? positions : m->positions;
		float* normals = realloc( m->normals, sizeof( float ) * 3 * (size_t)capacity );
		m->normals = normals != NULL ? normals : m->normals;
		float* uvs = realloc( m->uvs, sizeof( float ) * 2 * (size_t)capacity );
		m->uvs = uvs != NULL ? uvs : m->uvs;
		if ( positions == NULL || normals == NULL || uvs == NULL )
		{
			m->failed = true;
			return 0;
		}
		m->vertexCapacity = capacity;
	}
	cnVec3 gp = cnToGltf( p );
	cnVec3 gn = cnToGltf( n );
	int i = m->vertexCount++;
	m->positions[3 * i + 0] = (float)gp.x;
	m->positions[3 * i + 1] = (float)gp.y;
	m->positions[3 * i + 2] = (float)gp.z;
	m->normals[3 * i + 0] = (float)gn.x;
	m->normals[3 * i + 1] = (float)gn.y;
	m->normals[3 * i + 2] = (float)gn.z;
	m->uvs[2 * i + 0] = (float)u;
	m->uvs[2 * i + 1] = (float)v;
	return (uint32_t)i;
}

static void cnMeshTriangle( cnMeshBuilder* m, uint32_t a, uint32_t b, uint32_t c )
{
	if ( m->failed )
	{
		return;
	}
	if ( m->indexCount + 3 > m->indexCapacity )
	{
		if ( m->indexCapacity > INT32_MAX / 2 )
		{
			m->failed = true;
			return;
		}
		int capacity = m->indexCapacity > 0 ? 2 * m->indexCapacity : 768;
		uint32_t* indices = realloc( m->indices, sizeof( uint32_t ) * (size_t)capacity );
		if ( indices == NULL )
		{
			m->failed = true;
			return;
		}
		m->indices = indices;
		m->indexCapacity = capacity;
	}
	m->indices[m->indexCount++] = a;
	m->indices[m->indexCount++] = b;
	m->indices[m->indexCount++] = c;
}

// A point of the profile a surface of revolution about the shape's z axis is turned from: its
// distance from the axis and height, and its normal's radial and axial parts.
typedef struct cnProfilePoint
{
	double rho, z;
	double nRho, nZ;
} cnProfilePoint;

// Turns a profile (from top to bottom) about the z axis through center in segments steps. A ring on
// the axis (rho = 0) closes the surface with triangles; two profile points at the same place are a
// crease (the normal jumps there), where no surface is drawn. v runs along the profile by arc
// length, so an image is spread evenly from top to bottom.
static void cnMeshLathe( cnMeshBuilder* m, const cnProfilePoint* profile, int count, int segments, cnVec3 center )
{
	double total = 0.0;
	for ( int k = 1; k < count; ++k )
	{
		total += hypot( profile[k].rho - profile[k - 1].rho, profile[k].z - profile[k - 1].z );
	}
	uint32_t base = (uint32_t)m->vertexCount;
	double s = 0.0;
	for ( int k = 0; k < count; ++k )
	{
		const cnProfilePoint* p = profile + k;
		if ( k > 0 )
		{
			s += hypot( p->rho - profile[k - 1].rho, p->z - profile[k - 1].z );
		}
		for ( int j = 0; j <= segments; ++j )
		{
			// the seam's two columns get exactly the same place
			double phi = 2.0 * CN_PI * (double)( j % segments ) / (double)segments;
			double c = cos( phi ), sn = sin( phi );
			cnVec3 position = cnAdd( center, cnV3( p->rho * c, p->rho * sn, p->z ) );
			cnVec3 normal = cnV3( p->nRho * c, p->nRho * sn, p->nZ );
			cnMeshVertex( m, position, normal, (double)j / (double)segments, total > 0.0 ? s / total : 0.0 );
		}
	}
	uint32_t row = (uint32_t)segments + 1;
	for ( int k = 0; k + 1 < count; ++k )
	{
		const cnProfilePoint* p0 = profile + k;
		const cnProfilePoint* p1 = profile + k + 1;
		if ( p0->rho == p1->rho && p0->z == p1->z )
		{
			continue;
		}
		for ( uint32_t j = 0; j < (uint32_t)segments; ++j )
		{
			// a, b on this ring, c, d below them; seen from outside a is top left, d bottom right
			uint32_t a = base + (uint32_t)k * row + j;
			uint32_t b = a + 1, c = a + row, d = c + 1;
			if ( p1->rho > 0.0 )
			{
				cnMeshTriangle( m, a, c, d );
			}
			if ( p0->rho > 0.0 )
			{
				cnMeshTriangle( m, a, d, b );
			}
		}
	}
}

// A quad of half sizes hu, hv around center, spanned by the unit vectors u and v with u x v = n:
// counter-clockwise seen from the side n points to. The image covers it once, its top towards +v.
static void cnMeshQuad( cnMeshBuilder* m, cnVec3 center, cnVec3 u, cnVec3 v, cnVec3 n, double hu, double hv )
{
	static const double corner[4][2] = { { -1.0, -1.0 }, { 1.0, -1.0 }, { 1.0, 1.0 }, { -1.0, 1.0 } };
	uint32_t index[4];
	for ( int i = 0; i < 4; ++i )
	{
		cnVec3 p = cnMulAdd( cnMulAdd( center, corner[i][0] * hu, u ), corner[i][1] * hv, v );
		index[i] = cnMeshVertex( m, p, n, 0.5 * ( corner[i][0] + 1.0 ), 0.5 * ( 1.0 - corner[i][1] ) );
	}
	cnMeshTriangle( m, index[0], index[1], index[2] );
	cnMeshTriangle( m, index[0], index[2], index[3] );
}

// A box of half extents half[i] along the right-handed unit axes around center: six quads with
// their own normals, so the edges stay sharp.
static void cnMeshBox( cnMeshBuilder* m, cnVec3 center, const cnVec3 axes[3], const double half[3] )
{
	for ( int a = 0; a < 3; ++a )
	{
		int b = ( a + 1 ) % 3, c = ( a + 2 ) % 3;
		// +a: axes b, c (b x c = a); -a: c, b
		cnMeshQuad( m, cnMulAdd( center, half[a], axes[a] ), axes[b], axes[c], axes[a], half[b], half[c] );
		cnMeshQuad( m, cnMulAdd( center, -half[a], axes[a] ), axes[c], axes[b], cnNeg( axes[a] ), half[c], half[b] );
	}
}

// A hemisphere's profile of rings + 1 points from the pole (top: +1, bottom: -1) to the equator or
// from the equator to the pole, at height z0.
static int cnHemisphereProfile( cnProfilePoint* out, double radius, double z0, int rings, bool top )
{
	for ( int i = 0; i <= rings; ++i )
	{
		// angle from the top pole: 0 .. pi/2 for the top half, pi/2 .. pi for the bottom half
		int step = top ? i : rings + i;
		double theta = 0.5 * CN_PI * (double)step / (double)rings;
		double s = sin( theta ), c = cos( theta );
		if ( step == 0 || step == 2 * rings )
		{
			// exactly on the axis, so the pole closes with triangles
			s = 0.0;
			c = step == 0 ? 1.0 : -1.0;
		}
		else if ( step == rings )
		{
			s = 1.0;
			c = 0.0;
		}
		out[i] = ( cnProfilePoint ){ radius * s, z0 + radius * c, s, c };
	}
	return rings + 1;
}

static void cnMeshSphere( cnMeshBuilder* m, double radius, int segments )
{
	int rings = segments / 4 > 2 ? segments / 4 : 2;
	cnProfilePoint* profile = malloc( sizeof( cnProfilePoint ) * (size_t)( 2 * rings + 2 ) );
	if ( profile == NULL )
	{
		m->failed = true;
		return;
	}
	int n = cnHemisphereProfile( profile, radius, 0.0, rings, true );
	// the bottom half starts at the equator the top half ended at
	n += cnHemisphereProfile( profile + n - 1, radius, 0.0, rings, false ) - 1;
	cnMeshLathe( m, profile, n, segments, cnVec3_zero );
	free( profile );
}

// A capsule: the two hemispheres at +-halfHeight; their equators, one above the other, bound the
// cylindrical side.
static void cnMeshCapsule( cnMeshBuilder* m, double radius, double halfHeight, int segments )
{
	int rings = segments / 4 > 2 ? segments / 4 : 2;
	cnProfilePoint* profile = malloc( sizeof( cnProfilePoint ) * (size_t)( 2 * rings + 2 ) );
	if ( profile == NULL )
	{
		m->failed = true;
		return;
	}
	int n = cnHemisphereProfile( profile, radius, halfHeight, rings, true );
	n += cnHemisphereProfile( profile + n, radius, -halfHeight, rings, false );
	cnMeshLathe( m, profile, n, segments, cnVec3_zero );
	free( profile );
}

// A cylinder along z through center: the top cap, the side, the bottom cap (the rims repeated with
// the side's normal, so the edges stay sharp).
static void cnMeshCylinder( cnMeshBuilder* m, double radius, double halfHeight, int segments, cnVec3 center )
{
	cnProfilePoint profile[6] = {
		{ 0.0, halfHeight, 0.0, 1.0 },	  { radius, halfHeight, 0.0, 1.0 },	  { radius, halfHeight, 1.0, 0.0 },
		{ radius, -halfHeight, 1.0, 0.0 }, { radius, -halfHeight, 0.0, -1.0 }, { 0.0, -halfHeight, 0.0, -1.0 },
	};
	cnMeshLathe( m, profile, 6, segments, center );
}

// Twice the signed area of the triangle a, b, c in the xy-plane (> 0: counter-clockwise).
static double cnCross2( cnVec3 a, cnVec3 b, cnVec3 c )
{
	return ( b.x - a.x ) * ( c.y - a.y ) - ( b.y - a.y ) * ( c.x - a.x );
}

// Triangulates the counter-clockwise polygon v[order[0..n-1]] by clipping ears (polygons need not be
// convex: FOSSSim's table has legs); a polygon without reflex corners is a fan. One that crosses
// itself has no ear at some point: the rest is then a fan, which at least covers it. Triangles go to
// tris (3 (n - 2) indices into order's values); false when memory runs out.
static bool cnTriangulate( const cnVec3* v, const int* order, int n, int* tris )
{
	bool convex = true;
	for ( int i = 0; i < n && convex; ++i )
	{
		convex = cnCross2( v[order[( i + n - 1 ) % n]], v[order[i]], v[order[( i + 1 ) % n]] ) >= 0.0;
	}
	int count = 0;
	int* left = malloc( sizeof( int ) * (size_t)n );
	if ( left == NULL )
	{
		return false;
	}
	memcpy( left, order, sizeof( int ) * (size_t)n );
	int m = n;
	int i = 0;
	int tried = 0;
	while ( convex == false && m > 3 && tried < m )
	{
		int a = left[( i + m - 1 ) % m], b = left[i % m], c = left[( i + 1 ) % m];
		bool ear = cnCross2( v[a], v[b], v[c] ) > 0.0;
		for ( int k = 0; ear && k < m; ++k )
		{
			int p = left[k];
			if ( p == a || p == b || p == c )
			{
				continue;
			}
			// a corner inside (or on) the candidate would be cut off by it
			ear = !( cnCross2( v[a], v[b], v[p] ) >= 0.0 && cnCross2( v[b], v[c], v[p] ) >= 0.0 &&
					 cnCross2( v[c], v[a], v[p] ) >= 0.0 );
		}
		if ( ear )
		{
			tris[count++] = a;
			tris[count++] = b;
			tris[count++] = c;
			memmove( left + i % m, left + i % m + 1, sizeof( int ) * (size_t)( m - i % m - 1 ) );
			m -= 1;
			i = i % m;
			tried = 0;
		}
		else
		{
			i = ( i + 1 ) % m;
			tried += 1;
		}
	}
	for ( int k = 1; k + 1 < m; ++k )
	{
		tris[count++] = left[0];
		tris[count++] = left[k];
		tris[count++] = left[k + 1];
	}
	free( left );
	return true;
}

// How far a shape reaches from its frame's origin.
static double cnShapeReach( const cnRecordedShape* s )
{
	double reach = 0.0;
	for ( int k = 0; k < s->vertexCount; ++k )
	{
		reach = fmax( reach, cnLength( s->vertices[k] ) );
	}
	return reach + s->radius;
}

// A planar polygon as a slab through the shape's xy-plane, as the POV-Ray writer draws it: the
// polygon's prism (when it has an area), and the thickened edges as a box along each edge and a
// cylinder at each vertex (the extrusion of the rounded polygon).
static void cnMeshPolygon( cnMeshBuilder* m, const cnRecordedShape* s, int segments )
{
	int n = s->vertexCount;
	const cnVec3* v = s->vertices;
	double reach = cnShapeReach( s );
	double t = fmax( s->radius, 0.25 * reach );
	double r = s->radius > 0.0 ? s->radius : 0.02 * fmax( reach, 1e-3 );
	int round = segments / 2 > 8 ? segments / 2 : 8;
	if ( n >= 3 )
	{
		int* order = malloc( sizeof( int ) * (size_t)n );
		int* tris = malloc( sizeof( int ) * 3 * (size_t)( n - 2 ) );
		if ( order == NULL || tris == NULL )
		{
			free( order );
			free( tris );
			m->failed = true;
			return;
		}
		// counter-clockwise, whichever way the scene listed the vertices
		double area = 0.0;
		for ( int k = 0; k < n; ++k )
		{
			area += v[k].x * v[( k + 1 ) % n].y - v[( k + 1 ) % n].x * v[k].y;
		}
		for ( int k = 0; k < n; ++k )
		{
			order[k] = area >= 0.0 ? k : n - 1 - k;
		}
		if ( cnTriangulate( v, order, n, tris ) == false )
		{
			m->failed = true;
		}
		for ( int face = 0; face < 2 && m->failed == false; ++face )
		{
			// the top (+z) keeps the counter-clockwise order, the bottom reverses it
			double z = face == 0 ? t : -t;
			cnVec3 normal = cnV3( 0.0, 0.0, face == 0 ? 1.0 : -1.0 );
			uint32_t base = (uint32_t)m->vertexCount;
			for ( int k = 0; k < n; ++k )
			{
				double u = reach > 0.0 ? 0.5 + 0.5 * v[k].x / reach : 0.5;
				double w = reach > 0.0 ? 0.5 - 0.5 * v[k].y / reach : 0.5;
				cnMeshVertex( m, cnV3( v[k].x, v[k].y, z ), normal, u, w );
			}
			for ( int k = 0; k < 3 * ( n - 2 ); k += 3 )
			{
				uint32_t a = base + (uint32_t)tris[k], b = base + (uint32_t)tris[k + 1], c = base + (uint32_t)tris[k + 2];
				if ( face == 0 )
				{
					cnMeshTriangle( m, a, b, c );
				}
				else
				{
					cnMeshTriangle( m, a, c, b );
				}
			}
		}
		// the walls, facing out of the counter-clockwise outline
		for ( int k = 0; k < n && m->failed == false; ++k )
		{
			cnVec3 a = v[order[k]], b = v[order[( k + 1 ) % n]];
			cnVec3 d = cnV3( b.x - a.x, b.y - a.y, 0.0 );
			double len = cnLength( d );
			if ( len <= 0.0 )
			{
				continue;
			}
			cnVec3 u = cnMulSV( 1.0 / len, d );
			cnVec3 up = cnV3( 0.0, 0.0, 1.0 );
			cnMeshQuad( m, cnMulSV( 0.5, cnAdd( a, b ) ), u, up, cnCross( u, up ), 0.5 * len, t );
		}
		free( order );
		free( tris );
	}
	// a polygon of two vertices is one segment, not a closed loop
	int edges = n >= 3 ? n : n - 1;
	for ( int k = 0; k < edges && m->failed == false; ++k )
	{
		cnVec3 a = v[k], b = v[( k + 1 ) % n];
		cnVec3 d = cnV3( b.x - a.x, b.y - a.y, 0.0 );
		double len = cnLength( d );
		if ( len <= 0.0 )
		{
			continue;
		}
		cnVec3 axes[3] = { cnMulSV( 1.0 / len, d ), cnV3( -d.y / len, d.x / len, 0.0 ), cnV3( 0.0, 0.0, 1.0 ) };
		double half[3] = { 0.5 * len, r, t };
		cnMeshBox( m, cnMulSV( 0.5, cnAdd( a, b ) ), axes, half );
	}
	for ( int k = 0; k < n && m->failed == false; ++k )
	{
		cnMeshCylinder( m, r, t, round, cnV3( v[k].x, v[k].y, 0.0 ) );
	}
}

// A hull, mesh or heightfield: its recorded triangles. Hulls and meshes are flat shaded (each triangle
// its own three vertices and face normal, so edges stay sharp); a heightfield's vertices are shared
// and carry area-weighted normals, so terrain reads smooth. Texture coordinates project x and y.
static void cnMeshSurface( cnMeshBuilder* m, const cnRecordedShape* s )
{
	double reach = 0.0;
	for ( int k = 0; k < s->vertexCount; ++k )
	{
		reach = fmax( reach, cnLength( s->vertices[k] ) );
	}
	double uvScale = reach > 0.0 ? 0.5 / reach : 1.0;
	if ( s->type == cnShape_heightfield )
	{
		cnVec3* normals = calloc( (size_t)s->vertexCount, sizeof( cnVec3 ) );
		if ( normals == NULL )
		{
			m->failed = true;
			return;
		}
		for ( int k = 0; k < s->triangleCount; ++k )
		{
			const int* t = s->triangles + 3 * k;
			cnVec3 a = s->vertices[t[0]], b = s->vertices[t[1]], c = s->vertices[t[2]];
			// the cross product's length is twice the area: the weights come for free
			cnVec3 n = cnCross( cnSub( b, a ), cnSub( c, a ) );
			for ( int j = 0; j < 3; ++j )
			{
				normals[t[j]] = cnAdd( normals[t[j]], n );
			}
		}
		uint32_t first = (uint32_t)m->vertexCount;
		for ( int k = 0; k < s->vertexCount; ++k )
		{
			cnVec3 n = cnNormalize( normals[k] );
			cnVec3 p = s->vertices[k];
			cnMeshVertex( m, p, cnLengthSquared( n ) > 0.0 ? n : cnV3( 0.0, 0.0, 1.0 ), 0.5 + uvScale * p.x,
						  0.5 + uvScale * p.y );
		}
		for ( int k = 0; k < s->triangleCount; ++k )
		{
			const int* t = s->triangles + 3 * k;
			cnMeshTriangle( m, first + (uint32_t)t[0], first + (uint32_t)t[1], first + (uint32_t)t[2] );
		}
		free( normals );
		return;
	}
	for ( int k = 0; k < s->triangleCount && m->failed == false; ++k )
	{
		const int* t = s->triangles + 3 * k;
		cnVec3 a = s->vertices[t[0]], b = s->vertices[t[1]], c = s->vertices[t[2]];
		cnVec3 n = cnNormalize( cnCross( cnSub( b, a ), cnSub( c, a ) ) );
		if ( cnLengthSquared( n ) == 0.0 )
		{
			// a sliver adds nothing visible
			continue;
		}
		uint32_t i[3];
		cnVec3 v[3] = { a, b, c };
		for ( int j = 0; j < 3; ++j )
		{
			i[j] = cnMeshVertex( m, v[j], n, 0.5 + uvScale * v[j].x, 0.5 + uvScale * v[j].y );
		}
		cnMeshTriangle( m, i[0], i[1], i[2] );
	}
}

void cnMeshShape( cnMeshBuilder* m, const cnRecordedShape* s, int segments )
{
	switch ( s->type )
	{
		case cnShape_sphere:
			cnMeshSphere( m, s->radius, segments );
			break;
		case cnShape_box:
		{
			cnVec3 axes[3] = { cnV3( 1.0, 0.0, 0.0 ), cnV3( 0.0, 1.0, 0.0 ), cnV3( 0.0, 0.0, 1.0 ) };
			double half[3] = { s->halfExtents.x, s->halfExtents.y, s->halfExtents.z };
			cnMeshBox( m, cnVec3_zero, axes, half );
			break;
		}
		case cnShape_capsule:
			cnMeshCapsule( m, s->radius, s->halfHeight, segments );
			break;
		case cnShape_cylinder:
			cnMeshCylinder( m, s->radius, s->halfHeight, segments, cnVec3_zero );
			break;
		case cnShape_polygon:
			cnMeshPolygon( m, s, segments );
			break;
		case cnShape_hull:
		case cnShape_mesh:
		case cnShape_heightfield:
			cnMeshSurface( m, s );
			break;
		default:
			break;
	}
}

void cnMeshPlane( cnMeshBuilder* m, const cnRecordedShape* s, cnVec3 target, double half )
{
	double nl = cnLength( s->normal );
	cnVec3 n = nl > 0.0 ? cnMulSV( 1.0 / nl, s->normal ) : cnV3( 0.0, 0.0, 1.0 );
	cnVec3 centre = cnMulSub( target, cnDot( n, target ) - s->offset, n );
	cnVec3 u = cnPerp( n );
	cnVec3 v = cnCross( n, u );
	cnMeshQuad( m, centre, u, v, n, half, half );
}

// The helix c(t) = (R cos(2 pi n t), R sin(2 pi n t), L t) at t: its point, and the frame of the tube's
// ring there: the radial direction e, perpendicular to the unit tangent, and f = tangent x e, so
// (e, f, tangent) is right-handed.
static void cnCoilFrame( double coilRadius, int turns, double length, double t, cnVec3* c, cnVec3* e, cnVec3* f,
						 cnVec3* tangent )
{
	double omega = 2.0 * CN_PI * (double)turns;
	double angle = omega * t;
	*c = cnCoilPoint( coilRadius, turns, length, t );
	*e = cnV3( cos( angle ), sin( angle ), 0.0 );
	*tangent = cnNormalize( cnV3( -coilRadius * omega * sin( angle ), coilRadius * omega * cos( angle ), length ) );
	*f = cnCross( *tangent, *e );
}

void cnMeshCoil( cnMeshBuilder* m, double coilRadius, double wireRadius, int turns, double length, int segments )
{
	int steps = 16 * turns;
	int around = segments / 2 > 8 ? segments / 2 : 8;
	uint32_t base = (uint32_t)m->vertexCount;
	for ( int i = 0; i <= steps; ++i )
	{
		double t = (double)i / (double)steps;
		cnVec3 c, e, f, tangent;
		cnCoilFrame( coilRadius, turns, length, t, &c, &e, &f, &tangent );
		for ( int j = 0; j <= around; ++j )
		{
			// the seam's two columns at exactly the same place
			double phi = 2.0 * CN_PI * (double)( j % around ) / (double)around;
			cnVec3 n = cnAdd( cnMulSV( cos( phi ), e ), cnMulSV( sin( phi ), f ) );
			cnMeshVertex( m, cnMulAdd( c, wireRadius, n ), n, (double)j / (double)around, t );
		}
	}
	uint32_t row = (uint32_t)around + 1;
	for ( uint32_t i = 0; i < (uint32_t)steps; ++i )
	{
		for ( uint32_t j = 0; j < (uint32_t)around; ++j )
		{
			// a, b around this ring (counter-clockwise about the tangent), c, d on the next ring: a, b, d
			// turns counter-clockwise seen from outside
			uint32_t a = base + i * row + j;
			uint32_t b = a + 1, c = a + row, d = c + 1;
			cnMeshTriangle( m, a, b, d );
			cnMeshTriangle( m, a, d, c );
		}
	}
	// the two ends: flat discs facing back along the tangent at the start and on along it at the end
	for ( int end = 0; end < 2; ++end )
	{
		double t = (double)end;
		cnVec3 c, e, f, tangent;
		cnCoilFrame( coilRadius, turns, length, t, &c, &e, &f, &tangent );
		cnVec3 normal = end == 0 ? cnNeg( tangent ) : tangent;
		uint32_t centre = cnMeshVertex( m, c, normal, 0.5, t );
		uint32_t ring = (uint32_t)m->vertexCount;
		for ( int j = 0; j < around; ++j )
		{
			double phi = 2.0 * CN_PI * (double)j / (double)around;
			cnVec3 n = cnAdd( cnMulSV( cos( phi ), e ), cnMulSV( sin( phi ), f ) );
			cnMeshVertex( m, cnMulAdd( c, wireRadius, n ), normal, 0.5, t );
		}
		for ( uint32_t j = 0; j < (uint32_t)around; ++j )
		{
			// the ring turns counter-clockwise about the tangent, so seen from before the start it
			// turns clockwise: the start's disc takes the reverse order
			uint32_t a = ring + j, b = ring + ( j + 1 ) % (uint32_t)around;
			if ( end == 0 )
			{
				cnMeshTriangle( m, centre, b, a );
			}
			else
			{
				cnMeshTriangle( m, centre, a, b );
			}
		}
	}
}
