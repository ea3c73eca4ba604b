// SPDX-License-Identifier: MIT
// `cairn view --compare SCENE [--methods a,b,...]`: one scene simulated in two to eight contact
// methods at once, each its own world on its own thread (a cliViewSource per method), served as
// the runs of one viewer (docs/viewer.md, "Methods side by side").
#pragma once

#include "view_source.h"

/// Fewest and most methods one comparison shows.
#define CLI_VIEW_COMPARE_MIN 2
#define CLI_VIEW_COMPARE_MAX 8

/// Opens one source per method of methodsText ("a,b,c"; NULL: every method that can load the
/// scene) into sources (CLI_VIEW_COMPARE_MAX of them); *count gets how many. False after printing
/// why, with *status the exit status; cliViewCompare_Close frees what was opened either way.
bool cliViewCompare_Open( cliViewSource sources[CLI_VIEW_COMPARE_MAX], const char* path, const char* methodsText,
						  int* count, int* status );

/// Starts every run's simulation thread; false when one cannot be made.
bool cliViewCompare_Start( cliViewSource* sources, int count );

/// Cancels every run, waits for their threads and frees them.
void cliViewCompare_Close( cliViewSource* sources, int count );
