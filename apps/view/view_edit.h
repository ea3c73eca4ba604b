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
/// answer function is). *requestContext holds the body read so far; cliViewEdit_Completed frees it.
enum MHD_Result cliViewEdit_Answer( cliViewSource* source, struct MHD_Connection* connection, const char* url,
									const char* method, const char* uploadData, size_t* uploadSize,
									void** requestContext );

/// Frees what cliViewEdit_Answer kept for a request (libmicrohttpd's request-completed callback).
void cliViewEdit_Completed( void* requestContext );
