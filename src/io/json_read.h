// SPDX-License-Identifier: MIT
// Checked reading of a cJSON tree for the JSON scene loader (scene_json.c, scene_json_bodies.c,
// scene_json_joints.c, scene_cameras.c):
// the loader state with the JSON path of the value being read, "FILE: JSONPATH: reason" messages,
// key checks with a "did you mean" hint, and typed readers that check every value before the
// library sees it. The first failure wins: later ones leave its message alone. The message goes to
// cnSetError only when the loader is done (cnJsonReportError), after its cleanup, so the library
// calls made while cleaning up cannot clear it.
#pragma once

#include "cairn/cairn.h"
#include "cairn/render.h"

#include <cjson/cJSON.h>

#include <stdbool.h>
#include <stdint.h>

// Longest JSON path kept for messages; deeper paths are cut, never overflowed.
#define CN_JSON_PATH_CAPACITY 512

// Longest message kept (the library's error state holds as much).
#define CN_JSON_MESSAGE_CAPACITY 1024

// Number of elements of a static array.
#define CN_COUNT( a ) ( (int)( sizeof( a ) / sizeof( ( a )[0] ) ) )

// What a number must satisfy beyond being finite.
typedef enum cnJsonCheck
{
	cnJsonCheck_any,
	cnJsonCheck_positive,
	cnJsonCheck_nonNegative,
	cnJsonCheck_unit,
} cnJsonCheck;

// Loader state: where we are in the file (for messages), the first error, and the world being built.
typedef struct cnLoader
{
	const char* source;
	bool failed;
	cnErrorCode errorCode;
	char message[CN_JSON_MESSAGE_CAPACITY];
	// the method replacing the file's "method" (cnLoadSceneWithMethod), cnMethod_count for none
	cnMethod methodOverride;

	char path[CN_JSON_PATH_CAPACITY];
	int pathLength;

	cnWorld* world;

	// body names in file order (they point into the cJSON tree) and an open-addressing hash table
	// of indices into them, so name look-ups stay O(1) in scenes with thousands of bodies
	const char** bodyNames;
	cnBodyId* bodyIds;
	int bodyCount;
	int* slots;
	int slotCapacity;

	// material pairs seen so far, to reject a pair given twice
	int ( *pairs )[3];
	int pairCount;

	// per material (once "materials" is read): whether some shape uses it, for the warnings
	bool* materialUsed;

	// warnings so far, "SOURCE: PATH: reason" each (handed to the scene, cnScene.warnings)
	char** warnings;
	int warningCount;
	int warningCapacity;

	// "cameras" once read (handed to the scene, cnScene.cameras)
	cnCameraDef* cameras;
	int cameraCount;
} cnLoader;

// The shortest of %.15g and %.17g that reads back as a number, so 0.1 shows as 0.1 in messages.
typedef struct cnJsonNumberText
{
	char text[32];
} cnJsonNumberText;

// ---------------------------------------------------------------------------------------------
// messages and the JSON path (json_read.c)

/// Fails with cnError_badInput at the current path: "SOURCE: PATH: reason" (or "SOURCE: reason").
bool cnJsonFail( cnLoader* L, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 2, 3 ) ) )
#endif
	;

/// Fails at the child key of the current path (the path is not restored: the message is written).
bool cnJsonFailAt( cnLoader* L, const char* key, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

/// Fails with cnError_outOfMemory and the reason "out of memory" at the current path.
bool cnJsonFailOutOfMemory( cnLoader* L );

/// Fails at the current path with the message of the library call that just failed (cnGetError),
/// after "what: " when what is not NULL; the code is cnError_badInput unless memory ran out.
bool cnJsonLibraryFailure( cnLoader* L, const char* what );

/// Records a warning "SOURCE: path: reason" (path NULL or "": "SOURCE: reason") about a valid scene;
/// false (with the loader failed) only when memory runs out.
bool cnJsonWarn( cnLoader* L, const char* path, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

/// Frees the warnings the loader still owns.
void cnJsonFreeWarnings( cnLoader* L );

/// Hands the loader's first failure to cnSetError; call once the loader has cleaned up.
void cnJsonReportError( const cnLoader* L );

/// Appends ".key" (or ["key"] for names that are not identifiers); returns the length to restore.
int cnJsonPushKey( cnLoader* L, const char* key );

/// Appends "[i]"; returns the length to restore.
int cnJsonPushIndex( cnLoader* L, int i );

/// Cuts the path back to a length returned by cnJsonPushKey or cnJsonPushIndex.
void cnJsonPopPath( cnLoader* L, int saved );

/// What a JSON value is, for "expected X, got Y" ("a number", "an array", ...).
const char* cnJsonKind( const cJSON* item );

/// Checks that item is an object whose keys are all in allowed, each given once; what names the
/// object in messages ("a body", "a box shape").
bool cnJsonCheckKeys( cnLoader* L, const cJSON* item, const char* const* allowed, int count, const char* what );

/// A number as messages show it: the shortest of %.15g and %.17g that reads back as v.
cnJsonNumberText cnJsonShowNumber( double v );

// ---------------------------------------------------------------------------------------------
// values at the current path (json_read.c)

/// An array of n numbers, each passing check; form is shown in messages ("[x, y, z]").
bool cnJsonArrayValue( cnLoader* L, const cJSON* item, int n, const char* form, cnJsonCheck check, double* values );

/// A string (pointing into the tree).
bool cnJsonStringValue( cnLoader* L, const cJSON* item, const char** value );

// ---------------------------------------------------------------------------------------------
// keyed readers: read obj[key] when present, the output keeps its value when absent (json_read.c)

/// obj[key], or NULL when absent.
const cJSON* cnJsonField( const cJSON* obj, const char* key );

/// Fails when obj has no key; what says what the key holds.
bool cnJsonRequire( cnLoader* L, const cJSON* obj, const char* key, const char* what );

/// A finite number passing check.
bool cnJsonReadNumber( cnLoader* L, const cJSON* obj, const char* key, cnJsonCheck check, double* value );

/// A vector [x, y, z] whose components pass check.
bool cnJsonReadVec3( cnLoader* L, const cJSON* obj, const char* key, cnJsonCheck check, cnVec3* value );

/// A string (pointing into the tree).
bool cnJsonReadString( cnLoader* L, const cJSON* obj, const char* key, const char** value );

/// true or false.
bool cnJsonReadBool( cnLoader* L, const cJSON* obj, const char* key, bool* value );

/// An integer in [lower, upper], as a double.
bool cnJsonReadInteger( cnLoader* L, const cJSON* obj, const char* key, double lower, double upper, double* value );

/// Collision bits: a non-negative integer, or a string of decimal digits or "0x" and hex digits.
bool cnJsonReadBits( cnLoader* L, const cJSON* obj, const char* key, uint64_t* bits );

/// An orientation given as "orientation" (unit quaternion [w, x, y, z]) or "euler_deg" ([roll,
/// pitch, yaw] in degrees), never both.
bool cnJsonReadOrientation( cnLoader* L, const cJSON* obj, cnQuat* q );

// ---------------------------------------------------------------------------------------------
// scene sections shared by scene_json.c and scene_json_bodies.c

/// Resolves a material name at the current path, listing the defined ones when it is unknown
/// (scene_json.c).
bool cnJsonMaterialByName( cnLoader* L, const char* name, cnMaterialId* id );

/// Makes room for bodyCount body names in the loader's name table (scene_json_bodies.c).
bool cnJsonAllocBodyNames( cnLoader* L, int bodyCount );

/// Resolves a body name at the current path (scene_json_bodies.c).
bool cnJsonBodyByName( cnLoader* L, const char* name, cnBodyId* id );

/// Checks one entry of "bodies" and creates the body and its shapes (scene_json_bodies.c).
bool cnJsonLoadBody( cnLoader* L, const cJSON* body );

/// Creates the "forces" and "torques" of all bodies, once every body exists (scene_json_bodies.c).
bool cnJsonLoadForces( cnLoader* L, const cJSON* bodies );

/// Creates the "joints" once every body exists; bodies is the file's "bodies" array (NULL when
/// absent), whose bodies that start asleep are put back to sleep after their joints woke them
/// (scene_json_joints.c).
bool cnJsonLoadJoints( cnLoader* L, const cJSON* joints, const cJSON* bodies );

/// Reads "cameras" into L->cameras once every body exists (scene_cameras.c).
bool cnJsonLoadCameras( cnLoader* L, const cJSON* cameras );

/// Frees count cameras read by cnJsonLoadCameras, their names, bodies and keys (scene_cameras.c).
void cnJsonFreeCameras( cnCameraDef* cameras, int count );
