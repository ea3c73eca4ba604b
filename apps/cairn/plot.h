// SPDX-License-Identifier: MIT
// The plain data `cairn plot` passes between its stages: what is asked for (cliPlotRequest), the
// samples an input gives (cliPlotData, read by plot_input.c), and the series and panels drawn from
// them (cliPlotLayout, built by plot_series.c); cmd_plot.c parses the options and writes the
// outputs. Internal to the tool.
#pragma once

#include "cli.h"
#include "svg_plot.h"

#include <stdbool.h>
#include <stddef.h>

// bodies chosen when --bodies is not given
#define CLI_PLOT_DEFAULT_BODIES 5

// ---------------------------------------------------------------------------------------------
// series kinds

/// The series --series names, in the order of cliPlotKinds.
typedef enum cliPlotKind
{
	cliPlotKind_energy,
	cliPlotKind_kinetic,
	cliPlotKind_potential,
	cliPlotKind_momentum,
	cliPlotKind_position,
	cliPlotKind_height,
	cliPlotKind_distance,
	cliPlotKind_speed,
	cliPlotKind_count
} cliPlotKind;

/// What a kind of series is: its name, its y axis and how many lines it draws.
typedef struct cliPlotKindInfo
{
	const char* name;
	// what the y axis shows, for its label
	const char* quantity;
	const char* unit;
	// drawn per body (else once for the whole world, scenes only)
	bool perBody;
	// lines per body (or per world): 3 for vector components
	int components;
} cliPlotKindInfo;

/// Every kind's name, axis and lines (plot_series.c).
extern const cliPlotKindInfo cliPlotKinds[cliPlotKind_count];

/// The kinds' names as an error message lists them.
extern const char cliPlotKindList[];

// ---------------------------------------------------------------------------------------------
// what is asked for

/// The input and the options that decide what is read and sampled.
typedef struct cliPlotRequest
{
	const char* input;
	// --series, in the order given
	cliPlotKind kinds[cliPlotKind_count];
	int kindCount;
	// some kind is drawn per body, so bodies are tracked and chosen
	bool perBody;
	// --bodies as given (NULL: the ones that move the most)
	const char* bodies;
	// --duration as given (NULL: the scene's) and its value
	const char* durationText;
	double duration;
	// --method (NULL: the scene's)
	const char* method;
	// no progress line
	bool quiet;
} cliPlotRequest;

// ---------------------------------------------------------------------------------------------
// sampled data

/// One body's samples.
typedef struct cliPlotBody
{
	// as shown: its name, or "#INDEX" for an unnamed one (plot_input.c)
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
} cliPlotBody;

/// Samples shared by every series: their times, the world's measures (scenes only, else NULL) and
/// the chosen bodies'.
typedef struct cliPlotData
{
	char* title;
	int count;
	int capacity;
	double* time;
	double* kinetic;
	double* potential;
	cnVec3* momentum;
	int bodyCount;
	cliPlotBody* bodies;
	// what "height" measures: the coordinate along up, and how the axis label names it
	cnVec3 up;
	const char* upName;
} cliPlotData;

/// Frees what the data holds (the struct itself is the caller's).
void cliPlotData_Free( cliPlotData* data );

// ---------------------------------------------------------------------------------------------
// the readers (plot_input.c); each fills an empty cliPlotData and returns an exit status

/// Loads and runs a scene as `cairn run` does, sampling it at t = 0 and after every step (Ctrl-C
/// cancels the run: CLI_INTERRUPTED after saying so).
int cliPlotLoadScene( const cliPlotRequest* request, cliPlotData* data );

/// Reads a recording: positions at every frame, speeds by central differences.
int cliPlotLoadRecording( const cliPlotRequest* request, cliPlotData* data );

/// Reads a CSV of `cairn run --csv`: positions, speeds from its velocity columns.
int cliPlotLoadCsv( const cliPlotRequest* request, cliPlotData* data );

// ---------------------------------------------------------------------------------------------
// which bodies (plot_series.c)

/// The next item of a comma-separated list at *cursor, spaces around it trimmed; false at the end.
bool cliPlotNextItem( const char** cursor, const char** item, size_t* length );

/// Resolves --bodies against the names of a source's bodies: writes their indices (in the list's
/// order) to *indices (the caller frees it) and returns their count, or -1 after printing an error.
int cliPlotResolveBodies( const char* text, const char* source, const char* const* names, int nameCount,
						  int** indices );

/// The bodies that moved the most: up to CLI_PLOT_DEFAULT_BODIES non-static ones by path length
/// (ties in their order), in that order. Returns how many, written to keep.
int cliPlotChooseMovers( const cliPlotData* data, int keep[CLI_PLOT_DEFAULT_BODIES] );

// ---------------------------------------------------------------------------------------------
// series and panels (plot_series.c)

/// One line of the plot: a kind, of the world or of one body, in one panel.
typedef struct cliPlotSeries
{
	cliPlotKind kind;
	// vector component (momentum, position)
	int component;
	// index into data->bodies; -1 for the world's series
	int body;
	int panel;
	char* label;
	const cliPlotData* data;
} cliPlotSeries;

/// The series and panels to draw: kinds in the asked order, bodies in their order within each kind,
/// one panel per unit in the order the units first appear.
typedef struct cliPlotLayout
{
	cliPlotSeries* series;
	int seriesCount;
	const char* units[cliPlotKind_count];
	char* panelLabels[cliPlotKind_count];
	svgPanel panels[cliPlotKind_count];
	int panelCount;
} cliPlotLayout;

/// The value of a series at sample i.
double cliPlotValue( const cliPlotSeries* s, int i );

/// Builds the series and panels of the request's kinds over the data's bodies; false after printing
/// an error (what was built is freed by cliPlotLayout_Free all the same).
bool cliBuildPlotLayout( const cliPlotRequest* request, const cliPlotData* data, cliPlotLayout* plot );

/// Frees the series' and panels' labels and the series.
void cliPlotLayout_Free( cliPlotLayout* plot );
