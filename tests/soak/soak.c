// SPDX-License-Identifier: MIT
// The soak test: random scenes, one after another for a given wall time, each stepped while the
// invariants every scene must keep are checked after every step (docs/reliability.md, "Soak").
//
//   cairn_soak [--seconds N] [--seed S] [--max-bodies M] [--scenes N] [--method NAME] [--keep-going] [--verbose]
//   cairn_soak --replay SCENESEED [--max-bodies M] [--verbose] [--trace] [--watch BODY]
//
// A scene is 10 to M bodies (spheres, boxes, capsules, cylinders, hulls; some compounds) of random
// sizes, materials and velocities dropped on a static floor at z = 0, with stacks of boxes, static
// obstacles, chains of joints of every type, and now and then a kinematic paddle, a user force, a
// body destroyed or a body added while it runs. Everything in it comes from its scene seed, whose
// low three bits are its contact method (cnMethod, round robin over the scenes of a run), so a
// scene that breaks an invariant is replayed by that seed alone. The adaptive methods (penalty,
// analytic-impulse, constraint) get at most 30 bodies and the velocity-level ones at most 150
// (their solves grow with the cube of a pile's contacts).
//
// Invariants, checked after every step:
// - finite state: the step succeeds, and every body's pose and velocities are finite;
// - floor: no dynamic body's centre of mass lies deeper below the floor plane than its extent (the
//   farthest point of its shapes from the centre of mass) plus 0.05 m: a body whose centre is that
//   far down has passed through the floor. A body found there within 30 steps of turning more than
//   pi/4 in one step is counted and left out from then on (CN_SOAK_MAX_TURN);
// - energy: without input, the energy the method's time integrator keeps in free flight
//   (cnSoakEnergy) never rises more than 2 % of the scene's energy scale (cnSoakEnergyScale) above
//   its value after the last input, and, for the methods whose contacts store no energy (all but
//   penalty and analytic-impulse), never more than 5 % above its smallest value since then.
//   Steps in which a kinematic body moves or a user force acts, and the step in which a body is
//   added, are inputs: they are not checked, and both references start again after them;
// - bookkeeping: the world's body, shape, joint and force counts and its statistics match what the
//   scene made and destroyed, every id it made is valid until destroyed and stale after, masses do
//   not change, simulated time is the sum of the steps.
// Under the ASan build the program also must not leak.
//
// There is no API that writes a world as a scene file, so a violation prints the scene seed and the
// command that replays it; --verbose prints a line per scene with the hash of its final state
// (cnWorld_Hash), which a replay reproduces bit for bit, --trace the energy after every step and
// --watch the state of one body (the number a violation names) after every step.
// CTest runs soak_short (60 s; 45 s under CAIRN_FAST_TESTS=1), at most the first 48 scenes of its seed:
// those were seen to pass in both builds, so a faster machine does not meet new scenes in CI.
#define _POSIX_C_SOURCE 200809L

#include "cairn/cairn.h"
#include "test_random.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CN_SOAK_FLOOR_SLOP 0.05
// a body that turns more than this in one step (rad: Box2D's bound per step, pi/4) has contact points
// that the step linearises at its start pose and that have turned away by its end: a small capsule or
// cylinder spinning that fast can sink through a box or plane floor (docs/reliability.md, "Soak"), so
// a body found below the floor within half a second of such a turn is counted and left out
#define CN_SOAK_MAX_TURN ( 0.25 * CN_PI )
#define CN_SOAK_SPIN_MEMORY 30
// the energy invariant's tolerances, fractions of the scene's energy scale (cnSoakEnergyScale)
#define CN_SOAK_BUDGET_TOLERANCE 0.02
#define CN_SOAK_LOCAL_TOLERANCE 0.05
#define CN_SOAK_MAX_ADAPTIVE 30
#define CN_SOAK_MAX_VELOCITY 150
#define CN_SOAK_MAX_MATERIALS 6
#define CN_SOAK_HULL_POINTS 12

// what the run was asked for
typedef struct cnSoakOptions
{
	double seconds;
	uint64_t seed;
	int maxBodies;
	// at most this many scenes (0: as many as the time allows)
	int maxScenes;
	int method; // -1: every method in turn
	bool keepGoing;
	bool verbose;
	// print the energy and counters after every step, and one body's state (-1: none)
	bool trace;
	int watch;
	bool replay;
	uint64_t replaySeed;
} cnSoakOptions;

// a body the scene made, with what the invariants need to know about it
typedef struct cnSoakBody
{
	cnBodyId id;
	cnBodyType type;
	// farthest point of its shapes from the centre of mass, m
	double extent;
	double mass;
	int shapeCount;
	bool alive;
	// the last step in which it turned more than CN_SOAK_MAX_TURN (-1: never), and whether it was
	// found below the floor within CN_SOAK_SPIN_MEMORY steps of such a turn
	int64_t lastFastSpin;
	bool lostInSpin;
} cnSoakBody;

// a joint the scene made, and the records of its bodies (-1: the world)
typedef struct cnSoakJoint
{
	cnJointId id;
	int a, b;
} cnSoakJoint;

// one scene: its world and what was made in it
typedef struct cnSoakScene
{
	uint64_t seed;
	int index;
	cnMethod method;
	cnWorld* world;
	Lcg rng;
	cnSoakBody* bodies;
	int bodyCount, bodyCapacity;
	cnMaterialId materials[CN_SOAK_MAX_MATERIALS];
	int materialCount;
	// joints made and not destroyed (with a body, by the world)
	cnSoakJoint* joints;
	int jointCount, jointCapacity;
	// the user force (at most one) and the record of its body
	int forceCount;
	int forceBody;
	double timeStep;
	int steps;
	// the time step of the integrator the energy invariant follows (0: an exact one)
	double integratorStep;
	double gravity;
	// inputs: a kinematic paddle moving until kinematicStop (s), a user force during [forceT0, forceT1)
	int paddle;
	double kinematicStop;
	double forceT0, forceT1;
	// events: a body destroyed at destroyStep, one added at spawnStep (-1: none)
	int destroyStep, spawnStep;
	// where the added body starts: above anything that the scene made
	double spawnHeight;
	// the energy invariant's reference (smallest energy since the last input) and scale
	double energyRef, energyMin, energyScale;
	bool energyValid;
	// the largest gains over each reference, as fractions of the scale
	double worstBudgetRatio, worstLocalRatio;
	// bodies that turned too fast for the floor check, and the steps it skipped a body below the floor
	int fastSpinBodies;
	int spinLostBodies;
	int64_t floorExempt;
	int64_t stepsTaken;
} cnSoakScene;

// what a run did
typedef struct cnSoakTotals
{
	int scenes;
	int64_t steps;
	int64_t bodies;
	int violations;
	int fastSpinBodies;
	int spinLostBodies;
	int64_t floorExempt;
	int scenesPerMethod[cnMethod_count];
	int64_t stepsPerMethod[cnMethod_count];
	double worstBudgetRatio[cnMethod_count];
	double worstLocalRatio[cnMethod_count];
} cnSoakTotals;

// CAIRN_FAST_TESTS=1 (CI's sanitizer run), read as tests/test.h reads it: the short variant.
static bool cnSoakFast( void )
{
	const char* value = getenv( "CAIRN_FAST_TESTS" );
	return value != NULL && value[0] == '1';
}

static double cnSoakNow( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// SplitMix64: the scene seeds of a run from its seed and the scene's index.
static uint64_t cnSoakMix( uint64_t x )
{
	x += 0x9e3779b97f4a7c15ull;
	x = ( x ^ ( x >> 30 ) ) * 0xbf58476d1ce4e5b9ull;
	x = ( x ^ ( x >> 27 ) ) * 0x94d049bb133111ebull;
	return x ^ ( x >> 31 );
}

static double cnSoakUniform( cnSoakScene* s, double lo, double hi )
{
	return lcgUniform( &s->rng, lo, hi );
}

static int cnSoakInt( cnSoakScene* s, int n )
{
	int k = (int)lcgUniform( &s->rng, 0.0, (double)n );
	return k < n ? k : n - 1;
}

static bool cnSoakChance( cnSoakScene* s, double p )
{
	return lcgUniform( &s->rng, 0.0, 1.0 ) < p;
}

// A vector of independent uniform components in [lo, hi), drawn x, y, z in that order. Every draw
// of the generator is a statement of its own: C leaves the order in which a call's arguments are
// evaluated to the compiler (gcc and clang differ), and a seed must make the same scene in both.
static cnVec3 cnSoakUniformVec( cnSoakScene* s, cnVec3 lo, cnVec3 hi )
{
	double x = cnSoakUniform( s, lo.x, hi.x );
	double y = cnSoakUniform( s, lo.y, hi.y );
	double z = cnSoakUniform( s, lo.z, hi.z );
	return cnV3( x, y, z );
}

static cnQuat cnSoakRandomRotation( cnSoakScene* s )
{
	cnVec3 axis = cnSoakUniformVec( s, cnV3( -1.0, -1.0, -1.0 ), cnV3( 1.0, 1.0, 1.0 ) );
	if ( cnLength( axis ) < 1e-3 )
	{
		axis = cnV3( 0.0, 0.0, 1.0 );
	}
	return cnQuatFromAxisAngle( cnNormalize( axis ), cnSoakUniform( s, -CN_PI, CN_PI ) );
}

static bool cnSoakAdaptive( cnMethod method )
{
	return ( cnMethod_GetFlags( method ) & cnMethodFlag_adaptive ) != 0;
}

// Prints a violation: what the scene was, where it broke, and how to replay it.
static void cnSoakReport( const cnSoakScene* s, const cnSoakOptions* o, int body, const char* invariant, const char* detail )
{
	fprintf( stderr,
			 "soak: VIOLATION of %s\n  run seed %" PRIu64 ", scene %d, scene seed 0x%016" PRIx64
			 ", method %s, step %" PRId64 " (t = %.6g s), body %d\n  %s\n  replay: cairn_soak --replay 0x%016" PRIx64
			 " --max-bodies %d\n",
			 invariant, o->seed, s->index, s->seed, cnMethod_GetName( s->method ), s->stepsTaken,
			 cnWorld_GetTime( s->world ), body, detail, s->seed, o->maxBodies );
}

// ---------------------------------------------------------------------------------------------
// building a scene

static cnSoakBody* cnSoakAddRecord( cnSoakScene* s )
{
	if ( s->bodyCount == s->bodyCapacity )
	{
		s->bodyCapacity = s->bodyCapacity > 0 ? 2 * s->bodyCapacity : 64;
		cnSoakBody* grown = realloc( s->bodies, sizeof( cnSoakBody ) * (size_t)s->bodyCapacity );
		if ( grown == NULL )
		{
			fprintf( stderr, "soak: out of memory\n" );
			exit( 2 );
		}
		s->bodies = grown;
	}
	cnSoakBody* b = s->bodies + s->bodyCount++;
	memset( b, 0, sizeof( *b ) );
	b->lastFastSpin = -1;
	return b;
}

static void cnSoakAddJointRecord( cnSoakScene* s, cnJointId id, int a, int b )
{
	if ( id.index < 0 )
	{
		fprintf( stderr, "soak: a joint was refused: %s\n", cnGetError() );
		exit( 2 );
	}
	if ( s->jointCount == s->jointCapacity )
	{
		s->jointCapacity = s->jointCapacity > 0 ? 2 * s->jointCapacity : 16;
		cnSoakJoint* grown = realloc( s->joints, sizeof( cnSoakJoint ) * (size_t)s->jointCapacity );
		if ( grown == NULL )
		{
			fprintf( stderr, "soak: out of memory\n" );
			exit( 2 );
		}
		s->joints = grown;
	}
	cnSoakJoint* j = s->joints + s->jointCount++;
	j->id = id;
	j->a = a;
	j->b = b;
}

// A random convex shape of about the given half size; returns its farthest point from the shape
// origin. A hull keeps the caller's reference in *hull (released once the shape holds its own).
static double cnSoakRandomShape( cnSoakScene* s, cnShapeDef* def, double size, cnHull** hull )
{
	*def = cnDefaultShapeDef();
	def->material = s->materials[cnSoakInt( s, s->materialCount )];
	*hull = NULL;
	switch ( cnSoakInt( s, 5 ) )
	{
		case 0:
			def->type = cnShape_sphere;
			def->radius = size;
			return size;
		case 1:
			def->type = cnShape_box;
			def->halfExtents = cnMulSV( size, cnSoakUniformVec( s, cnV3( 0.4, 0.4, 0.4 ), cnV3( 1.0, 1.0, 1.0 ) ) );
			return cnLength( def->halfExtents );
		case 2:
			def->type = cnShape_capsule;
			def->radius = size * cnSoakUniform( s, 0.3, 0.6 );
			def->halfHeight = size - def->radius;
			return size;
		case 3:
			def->type = cnShape_cylinder;
			def->radius = size * cnSoakUniform( s, 0.4, 1.0 );
			def->halfHeight = size * cnSoakUniform( s, 0.3, 1.0 );
			return sqrt( def->radius * def->radius + def->halfHeight * def->halfHeight );
		default:
		{
			// points on a sphere of radius size, squashed a little: the hull is never flat
			cnVec3 points[CN_SOAK_HULL_POINTS];
			int count = 6 + cnSoakInt( s, CN_SOAK_HULL_POINTS - 5 );
			cnVec3 squash = cnSoakUniformVec( s, cnV3( 0.5, 0.5, 0.5 ), cnV3( 1.0, 1.0, 1.0 ) );
			double reach = 0.0;
			for ( int i = 0; i < count; ++i )
			{
				cnVec3 d = cnRotate( cnSoakRandomRotation( s ), cnV3( 0.0, 0.0, size ) );
				// the first six points span all three axes, so no hull is degenerate
				if ( i < 6 )
				{
					d = cnV3( 0.0, 0.0, 0.0 );
					( &d.x )[i / 2] = ( i % 2 == 0 ? size : -size );
				}
				points[i] = cnMulVV( d, squash );
				reach = fmax( reach, cnLength( points[i] ) );
			}
			*hull = cnCreateHull( points, count );
			if ( *hull == NULL )
			{
				fprintf( stderr, "soak: a hull was refused: %s\n", cnGetError() );
				exit( 2 );
			}
			def->type = cnShape_hull;
			def->hull = *hull;
			return reach;
		}
	}
}

// Computes a body's extent about its centre of mass from its shapes' placements and reaches.
static double cnSoakExtent( const cnWorld* world, cnBodyId id, const cnVec3* positions, const double* reaches,
							int count )
{
	cnVec3 com = cnBody_GetLocalCenterOfMass( world, id );
	double extent = 0.0;
	for ( int i = 0; i < count; ++i )
	{
		extent = fmax( extent, cnDistance( positions[i], com ) + reaches[i] );
	}
	return extent;
}

// A dynamic body of one shape (or, one time in eight, two: a compound) of about the given half size.
static void cnSoakAddDynamic( cnSoakScene* s, cnVec3 position, double size, bool moving )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = position;
	bd.orientation = cnSoakRandomRotation( s );
	if ( moving )
	{
		bd.linearVelocity = cnSoakUniformVec( s, cnV3( -3.0, -3.0, -3.0 ), cnV3( 3.0, 3.0, 2.0 ) );
		bd.angularVelocity = cnSoakUniformVec( s, cnV3( -4.0, -4.0, -4.0 ), cnV3( 4.0, 4.0, 4.0 ) );
	}
	if ( cnSoakChance( s, 0.1 ) )
	{
		// damping and drag only take energy away
		bd.linearDamping = cnSoakUniform( s, 0.0, 0.5 );
		bd.angularDamping = cnSoakUniform( s, 0.0, 0.5 );
		bd.dragCoefficient = cnSoakUniform( s, 0.0, 0.2 );
	}
	bd.enableSleep = cnSoakChance( s, 0.8 );
	cnBodyId id = cnCreateBody( s->world, &bd );
	cnSoakBody* rec = cnSoakAddRecord( s );
	rec->id = id;
	rec->type = cnBody_dynamic;
	rec->alive = true;

	int parts = cnSoakChance( s, 0.125 ) ? 2 : 1;
	cnVec3 positions[2];
	double reaches[2];
	for ( int i = 0; i < parts; ++i )
	{
		cnShapeDef sd;
		cnHull* hull;
		double partSize = parts == 1 ? size : 0.5 * size;
		reaches[i] = cnSoakRandomShape( s, &sd, partSize, &hull );
		positions[i] = parts == 1 ? cnVec3_zero : cnV3( i == 0 ? -0.5 * size : 0.5 * size, 0.0, 0.0 );
		sd.position = positions[i];
		sd.orientation = cnSoakRandomRotation( s );
		if ( cnCreateShape( s->world, id, &sd ).index < 0 )
		{
			fprintf( stderr, "soak: a shape was refused: %s\n", cnGetError() );
			exit( 2 );
		}
		cnReleaseHull( hull );
		rec->shapeCount += 1;
	}
	rec->extent = cnSoakExtent( s->world, id, positions, reaches, parts );
	rec->mass = cnBody_GetMass( s->world, id );
}

// A static or kinematic body of one box.
static int cnSoakAddBox( cnSoakScene* s, cnBodyType type, cnVec3 position, cnQuat orientation, cnVec3 halfExtents )
{
	cnBodyDef bd = cnDefaultBodyDef();
	bd.type = type;
	bd.position = position;
	bd.orientation = orientation;
	cnBodyId id = cnCreateBody( s->world, &bd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_box;
	sd.halfExtents = halfExtents;
	sd.material = s->materials[cnSoakInt( s, s->materialCount )];
	if ( cnCreateShape( s->world, id, &sd ).index < 0 )
	{
		fprintf( stderr, "soak: a shape was refused: %s\n", cnGetError() );
		exit( 2 );
	}
	cnSoakBody* rec = cnSoakAddRecord( s );
	rec->id = id;
	rec->type = type;
	rec->alive = true;
	rec->shapeCount = 1;
	rec->extent = cnLength( halfExtents );
	return s->bodyCount - 1;
}

// A chain of two to five small boxes hanging from a point above the floor, joined by joints of
// random types (every type of cairn/joint.h over the scenes; springs and dampers without motors).
static void cnSoakAddChain( cnSoakScene* s, cnVec3 top )
{
	int links = 2 + cnSoakInt( s, 4 );
	double half = cnSoakUniform( s, 0.05, 0.12 );
	cnBodyId previous = cnBodyId_null;
	int previousRecord = -1;
	cnVec3 anchor = top;
	for ( int i = 0; i < links; ++i )
	{
		// each link hangs below its anchor, tilted a little so the chain swings
		cnVec3 tilt = cnSoakUniformVec( s, cnV3( -0.5, -0.5, -1.0 ), cnV3( 0.5, 0.5, -1.0 ) );
		cnVec3 center = cnMulAdd( anchor, half, tilt );
		cnBodyDef bd = cnDefaultBodyDef();
		bd.position = center;
		cnBodyId id = cnCreateBody( s->world, &bd );
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = cnShape_box;
		sd.halfExtents = cnV3( 0.4 * half, 0.4 * half, half );
		sd.material = s->materials[0];
		if ( cnCreateShape( s->world, id, &sd ).index < 0 )
		{
			fprintf( stderr, "soak: a shape was refused: %s\n", cnGetError() );
			exit( 2 );
		}
		cnSoakBody* rec = cnSoakAddRecord( s );
		rec->id = id;
		rec->type = cnBody_dynamic;
		rec->alive = true;
		rec->shapeCount = 1;
		rec->extent = cnLength( sd.halfExtents );
		rec->mass = cnBody_GetMass( s->world, id );

		cnJointDef base = { 0 };
		base.bodyA = id;
		base.bodyB = previous;
		cnVec3 axis = cnNormalize( cnSoakUniformVec( s, cnV3( -1.0, -1.0, 0.3 ), cnV3( 1.0, 1.0, 0.3 ) ) );
		cnJointId joint = cnJointId_null;
		switch ( cnSoakInt( s, cnJoint_count ) )
		{
			case cnJoint_ball:
			{
				cnBallJointDef def = cnDefaultBallJointDef();
				def.base = base;
				def.anchor = anchor;
				joint = cnCreateBallJoint( s->world, &def );
				break;
			}
			case cnJoint_hinge:
			{
				cnHingeJointDef def = cnDefaultHingeJointDef();
				def.base = base;
				def.anchor = anchor;
				def.axis = axis;
				def.enableLimit = cnSoakChance( s, 0.5 );
				def.lowerAngle = -cnSoakUniform( s, 0.1, 1.5 );
				def.upperAngle = cnSoakUniform( s, 0.1, 1.5 );
				joint = cnCreateHingeJoint( s->world, &def );
				break;
			}
			case cnJoint_slider:
			{
				cnSliderJointDef def = cnDefaultSliderJointDef();
				def.base = base;
				def.anchor = center;
				def.axis = axis;
				def.enableLimit = true;
				def.lowerTranslation = -cnSoakUniform( s, 0.0, 0.2 );
				def.upperTranslation = cnSoakUniform( s, 0.0, 0.2 );
				joint = cnCreateSliderJoint( s->world, &def );
				break;
			}
			case cnJoint_universal:
			{
				cnUniversalJointDef def = cnDefaultUniversalJointDef();
				def.base = base;
				def.anchor = anchor;
				joint = cnCreateUniversalJoint( s->world, &def );
				break;
			}
			case cnJoint_coneTwist:
			{
				cnConeTwistJointDef def = cnDefaultConeTwistJointDef();
				def.base = base;
				def.anchor = anchor;
				def.axis = cnV3( 0.0, 0.0, -1.0 );
				joint = cnCreateConeTwistJoint( s->world, &def );
				break;
			}
			case cnJoint_fixed:
			{
				cnFixedJointDef def = cnDefaultFixedJointDef();
				def.base = base;
				def.anchor = anchor;
				joint = cnCreateFixedJoint( s->world, &def );
				break;
			}
			case cnJoint_distance:
			{
				cnDistanceJointDef def = cnDefaultDistanceJointDef();
				def.base = base;
				def.anchorA = cnAdd( center, cnV3( 0.0, 0.0, half ) );
				def.anchorB = anchor;
				if ( cnSoakChance( s, 0.5 ) )
				{
					// a rope: slack up to its length
					def.minLength = 0.0;
					def.maxLength = cnDistance( def.anchorA, def.anchorB ) + 0.05;
				}
				joint = cnCreateDistanceJoint( s->world, &def );
				break;
			}
			case cnJoint_spring:
			{
				cnSpringJointDef def = cnDefaultSpringJointDef();
				def.base = base;
				def.anchorA = cnAdd( center, cnV3( 0.0, 0.0, half ) );
				def.anchorB = anchor;
				// stiff enough to carry the links below it without stretching to the floor
				def.stiffness = cnSoakUniform( s, 200.0, 1000.0 );
				def.damping = cnSoakChance( s, 0.5 ) ? cnSoakUniform( s, 0.0, 2.0 ) : 0.0;
				joint = cnCreateSpringJoint( s->world, &def );
				break;
			}
			case cnJoint_damper:
			{
				// a damper alone would let the link fall: a ball joint holds it, the damper works beside
				cnBallJointDef ball = cnDefaultBallJointDef();
				ball.base = base;
				ball.anchor = anchor;
				cnSoakAddJointRecord( s, cnCreateBallJoint( s->world, &ball ), s->bodyCount - 1, previousRecord );
				cnDamperJointDef def = cnDefaultDamperJointDef();
				def.base = base;
				def.anchorA = cnAdd( center, cnV3( half, 0.0, 0.0 ) );
				def.anchorB = cnAdd( anchor, cnV3( 0.0, 0.3, 0.0 ) );
				def.damping = cnSoakUniform( s, 0.1, 2.0 );
				joint = cnCreateDamperJoint( s->world, &def );
				break;
			}
			default:
			{
				// a point on a vertical plane through the anchor, and a rope that keeps it from falling
				cnPointOnPlaneJointDef def = cnDefaultPointOnPlaneJointDef();
				def.base = base;
				def.anchor = anchor;
				def.normal = cnV3( 1.0, 0.0, 0.0 );
				cnSoakAddJointRecord( s, cnCreatePointOnPlaneJoint( s->world, &def ), s->bodyCount - 1, previousRecord );
				cnDistanceJointDef rope = cnDefaultDistanceJointDef();
				rope.base = base;
				rope.anchorA = anchor;
				rope.anchorB = anchor;
				rope.minLength = 0.0;
				rope.maxLength = 0.05;
				joint = cnCreateDistanceJoint( s->world, &rope );
				break;
			}
		}
		cnSoakAddJointRecord( s, joint, s->bodyCount - 1, previousRecord );
		previous = id;
		previousRecord = s->bodyCount - 1;
		anchor = cnAdd( center, cnV3( 0.0, 0.0, -half ) );
	}
}

// Builds the scene of a seed: the method from its low bits, everything else from the generator.
static void cnSoakBuild( cnSoakScene* s, const cnSoakOptions* o )
{
	s->method = (cnMethod)( s->seed & 7 );
	s->rng.state = s->seed;
	lcgNext( &s->rng );

	cnWorldDef wd = cnDefaultWorldDef();
	wd.method = s->method;
	wd.enableSleep = cnSoakChance( s, 0.7 );
	s->world = cnCreateWorld( &wd );
	if ( s->world == NULL )
	{
		fprintf( stderr, "soak: the world was refused: %s\n", cnGetError() );
		exit( 2 );
	}
	s->gravity = -wd.gravity.z;
	s->timeStep = 1.0 / 60.0;
	s->integratorStep = 0.0;
	if ( s->method == cnMethod_impulse )
	{
		s->integratorStep = s->timeStep / wd.settings.impulse.subSteps;
	}
	else if ( ( cnMethod_GetFlags( s->method ) & cnMethodFlag_velocityLevel ) != 0 )
	{
		s->integratorStep = s->timeStep;
	}

	// materials: material 0 plus a few random ones (restitution up to 1)
	s->materials[0] = 0;
	s->materialCount = 2 + cnSoakInt( s, CN_SOAK_MAX_MATERIALS - 1 );
	for ( int i = 1; i < s->materialCount; ++i )
	{
		cnMaterialDef md = cnDefaultMaterialDef();
		md.density = cnSoakUniform( s, 100.0, 5000.0 );
		md.friction = cnSoakUniform( s, 0.0, 1.0 );
		md.restitution = cnSoakChance( s, 0.5 ) ? cnSoakUniform( s, 0.0, 1.0 ) : 0.0;
		s->materials[i] = cnCreateMaterial( s->world, &md );
	}

	// the floor: an infinite plane, or a wide box, with its top at z = 0
	if ( cnSoakChance( s, 0.5 ) )
	{
		cnBodyDef bd = cnDefaultBodyDef();
		bd.type = cnBody_static;
		cnBodyId id = cnCreateBody( s->world, &bd );
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = cnShape_plane;
		sd.normal = cnV3( 0.0, 0.0, 1.0 );
		sd.material = s->materials[cnSoakInt( s, s->materialCount )];
		cnCreateShape( s->world, id, &sd );
		cnSoakBody* rec = cnSoakAddRecord( s );
		rec->id = id;
		rec->type = cnBody_static;
		rec->alive = true;
		rec->shapeCount = 1;
	}
	else
	{
		cnSoakAddBox( s, cnBody_static, cnV3( 0.0, 0.0, -1.0 ), cnQuat_identity, cnV3( 500.0, 500.0, 1.0 ) );
	}

	// how many bodies: log-uniform from 10 to the method's limit
	int limit = o->maxBodies;
	if ( cnSoakAdaptive( s->method ) )
	{
		limit = limit < CN_SOAK_MAX_ADAPTIVE ? limit : CN_SOAK_MAX_ADAPTIVE;
	}
	else if ( s->method != cnMethod_impulse )
	{
		limit = limit < CN_SOAK_MAX_VELOCITY ? limit : CN_SOAK_MAX_VELOCITY;
	}
	limit = limit > 10 ? limit : 10;
	int target = (int)floor( 10.0 * pow( (double)limit / 10.0, cnSoakUniform( s, 0.0, 1.0 ) ) + 0.5 );
	double maxSize = cnSoakUniform( s, 0.08, 0.4 );
	bool moving = cnSoakChance( s, 0.6 );

	// static obstacles on the floor: tilted boxes the bodies fall on
	double spread = 1.0 + sqrt( (double)target ) * 2.2 * maxSize;
	int obstacles = cnSoakInt( s, 3 );
	for ( int i = 0; i < obstacles; ++i )
	{
		cnVec3 half = cnSoakUniformVec( s, cnV3( 0.2, 0.2, 0.05 ), cnV3( 1.0, 1.0, 0.3 ) );
		cnVec3 p = cnSoakUniformVec( s, cnV3( -spread, -spread, half.z ), cnV3( spread, spread, half.z ) );
		cnSoakAddBox( s, cnBody_static, p, cnQuatFromAxisAngle( cnV3( 1.0, 0.0, 0.0 ), cnSoakUniform( s, -0.3, 0.3 ) ), half );
	}

	// stacks of boxes beside the pile, resting exactly on each other
	int stacks = cnSoakChance( s, 0.4 ) ? 1 + cnSoakInt( s, 3 ) : 0;
	int made = 0;
	for ( int k = 0; k < stacks && made < target / 2; ++k )
	{
		int height = 2 + cnSoakInt( s, 6 );
		double h = cnSoakUniform( s, 0.05, 0.25 );
		double x = spread + 2.5 + 2.0 * k;
		for ( int i = 0; i < height && made < target / 2; ++i )
		{
			cnBodyDef bd = cnDefaultBodyDef();
			bd.position = cnV3( x, 0.0, h + 2.0 * h * i + 0.001 * i );
			cnBodyId id = cnCreateBody( s->world, &bd );
			cnShapeDef sd = cnDefaultShapeDef();
			sd.type = cnShape_box;
			sd.halfExtents = cnV3( 2.0 * h, 2.0 * h, h );
			sd.material = s->materials[cnSoakInt( s, s->materialCount )];
			cnCreateShape( s->world, id, &sd );
			cnSoakBody* rec = cnSoakAddRecord( s );
			rec->id = id;
			rec->type = cnBody_dynamic;
			rec->alive = true;
			rec->shapeCount = 1;
			rec->extent = cnLength( sd.halfExtents );
			rec->mass = cnBody_GetMass( s->world, id );
			made += 1;
		}
	}

	// chains of joints hanging from the world beside the pile
	int chains = cnSoakChance( s, 0.5 ) ? 1 + cnSoakInt( s, 3 ) : 0;
	for ( int k = 0; k < chains && made + 5 < target; ++k )
	{
		int before = s->bodyCount;
		cnSoakAddChain( s, cnV3( -spread - 2.5 - 1.5 * k, 0.0, 1.5 ) );
		made += s->bodyCount - before;
	}

	// the pile: the rest on a grid of cells that cannot overlap, dropped from up to a few metres
	int rest = target - made;
	double cell = 2.0 * maxSize * 1.9 + 0.02;
	int layers = 1 + cnSoakInt( s, 8 );
	int side = (int)ceil( sqrt( (double)rest / layers ) );
	side = side > 0 ? side : 1;
	double base = cnSoakUniform( s, 0.0, 1.5 );
	for ( int i = 0; i < rest; ++i )
	{
		int column = i % side, row = ( i / side ) % side, layer = i / ( side * side );
		double size = cnSoakUniform( s, 0.3, 1.0 ) * maxSize;
		double room = 0.5 * cell - 1.9 * size;
		cnVec3 jitter = cnSoakUniformVec( s, cnV3( -room, -room, 0.0 ), cnV3( room, room, 0.0 ) );
		cnVec3 p = cnAdd( cnV3( ( column - 0.5 * side ) * cell, ( row - 0.5 * side ) * cell, base + 0.5 * cell + layer * cell ),
						  jitter );
		// above the obstacles: they reach at most 0.9 m up
		p.z += obstacles > 0 ? 1.0 : 0.0;
		cnSoakAddDynamic( s, p, size, moving );
		s->spawnHeight = fmax( s->spawnHeight, p.z + 2.0 );
	}

	// inputs and events, now and then
	s->spawnHeight = fmax( s->spawnHeight, 4.0 );
	s->paddle = -1;
	s->kinematicStop = 0.0;
	if ( cnSoakChance( s, 0.15 ) )
	{
		s->paddle = cnSoakAddBox( s, cnBody_kinematic, cnV3( -spread, 0.0, 0.3 ), cnQuat_identity, cnV3( 0.1, 2.0, 0.3 ) );
		cnBody_SetLinearVelocity( s->world, s->bodies[s->paddle].id, cnV3( 1.5, 0.0, 0.0 ) );
		s->kinematicStop = cnSoakUniform( s, 0.3, 1.5 );
	}
	s->forceT0 = s->forceT1 = -1.0;
	if ( cnSoakChance( s, 0.2 ) )
	{
		// a push on a dynamic body for a while
		int k = cnSoakInt( s, s->bodyCount );
		while ( s->bodies[k].type != cnBody_dynamic )
		{
			k = ( k + 1 ) % s->bodyCount;
		}
		cnForceDef fd = cnDefaultForceDef();
		fd.body = s->bodies[k].id;
		cnVec3 direction = cnNormalize( cnSoakUniformVec( s, cnV3( -1.0, -1.0, 0.5 ), cnV3( 1.0, 1.0, 0.5 ) ) );
		fd.vector = cnMulSV( s->bodies[k].mass * 20.0, direction );
		fd.t0 = s->forceT0 = cnSoakUniform( s, 0.1, 1.0 );
		fd.t1 = s->forceT1 = fd.t0 + cnSoakUniform( s, 0.05, 0.5 );
		cnCreateForce( s->world, &fd );
		s->forceCount = 1;
		s->forceBody = k;
	}

	// how long: 2 to 6 simulated seconds, less for big scenes (a few seconds of wall time each)
	double seconds = cnSoakUniform( s, 2.0, 6.0 );
	int work = cnSoakAdaptive( s->method ) ? 3000 : ( s->method == cnMethod_impulse ? 300000 : 30000 );
	int steps = (int)( seconds / s->timeStep );
	int most = work / ( s->bodyCount > 0 ? s->bodyCount : 1 );
	steps = steps < most ? steps : most;
	s->steps = steps > 60 ? steps : 60;
	s->destroyStep = cnSoakChance( s, 0.3 ) ? cnSoakInt( s, s->steps ) : -1;
	s->spawnStep = cnSoakChance( s, 0.3 ) ? cnSoakInt( s, s->steps ) : -1;
}

// ---------------------------------------------------------------------------------------------
// the invariants

// The energy the step keeps without input, J: kinetic energy, gravity's potential energy -m g.x
// (cnWorld_GetPotentialEnergy: zero at the origin, so m g z above the floor), the springs' elastic
// energy k (l - rest)^2 / 2, and the term by which symplectic Euler's invariant differs from the
// mechanical energy: in free flight v' = v + g h, x' = x + h v' keeps E = |v|^2/2 - g.x + h (g.v)/2
// per unit mass exactly, while |v|^2/2 - g.x alone swings by g h |v| around it. h is the step of the
// method's integrator: the sub-step for impulse, the step for the velocity-level methods, 0 for the
// adaptive ones (their Runge-Kutta steps keep the mechanical energy itself to their tolerance).
static double cnSoakEnergy( const cnSoakScene* s )
{
	double energy = cnWorld_GetKineticEnergy( s->world ) + cnWorld_GetPotentialEnergy( s->world );
	double gh = -s->gravity * s->integratorStep;
	for ( int i = 0; i < s->bodyCount && gh != 0.0; ++i )
	{
		const cnSoakBody* b = s->bodies + i;
		if ( b->alive && b->type == cnBody_dynamic )
		{
			energy += 0.5 * b->mass * gh * cnBody_GetLinearVelocity( s->world, b->id ).z;
		}
	}
	for ( int i = 0; i < s->jointCount; ++i )
	{
		double stiffness, damping, rest;
		cnJointId id = s->joints[i].id;
		if ( cnJoint_GetType( s->world, id ) == cnJoint_spring && cnJoint_IsBroken( s->world, id ) == false &&
			 cnJoint_GetSpring( s->world, id, &stiffness, &damping, &rest ) )
		{
			double stretch = cnJoint_GetPosition( s->world, id ) - rest;
			energy += 0.5 * stiffness * stretch * stretch;
		}
	}
	return energy;
}

// The scale of the energy invariant, J: what the bodies could give away in falling to the floor and
// stopping, |g| sum m (z + extent) + KE, so that a scene at rest on the floor still has a scale.
static double cnSoakEnergyScale( const cnSoakScene* s )
{
	double scale = cnWorld_GetKineticEnergy( s->world );
	for ( int i = 0; i < s->bodyCount; ++i )
	{
		const cnSoakBody* b = s->bodies + i;
		if ( b->alive && b->type == cnBody_dynamic )
		{
			double z = cnBody_GetWorldCenterOfMass( s->world, b->id ).z;
			scale += b->mass * s->gravity * fmax( z + b->extent, b->extent );
		}
	}
	return scale;
}

// penalty and analytic-impulse resolve contacts (analytic-impulse its resting ones) with springs
// whose energy cnSoakEnergy cannot see: it dips while they are compressed and comes back as they
// release, so only the budget check applies to them
static bool cnSoakContactsStoreEnergy( cnMethod method )
{
	return method == cnMethod_penalty || method == cnMethod_analyticImpulse;
}

static bool cnSoakInputActive( const cnSoakScene* s, double t0 )
{
	// the kinematic paddle moves until its stop time; a force acts on steps that start in its window
	bool paddle = s->paddle >= 0 && t0 < s->kinematicStop + 1e-9;
	bool force = t0 >= s->forceT0 - 1e-9 && t0 < s->forceT1 + 1e-9;
	return paddle || force;
}

// Checks every invariant after a step; returns the number of violations found (reported).
static int cnSoakCheck( cnSoakScene* s, const cnSoakOptions* o, bool input, double expectedTime )
{
	char detail[512];
	int violations = 0;
	cnWorld* w = s->world;

	// bookkeeping: counts, ids, masses, time
	int liveBodies = 0, liveShapes = 0;
	for ( int i = 0; i < s->bodyCount; ++i )
	{
		cnSoakBody* b = s->bodies + i;
		bool valid = cnBody_IsValid( w, b->id );
		if ( valid != b->alive )
		{
			snprintf( detail, sizeof( detail ), "body id is %s but the scene %s it", valid ? "valid" : "stale",
					  b->alive ? "did not destroy" : "destroyed" );
			cnSoakReport( s, o, i, "bookkeeping (ids)", detail );
			return violations + 1;
		}
		if ( b->alive == false )
		{
			continue;
		}
		liveBodies += 1;
		liveShapes += b->shapeCount;
		int shapes = cnBody_GetShapeCount( w, b->id );
		if ( shapes != b->shapeCount )
		{
			snprintf( detail, sizeof( detail ), "body has %d shapes, the scene made %d", shapes, b->shapeCount );
			cnSoakReport( s, o, i, "bookkeeping (shapes)", detail );
			violations += 1;
		}
		if ( b->type == cnBody_dynamic && cnBody_GetMass( w, b->id ) != b->mass )
		{
			snprintf( detail, sizeof( detail ), "mass %.17g kg, created with %.17g kg", cnBody_GetMass( w, b->id ), b->mass );
			cnSoakReport( s, o, i, "bookkeeping (mass)", detail );
			violations += 1;
		}

		// finite state
		cnVec3 p = cnBody_GetWorldCenterOfMass( w, b->id );
		cnQuat q = cnBody_GetOrientation( w, b->id );
		cnVec3 v = cnBody_GetLinearVelocity( w, b->id );
		cnVec3 omega = cnBody_GetAngularVelocity( w, b->id );
		if ( !cnIsValidVec3( p ) || !cnIsValidVec3( v ) || !cnIsValidVec3( omega ) ||
			 !isfinite( q.w + q.x + q.y + q.z ) || fabs( cnQuatLength( q ) - 1.0 ) > 1e-6 )
		{
			snprintf( detail, sizeof( detail ), "centre (%g, %g, %g), velocity (%g, %g, %g), |q| = %.9g", p.x, p.y, p.z, v.x,
					  v.y, v.z, cnQuatLength( q ) );
			cnSoakReport( s, o, i, "finite state", detail );
			violations += 1;
			continue;
		}

		// floor, except for a body that turned more than CN_SOAK_MAX_TURN in a step in the last
		// CN_SOAK_SPIN_MEMORY steps
		if ( cnLength( omega ) * s->timeStep > CN_SOAK_MAX_TURN )
		{
			s->fastSpinBodies += b->lastFastSpin < 0 ? 1 : 0;
			b->lastFastSpin = s->stepsTaken;
		}
		bool spinning = b->lastFastSpin >= 0 && s->stepsTaken - b->lastFastSpin <= CN_SOAK_SPIN_MEMORY;
		bool below = b->type == cnBody_dynamic && p.z < -( b->extent + CN_SOAK_FLOOR_SLOP );
		if ( below && ( spinning || b->lostInSpin ) )
		{
			// through the floor in a spin: counted once, and not checked again (under the floor it
			// may stop spinning long before the floor's contact brings it back)
			s->spinLostBodies += b->lostInSpin ? 0 : 1;
			b->lostInSpin = true;
			s->floorExempt += 1;
		}
		else if ( below )
		{
			snprintf( detail, sizeof( detail ), "centre of mass at z = %.6g m, below -(extent %.4g m + slop %.2g m)", p.z,
					  b->extent, CN_SOAK_FLOOR_SLOP );
			cnSoakReport( s, o, i, "floor", detail );
			violations += 1;
		}
	}
	for ( int i = 0; i < s->jointCount; ++i )
	{
		if ( cnJoint_IsValid( w, s->joints[i].id ) == false )
		{
			snprintf( detail, sizeof( detail ), "joint %d (bodies %d and %d) is stale, but neither body was destroyed", i,
					  s->joints[i].a, s->joints[i].b );
			cnSoakReport( s, o, s->joints[i].a, "bookkeeping (joints)", detail );
			return violations + 1;
		}
	}
	cnStats stats = cnWorld_GetStats( w );
	int forces = cnWorld_GetForceCount( w );
	int joints = cnWorld_GetJointCount( w );
	if ( cnWorld_GetBodyCount( w ) != liveBodies || stats.bodyCount != liveBodies || stats.shapeCount != liveShapes ||
		 stats.awakeBodyCount > liveBodies || stats.touchingCount > stats.contactCount || stats.stepCount != s->stepsTaken ||
		 forces != s->forceCount || joints != s->jointCount || stats.bytes <= 0 ||
		 fabs( cnWorld_GetTime( w ) - expectedTime ) > 1e-9 * ( 1.0 + expectedTime ) )
	{
		snprintf( detail, sizeof( detail ),
				  "world: %d bodies (stats %d, awake %d), %d shapes, %d joints, %d forces, %" PRId64
				  " steps, t = %.12g, %" PRId64 " bytes; scene: %d bodies, %d shapes, %d joints, %d forces, %" PRId64
				  " steps, t = %.12g",
				  cnWorld_GetBodyCount( w ), stats.bodyCount, stats.awakeBodyCount, stats.shapeCount, joints, forces,
				  stats.stepCount, cnWorld_GetTime( w ), stats.bytes, liveBodies, liveShapes, s->jointCount, s->forceCount,
				  s->stepsTaken, expectedTime );
		cnSoakReport( s, o, -1, "bookkeeping (world)", detail );
		violations += 1;
	}

	// energy: no growth without input beyond the tolerance
	double energy = cnSoakEnergy( s );
	if ( o->trace )
	{
		printf( "step %" PRId64 " t %.4f energy %.9g min %.9g ke %.6g pe %.6g awake %d touching %d points %d"
				" continuous %" PRId64 " fallbacks %" PRId64 " %" PRId64 " %" PRId64 "%s\n",
				s->stepsTaken, cnWorld_GetTime( w ), energy, s->energyMin, cnWorld_GetKineticEnergy( w ),
				cnWorld_GetPotentialEnergy( w ), stats.awakeBodyCount, stats.touchingCount, stats.manifoldPointCount,
				stats.continuousHitCount, stats.grFallbackCount, stats.frictionFallbackCount,
				stats.compliantFallbackCount, input ? " input" : "" );
	}
	if ( o->watch >= 0 && o->watch < s->bodyCount && s->bodies[o->watch].alive )
	{
		cnBodyId id = s->bodies[o->watch].id;
		cnVec3 p = cnBody_GetWorldCenterOfMass( w, id );
		cnVec3 v = cnBody_GetLinearVelocity( w, id );
		cnVec3 omega = cnBody_GetAngularVelocity( w, id );
		cnQuat q = cnBody_GetOrientation( w, id );
		printf( "step %" PRId64 " body %d centre %.6f %.6f %.6f q %.5f %.5f %.5f %.5f v %.5f %.5f %.5f w %.4f %.4f %.4f "
				"contacts %d awake %d\n",
				s->stepsTaken, o->watch, p.x, p.y, p.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, omega.x, omega.y, omega.z,
				cnBody_GetContactCount( w, id ), cnBody_IsAwake( w, id ) );
	}
	if ( input || s->energyValid == false )
	{
		s->energyRef = s->energyMin = energy;
		s->energyScale = cnSoakEnergyScale( s );
		s->energyValid = input == false;
		return violations;
	}
	double budget = energy - s->energyRef;
	double local = energy - s->energyMin;
	double scale = s->energyScale > 0.0 ? s->energyScale : 1.0;
	s->worstBudgetRatio = fmax( s->worstBudgetRatio, budget / scale );
	s->worstLocalRatio = fmax( s->worstLocalRatio, local / scale );
	bool localChecked = cnSoakContactsStoreEnergy( s->method ) == false;
	if ( budget > CN_SOAK_BUDGET_TOLERANCE * scale || ( localChecked && local > CN_SOAK_LOCAL_TOLERANCE * scale ) )
	{
		snprintf( detail, sizeof( detail ),
				  "energy %.9g J: %.3g%% of the scale %.6g J above the energy after the last input (%.9g J; at most "
				  "%.3g%%), %.3g%% above its smallest since then (%.9g J; at most %.3g%%%s)",
				  energy, 100.0 * budget / scale, scale, s->energyRef, 100.0 * CN_SOAK_BUDGET_TOLERANCE,
				  100.0 * local / scale, s->energyMin, 100.0 * CN_SOAK_LOCAL_TOLERANCE,
				  localChecked ? "" : ", not checked: this method's contacts store energy" );
		cnSoakReport( s, o, -1, "energy", detail );
		violations += 1;
		// report a growth once: the references follow it
		s->energyRef = fmax( s->energyRef, energy );
		s->energyMin = energy;
	}
	s->energyMin = fmin( s->energyMin, energy );
	return violations;
}

// ---------------------------------------------------------------------------------------------
// running

// Destroys a random dynamic body.
static void cnSoakDestroyOne( cnSoakScene* s )
{
	int k = cnSoakInt( s, s->bodyCount );
	for ( int tries = 0; tries < s->bodyCount; ++tries, k = ( k + 1 ) % s->bodyCount )
	{
		if ( s->bodies[k].alive && s->bodies[k].type == cnBody_dynamic )
		{
			cnDestroyBody( s->world, s->bodies[k].id );
			s->bodies[k].alive = false;
			// its joints and the force on it go with it (cnDestroyBody)
			int kept = 0;
			for ( int j = 0; j < s->jointCount; ++j )
			{
				if ( s->joints[j].a != k && s->joints[j].b != k )
				{
					s->joints[kept++] = s->joints[j];
				}
			}
			s->jointCount = kept;
			if ( s->forceCount > 0 && s->forceBody == k )
			{
				s->forceCount = 0;
			}
			return;
		}
	}
}

// Runs one scene to its end (or the deadline); returns its violations.
static int cnSoakRunScene( cnSoakScene* s, const cnSoakOptions* o, double deadline )
{
	int violations = 0;
	double time = 0.0;
	for ( int step = 0; step < s->steps; ++step )
	{
		if ( cnSoakNow() > deadline )
		{
			break;
		}
		bool input = cnSoakInputActive( s, time );
		if ( s->paddle >= 0 && time >= s->kinematicStop && cnBody_IsValid( s->world, s->bodies[s->paddle].id ) )
		{
			cnBody_SetLinearVelocity( s->world, s->bodies[s->paddle].id, cnVec3_zero );
			cnBody_SetAngularVelocity( s->world, s->bodies[s->paddle].id, cnVec3_zero );
		}
		if ( step == s->destroyStep )
		{
			cnSoakDestroyOne( s );
		}
		if ( step == s->spawnStep )
		{
			// a body dropped from above the scene: energy comes in with it
			cnVec3 at = cnSoakUniformVec( s, cnV3( -1.0, -1.0, s->spawnHeight ), cnV3( 1.0, 1.0, s->spawnHeight ) );
			cnSoakAddDynamic( s, at, 0.2, true );
			input = true;
		}
		if ( cnWorld_Step( s->world, s->timeStep ) == false )
		{
			char detail[512];
			snprintf( detail, sizeof( detail ), "cnWorld_Step failed: %s (%s)", cnGetError(), cnErrorCodeName( cnGetErrorCode() ) );
			cnSoakReport( s, o, -1, "finite state (step)", detail );
			return violations + 1;
		}
		s->stepsTaken += 1;
		time += s->timeStep;
		violations += cnSoakCheck( s, o, input, time );
		if ( violations > 0 && o->keepGoing == false )
		{
			return violations;
		}
		if ( violations > 10 )
		{
			// one broken scene says enough
			return violations;
		}
	}
	return violations;
}

static void cnSoakFree( cnSoakScene* s )
{
	cnDestroyWorld( s->world );
	free( s->bodies );
	free( s->joints );
	memset( s, 0, sizeof( *s ) );
}

static void cnSoakUsage( void )
{
	fprintf( stderr, "usage: cairn_soak [--seconds N] [--seed S] [--max-bodies M] [--scenes N] [--method NAME] [--keep-going]\n"
					 "                  [--verbose]\n"
					 "       cairn_soak --replay SCENESEED [--max-bodies M] [--verbose] [--trace] [--watch BODY]\n" );
}

static bool cnSoakParse( int argc, char** argv, cnSoakOptions* o )
{
	o->seconds = 60.0;
	o->seed = 1;
	o->maxBodies = 2000;
	o->method = -1;
	o->watch = -1;
	for ( int i = 1; i < argc; ++i )
	{
		const char* a = argv[i];
		const char* value = i + 1 < argc ? argv[i + 1] : NULL;
		if ( strcmp( a, "--keep-going" ) == 0 )
		{
			o->keepGoing = true;
			continue;
		}
		if ( strcmp( a, "--verbose" ) == 0 )
		{
			o->verbose = true;
			continue;
		}
		if ( strcmp( a, "--trace" ) == 0 )
		{
			o->trace = true;
			continue;
		}
		if ( value == NULL )
		{
			return false;
		}
		i += 1;
		if ( strcmp( a, "--seconds" ) == 0 )
		{
			o->seconds = strtod( value, NULL );
		}
		else if ( strcmp( a, "--seed" ) == 0 )
		{
			o->seed = strtoull( value, NULL, 0 );
		}
		else if ( strcmp( a, "--max-bodies" ) == 0 )
		{
			o->maxBodies = atoi( value );
		}
		else if ( strcmp( a, "--scenes" ) == 0 )
		{
			o->maxScenes = atoi( value );
		}
		else if ( strcmp( a, "--replay" ) == 0 )
		{
			o->replay = true;
			o->replaySeed = strtoull( value, NULL, 0 );
		}
		else if ( strcmp( a, "--watch" ) == 0 )
		{
			o->watch = atoi( value );
		}
		else if ( strcmp( a, "--method" ) == 0 )
		{
			cnMethod m;
			if ( cnMethod_FromName( value, &m ) == false )
			{
				fprintf( stderr, "soak: %s\n", cnGetError() );
				return false;
			}
			o->method = (int)m;
		}
		else
		{
			return false;
		}
	}
	return o->seconds >= 0.0 && o->maxBodies >= 10 && o->maxScenes >= 0;
}

int main( int argc, char** argv )
{
	cnSoakOptions o = { 0 };
	if ( cnSoakParse( argc, argv, &o ) == false )
	{
		cnSoakUsage();
		return 2;
	}
	if ( cnSoakFast() && o.seconds > 45.0 )
	{
		// CI's sanitizer run: a shorter soak
		o.seconds = 45.0;
	}
	double start = cnSoakNow();
	double deadline = o.replay ? INFINITY : start + o.seconds;
	cnSoakTotals totals = { 0 };
	int sceneLimit = o.replay ? 1 : ( o.maxScenes > 0 ? o.maxScenes : INT32_MAX );
	for ( int index = 0; index < sceneLimit && cnSoakNow() < deadline; ++index )
	{
		cnSoakScene scene = { 0 };
		scene.index = index;
		if ( o.replay )
		{
			scene.seed = o.replaySeed;
		}
		else
		{
			// the low three bits pick the method: every method in turn (or the one asked for)
			int method = o.method >= 0 ? o.method : index % cnMethod_count;
			scene.seed = ( cnSoakMix( o.seed * 0x100000001b3ull + (uint64_t)index ) & ~(uint64_t)7 ) | (uint64_t)method;
		}
		cnSoakBuild( &scene, &o );
		int bodies = scene.bodyCount;
		int violations = cnSoakRunScene( &scene, &o, deadline );
		uint64_t hash = cnWorld_Hash( scene.world );
		totals.scenes += 1;
		totals.steps += scene.stepsTaken;
		totals.bodies += bodies;
		totals.violations += violations;
		totals.fastSpinBodies += scene.fastSpinBodies;
		totals.spinLostBodies += scene.spinLostBodies;
		totals.floorExempt += scene.floorExempt;
		totals.scenesPerMethod[scene.method] += 1;
		totals.stepsPerMethod[scene.method] += scene.stepsTaken;
		totals.worstBudgetRatio[scene.method] = fmax( totals.worstBudgetRatio[scene.method], scene.worstBudgetRatio );
		totals.worstLocalRatio[scene.method] = fmax( totals.worstLocalRatio[scene.method], scene.worstLocalRatio );
		if ( o.verbose )
		{
			printf( "scene %d seed 0x%016" PRIx64 " %-22s %5d bodies %5" PRId64 "/%d steps, energy gain %.3g%% / %.3g%% of "
					"scale, hash %016" PRIx64 ", %.2f s\n",
					index, scene.seed, cnMethod_GetName( scene.method ), bodies, scene.stepsTaken, scene.steps,
					100.0 * scene.worstBudgetRatio, 100.0 * scene.worstLocalRatio, hash, cnSoakNow() - start );
			fflush( stdout );
		}
		cnSoakFree( &scene );
		if ( violations > 0 && o.keepGoing == false )
		{
			break;
		}
	}
	printf( "soak: seed %" PRIu64 ", %.0f s: %d scenes, %" PRId64 " steps, %" PRId64 " bodies, %d violations\n", o.seed,
			cnSoakNow() - start, totals.scenes, totals.steps, totals.bodies, totals.violations );
	printf( "  %d bodies turned more than pi/4 in a step; %d of them went below the floor within 30 steps of such a "
			"turn (the floor check left out %" PRId64 " body-steps of theirs)\n",
			totals.fastSpinBodies, totals.spinLostBodies, totals.floorExempt );
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		printf( "  %-22s %5d scenes %9" PRId64 " steps; largest energy gain over the last input %.3g%%, over the smallest since %.3g%% of scale\n",
				cnMethod_GetName( (cnMethod)m ), totals.scenesPerMethod[m], totals.stepsPerMethod[m],
				100.0 * totals.worstBudgetRatio[m], 100.0 * totals.worstLocalRatio[m] );
	}
	return totals.violations > 0 ? 1 : 0;
}
