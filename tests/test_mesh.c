// SPDX-License-Identifier: MIT
// Triangle meshes: validation and the solidity check, exact mass properties against closed forms,
// the tree's queries and ray casts against brute force and geometry, the triangle narrow phase
// (internal edges), and bodies resting and sliding on mesh floors and on each other.
//
// Closed forms used below:
//   box of half extents (a, b, c): V = 8abc, I_xx = V (b^2 + c^2) / 3 at unit density.
//   regular icosahedron of edge s: V = 5 (3 + sqrt 5) s^3 / 12, isotropic I = m s^2 (3 + sqrt 5) / 20
//   (see test_hull.c for the derivation).
//   resting: a sphere of radius r rests with its centre r above the floor, a box (or a box-shaped
//   hull) of half height h at h, a capsule lying down at its radius, an upright cylinder at its half
//   height, a torus lying flat at its tube radius with its axis vertical (less what a method lets a
//   resting contact sink: the slop, a penalty spring's mg/k; under 1 cm here).
//   torus: the polygonal torus of n x k segments has volume n sin(2 pi / n) A R, A the tube's k-gon
//   (derived at testTorusOnMeshFloor).
//   sliding: a box sliding on a level floor with friction mu decelerates at mu g, so from v0 it
//   stops after v0 / (mu g), having gone v0^2 / (2 mu g) in a straight line.
#include "cairn/cairn.h"
#include "collision/collision.h"
#include "collision/mesh.h"
#include "test.h"
#include "test_bodies.h"
#include "test_geometry.h"

#include <string.h>

#define PHI 1.6180339887498949

// ---------------------------------------------------------------------------------------------
// builders

// The 8 corners and 12 triangles (counter-clockwise from outside) of a box of half extents h at c.
static int boxTriangles[36] = { 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
								2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5 };

static void boxCorners( cnVec3 h, cnVec3 c, cnVec3 p[8] )
{
	for ( int v = 0; v < 8; ++v )
	{
		p[v] = cnAdd( c, cnV3( ( v & 1 ) ? h.x : -h.x, ( v & 2 ) ? h.y : -h.y, ( v & 4 ) ? h.z : -h.z ) );
	}
}

static cnMesh* boxMesh( cnVec3 h, cnVec3 c )
{
	cnVec3 p[8];
	boxCorners( h, c, p );
	cnMesh* m = cnCreateMesh( p, 8, boxTriangles, 12 );
	CHECK( m != NULL );
	return m;
}

// A flat square floor at z = 0 of side size in n x n cells, two triangles each, the diagonal
// alternating from cell to cell so that edges run every way.
static cnMesh* floorMesh( double size, int n )
{
	int vn = ( n + 1 ) * ( n + 1 );
	cnVec3* v = malloc( (size_t)vn * sizeof( cnVec3 ) );
	int* t = malloc( (size_t)( 6 * n * n ) * sizeof( int ) );
	for ( int j = 0; j <= n; ++j )
	{
		for ( int i = 0; i <= n; ++i )
		{
			v[j * ( n + 1 ) + i] = cnV3( -0.5 * size + size * i / n, -0.5 * size + size * j / n, 0.0 );
		}
	}
	int k = 0;
	for ( int j = 0; j < n; ++j )
	{
		for ( int i = 0; i < n; ++i )
		{
			int a = j * ( n + 1 ) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
			int tri[6];
			if ( ( i + j ) % 2 == 0 )
			{
				int q[6] = { a, b, c, a, c, d };
				memcpy( tri, q, sizeof( q ) );
			}
			else
			{
				int q[6] = { a, b, d, b, c, d };
				memcpy( tri, q, sizeof( q ) );
			}
			memcpy( t + k, tri, sizeof( tri ) );
			k += 6;
		}
	}
	cnMesh* m = cnCreateMesh( v, vn, t, 2 * n * n );
	CHECK( m != NULL );
	free( v );
	free( t );
	return m;
}

// The regular icosahedron (0, +-s/2, +-phi s/2) and cyclic, of edge s: its faces are the triples of
// mutually adjacent vertices, wound outward.
static cnMesh* icosahedronMesh( double s, cnVec3 c )
{
	cnVec3 p[12];
	int n = 0;
	for ( int i = 0; i < 4; ++i )
	{
		double a = ( i & 1 ) ? 0.5 * s : -0.5 * s, b = ( i & 2 ) ? 0.5 * PHI * s : -0.5 * PHI * s;
		p[n++] = cnAdd( c, cnV3( 0.0, a, b ) );
		p[n++] = cnAdd( c, cnV3( a, b, 0.0 ) );
		p[n++] = cnAdd( c, cnV3( b, 0.0, a ) );
	}
	int tri[60], count = 0;
	for ( int i = 0; i < 12; ++i )
	{
		for ( int j = i + 1; j < 12; ++j )
		{
			for ( int k = j + 1; k < 12; ++k )
			{
				double dij = cnLength( cnSub( p[i], p[j] ) ), djk = cnLength( cnSub( p[j], p[k] ) ),
					   dki = cnLength( cnSub( p[k], p[i] ) );
				if ( fabs( dij - s ) > 1e-9 || fabs( djk - s ) > 1e-9 || fabs( dki - s ) > 1e-9 )
				{
					continue;
				}
				cnVec3 nrm = cnCross( cnSub( p[j], p[i] ), cnSub( p[k], p[i] ) );
				bool out = cnDot( nrm, cnSub( p[i], c ) ) > 0.0;
				tri[3 * count] = i;
				tri[3 * count + 1] = out ? j : k;
				tri[3 * count + 2] = out ? k : j;
				++count;
			}
		}
	}
	CHECK( count == 20 );
	cnMesh* m = cnCreateMesh( p, 12, tri, count );
	CHECK( m != NULL );
	return m;
}

static bool errorSays( const char* word )
{
	return strstr( cnGetError(), word ) != NULL;
}

static bool defectSays( const cnMesh* m, const char* word )
{
	return m != NULL && strstr( cnMesh_GetDefect( m ), word ) != NULL;
}

// ---------------------------------------------------------------------------------------------
// validation

static void testBadMeshes( void )
{
	cnVec3 p[9];
	boxCorners( cnV3( 0.5, 0.5, 0.5 ), cnVec3_zero, p );

	// hard errors: an index out of range, a non-finite vertex, nothing with an area
	int bad[36];
	memcpy( bad, boxTriangles, sizeof( bad ) );
	bad[7] = 8;
	CHECK( cnCreateMesh( p, 8, bad, 12 ) == NULL && errorSays( "out of range" ) && errorSays( "triangle 2" ) );
	cnVec3 q[8];
	memcpy( q, p, sizeof( q ) );
	q[3].y = NAN;
	CHECK( cnCreateMesh( q, 8, boxTriangles, 12 ) == NULL && errorSays( "vertex 3 is not finite" ) );
	int flat[6] = { 0, 1, 1, 0, 1, 3 };
	cnVec3 line[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 } };
	CHECK( cnCreateMesh( line, 4, flat, 2 ) == NULL && errorSays( "degenerate" ) );

	// a closed cube is solid
	cnMesh* cube = cnCreateMesh( p, 8, boxTriangles, 12 );
	CHECK( cnMesh_IsSolid( cube ) && strcmp( cnMesh_GetDefect( cube ), "" ) == 0 );
	cnReleaseMesh( cube );

	// open: the last triangle left out; its edge (1, 7) now borders one triangle only
	cnMesh* open = cnCreateMesh( p, 8, boxTriangles, 11 );
	CHECK( open != NULL && cnMesh_IsSolid( open ) == false && defectSays( open, "open edge" ) );
	CHECK( defectSays( open, "(1, 7)" ) || defectSays( open, "(7, 1)" ) || defectSays( open, "(5, 1)" ) ||
		   defectSays( open, "(1, 5)" ) || defectSays( open, "(7, 5)" ) || defectSays( open, "(5, 7)" ) );

	// non-manifold: a fin on edge (0, 1) of the closed cube
	int fin[39];
	memcpy( fin, boxTriangles, sizeof( boxTriangles ) );
	fin[36] = 0;
	fin[37] = 1;
	fin[38] = 8;
	p[8] = cnV3( 0.0, -1.5, -0.5 );
	cnMesh* nonManifold = cnCreateMesh( p, 9, fin, 13 );
	CHECK( nonManifold != NULL && cnMesh_IsSolid( nonManifold ) == false &&
		   defectSays( nonManifold, "not manifold" ) &&
		   ( defectSays( nonManifold, "(0, 1)" ) || defectSays( nonManifold, "(1, 0)" ) ) );

	// inside out: every triangle reversed
	int inward[36];
	for ( int t = 0; t < 12; ++t )
	{
		inward[3 * t] = boxTriangles[3 * t];
		inward[3 * t + 1] = boxTriangles[3 * t + 2];
		inward[3 * t + 2] = boxTriangles[3 * t + 1];
	}
	cnMesh* inside = cnCreateMesh( p, 8, inward, 12 );
	CHECK( inside != NULL && cnMesh_IsSolid( inside ) == false && defectSays( inside, "inward" ) );

	// one triangle flipped: inconsistent winding along its edges
	int flipped[36];
	memcpy( flipped, boxTriangles, sizeof( flipped ) );
	flipped[1] = boxTriangles[2];
	flipped[2] = boxTriangles[1];
	cnMesh* mixed = cnCreateMesh( p, 8, flipped, 12 );
	CHECK( mixed != NULL && cnMesh_IsSolid( mixed ) == false && defectSays( mixed, "inconsistent" ) );

	// a degenerate triangle (repeated index) is dropped, the rest kept
	int extra[39];
	memcpy( extra, boxTriangles, sizeof( boxTriangles ) );
	extra[36] = 2;
	extra[37] = 2;
	extra[38] = 5;
	cnMesh* dropped = cnCreateMesh( p, 8, extra, 13 );
	CHECK( dropped != NULL && cnMesh_GetTriangleCount( dropped ) == 12 && cnMesh_IsSolid( dropped ) );

	// a dynamic body takes solid meshes only; a static one any
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = cnBody_dynamic;
	cnBodyId body = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_mesh;
	sd.mesh = open;
	CHECK( cnCreateShape( world, body, &sd ).index < 0 && errorSays( "open edge" ) );
	bd.type = cnBody_static;
	CHECK( cnCreateShape( world, cnCreateBody( world, &bd ), &sd ).index >= 0 );
	cnDestroyWorld( world );

	cnReleaseMesh( open );
	cnReleaseMesh( nonManifold );
	cnReleaseMesh( inside );
	cnReleaseMesh( mixed );
	cnReleaseMesh( dropped );
}

// ---------------------------------------------------------------------------------------------
// mass properties

static void checkRelative( double a, double b, double tol )
{
	CHECK_NEAR( a, b, tol * fmax( fabs( b ), 1e-300 ) );
}

static void testBoxMass( void )
{
	// a closed box mesh off the origin has the box's volume, centre and inertia to rounding
	cnVec3 h = cnV3( 0.5, 1.0, 1.5 ), c = cnV3( 1.0, -2.0, 3.0 );
	cnMesh* m = boxMesh( h, c );
	CHECK( cnMesh_IsSolid( m ) );
	double v = 8.0 * h.x * h.y * h.z;
	cnMassData md = cnMeshMass( m, 2.0 );
	checkRelative( md.mass, 2.0 * v, 1e-14 );
	CHECK_NEAR( md.center.x, c.x, 1e-14 );
	CHECK_NEAR( md.center.y, c.y, 1e-14 );
	CHECK_NEAR( md.center.z, c.z, 1e-14 );
	double k = 2.0 * v / 3.0;
	checkRelative( md.inertia.cx.x, k * ( h.y * h.y + h.z * h.z ), 1e-13 );
	checkRelative( md.inertia.cy.y, k * ( h.x * h.x + h.z * h.z ), 1e-13 );
	checkRelative( md.inertia.cz.z, k * ( h.x * h.x + h.y * h.y ), 1e-13 );
	CHECK( fabs( md.inertia.cx.y ) < 1e-13 && fabs( md.inertia.cx.z ) < 1e-13 && fabs( md.inertia.cy.z ) < 1e-13 );

	// the same from a body: the shape's mass, centre and inertia
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_mesh;
	sd.mesh = m;
	cnMaterialDef mat = cnDefaultMaterialDef();
	mat.density = 2.0;
	sd.material = cnCreateMaterial( world, &mat );
	cnBodyId body = tbBody( world, cnBody_dynamic, cnVec3_zero, cnQuat_identity, cnVec3_zero, &sd );
	checkRelative( cnBody_GetMass( world, body ), 2.0 * v, 1e-14 );
	CHECK_NEAR( cnBody_GetLocalCenterOfMass( world, body ).z, c.z, 1e-14 );
	cnDestroyWorld( world );
	cnReleaseMesh( m );
}

static void testIcosahedronMass( void )
{
	double s = 0.8;
	cnVec3 c = cnV3( -0.3, 0.7, 2.0 );
	cnMesh* m = icosahedronMesh( s, c );
	CHECK( cnMesh_IsSolid( m ) );
	double v = 5.0 * ( 3.0 + sqrt( 5.0 ) ) * s * s * s / 12.0;
	double inertia = v * s * s * ( 3.0 + sqrt( 5.0 ) ) / 20.0;
	cnMassData md = cnMeshMass( m, 1.0 );
	checkRelative( md.mass, v, 1e-13 );
	CHECK_NEAR( md.center.x, c.x, 1e-13 );
	CHECK_NEAR( md.center.y, c.y, 1e-13 );
	CHECK_NEAR( md.center.z, c.z, 1e-13 );
	checkRelative( md.inertia.cx.x, inertia, 1e-12 );
	checkRelative( md.inertia.cy.y, inertia, 1e-12 );
	checkRelative( md.inertia.cz.z, inertia, 1e-12 );
	CHECK( fabs( md.inertia.cx.y ) < 1e-12 * inertia && fabs( md.inertia.cx.z ) < 1e-12 * inertia &&
		   fabs( md.inertia.cy.z ) < 1e-12 * inertia );
	cnReleaseMesh( m );
}

// ---------------------------------------------------------------------------------------------
// tree queries and ray casts

static bool countTriangle( void* context, int triangle, const cnVec3 v[3] )
{
	(void)triangle;
	(void)v;
	*(int*)context += 1;
	return true;
}

static void testQueriesAndRays( void )
{
	// the tree finds exactly the triangles whose boxes overlap the query box (brute force)
	cnMesh* m = floorMesh( 10.0, 30 );
	CHECK( cnMesh_GetTriangleCount( m ) == 1800 );
	uint32_t seed = 12345u;
	for ( int k = 0; k < 200; ++k )
	{
		double r[4];
		for ( int i = 0; i < 4; ++i )
		{
			seed = seed * 1664525u + 1013904223u;
			r[i] = ( seed >> 8 ) / 16777216.0;
		}
		cnVec3 lo = cnV3( -6.0 + 12.0 * r[0], -6.0 + 12.0 * r[1], -0.1 );
		cnAABB box = { lo, cnAdd( lo, cnV3( 2.0 * r[2], 2.0 * r[3], 0.2 ) ) };
		int found = 0, expected = 0;
		cnMeshQuery( m, box, countTriangle, &found );
		for ( int t = 0; t < cnMesh_GetTriangleCount( m ); ++t )
		{
			int idx[3];
			cnMesh_GetTriangle( m, t, idx );
			cnVec3 a = cnMesh_GetVertex( m, idx[0] ), b = cnMesh_GetVertex( m, idx[1] ), c = cnMesh_GetVertex( m, idx[2] );
			cnAABB tb = { cnMin( a, cnMin( b, c ) ), cnMax( a, cnMax( b, c ) ) };
			expected += cnAABB_Overlaps( tb, box );
		}
		CHECK( found == expected );
	}

	// a slanted ray down onto the floor meets it where the line crosses z = 0, normal +z
	double t;
	cnVec3 n;
	CHECK( cnMeshRayCast( m, cnV3( 0.3, 0.1, 2.0 ), cnV3( 1.0, 0.5, -4.0 ), 1.0, &t, &n ) );
	CHECK_NEAR( t, 0.5, 1e-14 );
	CHECK_NEAR( n.z, 1.0, 1e-14 );
	// from below the normal faces the ray; short of the floor or beside it, no hit
	CHECK( cnMeshRayCast( m, cnV3( 0.3, 0.1, -1.0 ), cnV3( 0.0, 0.0, 4.0 ), 1.0, &t, &n ) && n.z == -1.0 );
	CHECK_NEAR( t, 0.25, 1e-14 );
	CHECK( cnMeshRayCast( m, cnV3( 0.3, 0.1, 2.0 ), cnV3( 0.0, 0.0, -1.0 ), 1.0, &t, &n ) == false );
	CHECK( cnMeshRayCast( m, cnV3( 6.0, 0.1, 2.0 ), cnV3( 0.0, 0.0, -4.0 ), 1.0, &t, &n ) == false );
	cnReleaseMesh( m );

	// a ray through a cube meets the nearer face
	cnMesh* cube = boxMesh( cnV3( 0.5, 0.5, 0.5 ), cnV3( 2.0, 0.0, 0.0 ) );
	CHECK( cnMeshRayCast( cube, cnV3( 0.0, 0.1, 0.2 ), cnV3( 4.0, 0.0, 0.0 ), 1.0, &t, &n ) );
	CHECK_NEAR( t, 1.5 / 4.0, 1e-14 );
	CHECK_NEAR( n.x, -1.0, 1e-14 );
	cnReleaseMesh( cube );
}

// ---------------------------------------------------------------------------------------------
// the triangle narrow phase

static cnGeometry meshGeom( const cnMesh* m )
{
	cnGeometry g = makeGeom( cnShape_mesh );
	g.mesh = m;
	return g;
}

static void testBoxOnTriangles( void )
{
	// a box resting across many triangles of a flat floor: every manifold's normal is exactly +z
	// (the internal edges never tilt it), the points lie on the four corners' footprints, 1 mm deep
	cnMesh* m = floorMesh( 4.0, 8 );
	cnGeometry floor = meshGeom( m ), box = boxGeom( 0.5, 0.4, 0.3 );
	cnManifold manifolds[CN_MAX_PAIR_MANIFOLDS];
	cnTransform xf = { cnV3( 0.13, -0.21, 0.299 ), cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.4 ) };
	int count = cnCollidePair( &floor, at( 0, 0, 0 ), &box, xf, 0.01, manifolds, CN_MAX_PAIR_MANIFOLDS );
	CHECK( count == 1 );
	CHECK( count >= 1 && manifolds[0].pointCount == 4 );
	for ( int k = 0; k < count; ++k )
	{
		CHECK( manifolds[k].normal.z == 1.0 );
		for ( int i = 0; i < manifolds[k].pointCount; ++i )
		{
			const cnManifoldPoint* p = manifolds[k].points + i;
			CHECK_NEAR( p->separation, -0.001, 1e-12 );
			CHECK_NEAR( p->point.z, -0.0005, 1e-12 );
			cnVec3 local = cnInvTransformPoint( xf, p->point );
			CHECK_NEAR( fabs( local.x ), 0.5, 1e-9 );
			CHECK_NEAR( fabs( local.y ), 0.4, 1e-9 );
		}
	}
	// the box in the other order: the same with the normal reversed
	count = cnCollidePair( &box, xf, &floor, at( 0, 0, 0 ), 0.01, manifolds, CN_MAX_PAIR_MANIFOLDS );
	CHECK( count == 1 && manifolds[0].normal.z == -1.0 && manifolds[0].pointCount == 4 );

	// a sphere above a vertex shared by six triangles: one point, straight down
	cnGeometry ball = sphereGeom( 0.25 );
	count = cnCollidePair( &floor, at( 0, 0, 0 ), &ball, at( 0.5, 0.5, 0.26 ), 0.02, manifolds, CN_MAX_PAIR_MANIFOLDS );
	CHECK( count == 1 && manifolds[0].pointCount == 1 && manifolds[0].normal.z == 1.0 );
	CHECK( count == 1 && fabs( manifolds[0].points[0].separation - 0.01 ) < 1e-12 );
	cnReleaseMesh( m );

	// at an open (active) edge the normal follows the edge: a sphere beside the floor's border
	cnMesh* small = floorMesh( 1.0, 2 );
	cnGeometry tile = meshGeom( small );
	count = cnCollidePair( &tile, at( 0, 0, 0 ), &ball, at( 0.5 + 0.2, 0.0, 0.1 ), 0.1, manifolds, CN_MAX_PAIR_MANIFOLDS );
	CHECK( count == 1 );
	if ( count == 1 )
	{
		cnVec3 expected = cnNormalize( cnV3( 0.2, 0.0, 0.1 ) );
		CHECK_NEAR( cnDot( manifolds[0].normal, expected ), 1.0, 1e-9 );
		CHECK_NEAR( manifolds[0].points[0].separation, sqrt( 0.05 ) - 0.25, 1e-9 );
	}
	cnReleaseMesh( small );
}

// ---------------------------------------------------------------------------------------------
// bodies on mesh floors

static const tbConfig configs[cnMethod_count] = {
	{ cnMethod_impulse, cnLcp_dantzig, "impulse" },
	{ cnMethod_lcp, cnLcp_dantzig, "lcp" },
	{ cnMethod_velocityProjection, cnLcp_dantzig, "velocity-projection" },
	{ cnMethod_grLcp, cnLcp_dantzig, "gr-lcp" },
	{ cnMethod_grVelocityProjection, cnLcp_dantzig, "gr-velocity-projection" },
	{ cnMethod_penalty, cnLcp_dantzig, "penalty" },
	{ cnMethod_analyticImpulse, cnLcp_dantzig, "analytic-impulse" },
	{ cnMethod_constraint, cnLcp_dantzig, "constraint" },
};

typedef struct restResult
{
	cnVec3 position;
	double speed, spin;
	// largest horizontal distance from the drop point over the second half
	double drift;
	// the body's local z axis in the world at the end
	cnVec3 axis;
} restResult;

// A static floor mesh (10 m square of 20 x 20 cells) and one body of shape sd dropped from start,
// stepped for time seconds at 60 Hz.
static restResult dropOnFloor( const tbConfig* config, const cnMesh* floor, cnShapeDef sd, cnVec3 start, cnQuat q,
							   double time )
{
	restResult r;
	memset( &r, 0, sizeof( r ) );
	cnWorld* world = tbConfigWorld( config, cnV3( 0, 0, -9.81 ) );
	cnMaterialId material = tbMaterial( world, 0.6, 0.0 );
	cnShapeDef fd = cnDefaultShapeDef();
	fd.type = cnShape_mesh;
	fd.mesh = floor;
	fd.material = material;
	tbBody( world, cnBody_static, cnVec3_zero, cnQuat_identity, cnVec3_zero, &fd );
	sd.material = material;
	cnBodyId body = tbBody( world, cnBody_dynamic, start, q, cnVec3_zero, &sd );
	int steps = (int)( time * 60.0 + 0.5 );
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		if ( i >= steps / 2 )
		{
			cnVec3 p = cnBody_GetPosition( world, body );
			r.drift = fmax( r.drift, hypot( p.x - start.x, p.y - start.y ) );
		}
	}
	r.position = cnBody_GetPosition( world, body );
	r.speed = cnLength( cnBody_GetLinearVelocity( world, body ) );
	r.spin = cnLength( cnBody_GetAngularVelocity( world, body ) );
	r.axis = cnRotate( cnBody_GetOrientation( world, body ), cnV3( 0, 0, 1 ) );
	cnDestroyWorld( world );
	return r;
}

static cnShapeDef shapeOf( cnShapeType type, double radius, double halfHeight, cnVec3 halfExtents )
{
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = type;
	sd.radius = radius;
	sd.halfHeight = halfHeight;
	sd.halfExtents = halfExtents;
	return sd;
}

static bool reportRest( const char* what, const char* method, restResult r, double height, double tol )
{
	bool ok = fabs( r.position.z - height ) < tol && r.drift < 1e-3 && r.speed < 1e-3 && r.spin < 1e-2;
	if ( ok == false || getenv( "MESH_DEBUG" ) )
	{
		fprintf( stderr, "  %s (%s): z %.6f (closed form %.3f), drift %.3g, speed %.3g, spin %.3g\n", what, method,
				 r.position.z, height, r.drift, r.speed, r.spin );
	}
	return ok;
}

static void testRestOnMeshFloor( void )
{
	// a sphere, a box, a capsule lying down and an upright cylinder dropped 5 cm onto a floor of
	// 800 triangles, at points off the grid (straddling edges and vertices), come to rest at their
	// closed-form heights and stay where they fell (impulse)
	cnMesh* floor = floorMesh( 10.0, 20 );
	double time = testFast() ? 2.0 : 3.0;
	cnQuat lying = cnQuatFromAxisAngle( cnV3( 1, 0, 0 ), 0.5 * CN_PI );
	cnQuat yaw = cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.3 );
	struct
	{
		const char* name;
		cnShapeDef sd;
		cnQuat q;
		double height;
	} cases[4] = {
		{ "sphere", shapeOf( cnShape_sphere, 0.4, 0.0, cnVec3_zero ), cnQuat_identity, 0.4 },
		{ "box", shapeOf( cnShape_box, 0.0, 0.0, cnV3( 0.4, 0.3, 0.25 ) ), yaw, 0.25 },
		{ "capsule", shapeOf( cnShape_capsule, 0.2, 0.4, cnVec3_zero ), cnMulQuat( yaw, lying ), 0.2 },
		{ "cylinder", shapeOf( cnShape_cylinder, 0.35, 0.3, cnVec3_zero ), yaw, 0.3 },
	};
	for ( int c = 0; c < 4; ++c )
	{
		cnVec3 start = cnV3( 0.25, -0.5, cases[c].height + 0.05 );
		restResult r = dropOnFloor( configs + 0, floor, cases[c].sd, start, cases[c].q, time );
		CHECK( reportRest( cases[c].name, "impulse", r, cases[c].height, 0.01 ) );
	}

	// a hull (the corners of a box of half height 0.2, its frame's origin off its centre) the same
	cnVec3 corners[8];
	boxCorners( cnV3( 0.3, 0.25, 0.2 ), cnV3( 0.1, 0.05, 0.0 ), corners );
	cnHull* hull = cnCreateHull( corners, 8 );
	CHECK( hull != NULL );
	cnShapeDef hd = cnDefaultShapeDef();
	hd.type = cnShape_hull;
	hd.hull = hull;
	restResult r = dropOnFloor( configs + 0, floor, hd, cnV3( 0.25, -0.5, 0.25 ), yaw, time );
	CHECK( reportRest( "hull", "impulse", r, 0.2, 0.01 ) );
	cnReleaseHull( hull );
	cnReleaseMesh( floor );
}

static void testEveryMethod( void )
{
	// a sphere, a box, a capsule lying down, an upright cylinder and a hull dropped 5 cm onto the
	// mesh floor rest at their closed-form heights, where they fell, in every contact method: the
	// capsule on its segment, the cylinder on its 16-gon cap and the hull on its face, each clipped
	// to the triangles under it. The last three run 1 s: they land after 0.1 s and have settled by
	// 1 s (their heights, speeds and spins there are those at 3 s to the digits reportRest prints),
	// which keeps the adaptive methods' stiff resting contacts to a few seconds in all.
	cnMesh* floor = floorMesh( 10.0, 20 );
	double time = testFast() ? 2.0 : 3.0;
	cnQuat lying = cnQuatFromAxisAngle( cnV3( 1, 0, 0 ), 0.5 * CN_PI );
	cnQuat yaw = cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.3 );
	// the hull of testRestOnMeshFloor: a box of half height 0.2, its frame's origin off its centre
	cnVec3 corners[8];
	boxCorners( cnV3( 0.3, 0.25, 0.2 ), cnV3( 0.1, 0.05, 0.0 ), corners );
	cnHull* hull = cnCreateHull( corners, 8 );
	CHECK( hull != NULL );
	cnShapeDef hd = cnDefaultShapeDef();
	hd.type = cnShape_hull;
	hd.hull = hull;
	struct
	{
		const char* name;
		cnShapeDef sd;
		cnQuat q;
		double height;
		double time;
	} cases[5] = {
		{ "sphere", shapeOf( cnShape_sphere, 0.4, 0.0, cnVec3_zero ), cnQuat_identity, 0.4, time },
		{ "box", shapeOf( cnShape_box, 0.0, 0.0, cnV3( 0.4, 0.3, 0.25 ) ), yaw, 0.25, time },
		{ "capsule", shapeOf( cnShape_capsule, 0.2, 0.4, cnVec3_zero ), cnMulQuat( yaw, lying ), 0.2, 1.0 },
		{ "cylinder", shapeOf( cnShape_cylinder, 0.35, 0.3, cnVec3_zero ), yaw, 0.3, 1.0 },
		{ "hull", hd, yaw, 0.2, 1.0 },
	};
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		for ( int c = 0; c < 5; ++c )
		{
			cnVec3 start = cnV3( 0.25, -0.5, cases[c].height + 0.05 );
			restResult r = dropOnFloor( configs + m, floor, cases[c].sd, start, cases[c].q, cases[c].time );
			CHECK( reportRest( cases[c].name, configs[m].label, r, cases[c].height, 0.01 ) );
		}
	}
	cnReleaseHull( hull );
	cnReleaseMesh( floor );
}

// A closed torus about the z axis through c: major radius R, tube radius r, n segments around the
// axis and k around the tube, each quad two triangles wound outward. The tube angle phi_j = 2 pi j / k
// with k a multiple of 4 puts a ring of vertices at the tube's very bottom (phi = 3 pi / 2), so the
// polygonal torus stands on a flat ring at z = c.z - r, as the smooth one does.
static cnMesh* torusMesh( double R, double r, int n, int k, cnVec3 c )
{
	cnVec3* v = malloc( (size_t)( n * k ) * sizeof( cnVec3 ) );
	int* t = malloc( (size_t)( 6 * n * k ) * sizeof( int ) );
	for ( int i = 0; i < n; ++i )
	{
		double theta = 2.0 * CN_PI * i / n;
		for ( int j = 0; j < k; ++j )
		{
			double phi = 2.0 * CN_PI * j / k;
			double rho = R + r * cos( phi );
			v[i * k + j] = cnAdd( c, cnV3( rho * cos( theta ), rho * sin( theta ), r * sin( phi ) ) );
		}
	}
	// d/dtheta x d/dphi = (R + r cos phi) r (cos phi cos theta, cos phi sin theta, sin phi), the
	// outward normal: the quad (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1) is counter-clockwise
	// seen from outside
	int count = 0;
	for ( int i = 0; i < n; ++i )
	{
		for ( int j = 0; j < k; ++j )
		{
			int a = i * k + j, b = ( ( i + 1 ) % n ) * k + j, c2 = ( ( i + 1 ) % n ) * k + ( j + 1 ) % k,
				d = i * k + ( j + 1 ) % k;
			int q[6] = { a, b, c2, a, c2, d };
			memcpy( t + 6 * count, q, sizeof( q ) );
			++count;
		}
	}
	cnMesh* m = cnCreateMesh( v, n * k, t, 2 * n * k );
	CHECK( m != NULL );
	free( v );
	free( t );
	return m;
}

static void testTorusOnMeshFloor( void )
{
	// a closed non-convex mesh: a torus (major radius 0.3, tube radius 0.1, 24 x 12 segments) dropped
	// flat 5 cm onto the mesh floor comes to rest lying flat, its centre at the tube radius (closed
	// form: the lowest ring of the tube touches the floor, axis vertical), where it fell (impulse).
	// It falls at (0.1, -0.35): the floor vertex (0, -0.5) lies in its hole (0.18 from the axis,
	// inside the tube's 0.2) and (0, 0) under its tube (0.36 from the axis), so it rests on faces,
	// edges and a vertex of the floor, and the vertex in its hole must not hold it up.
	double R = 0.3, r = 0.1;
	cnMesh* torus = torusMesh( R, r, 24, 12, cnVec3_zero );
	CHECK( cnMesh_IsSolid( torus ) );
	// its volume in closed form: each of the n pieces joins the tube's k-gon (area A = (k / 2) r^2
	// sin(2 pi / k), centroid at distance R from the axis) in the half-plane at theta_i to its copy
	// at theta_i + 2 pi / n by straight chords (each side quad is a planar trapezoid). The chord of
	// the k-gon's point at distance rho from the axis has length 2 rho sin(pi / n) and passes at
	// distance rho cos(pi / n); integrating over the k-gon in the bisecting half-plane, where it is
	// scaled by cos(pi / n) across, the piece holds 2 sin(pi / n) cos(pi / n) = sin(2 pi / n) times
	// the k-gon's first moment A R: V = n sin(2 pi / n) A R, 0.944 of the smooth torus's
	// 2 pi^2 R r^2 at 24 x 12
	double area = 6.0 * r * r * sin( 2.0 * CN_PI / 12.0 );
	double volume = cnMeshMass( torus, 1.0 ).mass;
	checkRelative( volume, 24.0 * sin( 2.0 * CN_PI / 24.0 ) * area * R, 1e-12 );

	cnMesh* floor = floorMesh( 10.0, 20 );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_mesh;
	sd.mesh = torus;
	cnQuat yaw = cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.3 );
	cnVec3 start = cnV3( 0.1, -0.35, r + 0.05 );
	restResult rest = dropOnFloor( configs + 0, floor, sd, start, yaw, testFast() ? 2.0 : 3.0 );
	CHECK( reportRest( "torus", "impulse", rest, r, 0.01 ) );
	// lying flat: the axis within 0.01 rad of vertical
	double tilt = acos( fmin( 1.0, rest.axis.z ) );
	if ( tilt >= 0.01 || getenv( "MESH_DEBUG" ) )
	{
		fprintf( stderr, "  torus: volume %.6f, tilt %.3g\n", volume, tilt );
	}
	CHECK( tilt < 0.01 );
	cnReleaseMesh( floor );
	cnReleaseMesh( torus );
}

static void testSlidingBox( void )
{
	// a box launched at 4 m/s at 30 degrees to the grid slides over some 40 triangle seams: it
	// keeps a straight line, never hops, and stops where Coulomb friction says
	cnMesh* floor = floorMesh( 20.0, 40 );
	double mu = 0.3, g = 9.81, v0 = 4.0;
	cnVec3 dir = cnV3( cos( CN_PI / 6.0 ), sin( CN_PI / 6.0 ), 0.0 );
	cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -g ) );
	cnMaterialId material = tbMaterial( world, mu, 0.0 );
	cnShapeDef fd = cnDefaultShapeDef();
	fd.type = cnShape_mesh;
	fd.mesh = floor;
	fd.material = material;
	tbBody( world, cnBody_static, cnVec3_zero, cnQuat_identity, cnVec3_zero, &fd );
	cnVec3 start = cnV3( -3.0, -1.7, 0.25 );
	cnBodyId box = tbBox( world, cnBody_dynamic, start, cnQuat_identity, cnMulSV( v0, dir ), cnV3( 0.25, 0.25, 0.25 ),
						  material );
	double lateral = 0.0, hop = 0.0, tilt = 0.0;
	for ( int i = 0; i < 150; ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		cnVec3 p = cnSub( cnBody_GetPosition( world, box ), start );
		lateral = fmax( lateral, fabs( p.x * dir.y - p.y * dir.x ) );
		hop = fmax( hop, p.z );
		cnVec3 up = cnRotate( cnBody_GetOrientation( world, box ), cnV3( 0, 0, 1 ) );
		tilt = fmax( tilt, acos( fmin( 1.0, up.z ) ) );
	}
	cnVec3 p = cnSub( cnBody_GetPosition( world, box ), start );
	double distance = cnDot( p, dir ), expected = v0 * v0 / ( 2.0 * mu * g );
	if ( getenv( "MESH_DEBUG" ) )
	{
		fprintf( stderr, "  sliding: distance %.5f (closed form %.5f), lateral %.3g, hop %.3g, tilt %.3g\n", distance,
				 expected, lateral, hop, tilt );
	}
	CHECK_NEAR( distance, expected, 0.02 * expected );
	CHECK( lateral < 1e-3 );
	CHECK( hop < 1e-3 );
	// a seam that caught the box would tip it by far more; what remains is the friction's moment about
	// the centre of mass, which the normal rows take up a pass late, so the front points sink a
	// little deeper into the slop: 0.5 mrad at 8 sub-steps, 1.1 mrad at the default 5 (0.55 mm over
	// the box's length)
	CHECK( tilt < 2e-3 );
	CHECK( cnLength( cnBody_GetLinearVelocity( world, box ) ) < 1e-3 );
	cnDestroyWorld( world );
	cnReleaseMesh( floor );
}

static void testMeshOnMesh( void )
{
	// two unit cubes given as closed meshes, stacked on a static slab mesh (and, second, on a
	// plane): at rest at heights 0.5 and 1.5, where they were put
	double time = testFast() ? 2.0 : 3.0;
	for ( int onPlane = 0; onPlane < 2; ++onPlane )
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnV3( 0, 0, -9.81 ) );
		cnMaterialId material = tbMaterial( world, 0.6, 0.0 );
		cnMesh* slab = boxMesh( cnV3( 3.0, 3.0, 0.5 ), cnV3( 0.0, 0.0, -0.5 ) );
		cnMesh* cube = boxMesh( cnV3( 0.5, 0.5, 0.5 ), cnVec3_zero );
		if ( onPlane )
		{
			tbPlane( world, cnV3( 0, 0, 1 ), material );
		}
		else
		{
			cnShapeDef fd = cnDefaultShapeDef();
			fd.type = cnShape_mesh;
			fd.mesh = slab;
			fd.material = material;
			tbBody( world, cnBody_static, cnVec3_zero, cnQuat_identity, cnVec3_zero, &fd );
		}
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = cnShape_mesh;
		sd.mesh = cube;
		sd.material = material;
		cnQuat yaw = cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.3 );
		cnBodyId lower = tbBody( world, cnBody_dynamic, cnV3( 0.1, 0.2, 0.52 ), cnQuat_identity, cnVec3_zero, &sd );
		cnBodyId upper = tbBody( world, cnBody_dynamic, cnV3( 0.2, 0.1, 1.56 ), yaw, cnVec3_zero, &sd );
		int steps = (int)( time * 60.0 );
		for ( int i = 0; i < steps; ++i )
		{
			CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		}
		cnVec3 pl = cnBody_GetPosition( world, lower ), pu = cnBody_GetPosition( world, upper );
		double speed = fmax( cnLength( cnBody_GetLinearVelocity( world, lower ) ),
							 cnLength( cnBody_GetLinearVelocity( world, upper ) ) );
		if ( getenv( "MESH_DEBUG" ) )
		{
			fprintf( stderr, "  mesh stack on %s: lower %.6f %.6f %.6f, upper %.6f %.6f %.6f, speed %.3g\n",
					 onPlane ? "plane" : "slab", pl.x, pl.y, pl.z, pu.x, pu.y, pu.z, speed );
		}
		CHECK_NEAR( pl.z, 0.5, 0.01 );
		CHECK_NEAR( pu.z, 1.5, 0.02 );
		CHECK( hypot( pl.x - 0.1, pl.y - 0.2 ) < 2e-3 && hypot( pu.x - 0.2, pu.y - 0.1 ) < 2e-3 );
		CHECK( speed < 1e-3 );
		cnDestroyWorld( world );
		cnReleaseMesh( slab );
		cnReleaseMesh( cube );
	}
}

int main( void )
{
	RUN_TEST( testBadMeshes );
	RUN_TEST( testBoxMass );
	RUN_TEST( testIcosahedronMass );
	RUN_TEST( testQueriesAndRays );
	RUN_TEST( testBoxOnTriangles );
	RUN_TEST( testRestOnMeshFloor );
	RUN_TEST( testSlidingBox );
	RUN_TEST( testMeshOnMesh );
	RUN_TEST( testEveryMethod );
	RUN_TEST( testTorusOnMeshFloor );
	return TEST_SUMMARY();
}
