// SPDX-License-Identifier: MIT
// The inputs of `cairn plot` (plot.h), each read into one cliPlotData: a scene, simulated with the
// library's run loop (cnRun) with the steps of `cairn run` and sampled at t = 0 and after every
// step (its energies and momentum, its bodies' positions and speeds); a recording, whose positions
// give speeds by central differences between frames; a CSV of `cairn run --csv`, whose positions
// and velocity columns are read as they are. Each keeps the bodies asked for, or those that move
// the most (plot_series.c), and names the unnamed ones.
#define _POSIX_C_SOURCE 200809L

#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// sampled data

// Frees a body's name and samples, for bodies dropped by the choice as well as at the end.
static void cliPlotBody_Free( cliPlotBody* body )
{
	free( body->name );
	free( body->position );
	free( body->speed );
}

// Frees everything a reader allocated, also after it failed half way.
void cliPlotData_Free( cliPlotData* data )
{
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		cliPlotBody_Free( data->bodies + b );
	}
	free( data->bodies );
	free( data->title );
	free( data->time );
	free( data->kinetic );
	free( data->potential );
	free( data->momentum );
}

// A copy the data owns: names and titles outlive the scene, recording or CSV reader they came from.
static char* plCopyString( const char* text )
{
	char* copy = malloc( strlen( text ) + 1 );
	if ( copy != NULL )
	{
		strcpy( copy, text );
	}
	return copy;
}

// Grows every per-sample array to capacity; false after printing an error.
static bool cliPlotData_Reserve( cliPlotData* data, int capacity, bool world )
{
	if ( capacity <= data->capacity )
	{
		return true;
	}
	size_t n = (size_t)capacity;
	bool ok = true;
	void* p = realloc( data->time, n * sizeof( double ) );
	ok = ok && p != NULL;
	data->time = p != NULL ? p : data->time;
	if ( world )
	{
		p = realloc( data->kinetic, n * sizeof( double ) );
		ok = ok && p != NULL;
		data->kinetic = p != NULL ? p : data->kinetic;
		p = realloc( data->potential, n * sizeof( double ) );
		ok = ok && p != NULL;
		data->potential = p != NULL ? p : data->potential;
		p = realloc( data->momentum, n * sizeof( cnVec3 ) );
		ok = ok && p != NULL;
		data->momentum = p != NULL ? p : data->momentum;
	}
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		cliPlotBody* body = data->bodies + b;
		p = realloc( body->position, n * sizeof( cnVec3 ) );
		ok = ok && p != NULL;
		body->position = p != NULL ? p : body->position;
		p = realloc( body->speed, n * sizeof( double ) );
		ok = ok && p != NULL;
		body->speed = p != NULL ? p : body->speed;
	}
	if ( ok == false )
	{
		cliError( "out of memory" );
		return false;
	}
	data->capacity = capacity;
	return true;
}

// Adds a body to track (its arrays get the data's capacity); false after printing an error.
static bool cliPlotData_AddBody( cliPlotData* data, const char* name, int index, bool isStatic, cnBodyId id )
{
	cliPlotBody* bigger = realloc( data->bodies, (size_t)( data->bodyCount + 1 ) * sizeof( cliPlotBody ) );
	if ( bigger == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	data->bodies = bigger;
	cliPlotBody* body = data->bodies + data->bodyCount;
	memset( body, 0, sizeof( *body ) );
	body->name = plCopyString( name );
	body->source = index;
	body->isStatic = isStatic;
	body->id = id;
	size_t n = (size_t)( data->capacity > 0 ? data->capacity : 1 );
	body->position = malloc( n * sizeof( cnVec3 ) );
	body->speed = malloc( n * sizeof( double ) );
	data->bodyCount += 1;
	if ( body->name == NULL || body->position == NULL || body->speed == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	return true;
}

// Names the unnamed bodies (of a recording made through the API, say) by their index in the input,
// "#INDEX"; false after printing an error.
static bool plLabelUnnamed( cliPlotData* data )
{
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		cliPlotBody* body = data->bodies + b;
		if ( body->name[0] != 0 )
		{
			continue;
		}
		char label[32];
		snprintf( label, sizeof( label ), "#%d", body->source );
		char* copy = plCopyString( label );
		if ( copy == NULL )
		{
			cliError( "out of memory" );
			return false;
		}
		free( body->name );
		body->name = copy;
	}
	return true;
}

// Keeps the bodies whose indices are listed, in that order, and frees the others.
static void cliPlotData_KeepBodies( cliPlotData* data, const int* keep, int keepCount )
{
	cliPlotBody* kept = malloc( (size_t)( keepCount > 0 ? keepCount : 1 ) * sizeof( cliPlotBody ) );
	bool* used = calloc( (size_t)( data->bodyCount > 0 ? data->bodyCount : 1 ), sizeof( bool ) );
	if ( kept == NULL || used == NULL )
	{
		// keep them all in place: the caller's choice only thins what is kept
		free( kept );
		free( used );
		return;
	}
	for ( int i = 0; i < keepCount; ++i )
	{
		kept[i] = data->bodies[keep[i]];
		used[keep[i]] = true;
	}
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		if ( used[b] == false )
		{
			cliPlotBody_Free( data->bodies + b );
		}
	}
	free( used );
	free( data->bodies );
	data->bodies = kept;
	data->bodyCount = keepCount;
}

// ---------------------------------------------------------------------------------------------
// scenes

// A scene keeps at most this many samples (longer runs keep every n-th step), and at most
// PL_MAX_BODY_SAMPLES samples of tracked bodies (a scene of thousands of moving bodies plotted
// without --bodies keeps fewer samples): the plot has only some hundred pixel columns anyway.
#define PL_MAX_SAMPLES 100000
#define PL_MAX_BODY_SAMPLES 2000000

// What the run loop's callbacks share: the samples, and which steps are kept (every stride-th).
typedef struct plSceneRun
{
	cliPlotData* data;
	cnFosssimScene* fosssim;
	int64_t steps;
	int64_t stride;
	bool keptLast;
	bool outOfMemory;
	cliProgress progress;
} plSceneRun;

// One sample: the world's energies and momentum, the tracked bodies' positions and speeds (the
// arrays grow should the reserve fall short).
static bool plSampleWorld( cliPlotData* data, const cnWorld* world )
{
	int i = data->count;
	if ( i == data->capacity && cliPlotData_Reserve( data, 2 * data->capacity + 16, true ) == false )
	{
		return false;
	}
	data->time[i] = cnWorld_GetTime( world );
	data->kinetic[i] = cnWorld_GetKineticEnergy( world );
	data->potential[i] = cnWorld_GetPotentialEnergy( world );
	data->momentum[i] = cnWorld_GetLinearMomentum( world );
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		cliPlotBody* body = data->bodies + b;
		body->position[i] = cnBody_GetPosition( world, body->id );
		body->speed[i] = cnLength( cnBody_GetLinearVelocity( world, body->id ) );
	}
	data->count += 1;
	return true;
}

// After every step: the bodies' paths, and every stride-th sample.
static bool plAfterStep( cnWorld* world, void* context )
{
	plSceneRun* run = context;
	cliPlotData* data = run->data;
	run->steps += 1;
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		cliPlotBody* body = data->bodies + b;
		cnVec3 p = cnBody_GetPosition( world, body->id );
		body->pathLength += cnLength( cnSub( p, body->lastPosition ) );
		body->lastPosition = p;
	}
	run->keptLast = run->steps % run->stride == 0;
	if ( run->keptLast && plSampleWorld( data, world ) == false )
	{
		run->outOfMemory = true;
		return false;
	}
	return true;
}

// The FOSSSim scene's springs and wind for the coming step, as `cairn run` applies them.
static bool plBeforeStep( cnWorld* world, void* context )
{
	(void)world;
	plSceneRun* run = context;
	if ( cnFosssim_ApplyForces( run->fosssim ) )
	{
		return true;
	}
	return cnSetError( cnError_stepFailed, "applying forces failed: %s", cnGetError() );
}

// The run loop hands its one context to every callback: the progress line lives in the run's state.
static void plDrawProgress( const cnRunProgress* p, void* context )
{
	cliDrawProgress( p, &( (plSceneRun*)context )->progress );
}

// The axis a unit vector lies along, for the height axis label: "x", "y", "z" or "along -g".
static const char* plAxisName( cnVec3 up )
{
	if ( up.x == 0.0 && up.y == 0.0 && up.z == 1.0 )
	{
		return "z";
	}
	if ( up.x == 0.0 && up.y == 1.0 && up.z == 0.0 )
	{
		return "y";
	}
	if ( up.x == 1.0 && up.y == 0.0 && up.z == 0.0 )
	{
		return "x";
	}
	return "along -g";
}

// Loads and runs a scene, sampling it; returns an exit status.
int cliPlotLoadScene( const cliPlotRequest* request, cliPlotData* data )
{
	cnFosssimScene* fosssim = NULL;
	cnScene* scene = cliLoadRunScene( request->input, request->method, &fosssim );
	if ( scene == NULL )
	{
		return CLI_BAD_INPUT;
	}
	cnWorld* world = scene->world;
	int status = CLI_OK;
	int* named = NULL;
	const char** names = NULL;
	double duration = request->durationText != NULL ? request->duration : scene->duration;

	// the steps of `cairn run`: k per frame of 1/fps, over the whole frames in the duration
	double k = fmax( 1.0, ceil( ( 1.0 / scene->fps ) / scene->timeStep - 1e-9 ) );
	double frames = floor( duration * scene->fps + 1e-9 );
	if ( k * frames > 1e9 )
	{
		cliError( "%s: %.9g s in steps of %.9g s is too many steps", request->input, duration,
				  ( 1.0 / scene->fps ) / k );
		status = CLI_BAD_INPUT;
		goto cleanup;
	}
	int64_t stepCount = (int64_t)( k * frames );

	data->title = plCopyString( scene->name );
	cnVec3 g = cnWorld_GetGravity( world );
	double gLength = cnLength( g );
	data->up = gLength > 0.0 ? cnMulSV( -1.0 / gLength, g ) : ( cnVec3 ){ 0.0, 0.0, 1.0 };
	data->upName = plAxisName( data->up );

	// the bodies to track: the named ones, or every non-static one to choose from after the run
	int bodyCount = cnWorld_GetBodyCount( world );
	names = malloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ) * sizeof( const char* ) );
	if ( data->title == NULL || names == NULL )
	{
		cliError( "out of memory" );
		status = CLI_FAILURE;
		goto cleanup;
	}
	for ( int i = 0; i < bodyCount; ++i )
	{
		names[i] = cnBody_GetName( world, cnWorld_GetBody( world, i ) );
	}
	int namedCount = -1;
	if ( request->bodies != NULL )
	{
		namedCount = cliPlotResolveBodies( request->bodies, request->input, names, bodyCount, &named );
		if ( namedCount < 0 )
		{
			status = CLI_BAD_INPUT;
			goto cleanup;
		}
	}
	int tracked = 0;
	if ( request->perBody )
	{
		tracked = namedCount >= 0 ? namedCount : bodyCount;
	}
	int64_t maxSamples = PL_MAX_SAMPLES;
	if ( tracked > 0 && PL_MAX_BODY_SAMPLES / tracked < maxSamples )
	{
		maxSamples = PL_MAX_BODY_SAMPLES / tracked > 100 ? PL_MAX_BODY_SAMPLES / tracked : 100;
	}
	plSceneRun run = { 0 };
	run.data = data;
	run.stride = stepCount / maxSamples + 1;
	run.keptLast = true;
	if ( cliPlotData_Reserve( data, (int)( stepCount / run.stride + 2 ), true ) == false )
	{
		status = CLI_FAILURE;
		goto cleanup;
	}
	for ( int i = 0; i < tracked; ++i )
	{
		int index = namedCount >= 0 ? named[i] : i;
		cnBodyId id = cnWorld_GetBody( world, index );
		bool isStatic = cnBody_GetType( world, id ) == cnBody_static;
		if ( namedCount < 0 && isStatic )
		{
			continue;
		}
		if ( cliPlotData_AddBody( data, names[index], index, isStatic, id ) == false )
		{
			status = CLI_FAILURE;
			goto cleanup;
		}
		data->bodies[data->bodyCount - 1].lastPosition = cnBody_GetPosition( world, id );
	}
	if ( plSampleWorld( data, world ) == false )
	{
		status = CLI_FAILURE;
		goto cleanup;
	}

	run.fosssim = fosssim;
	run.progress.enabled = request->quiet == false && isatty( fileno( stderr ) ) != 0;
	cnRunDef def = cnScene_GetRunDef( scene );
	def.duration = duration;
	def.beforeStep = fosssim != NULL && cnFosssim_HasForceElements( fosssim ) ? plBeforeStep : NULL;
	def.afterStep = plAfterStep;
	def.progress = run.progress.enabled ? plDrawProgress : NULL;
	def.progressInterval = 0.2;
	def.context = &run;
	cliCatchInterrupts( world );
	cnRunResult result = cnRun( world, &def );
	bool interrupted = cliReleaseInterrupts();
	cliEraseProgress( &run.progress );
	if ( interrupted || result.status == cnRun_cancelled )
	{
		cliError( "interrupted at t = %.9g s; no output written", cnWorld_GetTime( world ) );
		status = CLI_INTERRUPTED;
	}
	else if ( run.outOfMemory )
	{
		status = CLI_FAILURE;
	}
	else if ( result.status != cnRun_finished )
	{
		cliError( "%s: step failed at t = %.9g s: %s", scene->path, cnWorld_GetTime( world ), cnGetError() );
		status = CLI_FAILURE;
	}
	else if ( run.keptLast == false && plSampleWorld( data, world ) == false )
	{
		// the samples always end at the last state
		status = CLI_FAILURE;
	}
	if ( status == CLI_OK && namedCount < 0 && request->perBody )
	{
		int keep[CLI_PLOT_DEFAULT_BODIES];
		cliPlotData_KeepBodies( data, keep, cliPlotChooseMovers( data, keep ) );
	}
	if ( status == CLI_OK && plLabelUnnamed( data ) == false )
	{
		status = CLI_FAILURE;
	}

cleanup:
	free( named );
	free( names );
	cliDestroyRunScene( scene, fosssim );
	return status;
}

// ---------------------------------------------------------------------------------------------
// recordings and CSV files

// "height" of a recording or CSV, which hold no gravity: z, unless no plotted body ever leaves
// z = 0, as in a planar (FOSSSim) world, whose gravity lies in the xy-plane: then y.
static void plChooseUp( cliPlotData* data )
{
	bool planar = data->bodyCount > 0;
	for ( int b = 0; b < data->bodyCount && planar; ++b )
	{
		for ( int i = 0; i < data->count && planar; ++i )
		{
			planar = data->bodies[b].position[i].z == 0.0;
		}
	}
	data->up = planar ? ( cnVec3 ){ 0.0, 1.0, 0.0 } : ( cnVec3 ){ 0.0, 0.0, 1.0 };
	data->upName = planar ? "y" : "z";
}

// The file name without its folders, for a title.
static const char* plBaseName( const char* path )
{
	const char* slash = strrchr( path, '/' );
	return slash != NULL ? slash + 1 : path;
}

// ---------------------------------------------------------------------------------------------
// recordings

// Reads a recording: its frames' times and the chosen bodies' positions, speeds from them; returns
// an exit status.
int cliPlotLoadRecording( const cliPlotRequest* request, cliPlotData* data )
{
	cnRecording* recording = cnLoadRecording( request->input );
	if ( recording == NULL )
	{
		cliError( "%s", cnGetError() );
		return CLI_BAD_INPUT;
	}
	int status = CLI_OK;
	int* chosen = NULL;
	int frameCount = cnRecording_GetFrameCount( recording );
	int bodyCount = cnRecording_GetBodyCount( recording );
	const char** names = malloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ) * sizeof( const char* ) );
	const char* sceneName = cnRecording_GetSceneName( recording );
	data->title = plCopyString( sceneName[0] != 0 ? sceneName : plBaseName( request->input ) );
	if ( names == NULL || data->title == NULL ||
		 cliPlotData_Reserve( data, frameCount > 0 ? frameCount : 1, false ) == false )
	{
		cliError( "out of memory" );
		status = CLI_FAILURE;
		goto cleanup;
	}
	if ( frameCount == 0 )
	{
		cliError( "%s: the recording has no frames", request->input );
		status = CLI_BAD_INPUT;
		goto cleanup;
	}
	for ( int b = 0; b < bodyCount; ++b )
	{
		names[b] = cnRecording_GetBodyName( recording, b );
	}

	// the bodies: the named ones, or the non-static ones that move the most along their paths
	int chosenCount = 0;
	if ( request->bodies != NULL )
	{
		chosenCount = cliPlotResolveBodies( request->bodies, request->input, names, bodyCount, &chosen );
		if ( chosenCount < 0 )
		{
			status = CLI_BAD_INPUT;
			goto cleanup;
		}
	}
	else if ( request->perBody )
	{
		// their paths first, through a data set of every body's path alone
		cliPlotData paths = { 0 };
		paths.bodies = calloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ), sizeof( cliPlotBody ) );
		chosen = malloc( CLI_PLOT_DEFAULT_BODIES * sizeof( int ) );
		if ( paths.bodies == NULL || chosen == NULL )
		{
			free( paths.bodies );
			cliError( "out of memory" );
			status = CLI_FAILURE;
			goto cleanup;
		}
		paths.bodyCount = bodyCount;
		for ( int b = 0; b < bodyCount; ++b )
		{
			paths.bodies[b].isStatic = cnRecording_GetBodyType( recording, b ) == cnBody_static;
			for ( int f = 1; f < frameCount; ++f )
			{
				// a body that does not exist at either frame (version 6) does not move between them
				if ( cnRecording_IsBodyPresent( recording, f - 1, b ) == false ||
					 cnRecording_IsBodyPresent( recording, f, b ) == false )
				{
					continue;
				}
				cnVec3 p0 = cnRecording_GetBodyTransform( recording, f - 1, b ).p;
				cnVec3 p1 = cnRecording_GetBodyTransform( recording, f, b ).p;
				paths.bodies[b].pathLength += cnLength( cnSub( p1, p0 ) );
			}
		}
		chosenCount = cliPlotChooseMovers( &paths, chosen );
		free( paths.bodies );
	}

	for ( int f = 0; f < frameCount; ++f )
	{
		data->time[f] = cnRecording_GetFrameTime( recording, f );
	}
	data->count = frameCount;
	for ( int i = 0; i < chosenCount && request->perBody; ++i )
	{
		int b = chosen[i];
		if ( cliPlotData_AddBody( data, names[b], b, cnRecording_GetBodyType( recording, b ) == cnBody_static,
								  ( cnBodyId ){ 0 } ) == false )
		{
			status = CLI_FAILURE;
			goto cleanup;
		}
		cliPlotBody* body = data->bodies + data->bodyCount - 1;
		for ( int f = 0; f < frameCount; ++f )
		{
			// where the body does not exist (version 6) it has no position: a gap in the plot
			body->position[f] = cnRecording_IsBodyPresent( recording, f, b ) ? cnRecording_GetBodyTransform( recording, f, b ).p
																			  : cnV3( NAN, NAN, NAN );
		}
		// central differences between the frames around each one, one-sided at the ends (a
		// recording holds positions only); speeds are those of the body's origin
		for ( int f = 0; f < frameCount; ++f )
		{
			int a = f > 0 ? f - 1 : f;
			int c = f < frameCount - 1 ? f + 1 : f;
			double dt = data->time[c] - data->time[a];
			body->speed[f] = dt > 0.0 ? cnLength( cnSub( body->position[c], body->position[a] ) ) / dt : NAN;
		}
	}
	plChooseUp( data );
	status = plLabelUnnamed( data ) ? CLI_OK : CLI_FAILURE;

cleanup:
	free( chosen );
	free( names );
	cnDestroyRecording( recording );
	return status;
}

// ---------------------------------------------------------------------------------------------
// CSV files

// A CSV reader for the files of `cairn run --csv`: RFC 4180 records (quoted fields may hold commas,
// quotes and line breaks), the fields of one record at a time.
enum
{
	plCsvColumns = 15
};

static const char* const s_csvHeader[plCsvColumns] = { "time", "body", "x",	 "y",  "z",	 "qw", "qx", "qy",
													   "qz",   "vx",   "vy", "vz", "wx", "wy", "wz" };

typedef struct plCsvReader
{
	FILE* file;
	const char* path;
	// the line the current record starts on, and the next one's
	long line;
	long nextLine;
	char* text;
	size_t length;
	size_t capacity;
	// offsets of the fields in text (the first plCsvColumns + 1 of them), and their count
	size_t field[plCsvColumns + 1];
	int fieldCount;
} plCsvReader;

// Appends a character to the record's text, which grows as long as the longest record.
static bool plCsv_Append( plCsvReader* r, char c )
{
	if ( r->length == r->capacity )
	{
		size_t capacity = r->capacity > 0 ? 2 * r->capacity : 256;
		char* bigger = realloc( r->text, capacity );
		if ( bigger == NULL )
		{
			cliError( "out of memory" );
			return false;
		}
		r->text = bigger;
		r->capacity = capacity;
	}
	r->text[r->length++] = c;
	return true;
}

// Reads the next non-blank record: 1, 0 at the end of the file, -1 after printing an error.
static int plCsv_Read( plCsvReader* r )
{
	for ( ;; )
	{
		int c = getc( r->file );
		if ( c == EOF )
		{
			return 0;
		}
		r->line = r->nextLine;
		r->length = 0;
		r->fieldCount = 0;
		for ( ;; )
		{
			if ( r->fieldCount <= plCsvColumns )
			{
				r->field[r->fieldCount] = r->length;
			}
			r->fieldCount += 1;
			if ( c == '"' )
			{
				for ( ;; )
				{
					c = getc( r->file );
					if ( c == EOF )
					{
						cliError( "%s:%ld: a quoted field is not closed", r->path, r->line );
						return -1;
					}
					if ( c == '"' )
					{
						c = getc( r->file );
						if ( c != '"' )
						{
							break;
						}
					}
					r->nextLine += c == '\n';
					if ( plCsv_Append( r, (char)c ) == false )
					{
						return -1;
					}
				}
				if ( c != ',' && c != '\n' && c != '\r' && c != EOF )
				{
					cliError( "%s:%ld: text after a quoted field", r->path, r->line );
					return -1;
				}
			}
			else
			{
				while ( c != ',' && c != '\n' && c != '\r' && c != EOF )
				{
					if ( plCsv_Append( r, (char)c ) == false )
					{
						return -1;
					}
					c = getc( r->file );
				}
			}
			if ( plCsv_Append( r, 0 ) == false )
			{
				return -1;
			}
			if ( c != ',' )
			{
				break;
			}
			c = getc( r->file );
		}
		if ( c == '\r' && ( c = getc( r->file ) ) != '\n' && c != EOF )
		{
			ungetc( c, r->file );
		}
		r->nextLine += 1;
		if ( ferror( r->file ) )
		{
			cliError( "%s: cannot read: %s", r->path, strerror( errno ) );
			return -1;
		}
		// a blank line is no record
		if ( r->fieldCount > 1 || r->text[0] != 0 )
		{
			return 1;
		}
	}
}

// Field i of the current record, NUL-terminated in the record's text.
static const char* plCsv_Field( const plCsvReader* r, int i )
{
	return r->text + r->field[i];
}

// Reads number column i of the current record; false after printing an error.
static bool plCsv_Number( const plCsvReader* r, int i, double* out )
{
	const char* text = plCsv_Field( r, i );
	char* end = NULL;
	errno = 0;
	double v = strtod( text, &end );
	if ( end == text || *end != 0 || errno == ERANGE || isfinite( v ) == false )
	{
		cliError( "%s:%ld: %s: '%s' is not a finite number", r->path, r->line, s_csvHeader[i], text );
		return false;
	}
	*out = v;
	return true;
}

// Reads a whole CSV: frames are runs of rows with one time, each listing the first frame's bodies
// once. Every body is kept; the chosen ones are picked after.
static int plReadCsvRows( plCsvReader* r, cliPlotData* data )
{
	int frameBodies = 0;
	int row = -1;
	// per body: the frame it was last seen in
	int* seen = NULL;
	int status = CLI_OK;
	for ( ;; )
	{
		int got = plCsv_Read( r );
		if ( got <= 0 )
		{
			status = got == 0 ? CLI_OK : CLI_BAD_INPUT;
			break;
		}
		if ( r->fieldCount != plCsvColumns )
		{
			cliError( "%s:%ld: %d fields where the header has %d", r->path, r->line, r->fieldCount, plCsvColumns );
			status = CLI_BAD_INPUT;
			break;
		}
		double v[plCsvColumns];
		bool numbers = true;
		for ( int i = 0; i < plCsvColumns && numbers; ++i )
		{
			numbers = i == 1 || plCsv_Number( r, i, v + i );
		}
		if ( numbers == false )
		{
			status = CLI_BAD_INPUT;
			break;
		}
		const char* name = plCsv_Field( r, 1 );

		// a new time starts a frame; the first frame names the bodies
		if ( data->count == 0 || v[0] != data->time[data->count - 1] )
		{
			if ( data->count > 0 && frameBodies != data->bodyCount )
			{
				cliError( "%s:%ld: the frame at t = %.9g s has %d of the first frame's %d bodies", r->path, r->line - 1,
						  data->time[data->count - 1], frameBodies, data->bodyCount );
				status = CLI_BAD_INPUT;
				break;
			}
			if ( data->count == data->capacity && cliPlotData_Reserve( data, 2 * data->capacity + 16, false ) == false )
			{
				status = CLI_FAILURE;
				break;
			}
			data->time[data->count++] = v[0];
			frameBodies = 0;
			row = -1;
		}
		int frame = data->count - 1;

		// rows come in the first frame's order: try the next body before searching
		int b = row + 1 < data->bodyCount && strcmp( data->bodies[row + 1].name, name ) == 0 ? row + 1 : -1;
		for ( int i = 0; i < data->bodyCount && b < 0; ++i )
		{
			b = strcmp( data->bodies[i].name, name ) == 0 ? i : -1;
		}
		if ( b < 0 && frame == 0 )
		{
			int* bigger = realloc( seen, (size_t)( data->bodyCount + 1 ) * sizeof( int ) );
			if ( bigger == NULL ||
				 cliPlotData_AddBody( data, name, data->bodyCount, false, ( cnBodyId ){ 0 } ) == false )
			{
				if ( bigger == NULL )
				{
					cliError( "out of memory" );
				}
				seen = bigger != NULL ? bigger : seen;
				status = CLI_FAILURE;
				break;
			}
			seen = bigger;
			b = data->bodyCount - 1;
			seen[b] = -1;
		}
		if ( b < 0 )
		{
			cliError( "%s:%ld: body '%s' is not in the first frame", r->path, r->line, name );
			status = CLI_BAD_INPUT;
			break;
		}
		if ( seen[b] == frame )
		{
			cliError( "%s:%ld: body '%s' is listed twice at t = %.9g s", r->path, r->line, name, v[0] );
			status = CLI_BAD_INPUT;
			break;
		}
		seen[b] = frame;
		frameBodies += 1;
		row = b;
		cliPlotBody* body = data->bodies + b;
		body->position[frame] = ( cnVec3 ){ v[2], v[3], v[4] };
		body->speed[frame] = cnLength( ( cnVec3 ){ v[9], v[10], v[11] } );
		if ( frame > 0 )
		{
			body->pathLength += cnLength( cnSub( body->position[frame], body->position[frame - 1] ) );
		}
	}
	if ( status == CLI_OK && data->count > 0 && frameBodies != data->bodyCount )
	{
		cliError( "%s: the last frame, at t = %.9g s, has %d of the first frame's %d bodies", r->path,
				  data->time[data->count - 1], frameBodies, data->bodyCount );
		status = CLI_BAD_INPUT;
	}
	free( seen );
	return status;
}

// Reads a CSV after checking its header, then keeps the chosen bodies; returns an exit status.
int cliPlotLoadCsv( const cliPlotRequest* request, cliPlotData* data )
{
	plCsvReader r = { 0 };
	r.path = request->input;
	r.nextLine = 1;
	r.file = fopen( request->input, "rb" );
	if ( r.file == NULL )
	{
		cliError( "%s: cannot open: %s", request->input, strerror( errno ) );
		return CLI_BAD_INPUT;
	}
	int status = CLI_OK;
	int got = plCsv_Read( &r );
	bool header = got == 1 && r.fieldCount == plCsvColumns;
	for ( int i = 0; i < plCsvColumns && header; ++i )
	{
		header = strcmp( plCsv_Field( &r, i ), s_csvHeader[i] ) == 0;
	}
	if ( got >= 0 && header == false )
	{
		cliError( "%s: not a CSV of 'cairn run --csv': its header must be "
				  "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz",
				  request->input );
		status = CLI_BAD_INPUT;
	}
	else if ( got < 0 )
	{
		status = CLI_BAD_INPUT;
	}
	if ( status == CLI_OK )
	{
		status = plReadCsvRows( &r, data );
	}
	fclose( r.file );
	free( r.text );
	if ( status != CLI_OK )
	{
		return status;
	}
	if ( data->count == 0 )
	{
		cliError( "%s: no rows after the header", request->input );
		return CLI_BAD_INPUT;
	}
	data->title = plCopyString( plBaseName( request->input ) );
	if ( data->title == NULL )
	{
		cliError( "out of memory" );
		return CLI_FAILURE;
	}

	// the chosen bodies: the named ones, or those that move the most
	if ( request->perBody == false )
	{
		cliPlotData_KeepBodies( data, NULL, 0 );
	}
	else if ( request->bodies != NULL )
	{
		const char** names = malloc( (size_t)( data->bodyCount > 0 ? data->bodyCount : 1 ) * sizeof( const char* ) );
		int* chosen = NULL;
		if ( names == NULL )
		{
			cliError( "out of memory" );
			return CLI_FAILURE;
		}
		for ( int b = 0; b < data->bodyCount; ++b )
		{
			names[b] = data->bodies[b].name;
		}
		int count = cliPlotResolveBodies( request->bodies, request->input, names, data->bodyCount, &chosen );
		free( names );
		if ( count < 0 )
		{
			free( chosen );
			return CLI_BAD_INPUT;
		}
		cliPlotData_KeepBodies( data, chosen, count );
		free( chosen );
	}
	else
	{
		int keep[CLI_PLOT_DEFAULT_BODIES];
		cliPlotData_KeepBodies( data, keep, cliPlotChooseMovers( data, keep ) );
	}
	plChooseUp( data );
	return plLabelUnnamed( data ) ? CLI_OK : CLI_FAILURE;
}
