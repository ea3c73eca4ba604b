// SPDX-License-Identifier: MIT
// World snapshots (docs/snapshots.md): what the format's sections are and the limits the reader
// checks. snapshot.c writes a world, snapshot_load.c reads one back.
#pragma once

#include <stdint.h>

/// The file's first 8 bytes.
#define CN_SNAPSHOT_MAGIC "CAIRNSNP"

/// Format version: bumped whenever what is written changes; the reader takes this version only.
#define CN_SNAPSHOT_VERSION 3u

/// Most records of one kind a snapshot may hold (bodies, shapes, contacts, joints, forces, ...).
#define CN_SNAPSHOT_MAX_RECORDS ( 1 << 26 )

#include "cairn/types.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct cnManifoldPoint cnManifoldPoint;
typedef struct cnShape cnShape;
typedef struct cnBody cnBody;
typedef struct cnJoint cnJoint;

// What the reader refuses as not finite, which a step that failed can leave behind: the writer
// refuses to write it, so that every snapshot written loads back.

/// Unit within a body's tolerance: |q| within 1e-6 of 1.
bool cnSnapshotUnitQuat( cnQuat q );

/// Every number of a live body is finite and its rotation unit.
bool cnSnapshotFiniteBody( const cnBody* b );

/// Every number of a live joint is finite, its frames unit and its break limits not negative.
bool cnSnapshotFiniteJoint( const cnJoint* j );

/// Every number of the point is finite.
bool cnSnapshotFinitePoint( const cnManifoldPoint* p );

/// Both boxes of the shape are finite (as above).
bool cnSnapshotFiniteBoxes( const cnShape* s );

/// cnWorld_Load, with the checksum check optional: the fuzzer turns it off to reach the checks behind
/// it (a random change almost never keeps the checksum right).
cnWorld* cnLoadSnapshotData( const void* data, size_t size, bool verifyChecksum );
