# SPDX-License-Identifier: MIT
"""The Python package against closed forms and invariants: free fall, mass and kinetic energy of a
sphere, state written and read back, determinism, the run loop as a sequence of steps, FOSSSim
scenes (uniform gravity, a perfectly inelastic collision), and the errors of bad input."""

import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import helpers
from helpers import cairn


class FreeFallTest(unittest.TestCase):
    # The impulse method's symplectic Euler with sub-step h = dt / substeps gives exactly
    # v = g t and z = z0 + g t^2 / 2 + g h t / 2 (tests/test_dynamics.c): the continuous closed form
    # plus the first-order term of the integrator.
    def check_fall(self, world, ball, g, dt, substeps, z0, steps):
        h = dt / substeps
        t = steps * dt
        self.assertAlmostEqual(world.time, t, delta=1e-12)
        p = ball.position
        self.assertAlmostEqual(ball.velocity[2], g * t, delta=1e-10)
        self.assertAlmostEqual(p[2], z0 + 0.5 * g * t * t + 0.5 * g * h * t, delta=1e-9)
        self.assertLessEqual(abs(p[2] - (z0 + 0.5 * g * t * t)), abs(0.5 * g * h * t) + 1e-9)
        self.assertEqual((p[0], p[1]), (0.0, 0.0))

    def test_loaded_scene(self):
        with cairn.load_scene_string(helpers.ball_scene(), "fall") as world:
            self.assertEqual(world.time_step, 0.01)
            world.step(steps=200)
            self.check_fall(world, world.body("ball"), -10.0, 0.01, 4, 100.0, 200)
            self.assertEqual(world.positions.shape, (1, 3))
            self.assertEqual(world.positions[0, 2], world.body(0).position[2])

    def test_built_world(self):
        with cairn.World(gravity=(0, 0, -10), substeps=4) as world:
            ball = world.add_body(position=(0, 0, 100), name="ball")
            ball.add_sphere(0.5)
            world.step(0.01, steps=200)
            self.check_fall(world, ball, -10.0, 0.01, 4, 100.0, 200)

    def test_relax_iterations(self):
        # the impulse method's rigid passes per sub-step: 1 to 16, refused with the setting's name
        # otherwise; a free fall has no contact to relax, so it falls the same with any count
        with self.assertRaises(cairn.CairnError) as raised:
            cairn.World(relax_iterations=0)
        self.assertIn("relaxIterations", str(raised.exception))
        with cairn.World(gravity=(0, 0, -10), substeps=4, relax_iterations=3) as world:
            ball = world.add_body(position=(0, 0, 100), name="ball")
            ball.add_sphere(0.5)
            world.step(0.01, steps=200)
            self.check_fall(world, ball, -10.0, 0.01, 4, 100.0, 200)

    def test_mass_and_energy(self):
        # a sphere of the default density 1000 kg/m^3: m = 1000 * 4/3 pi r^3; KE = m v^2 / 2; PE = -m g.x
        with cairn.World(gravity=(0, 0, -10)) as world:
            ball = world.add_body(position=(1, 2, 3))
            ball.add_sphere(0.5)
            m = 1000.0 * 4.0 / 3.0 * math.pi * 0.5 ** 3
            self.assertAlmostEqual(ball.mass, m, delta=1e-9 * m)
            ball.velocity = (3, -4, 0)
            self.assertAlmostEqual(world.kinetic_energy, 0.5 * m * 25.0, delta=1e-9 * m)
            self.assertAlmostEqual(world.potential_energy, m * 10.0 * 3.0, delta=1e-9 * m)
            np.testing.assert_allclose(world.linear_momentum, m * np.array([3.0, -4.0, 0.0]), rtol=1e-12)
            I = 0.4 * m * 0.25
            np.testing.assert_allclose(ball.inertia, I * np.eye(3), rtol=1e-12, atol=1e-12 * I)
            # L about the centre of mass is I w; about the origin c x m v is added (c = (1, 2, 3))
            ball.angular_velocity = (0, 0, 2)
            np.testing.assert_allclose(ball.angular_momentum(), [0.0, 0.0, 2.0 * I], rtol=1e-12, atol=1e-9 * I)
            about_origin = m * np.array([12.0, 9.0, -10.0]) + [0.0, 0.0, 2.0 * I]
            np.testing.assert_allclose(ball.angular_momentum((0, 0, 0)), about_origin, rtol=1e-12)
            np.testing.assert_allclose(world.angular_momentum(), about_origin, rtol=1e-12)
            with self.assertRaises(cairn.CairnError):
                world.angular_momentum((math.nan, 0, 0))


class StateTest(unittest.TestCase):
    def test_set_then_read_back(self):
        rng = np.random.default_rng(7)
        with cairn.load_scene(helpers.scene_path("bouncing_balls.json")) as world:
            n = world.body_count
            dynamic = np.array([b.type == "dynamic" for b in world.bodies])
            self.assertTrue(dynamic.any() and not dynamic.all())
            positions = rng.uniform(-3, 3, (n, 3))
            q = rng.normal(size=(n, 4))
            q /= np.linalg.norm(q, axis=1)[:, None]
            velocities = rng.uniform(-2, 2, (n, 3)) * dynamic[:, None]
            spins = rng.uniform(-2, 2, (n, 3)) * dynamic[:, None]
            world.set_positions(positions)
            world.set_orientations(q)
            world.set_velocities(velocities)
            world.set_angular_velocities(spins)
            np.testing.assert_array_equal(world.positions, positions)
            np.testing.assert_array_equal(world.velocities, velocities)
            np.testing.assert_array_equal(world.angular_velocities, spins)
            # the library renormalises the quaternion it is given: equal to round-off
            np.testing.assert_allclose(world.orientations, q, rtol=0, atol=4e-16)
            for body in world.bodies:
                np.testing.assert_array_equal(body.position, positions[body.index])

    def test_static_body_cannot_move(self):
        with cairn.load_scene(helpers.scene_path("bouncing_balls.json")) as world:
            velocities = world.velocities
            velocities[0] = (1, 0, 0)
            with self.assertRaises(cairn.CairnError) as raised:
                world.set_velocities(velocities)
            self.assertIn("ground", str(raised.exception))
            self.assertIn("static", str(raised.exception))

    def test_bad_shapes_and_values(self):
        with cairn.load_scene_string(helpers.ball_scene()) as world:
            with self.assertRaises(ValueError):
                world.set_positions(np.zeros((2, 3)))
            with self.assertRaises(ValueError):
                world.set_orientations(np.zeros((1, 3)))
            with self.assertRaises(cairn.CairnError):
                world.set_positions([[0.0, math.nan, 0.0]])
            with self.assertRaises(cairn.CairnError):
                world.set_orientations([[2.0, 0.0, 0.0, 0.0]])
            with self.assertRaises(cairn.CairnError):
                world.step(-1.0)
            with self.assertRaises(KeyError):
                world.body("nobody")
            with self.assertRaises(cairn.CairnError):
                world.add_body().add_sphere(-1.0)


class MaterialTest(unittest.TestCase):
    # Shape.set_material: of two boxes of one material sliding on the ground at 5 m/s with mu 0.5,
    # the one given a copy with friction 0 keeps its speed while the other decelerates by mu g; a
    # denser material changes the mass to density times volume; a bad material is refused.
    def test_one_shape(self):
        g, dt = 10.0, 1.0 / 60.0
        with cairn.World(gravity=(0, 0, -g), sleep=False) as world:
            world.add_material("floor", friction=0.5)
            world.add_material("slick", friction=0.0)
            world.add_material("heavy", density=2000.0, friction=0.5)
            world.add_body("static").add_plane(material="floor")
            a = world.add_body(position=(0, 0, 0.5), velocity=(5, 0, 0), name="a")
            shape = a.add_box((0.5, 0.5, 0.5), material="floor")
            b = world.add_body(position=(0, 3, 0.5), velocity=(5, 0, 0), name="b")
            b.add_box((0.5, 0.5, 0.5), material="floor")
            world.step(dt, steps=10)
            va, vb = a.velocity[0], b.velocity[0]
            shape.set_material("slick")
            world.step(dt, steps=30)
            self.assertAlmostEqual(a.velocity[0], va, delta=1e-9)
            self.assertAlmostEqual(b.velocity[0], vb - 0.5 * g * 30 * dt, delta=1e-6)
            self.assertAlmostEqual(a.mass, 1000.0, delta=1e-9)
            shape.set_material("heavy")
            self.assertAlmostEqual(a.mass, 2000.0, delta=1e-9)
            self.assertAlmostEqual(b.mass, 1000.0, delta=1e-9)
            with self.assertRaises(cairn.CairnError):
                shape.set_material("nothing")
            with self.assertRaises(cairn.CairnError):
                shape.set_material(99)


class ContactTest(unittest.TestCase):
    # A 2 x 1 x 0.5 box resting on a ground plane: one manifold of four points at its bottom
    # corners, normal along z, normal impulses summing to m g dt (cnWorld_GetContactData).
    def test_box_on_ground(self):
        with cairn.World(gravity=(0.0, 0.0, -9.81), sleep=False) as world:
            world.add_body("static").add_plane()
            box = world.add_body(position=(1.0, -2.0, 0.25), name="box")
            box.add_box((1.0, 0.5, 0.25))
            self.assertEqual(world.contacts(), [])
            dt = 1.0 / 60.0
            world.step(dt, steps=120)
            contacts = world.contacts()
            self.assertEqual(len(contacts), 1)
            self.assertEqual(len(box.contacts()), 1)
            m = contacts[0]
            self.assertIn(box, (m["body_a"], m["body_b"]))
            self.assertAlmostEqual(abs(m["normal"][2]), 1.0, delta=1e-12)
            self.assertEqual(len(m["points"]), 4)
            corners = sorted((round(p["point"][0], 6), round(p["point"][1], 6)) for p in m["points"])
            self.assertEqual(corners, [(0.0, -2.5), (0.0, -1.5), (2.0, -2.5), (2.0, -1.5)])
            total = sum(p["normal_impulse"] for p in m["points"])
            self.assertAlmostEqual(total, box.mass * 9.81 * dt, delta=0.02 * box.mass * 9.81 * dt)
            self.assertTrue(all(p["separation"] <= 0.0 for p in m["points"]))


class DeterminismTest(unittest.TestCase):
    def run_scene(self):
        with cairn.load_scene(helpers.scene_path("bouncing_balls.json")) as world:
            trajectory = world.run(1.0)
            return trajectory, world.hash

    def test_same_scene_twice(self):
        (a, hash_a), (b, hash_b) = self.run_scene(), self.run_scene()
        self.assertEqual(hash_a, hash_b)
        for key in ("times", "positions", "orientations", "velocities", "angular_velocities"):
            np.testing.assert_array_equal(getattr(a, key), getattr(b, key), err_msg=key)

    def test_same_bits_on_any_worker_count(self):
        # a loaded scene's worker count changed from Python: the same final state on 1 and 2 workers
        path = helpers.scene_path("pyramid.json")
        hashes = []
        for workers in (1, 2):
            with cairn.load_scene(path) as world:
                world.workers = workers
                self.assertEqual(world.workers, workers)
                world.step(1.0 / 60.0, steps=20)
                hashes.append(world.hash)
        self.assertEqual(hashes[0], hashes[1])
        with cairn.load_scene(path) as world:
            with self.assertRaises(cairn.CairnError):
                world.workers = 0
            self.assertEqual(world.workers, 1)

    def test_contact_recycling(self):
        # the resting pyramid's contacts are recycled; with the distance 0 none are, and it still
        # rests (no box moves 5 mm, issue 15's bound on the pyramid's drift, either way)
        path = helpers.scene_path("pyramid.json")
        with cairn.load_scene(path) as on, cairn.load_scene(path) as off:
            self.assertEqual(on.contact_recycle_distance, 0.005)
            off.contact_recycle_distance = 0.0
            self.assertEqual(off.contact_recycle_distance, 0.0)
            start = on.positions.copy()
            on.step(1.0 / 60.0, steps=30)
            off.step(1.0 / 60.0, steps=30)
            self.assertGreater(on.stats["recycledContactCount"], 0.9 * on.stats["touchingCount"])
            self.assertEqual(off.stats["recycledContactCount"], 0)
            self.assertLess(np.abs(on.positions - start).max(), 5e-3)
            self.assertLess(np.abs(off.positions - start).max(), 5e-3)
            with self.assertRaises(cairn.CairnError):
                on.contact_recycle_distance = -1.0

    def test_run_is_its_steps(self):
        # the run loop takes steps of exactly step_size and nothing else happens to the world
        path = helpers.scene_path("bouncing_balls.json")
        with cairn.load_scene(path) as a, cairn.load_scene(path) as b:
            trajectory = a.run(0.5)
            self.assertEqual(len(trajectory), int(round(0.5 * a.fps)) + 1)
            self.assertEqual(trajectory.times[0], 0.0)
            self.assertEqual(trajectory.positions.shape, (len(trajectory), a.body_count, 3))
            b.step(trajectory.step_size, steps=trajectory.steps)
            np.testing.assert_array_equal(a.positions, b.positions)
            np.testing.assert_array_equal(a.velocities, b.velocities)
            np.testing.assert_array_equal(trajectory.positions[-1], b.positions)
            self.assertEqual(a.hash, b.hash)


class RunLoopTest(unittest.TestCase):
    def test_frames(self):
        # frame j at t0 + j / fps; stride keeps every stride-th; record=False the final state only
        with cairn.load_scene(helpers.scene_path("bouncing_balls.json")) as world:
            world.step(steps=3)
            t0 = world.time
            every = world.run(1.0, fps=30, stride=5)
            np.testing.assert_allclose(every.times, t0 + np.arange(0, 31, 5) / 30.0, rtol=0, atol=1e-12)
            self.assertEqual(every.steps_per_frame, 4)  # ceil((1/30) / (1/120))
            self.assertEqual(every.steps, 120)
            last = world.run(0.5, record=False)
            self.assertEqual(len(last), 1)
            self.assertEqual(last.times[0], world.time)
            np.testing.assert_array_equal(last.positions[0], world.positions)

    def test_progress_exception_stops_run(self):
        class Stop(Exception):
            pass

        def progress(time, end, rate):
            raise Stop()

        with cairn.load_scene(helpers.scene_path("bouncing_balls.json")) as world:
            with self.assertRaises(Stop):
                world.run(1e6, record=False, progress=progress)
            self.assertLess(world.time, 1e6)
            before = world.time
            world.step()
            self.assertGreater(world.time, before)

    def test_ctrl_c_cancels(self):
        # in a fresh process: SIGINT during a long run cancels it, and the world steps on after
        code = ("import os, signal, threading, cairn\n"
                "w = cairn.load_scene(%r)\n"
                "threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()\n"
                "try:\n"
                "    w.run(1e7, record=False)\n"
                "except KeyboardInterrupt:\n"
                "    t = w.time\n"
                "    w.step()\n"
                "    print('interrupted', 0 < t < 1e7, w.time > t)\n") % helpers.scene_path("bouncing_balls.json")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), "interrupted True True")


class MethodTest(unittest.TestCase):
    def test_every_method_by_name(self):
        names = cairn.methods()
        self.assertEqual(names[0], "impulse")
        self.assertIn("lcp", names)
        self.assertEqual(len(names), len(set(names)))
        for name in names:
            with cairn.World(method=name) as world:
                self.assertEqual(world.method, name)
                self.assertTrue(cairn.method_summary(name))

    def test_scene_method_override(self):
        path = helpers.scene_path("bouncing_balls.json")
        with cairn.load_scene(path) as world:
            self.assertEqual(world.method, "impulse")
        with cairn.load_scene(path, method="lcp") as world:
            self.assertEqual(world.method, "lcp")
        with self.assertRaises(cairn.CairnError) as raised:
            cairn.load_scene(path, method="no-such-method")
        self.assertIn("no-such-method", str(raised.exception))


class ErrorTest(unittest.TestCase):
    def test_invalid_scene_names_file(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "broken_scene.json")
            with open(path, "w") as f:
                f.write('{ "cairn": 1, "bodies": [ { "name": "b", "shapes": [ { "type": "sphere", "radius": -1 } ] } ] }')
            with self.assertRaises(cairn.CairnError) as raised:
                cairn.load_scene(path)
            self.assertIn("broken_scene.json", str(raised.exception))
            self.assertIn("radius", str(raised.exception))
            self.assertEqual(raised.exception.code_name, "bad input")
            missing = os.path.join(folder, "missing.json")
            with self.assertRaises(cairn.CairnError) as raised:
                cairn.load_scene(missing)
            self.assertIn("missing.json", str(raised.exception))
            xml = os.path.join(folder, "broken.xml")
            with open(xml, "w") as f:
                f.write('<scene><simtype type="rigid-body"/><nosuchtag/></scene>')
            with self.assertRaises(cairn.CairnError) as raised:
                cairn.load_fosssim(xml)
            self.assertIn("broken.xml", str(raised.exception))

    def test_closed_world(self):
        world = cairn.load_scene_string(helpers.ball_scene())
        ball = world.body(0)
        world.close()
        world.close()
        self.assertTrue(world.closed)
        with self.assertRaises(cairn.CairnError):
            world.step()
        with self.assertRaises(cairn.CairnError):
            ball.position


class FosssimTest(unittest.TestCase):
    def test_uniform_gravity(self):
        # FOSSSim's symplectic Euler under a constant acceleration a: v_n = a n dt and
        # x_n = x0 + a dt^2 n (n + 1) / 2; the square falls along +x (fx = 2) without turning
        path = helpers.fosssim_path("t3m1/gravitytests/test00sym.xml")
        with cairn.load_fosssim(path) as world:
            self.assertTrue(world.planar)
            x0 = world.positions.copy()
            trajectory = world.run()
            dt, n = trajectory.step_size, trajectory.steps
            self.assertAlmostEqual(dt, 0.01, delta=1e-15)
            self.assertEqual(n, 400)
            np.testing.assert_allclose(world.velocities[0], [2.0 * n * dt, 0, 0], rtol=0, atol=1e-12)
            expected = x0[0] + [2.0 * dt * dt * n * (n + 1) / 2.0, 0, 0]
            np.testing.assert_allclose(world.positions[0], expected, rtol=0, atol=1e-10)
            np.testing.assert_array_equal(world.angular_velocities, 0.0)

    def test_inelastic_collision(self):
        # two triangles of equal mass 3, one moving at -1 onto the other at rest, no gravity: the
        # inelastic LCP leaves them moving together at -1/2, momentum (0, -3) throughout
        path = helpers.fosssim_path("t3m2/lcp/test01.xml")
        with cairn.load_scene(path) as world:
            self.assertEqual(world.method, "lcp")
            np.testing.assert_allclose(world.masses, [3.0, 3.0])
            trajectory = world.run()
            momentum = trajectory.velocities[:, :, :2] * 3.0
            np.testing.assert_allclose(momentum.sum(axis=1), np.tile([0.0, -3.0], (len(trajectory), 1)),
                                       rtol=0, atol=1e-9)
            np.testing.assert_allclose(world.velocities[:, :2], [[0, -0.5], [0, -0.5]], rtol=0, atol=1e-9)
            np.testing.assert_allclose(world.angular_velocities, 0.0, atol=1e-12)

    def test_springs_act_in_step_and_run(self):
        # springs are force elements the bindings apply before every step: run() and step() agree
        path = helpers.fosssim_path("t3m1/springtests/test00sym.xml")
        with cairn.load_fosssim(path) as a, cairn.load_fosssim(path) as b:
            start = a.positions
            trajectory = a.run(1.0)
            b.step(trajectory.step_size, steps=trajectory.steps)
            np.testing.assert_array_equal(a.positions, b.positions)
            self.assertGreater(np.abs(a.positions - start).max(), 1e-3)

    def test_method_override(self):
        path = helpers.fosssim_path("t3m2/lcp/test01.xml")
        with cairn.load_fosssim(path, method="velocity-projection") as world:
            self.assertEqual(world.method, "velocity-projection")
            world.run()
            np.testing.assert_allclose(world.velocities[:, 1], [-0.5, -0.5], atol=1e-9)


if __name__ == "__main__":
    unittest.main()
