// SPDX-License-Identifier: MIT
// `cairn demo`: runs the built-in scene (scenes/bouncing_balls.json, embedded at build time) and
// writes a CSV, a recording, a video and a poster, so a fresh build shows something without any
// file at hand.
#include "cli.h"
#include "processes.h"
#include "render_frames.h"

#include <stdlib.h>
#include <string.h>

const char cliDemoHelp[] =
	"usage: cairn demo [--out DIR] [--no-video]\n"
	"\n"
	"Runs the built-in demo scene (a copy of scenes/bouncing_balls.json made at build time)\n"
	"and writes into DIR, creating it if needed:\n"
	"  demo.mp4     the motion rendered by POV-Ray at 640x480, 24 frames per second\n"
	"  demo.png     a poster: the frame at one second\n"
	"  demo.csv     every moving body at every frame\n"
	"  demo.cnrec   the recording (shapes and motion) for viewers, render and export\n"
	"Without POV-Ray or FFmpeg it says which package to install and writes the rest.\n"
	"\n"
	"options:\n"
	"  --out DIR    output directory (default: ./cairn-demo)\n"
	"  --no-video   only the CSV and the recording\n"
	"  -h, --help   show this help\n"
	"\n"
	"exit status: 0 ok, 1 the outputs cannot be written, 2 bad option, 130 interrupted.\n"
	"\n"
	"example:\n"
	"  cairn demo --out /tmp/demo && cairn info /tmp/demo/demo.cnrec\n";

// The demo video's size and rate: the default picture at a film's rate keeps it well under a
// minute on two cores.
enum
{
	cliDemoFps = 24,
};

// Joins a directory and a file name; the caller frees the result.
static char* cliJoin( const char* directory, const char* name )
{
	size_t a = strlen( directory ), b = strlen( name );
	bool slash = a > 0 && directory[a - 1] != '/';
	char* path = malloc( a + b + 2 );
	if ( path != NULL )
	{
		memcpy( path, directory, a );
		if ( slash )
		{
			path[a++] = '/';
		}
		memcpy( path + a, name, b + 1 );
	}
	return path;
}

int cliDemoMain( int argc, char** argv )
{
	const char* out = "cairn-demo";
	bool noVideo = false;
	const cliOption options[] = { { "--out", &out, NULL }, { "--no-video", NULL, &noVideo } };
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, 2, positional, 0, &positionalCount, cliDemoHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( out[0] == 0 )
	{
		cliError( "--out needs a directory name" );
		return CLI_BAD_INPUT;
	}
	if ( cnDemoSceneJson[0] == 0 )
	{
		cliError( "this cairn was built without its demo scene (scenes/bouncing_balls.json was missing)" );
		return CLI_FAILURE;
	}

	cnScene* scene = cnLoadSceneFromString( (const char*)cnDemoSceneJson, "bouncing_balls.json (built in)" );
	if ( scene == NULL )
	{
		// the embedded copy is checked by the tests, so this is a build problem, not bad input
		cliError( "%s", cnGetError() );
		return CLI_FAILURE;
	}
	cliPrintWarnings( scene );
	if ( cliMakeDirectories( out ) == false )
	{
		cnDestroyScene( scene );
		return CLI_FAILURE;
	}
	char* csvPath = cliJoin( out, "demo.csv" );
	char* recordPath = cliJoin( out, "demo.cnrec" );
	if ( csvPath == NULL || recordPath == NULL )
	{
		cliError( "out of memory" );
		free( csvPath );
		free( recordPath );
		cnDestroyScene( scene );
		return CLI_FAILURE;
	}

	char* videoPath = cliJoin( out, "demo.mp4" );
	char* posterPath = cliJoin( out, "demo.png" );
	cnRecording* recording = NULL;
	cliRunConfig cfg = { 0 };
	cfg.duration = scene->duration;
	cfg.fps = scene->fps;
	cfg.csvPath = csvPath;
	cfg.recordPath = recordPath;
	cfg.memoryRecording = noVideo ? NULL : &recording;
	cfg.quiet = true;
	cnRunResult result;
	status = videoPath != NULL && posterPath != NULL ? cliSimulate( scene, &cfg, &result ) : CLI_FAILURE;
	if ( status == CLI_OK )
	{
		printf( "cairn demo: simulated \"%s\" (%d bodies) for %.9g s in %.3f s: %d frames at %.9g fps\n", scene->name,
				cnWorld_GetBodyCount( scene->world ), cnWorld_GetTime( scene->world ), result.wallSeconds,
				result.frameCount, cfg.fps );
		printf( "wrote %s    every moving body at every frame: time, position, orientation, velocities\n",
				csvPath );
		printf( "wrote %s  binary recording with the shapes, for viewers (docs/recording-format.md)\n", recordPath );
		fflush( stdout );
	}
	bool rendered = false;
	if ( status == CLI_OK && noVideo == false )
	{
		// the video is a bonus: without its helpers the demo still succeeds, and says what to install
		const char* missing = cliHasProgram( "povray" ) ? ( cliHasProgram( "ffmpeg" ) ? NULL : "ffmpeg" ) : "povray";
		if ( missing != NULL )
		{
			printf( "no video: %s is not installed (apt-get install %s), so demo.mp4 and demo.png were not made\n",
					strcmp( missing, "povray" ) == 0 ? "POV-Ray" : "FFmpeg", missing );
		}
		else
		{
			cliRenderConfig render;
			memset( &render, 0, sizeof( render ) );
			render.outPath = videoPath;
			render.kind = cliOutput_mp4;
			render.fps = cliDemoFps;
			render.endFrame = -1;
			render.pov = cnDefaultPovOptions();
			render.camera = cnScene_FindCamera( scene, NULL );
			render.posterPath = posterPath;
			render.posterFrame = cliDemoFps;
			printf( "rendering the video with POV-Ray (cairn render; Ctrl-C stops it)...\n" );
			fflush( stdout );
			cliRenderResult rendering;
			status = cliRender( recording, &render, &rendering );
			if ( status == CLI_OK )
			{
				printf( "wrote %s    %d frames of %dx%d at %d fps, rendered in %.1f s: open it in any video player\n",
						videoPath, rendering.frameCount, render.pov.width, render.pov.height, cliDemoFps,
						rendering.wallSeconds );
				printf( "wrote %s    the poster, the frame at one second\n", posterPath );
				rendered = true;
			}
		}
	}
	if ( status == CLI_OK )
	{
		printf( "\nlook at it:\n" );
		if ( rendered )
		{
			printf( "  xdg-open %s\n", videoPath );
		}
		printf( "  cairn info %s\n", recordPath );
		printf( "  head %s\n", csvPath );
		printf( "run and render any scene yourself:\n" );
		printf( "  cairn run scenes/bouncing_balls.json --csv balls.csv --stats\n" );
		printf( "  cairn render scenes/bouncing_balls.json -o balls.mp4 --quality final\n" );
	}
	cnDestroyRecording( recording );
	free( videoPath );
	free( posterPath );
	free( csvPath );
	free( recordPath );
	cnDestroyScene( scene );
	return status;
}
