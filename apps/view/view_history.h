// SPDX-License-Identifier: MIT
// The history of a simulated scene in `cairn view` (docs/viewer.md, "Sync points and cuts"):
// snapshots (cnWorld_Save) of the world every few frames, so the world at any frame can be made
// again exactly (load the snapshot at or before it and step on: the run is deterministic), the sync
// points the user marked, and the edited world of the last cut. Every call is made with the
// source's lock held.
#pragma once

#include "cairn/cairn.h"

#include <stdbool.h>
#include <stddef.h>

/// A snapshot every this many frames at first; the spacing doubles whenever the snapshots pass
/// CLI_VIEW_MAX_SNAPSHOT_BYTES, so their memory stays bounded however long the run.
#define CLI_VIEW_SNAPSHOT_EVERY 30
#define CLI_VIEW_MAX_SNAPSHOT_BYTES ( (size_t)256 << 20 )
/// Most sync points kept.
#define CLI_VIEW_MAX_SYNC_POINTS 4096

/// One snapshot: the world as it was when frame `frame` was written.
typedef struct cliViewSnapshot
{
	int frame;
	void* data;
	size_t size;
} cliViewSnapshot;

/// Snapshots, sync points and the last cut.
typedef struct cliViewHistory
{
	cliViewSnapshot* snapshots;
	int snapshotCount;
	int snapshotCapacity;
	size_t snapshotBytes;
	/// frames between snapshots (doubles when memory runs short)
	int every;
	/// the first frame of the run now going (0, or the last cut's frame): always snapshotted
	int runStart;
	/// the sync points, ascending
	int* syncPoints;
	int syncCount;
	/// the frame of the last cut (-1: none) and how many cuts were made
	int cutFrame;
	int cutCount;
	/// snapshots that could not be taken (out of memory), and why the last one failed: a cut near
	/// such a frame starts from an earlier snapshot (slower, the same result); the viewer reports them
	int snapshotFailures;
	char snapshotError[256];
	/// the cuts of the running history, by frame: each one's edits as JSON text, to replay it
	int* cutFrames;
	char** cutEdits;
	int cutListCount;
} cliViewHistory;

/// An empty history.
void cliViewHistory_Init( cliViewHistory* history );

/// Frees the snapshots and sync points.
void cliViewHistory_Free( cliViewHistory* history );

/// Called as frame `frame` is written: snapshots the world when the frame is due one. False only
/// when the snapshot could not be taken (memory ran out): the failure is counted in snapshotFailures
/// with its reason in snapshotError, the run goes on, and cuts then start further back.
bool cliViewHistory_OnFrame( cliViewHistory* history, const cnWorld* world, int frame );

/// The latest snapshot at or before frame, NULL when none.
const cliViewSnapshot* cliViewHistory_Find( const cliViewHistory* history, int frame );

/// Forgets the snapshots from frame on and the sync points after it (a cut at frame).
void cliViewHistory_Truncate( cliViewHistory* history, int frame );

/// Adds a cut at frame with its edits (JSON text, copied) after Truncate dropped the later ones;
/// false when memory ran out.
bool cliViewHistory_AddCut( cliViewHistory* history, int frame, const char* edits );

/// Marks (or, with on false, unmarks) frame as a sync point; false when the list is full.
bool cliViewHistory_SetSync( cliViewHistory* history, int frame, bool on );
