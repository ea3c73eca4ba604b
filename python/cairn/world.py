# SPDX-License-Identifier: MIT
"""World, Body, Shape and Trajectory: Cairn worlds built in Python or loaded from scene files.

Arrays are numpy float64 copies, one row per body in creation order (the order of
cnWorld_GetBody, of a scene file's "bodies" and of a FOSSSim file's rigid bodies). Vectors are
(x, y, z), quaternions (w, x, y, z), in SI units, in the world frame. Positions are those of each
body's origin (the frame its shapes are placed in; a FOSSSim body's origin is its centre of mass);
velocities are those of the centre of mass."""

import contextlib
import ctypes
import signal
import threading

import numpy as np

from . import _lib
from . import _types as T
from ._lib import CairnError


def _vec3(value, what):
    """A cnVec3 from three finite-or-not numbers (the library checks finiteness)."""
    v = np.asarray(value, dtype=np.float64).reshape(-1)
    if v.shape != (3,):
        raise ValueError(f"{what} must have 3 components, got {np.shape(value)}")
    return T.Vec3(float(v[0]), float(v[1]), float(v[2]))


def _quat(value, what):
    """A cnQuat from (w, x, y, z)."""
    q = np.asarray(value, dtype=np.float64).reshape(-1)
    if q.shape != (4,):
        raise ValueError(f"{what} must have 4 components (w, x, y, z), got {np.shape(value)}")
    return T.Quat(float(q[0]), float(q[1]), float(q[2]), float(q[3]))


def _array3(v):
    return np.array((v.x, v.y, v.z), dtype=np.float64)


def _array4(q):
    return np.array((q.w, q.x, q.y, q.z), dtype=np.float64)


def method_id(name):
    """The cnMethod number of a method name ("impulse", "lcp", ...); CairnError when unknown."""
    value = ctypes.c_int(0)
    _lib.check(_lib.lib().cnMethod_FromName(name.encode("utf-8"), ctypes.byref(value)))
    return value.value


def _body_type_id(name):
    try:
        return T.BODY_TYPES.index(name)
    except ValueError:
        raise ValueError(f"body type must be one of {', '.join(T.BODY_TYPES)}, got {name!r}") from None


class Shape:
    """A shape on a body (returned by Body.add_sphere and its siblings)."""

    def __init__(self, body, shape_id, type_name):
        self.body = body
        self._id = shape_id
        #: "sphere", "box", "capsule", "cylinder" or "plane"
        self.type = type_name

    @property
    def aabb(self):
        """The shape's world bounding box as of the last step: (lower, upper) arrays."""
        box = _lib.lib().cnShape_GetAABB(self.body.world._w(), self._id)
        _lib.check_state()
        return _array3(box.lower), _array3(box.upper)

    def set_material(self, material):
        """Gives this shape another material (an id or a name; other shapes of its old material keep
        it): its touching contacts take the new friction and restitution, another density changes
        the body's mass (cnShape_SetMaterial)."""
        world = self.body.world
        _lib.check(_lib.lib().cnShape_SetMaterial(world._w(), self._id, world._material_id(material)))

    def __repr__(self):
        return f"<cairn.Shape {self.type} of {self.body!r}>"


class Body:
    """One body of a world: its state, mass properties and shapes. Get bodies from World.bodies,
    World.body(name or index) or World.add_body; a Body stays valid as long as its world is open."""

    def __init__(self, world, body_id, index):
        self.world = world
        self._id = body_id
        #: row of this body in the world's state arrays (creation order)
        self.index = index

    def _get(self, fn):
        value = fn(self.world._w(), self._id)
        _lib.check_state()
        return value

    @property
    def name(self):
        """The body's name ("" when it has none)."""
        return _lib.text(self._get(_lib.lib().cnBody_GetName))

    @property
    def type(self):
        """"static", "kinematic" or "dynamic"."""
        return T.BODY_TYPES[self._get(_lib.lib().cnBody_GetType)]

    @property
    def position(self):
        """Position of the body origin (3-array); setting it teleports the body and wakes it."""
        return _array3(self._get(_lib.lib().cnBody_GetPosition))

    @position.setter
    def position(self, value):
        q = self._get(_lib.lib().cnBody_GetOrientation)
        _lib.check(_lib.lib().cnBody_SetTransform(self.world._w(), self._id, _vec3(value, "position"), q))

    @property
    def orientation(self):
        """Orientation as a unit quaternion (w, x, y, z); settable (must be of unit length)."""
        return _array4(self._get(_lib.lib().cnBody_GetOrientation))

    @orientation.setter
    def orientation(self, value):
        p = self._get(_lib.lib().cnBody_GetPosition)
        _lib.check(_lib.lib().cnBody_SetTransform(self.world._w(), self._id, p, _quat(value, "orientation")))

    @property
    def velocity(self):
        """Velocity of the centre of mass (m/s); settable (not on static bodies)."""
        return _array3(self._get(_lib.lib().cnBody_GetLinearVelocity))

    @velocity.setter
    def velocity(self, value):
        _lib.check(_lib.lib().cnBody_SetLinearVelocity(self.world._w(), self._id, _vec3(value, "velocity")))

    @property
    def angular_velocity(self):
        """Angular velocity in the world frame (rad/s); settable (not on static bodies)."""
        return _array3(self._get(_lib.lib().cnBody_GetAngularVelocity))

    @angular_velocity.setter
    def angular_velocity(self, value):
        _lib.check(_lib.lib().cnBody_SetAngularVelocity(self.world._w(), self._id,
                                                        _vec3(value, "angular velocity")))

    @property
    def center_of_mass(self):
        """Centre of mass in world coordinates."""
        return _array3(self._get(_lib.lib().cnBody_GetWorldCenterOfMass))

    @property
    def mass(self):
        """Mass in kg (0 for static and kinematic bodies)."""
        return self._get(_lib.lib().cnBody_GetMass)

    @property
    def inertia(self):
        """Rotational inertia about the centre of mass in body coordinates (3x3 array)."""
        m = self._get(_lib.lib().cnBody_GetLocalInertia)
        return np.column_stack((_array3(m.cx), _array3(m.cy), _array3(m.cz)))

    @property
    def kinetic_energy(self):
        """Kinetic energy of the body (J)."""
        return self._get(_lib.lib().cnBody_GetKineticEnergy)

    def angular_momentum(self, point=None):
        """Angular momentum (kg m^2/s) about a world point, (c - point) x m v + I w (c: the centre
        of mass); about the centre of mass itself when point is None. Zero for static and kinematic
        bodies."""
        about = self.center_of_mass if point is None else point
        value = _lib.lib().cnBody_GetAngularMomentum(self.world._w(), self._id, _vec3(about, "point"))
        _lib.check_state()
        return _array3(value)

    def contacts(self):
        """The touching contact manifolds this body takes part in, as World.contacts gives them."""
        L, ptr = _lib.lib(), self.world._w()
        return self.world._contacts(lambda data, capacity: L.cnBody_GetContactData(ptr, self._id, data, capacity))

    @property
    def awake(self):
        """Whether the body is simulated this step; set False to put its island to sleep."""
        return bool(self._get(_lib.lib().cnBody_IsAwake))

    @awake.setter
    def awake(self, flag):
        _lib.check(_lib.lib().cnBody_SetAwake(self.world._w(), self._id, bool(flag)))

    def apply_force(self, force, point=None):
        """Applies a force (N) at a world point (default: the centre of mass) for the next step."""
        point = self.center_of_mass if point is None else point
        _lib.check(_lib.lib().cnBody_ApplyForce(self.world._w(), self._id, _vec3(force, "force"),
                                                _vec3(point, "point")))

    def apply_torque(self, torque):
        """Applies a torque (N m, world frame) for the next step."""
        _lib.check(_lib.lib().cnBody_ApplyTorque(self.world._w(), self._id, _vec3(torque, "torque")))

    def apply_impulse(self, impulse, point=None):
        """Applies a linear impulse (N s) at a world point (default: the centre of mass) now."""
        point = self.center_of_mass if point is None else point
        _lib.check(_lib.lib().cnBody_ApplyLinearImpulse(self.world._w(), self._id,
                                                        _vec3(impulse, "impulse"), _vec3(point, "point")))

    def _add_shape(self, type_id, type_name, position, orientation, material, fill):
        L = _lib.lib()
        shape_def = L.cnDefaultShapeDef()
        shape_def.type = type_id
        shape_def.position = _vec3(position, "shape position")
        shape_def.orientation = _quat(orientation, "shape orientation")
        shape_def.material = self.world._material_id(material)
        fill(shape_def)
        shape_id = L.cnCreateShape(self.world._w(), self._id, ctypes.byref(shape_def))
        _lib.check(shape_id.index >= 0)
        return Shape(self, shape_id, type_name)

    def add_sphere(self, radius, position=(0, 0, 0), orientation=(1, 0, 0, 0), material=0):
        """Adds a sphere of the given radius (m) at a position and orientation in the body frame;
        material is a material id or name. Returns the Shape; the body's mass follows."""
        def fill(d):
            d.radius = float(radius)
        return self._add_shape(T.SHAPE_SPHERE, "sphere", position, orientation, material, fill)

    def add_box(self, half_extents, position=(0, 0, 0), orientation=(1, 0, 0, 0), material=0):
        """Adds a box of the given half extents (x, y, z) in the body frame."""
        def fill(d):
            d.halfExtents = _vec3(half_extents, "half extents")
        return self._add_shape(T.SHAPE_BOX, "box", position, orientation, material, fill)

    def add_capsule(self, radius, half_height, position=(0, 0, 0), orientation=(1, 0, 0, 0), material=0):
        """Adds a capsule along the shape's local z: radius and the half length of its segment."""
        def fill(d):
            d.radius = float(radius)
            d.halfHeight = float(half_height)
        return self._add_shape(T.SHAPE_CAPSULE, "capsule", position, orientation, material, fill)

    def add_cylinder(self, radius, half_height, position=(0, 0, 0), orientation=(1, 0, 0, 0), material=0):
        """Adds a cylinder along the shape's local z."""
        def fill(d):
            d.radius = float(radius)
            d.halfHeight = float(half_height)
        return self._add_shape(T.SHAPE_CYLINDER, "cylinder", position, orientation, material, fill)

    def add_plane(self, normal=(0, 0, 1), offset=0.0, material=0):
        """Adds an infinite plane dot(n, x) = offset (body frame; static bodies only)."""
        def fill(d):
            d.normal = _vec3(normal, "plane normal")
            d.offset = float(offset)
        return self._add_shape(T.SHAPE_PLANE, "plane", (0, 0, 0), (1, 0, 0, 0), material, fill)

    def __eq__(self, other):
        return (isinstance(other, Body) and other.world is self.world and
                (other._id.index, other._id.generation) == (self._id.index, self._id.generation))

    def __hash__(self):
        return hash((id(self.world), self._id.index, self._id.generation))

    def __repr__(self):
        if self.world.closed:
            return f"<cairn.Body {self.index} of a closed world>"
        return f"<cairn.Body {self.index} {self.name!r} {self.type}>"


class Trajectory:
    """The frames of a World.run: arrays over frames (first axis) and bodies (second axis).

    Attributes: times (F,), positions (F, N, 3), orientations (F, N, 4), velocities (F, N, 3),
    angular_velocities (F, N, 3), kinetic_energy (F,), potential_energy (F,) and body_names; and
    what the run loop reported: steps (steps taken), step_size (s), steps_per_frame, wall_seconds.
    Without recording (record=False) the arrays hold the last frame only."""

    def __init__(self, body_names):
        self.body_names = body_names
        self._rows = {key: [] for key in ("times", "positions", "orientations", "velocities",
                                          "angular_velocities", "kinetic_energy", "potential_energy")}
        self.steps = 0
        self.step_size = 0.0
        self.steps_per_frame = 0
        self.wall_seconds = 0.0

    def _add(self, world, time):
        rows = self._rows
        rows["times"].append(time)
        rows["positions"].append(world.positions)
        rows["orientations"].append(world.orientations)
        rows["velocities"].append(world.velocities)
        rows["angular_velocities"].append(world.angular_velocities)
        rows["kinetic_energy"].append(world.kinetic_energy)
        rows["potential_energy"].append(world.potential_energy)

    def _finish(self):
        n = len(self.body_names)
        shapes = {"positions": (0, n, 3), "orientations": (0, n, 4), "velocities": (0, n, 3),
                  "angular_velocities": (0, n, 3)}
        for key, rows in self._rows.items():
            if rows:
                setattr(self, key, np.array(rows, dtype=np.float64))
            else:
                setattr(self, key, np.zeros(shapes.get(key, (0,)), dtype=np.float64))
        del self._rows

    @property
    def energy(self):
        """Kinetic plus gravitational potential energy per frame (J)."""
        return self.kinetic_energy + self.potential_energy

    def __len__(self):
        return len(self.times)

    def __repr__(self):
        return f"<cairn.Trajectory {len(self.times)} frames, {len(self.body_names)} bodies>"


class World:
    """A Cairn world: bodies, shapes, materials and the contact method that moves them.

    Build one in Python with World(...) and add_body, or load a scene with cairn.load_scene,
    cairn.load_scene_string or cairn.load_fosssim. A loaded world keeps its scene's run settings
    (time_step, duration, fps) for step() and run(). Close it with close() or a with-block; it is
    also freed when garbage collected."""

    def __init__(self, method="impulse", gravity=(0.0, 0.0, -9.81), *, planar=False, sleep=True,
                 continuous=True, substeps=None, relax_iterations=None, workers=1, time_step=1.0 / 120.0,
                 duration=5.0, fps=60.0):
        """Creates an empty world. method: a contact method name (cairn.methods()); gravity in
        m/s^2 (z up); planar: bodies move in the xy-plane only; sleep: bodies at rest may sleep;
        continuous: fast bodies are swept so they do not tunnel; substeps: the impulse method's
        sub-steps (library default when None); relax_iterations: its rigid passes per sub-step
        (library default when None); workers: threads that run the step (results do not
        depend on it). time_step, duration and fps are the defaults of step() and run()."""
        self._ptr = None
        self._scene = None
        self._fosssim = None
        L = _lib.lib()
        world_def = L.cnDefaultWorldDef()
        world_def.method = method_id(method)
        world_def.gravity = _vec3(gravity, "gravity")
        world_def.planar = bool(planar)
        world_def.enableSleep = bool(sleep)
        world_def.enableContinuous = bool(continuous)
        if substeps is not None:
            world_def.settings.impulse.subSteps = int(substeps)
        if relax_iterations is not None:
            world_def.settings.impulse.relaxIterations = int(relax_iterations)
        world_def.workerCount = int(workers)
        ptr = L.cnCreateWorld(ctypes.byref(world_def))
        _lib.check(ptr)
        self._adopt(ptr, None, None)
        self.time_step = float(time_step)
        self.duration = float(duration)
        self.fps = float(fps)

    @classmethod
    def _wrap(cls, ptr=None, scene=None, fosssim=None):
        """A World around a world pointer, a cnScene or a cnFosssimScene it now owns."""
        world = cls.__new__(cls)
        world._ptr = None
        world._scene = None
        world._fosssim = None
        world._adopt(ptr, scene, fosssim)
        if world._scene is not None:
            s = world._scene.contents
            world.name = _lib.text(s.name)
            world.description = _lib.text(s.description)
            world.path = _lib.text(s.path)
            world.warnings = [_lib.text(s.warnings[i]) for i in range(s.warningCount)]
            world.time_step, world.duration, world.fps = s.timeStep, s.duration, s.fps
        else:
            world.time_step, world.duration, world.fps = 1.0 / 120.0, 5.0, 60.0
        return world

    def _adopt(self, ptr, scene, fosssim):
        if fosssim is not None:
            scene = fosssim.contents.scene
        if scene is not None:
            ptr = scene.contents.world
        self._ptr = ptr
        self._scene = scene
        self._fosssim = fosssim
        self._forces = bool(fosssim is not None and _lib.lib().cnFosssim_HasForceElements(fosssim))
        self._bodies = None
        #: the scene's name, description, file and loader warnings ("" and [] for built worlds)
        self.name = ""
        self.description = ""
        self.path = ""
        self.warnings = []

    # -- lifetime -------------------------------------------------------------------------------

    def close(self):
        """Frees the world (and its scene). Further use raises CairnError; closing twice is fine."""
        if self._ptr is None:
            return
        L = _lib.lib()
        if self._fosssim is not None:
            L.cnDestroyFosssim(self._fosssim)
        elif self._scene is not None:
            L.cnDestroyScene(self._scene)
        else:
            L.cnDestroyWorld(self._ptr)
        self._ptr = self._scene = self._fosssim = None
        self._bodies = None

    @property
    def closed(self):
        """True once close() has freed the world."""
        return self._ptr is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        # at interpreter shutdown the module globals may already be gone: nothing to free then
        try:
            self.close()
        except Exception:
            pass

    def _w(self):
        if self._ptr is None:
            raise CairnError("the world is closed")
        return self._ptr

    # -- settings -------------------------------------------------------------------------------

    @property
    def method(self):
        """The contact method's name ("impulse", "lcp", ...); fixed when the world is created
        (pass method= to the loaders to run a scene with another one)."""
        return _lib.text(_lib.lib().cnMethod_GetName(_lib.lib().cnWorld_GetDef(self._w()).method))

    @property
    def planar(self):
        """True for a planar world (bodies move in the xy-plane; FOSSSim scenes)."""
        return bool(_lib.lib().cnWorld_GetDef(self._w()).planar)

    @property
    def gravity(self):
        """Gravity (m/s^2) as a 3-array; settable (wakes every body)."""
        return _array3(_lib.lib().cnWorld_GetGravity(self._w()))

    @gravity.setter
    def gravity(self, value):
        _lib.check(_lib.lib().cnWorld_SetGravity(self._w(), _vec3(value, "gravity")))

    @property
    def workers(self):
        """Threads that run the step (1 to 64; a loaded scene's "workers" key, else 1); settable
        at any time between steps. Results are the same bits on any count."""
        return int(_lib.lib().cnWorld_GetDef(self._w()).workerCount)

    @workers.setter
    def workers(self, value):
        _lib.check(_lib.lib().cnWorld_SetWorkerCount(self._w(), int(value)))

    @property
    def contact_recycle_distance(self):
        """Contact recycling's distance (m; 0: the narrow phase collides every pair every step);
        settable between steps. stats["recycledContactCount"] counts the last step's."""
        return float(_lib.lib().cnWorld_GetDef(self._w()).contactRecycleDistance)

    @contact_recycle_distance.setter
    def contact_recycle_distance(self, value):
        _lib.check(_lib.lib().cnWorld_SetContactRecycleDistance(self._w(), float(value)))

    @property
    def time(self):
        """Simulated time (s): the sum of the step sizes so far."""
        return _lib.lib().cnWorld_GetTime(self._w())

    @property
    def stats(self):
        """Timings of the last step (ms) and counters, as a dict of cnStats' fields."""
        s = _lib.lib().cnWorld_GetStats(self._w())
        return {name: getattr(s, name) for name, _ in T.Stats._fields_}

    @property
    def hash(self):
        """64-bit hash of every body's position and orientation (equal states, equal hashes)."""
        return int(_lib.lib().cnWorld_Hash(self._w()))

    # -- materials ------------------------------------------------------------------------------

    def add_material(self, name=None, density=1000.0, friction=0.6, restitution=0.0):
        """Adds a material (density kg/m^3, Coulomb friction, restitution in [0, 1]); returns its id,
        which shapes take as material= (as does its name)."""
        L = _lib.lib()
        material = L.cnDefaultMaterialDef()
        encoded = name.encode("utf-8") if name is not None else None
        material.name = encoded
        material.density = float(density)
        material.friction = float(friction)
        material.restitution = float(restitution)
        material_id = L.cnCreateMaterial(self._w(), ctypes.byref(material))
        _lib.check(material_id >= 0)
        return material_id

    def _material_id(self, material):
        if isinstance(material, str):
            found = _lib.lib().cnWorld_FindMaterial(self._w(), material.encode("utf-8"))
            if found < 0:
                raise CairnError(f"no material named {material!r}")
            return found
        return int(material)

    # -- bodies ---------------------------------------------------------------------------------

    def add_body(self, type="dynamic", position=(0.0, 0.0, 0.0), orientation=(1.0, 0.0, 0.0, 0.0),
                 velocity=(0.0, 0.0, 0.0), angular_velocity=(0.0, 0.0, 0.0), *, name=None,
                 gravity_scale=1.0, linear_damping=0.0, angular_damping=0.0, drag=0.0, sleep=True,
                 bullet=False):
        """Adds a body without shapes and returns it (give it shapes with add_sphere, add_box, ...).
        type: "dynamic", "kinematic" or "static"; orientation (w, x, y, z); drag: quadratic air
        drag coefficient k (F = -k |v| v); bullet: continuous collision every step."""
        L = _lib.lib()
        body_def = L.cnDefaultBodyDef()
        encoded = name.encode("utf-8") if name is not None else None
        body_def.name = encoded
        body_def.type = _body_type_id(type)
        body_def.position = _vec3(position, "position")
        body_def.orientation = _quat(orientation, "orientation")
        body_def.linearVelocity = _vec3(velocity, "velocity")
        body_def.angularVelocity = _vec3(angular_velocity, "angular velocity")
        body_def.gravityScale = float(gravity_scale)
        body_def.linearDamping = float(linear_damping)
        body_def.angularDamping = float(angular_damping)
        body_def.dragCoefficient = float(drag)
        body_def.enableSleep = bool(sleep)
        body_def.isBullet = bool(bullet)
        body_id = L.cnCreateBody(self._w(), ctypes.byref(body_def))
        _lib.check(body_id.index >= 0)
        self._bodies = None
        return self.bodies[-1]

    @property
    def bodies(self):
        """Every body in creation order (the rows of the state arrays), as a tuple of Body."""
        if self._bodies is None:
            L = _lib.lib()
            ptr = self._w()
            self._bodies = tuple(Body(self, L.cnWorld_GetBody(ptr, i), i)
                                 for i in range(L.cnWorld_GetBodyCount(ptr)))
        return self._bodies

    @property
    def body_count(self):
        """Number of bodies."""
        return len(self.bodies)

    @property
    def body_names(self):
        """The bodies' names in row order ("" for a body without a name)."""
        return [body.name for body in self.bodies]

    def body(self, key):
        """A body by name (str) or by row (int, negative counts from the end); KeyError or
        IndexError when there is none."""
        bodies = self.bodies
        if isinstance(key, str):
            found = _lib.lib().cnWorld_FindBody(self._w(), key.encode("utf-8"))
            for body in bodies:
                if (body._id.index, body._id.generation) == (found.index, found.generation):
                    return body
            raise KeyError(f"no body named {key!r}")
        return bodies[key]

    # -- state arrays ---------------------------------------------------------------------------

    def _gather(self, getter, convert, width):
        ptr = self._w()
        bodies = self.bodies
        out = np.empty((len(bodies), width), dtype=np.float64)
        for i, body in enumerate(bodies):
            out[i] = convert(getter(ptr, body._id))
        return out

    @property
    def positions(self):
        """Positions of the body origins, (N, 3) float64 (a copy)."""
        return self._gather(_lib.lib().cnBody_GetPosition, lambda v: (v.x, v.y, v.z), 3)

    @property
    def orientations(self):
        """Orientations as unit quaternions (w, x, y, z), (N, 4) float64."""
        return self._gather(_lib.lib().cnBody_GetOrientation, lambda q: (q.w, q.x, q.y, q.z), 4)

    @property
    def velocities(self):
        """Velocities of the centres of mass, (N, 3) float64."""
        return self._gather(_lib.lib().cnBody_GetLinearVelocity, lambda v: (v.x, v.y, v.z), 3)

    @property
    def angular_velocities(self):
        """Angular velocities in the world frame, (N, 3) float64."""
        return self._gather(_lib.lib().cnBody_GetAngularVelocity, lambda v: (v.x, v.y, v.z), 3)

    @property
    def centers_of_mass(self):
        """Centres of mass in world coordinates, (N, 3) float64."""
        return self._gather(_lib.lib().cnBody_GetWorldCenterOfMass, lambda v: (v.x, v.y, v.z), 3)

    @property
    def masses(self):
        """Masses (kg), (N,) float64 (0 for static and kinematic bodies)."""
        ptr = self._w()
        return np.array([_lib.lib().cnBody_GetMass(ptr, b._id) for b in self.bodies], dtype=np.float64)

    def _rows(self, values, width, what):
        a = np.asarray(values, dtype=np.float64)
        n = len(self.bodies)
        if a.shape != (n, width):
            raise ValueError(f"{what} must be an array of shape ({n}, {width}), got {a.shape}")
        return a

    def _each(self, rows, what, call):
        """Calls call(body, row) for every body, naming the body in the error of a failed call."""
        for body, row in zip(self.bodies, rows):
            try:
                call(body, row)
            except CairnError as error:
                raise CairnError(f"{what}: body {body.index} ({body.name or 'unnamed'}): {error}",
                                 error.code, error.code_name) from None

    def set_positions(self, positions):
        """Moves every body origin to a row of positions, (N, 3); orientations are kept."""
        rows = self._rows(positions, 3, "positions")
        L, ptr = _lib.lib(), self._w()

        def call(body, row):
            q = L.cnBody_GetOrientation(ptr, body._id)
            _lib.check(L.cnBody_SetTransform(ptr, body._id, T.Vec3(*row), q))
        self._each(rows, "set_positions", call)

    def set_orientations(self, orientations):
        """Turns every body to a row of unit quaternions (w, x, y, z), (N, 4); positions are kept."""
        rows = self._rows(orientations, 4, "orientations")
        L, ptr = _lib.lib(), self._w()

        def call(body, row):
            p = L.cnBody_GetPosition(ptr, body._id)
            _lib.check(L.cnBody_SetTransform(ptr, body._id, p, T.Quat(*row)))
        self._each(rows, "set_orientations", call)

    def _set_velocity_rows(self, values, what, setter):
        rows = self._rows(values, 3, what)
        L, ptr = _lib.lib(), self._w()

        # a static body cannot move: its row must be zero, and is then skipped
        def call(body, row):
            if not row.any() and L.cnBody_GetType(ptr, body._id) == 0:
                return
            _lib.check(setter(ptr, body._id, T.Vec3(*row)))
        self._each(rows, "set_" + what, call)

    def set_velocities(self, velocities):
        """Sets every body's centre-of-mass velocity from (N, 3) rows (static bodies' rows must be 0)."""
        self._set_velocity_rows(velocities, "velocities", _lib.lib().cnBody_SetLinearVelocity)

    def set_angular_velocities(self, angular_velocities):
        """Sets every body's angular velocity (world frame) from (N, 3) rows (static rows must be 0)."""
        self._set_velocity_rows(angular_velocities, "angular_velocities", _lib.lib().cnBody_SetAngularVelocity)

    # -- energy ---------------------------------------------------------------------------------

    @property
    def kinetic_energy(self):
        """Total kinetic energy (J)."""
        return _lib.lib().cnWorld_GetKineticEnergy(self._w())

    @property
    def potential_energy(self):
        """Total gravitational potential energy -m g.x of the dynamic bodies, zero at the origin (J)."""
        return _lib.lib().cnWorld_GetPotentialEnergy(self._w())

    @property
    def energy(self):
        """Kinetic plus gravitational potential energy (J); springs and joints are not counted."""
        return self.kinetic_energy + self.potential_energy

    @property
    def linear_momentum(self):
        """Total linear momentum of the dynamic bodies (kg m/s), a 3-array."""
        return _array3(_lib.lib().cnWorld_GetLinearMomentum(self._w()))

    def angular_momentum(self, point=(0.0, 0.0, 0.0)):
        """Total angular momentum of the dynamic bodies about a world point (kg m^2/s), a 3-array:
        the sum of (c - point) x m v + I w over the bodies."""
        value = _lib.lib().cnWorld_GetAngularMomentum(self._w(), _vec3(point, "point"))
        _lib.check_state()
        return _array3(value)

    # -- contacts -------------------------------------------------------------------------------

    def _contacts(self, read):
        count = read(None, 0)
        if count < 0:
            _lib.check_state()
        data = (T.ContactData * max(count, 1))()
        count = min(read(data, count), count)
        bodies = {(b._id.index, b._id.generation): b for b in self.bodies}
        out = []
        for m in data[:count]:
            points = [{"point": _array3(p.point), "normal": _array3(p.normal), "separation": p.separation,
                       "normal_impulse": p.normalImpulse, "tangent_impulse": p.tangentImpulse}
                      for p in m.points[:m.pointCount]]
            out.append({"body_a": bodies.get((m.bodyA.index, m.bodyA.generation)),
                        "body_b": bodies.get((m.bodyB.index, m.bodyB.generation)),
                        "normal": _array3(m.normal), "points": points})
        return out

    def contacts(self):
        """The touching contact manifolds of the last step (cnWorld_GetContactData, docs/queries.md):
        a list of dicts with body_a, body_b (Body), normal (from A to B) and points, each a dict of
        point (midway between the surfaces, at the step's start poses), normal, separation (m, > 0
        for a speculative point), normal_impulse and tangent_impulse (N s, over the step)."""
        L, ptr = _lib.lib(), self._w()
        return self._contacts(lambda data, capacity: L.cnWorld_GetContactData(ptr, data, capacity))

    # -- stepping -------------------------------------------------------------------------------

    def step(self, dt=None, steps=1):
        """Advances the world by `steps` steps of dt seconds (default: the scene's time step).
        A FOSSSim scene's springs and wind are applied before each step. Raises CairnError when a
        step fails (the bodies are then where that step started)."""
        dt = self.time_step if dt is None else float(dt)
        L, ptr = _lib.lib(), self._w()
        for _ in range(int(steps)):
            if self._forces:
                _lib.check(L.cnFosssim_ApplyForces(self._fosssim))
            _lib.check(L.cnWorld_Step(ptr, dt))

    def run(self, duration=None, *, fps=None, max_time_step=None, record=True, stride=1, progress=None):
        """Runs the world through the library's run loop (cnRun) and returns a Trajectory.

        duration (s), fps and max_time_step default to the scene's (or the World's) settings. Each
        frame interval 1/fps is cut into k = ceil((1/fps) / max_time_step) equal steps, so frame j
        falls exactly at t0 + j / fps. record: keep every stride-th frame's state (frame 0, at the
        current time, first); otherwise only the last. progress(time, end_time, steps_per_second)
        is called about ten times a second. A FOSSSim scene's springs and wind act before each
        step. Raises CairnError when the run fails. An exception in progress stops the run at the
        next frame and is raised from run(); Ctrl-C cancels the step running at the next frame
        (cnWorld_Cancel: the bodies stay where it started) and raises KeyboardInterrupt."""
        L, ptr = _lib.lib(), self._w()
        trajectory = Trajectory(self.body_names)
        # an exception must not cross the C frames: it is kept here and the run loop told to stop
        # (a frame writer returning false) at the next frame; it is raised once cnRun returns
        failure = []

        def write_frame(_context, _world, frame):
            try:
                if record and not failure:
                    trajectory._add(self, frame.contents.time)
            except BaseException as error:
                failure.append(error)
            return not failure

        def before_step(_world, _context):
            return bool(L.cnFosssim_ApplyForces(self._fosssim))

        def report(p, _context):
            if failure:
                return
            try:
                progress(p.contents.time, p.contents.endTime, p.contents.stepsPerSecond)
            except BaseException as error:
                failure.append(error)

        # the writer runs at every frame even without recording: Python runs a signal's handler only
        # in Python code, so this is where Ctrl-C is seen (_cancel_on_interrupt)
        writer = T.FrameWriter(T.WriteFrameFn(write_frame), T.FinishFn(), None)
        run_def = L.cnDefaultRunDef()
        run_def.duration = self.duration if duration is None else float(duration)
        run_def.fps = self.fps if fps is None else float(fps)
        run_def.maxTimeStep = self.time_step if max_time_step is None else float(max_time_step)
        run_def.frameStride = int(stride) if record else 1
        run_def.writers = ctypes.pointer(writer)
        run_def.writerCount = 1
        # the callbacks live in locals until cnRun returns, so ctypes keeps their thunks alive
        before = T.StepFn(before_step) if self._forces else T.StepFn()
        progress_fn = T.ProgressFn(report) if progress is not None else T.ProgressFn()
        run_def.beforeStep = before
        run_def.progress = progress_fn
        interrupted = []
        with _cancel_on_interrupt(lambda: (interrupted.append(True), L.cnWorld_Cancel(ptr))):
            result = L.cnRun(ptr, ctypes.byref(run_def))
        if interrupted:
            # a request made after the last step is still pending: a step of zero length, which
            # does nothing else, takes it
            L.cnWorld_Step(ptr, 0.0)
            raise KeyboardInterrupt
        if failure:
            raise failure[0]
        if result.status != 0:
            raise _lib.error()
        if not record:
            trajectory._add(self, self.time)
        trajectory._finish()
        trajectory.steps = result.stepCount
        trajectory.step_size = result.stepSize
        trajectory.steps_per_frame = result.stepsPerFrame
        trajectory.wall_seconds = result.wallSeconds
        return trajectory

    # -- snapshots ------------------------------------------------------------------------------

    def save_state(self):
        """The world's whole state as bytes (cnWorld_Save): World.from_state(data) rebuilds it and
        the two then step alike."""
        L = _lib.lib()
        data = ctypes.c_void_p()
        size = ctypes.c_size_t()
        _lib.check(L.cnWorld_Save(self._w(), ctypes.byref(data), ctypes.byref(size)))
        try:
            return ctypes.string_at(data, size.value)
        finally:
            L.cnFree(data)

    @classmethod
    def from_state(cls, data):
        """A new World from bytes of save_state (cnWorld_Load). It is a plain world: a scene's run
        settings and a FOSSSim scene's springs and wind are not part of it."""
        data = bytes(data)
        ptr = _lib.lib().cnWorld_Load(data, len(data))
        _lib.check(ptr)
        return cls._wrap(ptr=ptr)

    def save_state_file(self, path):
        """Writes the world's state to a snapshot file (cnSaveSnapshot)."""
        _lib.check(_lib.lib().cnSaveSnapshot(self._w(), _lib.encode_path(path)))

    @classmethod
    def load_state_file(cls, path):
        """A new World from a snapshot file (cnLoadSnapshot); see from_state."""
        ptr = _lib.lib().cnLoadSnapshot(_lib.encode_path(path))
        _lib.check(ptr)
        return cls._wrap(ptr=ptr)

    def __repr__(self):
        if self._ptr is None:
            return "<cairn.World (closed)>"
        label = f" {self.name!r}" if self.name else ""
        return (f"<cairn.World{label} {self.method}, {self.body_count} bodies, "
                f"t = {self.time:.6g} s>")


@contextlib.contextmanager
def _cancel_on_interrupt(cancel):
    """While a run is in C, Ctrl-C calls cancel instead of raising KeyboardInterrupt in a ctypes
    callback, where the exception would be lost (ctypes can only print it). Only in the main
    thread and only over Python's default handler: a program's own handler is left alone."""
    if (threading.current_thread() is not threading.main_thread() or
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: cancel())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
