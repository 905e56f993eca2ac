#!/usr/bin/env python3
"""Generates N engine records over 55 scenarios for the regress throughput benchmark
(issue 36): the 156 fixture records of examples/engines/records (11 scenario files),
each scenario with its own restitution and four overrides (0, 1/4, 1/2, 3/4), cycled to
N records. Engine values are the fixture's f64 outputs (real engine numbers).

usage: gen.py N OUT_DIR  -> OUT_DIR/records/run/records.jsonl, OUT_DIR/systems/*.toml
"""
import json
import os
import shutil
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
n, out = int(sys.argv[1]), sys.argv[2]
shutil.copytree(os.path.join(root, "examples", "systems"), os.path.join(out, "systems"),
                dirs_exist_ok=True)
base = []
for engine in ["mujoco", "pybullet", "pymunk"]:
    with open(os.path.join(root, "examples", "engines", "records", engine + ".jsonl")) as f:
        base += [json.loads(line) for line in f if line.strip()]
variants = [None, "0", "1/4", "1/2", "3/4"]
lines = []
for r in base:
    for e in variants:
        r2 = dict(r)
        r2["scenario"] = dict(r["scenario"])
        if e is not None:
            r2["scenario"]["restitution"] = e
        r2.pop("expect", None)
        lines.append(json.dumps(r2, separators=(",", ":")))
os.makedirs(os.path.join(out, "records", "run"), exist_ok=True)
with open(os.path.join(out, "records", "run", "records.jsonl"), "w") as f:
    for i in range(n):
        f.write(lines[i % len(lines)])
        f.write("\n")
