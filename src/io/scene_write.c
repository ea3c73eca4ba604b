// SPDX-License-Identifier: MIT
// The JSON scene writer (scene.h, docs/scene-format.md "Writing scenes"): a world's current state as
// a scene whose t = 0 is that state. Everything is read through the public API, so the writer is the
// loader's mirror: each key the loader reads is written from the getter of what it set. Numbers are
// written with the fewest digits (15 to 17) that read back as the same double, signed zeros kept,
// so a scene written at t = 0 loads back into the same world bit for bit.
#include "cairn/scene.h"

#include <cjson/cJSON.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cnSceneWriteDef cnDefaultSceneWriteDef( void )
{
	cnSceneWriteDef def;
	memset( &def, 0, sizeof( def ) );
	def.timeStep = 1.0 / 120.0;
	def.duration = 5.0;
	def.fps = 60.0;
	return def;
}

// ---------------------------------------------------------------------------------------------
// values

// A number as raw JSON: the shortest of %.15g, %.16g, %.17g that reads back exactly. cJSON's own
// printer writes -0 as 0, and a sign of zero can change a later step's bits.
static cJSON* cnNum( double x )
{
	char text[40];
	if ( isfinite( x ) == false )
	{
		// never in a valid world; the loader would reject the scene with the key's path
		return cJSON_CreateNull();
	}
	for ( int digits = 15; digits <= 17; ++digits )
	{
		snprintf( text, sizeof( text ), "%.*g", digits, x );
		if ( strtod( text, NULL ) == x )
		{
			break;
		}
	}
	return cJSON_CreateRaw( text );
}

static void cnAddNum( cJSON* obj, const char* key, double x )
{
	cJSON_AddItemToObject( obj, key, cnNum( x ) );
}

static cJSON* cnVecJson( cnVec3 v )
{
	cJSON* a = cJSON_CreateArray();
	cJSON_AddItemToArray( a, cnNum( v.x ) );
	cJSON_AddItemToArray( a, cnNum( v.y ) );
	cJSON_AddItemToArray( a, cnNum( v.z ) );
	return a;
}

static void cnAddVec( cJSON* obj, const char* key, cnVec3 v )
{
	cJSON_AddItemToObject( obj, key, cnVecJson( v ) );
}

static void cnAddQuat( cJSON* obj, const char* key, cnQuat q )
{
	cJSON* a = cJSON_CreateArray();
	cJSON_AddItemToArray( a, cnNum( q.w ) );
	cJSON_AddItemToArray( a, cnNum( q.x ) );
	cJSON_AddItemToArray( a, cnNum( q.y ) );
	cJSON_AddItemToArray( a, cnNum( q.z ) );
	cJSON_AddItemToObject( obj, key, a );
}

// The degrees that the loader turns into exactly these radians (it multiplies by pi / 180): the
// quotient, or one of its neighbours a few ulps away when the quotient rounds the other way.
static double cnDegreesFor( double radians )
{
	const double k = CN_PI / 180.0;
	double d = radians / k;
	double up = d, down = d;
	for ( int i = 0; i < 8; ++i )
	{
		if ( up * k == radians )
		{
			return up;
		}
		if ( down * k == radians )
		{
			return down;
		}
		up = nextafter( up, INFINITY );
		down = nextafter( down, -INFINITY );
	}
	return d;
}

static void cnAddDegrees( cJSON* obj, const char* key, double radians )
{
	cnAddNum( obj, key, cnDegreesFor( radians ) );
}

static void cnAddRange( cJSON* obj, const char* key, double lower, double upper, bool degrees )
{
	cJSON* a = cJSON_CreateArray();
	cJSON_AddItemToArray( a, cnNum( degrees ? cnDegreesFor( lower ) : lower ) );
	cJSON_AddItemToArray( a, cnNum( degrees ? cnDegreesFor( upper ) : upper ) );
	cJSON_AddItemToObject( obj, key, a );
}

// collision bits as the loader reads them: an integer up to 2^53, else a hexadecimal string
static void cnAddBits( cJSON* obj, const char* key, uint64_t bits )
{
	if ( bits <= ( (uint64_t)1 << 53 ) )
	{
		cnAddNum( obj, key, (double)bits );
		return;
	}
	char text[32];
	snprintf( text, sizeof( text ), "0x%016llX", (unsigned long long)bits );
	cJSON_AddStringToObject( obj, key, text );
}

// ---------------------------------------------------------------------------------------------
// the writer's state: unique names for bodies and materials, and the body of each id index

typedef struct cnWriter
{
	const cnWorld* world;
	int bodyCount;
	char** bodyNames;
	// body id index -> position in bodyNames (-1: not a live body)
	int* bodyOfIndex;
	int indexCapacity;
	int materialCount;
	char** materialNames;
} cnWriter;

static void cnFreeWriter( cnWriter* w )
{
	for ( int i = 0; w->bodyNames != NULL && i < w->bodyCount; ++i )
	{
		free( w->bodyNames[i] );
	}
	for ( int i = 0; w->materialNames != NULL && i < w->materialCount; ++i )
	{
		free( w->materialNames[i] );
	}
	free( w->bodyNames );
	free( w->materialNames );
	free( w->bodyOfIndex );
}

static char* cnCopyString( const char* s )
{
	size_t n = strlen( s ) + 1;
	char* c = malloc( n );
	if ( c != NULL )
	{
		memcpy( c, s, n );
	}
	return c;
}

// names[i] = given (when it is non-empty and not taken) or prefix + i
static bool cnUniqueName( char** names, int i, const char* given, const char* prefix )
{
	bool taken = given == NULL || given[0] == 0;
	for ( int k = 0; taken == false && k < i; ++k )
	{
		taken = strcmp( names[k], given ) == 0;
	}
	char made[64];
	if ( taken )
	{
		snprintf( made, sizeof( made ), "%s%d", prefix, i );
		given = made;
	}
	names[i] = cnCopyString( given );
	return names[i] != NULL;
}

static bool cnInitWriter( cnWriter* w, const cnWorld* world )
{
	memset( w, 0, sizeof( *w ) );
	w->world = world;
	int count = cnWorld_GetBodyCount( world );
	int materials = cnWorld_GetMaterialCount( world );
	w->bodyNames = calloc( (size_t)count + 1, sizeof( char* ) );
	w->materialNames = calloc( (size_t)materials + 1, sizeof( char* ) );
	if ( w->bodyNames == NULL || w->materialNames == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
	}
	int maxIndex = 0;
	for ( int i = 0; i < count; ++i )
	{
		cnBodyId id = cnWorld_GetBody( world, i );
		maxIndex = id.index > maxIndex ? id.index : maxIndex;
		++w->bodyCount;
		if ( cnUniqueName( w->bodyNames, i, cnBody_GetName( world, id ), "body" ) == false )
		{
			return cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
		}
	}
	w->indexCapacity = maxIndex + 1;
	w->bodyOfIndex = malloc( (size_t)w->indexCapacity * sizeof( int ) );
	if ( w->bodyOfIndex == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
	}
	for ( int i = 0; i < w->indexCapacity; ++i )
	{
		w->bodyOfIndex[i] = -1;
	}
	for ( int i = 0; i < count; ++i )
	{
		w->bodyOfIndex[cnWorld_GetBody( world, i ).index] = i;
	}
	for ( int i = 0; i < materials; ++i )
	{
		++w->materialCount;
		// material 0 is the loader's "default" whatever the world calls it
		cnMaterialDef md = cnMaterial_GetDef( world, i );
		if ( cnUniqueName( w->materialNames, i, i == 0 ? "default" : md.name, "material" ) == false )
		{
			return cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
		}
	}
	return true;
}

// the position of a live body in the written "bodies", -1 for none (the world)
static int cnBodyPosition( const cnWriter* w, cnBodyId id )
{
	if ( id.index < 0 || id.index >= w->indexCapacity || cnBody_IsValid( w->world, id ) == false )
	{
		return -1;
	}
	return w->bodyOfIndex[id.index];
}

// ---------------------------------------------------------------------------------------------
// world settings, materials

static void cnWriteSettings( cJSON* root, const cnWorld* world )
{
	cnWorldDef d = cnWorld_GetDef( world );
	cnAddVec( root, "gravity", cnWorld_GetGravity( world ) );
	cJSON_AddStringToObject( root, "method", cnMethod_GetName( d.method ) );
	cnAddNum( root, "substeps", d.settings.impulse.subSteps );
	cnAddNum( root, "relax_iterations", d.settings.impulse.relaxIterations );
	if ( d.settings.impulse.simd != cnSimd_auto )
	{
		static const char* const names[] = { "auto", "scalar", "sse2", "avx2", "avx512" };
		cJSON_AddStringToObject( root, "simd", names[d.settings.impulse.simd] );
	}
	cJSON_AddStringToObject( root, "lcp_solver", d.settings.velocity.lcpSolver == cnLcp_lemke ? "lemke" : "dantzig" );
	cJSON_AddStringToObject( root, "integrator", d.settings.velocity.integrator == cnIntegrator_explicitEuler
													 ? "explicit-euler"
													 : "symplectic-euler" );
	cJSON_AddBoolToObject( root, "planar", d.planar );
	cJSON_AddBoolToObject( root, "speculative_contacts", d.settings.velocity.speculativeContacts );
	cJSON_AddBoolToObject( root, "position_correction", d.settings.velocity.positionCorrection );
	cnAddNum( root, "tolerance", d.settings.penalty.errorTolerance );
	cJSON_AddBoolToObject( root, "sleep", d.enableSleep );
	cJSON_AddBoolToObject( root, "continuous", d.enableContinuous );
	// one worker is the default: most scenes never name it
	if ( d.workerCount > 1 )
	{
		cnAddNum( root, "workers", d.workerCount );
	}
	cJSON_AddStringToObject( root, "on_instability", cnInstabilityAction_GetName( d.onInstability ) );
	// the library's default is the absence of the key
	if ( d.contactRecycleDistance != cnDefaultWorldDef().contactRecycleDistance )
	{
		cnAddNum( root, "contact_recycle_distance", d.contactRecycleDistance );
	}
	// infinite bounds are the absence of the key
	if ( isfinite( d.maxSpeed ) )
	{
		cnAddNum( root, "max_speed", d.maxSpeed );
	}
	if ( isfinite( d.maxAngularSpeed ) )
	{
		cnAddNum( root, "max_angular_speed", d.maxAngularSpeed );
	}
	if ( isfinite( d.maxEnergyGrowth ) )
	{
		cnAddNum( root, "max_energy_growth", d.maxEnergyGrowth );
	}
}

static void cnWriteMaterials( cJSON* root, const cnWriter* w )
{
	cJSON* materials = cJSON_AddObjectToObject( root, "materials" );
	for ( int i = 0; i < w->materialCount; ++i )
	{
		cnMaterialDef md = cnMaterial_GetDef( w->world, i );
		cJSON* m = cJSON_AddObjectToObject( materials, w->materialNames[i] );
		cnAddNum( m, "density", md.density );
		cnAddNum( m, "friction", md.friction );
		cnAddNum( m, "restitution", md.restitution );
		cnAddNum( m, "stiffness", md.stiffness );
		cnAddNum( m, "damping", md.damping );
		cJSON* a = cJSON_AddObjectToObject( m, "appearance" );
		cnAddVec( a, "color", cnV3( md.color[0], md.color[1], md.color[2] ) );
		cJSON_AddStringToObject( a, "finish", cnFinish_GetName( md.finish ) );
		if ( md.texture != NULL && md.texture[0] != 0 )
		{
			cJSON_AddStringToObject( a, "texture", md.texture );
		}
		cnAddNum( a, "ior", md.ior );
	}

	// a pair is written when its values are not what the two materials give by the mixing rules
	cJSON* pairs = cJSON_CreateArray();
	for ( int a = 0; a < w->materialCount; ++a )
	{
		cnMaterialDef ma = cnMaterial_GetDef( w->world, a );
		for ( int b = a; b < w->materialCount; ++b )
		{
			cnMaterialDef mb = cnMaterial_GetDef( w->world, b );
			double friction = 0.0, restitution = 0.0;
			cnWorld_GetMaterialPair( w->world, a, b, &friction, &restitution );
			double mixedFriction = a == b ? ma.friction : cnMixFriction( ma.friction, mb.friction );
			double mixedRestitution = a == b ? ma.restitution : cnMixRestitution( ma.restitution, mb.restitution );
			if ( friction == mixedFriction && restitution == mixedRestitution )
			{
				continue;
			}
			cJSON* p = cJSON_CreateObject();
			cJSON* names = cJSON_AddArrayToObject( p, "materials" );
			cJSON_AddItemToArray( names, cJSON_CreateString( w->materialNames[a] ) );
			cJSON_AddItemToArray( names, cJSON_CreateString( w->materialNames[b] ) );
			cnAddNum( p, "friction", friction );
			cnAddNum( p, "restitution", restitution );
			cJSON_AddItemToArray( pairs, p );
		}
	}
	cJSON_AddItemToObject( root, "material_pairs", pairs );
}

// ---------------------------------------------------------------------------------------------
// shapes

static bool cnWriteGeometry( cJSON* s, const cnShapeDef* d )
{
	switch ( d->type )
	{
		case cnShape_sphere:
			cnAddNum( s, "radius", d->radius );
			return true;
		case cnShape_box:
			cnAddVec( s, "half_extents", d->halfExtents );
			return true;
		case cnShape_capsule:
		case cnShape_cylinder:
			cnAddNum( s, "radius", d->radius );
			cnAddNum( s, "half_height", d->halfHeight );
			return true;
		case cnShape_plane:
			cnAddVec( s, "normal", d->normal );
			cnAddNum( s, "offset", d->offset );
			return true;
		case cnShape_hull:
		{
			// the hull of its own vertices is itself
			cJSON* points = cJSON_AddArrayToObject( s, "points" );
			int n = cnHull_GetVertexCount( d->hull );
			for ( int i = 0; i < n; ++i )
			{
				cJSON_AddItemToArray( points, cnVecJson( cnHull_GetVertex( d->hull, i ) ) );
			}
			return true;
		}
		case cnShape_mesh:
		{
			cJSON* vertices = cJSON_AddArrayToObject( s, "vertices" );
			int n = cnMesh_GetVertexCount( d->mesh );
			for ( int i = 0; i < n; ++i )
			{
				cJSON_AddItemToArray( vertices, cnVecJson( cnMesh_GetVertex( d->mesh, i ) ) );
			}
			cJSON* triangles = cJSON_AddArrayToObject( s, "triangles" );
			int t = cnMesh_GetTriangleCount( d->mesh );
			for ( int i = 0; i < t; ++i )
			{
				int k[3];
				cnMesh_GetTriangle( d->mesh, i, k );
				cJSON_AddItemToArray( triangles, cJSON_CreateIntArray( k, 3 ) );
			}
			return true;
		}
		case cnShape_heightfield:
		{
			cnVec3 size = cnHeightfield_GetSize( d->heightfield );
			cJSON* sz = cJSON_AddArrayToObject( s, "size" );
			cJSON_AddItemToArray( sz, cnNum( size.x ) );
			cJSON_AddItemToArray( sz, cnNum( size.y ) );
			// rows along y, each a row of samples along x
			cJSON* heights = cJSON_AddArrayToObject( s, "heights" );
			int columns = cnHeightfield_GetColumnCount( d->heightfield );
			int rows = cnHeightfield_GetRowCount( d->heightfield );
			for ( int j = 0; j < rows; ++j )
			{
				cJSON* row = cJSON_CreateArray();
				for ( int i = 0; i < columns; ++i )
				{
					cJSON_AddItemToArray( row, cnNum( cnHeightfield_GetHeight( d->heightfield, i, j ) ) );
				}
				cJSON_AddItemToArray( heights, row );
			}
			return true;
		}
		default:
			// polygons exist only in planar FOSSSim scenes, which the JSON format does not describe
			return cnSetError( cnError_unsupported, "a %s shape cannot be written to a JSON scene",
							   cnShapeType_GetName( d->type ) );
	}
}

static bool cnWriteShapes( cJSON* body, const cnWriter* w, cnBodyId id )
{
	int count = cnBody_GetShapeCount( w->world, id );
	cJSON* shapes = cJSON_AddArrayToObject( body, "shapes" );
	if ( count <= 0 )
	{
		return true;
	}
	cnShapeId* ids = malloc( (size_t)count * sizeof( cnShapeId ) );
	if ( ids == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
	}
	count = cnBody_GetShapes( w->world, id, ids, count );
	cnShapeDef defaults = cnDefaultShapeDef();
	bool ok = true;
	for ( int i = 0; ok && i < count; ++i )
	{
		cnShapeDef d = cnShape_GetDef( w->world, ids[i] );
		cJSON* s = cJSON_CreateObject();
		cJSON_AddItemToArray( shapes, s );
		cJSON_AddStringToObject( s, "type", cnShapeType_GetName( d.type ) );
		ok = cnWriteGeometry( s, &d );
		cnAddVec( s, "position", d.position );
		cnAddQuat( s, "orientation", d.orientation );
		if ( d.material >= 0 && d.material < w->materialCount )
		{
			cJSON_AddStringToObject( s, "material", w->materialNames[d.material] );
		}
		if ( d.categoryBits != defaults.categoryBits )
		{
			cnAddBits( s, "category", d.categoryBits );
		}
		if ( d.maskBits != defaults.maskBits )
		{
			cnAddBits( s, "mask", d.maskBits );
		}
		if ( d.groupIndex != 0 )
		{
			cnAddNum( s, "group", d.groupIndex );
		}
	}
	free( ids );
	return ok;
}

// ---------------------------------------------------------------------------------------------
// bodies and their forces

static void cnWriteForce( cJSON* body, const cnWriter* w, const cnForceDef* f )
{
	cJSON* list = cJSON_GetObjectItemCaseSensitive( body, f->isTorque ? "torques" : "forces" );
	if ( list == NULL )
	{
		list = cJSON_AddArrayToObject( body, f->isTorque ? "torques" : "forces" );
	}
	cJSON* o = cJSON_CreateObject();
	cJSON_AddItemToArray( list, o );
	const char* frame = f->frame == cnForce_body ? "body" : ( f->frame == cnForce_target ? "target" : "world" );
	cJSON_AddStringToObject( o, "frame", frame );
	if ( f->isTorque == false )
	{
		cnAddVec( o, "point", f->localPoint );
	}
	if ( f->frame == cnForce_target && f->isTorque == false )
	{
		cnAddNum( o, "magnitude", cnLength( f->vector ) );
		int target = cnBodyPosition( w, f->target );
		if ( target >= 0 )
		{
			cJSON_AddStringToObject( o, "target", w->bodyNames[target] );
		}
		cnAddVec( o, "target_point", f->targetPoint );
	}
	else
	{
		cnAddVec( o, "vector", f->vector );
	}
	// the scene's t = 0 is the world's current time: the window is written from it (a force that
	// started earlier starts at a negative time, so it acts from the first step)
	double now = cnWorld_GetTime( w->world );
	cnAddNum( o, "start", f->t0 - now );
	if ( isfinite( f->t1 ) )
	{
		cnAddNum( o, "end", f->t1 - now );
	}
}

static bool cnWriteBodies( cJSON* root, const cnWriter* w )
{
	cJSON* bodies = cJSON_AddArrayToObject( root, "bodies" );
	cJSON** items = calloc( (size_t)w->bodyCount + 1, sizeof( cJSON* ) );
	if ( items == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
	}
	bool ok = true;
	for ( int i = 0; ok && i < w->bodyCount; ++i )
	{
		cnBodyId id = cnWorld_GetBody( w->world, i );
		cnBodyDef d = cnBody_GetDef( w->world, id );
		cJSON* b = cJSON_CreateObject();
		items[i] = b;
		cJSON_AddItemToArray( bodies, b );
		cJSON_AddStringToObject( b, "name", w->bodyNames[i] );
		cJSON_AddStringToObject( b, "type", cnBodyType_GetName( d.type ) );
		cnAddVec( b, "position", d.position );
		cnAddQuat( b, "orientation", d.orientation );
		if ( d.type != cnBody_static )
		{
			// a static body's velocity is zero by the loader's rule
			cnAddVec( b, "velocity", d.linearVelocity );
			cnAddVec( b, "angular_velocity", d.angularVelocity );
			cJSON_AddBoolToObject( b, "awake", d.isAwake );
		}
		if ( d.type == cnBody_dynamic )
		{
			// the mass is written always: set to what the shapes give, the inertia is scaled by exactly
			// 1, and an override of the density's mass is kept
			cnAddNum( b, "mass", cnBody_GetMass( w->world, id ) );
		}
		cnAddNum( b, "gravity_scale", d.gravityScale );
		cnAddNum( b, "linear_damping", d.linearDamping );
		cnAddNum( b, "angular_damping", d.angularDamping );
		cnAddNum( b, "drag", d.dragCoefficient );
		cJSON_AddBoolToObject( b, "sleep", d.enableSleep );
		cJSON_AddBoolToObject( b, "bullet", d.isBullet );
		ok = cnWriteShapes( b, w, id );
	}
	int forces = cnWorld_GetForceCount( w->world );
	for ( int i = 0; ok && i < forces; ++i )
	{
		cnForceDef f = cnForce_GetDef( w->world, cnWorld_GetForce( w->world, i ) );
		int body = cnBodyPosition( w, f.body );
		if ( body >= 0 )
		{
			cnWriteForce( items[body], w, &f );
		}
	}
	free( items );

	// pairs that never collide
	cJSON* noCollide = cJSON_CreateArray();
	for ( int i = 0; ok && i < w->bodyCount; ++i )
	{
		for ( int k = i + 1; k < w->bodyCount; ++k )
		{
			if ( cnWorld_IsCollisionDisabled( w->world, cnWorld_GetBody( w->world, i ), cnWorld_GetBody( w->world, k ) ) )
			{
				cJSON* pair = cJSON_CreateArray();
				cJSON_AddItemToArray( pair, cJSON_CreateString( w->bodyNames[i] ) );
				cJSON_AddItemToArray( pair, cJSON_CreateString( w->bodyNames[k] ) );
				cJSON_AddItemToArray( noCollide, pair );
			}
		}
	}
	cJSON_AddItemToObject( root, "no_collide", noCollide );
	return ok;
}

// ---------------------------------------------------------------------------------------------
// joints: created again at the current poses, so points and axes are today's world coordinates and
// the angles and translations that were measured from creation are shifted by where they are now

static void cnWriteMotorSpring( cJSON* j, const cnWorld* world, cnJointId id, bool hinge, double position )
{
	double lower = 0.0, upper = 0.0;
	if ( cnJoint_GetLimits( world, id, &lower, &upper ) )
	{
		cnAddRange( j, hinge ? "limits_deg" : "limits", lower - position, upper - position, hinge );
	}
	double speed = 0.0, maxForce = 0.0;
	if ( cnJoint_GetMotor( world, id, &speed, &maxForce ) )
	{
		cJSON* m = cJSON_AddObjectToObject( j, "motor" );
		cnAddNum( m, "speed", speed );
		cnAddNum( m, hinge ? "max_torque" : "max_force", maxForce );
	}
	double stiffness = 0.0, damping = 0.0, rest = 0.0;
	if ( cnJoint_GetSpring( world, id, &stiffness, &damping, &rest ) )
	{
		cJSON* s = cJSON_AddObjectToObject( j, "spring" );
		cnAddNum( s, "stiffness", stiffness );
		cnAddNum( s, "damping", damping );
		if ( hinge )
		{
			cnAddDegrees( s, "rest_deg", rest - position );
		}
		else
		{
			cnAddNum( s, "rest", rest - position );
		}
	}
}

static bool cnWriteJoints( cJSON* root, const cnWriter* w )
{
	const cnWorld* world = w->world;
	cJSON* joints = cJSON_AddArrayToObject( root, "joints" );
	int count = cnWorld_GetJointCount( world );
	char** names = calloc( (size_t)count + 1, sizeof( char* ) );
	if ( names == NULL )
	{
		return cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
	}
	bool ok = true;
	for ( int i = 0; ok && i < count; ++i )
	{
		cnJointId id = cnWorld_GetJoint( world, i );
		ok = cnUniqueName( names, i, cnJoint_GetName( world, id ), "joint" ) ||
			 cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
		// a broken joint no longer acts, as one that is not there
		if ( ok == false || cnJoint_IsBroken( world, id ) )
		{
			continue;
		}
		cnJointType type = cnJoint_GetType( world, id );
		int a = cnBodyPosition( w, cnJoint_GetBodyA( world, id ) );
		int b = cnBodyPosition( w, cnJoint_GetBodyB( world, id ) );
		if ( a < 0 )
		{
			continue;
		}
		cJSON* j = cJSON_CreateObject();
		cJSON_AddItemToArray( joints, j );
		cJSON_AddStringToObject( j, "name", names[i] );
		cJSON_AddStringToObject( j, "type", cnJointType_GetName( type ) );
		cJSON* bodies = cJSON_AddArrayToObject( j, "bodies" );
		cJSON_AddItemToArray( bodies, cJSON_CreateString( w->bodyNames[a] ) );
		if ( b >= 0 )
		{
			cJSON_AddItemToArray( bodies, cJSON_CreateString( w->bodyNames[b] ) );
		}
		cnVec3 anchorA = cnJoint_GetAnchorA( world, id );
		cnVec3 anchorB = cnJoint_GetAnchorB( world, id );
		cnVec3 axis = cnJoint_GetAxis( world, id );
		double position = cnJoint_GetPosition( world, id );
		double lower = 0.0, upper = 0.0;
		switch ( type )
		{
			case cnJoint_ball:
			case cnJoint_fixed:
				cnAddVec( j, "anchor", anchorA );
				break;
			case cnJoint_hinge:
			case cnJoint_slider:
				cnAddVec( j, "anchor", anchorA );
				cnAddVec( j, "axis", axis );
				cnWriteMotorSpring( j, world, id, type == cnJoint_hinge, position );
				break;
			case cnJoint_universal:
			{
				cnAddVec( j, "anchor", anchorA );
				cJSON* axes = cJSON_AddArrayToObject( j, "axes" );
				cJSON_AddItemToArray( axes, cnVecJson( axis ) );
				cJSON_AddItemToArray( axes, cnVecJson( cnJoint_GetSecondAxis( world, id ) ) );
				break;
			}
			case cnJoint_coneTwist:
				cnAddVec( j, "anchor", anchorA );
				cnAddVec( j, "axis", axis );
				cnAddDegrees( j, "swing_deg", cnJoint_GetSwingAngle( world, id ) );
				if ( cnJoint_GetLimits( world, id, &lower, &upper ) || isfinite( lower ) )
				{
					// the twist range keeps 0 inside it (the loader's rule) when it is shifted
					double lo = fmin( lower - position, 0.0 ), hi = fmax( upper - position, 0.0 );
					cnAddRange( j, "twist_deg", fmax( lo, -CN_PI ), fmin( hi, CN_PI ), true );
				}
				break;
			case cnJoint_distance:
				cJSON_AddItemToObject( j, "anchors", cJSON_CreateArray() );
				cJSON_AddItemToArray( cJSON_GetObjectItem( j, "anchors" ), cnVecJson( anchorA ) );
				cJSON_AddItemToArray( cJSON_GetObjectItem( j, "anchors" ), cnVecJson( anchorB ) );
				cnJoint_GetLimits( world, id, &lower, &upper );
				cnAddNum( j, "min_length", lower );
				cnAddNum( j, "max_length", upper );
				break;
			case cnJoint_spring:
			case cnJoint_damper:
			{
				cJSON_AddItemToObject( j, "anchors", cJSON_CreateArray() );
				cJSON_AddItemToArray( cJSON_GetObjectItem( j, "anchors" ), cnVecJson( anchorA ) );
				cJSON_AddItemToArray( cJSON_GetObjectItem( j, "anchors" ), cnVecJson( anchorB ) );
				double stiffness = 0.0, damping = 0.0, rest = 0.0;
				cnJoint_GetSpring( world, id, &stiffness, &damping, &rest );
				if ( type == cnJoint_spring )
				{
					cnAddNum( j, "stiffness", stiffness );
					cnAddNum( j, "rest_length", rest );
				}
				cnAddNum( j, "damping", damping );
				cnAddNum( j, "min_length", cnJoint_GetMinLength( world, id ) );
				break;
			}
			case cnJoint_pointOnPlane:
				cnAddVec( j, "anchor", anchorA );
				cnAddVec( j, "normal", axis );
				break;
			default:
				break;
		}
		cnJointBreakLimits limits = cnJoint_GetBreakLimits( world, id );
		cJSON_AddBoolToObject( j, "collide_connected", cnJoint_GetCollideConnected( world, id ) );
		cnAddNum( j, "break_force", limits.force );
		cnAddNum( j, "break_torque", limits.torque );
	}
	for ( int i = 0; i < count; ++i )
	{
		free( names[i] );
	}
	free( names );
	return ok;
}

// ---------------------------------------------------------------------------------------------
// cameras

// The camera's body is written (the writer's body names are unique, so the loader finds it by name).
static bool cnCameraBodyWritten( const cnWriter* w, const char* body )
{
	for ( int i = 0; body != NULL && i < w->bodyCount; ++i )
	{
		if ( strcmp( w->bodyNames[i], body ) == 0 )
		{
			return true;
		}
	}
	return false;
}

// "cameras", each with every key its type takes; a follow or mounted camera whose body is gone (a cut
// deleted it) is left out, as the loader refuses a camera naming no body. No key when none is left.
static void cnWriteCameras( cJSON* root, const cnWriter* w, const cnCameraDef* cameras, int count )
{
	static const char* const typeNames[] = { "fixed", "follow", "mounted", "path" };
	cJSON* list = cJSON_CreateArray();
	for ( int i = 0; i < count; ++i )
	{
		const cnCameraDef* c = cameras + i;
		bool onBody = c->type == cnCamera_follow || c->type == cnCamera_mounted;
		if ( (int)c->type < 0 || (int)c->type > cnCamera_path || ( onBody && cnCameraBodyWritten( w, c->body ) == false ) )
		{
			continue;
		}
		cJSON* camera = cJSON_CreateObject();
		cJSON_AddStringToObject( camera, "name", c->name != NULL ? c->name : "" );
		cJSON_AddStringToObject( camera, "type", typeNames[c->type] );
		switch ( c->type )
		{
			case cnCamera_fixed:
				cnAddVec( camera, "position", c->position );
				cnAddVec( camera, "look_at", c->lookAt );
				break;
			case cnCamera_follow:
				cJSON_AddStringToObject( camera, "body", c->body );
				cnAddVec( camera, "offset", c->offset );
				break;
			case cnCamera_mounted:
				cJSON_AddStringToObject( camera, "body", c->body );
				cnAddVec( camera, "offset", c->offset );
				cnAddVec( camera, "look_at", c->localLookAt );
				break;
			case cnCamera_path:
			{
				cJSON* keys = cJSON_CreateArray();
				for ( int k = 0; c->keys != NULL && k < c->keyCount; ++k )
				{
					cJSON* key = cJSON_CreateObject();
					cnAddNum( key, "time", c->keys[k].time );
					cnAddVec( key, "position", c->keys[k].position );
					cnAddVec( key, "look_at", c->keys[k].lookAt );
					cJSON_AddItemToArray( keys, key );
				}
				cJSON_AddItemToObject( camera, "keys", keys );
				break;
			}
		}
		cnAddNum( camera, "fov_deg", c->fovDeg );
		cJSON_AddItemToArray( list, camera );
	}
	if ( cJSON_GetArraySize( list ) > 0 )
	{
		cJSON_AddItemToObject( root, "cameras", list );
	}
	else
	{
		cJSON_Delete( list );
	}
}

// ---------------------------------------------------------------------------------------------
// the scene

char* cnWriteSceneToString( const cnWorld* world, const cnSceneWriteDef* def )
{
	if ( world == NULL )
	{
		cnSetError( cnError_invalidArgument, "cnWriteSceneToString: world is NULL" );
		return NULL;
	}
	cnSceneWriteDef d = def != NULL ? *def : cnDefaultSceneWriteDef();
	if ( !( d.timeStep > 0.0 ) || !( d.fps > 0.0 ) || !( d.duration >= 0.0 ) || !isfinite( d.timeStep ) ||
		 !isfinite( d.fps ) || !isfinite( d.duration ) )
	{
		cnSetError( cnError_invalidArgument, "a scene needs a time step > 0, fps > 0 and a duration >= 0" );
		return NULL;
	}
	if ( d.cameraCount < 0 || ( d.cameraCount > 0 && d.cameras == NULL ) )
	{
		cnSetError( cnError_invalidArgument, "cnWriteSceneToString: cameraCount %d needs that many cameras",
					d.cameraCount );
		return NULL;
	}
	cnWriter w;
	memset( &w, 0, sizeof( w ) );
	cJSON* root = cJSON_CreateObject();
	bool ok = root != NULL && cnInitWriter( &w, world );
	if ( ok )
	{
		cnAddNum( root, "cairn", 1 );
		cJSON_AddStringToObject( root, "name", d.name != NULL && d.name[0] != 0 ? d.name : "scene" );
		if ( d.description != NULL )
		{
			cJSON_AddStringToObject( root, "description", d.description );
		}
		cnAddNum( root, "timestep", d.timeStep );
		cnAddNum( root, "duration", d.duration );
		cnAddNum( root, "fps", d.fps );
		cnWriteSettings( root, world );
		cnWriteMaterials( root, &w );
		ok = cnWriteBodies( root, &w ) && cnWriteJoints( root, &w );
		if ( ok )
		{
			cnWriteCameras( root, &w, d.cameras, d.cameraCount );
		}
	}
	char* text = ok ? cJSON_Print( root ) : NULL;
	if ( ok && text == NULL )
	{
		cnSetError( cnError_outOfMemory, "out of memory writing a scene" );
	}
	cnFreeWriter( &w );
	cJSON_Delete( root );
	return text;
}

bool cnWriteScene( const cnWorld* world, const cnSceneWriteDef* def, const char* path )
{
	if ( path == NULL )
	{
		return cnSetError( cnError_invalidArgument, "cnWriteScene: path is NULL" );
	}
	char* text = cnWriteSceneToString( world, def );
	if ( text == NULL )
	{
		return false;
	}
	FILE* f = fopen( path, "wb" );
	if ( f == NULL )
	{
		free( text );
		return cnSetError( cnError_io, "%s: cannot open for writing", path );
	}
	size_t n = strlen( text );
	bool ok = fwrite( text, 1, n, f ) == n && fputc( '\n', f ) != EOF;
	ok = fclose( f ) == 0 && ok;
	free( text );
	return ok || cnSetError( cnError_io, "%s: cannot write", path );
}
