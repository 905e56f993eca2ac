"""pymunk (Chipmunk2D): 2-D, impulse-based, sequential impulses (Gauss-Seidel) over the
contacts of a step, restitution as a bounce target velocity computed before the solve."""

import pymunk

from common import R, Tracker

ENGINE = "pymunk"
VERSION = pymunk.version
LIBRARY = f"Chipmunk2D {pymunk.chipmunk_version}"

WALL_LENGTH = 50.0


def run(system, cfg, max_steps=20000):
    dt, iterations = cfg["dt"], cfg["iterations"]
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    space.damping = 1.0  # 1 = no damping
    space.iterations = iterations
    space.sleep_time_threshold = float("inf")
    space.idle_speed_threshold = 0.0
    bodies, shape_owner = [], {}
    v0 = system.body_velocities(system.velocity)
    for b, (x, y) in enumerate(system.pos):
        body = pymunk.Body(system.body_mass[b], float("inf"))  # no rotation (frictionless anyway)
        body.position = (x, y)
        body.velocity = tuple(v0[b])
        shape = pymunk.Circle(body, R)
        shape.elasticity = 1.0
        shape.friction = 0.0
        space.add(body, shape)
        bodies.append(body)
        shape_owner[shape] = ("body", b)
    for w, wall in enumerate(system.walls):
        # segment from the apex along the wall, into the admissible side of the other wall
        nx, ny = wall["n"]
        ax, ay = system.apex
        t = (-ny, nx)
        other = system.walls[1 - w]["n"]
        if t[0] * other[0] + t[1] * other[1] < 0:
            t = (ny, -nx)
        seg = pymunk.Segment(space.static_body, (ax, ay), (ax + WALL_LENGTH * t[0], ay + WALL_LENGTH * t[1]), 0.0)
        seg.elasticity = 1.0
        seg.friction = 0.0
        space.add(seg)
        shape_owner[seg] = ("wall", w)

    tracker = Tracker(system)
    e_of = {c["name"]: c["e"] for c in system.contacts}

    def name_of(arbiter):
        a, b = (shape_owner[s] for s in arbiter.shapes)
        if a[0] == "body" and b[0] == "body":
            return system.contact_of_bodies(a[1], b[1])
        w = a[1] if a[0] == "wall" else b[1]
        return system.contact_of_wall(w)

    def pre_solve(arbiter, space, data):
        name = name_of(arbiter)
        if name is not None:
            arbiter.restitution = e_of[name]  # exact per-contact restitution
        arbiter.friction = 0.0

    def post_solve(arbiter, space, data):
        j = arbiter.total_impulse
        tracker.add(name_of(arbiter), (j.x * j.x + j.y * j.y) ** 0.5)

    space.on_collision(None, None, pre_solve=pre_solve, post_solve=post_solve)

    def velocity():
        return system.generalized([tuple(b.velocity) for b in bodies])

    steps = 0
    while steps < max_steps:
        tracker.begin_step()
        space.step(dt)
        steps += 1
        if tracker.end_step(velocity()):
            break
    info = {"collision_slop": space.collision_slop, "collision_bias": space.collision_bias, "steps_run": steps}
    return tracker.output(velocity(), steps), info


PARAM_SETS = [
    # balls / disk exactly touching (Chipmunk finds a contact only once the shapes overlap)
    ("touching-dt1e-3-it10", dict(dt=1e-3, iterations=10, overlap=0.0)),
    ("touching-dt1e-5-it100", dict(dt=1e-5, iterations=100, overlap=0.0)),
    # every touching pair overlapping by 1e-6, so every contact is found in the first step
    ("overlap-dt1e-3-it10", dict(dt=1e-3, iterations=10, overlap=1e-6)),
    ("overlap-dt1e-5-it100", dict(dt=1e-5, iterations=100, overlap=1e-6)),
]


def params(cfg, info):
    return {
        "library": LIBRARY,
        "dt": cfg["dt"],
        "iterations": cfg["iterations"],
        "initial_overlap": cfg["overlap"],
        "restitution": "Arbiter.restitution set to the contact's e in pre_solve",
        "shape_elasticity": 1.0,
        "friction": 0.0,
        "damping": 1.0,
        "gravity": [0.0, 0.0],
        "collision_slop": info["collision_slop"],
        "collision_bias": info["collision_bias"],
        "moment": "inf (no rotation)",
        "radius": R,
        "walls": "static Segment, radius 0, from the apex, length 50",
        "steps_run": info["steps_run"],
        "stop": "after 20 consecutive steps with no contact impulse and no contact approaching",
    }
