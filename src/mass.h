// SPDX-License-Identifier: MIT
// A body's mass properties from its shapes (mass.c).
#pragma once

#include "shape.h"

/// A body's mass properties as cnUpdateBodyMass sets them.
typedef struct cnBodyMass
{
	double mass, invMass;
	cnVec3 localCenter;
	cnMat3 inertia, invInertia;
	bool isotropic;
	double maxExtent;
} cnBodyMass;

/// The range of the quantities derived from sizes, densities and forces (masses, volumes, moments
/// of inertia, the accelerations of user forces; SI units): about the square root of the double
/// range, so that the step's products of two of them (an inertia times a squared angular velocity,
/// a mass times a squared lever arm) neither overflow nor underflow.
#define CN_SAFE_MIN 1e-150
#define CN_SAFE_MAX 1e150

/// True for a mass, volume or moment of inertia in [CN_SAFE_MIN, CN_SAFE_MAX].
bool cnIsUsableMass( double value );

/// Why a value fails cnIsUsableMass, for messages: "underflow", "overflow", "below 1e-150", ...
const char* cnMassProblem( double value );

/// Checks the mass of one solid shape at a density: its mass and the moments of inertia about its
/// axes must be usable (cnIsUsableMass). Returns false with cnError_invalidArgument and a message
/// naming the quantity, its value and the size. sizeOnly: the check of a size alone (density 1, on
/// bodies whose mass is not used), whose messages speak of volume instead of mass.
bool cnCheckShapeMass( const cnGeometry* geometry, double density, bool sizeOnly );

/// Computes a body's mass properties from its shapes and mass settings as they will be after a
/// change: added is a shape about to be attached (not yet linked, NULL for none) and removed the
/// index of a shape about to be destroyed (-1 for none). The body itself is not changed. Returns
/// false with cnError_invalidArgument when a dynamic body's mass or inertia would be outside the
/// range of cnIsUsableMass or its inverse inertia, centre of mass or extent not finite (out is fully
/// set anyway).
bool cnComputeBodyMass( const cnWorld* world, const cnBody* body, const cnShape* added, int removed, cnBodyMass* out );

/// Gives a body the mass properties computed by cnComputeBodyMass, keeping its origin fixed (the
/// centre and its velocity follow).
void cnApplyBodyMass( cnBody* body, const cnBodyMass* mass );

/// cnApplyBodyMass for a body that may touch others: its contacts also collide afresh at the next
/// narrow phase (recycled manifolds hang from the old centre of mass).
void cnChangeBodyMass( cnWorld* world, cnBody* body, const cnBodyMass* mass );

/// Recomputes mass, centre of mass and inertia of a body from its shapes and mass override,
/// keeping its origin fixed. Returns what cnComputeBodyMass returns; the result is applied either
/// way (callers that can refuse a change check first).
bool cnUpdateBodyMass( cnWorld* world, cnBody* body );
