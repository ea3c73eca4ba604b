// SPDX-License-Identifier: MIT
// FOSSSim rigid body scenes (XML, 2D): the scene files of the FOSSSim teaching simulator's rigid body
// assignments, loaded into a planar Cairn world (docs/fosssim.md).
//
// A FOSSSim rigid body is a closed polygon of point masses whose edges are thickened by a radius r:
// mass = sum m_i, centre of mass = the mass-weighted mean of the vertices, I = sum m_i |x_i - c|^2.
// Each body becomes a dynamic (or, with fixed="1", static) Cairn body whose origin is its centre of
// mass, with one polygon shape. Part of libcairn_io. Gravity becomes the world's gravity; springs and wind are force
// elements that cnFosssim_ApplyForces turns into forces before each step.
#pragma once

#include "cairn/scene.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A damped spring between points of two bodies, or between a body point and a world point.
typedef struct cnFosssimSpring
{
	/// the bodies at the two ends; the null id is a fixed world point
	cnBodyId bodyI, bodyJ;
	/// FOSSSim body indices of the ends (-1: world point)
	int indexI, indexJ;
	/// end points in body coordinates (relative to the centre of mass at the initial orientation),
	/// or world points for a null body
	cnVec3 pointI, pointJ;
	/// stiffness (N/m), rest length (m) and damping along the spring (N s/m, 0 when not given)
	double k, l0, b;
} cnFosssimSpring;

/// A wind force: every edge of every dynamic body, sampled at pointsPerEdge midpoints of equal
/// pieces, feels beta (l / pointsPerEdge) ((wind - v) . n) n at each sample, n the edge's normal.
typedef struct cnFosssimWind
{
	cnVec3 velocity;
	double beta;
	int pointsPerEdge;
} cnFosssimWind;

/// Display settings FOSSSim's viewer reads; kept as metadata, unused by the simulation.
typedef struct cnFosssimDisplay
{
	/// <viewport cx cy size>
	bool hasViewport;
	double viewportX, viewportY, viewportSize;
	/// <maxsimfreq max> (display frames per second limit; 0 when absent)
	double maxSimFrequency;
	/// <simtype type>
	char* simType;
	/// <backgroundcolor r g b>
	bool hasBackground;
	float background[3];
	/// <rigidbodycolor body r g b>: per body, hasColor[i] says whether one was given
	bool* hasBodyColor;
	float ( *bodyColor )[3];
	/// <rigidbodyspringcolor spring r g b>: per spring
	bool* hasSpringColor;
	float ( *springColor )[3];
} cnFosssimDisplay;

/// A loaded FOSSSim scene: the Cairn scene plus what cnScene cannot carry.
typedef struct cnFosssimScene
{
	/// the planar world and its run settings (owned)
	cnScene* scene;
	/// the bodies in file order (FOSSSim's body indices)
	int bodyCount;
	cnBodyId* bodies;
	/// whether each body is fixed (static)
	bool* fixed;
	/// the collision response named in the file ("" when collisions are off)
	char* response;
	/// the integrator named in the file
	cnIntegrator integrator;
	int springCount;
	cnFosssimSpring* springs;
	int windCount;
	cnFosssimWind* winds;
	cnFosssimDisplay display;
} cnFosssimScene;

/// Loads a FOSSSim XML scene; NULL on failure with one line in cnGetError():
/// "FILE:LINE: reason" (e.g. "t.xml:12: <rigidbody>: vertex index 7 out of range (6 vertices)").
/// The world is planar; its method follows <rigidbodycollisionhandling response=...> (without that
/// tag shapes never collide and the world uses the lcp method only to integrate: it then never
/// has contacts); its integrator and time step follow <rigidbodyintegrator type dt>.
CN_API cnFosssimScene* cnLoadFosssim( const char* path );

/// Same with the world's contact method replaced (the material still follows the file's response:
/// elastic for gr-*, inelastic otherwise; without collision handling shapes still never collide).
CN_API cnFosssimScene* cnLoadFosssimWithMethod( const char* path, cnMethod method );

/// Frees the FOSSSim parts and hands back the cnScene (the caller destroys it with cnDestroyScene).
CN_API cnScene* cnFosssim_ReleaseScene( cnFosssimScene* fosssim );

/// Frees a FOSSSim scene, its cnScene and world.
CN_API void cnDestroyFosssim( cnFosssimScene* fosssim );

/// Applies the springs' and winds' forces at the current state through cnBody_ApplyForce, for the
/// next step only: call it before every cnWorld_Step (FOSSSim evaluates forces at the start of a
/// step, for both of its integrators). Returns false when a body call fails.
CN_API bool cnFosssim_ApplyForces( cnFosssimScene* fosssim );

/// True when the scene has force elements (springs or wind) that need cnFosssim_ApplyForces.
CN_API bool cnFosssim_HasForceElements( const cnFosssimScene* fosssim );

/// Loads a FOSSSim scene as a plain cnScene. Scenes with springs or wind fail with a message that
/// says so, because a cnScene cannot apply them: use cnLoadFosssim for those.
CN_API cnScene* cnLoadFosssimScene( const char* path );

/// Prints a captured contact system (cnWorld_CaptureContactSystem) the way FOSSSim's oracle comments
/// print it: "A = ...", "b = ..." and the LCP's solution "lambda = ..." for lcp and gr-lcp; "M = ...",
/// "-M \dot q = ...", "N = ..." for the projections, after one line saying when and what. Rows are
/// the free bodies' (x, y, theta) in body order (3D worlds: 6 per body), fixed bodies left out;
/// columns of N (rows of A) are Cairn's contact points in contact order, which may differ from
/// FOSSSim's order. Numbers print with 6 significant digits. False when system was not captured.
CN_API bool cnFosssim_WriteContactSystem( FILE* out, const cnContactSystem* system );

/// True when path ends in ".xml" (any case): the files the command-line tool loads as FOSSSim scenes.
CN_API bool cnIsFosssimPath( const char* path );

#ifdef __cplusplus
}
#endif
