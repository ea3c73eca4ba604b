// SPDX-License-Identifier: MIT
// A captured contact system (cnWorld_CaptureContactSystem) printed the way FOSSSim's oracle
// comments print theirs (fosssim.h), so the two can be compared by eye or by a script.
#include "cairn/fosssim.h"

#include <stdlib.h>
#include <string.h>

// Prints a column-major rows x cols matrix as Eigen does: each column right-aligned to its widest
// entry, the first row after the label, the others indented under it. False when memory ran out.
static bool cnPrintMatrix( FILE* out, const char* label, int rows, int cols, const double* x )
{
	enum
	{
		cnCellChars = 32
	};
	int labelWidth = (int)strlen( label ) + 3;
	int* width = calloc( (size_t)( cols > 0 ? cols : 1 ), sizeof( int ) );
	if ( width == NULL )
	{
		return false;
	}
	char cell[cnCellChars];
	for ( int j = 0; j < cols; ++j )
	{
		for ( int i = 0; i < rows; ++i )
		{
			int n = snprintf( cell, sizeof( cell ), "%g", x[i + j * rows] );
			width[j] = n > width[j] ? n : width[j];
		}
	}
	for ( int i = 0; i < rows; ++i )
	{
		if ( i == 0 )
		{
			fprintf( out, "%s = ", label );
		}
		else
		{
			fprintf( out, "%*s", labelWidth, "" );
		}
		for ( int j = 0; j < cols; ++j )
		{
			fprintf( out, j > 0 ? " %*g" : "%*g", width[j], x[i + j * rows] );
		}
		fputc( '\n', out );
	}
	if ( rows == 0 )
	{
		fprintf( out, "%s = (empty)\n", label );
	}
	free( width );
	return true;
}

bool cnFosssim_WriteContactSystem( FILE* out, const cnContactSystem* system )
{
	if ( out == NULL || system == NULL || system->captured == false )
	{
		return cnSetError( cnError_invalidArgument, "cnFosssim_WriteContactSystem: %s",
						   out == NULL ? "no output stream" : "no captured contact system" );
	}
	const cnContactSystem* s = system;
	fprintf( out, "contact system of the first step with contacts: t = %.9g s, method %s, %d dofs, %d contacts\n",
			 s->time, cnMethod_GetName( s->method ), s->n, s->m );
	// lcp and gr-lcp print their LCP; the projections their quadratic program
	bool lcp = strstr( cnMethod_GetName( s->method ), "projection" ) == NULL;
	bool ok = true;
	if ( lcp )
	{
		ok = cnPrintMatrix( out, "A", s->m, s->m, s->A );
		fputc( '\n', out );
		ok = cnPrintMatrix( out, "b", s->m, 1, s->b ) && ok;
		// the LCP's solution by Lemke's method, when it found one
		if ( s->lambda != NULL )
		{
			fputc( '\n', out );
			ok = cnPrintMatrix( out, "lambda", s->m, 1, s->lambda ) && ok;
		}
	}
	else
	{
		ok = cnPrintMatrix( out, "M", s->n, s->n, s->M );
		fputc( '\n', out );
		ok = cnPrintMatrix( out, "-M \\dot q", s->n, 1, s->minusMqdot ) && ok;
		fputc( '\n', out );
		ok = cnPrintMatrix( out, "N", s->n, s->m, s->N ) && ok;
	}
	if ( ok == false )
	{
		return cnSetError( cnError_outOfMemory, "cnFosssim_WriteContactSystem: out of memory" );
	}
	if ( ferror( out ) )
	{
		return cnSetError( cnError_io, "cnFosssim_WriteContactSystem: cannot write the contact system" );
	}
	cnClearError();
	return true;
}
