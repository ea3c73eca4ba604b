// SPDX-License-Identifier: MIT
// Prints the size of every struct the Python bindings mirror with ctypes (python/cairn/_types.py)
// and the offset of each of its fields, one per line: "cnVec3 24", "cnVec3.x 0". The layout test
// (test_layout.py) compares them with ctypes' own, so a header change the mirrors miss fails CI.
#include "cairn/io.h"

#include <stddef.h>
#include <stdio.h>

#define SIZE( T ) printf( "%s %zu\n", #T, sizeof( T ) )
#define FIELD( T, f ) printf( "%s.%s %zu\n", #T, #f, offsetof( T, f ) )

int main( void )
{
	SIZE( cnVec3 );
	FIELD( cnVec3, x );
	FIELD( cnVec3, y );
	FIELD( cnVec3, z );

	SIZE( cnQuat );
	FIELD( cnQuat, w );
	FIELD( cnQuat, x );
	FIELD( cnQuat, y );
	FIELD( cnQuat, z );

	SIZE( cnMat3 );
	FIELD( cnMat3, cx );
	FIELD( cnMat3, cy );
	FIELD( cnMat3, cz );

	SIZE( cnTransform );
	FIELD( cnTransform, p );
	FIELD( cnTransform, q );

	SIZE( cnAABB );
	FIELD( cnAABB, lower );
	FIELD( cnAABB, upper );

	SIZE( cnBodyId );
	FIELD( cnBodyId, index );
	FIELD( cnBodyId, generation );

	SIZE( cnShapeId );
	FIELD( cnShapeId, index );
	FIELD( cnShapeId, generation );

	SIZE( cnImpulseSettings );
	FIELD( cnImpulseSettings, subSteps );
	FIELD( cnImpulseSettings, simd );
	FIELD( cnImpulseSettings, contactHertz );
	FIELD( cnImpulseSettings, contactDampingRatio );
	FIELD( cnImpulseSettings, maxPushVelocity );
	FIELD( cnImpulseSettings, relaxIterations );

	SIZE( cnVelocitySettings );
	FIELD( cnVelocitySettings, lcpSolver );
	FIELD( cnVelocitySettings, integrator );
	FIELD( cnVelocitySettings, positionCorrection );
	FIELD( cnVelocitySettings, speculativeContacts );

	SIZE( cnPenaltySettings );
	FIELD( cnPenaltySettings, errorTolerance );

	SIZE( cnConstraintSettings );
	FIELD( cnConstraintSettings, errorTolerance );
	FIELD( cnConstraintSettings, stabilizationHertz );
	FIELD( cnConstraintSettings, maxCorrectionSpeed );

	SIZE( cnMethodSettings );
	FIELD( cnMethodSettings, impulse );
	FIELD( cnMethodSettings, velocity );
	FIELD( cnMethodSettings, penalty );
	FIELD( cnMethodSettings, constraint );

	SIZE( cnWorldDef );
	FIELD( cnWorldDef, gravity );
	FIELD( cnWorldDef, planar );
	FIELD( cnWorldDef, method );
	FIELD( cnWorldDef, settings );
	FIELD( cnWorldDef, restitutionThreshold );
	FIELD( cnWorldDef, linearSlop );
	FIELD( cnWorldDef, speculativeDistance );
	FIELD( cnWorldDef, contactRecycleDistance );
	FIELD( cnWorldDef, enableContinuous );
	FIELD( cnWorldDef, enableSleep );
	FIELD( cnWorldDef, timeToSleep );
	FIELD( cnWorldDef, sleepLinearThreshold );
	FIELD( cnWorldDef, sleepAngularThreshold );
	FIELD( cnWorldDef, hitEventThreshold );
	FIELD( cnWorldDef, onInstability );
	FIELD( cnWorldDef, maxSpeed );
	FIELD( cnWorldDef, maxAngularSpeed );
	FIELD( cnWorldDef, maxEnergyGrowth );
	FIELD( cnWorldDef, workerCount );
	FIELD( cnWorldDef, enqueueTask );
	FIELD( cnWorldDef, finishTask );
	FIELD( cnWorldDef, userTaskContext );

	SIZE( cnBodyDef );
	FIELD( cnBodyDef, name );
	FIELD( cnBodyDef, type );
	FIELD( cnBodyDef, position );
	FIELD( cnBodyDef, orientation );
	FIELD( cnBodyDef, linearVelocity );
	FIELD( cnBodyDef, angularVelocity );
	FIELD( cnBodyDef, gravityScale );
	FIELD( cnBodyDef, linearDamping );
	FIELD( cnBodyDef, angularDamping );
	FIELD( cnBodyDef, dragCoefficient );
	FIELD( cnBodyDef, enableSleep );
	FIELD( cnBodyDef, isAwake );
	FIELD( cnBodyDef, isBullet );
	FIELD( cnBodyDef, userData );

	SIZE( cnMaterialDef );
	FIELD( cnMaterialDef, name );
	FIELD( cnMaterialDef, density );
	FIELD( cnMaterialDef, friction );
	FIELD( cnMaterialDef, restitution );
	FIELD( cnMaterialDef, stiffness );
	FIELD( cnMaterialDef, damping );
	FIELD( cnMaterialDef, color );
	FIELD( cnMaterialDef, texture );
	FIELD( cnMaterialDef, finish );
	FIELD( cnMaterialDef, ior );

	SIZE( cnShapeDef );
	FIELD( cnShapeDef, type );
	FIELD( cnShapeDef, radius );
	FIELD( cnShapeDef, halfExtents );
	FIELD( cnShapeDef, halfHeight );
	FIELD( cnShapeDef, normal );
	FIELD( cnShapeDef, offset );
	FIELD( cnShapeDef, vertexCount );
	FIELD( cnShapeDef, vertices );
	FIELD( cnShapeDef, hull );
	FIELD( cnShapeDef, mesh );
	FIELD( cnShapeDef, heightfield );
	FIELD( cnShapeDef, position );
	FIELD( cnShapeDef, orientation );
	FIELD( cnShapeDef, material );
	FIELD( cnShapeDef, categoryBits );
	FIELD( cnShapeDef, maskBits );
	FIELD( cnShapeDef, groupIndex );
	FIELD( cnShapeDef, enableContactEvents );
	FIELD( cnShapeDef, enableHitEvents );

	SIZE( cnStats );
	FIELD( cnStats, stepMs );
	FIELD( cnStats, forcesMs );
	FIELD( cnStats, broadPhaseMs );
	FIELD( cnStats, narrowPhaseMs );
	FIELD( cnStats, solveMs );
	FIELD( cnStats, integrateMs );
	FIELD( cnStats, finishMs );
	FIELD( cnStats, continuousMs );
	FIELD( cnStats, islandMs );
	FIELD( cnStats, guardMs );
	FIELD( cnStats, bodyCount );
	FIELD( cnStats, awakeBodyCount );
	FIELD( cnStats, shapeCount );
	FIELD( cnStats, pairCount );
	FIELD( cnStats, contactCount );
	FIELD( cnStats, touchingCount );
	FIELD( cnStats, manifoldPointCount );
	FIELD( cnStats, islandCount );
	FIELD( cnStats, sleepingIslandCount );
	FIELD( cnStats, recycledContactCount );
	FIELD( cnStats, stepCount );
	FIELD( cnStats, grFallbackCount );
	FIELD( cnStats, frictionFallbackCount );
	FIELD( cnStats, compliantFallbackCount );
	FIELD( cnStats, continuousHitCount );
	FIELD( cnStats, instabilityCount );
	FIELD( cnStats, frozenBodyCount );
	FIELD( cnStats, bytes );

	SIZE( cnFrame );
	FIELD( cnFrame, index );
	FIELD( cnFrame, time );

	SIZE( cnFrameWriter );
	FIELD( cnFrameWriter, writeFrame );
	FIELD( cnFrameWriter, finish );
	FIELD( cnFrameWriter, context );

	SIZE( cnRunProgress );
	FIELD( cnRunProgress, time );
	FIELD( cnRunProgress, startTime );
	FIELD( cnRunProgress, endTime );
	FIELD( cnRunProgress, stepCount );
	FIELD( cnRunProgress, totalSteps );
	FIELD( cnRunProgress, wallSeconds );
	FIELD( cnRunProgress, secondsLeft );
	FIELD( cnRunProgress, stepsPerSecond );
	FIELD( cnRunProgress, done );

	SIZE( cnRunDef );
	FIELD( cnRunDef, duration );
	FIELD( cnRunDef, fps );
	FIELD( cnRunDef, maxTimeStep );
	FIELD( cnRunDef, frameStride );
	FIELD( cnRunDef, writers );
	FIELD( cnRunDef, writerCount );
	FIELD( cnRunDef, beforeStep );
	FIELD( cnRunDef, afterStep );
	FIELD( cnRunDef, progress );
	FIELD( cnRunDef, progressInterval );
	FIELD( cnRunDef, context );

	SIZE( cnRunResult );
	FIELD( cnRunResult, status );
	FIELD( cnRunResult, frameCount );
	FIELD( cnRunResult, framesWritten );
	FIELD( cnRunResult, stepCount );
	FIELD( cnRunResult, stepsPerFrame );
	FIELD( cnRunResult, stepSize );
	FIELD( cnRunResult, wallSeconds );

	SIZE( cnScene );
	FIELD( cnScene, world );
	FIELD( cnScene, name );
	FIELD( cnScene, description );
	FIELD( cnScene, path );
	FIELD( cnScene, timeStep );
	FIELD( cnScene, duration );
	FIELD( cnScene, fps );
	FIELD( cnScene, warningCount );
	FIELD( cnScene, warnings );
	FIELD( cnScene, cameraCount );
	FIELD( cnScene, cameras );

	SIZE( cnFosssimSpring );
	FIELD( cnFosssimSpring, bodyI );
	FIELD( cnFosssimSpring, bodyJ );
	FIELD( cnFosssimSpring, indexI );
	FIELD( cnFosssimSpring, indexJ );
	FIELD( cnFosssimSpring, pointI );
	FIELD( cnFosssimSpring, pointJ );
	FIELD( cnFosssimSpring, k );
	FIELD( cnFosssimSpring, l0 );
	FIELD( cnFosssimSpring, b );

	SIZE( cnFosssimWind );
	FIELD( cnFosssimWind, velocity );
	FIELD( cnFosssimWind, beta );
	FIELD( cnFosssimWind, pointsPerEdge );

	SIZE( cnFosssimDisplay );
	FIELD( cnFosssimDisplay, hasViewport );
	FIELD( cnFosssimDisplay, viewportX );
	FIELD( cnFosssimDisplay, viewportY );
	FIELD( cnFosssimDisplay, viewportSize );
	FIELD( cnFosssimDisplay, maxSimFrequency );
	FIELD( cnFosssimDisplay, simType );
	FIELD( cnFosssimDisplay, hasBackground );
	FIELD( cnFosssimDisplay, background );
	FIELD( cnFosssimDisplay, hasBodyColor );
	FIELD( cnFosssimDisplay, bodyColor );
	FIELD( cnFosssimDisplay, hasSpringColor );
	FIELD( cnFosssimDisplay, springColor );

	SIZE( cnFosssimScene );
	FIELD( cnFosssimScene, scene );
	FIELD( cnFosssimScene, bodyCount );
	FIELD( cnFosssimScene, bodies );
	FIELD( cnFosssimScene, fixed );
	FIELD( cnFosssimScene, response );
	FIELD( cnFosssimScene, integrator );
	FIELD( cnFosssimScene, springCount );
	FIELD( cnFosssimScene, springs );
	FIELD( cnFosssimScene, windCount );
	FIELD( cnFosssimScene, winds );
	FIELD( cnFosssimScene, display );

	SIZE( cnContactPointData );
	FIELD( cnContactPointData, point );
	FIELD( cnContactPointData, normal );
	FIELD( cnContactPointData, separation );
	FIELD( cnContactPointData, normalImpulse );
	FIELD( cnContactPointData, tangentImpulse );
	FIELD( cnContactPointData, maxNormalImpulse );
	FIELD( cnContactPointData, id );

	SIZE( cnContactData );
	FIELD( cnContactData, shapeA );
	FIELD( cnContactData, shapeB );
	FIELD( cnContactData, bodyA );
	FIELD( cnContactData, bodyB );
	FIELD( cnContactData, normal );
	FIELD( cnContactData, pointCount );
	FIELD( cnContactData, points );
	return 0;
}
