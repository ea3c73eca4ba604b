// SPDX-License-Identifier: MIT
// FOSSSim's force elements (fosssim.h): damped springs between body points or to world points,
// and wind on the bodies' edges, applied through the public body calls before each step.
#include "cairn/fosssim.h"

bool cnFosssim_HasForceElements( const cnFosssimScene* f )
{
	return f != NULL && ( f->springCount > 0 || f->windCount > 0 );
}

// The first failed call of a pass that goes on after a failure: a later call that succeeds clears
// the thread's error, so the pass keeps the first one's code and message and sets them at its end.
typedef struct cnFirstFailure
{
	bool failed;
	cnErrorCode code;
	char message[512];
} cnFirstFailure;

// Notes a call's result; returns ok.
static bool cnNoteCall( cnFirstFailure* first, bool ok )
{
	if ( ok == false && first->failed == false )
	{
		first->failed = true;
		first->code = cnGetErrorCode();
		snprintf( first->message, sizeof( first->message ), "%s", cnGetError() );
	}
	return ok;
}

// World position and velocity of a spring end.
static void cnSpringEnd( cnWorld* world, cnBodyId body, cnVec3 point, cnVec3* x, cnVec3* v )
{
	if ( body.index < 0 )
	{
		*x = point;
		*v = cnVec3_zero;
		return;
	}
	*x = cnTransformPoint( cnBody_GetTransform( world, body ), point );
	*v = cnBody_GetPointVelocity( world, body, *x );
}

static bool cnApplyWind( cnWorld* world, cnBodyId id, const cnFosssimWind* wind, cnFirstFailure* first )
{
	cnShapeId shape;
	int shapeCount = cnBody_GetShapes( world, id, &shape, 1 );
	if ( shapeCount != 1 )
	{
		if ( shapeCount == 0 )
		{
			cnSetError( cnError_invalidArgument, "cnFosssim_ApplyForces: body %d has no shape for the wind",
						(int)id.index );
		}
		return cnNoteCall( first, false );
	}
	cnShapeDef def = cnShape_GetDef( world, shape );
	cnTransform xf = cnShape_GetTransform( world, shape );
	int edgeCount = def.vertexCount >= 3 ? def.vertexCount : def.vertexCount - 1;
	bool ok = true;
	for ( int e = 0; e < edgeCount; ++e )
	{
		cnVec3 a = cnTransformPoint( xf, def.vertices[e] );
		cnVec3 b = cnTransformPoint( xf, def.vertices[e + 1 < def.vertexCount ? e + 1 : 0] );
		cnVec3 edge = cnSub( b, a );
		double length = cnLength( edge );
		if ( length == 0.0 )
		{
			continue;
		}
		cnVec3 t = cnMulSV( 1.0 / length, edge );
		// either normal gives the same force: n appears twice
		cnVec3 n = cnV3( -t.y, t.x, 0.0 );
		double piece = length / wind->pointsPerEdge;
		for ( int s = 0; s < wind->pointsPerEdge; ++s )
		{
			// midpoint quadrature: the centre of each of the edge's equal pieces
			cnVec3 x = cnMulAdd( a, ( s + 0.5 ) * piece, t );
			cnVec3 v = cnBody_GetPointVelocity( world, id, x );
			double push = wind->beta * piece * cnDot( cnSub( wind->velocity, v ), n );
			ok = cnNoteCall( first, cnBody_ApplyForce( world, id, cnMulSV( push, n ), x ) ) && ok;
		}
	}
	return ok;
}

bool cnFosssim_ApplyForces( cnFosssimScene* f )
{
	if ( f == NULL || f->scene == NULL || f->scene->world == NULL )
	{
		return cnSetError( cnError_invalidArgument, "cnFosssim_ApplyForces: no scene" );
	}
	cnWorld* world = f->scene->world;
	cnFirstFailure first = { 0 };
	bool ok = true;
	for ( int i = 0; i < f->springCount; ++i )
	{
		const cnFosssimSpring* s = f->springs + i;
		cnVec3 xi, vi, xj, vj;
		cnSpringEnd( world, s->bodyI, s->pointI, &xi, &vi );
		cnSpringEnd( world, s->bodyJ, s->pointJ, &xj, &vj );
		cnVec3 d = cnSub( xj, xi );
		double l = cnLength( d );
		if ( l == 0.0 )
		{
			// no direction: k (l - l0) n has none either (with l0 = 0 it is k d = 0 anyway)
			continue;
		}
		cnVec3 n = cnMulSV( 1.0 / l, d );
		// force on end i: pulled towards j when stretched, damped along the spring
		double magnitude = s->k * ( l - s->l0 ) + s->b * cnDot( cnSub( vj, vi ), n );
		cnVec3 force = cnMulSV( magnitude, n );
		if ( s->indexI >= 0 && f->fixed[s->indexI] == false )
		{
			ok = cnNoteCall( &first, cnBody_ApplyForce( world, s->bodyI, force, xi ) ) && ok;
		}
		if ( s->indexJ >= 0 && f->fixed[s->indexJ] == false )
		{
			ok = cnNoteCall( &first, cnBody_ApplyForce( world, s->bodyJ, cnNeg( force ), xj ) ) && ok;
		}
	}
	for ( int w = 0; w < f->windCount; ++w )
	{
		for ( int i = 0; i < f->bodyCount; ++i )
		{
			if ( f->fixed[i] == false )
			{
				ok = cnApplyWind( world, f->bodies[i], f->winds + w, &first ) && ok;
			}
		}
	}
	if ( ok == false )
	{
		return cnSetError( first.code, "%s", first.message );
	}
	cnClearError();
	return true;
}
