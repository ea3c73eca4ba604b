#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes bench/convex_vs_mesh.json and its terrain bench/meshes/convex_vs_mesh_terrain.obj: the
ConvexVsMesh scene of Jolt's PerformanceTest rebuilt for Cairn, so `cairn bench` and bullet_bench
time the same world as Jolt's test does.

Jolt's scene (PerformanceTest/ConvexVsMeshScene.h), in its y-up axes: a static mesh of a 100 x 100
grid of 3 m cells (20 000 triangles) whose height is 5 sin(50 x / 100) cos(50 z / 100) m, placed at
(-150, 5, -150); and 21 x 4 x 21 = 1764 dynamic bodies at (7.5 x, 15 + 2 y, 7.5 z), x and z from -10 to
10, layer y a box (half extents 0.5, 0.75, 1), a sphere (radius 0.5), a capsule (half height 0.75,
radius 0.5) or a hull of the five points (0, 1, 0), (+-1, 0, 0), (0, 0, +-1); friction 0.5, restitution
0.6 everywhere. Cairn is z-up: Jolt's (x, y, z) becomes (x, -z, y), a quarter turn about x.

    python3 bench/make_convex_vs_mesh.py
"""

import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def num(x):
    r = round(x, 6)
    return str(int(r)) if r == int(r) else repr(r)


def cairn(v):
    """Jolt's y-up (x, y, z) in Cairn's z-up axes."""
    x, y, z = v
    return (x, -z, y)


def main():
    n, cell, height = 100, 3.0, 5.0
    os.makedirs(os.path.join(HERE, "meshes"), exist_ok=True)
    obj = os.path.join(HERE, "meshes", "convex_vs_mesh_terrain.obj")
    with open(obj, "w") as f:
        f.write("# Jolt PerformanceTest ConvexVsMesh terrain in Cairn's axes (bench/make_convex_vs_mesh.py)\n")
        # vertex z * (n + 1) + x, as Jolt numbers them
        for z in range(n + 1):
            for x in range(n + 1):
                h = math.sin(x * 50.0 / n) * math.cos(z * 50.0 / n)
                f.write("v %s %s %s\n" % tuple(num(c) for c in cairn((cell * x, height * h, cell * z))))
        for x in range(n):
            for z in range(n):
                s = (n + 1) * z + x + 1  # OBJ indices start at 1
                # Jolt's winding faces +y; the quarter turn keeps it facing up (+z)
                f.write("f %d %d %d\n" % (s, s + n + 1, s + 1))
                f.write("f %d %d %d\n" % (s + 1, s + n + 1, s + n + 2))
    print("wrote", obj)

    centre = n * cell / 2
    bodies = ['    { "name": "terrain", "type": "static", "position": [%s], "shapes": [{ "type": "mesh", "file": '
              '"meshes/convex_vs_mesh_terrain.obj" }] }' % ", ".join(num(c) for c in cairn((-centre, height, -centre)))]
    shapes = [
        '{ "type": "box", "half_extents": [0.5, 1, 0.75] }',
        '{ "type": "sphere", "radius": 0.5 }',
        '{ "type": "capsule", "half_height": 0.75, "radius": 0.5 }',
        '{ "type": "hull", "points": [[0, 0, 1], [1, 0, 0], [-1, 0, 0], [0, -1, 0], [0, 1, 0]] }',
    ]
    for x in range(-10, 11):
        for y in range(4):
            for z in range(-10, 11):
                p = cairn((7.5 * x, 15.0 + 2.0 * y, 7.5 * z))
                bodies.append('    { "name": "b_%d_%d_%d", "position": [%s], "shapes": [%s] }'
                              % (x + 10, y, z + 10, ", ".join(num(c) for c in p), shapes[y]))
    scene = ('{\n  "cairn": 1,\n  "name": "convex_vs_mesh",\n'
             '  "description": "Jolt PerformanceTest ConvexVsMesh: 1764 boxes, spheres, capsules and hulls dropped on a '
             '20 000-triangle sloping mesh (bench/make_convex_vs_mesh.py)",\n'
             '  "gravity": [0, 0, -9.81],\n  "timestep": 0.016666666666666666,\n  "duration": 10,\n  "fps": 60,\n'
             '  "method": "impulse",\n'
             '  "materials": { "default": { "density": 1000, "friction": 0.5, "restitution": 0.6 } },\n'
             '  "bodies": [\n' + ",\n".join(bodies) + "\n  ]\n}\n")
    path = os.path.join(HERE, "convex_vs_mesh.json")
    with open(path, "w") as f:
        f.write(scene)
    print("wrote", path)


if __name__ == "__main__":
    main()
