// SPDX-License-Identifier: MIT
// glTF 2.0 export (docs/export.md): a recording as one animated glTF asset, binary (.glb) or JSON
// with a side buffer (.gltf + .bin), for Blender, web viewers and every tool that reads glTF. Part
// of libcairn_io, on the recording API like the POV-Ray writer (render.h): a scene is first run into
// a recording (in memory), so scenes and recordings export the same way.
//
// What is written: a mesh per distinct shape and appearance (spheres, boxes, cylinders, capsules
// triangulated; planes as a large quad under the recording; polygons as slabs), a node per body
// named after it with its shapes as child nodes at their local poses, PBR materials from each
// shape's appearance, a node per joint with its pieces (coil, cylinders, sphere, cubes) as children,
// a perspective camera, and one animation with a translation and a rotation channel per moving body
// (and for a camera that moves) and translation, rotation and scale channels per joint piece, keyed
// at the recording's frame times.
//
// Cairn is z-up, glTF y-up (both right-handed): every point, direction and rotation is written
// turned by -90 degrees about x, (x, y, z) -> (x, z, -y), so importers that turn glTF's y-up back
// to z-up (Blender's does) see Cairn's own coordinates.
#pragma once

#include "cairn/render.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Which of glTF's two forms to write.
typedef enum cnGltfFormat
{
	/// by the path's extension: ".glb" binary, ".gltf" JSON (any other extension is an error)
	cnGltfFormat_auto = 0,
	/// one binary file (GLB): the JSON and the buffer in chunks
	cnGltfFormat_binary,
	/// the JSON in the file and the buffer beside it, the extension replaced by ".bin"
	cnGltfFormat_json,
} cnGltfFormat;

/// How a recording is exported.
typedef struct cnGltfOptions
{
	/// binary or JSON (default: by the extension)
	cnGltfFormat format;
	/// the camera's aspect ratio, width / height (> 0): its vertical field of view follows from
	/// the horizontal one, and the automatic view frames the recording for it
	double aspect;
	/// write a camera node (the given camera, or an automatic view of the recording)
	bool camera;
	/// key every n-th frame of the recording (frames 0, n, 2n, ...; >= 1)
	int frameStride;
	/// segments around round shapes (spheres, cylinders, capsules), in [8, 256]
	int segments;
	/// the folder relative texture names are found in (the scene's or recording's folder; NULL:
	/// the current directory)
	const char* textureDir;
} cnGltfOptions;

/// Defaults: format by extension, 16:9, a camera, every frame, 32 segments, textures beside the
/// current directory.
CN_API cnGltfOptions cnDefaultGltfOptions( void );

/// The format a path gets under cnGltfFormat_auto: binary for ".glb", JSON for ".gltf" (either
/// case), cnGltfFormat_auto for any other name.
CN_API cnGltfFormat cnGltfFormatForPath( const char* path );

/// The side buffer file a JSON export writes beside path ("out.gltf" -> "out.bin"), into buffer of
/// size bytes; false when it does not fit.
CN_API bool cnGltfBufferPath( const char* path, char* buffer, size_t size );

/// Writes a recording as glTF 2.0 to path (NULL camera: an automatic view of the recording; NULL
/// options: the defaults). The files appear only complete (written as "PATH.tmp" and renamed).
/// False with "PATH: reason" in cnGetError(): cnError_io when a file or texture cannot be read or
/// written, cnError_invalidArgument for bad options, camera, texture format or an empty recording.
CN_API bool cnWriteGltf( const char* path, const cnRecording* recording, const cnCameraDef* camera,
						 const cnGltfOptions* options );

#ifdef __cplusplus
}
#endif
