# SPDX-License-Identifier: MIT
"""Blender rigid bodies -> Cairn scene, a `cairn run`, and its CSV back as frames.

Nothing here imports bpy: the functions take and return plain data (dicts, tuples, lists), so the
mapping can be used and tested outside Blender's UI. `blender_io.py` gathers this data from
Blender objects and bakes the result back.

A *body spec* is a dict describing one Blender object with rigid body settings:

    name              Blender object name (str)
    type              'ACTIVE' or 'PASSIVE' (rigid_body.type)
    kinematic         bool, rigid_body.kinematic ("Animated")              default False
    enabled           bool, rigid_body.enabled ("Dynamic")                 default True
    shape             rigid_body.collision_shape: 'BOX', 'SPHERE', 'CAPSULE', 'CYLINDER',
                      'CONE', 'CONVEX_HULL', 'MESH', 'COMPOUND'
    mass              kg (used for dynamic bodies)                         default 1
    friction          rigid_body.friction                                  default 0.5
    restitution       rigid_body.restitution ("Bounciness")                default 0
    linear_damping    rigid_body.linear_damping (fraction lost per second) default 0
    angular_damping   rigid_body.angular_damping                           default 0
    use_deactivation  bool, may fall asleep                                default False
    start_deactivated bool, starts asleep                                  default False
    location          world position of the object origin (x, y, z)
    rotation          world orientation, quaternion (w, x, y, z)
    scale             world scale (sx, sy, sz)                             default (1, 1, 1)
    bbox_min, bbox_max  local (unscaled) bounding box corners              default -1 .. 1
    vertices          local (unscaled) mesh vertices, for 'CONVEX_HULL' and 'MESH'  default None
    triangles         vertex index triples of the mesh's faces, for 'MESH'  default None
    material          Blender material name or None                        default None
    color             viewport colour (r, g, b), linear, or None           default None
    velocity, angular_velocity  world, for kinematic bodies (m/s, rad/s)   default zero

The *settings* dict:

    name              scene name                                           default "blender"
    gravity           (x, y, z) m/s^2                                      default (0, 0, -9.81)
    fps               frames per second (float > 0)                        required
    frame_start, frame_end  Blender frame range (frame_end > frame_start)   required
    timestep          longest Cairn step, s                                default 1/120
    method            one of METHOD_NAMES                                  default "impulse"
    flat_passive      'BOX' (a zero-thickness static object becomes a box 10 cm thick under its
                      surface) or 'PLANE' (a static object thinner than 5 % of its size becomes an
                      infinite plane at its upper surface)                  default 'BOX'
    blender_contact_rules  True: add material pairs that combine friction and restitution as
                      products, as Blender's Bullet does (Cairn alone takes sqrt(f1 f2) and
                      max(e1, e2))                                          default True
    joints            list of joint specs (below)                          default []

A *joint spec* describes one Blender rigid body constraint (object.rigid_body_constraint):

    name              the constraint object's name
    type              'FIXED', 'POINT', 'HINGE', 'SLIDER', 'PISTON', 'GENERIC',
                      'GENERIC_SPRING', 'MOTOR'
    object1, object2  names of the joined Blender objects (None when unset)
    location          world position of the constraint object (the anchor)
    rotation          world orientation of the constraint object, quaternion (w, x, y, z)
    enabled           bool                                                 default True
    disable_collisions  bool                                               default True
    use_breaking, breaking_threshold  bool, impulse per Blender substep   default False, 10
    use_limit_ang_z, limit_ang_z_lower, limit_ang_z_upper  (HINGE) bool, radians
    use_limit_lin_x, limit_lin_x_lower, limit_lin_x_upper  (SLIDER) bool, m

See joints_of() for the mapping.
"""

import csv
import json
import math
import os
import re
import subprocess
import tempfile

# Cairn's contact methods, as `cairn --help` lists them (docs/methods.md)
METHODS = (
    ("impulse", "Impulse",
     "Sequential impulses on soft contacts, sub-steps and relax (Box2D v3's soft step)"),
    ("lcp", "LCP",
     "Velocity-level LCP: Lemke (frictionless) or a boxed LCP with Coulomb friction"),
    ("velocity-projection", "Velocity Projection",
     "M-norm projection of the velocity, a QP (Goldfarb-Idnani; frictionless)"),
    ("gr-lcp", "GR LCP",
     "Generalized reflection over the LCP: simultaneous impacts (Smith et al. 2012)"),
    ("gr-velocity-projection", "GR Velocity Projection",
     "Generalized reflection over the projection (frictionless)"),
    ("penalty", "Penalty",
     "Contact springs under adaptive Dormand-Prince RK5(4) (AERO)"),
    ("analytic-impulse", "Analytic Impulse",
     "AERO's analytic impulses at impacts, penalty springs at rest"),
    ("constraint", "Constraint",
     "Kleppmann's constraint forces, impacts at the time of contact (frictionless)"),
)
METHOD_NAMES = tuple(m[0] for m in METHODS)

NATIVE_SHAPES = ("SPHERE", "BOX", "CAPSULE", "CYLINDER")
# shapes made from the object's own vertices (or, for a cone, from its bounding box)
POINT_SHAPES = ("CONVEX_HULL", "MESH", "CONE")
# the sides of the polygon a cone's base is drawn with
CONE_SIDES = 32
CSV_HEADER = ["time", "body", "x", "y", "z", "qw", "qx", "qy", "qz",
              "vx", "vy", "vz", "wx", "wy", "wz"]

# a moving body's thinnest half size (Cairn sizes must be > 0), m
MIN_HALF_SIZE = 1e-3
# half thickness of the box that stands for a zero-thickness static object, m
FLAT_BOX_HALF_THICKNESS = 0.05
# thinnest / largest size below which a static object is "flat" for flat_passive 'PLANE'
FLAT_RATIO = 0.05


class CairnError(Exception):
    """A problem the user must see: the message is meant for the UI."""


# --- small helpers ------------------------------------------------------------------------------

def clean(x, digits=7):
    """x rounded to `digits` significant digits: Blender stores float32, whose 0.8 is
    0.800000011920929; this writes 0.8."""
    x = float(x)
    if not math.isfinite(x):
        raise CairnError("a value is not finite: %r" % x)
    return float("%.*g" % (digits, x)) + 0.0  # + 0.0 turns -0.0 into 0.0


def _vec(v, digits=7):
    return [clean(c, digits) for c in v]


def normalize_quaternion(q):
    w, x, y, z = (float(c) for c in q)
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if not n > 0 or not math.isfinite(n):
        return (1.0, 0.0, 0.0, 0.0)
    return (w / n, x / n, y / n, z / n)


def quaternion_multiply(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def rotate(q, v):
    """v rotated by the unit quaternion q = (w, x, y, z)."""
    w, x, y, z = q
    p = quaternion_multiply(quaternion_multiply(q, (0.0, v[0], v[1], v[2])), (w, -x, -y, -z))
    return (p[1], p[2], p[3])


def angular_velocity(q0, q1, dt):
    """The constant world angular velocity that turns q0 into q1 in dt seconds."""
    q0 = normalize_quaternion(q0)
    q1 = normalize_quaternion(q1)
    d = quaternion_multiply(q1, (q0[0], -q0[1], -q0[2], -q0[3]))
    if d[0] < 0:
        d = tuple(-c for c in d)
    s = math.sqrt(d[1] ** 2 + d[2] ** 2 + d[3] ** 2)
    if s < 1e-12:
        return (0.0, 0.0, 0.0)
    angle = 2.0 * math.atan2(s, d[0])
    return tuple(c / s * angle / dt for c in d[1:])


def damping_rate(d):
    """Blender's damping d (the fraction of velocity lost per second: v *= (1 - d)^dt) as
    Cairn's rate c (dv/dt = -c v, v *= exp(-c dt)): c = -ln(1 - d)."""
    d = float(d)
    if d <= 0:
        return 0.0
    if d >= 1:
        return 1000.0
    return -math.log1p(-d)


_NAME_BAD = re.compile(r"[^A-Za-z0-9_.\-]+")


def valid_name(name, fallback="body"):
    """A name with only letters, digits, '_', '.' and '-' (no CSV quoting, no JSON escapes)."""
    s = _NAME_BAD.sub("_", str(name)).strip("_")
    return s or fallback


def unique_names(names, fallback="body"):
    """valid_name() of each name, made unique (case-sensitive) with _2, _3, ... suffixes.
    Returns a list in the order of `names`."""
    used = set()
    out = []
    for name in names:
        base = valid_name(name, fallback)
        cand = base
        i = 2
        while cand in used:
            cand = "%s_%d" % (base, i)
            i += 1
        used.add(cand)
        out.append(cand)
    return out


def frame_time(frame, frame_start, fps):
    """The Cairn time of Blender frame `frame`: (frame - frame_start) / fps."""
    return (frame - frame_start) / float(fps)


def duration_of(settings):
    return (settings["frame_end"] - settings["frame_start"]) / float(settings["fps"])


def body_kind(spec):
    """'static', 'kinematic' or 'dynamic' from Blender's rigid body type and flags."""
    if spec.get("kinematic", False):
        return "kinematic"
    if spec["type"] == "PASSIVE" or not spec.get("enabled", True):
        return "static"
    return "dynamic"


# --- shapes -------------------------------------------------------------------------------------

def _extents(spec):
    """(half sizes, centre) of the object's bounding box in the body frame (scaled, unrotated)."""
    lo = spec.get("bbox_min", (-1.0, -1.0, -1.0))
    hi = spec.get("bbox_max", (1.0, 1.0, 1.0))
    scale = spec.get("scale", (1.0, 1.0, 1.0))
    half = [abs(0.5 * (hi[i] - lo[i]) * scale[i]) for i in range(3)]
    centre = [0.5 * (hi[i] + lo[i]) * scale[i] for i in range(3)]
    return half, centre


def shape_of(spec, kind, settings, warnings):
    """The Cairn shape dict of one body spec (see the module docstring for the rules)."""
    name = spec["name"]
    blender_shape = spec.get("shape", "BOX")
    half, centre = _extents(spec)
    largest = max(half)
    if not largest > 0:
        raise CairnError("%s: its bounding box has no size" % name)
    flat_mode = settings.get("flat_passive", "BOX")
    k = min(range(3), key=lambda i: half[i])
    shape = None

    if blender_shape in POINT_SHAPES:
        shape = _point_shape(spec, kind, blender_shape, half, warnings)
        if shape is not None:
            return shape
        blender_shape = "BOX"
    elif blender_shape not in NATIVE_SHAPES:
        warnings.append("%s: collision shape %s is not in Cairn yet: exported as its bounding box"
                        % (name, blender_shape))
        blender_shape = "BOX"

    flat = half[k] <= max(1e-9, 1e-6 * largest)
    if kind == "static" and blender_shape == "BOX" and (
            flat or (flat_mode == "PLANE" and half[k] <= FLAT_RATIO * largest)):
        # which way is up: the side of the thin axis that faces against gravity (or +z)
        g = settings.get("gravity", (0.0, 0.0, -9.81))
        gn = math.sqrt(sum(c * c for c in g))
        up = tuple(-c / gn for c in g) if gn > 0 else (0.0, 0.0, 1.0)
        axis = [0.0, 0.0, 0.0]
        axis[k] = 1.0
        world_axis = rotate(normalize_quaternion(spec.get("rotation", (1, 0, 0, 0))), axis)
        sign = 1.0 if sum(a * b for a, b in zip(world_axis, up)) >= 0 else -1.0
        if flat_mode == "PLANE":
            normal = [0.0, 0.0, 0.0]
            normal[k] = sign
            shape = {"type": "plane", "normal": normal, "offset": clean(half[k])}
        else:
            # a box under the surface: its top face stays where the flat object is
            top = centre[k] + sign * half[k]
            half[k] = FLAT_BOX_HALF_THICKNESS
            centre[k] = top - sign * FLAT_BOX_HALF_THICKNESS
            shape = {"type": "box", "half_extents": _vec(half)}

    if shape is None:
        if any(h < MIN_HALF_SIZE for h in half) and blender_shape in ("BOX", "CYLINDER"):
            warnings.append("%s: thinner than %g m: made %g m thick"
                            % (name, 2 * MIN_HALF_SIZE, 2 * MIN_HALF_SIZE))
        if blender_shape == "SPHERE":
            # Blender takes the largest half size as the radius
            shape = {"type": "sphere", "radius": clean(largest)}
        elif blender_shape in ("CAPSULE", "CYLINDER"):
            # Blender: radius = largest x/y half size, z half size = half the total height
            radius = clean(max(half[0], half[1], MIN_HALF_SIZE))
            if blender_shape == "CYLINDER":
                shape = {"type": "cylinder", "radius": radius,
                         "half_height": clean(max(half[2], MIN_HALF_SIZE))}
            elif half[2] - radius > MIN_HALF_SIZE:
                shape = {"type": "capsule", "radius": radius,
                         "half_height": clean(half[2] - radius)}
            else:
                warnings.append("%s: a capsule no taller than it is wide: exported as a sphere"
                                % name)
                shape = {"type": "sphere", "radius": radius}
        else:
            shape = {"type": "box", "half_extents": _vec(max(h, MIN_HALF_SIZE) for h in half)}

    # a bounding box off the origin (not float noise: a UV sphere's is off by 1e-7)
    if any(abs(c) > 1e-5 * largest for c in centre):
        shape["position"] = _vec(centre)
    return shape


def _is_closed(triangles):
    """Whether every edge is shared by exactly two triangles running it in opposite directions."""
    edges = {}
    for t in triangles:
        for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            edges[(a, b)] = edges.get((a, b), 0) + 1
    return all(n == 1 and edges.get((b, a)) == 1 for (a, b), n in edges.items())


def _point_shape(spec, kind, blender_shape, half, warnings):
    """A hull (CONVEX_HULL, CONE, or a dynamic MESH that is not closed) or a mesh (MESH) from the
    object's scaled vertices; None (with a warning) when the spec has too few of them."""
    name = spec["name"]
    scale = spec.get("scale", (1.0, 1.0, 1.0))
    if blender_shape == "CONE":
        # Blender's cone (Bullet's btConeShapeZ): the base circle of the largest x/y half size at
        # -z, the apex at +z, centred on the bounding box
        _, centre = _extents(spec)
        radius = max(half[0], half[1], MIN_HALF_SIZE)
        h = max(half[2], MIN_HALF_SIZE)
        points = [[clean(centre[0] + radius * math.cos(2 * math.pi * k / CONE_SIDES)),
                   clean(centre[1] + radius * math.sin(2 * math.pi * k / CONE_SIDES)), clean(centre[2] - h)]
                  for k in range(CONE_SIDES)]
        points.append(_vec((centre[0], centre[1], centre[2] + h)))
        return {"type": "hull", "points": points}
    vertices = spec.get("vertices") or []
    if len(vertices) < 4:
        warnings.append("%s: collision shape %s needs the object's vertices (at least 4): exported as "
                        "its bounding box" % (name, blender_shape))
        return None
    points = [_vec(v[i] * scale[i] for i in range(3)) for v in vertices]
    triangles = [list(t) for t in spec.get("triangles") or []]
    if blender_shape == "MESH" and triangles:
        if kind != "dynamic" or _is_closed(triangles):
            return {"type": "mesh", "vertices": points, "triangles": triangles}
        warnings.append("%s: a moving mesh must be closed (every edge shared by two faces): exported as "
                        "its convex hull" % name)
    return {"type": "hull", "points": points}


# --- the scene ----------------------------------------------------------------------------------

def build_scene(specs, settings):
    """The Cairn scene (a dict ready for json.dump) of the body specs.

    Returns (scene, names, warnings): `names` maps each Blender object name to its Cairn body
    name, `warnings` lists what the export changed (one line each, for the user)."""
    fps = float(settings["fps"])
    if not fps > 0:
        raise CairnError("the frame rate must be > 0 (got %g)" % fps)
    if settings["frame_end"] <= settings["frame_start"]:
        raise CairnError("the frame range %d..%d is empty: the end must come after the start"
                         % (settings["frame_start"], settings["frame_end"]))
    method = settings.get("method", "impulse")
    if method not in METHOD_NAMES:
        raise CairnError("unknown contact method %r (Cairn has: %s)"
                         % (method, ", ".join(METHOD_NAMES)))
    if not specs:
        raise CairnError("no rigid bodies to export: select objects with Rigid Body physics")

    warnings = []
    body_names = unique_names([s["name"] for s in specs])
    names = {s["name"]: n for s, n in zip(specs, body_names)}
    for s, n in zip(specs, body_names):
        if n != s["name"]:
            warnings.append("%s: Cairn body name %s" % (s["name"], n))

    materials = {}
    by_key = {}
    material_values = {}
    bodies = []
    for spec, body_name in zip(specs, body_names):
        kind = body_kind(spec)
        friction = clean(max(0.0, spec.get("friction", 0.5)))
        restitution = clean(min(1.0, max(0.0, spec.get("restitution", 0.0))))
        color = spec.get("color")
        if color is not None:
            color = tuple(clean(min(1.0, max(0.0, c))) for c in list(color)[:3])
        key = (friction, restitution, color)
        mat_name = by_key.get(key)
        if mat_name is None:
            # named after the Blender material, or else the object
            base = valid_name(spec.get("material") or body_name, "material")
            mat_name = base
            i = 2
            while mat_name in materials:
                mat_name = "%s_%d" % (base, i)
                i += 1
            m = {"friction": friction, "restitution": restitution}
            if color is not None:
                m["color"] = list(color)
            materials[mat_name] = m
            material_values[mat_name] = (friction, restitution)
            by_key[key] = mat_name

        q = normalize_quaternion(spec.get("rotation", (1.0, 0.0, 0.0, 0.0)))
        body = {"name": body_name, "type": kind, "material": mat_name,
                "position": _vec(spec.get("location", (0.0, 0.0, 0.0)), 9),
                "orientation": list(q),
                "shapes": [shape_of(spec, kind, settings, warnings)]}
        if kind == "dynamic":
            mass = float(spec.get("mass", 1.0))
            if not mass > 0:
                raise CairnError("%s: the mass must be > 0 (got %g)" % (spec["name"], mass))
            body["mass"] = clean(mass)
            for key_b, key_c in (("linear_damping", "linear_damping"),
                                 ("angular_damping", "angular_damping")):
                c = damping_rate(spec.get(key_b, 0.0))
                if c > 0:
                    body[key_c] = clean(c)
            if spec.get("start_deactivated", False) and spec.get("use_deactivation", False):
                body["awake"] = False
        if kind == "kinematic":
            v = _vec(spec.get("velocity", (0.0, 0.0, 0.0)), 9)
            w = _vec(spec.get("angular_velocity", (0.0, 0.0, 0.0)), 9)
            if any(v):
                body["velocity"] = v
            if any(w):
                body["angular_velocity"] = w
        if kind != "static" and not spec.get("use_deactivation", False):
            body["sleep"] = False
        bodies.append(body)

    fr_end, fr_start = settings["frame_end"], settings["frame_start"]
    scene = {
        "cairn": 1,
        "name": valid_name(settings.get("name", "blender"), "blender"),
        "description": "Exported from Blender: frames %d..%d at %g fps"
                       % (fr_start, fr_end, fps),
        "gravity": _vec(settings.get("gravity", (0.0, 0.0, -9.81))),
        "timestep": float(settings.get("timestep", 1.0 / 120.0)),
        "duration": duration_of(settings),
        "fps": fps,
        "method": method,
        "materials": materials,
        "bodies": bodies,
    }
    joints, joint_warnings = joints_of(settings.get("joints") or [], specs, names, settings)
    warnings += joint_warnings
    if joints:
        scene["joints"] = joints
    if settings.get("blender_contact_rules", True):
        pairs = []
        mats = list(materials)
        for i, a in enumerate(mats):
            for b in mats[i:]:
                fa, ea = material_values[a]
                fb, eb = material_values[b]
                pairs.append({"materials": [a, b], "friction": clean(fa * fb),
                              "restitution": clean(ea * eb)})
        scene["material_pairs"] = pairs
    return scene, names, warnings


# --- joints -------------------------------------------------------------------------------------

SUPPORTED_CONSTRAINTS = ("FIXED", "POINT", "HINGE", "SLIDER")
_UNSUPPORTED_WHY = {
    "PISTON": "piston constraints (slide and turn about one axis) are not mapped yet",
    "GENERIC": "generic constraints (arbitrary locked axes) are not mapped",
    "GENERIC_SPRING": "generic spring constraints are not mapped (a Blender spring acts on "
                      "each local axis separately; Cairn's spring acts along the line between "
                      "two points)",
    "MOTOR": "motor constraints are not mapped (Blender's motor drives the bodies without "
             "holding them together: no Cairn joint is only a motor)",
}


def joints_of(joint_specs, specs, names, settings):
    """The Cairn "joints" entries of Blender constraint specs, and warnings for those skipped.

    FIXED -> fixed, POINT -> ball, HINGE -> hinge about the constraint object's local Z,
    SLIDER -> slider along its local X; the anchor is the constraint object's world location.
    bodies = [object1, object2] (Blender ignores a constraint that lacks either; so does this);
    collide_connected = not disable_collisions; use_breaking: break_force = breaking_threshold /
    Blender's substep (the threshold is an impulse per substep, `timestep` in settings).
    Blender's hinge angle (Bullet's) is object1's turn relative to object2, Cairn's is
    object2's relative to object1, so limits_deg = [-upper, -lower]. A slider's translation is
    object2's relative to object1 in both. Everything else is skipped with a warning."""
    warnings = []
    joints = []
    kinds = {s["name"]: body_kind(s) for s in specs}
    timestep = float(settings.get("timestep", 1.0 / 120.0))
    kept = []
    for js in joint_specs:
        label = "%s (%s constraint)" % (js["name"], js.get("type", "?").lower())
        ctype = js.get("type")
        if not js.get("enabled", True):
            warnings.append("%s: disabled: skipped" % label)
            continue
        if ctype not in SUPPORTED_CONSTRAINTS:
            why = _UNSUPPORTED_WHY.get(ctype, "an unknown constraint type")
            warnings.append("%s: %s: skipped" % (label, why))
            continue
        o1, o2 = js.get("object1"), js.get("object2")
        if not o1 or not o2:
            warnings.append("%s: it needs two objects (Blender ignores it with one): skipped"
                            % label)
            continue
        missing = [o for o in (o1, o2) if o not in names]
        if missing:
            warnings.append("%s: %s not exported as a rigid body (select it too): skipped"
                            % (label, " and ".join(missing)))
            continue
        if o1 == o2:
            warnings.append("%s: joins %s to itself: skipped" % (label, o1))
            continue
        if "dynamic" not in (kinds[o1], kinds[o2]):
            warnings.append("%s: neither %s nor %s is dynamic (active): skipped"
                            % (label, o1, o2))
            continue
        kept.append(js)

    joint_names = unique_names([js["name"] for js in kept], "joint")
    for js, jname in zip(kept, joint_names):
        ctype = js["type"]
        q = normalize_quaternion(js.get("rotation", (1.0, 0.0, 0.0, 0.0)))
        j = {"name": jname,
             "type": {"FIXED": "fixed", "POINT": "ball", "HINGE": "hinge",
                      "SLIDER": "slider"}[ctype],
             "bodies": [names[js["object1"]], names[js["object2"]]],
             "anchor": _vec(js.get("location", (0.0, 0.0, 0.0)), 9)}
        if ctype == "HINGE":
            j["axis"] = _vec(rotate(q, (0.0, 0.0, 1.0)))
            if js.get("use_limit_ang_z", False):
                lo = math.degrees(float(js.get("limit_ang_z_lower", -math.pi / 4)))
                hi = math.degrees(float(js.get("limit_ang_z_upper", math.pi / 4)))
                lo, hi = (min(180.0, max(-180.0, -v)) for v in (hi, lo))
                if lo > hi:
                    warnings.append("%s: its angle limits are out of order: no limits"
                                    % js["name"])
                else:
                    j["limits_deg"] = [clean(lo), clean(hi)]
        elif ctype == "SLIDER":
            j["axis"] = _vec(rotate(q, (1.0, 0.0, 0.0)))
            if js.get("use_limit_lin_x", False):
                lo = float(js.get("limit_lin_x_lower", -1.0))
                hi = float(js.get("limit_lin_x_upper", 1.0))
                if lo > hi:
                    warnings.append("%s: its limits are out of order: no limits" % js["name"])
                else:
                    j["limits"] = [clean(lo), clean(hi)]
        j["collide_connected"] = not js.get("disable_collisions", True)
        if js.get("use_breaking", False):
            threshold = float(js.get("breaking_threshold", 10.0))
            if threshold > 0:
                j["break_force"] = clean(threshold / timestep)
            else:
                warnings.append("%s: breaking threshold %g: breaks at once in Blender; "
                                "exported unbreakable" % (js["name"], threshold))
        if jname != js["name"]:
            warnings.append("%s: Cairn joint name %s" % (js["name"], jname))
        joints.append(j)
    return joints, warnings


def write_scene(scene, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")


# --- running cairn ------------------------------------------------------------------------------

def cairn_command(cairn_exe, scene_path, csv_path, method, fps, duration):
    return [cairn_exe, "run", scene_path, "--csv", csv_path, "--method", method,
            "--fps", repr(float(fps)), "--duration", repr(float(duration)), "--quiet"]


def run_cairn(cairn_exe, scene_path, csv_path, method, fps, duration, timeout=None):
    """Runs `cairn run` and returns its warnings (lines); raises CairnError with cairn's own
    message when it cannot run or fails."""
    cmd = cairn_command(cairn_exe or "cairn", scene_path, csv_path, method, fps, duration)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=timeout)
    except FileNotFoundError:
        raise CairnError("cannot run the cairn executable %r: not found (build Cairn and set "
                         "its path in the add-on preferences)" % cmd[0]) from None
    except PermissionError:
        raise CairnError("cannot run the cairn executable %r: permission denied" % cmd[0]) \
            from None
    except OSError as e:
        raise CairnError("cannot run the cairn executable %r: %s" % (cmd[0], e)) from None
    except subprocess.TimeoutExpired:
        raise CairnError("cairn did not finish within %g s" % timeout) from None
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    warnings = [ln.split("cairn: warning: ", 1)[1] for ln in lines
                if ln.startswith("cairn: warning: ")]
    if proc.returncode != 0:
        errors = [ln.split("cairn: error: ", 1)[1] for ln in lines
                  if ln.startswith("cairn: error: ")]
        detail = "; ".join(errors) or "; ".join(lines[-3:]) or "no message"
        raise CairnError("cairn failed (exit status %d): %s" % (proc.returncode, detail))
    return warnings


def read_csv(path):
    """Cairn's CSV as {body: [(time, (x, y, z), (qw, qx, qy, qz)), ...]} in file order."""
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != CSV_HEADER:
            raise CairnError("%s: not a cairn CSV (header %r)" % (path, header))
        for row in reader:
            if not row:
                continue
            t = float(row[0])
            pos = (float(row[2]), float(row[3]), float(row[4]))
            quat = (float(row[5]), float(row[6]), float(row[7]), float(row[8]))
            out.setdefault(row[1], []).append((t, pos, quat))
    return out


def samples_to_frames(samples, fps, frame_start, frame_end):
    """{body: [(frame, location, quaternion), ...]}: each CSV time t goes to Blender frame
    frame_start + round(t * fps); frames outside the range are dropped. Consecutive quaternions
    are kept in one hemisphere (q and -q are the same rotation) so that keyframes interpolate
    the short way."""
    out = {}
    for body, rows in samples.items():
        frames = []
        prev = None
        for t, pos, q in rows:
            frame = frame_start + int(round(t * fps))
            if frame < frame_start or frame > frame_end:
                continue
            if prev is not None and sum(a * b for a, b in zip(prev, q)) < 0:
                q = tuple(-c for c in q)
            prev = q
            frames.append((frame, pos, q))
        out[body] = frames
    return out


class SimResult:
    """What simulate() made: the scene dict and files, the name map, warnings and frames
    ({cairn body name: [(frame, location, quaternion), ...]})."""

    def __init__(self, scene, names, warnings, scene_path, csv_path, frames, workdir):
        self.scene = scene
        self.names = names
        self.warnings = warnings
        self.scene_path = scene_path
        self.csv_path = csv_path
        self.frames = frames
        self.workdir = workdir


def simulate(specs, settings, cairn_exe="cairn", workdir=None, timeout=None):
    """Exports the specs, runs cairn on them in `workdir` (a new temporary folder when None,
    left for the caller to remove) and reads the frames back."""
    scene, names, warnings = build_scene(specs, settings)
    if workdir is None:
        workdir = tempfile.mkdtemp(prefix="cairn-blender-")
    os.makedirs(workdir, exist_ok=True)
    scene_path = os.path.join(workdir, "scene.json")
    csv_path = os.path.join(workdir, "out.csv")
    write_scene(scene, scene_path)
    warnings += run_cairn(cairn_exe, scene_path, csv_path, scene["method"], scene["fps"],
                          scene["duration"], timeout)
    frames = samples_to_frames(read_csv(csv_path), scene["fps"], settings["frame_start"],
                               settings["frame_end"])
    return SimResult(scene, names, warnings, scene_path, csv_path, frames, workdir)
