#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes Cairn's geometry scenes and their mesh files next to this script:

    jacks.json        Schmidl's jacks (appendix B.4): non-convex six-pointed jacks, each a compound of
                      three pointed bars (hulls), dropped into a heap
    stairs_mesh.json  balls and boxes bouncing down a staircase given as a mesh (meshes/stairs.obj)
    terrain.json      AERO's uneven floor: balls and a few boxes rolling over a heightfield read from
                      a 16-bit PNG (meshes/terrain.png)
    mesh_drop.json    Kleppmann's closed meshes: tori and trefoil knots (meshes/torus.obj,
                      meshes/knot.obj) falling onto a mesh floor

    python3 scenes/make_geometry_scenes.py

The generated files are committed; nothing needs to run this script to use them. Standard library
only (the PNG is written with zlib). Random placements come from a seeded generator, so the output
is the same on every run.
"""

import math
import os
import random
import struct
import sys
import zlib

import make_scenes as ms

HERE = os.path.dirname(os.path.abspath(__file__))
MESHES = os.path.join(HERE, "meshes")
r6 = ms.r6


# ---------------------------------------------------------------------------------------------
# mesh files

def write_obj(path, vertices, triangles, comment):
    """A Wavefront OBJ of one closed object: v lines and 1-based f lines, counter-clockwise from outside."""
    check_closed(os.path.basename(path), triangles)
    with open(path, "w") as f:
        f.write("# %s\n# written by scenes/make_geometry_scenes.py\n" % comment)
        for v in vertices:
            f.write("v %s %s %s\n" % tuple(ms.num(r6(c)) for c in v))
        for t in triangles:
            f.write("f %d %d %d\n" % (t[0] + 1, t[1] + 1, t[2] + 1))
    print("wrote", path)


def write_png16(path, rows):
    """A 16-bit grayscale PNG of rows (top row first) of values in [0, 65535]."""
    height, width = len(rows), len(rows[0])
    raw = b"".join(b"\x00" + b"".join(struct.pack(">H", v) for v in row) for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
    print("wrote", path)


def stairs_mesh(steps=8, rise=0.2, tread=0.35, width=2.0, landing=0.8):
    """A closed staircase descending along +x: the side profile (a landing, then steps, star-shaped
    from its bottom-left corner, so a fan triangulates it) extruded across y."""
    top = steps * rise
    profile = [(0.0, 0.0), (landing + steps * tread, 0.0)]
    # the outline from the bottom-right corner up the steps to the landing, counter-clockwise in xz
    # seen from -y
    x = landing + steps * tread
    for k in range(steps):
        h = (k + 1) * rise
        profile.append((x, h))
        x -= tread
        if k + 1 < steps:
            # the top step's tread runs on into the landing
            profile.append((x, h))
    profile.append((0.0, top))
    n = len(profile)
    vertices = [(px, -0.5 * width, pz) for px, pz in profile] + [(px, 0.5 * width, pz) for px, pz in profile]
    triangles = []
    # the two side faces: fans from vertex 0 (the y = -w/2 face looks along -y, the other along +y)
    for i in range(1, n - 1):
        triangles.append((0, i, i + 1))
        triangles.append((n, n + i + 1, n + i))
    # the surface around the profile: one quad per profile edge
    for i in range(n):
        j = (i + 1) % n
        triangles.append((i, n + i, n + j))
        triangles.append((i, n + j, j))
    return vertices, triangles


def check_closed(name, triangles):
    """Fails unless every directed edge appears once and its reverse once: closed, manifold and
    consistently wound."""
    edges = {}
    for a, b, c in triangles:
        for e in ((a, b), (b, c), (c, a)):
            edges[e] = edges.get(e, 0) + 1
    for (a, b), count in edges.items():
        if count != 1 or edges.get((b, a)) != 1:
            raise SystemExit("%s: edge %d-%d is not shared by exactly two opposite triangles" % (name, a, b))


def fix_winding(vertices, triangles):
    """Flips every triangle when the mesh's signed volume is negative (inside-out)."""
    volume = 0.0
    for a, b, c in triangles:
        p, q, r = vertices[a], vertices[b], vertices[c]
        volume += (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0])
                   + p[2] * (q[0] * r[1] - q[1] * r[0])) / 6.0
    return triangles if volume > 0 else [(a, c, b) for a, b, c in triangles]


def tube_mesh(curve, rings, sides, radius):
    """A closed tube of the given radius around a closed curve (curve(t), t in [0, 1)), with parallel-
    transported frames so it does not twist; counter-clockwise from outside."""
    points = [curve(k / rings) for k in range(rings)]
    tangents = []
    for k in range(rings):
        a, b = points[(k - 1) % rings], points[(k + 1) % rings]
        d = [b[i] - a[i] for i in range(3)]
        length = math.sqrt(sum(x * x for x in d))
        tangents.append([x / length for x in d])
    # initial normal: any vector perpendicular to the first tangent
    t0 = tangents[0]
    helper = [0.0, 0.0, 1.0] if abs(t0[2]) < 0.9 else [1.0, 0.0, 0.0]
    n = cross(t0, helper)
    n = scale(n, 1.0 / norm(n))
    normals = []
    for k in range(rings):
        t = tangents[k]
        n = [n[i] - dot(n, t) * t[i] for i in range(3)]
        n = scale(n, 1.0 / norm(n))
        normals.append(n)
    # close the frame: spread the leftover twist evenly along the tube
    end = normals[-1]
    twist = math.atan2(dot(cross(end, normals[0]), tangents[0]), dot(end, normals[0]))
    vertices = []
    for k in range(rings):
        t, n = tangents[k], normals[k]
        b = cross(t, n)
        extra = twist * k / rings
        for s in range(sides):
            a = 2.0 * math.pi * s / sides + extra
            off = [math.cos(a) * n[i] + math.sin(a) * b[i] for i in range(3)]
            vertices.append([points[k][i] + radius * off[i] for i in range(3)])
    triangles = []
    for k in range(rings):
        k2 = (k + 1) % rings
        for s in range(sides):
            s2 = (s + 1) % sides
            a, b, c, d = k * sides + s, k * sides + s2, k2 * sides + s2, k2 * sides + s
            triangles.append((a, b, c))
            triangles.append((a, c, d))
    return vertices, fix_winding(vertices, triangles)


def dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def norm(a):
    return math.sqrt(dot(a, a))


def scale(a, s):
    return [s * x for x in a]


def torus_curve(major):
    return lambda t: [major * math.cos(2 * math.pi * t), major * math.sin(2 * math.pi * t), 0.0]


def trefoil_curve(size):
    # the trefoil knot (sin t + 2 sin 2t, cos t - 2 cos 2t, -sin 3t), scaled
    def c(u):
        t = 2.0 * math.pi * u
        return [size * (math.sin(t) + 2 * math.sin(2 * t)), size * (math.cos(t) - 2 * math.cos(2 * t)),
                -size * math.sin(3 * t)]
    return c


def plate_mesh(half, cells, thickness):
    """A closed flat plate (its top tessellated into cells x cells squares, top at z = 0): a mesh floor
    whose many coplanar triangles test the internal-edge handling."""
    vertices, triangles = [], []
    for j in range(cells + 1):
        for i in range(cells + 1):
            vertices.append((-half + 2 * half * i / cells, -half + 2 * half * j / cells, 0.0))
    for j in range(cells):
        for i in range(cells):
            a = j * (cells + 1) + i
            triangles.append((a, a + 1, a + cells + 2))
            triangles.append((a, a + cells + 2, a + cells + 1))
    # the bottom and the four sides: the top's border ring joined to a bottom quad
    base = len(vertices)
    vertices += [(-half, -half, -thickness), (half, -half, -thickness), (half, half, -thickness), (-half, half, -thickness)]
    triangles += [(base, base + 2, base + 1), (base, base + 3, base + 2)]
    sides = [
        ([i for i in range(cells + 1)], base, base + 1),                                  # y = -half
        ([i * (cells + 1) + cells for i in range(cells + 1)], base + 1, base + 2),        # x = +half
        ([cells * (cells + 1) + cells - i for i in range(cells + 1)], base + 2, base + 3),  # y = +half
        ([(cells - i) * (cells + 1) for i in range(cells + 1)], base + 3, base),          # x = -half
    ]
    for edge, b0, b1 in sides:
        # fan: the top edge's points against the two bottom corners of this side
        for k in range(cells):
            triangles.append((edge[k], b0, edge[k + 1]))
        triangles.append((edge[cells], b0, b1))
    return vertices, fix_winding(vertices, triangles)


# ---------------------------------------------------------------------------------------------
# scenes

def jack_parts(arm, half_width):
    """Three pointed bars along x, y and z: each a square bar of half width w to +-(arm - w), then a
    point at +-arm (10 points: a hull with two pyramids on a box)."""
    parts = []
    for axis in range(3):
        u, v = (axis + 1) % 3, (axis + 2) % 3
        points = []
        for end in (-1, 1):
            for su, sv in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
                p = [0.0, 0.0, 0.0]
                p[axis] = end * (arm - half_width)
                p[u], p[v] = su * half_width, sv * half_width
                points.append([r6(c) for c in p])
            tip = [0.0, 0.0, 0.0]
            tip[axis] = end * arm
            points.append(tip)
        parts.append({"points": points})
    return parts


def quat_from_euler(rng):
    """A uniformly random unit quaternion [w, x, y, z] (Shoemake)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    q = [b * math.cos(2 * math.pi * u3), a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
         b * math.sin(2 * math.pi * u3)]
    return [r6(c) for c in q]


def jacks(count=36, arm=0.15, half_width=0.025):
    scene = ms.header("jacks",
        "Schmidl's jacks (appendix B.4, 'an example of non-convexity'): %d six-pointed jacks, each a compound of "
        "three pointed bars (convex hulls), dropped in a loose cloud onto a wooden floor inside a low box, "
        "where they tumble into a tangled heap." % count, ms.STEP_60, 4, 60)
    scene["cameras"] = [ms.look("side", [1.6, -2.2, 1.4], [0, 0, 0.15], 45)]
    scene["materials"] = {
        "floor": {"density": 700, "friction": 0.5, "restitution": 0.2,
                  "appearance": {"color": [0.62, 0.45, 0.28], "finish": "wood"}},
        "steel": {"density": 7800, "friction": 0.4, "restitution": 0.3,
                  "appearance": {"color": [0.75, 0.76, 0.8], "finish": "metal"}},
        "brass": {"density": 8500, "friction": 0.4, "restitution": 0.3,
                  "appearance": {"color": [0.85, 0.65, 0.3], "finish": "metal"}},
    }
    half = 0.6
    # the floor reaches well past the low box: a jack that climbs out of the heap lands on it
    bodies = [{"name": "floor", "type": "static", "material": "floor", "position": [0, 0, -0.05],
               "shapes": [{"type": "box", "half_extents": [half + 1.0, half + 1.0, 0.05]}]}]
    for k, (x, y) in enumerate(((half, 0), (-half, 0), (0, half), (0, -half))):
        bodies.append({"name": "wall_%d" % k, "type": "static", "material": "floor", "position": [x, y, 0.1],
                       "shapes": [{"type": "box", "half_extents": [0.05 if x else half, 0.05 if y else half, 0.1]}]})
    rng = random.Random(1987)
    parts = jack_parts(arm, half_width)
    # a 3 x 3 grid of columns, each jack 0.34 m above the one below, turned at random
    for k in range(count):
        layer, cell = divmod(k, 9)
        i, j = divmod(cell, 3)
        position = [r6(0.34 * (i - 1) + 0.02 * (layer % 2)), r6(0.34 * (j - 1) - 0.02 * (layer % 2)),
                    r6(0.3 + 0.34 * layer)]
        bodies.append({"name": "jack_%d" % k, "material": "steel" if k % 2 == 0 else "brass", "position": position,
                       "orientation": quat_from_euler(rng),
                       "angular_velocity": [r6(rng.uniform(-3, 3)) for _ in range(3)],
                       "shapes": [{"type": "compound", "parts": parts}]})
    scene["bodies"] = bodies
    return scene


def stairs_scene():
    steps, rise, tread, width, landing = 8, 0.2, 0.35, 2.0, 0.8
    vertices, triangles = stairs_mesh(steps, rise, tread, width, landing)
    write_obj(os.path.join(MESHES, "stairs.obj"), vertices, fix_winding(vertices, triangles),
              "a staircase of %d steps (rise %g m, tread %g m, width %g m) with a landing" % (steps, rise, tread, width))
    scene = ms.header("stairs_mesh",
        "Balls and boxes bouncing down a staircase of eight stone steps given as a triangle mesh "
        "(meshes/stairs.obj, a closed solid read through assimp): rubber balls and wooden blocks set off "
        "from the landing at the top tumble down the steps onto the floor.", ms.STEP_60, 4, 60)
    scene["cameras"] = [ms.look("side", [2.4, -5.5, 2.4], [2.0, 0, 0.8], 50)]
    scene["materials"] = {
        "stone": {"density": 2400, "friction": 0.7, "restitution": 0.3,
                  "appearance": {"color": [0.72, 0.7, 0.66], "finish": "marble"}},
        "ground": {"density": 1000, "friction": 0.7, "restitution": 0.3,
                   "appearance": {"color": [0.45, 0.43, 0.4], "finish": "matte"}},
        "rubber": {"density": 1100, "friction": 0.8, "restitution": 0.7, "color": [0.86, 0.2, 0.18]},
        "rubber_blue": {"density": 1100, "friction": 0.8, "restitution": 0.6, "color": [0.2, 0.38, 0.86]},
        "wood": {"density": 600, "friction": 0.6, "restitution": 0.3,
                 "appearance": {"color": [0.7, 0.52, 0.3], "finish": "wood"}},
    }
    bodies = [ms.ground_box(half=8.0),
              {"name": "stairs", "type": "static", "material": "stone", "position": [0, 0, 0],
               "shapes": [{"type": "mesh", "file": "meshes/stairs.obj"}]}]
    top = steps * rise
    for k in range(5):
        bodies.append({"name": "ball_%d" % k, "material": "rubber" if k % 2 == 0 else "rubber_blue",
                       "position": [r6(0.25 + 0.1 * k), r6(-0.7 + 0.35 * k), r6(top + 0.12 + 0.3 * k)],
                       "velocity": [r6(1.2 + 0.15 * k), 0, 0],
                       "shapes": [{"type": "sphere", "radius": r6(0.08 + 0.015 * k)}]})
    for k in range(3):
        bodies.append({"name": "block_%d" % k, "material": "wood",
                       "position": [0.35, r6(-0.5 + 0.5 * k), r6(top + 0.1 + 0.02 * k)],
                       "velocity": [r6(1.6 + 0.2 * k), 0, 0], "euler_deg": [0, 0, 15 * k],
                       "shapes": [{"type": "box", "half_extents": [0.09, 0.09, 0.09]}]})
    scene["bodies"] = bodies
    return scene


def terrain_height(x, y, half=10.0):
    """Rolling hills in [0, 1]: a few smooth bumps and a valley, as AERO's uneven floor, inside a rim
    that rises over the outer tenth so nothing rolls off the edge."""
    edge = max(abs(x), abs(y)) / half
    u = min(max((edge - 0.85) / 0.15, 0.0), 1.0)
    h = 0.35 + 0.45 * u * u * (3 - 2 * u)
    for cx, cy, r, a in ((-4.0, -3.0, 3.0, 0.45), (4.5, 2.5, 3.5, 0.5), (0.5, 5.0, 2.5, 0.3), (-5.0, 4.5, 2.0, 0.25)):
        h += a * math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (r * r))
    h -= 0.3 * math.exp(-((x - 1.0) ** 2 + (y + 2.0) ** 2) / 6.0)
    h += 0.04 * math.sin(0.9 * x) * math.cos(0.7 * y)
    return min(max(h, 0.0), 1.0) if edge <= 1.0 else 1.0


def terrain_scene(size=20.0, samples=65, height_scale=2.0):
    rows = []
    for j in range(samples):
        # the top image row is +y
        y = 0.5 * size - size * j / (samples - 1)
        rows.append([int(round(65535 * terrain_height(-0.5 * size + size * i / (samples - 1), y)))
                     for i in range(samples)])
    write_png16(os.path.join(MESHES, "terrain.png"), rows)
    scene = ms.header("terrain",
        "AERO's uneven floor: a 20 m x 20 m heightfield of rolling hills and a valley inside a raised rim "
        "(meshes/terrain.png, a 16-bit grayscale image, %d x %d samples, 2 m for white) with balls of several sizes and a few boxes "
        "released on the slopes, rolling down into the valley." % (samples, samples), ms.STEP_60, 8, 60)
    scene["cameras"] = [ms.look("overview", [12.0, -16.0, 11.0], [0, 0, 0.5], 50)]
    scene["materials"] = {
        "grass": {"density": 1500, "friction": 0.8, "restitution": 0.2,
                  "appearance": {"color": [0.33, 0.52, 0.25], "finish": "matte"}},
        "rubber": {"density": 1100, "friction": 0.9, "restitution": 0.5, "color": [0.86, 0.2, 0.18]},
        "rubber_yellow": {"density": 1100, "friction": 0.9, "restitution": 0.5, "color": [0.95, 0.8, 0.2]},
        "wood": {"density": 600, "friction": 0.6, "restitution": 0.2,
                 "appearance": {"color": [0.7, 0.52, 0.3], "finish": "wood"}},
    }
    bodies = [{"name": "terrain", "type": "static", "material": "grass", "position": [0, 0, 0],
               "shapes": [{"type": "heightfield", "file": "meshes/terrain.png", "size": [size, size],
                           "height_scale": height_scale}]}]
    rng = random.Random(1993)
    for k in range(16):
        x, y = rng.uniform(-7.5, 7.5), rng.uniform(-7.5, 7.5)
        r = rng.uniform(0.15, 0.4)
        z = height_scale * terrain_height(x, y) + r + 0.3
        bodies.append({"name": "ball_%d" % k, "material": "rubber" if k % 2 else "rubber_yellow",
                       "position": [r6(x), r6(y), r6(z)], "shapes": [{"type": "sphere", "radius": r6(r)}]})
    for k in range(4):
        x, y = rng.uniform(-6, 6), rng.uniform(-6, 6)
        z = height_scale * terrain_height(x, y) + 0.6
        bodies.append({"name": "box_%d" % k, "material": "wood", "position": [r6(x), r6(y), r6(z)],
                       "euler_deg": [0, 0, r6(rng.uniform(0, 90))],
                       "shapes": [{"type": "box", "half_extents": [0.25, 0.2, 0.15]}]})
    scene["bodies"] = bodies
    return scene


def mesh_drop_scene():
    torus_v, torus_t = tube_mesh(torus_curve(0.3), 32, 12, 0.1)
    write_obj(os.path.join(MESHES, "torus.obj"), torus_v, torus_t, "a torus: major radius 0.3 m, tube radius 0.1 m")
    knot_v, knot_t = tube_mesh(trefoil_curve(0.1), 96, 10, 0.06)
    write_obj(os.path.join(MESHES, "knot.obj"), knot_v, knot_t, "a trefoil knot tube of radius 0.06 m")
    plate_v, plate_t = plate_mesh(2.0, 16, 0.2)
    write_obj(os.path.join(MESHES, "floor.obj"), plate_v, plate_t, "a 4 m x 4 m plate, its top tessellated 16 x 16")
    scene = ms.header("mesh_drop",
        "Kleppmann's closed triangle meshes (section 3: meshes with an AABB tree each, vertex-face and edge-edge "
        "contacts): three tori and two trefoil knots, closed tubes of 768 and 1920 triangles, fall onto a mesh "
        "floor (a tessellated plate) and onto each other, and come to rest.", ms.STEP_60, 4, 60)
    scene["cameras"] = [ms.look("side", [2.2, -2.8, 1.8], [0, 0, 0.3], 45)]
    scene["materials"] = {
        "stone": {"density": 2400, "friction": 0.6, "restitution": 0.2,
                  "appearance": {"color": [0.3, 0.34, 0.4], "finish": "marble"}},
        "ceramic": {"density": 2300, "friction": 0.5, "restitution": 0.3,
                    "appearance": {"color": [0.2, 0.5, 0.8], "finish": "plastic"}},
        "clay": {"density": 1800, "friction": 0.6, "restitution": 0.2,
                 "appearance": {"color": [0.8, 0.4, 0.2], "finish": "plastic"}},
    }
    bodies = [{"name": "floor", "type": "static", "material": "stone", "position": [0, 0, 0],
               "shapes": [{"type": "mesh", "file": "meshes/floor.obj"}]}]
    placements = [([-0.5, -0.3, 0.4], [20, 10, 0]), ([0.5, 0.2, 0.55], [-15, 30, 40]), ([0.0, 0.0, 1.2], [70, 0, 10]),
                  ([-0.3, 0.5, 0.9], [0, 0, 0]), ([0.4, -0.5, 1.6], [30, -20, 60])]
    for k, (p, e) in enumerate(placements):
        knot = k >= 3
        bodies.append({"name": ("knot_%d" % (k - 3)) if knot else ("torus_%d" % k),
                       "material": "clay" if knot else "ceramic", "position": p, "euler_deg": e,
                       "shapes": [{"type": "mesh", "file": "meshes/knot.obj" if knot else "meshes/torus.obj"}]})
    scene["bodies"] = bodies
    return scene


GENERATED = {"jacks.json": jacks, "stairs_mesh.json": stairs_scene, "terrain.json": terrain_scene,
             "mesh_drop.json": mesh_drop_scene}


def main(argv):
    os.makedirs(MESHES, exist_ok=True)
    names = [a for a in argv[1:] if not a.startswith("-")]
    for name, make in GENERATED.items():
        if names and name not in names:
            continue
        path = os.path.join(HERE, name)
        with open(path, "w") as f:
            f.write(ms.dump(make()))
        print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
