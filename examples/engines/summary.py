#!/usr/bin/env python3
"""Print the records as a Markdown table beside two float references (reference.py):
newton-touching (one LCP over every touching contact) and sequential (pairwise impacts,
the most approaching contact first).  Used for the table in README.md:

    /work/venv-engines/bin/python examples/engines/summary.py
"""

import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import common  # noqa: E402
import reference  # noqa: E402


def fmt(v):
    return "(" + ", ".join(f"{x:.4f}".replace("-0.0000", "0.0000") for x in v) + ")"


def main():
    recs = []
    for engine in ["pymunk", "pybullet", "mujoco"]:
        path = os.path.join(common.RECORDS, f"{engine}.jsonl")
        if os.path.exists(path):
            with open(path) as f:
                recs += [json.loads(line) for line in f]
    for file, restitution in common.SCENARIOS:
        sid = common.scenario_id(file, restitution)
        system = common.System(file, restitution)
        print(f"\n**{sid}** ({system.name}{', restitution overridden to ' + restitution if restitution else ''}), v- = {fmt(system.velocity)}\n")
        print("| source | v+ |")
        print("| --- | --- |")
        print(f"| reference newton-touching | {fmt(reference.newton_touching(system)[0])} |")
        print(f"| reference sequential | {fmt(reference.sequential(system))} |")
        prefix = [f"{e}-{sid}-" for e in ["pymunk", "pybullet", "mujoco"]]
        for r in recs:
            for p in prefix:
                rest = r["id"][len(p):]
                if r["id"].startswith(p) and not any(rest.startswith(x) for x in ("e09-", "masses123-")):
                    print(f"| {r['engine']['name']} {r['engine']['params']['set']} | {fmt(r['output']['v'])} |")


if __name__ == "__main__":
    main()
