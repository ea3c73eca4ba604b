#!/usr/bin/env python3
# Writes the hand-made seeds of the api fuzz target (tests/fuzz/corpus/api/): small scripts in the
# byte language that tests/fuzz/fuzz_api.c reads, so the fuzzer starts from worlds that already
# stand, collide, join and query instead of finding each call's byte layout by chance. The encoder
# below mirrors fuzz_api.c's readers (cnTake*); change both together.
#   python3 tests/fuzz/make_api_seeds.py
import os

METHODS = ["impulse", "lcp", "velocity-projection", "gr-lcp", "gr-velocity-projection", "penalty",
           "analytic-impulse", "constraint"]
SPHERE, BOX, CAPSULE, CYLINDER, PLANE, POLYGON, HULL, MESH, HEIGHTFIELD = range(9)
BALL, HINGE, SLIDER, UNIVERSAL, CONE, FIXED, DISTANCE, SPRING, DAMPER, POINT_ON_PLANE = range(10)
STATIC, KINEMATIC, DYNAMIC = range(3)


class Script:
    def __init__(self, method, planar=False, gravity=None):
        self.b = bytearray()
        self.bodies = 0
        self.shapes = 0
        self.joints = 0
        self.byte(METHODS.index(method))
        self.byte(0 if planar else 1)
        if gravity is None:
            self.byte(1)  # default gravity
        else:
            self.byte(0)
            self.vec(gravity, 20.0)
        self.byte(1)  # default settings
        self.byte(1)  # default shared settings

    def byte(self, v):
        self.b.append(v & 255)

    def unit(self, u):
        u = min(max(u, 0.0), 1.0)
        q = int(round(u * 65535))
        self.byte(q >> 8)
        self.byte(q)

    def real(self, x, scale):
        self.byte(0)
        self.unit((x / scale + 1.0) / 2.0)

    def size(self, x, scale):
        self.byte(0)
        self.unit(x / scale - 0.02)

    def edge(self, i):
        # 0, -0, NaN, inf, -inf, 1e300, -1e300, denormal, 1e-300, -1, 1e20, DBL_MAX
        self.byte(224 + i)

    def vec(self, v, scale):
        for x in v:
            self.real(x, scale)

    def identity(self):
        self.byte(0)

    def body(self, kind, position, velocity=None):
        self.byte(0)
        self.byte(kind)
        self.vec(position, 5.0)
        self.identity()
        if velocity is None:
            self.byte(0)
        else:
            self.byte(1)
            self.vec(velocity, 10.0)
            self.vec((0.0, 0.0, 1.0), 10.0)
        self.byte(1)  # no damping settings
        self.byte(1)  # may sleep
        self.byte(1)  # awake
        self.byte(1)  # not a bullet
        self.byte(0)  # no name
        self.bodies += 1
        return self.bodies - 1

    def shape(self, body, kind, radius=0.25, half=(0.25, 0.25, 0.25), half_height=0.25, normal=(0, 0, 1),
              offset=0.0, big=False):
        self.byte(5)
        self.byte(body)
        self.byte(kind)
        self.byte(0 if big else 1)
        scale = 5.0 if big else 0.5
        self.size(radius, scale)
        for h in half:
            self.size(h, scale)
        self.size(half_height, scale)
        self.vec(normal, 1.0)
        self.real(offset, 1.0)
        self.byte(0)  # at the body origin
        self.identity()
        self.byte(1)  # material 0
        self.byte(1)  # default filter
        self.byte(1)  # contact events
        self.byte(1)  # hit events
        self.shapes += 1
        return scale

    def hull_points(self, points, scale):
        self.byte(len(points))
        for p in points:
            self.vec(p, scale)

    def step(self, kind=0, repeat=4):
        self.byte(13)
        self.byte(kind)  # 0: 1/60 s, 1: 1/120, 2: 1/30, 3: 0, 4: -0.01, 5: NaN, 6: inf, 7: 1e-9, 8: 0.1, 9: 0.25
        self.byte(repeat - 1)

    def read_back(self, body):
        # with none made, an id pick takes the garbage id of the next two bytes
        self.byte(19)
        self.byte(body)
        self.b += bytes([0]) if self.shapes > 0 else bytes([0, 8, 1])  # shape 0
        self.b += bytes([0]) if self.joints > 0 else bytes([0, 8, 1])  # joint 0
        self.b += bytes([0, 8, 1])  # force 0 (none)

    def ray_down(self, x, y):
        self.byte(17)
        self.byte(1)  # default filter
        self.vec((x, y, 5.0), 6.0)
        self.vec((0.0, 0.0, -10.0), 12.0)
        self.byte(1)  # the closest hit

    def joint(self, kind, a, b, anchor, axis=None, other=(0, 0, 0), limit=True):
        self.byte(10)
        self.byte(kind)
        self.byte(a)
        if b is None:
            self.byte(0)
        else:
            self.byte(1)
            self.byte(b)
        self.byte(0)  # no collision between them
        self.byte(1)  # never breaks
        self.byte(0)  # no name
        self.vec(anchor, 3.0)
        self.vec(other, 3.0)
        if axis is None:
            self.byte(0)
        else:
            self.byte(1)
            self.vec(axis, 1.0)
        self.real(-0.5, 2.0)
        self.real(0.5, 2.0)
        self.size(100.0, 200.0)
        self.size(1.0, 10.0)
        self.byte(1 if limit else 0)
        self.byte(0)  # no motor
        self.byte(0)  # no spring
        # what each type reads after the common part
        if kind in (HINGE, SLIDER):
            self.real(0.0, 5.0)  # motor speed
            self.size(10.0, 50.0)  # motor torque or force
            self.real(0.0, 1.0)  # rest angle or translation
        elif kind == UNIVERSAL:
            self.byte(0)  # the default axes
        elif kind == CONE:
            self.real(0.7, 3.5)  # swing angle
        elif kind == DISTANCE and limit:
            self.real(-1.0, 3.0)  # length: the anchors' distance
        elif kind in (SPRING, DAMPER):
            self.size(0.01, 0.5)  # minimum length
        self.joints += 1

    def floor(self):
        ground = self.body(STATIC, (0.0, 0.0, -0.5))
        self.shape(ground, BOX, half=(4.0, 4.0, 0.5), big=True)
        return ground

    def write(self, path):
        with open(path, "wb") as f:
            f.write(bytes(self.b))


def stack(method):
    s = Script(method)
    s.floor()
    for i in range(3):
        b = s.body(DYNAMIC, (0.1 * i, 0.0, 0.3 + 0.55 * i))
        s.shape(b, [BOX, SPHERE, CYLINDER][i])
    s.step(0, 4)
    s.step(0, 4)
    s.read_back(1)
    s.ray_down(0.0, 0.0)
    s.step(0, 4)
    return s


def geometry():
    s = Script("impulse")
    ground = s.body(STATIC, (0.0, 0.0, 0.0))
    # an open mesh floor of two triangles
    scale = s.shape(ground, MESH, big=True)
    s.byte(0)  # random triangles
    s.byte(3)  # 4 vertices
    s.byte(2)  # 2 triangles
    for i in (0, 1, 2, 0, 2, 3):
        s.byte(i + 1)
    for v in ((-4, -4, 0), (4, -4, 0), (4, 4, 0), (-4, 4, 0)):
        s.vec(v, scale)
    field = s.body(STATIC, (0.0, 0.0, -1.0))
    s.shape(field, HEIGHTFIELD)
    s.byte(3)
    s.byte(3)
    for h in (0, 0.2, 0, 0.1, 0.3, 0.1, 0, 0.2, 0):
        s.real(h, 1.0)
    s.size(6.0, 10.0)
    s.size(6.0, 10.0)
    rock = s.body(DYNAMIC, (0.0, 0.0, 1.0))
    scale = s.shape(rock, HULL)
    s.hull_points([(-0.2, -0.2, -0.2), (0.2, -0.2, -0.2), (0, 0.25, -0.2), (0, 0, 0.25), (0.1, 0.1, 0.1)], scale)
    tetra = s.body(DYNAMIC, (1.0, 0.0, 1.0))
    scale = s.shape(tetra, MESH)
    s.byte(1)  # the closed tetrahedron
    for v in ((0, 0, 0), (0.4, 0, 0), (0, 0.4, 0), (0, 0, 0.4)):
        s.vec(v, scale)
    s.step(0, 4)
    s.step(0, 4)
    s.ray_down(0.0, 0.0)
    s.read_back(2)
    s.step(0, 4)
    return s


def joints(method):
    s = Script(method)
    s.floor()
    a = s.body(DYNAMIC, (0.0, 0.0, 2.0))
    s.shape(a, BOX)
    b = s.body(DYNAMIC, (0.6, 0.0, 2.0))
    s.shape(b, CAPSULE)
    c = s.body(DYNAMIC, (1.2, 0.0, 2.0))
    s.shape(c, SPHERE)
    s.joint(BALL, a, None, (0.0, 0.0, 2.5))
    s.joint(HINGE, a, b, (0.3, 0.0, 2.0), axis=(0.0, 1.0, 0.0))
    s.joint(DISTANCE, b, c, (0.6, 0.0, 2.0), other=(1.2, 0.0, 2.0), limit=False)
    s.joint(CONE, c, b, (0.9, 0.0, 2.0), axis=(1.0, 0.0, 0.0))
    s.joint(SPRING, c, None, (1.2, 0.0, 2.0), other=(1.2, 0.0, 2.8))
    s.step(0, 4)
    s.read_back(1)
    s.step(0, 4)
    s.byte(20)
    s.byte(0)  # destroy a body
    s.byte(2)
    s.step(0, 4)
    return s


def edges():
    # the boundary: non-finite and negative sizes, bad time steps, stale ids after destruction
    s = Script("impulse")
    s.floor()
    b = s.body(DYNAMIC, (0.0, 0.0, 1.0))
    s.byte(5)
    s.byte(b)
    s.byte(SPHERE)
    s.byte(1)
    s.edge(2)  # NaN radius
    for i in range(3):
        s.edge(9)
    s.edge(5)
    s.vec((0, 0, 1), 1.0)
    s.real(0.0, 1.0)
    s.byte(0)
    s.identity()
    s.byte(1)
    s.byte(1)
    s.byte(0)
    s.byte(0)
    s.shape(b, BOX)
    for kind in (3, 4, 5, 6, 7, 0):
        s.step(kind, 1)
    s.byte(20)
    s.byte(0)
    s.byte(b)  # destroy the body
    s.read_back(b)  # a stale id
    s.byte(20)
    s.byte(1)
    s.byte(0)  # destroy the first shape (already gone with its body or not)
    s.step(0, 2)
    return s


def planar():
    s = Script("lcp", planar=True, gravity=(0.0, -9.81, 0.0))
    ground = s.body(STATIC, (0.0, 0.0, 0.0))
    s.shape(ground, PLANE, normal=(0.0, 1.0, 0.0))
    b = s.body(DYNAMIC, (0.0, 1.0, 0.0))
    scale = s.shape(b, POLYGON)
    s.byte(4)
    for v in ((-0.2, -0.2), (0.2, -0.2), (0.2, 0.2), (-0.2, 0.2)):
        s.real(v[0], scale)
        s.real(v[1], scale)
        s.byte(1)  # z = 0
    s.byte(1)  # rounded by the radius
    s.step(0, 4)
    s.step(0, 4)
    return s


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "api")
    os.makedirs(out, exist_ok=True)
    seeds = {
        "stack_impulse": stack("impulse"),
        "stack_lcp": stack("lcp"),
        "stack_gr_velocity_projection": stack("gr-velocity-projection"),
        "stack_penalty": stack("penalty"),
        "stack_constraint": stack("constraint"),
        "geometry": geometry(),
        "joints_impulse": joints("impulse"),
        "joints_velocity_projection": joints("velocity-projection"),
        "joints_analytic_impulse": joints("analytic-impulse"),
        "edges": edges(),
        "planar_lcp": planar(),
    }
    for name, script in seeds.items():
        script.write(os.path.join(out, name))


if __name__ == "__main__":
    main()
