# SPDX-License-Identifier: MIT
"""Cairn for Python: the Cairn rigid body library (libcairn, libcairn_io) through ctypes, with
numpy arrays for the bodies' state.

    import cairn
    with cairn.load_scene("scenes/bouncing_balls.json", method="lcp") as world:
        world.step(steps=120)                 # one second at the scene's time step
        print(world.positions[:, 2])          # heights of the body origins
        trajectory = world.run(2.0)           # the library's run loop, frames at the scene's fps
        print(trajectory.energy[-1])

Scenes: load_scene (JSON, or FOSSSim XML by its .xml extension), load_scene_string, load_fosssim;
or build one with World(...).add_body(...).add_sphere(...). Errors of the library raise CairnError
with its message. See docs/python.md for installing and more examples.

The shared libraries are found through the environment variable CAIRN_LIBRARY, the install's
_config.py or the system library path (cairn._lib explains the order); they are loaded on first
use, so importing the package never fails for want of them."""

from . import _lib
from ._lib import CairnError
from .world import Body, Shape, Trajectory, World

__all__ = ["CairnError", "World", "Body", "Shape", "Trajectory", "load_scene", "load_scene_string",
           "load_fosssim", "methods", "method_summary", "version", "library_path"]

__version__ = "0.1.0"


def version():
    """The loaded library's version string ("major.minor.patch")."""
    return _lib.text(_lib.lib().cnGetVersion())


def library_path():
    """The path of the libcairn_io shared library in use."""
    return _lib.lib()._name


def methods():
    """The contact methods' names in the library's order ("impulse", "lcp", ...)."""
    L = _lib.lib()
    names = []
    index = 0
    while True:
        name = _lib.text(L.cnMethod_GetName(index))
        if name in ("", "unknown"):
            return names
        names.append(name)
        index += 1


def method_summary(name):
    """A one-line description of a contact method."""
    from .world import method_id
    return _lib.text(_lib.lib().cnMethod_GetSummary(method_id(name)))


def _method_or_none(method):
    from .world import method_id
    return None if method is None else method_id(method)


def load_scene(path, method=None):
    """Loads a scene file into a World: JSON (docs/scene-format.md), or FOSSSim XML when the name
    ends in .xml (as `cairn run` does; see load_fosssim). method replaces the scene's contact method
    ("lcp", ...). Raises CairnError with the loader's message, which starts with the file name."""
    raw = _lib.encode_path(path)
    L = _lib.lib()
    if L.cnIsFosssimPath(raw):
        return load_fosssim(path, method)
    m = _method_or_none(method)
    scene = L.cnLoadScene(raw) if m is None else L.cnLoadSceneWithMethod(raw, m)
    _lib.check(scene)
    return World._wrap(scene=scene)


def load_scene_string(json_text, source_name="<string>"):
    """Loads a JSON scene from a string; source_name stands for the file in error messages."""
    scene = _lib.lib().cnLoadSceneFromString(json_text.encode("utf-8"), source_name.encode("utf-8"))
    _lib.check(scene)
    return World._wrap(scene=scene)


def load_fosssim(path, method=None):
    """Loads a FOSSSim rigid body scene (XML, 2D; docs/fosssim.md) into a planar World. method
    replaces the method its <rigidbodycollisionhandling> names. Its springs and wind act in step()
    and run(); its bodies are in file order."""
    raw = _lib.encode_path(path)
    m = _method_or_none(method)
    L = _lib.lib()
    fosssim = L.cnLoadFosssim(raw) if m is None else L.cnLoadFosssimWithMethod(raw, m)
    _lib.check(fosssim)
    return World._wrap(fosssim=fosssim)
