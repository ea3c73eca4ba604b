# SPDX-License-Identifier: MIT
"""Headless test of the add-on's rigid body constraints, run by tests/cli_blender.sh:

    blender -b --factory-startup --python-exit-code 1 \\
        --python test_joints_blender.py -- CAIRN WORKDIR

Builds a door (an active box) hinged to a passive frame about a horizontal axis, with angle
limits at which Blender's own simulation stops it at +10 degrees, and a chain of three cubes on
point constraints hanging from a passive hook; exports them with the add-on, runs cairn and
bakes; then checks the scene's joints, that the door stops where Blender's would, and that the
baked keyframes keep the hinge's anchor still and each point constraint's point shared by its
two bodies within 1e-3 m. Prints
"ok: WHAT" or "FAIL: WHAT" per check and exits 1 when a check failed."""

import json
import math
import os
import sys

import bpy
from mathutils import Vector

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
CAIRN, WORKDIR = os.path.abspath(argv[0]), argv[1]
sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 "..")))
from cairn import blender_io  # noqa: E402

failed = 0
TOL = 1e-3


def check(what, ok, detail=""):
    global failed
    print(("ok: " if ok else "FAIL: ") + what + ("" if ok or detail == "" else ": %s" % (detail,)))
    if not ok:
        failed += 1


for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
scene = bpy.context.scene
scene.render.fps = 24
scene.render.fps_base = 1.0
scene.frame_start = 1
scene.frame_end = 25          # 1 s
scene.gravity = (0.0, 0.0, -9.81)


def cube(name, location, size, scale=(1.0, 1.0, 1.0), type_='ACTIVE'):
    bpy.ops.mesh.primitive_cube_add(size=size, location=location)
    obj = bpy.context.active_object
    obj.name = name
    obj.scale = scale
    bpy.ops.rigidbody.object_add()
    obj.rigid_body.type = type_
    obj.rigid_body.collision_shape = 'BOX'
    return obj


def constraint(name, type_, location, ob1, ob2, rotation=(0.0, 0.0, 0.0)):
    bpy.ops.object.empty_add(location=location, rotation=rotation)
    obj = bpy.context.active_object
    obj.name = name
    bpy.ops.rigidbody.constraint_add(type=type_)
    obj.rigid_body_constraint.object1 = ob1
    obj.rigid_body_constraint.object2 = ob2
    return obj


# the door: a slab 1 m wide (x), 0.1 m thick, 1 m tall, hinged at its left edge to a passive post
# about the world y axis (the empty turned -90 degrees about x: its local Z is +y), so it falls
# and swings about the hinge like a trapdoor
frame = cube("Frame", (-0.6, 0.0, 2.0), 0.2, type_='PASSIVE')
door = cube("Door", (0.0, 0.0, 2.0), 1.0, scale=(1.0, 0.1, 0.1))
hinge = constraint("Hinge", 'HINGE', (-0.5, 0.0, 2.0), frame, door,
                   rotation=(-math.pi / 2, 0.0, 0.0))
# Z angle limits -10..60 degrees: Blender's own simulation stops this door at +10 degrees about
# +y (Bullet's hinge angle is Object 1's turn relative to Object 2, the opposite of Cairn's)
hinge.rigid_body_constraint.use_limit_ang_z = True
hinge.rigid_body_constraint.limit_ang_z_lower = math.radians(-10.0)
hinge.rigid_body_constraint.limit_ang_z_upper = math.radians(60.0)
# the chain: a passive hook and three 0.2 m cubes in a horizontal row, each joined to the next
# at the point halfway between them
hook = cube("Hook", (3.0, 0.0, 2.0), 0.2, type_='PASSIVE')
links = [cube("Link_%d" % i, (3.0 + 0.3 * i, 0.0, 2.0), 0.2) for i in (1, 2, 3)]
pins = []
for i, (a, b) in enumerate(zip([hook] + links[:-1], links)):
    pins.append(constraint("Pin_%d" % (i + 1), 'POINT', (3.15 + 0.3 * i, 0.0, 2.0), a, b))
bpy.context.view_layer.update()

bodies = [frame, door, hook] + links
result = blender_io.run_and_bake(scene, bodies, cairn_exe=CAIRN, method="impulse",
                                 workdir=WORKDIR)
with open(result.scene_path) as f:
    data = json.load(f)
joints = {j["name"]: j for j in data.get("joints", [])}
check("the scene has the hinge and three ball joints",
      sorted(joints) == ["Hinge", "Pin_1", "Pin_2", "Pin_3"], sorted(joints))
hj = joints.get("Hinge", {})
check("hinge: Frame to Door at (-0.5, 0, 2) about +y, limits_deg [-60, 10]",
      hj.get("type") == "hinge" and hj.get("bodies") == ["Frame", "Door"]
      and all(abs(a - b) < 1e-6 for a, b in zip(hj.get("anchor", []), (-0.5, 0, 2)))
      and all(abs(a - b) < 1e-6 for a, b in zip(hj.get("axis", []), (0, 1, 0)))
      and hj.get("limits_deg") == [-60, 10], hj)
check("ball joints join hook-link 1, link 1-link 2, link 2-link 3",
      [joints.get("Pin_%d" % i, {}).get("bodies") for i in (1, 2, 3)]
      == [["Hook", "Link_1"], ["Link_1", "Link_2"], ["Link_2", "Link_3"]])
check("no warnings", not result.warnings, result.warnings)
check("the door and the links are baked",
      all(o.animation_data is not None and o.animation_data.action is not None
          for o in [door] + links))

# each joint's anchor in its bodies' frames at the start
scene.frame_set(1)
locals_ = []
for c in [hinge] + pins:
    rbc = c.rigid_body_constraint
    p = c.matrix_world.translation.copy()
    locals_.append((c.name, p, [(o, o.matrix_world.inverted() @ p)
                                for o in (rbc.object1, rbc.object2)]))
worst = {}
moved = 0.0
lowest = 2.0
for f in range(scene.frame_start, scene.frame_end + 1):
    scene.frame_set(f)
    for name, p0, pairs in locals_:
        pts = [o.matrix_world @ lp for o, lp in pairs]
        err = max((pts[0] - pts[1]).length, (pts[1] - p0).length if name == "Hinge" else 0.0)
        worst[name] = max(worst.get(name, 0.0), err)
    lowest = min(lowest, links[2].matrix_world.translation.z)
    moved = max(moved, (door.matrix_world.translation - Vector((0.0, 0.0, 2.0))).length)
check("the door swings down (its centre moves over 0.05 m)", moved > 0.05, moved)
pitch = math.degrees(door.matrix_world.to_euler().y)
check("the door ends on its limit at +10 degrees about +y (as Blender's own simulation) "
      "within 2 degrees", abs(pitch - 10.0) < 2.0, pitch)
check("the chain swings down (link 3 drops over 0.3 m)", lowest < 1.7, lowest)
check("the hinge's anchor stays still on the door at every frame within 1e-3 m",
      worst["Hinge"] <= TOL, worst["Hinge"])
for i in (1, 2, 3):
    name = "Pin_%d" % i
    check("%s: its point stays shared by both bodies at every frame within 1e-3 m" % name,
          worst[name] <= TOL, worst[name])

print("worst joint errors, m: %s" % ", ".join("%s %.2g" % kv for kv in sorted(worst.items())))
print("blender joints test: %d failed" % failed)
sys.exit(1 if failed else 0)
