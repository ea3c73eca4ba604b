// SPDX-License-Identifier: MIT
// What `cairn view` shows: the bodies, shapes and joints (always as a cnRecording, so a scene and a
// recording are described alike) and the frames. A recording's frames come from its file and are
// never simulated again; a scene is simulated on a thread of its own by the library's run loop
// (cnRun), whose frame writer appends every frame to a cache in memory, so the page can go back to
// any frame at once while later frames are still being made.
#pragma once

#include "cairn/io.h"
#include "view_history.h"

#include <pthread.h>
#include <stdbool.h>

/// Most bytes the frame cache of a simulated scene may take; past it the simulation stops early.
#define CLI_VIEW_MAX_CACHE_BYTES ( (size_t)1 << 30 )

/// Numbers measured per frame of a simulated scene: kinetic and potential energy, linear momentum,
/// angular momentum about the world origin.
#define CLI_VIEW_QUANTITY_COUNT 8

/// Numbers per contact point: the point, the unit normal from shape A to shape B, the separation
/// and the normal impulse over the step (cnContactPointData).
#define CLI_VIEW_CONTACT_NUMBERS 8

/// Numbers per body per frame of a simulated scene: the centre of mass's linear velocity, the
/// angular velocity, the kinetic energy, the potential energy, the mass, and the angular momentum
/// about the centre of mass and about the world origin.
#define CLI_VIEW_BODY_NUMBERS 15

/// A recording file or a scene being simulated, and its frames.
typedef struct cliViewSource
{
	/// the bodies (with their shapes and surfaces) and joints; a recording's own frames, for a scene
	/// only its frame 0
	cnRecording* description;
	/// true for a scene simulated here, false for a recording file
	bool simulated;
	/// numbers per frame: the time, then per body position x, y, z and orientation w, x, y, z
	int stride;
	/// the scene's duration, or the recording's last frame time
	double duration;
	double fps;

	// a scene only: the world, the thread that runs it, and the cache it fills
	cnScene* scene;
	cnBodyId* bodies;
	pthread_t thread;
	bool threadStarted;
	/// guards everything below
	pthread_mutex_t lock;
	double* cache;
	int frameCount;
	int frameCapacity;
	/// the run ended (finished, failed, cancelled or the cache is full)
	bool complete;
	/// why it ended early ("" when it finished or still runs)
	char message[512];

	/// the world's contact method (a scene only; "" for a recording)
	char method[32];
	/// per frame CLI_VIEW_QUANTITY_COUNT numbers measured as the frame was written (a scene only)
	double* quantities;
	/// the contact points of every frame, CLI_VIEW_CONTACT_NUMBERS each: frame f holds those from
	/// contactStart[f] to contactStart[f + 1] (a scene only)
	double* contactPoints;
	size_t contactCount;
	size_t contactCapacity;
	size_t* contactStart;
	/// per frame CLI_VIEW_BODY_NUMBERS numbers per body, in body order (a scene only)
	double* bodyStates;
	/// the simulation thread's own: the manifolds of the frame being written (cnWorld_GetContactData)
	cnContactData* manifolds;
	int manifoldCapacity;
	/// snapshots, sync points and cuts (view_history.h; a scene's snapshots only), under the lock
	cliViewHistory history;
	/// descriptions and body lists replaced by cuts that added or deleted bodies, kept until the
	/// source closes (a server thread may still read the one it took)
	void** retired;
	int retiredCount;
	/// counts the cuts that changed the body list (the server describes the bodies again), and the
	/// bodies' centres of mass in their frames, read when the list changed (NULL before)
	int bodySetVersion;
	cnVec3* centers;
} cliViewSource;

/// Opens a recording file or loads a scene (printing the loader's message on failure). A scene is
/// not simulated yet (cliViewSource_Start). False on failure, with *status the exit status;
/// cliViewSource_Close frees what was made either way.
bool cliViewSource_Open( cliViewSource* source, const char* path, int* status );

/// Same, with the scene's contact method replaced by method (a name; NULL: the scene's own), as
/// `cairn run --method` loads it. A recording has no method to replace: refused with status 2.
bool cliViewSource_OpenWithMethod( cliViewSource* source, const char* path, const char* method, int* status );

/// Makes a source of a scene already loaded (the editor's, view_scene_edit.c), which it then owns
/// (also on failure). Not simulated yet. False with the reason in error when memory runs out;
/// cliViewSource_Close frees what was made either way.
bool cliViewSource_OpenScene( cliViewSource* source, cnScene* scene, char* error, size_t errorSize );

/// Closes source (its thread stopped and joined) and moves fresh, opened and not started, into its
/// place; fresh is left empty. The caller makes sure nothing reads source meanwhile.
void cliViewSource_Replace( cliViewSource* source, cliViewSource* fresh );

/// Describes a scene's bodies, shapes and joints as a recording of its present state made in
/// memory (bodies: the world's bodies in order), so a scene is described exactly as a recording is
/// (surfaces of hulls, meshes and heightfields included). NULL when the recorder fails.
cnRecording* cliViewSource_Describe( const cnScene* scene, const cnBodyId* bodies );

/// Starts simulating a scene on its own thread (nothing to do for a recording). False when the
/// thread cannot be made.
bool cliViewSource_Start( cliViewSource* source );

/// Stops the simulation (cancels the step that runs), waits for its thread and frees everything.
void cliViewSource_Close( cliViewSource* source );

/// A cut (view_edit.c): stops the simulation, drops the frames from `frame` on and goes on from
/// world (the world at that frame, edited), which the source then owns. False when the thread cannot
/// be started again (world is owned by the source either way). A cut that adds or deletes bodies
/// gives the new body list and description (cliViewSource_SetBodies; owned by the source from here
/// on, also on failure); NULL keeps them.
bool cliViewSource_Restart( cliViewSource* source, cnWorld* world, int frame, cnBodyId* bodies, int bodyCount,
							cnRecording* description );

/// Frames available now, and whether no more will come (copied under the lock).
int cliViewSource_GetFrameCount( cliViewSource* source, bool* complete, char* message, size_t messageSize );

/// A cut that adds or deletes bodies (called by cliViewSource_Restart once the simulation thread has
/// stopped): the new body list (bodyCount ids, taking ownership; a body that does not
/// exist in a world is drawn with a zero quaternion) and its description (owned from here on). The
/// frames before `frame` are repacked to the new stride, the bodies new to them absent; false when
/// memory runs out (nothing changed then).
bool cliViewSource_SetBodies( cliViewSource* source, cnBodyId* bodies, int bodyCount, cnRecording* description,
							  const cnWorld* world, int frame );

/// Copies at most count frames from frame `from` into out (count * stride numbers); returns how
/// many were copied (0 when from is at or past the frames available).
int cliViewSource_CopyFrames( cliViewSource* source, int from, int count, double* out );

/// A cut that adds or deletes bodies (called by cliViewSource_Restart once the simulation thread has
/// stopped): the new body list (bodyCount ids, taking ownership; a body that does not
/// exist in a world is drawn with a zero quaternion) and its description (owned from here on). The
/// frames before `frame` are repacked to the new stride, the bodies new to them absent; false when
/// memory runs out (nothing changed then).
bool cliViewSource_SetBodies( cliViewSource* source, cnBodyId* bodies, int bodyCount, cnRecording* description,
							  const cnWorld* world, int frame );

/// Copies at most count frames' measured quantities from frame `from` into out
/// (count * CLI_VIEW_QUANTITY_COUNT numbers); returns how many frames were copied (0 for a recording).
int cliViewSource_CopyQuantities( cliViewSource* source, int from, int count, double* out );

/// Copies the CLI_VIEW_BODY_NUMBERS numbers of one body at one frame into out; false when the
/// source is a recording or the frame is not there.
bool cliViewSource_CopyBodyState( cliViewSource* source, int frame, int body, double* out );

/// The contact points of a frame (CLI_VIEW_CONTACT_NUMBERS numbers each) in a new array the caller
/// frees, their count in *count; NULL with *count 0 when there are none or the frame is not there.
/// *ok is false only when memory ran out.
double* cliViewSource_CopyContacts( cliViewSource* source, int frame, int* count, bool* ok );
