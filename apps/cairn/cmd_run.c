// SPDX-License-Identifier: MIT
// `cairn run SCENE.json`: simulates a scene and writes CSV, a recording, stats and a hash.
#include "cli.h"

const char cliRunHelp[] =
	"usage: cairn run SCENE.json [options]\n"
	"\n"
	"Simulates a scene from t = 0 to its duration and writes what was asked for.\n"
	"Frames are taken every 1/fps seconds, frame 0 at t = 0. Each frame takes\n"
	"k = ceil((1/fps) / timestep) steps of exactly (1/fps) / k seconds, so frames fall\n"
	"exactly on multiples of 1/fps (the step is never longer than the scene's timestep).\n"
	"\n"
	"options:\n"
	"  --duration T   simulated seconds (default: the scene's \"duration\")\n"
	"  --fps F        output frames per second (default: the scene's \"fps\")\n"
	"  --method M     contact method (default: the scene's \"method\"; see cairn --help)\n"
	"  --csv FILE     write every non-static body at every frame as CSV:\n"
	"                 time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
	"  --record FILE  write a binary recording (docs/recording-format.md)\n"
	"  --stats        print per-stage milliseconds per step and the world's counters\n"
	"  --hash         print 'hash 0x...' of all body positions and orientations at the end\n"
	"  --quiet        print no summary and no progress bar\n"
	"  -h, --help     show this help\n"
	"\n"
	"exit status: 0 ok, 1 runtime failure (a step failed, an output cannot be written),\n"
	"2 bad input (unknown option, bad value, scene error), 130 interrupted.\n"
	"Output files appear only complete: they are written as FILE.tmp and renamed at the end.\n"
	"\n"
	"example:\n"
	"  cairn run scenes/bouncing_balls.json --duration 2 --csv balls.csv --hash\n";

int cliRunMain( int argc, char** argv )
{
	const char *duration = NULL, *fps = NULL, *method = NULL, *csv = NULL, *record = NULL;
	bool stats = false, hash = false, quiet = false;
	const cliOption options[] = {
		{ "--duration", &duration, NULL }, { "--fps", &fps, NULL },		  { "--method", &method, NULL },
		{ "--csv", &csv, NULL },		   { "--record", &record, NULL }, { "--stats", NULL, &stats },
		{ "--hash", NULL, &hash },		   { "--quiet", NULL, &quiet },
	};
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, (int)( sizeof( options ) / sizeof( options[0] ) ), positional, 1,
						   &positionalCount, cliRunHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( positionalCount != 1 )
	{
		cliError( "cairn run: no scene file given (see 'cairn run --help')" );
		return CLI_BAD_INPUT;
	}

	// check every option value before the (possibly slow) scene load
	cliRunConfig cfg = { 0 };
	if ( duration != NULL && cliParseDouble( "--duration", duration, 0.0, true, &cfg.duration ) == false )
	{
		return CLI_BAD_INPUT;
	}
	if ( fps != NULL && cliParseDouble( "--fps", fps, 0.0, false, &cfg.fps ) == false )
	{
		return CLI_BAD_INPUT;
	}
	cnMethod parsed;
	if ( method != NULL && cnMethodFromName( method, &parsed ) == false )
	{
		cliError( "--method: unknown contact method '%s' (known: %s)", method, cliMethodList() );
		return CLI_BAD_INPUT;
	}
	if ( ( csv != NULL && csv[0] == 0 ) || ( record != NULL && record[0] == 0 ) )
	{
		cliError( "--csv and --record need a file name" );
		return CLI_BAD_INPUT;
	}

	cnScene* scene = cliLoadScene( positional[0], method );
	if ( scene == NULL )
	{
		return CLI_BAD_INPUT;
	}
	if ( duration == NULL )
	{
		cfg.duration = scene->duration;
	}
	if ( fps == NULL )
	{
		cfg.fps = scene->fps;
	}
	cfg.csvPath = csv;
	cfg.recordPath = record;
	cfg.stats = stats;
	cfg.hash = hash;
	cfg.quiet = quiet;

	cliRunResult result;
	status = cliSimulate( scene, &cfg, &result );
	cnDestroyScene( scene );
	return status;
}
