// SPDX-License-Identifier: MIT
// Continuous collision (docs/continuous.md): the cases of issue 12, a 3 mm steel sphere at 500 m/s,
// a spinning capsule of 4 mm radius at 300 m/s and a 2 cm box at 1000 m/s, against a static plate
// 1 cm thick at dt = 1/60 in impulse and lcp, marked bullet and found fast automatically: none ends
// beyond the plate or inside it. A slow body runs bit-identically whether it is a bullet or not, and
// a small ball dropped on a static floor is swept every step of its fall yet never moved back.
#include "test.h"
#include "test_bodies.h"

#include <string.h>

#define DT ( 1.0 / 60.0 )
// the plate: x in [-PLATE, PLATE], 1 m by 1 m
#define PLATE 0.005

static const tbConfig s_configs[] = {
	{ cnMethod_impulse, cnLcp_dantzig, "impulse" },
	{ cnMethod_lcp, cnLcp_dantzig, "lcp" },
	{ cnMethod_lcp, cnLcp_lemke, "lcp/lemke" },
	{ cnMethod_velocityProjection, cnLcp_dantzig, "velocity-projection" },
	{ cnMethod_grLcp, cnLcp_dantzig, "gr-lcp" },
};
#define CONFIG_COUNT ( (int)( sizeof( s_configs ) / sizeof( s_configs[0] ) ) )

typedef enum Projectile
{
	Projectile_sphere,
	Projectile_capsule,
	Projectile_box,
} Projectile;

static const char* s_names[] = { "sphere 3 mm at 500 m/s", "capsule 4 mm at 300 m/s", "box 2 cm at 1000 m/s" };

// A world with gravity along -z, a static plate at x = 0 and one projectile fired at it along +x
// from x = -2; returns the projectile.
static cnBodyId fire( cnWorld* world, Projectile kind, bool bullet )
{
	cnMaterialDef steel = cnDefaultMaterialDef();
	steel.density = 7800.0;
	steel.friction = 0.4;
	steel.restitution = 0.3;
	cnMaterialId m = cnCreateMaterial( world, &steel );
	tbBox( world, cnBody_static, cnVec3_zero, cnQuat_identity, cnVec3_zero, cnV3( PLATE, 0.5, 0.5 ), m );

	cnShapeDef sd = cnDefaultShapeDef();
	sd.material = m;
	cnBodyDef bd = cnDefaultBodyDef();
	bd.position = cnV3( -2.0, 0.0, 0.0 );
	bd.isBullet = bullet;
	if ( kind == Projectile_sphere )
	{
		sd.radius = 0.003;
		bd.linearVelocity = cnV3( 500.0, 0.0, 0.0 );
	}
	else if ( kind == Projectile_capsule )
	{
		sd.type = cnShape_capsule;
		sd.radius = 0.004;
		sd.halfHeight = 0.01;
		bd.linearVelocity = cnV3( 300.0, 0.0, 0.0 );
		bd.angularVelocity = cnV3( 0.0, 150.0, 40.0 );
	}
	else
	{
		sd.type = cnShape_box;
		sd.halfExtents = cnV3( 0.01, 0.01, 0.01 );
		bd.linearVelocity = cnV3( 1000.0, 0.0, 0.0 );
		bd.angularVelocity = cnV3( 3.0, 0.0, 0.0 );
	}
	cnBodyId id = cnCreateBody( world, &bd );
	CHECK( cnCreateShape( world, id, &sd ).index >= 0 );
	CHECK( cnBody_IsBullet( world, id ) == bullet );
	return id;
}

static void test_fast_bodies_stop_at_thin_plate( void )
{
	for ( int c = 0; c < CONFIG_COUNT; ++c )
	{
		for ( int kind = 0; kind < 3; ++kind )
		{
			for ( int bullet = 0; bullet < 2; ++bullet )
			{
				cnWorld* world = tbConfigWorld( s_configs + c, cnV3( 0, 0, -9.81 ) );
				cnBodyId body = fire( world, (Projectile)kind, bullet != 0 );
				double maxX = -1e9;
				for ( int i = 0; i < 60; ++i )
				{
					CHECK( cnWorld_Step( world, DT ) );
					double x = cnBody_GetPosition( world, body ).x;
					maxX = x > maxX ? x : maxX;
				}
				cnVec3 p = cnBody_GetPosition( world, body );
				cnVec3 v = cnBody_GetLinearVelocity( world, body );
				int64_t hits = cnWorld_GetStats( world ).continuousHitCount;
				printf( "  %-20s %-24s %-9s max x %.5f, end x %.4f vx %.3f, %lld moved back\n", s_configs[c].label,
						s_names[kind], bullet ? "bullet" : "automatic", maxX, p.x, v.x, (long long)hits );
				// never beyond the plate's near face (the centre stays in front of it), moving away or
				// stopped at the end
				CHECK( maxX < -PLATE );
				CHECK( p.x < -PLATE );
				CHECK( v.x < 1.0 );
				CHECK( hits >= 1 );
				cnDestroyWorld( world );
			}
		}
	}
}

// A slow ball at a plate: its motion is the same bit for bit whether it is a bullet (swept every
// step) or not (never swept).
static void test_slow_body_unchanged( void )
{
	for ( int c = 0; c < CONFIG_COUNT; ++c )
	{
		cnVec3 pos[2];
		cnVec3 vel[2];
		cnQuat rot[2];
		for ( int bullet = 0; bullet < 2; ++bullet )
		{
			cnWorld* world = tbConfigWorld( s_configs + c, cnV3( 0, 0, -9.81 ) );
			cnMaterialId m = tbMaterial( world, 0.5, 0.2 );
			tbBox( world, cnBody_static, cnVec3_zero, cnQuat_identity, cnVec3_zero, cnV3( PLATE, 0.5, 0.5 ), m );
			tbBox( world, cnBody_static, cnV3( 0, 0, -0.6 ), cnQuat_identity, cnVec3_zero, cnV3( 2, 2, 0.1 ), m );
			cnBodyId ball = tbSphere( world, cnBody_dynamic, cnV3( -0.3, 0.0, -0.4 ), cnV3( 2.0, 0.3, 0.0 ), 0.1, m );
			cnBody_SetBullet( world, ball, bullet != 0 );
			for ( int i = 0; i < 180; ++i )
			{
				CHECK( cnWorld_Step( world, DT ) );
			}
			pos[bullet] = cnBody_GetPosition( world, ball );
			vel[bullet] = cnBody_GetLinearVelocity( world, ball );
			rot[bullet] = cnBody_GetTransform( world, ball ).q;
			CHECK( cnWorld_GetStats( world ).continuousHitCount == 0 );
			cnDestroyWorld( world );
		}
		printf( "  %-20s slow ball ends at (%.6f, %.6f, %.6f)\n", s_configs[c].label, pos[0].x, pos[0].y, pos[0].z );
		CHECK( memcmp( pos, pos + 1, sizeof( cnVec3 ) ) == 0 );
		CHECK( memcmp( vel, vel + 1, sizeof( cnVec3 ) ) == 0 );
		CHECK( memcmp( rot, rot + 1, sizeof( cnQuat ) ) == 0 );
	}
}

// A 2 cm ball dropped 2 m onto a static slab moves several times its radius a step before it lands,
// so it is swept automatically, but the method's speculative contact stops it in front of the slab:
// the stage never moves it back and it comes to rest on top.
static void test_landing_is_left_to_the_method( void )
{
	for ( int c = 0; c < CONFIG_COUNT; ++c )
	{
		cnWorld* world = tbConfigWorld( s_configs + c, cnV3( 0, 0, -9.81 ) );
		cnMaterialId m = tbMaterial( world, 0.5, 0.0 );
		tbBox( world, cnBody_static, cnV3( 0, 0, -0.1 ), cnQuat_identity, cnVec3_zero, cnV3( 1, 1, 0.1 ), m );
		cnBodyId ball = tbSphere( world, cnBody_dynamic, cnV3( 0, 0, 2.0 ), cnVec3_zero, 0.02, m );
		for ( int i = 0; i < 180; ++i )
		{
			CHECK( cnWorld_Step( world, DT ) );
		}
		double z = cnBody_GetPosition( world, ball ).z;
		printf( "  %-20s dropped ball rests at z = %.5f\n", s_configs[c].label, z );
		CHECK( fabs( z - 0.02 ) < 0.01 );
		CHECK( cnWorld_GetStats( world ).continuousHitCount == 0 );
		cnDestroyWorld( world );
	}
}

static void test_bullet_flag( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnBodyDef bd = cnDefaultBodyDef();
	CHECK( bd.isBullet == false );
	cnBodyId id = cnCreateBody( world, &bd );
	CHECK( cnBody_IsBullet( world, id ) == false );
	CHECK( cnBody_SetBullet( world, id, true ) );
	CHECK( cnBody_IsBullet( world, id ) );
	cnDestroyBody( world, id );
	CHECK( cnBody_SetBullet( world, id, true ) == false );
	CHECK( cnBody_IsBullet( world, id ) == false );
	cnClearError();
	cnDestroyWorld( world );
}

int main( void )
{
	RUN_TEST( test_bullet_flag );
	RUN_TEST( test_fast_bodies_stop_at_thin_plate );
	RUN_TEST( test_slow_body_unchanged );
	RUN_TEST( test_landing_is_left_to_the_method );
	return TEST_SUMMARY();
}
