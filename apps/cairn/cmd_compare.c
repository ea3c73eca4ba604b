// SPDX-License-Identifier: MIT
// `cairn compare SCENE --methods a,b,...`: runs one scene once per contact method, each from a
// fresh load, and prints a table of energy drift, momentum drift, penetration, contact counts and
// cost per step; writes an SVG plot of the total energy over time and a CSV of the sampled series.
// The stepping is the library's run loop (cnRun) with the steps of `cairn run`, sampled after every
// step.
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "svg_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cliCompareHelp[] =
	"usage: cairn compare SCENE.json|SCENE.xml [--methods M1,M2,...] [--duration T]\n"
	"                     [--time-limit S] [--svg FILE] [--csv FILE]\n"
	"\n"
	"Runs the scene once per contact method, each time freshly loaded with its \"method\"\n"
	"replaced, and prints one row per method:\n"
	"  steps      steps taken (the steps of 'cairn run': k = ceil((1/fps) / timestep) steps\n"
	"             of (1/fps) / k seconds per frame); the state is sampled after every step\n"
	"  E drift    max |E(t) - E(0)| / |E(0)|, E = kinetic + gravitational potential energy\n"
	"             (potential zero at z = 0 for gravity along -z)\n"
	"  E end      (E(T) - E(0)) / |E(0)|: < 0 energy lost, > 0 energy gained\n"
	"  P drift    max |P(t) - P(0)| / S of the linear momentum P across gravity, S = sum m|v(0)|\n"
	"             + sum m|g|T (the momentum the start velocities and gravity account for)\n"
	"  max pen    deepest overlap of touching shapes, metres\n"
	"  contacts   touching contact manifolds per step (mean); points: their points per step\n"
	"  ms/step    wall milliseconds per step\n"
	"  status     ok (with the number of gr fallbacks, islands whose reflections did not\n"
	"             finish and took one inelastic response, and of friction fallbacks, contact\n"
	"             sets whose friction LCP had no solution and went frictionless for a step, when\n"
	"             there were any); the step's error message when a step failed (the other methods\n"
	"             still run); or where a method stopped at the time limit (its measures\n"
	"             cover the steps it took)\n"
	"\n"
	"options:\n"
	"  --methods LIST  comma-separated contact methods, or 'all' (the default); known:\n"
	"                  impulse, lcp, velocity-projection, gr-lcp, gr-velocity-projection,\n"
	"                  penalty, analytic-impulse, constraint\n"
	"  --duration T    simulated seconds (default: the scene's \"duration\")\n"
	"  --time-limit S  wall seconds each method may run (default 300; 0: no limit); a method\n"
	"                  still running then stops after its current step\n"
	"  --svg FILE      plot E(t) of every method (one line each, with a legend) as SVG\n"
	"  --csv FILE      write every sample: method,time,kinetic,potential,energy,\n"
	"                  momentum_x,momentum_y,momentum_z,penetration,touching,manifold_points\n"
	"  -h, --help      show this help\n"
	"\n"
	"exit status: 0 every method ran to the end, 1 a method failed (the table and the files\n"
	"are still written) or a file cannot be written, 2 bad input (unknown method, bad value,\n"
	"scene error), 130 interrupted. Files are written as FILE.tmp and renamed at the end.\n"
	"\n"
	"example:\n"
	"  cairn compare scenes/can_toss.json --methods impulse,lcp,penalty --svg energy.svg\n";

// samples kept for the plot and the CSV per method; longer runs keep every n-th one (the table
// still uses every step)
#define CMP_MAX_SERIES 1000000

// One sample of the state, taken at t = 0 and after steps.
typedef struct cmpSample
{
	double time;
	double kinetic;
	double potential;
	cnVec3 momentum;
	double penetration;
	int touching;
	int points;
} cmpSample;

// One method's run: the kept series and the running measures of the table.
typedef struct cmpRun
{
	cnMethod method;
	cmpSample* series;
	int seriesCount;
	int seriesCapacity;
	int64_t stride;

	int64_t steps;
	double wallSeconds;
	bool failed;
	// stopped at the time limit before the end (not a failure: the measures cover the steps taken)
	bool stopped;
	char error[600];
	// gr-* islands that fell back to one inelastic response (cnStats.grFallbackCount)
	int64_t grFallbacks;
	// contact sets that lost their friction for a step (cnStats.frictionFallbackCount)
	int64_t frictionFallbacks;

	// reference values at t = 0
	double energy0;
	cnVec3 momentum0;
	double momentumScale;

	// running measures
	double maxEnergyChange;
	double lastEnergyChange;
	double maxMomentumChange;
	double maxPenetration;
	double touchingSum;
	double pointsSum;
} cmpRun;

// The part of v across gravity: v - (v.u) u with u the unit gravity direction (all of v without
// gravity), because gravity and the supports along it change the momentum along it physically.
static cnVec3 cmpAcrossGravity( cnVec3 v, cnVec3 gravity )
{
	double g = cnLength( gravity );
	if ( g == 0.0 )
	{
		return v;
	}
	cnVec3 u = cnMulSV( 1.0 / g, gravity );
	return cnSub( v, cnMulSV( cnDot( v, u ), u ) );
}

static cmpSample cmpTakeSample( const cnWorld* world )
{
	cmpSample s;
	cnStats stats = cnWorld_GetStats( world );
	s.time = cnWorld_GetTime( world );
	s.kinetic = cnWorld_GetKineticEnergy( world );
	s.potential = cnWorld_GetPotentialEnergy( world );
	s.momentum = cnWorld_GetLinearMomentum( world );
	s.penetration = cnWorld_GetMaxPenetration( world );
	s.touching = stats.touchingCount;
	s.points = stats.manifoldPointCount;
	return s;
}

// Keeps every stride-th sample (and always the last one, see cmpRun_Finish) for the outputs.
static bool cmpRun_Keep( cmpRun* run, const cmpSample* s )
{
	if ( run->seriesCount == run->seriesCapacity )
	{
		int capacity = run->seriesCapacity > 0 ? 2 * run->seriesCapacity : 1024;
		cmpSample* bigger = realloc( run->series, (size_t)capacity * sizeof( cmpSample ) );
		if ( bigger == NULL )
		{
			cliError( "out of memory" );
			return false;
		}
		run->series = bigger;
		run->seriesCapacity = capacity;
	}
	run->series[run->seriesCount++] = *s;
	return true;
}

// The sample at t = 0 fixes the references; the momentum scale is sum m|v(0)| + sum m s |g| T
// over the dynamic bodies (s: gravity scale), never below a tiny floor.
static void cmpRun_Start( cmpRun* run, const cnWorld* world, const cmpSample* s, double duration )
{
	double scale = 0.0;
	double g = cnLength( cnWorld_GetGravity( world ) );
	int count = cnWorld_GetBodyCount( world );
	for ( int i = 0; i < count; ++i )
	{
		cnBodyId id = cnWorld_GetBody( world, i );
		if ( cnBody_GetType( world, id ) != cnBody_dynamic )
		{
			continue;
		}
		double m = cnBody_GetMass( world, id );
		scale += m * cnLength( cnBody_GetLinearVelocity( world, id ) );
		scale += m * fabs( cnBody_GetGravityScale( world, id ) ) * g * duration;
	}
	run->energy0 = s->kinetic + s->potential;
	run->momentum0 = cmpAcrossGravity( s->momentum, cnWorld_GetGravity( world ) );
	run->momentumScale = scale;
}

// Folds a sample taken after a step into the running measures.
static void cmpRun_Add( cmpRun* run, const cnWorld* world, const cmpSample* s )
{
	double dE = s->kinetic + s->potential - run->energy0;
	run->lastEnergyChange = dE;
	run->maxEnergyChange = fmax( run->maxEnergyChange, fabs( dE ) );
	cnVec3 p = cmpAcrossGravity( s->momentum, cnWorld_GetGravity( world ) );
	run->maxMomentumChange = fmax( run->maxMomentumChange, cnLength( cnSub( p, run->momentum0 ) ) );
	run->maxPenetration = fmax( run->maxPenetration, s->penetration );
	run->touchingSum += s->touching;
	run->pointsSum += s->points;
}

// What the run loop's callbacks of one method's run share.
typedef struct cmpRunContext
{
	cmpRun* run;
	double duration;
	double timeLimit;
	int64_t stepCount;
	cmpSample last;
	bool keptLast;
	bool outOfMemory;
	cliProgress progress;
} cmpRunContext;

// After every step: fold a sample into the measures, keep every stride-th, stop at the time limit.
static bool cmpAfterStep( cnWorld* world, void* context )
{
	cmpRunContext* c = context;
	cmpRun* run = c->run;
	run->steps += 1;
	run->wallSeconds += 1e-3 * cnWorld_GetStats( world ).stepMs;
	c->last = cmpTakeSample( world );
	cmpRun_Add( run, world, &c->last );
	c->keptLast = run->steps % run->stride == 0;
	if ( c->keptLast && cmpRun_Keep( run, &c->last ) == false )
	{
		c->outOfMemory = true;
		return false;
	}
	if ( c->timeLimit > 0.0 && run->wallSeconds > c->timeLimit && run->steps < c->stepCount )
	{
		run->stopped = true;
		snprintf( run->error, sizeof( run->error ), "stopped at t = %.9g s: time limit of %g s reached", c->last.time,
				  c->timeLimit );
		return false;
	}
	return true;
}

static void cmpDrawProgress( const cnRunProgress* p, void* context )
{
	cliDrawProgress( p, &( (cmpRunContext*)context )->progress );
}

// Runs one method from a fresh load of the scene with the steps of `cairn run` (the library's run
// loop, without writers). Returns CLI_OK (also when the method failed: run->failed says so),
// CLI_INTERRUPTED or CLI_FAILURE (out of memory).
static int cmpRunMethod( const char* path, cmpRun* run, double duration, int64_t stepCount, double timeLimit )
{
	cnScene* scene = cliLoadScene( path, cnMethod_GetName( run->method ) );
	if ( scene == NULL )
	{
		// cliLoadScene printed the loader's message
		run->failed = true;
		snprintf( run->error, sizeof( run->error ), "the scene does not load with this method (see above)" );
		return CLI_OK;
	}
	cnWorld* world = scene->world;

	cmpRunContext c = { 0 };
	c.run = run;
	c.duration = duration;
	c.timeLimit = timeLimit;
	c.stepCount = stepCount;
	c.keptLast = true;
	c.progress.enabled = isatty( fileno( stderr ) ) != 0;
	c.progress.label = cnMethod_GetName( run->method );

	run->stride = stepCount / CMP_MAX_SERIES + 1;
	c.last = cmpTakeSample( world );
	cmpRun_Start( run, world, &c.last, duration );
	if ( cmpRun_Keep( run, &c.last ) == false )
	{
		cnDestroyScene( scene );
		return CLI_FAILURE;
	}

	cnRunDef def = cnScene_GetRunDef( scene );
	def.duration = duration;
	def.afterStep = cmpAfterStep;
	def.progress = c.progress.enabled ? cmpDrawProgress : NULL;
	def.progressInterval = 0.2;
	def.context = &c;
	cliCatchInterrupts( world );
	cnRunResult result = cnRun( world, &def );
	bool interrupted = cliReleaseInterrupts();
	cliEraseProgress( &c.progress );

	int status = CLI_OK;
	if ( interrupted || result.status == cnRun_cancelled )
	{
		status = CLI_INTERRUPTED;
	}
	else if ( c.outOfMemory )
	{
		status = CLI_FAILURE;
	}
	else if ( result.status == cnRun_failed )
	{
		run->failed = true;
		cliError( "%s: step failed at t = %.9g s: %s", scene->path, cnWorld_GetTime( world ), cnGetError() );
		snprintf( run->error, sizeof( run->error ), "failed at t = %.9g s: %s", cnWorld_GetTime( world ), cnGetError() );
	}
	if ( status == CLI_OK && c.keptLast == false )
	{
		// the series always ends at the last state reached
		status = cmpRun_Keep( run, &c.last ) ? CLI_OK : CLI_FAILURE;
	}
	run->grFallbacks = cnWorld_GetStats( world ).grFallbackCount;
	run->frictionFallbacks = cnWorld_GetStats( world ).frictionFallbackCount;
	cnDestroyScene( scene );
	return status;
}

// ---------------------------------------------------------------------------------------------
// the table

static void cmpPrintHeader( void )
{
	printf( "%-22s %8s %10s %10s %10s %10s %9s %9s %9s  %s\n", "method", "steps", "E drift", "E end", "P drift",
			"max pen", "contacts", "points", "ms/step", "status" );
}

static void cmpPrintRow( const cmpRun* run )
{
	if ( run->failed )
	{
		printf( "%-22s %8lld %10s %10s %10s %10s %9s %9s %9s  %s\n", cnMethod_GetName( run->method ),
				(long long)run->steps, "-", "-", "-", "-", "-", "-", "-", run->error );
		fflush( stdout );
		return;
	}
	// relative to |E(0)|, with a floor so a scene that starts at zero energy still gives numbers
	double energyScale = fmax( fabs( run->energy0 ), 1e-12 );
	double momentumScale = fmax( run->momentumScale, 1e-12 );
	double n = run->steps > 0 ? (double)run->steps : 1.0;
	char ms[32];
	if ( run->steps > 0 )
	{
		snprintf( ms, sizeof( ms ), "%9.4f", 1000.0 * run->wallSeconds / n );
	}
	else
	{
		snprintf( ms, sizeof( ms ), "%9s", "-" );
	}
	char status[700];
	snprintf( status, sizeof( status ), "%s", run->stopped ? run->error : "ok" );
	if ( run->grFallbacks > 0 )
	{
		size_t used = strlen( status );
		snprintf( status + used, sizeof( status ) - used, " (%lld gr fallbacks)", (long long)run->grFallbacks );
	}
	if ( run->frictionFallbacks > 0 )
	{
		size_t used = strlen( status );
		snprintf( status + used, sizeof( status ) - used, " (%lld friction fallbacks)",
				  (long long)run->frictionFallbacks );
	}
	printf( "%-22s %8lld %10.3e %10.3e %10.3e %10.3e %9.2f %9.2f %s  %s\n", cnMethod_GetName( run->method ),
			(long long)run->steps, run->maxEnergyChange / energyScale, run->lastEnergyChange / energyScale,
			run->maxMomentumChange / momentumScale, run->maxPenetration, run->touchingSum / n, run->pointsSum / n, ms,
			status );
	fflush( stdout );
}

// ---------------------------------------------------------------------------------------------
// the SVG plot

// The energy E = kinetic + potential of a run's samples over time, for the plotter.
static void cmpEnergyPoint( const void* data, int i, double* x, double* y )
{
	const cmpSample* s = ( (const cmpRun*)data )->series + i;
	*x = s->time;
	*y = s->kinetic + s->potential;
}

// One line per method, with a legend, on one panel (svg_plot.c).
static void cmpWriteSvg( FILE* file, const char* title, const cmpRun* runs, int runCount, double duration )
{
	svgSeries series[cnMethod_count];
	char labels[cnMethod_count][64];
	for ( int r = 0; r < runCount; ++r )
	{
		snprintf( labels[r], sizeof( labels[r] ), "%s%s", cnMethod_GetName( runs[r].method ),
				  runs[r].failed ? " (failed)" : "" );
		series[r] = ( svgSeries ){ labels[r], 0, runs[r].seriesCount, cmpEnergyPoint, runs + r };
	}
	const svgPanel panel = { "E = kinetic + potential (J)" };
	svgPlot plot = { 0 };
	plot.title = title;
	plot.xLabel = "time (s)";
	plot.xMin = 0.0;
	plot.xMax = duration;
	plot.panels = &panel;
	plot.panelCount = 1;
	plot.series = series;
	plot.seriesCount = runCount;
	svgWritePlot( file, &plot );
}

// ---------------------------------------------------------------------------------------------
// the CSV

static void cmpWriteCsv( FILE* file, const cmpRun* runs, int runCount )
{
	fputs( "method,time,kinetic,potential,energy,momentum_x,momentum_y,momentum_z,penetration,touching,"
		   "manifold_points\n",
		   file );
	for ( int r = 0; r < runCount; ++r )
	{
		const char* name = cnMethod_GetName( runs[r].method );
		for ( int i = 0; i < runs[r].seriesCount; ++i )
		{
			const cmpSample* s = runs[r].series + i;
			fprintf( file, "%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d\n", name, s->time, s->kinetic,
					 s->potential, s->kinetic + s->potential, s->momentum.x, s->momentum.y, s->momentum.z,
					 s->penetration, s->touching, s->points );
		}
	}
}

// ---------------------------------------------------------------------------------------------
// output files, written as FILE.tmp and renamed when complete (libcairn_io's output files)

// Writes the requested files; false after printing an error. Both are written before either is
// committed, so a failure of the second leaves no new first file behind either.
static bool cmpWriteOutputs( const char* svgPath, const char* csvPath, const char* title, const cmpRun* runs,
							 int runCount, double duration )
{
	const char* paths[2] = { svgPath, csvPath };
	cnOutputFile* outs[2] = { NULL, NULL };
	bool ok = true;
	for ( int i = 0; i < 2 && ok; ++i )
	{
		if ( paths[i] == NULL )
		{
			continue;
		}
		outs[i] = cnCreateOutputFile( paths[i] );
		ok = outs[i] != NULL;
		if ( ok && i == 0 )
		{
			cmpWriteSvg( cnOutputFile_GetStream( outs[i] ), title, runs, runCount, duration );
		}
		else if ( ok )
		{
			cmpWriteCsv( cnOutputFile_GetStream( outs[i] ), runs, runCount );
		}
	}
	for ( int i = 0; i < 2 && ok; ++i )
	{
		if ( outs[i] != NULL && ( ok = cnOutputFile_Commit( outs[i] ) ) == true )
		{
			printf( "wrote %s\n", paths[i] );
		}
	}
	if ( ok == false )
	{
		cliError( "%s", cnGetError() );
	}
	for ( int i = 0; i < 2; ++i )
	{
		cnDestroyOutputFile( outs[i] );
	}
	return ok;
}

// ---------------------------------------------------------------------------------------------
// the command

// Parses "a,b,c" (spaces around names allowed) or "all" into methods; returns the count, or -1
// after printing an error.
static int cmpParseMethods( const char* text, cnMethod methods[cnMethod_count] )
{
	const char* p = text;
	while ( *p == ' ' )
	{
		++p;
	}
	if ( strncmp( p, "all", 3 ) == 0 && strspn( p + 3, " " ) == strlen( p + 3 ) )
	{
		for ( int i = 0; i < cnMethod_count; ++i )
		{
			methods[i] = (cnMethod)i;
		}
		return cnMethod_count;
	}

	int count = 0;
	const char* item = text;
	for ( ;; )
	{
		const char* end = strchr( item, ',' );
		size_t length = end != NULL ? (size_t)( end - item ) : strlen( item );
		while ( length > 0 && *item == ' ' )
		{
			++item;
			--length;
		}
		while ( length > 0 && item[length - 1] == ' ' )
		{
			--length;
		}
		char name[64];
		if ( length == 0 || length >= sizeof( name ) )
		{
			cliError( "--methods: '%s' is not a comma-separated list of methods (known: %s)", text, cnMethod_GetNameList() );
			return -1;
		}
		memcpy( name, item, length );
		name[length] = 0;
		cnMethod method;
		if ( cnMethod_FromName( name, &method ) == false )
		{
			cliError( "--methods: unknown contact method '%s' (known: %s)", name, cnMethod_GetNameList() );
			return -1;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( methods[i] == method )
			{
				cliError( "--methods: '%s' is given twice", name );
				return -1;
			}
		}
		// cnMethod_count distinct names fill the array; a further one is a repeat, caught above
		methods[count++] = method;
		if ( end == NULL )
		{
			return count;
		}
		item = end + 1;
	}
}

int cliCompareMain( int argc, char** argv )
{
	const char *methodsText = NULL, *durationText = NULL, *svgPath = NULL, *csvPath = NULL, *limitText = NULL;
	const cliOption options[] = {
		{ "--methods", &methodsText, NULL },
		{ "--duration", &durationText, NULL },
		{ "--time-limit", &limitText, NULL },
		{ "--svg", &svgPath, NULL },
		{ "--csv", &csvPath, NULL },
	};
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, (int)( sizeof( options ) / sizeof( options[0] ) ), positional, 1,
						   &positionalCount, cliCompareHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( positionalCount != 1 )
	{
		cliError( "cairn compare: no scene file given (see 'cairn compare --help')" );
		return CLI_BAD_INPUT;
	}

	// check every option before running anything
	cnMethod methods[cnMethod_count];
	int methodCount = cmpParseMethods( methodsText != NULL ? methodsText : "all", methods );
	if ( methodCount < 0 )
	{
		return CLI_BAD_INPUT;
	}
	double duration = 0.0;
	if ( durationText != NULL && cliParseDouble( "--duration", durationText, 0.0, true, &duration ) == false )
	{
		return CLI_BAD_INPUT;
	}
	// a method as slow as penalty on the 1240-box pyramid would otherwise run for hours
	double timeLimit = 300.0;
	if ( limitText != NULL && cliParseDouble( "--time-limit", limitText, 0.0, true, &timeLimit ) == false )
	{
		return CLI_BAD_INPUT;
	}
	if ( ( svgPath != NULL && svgPath[0] == 0 ) || ( csvPath != NULL && csvPath[0] == 0 ) )
	{
		cliError( "--svg and --csv need a file name" );
		return CLI_BAD_INPUT;
	}
	if ( svgPath != NULL && csvPath != NULL && strcmp( svgPath, csvPath ) == 0 )
	{
		cliError( "--svg and --csv name the same file '%s'", svgPath );
		return CLI_BAD_INPUT;
	}

	// load the scene as written once: its errors are bad input, and it gives the run settings
	cnScene* scene = cliLoadScene( positional[0], NULL );
	if ( scene == NULL )
	{
		return CLI_BAD_INPUT;
	}
	if ( durationText == NULL )
	{
		duration = scene->duration;
	}
	// the steps of `cairn run`: k per frame of 1/fps, over the whole frames in the duration
	double k = fmax( 1.0, ceil( ( 1.0 / scene->fps ) / scene->timeStep - 1e-9 ) );
	double frames = floor( duration * scene->fps + 1e-9 );
	double stepSize = ( 1.0 / scene->fps ) / k;
	double sceneFps = scene->fps;
	char* title = malloc( strlen( scene->name ) + 1 );
	if ( title != NULL )
	{
		strcpy( title, scene->name );
	}
	cnDestroyScene( scene );
	if ( title == NULL )
	{
		cliError( "out of memory" );
		return CLI_FAILURE;
	}
	if ( k * frames > 1e9 )
	{
		cliError( "%s: %.9g s in steps of %.9g s is too many steps", positional[0], duration, stepSize );
		free( title );
		return CLI_BAD_INPUT;
	}
	int64_t stepCount = (int64_t)( k * frames );

	printf( "cairn compare: %s (%s), %.9g s in %lld steps of %.9g s, sampled after every step\n", title,
			positional[0], frames / sceneFps, (long long)stepCount, stepSize );
	printf( "E = kinetic + potential; E drift = max|E(t)-E(0)|/|E(0)|; E end = (E(T)-E(0))/|E(0)|;\n"
			"P drift = max|P(t)-P(0)|/S, P = momentum across gravity, S = sum m|v(0)| + sum m|g|T;\n"
			"max pen = deepest overlap (m); contacts, points = touching manifolds and points per step\n" );
	cmpPrintHeader();
	fflush( stdout );

	cmpRun runs[cnMethod_count];
	memset( runs, 0, sizeof( runs ) );
	bool anyFailed = false;
	status = CLI_OK;
	for ( int i = 0; i < methodCount && status == CLI_OK; ++i )
	{
		runs[i].method = methods[i];
		status = cmpRunMethod( positional[0], runs + i, duration, stepCount, timeLimit );
		if ( status == CLI_OK )
		{
			cmpPrintRow( runs + i );
			anyFailed = anyFailed || runs[i].failed;
		}
	}
	if ( status == CLI_INTERRUPTED )
	{
		cliError( "interrupted; no output written" );
	}
	else if ( status == CLI_OK && cmpWriteOutputs( svgPath, csvPath, title, runs, methodCount, duration ) == false )
	{
		status = CLI_FAILURE;
	}
	for ( int i = 0; i < methodCount; ++i )
	{
		free( runs[i].series );
	}
	free( title );
	if ( status == CLI_OK && anyFailed )
	{
		status = CLI_FAILURE;
	}
	return status;
}
