"""A test helper for physics-engine developers: pin an engine's impact against a law.

>>> from impactkit import System
>>> from impactkit.testing import assert_impact
>>> cradle = System.cradle(3)
>>> assert_impact(cradle, pre=[1, 0, 0], post=[0.0, 0.0, 1.0], law="newton-approaching")
>>> assert_impact(cradle, pre=[1, 0, 0], post=[0.0, 0.0, 1.0], law="newton-touching")
Traceback (most recent call last):
...
AssertionError: post-impact velocity [0.0, 0.0, 1.0] differs from newton-touching by 0.667 (tol 1e-09); nearest law: newton-approaching at 0 (also: pasquero, seghete-murphey, winandy-leine); energy change +0 of 0.5
"""

from typing import Dict, List, Optional, Sequence, Tuple

from . import Input, System, law_names, to_float

__all__ = ["assert_impact", "distances"]


def _energy(masses: List[List[float]], v: Sequence[float]) -> float:
    n = len(v)
    return 0.5 * sum(v[i] * masses[i][j] * v[j] for i in range(n) for j in range(n))


def _mass_matrix(report: dict) -> List[List[float]]:
    s = report["system"]
    if s.get("mass_matrix"):
        return [[to_float(x) for x in row] for row in s["mass_matrix"]]
    m = [to_float(x) for x in s["masses"]]
    return [[m[i] if i == j else 0.0 for j in range(len(m))] for i in range(len(m))]


def distances(report: dict, post: Sequence[float]) -> Dict[str, Optional[float]]:
    """Per law of a ``System.laws`` report, the largest componentwise |post − outcome| over
    its nearest outcome (``None``: the law gave no outcome)."""
    out: Dict[str, Optional[float]] = {}
    for row in report["laws"]:
        ds = [max(abs(p - to_float(o)) for p, o in zip(post, outcome)) for outcome in row["outcomes"]]
        out[row["law"]] = min(ds) if ds else None
    return out


def assert_impact(
    system: System,
    pre: Sequence[Input],
    post: Sequence[float],
    law: str = "newton-touching",
    tol: float = 1e-9,
    arith: str = "certified",
) -> None:
    """Asserts that an engine's post-impact velocity ``post`` (from ``pre``) is ``law``'s
    outcome on ``system`` within ``tol`` (largest componentwise difference). The failure
    message names the nearest law, its distance and the energy change."""
    if law not in law_names():
        raise ValueError(f"law: unknown law {law!r} (one of {', '.join(law_names())})")
    report = system.laws(velocity=pre, arith=arith)
    post = [float(x) for x in post]
    if len(post) != len(report["system"]["velocity"]):
        raise ValueError(f"post: {len(post)} components, the system has {len(report['system']['velocity'])} coordinates")
    d = distances(report, post)
    if d[law] is not None and d[law] <= tol:
        return
    m = _mass_matrix(report)
    e0 = _energy(m, [to_float(x) for x in report["system"]["velocity"]])
    de = _energy(m, post) - e0
    ranked: List[Tuple[float, str]] = sorted((v, k) for k, v in d.items() if v is not None)
    if ranked:
        best = ranked[0][0]
        ties = [k for v, k in ranked if v == best]
        also = f" (also: {', '.join(ties[1:])})" if len(ties) > 1 else ""
        nearest = f"nearest law: {ties[0]} at {best:.3g}{also}"
    else:
        nearest = "no law gave an outcome"
    if d[law] is None:
        row = next(r for r in report["laws"] if r["law"] == law)
        head = f"{law} gives no outcome here ({row['note']})"
    else:
        head = f"post-impact velocity {post} differs from {law} by {d[law]:.3g} (tol {tol:g})"
    raise AssertionError(f"{head}; {nearest}; energy change {de:+.3g} of {e0:.3g}")
