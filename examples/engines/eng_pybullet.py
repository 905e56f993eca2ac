"""pybullet (Bullet): 3-D, contacts solved together in one LCP per step, by projected
Gauss-Seidel sequential impulses (SI) or by Dantzig's pivoting LCP solver (MLCP);
restitution as a target velocity -e * (relative normal velocity before the step)."""

import math

import pybullet as p

from common import R, Tracker

ENGINE = "pybullet"
from importlib.metadata import version as _version

VERSION = _version("pybullet")
LIBRARY = f"Bullet (pybullet API version {p.getAPIVersion()})"


SOLVERS = {"si": p.CONSTRAINT_SOLVER_LCP_SI, "pgs": p.CONSTRAINT_SOLVER_LCP_PGS, "dantzig": p.CONSTRAINT_SOLVER_LCP_DANTZIG}


def run(system, cfg, max_steps=20000):
    cid = p.connect(p.DIRECT)
    try:
        return _run(system, cfg, cid, max_steps)
    finally:
        p.disconnect(cid)


def _run(system, cfg, cid, max_steps):
    dt = cfg["dt"]
    p.resetSimulation(physicsClientId=cid)
    p.setGravity(0, 0, 0, physicsClientId=cid)
    extra = {} if cfg["slop"] is None else {"contactSlop": cfg["slop"]}
    p.setPhysicsEngineParameter(
        fixedTimeStep=dt,
        numSubSteps=0,
        numSolverIterations=cfg["iterations"],
        solverResidualThreshold=cfg["residual"],
        useSplitImpulse=cfg["split_impulse"],
        restitutionVelocityThreshold=0.0,
        erp=cfg["erp"],
        contactERP=cfg["erp"],
        frictionERP=0.0,
        enableConeFriction=0,
        deterministicOverlappingPairs=1,
        contactBreakingThreshold=0.02,
        warmStartingFactor=cfg["warm"],
        constraintSolverType=SOLVERS[cfg["solver"]],
        physicsClientId=cid,
        **extra,
    )
    # Bullet multiplies the restitutions of the two bodies of a contact
    es = {c["e"] for c in system.contacts}
    assert len(es) == 1, "one restitution per scenario"
    e = es.pop()
    e_ball = math.sqrt(e) if not system.walls else e
    e_wall = 1.0
    sphere = p.createCollisionShape(p.GEOM_SPHERE, radius=R, physicsClientId=cid)
    v0 = system.body_velocities(system.velocity)
    ids = []
    for b, (x, y) in enumerate(system.pos):
        bid = p.createMultiBody(
            baseMass=system.body_mass[b],
            baseCollisionShapeIndex=sphere,
            basePosition=[x, y, 0.0],
            useMaximalCoordinates=cfg["maximal"],
            physicsClientId=cid,
        )
        p.changeDynamics(
            bid,
            -1,
            lateralFriction=0.0,
            spinningFriction=0.0,
            rollingFriction=0.0,
            restitution=e_ball,
            linearDamping=0.0,
            angularDamping=0.0,
            activationState=p.ACTIVATION_STATE_DISABLE_SLEEPING,
            physicsClientId=cid,
        )
        p.resetBaseVelocity(bid, linearVelocity=[v0[b][0], v0[b][1], 0.0], angularVelocity=[0, 0, 0], physicsClientId=cid)
        ids.append(bid)
    wall_ids = []
    for w in system.walls:
        nx, ny = w["n"]
        shape = p.createCollisionShape(p.GEOM_PLANE, planeNormal=[nx, ny, 0.0], physicsClientId=cid)
        wid = p.createMultiBody(baseMass=0, baseCollisionShapeIndex=shape, basePosition=[w["d"] * nx, w["d"] * ny, 0.0], physicsClientId=cid)
        p.changeDynamics(wid, -1, lateralFriction=0.0, spinningFriction=0.0, rollingFriction=0.0, restitution=e_wall, physicsClientId=cid)
        wall_ids.append(wid)
    body_index = {bid: i for i, bid in enumerate(ids)}
    wall_index = {wid: i for i, wid in enumerate(wall_ids)}

    def name_of(a, b):
        if a in body_index and b in body_index:
            return system.contact_of_bodies(body_index[a], body_index[b])
        w = a if a in wall_index else b
        return system.contact_of_wall(wall_index[w])

    def velocity():
        return system.generalized([p.getBaseVelocity(bid, physicsClientId=cid)[0] for bid in ids])

    tracker = Tracker(system)
    steps = 0
    while steps < max_steps:
        tracker.begin_step()
        p.stepSimulation(physicsClientId=cid)
        steps += 1
        for cp in p.getContactPoints(physicsClientId=cid):
            # normalForce is the applied impulse divided by the time step
            tracker.add(name_of(cp[1], cp[2]), cp[9] * dt)
        if tracker.end_step(velocity()):
            break
    info = {"steps_run": steps, "restitution_ball": e_ball, "restitution_wall": e_wall if system.walls else None}
    return tracker.output(velocity(), steps), info


PARAM_SETS = [
    # rigid bodies (maximal coordinates), Bullet's default sequential-impulse solver, 50
    # iterations, pybullet's default contact slop (not set)
    ("rigid-si-it50-defaultslop", dict(dt=1e-3, iterations=50, residual=1e-7, split_impulse=1, erp=0.2, warm=0.85, slop=None, solver="si", maximal=True)),
    # the same with contactSlop = 0
    ("rigid-si-it50", dict(dt=1e-3, iterations=50, residual=1e-7, split_impulse=1, erp=0.2, warm=0.85, slop=0.0, solver="si", maximal=True)),
    # one Gauss-Seidel sweep per step
    ("rigid-si-it1", dict(dt=1e-3, iterations=1, residual=1e-7, split_impulse=1, erp=0.2, warm=0.85, slop=0.0, solver="si", maximal=True)),
    # converged: 1000 sweeps, residual 1e-14, no warm start, dt 1e-5
    ("rigid-si-it1000-nowarm", dict(dt=1e-5, iterations=1000, residual=1e-14, split_impulse=1, erp=0.2, warm=0.0, slop=0.0, solver="si", maximal=True)),
    # reduced-coordinate btMultiBody bodies, Dantzig's pivoting LCP solver (MLCP)
    ("multibody-dantzig", dict(dt=1e-3, iterations=50, residual=1e-7, split_impulse=1, erp=0.2, warm=0.85, slop=0.0, solver="dantzig", maximal=False)),
]


def params(cfg, info):
    return {
        "library": LIBRARY,
        "dt": cfg["dt"],
        "numSolverIterations": cfg["iterations"],
        "solverResidualThreshold": cfg["residual"],
        "constraintSolverType": {"si": "CONSTRAINT_SOLVER_LCP_SI", "pgs": "CONSTRAINT_SOLVER_LCP_PGS", "dantzig": "CONSTRAINT_SOLVER_LCP_DANTZIG"}[cfg["solver"]],
        "bodies": "btRigidBody (useMaximalCoordinates=1)" if cfg["maximal"] else "btMultiBody, no links (useMaximalCoordinates=0)",
        "useSplitImpulse": cfg["split_impulse"],
        "erp": cfg["erp"],
        "contactERP": cfg["erp"],
        "warmStartingFactor": cfg["warm"],
        "contactSlop": "pybullet default, not set (behaves as 1e-5)" if cfg["slop"] is None else cfg["slop"],
        "restitutionVelocityThreshold": 0.0,
        "restitution": "body restitutions multiplied by Bullet",
        "restitution_ball": info["restitution_ball"],
        "restitution_wall": info["restitution_wall"],
        "contactBreakingThreshold": 0.02,
        "numSubSteps": 0,
        "friction": 0.0,
        "damping": 0.0,
        "gravity": [0.0, 0.0, 0.0],
        "shapes": "spheres radius 1 in the plane z = 0; corner walls GEOM_PLANE (vertical half-spaces)",
        "initial_overlap": 0.0,
        "steps_run": info["steps_run"],
        "stop": "after 20 consecutive steps with no contact impulse and no contact approaching",
    }
