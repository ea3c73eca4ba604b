// SPDX-License-Identifier: MIT
// Snapshots and sync points of a simulated scene (view_history.h).
#include "view_history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cliViewHistory_Init( cliViewHistory* history )
{
	memset( history, 0, sizeof( *history ) );
	history->every = CLI_VIEW_SNAPSHOT_EVERY;
	history->cutFrame = -1;
}

void cliViewHistory_Free( cliViewHistory* history )
{
	for ( int i = 0; i < history->snapshotCount; ++i )
	{
		cnFree( history->snapshots[i].data );
	}
	for ( int i = 0; i < history->cutListCount; ++i )
	{
		free( history->cutEdits[i] );
	}
	free( history->cutFrames );
	free( history->cutEdits );
	free( history->snapshots );
	free( history->syncPoints );
	cliViewHistory_Init( history );
}

// Keeps the first snapshot, the one of the running segment's start and every other one between,
// and doubles the spacing: the memory halves, the frames re-stepped for a cut at most double.
static void cliViewHistory_Thin( cliViewHistory* history )
{
	int kept = 0;
	for ( int i = 0; i < history->snapshotCount; ++i )
	{
		cliViewSnapshot s = history->snapshots[i];
		bool keep = i == 0 || s.frame == history->runStart || ( s.frame / history->every ) % 2 == 0;
		if ( keep )
		{
			history->snapshots[kept++] = s;
		}
		else
		{
			history->snapshotBytes -= s.size;
			cnFree( s.data );
		}
	}
	history->snapshotCount = kept;
	history->every *= 2;
}

// Counts a snapshot that could not be taken, with its reason.
static bool cliViewHistory_Failed( cliViewHistory* history, int frame, const char* reason )
{
	history->snapshotFailures += 1;
	snprintf( history->snapshotError, sizeof( history->snapshotError ), "no snapshot at frame %d: %s", frame, reason );
	return false;
}

bool cliViewHistory_OnFrame( cliViewHistory* history, const cnWorld* world, int frame )
{
	if ( frame != history->runStart && ( frame % history->every ) != 0 )
	{
		return true;
	}
	if ( history->snapshotCount > 0 && history->snapshots[history->snapshotCount - 1].frame >= frame )
	{
		return true;
	}
	if ( history->snapshotCount == history->snapshotCapacity )
	{
		int capacity = history->snapshotCapacity < 16 ? 16 : 2 * history->snapshotCapacity;
		cliViewSnapshot* grown = realloc( history->snapshots, (size_t)capacity * sizeof( cliViewSnapshot ) );
		if ( grown == NULL )
		{
			return cliViewHistory_Failed( history, frame, "out of memory for the snapshot list" );
		}
		history->snapshots = grown;
		history->snapshotCapacity = capacity;
	}
	cliViewSnapshot s = { frame, NULL, 0 };
	if ( cnWorld_Save( world, &s.data, &s.size ) == false )
	{
		return cliViewHistory_Failed( history, frame, cnGetError() );
	}
	history->snapshots[history->snapshotCount++] = s;
	history->snapshotBytes += s.size;
	while ( history->snapshotBytes > CLI_VIEW_MAX_SNAPSHOT_BYTES && history->snapshotCount > 2 )
	{
		int before = history->snapshotCount;
		cliViewHistory_Thin( history );
		if ( history->snapshotCount == before )
		{
			break;
		}
	}
	return true;
}

const cliViewSnapshot* cliViewHistory_Find( const cliViewHistory* history, int frame )
{
	const cliViewSnapshot* best = NULL;
	for ( int i = 0; i < history->snapshotCount && history->snapshots[i].frame <= frame; ++i )
	{
		best = history->snapshots + i;
	}
	return best;
}

void cliViewHistory_Truncate( cliViewHistory* history, int frame )
{
	while ( history->snapshotCount > 0 && history->snapshots[history->snapshotCount - 1].frame >= frame )
	{
		cliViewSnapshot* s = history->snapshots + --history->snapshotCount;
		history->snapshotBytes -= s->size;
		cnFree( s->data );
	}
	while ( history->syncCount > 0 && history->syncPoints[history->syncCount - 1] > frame )
	{
		--history->syncCount;
	}
	while ( history->cutListCount > 0 && history->cutFrames[history->cutListCount - 1] >= frame )
	{
		free( history->cutEdits[--history->cutListCount] );
	}
}

bool cliViewHistory_AddCut( cliViewHistory* history, int frame, const char* edits )
{
	size_t n = strlen( edits ) + 1;
	char* copy = malloc( n );
	int* frames = realloc( history->cutFrames, sizeof( int ) * (size_t)( history->cutListCount + 1 ) );
	history->cutFrames = frames != NULL ? frames : history->cutFrames;
	char** texts = frames != NULL ? realloc( history->cutEdits, sizeof( char* ) * (size_t)( history->cutListCount + 1 ) ) : NULL;
	history->cutEdits = texts != NULL ? texts : history->cutEdits;
	if ( copy == NULL || texts == NULL )
	{
		free( copy );
		return false;
	}
	memcpy( copy, edits, n );
	history->cutFrames[history->cutListCount] = frame;
	history->cutEdits[history->cutListCount] = copy;
	history->cutListCount += 1;
	return true;
}

bool cliViewHistory_SetSync( cliViewHistory* history, int frame, bool on )
{
	int at = 0;
	while ( at < history->syncCount && history->syncPoints[at] < frame )
	{
		++at;
	}
	bool present = at < history->syncCount && history->syncPoints[at] == frame;
	if ( on == false )
	{
		if ( present )
		{
			memmove( history->syncPoints + at, history->syncPoints + at + 1,
					 (size_t)( history->syncCount - at - 1 ) * sizeof( int ) );
			--history->syncCount;
		}
		return true;
	}
	if ( present )
	{
		return true;
	}
	if ( history->syncCount >= CLI_VIEW_MAX_SYNC_POINTS )
	{
		return false;
	}
	if ( history->syncPoints == NULL )
	{
		history->syncPoints = malloc( CLI_VIEW_MAX_SYNC_POINTS * sizeof( int ) );
		if ( history->syncPoints == NULL )
		{
			return false;
		}
	}
	memmove( history->syncPoints + at + 1, history->syncPoints + at, (size_t)( history->syncCount - at ) * sizeof( int ) );
	history->syncPoints[at] = frame;
	++history->syncCount;
	return true;
}
