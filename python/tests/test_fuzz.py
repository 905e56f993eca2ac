"""The Python part of the fuzz suite (issue 63): hostile values for every public function,
each case a valid call with one or two arguments replaced.

The contract is the command line's: a call returns, or raises an ``Exception`` (never a
``BaseException`` such as PyO3's ``PanicException``) whose message is one line of at most
400 characters naming a parameter it was given (its Python name, its command-line option,
or for a file its path); no result holds a NaN; no call takes more than 20 s. Every case is
generated from a seed (``IMPACTKIT_PY_FUZZ_SEED``, else a new one, printed on failure);
``IMPACTKIT_PY_FUZZ_CASES`` cases (default 2,000; about 4 s).
"""

import math
import os
import random
import re
import time
from fractions import Fraction
from pathlib import Path

import impactkit
from impactkit import System, audit, records
from impactkit.testing import assert_impact, check

ROOT = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("IMPACTKIT_PY_FUZZ_CASES", "2000"))
SEED = int(os.environ.get("IMPACTKIT_PY_FUZZ_SEED", str(random.SystemRandom().randrange(2**32))))

#: values no parameter should crash on
HOSTILE = [
    None, True, -1, 0, 2**64, -(2**63) - 1, 10**30, 1e308, float("nan"), float("inf"),
    float("-inf"), -0.0, 1e-320, Fraction(1, 3), "", " ", "\x00", "a\nb", "é", "nan", "inf",
    "-inf", "1e999", "1/0", "0/0", "--jobs", "(" * 500 + "1" + ")" * 500, "x" * 100_000,
    "pi" * 500, "sqrt(-1)", "cos(pi/1000)", "2^100000", "1/(cos(pi/64)-2^1000)", [], [[]],
    [1] * 2000, {}, object(), b"1", Path("/dev/null"), Path("/proc/self/status"), Path("/"),
]
NUMBERS = [0, 1, -1, "1/2", "9/10", "sqrt(2)", "pi/6", 0.25, Fraction(2, 3), "1e-300", "3"]
ARITHS = ["exact", "f64", "certified", "algebraic", "quadratic", "mpfr:64", "interval", "mpi:128"]
LAWS = impactkit.law_names()


def _files():
    return {
        "system": str(ROOT / "examples/systems/cradle3.toml"),
        "records": str(ROOT / "examples/engines/records/wrong-expect.jsonl"),
        "claim": str(ROOT / "proofs/fp/fp-3bc-improper.toml"),
    }


def _targets(r: random.Random):
    """(name, function, valid keyword arguments) per public entry point."""
    f = _files()
    cradle = System.cradle(3)
    num = lambda: r.choice(NUMBERS)  # noqa: E731
    vec = lambda n: [num() for _ in range(n)]  # noqa: E731
    return [
        ("eval", impactkit.eval, {"expr": r.choice(["1/3", "sqrt(2)+1", "cos(pi/5)"]), "arith": r.choice(ARITHS)}),
        ("corner", impactkit.corner, {"alpha": r.choice(["pi/6", "pi/4", "atan(1/2)"]), "v0": [1, "1/5"],
                                      "eps": r.choice(["1", "9/10", "1/2"]), "max_steps": r.choice([10, 100])}),
        ("cradle", impactkit.cradle, {"balls": r.choice([2, 3, 5]), "eps": num(), "max_steps": 200,
                                      "arith": r.choice(ARITHS)}),
        ("propagate", impactkit.propagate, {"masses": [1, 1, 1], "normals": [[-1, 1, 0], [0, -1, 1]],
                                            "momentum": [1, 0, 0], "max_steps": 6}),
        ("penny", impactkit.penny, {"law": r.choice(["elastic", "plastic"]), "impacts": 2}),
        ("step", impactkit.step, {"system": f["system"], "dt": "1/10", "steps": 3, "law": "elastic"}),
        ("System.cradle", System.cradle, {"n": r.choice([2, 3, 4]), "restitution": num()}),
        ("System.corner", System.corner, {"alpha": "pi/6", "velocity": [1, "1/5"], "restitution": num()}),
        ("System.billiard", System.billiard, {"theta": r.choice(["pi/3", "pi/2"])}),
        ("System.from_toml", System.from_toml, {"text": Path(f["system"]).read_text()}),
        ("System.from_file", System.from_file, {"path": f["system"]}),
        ("laws", cradle.laws, {"velocity": vec(3), "arith": r.choice(ARITHS[:3]), "max_steps": 50}),
        ("outcomes", cradle.outcomes, {"law": r.choice(LAWS), "velocity": [1, 0, 0]}),
        ("check", check, {"system": cradle, "pre": [1, 0, 0], "post": [0.0, 0.0, 1.0],
                          "law": r.choice(LAWS), "tol": 1e-9}),
        ("assert_impact", assert_impact, {"system": cradle, "pre": [1, 0, 0], "post": [0.0, 0.0, 1.0],
                                          "law": "pasquero", "tol": 1e-9}),
        ("regress", impactkit.regress, {"path": f["records"], "jobs": 1}),
        ("verify", impactkit.verify, {"paths": f["claim"], "jobs": 1, "budget_seconds": 30.0}),
        ("records.record", records.record, {"system": f["system"], "post": [0.0, 0.0, 1.0], "engine": "e",
                                            "pre": [1, 0, 0], "expect": r.choice(LAWS), "tolerance": 1e-9}),
        ("records.from_mujoco", records.from_mujoco, {"data": _Data([0.0, 1.0]), "dofs": [0, 1]}),
        ("audit.corner", audit.corner, {"alpha": "pi/4", "eps": "1", "direction": "0..pi/2", "grid": "3",
                                        "max_steps": 100}),
    ]


#: values of the right kind, some out of range: the calls get past argument checks
PLAUSIBLE = NUMBERS + ARITHS + LAWS + [2, 7, 33, 10**6, -3, "0", "-1/2", "2", "1e-30", "pi/2",
                                       "0..pi/2", "5", "3x3", [1, 0], [1, 0, 0, 0], ["1/2", 0, 0]]


class _Data:
    """MuJoCo's data as far as the reader uses it."""

    def __init__(self, qvel):
        self.qvel = qvel


def _hostile(r: random.Random):
    if r.random() < 0.5:
        return r.choice(PLAUSIBLE)
    v = r.choice(HOSTILE)
    if isinstance(v, list) and v and r.random() < 0.5:
        return [r.choice(HOSTILE) for _ in range(r.randrange(1, 4))]
    return v


def _case(r: random.Random):
    name, fn, kwargs = r.choice(_targets(r))
    kwargs = dict(kwargs)
    keys = list(kwargs)
    changed = r.sample(keys, min(len(keys), r.choice([1, 1, 2])))
    for key in changed:
        kwargs[key] = _hostile(r)
    return name, fn, kwargs, changed


#: the command line's names of some parameters (its options and messages)
ALIASES = {"n": ["balls"], "restitution": ["eps", "restitution"], "expr": ["EXPR"],
           "velocity": ["velocity", "v0", "coordinates"], "tol": ["tolerance"],
           "direction": ["v0"], "pre": ["velocity"], "eps": ["eps1", "eps2"]}
#: parameters that are files: an error may name the file (its path, or `<string>`)
FILES = {"path", "paths", "system", "text", "toml", "records"}


def _shown(x) -> list:
    """How a message names a file argument: its path (each path of a list), as one line."""
    xs = x if isinstance(x, list) else [x]
    out = []
    for p in xs:
        try:
            p = os.fsdecode(os.fspath(p))
        except TypeError:
            p = str(p)
        out.append(p[:30].replace("\n", "\\n").replace("\x00", "\\u{0}"))
    return [p for p in out if p]


def _names_parameter(msg: str, kwargs) -> bool:
    """Whether ``msg`` names a parameter of the call (an error between two parameters,
    such as a grid for another number of ranges, may name either)."""
    for k in kwargs:
        names = [k, k.replace("_", "-")] + ALIASES.get(k, [])
        if any(re.search(rf"(^|\W){re.escape(n)}([^\w-]|$)", msg) for n in names):
            return True
        if k in FILES and (msg.startswith("<string>") or any(msg.startswith(p) for p in _shown(kwargs[k]))):
            return True
    return False


def _has_nan(x, depth=0) -> bool:
    if depth > 50:
        return False
    if isinstance(x, float):
        return math.isnan(x)
    if isinstance(x, dict):
        return any(_has_nan(v, depth + 1) for v in x.values())
    if isinstance(x, (list, tuple)):
        return any(_has_nan(v, depth + 1) for v in x)
    return False


def _short(kwargs) -> str:
    return ", ".join(f"{k}={str(v)[:40]!r}" for k, v in kwargs.items())


def test_hostile_values_keep_the_contract():
    r = random.Random(SEED)
    failures = []
    for i in range(CASES):
        name, fn, kwargs, changed = _case(r)
        where = f"seed {SEED} case {i}: {name}({_short(kwargs)})"
        t0 = time.monotonic()
        try:
            out = fn(**kwargs)
            if hasattr(out, "__next__"):
                out = [x for _, x in zip(range(5), out)]
            if _has_nan(out):
                failures.append(f"{where}: NaN in the result")
        except Exception as e:  # the contract: an Exception, one short line
            msg = str(e)
            if "\n" in msg or len(msg) > 400 or not msg.strip():
                failures.append(f"{where}: {type(e).__name__} message {msg[:200]!r} ({len(msg)} chars)")
            elif not isinstance(e, AssertionError) and not _names_parameter(msg, kwargs):
                failures.append(f"{where}: {type(e).__name__} names no parameter of {changed}: {msg[:200]!r}")
        except BaseException as e:  # noqa: B036 (a panic escaping is the failure sought)
            if isinstance(e, KeyboardInterrupt):
                raise
            failures.append(f"{where}: {type(e).__mro__[0].__name__} is not an Exception: {str(e)[:200]}")
        took = time.monotonic() - t0
        if took > 20:
            failures.append(f"{where}: took {took:.1f} s")
    assert not failures, f"{len(failures)} of {CASES} cases broke the contract:\n" + "\n".join(failures[:20])
