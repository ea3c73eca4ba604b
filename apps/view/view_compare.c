// SPDX-License-Identifier: MIT
// The runs of `cairn view --compare` (view_compare.h). Each method gets its own world, loaded as
// `cairn run --method M` loads it, and its own thread: the runs never share state, so each run's
// frames are exactly `cairn run --method M`'s, and a slow method (penalty) does not hold the
// others back; the page waits for the slowest at its newest frame.
#define _POSIX_C_SOURCE 200809L

#include "view_compare.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>

// Splits "a, b,c" into method names (spaces around names allowed); the count, or -1 after an error.
static int cliViewCompare_Parse( const char* text, cnMethod methods[cnMethod_count] )
{
	int count = 0;
	const char* item = text;
	for ( ;; )
	{
		const char* end = strchr( item, ',' );
		size_t length = end != NULL ? (size_t)( end - item ) : strlen( item );
		while ( length > 0 && *item == ' ' )
		{
			++item;
			--length;
		}
		while ( length > 0 && item[length - 1] == ' ' )
		{
			--length;
		}
		char name[64];
		cnMethod method;
		if ( length == 0 || length >= sizeof( name ) )
		{
			cliError( "--methods: '%s' is not a comma-separated list of methods (known: %s)", text, cnMethod_GetNameList() );
			return -1;
		}
		memcpy( name, item, length );
		name[length] = 0;
		if ( cnMethod_FromName( name, &method ) == false )
		{
			cliError( "--methods: unknown contact method '%s' (known: %s)", name, cnMethod_GetNameList() );
			return -1;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( methods[i] == method )
			{
				cliError( "--methods: '%s' is given twice", name );
				return -1;
			}
		}
		// cnMethod_count distinct names fill the array; a further one is a repeat, caught above
		methods[count++] = method;
		if ( end == NULL )
		{
			return count;
		}
		item = end + 1;
	}
}

bool cliViewCompare_Open( cliViewSource sources[CLI_VIEW_COMPARE_MAX], const char* path, const char* methodsText,
						  int* count, int* status )
{
	*count = 0;
	*status = CLI_BAD_INPUT;
	cnMethod methods[cnMethod_count];
	int methodCount = cnMethod_count;
	if ( methodsText != NULL )
	{
		methodCount = cliViewCompare_Parse( methodsText, methods );
		if ( methodCount < 0 )
		{
			return false;
		}
		if ( methodCount < CLI_VIEW_COMPARE_MIN || methodCount > CLI_VIEW_COMPARE_MAX )
		{
			cliError( "--methods: %d methods given; --compare shows %d to %d", methodCount, CLI_VIEW_COMPARE_MIN,
					  CLI_VIEW_COMPARE_MAX );
			return false;
		}
	}
	else
	{
		for ( int i = 0; i < cnMethod_count; ++i )
		{
			methods[i] = (cnMethod)i;
		}
	}
	for ( int i = 0; i < methodCount && *count < CLI_VIEW_COMPARE_MAX; ++i )
	{
		const char* name = cnMethod_GetName( methods[i] );
		int openStatus = CLI_OK;
		if ( cliViewSource_OpenWithMethod( sources + *count, path, name, &openStatus ) )
		{
			*count += 1;
			continue;
		}
		cliViewSource_Close( sources + *count );
		// a method named on the command line must run; by default, those that cannot are left out
		if ( methodsText != NULL || openStatus != CLI_BAD_INPUT || cnIsRecordingFile( path ) )
		{
			*status = openStatus;
			return false;
		}
		fprintf( stderr, "cairn view: --compare: %s left out: it cannot load the scene (above)\n", name );
	}
	if ( *count < CLI_VIEW_COMPARE_MIN )
	{
		cliError( "%s: --compare needs at least %d methods that can run the scene, %d can", path, CLI_VIEW_COMPARE_MIN,
				  *count );
		return false;
	}
	*status = CLI_OK;
	return true;
}

bool cliViewCompare_Start( cliViewSource* sources, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		if ( cliViewSource_Start( sources + i ) == false )
		{
			return false;
		}
	}
	return true;
}

void cliViewCompare_Close( cliViewSource* sources, int count )
{
	// ask every run to stop first, so they wind down together rather than one after another
	for ( int i = 0; i < count; ++i )
	{
		if ( sources[i].threadStarted )
		{
			cnWorld_Cancel( sources[i].scene->world );
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		cliViewSource_Close( sources + i );
	}
}
