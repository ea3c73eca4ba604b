// SPDX-License-Identifier: MIT
// Fuzz target: libcairn's public API. The bytes are a script: the first ones pick the world (method,
// planar, gravity, settings), then each op byte picks a call (create a body, a shape of any type,
// a hull, mesh or heightfield, a joint of any type, a force; set velocities, poses, masses; step
// with any time step; destroy in any order; query) and the bytes after it its arguments. Arguments
// are mostly plausible values with one in eight an edge case (0, -0, NaN, infinities, 1e300,
// denormals, negative sizes), so scripts reach deep into the step and still test every check at
// the boundary.
//
// Besides not crashing, hanging or leaking, the target checks the API's error contract: a create
// call returns the null id exactly when it sets the error, a step returns false exactly when it
// sets the error, and the world's body and shape counts match what the script created and
// destroyed. A broken contract aborts, which libFuzzer reports as a crash.
//
// Work per input is bounded so each run takes milliseconds: at most 32 bodies, 64 shapes, 32
// joints, 512 ops and 64 steps (8 for the adaptive methods, whose steps are longer, with time steps
// of at most 1/30 s).
#include "cairn/cairn.h"
#include "fuzz.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CN_FUZZ_MAX_BODIES 32
#define CN_FUZZ_MAX_SHAPES 64
#define CN_FUZZ_MAX_JOINTS 32
#define CN_FUZZ_MAX_FORCES 16
#define CN_FUZZ_MAX_HULLS 4
#define CN_FUZZ_MAX_OPS 512
#define CN_FUZZ_MAX_POINTS 24

// the script being read and what it has made so far
typedef struct cnFuzz
{
	const uint8_t* data;
	size_t size, pos;
	cnWorld* world;
	bool adaptive;
	int steps, maxSteps;
	cnBodyId bodies[CN_FUZZ_MAX_BODIES];
	int bodyCount;
	cnShapeId shapes[CN_FUZZ_MAX_SHAPES];
	int shapeCount;
	cnJointId joints[CN_FUZZ_MAX_JOINTS];
	int jointCount;
	cnForceId forces[CN_FUZZ_MAX_FORCES];
	int forceCount;
	// hulls kept for shape-cast and overlap proxies (released at the end)
	cnHull* hulls[CN_FUZZ_MAX_HULLS];
	int hullCount;
	cnContactSystem system;
	bool systemRequested;
	// sink for getter results, so no call is optimised away
	double sink;
} cnFuzz;

// Aborts with a message when the API breaks its contract: libFuzzer keeps the input as a crash.
#define CN_FUZZ_EXPECT( cond, what )                                                                                   \
	do                                                                                                                 \
	{                                                                                                                  \
		if ( !( cond ) )                                                                                               \
		{                                                                                                              \
			fprintf( stderr, "fuzz_api: contract broken: %s (%s; error: %s)\n", what, #cond, cnGetError() );          \
			abort();                                                                                                   \
		}                                                                                                              \
	} while ( 0 )

static uint8_t cnTakeByte( cnFuzz* f )
{
	return f->pos < f->size ? f->data[f->pos++] : 0;
}

static bool cnTakeBool( cnFuzz* f )
{
	return ( cnTakeByte( f ) & 1 ) != 0;
}

// An integer in [0, n).
static int cnTakeInt( cnFuzz* f, int n )
{
	return n > 0 ? cnTakeByte( f ) % n : 0;
}

// A number in [0, 1] from two bytes.
static double cnTakeUnit( cnFuzz* f )
{
	unsigned hi = cnTakeByte( f );
	unsigned lo = cnTakeByte( f );
	return (double)( hi << 8 | lo ) / 65535.0;
}

// One of the values the boundary checks must catch (or accept) cleanly.
static double cnEdgeValue( int which )
{
	static const double edges[] = { 0.0, -0.0, NAN, INFINITY, -INFINITY, 1e300, -1e300, 5e-324, 1e-300, -1.0, 1e20, DBL_MAX };
	return edges[which % (int)( sizeof( edges ) / sizeof( edges[0] ) )];
}

// A signed value of about the given scale, or (one in eight) an edge case.
static double cnTakeReal( cnFuzz* f, double scale )
{
	uint8_t kind = cnTakeByte( f );
	if ( kind >= 224 )
	{
		return cnEdgeValue( kind - 224 );
	}
	return scale * ( 2.0 * cnTakeUnit( f ) - 1.0 );
}

// A positive size of about the given scale, or (one in eight) an edge case.
static double cnTakeSize( cnFuzz* f, double scale )
{
	uint8_t kind = cnTakeByte( f );
	if ( kind >= 224 )
	{
		return cnEdgeValue( kind - 224 );
	}
	return scale * ( 0.02 + cnTakeUnit( f ) );
}

// Three positive sizes (box half extents, principal moments).
static cnVec3 cnTakeSizes( cnFuzz* f, double scale )
{
	double x = cnTakeSize( f, scale );
	double y = cnTakeSize( f, scale );
	double z = cnTakeSize( f, scale );
	return cnV3( x, y, z );
}

static cnVec3 cnTakeVec( cnFuzz* f, double scale )
{
	double x = cnTakeReal( f, scale );
	double y = cnTakeReal( f, scale );
	double z = cnTakeReal( f, scale );
	return cnV3( x, y, z );
}

// A unit quaternion mostly; sometimes one that is not unit (the API must refuse or normalise it).
static cnQuat cnTakeQuat( cnFuzz* f )
{
	uint8_t kind = cnTakeByte( f );
	if ( kind < 96 )
	{
		return cnQuat_identity;
	}
	// one take per statement: the order in which C evaluates arguments and initialisers is
	// unspecified, and a script must read the same under every compiler
	cnQuat q;
	q.w = cnTakeReal( f, 1.0 );
	q.x = cnTakeReal( f, 1.0 );
	q.y = cnTakeReal( f, 1.0 );
	q.z = cnTakeReal( f, 1.0 );
	if ( kind < 240 )
	{
		double length = cnQuatLength( q );
		if ( isfinite( length ) && length > 1e-3 )
		{
			q = cnNormalizeQuat( q );
		}
	}
	return q;
}

// A body id the script made (live or stale), or now and then the null id or garbage.
static cnBodyId cnTakeBody( cnFuzz* f )
{
	int k = cnTakeInt( f, f->bodyCount + 2 );
	if ( k < f->bodyCount )
	{
		return f->bodies[k];
	}
	if ( k == f->bodyCount )
	{
		return cnBodyId_null;
	}
	cnBodyId garbage;
	garbage.index = (int32_t)cnTakeByte( f ) - 8;
	garbage.generation = cnTakeByte( f );
	return garbage;
}

static cnShapeId cnTakeShape( cnFuzz* f )
{
	int k = cnTakeInt( f, f->shapeCount + 1 );
	if ( k < f->shapeCount )
	{
		return f->shapes[k];
	}
	cnShapeId garbage;
	garbage.index = (int32_t)cnTakeByte( f ) - 8;
	garbage.generation = cnTakeByte( f );
	return garbage;
}

static cnJointId cnTakeJoint( cnFuzz* f )
{
	int k = cnTakeInt( f, f->jointCount + 1 );
	if ( k < f->jointCount )
	{
		return f->joints[k];
	}
	cnJointId garbage;
	garbage.index = (int32_t)cnTakeByte( f ) - 8;
	garbage.generation = cnTakeByte( f );
	return garbage;
}

static cnForceId cnTakeForce( cnFuzz* f )
{
	int k = cnTakeInt( f, f->forceCount + 1 );
	if ( k < f->forceCount )
	{
		return f->forces[k];
	}
	cnForceId garbage;
	garbage.index = (int32_t)cnTakeByte( f ) - 8;
	garbage.generation = cnTakeByte( f );
	return garbage;
}

// The world: a method (sometimes out of range), planar or not, gravity and settings that may be
// invalid. A refused def must say so; the script then goes on with the defaults of a valid method.
static cnWorld* cnMakeWorld( cnFuzz* f )
{
	cnWorldDef def = cnDefaultWorldDef();
	def.method = (cnMethod)cnTakeInt( f, cnMethod_count + 1 );
	def.planar = cnTakeInt( f, 8 ) == 0;
	if ( cnTakeInt( f, 4 ) == 0 )
	{
		def.gravity = cnTakeVec( f, 20.0 );
	}
	if ( cnTakeInt( f, 4 ) == 0 )
	{
		def.settings.impulse.subSteps = cnTakeInt( f, 70 );
		def.settings.impulse.contactHertz = cnTakeSize( f, 60.0 );
		def.settings.velocity.lcpSolver = (cnLcpSolver)cnTakeInt( f, 3 );
		def.settings.velocity.integrator = (cnIntegrator)cnTakeInt( f, 3 );
		def.settings.velocity.positionCorrection = cnTakeBool( f );
		def.settings.velocity.speculativeContacts = cnTakeBool( f );
		def.settings.penalty.errorTolerance = cnTakeSize( f, 1e-4 );
		def.settings.constraint.errorTolerance = cnTakeSize( f, 1e-4 );
		def.settings.constraint.stabilizationHertz = cnTakeSize( f, 10.0 );
	}
	if ( cnTakeInt( f, 4 ) == 0 )
	{
		def.restitutionThreshold = cnTakeSize( f, 1.0 );
		def.linearSlop = cnTakeSize( f, 0.01 );
		def.speculativeDistance = cnTakeSize( f, 0.05 );
		def.enableContinuous = cnTakeBool( f );
		def.enableSleep = cnTakeBool( f );
		def.timeToSleep = cnTakeSize( f, 1.0 );
		def.hitEventThreshold = cnTakeSize( f, 1.0 );
	}
	cnWorld* world = cnCreateWorld( &def );
	CN_FUZZ_EXPECT( ( world == NULL ) == ( cnGetErrorCode() != cnError_none ), "cnCreateWorld" );
	if ( world == NULL )
	{
		cnWorldDef plain = cnDefaultWorldDef();
		plain.method = (cnMethod)( (int)def.method % cnMethod_count );
		plain.planar = def.planar && ( cnMethod_GetFlags( plain.method ) & cnMethodFlag_planar ) != 0;
		world = cnCreateWorld( &plain );
	}
	return world;
}

static void cnAddBody( cnFuzz* f )
{
	if ( f->bodyCount == CN_FUZZ_MAX_BODIES )
	{
		return;
	}
	cnBodyDef def = cnDefaultBodyDef();
	def.type = (cnBodyType)cnTakeInt( f, 4 );
	def.position = cnTakeVec( f, 5.0 );
	def.orientation = cnTakeQuat( f );
	if ( cnTakeBool( f ) )
	{
		def.linearVelocity = cnTakeVec( f, 10.0 );
		def.angularVelocity = cnTakeVec( f, 10.0 );
	}
	if ( cnTakeInt( f, 4 ) == 0 )
	{
		def.gravityScale = cnTakeReal( f, 2.0 );
		def.linearDamping = cnTakeSize( f, 1.0 );
		def.angularDamping = cnTakeSize( f, 1.0 );
		def.dragCoefficient = cnTakeSize( f, 1.0 );
	}
	def.enableSleep = cnTakeBool( f );
	def.isAwake = cnTakeInt( f, 8 ) != 0;
	def.isBullet = cnTakeInt( f, 8 ) == 0;
	def.name = cnTakeBool( f ) ? "body" : NULL;
	cnBodyId id = cnCreateBody( f->world, &def );
	CN_FUZZ_EXPECT( ( id.index < 0 ) == ( cnGetErrorCode() != cnError_none ), "cnCreateBody" );
	if ( id.index >= 0 )
	{
		f->bodies[f->bodyCount++] = id;
	}
}

// A hull of random points (some sets are flat, non-finite or too few: refused).
static cnHull* cnMakeHull( cnFuzz* f, double scale )
{
	cnVec3 points[CN_FUZZ_MAX_POINTS];
	int count = cnTakeInt( f, CN_FUZZ_MAX_POINTS + 1 );
	for ( int i = 0; i < count; ++i )
	{
		points[i] = cnTakeVec( f, scale );
	}
	cnHull* hull = cnCreateHull( points, count );
	CN_FUZZ_EXPECT( ( hull == NULL ) == ( cnGetErrorCode() != cnError_none ), "cnCreateHull" );
	return hull;
}

// A mesh of random triangles (indices may be out of range), or a tetrahedron of random corners
// (closed, but wound inward half the time), which moving bodies may carry.
static cnMesh* cnMakeMesh( cnFuzz* f, double scale )
{
	cnVec3 vertices[CN_FUZZ_MAX_POINTS];
	int indices[3 * CN_FUZZ_MAX_POINTS];
	int vertexCount, triangleCount;
	if ( cnTakeBool( f ) )
	{
		static const int tetrahedron[12] = { 0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2 };
		vertexCount = 4;
		triangleCount = 4;
		memcpy( indices, tetrahedron, sizeof( tetrahedron ) );
	}
	else
	{
		vertexCount = 1 + cnTakeInt( f, CN_FUZZ_MAX_POINTS );
		triangleCount = cnTakeInt( f, CN_FUZZ_MAX_POINTS + 1 );
		for ( int i = 0; i < 3 * triangleCount; ++i )
		{
			indices[i] = cnTakeInt( f, vertexCount + 2 ) - 1;
		}
	}
	for ( int i = 0; i < vertexCount; ++i )
	{
		vertices[i] = cnTakeVec( f, scale );
	}
	cnMesh* mesh = cnCreateMesh( vertices, vertexCount, indices, triangleCount );
	CN_FUZZ_EXPECT( ( mesh == NULL ) == ( cnGetErrorCode() != cnError_none ), "cnCreateMesh" );
	return mesh;
}

static cnHeightfield* cnMakeHeightfield( cnFuzz* f )
{
	double heights[64];
	int columns = cnTakeInt( f, 9 );
	int rows = cnTakeInt( f, 9 );
	for ( int i = 0; i < columns * rows; ++i )
	{
		heights[i] = cnTakeReal( f, 1.0 );
	}
	double sizeX = cnTakeSize( f, 10.0 );
	double sizeY = cnTakeSize( f, 10.0 );
	cnHeightfield* field = cnCreateHeightfield( columns, rows, heights, sizeX, sizeY );
	CN_FUZZ_EXPECT( ( field == NULL ) == ( cnGetErrorCode() != cnError_none ), "cnCreateHeightfield" );
	return field;
}

static void cnAddShape( cnFuzz* f )
{
	if ( f->shapeCount == CN_FUZZ_MAX_SHAPES )
	{
		return;
	}
	cnBodyId body = cnTakeBody( f );
	cnShapeDef def = cnDefaultShapeDef();
	def.type = (cnShapeType)cnTakeInt( f, cnShape_count + 1 );
	double scale = cnTakeInt( f, 4 ) == 0 ? 5.0 : 0.5;
	def.radius = cnTakeSize( f, scale );
	def.halfExtents = cnTakeSizes( f, scale );
	def.halfHeight = cnTakeSize( f, scale );
	def.normal = cnTakeVec( f, 1.0 );
	def.offset = cnTakeReal( f, 1.0 );
	def.position = cnTakeInt( f, 2 ) == 0 ? cnVec3_zero : cnTakeVec( f, 1.0 );
	def.orientation = cnTakeQuat( f );
	def.material = cnTakeInt( f, 8 ) == 0 ? cnTakeInt( f, 6 ) - 1 : 0;
	if ( cnTakeInt( f, 4 ) == 0 )
	{
		def.categoryBits = (uint64_t)cnTakeByte( f );
		def.maskBits = (uint64_t)cnTakeByte( f );
		def.maskBits |= (uint64_t)cnTakeByte( f ) << 56;
		def.groupIndex = cnTakeInt( f, 5 ) - 2;
	}
	def.enableContactEvents = cnTakeBool( f );
	def.enableHitEvents = cnTakeBool( f );

	cnVec3 polygon[8];
	cnHull* hull = NULL;
	cnMesh* mesh = NULL;
	cnHeightfield* field = NULL;
	if ( def.type == cnShape_polygon )
	{
		def.vertexCount = cnTakeInt( f, 9 );
		for ( int i = 0; i < def.vertexCount; ++i )
		{
			polygon[i].x = cnTakeReal( f, scale );
			polygon[i].y = cnTakeReal( f, scale );
			polygon[i].z = cnTakeInt( f, 8 ) == 0 ? 0.5 : 0.0;
		}
		def.vertices = polygon;
		def.radius = cnTakeInt( f, 2 ) == 0 ? 0.0 : def.radius;
	}
	else if ( def.type == cnShape_hull )
	{
		def.hull = hull = cnMakeHull( f, scale );
	}
	else if ( def.type == cnShape_mesh )
	{
		def.mesh = mesh = cnMakeMesh( f, scale );
	}
	else if ( def.type == cnShape_heightfield )
	{
		def.heightfield = field = cnMakeHeightfield( f );
	}

	cnShapeId id = cnCreateShape( f->world, body, &def );
	CN_FUZZ_EXPECT( ( id.index < 0 ) == ( cnGetErrorCode() != cnError_none ), "cnCreateShape" );
	if ( id.index >= 0 )
	{
		f->shapes[f->shapeCount++] = id;
	}
	// the shape holds its own reference; keep a few hulls for query proxies
	if ( hull != NULL && f->hullCount < CN_FUZZ_MAX_HULLS )
	{
		f->hulls[f->hullCount++] = hull;
	}
	else
	{
		cnReleaseHull( hull );
	}
	cnReleaseMesh( mesh );
	cnReleaseHeightfield( field );
}

static void cnAddJoint( cnFuzz* f )
{
	if ( f->jointCount == CN_FUZZ_MAX_JOINTS )
	{
		return;
	}
	cnJointType type = (cnJointType)cnTakeInt( f, cnJoint_count );
	cnJointDef base = { 0 };
	base.bodyA = cnTakeBody( f );
	base.bodyB = cnTakeInt( f, 3 ) == 0 ? cnBodyId_null : cnTakeBody( f );
	base.collideConnected = cnTakeBool( f );
	if ( cnTakeInt( f, 4 ) == 0 )
	{
		base.breakForce = cnTakeSize( f, 100.0 );
		base.breakTorque = cnTakeSize( f, 100.0 );
	}
	base.name = cnTakeBool( f ) ? "joint" : NULL;
	cnVec3 anchor = cnTakeVec( f, 3.0 );
	cnVec3 other = cnTakeVec( f, 3.0 );
	cnVec3 axis = cnTakeInt( f, 2 ) == 0 ? cnV3( 0.0, 0.0, 1.0 ) : cnTakeVec( f, 1.0 );
	double lower = cnTakeReal( f, 2.0 );
	double upper = cnTakeReal( f, 2.0 );
	double stiffness = cnTakeSize( f, 200.0 );
	double damping = cnTakeSize( f, 10.0 );
	bool limit = cnTakeBool( f ), motor = cnTakeBool( f ), spring = cnTakeBool( f );

	cnJointId id = cnJointId_null;
	switch ( type )
	{
		case cnJoint_ball:
		{
			cnBallJointDef def = cnDefaultBallJointDef();
			def.base = base;
			def.anchor = anchor;
			id = cnCreateBallJoint( f->world, &def );
			break;
		}
		case cnJoint_hinge:
		{
			cnHingeJointDef def = cnDefaultHingeJointDef();
			def.base = base;
			def.anchor = anchor;
			def.axis = axis;
			def.enableLimit = limit;
			def.lowerAngle = lower;
			def.upperAngle = upper;
			def.enableMotor = motor;
			def.motorSpeed = cnTakeReal( f, 5.0 );
			def.maxMotorTorque = cnTakeSize( f, 50.0 );
			def.enableSpring = spring;
			def.stiffness = stiffness;
			def.damping = damping;
			def.restAngle = cnTakeReal( f, 1.0 );
			id = cnCreateHingeJoint( f->world, &def );
			break;
		}
		case cnJoint_slider:
		{
			cnSliderJointDef def = cnDefaultSliderJointDef();
			def.base = base;
			def.anchor = anchor;
			def.axis = axis;
			def.enableLimit = limit;
			def.lowerTranslation = lower;
			def.upperTranslation = upper;
			def.enableMotor = motor;
			def.motorSpeed = cnTakeReal( f, 5.0 );
			def.maxMotorForce = cnTakeSize( f, 50.0 );
			def.enableSpring = spring;
			def.stiffness = stiffness;
			def.damping = damping;
			def.restTranslation = cnTakeReal( f, 1.0 );
			id = cnCreateSliderJoint( f->world, &def );
			break;
		}
		case cnJoint_universal:
		{
			cnUniversalJointDef def = cnDefaultUniversalJointDef();
			def.base = base;
			def.anchor = anchor;
			if ( cnTakeBool( f ) )
			{
				def.axisA = axis;
				def.axisB = cnTakeVec( f, 1.0 );
			}
			id = cnCreateUniversalJoint( f->world, &def );
			break;
		}
		case cnJoint_coneTwist:
		{
			cnConeTwistJointDef def = cnDefaultConeTwistJointDef();
			def.base = base;
			def.anchor = anchor;
			def.axis = axis;
			def.swingAngle = cnTakeReal( f, 3.5 );
			def.lowerTwist = lower;
			def.upperTwist = upper;
			id = cnCreateConeTwistJoint( f->world, &def );
			break;
		}
		case cnJoint_fixed:
		{
			cnFixedJointDef def = cnDefaultFixedJointDef();
			def.base = base;
			def.anchor = anchor;
			id = cnCreateFixedJoint( f->world, &def );
			break;
		}
		case cnJoint_distance:
		{
			cnDistanceJointDef def = cnDefaultDistanceJointDef();
			def.base = base;
			def.anchorA = anchor;
			def.anchorB = other;
			if ( limit )
			{
				def.length = cnTakeReal( f, 3.0 );
				def.minLength = lower;
				def.maxLength = upper;
			}
			id = cnCreateDistanceJoint( f->world, &def );
			break;
		}
		case cnJoint_spring:
		{
			cnSpringJointDef def = cnDefaultSpringJointDef();
			def.base = base;
			def.anchorA = anchor;
			def.anchorB = other;
			def.stiffness = stiffness;
			def.damping = damping;
			def.restLength = lower;
			def.minLength = cnTakeSize( f, 0.5 );
			id = cnCreateSpringJoint( f->world, &def );
			break;
		}
		case cnJoint_damper:
		{
			cnDamperJointDef def = cnDefaultDamperJointDef();
			def.base = base;
			def.anchorA = anchor;
			def.anchorB = other;
			def.damping = damping;
			def.minLength = cnTakeSize( f, 0.5 );
			id = cnCreateDamperJoint( f->world, &def );
			break;
		}
		default:
		{
			cnPointOnPlaneJointDef def = cnDefaultPointOnPlaneJointDef();
			def.base = base;
			def.anchor = anchor;
			def.normal = axis;
			id = cnCreatePointOnPlaneJoint( f->world, &def );
			break;
		}
	}
	CN_FUZZ_EXPECT( ( id.index < 0 ) == ( cnGetErrorCode() != cnError_none ), "cnCreate*Joint" );
	if ( id.index >= 0 )
	{
		f->joints[f->jointCount++] = id;
	}
}

static void cnAddForce( cnFuzz* f )
{
	if ( f->forceCount == CN_FUZZ_MAX_FORCES )
	{
		return;
	}
	cnForceDef def = cnDefaultForceDef();
	def.body = cnTakeBody( f );
	def.isTorque = cnTakeInt( f, 3 ) == 0;
	def.frame = (cnForceFrame)cnTakeInt( f, 4 );
	def.localPoint = cnTakeVec( f, 1.0 );
	def.vector = cnTakeVec( f, 100.0 );
	def.target = cnTakeBool( f ) ? cnBodyId_null : cnTakeBody( f );
	def.targetPoint = cnTakeVec( f, 5.0 );
	def.t0 = cnTakeInt( f, 2 ) == 0 ? 0.0 : cnTakeReal( f, 1.0 );
	def.t1 = cnTakeInt( f, 2 ) == 0 ? INFINITY : cnTakeReal( f, 2.0 );
	cnForceId id = cnCreateForce( f->world, &def );
	CN_FUZZ_EXPECT( ( id.index < 0 ) == ( cnGetErrorCode() != cnError_none ), "cnCreateForce" );
	if ( id.index >= 0 )
	{
		f->forces[f->forceCount++] = id;
	}
}

static void cnStepWorld( cnFuzz* f )
{
	if ( f->steps >= f->maxSteps )
	{
		return;
	}
	static const double steps[] = { 1.0 / 60.0, 1.0 / 120.0, 1.0 / 30.0, 0.0, -0.01, NAN, INFINITY, 1e-9, 0.1, 0.25 };
	int kind = cnTakeInt( f, 12 );
	double h = kind < 10 ? steps[kind] : 0.1 * cnTakeUnit( f );
	if ( f->adaptive && h > 1.0 / 30.0 )
	{
		// the adaptive methods take internal steps of their own: a long step is a long run
		h = 1.0 / 30.0;
	}
	int repeat = 1 + cnTakeInt( f, 4 );
	for ( int i = 0; i < repeat && f->steps < f->maxSteps; ++i )
	{
		f->steps += 1;
		bool ok = cnWorld_Step( f->world, h );
		CN_FUZZ_EXPECT( ok == ( cnGetErrorCode() == cnError_none ), "cnWorld_Step" );
		if ( ok == false && f->adaptive && cnGetErrorCode() == cnError_stepFailed )
		{
			// an adaptive method gives up on a state it cannot advance (a kinematic body spinning at
			// 1e300 rad/s) after its cap of internal steps, a fifth of a second each time: once is enough
			f->steps = f->maxSteps;
		}
	}
}

// Cast callbacks answer from the script: ignore (-1), stop (0), clip (the fraction) or go on (1).
static double cnCastAnswer( cnShapeId shapeId, cnVec3 point, cnVec3 normal, double fraction, void* context )
{
	cnFuzz* f = context;
	f->sink += point.x + normal.y + fraction + shapeId.index;
	static const double answers[] = { -1.0, 0.0, 1.0 };
	int k = cnTakeInt( f, 4 );
	return k < 3 ? answers[k] : fraction;
}

static bool cnOverlapAnswer( cnShapeId shapeId, void* context )
{
	cnFuzz* f = context;
	f->sink += shapeId.index;
	return cnTakeInt( f, 8 ) != 0;
}

static cnShapeProxy cnTakeProxy( cnFuzz* f )
{
	switch ( cnTakeInt( f, 5 ) )
	{
		case 0:
			return cnMakeSphereProxy( cnTakeSize( f, 0.5 ) );
		case 1:
			return cnMakeBoxProxy( cnTakeSizes( f, 0.5 ) );
		case 2:
		{
			double radius = cnTakeSize( f, 0.5 );
			return cnMakeCapsuleProxy( radius, cnTakeSize( f, 0.5 ) );
		}
		case 3:
		{
			double radius = cnTakeSize( f, 0.5 );
			return cnMakeCylinderProxy( radius, cnTakeSize( f, 0.5 ) );
		}
		default:
			if ( f->hullCount > 0 )
			{
				return cnMakeHullProxy( f->hulls[cnTakeInt( f, f->hullCount )] );
			}
			return cnMakeSphereProxy( 0.0 );
	}
}

static void cnQuery( cnFuzz* f )
{
	cnQueryFilter filter = cnDefaultQueryFilter();
	if ( cnTakeInt( f, 4 ) == 0 )
	{
		filter.categoryBits = cnTakeByte( f );
		filter.maskBits = cnTakeByte( f );
	}
	cnVec3 origin = cnTakeVec( f, 6.0 );
	cnVec3 translation = cnTakeVec( f, 12.0 );
	switch ( cnTakeInt( f, 7 ) )
	{
		case 0:
			cnWorld_CastRay( f->world, origin, translation, filter, cnCastAnswer, f );
			break;
		case 1:
		{
			cnRayResult r = cnWorld_CastRayClosest( f->world, origin, translation, filter );
			f->sink += r.hit ? r.fraction : 0.0;
			break;
		}
		case 2:
		{
			cnShapeProxy proxy = cnTakeProxy( f );
			cnTransform xf = { origin, cnTakeQuat( f ) };
			cnWorld_CastShape( f->world, &proxy, xf, translation, filter, cnCastAnswer, f );
			break;
		}
		case 3:
		{
			cnShapeProxy proxy = cnTakeProxy( f );
			cnTransform xf = { origin, cnTakeQuat( f ) };
			cnRayResult r = cnWorld_CastShapeClosest( f->world, &proxy, xf, translation, filter );
			f->sink += r.hit ? r.fraction : 0.0;
			break;
		}
		case 4:
		{
			cnAABB box = { origin, cnAdd( origin, translation ) };
			cnWorld_OverlapAABB( f->world, box, filter, cnOverlapAnswer, f );
			break;
		}
		case 5:
		{
			cnShapeProxy proxy = cnTakeProxy( f );
			cnTransform xf = { origin, cnTakeQuat( f ) };
			cnWorld_OverlapShape( f->world, &proxy, xf, filter, cnOverlapAnswer, f );
			break;
		}
		default:
		{
			cnRayResult r = cnShape_RayCast( f->world, cnTakeShape( f ), origin, translation );
			f->sink += r.hit ? r.normal.z : 0.0;
			break;
		}
	}
}

// Every getter of a body, a shape, a joint and the world (on live, stale and garbage ids alike).
static void cnReadBack( cnFuzz* f )
{
	cnBodyId body = cnTakeBody( f );
	cnWorld* w = f->world;
	f->sink += cnBody_GetPosition( w, body ).x + cnBody_GetOrientation( w, body ).w +
			   cnBody_GetWorldCenterOfMass( w, body ).y + cnBody_GetLocalCenterOfMass( w, body ).z +
			   cnBody_GetLinearVelocity( w, body ).x + cnBody_GetAngularVelocity( w, body ).y +
			   cnBody_GetPointVelocity( w, body, cnV3( 1.0, 0.0, 0.0 ) ).z + cnBody_GetMass( w, body ) +
			   cnBody_GetLocalInertia( w, body ).cx.x + cnBody_GetKineticEnergy( w, body ) +
			   cnBody_GetGravityScale( w, body ) + cnBody_GetShapeCount( w, body ) + cnBody_GetContactCount( w, body ) +
			   cnBody_GetTransform( w, body ).p.z + (double)cnBody_GetType( w, body ) + cnBody_IsAwake( w, body ) +
			   cnBody_IsBullet( w, body ) + (double)cnBody_GetUserData( w, body );
	cnQuat axes;
	f->sink += cnBody_GetPrincipalInertia( w, body, &axes ).x + axes.w;
	const char* name = cnBody_GetName( w, body );
	f->sink += name != NULL ? (double)strlen( name ) : 0.0;
	cnShapeId shapes[8];
	int n = cnBody_GetShapes( w, body, shapes, 8 );
	for ( int i = 0; i < n; ++i )
	{
		cnShapeDef def = cnShape_GetDef( w, shapes[i] );
		f->sink += def.radius + cnShape_GetAABB( w, shapes[i] ).upper.x + cnShape_GetTransform( w, shapes[i] ).p.y;
	}

	cnShapeId shape = cnTakeShape( f );
	f->sink += cnShape_GetAABB( w, shape ).lower.x + cnShape_GetBody( w, shape ).index;

	cnJointId joint = cnTakeJoint( f );
	double a = 0.0, b = 0.0, c = 0.0;
	f->sink += cnJoint_GetAnchorA( w, joint ).x + cnJoint_GetAnchorB( w, joint ).y +
			   cnJoint_GetReactionForce( w, joint ).z + cnJoint_GetReactionTorque( w, joint ).x +
			   cnJoint_GetLinearError( w, joint ) + cnJoint_GetAngularError( w, joint ) + cnJoint_IsBroken( w, joint ) +
			   cnJoint_GetPosition( w, joint ) + cnJoint_GetSpeed( w, joint ) + cnJoint_GetAxis( w, joint ).z +
			   (double)cnJoint_GetType( w, joint ) + cnJoint_GetBodyA( w, joint ).index +
			   cnJoint_GetBodyB( w, joint ).index;
	f->sink += cnJoint_GetLimits( w, joint, &a, &b ) + a + b;
	f->sink += cnJoint_GetMotor( w, joint, &a, &b ) + a + b;
	f->sink += cnJoint_GetSpring( w, joint, &a, &b, &c ) + a + b + c;
	name = cnJoint_GetName( w, joint );
	f->sink += name != NULL ? (double)strlen( name ) : 0.0;

	cnForceDef force = cnForce_GetDef( w, cnTakeForce( f ) );
	f->sink += force.vector.x;

	cnStats stats = cnWorld_GetStats( w );
	f->sink += stats.stepMs * 0.0 + stats.bodyCount + stats.contactCount + (double)stats.bytes * 0.0;
	f->sink += cnWorld_GetKineticEnergy( w ) + cnWorld_GetPotentialEnergy( w ) + cnWorld_GetLinearMomentum( w ).x +
			   cnWorld_GetMaxPenetration( w ) + (double)( cnWorld_Hash( w ) & 1 ) + cnWorld_GetTime( w );
	int breaks = 0;
	const cnJointBreak* broken = cnWorld_GetJointBreaks( w, &breaks );
	for ( int i = 0; i < breaks; ++i )
	{
		f->sink += broken[i].force;
	}
	cnContactEvents events = cnWorld_GetContactEvents( w );
	for ( int i = 0; i < events.beginCount; ++i )
	{
		f->sink += events.beginEvents[i].normal.z;
	}
	for ( int i = 0; i < events.endCount; ++i )
	{
		f->sink += events.endEvents[i].shapeIdA.index;
	}
	for ( int i = 0; i < events.hitCount; ++i )
	{
		f->sink += events.hitEvents[i].approachSpeed;
	}
	f->sink += cnWorld_FindBody( w, "body" ).index + cnWorld_FindJoint( w, "joint" ).index +
			   cnWorld_FindMaterial( w, "mat" ) + cnWorld_GetMaterialCount( w );
}

// The world's bookkeeping against the script's: every body the script made and did not destroy is
// live and counted, and the shapes the bodies report are those the script made on them.
static void cnCheckCounts( cnFuzz* f )
{
	int live = 0, shapes = 0, liveShapes = 0;
	for ( int i = 0; i < f->bodyCount; ++i )
	{
		if ( cnBody_IsValid( f->world, f->bodies[i] ) )
		{
			live += 1;
			shapes += cnBody_GetShapeCount( f->world, f->bodies[i] );
		}
	}
	for ( int i = 0; i < f->shapeCount; ++i )
	{
		liveShapes += cnShape_IsValid( f->world, f->shapes[i] ) ? 1 : 0;
	}
	CN_FUZZ_EXPECT( live == cnWorld_GetBodyCount( f->world ), "body count" );
	CN_FUZZ_EXPECT( shapes == liveShapes, "shape count" );
	int forces = 0;
	for ( int i = 0; i < f->forceCount; ++i )
	{
		forces += cnForce_IsValid( f->world, f->forces[i] ) ? 1 : 0;
	}
	CN_FUZZ_EXPECT( forces == cnWorld_GetForceCount( f->world ), "force count" );
	int joints = 0;
	for ( int i = 0; i < f->jointCount; ++i )
	{
		joints += cnJoint_IsValid( f->world, f->joints[i] ) ? 1 : 0;
	}
	CN_FUZZ_EXPECT( joints == cnWorld_GetJointCount( f->world ), "joint count" );
}

// Calls that change what exists or how it moves, one per op.
static void cnChange( cnFuzz* f, int op )
{
	cnWorld* w = f->world;
	switch ( op )
	{
		case 0:
			cnDestroyBody( w, cnTakeBody( f ) );
			break;
		case 1:
			cnDestroyShape( w, cnTakeShape( f ) );
			break;
		case 2:
			cnDestroyJoint( w, cnTakeJoint( f ) );
			break;
		case 3:
			cnDestroyForce( w, cnTakeForce( f ) );
			break;
		case 4:
		{
			cnBodyId body = cnTakeBody( f );
			cnBody_SetLinearVelocity( w, body, cnTakeVec( f, 10.0 ) );
			break;
		}
		case 5:
		{
			cnBodyId body = cnTakeBody( f );
			cnBody_SetAngularVelocity( w, body, cnTakeVec( f, 10.0 ) );
			break;
		}
		case 6:
		{
			cnBodyId body = cnTakeBody( f );
			cnVec3 p = cnTakeVec( f, 5.0 );
			cnBody_SetTransform( w, body, p, cnTakeQuat( f ) );
			break;
		}
		case 7:
		{
			cnBodyId body = cnTakeBody( f );
			cnVec3 force = cnTakeVec( f, 100.0 );
			cnBody_ApplyForce( w, body, force, cnTakeVec( f, 5.0 ) );
			break;
		}
		case 8:
		{
			cnBodyId body = cnTakeBody( f );
			cnBody_ApplyTorque( w, body, cnTakeVec( f, 50.0 ) );
			break;
		}
		case 9:
		{
			cnBodyId body = cnTakeBody( f );
			cnVec3 impulse = cnTakeVec( f, 10.0 );
			cnBody_ApplyLinearImpulse( w, body, impulse, cnTakeVec( f, 5.0 ) );
			break;
		}
		case 10:
		{
			cnBodyId body = cnTakeBody( f );
			cnBody_SetMass( w, body, cnTakeSize( f, 10.0 ) );
			break;
		}
		case 11:
		{
			cnBodyId body = cnTakeBody( f );
			double mass = cnTakeSize( f, 10.0 );
			cnVec3 center = cnTakeVec( f, 0.5 );
			cnVec3 moments = cnTakeSizes( f, 1.0 );
			cnMat3 inertia = cnDiagonal( moments.x, moments.y, moments.z );
			inertia.cx.y = inertia.cy.x = cnTakeReal( f, 0.5 );
			cnBody_SetMassData( w, body, mass, center, inertia );
			break;
		}
		case 12:
		{
			cnBodyId body = cnTakeBody( f );
			cnBody_SetAwake( w, body, cnTakeBool( f ) );
			break;
		}
		case 13:
		{
			cnBodyId body = cnTakeBody( f );
			cnBody_SetBullet( w, body, cnTakeBool( f ) );
			break;
		}
		case 14:
			cnWorld_SetGravity( w, cnTakeVec( f, 20.0 ) );
			break;
		case 15:
			cnWorld_EnableSleeping( w, cnTakeBool( f ) );
			break;
		case 16:
		{
			cnBodyId a = cnTakeBody( f );
			cnWorld_DisableCollision( w, a, cnTakeBody( f ) );
			break;
		}
		case 17:
		{
			cnMaterialDef def = cnDefaultMaterialDef();
			def.name = cnTakeBool( f ) ? "mat" : NULL;
			def.density = cnTakeSize( f, 2000.0 );
			def.friction = cnTakeSize( f, 1.0 );
			def.restitution = cnTakeSize( f, 1.0 );
			def.stiffness = cnTakeInt( f, 2 ) == 0 ? 0.0 : cnTakeSize( f, 1e5 );
			def.damping = cnTakeInt( f, 2 ) == 0 ? 0.0 : cnTakeSize( f, 100.0 );
			def.ior = cnTakeInt( f, 2 ) == 0 ? 1.5 : cnTakeReal( f, 3.0 );
			if ( cnTakeBool( f ) )
			{
				cnMaterialId id = cnCreateMaterial( w, &def );
				CN_FUZZ_EXPECT( ( id < 0 ) == ( cnGetErrorCode() != cnError_none ), "cnCreateMaterial" );
			}
			else
			{
				cnMaterial_SetDef( w, cnTakeInt( f, 6 ) - 1, &def );
			}
			break;
		}
		case 18:
		{
			cnMaterialId a = cnTakeInt( f, 6 ) - 1;
			cnMaterialId b = cnTakeInt( f, 6 ) - 1;
			double friction = cnTakeSize( f, 1.0 );
			cnWorld_SetMaterialPair( w, a, b, friction, cnTakeSize( f, 1.0 ) );
			break;
		}
		case 19:
		{
			cnJointId joint = cnTakeJoint( f );
			double lo = cnTakeReal( f, 2.0 ), hi = cnTakeReal( f, 2.0 );
			switch ( cnTakeInt( f, 5 ) )
			{
				case 0:
					cnJoint_SetLimits( w, joint, cnTakeBool( f ), lo, hi );
					break;
				case 1:
					cnJoint_SetMotor( w, joint, cnTakeBool( f ), lo, fabs( hi ) * 20.0 );
					break;
				case 2:
				{
					bool enable = cnTakeBool( f );
					cnJoint_SetSpring( w, joint, enable, fabs( lo ) * 100.0, fabs( hi ), cnTakeReal( f, 1.0 ) );
					break;
				}
				case 3:
					cnJoint_SetLengthRange( w, joint, lo, hi );
					break;
				default:
					cnJoint_SetBreakLimits( w, joint, fabs( lo ) * 50.0, fabs( hi ) * 50.0 );
					break;
			}
			break;
		}
		case 20:
		{
			cnShapeId shape = cnTakeShape( f );
			if ( cnTakeBool( f ) )
			{
				cnShape_EnableContactEvents( w, shape, cnTakeBool( f ) );
			}
			else
			{
				cnShape_EnableHitEvents( w, shape, cnTakeBool( f ) );
			}
			cnWorld_SetHitEventThreshold( w, cnTakeSize( f, 1.0 ) );
			break;
		}
		case 21:
			// a cancel request: the next step reports it and leaves the bodies where they were
			cnWorld_Cancel( w );
			break;
		default:
			// a capture request for the next step with contacts (velocity-level methods only), or
			// its withdrawal; a captured system is freed so that it may capture again
			if ( f->systemRequested && f->system.captured )
			{
				f->sink += f->system.n + f->system.m;
				cnContactSystem_Free( &f->system );
				f->systemRequested = false;
			}
			if ( cnTakeBool( f ) )
			{
				f->systemRequested = cnWorld_CaptureContactSystem( w, &f->system );
			}
			else
			{
				cnWorld_CaptureContactSystem( w, NULL );
				f->systemRequested = false;
			}
			break;
	}
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	cnFuzz* f = calloc( 1, sizeof( cnFuzz ) );
	if ( f == NULL )
	{
		return 0;
	}
	f->data = data;
	f->size = size;
	f->world = cnMakeWorld( f );
	if ( f->world == NULL )
	{
		free( f );
		return 0;
	}
	cnMethod method = cnWorld_GetDef( f->world ).method;
	f->adaptive = ( cnMethod_GetFlags( method ) & cnMethodFlag_adaptive ) != 0;
	f->maxSteps = f->adaptive ? 8 : 64;

	for ( int op = 0; op < CN_FUZZ_MAX_OPS && f->pos < f->size; ++op )
	{
		int kind = cnTakeInt( f, 32 );
		if ( kind < 5 )
		{
			cnAddBody( f );
		}
		else if ( kind < 10 )
		{
			cnAddShape( f );
		}
		else if ( kind < 12 )
		{
			cnAddJoint( f );
		}
		else if ( kind < 13 )
		{
			cnAddForce( f );
		}
		else if ( kind < 17 )
		{
			cnStepWorld( f );
		}
		else if ( kind < 19 )
		{
			cnQuery( f );
		}
		else if ( kind < 20 )
		{
			cnReadBack( f );
		}
		else
		{
			cnChange( f, cnTakeInt( f, 23 ) );
		}
		cnCheckCounts( f );
	}

	// a pending capture request must be withdrawn (or its system freed) before the struct goes
	if ( f->systemRequested && f->system.captured == false )
	{
		cnWorld_CaptureContactSystem( f->world, NULL );
	}
	cnContactSystem_Free( &f->system );
	cnDestroyWorld( f->world );
	for ( int i = 0; i < f->hullCount; ++i )
	{
		cnReleaseHull( f->hulls[i] );
	}
	int result = f->sink == 12345.678 ? 1 : 0;
	free( f );
	return result;
}
