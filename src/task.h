// SPDX-License-Identifier: MIT
// The task system: the step's parallel loops. A stage hands cnParallelFor a loop over its items; the
// items are split into contiguous ranges that run on the world's workers (its own threads, or the
// embedding program's scheduler from cnWorldDef.enqueueTask), and the call returns when all ran.
//
// How a loop is split depends on the worker count and on timing, so a task must give the same bits
// whatever the split: it writes only outputs that belong to its items (item i's slot of an array),
// and anything summed over items is summed afterwards, serially in item order. Per-worker scratch
// (indexed by workerIndex) is for buffers only, never for results that are combined.
#pragma once

#include "cairn/types.h"

#include <stdbool.h>

typedef struct cnWorld cnWorld;
typedef struct cnTaskPool cnTaskPool;

/// A loop body over the items [startIndex, endIndex), run on worker workerIndex
/// (0 <= workerIndex < cnWorld_WorkerCount; two ranges never run at once with one workerIndex).
typedef cnTaskCallback cnTaskFn;

/// Runs fn over the items [0, itemCount) split into contiguous ranges of at least minRange items (the
/// last may be shorter when itemCount is) on the world's workers; returns when every range has run.
/// With one worker, or too few items for two ranges, it calls fn( 0, itemCount, 0, context ) inline.
/// Only the thread that steps the world calls it, and never from inside a task.
void cnParallelFor( cnWorld* world, int itemCount, int minRange, cnTaskFn* fn, void* context );

/// The world's worker count (cnWorldDef.workerCount): per-worker scratch needs this many slots.
int cnWorld_WorkerCount( const cnWorld* world );

/// Starts workerCount - 1 threads (none for 1 worker); NULL with the error set when one cannot start
/// or memory ran out (the threads started are stopped again).
cnTaskPool* cnTaskPool_Create( int workerCount );

/// Stops and joins the threads and frees the pool (NULL is allowed).
void cnTaskPool_Destroy( cnTaskPool* pool );
