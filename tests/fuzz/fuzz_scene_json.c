// SPDX-License-Identifier: MIT
// Fuzz target: the JSON scene loader (cnLoadSceneFromString), then two steps of whatever loaded.
#include "cairn/io.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	char* text = malloc( size + 1 );
	if ( text == NULL )
	{
		return 0;
	}
	memcpy( text, data, size );
	text[size] = 0;
	cnScene* scene = cnLoadSceneFromString( text, "fuzz.json" );
	if ( scene != NULL )
	{
		// a loaded scene is valid: stepping it must not crash either (its step may fail cleanly)
		for ( int i = 0; i < 2 && cnWorld_Step( scene->world, scene->timeStep ); ++i )
		{
		}
		cnDestroyScene( scene );
	}
	free( text );
	return 0;
}
