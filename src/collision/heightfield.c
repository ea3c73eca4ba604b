// SPDX-License-Identifier: MIT
// Heightfields: a grid of heights over the shape's xy-plane, each cell two triangles.
#include "collision/mesh.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>

cnHeightfield* cnCreateHeightfield( int columns, int rows, const double* heights, double sizeX, double sizeY )
{
	cnClearError();
	if ( columns < 2 || rows < 2 || heights == NULL || (int64_t)columns * rows > ( 1 << 26 ) )
	{
		cnSetError( cnError_invalidArgument, "a heightfield needs 2 to 2^26 samples, at least 2 columns and 2 rows (got %d x %d%s)",
					columns, rows, heights == NULL ? ", heights NULL" : "" );
		return NULL;
	}
	if ( !isfinite( sizeX ) || !isfinite( sizeY ) || sizeX <= 0.0 || sizeY <= 0.0 )
	{
		cnSetError( cnError_invalidArgument, "heightfield size must be finite and > 0 (got %g x %g)", sizeX, sizeY );
		return NULL;
	}
	size_t n = (size_t)columns * (size_t)rows;
	for ( size_t k = 0; k < n; ++k )
	{
		if ( !isfinite( heights[k] ) || fabs( heights[k] ) > 1e12 )
		{
			cnSetError( cnError_invalidArgument, "heightfield height at column %d, row %d is not a finite height (%g)",
						(int)( k % (size_t)columns ), (int)( k / (size_t)columns ), heights[k] );
			return NULL;
		}
	}
	cnHeightfield* h = calloc( 1, sizeof( cnHeightfield ) );
	double* copy = malloc( n * sizeof( double ) );
	if ( h == NULL || copy == NULL )
	{
		free( h );
		free( copy );
		cnSetError( cnError_outOfMemory, "out of memory" );
		return NULL;
	}
	memcpy( copy, heights, n * sizeof( double ) );
	atomic_init( &h->refCount, 1 );
	h->columns = columns;
	h->rows = rows;
	h->heights = copy;
	h->sizeX = sizeX;
	h->sizeY = sizeY;
	h->minHeight = h->maxHeight = copy[0];
	for ( size_t k = 1; k < n; ++k )
	{
		h->minHeight = fmin( h->minHeight, copy[k] );
		h->maxHeight = fmax( h->maxHeight, copy[k] );
	}
	return h;
}

const cnHeightfield* cnHeightfieldRetain( const cnHeightfield* heightfield )
{
	atomic_fetch_add( &( (cnHeightfield*)heightfield )->refCount, 1 );
	return heightfield;
}

void cnHeightfieldRelease( const cnHeightfield* heightfield )
{
	if ( heightfield == NULL )
	{
		return;
	}
	cnHeightfield* h = (cnHeightfield*)heightfield;
	if ( atomic_fetch_sub( &h->refCount, 1 ) == 1 )
	{
		free( h->heights );
		free( h );
	}
}

void cnReleaseHeightfield( cnHeightfield* heightfield )
{
	cnHeightfieldRelease( heightfield );
}

int cnHeightfield_GetColumnCount( const cnHeightfield* heightfield )
{
	return heightfield != NULL ? heightfield->columns : 0;
}

int cnHeightfield_GetRowCount( const cnHeightfield* heightfield )
{
	return heightfield != NULL ? heightfield->rows : 0;
}

double cnHeightfield_GetHeight( const cnHeightfield* heightfield, int i, int j )
{
	if ( heightfield == NULL || i < 0 || j < 0 || i >= heightfield->columns || j >= heightfield->rows )
	{
		return NAN;
	}
	return heightfield->heights[(size_t)j * (size_t)heightfield->columns + (size_t)i];
}

cnVec3 cnHeightfield_GetSize( const cnHeightfield* heightfield )
{
	return heightfield != NULL ? cnV3( heightfield->sizeX, heightfield->sizeY, 0.0 ) : cnVec3_zero;
}

cnAABB cnHeightfieldAABB( const cnHeightfield* heightfield, cnTransform xf )
{
	// the box of the local box's eight corners
	double hx = 0.5 * heightfield->sizeX, hy = 0.5 * heightfield->sizeY;
	cnAABB box = { xf.p, xf.p };
	for ( int k = 0; k < 8; ++k )
	{
		cnVec3 c = cnV3( ( k & 1 ) ? hx : -hx, ( k & 2 ) ? hy : -hy, ( k & 4 ) ? heightfield->maxHeight : heightfield->minHeight );
		cnVec3 v = cnTransformPoint( xf, c );
		box.lower = k == 0 ? v : cnMin( box.lower, v );
		box.upper = k == 0 ? v : cnMax( box.upper, v );
	}
	return box;
}

void cnHeightfieldQuery( const cnHeightfield* heightfield, cnAABB box, cnTriangleFn* fn, void* context )
{
	const cnHeightfield* h = heightfield;
	double dx = h->sizeX / ( h->columns - 1 ), dy = h->sizeY / ( h->rows - 1 );
	double x0 = -0.5 * h->sizeX, y0 = -0.5 * h->sizeY;
	if ( box.upper.z < h->minHeight || box.lower.z > h->maxHeight )
	{
		return;
	}
	// cell ranges clamped before the conversion, so a huge box never overflows an int
	double fi0 = floor( ( box.lower.x - x0 ) / dx ), fi1 = floor( ( box.upper.x - x0 ) / dx );
	double fj0 = floor( ( box.lower.y - y0 ) / dy ), fj1 = floor( ( box.upper.y - y0 ) / dy );
	int i0 = (int)fmin( h->columns, fmax( 0.0, fi0 ) );
	int i1 = (int)fmax( -1.0, fmin( h->columns - 2.0, fi1 ) );
	int j0 = (int)fmin( h->rows, fmax( 0.0, fj0 ) );
	int j1 = (int)fmax( -1.0, fmin( h->rows - 2.0, fj1 ) );
	for ( int j = j0; j <= j1; ++j )
	{
		for ( int i = i0; i <= i1; ++i )
		{
			const double* row0 = h->heights + (size_t)j * (size_t)h->columns;
			const double* row1 = row0 + h->columns;
			cnVec3 p00 = cnV3( x0 + i * dx, y0 + j * dy, row0[i] );
			cnVec3 p10 = cnV3( x0 + ( i + 1 ) * dx, y0 + j * dy, row0[i + 1] );
			cnVec3 p01 = cnV3( x0 + i * dx, y0 + ( j + 1 ) * dy, row1[i] );
			cnVec3 p11 = cnV3( x0 + ( i + 1 ) * dx, y0 + ( j + 1 ) * dy, row1[i + 1] );
			// counter-clockwise seen from above (+z)
			cnVec3 t0[3] = { p00, p10, p11 };
			cnVec3 t1[3] = { p00, p11, p01 };
			int cell = j * ( h->columns - 1 ) + i;
			if ( fn( context, 2 * cell, t0 ) == false || fn( context, 2 * cell + 1, t1 ) == false )
			{
				return;
			}
		}
	}
}

bool cnHeightfieldRayCast( const cnHeightfield* heightfield, cnVec3 origin, cnVec3 translation, double maxFraction,
						   double* fraction, cnVec3* normal )
{
	(void)heightfield;
	(void)origin;
	(void)translation;
	(void)maxFraction;
	(void)fraction;
	(void)normal;
	return false;
}
