// SPDX-License-Identifier: MIT
// `cairn render SCENE|RECORDING -o OUT`: POV-Ray frames, a video, stereo (docs/rendering.md). A
// scene is first run into a recording in memory, so scenes and recordings take one path.
#include "render_frames.h"

#include "processes.h"

#include <stdlib.h>
#include <string.h>

const char cliRenderHelp[] =
	"usage: cairn render SCENE.json|RECORDING.cnrec -o OUT [options]\n"
	"\n"
	"Renders the motion with POV-Ray (Debian's povray), one process per core, and writes OUT:\n"
	"  a folder      PNG frames frame_00000.png, frame_00001.png, ...\n"
	"  OUT.mp4       H.264 video (through FFmpeg, Debian's ffmpeg)\n"
	"  OUT.gif       animated GIF (FFmpeg)\n"
	"  OUT.webm      VP9 video (FFmpeg)\n"
	"A scene is simulated first (as `cairn run` would). Nothing appears under OUT until it is\n"
	"complete; Ctrl-C stops the render and leaves nothing behind.\n"
	"\n"
	"options:\n"
	"  -o OUT              the output (required)\n"
	"  --size WxH          picture size in pixels (default 640x480; even for videos)\n"
	"  --fps N             frames per second of the output (default: the scene's or recording's)\n"
	"  --quality Q         draft (a point light, no anti-aliasing; default) or final (soft\n"
	"                      shadows from an area light, anti-aliasing, bump finishes)\n"
	"  --frames A:B        output frames A to B-1 at --fps (either may be left out: 10:, :50)\n"
	"  --camera NAME       a camera from the scene's \"cameras\" (default: its first camera, or an\n"
	"                      automatic view framing the whole motion)\n"
	"  --stereo S          anaglyph (red/cyan, colour), red-green (AERO's glasses) or\n"
	"                      side-by-side (left eye on the left, twice as wide)\n"
	"  --eye-separation M  distance between the eyes in metres (default: a thirtieth of the\n"
	"                      camera's distance to what it looks at)\n"
	"  --jobs N            POV-Ray processes at once (default: three per core, as each idles\n"
	"                      while it starts and stops)\n"
	"  --keep-pov          keep the POV-Ray scene files (in the folder, or beside the video in\n"
	"                      OUT-pov/)\n"
	"  --quiet             no progress bar and no summary\n"
	"  -h, --help          show this help\n"
	"\n"
	"exit status: 0 ok, 1 rendering or encoding failed, 2 bad input or option, 130 interrupted.\n"
	"\n"
	"examples:\n"
	"  cairn render scenes/bouncing_balls.json -o balls.mp4\n"
	"  cairn render run.cnrec -o frames --size 1280x720 --quality final --frames 0:60\n"
	"  cairn render scenes/bouncing_balls.json -o balls-3d.mp4 --stereo anaglyph\n";

// Parses "WxH".
static bool cliParseSize( const char* text, int* width, int* height )
{
	char* end = NULL;
	long w = strtol( text, &end, 10 );
	if ( end == text || ( *end != 'x' && *end != 'X' ) )
	{
		cliError( "--size %s: expected WIDTHxHEIGHT, e.g. 640x480", text );
		return false;
	}
	const char* rest = end + 1;
	long h = strtol( rest, &end, 10 );
	if ( end == rest || *end != 0 || w < 16 || h < 16 || w > 8192 || h > 8192 )
	{
		cliError( "--size %s: expected WIDTHxHEIGHT with each in [16, 8192], e.g. 640x480", text );
		return false;
	}
	*width = (int)w;
	*height = (int)h;
	return true;
}

// Parses "A:B", "A:", ":B" into [first, end) (end -1: to the end).
static bool cliParseFrames( const char* text, int* first, int* end )
{
	const char* colon = strchr( text, ':' );
	if ( colon == NULL )
	{
		cliError( "--frames %s: expected A:B (output frames A to B-1), A: or :B", text );
		return false;
	}
	*first = 0;
	*end = -1;
	char* stop = NULL;
	if ( colon != text )
	{
		long a = strtol( text, &stop, 10 );
		if ( stop != colon || a < 0 || a > 100000000 )
		{
			cliError( "--frames %s: A must be a frame number >= 0", text );
			return false;
		}
		*first = (int)a;
	}
	if ( colon[1] != 0 )
	{
		long b = strtol( colon + 1, &stop, 10 );
		if ( *stop != 0 || b <= *first || b > 100000000 )
		{
			cliError( "--frames %s: B must be a frame number above A", text );
			return false;
		}
		*end = (int)b;
	}
	return true;
}

// Prints the error of an unknown --camera with the names the scene has.
static void cliUnknownCamera( const cnScene* scene, const char* name )
{
	if ( scene->cameraCount == 0 )
	{
		cliError( "--camera %s: %s has no \"cameras\"", name, scene->path );
		return;
	}
	char names[1024] = "";
	size_t used = 0;
	for ( int i = 0; i < scene->cameraCount && used < sizeof( names ); ++i )
	{
		int n = snprintf( names + used, sizeof( names ) - used, "%s%s", i > 0 ? ", " : "", scene->cameras[i].name );
		used += n > 0 ? (size_t)n : 0;
	}
	cliError( "--camera %s: %s has no such camera (it has: %s)", name, scene->path, names );
}

cnRecording* cliLoadRecordingInput( const char* path, double fps, bool quiet, const char* cameraName, const char* verb,
									cnScene** scene, const cnCameraDef** camera, int* status )
{
	*scene = NULL;
	*camera = NULL;
	if ( cnIsRecordingFile( path ) )
	{
		if ( cameraName != NULL )
		{
			cliError( "--camera %s: %s is a recording, which has no cameras; %s its scene instead", cameraName, path,
					  verb );
			*status = CLI_BAD_INPUT;
			return NULL;
		}
		cnRecording* recording = cnLoadRecording( path );
		if ( recording == NULL )
		{
			cliError( "%s", cnGetError() );
			*status = CLI_BAD_INPUT;
		}
		return recording;
	}
	*scene = cliLoadScene( path, NULL );
	if ( *scene == NULL )
	{
		*status = CLI_BAD_INPUT;
		return NULL;
	}
	// the camera is checked before a long simulation, not after
	*camera = cnScene_FindCamera( *scene, cameraName );
	if ( cameraName != NULL && *camera == NULL )
	{
		cliUnknownCamera( *scene, cameraName );
		*status = CLI_BAD_INPUT;
		return NULL;
	}
	cnRecording* recording = NULL;
	cliRunConfig cfg = { 0 };
	cfg.duration = ( *scene )->duration;
	cfg.fps = fps > 0.0 ? fps : ( *scene )->fps;
	cfg.memoryRecording = &recording;
	cfg.quiet = quiet;
	cnRunResult result;
	*status = cliSimulate( *scene, &cfg, &result );
	return recording;
}

int cliRenderMain( int argc, char** argv )
{
	const char* out = NULL;
	const char* size = NULL;
	const char* fpsText = NULL;
	const char* quality = NULL;
	const char* frames = NULL;
	const char* cameraName = NULL;
	const char* stereo = NULL;
	const char* separation = NULL;
	const char* jobsText = NULL;
	bool keepPov = false, quiet = false;
	const cliOption options[] = {
		{ "-o", &out, NULL },
		{ "--size", &size, NULL },
		{ "--fps", &fpsText, NULL },
		{ "--quality", &quality, NULL },
		{ "--frames", &frames, NULL },
		{ "--camera", &cameraName, NULL },
		{ "--stereo", &stereo, NULL },
		{ "--eye-separation", &separation, NULL },
		{ "--jobs", &jobsText, NULL },
		{ "--keep-pov", NULL, &keepPov },
		{ "--quiet", NULL, &quiet },
	};
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, options, (int)( sizeof( options ) / sizeof( options[0] ) ), positional, 1,
						   &positionalCount, cliRenderHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( positionalCount != 1 || out == NULL || out[0] == 0 )
	{
		cliError( positionalCount != 1 ? "render needs a scene or recording (see 'cairn render --help')"
									   : "render needs -o OUT: a folder, .mp4, .gif or .webm" );
		return CLI_BAD_INPUT;
	}

	cliRenderConfig cfg;
	memset( &cfg, 0, sizeof( cfg ) );
	cfg.outPath = out;
	cfg.endFrame = -1;
	cfg.pov = cnDefaultPovOptions();
	cfg.keepPov = keepPov;
	cfg.quiet = quiet;
	double fps = 0.0;
	long long jobs = 0;
	if ( cliOutputKindFromPath( out, &cfg.kind ) == false ||
		 ( size != NULL && cliParseSize( size, &cfg.pov.width, &cfg.pov.height ) == false ) ||
		 ( fpsText != NULL && cliParseDouble( "--fps", fpsText, 0.0, false, &fps ) == false ) ||
		 ( frames != NULL && cliParseFrames( frames, &cfg.firstFrame, &cfg.endFrame ) == false ) ||
		 ( separation != NULL && cliParseDouble( "--eye-separation", separation, 0.0, false, &cfg.eyeSeparation ) == false ) ||
		 ( jobsText != NULL && cliParseInt( "--jobs", jobsText, 1, 256, &jobs ) == false ) )
	{
		return CLI_BAD_INPUT;
	}
	cfg.jobs = (int)jobs;
	if ( fps > 1000.0 )
	{
		cliError( "--fps %s: at most 1000 frames per second", fpsText );
		return CLI_BAD_INPUT;
	}
	if ( quality != NULL && strcmp( quality, "draft" ) != 0 && strcmp( quality, "final" ) != 0 )
	{
		cliError( "--quality %s: expected draft or final", quality );
		return CLI_BAD_INPUT;
	}
	cfg.pov.final = quality != NULL && strcmp( quality, "final" ) == 0;
	if ( stereo != NULL )
	{
		static const char* const names[] = { "anaglyph", "red-green", "side-by-side" };
		static const cliStereo kinds[] = { cliStereo_anaglyph, cliStereo_redGreen, cliStereo_sideBySide };
		for ( int i = 0; i < 3; ++i )
		{
			cfg.stereo = strcmp( stereo, names[i] ) == 0 ? kinds[i] : cfg.stereo;
		}
		if ( cfg.stereo == cliStereo_none )
		{
			cliError( "--stereo %s: expected anaglyph, red-green or side-by-side", stereo );
			return CLI_BAD_INPUT;
		}
	}
	bool video = cfg.kind == cliOutput_mp4 || cfg.kind == cliOutput_webm;
	int outWidth = cfg.stereo == cliStereo_sideBySide ? 2 * cfg.pov.width : cfg.pov.width;
	if ( video && ( outWidth % 2 != 0 || cfg.pov.height % 2 != 0 ) )
	{
		cliError( "--size %dx%d: a video needs an even width and height", cfg.pov.width, cfg.pov.height );
		return CLI_BAD_INPUT;
	}
	// the helpers are checked before any work, so a missing one costs nothing
	if ( cliHasProgram( "povray" ) == false )
	{
		cliError( "render needs POV-Ray, which is not installed: apt-get install povray" );
		return CLI_FAILURE;
	}
	if ( cfg.kind != cliOutput_folder && cliHasProgram( "ffmpeg" ) == false )
	{
		cliError( "%s needs FFmpeg, which is not installed: apt-get install ffmpeg (or render to a folder of PNG "
				  "frames)",
				  out );
		return CLI_FAILURE;
	}

	cnScene* scene = NULL;
	status = CLI_OK;
	double loadStart = cliNow();
	cnRecording* recording =
		cliLoadRecordingInput( positional[0], fps, quiet, cameraName, "render", &scene, &cfg.camera, &status );
	double loadSeconds = cliNow() - loadStart;
	if ( recording == NULL )
	{
		cnDestroyScene( scene );
		return status != CLI_OK ? status : CLI_FAILURE;
	}
	cfg.fps = fps > 0.0 ? fps : cnRecording_GetFps( recording );
	char* folder = cliFolderOf( positional[0] );
	cfg.pov.textureDir = folder;

	cliRenderResult result;
	status = cliRender( recording, &cfg, &result );
	if ( status == CLI_OK && quiet == false )
	{
		printf( "rendered %d frames of %dx%d (%s%s%s) in %.1f s: %.2f s per frame; wrote %s\n", result.frameCount,
				outWidth, cfg.pov.height, cfg.pov.final ? "final" : "draft", stereo != NULL ? ", stereo " : "",
				stereo != NULL ? stereo : "", result.wallSeconds,
				result.frameCount > 0 ? result.wallSeconds / result.frameCount : 0.0, out );
		// where the time went: Cairn's part (simulating, writing .pov files) against the helpers'
		printf( "time: simulation or loading %.3f s, writing .pov files %.3f s (Cairn); POV-Ray %.1f s; FFmpeg %.1f s\n",
				loadSeconds, result.writeSeconds, result.wallSeconds - result.writeSeconds - result.encodeSeconds,
				result.encodeSeconds );
	}
	free( folder );
	cnDestroyRecording( recording );
	cnDestroyScene( scene );
	return status;
}
