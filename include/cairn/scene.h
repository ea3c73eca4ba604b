// SPDX-License-Identifier: MIT
// Cairn scenes: a world plus its run settings, loaded from a JSON file (docs/scene-format.md). Part
// of libcairn_io. The loader checks every value and either returns a complete scene or NULL with a
// one-line message in cnGetError(): "FILE: JSONPATH: reason"; it never returns a half-built scene.
// The world's method and its settings (sub-steps, ...) are in the world: cnWorld_GetDef.
#pragma once

#include "cairn/cairn.h"
#include "cairn/render.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded scene: the world plus the run settings the file gave.
typedef struct cnScene
{
	/// owned by the scene
	cnWorld* world;
	/// "name" key, or the file's base name
	char* name;
	/// "" when absent
	char* description;
	/// the file it came from (cnLoadSceneFromString: its sourceName, or "<string>")
	char* path;
	/// "timestep": the longest step a run takes, default 1/120 s
	double timeStep;
	/// "duration", default 5 s
	double duration;
	/// "fps", default 60
	double fps;
	/// warnings: what in a valid scene probably does not do what its author meant, found after the
	/// method is chosen (cnLoadSceneWithMethod's included): friction the method does not model,
	/// gravity off the plane of a planar world (docs/scene-format.md, "Warnings"). warningCount
	/// lines of the loader's form "FILE: JSONPATH: reason", owned by the scene (NULL when none)
	int warningCount;
	char** warnings;
	/// "cameras": cameraCount cameras with their names, bodies and keys, owned by the scene (NULL
	/// when none); `cairn render --camera NAME` picks one (cnScene_FindCamera)
	int cameraCount;
	cnCameraDef* cameras;
} cnScene;

/// Loads a JSON scene file; NULL on failure with one line in cnGetError():
///   "FILE: JSONPATH: reason"  e.g.  "scenes/x.json: bodies[1].shapes[0].radius: must be > 0"
///   (JSON syntax errors: "FILE:LINE:COL: syntax error ..."; a missing file: "FILE: cannot open: ...").
CN_API cnScene* cnLoadScene( const char* path );

/// Same with the scene's "method" replaced by method (the file's own value is still checked): what
/// `cairn run --method` and `cairn compare` load, since a world's method is fixed at creation.
CN_API cnScene* cnLoadSceneWithMethod( const char* path, cnMethod method );

/// Same from a string; sourceName is used in messages.
CN_API cnScene* cnLoadSceneFromString( const char* json, const char* sourceName );

/// Frees the scene, its warnings and its world (NULL is allowed).
CN_API void cnDestroyScene( cnScene* scene );

/// The scene's camera of that name, NULL when it has none (NULL name: the first camera, if any).
CN_API const cnCameraDef* cnScene_FindCamera( const cnScene* scene, const char* name );

/// How cnWriteScene writes: the run settings and the name of the scene it writes.
typedef struct cnSceneWriteDef
{
	/// "name" (NULL or "": "scene")
	const char* name;
	/// "description" (NULL: none)
	const char* description;
	/// "timestep", "duration", "fps"
	double timeStep;
	double duration;
	double fps;
	/// "cameras": cameraCount cameras written in order (a scene's own, cnScene.cameras); a follow or
	/// mounted camera whose body the world no longer has is left out (NULL, 0: none)
	const cnCameraDef* cameras;
	int cameraCount;
} cnSceneWriteDef;

/// Defaults: no name, time step 1/120 s, duration 5 s, 60 fps, no cameras.
CN_API cnSceneWriteDef cnDefaultSceneWriteDef( void );

/// The world's current state as a JSON scene (docs/scene-format.md, "Writing scenes"); a string to
/// free with cnFree, NULL with cnGetError() on failure (a polygon shape, out of memory).
CN_API char* cnWriteSceneToString( const cnWorld* world, const cnSceneWriteDef* def );

/// The same written to a file; false with cnGetError() on failure.
CN_API bool cnWriteScene( const cnWorld* world, const cnSceneWriteDef* def, const char* path );

/// A run def with the scene's run settings: its duration, fps, and its time step as the longest step.
CN_API cnRunDef cnScene_GetRunDef( const cnScene* scene );

#ifdef __cplusplus
}
#endif
