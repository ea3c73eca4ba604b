// SPDX-License-Identifier: MIT
// Cairn scenes: a world plus its run settings, loaded from a JSON file (docs/scene-format.md).
// The loader checks every value and either returns a complete scene or NULL with a one-line
// message "FILE: JSONPATH: reason"; it never returns a half-built scene.
#pragma once

#include "cairn/cairn.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded scene: the world plus the run settings the file gave.
typedef struct cnScene
{
	cnWorld* world; // owned by the scene
	char* name; // "name" key, or the file's base name
	char* description; // "" when absent
	char* path; // the file it came from (cnLoadSceneFromString: its sourceName, or "<string>")
	double timeStep; // "timestep", default 1/120 s
	double duration; // "duration", default 5 s
	double fps; // "fps", default 60
	cnMethod method; // "method"
	int subSteps; // "substeps", default 8
} cnScene;

/// Loads a JSON scene file. Returns NULL on failure and writes one line into error:
///   "FILE: JSONPATH: reason"  e.g.  "scenes/x.json: bodies[1].shapes[0].radius: must be > 0"
///   (for JSON syntax errors "FILE:LINE:COL: syntax error ..."; for a missing file "FILE: cannot open: <strerror>").
cnScene* cnLoadScene( const char* path, char* error, int errorCapacity );

/// Same with the scene's "method" replaced by method (the file's own value is still checked): what
/// `cairn run --method` and `cairn compare` load, since a world's method is fixed at creation.
cnScene* cnLoadSceneWithMethod( const char* path, cnMethod method, char* error, int errorCapacity );

/// Same from a string; sourceName is used in messages.
cnScene* cnLoadSceneFromString( const char* json, const char* sourceName, char* error, int errorCapacity );

/// Frees the scene and its world.
void cnDestroyScene( cnScene* scene );

#ifdef __cplusplus
}
#endif
