// SPDX-License-Identifier: MIT
// The snapshot byte codec (snapshot_codec.h).
#include "snapshot_codec.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// writer

void cnPutBytes( cnSnapWriter* w, const void* bytes, size_t count )
{
	if ( w->failed || count == 0 )
	{
		return;
	}
	if ( w->size + count > w->capacity )
	{
		size_t capacity = w->capacity > 0 ? w->capacity : 4096;
		while ( capacity < w->size + count )
		{
			capacity *= 2;
		}
		unsigned char* data = realloc( w->data, capacity );
		if ( data == NULL )
		{
			w->failed = true;
			return;
		}
		w->data = data;
		w->capacity = capacity;
	}
	memcpy( w->data + w->size, bytes, count );
	w->size += count;
}

// Appends the low count bytes of v, least significant first.
static void cnPutLittle( cnSnapWriter* w, uint64_t v, int count )
{
	unsigned char bytes[8];
	for ( int i = 0; i < count; ++i )
	{
		bytes[i] = (unsigned char)( v >> ( 8 * i ) );
	}
	cnPutBytes( w, bytes, (size_t)count );
}

void cnPutU8( cnSnapWriter* w, uint8_t v )
{
	cnPutLittle( w, v, 1 );
}

void cnPutU32( cnSnapWriter* w, uint32_t v )
{
	cnPutLittle( w, v, 4 );
}

void cnPutI32( cnSnapWriter* w, int32_t v )
{
	cnPutLittle( w, (uint32_t)v, 4 );
}

void cnPutU64( cnSnapWriter* w, uint64_t v )
{
	cnPutLittle( w, v, 8 );
}

void cnPutI64( cnSnapWriter* w, int64_t v )
{
	cnPutLittle( w, (uint64_t)v, 8 );
}

void cnPutBool( cnSnapWriter* w, bool v )
{
	cnPutLittle( w, v ? 1u : 0u, 1 );
}

void cnPutF64( cnSnapWriter* w, double v )
{
	uint64_t bits;
	memcpy( &bits, &v, sizeof( bits ) );
	cnPutLittle( w, bits, 8 );
}

void cnPutVec3( cnSnapWriter* w, cnVec3 v )
{
	cnPutF64( w, v.x );
	cnPutF64( w, v.y );
	cnPutF64( w, v.z );
}

void cnPutQuat( cnSnapWriter* w, cnQuat q )
{
	cnPutF64( w, q.w );
	cnPutF64( w, q.x );
	cnPutF64( w, q.y );
	cnPutF64( w, q.z );
}

void cnPutMat3( cnSnapWriter* w, cnMat3 m )
{
	cnPutVec3( w, m.cx );
	cnPutVec3( w, m.cy );
	cnPutVec3( w, m.cz );
}

void cnPutTransform( cnSnapWriter* w, cnTransform xf )
{
	cnPutVec3( w, xf.p );
	cnPutQuat( w, xf.q );
}

void cnPutAABB( cnSnapWriter* w, cnAABB box )
{
	cnPutVec3( w, box.lower );
	cnPutVec3( w, box.upper );
}

void cnPutString( cnSnapWriter* w, const char* s )
{
	if ( s == NULL )
	{
		cnPutU32( w, UINT32_MAX );
		return;
	}
	size_t n = strlen( s );
	cnPutU32( w, (uint32_t)n );
	cnPutBytes( w, s, n );
}

size_t cnBeginSection( cnSnapWriter* w, const char tag[4] )
{
	cnPutBytes( w, tag, 4 );
	size_t offset = w->size;
	cnPutU64( w, 0 );
	return offset;
}

void cnEndSection( cnSnapWriter* w, size_t offset )
{
	if ( w->failed )
	{
		return;
	}
	uint64_t length = (uint64_t)( w->size - offset - 8 );
	for ( int i = 0; i < 8; ++i )
	{
		w->data[offset + (size_t)i] = (unsigned char)( length >> ( 8 * i ) );
	}
}

// ---------------------------------------------------------------------------------------------
// reader

bool cnSnapFail( cnSnapReader* r, const char* format, ... )
{
	if ( r->failed == false )
	{
		r->failed = true;
		va_list args;
		va_start( args, format );
		vsnprintf( r->why, sizeof( r->why ), format, args );
		va_end( args );
	}
	return false;
}

bool cnGetBytes( cnSnapReader* r, void* bytes, size_t count )
{
	if ( r->failed || count > r->size - r->offset )
	{
		if ( r->failed == false )
		{
			cnSnapFail( r, "truncated (%zu bytes needed at byte %zu, %zu left)", count, r->offset, r->size - r->offset );
		}
		memset( bytes, 0, count );
		return false;
	}
	memcpy( bytes, r->data + r->offset, count );
	r->offset += count;
	return true;
}

static uint64_t cnGetLittle( cnSnapReader* r, int count )
{
	unsigned char bytes[8];
	if ( cnGetBytes( r, bytes, (size_t)count ) == false )
	{
		return 0;
	}
	uint64_t v = 0;
	for ( int i = 0; i < count; ++i )
	{
		v |= (uint64_t)bytes[i] << ( 8 * i );
	}
	return v;
}

uint8_t cnGetU8( cnSnapReader* r )
{
	return (uint8_t)cnGetLittle( r, 1 );
}

uint32_t cnGetU32( cnSnapReader* r )
{
	return (uint32_t)cnGetLittle( r, 4 );
}

int32_t cnGetI32( cnSnapReader* r )
{
	return (int32_t)(uint32_t)cnGetLittle( r, 4 );
}

uint64_t cnGetU64( cnSnapReader* r )
{
	return cnGetLittle( r, 8 );
}

int64_t cnGetI64( cnSnapReader* r )
{
	return (int64_t)cnGetLittle( r, 8 );
}

bool cnGetBool( cnSnapReader* r )
{
	uint8_t v = cnGetU8( r );
	if ( v > 1 )
	{
		cnSnapFail( r, "a flag at byte %zu is %u, not 0 or 1", r->offset - 1, (unsigned)v );
		return false;
	}
	return v == 1;
}

double cnGetF64( cnSnapReader* r )
{
	uint64_t bits = cnGetLittle( r, 8 );
	double v;
	memcpy( &v, &bits, sizeof( v ) );
	return v;
}

cnVec3 cnGetVec3( cnSnapReader* r )
{
	cnVec3 v;
	v.x = cnGetF64( r );
	v.y = cnGetF64( r );
	v.z = cnGetF64( r );
	return v;
}

cnQuat cnGetQuat( cnSnapReader* r )
{
	cnQuat q;
	q.w = cnGetF64( r );
	q.x = cnGetF64( r );
	q.y = cnGetF64( r );
	q.z = cnGetF64( r );
	return q;
}

cnMat3 cnGetMat3( cnSnapReader* r )
{
	cnMat3 m;
	m.cx = cnGetVec3( r );
	m.cy = cnGetVec3( r );
	m.cz = cnGetVec3( r );
	return m;
}

cnTransform cnGetTransform( cnSnapReader* r )
{
	cnTransform xf;
	xf.p = cnGetVec3( r );
	xf.q = cnGetQuat( r );
	return xf;
}

cnAABB cnGetAABB( cnSnapReader* r )
{
	cnAABB box;
	box.lower = cnGetVec3( r );
	box.upper = cnGetVec3( r );
	return box;
}

char* cnGetString( cnSnapReader* r, const char* what )
{
	uint32_t n = cnGetU32( r );
	if ( r->failed || n == UINT32_MAX )
	{
		return NULL;
	}
	if ( n > r->size - r->offset )
	{
		cnSnapFail( r, "%s: a string of %u bytes runs past the end", what, n );
		return NULL;
	}
	if ( memchr( r->data + r->offset, 0, n ) != NULL )
	{
		cnSnapFail( r, "%s: a string holds a NUL byte", what );
		return NULL;
	}
	char* s = malloc( (size_t)n + 1 );
	if ( s == NULL )
	{
		cnSnapFail( r, "%s: out of memory", what );
		return NULL;
	}
	memcpy( s, r->data + r->offset, n );
	s[n] = 0;
	r->offset += n;
	return s;
}

int cnGetCount( cnSnapReader* r, const char* what, int max, size_t minBytes )
{
	int32_t n = cnGetI32( r );
	if ( r->failed )
	{
		return -1;
	}
	size_t left = r->size - r->offset;
	if ( n < 0 || n > max || ( minBytes > 0 && (size_t)n > left / minBytes ) )
	{
		cnSnapFail( r, "%s: count %d out of range (at most %d, and %zu bytes left)", what, n, max, left );
		return -1;
	}
	return n;
}

int cnGetIndex( cnSnapReader* r, const char* what, int lo, int hi )
{
	int32_t i = cnGetI32( r );
	if ( r->failed )
	{
		return lo - 1;
	}
	if ( i < lo || i >= hi )
	{
		cnSnapFail( r, "%s: %d out of range [%d, %d)", what, i, lo, hi );
		return lo - 1;
	}
	return i;
}

bool cnEnterSection( cnSnapReader* r, const char tag[4], size_t* savedSize )
{
	*savedSize = r->size;
	char found[4];
	if ( cnGetBytes( r, found, 4 ) == false )
	{
		return false;
	}
	memcpy( r->section, tag, 4 );
	r->section[4] = 0;
	if ( memcmp( found, tag, 4 ) != 0 )
	{
		return cnSnapFail( r, "expected section %.4s at byte %zu", tag, r->offset - 4 );
	}
	uint64_t length = cnGetU64( r );
	if ( r->failed || length > r->size - r->offset )
	{
		return cnSnapFail( r, "section length %llu runs past the end", (unsigned long long)length );
	}
	r->size = r->offset + (size_t)length;
	return true;
}

bool cnLeaveSection( cnSnapReader* r, size_t savedSize )
{
	if ( r->failed )
	{
		return false;
	}
	if ( r->offset != r->size )
	{
		return cnSnapFail( r, "%zu bytes left unread at the section's end", r->size - r->offset );
	}
	r->size = savedSize;
	return true;
}

uint64_t cnSnapChecksum( const void* bytes, size_t count )
{
	const unsigned char* p = bytes;
	uint64_t h = 14695981039346656037ull;
	for ( size_t i = 0; i < count; ++i )
	{
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}
