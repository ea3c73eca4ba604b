// SPDX-License-Identifier: MIT
// The JSON scene loader's shared geometry: hull point clouds, meshes (inline or from OBJ/STL/PLY
// files), heightfields (inline grids or PNG images) and compounds of hulls. Files are resolved
// relative to the scene file. Each reader makes the geometry object a shape def refers to; the
// caller creates the shape and then releases its own reference (the shape keeps one).
#include "io/json_read.h"
#include "io/scene_json_geometry.h"

#include "cairn/io.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Most points, vertices or triangles a scene may list inline (larger geometry belongs in a file).
#define CN_JSON_MAX_INLINE 4000000

// ---------------------------------------------------------------------------------------------
// values

// obj[key] as rows of numbers, row-major into *values (malloc'ed, the caller frees it): each row
// has width numbers, or when width is 0 as many as the first row, at least minWidth; at least minRows
// rows and CN_JSON_MAX_INLINE numbers in all. form describes a row in messages ("[x, y, z]").
static bool cnReadRows( cnLoader* L, const cJSON* obj, const char* key, int width, int minRows, int minWidth,
						const char* form, double** values, int* rows, int* columns )
{
	const cJSON* item = cnJsonField( obj, key );
	int saved = cnJsonPushKey( L, key );
	int n = cJSON_IsArray( item ) ? cJSON_GetArraySize( item ) : -1;
	if ( width == 0 )
	{
		width = n > 0 && cJSON_IsArray( item->child ) ? cJSON_GetArraySize( item->child ) : 0;
	}
	if ( n < minRows || width < minWidth || (int64_t)n * width > CN_JSON_MAX_INLINE )
	{
		bool ok = n < 0 ? cnJsonFail( L, "expected an array of %s, got %s", form, cnJsonKind( item ) )
						: cnJsonFail( L, "expected %d to %d %s (at least %d numbers each), got %d", minRows,
									  CN_JSON_MAX_INLINE / ( width > 0 ? width : 1 ), form, minWidth, n );
		cnJsonPopPath( L, saved );
		return ok;
	}
	double* v = calloc( (size_t)n * (size_t)width, sizeof( double ) );
	if ( v == NULL )
	{
		cnJsonPopPath( L, saved );
		return cnJsonFailOutOfMemory( L );
	}
	int i = 0;
	for ( const cJSON* child = item->child; child != NULL; child = child->next, ++i )
	{
		int at = cnJsonPushIndex( L, i );
		bool ok = cnJsonArrayValue( L, child, width, form, cnJsonCheck_any, v + (size_t)i * (size_t)width );
		cnJsonPopPath( L, at );
		if ( ok == false )
		{
			free( v );
			cnJsonPopPath( L, saved );
			return false;
		}
	}
	cnJsonPopPath( L, saved );
	*values = v;
	*rows = n;
	if ( columns != NULL )
	{
		*columns = width;
	}
	return true;
}

// obj[key] as a list of [x, y, z] points; *points is malloc'ed (the caller frees it).
static bool cnReadPointList( cnLoader* L, const cJSON* obj, const char* key, int minCount, cnVec3** points, int* count )
{
	double* v = NULL;
	int n = 0;
	if ( cnReadRows( L, obj, key, 3, minCount, 3, "[x, y, z] points", &v, &n, NULL ) == false )
	{
		return false;
	}
	cnVec3* p = malloc( (size_t)( n > 0 ? n : 1 ) * sizeof( cnVec3 ) );
	for ( int i = 0; p != NULL && i < n; ++i )
	{
		p[i] = cnV3( v[3 * i], v[3 * i + 1], v[3 * i + 2] );
	}
	free( v );
	if ( p == NULL )
	{
		return cnJsonFailOutOfMemory( L );
	}
	*points = p;
	*count = n;
	return true;
}

// obj["triangles"] as a list of [i, j, k] vertex indices below vertexCount; *indices is malloc'ed.
static bool cnReadTriangles( cnLoader* L, const cJSON* obj, int vertexCount, int** indices, int* count )
{
	double* v = NULL;
	int n = 0;
	if ( cnReadRows( L, obj, "triangles", 3, 1, 3, "[i, j, k] vertex indices", &v, &n, NULL ) == false )
	{
		return false;
	}
	int* t = malloc( (size_t)n * 3 * sizeof( int ) );
	if ( t == NULL )
	{
		free( v );
		return cnJsonFailOutOfMemory( L );
	}
	for ( int k = 0; k < 3 * n; ++k )
	{
		if ( v[k] != floor( v[k] ) || v[k] < 0.0 || v[k] >= vertexCount )
		{
			int saved = cnJsonPushKey( L, "triangles" );
			cnJsonPushIndex( L, k / 3 );
			cnJsonFail( L, "vertex index %s is not an integer in [0, %d)", cnJsonShowNumber( v[k] ).text, vertexCount );
			cnJsonPopPath( L, saved );
			free( v );
			free( t );
			return false;
		}
		t[k] = (int)v[k];
	}
	free( v );
	*indices = t;
	*count = n;
	return true;
}

// obj["scale"]: [sx, sy, sz] or one number; 1 when absent.
static bool cnReadScale( cnLoader* L, const cJSON* obj, cnVec3* scale )
{
	*scale = cnV3( 1.0, 1.0, 1.0 );
	const cJSON* item = cnJsonField( obj, "scale" );
	if ( item == NULL )
	{
		return true;
	}
	if ( cJSON_IsNumber( item ) )
	{
		double s = 1.0;
		if ( cnJsonReadNumber( L, obj, "scale", cnJsonCheck_positive, &s ) == false )
		{
			return false;
		}
		*scale = cnV3( s, s, s );
		return true;
	}
	return cnJsonReadVec3( L, obj, "scale", cnJsonCheck_positive, scale );
}

// The path of a file named in the scene: as given when absolute or when the scene has no file,
// otherwise relative to the scene file's folder. Writes into out (size bytes).
static bool cnResolveFile( cnLoader* L, const char* name, char* out, size_t size )
{
	const char* slash = L->source != NULL ? strrchr( L->source, '/' ) : NULL;
	int written;
	if ( name[0] == '/' || slash == NULL )
	{
		written = snprintf( out, size, "%s", name );
	}
	else
	{
		written = snprintf( out, size, "%.*s/%s", (int)( slash - L->source ), L->source, name );
	}
	if ( written < 0 || (size_t)written >= size )
	{
		return cnJsonFailAt( L, "file", "the file path is too long" );
	}
	return true;
}

// Reads obj["file"] through the mesh importer, scaled by obj["scale"].
static cnMesh* cnReadMeshFile( cnLoader* L, const cJSON* obj )
{
	const char* name = NULL;
	cnVec3 scale;
	char path[4096];
	if ( cnJsonReadString( L, obj, "file", &name ) == false || cnReadScale( L, obj, &scale ) == false ||
		 cnResolveFile( L, name, path, sizeof( path ) ) == false )
	{
		return NULL;
	}
	cnMesh* mesh = cnLoadMesh( path, scale );
	if ( mesh == NULL )
	{
		int saved = cnJsonPushKey( L, "file" );
		cnJsonLibraryFailure( L, NULL );
		cnJsonPopPath( L, saved );
	}
	return mesh;
}

// ---------------------------------------------------------------------------------------------
// hulls

// A hull from obj["points"] or from the vertices of obj["file"] (scaled).
static cnHull* cnReadHull( cnLoader* L, const cJSON* obj )
{
	bool hasPoints = cnJsonField( obj, "points" ) != NULL, hasFile = cnJsonField( obj, "file" ) != NULL;
	if ( hasPoints == hasFile )
	{
		cnJsonFail( L, "a hull needs either \"points\" or \"file\"%s", hasPoints ? ", not both" : "" );
		return NULL;
	}
	cnVec3* points = NULL;
	int count = 0;
	if ( hasFile )
	{
		cnMesh* mesh = cnReadMeshFile( L, obj );
		if ( mesh == NULL )
		{
			return NULL;
		}
		count = cnMesh_GetVertexCount( mesh );
		points = malloc( (size_t)count * sizeof( cnVec3 ) );
		for ( int i = 0; points != NULL && i < count; ++i )
		{
			points[i] = cnMesh_GetVertex( mesh, i );
		}
		cnReleaseMesh( mesh );
		if ( points == NULL )
		{
			cnJsonFailOutOfMemory( L );
			return NULL;
		}
	}
	else if ( cnReadPointList( L, obj, "points", 0, &points, &count ) == false )
	{
		return NULL;
	}
	cnHull* hull = cnCreateHull( points, count );
	free( points );
	if ( hull == NULL )
	{
		int saved = cnJsonPushKey( L, hasFile ? "file" : "points" );
		cnJsonLibraryFailure( L, NULL );
		cnJsonPopPath( L, saved );
	}
	return hull;
}

bool cnJsonReadHullShape( cnLoader* L, const cJSON* s, cnShapeDef* def )
{
	def->hull = cnReadHull( L, s );
	return def->hull != NULL;
}

// ---------------------------------------------------------------------------------------------
// meshes

bool cnJsonReadMeshShape( cnLoader* L, const cJSON* s, cnBodyType bodyType, cnShapeDef* def )
{
	bool hasFile = cnJsonField( s, "file" ) != NULL;
	bool hasInline = cnJsonField( s, "vertices" ) != NULL || cnJsonField( s, "triangles" ) != NULL;
	if ( hasFile == hasInline )
	{
		return cnJsonFail( L, "a mesh needs either \"file\" or \"vertices\" and \"triangles\"%s", hasFile ? ", not both" : "" );
	}
	cnMesh* mesh = NULL;
	if ( hasFile )
	{
		mesh = cnReadMeshFile( L, s );
	}
	else
	{
		cnVec3* vertices = NULL;
		int* triangles = NULL;
		int vertexCount = 0, triangleCount = 0;
		cnVec3 scale;
		if ( cnJsonRequire( L, s, "vertices", "[[x, y, z], ...]" ) && cnJsonRequire( L, s, "triangles", "[[i, j, k], ...]" ) &&
			 cnReadScale( L, s, &scale ) && cnReadPointList( L, s, "vertices", 3, &vertices, &vertexCount ) &&
			 cnReadTriangles( L, s, vertexCount, &triangles, &triangleCount ) )
		{
			for ( int i = 0; i < vertexCount; ++i )
			{
				vertices[i] = cnV3( scale.x * vertices[i].x, scale.y * vertices[i].y, scale.z * vertices[i].z );
			}
			mesh = cnCreateMesh( vertices, vertexCount, triangles, triangleCount );
			if ( mesh == NULL )
			{
				cnJsonLibraryFailure( L, NULL );
			}
		}
		free( vertices );
		free( triangles );
	}
	if ( mesh == NULL )
	{
		return false;
	}
	if ( cnMesh_IsSolid( mesh ) == false )
	{
		if ( bodyType == cnBody_dynamic )
		{
			bool ok = cnJsonFailAt( L, hasFile ? "file" : "triangles",
									"a mesh on a dynamic body must be closed, manifold and wound outwards: %s "
									"(use a compound of hulls, or mend the mesh)",
									cnMesh_GetDefect( mesh ) );
			cnReleaseMesh( mesh );
			return ok;
		}
		// a static mesh may be any triangle soup; still worth knowing
		char path[CN_JSON_PATH_CAPACITY];
		snprintf( path, sizeof( path ), "%s", L->path );
		cnJsonWarn( L, path, "the mesh is not a closed solid (%s); fine for a static body", cnMesh_GetDefect( mesh ) );
	}
	def->mesh = mesh;
	return true;
}

// ---------------------------------------------------------------------------------------------
// heightfields

bool cnJsonReadHeightfieldShape( cnLoader* L, const cJSON* s, cnBodyType bodyType, cnShapeDef* def )
{
	if ( bodyType != cnBody_static )
	{
		return cnJsonFailAt( L, "type", "a heightfield can only belong to a static body (this body is %s)",
							 cnBodyType_GetName( bodyType ) );
	}
	double size[2];
	const cJSON* sizeItem = cnJsonField( s, "size" );
	if ( cnJsonRequire( L, s, "size", "[x, y] in metres" ) == false )
	{
		return false;
	}
	int saved = cnJsonPushKey( L, "size" );
	bool ok = cnJsonArrayValue( L, sizeItem, 2, "[x, y]", cnJsonCheck_positive, size );
	cnJsonPopPath( L, saved );
	if ( ok == false )
	{
		return false;
	}
	bool hasFile = cnJsonField( s, "file" ) != NULL, hasHeights = cnJsonField( s, "heights" ) != NULL;
	if ( hasFile == hasHeights )
	{
		return cnJsonFail( L, "a heightfield needs either \"heights\" or \"file\" (a grayscale PNG)%s",
						   hasFile ? ", not both" : "" );
	}
	cnHeightfield* field = NULL;
	if ( hasFile )
	{
		const char* name = NULL;
		double heightScale = 1.0;
		char path[4096];
		if ( cnJsonReadString( L, s, "file", &name ) == false ||
			 cnJsonReadNumber( L, s, "height_scale", cnJsonCheck_positive, &heightScale ) == false ||
			 cnResolveFile( L, name, path, sizeof( path ) ) == false )
		{
			return false;
		}
		field = cnLoadHeightfieldPng( path, size[0], size[1], heightScale );
		if ( field == NULL )
		{
			saved = cnJsonPushKey( L, "file" );
			cnJsonLibraryFailure( L, NULL );
			cnJsonPopPath( L, saved );
			return false;
		}
	}
	else
	{
		if ( cnJsonField( s, "height_scale" ) != NULL )
		{
			return cnJsonFailAt( L, "height_scale", "height_scale applies to a PNG \"file\"; inline heights are metres" );
		}
		double* heights = NULL;
		int columns = 0, rows = 0;
		// rows along y of samples along x, every row as long as the first
		if ( cnReadRows( L, s, "heights", 0, 2, 2, "rows of heights", &heights, &rows, &columns ) == false )
		{
			return false;
		}
		field = cnCreateHeightfield( columns, rows, heights, size[0], size[1] );
		free( heights );
		if ( field == NULL )
		{
			return cnJsonLibraryFailure( L, NULL );
		}
	}
	def->heightfield = field;
	return true;
}

// ---------------------------------------------------------------------------------------------
// compounds

// Splits a mesh into its connected pieces (triangles sharing vertices): the point sets of the
// convex parts a modeller exported as one file. Returns the piece of each vertex in piece[] and
// the number of pieces.
static int cnMeshPieces( const cnMesh* mesh, int* piece )
{
	int n = cnMesh_GetVertexCount( mesh );
	// union-find over vertices joined by triangle edges
	for ( int i = 0; i < n; ++i )
	{
		piece[i] = i;
	}
	for ( int t = 0; t < cnMesh_GetTriangleCount( mesh ); ++t )
	{
		int v[3];
		cnMesh_GetTriangle( mesh, t, v );
		for ( int k = 1; k < 3; ++k )
		{
			int a = v[0], b = v[k];
			while ( piece[a] != a )
			{
				a = piece[a] = piece[piece[a]];
			}
			while ( piece[b] != b )
			{
				b = piece[b] = piece[piece[b]];
			}
			if ( a != b )
			{
				piece[a < b ? b : a] = a < b ? a : b;
			}
		}
	}
	// number the roots in vertex order
	int count = 0;
	for ( int i = 0; i < n; ++i )
	{
		int r = i;
		while ( piece[r] != r )
		{
			r = piece[r];
		}
		piece[i] = r;
	}
	int* label = malloc( (size_t)n * sizeof( int ) );
	if ( label == NULL )
	{
		return -1;
	}
	for ( int i = 0; i < n; ++i )
	{
		label[i] = -1;
	}
	for ( int i = 0; i < n; ++i )
	{
		if ( label[piece[i]] < 0 )
		{
			label[piece[i]] = count++;
		}
		piece[i] = label[piece[i]];
	}
	free( label );
	return count;
}

int cnJsonReadCompound( cnLoader* L, const cJSON* s, cnHull** hulls, int capacity )
{
	bool hasParts = cnJsonField( s, "parts" ) != NULL, hasFile = cnJsonField( s, "file" ) != NULL;
	if ( hasParts == hasFile )
	{
		cnJsonFail( L, "a compound needs either \"parts\" (point lists) or \"file\" (one convex piece per connected "
					   "part)%s",
					hasParts ? ", not both" : "" );
		return -1;
	}
	int count = 0;
	if ( hasParts )
	{
		const cJSON* parts = cnJsonField( s, "parts" );
		int saved = cnJsonPushKey( L, "parts" );
		if ( cJSON_IsArray( parts ) == false || cJSON_GetArraySize( parts ) < 1 || cJSON_GetArraySize( parts ) > capacity )
		{
			cnJsonFail( L, "expected an array of 1 to %d parts, each {\"points\": [[x, y, z], ...]}", capacity );
			cnJsonPopPath( L, saved );
			return -1;
		}
		for ( const cJSON* part = parts->child; part != NULL; part = part->next )
		{
			int at = cnJsonPushIndex( L, count );
			static const char* const keys[] = { "points" };
			cnHull* hull = cJSON_IsObject( part ) && cnJsonCheckKeys( L, part, keys, 1, "a compound part" ) ? cnReadHull( L, part ) : NULL;
			if ( hull == NULL && L->failed == false )
			{
				cnJsonFail( L, "expected an object {\"points\": [[x, y, z], ...]}, got %s", cnJsonKind( part ) );
			}
			cnJsonPopPath( L, at );
			if ( hull == NULL )
			{
				cnJsonPopPath( L, saved );
				for ( int k = 0; k < count; ++k )
				{
					cnReleaseHull( hulls[k] );
				}
				return -1;
			}
			hulls[count++] = hull;
		}
		cnJsonPopPath( L, saved );
		return count;
	}

	cnMesh* mesh = cnReadMeshFile( L, s );
	if ( mesh == NULL )
	{
		return -1;
	}
	int n = cnMesh_GetVertexCount( mesh );
	int* piece = calloc( (size_t)n, sizeof( int ) );
	cnVec3* points = malloc( (size_t)n * sizeof( cnVec3 ) );
	int pieces = piece != NULL && points != NULL ? cnMeshPieces( mesh, piece ) : -1;
	if ( pieces < 0 )
	{
		cnJsonFailOutOfMemory( L );
	}
	else if ( pieces > capacity )
	{
		cnJsonFailAt( L, "file", "the file has %d separate pieces, more than the %d parts a compound may have", pieces, capacity );
	}
	for ( int p = 0; p < pieces && pieces <= capacity; ++p )
	{
		int m = 0;
		for ( int i = 0; i < n; ++i )
		{
			if ( piece[i] == p )
			{
				points[m++] = cnMesh_GetVertex( mesh, i );
			}
		}
		cnHull* hull = cnCreateHull( points, m );
		if ( hull == NULL )
		{
			int saved = cnJsonPushKey( L, "file" );
			cnJsonFail( L, "piece %d of the file: %s", p, cnGetError() );
			cnJsonPopPath( L, saved );
			break;
		}
		hulls[count++] = hull;
	}
	free( piece );
	free( points );
	cnReleaseMesh( mesh );
	if ( L->failed )
	{
		for ( int k = 0; k < count; ++k )
		{
			cnReleaseHull( hulls[k] );
		}
		return -1;
	}
	return count;
}
