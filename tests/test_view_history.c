// SPDX-License-Identifier: MIT
// The viewer's history (apps/view/view_history.c): snapshots every few frames, and a snapshot that
// cannot be taken is counted with its reason (GET /api/sync reports both) while the history goes
// on; a cut near that frame then starts from the snapshot before it.
#include "cairn/cairn.h"
#include "test.h"
#include "view_history.h"

#include <string.h>

static cnWorld* ballWorld( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def );
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( 0.0, 0.0, 5.0 );
	cnBodyId id = cnCreateBody( world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_sphere;
	sd.radius = 0.5;
	cnCreateShape( world, id, &sd );
	return world;
}

static void failedSnapshotsAreCounted( void )
{
	cliViewHistory history;
	cliViewHistory_Init( &history );
	cnWorld* world = ballWorld();
	int every = CLI_VIEW_SNAPSHOT_EVERY;

	CHECK( cliViewHistory_OnFrame( &history, world, 0 ) );
	CHECK( history.snapshotCount == 1 && history.snapshotFailures == 0 && history.snapshotError[0] == 0 );
	// a frame between snapshots takes none
	CHECK( cliViewHistory_OnFrame( &history, world, 1 ) && history.snapshotCount == 1 );

	// a snapshot that cannot be made (here: no world to save) is counted with its reason
	CHECK( cliViewHistory_OnFrame( &history, NULL, every ) == false );
	CHECK( history.snapshotCount == 1 && history.snapshotFailures == 1 );
	char expected[64];
	snprintf( expected, sizeof( expected ), "no snapshot at frame %d: ", every );
	CHECK( strncmp( history.snapshotError, expected, strlen( expected ) ) == 0 );
	CHECK( strlen( history.snapshotError ) > strlen( expected ) );
	printf( "failure reported as \"%s\"\n", history.snapshotError );

	// the history goes on; a cut between the failed frame and the next snapshot starts from frame 0
	CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
	CHECK( cliViewHistory_OnFrame( &history, world, 2 * every ) );
	CHECK( history.snapshotCount == 2 && history.snapshotFailures == 1 );
	const cliViewSnapshot* s = cliViewHistory_Find( &history, every + 1 );
	CHECK( s != NULL && s->frame == 0 );
	s = cliViewHistory_Find( &history, 2 * every + 1 );
	CHECK( s != NULL && s->frame == 2 * every );

	cliViewHistory_Free( &history );
	CHECK( history.snapshotCount == 0 && history.snapshotFailures == 0 );
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( failedSnapshotsAreCounted );
	return TEST_SUMMARY();
}
