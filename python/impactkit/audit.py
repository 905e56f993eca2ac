"""Floating-point audits (``impactkit audit``): where over a whole input domain does the
audited arithmetic (``f64``, or ``mpfr:BITS``) take another branch than the certified
computation, and how far apart do the results end.

>>> from impactkit import audit
>>> run = audit.corner(alpha="pi/64..pi/4", direction="-alpha..alpha", eps=1, samples=50)
>>> run.summary["samples"], run.summary["certified"], run.summary["different_zones"]
(50, 50, 0)
>>> run.summary["distance"]["max"] < 1e-14
True
"""

from typing import Any, Dict, List, Optional, Union

from . import Input, _convert, _core, _expr

__all__ = ["AuditRun", "corner"]


class AuditRun:
    """One audit: its ``config`` (law, options, axes, points), its ``summary`` (samples,
    certified, same and different zones, distances, the worst samples with a command
    that reproduces each) and every sample's record (``records``: ``coords``, ``inputs``,
    the ``audited`` and ``reference`` runs, their ``comparison``, ``reproduce``). Numbers
    are Python values as everywhere in this package: a statistic or an ``f64`` result a
    ``float``, an enclosure (a reference's final state, a distance) an :class:`Interval`
    with exact ``Fraction`` bounds."""

    __slots__ = ("config", "summary", "records")

    def __init__(self, raw: Dict[str, Any]):
        self.config: Dict[str, Any] = raw["config"]
        self.summary: Dict[str, Any] = _convert(raw["summary"])
        self.records: List[Dict[str, Any]] = _convert(raw["records"])

    def arrays(self) -> Dict[str, Any]:
        """The samples as NumPy arrays (NumPy must be installed): ``coords`` (n × the
        varying axes, ``config["axes"]``), ``steps`` (audited rule applications),
        ``same_zones`` (bool; False where no reference decided), ``certified`` (bool),
        ``distance_lo``, ``distance_hi`` (rigorous bounds of ‖audited − true‖₂; NaN where
        no reference decided).

        At φ = α the entrance velocity runs along the wall S1; f64 sees both walls hit:

        >>> run = corner(alpha="pi/6", direction="0..alpha", eps=1, grid="5")
        >>> a = run.arrays()
        >>> a["coords"].shape, a["same_zones"].tolist()
        ((5, 1), [True, True, True, True, False])
        >>> run.summary["worst"][0]["note"]
        'relative distance up to 3.978e-16; diverges at step 0: Z12 instead of Z2'
        >>> bool((a["distance_lo"] <= a["distance_hi"]).all())
        True
        """
        import numpy as np

        n, d = len(self.records), len(self.config["axes"])
        coords = np.array([r["coords"] for r in self.records], dtype=float).reshape(n, d)
        cmp = [r.get("comparison") for r in self.records]
        nan = float("nan")
        return {
            "coords": coords,
            "steps": np.array([r["audited"]["steps"] for r in self.records], dtype=np.int64),
            "certified": np.array([c is not None for c in cmp], dtype=bool),
            "same_zones": np.array([bool(c and c["same_zones"]) for c in cmp], dtype=bool),
            "distance_lo": np.array([float(c["distance"].lo) if c else nan for c in cmp], dtype=float),
            "distance_hi": np.array([float(c["distance"].hi) if c else nan for c in cmp], dtype=float),
        }

    def __repr__(self) -> str:
        s = self.summary
        return f"AuditRun({self.config['law']}: {s['samples']} samples, {s['different_zones']} with other zones)"


def _axis(x: Union[Input, str, None], name: str) -> Optional[str]:
    """A value, a range ``"a..b"`` or a list ``"a,b,c"`` (strings), or one number;
    errors name the parameter."""
    return None if x is None else _expr(x, name)


def corner(
    alpha: Union[Input, str],
    eps: Union[Input, str, None] = None,
    direction: Optional[str] = None,
    v0: Optional[str] = None,
    speed: Union[Input, str, None] = None,
    eps1: Union[Input, str, None] = None,
    eps2: Union[Input, str, None] = None,
    algorithm: str = "ta",
    threshold: Union[Input, str, None] = None,
    rest_threshold: Union[Input, str, None] = None,
    reference_algorithm: Optional[str] = None,
    form: str = "xy",
    max_steps: int = 10_000,
    samples: Optional[int] = None,
    grid: Optional[str] = None,
    seed: int = 0,
    arith: str = "f64",
    reference: bool = True,
    max_bits: int = 3392,
    max_digits: int = 20_000,
    sample_seconds: float = 10.0,
    jobs: Optional[int] = None,
) -> AuditRun:
    """``impactkit audit corner``: the disk in a corner (Fassino–Pasquero 2020, Sect. 6)
    over a domain of α, the entrance direction φ (v₀ = speed·(cos φ, sin φ)) or v₀
    itself (``"X,Y"``), and the CORs; each a value, a range ``"a..b"`` or a list
    ``"a,b,c"`` (later options may name earlier ones: ``direction="-alpha..alpha"``).
    Give ``samples=N`` (quasi-random, reproducible with ``seed``) or ``grid="N1xN2"``.
    Ctrl-C stops it (``KeyboardInterrupt``).
    """
    return AuditRun(
        _core.audit_corner(
            _expr(alpha, "alpha"),
            eps=_axis(eps, "eps"),
            direction=direction,
            v0=v0,
            speed=_axis(speed, "speed"),
            eps1=_axis(eps1, "eps1"),
            eps2=_axis(eps2, "eps2"),
            algorithm=algorithm,
            threshold=_axis(threshold, "threshold"),
            rest_threshold=_axis(rest_threshold, "rest_threshold"),
            reference_algorithm=reference_algorithm,
            form=form,
            max_steps=max_steps,
            samples=samples,
            grid=grid,
            seed=seed,
            arith=arith,
            reference=reference,
            max_bits=max_bits,
            max_digits=max_digits,
            sample_seconds=sample_seconds,
            jobs=jobs,
        )
    )
