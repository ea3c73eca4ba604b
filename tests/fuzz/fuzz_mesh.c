// SPDX-License-Identifier: MIT
// Fuzz target: the mesh importer (cnLoadMesh through assimp). The first byte picks the format the
// rest is read as (OBJ, STL, PLY), so one corpus covers all three; a mesh that loads is then made a
// hull and given to a static shape's box, as a scene would use it.
#include "cairn/io.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	if ( size < 1 )
	{
		return 0;
	}
	static const char* const extensions[3] = { ".obj", ".stl", ".ply" };
	const char* path = cnFuzzWriteFile( data + 1, size - 1, extensions[data[0] % 3] );
	if ( path == NULL )
	{
		return 0;
	}
	cnMesh* mesh = cnLoadMesh( path, cnV3( 1.0, 1.0, 1.0 ) );
	if ( mesh != NULL )
	{
		int n = cnMesh_GetVertexCount( mesh );
		cnVec3 points[64];
		int count = n < 64 ? n : 64;
		for ( int i = 0; i < count; ++i )
		{
			points[i] = cnMesh_GetVertex( mesh, i );
		}
		cnReleaseHull( cnCreateHull( points, count ) );
		cnReleaseMesh( mesh );
	}
	return 0;
}
