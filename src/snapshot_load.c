// SPDX-License-Identifier: MIT
// Snapshots, the reader: a world from the bytes snapshot.c wrote, read in the same order. A
// snapshot may come from anywhere (an old file, another machine, a hostile user), so nothing is
// trusted: the checksum must match, every count must fit the bytes left, every number must be in
// range, and once everything is read the cross references (shape lists, free lists, tree links,
// proxies, contacts, joints, islands) are checked before the world is handed out. A failure frees
// what was built and names the section and the record.
#include "snapshot.h"

#include "collision/hull.h"
#include "collision/mesh.h"
#include "error.h"
#include "methods/contact_time.h"
#include "methods/method.h"
#include "snapshot_codec.h"
#include "world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// the smallest record sizes in bytes, so that a count can be checked against the bytes left
#define CN_MIN_BODY_BYTES 200
#define CN_MIN_SHAPE_BYTES 100
#define CN_MIN_NODE_BYTES 72
#define CN_MIN_CONTACT_BYTES 100
#define CN_MIN_JOINT_BYTES 200
#define CN_MIN_FORCE_BYTES 100

// The geometry objects read so far (one reference each, released at the end).
typedef struct cnLoadedGeometry
{
	cnHull** hulls;
	int hullCount;
	cnMesh** meshes;
	int meshCount;
	cnHeightfield** heightfields;
	int heightfieldCount;
} cnLoadedGeometry;

static void cnReleaseLoadedGeometry( cnLoadedGeometry* g )
{
	for ( int i = 0; i < g->hullCount; ++i )
	{
		cnReleaseHull( g->hulls[i] );
	}
	for ( int i = 0; i < g->meshCount; ++i )
	{
		cnReleaseMesh( g->meshes[i] );
	}
	for ( int i = 0; i < g->heightfieldCount; ++i )
	{
		cnReleaseHeightfield( g->heightfields[i] );
	}
	free( g->hulls );
	free( g->meshes );
	free( g->heightfields );
}

// Zeroed memory for count records (count may be 0: a 1-byte block); NULL fails the reader.
static void* cnLoadAlloc( cnSnapReader* r, int count, size_t size )
{
	void* p = calloc( count > 0 ? (size_t)count : 1, size );
	if ( p == NULL )
	{
		cnSnapFail( r, "out of memory (%d records)", count );
	}
	return p;
}

// Reads an enum value in [0, count).
static int cnGetEnum( cnSnapReader* r, const char* what, int count )
{
	return cnGetIndex( r, what, 0, count );
}

// ---------------------------------------------------------------------------------------------
// geometry

static bool cnGetHull( cnSnapReader* r, cnLoadedGeometry* g, int index )
{
	int vertexCount = cnGetCount( r, "hull vertices", CN_HULL_MAX_VERTICES, 24 );
	cnVec3* vertices = cnLoadAlloc( r, vertexCount, sizeof( cnVec3 ) );
	for ( int i = 0; i < vertexCount && r->failed == false; ++i )
	{
		vertices[i] = cnGetVec3( r );
	}
	int faceCount = cnGetCount( r, "hull faces", 2 * CN_HULL_MAX_VERTICES, 36 );
	cnVec3* normals = cnLoadAlloc( r, faceCount, sizeof( cnVec3 ) );
	double* offsets = cnLoadAlloc( r, faceCount, sizeof( double ) );
	int* first = cnLoadAlloc( r, faceCount + 1, sizeof( int ) );
	int loopCapacity = 0;
	int* loops = NULL;
	for ( int f = 0; f < faceCount && r->failed == false; ++f )
	{
		normals[f] = cnGetVec3( r );
		offsets[f] = cnGetF64( r );
		int n = cnGetCount( r, "hull face loop", CN_HULL_MAX_VERTICES, 4 );
		if ( n < 3 )
		{
			cnSnapFail( r, "hull %d: face %d has %d vertices", index, f, n );
			break;
		}
		if ( first[f] + n > loopCapacity )
		{
			loopCapacity = 2 * ( first[f] + n );
			int* grown = realloc( loops, (size_t)loopCapacity * sizeof( int ) );
			if ( grown == NULL )
			{
				cnSnapFail( r, "out of memory" );
				break;
			}
			loops = grown;
		}
		for ( int k = 0; k < n; ++k )
		{
			loops[first[f] + k] = cnGetI32( r );
		}
		first[f + 1] = first[f] + n;
	}
	int triangleCount = cnGetCount( r, "hull triangles", 2 * CN_HULL_MAX_VERTICES, 12 );
	int* triangles = cnLoadAlloc( r, 3 * ( triangleCount > 0 ? triangleCount : 0 ), sizeof( int ) );
	for ( int i = 0; i < 3 * triangleCount && r->failed == false; ++i )
	{
		triangles[i] = cnGetI32( r );
	}
	if ( r->failed == false )
	{
		cnHullData data = { vertexCount, vertices, faceCount, normals, offsets, first, loops, triangleCount, triangles };
		cnHull* hull = cnHullFromData( &data );
		if ( hull == NULL )
		{
			cnSnapFail( r, "hull %d: %s", index, cnGetError() );
		}
		else
		{
			g->hulls[g->hullCount++] = hull;
		}
	}
	free( vertices );
	free( normals );
	free( offsets );
	free( first );
	free( loops );
	free( triangles );
	return r->failed == false;
}

static bool cnGetMesh( cnSnapReader* r, cnLoadedGeometry* g, int index )
{
	int vertexCount = cnGetCount( r, "mesh vertices", 3 * CN_MESH_MAX_TRIANGLES, 24 );
	cnVec3* vertices = cnLoadAlloc( r, vertexCount, sizeof( cnVec3 ) );
	for ( int i = 0; i < vertexCount && r->failed == false; ++i )
	{
		vertices[i] = cnGetVec3( r );
	}
	int triangleCount = cnGetCount( r, "mesh triangles", CN_MESH_MAX_TRIANGLES, 12 );
	int* triangles = cnLoadAlloc( r, 3 * ( triangleCount > 0 ? triangleCount : 0 ), sizeof( int ) );
	for ( int i = 0; i < 3 * triangleCount && r->failed == false; ++i )
	{
		triangles[i] = cnGetI32( r );
	}
	if ( r->failed == false )
	{
		// the mesh keeps what it was built from, so rebuilding gives the same mesh: a mesh that drops
		// a triangle now was not written by cnWorld_Save
		cnMesh* mesh = cnCreateMesh( vertices, vertexCount, triangles, triangleCount );
		if ( mesh == NULL )
		{
			cnSnapFail( r, "mesh %d: %s", index, cnGetError() );
		}
		else if ( mesh->triangleCount != triangleCount || mesh->vertexCount != vertexCount )
		{
			cnReleaseMesh( mesh );
			cnSnapFail( r, "mesh %d: has degenerate triangles a saved mesh cannot have", index );
		}
		else
		{
			g->meshes[g->meshCount++] = mesh;
		}
	}
	free( vertices );
	free( triangles );
	return r->failed == false;
}

static bool cnGetHeightfield( cnSnapReader* r, cnLoadedGeometry* g, int index )
{
	int columns = cnGetI32( r );
	int rows = cnGetI32( r );
	double sizeX = cnGetF64( r );
	double sizeY = cnGetF64( r );
	if ( r->failed )
	{
		return false;
	}
	if ( columns < 2 || rows < 2 || (size_t)columns > ( r->size - r->offset ) / 8 / (size_t)rows )
	{
		return cnSnapFail( r, "heightfield %d: %d x %d samples do not fit the bytes left", index, columns, rows );
	}
	double* heights = cnLoadAlloc( r, columns * rows, sizeof( double ) );
	for ( int i = 0; i < columns * rows && r->failed == false; ++i )
	{
		heights[i] = cnGetF64( r );
	}
	if ( r->failed == false )
	{
		cnHeightfield* h = cnCreateHeightfield( columns, rows, heights, sizeX, sizeY );
		if ( h == NULL )
		{
			cnSnapFail( r, "heightfield %d: %s", index, cnGetError() );
		}
		else
		{
			g->heightfields[g->heightfieldCount++] = h;
		}
	}
	free( heights );
	return r->failed == false;
}

static bool cnGetGeometry( cnSnapReader* r, cnLoadedGeometry* g )
{
	int n = cnGetCount( r, "hulls", CN_SNAPSHOT_MAX_RECORDS, 40 );
	g->hulls = cnLoadAlloc( r, n, sizeof( cnHull* ) );
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		cnGetHull( r, g, i );
	}
	n = cnGetCount( r, "meshes", CN_SNAPSHOT_MAX_RECORDS, 8 );
	g->meshes = cnLoadAlloc( r, n, sizeof( cnMesh* ) );
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		cnGetMesh( r, g, i );
	}
	n = cnGetCount( r, "heightfields", CN_SNAPSHOT_MAX_RECORDS, 24 );
	g->heightfields = cnLoadAlloc( r, n, sizeof( cnHeightfield* ) );
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		cnGetHeightfield( r, g, i );
	}
	return r->failed == false;
}

// ---------------------------------------------------------------------------------------------
// records

static cnWorldDef cnGetWorldDef( cnSnapReader* r )
{
	cnWorldDef d = cnDefaultWorldDef();
	d.gravity = cnGetVec3( r );
	d.planar = cnGetBool( r );
	d.method = (cnMethod)cnGetEnum( r, "method", cnMethod_count );
	cnMethodSettings* s = &d.settings;
	s->impulse.subSteps = cnGetI32( r );
	s->impulse.contactHertz = cnGetF64( r );
	s->impulse.contactDampingRatio = cnGetF64( r );
	s->impulse.maxPushVelocity = cnGetF64( r );
	s->impulse.relaxIterations = cnGetI32( r );
	s->velocity.lcpSolver = (cnLcpSolver)cnGetEnum( r, "lcp solver", 2 );
	s->velocity.integrator = (cnIntegrator)cnGetEnum( r, "integrator", 2 );
	s->velocity.positionCorrection = cnGetBool( r );
	s->velocity.speculativeContacts = cnGetBool( r );
	s->penalty.errorTolerance = cnGetF64( r );
	s->constraint.errorTolerance = cnGetF64( r );
	s->constraint.stabilizationHertz = cnGetF64( r );
	s->constraint.maxCorrectionSpeed = cnGetF64( r );
	d.restitutionThreshold = cnGetF64( r );
	d.linearSlop = cnGetF64( r );
	d.speculativeDistance = cnGetF64( r );
	d.contactRecycleDistance = cnGetF64( r );
	d.enableContinuous = cnGetBool( r );
	d.enableSleep = cnGetBool( r );
	d.timeToSleep = cnGetF64( r );
	d.sleepLinearThreshold = cnGetF64( r );
	d.sleepAngularThreshold = cnGetF64( r );
	d.hitEventThreshold = cnGetF64( r );
	d.onInstability = (cnInstabilityAction)cnGetEnum( r, "instability action", cnInstability_count );
	d.maxSpeed = cnGetF64( r );
	d.maxAngularSpeed = cnGetF64( r );
	d.maxEnergyGrowth = cnGetF64( r );
	return d;
}

static cnBodyId cnGetBodyId( cnSnapReader* r )
{
	cnBodyId id;
	id.index = cnGetI32( r );
	id.generation = cnGetU32( r );
	return id;
}

static void cnGetGuard( cnSnapReader* r, cnGuardState* g )
{
	g->referenceEnergy = cnGetF64( r );
	g->referenceKinetic = cnGetF64( r );
	g->hasReference = cnGetBool( r );
	cnInstabilityReport* p = &g->report;
	p->kind = (cnInstabilityKind)cnGetEnum( r, "instability kind", cnInstabilityKind_energy + 1 );
	p->action = (cnInstabilityAction)cnGetEnum( r, "instability action", cnInstability_count );
	p->body = cnGetBodyId( r );
	p->bodyCount = cnGetI32( r );
	p->time = cnGetF64( r );
	p->step = cnGetI64( r );
	p->value = cnGetF64( r );
	p->bound = cnGetF64( r );
	p->overlap = cnGetF64( r );
	p->overlapBody = cnGetBodyId( r );
	p->massRatio = cnGetF64( r );
	p->massRatioBody = cnGetBodyId( r );
	p->travel = cnGetF64( r );
	p->size = cnGetF64( r );
	char* message = cnGetString( r, "instability message" );
	snprintf( p->message, sizeof( p->message ), "%s", message != NULL ? message : "" );
	free( message );
	if ( g->hasReference && ( isfinite( g->referenceEnergy ) == false || isfinite( g->referenceKinetic ) == false ) )
	{
		cnSnapFail( r, "the instability guard's energy references are not finite" );
	}
}

static bool cnGetMaterials( cnSnapReader* r, cnWorld* world )
{
	int n = cnGetCount( r, "materials", CN_SNAPSHOT_MAX_RECORDS, 60 );
	if ( n == 0 )
	{
		return cnSnapFail( r, "no materials (the default material is always there)" );
	}
	cnDestroyMaterials( world );
	world->materials = cnLoadAlloc( r, n, sizeof( cnMaterial ) );
	if ( world->materials == NULL )
	{
		return false;
	}
	world->materialCount = n;
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		cnMaterial* m = world->materials + i;
		m->name = cnGetString( r, "material name" );
		m->texture = cnGetString( r, "material texture" );
		cnMaterialDef* d = &m->def;
		*d = cnDefaultMaterialDef();
		d->name = m->name;
		d->texture = m->texture;
		d->density = cnGetF64( r );
		d->friction = cnGetF64( r );
		d->restitution = cnGetF64( r );
		d->stiffness = cnGetF64( r );
		d->damping = cnGetF64( r );
		for ( int k = 0; k < 3; ++k )
		{
			uint32_t bits = cnGetU32( r );
			memcpy( d->color + k, &bits, sizeof( bits ) );
		}
		d->finish = (cnFinish)cnGetEnum( r, "material finish", cnFinish_count );
		d->ior = cnGetF64( r );
		if ( r->failed == false && cnValidateMaterialDef( d ) == false )
		{
			cnSnapFail( r, "material %d: %s", i, cnGetError() );
		}
	}
	n = cnGetCount( r, "material pairs", CN_SNAPSHOT_MAX_RECORDS, 24 );
	world->materialPairs = cnLoadAlloc( r, n, sizeof( cnMaterialPair ) );
	if ( world->materialPairs == NULL )
	{
		return false;
	}
	world->materialPairCount = n;
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		cnMaterialPair* p = world->materialPairs + i;
		p->a = cnGetIndex( r, "material pair", 0, world->materialCount );
		p->b = cnGetIndex( r, "material pair", 0, world->materialCount );
		p->friction = cnGetF64( r );
		p->restitution = cnGetF64( r );
		if ( !( p->friction >= 0.0 ) || !isfinite( p->friction ) || !( p->restitution >= 0.0 ) || !( p->restitution <= 1.0 ) )
		{
			cnSnapFail( r, "material pair %d: friction or restitution out of range", i );
		}
	}
	return r->failed == false;
}

static void cnGetBody( cnSnapReader* r, cnBody* b )
{
	b->name = cnGetString( r, "body name" );
	b->userData = cnGetU64( r );
	b->generation = cnGetU32( r );
	b->alive = cnGetBool( r );
	b->type = (cnBodyType)cnGetEnum( r, "body type", 3 );
	b->xf = cnGetTransform( r );
	b->center = cnGetVec3( r );
	b->localCenter = cnGetVec3( r );
	b->v = cnGetVec3( r );
	b->w = cnGetVec3( r );
	b->force = cnGetVec3( r );
	b->torque = cnGetVec3( r );
	b->mass = cnGetF64( r );
	b->invMass = cnGetF64( r );
	b->inertia = cnGetMat3( r );
	b->invInertia = cnGetMat3( r );
	b->isotropic = cnGetBool( r );
	b->massOverride = cnGetF64( r );
	b->hasMassData = cnGetBool( r );
	b->userCenter = cnGetVec3( r );
	b->userInertia = cnGetMat3( r );
	b->gravityScale = cnGetF64( r );
	b->linearDamping = cnGetF64( r );
	b->angularDamping = cnGetF64( r );
	b->drag = cnGetF64( r );
	b->firstShape = cnGetI32( r );
	b->shapeCount = cnGetI32( r );
	b->maxExtent = cnGetF64( r );
	b->enableSleep = cnGetBool( r );
	b->awake = cnGetBool( r );
	b->sleepTime = cnGetF64( r );
	b->sleepIsland = cnGetI32( r );
	b->solverIndex = cnGetI32( r );
	b->isBullet = cnGetBool( r );
	b->xf0 = cnGetTransform( r );
	b->center0 = cnGetVec3( r );
}

// Checks what a live body's numbers must be (indices are checked with the other records).
static bool cnCheckBody( cnSnapReader* r, const cnBody* b, int i )
{
	if ( cnSnapshotFiniteBody( b ) == false )
	{
		return cnSnapFail( r, "body %d ('%s'): a non-finite number or a quaternion that is not unit", i,
						   b->name != NULL ? b->name : "" );
	}
	if ( b->mass < 0.0 || b->invMass < 0.0 || b->linearDamping < 0.0 || b->angularDamping < 0.0 || b->drag < 0.0 ||
		 b->maxExtent < 0.0 || b->shapeCount < 0 )
	{
		return cnSnapFail( r, "body %d ('%s'): a negative mass, damping, extent or shape count", i,
						   b->name != NULL ? b->name : "" );
	}
	return true;
}

static void cnGetShape( cnSnapReader* r, const cnLoadedGeometry* table, cnShape* s, int i )
{
	cnGeometry* g = &s->geom;
	g->type = (cnShapeType)cnGetEnum( r, "shape type", cnShape_count );
	g->radius = cnGetF64( r );
	g->halfHeight = cnGetF64( r );
	g->halfExtents = cnGetVec3( r );
	g->normal = cnGetVec3( r );
	g->offset = cnGetF64( r );
	int n = cnGetCount( r, "polygon vertices", 32767, 24 );
	if ( n > 0 && g->type != cnShape_polygon )
	{
		cnSnapFail( r, "shape %d: vertices on a %s", i, cnShapeType_GetName( g->type ) );
		return;
	}
	if ( n > 0 )
	{
		g->vertices = cnLoadAlloc( r, n, sizeof( cnVec3 ) );
		if ( g->vertices == NULL )
		{
			return;
		}
		g->vertexCount = n;
		for ( int k = 0; k < n; ++k )
		{
			g->vertices[k] = cnGetVec3( r );
		}
	}
	int hull = cnGetIndex( r, "shape hull", -1, table->hullCount );
	int mesh = cnGetIndex( r, "shape mesh", -1, table->meshCount );
	int heightfield = cnGetIndex( r, "shape heightfield", -1, table->heightfieldCount );
	if ( r->failed )
	{
		return;
	}
	// (an index >= 0 was checked against a count of objects read, so the table is there; said again
	// for the analyzer, which does not follow cnGetIndex)
	g->hull = hull >= 0 && table->hulls != NULL ? cnHullRetain( table->hulls[hull] ) : NULL;
	g->mesh = mesh >= 0 && table->meshes != NULL ? cnMeshRetain( table->meshes[mesh] ) : NULL;
	g->heightfield =
		heightfield >= 0 && table->heightfields != NULL ? cnHeightfieldRetain( table->heightfields[heightfield] ) : NULL;
	s->local = cnGetTransform( r );
	s->body = cnGetI32( r );
	s->generation = cnGetU32( r );
	s->alive = cnGetBool( r );
	s->material = cnGetI32( r );
	s->categoryBits = cnGetU64( r );
	s->maskBits = cnGetU64( r );
	s->groupIndex = cnGetI32( r );
	s->enableContactEvents = cnGetBool( r );
	s->enableHitEvents = cnGetBool( r );
	s->nextShape = cnGetI32( r );
	s->proxyKey = cnGetI32( r );
	s->aabb = cnGetAABB( r );
	s->fatAABB = cnGetAABB( r );
}

// Checks a live shape against its body: the geometry a shape of that body may have (the checks
// cnCreateShape makes), and boxes that are numbers.
static bool cnCheckShape( cnSnapReader* r, const cnWorld* world, const cnShape* s, int i )
{
	const cnGeometry* g = &s->geom;
	if ( s->body < 0 || s->body >= world->bodyCount || world->bodies[s->body].alive == false )
	{
		return cnSnapFail( r, "shape %d: body %d is not a live body", i, s->body );
	}
	bool refs = ( g->hull != NULL ) == ( g->type == cnShape_hull ) && ( g->mesh != NULL ) == ( g->type == cnShape_mesh ) &&
				( g->heightfield != NULL ) == ( g->type == cnShape_heightfield ) &&
				( g->vertexCount > 0 ) == ( g->type == cnShape_polygon );
	if ( refs == false )
	{
		return cnSnapFail( r, "shape %d: its %s has the wrong kind of geometry data", i, cnShapeType_GetName( g->type ) );
	}
	cnShapeDef def = cnDefaultShapeDef();
	def.type = g->type;
	def.radius = g->radius;
	def.halfExtents = g->halfExtents;
	def.halfHeight = g->halfHeight;
	def.normal = g->normal;
	def.offset = g->offset;
	def.vertexCount = g->vertexCount;
	def.vertices = g->vertices;
	def.hull = g->hull;
	def.mesh = g->mesh;
	def.heightfield = g->heightfield;
	def.position = s->local.p;
	def.orientation = s->local.q;
	def.material = s->material;
	if ( cnValidateShapeDef( world, world->bodies + s->body, &def ) == false )
	{
		return cnSnapFail( r, "shape %d: %s", i, cnGetError() );
	}
	if ( g->type == cnShape_plane && ( cnIsValidVec3( g->normal ) == false || fabs( cnLength( g->normal ) - 1.0 ) > 1e-9 ||
									   isfinite( g->offset ) == false ) )
	{
		return cnSnapFail( r, "shape %d: a plane without a unit normal", i );
	}
	if ( cnSnapshotFiniteBoxes( s ) == false )
	{
		return cnSnapFail( r, "shape %d: a box that is not finite", i );
	}
	return true;
}

static void cnGetManifold( cnSnapReader* r, cnManifold* m )
{
	m->normal = cnGetVec3( r );
	m->pointCount = cnGetIndex( r, "manifold points", 0, CN_MAX_MANIFOLD_POINTS + 1 );
	for ( int i = 0; i < m->pointCount && r->failed == false; ++i )
	{
		cnManifoldPoint* p = m->points + i;
		p->point = cnGetVec3( r );
		p->separation = cnGetF64( r );
		p->id = cnGetU32( r );
		p->normal = cnGetVec3( r );
		p->anchorA = cnGetVec3( r );
		p->anchorB = cnGetVec3( r );
		p->normalImpulse = cnGetF64( r );
		p->tangentImpulse1 = cnGetF64( r );
		p->tangentImpulse2 = cnGetF64( r );
		p->maxNormalImpulse = cnGetF64( r );
		p->relativeVelocity = cnGetF64( r );
		p->persisted = cnGetBool( r );
		if ( cnSnapshotFinitePoint( p ) == false )
		{
			cnSnapFail( r, "a manifold point that is not finite" );
		}
	}
	if ( cnIsValidVec3( m->normal ) == false )
	{
		cnSnapFail( r, "a manifold normal that is not finite" );
	}
}

static void cnGetContact( cnSnapReader* r, cnContact* c )
{
	c->key = cnGetU64( r );
	c->shapeA = cnGetI32( r );
	c->shapeB = cnGetI32( r );
	c->bodyA = cnGetI32( r );
	c->bodyB = cnGetI32( r );
	c->flags = cnGetI32( r );
	c->friction = cnGetF64( r );
	c->restitution = cnGetF64( r );
	int n = cnGetIndex( r, "contact manifolds", 0, CN_MAX_PAIR_MANIFOLDS + 1 );
	if ( n > 1 )
	{
		c->moreManifolds = cnLoadAlloc( r, n - 1, sizeof( cnManifold ) );
		if ( c->moreManifolds == NULL )
		{
			return;
		}
		c->moreCapacity = n - 1;
	}
	c->manifoldCount = n > 0 ? n : 0;
	for ( int k = 0; k < c->manifoldCount && r->failed == false; ++k )
	{
		cnGetManifold( r, cnContactManifold( c, k ) );
	}
	cnContactApproach* a = &c->approach;
	a->point = cnGetVec3( r );
	a->normal = cnGetVec3( r );
	a->anchorA = cnGetVec3( r );
	a->anchorB = cnGetVec3( r );
	a->speed = cnGetF64( r );
	a->separation = cnGetF64( r );
	c->rotationA = cnGetQuat( r );
	c->rotationB = cnGetQuat( r );
	c->madePose = cnGetTransform( r );
	c->madeMargin = cnGetF64( r );
	// recycling carries the manifolds by the bodies' rotations, which are as unit as a body's must be
	// (the relative one, a product of two, gets twice the tolerance)
	double relative = cnQuatLength( c->madePose.q );
	if ( ( c->flags & cnContact_recyclable ) &&
		 ( cnSnapshotUnitQuat( c->rotationA ) == false || cnSnapshotUnitQuat( c->rotationB ) == false || !( fabs( relative - 1.0 ) <= 3e-6 ) ) )
	{
		cnSnapFail( r, "a contact's recycling rotation that is not a unit quaternion" );
	}
	if ( cnIsValidVec3( c->madePose.p ) == false || isfinite( c->madeMargin ) == false )
	{
		cnSnapFail( r, "a contact's recycling pose that is not finite" );
	}
}

static void cnGetJoint( cnSnapReader* r, cnJoint* j )
{
	j->name = cnGetString( r, "joint name" );
	j->userData = cnGetU64( r );
	j->generation = cnGetU32( r );
	j->alive = cnGetBool( r );
	j->type = (cnJointType)cnGetEnum( r, "joint type", cnJoint_count );
	j->bodyA = cnGetI32( r );
	j->bodyB = cnGetI32( r );
	j->localAnchorA = cnGetVec3( r );
	j->localAnchorB = cnGetVec3( r );
	j->localFrameA = cnGetQuat( r );
	j->localFrameB = cnGetQuat( r );
	j->collideConnected = cnGetBool( r );
	j->breakForce = cnGetF64( r );
	j->breakTorque = cnGetF64( r );
	j->broken = cnGetBool( r );
	j->enableLimit = cnGetBool( r );
	j->lower = cnGetF64( r );
	j->upper = cnGetF64( r );
	j->enableMotor = cnGetBool( r );
	j->motorSpeed = cnGetF64( r );
	j->maxMotorForce = cnGetF64( r );
	j->enableSpring = cnGetBool( r );
	j->stiffness = cnGetF64( r );
	j->damping = cnGetF64( r );
	j->rest = cnGetF64( r );
	j->minLength = cnGetF64( r );
	j->swingAngle = cnGetF64( r );
	for ( int k = 0; k < CN_JOINT_MAX_ROWS; ++k )
	{
		j->impulses[k] = cnGetF64( r );
	}
	j->force = cnGetVec3( r );
	j->torque = cnGetVec3( r );
	j->linearError = cnGetF64( r );
	j->angularError = cnGetF64( r );
	j->nextFree = cnGetI32( r );
}

static bool cnCheckJoint( cnSnapReader* r, const cnWorld* world, const cnJoint* j, int i )
{
	bool bodies = j->bodyA >= 0 && j->bodyA < world->bodyCount && world->bodies[j->bodyA].alive && j->bodyB >= -1 &&
				  j->bodyB < world->bodyCount && ( j->bodyB < 0 || world->bodies[j->bodyB].alive ) && j->bodyA != j->bodyB;
	if ( bodies == false )
	{
		return cnSnapFail( r, "joint %d: bodies %d and %d are not two live bodies", i, j->bodyA, j->bodyB );
	}
	if ( cnSnapshotFiniteJoint( j ) == false )
	{
		return cnSnapFail( r, "joint %d: a number out of range", i );
	}
	return true;
}

static void cnGetForce( cnSnapReader* r, cnForce* f )
{
	cnForceDef* d = &f->def;
	d->body.index = cnGetI32( r );
	d->body.generation = cnGetU32( r );
	d->isTorque = cnGetBool( r );
	d->frame = (cnForceFrame)cnGetEnum( r, "force frame", 3 );
	d->localPoint = cnGetVec3( r );
	d->vector = cnGetVec3( r );
	d->target.index = cnGetI32( r );
	d->target.generation = cnGetU32( r );
	d->targetPoint = cnGetVec3( r );
	d->t0 = cnGetF64( r );
	d->t1 = cnGetF64( r );
	f->generation = cnGetU32( r );
	f->alive = cnGetBool( r );
	if ( f->alive && ( cnIsValidVec3( d->localPoint ) == false || cnIsValidVec3( d->vector ) == false ||
					   cnIsValidVec3( d->targetPoint ) == false || isnan( d->t0 ) || isnan( d->t1 ) ) )
	{
		cnSnapFail( r, "a force with a number out of range" );
	}
}

static bool cnGetPairMap( cnSnapReader* r, cnPairMap* map, const char* what )
{
	int n = cnGetCount( r, what, CN_SNAPSHOT_MAX_RECORDS, 12 );
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		uint64_t key = cnGetU64( r );
		int32_t value = cnGetI32( r );
		if ( r->failed == false && cnPairMap_Find( map, key ) >= 0 )
		{
			cnSnapFail( r, "%s: pair %d appears twice", what, i );
		}
		else if ( r->failed == false && value < 0 )
		{
			cnSnapFail( r, "%s: pair %d has a negative count", what, i );
		}
		else
		{
			cnPairMap_Insert( map, key, value );
		}
	}
	return r->failed == false;
}

static bool cnGetTree( cnSnapReader* r, cnDynamicTree* t, const char* what )
{
	int capacity = cnGetCount( r, what, CN_SNAPSHOT_MAX_RECORDS, CN_MIN_NODE_BYTES );
	int nodeCount = cnGetI32( r );
	int root = cnGetI32( r );
	int freeList = cnGetI32( r );
	int proxyCount = cnGetI32( r );
	if ( r->failed )
	{
		return false;
	}
	cnDynamicTree_Destroy( t );
	if ( capacity > 0 )
	{
		t->nodes = cnLoadAlloc( r, capacity, sizeof( cnTreeNode ) );
		if ( t->nodes == NULL )
		{
			return false;
		}
	}
	t->nodeCapacity = capacity;
	t->nodeCount = nodeCount;
	t->root = root;
	t->freeList = freeList;
	t->proxyCount = proxyCount;
	for ( int i = 0; i < capacity && r->failed == false; ++i )
	{
		cnTreeNode* n = t->nodes + i;
		n->aabb = cnGetAABB( r );
		n->userData = cnGetU64( r );
		n->parent = cnGetI32( r );
		n->child1 = cnGetI32( r );
		n->child2 = cnGetI32( r );
		int32_t height = cnGetI32( r );
		uint32_t flags = cnGetU32( r );
		if ( height < INT16_MIN || height > INT16_MAX || flags > UINT16_MAX )
		{
			cnSnapFail( r, "%s: node %d has a height or flags out of range", what, i );
		}
		n->height = (int16_t)height;
		n->flags = (uint16_t)flags;
	}
	if ( r->failed == false && cnDynamicTree_Validate( t ) == false )
	{
		cnSnapFail( r, "%s: the tree's links, heights or boxes are broken", what );
	}
	return r->failed == false;
}

static cnShapeId cnGetShapeId( cnSnapReader* r )
{
	cnShapeId id;
	id.index = cnGetI32( r );
	id.generation = cnGetU32( r );
	return id;
}

static bool cnGetEvents( cnSnapReader* r, cnContactEventBuffer* e )
{
	int n = cnGetCount( r, "begin events", CN_SNAPSHOT_MAX_RECORDS, 64 );
	e->begins = cnLoadAlloc( r, n, sizeof( cnContactBeginTouchEvent ) );
	e->beginCapacity = e->begins != NULL && n > 0 ? n : 0;
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		e->begins[i].shapeIdA = cnGetShapeId( r );
		e->begins[i].shapeIdB = cnGetShapeId( r );
		e->begins[i].point = cnGetVec3( r );
		e->begins[i].normal = cnGetVec3( r );
		e->beginCount = i + 1;
	}
	e->endIndex = cnGetIndex( r, "end event buffer", 0, 2 );
	for ( int k = 0; k < 2 && r->failed == false; ++k )
	{
		n = cnGetCount( r, "end events", CN_SNAPSHOT_MAX_RECORDS, 16 );
		e->ends[k] = cnLoadAlloc( r, n, sizeof( cnContactEndTouchEvent ) );
		e->endCapacity[k] = e->ends[k] != NULL && n > 0 ? n : 0;
		for ( int i = 0; i < n && r->failed == false; ++i )
		{
			e->ends[k][i].shapeIdA = cnGetShapeId( r );
			e->ends[k][i].shapeIdB = cnGetShapeId( r );
			e->endCount[k] = i + 1;
		}
	}
	n = cnGetCount( r, "hit events", CN_SNAPSHOT_MAX_RECORDS, 72 );
	e->hits = cnLoadAlloc( r, n, sizeof( cnContactHitEvent ) );
	e->hitCapacity = e->hits != NULL && n > 0 ? n : 0;
	for ( int i = 0; i < n && r->failed == false; ++i )
	{
		e->hits[i].shapeIdA = cnGetShapeId( r );
		e->hits[i].shapeIdB = cnGetShapeId( r );
		e->hits[i].point = cnGetVec3( r );
		e->hits[i].normal = cnGetVec3( r );
		e->hits[i].approachSpeed = cnGetF64( r );
		e->hitCount = i + 1;
	}
	return r->failed == false;
}

// ---------------------------------------------------------------------------------------------
// cross references

// Walks a free list linked through next(i), checking that it visits dead records only, each once.
static bool cnCheckFreeList( cnSnapReader* r, const char* what, int head, int count, const bool* alive,
							 const int* next, int stride )
{
	int steps = 0;
	for ( int i = head; i != -1; i = *(const int*)( (const char*)next + (size_t)i * (size_t)stride ) )
	{
		if ( i < 0 || i >= count || alive[i] || ++steps > count )
		{
			return cnSnapFail( r, "%s: the free list is broken at %d", what, i );
		}
		// a dead record is marked alive once visited so a cycle is found
		( (bool*)alive )[i] = true;
	}
	return true;
}

static bool cnCheckWorld( cnSnapReader* r, cnWorld* world )
{
	// bodies: numbers, shape lists, islands, free list
	int live = 0;
	for ( int i = 0; i < world->bodyCount && r->failed == false; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->alive == false )
		{
			continue;
		}
		live += 1;
		if ( cnCheckBody( r, b, i ) == false )
		{
			break;
		}
		int count = 0;
		for ( int s = b->firstShape; s != -1; s = world->shapes[s].nextShape )
		{
			if ( s < 0 || s >= world->shapeCount || world->shapes[s].alive == false || world->shapes[s].body != i ||
				 ++count > b->shapeCount )
			{
				return cnSnapFail( r, "body %d: its list of shapes is broken at shape %d", i, s );
			}
		}
		if ( count != b->shapeCount || b->sleepIsland < -1 || b->sleepIsland >= world->sleepIslandCount ||
			 b->solverIndex < -1 || b->solverIndex >= world->bodyCount )
		{
			return cnSnapFail( r, "body %d: shape count, island or solver index out of range", i );
		}
		if ( b->sleepIsland >= 0 && ( world->sleepIslands[b->sleepIsland].used == false || b->awake ) )
		{
			return cnSnapFail( r, "body %d: awake, or asleep in an unused island", i );
		}
	}
	if ( r->failed || live != world->liveBodyCount )
	{
		return cnSnapFail( r, "%d live bodies, %d counted", live, world->liveBodyCount );
	}

	// shapes, and their proxies in the trees
	live = 0;
	for ( int i = 0; i < world->shapeCount && r->failed == false; ++i )
	{
		const cnShape* s = world->shapes + i;
		if ( s->alive == false )
		{
			continue;
		}
		live += 1;
		if ( cnCheckShape( r, world, s, i ) == false )
		{
			break;
		}
		const cnBody* b = world->bodies + s->body;
		cnProxyType type = CN_PROXY_TYPE( s->proxyKey );
		const cnDynamicTree* tree = world->broadPhase.trees + type;
		int32_t id = CN_PROXY_ID( s->proxyKey );
		if ( s->proxyKey < 0 || id >= tree->nodeCapacity || ( type == cnProxy_static ) != ( b->type == cnBody_static ) ||
			 tree->nodes[id].child1 != CN_NULL_NODE || ( tree->nodes[id].flags & 1 ) == 0 ||
			 tree->nodes[id].userData != (uint64_t)i )
		{
			return cnSnapFail( r, "shape %d: its broad-phase proxy %d is not its own leaf", i, s->proxyKey );
		}
	}
	if ( r->failed || live != world->liveShapeCount ||
		 live != world->broadPhase.trees[0].proxyCount + world->broadPhase.trees[1].proxyCount )
	{
		return cnSnapFail( r, "%d live shapes, %d counted, %d proxies", live, world->liveShapeCount,
						   world->broadPhase.trees[0].proxyCount + world->broadPhase.trees[1].proxyCount );
	}

	// the free lists of bodies, shapes and joints
	bool* alive = cnLoadAlloc( r, world->bodyCount + world->shapeCount + world->jointCount, sizeof( bool ) );
	if ( alive == NULL )
	{
		return false;
	}
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		alive[i] = world->bodies[i].alive;
	}
	bool* shapeAlive = alive + world->bodyCount;
	for ( int i = 0; i < world->shapeCount; ++i )
	{
		shapeAlive[i] = world->shapes[i].alive;
	}
	bool* jointAlive = shapeAlive + world->shapeCount;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		jointAlive[i] = world->joints[i].alive;
	}
	const int* bodyNext = world->bodyCount > 0 ? &world->bodies[0].solverIndex : NULL;
	const int* shapeNext = world->shapeCount > 0 ? &world->shapes[0].nextShape : NULL;
	const int* jointNext = world->jointCount > 0 ? &world->joints[0].nextFree : NULL;
	cnCheckFreeList( r, "bodies", world->freeBody, world->bodyCount, alive, bodyNext, (int)sizeof( cnBody ) );
	cnCheckFreeList( r, "shapes", world->freeShape, world->shapeCount, shapeAlive, shapeNext, (int)sizeof( cnShape ) );
	cnCheckFreeList( r, "joints", world->freeJoint, world->jointCount, jointAlive, jointNext, (int)sizeof( cnJoint ) );
	free( alive );
	if ( r->failed )
	{
		return false;
	}

	// every tree leaf is the proxy of the live shape it names
	for ( int type = 0; type < 2; ++type )
	{
		const cnDynamicTree* tree = world->broadPhase.trees + type;
		for ( int id = 0; id < tree->nodeCapacity; ++id )
		{
			const cnTreeNode* n = tree->nodes + id;
			if ( ( n->flags & 1 ) == 0 || n->child1 != CN_NULL_NODE )
			{
				continue;
			}
			if ( n->userData >= (uint64_t)world->shapeCount ||
				 world->shapes[n->userData].proxyKey != CN_PROXY_KEY( id, type ) || world->shapes[n->userData].alive == false )
			{
				return cnSnapFail( r, "broad phase: leaf %d names shape %llu, whose proxy it is not", id,
								   (unsigned long long)n->userData );
			}
		}
	}

	// contacts: two live shapes of two bodies, one contact per pair
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		bool ok = c->shapeA >= 0 && c->shapeA < world->shapeCount && c->shapeB >= 0 && c->shapeB < world->shapeCount &&
				  c->shapeA != c->shapeB && world->shapes[c->shapeA].alive && world->shapes[c->shapeB].alive &&
				  c->key == cnPairKey( c->shapeA, c->shapeB ) && c->bodyA == world->shapes[c->shapeA].body &&
				  c->bodyB == world->shapes[c->shapeB].body && c->bodyA != c->bodyB && isfinite( c->friction ) &&
				  isfinite( c->restitution );
		if ( ok == false )
		{
			return cnSnapFail( r, "contact %d: shapes %d and %d are not a live pair of its bodies", i, c->shapeA, c->shapeB );
		}
		if ( cnPairMap_Find( &world->contactMap, c->key ) >= 0 )
		{
			return cnSnapFail( r, "contact %d: a second contact for shapes %d and %d", i, c->shapeA, c->shapeB );
		}
		cnPairMap_Insert( &world->contactMap, c->key, i );
	}

	// joints, forces, islands
	live = 0;
	for ( int i = 0; i < world->jointCount; ++i )
	{
		if ( world->joints[i].alive )
		{
			live += 1;
			if ( cnCheckJoint( r, world, world->joints + i, i ) == false )
			{
				return false;
			}
		}
	}
	if ( live != world->liveJointCount )
	{
		return cnSnapFail( r, "%d live joints, %d counted", live, world->liveJointCount );
	}
	live = 0;
	for ( int i = 0; i < world->forceCount; ++i )
	{
		const cnForce* f = world->forces + i;
		live += f->alive ? 1 : 0;
		if ( f->alive && ( f->def.body.index < 0 || f->def.body.index >= world->bodyCount ||
						   f->def.target.index < -1 || f->def.target.index >= world->bodyCount ) )
		{
			return cnSnapFail( r, "force %d: its body or target is out of range", i );
		}
	}
	if ( live != world->liveForceCount )
	{
		return cnSnapFail( r, "%d live forces, %d counted", live, world->liveForceCount );
	}
	for ( int i = 0; i < world->sleepIslandCount; ++i )
	{
		const cnSleepIsland* island = world->sleepIslands + i;
		for ( int k = 0; k < island->count; ++k )
		{
			int b = island->bodies[k];
			if ( b < 0 || b >= world->bodyCount )
			{
				return cnSnapFail( r, "sleeping island %d: body %d out of range", i, b );
			}
		}
	}

	// the move buffer: leaves of the trees, each once; their slots are rebuilt
	cnBroadPhase* bp = &world->broadPhase;
	for ( int type = 0; type < 2; ++type )
	{
		int capacity = bp->trees[type].nodeCapacity;
		bp->moveSlots[type] = cnLoadAlloc( r, capacity, sizeof( int32_t ) );
		if ( bp->moveSlots[type] == NULL )
		{
			return false;
		}
		bp->moveSlotCapacity[type] = capacity;
		for ( int i = 0; i < capacity; ++i )
		{
			bp->moveSlots[type][i] = -1;
		}
	}
	for ( int i = 0; i < bp->moveCount; ++i )
	{
		int32_t key = bp->moveBuffer[i];
		if ( key == CN_NULL_PROXY )
		{
			continue;
		}
		cnProxyType type = CN_PROXY_TYPE( key );
		int32_t id = CN_PROXY_ID( key );
		const cnDynamicTree* tree = bp->trees + type;
		if ( key < 0 || id >= tree->nodeCapacity || ( tree->nodes[id].flags & 1 ) == 0 ||
			 tree->nodes[id].child1 != CN_NULL_NODE || bp->moveSlots[type][id] >= 0 )
		{
			return cnSnapFail( r, "broad phase: moved proxy %d is not a leaf, or is there twice", key );
		}
		bp->moveSlots[type][id] = i;
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// the world

// Reads the sections after the header into world (created from the WRLD section's def).
static cnWorld* cnGetWorld( cnSnapReader* r )
{
	size_t saved;
	if ( cnEnterSection( r, "WRLD", &saved ) == false )
	{
		return NULL;
	}
	cnWorldDef def = cnGetWorldDef( r );
	if ( r->failed )
	{
		return NULL;
	}
	cnWorld* world = cnCreateWorld( &def );
	if ( world == NULL )
	{
		cnSnapFail( r, "the world's settings: %s", cnGetError() );
		return NULL;
	}
	world->gravity = cnGetVec3( r );
	world->time = cnGetF64( r );
	world->stepCount = cnGetI64( r );
	cnStats* s = &world->stats;
	s->stepCount = cnGetI64( r );
	s->grFallbackCount = cnGetI64( r );
	s->frictionFallbackCount = cnGetI64( r );
	s->compliantFallbackCount = cnGetI64( r );
	s->continuousHitCount = cnGetI64( r );
	s->instabilityCount = cnGetI64( r );
	s->frozenBodyCount = cnGetI64( r );
	cnGetGuard( r, &world->guard );
	bool hasState = cnGetBool( r );
	if ( r->failed == false && hasState != ( world->module->stateSize > 0 ) )
	{
		cnSnapFail( r, "the method's state does not match its method" );
	}
	if ( hasState && r->failed == false )
	{
		cnContactTimeState* m = world->methodState;
		m->adaptive.lastStep = cnGetF64( r );
		m->lastTime = cnGetF64( r );
		m->count = cnGetI64( r );
		if ( !( m->adaptive.lastStep >= 0.0 ) || !isfinite( m->adaptive.lastStep ) || isnan( m->lastTime ) || m->count < 0 )
		{
			cnSnapFail( r, "the method's state is out of range" );
		}
	}
	if ( r->failed == false && ( cnIsValidVec3( world->gravity ) == false || isfinite( world->time ) == false ||
								 world->stepCount < 0 || s->stepCount < 0 ) )
	{
		cnSnapFail( r, "the world's gravity, time or step count is out of range" );
	}
	cnLeaveSection( r, saved );

	cnLoadedGeometry geometry = { 0 };
	if ( cnEnterSection( r, "GEOM", &saved ) && cnGetGeometry( r, &geometry ) )
	{
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "MATL", &saved ) && cnGetMaterials( r, world ) )
	{
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "BODY", &saved ) )
	{
		int n = cnGetCount( r, "bodies", CN_SNAPSHOT_MAX_RECORDS, CN_MIN_BODY_BYTES );
		world->liveBodyCount = cnGetI32( r );
		world->freeBody = cnGetI32( r );
		world->bodies = cnLoadAlloc( r, n, sizeof( cnBody ) );
		if ( world->bodies != NULL )
		{
			world->bodyCapacity = n > 0 ? n : 1;
			for ( int i = 0; i < n && r->failed == false; ++i )
			{
				// counted first: cnDestroyWorld frees the name of a half-read body too
				world->bodyCount = i + 1;
				cnGetBody( r, world->bodies + i );
			}
		}
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "SHAP", &saved ) )
	{
		int n = cnGetCount( r, "shapes", CN_SNAPSHOT_MAX_RECORDS, CN_MIN_SHAPE_BYTES );
		world->liveShapeCount = cnGetI32( r );
		world->freeShape = cnGetI32( r );
		// the static boxes' internal faces are not saved: the first step finds them again
		world->internalFacesDirty = true;
		world->shapes = cnLoadAlloc( r, n, sizeof( cnShape ) );
		if ( world->shapes != NULL )
		{
			world->shapeCapacity = n > 0 ? n : 1;
			for ( int i = 0; i < n && r->failed == false; ++i )
			{
				// counted first: cnDestroyWorld frees the geometry of a half-read shape too
				world->shapeCount = i + 1;
				cnGetShape( r, &geometry, world->shapes + i, i );
			}
		}
		cnLeaveSection( r, saved );
	}
	cnReleaseLoadedGeometry( &geometry );

	if ( r->failed == false && cnEnterSection( r, "TREE", &saved ) )
	{
		cnBroadPhase* bp = &world->broadPhase;
		cnGetTree( r, bp->trees + cnProxy_static, "static tree" );
		cnGetTree( r, bp->trees + cnProxy_movable, "movable tree" );
		int n = cnGetCount( r, "moved proxies", CN_SNAPSHOT_MAX_RECORDS, 4 );
		if ( n >= 0 )
		{
			bp->moveBuffer = cnLoadAlloc( r, n, sizeof( int32_t ) );
			bp->moveCapacity = bp->moveBuffer != NULL && n > 0 ? n : 0;
			for ( int i = 0; i < n && bp->moveBuffer != NULL && r->failed == false; ++i )
			{
				bp->moveBuffer[i] = cnGetI32( r );
				bp->moveCount = i + 1;
			}
		}
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "CONT", &saved ) )
	{
		int n = cnGetCount( r, "contacts", CN_SNAPSHOT_MAX_RECORDS, CN_MIN_CONTACT_BYTES );
		world->contacts = cnLoadAlloc( r, n, sizeof( cnContact ) );
		if ( world->contacts != NULL )
		{
			world->contactCapacity = n > 0 ? n : 1;
			for ( int i = 0; i < n && r->failed == false; ++i )
			{
				world->contactCount = i + 1;
				cnGetContact( r, world->contacts + i );
			}
		}
		cnGetPairMap( r, &world->disabledPairs, "disabled pairs" );
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "JOIN", &saved ) )
	{
		int n = cnGetCount( r, "joints", CN_SNAPSHOT_MAX_RECORDS, CN_MIN_JOINT_BYTES );
		world->liveJointCount = cnGetI32( r );
		world->freeJoint = cnGetI32( r );
		world->joints = cnLoadAlloc( r, n, sizeof( cnJoint ) );
		if ( world->joints != NULL )
		{
			world->jointCapacity = n > 0 ? n : 1;
			for ( int i = 0; i < n && r->failed == false; ++i )
			{
				world->jointCount = i + 1;
				cnGetJoint( r, world->joints + i );
			}
		}
		cnGetPairMap( r, &world->jointPairs, "joint pairs" );
		world->jointImpulseTime = cnGetF64( r );
		n = cnGetCount( r, "joint breaks", CN_SNAPSHOT_MAX_RECORDS, 32 );
		world->jointBreaks = cnLoadAlloc( r, n, sizeof( cnJointBreak ) );
		world->jointBreakCapacity = world->jointBreaks != NULL && n > 0 ? n : 0;
		for ( int i = 0; i < n && world->jointBreaks != NULL && r->failed == false; ++i )
		{
			cnJointBreak* b = world->jointBreaks + i;
			b->joint.index = cnGetI32( r );
			b->joint.generation = cnGetU32( r );
			b->time = cnGetF64( r );
			b->force = cnGetF64( r );
			b->torque = cnGetF64( r );
			world->jointBreakCount = i + 1;
		}
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "FORC", &saved ) )
	{
		int n = cnGetCount( r, "forces", CN_SNAPSHOT_MAX_RECORDS, CN_MIN_FORCE_BYTES );
		world->liveForceCount = cnGetI32( r );
		world->forces = cnLoadAlloc( r, n, sizeof( cnForce ) );
		for ( int i = 0; i < n && world->forces != NULL && r->failed == false; ++i )
		{
			cnGetForce( r, world->forces + i );
			world->forceCount = i + 1;
		}
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "ISLE", &saved ) )
	{
		int n = cnGetCount( r, "sleeping islands", CN_SNAPSHOT_MAX_RECORDS, 5 );
		world->sleepIslands = cnLoadAlloc( r, n, sizeof( cnSleepIsland ) );
		for ( int i = 0; i < n && world->sleepIslands != NULL && r->failed == false; ++i )
		{
			cnSleepIsland* island = world->sleepIslands + i;
			world->sleepIslandCount = i + 1;
			island->used = cnGetBool( r );
			int count = cnGetCount( r, "island bodies", CN_SNAPSHOT_MAX_RECORDS, 4 );
			island->bodies = cnLoadAlloc( r, count, sizeof( int ) );
			for ( int k = 0; k < count && island->bodies != NULL && r->failed == false; ++k )
			{
				island->bodies[k] = cnGetI32( r );
				island->count = k + 1;
			}
		}
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && cnEnterSection( r, "EVNT", &saved ) && cnGetEvents( r, &world->events ) )
	{
		cnLeaveSection( r, saved );
	}

	if ( r->failed == false && r->offset != r->size )
	{
		cnSnapFail( r, "%zu bytes after the last section", r->size - r->offset );
	}
	if ( r->failed == false )
	{
		r->section[0] = 0;
		cnCheckWorld( r, world );
	}
	if ( r->failed )
	{
		cnDestroyWorld( world );
		return NULL;
	}
	return world;
}

cnWorld* cnLoadSnapshotData( const void* data, size_t size, bool verifyChecksum )
{
	if ( data == NULL )
	{
		cnSetError( cnError_invalidArgument, "snapshot: data is NULL" );
		return NULL;
	}
	const unsigned char* bytes = data;
	if ( size < 8 + 4 + 4 + 8 || memcmp( bytes, CN_SNAPSHOT_MAGIC, 8 ) != 0 )
	{
		cnSetError( cnError_invalidArgument, "snapshot: not a Cairn snapshot (no %s header)", CN_SNAPSHOT_MAGIC );
		return NULL;
	}
	cnSnapReader r = { 0 };
	r.data = bytes;
	r.size = size - 8;
	r.offset = 8;
	uint32_t version = cnGetU32( &r );
	if ( version != CN_SNAPSHOT_VERSION )
	{
		cnSetError( cnError_invalidArgument, "snapshot: format version %u; this Cairn (%s) reads version %u", version,
					cnGetVersion(), CN_SNAPSHOT_VERSION );
		return NULL;
	}
	uint64_t stored = 0;
	for ( int i = 0; i < 8; ++i )
	{
		stored |= (uint64_t)bytes[size - 8 + (size_t)i] << ( 8 * i );
	}
	if ( verifyChecksum && stored != cnSnapChecksum( bytes, size - 8 ) )
	{
		cnSetError( cnError_invalidArgument, "snapshot: checksum mismatch: the file is damaged or truncated" );
		return NULL;
	}
	char* writer = cnGetString( &r, "library version" );
	free( writer );
	cnWorld* world = r.failed ? NULL : cnGetWorld( &r );
	if ( world == NULL )
	{
		if ( r.section[0] != 0 )
		{
			cnSetError( cnError_invalidArgument, "snapshot: section %s: %s", r.section, r.why );
		}
		else
		{
			cnSetError( cnError_invalidArgument, "snapshot: %s", r.why );
		}
		return NULL;
	}
	cnClearError();
	return world;
}

cnWorld* cnWorld_Load( const void* data, size_t size )
{
	return cnLoadSnapshotData( data, size, true );
}
