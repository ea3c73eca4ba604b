// SPDX-License-Identifier: MIT
// Cameras (render.h): the scene's "cameras" as loaded, where each kind of camera is at a frame of a
// recording (checked against the bodies' closed-form motion: uniform motion, uniform rotation,
// linear interpolation of keys), the automatic framing (every corner of the bounds inside the
// picture, and tight), planar recordings seen from above, and the two eyes of a stereo pair.
#include "cairn/io.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A scene with no gravity: "mover" slides along x at 2 m/s, "spinner" turns about z at 1 rad/s.
static const char* s_scene =
	"{ \"cairn\": 1, \"gravity\": [0, 0, 0], \"duration\": 1, \"fps\": 10,\n"
	"  \"bodies\": [\n"
	"    { \"name\": \"mover\", \"position\": [1, 2, 3], \"velocity\": [2, 0, 0], \"shapes\": [{ \"type\": \"sphere\", "
	"\"radius\": 0.5 }] },\n"
	"    { \"name\": \"spinner\", \"position\": [-4, 0, 1], \"angular_velocity\": [0, 0, 1], \"shapes\": [{ \"type\": "
	"\"box\", \"half_extents\": [1, 0.5, 0.25] }] } ],\n"
	"  \"cameras\": [\n"
	"    { \"name\": \"wide\", \"position\": [10, -10, 5], \"look_at\": [0, 0, 1], \"fov_deg\": 40 },\n"
	"    { \"name\": \"chase\", \"type\": \"follow\", \"body\": \"mover\", \"offset\": [-3, -3, 1] },\n"
	"    { \"name\": \"rider\", \"type\": \"mounted\", \"body\": \"spinner\", \"offset\": [0, 0, 0.5], \"look_at\": "
	"[2, 0, 0.5] },\n"
	"    { \"name\": \"fly\", \"type\": \"path\", \"keys\": [ { \"time\": 0, \"position\": [0, -10, 2] },\n"
	"        { \"time\": 0.8, \"position\": [8, -2, 6], \"look_at\": [0, 0, 4] } ] } ] }\n";

// Runs a scene into a recording in memory.
static cnRecording* recordScene( const cnScene* scene )
{
	cnRecorderDef def = cnDefaultRecorderDef();
	def.fps = scene->fps;
	cnRecorder* recorder = cnCreateRecorder( scene->world, &def );
	cnFrameWriter writer = cnRecorder_AsFrameWriter( recorder );
	cnRunDef run = cnScene_GetRunDef( scene );
	run.writers = &writer;
	run.writerCount = 1;
	cnRunResult result = cnRun( scene->world, &run );
	size_t size = 0;
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* recording =
		result.status == cnRun_finished && bytes != NULL ? cnLoadRecordingFromMemory( bytes, size, "memory" ) : NULL;
	cnDestroyRecorder( recorder );
	return recording;
}

static void camerasLoad( void )
{
	cnScene* scene = cnLoadSceneFromString( s_scene, "cameras.json" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		printf( "  %s\n", cnGetError() );
		return;
	}
	CHECK( scene->cameraCount == 4 );
	const cnCameraDef* wide = cnScene_FindCamera( scene, "wide" );
	CHECK( wide != NULL && wide->type == cnCamera_fixed && wide->fovDeg == 40.0 && wide->position.x == 10.0 &&
		   wide->lookAt.z == 1.0 );
	CHECK( cnScene_FindCamera( scene, NULL ) == wide );
	const cnCameraDef* chase = cnScene_FindCamera( scene, "chase" );
	CHECK( chase != NULL && chase->type == cnCamera_follow && strcmp( chase->body, "mover" ) == 0 &&
		   chase->offset.x == -3.0 && chase->fovDeg == 50.0 );
	const cnCameraDef* rider = cnScene_FindCamera( scene, "rider" );
	CHECK( rider != NULL && rider->type == cnCamera_mounted && rider->localLookAt.x == 2.0 );
	const cnCameraDef* fly = cnScene_FindCamera( scene, "fly" );
	CHECK( fly != NULL && fly->type == cnCamera_path && fly->keyCount == 2 && fly->keys[1].time == 0.8 &&
		   fly->keys[0].lookAt.x == 0.0 && fly->keys[1].lookAt.z == 4.0 );
	CHECK( cnScene_FindCamera( scene, "nobody" ) == NULL );
	cnDestroyScene( scene );
}

static void cameraViews( void )
{
	cnScene* scene = cnLoadSceneFromString( s_scene, "cameras.json" );
	cnRecording* recording = scene != NULL ? recordScene( scene ) : NULL;
	CHECK( recording != NULL && cnRecording_GetFrameCount( recording ) == 11 );
	if ( recording == NULL )
	{
		cnDestroyScene( scene );
		return;
	}
	cnView view;
	// fixed: what the scene says, up along z
	CHECK( cnCamera_GetView( cnScene_FindCamera( scene, "wide" ), recording, 5, &view ) );
	CHECK( view.position.x == 10.0 && view.lookAt.z == 1.0 && view.up.z == 1.0 && view.fovDeg == 40.0 );

	// follow at frame 5 (t = 0.5 s): the mover is at (1 + 2 t, 2, 3)
	CHECK( cnCamera_GetView( cnScene_FindCamera( scene, "chase" ), recording, 5, &view ) );
	CHECK_NEAR( view.lookAt.x, 2.0, 1e-9 );
	CHECK_NEAR( view.lookAt.y, 2.0, 1e-9 );
	CHECK_NEAR( view.position.x, -1.0, 1e-9 );
	CHECK_NEAR( view.position.y, -1.0, 1e-9 );
	CHECK_NEAR( view.position.z, 4.0, 1e-9 );

	// mounted at frame 10 (t = 1 s): the spinner has turned 1 rad about z; the camera at its local
	// (0, 0, 0.5) looks along its local x, which now points at (cos 1, sin 1, 0)
	CHECK( cnCamera_GetView( cnScene_FindCamera( scene, "rider" ), recording, 10, &view ) );
	CHECK_NEAR( view.position.x, -4.0, 1e-9 );
	CHECK_NEAR( view.position.z, 1.5, 1e-9 );
	CHECK_NEAR( view.lookAt.x, -4.0 + 2.0 * cos( 1.0 ), 1e-6 );
	CHECK_NEAR( view.lookAt.y, 2.0 * sin( 1.0 ), 1e-6 );
	CHECK_NEAR( view.up.z, 1.0, 1e-9 );

	// path: at t = 0.2 a quarter of the way from the first key to the second; past the last key it
	// stays at the last key
	const cnCameraDef* fly = cnScene_FindCamera( scene, "fly" );
	CHECK( cnCamera_GetView( fly, recording, 2, &view ) );
	CHECK_NEAR( view.position.x, 2.0, 1e-9 );
	CHECK_NEAR( view.position.y, -8.0, 1e-9 );
	CHECK_NEAR( view.position.z, 3.0, 1e-9 );
	CHECK_NEAR( view.lookAt.z, 1.0, 1e-9 );
	CHECK( cnCamera_GetView( fly, recording, 10, &view ) );
	CHECK( view.position.x == 8.0 && view.lookAt.z == 4.0 );

	// errors: a body the recording lacks, a frame out of range
	cnCameraDef lost = *cnScene_FindCamera( scene, "chase" );
	lost.body = "ghost";
	CHECK( cnCamera_GetView( &lost, recording, 0, &view ) == false );
	CHECK( strstr( cnGetError(), "ghost" ) != NULL );
	CHECK( cnCamera_GetView( fly, recording, 11, &view ) == false );
	cnDestroyRecording( recording );
	cnDestroyScene( scene );
}

// Where a point falls in a picture seen from view: x and y in [-1, 1] across the picture's width
// and height when it is inside (a pinhole camera whose horizontal field is fovDeg).
static void project( const cnView* view, double aspect, cnVec3 p, double* x, double* y )
{
	cnVec3 forward = cnNormalize( cnSub( view->lookAt, view->position ) );
	cnVec3 right = cnNormalize( cnCross( forward, view->up ) );
	cnVec3 up = cnCross( right, forward );
	cnVec3 d = cnSub( p, view->position );
	double depth = cnDot( d, forward );
	double t = tan( 0.5 * view->fovDeg * CN_PI / 180.0 );
	*x = cnDot( d, right ) / ( depth * t );
	*y = cnDot( d, up ) / ( depth * t / aspect );
}

static void autoViewFrames( void )
{
	cnScene* scene = cnLoadSceneFromString( s_scene, "cameras.json" );
	cnRecording* recording = scene != NULL ? recordScene( scene ) : NULL;
	CHECK( recording != NULL );
	if ( recording == NULL )
	{
		cnDestroyScene( scene );
		return;
	}
	cnAABB bounds;
	CHECK( cnRecording_GetBounds( recording, &bounds ) );
	// the mover's sphere sweeps x from 0.5 to 3.5; the spinner's box, turned by 0.1 k rad at frame
	// k, reaches cos + 0.5 sin of that along x
	double reach = 0.0;
	for ( int k = 0; k <= 10; ++k )
	{
		reach = fmax( reach, cos( 0.1 * k ) + 0.5 * sin( 0.1 * k ) );
	}
	CHECK_NEAR( bounds.upper.x, 3.5, 1e-9 );
	CHECK_NEAR( bounds.lower.x, -4.0 - reach, 1e-9 );
	CHECK( cnRecording_IsPlanar( recording ) == false );
	double aspects[] = { 4.0 / 3.0, 16.0 / 9.0, 0.5 };
	for ( int a = 0; a < 3; ++a )
	{
		cnView view = cnRecording_GetAutoView( recording, aspects[a] );
		double widest = 0.0;
		for ( int corner = 0; corner < 8; ++corner )
		{
			cnVec3 c = cnV3( ( corner & 1 ) ? bounds.upper.x : bounds.lower.x,
							 ( corner & 2 ) ? bounds.upper.y : bounds.lower.y,
							 ( corner & 4 ) ? bounds.upper.z : bounds.lower.z );
			double x, y;
			project( &view, aspects[a], c, &x, &y );
			CHECK( fabs( x ) <= 1.0 && fabs( y ) <= 1.0 );
			widest = fmax( widest, fmax( fabs( x ), fabs( y ) ) );
		}
		// tight: some corner reaches within the margin of an edge
		CHECK( widest > 0.9 );
	}
	cnDestroyRecording( recording );
	cnDestroyScene( scene );
}

static void autoViewIgnoresTheStage( void )
{
	// a 60 m static ground and a 10 cm ball: the view frames the ball, not the ground
	const char* json = "{ \"cairn\": 1, \"duration\": 0.2, \"fps\": 10,\n"
					   "  \"bodies\": [ { \"name\": \"ground\", \"type\": \"static\", \"position\": [0, 0, -0.5],\n"
					   "    \"shapes\": [{ \"type\": \"box\", \"half_extents\": [30, 30, 0.5] }] },\n"
					   "    { \"name\": \"ball\", \"position\": [1, 0, 1], \"shapes\": [{ \"type\": \"sphere\", \"radius\": 0.1 }] } ] }\n";
	cnScene* scene = cnLoadSceneFromString( json, "stage.json" );
	cnRecording* recording = scene != NULL ? recordScene( scene ) : NULL;
	CHECK( recording != NULL );
	if ( recording != NULL )
	{
		cnView view = cnRecording_GetAutoView( recording, 4.0 / 3.0 );
		// the ball falls 0.196 m in 0.2 s: its box is about 0.2 x 0.2 x 0.4 m
		CHECK( cnDistance( view.position, view.lookAt ) < 2.0 );
		CHECK_NEAR( view.lookAt.x, 1.0, 1e-9 );
		cnAABB all;
		CHECK( cnRecording_GetBounds( recording, &all ) && all.lower.x == -30.0 );
	}
	cnDestroyRecording( recording );
	cnDestroyScene( scene );
}

static void planarSeenFromAbove( void )
{
	const char* json = "{ \"cairn\": 1, \"planar\": true, \"gravity\": [0, -9.81, 0], \"duration\": 0.5, \"fps\": 10,\n"
					   "  \"bodies\": [ { \"name\": \"disc\", \"position\": [1, 2, 0], \"velocity\": [1, 0, 0],\n"
					   "    \"shapes\": [{ \"type\": \"sphere\", \"radius\": 0.5 }] } ] }\n";
	cnScene* scene = cnLoadSceneFromString( json, "planar.json" );
	CHECK( scene != NULL );
	cnRecording* recording = scene != NULL ? recordScene( scene ) : NULL;
	CHECK( recording != NULL );
	if ( recording != NULL )
	{
		CHECK( cnRecording_IsPlanar( recording ) );
		cnView view = cnRecording_GetAutoView( recording, 4.0 / 3.0 );
		// straight down the z axis, y up in the picture
		CHECK_NEAR( view.position.x, view.lookAt.x, 1e-12 );
		CHECK_NEAR( view.position.y, view.lookAt.y, 1e-12 );
		CHECK( view.position.z > view.lookAt.z );
		CHECK( view.up.y == 1.0 );
	}
	cnDestroyRecording( recording );
	cnDestroyScene( scene );
}

static void stereoEyes( void )
{
	cnView view = { cnV3( 0.0, -10.0, 2.0 ), cnV3( 0.0, 0.0, 2.0 ), cnV3( 0.0, 0.0, 1.0 ), 50.0 };
	cnView left = cnView_GetEye( view, 0.3, -1 );
	cnView right = cnView_GetEye( view, 0.3, 1 );
	// looking along +y with z up, the right is +x
	CHECK_NEAR( left.position.x, -0.15, 1e-12 );
	CHECK_NEAR( right.position.x, 0.15, 1e-12 );
	CHECK( left.position.y == -10.0 && right.position.z == 2.0 );
	// both converge on the point the camera looked at
	CHECK( left.lookAt.y == 0.0 && right.lookAt.x == 0.0 );
}

int main( void )
{
	RUN_TEST( camerasLoad );
	RUN_TEST( cameraViews );
	RUN_TEST( autoViewFrames );
	RUN_TEST( autoViewIgnoresTheStage );
	RUN_TEST( planarSeenFromAbove );
	RUN_TEST( stereoEyes );
	return TEST_SUMMARY();
}
