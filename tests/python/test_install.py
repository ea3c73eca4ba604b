# SPDX-License-Identifier: MIT
"""The package installed the two documented ways, each imported in a fresh Python from outside the
source tree: `pip install ./python --no-index --no-build-isolation` (offline; into a --target
folder) and `cmake --install` into a prefix, where the package finds the prefix's own libraries
through its generated _config.py. Also: without any library, importing works and the first use
raises CairnError saying how to point the package at one."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import helpers

# a fresh process: builds a world, steps it, loads a scene through libcairn_io, prints where from
PROBE = """
import cairn
w = cairn.World(gravity=(0, 0, -10), substeps=1)
w.add_body(position=(0, 0, 1)).add_sphere(0.1)
w.step(0.1)
s = cairn.load_scene_string('{"cairn": 1, "bodies": [{"name": "b", "shapes": [{"type": "sphere", "radius": 1}]}]}')
print(cairn.__file__)
print(cairn.library_path())
print(w.velocities[0, 2], s.body_count)
"""


def clean_env(**extra):
    """The environment without the variables that would lead the package to the build tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("CAIRN_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH")}
    env.update(extra)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def probe(env, cwd):
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError("the installed package failed:\n" + out.stdout + out.stderr)
    return out.stdout.split("\n")


class InstallTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="cairn-python-")
        self.addCleanup(shutil.rmtree, self.folder, True)

    def test_pip_install(self):
        have = [subprocess.run([sys.executable] + args, capture_output=True).returncode == 0
                for args in (["-m", "pip", "--version"], ["-c", "import setuptools"])]
        if not all(have):
            self.skipTest(f"{sys.executable} lacks pip or setuptools (Debian: python3-pip, python3-setuptools)")
        library = os.environ.get("CAIRN_LIBRARY")
        if not library:
            self.skipTest("CAIRN_LIBRARY is not set (CTest sets it to the built libcairn_io)")
        # a copy of python/, so that setuptools' in-place build leaves the source tree alone
        source = os.path.join(self.folder, "src")
        shutil.copytree(os.path.join(helpers.SOURCE_DIR, "python"), source,
                        ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        target = os.path.join(self.folder, "target")
        # numpy is Debian's, already installed: --no-deps, since --target would fetch it again
        out = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-build-isolation",
                              "--no-deps", "--disable-pip-version-check", "--target", target, source],
                             env=clean_env(), capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        lines = probe(clean_env(PYTHONPATH=target, CAIRN_LIBRARY=library), self.folder)
        self.assertTrue(lines[0].startswith(target), lines[0])
        self.assertEqual(lines[2], "-1.0 1")

    def test_cmake_install(self):
        build = os.environ.get("CAIRN_BUILD_DIR")
        cmake = os.environ.get("CAIRN_CMAKE", "cmake")
        relative = os.environ.get("CAIRN_PYTHON_INSTALL_DIR")
        if not build or not relative:
            self.skipTest("CAIRN_BUILD_DIR and CAIRN_PYTHON_INSTALL_DIR are not set (CTest sets them)")
        prefix = os.path.join(self.folder, "prefix")
        out = subprocess.run([cmake, "--install", build, "--prefix", prefix], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        site = os.path.join(prefix, relative)
        self.assertTrue(os.path.isfile(os.path.join(site, "cairn", "_config.py")))
        lines = probe(clean_env(PYTHONPATH=site), self.folder)
        self.assertTrue(lines[0].startswith(site), lines[0])
        # the prefix's own library, not the build tree's
        self.assertTrue(os.path.realpath(lines[1]).startswith(os.path.realpath(prefix)), lines[1])
        self.assertEqual(lines[2], "-1.0 1")

    def test_no_library(self):
        missing = os.path.join(self.folder, "nowhere")
        code = ("import cairn\n"
                "try:\n"
                "    cairn.World()\n"
                "except cairn.CairnError as e:\n"
                "    print(e)\n")
        env = clean_env(PYTHONPATH=os.path.join(helpers.SOURCE_DIR, "python"), CAIRN_LIBRARY=missing)
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=self.folder, capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("CAIRN_LIBRARY", out.stdout)
        self.assertIn(missing, out.stdout)


if __name__ == "__main__":
    unittest.main()
