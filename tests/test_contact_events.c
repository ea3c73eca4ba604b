// SPDX-License-Identifier: MIT
// Contact events (cairn/query.h) in every contact method: a ball dropped on the ground begins
// touching once, reports one hit whose approach speed is the free-fall speed sqrt(2 g h), ends
// touching when it bounces off and when it is destroyed; events are opt-in per shape, hits obey the
// world's threshold, and a ball that falls asleep on the ground keeps touching.
#include "test.h"

#include "cairn/cairn.h"

#define G 9.81

static bool sameShape( cnShapeId a, cnShapeId b )
{
	return a.index == b.index && a.generation == b.generation;
}

typedef struct Drop
{
	cnWorld* world;
	cnBodyId ball;
	cnShapeId ballShape, groundShape;
} Drop;

// A ball of radius 0.1 with its lowest point h above a ground plane z = 0, restitution e, no
// friction; the ball asks for hit events when hits is set.
static Drop makeDrop( cnMethod method, double h, double e, bool hits )
{
	Drop d;
	cnWorldDef def = cnDefaultWorldDef();
	def.method = method;
	def.gravity = cnV3( 0.0, 0.0, -G );
	d.world = cnCreateWorld( &def );
	cnMaterialDef md = cnDefaultMaterialDef();
	md.friction = 0.0;
	md.restitution = e;
	cnMaterialId m = cnCreateMaterial( d.world, &md );

	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	cnBodyId ground = cnCreateBody( d.world, &gd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_plane;
	sd.normal = cnV3( 0.0, 0.0, 1.0 );
	sd.material = m;
	d.groundShape = cnCreateShape( d.world, ground, &sd );

	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( 0.0, 0.0, h + 0.1 );
	d.ball = cnCreateBody( d.world, &bd );
	sd = cnDefaultShapeDef();
	sd.type = cnShape_sphere;
	sd.radius = 0.1;
	sd.material = m;
	sd.enableHitEvents = hits;
	d.ballShape = cnCreateShape( d.world, d.ball, &sd );
	return d;
}

// The events of one step between the ball and the ground (there is no other pair).
typedef struct Tally
{
	int begins, ends, hits;
	// steps at which the first begin, end and hit came (-1: none yet)
	int firstBegin, firstEnd, firstHit;
	// hits between the first begin and the first end
	int hitsInFirstTouch;
	cnContactHitEvent hit;
	bool paired;
} Tally;

static void tallyStep( Tally* t, const Drop* d, int step )
{
	cnContactEvents ev = cnWorld_GetContactEvents( d->world );
	for ( int i = 0; i < ev.beginCount; ++i )
	{
		bool ours = ( sameShape( ev.beginEvents[i].shapeIdA, d->groundShape ) &&
					  sameShape( ev.beginEvents[i].shapeIdB, d->ballShape ) ) ||
					( sameShape( ev.beginEvents[i].shapeIdB, d->groundShape ) &&
					  sameShape( ev.beginEvents[i].shapeIdA, d->ballShape ) );
		CHECK( ours );
	}
	t->begins += ev.beginCount;
	t->ends += ev.endCount;
	// a begin and its end alternate: touching at most once, never ended more often than begun
	t->paired = t->paired && ( t->begins - t->ends == 0 || t->begins - t->ends == 1 );
	if ( ev.beginCount > 0 && t->firstBegin < 0 )
	{
		t->firstBegin = step;
	}
	if ( ev.endCount > 0 && t->firstEnd < 0 )
	{
		t->firstEnd = step;
	}
	if ( ev.hitCount > 0 )
	{
		if ( t->firstHit < 0 )
		{
			t->firstHit = step;
			t->hit = ev.hitEvents[0];
		}
		if ( t->firstBegin >= 0 && t->firstEnd < 0 )
		{
			t->hitsInFirstTouch += ev.hitCount;
		}
	}
	t->hits += ev.hitCount;
}

static Tally newTally( void )
{
	Tally t = { 0 };
	t.firstBegin = t.firstEnd = t.firstHit = -1;
	t.paired = true;
	return t;
}

// The drop in one method: begin, one hit at sqrt(2 g h), end on the bounce, end on destruction.
static void dropIn( cnMethod method )
{
	const double h = 1.0, dt = 1.0 / 240.0;
	Drop d = makeDrop( method, h, 0.5, true );
	Tally t = newTally();
	int step = 0;
	// until the ball is back on the ground after its first bounce (apex 0.25 m, about 0.9 s in all)
	for ( ; step < 480 && ( t.firstEnd < 0 || t.begins < 2 ); ++step )
	{
		if ( cnWorld_Step( d.world, dt ) == false )
		{
			printf( "  %s: step failed: %s\n", cnMethod_GetName( method ), cnGetError() );
			CHECK( false );
			break;
		}
		tallyStep( &t, &d, step );
	}

	// the free-fall speed at the ground. The reported speed is the one at the start of the step in
	// which the method stopped the ball: the step of the impact, or the step before it in the
	// velocity-level methods, whose speculative contacts stop a ball at the end of the step before
	// the one in which it would pass the surface. So it is at most 2 g dt below.
	double v = sqrt( 2.0 * G * h );
	printf( "  %-24s begin at step %d, hit at step %d: %.4f m/s (sqrt(2 g h) = %.4f), end at step %d\n",
			cnMethod_GetName( method ), t.firstBegin, t.firstHit, t.hit.approachSpeed, v, t.firstEnd );
	CHECK( t.paired );
	CHECK( t.firstBegin >= 0 && t.firstHit >= t.firstBegin );
	CHECK( t.hitsInFirstTouch == 1 );
	CHECK( t.hit.approachSpeed <= v + 1e-3 && t.hit.approachSpeed >= v - 2.0 * G * dt - 1e-3 );
	// the normal points from A to B: up when the ground is A
	double up = sameShape( t.hit.shapeIdA, d.groundShape ) ? 1.0 : -1.0;
	CHECK_NEAR( t.hit.normal.z, up, 1e-9 );
	// the point lies between the surfaces, less than one step's travel above the ground
	CHECK( fabs( t.hit.point.z ) <= v * dt );
	// the bounce ended the touch, and the ball came down again
	CHECK( t.firstEnd > t.firstHit );
	CHECK( t.begins == 2 && t.ends == 1 );

	// destroyed while touching: its end comes with the next step's events, with the stale id
	cnContactEvents before = cnWorld_GetContactEvents( d.world );
	int endsBefore = before.endCount;
	CHECK( cnDestroyBody( d.world, d.ball ) );
	CHECK( cnWorld_GetContactEvents( d.world ).endCount == endsBefore );
	CHECK( cnWorld_Step( d.world, dt ) );
	cnContactEvents after = cnWorld_GetContactEvents( d.world );
	CHECK( after.endCount == 1 );
	if ( after.endCount == 1 )
	{
		cnShapeId a = after.endEvents[0].shapeIdA, b = after.endEvents[0].shapeIdB;
		CHECK( sameShape( a, d.ballShape ) || sameShape( b, d.ballShape ) );
	}
	CHECK( cnShape_IsValid( d.world, d.ballShape ) == false );
	// and nothing after that
	CHECK( cnWorld_Step( d.world, dt ) );
	CHECK( cnWorld_GetContactEvents( d.world ).endCount == 0 );
	cnDestroyWorld( d.world );
}

static void testDropEveryMethod( void )
{
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		dropIn( (cnMethod)m );
	}
}

// Runs a drop for the given time and tallies its events.
static Tally runDrop( const Drop* d, double seconds )
{
	Tally t = newTally();
	const double dt = 1.0 / 240.0;
	int steps = (int)( seconds / dt );
	for ( int step = 0; step < steps; ++step )
	{
		if ( cnWorld_Step( d->world, dt ) == false )
		{
			CHECK( false );
			break;
		}
		tallyStep( &t, d, step );
	}
	return t;
}

// Hit events are opt-in per shape (off by default) and obey the threshold; touch events can be
// switched off per shape.
static void testOptIn( void )
{
	// no shape asks for hits: touch events only
	Drop d = makeDrop( cnMethod_impulse, 1.0, 0.0, false );
	Tally t = runDrop( &d, 1.0 );
	CHECK( t.begins == 1 && t.hits == 0 );
	cnDestroyWorld( d.world );

	// the ground asks instead of the ball: either shape of a pair is enough
	d = makeDrop( cnMethod_impulse, 1.0, 0.0, false );
	CHECK( cnShape_EnableHitEvents( d.world, d.groundShape, true ) );
	t = runDrop( &d, 1.0 );
	CHECK( t.hits == 1 );
	cnDestroyWorld( d.world );

	// above the threshold: no hit (the impact is at 4.43 m/s)
	d = makeDrop( cnMethod_impulse, 1.0, 0.0, true );
	CHECK( cnWorld_SetHitEventThreshold( d.world, 5.0 ) );
	CHECK( cnWorld_SetHitEventThreshold( d.world, -1.0 ) == false );
	CHECK( cnWorld_GetDef( d.world ).hitEventThreshold == 5.0 );
	t = runDrop( &d, 1.0 );
	CHECK( t.begins == 1 && t.hits == 0 );
	cnDestroyWorld( d.world );

	// neither shape asks for touch events: none
	d = makeDrop( cnMethod_impulse, 1.0, 0.0, false );
	CHECK( cnShape_EnableContactEvents( d.world, d.ballShape, false ) );
	CHECK( cnShape_EnableContactEvents( d.world, d.groundShape, false ) );
	CHECK( cnShape_GetDef( d.world, d.ballShape ).enableContactEvents == false );
	t = runDrop( &d, 1.0 );
	CHECK( t.begins == 0 && t.ends == 0 );
	cnDestroyWorld( d.world );

	// the defaults
	cnShapeDef sd = cnDefaultShapeDef();
	CHECK( sd.enableContactEvents == true && sd.enableHitEvents == false );
	CHECK( cnDefaultWorldDef().hitEventThreshold == 1.0 );
}

// A ball that comes to rest on the ground and falls asleep keeps touching: no end event while it
// sleeps (Box2D v3's semantics), and it is still counted as touching.
static void testSleepKeepsTouching( void )
{
	Drop d = makeDrop( cnMethod_impulse, 0.2, 0.0, true );
	Tally t = runDrop( &d, 4.0 );
	CHECK( cnBody_IsAwake( d.world, d.ball ) == false );
	CHECK( t.begins == 1 && t.ends == 0 && t.hits == 1 );
	CHECK( cnBody_GetContactCount( d.world, d.ball ) == 1 );
	// woken and moved away by hand: the touch ends at the next step
	CHECK( cnBody_SetTransform( d.world, d.ball, cnV3( 0.0, 0.0, 5.0 ), cnQuat_identity ) );
	CHECK( cnWorld_Step( d.world, 1.0 / 240.0 ) );
	CHECK( cnWorld_GetContactEvents( d.world ).endCount == 1 );
	cnDestroyWorld( d.world );
}

// Balls dropped from many heights, run at `workers` workers: every step's hit events, in order, into
// `out` (shape index and approach speed of each), and their count returned.
#define RAIN_BALLS 300
#define RAIN_MAX_HITS ( 4 * RAIN_BALLS )
static int rainHits( int workers, int shapes[RAIN_MAX_HITS], double speeds[RAIN_MAX_HITS], int steps[RAIN_MAX_HITS] )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.gravity = cnV3( 0.0, 0.0, -G );
	def.workerCount = workers;
	cnWorld* world = cnCreateWorld( &def );
	cnBodyDef gd = cnDefaultBodyDef();
	gd.type = cnBody_static;
	cnBodyId ground = cnCreateBody( world, &gd );
	cnShapeDef sd = cnDefaultShapeDef();
	sd.type = cnShape_plane;
	sd.normal = cnV3( 0.0, 0.0, 1.0 );
	cnCreateShape( world, ground, &sd );
	for ( int i = 0; i < RAIN_BALLS; ++i )
	{
		cnBodyDef bd = cnDefaultBodyDef();
		bd.position = cnV3( 0.3 * ( i % 20 ), 0.3 * ( i / 20 ), 0.1 + 0.1 + 0.01 * ( i % 37 ) );
		cnBodyId ball = cnCreateBody( world, &bd );
		sd = cnDefaultShapeDef();
		sd.type = cnShape_sphere;
		sd.radius = 0.1;
		sd.enableHitEvents = true;
		cnCreateShape( world, ball, &sd );
	}
	int n = 0;
	for ( int step = 0; step < 120; ++step )
	{
		CHECK( cnWorld_Step( world, 1.0 / 240.0 ) );
		cnContactEvents ev = cnWorld_GetContactEvents( world );
		for ( int k = 0; k < ev.hitCount && n < RAIN_MAX_HITS; ++k, ++n )
		{
			cnShapeId a = ev.hitEvents[k].shapeIdA, b = ev.hitEvents[k].shapeIdB;
			shapes[n] = a.index > b.index ? a.index : b.index;
			speeds[n] = ev.hitEvents[k].approachSpeed;
			steps[n] = step;
		}
	}
	cnDestroyWorld( world );
	return n;
}

// Hit events are found in parallel and reported in contact order: the same events in the same order
// at any worker count, one per ball at its free-fall speed.
static void testHitsAnyWorkers( void )
{
	static int shapes[3][RAIN_MAX_HITS], steps[3][RAIN_MAX_HITS];
	static double speeds[3][RAIN_MAX_HITS];
	const int workers[3] = { 1, 2, 4 };
	int count[3];
	for ( int w = 0; w < 3; ++w )
	{
		count[w] = rainHits( workers[w], shapes[w], speeds[w], steps[w] );
	}
	CHECK( count[0] == RAIN_BALLS );
	for ( int k = 0; k < count[0]; ++k )
	{
		// each ball falls h = 0.1 + 0.01 (i % 37) m to the ground (1.4 to 2.9 m/s, above the 1 m/s
		// threshold): sqrt(2 g h), less at most two steps of gravity (testDropEveryMethod)
		int i = shapes[0][k] - 1;
		double v = sqrt( 2.0 * G * ( 0.1 + 0.01 * ( i % 37 ) ) );
		CHECK( speeds[0][k] <= v + 1e-3 && speeds[0][k] >= v - 2.0 * G / 240.0 - 1e-3 );
	}
	for ( int w = 1; w < 3; ++w )
	{
		CHECK( count[w] == count[0] );
		for ( int k = 0; k < count[0] && k < count[w]; ++k )
		{
			CHECK( shapes[w][k] == shapes[0][k] && steps[w][k] == steps[0][k] && speeds[w][k] == speeds[0][k] );
		}
	}
}

int main( void )
{
	RUN_TEST( testDropEveryMethod );
	RUN_TEST( testOptIn );
	RUN_TEST( testSleepKeepsTouching );
	RUN_TEST( testHitsAnyWorkers );
	return TEST_SUMMARY();
}
