# SPDX-License-Identifier: MIT
"""Panels: the 3D viewport sidebar's Cairn tab, and the same in the Physics properties."""

import bpy

from .preferences import preferences


def draw_cairn(layout, context):
    scene = context.scene
    props = scene.cairn
    layout.use_property_split = True
    layout.use_property_decorate = False
    layout.prop(props, "method")
    col = layout.column(align=True)
    col.prop(props, "use_scene_range")
    if props.use_scene_range:
        sub = col.column(align=True)
        sub.enabled = False
        sub.prop(scene, "frame_start", text="Start")
        sub.prop(scene, "frame_end", text="End")
    else:
        col.prop(props, "frame_start")
        col.prop(props, "frame_end")
    layout.prop(props, "flat_passive")
    layout.prop(props, "blender_contact_rules")
    layout.prop(props, "disable_rigidbody_world")
    exe, _ = preferences(context)
    row = layout.row()
    row.label(text="cairn: " + exe, icon='CONSOLE')
    col = layout.column(align=True)
    col.scale_y = 1.3
    col.operator("cairn.simulate", icon='PLAY')
    row = layout.row(align=True)
    row.operator("cairn.export_scene", icon='EXPORT')
    row.operator("cairn.clear_bake", icon='X')


class VIEW3D_PT_cairn(bpy.types.Panel):
    bl_label = "Cairn Physics"
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "Cairn"

    def draw(self, context):
        draw_cairn(self.layout, context)


class PHYSICS_PT_cairn(bpy.types.Panel):
    bl_label = "Cairn"
    bl_space_type = 'PROPERTIES'
    bl_region_type = 'WINDOW'
    bl_context = "physics"
    bl_options = {'DEFAULT_CLOSED'}

    @classmethod
    def poll(cls, context):
        obj = context.object
        return obj is not None and obj.rigid_body is not None

    def draw(self, context):
        draw_cairn(self.layout, context)


classes = (VIEW3D_PT_cairn, PHYSICS_PT_cairn)


def register():
    for c in classes:
        bpy.utils.register_class(c)


def unregister():
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
