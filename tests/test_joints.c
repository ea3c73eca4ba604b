// SPDX-License-Identifier: MIT
// Joints through the API in the impulse method (the default), checked against closed forms: the
// large-amplitude pendulum (complete elliptic integral), the physical pendulum, the spring-mass
// period and the damped spring's decrement, a damper's exponential decay, limits, motors, a heavy
// chain's stretch, each joint type keeping what it should, breaking, collision filtering, islands
// and sleep, bad definitions and stale ids.
#include "test_bodies.h"
#include "test_closed_forms.h"

#include <math.h>
#include <string.h>

static const cnVec3 gravity = { 0.0, 0.0, -9.81 };
static const double dt = 1.0 / 60.0;

// A dynamic body with one sphere of the given radius and density 1000.
static cnBodyId sphere( cnWorld* world, cnVec3 p, double radius )
{
	return tbSphere( world, cnBody_dynamic, p, cnVec3_zero, radius, 0 );
}

// The times at which a coordinate crosses zero going up, while stepping; returns how many.
typedef double ( *Coordinate )( cnWorld* world, void* user );

static int upCrossings( cnWorld* world, Coordinate f, void* user, double duration, double h, double* times, int max )
{
	int n = 0;
	double t = 0.0, prev = f( world, user );
	int steps = (int)lround( duration / h );
	for ( int i = 0; i < steps && n < max; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
		t += h;
		double x = f( world, user );
		if ( prev < 0.0 && x >= 0.0 )
		{
			times[n++] = t - h * x / ( x - prev );
		}
		prev = x;
	}
	return n;
}

static double bodyX( cnWorld* world, void* user )
{
	return cnBody_GetWorldCenterOfMass( world, *(cnBodyId*)user ).x;
}

// The mean period from a list of up-crossings.
static double meanPeriod( const double* times, int n )
{
	return n >= 2 ? ( times[n - 1] - times[0] ) / ( n - 1 ) : NAN;
}

// A sphere on a rod (distance joint to the world) released at 90 degrees: T = 4 sqrt(I/(m g L)) K(sin 45)
// for the physical pendulum of a sphere of radius r at distance L (I = m L^2 + 2/5 m r^2).
static void testLargePendulum( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	double L = 1.0, r = 0.05;
	cnBodyId bob = sphere( world, cnV3( L, 0, 0 ), r );
	cnDistanceJointDef def = cnDefaultDistanceJointDef();
	def.base.bodyA = bob;
	def.anchorA = cnV3( L, 0, 0 );
	def.anchorB = cnV3( 0, 0, 0 );
	cnJointId rod = cnCreateDistanceJoint( world, &def );
	CHECK( cnJoint_IsValid( world, rod ) );
	CHECK( cnJoint_GetType( world, rod ) == cnJoint_distance );
	CHECK_NEAR( cnJoint_GetPosition( world, rod ), L, 1e-12 );

	// the bob's x crosses zero going right once a period (starting at x = L it swings left first)
	double times[16];
	int n = upCrossings( world, bodyX, &bob, 12.0, dt, times, 16 );
	double I = L * L + 0.4 * r * r;
	double expected = 4.0 * sqrt( I / ( 9.81 * L ) ) * cfEllipticK( sin( 0.25 * CN_PI ) );
	CHECK( n >= 4 );
	double period = meanPeriod( times, n );
	printf( "  pendulum 90 deg: period %.6f s, closed form %.6f s (%.3f %%)\n", period, expected,
			100.0 * ( period - expected ) / expected );
	CHECK_NEAR( period, expected, 2e-3 * expected );
	CHECK( cnJoint_GetLinearError( world, rod ) < 1e-4 );
	// the rod's tension at the bottom of a swing from 90 degrees is 3 m g for a point mass
	cnDestroyWorld( world );
}

// A box hanging from a hinge at one end of its long side: small swings of a physical pendulum,
// T = 2 pi sqrt(I_pivot / (m g d)), I_pivot = m (a^2 + b^2) / 3 about a side axis for a box of half
// extents (a, b) in the swing plane at distance d = b below the pivot... here a thin box of half
// length b hung from its end: I = m (4 b^2 + 4 c^2) / 12 + m b^2.
static void testPhysicalPendulum( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	double b = 0.5, c = 0.05; // half length (z) and half thickness (x)
	double theta0 = 0.05;     // small: the linear law holds to 0.02 %
	cnQuat q = cnQuatFromAxisAngle( cnV3( 0, 1, 0 ), theta0 );
	cnVec3 pivot = cnV3( 0, 0, 2 );
	cnVec3 center = cnSub( pivot, cnRotate( q, cnV3( 0, 0, b ) ) );
	cnBodyId bar = tbBox( world, cnBody_dynamic, center, q, cnVec3_zero, cnV3( c, 0.05, b ), 0 );
	cnHingeJointDef def = cnDefaultHingeJointDef();
	def.base.bodyA = bar;
	def.anchor = pivot;
	def.axis = cnV3( 0, 1, 0 );
	cnJointId hinge = cnCreateHingeJoint( world, &def );
	CHECK( cnJoint_IsValid( world, hinge ) );

	double times[16];
	int n = upCrossings( world, bodyX, &bar, 10.0, dt, times, 16 );
	double I = ( 4.0 * b * b + 4.0 * c * c ) / 12.0 + b * b; // per unit mass
	double expected = 2.0 * CN_PI * sqrt( I / ( 9.81 * b ) ) * ( 1.0 + theta0 * theta0 / 16.0 );
	double period = meanPeriod( times, n );
	printf( "  physical pendulum: period %.6f s, closed form %.6f s\n", period, expected );
	CHECK( n >= 4 );
	CHECK_NEAR( period, expected, 2e-3 * expected );
	// the hinge keeps the bar in its plane
	CHECK( fabs( cnBody_GetWorldCenterOfMass( world, bar ).y ) < 1e-9 );
	CHECK( cnJoint_GetAngularError( world, hinge ) < 1e-6 );
	cnDestroyWorld( world );
}

// A point mass on a spring to the world, no gravity: T = 2 pi sqrt(m/k); with damping the amplitude
// falls by exp(-zeta omega T_d) per period (the logarithmic decrement).
static void testSpringMass( void )
{
	for ( int damped = 0; damped < 2; ++damped )
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
		double m = 2.0, k = 50.0, c = damped ? 1.0 : 0.0;
		cnBodyId mass = tbPointMass( world, cnV3( 0, 0, -1.1 ), m );
		cnSpringJointDef def = cnDefaultSpringJointDef();
		def.base.bodyA = mass;
		def.anchorA = cnV3( 0, 0, -1.1 );
		def.anchorB = cnV3( 0, 0, 0 );
		def.stiffness = k;
		def.damping = c;
		def.restLength = 1.0;
		CHECK( cnJoint_IsValid( world, cnCreateSpringJoint( world, &def ) ) );

		// z + 1 oscillates about 0 with amplitude 0.1
		double times[16], peaks[16];
		int n = 0, np = 0;
		double prev = -0.1, prevPrev = -0.1, t = 0.0;
		for ( int i = 0; i < 60 * 8; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
			t += dt;
			double x = cnBody_GetPosition( world, mass ).z + 1.0;
			if ( prev < 0.0 && x >= 0.0 && n < 16 )
			{
				times[n++] = t - dt * x / ( x - prev );
			}
			if ( prev < prevPrev && prev < x && np < 16 )
			{
				peaks[np++] = -prev; // a minimum of the displacement: the amplitude
			}
			prevPrev = prev;
			prev = x;
		}
		double omega0 = sqrt( k / m ), zeta = c / ( 2.0 * sqrt( k * m ) );
		double omegaD = omega0 * sqrt( 1.0 - zeta * zeta );
		double expected = 2.0 * CN_PI / omegaD;
		double period = meanPeriod( times, n );
		printf( "  spring-mass%s: period %.6f s, closed form %.6f s\n", damped ? " (damped)" : "", period, expected );
		CHECK_NEAR( period, expected, 2e-3 * expected );
		if ( damped )
		{
			// amplitude ratio over one period: exp(-zeta omega0 T_d)
			double ratio = peaks[3] / peaks[2];
			double expectedRatio = exp( -zeta * omega0 * expected );
			printf( "  decrement: ratio %.6f, closed form %.6f\n", ratio, expectedRatio );
			CHECK_NEAR( ratio, expectedRatio, 5e-3 );
		}
		else
		{
			// no damping: the amplitude stays (the implicit spring loses a little per period)
			CHECK( np >= 3 );
			CHECK_NEAR( peaks[np - 1], 0.1, 2e-3 );
		}
		cnDestroyWorld( world );
	}
}

// A damper alone on a point mass: v = v0 exp(-c t / m); with min_length it lets go below it.
static void testDamper( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
	double m = 1.0, c = 2.0, v0 = 1.0;
	cnBodyId mass = tbPointMass( world, cnV3( 1, 0, 0 ), m );
	CHECK( cnBody_SetLinearVelocity( world, mass, cnV3( v0, 0, 0 ) ) );
	cnDamperJointDef def = cnDefaultDamperJointDef();
	def.base.bodyA = mass;
	def.anchorA = cnV3( 1, 0, 0 );
	def.anchorB = cnV3( 0, 0, 0 );
	def.damping = c;
	cnJointId damper = cnCreateDamperJoint( world, &def );
	CHECK( cnJoint_IsValid( world, damper ) );
	for ( int i = 0; i < 60; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
	}
	double v = cnBody_GetLinearVelocity( world, mass ).x;
	// implicit damping per sub-step h: (1 + c h / m)^-n over the n sub-steps of 1 s, which tends to the
	// exponential as h -> 0 (within 0.2 % of it at 4 sub-steps a step, the default 5 closer)
	int subSteps = cnWorld_GetDef( world ).settings.impulse.subSteps;
	double h = dt / subSteps;
	CHECK_NEAR( v, v0 * pow( 1.0 + c * h / m, -60.0 * subSteps ), 1e-5 * v0 );
	CHECK_NEAR( v, v0 * exp( -c / m ), 2e-3 * v0 );
	// reaction on B (the world): the damper pulls the mass back with c v, and the world forward
	CHECK_NEAR( cnJoint_GetReactionForce( world, damper ).x, c * v, 0.02 * c * v );

	// a damper whose minimum active separation is beyond the anchors' distance does nothing
	cnWorld* free = tbWorld( cnMethod_impulse, cnVec3_zero );
	cnBodyId mass2 = tbPointMass( free, cnV3( 1, 0, 0 ), m );
	cnBody_SetLinearVelocity( free, mass2, cnV3( v0, 0, 0 ) );
	def.base.bodyA = mass2;
	def.minLength = 10.0;
	CHECK( cnJoint_IsValid( free, cnCreateDamperJoint( free, &def ) ) );
	for ( int i = 0; i < 60; ++i )
	{
		CHECK( cnWorld_Step( free, dt ) );
	}
	CHECK_NEAR( cnBody_GetLinearVelocity( free, mass2 ).x, v0, 1e-12 );
	cnDestroyWorld( free );
	cnDestroyWorld( world );
}

// A bar on a hinge with limits [-30, 30] degrees released horizontally: the angle never leaves the
// range by more than a little, and comes to rest on the lower limit.
static void testHingeLimit( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	cnBodyId bar = tbBox( world, cnBody_dynamic, cnV3( 0.5, 0, 1 ), cnQuat_identity, cnVec3_zero, cnV3( 0.5, 0.05, 0.05 ), 0 );
	cnHingeJointDef def = cnDefaultHingeJointDef();
	def.base.bodyA = bar;
	def.anchor = cnV3( 0, 0, 1 );
	def.axis = cnV3( 0, 1, 0 ); // positive angle: the bar tips down (+x rotated about +y goes to -z)
	def.enableLimit = true;
	def.lowerAngle = -CN_PI / 6.0;
	def.upperAngle = CN_PI / 6.0;
	cnJointId hinge = cnCreateHingeJoint( world, &def );
	double worst = 0.0;
	for ( int i = 0; i < 180; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
		double a = fabs( cnJoint_GetPosition( world, hinge ) );
		worst = a > worst ? a : worst;
	}
	// the joint's angle is of B relative to A: the world relative to the bar, so the bar's own turn is
	// its negative; either way its size stays within the limit
	printf( "  hinge limit 30 deg: largest angle %.4f deg\n", worst * 180.0 / CN_PI );
	CHECK( worst < CN_PI / 6.0 + 0.01 );
	CHECK_NEAR( fabs( cnJoint_GetPosition( world, hinge ) ), CN_PI / 6.0, 2e-3 );
	// at rest on the limit the bar hangs 30 degrees down: its centre at z = 1 - 0.5 sin 30
	CHECK_NEAR( cnBody_GetWorldCenterOfMass( world, bar ).z, 1.0 - 0.5 * 0.5, 2e-3 );
	cnDestroyWorld( world );
}

// A wheel on a hinge motor, no gravity: with enough torque it reaches the motor's speed; with a small
// maximum torque tau it spins up at tau / I.
static void testHingeMotor( void )
{
	for ( int weak = 0; weak < 2; ++weak )
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
		double r = 0.3;
		cnBodyId wheel = sphere( world, cnV3( 0, 0, 0 ), r );
		double I = 0.4 * cnBody_GetMass( world, wheel ) * r * r;
		double tau = weak ? 0.05 * I : 100.0 * I;
		cnHingeJointDef def = cnDefaultHingeJointDef();
		def.base.bodyA = wheel;
		def.axis = cnV3( 0, 0, 1 );
		def.enableMotor = true;
		def.motorSpeed = 5.0;
		def.maxMotorTorque = tau;
		cnJointId motor = cnCreateHingeJoint( world, &def );
		for ( int i = 0; i < 60; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
		}
		// B is the world: the world turns at -w relative to the wheel, so the wheel turns at -speed
		double w = -cnBody_GetAngularVelocity( world, wheel ).z;
		CHECK_NEAR( cnJoint_GetSpeed( world, motor ), w, 1e-9 );
		if ( weak )
		{
			printf( "  weak motor: %.6f rad/s after 1 s, tau/I t = %.6f\n", w, tau / I );
			CHECK_NEAR( w, tau / I * 1.0, 1e-9 );
			CHECK_NEAR( cnLength( cnJoint_GetReactionTorque( world, motor ) ), tau, 1e-9 * tau );
		}
		else
		{
			CHECK_NEAR( w, 5.0, 1e-9 );
		}
		cnDestroyWorld( world );
	}
}

// A chain of 20 capsule links hung from the world with a weight of 100 link masses at its end: at
// rest it is as long as it was built (the aim: under 5 mm of stretch at dt = 1/60).
static void testHeavyChain( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	int n = 20;
	double link = 0.1;
	cnBodyId prev = cnBodyId_null;
	double linkMass = 0.0;
	for ( int k = 0; k < n; ++k )
	{
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = cnShape_capsule;
		sd.radius = 0.02;
		sd.halfHeight = 0.03;
		cnBodyId b = tbBody( world, cnBody_dynamic, cnV3( 0, 0, -link * k - 0.5 * link ), cnQuat_identity, cnVec3_zero, &sd );
		linkMass = cnBody_GetMass( world, b );
		cnBallJointDef def = cnDefaultBallJointDef();
		def.base.bodyA = b;
		def.base.bodyB = prev;
		def.anchor = cnV3( 0, 0, -link * k );
		CHECK( cnJoint_IsValid( world, cnCreateBallJoint( world, &def ) ) );
		prev = b;
	}
	cnBodyId weight = sphere( world, cnV3( 0, 0, -link * n - 0.1 ), 0.1 );
	CHECK( cnBody_SetMass( world, weight, 100.0 * linkMass ) );
	cnBallJointDef def = cnDefaultBallJointDef();
	def.base.bodyA = weight;
	def.base.bodyB = prev;
	def.anchor = cnV3( 0, 0, -link * n );
	cnJointId last = cnCreateBallJoint( world, &def );
	// a push sideways, then 10 s to settle
	cnBody_SetLinearVelocity( world, weight, cnV3( 0.3, 0, 0 ) );
	for ( int i = 0; i < 600; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
	}
	cnVec3 p = cnBody_GetWorldCenterOfMass( world, weight );
	double length = sqrt( p.x * p.x + p.y * p.y + p.z * p.z );
	double stretch = length - ( link * n + 0.1 );
	printf( "  20-link chain, end weight 100 links: stretch %.4f mm\n", 1000.0 * stretch );
	CHECK( fabs( stretch ) < 5e-3 );
	// the last joint carries the weight: its force on the link above is -m g
	CHECK_NEAR( cnJoint_GetReactionForce( world, last ).z, 100.0 * linkMass * -9.81, 0.05 * 100.0 * linkMass * 9.81 );
	cnDestroyWorld( world );
}

// Each remaining type keeps what it should while a body tumbles on it.
static void testEachType( void )
{
	// slider along a tilted axis: no rotation, motion along the axis only, a = g . axis
	{
		cnWorld* world = tbWorld( cnMethod_impulse, gravity );
		cnBodyId box = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 0 ), cnQuat_identity, cnVec3_zero, cnV3( 0.1, 0.2, 0.3 ), 0 );
		cnSliderJointDef def = cnDefaultSliderJointDef();
		def.base.bodyA = box;
		cnVec3 axis = cnNormalize( cnV3( 1, 0, -1 ) );
		def.axis = axis;
		cnJointId slider = cnCreateSliderJoint( world, &def );
		CHECK( cnBody_SetAngularVelocity( world, box, cnV3( 1, 2, 3 ) ) );
		for ( int i = 0; i < 60; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
		}
		cnVec3 p = cnBody_GetPosition( world, box );
		double along = cnDot( p, axis );
		// off the line only by the soft correction's lag, 1e-4 m while the spin is stopped
		CHECK_NEAR( cnLength( cnSub( p, cnMulSV( along, axis ) ) ), 0.0, 1e-4 );
		// symplectic Euler's N sub-steps in 1 s: a t^2 / 2 (1 + 1 / N)
		double subSteps = 60.0 * cnWorld_GetDef( world ).settings.impulse.subSteps;
		CHECK_NEAR( along, 0.5 * 9.81 * sqrt( 0.5 ) * 1.0 * ( 1.0 + 1.0 / subSteps ), 1e-4 );
		// the translation of B (the world) relative to A is minus the box's
		CHECK_NEAR( cnJoint_GetPosition( world, slider ), -along, 1e-9 );
		cnQuat q = cnBody_GetOrientation( world, box );
		CHECK( fabs( q.w ) > 1.0 - 1e-9 );
		cnDestroyWorld( world );
	}
	// universal: two bars, the axes stay perpendicular and the anchor shared while both spin
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
		cnBodyId a = tbBox( world, cnBody_dynamic, cnV3( -0.5, 0, 0 ), cnQuat_identity, cnVec3_zero, cnV3( 0.5, 0.05, 0.05 ), 0 );
		cnBodyId b = tbBox( world, cnBody_dynamic, cnV3( 0.5, 0, 0 ), cnQuat_identity, cnVec3_zero, cnV3( 0.5, 0.05, 0.05 ), 0 );
		cnUniversalJointDef def = cnDefaultUniversalJointDef();
		def.base.bodyA = a;
		def.base.bodyB = b;
		def.axisA = cnV3( 0, 1, 0 );
		def.axisB = cnV3( 0, 0, 1 );
		cnJointId u = cnCreateUniversalJoint( world, &def );
		cnBody_SetAngularVelocity( world, a, cnV3( 3, 1, 0 ) );
		cnBody_SetAngularVelocity( world, b, cnV3( -2, 0, 2 ) );
		double worst = 0.0;
		for ( int i = 0; i < 120; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
			cnVec3 ya = cnRotate( cnBody_GetOrientation( world, a ), cnV3( 0, 1, 0 ) );
			cnVec3 zb = cnRotate( cnBody_GetOrientation( world, b ), cnV3( 0, 0, 1 ) );
			double e = fabs( cnDot( ya, zb ) ) + cnDistance( cnJoint_GetAnchorA( world, u ), cnJoint_GetAnchorB( world, u ) );
			worst = e > worst ? e : worst;
		}
		printf( "  universal: worst error %.2e\n", worst );
		CHECK( worst < 1e-2 );
		cnDestroyWorld( world );
	}
	// cone-twist: a bar hanging from a ball with a 30 degree cone, started swinging wide: the swing
	// stays inside the cone
	{
		cnWorld* world = tbWorld( cnMethod_impulse, gravity );
		cnBodyId bar = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 0.5 ), cnQuat_identity, cnVec3_zero, cnV3( 0.05, 0.05, 0.5 ), 0 );
		cnConeTwistJointDef def = cnDefaultConeTwistJointDef();
		def.base.bodyA = bar;
		def.anchor = cnV3( 0, 0, 1 );
		def.axis = cnV3( 0, 0, -1 );
		def.swingAngle = CN_PI / 6.0;
		def.lowerTwist = -0.1;
		def.upperTwist = 0.1;
		CHECK( cnJoint_IsValid( world, cnCreateConeTwistJoint( world, &def ) ) );
		cnBody_SetLinearVelocity( world, bar, cnV3( 3, 1, 0 ) );
		cnBody_SetAngularVelocity( world, bar, cnV3( 0, 0, 4 ) );
		double worst = 0.0;
		for ( int i = 0; i < 180; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
			cnVec3 down = cnRotate( cnBody_GetOrientation( world, bar ), cnV3( 0, 0, -1 ) );
			double swing = acos( fmin( 1.0, -down.z ) );
			worst = swing > worst ? swing : worst;
		}
		printf( "  cone 30 deg: largest swing %.3f deg\n", worst * 180.0 / CN_PI );
		CHECK( worst < CN_PI / 6.0 + 0.02 );
		cnDestroyWorld( world );
	}
	// fixed: two boxes welded, thrown spinning: the relative pose stays
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
		cnBodyId a = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 0 ), cnQuat_identity, cnVec3_zero, cnV3( 0.2, 0.1, 0.1 ), 0 );
		cnBodyId b = tbBox( world, cnBody_dynamic, cnV3( 0.4, 0, 0 ), cnQuat_identity, cnVec3_zero, cnV3( 0.2, 0.1, 0.1 ), 0 );
		cnFixedJointDef def = cnDefaultFixedJointDef();
		def.base.bodyA = a;
		def.base.bodyB = b;
		def.anchor = cnV3( 0.2, 0, 0 );
		cnJointId weld = cnCreateFixedJoint( world, &def );
		cnBody_SetAngularVelocity( world, a, cnV3( 1, 4, 2 ) );
		cnBody_SetLinearVelocity( world, b, cnV3( 0, 1, 0 ) );
		for ( int i = 0; i < 120; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
		}
		cnTransform ta = cnBody_GetTransform( world, a ), tb = cnBody_GetTransform( world, b );
		cnTransform rel = cnInvMulTransforms( ta, tb );
		printf( "  weld: relative offset error %.2e m\n", cnDistance( rel.p, cnV3( 0.4, 0, 0 ) ) );
		CHECK( cnDistance( rel.p, cnV3( 0.4, 0, 0 ) ) < 1e-3 );
		CHECK( fabs( rel.q.w ) > 1.0 - 1e-6 );
		CHECK( cnJoint_GetLinearError( world, weld ) < 1e-3 );
		cnDestroyWorld( world );
	}
	// point on plane: a box's corner kept on the plane z = 1 while it falls and spins
	{
		cnWorld* world = tbWorld( cnMethod_impulse, gravity );
		cnBodyId box = tbBox( world, cnBody_dynamic, cnV3( 0, 0, 1.2 ), cnQuat_identity, cnVec3_zero, cnV3( 0.2, 0.2, 0.2 ), 0 );
		cnPointOnPlaneJointDef def = cnDefaultPointOnPlaneJointDef();
		def.base.bodyA = box;
		def.anchor = cnV3( 0.2, 0.2, 1.0 );
		def.normal = cnV3( 0, 0, 1 );
		cnJointId pop = cnCreatePointOnPlaneJoint( world, &def );
		cnBody_SetLinearVelocity( world, box, cnV3( 1, 0, 0 ) );
		double worst = 0.0;
		for ( int i = 0; i < 180; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
			double e = fabs( cnJoint_GetAnchorA( world, pop ).z - 1.0 );
			worst = e > worst ? e : worst;
		}
		printf( "  point on plane: worst distance %.2e m\n", worst );
		// soft position correction: a few millimetres while the spin is taken up
		CHECK( worst < 5e-3 );
		CHECK( fabs( cnJoint_GetAnchorA( world, pop ).z - 1.0 ) < 1e-4 );
		// it slides along x with the velocity it had (no friction on the plane)
		CHECK( cnJoint_GetAnchorA( world, pop ).x > 1.0 );
		cnDestroyWorld( world );
	}
	// rope: a weight on a rope of 1 m dropped from 0.5 m below the anchor falls freely, then hangs at 1 m
	{
		cnWorld* world = tbWorld( cnMethod_impulse, gravity );
		cnBodyId w = sphere( world, cnV3( 0, 0, -0.5 ), 0.05 );
		cnDistanceJointDef def = cnDefaultDistanceJointDef();
		def.base.bodyA = w;
		def.anchorA = cnV3( 0, 0, -0.5 );
		def.anchorB = cnV3( 0, 0, 0 );
		def.minLength = 0.0;
		def.maxLength = 1.0;
		cnJointId rope = cnCreateDistanceJoint( world, &def );
		for ( int i = 0; i < 12; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
		}
		// 0.2 s of free fall in N = 12 n sub-steps of symplectic Euler: g t^2 / 2 (1 + 1 / N)
		double subSteps = 12.0 * cnWorld_GetDef( world ).settings.impulse.subSteps;
		CHECK_NEAR( cnBody_GetPosition( world, w ).z, -0.5 - 0.5 * 9.81 * 0.04 * ( 1.0 + 1.0 / subSteps ), 1e-9 );
		for ( int i = 0; i < 300; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
		}
		CHECK_NEAR( cnJoint_GetPosition( world, rope ), 1.0, 1e-3 );
		cnDestroyWorld( world );
	}
}

// A pendulum whose rod breaks when its tension passes 1.5 m g: it breaks on the way down, reports
// it, and the bob then falls freely.
static void testBreak( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	cnBodyId bob = sphere( world, cnV3( 1, 0, 0 ), 0.05 );
	double m = cnBody_GetMass( world, bob );
	cnDistanceJointDef def = cnDefaultDistanceJointDef();
	def.base.bodyA = bob;
	def.base.breakForce = 1.5 * m * 9.81;
	def.anchorA = cnV3( 1, 0, 0 );
	cnJointId rod = cnCreateDistanceJoint( world, &def );
	bool broke = false;
	for ( int i = 0; i < 120 && !broke; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
		int count = 0;
		const cnJointBreak* breaks = cnWorld_GetJointBreaks( world, &count );
		if ( count > 0 )
		{
			broke = true;
			CHECK( count == 1 );
			CHECK( breaks[0].joint.index == rod.index );
			CHECK( breaks[0].force > def.base.breakForce );
			CHECK_NEAR( breaks[0].time, cnWorld_GetTime( world ), 1e-12 );
		}
	}
	CHECK( broke );
	CHECK( cnJoint_IsBroken( world, rod ) );
	// from 90 degrees the tension of a point mass is 3 m g sin(angle below horizontal): 1.5 m g at
	// 30 degrees below
	cnVec3 p = cnBody_GetPosition( world, bob );
	double below = asin( -p.z / sqrt( p.x * p.x + p.z * p.z ) );
	printf( "  rod broke at %.2f deg below the horizontal (closed form for a point mass: 30)\n", below * 180.0 / CN_PI );
	CHECK_NEAR( below, CN_PI / 6.0, 0.05 );
	// after the break: free flight
	cnVec3 v0 = cnBody_GetLinearVelocity( world, bob );
	for ( int i = 0; i < 30; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
	}
	cnVec3 v1 = cnBody_GetLinearVelocity( world, bob );
	// a broken joint reports no reaction after the step that broke it
	CHECK( cnLength( cnJoint_GetReactionForce( world, rod ) ) == 0.0 );
	CHECK_NEAR( v1.x, v0.x, 1e-12 );
	CHECK_NEAR( v1.z - v0.z, -9.81 * 0.5, 1e-9 );
	cnDestroyWorld( world );
}

// Joined bodies do not collide unless the joint says so; a destroyed joint lets them collide again.
static void testCollideConnected( void )
{
	for ( int collide = 0; collide < 2; ++collide )
	{
		cnWorld* world = tbWorld( cnMethod_impulse, cnVec3_zero );
		cnBodyId a = sphere( world, cnV3( 0, 0, 0 ), 0.5 );
		cnBodyId b = sphere( world, cnV3( 0.6, 0, 0 ), 0.5 );
		cnBallJointDef def = cnDefaultBallJointDef();
		def.base.bodyA = a;
		def.base.bodyB = b;
		def.base.collideConnected = collide;
		def.anchor = cnV3( 0.3, 0, 0 );
		cnJointId j = cnCreateBallJoint( world, &def );
		CHECK( cnWorld_Step( world, dt ) );
		CHECK( ( cnBody_GetContactCount( world, a ) > 0 ) == ( collide == 1 ) );
		if ( collide == 0 )
		{
			CHECK( cnDestroyJoint( world, j ) );
			CHECK( cnJoint_IsValid( world, j ) == false );
			// their boxes overlapped all along: the broad phase still finds the pair
			CHECK( cnWorld_Step( world, dt ) );
			CHECK( cnBody_GetContactCount( world, a ) > 0 );
		}
		cnDestroyWorld( world );
	}
}

// A pendulum at rest sleeps (its joint to the world holds it); a joined pair sleeps and wakes as one.
static void testSleep( void )
{
	cnWorldDef wd = tbWorldDef( cnMethod_impulse, gravity );
	wd.enableSleep = true;
	cnWorld* world = tbCreateWorld( &wd );
	cnBodyId top = sphere( world, cnV3( 0, 0, -1 ), 0.05 );
	cnBodyId bottom = sphere( world, cnV3( 0, 0, -2 ), 0.05 );
	cnDistanceJointDef def = cnDefaultDistanceJointDef();
	def.base.bodyA = top;
	def.anchorA = cnV3( 0, 0, -1 );
	CHECK( cnJoint_IsValid( world, cnCreateDistanceJoint( world, &def ) ) );
	def.base.bodyB = top;
	def.base.bodyA = bottom;
	def.anchorA = cnV3( 0, 0, -2 );
	def.anchorB = cnV3( 0, 0, -1 );
	cnJointId lower = cnCreateDistanceJoint( world, &def );
	for ( int i = 0; i < 120; ++i )
	{
		CHECK( cnWorld_Step( world, dt ) );
	}
	CHECK( cnBody_IsAwake( world, top ) == false );
	CHECK( cnBody_IsAwake( world, bottom ) == false );
	// waking one wakes its island
	CHECK( cnBody_SetLinearVelocity( world, bottom, cnV3( 1, 0, 0 ) ) );
	CHECK( cnWorld_Step( world, dt ) );
	CHECK( cnBody_IsAwake( world, top ) );
	CHECK( cnJoint_IsValid( world, lower ) );
	// destroying a body removes its joints
	CHECK( cnDestroyBody( world, bottom ) );
	CHECK( cnJoint_IsValid( world, lower ) == false );
	CHECK( cnWorld_GetJointCount( world ) == 1 );
	cnDestroyWorld( world );
}

// Bad definitions are refused with a reason; stale ids read as NaN.
static void testBadJoints( void )
{
	cnWorld* world = tbWorld( cnMethod_impulse, gravity );
	cnBodyId a = sphere( world, cnV3( 0, 0, 0 ), 0.1 );
	cnBodyId ground = tbBox( world, cnBody_static, cnV3( 0, 0, -1 ), cnQuat_identity, cnVec3_zero, cnV3( 1, 1, 0.1 ), 0 );

	cnBallJointDef ball = cnDefaultBallJointDef();
	CHECK( cnCreateBallJoint( world, &ball ).index < 0 ); // no body
	CHECK( cnGetErrorCode() == cnError_invalidId );
	ball.base.bodyA = a;
	ball.base.bodyB = a;
	CHECK( cnCreateBallJoint( world, &ball ).index < 0 );
	CHECK( strstr( cnGetError(), "itself" ) != NULL );
	ball.base.bodyA = ground;
	ball.base.bodyB = cnBodyId_null;
	CHECK( cnCreateBallJoint( world, &ball ).index < 0 );
	CHECK( strstr( cnGetError(), "static" ) != NULL );
	ball.base.bodyA = a;
	ball.anchor = cnV3( NAN, 0, 0 );
	CHECK( cnCreateBallJoint( world, &ball ).index < 0 );

	cnHingeJointDef hinge = cnDefaultHingeJointDef();
	hinge.base.bodyA = a;
	hinge.axis = cnVec3_zero;
	CHECK( cnCreateHingeJoint( world, &hinge ).index < 0 );
	CHECK( strstr( cnGetError(), "axis" ) != NULL );
	hinge.axis = cnV3( 0, 0, 1 );
	hinge.lowerAngle = 1.0;
	hinge.upperAngle = -1.0;
	CHECK( cnCreateHingeJoint( world, &hinge ).index < 0 );
	CHECK( strstr( cnGetError(), "lowerAngle <= upperAngle" ) != NULL );

	cnUniversalJointDef universal = cnDefaultUniversalJointDef();
	universal.base.bodyA = a;
	universal.axisB = cnV3( 1, 0.5, 0 );
	CHECK( cnCreateUniversalJoint( world, &universal ).index < 0 );
	CHECK( strstr( cnGetError(), "perpendicular" ) != NULL );

	cnSpringJointDef spring = cnDefaultSpringJointDef();
	spring.base.bodyA = a;
	spring.stiffness = -1.0;
	CHECK( cnCreateSpringJoint( world, &spring ).index < 0 );

	cnDistanceJointDef rope = cnDefaultDistanceJointDef();
	rope.base.bodyA = a;
	rope.minLength = 2.0;
	rope.maxLength = 1.0;
	CHECK( cnCreateDistanceJoint( world, &rope ).index < 0 );

	ball.base.breakForce = -1.0;
	ball.anchor = cnVec3_zero;
	CHECK( cnCreateBallJoint( world, &ball ).index < 0 );

	// a valid one, then stale
	ball.base.breakForce = 0.0;
	ball.base.name = "nail";
	cnJointId nail = cnCreateBallJoint( world, &ball );
	CHECK( cnJoint_IsValid( world, nail ) );
	CHECK( strcmp( cnJoint_GetName( world, nail ), "nail" ) == 0 );
	CHECK( cnWorld_FindJoint( world, "nail" ).index == nail.index );
	CHECK( cnWorld_GetJoint( world, 0 ).index == nail.index );
	CHECK( cnJoint_GetBodyB( world, nail ).index < 0 );
	CHECK( strcmp( cnJointType_GetName( cnJoint_coneTwist ), "cone_twist" ) == 0 );
	cnJointType type;
	CHECK( cnJointType_FromName( "point_on_plane", &type ) && type == cnJoint_pointOnPlane );
	CHECK( cnJointType_FromName( "elbow", &type ) == false );
	CHECK( cnJoint_SetMotor( world, nail, true, 1.0, 1.0 ) == false ); // a ball has no motor
	double x, y, z;
	CHECK( cnJoint_GetLimits( world, nail, &x, &y ) == false && isnan( x ) );
	CHECK_NEAR( cnJoint_GetAxis( world, nail ).x, 1.0, 1e-15 );

	// a hinge's parameters read back as set, its axis turns with its body
	hinge = cnDefaultHingeJointDef();
	hinge.base.bodyA = a;
	hinge.axis = cnV3( 0, 2, 0 );
	hinge.enableLimit = true;
	hinge.lowerAngle = -0.5;
	hinge.upperAngle = 0.25;
	hinge.enableSpring = true;
	hinge.stiffness = 3.0;
	hinge.damping = 0.5;
	hinge.restAngle = 0.1;
	cnJointId knee = cnCreateHingeJoint( world, &hinge );
	CHECK( cnJoint_GetLimits( world, knee, &x, &y ) && x == -0.5 && y == 0.25 );
	CHECK( cnJoint_GetMotor( world, knee, &x, &y ) == false && x == 0.0 );
	CHECK( cnJoint_SetMotor( world, knee, true, 2.0, 7.0 ) );
	CHECK( cnJoint_GetMotor( world, knee, &x, &y ) && x == 2.0 && y == 7.0 );
	CHECK( cnJoint_GetSpring( world, knee, &x, &y, &z ) && x == 3.0 && y == 0.5 && z == 0.1 );
	CHECK_NEAR( cnJoint_GetAxis( world, knee ).y, 1.0, 1e-15 );
	CHECK( cnBody_SetTransform( world, a, cnVec3_zero, cnQuatFromAxisAngle( cnV3( 0, 0, 1 ), 0.5 * CN_PI ) ) );
	CHECK_NEAR( cnJoint_GetAxis( world, knee ).x, -1.0, 1e-12 );
	CHECK( cnDestroyJoint( world, knee ) );
	CHECK( cnDestroyJoint( world, nail ) );
	CHECK( cnDestroyJoint( world, nail ) == false );
	CHECK( cnGetErrorCode() == cnError_invalidId );
	CHECK( isnan( cnJoint_GetLinearError( world, nail ) ) );
	CHECK( isnan( cnJoint_GetReactionForce( world, nail ).x ) );
	cnDestroyWorld( world );
}

// The same joined scene twice gives bit-identical states.
static void testDeterminism( void )
{
	uint64_t hashes[2];
	for ( int run = 0; run < 2; ++run )
	{
		cnWorld* world = tbWorld( cnMethod_impulse, gravity );
		tbGround( world, 0.5, 0.0 );
		cnBodyId prev = cnBodyId_null;
		for ( int k = 0; k < 6; ++k )
		{
			cnBodyId b = tbBox( world, cnBody_dynamic, cnV3( 0.3 * k + 0.15, 0, 2 ), cnQuat_identity, cnVec3_zero,
								cnV3( 0.15, 0.05, 0.05 ), 0 );
			cnHingeJointDef def = cnDefaultHingeJointDef();
			def.base.bodyA = b;
			def.base.bodyB = prev;
			def.anchor = cnV3( 0.3 * k, 0, 2 );
			def.axis = cnV3( 0, 1, 1 );
			def.enableLimit = true;
			def.lowerAngle = -1.0;
			def.upperAngle = 1.0;
			CHECK( cnJoint_IsValid( world, cnCreateHingeJoint( world, &def ) ) );
			prev = b;
		}
		for ( int i = 0; i < 120; ++i )
		{
			CHECK( cnWorld_Step( world, dt ) );
		}
		hashes[run] = cnWorld_Hash( world );
		cnDestroyWorld( world );
	}
	CHECK( hashes[0] == hashes[1] );
}

// Other methods refuse joints until they solve them (they say so through their flags).
static void testUnsupported( void )
{
	for ( int m = 0; m < cnMethod_count; ++m )
	{
		cnWorld* world = tbWorld( (cnMethod)m, gravity );
		cnBodyId a = sphere( world, cnV3( 0, 0, 0 ), 0.1 );
		cnBallJointDef def = cnDefaultBallJointDef();
		def.base.bodyA = a;
		cnJointId j = cnCreateBallJoint( world, &def );
		bool solves = ( cnMethod_GetFlags( (cnMethod)m ) & cnMethodFlag_joints ) != 0;
		CHECK( cnJoint_IsValid( world, j ) == solves );
		if ( solves == false )
		{
			CHECK( cnGetErrorCode() == cnError_unsupported );
		}
		cnDestroyWorld( world );
	}
}

int main( void )
{
	RUN_TEST( testLargePendulum );
	RUN_TEST( testPhysicalPendulum );
	RUN_TEST( testSpringMass );
	RUN_TEST( testDamper );
	RUN_TEST( testHingeLimit );
	RUN_TEST( testHingeMotor );
	RUN_TEST( testHeavyChain );
	RUN_TEST( testEachType );
	RUN_TEST( testBreak );
	RUN_TEST( testCollideConnected );
	RUN_TEST( testSleep );
	RUN_TEST( testBadJoints );
	RUN_TEST( testDeterminism );
	RUN_TEST( testUnsupported );
	return TEST_SUMMARY();
}
