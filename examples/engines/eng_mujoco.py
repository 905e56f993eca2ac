"""MuJoCo: soft contacts.  Every active contact is a constraint whose acceleration is
pulled towards a reference a_ref = -b*(J v) - k*d*r (solref), mixed with the unconstrained
acceleration through the impedance d (solimp); no restitution coefficient exists, so the
contact is a spring (stiffness K) with a damping B calibrated so that one ball dropped
on one wall rebounds with the scenario's restitution e."""

import functools

import mujoco
import numpy as np

from common import R, Tracker, calibrate_damping

ENGINE = "mujoco"
VERSION = mujoco.__version__
LIBRARY = f"MuJoCo {mujoco.mj_versionString()}"


def _xml(system, cfg, damping):
    solref = f'{-cfg["stiffness"]!r} {-damping!r}'
    lines = [
        '<mujoco model="impactkit">',
        f'  <option timestep="{cfg["dt"]!r}" gravity="0 0 0" integrator="{cfg["integrator"]}" '
        f'solver="Newton" iterations="{cfg["iterations"]}" tolerance="{cfg["tolerance"]!r}" cone="pyramidal"/>',
        "  <default>",
        f'    <geom condim="1" friction="0 0 0" margin="0" gap="0" solref="{solref}" solimp="{cfg["solimp"]}"/>',
        '    <joint damping="0" armature="0" frictionloss="0" limited="false"/>',
        "  </default>",
        "  <worldbody>",
    ]
    for w, wall in enumerate(system.walls):
        nx, ny = wall["n"]
        d = wall["d"]
        lines.append(f'    <geom name="wall{w}" type="plane" size="0 0 1" pos="{d * nx!r} {d * ny!r} 0" zaxis="{nx!r} {ny!r} 0"/>')
    for b, (x, y) in enumerate(system.pos):
        lines.append(f'    <body name="b{b}" pos="{x!r} {y!r} 0">')
        for j, (bb, ax) in enumerate(system.coord):
            if bb == b:
                axis = ["1 0 0", "0 1 0", "0 0 1"][ax]
                lines.append(f'      <joint name="q{j}" type="slide" axis="{axis}"/>')
        lines.append(f'      <geom name="g{b}" type="sphere" size="{R!r}" mass="{system.body_mass[b]!r}"/>')
        lines.append("    </body>")
    lines += ["  </worldbody>", "</mujoco>"]
    return "\n".join(lines)


def _simulate(system, cfg, damping, max_steps=200000):
    model = mujoco.MjModel.from_xml_string(_xml(system, cfg, damping))
    data = mujoco.MjData(model)
    dof = [model.jnt_dofadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, f"q{j}")] for j in range(len(system.coord))]
    for j, v in enumerate(system.velocity):
        data.qvel[dof[j]] = v
    geom_body = {mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, f"g{b}"): b for b in range(len(system.pos))}
    geom_wall = {mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, f"wall{w}"): w for w in range(len(system.walls))}

    def name_of(g1, g2):
        if g1 in geom_body and g2 in geom_body:
            return system.contact_of_bodies(geom_body[g1], geom_body[g2])
        w = g1 if g1 in geom_wall else g2
        return system.contact_of_wall(geom_wall[w])

    def velocity():
        return [float(data.qvel[k]) for k in dof]

    tracker = Tracker(system)
    f6 = np.zeros(6)
    steps = 0
    while steps < max_steps:
        tracker.begin_step()
        # the forces of step n are computed from the state at its start (mj_step runs
        # mj_forward, then integrates): read them before the state moves on
        mujoco.mj_forward(model, data)
        for i in range(data.ncon):
            c = data.contact[i]
            mujoco.mj_contactForce(model, data, i, f6)
            tracker.add(name_of(c.geom1, c.geom2), float(f6[0]) * cfg["dt"])
        mujoco.mj_step(model, data)
        steps += 1
        if tracker.end_step(velocity()):
            break
    return tracker.output(velocity(), steps), steps


@functools.lru_cache(maxsize=None)
def calibrate(e, cfg_items):
    """The damping B for which one unit-mass ball moving at 1 into one wall leaves it at
    e (bisection on B; B = 0 for e = 1)."""
    cfg = dict(cfg_items)
    return calibrate_damping(e, lambda probe, b: _simulate(probe, cfg, b), 4.0 * cfg["stiffness"] ** 0.5, 60)


def run(system, cfg):
    es = {c["e"] for c in system.contacts}
    assert len(es) == 1, "one restitution per scenario"
    e = es.pop()
    damping = calibrate(e, tuple(sorted(cfg.items())))
    out, steps = _simulate(system, cfg, damping)
    return out, {"steps_run": steps, "damping": damping}


PARAM_SETS = [
    # impedance d = 0.9999 everywhere: each contact follows its own spring-damper in
    # constraint space (almost no coupling through the regularization)
    ("stiff1e4-d09999", dict(dt=1e-4, stiffness=1e4, solimp="0.9999 0.9999 0.001 0.5 2", integrator="Euler", iterations=100, tolerance=1e-12)),
    # the same, 100 times stiffer (penetration and geometry change during the contact 10x
    # smaller) with a 100 times smaller step (omega * dt 10x smaller)
    ("stiff1e6-d09999", dict(dt=1e-6, stiffness=1e6, solimp="0.9999 0.9999 0.001 0.5 2", integrator="Euler", iterations=100, tolerance=1e-12)),
    # MuJoCo's default impedance (d from 0.9 to 0.95 over a penetration of 0.001)
    ("stiff1e4-solimpdefault", dict(dt=1e-4, stiffness=1e4, solimp="0.9 0.95 0.001 0.5 2", integrator="Euler", iterations=100, tolerance=1e-12)),
    # a soft impedance d = 0.5: strong regularization couples the contacts
    ("stiff1e4-d05", dict(dt=1e-4, stiffness=1e4, solimp="0.5 0.5 0.001 0.5 2", integrator="Euler", iterations=100, tolerance=1e-12)),
]


def params(cfg, info):
    return {
        "library": LIBRARY,
        "dt": cfg["dt"],
        "integrator": cfg["integrator"],
        "solver": "Newton",
        "iterations": cfg["iterations"],
        "tolerance": cfg["tolerance"],
        "solref": [-cfg["stiffness"], 0.0 - info["damping"]],
        "solref_meaning": "direct (-stiffness, -damping); damping calibrated by bisection so one ball hitting one wall at speed 1 rebounds at the scenario's e (0 for e = 1)",
        "solimp": [float(x) for x in cfg["solimp"].split()],
        "condim": 1,
        "friction": 0.0,
        "margin": 0.0,
        "cone": "pyramidal",
        "gravity": [0.0, 0.0, 0.0],
        "joints": "one slide joint per generalized coordinate (no rotation), joint damping 0, armature 0",
        "shapes": "spheres radius 1 in the plane z = 0; corner walls plane geoms (half-spaces)",
        "initial_overlap": 0.0,
        "steps_run": info["steps_run"],
        "stop": "after 20 consecutive steps with no contact force and no contact approaching",
    }
