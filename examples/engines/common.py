"""Shared code of the engine fixture: read a system file, lay out its geometry, track
the generalized velocity and the contacts while an engine runs, write records.

Everything an engine needs is derived from the system file (examples/systems/*.toml):

* coordinates are named <axis><body>: "x1" is the x velocity of ball 1, "ya" the y
  velocity of ball a, "x"/"y" those of the single disk of a corner;
* every ball has radius 1 (R below) and the mass of its coordinates;
* a contact whose normal involves two bodies is a ball-ball contact; one that involves
  one body is a wall, a line (plane in 3-D) whose unit normal is the normal's direction;
* positions: cradle balls on the x axis 2R apart; the corner disk at the origin with the
  walls at distance R; billiard ball c at the origin and a, b at distance 2R along the
  unit normals of "ac", "bc".  An `overlap` moves every touching pair closer by that
  much (0: exactly touching).
"""

import json
import math
import os
import re
import tomllib

R = 1.0  # radius of every ball / disk
HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEMS = os.path.normpath(os.path.join(HERE, "..", "systems"))
RECORDS = os.path.join(HERE, "records")

_NAMES = {
    "pi": math.pi,
    "sqrt": math.sqrt,
    "tan": math.tan,
    "cos": math.cos,
    "sin": math.sin,
    "atan": math.atan,
}


def num(text):
    """An impactkit number (integers, fractions, decimals, pi, sqrt, tan, ... ^) as f64."""
    expr = str(text).replace("^", "**")
    if not re.fullmatch(r"[0-9a-z_+\-*/(). ]*", expr):
        raise ValueError(f"not an impactkit number: {text!r}")
    return float(eval(expr, {"__builtins__": {}}, dict(_NAMES)))


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


class System:
    """One scenario: the system file plus the geometry the engines build."""

    def __init__(self, file, restitution=None, overlap=0.0):
        self.file = file
        with open(os.path.join(SYSTEMS, file), "rb") as f:
            d = tomllib.load(f)
        self.name = d["name"]
        self.kind = d["kind"]
        self.coordinates = d["coordinates"]
        self.masses = [num(m) for m in d["masses"]]
        self.velocity = [num(v) for v in d["velocity"]]
        self.restitution_text = restitution if restitution is not None else d["restitution"]
        e = num(self.restitution_text)
        self.contacts = []
        for c in d["contact"]:
            self.contacts.append(
                {
                    "name": c["name"],
                    "normal": [num(x) for x in c["normal"]],
                    # an inline scenario override replaces every contact's restitution
                    "e": e if restitution is not None else num(c.get("restitution", self.restitution_text)),
                }
            )
        # bodies: labels in order of first appearance; coordinate j -> (body, axis)
        self.labels, self.coord = [], []
        for c in self.coordinates:
            axis, label = "xyz".index(c[0]), c[1:]
            if label not in self.labels:
                self.labels.append(label)
            self.coord.append((self.labels.index(label), axis))
        nb = len(self.labels)
        self.body_mass = [None] * nb
        for j, (b, _) in enumerate(self.coord):
            self.body_mass[b] = self.masses[j]
        # contacts -> bodies (ball-ball) or walls
        self.walls = []
        for c in self.contacts:
            bodies = sorted({self.coord[j][0] for j, x in enumerate(c["normal"]) if x != 0.0})
            if len(bodies) == 2:
                c["bodies"] = tuple(bodies)
                c["wall"] = None
            else:
                (b,) = bodies
                n = [0.0, 0.0]
                for j, x in enumerate(c["normal"]):
                    n[self.coord[j][1]] += x
                s = math.hypot(*n)
                c["bodies"] = (b,)
                c["wall"] = len(self.walls)
                # scale: generalized impulse lambda = physical impulse / |n|
                c["scale"] = s
                self.walls.append({"contact": c["name"], "n": (n[0] / s, n[1] / s)})
            c.setdefault("scale", 1.0)
        self.overlap = overlap
        self.pos = self._positions(overlap)
        for w in self.walls:  # line n.x = d through the touching point, disk at the origin
            w["d"] = -(R - overlap)
        if len(self.walls) == 2:
            self.apex = self._apex()

    def _positions(self, overlap):
        nb = len(self.labels)
        gap = 2 * R - overlap
        if self.kind == "cradle":
            return [(i * gap, 0.0) for i in range(nb)]
        if self.kind == "corner":
            return [(0.0, 0.0)]
        if self.kind == "billiard":
            c = self.labels.index("c")
            pos = [None] * nb
            pos[c] = (0.0, 0.0)
            for con in self.contacts:
                if con["name"] in ("ac", "bc"):
                    o = self.labels.index(con["name"][0])
                    n = con["normal"]
                    ux = sum(n[j] for j, (b, ax) in enumerate(self.coord) if b == o and ax == 0)
                    uy = sum(n[j] for j, (b, ax) in enumerate(self.coord) if b == o and ax == 1)
                    pos[o] = (gap * ux, gap * uy)
            return pos
        raise ValueError(self.kind)

    def _apex(self):
        (a, b), (c, d) = self.walls[0]["n"], self.walls[1]["n"]
        e, f = self.walls[0]["d"], self.walls[1]["d"]
        det = a * d - b * c
        return ((e * d - b * f) / det, (a * f - e * c) / det)

    def body_velocities(self, v):
        """Generalized velocity -> list of 2-D body velocities."""
        out = [[0.0, 0.0] for _ in self.labels]
        for j, (b, ax) in enumerate(self.coord):
            out[b][ax] = v[j]
        return out

    def generalized(self, body_vel):
        """List of body velocities (2 or 3 components) -> generalized velocity."""
        return [float(body_vel[b][ax]) for (b, ax) in self.coord]

    def rates(self, v):
        """gamma_i = n_i . v for every contact (< 0: approaching)."""
        return [dot(c["normal"], v) for c in self.contacts]

    def contact_of_bodies(self, i, j):
        for c in self.contacts:
            if c["wall"] is None and set(c["bodies"]) == {i, j}:
                return c["name"]
        return None

    def contact_of_wall(self, w):
        return self.walls[w]["contact"]


class Tracker:
    """Accumulates the impulses an engine reports, the order in which contacts first
    report one, and decides when the impact is over."""

    def __init__(self, system, quiet_steps=20, tiny=1e-12):
        self.s = system
        self.total = {c["name"]: 0.0 for c in system.contacts}
        self.order = []
        self.quiet = 0
        self.quiet_steps = quiet_steps
        self.tiny = tiny
        self.step_impulse = {}

    def begin_step(self):
        self.step_impulse = {}

    def add(self, name, physical_impulse):
        """A normal impulse (physical units, >= 0 pushes apart) reported for contact name."""
        if name is None:
            return
        self.step_impulse[name] = self.step_impulse.get(name, 0.0) + physical_impulse
        if abs(physical_impulse) > self.tiny and name not in self.order:
            self.order.append(name)

    def end_step(self, v):
        for k, x in self.step_impulse.items():
            self.total[k] += x
        active = any(abs(x) > self.tiny for x in self.step_impulse.values())
        approaching = any(g < -1e-9 for g in self.s.rates(v))
        self.quiet = 0 if (active or approaching) else self.quiet + 1
        return self.quiet >= self.quiet_steps

    def output(self, v, steps):
        scale = {c["name"]: c["scale"] for c in self.s.contacts}
        order = self.order + [c["name"] for c in self.s.contacts if c["name"] not in self.order and abs(self.total[c["name"]]) > self.tiny]
        return {
            "v": [float(x) for x in v],
            "contacts": order,
            "impulses": [self.total[k] / scale[k] for k in order],
        }


def record(rid, system, engine, version, params, output, extra_scenario=None):
    scen = {"file": "../../systems/" + system.file}
    if extra_scenario:
        scen.update(extra_scenario)
    return {
        "id": rid,
        "scenario": scen,
        "engine": {"name": engine, "version": version, "params": params},
        "output": output,
    }


def write_records(path, recs):
    with open(path, "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


# The scenarios every engine runs: (system file, inline restitution override or None).
SCENARIOS = [
    ("cradle3.toml", None),
    ("cradle3.toml", "9/10"),
    ("cradle3-masses123.toml", None),
    ("cradle5.toml", None),
    ("corner-pi4.toml", None),
    ("corner-pi6.toml", None),
    ("corner-atan-half.toml", None),
    ("corner-pi4-e09.toml", None),
    ("corner-pi6-e09.toml", None),
    ("corner-atan-half-e09.toml", None),
    ("billiard-pi2.toml", None),
    ("billiard-pi3.toml", None),
]


def scenario_id(file, restitution):
    base = file[: -len(".toml")]
    if restitution is not None:
        base += "-e" + {"9/10": "09"}.get(restitution, re.sub(r"[^0-9a-z]", "_", restitution))
    return base


def calibrate_damping(e, simulate, hi, bisections):
    """The damping of a contact model for which one unit-mass ball moving at 1 into one
    wall leaves it at e: bisection on [0, hi] with ``simulate(probe, damping)`` (an
    engine's run of the probe, returning (output, info)); the rebound decreases as the
    damping grows; 0 for e = 1.  The probe is wall S1 of corner-pi4.toml hit head on."""
    if e == 1.0:
        return 0.0
    probe = System("corner-pi4.toml")  # one disk, two walls: keep only S1, hit it head on
    probe.walls = probe.walls[:1]
    probe.contacts = probe.contacts[:1]
    n = probe.walls[0]["n"]
    probe.velocity = [-n[0], -n[1]]
    lo = 0.0
    for _ in range(bisections):
        mid = 0.5 * (lo + hi)
        out, _ = simulate(probe, mid)
        v = out["v"]
        e_mid = v[0] * n[0] + v[1] * n[1]
        if e_mid > e:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
