# SPDX-License-Identifier: MIT
"""Cairn for Blender: simulate Blender rigid bodies with the Cairn physics library's `cairn`
tool and bake the result as keyframes. See README.md next to this file.

Only register() needs bpy: `cairn.scene_export` (the export, the run and the CSV reading) can be
imported without Blender's UI."""

bl_info = {
    "name": "Cairn Rigid Body Physics",
    "author": "Cairn contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "3D Viewport > Sidebar > Cairn; Properties > Physics > Cairn",
    "description": "Simulate rigid bodies with Cairn (cairn run) and bake them as keyframes",
    "category": "Physics",
}

_modules = ("preferences", "properties", "operators", "ui")


def _load():
    import importlib
    return [importlib.import_module("." + name, __package__) for name in _modules]


def register():
    for module in _load():
        module.register()


def unregister():
    for module in reversed(_load()):
        module.unregister()
