// SPDX-License-Identifier: MIT
// The instability guard (guard.h, docs/reliability.md): MuJoCo checks every step for NaN and huge
// values and resets instead of propagating garbage; Cairn checks each body's state and speeds and
// the world's mechanical energy, says which body went wrong, when and probably why, and then stops,
// warns or freezes the body as the world says.
#include "guard.h"

#include "error.h"
#include "shape.h"
#include "task.h"
#include "world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// an energy jump must also exceed what the awake mass has at this speed (m/s): soft contacts push
// overlaps apart at up to a few m/s and joints pull drifted anchors together, which is not runaway
#define CN_GUARD_FLOOR_SPEED 10.0
// time constant (s) with which the energy references relax towards the current energy
#define CN_GUARD_MEMORY 1.0
// hints: an overlap deeper than this fraction of the body's size (and than 4 linear slops), a mass
// ratio above this
#define CN_GUARD_DEEP_FRACTION 0.1
#define CN_GUARD_MASS_RATIO 100.0
// bodies per range of the guard's parallel measuring
#define CN_GUARD_MIN_RANGE 256

static const char* const s_actionNames[cnInstability_count] = { "stop", "warn", "freeze-body" };

const char* cnInstabilityAction_GetName( cnInstabilityAction action )
{
	if ( (int)action < 0 || action >= cnInstability_count )
	{
		return "unknown";
	}
	return s_actionNames[action];
}

bool cnInstabilityAction_FromName( const char* name, cnInstabilityAction* action )
{
	for ( int i = 0; name != NULL && i < cnInstability_count; ++i )
	{
		if ( strcmp( name, s_actionNames[i] ) == 0 )
		{
			*action = (cnInstabilityAction)i;
			cnClearError();
			return true;
		}
	}
	return cnSetError( cnError_invalidArgument, "unknown instability action \"%s\" (known: stop, warn, freeze-body)",
					   name != NULL ? name : "(null)" );
}

bool cnWorld_SetInstabilityAction( cnWorld* world, cnInstabilityAction action )
{
	if ( cnRequireWorld( world ) == false )
	{
		return false;
	}
	if ( (int)action < 0 || action >= cnInstability_count )
	{
		return cnSetError( cnError_invalidArgument, "unknown instability action %d", (int)action );
	}
	world->def.onInstability = action;
	cnClearError();
	return true;
}

cnInstabilityReport cnWorld_GetInstabilityReport( const cnWorld* world )
{
	if ( world == NULL || world->magic != CN_WORLD_MAGIC )
	{
		cnInstabilityReport none;
		memset( &none, 0, sizeof( none ) );
		none.body = cnBodyId_null;
		return none;
	}
	return world->guard.report;
}

// ---------------------------------------------------------------------------------------------
// measuring

static double cnBodyKineticEnergy( const cnBody* b )
{
	cnVec3 wLocal = cnInvRotate( b->xf.q, b->w );
	return 0.5 * b->mass * cnDot( b->v, b->v ) + 0.5 * cnDot( wLocal, cnMulMV( b->inertia, wLocal ) );
}

// What one pass over the bodies adds up: the kinetic and gravitational energy of the dynamic bodies
// (as cnWorld_GetKineticEnergy and cnWorld_GetPotentialEnergy), the mass of the awake ones and the
// body with the most kinetic energy.
typedef struct cnEnergyTally
{
	double kinetic, potential, awakeMass, most;
	int fastest;
} cnEnergyTally;

// What the guard measures of one body. Each stage part measures every body in parallel (with
// thousands of bodies its time is the time to read the body records) and then adds the measures up
// serially in body order, so the sums are the same bits on any worker count.
typedef struct cnBodyMeasure
{
	// static or dead: not measured (every other field zero)
	bool skip;
	// dynamic: its energy counts (kinetic, the gravitational term subtracted, its mass if awake)
	bool counted;
	double kinetic, potential, awakeMass;
	// the step's start: a user force or a moving kinematic body that may add energy
	bool source;
	// the step's end: what is wrong with it (cnCheckBody)
	cnInstabilityKind kind;
	double value, bound;
} cnBodyMeasure;

static void cnMeasureEnergy( const cnWorld* world, const cnBody* b, cnBodyMeasure* m )
{
	m->counted = true;
	m->kinetic = cnBodyKineticEnergy( b );
	m->potential = b->mass * b->gravityScale * cnDot( world->gravity, b->center );
	m->awakeMass = b->awake ? b->mass : 0.0;
}

static void cnAddEnergy( const cnBodyMeasure* m, int index, cnEnergyTally* t )
{
	t->kinetic += m->kinetic;
	t->potential -= m->potential;
	t->awakeMass += m->awakeMass;
	if ( m->kinetic > t->most )
	{
		t->most = m->kinetic;
		t->fastest = index;
	}
}

// A joint motor or spring may add energy (its stored energy is not counted).
static bool cnJointsAddEnergy( const cnWorld* world )
{
	for ( int i = 0; i < world->jointCount; ++i )
	{
		const cnJoint* j = world->joints + i;
		if ( cnJointActive( j ) && ( j->enableMotor || j->enableSpring ) )
		{
			return true;
		}
	}
	return false;
}

static bool cnIsFiniteBody( const cnBody* b )
{
	return cnIsValidVec3( b->center ) && cnIsValidVec3( b->xf.p ) && cnIsValidVec3( b->v ) && cnIsValidVec3( b->w ) &&
		   isfinite( b->xf.q.w + b->xf.q.x + b->xf.q.y + b->xf.q.z );
}

// What is wrong with a body after the step (cnInstabilityKind_none: nothing), with the measured
// value and its bound.
static cnInstabilityKind cnCheckBody( const cnWorld* world, const cnBody* b, double* value, double* bound )
{
	if ( cnIsFiniteBody( b ) == false )
	{
		*value = NAN;
		*bound = NAN;
		return cnInstabilityKind_nonFinite;
	}
	if ( b->type != cnBody_dynamic )
	{
		// a kinematic body moves as it is told
		return cnInstabilityKind_none;
	}
	double speed = cnLength( b->v );
	if ( speed > world->def.maxSpeed )
	{
		*value = speed;
		*bound = world->def.maxSpeed;
		return cnInstabilityKind_speed;
	}
	double spin = cnLength( b->w );
	if ( spin > world->def.maxAngularSpeed )
	{
		*value = spin;
		*bound = world->def.maxAngularSpeed;
		return cnInstabilityKind_angularSpeed;
	}
	return cnInstabilityKind_none;
}

// ---------------------------------------------------------------------------------------------
// the report

// Appends formatted text to a message, cutting what does not fit.
static void cnAppend( char* text, size_t size, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

static void cnAppend( char* text, size_t size, const char* format, ... )
{
	size_t n = strlen( text );
	if ( n + 1 >= size )
	{
		return;
	}
	va_list args;
	va_start( args, format );
	vsnprintf( text + n, size - n, format, args );
	va_end( args );
}

// "body 'name'" or "body #index" for a body without a name.
static void cnAppendBody( char* text, size_t size, const cnWorld* world, int index )
{
	const cnBody* b = world->bodies + index;
	if ( b->name != NULL && b->name[0] != 0 )
	{
		cnAppend( text, size, "body '%s'", b->name );
	}
	else
	{
		cnAppend( text, size, "body #%d", index );
	}
}

static cnBodyId cnIdOf( const cnWorld* world, int index )
{
	cnBodyId id = { index, world->bodies[index].generation };
	return id;
}

// The likely causes for body index: its deepest overlap, its largest mass ratio with a dynamic body
// it touches or is joined to, and how far it moves in a step against its size.
static void cnFindCauses( const cnWorld* world, int index, double timeStep, cnInstabilityReport* r )
{
	const cnBody* b = world->bodies + index;
	r->overlap = 0.0;
	r->overlapBody = cnBodyId_null;
	r->massRatio = 1.0;
	r->massRatioBody = cnBodyId_null;
	for ( int i = 0; i < world->contactCount; ++i )
	{
		const cnContact* c = world->contacts + i;
		if ( ( c->flags & cnContact_touching ) == 0 || ( c->bodyA != index && c->bodyB != index ) )
		{
			continue;
		}
		int other = c->bodyA == index ? c->bodyB : c->bodyA;
		// the manifolds of this step's narrow phase: the overlap the method started from
		for ( int k = 0; k < c->manifoldCount; ++k )
		{
			const cnManifold* m = cnContactManifold( c, k );
			for ( int p = 0; p < m->pointCount; ++p )
			{
				double depth = -m->points[p].separation;
				if ( depth > r->overlap )
				{
					r->overlap = depth;
					r->overlapBody = cnIdOf( world, other );
				}
			}
		}
		const cnBody* o = world->bodies + other;
		if ( b->type == cnBody_dynamic && o->type == cnBody_dynamic )
		{
			double ratio = fmax( b->mass / o->mass, o->mass / b->mass );
			if ( ratio > r->massRatio )
			{
				r->massRatio = ratio;
				r->massRatioBody = cnIdOf( world, other );
			}
		}
	}
	for ( int i = 0; i < world->jointCount && b->type == cnBody_dynamic; ++i )
	{
		const cnJoint* j = world->joints + i;
		if ( cnJointActive( j ) == false || ( j->bodyA != index && j->bodyB != index ) )
		{
			continue;
		}
		int other = j->bodyA == index ? j->bodyB : j->bodyA;
		if ( other >= 0 && world->bodies[other].type == cnBody_dynamic )
		{
			const cnBody* o = world->bodies + other;
			double ratio = fmax( b->mass / o->mass, o->mass / b->mass );
			if ( ratio > r->massRatio )
			{
				r->massRatio = ratio;
				r->massRatioBody = cnIdOf( world, other );
			}
		}
	}
	r->size = b->maxExtent;
	r->travel = cnIsFiniteBody( b ) ? cnLength( b->v ) * timeStep : NAN;
}

// The report's message: the body, the time, what was exceeded and the likely causes.
static void cnWriteMessage( const cnWorld* world, int index, double timeStep, double energyKinetic, cnInstabilityReport* r )
{
	char* text = r->message;
	size_t size = sizeof( r->message );
	text[0] = 0;
	switch ( r->kind )
	{
		case cnInstabilityKind_nonFinite:
			cnAppendBody( text, size, world, index );
			cnAppend( text, size, " at t = %.9g s (step %lld): its pose or velocity is not finite", r->time,
					  (long long)r->step );
			break;
		case cnInstabilityKind_speed:
			cnAppendBody( text, size, world, index );
			cnAppend( text, size, " at t = %.9g s (step %lld): speed %.6g m/s is above max_speed %.6g m/s", r->time,
					  (long long)r->step, r->value, r->bound );
			break;
		case cnInstabilityKind_angularSpeed:
			cnAppendBody( text, size, world, index );
			cnAppend( text, size, " at t = %.9g s (step %lld): angular speed %.6g rad/s is above max_angular_speed %.6g rad/s",
					  r->time, (long long)r->step, r->value, r->bound );
			break;
		default:
			cnAppend( text, size,
					  "energy jump at t = %.9g s (step %lld): the mechanical energy rose %.6g J above its recent "
					  "highest, more than the %.6g J that max_energy_growth %g allows; ",
					  r->time, (long long)r->step, r->value, r->bound, world->def.maxEnergyGrowth );
			cnAppendBody( text, size, world, index );
			cnAppend( text, size, " has the most kinetic energy (%.6g J)", energyKinetic );
			break;
	}
	if ( r->bodyCount > 1 )
	{
		cnAppend( text, size, " (and %d more bod%s)", r->bodyCount - 1, r->bodyCount > 2 ? "ies" : "y" );
	}

	// the likely causes, those that stand out
	cnAppend( text, size, "; likely cause: " );
	bool found = false;
	double deep = fmax( 4.0 * world->def.linearSlop, CN_GUARD_DEEP_FRACTION * r->size );
	if ( r->overlap > deep && r->overlapBody.index >= 0 )
	{
		cnAppend( text, size, "an overlap of %.3g m with ", r->overlap );
		cnAppendBody( text, size, world, r->overlapBody.index );
		cnAppend( text, size, " (its size is %.3g m)", r->size );
		found = true;
	}
	if ( r->massRatio >= CN_GUARD_MASS_RATIO && r->massRatioBody.index >= 0 )
	{
		cnAppend( text, size, "%sa mass ratio of %.3g with ", found ? "; " : "", r->massRatio );
		cnAppendBody( text, size, world, r->massRatioBody.index );
		found = true;
	}
	// a body that an overlap or a mass ratio threw is fast because of them: the time step is the
	// cause only when nothing else is
	if ( found == false && r->travel > r->size )
	{
		cnAppend( text, size,
				  "a time step too large for this speed (it moves %.3g m in a step of %.3g s, more than its size "
				  "%.3g m)",
				  r->travel, timeStep, r->size );
		found = true;
	}
	if ( found == false )
	{
		cnAppend( text, size, "no deep overlap, large mass ratio or too large time step (look at its forces and joints)" );
	}
}

static void cnMakeReport( cnWorld* world, cnInstabilityKind kind, int index, int count, double value, double bound,
						  double timeStep, double energyKinetic )
{
	cnInstabilityReport* r = &world->guard.report;
	memset( r, 0, sizeof( *r ) );
	r->kind = kind;
	r->action = world->def.onInstability;
	r->body = cnIdOf( world, index );
	r->bodyCount = count;
	r->time = world->time;
	r->step = world->stepCount;
	r->value = value;
	r->bound = bound;
	cnFindCauses( world, index, timeStep, r );
	cnWriteMessage( world, index, timeStep, energyKinetic, r );
}

// ---------------------------------------------------------------------------------------------
// acting

// Stops a body where it is (a non-finite pose goes back to where the step started) and puts it to
// sleep on its own: it stays put until something touches it or the program wakes it.
static void cnFreezeBody( cnWorld* world, cnBody* b )
{
	if ( cnIsFiniteBody( b ) == false && world->guard.startPosesSaved )
	{
		// the finish stage moved its shape boxes to the non-finite pose: back with it
		b->xf = b->xf0;
		b->center = b->center0;
		cnUpdateBodyShapes( world, b, cnVec3_zero );
	}
	b->v = cnVec3_zero;
	b->w = cnVec3_zero;
	b->sleepTime = 0.0;
	b->awake = false;
}

// ---------------------------------------------------------------------------------------------
// measuring the bodies in parallel

typedef struct cnMeasureTask
{
	cnWorld* world;
	// the step's start: save the start poses (freeze-body)
	bool save;
	// measure the energy
	bool energy;
	cnBodyMeasure* measures;
} cnMeasureTask;

// One body at the step's start: its start pose saved (freeze-body), its energy and whether it may add
// energy.
static void cnMeasureStart( const cnMeasureTask* task, int i, cnBodyMeasure* m )
{
	cnBody* b = task->world->bodies + i;
	memset( m, 0, sizeof( *m ) );
	m->skip = b->alive == false || b->type == cnBody_static;
	if ( m->skip )
	{
		return;
	}
	if ( task->save )
	{
		b->xf0 = b->xf;
		b->center0 = b->center;
	}
	if ( task->energy == false )
	{
		return;
	}
	if ( b->type == cnBody_dynamic )
	{
		cnMeasureEnergy( task->world, b, m );
		m->source = b->awake && ( cnLengthSquared( b->force ) > 0.0 || cnLengthSquared( b->torque ) > 0.0 );
	}
	else
	{
		m->source = b->awake && ( cnLengthSquared( b->v ) > 0.0 || cnLengthSquared( b->w ) > 0.0 );
	}
}

// One body at the step's end: what is wrong with it, and its energy.
static void cnMeasureEnd( const cnMeasureTask* task, int i, cnBodyMeasure* m )
{
	const cnBody* b = task->world->bodies + i;
	memset( m, 0, sizeof( *m ) );
	m->skip = b->alive == false || b->type == cnBody_static;
	if ( m->skip )
	{
		return;
	}
	m->kind = cnCheckBody( task->world, b, &m->value, &m->bound );
	if ( task->energy && b->type == cnBody_dynamic )
	{
		cnMeasureEnergy( task->world, b, m );
	}
}

static void cnMeasureStartRange( int startIndex, int endIndex, int workerIndex, void* context )
{
	(void)workerIndex;
	const cnMeasureTask* task = context;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		cnMeasureStart( task, i, task->measures + i );
	}
}

static void cnMeasureEndRange( int startIndex, int endIndex, int workerIndex, void* context )
{
	(void)workerIndex;
	const cnMeasureTask* task = context;
	for ( int i = startIndex; i < endIndex; ++i )
	{
		cnMeasureEnd( task, i, task->measures + i );
	}
}

// Measures every body into task->measures, an array from the world's arena, in parallel; leaves it
// NULL when the arena has no memory for it (then cnMeasureOf measures each body as they are added up).
static void cnMeasureBodies( cnWorld* world, cnMeasureTask* task, cnTaskFn* range )
{
	size_t size = (size_t)( world->bodyCount > 0 ? world->bodyCount : 1 ) * sizeof( cnBodyMeasure );
	task->measures = cnArena_Alloc( &world->arena, size );
	if ( task->measures != NULL )
	{
		cnParallelFor( world, world->bodyCount, CN_GUARD_MIN_RANGE, range, task );
	}
}

typedef void cnMeasureFn( const cnMeasureTask* task, int i, cnBodyMeasure* m );

// Body i's measure: from the array, or measured now into *one when there is none.
static const cnBodyMeasure* cnMeasureOf( const cnMeasureTask* task, int i, cnBodyMeasure* one, cnMeasureFn* measure )
{
	if ( task->measures != NULL )
	{
		return task->measures + i;
	}
	measure( task, i, one );
	return one;
}

void cnGuardBeginStep( cnWorld* world, double timeStep )
{
	cnGuardState* g = &world->guard;
	// freeze-body puts a non-finite body back where the step started: the continuous stage's copy
	// of the start pose covers the dynamic bodies of some methods only
	bool save = world->def.onInstability == cnInstability_freezeBody;
	bool energy = world->def.maxEnergyGrowth < INFINITY;
	g->startPosesSaved = save;
	if ( save == false && energy == false )
	{
		g->hasReference = false;
		return;
	}

	// the energy the step starts from, and whether a user force or a moving kinematic body may add
	// energy that the guard does not count
	cnMeasureTask task = { world, save, energy, NULL };
	cnMeasureBodies( world, &task, cnMeasureStartRange );
	// (this loop also measures each body, saving its start pose, when the arena had no memory for the
	// measures)
	cnEnergyTally t = { 0.0, 0.0, 0.0, -1.0, -1 };
	bool source = false;
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBodyMeasure one;
		const cnBodyMeasure* m = cnMeasureOf( &task, i, &one, cnMeasureStart );
		if ( m->counted )
		{
			cnAddEnergy( m, i, &t );
		}
		source = source || m->source;
	}
	if ( energy == false )
	{
		g->hasReference = false;
		return;
	}
	double total = t.kinetic + t.potential;
	g->awakeMass = t.awakeMass;
	g->energySource = source || cnJointsAddEnergy( world );
	if ( !isfinite( total ) )
	{
		g->hasReference = false;
	}
	else if ( g->hasReference == false )
	{
		g->referenceEnergy = total;
		g->referenceKinetic = t.kinetic;
		g->hasReference = true;
	}
	else
	{
		// the references relax towards the present; what the program changed between steps (a
		// velocity set, a body added, gravity turned) raises them at once
		double decay = exp( -timeStep / CN_GUARD_MEMORY );
		g->referenceEnergy = fmax( total, total + ( g->referenceEnergy - total ) * decay );
		g->referenceKinetic = fmax( t.kinetic, g->referenceKinetic * decay );
	}
}

bool cnGuardStep( cnWorld* world, double timeStep )
{
	cnGuardState* g = &world->guard;
	bool energy = g->hasReference && world->def.maxEnergyGrowth < INFINITY;

	// every body: non-finite state, speeds beyond the bounds (the first in index order is reported);
	// and the energy the step ends with
	int count = 0, first = -1;
	cnInstabilityKind kind = cnInstabilityKind_none;
	double value = 0.0, bound = 0.0;
	cnEnergyTally t = { 0.0, 0.0, 0.0, -1.0, -1 };
	cnMeasureTask task = { world, false, energy, NULL };
	cnMeasureBodies( world, &task, cnMeasureEndRange );
	for ( int i = 0; i < world->bodyCount; ++i )
	{
		cnBodyMeasure one;
		const cnBodyMeasure* m = cnMeasureOf( &task, i, &one, cnMeasureEnd );
		if ( m->skip )
		{
			continue;
		}
		if ( m->kind != cnInstabilityKind_none )
		{
			count += 1;
			if ( first < 0 )
			{
				first = i;
				kind = m->kind;
				value = m->value;
				bound = m->bound;
			}
		}
		if ( m->counted )
		{
			cnAddEnergy( m, i, &t );
		}
	}

	// an energy jump, when no body is already wrong and nothing could add energy
	double total = t.kinetic + t.potential;
	if ( energy && ( count > 0 || !isfinite( total ) ) )
	{
		g->hasReference = false;
	}
	else if ( energy )
	{
		double rise = total - g->referenceEnergy;
		double floor = 0.5 * g->awakeMass * CN_GUARD_FLOOR_SPEED * CN_GUARD_FLOOR_SPEED;
		double allowed = world->def.maxEnergyGrowth * g->referenceKinetic + floor;
		if ( g->energySource == false && rise > allowed && t.fastest >= 0 )
		{
			count = 1;
			first = t.fastest;
			kind = cnInstabilityKind_energy;
			value = rise;
			bound = allowed;
		}
		g->referenceEnergy = fmax( g->referenceEnergy, total );
		g->referenceKinetic = fmax( g->referenceKinetic, t.kinetic );
	}
	if ( count == 0 )
	{
		return true;
	}

	cnMakeReport( world, kind, first, count, value, bound, timeStep, t.most );
	world->stats.instabilityCount += count;
	switch ( world->def.onInstability )
	{
		case cnInstability_warn:
			return true;
		case cnInstability_freezeBody:
			for ( int i = first; i < world->bodyCount; ++i )
			{
				cnBody* b = world->bodies + i;
				double v, limit;
				if ( b->alive && b->type != cnBody_static &&
					 ( i == first || cnCheckBody( world, b, &v, &limit ) != cnInstabilityKind_none ) )
				{
					cnFreezeBody( world, b );
					world->stats.frozenBodyCount += 1;
				}
			}
			g->hasReference = false;
			return true;
		default:
			return cnSetError( cnError_unstable, "%s", g->report.message );
	}
}
