// SPDX-License-Identifier: MIT
// The byte layout of recordings (docs/recording-format.md) shared by the writer and the reader:
// header offsets and little-endian encoding, byte by byte, so files are the same on every host.
#pragma once

#include <float.h>
#include <stdint.h>
#include <string.h>

_Static_assert( sizeof( double ) == 8 && DBL_MANT_DIG == 53, "recordings store IEEE 754 binary64 doubles" );
_Static_assert( sizeof( float ) == 4 && FLT_MANT_DIG == 24, "recordings store IEEE 754 binary32 floats" );

// byte offsets of the fixed header fields (see docs/recording-format.md)
enum
{
	cn_recMagicOffset = 0,
	cn_recVersionOffset = 8,
	cn_recBodyCountOffset = 12,
	cn_recFrameCountOffset = 16,
	cn_recHeaderSizeOffset = 20,
	cn_recFpsOffset = 24,
	cn_recSceneNameOffset = 32,
	// type (4) + 12 doubles of size fields + 7 doubles of pose + 3 floats of colour
	cn_recShapeBytes = 4 + 8 * ( 1 + 3 + 1 + 3 + 1 ) + 8 * 7 + 4 * 3,
	// a polygon's vertex list after its shape record: count + 3 doubles per vertex (version 2)
	cn_recVertexCountBytes = 4,
	cn_recVertexBytes = 8 * 3,
	// position (3 doubles) + orientation (4 doubles)
	cn_recBodyFrameBytes = 8 * 7,
	// the smallest body record: name length, type, shape count
	cn_recMinBodyBytes = 12,
	// version 4: the joint count after the body records, then per joint its record: name length (and
	// name), type, the two body indices and the two anchors (6 doubles)
	cn_recJointCountBytes = 4,
	cn_recJointFixedBytes = 4 * 3 + 8 * 6,
	cn_recMinJointBytes = 4 + cn_recJointFixedBytes,
	// and per frame a byte per joint: its cnRecordedJointState
	cn_recJointFrameBytes = 1,
};

// the body index of a joint's end at the fixed world (-1 as a u32)
#define CN_REC_WORLD_BODY UINT32_C( 0xFFFFFFFF )

// ---------------------------------------------------------------------------------------------
// little-endian encoding

static inline void cnPutU32( uint8_t* p, uint32_t v )
{
	for ( int i = 0; i < 4; ++i )
	{
		p[i] = (uint8_t)( v >> ( 8 * i ) );
	}
}

static inline void cnPutU64( uint8_t* p, uint64_t v )
{
	for ( int i = 0; i < 8; ++i )
	{
		p[i] = (uint8_t)( v >> ( 8 * i ) );
	}
}

static inline void cnPutF64( uint8_t* p, double v )
{
	uint64_t bits;
	memcpy( &bits, &v, 8 );
	cnPutU64( p, bits );
}

static inline void cnPutF32( uint8_t* p, float v )
{
	uint32_t bits;
	memcpy( &bits, &v, 4 );
	cnPutU32( p, bits );
}

static inline uint32_t cnGetU32( const uint8_t* p )
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline double cnGetF64( const uint8_t* p )
{
	uint64_t bits = 0;
	for ( int i = 7; i >= 0; --i )
	{
		bits = bits << 8 | p[i];
	}
	double v;
	memcpy( &v, &bits, 8 );
	return v;
}

static inline float cnGetF32( const uint8_t* p )
{
	uint32_t bits = cnGetU32( p );
	float v;
	memcpy( &v, &bits, 4 );
	return v;
}

