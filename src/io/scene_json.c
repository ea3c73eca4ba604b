// SPDX-License-Identifier: MIT
// The JSON scene loader (format: docs/scene-format.md). Every value is checked here, before the
// library sees it, so a bad file gets a message that names the file, the JSON path and the reason
// ("scenes/x.json: bodies[1].shapes[0].radius: must be > 0 (got -1)"). The world is built while
// the file is read, in a fixed order (settings, materials, pairs, bodies, forces, no_collide), and
// destroyed on the first error: the caller gets a complete scene or NULL, never a half-built one.
#include "cairn/scene.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Longest JSON path kept for messages; deeper paths are cut, never overflowed.
#define CN_PATH_CAPACITY 512

// A quaternion whose norm is further than this from 1 is a typing mistake, not rounding: the
// library uses the same tolerance, and a quaternion written with 7 significant digits is inside it.
#define CN_UNIT_TOLERANCE 1e-6

// Plane normals shorter than this cannot be normalised meaningfully (the library's own limit).
#define CN_MIN_NORMAL_LENGTH 1e-12

// Integers in JSON are doubles: beyond 2^53 they are no longer exact.
#define CN_MAX_EXACT_INTEGER 9007199254740992.0

// What a number must satisfy beyond being finite.
typedef enum cnCheck
{
	cnCheck_any,
	cnCheck_positive,
	cnCheck_nonNegative,
	cnCheck_unit,
} cnCheck;

// Loader state: where we are in the file (for messages), the first error, and the world being built.
typedef struct cnLoader
{
	const char* source;
	char* error;
	int errorCapacity;
	bool failed;
	// the method replacing the file's "method" (cnLoadSceneWithMethod), cnMethod_count for none
	cnMethod methodOverride;

	char path[CN_PATH_CAPACITY];
	int pathLength;

	cnWorld* world;

	// body names in file order (they point into the cJSON tree) and an open-addressing hash table
	// of indices into them, so name look-ups stay O(1) in scenes with thousands of bodies
	const char** bodyNames;
	cnBodyId* bodyIds;
	int bodyCount;
	int* slots;
	int slotCapacity;

	// material pairs seen so far, to reject a pair given twice
	int ( *pairs )[3];
	int pairCount;
} cnLoader;

// ---------------------------------------------------------------------------------------------
// messages and the JSON path

static bool cnFail( cnLoader* L, const char* fmt, ... )
{
	if ( L->failed )
	{
		return false;
	}
	L->failed = true;
	if ( L->error == NULL || L->errorCapacity <= 0 )
	{
		return false;
	}
	char reason[768];
	va_list args;
	va_start( args, fmt );
	vsnprintf( reason, sizeof( reason ), fmt, args );
	va_end( args );
	if ( L->pathLength > 0 )
	{
		snprintf( L->error, (size_t)L->errorCapacity, "%s: %s: %s", L->source, L->path, reason );
	}
	else
	{
		snprintf( L->error, (size_t)L->errorCapacity, "%s: %s", L->source, reason );
	}
	return false;
}

static void cnAppendPath( cnLoader* L, const char* fmt, ... )
{
	int room = CN_PATH_CAPACITY - L->pathLength;
	if ( room <= 1 )
	{
		return;
	}
	va_list args;
	va_start( args, fmt );
	int n = vsnprintf( L->path + L->pathLength, (size_t)room, fmt, args );
	va_end( args );
	if ( n > 0 )
	{
		L->pathLength += n < room ? n : room - 1;
	}
}

static bool cnIsIdentifier( const char* s )
{
	if ( s[0] == 0 || ( s[0] >= '0' && s[0] <= '9' ) )
	{
		return false;
	}
	for ( const char* c = s; *c != 0; ++c )
	{
		bool ok = ( *c >= 'a' && *c <= 'z' ) || ( *c >= 'A' && *c <= 'Z' ) || ( *c >= '0' && *c <= '9' ) || *c == '_';
		if ( ok == false )
		{
			return false;
		}
	}
	return true;
}

// Appends ".key" (or ["key"] for names that are not identifiers) and returns the length to restore.
static int cnPushKey( cnLoader* L, const char* key )
{
	int saved = L->pathLength;
	if ( cnIsIdentifier( key ) )
	{
		cnAppendPath( L, L->pathLength > 0 ? ".%s" : "%s", key );
	}
	else
	{
		cnAppendPath( L, "[\"%s\"]", key );
	}
	return saved;
}

// Appends "[i]" and returns the length to restore.
static int cnPushIndex( cnLoader* L, int i )
{
	int saved = L->pathLength;
	cnAppendPath( L, "[%d]", i );
	return saved;
}

static void cnPopPath( cnLoader* L, int saved )
{
	L->pathLength = saved;
	L->path[saved] = 0;
}

// Fails at the child key of the current path (the path is not restored: the message is written).
static bool cnFailAt( cnLoader* L, const char* key, const char* fmt, ... )
{
	char reason[768];
	va_list args;
	va_start( args, fmt );
	vsnprintf( reason, sizeof( reason ), fmt, args );
	va_end( args );
	cnPushKey( L, key );
	return cnFail( L, "%s", reason );
}

// Describes what a JSON value is, for "expected X, got Y".
static const char* cnKind( const cJSON* item )
{
	if ( cJSON_IsNumber( item ) )
	{
		return "a number";
	}
	if ( cJSON_IsString( item ) )
	{
		return "a string";
	}
	if ( cJSON_IsBool( item ) )
	{
		return "a boolean";
	}
	if ( cJSON_IsNull( item ) )
	{
		return "null";
	}
	if ( cJSON_IsArray( item ) )
	{
		return "an array";
	}
	if ( cJSON_IsObject( item ) )
	{
		return "an object";
	}
	return "an invalid value";
}

// Edit distance of two short keys, used to suggest the key the author probably meant.
static int cnEditDistance( const char* a, const char* b )
{
	enum
	{
		maxLength = 48
	};
	int na = (int)strlen( a ), nb = (int)strlen( b );
	if ( na >= maxLength || nb >= maxLength )
	{
		return maxLength;
	}
	int row[maxLength + 1];
	for ( int j = 0; j <= nb; ++j )
	{
		row[j] = j;
	}
	for ( int i = 1; i <= na; ++i )
	{
		int diagonal = row[0];
		row[0] = i;
		for ( int j = 1; j <= nb; ++j )
		{
			int up = row[j];
			int cost = a[i - 1] == b[j - 1] ? 0 : 1;
			int best = diagonal + cost;
			best = up + 1 < best ? up + 1 : best;
			best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
			row[j] = best;
			diagonal = up;
		}
	}
	return row[nb];
}

// Checks that item is an object whose keys are all in allowed, each given once. what names the
// object in messages ("a body", "a box shape").
static bool cnCheckKeys( cnLoader* L, const cJSON* item, const char* const* allowed, int count, const char* what )
{
	if ( cJSON_IsObject( item ) == false )
	{
		return cnFail( L, "expected an object (%s), got %s", what, cnKind( item ) );
	}
	for ( const cJSON* child = item->child; child != NULL; child = child->next )
	{
		const char* key = child->string != NULL ? child->string : "";
		for ( const cJSON* before = item->child; before != child; before = before->next )
		{
			if ( strcmp( before->string, key ) == 0 )
			{
				return cnFailAt( L, key, "duplicate key \"%s\"", key );
			}
		}
		bool known = false;
		for ( int i = 0; i < count && known == false; ++i )
		{
			known = strcmp( allowed[i], key ) == 0;
		}
		if ( known )
		{
			continue;
		}

		char list[512] = "";
		int used = 0;
		const char* closest = NULL;
		int closestDistance = 3;
		for ( int i = 0; i < count; ++i )
		{
			int n = snprintf( list + used, sizeof( list ) - (size_t)used, "%s%s", i > 0 ? ", " : "", allowed[i] );
			used = n > 0 && used + n < (int)sizeof( list ) ? used + n : used;
			int d = cnEditDistance( key, allowed[i] );
			if ( d < closestDistance )
			{
				closestDistance = d;
				closest = allowed[i];
			}
		}
		cnPushKey( L, key );
		if ( closest != NULL )
		{
			return cnFail( L, "unknown key \"%s\" in %s (did you mean \"%s\"? allowed: %s)", key, what, closest, list );
		}
		return cnFail( L, "unknown key \"%s\" in %s (allowed: %s)", key, what, list );
	}
	return true;
}

#define CN_COUNT( a ) ( (int)( sizeof( a ) / sizeof( ( a )[0] ) ) )

// The shortest of %.15g and %.17g that reads back as v, so 0.1 shows as 0.1 in messages.
typedef struct cnNumberText
{
	char text[32];
} cnNumberText;

static cnNumberText cnShowNumber( double v )
{
	cnNumberText t;
	snprintf( t.text, sizeof( t.text ), "%.15g", v );
	if ( strtod( t.text, NULL ) != v )
	{
		snprintf( t.text, sizeof( t.text ), "%.17g", v );
	}
	return t;
}

// ---------------------------------------------------------------------------------------------
// typed values; each reader works on the value at the current path

static bool cnNumberValue( cnLoader* L, const cJSON* item, cnCheck check, double* value )
{
	if ( cJSON_IsNumber( item ) == false )
	{
		return cnFail( L, "expected a number, got %s", cnKind( item ) );
	}
	double v = item->valuedouble;
	if ( isfinite( v ) == false )
	{
		// JSON has no NaN or infinity, but a literal such as 1e999 overflows to infinity
		return cnFail( L, "must be a finite number (got %s: the literal is out of the double range)",
					   v > 0.0 ? "inf" : ( v < 0.0 ? "-inf" : "nan" ) );
	}
	switch ( check )
	{
		case cnCheck_positive:
			if ( v <= 0.0 )
			{
				return cnFail( L, "must be > 0 (got %s)", cnShowNumber( v ).text );
			}
			break;
		case cnCheck_nonNegative:
			if ( v < 0.0 )
			{
				return cnFail( L, "must be >= 0 (got %s)", cnShowNumber( v ).text );
			}
			break;
		case cnCheck_unit:
			if ( v < 0.0 || v > 1.0 )
			{
				return cnFail( L, "must be in [0, 1] (got %s)", cnShowNumber( v ).text );
			}
			break;
		default:
			break;
	}
	*value = v;
	return true;
}

// An array of n numbers; form is shown in messages ("[x, y, z]").
static bool cnArrayValue( cnLoader* L, const cJSON* item, int n, const char* form, cnCheck check, double* values )
{
	if ( cJSON_IsArray( item ) == false )
	{
		return cnFail( L, "expected an array of %d numbers %s, got %s", n, form, cnKind( item ) );
	}
	int count = cJSON_GetArraySize( item );
	if ( count != n )
	{
		return cnFail( L, "expected %d numbers %s, got %d", n, form, count );
	}
	int i = 0;
	for ( const cJSON* child = item->child; child != NULL; child = child->next, ++i )
	{
		int saved = cnPushIndex( L, i );
		bool ok = cnNumberValue( L, child, check, values + i );
		cnPopPath( L, saved );
		if ( ok == false )
		{
			return false;
		}
	}
	return true;
}

static bool cnIntegerValue( cnLoader* L, const cJSON* item, double lower, double upper, double* value )
{
	double v = 0.0;
	if ( cnNumberValue( L, item, cnCheck_any, &v ) == false )
	{
		return false;
	}
	if ( v != floor( v ) )
	{
		return cnFail( L, "must be an integer (got %s)", cnShowNumber( v ).text );
	}
	if ( v < lower || v > upper )
	{
		return cnFail( L, "must be in [%.0f, %.0f] (got %.0f)", lower, upper, v );
	}
	*value = v;
	return true;
}

// Collision bits: a non-negative integer, or a string "0x..." (hexadecimal) or of decimal digits
// for masks beyond 2^53, which a JSON number cannot hold exactly.
static bool cnBitsValue( cnLoader* L, const cJSON* item, uint64_t* bits )
{
	if ( cJSON_IsString( item ) )
	{
		const char* s = item->valuestring;
		int base = 10;
		if ( s[0] == '0' && ( s[1] == 'x' || s[1] == 'X' ) )
		{
			base = 16;
			s += 2;
		}
		bool digits = s[0] != 0;
		for ( const char* c = s; *c != 0; ++c )
		{
			bool ok = ( *c >= '0' && *c <= '9' ) ||
					  ( base == 16 && ( ( *c >= 'a' && *c <= 'f' ) || ( *c >= 'A' && *c <= 'F' ) ) );
			digits = digits && ok;
		}
		if ( digits == false )
		{
			return cnFail( L, "expected an integer or a string of decimal digits or \"0x\" and hex digits, got \"%s\"",
						   item->valuestring );
		}
		errno = 0;
		unsigned long long v = strtoull( s, NULL, base );
		if ( errno == ERANGE )
		{
			return cnFail( L, "\"%s\" does not fit in 64 bits", item->valuestring );
		}
		*bits = (uint64_t)v;
		return true;
	}
	double v = 0.0;
	if ( cnIntegerValue( L, item, 0.0, CN_MAX_EXACT_INTEGER, &v ) == false )
	{
		return false;
	}
	*bits = (uint64_t)v;
	return true;
}

static bool cnStringValue( cnLoader* L, const cJSON* item, const char** value )
{
	if ( cJSON_IsString( item ) == false )
	{
		return cnFail( L, "expected a string, got %s", cnKind( item ) );
	}
	*value = item->valuestring;
	return true;
}

static bool cnBoolValue( cnLoader* L, const cJSON* item, bool* value )
{
	if ( cJSON_IsBool( item ) == false )
	{
		return cnFail( L, "expected true or false, got %s", cnKind( item ) );
	}
	*value = cJSON_IsTrue( item );
	return true;
}

// Unit quaternion [w, x, y, z]; a near-unit one is normalised, anything else is an error.
static bool cnQuatValue( cnLoader* L, const cJSON* item, cnQuat* q )
{
	double v[4];
	if ( cnArrayValue( L, item, 4, "[w, x, y, z]", cnCheck_any, v ) == false )
	{
		return false;
	}
	cnQuat r = { v[0], v[1], v[2], v[3] };
	double norm = cnQuatLength( r );
	if ( fabs( norm - 1.0 ) > CN_UNIT_TOLERANCE )
	{
		return cnFail( L,
					   "must be a unit quaternion [w, x, y, z]: its norm is %.9g, which differs from 1 by more than %g",
					   norm, CN_UNIT_TOLERANCE );
	}
	*q = cnNormalizeQuat( r );
	return true;
}

// Euler angles [roll, pitch, yaw] in degrees: R = Rz(yaw) Ry(pitch) Rx(roll), i.e. roll about x
// first, then pitch about the fixed y, then yaw about the fixed z.
static bool cnEulerValue( cnLoader* L, const cJSON* item, cnQuat* q )
{
	double v[3];
	if ( cnArrayValue( L, item, 3, "[roll, pitch, yaw] in degrees", cnCheck_any, v ) == false )
	{
		return false;
	}
	double toRadians = CN_PI / 180.0;
	cnQuat qx = cnQuatFromAxisAngle( cnV3( 1.0, 0.0, 0.0 ), v[0] * toRadians );
	cnQuat qy = cnQuatFromAxisAngle( cnV3( 0.0, 1.0, 0.0 ), v[1] * toRadians );
	cnQuat qz = cnQuatFromAxisAngle( cnV3( 0.0, 0.0, 1.0 ), v[2] * toRadians );
	*q = cnNormalizeQuat( cnMulQuat( qz, cnMulQuat( qy, qx ) ) );
	return true;
}

// ---------------------------------------------------------------------------------------------
// keyed readers: read obj[key] when present (the output keeps its default when absent)

static const cJSON* cnField( const cJSON* obj, const char* key )
{
	return cJSON_GetObjectItemCaseSensitive( obj, key );
}

static bool cnRequire( cnLoader* L, const cJSON* obj, const char* key, const char* what )
{
	if ( cnField( obj, key ) == NULL )
	{
		return cnFail( L, "missing required key \"%s\" (%s)", key, what );
	}
	return true;
}

static bool cnReadNumber( cnLoader* L, const cJSON* obj, const char* key, cnCheck check, double* value )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnPushKey( L, key );
	bool ok = cnNumberValue( L, item, check, value );
	cnPopPath( L, saved );
	return ok;
}

static bool cnReadVec3( cnLoader* L, const cJSON* obj, const char* key, cnCheck check, cnVec3* value )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	double v[3];
	int saved = cnPushKey( L, key );
	bool ok = cnArrayValue( L, item, 3, "[x, y, z]", check, v );
	cnPopPath( L, saved );
	if ( ok )
	{
		*value = cnV3( v[0], v[1], v[2] );
	}
	return ok;
}

static bool cnReadString( cnLoader* L, const cJSON* obj, const char* key, const char** value )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnPushKey( L, key );
	bool ok = cnStringValue( L, item, value );
	cnPopPath( L, saved );
	return ok;
}

static bool cnReadBool( cnLoader* L, const cJSON* obj, const char* key, bool* value )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnPushKey( L, key );
	bool ok = cnBoolValue( L, item, value );
	cnPopPath( L, saved );
	return ok;
}

static bool cnReadInteger( cnLoader* L, const cJSON* obj, const char* key, double lower, double upper, double* value )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnPushKey( L, key );
	bool ok = cnIntegerValue( L, item, lower, upper, value );
	cnPopPath( L, saved );
	return ok;
}

static bool cnReadBits( cnLoader* L, const cJSON* obj, const char* key, uint64_t* bits )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnPushKey( L, key );
	bool ok = cnBitsValue( L, item, bits );
	cnPopPath( L, saved );
	return ok;
}

// An orientation given as "orientation" (quaternion) or "euler_deg", never both.
static bool cnReadOrientation( cnLoader* L, const cJSON* obj, cnQuat* q )
{
	const cJSON* quat = cnField( obj, "orientation" );
	const cJSON* euler = cnField( obj, "euler_deg" );
	if ( quat != NULL && euler != NULL )
	{
		return cnFailAt( L, "euler_deg", "give either \"orientation\" or \"euler_deg\", not both" );
	}
	const cJSON* item = quat != NULL ? quat : euler;
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnPushKey( L, quat != NULL ? "orientation" : "euler_deg" );
	bool ok = quat != NULL ? cnQuatValue( L, item, q ) : cnEulerValue( L, item, q );
	cnPopPath( L, saved );
	return ok;
}

// Message of a failed library call, at the current path.
static bool cnLibraryFailure( cnLoader* L )
{
	return cnFail( L, "%s", cnWorld_GetError( L->world ) );
}

// ---------------------------------------------------------------------------------------------
// names of bodies and materials

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

// Resolves a body name at the current path.
static bool cnBodyByName( cnLoader* L, const char* name, cnBodyId* id )
{
	int index = cnFindBodyIndex( L, name );
	if ( index < 0 )
	{
		return cnFail( L, "unknown body \"%s\" (no body in \"bodies\" has this name)", name );
	}
	*id = L->bodyIds[index];
	return true;
}

// Resolves a material name at the current path, listing the defined ones when it is unknown.
static bool cnMaterialByName( cnLoader* L, const char* name, cnMaterialId* id )
{
	cnMaterialId m = cnWorld_FindMaterial( L->world, name );
	if ( m >= 0 )
	{
		*id = m;
		return true;
	}
	char list[384] = "";
	int used = 0;
	int count = cnWorld_GetMaterialCount( L->world );
	for ( int i = 0; i < count; ++i )
	{
		cnMaterialDef def = cnWorld_GetMaterial( L->world, i );
		int n = snprintf( list + used, sizeof( list ) - (size_t)used, "%s%s", i > 0 ? ", " : "",
						  def.name != NULL ? def.name : "?" );
		used = n > 0 && used + n < (int)sizeof( list ) ? used + n : used;
	}
	return cnFail( L, "unknown material \"%s\" (defined: %s)", name, list );
}

// Reads obj[key] as a material name and resolves it.
static bool cnReadMaterial( cnLoader* L, const cJSON* obj, const char* key, cnMaterialId* id )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	const char* name = NULL;
	int saved = cnPushKey( L, key );
	bool ok = cnStringValue( L, item, &name ) && cnMaterialByName( L, name, id );
	cnPopPath( L, saved );
	return ok;
}

// Reads obj[key] as a body name and resolves it.
static bool cnReadBody( cnLoader* L, const cJSON* obj, const char* key, cnBodyId* id )
{
	const cJSON* item = cnField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	const char* name = NULL;
	int saved = cnPushKey( L, key );
	bool ok = cnStringValue( L, item, &name ) && cnBodyByName( L, name, id );
	cnPopPath( L, saved );
	return ok;
}

// ---------------------------------------------------------------------------------------------
// sections

// "$schema" lets editors find docs/scene.schema.json; the loader only checks it is a string
static const char* const cnTopKeys[] = {
	"cairn",    "name",  "description", "gravity",        "timestep",   "duration", "fps",    "method",
	"substeps", "sleep", "materials",   "material_pairs", "no_collide", "bodies",   "$schema",
	"lcp_solver", "integrator", "planar", "tolerance", "position_correction",
	"speculative_contacts" };

static const char* const cnMaterialKeys[] = { "density", "friction", "restitution", "stiffness",
											  "damping", "color",    "texture" };

static bool cnLoadMaterials( cnLoader* L, const cJSON* materials )
{
	if ( materials == NULL )
	{
		return true;
	}
	if ( cJSON_IsObject( materials ) == false )
	{
		return cnFail( L, "expected an object mapping material names to materials, got %s", cnKind( materials ) );
	}
	for ( const cJSON* m = materials->child; m != NULL; m = m->next )
	{
		const char* name = m->string;
		int saved = cnPushKey( L, name );
		for ( const cJSON* before = materials->child; before != m; before = before->next )
		{
			if ( strcmp( before->string, name ) == 0 )
			{
				return cnFail( L, "material \"%s\" is defined twice", name );
			}
		}
		if ( name[0] == 0 )
		{
			return cnFail( L, "a material name must not be empty" );
		}
		if ( cnCheckKeys( L, m, cnMaterialKeys, CN_COUNT( cnMaterialKeys ), "a material" ) == false )
		{
			return false;
		}
		cnMaterialDef def = cnDefaultMaterialDef();
		def.name = name;
		double color[3] = { def.color[0], def.color[1], def.color[2] };
		const cJSON* colorItem = cnField( m, "color" );
		if ( cnReadNumber( L, m, "density", cnCheck_positive, &def.density ) == false ||
			 cnReadNumber( L, m, "friction", cnCheck_nonNegative, &def.friction ) == false ||
			 cnReadNumber( L, m, "restitution", cnCheck_unit, &def.restitution ) == false ||
			 cnReadNumber( L, m, "stiffness", cnCheck_nonNegative, &def.stiffness ) == false ||
			 cnReadNumber( L, m, "damping", cnCheck_nonNegative, &def.damping ) == false ||
			 cnReadString( L, m, "texture", &def.texture ) == false )
		{
			return false;
		}
		if ( colorItem != NULL )
		{
			int colorPath = cnPushKey( L, "color" );
			if ( cnArrayValue( L, colorItem, 3, "[r, g, b] each in [0, 1]", cnCheck_unit, color ) == false )
			{
				return false;
			}
			cnPopPath( L, colorPath );
		}
		def.color[0] = (float)color[0];
		def.color[1] = (float)color[1];
		def.color[2] = (float)color[2];

		// "default" is material 0, which every world has from the start
		cnMaterialId existing = cnWorld_FindMaterial( L->world, name );
		bool ok =
			existing == 0 ? cnWorld_SetMaterial( L->world, 0, &def ) : cnWorld_CreateMaterial( L->world, &def ) >= 0;
		if ( ok == false )
		{
			return cnLibraryFailure( L );
		}
		cnPopPath( L, saved );
	}
	return true;
}

static const char* const cnPairKeys[] = { "materials", "friction", "restitution" };

static bool cnLoadMaterialPairs( cnLoader* L, const cJSON* pairs )
{
	if ( pairs == NULL )
	{
		return true;
	}
	if ( cJSON_IsArray( pairs ) == false )
	{
		return cnFail( L, "expected an array of material pairs, got %s", cnKind( pairs ) );
	}
	int count = cJSON_GetArraySize( pairs );
	L->pairs = calloc( (size_t)( count > 0 ? count : 1 ), sizeof( *L->pairs ) );
	if ( L->pairs == NULL )
	{
		return cnFail( L, "out of memory" );
	}
	int index = 0;
	for ( const cJSON* p = pairs->child; p != NULL; p = p->next, ++index )
	{
		int saved = cnPushIndex( L, index );
		if ( cnCheckKeys( L, p, cnPairKeys, CN_COUNT( cnPairKeys ), "a material pair" ) == false ||
			 cnRequire( L, p, "materials", "the two material names" ) == false )
		{
			return false;
		}
		const cJSON* names = cnField( p, "materials" );
		int namesPath = cnPushKey( L, "materials" );
		if ( cJSON_IsArray( names ) == false || cJSON_GetArraySize( names ) != 2 )
		{
			return cnFail( L, "expected an array of two material names [\"a\", \"b\"]" );
		}
		cnMaterialId ids[2] = { 0, 0 };
		for ( int i = 0; i < 2; ++i )
		{
			const char* name = NULL;
			int itemPath = cnPushIndex( L, i );
			if ( cnStringValue( L, cJSON_GetArrayItem( names, i ), &name ) == false ||
				 cnMaterialByName( L, name, ids + i ) == false )
			{
				return false;
			}
			cnPopPath( L, itemPath );
		}
		for ( int k = 0; k < L->pairCount; ++k )
		{
			int a = L->pairs[k][0], b = L->pairs[k][1];
			if ( ( a == ids[0] && b == ids[1] ) || ( a == ids[1] && b == ids[0] ) )
			{
				return cnFail( L, "this pair of materials is already given in material_pairs[%d]", L->pairs[k][2] );
			}
		}
		cnPopPath( L, namesPath );

		if ( cnField( p, "friction" ) == NULL && cnField( p, "restitution" ) == NULL )
		{
			return cnFail( L, "a material pair needs \"friction\", \"restitution\" or both" );
		}
		// a value not given keeps what the two materials would combine to anyway
		cnMaterialDef a = cnWorld_GetMaterial( L->world, ids[0] );
		cnMaterialDef b = cnWorld_GetMaterial( L->world, ids[1] );
		double friction = cnMixFriction( a.friction, b.friction );
		double restitution = cnMixRestitution( a.restitution, b.restitution );
		if ( cnReadNumber( L, p, "friction", cnCheck_nonNegative, &friction ) == false ||
			 cnReadNumber( L, p, "restitution", cnCheck_unit, &restitution ) == false )
		{
			return false;
		}
		if ( cnWorld_SetMaterialPair( L->world, ids[0], ids[1], friction, restitution ) == false )
		{
			return cnLibraryFailure( L );
		}
		L->pairs[L->pairCount][0] = ids[0];
		L->pairs[L->pairCount][1] = ids[1];
		L->pairs[L->pairCount][2] = index;
		L->pairCount += 1;
		cnPopPath( L, saved );
	}
	return true;
}

static const char* const cnSphereKeys[] = { "type",     "radius",   "position", "orientation", "euler_deg",
											"material", "category", "mask",     "group" };
static const char* const cnBoxKeys[] = { "type",     "half_extents", "position", "orientation", "euler_deg",
										 "material", "category",     "mask",     "group" };
static const char* const cnRoundKeys[] = { "type",      "radius",   "half_height", "position", "orientation",
										   "euler_deg", "material", "category",    "mask",     "group" };
static const char* const cnPlaneKeys[] = { "type",      "normal",   "offset",   "position", "orientation",
										   "euler_deg", "material", "category", "mask",     "group" };

static bool cnLoadShape( cnLoader* L, const cJSON* s, cnBodyId body, cnBodyType bodyType, cnMaterialId bodyMaterial )
{
	if ( cJSON_IsObject( s ) == false )
	{
		return cnFail( L, "expected an object (a shape), got %s", cnKind( s ) );
	}
	if ( cnRequire( L, s, "type", "sphere, box, capsule, cylinder or plane" ) == false )
	{
		return false;
	}
	const char* typeName = NULL;
	if ( cnReadString( L, s, "type", &typeName ) == false )
	{
		return false;
	}
	cnShapeDef def = cnDefaultShapeDef();
	const char* const* keys = NULL;
	int keyCount = 0;
	const char* what = NULL;
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
	else
	{
		return cnFailAt( L, "type", "unknown shape type \"%s\" (allowed: sphere, box, capsule, cylinder, plane)",
						 typeName );
	}
	if ( cnCheckKeys( L, s, keys, keyCount, what ) == false )
	{
		return false;
	}

	// size
	switch ( def.type )
	{
		case cnShape_sphere:
			if ( cnRequire( L, s, "radius", "metres" ) == false ||
				 cnReadNumber( L, s, "radius", cnCheck_positive, &def.radius ) == false )
			{
				return false;
			}
			break;
		case cnShape_box:
			if ( cnRequire( L, s, "half_extents", "[a, b, c] in metres" ) == false ||
				 cnReadVec3( L, s, "half_extents", cnCheck_positive, &def.halfExtents ) == false )
			{
				return false;
			}
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			if ( cnRequire( L, s, "radius", "metres" ) == false ||
				 cnRequire( L, s, "half_height", "metres along the local z axis" ) == false ||
				 cnReadNumber( L, s, "radius", cnCheck_positive, &def.radius ) == false ||
				 cnReadNumber( L, s, "half_height", cnCheck_positive, &def.halfHeight ) == false )
			{
				return false;
			}
			break;
		case cnShape_plane:
			if ( bodyType != cnBody_static )
			{
				return cnFailAt( L, "type", "a plane can only belong to a static body (this body is %s)",
								 cnBodyTypeName( bodyType ) );
			}
			if ( cnReadVec3( L, s, "normal", cnCheck_any, &def.normal ) == false ||
				 cnReadNumber( L, s, "offset", cnCheck_any, &def.offset ) == false )
			{
				return false;
			}
			if ( cnLength( def.normal ) < CN_MIN_NORMAL_LENGTH )
			{
				return cnFailAt( L, "normal", "the plane normal has zero length" );
			}
			break;
		default:
			break;
	}

	// pose, material and collision filter
	def.material = bodyMaterial;
	double group = 0.0;
	if ( cnReadVec3( L, s, "position", cnCheck_any, &def.position ) == false ||
		 cnReadOrientation( L, s, &def.orientation ) == false ||
		 cnReadMaterial( L, s, "material", &def.material ) == false ||
		 cnReadBits( L, s, "category", &def.categoryBits ) == false ||
		 cnReadBits( L, s, "mask", &def.maskBits ) == false ||
		 cnReadInteger( L, s, "group", (double)INT32_MIN, (double)INT32_MAX, &group ) == false )
	{
		return false;
	}
	def.groupIndex = (int32_t)group;

	cnShapeId id = cnCreateShape( L->world, body, &def );
	if ( id.index < 0 )
	{
		return cnLibraryFailure( L );
	}
	return true;
}

static const char* const cnBodyKeys[] = { "name",        "type",          "material",       "position",
										  "orientation", "euler_deg",     "velocity",       "angular_velocity",
										  "mass",        "gravity_scale", "linear_damping", "angular_damping",
										  "drag",        "sleep",         "awake",          "shapes",
										  "forces",      "torques" };

static bool cnLoadBody( cnLoader* L, const cJSON* b )
{
	if ( cnCheckKeys( L, b, cnBodyKeys, CN_COUNT( cnBodyKeys ), "a body" ) == false ||
		 cnRequire( L, b, "name", "a unique body name" ) == false )
	{
		return false;
	}
	cnBodyDef def = cnDefaultBodyDef();
	if ( cnReadString( L, b, "name", &def.name ) == false )
	{
		return false;
	}
	int namePath = cnPushKey( L, "name" );
	if ( def.name[0] == 0 )
	{
		return cnFail( L, "a body name must not be empty" );
	}
	int first = cnFindBodyIndex( L, def.name );
	if ( first >= 0 )
	{
		return cnFail( L, "duplicate body name \"%s\" (already used by bodies[%d])", def.name, first );
	}
	cnPopPath( L, namePath );

	const char* typeName = NULL;
	if ( cnReadString( L, b, "type", &typeName ) == false )
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
			return cnFailAt( L, "type", "unknown body type \"%s\" (allowed: static, kinematic, dynamic)", typeName );
		}
	}

	cnMaterialId material = 0;
	double mass = 0.0;
	bool hasMass = cnField( b, "mass" ) != NULL;
	if ( cnReadMaterial( L, b, "material", &material ) == false ||
		 cnReadVec3( L, b, "position", cnCheck_any, &def.position ) == false ||
		 cnReadOrientation( L, b, &def.orientation ) == false ||
		 cnReadVec3( L, b, "velocity", cnCheck_any, &def.linearVelocity ) == false ||
		 cnReadVec3( L, b, "angular_velocity", cnCheck_any, &def.angularVelocity ) == false ||
		 cnReadNumber( L, b, "mass", cnCheck_positive, &mass ) == false ||
		 cnReadNumber( L, b, "gravity_scale", cnCheck_any, &def.gravityScale ) == false ||
		 cnReadNumber( L, b, "linear_damping", cnCheck_nonNegative, &def.linearDamping ) == false ||
		 cnReadNumber( L, b, "angular_damping", cnCheck_nonNegative, &def.angularDamping ) == false ||
		 cnReadNumber( L, b, "drag", cnCheck_nonNegative, &def.dragCoefficient ) == false ||
		 cnReadBool( L, b, "sleep", &def.enableSleep ) == false || cnReadBool( L, b, "awake", &def.isAwake ) == false )
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
				return cnFailAt( L, motion[i],
								 "a static body cannot move (make it kinematic to move it along a set velocity)" );
			}
		}
	}
	if ( hasMass && def.type != cnBody_dynamic )
	{
		return cnFailAt( L, "mass", "only dynamic bodies have a mass (this body is %s)", cnBodyTypeName( def.type ) );
	}

	// shapes: required, at least one
	const cJSON* shapes = cnField( b, "shapes" );
	if ( cnRequire( L, b, "shapes", "an array of at least one shape" ) == false )
	{
		return false;
	}
	int shapesPath = cnPushKey( L, "shapes" );
	if ( cJSON_IsArray( shapes ) == false )
	{
		return cnFail( L, "expected an array of shapes, got %s", cnKind( shapes ) );
	}
	int shapeCount = cJSON_GetArraySize( shapes );
	if ( shapeCount == 0 )
	{
		return cnFail( L, "a body needs at least one shape" );
	}
	cnPopPath( L, shapesPath );

	// a dynamic body made only of planes would have no volume and so no mass
	if ( def.type == cnBody_dynamic && hasMass == false )
	{
		int planes = 0;
		for ( const cJSON* s = shapes->child; s != NULL; s = s->next )
		{
			const cJSON* type = cnField( s, "type" );
			planes += cJSON_IsString( type ) && strcmp( type->valuestring, "plane" ) == 0 ? 1 : 0;
		}
		if ( planes == shapeCount )
		{
			return cnFail( L,
						   "dynamic body \"%s\" has no mass: its only shapes are planes, which have no volume "
						   "(give it a solid shape, or make it static)",
						   def.name );
		}
	}

	cnBodyId id = cnWorld_CreateBody( L->world, &def );
	if ( id.index < 0 )
	{
		return cnLibraryFailure( L );
	}
	cnAddBodyName( L, def.name, id );

	int index = 0;
	for ( const cJSON* s = shapes->child; s != NULL; s = s->next, ++index )
	{
		int saved = cnPushKey( L, "shapes" );
		cnPushIndex( L, index );
		if ( cnLoadShape( L, s, id, def.type, material ) == false )
		{
			return false;
		}
		cnPopPath( L, saved );
	}

	if ( hasMass && cnBody_SetMass( L->world, id, mass ) == false )
	{
		cnPushKey( L, "mass" );
		return cnLibraryFailure( L );
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
		return cnFail( L, "expected an object (%s), got %s", what, cnKind( f ) );
	}
	cnForceDef def = cnDefaultForceDef();
	def.body = body;
	def.isTorque = isTorque;
	const char* frame = "world";
	if ( cnReadString( L, f, "frame", &frame ) == false )
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
		return cnFailAt( L, "frame", "unknown %s frame \"%s\" (allowed: %s)", isTorque ? "torque" : "force", frame,
						 isTorque ? "world, body" : "world, body, target" );
	}

	bool target = def.frame == cnForce_target;
	const char* kind = isTorque
						   ? "a torque"
						   : ( target ? "a force with frame \"target\"" : "a force with frame \"world\" or \"body\"" );
	const char* const* keys = isTorque ? cnTorqueKeys : ( target ? cnForceTargetKeys : cnForceWorldKeys );
	int keyCount =
		isTorque ? CN_COUNT( cnTorqueKeys ) : ( target ? CN_COUNT( cnForceTargetKeys ) : CN_COUNT( cnForceWorldKeys ) );
	if ( cnCheckKeys( L, f, keys, keyCount, kind ) == false )
	{
		return false;
	}

	if ( target )
	{
		double magnitude = 0.0;
		if ( cnRequire( L, f, "magnitude", "newtons" ) == false ||
			 cnReadNumber( L, f, "magnitude", cnCheck_nonNegative, &magnitude ) == false ||
			 cnReadBody( L, f, "target", &def.target ) == false ||
			 cnReadVec3( L, f, "target_point", cnCheck_any, &def.targetPoint ) == false )
		{
			return false;
		}
		// the library takes the magnitude as the length of the vector
		def.vector = cnV3( magnitude, 0.0, 0.0 );
	}
	else if ( cnRequire( L, f, "vector", isTorque ? "[x, y, z] in N m" : "[x, y, z] in N" ) == false ||
			  cnReadVec3( L, f, "vector", cnCheck_any, &def.vector ) == false )
	{
		return false;
	}

	if ( cnReadVec3( L, f, "point", cnCheck_any, &def.localPoint ) == false ||
		 cnReadNumber( L, f, "start", cnCheck_any, &def.t0 ) == false ||
		 cnReadNumber( L, f, "end", cnCheck_any, &def.t1 ) == false )
	{
		return false;
	}
	if ( def.t1 < def.t0 )
	{
		return cnFailAt( L, "end", "must be >= start (%s), got %s", cnShowNumber( def.t0 ).text,
						 cnShowNumber( def.t1 ).text );
	}
	if ( cnWorld_CreateForce( L->world, &def ) < 0 )
	{
		return cnLibraryFailure( L );
	}
	return true;
}

// Forces of all bodies, after every body exists so a force may aim at a body defined later.
static bool cnLoadForces( cnLoader* L, const cJSON* bodies )
{
	int index = 0;
	for ( const cJSON* b = bodies->child; b != NULL; b = b->next, ++index )
	{
		const char* lists[2] = { "forces", "torques" };
		for ( int k = 0; k < 2; ++k )
		{
			const cJSON* list = cnField( b, lists[k] );
			if ( list == NULL )
			{
				continue;
			}
			int saved = cnPushKey( L, "bodies" );
			cnPushIndex( L, index );
			cnPushKey( L, lists[k] );
			if ( cJSON_IsArray( list ) == false )
			{
				return cnFail( L, "expected an array of %s, got %s", lists[k], cnKind( list ) );
			}
			cnBodyId id = L->bodyIds[index];
			if ( cJSON_GetArraySize( list ) > 0 && cnBody_GetType( L->world, id ) != cnBody_dynamic )
			{
				return cnFail( L, "%s act only on dynamic bodies (this body is %s)", lists[k],
							   cnBodyTypeName( cnBody_GetType( L->world, id ) ) );
			}
			int i = 0;
			for ( const cJSON* f = list->child; f != NULL; f = f->next, ++i )
			{
				int itemPath = cnPushIndex( L, i );
				if ( cnLoadForce( L, f, id, k == 1 ) == false )
				{
					return false;
				}
				cnPopPath( L, itemPath );
			}
			cnPopPath( L, saved );
		}
	}
	return true;
}

static bool cnLoadNoCollide( cnLoader* L, const cJSON* pairs )
{
	if ( pairs == NULL )
	{
		return true;
	}
	if ( cJSON_IsArray( pairs ) == false )
	{
		return cnFail( L, "expected an array of body name pairs [[\"a\", \"b\"], ...], got %s", cnKind( pairs ) );
	}
	int index = 0;
	for ( const cJSON* p = pairs->child; p != NULL; p = p->next, ++index )
	{
		int saved = cnPushIndex( L, index );
		if ( cJSON_IsArray( p ) == false || cJSON_GetArraySize( p ) != 2 )
		{
			return cnFail( L, "expected a pair of body names [\"a\", \"b\"]" );
		}
		cnBodyId ids[2];
		for ( int i = 0; i < 2; ++i )
		{
			const char* name = NULL;
			int itemPath = cnPushIndex( L, i );
			if ( cnStringValue( L, cJSON_GetArrayItem( p, i ), &name ) == false ||
				 cnBodyByName( L, name, ids + i ) == false )
			{
				return false;
			}
			cnPopPath( L, itemPath );
		}
		if ( ids[0].index == ids[1].index )
		{
			return cnFail( L, "a body never collides with itself: name two different bodies" );
		}
		if ( cnWorld_DisableCollision( L->world, ids[0], ids[1] ) == false )
		{
			return cnLibraryFailure( L );
		}
		cnPopPath( L, saved );
	}
	return true;
}

// The file's base name without directories and a ".json" ending, as the default scene name.
static char* cnBaseName( const char* path )
{
	const char* start = path;
	for ( const char* c = path; *c != 0; ++c )
	{
		if ( *c == '/' || *c == '\\' )
		{
			start = c + 1;
		}
	}
	size_t n = strlen( start );
	if ( n > 5 && strcmp( start + n - 5, ".json" ) == 0 )
	{
		n -= 5;
	}
	char* name = malloc( n + 1 );
	if ( name != NULL )
	{
		memcpy( name, start, n );
		name[n] = 0;
	}
	return name;
}

static char* cnCopyString( const char* s )
{
	size_t n = strlen( s ) + 1;
	char* copy = malloc( n );
	if ( copy != NULL )
	{
		memcpy( copy, s, n );
	}
	return copy;
}

// Reads the settings, creates the world and fills it; NULL (with L's error set) on failure.
static cnScene* cnBuildScene( cnLoader* L, const cJSON* root )
{
	if ( cJSON_IsObject( root ) == false )
	{
		cnFail( L, "the top level must be a JSON object {\"cairn\": 1, ...}, got %s", cnKind( root ) );
		return NULL;
	}
	if ( cnCheckKeys( L, root, cnTopKeys, CN_COUNT( cnTopKeys ), "the top level" ) == false ||
		 cnRequire( L, root, "cairn", "the format version, 1" ) == false )
	{
		return NULL;
	}
	double version = 0.0;
	if ( cnReadNumber( L, root, "cairn", cnCheck_any, &version ) == false )
	{
		return NULL;
	}
	if ( version != 1.0 )
	{
		cnFailAt( L, "cairn", "unsupported format version %s (this loader reads version 1)",
				  cnShowNumber( version ).text );
		return NULL;
	}

	// run settings and the world
	cnScene settings = { 0 };
	settings.timeStep = 1.0 / 120.0;
	settings.duration = 5.0;
	settings.fps = 60.0;
	settings.method = cnMethod_impulse;
	settings.subSteps = cnDefaultWorldDef().subSteps;
	cnWorldDef worldDef = cnDefaultWorldDef();
	const char* name = NULL;
	const char* description = "";
	const char* schema = NULL;
	const char* method = NULL;
	const char* lcpSolver = NULL;
	const char* integrator = NULL;
	double subSteps = settings.subSteps;
	if ( cnReadString( L, root, "name", &name ) == false ||
		 cnReadString( L, root, "description", &description ) == false ||
		 cnReadString( L, root, "$schema", &schema ) == false ||
		 cnReadVec3( L, root, "gravity", cnCheck_any, &worldDef.gravity ) == false ||
		 cnReadNumber( L, root, "timestep", cnCheck_positive, &settings.timeStep ) == false ||
		 cnReadNumber( L, root, "duration", cnCheck_nonNegative, &settings.duration ) == false ||
		 cnReadNumber( L, root, "fps", cnCheck_positive, &settings.fps ) == false ||
		 cnReadString( L, root, "method", &method ) == false ||
		 cnReadBool( L, root, "sleep", &worldDef.enableSleep ) == false ||
		 cnReadInteger( L, root, "substeps", 1.0, 64.0, &subSteps ) == false ||
		 cnReadBool( L, root, "planar", &worldDef.planar ) == false ||
		 cnReadBool( L, root, "position_correction", &worldDef.positionCorrection ) == false ||
		 cnReadBool( L, root, "speculative_contacts", &worldDef.speculativeContacts ) == false ||
		 cnReadNumber( L, root, "tolerance", cnCheck_positive, &worldDef.errorTolerance ) == false ||
		 cnReadString( L, root, "lcp_solver", &lcpSolver ) == false ||
		 cnReadString( L, root, "integrator", &integrator ) == false )
	{
		// (64 sub-steps is the library's limit: more is a mistake, not a setting)
		return NULL;
	}
	settings.subSteps = (int)subSteps;
	if ( method != NULL && cnMethodFromName( method, &settings.method ) == false )
	{
		char list[256] = "";
		int used = 0;
		for ( int m = 0; m < cnMethod_count; ++m )
		{
			int n = snprintf( list + used, sizeof( list ) - (size_t)used, "%s%s", m > 0 ? ", " : "",
							  cnMethodName( (cnMethod)m ) );
			used = n > 0 && used + n < (int)sizeof( list ) ? used + n : used;
		}
		cnFailAt( L, "method", "unknown method \"%s\" (allowed: %s)", method, list );
		return NULL;
	}
	if ( L->methodOverride != cnMethod_count )
	{
		settings.method = L->methodOverride;
	}
	worldDef.method = settings.method;
	worldDef.subSteps = settings.subSteps;
	if ( lcpSolver != NULL )
	{
		if ( strcmp( lcpSolver, "dantzig" ) == 0 )
		{
			worldDef.lcpSolver = cnLcp_dantzig;
		}
		else if ( strcmp( lcpSolver, "lemke" ) == 0 )
		{
			worldDef.lcpSolver = cnLcp_lemke;
		}
		else
		{
			cnFailAt( L, "lcp_solver", "unknown LCP solver \"%s\" (allowed: dantzig, lemke)", lcpSolver );
			return NULL;
		}
	}
	if ( integrator != NULL )
	{
		if ( strcmp( integrator, "symplectic-euler" ) == 0 )
		{
			worldDef.integrator = cnIntegrator_symplecticEuler;
		}
		else if ( strcmp( integrator, "explicit-euler" ) == 0 )
		{
			worldDef.integrator = cnIntegrator_explicitEuler;
		}
		else
		{
			cnFailAt( L, "integrator", "unknown integrator \"%s\" (allowed: symplectic-euler, explicit-euler)",
					  integrator );
			return NULL;
		}
	}

	// bodies: check the container before building anything
	const cJSON* bodies = cnField( root, "bodies" );
	int bodyCount = 0;
	if ( bodies != NULL )
	{
		if ( cJSON_IsArray( bodies ) == false )
		{
			cnFailAt( L, "bodies", "expected an array of bodies, got %s", cnKind( bodies ) );
			return NULL;
		}
		bodyCount = cJSON_GetArraySize( bodies );
	}
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
		cnFail( L, "out of memory" );
		return NULL;
	}
	L->slotCapacity = slotCapacity;
	for ( int i = 0; i < slotCapacity; ++i )
	{
		L->slots[i] = -1;
	}

	char worldError[256] = "";
	L->world = cnCreateWorld( &worldDef, worldError, (int)sizeof( worldError ) );
	if ( L->world == NULL )
	{
		cnFail( L, "cannot create the world: %s", worldError );
		return NULL;
	}

	// the sections in dependency order; a failure leaves its message and the world is destroyed
	// by the caller
	int saved = cnPushKey( L, "materials" );
	bool ok = cnLoadMaterials( L, cnField( root, "materials" ) );
	cnPopPath( L, saved );
	if ( ok )
	{
		saved = cnPushKey( L, "material_pairs" );
		ok = cnLoadMaterialPairs( L, cnField( root, "material_pairs" ) );
		cnPopPath( L, saved );
	}
	int index = 0;
	for ( const cJSON* b = bodies != NULL ? bodies->child : NULL; ok && b != NULL; b = b->next, ++index )
	{
		saved = cnPushKey( L, "bodies" );
		cnPushIndex( L, index );
		ok = cnLoadBody( L, b );
		cnPopPath( L, saved );
	}
	ok = ok && ( bodies == NULL || cnLoadForces( L, bodies ) );
	if ( ok )
	{
		saved = cnPushKey( L, "no_collide" );
		ok = cnLoadNoCollide( L, cnField( root, "no_collide" ) );
		cnPopPath( L, saved );
	}
	if ( ok == false )
	{
		return NULL;
	}

	cnScene* scene = calloc( 1, sizeof( cnScene ) );
	if ( scene == NULL )
	{
		cnFail( L, "out of memory" );
		return NULL;
	}
	*scene = settings;
	scene->name = name != NULL ? cnCopyString( name ) : cnBaseName( L->source );
	scene->description = cnCopyString( description );
	if ( scene->name == NULL || scene->description == NULL )
	{
		free( scene->name );
		free( scene->description );
		free( scene );
		cnFail( L, "out of memory" );
		return NULL;
	}
	scene->world = L->world;
	L->world = NULL;
	return scene;
}

// Line and column (1-based, columns in bytes) of an offset into text.
static void cnLineColumn( const char* text, size_t offset, int* line, int* column )
{
	*line = 1;
	*column = 1;
	for ( size_t i = 0; i < offset && text[i] != 0; ++i )
	{
		if ( text[i] == '\n' )
		{
			*line += 1;
			*column = 1;
		}
		else
		{
			*column += 1;
		}
	}
}

static cnScene* cnLoadText( const char* json, size_t length, const char* source, cnMethod methodOverride,
							char* error, int errorCapacity )
{
	cnLoader loader;
	memset( &loader, 0, sizeof( loader ) );
	loader.methodOverride = methodOverride;
	loader.source = source;
	loader.error = error;
	loader.errorCapacity = errorCapacity;
	if ( error != NULL && errorCapacity > 0 )
	{
		error[0] = 0;
	}

	// a NUL byte would end the text early for cJSON and hide what follows it
	size_t end = strlen( json );
	const char* errorAt = NULL;
	cJSON* root = NULL;
	if ( end == length )
	{
		root = cJSON_ParseWithOpts( json, &errorAt, true );
	}
	else
	{
		errorAt = json + end;
	}
	if ( root == NULL )
	{
		size_t offset = errorAt != NULL && errorAt >= json && errorAt <= json + end ? (size_t)( errorAt - json ) : 0;
		int line, column;
		cnLineColumn( json, offset, &line, &column );
		char near[24] = "";
		int n = 0;
		for ( const char* c = json + offset; *c != 0 && *c != '\n' && *c != '\r' && n < 16; ++c )
		{
			near[n++] = *c;
		}
		near[n] = 0;
		if ( error != NULL && errorCapacity > 0 )
		{
			if ( end != length && offset == end )
			{
				snprintf( error, (size_t)errorCapacity, "%s:%d:%d: syntax error: NUL byte in the text", source, line,
						  column );
			}
			else if ( offset >= end )
			{
				snprintf( error, (size_t)errorCapacity, "%s:%d:%d: syntax error: unexpected end of input%s", source,
						  line, column, end == 0 ? " (the text is empty)" : "" );
			}
			else
			{
				snprintf( error, (size_t)errorCapacity, "%s:%d:%d: syntax error near '%s'", source, line, column,
						  near );
			}
		}
		return NULL;
	}

	cnScene* scene = cnBuildScene( &loader, root );
	if ( scene == NULL && loader.failed == false )
	{
		cnFail( &loader, "cannot load the scene" );
	}
	if ( loader.world != NULL )
	{
		// a half-built world never escapes
		cnDestroyWorld( loader.world );
	}
	free( loader.bodyNames );
	free( loader.bodyIds );
	free( loader.slots );
	free( loader.pairs );
	cJSON_Delete( root );
	return scene;
}

cnScene* cnLoadSceneFromString( const char* json, const char* sourceName, char* error, int errorCapacity )
{
	const char* source = sourceName != NULL ? sourceName : "<string>";
	if ( json == NULL )
	{
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "%s: no text (NULL)", source );
		}
		return NULL;
	}
	cnScene* scene = cnLoadText( json, strlen( json ), source, cnMethod_count, error, errorCapacity );
	if ( scene != NULL )
	{
		scene->path = cnCopyString( source );
		if ( scene->path == NULL )
		{
			cnDestroyScene( scene );
			return NULL;
		}
	}
	return scene;
}

// Reads the file at path and loads it, with the method replaced unless methodOverride is
// cnMethod_count.
static cnScene* cnLoadFile( const char* path, cnMethod methodOverride, char* error, int errorCapacity )
{
	if ( error != NULL && errorCapacity > 0 )
	{
		error[0] = 0;
	}
	if ( path == NULL )
	{
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "(null): cannot open: no path given" );
		}
		return NULL;
	}
	FILE* file = fopen( path, "rb" );
	if ( file == NULL )
	{
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "%s: cannot open: %s", path, strerror( errno ) );
		}
		return NULL;
	}

	// read in chunks: works for pipes and files whose size is not known in advance
	size_t length = 0, capacity = 1 << 16;
	char* text = malloc( capacity );
	bool readError = false;
	while ( text != NULL )
	{
		size_t n = fread( text + length, 1, capacity - length - 1, file );
		length += n;
		if ( n == 0 )
		{
			readError = ferror( file ) != 0;
			break;
		}
		if ( length + 1 == capacity )
		{
			char* larger = realloc( text, 2 * capacity );
			if ( larger == NULL )
			{
				free( text );
				text = NULL;
				break;
			}
			text = larger;
			capacity *= 2;
		}
	}
	int readErrno = errno;
	fclose( file );
	if ( text == NULL || readError )
	{
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "%s: cannot read: %s", path,
					  text == NULL ? "out of memory" : strerror( readErrno ) );
		}
		free( text );
		return NULL;
	}
	text[length] = 0;

	cnScene* scene = cnLoadText( text, length, path, methodOverride, error, errorCapacity );
	free( text );
	if ( scene != NULL )
	{
		scene->path = cnCopyString( path );
		if ( scene->path == NULL )
		{
			cnDestroyScene( scene );
			if ( error != NULL && errorCapacity > 0 )
			{
				snprintf( error, (size_t)errorCapacity, "%s: out of memory", path );
			}
			return NULL;
		}
	}
	return scene;
}

void cnDestroyScene( cnScene* scene )
{
	if ( scene == NULL )
	{
		return;
	}
	cnDestroyWorld( scene->world );
	free( scene->name );
	free( scene->description );
	free( scene->path );
	free( scene );
}

cnScene* cnLoadScene( const char* path, char* error, int errorCapacity )
{
	return cnLoadFile( path, cnMethod_count, error, errorCapacity );
}

cnScene* cnLoadSceneWithMethod( const char* path, cnMethod method, char* error, int errorCapacity )
{
	if ( (int)method < 0 || method >= cnMethod_count )
	{
		if ( error != NULL && errorCapacity > 0 )
		{
			snprintf( error, (size_t)errorCapacity, "%s: unknown contact method %d", path != NULL ? path : "(null)",
					  (int)method );
		}
		return NULL;
	}
	return cnLoadFile( path, method, error, errorCapacity );
}
