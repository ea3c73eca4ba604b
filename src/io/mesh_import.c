// SPDX-License-Identifier: MIT
// Mesh files (OBJ, STL, PLY and whatever else assimp reads) and PNG heightfields. Assimp triangulates
// the faces; every mesh of the scene is gathered with its node's transform, then vertices at the
// same position are welded here (STL stores each triangle's corners apart, and assimp keeps
// vertices with different normals apart), so a closed surface in the file is a closed mesh.
// Neither library prints: assimp logs only to an attached logger (none is), and libpng's errors
// and warnings go to handlers here.
#include "cairn/io.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <png.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// meshes

typedef struct cnMeshBuffer
{
	cnVec3* vertices;
	int vertexCount, vertexCapacity;
	int* indices;
	int triangleCount, triangleCapacity;
	bool failed;
	// what assimp handed over is inconsistent (a face naming a vertex the mesh lacks): bad input
	bool broken;
} cnMeshBuffer;

static bool cnReserve( void** items, int* capacity, int needed, size_t size )
{
	// (an empty array is allocated too, so that a capacity of 0 never leaves it NULL)
	if ( needed <= *capacity && *items != NULL )
	{
		return true;
	}
	int c = *capacity > 0 ? *capacity : 64;
	while ( c < needed )
	{
		if ( c > ( 1 << 28 ) )
		{
			return false;
		}
		c *= 2;
	}
	void* p = realloc( *items, (size_t)c * size );
	if ( p == NULL )
	{
		return false;
	}
	*items = p;
	*capacity = c;
	return true;
}

// The product a b of two affine transforms (assimp's row-major 4x4 matrices).
static struct aiMatrix4x4 cnMulMatrix( const struct aiMatrix4x4* a, const struct aiMatrix4x4* b )
{
	const float* x = &a->a1;
	const float* y = &b->a1;
	struct aiMatrix4x4 r;
	float* z = &r.a1;
	for ( int i = 0; i < 4; ++i )
	{
		for ( int j = 0; j < 4; ++j )
		{
			z[4 * i + j] = x[4 * i] * y[j] + x[4 * i + 1] * y[4 + j] + x[4 * i + 2] * y[8 + j] + x[4 * i + 3] * y[12 + j];
		}
	}
	return r;
}

// The node's meshes placed by the node's transform (under its parents'), then its children.
static void cnGatherNode( const struct aiScene* scene, const struct aiNode* node, const struct aiMatrix4x4* parent,
						  cnVec3 scale, cnMeshBuffer* b, int depth )
{
	struct aiMatrix4x4 m = cnMulMatrix( parent, &node->mTransformation );
	for ( unsigned k = 0; k < node->mNumMeshes && b->failed == false && b->broken == false; ++k )
	{
		// assimp does not check everything its readers produce (a PLY face may name any vertex)
		if ( node->mMeshes[k] >= scene->mNumMeshes || scene->mMeshes[node->mMeshes[k]] == NULL )
		{
			b->broken = true;
			return;
		}
		const struct aiMesh* mesh = scene->mMeshes[node->mMeshes[k]];
		if ( ( mesh->mNumVertices > 0 && mesh->mVertices == NULL ) || ( mesh->mNumFaces > 0 && mesh->mFaces == NULL ) )
		{
			b->broken = true;
			return;
		}
		int base = b->vertexCount;
		// bounded so that 3 (triangles + faces) below cannot overflow an int
		if ( mesh->mNumVertices > (unsigned)( 1 << 28 ) || mesh->mNumFaces > (unsigned)( 1 << 28 ) ||
			 cnReserve( (void**)&b->vertices, &b->vertexCapacity, base + (int)mesh->mNumVertices, sizeof( cnVec3 ) ) == false ||
			 cnReserve( (void**)&b->indices, &b->triangleCapacity, 3 * ( b->triangleCount + (int)mesh->mNumFaces ),
						sizeof( int ) ) == false )
		{
			b->failed = true;
			return;
		}
		for ( unsigned i = 0; i < mesh->mNumVertices; ++i )
		{
			struct aiVector3D v = mesh->mVertices[i];
			double x = (double)m.a1 * v.x + (double)m.a2 * v.y + (double)m.a3 * v.z + m.a4;
			double y = (double)m.b1 * v.x + (double)m.b2 * v.y + (double)m.b3 * v.z + m.b4;
			double z = (double)m.c1 * v.x + (double)m.c2 * v.y + (double)m.c3 * v.z + m.c4;
			b->vertices[b->vertexCount++] = cnV3( scale.x * x, scale.y * y, scale.z * z );
		}
		for ( unsigned f = 0; f < mesh->mNumFaces; ++f )
		{
			// points and lines (what triangulation leaves of them) are no surface
			const struct aiFace* face = mesh->mFaces + f;
			if ( face->mNumIndices != 3 )
			{
				continue;
			}
			if ( face->mIndices == NULL || face->mIndices[0] >= mesh->mNumVertices ||
				 face->mIndices[1] >= mesh->mNumVertices || face->mIndices[2] >= mesh->mNumVertices )
			{
				b->broken = true;
				return;
			}
			for ( int c = 0; c < 3; ++c )
			{
				b->indices[3 * b->triangleCount + c] = base + (int)face->mIndices[c];
			}
			b->triangleCount += 1;
		}
	}
	// a scene graph deeper than this is a cycle or an attack, not a model
	for ( unsigned c = 0; c < node->mNumChildren && depth < 256 && b->failed == false && b->broken == false; ++c )
	{
		if ( node->mChildren[c] != NULL )
		{
			cnGatherNode( scene, node->mChildren[c], &m, scale, b, depth + 1 );
		}
	}
}

// qsort has no context argument: the vertices being sorted (one sort at a time per thread)
static _Thread_local const cnVec3* cnSortVertices;

static int cnCompareVertices( const void* pa, const void* pb )
{
	cnVec3 a = cnSortVertices[*(const int*)pa], b = cnSortVertices[*(const int*)pb];
	if ( a.x != b.x )
	{
		return a.x < b.x ? -1 : 1;
	}
	if ( a.y != b.y )
	{
		return a.y < b.y ? -1 : 1;
	}
	if ( a.z != b.z )
	{
		return a.z < b.z ? -1 : 1;
	}
	return *(const int*)pa < *(const int*)pb ? -1 : ( *(const int*)pa > *(const int*)pb ? 1 : 0 );
}

// Welds vertices at exactly the same position: each index then refers to the first of them, and
// the vertices are compacted. False when out of memory.
static bool cnWeldVertices( cnMeshBuffer* b )
{
	int n = b->vertexCount;
	int* order = malloc( (size_t)n * sizeof( int ) );
	int* remap = malloc( (size_t)n * sizeof( int ) );
	cnVec3* compact = malloc( (size_t)n * sizeof( cnVec3 ) );
	if ( order == NULL || remap == NULL || compact == NULL )
	{
		free( order );
		free( remap );
		free( compact );
		return false;
	}
	for ( int i = 0; i < n; ++i )
	{
		order[i] = i;
	}
	cnSortVertices = b->vertices;
	qsort( order, (size_t)n, sizeof( int ), cnCompareVertices );
	int count = 0;
	for ( int k = 0; k < n; ++k )
	{
		cnVec3 v = b->vertices[order[k]];
		cnVec3 prev = b->vertices[order[k > 0 ? k - 1 : 0]];
		if ( k == 0 || prev.x != v.x || prev.y != v.y || prev.z != v.z )
		{
			compact[count++] = v;
		}
		remap[order[k]] = count - 1;
	}
	for ( int i = 0; i < 3 * b->triangleCount; ++i )
	{
		b->indices[i] = remap[b->indices[i]];
	}
	free( b->vertices );
	b->vertices = compact;
	b->vertexCount = count;
	free( order );
	free( remap );
	return true;
}

// "ply" in any case: the first line of a PLY file as assimp accepts it
static bool cnIsPlyMagic( const char* word )
{
	return strlen( word ) == 3 && ( word[0] | 0x20 ) == 'p' && ( word[1] | 0x20 ) == 'l' && ( word[2] | 0x20 ) == 'y';
}

// assimp 5.2.5 (Debian 12) loops forever in its PLY reader on some malformed headers: one that never
// ends, an "element" line without its count, an unknown keyword (found by fuzzing,
// tests/fuzz/crashes/mesh). A file that assimp reads as PLY therefore has its header checked line by
// line before assimp sees it: "format", "comment", "obj_info", "element NAME COUNT", "property TYPE
// NAME", "property list TYPE TYPE NAME", then "end_header", within the first 64 KiB (headers are a
// few hundred bytes). Reads from probe, at the start of the file; false with the error set when the
// header is broken.
//
// Which files those are is assimp's rule, not the format's: its PLY reader takes the first line as
// its stream buffer reads it, which skips past the first '\n' when the file starts with a line end
// ('\r', '\n', '\f' or NUL), and accepts it when it starts "ply" in any case ("PLY", "plY"). A check
// of files that start with exactly "ply" let the same endless loops through a leading newline or a
// capital letter (found by fuzzing too: tests/fuzz/crashes/mesh/timeout-8d72...).
static bool cnCheckPlyHeader( FILE* probe, const char* path )
{
	static _Thread_local char head[65536 + 1];
	size_t n = fread( head, 1, sizeof( head ) - 1, probe );
	head[n] = 0;
	char* start = head;
	int line = 1;
	if ( n > 0 && ( head[0] == '\r' || head[0] == '\n' || head[0] == '\f' || head[0] == 0 ) )
	{
		// (memchr: the skipped piece may hold NULs)
		char* newline = memchr( head, '\n', n );
		start = newline != NULL ? newline + 1 : head + n;
		line = 2;
	}
	if ( (size_t)( start - head ) + 3 > n || ( start[0] | 0x20 ) != 'p' || ( start[1] | 0x20 ) != 'l' ||
		 ( start[2] | 0x20 ) != 'y' )
	{
		return true;
	}
	const int first = line;
	for ( char* p = start; *p != 0; ++line )
	{
		char* end = p + strcspn( p, "\r\n" );
		bool more = *end != 0;
		*end = 0;
		char* words[6] = { NULL };
		int count = 0;
		// split into words in place (strtok would share its state between threads)
		for ( char* w = p; *w != 0; )
		{
			w += strspn( w, " \t" );
			if ( *w == 0 )
			{
				break;
			}
			char* stop = w + strcspn( w, " \t" );
			bool last = *stop == 0;
			*stop = 0;
			if ( count < 6 )
			{
				words[count] = w;
			}
			count += 1;
			w = last ? stop : stop + 1;
		}
		bool ok = line == first ? count == 1 && cnIsPlyMagic( words[0] ) : count > 0;
		if ( ok && line > first )
		{
			const char* key = words[0];
			if ( strcmp( key, "end_header" ) == 0 )
			{
				return count == 1 ? true : cnSetError( cnError_badInput, "%s: PLY header line %d: junk after end_header", path, line );
			}
			if ( strcmp( key, "element" ) == 0 )
			{
				char* tail = NULL;
				ok = count == 3 && strtoul( words[2], &tail, 10 ) <= 0x7fffffffUL && *tail == 0 && words[2][0] != '-';
			}
			else if ( strcmp( key, "property" ) == 0 )
			{
				ok = count == 3 || ( count == 5 && strcmp( words[1], "list" ) == 0 );
			}
			else
			{
				ok = strcmp( key, "format" ) == 0 ? count == 3 : strcmp( key, "comment" ) == 0 || strcmp( key, "obj_info" ) == 0;
			}
		}
		if ( ok == false )
		{
			return cnSetError( cnError_badInput, "%s: PLY header line %d is not a PLY header line", path, line );
		}
		p = more ? end + 1 : end;
		// a CR LF ending leaves an empty piece: skip it without counting a line
		while ( *p == '\n' || *p == '\r' )
		{
			p += 1;
		}
	}
	return cnSetError( cnError_badInput, "%s: a PLY file whose header has no end_header line", path );
}

// assimp 5.2.5 (Debian 12) aborts the process in its triangulation (an ai_assert, on in Debian's
// build) when a mesh holds a face of no vertices: its scene preprocessor marks such a mesh as holding
// polygons, and the triangulation then finds none to split (a truncated PLY file whose face list
// reads a count of 0; found by fuzzing, tests/fuzz/crashes/mesh/crash-f2a8...). Its post-processing
// also indexes the vertex array with every face index unchecked. So the file is read without
// post-processing and every mesh's faces are checked here first: the arrays the counts promise are
// there, every face has vertices and names only vertices the mesh has. NULL when the faces are
// sound, else why not.
static const char* cnCheckFaces( const struct aiScene* scene )
{
	if ( scene->mNumMeshes > 0 && scene->mMeshes == NULL )
	{
		return "assimp handed over a scene without its meshes";
	}
	for ( unsigned m = 0; m < scene->mNumMeshes; ++m )
	{
		const struct aiMesh* mesh = scene->mMeshes[m];
		if ( mesh == NULL || ( mesh->mNumVertices > 0 && mesh->mVertices == NULL ) ||
			 ( mesh->mNumFaces > 0 && mesh->mFaces == NULL ) )
		{
			return "assimp handed over a mesh without its vertices or faces";
		}
		for ( unsigned f = 0; f < mesh->mNumFaces; ++f )
		{
			const struct aiFace* face = mesh->mFaces + f;
			if ( face->mNumIndices == 0 || face->mIndices == NULL )
			{
				return "a face has no vertices";
			}
			for ( unsigned i = 0; i < face->mNumIndices; ++i )
			{
				if ( face->mIndices[i] >= mesh->mNumVertices )
				{
					return "a face refers to a vertex the file does not have";
				}
			}
		}
	}
	return NULL;
}

cnMesh* cnLoadMesh( const char* path, cnVec3 scale )
{
	cnClearError();
	if ( path == NULL )
	{
		cnSetError( cnError_invalidArgument, "cnLoadMesh: no path" );
		return NULL;
	}
	if ( !cnIsValidVec3( scale ) || scale.x == 0.0 || scale.y == 0.0 || scale.z == 0.0 )
	{
		cnSetError( cnError_invalidArgument, "%s: the scale must be finite and nonzero (got %g, %g, %g)", path, scale.x,
					scale.y, scale.z );
		return NULL;
	}
	FILE* probe = fopen( path, "rb" );
	if ( probe == NULL )
	{
		cnSetError( cnError_io, "%s: cannot open the mesh file (%s)", path, strerror( errno ) );
		return NULL;
	}
	bool headerOk = cnCheckPlyHeader( probe, path );
	fclose( probe );
	if ( headerOk == false )
	{
		return NULL;
	}

	// read without post-processing, check what the reader handed over, and only then let assimp
	// triangulate (its post-processing trusts the reader: see cnCheckFaces)
	const struct aiScene* scene = aiImportFile( path, 0 );
	if ( scene == NULL || scene->mRootNode == NULL )
	{
		cnSetError( cnError_badInput, "%s: not a mesh file assimp can read (%s)", path, aiGetErrorString() );
		if ( scene != NULL )
		{
			aiReleaseImport( scene );
		}
		return NULL;
	}
	const char* faceProblem = cnCheckFaces( scene );
	if ( faceProblem != NULL )
	{
		cnSetError( cnError_badInput, "%s: %s", path, faceProblem );
		aiReleaseImport( scene );
		return NULL;
	}
	// on failure aiApplyPostProcessing releases the scene itself
	scene = aiApplyPostProcessing( scene, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices );
	if ( scene == NULL || scene->mRootNode == NULL )
	{
		cnSetError( cnError_badInput, "%s: assimp could not triangulate the mesh (%s)", path, aiGetErrorString() );
		if ( scene != NULL )
		{
			aiReleaseImport( scene );
		}
		return NULL;
	}
	cnMeshBuffer b;
	memset( &b, 0, sizeof( b ) );
	struct aiMatrix4x4 identity = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	cnGatherNode( scene, scene->mRootNode, &identity, scale, &b, 0 );
	aiReleaseImport( scene );

	cnMesh* mesh = NULL;
	if ( b.broken )
	{
		cnSetError( cnError_badInput, "%s: a face refers to a vertex the file does not have", path );
	}
	else if ( b.failed || ( b.triangleCount > 0 && cnWeldVertices( &b ) == false ) )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory reading the mesh", path );
	}
	else if ( b.triangleCount == 0 )
	{
		cnSetError( cnError_badInput, "%s: the file has no triangles", path );
	}
	else
	{
		// a mirroring scale turns the surface inside out: wind it back
		if ( scale.x * scale.y * scale.z < 0.0 )
		{
			for ( int t = 0; t < b.triangleCount; ++t )
			{
				int s = b.indices[3 * t + 1];
				b.indices[3 * t + 1] = b.indices[3 * t + 2];
				b.indices[3 * t + 2] = s;
			}
		}
		mesh = cnCreateMesh( b.vertices, b.vertexCount, b.indices, b.triangleCount );
		if ( mesh == NULL )
		{
			char reason[256];
			snprintf( reason, sizeof( reason ), "%s", cnGetError() );
			cnSetError( cnGetErrorCode(), "%s: %s", path, reason );
		}
	}
	free( b.vertices );
	free( b.indices );
	return mesh;
}

// ---------------------------------------------------------------------------------------------
// PNG heightfields

typedef struct cnPngReader
{
	jmp_buf jump;
	char message[200];
} cnPngReader;

static void cnPngError( png_structp png, png_const_charp message )
{
	cnPngReader* r = png_get_error_ptr( png );
	snprintf( r->message, sizeof( r->message ), "%s", message );
	longjmp( r->jump, 1 );
}

static void cnPngWarning( png_structp png, png_const_charp message )
{
	// warnings (an unknown chunk, a bad gamma) do not stop a height map: kept quiet
	(void)png;
	(void)message;
}

cnHeightfield* cnLoadHeightfieldPng( const char* path, double sizeX, double sizeY, double heightScale )
{
	cnClearError();
	if ( path == NULL )
	{
		cnSetError( cnError_invalidArgument, "cnLoadHeightfieldPng: no path" );
		return NULL;
	}
	if ( !isfinite( heightScale ) )
	{
		cnSetError( cnError_invalidArgument, "%s: the height scale must be finite (got %g)", path, heightScale );
		return NULL;
	}
	FILE* file = fopen( path, "rb" );
	if ( file == NULL )
	{
		cnSetError( cnError_io, "%s: cannot open the height map (%s)", path, strerror( errno ) );
		return NULL;
	}
	png_byte signature[8];
	if ( fread( signature, 1, 8, file ) != 8 || png_sig_cmp( signature, 0, 8 ) != 0 )
	{
		fclose( file );
		cnSetError( cnError_badInput, "%s: not a PNG image", path );
		return NULL;
	}

	// everything libpng's longjmp may leave behind lives in this block, freed at the end
	cnPngReader* reader = calloc( 1, sizeof( cnPngReader ) );
	png_structp png = reader != NULL ? png_create_read_struct( PNG_LIBPNG_VER_STRING, reader, cnPngError, cnPngWarning ) : NULL;
	png_infop info = png != NULL ? png_create_info_struct( png ) : NULL;
	if ( info == NULL )
	{
		png_destroy_read_struct( png != NULL ? &png : NULL, NULL, NULL );
		free( reader );
		fclose( file );
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		return NULL;
	}
	png_bytep volatile pixels = NULL;
	png_bytep* volatile rows = NULL;
	double* volatile heights = NULL;
	cnHeightfield* volatile result = NULL;
	if ( setjmp( reader->jump ) != 0 )
	{
		cnSetError( cnError_badInput, "%s: unreadable PNG (%s)", path, reader->message );
		goto done;
	}
	png_init_io( png, file );
	png_set_sig_bytes( png, 8 );
	png_read_info( png, info );
	png_uint_32 width = png_get_image_width( png, info ), height = png_get_image_height( png, info );
	int colorType = png_get_color_type( png, info ), depth = png_get_bit_depth( png, info );
	if ( ( colorType & PNG_COLOR_MASK_COLOR ) != 0 )
	{
		cnSetError( cnError_badInput, "%s: a height map must be a grayscale PNG (this one has colour)", path );
		goto done;
	}
	if ( width < 2 || height < 2 || (uint64_t)width * height > ( 1u << 26 ) )
	{
		cnSetError( cnError_badInput, "%s: a height map needs 2 x 2 to 2^26 pixels (this one is %u x %u)", path,
					(unsigned)width, (unsigned)height );
		goto done;
	}
	if ( depth < 8 )
	{
		png_set_expand_gray_1_2_4_to_8( png );
	}
	if ( ( colorType & PNG_COLOR_MASK_ALPHA ) != 0 )
	{
		png_set_strip_alpha( png );
	}
	png_read_update_info( png, info );
	size_t rowBytes = png_get_rowbytes( png, info );
	pixels = malloc( rowBytes * height );
	rows = malloc( height * sizeof( png_bytep ) );
	heights = malloc( (size_t)width * height * sizeof( double ) );
	if ( pixels == NULL || rows == NULL || heights == NULL )
	{
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		goto done;
	}
	for ( png_uint_32 y = 0; y < height; ++y )
	{
		rows[y] = pixels + y * rowBytes;
	}
	png_read_image( png, rows );

	// the top image row is +y: heightfield row j is image row height - 1 - j
	bool wide = depth == 16;
	double top = wide ? 65535.0 : 255.0;
	for ( png_uint_32 j = 0; j < height; ++j )
	{
		const png_byte* row = rows[height - 1 - j];
		for ( png_uint_32 i = 0; i < width; ++i )
		{
			// 16-bit samples are big-endian
			double value = wide ? (double)( ( row[2 * i] << 8 ) | row[2 * i + 1] ) : (double)row[i];
			heights[(size_t)j * width + i] = heightScale * value / top;
		}
	}
	result = cnCreateHeightfield( (int)width, (int)height, heights, sizeX, sizeY );
	if ( result == NULL )
	{
		char reason[256];
		snprintf( reason, sizeof( reason ), "%s", cnGetError() );
		cnSetError( cnGetErrorCode(), "%s: %s", path, reason );
	}

done:
	png_destroy_read_struct( &png, &info, NULL );
	free( pixels );
	free( rows );
	free( heights );
	free( reader );
	fclose( file );
	return result;
}
