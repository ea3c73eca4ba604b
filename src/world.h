// SPDX-License-Identifier: MIT
// The world's internal data: one plain struct that every stage of the step reads and writes, as
// MuJoCo's model/data pair. Bodies, shapes and contacts live in arrays indexed by id; each kind of
// record has its own header (body.h, shape.h, contact.h, material.h, island.h).
#pragma once

#include "arena.h"
#include "body.h"
#include "collision/broad_phase.h"
#include "contact.h"
#include "contact_events.h"
#include "force.h"
#include "guard.h"
#include "island.h"
#include "joints/joint.h"
#include "material.h"
#include "pair_map.h"
#include "shape.h"

#include "cairn/cairn.h"

#include <stdatomic.h>

/// The world.
struct cnWorld
{
	uint32_t magic;
	cnWorldDef def;
	cnVec3 gravity;
	double time;
	int64_t stepCount;

	cnBody* bodies;
	int bodyCapacity;
	int bodyCount; // high-water mark of the array, dead bodies included
	int liveBodyCount;
	int freeBody;  // free list through solverIndex of dead bodies, -1 when empty

	cnShape* shapes;
	int shapeCapacity;
	int shapeCount;
	int liveShapeCount;
	// a static shape was added, moved or removed since the internal faces of the static boxes were
	// last found (internal_faces.c); also set by a snapshot's load
	bool internalFacesDirty;
	int freeShape;

	cnContact* contacts;
	int contactCount;
	int contactCapacity;
	cnPairMap contactMap;
	// the contact events of the last step (contact_events.c)
	cnContactEventBuffer events;

	cnMaterial* materials;
	int materialCount;
	cnMaterialPair* materialPairs;
	int materialPairCount;

	// the force table: forceCount entries, liveForceCount of them alive
	cnForce* forces;
	int forceCount;
	int liveForceCount;

	// body pairs that never collide: key (min << 32 | max) -> 1
	cnPairMap disabledPairs;

	// joints: jointCount entries (dead ones included), liveJointCount alive, a free list
	cnJoint* joints;
	int jointCount;
	int jointCapacity;
	int liveJointCount;
	int freeJoint;
	// body pairs whose collision joints switch off: key -> number of such joints
	cnPairMap jointPairs;
	// the joints that broke in the last step
	cnJointBreak* jointBreaks;
	// the method says over what time the impulses it left in cnJoint.impulses acted (the impulse
	// method: one sub-step), so the reaction forces can be measured
	double jointImpulseTime;
	int jointBreakCount;
	int jointBreakCapacity;

	cnSleepIsland* sleepIslands;
	int sleepIslandCount;

	cnBroadPhase broadPhase;
	// the broad phase's pairs found per worker (contact.c), pairBufferCount of them
	cnPairBuffer* pairBuffers;
	int pairBufferCount;
	cnArena arena;
	// the world's own threads (task.c): def.workerCount - 1 of them; NULL with one worker or a user
	// scheduler (def.enqueueTask)
	struct cnTaskPool* taskPool;

	// the contact method (methods/method.h) and the state it keeps between steps (NULL: none)
	const struct cnMethodModule* module;
	void* methodState;
	// set by cnWorld_Cancel (from any thread or a signal handler), consumed by cnCheckCancel
	atomic_int cancelRequested;

	// a velocity-level method copies its next contact system here (cnWorld_CaptureContactSystem)
	cnContactSystem* captureTarget;

	cnStats stats;
	// the instability guard's energy references and last report (guard.h)
	cnGuardState guard;
};

#define CN_WORLD_MAGIC 0x4361726eu

/// Whether world is a live world (not NULL, not destroyed): the public entry points' first check.
/// False with cnError_invalidArgument set ("world is NULL or destroyed") when it is not.
bool cnRequireWorld( const cnWorld* world );

/// Removes the out-of-plane motion of a planar world: v.z = 0, w.x = w.y = 0.
static inline void cnProjectPlanar( const cnWorld* world, cnVec3* v, cnVec3* w )
{
	if ( world->def.planar )
	{
		v->z = 0.0;
		w->x = 0.0;
		w->y = 0.0;
	}
}

/// True when cnWorld_Cancel asked the world to stop: consumes the request and sets cnError_cancelled.
/// The step checks it at its start, long methods between their internal steps; a method that sees it
/// returns false with the bodies as they were at the step's start.
bool cnCheckCancel( cnWorld* world );
