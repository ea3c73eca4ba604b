// SPDX-License-Identifier: MIT
// Fuzz target: the recording reader (cnLoadRecordingFromMemory), then every frame and shape read back.
#include "cairn/recording.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	cnRecording* rec = cnLoadRecordingFromMemory( data, size, "fuzz.cnrec" );
	if ( rec == NULL )
	{
		return 0;
	}
	// a recording that loads is valid: walking it reads only what the reader checked
	double sum = 0.0;
	for ( int b = 0; b < cnRecording_GetBodyCount( rec ); ++b )
	{
		for ( int s = 0; s < cnRecording_GetShapeCount( rec, b ); ++s )
		{
			cnRecordedShape shape = cnRecording_GetShape( rec, b, s );
			sum += cnRecordedShape_GetReach( &shape );
			for ( int t = 0; t < 3 * shape.triangleCount; ++t )
			{
				sum += shape.vertices[shape.triangles[t]].x;
			}
		}
		for ( int f = 0; f < cnRecording_GetFrameCount( rec ); ++f )
		{
			sum += cnRecording_GetBodyTransform( rec, f, b ).p.x;
		}
	}
	cnDestroyRecording( rec );
	return sum == 12345.678 ? 1 : 0;
}
