// SPDX-License-Identifier: MIT
// How joints are drawn (docs/rendering.md, docs/export.md), shared by the POV-Ray and glTF writers:
// each joint of a recording is a fixed list of pieces (spheres, rods, a coil, markers) placed at a
// frame from its anchors, as AERO drew its connections: springs as coils, dampers as a cylinder and
// a rod sliding in it, rods as thin cylinders, ball-like joints as a small sphere at the anchor.
// Sizes come from the joined bodies' sizes and the joint's length in the first frame.
#pragma once

#include "cairn/recording.h"

#include <stdbool.h>

/// What a piece of a joint is.
typedef enum cnJointPieceKind
{
	/// a sphere of the radius around a
	cnJointPiece_sphere = 0,
	/// a cylinder of the radius from a to b
	cnJointPiece_rod,
	/// a coil from a to b: the look's coil radius, turns and wire radius (the piece's radius)
	cnJointPiece_coil,
	/// a cube of half side radius around a, turned by q
	cnJointPiece_marker,
} cnJointPieceKind;

/// One piece of a joint at a frame.
typedef struct cnJointPiece
{
	cnJointPieceKind kind;
	cnVec3 a, b;
	double radius;
	cnQuat q;
	/// drawn in the dark finish (a damper's cylinder) rather than the bright metal
	bool dark;
	/// false when it is not drawn at this frame: the joint broke or was removed, or the piece has no
	/// length
	bool visible;
} cnJointPiece;

/// The most pieces a joint has.
#define CN_JOINT_PIECES_MAX 3

/// How a joint looks over the whole recording (sizes fixed from its first frame).
typedef struct cnJointLook
{
	/// the joint's scale: the smaller radius of the bodies it joins (or a share of the scene's size)
	double size;
	/// the anchors' distance in the first frame (0 when they coincide)
	double restLength;
	/// the length a coil mesh is built at (restLength, or size when that is 0)
	double meshLength;
	/// a spring's coil radius, wire radius and number of turns
	double coilRadius, wireRadius;
	int turns;
	/// radius of rods and rails, of the ball-like joints' sphere, half side of markers
	double rodRadius, sphereRadius, markerHalf;
	/// a damper: the cylinder's radius and length, the rod's radius
	double damperRadius, damperLength, damperRodRadius;
} cnJointLook;

/// The look of every joint of a recording (cnRecording_GetJointCount of them; free() them); NULL when
/// it has no joints or memory runs out.
cnJointLook* cnJointLooks( const cnRecording* recording );

/// The pieces a joint is drawn with at a frame, into pieces; their count, the same for a joint at
/// every frame (the glTF writer animates them), those not drawn then with visible false.
int cnJointPieces( const cnRecording* recording, const cnJointLook* look, int frame, int joint,
				   cnJointPiece pieces[CN_JOINT_PIECES_MAX] );

/// The rotation that turns +z onto the unit direction d by the shortest arc (about x for -z).
cnQuat cnRotationFromZ( cnVec3 d );

/// A point of a coil's centre line in its own frame at parameter t in [0, 1]: turns around the z
/// axis at radius coilRadius while rising from z = 0 to z = length.
cnVec3 cnCoilPoint( double coilRadius, int turns, double length, double t );
