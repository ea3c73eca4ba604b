// SPDX-License-Identifier: MIT
// The byte codec of world snapshots (snapshot.c, snapshot_load.c, docs/snapshots.md): a growable
// little-endian writer and a bounds-checked reader whose first failure is kept as the error. Every
// number is written at a fixed width in little-endian order whatever the machine, and doubles by
// their IEEE 754 bits, so a snapshot restores the exact values it saved.
#pragma once

#include "cairn/math.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A growable output buffer; failed once an allocation failed (later writes are ignored).
typedef struct cnSnapWriter
{
	unsigned char* data;
	size_t size, capacity;
	bool failed;
} cnSnapWriter;

/// Appends raw bytes.
void cnPutBytes( cnSnapWriter* w, const void* bytes, size_t count );
/// Appends fixed-width little-endian integers, a bool as one byte, doubles by their bits.
void cnPutU8( cnSnapWriter* w, uint8_t v );
void cnPutU32( cnSnapWriter* w, uint32_t v );
void cnPutI32( cnSnapWriter* w, int32_t v );
void cnPutU64( cnSnapWriter* w, uint64_t v );
void cnPutI64( cnSnapWriter* w, int64_t v );
void cnPutBool( cnSnapWriter* w, bool v );
void cnPutF64( cnSnapWriter* w, double v );
void cnPutVec3( cnSnapWriter* w, cnVec3 v );
void cnPutQuat( cnSnapWriter* w, cnQuat q );
void cnPutMat3( cnSnapWriter* w, cnMat3 m );
void cnPutTransform( cnSnapWriter* w, cnTransform xf );
void cnPutAABB( cnSnapWriter* w, cnAABB box );
/// A string: u32 length then its bytes; NULL as length 0xFFFFFFFF.
void cnPutString( cnSnapWriter* w, const char* s );
/// Starts a section: its 4-letter tag and a length patched by cnEndSection; returns the patch offset.
size_t cnBeginSection( cnSnapWriter* w, const char tag[4] );
/// Ends the section begun at offset: writes its length.
void cnEndSection( cnSnapWriter* w, size_t offset );

/// A reader over bytes; failed once a read ran past the end or a check failed, with why the first
/// failure happened (later reads return zeros).
typedef struct cnSnapReader
{
	const unsigned char* data;
	size_t size, offset;
	bool failed;
	// the section being read, for messages
	char section[5];
	char why[256];
} cnSnapReader;

/// Marks the reader failed with a message (the first failure's is kept); returns false.
bool cnSnapFail( cnSnapReader* r, const char* format, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 2, 3 ) ) )
#endif
	;

/// Reads raw bytes (false and zeros past the end).
bool cnGetBytes( cnSnapReader* r, void* bytes, size_t count );
uint8_t cnGetU8( cnSnapReader* r );
uint32_t cnGetU32( cnSnapReader* r );
int32_t cnGetI32( cnSnapReader* r );
uint64_t cnGetU64( cnSnapReader* r );
int64_t cnGetI64( cnSnapReader* r );
/// A bool: a byte that must be 0 or 1.
bool cnGetBool( cnSnapReader* r );
double cnGetF64( cnSnapReader* r );
cnVec3 cnGetVec3( cnSnapReader* r );
cnQuat cnGetQuat( cnSnapReader* r );
cnMat3 cnGetMat3( cnSnapReader* r );
cnTransform cnGetTransform( cnSnapReader* r );
cnAABB cnGetAABB( cnSnapReader* r );
/// A string (malloc'ed; NULL for a NULL string or on failure: r->failed tells which).
/// Strings longer than the bytes left or holding a NUL byte fail.
char* cnGetString( cnSnapReader* r, const char* what );
/// A record count that must lie in [0, max] and fit the bytes left at minBytes bytes per record
/// (so a corrupt count cannot ask for a huge allocation); -1 on failure.
int cnGetCount( cnSnapReader* r, const char* what, int max, size_t minBytes );
/// An index that must lie in [lo, hi); lo - 1 on failure.
int cnGetIndex( cnSnapReader* r, const char* what, int lo, int hi );
/// Enters the section with this tag: checks the tag and its length; the reader then ends at the
/// section's end (restored by cnLeaveSection, which checks that it was read to its end).
bool cnEnterSection( cnSnapReader* r, const char tag[4], size_t* savedSize );
bool cnLeaveSection( cnSnapReader* r, size_t savedSize );

/// FNV-1a 64 of bytes (the snapshot's checksum).
uint64_t cnSnapChecksum( const void* bytes, size_t count );
