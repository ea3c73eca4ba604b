# SPDX-License-Identifier: MIT
"""ctypes mirrors of the C structs of include/cairn/*.h that the bindings pass by value or read.

Each class lists every field of its C struct in declaration order, so that ctypes lays it out as
the C compiler does. tests/python/test_layout.py compares the size and every field offset with
those a C program built against the headers prints (tests/python/layout.c), so a header change
that is not mirrored here fails the tests instead of corrupting memory. C enums are ints (gcc and
clang on the platforms Cairn builds on), C bool is c_bool."""

import ctypes
from ctypes import (POINTER, Structure, c_bool, c_char_p, c_double, c_float, c_int, c_int32,
                    c_int64, c_uint32, c_uint64, c_void_p)

c_enum = c_int


class Vec3(Structure):
    """cnVec3"""
    _fields_ = [("x", c_double), ("y", c_double), ("z", c_double)]


class Quat(Structure):
    """cnQuat: w + xi + yj + zk"""
    _fields_ = [("w", c_double), ("x", c_double), ("y", c_double), ("z", c_double)]


class Mat3(Structure):
    """cnMat3, stored by columns"""
    _fields_ = [("cx", Vec3), ("cy", Vec3), ("cz", Vec3)]


class Transform(Structure):
    """cnTransform"""
    _fields_ = [("p", Vec3), ("q", Quat)]


class AABB(Structure):
    """cnAABB"""
    _fields_ = [("lower", Vec3), ("upper", Vec3)]


class BodyId(Structure):
    """cnBodyId"""
    _fields_ = [("index", c_int32), ("generation", c_uint32)]


class ShapeId(Structure):
    """cnShapeId"""
    _fields_ = [("index", c_int32), ("generation", c_uint32)]


class ImpulseSettings(Structure):
    """cnImpulseSettings"""
    _fields_ = [("subSteps", c_int), ("simd", c_int), ("contactHertz", c_double), ("contactDampingRatio", c_double),
                ("maxPushVelocity", c_double), ("relaxIterations", c_int)]


class VelocitySettings(Structure):
    """cnVelocitySettings"""
    _fields_ = [("lcpSolver", c_enum), ("integrator", c_enum), ("positionCorrection", c_bool),
                ("speculativeContacts", c_bool)]


class PenaltySettings(Structure):
    """cnPenaltySettings"""
    _fields_ = [("errorTolerance", c_double)]


class ConstraintSettings(Structure):
    """cnConstraintSettings"""
    _fields_ = [("errorTolerance", c_double), ("stabilizationHertz", c_double),
                ("maxCorrectionSpeed", c_double)]


class MethodSettings(Structure):
    """cnMethodSettings"""
    _fields_ = [("impulse", ImpulseSettings), ("velocity", VelocitySettings),
                ("penalty", PenaltySettings), ("constraint", ConstraintSettings)]


class WorldDef(Structure):
    """cnWorldDef"""
    _fields_ = [("gravity", Vec3), ("planar", c_bool), ("method", c_enum), ("settings", MethodSettings),
                ("restitutionThreshold", c_double), ("linearSlop", c_double),
                ("speculativeDistance", c_double), ("contactRecycleDistance", c_double),
                ("enableContinuous", c_bool), ("enableSleep", c_bool),
                ("timeToSleep", c_double), ("sleepLinearThreshold", c_double),
                ("sleepAngularThreshold", c_double), ("hitEventThreshold", c_double),
                ("onInstability", c_enum), ("maxSpeed", c_double), ("maxAngularSpeed", c_double),
                ("maxEnergyGrowth", c_double), ("workerCount", c_int), ("enqueueTask", c_void_p),
                ("finishTask", c_void_p), ("userTaskContext", c_void_p)]


class BodyDef(Structure):
    """cnBodyDef"""
    _fields_ = [("name", c_char_p), ("type", c_enum), ("position", Vec3), ("orientation", Quat),
                ("linearVelocity", Vec3), ("angularVelocity", Vec3), ("gravityScale", c_double),
                ("linearDamping", c_double), ("angularDamping", c_double), ("dragCoefficient", c_double),
                ("enableSleep", c_bool), ("isAwake", c_bool), ("isBullet", c_bool), ("userData", c_uint64)]


class MaterialDef(Structure):
    """cnMaterialDef"""
    _fields_ = [("name", c_char_p), ("density", c_double), ("friction", c_double),
                ("restitution", c_double), ("stiffness", c_double), ("damping", c_double),
                ("color", c_float * 3), ("texture", c_char_p), ("finish", c_enum), ("ior", c_double)]


class ShapeDef(Structure):
    """cnShapeDef"""
    _fields_ = [("type", c_enum), ("radius", c_double), ("halfExtents", Vec3), ("halfHeight", c_double),
                ("normal", Vec3), ("offset", c_double), ("vertexCount", c_int),
                ("vertices", POINTER(Vec3)), ("hull", c_void_p), ("mesh", c_void_p),
                ("heightfield", c_void_p), ("position", Vec3), ("orientation", Quat),
                ("material", c_int32), ("categoryBits", c_uint64), ("maskBits", c_uint64),
                ("groupIndex", c_int32), ("enableContactEvents", c_bool), ("enableHitEvents", c_bool)]


class Stats(Structure):
    """cnStats"""
    _fields_ = [("stepMs", c_double), ("forcesMs", c_double), ("broadPhaseMs", c_double),
                ("narrowPhaseMs", c_double), ("solveMs", c_double), ("integrateMs", c_double),
                ("finishMs", c_double), ("continuousMs", c_double), ("islandMs", c_double),
                ("guardMs", c_double),
                ("bodyCount", c_int), ("awakeBodyCount", c_int), ("shapeCount", c_int),
                ("pairCount", c_int), ("contactCount", c_int), ("touchingCount", c_int),
                ("manifoldPointCount", c_int), ("islandCount", c_int), ("sleepingIslandCount", c_int),
                ("recycledContactCount", c_int),
                ("stepCount", c_int64), ("grFallbackCount", c_int64), ("frictionFallbackCount", c_int64),
                ("compliantFallbackCount", c_int64), ("continuousHitCount", c_int64),
                ("instabilityCount", c_int64), ("frozenBodyCount", c_int64), ("bytes", c_int64)]


class Frame(Structure):
    """cnFrame"""
    _fields_ = [("index", c_int), ("time", c_double)]


WriteFrameFn = ctypes.CFUNCTYPE(c_bool, c_void_p, c_void_p, POINTER(Frame))
FinishFn = ctypes.CFUNCTYPE(c_bool, c_void_p, c_bool)
StepFn = ctypes.CFUNCTYPE(c_bool, c_void_p, c_void_p)


class FrameWriter(Structure):
    """cnFrameWriter"""
    _fields_ = [("writeFrame", WriteFrameFn), ("finish", FinishFn), ("context", c_void_p)]


class RunProgress(Structure):
    """cnRunProgress"""
    _fields_ = [("time", c_double), ("startTime", c_double), ("endTime", c_double),
                ("stepCount", c_int64), ("totalSteps", c_int64), ("wallSeconds", c_double),
                ("secondsLeft", c_double), ("stepsPerSecond", c_double), ("done", c_bool)]


ProgressFn = ctypes.CFUNCTYPE(None, POINTER(RunProgress), c_void_p)


class RunDef(Structure):
    """cnRunDef"""
    _fields_ = [("duration", c_double), ("fps", c_double), ("maxTimeStep", c_double),
                ("frameStride", c_int), ("writers", POINTER(FrameWriter)), ("writerCount", c_int),
                ("beforeStep", StepFn), ("afterStep", StepFn), ("progress", ProgressFn),
                ("progressInterval", c_double), ("context", c_void_p)]


class RunResult(Structure):
    """cnRunResult"""
    _fields_ = [("status", c_enum), ("frameCount", c_int), ("framesWritten", c_int),
                ("stepCount", c_int64), ("stepsPerFrame", c_int), ("stepSize", c_double),
                ("wallSeconds", c_double)]


class Scene(Structure):
    """cnScene (cameras are left as an opaque pointer: the bindings do not read them)"""
    _fields_ = [("world", c_void_p), ("name", c_char_p), ("description", c_char_p), ("path", c_char_p),
                ("timeStep", c_double), ("duration", c_double), ("fps", c_double),
                ("warningCount", c_int), ("warnings", POINTER(c_char_p)), ("cameraCount", c_int),
                ("cameras", c_void_p)]


class FosssimSpring(Structure):
    """cnFosssimSpring"""
    _fields_ = [("bodyI", BodyId), ("bodyJ", BodyId), ("indexI", c_int), ("indexJ", c_int),
                ("pointI", Vec3), ("pointJ", Vec3), ("k", c_double), ("l0", c_double), ("b", c_double)]


class FosssimWind(Structure):
    """cnFosssimWind"""
    _fields_ = [("velocity", Vec3), ("beta", c_double), ("pointsPerEdge", c_int)]


class FosssimDisplay(Structure):
    """cnFosssimDisplay"""
    _fields_ = [("hasViewport", c_bool), ("viewportX", c_double), ("viewportY", c_double),
                ("viewportSize", c_double), ("maxSimFrequency", c_double), ("simType", c_char_p),
                ("hasBackground", c_bool), ("background", c_float * 3), ("hasBodyColor", POINTER(c_bool)),
                ("bodyColor", POINTER(c_float * 3)), ("hasSpringColor", POINTER(c_bool)),
                ("springColor", POINTER(c_float * 3))]


class FosssimScene(Structure):
    """cnFosssimScene"""
    _fields_ = [("scene", POINTER(Scene)), ("bodyCount", c_int), ("bodies", POINTER(BodyId)),
                ("fixed", POINTER(c_bool)), ("response", c_char_p), ("integrator", c_enum),
                ("springCount", c_int), ("springs", POINTER(FosssimSpring)), ("windCount", c_int),
                ("winds", POINTER(FosssimWind)), ("display", FosssimDisplay)]


# Every mirrored struct under its C name: what the layout test checks.
class ContactPointData(Structure):
    """cnContactPointData"""
    _fields_ = [("point", Vec3), ("normal", Vec3), ("separation", c_double), ("normalImpulse", c_double),
                ("tangentImpulse", c_double), ("maxNormalImpulse", c_double), ("id", c_uint32)]


class ContactData(Structure):
    """cnContactData"""
    _fields_ = [("shapeA", ShapeId), ("shapeB", ShapeId), ("bodyA", BodyId), ("bodyB", BodyId), ("normal", Vec3),
                ("pointCount", c_int), ("points", ContactPointData * 4)]


MIRRORED = {
    "cnVec3": Vec3, "cnQuat": Quat, "cnMat3": Mat3, "cnTransform": Transform, "cnAABB": AABB,
    "cnBodyId": BodyId, "cnShapeId": ShapeId, "cnImpulseSettings": ImpulseSettings,
    "cnVelocitySettings": VelocitySettings, "cnPenaltySettings": PenaltySettings,
    "cnConstraintSettings": ConstraintSettings, "cnMethodSettings": MethodSettings,
    "cnWorldDef": WorldDef, "cnBodyDef": BodyDef, "cnMaterialDef": MaterialDef, "cnShapeDef": ShapeDef,
    "cnStats": Stats, "cnFrame": Frame, "cnFrameWriter": FrameWriter, "cnRunProgress": RunProgress,
    "cnRunDef": RunDef, "cnRunResult": RunResult, "cnScene": Scene, "cnFosssimSpring": FosssimSpring,
    "cnFosssimWind": FosssimWind, "cnFosssimDisplay": FosssimDisplay, "cnFosssimScene": FosssimScene,
    "cnContactPointData": ContactPointData, "cnContactData": ContactData,
}

# enum values (include/cairn/types.h)
BODY_TYPES = ("static", "kinematic", "dynamic")
SHAPE_SPHERE, SHAPE_BOX, SHAPE_CAPSULE, SHAPE_CYLINDER, SHAPE_PLANE = 0, 1, 2, 3, 4
RUN_STATUS = ("finished", "stopped", "cancelled", "failed")
