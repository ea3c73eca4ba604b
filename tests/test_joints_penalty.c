// SPDX-License-Identifier: MIT
// Joints in the penalty and analytic-impulse methods (AERO's connections: stiff damped springs for
// the constraint rows under adaptive Dormand-Prince), checked against closed forms: the pendulum on
// a rod (elliptic-integral period, rod length), the spring-mass period, the damped spring's
// trajectory and logarithmic decrement, a damper's exponential decay, a spring that is slack below
// its minimum length, Kleppmann's nail (a physical pendulum on a ball joint), a hinge resting on its
// limit, a hinge motor, a heavy chain's stretch and reaction, a rope that breaks where the tension
// of the swing reaches its limit, (analytic-impulse) AERO's five-ball pendulum on rods, and joints
// with contacts running to the same bits twice.
#include "methods/penalty.h"
#include "test_bodies.h"
#include "test_closed_forms.h"

#include <math.h>
#include <string.h>

static const cnVec3 gravity = { 0.0, 0.0, -9.81 };
static const double g = 9.81;

// both of AERO's methods
static const cnMethod methods[2] = { cnMethod_penalty, cnMethod_analyticImpulse };

static const char* methodName( cnMethod method )
{
	return method == cnMethod_penalty ? "penalty" : "analytic-impulse";
}

// A dynamic sphere of density 1000 (the default material).
static cnBodyId sphere( cnWorld* world, cnVec3 p, double radius )
{
	return tbSphere( world, cnBody_dynamic, p, cnVec3_zero, radius, 0 );
}

// The cubic Hermite interpolant on [0, h] of x0, v0 at 0 and x1, v1 at h, at s: fourth order in h,
// so the crossings and values read between frames are as exact as the frames.
static double hermite( double x0, double v0, double x1, double v1, double h, double s )
{
	double u = s / h, u2 = u * u, u3 = u2 * u;
	return ( 2.0 * u3 - 3.0 * u2 + 1.0 ) * x0 + ( u3 - 2.0 * u2 + u ) * h * v0 + ( 3.0 * u2 - 2.0 * u3 ) * x1 +
		   ( u3 - u2 ) * h * v1;
}

// Where the interpolant crosses zero in [0, h] (x0 < 0 <= x1), by bisection.
static double hermiteRoot( double x0, double v0, double x1, double v1, double h )
{
	double a = 0.0, b = h;
	for ( int i = 0; i < 80; ++i )
	{
		double m = 0.5 * ( a + b );
		if ( hermite( x0, v0, x1, v1, h, m ) < 0.0 )
		{
			a = m;
		}
		else
		{
			b = m;
		}
	}
	return 0.5 * ( a + b );
}

// One coordinate of a body's centre of mass along axis (0, 1, 2) and its rate.
typedef struct Track
{
	cnBodyId body;
	int axis;
	double offset;
} Track;

static void sampleTrack( cnWorld* world, const Track* track, double* x, double* v )
{
	*x = cnGet( cnBody_GetWorldCenterOfMass( world, track->body ), track->axis ) - track->offset;
	*v = cnGet( cnBody_GetLinearVelocity( world, track->body ), track->axis );
}

// Called after every step with the time at its end and the tracked coordinate and rate at its start
// and end.
typedef void ( *FrameCheck )( cnWorld* world, double t, double x0, double v0, double x1, double v1, void* user );

// Steps the world for duration in steps of h; the times at which the tracked coordinate crosses zero
// going up (at most max, read from the Hermite interpolant between frames); returns how many.
static int upCrossings( cnWorld* world, const Track* track, double duration, double h, double* times, int max,
						FrameCheck check, void* user )
{
	int n = 0;
	double t = 0.0, x0, v0;
	sampleTrack( world, track, &x0, &v0 );
	int steps = (int)lround( duration / h );
	for ( int i = 0; i < steps; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
		double x1, v1;
		sampleTrack( world, track, &x1, &v1 );
		if ( x0 < 0.0 && x1 >= 0.0 && n < max )
		{
			times[n++] = t + hermiteRoot( x0, v0, x1, v1, h );
		}
		t += h;
		if ( check != NULL )
		{
			check( world, t, x0, v0, x1, v1, user );
		}
		x0 = x1, v0 = v1;
	}
	return n;
}

// The mean period of a list of up-crossings.
static double meanPeriod( const double* times, int n )
{
	return n >= 2 ? ( times[n - 1] - times[0] ) / ( n - 1 ) : NAN;
}

// The largest deviation of a body's centre from a distance to a point, over the frames.
typedef struct Distance
{
	cnBodyId body;
	cnVec3 point;
	double length, worst;
} Distance;

static void distanceCheck( cnWorld* world, double t, double x0, double v0, double x1, double v1, void* user )
{
	(void)t, (void)x0, (void)v0, (void)x1, (void)v1;
	Distance* d = user;
	double error = fabs( cnDistance( cnBody_GetWorldCenterOfMass( world, d->body ), d->point ) - d->length );
	d->worst = fmax( d->worst, error );
}

// ---------------------------------------------------------------------------------------------

// A sphere on a rod (distance joint from its centre to a fixed point, so the rod makes no torque
// and the sphere is a point mass for the swing), released at theta0 = 0.1 rad: the period of the
// simple pendulum, T = 4 sqrt(L / g) K(sin(theta0 / 2)), which is 2 pi sqrt(L / g) (1 + theta0^2 / 16
// + ...) = 1.000625 T0. Tolerance 1e-4 of T: the rod stretches by the tension over its stiffness,
// g / w^2 = 0.25 micrometres at 1 kHz (1.2e-7 of the period), the integrator keeps each step's error
// below 1e-6 (4 periods of ~2 s), and the crossings are read between frames by Hermite interpolation
// (error (w dt)^4, 1e-9). The rod's length is kept to well under a millimetre (AERO's aim).
static void pendulumOnRod( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		cnWorld* world = tbWorld( methods[m], gravity );
		double L = 1.0, theta0 = 0.1;
		cnVec3 pivot = cnV3( 0, 0, 2 );
		cnVec3 start = cnAdd( pivot, cnV3( -L * sin( theta0 ), 0, -L * cos( theta0 ) ) );
		cnBodyId bob = sphere( world, start, 0.05 );
		cnDistanceJointDef def = cnDefaultDistanceJointDef();
		def.base.bodyA = bob;
		def.anchorA = start;
		def.anchorB = pivot;
		cnJointId rod = cnCreateDistanceJoint( world, &def );
		CHECK( cnJoint_IsValid( world, rod ) );

		// x crosses zero going right once a period; the rod's length at every frame
		Track track = { bob, 0, 0.0 };
		Distance rodLength = { bob, pivot, L, 0.0 };
		double times[8];
		int n = upCrossings( world, &track, testFast() ? 4.5 : 9.0, 1.0 / 60.0, times, 8, distanceCheck, &rodLength );
		double worst = rodLength.worst;
		double T0 = 2.0 * CN_PI * sqrt( L / g );
		double expected = 4.0 * sqrt( L / g ) * cfEllipticK( sin( 0.5 * theta0 ) );
		double period = meanPeriod( times, n );
		printf( "  %s: pendulum period %.7f s, closed form %.7f s (%.2e), T/T0 = %.6f (1 + theta0^2/16 = %.6f); rod "
				"length error %.3f um\n",
				methodName( methods[m] ), period, expected, ( period - expected ) / expected, period / T0,
				1.0 + theta0 * theta0 / 16.0, 1e6 * worst );
		CHECK( n >= ( testFast() ? 2 : 4 ) );
		CHECK_NEAR( period, expected, 1e-4 * expected );
		CHECK( worst < 1e-3 );
		// the joint's own measure agrees
		CHECK( cnJoint_GetLinearError( world, rod ) < 1e-5 );
		cnDestroyWorld( world );
	}
}

// The damped oscillator's closed form against the frames, which it keeps.
#define OSCILLATION_FRAMES 600
typedef struct Oscillation
{
	double x0, omega, zeta, worst;
	int frames;
	double x[OSCILLATION_FRAMES + 1], v[OSCILLATION_FRAMES + 1];
} Oscillation;

static void oscillationCheck( cnWorld* world, double t, double x0, double v0, double x1, double v1, void* user )
{
	(void)world;
	Oscillation* os = user;
	if ( os->frames == 0 )
	{
		os->x[0] = x0, os->v[0] = v0;
	}
	if ( os->frames < OSCILLATION_FRAMES )
	{
		os->frames += 1;
		os->x[os->frames] = x1, os->v[os->frames] = v1;
	}
	double wd = os->omega * sqrt( 1.0 - os->zeta * os->zeta );
	double exact = exp( -os->zeta * os->omega * t ) *
				   ( os->x0 * cos( wd * t ) + os->zeta * os->omega * os->x0 / wd * sin( wd * t ) );
	os->worst = fmax( os->worst, fabs( x1 - exact ) );
}

// A point mass on a spring to the world, no gravity, released 0.1 m from rest. Undamped: T = 2 pi
// sqrt(m / k) and the amplitude stays; damped (zeta = 0.05): the whole trajectory is the closed form
// x = exp(-zeta w t) (x0 cos(w_d t) + zeta w x0 / w_d sin(w_d t)), and the logarithmic decrement,
// ln(x(t) / x(t + T_d)) = zeta w T_d = 2 pi zeta / sqrt(1 - zeta^2), is read from the simulation.
// The spring is the exact force law here (no stiffness added), so the only error is the
// integrator's: each step's below 1e-6 (absolute, on a 0.1 m amplitude), over ~1000 steps; the
// tolerances are 1e-6 of the period and 1e-5 m on the trajectory.
static void springMass( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		for ( int damped = 0; damped < 2; ++damped )
		{
			cnWorld* world = tbWorld( methods[m], cnVec3_zero );
			double mass = 2.0, k = 50.0, x0 = -0.1;
			double omega = sqrt( k / mass ), zeta = damped ? 0.05 : 0.0;
			double c = 2.0 * zeta * sqrt( k * mass );
			cnBodyId body = tbPointMass( world, cnV3( 0, 0, -1.0 + x0 ), mass );
			cnSpringJointDef def = cnDefaultSpringJointDef();
			def.base.bodyA = body;
			def.anchorA = cnV3( 0, 0, -1.0 + x0 );
			def.anchorB = cnV3( 0, 0, 0 );
			def.stiffness = k;
			def.damping = c;
			def.restLength = 1.0;
			cnJointId spring = cnCreateSpringJoint( world, &def );
			CHECK( cnJoint_IsValid( world, spring ) );

			// z + 1 against the closed form at every frame, and its up-crossings
			double omegaD = omega * sqrt( 1.0 - zeta * zeta ), Td = 2.0 * CN_PI / omegaD, h = 1.0 / 60.0;
			Track track = { body, 2, -1.0 };
			Oscillation os = { x0, omega, zeta, 0.0, 0, { 0.0 }, { 0.0 } };
			double times[16];
			int n = upCrossings( world, &track, 8.0, h, times, 16, oscillationCheck, &os );
			double worst = os.worst;
			const double* xs = os.x;
			const double* vs = os.v;
			double period = meanPeriod( times, n );
			printf( "  %s: spring-mass%s period %.9f s, closed form %.9f s (%.1e); trajectory within %.2e m\n",
					methodName( methods[m] ), damped ? " (zeta 0.05)" : "", period, Td, ( period - Td ) / Td, worst );
			CHECK( n >= 4 );
			CHECK_NEAR( period, Td, 1e-6 * Td );
			CHECK( worst < 1e-5 );
			if ( damped )
			{
				// the decrement over one damped period from the frame nearest the second trough
				int i = (int)lround( 1.5 * Td / h );
				int j = (int)floor( ( i * h + Td ) / h );
				double x1 = hermite( xs[j], vs[j], xs[j + 1], vs[j + 1], h, i * h + Td - j * h );
				double delta = log( xs[i] / x1 ), expectedDelta = 2.0 * CN_PI * zeta / sqrt( 1.0 - zeta * zeta );
				printf( "  %s: logarithmic decrement %.7f, closed form %.7f\n", methodName( methods[m] ), delta,
						expectedDelta );
				CHECK_NEAR( delta, expectedDelta, 1e-4 * expectedDelta );
			}
			cnDestroyWorld( world );
		}
	}
}

// A damper alone on a point mass moving away from its anchor, no gravity: m v' = -c v, so
// v = v0 exp(-c t / m) (1e-5 of v0: the integrator's tolerance over the steps of 2 s), and the
// reaction on the world is the damper's pull, c v forward (averaged over the last step, where v
// changes by c/m h = 3 %: the average of c v over it, within 1e-4).
static void damperDecay( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		cnWorld* world = tbWorld( methods[m], cnVec3_zero );
		double mass = 1.0, c = 2.0, v0 = 1.0, h = 1.0 / 60.0;
		cnBodyId body = tbPointMass( world, cnV3( 1, 0, 0 ), mass );
		CHECK( cnBody_SetLinearVelocity( world, body, cnV3( v0, 0, 0 ) ) );
		cnDamperJointDef def = cnDefaultDamperJointDef();
		def.base.bodyA = body;
		def.anchorA = cnV3( 1, 0, 0 );
		def.anchorB = cnV3( 0, 0, 0 );
		def.damping = c;
		cnJointId damper = cnCreateDamperJoint( world, &def );
		double worst = 0.0;
		for ( int i = 1; i <= 120; ++i )
		{
			CHECK( cnWorld_Step( world, h ) );
			double v = cnBody_GetLinearVelocity( world, body ).x;
			worst = fmax( worst, fabs( v - v0 * exp( -c * i * h / mass ) ) );
		}
		printf( "  %s: damper v = v0 exp(-c t / m) within %.2e\n", methodName( methods[m] ), worst );
		CHECK( worst < 1e-5 * v0 );
		// the mean of c v over the last step: m (v(t - h) - v(t)) / h
		double t = 2.0, mean = mass * v0 * ( exp( -c * ( t - h ) / mass ) - exp( -c * t / mass ) ) / h;
		CHECK_NEAR( cnJoint_GetReactionForce( world, damper ).x, mean, 1e-4 * mean );
		// the body moves straight out along the line
		CHECK( fabs( cnBody_GetWorldCenterOfMass( world, body ).y ) < 1e-12 );
		cnDestroyWorld( world );
	}
}

// The farthest a mass gets, and how far its speed strays from v0 inside a slack spring's range (a
// step that started and ended there), before the spring first acted and after.
typedef struct Slack
{
	double v0, before, after, reach;
	bool engaged;
} Slack;

static void slackCheck( cnWorld* world, double t, double x0, double v0, double x1, double v1, void* user )
{
	(void)world, (void)t, (void)v0;
	Slack* s = user;
	if ( fabs( x1 ) >= 1.0 )
	{
		s->engaged = true;
	}
	if ( fabs( x0 ) < 0.9 && fabs( x1 ) < 0.9 )
	{
		double error = fabs( fabs( v1 ) - s->v0 );
		if ( s->engaged )
		{
			s->after = fmax( s->after, error );
		}
		else
		{
			s->before = fmax( s->before, error );
		}
	}
	s->reach = fmax( s->reach, fabs( x1 ) );
}

// A spring of minimum length 1 from a fixed point to a point mass moving through it along x at v0,
// no gravity. Inside 1 m of the anchor the spring is slack: no force, the mass crosses the 2 m at
// v0. Outside it pulls with k (l - rest): l - rest = A cos(w t + phi), A = sqrt((1 - rest)^2 +
// m v0^2 / k); the mass reaches l = rest + A and is back at l = 1 after 2 acos((1 - rest) / A) / w.
// Period of the whole motion: 2 (2 / v0) + 2 (2 acos((1 - rest) / A) / w). Before the spring first
// acts the speed is v0 to round-off. Where the force switches on, at l = 1, the force law has a kink
// (rest 1: the force starts from zero) or a jump (rest 0.5: it starts at k / 2) inside an internal
// step, which Dormand-Prince's error estimate measures only in part (its asymptotics assume a smooth
// right-hand side): over three periods 1.6e-5 and 3.5e-5 of the period, 5.5e-5 and 1.5e-4 of the
// speed (measured), so the period is held to 1e-4 and the speed after the spring acted to 5e-4.
static void springMinLength( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		for ( int jump = 0; jump < 2; ++jump )
		{
			cnWorld* world = tbWorld( methods[m], cnVec3_zero );
			double mass = 1.0, k = 40.0, v0 = 2.0, rest = jump ? 0.5 : 1.0, h = 1.0 / 60.0;
			cnBodyId body = tbPointMass( world, cnV3( 0.99, 0, 0 ), mass );
			CHECK( cnBody_SetLinearVelocity( world, body, cnV3( -v0, 0, 0 ) ) );
			cnSpringJointDef def = cnDefaultSpringJointDef();
			def.base.bodyA = body;
			def.anchorA = cnV3( 0.99, 0, 0 );
			def.anchorB = cnV3( 0, 0, 0 );
			def.stiffness = k;
			def.restLength = rest;
			def.minLength = 1.0;
			cnJointId spring = cnCreateSpringJoint( world, &def );
			CHECK( cnJoint_IsValid( world, spring ) );

			double w = sqrt( k / mass ), A = sqrt( ( 1.0 - rest ) * ( 1.0 - rest ) + mass * v0 * v0 / k );
			double expected = 4.0 / v0 + 4.0 * acos( ( 1.0 - rest ) / A ) / w;
			Track track = { body, 0, 0.0 };
			Slack slack = { v0, 0.0, 0.0, 0.0, false };
			double times[8];
			int n = upCrossings( world, &track, 3.0 * expected, h, times, 8, slackCheck, &slack );
			double period = meanPeriod( times, n );
			printf( "  %s: slack spring (rest %.1f): period %.7f s, closed form %.7f s (%.1e); reach %.7f m (%.7f); "
					"speed in the slack range off by %.1e before the spring acted, %.1e after\n",
					methodName( methods[m] ), rest, period, expected, ( period - expected ) / expected, slack.reach,
					rest + A, slack.before, slack.after );
			CHECK( n >= 2 );
			CHECK_NEAR( period, expected, 1e-4 * expected );
			CHECK( slack.before < 1e-12 * v0 );
			CHECK( slack.after < 5e-4 * v0 );
			// the frames sample the turning point within w^2 A (h/2)^2 / 2 = 2 mm
			CHECK( slack.reach <= rest + A + 1e-4 && slack.reach > rest + A - 3e-3 );
			cnDestroyWorld( world );
		}
	}
}

// How far a joint's anchor on its body strays from a fixed point, over the frames.
typedef struct Nail
{
	cnJointId joint;
	cnVec3 point;
	double worst;
} Nail;

static void nailCheck( cnWorld* world, double t, double x0, double v0, double x1, double v1, void* user )
{
	(void)t, (void)x0, (void)v0, (void)x1, (void)v1;
	Nail* nail = user;
	nail->worst = fmax( nail->worst, cnDistance( cnJoint_GetAnchorA( world, nail->joint ), nail->point ) );
}

// Kleppmann's nail: a bar fixed to a point in space at the end of its long axis by a ball joint,
// released at theta0 = 0.1 rad in a plane: a physical pendulum, T = 4 sqrt(I / (m g d)) K(sin(theta0/2))
// with I = m (4 b^2 + 4 c^2) / 12 + m b^2 about the nail (half length b, half thickness c in the
// swing plane) and d = b. Tolerance 1e-4 as for the rod; the nail holds to a millimetre's fraction.
static void ballJointNail( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		cnWorld* world = tbWorld( methods[m], gravity );
		double b = 0.5, c = 0.05, theta0 = 0.1;
		cnQuat q = cnQuatFromAxisAngle( cnV3( 0, 1, 0 ), theta0 );
		cnVec3 nail = cnV3( 0, 0, 2 );
		cnVec3 center = cnSub( nail, cnRotate( q, cnV3( 0, 0, b ) ) );
		cnBodyId bar = tbBox( world, cnBody_dynamic, center, q, cnVec3_zero, cnV3( c, 0.05, b ), 0 );
		cnBallJointDef def = cnDefaultBallJointDef();
		def.base.bodyA = bar;
		def.anchor = nail;
		cnJointId ball = cnCreateBallJoint( world, &def );
		CHECK( cnJoint_IsValid( world, ball ) );

		Track track = { bar, 0, 0.0 };
		Nail held = { ball, nail, 0.0 };
		double times[8];
		int n = upCrossings( world, &track, testFast() ? 4.0 : 8.0, 1.0 / 60.0, times, 8, nailCheck, &held );
		double worst = held.worst;
		double I = ( 4.0 * b * b + 4.0 * c * c ) / 12.0 + b * b; // per unit mass
		double expected = 4.0 * sqrt( I / ( g * b ) ) * cfEllipticK( sin( 0.5 * theta0 ) );
		double period = meanPeriod( times, n );
		printf( "  %s: nail: period %.7f s, closed form %.7f s (%.1e); the nail moved %.3f um\n",
				methodName( methods[m] ), period, expected, ( period - expected ) / expected, 1e6 * worst );
		CHECK( n >= 2 );
		CHECK_NEAR( period, expected, 1e-4 * expected );
		CHECK( worst < 1e-4 );
		// it swings in its plane
		CHECK( fabs( cnBody_GetWorldCenterOfMass( world, bar ).y ) < 1e-9 );
		cnDestroyWorld( world );
	}
}

// A bar of length 1 on a hinge at one end, limits [-30, 30] degrees, released horizontally: it falls
// onto the limit and rests there. At rest the limit row carries the weight's moment about the hinge,
// m g (L/2) cos 30, which tilts it beyond the limit by that moment over its stiffness, I w^2 with I
// the bar's own moment (the point rows hold the pivot): 1.3e-6 rad. The joint's reaction torque about
// the axis is that moment.
static void hingeLimitHolds( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		cnWorld* world = tbWorld( methods[m], gravity );
		cnBodyId bar = tbBox( world, cnBody_dynamic, cnV3( 0.5, 0, 1 ), cnQuat_identity, cnVec3_zero,
							  cnV3( 0.5, 0.05, 0.05 ), 0 );
		cnHingeJointDef def = cnDefaultHingeJointDef();
		def.base.bodyA = bar;
		def.anchor = cnV3( 0, 0, 1 );
		def.axis = cnV3( 0, 1, 0 );
		def.enableLimit = true;
		def.lowerAngle = -CN_PI / 6.0;
		def.upperAngle = CN_PI / 6.0;
		cnJointId hinge = cnCreateHingeJoint( world, &def );
		double worst = 0.0, h = 1.0 / 60.0;
		for ( int i = 0; i < 180; ++i )
		{
			CHECK( cnWorld_Step( world, h ) );
			worst = fmax( worst, fabs( cnJoint_GetPosition( world, hinge ) ) );
		}
		double angle = fabs( cnJoint_GetPosition( world, hinge ) );
		double mass = cnBody_GetMass( world, bar );
		double moment = mass * g * 0.5 * cos( CN_PI / 6.0 );
		cnVec3 torque = cnJoint_GetReactionTorque( world, hinge );
		printf( "  %s: hinge limit 30 deg: largest angle %.5f deg, at rest %.7f deg; torque about the axis %.5f N m "
				"(m g L/2 cos 30 = %.5f)\n",
				methodName( methods[m] ), worst * 180.0 / CN_PI, angle * 180.0 / CN_PI, fabs( torque.y ), moment );
		// a fall of 2.5 rad/s stopped by the limit's 1 kHz spring overshoots by less than v / w = 0.4 mrad
		CHECK( worst < CN_PI / 6.0 + 1e-3 );
		CHECK_NEAR( angle, CN_PI / 6.0, 1e-5 );
		CHECK_NEAR( cnBody_GetWorldCenterOfMass( world, bar ).z, 1.0 - 0.5 * 0.5, 1e-5 );
		CHECK_NEAR( fabs( torque.y ), moment, 1e-3 * moment );
		CHECK( cnLength( cnBody_GetLinearVelocity( world, bar ) ) < 1e-4 );
		cnDestroyWorld( world );
	}
}

// A sphere on a hinge motor about z, no gravity, motor speed 5 rad/s. With a maximum torque tau the
// motor is saturated until the speed is reached: w = tau t / I, then w = 5 (the servo has no load
// to lag behind). tau = 10 I: 2.5 rad/s at 0.25 s, 5 from 0.5 s on; tau = 0.05 I: 0.05 rad/s at 1 s,
// and the reaction torque is tau.
static void hingeMotor( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		for ( int weak = 0; weak < 2; ++weak )
		{
			cnWorld* world = tbWorld( methods[m], cnVec3_zero );
			double r = 0.3, speed = 5.0, h = 1.0 / 60.0;
			cnBodyId wheel = sphere( world, cnV3( 0, 0, 0 ), r );
			double I = 0.4 * cnBody_GetMass( world, wheel ) * r * r;
			double tau = weak ? 0.05 * I : 10.0 * I;
			cnHingeJointDef def = cnDefaultHingeJointDef();
			def.base.bodyA = wheel;
			def.axis = cnV3( 0, 0, 1 );
			def.enableMotor = true;
			def.motorSpeed = speed;
			def.maxMotorTorque = tau;
			cnJointId motor = cnCreateHingeJoint( world, &def );
			double quarter = 0.0;
			for ( int i = 1; i <= 60; ++i )
			{
				CHECK( cnWorld_Step( world, h ) );
				if ( i == 15 )
				{
					quarter = -cnBody_GetAngularVelocity( world, wheel ).z;
				}
			}
			// B is the world, which turns at the motor's speed relative to the wheel: the wheel turns
			// at minus it
			double w = -cnBody_GetAngularVelocity( world, wheel ).z;
			CHECK_NEAR( cnJoint_GetSpeed( world, motor ), w, 1e-9 );
			if ( weak )
			{
				printf( "  %s: weak motor: %.9f rad/s after 1 s (tau t / I = %.9f), torque %.6g (tau %.6g)\n",
						methodName( methods[m] ), w, tau / I, cnLength( cnJoint_GetReactionTorque( world, motor ) ), tau );
				CHECK_NEAR( w, tau / I, 1e-9 );
				CHECK_NEAR( cnLength( cnJoint_GetReactionTorque( world, motor ) ), tau, 1e-9 * tau );
			}
			else
			{
				printf( "  %s: motor: %.9f rad/s at 0.25 s (%.9f), %.9f at 1 s (%.1f)\n", methodName( methods[m] ),
						quarter, 0.25 * tau / I, w, speed );
				CHECK_NEAR( quarter, 0.25 * tau / I, 1e-9 );
				CHECK_NEAR( w, speed, 1e-6 );
			}
			cnDestroyWorld( world );
		}
	}
}

// A chain of 20 capsule links (0.1 m each) on ball joints hung from a fixed point, with a weight of
// 100 link masses at its end, hanging straight: at rest it is longer than built by the stretch of
// every joint row, load / (m_eff w^2) summed over the chain: about 4400 g / w^2 = 1.1 mm at 1 kHz
// (the top joint carries 120 link masses on one link's effective mass, the 19 between links about
// 110 on half a link's). Aim: under 5 mm. The top joint's reaction is the whole chain's weight.
static void heavyChain( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		cnWorld* world = tbWorld( methods[m], gravity );
		int n = 20;
		double link = 0.1, linkMass = 0.0;
		cnBodyId prev = cnBodyId_null;
		cnJointId top = cnJointId_null;
		for ( int k = 0; k < n; ++k )
		{
			cnShapeDef sd = cnDefaultShapeDef();
			sd.type = cnShape_capsule;
			sd.radius = 0.02;
			sd.halfHeight = 0.03;
			cnBodyId b = tbBody( world, cnBody_dynamic, cnV3( 0, 0, -link * k - 0.5 * link ), cnQuat_identity,
								 cnVec3_zero, &sd );
			linkMass = cnBody_GetMass( world, b );
			cnBallJointDef def = cnDefaultBallJointDef();
			def.base.bodyA = b;
			def.base.bodyB = prev;
			def.anchor = cnV3( 0, 0, -link * k );
			cnJointId j = cnCreateBallJoint( world, &def );
			CHECK( cnJoint_IsValid( world, j ) );
			top = k == 0 ? j : top;
			prev = b;
		}
		cnBodyId weight = sphere( world, cnV3( 0, 0, -link * n - 0.1 ), 0.1 );
		CHECK( cnBody_SetMass( world, weight, 100.0 * linkMass ) );
		cnBallJointDef def = cnDefaultBallJointDef();
		def.base.bodyA = weight;
		def.base.bodyB = prev;
		def.anchor = cnV3( 0, 0, -link * n );
		cnJointId last = cnCreateBallJoint( world, &def );

		// 5 s: the weight bounces on the chain (at about w / 63 = 16 Hz, with a 63rd of the rows'
		// damping ratio) from the length it was built with about the stretched one; the reactions
		// are averaged over the last 2 s (the short variant: 2 s, averaged over the last 1 s)
		double h = 1.0 / 60.0, topForce = 0.0, lastForce = 0.0;
		int steps = testFast() ? 120 : 300, averaged = testFast() ? 60 : 120;
		for ( int i = 0; i < steps; ++i )
		{
			CHECK( cnWorld_Step( world, h ) );
			if ( i >= steps - averaged )
			{
				topForce += cnJoint_GetReactionForce( world, top ).z / averaged;
				lastForce += cnJoint_GetReactionForce( world, last ).z / averaged;
			}
		}
		cnVec3 p = cnBody_GetWorldCenterOfMass( world, weight );
		double stretch = -p.z - ( link * n + 0.1 );
		double total = 120.0 * linkMass;
		printf( "  %s: 20-link chain, end weight 100 links: stretch %.4f mm (about 4400 g / w^2 = %.4f mm); top "
				"reaction %.4f N (weight %.4f N)\n",
				methodName( methods[m] ), 1000.0 * stretch, 1000.0 * 4400.0 * g / pow( 2.0 * CN_PI * CN_PENALTY_JOINT_FREQUENCY, 2.0 ),
				fabs( topForce ), total * g );
		CHECK( stretch > 0.0 && stretch < 5e-3 );
		CHECK( fabs( p.x ) < 1e-9 && fabs( p.y ) < 1e-9 );
		// B of the top joint is the world, of the last the link above the weight: both hold up A. What
		// is left of the bounce moves the 2 s mean by 1.3e-4 (measured; it is 3e-6 over 6 s to 12 s),
		// the short variant's by more
		double tolerance = testFast() ? 1e-2 : 5e-4;
		CHECK_NEAR( fabs( topForce ), total * g, tolerance * total * g );
		CHECK_NEAR( fabs( lastForce ), 100.0 * linkMass * g, tolerance * 100.0 * linkMass * g );
		cnDestroyWorld( world );
	}
}

// A point mass on a rope (distance joint) released from the horizontal: the tension at angle theta
// from the vertical is m g (3 cos theta - 2 cos theta0) = 3 m g cos theta. With breakForce 2.5 m g it
// breaks where cos theta = 5/6 (theta* = 33.56 degrees), then flies free (gravity only); with 3.1 m g
// it never breaks. The reaction is the step's mean, the tension at the middle of the step to second
// order: the step that breaks it ends between theta* - 3/2 d and theta* - 1/2 d, with d = 1.9 degrees
// the angle swept in a step of 1/120 s at theta* (v^2 = 2 g L cos theta).
static void ropeBreaks( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		for ( int strong = 0; strong < 2; ++strong )
		{
			cnWorld* world = tbWorld( methods[m], gravity );
			double mass = 1.5, L = 1.0, h = 1.0 / 120.0;
			cnBodyId bob = tbPointMass( world, cnV3( -L, 0, 0 ), mass );
			cnDistanceJointDef def = cnDefaultDistanceJointDef();
			def.base.bodyA = bob;
			def.base.breakForce = ( strong ? 3.1 : 2.5 ) * mass * g;
			def.anchorA = cnV3( -L, 0, 0 );
			def.anchorB = cnV3( 0, 0, 0 );
			cnJointId rope = cnCreateDistanceJoint( world, &def );
			double brokeAt = -1.0, breakForce = 0.0;
			cnVec3 vBreak = cnVec3_zero;
			int stepsAfter = 0;
			for ( int i = 0; i < 240 && stepsAfter < 30; ++i )
			{
				CHECK( cnWorld_Step( world, h ) );
				int count = 0;
				const cnJointBreak* breaks = cnWorld_GetJointBreaks( world, &count );
				if ( count > 0 )
				{
					CHECK( count == 1 && breaks[0].joint.index == rope.index );
					CHECK( breaks[0].force > def.base.breakForce );
					cnVec3 p = cnBody_GetWorldCenterOfMass( world, bob );
					brokeAt = atan2( -p.x, -p.z );
					vBreak = cnBody_GetLinearVelocity( world, bob );
					breakForce = breaks[0].force;
				}
				else if ( brokeAt >= 0.0 || cnJoint_IsBroken( world, rope ) )
				{
					stepsAfter += 1;
				}
			}
			if ( strong )
			{
				CHECK( cnJoint_IsBroken( world, rope ) == false );
				cnDestroyWorld( world );
				continue;
			}
			double expected = acos( 5.0 / 6.0 ), d = sqrt( 2.0 * g * cos( expected ) / L ) * h;
			double mid = brokeAt + 0.5 * d;
			printf( "  %s: rope broke at %.3f deg (tension 2.5 m g at %.3f deg, a step sweeps %.3f deg) with %.5f m g "
					"(3 m g cos of mid-step: %.5f)\n",
					methodName( methods[m] ), brokeAt * 180.0 / CN_PI, expected * 180.0 / CN_PI, d * 180.0 / CN_PI,
					breakForce / ( mass * g ), 3.0 * cos( mid ) );
			CHECK( cnJoint_IsBroken( world, rope ) );
			CHECK( brokeAt > expected - 1.5 * d && brokeAt < expected - 0.5 * d );
			CHECK_NEAR( breakForce, 3.0 * mass * g * cos( mid ), 2e-3 * breakForce );
			// free flight: 30 steps of gravity alone
			cnVec3 v = cnBody_GetLinearVelocity( world, bob );
			CHECK_NEAR( v.x, vBreak.x, 1e-9 );
			CHECK_NEAR( v.z, vBreak.z - g * 30.0 * h, 1e-9 );
			cnDestroyWorld( world );
		}
	}
}

// AERO's five-ball pendulum (section 5.1) under analytic-impulse: five equal elastic balls on rods,
// touching in a row; the first released from 30 degrees. The impacts are resolved ball by ball
// with the balls' own masses (the rods are perpendicular to the impulses at the bottom, so they take
// no part), which for equal balls is the textbook result: the last ball leaves with the first's
// speed sqrt(2 g L (1 - cos 30)) and the others stay; it rises to the first ball's height. Read at
// frames of 1/120 s: the speed at the end of the impact's step, up to 3.5e-4 lower after the climb
// since the impact (g x^2 / (2 L v), x = v h); the apex within a frame, 1.6e-4 of the rise
// (g sin 30 (h/2)^2 / 2 along the arc): both are held to 1e-3.
static void fiveBallPendulum( void )
{
	cnWorld* world = tbWorld( cnMethod_analyticImpulse, gravity );
	cnMaterialId elastic = tbMaterial( world, 0.0, 1.0 );
	double r = 0.05, L = 1.0, theta0 = CN_PI / 6.0, top = 2.0, h = 1.0 / 120.0;
	cnBodyId balls[5];
	for ( int i = 0; i < 5; ++i )
	{
		cnVec3 pivot = cnV3( 2.0 * r * i, 0, top );
		cnVec3 p = i == 0 ? cnAdd( pivot, cnV3( -L * sin( theta0 ), 0, -L * cos( theta0 ) ) ) : cnV3( pivot.x, 0, top - L );
		balls[i] = tbSphere( world, cnBody_dynamic, p, cnVec3_zero, r, elastic );
		cnDistanceJointDef def = cnDefaultDistanceJointDef();
		def.base.bodyA = balls[i];
		def.anchorA = p;
		def.anchorB = pivot;
		CHECK( cnJoint_IsValid( world, cnCreateDistanceJoint( world, &def ) ) );
	}
	double v = sqrt( 2.0 * g * L * ( 1.0 - cos( theta0 ) ) );
	double highest = -INFINITY, restWorst = 0.0, firstAfter = 0.0;
	bool hit = false;
	// the first ball reaches the others after a quarter period (0.51 s), the last is at the top after
	// another
	for ( int i = 0; i < 150; ++i )
	{
		CHECK( cnWorld_Step( world, h ) );
		double v5 = cnBody_GetLinearVelocity( world, balls[4] ).x;
		if ( hit == false && v5 > 0.5 * v )
		{
			hit = true;
			printf( "  five balls: the last leaves at %.6f m/s (the first came at %.6f)\n", v5, v );
			CHECK_NEAR( v5, v, 1e-3 * v );
			firstAfter = cnLength( cnBody_GetLinearVelocity( world, balls[0] ) );
		}
		if ( hit )
		{
			highest = fmax( highest, cnBody_GetWorldCenterOfMass( world, balls[4] ).z );
			for ( int k = 1; k < 4; ++k )
			{
				restWorst = fmax( restWorst, cnLength( cnBody_GetLinearVelocity( world, balls[k] ) ) );
			}
		}
	}
	double rise = highest - ( top - L ), expected = L * ( 1.0 - cos( theta0 ) );
	printf( "  five balls: the last rises %.6f m (%.6f), the first left at %.2e m/s, the middle at most %.2e m/s\n",
			rise, expected, firstAfter, restWorst );
	CHECK( hit );
	CHECK_NEAR( rise, expected, 1e-3 * expected );
	CHECK( firstAfter < 1e-3 * v );
	CHECK( restWorst < 1e-3 * v );
	cnDestroyWorld( world );
}

// A five-link ragdoll arm (hinges with limits, a ball joint, a motor) on boxes dropped onto the
// ground: joints and contacts together, run twice to the same bits (determinism), every joint held
// to a millimetre while the links hit the ground and roll.
static uint64_t armHash( cnMethod method, double* worstError )
{
	cnWorld* world = tbWorld( method, gravity );
	cnMaterialId ground = tbGround( world, 0.6, 0.3 );
	cnBodyId prev = cnBodyId_null;
	cnJointId joints[5];
	for ( int k = 0; k < 5; ++k )
	{
		cnQuat q = cnQuatFromAxisAngle( cnNormalize( cnV3( 1, 2, 3 ) ), 0.3 );
		cnVec3 c = cnV3( 0.25 * k + 0.125, 0.02 * k, 0.6 + 0.05 * k );
		cnBodyId b = tbBox( world, cnBody_dynamic, c, q, cnV3( 0.5, 0, 0 ), cnV3( 0.125, 0.04, 0.04 ), ground );
		cnVec3 anchor = cnSub( c, cnRotate( q, cnV3( 0.125, 0, 0 ) ) );
		if ( k == 2 )
		{
			cnBallJointDef def = cnDefaultBallJointDef();
			def.base.bodyA = b;
			def.base.bodyB = prev;
			def.anchor = anchor;
			joints[k] = cnCreateBallJoint( world, &def );
		}
		else if ( k > 0 )
		{
			cnHingeJointDef def = cnDefaultHingeJointDef();
			def.base.bodyA = b;
			def.base.bodyB = prev;
			def.anchor = anchor;
			def.axis = cnRotate( q, cnV3( 0, 1, 0 ) );
			def.enableLimit = true;
			def.lowerAngle = -0.5;
			def.upperAngle = 0.8;
			def.enableMotor = k == 4;
			def.motorSpeed = 2.0;
			def.maxMotorTorque = 0.5;
			joints[k] = cnCreateHingeJoint( world, &def );
		}
		else
		{
			joints[k] = cnJointId_null;
		}
		prev = b;
	}
	*worstError = 0.0;
	for ( int i = 0; i < ( testFast() ? 40 : 90 ); ++i )
	{
		CHECK( cnWorld_Step( world, 1.0 / 60.0 ) );
		for ( int k = 1; k < 5; ++k )
		{
			*worstError = fmax( *worstError, cnJoint_GetLinearError( world, joints[k] ) );
		}
	}
	uint64_t hash = cnWorld_Hash( world );
	cnDestroyWorld( world );
	return hash;
}

static void jointsWithContacts( void )
{
	for ( int m = 0; m < 2; ++m )
	{
		double worst1, worst2;
		uint64_t a = armHash( methods[m], &worst1 );
		uint64_t b = armHash( methods[m], &worst2 );
		printf( "  %s: arm on the ground: joints held to %.3f um; hashes %016llx %016llx\n", methodName( methods[m] ),
				1e6 * worst1, (unsigned long long)a, (unsigned long long)b );
		CHECK( a == b );
		CHECK( worst1 < 1e-3 );
	}
}

int main( void )
{
	RUN_TEST( pendulumOnRod );
	RUN_TEST( springMass );
	RUN_TEST( damperDecay );
	RUN_TEST( springMinLength );
	RUN_TEST( ballJointNail );
	RUN_TEST( hingeLimitHolds );
	RUN_TEST( hingeMotor );
	RUN_TEST( heavyChain );
	RUN_TEST( ropeBreaks );
	RUN_TEST( fiveBallPendulum );
	RUN_TEST( jointsWithContacts );
	return TEST_SUMMARY();
}
