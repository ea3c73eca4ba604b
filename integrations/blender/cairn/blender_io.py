# SPDX-License-Identifier: MIT
"""Blender side of the add-on: rigid body objects -> body specs, and frames -> keyframes.

The mapping itself is in scene_export.py (no bpy); this module only reads and writes Blender
data. run_and_bake() is the whole export-run-bake, used by the operator and by the test."""

import shutil

import bpy
from mathutils import Matrix, Quaternion, Vector

from . import scene_export as cx

BAKED_KEY = "cairn_body"            # object custom property: the Cairn body it was baked from
ROTATION_MODE_KEY = "cairn_rotation_mode"  # the rotation mode before the bake
WORLD_KEY = "cairn_disabled_rigidbody_world"  # scene: the bake turned Blender's simulation off


def rigid_body_objects(objects):
    """The objects that have Blender rigid body settings (meshes), in the given order."""
    return [o for o in objects if o.type == 'MESH' and o.rigid_body is not None]


def blender_fps(scene):
    # fps_base is a float32 (1.001 is 1.00100004673): round it before dividing
    return scene.render.fps / cx.clean(scene.render.fps_base)


def frame_range(scene):
    """(start, end) of the Cairn run: the scene's range or the add-on's own."""
    props = getattr(scene, "cairn", None)
    if props is None or props.use_scene_range:
        return scene.frame_start, scene.frame_end
    return props.frame_start, props.frame_end


def scene_settings(scene, frame_start, frame_end, method="impulse", flat_passive='BOX',
                   blender_contact_rules=True):
    """The settings dict of scene_export.build_scene from the Blender scene."""
    fps = blender_fps(scene)
    rbw = scene.rigidbody_world
    gravity = Vector(scene.gravity) if scene.use_gravity else Vector((0.0, 0.0, 0.0))
    timestep = 1.0 / 120.0
    if rbw is not None:
        gravity = gravity * rbw.effector_weights.gravity * rbw.effector_weights.all
        # Blender's own step: substeps_per_frame steps per frame
        steps = getattr(rbw, "substeps_per_frame", 0) or getattr(rbw, "steps_per_second", 0) / fps
        if steps and steps > 0:
            timestep = 1.0 / (fps * steps)
    return {
        "name": scene.name,
        "gravity": tuple(gravity),
        "fps": fps,
        "frame_start": int(frame_start),
        "frame_end": int(frame_end),
        "timestep": timestep,
        "method": method,
        "flat_passive": flat_passive,
        "blender_contact_rules": blender_contact_rules,
    }


def object_spec(obj):
    """The body spec (scene_export's plain dict) of one object at the current frame."""
    rb = obj.rigid_body
    loc, rot, scale = obj.matrix_world.decompose()
    corners = [Vector(c) for c in obj.bound_box]
    lo = tuple(min(c[i] for c in corners) for i in range(3))
    hi = tuple(max(c[i] for c in corners) for i in range(3))
    mat = obj.active_material
    vertices, triangles = None, None
    if rb.collision_shape in ("CONVEX_HULL", "MESH") and obj.type == 'MESH':
        # the object's own mesh (modifiers applied), in its local unscaled frame
        mesh = obj.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh()
        mesh.calc_loop_triangles()
        vertices = [tuple(v.co) for v in mesh.vertices]
        triangles = [tuple(t.vertices) for t in mesh.loop_triangles]
        obj.evaluated_get(bpy.context.evaluated_depsgraph_get()).to_mesh_clear()
    return {
        "vertices": vertices,
        "triangles": triangles,
        "name": obj.name,
        "type": rb.type,
        "kinematic": bool(rb.kinematic),
        "enabled": bool(rb.enabled),
        "shape": rb.collision_shape,
        "mass": rb.mass,
        "friction": rb.friction,
        "restitution": rb.restitution,
        "linear_damping": rb.linear_damping,
        "angular_damping": rb.angular_damping,
        "use_deactivation": bool(rb.use_deactivation),
        "start_deactivated": bool(rb.use_start_deactivated),
        "location": tuple(loc),
        "rotation": tuple(rot),
        "scale": tuple(scale),
        "bbox_min": lo,
        "bbox_max": hi,
        "material": mat.name if mat is not None else None,
        "color": tuple(mat.diffuse_color[:3]) if mat is not None else None,
    }


def constraint_spec(obj):
    """The joint spec (scene_export's plain dict) of one object's rigid body constraint."""
    rbc = obj.rigid_body_constraint
    loc, rot, _ = obj.matrix_world.decompose()
    spec = {
        "name": obj.name,
        "type": rbc.type,
        "object1": rbc.object1.name if rbc.object1 is not None else None,
        "object2": rbc.object2.name if rbc.object2 is not None else None,
        "location": tuple(loc),
        "rotation": tuple(rot),
        "enabled": bool(rbc.enabled),
        "disable_collisions": bool(rbc.disable_collisions),
        "use_breaking": bool(rbc.use_breaking),
        "breaking_threshold": rbc.breaking_threshold,
    }
    for key in ("use_limit_ang_z", "limit_ang_z_lower", "limit_ang_z_upper",
                "use_limit_lin_x", "limit_lin_x_lower", "limit_lin_x_upper"):
        spec[key] = getattr(rbc, key)
    return spec


def constraint_objects(scene, bodies):
    """The scene's objects with a rigid body constraint on one of `bodies`, in name order."""
    names = {o.name for o in bodies}
    out = []
    for o in scene.objects:
        rbc = getattr(o, "rigid_body_constraint", None)
        if rbc is None:
            continue
        if any(b is not None and b.name in names for b in (rbc.object1, rbc.object2)):
            out.append(o)
    return sorted(out, key=lambda o: o.name)


def gather(scene, objects, frame_start, frame_end, **options):
    """(specs, settings, objects) of the rigid bodies among `objects`, read at frame_start;
    settings["joints"] holds the specs of the scene's rigid body constraints on them.
    Kinematic ("Animated") bodies get the velocity of their animation between frame_start and
    frame_start + 1, which Cairn keeps constant."""
    objs = rigid_body_objects(objects)
    settings = scene_settings(scene, frame_start, frame_end, **options)
    current = scene.frame_current
    scene.frame_set(frame_start)
    specs = [object_spec(o) for o in objs]
    # the constraints on these bodies (constraint objects need not be selected)
    settings["joints"] = [constraint_spec(o) for o in constraint_objects(scene, objs)]
    kinematic = [i for i, s in enumerate(specs) if s["kinematic"]]
    if kinematic:
        scene.frame_set(frame_start + 1)
        dt = 1.0 / settings["fps"]
        for i in kinematic:
            loc, rot, _ = objs[i].matrix_world.decompose()
            s = specs[i]
            s["velocity"] = tuple((loc[k] - s["location"][k]) / dt for k in range(3))
            s["angular_velocity"] = cx.angular_velocity(s["rotation"], tuple(rot), dt)
    scene.frame_set(current)
    return specs, settings, objs


def _parent_matrix(obj):
    if obj.parent is None:
        return None
    return obj.parent.matrix_world @ obj.matrix_parent_inverse


def _replace_fcurves(action, data_path, count):
    for fc in [fc for fc in action.fcurves if fc.data_path == data_path]:
        action.fcurves.remove(fc)
    return [action.fcurves.new(data_path, index=i, action_group="Object Transforms")
            for i in range(count)]


def bake_object(obj, frames, parent_matrix=None):
    """Keyframes location and rotation_quaternion of obj at every (frame, location, quaternion)
    of `frames` (world values; with a parent, turned into the parent's frame), with linear
    interpolation. Earlier location and quaternion keyframes of obj are replaced."""
    if ROTATION_MODE_KEY not in obj:
        obj[ROTATION_MODE_KEY] = obj.rotation_mode
    obj.rotation_mode = 'QUATERNION'
    ad = obj.animation_data or obj.animation_data_create()
    if ad.action is None:
        ad.action = bpy.data.actions.new(obj.name + "Action")
    action = ad.action
    scale = obj.matrix_world.to_scale()
    values = []
    for frame, pos, q in frames:
        if parent_matrix is not None:
            world = Matrix.LocRotScale(Vector(pos), Quaternion(q), scale)
            loc, rot, _ = (parent_matrix.inverted_safe() @ world).decompose()
            pos, q = tuple(loc), tuple(rot)
        values.append((frame, pos, q))
    n = len(values)
    for data_path, count, pick in (("location", 3, lambda v: v[1]),
                                   ("rotation_quaternion", 4, lambda v: v[2])):
        for i, fc in enumerate(_replace_fcurves(action, data_path, count)):
            fc.keyframe_points.add(n)
            co = []
            for v in values:
                co += (float(v[0]), float(pick(v)[i]))
            fc.keyframe_points.foreach_set("co", co)
            for kp in fc.keyframe_points:
                kp.interpolation = 'LINEAR'
            fc.update()


def disable_rigidbody_world(scene):
    """Turns Blender's own simulation off (remembering it) so the baked keyframes play."""
    rbw = scene.rigidbody_world
    if rbw is not None and rbw.enabled:
        rbw.enabled = False
        scene[WORLD_KEY] = True


def run_and_bake(scene, objects, cairn_exe="cairn", method=None, frame_start=None,
                 frame_end=None, workdir=None, keep_files=False, flat_passive=None,
                 blender_contact_rules=None, disable_world=None, timeout=None):
    """Exports the rigid bodies among `objects`, runs cairn and bakes the result on the
    dynamic bodies (kinematic ones keep their own animation, static ones do not move).
    Options left None come from scene.cairn (the panel) when the add-on is registered.
    Returns scene_export.SimResult, its warnings included; raises scene_export.CairnError.
    The files stay in `workdir` when one is given or keep_files is set; otherwise the
    temporary folder is removed."""
    props = getattr(scene, "cairn", None)

    def opt(value, name, default):
        if value is not None:
            return value
        return getattr(props, name) if props is not None else default

    method = opt(method, "method", "impulse")
    flat_passive = opt(flat_passive, "flat_passive", 'BOX')
    blender_contact_rules = opt(blender_contact_rules, "blender_contact_rules", True)
    disable_world = opt(disable_world, "disable_rigidbody_world", True)
    start, end = frame_range(scene)
    start = start if frame_start is None else frame_start
    end = end if frame_end is None else frame_end

    specs, settings, objs = gather(scene, objects, start, end, method=method,
                                   flat_passive=flat_passive,
                                   blender_contact_rules=blender_contact_rules)
    # the parents' placement at the start (a parent is assumed not to move)
    current = scene.frame_current
    scene.frame_set(start)
    parents = {o.name: _parent_matrix(o) for o in objs}
    scene.frame_set(current)

    remove = workdir is None and not keep_files
    result = cx.simulate(specs, settings, cairn_exe, workdir, timeout)
    try:
        for spec, obj in zip(specs, objs):
            if cx.body_kind(spec) != "dynamic":
                continue
            body = result.names[obj.name]
            frames = result.frames.get(body)
            if not frames:
                raise cx.CairnError("cairn's CSV has no rows for body %s" % body)
            if obj.parent is not None and obj.parent in objs:
                result.warnings.append("%s: its parent is simulated too: baked relative to the "
                                       "parent's start placement" % obj.name)
            bake_object(obj, frames, parents[obj.name])
            obj[BAKED_KEY] = body
        if disable_world:
            disable_rigidbody_world(scene)
        scene.frame_set(scene.frame_current)
    finally:
        if remove:
            shutil.rmtree(result.workdir, ignore_errors=True)
    return result


def clear_bake(scene, objects):
    """Removes the baked keyframes of the objects baked by the add-on, leaving each at its
    placement of the bake's first frame and its earlier rotation mode; turns Blender's rigid
    body world back on if the bake turned it off. Returns how many objects were cleared."""
    cleared = 0
    for obj in objects:
        if BAKED_KEY not in obj:
            continue
        ad = obj.animation_data
        action = ad.action if ad is not None else None
        if action is not None:
            for data_path in ("location", "rotation_quaternion"):
                curves = sorted((fc for fc in action.fcurves if fc.data_path == data_path),
                                key=lambda fc: fc.array_index)
                if curves and len(curves[0].keyframe_points):
                    first = min(kp.co[0] for kp in curves[0].keyframe_points)
                    value = [fc.evaluate(first) for fc in curves]
                    for fc in curves:
                        action.fcurves.remove(fc)
                    if data_path == "location":
                        obj.location = value
                    else:
                        obj.rotation_quaternion = value
        mode = obj.get(ROTATION_MODE_KEY)
        if mode:
            obj.rotation_mode = mode  # Blender converts the quaternion to the mode
            del obj[ROTATION_MODE_KEY]
        del obj[BAKED_KEY]
        cleared += 1
    if scene.get(WORLD_KEY) and scene.rigidbody_world is not None:
        scene.rigidbody_world.enabled = True
        del scene[WORLD_KEY]
    return cleared
