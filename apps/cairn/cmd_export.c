// SPDX-License-Identifier: MIT
// `cairn export SCENE|RECORDING -o OUT.glb|OUT.gltf`: the motion as an animated glTF 2.0 asset
// (docs/export.md). A scene is first run into a recording in memory, as `render` does, so scenes
// and recordings take one path to the library's writer (cnWriteGltf).
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char cliExportHelp[] =
	"usage: cairn export SCENE.json|RECORDING.cnrec -o OUT.glb|OUT.gltf [options]\n"
	"\n"
	"Writes the motion as glTF 2.0 for Blender, web viewers and other 3D tools: a mesh per\n"
	"shape, a node per body (named after it), PBR materials from the scene's appearance, the\n"
	"camera, and one animation with every moving body's position and rotation at each frame.\n"
	"  OUT.glb    binary glTF, one file\n"
	"  OUT.gltf   JSON, with the binary data beside it in OUT.bin\n"
	"A scene is simulated first (as `cairn run` would). Cairn's z-up is turned to glTF's y-up;\n"
	"Blender's importer turns it back, so positions there equal Cairn's (docs/export.md).\n"
	"Nothing appears under OUT until it is complete.\n"
	"\n"
	"options:\n"
	"  -o OUT         the output file, .glb or .gltf (required)\n"
	"  --camera NAME  a camera from the scene's \"cameras\" (default: its first camera, or an\n"
	"                 automatic view framing the whole motion); a camera that follows a\n"
	"                 body, is mounted on one or moves along keys is animated too\n"
	"  --fps N        animation keys per second (default: the scene's or recording's fps); a\n"
	"                 scene is simulated at that rate, a recording keeps every n-th frame, so\n"
	"                 N must be its rate divided by a whole number\n"
	"  --quiet        no progress line and no summary\n"
	"  -h, --help     show this help\n"
	"\n"
	"exit status: 0 ok, 1 the simulation failed or a file cannot be read or written,\n"
	"2 bad input or option, 130 interrupted.\n"
	"\n"
	"examples:\n"
	"  cairn export scenes/bouncing_balls.json -o balls.glb\n"
	"  cairn export run.cnrec -o run.gltf --fps 30\n";

// The frame stride that gives a recording fps keys per second: the whole number n with
// recordingFps / n = fps; 0 after printing an error when there is none.
static int cliExportStride( const char* input, const char* fpsText, double recordingFps, double fps )
{
	double n = recordingFps / fps;
	double whole = floor( n + 0.5 );
	if ( whole < 1.0 || whole > 1e9 || fabs( n - whole ) > 1e-6 * whole )
	{
		cliError( "--fps %s: %s has %.9g frames per second; export keeps every n-th frame, so --fps must be %.9g "
				  "divided by a whole number",
				  fpsText, input, recordingFps, recordingFps );
		return 0;
	}
	return (int)whole;
}

int cliExportMain( int argc, char** argv )
{
	const char *out = NULL, *cameraName = NULL, *fpsText = NULL;
	bool quiet = false;
	const cliOption options[] = {
		{ "-o", &out, NULL },
		{ "--camera", &cameraName, NULL },
		{ "--fps", &fpsText, NULL },
		{ "--quiet", NULL, &quiet },
	};
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, (int)( sizeof( options ) / sizeof( options[0] ) ), positional, 1,
						   &positionalCount, cliExportHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( positionalCount != 1 )
	{
		cliError( "export needs a scene or recording (see 'cairn export --help')" );
		return CLI_BAD_INPUT;
	}
	if ( out == NULL || out[0] == 0 )
	{
		cliError( "export needs -o OUT.glb or -o OUT.gltf" );
		return CLI_BAD_INPUT;
	}
	if ( cnGltfFormatForPath( out ) == cnGltfFormat_auto )
	{
		cliError( "-o %s: the file name must end in .glb (binary glTF) or .gltf (JSON + .bin)", out );
		return CLI_BAD_INPUT;
	}
	double fps = 0.0;
	if ( fpsText != NULL && cliParseDouble( "--fps", fpsText, 0.0, false, &fps ) == false )
	{
		return CLI_BAD_INPUT;
	}
	if ( fps > 1000.0 )
	{
		cliError( "--fps %s: at most 1000 frames per second", fpsText );
		return CLI_BAD_INPUT;
	}
	const char* input = positional[0];
	if ( cameraName != NULL && cnIsRecordingFile( input ) )
	{
		cliError( "--camera %s: %s is a recording, which has no cameras; export its scene instead", cameraName, input );
		return CLI_BAD_INPUT;
	}

	// a place the output cannot be written is found before a long simulation, not after
	cnOutputFile* probe = cnCreateOutputFile( out );
	if ( probe == NULL )
	{
		cliError( "%s", cnGetError() );
		return CLI_FAILURE;
	}
	cnDestroyOutputFile( probe );

	cnScene* scene = NULL;
	status = CLI_OK;
	const cnCameraDef* camera = NULL;
	cnRecording* recording = cliLoadRecordingInput( input, fps, quiet, cameraName, "export", &scene, &camera, &status );
	if ( recording == NULL )
	{
		cnDestroyScene( scene );
		return status != CLI_OK ? status : CLI_FAILURE;
	}

	cnGltfOptions gltf = cnDefaultGltfOptions();
	if ( scene == NULL && fpsText != NULL )
	{
		gltf.frameStride = cliExportStride( input, fpsText, cnRecording_GetFps( recording ), fps );
		status = gltf.frameStride > 0 ? CLI_OK : CLI_BAD_INPUT;
	}
	char* folder = cliFolderOf( input );
	gltf.textureDir = folder;
	if ( status == CLI_OK && cnWriteGltf( out, recording, camera, &gltf ) == false )
	{
		cliError( "%s", cnGetError() );
		// a texture that is no image, a camera on a body the recording lacks: the input is wrong
		status = cnGetErrorCode() == cnError_invalidArgument ? CLI_BAD_INPUT : CLI_FAILURE;
	}
	if ( status == CLI_OK && quiet == false )
	{
		int frames = cnRecording_GetFrameCount( recording );
		int keys = ( frames - 1 ) / gltf.frameStride + 1;
		char bin[4096 + 16] = "";
		bool json = cnGltfFormatForPath( out ) == cnGltfFormat_json && cnGltfBufferPath( out, bin, sizeof( bin ) );
		printf( "wrote %s%s%s: %d bodies, %d animation keys over %.9g s\n", out, json ? " and " : "", json ? bin : "",
				cnRecording_GetBodyCount( recording ), keys,
				cnRecording_GetFrameTime( recording, ( keys - 1 ) * gltf.frameStride ) -
					cnRecording_GetFrameTime( recording, 0 ) );
	}
	free( folder );
	cnDestroyRecording( recording );
	cnDestroyScene( scene );
	return status;
}
