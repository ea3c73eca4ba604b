# SPDX-License-Identifier: MIT
"""Snapshots through the Python package: a world saved mid-run and rebuilt from the bytes (or a
file) goes on exactly as the original does (docs/snapshots.md)."""

import os
import tempfile
import unittest

import numpy as np

import helpers
from helpers import cairn


class SnapshotTest(unittest.TestCase):
    def assert_same_state(self, a, b):
        self.assertEqual(a.time, b.time)
        self.assertEqual(a.hash, b.hash)
        for key in ("positions", "orientations", "velocities", "angular_velocities"):
            np.testing.assert_array_equal(getattr(a, key), getattr(b, key), err_msg=key)

    def test_bytes_round_trip(self):
        with cairn.load_scene(helpers.scene_path("bouncing_balls.json")) as world:
            world.step(steps=60)
            data = world.save_state()
            self.assertIsInstance(data, bytes)
            self.assertGreater(len(data), 0)
            with cairn.World.from_state(data) as copy:
                self.assertEqual(copy.method, world.method)
                self.assertEqual(copy.body_names, world.body_names)
                self.assert_same_state(world, copy)
                world.step(world.time_step, steps=60)
                copy.step(world.time_step, steps=60)
                self.assert_same_state(world, copy)

    def test_file_round_trip(self):
        with cairn.load_scene(helpers.scene_path("bouncing_balls.json"), method="lcp") as world, \
                tempfile.TemporaryDirectory() as folder:
            world.step(steps=30)
            path = os.path.join(folder, "state.snapshot")
            world.save_state_file(path)
            with cairn.World.load_state_file(path) as copy:
                self.assertEqual(copy.method, "lcp")
                world.step(world.time_step, steps=30)
                copy.step(world.time_step, steps=30)
                self.assert_same_state(world, copy)

    def test_bad_snapshots(self):
        with self.assertRaises(cairn.CairnError):
            cairn.World.from_state(b"not a snapshot")
        with self.assertRaises(cairn.CairnError):
            cairn.World.from_state(b"")
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "missing.snapshot")
            with self.assertRaises(cairn.CairnError) as raised:
                cairn.World.load_state_file(path)
            self.assertIn("missing.snapshot", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
