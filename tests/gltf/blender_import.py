# SPDX-License-Identifier: MIT
# Imports a glTF file written by `cairn export` into headless Blender (3.4+) with its own glTF
# importer and checks what tests/cli_export.sh tells it: the number of body objects, and bodies' world
# positions and orientations at some frames against what Cairn computed (from `cairn run --csv`).
#
#   blender -b --factory-startup --python blender_import.py -- FILE.glb FPS BODIES CHECKS [JOINTS PIECES]
#
# FPS: the recording's frame rate (the importer places a key at time t on frame t * the scene's
# fps, so with the scene at FPS, frame k is the recording's frame k); BODIES: how many bodies the
# recording has; CHECKS: a file of lines "BODY FRAME X Y Z QW QX QY QZ": the body's position in
# Cairn's coordinates (metres) and its orientation (a unit quaternion) at that frame. JOINTS: how many
# joints the recording has; PIECES: a file of lines "PIECE FRAME AX AY AZ BX BY BZ": a joint's
# cylinder piece (a node named "JOINT rod", ..., its spaces written as "_") runs from A to B (Cairn's
# coordinates) at that frame.
# Prints one "ok: ..." or "FAIL: ..." line per check and "blender import: N passed, N failed";
# exits 1 when a check failed.
import sys

import bpy
import mathutils
import numpy

# Debian 12's Blender 3.4 importer still uses numpy.bool, which numpy 1.24 (Debian's) removed: give
# the alias back (it always meant the builtin bool), or every mesh fails to import
if "bool" not in numpy.__dict__:
    numpy.bool = bool

TOLERANCE = 1e-4

args = sys.argv[sys.argv.index("--") + 1:]
path, fps, body_count, checks_path = args[0], int(args[1]), int(args[2]), args[3]
joint_count = int(args[4]) if len(args) > 4 else 0
pieces_path = args[5] if len(args) > 5 else None
passed = 0
failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok: " + what)
    else:
        failed += 1
        print("FAIL: " + what + (": " + detail if detail else ""))


scene = bpy.context.scene
# the factory scene's cube, camera and light would be counted with the import
for obj in list(bpy.data.objects):
    bpy.data.objects.remove(obj, do_unlink=True)
scene.render.fps = fps
scene.render.fps_base = 1.0

result = bpy.ops.import_scene.gltf(filepath=path)
check("the importer finished", result == {"FINISHED"}, str(result))

# bodies are the root nodes the exporter marked (Blender keeps node extras as custom properties);
# shapes are their children, and the camera is a root of its own; joints are root empties marked
# likewise, their pieces mesh children
bodies = {obj.name: obj for obj in scene.objects if "cairnBodyType" in obj.keys()}
joints = {obj.name: obj for obj in scene.objects if "cairnJointType" in obj.keys()}
roots = [obj for obj in scene.objects if obj.parent is None and obj.type == "EMPTY" and obj.name not in joints]
check("%d body objects" % body_count, len(bodies) == body_count, "found %d" % len(bodies))
check("every body is a root empty", len(roots) == body_count, "found %d root empties" % len(roots))
check("bodies carry their shapes as mesh children",
      all(len(b.children) > 0 and all(c.type == "MESH" for c in b.children) for b in bodies.values()))
check("%d joint objects" % joint_count, len(joints) == joint_count, "found %d" % len(joints))
check("joints are root empties carrying their pieces as mesh children",
      all(j.parent is None and j.type == "EMPTY" and len(j.children) > 0 and all(c.type == "MESH" for c in j.children)
          for j in joints.values()))
check("one camera", len([o for o in scene.objects if o.type == "CAMERA"]) == 1)

with open(checks_path) as f:
    for line in f:
        if not line.strip():
            continue
        fields = line.split()
        name, frame = fields[0], int(fields[1])
        expected = tuple(float(v) for v in fields[2:5])
        quaternion = tuple(float(v) for v in fields[5:9])
        obj = bodies.get(name)
        if obj is None:
            check("body %s exists" % name, False)
            continue
        scene.frame_set(frame)
        got = tuple(obj.matrix_world.translation)
        error = max(abs(a - b) for a, b in zip(got, expected))
        check("%s at frame %d is at (%.6f, %.6f, %.6f) within %g m" % ((name, frame) + expected + (TOLERANCE,)),
              error <= TOLERANCE, "Blender has (%.6f, %.6f, %.6f), off by %.3g m" % (got + (error,)))
        # q and -q are the same turn
        q = obj.matrix_world.to_quaternion()
        got = (q.w, q.x, q.y, q.z)
        error = min(max(abs(a - b) for a, b in zip(got, quaternion)), max(abs(a + b) for a, b in zip(got, quaternion)))
        check("%s at frame %d is turned by (%.6f, %.6f, %.6f, %.6f) within %g" % ((name, frame) + quaternion + (TOLERANCE,)),
              error <= TOLERANCE, "Blender has (%.6f, %.6f, %.6f, %.6f), off by %.3g" % (got + (error,)))

# a joint's cylinder (a unit cylinder along its local axis, from -0.5 to 0.5) runs between the
# anchors: the importer turned glTF's y-up axis into Blender's z
if pieces_path is not None:
    with open(pieces_path) as f:
        for line in f:
            if not line.strip():
                continue
            fields = line.split()
            name, frame = fields[0].replace("_", " "), int(fields[1])
            a = tuple(float(v) for v in fields[2:5])
            b = tuple(float(v) for v in fields[5:8])
            obj = scene.objects.get(name)
            if obj is None:
                check("joint piece %s exists" % name, False)
                continue
            scene.frame_set(frame)
            ends = [tuple(obj.matrix_world @ mathutils.Vector((0.0, 0.0, z))) for z in (-0.5, 0.5)]
            error = max(max(abs(p - q) for p, q in zip(ends[0], a)), max(abs(p - q) for p, q in zip(ends[1], b)))
            check("%s at frame %d runs from (%.6f, %.6f, %.6f) to (%.6f, %.6f, %.6f) within %g m" % ((name, frame) + a + b + (TOLERANCE,)),
                  error <= TOLERANCE, "Blender has (%.6f, %.6f, %.6f) to (%.6f, %.6f, %.6f), off by %.3g m" % (ends[0] + ends[1] + (error,)))

print("blender import: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed > 0 else 0)
