// SPDX-License-Identifier: MIT
// The simulation loop of `cairn run` and `cairn demo`: steps a scene frame by frame, writes the
// CSV and the binary recording through temporary files, draws a progress bar, prints stats.
#define _POSIX_C_SOURCE 200809L

#include "cairn/recording.h"
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// set by SIGINT/SIGTERM so an interrupted run can still delete its temporary files
static volatile sig_atomic_t s_interrupted = 0;

static void cliOnSignal( int signal )
{
	(void)signal;
	s_interrupted = 1;
}

// Writes a CSV field, quoted (RFC 4180) only when it holds a separator, quote or line break.
static void cliWriteCsvName( FILE* file, const char* name )
{
	if ( strpbrk( name, ",\"\r\n" ) == NULL )
	{
		fputs( name, file );
		return;
	}
	fputc( '"', file );
	for ( const char* c = name; *c != 0; ++c )
	{
		if ( *c == '"' )
		{
			fputc( '"', file );
		}
		fputc( *c, file );
	}
	fputc( '"', file );
}

static void cliWriteCsvFrame( FILE* file, const cnWorld* world )
{
	double time = cnWorld_GetTime( world );
	int count = cnWorld_GetBodyCount( world );
	for ( int i = 0; i < count; ++i )
	{
		cnBodyId id = cnWorld_GetBody( world, i );
		if ( cnBody_GetType( world, id ) == cnBody_static )
		{
			continue;
		}
		cnVec3 x = cnBody_GetPosition( world, id );
		cnQuat q = cnBody_GetOrientation( world, id );
		cnVec3 v = cnBody_GetLinearVelocity( world, id );
		cnVec3 w = cnBody_GetAngularVelocity( world, id );
		fprintf( file, "%.9g,", time );
		cliWriteCsvName( file, cnBody_GetName( world, id ) );
		fprintf( file, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", x.x, x.y, x.z, q.w, q.x,
				 q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z );
	}
}

// A one-line progress bar on stderr, redrawn at most ten times a second.
typedef struct cliProgress
{
	bool enabled;
	double start;
	double lastDraw;
	int drawnWidth;
} cliProgress;

static void cliProgress_Update( cliProgress* p, double time, double duration )
{
	if ( p->enabled == false )
	{
		return;
	}
	double now = cliNow();
	// short runs finish before a bar would help, so it appears only after a second
	if ( now - p->start < 1.0 || now - p->lastDraw < 0.1 )
	{
		return;
	}
	p->lastDraw = now;
	double fraction = duration > 0.0 ? time / duration : 1.0;
	fraction = fraction < 0.0 ? 0.0 : ( fraction > 1.0 ? 1.0 : fraction );
	enum
	{
		barWidth = 30
	};
	char bar[barWidth + 1];
	int filled = (int)( fraction * barWidth );
	for ( int i = 0; i < barWidth; ++i )
	{
		bar[i] = i < filled ? '#' : '-';
	}
	bar[barWidth] = 0;
	int width = fprintf( stderr, "\r[%s] %3d%%  t = %.2f / %.2f s  ", bar, (int)( 100.0 * fraction ), time, duration );
	if ( width > p->drawnWidth )
	{
		p->drawnWidth = width;
	}
	fflush( stderr );
}

static void cliProgress_Erase( cliProgress* p )
{
	if ( p->drawnWidth > 0 )
	{
		fprintf( stderr, "\r%*s\r", p->drawnWidth, "" );
		fflush( stderr );
		p->drawnWidth = 0;
	}
}

// Sums of the per-step stats, for averages.
typedef struct cliStatSums
{
	double stage[6];
	double counter[7];
	int64_t steps;
} cliStatSums;

static void cliStatCounters( const cnStats* s, double counter[7] )
{
	counter[0] = s->bodyCount;
	counter[1] = s->awakeBodyCount;
	counter[2] = s->pairCount;
	counter[3] = s->contactCount;
	counter[4] = s->touchingCount;
	counter[5] = s->manifoldPointCount;
	counter[6] = s->islandCount;
}

static void cliStatSums_Add( cliStatSums* sums, const cnStats* s )
{
	double stage[6] = { s->broadPhaseMs, s->narrowPhaseMs, s->solveMs, s->integrateMs, s->islandMs, s->stepMs };
	double counter[7];
	cliStatCounters( s, counter );
	for ( int i = 0; i < 6; ++i )
	{
		sums->stage[i] += stage[i];
	}
	for ( int i = 0; i < 7; ++i )
	{
		sums->counter[i] += counter[i];
	}
	sums->steps += 1;
}

static void cliPrintStats( const cliStatSums* sums, const cnWorld* world, double stepSize, double wallSeconds )
{
	static const char* stageNames[6] = { "broad phase", "narrow phase", "solve", "integrate", "islands", "total" };
	static const char* counterNames[7] = { "bodies",   "awake bodies",	  "pairs",  "contacts",
										   "touching", "manifold points", "islands" };
	double n = sums->steps > 0 ? (double)sums->steps : 1.0;
	cnWorldDef def = cnWorld_GetDef( world );
	printf( "stats: %lld steps of %.9g s, %d sub-steps, %.3f s wall\n", (long long)sums->steps, stepSize, def.subSteps,
			wallSeconds );
	printf( "  %-16s %10s\n", "stage", "ms/step" );
	for ( int i = 0; i < 6; ++i )
	{
		printf( "  %-16s %10.4f\n", stageNames[i], sums->stage[i] / n );
	}
	cnStats last = cnWorld_GetStats( world );
	double final[7];
	cliStatCounters( &last, final );
	printf( "  %-16s %10s %10s\n", "counter", "final", "mean" );
	for ( int i = 0; i < 7; ++i )
	{
		printf( "  %-16s %10.0f %10.1f\n", counterNames[i], final[i], sums->counter[i] / n );
	}
	if ( last.frictionFallbackCount > 0 )
	{
		printf( "  %-16s %10lld  (contact sets whose friction LCP had no solution: frictionless that step)\n",
				"friction fallbk", (long long)last.frictionFallbackCount );
	}
	if ( last.grFallbackCount > 0 )
	{
		printf( "  %-16s %10lld  (islands whose reflections did not finish: solved once, inelastically)\n",
				"gr fallbacks", (long long)last.grFallbackCount );
	}
}

// Names "path.tmp"; the caller frees it.
static char* cliTempPath( const char* path )
{
	size_t length = strlen( path );
	char* temp = malloc( length + 5 );
	if ( temp != NULL )
	{
		memcpy( temp, path, length );
		memcpy( temp + length, ".tmp", 5 );
	}
	return temp;
}

int cliSimulate( cnScene* scene, const cliRunConfig* cfg, cliRunResult* result )
{
	cnWorld* world = scene->world;
	memset( result, 0, sizeof( *result ) );

	// k steps per frame, each (1/fps)/k <= timestep, so frames fall exactly on multiples of 1/fps;
	// the 1e-9 keeps a ratio like 2.0000000000000004 from becoming 3 steps
	double frameTime = 1.0 / cfg->fps;
	double k = ceil( frameTime / scene->timeStep - 1e-9 );
	k = k < 1.0 ? 1.0 : k;
	double frames = floor( cfg->duration * cfg->fps + 1e-9 ) + 1.0;
	if ( k > 1e9 || frames > 1e9 || k * frames > 1e12 )
	{
		cliError( "%s: %.9g s at %.9g fps with a %.9g s timestep is too many steps or frames", scene->path,
				  cfg->duration, cfg->fps, scene->timeStep );
		return CLI_BAD_INPUT;
	}
	int stepsPerFrame = (int)k;
	int frameCount = (int)frames;
	double stepSize = frameTime / k;

	if ( cfg->csvPath != NULL && cfg->recordPath != NULL && strcmp( cfg->csvPath, cfg->recordPath ) == 0 )
	{
		cliError( "--csv and --record name the same file '%s'", cfg->csvPath );
		return CLI_BAD_INPUT;
	}

	// open the outputs under temporary names
	FILE* csv = NULL;
	char* csvTemp = NULL;
	cnRecorder* recorder = NULL;
	int status = CLI_OK;
	if ( cfg->csvPath != NULL )
	{
		csvTemp = cliTempPath( cfg->csvPath );
		csv = csvTemp != NULL ? fopen( csvTemp, "w" ) : NULL;
		if ( csv == NULL )
		{
			cliError( "%s: cannot write: %s", csvTemp != NULL ? csvTemp : cfg->csvPath, strerror( errno ) );
			free( csvTemp );
			return CLI_FAILURE;
		}
		setvbuf( csv, NULL, _IOFBF, 1 << 16 );
		fputs( "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n", csv );
	}
	if ( cfg->recordPath != NULL )
	{
		char error[512];
		recorder = cnRecorder_Create( cfg->recordPath, world, scene->name, cfg->fps, error, (int)sizeof( error ) );
		if ( recorder == NULL )
		{
			cliError( "%s", error );
			status = CLI_FAILURE;
			goto cleanup;
		}
	}

	s_interrupted = 0;
	void ( *oldInt )( int ) = signal( SIGINT, cliOnSignal );
	void ( *oldTerm )( int ) = signal( SIGTERM, cliOnSignal );

	cliProgress progress = { 0 };
	progress.enabled = cfg->quiet == false && isatty( fileno( stderr ) );
	cliStatSums sums = { 0 };
	double start = cliNow();
	progress.start = start;

	for ( int frame = 0; frame < frameCount && status == CLI_OK; ++frame )
	{
		for ( int step = 0; frame > 0 && step < stepsPerFrame; ++step )
		{
			if ( cfg->beforeStep != NULL && cfg->beforeStep( world, cfg->beforeStepContext ) == false )
			{
				cliProgress_Erase( &progress );
				cliError( "%s: applying forces failed at t = %.9g s: %s", scene->path, cnWorld_GetTime( world ),
						  cnWorld_GetError( world ) );
				status = CLI_FAILURE;
				break;
			}
			if ( cnWorld_Step( world, stepSize ) == false )
			{
				cliProgress_Erase( &progress );
				cliError( "%s: step failed at t = %.9g s: %s", scene->path, cnWorld_GetTime( world ),
						  cnWorld_GetError( world ) );
				status = CLI_FAILURE;
				break;
			}
			if ( cfg->stats )
			{
				cnStats stats = cnWorld_GetStats( world );
				cliStatSums_Add( &sums, &stats );
			}
			result->stepCount += 1;
			if ( s_interrupted )
			{
				break;
			}
			cliProgress_Update( &progress, cnWorld_GetTime( world ), cfg->duration );
		}
		if ( s_interrupted )
		{
			cliProgress_Erase( &progress );
			cliError( "interrupted at t = %.9g s; no output written", cnWorld_GetTime( world ) );
			status = CLI_INTERRUPTED;
		}
		if ( status != CLI_OK )
		{
			break;
		}
		if ( csv != NULL )
		{
			cliWriteCsvFrame( csv, world );
		}
		if ( recorder != NULL && cnRecorder_AddFrame( recorder, world ) == false )
		{
			cliProgress_Erase( &progress );
			cliError( "%s", cnRecorder_GetError( recorder ) );
			status = CLI_FAILURE;
		}
		result->frameCount = frame + 1;
	}
	result->wallSeconds = cliNow() - start;
	result->stepsPerFrame = stepsPerFrame;
	result->stepSize = stepSize;
	cliProgress_Erase( &progress );
	signal( SIGINT, oldInt );
	signal( SIGTERM, oldTerm );
	if ( status != CLI_OK )
	{
		goto cleanup;
	}

	// close everything under temporary names first, then rename, so a failure leaves nothing
	if ( csv != NULL )
	{
		bool ok = ferror( csv ) == 0;
		ok = fclose( csv ) == 0 && ok;
		csv = NULL;
		if ( ok == false )
		{
			cliError( "%s: write failed", csvTemp );
			status = CLI_FAILURE;
			goto cleanup;
		}
	}
	if ( recorder != NULL )
	{
		char error[512];
		bool ok = cnRecorder_Finish( recorder, error, (int)sizeof( error ) );
		recorder = NULL;
		if ( ok == false )
		{
			cliError( "%s", error );
			status = CLI_FAILURE;
			goto cleanup;
		}
	}
	if ( csvTemp != NULL && rename( csvTemp, cfg->csvPath ) != 0 )
	{
		cliError( "%s: cannot rename %s to it: %s", cfg->csvPath, csvTemp, strerror( errno ) );
		status = CLI_FAILURE;
		goto cleanup;
	}
	free( csvTemp );
	csvTemp = NULL;

	if ( cfg->quiet == false )
	{
		printf( "%s: simulated %.9g s in %.3f s: %d frames at %.9g fps, %lld steps of %.9g s (%d per frame)\n",
				scene->name, cnWorld_GetTime( world ), result->wallSeconds, frameCount, cfg->fps,
				(long long)result->stepCount, stepSize, stepsPerFrame );
		if ( cfg->csvPath != NULL )
		{
			printf( "wrote %s\n", cfg->csvPath );
		}
		if ( cfg->recordPath != NULL )
		{
			printf( "wrote %s\n", cfg->recordPath );
		}
	}
	if ( cfg->stats )
	{
		cliPrintStats( &sums, world, stepSize, result->wallSeconds );
	}
	if ( cfg->hash )
	{
		printf( "hash 0x%016llx\n", (unsigned long long)cnWorld_Hash( world ) );
	}
	return CLI_OK;

cleanup:
	if ( csv != NULL )
	{
		fclose( csv );
	}
	if ( csvTemp != NULL )
	{
		remove( csvTemp );
		free( csvTemp );
	}
	cnRecorder_Abort( recorder );
	return status;
}
