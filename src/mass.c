// SPDX-License-Identifier: MIT
// A body's mass properties from its shapes: mass, centre of mass and the inertia tensor about it,
// combined from each shape's exact closed form with the parallel axis theorem, or the user's
// override. Called whenever a body's shapes or mass settings change.
#include "mass.h"

#include "world.h"

void cnUpdateBodyMass( cnWorld* world, cnBody* b )
{
	b->mass = 0.0;
	b->invMass = 0.0;
	b->inertia = cnMat3_zero;
	b->invInertia = cnMat3_zero;
	b->localCenter = cnVec3_zero;

	// the largest extent is needed by every body type (speculative margin)
	double maxExtent = 0.0;

	// sum the shapes' masses and first moments in body coordinates
	double mass = 0.0;
	cnVec3 moment = cnVec3_zero;
	for ( int s = b->firstShape; s >= 0; s = world->shapes[s].nextShape )
	{
		const cnShape* shape = world->shapes + s;
		if ( shape->geom.type == cnShape_plane )
		{
			continue;
		}
		double density = world->materials[shape->material].def.density;
		cnMassData md = cnComputeShapeMass( &shape->geom, density );
		cnVec3 c = cnTransformPoint( shape->local, md.center );
		mass += md.mass;
		moment = cnMulAdd( moment, md.mass, c );
	}
	cnVec3 center = mass > 0.0 ? cnMulSV( 1.0 / mass, moment ) : cnVec3_zero;

	// inertia about the common centre of mass: rotate each shape's tensor into the body frame and
	// shift it with the parallel axis theorem I + m (|d|^2 E - d d^T)
	cnMat3 inertia = cnMat3_zero;
	for ( int s = b->firstShape; s >= 0; s = world->shapes[s].nextShape )
	{
		const cnShape* shape = world->shapes + s;
		if ( shape->geom.type == cnShape_plane )
		{
			continue;
		}
		double density = world->materials[shape->material].def.density;
		cnMassData md = cnComputeShapeMass( &shape->geom, density );
		cnVec3 d = cnSub( cnTransformPoint( shape->local, md.center ), center );
		cnMat3 rotated = cnRotateTensor( shape->local.q, md.inertia );
		double dd = cnDot( d, d );
		cnMat3 shift = { { dd - d.x * d.x, -d.y * d.x, -d.z * d.x },
						 { -d.x * d.y, dd - d.y * d.y, -d.z * d.y },
						 { -d.x * d.z, -d.y * d.z, dd - d.z * d.z } };
		inertia = cnAddMM( inertia, cnAddMM( rotated, cnMulSM( md.mass, shift ) ) );

		// extent: the farthest point of the shape's box from the centre, a cheap upper bound
		cnAABB box = cnComputeShapeAABB( &shape->geom, shape->local );
		cnVec3 far = cnMax( cnAbs( cnSub( box.lower, center ) ), cnAbs( cnSub( box.upper, center ) ) );
		double extent = cnLength( far );
		maxExtent = extent > maxExtent ? extent : maxExtent;
	}
	b->maxExtent = maxExtent;

	if ( b->type != cnBody_dynamic )
	{
		b->localCenter = cnVec3_zero;
		b->center = b->xf.p;
		return;
	}

	if ( b->hasMassData )
	{
		mass = b->massOverride;
		center = b->userCenter;
		inertia = b->userInertia;
	}
	else if ( b->massOverride > 0.0 )
	{
		if ( mass > 0.0 )
		{
			inertia = cnMulSM( b->massOverride / mass, inertia );
		}
		mass = b->massOverride;
	}

	if ( mass <= 0.0 )
	{
		// a dynamic body without volume (no shapes yet): unit point mass so it still moves sensibly
		mass = 1.0;
		inertia = cnMat3_zero;
	}

	b->mass = mass;
	b->invMass = 1.0 / mass;
	b->localCenter = center;
	b->inertia = inertia;
	b->invInertia = cnDeterminant( inertia ) > 0.0 ? cnInvertM( inertia ) : cnMat3_zero;
	double trace = inertia.cx.x + inertia.cy.y + inertia.cz.z;
	double tol = 1e-12 * trace;
	b->isotropic = fabs( inertia.cx.x - inertia.cy.y ) <= tol && fabs( inertia.cx.x - inertia.cz.z ) <= tol &&
				   fabs( inertia.cy.x ) <= tol && fabs( inertia.cz.x ) <= tol && fabs( inertia.cz.y ) <= tol;

	// keep the origin fixed: the centre moves with the new local centre
	cnVec3 oldCenter = b->center;
	b->center = cnTransformPoint( b->xf, b->localCenter );
	// velocity of the new centre from the rigid motion about the old centre
	b->v = cnAdd( b->v, cnCross( b->w, cnSub( b->center, oldCenter ) ) );
}
