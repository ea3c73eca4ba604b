// SPDX-License-Identifier: MIT
// World snapshots (docs/snapshots.md): what the format's sections are and the limits the reader
// checks. snapshot.c writes a world, snapshot_load.c reads one back.
#pragma once

#include <stdint.h>

/// The file's first 8 bytes.
#define CN_SNAPSHOT_MAGIC "CAIRNSNP"

/// Format version: bumped whenever what is written changes; the reader takes this version only.
#define CN_SNAPSHOT_VERSION 2u

/// Most records of one kind a snapshot may hold (bodies, shapes, contacts, joints, forces, ...).
#define CN_SNAPSHOT_MAX_RECORDS ( 1 << 26 )

#include "cairn/types.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct cnManifoldPoint cnManifoldPoint;
typedef struct cnShape cnShape;

/// Every number of the point is finite: the reader refuses a point that is not, so the writer
/// refuses to write one (a step that failed can leave impulses NaN).
bool cnSnapshotFinitePoint( const cnManifoldPoint* p );

/// Both boxes of the shape are finite (as above).
bool cnSnapshotFiniteBoxes( const cnShape* s );

/// cnWorld_Load, with the checksum check optional: the fuzzer turns it off to reach the checks behind
/// it (a random change almost never keeps the checksum right).
cnWorld* cnLoadSnapshotData( const void* data, size_t size, bool verifyChecksum );
