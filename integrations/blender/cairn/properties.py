# SPDX-License-Identifier: MIT
"""The add-on's settings of a scene: scene.cairn."""

import bpy
from bpy.props import BoolProperty, EnumProperty, IntProperty, PointerProperty

from .scene_export import METHODS

METHOD_ITEMS = [(name, label, description) for name, label, description in METHODS]


class CairnSceneSettings(bpy.types.PropertyGroup):
    method: EnumProperty(
        name="Contact Method",
        description="Cairn's contact method (cairn run --method)",
        items=METHOD_ITEMS,
        default="impulse",
    )
    use_scene_range: BoolProperty(
        name="Scene Frame Range",
        description="Simulate the scene's frame range; off: the range below",
        default=True,
    )
    frame_start: IntProperty(name="Start", description="First frame (time 0)", default=1)
    frame_end: IntProperty(name="End", description="Last frame simulated", default=250)
    flat_passive: EnumProperty(
        name="Flat Passive Objects",
        description="How a passive object without thickness (a plane) is exported",
        items=[
            ('BOX', "Box", "A box 10 cm thick under its surface, as large as the object"),
            ('PLANE', "Infinite Plane",
             "An infinite plane at its upper surface (also for passive boxes thinner than 5 % "
             "of their size)"),
        ],
        default='BOX',
    )
    blender_contact_rules: BoolProperty(
        name="Blender Contact Rules",
        description="Combine the friction and bounciness of two touching objects as products, "
                    "as Blender does (material pairs); off: Cairn's rules, the geometric mean of "
                    "the frictions and the larger bounciness",
        default=True,
    )
    disable_rigidbody_world: BoolProperty(
        name="Turn Off Blender's Simulation",
        description="After baking, disable the scene's rigid body world so the keyframes play "
                    "(Clear Cairn Bake turns it back on)",
        default=True,
    )


def register():
    bpy.utils.register_class(CairnSceneSettings)
    bpy.types.Scene.cairn = PointerProperty(type=CairnSceneSettings)


def unregister():
    del bpy.types.Scene.cairn
    bpy.utils.unregister_class(CairnSceneSettings)
