#!/usr/bin/env python3
"""Run every scenario of examples/systems/ in every engine and parameter set, and write
examples/engines/records/<engine>.jsonl (one record per line) and
examples/engines/records/wrong-expect.jsonl.

    python3 -m venv /work/venv-engines
    /work/venv-engines/bin/pip install -r examples/engines/requirements.txt
    /work/venv-engines/bin/python examples/engines/generate.py [--print] [ENGINE ...]

With engine names (pymunk, pybullet, mujoco, drake) only those run.  An engine whose
Python package is missing is skipped with a message (its records file is left as it is).
The run takes a few seconds per engine (Drake: about half a minute).
"""

import copy
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import common  # noqa: E402
import reference  # noqa: E402

# Records whose engine, by construction, solves Newton's law over every touching contact
# as one LCP to convergence get an expect clause, and only if the output agrees with the
# float reference (reference.py) to a tenth of the tolerance: a guard, printed when it
# trips (Chipmunk's billiard: it moves the balls before it finds the contacts, so the
# normals it uses have turned by O(dt)).
EXPECT = {
    # Bullet's pivoting LCP solver (exact, no iteration limit), no contact slop
    ("pybullet", "multibody-dantzig"): 1e-6,
    # Bullet's Gauss-Seidel run to convergence (1000 sweeps, residual 1e-14)
    ("pybullet", "rigid-si-it1000-nowarm"): 1e-6,
    # Chipmunk with every contact found in the first step, 100 sweeps
    ("pymunk", "overlap-dt1e-5-it100"): 1e-6,
}


def run_engine(modname):
    try:
        mod = importlib.import_module(modname)
    except ImportError as err:
        print(f"skipping {modname}: {err}", file=sys.stderr)
        return None, []
    recs = []
    for file, restitution in common.SCENARIOS:
        sid = common.scenario_id(file, restitution)
        extra = {"restitution": restitution} if restitution is not None else None
        for label, cfg in mod.PARAM_SETS:
            system = common.System(file, restitution, overlap=cfg.get("overlap", 0.0))
            out, info = mod.run(system, cfg)
            params = mod.params(cfg, info)
            params = {"set": label, **params}
            rec = common.record(f"{mod.ENGINE}-{sid}-{label}", system, mod.ENGINE, mod.VERSION, params, out, extra)
            tol = EXPECT.get((mod.ENGINE, label))
            if tol is not None:
                ref, _ = reference.newton_touching(system)
                dev = max(abs(a - b) for a, b in zip(out["v"], ref))
                if dev <= tol / 10:
                    rec["expect"] = {"law": "newton-touching", "tolerance": tol}
                else:
                    print(f"note: {rec['id']} is {dev:.3g} from newton-touching; no expect clause", file=sys.stderr)
            recs.append(rec)
    return mod.ENGINE, recs


def wrong_expect(all_recs):
    """Records copied from real ones with a deliberately wrong expect clause."""
    picks = [
        # Chipmunk, exactly touching balls: the contacts are found one step apart, so the
        # impact is resolved pairwise: (0, 0, 1), not newton-touching's (-1/3, 2/3, 2/3)
        ("pymunk-cradle3-touching-dt1e-3-it10", "newton-touching"),
        # the same on 5 balls: (0, 0, 0, 0, 1), not (-3/5, 2/5, 2/5, 2/5, 2/5)
        ("pymunk-cradle5-touching-dt1e-3-it10", "newton-touching"),
    ]
    by_id = {r["id"]: r for r in all_recs}
    out = []
    for rid, law in picks:
        r = copy.deepcopy(by_id[rid])
        r["id"] = rid + "-wrong-expect"
        r["expect"] = {"law": law, "tolerance": 1e-6}
        out.append(r)
    return out


def main():
    os.makedirs(common.RECORDS, exist_ok=True)
    everything = []
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for modname in ["eng_pymunk", "eng_pybullet", "eng_mujoco", "eng_drake"]:
        if only and modname[len("eng_"):] not in only:
            continue
        engine, recs = run_engine(modname)
        if engine is None:
            continue
        common.write_records(os.path.join(common.RECORDS, f"{engine}.jsonl"), recs)
        everything += recs
        print(f"{engine}: {len(recs)} records", file=sys.stderr)
    if any(r["id"].startswith("pymunk-") for r in everything):
        common.write_records(os.path.join(common.RECORDS, "wrong-expect.jsonl"), wrong_expect(everything))
    if "--print" in sys.argv:
        for r in everything:
            v = ", ".join(f"{x:.6f}" for x in r["output"]["v"])
            print(f'{r["id"]:60s} ({v}) {"expect " + r["expect"]["law"] if "expect" in r else ""}')


if __name__ == "__main__":
    main()
