// SPDX-License-Identifier: MIT
// The simulation of `cairn run` and `cairn demo` on the library's run loop (cnRun): output writers
// from libcairn_io limited to chosen bodies and frames, a progress line, Ctrl-C, stats and a hash.
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// interrupts

// the world a signal cancels, and whether one arrived (only the handler writes them, then reads)
static cnWorld* volatile s_interruptWorld = NULL;
static volatile sig_atomic_t s_interrupted = 0;

static void cliOnSignal( int signal )
{
	(void)signal;
	s_interrupted = 1;
	// cnWorld_Cancel is an atomic store: safe here, and the step answers within an internal step
	cnWorld* world = s_interruptWorld;
	if ( world != NULL )
	{
		cnWorld_Cancel( world );
	}
}

void cliCatchInterrupts( cnWorld* world )
{
	s_interrupted = 0;
	s_interruptWorld = world;
	struct sigaction action;
	memset( &action, 0, sizeof( action ) );
	action.sa_handler = cliOnSignal;
	sigemptyset( &action.sa_mask );
	sigaction( SIGINT, &action, NULL );
	sigaction( SIGTERM, &action, NULL );
}

bool cliInterrupted( void )
{
	return s_interrupted != 0;
}

bool cliReleaseInterrupts( void )
{
	signal( SIGINT, SIG_DFL );
	signal( SIGTERM, SIG_DFL );
	s_interruptWorld = NULL;
	return s_interrupted != 0;
}

// ---------------------------------------------------------------------------------------------
// progress

// Formats seconds as m:ss (or h:mm:ss).
static void cliFormatDuration( double seconds, char* text, size_t size )
{
	long s = seconds > 0.0 && seconds < 1e9 ? (long)( seconds + 0.5 ) : 0;
	if ( s >= 3600 )
	{
		snprintf( text, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60 );
	}
	else
	{
		snprintf( text, size, "%ld:%02ld", s / 60, s % 60 );
	}
}

void cliDrawProgress( const cnRunProgress* p, void* context )
{
	cliProgress* progress = context;
	// short runs finish before a line would help, so it appears only after a second
	if ( progress->enabled == false || p->done || p->wallSeconds < 1.0 )
	{
		return;
	}
	double span = p->endTime - p->startTime;
	double fraction = span > 0.0 ? ( p->time - p->startTime ) / span : 1.0;
	fraction = fraction < 0.0 ? 0.0 : ( fraction > 1.0 ? 1.0 : fraction );
	enum
	{
		barWidth = 24
	};
	char bar[barWidth + 1];
	int filled = (int)( fraction * barWidth );
	for ( int i = 0; i < barWidth; ++i )
	{
		bar[i] = i < filled ? '#' : '-';
	}
	bar[barWidth] = 0;
	char left[32];
	cliFormatDuration( p->secondsLeft, left, sizeof( left ) );
	// simulated seconds per wall second say how far from real time the run is
	double speed = p->wallSeconds > 0.0 ? ( p->time - p->startTime ) / p->wallSeconds : 0.0;
	int width = fprintf( stderr, "\r%s%s[%s] %3d%%  t = %.2f / %.2f s  %.0f steps/s  %.3gx real time  %s left  ",
						 progress->label != NULL ? progress->label : "", progress->label != NULL ? ": " : "", bar,
						 (int)( 100.0 * fraction ), p->time, p->endTime, p->stepsPerSecond, speed, left );
	if ( width > progress->drawnWidth )
	{
		progress->drawnWidth = width;
	}
	fflush( stderr );
}

void cliEraseProgress( cliProgress* progress )
{
	if ( progress->drawnWidth > 0 )
	{
		fprintf( stderr, "\r%*s\r", progress->drawnWidth, "" );
		fflush( stderr );
		progress->drawnWidth = 0;
	}
}

// ---------------------------------------------------------------------------------------------
// stats

enum
{
	cliStageCount = 10,
	cliCounterCount = 7,
};

// Sums of the per-step stats, for averages, and the before-step hook of the caller.
// joint breaks a run lists by name (more are counted)
#define CLI_MAX_BREAKS 16
// bodies and kinds of instability a run warns about, once each (more are counted)
#define CLI_MAX_INSTABILITY_WARNINGS 32

typedef struct cliRunState
{
	const cliRunConfig* cfg;
	cliProgress progress;
	double stage[cliStageCount];
	double counter[cliCounterCount];
	int64_t steps;
	// the joints that broke, printed after the run (the first CLI_MAX_BREAKS of them)
	cnJointBreak breaks[CLI_MAX_BREAKS];
	char breakNames[CLI_MAX_BREAKS][64];
	int breakCount;
	// the instability guard's warnings (warn, freeze-body): how many the world had counted at the last
	// look, and each (body index, kind) warned about
	const char* path;
	int64_t instabilitiesSeen;
	int warned[CLI_MAX_INSTABILITY_WARNINGS][2];
	int warnedCount;
	// --save-state: written once; a failed write stops the run
	bool stateSaved;
	bool stateFailed;
} cliRunState;

static void cliStatCounters( const cnStats* s, double counter[cliCounterCount] )
{
	counter[0] = s->bodyCount;
	counter[1] = s->awakeBodyCount;
	counter[2] = s->pairCount;
	counter[3] = s->contactCount;
	counter[4] = s->touchingCount;
	counter[5] = s->manifoldPointCount;
	counter[6] = s->islandCount;
}

// Keeps the joints that broke in the last step, to list after the run.
static void cliCollectBreaks( cnWorld* world, cliRunState* state )
{
	int count = 0;
	const cnJointBreak* breaks = cnWorld_GetJointBreaks( world, &count );
	for ( int i = 0; i < count; ++i, ++state->breakCount )
	{
		if ( state->breakCount < CLI_MAX_BREAKS )
		{
			state->breaks[state->breakCount] = breaks[i];
			const char* name = cnJoint_GetName( world, breaks[i].joint );
			snprintf( state->breakNames[state->breakCount], sizeof( state->breakNames[0] ), "%s",
					  name != NULL && name[0] != '\0' ? name : "(unnamed)" );
		}
	}
}

// Warns on stderr about an instability the guard found and let the run go on (warn, freeze-body):
// once per body and kind, not at every step it lasts.
static void cliWarnInstability( cnWorld* world, cliRunState* state )
{
	cnStats s = cnWorld_GetStats( world );
	if ( s.instabilityCount == state->instabilitiesSeen )
	{
		return;
	}
	state->instabilitiesSeen = s.instabilityCount;
	cnInstabilityReport report = cnWorld_GetInstabilityReport( world );
	for ( int i = 0; i < state->warnedCount && i < CLI_MAX_INSTABILITY_WARNINGS; ++i )
	{
		if ( state->warned[i][0] == report.body.index && state->warned[i][1] == (int)report.kind )
		{
			return;
		}
	}
	if ( state->warnedCount > CLI_MAX_INSTABILITY_WARNINGS )
	{
		return;
	}
	cliEraseProgress( &state->progress );
	if ( state->warnedCount == CLI_MAX_INSTABILITY_WARNINGS )
	{
		state->warnedCount += 1;
		fprintf( stderr, "cairn: warning: %s: more bodies went unstable: the rest are not warned about (--stats counts them)\n",
				 state->path );
		return;
	}
	state->warned[state->warnedCount][0] = report.body.index;
	state->warned[state->warnedCount][1] = (int)report.kind;
	state->warnedCount += 1;
	fprintf( stderr, "cairn: warning: %s: unstable (%s): %s\n", state->path, cnInstabilityAction_GetName( report.action ),
			 report.message );
}

// --save-state --at T: the snapshot at the end of the first step that reaches T (a relative 1e-12
// allows for the rounding of the summed step sizes, so T on a frame time saves at that frame).
static bool cliSaveStateAt( cnWorld* world, cliRunState* state )
{
	const cliRunConfig* cfg = state->cfg;
	double at = cfg->saveStateAt;
	if ( cfg->saveStatePath == NULL || at < 0.0 || state->stateSaved ||
		 cnWorld_GetTime( world ) < at - 1e-12 * ( 1.0 + fabs( at ) ) )
	{
		return true;
	}
	state->stateSaved = true;
	if ( cnSaveSnapshot( world, cfg->saveStatePath ) == false )
	{
		state->stateFailed = true;
		return false;
	}
	return true;
}

static bool cliAfterStep( cnWorld* world, void* context )
{
	cliRunState* state = context;
	if ( cliSaveStateAt( world, state ) == false )
	{
		return false;
	}
	cliCollectBreaks( world, state );
	cliWarnInstability( world, state );
	if ( state->cfg->stats == false )
	{
		return true;
	}
	cnStats s = cnWorld_GetStats( world );
	double stage[cliStageCount] = { s.forcesMs,	  s.broadPhaseMs, s.narrowPhaseMs, s.solveMs, s.integrateMs,
									s.continuousMs, s.finishMs,	  s.islandMs,	   s.guardMs, s.stepMs };
	double counter[cliCounterCount];
	cliStatCounters( &s, counter );
	for ( int i = 0; i < cliStageCount; ++i )
	{
		state->stage[i] += stage[i];
	}
	for ( int i = 0; i < cliCounterCount; ++i )
	{
		state->counter[i] += counter[i];
	}
	state->steps += 1;
	return true;
}

static void cliRunProgress( const cnRunProgress* p, void* context )
{
	cliDrawProgress( p, &( (cliRunState*)context )->progress );
}

static bool cliBeforeStep( cnWorld* world, void* context )
{
	cliRunState* state = context;
	if ( state->cfg->beforeStep( world, state->cfg->beforeStepContext ) )
	{
		return true;
	}
	return cnSetError( cnError_stepFailed, "applying forces failed: %s", cnGetError() );
}

static void cliPrintStats( const cliRunState* state, const cnWorld* world, double stepSize, double wallSeconds )
{
	static const char* stageNames[cliStageCount] = { "forces",	  "broad phase", "narrow phase", "solve", "integrate",
													 "continuous", "finish",	  "islands",	  "guard", "total" };
	static const char* counterNames[cliCounterCount] = { "bodies",	 "awake bodies",	"pairs",  "contacts",
														 "touching", "manifold points", "islands" };
	double n = state->steps > 0 ? (double)state->steps : 1.0;
	cnWorldDef def = cnWorld_GetDef( world );
	printf( "stats: %lld steps of %.9g s, method %s", (long long)state->steps, stepSize, cnMethod_GetName( def.method ) );
	if ( cnMethod_GetFlags( def.method ) & cnMethodFlag_subSteps )
	{
		printf( " with %d sub-steps", def.settings.impulse.subSteps );
	}
	printf( ", %.3f s wall\n", wallSeconds );
	printf( "  %-16s %10s\n", "stage", "ms/step" );
	for ( int i = 0; i < cliStageCount; ++i )
	{
		printf( "  %-16s %10.4f\n", stageNames[i], state->stage[i] / n );
	}
	cnStats last = cnWorld_GetStats( world );
	double final[cliCounterCount];
	cliStatCounters( &last, final );
	printf( "  %-16s %10s %10s\n", "counter", "final", "mean" );
	for ( int i = 0; i < cliCounterCount; ++i )
	{
		printf( "  %-16s %10.0f %10.1f\n", counterNames[i], final[i], state->counter[i] / n );
	}
	if ( last.frictionFallbackCount > 0 )
	{
		printf( "  %-16s %10lld  (contact sets whose friction LCP had no solution: frictionless that step)\n",
				"friction fallbk", (long long)last.frictionFallbackCount );
	}
	if ( last.compliantFallbackCount > 0 )
	{
		printf( "  %-16s %10lld  (contact sets whose LCP had no rigid solution: solved with A + eps I)\n",
				"compliant fallbk", (long long)last.compliantFallbackCount );
	}
	if ( last.grFallbackCount > 0 )
	{
		printf( "  %-16s %10lld  (islands whose reflections did not finish: solved once, inelastically)\n",
				"gr fallbacks", (long long)last.grFallbackCount );
	}
	if ( last.instabilityCount > 0 )
	{
		cnInstabilityReport report = cnWorld_GetInstabilityReport( world );
		printf( "  %-16s %10lld  (bodies found non-finite or too fast, and energy jumps; on_instability %s)\n",
				"instabilities", (long long)last.instabilityCount, cnInstabilityAction_GetName( def.onInstability ) );
		printf( "  %-16s %10lld  (bodies the guard stopped and put to sleep)\n", "frozen bodies",
				(long long)last.frozenBodyCount );
		printf( "  last instability: %s\n", report.message );
	}
}

// ---------------------------------------------------------------------------------------------
// outputs

// Resolves "--bodies a,b,c" into ids; prints a message and returns -1 for an unknown name.
static int cliSelectBodies( const cnScene* scene, const char* names, cnBodyId** ids )
{
	int capacity = 1;
	for ( const char* c = names; *c != 0; ++c )
	{
		capacity += *c == ',';
	}
	*ids = malloc( sizeof( cnBodyId ) * (size_t)capacity );
	char* copy = malloc( strlen( names ) + 1 );
	if ( *ids == NULL || copy == NULL )
	{
		free( copy );
		cliError( "out of memory" );
		return -1;
	}
	strcpy( copy, names );
	int count = 0;
	for ( char* name = copy; name != NULL; )
	{
		char* comma = strchr( name, ',' );
		if ( comma != NULL )
		{
			*comma = 0;
		}
		cnBodyId id = cnWorld_FindBody( scene->world, name );
		if ( id.index < 0 )
		{
			cliError( "--bodies: %s has no body named '%s'", scene->path, name );
			free( copy );
			return -1;
		}
		( *ids )[count++] = id;
		name = comma != NULL ? comma + 1 : NULL;
	}
	free( copy );
	return count;
}

int cliSimulate( cnScene* scene, const cliRunConfig* cfg, cnRunResult* result )
{
	cnWorld* world = scene->world;
	memset( result, 0, sizeof( *result ) );
	if ( cfg->csvPath != NULL && cfg->recordPath != NULL && strcmp( cfg->csvPath, cfg->recordPath ) == 0 )
	{
		cliError( "--csv and --record name the same file '%s'", cfg->csvPath );
		return CLI_BAD_INPUT;
	}
	const char* others[2] = { cfg->csvPath, cfg->recordPath };
	const char* otherNames[2] = { "--csv", "--record" };
	for ( int i = 0; i < 2 && cfg->jointsCsvPath != NULL; ++i )
	{
		if ( others[i] != NULL && strcmp( cfg->jointsCsvPath, others[i] ) == 0 )
		{
			cliError( "--joints-csv and %s name the same file '%s'", otherNames[i], cfg->jointsCsvPath );
			return CLI_BAD_INPUT;
		}
	}

	cnBodyId* bodies = NULL;
	int bodyCount = 0;
	if ( cfg->bodies != NULL && ( bodyCount = cliSelectBodies( scene, cfg->bodies, &bodies ) ) < 0 )
	{
		free( bodies );
		return CLI_BAD_INPUT;
	}

	// the writers, each under a temporary name until the run has finished
	cnFrameWriter writers[4];
	int writerCount = 0;
	cnCsvWriter* csv = NULL;
	cnJointCsvWriter* jointsCsv = NULL;
	cnRecorder* recorder = NULL;
	cnRecorder* memory = NULL;
	int status = CLI_OK;
	if ( cfg->csvPath != NULL )
	{
		cnCsvWriterDef def = cnDefaultCsvWriterDef();
		def.path = cfg->csvPath;
		def.bodies = bodies;
		def.bodyCount = bodyCount;
		csv = cnCreateCsvWriter( world, &def );
		if ( csv == NULL )
		{
			cliError( "%s", cnGetError() );
			status = CLI_FAILURE;
			goto cleanup;
		}
		writers[writerCount++] = cnCsvWriter_AsFrameWriter( csv );
	}
	if ( cfg->jointsCsvPath != NULL )
	{
		// every joint, whatever --bodies says
		cnJointCsvWriterDef def = cnDefaultJointCsvWriterDef();
		def.path = cfg->jointsCsvPath;
		jointsCsv = cnCreateJointCsvWriter( world, &def );
		if ( jointsCsv == NULL )
		{
			cliError( "%s", cnGetError() );
			status = CLI_FAILURE;
			goto cleanup;
		}
		writers[writerCount++] = cnJointCsvWriter_AsFrameWriter( jointsCsv );
	}
	if ( cfg->recordPath != NULL )
	{
		cnRecorderDef def = cnDefaultRecorderDef();
		def.path = cfg->recordPath;
		def.sceneName = scene->name;
		def.fps = cfg->fps;
		def.bodies = bodies;
		def.bodyCount = bodyCount;
		recorder = cnCreateRecorder( world, &def );
		if ( recorder == NULL )
		{
			cliError( "%s", cnGetError() );
			status = CLI_FAILURE;
			goto cleanup;
		}
		writers[writerCount++] = cnRecorder_AsFrameWriter( recorder );
	}
	if ( cfg->memoryRecording != NULL )
	{
		*cfg->memoryRecording = NULL;
		cnRecorderDef def = cnDefaultRecorderDef();
		def.sceneName = scene->name;
		def.fps = cfg->fps;
		memory = cnCreateRecorder( world, &def );
		if ( memory == NULL )
		{
			cliError( "%s", cnGetError() );
			status = CLI_FAILURE;
			goto cleanup;
		}
		writers[writerCount++] = cnRecorder_AsFrameWriter( memory );
	}

	cliRunState state = { 0 };
	state.cfg = cfg;
	state.path = scene->path;
	state.progress.enabled = cfg->quiet == false && isatty( fileno( stderr ) );

	cnRunDef def = cnScene_GetRunDef( scene );
	def.duration = cfg->duration;
	def.fps = cfg->fps;
	def.frameStride = cfg->every > 0 ? cfg->every : 1;
	def.writers = writers;
	def.writerCount = writerCount;
	def.beforeStep = cfg->beforeStep != NULL ? cliBeforeStep : NULL;
	bool guardWarns = cnWorld_GetDef( world ).onInstability != cnInstability_stop;
	def.afterStep = cfg->stats || guardWarns || cnWorld_GetJointCount( world ) > 0 || cfg->saveStatePath != NULL
						? cliAfterStep
						: NULL;
	def.progress = state.progress.enabled ? cliRunProgress : NULL;
	def.context = &state;

	// --at the start time: the state before the first step
	if ( cliSaveStateAt( world, &state ) == false )
	{
		cliError( "--save-state: %s", cnGetError() );
		status = CLI_FAILURE;
		goto cleanup;
	}
	cliCatchInterrupts( world );
	*result = cnRun( world, &def );
	bool interrupted = cliReleaseInterrupts();
	cliEraseProgress( &state.progress );

	switch ( result->status )
	{
		case cnRun_finished:
			break;
		case cnRun_cancelled:
		case cnRun_stopped:
			if ( state.stateFailed )
			{
				cliError( "--save-state: %s", cnGetError() );
				status = CLI_FAILURE;
				goto cleanup;
			}
			cliError( "interrupted at t = %.9g s; no output written", cnWorld_GetTime( world ) );
			status = CLI_INTERRUPTED;
			goto cleanup;
		case cnRun_failed:
			if ( interrupted )
			{
				cliError( "interrupted at t = %.9g s; no output written", cnWorld_GetTime( world ) );
				status = CLI_INTERRUPTED;
			}
			else if ( cnGetErrorCode() == cnError_unstable )
			{
				cliError( "%s: unstable: %s (--on-instability warn or freeze-body goes on; no output written)",
						  scene->path, cnGetError() );
				status = CLI_FAILURE;
			}
			else if ( cnGetErrorCode() == cnError_stepFailed )
			{
				cliError( "%s: step failed at t = %.9g s: %s", scene->path, cnWorld_GetTime( world ), cnGetError() );
				status = CLI_FAILURE;
			}
			else
			{
				cliError( "%s", cnGetError() );
				status = cnGetErrorCode() == cnError_invalidArgument ? CLI_BAD_INPUT : CLI_FAILURE;
			}
			goto cleanup;
	}

	// --save-state without --at: the state at the end
	if ( cfg->saveStatePath != NULL && state.stateSaved == false )
	{
		if ( cfg->saveStateAt >= 0.0 )
		{
			cliError( "--at %.9g: the run ended at t = %.9g s, before that time", cfg->saveStateAt, cnWorld_GetTime( world ) );
			status = CLI_BAD_INPUT;
			goto cleanup;
		}
		if ( cnSaveSnapshot( world, cfg->saveStatePath ) == false )
		{
			cliError( "--save-state: %s", cnGetError() );
			status = CLI_FAILURE;
			goto cleanup;
		}
		state.stateSaved = true;
	}

	if ( memory != NULL )
	{
		size_t size = 0;
		const void* bytes = cnRecorder_GetBytes( memory, &size );
		*cfg->memoryRecording = bytes != NULL ? cnLoadRecordingFromMemory( bytes, size, scene->path ) : NULL;
		if ( *cfg->memoryRecording == NULL )
		{
			cliError( "%s: %s", scene->path, bytes != NULL ? cnGetError() : "the recording in memory is missing" );
			status = CLI_FAILURE;
			goto cleanup;
		}
	}
	if ( cfg->quiet == false )
	{
		printf( "%s: simulated %.9g s in %.3f s: %d frames at %.9g fps, %lld steps of %.9g s (%d per frame)\n",
				scene->name, cnWorld_GetTime( world ), result->wallSeconds, result->frameCount, cfg->fps,
				(long long)result->stepCount, result->stepSize, result->stepsPerFrame );
		for ( int i = 0; i < state.breakCount && i < CLI_MAX_BREAKS; ++i )
		{
			const cnJointBreak* b = state.breaks + i;
			printf( "joint '%s' broke at t = %.9g s (reaction %.6g N, %.6g N m)\n", state.breakNames[i], b->time, b->force,
					b->torque );
		}
		if ( state.breakCount > CLI_MAX_BREAKS )
		{
			printf( "and %d more joints broke\n", state.breakCount - CLI_MAX_BREAKS );
		}
		if ( cfg->csvPath != NULL )
		{
			printf( "wrote %s\n", cfg->csvPath );
		}
		if ( cfg->jointsCsvPath != NULL )
		{
			printf( "wrote %s\n", cfg->jointsCsvPath );
		}
		if ( cfg->recordPath != NULL )
		{
			printf( "wrote %s\n", cfg->recordPath );
		}
		if ( cfg->saveStatePath != NULL )
		{
			printf( "wrote %s (the state to continue from)\n", cfg->saveStatePath );
		}
	}
	if ( cfg->stats )
	{
		cliPrintStats( &state, world, result->stepSize, result->wallSeconds );
	}
	if ( cfg->hash )
	{
		printf( "hash 0x%016llx\n", (unsigned long long)cnWorld_Hash( world ) );
	}

cleanup:
	// an unfinished writer removes its temporary file
	cnDestroyCsvWriter( csv );
	cnDestroyJointCsvWriter( jointsCsv );
	cnDestroyRecorder( recorder );
	cnDestroyRecorder( memory );
	free( bodies );
	return status;
}
