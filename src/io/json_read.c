// SPDX-License-Identifier: MIT
// Checked reading of a cJSON tree for the JSON scene loader (json_read.h).
#include "io/json_read.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A quaternion whose norm is further than this from 1 is a typing mistake, not rounding: the
// library uses the same tolerance, and a quaternion written with 7 significant digits is inside it.
#define CN_UNIT_TOLERANCE 1e-6

// Integers in JSON are doubles: beyond 2^53 they are no longer exact.
#define CN_MAX_EXACT_INTEGER 9007199254740992.0

// ---------------------------------------------------------------------------------------------
// messages and the JSON path

// Records the first failure: "SOURCE: PATH: reason", or "SOURCE: reason" at the top level.
static bool cnJsonFailV( cnLoader* L, cnErrorCode code, const char* fmt, va_list args )
{
	if ( L->failed )
	{
		return false;
	}
	L->failed = true;
	L->errorCode = code;
	char reason[768];
	vsnprintf( reason, sizeof( reason ), fmt, args );
	int used = L->pathLength > 0 ? snprintf( L->message, sizeof( L->message ), "%s: %s: ", L->source, L->path )
								 : snprintf( L->message, sizeof( L->message ), "%s: ", L->source );
	if ( used >= 0 && (size_t)used < sizeof( L->message ) )
	{
		snprintf( L->message + used, sizeof( L->message ) - (size_t)used, "%s", reason );
	}
	return false;
}

bool cnJsonFail( cnLoader* L, const char* fmt, ... )
{
	va_list args;
	va_start( args, fmt );
	cnJsonFailV( L, cnError_badInput, fmt, args );
	va_end( args );
	return false;
}

// Fails with a given code (the message as cnJsonFail's).
static bool cnJsonFailWithCode( cnLoader* L, cnErrorCode code, const char* fmt, ... )
{
	va_list args;
	va_start( args, fmt );
	cnJsonFailV( L, code, fmt, args );
	va_end( args );
	return false;
}

bool cnJsonFailOutOfMemory( cnLoader* L )
{
	return cnJsonFailWithCode( L, cnError_outOfMemory, "out of memory" );
}

bool cnJsonLibraryFailure( cnLoader* L, const char* what )
{
	// the library rejected a value of the file: bad input, unless memory ran out
	cnErrorCode code = cnGetErrorCode() == cnError_outOfMemory ? cnError_outOfMemory : cnError_badInput;
	return cnJsonFailWithCode( L, code, "%s%s%s", what != NULL ? what : "", what != NULL ? ": " : "", cnGetError() );
}

bool cnJsonWarn( cnLoader* L, const char* path, const char* fmt, ... )
{
	char reason[768];
	va_list args;
	va_start( args, fmt );
	vsnprintf( reason, sizeof( reason ), fmt, args );
	va_end( args );
	char line[CN_JSON_MESSAGE_CAPACITY];
	if ( path != NULL && path[0] != 0 )
	{
		snprintf( line, sizeof( line ), "%s: %s: %s", L->source, path, reason );
	}
	else
	{
		snprintf( line, sizeof( line ), "%s: %s", L->source, reason );
	}
	if ( L->warningCount == L->warningCapacity )
	{
		int capacity = L->warningCapacity > 0 ? 2 * L->warningCapacity : 4;
		char** grown = realloc( L->warnings, (size_t)capacity * sizeof( char* ) );
		if ( grown == NULL )
		{
			return cnJsonFailOutOfMemory( L );
		}
		L->warnings = grown;
		L->warningCapacity = capacity;
	}
	size_t n = strlen( line ) + 1;
	char* copy = malloc( n );
	if ( copy == NULL )
	{
		return cnJsonFailOutOfMemory( L );
	}
	memcpy( copy, line, n );
	L->warnings[L->warningCount++] = copy;
	return true;
}

void cnJsonFreeWarnings( cnLoader* L )
{
	for ( int i = 0; i < L->warningCount; ++i )
	{
		free( L->warnings[i] );
	}
	free( L->warnings );
	L->warnings = NULL;
	L->warningCount = 0;
	L->warningCapacity = 0;
}

void cnJsonReportError( const cnLoader* L )
{
	cnSetError( L->errorCode != cnError_none ? L->errorCode : cnError_badInput, "%s", L->message );
}

static void cnAppendPath( cnLoader* L, const char* fmt, ... )
{
	int room = CN_JSON_PATH_CAPACITY - L->pathLength;
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
int cnJsonPushKey( cnLoader* L, const char* key )
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
int cnJsonPushIndex( cnLoader* L, int i )
{
	int saved = L->pathLength;
	cnAppendPath( L, "[%d]", i );
	return saved;
}

void cnJsonPopPath( cnLoader* L, int saved )
{
	L->pathLength = saved;
	L->path[saved] = 0;
}

// Fails at the child key of the current path (the path is not restored: the message is written).
bool cnJsonFailAt( cnLoader* L, const char* key, const char* fmt, ... )
{
	char reason[768];
	va_list args;
	va_start( args, fmt );
	vsnprintf( reason, sizeof( reason ), fmt, args );
	va_end( args );
	cnJsonPushKey( L, key );
	return cnJsonFail( L, "%s", reason );
}

// Describes what a JSON value is, for "expected X, got Y".
const char* cnJsonKind( const cJSON* item )
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
bool cnJsonCheckKeys( cnLoader* L, const cJSON* item, const char* const* allowed, int count, const char* what )
{
	if ( cJSON_IsObject( item ) == false )
	{
		return cnJsonFail( L, "expected an object (%s), got %s", what, cnJsonKind( item ) );
	}
	for ( const cJSON* child = item->child; child != NULL; child = child->next )
	{
		const char* key = child->string != NULL ? child->string : "";
		for ( const cJSON* before = item->child; before != child; before = before->next )
		{
			if ( strcmp( before->string != NULL ? before->string : "", key ) == 0 )
			{
				return cnJsonFailAt( L, key, "duplicate key \"%s\"", key );
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
		cnJsonPushKey( L, key );
		if ( closest != NULL )
		{
			return cnJsonFail( L, "unknown key \"%s\" in %s (did you mean \"%s\"? allowed: %s)", key, what, closest,
							   list );
		}
		return cnJsonFail( L, "unknown key \"%s\" in %s (allowed: %s)", key, what, list );
	}
	return true;
}

cnJsonNumberText cnJsonShowNumber( double v )
{
	cnJsonNumberText t;
	snprintf( t.text, sizeof( t.text ), "%.15g", v );
	if ( strtod( t.text, NULL ) != v )
	{
		snprintf( t.text, sizeof( t.text ), "%.17g", v );
	}
	return t;
}

// ---------------------------------------------------------------------------------------------
// typed values; each reader works on the value at the current path

static bool cnNumberValue( cnLoader* L, const cJSON* item, cnJsonCheck check, double* value )
{
	if ( cJSON_IsNumber( item ) == false )
	{
		return cnJsonFail( L, "expected a number, got %s", cnJsonKind( item ) );
	}
	double v = item->valuedouble;
	if ( isfinite( v ) == false )
	{
		// JSON has no NaN or infinity, but a literal such as 1e999 overflows to infinity
		return cnJsonFail( L, "must be a finite number (got %s: the literal is out of the double range)",
						   v > 0.0 ? "inf" : ( v < 0.0 ? "-inf" : "nan" ) );
	}
	switch ( check )
	{
		case cnJsonCheck_positive:
			if ( v <= 0.0 )
			{
				return cnJsonFail( L, "must be > 0 (got %s)", cnJsonShowNumber( v ).text );
			}
			break;
		case cnJsonCheck_nonNegative:
			if ( v < 0.0 )
			{
				return cnJsonFail( L, "must be >= 0 (got %s)", cnJsonShowNumber( v ).text );
			}
			break;
		case cnJsonCheck_unit:
			if ( v < 0.0 || v > 1.0 )
			{
				return cnJsonFail( L, "must be in [0, 1] (got %s)", cnJsonShowNumber( v ).text );
			}
			break;
		default:
			break;
	}
	*value = v;
	return true;
}

// An array of n numbers; form is shown in messages ("[x, y, z]").
bool cnJsonArrayValue( cnLoader* L, const cJSON* item, int n, const char* form, cnJsonCheck check, double* values )
{
	if ( cJSON_IsArray( item ) == false )
	{
		return cnJsonFail( L, "expected an array of %d numbers %s, got %s", n, form, cnJsonKind( item ) );
	}
	int count = cJSON_GetArraySize( item );
	if ( count != n )
	{
		return cnJsonFail( L, "expected %d numbers %s, got %d", n, form, count );
	}
	int i = 0;
	for ( const cJSON* child = item->child; child != NULL; child = child->next, ++i )
	{
		int saved = cnJsonPushIndex( L, i );
		bool ok = cnNumberValue( L, child, check, values + i );
		cnJsonPopPath( L, saved );
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
	if ( cnNumberValue( L, item, cnJsonCheck_any, &v ) == false )
	{
		return false;
	}
	if ( v != floor( v ) )
	{
		return cnJsonFail( L, "must be an integer (got %s)", cnJsonShowNumber( v ).text );
	}
	if ( v < lower || v > upper )
	{
		return cnJsonFail( L, "must be in [%.0f, %.0f] (got %.0f)", lower, upper, v );
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
			return cnJsonFail( L,
							   "expected an integer or a string of decimal digits or \"0x\" and hex digits, got \"%s\"",
						   item->valuestring );
		}
		errno = 0;
		unsigned long long v = strtoull( s, NULL, base );
		if ( errno == ERANGE )
		{
			return cnJsonFail( L, "\"%s\" does not fit in 64 bits", item->valuestring );
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

bool cnJsonStringValue( cnLoader* L, const cJSON* item, const char** value )
{
	if ( cJSON_IsString( item ) == false )
	{
		return cnJsonFail( L, "expected a string, got %s", cnJsonKind( item ) );
	}
	*value = item->valuestring;
	return true;
}

static bool cnBoolValue( cnLoader* L, const cJSON* item, bool* value )
{
	if ( cJSON_IsBool( item ) == false )
	{
		return cnJsonFail( L, "expected true or false, got %s", cnJsonKind( item ) );
	}
	*value = cJSON_IsTrue( item );
	return true;
}

// Unit quaternion [w, x, y, z]; a near-unit one is normalised, anything else is an error.
static bool cnQuatValue( cnLoader* L, const cJSON* item, cnQuat* q )
{
	double v[4];
	if ( cnJsonArrayValue( L, item, 4, "[w, x, y, z]", cnJsonCheck_any, v ) == false )
	{
		return false;
	}
	cnQuat r = { v[0], v[1], v[2], v[3] };
	double norm = cnQuatLength( r );
	if ( fabs( norm - 1.0 ) > CN_UNIT_TOLERANCE )
	{
		return cnJsonFail( L,
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
	double v[3] = { 0.0, 0.0, 0.0 };
	if ( cnJsonArrayValue( L, item, 3, "[roll, pitch, yaw] in degrees", cnJsonCheck_any, v ) == false )
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

const cJSON* cnJsonField( const cJSON* obj, const char* key )
{
	return cJSON_GetObjectItemCaseSensitive( obj, key );
}

bool cnJsonRequire( cnLoader* L, const cJSON* obj, const char* key, const char* what )
{
	if ( cnJsonField( obj, key ) == NULL )
	{
		return cnJsonFail( L, "missing required key \"%s\" (%s)", key, what );
	}
	return true;
}

bool cnJsonReadNumber( cnLoader* L, const cJSON* obj, const char* key, cnJsonCheck check, double* value )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnJsonPushKey( L, key );
	bool ok = cnNumberValue( L, item, check, value );
	cnJsonPopPath( L, saved );
	return ok;
}

bool cnJsonReadVec3( cnLoader* L, const cJSON* obj, const char* key, cnJsonCheck check, cnVec3* value )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	double v[3];
	int saved = cnJsonPushKey( L, key );
	bool ok = cnJsonArrayValue( L, item, 3, "[x, y, z]", check, v );
	cnJsonPopPath( L, saved );
	if ( ok )
	{
		*value = cnV3( v[0], v[1], v[2] );
	}
	return ok;
}

bool cnJsonReadString( cnLoader* L, const cJSON* obj, const char* key, const char** value )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnJsonPushKey( L, key );
	bool ok = cnJsonStringValue( L, item, value );
	cnJsonPopPath( L, saved );
	return ok;
}

bool cnJsonReadBool( cnLoader* L, const cJSON* obj, const char* key, bool* value )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnJsonPushKey( L, key );
	bool ok = cnBoolValue( L, item, value );
	cnJsonPopPath( L, saved );
	return ok;
}

bool cnJsonReadInteger( cnLoader* L, const cJSON* obj, const char* key, double lower, double upper, double* value )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnJsonPushKey( L, key );
	bool ok = cnIntegerValue( L, item, lower, upper, value );
	cnJsonPopPath( L, saved );
	return ok;
}

bool cnJsonReadBits( cnLoader* L, const cJSON* obj, const char* key, uint64_t* bits )
{
	const cJSON* item = cnJsonField( obj, key );
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnJsonPushKey( L, key );
	bool ok = cnBitsValue( L, item, bits );
	cnJsonPopPath( L, saved );
	return ok;
}

// An orientation given as "orientation" (quaternion) or "euler_deg", never both.
bool cnJsonReadOrientation( cnLoader* L, const cJSON* obj, cnQuat* q )
{
	const cJSON* quat = cnJsonField( obj, "orientation" );
	const cJSON* euler = cnJsonField( obj, "euler_deg" );
	if ( quat != NULL && euler != NULL )
	{
		return cnJsonFailAt( L, "euler_deg", "give either \"orientation\" or \"euler_deg\", not both" );
	}
	const cJSON* item = quat != NULL ? quat : euler;
	if ( item == NULL )
	{
		return true;
	}
	int saved = cnJsonPushKey( L, quat != NULL ? "orientation" : "euler_deg" );
	bool ok = quat != NULL ? cnQuatValue( L, item, q ) : cnEulerValue( L, item, q );
	cnJsonPopPath( L, saved );
	return ok;
}

// Resolves a material name at the current path, listing the defined ones when it is unknown.
bool cnJsonMaterialByName( cnLoader* L, const char* name, cnMaterialId* id )
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
		cnMaterialDef def = cnMaterial_GetDef( L->world, i );
		int n = snprintf( list + used, sizeof( list ) - (size_t)used, "%s%s", i > 0 ? ", " : "",
						  def.name != NULL ? def.name : "?" );
		used = n > 0 && used + n < (int)sizeof( list ) ? used + n : used;
	}
	return cnJsonFail( L, "unknown material \"%s\" (defined: %s)", name, list );
}
