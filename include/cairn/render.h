// SPDX-License-Identifier: MIT
// Seeing the motion (docs/rendering.md): cameras and POV-Ray scene files, part of libcairn_io.
// Renderers and exporters read a recording, the frame API every tool shares: a scene is first run
// into a recording (in memory, cnRecorder with no path, as `cairn render` does), so one code path
// serves scenes and recordings alike. POV-Ray itself runs as a separate program (the `povray`
// package); this library only writes its scene files.
#pragma once

#include "cairn/recording.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// cameras

/// How a camera moves.
typedef enum cnCameraType
{
	/// at position, looking at lookAt
	cnCamera_fixed = 0,
	/// at the body's position plus offset (world axes), looking at the body
	cnCamera_follow,
	/// carried by the body (AERO's camera on a body): at offset in the body frame, looking at lookAt
	/// in the body frame, its up the body's z
	cnCamera_mounted,
	/// along keyframes: position and lookAt interpolated linearly in time between keys
	cnCamera_path,
} cnCameraType;

/// A camera keyframe of a path.
typedef struct cnCameraKey
{
	double time;
	cnVec3 position;
	cnVec3 lookAt;
} cnCameraKey;

/// A camera of a scene (its "cameras" array, docs/scene-format.md).
typedef struct cnCameraDef
{
	/// unique name within the scene ("" allowed for an API-made camera)
	const char* name;
	cnCameraType type;
	/// fixed: where it is and what it looks at (world)
	cnVec3 position;
	cnVec3 lookAt;
	/// horizontal field of view in degrees, in (0, 180)
	double fovDeg;
	/// follow, mounted: the body's name (as in the recording)
	const char* body;
	/// follow: camera position relative to the body's origin, world axes; mounted: in the body frame
	cnVec3 offset;
	/// mounted: the point looked at, in the body frame
	cnVec3 localLookAt;
	/// path: keyCount keys in increasing time
	const cnCameraKey* keys;
	int keyCount;
} cnCameraDef;

/// Defaults: a fixed camera at (6, -8, 4) looking at the origin, 50 degrees.
CN_API cnCameraDef cnDefaultCameraDef( void );

/// A camera at one moment: where it is, what it looks at, which way is up, its field of view.
typedef struct cnView
{
	cnVec3 position;
	cnVec3 lookAt;
	cnVec3 up;
	/// horizontal field of view, degrees
	double fovDeg;
} cnView;

/// Where a camera is at a frame of a recording. False (cnError_invalidArgument) when the camera
/// names a body the recording lacks, the frame is out of range or the def is invalid.
CN_API bool cnCamera_GetView( const cnCameraDef* camera, const cnRecording* recording, int frame, cnView* view );

/// The box around every body's shapes and every joint's anchors over the recording's frames (planes
/// left out; long recordings are sampled at 200 frames). False when the recording has no shape but
/// planes and no joint.
CN_API bool cnRecording_GetBounds( const cnRecording* recording, cnAABB* bounds );

/// True when every body stays in the xy-plane of a planar world (origins at z = 0, turning about z
/// only) over the recording: FOSSSim scenes and other planar worlds, which are seen from above.
CN_API bool cnRecording_IsPlanar( const cnRecording* recording );

/// A view that frames the motion: the box around the shapes of the bodies that move and the anchors
/// of the joints that move (of everything when nothing moves) over the recording, wide enough for
/// the aspect ratio (width / height), seen from the front, above and to the side, or from above for
/// a planar recording.
CN_API cnView cnRecording_GetAutoView( const cnRecording* recording, double aspect );

/// A view of a stereo eye: the camera moved sideways by half the eye separation (eye = -1 left,
/// +1 right), both eyes looking at the same point (a slight convergence at the look-at distance).
CN_API cnView cnView_GetEye( cnView view, double separation, int eye );

// ---------------------------------------------------------------------------------------------
// POV-Ray

/// How a POV-Ray frame is drawn.
typedef struct cnPovOptions
{
	/// image size in pixels (the camera's aspect ratio follows it)
	int width, height;
	/// true: area light, soft shadows, textures in full; false: a point light, quick
	bool final;
	/// draw a floor under the recording's bounds when it has no plane (a plane is drawn as the floor)
	bool floor;
	/// the folder relative texture names are found in (the scene's or recording's folder; NULL: the
	/// current directory)
	const char* textureDir;
} cnPovOptions;

/// Defaults: 640 x 480, draft, a floor.
CN_API cnPovOptions cnDefaultPovOptions( void );

/// Writes a POV-Ray 3.7 scene of one frame of a recording as seen from view: every shape exact
/// (spheres, boxes, cylinders, capsules as sphere-swept cylinders, planes, polygons as prisms),
/// each with its material's appearance (colour, finish, texture, ior), the joints that act (springs
/// as coils, dampers as a cylinder and a sliding rod, rods as thin cylinders, ball-like joints as a
/// sphere, welds, sliders and plane contacts as small cubes, in steel; docs/rendering.md), a sky,
/// light and floor. Bodies in the default grey get colours of a palette by body index, so an
/// unstyled scene is readable. False (cnError_io) when writing failed or a texture file cannot be read, or
/// cnError_invalidArgument for a bad frame or view.
CN_API bool cnWritePovFrame( FILE* out, const cnRecording* recording, int frame, const cnView* view,
							 const cnPovOptions* options );

#ifdef __cplusplus
}
#endif
