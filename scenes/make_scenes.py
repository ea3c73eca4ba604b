#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes Cairn's generated scenes next to this script (the large pyramid.json, fall3000.json and heap100.json,
and the joint scenes: gyroscope, double_pendulum, cradle, cradle_e09, cradle_rods, chain, bridge,
ragdoll_stairs, ragdoll_spiral and vehicle), and checks scene files.

    python3 scenes/make_scenes.py            # regenerate the generated scenes
    python3 scenes/make_scenes.py --check    # check every scenes/*.json (keys, initial overlaps)

The generated files are committed, so nothing needs to run this script to use them. The small
scenes are written by hand. Standard library only.

The check is a lint, not the loader: it knows the keys of docs' scene format (the loader rejects
unknown keys, so a typo here would fail late), and it reports dynamic bodies that start
interpenetrating another body. Boxes and spheres are tested exactly; cylinders and capsules through
their bounding boxes, which contain them, so a pass is always a true pass but a report on one of
them may be a false alarm. Static bodies sunk into other static bodies (bumps in a floor) are not
reported: static pairs never collide; nor are bodies joined by a joint, no_collide pairs and shapes of
category 0, which never collide either. Hulls and compounds given by points are checked through their
points' boxes; meshes, heightfields and shapes read from files are not checked for overlaps. Joints are
checked for their keys and bodies. The geometry scenes (jacks, stairs_mesh, terrain, mesh_drop) and their
mesh files come from make_geometry_scenes.py.
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
        elif key == "joints":
            inner = ",\n".join("    " + value(j) for j in v)
            lines.append('  "joints": [\n' + inner + "\n  ]")
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
    "substeps", "sleep", "materials", "material_pairs", "no_collide", "bodies", "cameras", "joints"}
MATERIAL_KEYS = {"density", "friction", "restitution", "stiffness", "damping", "color", "texture", "appearance"}
BODY_KEYS = {"name", "type", "material", "position", "orientation", "euler_deg", "velocity",
    "angular_velocity", "mass", "gravity_scale", "linear_damping", "angular_damping", "drag", "sleep",
    "awake", "bullet", "shapes", "forces", "torques"}
SHAPE_KEYS = {
    "sphere": {"radius"},
    "box": {"half_extents"},
    "capsule": {"radius", "half_height"},
    "cylinder": {"radius", "half_height"},
    "plane": {"normal", "offset"},
    "hull": {"points", "file", "scale"},
    "mesh": {"file", "scale", "vertices", "triangles"},
    "heightfield": {"size", "heights", "file", "height_scale"},
    "compound": {"parts", "file", "scale"},
}
SHAPE_COMMON = {"type", "position", "orientation", "euler_deg", "material", "category", "mask", "group"}
FORCE_KEYS = {"point", "frame", "vector", "magnitude", "target", "target_point", "start", "end"}
JOINT_COMMON = {"name", "type", "bodies", "collide_connected", "break_force", "break_torque"}
JOINT_KEYS = {
    "ball": {"anchor"},
    "hinge": {"anchor", "axis", "limits_deg", "motor", "spring"},
    "slider": {"anchor", "axis", "limits", "motor", "spring"},
    "universal": {"anchor", "axes"},
    "cone_twist": {"anchor", "axis", "swing_deg", "twist_deg"},
    "fixed": {"anchor"},
    "distance": {"anchors", "length", "min_length", "max_length"},
    "spring": {"anchors", "stiffness", "damping", "rest_length", "min_length"},
    "damper": {"anchors", "damping", "min_length"},
    "point_on_plane": {"anchor", "normal"},
}
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


# ---------------------------------------------------------------------------------------------
# joint scenes (docs/joints.md): Kleppmann's gyroscope, pendulums, Newton's cradles and falling
# figure, AERO's five-ball pendulum on rods and three-wheeled vehicle, a chain and a plank bridge.
# Anchors and axes are world coordinates at t = 0; positions are rounded to the micrometre so the
# files stay readable (a joint then starts at most a micrometre apart).


def r6(x):
    """A coordinate rounded to the micrometre (and -0 written as 0)."""
    x = round(x, 6)
    return 0.0 if x == 0 else x


def v6(v):
    return [r6(c) for c in v]


def look(name, position, look_at, fov_deg=50):
    return {"name": name, "position": position, "look_at": look_at, "fov_deg": fov_deg}


def ground_box(material="ground", half=20.0, name="ground"):
    """A static slab whose top face is the plane z = 0."""
    return box_body(name, [0, 0, -0.25], [half, half, 0.25], type="static", material=material)


def cylinder_between(p, q, radius, **extra):
    """A cylinder shape whose axis runs from p to q (body coordinates), for static frames."""
    d = [q[i] - p[i] for i in range(3)]
    length = math.sqrt(sum(c * c for c in d))
    shape = {"type": "cylinder", "radius": radius, "half_height": r6(0.5 * length)}
    shape["position"] = v6([0.5 * (p[i] + q[i]) for i in range(3)])
    shape["euler_deg"] = euler_z_to(d)
    shape.update(extra)
    return shape


def euler_z_to(d):
    """euler_deg [roll, pitch, 0] that turns the local z axis onto direction d."""
    length = math.sqrt(sum(c * c for c in d))
    x, y, z = (c / length for c in d)
    # R = Ry(pitch) Rx(roll) maps z to (cos(roll) sin(pitch), -sin(roll), cos(roll) cos(pitch))
    roll = math.degrees(math.asin(max(-1.0, min(1.0, -y))))
    pitch = math.degrees(math.atan2(x, z))
    return [r6(roll), r6(pitch), 0]


GYRO_SPIN = 2 * math.pi * 20.0


def gyroscope():
    """Kleppmann 4.2.1: a steel disc spinning at 20 revolutions per second on an axle whose end is
    nailed (a ball joint to the world) on top of a post; the axle starts horizontal with the
    precession rate of steady motion, Omega = m g d / (I_axis omega_spin), so the disc circles the
    post without nutation, once in about 7.5 s."""
    scene = header("gyroscope",
        "Kleppmann's gyroscope (section 4.2.1): a steel disc spins at 20 revolutions per second on a "
        "horizontal axle whose end is nailed to the top of a post (a ball joint to the world). Gravity "
        "makes it precess about the post instead of falling: it starts with the steady precession rate "
        "Omega = m g d / (I_axis omega) and circles the post once in about 7.5 s.",
        1.0 / 480.0, 8, 60)
    scene["cameras"] = [look("side", [0.55, -0.75, 0.55], [0.01, 0, 0.3], 40),
        look("above", [0.25, -0.35, 1.2], [0, 0, 0.35], 45)]
    scene["materials"] = {
        "steel": {"density": 7800, "friction": 0.4, "restitution": 0.2,
            "appearance": {"color": [0.75, 0.76, 0.8], "finish": "metal"}},
        "brass": {"density": 8500, "friction": 0.4, "restitution": 0.2,
            "appearance": {"color": [0.85, 0.65, 0.3], "finish": "metal"}},
        "wood": {"density": 700, "friction": 0.5, "restitution": 0.1,
            "appearance": {"color": [0.55, 0.36, 0.2], "finish": "wood"}},
        "ground": {"density": 1000, "friction": 0.6, "restitution": 0,
            "appearance": {"color": [0.5, 0.5, 0.48], "finish": "matte"}},
    }
    pivot = [0, 0, 0.35]
    # the stand: a base and a post whose top stays 5 mm below the pivot ball
    stand = {"name": "stand", "type": "static", "material": "wood", "position": [0, 0, 0], "shapes": [
        {"type": "cylinder", "radius": 0.12, "half_height": 0.015, "position": [0, 0, 0.015]},
        {"type": "cylinder", "radius": 0.012, "half_height": 0.1525, "position": [0, 0, 0.1825]}]}
    # the gyroscope's origin is the pivot, so its origin stays still: the start velocity is 0 and
    # the angular velocity is the spin about the axle plus the precession about z
    disc_x, radius, half_thick = 0.05, 0.1, 0.01
    shapes = [
        {"type": "sphere", "radius": 0.01, "material": "brass"},
        {"type": "cylinder", "radius": 0.005, "half_height": 0.06, "position": [0.06, 0, 0], "euler_deg": [0, 90, 0]},
        {"type": "cylinder", "radius": radius, "half_height": half_thick, "position": [disc_x, 0, 0], "euler_deg": [0, 90, 0]},
        {"type": "cylinder", "radius": 0.02, "half_height": 0.012, "position": [disc_x, 0, 0], "euler_deg": [0, 90, 0],
            "material": "brass"},
    ]
    # mass properties of the solids (cylinders along x) for the steady precession rate
    parts = [(8500, "sphere", 0.01, 0, 0.0), (7800, "cyl", 0.005, 0.06, 0.06),
        (7800, "cyl", radius, half_thick, disc_x), (8500, "cyl", 0.02, 0.012, disc_x)]
    mass = moment = axial = 0.0
    for density, kind, r, h, x in parts:
        # the hub overlaps the disc: the loader adds both, so the sums do too
        if kind == "sphere":
            m = density * 4.0 / 3.0 * math.pi * r ** 3
            i_axis = 0.4 * m * r * r
        else:
            m = density * math.pi * r * r * 2 * h
            i_axis = 0.5 * m * r * r
        mass += m
        moment += m * x
        axial += i_axis
    d = moment / mass
    precession = mass * 9.81 * d / (axial * GYRO_SPIN)
    gyro = {"name": "gyro", "material": "steel", "position": pivot, "angular_velocity": [GYRO_SPIN, 0, precession],
        "shapes": shapes}
    scene["bodies"] = [ground_box(half=3.0), stand, gyro]
    scene["joints"] = [{"name": "nail", "type": "ball", "bodies": ["gyro"], "anchor": pivot}]
    return scene


def pendulum_arm(name, top, theta_deg, length, y, hub_y, hub_half):
    """A steel rod from its hinge (the body origin) down to a brass bob, swinging in the plane at y
    (body frame), turned theta_deg from hanging straight down about y; a hub along y at the hinge."""
    return {"name": name, "material": "steel", "position": v6(top), "euler_deg": [0, r6(-theta_deg), 0], "shapes": [
        {"type": "cylinder", "radius": 0.012, "half_height": r6(0.5 * length), "position": [0, y, r6(-0.5 * length)]},
        {"type": "cylinder", "radius": 0.015, "half_height": hub_half, "position": [0, hub_y, 0], "euler_deg": [90, 0, 0]},
        {"type": "sphere", "radius": 0.05, "position": [0, y, r6(-length)], "material": "brass"}]}


def double_pendulum():
    """Two rigid rods with bobs on hinges (Kleppmann 4.3.1), released from far above the horizontal."""
    scene = header("double_pendulum",
        "A double pendulum (Kleppmann section 4.3.1): two steel rods with brass bobs, the first hinged to "
        "a wall bracket, the second hinged to the first bob and swinging in front of it. Released at rest "
        "with the arms 120 and 150 degrees from hanging, it moves chaotically; no contacts, so its "
        "energy only changes by the integrator's error.",
        1.0 / 240.0, 15, 60)
    scene["cameras"] = [look("front", [0, -4.2, 1.6], [0, 0, 1.6], 50), look("side", [2.6, -2.9, 2.0], [0, 0, 1.5], 50)]
    scene["materials"] = {
        "steel": {"density": 7800, "friction": 0.4, "restitution": 0.2,
            "appearance": {"color": [0.72, 0.73, 0.78], "finish": "metal"}},
        "brass": {"density": 8500, "friction": 0.4, "restitution": 0.2,
            "appearance": {"color": [0.85, 0.65, 0.3], "finish": "metal"}},
        "wall": {"density": 2000, "friction": 0.6, "restitution": 0,
            "appearance": {"color": [0.82, 0.8, 0.74], "finish": "matte"}},
        "ground": {"density": 1000, "friction": 0.6, "restitution": 0,
            "appearance": {"color": [0.5, 0.5, 0.48], "finish": "matte"}},
    }
    top = [0, 0, 1.6]
    l1, l2, t1, t2 = 0.5, 0.5, 120.0, 150.0
    s1, c1 = math.sin(math.radians(t1)), math.cos(math.radians(t1))
    middle = [top[0] + l1 * s1, 0, top[2] - l1 * c1]
    # the second arm swings 7 cm in front of the first (y = -0.07), clear of the bracket and the pin
    # arm 1's pin runs back into the bracket, arm 2's forward from bob 1
    arm1 = pendulum_arm("arm_1", top, t1, l1, 0, 0.05, 0.05)
    arm2 = pendulum_arm("arm_2", middle, t2, l2, -0.07, -0.04, 0.04)
    bracket = {"name": "bracket", "type": "static", "material": "wall", "position": [0, 0.12, 0], "shapes": [
        {"type": "box", "half_extents": [1.4, 0.02, 1.1], "position": [0, 0.02, 1.1]},
        {"type": "box", "half_extents": [0.06, 0.02, 0.08], "position": [0, -0.02, 1.6]}]}
    scene["bodies"] = [ground_box(half=3.0), bracket, arm1, arm2]
    scene["no_collide"] = [["arm_1", "bracket"]]
    scene["joints"] = [
        {"name": "shoulder", "type": "hinge", "bodies": ["arm_1"], "anchor": top, "axis": [0, 1, 0]},
        {"name": "elbow", "type": "hinge", "bodies": ["arm_2", "arm_1"], "anchor": v6([middle[0], -0.04, middle[2]]),
            "axis": [0, 1, 0]}]
    return scene


def cradle_scene(name, restitution, description):
    """Kleppmann 4.3.2: five steel balls, each nailed by a massless wire to a point of the frame (a
    ball joint to the world), 2 mm apart; the first is raised 45 degrees and let go."""
    scene = header(name, description, 1.0 / 1000.0, 8, 60)
    scene["cameras"] = [look("front", [0.1, -1.8, 0.5], [0, 0, 0.33], 40),
        look("close", [0.05, -0.7, 0.3], [0, 0, 0.2], 40)]
    scene["materials"] = {
        "steel": {"density": 7800, "friction": 0.2, "restitution": restitution,
            "appearance": {"color": [0.8, 0.81, 0.85], "finish": "metal"}},
        # the wires: thin, a millionth of the ball's mass, and colliding with nothing (category 0)
        "wire": {"density": 1, "friction": 0, "restitution": 0,
            "appearance": {"color": [0.15, 0.15, 0.15], "finish": "matte"}},
        "wood": {"density": 700, "friction": 0.5, "restitution": 0.1,
            "appearance": {"color": [0.45, 0.28, 0.15], "finish": "wood"}},
        "ground": {"density": 1000, "friction": 0.6, "restitution": 0,
            "appearance": {"color": [0.55, 0.55, 0.52], "finish": "matte"}},
    }
    radius, length, gap, top, raised = 0.04, 0.4, 0.002, 0.6, 45.0
    frame = {"name": "frame", "type": "static", "material": "wood", "position": [0, 0, 0], "shapes": [
        {"type": "box", "half_extents": [0.6, 0.15, 0.01], "position": [0, 0, 0.01]},
        cylinder_between([-0.56, 0, 0.02], [-0.56, 0, top + 0.02], 0.012),
        cylinder_between([0.56, 0, 0.02], [0.56, 0, top + 0.02], 0.012),
        cylinder_between([-0.57, 0, top + 0.02], [0.57, 0, top + 0.02], 0.01)]}
    bodies = [ground_box(half=3.0), frame]
    joints = []
    for i in range(5):
        x = (i - 2) * (2 * radius + gap)
        theta = raised if i == 0 else 0.0
        s, c = math.sin(math.radians(theta)), math.cos(math.radians(theta))
        centre = [x - length * s, 0, top - length * c]
        bodies.append({"name": "ball_%d" % i, "material": "steel", "position": v6(centre), "euler_deg": [0, r6(theta), 0],
            "shapes": [{"type": "sphere", "radius": radius},
                {"type": "cylinder", "radius": 0.0015, "half_height": r6(0.5 * (length - radius)),
                    "position": [0, 0, r6(0.5 * (length + radius))], "material": "wire", "category": 0}]})
        joints.append({"name": "nail_%d" % i, "type": "ball", "bodies": ["ball_%d" % i], "anchor": v6([x, 0, top])})
    scene["bodies"] = bodies
    scene["joints"] = joints
    return scene


def cradle():
    return cradle_scene("cradle", 1.0,
        "Newton's cradle after Kleppmann (section 4.3.2): five steel balls, each nailed by a massless wire to "
        "a point of the frame (a ball joint to the world; the wooden frame is only scenery), 2 mm apart, "
        "restitution 1. The first ball is raised 45 degrees: each impact passes its speed along the row and "
        "the last ball flies out, back and forth. For Kleppmann's second run, imperfect collisions, set the "
        "steel's restitution to 0.9 (scenes/cradle_e09.json): all five balls then gradually begin to swing.")


def cradle_e09():
    return cradle_scene("cradle_e09", 0.9,
        "Newton's cradle after Kleppmann (section 4.3.2) with imperfect collisions: as scenes/cradle.json "
        "(five steel balls on massless wires nailed to the frame, the first raised 45 degrees) but with "
        "restitution 0.9. Each impact loses energy and leaves the balls a little speed, so all five "
        "gradually begin to swing and the sequence of collisions becomes complicated.")


CRADLE_RODS_RESTITUTION = 0.95


def cradle_rods():
    """AERO 5.1: five rubber balls on rods (two distance joints each, in a V, so every ball swings in
    the xz plane) from two bars of a stand of static cylinders; one outer ball raised to the horizontal."""
    scene = header("cradle_rods",
        "AERO's five-sphere pendulum (section 5.1): five hard rubber balls (restitution 0.95), each hung by two "
        "rods in a V (distance joints to fixed points on the stand's two top bars) so it swings in one plane; "
        "the stand is built of static cylinders. The left ball is raised until its rods are horizontal and "
        "let go: it falls in a circle onto the others, and the impulse runs through the row to the right ball.",
        1.0 / 1000.0, 6, 60)
    scene["cameras"] = [look("front", [0.3, -2.6, 1.0], [0, 0, 0.65], 45),
        look("high", [1.6, -1.8, 1.9], [0, 0, 0.6], 45)]
    scene["materials"] = {
        "rubber": {"density": 1100, "friction": 0.8, "restitution": CRADLE_RODS_RESTITUTION,
            "appearance": {"color": [0.75, 0.12, 0.1], "finish": "rubber"}},
        "steel": {"density": 7800, "friction": 0.4, "restitution": 0.2,
            "appearance": {"color": [0.7, 0.72, 0.76], "finish": "metal"}},
        "ground": {"density": 1000, "friction": 0.6, "restitution": 0,
            "appearance": {"color": [0.55, 0.55, 0.52], "finish": "matte"}},
    }
    radius, drop, half_width, gap, top = 0.05, 0.5, 0.25, 0.003, 1.0
    hx = 0.45
    stand = {"name": "stand", "type": "static", "material": "steel", "position": [0, 0, 0], "shapes": []}
    for y in (-half_width, half_width):
        stand["shapes"].append(cylinder_between([-hx, y, top], [hx, y, top], 0.015))
        for x in (-hx, hx):
            stand["shapes"].append(cylinder_between([x, y, 0.015], [x, y, top], 0.02))
    for x in (-hx, hx):
        stand["shapes"].append(cylinder_between([x, -half_width, 0.015], [x, half_width, 0.015], 0.015))
    bodies = [ground_box(half=3.0), stand]
    joints = []
    for i in range(5):
        x = (i - 2) * (2 * radius + gap)
        centre = [x - drop, 0, top] if i == 0 else [x, 0, top - drop]
        bodies.append({"name": "ball_%d" % i, "material": "rubber", "position": v6(centre),
            "shapes": [{"type": "sphere", "radius": radius}]})
        for side, y in (("front", -half_width), ("back", half_width)):
            joints.append({"name": "rod_%d_%s" % (i, side), "type": "distance", "bodies": ["ball_%d" % i],
                "anchors": [v6(centre), v6([x, y, top])]})
    scene["bodies"] = bodies
    scene["joints"] = joints
    return scene


CHAIN_LINKS = 20


def chain():
    """20 steel capsule links on ball joints hanging from a hook, an end weight of 100 link masses;
    the straight chain starts 40 degrees from hanging and swings."""
    scene = header("chain",
        "A chain of 20 steel capsule links on ball joints hangs from a hook with an end weight of 100 link "
        "masses (105 kg). It starts straight, 40 degrees from hanging, and swings: the heavy weight keeps it "
        "taut, the light links whip at the turns. The impulse method solves the island's joints exactly, "
        "so the chain hardly stretches under the weight.",
        1.0 / 240.0, 10, 60)
    scene["cameras"] = [look("front", [0.3, -5.2, 1.9], [0.3, 0, 1.7], 50), look("low", [3.5, -3.5, 0.6], [0, 0, 1.4], 50)]
    scene["materials"] = {
        "steel": {"density": 7800, "friction": 0.4, "restitution": 0.1,
            "appearance": {"color": [0.6, 0.62, 0.66], "finish": "metal"}},
        "iron": {"density": 7800, "friction": 0.4, "restitution": 0.1,
            "appearance": {"color": [0.22, 0.22, 0.24], "finish": "metal"}},
        "wood": {"density": 700, "friction": 0.5, "restitution": 0.1,
            "appearance": {"color": [0.45, 0.3, 0.18], "finish": "wood"}},
        "ground": {"density": 1000, "friction": 0.6, "restitution": 0,
            "appearance": {"color": [0.5, 0.52, 0.45], "finish": "matte"}},
    }
    radius, half, theta = 0.02, 0.04, 40.0
    link = 2 * half + 2 * radius
    link_mass = 7800 * (math.pi * radius * radius * 2 * half + 4.0 / 3.0 * math.pi * radius ** 3)
    pivot = [0, 0, 3.2]
    u = [math.sin(math.radians(theta)), 0, -math.cos(math.radians(theta))]
    # the gallows stands behind the plane of the swing
    gallows = {"name": "gallows", "type": "static", "material": "wood", "position": [0, 0, 0], "shapes": [
        {"type": "box", "half_extents": [0.1, 0.1, 1.7], "position": [0, 0.8, 1.7]},
        {"type": "box", "half_extents": [0.06, 0.45, 0.06], "position": [0, 0.4, 3.3]},
        {"type": "sphere", "radius": 0.025, "position": pivot, "material": "steel"}]}
    bodies = [ground_box(half=5.0), gallows]
    joints = []
    for k in range(CHAIN_LINKS):
        centre = [pivot[i] + (k + 0.5) * link * u[i] for i in range(3)]
        bodies.append({"name": "link_%d" % k, "material": "steel", "position": v6(centre), "euler_deg": [0, r6(-theta), 0],
            "shapes": [{"type": "capsule", "radius": radius, "half_height": half}]})
        top = [pivot[i] + k * link * u[i] for i in range(3)]
        joints.append({"name": "joint_%d" % k, "type": "ball",
            "bodies": ["link_%d" % k] if k == 0 else ["link_%d" % k, "link_%d" % (k - 1)], "anchor": v6(top)})
    end = [pivot[i] + CHAIN_LINKS * link * u[i] for i in range(3)]
    weight_radius = 0.15
    centre = [end[i] + weight_radius * u[i] for i in range(3)]
    bodies.append({"name": "weight", "material": "iron", "position": v6(centre), "mass": r6(100 * link_mass),
        "shapes": [{"type": "sphere", "radius": weight_radius}]})
    joints.append({"name": "joint_weight", "type": "ball", "bodies": ["weight", "link_%d" % (CHAIN_LINKS - 1)],
        "anchor": v6(end)})
    scene["bodies"] = bodies
    scene["no_collide"] = [["link_0", "gallows"]]
    scene["joints"] = joints
    return scene


def bridge():
    """20 wooden planks joined by hinges along their edges, hanging between two posts (the span is 5 %
    shorter than the deck, so it sags as a catenary); three crates are dropped on it."""
    scene = header("bridge",
        "A rope bridge of 20 wooden planks joined edge to edge by hinges, its ends hinged to the tops of two "
        "abutments 3.8 m apart: the 4 m deck starts in its hanging shape (a discrete catenary). Three crates "
        "(10, 25 and 15 kg) are dropped on it one after another; the deck gives under each and holds them.",
        1.0 / 240.0, 6, 60)
    scene["cameras"] = [look("side", [0.3, -4.8, 2.5], [0, 0, 1.6], 50), look("along", [-4.0, -1.6, 2.9], [0.5, 0, 1.6], 50)]
    scene["materials"] = {
        "plank": {"density": 600, "friction": 0.7, "restitution": 0.05,
            "appearance": {"color": [0.62, 0.45, 0.28], "finish": "wood"}},
        "crate": {"density": 300, "friction": 0.6, "restitution": 0.05,
            "appearance": {"color": [0.72, 0.55, 0.3], "finish": "wood"}},
        "stone": {"density": 2500, "friction": 0.8, "restitution": 0,
            "appearance": {"color": [0.78, 0.76, 0.72], "finish": "marble"}},
        "ground": {"density": 1000, "friction": 0.6, "restitution": 0,
            "appearance": {"color": [0.35, 0.45, 0.3], "finish": "matte"}},
    }
    count, plank, span, height = 20, 0.2, 3.8, 2.0
    # a chain of equal weights hanging from two points at one height: the slope of link k is
    # c (k + 1/2 - n/2); find c by bisection so the links span the gap
    def width(c):
        return sum(plank * math.cos(math.atan(c * (k + 0.5 - 0.5 * count))) for k in range(count))
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if width(mid) > span:
            lo = mid
        else:
            hi = mid
    c = 0.5 * (lo + hi)
    points = [[-0.5 * span, 0, height]]
    for k in range(count):
        a = math.atan(c * (k + 0.5 - 0.5 * count))
        p = points[-1]
        points.append([p[0] + plank * math.cos(a), 0, p[2] + plank * math.sin(a)])
    bodies = [ground_box(half=6.0)]
    for side, sign in (("left", -1), ("right", 1)):
        # an abutment below and beyond the end hinge, and two posts beside the deck
        x = sign * 0.5 * span
        bodies.append({"name": "abutment_%s" % side, "type": "static", "material": "stone", "position": [r6(x + sign * 0.6), 0, 0],
            "shapes": [{"type": "box", "half_extents": [0.58, 0.8, 0.985], "position": [0, 0, 0.985]},
                {"type": "cylinder", "radius": 0.05, "half_height": 0.35, "position": [r6(-sign * 0.55), -0.6, 2.3]},
                {"type": "cylinder", "radius": 0.05, "half_height": 0.35, "position": [r6(-sign * 0.55), 0.6, 2.3]}]})
    joints = []
    for k in range(count):
        p, q = points[k], points[k + 1]
        centre = [0.5 * (p[i] + q[i]) for i in range(3)]
        pitch = -math.degrees(math.atan2(q[2] - p[2], q[0] - p[0]))
        bodies.append({"name": "plank_%d" % k, "material": "plank", "position": v6(centre), "euler_deg": [0, r6(pitch), 0],
            "shapes": [{"type": "box", "half_extents": [0.098, 0.5, 0.02]}]})
        joints.append({"name": "hinge_%d" % k, "type": "hinge",
            "bodies": ["plank_0"] if k == 0 else ["plank_%d" % k, "plank_%d" % (k - 1)], "anchor": v6(p), "axis": [0, 1, 0]})
    joints.append({"name": "hinge_%d" % count, "type": "hinge", "bodies": ["plank_%d" % (count - 1)],
        "anchor": v6(points[count]), "axis": [0, 1, 0]})
    for i, (x, h, z, m) in enumerate([(-0.7, 0.15, 2.05, 10), (0.15, 0.2, 2.4, 25), (0.9, 0.17, 2.8, 15)]):
        bodies.append({"name": "crate_%d" % i, "material": "crate", "position": [x, 0, z], "mass": m,
            "shapes": [{"type": "box", "half_extents": [h, h, h]}]})
    scene["bodies"] = bodies
    scene["joints"] = joints
    return scene


# The figure: 16 bodies of human proportions (1.74 m, 70 kg; segment masses after Winter's
# anthropometric table), standing at the origin facing +x, feet on z = 0. Each entry: name, mass,
# centre, shapes in the body frame.
FIGURE_SEGMENTS = [
    ("pelvis", 9.9, [0, 0, 0.95], [{"type": "box", "half_extents": [0.1, 0.15, 0.07]}]),
    ("abdomen", 9.7, [0, 0, 1.1], [{"type": "box", "half_extents": [0.09, 0.13, 0.065]}]),
    ("chest", 15.1, [0, 0, 1.31], [{"type": "box", "half_extents": [0.1, 0.17, 0.13]}]),
    ("head", 5.7, [0, 0, 1.64], [{"type": "sphere", "radius": 0.1},
        {"type": "capsule", "radius": 0.045, "half_height": 0.03, "position": [0, 0, -0.12]}]),
]
for _side, _y in (("l", 1), ("r", -1)):
    FIGURE_SEGMENTS += [
        ("upper_arm_" + _side, 2.0, [0, 0.22 * _y, 1.275], [{"type": "capsule", "radius": 0.045, "half_height": 0.1}]),
        ("forearm_" + _side, 1.1, [0, 0.22 * _y, 1.0], [{"type": "capsule", "radius": 0.04, "half_height": 0.09}]),
        ("hand_" + _side, 0.4, [0, 0.22 * _y, 0.78], [{"type": "box", "half_extents": [0.045, 0.02, 0.08]}]),
        ("thigh_" + _side, 7.0, [0, 0.09 * _y, 0.7], [{"type": "capsule", "radius": 0.07, "half_height": 0.13}]),
        ("shin_" + _side, 3.3, [0, 0.09 * _y, 0.29], [{"type": "capsule", "radius": 0.05, "half_height": 0.16}]),
        ("foot_" + _side, 1.0, [0.05, 0.09 * _y, 0.035], [{"type": "box", "half_extents": [0.12, 0.045, 0.035]}]),
    ]

# name, type, bodies (A first), anchor, axis, limits: hinge limits_deg, or (swing, twist range) of a
# cone_twist. Knees and elbows bend one way only: the hinge angle is B's rotation relative to A, so
# an elbow (forearm, upper arm) flexes to positive angles and a knee (shin, thigh) to negative ones.
FIGURE_JOINTS = [
    ("neck", "cone_twist", ["head", "chest"], [0, 0, 1.47], [0, 0, 1], (40, [-60, 60])),
    ("spine_upper", "cone_twist", ["chest", "abdomen"], [0, 0, 1.175], [0, 0, 1], (25, [-25, 25])),
    ("spine_lower", "cone_twist", ["abdomen", "pelvis"], [0, 0, 1.025], [0, 0, 1], (25, [-20, 20])),
]
for _side, _y in (("l", 1), ("r", -1)):
    FIGURE_JOINTS += [
        ("shoulder_" + _side, "cone_twist", ["upper_arm_" + _side, "chest"], [0, 0.22 * _y, 1.42], [0, 0, -1], (80, [-60, 60])),
        ("elbow_" + _side, "hinge", ["forearm_" + _side, "upper_arm_" + _side], [0, 0.22 * _y, 1.135], [0, 1, 0], [0, 150]),
        ("wrist_" + _side, "hinge", ["hand_" + _side, "forearm_" + _side], [0, 0.22 * _y, 0.865], [1, 0, 0], [-60, 60]),
        ("hip_" + _side, "cone_twist", ["thigh_" + _side, "pelvis"], [0, 0.09 * _y, 0.9], [0, 0, -1], (70, [-30, 30])),
        ("knee_" + _side, "hinge", ["shin_" + _side, "thigh_" + _side], [0, 0.09 * _y, 0.5], [0, 1, 0], [-150, 0]),
        ("ankle_" + _side, "hinge", ["foot_" + _side, "shin_" + _side], [0, 0.09 * _y, 0.08], [0, 1, 0], [-35, 35]),
    ]


def figure(place, yaw_deg, push=None):
    """The figure's bodies and joints, turned yaw_deg about z and moved to place (its feet's point
    on the ground). push: a world force [N] on the chest for the first 0.3 s."""
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))

    def turn(v):
        return [c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]]

    def at(v):
        w = turn(v)
        return v6([place[i] + w[i] for i in range(3)])

    bodies, joints = [], []
    for name, mass, centre, shapes in FIGURE_SEGMENTS:
        material = "skin" if name == "head" or name.startswith("hand") else "cloth"
        body = {"name": name, "material": material, "position": at(centre), "mass": mass, "shapes": shapes}
        if yaw_deg != 0:
            body["euler_deg"] = [0, 0, r6(yaw_deg)]
        if name == "chest" and push is not None:
            body["forces"] = [{"frame": "world", "vector": v6(push), "end": 0.3}]
        bodies.append(body)
    for name, kind, pair, anchor, axis, limits in FIGURE_JOINTS:
        joint = {"name": name, "type": kind, "bodies": pair, "anchor": at(anchor), "axis": v6(turn(axis))}
        if kind == "hinge":
            joint["limits_deg"] = limits
        else:
            joint["swing_deg"] = limits[0]
            joint["twist_deg"] = limits[1]
        joints.append(joint)
    return bodies, joints


FIGURE_MATERIALS = {
    "skin": {"density": 1000, "friction": 0.6, "restitution": 0.1,
        "appearance": {"color": [0.85, 0.62, 0.48], "finish": "matte"}},
    "cloth": {"density": 1000, "friction": 0.4, "restitution": 0.05,
        "appearance": {"color": [0.2, 0.3, 0.55], "finish": "matte"}},
}


def ragdoll_stairs():
    """Kleppmann 4.3.4: the figure pushed off the top of a straight flight of ten stone steps."""
    scene = header("ragdoll_stairs",
        "A falling figure after Kleppmann (section 4.3.4, 'Alfred falling down stairs'): a human figure of 16 "
        "bodies (70 kg, 1.74 m: head, chest, abdomen, pelvis, upper arms, forearms, hands, thighs, shins, feet) "
        "with cone-twist shoulders, hips, neck and spine, and limited hinges at elbows, wrists, knees and "
        "ankles, stands at the top of a straight flight of ten stone steps. A push on the chest topples it "
        "forwards and it tumbles down the flight. Parts joined by a joint do not collide; all others do.",
        1.0 / 240.0, 5, 60)
    # 16 sub-steps: the worst joint opening in the hardest impacts (feet whipped onto the steps at about
    # 11 m/s) is 0.5 mm; 8 sub-steps open the ankles by 6.5 mm
    scene["substeps"] = 16
    rise, tread, steps, width = 0.18, 0.28, 10, 1.4
    top = rise * steps
    scene["cameras"] = [look("side", [1.4, -6.0, 3.0], [1.2, 0, 1.1], 55),
        {"name": "follow", "type": "follow", "body": "pelvis", "offset": [0.8, -2.8, 1.2], "fov_deg": 55}]
    scene["materials"] = dict(FIGURE_MATERIALS)
    scene["materials"]["stone"] = {"density": 2400, "friction": 0.7, "restitution": 0.05,
        "appearance": {"color": [0.72, 0.7, 0.66], "finish": "marble"}}
    scene["materials"]["ground"] = {"density": 1000, "friction": 0.7, "restitution": 0,
        "appearance": {"color": [0.45, 0.43, 0.4], "finish": "matte"}}
    stairs = {"name": "stairs", "type": "static", "material": "stone", "position": [0, 0, 0], "shapes": [
        {"type": "box", "half_extents": [0.8, 0.5 * width, 0.5 * top], "position": [-0.8, 0, r6(0.5 * top)]}]}
    for k in range(1, steps):
        h = top - k * rise
        stairs["shapes"].append({"type": "box", "half_extents": [r6(0.5 * tread), 0.5 * width, r6(0.5 * h)],
            "position": [r6((k - 0.5) * tread), 0, r6(0.5 * h)]})
    bodies, joints = figure([-0.35, 0, top], 0, push=[260, 0, 0])
    scene["bodies"] = [ground_box(half=8.0), stairs] + bodies
    scene["joints"] = joints
    return scene


def ragdoll_spiral(rise=0.2, steps=18, turn=20.0, column=0.25, outer=2.0):
    """Twigg's spiral staircase and Kleppmann's second fall: the figure pushed down a spiral staircase
    of stone slabs turned about a central column, with a railing on the outside."""
    top = rise * steps
    scene = header("ragdoll_spiral",
        "A figure falls down a spiral staircase (Kleppmann section 4.3.4, Twigg's many-worlds staircase): the "
        "16-body, 70 kg figure of ragdoll_stairs.json stands on the landing of a staircase of %d stone slabs, "
        "each turned %g degrees further about a central column and %g m lower, with a railing along the "
        "outside. A shove sends it headlong down the steps and round until it comes to rest against the "
        "railing, as falls on spiral stairs mostly end." % (steps, turn, rise),
        1.0 / 240.0, 6, 60)
    scene["substeps"] = 16  # as ragdoll_stairs.json
    scene["cameras"] = [look("above", [4.6, -4.6, 6.2], [0, 0, 1.5], 50),
        {"name": "follow", "type": "follow", "body": "pelvis", "offset": [1.8, -2.6, 2.0], "fov_deg": 55}]
    scene["materials"] = dict(FIGURE_MATERIALS)
    # polished marble: a clothed body slides on it (cloth 0.4 on stone 0.5 gives 0.45)
    scene["materials"]["stone"] = {"density": 2600, "friction": 0.5, "restitution": 0.05,
        "appearance": {"color": [0.74, 0.71, 0.66], "finish": "marble"}}
    scene["materials"]["iron"] = {"density": 7800, "friction": 0.5, "restitution": 0.1,
        "appearance": {"color": [0.2, 0.2, 0.22], "finish": "metal"}}
    scene["materials"]["ground"] = {"density": 1000, "friction": 0.7, "restitution": 0,
        "appearance": {"color": [0.45, 0.43, 0.4], "finish": "matte"}}
    half_r = 0.5 * (outer - column)
    mid = column + half_r
    # slab k (0 at the top) is centred at angle -k turn, its top at top - k rise: the stairs go down
    # clockwise seen from above; each slab reaches from the column to the rim and covers its turn
    # there; the landing adds three slabs at the top, counter-clockwise of slab 0
    half_t = r6(outer * math.tan(math.radians(0.5 * turn)) + 0.02)
    stair = {"name": "staircase", "type": "static", "material": "stone", "position": [0, 0, 0], "shapes": [
        {"type": "cylinder", "radius": column, "half_height": r6(0.5 * (top + 1.2)), "position": [0, 0, r6(0.5 * (top + 1.2))]}]}
    slabs = [(j * turn, top) for j in (3, 2, 1)] + [(-k * turn, top - k * rise) for k in range(steps)]
    for a, z in slabs:
        ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
        stair["shapes"].append({"type": "box", "half_extents": [r6(half_r), half_t, 0.04],
            "position": v6([mid * ca, mid * sa, z - 0.04]), "euler_deg": [0, 0, r6(a)]})
    # the railing: balusters every third of a slab on the rim, from the slab up to a handrail 1 m
    # above the slabs that follows the helix, and a middle rail 0.5 m lower
    rail = {"name": "railing", "type": "static", "material": "iron", "position": [0, 0, 0], "shapes": []}
    heads = []
    for i in range(-9, 3 * steps - 1):
        a = -i * turn / 3.0
        k = int(math.floor(i / 3.0 + 0.5))
        floor = top - max(k, 0) * rise
        rail_z = top + 1.0 - max(i / 3.0, 0.0) * rise
        foot = [(outer - 0.04) * math.cos(math.radians(a)), (outer - 0.04) * math.sin(math.radians(a)), floor]
        head = [foot[0], foot[1], rail_z]
        rail["shapes"].append(cylinder_between(v6(foot), v6(head), 0.012))
        heads.append(head)
    for p, q in zip(heads, heads[1:]):
        rail["shapes"].append(cylinder_between(v6(p), v6(q), 0.025))
        rail["shapes"].append(cylinder_between(v6([p[0], p[1], p[2] - 0.5]), v6([q[0], q[1], q[2] - 0.5]), 0.012))
    # the figure stands at the edge of the top slab, 1 m from the axis, facing down the steps and
    # turned 20 degrees towards the column
    a = 5.0
    place = [math.cos(math.radians(a)), math.sin(math.radians(a)), top]
    heading = a - 90.0 + 20.0
    push = [450 * math.cos(math.radians(heading)), 450 * math.sin(math.radians(heading)), 0]
    bodies, joints = figure(place, heading, push=push)
    scene["bodies"] = [ground_box(half=8.0), stair, rail] + bodies
    scene["joints"] = joints
    return scene

def vehicle(torque=9.0, torque_end=4.5):
    """AERO 5.3: a three-wheeled vehicle with spherical wheels and shock absorbers. Each wheel turns on
    a hinge (its axle) in a carrier that slides up and down in the frame (a slider with limits), held
    by a spring and a damper on the same pair: AERO's shock absorber. A torque on the front wheel drives
    it off a raised platform, past a stylized tree, over a low hill that turns it to the right and onto
    ice, where it spins to a stop; a pendulum swings in the background."""
    scene = header("vehicle",
        "AERO's vehicle on ice (section 5.3): a three-wheeled vehicle with spherical rubber wheels, each on an "
        "axle (hinge) in a carrier that slides vertically in the frame (slider with limits) on a spring and a "
        "damper, AERO's shock absorber. A torque on the front wheel drives it off a raised platform (note the "
        "shock absorbers), under a stylized tree and onto ice, where a low hill catches its right wheels and "
        "turns it to the right: with little grip it spins round and slides almost to a stop. A pendulum swings "
        "in the background.",
        1.0 / 240.0, 16, 60)
    scene["cameras"] = [look("wide", [6.0, -13.0, 5.0], [6.5, 0, 0], 70),
        {"name": "chase", "type": "follow", "body": "frame", "offset": [-2.5, -2.5, 1.6], "fov_deg": 55}]
    scene["materials"] = {
        "paint": {"density": 1000, "friction": 0.5, "restitution": 0.1,
            "appearance": {"color": [0.8, 0.15, 0.1], "finish": "plastic"}},
        "steel": {"density": 7800, "friction": 0.4, "restitution": 0.1,
            "appearance": {"color": [0.7, 0.72, 0.76], "finish": "metal"}},
        "rubber": {"density": 1100, "friction": 0.9, "restitution": 0.3,
            "appearance": {"color": [0.1, 0.1, 0.1], "finish": "rubber"}},
        "wood": {"density": 700, "friction": 0.6, "restitution": 0.1,
            "appearance": {"color": [0.55, 0.38, 0.22], "finish": "wood"}},
        "leaves": {"density": 300, "friction": 0.6, "restitution": 0.1,
            "appearance": {"color": [0.2, 0.5, 0.2], "finish": "matte"}},
        "brass": {"density": 8500, "friction": 0.4, "restitution": 0.2,
            "appearance": {"color": [0.85, 0.65, 0.3], "finish": "metal"}},
        "grass": {"density": 1000, "friction": 0.8, "restitution": 0,
            "appearance": {"color": [0.45, 0.6, 0.35], "finish": "matte"}},
        "concrete": {"density": 2300, "friction": 0.8, "restitution": 0,
            "appearance": {"color": [0.7, 0.7, 0.68], "finish": "matte"}},
        "ice": {"density": 900, "friction": 0.02, "restitution": 0.05,
            "appearance": {"color": [0.82, 0.9, 1.0], "finish": "glass", "ior": 1.31}},
    }
    scene["material_pairs"] = [{"materials": ["rubber", "ice"], "friction": 0.03}]
    step = 0.25
    radius = 0.15
    # the vehicle starts unloaded: wheel centres on the platform, the frame 0.22 m above them with the
    # springs at their rest length; under its weight each corner sinks about 5 cm
    start = [-2.9, 0, step + radius]
    frame_z = start[2] + 0.22
    wheels = [("front", 0.8, 0.0), ("left", -0.45, 0.48), ("right", -0.45, -0.48)]
    bodies = [ground_box("grass", half=30.0),
        box_body("platform", [-3.0, 0, 0.5 * step], [1.5, 1.0, 0.5 * step], type="static", material="concrete"),
        box_body("ice", [15.5, 0, 0.005], [10.0, 6.0, 0.005], type="static", material="ice"),
        # the hill: a cap of a sphere, 0.3 m high, just inside the ice under the right wheels' track
        {"name": "hill", "type": "static", "material": "grass", "position": [6.6, -0.8, -0.4],
            "shapes": [{"type": "sphere", "radius": 0.7}]},
        {"name": "tree", "type": "static", "material": "wood", "position": [0.8, 1.2, 0], "shapes": [
            {"type": "cylinder", "radius": 0.12, "half_height": 0.8, "position": [0, 0, 0.8]},
            {"type": "sphere", "radius": 0.75, "position": [0, -0.6, 2.0], "material": "leaves"}]}]
    # the pendulum: a brass bob on a rod (a distance joint) from the middle of a gallows' top bar
    bar = [0.0, 3.2, 2.4]
    theta = math.radians(40)
    bob = [bar[0] + 1.6 * math.sin(theta), bar[1], bar[2] - 1.6 * math.cos(theta)]
    bodies.append({"name": "gallows", "type": "static", "material": "wood", "position": [0, 0, 0], "shapes": [
        cylinder_between([-1.6, 3.2, 0], [-1.6, 3.2, 2.45], 0.05),
        cylinder_between([1.6, 3.2, 0], [1.6, 3.2, 2.45], 0.05),
        cylinder_between([-1.65, 3.2, 2.45], [1.65, 3.2, 2.45], 0.04)]})
    bodies.append({"name": "bob", "material": "brass", "position": v6(bob), "shapes": [{"type": "sphere", "radius": 0.12}]})
    frame = {"name": "frame", "material": "paint", "position": [start[0], 0, frame_z], "mass": 40, "shapes": [
        {"type": "box", "half_extents": [0.55, 0.25, 0.05]},
        {"type": "box", "half_extents": [0.22, 0.05, 0.03], "position": [0.72, 0, 0.13]},
        {"type": "box", "half_extents": [0.05, 0.05, 0.05], "position": [0.55, 0, 0.07]},
        {"type": "box", "half_extents": [0.12, 0.2, 0.08], "position": [-0.3, 0, 0.13], "material": "steel"}]}
    bodies.append(frame)
    joints = [{"name": "rod", "type": "distance", "bodies": ["bob"], "anchors": [v6(bob), bar]}]
    for name, x, y in wheels:
        centre = [start[0] + x, y, start[2]]
        if name == "front":
            carrier_shapes = [
                {"type": "box", "half_extents": [0.025, 0.015, 0.11], "position": [0, 0.18, 0.09]},
                {"type": "box", "half_extents": [0.025, 0.015, 0.11], "position": [0, -0.18, 0.09]},
                {"type": "box", "half_extents": [0.025, 0.195, 0.015], "position": [0, 0, 0.2]},
                {"type": "cylinder", "radius": 0.02, "half_height": 0.19, "euler_deg": [90, 0, 0]}]
        else:
            side = 1 if y > 0 else -1
            carrier_shapes = [
                {"type": "box", "half_extents": [0.025, 0.015, 0.11], "position": [0, r6(-side * 0.19), 0.09]},
                {"type": "cylinder", "radius": 0.02, "half_height": 0.1, "position": [0, r6(-side * 0.1), 0], "euler_deg": [90, 0, 0]}]
        bodies.append({"name": "carrier_" + name, "material": "steel", "position": v6(centre), "mass": 3,
            "shapes": carrier_shapes})
        # angular damping stands for the rolling resistance of the tyres
        wheel = {"name": "wheel_" + name, "material": "rubber", "position": v6(centre), "mass": 4, "angular_damping": 1.5,
            "shapes": [{"type": "sphere", "radius": radius}]}
        if name == "front":
            wheel["torques"] = [{"frame": "body", "vector": [0, torque, 0], "end": torque_end}]
        bodies.append(wheel)
        top = [centre[0], centre[1], centre[2] + 0.1]
        seat = [centre[0], centre[1], frame_z + 0.08]
        joints += [
            {"name": "axle_" + name, "type": "hinge", "bodies": ["wheel_" + name, "carrier_" + name],
                "anchor": v6(centre), "axis": [0, 1, 0]},
            {"name": "slide_" + name, "type": "slider", "bodies": ["carrier_" + name, "frame"], "anchor": v6(centre),
                "axis": [0, 0, 1], "limits": [-0.12, 0.06]},
            {"name": "spring_" + name, "type": "spring", "bodies": ["carrier_" + name, "frame"], "anchors": [v6(top), v6(seat)],
                "stiffness": 3000, "damping": 0, "rest_length": r6(seat[2] - top[2]), "min_length": 0},
            {"name": "damper_" + name, "type": "damper", "bodies": ["carrier_" + name, "frame"], "anchors": [v6(top), v6(seat)],
                "damping": 150}]
    scene["bodies"] = bodies
    scene["joints"] = joints
    return scene


for _make in (gyroscope, double_pendulum, cradle, cradle_e09, cradle_rods, chain, bridge, ragdoll_stairs,
        ragdoll_spiral, vehicle):
    GENERATED[_make.__name__ + ".json"] = _make


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
    # meshes, heightfields and shapes from files: not checked
    return None


def world_solids(body, shape):
    """The solids of world_solid, and for a hull or compound given by points one box per hull (the box
    of its points in the shape frame, which contains it)."""
    if shape["type"] in ("hull", "compound") and ("points" in shape or "parts" in shape):
        rb = rotation(body)
        pb = body.get("position", [0, 0, 0])
        c = [pb[i] + d for i, d in enumerate(mat_vec(rb, shape.get("position", [0, 0, 0])))]
        r = mat_mul(rb, rotation(shape))
        solids = []
        for points in [shape["points"]] if "points" in shape else [part["points"] for part in shape["parts"]]:
            lo = [min(p[i] for p in points) for i in range(3)]
            hi = [max(p[i] for p in points) for i in range(3)]
            centre = [c[i] + d for i, d in enumerate(mat_vec(r, [0.5 * (lo[k] + hi[k]) for k in range(3)]))]
            solids.append(("box", centre, r, [0.5 * (hi[k] - lo[k]) for k in range(3)]))
        return solids
    s = world_solid(body, shape)
    return [] if s is None else [s]


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
    for i, joint in enumerate(scene.get("joints", [])):
        where = "joints[%d]" % i
        unknown(where, joint, JOINT_COMMON | JOINT_KEYS.get(joint.get("type"), set()))
        if joint.get("type") not in JOINT_KEYS:
            problems.append("%s: %s: unknown joint type %r" % (path, where, joint.get("type")))
        bodies = joint.get("bodies", [])
        if len(bodies) not in (1, 2):
            problems.append("%s: %s: a joint names one or two bodies" % (path, where))
        for name in bodies:
            if name not in names:
                problems.append("%s: %s: unknown body %r" % (path, where, name))


def check_overlaps(path, scene, problems, tolerance=1e-9):
    # bodies joined by a joint (unless it sets collide_connected) and no_collide pairs never collide,
    # nor does a shape of category 0: their overlaps are meant
    apart = {frozenset(pair) for pair in scene.get("no_collide", [])}
    for joint in scene.get("joints", []):
        if len(joint.get("bodies", [])) == 2 and not joint.get("collide_connected", False):
            apart.add(frozenset(joint["bodies"]))
    solids = []
    for body in scene["bodies"]:
        dynamic = body.get("type", "dynamic") != "static"
        for shape in body.get("shapes", []):
            if shape.get("category", 1) in (0, "0", "0x0"):
                continue
            for s in world_solids(body, shape):
                lo, hi = bounds(s)
                solids.append((lo, hi, s, body["name"], dynamic))
    # sweep along x: only pairs whose x ranges overlap are tested
    solids.sort(key=lambda e: e[0][0])
    for i, (lo, hi, s, name, dynamic) in enumerate(solids):
        for lo2, hi2, s2, name2, dynamic2 in solids[i + 1:]:
            if lo2[0] > hi[0] + tolerance:
                break
            if not (dynamic or dynamic2) or name == name2 or frozenset((name, name2)) in apart:
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
