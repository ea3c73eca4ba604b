// SPDX-License-Identifier: MIT
// A check shared by the recording tests: a damaged recording is refused with a message that names
// its source. The including file defines BAD_NAME, the source name the copies are loaded under.
#pragma once

#include "cairn/recording.h"
#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

// Loads a changed copy and checks that it fails with a message naming the source and holding want.
static void expectError( const uint8_t* data, size_t size, const char* want )
{
	cnRecording* rec = cnLoadRecordingFromMemory( data, size, BAD_NAME );
	CHECK( rec == NULL );
	bool named = strncmp( cnGetError(), BAD_NAME ": ", strlen( BAD_NAME ) + 2 ) == 0;
	CHECK( named && strstr( cnGetError(), want ) != NULL );
	if ( rec != NULL || named == false || strstr( cnGetError(), want ) == NULL )
	{
		printf( "  wanted '%s', got '%s'\n", want, rec != NULL ? "a recording" : cnGetError() );
	}
	cnDestroyRecording( rec );
}
