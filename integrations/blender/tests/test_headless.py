# SPDX-License-Identifier: MIT
"""Headless test of the Cairn add-on, run by tests/cli_blender.sh:

    blender -b --factory-startup --python-exit-code 1 --python test_headless.py -- CAIRN_EXE WORKDIR

Builds a small scene (a passive ground box, an active sphere dropped from 2 m, an active box
turned at the start), runs the add-on's export-run-bake with the given cairn, and checks the scene
JSON, the baked keyframes against cairn's CSV, and the operators. Prints one line per check,
"ok: WHAT" or "FAIL: WHAT", and exits 1 when a check failed."""

import json
import math
import os
import subprocess
import sys

import bpy
from mathutils import Euler

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
CAIRN, WORKDIR = os.path.abspath(argv[0]), argv[1]
ADDON_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, ADDON_DIR)

failed = 0


def check(what, ok, detail=""):
    global failed
    if ok:
        print("ok: " + what)
    else:
        failed += 1
        print("FAIL: " + what + (": " + str(detail) if detail != "" else ""))


def near(a, b, tol):
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


def quat_near(a, b, tol):
    """a and b are the same rotation within tol (q and -q are the same)."""
    return near(a, b, tol) or near(a, [-c for c in b], tol)


# --- the add-on: registered through Blender's add-on system, so its preferences exist ---------
import addon_utils  # noqa: E402

addon_utils.enable("cairn", default_set=True, handle_error=None)
import cairn  # noqa: E402
from cairn import blender_io, scene_export as cx  # noqa: E402

check("the add-on is enabled", "cairn" in bpy.context.preferences.addons)
check("the operators are registered",
      all(hasattr(bpy.types, n) for n in ("CAIRN_OT_simulate", "CAIRN_OT_export_scene",
                                          "CAIRN_OT_clear_bake")))
check("the panels are registered",
      hasattr(bpy.types, "VIEW3D_PT_cairn") and hasattr(bpy.types, "PHYSICS_PT_cairn"))
check("bl_info asks for Blender 3.4", cairn.bl_info["blender"] == (3, 4, 0))

# the method enum holds exactly the methods `cairn --help` lists
help_text = subprocess.run([CAIRN, "--help"], stdout=subprocess.PIPE,
                           universal_newlines=True).stdout
lines = help_text.split("Contact methods", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
help_methods = [ln.split()[0] for ln in lines if ln.strip()]
enum_methods = [i.identifier for i in
                bpy.types.Scene.bl_rna.properties["cairn"].fixed_type.properties["method"]
                .enum_items]
check("the method enum equals cairn --help's methods", enum_methods == help_methods,
      (enum_methods, help_methods))

# --- the scene ----------------------------------------------------------------------------------
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
scene = bpy.context.scene
scene.render.fps = 24
scene.render.fps_base = 1.0
scene.frame_start = 1
scene.frame_end = 49          # 2 s
scene.gravity = (0.0, 0.0, -9.81)


def add(kind, name, location, **kw):
    if kind == "sphere":
        bpy.ops.mesh.primitive_uv_sphere_add(radius=kw.pop("radius"), location=location)
    else:
        bpy.ops.mesh.primitive_cube_add(size=kw.pop("size"), location=location)
    obj = bpy.context.active_object
    obj.name = name
    bpy.ops.rigidbody.object_add()
    for k, v in kw.items():
        if k in ("scale", "rotation_euler"):
            setattr(obj, k, v)
        else:
            setattr(obj.rigid_body, k, v)
    return obj


ground = add("cube", "Ground", (0.0, 0.0, -0.1), size=2.0, scale=(5.0, 5.0, 0.1), type='PASSIVE',
             collision_shape='BOX', friction=0.8, restitution=0.5)
ball = add("sphere", "Ball", (0.0, 0.0, 2.0), radius=0.25, collision_shape='SPHERE', mass=2.0,
           friction=0.5, restitution=0.6, linear_damping=0.0, angular_damping=0.0)
crate = add("cube", "Crate box", (1.5, 0.5, 1.5), size=0.5, scale=(1.2, 0.8, 0.6),
            rotation_euler=(0.3, 0.5, 0.7), collision_shape='BOX', mass=3.0, friction=0.4,
            restitution=0.1)
red = bpy.data.materials.new("Red rubber")
red.diffuse_color = (0.8, 0.1, 0.1, 1.0)
ball.data.materials.append(red)
bpy.context.view_layer.update()
crate_rotation = crate.matrix_world.to_quaternion()

check("Blender made a rigid body world", scene.rigidbody_world is not None)

# --- export, run and bake -----------------------------------------------------------------------
objects = [ground, ball, crate]
result = blender_io.run_and_bake(scene, objects, cairn_exe=CAIRN, method="impulse",
                                 workdir=WORKDIR)
with open(result.scene_path) as f:
    data = json.load(f)
check("the scene file holds the scene returned", data == result.scene)
check("format version 1", data.get("cairn") == 1)
check("gravity from the scene", data.get("gravity") == [0.0, 0.0, -9.81], data.get("gravity"))
check("fps from the scene", data.get("fps") == 24.0, data.get("fps"))
check("duration (49 - 1) / 24 = 2 s", abs(data.get("duration", 0) - 2.0) < 1e-12)
check("method impulse", data.get("method") == "impulse")
# Blender's default rigid body world: 10 substeps per frame
check("timestep 1 / (24 fps x 10 substeps)", abs(data.get("timestep", 0) - 1 / 240) < 1e-12)
bodies = {b["name"]: b for b in data["bodies"]}
check("three bodies, names valid and unique", sorted(bodies) == ["Ball", "Crate_box", "Ground"],
      sorted(bodies))
check("name map", result.names == {"Ground": "Ground", "Ball": "Ball", "Crate box": "Crate_box"},
      result.names)
g, b, c = bodies.get("Ground", {}), bodies.get("Ball", {}), bodies.get("Crate_box", {})
check("ground: static box 5 x 5 x 0.1 at z = -0.1",
      g.get("type") == "static" and g["shapes"] == [{"type": "box",
                                                    "half_extents": [5.0, 5.0, 0.1]}]
      and near(g["position"], [0, 0, -0.1], 1e-7) and "mass" not in g, g)
check("ball: dynamic sphere r = 0.25, 2 kg, at z = 2",
      b.get("type") == "dynamic" and b["shapes"] == [{"type": "sphere", "radius": 0.25}]
      and b.get("mass") == 2.0 and near(b["position"], [0, 0, 2], 1e-7)
      and b["orientation"] == [1.0, 0.0, 0.0, 0.0], b)
check("crate: dynamic box, scale folded into half extents 0.3 x 0.2 x 0.15, 3 kg",
      c.get("type") == "dynamic" and c["shapes"][0]["type"] == "box"
      and near(c["shapes"][0]["half_extents"], [0.3, 0.2, 0.15], 1e-7)
      and c.get("mass") == 3.0 and near(c["position"], [1.5, 0.5, 1.5], 1e-7), c)
check("crate: orientation [w, x, y, z] of its Euler rotation",
      quat_near(c.get("orientation", []), list(Euler((0.3, 0.5, 0.7)).to_quaternion()), 1e-6),
      c.get("orientation"))
check("Blender's default damping 0.04 / 0.1 as rates -ln(1 - d); none for damping 0",
      abs(c.get("linear_damping", 0) - (-math.log(0.96))) < 1e-6
      and abs(c.get("angular_damping", 0) - (-math.log(0.9))) < 1e-6
      and "linear_damping" not in b and "angular_damping" not in b, (b, c))
mats = data.get("materials", {})
mg, mb, mc = (mats.get(x.get("material"), {}) for x in (g, b, c))
check("ground material (named after the object): friction 0.8, bounciness 0.5",
      g.get("material") == "Ground" and mg.get("friction") == 0.8 and mg.get("restitution") == 0.5, mg)
check("ball material named after the Blender material, with its viewport colour",
      b.get("material") == "Red_rubber" and mb.get("friction") == 0.5
      and mb.get("restitution") == 0.6 and mb.get("color") == [0.8, 0.1, 0.1], (b, mb))
check("crate material: friction 0.4, bounciness 0.1, no colour",
      mc.get("friction") == 0.4 and mc.get("restitution") == 0.1 and "color" not in mc, mc)
pairs = {tuple(sorted(p["materials"])): p for p in data.get("material_pairs", [])}
gb = pairs.get(tuple(sorted((g.get("material"), b.get("material")))), {})
check("material pairs combine like Blender: products", len(pairs) == 6
      and abs(gb.get("friction", 0) - 0.4) < 1e-9 and abs(gb.get("restitution", 0) - 0.3) < 1e-9,
      gb)
info = subprocess.run([CAIRN, "info", result.scene_path], stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, universal_newlines=True)
check("cairn info loads the exported scene", info.returncode == 0, info.stderr)

# --- the bake against the CSV -------------------------------------------------------------------
csv_rows = cx.read_csv(result.csv_path)
check("the CSV has 49 frames of the two dynamic bodies",
      sorted(csv_rows) == ["Ball", "Crate_box"]
      and all(len(v) == 49 for v in csv_rows.values()), {k: len(v) for k, v in csv_rows.items()})
check("Blender's simulation is off after the bake", not scene.rigidbody_world.enabled)
check("the ground is not baked", ground.animation_data is None and "cairn_body" not in ground)
for obj in (ball, crate):
    fcs = obj.animation_data.action.fcurves
    check("%s: 3 location and 4 quaternion curves of 49 keys, rotation mode QUATERNION" % obj.name,
          obj.rotation_mode == 'QUATERNION'
          and sorted((fc.data_path, fc.array_index) for fc in fcs)
          == [("location", i) for i in range(3)] + [("rotation_quaternion", i) for i in range(4)]
          and all(len(fc.keyframe_points) == 49 for fc in fcs))

fps = 24.0


def csv_at(body, frame):
    """The CSV row of body at the time of frame: t = (frame - 1) / 24."""
    t = (frame - 1) / fps
    for time, pos, q in csv_rows[body]:
        if abs(time - t) < 1e-6:
            return pos, q
    raise KeyError((body, frame))


for frame in (1, 2, 13, 25, 37, 49):
    scene.frame_set(frame)
    for obj, body in ((ball, "Ball"), (crate, "Crate_box")):
        loc, rot, _ = obj.matrix_world.decompose()
        pos, q = csv_at(body, frame)
        check("%s at frame %d (t = %.4g s) is the CSV's state" % (body, frame, (frame - 1) / fps),
              near(loc, pos, 1e-4) and quat_near(rot, q, 1e-4), (tuple(loc), pos, tuple(rot), q))
scene.frame_set(1)
check("frame 1 is the start: the crate keeps its rotation",
      quat_near(crate.matrix_world.to_quaternion(), crate_rotation, 1e-5))

# the ball: its z at every frame follows the CSV; in free fall z = 2 - g t^2 / 2; at the end at
# rest on the ground at its radius
worst = 0.0
for frame in range(1, 50):
    scene.frame_set(frame)
    worst = max(worst, abs(ball.matrix_world.translation.z - csv_at("Ball", frame)[0][2]))
check("ball z at every frame equals the CSV within 1e-4 m", worst <= 1e-4, worst)
# symplectic Euler on the impulse method's 5 sub-steps (its default) of each 1/240 s step
# (h = 1/1200 s) falls z = 2 - g t^2 / 2 - g h t / 2 (as in cli_basic.sh); a frame off would be 0.2 m off
free_fall = []
h = 1.0 / 1200.0
for frame in range(1, 13):    # t <= 0.46 s: the ball meets the ground at t = 0.6 s
    scene.frame_set(frame)
    t = (frame - 1) / fps
    free_fall.append(abs(ball.matrix_world.translation.z - (2.0 - 9.81 * (t * t + h * t) / 2)))
check("ball in free fall: z(frame) = 2 - g (t^2 + h t) / 2 with t = (frame - 1) / fps within "
      "1e-4 m", max(free_fall) < 1e-4, max(free_fall))
scene.frame_set(49)
check("ball ends resting on the ground at z = radius within 1 cm",
      abs(ball.matrix_world.translation.z - 0.25) < 0.01, ball.matrix_world.translation.z)
check("the crate ends on the ground", crate.matrix_world.translation.z < 0.35,
      crate.matrix_world.translation.z)

# --- the mapping on plain data (scene_export needs no bpy) --------------------------------------
def spec(name, **kw):
    d = {"name": name, "type": "ACTIVE", "shape": "BOX", "location": (0, 0, 1),
         "rotation": (1, 0, 0, 0), "scale": (1, 1, 1), "bbox_min": (-1, -1, -1),
         "bbox_max": (1, 1, 1)}
    d.update(kw)
    return d


plane = dict(type="PASSIVE", location=(0, 0, 0), bbox_min=(-1, -1, 0), bbox_max=(1, 1, 0),
             scale=(10, 10, 1))
specs = [spec("a b", **plane), spec("a_b", shape="CAPSULE", scale=(0.5, 0.5, 1)),
         spec("c", shape="CYLINDER", scale=(0.5, 0.5, 2)), spec("d", shape="CONVEX_HULL"),
         spec("e", kinematic=True, velocity=(1, 0, 0), angular_velocity=(0, 0, 2))]
settings = {"fps": 25, "frame_start": 0, "frame_end": 50}
sc, names, warns = cx.build_scene(specs, settings)
sb = sc["bodies"]
check("plain data: names made valid and unique", [x["name"] for x in sb]
      == ["a_b", "a_b_2", "c", "d", "e"] and names["a b"] == "a_b" and names["a_b"] == "a_b_2",
      names)
check("plain data: a passive plane object is a static box 10 cm thick under its surface",
      sb[0]["type"] == "static" and sb[0]["shapes"] == [
          {"type": "box", "half_extents": [10.0, 10.0, 0.05], "position": [0.0, 0.0, -0.05]}],
      sb[0])
check("plain data: capsule radius = largest x/y half size, half_height = z half size - radius",
      sb[1]["shapes"] == [{"type": "capsule", "radius": 0.5, "half_height": 0.5}], sb[1])
check("plain data: cylinder", sb[2]["shapes"] == [{"type": "cylinder", "radius": 0.5,
                                                   "half_height": 2.0}], sb[2])
check("plain data: a convex hull without vertices is its bounding box, with a warning",
      sb[3]["shapes"] == [{"type": "box", "half_extents": [1.0, 1.0, 1.0]}]
      and any(w.startswith("d: collision shape CONVEX_HULL") for w in warns), warns)
tet = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
tet_faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
sc2, _, warns2 = cx.build_scene([spec("h", shape="CONVEX_HULL", vertices=tet, scale=(2, 2, 2)),
                                 spec("m", shape="MESH", vertices=tet, triangles=tet_faces),
                                 spec("o", shape="MESH", vertices=tet, triangles=tet_faces[:3]),
                                 spec("p", shape="MESH", type="PASSIVE", vertices=tet, triangles=tet_faces[:3]),
                                 spec("k", shape="CONE", scale=(1, 1, 2))], settings)
sb2 = sc2["bodies"]
check("plain data: a convex hull is a hull of the scaled vertices",
      sb2[0]["shapes"] == [{"type": "hull", "points": [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0],
                                                        [0.0, 0.0, 2.0]]}], sb2[0])
check("plain data: a closed moving mesh is a mesh",
      sb2[1]["shapes"][0]["type"] == "mesh" and sb2[1]["shapes"][0]["triangles"] == [list(t) for t in tet_faces],
      sb2[1])
check("plain data: an open moving mesh is its hull, with a warning",
      sb2[2]["shapes"][0]["type"] == "hull" and any(w.startswith("o: a moving mesh") for w in warns2), warns2)
check("plain data: an open static mesh stays a mesh", sb2[3]["shapes"][0]["type"] == "mesh", sb2[3])
check("plain data: a cone is the hull of its base polygon and apex",
      sb2[4]["shapes"][0]["type"] == "hull" and len(sb2[4]["shapes"][0]["points"]) == cx.CONE_SIDES + 1
      and sb2[4]["shapes"][0]["points"][-1] == [0.0, 0.0, 2.0], sb2[4])
check("plain data: animated is kinematic, with its velocities", sb[4]["type"] == "kinematic"
      and sb[4]["velocity"] == [1.0, 0.0, 0.0] and sb[4]["angular_velocity"] == [0.0, 0.0, 2.0]
      and "mass" not in sb[4], sb[4])
check("plain data: duration (50 - 0) / 25 fps, default method", sc["duration"] == 2.0
      and sc["fps"] == 25.0 and sc["method"] == "impulse")
sc, _, _ = cx.build_scene(specs[:1], dict(settings, flat_passive="PLANE"))
check("plain data: flat passive as an infinite plane at its surface",
      sc["bodies"][0]["shapes"] == [{"type": "plane", "normal": [0.0, 0.0, 1.0], "offset": 0.0}],
      sc["bodies"][0])
check("plain data: frame f at (f - start) / fps", cx.frame_time(26, 1, 24) == 25 / 24)
try:
    cx.build_scene(specs, dict(settings, frame_end=0))
    check("an empty frame range is an error", False)
except cx.CairnError as e:
    check("an empty frame range is an error", "frame range" in str(e), e)

# a kinematic ("Animated") object moving 1 m along x per second on linear keyframes
bpy.ops.mesh.primitive_cube_add(size=0.2, location=(3.0, 0.0, 0.5))
paddle = bpy.context.active_object
paddle.name = "Paddle"
bpy.ops.rigidbody.object_add()
paddle.rigid_body.type = 'PASSIVE'
paddle.rigid_body.kinematic = True
paddle.keyframe_insert("location", frame=1)
paddle.location.x = 4.0
paddle.keyframe_insert("location", frame=25)
for fc in paddle.animation_data.action.fcurves:
    for kp in fc.keyframe_points:
        kp.interpolation = 'LINEAR'
pspecs, _, _ = blender_io.gather(scene, [paddle], 1, 49)
psc, _, _ = cx.build_scene(pspecs, {"fps": 24, "frame_start": 1, "frame_end": 49})
pb = psc["bodies"][0]
check("an animated object is kinematic with its animation's velocity at the start",
      pb["type"] == "kinematic" and near(pb["position"], [3, 0, 0.5], 1e-6)
      and near(pb.get("velocity", []), [1, 0, 0], 1e-4), pb)
bpy.data.objects.remove(paddle)

# --- errors reach the user ----------------------------------------------------------------------
try:
    cx.run_cairn("/nonexistent/cairn", result.scene_path, os.path.join(WORKDIR, "x.csv"),
                 "impulse", 24, 1)
    check("a missing cairn is an error", False)
except cx.CairnError as e:
    check("a missing cairn is an error naming it", "/nonexistent/cairn" in str(e), e)
try:
    cx.run_cairn(CAIRN, result.scene_path, os.path.join(WORKDIR, "x.csv"), "magic", 24, 1)
    check("cairn's failure is an error", False)
except cx.CairnError as e:
    check("cairn's own error message is reported", "cairn failed (exit status 2)" in str(e)
          and "unknown contact method 'magic'" in str(e), e)

# --- the operators ------------------------------------------------------------------------------
prefs = bpy.context.preferences.addons["cairn"].preferences
prefs.cairn_path = CAIRN
n = blender_io.clear_bake(scene, objects)
check("clear bake: removes the keyframes of 2 objects and turns Blender's simulation back on",
      n == 2 and not ball.animation_data.action.fcurves and scene.rigidbody_world.enabled
      and ball.rotation_mode == 'XYZ' and abs(ball.location.z - 2.0) < 1e-6)
for o in bpy.data.objects:
    o.select_set(o in (ground, ball))
scene.cairn.method = "lcp"
scene.cairn.use_scene_range = False
scene.cairn.frame_start = 1
scene.cairn.frame_end = 13
r = bpy.ops.cairn.simulate()
check("the Simulate operator finishes", r == {'FINISHED'}, r)
check("it bakes the selected ball over the add-on's frame range",
      ball.get("cairn_body") == "Ball" and "cairn_body" not in crate
      and len(ball.animation_data.action.fcurves[0].keyframe_points) == 13)
scene.frame_set(13)
# t = 0.5 s, lcp's steps h = 1/240 s: z = 2 - g (t^2 + h t) / 2 = 0.76375 m
check("the operator's bake is the fall (lcp)",
      abs(ball.matrix_world.translation.z - (2 - 9.81 * (0.25 + 0.5 / 240) / 2)) < 1e-3,
      ball.matrix_world.translation.z)
prefs.cairn_path = "/nonexistent/cairn"
try:
    r = bpy.ops.cairn.simulate()
except RuntimeError as e:  # an operator's ERROR report is raised in background mode
    r = str(e)
check("the operator reports a missing cairn", "/nonexistent/cairn" in str(r), r)
path = os.path.join(WORKDIR, "exported.json")
r = bpy.ops.cairn.export_scene(filepath=path)
with open(path) as f:
    exported = json.load(f)
check("the Export operator writes the scene",
      r == {'FINISHED'} and [b["name"] for b in exported["bodies"]] == ["Ground", "Ball"]
      and exported["method"] == "lcp" and abs(exported["duration"] - 0.5) < 1e-12)

addon_utils.disable("cairn", default_set=True)
check("the add-on unregisters", not hasattr(bpy.types, "CAIRN_OT_simulate")
      and not hasattr(bpy.types.Scene, "cairn"))

print("blender test: %d failed" % failed)
sys.stdout.flush()
sys.exit(1 if failed else 0)
