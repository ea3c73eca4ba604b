// SPDX-License-Identifier: MIT
// Helper programs the tool runs as separate processes (POV-Ray and FFmpeg for `render`): finding
// them on PATH, starting them with their output in a log file, waiting for any of them, and
// stopping them all when the user interrupts.
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/// Whether a program is on PATH (an executable file in one of its folders).
bool cliHasProgram( const char* name );

/// Starts argv[0] (found on PATH) in folder cwd (NULL: this one) with stdin from /dev/null and
/// stdout and stderr appended to logPath (NULL: /dev/null). Returns its pid, or -1 after printing
/// an error.
pid_t cliStartProgram( const char* const* argv, const char* cwd, const char* logPath );

/// Waits for any started program to end. Returns its pid and sets *ok to whether it exited with
/// status 0; returns -1 when none is left, or when a signal interrupted the wait (errno EINTR).
pid_t cliWaitProgram( bool* ok );

/// Runs a program to its end (cliStartProgram, then waits for it). False when it could not start or
/// failed; interrupted (when not NULL) tells whether Ctrl-C stopped it.
bool cliRunProgram( const char* const* argv, const char* cwd, const char* logPath, bool* interrupted );

/// Asks the programs to stop (SIGTERM) and waits for them.
void cliStopPrograms( const pid_t* pids, int count );
