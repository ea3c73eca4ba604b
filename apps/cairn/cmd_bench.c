// SPDX-License-Identifier: MIT
// `cairn bench`: times the step of a few scenes and prints a table. Timings depend on the
// machine and its load, so nothing here is ever asserted by the tests.
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CAIRN_SOURCE_DIR
#define CAIRN_SOURCE_DIR "."
#endif

const char cliBenchHelp[] =
	"usage: cairn bench [SCENE...] [--steps N] [--repeat R] [--awake] [--workers LIST]\n"
	"\n"
	"Times cnWorld_Step on each scene: loads it and runs its first N steps (the steps of\n"
	"'cairn run', through the library's run loop), R times, each from a freshly loaded\n"
	"scene; prints per scene: bodies, steps, the median and the minimum wall milliseconds\n"
	"per step over the repeats, the average contacts, manifold points and awake bodies per\n"
	"step, and the average milliseconds per step of each stage (broad phase, narrow phase,\n"
	"solve, integrate, finish, islands), then two stability columns in metres, measured\n"
	"as the peers' benchmark programs do (../shared/peers/common.h) in Cairn's Z-up frame:\n"
	"maxdisp, the largest displacement of any dynamic body between its start and the end\n"
	"of the run, and maxhdrift, the largest horizontal (x, y) distance of any dynamic body\n"
	"from its start seen after any step (the largest over the repeats; both matter for\n"
	"stacking scenes such as pyramid and tower10, where nothing should move). Positions\n"
	"are read after each step, outside the timed step. With --workers, one row per scene\n"
	"and worker count, and the speed-up of each row's median over the first count's.\n"
	"\n"
	"SCENE is a file, or a name looked up as DIR/NAME or DIR/NAME.json in the scenes\n"
	"directory DIR = $CAIRN_SCENES if set, else the source tree's scenes/. Default\n"
	"scenes: pyramid fall3000 tower10 can_toss bouncing_balls.\n"
	"\n"
	"options:\n"
	"  --steps N    steps per repeat (default: the scene's duration in steps, at most 500)\n"
	"  --repeat R   repeats per scene (default 3)\n"
	"  --awake      keep every body awake (sleeping off): the cost of a step when\n"
	"               everything moves, as the peers' benchmarks measure it\n"
	"  --workers LIST\n"
	"               worker counts to run each scene at, comma-separated (1 to 64; default:\n"
	"               the scene's \"workers\"), e.g. 1,2\n"
	"  -h, --help   show this help\n"
	"\n"
	"exit status: 0 ok, 1 a step failed, 2 bad option or scene.\n"
	"\n"
	"example:\n"
	"  cairn bench pyramid --steps 200 --repeat 5\n"
	"  cairn bench pyramid --awake --workers 1,2\n";

static bool cliIsFile( const char* path )
{
	struct stat info;
	return stat( path, &info ) == 0 && S_ISREG( info.st_mode );
}

// Resolves a scene argument: the file itself, else DIR/NAME, else DIR/NAME.json.
// Returns a malloc'd path (the argument itself when nothing matched, for the loader's message).
static char* cliResolveScene( const char* arg, const char* directory )
{
	size_t a = strlen( arg ), d = strlen( directory );
	char* path = malloc( a + d + 8 );
	if ( path == NULL )
	{
		return NULL;
	}
	memcpy( path, arg, a + 1 );
	if ( cliIsFile( arg ) || strchr( arg, '/' ) != NULL )
	{
		return path;
	}
	snprintf( path, a + d + 8, "%s/%s", directory, arg );
	if ( cliIsFile( path ) )
	{
		return path;
	}
	snprintf( path, a + d + 8, "%s/%s.json", directory, arg );
	if ( cliIsFile( path ) )
	{
		return path;
	}
	memcpy( path, arg, a + 1 );
	return path;
}

// "1,2,4": worker counts from 1 to CN_MAX_WORKERS, at most CN_MAX_WORKERS of them.
static bool cliParseWorkerList( const char* text, int* workers, int* count )
{
	*count = 0;
	const char* c = text;
	for ( ;; )
	{
		char item[32];
		size_t n = strcspn( c, "," );
		if ( n == 0 || n >= sizeof( item ) || *count == CN_MAX_WORKERS )
		{
			cliError( "--workers: expected worker counts like 1,2,4 (at most %d of them), got '%s'", CN_MAX_WORKERS,
					  text );
			return false;
		}
		memcpy( item, c, n );
		item[n] = 0;
		long long value;
		if ( cliParseInt( "--workers", item, 1, CN_MAX_WORKERS, &value ) == false )
		{
			return false;
		}
		workers[( *count )++] = (int)value;
		if ( c[n] == 0 )
		{
			return true;
		}
		c += n + 1;
	}
}

static int cliCompareDoubles( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : ( x > y ? 1 : 0 );
}

// Averages over every step of every repeat, this repeat's step count and time, and the drift of
// the dynamic bodies from their start (the peers' maxdisp and maxhdrift, Z up).
typedef struct cliBenchSums
{
	double contacts, points, awake;
	double stage[7];
	int64_t steps;
	int64_t repeatSteps;
	int64_t repeatLimit;
	double repeatMs;
	cnBodyId* bodies;
	cnVec3* start;
	int bodyCount;
	double maxDisplacement;
	double maxHorizontalDrift;
} cliBenchSums;

// Records the dynamic bodies and their start positions (bodies and start hold room for every body).
static void cliBenchTrackStart( const cnWorld* world, cliBenchSums* sums )
{
	sums->bodyCount = 0;
	int count = cnWorld_GetBodyCount( world );
	for ( int i = 0; i < count; ++i )
	{
		cnBodyId id = cnWorld_GetBody( world, i );
		if ( cnBody_GetType( world, id ) == cnBody_dynamic )
		{
			sums->bodies[sums->bodyCount] = id;
			sums->start[sums->bodyCount] = cnBody_GetPosition( world, id );
			sums->bodyCount += 1;
		}
	}
}

// The largest horizontal distance from the start over the dynamic bodies now (and, at the end of a
// run, the largest displacement); a body removed during the run no longer counts.
static void cliBenchTrack( const cnWorld* world, cliBenchSums* sums, bool end )
{
	for ( int i = 0; i < sums->bodyCount; ++i )
	{
		if ( cnBody_IsValid( world, sums->bodies[i] ) == false )
		{
			continue;
		}
		cnVec3 p = cnBody_GetPosition( world, sums->bodies[i] );
		double dx = p.x - sums->start[i].x, dy = p.y - sums->start[i].y, dz = p.z - sums->start[i].z;
		double horizontal = sqrt( dx * dx + dy * dy );
		sums->maxHorizontalDrift = horizontal > sums->maxHorizontalDrift ? horizontal : sums->maxHorizontalDrift;
		if ( end )
		{
			double full = sqrt( dx * dx + dy * dy + dz * dz );
			sums->maxDisplacement = full > sums->maxDisplacement ? full : sums->maxDisplacement;
		}
	}
}

// After each step of the run loop: the step's own time (stats.stepMs, the wall time inside
// cnWorld_Step) and its counters; stops after the repeat's steps.
static bool cliBenchAfterStep( cnWorld* world, void* context )
{
	cliBenchSums* sums = context;
	cnStats s = cnWorld_GetStats( world );
	sums->repeatMs += s.stepMs;
	sums->contacts += s.contactCount;
	sums->points += s.manifoldPointCount;
	sums->awake += s.awakeBodyCount;
	sums->stage[0] += s.broadPhaseMs;
	sums->stage[1] += s.narrowPhaseMs;
	sums->stage[2] += s.solveMs;
	sums->stage[3] += s.integrateMs;
	sums->stage[4] += s.finishMs;
	sums->stage[5] += s.islandMs;
	sums->stage[6] += s.continuousMs;
	sums->steps += 1;
	sums->repeatSteps += 1;
	cliBenchTrack( world, sums, false );
	return sums->repeatSteps < sums->repeatLimit;
}

// Times one scene at workers workers (0: the scene's own count); *median is its median ms/step and
// baseline the first worker count's (0 for the first row: speed-up 1).
static int cliBenchScene( const char* path, long long steps, int repeats, int nameWidth, bool awake, int workers,
						  double baseline, double* median )
{
	double* msPerStep = malloc( sizeof( double ) * (size_t)repeats );
	if ( msPerStep == NULL )
	{
		cliError( "out of memory" );
		return CLI_FAILURE;
	}
	cliBenchSums sums = { 0 };
	int bodyCount = 0;
	int workerCount = 1;
	long long stepCount = steps;
	char name[256] = "";
	for ( int r = 0; r < repeats; ++r )
	{
		cnScene* scene = cliLoadScene( path, NULL );
		if ( scene == NULL )
		{
			free( sums.bodies );
			free( sums.start );
			free( msPerStep );
			return CLI_BAD_INPUT;
		}
		snprintf( name, sizeof( name ), "%s", scene->name );
		if ( awake )
		{
			cnWorld_EnableSleeping( scene->world, false );
		}
		if ( workers > 0 && cnWorld_SetWorkerCount( scene->world, workers ) == false )
		{
			cliError( "%s: %s", path, cnGetError() );
			cnDestroyScene( scene );
			free( sums.bodies );
			free( sums.start );
			free( msPerStep );
			return CLI_FAILURE;
		}
		workerCount = cnWorld_GetDef( scene->world ).workerCount;
		bodyCount = cnWorld_GetBodyCount( scene->world );
		if ( r == 0 )
		{
			sums.bodies = malloc( sizeof( cnBodyId ) * (size_t)( bodyCount > 0 ? bodyCount : 1 ) );
			sums.start = malloc( sizeof( cnVec3 ) * (size_t)( bodyCount > 0 ? bodyCount : 1 ) );
			if ( sums.bodies == NULL || sums.start == NULL )
			{
				cliError( "out of memory" );
				cnDestroyScene( scene );
				free( sums.bodies );
				free( sums.start );
				free( msPerStep );
				return CLI_FAILURE;
			}
		}
		cliBenchTrackStart( scene->world, &sums );

		// the steps of `cairn run` (k per frame interval of 1/fps), as many as asked for: by default
		// the scene's whole duration, at most 500
		cnRunDef def = cnScene_GetRunDef( scene );
		double perFrame = fmax( 1.0, ceil( ( 1.0 / def.fps ) / def.maxTimeStep - 1e-9 ) );
		if ( steps <= 0 )
		{
			double sceneSteps = floor( def.duration * def.fps + 1e-9 ) * perFrame;
			stepCount = sceneSteps < 1.0 ? 1 : ( sceneSteps > 500.0 ? 500 : (long long)sceneSteps );
		}
		def.duration = ceil( (double)stepCount / perFrame ) / def.fps;
		def.afterStep = cliBenchAfterStep;
		def.context = &sums;
		sums.repeatSteps = 0;
		sums.repeatLimit = stepCount;
		sums.repeatMs = 0.0;
		cnRunResult result = cnRun( scene->world, &def );
		if ( result.status == cnRun_failed || result.status == cnRun_cancelled )
		{
			cliError( "%s: step %lld failed: %s", path, (long long)sums.repeatSteps, cnGetError() );
			cnDestroyScene( scene );
			free( sums.bodies );
			free( sums.start );
			free( msPerStep );
			return CLI_FAILURE;
		}
		cliBenchTrack( scene->world, &sums, true );
		msPerStep[r] = sums.repeatMs / (double)stepCount;
		cnDestroyScene( scene );
	}
	qsort( msPerStep, (size_t)repeats, sizeof( double ), cliCompareDoubles );
	*median = repeats % 2 == 1 ? msPerStep[repeats / 2]
							   : 0.5 * ( msPerStep[repeats / 2 - 1] + msPerStep[repeats / 2] );
	double n = (double)sums.steps;
	double speedUp = baseline > 0.0 && *median > 0.0 ? baseline / *median : 1.0;
	printf( "%-*s %7d %6lld %7d %9.4f %9.4f %7.2f %9.1f %9.1f %8.1f %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %9.5f "
			"%9.5f\n",
			nameWidth, name, bodyCount, stepCount, workerCount, *median, msPerStep[0], speedUp, sums.contacts / n,
			sums.points / n, sums.awake / n,
			sums.stage[0] / n, sums.stage[1] / n, sums.stage[2] / n, sums.stage[3] / n, sums.stage[6] / n,
			sums.stage[4] / n, sums.stage[5] / n, sums.maxDisplacement, sums.maxHorizontalDrift );
	fflush( stdout );
	free( sums.bodies );
	free( sums.start );
	free( msPerStep );
	return CLI_OK;
}

int cliBenchMain( int argc, char** argv )
{
	const char *stepsText = NULL, *repeatText = NULL, *workersText = NULL;
	bool awake = false;
	const cliOption options[] = { { "--steps", &stepsText, NULL },
								  { "--repeat", &repeatText, NULL },
								  { "--awake", NULL, &awake },
								  { "--workers", &workersText, NULL } };
	enum
	{
		maxScenes = 64
	};
	const char* positional[maxScenes];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, 4, positional, maxScenes, &positionalCount, cliBenchHelp );
	if ( status >= 0 )
	{
		return status;
	}
	long long steps = 0, repeats = 3;
	if ( stepsText != NULL && cliParseInt( "--steps", stepsText, 1, 100000000, &steps ) == false )
	{
		return CLI_BAD_INPUT;
	}
	if ( repeatText != NULL && cliParseInt( "--repeat", repeatText, 1, 1000, &repeats ) == false )
	{
		return CLI_BAD_INPUT;
	}

	// --workers 1,2,4: each count in turn (0: the scene's own)
	int workers[CN_MAX_WORKERS] = { 0 };
	int workerRuns = 1;
	if ( workersText != NULL && cliParseWorkerList( workersText, workers, &workerRuns ) == false )
	{
		return CLI_BAD_INPUT;
	}

	static const char* defaults[] = { "pyramid", "fall3000", "tower10", "can_toss", "bouncing_balls" };
	const char** scenes = positional;
	int sceneCount = positionalCount;
	if ( sceneCount == 0 )
	{
		scenes = defaults;
		sceneCount = (int)( sizeof( defaults ) / sizeof( defaults[0] ) );
	}
	const char* directory = getenv( "CAIRN_SCENES" );
	if ( directory == NULL || directory[0] == 0 )
	{
		directory = CAIRN_SOURCE_DIR "/scenes";
	}

	char* paths[maxScenes];
	int nameWidth = 14;
	for ( int i = 0; i < sceneCount; ++i )
	{
		// widen the name column for long file names (the scene's own name is usually the same)
		const char* base = strrchr( scenes[i], '/' ) != NULL ? strrchr( scenes[i], '/' ) + 1 : scenes[i];
		int length = (int)strlen( base );
		length -= length > 5 && strcmp( base + length - 5, ".json" ) == 0 ? 5 : 0;
		nameWidth = length > nameWidth ? length : nameWidth;
		paths[i] = cliResolveScene( scenes[i], directory );
		if ( paths[i] == NULL )
		{
			cliError( "out of memory" );
			for ( int j = 0; j < i; ++j )
			{
				free( paths[j] );
			}
			return CLI_FAILURE;
		}
	}

	printf( "cairn bench: %lld repeat%s per scene%s; ms/step = wall time of cnWorld_Step (median and minimum over "
			"repeats);\n"
			"contacts, points, awake and the stage columns (ms/step) are averages over all steps;\n"
			"maxdisp (start to end) and maxhdrift (horizontal, after any step) are the largest drift of any\n"
			"dynamic body in metres\n",
			repeats, repeats == 1 ? "" : "s", awake ? ", sleeping off" : "" );
	printf( "%-*s %7s %6s %7s %9s %9s %7s %9s %9s %8s %8s %8s %8s %8s %8s %8s %8s %9s %9s\n", nameWidth, "scene",
			"bodies", "steps", "workers", "median", "min", "speedup", "contacts", "points", "awake", "broad", "narrow",
			"solve", "integr", "contin", "finish", "island", "maxdisp", "maxhdrift" );
	status = CLI_OK;
	for ( int i = 0; i < sceneCount && status == CLI_OK; ++i )
	{
		double baseline = 0.0;
		for ( int k = 0; k < workerRuns && status == CLI_OK; ++k )
		{
			double median = 0.0;
			status = cliBenchScene( paths[i], steps, (int)repeats, nameWidth, awake, workers[k], baseline, &median );
			baseline = k == 0 ? median : baseline;
		}
	}
	for ( int i = 0; i < sceneCount; ++i )
	{
		free( paths[i] );
	}
	return status;
}
