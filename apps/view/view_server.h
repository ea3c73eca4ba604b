// SPDX-License-Identifier: MIT
// The HTTP server of `cairn view` (libmicrohttpd, its own threads): the embedded page and a small
// read-only API over a cliViewSource. Only exact paths are answered; everything else is a JSON error.
#pragma once

#include "view_source.h"
#include "view_text.h"

#include <stdbool.h>
#include <stddef.h>

/// Longest request target answered (bytes); longer ones get 414.
#define CLI_VIEW_MAX_URL 2048

/// Most numbers one /api/frames answer holds (frames times the numbers per frame); a larger count
/// is cut to fit, so no request makes the server build a huge answer.
#define CLI_VIEW_MAX_FRAME_NUMBERS ( 1 << 21 )

/// Most connections open at once; more are refused by the listening socket's owner.
#define CLI_VIEW_MAX_CONNECTIONS 256

/// A running server.
typedef struct cliViewServer cliViewServer;

/// Starts serving source on host:port (port 0: a free one). NULL with a one-line reason in error
/// when the host is not an address or the socket cannot be bound.
cliViewServer* cliViewServer_Start( cliViewSource* source, const char* host, int port, char* error, size_t errorSize );

/// Starts serving runCount runs of one scene (`cairn view --compare`: one per method; they share
/// the first run's bodies, shapes and joints); requests pick one with run=I. As cliViewServer_Start.
cliViewServer* cliViewServer_StartRuns( cliViewSource* sources, int runCount, const char* host, int port, char* error,
										size_t errorSize );

/// The port the server listens on.
int cliViewServer_GetPort( const cliViewServer* server );

/// Stops the server: waits for its threads (answers in flight end) and frees it (NULL is allowed).
void cliViewServer_Stop( cliViewServer* server );

/// Whether host names a loopback address (127.0.0.0/8, ::1, "localhost"): anything else is reachable
/// from other machines.
bool cliViewServer_IsLoopback( const char* host );

/// Appends "bodies": [...], "joints": [...] of /api/scene for a recording's bodies, shapes and
/// joints (docs/viewer.md, "The API"); the editor's check describes an edited scene with it.
void cliViewServer_DescribeBodies( cliViewText* text, const cnRecording* recording );
