// SPDX-License-Identifier: MIT
// How joints are drawn (joint_draw.h): the pieces of each joint type at a frame and their sizes.
#include "render/joint_draw.h"

#include "cairn/render.h"

#include <math.h>
#include <stdlib.h>

// How far a body's shapes reach from its origin (planes left out); 0 for a body without any (a
// point mass).
static double cnBodyRadius( const cnRecording* recording, int body )
{
	double radius = 0.0;
	int shapes = cnRecording_GetShapeCount( recording, body );
	for ( int k = 0; k < shapes; ++k )
	{
		cnRecordedShape s = cnRecording_GetShape( recording, body, k );
		if ( s.type == cnShape_plane )
		{
			continue;
		}
		double reach = cnRecordedShape_GetReach( &s );
		radius = fmax( radius, cnLength( s.localPose.p ) + reach );
	}
	return radius;
}

cnJointLook* cnJointLooks( const cnRecording* recording )
{
	int count = cnRecording_GetJointCount( recording );
	if ( count == 0 || cnRecording_GetFrameCount( recording ) == 0 )
	{
		return NULL;
	}
	cnJointLook* looks = calloc( (size_t)count, sizeof( cnJointLook ) );
	if ( looks == NULL )
	{
		return NULL;
	}
	// joints between bodies without shapes get a share of the scene's size
	cnAABB bounds;
	double sceneSize = cnRecording_GetBounds( recording, &bounds ) ? cnLength( cnSub( bounds.upper, bounds.lower ) ) : 0.0;
	for ( int i = 0; i < count; ++i )
	{
		cnRecordedJoint joint = cnRecording_GetJoint( recording, i );
		cnJointLook* look = looks + i;
		cnVec3 a, b;
		cnRecording_GetJointAnchors( recording, 0, i, &a, &b );
		double rest = cnDistance( a, b );
		// the smaller of the joined bodies sets the scale: a spring between a crate and a marble is
		// drawn at the marble's size
		double size = 0.0;
		int ends[2] = { joint.bodyA, joint.bodyB };
		for ( int k = 0; k < 2; ++k )
		{
			double radius = ends[k] >= 0 ? cnBodyRadius( recording, ends[k] ) : 0.0;
			if ( radius > 0.0 )
			{
				size = size > 0.0 ? fmin( size, radius ) : radius;
			}
		}
		if ( size <= 0.0 )
		{
			size = sceneSize > 0.0 ? 0.05 * sceneSize : ( rest > 0.0 ? 0.25 * rest : 0.1 );
		}
		look->size = size;
		look->restLength = rest;
		look->meshLength = rest > 1e-9 * size ? rest : size;
		// long things are drawn thin against their length, whatever the bodies' size
		double thin = rest > 0.0 ? rest : size;
		look->coilRadius = fmin( 0.25 * size, 0.15 * thin );
		look->wireRadius = 0.15 * look->coilRadius;
		// a pitch of about 1.2 coil radii at rest: an open coil whose windings read apart
		double turns = round( look->meshLength / ( 1.2 * look->coilRadius ) );
		look->turns = turns < 3.0 ? 3 : ( turns > 40.0 ? 40 : (int)turns );
		look->rodRadius = fmin( 0.08 * size, 0.03 * thin );
		// markers never reach a neighbouring joint's marker: a body whose shapes reach far from its centre
		// (a cradle's bob with its wire) would otherwise get markers that run into each other
		double markerSize = size;
		for ( int k = 0; k < count; ++k )
		{
			cnVec3 c, d;
			cnRecording_GetJointAnchors( recording, 0, k, &c, &d );
			double gap = k != i ? cnDistance( a, c ) : 0.0;
			if ( gap > 1e-9 * size )
			{
				markerSize = fmin( markerSize, gap );
			}
		}
		look->sphereRadius = 0.2 * markerSize;
		look->markerHalf = 0.12 * markerSize;
		look->damperRadius = fmin( 0.15 * size, 0.08 * thin );
		look->damperRodRadius = 0.45 * look->damperRadius;
		look->damperLength = rest > 0.0 ? 0.55 * rest : 2.0 * size;
	}
	return looks;
}

cnQuat cnRotationFromZ( cnVec3 d )
{
	// q = (1 + z.d, z x d) normalised turns z onto d by the shortest arc; opposite directions have
	// no shortest arc: half a turn about x
	double w = 1.0 + d.z;
	if ( w < 1e-12 )
	{
		return ( cnQuat ){ 0.0, 1.0, 0.0, 0.0 };
	}
	return cnNormalizeQuat( ( cnQuat ){ w, -d.y, d.x, 0.0 } );
}

cnVec3 cnCoilPoint( double coilRadius, int turns, double length, double t )
{
	double angle = 2.0 * CN_PI * (double)turns * t;
	return cnV3( coilRadius * cos( angle ), coilRadius * sin( angle ), length * t );
}

// A piece of the given kind, hidden until placed.
static cnJointPiece cnPiece( cnJointPieceKind kind, cnVec3 a, cnVec3 b, double radius )
{
	cnJointPiece piece = { kind, a, b, radius, cnQuat_identity, false, false };
	return piece;
}

int cnJointPieces( const cnRecording* recording, const cnJointLook* look, int frame, int joint,
				   cnJointPiece pieces[CN_JOINT_PIECES_MAX] )
{
	cnRecordedJoint j = cnRecording_GetJoint( recording, joint );
	cnVec3 a, b;
	cnRecording_GetJointAnchors( recording, frame, joint, &a, &b );
	bool acting = cnRecording_GetJointState( recording, frame, joint ) == cnRecordedJoint_acting;
	double length = cnDistance( a, b );
	// shorter than this, a line between the anchors has no direction to draw
	bool hasLength = acting && length > 1e-9 * look->size;
	cnVec3 u = hasLength ? cnMulSV( 1.0 / length, cnSub( b, a ) ) : cnV3( 0.0, 0.0, 1.0 );
	cnQuat qA = j.bodyA >= 0 ? cnNormalizeQuat( cnRecording_GetBodyTransform( recording, frame, j.bodyA ).q ) : cnQuat_identity;
	cnQuat qB = j.bodyB >= 0 ? cnNormalizeQuat( cnRecording_GetBodyTransform( recording, frame, j.bodyB ).q ) : cnQuat_identity;
	int count = 0;
	switch ( j.type )
	{
		case cnJoint_spring:
			pieces[count] = cnPiece( cnJointPiece_coil, a, b, look->wireRadius );
			pieces[count++].visible = hasLength;
			break;
		case cnJoint_damper:
		{
			// the cylinder hangs from A's anchor; the rod comes from B's and ends inside it, so it
			// slides in and out as the anchors move (the cylinder never reaches past B's anchor)
			double body = fmin( look->damperLength, length );
			pieces[count] = cnPiece( cnJointPiece_rod, a, cnMulAdd( a, body, u ), look->damperRadius );
			pieces[count].dark = true;
			pieces[count++].visible = hasLength;
			pieces[count] = cnPiece( cnJointPiece_rod, b, cnMulAdd( a, 0.1 * body, u ), look->damperRodRadius );
			pieces[count++].visible = hasLength;
			break;
		}
		case cnJoint_distance:
			pieces[count] = cnPiece( cnJointPiece_rod, a, b, look->rodRadius );
			pieces[count++].visible = hasLength;
			break;
		case cnJoint_ball:
		case cnJoint_hinge:
		case cnJoint_universal:
		case cnJoint_coneTwist:
			pieces[count] = cnPiece( cnJointPiece_sphere, a, a, look->sphereRadius );
			pieces[count++].visible = acting;
			break;
		case cnJoint_fixed:
			pieces[count] = cnPiece( cnJointPiece_marker, a, a, look->markerHalf );
			pieces[count].q = qA;
			pieces[count++].visible = acting;
			break;
		case cnJoint_slider:
		case cnJoint_pointOnPlane:
			// a marker on each body; a slider's rail joins them
			pieces[count] = cnPiece( cnJointPiece_marker, a, a, look->markerHalf );
			pieces[count].q = qA;
			pieces[count++].visible = acting;
			pieces[count] = cnPiece( cnJointPiece_marker, b, b, look->markerHalf );
			pieces[count].q = qB;
			pieces[count++].visible = acting;
			if ( j.type == cnJoint_slider )
			{
				pieces[count] = cnPiece( cnJointPiece_rod, a, b, look->rodRadius );
				pieces[count++].visible = hasLength;
			}
			break;
		default:
			break;
	}
	return count;
}
