// SPDX-License-Identifier: MIT
// `cairn demo`: runs the built-in scene (scenes/bouncing_balls.json, embedded at build time) and
// writes a CSV and a recording, so a fresh build shows something without any file at hand.
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char cliDemoHelp[] =
	"usage: cairn demo [--out DIR]\n"
	"\n"
	"Runs the built-in demo scene (a copy of scenes/bouncing_balls.json made at build time)\n"
	"and writes DIR/demo.csv and DIR/demo.cnrec, creating DIR if needed.\n"
	"\n"
	"options:\n"
	"  --out DIR    output directory (default: ./cairn-demo)\n"
	"  -h, --help   show this help\n"
	"\n"
	"exit status: 0 ok, 1 the outputs cannot be written, 2 bad option.\n"
	"\n"
	"example:\n"
	"  cairn demo --out /tmp/demo && cairn info /tmp/demo/demo.cnrec\n";

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
	const cliOption options[] = { { "--out", &out, NULL } };
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, 1, positional, 0, &positionalCount, cliDemoHelp );
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

	cliRunConfig cfg = { 0 };
	cfg.duration = scene->duration;
	cfg.fps = scene->fps;
	cfg.csvPath = csvPath;
	cfg.recordPath = recordPath;
	cfg.quiet = true;
	cnRunResult result;
	status = cliSimulate( scene, &cfg, &result );
	if ( status == CLI_OK )
	{
		printf( "cairn demo: simulated \"%s\" (%d bodies) for %.9g s in %.3f s: %d frames at %.9g fps\n", scene->name,
				cnWorld_GetBodyCount( scene->world ), cnWorld_GetTime( scene->world ), result.wallSeconds,
				result.frameCount, cfg.fps );
		printf( "wrote %s    every moving body at every frame: time, position, orientation, velocities\n",
				csvPath );
		printf( "wrote %s  binary recording with the shapes, for viewers (docs/recording-format.md)\n", recordPath );
		printf( "\nlook at it:\n" );
		printf( "  cairn info %s\n", recordPath );
		printf( "  head %s\n", csvPath );
		printf( "run any scene yourself:\n" );
		printf( "  cairn run scenes/bouncing_balls.json --csv balls.csv --stats\n" );
	}
	free( csvPath );
	free( recordPath );
	cnDestroyScene( scene );
	return status;
}
