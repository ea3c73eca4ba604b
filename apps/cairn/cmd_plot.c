// SPDX-License-Identifier: MIT
// `cairn plot INPUT -o OUT.svg|OUT.png`: plots series over time from a recording, a CSV of `cairn run
// --csv` or a scene. A scene is simulated with the library's run loop (cnRun) with the steps of
// `cairn run` and sampled after every step: its energies and momentum, its bodies' positions and
// speeds. A recording gives positions, and speeds by central differences between frames; a CSV
// gives positions and the speeds of its velocity columns. The picture is drawn by the tool's one
// SVG plotter (svg_plot.c); a PNG is that SVG converted by rsvg-convert, run as its own process.
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "svg_plot.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

const char cliPlotHelp[] =
	"usage: cairn plot INPUT [--series LIST] [--bodies NAMES] [--duration T] [--method M]\n"
	"                  -o FILE.svg|FILE.png [--csv FILE] [--title TEXT] [--quiet]\n"
	"\n"
	"Plots series over time: one line and one colour per series, a legend naming each,\n"
	"axes with ticks and units. Series of different units get panels of their own,\n"
	"stacked over one time axis. INPUT is one of:\n"
	"  a recording (.cnrec, 'cairn run --record'): its bodies' positions at every frame;\n"
	"      speeds by central differences of positions between frames\n"
	"  a CSV of 'cairn run --csv': its bodies' positions, speeds from vx, vy, vz\n"
	"  a scene (.json, or FOSSSim .xml): simulated as 'cairn run' does and sampled at\n"
	"      t = 0 and after every step: energies, momentum, the bodies' positions and speeds\n"
	"\n"
	"series:\n"
	"  energy     E = kinetic + potential, J (potential -m g.x, zero at the origin)  scene\n"
	"  kinetic    kinetic energy, J                                                  scene\n"
	"  potential  gravitational potential energy, J                                  scene\n"
	"  momentum   linear momentum of the dynamic bodies, x, y, z, kg m/s             scene\n"
	"  position   x, y, z of each body's origin, m (three lines per body)\n"
	"  height     each body's origin along -gravity (a scene), or its z (a recording or\n"
	"             CSV: y when every plotted body stays at z = 0, as in a planar world), m\n"
	"  distance   each body's distance |p| from the origin, m\n"
	"  speed      each body's speed, m/s (a scene, a CSV: of the centre of mass)\n"
	"\n"
	"options:\n"
	"  --series LIST   comma-separated series (default: energy for a scene, height else)\n"
	"  --bodies NAMES  comma-separated bodies for position, height, distance and speed\n"
	"                  (default: up to 5 bodies that move the most: the longest paths)\n"
	"  --duration T    simulated seconds of a scene (default: its \"duration\")\n"
	"  --method M      contact method of a scene (default: its \"method\")\n"
	"  -o FILE         the picture: FILE.svg, or FILE.png (the SVG converted by\n"
	"                  rsvg-convert, from Debian's librsvg2-bin)\n"
	"  --csv FILE      also write the plotted series: time, then one column per series\n"
	"  --title TEXT    title (default: the scene's name, a recording's scene name, the\n"
	"                  CSV's file name)\n"
	"  --quiet         print nothing on stdout (errors and warnings still go to stderr)\n"
	"  -h, --help      show this help\n"
	"\n"
	"exit status: 0 ok, 1 runtime failure (a step failed, a file cannot be written,\n"
	"rsvg-convert missing or failing), 2 bad input (unknown series or body, a CSV with a\n"
	"wrong header, a missing or bad file or value), 130 interrupted. Files are written\n"
	"as FILE.tmp and renamed at the end.\n"
	"\n"
	"examples:\n"
	"  cairn plot scenes/can_toss.json -o energy.svg\n"
	"  cairn plot scenes/bouncing_balls.json --series height,speed --bodies ball_0,ball_1 -o balls.png\n"
	"  cairn run scenes/dominoes.json --record d.cnrec && cairn plot d.cnrec -o d.svg\n";

// A scene keeps at most this many samples (longer runs keep every n-th step), and at most
// PL_MAX_BODY_SAMPLES samples of tracked bodies (a scene of thousands of moving bodies plotted
// without --bodies keeps fewer samples): the plot has only some hundred pixel columns anyway.
#define PL_MAX_SAMPLES 100000
#define PL_MAX_BODY_SAMPLES 2000000

// bodies chosen when --bodies is not given
#define PL_DEFAULT_BODIES 5

// ---------------------------------------------------------------------------------------------
// series kinds

typedef enum plKind
{
	plKind_energy,
	plKind_kinetic,
	plKind_potential,
	plKind_momentum,
	plKind_position,
	plKind_height,
	plKind_distance,
	plKind_speed,
	plKind_count
} plKind;

typedef struct plKindInfo
{
	const char* name;
	// what the y axis shows, for its label
	const char* quantity;
	const char* unit;
	// drawn per body (else once for the whole world, scenes only)
	bool perBody;
	// lines per body (or per world): 3 for vector components
	int components;
} plKindInfo;

static const plKindInfo s_kinds[plKind_count] = {
	{ "energy", "E = kinetic + potential", "J", false, 1 },
	{ "kinetic", "kinetic energy", "J", false, 1 },
	{ "potential", "potential energy", "J", false, 1 },
	{ "momentum", "linear momentum", "kg m/s", false, 3 },
	{ "position", "position", "m", true, 3 },
	{ "height", "height", "m", true, 1 },
	{ "distance", "distance from the origin", "m", true, 1 },
	{ "speed", "speed", "m/s", true, 1 },
};

static const char s_kindList[] = "energy, kinetic, potential, momentum, position, height, distance, speed";

// ---------------------------------------------------------------------------------------------
// sampled data

// One body's samples.
typedef struct plBody
{
	// as shown: its name, or "#INDEX" for an unnamed one (plLabelUnnamed)
	char* name;
	// its index in the input
	int source;
	bool isStatic;
	// scene only
	cnBodyId id;
	// summed |dp| between samples (between steps for a scene): how much it moves
	double pathLength;
	cnVec3 lastPosition;
	// per sample; speed NaN where it cannot be computed (a recording of one frame)
	cnVec3* position;
	double* speed;
} plBody;

// Samples shared by every series: their times, the world's measures (scenes only, else NULL) and
// the chosen bodies'.
typedef struct plData
{
	char* title;
	int count;
	int capacity;
	double* time;
	double* kinetic;
	double* potential;
	cnVec3* momentum;
	int bodyCount;
	plBody* bodies;
	// what "height" measures: the coordinate along up, and how the axis label names it
	cnVec3 up;
	const char* upName;
} plData;

static void plBody_Free( plBody* body )
{
	free( body->name );
	free( body->position );
	free( body->speed );
}

static void plData_Free( plData* data )
{
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		plBody_Free( data->bodies + b );
	}
	free( data->bodies );
	free( data->title );
	free( data->time );
	free( data->kinetic );
	free( data->potential );
	free( data->momentum );
}

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
static bool plData_Reserve( plData* data, int capacity, bool world )
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
		plBody* body = data->bodies + b;
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
static bool plData_AddBody( plData* data, const char* name, int index, bool isStatic, cnBodyId id )
{
	plBody* bigger = realloc( data->bodies, (size_t)( data->bodyCount + 1 ) * sizeof( plBody ) );
	if ( bigger == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	data->bodies = bigger;
	plBody* body = data->bodies + data->bodyCount;
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
static bool plLabelUnnamed( plData* data )
{
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		plBody* body = data->bodies + b;
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
static void plData_KeepBodies( plData* data, const int* keep, int keepCount )
{
	plBody* kept = malloc( (size_t)( keepCount > 0 ? keepCount : 1 ) * sizeof( plBody ) );
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
			plBody_Free( data->bodies + b );
		}
	}
	free( used );
	free( data->bodies );
	data->bodies = kept;
	data->bodyCount = keepCount;
}

// The bodies that moved the most: up to PL_DEFAULT_BODIES non-static ones by path length (ties in
// their order), in that order. Returns how many, written to keep.
static int plChooseMovers( const plData* data, int keep[PL_DEFAULT_BODIES] )
{
	int count = 0;
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		if ( data->bodies[b].isStatic )
		{
			continue;
		}
		// insertion into the sorted list of the best so far
		int at = count;
		while ( at > 0 && data->bodies[keep[at - 1]].pathLength < data->bodies[b].pathLength )
		{
			--at;
		}
		if ( at >= PL_DEFAULT_BODIES )
		{
			continue;
		}
		int last = count < PL_DEFAULT_BODIES ? count : PL_DEFAULT_BODIES - 1;
		for ( int i = last; i > at; --i )
		{
			keep[i] = keep[i - 1];
		}
		keep[at] = b;
		count = count < PL_DEFAULT_BODIES ? count + 1 : count;
	}
	return count;
}

// ---------------------------------------------------------------------------------------------
// lists

// The next item of a comma-separated list at *cursor, spaces around it trimmed; false at the end.
static bool plNextItem( const char** cursor, const char** item, size_t* length )
{
	const char* p = *cursor;
	if ( p == NULL )
	{
		return false;
	}
	const char* end = strchr( p, ',' );
	size_t n = end != NULL ? (size_t)( end - p ) : strlen( p );
	while ( n > 0 && *p == ' ' )
	{
		++p;
		--n;
	}
	while ( n > 0 && p[n - 1] == ' ' )
	{
		--n;
	}
	*item = p;
	*length = n;
	*cursor = end != NULL ? end + 1 : NULL;
	return true;
}

// Parses --series into kinds in the given order; returns the count, or -1 after printing an error.
static int plParseSeries( const char* text, plKind kinds[plKind_count] )
{
	int count = 0;
	const char* cursor = text;
	const char* item;
	size_t length;
	while ( plNextItem( &cursor, &item, &length ) )
	{
		int kind = -1;
		for ( int k = 0; k < plKind_count && kind < 0; ++k )
		{
			if ( strlen( s_kinds[k].name ) == length && strncmp( s_kinds[k].name, item, length ) == 0 )
			{
				kind = k;
			}
		}
		if ( length == 0 )
		{
			cliError( "--series: '%s' is not a comma-separated list of series (known: %s)", text, s_kindList );
			return -1;
		}
		if ( kind < 0 )
		{
			cliError( "--series: unknown series '%.*s' (known: %s)", (int)length, item, s_kindList );
			return -1;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( kinds[i] == (plKind)kind )
			{
				cliError( "--series: '%s' is given twice", s_kinds[kind].name );
				return -1;
			}
		}
		kinds[count++] = (plKind)kind;
	}
	return count;
}

// Resolves --bodies against the names of a source's bodies: writes their indices (in the list's
// order) to *indices and returns their count, or -1 after printing an error.
static int plResolveBodies( const char* text, const char* source, const char* const* names, int nameCount,
							int** indices )
{
	int capacity = 1;
	for ( const char* c = text; *c != 0; ++c )
	{
		capacity += *c == ',';
	}
	*indices = malloc( (size_t)capacity * sizeof( int ) );
	if ( *indices == NULL )
	{
		cliError( "out of memory" );
		return -1;
	}
	int count = 0;
	const char* cursor = text;
	const char* item;
	size_t length;
	while ( plNextItem( &cursor, &item, &length ) )
	{
		if ( length == 0 )
		{
			cliError( "--bodies: '%s' is not a comma-separated list of body names", text );
			return -1;
		}
		int found = -1;
		for ( int i = 0; i < nameCount && found < 0; ++i )
		{
			if ( strlen( names[i] ) == length && strncmp( names[i], item, length ) == 0 )
			{
				found = i;
			}
		}
		if ( found < 0 )
		{
			// name a few of the bodies there are, so a typo is easy to see
			char known[200] = "";
			size_t used = 0;
			for ( int i = 0; i < nameCount && used < sizeof( known ); ++i )
			{
				if ( names[i][0] == 0 )
				{
					continue;
				}
				int n = snprintf( known + used, sizeof( known ) - used, "%s%s", used > 0 ? ", " : "", names[i] );
				used += n > 0 ? (size_t)n : 0;
			}
			if ( used >= sizeof( known ) )
			{
				strcpy( known + sizeof( known ) - 5, " ..." );
			}
			cliError( "--bodies: %s has no body named '%.*s' (its bodies: %s)", source, (int)length, item,
					  used > 0 ? known : "none with a name" );
			return -1;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( ( *indices )[i] == found )
			{
				cliError( "--bodies: '%s' is given twice", names[found] );
				return -1;
			}
		}
		( *indices )[count++] = found;
	}
	return count;
}

// ---------------------------------------------------------------------------------------------
// what is asked for

typedef struct plRequest
{
	const char* input;
	plKind kinds[plKind_count];
	int kindCount;
	bool perBody;
	const char* bodies;
	const char* durationText;
	double duration;
	const char* method;
	bool quiet;
} plRequest;

// ---------------------------------------------------------------------------------------------
// scenes

typedef struct plSceneRun
{
	plData* data;
	cnFosssimScene* fosssim;
	int64_t steps;
	int64_t stride;
	bool keptLast;
	bool outOfMemory;
	cliProgress progress;
} plSceneRun;

static bool plSampleWorld( plData* data, const cnWorld* world )
{
	int i = data->count;
	if ( i == data->capacity && plData_Reserve( data, 2 * data->capacity + 16, true ) == false )
	{
		return false;
	}
	data->time[i] = cnWorld_GetTime( world );
	data->kinetic[i] = cnWorld_GetKineticEnergy( world );
	data->potential[i] = cnWorld_GetPotentialEnergy( world );
	data->momentum[i] = cnWorld_GetLinearMomentum( world );
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		plBody* body = data->bodies + b;
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
	plData* data = run->data;
	run->steps += 1;
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		plBody* body = data->bodies + b;
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
static int plLoadScene( const plRequest* request, plData* data )
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
		namedCount = plResolveBodies( request->bodies, request->input, names, bodyCount, &named );
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
	if ( plData_Reserve( data, (int)( stepCount / run.stride + 2 ), true ) == false )
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
		if ( plData_AddBody( data, names[index], index, isStatic, id ) == false )
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
		int keep[PL_DEFAULT_BODIES];
		plData_KeepBodies( data, keep, plChooseMovers( data, keep ) );
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
static void plChooseUp( plData* data )
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

static int plLoadRecording( const plRequest* request, plData* data )
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
	if ( names == NULL || data->title == NULL || plData_Reserve( data, frameCount > 0 ? frameCount : 1, false ) == false )
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
		chosenCount = plResolveBodies( request->bodies, request->input, names, bodyCount, &chosen );
		if ( chosenCount < 0 )
		{
			status = CLI_BAD_INPUT;
			goto cleanup;
		}
	}
	else if ( request->perBody )
	{
		// their paths first, through a data set of every body's path alone
		plData paths = { 0 };
		paths.bodies = calloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ), sizeof( plBody ) );
		chosen = malloc( PL_DEFAULT_BODIES * sizeof( int ) );
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
				cnVec3 p0 = cnRecording_GetBodyTransform( recording, f - 1, b ).p;
				cnVec3 p1 = cnRecording_GetBodyTransform( recording, f, b ).p;
				paths.bodies[b].pathLength += cnLength( cnSub( p1, p0 ) );
			}
		}
		chosenCount = plChooseMovers( &paths, chosen );
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
		if ( plData_AddBody( data, names[b], b, cnRecording_GetBodyType( recording, b ) == cnBody_static,
							 ( cnBodyId ){ 0 } ) == false )
		{
			status = CLI_FAILURE;
			goto cleanup;
		}
		plBody* body = data->bodies + data->bodyCount - 1;
		for ( int f = 0; f < frameCount; ++f )
		{
			body->position[f] = cnRecording_GetBodyTransform( recording, f, b ).p;
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
static int plReadCsvRows( plCsvReader* r, plData* data )
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
			if ( data->count == data->capacity && plData_Reserve( data, 2 * data->capacity + 16, false ) == false )
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
			if ( bigger == NULL || plData_AddBody( data, name, data->bodyCount, false, ( cnBodyId ){ 0 } ) == false )
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
		plBody* body = data->bodies + b;
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

static int plLoadCsv( const plRequest* request, plData* data )
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
		plData_KeepBodies( data, NULL, 0 );
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
		int count = plResolveBodies( request->bodies, request->input, names, data->bodyCount, &chosen );
		free( names );
		if ( count < 0 )
		{
			free( chosen );
			return CLI_BAD_INPUT;
		}
		plData_KeepBodies( data, chosen, count );
		free( chosen );
	}
	else
	{
		int keep[PL_DEFAULT_BODIES];
		plData_KeepBodies( data, keep, plChooseMovers( data, keep ) );
	}
	plChooseUp( data );
	return plLabelUnnamed( data ) ? CLI_OK : CLI_FAILURE;
}

// ---------------------------------------------------------------------------------------------
// series

typedef struct plSeries
{
	plKind kind;
	// vector component (momentum, position)
	int component;
	// index into data->bodies; -1 for the world's series
	int body;
	int panel;
	char* label;
	const plData* data;
} plSeries;

static double plComponent( cnVec3 v, int i )
{
	return i == 0 ? v.x : ( i == 1 ? v.y : v.z );
}

static double plValue( const plSeries* s, int i )
{
	const plData* data = s->data;
	const plBody* body = s->body >= 0 ? data->bodies + s->body : NULL;
	switch ( s->kind )
	{
		case plKind_energy:
			return data->kinetic[i] + data->potential[i];
		case plKind_kinetic:
			return data->kinetic[i];
		case plKind_potential:
			return data->potential[i];
		case plKind_momentum:
			return plComponent( data->momentum[i], s->component );
		case plKind_position:
			return plComponent( body->position[i], s->component );
		case plKind_height:
			return cnDot( body->position[i], data->up );
		case plKind_distance:
			return cnLength( body->position[i] );
		case plKind_speed:
			return body->speed[i];
		default:
			return NAN;
	}
}

static void plPoint( const void* data, int i, double* x, double* y )
{
	const plSeries* s = data;
	*x = s->data->time[i];
	*y = plValue( s, i );
}

// The series and panels to draw: kinds in the asked order, bodies in their order within each kind,
// one panel per unit in the order the units first appear.
typedef struct plPlot
{
	plSeries* series;
	int seriesCount;
	const char* units[plKind_count];
	char* panelLabels[plKind_count];
	svgPanel panels[plKind_count];
	int panelCount;
} plPlot;

static void plPlot_Free( plPlot* plot )
{
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		free( plot->series[s].label );
	}
	free( plot->series );
	for ( int p = 0; p < plot->panelCount; ++p )
	{
		free( plot->panelLabels[p] );
	}
}

// The label of a series: "energy", "momentum x", "BODY height", "BODY x".
static char* plSeriesLabel( const plData* data, plKind kind, int component, int body )
{
	static const char* const axes[3] = { "x", "y", "z" };
	const char* name = body >= 0 ? data->bodies[body].name : "";
	const char* what = kind == plKind_position ? axes[component] : s_kinds[kind].name;
	size_t size = strlen( name ) + strlen( what ) + 16;
	char* label = malloc( size );
	if ( label == NULL )
	{
		return NULL;
	}
	if ( body >= 0 )
	{
		snprintf( label, size, "%s %s", name, what );
	}
	else if ( kind == plKind_momentum )
	{
		snprintf( label, size, "momentum %s", axes[component] );
	}
	else
	{
		snprintf( label, size, "%s", what );
	}
	return label;
}

// The y axis label of the panel of a unit: its quantities and the unit, "height = z (m)".
static char* plPanelLabel( const plData* data, const plKind* kinds, int kindCount, const char* unit )
{
	char text[256] = "";
	size_t used = 0;
	for ( int k = 0; k < kindCount; ++k )
	{
		if ( strcmp( s_kinds[kinds[k]].unit, unit ) != 0 )
		{
			continue;
		}
		int n = kinds[k] == plKind_height
					? snprintf( text + used, sizeof( text ) - used, "%sheight %s%s", used > 0 ? ", " : "",
								strcmp( data->upName, "along -g" ) == 0 ? "" : "= ", data->upName )
					: snprintf( text + used, sizeof( text ) - used, "%s%s", used > 0 ? ", " : "",
								s_kinds[kinds[k]].quantity );
		used += n > 0 ? (size_t)n : 0;
		used = used < sizeof( text ) ? used : sizeof( text ) - 1;
	}
	// a long list would run off the panel's side; the legend names each line anyway
	if ( strlen( text ) > 32 )
	{
		static const char* const units[] = { "J", "kg m/s", "m", "m/s" };
		static const char* const names[] = { "energy", "momentum", "position", "speed" };
		for ( int i = 0; i < 4; ++i )
		{
			if ( strcmp( unit, units[i] ) == 0 )
			{
				snprintf( text, sizeof( text ), "%s", names[i] );
			}
		}
	}
	size_t size = strlen( text ) + strlen( unit ) + 4;
	char* label = malloc( size );
	if ( label != NULL )
	{
		snprintf( label, size, "%s (%s)", text, unit );
	}
	return label;
}

static bool plBuildPlot( const plRequest* request, const plData* data, plPlot* plot )
{
	int capacity = 0;
	for ( int k = 0; k < request->kindCount; ++k )
	{
		const plKindInfo* info = s_kinds + request->kinds[k];
		capacity += info->components * ( info->perBody ? data->bodyCount : 1 );
	}
	plot->series = calloc( (size_t)( capacity > 0 ? capacity : 1 ), sizeof( plSeries ) );
	if ( plot->series == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	for ( int k = 0; k < request->kindCount; ++k )
	{
		plKind kind = request->kinds[k];
		const plKindInfo* info = s_kinds + kind;
		int panel = 0;
		while ( panel < plot->panelCount && strcmp( plot->units[panel], info->unit ) != 0 )
		{
			++panel;
		}
		if ( panel == plot->panelCount )
		{
			plot->units[panel] = info->unit;
			plot->panelLabels[panel] = plPanelLabel( data, request->kinds, request->kindCount, info->unit );
			plot->panels[panel].yLabel = plot->panelLabels[panel];
			plot->panelCount += 1;
			if ( plot->panelLabels[panel] == NULL )
			{
				cliError( "out of memory" );
				return false;
			}
		}
		int bodies = info->perBody ? data->bodyCount : 1;
		for ( int b = 0; b < bodies; ++b )
		{
			for ( int c = 0; c < info->components; ++c )
			{
				plSeries* s = plot->series + plot->seriesCount++;
				s->kind = kind;
				s->component = c;
				s->body = info->perBody ? b : -1;
				s->panel = panel;
				s->data = data;
				s->label = plSeriesLabel( data, kind, c, s->body );
				if ( s->label == NULL )
				{
					cliError( "out of memory" );
					return false;
				}
			}
		}
	}
	return true;
}

// Writes the picture; false after printing an error.
static bool plWriteSvg( FILE* file, const plData* data, const plPlot* plot, const char* title )
{
	svgSeries* series = calloc( (size_t)( plot->seriesCount > 0 ? plot->seriesCount : 1 ), sizeof( svgSeries ) );
	if ( series == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	int longest = 0;
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		series[s] = ( svgSeries ){ plot->series[s].label, plot->series[s].panel, data->count, plPoint,
								   plot->series + s };
		int length = (int)strlen( plot->series[s].label );
		longest = length > longest ? length : longest;
	}
	svgPlot svg = { 0 };
	svg.title = title;
	svg.xLabel = "time (s)";
	svg.xMin = data->time[0];
	svg.xMax = data->time[data->count - 1];
	svg.panels = plot->panels;
	svg.panelCount = plot->panelCount;
	svg.series = series;
	svg.seriesCount = plot->seriesCount;
	svg.width = svgWidthForLegend( longest );
	svgWritePlot( file, &svg );
	free( series );
	return true;
}

// Writes a CSV field, quoted as RFC 4180 asks when it holds a comma, quote or line break.
static void plWriteCsvField( FILE* file, const char* text )
{
	if ( strpbrk( text, ",\"\r\n" ) == NULL )
	{
		fputs( text, file );
		return;
	}
	fputc( '"', file );
	for ( const char* c = text; *c != 0; ++c )
	{
		if ( *c == '"' )
		{
			fputc( '"', file );
		}
		fputc( *c, file );
	}
	fputc( '"', file );
}

static void plWriteCsv( FILE* file, const plData* data, const plPlot* plot )
{
	fputs( "time", file );
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		fputc( ',', file );
		plWriteCsvField( file, plot->series[s].label );
	}
	fputc( '\n', file );
	for ( int i = 0; i < data->count; ++i )
	{
		fprintf( file, "%.9g", data->time[i] );
		for ( int s = 0; s < plot->seriesCount; ++s )
		{
			fprintf( file, ",%.9g", plValue( plot->series + s, i ) );
		}
		fputc( '\n', file );
	}
}

// ---------------------------------------------------------------------------------------------
// PNG through rsvg-convert

static const char s_converter[] = "rsvg-convert";

// Whether rsvg-convert is an executable file in a folder of PATH.
static bool plFindConverter( void )
{
	const char* path = getenv( "PATH" );
	for ( const char* dir = path; dir != NULL; )
	{
		const char* end = strchr( dir, ':' );
		int length = (int)( end != NULL ? (size_t)( end - dir ) : strlen( dir ) );
		// an empty entry is the current folder
		char file[4096];
		int n = length > 0 ? snprintf( file, sizeof( file ), "%.*s/%s", length, dir, s_converter )
						   : snprintf( file, sizeof( file ), "./%s", s_converter );
		struct stat info;
		if ( n > 0 && (size_t)n < sizeof( file ) && stat( file, &info ) == 0 && S_ISREG( info.st_mode ) &&
			 access( file, X_OK ) == 0 )
		{
			return true;
		}
		dir = end != NULL ? end + 1 : NULL;
	}
	return false;
}

static void plMissingConverter( const char* path )
{
	cliError( "%s: PNG output needs rsvg-convert, which is not installed: install Debian's librsvg2-bin "
			  "(apt-get install librsvg2-bin), or write .svg",
			  path );
}

// Writes the SVG into rsvg-convert's input and its PNG into the output file's stream; false after
// printing an error.
static bool plWritePng( cnOutputFile* out, const plData* data, const plPlot* plot, const char* title )
{
	FILE* stream = cnOutputFile_GetStream( out );
	const char* path = cnOutputFile_GetPath( out );
	fflush( stream );
	int fds[2];
	if ( pipe( fds ) != 0 )
	{
		cliError( "%s: cannot start %s: %s", path, s_converter, strerror( errno ) );
		return false;
	}

	// the child reads the SVG from the pipe and writes the PNG straight into the temporary file
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init( &actions );
	posix_spawn_file_actions_addclose( &actions, fds[1] );
	posix_spawn_file_actions_adddup2( &actions, fds[0], STDIN_FILENO );
	posix_spawn_file_actions_addclose( &actions, fds[0] );
	posix_spawn_file_actions_adddup2( &actions, fileno( stream ), STDOUT_FILENO );
	char* argv[] = { (char*)s_converter, (char*)"--format", (char*)"png", NULL };
	pid_t pid;
	int spawned = posix_spawnp( &pid, s_converter, &actions, NULL, argv, environ );
	posix_spawn_file_actions_destroy( &actions );
	close( fds[0] );
	if ( spawned != 0 )
	{
		close( fds[1] );
		if ( spawned == ENOENT )
		{
			plMissingConverter( path );
		}
		else
		{
			cliError( "%s: cannot start %s: %s", path, s_converter, strerror( spawned ) );
		}
		return false;
	}

	// a converter that quits early must not kill this process with SIGPIPE: the write fails instead
	struct sigaction ignore, previous;
	memset( &ignore, 0, sizeof( ignore ) );
	ignore.sa_handler = SIG_IGN;
	sigemptyset( &ignore.sa_mask );
	sigaction( SIGPIPE, &ignore, &previous );
	// drawn: the SVG was made (else its error is said); handed: and went into the pipe whole
	bool drawn = true;
	bool handed = false;
	FILE* input = fdopen( fds[1], "w" );
	if ( input == NULL )
	{
		close( fds[1] );
	}
	else
	{
		drawn = plWriteSvg( input, data, plot, title );
		handed = ferror( input ) == 0;
		handed = fclose( input ) == 0 && handed;
	}
	int waitStatus = 0;
	pid_t waited;
	do
	{
		waited = waitpid( pid, &waitStatus, 0 );
	} while ( waited < 0 && errno == EINTR );
	sigaction( SIGPIPE, &previous, NULL );
	if ( drawn == false )
	{
		return false;
	}
	if ( waited < 0 || WIFEXITED( waitStatus ) == 0 || WEXITSTATUS( waitStatus ) != 0 )
	{
		cliError( "%s: %s failed (%s)", path, s_converter,
				  waited >= 0 && WIFEXITED( waitStatus ) ? "see its message above" : "it did not finish" );
		return false;
	}
	if ( handed == false )
	{
		cliError( "%s: cannot hand the SVG to %s", path, s_converter );
	}
	return handed;
}

// Whether a path ends with a suffix, in any case.
static bool plEndsWith( const char* path, const char* suffix )
{
	size_t n = strlen( path ), m = strlen( suffix );
	return n >= m && strcasecmp( path + n - m, suffix ) == 0;
}

// Writes the picture and the CSV asked for; returns an exit status. Both are written before either
// is committed, so a failure of one leaves no new other either.
static int plWriteOutputs( const char* outPath, const char* csvPath, const char* title, const plData* data,
						   const plPlot* plot, bool quiet )
{
	const char* paths[2] = { outPath, csvPath };
	cnOutputFile* outs[2] = { NULL, NULL };
	bool ok = true;
	bool reported = false;
	cliCatchInterrupts( NULL );
	for ( int i = 0; i < 2 && ok; ++i )
	{
		if ( paths[i] == NULL )
		{
			continue;
		}
		outs[i] = cnCreateOutputFile( paths[i] );
		ok = outs[i] != NULL;
		if ( ok && i == 0 && plEndsWith( outPath, ".png" ) )
		{
			ok = plWritePng( outs[i], data, plot, title );
			reported = ok == false;
		}
		else if ( ok && i == 0 )
		{
			ok = plWriteSvg( cnOutputFile_GetStream( outs[i] ), data, plot, title );
			reported = ok == false;
		}
		else if ( ok )
		{
			plWriteCsv( cnOutputFile_GetStream( outs[i] ), data, plot );
		}
	}
	if ( cliReleaseInterrupts() )
	{
		cliError( "interrupted; no output written" );
		for ( int i = 0; i < 2; ++i )
		{
			cnDestroyOutputFile( outs[i] );
		}
		return CLI_INTERRUPTED;
	}
	for ( int i = 0; i < 2 && ok; ++i )
	{
		if ( outs[i] != NULL && ( ok = cnOutputFile_Commit( outs[i] ) ) == true && quiet == false )
		{
			printf( "wrote %s\n", paths[i] );
		}
	}
	if ( ok == false && reported == false )
	{
		cliError( "%s", cnGetError() );
	}
	for ( int i = 0; i < 2; ++i )
	{
		cnDestroyOutputFile( outs[i] );
	}
	return ok ? CLI_OK : CLI_FAILURE;
}

// ---------------------------------------------------------------------------------------------
// the command

typedef enum plInput
{
	plInput_scene,
	plInput_recording,
	plInput_csv,
} plInput;

// A recording by its first bytes, a CSV by its name or its first bytes ("time,"), else a scene.
static plInput plInputKind( const char* path )
{
	if ( cnIsRecordingFile( path ) )
	{
		return plInput_recording;
	}
	if ( plEndsWith( path, ".csv" ) )
	{
		return plInput_csv;
	}
	if ( plEndsWith( path, ".json" ) || plEndsWith( path, ".xml" ) )
	{
		return plInput_scene;
	}
	char start[6] = "";
	FILE* file = fopen( path, "rb" );
	if ( file != NULL )
	{
		size_t n = fread( start, 1, 5, file );
		start[n] = 0;
		fclose( file );
	}
	return strcmp( start, "time," ) == 0 ? plInput_csv : plInput_scene;
}

int cliPlotMain( int argc, char** argv )
{
	const char *seriesText = NULL, *bodies = NULL, *durationText = NULL, *method = NULL, *outPath = NULL,
			   *csvPath = NULL, *title = NULL;
	bool quiet = false;
	const cliOption options[] = {
		{ "--series", &seriesText, NULL }, { "--bodies", &bodies, NULL }, { "--duration", &durationText, NULL },
		{ "--method", &method, NULL },	   { "-o", &outPath, NULL },	  { "--output", &outPath, NULL },
		{ "--csv", &csvPath, NULL },	   { "--title", &title, NULL },	  { "--quiet", NULL, &quiet },
	};
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, (int)( sizeof( options ) / sizeof( options[0] ) ), positional, 1,
						   &positionalCount, cliPlotHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( positionalCount != 1 )
	{
		cliError( "cairn plot: no input file given (see 'cairn plot --help')" );
		return CLI_BAD_INPUT;
	}

	// check every option before reading or running anything
	plRequest request = { 0 };
	request.input = positional[0];
	request.bodies = bodies;
	request.durationText = durationText;
	request.method = method;
	request.quiet = quiet;
	if ( outPath == NULL && csvPath == NULL )
	{
		cliError( "cairn plot: no output: give -o FILE.svg or FILE.png (and/or --csv FILE)" );
		return CLI_BAD_INPUT;
	}
	if ( ( outPath != NULL && outPath[0] == 0 ) || ( csvPath != NULL && csvPath[0] == 0 ) )
	{
		cliError( "-o and --csv need a file name" );
		return CLI_BAD_INPUT;
	}
	if ( outPath != NULL && plEndsWith( outPath, ".svg" ) == false && plEndsWith( outPath, ".png" ) == false )
	{
		cliError( "-o: '%s' must end in .svg or .png", outPath );
		return CLI_BAD_INPUT;
	}
	if ( outPath != NULL && csvPath != NULL && strcmp( outPath, csvPath ) == 0 )
	{
		cliError( "-o and --csv name the same file '%s'", outPath );
		return CLI_BAD_INPUT;
	}
	if ( durationText != NULL && cliParseDouble( "--duration", durationText, 0.0, true, &request.duration ) == false )
	{
		return CLI_BAD_INPUT;
	}
	cnMethod parsed;
	if ( method != NULL && cnMethod_FromName( method, &parsed ) == false )
	{
		cliError( "--method: unknown contact method '%s' (known: %s)", method, cnMethod_GetNameList() );
		return CLI_BAD_INPUT;
	}
	plInput input = plInputKind( positional[0] );
	static const char* const inputNames[] = { "scene", "recording", "CSV" };
	const char* inputName = inputNames[input];
	request.kindCount = plParseSeries( seriesText != NULL ? seriesText : ( input == plInput_scene ? "energy" : "height" ),
									   request.kinds );
	if ( request.kindCount < 0 )
	{
		return CLI_BAD_INPUT;
	}
	for ( int k = 0; k < request.kindCount; ++k )
	{
		const plKindInfo* info = s_kinds + request.kinds[k];
		request.perBody = request.perBody || info->perBody;
		if ( input != plInput_scene && info->perBody == false )
		{
			cliError( "--series %s: needs a scene: a %s holds no masses (it plots position, height, distance, speed)",
					  info->name, inputName );
			return CLI_BAD_INPUT;
		}
	}
	if ( bodies != NULL && request.perBody == false )
	{
		cliError( "--bodies needs a series of bodies: position, height, distance or speed" );
		return CLI_BAD_INPUT;
	}
	if ( input != plInput_scene && ( durationText != NULL || method != NULL ) )
	{
		cliError( "--duration and --method apply to a scene, and %s is a %s", positional[0], inputName );
		return CLI_BAD_INPUT;
	}
	bool png = outPath != NULL && plEndsWith( outPath, ".png" );
	if ( png && plFindConverter() == false )
	{
		// said before a (possibly long) run, and nothing is written
		plMissingConverter( outPath );
		return CLI_FAILURE;
	}

	plData data = { 0 };
	if ( input == plInput_scene )
	{
		status = plLoadScene( &request, &data );
	}
	else
	{
		// reading a large file is no run to cancel, but Ctrl-C still ends it with nothing written
		cliCatchInterrupts( NULL );
		status = input == plInput_recording ? plLoadRecording( &request, &data ) : plLoadCsv( &request, &data );
		if ( cliReleaseInterrupts() )
		{
			cliError( "interrupted; no output written" );
			status = CLI_INTERRUPTED;
		}
	}
	if ( status == CLI_OK && request.perBody && data.bodyCount == 0 )
	{
		cliError( "%s: no moving body to plot; name bodies with --bodies", positional[0] );
		status = CLI_BAD_INPUT;
	}

	plPlot plot = { 0 };
	if ( status == CLI_OK && plBuildPlot( &request, &data, &plot ) == false )
	{
		status = CLI_FAILURE;
	}
	if ( status == CLI_OK && quiet == false )
	{
		printf( "cairn plot: %s (%s), %d samples from t = %.9g to %.9g s, %d series:", positional[0], inputName,
				data.count, data.time[0], data.time[data.count - 1], plot.seriesCount );
		for ( int s = 0; s < plot.seriesCount; ++s )
		{
			printf( "%s %s", s > 0 ? "," : "", plot.series[s].label );
		}
		printf( "\n" );
		if ( request.perBody && bodies == NULL )
		{
			printf( "bodies: the %d that move the most:", data.bodyCount );
			for ( int b = 0; b < data.bodyCount; ++b )
			{
				printf( "%s %s", b > 0 ? "," : "", data.bodies[b].name );
			}
			printf( "\n" );
		}
		fflush( stdout );
	}
	if ( status == CLI_OK )
	{
		status = plWriteOutputs( outPath, csvPath, title != NULL ? title : data.title, &data, &plot, quiet );
	}
	plPlot_Free( &plot );
	plData_Free( &data );
	return status;
}
