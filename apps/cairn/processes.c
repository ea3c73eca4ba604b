// SPDX-License-Identifier: MIT
// Helper programs as separate processes (processes.h), started with posix_spawn so the tool never
// runs code between fork and exec.
#define _POSIX_C_SOURCE 200809L

#include "processes.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

bool cliHasProgram( const char* name )
{
	const char* path = getenv( "PATH" );
	if ( path == NULL || strchr( name, '/' ) != NULL )
	{
		return access( name, X_OK ) == 0;
	}
	char candidate[4096];
	for ( const char* start = path; *start != 0; )
	{
		const char* end = strchr( start, ':' );
		size_t length = end != NULL ? (size_t)( end - start ) : strlen( start );
		int n = snprintf( candidate, sizeof( candidate ), "%.*s/%s", (int)length, length > 0 ? start : ".", name );
		struct stat info;
		if ( n > 0 && n < (int)sizeof( candidate ) && stat( candidate, &info ) == 0 && S_ISREG( info.st_mode ) &&
			 access( candidate, X_OK ) == 0 )
		{
			return true;
		}
		if ( end == NULL )
		{
			break;
		}
		start = end + 1;
	}
	return false;
}

// posix_spawn has no portable "change folder" action before glibc 2.29's addchdir_np, so a program
// with its own folder runs through "cd FOLDER && exec PROGRAM ..." in /bin/sh, its arguments passed
// as the shell's positional parameters (never spliced into the script).
pid_t cliStartProgram( const char* const* argv, const char* cwd, const char* logPath )
{
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init( &actions );
	posix_spawn_file_actions_addopen( &actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0 );
	const char* log = logPath != NULL ? logPath : "/dev/null";
	posix_spawn_file_actions_addopen( &actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_APPEND, 0644 );
	posix_spawn_file_actions_adddup2( &actions, STDOUT_FILENO, STDERR_FILENO );

	int argc = 0;
	while ( argv[argc] != NULL )
	{
		argc += 1;
	}
	if ( argc == 0 )
	{
		posix_spawn_file_actions_destroy( &actions );
		cliError( "no program to start" );
		return -1;
	}
	const char** args = calloc( (size_t)argc + 5, sizeof( char* ) );
	if ( args == NULL )
	{
		posix_spawn_file_actions_destroy( &actions );
		cliError( "out of memory starting %s", argv[0] );
		return -1;
	}
	int k = 0;
	if ( cwd != NULL )
	{
		args[k++] = "/bin/sh";
		args[k++] = "-c";
		args[k++] = "cd \"$0\" && exec \"$@\"";
		args[k++] = cwd;
	}
	for ( int i = 0; i < argc; ++i )
	{
		args[k++] = argv[i];
	}
	args[k] = NULL;
	pid_t pid = -1;
	int error = posix_spawnp( &pid, args[0], &actions, NULL, (char* const*)args, environ );
	posix_spawn_file_actions_destroy( &actions );
	free( args );
	if ( error != 0 )
	{
		cliError( "cannot start %s: %s", argv[0], strerror( error ) );
		return -1;
	}
	return pid;
}

pid_t cliWaitProgram( bool* ok )
{
	int status = 0;
	pid_t pid = waitpid( -1, &status, 0 );
	*ok = pid > 0 && WIFEXITED( status ) && WEXITSTATUS( status ) == 0;
	return pid;
}

bool cliRunProgram( const char* const* argv, const char* cwd, const char* logPath, bool* interrupted )
{
	if ( interrupted != NULL )
	{
		*interrupted = false;
	}
	pid_t pid = cliStartProgram( argv, cwd, logPath );
	if ( pid < 0 )
	{
		return false;
	}
	for ( ;; )
	{
		int status = 0;
		pid_t done = waitpid( pid, &status, 0 );
		if ( done == pid )
		{
			return WIFEXITED( status ) && WEXITSTATUS( status ) == 0;
		}
		if ( done < 0 && errno == EINTR && cliInterrupted() )
		{
			cliStopPrograms( &pid, 1 );
			if ( interrupted != NULL )
			{
				*interrupted = true;
			}
			return false;
		}
		if ( done < 0 && errno != EINTR )
		{
			return false;
		}
	}
}

void cliStopPrograms( const pid_t* pids, int count )
{
	for ( int i = 0; i < count; ++i )
	{
		if ( pids[i] > 0 )
		{
			kill( pids[i], SIGTERM );
		}
	}
	for ( int i = 0; i < count; ++i )
	{
		if ( pids[i] > 0 )
		{
			while ( waitpid( pids[i], NULL, 0 ) < 0 && errno == EINTR )
			{
			}
		}
	}
}
