// SPDX-License-Identifier: MIT
// The scene's "joints" (docs/scene-format.md, "Joints"): the ten joint types of cairn/joint.h,
// each joining one body to the fixed world or two bodies, with anchors and axes in world
// coordinates at t = 0. Read once every body exists (scene_json.c calls it after the forces), so
// bodies are found by name like a force's target; every value is checked here with its JSON path
// before the library sees it, and what only the library can tell (a method that solves no joints)
// comes back with the joint's path.
#include "io/json_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// keys

// Every joint takes the common keys; each type adds its own. A key of another type is refused with
// the types it belongs to, so an "axis" on a ball joint is never silently ignored.
#define CN_JOINT_COMMON_KEYS "name", "type", "bodies", "collide_connected", "break_force", "break_torque"

static const char* const cnBallKeys[] = { CN_JOINT_COMMON_KEYS, "anchor" };
static const char* const cnHingeKeys[] = { CN_JOINT_COMMON_KEYS, "anchor", "axis", "limits_deg", "motor", "spring" };
static const char* const cnSliderKeys[] = { CN_JOINT_COMMON_KEYS, "anchor", "axis", "limits", "motor", "spring" };
static const char* const cnUniversalKeys[] = { CN_JOINT_COMMON_KEYS, "anchor", "axes" };
static const char* const cnConeTwistKeys[] = { CN_JOINT_COMMON_KEYS, "anchor", "axis", "swing_deg", "twist_deg" };
static const char* const cnFixedKeys[] = { CN_JOINT_COMMON_KEYS, "anchor" };
static const char* const cnDistanceKeys[] = { CN_JOINT_COMMON_KEYS, "anchors", "length", "min_length", "max_length" };
static const char* const cnSpringKeys[] = { CN_JOINT_COMMON_KEYS, "anchors",	  "stiffness",
											"damping",			  "rest_length", "min_length" };
static const char* const cnDamperKeys[] = { CN_JOINT_COMMON_KEYS, "anchors", "damping", "min_length" };
static const char* const cnPointOnPlaneKeys[] = { CN_JOINT_COMMON_KEYS, "anchor", "normal" };

static const char* const cnHingeMotorKeys[] = { "speed", "max_torque" };
static const char* const cnSliderMotorKeys[] = { "speed", "max_force" };
static const char* const cnHingeSpringKeys[] = { "stiffness", "damping", "rest_deg" };
static const char* const cnSliderSpringKeys[] = { "stiffness", "damping", "rest" };

typedef struct cnJointKeyList
{
	const char* const* keys;
	int count;
} cnJointKeyList;

// by cnJointType
static const cnJointKeyList cnJointKeys[cnJoint_count] = {
	{ cnBallKeys, CN_COUNT( cnBallKeys ) },
	{ cnHingeKeys, CN_COUNT( cnHingeKeys ) },
	{ cnSliderKeys, CN_COUNT( cnSliderKeys ) },
	{ cnUniversalKeys, CN_COUNT( cnUniversalKeys ) },
	{ cnConeTwistKeys, CN_COUNT( cnConeTwistKeys ) },
	{ cnFixedKeys, CN_COUNT( cnFixedKeys ) },
	{ cnDistanceKeys, CN_COUNT( cnDistanceKeys ) },
	{ cnSpringKeys, CN_COUNT( cnSpringKeys ) },
	{ cnDamperKeys, CN_COUNT( cnDamperKeys ) },
	{ cnPointOnPlaneKeys, CN_COUNT( cnPointOnPlaneKeys ) },
};

static bool cnHasKey( const cnJointKeyList* list, const char* key )
{
	for ( int i = 0; i < list->count; ++i )
	{
		if ( strcmp( list->keys[i], key ) == 0 )
		{
			return true;
		}
	}
	return false;
}

// Appends text to a bounded list ("a, b, c"); a list that would overflow is cut, never overrun.
static void cnAppendItem( char* list, size_t size, const char* item )
{
	size_t used = strlen( list );
	int n = snprintf( list + used, size - used, "%s%s", used > 0 ? ", " : "", item );
	if ( n < 0 || used + (size_t)n >= size )
	{
		list[used] = 0;
	}
}

// The names of every joint type, "ball, hinge, ..." (for messages).
static void cnJointTypeList( char* list, size_t size )
{
	list[0] = 0;
	for ( int t = 0; t < cnJoint_count; ++t )
	{
		cnAppendItem( list, size, cnJointType_GetName( (cnJointType)t ) );
	}
}

// The keys of a joint of this type: a key that another type takes is named with its types, any
// other unknown key gets cnJsonCheckKeys' "did you mean".
static bool cnCheckJointKeys( cnLoader* L, const cJSON* j, cnJointType type, const char* what )
{
	const cnJointKeyList* own = cnJointKeys + type;
	for ( const cJSON* child = j->child; child != NULL; child = child->next )
	{
		const char* key = child->string != NULL ? child->string : "";
		if ( cnHasKey( own, key ) )
		{
			continue;
		}
		char owners[192] = "";
		for ( int t = 0; t < cnJoint_count; ++t )
		{
			if ( t != (int)type && cnHasKey( cnJointKeys + t, key ) )
			{
				cnAppendItem( owners, sizeof( owners ), cnJointType_GetName( (cnJointType)t ) );
			}
		}
		if ( owners[0] != 0 )
		{
			char allowed[512] = "";
			for ( int i = 0; i < own->count; ++i )
			{
				cnAppendItem( allowed, sizeof( allowed ), own->keys[i] );
			}
			return cnJsonFailAt( L, key, "unknown key \"%s\" in %s (it belongs to %s joints; allowed: %s)", key, what,
								 owners, allowed );
		}
	}
	return cnJsonCheckKeys( L, j, own->keys, own->count, what );
}

// ---------------------------------------------------------------------------------------------
// values

// Degrees to radians; +-180 degrees give +-pi exactly (the library's limits allow [-pi, pi]).
static double cnRadians( double degrees )
{
	double r = degrees * ( CN_PI / 180.0 );
	return r > CN_PI ? CN_PI : ( r < -CN_PI ? -CN_PI : r );
}

// obj[key], required: a point [x, y, z] in world coordinates at t = 0.
static bool cnReadPoint( cnLoader* L, const cJSON* obj, const char* key, const char* what, cnVec3* p )
{
	return cnJsonRequire( L, obj, key, what ) && cnJsonReadVec3( L, obj, key, cnJsonCheck_any, p );
}

// A direction at the current path: finite, not zero, scaled by its largest component so that a
// direction of any length ([1e-200, 0, 0], [1e300, 1e300, 0]) reaches the library as a usable one.
static bool cnDirectionValue( cnLoader* L, const cJSON* item, const char* what, cnVec3* d )
{
	double v[3];
	if ( cnJsonArrayValue( L, item, 3, "[x, y, z]", cnJsonCheck_any, v ) == false )
	{
		return false;
	}
	double largest = fmax( fabs( v[0] ), fmax( fabs( v[1] ), fabs( v[2] ) ) );
	if ( largest == 0.0 )
	{
		return cnJsonFail( L, "the %s has zero length", what );
	}
	*d = cnV3( v[0] / largest, v[1] / largest, v[2] / largest );
	return true;
}

// obj[key], required: a direction (see cnDirectionValue).
static bool cnReadDirection( cnLoader* L, const cJSON* obj, const char* key, const char* what, cnVec3* d )
{
	char required[96];
	snprintf( required, sizeof( required ), "the %s [x, y, z], world coordinates at t = 0", what );
	if ( cnJsonRequire( L, obj, key, required ) == false )
	{
		return false;
	}
	int saved = cnJsonPushKey( L, key );
	bool ok = cnDirectionValue( L, cnJsonField( obj, key ), what, d );
	cnJsonPopPath( L, saved );
	return ok;
}

// "anchors": two points, the first on body A, the second on body B or the fixed world.
static bool cnReadAnchors( cnLoader* L, const cJSON* obj, cnVec3* a, cnVec3* b )
{
	if ( cnJsonRequire( L, obj, "anchors",
						"two points [[x, y, z], [x, y, z]]: on the first body, then on the second or the world" ) ==
		 false )
	{
		return false;
	}
	const cJSON* item = cnJsonField( obj, "anchors" );
	int saved = cnJsonPushKey( L, "anchors" );
	if ( cJSON_IsArray( item ) == false || cJSON_GetArraySize( item ) != 2 )
	{
		return cnJsonFail( L, "expected two points [[x, y, z], [x, y, z]] (on the first body, then on the second "
							  "or the fixed world), got %s",
						   cJSON_IsArray( item ) ? "another number of items" : cnJsonKind( item ) );
	}
	cnVec3* points[2] = { a, b };
	for ( int i = 0; i < 2; ++i )
	{
		double v[3];
		int inner = cnJsonPushIndex( L, i );
		if ( cnJsonArrayValue( L, cJSON_GetArrayItem( item, i ), 3, "[x, y, z]", cnJsonCheck_any, v ) == false )
		{
			return false;
		}
		cnJsonPopPath( L, inner );
		*points[i] = cnV3( v[0], v[1], v[2] );
	}
	cnJsonPopPath( L, saved );
	return true;
}

// obj[key], optional: a range [lower, upper] with lower <= upper, each in [-bound, bound] (bound
// 0: any finite value); unit is shown in messages. *given says whether it was there.
static bool cnReadRange( cnLoader* L, const cJSON* obj, const char* key, double bound, const char* unit, double range[2],
						 bool* given )
{
	const cJSON* item = cnJsonField( obj, key );
	*given = item != NULL;
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnJsonPushKey( L, key );
	char form[64];
	snprintf( form, sizeof( form ), "[lower, upper] in %s", unit );
	if ( cnJsonArrayValue( L, item, 2, form, cnJsonCheck_any, range ) == false )
	{
		return false;
	}
	for ( int i = 0; i < 2 && bound > 0.0; ++i )
	{
		if ( fabs( range[i] ) > bound )
		{
			cnJsonPushIndex( L, i );
			return cnJsonFail( L, "must be in [-%g, %g] %s (got %s)", bound, bound, unit,
							   cnJsonShowNumber( range[i] ).text );
		}
	}
	if ( range[0] > range[1] )
	{
		return cnJsonFail( L, "limits out of order: the lower %s is above the upper %s (give [lower, upper])",
						   cnJsonShowNumber( range[0] ).text, cnJsonShowNumber( range[1] ).text );
	}
	cnJsonPopPath( L, saved );
	return true;
}

// Opens the optional object obj[key] with its allowed keys; *item is NULL when it is absent. The
// caller pops the path to saved once it has read the object.
static bool cnOpenObject( cnLoader* L, const cJSON* obj, const char* key, const char* const* keys, int count,
						  const char* what, const cJSON** item, int* saved )
{
	*item = cnJsonField( obj, key );
	*saved = -1;
	if ( *item == NULL )
	{
		return true;
	}
	*saved = cnJsonPushKey( L, key );
	return cnJsonCheckKeys( L, *item, keys, count, what );
}

// ---------------------------------------------------------------------------------------------
// the types

// A hinge: "anchor", "axis", optional "limits_deg", "motor" {speed, max_torque}, "spring"
// {stiffness, damping, rest_deg}.
static bool cnReadHinge( cnLoader* L, const cJSON* j, cnHingeJointDef* def )
{
	double limits[2] = { 0.0, 0.0 };
	if ( cnReadPoint( L, j, "anchor", "a point on the axis, world coordinates at t = 0", &def->anchor ) == false ||
		 cnReadDirection( L, j, "axis", "axis", &def->axis ) == false ||
		 cnReadRange( L, j, "limits_deg", 180.0, "degrees", limits, &def->enableLimit ) == false )
	{
		return false;
	}
	def->lowerAngle = cnRadians( limits[0] );
	def->upperAngle = cnRadians( limits[1] );

	const cJSON* motor = NULL;
	int saved = -1;
	if ( cnOpenObject( L, j, "motor", cnHingeMotorKeys, CN_COUNT( cnHingeMotorKeys ), "a hinge motor", &motor,
					   &saved ) == false )
	{
		return false;
	}
	if ( motor != NULL )
	{
		def->enableMotor = true;
		if ( cnJsonRequire( L, motor, "max_torque", "the largest torque the motor gives, N m" ) == false ||
			 cnJsonReadNumber( L, motor, "speed", cnJsonCheck_any, &def->motorSpeed ) == false ||
			 cnJsonReadNumber( L, motor, "max_torque", cnJsonCheck_nonNegative, &def->maxMotorTorque ) == false )
		{
			return false;
		}
		cnJsonPopPath( L, saved );
	}

	const cJSON* spring = NULL;
	if ( cnOpenObject( L, j, "spring", cnHingeSpringKeys, CN_COUNT( cnHingeSpringKeys ), "a hinge spring", &spring,
					   &saved ) == false )
	{
		return false;
	}
	if ( spring != NULL )
	{
		double rest = 0.0;
		def->enableSpring = true;
		if ( cnJsonRequire( L, spring, "stiffness", "N m/rad" ) == false ||
			 cnJsonReadNumber( L, spring, "stiffness", cnJsonCheck_nonNegative, &def->stiffness ) == false ||
			 cnJsonReadNumber( L, spring, "damping", cnJsonCheck_nonNegative, &def->damping ) == false ||
			 cnJsonReadNumber( L, spring, "rest_deg", cnJsonCheck_any, &rest ) == false )
		{
			return false;
		}
		if ( fabs( rest ) > 180.0 )
		{
			return cnJsonFailAt( L, "rest_deg", "must be in [-180, 180] degrees (got %s)",
								 cnJsonShowNumber( rest ).text );
		}
		def->restAngle = cnRadians( rest );
		cnJsonPopPath( L, saved );
	}
	return true;
}

// A slider: "anchor", "axis", optional "limits" (m), "motor" {speed, max_force}, "spring"
// {stiffness, damping, rest}.
static bool cnReadSlider( cnLoader* L, const cJSON* j, cnSliderJointDef* def )
{
	double limits[2] = { 0.0, 0.0 };
	if ( cnReadPoint( L, j, "anchor", "a point on the axis, world coordinates at t = 0", &def->anchor ) == false ||
		 cnReadDirection( L, j, "axis", "axis", &def->axis ) == false ||
		 cnReadRange( L, j, "limits", 0.0, "metres", limits, &def->enableLimit ) == false )
	{
		return false;
	}
	def->lowerTranslation = limits[0];
	def->upperTranslation = limits[1];

	const cJSON* motor = NULL;
	int saved = -1;
	if ( cnOpenObject( L, j, "motor", cnSliderMotorKeys, CN_COUNT( cnSliderMotorKeys ), "a slider motor", &motor,
					   &saved ) == false )
	{
		return false;
	}
	if ( motor != NULL )
	{
		def->enableMotor = true;
		if ( cnJsonRequire( L, motor, "max_force", "the largest force the motor gives, N" ) == false ||
			 cnJsonReadNumber( L, motor, "speed", cnJsonCheck_any, &def->motorSpeed ) == false ||
			 cnJsonReadNumber( L, motor, "max_force", cnJsonCheck_nonNegative, &def->maxMotorForce ) == false )
		{
			return false;
		}
		cnJsonPopPath( L, saved );
	}

	const cJSON* spring = NULL;
	if ( cnOpenObject( L, j, "spring", cnSliderSpringKeys, CN_COUNT( cnSliderSpringKeys ), "a slider spring",
					   &spring, &saved ) == false )
	{
		return false;
	}
	if ( spring != NULL )
	{
		def->enableSpring = true;
		if ( cnJsonRequire( L, spring, "stiffness", "N/m" ) == false ||
			 cnJsonReadNumber( L, spring, "stiffness", cnJsonCheck_nonNegative, &def->stiffness ) == false ||
			 cnJsonReadNumber( L, spring, "damping", cnJsonCheck_nonNegative, &def->damping ) == false ||
			 cnJsonReadNumber( L, spring, "rest", cnJsonCheck_any, &def->restTranslation ) == false )
		{
			return false;
		}
		cnJsonPopPath( L, saved );
	}
	return true;
}

// A universal joint: "anchor" and "axes", two perpendicular directions (the first fixed in body A,
// the second in body B).
static bool cnReadUniversal( cnLoader* L, const cJSON* j, cnUniversalJointDef* def )
{
	if ( cnReadPoint( L, j, "anchor", "the shared point, world coordinates at t = 0", &def->anchor ) == false ||
		 cnJsonRequire( L, j, "axes", "two perpendicular directions [[x, y, z], [x, y, z]], one per body" ) == false )
	{
		return false;
	}
	const cJSON* item = cnJsonField( j, "axes" );
	int saved = cnJsonPushKey( L, "axes" );
	if ( cJSON_IsArray( item ) == false || cJSON_GetArraySize( item ) != 2 )
	{
		return cnJsonFail( L, "expected two directions [[x, y, z], [x, y, z]] (fixed in the first body, then in the "
							  "second), got %s",
						   cJSON_IsArray( item ) ? "another number of items" : cnJsonKind( item ) );
	}
	cnVec3* axes[2] = { &def->axisA, &def->axisB };
	for ( int i = 0; i < 2; ++i )
	{
		int inner = cnJsonPushIndex( L, i );
		if ( cnDirectionValue( L, cJSON_GetArrayItem( item, i ), "axis", axes[i] ) == false )
		{
			return false;
		}
		cnJsonPopPath( L, inner );
	}
	// both scaled to a largest component of 1, so the product is safe; the library's tolerance
	double c = cnDot( def->axisA, def->axisB ) / ( cnLength( def->axisA ) * cnLength( def->axisB ) );
	if ( fabs( c ) > 1e-3 )
	{
		return cnJsonFail( L, "the two axes must be perpendicular (they are %.6g degrees apart)",
						   acos( fmax( -1.0, fmin( 1.0, c ) ) ) * 180.0 / CN_PI );
	}
	cnJsonPopPath( L, saved );
	return true;
}

// A cone-twist joint: "anchor", "axis", optional "swing_deg" in (0, 180) and "twist_deg" [lower,
// upper] with -180 <= lower <= 0 <= upper <= 180 (the twist is 0 at t = 0).
static bool cnReadConeTwist( cnLoader* L, const cJSON* j, cnConeTwistJointDef* def )
{
	double swing = def->swingAngle * 180.0 / CN_PI;
	double twist[2] = { def->lowerTwist * 180.0 / CN_PI, def->upperTwist * 180.0 / CN_PI };
	bool twistGiven = false;
	if ( cnReadPoint( L, j, "anchor", "the shared point, world coordinates at t = 0", &def->anchor ) == false ||
		 cnReadDirection( L, j, "axis", "twist axis", &def->axis ) == false ||
		 cnJsonReadNumber( L, j, "swing_deg", cnJsonCheck_positive, &swing ) == false ||
		 cnReadRange( L, j, "twist_deg", 180.0, "degrees", twist, &twistGiven ) == false )
	{
		return false;
	}
	if ( swing >= 180.0 )
	{
		return cnJsonFailAt( L, "swing_deg", "the cone's half angle must be below 180 degrees (got %s)",
							 cnJsonShowNumber( swing ).text );
	}
	if ( twist[0] > 0.0 || twist[1] < 0.0 )
	{
		return cnJsonFailAt( L, "twist_deg", "the twist range must contain 0, the twist at t = 0 (got [%s, %s])",
							 cnJsonShowNumber( twist[0] ).text, cnJsonShowNumber( twist[1] ).text );
	}
	if ( cnJsonField( j, "swing_deg" ) != NULL )
	{
		def->swingAngle = cnRadians( swing );
	}
	if ( twistGiven )
	{
		def->lowerTwist = cnRadians( twist[0] );
		def->upperTwist = cnRadians( twist[1] );
	}
	return true;
}

// A distance joint: "anchors", optional "length" (default: the anchors' distance at t = 0),
// "min_length" and "max_length" (default: the length; a rod when they are equal).
static bool cnReadDistance( cnLoader* L, const cJSON* j, cnDistanceJointDef* def )
{
	if ( cnReadAnchors( L, j, &def->anchorA, &def->anchorB ) == false ||
		 cnJsonReadNumber( L, j, "length", cnJsonCheck_positive, &def->length ) == false ||
		 cnJsonReadNumber( L, j, "min_length", cnJsonCheck_nonNegative, &def->minLength ) == false ||
		 cnJsonReadNumber( L, j, "max_length", cnJsonCheck_positive, &def->maxLength ) == false )
	{
		return false;
	}
	// what the library makes of the defaults (negative values), checked here for the message
	bool hasLength = cnJsonField( j, "length" ) != NULL;
	bool hasMin = cnJsonField( j, "min_length" ) != NULL;
	bool hasMax = cnJsonField( j, "max_length" ) != NULL;
	double length = hasLength ? def->length : cnDistance( def->anchorA, def->anchorB );
	double lower = hasMin ? def->minLength : length;
	double upper = hasMax ? def->maxLength : length;
	if ( !isfinite( length ) )
	{
		return cnJsonFailAt( L, "anchors", "the anchors' distance is not finite" );
	}
	if ( upper == 0.0 )
	{
		return cnJsonFailAt( L, "anchors",
							 "the anchors coincide, which makes a rod of length 0: give \"length\" or \"max_length\", "
							 "or join the bodies with a ball joint" );
	}
	if ( lower > upper )
	{
		char why[160] = "";
		if ( hasMin == false || hasMax == false )
		{
			snprintf( why, sizeof( why ), "; \"%s\" is not given and defaults to the length, %s m",
					  hasMin ? "max_length" : "min_length", cnJsonShowNumber( length ).text );
		}
		return cnJsonFailAt( L, hasMax ? "max_length" : "min_length",
							 "min_length (%s m) must not be above max_length (%s m)%s", cnJsonShowNumber( lower ).text,
							 cnJsonShowNumber( upper ).text, why );
	}
	return true;
}

// A spring: "anchors", "stiffness" (required), optional "damping", "rest_length" (default: the
// anchors' distance at t = 0) and "min_length".
static bool cnReadSpring( cnLoader* L, const cJSON* j, cnSpringJointDef* def )
{
	return cnReadAnchors( L, j, &def->anchorA, &def->anchorB ) &&
		   cnJsonRequire( L, j, "stiffness", "N/m" ) &&
		   cnJsonReadNumber( L, j, "stiffness", cnJsonCheck_nonNegative, &def->stiffness ) &&
		   cnJsonReadNumber( L, j, "damping", cnJsonCheck_nonNegative, &def->damping ) &&
		   cnJsonReadNumber( L, j, "rest_length", cnJsonCheck_nonNegative, &def->restLength ) &&
		   cnJsonReadNumber( L, j, "min_length", cnJsonCheck_nonNegative, &def->minLength );
}

// A damper: "anchors", "damping" (required, > 0), optional "min_length".
static bool cnReadDamper( cnLoader* L, const cJSON* j, cnDamperJointDef* def )
{
	return cnReadAnchors( L, j, &def->anchorA, &def->anchorB ) && cnJsonRequire( L, j, "damping", "N s/m" ) &&
		   cnJsonReadNumber( L, j, "damping", cnJsonCheck_positive, &def->damping ) &&
		   cnJsonReadNumber( L, j, "min_length", cnJsonCheck_nonNegative, &def->minLength );
}

// ---------------------------------------------------------------------------------------------
// bodies and names

// "bodies": one body (joined to the fixed world) or two different ones, one of them dynamic.
static bool cnReadJointBodies( cnLoader* L, const cJSON* j, cnJointDef* base )
{
	if ( cnJsonRequire( L, j, "bodies",
						"one body name, joined to the fixed world, or two: [\"a\"] or [\"a\", \"b\"]" ) == false )
	{
		return false;
	}
	const cJSON* item = cnJsonField( j, "bodies" );
	int saved = cnJsonPushKey( L, "bodies" );
	int count = cJSON_IsArray( item ) ? cJSON_GetArraySize( item ) : 0;
	if ( count < 1 || count > 2 )
	{
		return cnJsonFail( L,
						   "expected one body name (joined to the fixed world) or two: [\"a\"] or [\"a\", \"b\"], got %s",
						   cJSON_IsArray( item ) ? ( count == 0 ? "an empty array" : "more than two" )
												 : cnJsonKind( item ) );
	}
	const char* names[2] = { NULL, NULL };
	cnBodyId ids[2] = { cnBodyId_null, cnBodyId_null };
	for ( int i = 0; i < count; ++i )
	{
		int inner = cnJsonPushIndex( L, i );
		if ( cnJsonStringValue( L, cJSON_GetArrayItem( item, i ), names + i ) == false ||
			 cnJsonBodyByName( L, names[i], ids + i ) == false )
		{
			return false;
		}
		cnJsonPopPath( L, inner );
	}
	if ( count == 2 && strcmp( names[0], names[1] ) == 0 )
	{
		return cnJsonFail( L,
						   "a body cannot be joined to itself (\"%s\" twice): name two bodies, or one to join it to the "
						   "fixed world",
						   names[0] );
	}
	cnBodyType a = cnBody_GetType( L->world, ids[0] );
	cnBodyType b = count == 2 ? cnBody_GetType( L->world, ids[1] ) : cnBody_static;
	if ( a != cnBody_dynamic && b != cnBody_dynamic )
	{
		if ( count == 1 )
		{
			return cnJsonFail( L,
							   "joins %s body \"%s\" to the fixed world, which moves nothing: a joint needs a dynamic body "
							   "on one side",
							   cnBodyType_GetName( a ), names[0] );
		}
		return cnJsonFail( L,
						   "joins two bodies that are not dynamic (%s \"%s\" and %s \"%s\"), which moves nothing: a joint "
						   "needs a dynamic body on one side",
						   cnBodyType_GetName( a ), names[0], cnBodyType_GetName( b ), names[1] );
	}
	base->bodyA = ids[0];
	base->bodyB = ids[1];
	cnJsonPopPath( L, saved );
	return true;
}

static uint32_t cnHashJointName( const char* s )
{
	// FNV-1a
	uint32_t h = 2166136261u;
	for ( ; *s != 0; ++s )
	{
		h = ( h ^ (uint8_t)*s ) * 16777619u;
	}
	return h;
}

// The joint names seen so far (pointing into the cJSON tree), in an open-addressing table of their
// indices in "joints", so a scene of thousands of joints checks its names in linear time.
typedef struct cnJointNames
{
	const char** names;
	int* slots;
	int capacity;
} cnJointNames;

// The index of the joint that has this name, or -1; adds it as joint index when it is new.
static int cnFindOrAddJointName( cnJointNames* t, const char* name, int index )
{
	uint32_t mask = (uint32_t)t->capacity - 1;
	uint32_t k = cnHashJointName( name ) & mask;
	while ( t->slots[k] >= 0 )
	{
		if ( strcmp( t->names[t->slots[k]], name ) == 0 )
		{
			return t->slots[k];
		}
		k = ( k + 1 ) & mask;
	}
	t->slots[k] = index;
	t->names[index] = name;
	return -1;
}

// ---------------------------------------------------------------------------------------------
// one joint

// The methods whose worlds solve joints, "impulse, ..." (for the message of one that does not).
static void cnJointMethodList( char* list, size_t size )
{
	list[0] = 0;
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		if ( cnMethod_GetFlags( (cnMethod)m ) & cnMethodFlag_joints )
		{
			cnAppendItem( list, size, cnMethod_GetName( (cnMethod)m ) );
		}
	}
}

// Creates the joint from its def; a library failure comes back at the joint's path.
static bool cnCreateJointOfType( cnLoader* L, cnJointType type, const void* def )
{
	cnJointId id = cnJointId_null;
	switch ( type )
	{
		case cnJoint_ball:
			id = cnCreateBallJoint( L->world, def );
			break;
		case cnJoint_hinge:
			id = cnCreateHingeJoint( L->world, def );
			break;
		case cnJoint_slider:
			id = cnCreateSliderJoint( L->world, def );
			break;
		case cnJoint_universal:
			id = cnCreateUniversalJoint( L->world, def );
			break;
		case cnJoint_coneTwist:
			id = cnCreateConeTwistJoint( L->world, def );
			break;
		case cnJoint_fixed:
			id = cnCreateFixedJoint( L->world, def );
			break;
		case cnJoint_distance:
			id = cnCreateDistanceJoint( L->world, def );
			break;
		case cnJoint_spring:
			id = cnCreateSpringJoint( L->world, def );
			break;
		case cnJoint_damper:
			id = cnCreateDamperJoint( L->world, def );
			break;
		case cnJoint_pointOnPlane:
			id = cnCreatePointOnPlaneJoint( L->world, def );
			break;
		default:
			break;
	}
	if ( id.index >= 0 )
	{
		return true;
	}
	if ( cnGetErrorCode() == cnError_unsupported )
	{
		char methods[256];
		cnJointMethodList( methods, sizeof( methods ) );
		return cnJsonFail( L, "%s (methods that solve joints: %s)", cnGetError(), methods[0] != 0 ? methods : "none" );
	}
	return cnJsonLibraryFailure( L, NULL );
}

// The def of every type, one at a time.
typedef union cnAnyJointDef
{
	cnJointDef base;
	cnBallJointDef ball;
	cnHingeJointDef hinge;
	cnSliderJointDef slider;
	cnUniversalJointDef universal;
	cnConeTwistJointDef coneTwist;
	cnFixedJointDef fixed;
	cnDistanceJointDef distance;
	cnSpringJointDef spring;
	cnDamperJointDef damper;
	cnPointOnPlaneJointDef pointOnPlane;
} cnAnyJointDef;

static bool cnLoadJoint( cnLoader* L, const cJSON* j, int index, cnJointNames* names )
{
	if ( cJSON_IsObject( j ) == false )
	{
		return cnJsonFail( L, "expected a joint object {\"name\", \"type\", \"bodies\", ...}, got %s", cnJsonKind( j ) );
	}
	char types[256];
	cnJointTypeList( types, sizeof( types ) );
	const char* typeName = NULL;
	if ( cnJsonRequire( L, j, "type", types ) == false || cnJsonReadString( L, j, "type", &typeName ) == false )
	{
		return false;
	}
	cnJointType type = cnJoint_count;
	if ( cnJointType_FromName( typeName, &type ) == false )
	{
		return cnJsonFailAt( L, "type", "unknown joint type \"%s\" (allowed: %s)", typeName, types );
	}
	char what[48];
	snprintf( what, sizeof( what ), "a %s joint", cnJointType_GetName( type ) );
	if ( cnCheckJointKeys( L, j, type, what ) == false )
	{
		return false;
	}

	// name: required, unique
	const char* name = NULL;
	if ( cnJsonRequire( L, j, "name", "a unique joint name" ) == false || cnJsonReadString( L, j, "name", &name ) == false )
	{
		return false;
	}
	if ( name[0] == 0 )
	{
		return cnJsonFailAt( L, "name", "a joint name must not be empty" );
	}
	int first = cnFindOrAddJointName( names, name, index );
	if ( first >= 0 )
	{
		return cnJsonFailAt( L, "name", "duplicate joint name \"%s\" (already used by joints[%d])", name, first );
	}

	cnAnyJointDef def;
	switch ( type )
	{
		case cnJoint_ball:
			def.ball = cnDefaultBallJointDef();
			break;
		case cnJoint_hinge:
			def.hinge = cnDefaultHingeJointDef();
			break;
		case cnJoint_slider:
			def.slider = cnDefaultSliderJointDef();
			break;
		case cnJoint_universal:
			def.universal = cnDefaultUniversalJointDef();
			break;
		case cnJoint_coneTwist:
			def.coneTwist = cnDefaultConeTwistJointDef();
			break;
		case cnJoint_fixed:
			def.fixed = cnDefaultFixedJointDef();
			break;
		case cnJoint_distance:
			def.distance = cnDefaultDistanceJointDef();
			break;
		case cnJoint_spring:
			def.spring = cnDefaultSpringJointDef();
			break;
		case cnJoint_damper:
			def.damper = cnDefaultDamperJointDef();
			break;
		default:
			def.pointOnPlane = cnDefaultPointOnPlaneJointDef();
			break;
	}
	def.base.name = name;
	if ( cnReadJointBodies( L, j, &def.base ) == false ||
		 cnJsonReadBool( L, j, "collide_connected", &def.base.collideConnected ) == false ||
		 cnJsonReadNumber( L, j, "break_force", cnJsonCheck_nonNegative, &def.base.breakForce ) == false ||
		 cnJsonReadNumber( L, j, "break_torque", cnJsonCheck_nonNegative, &def.base.breakTorque ) == false )
	{
		return false;
	}

	bool ok = false;
	switch ( type )
	{
		case cnJoint_ball:
			ok = cnReadPoint( L, j, "anchor", "the shared point, world coordinates at t = 0", &def.ball.anchor );
			break;
		case cnJoint_hinge:
			ok = cnReadHinge( L, j, &def.hinge );
			break;
		case cnJoint_slider:
			ok = cnReadSlider( L, j, &def.slider );
			break;
		case cnJoint_universal:
			ok = cnReadUniversal( L, j, &def.universal );
			break;
		case cnJoint_coneTwist:
			ok = cnReadConeTwist( L, j, &def.coneTwist );
			break;
		case cnJoint_fixed:
			ok = cnReadPoint( L, j, "anchor", "where the weld acts, world coordinates at t = 0", &def.fixed.anchor );
			break;
		case cnJoint_distance:
			ok = cnReadDistance( L, j, &def.distance );
			break;
		case cnJoint_spring:
			ok = cnReadSpring( L, j, &def.spring );
			break;
		case cnJoint_damper:
			ok = cnReadDamper( L, j, &def.damper );
			break;
		case cnJoint_pointOnPlane:
			ok = cnReadPoint( L, j, "anchor", "the point of the first body, on the plane at t = 0",
							  &def.pointOnPlane.anchor ) &&
				 cnReadDirection( L, j, "normal", "plane normal", &def.pointOnPlane.normal );
			break;
		default:
			break;
	}
	return ok && cnCreateJointOfType( L, type, &def );
}

// ---------------------------------------------------------------------------------------------
// the array

bool cnJsonLoadJoints( cnLoader* L, const cJSON* joints, const cJSON* bodies )
{
	if ( joints == NULL )
	{
		return true;
	}
	if ( cJSON_IsArray( joints ) == false )
	{
		return cnJsonFail( L, "expected an array of joints, got %s", cnJsonKind( joints ) );
	}
	int count = cJSON_GetArraySize( joints );
	if ( count == 0 )
	{
		return true;
	}
	cnJointNames names = { 0 };
	names.capacity = 16;
	while ( names.capacity < 2 * count )
	{
		names.capacity *= 2;
	}
	names.names = malloc( (size_t)count * sizeof( const char* ) );
	names.slots = malloc( (size_t)names.capacity * sizeof( int ) );
	bool ok = names.names != NULL && names.slots != NULL;
	for ( int i = 0; ok && i < names.capacity; ++i )
	{
		names.slots[i] = -1;
	}
	if ( ok == false )
	{
		cnJsonFailOutOfMemory( L );
	}
	int index = 0;
	for ( const cJSON* j = joints->child; ok && j != NULL; j = j->next, ++index )
	{
		int saved = cnJsonPushIndex( L, index );
		ok = cnLoadJoint( L, j, index, &names );
		cnJsonPopPath( L, saved );
	}
	free( names.names );
	free( names.slots );

	// creating a joint wakes its bodies: a body the file starts asleep is put back to sleep
	int b = 0;
	for ( const cJSON* body = bodies != NULL ? bodies->child : NULL; ok && body != NULL; body = body->next, ++b )
	{
		if ( cJSON_IsFalse( cnJsonField( body, "awake" ) ) && b < L->bodyCount )
		{
			cnBody_SetAwake( L->world, L->bodyIds[b], false );
		}
	}
	return ok;
}
