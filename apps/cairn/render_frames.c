// SPDX-License-Identifier: MIT
// Rendering a recording (render_frames.h): a .pov file per frame (libcairn_io's cnWritePovFrame),
// POV-Ray processes on every core, stereo eyes composed per pixel, FFmpeg for videos. The work
// happens in a hidden folder beside the output that becomes the output (or is removed) at the end.
#define _POSIX_C_SOURCE 200809L

#include "render_frames.h"

#include "png_image.h"
#include "processes.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// paths and folders

bool cliOutputKindFromPath( const char* path, cliOutputKind* kind )
{
	const char* slash = strrchr( path, '/' );
	const char* name = slash != NULL ? slash + 1 : path;
	const char* dot = strrchr( name, '.' );
	*kind = cliOutput_folder;
	if ( dot == NULL || dot == name )
	{
		return true;
	}
	if ( strcmp( dot, ".mp4" ) == 0 )
	{
		*kind = cliOutput_mp4;
	}
	else if ( strcmp( dot, ".gif" ) == 0 )
	{
		*kind = cliOutput_gif;
	}
	else if ( strcmp( dot, ".webm" ) == 0 )
	{
		*kind = cliOutput_webm;
	}
	else
	{
		static const char* const videoLike[] = { ".avi", ".mov", ".mkv", ".mpg", ".mpeg", ".png", ".jpg", ".ogv" };
		for ( size_t i = 0; i < sizeof( videoLike ) / sizeof( videoLike[0] ); ++i )
		{
			if ( strcmp( dot, videoLike[i] ) == 0 )
			{
				cliError( "-o %s: cannot write %s; write a folder of PNG frames (a name without an extension), "
						  ".mp4, .gif or .webm",
						  path, dot );
				return false;
			}
		}
	}
	return true;
}

// "folder/name" into a new string (the caller frees it).
static char* cliPathJoin( const char* folder, const char* name )
{
	size_t a = strlen( folder ), b = strlen( name );
	char* path = malloc( a + b + 2 );
	if ( path != NULL )
	{
		memcpy( path, folder, a );
		path[a] = '/';
		memcpy( path + a + 1, name, b + 1 );
	}
	return path;
}

// The folder a path is in ("." for a bare name); the caller frees it.
static char* cliParentFolder( const char* path )
{
	char* folder = cliFolderOf( path );
	if ( folder == NULL && strchr( path, '/' ) == NULL )
	{
		folder = malloc( 2 );
		if ( folder != NULL )
		{
			strcpy( folder, "." );
		}
	}
	return folder;
}

// Removes a folder's files and then the folder (it holds no sub-folders).
static void cliRemoveFolder( const char* folder )
{
	DIR* dir = opendir( folder );
	if ( dir != NULL )
	{
		struct dirent* entry;
		while ( ( entry = readdir( dir ) ) != NULL )
		{
			if ( strcmp( entry->d_name, "." ) == 0 || strcmp( entry->d_name, ".." ) == 0 )
			{
				continue;
			}
			char* path = cliPathJoin( folder, entry->d_name );
			if ( path != NULL )
			{
				unlink( path );
				free( path );
			}
		}
		closedir( dir );
	}
	rmdir( folder );
}

// Whether a name ends with suffix.
static bool cliEndsWith( const char* name, const char* suffix )
{
	size_t a = strlen( name ), b = strlen( suffix );
	return a >= b && strcmp( name + a - b, suffix ) == 0;
}

// Moves the files of folder whose names start with prefix and end with suffix into target (same
// file system: renames). False after an error.
static bool cliMoveFiles( const char* folder, const char* prefix, const char* suffix, const char* target )
{
	DIR* dir = opendir( folder );
	if ( dir == NULL )
	{
		cliError( "%s: cannot read the folder: %s", folder, strerror( errno ) );
		return false;
	}
	bool ok = true;
	struct dirent* entry;
	while ( ok && ( entry = readdir( dir ) ) != NULL )
	{
		if ( strncmp( entry->d_name, prefix, strlen( prefix ) ) != 0 || cliEndsWith( entry->d_name, suffix ) == false )
		{
			continue;
		}
		char* from = cliPathJoin( folder, entry->d_name );
		char* to = cliPathJoin( target, entry->d_name );
		if ( from == NULL || to == NULL || rename( from, to ) != 0 )
		{
			cliError( "%s: cannot move it into %s: %s", entry->d_name, target, strerror( errno ) );
			ok = false;
		}
		free( from );
		free( to );
	}
	closedir( dir );
	return ok;
}

// Copies a file into place through a temporary name, so the copy appears only complete.
static bool cliCopyFile( const char* from, const char* to )
{
	size_t length = strlen( to );
	char* temporary = malloc( length + 5 );
	if ( temporary == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	memcpy( temporary, to, length );
	memcpy( temporary + length, ".tmp", 5 );
	FILE* in = fopen( from, "rb" );
	FILE* out = in != NULL ? fopen( temporary, "wb" ) : NULL;
	bool ok = in != NULL && out != NULL;
	char buffer[1 << 16];
	size_t n;
	while ( ok && ( n = fread( buffer, 1, sizeof( buffer ), in ) ) > 0 )
	{
		ok = fwrite( buffer, 1, n, out ) == n;
	}
	ok = ok && ferror( in ) == 0;
	if ( out != NULL && fclose( out ) != 0 )
	{
		ok = false;
	}
	if ( in != NULL )
	{
		fclose( in );
	}
	ok = ok && rename( temporary, to ) == 0;
	if ( ok == false )
	{
		cliError( "%s: cannot write: %s", to, strerror( errno ) );
		unlink( temporary );
	}
	free( temporary );
	return ok;
}

// Prints the last lines of a helper program's log on stderr, indented.
static void cliPrintLogTail( const char* logPath, int lines )
{
	FILE* log = fopen( logPath, "rb" );
	if ( log == NULL )
	{
		return;
	}
	char tail[4096];
	fseek( log, 0, SEEK_END );
	long size = ftell( log );
	long start = size > (long)sizeof( tail ) - 1 ? size - (long)sizeof( tail ) + 1 : 0;
	fseek( log, start, SEEK_SET );
	size_t n = fread( tail, 1, sizeof( tail ) - 1, log );
	fclose( log );
	tail[n] = 0;
	// the start of the last few lines
	const char* from = tail + n;
	int seen = 0;
	while ( from > tail && seen <= lines )
	{
		from -= 1;
		seen += *from == '\n';
	}
	for ( const char* line = from; *line != 0; )
	{
		const char* end = strchr( line, '\n' );
		int length = end != NULL ? (int)( end - line ) : (int)strlen( line );
		if ( length > 0 )
		{
			fprintf( stderr, "  | %.*s\n", length, line );
		}
		line = end != NULL ? end + 1 : line + length;
	}
}

// ---------------------------------------------------------------------------------------------
// frames

// The recording's frame nearest to time t (frame times increase).
static int cliFrameAt( const cnRecording* recording, double t )
{
	int lo = 0, hi = cnRecording_GetFrameCount( recording ) - 1;
	while ( lo < hi )
	{
		int mid = ( lo + hi ) / 2;
		if ( cnRecording_GetFrameTime( recording, mid ) < t )
		{
			lo = mid + 1;
		}
		else
		{
			hi = mid;
		}
	}
	if ( lo > 0 && t - cnRecording_GetFrameTime( recording, lo - 1 ) <= cnRecording_GetFrameTime( recording, lo ) - t )
	{
		return lo - 1;
	}
	return lo;
}

// The number of output frames at fps over the recording's span.
static int cliOutputFrameCount( const cnRecording* recording, double fps )
{
	int frames = cnRecording_GetFrameCount( recording );
	if ( frames < 1 )
	{
		return 0;
	}
	double span = cnRecording_GetFrameTime( recording, frames - 1 ) - cnRecording_GetFrameTime( recording, 0 );
	return (int)floor( span * fps + 1e-6 ) + 1;
}

// One POV-Ray process: the output frame and eye it renders (0: mono, -1 left, +1 right).
typedef struct cliJob
{
	pid_t pid;
	int frame;
	int eye;
} cliJob;

// The file name of a frame's picture, .pov or log: "frame_00012" + eye + extension.
static void cliFrameName( char* name, size_t size, int frame, int eye, const char* extension )
{
	snprintf( name, size, "frame_%05d%s%s", frame, eye < 0 ? "_left" : ( eye > 0 ? "_right" : "" ), extension );
}

// Writes the .pov file of an output frame's eye into the work folder.
static bool cliWritePov( const char* work, const cnRecording* recording, int recordedFrame, int frame, int eye,
						 const cnView* view, const cnPovOptions* pov )
{
	char name[64];
	cliFrameName( name, sizeof( name ), frame, eye, ".pov" );
	char* path = cliPathJoin( work, name );
	FILE* out = path != NULL ? fopen( path, "w" ) : NULL;
	if ( out == NULL )
	{
		cliError( "%s: cannot write: %s", path != NULL ? path : name, strerror( errno ) );
		free( path );
		return false;
	}
	bool ok = cnWritePovFrame( out, recording, recordedFrame, view, pov );
	if ( ok == false )
	{
		cliError( "frame %d: %s", frame, cnGetError() );
	}
	if ( fclose( out ) != 0 && ok )
	{
		cliError( "%s: cannot write: %s", path, strerror( errno ) );
		ok = false;
	}
	free( path );
	return ok;
}

// Starts POV-Ray on a written .pov file, in the work folder (POV-Ray writes only where it runs).
static pid_t cliStartPovRay( const char* work, int frame, int eye, const cnPovOptions* pov )
{
	char input[64], output[64], log[64], width[32], height[32];
	cliFrameName( input, sizeof( input ), frame, eye, ".pov" );
	cliFrameName( output, sizeof( output ), frame, eye, ".png" );
	cliFrameName( log, sizeof( log ), frame, eye, ".log" );
	char inputArg[80], outputArg[80];
	snprintf( inputArg, sizeof( inputArg ), "+I%s", input );
	snprintf( outputArg, sizeof( outputArg ), "+O%s", output );
	snprintf( width, sizeof( width ), "+W%d", pov->width );
	snprintf( height, sizeof( height ), "+H%d", pov->height );
	// one thread each: the frames themselves run in parallel, which scales better than threads
	// inside a frame; final quality adds anti-aliasing (adaptive, depth 2)
	const char* draft[] = { "povray", inputArg, outputArg, width, height, "+FN8", "-D", "-P", "+WT1", "+Q9", "-A", NULL };
	const char* final[] = { "povray", inputArg, outputArg, width,  height, "+FN8",	"-D", "-P",
							"+WT1",	  "+Q9",	"+A0.1",   "+AM2", "+R2",  NULL };
	char* logPath = cliPathJoin( work, log );
	pid_t pid = cliStartProgram( pov->final ? final : draft, work, logPath );
	free( logPath );
	return pid;
}

// Composes a stereo frame from its two eyes' pictures and removes them.
static bool cliComposeStereo( const char* work, int frame, cliStereo stereo )
{
	char name[64];
	cliImage eyes[2];
	memset( eyes, 0, sizeof( eyes ) );
	bool ok = true;
	for ( int e = 0; e < 2 && ok; ++e )
	{
		cliFrameName( name, sizeof( name ), frame, e == 0 ? -1 : 1, ".png" );
		char* path = cliPathJoin( work, name );
		ok = path != NULL && cliReadPng( path, eyes + e );
		if ( path != NULL )
		{
			unlink( path );
		}
		free( path );
	}
	if ( ok == false || eyes[0].width != eyes[1].width || eyes[0].height != eyes[1].height )
	{
		cliFreeImage( eyes );
		cliFreeImage( eyes + 1 );
		return false;
	}
	int w = eyes[0].width, h = eyes[0].height;
	cliImage out = { stereo == cliStereo_sideBySide ? 2 * w : w, h, NULL };
	out.pixels = malloc( (size_t)out.width * (size_t)h * 3 );
	if ( out.pixels == NULL )
	{
		cliError( "out of memory composing frame %d", frame );
		ok = false;
	}
	for ( int y = 0; ok && y < h; ++y )
	{
		for ( int x = 0; x < w; ++x )
		{
			const uint8_t* l = eyes[0].pixels + 3 * ( (size_t)y * w + x );
			const uint8_t* r = eyes[1].pixels + 3 * ( (size_t)y * w + x );
			uint8_t* o = out.pixels + 3 * ( (size_t)y * out.width + x );
			switch ( stereo )
			{
				case cliStereo_anaglyph:
					// red/cyan colour anaglyph: each eye's filter passes its own channels
					o[0] = l[0];
					o[1] = r[1];
					o[2] = r[2];
					break;
				case cliStereo_redGreen:
				{
					// AERO's red/green glasses: brightness only (Rec. 601 luma)
					double yl = 0.299 * l[0] + 0.587 * l[1] + 0.114 * l[2];
					double yr = 0.299 * r[0] + 0.587 * r[1] + 0.114 * r[2];
					o[0] = (uint8_t)( yl + 0.5 );
					o[1] = (uint8_t)( yr + 0.5 );
					o[2] = 0;
					break;
				}
				default:
					memcpy( o, l, 3 );
					memcpy( o + 3 * w, r, 3 );
					break;
			}
		}
	}
	if ( ok )
	{
		cliFrameName( name, sizeof( name ), frame, 0, ".png" );
		char* path = cliPathJoin( work, name );
		ok = path != NULL && cliWritePng( path, &out );
		free( path );
	}
	cliFreeImage( &out );
	cliFreeImage( eyes );
	cliFreeImage( eyes + 1 );
	return ok;
}

// The progress line of a render: frames done, their rate and the time left.
static void cliDrawRenderProgress( cliProgress* progress, int done, int total, double seconds )
{
	if ( progress->enabled == false || total <= 0 )
	{
		return;
	}
	enum
	{
		barWidth = 24
	};
	char bar[barWidth + 1];
	int filled = (int)( (double)done / total * barWidth );
	for ( int i = 0; i < barWidth; ++i )
	{
		bar[i] = i < filled ? '#' : '-';
	}
	bar[barWidth] = 0;
	double rate = seconds > 0.0 ? done / seconds : 0.0;
	long left = rate > 0.0 ? (long)( ( total - done ) / rate + 0.5 ) : 0;
	int width = fprintf( stderr, "\r%s: [%s] %d/%d frames  %.2f frames/s  %ld:%02ld left  ", progress->label, bar, done,
						 total, rate, left / 60, left % 60 );
	progress->drawnWidth = width > progress->drawnWidth ? width : progress->drawnWidth;
	fflush( stderr );
}

// The view of an output frame's eye; false after an error.
static bool cliFrameView( const cliRenderConfig* cfg, const cnRecording* recording, int recordedFrame,
						  const cnView* autoView, int eye, cnView* view )
{
	if ( cfg->camera != NULL )
	{
		if ( cnCamera_GetView( cfg->camera, recording, recordedFrame, view ) == false )
		{
			cliError( "%s", cnGetError() );
			return false;
		}
	}
	else
	{
		*view = *autoView;
	}
	if ( eye != 0 )
	{
		double separation = cfg->eyeSeparation > 0.0 ? cfg->eyeSeparation
													  : cnDistance( view->position, view->lookAt ) / 30.0;
		*view = cnView_GetEye( *view, separation, eye );
	}
	return true;
}

// Renders every frame into the work folder: .pov files written just before their POV-Ray starts, at
// most jobs processes at a time, stereo frames composed once both eyes are done.
static int cliRenderFrames( const cnRecording* recording, const cliRenderConfig* cfg, const char* work, int first,
							int end, cliRenderResult* result )
{
	// POV-Ray idles some 0.6 s per frame in its start-up and shutdown, so three processes per core
	// keep the cores busy
	int jobs = cfg->jobs > 0 ? cfg->jobs : 3 * (int)sysconf( _SC_NPROCESSORS_ONLN );
	jobs = jobs < 1 ? 1 : ( jobs > 256 ? 256 : jobs );
	int eyes = cfg->stereo == cliStereo_none ? 1 : 2;
	cliJob* running = calloc( (size_t)jobs, sizeof( cliJob ) );
	// how many eyes of each frame are done
	unsigned char* eyesDone = calloc( (size_t)( end - first ) + 1, 1 );
	if ( running == NULL || eyesDone == NULL )
	{
		free( running );
		free( eyesDone );
		cliError( "out of memory" );
		return CLI_FAILURE;
	}
	cnView autoView = cnRecording_GetAutoView( recording, (double)cfg->pov.width / cfg->pov.height );
	double t0 = cnRecording_GetFrameTime( recording, 0 );
	cliProgress progress = { cfg->quiet == false && isatty( fileno( stderr ) ), "render", 0 };
	double start = cliNow();
	int status = CLI_OK;
	int next = 0, total = ( end - first ) * eyes, framesDone = 0, active = 0;
	while ( status == CLI_OK && ( next < total || active > 0 ) )
	{
		// fill every free slot
		while ( status == CLI_OK && next < total && active < jobs )
		{
			int frame = first + next / eyes;
			int eye = eyes == 1 ? 0 : ( next % 2 == 0 ? -1 : 1 );
			int recorded = cliFrameAt( recording, t0 + frame / cfg->fps );
			cnView view;
			double before = cliNow();
			bool written = cliFrameView( cfg, recording, recorded, &autoView, eye, &view ) &&
						   cliWritePov( work, recording, recorded, frame, eye, &view, &cfg->pov );
			result->writeSeconds += cliNow() - before;
			pid_t pid = written ? cliStartPovRay( work, frame, eye, &cfg->pov ) : -1;
			if ( pid < 0 )
			{
				status = CLI_FAILURE;
				break;
			}
			for ( int j = 0; j < jobs; ++j )
			{
				if ( running[j].pid == 0 )
				{
					running[j] = ( cliJob ){ pid, frame, eye };
					break;
				}
			}
			active += 1;
			next += 1;
		}
		if ( status != CLI_OK || active == 0 )
		{
			break;
		}
		bool ok = false;
		pid_t pid = cliWaitProgram( &ok );
		if ( cliInterrupted() )
		{
			status = CLI_INTERRUPTED;
			break;
		}
		if ( pid < 0 )
		{
			continue;
		}
		int slot = 0;
		while ( slot < jobs && running[slot].pid != pid )
		{
			slot += 1;
		}
		if ( slot == jobs )
		{
			continue;
		}
		cliJob job = running[slot];
		running[slot].pid = 0;
		active -= 1;
		if ( ok == false )
		{
			char log[64];
			cliFrameName( log, sizeof( log ), job.frame, job.eye, ".log" );
			char* logPath = cliPathJoin( work, log );
			cliEraseProgress( &progress );
			cliError( "POV-Ray failed on frame %d%s; the end of its output:", job.frame,
					  job.eye < 0 ? " (left eye)" : ( job.eye > 0 ? " (right eye)" : "" ) );
			if ( logPath != NULL )
			{
				cliPrintLogTail( logPath, 8 );
			}
			free( logPath );
			status = CLI_FAILURE;
			break;
		}
		int index = job.frame - first;
		eyesDone[index] += 1;
		if ( (int)eyesDone[index] == eyes )
		{
			if ( eyes == 2 && cliComposeStereo( work, job.frame, cfg->stereo ) == false )
			{
				status = CLI_FAILURE;
				break;
			}
			framesDone += 1;
			cliDrawRenderProgress( &progress, framesDone, end - first, cliNow() - start );
		}
	}
	// whatever still runs after a failure or Ctrl-C is stopped before the folder goes
	pid_t pids[256];
	int count = 0;
	for ( int j = 0; j < jobs; ++j )
	{
		if ( running[j].pid > 0 )
		{
			pids[count++] = running[j].pid;
		}
	}
	cliStopPrograms( pids, count );
	cliEraseProgress( &progress );
	result->frameCount = framesDone;
	free( running );
	free( eyesDone );
	return status;
}

// Encodes the work folder's frames into a video with FFmpeg, as work/video.EXT.
static int cliEncode( const cliRenderConfig* cfg, const char* work, int first, const char** videoName )
{
	char rate[32], start[32];
	snprintf( rate, sizeof( rate ), "%.9g", cfg->fps );
	snprintf( start, sizeof( start ), "%d", first );
	const char* common[] = { "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-framerate", rate,
							 "-start_number", start, "-i", "frame_%05d.png" };
	const char* args[40];
	int n = 0;
	for ( size_t i = 0; i < sizeof( common ) / sizeof( common[0] ); ++i )
	{
		args[n++] = common[i];
	}
	switch ( cfg->kind )
	{
		case cliOutput_mp4:
		{
			// H.264 in yuv420p plays everywhere; faststart lets browsers play before the end arrives
			const char* mp4[] = { "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20", "-preset", "medium",
								  "-movflags", "+faststart", "video.mp4" };
			memcpy( args + n, mp4, sizeof( mp4 ) );
			n += (int)( sizeof( mp4 ) / sizeof( mp4[0] ) );
			*videoName = "video.mp4";
			break;
		}
		case cliOutput_webm:
		{
			const char* webm[] = { "-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-crf", "32", "-b:v", "0",
								   "-deadline", "good", "-cpu-used", "4", "-row-mt", "1", "video.webm" };
			memcpy( args + n, webm, sizeof( webm ) );
			n += (int)( sizeof( webm ) / sizeof( webm[0] ) );
			*videoName = "video.webm";
			break;
		}
		default:
		{
			// one palette made for the whole animation keeps GIF colours steady from frame to frame
			const char* gif[] = { "-vf", "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer",
								  "-loop", "0", "video.gif" };
			memcpy( args + n, gif, sizeof( gif ) );
			n += (int)( sizeof( gif ) / sizeof( gif[0] ) );
			*videoName = "video.gif";
			break;
		}
	}
	args[n] = NULL;
	char* logPath = cliPathJoin( work, "ffmpeg.log" );
	bool interrupted = false;
	bool ok = logPath != NULL && cliRunProgram( args, work, logPath, &interrupted );
	if ( ok == false && interrupted == false )
	{
		cliError( "FFmpeg failed to encode %s; the end of its output:", cfg->outPath );
		if ( logPath != NULL )
		{
			cliPrintLogTail( logPath, 8 );
		}
	}
	free( logPath );
	return ok ? CLI_OK : ( interrupted ? CLI_INTERRUPTED : CLI_FAILURE );
}

// Moves what the work folder made into place: the frames as the output folder (or into an existing
// one, replacing its frames), or the video; the .pov files when kept; the poster.
static int cliPlaceOutputs( const cliRenderConfig* cfg, const char* work, const char* videoName, int first )
{
	char posterName[64];
	cliFrameName( posterName, sizeof( posterName ), cfg->posterFrame, 0, ".png" );
	char* posterFrom = cliPathJoin( work, posterName );
	if ( cfg->posterPath != NULL && ( posterFrom == NULL || cliCopyFile( posterFrom, cfg->posterPath ) == false ) )
	{
		free( posterFrom );
		return CLI_FAILURE;
	}
	free( posterFrom );
	(void)first;
	if ( cfg->kind != cliOutput_folder )
	{
		char* from = cliPathJoin( work, videoName );
		bool ok = from != NULL && rename( from, cfg->outPath ) == 0;
		if ( ok == false )
		{
			cliError( "%s: cannot write: %s", cfg->outPath, strerror( errno ) );
		}
		free( from );
		if ( ok && cfg->keepPov )
		{
			// beside the video: OUT without its extension, then "-pov"
			size_t length = strlen( cfg->outPath );
			const char* dot = strrchr( cfg->outPath, '.' );
			size_t stem = dot != NULL ? (size_t)( dot - cfg->outPath ) : length;
			char* folder = malloc( stem + 5 );
			ok = folder != NULL;
			if ( ok )
			{
				memcpy( folder, cfg->outPath, stem );
				memcpy( folder + stem, "-pov", 5 );
				ok = cliMakeDirectories( folder ) && cliMoveFiles( work, "frame_", ".pov", folder );
				if ( ok && cfg->quiet == false )
				{
					printf( "kept the POV-Ray scenes in %s/\n", folder );
				}
			}
			free( folder );
		}
		return ok ? CLI_OK : CLI_FAILURE;
	}
	struct stat info;
	if ( stat( cfg->outPath, &info ) != 0 )
	{
		// a new folder: the work folder becomes it, once its leftovers are gone
		DIR* dir = opendir( work );
		struct dirent* entry;
		while ( dir != NULL && ( entry = readdir( dir ) ) != NULL )
		{
			bool keep = cliEndsWith( entry->d_name, ".png" ) || ( cfg->keepPov && cliEndsWith( entry->d_name, ".pov" ) );
			if ( keep == false && entry->d_name[0] != '.' )
			{
				char* path = cliPathJoin( work, entry->d_name );
				if ( path != NULL )
				{
					unlink( path );
				}
				free( path );
			}
		}
		if ( dir != NULL )
		{
			closedir( dir );
		}
		chmod( work, 0755 );
		if ( rename( work, cfg->outPath ) != 0 )
		{
			cliError( "%s: cannot create: %s", cfg->outPath, strerror( errno ) );
			return CLI_FAILURE;
		}
		return CLI_OK;
	}
	// an existing folder: its old frames go, the new ones move in
	DIR* dir = opendir( cfg->outPath );
	struct dirent* entry;
	while ( dir != NULL && ( entry = readdir( dir ) ) != NULL )
	{
		if ( strncmp( entry->d_name, "frame_", 6 ) == 0 &&
			 ( cliEndsWith( entry->d_name, ".png" ) || cliEndsWith( entry->d_name, ".pov" ) ) )
		{
			char* path = cliPathJoin( cfg->outPath, entry->d_name );
			if ( path != NULL )
			{
				unlink( path );
			}
			free( path );
		}
	}
	if ( dir != NULL )
	{
		closedir( dir );
	}
	bool ok = cliMoveFiles( work, "frame_", ".png", cfg->outPath ) &&
			  ( cfg->keepPov == false || cliMoveFiles( work, "frame_", ".pov", cfg->outPath ) );
	return ok ? CLI_OK : CLI_FAILURE;
}

int cliRender( const cnRecording* recording, const cliRenderConfig* cfg, cliRenderResult* result )
{
	memset( result, 0, sizeof( *result ) );
	double start = cliNow();
	int total = cliOutputFrameCount( recording, cfg->fps );
	int first = cfg->firstFrame;
	int end = cfg->endFrame < 0 || cfg->endFrame > total ? total : cfg->endFrame;
	if ( total == 0 || first < 0 || first >= end )
	{
		cliError( "--frames %d:%d: the recording has output frames 0:%d at %.9g fps", cfg->firstFrame, cfg->endFrame,
				  total, cfg->fps );
		return CLI_BAD_INPUT;
	}
	if ( cfg->posterPath != NULL && ( cfg->posterFrame < first || cfg->posterFrame >= end ) )
	{
		cliError( "poster frame %d is not rendered (frames %d:%d)", cfg->posterFrame, first, end );
		return CLI_BAD_INPUT;
	}
	struct stat info;
	if ( cfg->kind == cliOutput_folder && stat( cfg->outPath, &info ) == 0 && S_ISDIR( info.st_mode ) == 0 )
	{
		cliError( "-o %s: exists and is not a folder (give a folder for PNG frames, or a .mp4, .gif or .webm file)",
				  cfg->outPath );
		return CLI_BAD_INPUT;
	}
	if ( cfg->kind != cliOutput_folder && stat( cfg->outPath, &info ) == 0 && S_ISDIR( info.st_mode ) )
	{
		cliError( "-o %s: is a folder", cfg->outPath );
		return CLI_BAD_INPUT;
	}

	// the work folder lies beside the output, so moving the results into place is a rename
	char* parent = cliParentFolder( cfg->outPath );
	char* work = parent != NULL ? cliPathJoin( parent, ".cairn-render-XXXXXX" ) : NULL;
	if ( parent == NULL || work == NULL || cliMakeDirectories( parent ) == false || mkdtemp( work ) == NULL )
	{
		if ( work != NULL && parent != NULL )
		{
			cliError( "%s: cannot create a work folder: %s", parent, strerror( errno ) );
		}
		free( parent );
		free( work );
		return CLI_FAILURE;
	}
	free( parent );

	cliCatchInterrupts( NULL );
	int status = cliRenderFrames( recording, cfg, work, first, end, result );
	const char* videoName = NULL;
	if ( status == CLI_OK && cfg->kind != cliOutput_folder )
	{
		double before = cliNow();
		status = cliEncode( cfg, work, first, &videoName );
		result->encodeSeconds = cliNow() - before;
	}
	if ( status == CLI_OK && cliInterrupted() )
	{
		status = CLI_INTERRUPTED;
	}
	if ( status == CLI_OK )
	{
		status = cliPlaceOutputs( cfg, work, videoName, first );
	}
	cliReleaseInterrupts();
	if ( status == CLI_INTERRUPTED )
	{
		cliError( "interrupted; no output written" );
	}
	// the work folder is gone unless it became the output
	if ( stat( work, &info ) == 0 )
	{
		cliRemoveFolder( work );
	}
	free( work );
	result->wallSeconds = cliNow() - start;
	return status;
}
