// SPDX-License-Identifier: MIT
// libcairn_io: what Cairn reads and writes, built on libcairn's public API (cairn.h). JSON scenes
// (scene.h), FOSSSim XML scenes (fosssim.h), binary recordings (recording.h), CSV (csv.h), cameras
// and POV-Ray frames (render.h), and output files that appear only complete (below). Errors go to the same thread-local error state
// as libcairn's (cnGetError); messages start with the file they are about.
#pragma once

#include "cairn/cairn.h"
#include "cairn/csv.h"
#include "cairn/fosssim.h"
#include "cairn/gltf.h"
#include "cairn/recording.h"
#include "cairn/render.h"
#include "cairn/scene.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// output files

/// A file written under a temporary name ("PATH.tmp") and renamed to PATH only when committed, so
/// an interrupted or failed writer never leaves a half-written file under the real name.
typedef struct cnOutputFile cnOutputFile;

/// Opens "path.tmp" for writing (binary); NULL with cnError_io when it cannot be created.
CN_API cnOutputFile* cnCreateOutputFile( const char* path );

/// The stream to write to (valid until the file is committed or destroyed).
CN_API FILE* cnOutputFile_GetStream( cnOutputFile* file );

/// The final path.
CN_API const char* cnOutputFile_GetPath( const cnOutputFile* file );

/// Flushes and closes the stream and renames the temporary file to the path; false (cnError_io)
/// when a write failed or the rename did not happen (the temporary file is then removed).
CN_API bool cnOutputFile_Commit( cnOutputFile* file );

/// Frees the file; when it was not committed its temporary file is closed and removed (NULL is
/// allowed).
CN_API void cnDestroyOutputFile( cnOutputFile* file );

// ---------------------------------------------------------------------------------------------
// meshes and heightfields from files

/// Reads a triangle mesh from an OBJ, STL or PLY file (assimp: faces triangulated, every mesh of the
/// file merged under its node transforms, vertices at the same position welded), each coordinate
/// multiplied by scale; NULL with the file and the reason in cnGetError (missing file, no triangles,
/// assimp's message, cnCreateMesh's).
CN_API cnMesh* cnLoadMesh( const char* path, cnVec3 scale );

/// Reads a heightfield of sizeX by sizeY metres from a 16-bit (or 8-bit) grayscale PNG: one sample
/// per pixel, height = heightScale * value / largest value of the depth, the image's top row at +y
/// (columns along +x); NULL with the file and the reason in cnGetError.
CN_API cnHeightfield* cnLoadHeightfieldPng( const char* path, double sizeX, double sizeY, double heightScale );

// ---------------------------------------------------------------------------------------------
// snapshot files (docs/snapshots.md)

/// Writes a snapshot of the world (cnWorld_Save) to a file that appears only complete; false with
/// "PATH: reason" in cnGetError.
CN_API bool cnSaveSnapshot( const cnWorld* world, const char* path );

/// Loads a world from a snapshot file (cnWorld_Load); NULL with "PATH: reason" in cnGetError.
CN_API cnWorld* cnLoadSnapshot( const char* path );

/// True when the file starts like a snapshot ("CAIRNSNP").
CN_API bool cnIsSnapshotFile( const char* path );

#ifdef __cplusplus
}
#endif
