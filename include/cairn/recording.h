// SPDX-License-Identifier: MIT
// Binary recordings of a simulation: what a renderer or viewer needs to replay it without the
// scene file. A recording holds, once, every body's name, type and shapes (size, polygon
// vertices, local pose, material colour) and every joint between recorded bodies (name, type, the
// bodies, its anchors in their frames), then one frame per call to cnRecorder_AddFrame with the
// time, every body's position and orientation and whether each joint still acts. The byte layout (little-endian, versioned) is
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
/// version 3 each shape's appearance (finish, index of refraction, texture), version 4 the joints,
/// version 5 the surfaces of hulls, meshes and heightfields (vertices and triangles), version 6 a
/// body set that changes while recording (bodies created after the start, bodies destroyed before
/// the end; cnRecorderDef.changingBodies); the writer writes the oldest version that holds what it
/// records (1 without polygons, appearance or joints: the layouts are then the same), so older
/// readers keep reading those files. The reader reads versions 1 to CN_RECORDING_VERSION.
#define CN_RECORDING_VERSION 6

/// The first version that can hold polygon shapes.
#define CN_RECORDING_VERSION_POLYGON 2

/// The first version that holds each shape's appearance (finish, ior, texture).
#define CN_RECORDING_VERSION_APPEARANCE 3

/// The first version that holds joints (each shape's appearance included, as in version 3).
#define CN_RECORDING_VERSION_JOINTS 4

/// The first version that holds hull, mesh and heightfield shapes (as their triangulated surfaces).
#define CN_RECORDING_VERSION_SURFACES 5

/// The first version whose bodies may be created and destroyed while recording: every frame
/// describes the bodies created since the frame before and holds a state byte per body.
#define CN_RECORDING_VERSION_CHANGING_BODIES 6

/// Most vertices of a recorded surface (hull, mesh, heightfield).
#define CN_RECORDING_MAX_SURFACE_VERTICES ( 1 << 24 )

/// Most triangles of a recorded surface.
#define CN_RECORDING_MAX_SURFACE_TRIANGLES ( 1 << 24 )

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
	/// polygon: vertexCount vertices (x, y, 0) in the shape frame; hull, mesh and heightfield: the
	/// vertices of its surface in the shape frame; owned by the recording (valid until
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
	/// hull, mesh and heightfield: triangleCount triangles of 3 indices into vertices, counter-clockwise
	/// seen from outside (from above for a heightfield), owned by the recording; 0 and NULL otherwise
	int triangleCount;
	const int* triangles;
} cnRecordedShape;

/// A joint as stored in a recording (version 4): the recorded bodies it joins and its two anchors,
/// each in its body's frame, so the anchors at any frame follow from the bodies' poses there
/// (cnRecording_GetJointAnchors).
typedef struct cnRecordedJoint
{
	/// the joint's name, owned by the recording ("" when it has none)
	const char* name;
	cnJointType type;
	/// indices of the recorded bodies joined, -1 for the fixed world (or a static body that is not
	/// recorded: its anchor is then a fixed world point)
	int bodyA, bodyB;
	/// the anchors in the frames of bodyA and bodyB (world coordinates for -1)
	cnVec3 localAnchorA, localAnchorB;
} cnRecordedJoint;

/// What a recorded joint does at a frame.
typedef enum cnRecordedJointState
{
	/// it acts (and is drawn)
	cnRecordedJoint_acting = 0,
	/// it broke at this frame or before (it no longer acts; renderers leave it out)
	cnRecordedJoint_broken = 1,
	/// it was destroyed through the API (renderers leave it out)
	cnRecordedJoint_removed = 2,
	cnRecordedJoint_stateCount
} cnRecordedJointState;

// ---------------------------------------------------------------------------------------------
// writer

/// Whether a recorded body exists at a frame (version 6; every body is present in older files).
typedef enum cnRecordedBodyState
{
	/// it exists at this frame (and is drawn)
	cnRecordedBody_present = 0,
	/// it was created after this frame (its pose there means nothing)
	cnRecordedBody_notCreated = 1,
	/// it was destroyed at this frame or before (its pose there is the last one it had)
	cnRecordedBody_destroyed = 2,
	cnRecordedBody_stateCount
} cnRecordedBodyState;

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
	/// the bodies to record, in this order (NULL: every body the world has now, in creation order).
	/// The joints the world has now are recorded with them: those between recorded bodies, the fixed
	/// world and static bodies that are not recorded (as fixed world points); a joint to a moving
	/// body that is not recorded is left out
	const cnBodyId* bodies;
	int bodyCount;
	/// false (default): the body set is fixed, a recorded body that is destroyed makes the next
	/// frame fail, and bodies created later are not recorded (the file is version 1 to 5). true: the
	/// file is version 6, a destroyed body is recorded as destroyed from then on, and, when bodies is
	/// NULL, every body created later is recorded from the first frame it exists at
	bool changingBodies;
} cnRecorderDef;

/// Defaults: memory, no name, 60 fps, every body.
CN_API cnRecorderDef cnDefaultRecorderDef( void );

/// Starts a recording: writes the header and the description of the recorded bodies, their shapes
/// and the joints between them. NULL when the file cannot be written or the def is invalid.
CN_API cnRecorder* cnCreateRecorder( const cnWorld* world, const cnRecorderDef* def );

/// Appends one frame: the world time, the transform of every recorded body and the state of every
/// recorded joint (acting, broken or destroyed); with changingBodies, the bodies created since the
/// last frame and whether each recorded body still exists. Returns false when writing failed or
/// (without changingBodies) a recorded body no longer exists; the recorder then refuses further
/// frames and cnRecorder_Finish fails.
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

/// Number of bodies (version 6: every body the recording ever held, in the order they were described).
CN_API int cnRecording_GetBodyCount( const cnRecording* recording );

/// Name of a body ("" when body is out of range).
CN_API const char* cnRecording_GetBodyName( const cnRecording* recording, int body );

/// Type of a body (static when body is out of range).
CN_API cnBodyType cnRecording_GetBodyType( const cnRecording* recording, int body );

/// Number of shapes of a body (0 when body is out of range).
CN_API int cnRecording_GetShapeCount( const cnRecording* recording, int body );

/// A shape of a body (a zero sphere when out of range).
CN_API cnRecordedShape cnRecording_GetShape( const cnRecording* recording, int body, int shape );

/// How far a recorded shape reaches from its own frame's origin (the radius of the ball about that
/// origin that holds it); 0 for a plane, which has no size.
CN_API double cnRecordedShape_GetReach( const cnRecordedShape* shape );

/// Transform of a body's frame at a frame (identity when out of range or when the body is not created
/// yet there; its last pose once destroyed): check cnRecording_IsBodyPresent before drawing it.
CN_API cnTransform cnRecording_GetBodyTransform( const cnRecording* recording, int frame, int body );

/// Whether a body exists at a frame: present, not created yet or destroyed (version 6; always present
/// in older files; cnRecordedBody_notCreated when frame or body is out of range).
CN_API cnRecordedBodyState cnRecording_GetBodyState( const cnRecording* recording, int frame, int body );

/// True when a body exists at a frame (cnRecording_GetBodyState is cnRecordedBody_present).
CN_API bool cnRecording_IsBodyPresent( const cnRecording* recording, int frame, int body );

/// The first frame at which a body exists, -1 when it never does (0 for every body of older files).
CN_API int cnRecording_GetBodyFirstFrame( const cnRecording* recording, int body );

/// Number of joints (0 in files older than version 4).
CN_API int cnRecording_GetJointCount( const cnRecording* recording );

/// A joint (an unnamed ball joint of the world with itself when out of range: bodies -1).
CN_API cnRecordedJoint cnRecording_GetJoint( const cnRecording* recording, int joint );

/// What a joint does at a frame (cnRecordedJoint_removed when frame or joint is out of range).
CN_API cnRecordedJointState cnRecording_GetJointState( const cnRecording* recording, int frame, int joint );

/// A joint's two anchors in world coordinates at a frame, placed by its bodies' poses there; false
/// (and both NaN) when frame or joint is out of range.
CN_API bool cnRecording_GetJointAnchors( const cnRecording* recording, int frame, int joint, cnVec3* anchorA,
										 cnVec3* anchorB );

#ifdef __cplusplus
}
#endif
