// SPDX-License-Identifier: MIT
// POV-Ray frames (render.h) rendered by the real POV-Ray: every shape and every finish parses and
// renders; in a frame of a known scene each body's colour is where a pinhole camera projects it
// (computed here, independently of the writer's axis conversion); and `cairn render --stereo`
// composes its eyes channel by channel, with near things shifted right in the left eye and far
// things shifted left (crossed and uncrossed parallax). Skipped when povray is not installed.
#define _POSIX_C_SOURCE 200809L

#include "cairn/io.h"
#include "test.h"

#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

// An RGB picture read with libpng's simplified API.
typedef struct Picture
{
	int width, height;
	unsigned char* rgb;
} Picture;

static bool readPicture( const char* path, Picture* picture )
{
	png_image png;
	memset( &png, 0, sizeof( png ) );
	png.version = PNG_IMAGE_VERSION;
	picture->rgb = NULL;
	if ( png_image_begin_read_from_file( &png, path ) == 0 )
	{
		printf( "  %s: %s\n", path, png.message );
		return false;
	}
	png.format = PNG_FORMAT_RGB;
	picture->rgb = malloc( PNG_IMAGE_SIZE( png ) );
	if ( picture->rgb == NULL || png_image_finish_read( &png, NULL, picture->rgb, 0, NULL ) == 0 )
	{
		free( picture->rgb );
		picture->rgb = NULL;
		return false;
	}
	picture->width = (int)png.width;
	picture->height = (int)png.height;
	return true;
}

static const unsigned char* pixel( const Picture* p, int x, int y )
{
	return p->rgb + 3 * ( (size_t)y * (size_t)p->width + (size_t)x );
}

// Runs a shell command quietly; true when it exits 0.
static bool shell( const char* format, const char* a, const char* b )
{
	char command[2048];
	snprintf( command, sizeof( command ), format, a, b );
	return system( command ) == 0;
}

static bool s_havePovray = false;

// Loads a scene from text and runs it into a recording in memory.
static cnRecording* recordText( const char* json, cnScene** sceneOut )
{
	cnScene* scene = cnLoadSceneFromString( json, "render.json" );
	if ( scene == NULL )
	{
		printf( "  %s\n", cnGetError() );
		return NULL;
	}
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
	if ( sceneOut != NULL )
	{
		*sceneOut = scene;
	}
	else
	{
		cnDestroyScene( scene );
	}
	return recording;
}

// Writes frame 0 of a recording as NAME.pov and renders NAME.png with POV-Ray.
static bool renderFrame( const cnRecording* recording, const cnView* view, const cnPovOptions* options, const char* name )
{
	char pov[256], png[256];
	snprintf( pov, sizeof( pov ), "%s.pov", name );
	snprintf( png, sizeof( png ), "%s.png", name );
	FILE* out = fopen( pov, "w" );
	if ( out == NULL )
	{
		return false;
	}
	bool written = cnWritePovFrame( out, recording, 0, view, options );
	fclose( out );
	if ( written == false )
	{
		printf( "  %s\n", cnGetError() );
		return false;
	}
	char size[64];
	snprintf( size, sizeof( size ), "+W%d +H%d %s", options->width, options->height, options->final ? "+A0.3" : "-A" );
	char command[1024];
	snprintf( command, sizeof( command ), "povray +I%s +O%s %s +FN8 -D -P +WT1 >%s.log 2>&1", pov, png, size, name );
	bool ok = system( command ) == 0;
	if ( ok == false )
	{
		printf( "  POV-Ray failed on %s (see %s.log)\n", pov, name );
	}
	return ok;
}

// Pixel coordinates of a world point seen from view in a width x height picture (pinhole camera,
// horizontal field of view fovDeg, z up, x to the right of a camera looking along +y).
static void project( const cnView* view, int width, int height, cnVec3 p, int* u, int* v )
{
	cnVec3 forward = cnNormalize( cnSub( view->lookAt, view->position ) );
	cnVec3 right = cnNormalize( cnCross( forward, view->up ) );
	cnVec3 up = cnCross( right, forward );
	cnVec3 d = cnSub( p, view->position );
	double depth = cnDot( d, forward );
	double t = tan( 0.5 * view->fovDeg * CN_PI / 180.0 );
	double aspect = (double)width / height;
	double x = cnDot( d, right ) / ( depth * t );
	double y = cnDot( d, up ) / ( depth * t / aspect );
	*u = (int)floor( 0.5 * ( x + 1.0 ) * width );
	*v = (int)floor( 0.5 * ( 1.0 - y ) * height );
}

// Matte colours so highlights do not move the test's colours.
static const char* s_colours =
	"{ \"cairn\": 1, \"gravity\": [0, 0, 0], \"duration\": 0.1, \"fps\": 10,\n"
	"  \"materials\": {\n"
	"    \"red\": { \"appearance\": { \"color\": [0.9, 0.05, 0.05], \"finish\": \"matte\" } },\n"
	"    \"blue\": { \"appearance\": { \"color\": [0.05, 0.1, 0.9], \"finish\": \"matte\" } },\n"
	"    \"green\": { \"appearance\": { \"color\": [0.05, 0.8, 0.1], \"finish\": \"matte\" } },\n"
	"    \"yellow\": { \"appearance\": { \"color\": [0.9, 0.8, 0.05], \"finish\": \"matte\" } } },\n"
	"  \"bodies\": [\n"
	"    { \"name\": \"sphere\", \"type\": \"static\", \"material\": \"red\", \"position\": [0, 0, 0.6],\n"
	"      \"shapes\": [{ \"type\": \"sphere\", \"radius\": 0.6 }] },\n"
	"    { \"name\": \"box\", \"type\": \"static\", \"material\": \"blue\", \"position\": [2.2, 0.5, 0.5],\n"
	"      \"euler_deg\": [0, 0, 30], \"shapes\": [{ \"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.5] }] },\n"
	"    { \"name\": \"capsule\", \"type\": \"static\", \"material\": \"green\", \"position\": [-2.2, 0.5, 0.8],\n"
	"      \"shapes\": [{ \"type\": \"capsule\", \"radius\": 0.3, \"half_height\": 0.4 }] },\n"
	"    { \"name\": \"cylinder\", \"type\": \"static\", \"material\": \"yellow\", \"position\": [-1.0, -2.5, 0.3],\n"
	"      \"shapes\": [{ \"type\": \"cylinder\", \"radius\": 0.4, \"half_height\": 0.3 }] } ] }\n";

static void coloursWhereBodiesProject( void )
{
	if ( s_havePovray == false )
	{
		TEST_SKIP( "povray is not installed (apt-get install povray)" );
		return;
	}
	cnRecording* recording = recordText( s_colours, NULL );
	CHECK( recording != NULL );
	if ( recording == NULL )
	{
		return;
	}
	cnView view = { cnV3( 0.5, -8.0, 3.0 ), cnV3( 0.0, 0.0, 0.5 ), cnV3( 0.0, 0.0, 1.0 ), 50.0 };
	cnPovOptions options = cnDefaultPovOptions();
	options.width = 320;
	options.height = 240;
	CHECK( renderFrame( recording, &view, &options, "render_colours" ) );
	Picture picture;
	CHECK( readPicture( "render_colours.png", &picture ) );
	if ( picture.rgb != NULL )
	{
		CHECK( picture.width == 320 && picture.height == 240 );
		struct
		{
			cnVec3 centre;
			int channel; // the dominant channel; 3: red and green (yellow)
		} bodies[] = { { cnV3( 0.0, 0.0, 0.6 ), 0 },
					   { cnV3( 2.2, 0.5, 0.5 ), 2 },
					   { cnV3( -2.2, 0.5, 0.8 ), 1 },
					   { cnV3( -1.0, -2.5, 0.3 ), 3 } };
		for ( int b = 0; b < 4; ++b )
		{
			int u, v;
			project( &view, picture.width, picture.height, bodies[b].centre, &u, &v );
			CHECK( u >= 0 && u < picture.width && v >= 0 && v < picture.height );
			if ( u < 0 || u >= picture.width || v < 0 || v >= picture.height )
			{
				continue;
			}
			const unsigned char* c = pixel( &picture, u, v );
			int r = c[0], g = c[1], bl = c[2];
			bool dominant = bodies[b].channel == 0	 ? ( r > 2 * g && r > 2 * bl )
							: bodies[b].channel == 1 ? ( g > 2 * r && g > 2 * bl )
							: bodies[b].channel == 2 ? ( bl > 2 * r && bl > 2 * g )
													 : ( r > 2 * bl && g > 2 * bl );
			if ( dominant == false )
			{
				printf( "  body %d at pixel (%d, %d): rgb %d %d %d\n", b, u, v, r, g, bl );
			}
			CHECK( dominant );
		}
		// far above the bodies, the sky: bluish, not any body's colour
		const unsigned char* sky = pixel( &picture, picture.width / 2, 2 );
		CHECK( sky[2] > sky[0] );
	}
	free( picture.rgb );
	cnDestroyRecording( recording );
}

// Writes a 4 x 4 checker PNG as a texture.
static bool writeTexture( const char* path )
{
	unsigned char rgb[4 * 4 * 3];
	for ( int i = 0; i < 16; ++i )
	{
		bool dark = ( ( i % 4 ) + ( i / 4 ) ) % 2 == 0;
		rgb[3 * i] = dark ? 40 : 230;
		rgb[3 * i + 1] = dark ? 40 : 200;
		rgb[3 * i + 2] = dark ? 160 : 60;
	}
	png_image png;
	memset( &png, 0, sizeof( png ) );
	png.version = PNG_IMAGE_VERSION;
	png.width = 4;
	png.height = 4;
	png.format = PNG_FORMAT_RGB;
	return png_image_write_to_file( &png, path, 0, rgb, 0, NULL ) != 0;
}

static void everyShapeAndFinish( void )
{
	if ( s_havePovray == false )
	{
		TEST_SKIP( "povray is not installed (apt-get install povray)" );
		return;
	}
	CHECK( writeTexture( "render_texture.png" ) );
	const char* json =
		"{ \"cairn\": 1, \"gravity\": [0, 0, 0], \"duration\": 0.1, \"fps\": 10,\n"
		"  \"materials\": {\n"
		"    \"matte\": { \"appearance\": { \"color\": [0.8, 0.2, 0.2], \"finish\": \"matte\" } },\n"
		"    \"plastic\": { \"appearance\": { \"color\": [0.2, 0.8, 0.2], \"finish\": \"plastic\" } },\n"
		"    \"metal\": { \"appearance\": { \"color\": [0.9, 0.85, 0.7], \"finish\": \"metal\" } },\n"
		"    \"glass\": { \"appearance\": { \"color\": [0.9, 0.95, 1.0], \"finish\": \"glass\", \"ior\": 1.33 } },\n"
		"    \"wood\": { \"appearance\": { \"color\": [0.6, 0.4, 0.2], \"finish\": \"wood\" } },\n"
		"    \"marble\": { \"appearance\": { \"color\": [0.9, 0.9, 0.85], \"finish\": \"marble\" } },\n"
		"    \"rubber\": { \"appearance\": { \"color\": [0.1, 0.1, 0.1], \"finish\": \"rubber\" } },\n"
		"    \"pictured\": { \"appearance\": { \"texture\": \"render_texture.png\" } },\n"
		"    \"floor\": { \"appearance\": { \"finish\": \"wood\" } } },\n"
		"  \"bodies\": [\n"
		"    { \"name\": \"ground\", \"type\": \"static\", \"material\": \"floor\", \"shapes\": [{ \"type\": \"plane\", "
		"\"normal\": [0, 0, 1] }] },\n"
		"    { \"name\": \"s\", \"material\": \"matte\", \"position\": [-3, 0, 1], \"shapes\": [{ \"type\": \"sphere\", "
		"\"radius\": 0.5 }] },\n"
		"    { \"name\": \"b\", \"material\": \"plastic\", \"position\": [-2, 0, 1], \"shapes\": [{ \"type\": \"box\", "
		"\"half_extents\": [0.3, 0.4, 0.5] }] },\n"
		"    { \"name\": \"c\", \"material\": \"metal\", \"position\": [-1, 0, 1], \"shapes\": [{ \"type\": \"capsule\", "
		"\"radius\": 0.3, \"half_height\": 0.4 }] },\n"
		"    { \"name\": \"y\", \"material\": \"glass\", \"position\": [0, 0, 1], \"shapes\": [{ \"type\": \"cylinder\", "
		"\"radius\": 0.3, \"half_height\": 0.4 }] },\n"
		"    { \"name\": \"w\", \"material\": \"wood\", \"position\": [1, 0, 1], \"shapes\": [{ \"type\": \"box\", "
		"\"half_extents\": [0.4, 0.4, 0.4] }] },\n"
		"    { \"name\": \"m\", \"material\": \"marble\", \"position\": [2, 0, 1], \"shapes\": [{ \"type\": \"sphere\", "
		"\"radius\": 0.4 }] },\n"
		"    { \"name\": \"r\", \"material\": \"rubber\", \"position\": [3, 0, 1], \"shapes\": [{ \"type\": \"capsule\", "
		"\"radius\": 0.2, \"half_height\": 0.3 }] },\n"
		"    { \"name\": \"t1\", \"material\": \"pictured\", \"position\": [-1, 2, 1], \"shapes\": [{ \"type\": "
		"\"sphere\", \"radius\": 0.4 }] },\n"
		"    { \"name\": \"t2\", \"material\": \"pictured\", \"position\": [0, 2, 1], \"shapes\": [{ \"type\": "
		"\"cylinder\", \"radius\": 0.3, \"half_height\": 0.3 }] },\n"
		"    { \"name\": \"t3\", \"material\": \"pictured\", \"position\": [1, 2, 1], \"shapes\": [{ \"type\": \"box\", "
		"\"half_extents\": [0.3, 0.3, 0.3] }] },\n"
		"    { \"name\": \"grey\", \"position\": [0, -2, 1], \"shapes\": [{ \"type\": \"sphere\", \"radius\": 0.3 },\n"
		"        { \"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1], \"position\": [0.5, 0, 0] }] } ] }\n";
	cnRecording* recording = recordText( json, NULL );
	CHECK( recording != NULL );
	if ( recording == NULL )
	{
		return;
	}
	cnView view = cnRecording_GetAutoView( recording, 4.0 / 3.0 );
	cnPovOptions options = cnDefaultPovOptions();
	options.width = 96;
	options.height = 72;
	options.textureDir = ".";
	CHECK( renderFrame( recording, &view, &options, "render_every_draft" ) );
	options.final = true;
	CHECK( renderFrame( recording, &view, &options, "render_every_final" ) );
	Picture picture;
	CHECK( readPicture( "render_every_final.png", &picture ) && picture.width == 96 && picture.height == 72 );
	free( picture.rgb );

	// the glass keeps its index of refraction, the texture its file
	FILE* pov = fopen( "render_every_final.pov", "r" );
	char text[65536];
	size_t n = pov != NULL ? fread( text, 1, sizeof( text ) - 1, pov ) : 0;
	text[n] = 0;
	if ( pov != NULL )
	{
		fclose( pov );
	}
	CHECK( strstr( text, "interior { ior 1.33 }" ) != NULL );
	CHECK( strstr( text, "image_map { png \"./render_texture.png\"" ) != NULL );
	CHECK( strstr( text, "area_light" ) != NULL );

	// a texture that is not there is an error naming it, not a frame POV-Ray would fail on
	options.textureDir = "no-such-folder";
	FILE* out = fopen( "render_missing.pov", "w" );
	CHECK( out != NULL && cnWritePovFrame( out, recording, 0, &view, &options ) == false );
	CHECK( strstr( cnGetError(), "no-such-folder/render_texture.png" ) != NULL );
	if ( out != NULL )
	{
		fclose( out );
	}
	cnDestroyRecording( recording );
}

// The horizontal centre of the pixels where red dominates, in columns [x0, x1) of a picture.
static double redCentre( const Picture* p, int x0, int x1, int y0, int y1 )
{
	double sum = 0.0;
	int count = 0;
	for ( int y = y0; y < y1; ++y )
	{
		for ( int x = x0; x < x1; ++x )
		{
			const unsigned char* c = pixel( p, x, y );
			if ( c[0] > 120 && c[0] > 2 * c[1] && c[0] > 2 * c[2] )
			{
				sum += x - x0;
				count += 1;
			}
		}
	}
	return count > 0 ? sum / count : -1.0;
}

static void stereoParallax( void )
{
	if ( s_havePovray == false )
	{
		TEST_SKIP( "povray is not installed (apt-get install povray)" );
		return;
	}
	// a red ball nearer than the point both eyes converge on, on the camera's axis, and a far one
	// above it, also on the axis: parallax of opposite signs
	FILE* scene = fopen( "render_stereo.json", "w" );
	CHECK( scene != NULL );
	if ( scene == NULL )
	{
		return;
	}
	fputs( "{ \"cairn\": 1, \"gravity\": [0, 0, 0], \"duration\": 0.1, \"fps\": 10,\n"
		   "  \"materials\": { \"red\": { \"appearance\": { \"color\": [0.9, 0.05, 0.05], \"finish\": \"matte\" } } },\n"
		   "  \"cameras\": [ { \"name\": \"eye\", \"position\": [0, -10, 1], \"look_at\": [0, 0, 1], \"fov_deg\": 40 } ],\n"
		   "  \"bodies\": [\n"
		   "    { \"name\": \"near\", \"type\": \"static\", \"material\": \"red\", \"position\": [0, -6, 0.2],\n"
		   "      \"shapes\": [{ \"type\": \"sphere\", \"radius\": 0.3 }] },\n"
		   "    { \"name\": \"far\", \"type\": \"static\", \"material\": \"red\", \"position\": [0, 8, 4.5],\n"
		   "      \"shapes\": [{ \"type\": \"sphere\", \"radius\": 1.0 }] } ] }\n",
		   scene );
	fclose( scene );
	const char* kinds[] = { "side-by-side", "anaglyph", "red-green" };
	for ( int k = 0; k < 3; ++k )
	{
		char command[1024];
		snprintf( command, sizeof( command ),
				  "rm -rf render_stereo_%d && '%s' render render_stereo.json -o render_stereo_%d --stereo %s "
				  "--eye-separation 0.5 --size 160x120 --frames 0:1 --quiet >render_stereo_%d.log 2>&1",
				  k, CAIRN_EXE, k, kinds[k], k );
		CHECK( system( command ) == 0 );
	}
	Picture pair, anaglyph, redGreen;
	bool ok = readPicture( "render_stereo_0/frame_00000.png", &pair ) &&
			  readPicture( "render_stereo_1/frame_00000.png", &anaglyph ) &&
			  readPicture( "render_stereo_2/frame_00000.png", &redGreen );
	CHECK( ok );
	if ( ok )
	{
		CHECK( pair.width == 320 && pair.height == 120 && anaglyph.width == 160 && redGreen.width == 160 );
		// the near ball fills the lower half, the far one the upper half; left eye on the left
		double nearLeft = redCentre( &pair, 0, 160, 60, 120 ), nearRight = redCentre( &pair, 160, 320, 60, 120 );
		double farLeft = redCentre( &pair, 0, 160, 0, 60 ), farRight = redCentre( &pair, 160, 320, 0, 60 );
		CHECK( nearLeft > 0.0 && nearRight > 0.0 && farLeft > 0.0 && farRight > 0.0 );
		// crossed parallax in front of the convergence point, uncrossed behind it
		CHECK( nearLeft > nearRight + 2.0 );
		CHECK( farLeft < farRight - 0.5 );
		// the anaglyph takes red from the left eye and green and blue from the right, pixel for pixel;
		// red-green takes each eye's brightness
		int mismatches = 0, greyMismatches = 0;
		for ( int y = 0; y < 120; ++y )
		{
			for ( int x = 0; x < 160; ++x )
			{
				const unsigned char* l = pixel( &pair, x, y );
				const unsigned char* r = pixel( &pair, x + 160, y );
				const unsigned char* a = pixel( &anaglyph, x, y );
				const unsigned char* g = pixel( &redGreen, x, y );
				mismatches += a[0] != l[0] || a[1] != r[1] || a[2] != r[2];
				double yl = 0.299 * l[0] + 0.587 * l[1] + 0.114 * l[2];
				double yr = 0.299 * r[0] + 0.587 * r[1] + 0.114 * r[2];
				greyMismatches += fabs( g[0] - yl ) > 1.0 || fabs( g[1] - yr ) > 1.0 || g[2] != 0;
			}
		}
		CHECK( mismatches == 0 );
		CHECK( greyMismatches == 0 );
	}
	free( pair.rgb );
	free( anaglyph.rgb );
	free( redGreen.rgb );
}

int main( void )
{
	s_havePovray = shell( "command -v povray >/dev/null 2>&1", "", "" );
	if ( s_havePovray == false )
	{
		printf( "SKIP: povray is not installed here (apt-get install povray); CI installs it\n" );
	}
	RUN_TEST( coloursWhereBodiesProject );
	RUN_TEST( everyShapeAndFinish );
	RUN_TEST( stereoParallax );
	return TEST_SUMMARY();
}
