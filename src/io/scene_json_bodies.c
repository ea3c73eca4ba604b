// SPDX-License-Identifier: MIT
// The JSON scene loader's bodies: their names, shapes, forces and torques (scene_json.c reads the
// rest of the file; json_read.h the values).
#include "io/json_read.h"
#include "io/scene_json_geometry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// body and material names

static uint32_t cnHashName( const char* s )
{
	// FNV-1a
	uint32_t h = 2166136261u;
	for ( ; *s != 0; ++s )
	{
		h = ( h ^ (uint8_t)*s ) * 16777619u;
	}
	return h;
}

// Index (into bodyNames) of the body with this name, or -1.
static int cnFindBodyIndex( const cnLoader* L, const char* name )
{
	if ( L->slotCapacity == 0 )
	{
		return -1;
	}
	uint32_t mask = (uint32_t)L->slotCapacity - 1;
	for ( uint32_t k = cnHashName( name ) & mask;; k = ( k + 1 ) & mask )
	{
		int index = L->slots[k];
		if ( index < 0 )
		{
			return -1;
		}
		if ( strcmp( L->bodyNames[index], name ) == 0 )
		{
			return index;
		}
	}
}

static void cnAddBodyName( cnLoader* L, const char* name, cnBodyId id )
{
	uint32_t mask = (uint32_t)L->slotCapacity - 1;
	uint32_t k = cnHashName( name ) & mask;
	while ( L->slots[k] >= 0 )
	{
		k = ( k + 1 ) & mask;
	}
	L->slots[k] = L->bodyCount;
	L->bodyNames[L->bodyCount] = name;
	L->bodyIds[L->bodyCount] = id;
	L->bodyCount += 1;
}

bool cnJsonAllocBodyNames( cnLoader* L, int bodyCount )
{
	int slotCapacity = 16;
	while ( slotCapacity < 2 * bodyCount )
	{
		slotCapacity *= 2;
	}
	L->bodyNames = malloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ) * sizeof( const char* ) );
	L->bodyIds = malloc( (size_t)( bodyCount > 0 ? bodyCount : 1 ) * sizeof( cnBodyId ) );
	L->slots = malloc( (size_t)slotCapacity * sizeof( int ) );
	if ( L->bodyNames == NULL || L->bodyIds == NULL || L->slots == NULL )
	{
		return cnJsonFailOutOfMemory( L );
	}
	L->slotCapacity = slotCapacity;
	for ( int i = 0; i < slotCapacity; ++i )
	{
		L->slots[i] = -1;
	}
	return true;
}

bool cnJsonBodyByName( cnLoader* L, const char* name, cnBodyId* id )
{
	int index = cnFindBodyIndex( L, name );
	if ( index < 0 )
	{
		return cnJsonFail( L, "unknown body \"%s\" (no body in \"bodies\" has this name)", name );
	}
	*id = L->bodyIds[index];
	return true;
}

// Reads obj[key] as a material name and resolves it.
static bool cnReadMaterial( cnLoader* L, const cJSON* obj, const char* key, cnMaterialId* id )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	const char* name = NULL;
	int saved = cnJsonPushKey( L, key );
	bool ok = cnJsonStringValue( L, item, &name ) && cnJsonMaterialByName( L, name, id );
	cnJsonPopPath( L, saved );
	return ok;
}

// Reads obj[key] as a body name and resolves it.
static bool cnReadBody( cnLoader* L, const cJSON* obj, const char* key, cnBodyId* id )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	const char* name = NULL;
	int saved = cnJsonPushKey( L, key );
	bool ok = cnJsonStringValue( L, item, &name ) && cnJsonBodyByName( L, name, id );
	cnJsonPopPath( L, saved );
	return ok;
}


// ---------------------------------------------------------------------------------------------
// shapes, bodies and forces

static const char* const cnSphereKeys[] = { "type",     "radius",   "position", "orientation", "euler_deg",
											"material", "category", "mask",     "group" };
static const char* const cnBoxKeys[] = { "type",     "half_extents", "position", "orientation", "euler_deg",
										 "material", "category",     "mask",     "group" };
static const char* const cnRoundKeys[] = { "type",      "radius",   "half_height", "position", "orientation",
										   "euler_deg", "material", "category",    "mask",     "group" };
static const char* const cnPlaneKeys[] = { "type",      "normal",   "offset",   "position", "orientation",
										   "euler_deg", "material", "category", "mask",     "group" };
static const char* const cnHullKeys[] = { "type",		 "points",	 "file",	 "scale", "position",
										  "orientation", "euler_deg", "material", "category", "mask",
										  "group" };
static const char* const cnMeshKeys[] = { "type",		 "file",	  "scale",	  "vertices", "triangles", "position",
										  "orientation", "euler_deg", "material", "category", "mask",	   "group" };
static const char* const cnHeightfieldKeys[] = { "type",	 "size",		"heights",	 "file",	 "height_scale", "position",
												 "orientation", "euler_deg", "material", "category", "mask",		 "group" };
static const char* const cnCompoundKeys[] = { "type",	   "parts",	   "file",	   "scale", "position", "orientation",
											  "euler_deg", "material", "category", "mask",	"group" };

// A compound: one hull shape per part, all at the compound's pose and with its material and filter.
static bool cnLoadCompound( cnLoader* L, const cJSON* s, cnBodyId body, cnShapeDef* def )
{
	cnHull* hulls[CN_JSON_MAX_COMPOUND_PARTS];
	int count = cnJsonReadCompound( L, s, hulls, CN_JSON_MAX_COMPOUND_PARTS );
	if ( count < 0 )
	{
		return false;
	}
	bool ok = true;
	for ( int i = 0; i < count; ++i )
	{
		def->hull = hulls[i];
		if ( ok && cnCreateShape( L->world, body, def ).index < 0 )
		{
			char part[32];
			snprintf( part, sizeof( part ), "part %d", i );
			ok = cnJsonLibraryFailure( L, part );
		}
		cnReleaseHull( hulls[i] );
	}
	return ok;
}

static bool cnLoadShape( cnLoader* L, const cJSON* s, cnBodyId body, cnBodyType bodyType, cnMaterialId bodyMaterial )
{
	if ( cJSON_IsObject( s ) == false )
	{
		return cnJsonFail( L, "expected an object (a shape), got %s", cnJsonKind( s ) );
	}
	if ( cnJsonRequire( L, s, "type", "sphere, box, capsule, cylinder, plane, hull, mesh, heightfield or compound" ) == false )
	{
		return false;
	}
	const char* typeName = NULL;
	if ( cnJsonReadString( L, s, "type", &typeName ) == false )
	{
		return false;
	}
	cnShapeDef def = cnDefaultShapeDef();
	const char* const* keys = NULL;
	int keyCount = 0;
	const char* what = NULL;
	bool compound = false;
	if ( strcmp( typeName, "sphere" ) == 0 )
	{
		def.type = cnShape_sphere;
		keys = cnSphereKeys, keyCount = CN_COUNT( cnSphereKeys ), what = "a sphere shape";
	}
	else if ( strcmp( typeName, "box" ) == 0 )
	{
		def.type = cnShape_box;
		keys = cnBoxKeys, keyCount = CN_COUNT( cnBoxKeys ), what = "a box shape";
	}
	else if ( strcmp( typeName, "capsule" ) == 0 )
	{
		def.type = cnShape_capsule;
		keys = cnRoundKeys, keyCount = CN_COUNT( cnRoundKeys ), what = "a capsule shape";
	}
	else if ( strcmp( typeName, "cylinder" ) == 0 )
	{
		def.type = cnShape_cylinder;
		keys = cnRoundKeys, keyCount = CN_COUNT( cnRoundKeys ), what = "a cylinder shape";
	}
	else if ( strcmp( typeName, "plane" ) == 0 )
	{
		def.type = cnShape_plane;
		keys = cnPlaneKeys, keyCount = CN_COUNT( cnPlaneKeys ), what = "a plane shape";
	}
	else if ( strcmp( typeName, "hull" ) == 0 )
	{
		def.type = cnShape_hull;
		keys = cnHullKeys, keyCount = CN_COUNT( cnHullKeys ), what = "a hull shape";
	}
	else if ( strcmp( typeName, "mesh" ) == 0 )
	{
		def.type = cnShape_mesh;
		keys = cnMeshKeys, keyCount = CN_COUNT( cnMeshKeys ), what = "a mesh shape";
	}
	else if ( strcmp( typeName, "heightfield" ) == 0 )
	{
		def.type = cnShape_heightfield;
		keys = cnHeightfieldKeys, keyCount = CN_COUNT( cnHeightfieldKeys ), what = "a heightfield shape";
	}
	else if ( strcmp( typeName, "compound" ) == 0 )
	{
		// several hull shapes at one pose
		def.type = cnShape_hull;
		compound = true;
		keys = cnCompoundKeys, keyCount = CN_COUNT( cnCompoundKeys ), what = "a compound shape";
	}
	else
	{
		return cnJsonFailAt( L, "type",
							 "unknown shape type \"%s\" (allowed: sphere, box, capsule, cylinder, plane, hull, mesh, "
							 "heightfield, compound)",
							 typeName );
	}
	if ( cnJsonCheckKeys( L, s, keys, keyCount, what ) == false )
	{
		return false;
	}

	// size
	switch ( def.type )
	{
		case cnShape_sphere:
			if ( cnJsonRequire( L, s, "radius", "metres" ) == false ||
				 cnJsonReadNumber( L, s, "radius", cnJsonCheck_positive, &def.radius ) == false )
			{
				return false;
			}
			break;
		case cnShape_box:
			if ( cnJsonRequire( L, s, "half_extents", "[a, b, c] in metres" ) == false ||
				 cnJsonReadVec3( L, s, "half_extents", cnJsonCheck_positive, &def.halfExtents ) == false )
			{
				return false;
			}
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			if ( cnJsonRequire( L, s, "radius", "metres" ) == false ||
				 cnJsonRequire( L, s, "half_height", "metres along the local z axis" ) == false ||
				 cnJsonReadNumber( L, s, "radius", cnJsonCheck_positive, &def.radius ) == false ||
				 cnJsonReadNumber( L, s, "half_height", cnJsonCheck_positive, &def.halfHeight ) == false )
			{
				return false;
			}
			break;
		case cnShape_plane:
			if ( bodyType != cnBody_static )
			{
				return cnJsonFailAt( L, "type", "a plane can only belong to a static body (this body is %s)",
									 cnBodyType_GetName( bodyType ) );
			}
			if ( cnJsonReadVec3( L, s, "normal", cnJsonCheck_any, &def.normal ) == false ||
				 cnJsonReadNumber( L, s, "offset", cnJsonCheck_any, &def.offset ) == false )
			{
				return false;
			}
			// any other finite normal, however long or short, is normalised by the library (scaled first,
			// so [1e-200, 0, 1e-200] is as good as [1, 0, 1])
			if ( def.normal.x == 0.0 && def.normal.y == 0.0 && def.normal.z == 0.0 )
			{
				return cnJsonFailAt( L, "normal", "the plane normal has zero length" );
			}
			break;
		default:
			break;
	}

	// pose, material and collision filter
	def.material = bodyMaterial;
	double group = 0.0;
	if ( cnJsonReadVec3( L, s, "position", cnJsonCheck_any, &def.position ) == false ||
		 cnJsonReadOrientation( L, s, &def.orientation ) == false ||
		 cnReadMaterial( L, s, "material", &def.material ) == false ||
		 cnJsonReadBits( L, s, "category", &def.categoryBits ) == false ||
		 cnJsonReadBits( L, s, "mask", &def.maskBits ) == false ||
		 cnJsonReadInteger( L, s, "group", (double)INT32_MIN, (double)INT32_MAX, &group ) == false )
	{
		return false;
	}
	def.groupIndex = (int32_t)group;
	L->materialUsed[def.material] = true;

	// shared geometry: made last, so nothing above has to release it on failure
	if ( compound )
	{
		return cnLoadCompound( L, s, body, &def );
	}
	bool made = true;
	switch ( def.type )
	{
		case cnShape_hull:
			made = cnJsonReadHullShape( L, s, &def );
			break;
		case cnShape_mesh:
			made = cnJsonReadMeshShape( L, s, bodyType, &def );
			break;
		case cnShape_heightfield:
			made = cnJsonReadHeightfieldShape( L, s, bodyType, &def );
			break;
		default:
			break;
	}
	if ( made == false )
	{
		return false;
	}
	cnShapeId id = cnCreateShape( L->world, body, &def );
	// the shape holds its own reference to the geometry
	cnReleaseHull( (cnHull*)def.hull );
	cnReleaseMesh( (cnMesh*)def.mesh );
	cnReleaseHeightfield( (cnHeightfield*)def.heightfield );
	if ( id.index < 0 )
	{
		return cnJsonLibraryFailure( L, NULL );
	}
	return true;
}

// Length of a finite vector for messages, scaled so that its square does not overflow.
static double cnShowLength( cnVec3 v )
{
	double largest = fmax( fabs( v.x ), fmax( fabs( v.y ), fabs( v.z ) ) );
	return largest > 0.0 ? largest * cnLength( cnMulSV( 1.0 / largest, v ) ) : 0.0;
}

// The motion a complete body starts with: the squares of its velocities and the kinetic energy they
// give must be finite, and the acceleration of its gravity at most 1e150 (the library's limit for
// derived quantities, which leaves room for the step's products), or the first step overflows (drag,
// the sleep test, the gyroscopic term).
static bool cnCheckMotion( cnLoader* L, cnBodyId id, const cnBodyDef* def, cnVec3 gravity )
{
	double mass = cnBody_GetMass( L->world, id );
	double v2 = cnLengthSquared( def->linearVelocity );
	if ( !isfinite( v2 ) || !isfinite( mass * v2 ) )
	{
		double speed = cnShowLength( def->linearVelocity );
		if ( mass > 0.0 )
		{
			return cnJsonFailAt( L, "velocity",
								 "a speed of %g m/s is too fast for double precision: its square or the kinetic energy "
								 "it gives this body (%g kg) is not finite",
								 speed, mass );
		}
		return cnJsonFailAt( L, "velocity",
							 "a speed of %g m/s is too fast for double precision: its square is not finite", speed );
	}
	cnVec3 w = cnInvRotate( def->orientation, def->angularVelocity );
	double w2 = cnLengthSquared( w );
	double rotational = cnDot( w, cnMulMV( cnBody_GetLocalInertia( L->world, id ), w ) );
	if ( !isfinite( w2 ) || !isfinite( rotational ) )
	{
		return cnJsonFailAt( L, "angular_velocity",
							 "an angular speed of %g rad/s is too fast for double precision: its square or the "
							 "rotational kinetic energy it gives this body is not finite",
							 cnShowLength( def->angularVelocity ) );
	}
	double g = fabs( def->gravityScale ) * cnShowLength( gravity );
	if ( def->type == cnBody_dynamic && !( g <= 1e150 ) )
	{
		return cnJsonFailAt( L, "gravity_scale",
							 "gravity scaled by %s gives this body an acceleration of %g m/s^2, above 1e150, where the "
							 "step's products overflow",
							 cnJsonShowNumber( def->gravityScale ).text, g );
	}
	return true;
}

static const char* const cnBodyKeys[] = { "name",        "type",          "material",       "position",
										  "orientation", "euler_deg",     "velocity",       "angular_velocity",
										  "mass",        "gravity_scale", "linear_damping", "angular_damping",
										  "drag",        "sleep",         "awake",          "bullet",
										  "shapes",      "forces",        "torques" };

bool cnJsonLoadBody( cnLoader* L, const cJSON* b )
{
	if ( cnJsonCheckKeys( L, b, cnBodyKeys, CN_COUNT( cnBodyKeys ), "a body" ) == false ||
		 cnJsonRequire( L, b, "name", "a unique body name" ) == false )
	{
		return false;
	}
	cnBodyDef def = cnDefaultBodyDef();
	if ( cnJsonReadString( L, b, "name", &def.name ) == false )
	{
		return false;
	}
	int namePath = cnJsonPushKey( L, "name" );
	if ( def.name[0] == 0 )
	{
		return cnJsonFail( L, "a body name must not be empty" );
	}
	int first = cnFindBodyIndex( L, def.name );
	if ( first >= 0 )
	{
		return cnJsonFail( L, "duplicate body name \"%s\" (already used by bodies[%d])", def.name, first );
	}
	cnJsonPopPath( L, namePath );

	const char* typeName = NULL;
	if ( cnJsonReadString( L, b, "type", &typeName ) == false )
	{
		return false;
	}
	if ( typeName != NULL )
	{
		if ( strcmp( typeName, "static" ) == 0 )
		{
			def.type = cnBody_static;
		}
		else if ( strcmp( typeName, "kinematic" ) == 0 )
		{
			def.type = cnBody_kinematic;
		}
		else if ( strcmp( typeName, "dynamic" ) == 0 )
		{
			def.type = cnBody_dynamic;
		}
		else
		{
			return cnJsonFailAt( L, "type", "unknown body type \"%s\" (allowed: static, kinematic, dynamic)",
								 typeName );
		}
	}

	cnMaterialId material = 0;
	double mass = 0.0;
	bool hasMass = cnJsonField( b, "mass" ) != NULL;
	if ( cnReadMaterial( L, b, "material", &material ) == false ||
		 cnJsonReadVec3( L, b, "position", cnJsonCheck_any, &def.position ) == false ||
		 cnJsonReadOrientation( L, b, &def.orientation ) == false ||
		 cnJsonReadVec3( L, b, "velocity", cnJsonCheck_any, &def.linearVelocity ) == false ||
		 cnJsonReadVec3( L, b, "angular_velocity", cnJsonCheck_any, &def.angularVelocity ) == false ||
		 cnJsonReadNumber( L, b, "mass", cnJsonCheck_positive, &mass ) == false ||
		 cnJsonReadNumber( L, b, "gravity_scale", cnJsonCheck_any, &def.gravityScale ) == false ||
		 cnJsonReadNumber( L, b, "linear_damping", cnJsonCheck_nonNegative, &def.linearDamping ) == false ||
		 cnJsonReadNumber( L, b, "angular_damping", cnJsonCheck_nonNegative, &def.angularDamping ) == false ||
		 cnJsonReadNumber( L, b, "drag", cnJsonCheck_nonNegative, &def.dragCoefficient ) == false ||
		 cnJsonReadBool( L, b, "sleep", &def.enableSleep ) == false ||
		 cnJsonReadBool( L, b, "awake", &def.isAwake ) == false ||
		 cnJsonReadBool( L, b, "bullet", &def.isBullet ) == false )
	{
		return false;
	}
	if ( def.type == cnBody_static )
	{
		const char* motion[2] = { "velocity", "angular_velocity" };
		cnVec3 values[2] = { def.linearVelocity, def.angularVelocity };
		for ( int i = 0; i < 2; ++i )
		{
			if ( cnLengthSquared( values[i] ) > 0.0 )
			{
				return cnJsonFailAt( L, motion[i],
									 "a static body cannot move (make it kinematic to move it along a set velocity)" );
			}
		}
	}
	if ( hasMass && def.type != cnBody_dynamic )
	{
		return cnJsonFailAt( L, "mass", "only dynamic bodies have a mass (this body is %s)",
							 cnBodyType_GetName( def.type ) );
	}

	// shapes: at least one, except for AERO's point masses (a dynamic body with a "mass") and fixed
	// points (a static body; a kinematic one is a fixed point that moves), which joints attach to
	const cJSON* shapes = cnJsonField( b, "shapes" );
	bool needsShape = def.type == cnBody_dynamic && hasMass == false;
	if ( needsShape &&
		 cnJsonRequire( L, b, "shapes",
						"a dynamic body needs at least one solid shape, or a \"mass\" to be a point mass" ) == false )
	{
		return false;
	}
	int shapesPath = cnJsonPushKey( L, "shapes" );
	if ( shapes != NULL && cJSON_IsArray( shapes ) == false )
	{
		return cnJsonFail( L, "expected an array of shapes, got %s", cnJsonKind( shapes ) );
	}
	int shapeCount = shapes != NULL ? cJSON_GetArraySize( shapes ) : 0;
	if ( shapeCount == 0 && needsShape )
	{
		return cnJsonFail( L, "a dynamic body needs at least one solid shape, or a \"mass\" to be a point mass" );
	}
	cnJsonPopPath( L, shapesPath );

	// a dynamic body made only of planes would have no volume and so no mass
	if ( needsShape )
	{
		int planes = 0;
		for ( const cJSON* s = shapes->child; s != NULL; s = s->next )
		{
			const cJSON* type = cnJsonField( s, "type" );
			planes += cJSON_IsString( type ) && strcmp( type->valuestring, "plane" ) == 0 ? 1 : 0;
		}
		if ( planes == shapeCount )
		{
			return cnJsonFail( L,
							   "dynamic body \"%s\" has no mass: its only shapes are planes, which have no volume "
						   "(give it a solid shape, or make it static)",
						   def.name );
		}
	}

	cnBodyId id = cnCreateBody( L->world, &def );
	if ( id.index < 0 )
	{
		return cnJsonLibraryFailure( L, NULL );
	}
	cnAddBodyName( L, def.name, id );

	int index = 0;
	for ( const cJSON* s = shapes != NULL ? shapes->child : NULL; s != NULL; s = s->next, ++index )
	{
		int saved = cnJsonPushKey( L, "shapes" );
		cnJsonPushIndex( L, index );
		if ( cnLoadShape( L, s, id, def.type, material ) == false )
		{
			return false;
		}
		cnJsonPopPath( L, saved );
	}

	if ( hasMass && cnBody_SetMass( L->world, id, mass ) == false )
	{
		cnJsonPushKey( L, "mass" );
		return cnJsonLibraryFailure( L, NULL );
	}
	if ( cnCheckMotion( L, id, &def, cnWorld_GetGravity( L->world ) ) == false )
	{
		return false;
	}

	// attaching shapes wakes a body, so a body that starts asleep is put to sleep last
	if ( def.isAwake == false && def.type != cnBody_static )
	{
		cnBody_SetAwake( L->world, id, false );
	}
	return true;
}

static const char* const cnForceWorldKeys[] = { "point", "frame", "vector", "start", "end" };
static const char* const cnForceTargetKeys[] = { "point",        "frame", "magnitude", "target",
												 "target_point", "start", "end" };
static const char* const cnTorqueKeys[] = { "frame", "vector", "start", "end" };

// One entry of a body's "forces" (isTorque false) or "torques" (isTorque true).
static bool cnLoadForce( cnLoader* L, const cJSON* f, cnBodyId body, bool isTorque )
{
	const char* what = isTorque ? "a torque" : "a force";
	if ( cJSON_IsObject( f ) == false )
	{
		return cnJsonFail( L, "expected an object (%s), got %s", what, cnJsonKind( f ) );
	}
	cnForceDef def = cnDefaultForceDef();
	def.body = body;
	def.isTorque = isTorque;
	const char* frame = "world";
	if ( cnJsonReadString( L, f, "frame", &frame ) == false )
	{
		return false;
	}
	if ( strcmp( frame, "world" ) == 0 )
	{
		def.frame = cnForce_world;
	}
	else if ( strcmp( frame, "body" ) == 0 )
	{
		def.frame = cnForce_body;
	}
	else if ( strcmp( frame, "target" ) == 0 && isTorque == false )
	{
		def.frame = cnForce_target;
	}
	else
	{
		return cnJsonFailAt( L, "frame", "unknown %s frame \"%s\" (allowed: %s)", isTorque ? "torque" : "force", frame,
							 isTorque ? "world, body" : "world, body, target" );
	}

	bool target = def.frame == cnForce_target;
	const char* kind = isTorque
						   ? "a torque"
						   : ( target ? "a force with frame \"target\"" : "a force with frame \"world\" or \"body\"" );
	const char* const* keys = isTorque ? cnTorqueKeys : ( target ? cnForceTargetKeys : cnForceWorldKeys );
	int keyCount =
		isTorque ? CN_COUNT( cnTorqueKeys ) : ( target ? CN_COUNT( cnForceTargetKeys ) : CN_COUNT( cnForceWorldKeys ) );
	if ( cnJsonCheckKeys( L, f, keys, keyCount, kind ) == false )
	{
		return false;
	}

	if ( target )
	{
		double magnitude = 0.0;
		if ( cnJsonRequire( L, f, "magnitude", "newtons" ) == false ||
			 cnJsonReadNumber( L, f, "magnitude", cnJsonCheck_nonNegative, &magnitude ) == false ||
			 cnReadBody( L, f, "target", &def.target ) == false ||
			 cnJsonReadVec3( L, f, "target_point", cnJsonCheck_any, &def.targetPoint ) == false )
		{
			return false;
		}
		// the library takes the magnitude as the length of the vector
		def.vector = cnV3( magnitude, 0.0, 0.0 );
	}
	else if ( cnJsonRequire( L, f, "vector", isTorque ? "[x, y, z] in N m" : "[x, y, z] in N" ) == false ||
			  cnJsonReadVec3( L, f, "vector", cnJsonCheck_any, &def.vector ) == false )
	{
		return false;
	}

	if ( cnJsonReadVec3( L, f, "point", cnJsonCheck_any, &def.localPoint ) == false ||
		 cnJsonReadNumber( L, f, "start", cnJsonCheck_any, &def.t0 ) == false ||
		 cnJsonReadNumber( L, f, "end", cnJsonCheck_any, &def.t1 ) == false )
	{
		return false;
	}
	if ( def.t1 < def.t0 )
	{
		return cnJsonFailAt( L, "end", "must be >= start (%s), got %s", cnJsonShowNumber( def.t0 ).text,
							 cnJsonShowNumber( def.t1 ).text );
	}
	if ( cnCreateForce( L->world, &def ).index < 0 )
	{
		return cnJsonLibraryFailure( L, NULL );
	}
	return true;
}

// Forces of all bodies, after every body exists so a force may aim at a body defined later.
bool cnJsonLoadForces( cnLoader* L, const cJSON* bodies )
{
	int index = 0;
	for ( const cJSON* b = bodies->child; b != NULL; b = b->next, ++index )
	{
		const char* lists[2] = { "forces", "torques" };
		for ( int k = 0; k < 2; ++k )
		{
			const cJSON* list = cnJsonField( b, lists[k] );
			if ( list == NULL )
			{
				continue;
			}
			int saved = cnJsonPushKey( L, "bodies" );
			cnJsonPushIndex( L, index );
			cnJsonPushKey( L, lists[k] );
			if ( cJSON_IsArray( list ) == false )
			{
				return cnJsonFail( L, "expected an array of %s, got %s", lists[k], cnJsonKind( list ) );
			}
			cnBodyId id = L->bodyIds[index];
			if ( cJSON_GetArraySize( list ) > 0 && cnBody_GetType( L->world, id ) != cnBody_dynamic )
			{
				return cnJsonFail( L, "%s act only on dynamic bodies (this body is %s)", lists[k],
								   cnBodyType_GetName( cnBody_GetType( L->world, id ) ) );
			}
			int i = 0;
			for ( const cJSON* f = list->child; f != NULL; f = f->next, ++i )
			{
				int itemPath = cnJsonPushIndex( L, i );
				if ( cnLoadForce( L, f, id, k == 1 ) == false )
				{
					return false;
				}
				cnJsonPopPath( L, itemPath );
			}
			cnJsonPopPath( L, saved );
		}
	}
	return true;
}

