// SPDX-License-Identifier: MIT
// The position terms of the velocity-level methods (method-velocity.md): speculative contacts
// (cnWorldDef.speculativeContacts) and the position correction (cnWorldDef.positionCorrection).
//
// Position correction.
// A sphere resting 10 cm deep in the ground: the velocity solve keeps it from sinking further but
// cannot move it out; the correction stage moves it out without touching its velocity. For one
// point whose anchor passes through the centre (no rotation), each of the stage's passes removes
// the fraction 0.2 of the overlap beyond linearSlop, so after n steps of 4 passes the excess is
// e0 0.8^(4n), up to round-off. With the correction off (FOSSSim's behaviour) the overlap stays.
#include "cairn/cairn.h"
#include "test.h"
#include "test_bodies.h"

#include <math.h>

static const cnMethod methods[] = { cnMethod_lcp, cnMethod_velocityProjection, cnMethod_grLcp,
									cnMethod_grVelocityProjection };
#define METHOD_COUNT ( (int)( sizeof( methods ) / sizeof( methods[0] ) ) )

// A unit sphere whose bottom is depth below the plane z = 0; returns its world.
static cnWorld* sunkSphere( cnMethod method, bool correction, double depth, cnBodyId* ball )
{
	cnWorldDef def = tbWorldDef( method, cnV3( 0, 0, -9.81 ) );
	def.settings.velocity.positionCorrection = correction;
	cnWorld* world = tbCreateWorld( &def );
	cnMaterialId m = tbGround( world, 0.5, 0.0 );
	*ball = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 1.0 - depth ), cnVec3_zero, 1.0, m );
	return world;
}

static void sphereComesOut( void )
{
	const double depth = 0.1, h = 1.0 / 60.0;
	for ( int k = 0; k < METHOD_COUNT; ++k )
	{
		cnBodyId ball;
		cnWorld* world = sunkSphere( methods[k], true, depth, &ball );
		double slop = cnWorld_GetDef( world ).linearSlop;
		double excess = depth - slop;
		for ( int n = 1; n <= 5; ++n )
		{
			CHECK( cnWorld_Step( world, h ) );
			excess *= 0.8 * 0.8 * 0.8 * 0.8;
			double z = cnBody_GetPosition( world, ball ).z;
			// bottom at z - 1: overlap slop + excess
			CHECK_NEAR( 1.0 - z, slop + excess, 1e-12 );
			// the velocity solve stopped the sphere; the correction moved only its position
			CHECK( cnLength( cnBody_GetLinearVelocity( world, ball ) ) < 1e-12 );
			CHECK( cnLength( cnBody_GetAngularVelocity( world, ball ) ) < 1e-12 );
		}
		cnDestroyWorld( world );
	}
}

static void correctionOff( void )
{
	const double depth = 0.1;
	for ( int k = 0; k < METHOD_COUNT; ++k )
	{
		cnBodyId ball;
		cnWorld* world = sunkSphere( methods[k], false, depth, &ball );
		for ( int n = 0; n < 10; ++n )
		{
			CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		}
		// resting exactly where it was: the overlap stays as FOSSSim keeps it
		CHECK_NEAR( cnBody_GetPosition( world, ball ).z, 1.0 - depth, 1e-12 );
		cnDestroyWorld( world );
	}
}

// Speculative contacts. A box (half height 0.5, e = 0) falls at v = 1 m/s from d = 5 mm above the
// ground with h = 1/60 s, so it would pass the ground within the step (v h = 16.7 mm > d). Its
// points may close their gap: n . v+ >= -d / h, so the step ends with v+ = -d / h and the box exactly
// on the ground, z = 0.5 + d - h d / h = 0.5 (round-off); the next step, touching, stops it: v = 0.
// Without speculative contacts the step stops it at its current distance (v+ = 0, z = 0.5 + d),
// from where it falls again.
static void gapClosesInOneStep( void )
{
	const double d = 0.005, h = 1.0 / 60.0;
	const cnMethod gapMethods[2] = { cnMethod_lcp, cnMethod_velocityProjection };
	for ( int k = 0; k < 2; ++k )
	{
		for ( int speculative = 0; speculative < 2; ++speculative )
		{
			cnWorldDef def = tbWorldDef( gapMethods[k], cnV3( 0, 0, -9.81 ) );
			def.settings.velocity.speculativeContacts = speculative != 0;
			cnWorld* world = tbCreateWorld( &def );
			cnMaterialId m = tbGround( world, 0.5, 0.0 );
			cnBodyId box = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 0.5 + d ), cnQuat_identity, cnV3( 0, 0, -1.0 ),
								  cnV3( 0.5, 0.5, 0.5 ), m );
			CHECK( cnWorld_Step( world, h ) );
			double z = cnBody_GetPosition( world, box ).z, vz = cnBody_GetLinearVelocity( world, box ).z;
			if ( speculative )
			{
				CHECK_NEAR( z, 0.5, 1e-12 );
				CHECK_NEAR( vz, -d / h, 1e-12 );
				CHECK( cnWorld_Step( world, h ) );
				CHECK_NEAR( cnBody_GetPosition( world, box ).z, 0.5, 1e-12 );
				CHECK_NEAR( cnBody_GetLinearVelocity( world, box ).z, 0.0, 1e-12 );
			}
			else
			{
				CHECK_NEAR( z, 0.5 + d, 1e-12 );
				CHECK_NEAR( vz, 0.0, 1e-12 );
			}
			CHECK( cnLength( cnBody_GetAngularVelocity( world, box ) ) < 1e-12 );
			cnDestroyWorld( world );
		}
	}
}

int main( void )
{
	RUN_TEST( sphereComesOut );
	RUN_TEST( correctionOff );
	RUN_TEST( gapClosesInOneStep );
	return TEST_SUMMARY();
}
