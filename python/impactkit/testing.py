"""A test helper for physics-engine developers: pin an engine's impact against a law.

The check is ``impactkit regress`` on one record, exact: the engine's floats are taken as
the binary values they are, the law's outcome is computed exactly where the system's
numbers allow, and the distance (largest componentwise difference) is compared with the
tolerance through its exact value or a rigorous enclosure.

The arguments come in one order everywhere, that of ``impactkit.regress.check`` and of
the Rust ``impactkit::regress::check``: the system, the engine's post-impact velocity,
the law, the tolerance; the pre-impact velocity ``pre`` only by name.

Under pytest, the ``impact`` fixture (the plugin ``impactkit.pytest_plugin``, loaded
when the package is installed) does the same and also counts the checks, summarizes
the nearest laws at the end of the run, and with ``--impact-records PATH`` writes every
check as a record for ``impactkit regress``.

>>> from impactkit import System
>>> from impactkit.testing import assert_impact
>>> cradle = System.cradle(3)
>>> assert_impact(cradle, [0.0, 0.0, 1.0], "newton-approaching", pre=[1, 0, 0])
>>> assert_impact(cradle, [0.0, 0.0, 1.0], "newton-touching", pre=[1, 0, 0])
Traceback (most recent call last):
...
AssertionError: engine [0, 0, 1] vs newton-touching [-1/3, 2/3, 2/3]: distance 0.667 > tolerance 1e-09; nearest: pasquero=seghete-murphey=newton-approaching=winandy-leine at 0; energy change ΔE/E +0
"""

from typing import Any, Dict, Optional, Sequence

from . import Input, System, _check

__all__ = ["assert_impact", "check", "failure"]


def check(
    system: System,
    post: Sequence[float],
    law: str = "newton-touching",
    tol: float = 1e-9,
    *,
    pre: Optional[Sequence[Input]] = None,
) -> Dict[str, Any]:
    """The exact report of one engine observation (``regress`` on one record): ``laws``
    (each law's ``outcome``, ``distance``, ``distance_upper``, ``note``), ``nearest``,
    ``energy_change``, ``momentum_defect`` and ``expect`` (``pass``, ``reason``).
    ``pre`` replaces the system's pre-impact velocity (``None``: keep it)."""
    return _check(system, post, law, tol, pre)


def _short(x: Any) -> str:
    return str(x) if not isinstance(x, float) else f"{x:.3g}"


def failure(report: Dict[str, Any], post: Sequence[float], law: str, tol: float) -> Optional[str]:
    """The one-line failure message of a ``check`` report (``None`` when it passed): the
    engine's velocity, the law's outcome, the distance, the nearest laws and their
    distance, and the relative energy change."""
    r = report
    if r["expect"]["pass"]:
        return None
    rows = {row["law"]: row for row in r["laws"]}
    row = rows.get(law)
    engine = "[" + ", ".join(f"{float(x):.6g}" for x in post) + "]"
    if row is None:
        # a law the file does not give (LZB without its [lzb] table): the record's reason
        head = f"engine {engine}: {law} is not computed here ({r['expect']['reason']})"
    elif not row["applies"]:
        head = f"engine {engine}: {law} gives no outcome here ({row['note']})"
    else:
        outcome = "[" + ", ".join(_short(x) for x in row["outcome"]) + "]"
        head = (
            f"engine {engine} vs {law} {outcome}: distance {row['distance_upper']:.3g}"
            f" > tolerance {tol:g}"
        )
    if r["nearest"]:
        best = rows[r["nearest"][0]]["distance_upper"]
        nearest = f"nearest: {'='.join(r['nearest'])} at {best:.3g}"
    else:
        nearest = "no law gave an outcome"
    de = r.get("energy_change")
    energy = f"; energy change ΔE/E {de:+.3g}" if de is not None else ""
    return f"{head}; {nearest}{energy}"


def assert_impact(
    system: System,
    post: Sequence[float],
    law: str = "newton-touching",
    tol: float = 1e-9,
    *,
    pre: Optional[Sequence[Input]] = None,
) -> None:
    """Asserts that an engine's post-impact velocity ``post`` (from ``pre``) lies within
    ``tol`` (largest componentwise difference) of an outcome of ``law`` on ``system``.
    The failure message is one line (``failure``); under pytest the traceback stops at
    the caller (``__tracebackhide__``)."""
    # pytest shows the caller's line and this one message, not this function's source
    __tracebackhide__ = True
    message = failure(check(system, post, law, tol, pre=pre), post, law, tol)
    if message is not None:
        raise AssertionError(message)
