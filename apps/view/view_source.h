// SPDX-License-Identifier: MIT
// What `cairn view` shows: the bodies, shapes and joints (always as a cnRecording, so a scene and a
// recording are described alike) and the frames. A recording's frames come from its file and are
// never simulated again; a scene is simulated on a thread of its own by the library's run loop
// (cnRun), whose frame writer appends every frame to a cache in memory, so the page can go back to
// any frame at once while later frames are still being made.
#pragma once

#include "cairn/io.h"

#include <pthread.h>
#include <stdbool.h>

/// Most bytes the frame cache of a simulated scene may take; past it the simulation stops early.
#define CLI_VIEW_MAX_CACHE_BYTES ( (size_t)1 << 30 )

/// A recording file or a scene being simulated, and its frames.
typedef struct cliViewSource
{
	/// the bodies (with their shapes and surfaces) and joints; a recording's own frames, for a scene
	/// only its frame 0
	cnRecording* description;
	/// true for a scene simulated here, false for a recording file
	bool simulated;
	/// numbers per frame: the time, then per body position x, y, z and orientation w, x, y, z
	int stride;
	/// the scene's duration, or the recording's last frame time
	double duration;
	double fps;

	// a scene only: the world, the thread that runs it, and the cache it fills
	cnScene* scene;
	cnBodyId* bodies;
	pthread_t thread;
	bool threadStarted;
	/// guards everything below
	pthread_mutex_t lock;
	double* cache;
	int frameCount;
	int frameCapacity;
	/// the run ended (finished, failed, cancelled or the cache is full)
	bool complete;
	/// why it ended early ("" when it finished or still runs)
	char message[512];
} cliViewSource;

/// Opens a recording file or loads a scene (printing the loader's message on failure). A scene is
/// not simulated yet (cliViewSource_Start). False on failure, with *status the exit status;
/// cliViewSource_Close frees what was made either way.
bool cliViewSource_Open( cliViewSource* source, const char* path, int* status );

/// Starts simulating a scene on its own thread (nothing to do for a recording). False when the
/// thread cannot be made.
bool cliViewSource_Start( cliViewSource* source );

/// Stops the simulation (cancels the step that runs), waits for its thread and frees everything.
void cliViewSource_Close( cliViewSource* source );

/// Frames available now, and whether no more will come (copied under the lock).
int cliViewSource_GetFrameCount( cliViewSource* source, bool* complete, char* message, size_t messageSize );

/// Copies at most count frames from frame `from` into out (count * stride numbers); returns how
/// many were copied (0 when from is at or past the frames available).
int cliViewSource_CopyFrames( cliViewSource* source, int from, int count, double* out );
