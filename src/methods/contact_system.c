// SPDX-License-Identifier: MIT
#include "methods/contact_system.h"

#include <string.h>

void cnBuildDofMap( cnWorld* world, cnDofMap* map )
{
	int count = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		if ( b->alive && b->type == cnBody_dynamic && b->awake )
		{
			count += 1;
		}
	}
	map->dofsPerBody = world->def.planar ? 3 : 6;
	map->bodyCount = count;
	map->n = count * map->dofsPerBody;
	map->bodies = cnArena_Alloc( &world->arena, (size_t)( count > 0 ? count : 1 ) * sizeof( int ) );
	map->offset = cnArena_Alloc( &world->arena, (size_t)( world->bodyCount > 0 ? world->bodyCount : 1 ) * sizeof( int ) );
	int k = 0;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		const cnBody* b = world->bodies + i;
		map->offset[i] = -1;
		if ( b->alive && b->type == cnBody_dynamic && b->awake )
		{
			map->offset[i] = k * map->dofsPerBody;
			map->bodies[k++] = i;
		}
	}
}

void cnGatherVelocities( const cnWorld* world, const cnDofMap* map, double* qdot )
{
	for ( int k = 0; k < map->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + map->bodies[k];
		double* q = qdot + k * map->dofsPerBody;
		if ( map->dofsPerBody == 3 )
		{
			q[0] = b->v.x, q[1] = b->v.y, q[2] = b->w.z;
		}
		else
		{
			q[0] = b->v.x, q[1] = b->v.y, q[2] = b->v.z, q[3] = b->w.x, q[4] = b->w.y, q[5] = b->w.z;
		}
	}
}

void cnScatterVelocities( cnWorld* world, const cnDofMap* map, const double* qdot )
{
	for ( int k = 0; k < map->bodyCount; ++k )
	{
		cnBody* b = world->bodies + map->bodies[k];
		const double* q = qdot + k * map->dofsPerBody;
		if ( map->dofsPerBody == 3 )
		{
			b->v = cnV3( q[0], q[1], 0.0 );
			b->w = cnV3( 0.0, 0.0, q[2] );
		}
		else
		{
			b->v = cnV3( q[0], q[1], q[2] );
			b->w = cnV3( q[3], q[4], q[5] );
		}
	}
}

void cnBuildMassMatrix( const cnWorld* world, const cnDofMap* map, double* M )
{
	int n = map->n;
	memset( M, 0, (size_t)n * (size_t)n * sizeof( double ) );
	for ( int k = 0; k < map->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + map->bodies[k];
		int o = k * map->dofsPerBody;
		cnMat3 I = cnRotateTensor( b->xf.q, b->inertia );
		if ( map->dofsPerBody == 3 )
		{
			M[o + o * n] = b->mass;
			M[( o + 1 ) + ( o + 1 ) * n] = b->mass;
			M[( o + 2 ) + ( o + 2 ) * n] = I.cz.z;
			continue;
		}
		for ( int i = 0; i < 3; ++i )
		{
			M[( o + i ) + ( o + i ) * n] = b->mass;
		}
		cnVec3 cols[3] = { I.cx, I.cy, I.cz };
		for ( int c = 0; c < 3; ++c )
		{
			M[( o + 3 + 0 ) + ( o + 3 + c ) * n] = cols[c].x;
			M[( o + 3 + 1 ) + ( o + 3 + c ) * n] = cols[c].y;
			M[( o + 3 + 2 ) + ( o + 3 + c ) * n] = cols[c].z;
		}
	}
}

void cnApplyInverseMass( const cnWorld* world, const cnDofMap* map, double* x )
{
	for ( int k = 0; k < map->bodyCount; ++k )
	{
		const cnBody* b = world->bodies + map->bodies[k];
		double* q = x + k * map->dofsPerBody;
		cnMat3 invI = cnRotateTensor( b->xf.q, b->invInertia );
		if ( map->dofsPerBody == 3 )
		{
			q[0] *= b->invMass;
			q[1] *= b->invMass;
			q[2] = invI.cz.z != 0.0 ? q[2] * invI.cz.z : 0.0;
			continue;
		}
		q[0] *= b->invMass;
		q[1] *= b->invMass;
		q[2] *= b->invMass;
		cnVec3 w = cnMulMV( invI, cnV3( q[3], q[4], q[5] ) );
		q[3] = w.x, q[4] = w.y, q[5] = w.z;
	}
}

double cnFixedVelocity( const cnWorld* world, const cnDofMap* map, int bodyA, int bodyB, cnVec3 pointA, cnVec3 pointB,
						cnVec3 dir )
{
	double v = 0.0;
	if ( map->offset[bodyB] < 0 )
	{
		const cnBody* b = world->bodies + bodyB;
		v += cnDot( dir, cnAdd( b->v, cnCross( b->w, cnSub( pointB, b->center ) ) ) );
	}
	if ( map->offset[bodyA] < 0 )
	{
		const cnBody* a = world->bodies + bodyA;
		v -= cnDot( dir, cnAdd( a->v, cnCross( a->w, cnSub( pointA, a->center ) ) ) );
	}
	return v;
}
