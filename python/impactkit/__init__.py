"""impactkit from Python: the library itself (``impactkit._core``, PyO3), not a subprocess.

Numbers come back as what they are:

* exact rationals as :class:`fractions.Fraction`;
* other exact values (Q(sqrt d), real number fields) as :class:`Exact`, which prints the
  exact value and converts to ``float``;
* rigorous enclosures as :class:`Interval` with ``Fraction`` bounds (rounded outward);
* ``f64`` results as ``float``.

Inputs may be ``int``, ``Fraction``, ``float`` (taken exactly, as the binary value it is)
or ``str`` (an expression of the input language, e.g. ``"sqrt(2)/2"``).

>>> import impactkit
>>> impactkit.eval("1/3 + 1/6")
Fraction(1, 2)
>>> impactkit.eval("sqrt(8)", arith="quadratic")
Exact('2*sqrt(2)')
>>> impactkit.eval("sqrt(2)", arith="interval").lo < 1.4142135623730951
True
>>> cradle = impactkit.System.cradle(3)
>>> cradle.outcomes("newton-approaching")
[[Fraction(0, 1), Fraction(0, 1), Fraction(1, 1)]]
"""

from fractions import Fraction
import itertools
import numbers
import os
import re
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from . import _core

__all__ = [
    "Exact",
    "Interval",
    "System",
    "Undecided",
    "audit",
    "corner",
    "cradle",
    "eval",
    "law_names",
    "number",
    "penny",
    "propagate",
    "regress",
    "regress_records",
    "step",
    "to_float",
    "verify",
]
__version__ = _core.__version__

Value = Union[Fraction, float, "Exact", "Interval"]
Input = Union[int, Fraction, float, str]

_RATIONAL = re.compile(r"^-?\d+(/\d+)?$")


class Exact:
    """An exact value outside Q, as impactkit prints it (e.g. ``1/2*sqrt(3)``)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Exact({self.text!r})"

    def __float__(self) -> float:
        return float(eval(self.text, arith="mpi:128"))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Exact):
            return eval(f"({self.text}) - ({other.text})", arith="algebraic") == 0
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)


class Interval:
    """A rigorous enclosure ``[lo, hi]`` of a real number (bounds rounded outward)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: Union[Fraction, float], hi: Union[Fraction, float]):
        self.lo = lo
        self.hi = hi

    def __contains__(self, x: Union[int, Fraction, float]) -> bool:
        return self.lo <= x <= self.hi

    def __float__(self) -> float:
        return float(self.lo + (self.hi - self.lo) / 2)

    @property
    def width(self) -> Union[Fraction, float]:
        return self.hi - self.lo

    def __repr__(self) -> str:
        return f"Interval({self.lo!r}, {self.hi!r})"

    def __str__(self) -> str:
        return f"[{float(self.lo)!r}, {float(self.hi)!r}]"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Interval):
            return (self.lo, self.hi) == (other.lo, other.hi)
        return NotImplemented


class Undecided:
    """The result of a run that hangs on a sign its arithmetic could not decide: the
    quantity and its enclosure ``[lo, hi]``, never a guessed value. ``bool()`` is False.

    >>> r = corner("pi/4", ["1", "1"], arith="f64")
    >>> r["termination"]
    'exit'
    """

    __slots__ = ("quantity", "lo", "hi")

    def __init__(self, quantity: str, lo: str, hi: str):
        self.quantity, self.lo, self.hi = quantity, lo, hi

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"Undecided({self.quantity!r}, lo={self.lo!r}, hi={self.hi!r})"


def _report(r: Dict[str, Any]) -> Any:
    """A run's report with Python numbers, or :class:`Undecided`."""
    if r.get("complete") is False and "undecided" in r:
        u = r["undecided"]
        return Undecided(u["quantity"], u["lo"], u["hi"])
    return _convert(r)


def _bound(s: Union[str, float]) -> Union[Fraction, float]:
    if isinstance(s, float):
        return s
    return float(s) if s.lstrip("-") in ("inf", "nan") else Fraction(s)


def number(x: Dict[str, str]) -> Value:
    """A number in impactkit's JSON shape (``{"exact": …}``, ``{"approx": …}`` or
    ``{"lo": …, "hi": …}``) as a Python value."""
    if "exact" in x:
        t = x["exact"]
        if not _RATIONAL.match(t):
            return Exact(t)
        num, _, den = t.partition("/")
        return Fraction(_int(num), _int(den or "1"))
    if "approx" in x:
        return float(x["approx"])
    return Interval(_bound(x["lo"]), _bound(x["hi"]))


def _int(s: str) -> int:
    """A decimal integer of any length (CPython's ``int(str)`` refuses more than 4,300
    digits; an exact result such as 2^100000 has 30,103)."""
    digits = s.lstrip("-")
    if len(digits) <= 4000:
        return int(s)
    v = 0
    for i in range(0, len(digits), 4000):
        chunk = digits[i : i + 4000]
        v = v * 10 ** len(chunk) + int(chunk)
    return -v if s.startswith("-") else v


def _is_number(x: Any) -> bool:
    return isinstance(x, dict) and set(x) in ({"exact"}, {"approx"}, {"lo", "hi"})


def _convert(x: Any) -> Any:
    if _is_number(x):
        return number(x)
    if isinstance(x, dict):
        return {k: _convert(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_convert(v) for v in x]
    return x


def to_float(x: Union[Value, int]) -> float:
    """A value as the nearest ``float`` (an interval's midpoint)."""
    return float(x)


def _expr(x: Input, name: str = "value") -> str:
    """An input as an expression of the input language, exactly (NumPy scalars too);
    errors name the parameter ``name``."""
    if isinstance(x, bool):
        raise TypeError(f"{name}: a number is expected, not a bool")
    if isinstance(x, str):
        return x
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Rational):
        x = Fraction(int(x.numerator), int(x.denominator))
    elif isinstance(x, numbers.Real):
        f = float(x)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError(f"{name}: {f} is not a finite number")
        x = Fraction(f)
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)
    raise TypeError(f"{name}: a number (int, Fraction, float or str) is expected, not {type(x).__name__}")


def eval(expr: str, arith: str = "exact") -> Value:  # noqa: A001 (the command's name)
    """The value of an expression of the input language (``impactkit eval``).

    >>> eval("tan(pi/6)", arith="quadratic")
    Exact('1/3*sqrt(3)')
    >>> eval("0.1", arith="f64")
    0.1
    """
    return number(_core.eval(expr, arith))


def regress(path: Union[str, "os.PathLike[str]"], jobs: int = 1) -> Dict[str, Any]:
    """``impactkit regress RECORDS``: every record's exact report (``records``, in file
    order: ``nearest``, ``laws`` with distances, ``expect``, ``error``) and the summary
    (``engines``, ``failed``, ``errors``). The run streams as the command line's does;
    only the records returned are held (:func:`regress_records` yields them one by one).

    >>> run = regress("examples/engines/records/wrong-expect.jsonl")
    >>> run["failed"], [r["nearest"][0] for r in run["records"]]
    (2, ['pasquero', 'pasquero'])
    """
    stream = _core.regress_stream(_path("path", path), jobs)
    out: Dict[str, Any] = {"records": [_convert(r) for r in stream]}
    summary = stream.summary
    for key in ("engines", "failed", "errors", "non_finite"):
        out[key] = _convert(summary[key])
    return out


def regress_records(path: Union[str, "os.PathLike[str]"], jobs: int = 1) -> Iterator[Dict[str, Any]]:
    """``impactkit regress RECORDS`` one record at a time, in file order: a file of any
    size is checked in the command line's memory (the run stays at most 64 reports ahead
    of the reader; stopping early stops it). :func:`regress` gives the records and the
    summary at once (every record held in memory).

    >>> first = next(regress_records("examples/engines/records/wrong-expect.jsonl"))
    >>> first["nearest"][0], first["expect"]["pass"]
    ('pasquero', False)
    """
    for r in _core.regress_stream(_path("path", path), jobs):
        yield _convert(r)


def law_names() -> List[str]:
    """The laws ``System.laws`` computes, in its order (the compliant ``lzb`` and
    ``lzb-limit`` last, where the system file has an ``[lzb]`` table)."""
    return list(_core.law_names())


class System:
    """A system file (TOML, the format of ``impactkit laws``; docs/laws-regress.md)."""

    def __init__(
        self,
        toml: Optional[str] = None,
        source: str = "<string>",
        *,
        velocity: Optional[Sequence[Input]] = None,
        normals: Optional[Sequence[Sequence[Input]]] = None,
        masses: Optional[Sequence[Input]] = None,
        mass_matrix: Optional[Sequence[Sequence[Input]]] = None,
        restitution: Union[Input, Sequence[Input], None] = None,
        touching: Optional[Sequence[bool]] = None,
        names: Optional[Sequence[str]] = None,
        coordinates: Optional[Sequence[str]] = None,
        name: Optional[str] = None,
        energetic: Optional[Input] = None,
    ):
        """A system from a file's text, or from its parts as keyword arguments:
        ``velocity`` (q̇⁻), ``normals`` (one ∇φ per contact), ``masses`` (a diagonal mass
        matrix) or ``mass_matrix``, ``restitution`` (one coefficient, or one per contact),
        ``touching``, contact ``names``, ``coordinates``, ``name`` and Seghete–Murphey's
        ``energetic`` R.

        >>> two = System(masses=[1, 1], normals=[[-1, 1]], velocity=[1, 0], restitution=0)
        >>> two.outcomes("newton-touching")
        [[Fraction(1, 2), Fraction(1, 2)]]
        >>> System(masses=[1, 1], normals=[[-1, 1]], velocity=[1, 0], touching=[True, False])
        Traceback (most recent call last):
        ...
        ValueError: touching: 2 entries for 1 contacts (one per normal)
        """
        if toml is None:
            if velocity is None or normals is None:
                raise ValueError("System: give a file's text, or velocity= and normals=")
            per_contact = isinstance(restitution, (list, tuple))
            toml = _core.system_toml(
                _list("velocity", velocity),
                _rows("normals", normals),
                masses=None if masses is None else _list("masses", masses),
                mass_matrix=None if mass_matrix is None else _rows("mass_matrix", mass_matrix),
                restitution=None if restitution is None or per_contact else _expr(restitution, "restitution"),  # type: ignore[arg-type]
                contact_restitution=_list("restitution", restitution) if per_contact else None,  # type: ignore[arg-type]
                touching=None if touching is None else [bool(t) for t in touching],
                names=None if names is None else [str(n) for n in names],
                coordinates=None if coordinates is None else [str(c) for c in coordinates],
                name=name,
                energetic=None if energetic is None else _expr(energetic, "energetic"),
            )
        elif velocity is not None or normals is not None or masses is not None or mass_matrix is not None:
            raise ValueError("System: give a file's text or its parts, not both")
        if not isinstance(toml, str):
            raise TypeError(f"toml: a system file's text (str) is expected, not {type(toml).__name__}")
        self.toml = toml
        self.source = source
        # read once, so that a bad file fails here
        _core.check_system(toml, source)

    @classmethod
    def from_toml(cls, text: str) -> "System":
        if not isinstance(text, str):
            raise TypeError(f"text: a system file's text (str) is expected, not {type(text).__name__}")
        return cls(text)

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"]) -> "System":
        # a regular file only, read as the command line reads it (a FIFO is refused, not waited on)
        p = _path("path", path)
        return cls(_core.read_system_file(p), p)

    @classmethod
    def cradle(
        cls,
        n: int,
        masses: Optional[Sequence[Input]] = None,
        restitution: Input = 1,
        velocity: Optional[Sequence[Input]] = None,
    ) -> "System":
        """An n-ball Newton's cradle, all balls touching; by default equal masses and
        ball 1 at velocity 1 (``impactkit system cradle``)."""
        # the command line's limits first, before any list is built (issue 63, D8)
        _core.check_cradle_balls(n)
        masses = [1] * n if masses is None else _at_most("masses", masses)
        velocity = [1] + [0] * (n - 1) if velocity is None else _at_most("velocity", velocity)
        return cls(
            _core.cradle_toml(_list("masses", masses), _list("velocity", velocity), _expr(restitution, "restitution")),
            f"cradle({n})",
        )

    @classmethod
    def corner(
        cls,
        alpha: str,
        velocity: Sequence[Input],
        restitution: Union[Input, Sequence[Input]] = 1,
        mass: Input = 1,
    ) -> "System":
        """The disk in a corner of half-angle ``alpha`` (an expression, e.g. ``"pi/6"``),
        walls kx − y = 0 and kx + y = 0 with k = tan(alpha), one coefficient or one per
        wall (``impactkit system corner``; Fassino–Pasquero 2020, Sect. 2)."""
        eps = list(restitution) if isinstance(restitution, (list, tuple)) else [restitution] * 2
        if len(eps) != 2:
            raise ValueError("restitution: one coefficient, or one per wall (2)")
        text = _core.corner_toml(
            alpha, _list("velocity", velocity), _expr(eps[0], "restitution"), _expr(eps[1], "restitution"), _expr(mass, "mass")
        )
        return cls(text, f"corner({alpha})")

    @classmethod
    def billiard(
        cls,
        theta: str,
        radii: Sequence[Input] = (1, 1, 1),
        masses: Optional[Sequence[Input]] = None,
    ) -> "System":
        """The billiard break of Seghete–Murphey Sect. VII-A: the cue ball c at the
        origin moving at (1, 0) into balls a and b placed at angle ``theta`` (an
        expression), radii (r_a, r_b, r_c), masses by default the radii cubed
        (``impactkit system billiard``).

        >>> rack = System.billiard("pi/3")
        >>> len(rack.outcomes("seghete-murphey"))
        2
        """
        m = None if masses is None else _list("masses", masses)
        return cls(_core.billiard_toml(theta, _list("radii", radii), m), f"billiard({theta})")

    def laws(
        self,
        velocity: Optional[Sequence[Input]] = None,
        arith: str = "certified",
        max_steps: int = 1000,
    ) -> Dict[str, Any]:
        """Every law on this system (``impactkit laws``), numbers as Python values: the
        report's ``laws`` rows (law, citation, outcomes, unique, note, sequences), the
        ``groups`` of laws with equal outcomes, the ``agreement`` of every pair and the
        ``system``. ``velocity`` replaces the file's.

        >>> System.cradle(3).laws()["groups"]
        [['pasquero', 'seghete-murphey', 'newton-approaching', 'winandy-leine'], ['newton-touching', 'poisson']]"""
        v = None if velocity is None else _list("velocity", velocity)
        return _convert(_core.laws(self.toml, self.source, arith, v, max_steps))

    def outcomes(self, law: str, velocity: Optional[Sequence[Input]] = None, arith: str = "certified") -> List[List[Value]]:
        """The post-impact velocities of one law (several where the law is not unique);
        ``ValueError`` when the law gives none, with its reason."""
        if law not in law_names():
            raise ValueError(f"law: unknown law {_quoted(law)} (one of {', '.join(law_names())})")
        row = next((r for r in self.laws(velocity, arith)["laws"] if r["law"] == law), None)
        if row is None:
            raise ValueError(f"law: {law}: the system file has no [lzb] table")
        if not row["outcomes"]:
            raise ValueError(f"law: {law} gives no outcome: {row['note']}")
        return row["outcomes"]

    def __repr__(self) -> str:
        return f"System.from_file({self.source!r})" if self.source != "<string>" else "System(<toml>)"


def _quoted(x: Any, limit: int = 60) -> str:
    """``repr(x)`` for a one-line message: at most ``limit`` characters, elided in the
    middle (a hostile 100,000-character name is not copied into the error)."""
    r = repr(x) if len(str(x)) <= 10 * limit else repr(str(x)[: 2 * limit]) + "…"
    return r if len(r) <= limit else r[: limit // 2] + "…" + r[-(limit // 2 - 1):]


def _list(name: str, xs: Any) -> List[str]:
    """A list of numbers (at most 1000) as expressions; errors name the parameter."""
    return [_expr(x, name) for x in _bounded(name, xs, "a list of numbers")]


def _rows(name: str, rows: Any) -> List[List[str]]:
    """A list of lists of numbers (a matrix, or one covector per contact)."""
    return [_list(name, row) for row in _bounded(name, rows, "a list of lists of numbers")]


def _bounded(name: str, xs: Any, what: str = "a list") -> List[Any]:
    """An iterable (``what`` says of what, for the error) as a list of at most 1,000
    entries (a generator is read no further)."""
    if isinstance(xs, (str, bytes)) or not hasattr(xs, "__iter__"):
        raise TypeError(f"{name}: {what} is expected, not {type(xs).__name__}")
    if hasattr(xs, "__len__"):
        return _at_most(name, xs)
    head = list(itertools.islice(xs, 1001))
    if len(head) > 1000:
        raise ValueError(f"{name}: more than the 1000 entries a list may have")
    return head


def _path(name: str, x: Any) -> str:
    """A path argument as a string; errors name the parameter."""
    try:
        p = os.fsdecode(os.fspath(x))
    except TypeError:
        raise TypeError(f"{name}: a path (str or os.PathLike) is expected, not {type(x).__name__}") from None
    if not p:
        raise ValueError(f"{name}: an empty path")
    return p


def _exprs(xs: Optional[Sequence[Input]], name: str = "value") -> Optional[List[str]]:
    return None if xs is None else _list(name, xs)


def _opt(x: Optional[Input], name: str = "value") -> Optional[str]:
    return None if x is None else _expr(x, name)


def corner(
    alpha: str,
    v0: Sequence[Input],
    eps: Union[Input, Sequence[Input]] = 1,
    algorithm: str = "ta",
    threshold: Optional[Input] = None,
    rest_threshold: Optional[Input] = None,
    max_steps: int = 10_000,
    form: str = "xy",
    arith: str = "certified",
    trace: bool = False,
    max_digits: int = 20_000,
    max_bits: int = 3392,
) -> Any:
    """``impactkit corner``: the disk in the corner of half-angle ``alpha`` (Fassino–
    Pasquero 2020), from entrance velocity ``v0``, with one COR or one per wall
    (Pasquero's rule (10)), under algorithm TA or SA (Sect. 6). The report: ``steps``,
    ``zones``, ``termination``, ``final`` (exact where the inputs allow) and
    ``certified_by``; :class:`Undecided` when no arithmetic decided a branch.

    >>> r = corner("pi/4", [1, Fraction(1, 2)], arith="exact")
    >>> r["zones"], r["final"]
    (['Z12', 'Z0'], [Fraction(-1, 1), Fraction(-1, 2)])
    >>> corner("pi/6", [1, 0], eps=[1, Fraction(1, 2)], arith="quadratic")["final"]
    [Fraction(-3, 4), Exact('1/4*sqrt(3)')]
    """
    e = list(eps) if isinstance(eps, (list, tuple)) else None
    if e is not None and len(e) != 2:
        raise ValueError("--eps: one COR, or one per wall (2)")
    return _report(
        _core.corner(
            alpha,
            _list("v0", v0),
            eps=None if e is not None else _expr(eps, "eps"),  # type: ignore[arg-type]
            eps1=None if e is None else _expr(e[0], "eps"),
            eps2=None if e is None else _expr(e[1], "eps"),
            algorithm=algorithm,
            threshold=_opt(threshold, "threshold"),
            rest_threshold=_opt(rest_threshold, "rest_threshold"),
            max_steps=max_steps,
            max_digits=max_digits,
            form=form,
            arith=arith,
            max_bits=max_bits,
            trace=trace,
        )
    )


def cradle(
    balls: int,
    eps: Union[Input, Sequence[Input]] = 1,
    masses: Optional[Sequence[Input]] = None,
    v0: Optional[Sequence[Input]] = None,
    sigma: Optional[Input] = None,
    max_steps: int = 10_000,
    arith: str = "certified",
    trace: bool = False,
    max_digits: int = 20_000,
    max_bits: int = 3392,
) -> Any:
    """``impactkit cradle``: Newton's cradle through Pasquero's step-by-step procedure
    (Sect. 3.5): one COR for all contacts or one per contact, masses (default 1), initial
    velocities (default: ball 1 at 1, the others at rest). The report: ``iterations``,
    ``termination``, ``final``, ``certified_by``.

    >>> r = cradle(3, arith="exact")
    >>> r["final"], r["termination"]
    ([Fraction(0, 1), Fraction(0, 1), Fraction(1, 1)], 'exit')
    """
    e = _list("eps", eps) if isinstance(eps, (list, tuple)) else [_expr(eps, "eps")]
    return _report(
        _core.cradle(
            balls,
            e,
            masses=_exprs(masses, "masses"),
            v0=_exprs(v0, "v0"),
            sigma=_opt(sigma, "sigma"),
            max_steps=max_steps,
            max_digits=max_digits,
            trace=trace,
            arith=arith,
            max_bits=max_bits,
        )
    )


def propagate(
    masses: Sequence[Input],
    normals: Sequence[Sequence[Input]],
    momentum: Sequence[Input],
    eps: Optional[Input] = None,
    max_steps: int = 12,
    arith: str = "certified",
) -> Any:
    """``impactkit propagate``: Seghete–Murphey's propagative model (Definition 1):
    the minimal sequences of reset maps from momentum p = M q̇⁻ and their outcomes, and
    whether the outcome is unique (decided exactly where the field allows).

    >>> r = propagate([1, 1], [["sin(pi/16)", "-cos(pi/16)"], ["sin(pi/16)", "cos(pi/16)"]], [-1, 0], arith="algebraic")
    >>> r["unique"], r["outcomes"]
    (True, [[Fraction(1, 1), Fraction(0, 1)]])
    """
    return _report(
        _core.propagate(
            _list("masses", masses),
            _rows("normals", normals),
            _list("momentum", momentum),
            eps=_opt(eps, "eps"),
            max_steps=max_steps,
            arith=arith,
        )
    )


def penny(
    law: str,
    table: str = "ellipse",
    impacts: int = 20,
    a: Optional[Input] = None,
    b: Optional[Input] = None,
    rates: Optional[Sequence[Input]] = None,
    arith: str = "mpi:128",
    **params: Input,
) -> Any:
    """``impactkit penny run``: the rolling penny on a table bounded by an ellipse or a
    circle (Clark–Bloch, Sect. VI), ``impacts`` impacts under the elastic map (15) or
    the plastic one (18); ``params`` are ``mass``, ``radius``, ``inertia``,
    ``spin_inertia``, ``x0``, ``y0``, ``theta0``, ``phi0`` (defaults: Table I, Sect. VI-A).

    >>> r = penny("elastic", impacts=2, arith="f64")
    >>> [(i["index"], i["end"]) for i in r["impacts"]]
    [(1, 'front'), (2, 'back')]
    """
    known = {"mass", "radius", "inertia", "spin_inertia", "x0", "y0", "theta0", "phi0"}
    for k in params:
        if k not in known:
            raise TypeError(f"penny() got an unexpected keyword argument {k!r}")
    return _report(
        _core.penny_run(
            law,
            table=table,
            impacts=impacts,
            a=_opt(a, "a"),
            b=_opt(b, "b"),
            rates=_exprs(rates, "rates"),
            arith=arith,
            **{k: _expr(v, k) for k, v in params.items()},
        )
    )


def step(
    system: Union[str, "os.PathLike[str]"],
    dt: Input,
    steps: int,
    law: str,
    eps: Optional[Input] = None,
    order: str = "argmin",
    arith: str = "certified",
    together: Optional[Input] = None,
    compare_orders: bool = False,
) -> Any:
    """``impactkit step``: the Seghete–Murphey time stepper (Sect. VI–VII) on a step
    system file (a path, or the file's text; docs/step.md), ``steps`` steps of size
    ``dt`` with the elastic, plastic (11) or inelastic (17, with ``eps``) law.
    ``together`` (``--together``) joins contacts within that gap to an impact;
    ``compare_orders`` (``--compare-orders``) adds ``indeterminacy`` (Fig. 8's ξ).

    >>> r = step("examples/step/ball-gravity.toml", dt="1/10", steps=5, law="elastic", arith="quadratic")
    >>> [n["q"][1] for n in r["nodes"]][:3], r["nodes"][0]["energy"]
    ([Fraction(1, 4), Fraction(1, 5), Fraction(1, 20)], Fraction(3, 1))
    """
    text, source = _text_and_source(system)
    return _report(
        _core.step(
            text,
            _expr(dt, "dt"),
            steps,
            law,
            eps=_opt(eps, "eps"),
            order=order,
            arith=arith,
            source=source,
            together=_opt(together, "together"),
            compare_orders=bool(compare_orders),
        )
    )


def _text_and_source(x: Union[str, "os.PathLike[str]"]) -> "tuple[str, str]":
    if isinstance(x, str) and ("\n" in x or "=" in x):
        return x, "<string>"
    p = _path("system", x)
    return _core.read_system_file(p), p


def _at_most(name: str, xs: Sequence[Input]) -> List[Input]:
    """``xs`` as a list, refused beyond the command line's 1,000 entries of a list option
    before it is copied."""
    if len(xs) > 1000:
        raise ValueError(f"{name}: {len(xs)} entries, more than the 1000 a list may have")
    return list(xs)


def verify(
    paths: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]] = "proofs",
    only: Optional[str] = None,
    budget_seconds: float = 120.0,
    jobs: int = 1,
) -> List[Dict[str, Any]]:
    """``impactkit verify``: every claim of the claim files (directories are searched),
    with its computed ``verdict``, ``detail``, ``counterexample``, ``corrected`` and
    ``certificate``, in the order of the files' paths. Ctrl-C stops it (``KeyboardInterrupt``).

    >>> [(c["id"], c["verdict"]) for c in verify(["proofs/fp/fp-example-pi4.toml", "proofs/fp/fp-example-pi4-xi1.toml"])]
    [('fp-example-pi4-xi1', 'refuted'), ('fp-example-pi4', 'proved')]
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return list(_core.verify([_path("paths", p) for p in _bounded("paths", paths)], only, budget_seconds, jobs))


def _check(
    system: "System",
    post: Sequence[float],
    law: str = "newton-touching",
    tol: float = 1e-9,
    pre: Optional[Sequence[Input]] = None,
) -> Dict[str, Any]:
    """``regress.check(system, post, law, tol)``: the exact report of one engine
    observation (``regress`` on one record): ``laws`` (each law's ``outcome``,
    ``distance``, ``distance_upper``, ``note``), ``nearest``, ``energy_change``,
    ``momentum_defect`` and ``expect`` (``pass``, ``reason``). ``pre`` replaces the
    system's pre-impact velocity.

    >>> r = regress.check(System.cradle(3), [0.0, 0.0, 1.0], "pasquero", 1e-12)
    >>> r["expect"]["pass"], r["nearest"][0]
    (True, 'pasquero')
    """
    if law not in law_names():
        raise ValueError(f"law: unknown law {_quoted(law)} (one of {', '.join(law_names())})")
    if not isinstance(system, System):
        raise TypeError(f"system: a System is expected, not {type(system).__name__}")
    v = None if pre is None else _list("pre", pre)
    post_f = [_float("post", x) for x in _bounded("post", post)]
    try:
        r = _core.check(system.toml, post_f, law, _float("tol", tol), system.source, v)
    except ValueError as e:
        # the record's words (output.v, tolerance) as this function's parameters
        msg = str(e)
        for record, param in (("output.v:", "post:"), ("tolerance:", "tol:")):
            if msg.startswith(record):
                raise ValueError(param + msg[len(record):]) from None
        raise
    return _convert(r)


def _float(name: str, x: Any) -> float:
    """``float(x)`` with the parameter's name in the error (Python's own names none)."""
    try:
        return float(x)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a number, not {_quoted(x)}") from None


regress.check = _check  # type: ignore[attr-defined]

from . import audit  # noqa: E402 (uses the helpers above)
