// SPDX-License-Identifier: MIT
// `cairn plot INPUT -o OUT.svg|OUT.png`: plots series over time from a recording, a CSV of `cairn run
// --csv` or a scene. This file is the command: its options, its help, the overall flow and the
// outputs. The stages between live in files of their own, sharing the plain structs of plot.h:
// plot_input.c reads the input (a scene simulated with the steps of `cairn run` and sampled after
// every step, a recording, a CSV) and plot_series.c turns the samples into series and panels. The
// picture is drawn by the tool's one SVG plotter (svg_plot.c); a PNG is that SVG converted by
// rsvg-convert, run as its own process.
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "plot.h"
#include "processes.h"
#include "svg_plot.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

// ---------------------------------------------------------------------------------------------
// options

// Parses --series into kinds in the given order; returns the count, or -1 after printing an error.
static int plParseSeries( const char* text, cliPlotKind kinds[cliPlotKind_count] )
{
	int count = 0;
	const char* cursor = text;
	const char* item;
	size_t length;
	while ( cliPlotNextItem( &cursor, &item, &length ) )
	{
		int kind = -1;
		for ( int k = 0; k < cliPlotKind_count && kind < 0; ++k )
		{
			if ( strlen( cliPlotKinds[k].name ) == length && strncmp( cliPlotKinds[k].name, item, length ) == 0 )
			{
				kind = k;
			}
		}
		if ( length == 0 )
		{
			cliError( "--series: '%s' is not a comma-separated list of series (known: %s)", text, cliPlotKindList );
			return -1;
		}
		if ( kind < 0 )
		{
			cliError( "--series: unknown series '%.*s' (known: %s)", (int)length, item, cliPlotKindList );
			return -1;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( kinds[i] == (cliPlotKind)kind )
			{
				cliError( "--series: '%s' is given twice", cliPlotKinds[kind].name );
				return -1;
			}
		}
		kinds[count++] = (cliPlotKind)kind;
	}
	return count;
}

// ---------------------------------------------------------------------------------------------
// outputs

// The SVG plotter reads each line's points through a callback: time, and the series' value there.
static void plPoint( const void* data, int i, double* x, double* y )
{
	const cliPlotSeries* s = data;
	*x = s->data->time[i];
	*y = cliPlotValue( s, i );
}

// Writes the picture; false after printing an error.
static bool plWriteSvg( FILE* file, const cliPlotData* data, const cliPlotLayout* plot, const char* title )
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

// Writes the plotted series as numbers: a time column, then one column per series in the legend's order.
static void plWriteCsv( FILE* file, const cliPlotData* data, const cliPlotLayout* plot )
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
			fprintf( file, ",%.9g", cliPlotValue( plot->series + s, i ) );
		}
		fputc( '\n', file );
	}
}

// ---------------------------------------------------------------------------------------------
// PNG through rsvg-convert

static const char s_converter[] = "rsvg-convert";

// Said both before a run (rsvg-convert not on PATH) and after one (posix_spawnp could not find it).
static void plMissingConverter( const char* path )
{
	cliError( "%s: PNG output needs rsvg-convert, which is not installed: install Debian's librsvg2-bin "
			  "(apt-get install librsvg2-bin), or write .svg",
			  path );
}

// Writes the SVG into rsvg-convert's input and its PNG into the output file's stream; false after
// printing an error.
static bool plWritePng( cnOutputFile* out, const cliPlotData* data, const cliPlotLayout* plot, const char* title )
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
static int plWriteOutputs( const char* outPath, const char* csvPath, const char* title, const cliPlotData* data,
						   const cliPlotLayout* plot, bool quiet )
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

// What INPUT is, which decides the reader and the default series.
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

// Checks every option, reads the input, builds the series and writes the outputs, in that order.
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
	cliPlotRequest request = { 0 };
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
		const cliPlotKindInfo* info = cliPlotKinds + request.kinds[k];
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
	if ( png && cliHasProgram( s_converter ) == false )
	{
		// said before a (possibly long) run, and nothing is written
		plMissingConverter( outPath );
		return CLI_FAILURE;
	}

	cliPlotData data = { 0 };
	if ( input == plInput_scene )
	{
		status = cliPlotLoadScene( &request, &data );
	}
	else
	{
		// reading a large file is no run to cancel, but Ctrl-C still ends it with nothing written
		cliCatchInterrupts( NULL );
		status = input == plInput_recording ? cliPlotLoadRecording( &request, &data )
											: cliPlotLoadCsv( &request, &data );
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

	cliPlotLayout plot = { 0 };
	if ( status == CLI_OK && cliBuildPlotLayout( &request, &data, &plot ) == false )
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
	cliPlotLayout_Free( &plot );
	cliPlotData_Free( &data );
	return status;
}
