# SPDX-License-Identifier: MIT
"""Operators: simulate with cairn and bake, export a scene file, clear the bake."""

import bpy
from bpy.props import StringProperty
from bpy_extras.io_utils import ExportHelper

from . import blender_io
from . import scene_export as cx
from .preferences import preferences


def _report_warnings(op, warnings, limit=8):
    for w in warnings[:limit]:
        op.report({'WARNING'}, w)
    if len(warnings) > limit:
        op.report({'WARNING'}, "... and %d more warnings (see the console)"
                  % (len(warnings) - limit))
    for w in warnings:
        print("cairn: warning:", w)


def _selected_bodies(op, context):
    selected = list(context.selected_objects)
    bodies = blender_io.rigid_body_objects(selected)
    skipped = len(selected) - len(bodies)
    if skipped:
        op.report({'INFO'}, "%d selected object(s) without rigid body physics skipped" % skipped)
    if not bodies:
        op.report({'ERROR'}, "Select objects with Rigid Body physics (Physics properties)")
    return bodies


class CAIRN_OT_simulate(bpy.types.Operator):
    """Simulate the selected rigid bodies with Cairn and bake their motion as keyframes"""
    bl_idname = "cairn.simulate"
    bl_label = "Simulate with Cairn"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context):
        return context.scene is not None

    def execute(self, context):
        bodies = _selected_bodies(self, context)
        if not bodies:
            return {'CANCELLED'}
        cairn_exe, keep = preferences(context)
        scene = context.scene
        wm = context.window_manager
        wm.progress_begin(0, 1)
        try:
            result = blender_io.run_and_bake(scene, bodies, cairn_exe=cairn_exe, keep_files=keep)
        except cx.CairnError as e:
            self.report({'ERROR'}, str(e))
            return {'CANCELLED'}
        finally:
            wm.progress_end()
        _report_warnings(self, result.warnings)
        baked = sum(1 for o in bodies if blender_io.BAKED_KEY in o)
        msg = "Cairn (%s): baked %d bod%s over frames %d..%d" % (
            result.scene["method"], baked, "y" if baked == 1 else "ies",
            *blender_io.frame_range(scene))
        if keep:
            msg += "; files in " + result.workdir
        self.report({'INFO'}, msg)
        return {'FINISHED'}


class CAIRN_OT_export_scene(bpy.types.Operator, ExportHelper):
    """Write the selected rigid bodies as a Cairn scene file (JSON) without running it"""
    bl_idname = "cairn.export_scene"
    bl_label = "Export Cairn Scene"
    filename_ext = ".json"
    filter_glob: StringProperty(default="*.json", options={'HIDDEN'})

    def execute(self, context):
        bodies = _selected_bodies(self, context)
        if not bodies:
            return {'CANCELLED'}
        scene = context.scene
        props = scene.cairn
        start, end = blender_io.frame_range(scene)
        try:
            specs, settings, _ = blender_io.gather(
                scene, bodies, start, end, method=props.method, flat_passive=props.flat_passive,
                blender_contact_rules=props.blender_contact_rules)
            data, _, warnings = cx.build_scene(specs, settings)
            cx.write_scene(data, self.filepath)
        except (cx.CairnError, OSError) as e:
            self.report({'ERROR'}, str(e))
            return {'CANCELLED'}
        _report_warnings(self, warnings)
        self.report({'INFO'}, "Wrote %s (%d bodies): cairn run %s"
                    % (self.filepath, len(data["bodies"]), self.filepath))
        return {'FINISHED'}


class CAIRN_OT_clear_bake(bpy.types.Operator):
    """Remove the keyframes Cairn baked on the selected objects and turn Blender's rigid body
    simulation back on"""
    bl_idname = "cairn.clear_bake"
    bl_label = "Clear Cairn Bake"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context):
        n = blender_io.clear_bake(context.scene, context.selected_objects)
        self.report({'INFO'}, "Cleared the Cairn bake of %d object(s)" % n)
        return {'FINISHED'}


def _export_menu(self, context):
    self.layout.operator(CAIRN_OT_export_scene.bl_idname, text="Cairn Scene (.json)")


classes = (CAIRN_OT_simulate, CAIRN_OT_export_scene, CAIRN_OT_clear_bake)


def register():
    for c in classes:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_export.append(_export_menu)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_export_menu)
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
