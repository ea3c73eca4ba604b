// SPDX-License-Identifier: MIT
// The cairn command-line tool: dispatches `cairn CMD ...` to one file per command.
#include "cli.h"

#include <string.h>

#ifndef CAIRN_VERSION
#define CAIRN_VERSION "0.0.0"
#endif

static const cliCommand s_commands[] = {
	{ "run", "simulate a scene; write CSV, a recording, stats, a hash", cliRunHelp, cliRunMain },
	{ "info", "describe a scene or a recording", cliInfoHelp, cliInfoMain },
	{ "demo", "run the built-in demo scene and write its outputs", cliDemoHelp, cliDemoMain },
	{ "bench", "time the step on benchmark scenes", cliBenchHelp, cliBenchMain },
	{ "compare", "run a scene with several contact methods and compare them", cliCompareHelp, cliCompareMain },
	{ "render", "render the motion with POV-Ray: PNG frames, MP4, GIF, WebM, stereo", cliRenderHelp, cliRenderMain },
	{ "export", "write the motion as animated glTF 2.0 (.glb, .gltf)", cliExportHelp, cliExportMain },
	{ "plot", "plot energy, momentum, positions or speeds over time as SVG or PNG", cliPlotHelp, cliPlotMain },
	{ "view", "play a recording or a scene in the browser: VCR buttons, timeline, picking", cliViewHelp, cliViewMain },
};

enum
{
	cliCommandCount = sizeof( s_commands ) / sizeof( s_commands[0] )
};

static const cliCommand* cliFindCommand( const char* name )
{
	for ( int i = 0; i < cliCommandCount; ++i )
	{
		if ( strcmp( s_commands[i].name, name ) == 0 )
		{
			return s_commands + i;
		}
	}
	return NULL;
}

static void cliPrintUsage( FILE* out )
{
	fprintf( out, "usage: cairn COMMAND [options]\n"
				  "\n"
				  "Cairn %s, rigid body simulation. Commands:\n",
			 CAIRN_VERSION );
	for ( int i = 0; i < cliCommandCount; ++i )
	{
		fprintf( out, "  %-7s %s\n", s_commands[i].name, s_commands[i].summary );
	}
	fprintf( out, "\nContact methods (a scene's \"method\", or --method M of run and compare):\n" );
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		fprintf( out, "  %-22s %s\n", cnMethod_GetName( (cnMethod)m ), cnMethod_GetSummary( (cnMethod)m ) );
	}
	fprintf( out, "\n"
				  "  cairn help COMMAND, cairn COMMAND --help   help on one command\n"
				  "  cairn --version                            print the version\n"
				  "\n"
				  "Start with:  cairn demo\n"
				  "Exit status: 0 ok, 1 runtime failure, 2 bad input, 130 interrupted. Full manual: docs/cli.md\n" );
}

int main( int argc, char** argv )
{
	if ( argc < 2 )
	{
		cliPrintUsage( stderr );
		return CLI_BAD_INPUT;
	}
	const char* name = argv[1];
	if ( strcmp( name, "--help" ) == 0 || strcmp( name, "-h" ) == 0 )
	{
		cliPrintUsage( stdout );
		return CLI_OK;
	}
	if ( strcmp( name, "--version" ) == 0 || strcmp( name, "version" ) == 0 )
	{
		printf( "cairn %s\n", CAIRN_VERSION );
		return CLI_OK;
	}
	if ( strcmp( name, "help" ) == 0 )
	{
		if ( argc < 3 )
		{
			cliPrintUsage( stdout );
			return CLI_OK;
		}
		const cliCommand* command = cliFindCommand( argv[2] );
		if ( command == NULL )
		{
			cliError( "unknown command '%s' (see 'cairn --help')", argv[2] );
			return CLI_BAD_INPUT;
		}
		fputs( command->help, stdout );
		return CLI_OK;
	}
	const cliCommand* command = cliFindCommand( name );
	if ( command == NULL )
	{
		cliError( "unknown command '%s' (see 'cairn --help')", name );
		return CLI_BAD_INPUT;
	}
	return command->main( argc - 1, argv + 1 );
}
