// SPDX-License-Identifier: MIT
// Fuzz target: the FOSSSim XML loader (cnLoadFosssim reads a file: the bytes go to a scratch file).
#include "cairn/fosssim.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	const char* path = cnFuzzWriteFile( data, size, ".xml" );
	if ( path == NULL )
	{
		return 0;
	}
	cnFosssimScene* scene = cnLoadFosssim( path );
	cnDestroyFosssim( scene );
	return 0;
}
