// SPDX-License-Identifier: MIT
// Binary recordings of a simulation: what a renderer or viewer needs to replay it without the
// scene file. A recording holds, once, every body's name, type and shapes (size, polygon
// vertices, local pose, material colour), then one frame per call to cnRecorder_AddFrame with the
// time and every body's position and orientation. The byte layout (little-endian, versioned) is
// documented in docs/recording-format.md.
//
// The writer writes into "path.tmp" and renames it to path only in cnRecorder_Finish, so a
// crashed or aborted run never leaves a half-written recording under the real name.
#pragma once

#include "cairn/cairn.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The eight bytes every recording starts with.
#define CN_RECORDING_MAGIC "CAIRNREC"

/// Newest version of the byte layout this build writes and reads. Version 2 added polygon shapes;
/// the writer writes version 1 when no recorded shape is a polygon (the layouts are then the same),
/// so older readers keep reading those files. The reader reads versions 1 to CN_RECORDING_VERSION.
#define CN_RECORDING_VERSION 2

/// The first version that can hold polygon shapes.
#define CN_RECORDING_VERSION_POLYGON 2

/// Most vertices of a recorded polygon (the library's own limit for a polygon shape).
#define CN_RECORDING_MAX_POLYGON_VERTICES 32767

/// A recording being written.
typedef struct cnRecorder cnRecorder;

/// A recording read back into memory.
typedef struct cnRecording cnRecording;

/// A shape as stored in a recording: the size fields of its type, its pose in the body frame and
/// the colour of its material (linear RGB in [0, 1]).
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
	/// cnRecording_Free); 0 and NULL for the other types
	int vertexCount;
	const cnVec3* vertices;
	/// shape frame relative to the body frame
	cnTransform localPose;
	float color[3];
} cnRecordedShape;

// ---------------------------------------------------------------------------------------------
// writer

/// Starts a recording of every body the world has now: writes the header and the body and shape
/// descriptions into "path.tmp". fps is informational (frames are added by the caller) and must
/// be > 0. Returns NULL and writes a message into error when the file cannot be written or an
/// argument is invalid.
cnRecorder* cnRecorder_Create( const char* path, const cnWorld* world, const char* sceneName, double fps, char* error,
							   int errorCapacity );

/// Appends one frame: the world time and the transform of every recorded body. Returns false
/// when writing failed or a recorded body no longer exists (see cnRecorder_GetError); the
/// recorder then refuses further frames and cnRecorder_Finish fails.
bool cnRecorder_AddFrame( cnRecorder* recorder, const cnWorld* world );

/// Number of frames added so far.
int cnRecorder_GetFrameCount( const cnRecorder* recorder );

/// Message of the first failure ("" when none).
const char* cnRecorder_GetError( const cnRecorder* recorder );

/// Writes the frame count into the header, closes the file and renames "path.tmp" to path.
/// Frees the recorder in every case; on failure removes the temporary file and returns false
/// with a message in error.
bool cnRecorder_Finish( cnRecorder* recorder, char* error, int errorCapacity );

/// Closes and deletes the temporary file and frees the recorder (NULL is allowed).
void cnRecorder_Abort( cnRecorder* recorder );

// ---------------------------------------------------------------------------------------------
// reader

/// True when the file exists and starts with CN_RECORDING_MAGIC (it may still be corrupt).
bool cnIsRecordingFile( const char* path );

/// Reads and validates a whole recording. Returns NULL and writes one line "PATH: reason" into
/// error for a missing, truncated, corrupt or newer-version file.
cnRecording* cnRecording_Load( const char* path, char* error, int errorCapacity );

/// Reads and validates a recording held in memory (size bytes at data, not kept): what a program
/// that got the file elsewhere (a network, an archive) loads. Errors read "SOURCENAME: reason".
cnRecording* cnRecording_LoadMemory( const void* data, size_t size, const char* sourceName, char* error,
									 int errorCapacity );

/// Frees a recording (NULL is allowed).
void cnRecording_Free( cnRecording* recording );

/// Format version of the file.
int cnRecording_GetVersion( const cnRecording* recording );

/// Name of the scene the recording was made from.
const char* cnRecording_GetSceneName( const cnRecording* recording );

/// The frame rate the writer declared.
double cnRecording_GetFps( const cnRecording* recording );

/// Number of frames.
int cnRecording_GetFrameCount( const cnRecording* recording );

/// Simulated time of a frame (0 when frame is out of range).
double cnRecording_GetFrameTime( const cnRecording* recording, int frame );

/// Number of bodies.
int cnRecording_GetBodyCount( const cnRecording* recording );

/// Name of a body ("" when body is out of range).
const char* cnRecording_GetBodyName( const cnRecording* recording, int body );

/// Type of a body (static when body is out of range).
cnBodyType cnRecording_GetBodyType( const cnRecording* recording, int body );

/// Number of shapes of a body (0 when body is out of range).
int cnRecording_GetShapeCount( const cnRecording* recording, int body );

/// A shape of a body (a zero sphere when out of range).
cnRecordedShape cnRecording_GetShape( const cnRecording* recording, int body, int shape );

/// Transform of a body's frame at a frame (identity when out of range).
cnTransform cnRecording_GetBodyTransform( const cnRecording* recording, int frame, int body );

#ifdef __cplusplus
}
#endif
