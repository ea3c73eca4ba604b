# SPDX-License-Identifier: MIT
"""Add-on preferences: where the `cairn` executable is."""

import bpy
from bpy.props import BoolProperty, StringProperty

ADDON = __package__


class CairnPreferences(bpy.types.AddonPreferences):
    bl_idname = ADDON

    cairn_path: StringProperty(
        name="cairn Executable",
        description="The cairn command-line tool: a name found on PATH or a full path "
                    "(build/cairn in a Cairn build folder)",
        default="cairn",
        subtype='FILE_PATH',
    )
    keep_files: BoolProperty(
        name="Keep Run Files",
        description="Keep the temporary folder with scene.json and out.csv of each run "
                    "(its path is printed in the report)",
        default=False,
    )

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "cairn_path")
        layout.prop(self, "keep_files")


def preferences(context=None):
    """(cairn_path, keep_files): the preferences, or the defaults when the add-on was
    registered without Blender's add-on system (scripts, tests)."""
    context = context or bpy.context
    addon = context.preferences.addons.get(ADDON)
    if addon is None or addon.preferences is None:
        return "cairn", False
    p = addon.preferences
    return (bpy.path.abspath(p.cairn_path) if p.cairn_path else "cairn"), p.keep_files


def register():
    bpy.utils.register_class(CairnPreferences)


def unregister():
    bpy.utils.unregister_class(CairnPreferences)
