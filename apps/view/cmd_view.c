// SPDX-License-Identifier: MIT
// `cairn view FILE`: serves a page that plays a recording or a scene simulated here, in a browser
// (docs/viewer.md). The server and the frame cache live in this folder; without libmicrohttpd the
// command only says how to get it.
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include <stdlib.h>
#include <string.h>

#ifdef CAIRN_VIEWER
#include "view_compare.h"
#include "view_server.h"
#include "view_source.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
#endif

const char cliViewHelp[] =
	"usage: cairn view FILE.cnrec|SCENE.json|SCENE.xml [--port N] [--host ADDRESS] [--no-open]\n"
	"       cairn view --compare SCENE [--methods a,b,...] [--port N] [--host ADDRESS] [--no-open]\n"
	"\n"
	"Serves a viewer for a recording or a scene at http://127.0.0.1:PORT/ and opens it in the\n"
	"browser: every shape drawn, shadows, a ground grid, an orbiting camera, VCR buttons (to start,\n"
	"back one frame, play/stop, forward one frame, to end), a timeline to scrub, speed and loop,\n"
	"and a click on a body shows its name, position and velocity.\n"
	"A recording is played from its file, never simulated again. A scene is simulated here, on a\n"
	"thread of its own, into frames kept in memory: the page plays them as they come, and going\n"
	"back is instant. Ctrl-C (or SIGTERM) stops the server (exit status 0).\n"
	"\n"
	"With --compare the scene is simulated in 2 to 8 contact methods at once (each its own world on\n"
	"its own thread) and the page shows them overlaid as coloured ghosts, one colour per method, with\n"
	"their energy and momentum plots under one timeline.\n"
	"\n"
	"options:\n"
	"  --compare         simulate the scene in several contact methods side by side\n"
	"  --methods LIST    with --compare: the methods, comma-separated (default: every method that\n"
	"                    can load the scene)\n"
	"  --port N          listen on port N (default: a free port, printed)\n"
	"  --host ADDRESS    listen on this address instead of 127.0.0.1 (an address other machines\n"
	"                    reach lets them see the viewer: a warning says so)\n"
	"  --no-open         print the address only; do not start a browser\n"
	"\n"
	"It prints \"viewer: http://127.0.0.1:PORT/\" on stdout once it listens.\n"
	"exit status: 0 stopped by Ctrl-C or SIGTERM, 1 the server cannot start, 2 bad input.\n"
	"\n"
	"examples:\n"
	"  cairn view scenes/can_toss.json\n"
	"  cairn view --compare scenes/can_toss.json --methods impulse,lcp,penalty\n"
	"  cairn run scenes/dominoes.json --record dominoes.cnrec && cairn view dominoes.cnrec --port 8080\n";

#ifdef CAIRN_VIEWER

// Starts the desktop's browser on url when there is a desktop; the viewer works without one.
static void cliViewOpenBrowser( const char* url )
{
	if ( getenv( "DISPLAY" ) == NULL && getenv( "WAYLAND_DISPLAY" ) == NULL )
	{
		return;
	}
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init( &actions );
	// the browser's chatter stays out of the viewer's output
	posix_spawn_file_actions_addopen( &actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0 );
	posix_spawn_file_actions_addopen( &actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0 );
	posix_spawn_file_actions_addopen( &actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0 );
	char* args[] = { "xdg-open", (char*)url, NULL };
	pid_t pid;
	if ( posix_spawnp( &pid, "xdg-open", &actions, NULL, args, environ ) != 0 )
	{
		fprintf( stderr, "cairn view: no browser started (xdg-open is missing): open %s\n", url );
	}
	posix_spawn_file_actions_destroy( &actions );
}

// Serves until SIGINT or SIGTERM. Both are blocked in every thread (the server's and the
// simulation's inherit the mask) and taken here with sigwait, so no handler runs at a bad moment.
static int cliViewServe( const char* path, const char* host, int port, bool open, bool compare, const char* methods )
{
	sigset_t stopSignals;
	sigemptyset( &stopSignals );
	sigaddset( &stopSignals, SIGINT );
	sigaddset( &stopSignals, SIGTERM );
	pthread_sigmask( SIG_BLOCK, &stopSignals, NULL );
	// a client that goes away mid-answer must not end the process
	signal( SIGPIPE, SIG_IGN );

	// one source, or one per method with --compare (view_compare.c)
	cliViewSource sources[CLI_VIEW_COMPARE_MAX];
	int runCount = 1;
	int status = CLI_OK;
	bool opened = compare ? cliViewCompare_Open( sources, path, methods, &runCount, &status )
						  : cliViewSource_Open( sources, path, &status );
	if ( opened == false )
	{
		cliViewCompare_Close( sources, compare ? runCount : 1 );
		return status;
	}
	const cliViewSource* source = sources;
	char error[256];
	cliViewServer* server = cliViewServer_StartRuns( sources, runCount, host, port, error, sizeof( error ) );
	if ( server == NULL )
	{
		cliError( "%s", error );
		cliViewCompare_Close( sources, runCount );
		return strncmp( error, "--host", 6 ) == 0 ? CLI_BAD_INPUT : CLI_FAILURE;
	}
	if ( cliViewServer_IsLoopback( host ) == false )
	{
		fprintf( stderr, "cairn: warning: --host %s: other machines that reach this address can see the viewer "
						 "and the scene\n",
				 host );
	}
	if ( cliViewCompare_Start( sources, runCount ) == false )
	{
		cliError( "cannot start the simulation thread" );
		cliViewServer_Stop( server );
		cliViewCompare_Close( sources, runCount );
		return CLI_FAILURE;
	}

	// an address of every interface is reached here through loopback
	const char* shown = strcmp( host, "0.0.0.0" ) == 0 ? "127.0.0.1" : strcmp( host, "::" ) == 0 ? "::1" : host;
	char url[128];
	bool bracket = strchr( shown, ':' ) != NULL;
	snprintf( url, sizeof( url ), "http://%s%.64s%s:%d/", bracket ? "[" : "", shown, bracket ? "]" : "",
			  cliViewServer_GetPort( server ) );
	printf( "viewer: %s\n", url );
	fflush( stdout );
	int bodyCount = cnRecording_GetBodyCount( source->description );
	fprintf( stderr, "cairn view: %s (%d bodies): %s; Ctrl-C stops\n", cnRecording_GetSceneName( source->description ),
			 bodyCount,
			 runCount > 1 ? "simulating it in several methods here"
						  : ( source->simulated ? "simulating the scene here" : "playing the recording" ) );
	if ( open )
	{
		cliViewOpenBrowser( url );
	}

	int signalNumber = 0;
	while ( sigwait( &stopSignals, &signalNumber ) != 0 )
	{
	}
	fprintf( stderr, "cairn view: stopped\n" );
	// the server first: no answer reads the source once it is closed
	cliViewServer_Stop( server );
	cliViewCompare_Close( sources, runCount );
	// reap a finished xdg-open
	while ( waitpid( -1, NULL, WNOHANG ) > 0 )
	{
	}
	return CLI_OK;
}

#endif

int cliViewMain( int argc, char** argv )
{
	const char* portText = NULL;
	const char* host = NULL;
	const char* methods = NULL;
	bool noOpen = false;
	bool compare = false;
	const cliOption options[] = {
		{ "--port", &portText, NULL },
		{ "--host", &host, NULL },
		{ "--no-open", NULL, &noOpen },
		{ "--compare", NULL, &compare },
		{ "--methods", &methods, NULL },
	};
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, (int)( sizeof( options ) / sizeof( options[0] ) ), positional, 1,
						   &positionalCount, cliViewHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( positionalCount != 1 )
	{
		cliError( "view needs a recording or a scene (see 'cairn view --help')" );
		return CLI_BAD_INPUT;
	}
	long long port = 0;
	if ( portText != NULL && cliParseInt( "--port", portText, 0, 65535, &port ) == false )
	{
		return CLI_BAD_INPUT;
	}
	if ( host != NULL && host[0] == 0 )
	{
		cliError( "--host: expected an address" );
		return CLI_BAD_INPUT;
	}
	if ( methods != NULL && compare == false )
	{
		cliError( "--methods goes with --compare (see 'cairn view --help')" );
		return CLI_BAD_INPUT;
	}
#ifdef CAIRN_VIEWER
	return cliViewServe( positional[0], host != NULL ? host : "127.0.0.1", (int)port, noOpen == false, compare, methods );
#else
	(void)noOpen;
	cliError( "this cairn was built without the viewer: install libmicrohttpd-dev, Node.js and npm "
			  "(tools/install-deps.sh) and build again" );
	return CLI_FAILURE;
#endif
}
