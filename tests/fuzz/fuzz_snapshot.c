// SPDX-License-Identifier: MIT
// Fuzz target: the snapshot reader (snapshot_load.c). The first byte chooses whether the checksum
// is checked (odd) or not (even: a random change almost never keeps the checksum right, and the
// checks behind it are the ones to reach). A world that loads is stepped, saved and loaded again:
// what the reader accepts must be a world the step and the writer can handle.
#include "fuzz.h"
#include "snapshot.h"

#include "cairn/cairn.h"

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	if ( size < 1 )
	{
		return 0;
	}
	cnWorld* world = cnLoadSnapshotData( data + 1, size - 1, ( data[0] & 1 ) != 0 );
	if ( world == NULL )
	{
		return 0;
	}
	for ( int i = 0; i < 3; ++i )
	{
		if ( cnWorld_Step( world, 1.0 / 120.0 ) == false )
		{
			break;
		}
	}
	void* bytes = NULL;
	size_t count = 0;
	if ( cnWorld_Save( world, &bytes, &count ) )
	{
		cnWorld* again = cnWorld_Load( bytes, count );
		// a world the writer wrote always loads back
		if ( again == NULL )
		{
			__builtin_trap();
		}
		cnDestroyWorld( again );
	}
	cnFree( bytes );
	cnDestroyWorld( world );
	return 0;
}
