"""Drake (pydrake MultibodyPlant): compliant point contact on a continuous plant.  Every
touching pair is a penalty spring-damper fn = k x (1 + d xdot) (x the penetration, xdot
its rate; Hunt-Crossley dissipation d; fn clamped at 0), integrated by an
error-controlled Runge-Kutta integrator (RK5, accuracy 1e-14, steps ended where a contact
opens or closes), so the outcome is that of the contact model, not of a solver: the
elastic runs keep the energy to 4e-11.  No restitution coefficient exists: d is
calibrated so that one ball hitting one wall at speed 1 rebounds with the scenario's
restitution e."""

import functools
import importlib.metadata
import logging

import numpy as np
from pydrake.common.value import AbstractValue
from pydrake.geometry import AddContactMaterial, HalfSpace, ProximityProperties, Sphere
from pydrake.math import RigidTransform
from pydrake.multibody.plant import AddMultibodyPlantSceneGraph, ContactModel, ContactResults, CoulombFriction
from pydrake.multibody.tree import FixedOffsetFrame, PrismaticJoint, SpatialInertia, UnitInertia
from pydrake.systems.analysis import ApplySimulatorConfig, Simulator, SimulatorConfig
from pydrake.systems.framework import DiagramBuilder, EventStatus, LeafSystem, PublishEvent, WitnessFunctionDirection

from common import R, Tracker, calibrate_damping

ENGINE = "drake"
VERSION = importlib.metadata.version("drake")  # pydrake has no __version__
LIBRARY = f"Drake {VERSION}"


class _QuietHalfSpace(logging.Filter):
    """Drop Drake's one warning that half spaces take no part in deformable contact
    (there is no deformable body here); printed for every plant with a wall."""

    def filter(self, rec):
        return "half spaces are not currently supported for deformable contact" not in rec.getMessage()


logging.getLogger("drake").addFilter(_QuietHalfSpace())

AXES = [np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])]


class _Contacts(LeafSystem):
    """A helper beside the plant, no part of the contact model.

    Continuous state: the running normal impulse of every contact of the system; its
    derivative is the normal force of that contact read from the plant's contact
    results, so the impulses are integrated by the same error-controlled integrator.

    Witness functions: the gap of every contact (from the plant's positions), so that
    the simulator ends a step where a contact opens or closes: the contact force is
    only continuous there (a kink), which an error estimate misjudges (1e-8 of energy
    lost in some runs without them)."""

    def __init__(self, system, name_of_pair, position_index):
        LeafSystem.__init__(self)
        self.system = system
        self.names = [c["name"] for c in system.contacts]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.name_of_pair = name_of_pair
        self.position_index = position_index  # coordinate j -> index in the plant's q
        self.port = self.DeclareAbstractInputPort("contact_results", AbstractValue.Make(ContactResults()))
        self.state_port = self.DeclareVectorInputPort("plant_state", len(position_index) + len(position_index))
        self.DeclareContinuousState(len(self.names))
        self.witnesses = [
            self.MakeWitnessFunction(f"gap {n}", WitnessFunctionDirection.kCrossesZero, lambda ctx, i=i: self.gap(ctx, i), PublishEvent(lambda ctx, ev: None))
            for i, n in enumerate(self.names)
        ]

    def gap(self, context, i):
        x = self.state_port.Eval(context)
        pos = [list(p) for p in self.system.pos]
        for j, (b, ax) in enumerate(self.system.coord):
            pos[b][ax] = float(x[self.position_index[j]])
        c = self.system.contacts[i]
        if c["wall"] is None:
            a, b = c["bodies"]
            return float(np.hypot(pos[a][0] - pos[b][0], pos[a][1] - pos[b][1])) - 2 * R
        wall = self.system.walls[c["wall"]]
        (b,) = c["bodies"]
        return wall["n"][0] * pos[b][0] + wall["n"][1] * pos[b][1] - wall["d"] - R

    def DoGetWitnessFunctions(self, context):
        return self.witnesses

    def forces(self, results):
        """(name, normal force >= 0) for every point pair, in Drake's listing order."""
        out = []
        for i in range(results.num_point_pair_contacts()):
            info = results.point_pair_contact_info(i)
            pp = info.point_pair()
            # contact_force is the force on B; nhat_BA_W points from B into A
            fn = -float(np.dot(info.contact_force(), pp.nhat_BA_W))
            out.append((self.name_of_pair(pp.id_A, pp.id_B), fn))
        return out

    def DoCalcTimeDerivatives(self, context, derivatives):
        rates = np.zeros(len(self.names))
        for name, fn in self.forces(self.port.Eval(context)):
            if name is not None:
                rates[self.index[name]] += fn
        derivatives.get_mutable_vector().SetFromVector(rates)


def _build(system, cfg, dissipation):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)  # continuous plant
    plant.set_contact_model(ContactModel.kPoint)
    plant.mutable_gravity_field().set_gravity_vector([0.0, 0.0, 0.0])

    def props():
        p = ProximityProperties()
        AddContactMaterial(dissipation=dissipation, point_stiffness=cfg["geometry_stiffness"], friction=CoulombFriction(0.0, 0.0), properties=p)
        return p

    joints = [None] * len(system.coord)  # coordinate j -> its prismatic joint
    geom_body, geom_wall = {}, {}
    for b in range(len(system.pos)):
        m = system.body_mass[b]
        axes = [(j, ax) for j, (bb, ax) in enumerate(system.coord) if bb == b]
        # the first slide joint hangs from a frame at the body's fixed coordinates (those
        # without a joint), so every joint's translation is the coordinate itself
        fixed = [0.0, 0.0, 0.0]
        for ax in range(2):
            if ax not in [a for _, a in axes]:
                fixed[ax] = system.pos[b][ax]
        parent_frame = plant.AddFrame(FixedOffsetFrame(f"f{b}", plant.world_frame(), RigidTransform(fixed)))
        parent = None
        for k, (j, ax) in enumerate(axes):
            last = k == len(axes) - 1
            if last:
                body = plant.AddRigidBody(f"b{b}", SpatialInertia(m, np.zeros(3), UnitInertia.SolidSphere(R)))
            else:  # massless intermediate body: the next slide joint rides on it
                body = plant.AddRigidBody(f"b{b}_{k}", SpatialInertia(0.0, np.zeros(3), UnitInertia(0.0, 0.0, 0.0)))
            frame = parent_frame if parent is None else parent.body_frame()
            joints[j] = plant.AddJoint(PrismaticJoint(f"q{j}", frame, body.body_frame(), AXES[ax], damping=0.0))
            parent = body
        gid = plant.RegisterCollisionGeometry(parent, RigidTransform(), Sphere(R), f"g{b}", props())
        geom_body[gid.get_value()] = b
    for w, wall in enumerate(system.walls):
        nx, ny = wall["n"]
        d = wall["d"]
        X = HalfSpace.MakePose(np.array([nx, ny, 0.0]), np.array([d * nx, d * ny, 0.0]))
        gid = plant.RegisterCollisionGeometry(plant.world_body(), X, HalfSpace(), f"wall{w}", props())
        geom_wall[gid.get_value()] = w
    plant.Finalize()

    def name_of_pair(ida, idb):
        a, b = ida.get_value(), idb.get_value()
        if a in geom_body and b in geom_body:
            return system.contact_of_bodies(geom_body[a], geom_body[b])
        w = geom_wall.get(a, geom_wall.get(b))
        return None if w is None else system.contact_of_wall(w)

    position_index = [jt.position_start() for jt in joints]
    assert plant.num_positions() == plant.num_velocities() == len(joints)
    imp = builder.AddSystem(_Contacts(system, name_of_pair, position_index))
    builder.Connect(plant.get_contact_results_output_port(), imp.port)
    builder.Connect(plant.get_state_output_port(), imp.state_port)
    diagram = builder.Build()
    return diagram, plant, imp, joints


def _simulate(system, cfg, dissipation, max_intervals=200000):
    diagram, plant, imp, joints = _build(system, cfg, dissipation)
    simulator = Simulator(diagram)
    ApplySimulatorConfig(
        SimulatorConfig(
            integration_scheme=cfg["integrator"],
            accuracy=cfg["accuracy"],
            max_step_size=cfg["interval"],
            use_error_control=True,
            publish_every_time_step=False,
            target_realtime_rate=0.0,
        ),
        simulator,
    )
    integrator = simulator.get_mutable_integrator()
    integrator.set_throw_on_minimum_step_size_violation(True)
    root = simulator.get_mutable_context()
    root.SetAccuracy(cfg["accuracy"])  # also sets the witness isolation window (0.01 accuracy seconds)
    pctx = plant.GetMyMutableContextFromRoot(root)
    ictx = imp.GetMyContextFromRoot(root)
    for j, (b, ax) in enumerate(system.coord):
        joints[j].set_translation(pctx, system.pos[b][ax])
        joints[j].set_translation_rate(pctx, system.velocity[j])

    tracker = Tracker(system)
    first = []  # contact names in the order their running impulse first exceeds tiny

    def monitor(context):
        acc = ictx.get_continuous_state_vector().CopyToVector()
        new = [n for n, x in zip(imp.names, acc) if abs(x) > tracker.tiny and n not in first]
        if new:
            listing = [n for n, _ in imp.forces(plant.get_contact_results_output_port().Eval(pctx))]
            new.sort(key=lambda n: (listing.index(n) if n in listing else len(listing), imp.names.index(n)))
            first.extend(new)
        return EventStatus.Succeeded()

    simulator.set_monitor(monitor)
    simulator.Initialize()

    def velocity():
        return [float(jt.get_translation_rate(pctx)) for jt in joints]

    prev = np.zeros(len(imp.names))
    intervals = 0
    while intervals < max_intervals:
        tracker.begin_step()
        simulator.AdvanceTo((intervals + 1) * cfg["interval"])
        intervals += 1
        acc = ictx.get_continuous_state_vector().CopyToVector()
        for n in first + [n for n in imp.names if n not in first]:
            i = imp.names.index(n)
            tracker.add(n, float(acc[i] - prev[i]))
        prev = acc
        if tracker.end_step(velocity()):
            break
    tracker.order = first + [n for n in tracker.order if n not in first]
    for i, n in enumerate(imp.names):
        tracker.total[n] = float(prev[i])  # the integrated impulse (not the sum of differences)
    info = {
        "intervals": intervals,
        "time": float(root.get_time()),
        "integrator_steps": integrator.get_num_steps_taken(),
        "derivative_evaluations": integrator.get_num_derivative_evaluations(),
        "smallest_step": integrator.get_smallest_adapted_step_size_taken(),
    }
    return tracker.output(velocity(), intervals), info


@functools.lru_cache(maxsize=None)
def calibrate(e, cfg_items):
    """The Hunt-Crossley dissipation d for which one unit-mass ball moving at 1 into one
    wall leaves it at e (bisection on d; d = 0 for e = 1).  With a linear spring the
    rebound depends on d * (approach speed) only, not on k or the mass."""
    cfg = dict(cfg_items)
    return calibrate_damping(e, lambda probe, d: _simulate(probe, cfg, d), 10.0, cfg["bisections"])


def run(system, cfg):
    es = {c["e"] for c in system.contacts}
    assert len(es) == 1, "one restitution per scenario"
    e = es.pop()
    d = calibrate(e, tuple(sorted(cfg.items()))) if cfg["dissipation"] == "calibrated" else cfg["dissipation"]
    out, info = _simulate(system, cfg, d)
    return out, {**info, "dissipation": d}


def _set(stiffness, dissipation):
    # every geometry gets stiffness 2k: Drake combines two point stiffnesses in series,
    # so every contact (ball-ball and ball-wall) has stiffness k
    return dict(
        stiffness=stiffness,
        geometry_stiffness=2.0 * stiffness,
        dissipation=dissipation,
        integrator="runge_kutta5",
        accuracy=1e-14,
        interval=0.01 / stiffness**0.5,  # output interval: 1/100 of 1/omega for unit mass
        bisections=50,
    )


PARAM_SETS = [
    # linear springs, no dissipation: elastic
    ("point-k1e6-hc0", _set(1e6, 0.0)),
    # the same with Hunt-Crossley dissipation calibrated to the scenario's e
    ("point-k1e6-hc", _set(1e6, "calibrated")),
    # 100 times softer, elastic: only the geometry change during contact differs
    ("point-k1e4-hc0", _set(1e4, 0.0)),
]


def params(cfg, info):
    out = {
        "library": LIBRARY,
        "plant": "MultibodyPlant, continuous (time_step 0)",
        "contact_model": "point (penalty, kPoint), not hydroelastic",
        "contact_stiffness": cfg["stiffness"],
        "geometry_point_stiffness": cfg["geometry_stiffness"],
        "stiffness_meaning": "every geometry has point_contact_stiffness 2k; Drake combines two in series, so every contact's force is k x (1 + d xdot)",
        "hunt_crossley_dissipation": info["dissipation"],
        "dissipation_meaning": "s/m, the same on every geometry (the combined d); calibrated by bisection so one ball hitting one wall at speed 1 rebounds at the scenario's e (0 for e = 1)" if cfg["dissipation"] == "calibrated" else "s/m, the same on every geometry",
        "friction": 0.0,
        "gravity": [0.0, 0.0, 0.0],
        "integrator": cfg["integrator"],
        "error_control": True,
        "accuracy": cfg["accuracy"],
        "max_step_size": cfg["interval"],
        "interval": cfg["interval"],
        "interval_meaning": "the simulator is advanced interval by interval (0.01/omega, omega = sqrt(k / 1 kg)); a step of the stop rule is one interval",
        "witness_functions": "the gap of every contact: a step ends where a contact opens or closes (the force has a kink there); isolation window max(0.01 accuracy s, the integrator's working minimum step)",
        "joints": "one PrismaticJoint per generalized coordinate (no rotation), damping 0; a disk/ball with x and y rides on a massless intermediate body",
        "shapes": "spheres radius 1 in the plane z = 0; corner walls HalfSpace geometries on the world",
        "initial_overlap": 0.0,
        "steps_run": info["intervals"],
        "integrator_steps": info["integrator_steps"],
        "derivative_evaluations": info["derivative_evaluations"],
        "end_time": info["time"],
        "stop": "after 20 consecutive intervals with no contact impulse and no contact approaching",
    }
    if cfg["dissipation"] == "calibrated":
        out["calibration"] = f"bisection on d in [0, 10] s/m, {cfg['bisections']} halvings, probe: a 1 kg ball at 1 m/s into one wall"
    return out
