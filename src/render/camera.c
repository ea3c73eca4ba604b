// SPDX-License-Identifier: MIT
// Cameras (render.h): where a scene's camera is at a frame of a recording, the automatic framing of a
// recording, and the two eyes of a stereo pair.
#include "cairn/render.h"

#include <math.h>
#include <string.h>

cnCameraDef cnDefaultCameraDef( void )
{
	cnCameraDef def;
	memset( &def, 0, sizeof( def ) );
	def.name = "";
	def.type = cnCamera_fixed;
	def.position = cnV3( 6.0, -8.0, 4.0 );
	def.lookAt = cnVec3_zero;
	def.fovDeg = 50.0;
	def.localLookAt = cnV3( 1.0, 0.0, 0.0 );
	return def;
}

// The recording's index of the body of that name, -1 when there is none.
static int cnFindRecordedBody( const cnRecording* recording, const char* name )
{
	int count = cnRecording_GetBodyCount( recording );
	for ( int i = 0; name != NULL && i < count; ++i )
	{
		if ( strcmp( cnRecording_GetBodyName( recording, i ), name ) == 0 )
		{
			return i;
		}
	}
	return -1;
}

// Where a camera on a body sees it at a frame: its pose there; before the body is created (version
// 6) its first pose, and once destroyed the last one it had.
static cnTransform cnCameraBodyPose( const cnRecording* recording, int frame, int body )
{
	if ( cnRecording_GetBodyState( recording, frame, body ) == cnRecordedBody_notCreated )
	{
		int first = cnRecording_GetBodyFirstFrame( recording, body );
		return first >= 0 ? cnRecording_GetBodyTransform( recording, first, body ) : cnTransform_identity;
	}
	return cnRecording_GetBodyTransform( recording, frame, body );
}

// A camera's up: world z, unless it looks straight along z (then world y).
static cnVec3 cnUpFor( cnVec3 position, cnVec3 lookAt )
{
	cnVec3 d = cnSub( lookAt, position );
	double len = cnLength( d );
	if ( len > 0.0 && fabs( d.z ) > 0.999 * len )
	{
		return cnV3( 0.0, 1.0, 0.0 );
	}
	return cnV3( 0.0, 0.0, 1.0 );
}

bool cnCamera_GetView( const cnCameraDef* camera, const cnRecording* recording, int frame, cnView* view )
{
	if ( camera == NULL || recording == NULL || view == NULL || frame < 0 ||
		 frame >= cnRecording_GetFrameCount( recording ) )
	{
		return cnSetError( cnError_invalidArgument, "camera: no camera or recording, or frame %d out of range", frame );
	}
	if ( !( camera->fovDeg > 0.0 && camera->fovDeg < 180.0 ) )
	{
		return cnSetError( cnError_invalidArgument, "camera \"%s\": field of view %g is not in (0, 180) degrees",
						   camera->name != NULL ? camera->name : "", camera->fovDeg );
	}
	view->fovDeg = camera->fovDeg;
	int body = -1;
	if ( camera->type == cnCamera_follow || camera->type == cnCamera_mounted )
	{
		body = cnFindRecordedBody( recording, camera->body );
		if ( body < 0 )
		{
			return cnSetError( cnError_invalidArgument, "camera \"%s\": the recording has no body \"%s\"",
							   camera->name != NULL ? camera->name : "", camera->body != NULL ? camera->body : "" );
		}
	}
	switch ( camera->type )
	{
		case cnCamera_fixed:
			view->position = camera->position;
			view->lookAt = camera->lookAt;
			view->up = cnUpFor( view->position, view->lookAt );
			break;
		case cnCamera_follow:
		{
			cnTransform xf = cnCameraBodyPose( recording, frame, body );
			view->position = cnAdd( xf.p, camera->offset );
			view->lookAt = xf.p;
			view->up = cnUpFor( view->position, view->lookAt );
			break;
		}
		case cnCamera_mounted:
		{
			// AERO's camera on a body: it turns with the body, its up the body's z
			cnTransform xf = cnCameraBodyPose( recording, frame, body );
			view->position = cnTransformPoint( xf, camera->offset );
			view->lookAt = cnTransformPoint( xf, camera->localLookAt );
			view->up = cnRotate( xf.q, cnV3( 0.0, 0.0, 1.0 ) );
			break;
		}
		case cnCamera_path:
		{
			if ( camera->keyCount < 1 || camera->keys == NULL )
			{
				return cnSetError( cnError_invalidArgument, "camera \"%s\": a path needs at least one key",
								   camera->name != NULL ? camera->name : "" );
			}
			double t = cnRecording_GetFrameTime( recording, frame );
			const cnCameraKey* keys = camera->keys;
			int n = camera->keyCount;
			if ( t <= keys[0].time || n == 1 )
			{
				view->position = keys[0].position;
				view->lookAt = keys[0].lookAt;
			}
			else if ( t >= keys[n - 1].time )
			{
				view->position = keys[n - 1].position;
				view->lookAt = keys[n - 1].lookAt;
			}
			else
			{
				int k = 0;
				while ( k + 1 < n && keys[k + 1].time < t )
				{
					k += 1;
				}
				double span = keys[k + 1].time - keys[k].time;
				double u = span > 0.0 ? ( t - keys[k].time ) / span : 1.0;
				view->position = cnLerp( keys[k].position, keys[k + 1].position, u );
				view->lookAt = cnLerp( keys[k].lookAt, keys[k + 1].lookAt, u );
			}
			view->up = cnUpFor( view->position, view->lookAt );
			break;
		}
		default:
			return cnSetError( cnError_invalidArgument, "camera: unknown type %d", (int)camera->type );
	}
	if ( cnDistance( view->position, view->lookAt ) == 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "camera \"%s\": it looks at its own position",
						   camera->name != NULL ? camera->name : "" );
	}
	cnClearError();
	return true;
}

// The box of a recorded shape at a frame (planes left out: false).
static bool cnRecordedShapeBox( const cnRecordedShape* s, cnTransform body, cnAABB* box )
{
	cnTransform xf = cnMulTransforms( body, s->localPose );
	cnVec3 e;
	switch ( s->type )
	{
		case cnShape_sphere:
			e = cnV3( s->radius, s->radius, s->radius );
			break;
		case cnShape_box:
		{
			// the rotated box's extent along each world axis
			cnMat3 r = cnMat3FromQuat( xf.q );
			cnVec3 h = s->halfExtents;
			e = cnV3( fabs( r.cx.x ) * h.x + fabs( r.cy.x ) * h.y + fabs( r.cz.x ) * h.z,
					  fabs( r.cx.y ) * h.x + fabs( r.cy.y ) * h.y + fabs( r.cz.y ) * h.z,
					  fabs( r.cx.z ) * h.x + fabs( r.cy.z ) * h.y + fabs( r.cz.z ) * h.z );
			break;
		}
		case cnShape_capsule:
		case cnShape_cylinder:
		case cnShape_polygon:
		{
			double reach = cnRecordedShape_GetReach( s );
			e = cnV3( reach, reach, reach );
			break;
		}
		case cnShape_hull:
		case cnShape_mesh:
		case cnShape_heightfield:
		{
			// the box of the placed vertices: a long flat terrain is not a cube
			for ( int k = 0; k < s->vertexCount; ++k )
			{
				cnVec3 v = cnTransformPoint( xf, s->vertices[k] );
				box->lower = k == 0 ? v : cnMin( box->lower, v );
				box->upper = k == 0 ? v : cnMax( box->upper, v );
			}
			return s->vertexCount > 0;
		}
		default:
			return false;
	}
	box->lower = cnSub( xf.p, e );
	box->upper = cnAdd( xf.p, e );
	return true;
}

// Every 200th part of a long recording: the frames bounds and planarity are judged on.
static int cnSampleStride( const cnRecording* recording )
{
	int frames = cnRecording_GetFrameCount( recording );
	return frames > 200 ? frames / 200 : 1;
}

// The box around the shapes of every body and the joints' anchors, or of the bodies that are not
// static and the joints that move only.
static bool cnBoundsOf( const cnRecording* recording, bool movingOnly, cnAABB* bounds )
{
	bool any = false;
	cnAABB total = { cnVec3_zero, cnVec3_zero };
	int frames = cnRecording_GetFrameCount( recording );
	int bodies = cnRecording_GetBodyCount( recording );
	int stride = cnSampleStride( recording );
	for ( int f = 0; f < frames; f += stride )
	{
		for ( int b = 0; b < bodies; ++b )
		{
			if ( ( movingOnly && cnRecording_GetBodyType( recording, b ) == cnBody_static ) ||
				 cnRecording_IsBodyPresent( recording, f, b ) == false )
			{
				continue;
			}
			cnTransform xf = cnRecording_GetBodyTransform( recording, f, b );
			int shapes = cnRecording_GetShapeCount( recording, b );
			for ( int s = 0; s < shapes; ++s )
			{
				cnRecordedShape shape = cnRecording_GetShape( recording, b, s );
				cnAABB box;
				if ( cnRecordedShapeBox( &shape, xf, &box ) )
				{
					total = any ? cnAABB_Union( total, box ) : box;
					any = true;
				}
			}
		}
		// joints are drawn between their anchors, which may lie outside every shape (a pendulum's
		// pivot, a point mass); a joint moves when one of its bodies does
		int joints = cnRecording_GetJointCount( recording );
		for ( int j = 0; j < joints; ++j )
		{
			cnRecordedJoint joint = cnRecording_GetJoint( recording, j );
			bool moves = ( joint.bodyA >= 0 && cnRecording_GetBodyType( recording, joint.bodyA ) != cnBody_static ) ||
						 ( joint.bodyB >= 0 && cnRecording_GetBodyType( recording, joint.bodyB ) != cnBody_static );
			cnVec3 a, b;
			if ( ( movingOnly && moves == false ) || cnRecording_GetJointAnchors( recording, f, j, &a, &b ) == false )
			{
				continue;
			}
			cnAABB box = { cnMin( a, b ), cnMax( a, b ) };
			total = any ? cnAABB_Union( total, box ) : box;
			any = true;
		}
	}
	*bounds = total;
	return any;
}

bool cnRecording_GetBounds( const cnRecording* recording, cnAABB* bounds )
{
	return cnBoundsOf( recording, false, bounds );
}

bool cnRecording_IsPlanar( const cnRecording* recording )
{
	int frames = cnRecording_GetFrameCount( recording );
	int bodies = cnRecording_GetBodyCount( recording );
	int stride = cnSampleStride( recording );
	for ( int f = 0; f < frames; f += stride )
	{
		for ( int b = 0; b < bodies; ++b )
		{
			if ( cnRecording_IsBodyPresent( recording, f, b ) == false )
			{
				continue;
			}
			cnTransform xf = cnRecording_GetBodyTransform( recording, f, b );
			// a planar world keeps these exactly zero, so exact comparisons are right here
			if ( xf.p.z != 0.0 || xf.q.x != 0.0 || xf.q.y != 0.0 )
			{
				return false;
			}
		}
	}
	return frames > 0 && bodies > 0;
}

cnView cnRecording_GetAutoView( const cnRecording* recording, double aspect )
{
	cnView view = { cnV3( 6.0, -8.0, 4.0 ), cnVec3_zero, cnV3( 0.0, 0.0, 1.0 ), 50.0 };
	// what moves is what to see: static bodies are the stage (a 30 m ground would shrink a table of
	// cans to nothing), unless nothing moves
	cnAABB bounds;
	if ( cnBoundsOf( recording, true, &bounds ) == false && cnBoundsOf( recording, false, &bounds ) == false )
	{
		return view;
	}
	// look at the centre from the direction of AERO's figures (the front-right and above), or from
	// above for a planar recording, just far enough that every corner of the bounds fits both fields
	// of view: for a corner at r from the centre, seen at depth D - r.d, |r.right| <= tan(h/2) depth
	cnVec3 centre = cnMulSV( 0.5, cnAdd( bounds.lower, bounds.upper ) );
	bool planar = cnRecording_IsPlanar( recording );
	cnVec3 direction = planar ? cnV3( 0.0, 0.0, 1.0 ) : cnNormalize( cnV3( 0.55, -0.75, 0.38 ) );
	view.up = planar ? cnV3( 0.0, 1.0, 0.0 ) : cnV3( 0.0, 0.0, 1.0 );
	cnVec3 right = cnNormalize( cnCross( cnNeg( direction ), view.up ) );
	cnVec3 up = cnCross( right, cnNeg( direction ) );
	double tanH = tan( 0.5 * view.fovDeg * CN_PI / 180.0 );
	double tanV = tanH / ( aspect > 0.0 ? aspect : 4.0 / 3.0 );
	double distance = 0.0;
	for ( int corner = 0; corner < 8; ++corner )
	{
		cnVec3 c = cnV3( ( corner & 1 ) ? bounds.upper.x : bounds.lower.x, ( corner & 2 ) ? bounds.upper.y : bounds.lower.y,
						 ( corner & 4 ) ? bounds.upper.z : bounds.lower.z );
		cnVec3 r = cnSub( c, centre );
		double along = cnDot( r, direction );
		distance = fmax( distance, along + fabs( cnDot( r, right ) ) / tanH );
		distance = fmax( distance, along + fabs( cnDot( r, up ) ) / tanV );
	}
	// a margin of a twentieth around the picture, and never inside the bounds
	distance = fmax( 1.05 * distance, 1e-3 + cnLength( cnSub( bounds.upper, centre ) ) );
	view.lookAt = centre;
	view.position = cnMulAdd( centre, distance, direction );
	return view;
}

cnView cnView_GetEye( cnView view, double separation, int eye )
{
	cnVec3 forward = cnNormalize( cnSub( view.lookAt, view.position ) );
	cnVec3 right = cnCross( forward, view.up );
	double len = cnLength( right );
	right = len > 0.0 ? cnMulSV( 1.0 / len, right ) : cnV3( 1.0, 0.0, 0.0 );
	// both eyes keep the look-at point: they converge on it
	view.position = cnMulAdd( view.position, 0.5 * separation * ( eye < 0 ? -1.0 : 1.0 ), right );
	return view;
}
