// SPDX-License-Identifier: MIT
// Joints in POV-Ray frames (render.h, docs/rendering.md): a world with a spring, a damper, a rod, a
// ball joint, a weld and a slider, made through the API and recorded into memory, is written as
// POV-Ray scenes: the frame holds a coil (sphere_sweep) for the spring, a dark cylinder and a steel
// rod for the damper, a thin cylinder for the rod, a sphere at the ball joint's anchor and cubes for
// the weld and slider; a joint that broke or was removed is left out. Rendered by the real POV-Ray
// (as PPM, read here), the picture with the joints differs from the one without them along each
// joint's line (the coil, the cylinders, the sphere where the pinhole projection of the anchors
// falls) and nowhere in the sky; the damper's cylinder is darker than its rod. The rendering part
// is skipped when povray is not installed.
#define _POSIX_C_SOURCE 200809L

#include "cairn/io.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum
{
	width = 480,
	height = 360,
};

static bool s_havePovray = false;

// the joints' anchors, world coordinates at creation (and in the still frames)
// (all above the camera's height, so the joints are seen against the sky)
static const cnVec3 s_springA = { -2.5, 0.0, 3.4 }, s_springB = { -0.5, 0.0, 3.4 };
static const cnVec3 s_damperA = { 0.5, 0.0, 3.4 }, s_damperB = { 2.5, 0.0, 3.4 };
static const cnVec3 s_rodA = { -2.5, 0.0, 2.2 }, s_rodB = { -0.5, 0.0, 2.2 };
static const cnVec3 s_ballAnchor = { 1.5, 0.0, 2.6 };
static const double s_radius = 0.5;

static cnBodyId ball( cnWorld* world, cnVec3 p )
{
	return tbSphere( world, cnBody_dynamic, p, cnVec3_zero, s_radius, 0 );
}

// Two frames of the same still world: the joints acting, then all of them destroyed.
static cnRecording* recordJoints( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnSpringJointDef spring = cnDefaultSpringJointDef();
	spring.base.name = "coil";
	spring.base.bodyA = ball( world, s_springA );
	spring.base.bodyB = ball( world, s_springB );
	spring.anchorA = s_springA;
	spring.anchorB = s_springB;
	cnJointId joints[6];
	joints[0] = cnCreateSpringJoint( world, &spring );
	cnDamperJointDef damper = cnDefaultDamperJointDef();
	damper.base.name = "shock";
	damper.base.bodyA = ball( world, s_damperA );
	damper.base.bodyB = ball( world, s_damperB );
	damper.anchorA = s_damperA;
	damper.anchorB = s_damperB;
	joints[1] = cnCreateDamperJoint( world, &damper );
	cnDistanceJointDef rod = cnDefaultDistanceJointDef();
	rod.base.name = "rod";
	rod.base.bodyA = ball( world, s_rodA );
	rod.anchorA = s_rodA;
	rod.anchorB = s_rodB;
	joints[2] = cnCreateDistanceJoint( world, &rod );
	cnBallJointDef nail = cnDefaultBallJointDef();
	nail.base.name = "nail";
	nail.base.bodyA = ball( world, cnV3( 1.5, 0.0, 1.9 ) );
	nail.anchor = s_ballAnchor;
	joints[3] = cnCreateBallJoint( world, &nail );
	// behind the others, out of the picture's way: a weld and a slider between two more balls (the
	// slider's anchors coincide at creation: no rail between them yet)
	cnBodyId back1 = ball( world, cnV3( -1.0, 6.0, 0.5 ) ), back2 = ball( world, cnV3( 1.0, 6.0, 0.5 ) );
	cnFixedJointDef weld = cnDefaultFixedJointDef();
	weld.base.name = "weld";
	weld.base.bodyA = back1;
	weld.base.bodyB = back2;
	weld.anchor = cnV3( 0.0, 6.0, 0.5 );
	joints[4] = cnCreateFixedJoint( world, &weld );
	cnSliderJointDef slider = cnDefaultSliderJointDef();
	slider.base.name = "rail";
	slider.base.bodyA = back1;
	slider.base.bodyB = back2;
	slider.anchor = cnV3( -0.8, 6.0, 0.5 );
	slider.axis = cnV3( 1, 0, 0 );
	joints[5] = cnCreateSliderJoint( world, &slider );
	for ( int i = 0; i < 6; ++i )
	{
		CHECK( cnJoint_IsValid( world, joints[i] ) );
	}

	cnRecorderDef def = cnDefaultRecorderDef();
	def.sceneName = "joints";
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	for ( int i = 0; i < 6; ++i )
	{
		CHECK( cnDestroyJoint( world, joints[i] ) );
	}
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	CHECK( cnRecorder_Finish( recorder ) );
	size_t size = 0;
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* recording = bytes != NULL ? cnLoadRecordingFromMemory( bytes, size, "memory" ) : NULL;
	CHECK( recording != NULL && cnRecording_GetJointCount( recording ) == 6 );
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
	return recording;
}

// A frame's POV-Ray scene as text (malloc'd), NULL when writing failed.
static char* povText( const cnRecording* recording, int frame, const cnView* view, const char* path )
{
	cnPovOptions options = cnDefaultPovOptions();
	options.width = width;
	options.height = height;
	FILE* out = fopen( path, "w+" );
	if ( out == NULL )
	{
		return NULL;
	}
	bool written = cnWritePovFrame( out, recording, frame, view, &options );
	CHECK( written );
	long size = ftell( out );
	char* text = malloc( (size_t)size + 1 );
	rewind( out );
	size_t n = fread( text, 1, (size_t)size, out );
	text[n] = 0;
	fclose( out );
	if ( written == false )
	{
		printf( "  %s\n", cnGetError() );
		free( text );
		return NULL;
	}
	return text;
}

// How many times needle occurs in text.
static int occurrences( const char* text, const char* needle )
{
	int n = 0;
	for ( const char* p = strstr( text, needle ); p != NULL; p = strstr( p + 1, needle ) )
	{
		++n;
	}
	return n;
}

// The text from a joint's comment line to the next comment or the end: what is drawn for it.
static char* jointSection( const char* text, const char* comment )
{
	const char* start = strstr( text, comment );
	if ( start == NULL )
	{
		return NULL;
	}
	const char* end = strstr( start + 1, "\n//" );
	size_t n = end != NULL ? (size_t)( end - start ) : strlen( start );
	char* section = malloc( n + 1 );
	memcpy( section, start, n );
	section[n] = 0;
	return section;
}

static const cnView s_view = { { 0.0, -8.0, 1.8 }, { 0.0, 0.0, 2.6 }, { 0.0, 0.0, 1.0 }, 60.0 };

static void povObjects( void )
{
	cnRecording* recording = recordJoints();
	if ( recording == NULL )
	{
		return;
	}
	char* drawn = povText( recording, 0, &s_view, "render_joints_0.pov" );
	char* gone = povText( recording, 1, &s_view, "render_joints_1.pov" );
	CHECK( drawn != NULL && gone != NULL );
	if ( drawn != NULL && gone != NULL )
	{
		struct
		{
			const char* comment;
			const char* objects[3];
			int count[3];
		} expect[] = {
			{ "// joint 0: spring coil", { "sphere_sweep { linear_spline", "CairnJointSteel", NULL }, { 1, 1, 0 } },
			{ "// joint 1: damper shock", { "cylinder {", "CairnJointDark", "CairnJointSteel" }, { 2, 1, 1 } },
			{ "// joint 2: distance rod", { "cylinder {", "CairnJointSteel", NULL }, { 1, 1, 0 } },
			{ "// joint 3: ball nail", { "sphere {", "CairnJointSteel", NULL }, { 1, 1, 0 } },
			{ "// joint 4: fixed weld", { "box {", "CairnJointSteel", NULL }, { 1, 1, 0 } },
			{ "// joint 5: slider rail", { "box {", "cylinder {", "CairnJointSteel" }, { 2, 0, 2 } },
		};
		for ( size_t j = 0; j < sizeof( expect ) / sizeof( expect[0] ); ++j )
		{
			char* section = jointSection( drawn, expect[j].comment );
			CHECK( section != NULL );
			for ( int k = 0; section != NULL && k < 3 && expect[j].objects[k] != NULL; ++k )
			{
				int n = occurrences( section, expect[j].objects[k] );
				CHECK( n == expect[j].count[k] );
				if ( n != expect[j].count[k] )
				{
					printf( "  %s: %d of '%s', wanted %d\n", expect[j].comment, n, expect[j].objects[k],
							expect[j].count[k] );
				}
			}
			free( section );
			// removed joints: named in a comment, nothing drawn
			section = jointSection( gone, expect[j].comment );
			CHECK( section != NULL && strchr( section, '{' ) == NULL );
			free( section );
		}
		// the rod runs between the anchors, in POV-Ray's axes (x, z, y)
		CHECK( strstr( drawn, "cylinder { <-2.5, 2.2, 0>, <-0.5, 2.2, 0>," ) != NULL );
		// the ball joint's sphere sits at its anchor
		CHECK( strstr( drawn, "sphere { <1.5, 2.6, 0>," ) != NULL );
		// the damper's cylinder starts at A's anchor, its rod at B's
		CHECK( strstr( drawn, "cylinder { <0.5, 3.4, 0>," ) != NULL );
		CHECK( strstr( drawn, "cylinder { <2.5, 3.4, 0>," ) != NULL );
	}
	free( drawn );
	free( gone );
	cnDestroyRecording( recording );
}

// A broken joint is not drawn: a stretched spring that breaks in its first step. Its name, with a
// line break in it, stays inside its comment line.
static void brokenNotDrawn( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnSpringJointDef spring = cnDefaultSpringJointDef();
	spring.base.name = "weak\nsphere { 0, 1 }";
	spring.base.bodyA = ball( world, s_springA );
	spring.base.bodyB = ball( world, s_springB );
	spring.base.breakForce = 1.0;
	spring.anchorA = s_springA;
	spring.anchorB = s_springB;
	spring.restLength = 1.0;
	cnJointId id = cnCreateSpringJoint( world, &spring );
	cnRecorderDef def = cnDefaultRecorderDef();
	cnRecorder* recorder = cnCreateRecorder( world, &def );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	// 100 N/m stretched by 1 m: 100 N, past the break force
	CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	CHECK( cnJoint_IsBroken( world, id ) );
	CHECK( cnRecorder_AddFrame( recorder, world ) );
	CHECK( cnRecorder_Finish( recorder ) );
	size_t size = 0;
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* recording = cnLoadRecordingFromMemory( bytes, size, "memory" );
	CHECK( recording != NULL );
	if ( recording != NULL )
	{
		CHECK( cnRecording_GetJointState( recording, 1, 0 ) == cnRecordedJoint_broken );
		char* before = povText( recording, 0, &s_view, "render_joints_broken.pov" );
		char* after = povText( recording, 1, &s_view, "render_joints_broken.pov" );
		CHECK( before != NULL && occurrences( before, "sphere_sweep" ) == 1 );
		CHECK( before != NULL && strstr( before, "// joint 0: spring weak?sphere { 0, 1 }\n" ) != NULL );
		CHECK( before != NULL && strstr( before, "\nsphere { 0, 1 }" ) == NULL );
		CHECK( after != NULL && occurrences( after, "sphere_sweep" ) == 0 );
		free( before );
		free( after );
	}
	cnDestroyRecording( recording );
	cnDestroyRecorder( recorder );
	cnDestroyWorld( world );
}

// ---------------------------------------------------------------------------------------------
// the picture

typedef struct Picture
{
	int width, height;
	unsigned char* rgb;
} Picture;

// The next number of a PPM header, skipping white space and "#" comment lines; -1 when none.
static int ppmNumber( FILE* f )
{
	int c = fgetc( f );
	while ( c == '#' || c == ' ' || c == '\n' || c == '\r' || c == '\t' )
	{
		if ( c == '#' )
		{
			while ( c != '\n' && c != EOF )
			{
				c = fgetc( f );
			}
		}
		c = fgetc( f );
	}
	int n = -1;
	while ( c >= '0' && c <= '9' )
	{
		n = ( n < 0 ? 0 : 10 * n ) + ( c - '0' );
		c = fgetc( f );
	}
	// the one white space character after the number is consumed with it
	return n;
}

// Reads a binary PPM (P6, maxval 255) as POV-Ray writes it with +FP.
static bool readPpm( const char* path, Picture* picture )
{
	picture->rgb = NULL;
	FILE* f = fopen( path, "rb" );
	if ( f == NULL )
	{
		return false;
	}
	bool ok = fgetc( f ) == 'P' && fgetc( f ) == '6';
	picture->width = ok ? ppmNumber( f ) : -1;
	picture->height = ok ? ppmNumber( f ) : -1;
	ok = ok && picture->width > 0 && picture->height > 0 && ppmNumber( f ) == 255;
	if ( ok )
	{
		size_t n = 3 * (size_t)picture->width * (size_t)picture->height;
		picture->rgb = malloc( n );
		ok = fread( picture->rgb, 1, n, f ) == n;
	}
	fclose( f );
	return ok;
}

// Renders a .pov written by povText into NAME.ppm.
static bool render( const char* name )
{
	char command[512];
	snprintf( command, sizeof( command ),
			  "povray +I%s.pov +O%s.ppm +W%d +H%d -A +FP -D -P +WT1 >%s.log 2>&1", name, name, width, height, name );
	bool ok = system( command ) == 0;
	if ( ok == false )
	{
		printf( "  POV-Ray failed on %s.pov (see %s.log)\n", name, name );
	}
	return ok;
}

// Pixel coordinates of a world point (pinhole camera, horizontal field of view, z up).
static void project( const cnView* view, cnVec3 p, double* u, double* v )
{
	cnVec3 forward = cnNormalize( cnSub( view->lookAt, view->position ) );
	cnVec3 right = cnNormalize( cnCross( forward, view->up ) );
	cnVec3 up = cnCross( right, forward );
	cnVec3 d = cnSub( p, view->position );
	double depth = cnDot( d, forward );
	double t = tan( 0.5 * view->fovDeg * CN_PI / 180.0 );
	double aspect = (double)width / height;
	*u = 0.5 * ( cnDot( d, right ) / ( depth * t ) + 1.0 ) * width;
	*v = 0.5 * ( 1.0 - cnDot( d, up ) / ( depth * t / aspect ) ) * height;
}

static const unsigned char* pixel( const Picture* p, int x, int y )
{
	return p->rgb + 3 * ( (size_t)y * (size_t)p->width + (size_t)x );
}

static bool differs( const Picture* a, const Picture* b, int x, int y )
{
	const unsigned char* p = pixel( a, x, y );
	const unsigned char* q = pixel( b, x, y );
	return abs( p[0] - q[0] ) + abs( p[1] - q[1] ) + abs( p[2] - q[2] ) > 30;
}

// The share of 41 points of the segment from a to b (world points, from 0.3 to 0.7 of its length,
// clear of the balls at its ends) near whose projection, within half pixels up or down, the
// pictures differ.
static double changedAlong( const Picture* a, const Picture* b, cnVec3 from, cnVec3 to, int half )
{
	int changed = 0;
	for ( int i = 0; i <= 40; ++i )
	{
		double u, v;
		project( &s_view, cnAdd( from, cnMulSV( 0.3 + 0.4 * i / 40.0, cnSub( to, from ) ) ), &u, &v );
		bool seen = false;
		for ( int dy = -half; dy <= half && seen == false; ++dy )
		{
			int x = (int)floor( u ), y = (int)floor( v ) + dy;
			seen = x >= 0 && x < width && y >= 0 && y < height && differs( a, b, x, y );
		}
		changed += seen;
	}
	return changed / 41.0;
}

static double luminance( const Picture* p, cnVec3 point )
{
	double u, v;
	project( &s_view, point, &u, &v );
	const unsigned char* c = pixel( p, (int)floor( u ), (int)floor( v ) );
	return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
}

static void rendered( void )
{
	if ( s_havePovray == false )
	{
		TEST_SKIP( "povray is not installed (apt-get install povray)" );
		return;
	}
	cnRecording* recording = recordJoints();
	if ( recording == NULL )
	{
		return;
	}
	char* a = povText( recording, 0, &s_view, "render_joints_0.pov" );
	char* b = povText( recording, 1, &s_view, "render_joints_1.pov" );
	free( a );
	free( b );
	Picture drawn = { 0 }, gone = { 0 };
	CHECK( render( "render_joints_0" ) && readPpm( "render_joints_0.ppm", &drawn ) );
	CHECK( render( "render_joints_1" ) && readPpm( "render_joints_1.ppm", &gone ) );
	if ( drawn.rgb != NULL && gone.rgb != NULL )
	{
		CHECK( drawn.width == width && drawn.height == height && gone.width == width );
		// the coil winds around its line (a coil radius is about 6 pixels here); the cylinders lie on
		// theirs
		double coil = changedAlong( &drawn, &gone, s_springA, s_springB, 8 );
		double damper = changedAlong( &drawn, &gone, s_damperA, s_damperB, 1 );
		double rod = changedAlong( &drawn, &gone, s_rodA, s_rodB, 2 );
		printf( "  changed along the spring %.2f, the damper %.2f, the rod %.2f\n", coil, damper, rod );
		CHECK( coil > 0.9 );
		CHECK( damper > 0.9 );
		CHECK( rod > 0.9 );
		double u, v;
		project( &s_view, s_ballAnchor, &u, &v );
		CHECK( differs( &drawn, &gone, (int)floor( u ), (int)floor( v ) ) );
		// the damper's cylinder (from A's anchor) is darker than the rod sliding out of it (to B's)
		double body = luminance( &drawn, cnAdd( s_damperA, cnMulSV( 0.3, cnSub( s_damperB, s_damperA ) ) ) );
		double slider = luminance( &drawn, cnAdd( s_damperA, cnMulSV( 0.85, cnSub( s_damperB, s_damperA ) ) ) );
		printf( "  damper cylinder luminance %.0f, rod %.0f\n", body, slider );
		CHECK( body < slider );
		// the sky above everything does not change
		int skyChanges = 0;
		for ( int x = 0; x < width; ++x )
		{
			for ( int y = 0; y < 20; ++y )
			{
				skyChanges += differs( &drawn, &gone, x, y );
			}
		}
		CHECK( skyChanges == 0 );
	}
	free( drawn.rgb );
	free( gone.rgb );
	cnDestroyRecording( recording );
}

int main( void )
{
	s_havePovray = system( "command -v povray >/dev/null 2>&1" ) == 0;
	if ( s_havePovray == false )
	{
		printf( "SKIP: povray is not installed here (apt-get install povray); CI installs it\n" );
	}
	RUN_TEST( povObjects );
	RUN_TEST( brokenNotDrawn );
	RUN_TEST( rendered );
	return TEST_SUMMARY();
}
