// SPDX-License-Identifier: MIT
// Shared pieces of the cairn command-line tool: the commands, option parsing, the simulation
// loop used by `run` and `demo`, and small file and clock helpers.
#pragma once

#include "cairn/cairn.h"
#include "cairn/io.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

// exit statuses (docs/cli.md)
enum
{
	CLI_OK = 0,
	CLI_FAILURE = 1,
	CLI_BAD_INPUT = 2,
	CLI_INTERRUPTED = 130,
};

/// One command: its name, a one-line summary, its full help text and its entry point.
typedef struct cliCommand
{
	const char* name;
	const char* summary;
	const char* help;
	int ( *main )( int argc, char** argv );
} cliCommand;

/// Entry points; argv[0] is the command name.
int cliRunMain( int argc, char** argv );
int cliInfoMain( int argc, char** argv );
int cliDemoMain( int argc, char** argv );
int cliBenchMain( int argc, char** argv );
int cliCompareMain( int argc, char** argv );
int cliPlotMain( int argc, char** argv );
int cliRenderMain( int argc, char** argv );
int cliExportMain( int argc, char** argv );
int cliViewMain( int argc, char** argv );

/// Help texts of the commands.
extern const char cliRunHelp[];
extern const char cliInfoHelp[];
extern const char cliDemoHelp[];
extern const char cliBenchHelp[];
extern const char cliCompareHelp[];
extern const char cliPlotHelp[];
extern const char cliRenderHelp[];
extern const char cliExportHelp[];
extern const char cliViewHelp[];

/// The built-in demo scene (scenes/bouncing_balls.json embedded at build time; "" if it was missing).
extern const unsigned char cnDemoSceneJson[];

// ---------------------------------------------------------------------------------------------
// option parsing

/// An option a command accepts: "--name VALUE" (or "--name=VALUE") when value is set, a flag
/// "--name" when flag is set.
typedef struct cliOption
{
	const char* name;
	const char** value;
	bool* flag;
} cliOption;

/// Parses argv[1..] into options and positional arguments (at most maxPositional, stored in
/// positional). Returns -1 when parsing succeeded, otherwise the exit status to return: 0 after
/// printing the help for --help, 2 after printing an error.
int cliParse( int argc, char** argv, const cliOption* options, int optionCount, const char** positional,
			  int maxPositional, int* positionalCount, const char* help );

/// Prints "cairn: error: ..." on stderr.
void cliError( const char* format, ... );

/// Parses a finite double; min is inclusive or exclusive. Prints an error and returns false when
/// text is not such a number.
bool cliParseDouble( const char* option, const char* text, double min, bool minInclusive, double* out );

/// Parses an integer in [min, max]; prints an error and returns false otherwise.
bool cliParseInt( const char* option, const char* text, long long min, long long max, long long* out );

/// Seconds on a monotonic clock.
double cliNow( void );

/// Creates a directory and its parents (like mkdir -p). Prints an error and returns false on failure.
bool cliMakeDirectories( const char* path );

/// Loads a scene (JSON, or FOSSSim XML without force elements) with an optional method override
/// (NULL or "": the scene's own). Prints the loader's message and returns NULL on failure.
cnScene* cliLoadScene( const char* path, const char* method );

/// Loads a scene for `run`: JSON, or FOSSSim XML (force elements allowed; *fosssim then holds the
/// FOSSSim scene, which owns the returned scene). Prints the loader's message on failure.
cnScene* cliLoadRunScene( const char* path, const char* method, cnFosssimScene** fosssim );

/// Prints the scene's warnings (cnScene.warnings) on stderr, "cairn: warning: FILE: JSONPATH: reason"
/// each, skipping lines this process has printed already. cliLoadScene and cliLoadRunScene call it.
void cliPrintWarnings( const cnScene* scene );

/// Loads what `render` and `export` draw: a recording file as it is, or a scene (JSON or FOSSSim)
/// run into a recording in memory at fps (<= 0: the scene's), with a progress line unless quiet.
/// *camera gets the scene's camera named cameraName (NULL: its first, if any); an unknown name, or
/// any name for a recording, is an error found before simulating. *scene holds the scene (it owns
/// the camera; NULL for a recording). NULL after printing an error, with *status the exit status;
/// verb ("render", "export") says what to do with the scene instead in messages.
cnRecording* cliLoadRecordingInput( const char* path, double fps, bool quiet, const char* cameraName, const char* verb,
									cnScene** scene, const cnCameraDef** camera, int* status );

/// The folder a file is in, as a new string (NULL for a bare name: the current directory); what
/// texture names are relative to.
char* cliFolderOf( const char* path );

/// Destroys what cliLoadRunScene returned.
void cliDestroyRunScene( cnScene* scene, cnFosssimScene* fosssim );

// ---------------------------------------------------------------------------------------------
// interrupts

/// From now on Ctrl-C (SIGINT) and SIGTERM cancel the world's running step (cnWorld_Cancel), which
/// answers within one of its internal steps.
void cliCatchInterrupts( cnWorld* world );

/// Restores the default handlers; returns whether an interrupt arrived since cliCatchInterrupts.
bool cliReleaseInterrupts( void );

/// Whether an interrupt arrived since cliCatchInterrupts (handlers kept).
bool cliInterrupted( void );

// ---------------------------------------------------------------------------------------------
// the simulation of `run` and `demo`

/// What to simulate and what to write.
typedef struct cliRunConfig
{
	double duration;
	double fps;
	/// output files, NULL for none
	const char* csvPath;
	const char* recordPath;
	/// every joint at every written frame (cnJointCsvWriter), NULL for none
	const char* jointsCsvPath;
	/// when set, every body is also recorded into memory and the recording handed back here (the
	/// caller destroys it): what `render` and `export` draw a scene from
	cnRecording** memoryRecording;
	/// comma-separated body names the outputs are limited to (NULL: CSV every non-static body,
	/// recording every body)
	const char* bodies;
	/// write every n-th frame (1: all)
	int every;
	bool stats;
	bool hash;
	/// no summary and no progress line
	bool quiet;
	/// called before every step (NULL: none); returning false stops the run with a failure
	bool ( *beforeStep )( cnWorld* world, void* context );
	void* beforeStepContext;
	/// --save-state: a snapshot of the world written to this file (NULL: none) at the end of the first
	/// step that reaches saveStateAt seconds of simulated time (< 0: at the end of the run)
	const char* saveStatePath;
	double saveStateAt;
} cliRunConfig;

/// Runs the scene's world with the library's run loop (cnRun) to cfg->duration, writing frames at
/// cfg->fps; prints the summary, stats and hash asked for. Returns an exit status. Output files
/// appear under their names only when everything succeeded.
int cliSimulate( cnScene* scene, const cliRunConfig* cfg, cnRunResult* result );

/// A one-line progress display on stderr for cnRunDef.progress (context: a cliProgress), drawn only
/// on a terminal and only once a run has lasted a second.
typedef struct cliProgress
{
	bool enabled;
	const char* label;
	int drawnWidth;
} cliProgress;

/// The cnRunDef.progress callback drawing a cliProgress.
void cliDrawProgress( const cnRunProgress* progress, void* context );

/// Erases a drawn progress line.
void cliEraseProgress( cliProgress* progress );
