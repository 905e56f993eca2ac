#!/usr/bin/env python3
"""Runs two independent SMT solvers on the SMT-LIB files of `impactkit verify --smtlib DIR`.

Each file is an SMT-LIB 2.6 script of self-contained queries (`(reset)` between them),
each preceded by a line `; query <n> expect unsat|sat <where>` and stating
`(set-info :status unsat|sat)`: `unsat` is expected of every cell of a symbolic proof (no
point of the cell where a sign the engine decided fails, or where a conclusion fails),
`sat` of every refutation (the violated relation at the witness's exact values).

The files are run whole, as a user would run them:
- `z3 -T:SECONDS -t:MS FILE` (the binary of the `z3-solver` wheel, or `z3` on PATH);
- cvc5's own SMT-LIB front end on FILE (`scripts/cvc5_run.py`: the `cvc5` wheel from
  PyPI ships its library and parser, not a binary), with a per-query time limit and
  without its coverings procedure (`--nl-cov=false`), which can run past the limit.
Any output line other than `sat`, `unsat` or `unknown` (an error, a warning) fails the
run, as does an answer that disagrees with the expected one: the script then exits 1.
`unknown` (time limit, or a nonlinear query a solver gives up on) is counted, not hidden;
a query that neither solver answers is reported.

usage: smt_crosscheck.py DIR [--timeout-ms N] [--cvc5-timeout-ms N] [--json] [--no-cvc5] [--jobs N]

--jobs: files run at once (default: the number of cores); the report does not depend on it.

--timeout-ms: z3's limit per query (default 2000); --cvc5-timeout-ms: cvc5's (default
200; a file cvc5 does not finish within its queries' limits plus 10 s is reported and its
queries count as unknown to cvc5).
"""
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
UNFINISHED = []


def expectations(text):
    return [(int(n), e, w.strip()) for n, e, w in re.findall(r"^; query (\d+) expect (unsat|sat) ?(.*)$", text, flags=re.M)]


def z3_binary():
    local = Path(sys.executable).parent / "z3"
    if local.exists():
        return str(local)
    return shutil.which("z3")


def answers(lines, n, solver, name, problems):
    """The answers of one run: one per query, every other line a problem."""
    out = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if line in ("sat", "unsat", "unknown"):
            out.append(line)
        else:
            problems.append(f"{name}: {solver} printed: {line}")
    if len(out) != n:
        problems.append(f"{name}: {solver} gave {len(out)} answers to {n} queries")
    return out


def run_z3(path, n, timeout_ms, problems):
    z3 = z3_binary()
    if z3 is None:
        problems.append("z3 not found (pip install z3-solver)")
        return None
    budget = max(10, n * timeout_ms // 1000 + 10)
    r = subprocess.run([z3, f"-T:{budget}", f"-t:{timeout_ms}", str(path)], capture_output=True, text=True)
    if r.stderr.strip():
        problems.append(f"{path.name}: z3 stderr: {r.stderr.strip().splitlines()[0]}")
    return answers(r.stdout.splitlines(), n, "z3", path.name, problems)


def run_cvc5(path, n, timeout_ms, problems):
    # --nl-cov=false: cvc5's cylindrical algebraic coverings do not stop at the time limit
    # on some queries (one of fp-cor3.1-termination ran for over an hour); without them a
    # query past the limit is `unknown`, as with z3
    try:
        r = subprocess.run(
            [sys.executable, str(HERE / "cvc5_run.py"), f"--tlimit-per={timeout_ms}", "--nl-cov=false", str(path)],
            capture_output=True,
            text=True,
            timeout=n * timeout_ms / 1000 + 10,
        )
    except subprocess.TimeoutExpired:
        # a limitation of the solver, reported (its queries count as unknown), not an error
        UNFINISHED.append(path.name)
        return []
    if r.returncode == 3:
        return None  # the cvc5 module is not installed
    if r.stderr.strip():
        problems.append(f"{path.name}: cvc5 stderr: {r.stderr.strip().splitlines()[0]}")
    return answers(r.stdout.splitlines(), n, "cvc5", path.name, problems)


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    timeout = 2000
    as_json = "--json" in args
    if "--timeout-ms" in args:
        timeout = int(args[args.index("--timeout-ms") + 1])
    cvc5_timeout = 200
    if "--cvc5-timeout-ms" in args:
        cvc5_timeout = int(args[args.index("--cvc5-timeout-ms") + 1])
    d = Path(args[0])
    files = sorted(d.glob("*.smt2"))
    if not files:
        print(f"{d}: no .smt2 files", file=sys.stderr)
        return 2
    counts = {"agree": 0, "unknown": 0, "disagree": 0}
    by_expect = {"unsat": 0, "sat": 0}
    per_solver = {"z3": {"sat": 0, "unsat": 0, "unknown": 0}, "cvc5": {"sat": 0, "unsat": 0, "unknown": 0}}
    problems, disagreements = [], []
    cvc5_files = 0
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else (os.cpu_count() or 1)

    def run_file(f):
        """One file by both solvers (a child process each): its expectations, the
        answers, and the problems seen, in the file's order."""
        exp = expectations(f.read_text())
        mine = []
        z = run_z3(f, len(exp), timeout, mine) or []
        c = None if "--no-cvc5" in args else run_cvc5(f, len(exp), cvc5_timeout, mine)
        return exp, z, c, mine

    # the largest files first, so that no long file starts last and runs alone; the
    # report stays in file order
    order = sorted(range(len(files)), key=lambda i: -files[i].stat().st_size)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = dict(zip(order, pool.map(run_file, [files[i] for i in order])))
    results = [done[i] for i in range(len(files))]
    UNFINISHED.sort()
    for f, (exp, z, c, mine) in zip(files, results):
        problems.extend(mine)
        if c is not None:
            cvc5_files += 1
        for i, (n, expect, where) in enumerate(exp):
            got = z[i] if i < len(z) else None
            other = c[i] if c is not None and i < len(c) else None
            for name, a in (("z3", got), ("cvc5", other)):
                if a in per_solver[name]:
                    per_solver[name][a] += 1
            decided = [a for a in (got, other) if a in ("sat", "unsat")]
            if any(a != expect for a in decided):
                counts["disagree"] += 1
                disagreements.append(f"{f.stem} query {n} ({where}): expected {expect}, z3 {got}, cvc5 {other}")
            elif decided:
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
        "unknown to both (time limit)": counts["unknown"],
        "disagree": counts["disagree"],
        "z3 answers": per_solver["z3"],
        "cvc5 answers": per_solver["cvc5"],
        "files run by cvc5": cvc5_files,
        "files cvc5 did not finish": len(UNFINISHED),
        "error lines": len(problems),
        "timeout ms (z3, cvc5)": [timeout, cvc5_timeout],
    }
    if as_json:
        print(json.dumps({"report": report, "disagreements": disagreements, "problems": problems, "cvc5 unfinished": UNFINISHED}))
    else:
        for k, v in report.items():
            print(f"{k}: {v}")
        for x in disagreements:
            print("DISAGREE", x)
        for x in UNFINISHED:
            print("CVC5 UNFINISHED", x)
        for x in problems[:20]:
            print("ERROR", x)
    return 1 if counts["disagree"] or problems else 0


if __name__ == "__main__":
    sys.exit(main())
