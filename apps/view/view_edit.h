// SPDX-License-Identifier: MIT
// The requests of `cairn view` that change or save the history of a simulated scene
// (docs/viewer.md, "Sync points and cuts"): POST /api/sync, POST /api/cut, GET /api/sync,
// GET /api/save/scene and GET /api/save/recording. A POST's JSON body is read in pieces up to
// CLI_VIEW_MAX_BODY bytes; a larger one is a 413, a malformed one a 400, and a recording (nothing to
// simulate again) a 409.
#pragma once

#include "view_source.h"

#include <microhttpd.h>
#include <stdbool.h>

/// Largest request body read, bytes.
#define CLI_VIEW_MAX_BODY ( 64 * 1024 )

/// True when url is one of these requests.
bool cliViewEdit_Handles( const char* url );

/// Answers one of them (called by libmicrohttpd's handler for each piece of the request, as its
/// answer function is) for the runs sources[0 .. runCount - 1] (one, but with --compare), of which
/// the request names run: a sync point or a cut is made in every run (they share the one timeline),
/// the answer and the saved scene or recording are run's. *requestContext holds the body read so
/// far; cliViewEdit_Completed frees it.
enum MHD_Result cliViewEdit_Answer( cliViewSource* sources, int runCount, int run, struct MHD_Connection* connection,
									const char* url, const char* method, const char* uploadData, size_t* uploadSize,
									void** requestContext );

/// Frees what cliViewEdit_Answer kept for a request (libmicrohttpd's request-completed callback).
void cliViewEdit_Completed( void* requestContext );

/// Gathers a POST body of at most maxBytes over the calls libmicrohttpd makes for one request
/// (the editor's requests use it too, view_scene_edit.c). Returns 0 while more is to come (answer
/// MHD_YES), 1 when it is all read (*data, zero-terminated, NULL when empty; *size), -1 when it is
/// over maxBytes (answer 413), -2 when memory ran out (answer MHD_NO). cliViewEdit_Completed frees it.
int cliViewEdit_ReadBody( struct MHD_Connection* connection, const char* uploadData, size_t* uploadSize,
						  void** requestContext, size_t maxBytes, const char** data, size_t* size );
