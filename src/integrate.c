// SPDX-License-Identifier: MIT
// Per-body integration shared by every contact method: the velocity update from gravity, user
// forces, air drag, damping and the gyroscopic term, and the position update.
#include "integrate.h"
#include "world.h"

// Angular velocity update in the body frame by the implicit midpoint rule:
//   I (w1 - w0) + h wm x (I wm) = h tau,   wm = (w0 + w1) / 2.
// The midpoint rule conserves kinetic energy and |L| of a torque-free body exactly (both are
// quadratic invariants of Euler's equations), so the gyroscopic term neither pumps nor drains
// energy and the Dzhanibekov flip keeps its period. Solved by Newton's method on the 3x3 system.
static cnVec3 cnIntegrateGyroscopic( cnMat3 inertia, cnVec3 w0, cnVec3 hTau, double h )
{
	cnVec3 w1 = w0;
	for ( int iter = 0; iter < 8; ++iter )
	{
		cnVec3 wm = cnMulSV( 0.5, cnAdd( w0, w1 ) );
		cnVec3 Iwm = cnMulMV( inertia, wm );
		cnVec3 F = cnSub( cnAdd( cnMulMV( inertia, cnSub( w1, w0 ) ), cnMulSV( h, cnCross( wm, Iwm ) ) ), hTau );
		// dF/dw1 = I + h/2 ([wm]x I - [I wm]x)
		cnMat3 J = cnAddMM( inertia, cnMulSM( 0.5 * h, cnAddMM( cnMulMM( cnSkew( wm ), inertia ), cnMulSM( -1.0, cnSkew( Iwm ) ) ) ) );
		cnVec3 dw = cnSolve3( J, F );
		w1 = cnSub( w1, dw );
		if ( cnLengthSquared( dw ) <= 1e-30 * ( 1.0 + cnLengthSquared( w1 ) ) )
		{
			break;
		}
	}
	return w1;
}

cnLinearStep cnLinearStepOf( const cnWorld* world, const cnBody* body, double h )
{
	cnLinearStep step;
	step.acceleration = cnMulAdd( cnMulSV( body->gravityScale, world->gravity ), body->invMass, body->force );
	step.dragRate = h * body->invMass * body->drag;
	step.drag = body->drag > 0.0;
	step.dampingScale = 1.0 / ( 1.0 + h * body->linearDamping );
	step.damping = body->linearDamping > 0.0;
	return step;
}

cnVec3 cnApplyLinearStep( const cnLinearStep* step, cnVec3 v0, double h )
{
	// v += h (F / m + s g), then quadratic drag and damping, both implicit so that a large
	// coefficient slows the body down but never reverses it. The drag factor uses the speed at the
	// start of the step: then the terminal speed sqrt(m g / k) is an exact fixed point.
	double dragFactor = 1.0 + step->dragRate * cnLength( v0 );
	cnVec3 v = cnMulAdd( v0, h, step->acceleration );
	if ( step->drag )
	{
		v = cnMulSV( 1.0 / dragFactor, v );
	}
	if ( step->damping )
	{
		v = cnMulSV( step->dampingScale, v );
	}
	return v;
}

cnVec3 cnIntegrateLinearVelocity( const cnWorld* world, const cnBody* body, cnVec3 v0, double h )
{
	cnLinearStep step = cnLinearStepOf( world, body, h );
	return cnApplyLinearStep( &step, v0, h );
}

bool cnSpinIsFree( const cnBody* body )
{
	return body->isotropic && body->torque.x == 0.0 && body->torque.y == 0.0 && body->torque.z == 0.0 &&
		   !( body->angularDamping > 0.0 );
}

cnVec3 cnIntegrateAngularVelocity( const cnBody* body, cnQuat q, cnVec3 w, double h )
{
	if ( body->isotropic )
	{
		// w x (I w) vanishes when I is a multiple of the identity
		cnVec3 dw = cnRotate( q, cnMulMV( body->invInertia, cnInvRotate( q, cnMulSV( h, body->torque ) ) ) );
		w = cnAdd( w, dw );
	}
	else if ( body->invInertia.cx.x != 0.0 || body->invInertia.cy.y != 0.0 || body->invInertia.cz.z != 0.0 )
	{
		// implicit midpoint in the body frame
		cnVec3 wLocal = cnInvRotate( q, w );
		cnVec3 hTau = cnMulSV( h, cnInvRotate( q, body->torque ) );
		wLocal = cnIntegrateGyroscopic( body->inertia, wLocal, hTau, h );
		w = cnRotate( q, wLocal );
	}
	if ( body->angularDamping > 0.0 )
	{
		w = cnMulSV( 1.0 / ( 1.0 + h * body->angularDamping ), w );
	}
	return w;
}

void cnIntegrateBodyPosition( cnBody* body, double h )
{
	body->center = cnMulAdd( body->center, h, body->v );
	body->xf.q = cnIntegrateRotation( body->xf.q, body->w, h );
	body->xf.p = cnSub( body->center, cnRotate( body->xf.q, body->localCenter ) );
}
