// SPDX-License-Identifier: MIT
// Option parsing, error printing, the clock, directories and scene loading for the cairn tool.
#define _POSIX_C_SOURCE 200809L

#include "cli.h"

#include "cairn/fosssim.h"


#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void cliError( const char* format, ... )
{
	va_list args;
	va_start( args, format );
	fputs( "cairn: error: ", stderr );
	vfprintf( stderr, format, args );
	fputc( '\n', stderr );
	va_end( args );
}

static const cliOption* cliFindOption( const cliOption* options, int count, const char* name, size_t length )
{
	for ( int i = 0; i < count; ++i )
	{
		if ( strlen( options[i].name ) == length && strncmp( options[i].name, name, length ) == 0 )
		{
			return options + i;
		}
	}
	return NULL;
}

int cliParse( int argc, char** argv, const cliOption* options, int optionCount, const char** positional,
			  int maxPositional, int* positionalCount, const char* help )
{
	*positionalCount = 0;
	bool onlyPositional = false;
	for ( int i = 1; i < argc; ++i )
	{
		const char* arg = argv[i];
		if ( onlyPositional == false && ( strcmp( arg, "--help" ) == 0 || strcmp( arg, "-h" ) == 0 ) )
		{
			fputs( help, stdout );
			return CLI_OK;
		}
		if ( onlyPositional == false && strcmp( arg, "--" ) == 0 )
		{
			onlyPositional = true;
			continue;
		}
		// a lone "-" is a positional argument, as is anything after "--"
		if ( onlyPositional || arg[0] != '-' || arg[1] == 0 )
		{
			if ( *positionalCount >= maxPositional )
			{
				cliError( "cairn %s: unexpected argument '%s' (see 'cairn %s --help')", argv[0], arg, argv[0] );
				return CLI_BAD_INPUT;
			}
			positional[( *positionalCount )++] = arg;
			continue;
		}

		const char* equals = strchr( arg, '=' );
		size_t length = equals != NULL ? (size_t)( equals - arg ) : strlen( arg );
		const cliOption* option = cliFindOption( options, optionCount, arg, length );
		if ( option == NULL )
		{
			cliError( "cairn %s: unknown option '%.*s' (see 'cairn %s --help')", argv[0], (int)length, arg, argv[0] );
			return CLI_BAD_INPUT;
		}
		if ( option->flag != NULL )
		{
			if ( equals != NULL )
			{
				cliError( "cairn %s: option %s takes no value", argv[0], option->name );
				return CLI_BAD_INPUT;
			}
			*option->flag = true;
			continue;
		}
		if ( equals != NULL )
		{
			*option->value = equals + 1;
		}
		else if ( i + 1 < argc )
		{
			*option->value = argv[++i];
		}
		else
		{
			cliError( "cairn %s: option %s needs a value", argv[0], option->name );
			return CLI_BAD_INPUT;
		}
	}
	return -1;
}

bool cliParseDouble( const char* option, const char* text, double min, bool minInclusive, double* out )
{
	char* end = NULL;
	errno = 0;
	double v = strtod( text, &end );
	bool ok = end != text && *end == 0 && errno == 0 && isfinite( v ) && ( minInclusive ? v >= min : v > min );
	if ( ok == false )
	{
		cliError( "%s: '%s' is not a number %s %g", option, text, minInclusive ? ">=" : ">", min );
		return false;
	}
	*out = v;
	return true;
}

bool cliParseInt( const char* option, const char* text, long long min, long long max, long long* out )
{
	char* end = NULL;
	errno = 0;
	long long v = strtoll( text, &end, 10 );
	if ( end == text || *end != 0 || errno != 0 || v < min || v > max )
	{
		cliError( "%s: '%s' is not a whole number in [%lld, %lld]", option, text, min, max );
		return false;
	}
	*out = v;
	return true;
}

double cliNow( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

bool cliMakeDirectories( const char* path )
{
	size_t length = strlen( path );
	char* copy = malloc( length + 1 );
	if ( copy == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	memcpy( copy, path, length + 1 );
	// create every prefix that ends before a '/', then the whole path
	for ( size_t i = 1; i <= length; ++i )
	{
		if ( copy[i] != '/' && copy[i] != 0 )
		{
			continue;
		}
		char saved = copy[i];
		copy[i] = 0;
		if ( mkdir( copy, 0777 ) != 0 && errno != EEXIST )
		{
			cliError( "%s: cannot create directory: %s", copy, strerror( errno ) );
			free( copy );
			return false;
		}
		copy[i] = saved;
	}
	free( copy );
	struct stat info;
	if ( stat( path, &info ) != 0 || S_ISDIR( info.st_mode ) == 0 )
	{
		cliError( "%s: not a directory", path );
		return false;
	}
	return true;
}

void cliPrintWarnings( const cnScene* scene )
{
	// a command that loads a scene more than once (compare: once per method, run with
	// --dump-contact-system) says each thing once: the hashes of the lines printed so far
	enum
	{
		cliMaxPrinted = 256
	};
	static uint64_t printed[cliMaxPrinted];
	static int printedCount = 0;
	for ( int i = 0; scene != NULL && i < scene->warningCount; ++i )
	{
		// FNV-1a
		uint64_t h = 14695981039346656037ull;
		for ( const char* c = scene->warnings[i]; *c != 0; ++c )
		{
			h = ( h ^ (uint8_t)*c ) * 1099511628211ull;
		}
		bool seen = false;
		for ( int k = 0; k < printedCount && seen == false; ++k )
		{
			seen = printed[k] == h;
		}
		if ( seen )
		{
			continue;
		}
		if ( printedCount < cliMaxPrinted )
		{
			printed[printedCount++] = h;
		}
		fprintf( stderr, "cairn: warning: %s\n", scene->warnings[i] );
	}
}

// Parses a method override; false (with a message) when it names no method.
static bool cliParseMethod( const char* method, cnMethod* wanted )
{
	if ( cnMethod_FromName( method, wanted ) == false )
	{
		cliError( "--method: unknown contact method '%s' (known: %s)", method, cnMethod_GetNameList() );
		return false;
	}
	return true;
}

cnScene* cliLoadRunScene( const char* path, const char* method, cnFosssimScene** fosssim )
{
	*fosssim = NULL;
	bool replace = method != NULL && method[0] != 0;
	cnMethod wanted = cnMethod_impulse;
	if ( replace && cliParseMethod( method, &wanted ) == false )
	{
		return NULL;
	}
	if ( cnIsFosssimPath( path ) )
	{
		// FOSSSim scenes (.xml): the loader takes the method directly
		cnFosssimScene* f = replace ? cnLoadFosssimWithMethod( path, wanted ) : cnLoadFosssim( path );
		if ( f == NULL )
		{
			cliError( "%s", cnGetError() );
			return NULL;
		}
		*fosssim = f;
		cliPrintWarnings( f->scene );
		return f->scene;
	}
	// a world's method is fixed at creation: the loader replaces the file's (still checking it)
	cnScene* scene = replace ? cnLoadSceneWithMethod( path, wanted ) : cnLoadScene( path );
	if ( scene == NULL )
	{
		cliError( "%s", cnGetError() );
	}
	cliPrintWarnings( scene );
	return scene;
}

void cliDestroyRunScene( cnScene* scene, cnFosssimScene* fosssim )
{
	if ( fosssim != NULL )
	{
		cnDestroyFosssim( fosssim );
	}
	else
	{
		cnDestroyScene( scene );
	}
}

cnScene* cliLoadScene( const char* path, const char* method )
{
	cnFosssimScene* f = NULL;
	cnScene* scene = cliLoadRunScene( path, method, &f );
	if ( f == NULL )
	{
		return scene;
	}
	// springs and wind need a per-step call that only `cairn run` makes
	if ( cnFosssim_HasForceElements( f ) )
	{
		cliError( "%s: has spring or wind forces, which only 'cairn run' applies", path );
		cnDestroyFosssim( f );
		return NULL;
	}
	return cnFosssim_ReleaseScene( f );
}

char* cliFolderOf( const char* path )
{
	const char* slash = strrchr( path, '/' );
	if ( slash == NULL )
	{
		return NULL;
	}
	// "/x" is in "/", not in ""
	size_t n = slash == path ? 1 : (size_t)( slash - path );
	char* folder = malloc( n + 1 );
	if ( folder != NULL )
	{
		memcpy( folder, path, n );
		folder[n] = 0;
	}
	return folder;
}
