#!/usr/bin/env python3
"""Runs an independent SMT solver on the SMT-LIB files of `impactkit verify --smtlib DIR`.

Each file holds queries, each preceded by a line `; query <n> expect unsat|sat <where>`:
`unsat` is expected of every cell of a symbolic proof (no point of the cell where a sign
the engine decided fails, or where the hypotheses hold and a conclusion fails), `sat` of
every refutation (the violated relation at the witness's exact values). Z3 (the
`z3-solver` wheel) answers each query within a time limit; cvc5 is run as well where its
Python module is installed. A disagreement (sat where unsat is expected, or the reverse)
is a bug of the engine or of the export: the script then exits 1. `unknown` (time limit,
or a nonlinear query Z3 gives up on) is counted, not hidden.

usage: smt_crosscheck.py DIR [--timeout-ms N] [--json]
"""
import json
import re
import sys
from pathlib import Path


def queries(text):
    parts = re.split(r"^; query (\d+) expect (unsat|sat) ?(.*)$", text, flags=re.M)
    # parts: [prefix, n, expect, where, body, n, expect, where, body, ...]
    for i in range(1, len(parts), 4):
        yield parts[i], parts[i + 1], parts[i + 2].strip(), parts[i + 3]


def z3_answer(body, timeout_ms):
    import z3

    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.from_string(body.replace("(check-sat)", ""))
    return str(s.check())


def cvc5_answer(body, timeout_ms):
    try:
        import cvc5  # noqa: F401
        from cvc5 import pythonic as c5
    except Exception:
        return None
    s = c5.Solver()
    s.set("tlimit-per", timeout_ms)
    s.from_string(body.replace("(check-sat)", ""))
    return str(s.check())


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    timeout = 2000
    as_json = "--json" in args
    if "--timeout-ms" in args:
        timeout = int(args[args.index("--timeout-ms") + 1])
    d = Path(args[0])
    files = sorted(d.glob("*.smt2"))
    if not files:
        print(f"{d}: no .smt2 files", file=sys.stderr)
        return 2
    counts = {"agree": 0, "unknown": 0, "disagree": 0}
    by_expect = {"unsat": 0, "sat": 0}
    disagreements = []
    cvc5_seen = 0
    for f in files:
        for n, expect, where, body in queries(f.read_text()):
            got = z3_answer(body, timeout)
            other = cvc5_answer(body, timeout)
            if other is not None:
                cvc5_seen += 1
            answers = [a for a in (got, other) if a in ("sat", "unsat")]
            if any(a != expect for a in answers):
                counts["disagree"] += 1
                disagreements.append(f"{f.stem} query {n} ({where}): expected {expect}, z3 {got}, cvc5 {other}")
            elif answers:
                counts["agree"] += 1
                by_expect[expect] += 1
            else:
                counts["unknown"] += 1
    report = {
        "files": len(files),
        "queries": sum(counts.values()),
        "agree": counts["agree"],
        "agree unsat (proved cells)": by_expect["unsat"],
        "agree sat (refutations)": by_expect["sat"],
        "unknown (time limit)": counts["unknown"],
        "disagree": counts["disagree"],
        "cvc5 queries": cvc5_seen,
        "timeout ms": timeout,
    }
    if as_json:
        print(json.dumps({"report": report, "disagreements": disagreements}))
    else:
        for k, v in report.items():
            print(f"{k}: {v}")
        for x in disagreements:
            print("DISAGREE", x)
    return 1 if counts["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
