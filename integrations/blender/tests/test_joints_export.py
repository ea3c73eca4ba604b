# SPDX-License-Identifier: MIT
"""Pure-Python test of the add-on's constraint -> joint mapping (scene_export.joints_of through
build_scene), run by tests/cli_blender.sh with python3 (no Blender needed):

    python3 test_joints_export.py [CAIRN_EXE WORKDIR]

With CAIRN_EXE the exported scene is also loaded by `cairn info`. Prints "ok: WHAT" or
"FAIL: WHAT" per check and exits 1 when a check failed."""

import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cairn"))
import scene_export as cx  # noqa: E402

failed = 0


def check(what, ok, detail=""):
    global failed
    print(("ok: " if ok else "FAIL: ") + what + ("" if ok or detail == "" else ": %s" % (detail,)))
    if not ok:
        failed += 1


def near(a, b, tol=1e-6):
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


def body(name, loc, type_="ACTIVE"):
    return {"name": name, "type": type_, "shape": "BOX", "location": loc,
            "rotation": (1, 0, 0, 0), "bbox_min": (-0.5,) * 3, "bbox_max": (0.5,) * 3}


def quat_axis_angle(axis, deg):
    h = math.radians(deg) / 2
    return (math.cos(h),) + tuple(math.sin(h) * c for c in axis)


specs = [body("Frame", (0, 0, 1), "PASSIVE"), body("Door", (0.5, 0, 1)),
         body("Link 1", (0, 2, 1)), body("Link 2", (0, 3, 1)), body("Sled", (3, 0, 1)),
         body("Post", (5, 0, 1), "PASSIVE"), body("Wall", (6, 0, 1), "PASSIVE")]
joints = [
    # a hinge turned 90 degrees about x: Blender's local Z is world -y
    {"name": "Hinge", "type": "HINGE", "object1": "Frame", "object2": "Door",
     "location": (0, 0, 1.5), "rotation": quat_axis_angle((1, 0, 0), 90),
     "use_limit_ang_z": True, "limit_ang_z_lower": math.radians(-30),
     "limit_ang_z_upper": math.radians(100), "disable_collisions": True},
    {"name": "Pin", "type": "POINT", "object1": "Link 1", "object2": "Link 2",
     "location": (0, 2.5, 1), "disable_collisions": False},
    {"name": "Weld", "type": "FIXED", "object1": "Door", "object2": "Link 1",
     "location": (0.25, 1, 1), "use_breaking": True, "breaking_threshold": 2.0},
    # a slider turned 90 degrees about z: Blender's local X is world +y
    {"name": "Rail", "type": "SLIDER", "object1": "Post", "object2": "Sled",
     "location": (4, 0, 1), "rotation": quat_axis_angle((0, 0, 1), 90),
     "use_limit_lin_x": True, "limit_lin_x_lower": -0.5, "limit_lin_x_upper": 2.0},
    {"name": "Piston", "type": "PISTON", "object1": "Post", "object2": "Sled",
     "location": (4, 0, 1)},
    {"name": "Generic", "type": "GENERIC", "object1": "Post", "object2": "Sled"},
    {"name": "Springy", "type": "GENERIC_SPRING", "object1": "Post", "object2": "Sled"},
    {"name": "Motor", "type": "MOTOR", "object1": "Post", "object2": "Sled"},
    {"name": "Lonely", "type": "POINT", "object1": "Door", "object2": None},
    {"name": "Ghost", "type": "POINT", "object1": "Door", "object2": "Not exported"},
    {"name": "Static pair", "type": "FIXED", "object1": "Post", "object2": "Wall"},
    {"name": "Off", "type": "FIXED", "object1": "Door", "object2": "Sled", "enabled": False},
]
settings = {"fps": 25, "frame_start": 1, "frame_end": 26, "timestep": 1.0 / 250.0,
            "joints": joints}
scene, names, warnings = cx.build_scene(specs, settings)
out = {j["name"]: j for j in scene.get("joints", [])}

check("four joints exported: hinge, point, fixed, slider",
      sorted(out) == ["Hinge", "Pin", "Rail", "Weld"], sorted(out))
h = out.get("Hinge", {})
check("HINGE -> hinge between object1 and object2 at the constraint's world location",
      h.get("type") == "hinge" and h.get("bodies") == ["Frame", "Door"]
      and near(h.get("anchor", []), [0, 0, 1.5]), h)
check("hinge axis: the constraint object's local Z in world coordinates (-y here)",
      near(h.get("axis", []), [0, -1, 0]), h.get("axis"))
check("hinge limits: Blender's [-30, 100] (object1 against object2) -> limits_deg [-100, 30]",
      near(h.get("limits_deg", []), [-100, 30]), h.get("limits_deg"))
check("disable_collisions -> collide_connected false, no break_force",
      h.get("collide_connected") is False and "break_force" not in h, h)
p = out.get("Pin", {})
check("POINT -> ball with its anchor and collide_connected",
      p == {"name": "Pin", "type": "ball", "bodies": ["Link_1", "Link_2"],
            "anchor": [0, 2.5, 1], "collide_connected": True}, p)
w = out.get("Weld", {})
check("FIXED -> fixed; breaking threshold 2 N s per 1/250 s substep -> break_force 500 N",
      w.get("type") == "fixed" and w.get("break_force") == 500 and "axis" not in w, w)
r = out.get("Rail", {})
check("SLIDER -> slider along the constraint object's local X (+y here), limits in m",
      r.get("type") == "slider" and r.get("bodies") == ["Post", "Sled"]
      and near(r.get("axis", []), [0, 1, 0]) and r.get("limits") == [-0.5, 2.0], r)
for name, word in (("Piston", "piston"), ("Generic", "generic constraint"),
                   ("Springy", "generic spring"), ("Motor", "motor"),
                   ("Lonely", "two objects"), ("Ghost", "Not exported"),
                   ("Static pair", "dynamic"), ("Off", "disabled")):
    hit = [x for x in warnings if x.startswith(name + " (") and word in x and "skipped" in x]
    check("%s is skipped with a warning (%s)" % (name, word), len(hit) == 1, warnings)

if len(sys.argv) > 2:
    os.makedirs(sys.argv[2], exist_ok=True)
    path = os.path.join(sys.argv[2], "joints.json")
    cx.write_scene(scene, path)
    info = subprocess.run([sys.argv[1], "info", path], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    check("cairn info loads the scene with its 4 joints", info.returncode == 0
          and "joints" in info.stdout, info.stderr + info.stdout)

print("joints export test: %d failed" % failed)
sys.exit(1 if failed else 0)
