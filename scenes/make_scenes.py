#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes Cairn's large generated scenes (pyramid.json, fall3000.json, heap100.json) next to this script, and
checks scene files.

    python3 scenes/make_scenes.py            # regenerate the generated scenes
    python3 scenes/make_scenes.py --check    # check every scenes/*.json (keys, initial overlaps)

The generated files are committed, so nothing needs to run this script to use them. The small
scenes are written by hand. Standard library only.

The check is a lint, not the loader: it knows the keys of docs' scene format (the loader rejects
unknown keys, so a typo here would fail late), and it reports dynamic bodies that start
interpenetrating another body. Boxes and spheres are tested exactly; cylinders and capsules through
their bounding boxes, which contain them, so a pass is always a true pass but a report on one of
them may be a false alarm. Static bodies sunk into other static bodies (bumps in a floor) are not
reported: static pairs never collide.
"""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# 1/60 s written as Python writes the nearest double, so every tool reads the same number
STEP_60 = 1.0 / 60.0


def num(x):
    """A JSON number: integers without a fraction, others as the shortest exact repr."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def value(v):
    """Compact JSON for one value, numbers through num()."""
    if isinstance(v, dict):
        return "{ " + ", ".join(json.dumps(k) + ": " + value(v[k]) for k in v) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(value(e) for e in v) + "]"
    if isinstance(v, (int, float)):
        return num(v)
    return json.dumps(v)


def dump(scene):
    """Top-level keys one per line and one body per line: readable, diffable and small."""
    lines = []
    for key, v in scene.items():
        if key == "bodies":
            inner = ",\n".join("    " + value(b) for b in v)
            lines.append('  "bodies": [\n' + inner + "\n  ]")
        elif key == "materials":
            inner = ",\n".join("    " + json.dumps(k) + ": " + value(m) for k, m in v.items())
            lines.append('  "materials": {\n' + inner + "\n  }")
        else:
            lines.append("  " + json.dumps(key) + ": " + value(v))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def header(name, description, timestep, duration, fps):
    return {
        "cairn": 1,
        "name": name,
        "description": description,
        "gravity": [0, 0, -9.81],
        "timestep": timestep,
        "duration": duration,
        "fps": fps,
        "method": "impulse",
    }


def box_body(name, position, half_extents, **extra):
    body = {"name": name}
    body.update(extra)
    body["position"] = position
    body["shapes"] = [{"type": "box", "half_extents": half_extents}]
    return body


def pyramid():
    """15 levels of unit boxes, level k a (15-k) x (15-k) grid, every box touching its neighbours."""
    levels = 15
    scene = header("pyramid", "Square pyramid of 1240 unit boxes in 15 levels, friction 0.5, 500 steps at 60 Hz",
        STEP_60, 500 * STEP_60, 60)
    scene["materials"] = {
        "default": {"density": 1000, "friction": 0.5, "restitution": 0, "color": [0.8, 0.6, 0.4]},
        "ground": {"density": 1000, "friction": 0.5, "restitution": 0, "color": [0.45, 0.45, 0.45]},
    }
    bodies = [box_body("ground", [0, 0, -1], [50, 50, 1], type="static", material="ground")]
    index = 0
    for k in range(levels):
        n = levels - k
        for j in range(n):
            for i in range(n):
                # centred grid; (n - 1) / 2 is a half-integer or integer, exact in binary
                x = i - 0.5 * (n - 1)
                y = j - 0.5 * (n - 1)
                bodies.append(box_body("box_%d" % index, [x, y, 0.5 + k], [0.5, 0.5, 0.5]))
                index += 1
    assert index == 1240
    scene["bodies"] = bodies
    return scene


def fall3000():
    """47 layers of 8 x 8 boxes of side 2 on a 3 m lattice (1 m gaps) falling onto a large ground."""
    layers, side, spacing = 47, 8, 3.0
    scene = header("fall3000", "3000 fall: 47 layers of 8x8 boxes (3008, side 2 m, 2 kg) on a 3 m lattice drop onto the ground",
        STEP_60, 10, 60)
    scene["materials"] = {
        "default": {"density": 1000, "friction": 0.6, "restitution": 0, "color": [0.3, 0.55, 0.8]},
        "ground": {"density": 1000, "friction": 0.6, "restitution": 0, "color": [0.45, 0.45, 0.45]},
    }
    # top face at z = 0, big enough that the heap (about 25 m across at the start) stays on it
    bodies = [box_body("ground", [0, 0, -1], [100, 100, 1], type="static", material="ground")]
    index = 0
    for layer in range(layers):
        for j in range(side):
            for i in range(side):
                x = spacing * (i - 0.5 * (side - 1))
                y = spacing * (j - 0.5 * (side - 1))
                z = 3.0 + spacing * layer
                bodies.append(box_body("box_%d" % index, [x, y, z], [1, 1, 1], mass=2))
                index += 1
    assert index == 3008
    scene["bodies"] = bodies
    return scene


GENERATED = {"pyramid.json": pyramid, "fall3000.json": fall3000}


# ---------------------------------------------------------------------------------------------
# check

TOP_KEYS = {"cairn", "name", "description", "gravity", "timestep", "duration", "fps", "method",
    "substeps", "sleep", "materials", "material_pairs", "no_collide", "bodies", "cameras"}
MATERIAL_KEYS = {"density", "friction", "restitution", "stiffness", "damping", "color", "texture", "appearance"}
BODY_KEYS = {"name", "type", "material", "position", "orientation", "euler_deg", "velocity",
    "angular_velocity", "mass", "gravity_scale", "linear_damping", "angular_damping", "drag", "sleep",
    "awake", "shapes", "forces", "torques"}
SHAPE_KEYS = {
    "sphere": {"radius"},
    "box": {"half_extents"},
    "capsule": {"radius", "half_height"},
    "cylinder": {"radius", "half_height"},
    "plane": {"normal", "offset"},
}
SHAPE_COMMON = {"type", "position", "orientation", "euler_deg", "material", "category", "mask", "group"}
FORCE_KEYS = {"point", "frame", "vector", "magnitude", "target", "target_point", "start", "end"}
TORQUE_KEYS = {"frame", "vector", "start", "end"}


def heap100():
    """100 bodies of every shape and finish dropped in a 5 x 5 x 4 lattice into a walled bin: the
    100-body scene of the rendering benchmark (docs/benchmarks.md) and a showcase of appearances."""
    scene = header("heap100", "100 spheres, boxes, capsules and cylinders of every finish fall into a walled wooden bin",
        1.0 / 120.0, 3, 30)
    scene["cameras"] = [{"name": "front", "position": [4.5, -6.5, 5.0], "look_at": [0, 0, 0.8], "fov_deg": 50}]
    finishes = [("red", [0.8, 0.15, 0.1], "plastic"), ("gold", [0.95, 0.75, 0.3], "metal"),
        ("ice", [0.85, 0.93, 1.0], "glass"), ("oak", [0.62, 0.44, 0.26], "wood"),
        ("stone", [0.85, 0.84, 0.8], "marble"), ("tyre", [0.12, 0.12, 0.12], "rubber"),
        ("chalk", [0.2, 0.45, 0.85], "matte")]
    scene["materials"] = {
        "floor": {"density": 1000, "friction": 0.6, "restitution": 0.1,
            "appearance": {"color": [0.55, 0.42, 0.3], "finish": "wood"}},
    }
    for name, color, finish in finishes:
        scene["materials"][name] = {"density": 1000, "friction": 0.5, "restitution": 0.2,
            "appearance": {"color": color, "finish": finish}}
    bodies = [box_body("floor", [0, 0, -0.25], [2.5, 2.5, 0.25], type="static", material="floor")]
    for k, (x, y, hx, hy) in enumerate([(2.4, 0, 0.1, 2.5), (-2.4, 0, 0.1, 2.5), (0, 2.4, 2.3, 0.1), (0, -2.4, 2.3, 0.1)]):
        bodies.append(box_body("wall_%d" % k, [x, y, 0.4], [hx, hy, 0.4], type="static", material="floor"))
    shapes = [{"type": "sphere", "radius": 0.22}, {"type": "box", "half_extents": [0.2, 0.15, 0.12]},
        {"type": "capsule", "radius": 0.12, "half_height": 0.15}, {"type": "cylinder", "radius": 0.17, "half_height": 0.12}]
    index = 0
    for layer in range(4):
        for j in range(5):
            for i in range(5):
                body = {"name": "body_%d" % index, "material": finishes[index % len(finishes)][0],
                    "position": [0.8 * (i - 2) + 0.1 * (layer % 2), 0.8 * (j - 2) - 0.1 * (layer % 2), 1.0 + 0.7 * layer],
                    # a small tilt about x and y so the heap tumbles instead of stacking
                    "euler_deg": [7 * ((index * 3) % 5 - 2), 5 * ((index * 7) % 5 - 2), 13 * (index % 7)],
                    "shapes": [shapes[index % len(shapes)]]}
                bodies.append(body)
                index += 1
    assert index == 100
    scene["bodies"] = bodies
    return scene


GENERATED["heap100.json"] = heap100


def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def mat_vec(m, v):
    return [m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2] for i in range(3)]


def rotation(obj):
    """The rotation matrix of an "orientation" [w,x,y,z] or "euler_deg" [roll,pitch,yaw]."""
    if "orientation" in obj:
        w, x, y, z = obj["orientation"]
        return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    if "euler_deg" in obj:
        r, p, y = (math.radians(a) for a in obj["euler_deg"])
        rx = [[1, 0, 0], [0, math.cos(r), -math.sin(r)], [0, math.sin(r), math.cos(r)]]
        ry = [[math.cos(p), 0, math.sin(p)], [0, 1, 0], [-math.sin(p), 0, math.cos(p)]]
        rz = [[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]]
        return mat_mul(rz, mat_mul(ry, rx))
    return [[1, 0, 0], [0, 1, 0], [0, 0, 1]]


def world_solid(body, shape):
    """(kind, centre, rotation, half extents or radius) of a shape in world space; planes give None."""
    rb = rotation(body)
    rs = rotation(shape)
    pb = body.get("position", [0, 0, 0])
    c = [pb[i] + d for i, d in enumerate(mat_vec(rb, shape.get("position", [0, 0, 0])))]
    r = mat_mul(rb, rs)
    t = shape["type"]
    if t == "sphere":
        return ("sphere", c, r, shape["radius"])
    if t == "box":
        return ("box", c, r, shape["half_extents"])
    if t == "cylinder":
        return ("box", c, r, [shape["radius"], shape["radius"], shape["half_height"]])
    if t == "capsule":
        return ("box", c, r, [shape["radius"], shape["radius"], shape["half_height"] + shape["radius"]])
    return None


def box_radius(r, h, axis):
    """Half the width of a box (rotation r, half extents h) projected on axis."""
    return sum(abs(axis[0] * r[0][i] + axis[1] * r[1][i] + axis[2] * r[2][i]) * h[i] for i in range(3))


def penetration(a, b):
    """Depth by which two solids overlap (<= 0: apart or touching)."""
    if a[0] == "sphere" and b[0] == "box":
        a, b = b, a
    if a[0] == "sphere" and b[0] == "sphere":
        return a[3] + b[3] - math.dist(a[1], b[1])
    if b[0] == "sphere":
        # the sphere centre in box coordinates, clamped to the box: the closest point
        _, c, r, h = a
        d = [b[1][i] - c[i] for i in range(3)]
        local = [sum(r[k][i] * d[k] for k in range(3)) for i in range(3)]
        inside = all(abs(local[i]) <= h[i] for i in range(3))
        if inside:
            return b[3] + min(h[i] - abs(local[i]) for i in range(3))
        q = [max(-h[i], min(h[i], local[i])) for i in range(3)]
        return b[3] - math.dist(q, local)
    # box-box: separating axis theorem over the 15 axes; the overlap is the smallest one
    ra, rb = a[2], b[2]
    axes = [[ra[0][i], ra[1][i], ra[2][i]] for i in range(3)] + [[rb[0][i], rb[1][i], rb[2][i]] for i in range(3)]
    for i in range(3):
        for j in range(3):
            u, v = axes[i], axes[3 + j]
            cross = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
            length = math.sqrt(sum(x * x for x in cross))
            if length > 1e-9:
                axes.append([x / length for x in cross])
    d = [b[1][i] - a[1][i] for i in range(3)]
    depth = math.inf
    for axis in axes:
        distance = abs(sum(d[i] * axis[i] for i in range(3)))
        depth = min(depth, box_radius(ra, a[3], axis) + box_radius(rb, b[3], axis) - distance)
    return depth


def bounds(s):
    if s[0] == "sphere":
        return [s[1][i] - s[3] for i in range(3)], [s[1][i] + s[3] for i in range(3)]
    e = [box_radius(s[2], s[3], [1 if k == i else 0 for k in range(3)]) for i in range(3)]
    return [s[1][i] - e[i] for i in range(3)], [s[1][i] + e[i] for i in range(3)]


def check_keys(path, scene, problems):
    def unknown(where, obj, allowed):
        for k in obj:
            if k not in allowed:
                problems.append("%s: %s: unknown key %r" % (path, where, k))

    unknown("top level", scene, TOP_KEYS)
    for key in ("cairn", "name", "description", "gravity", "timestep", "duration", "fps", "method", "bodies"):
        if key not in scene:
            problems.append("%s: missing %r" % (path, key))
    for name, m in scene.get("materials", {}).items():
        unknown("materials.%s" % name, m, MATERIAL_KEYS)
    materials = set(scene.get("materials", {})) | {"default"}
    names = set()
    for i, body in enumerate(scene.get("bodies", [])):
        where = "bodies[%d]" % i
        unknown(where, body, BODY_KEYS)
        if body.get("name") in names:
            problems.append("%s: %s: duplicate name %r" % (path, where, body.get("name")))
        names.add(body.get("name"))
        if body.get("material", "default") not in materials:
            problems.append("%s: %s: unknown material" % (path, where))
        if "orientation" in body and "euler_deg" in body:
            problems.append("%s: %s: both orientation and euler_deg" % (path, where))
        for j, shape in enumerate(body.get("shapes", [])):
            unknown("%s.shapes[%d]" % (where, j), shape, SHAPE_COMMON | SHAPE_KEYS.get(shape.get("type"), set()))
            if shape.get("material", "default") not in materials:
                problems.append("%s: %s.shapes[%d]: unknown material" % (path, where, j))
        for j, force in enumerate(body.get("forces", [])):
            unknown("%s.forces[%d]" % (where, j), force, FORCE_KEYS)
        for j, torque in enumerate(body.get("torques", [])):
            unknown("%s.torques[%d]" % (where, j), torque, TORQUE_KEYS)
    for pair in scene.get("no_collide", []):
        for name in pair:
            if name not in names:
                problems.append("%s: no_collide names unknown body %r" % (path, name))


def check_overlaps(path, scene, problems, tolerance=1e-9):
    solids = []
    for body in scene["bodies"]:
        dynamic = body.get("type", "dynamic") != "static"
        for shape in body["shapes"]:
            s = world_solid(body, shape)
            if s is not None:
                lo, hi = bounds(s)
                solids.append((lo, hi, s, body["name"], dynamic))
    # sweep along x: only pairs whose x ranges overlap are tested
    solids.sort(key=lambda e: e[0][0])
    for i, (lo, hi, s, name, dynamic) in enumerate(solids):
        for lo2, hi2, s2, name2, dynamic2 in solids[i + 1:]:
            if lo2[0] > hi[0] + tolerance:
                break
            if not (dynamic or dynamic2) or name == name2:
                continue
            if any(lo2[k] > hi[k] + tolerance or lo[k] > hi2[k] + tolerance for k in (1, 2)):
                continue
            depth = penetration(s, s2)
            if depth > tolerance:
                problems.append("%s: %s and %s start %.3g m deep in each other" % (path, name, name2, depth))


def check(paths):
    problems = []
    for path in paths:
        with open(path) as f:
            scene = json.load(f)
        before = len(problems)
        check_keys(path, scene, problems)
        if len(problems) == before:
            check_overlaps(path, scene, problems)
        print("%s: %s" % (os.path.basename(path), "ok" if len(problems) == before else "PROBLEMS"))
    for p in problems:
        print(p)
    return 1 if problems else 0


def main(argv):
    if "--check" in argv:
        files = [a for a in argv[1:] if a != "--check"]
        if not files:
            files = sorted(os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".json"))
        return check(files)
    for name, make in GENERATED.items():
        path = os.path.join(HERE, name)
        with open(path, "w") as f:
            f.write(dump(make()))
        print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
