// SPDX-License-Identifier: MIT
// Generalised coordinates for the methods that assemble the contact problem as matrices (lcp,
// velocity-projection, generalized reflection, constraint): the map from bodies to degrees of
// freedom, the mass matrix and Jacobian rows. Per free body the velocity is (vx, vy, vz, wx, wy, wz)
// in 3D, or (vx, vy, wz) in a planar world (FOSSSim's basis x, y, theta). Static, kinematic and
// sleeping bodies have no degrees of freedom: their velocity enters only through the bias.
#pragma once

#include "world.h"

typedef struct cnDofMap
{
	// number of free bodies and their world body indices, in body index order
	int bodyCount;
	int* bodies;
	// per world body: the offset of its first degree of freedom, or -1 when it has none
	int* offset;
	// 3 (planar) or 6
	int dofsPerBody;
	// total degrees of freedom
	int n;
} cnDofMap;

/// Builds the map over the awake dynamic bodies; arrays come from the world's step arena.
void cnBuildDofMap( cnWorld* world, cnDofMap* map );

/// Writes the free bodies' velocities into qdot (n).
void cnGatherVelocities( const cnWorld* world, const cnDofMap* map, double* qdot );

/// Sets the free bodies' velocities from qdot (n).
void cnScatterVelocities( cnWorld* world, const cnDofMap* map, const double* qdot );

/// Dense mass matrix M (n x n, column-major): m I and the world inertia per body
/// (planar: m, m, Izz).
void cnBuildMassMatrix( const cnWorld* world, const cnDofMap* map, double* M );

/// Multiplies by the inverse mass matrix in place (block by block): x = M^-1 x.
void cnApplyInverseMass( const cnWorld* world, const cnDofMap* map, double* x );

/// The part of the relative velocity dir . (vB + wB x rB - vA - wA x rA) of body B's point pointB with
/// respect to body A's point pointA that comes from bodies without degrees of freedom (kinematic
/// bodies moving into a contact).
double cnFixedVelocity( const cnWorld* world, const cnDofMap* map, int bodyA, int bodyB, cnVec3 pointA, cnVec3 pointB,
						cnVec3 dir );
