// SPDX-License-Identifier: MIT
// Snapshots, the writer: everything the next step of a world depends on, field by field in a fixed
// order (docs/snapshots.md). Bodies, shapes, contacts and joints are written whole, dead ones
// included, with their free lists, and the broad phase's trees node by node, so that a loaded world
// hands out the same ids, walks its trees in the same order and warm starts from the same impulses:
// stepping it gives the bits the saved world would have given. snapshot_load.c reads the same order.
#include "snapshot.h"

#include "collision/hull.h"
#include "collision/mesh.h"
#include "error.h"
#include "methods/contact_time.h"
#include "methods/method.h"
#include "snapshot_codec.h"
#include "world.h"

#include <stdlib.h>
#include <string.h>

// A field added to one of these records must be added to the snapshot (here and in
// snapshot_load.c, with CN_SNAPSHOT_VERSION bumped): the sizes are checked so that cannot be missed.
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
// (cnWorldDef's last four fields, the workers and a user scheduler, are how a world runs, not its
// state: they are not saved, a loaded world has one worker, and results do not depend on them)
_Static_assert( sizeof( cnWorldDef ) == 256, "cnWorldDef changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnBody ) == 672, "cnBody changed: update the snapshot (snapshot.c)" );
// (cnGeometry.internalFaces and internalDepth are not saved: they follow from the static boxes and
// are found again after a load)
_Static_assert( sizeof( cnShape ) == 352, "cnShape changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnContact ) == 976, "cnContact changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnJoint ) == 416, "cnJoint changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnForceDef ) == 112, "cnForceDef changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnMaterialDef ) == 88, "cnMaterialDef changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnTreeNode ) == 72, "cnTreeNode changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnStats ) == 184, "cnStats changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnGuardState ) == 656, "cnGuardState changed: update the snapshot (snapshot.c)" );
_Static_assert( sizeof( cnInstabilityReport ) == 616, "cnInstabilityReport changed: update the snapshot (snapshot.c)" );
#endif

// ---------------------------------------------------------------------------------------------
// the shared geometry objects: each written once, shapes refer to them by index

typedef struct cnGeometryTable
{
	const void** hulls;
	int hullCount;
	const void** meshes;
	int meshCount;
	const void** heightfields;
	int heightfieldCount;
} cnGeometryTable;

// Index of object in list (adding it when new); -1 for NULL or out of memory (w->failed is set).
static int cnTableIndex( cnSnapWriter* w, const void*** list, int* count, const void* object )
{
	if ( object == NULL )
	{
		return -1;
	}
	for ( int i = 0; i < *count; ++i )
	{
		if ( ( *list )[i] == object )
		{
			return i;
		}
	}
	const void** grown = realloc( (void*)*list, (size_t)( *count + 1 ) * sizeof( void* ) );
	if ( grown == NULL )
	{
		w->failed = true;
		return -1;
	}
	grown[*count] = object;
	*list = grown;
	return ( *count )++;
}

static void cnPutHull( cnSnapWriter* w, const cnHull* h )
{
	cnPutI32( w, h->vertexCount );
	for ( int i = 0; i < h->vertexCount; ++i )
	{
		cnPutVec3( w, h->vertices[i] );
	}
	cnPutI32( w, h->faceCount );
	for ( int i = 0; i < h->faceCount; ++i )
	{
		cnPutVec3( w, h->faceNormals[i] );
		cnPutF64( w, h->faceOffsets[i] );
		cnPutI32( w, h->faceFirst[i + 1] - h->faceFirst[i] );
		for ( int k = h->faceFirst[i]; k < h->faceFirst[i + 1]; ++k )
		{
			cnPutI32( w, h->faceVertices[k] );
		}
	}
	cnPutI32( w, h->triangleCount );
	for ( int i = 0; i < 3 * h->triangleCount; ++i )
	{
		cnPutI32( w, h->triangles[i] );
	}
}

static void cnPutMesh( cnSnapWriter* w, const cnMesh* m )
{
	// the rest (normals, neighbours, tree, mass) is rebuilt from these exactly as it was built
	cnPutI32( w, m->vertexCount );
	for ( int i = 0; i < m->vertexCount; ++i )
	{
		cnPutVec3( w, m->vertices[i] );
	}
	cnPutI32( w, m->triangleCount );
	for ( int i = 0; i < 3 * m->triangleCount; ++i )
	{
		cnPutI32( w, m->triangles[i] );
	}
}

static void cnPutHeightfield( cnSnapWriter* w, const cnHeightfield* h )
{
	cnPutI32( w, h->columns );
	cnPutI32( w, h->rows );
	cnPutF64( w, h->sizeX );
	cnPutF64( w, h->sizeY );
	for ( int i = 0; i < h->columns * h->rows; ++i )
	{
		cnPutF64( w, h->heights[i] );
	}
}

// ---------------------------------------------------------------------------------------------
// records

static void cnPutWorldDef( cnSnapWriter* w, const cnWorldDef* d )
{
	cnPutVec3( w, d->gravity );
	cnPutBool( w, d->planar );
	cnPutI32( w, (int32_t)d->method );
	const cnMethodSettings* s = &d->settings;
	cnPutI32( w, s->impulse.subSteps );
	cnPutF64( w, s->impulse.contactHertz );
	cnPutF64( w, s->impulse.contactDampingRatio );
	cnPutF64( w, s->impulse.maxPushVelocity );
	cnPutI32( w, s->impulse.relaxIterations );
	cnPutI32( w, (int32_t)s->velocity.lcpSolver );
	cnPutI32( w, (int32_t)s->velocity.integrator );
	cnPutBool( w, s->velocity.positionCorrection );
	cnPutBool( w, s->velocity.speculativeContacts );
	cnPutF64( w, s->penalty.errorTolerance );
	cnPutF64( w, s->constraint.errorTolerance );
	cnPutF64( w, s->constraint.stabilizationHertz );
	cnPutF64( w, s->constraint.maxCorrectionSpeed );
	cnPutF64( w, d->restitutionThreshold );
	cnPutF64( w, d->linearSlop );
	cnPutF64( w, d->speculativeDistance );
	cnPutF64( w, d->contactRecycleDistance );
	cnPutBool( w, d->enableContinuous );
	cnPutBool( w, d->enableSleep );
	cnPutF64( w, d->timeToSleep );
	cnPutF64( w, d->sleepLinearThreshold );
	cnPutF64( w, d->sleepAngularThreshold );
	cnPutF64( w, d->hitEventThreshold );
	cnPutI32( w, (int32_t)d->onInstability );
	cnPutF64( w, d->maxSpeed );
	cnPutF64( w, d->maxAngularSpeed );
	cnPutF64( w, d->maxEnergyGrowth );
}

// The instability guard's energy references (they decide the next step's energy check) and its
// last report.
static void cnPutGuard( cnSnapWriter* w, const cnGuardState* g )
{
	cnPutF64( w, g->referenceEnergy );
	cnPutF64( w, g->referenceKinetic );
	cnPutBool( w, g->hasReference );
	const cnInstabilityReport* r = &g->report;
	cnPutI32( w, (int32_t)r->kind );
	cnPutI32( w, (int32_t)r->action );
	cnPutI32( w, r->body.index );
	cnPutU32( w, r->body.generation );
	cnPutI32( w, r->bodyCount );
	cnPutF64( w, r->time );
	cnPutI64( w, r->step );
	cnPutF64( w, r->value );
	cnPutF64( w, r->bound );
	cnPutF64( w, r->overlap );
	cnPutI32( w, r->overlapBody.index );
	cnPutU32( w, r->overlapBody.generation );
	cnPutF64( w, r->massRatio );
	cnPutI32( w, r->massRatioBody.index );
	cnPutU32( w, r->massRatioBody.generation );
	cnPutF64( w, r->travel );
	cnPutF64( w, r->size );
	cnPutString( w, r->message );
}

static void cnPutMaterial( cnSnapWriter* w, const cnMaterial* m )
{
	cnPutString( w, m->name );
	cnPutString( w, m->texture );
	const cnMaterialDef* d = &m->def;
	cnPutF64( w, d->density );
	cnPutF64( w, d->friction );
	cnPutF64( w, d->restitution );
	cnPutF64( w, d->stiffness );
	cnPutF64( w, d->damping );
	for ( int k = 0; k < 3; ++k )
	{
		uint32_t bits;
		memcpy( &bits, d->color + k, sizeof( bits ) );
		cnPutU32( w, bits );
	}
	cnPutI32( w, (int32_t)d->finish );
	cnPutF64( w, d->ior );
}

static void cnPutBody( cnSnapWriter* w, const cnBody* b )
{
	cnPutString( w, b->name );
	cnPutU64( w, b->userData );
	cnPutU32( w, b->generation );
	cnPutBool( w, b->alive );
	cnPutI32( w, (int32_t)b->type );
	cnPutTransform( w, b->xf );
	cnPutVec3( w, b->center );
	cnPutVec3( w, b->localCenter );
	cnPutVec3( w, b->v );
	cnPutVec3( w, b->w );
	cnPutVec3( w, b->force );
	cnPutVec3( w, b->torque );
	cnPutF64( w, b->mass );
	cnPutF64( w, b->invMass );
	cnPutMat3( w, b->inertia );
	cnPutMat3( w, b->invInertia );
	cnPutBool( w, b->isotropic );
	cnPutF64( w, b->massOverride );
	cnPutBool( w, b->hasMassData );
	cnPutVec3( w, b->userCenter );
	cnPutMat3( w, b->userInertia );
	cnPutF64( w, b->gravityScale );
	cnPutF64( w, b->linearDamping );
	cnPutF64( w, b->angularDamping );
	cnPutF64( w, b->drag );
	cnPutI32( w, b->firstShape );
	cnPutI32( w, b->shapeCount );
	cnPutF64( w, b->maxExtent );
	cnPutBool( w, b->enableSleep );
	cnPutBool( w, b->awake );
	cnPutF64( w, b->sleepTime );
	cnPutI32( w, b->sleepIsland );
	cnPutI32( w, b->solverIndex );
	cnPutBool( w, b->isBullet );
	cnPutTransform( w, b->xf0 );
	cnPutVec3( w, b->center0 );
}

static void cnPutShape( cnSnapWriter* w, cnGeometryTable* table, const cnShape* s )
{
	const cnGeometry* g = &s->geom;
	cnPutI32( w, (int32_t)g->type );
	cnPutF64( w, g->radius );
	cnPutF64( w, g->halfHeight );
	cnPutVec3( w, g->halfExtents );
	cnPutVec3( w, g->normal );
	cnPutF64( w, g->offset );
	cnPutI32( w, g->vertexCount );
	for ( int i = 0; i < g->vertexCount; ++i )
	{
		cnPutVec3( w, g->vertices[i] );
	}
	cnPutI32( w, cnTableIndex( w, &table->hulls, &table->hullCount, g->hull ) );
	cnPutI32( w, cnTableIndex( w, &table->meshes, &table->meshCount, g->mesh ) );
	cnPutI32( w, cnTableIndex( w, &table->heightfields, &table->heightfieldCount, g->heightfield ) );
	cnPutTransform( w, s->local );
	cnPutI32( w, s->body );
	cnPutU32( w, s->generation );
	cnPutBool( w, s->alive );
	cnPutI32( w, s->material );
	cnPutU64( w, s->categoryBits );
	cnPutU64( w, s->maskBits );
	cnPutI32( w, s->groupIndex );
	cnPutBool( w, s->enableContactEvents );
	cnPutBool( w, s->enableHitEvents );
	cnPutI32( w, s->nextShape );
	cnPutI32( w, s->proxyKey );
	cnPutAABB( w, s->aabb );
	cnPutAABB( w, s->fatAABB );
}

static void cnPutManifold( cnSnapWriter* w, const cnManifold* m )
{
	cnPutVec3( w, m->normal );
	cnPutI32( w, m->pointCount );
	for ( int i = 0; i < m->pointCount; ++i )
	{
		const cnManifoldPoint* p = m->points + i;
		cnPutVec3( w, p->point );
		cnPutF64( w, p->separation );
		cnPutU32( w, p->id );
		cnPutVec3( w, p->normal );
		cnPutVec3( w, p->anchorA );
		cnPutVec3( w, p->anchorB );
		cnPutF64( w, p->normalImpulse );
		cnPutF64( w, p->tangentImpulse1 );
		cnPutF64( w, p->tangentImpulse2 );
		cnPutF64( w, p->maxNormalImpulse );
		cnPutF64( w, p->relativeVelocity );
		cnPutBool( w, p->persisted );
	}
}

static void cnPutContact( cnSnapWriter* w, const cnContact* c )
{
	cnPutU64( w, c->key );
	cnPutI32( w, c->shapeA );
	cnPutI32( w, c->shapeB );
	cnPutI32( w, c->bodyA );
	cnPutI32( w, c->bodyB );
	cnPutI32( w, c->flags );
	cnPutF64( w, c->friction );
	cnPutF64( w, c->restitution );
	cnPutI32( w, c->manifoldCount );
	for ( int k = 0; k < c->manifoldCount; ++k )
	{
		cnPutManifold( w, cnContactManifold( c, k ) );
	}
	const cnContactApproach* a = &c->approach;
	cnPutVec3( w, a->point );
	cnPutVec3( w, a->normal );
	cnPutVec3( w, a->anchorA );
	cnPutVec3( w, a->anchorB );
	cnPutF64( w, a->speed );
	cnPutF64( w, a->separation );
	cnPutQuat( w, c->rotationA );
	cnPutQuat( w, c->rotationB );
	cnPutTransform( w, c->madePose );
	cnPutF64( w, c->madeMargin );
}

static void cnPutJoint( cnSnapWriter* w, const cnJoint* j )
{
	cnPutString( w, j->name );
	cnPutU64( w, j->userData );
	cnPutU32( w, j->generation );
	cnPutBool( w, j->alive );
	cnPutI32( w, (int32_t)j->type );
	cnPutI32( w, j->bodyA );
	cnPutI32( w, j->bodyB );
	cnPutVec3( w, j->localAnchorA );
	cnPutVec3( w, j->localAnchorB );
	cnPutQuat( w, j->localFrameA );
	cnPutQuat( w, j->localFrameB );
	cnPutBool( w, j->collideConnected );
	cnPutF64( w, j->breakForce );
	cnPutF64( w, j->breakTorque );
	cnPutBool( w, j->broken );
	cnPutBool( w, j->enableLimit );
	cnPutF64( w, j->lower );
	cnPutF64( w, j->upper );
	cnPutBool( w, j->enableMotor );
	cnPutF64( w, j->motorSpeed );
	cnPutF64( w, j->maxMotorForce );
	cnPutBool( w, j->enableSpring );
	cnPutF64( w, j->stiffness );
	cnPutF64( w, j->damping );
	cnPutF64( w, j->rest );
	cnPutF64( w, j->minLength );
	cnPutF64( w, j->swingAngle );
	for ( int k = 0; k < CN_JOINT_MAX_ROWS; ++k )
	{
		cnPutF64( w, j->impulses[k] );
	}
	cnPutVec3( w, j->force );
	cnPutVec3( w, j->torque );
	cnPutF64( w, j->linearError );
	cnPutF64( w, j->angularError );
	cnPutI32( w, j->nextFree );
}

static void cnPutForce( cnSnapWriter* w, const cnForce* f )
{
	const cnForceDef* d = &f->def;
	cnPutI32( w, d->body.index );
	cnPutU32( w, d->body.generation );
	cnPutBool( w, d->isTorque );
	cnPutI32( w, (int32_t)d->frame );
	cnPutVec3( w, d->localPoint );
	cnPutVec3( w, d->vector );
	cnPutI32( w, d->target.index );
	cnPutU32( w, d->target.generation );
	cnPutVec3( w, d->targetPoint );
	cnPutF64( w, d->t0 );
	cnPutF64( w, d->t1 );
	cnPutU32( w, f->generation );
	cnPutBool( w, f->alive );
}

// The entries of a pair map in slot order (a loaded map holds the same pairs; only lookups use it).
static void cnPutPairMap( cnSnapWriter* w, const cnPairMap* map )
{
	cnPutI32( w, map->count );
	for ( int i = 0; i < map->capacity; ++i )
	{
		if ( map->entries[i].used )
		{
			cnPutU64( w, map->entries[i].key );
			cnPutI32( w, map->entries[i].value );
		}
	}
}

static void cnPutTree( cnSnapWriter* w, const cnDynamicTree* t )
{
	cnPutI32( w, t->nodeCapacity );
	cnPutI32( w, t->nodeCount );
	cnPutI32( w, t->root );
	cnPutI32( w, t->freeList );
	cnPutI32( w, t->proxyCount );
	for ( int i = 0; i < t->nodeCapacity; ++i )
	{
		const cnTreeNode* n = t->nodes + i;
		cnPutAABB( w, n->aabb );
		cnPutU64( w, n->userData );
		cnPutI32( w, n->parent );
		cnPutI32( w, n->child1 );
		cnPutI32( w, n->child2 );
		cnPutI32( w, n->height );
		cnPutU32( w, n->flags );
	}
}

static void cnPutShapeId( cnSnapWriter* w, cnShapeId id )
{
	cnPutI32( w, id.index );
	cnPutU32( w, id.generation );
}

static void cnPutEvents( cnSnapWriter* w, const cnContactEventBuffer* e )
{
	cnPutI32( w, e->beginCount );
	for ( int i = 0; i < e->beginCount; ++i )
	{
		cnPutShapeId( w, e->begins[i].shapeIdA );
		cnPutShapeId( w, e->begins[i].shapeIdB );
		cnPutVec3( w, e->begins[i].point );
		cnPutVec3( w, e->begins[i].normal );
	}
	cnPutI32( w, e->endIndex );
	for ( int k = 0; k < 2; ++k )
	{
		cnPutI32( w, e->endCount[k] );
		for ( int i = 0; i < e->endCount[k]; ++i )
		{
			cnPutShapeId( w, e->ends[k][i].shapeIdA );
			cnPutShapeId( w, e->ends[k][i].shapeIdB );
		}
	}
	cnPutI32( w, e->hitCount );
	for ( int i = 0; i < e->hitCount; ++i )
	{
		cnPutShapeId( w, e->hits[i].shapeIdA );
		cnPutShapeId( w, e->hits[i].shapeIdB );
		cnPutVec3( w, e->hits[i].point );
		cnPutVec3( w, e->hits[i].normal );
		cnPutF64( w, e->hits[i].approachSpeed );
	}
}

// ---------------------------------------------------------------------------------------------
// the world

// Writes every section after the header (the order snapshot_load.c reads).
static void cnPutWorld( cnSnapWriter* w, const cnWorld* world )
{
	size_t section = cnBeginSection( w, "WRLD" );
	cnPutWorldDef( w, &world->def );
	cnPutVec3( w, world->gravity );
	cnPutF64( w, world->time );
	cnPutI64( w, world->stepCount );
	const cnStats* s = &world->stats;
	cnPutI64( w, s->stepCount );
	cnPutI64( w, s->grFallbackCount );
	cnPutI64( w, s->frictionFallbackCount );
	cnPutI64( w, s->compliantFallbackCount );
	cnPutI64( w, s->continuousHitCount );
	cnPutI64( w, s->instabilityCount );
	cnPutI64( w, s->frozenBodyCount );
	cnPutGuard( w, &world->guard );
	// the method's state: the adaptive methods' last step size and located contacts
	const cnContactTimeState* m = world->methodState;
	cnPutBool( w, m != NULL );
	if ( m != NULL )
	{
		cnPutF64( w, m->adaptive.lastStep );
		cnPutF64( w, m->lastTime );
		cnPutI64( w, m->count );
	}
	cnEndSection( w, section );

	// shapes are written first into their own buffer: they fill the geometry table, whose objects
	// the reader needs before the shapes
	cnGeometryTable table = { 0 };
	cnSnapWriter shapes = { 0 };
	cnPutI32( &shapes, world->shapeCount );
	cnPutI32( &shapes, world->liveShapeCount );
	cnPutI32( &shapes, world->freeShape );
	for ( int i = 0; i < world->shapeCount; ++i )
	{
		cnPutShape( &shapes, &table, world->shapes + i );
	}

	section = cnBeginSection( w, "GEOM" );
	cnPutI32( w, table.hullCount );
	for ( int i = 0; i < table.hullCount; ++i )
	{
		cnPutHull( w, table.hulls[i] );
	}
	cnPutI32( w, table.meshCount );
	for ( int i = 0; i < table.meshCount; ++i )
	{
		cnPutMesh( w, table.meshes[i] );
	}
	cnPutI32( w, table.heightfieldCount );
	for ( int i = 0; i < table.heightfieldCount; ++i )
	{
		cnPutHeightfield( w, table.heightfields[i] );
	}
	cnEndSection( w, section );
	free( (void*)table.hulls );
	free( (void*)table.meshes );
	free( (void*)table.heightfields );

	section = cnBeginSection( w, "MATL" );
	cnPutI32( w, world->materialCount );
	for ( int i = 0; i < world->materialCount; ++i )
	{
		cnPutMaterial( w, world->materials + i );
	}
	cnPutI32( w, world->materialPairCount );
	for ( int i = 0; i < world->materialPairCount; ++i )
	{
		const cnMaterialPair* p = world->materialPairs + i;
		cnPutI32( w, p->a );
		cnPutI32( w, p->b );
		cnPutF64( w, p->friction );
		cnPutF64( w, p->restitution );
	}
	cnEndSection( w, section );

	section = cnBeginSection( w, "BODY" );
	cnPutI32( w, world->bodyCount );
	cnPutI32( w, world->liveBodyCount );
	cnPutI32( w, world->freeBody );
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnPutBody( w, world->bodies + i );
	}
	cnEndSection( w, section );

	section = cnBeginSection( w, "SHAP" );
	cnPutBytes( w, shapes.data, shapes.size );
	w->failed = w->failed || shapes.failed;
	free( shapes.data );
	cnEndSection( w, section );

	section = cnBeginSection( w, "TREE" );
	cnPutTree( w, world->broadPhase.trees + cnProxy_static );
	cnPutTree( w, world->broadPhase.trees + cnProxy_movable );
	cnPutI32( w, world->broadPhase.moveCount );
	for ( int i = 0; i < world->broadPhase.moveCount; ++i )
	{
		cnPutI32( w, world->broadPhase.moveBuffer[i] );
	}
	cnEndSection( w, section );

	section = cnBeginSection( w, "CONT" );
	cnPutI32( w, world->contactCount );
	for ( int i = 0; i < world->contactCount; ++i )
	{
		cnPutContact( w, world->contacts + i );
	}
	cnPutPairMap( w, &world->disabledPairs );
	cnEndSection( w, section );

	section = cnBeginSection( w, "JOIN" );
	cnPutI32( w, world->jointCount );
	cnPutI32( w, world->liveJointCount );
	cnPutI32( w, world->freeJoint );
	for ( int i = 0; i < world->jointCount; ++i )
	{
		cnPutJoint( w, world->joints + i );
	}
	cnPutPairMap( w, &world->jointPairs );
	cnPutF64( w, world->jointImpulseTime );
	cnPutI32( w, world->jointBreakCount );
	for ( int i = 0; i < world->jointBreakCount; ++i )
	{
		const cnJointBreak* b = world->jointBreaks + i;
		cnPutI32( w, b->joint.index );
		cnPutU32( w, b->joint.generation );
		cnPutF64( w, b->time );
		cnPutF64( w, b->force );
		cnPutF64( w, b->torque );
	}
	cnEndSection( w, section );

	section = cnBeginSection( w, "FORC" );
	cnPutI32( w, world->forceCount );
	cnPutI32( w, world->liveForceCount );
	for ( int i = 0; i < world->forceCount; ++i )
	{
		cnPutForce( w, world->forces + i );
	}
	cnEndSection( w, section );

	section = cnBeginSection( w, "ISLE" );
	cnPutI32( w, world->sleepIslandCount );
	for ( int i = 0; i < world->sleepIslandCount; ++i )
	{
		const cnSleepIsland* island = world->sleepIslands + i;
		cnPutBool( w, island->used );
		cnPutI32( w, island->count );
		for ( int k = 0; k < island->count; ++k )
		{
			cnPutI32( w, island->bodies[k] );
		}
	}
	cnEndSection( w, section );

	section = cnBeginSection( w, "EVNT" );
	cnPutEvents( w, &world->events );
	cnEndSection( w, section );
}

bool cnSnapshotUnitQuat( cnQuat q )
{
	double n = cnQuatLength( q );
	return isfinite( n ) && fabs( n - 1.0 ) <= 1e-6;
}

bool cnSnapshotFiniteBody( const cnBody* b )
{
	return cnIsValidVec3( b->xf.p ) && cnSnapshotUnitQuat( b->xf.q ) && cnIsValidVec3( b->center ) && cnIsValidVec3( b->localCenter ) &&
		   cnIsValidVec3( b->v ) && cnIsValidVec3( b->w ) && cnIsValidVec3( b->force ) && cnIsValidVec3( b->torque ) &&
		   isfinite( b->mass ) && isfinite( b->invMass ) && cnIsValidVec3( b->inertia.cx ) && cnIsValidVec3( b->inertia.cy ) &&
		   cnIsValidVec3( b->inertia.cz ) && cnIsValidVec3( b->invInertia.cx ) && cnIsValidVec3( b->invInertia.cy ) &&
		   cnIsValidVec3( b->invInertia.cz ) && isfinite( b->massOverride ) && cnIsValidVec3( b->userCenter ) &&
		   cnIsValidVec3( b->userInertia.cx ) && cnIsValidVec3( b->userInertia.cy ) && cnIsValidVec3( b->userInertia.cz ) &&
		   isfinite( b->gravityScale ) && isfinite( b->linearDamping ) && isfinite( b->angularDamping ) &&
		   isfinite( b->drag ) && isfinite( b->maxExtent ) && isfinite( b->sleepTime ) && cnIsValidVec3( b->xf0.p ) &&
		   isfinite( cnQuatLength( b->xf0.q ) ) && cnIsValidVec3( b->center0 );
}

bool cnSnapshotFiniteJoint( const cnJoint* j )
{
	bool finite = cnIsValidVec3( j->localAnchorA ) && cnIsValidVec3( j->localAnchorB ) && cnSnapshotUnitQuat( j->localFrameA ) &&
				  cnSnapshotUnitQuat( j->localFrameB ) && cnIsValidVec3( j->force ) && cnIsValidVec3( j->torque ) &&
				  isfinite( j->lower ) && isfinite( j->upper ) && isfinite( j->motorSpeed ) && isfinite( j->maxMotorForce ) &&
				  isfinite( j->stiffness ) && isfinite( j->damping ) && isfinite( j->rest ) && isfinite( j->minLength ) &&
				  isfinite( j->swingAngle ) && isfinite( j->linearError ) && isfinite( j->angularError ) &&
				  !( j->breakForce < 0.0 ) && !( j->breakTorque < 0.0 );
	for ( int k = 0; k < CN_JOINT_MAX_ROWS; ++k )
	{
		finite = finite && isfinite( j->impulses[k] );
	}
	return finite;
}

bool cnSnapshotFinitePoint( const cnManifoldPoint* p )
{
	// each number alone: a sum of large finite ones could overflow
	return cnIsValidVec3( p->point ) && cnIsValidVec3( p->normal ) && cnIsValidVec3( p->anchorA ) && cnIsValidVec3( p->anchorB ) &&
		   isfinite( p->separation ) && isfinite( p->normalImpulse ) && isfinite( p->tangentImpulse1 ) &&
		   isfinite( p->tangentImpulse2 ) && isfinite( p->maxNormalImpulse ) && isfinite( p->relativeVelocity );
}

bool cnSnapshotFiniteBoxes( const cnShape* s )
{
	return cnIsValidVec3( s->aabb.lower ) && cnIsValidVec3( s->aabb.upper ) && cnIsValidVec3( s->fatAABB.lower ) &&
		   cnIsValidVec3( s->fatAABB.upper );
}

// False (the error set) when the world holds what the reader would refuse as not finite, which a
// failed step can leave behind: a snapshot must load back, so such a world is not written.
static bool cnCheckFinite( const cnWorld* world )
{
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->alive && cnSnapshotFiniteBody( b ) == false )
		{
			return cnSetError( cnError_invalidArgument,
							   "snapshot: body %d ('%s') has a pose or velocity that is not finite (a step that failed "
							   "leaves it so): such a world cannot be restored",
							   i, b->name != NULL ? b->name : "" );
		}
	}
	for ( int i = 0; i < world->jointCount; ++i )
	{
		const cnJoint* j = world->joints + i;
		if ( j->alive && cnSnapshotFiniteJoint( j ) == false )
		{
			return cnSetError( cnError_invalidArgument, "snapshot: joint %d holds numbers that are not finite", i );
		}
	}
	for ( int i = 0; i < world->shapeCount; ++i )
	{
		const cnShape* s = world->shapes + i;
		if ( s->alive && cnSnapshotFiniteBoxes( s ) == false )
		{
			return cnSetError( cnError_invalidArgument, "snapshot: shape %d of body %d has a box that is not finite", i,
							   s->body );
		}
	}
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		for ( int k = 0; k < c->manifoldCount; ++k )
		{
			const cnManifold* m = cnContactManifold( c, k );
			bool finite = cnIsValidVec3( m->normal );
			for ( int j = 0; j < m->pointCount && finite; ++j )
			{
				finite = cnSnapshotFinitePoint( m->points + j );
			}
			if ( finite == false )
			{
				return cnSetError( cnError_invalidArgument,
								   "snapshot: the contact of bodies %d and %d holds numbers that are not finite (a step "
								   "that failed leaves them so): such a world cannot be restored",
								   c->bodyA, c->bodyB );
			}
		}
	}
	const cnGuardState* g = &world->guard;
	if ( g->hasReference && ( isfinite( g->referenceEnergy ) == false || isfinite( g->referenceKinetic ) == false ) )
	{
		return cnSetError( cnError_invalidArgument, "snapshot: the instability guard's energy is not finite" );
	}
	return true;
}

bool cnWorld_Save( const cnWorld* world, void** data, size_t* size )
{
	if ( data != NULL )
	{
		*data = NULL;
	}
	if ( size != NULL )
	{
		*size = 0;
	}
	if ( world == NULL || world->magic != CN_WORLD_MAGIC || data == NULL || size == NULL )
	{
		return cnSetError( cnError_invalidArgument, "snapshot: world, data and size must be given (world alive)" );
	}
	if ( cnCheckFinite( world ) == false )
	{
		return false;
	}
	cnSnapWriter w = { 0 };
	cnPutBytes( &w, CN_SNAPSHOT_MAGIC, 8 );
	cnPutU32( &w, CN_SNAPSHOT_VERSION );
	cnPutString( &w, cnGetVersion() );
	cnPutWorld( &w, world );
	uint64_t checksum = cnSnapChecksum( w.data, w.size );
	cnPutU64( &w, checksum );
	if ( w.failed )
	{
		free( w.data );
		return cnSetError( cnError_outOfMemory, "snapshot: out of memory" );
	}
	cnClearError();
	*data = w.data;
	*size = w.size;
	return true;
}

void cnFree( void* memory )
{
	free( memory );
}
