// SPDX-License-Identifier: MIT
// Binary recordings of a simulation: what a renderer or viewer needs to replay it without the
// scene file. A recording holds, once, every body's name, type and shapes (size, polygon
// vertices, local pose, material colour), then one frame per call to cnRecorder_AddFrame with the
// time and every body's position and orientation. The byte layout (little-endian, versioned) is
// documented in docs/recording-format.md.
//
// The writer writes into "path.tmp" and renames it to path only in cnRecorder_Finish, so a
// crashed or aborted run never leaves a half-written recording under the real name; it can also
// record into memory. Part of libcairn_io.
#pragma once

#include "cairn/cairn.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The eight bytes every recording starts with.
#define CN_RECORDING_MAGIC "CAIRNREC"

/// Newest version of the byte layout this build writes and reads. Version 2 added polygon shapes,
/// version 3 each shape's appearance (finish, index of refraction, texture); the writer writes the
/// oldest version that holds what it records (1 without polygons or appearance: the layouts are then
/// the same), so older readers keep reading those files. The reader reads versions 1 to
/// CN_RECORDING_VERSION.
#define CN_RECORDING_VERSION 3

/// The first version that can hold polygon shapes.
#define CN_RECORDING_VERSION_POLYGON 2

/// The first version that holds each shape's appearance (finish, ior, texture).
#define CN_RECORDING_VERSION_APPEARANCE 3

/// Longest texture file name a recording holds (bytes).
#define CN_RECORDING_MAX_TEXTURE 4096

/// Most vertices of a recorded polygon (the library's own limit for a polygon shape).
#define CN_RECORDING_MAX_POLYGON_VERTICES 32767

/// A recording being written.
typedef struct cnRecorder cnRecorder;

/// A recording read back into memory.
typedef struct cnRecording cnRecording;

/// A shape as stored in a recording: the size fields of its type, its pose in the body frame and
/// the appearance of its material (colour in linear RGB in [0, 1], finish, ior, texture).
typedef struct cnRecordedShape
{
	cnShapeType type;
	/// sphere, capsule, cylinder radius; polygon edge radius
	double radius;
	/// box half extents
	cnVec3 halfExtents;
	/// capsule and cylinder half height along local z
	double halfHeight;
	/// plane normal (body frame) and offset: dot(n, x) = offset
	cnVec3 normal;
	double offset;
	/// polygon: vertexCount vertices (x, y, 0) in the shape frame, owned by the recording (valid until
	/// cnDestroyRecording); 0 and NULL for the other types
	int vertexCount;
	const cnVec3* vertices;
	/// shape frame relative to the body frame
	cnTransform localPose;
	float color[3];
	/// finish and index of refraction (plastic and 1.5 in files older than version 3)
	cnFinish finish;
	double ior;
	/// texture image file name, owned by the recording ("" when none)
	const char* texture;
} cnRecordedShape;

// ---------------------------------------------------------------------------------------------
// writer

/// What to record.
typedef struct cnRecorderDef
{
	/// the file (written as "path.tmp" until cnRecorder_Finish renames it); NULL records into
	/// memory (cnRecorder_GetBytes)
	const char* path;
	/// the scene name stored in the recording (NULL: "")
	const char* sceneName;
	/// frame rate stored in the recording, informational (frames are added by the caller); > 0
	double fps;
	/// the bodies to record, in this order (NULL: every body the world has now, in creation order)
	const cnBodyId* bodies;
	int bodyCount;
} cnRecorderDef;

/// Defaults: memory, no name, 60 fps, every body.
CN_API cnRecorderDef cnDefaultRecorderDef( void );

/// Starts a recording: writes the header and the description of the recorded bodies and their
/// shapes. NULL when the file cannot be written or the def is invalid.
CN_API cnRecorder* cnCreateRecorder( const cnWorld* world, const cnRecorderDef* def );

/// Appends one frame: the world time and the transform of every recorded body. Returns false when
/// writing failed or a recorded body no longer exists; the recorder then refuses further frames and
/// cnRecorder_Finish fails.
CN_API bool cnRecorder_AddFrame( cnRecorder* recorder, const cnWorld* world );

/// Number of frames added so far.
CN_API int cnRecorder_GetFrameCount( const cnRecorder* recorder );

/// Completes the recording: writes the frame count into the header; a file recording is closed and
/// renamed from "path.tmp" to path. False when a frame or the write failed (nothing is left under
/// the path).
CN_API bool cnRecorder_Finish( cnRecorder* recorder );

/// A finished memory recording: its bytes (valid until the recorder is destroyed) and their count;
/// NULL for a file recording or before cnRecorder_Finish.
CN_API const void* cnRecorder_GetBytes( const cnRecorder* recorder, size_t* size );

/// Frees the recorder; an unfinished file recording leaves no file (NULL is allowed).
CN_API void cnDestroyRecorder( cnRecorder* recorder );

/// The recorder as a cnRun frame writer (its finish completes or discards the recording; the
/// recorder is still the caller's to destroy).
CN_API cnFrameWriter cnRecorder_AsFrameWriter( cnRecorder* recorder );

// ---------------------------------------------------------------------------------------------
// reader

/// True when the file exists and starts with CN_RECORDING_MAGIC (it may still be corrupt).
CN_API bool cnIsRecordingFile( const char* path );

/// Reads and validates a whole recording; NULL with "PATH: reason" in cnGetError() for a missing,
/// truncated, corrupt or newer-version file.
CN_API cnRecording* cnLoadRecording( const char* path );

/// Reads and validates a recording held in memory (size bytes at data, not kept): what a program
/// that got the bytes elsewhere (a memory recorder, a network, an archive) loads. Errors read
/// "SOURCENAME: reason".
CN_API cnRecording* cnLoadRecordingFromMemory( const void* data, size_t size, const char* sourceName );

/// Frees a recording (NULL is allowed).
CN_API void cnDestroyRecording( cnRecording* recording );

/// Format version of the file.
CN_API int cnRecording_GetVersion( const cnRecording* recording );

/// Name of the scene the recording was made from.
CN_API const char* cnRecording_GetSceneName( const cnRecording* recording );

/// The frame rate the writer declared.
CN_API double cnRecording_GetFps( const cnRecording* recording );

/// Number of frames.
CN_API int cnRecording_GetFrameCount( const cnRecording* recording );

/// Simulated time of a frame (0 when frame is out of range).
CN_API double cnRecording_GetFrameTime( const cnRecording* recording, int frame );

/// Number of bodies.
CN_API int cnRecording_GetBodyCount( const cnRecording* recording );

/// Name of a body ("" when body is out of range).
CN_API const char* cnRecording_GetBodyName( const cnRecording* recording, int body );

/// Type of a body (static when body is out of range).
CN_API cnBodyType cnRecording_GetBodyType( const cnRecording* recording, int body );

/// Number of shapes of a body (0 when body is out of range).
CN_API int cnRecording_GetShapeCount( const cnRecording* recording, int body );

/// A shape of a body (a zero sphere when out of range).
CN_API cnRecordedShape cnRecording_GetShape( const cnRecording* recording, int body, int shape );

/// Transform of a body's frame at a frame (identity when out of range).
CN_API cnTransform cnRecording_GetBodyTransform( const cnRecording* recording, int frame, int body );

#ifdef __cplusplus
}
#endif
