// SPDX-License-Identifier: MIT
// The contact system capture of the velocity-level methods (cnWorld_CaptureContactSystem): the
// first step with active contact points copies its generalised coordinates, M, N, the LCP's A and b
// and Lemke's solution, as FOSSSim's oracles list them (docs/method-velocity.md). Joint rows are not
// part of it (the system is the contacts' alone).
#include "methods/velocity.h"

#include "error.h"
#include "methods/method.h"
#include "solvers/lcp.h"

#include <stdlib.h>
#include <string.h>

// Copies the step's contact system into the capture target (see cnContactSystem).
bool cnVelocityCaptureSystem( cnVelocityStep* s, cnContactSystem* dump )
{
	cnWorld* world = s->world;
	int n = s->map.n, m = s->contactPointCount, d = s->dpb;
	size_t nn = (size_t)n, mm = (size_t)m;
	dump->bodies = malloc( (size_t)( s->map.bodyCount > 0 ? s->map.bodyCount : 1 ) * sizeof( int ) );
	dump->qdot = malloc( ( nn > 0 ? nn : 1 ) * sizeof( double ) );
	dump->M = malloc( ( nn * nn > 0 ? nn * nn : 1 ) * sizeof( double ) );
	dump->minusMqdot = malloc( ( nn > 0 ? nn : 1 ) * sizeof( double ) );
	dump->N = malloc( ( nn * mm > 0 ? nn * mm : 1 ) * sizeof( double ) );
	dump->c = malloc( mm * sizeof( double ) );
	dump->A = malloc( mm * mm * sizeof( double ) );
	dump->b = malloc( mm * sizeof( double ) );
	if ( dump->bodies == NULL || dump->qdot == NULL || dump->M == NULL || dump->minusMqdot == NULL || dump->N == NULL ||
		 dump->c == NULL || dump->A == NULL || dump->b == NULL )
	{
		cnContactSystem_Free( dump );
		return cnSetError( cnError_outOfMemory, "out of memory capturing the contact system" );
	}
	dump->captured = true;
	dump->method = world->def.method;
	dump->time = world->time;
	dump->n = n;
	dump->m = m;
	dump->bodyCount = s->map.bodyCount;
	memcpy( dump->bodies, s->map.bodies, (size_t)s->map.bodyCount * sizeof( int ) );
	memcpy( dump->qdot, s->qMinus, nn * sizeof( double ) );
	cnBuildMassMatrix( world, &s->map, dump->M );
	for ( int i = 0; i < n; ++i )
	{
		double sum = 0.0;
		for ( int j = 0; j < n; ++j )
		{
			sum += dump->M[i + j * nn] * s->qMinus[j];
		}
		dump->minusMqdot[i] = -sum;
	}
	memset( dump->N, 0, nn * mm * sizeof( double ) );
	for ( int i = 0; i < m; ++i )
	{
		const cnVelocityPoint* p = s->points + i;
		const cnVelocityRow* row = s->rows + p->row;
		double* col = dump->N + (size_t)i * nn;
		for ( int k = 0; k < d; ++k )
		{
			if ( row->offA >= 0 )
			{
				col[row->offA + k] = row->jA[k];
			}
			if ( row->offB >= 0 )
			{
				col[row->offB + k] = row->jB[k];
			}
		}
		double vn = cnVelocityRowRate( s, row, s->qMinus );
		double e = cnVelocityRestitution( s, p, vn );
		double gap = e == 0.0 ? p->gapSpeed : 0.0;
		dump->c[i] = row->fixed + e * vn + gap;
		dump->b[i] = ( 1.0 + e ) * vn + gap;
		for ( int j = 0; j < m; ++j )
		{
			dump->A[(size_t)i + (size_t)j * mm] = cnVelocityCoupling( s, row, s->rows + s->points[j].row );
		}
	}
	// the LCP's solution by Lemke's method, as FOSSSim's oracles list it (the method's own solve
	// goes island by island and may use the boxed solver)
	if ( s->projection == false )
	{
		dump->lambda = calloc( mm > 0 ? mm : 1, sizeof( double ) );
		if ( dump->lambda != NULL && cnSolveLcpLemke( m, dump->A, dump->b, dump->lambda, 1000 + 50 * m ) != cnLcp_ok )
		{
			free( dump->lambda );
			dump->lambda = NULL;
		}
	}
	return true;
}

void cnContactSystem_Free( cnContactSystem* dump )
{
	if ( dump == NULL )
	{
		return;
	}
	free( dump->bodies );
	free( dump->qdot );
	free( dump->M );
	free( dump->minusMqdot );
	free( dump->N );
	free( dump->c );
	free( dump->A );
	free( dump->b );
	free( dump->lambda );
	memset( dump, 0, sizeof( *dump ) );
}

bool cnWorld_CaptureContactSystem( cnWorld* world, cnContactSystem* system )
{
	if ( cnRequireWorld( world ) == false )
	{
		return false;
	}
	if ( system != NULL && ( world->module->flags & cnMethodFlag_velocityLevel ) == 0 )
	{
		return cnSetError( cnError_unsupported,
						   "method '%s' has no contact system (only the velocity-level methods assemble one: lcp, "
						   "velocity-projection, gr-lcp, gr-velocity-projection)",
						   world->module->name );
	}
	world->captureTarget = system;
	cnClearError();
	return true;
}
