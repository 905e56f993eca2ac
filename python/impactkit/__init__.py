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
import numbers
import os
import re
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _core

__all__ = ["Exact", "Interval", "System", "eval", "law_names", "number", "regress", "to_float"]
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


def _bound(s: str) -> Union[Fraction, float]:
    return float(s) if s.lstrip("-") in ("inf", "nan") else Fraction(s)


def number(x: Dict[str, str]) -> Value:
    """A number in impactkit's JSON shape (``{"exact": …}``, ``{"approx": …}`` or
    ``{"lo": …, "hi": …}``) as a Python value."""
    if "exact" in x:
        t = x["exact"]
        return Fraction(t) if _RATIONAL.match(t) else Exact(t)
    if "approx" in x:
        return float(x["approx"])
    return Interval(_bound(x["lo"]), _bound(x["hi"]))


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


def _expr(x: Input) -> str:
    """An input as an expression of the input language, exactly (NumPy scalars too)."""
    if isinstance(x, bool):
        raise TypeError("a number is expected, not a bool")
    if isinstance(x, str):
        return x
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Rational):
        x = Fraction(int(x.numerator), int(x.denominator))
    elif isinstance(x, numbers.Real):
        f = float(x)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError(f"{f} is not a finite number")
        x = Fraction(f)
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)
    raise TypeError(f"a number (int, Fraction, float or str) is expected, not {type(x).__name__}")


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
    (``engines``, ``failed``, ``errors``).

    >>> run = regress("examples/engines/records/wrong-expect.jsonl")
    >>> run["failed"], [r["nearest"][0] for r in run["records"]]
    (2, ['pasquero', 'pasquero'])
    """
    return _convert(_core.regress(os.fspath(path), jobs))


def law_names() -> List[str]:
    """The laws ``System.laws`` computes, in its order."""
    return list(_core.law_names())


class System:
    """A system file (TOML, the format of ``impactkit laws``; docs/laws-regress.md)."""

    def __init__(self, toml: str, source: str = "<string>"):
        self.toml = toml
        self.source = source
        # read once, so that a bad file fails here
        _core.check_system(toml, source)

    @classmethod
    def from_toml(cls, text: str) -> "System":
        return cls(text)

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"]) -> "System":
        with open(path, encoding="utf-8") as f:
            return cls(f.read(1 << 20), os.fspath(path))

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
        masses = [1] * n if masses is None else list(masses)
        velocity = [1] + [0] * (n - 1) if velocity is None else list(velocity)
        return cls(
            _core.cradle_toml([_expr(m) for m in masses], [_expr(v) for v in velocity], _expr(restitution)),
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
        text = _core.corner_toml(alpha, [_expr(v) for v in velocity], _expr(eps[0]), _expr(eps[1]), _expr(mass))
        return cls(text, f"corner({alpha})")

    def laws(
        self,
        velocity: Optional[Sequence[Input]] = None,
        arith: str = "certified",
        max_steps: int = 1000,
    ) -> Dict[str, Any]:
        """Every law on this system (``impactkit laws``), numbers as Python values: the
        report's ``laws`` rows (law, citation, outcomes, unique, note, sequences), the
        ``agreement`` table and the ``system``. ``velocity`` replaces the file's."""
        v = None if velocity is None else [_expr(x) for x in velocity]
        return _convert(_core.laws(self.toml, self.source, arith, v, max_steps))

    def outcomes(self, law: str, velocity: Optional[Sequence[Input]] = None, arith: str = "certified") -> List[List[Value]]:
        """The post-impact velocities of one law (several where the law is not unique);
        ``ValueError`` when the law gives none, with its reason."""
        if law not in law_names():
            raise ValueError(f"law: unknown law {law!r} (one of {', '.join(law_names())})")
        row = next(r for r in self.laws(velocity, arith)["laws"] if r["law"] == law)
        if not row["outcomes"]:
            raise ValueError(f"{law}: {row['note']}")
        return row["outcomes"]

    def __repr__(self) -> str:
        return f"System.from_file({self.source!r})" if self.source != "<string>" else "System(<toml>)"
