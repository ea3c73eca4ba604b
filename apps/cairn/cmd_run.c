// SPDX-License-Identifier: MIT
// `cairn run SCENE.json|SCENE.xml`: simulates a scene and writes CSV, a recording, stats and a hash.
// .xml files are FOSSSim scenes (docs/fosssim.md); --dump-contact-system prints the contact system of
// the first step with contacts.
#include "cli.h"

#include <math.h>

const char cliRunHelp[] =
	"usage: cairn run SCENE.json|SCENE.xml [options]\n"
	"\n"
	"Simulates a scene from t = 0 to its duration and writes what was asked for.\n"
	"A .xml file is a FOSSSim rigid body scene (2D, planar world; docs/fosssim.md).\n"
	"Frames are taken every 1/fps seconds, frame 0 at t = 0. Each frame takes\n"
	"k = ceil((1/fps) / timestep) steps of exactly (1/fps) / k seconds, so frames fall\n"
	"exactly on multiples of 1/fps (the step is never longer than the scene's timestep).\n"
	"\n"
	"options:\n"
	"  --duration T   simulated seconds (default: the scene's \"duration\")\n"
	"  --fps F        output frames per second (default: the scene's \"fps\")\n"
	"  --method M     contact method (default: the scene's \"method\"; see cairn --help)\n"
	"  --workers N    threads that run the step, 1 to 64 (default: the scene's \"workers\",\n"
	"                 else 1); the results are the same bits for any N\n"
	"  --csv FILE     write every non-static body at every frame as CSV:\n"
	"                 time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
	"  --joints-csv FILE\n"
	"                 write every joint at every frame as CSV (errors in m and rad, the\n"
	"                 reaction on the second body in N and N m, broken 0 or 1):\n"
	"                 time,joint,type,linear_error,angular_error,fx,fy,fz,tx,ty,tz,broken\n"
	"  --record FILE  write a binary recording (docs/recording-format.md)\n"
	"  --bodies LIST  limit --csv and --record to these bodies (comma-separated names)\n"
	"  --every N      write every N-th frame only (frame 0, N, 2N, ...)\n"
	"  --on-instability ACTION\n"
	"                 what to do when a body goes non-finite, too fast or the energy jumps:\n"
	"                 stop (fail the run, the default), warn (say so once per body and go\n"
	"                 on) or freeze-body (stop that body and go on); default: the scene's\n"
	"                 \"on_instability\" (docs/reliability.md)\n"
	"  --stats        print per-stage milliseconds per step and the world's counters\n"
	"  --hash         print 'hash 0x...' of all body positions and orientations at the end\n"
	"  --quiet        print no summary and no progress line (warnings still go to stderr)\n"
	"  --save-state FILE\n"
	"                 write a snapshot of the world (docs/snapshots.md) at the end of the run,\n"
	"                 or with --at T at the end of the first step that reaches T seconds\n"
	"  --at T         when --save-state saves (a frame time gives an exact resume point)\n"
	"  --from-state FILE\n"
	"                 continue from a snapshot instead of the scene's start: the scene gives\n"
	"                 the time step, fps, duration and outputs, the snapshot the world; the run\n"
	"                 goes from the snapshot's time to the duration and gives the bits the run\n"
	"                 that saved it would have given\n"
	"  --dump-contact-system\n"
	"                 print the contact system of the first step with contacts (lcp, gr-lcp:\n"
	"                 A, b and the solution lambda; velocity-projection, gr-velocity-projection:\n"
	"                 M, -M qdot and N), per free body x, y, theta as in FOSSSim's files; alone\n"
	"                 it only prints that, with other outputs the scene then runs from the start\n"
	"  -h, --help     show this help\n"
	"\n"
	"On a terminal, a run that lasts more than a second shows a progress line (time,\n"
	"steps per second, speed against real time, time left). Ctrl-C stops it within a\n"
	"step, even a long one, and writes nothing.\n"
	"\n"
	"Warnings about the scene (friction its method ignores, gravity off a planar world's\n"
	"plane) are printed on stderr as 'cairn: warning: FILE: JSONPATH: reason'; the run goes on.\n"
	"\n"
	"exit status: 0 ok, 1 runtime failure (a step failed or went unstable, an output cannot be\n"
	"written), 2 bad input (unknown option, bad value, scene error), 130 interrupted.\n"
	"Output files appear only complete: they are written as FILE.tmp and renamed at the end.\n"
	"\n"
	"examples:\n"
	"  cairn run scenes/bouncing_balls.json --duration 2 --csv balls.csv --hash\n"
	"  cairn run scenes/fall3000.json --csv few.csv --bodies box_0,box_1 --every 6\n"
	"  cairn run scenes/dominoes.json --save-state t1.cnsnap --at 1\n"
	"  cairn run scenes/dominoes.json --from-state t1.cnsnap --csv rest.csv\n";

// The run loop's per-step hook: the FOSSSim scene's springs and wind for the coming step.
static bool cliApplyFosssimForces( cnWorld* world, void* context )
{
	(void)world;
	return cnFosssim_ApplyForces( context );
}

// --dump-contact-system: steps a fresh copy of the scene by its time step until its first step with
// contacts and prints that step's contact system on stdout.
static int cliDumpContactSystem( const char* path, const char* method, const double* duration )
{
	cnFosssimScene* fosssim = NULL;
	cnScene* scene = cliLoadRunScene( path, method, &fosssim );
	if ( scene == NULL )
	{
		return CLI_BAD_INPUT;
	}
	double end = duration != NULL ? *duration : scene->duration;
	cnContactSystem system = { 0 };
	if ( cnWorld_CaptureContactSystem( scene->world, &system ) == false )
	{
		cliError( "--dump-contact-system: not available: %s: %s", scene->path, cnGetError() );
		cliDestroyRunScene( scene, fosssim );
		return CLI_FAILURE;
	}
	int status = CLI_OK;
	double h = scene->timeStep;
	long long steps = (long long)ceil( end / h - 1e-9 );
	for ( long long i = 0; i < steps && system.captured == false; ++i )
	{
		if ( ( fosssim != NULL && cnFosssim_ApplyForces( fosssim ) == false ) ||
			 cnWorld_Step( scene->world, h ) == false )
		{
			cliError( "%s: step failed at t = %.9g s: %s", scene->path, cnWorld_GetTime( scene->world ), cnGetError() );
			status = CLI_FAILURE;
			break;
		}
	}
	if ( system.captured )
	{
		cnFosssim_WriteContactSystem( stdout, &system );
	}
	else if ( status == CLI_OK )
	{
		// not an error: the scene simply has no contact in its duration
		fprintf( stderr, "cairn: %s: no contacts in %.9g s\n", scene->path, end );
	}
	cnContactSystem_Free( &system );
	cliDestroyRunScene( scene, fosssim );
	return status;
}

// --from-state: the scene's world is replaced by the snapshot's (the scene keeps its run settings,
// cameras and, for FOSSSim scenes, its force elements, which find bodies by id). The method is part
// of the state: --method must agree with it. The run must still have time to go.
static int cliReplaceWorld( cnScene* scene, const char* path, const char* method, const double* duration )
{
	cnWorld* world = cnLoadSnapshot( path );
	if ( world == NULL )
	{
		cliError( "%s", cnGetError() );
		return CLI_BAD_INPUT;
	}
	cnMethod snapshotMethod = cnWorld_GetDef( world ).method;
	cnMethod wanted;
	if ( method != NULL && cnMethod_FromName( method, &wanted ) && wanted != snapshotMethod )
	{
		cliError( "--method %s: %s was saved with the %s method, which is part of its state", method, path,
				  cnMethod_GetName( snapshotMethod ) );
		cnDestroyWorld( world );
		return CLI_BAD_INPUT;
	}
	double t = cnWorld_GetTime( world );
	if ( !( t < *duration ) )
	{
		cliError( "%s: its time t = %.9g s is not before the run's end (%.9g s)", path, t, *duration );
		cnDestroyWorld( world );
		return CLI_BAD_INPUT;
	}
	cnDestroyWorld( scene->world );
	scene->world = world;
	return CLI_OK;
}

int cliRunMain( int argc, char** argv )
{
	const char *duration = NULL, *fps = NULL, *method = NULL, *csv = NULL, *record = NULL, *bodies = NULL,
			   *every = NULL, *jointsCsv = NULL, *onInstability = NULL, *saveState = NULL, *at = NULL,
			   *fromState = NULL, *workers = NULL;
	bool stats = false, hash = false, quiet = false, dump = false;
	const cliOption options[] = {
		{ "--duration", &duration, NULL }, { "--fps", &fps, NULL },		  { "--method", &method, NULL },
		{ "--csv", &csv, NULL },		   { "--record", &record, NULL }, { "--bodies", &bodies, NULL },
		{ "--every", &every, NULL },	   { "--stats", NULL, &stats },	  { "--hash", NULL, &hash },
		{ "--quiet", NULL, &quiet },	   { "--dump-contact-system", NULL, &dump },
		{ "--joints-csv", &jointsCsv, NULL }, { "--on-instability", &onInstability, NULL },
		{ "--save-state", &saveState, NULL },
		{ "--at", &at, NULL },
		{ "--from-state", &fromState, NULL },
		{ "--workers", &workers, NULL },
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
	if ( method != NULL && cnMethod_FromName( method, &parsed ) == false )
	{
		cliError( "--method: unknown contact method '%s' (known: %s)", method, cnMethod_GetNameList() );
		return CLI_BAD_INPUT;
	}
	cnInstabilityAction action = cnInstability_stop;
	if ( onInstability != NULL && cnInstabilityAction_FromName( onInstability, &action ) == false )
	{
		cliError( "--on-instability: unknown action '%s' (known: stop, warn, freeze-body)", onInstability );
		return CLI_BAD_INPUT;
	}
	long long workerCount = 0;
	if ( workers != NULL && cliParseInt( "--workers", workers, 1, CN_MAX_WORKERS, &workerCount ) == false )
	{
		return CLI_BAD_INPUT;
	}
	long long everyValue = 1;
	if ( every != NULL && cliParseInt( "--every", every, 1, 1000000000, &everyValue ) == false )
	{
		return CLI_BAD_INPUT;
	}
	cfg.every = (int)everyValue;
	if ( bodies != NULL && ( bodies[0] == 0 || ( csv == NULL && record == NULL ) ) )
	{
		cliError( "--bodies needs a list of body names, and --csv or --record to limit" );
		return CLI_BAD_INPUT;
	}
	cfg.bodies = bodies;
	if ( ( csv != NULL && csv[0] == 0 ) || ( record != NULL && record[0] == 0 ) )
	{
		cliError( "--csv and --record need a file name" );
		return CLI_BAD_INPUT;
	}
	if ( jointsCsv != NULL && jointsCsv[0] == 0 )
	{
		cliError( "--joints-csv needs a file name" );
		return CLI_BAD_INPUT;
	}

	cfg.saveStateAt = -1.0;
	if ( ( saveState != NULL && saveState[0] == 0 ) || ( fromState != NULL && fromState[0] == 0 ) )
	{
		cliError( "--save-state and --from-state need a file name" );
		return CLI_BAD_INPUT;
	}
	if ( at != NULL && saveState == NULL )
	{
		cliError( "--at needs --save-state" );
		return CLI_BAD_INPUT;
	}
	if ( at != NULL && cliParseDouble( "--at", at, 0.0, true, &cfg.saveStateAt ) == false )
	{
		return CLI_BAD_INPUT;
	}
	if ( fromState != NULL && dump )
	{
		cliError( "--from-state and --dump-contact-system cannot be combined" );
		return CLI_BAD_INPUT;
	}
	cfg.saveStatePath = saveState;

	if ( dump )
	{
		status = cliDumpContactSystem( positional[0], method, duration != NULL ? &cfg.duration : NULL );
		if ( status != CLI_OK ||
			 ( csv == NULL && record == NULL && jointsCsv == NULL && stats == false && hash == false ) )
		{
			return status;
		}
	}

	// FOSSSim scenes carry force elements (springs, wind) applied before every step
	cnFosssimScene* fosssim = NULL;
	cnScene* scene = cliLoadRunScene( positional[0], method, &fosssim );
	if ( scene == NULL )
	{
		return CLI_BAD_INPUT;
	}
	if ( fosssim != NULL && cnFosssim_HasForceElements( fosssim ) )
	{
		cfg.beforeStep = cliApplyFosssimForces;
		cfg.beforeStepContext = fosssim;
	}
	if ( duration == NULL )
	{
		cfg.duration = scene->duration;
	}
	if ( fromState != NULL )
	{
		status = cliReplaceWorld( scene, fromState, method, &cfg.duration );
		if ( status != CLI_OK )
		{
			cliDestroyRunScene( scene, fosssim );
			return status;
		}
	}
	// on the world that runs (the snapshot's, with --from-state: it has one worker until told)
	if ( onInstability != NULL )
	{
		cnWorld_SetInstabilityAction( scene->world, action );
	}
	if ( workerCount > 0 && cnWorld_SetWorkerCount( scene->world, (int)workerCount ) == false )
	{
		cliError( "--workers %lld: %s", workerCount, cnGetError() );
		cliDestroyRunScene( scene, fosssim );
		return CLI_FAILURE;
	}
	if ( cfg.saveStateAt > cfg.duration + 1e-12 * ( 1.0 + cfg.duration ) )
	{
		cliError( "--at %.9g is after the run's end (t = %.9g s)", cfg.saveStateAt, cfg.duration );
		cliDestroyRunScene( scene, fosssim );
		return CLI_BAD_INPUT;
	}
	if ( fromState != NULL )
	{
		// the run loop's duration counts from the world's time
		cfg.duration -= cnWorld_GetTime( scene->world );
	}
	if ( fps == NULL )
	{
		cfg.fps = scene->fps;
	}
	cfg.csvPath = csv;
	cfg.recordPath = record;
	cfg.jointsCsvPath = jointsCsv;
	cfg.stats = stats;
	cfg.hash = hash;
	cfg.quiet = quiet;

	cnRunResult result;
	status = cliSimulate( scene, &cfg, &result );
	cliDestroyRunScene( scene, fosssim );
	return status;
}
