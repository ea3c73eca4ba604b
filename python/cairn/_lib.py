# SPDX-License-Identifier: MIT
"""Finds and loads libcairn and libcairn_io, declares the C functions the bindings call and turns
the library's error state (cnGetError, cnGetErrorCode) into CairnError.

Where the libraries come from, first match wins:

1. the environment variable CAIRN_LIBRARY: the path of libcairn_io's shared library, or the
   folder that holds it (a build folder, an install's lib folder);
2. the folder _config.py names: `cmake --install` writes _config.py into the installed package with
   the path from the package to the installed libraries, so an install under any prefix finds its
   own libraries;
3. the system's library search path (ctypes.util.find_library("cairn_io"): ldconfig's cache and
   LD_LIBRARY_PATH), as after `cmake --install` into /usr/local and ldconfig.

libcairn_io needs libcairn. The shared libraries an install puts in a prefix carry no run path, so
when libcairn is found in the same folder it is loaded first, by its full path: the dynamic linker
then resolves libcairn_io's dependency on it by its soname without searching."""

import ctypes
import ctypes.util
import os
import threading
from ctypes import POINTER, c_bool, c_char_p, c_double, c_int, c_size_t, c_uint32, c_uint64, c_void_p

from . import _types as T


class CairnError(RuntimeError):
    """An error reported by libcairn or libcairn_io. str(error) is the library's one-line message
    (a scene's loader starts it with the file name); `code` is the cnErrorCode number and
    `code_name` its name ("invalid argument", "bad input", ...)."""

    def __init__(self, message, code=0, code_name=""):
        super().__init__(message)
        self.code = code
        self.code_name = code_name


CairnError.__module__ = "cairn"


_IO_NAMES = ("libcairn_io.so", "libcairn_io.so.0", "libcairn_io.dylib")
_CORE_NAMES = ("libcairn.so.0", "libcairn.so", "libcairn.dylib")

# name: (result type, argument types); functions marked optional may be absent from older libraries
_PROTOTYPES = {
    # errors, version and names
    "cnGetError": (c_char_p, []),
    "cnGetErrorCode": (c_int, []),
    "cnClearError": (None, []),
    "cnErrorCodeName": (c_char_p, [c_int]),
    "cnGetVersion": (c_char_p, []),
    "cnMethod_GetName": (c_char_p, [c_int]),
    "cnMethod_GetSummary": (c_char_p, [c_int]),
    "cnMethod_GetFlags": (c_uint32, [c_int]),
    "cnMethod_FromName": (c_bool, [c_char_p, POINTER(c_int)]),
    "cnBodyType_GetName": (c_char_p, [c_int]),
    # world
    "cnDefaultWorldDef": (T.WorldDef, []),
    "cnCreateWorld": (c_void_p, [POINTER(T.WorldDef)]),
    "cnDestroyWorld": (None, [c_void_p]),
    "cnWorld_Step": (c_bool, [c_void_p, c_double]),
    "cnWorld_GetTime": (c_double, [c_void_p]),
    "cnWorld_GetStats": (T.Stats, [c_void_p]),
    "cnWorld_GetDef": (T.WorldDef, [c_void_p]),
    "cnWorld_SetGravity": (c_bool, [c_void_p, T.Vec3]),
    "cnWorld_GetGravity": (T.Vec3, [c_void_p]),
    "cnWorld_EnableSleeping": (None, [c_void_p, c_bool]),
    "cnWorld_SetWorkerCount": (c_bool, [c_void_p, c_int]),
    "cnWorld_SetContactRecycleDistance": (c_bool, [c_void_p, c_double]),
    "cnWorld_Hash": (c_uint64, [c_void_p]),
    "cnWorld_GetBodyCount": (c_int, [c_void_p]),
    "cnWorld_GetBody": (T.BodyId, [c_void_p, c_int]),
    "cnWorld_FindBody": (T.BodyId, [c_void_p, c_char_p]),
    "cnWorld_GetKineticEnergy": (c_double, [c_void_p]),
    "cnWorld_GetPotentialEnergy": (c_double, [c_void_p]),
    "cnWorld_GetLinearMomentum": (T.Vec3, [c_void_p]),
    "cnWorld_GetAngularMomentum": (T.Vec3, [c_void_p, T.Vec3]),
    "cnWorld_GetContactData": (c_int, [c_void_p, POINTER(T.ContactData), c_int]),
    "cnBody_GetContactData": (c_int, [c_void_p, T.BodyId, POINTER(T.ContactData), c_int]),
    "cnWorld_Cancel": (None, [c_void_p]),
    # materials
    "cnDefaultMaterialDef": (T.MaterialDef, []),
    "cnCreateMaterial": (c_int, [c_void_p, POINTER(T.MaterialDef)]),
    "cnWorld_FindMaterial": (c_int, [c_void_p, c_char_p]),
    # bodies
    "cnDefaultBodyDef": (T.BodyDef, []),
    "cnCreateBody": (T.BodyId, [c_void_p, POINTER(T.BodyDef)]),
    "cnBody_IsValid": (c_bool, [c_void_p, T.BodyId]),
    "cnBody_GetName": (c_char_p, [c_void_p, T.BodyId]),
    "cnBody_GetType": (c_int, [c_void_p, T.BodyId]),
    "cnBody_GetPosition": (T.Vec3, [c_void_p, T.BodyId]),
    "cnBody_GetOrientation": (T.Quat, [c_void_p, T.BodyId]),
    "cnBody_SetTransform": (c_bool, [c_void_p, T.BodyId, T.Vec3, T.Quat]),
    "cnBody_GetWorldCenterOfMass": (T.Vec3, [c_void_p, T.BodyId]),
    "cnBody_GetLinearVelocity": (T.Vec3, [c_void_p, T.BodyId]),
    "cnBody_GetAngularVelocity": (T.Vec3, [c_void_p, T.BodyId]),
    "cnBody_SetLinearVelocity": (c_bool, [c_void_p, T.BodyId, T.Vec3]),
    "cnBody_SetAngularVelocity": (c_bool, [c_void_p, T.BodyId, T.Vec3]),
    "cnBody_ApplyForce": (c_bool, [c_void_p, T.BodyId, T.Vec3, T.Vec3]),
    "cnBody_ApplyTorque": (c_bool, [c_void_p, T.BodyId, T.Vec3]),
    "cnBody_ApplyLinearImpulse": (c_bool, [c_void_p, T.BodyId, T.Vec3, T.Vec3]),
    "cnBody_GetMass": (c_double, [c_void_p, T.BodyId]),
    "cnBody_GetLocalInertia": (T.Mat3, [c_void_p, T.BodyId]),
    "cnBody_GetKineticEnergy": (c_double, [c_void_p, T.BodyId]),
    "cnBody_GetAngularMomentum": (T.Vec3, [c_void_p, T.BodyId, T.Vec3]),
    "cnBody_IsAwake": (c_bool, [c_void_p, T.BodyId]),
    "cnBody_SetAwake": (c_bool, [c_void_p, T.BodyId, c_bool]),
    "cnBody_GetShapeCount": (c_int, [c_void_p, T.BodyId]),
    # shapes
    "cnDefaultShapeDef": (T.ShapeDef, []),
    "cnCreateShape": (T.ShapeId, [c_void_p, T.BodyId, POINTER(T.ShapeDef)]),
    "cnShape_GetAABB": (T.AABB, [c_void_p, T.ShapeId]),
    "cnShape_SetMaterial": (c_bool, [c_void_p, T.ShapeId, c_int]),
    # run loop
    "cnDefaultRunDef": (T.RunDef, []),
    "cnRun": (T.RunResult, [c_void_p, POINTER(T.RunDef)]),
    # libcairn_io: scenes
    "cnLoadScene": (POINTER(T.Scene), [c_char_p]),
    "cnLoadSceneWithMethod": (POINTER(T.Scene), [c_char_p, c_int]),
    "cnLoadSceneFromString": (POINTER(T.Scene), [c_char_p, c_char_p]),
    "cnDestroyScene": (None, [POINTER(T.Scene)]),
    "cnLoadFosssim": (POINTER(T.FosssimScene), [c_char_p]),
    "cnLoadFosssimWithMethod": (POINTER(T.FosssimScene), [c_char_p, c_int]),
    "cnDestroyFosssim": (None, [POINTER(T.FosssimScene)]),
    "cnFosssim_ApplyForces": (c_bool, [POINTER(T.FosssimScene)]),
    "cnFosssim_HasForceElements": (c_bool, [POINTER(T.FosssimScene)]),
    "cnIsFosssimPath": (c_bool, [c_char_p]),
    # snapshots: whole-world state to bytes and back (libcairn) and to files (libcairn_io)
    "cnWorld_Save": (c_bool, [c_void_p, POINTER(c_void_p), POINTER(c_size_t)]),
    "cnWorld_Load": (c_void_p, [c_void_p, c_size_t]),
    "cnFree": (None, [c_void_p]),
    "cnSaveSnapshot": (c_bool, [c_void_p, c_char_p]),
    "cnLoadSnapshot": (c_void_p, [c_char_p]),
}

_lock = threading.Lock()
_lib = None


def _candidate_folders():
    """Folders to look in, with where each came from (for the message when nothing is found)."""
    folders = []
    env = os.environ.get("CAIRN_LIBRARY")
    if env:
        folders.append(("CAIRN_LIBRARY", env))
    try:
        from . import _config
        folders.append(("_config.py", os.path.normpath(
            os.path.join(os.path.dirname(os.path.abspath(__file__)), _config.LIBRARY_DIR))))
    except ImportError:
        pass
    return folders


def _open(path, names):
    """Opens the first of names in folder path (or path itself when it is a file); None if none."""
    if os.path.isfile(path):
        return ctypes.CDLL(os.path.abspath(path), mode=ctypes.RTLD_GLOBAL)
    for name in names:
        candidate = os.path.join(path, name)
        if os.path.isfile(candidate):
            return ctypes.CDLL(os.path.abspath(candidate), mode=ctypes.RTLD_GLOBAL)
    return None


def _load():
    """Loads libcairn_io (and libcairn before it when they share a folder); raises CairnError."""
    tried = []
    for origin, path in _candidate_folders():
        folder = os.path.dirname(path) if os.path.isfile(path) else path
        try:
            _open(folder, _CORE_NAMES)
            io = _open(path, _IO_NAMES)
        except OSError as error:
            raise CairnError(f"cannot load the Cairn library from {path} ({origin}): {error}") from None
        if io is not None:
            return io
        tried.append(f"{path} ({origin})")
    found = ctypes.util.find_library("cairn_io")
    if found:
        try:
            return ctypes.CDLL(found, mode=ctypes.RTLD_GLOBAL)
        except OSError as error:
            raise CairnError(f"cannot load the Cairn library {found}: {error}") from None
    tried.append("the system library path")
    raise CairnError("cannot find libcairn_io's shared library (looked in " + ", ".join(tried) +
                     "): set CAIRN_LIBRARY to its path, or install Cairn with cmake --install")


def _declare(lib, table):
    for name, (restype, argtypes) in table.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise CairnError(f"the Cairn library lacks {name}: it is older than these bindings") from None
        function.restype = restype
        function.argtypes = argtypes


def lib():
    """The loaded library with every function declared (loaded on first use)."""
    global _lib
    if _lib is None:
        with _lock:
            if _lib is None:
                handle = _load()
                _declare(handle, _PROTOTYPES)
                _lib = handle
    return _lib


def error():
    """The calling thread's last library error as a CairnError (to raise)."""
    L = lib()
    code = L.cnGetErrorCode()
    message = (L.cnGetError() or b"").decode("utf-8", "replace")
    name = (L.cnErrorCodeName(code) or b"").decode("utf-8", "replace")
    return CairnError(message or "unknown error", code, name)


def check(ok):
    """Raises the library's error when a call that reports failure by false/NULL failed."""
    if not ok:
        raise error()
    return ok


def check_state():
    """Raises the library's error when the last call that can fail (a getter on an id) failed."""
    if lib().cnGetErrorCode() != 0:
        raise error()


def encode_path(path):
    """A path (str, bytes or os.PathLike) as bytes for the C calls."""
    return os.fsencode(os.fspath(path))


def text(raw):
    """A C string as str ("" for NULL)."""
    return raw.decode("utf-8", "replace") if raw else ""
