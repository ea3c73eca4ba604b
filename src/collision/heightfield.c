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
	h->minHeight = INFINITY;
	h->maxHeight = -INFINITY;
	for ( size_t k = 0; k < n; ++k )
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

void cnHeightfieldTriangle( const cnHeightfield* heightfield, int t, cnVec3 v[3] )
{
	const cnHeightfield* h = heightfield;
	int cell = t / 2, i = cell % ( h->columns - 1 ), j = cell / ( h->columns - 1 );
	double dx = h->sizeX / ( h->columns - 1 ), dy = h->sizeY / ( h->rows - 1 );
	double x0 = -0.5 * h->sizeX + i * dx, y0 = -0.5 * h->sizeY + j * dy;
	const double* row0 = h->heights + (size_t)j * (size_t)h->columns;
	const double* row1 = row0 + h->columns;
	cnVec3 p00 = cnV3( x0, y0, row0[i] ), p11 = cnV3( x0 + dx, y0 + dy, row1[i + 1] );
	// as cnHeightfieldQuery: {p00, p10, p11} and {p00, p11, p01}
	v[0] = p00;
	v[1] = ( t & 1 ) ? p11 : cnV3( x0 + dx, y0, row0[i + 1] );
	v[2] = ( t & 1 ) ? cnV3( x0, y0 + dy, row1[i] ) : p11;
}

int cnHeightfieldNeighbor( const cnHeightfield* heightfield, int t, int k )
{
	int w = heightfield->columns - 1, hgt = heightfield->rows - 1;
	int cell = t / 2, i = cell % w, j = cell / w;
	if ( ( t & 1 ) == 0 )
	{
		// {p00, p10, p11}: the bottom edge borders the cell below, the right edge the cell to the
		// right, the diagonal the cell's other triangle
		switch ( k )
		{
			case 0:
				return j > 0 ? 2 * ( cell - w ) + 1 : -1;
			case 1:
				return i + 1 < w ? 2 * ( cell + 1 ) + 1 : -1;
			default:
				return t + 1;
		}
	}
	// {p00, p11, p01}: the diagonal, the top edge (cell above), the left edge (cell to the left)
	switch ( k )
	{
		case 0:
			return t - 1;
		case 1:
			return j + 1 < hgt ? 2 * ( cell + w ) : -1;
		default:
			return i > 0 ? 2 * ( cell - 1 ) : -1;
	}
}

uint8_t cnHeightfieldEdgeFlags( const cnHeightfield* heightfield, int t )
{
	cnVec3 v[3], o[3];
	cnHeightfieldTriangle( heightfield, t, v );
	cnVec3 n = cnNormalize( cnCross( cnSub( v[1], v[0] ), cnSub( v[2], v[0] ) ) );
	uint8_t flags = 0;
	for ( int k = 0; k < 3; ++k )
	{
		int nb = cnHeightfieldNeighbor( heightfield, t, k );
		if ( nb < 0 )
		{
			flags |= (uint8_t)( 1u << k );
			continue;
		}
		cnHeightfieldTriangle( heightfield, nb, o );
		cnVec3 nn = cnNormalize( cnCross( cnSub( o[1], o[0] ), cnSub( o[2], o[0] ) ) );
		cnVec3 c = cnMulSV( 1.0 / 3.0, cnAdd( o[0], cnAdd( o[1], o[2] ) ) );
		if ( cnIsActiveEdge( v, n, k, nn, c ) )
		{
			flags |= (uint8_t)( 1u << k );
		}
	}
	return flags;
}

// The ray walks the grid's cells in the order it crosses them (a 2D digital differential
// analyser over x and y), testing the two triangles of each; the first cell with a hit holds the
// nearest hit, since the cells' columns partition the segment.
bool cnHeightfieldRayCast( const cnHeightfield* heightfield, cnVec3 origin, cnVec3 translation, double maxFraction,
						   double* fraction, cnVec3* normal )
{
	const cnHeightfield* h = heightfield;
	double dx = h->sizeX / ( h->columns - 1 ), dy = h->sizeY / ( h->rows - 1 );
	double x0 = -0.5 * h->sizeX, y0 = -0.5 * h->sizeY;
	cnVec3 lo = cnV3( x0, y0, h->minHeight ), hi = cnV3( -x0, -y0, h->maxHeight );

	// clip the segment to the heightfield's box
	double t0 = 0.0, t1 = maxFraction;
	for ( int a = 0; a < 3; ++a )
	{
		double o = cnGet( origin, a ), d = cnGet( translation, a );
		double l = cnGet( lo, a ), u = cnGet( hi, a );
		if ( d == 0.0 )
		{
			if ( o < l || o > u )
			{
				return false;
			}
			continue;
		}
		double ta = ( l - o ) / d, tb = ( u - o ) / d;
		t0 = fmax( t0, fmin( ta, tb ) );
		t1 = fmin( t1, fmax( ta, tb ) );
	}
	if ( t0 > t1 )
	{
		return false;
	}

	// the starting cell, and the fractions at which the ray crosses the next column and row lines
	cnVec3 start = cnMulAdd( origin, t0, translation );
	int i = (int)fmin( h->columns - 2.0, fmax( 0.0, floor( ( start.x - x0 ) / dx ) ) );
	int j = (int)fmin( h->rows - 2.0, fmax( 0.0, floor( ( start.y - y0 ) / dy ) ) );
	int stepI = translation.x > 0.0 ? 1 : -1, stepJ = translation.y > 0.0 ? 1 : -1;
	double nextX = translation.x != 0.0 ? ( x0 + ( i + ( stepI > 0 ? 1 : 0 ) ) * dx - origin.x ) / translation.x : INFINITY;
	double nextY = translation.y != 0.0 ? ( y0 + ( j + ( stepJ > 0 ? 1 : 0 ) ) * dy - origin.y ) / translation.y : INFINITY;
	double deltaX = translation.x != 0.0 ? dx / fabs( translation.x ) : INFINITY;
	double deltaY = translation.y != 0.0 ? dy / fabs( translation.y ) : INFINITY;

	// every cell the clipped segment crosses: at most the sum of the columns and rows
	int limit = h->columns + h->rows;
	for ( int step = 0; step < limit; ++step )
	{
		bool hit = false;
		double best = t1;
		for ( int k = 0; k < 2; ++k )
		{
			cnVec3 v[3], n;
			double f;
			cnHeightfieldTriangle( h, 2 * ( j * ( h->columns - 1 ) + i ) + k, v );
			if ( cnRayTriangle( v, origin, translation, best, &f, &n ) )
			{
				best = f;
				*fraction = f;
				*normal = n;
				hit = true;
			}
		}
		if ( hit )
		{
			return true;
		}
		// on to the neighbouring cell the ray enters first
		double leave = fmin( nextX, nextY );
		if ( leave > t1 )
		{
			return false;
		}
		if ( nextX <= nextY )
		{
			i += stepI;
			nextX += deltaX;
		}
		else
		{
			j += stepJ;
			nextY += deltaY;
		}
		if ( i < 0 || j < 0 || i > h->columns - 2 || j > h->rows - 2 )
		{
			return false;
		}
	}
	return false;
}
