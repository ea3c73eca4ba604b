// SPDX-License-Identifier: MIT
// A body's mass properties from its shapes: mass, centre of mass and the inertia tensor about it,
// combined from each shape's exact closed form with the parallel axis theorem, or the user's
// override. Called whenever a body's shapes or mass settings change. Sizes, densities and masses
// whose products leave the double range (a radius of 1e-300 weighs 0 kg, one of 1e200 weighs inf),
// or come so close to its ends that the step's products would, are refused here, when the shape or
// mass is given, rather than found at the first step.
#include "mass.h"

#include "error.h"
#include "world.h"

#include <float.h>
#include <stdio.h>

bool cnIsUsableMass( double value )
{
	return value >= CN_SAFE_MIN && value <= CN_SAFE_MAX;
}

const char* cnMassProblem( double value )
{
	if ( value == 0.0 )
	{
		return "underflow";
	}
	if ( isfinite( value ) == false )
	{
		return isnan( value ) ? "not a number" : "overflow";
	}
	if ( value < 0.0 )
	{
		return "negative";
	}
	// the products the step forms from such a value would leave the double range
	if ( value < CN_SAFE_MIN )
	{
		return "below 1e-150, where its products underflow";
	}
	return "above 1e150, where its products overflow";
}

// "is zero or not finite", "is too small" or "is too large": what a value failing cnIsUsableMass is.
static const char* cnMassVerdict( double value )
{
	if ( !( value > 0.0 ) || isfinite( value ) == false )
	{
		return "is zero or not finite";
	}
	return value < CN_SAFE_MIN ? "is too small" : "is too large";
}

// "radius 0.5", "half extents 1, 2, 3", ... for messages.
static void cnDescribeSize( const cnGeometry* g, char* text, size_t size )
{
	switch ( g->type )
	{
		case cnShape_box:
			snprintf( text, size, "half extents %g, %g, %g", g->halfExtents.x, g->halfExtents.y, g->halfExtents.z );
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			snprintf( text, size, "radius %g and half height %g", g->radius, g->halfHeight );
			break;
		default:
			snprintf( text, size, "radius %g", g->radius );
			break;
	}
}

bool cnCheckShapeMass( const cnGeometry* g, double density, bool sizeOnly )
{
	cnMassData md = cnComputeShapeMass( g, density );
	double moments[3] = { md.inertia.cx.x, md.inertia.cy.y, md.inertia.cz.z };
	const char* quantity = NULL;
	const char* unit = NULL;
	double value = md.mass;
	if ( cnIsUsableMass( md.mass ) == false )
	{
		quantity = sizeOnly ? "volume" : "mass";
		unit = sizeOnly ? "m^3" : "kg";
	}
	for ( int i = 0; i < 3 && quantity == NULL; ++i )
	{
		if ( cnIsUsableMass( moments[i] ) == false )
		{
			// at unit density the moment of inertia is the second moment of the volume
			quantity = sizeOnly ? "second moment of volume" : "moment of inertia";
			unit = sizeOnly ? "m^5" : "kg m^2";
			value = moments[i];
		}
	}
	if ( quantity == NULL )
	{
		return true;
	}
	char sizeText[160];
	cnDescribeSize( g, sizeText, sizeof( sizeText ) );
	if ( sizeOnly )
	{
		return cnSetError( cnError_invalidArgument, "%s size gives a %s that %s: %g %s (%s) from %s",
						   cnShapeType_GetName( g->type ), quantity, cnMassVerdict( value ), value, unit,
						   cnMassProblem( value ), sizeText );
	}
	return cnSetError( cnError_invalidArgument, "%s size gives a %s that %s: %g %s (%s) from %s at density %g kg/m^3",
					   cnShapeType_GetName( g->type ), quantity, cnMassVerdict( value ), value, unit,
					   cnMassProblem( value ), sizeText, density );
}

// Steps through the shapes a body has after a change: the added shape first (cnCreateShape links a
// new shape at the head of the list, so the sums keep the order they will have), then the body's
// list without the removed one.
typedef struct cnShapeWalk
{
	const cnShape* added;
	int next;
	int removed;
} cnShapeWalk;

static const cnShape* cnWalkShapes( const cnWorld* world, cnShapeWalk* walk )
{
	if ( walk->added != NULL )
	{
		const cnShape* s = walk->added;
		walk->added = NULL;
		return s;
	}
	while ( walk->next >= 0 )
	{
		int index = walk->next;
		walk->next = world->shapes[index].nextShape;
		if ( index != walk->removed )
		{
			return world->shapes + index;
		}
	}
	return NULL;
}

// Inverse of a positive definite inertia. The plain inverse divides by the determinant, a product
// of three moments that leaves the double range long before the moments do (a sphere of radius
// 1e-21 m or of mass 1e200 kg); those are inverted scaled to a largest moment of 1 instead. Zero
// when the inertia is singular.
static cnMat3 cnInvertInertia( cnMat3 inertia )
{
	double det = cnDeterminant( inertia );
	if ( det >= 1e-300 && det <= DBL_MAX )
	{
		return cnInvertM( inertia );
	}
	double scale = fmax( fabs( inertia.cx.x ), fmax( fabs( inertia.cy.y ), fabs( inertia.cz.z ) ) );
	// (the determinant itself may have underflowed to 0 or overflowed: only the scaled one tells)
	if ( !( scale >= DBL_MIN && scale <= DBL_MAX ) )
	{
		return cnMat3_zero;
	}
	cnMat3 unit = cnMulSM( 1.0 / scale, inertia );
	if ( !( cnDeterminant( unit ) >= 1e-300 ) )
	{
		return cnMat3_zero;
	}
	return cnMulSM( 1.0 / scale, cnInvertM( unit ) );
}

static bool cnIsFiniteMat3( cnMat3 m )
{
	return cnIsValidVec3( m.cx ) && cnIsValidVec3( m.cy ) && cnIsValidVec3( m.cz );
}

bool cnComputeBodyMass( const cnWorld* world, const cnBody* b, const cnShape* added, int removed, cnBodyMass* out )
{
	out->mass = 0.0;
	out->invMass = 0.0;
	out->inertia = cnMat3_zero;
	out->invInertia = cnMat3_zero;
	out->localCenter = cnVec3_zero;
	out->isotropic = false;

	// the largest extent is needed by every body type (speculative margin)
	double maxExtent = 0.0;

	// sum the shapes' masses and first moments in body coordinates
	double mass = 0.0;
	cnVec3 moment = cnVec3_zero;
	cnShapeWalk walk = { added, b->firstShape, removed };
	for ( const cnShape* shape = cnWalkShapes( world, &walk ); shape != NULL; shape = cnWalkShapes( world, &walk ) )
	{
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
	walk = (cnShapeWalk){ added, b->firstShape, removed };
	for ( const cnShape* shape = cnWalkShapes( world, &walk ); shape != NULL; shape = cnWalkShapes( world, &walk ) )
	{
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
	out->maxExtent = maxExtent;

	if ( b->type != cnBody_dynamic )
	{
		return true;
	}

	// the shapes give the body an inertia to keep invertible (polygons and zero densities give none)
	bool rotates = inertia.cx.x > 0.0 || inertia.cy.y > 0.0 || inertia.cz.z > 0.0;
	if ( b->hasMassData )
	{
		mass = b->massOverride;
		center = b->userCenter;
		inertia = b->userInertia;
		rotates = true;
	}
	else if ( b->massOverride > 0.0 )
	{
		if ( mass > 0.0 )
		{
			double scale = b->massOverride / mass;
			// a scale outside the double range may still give a representable inertia in two steps
			inertia = scale >= DBL_MIN && scale <= DBL_MAX ? cnMulSM( scale, inertia )
														  : cnMulSM( b->massOverride, cnMulSM( 1.0 / mass, inertia ) );
		}
		mass = b->massOverride;
	}

	if ( mass <= 0.0 )
	{
		// a dynamic body without mass yet (no shapes, or only massless ones): a unit point mass so it
		// still moves sensibly
		mass = 1.0;
		inertia = cnMat3_zero;
		rotates = false;
	}

	out->mass = mass;
	out->invMass = 1.0 / mass;
	out->localCenter = center;
	out->inertia = inertia;
	out->invInertia = rotates ? cnInvertInertia( inertia ) : cnMat3_zero;
	double trace = inertia.cx.x + inertia.cy.y + inertia.cz.z;
	double tol = 1e-12 * trace;
	out->isotropic = fabs( inertia.cx.x - inertia.cy.y ) <= tol && fabs( inertia.cx.x - inertia.cz.z ) <= tol &&
					 fabs( inertia.cy.x ) <= tol && fabs( inertia.cz.x ) <= tol && fabs( inertia.cz.y ) <= tol;

	// what the step divides by or squares must stay in the double range
	if ( cnIsUsableMass( mass ) == false )
	{
		return cnSetError( cnError_invalidArgument, "the body's mass %s: %g kg (%s)", cnMassVerdict( mass ), mass,
						   cnMassProblem( mass ) );
	}
	if ( cnIsValidVec3( center ) == false )
	{
		return cnSetError( cnError_invalidArgument,
						   "the body's centre of mass is not finite (its shapes are too far from the body origin for "
						   "their mass)" );
	}
	if ( !( maxExtent <= DBL_MAX ) )
	{
		return cnSetError( cnError_invalidArgument,
						   "the body's extent is not finite: a shape is too far from its centre of mass (its squared "
						   "distance overflows)" );
	}
	double moments[3] = { inertia.cx.x, inertia.cy.y, inertia.cz.z };
	for ( int i = 0; i < 3 && rotates; ++i )
	{
		if ( cnIsUsableMass( moments[i] ) == false || cnIsFiniteMat3( inertia ) == false )
		{
			return cnSetError( cnError_invalidArgument,
							   "the body's moment of inertia %s: %g kg m^2 (%s; mass %g kg, shapes up to %g m from the "
							   "centre of mass)",
							   cnMassVerdict( moments[i] ), moments[i], cnMassProblem( moments[i] ), mass, maxExtent );
		}
	}
	cnMat3 inv = out->invInertia;
	bool invertible = cnIsFiniteMat3( inv ) && ( inv.cx.x > 0.0 || inv.cy.y > 0.0 || inv.cz.z > 0.0 );
	if ( rotates && invertible == false )
	{
		return cnSetError( cnError_invalidArgument,
						   "the body's inertia cannot be inverted in double precision: moments %g, %g, %g kg m^2",
						   inertia.cx.x, inertia.cy.y, inertia.cz.z );
	}
	return true;
}

void cnApplyBodyMass( cnBody* b, const cnBodyMass* m )
{
	b->mass = m->mass;
	b->invMass = m->invMass;
	b->inertia = m->inertia;
	b->invInertia = m->invInertia;
	b->localCenter = m->localCenter;
	b->maxExtent = m->maxExtent;
	if ( b->type != cnBody_dynamic )
	{
		b->center = b->xf.p;
		return;
	}
	b->isotropic = m->isotropic;

	// keep the origin fixed: the centre moves with the new local centre
	cnVec3 oldCenter = b->center;
	b->center = cnTransformPoint( b->xf, b->localCenter );
	// velocity of the new centre from the rigid motion about the old centre
	b->v = cnAdd( b->v, cnCross( b->w, cnSub( b->center, oldCenter ) ) );
}

void cnChangeBodyMass( cnWorld* world, cnBody* b, const cnBodyMass* m )
{
	cnApplyBodyMass( b, m );
	cnForgetRecycledContacts( world, (int)( b - world->bodies ) );
}

bool cnUpdateBodyMass( cnWorld* world, cnBody* b )
{
	cnBodyMass m;
	bool ok = cnComputeBodyMass( world, b, NULL, -1, &m );
	cnApplyBodyMass( b, &m );
	return ok;
}
