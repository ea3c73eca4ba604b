# SPDX-License-Identifier: MIT
"""What the Python tests share: where the sources, the reference data and the build are (CTest
passes them in the environment, python/CMakeLists.txt), and the package itself."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("CAIRN_SOURCE_DIR", os.path.normpath(os.path.join(HERE, "..", "..")))
# third-party reference scenes live beside the checkout, never in it (docs/fosssim.md)
SHARED_DIR = os.environ.get("CAIRN_SHARED_DIR", os.path.normpath(os.path.join(SOURCE_DIR, "..", "shared")))
FOSSSIM_DIR = os.path.join(SHARED_DIR, "reference", "fosssim")

if os.path.join(SOURCE_DIR, "python") not in sys.path:
    sys.path.insert(0, os.path.join(SOURCE_DIR, "python"))

import cairn  # noqa: E402  (after the path above, for runs outside CTest)


def scene_path(name):
    """A scene shipped in scenes/."""
    return os.path.join(SOURCE_DIR, "scenes", name)


def fosssim_path(relative):
    """A FOSSSim reference scene; skips the calling test when the reference data is absent."""
    path = os.path.join(FOSSSIM_DIR, relative)
    if not os.path.isfile(path):
        raise unittest.SkipTest(f"FOSSSim reference scene {path} is absent (third-party data in ../shared)")
    return path


def ball_scene(height=100.0, gravity=-10.0, time_step=0.01, substeps=4, method="impulse"):
    """One sphere of radius 0.5 in the air, nothing else: a JSON scene string."""
    return ('{ "cairn": 1, "gravity": [0, 0, %r], "timestep": %r, "substeps": %d, "method": "%s", '
            '"bodies": [ { "name": "ball", "position": [0, 0, %r], '
            '"shapes": [ { "type": "sphere", "radius": 0.5 } ] } ] }'
            % (gravity, time_step, substeps, method, height))
