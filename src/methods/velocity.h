// SPDX-License-Identifier: MIT
// Velocity-level contact methods (lcp, velocity-projection, gr-lcp, gr-velocity-projection) and a
// hook that captures the contact system one of their steps solves, for printing it (the FOSSSim
// oracles list the LCP's A and b and the projection's M, -M qdot and N at the first contact).
// The step itself, cnStepVelocityLevel, is declared in world.h. See docs/method-velocity.md.
#pragma once

#include "world.h"

/// The contact system of one step of a velocity-level method, in the dof map's basis: per awake
/// dynamic body, in body index order, (vx, vy, vz, wx, wy, wz) or, in a planar world, (vx, vy, wz)
/// (FOSSSim's x, y, theta). One column of N per active contact point (contact order, then manifold
/// point order), along the point's normal (from body A to body B). Matrices are column-major:
/// X[i + j * rows] is row i, column j. Only the normal rows are kept; friction rows are not dumped.
typedef struct cnContactSystemDump
{
	/// set once a non-empty system was captured; later steps leave the dump alone
	bool captured;
	/// the world's method, and the simulated time at the start of the captured step
	cnMethod method;
	double time;
	/// degrees of freedom and active contact points
	int n, m;
	/// world body index (cnBodyId.index) of each free body, n / dofs-per-body of them
	int bodyCount;
	int* bodies;
	/// the pre-contact velocity qdot_minus (n): start velocity plus h times the forces
	double* qdot;
	/// mass matrix (n x n) and the projection's linear term -M qdot (n)
	double* M;
	double* minusMqdot;
	/// contact normals' Jacobian (n x m) and the constraint offsets c (m): the projection keeps
	/// N^T v + c >= 0, where c holds kinematic bodies' velocity and the restitution term e vn
	double* N;
	double* c;
	/// the LCP over the normals: A = N^T M^-1 N (m x m), b = N^T qdot + c (m), z >= 0 _|_ A z + b >= 0
	double* A;
	double* b;
} cnContactSystemDump;

/// Steps the world like cnWorld_Step and, if the dump has not captured a system yet and this step
/// of a velocity-level method has active contact points, fills the dump with that system (before
/// the solve). The dump must start zeroed ({ 0 }); call this for every step and read the dump once
/// captured is true. The request lives in a thread-local pointer for the duration of the call only,
/// so other worlds and threads are not affected and the step's results are identical to
/// cnWorld_Step's. Returns cnWorld_Step's result (false also when the dump's memory ran out).
bool cnStepAndCaptureContactSystem( cnWorld* world, double timeStep, cnContactSystemDump* dump );

/// Frees the dump's arrays and zeroes it (so it can capture again).
void cnFreeContactSystemDump( cnContactSystemDump* dump );
