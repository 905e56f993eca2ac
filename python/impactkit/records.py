"""From your engine to records: the record ``impactkit regress`` reads (one JSON line;
``examples/engines/record.schema.json``), built from an engine's velocities, and the
generalized velocity read from pybullet, MuJoCo or pymunk objects.

The engine readers only call the engines' own accessors (``getBaseVelocity``, ``qvel``,
``body.velocity``) on what you pass them, so the package does not import or need any
engine. The order of the velocity is the system file's ``coordinates`` order: for the
example systems, ``x1, x2, …`` (cradles: one axis per ball) or ``x, y`` and ``xa, ya, …``
(one disk or several in the plane).

>>> from impactkit.records import record
>>> r = record("examples/systems/cradle3.toml", [0.0, 0.0, 1.0], engine="my-engine",
...            pre=[1, 0, 0], expect="pasquero", tolerance=1e-9, id="cradle-1")
>>> r["output"], r["expect"]
({'v': [0.0, 0.0, 1.0], 'pre': [1.0, 0.0, 0.0]}, {'law': 'pasquero', 'tolerance': 1e-09})
"""

import json
import math
import os
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _bounded, _float, _path, _quoted, law_names

__all__ = ["record", "write", "from_pybullet", "from_mujoco", "from_pymunk"]

PathLike = Union[str, "os.PathLike[str]"]


def _floats(name: str, xs: Any) -> List[float]:
    """Finite floats (JSON has no NaN or inf); errors name the parameter."""
    out = []
    for x in _bounded(name, xs):
        f = _float(name, x)
        if not math.isfinite(f):
            raise ValueError(f"{name}: {f} is not a finite number")
        out.append(f)
    return out


def record(
    system: PathLike,
    post: Sequence[float],
    *,
    engine: str,
    version: Optional[str] = None,
    id: Optional[str] = None,  # noqa: A002 (the record's field)
    pre: Optional[Sequence[float]] = None,
    expect: Optional[str] = None,
    tolerance: float = 1e-9,
    params: Optional[Dict[str, Any]] = None,
    contacts: Optional[Sequence[str]] = None,
    impulses: Optional[Sequence[float]] = None,
) -> Dict[str, Any]:
    """One record: the system file ``system`` (its path as the records file will name
    it: relative to that file, or absolute), the engine's post-impact generalized
    velocity ``post``, optionally its own pre-impact one ``pre`` (checked against the
    file's: a converter that flipped a sign is caught), the law it should match
    (``expect``, within ``tolerance``), the engine's parameters, and the contacts that
    took impulses with the impulses (per unit of the contact's normal)."""
    rec: Dict[str, Any] = {}
    if id is not None:
        rec["id"] = str(id)
    rec["scenario"] = {"file": _path("system", system)}
    eng: Dict[str, Any] = {"name": str(engine)}
    if version is not None:
        eng["version"] = str(version)
    if params is not None:
        if not isinstance(params, dict):
            raise TypeError(f"params: a dict is expected, not {type(params).__name__}")
        eng["params"] = dict(params)
    rec["engine"] = eng
    out: Dict[str, Any] = {"v": _floats("post", post)}
    if pre is not None:
        out["pre"] = _floats("pre", pre)
    if (contacts is None) != (impulses is None):
        raise ValueError("contacts: give the contacts and their impulses together")
    if contacts is not None:
        out["contacts"] = [str(c) for c in _bounded("contacts", contacts)]
        out["impulses"] = _floats("impulses", impulses)
        if len(out["contacts"]) != len(out["impulses"]):
            raise ValueError(f"impulses: {len(out['impulses'])} impulses for {len(out['contacts'])} contacts")
    rec["output"] = out
    if expect is not None:
        if expect not in law_names():
            raise ValueError(f"expect: unknown law {_quoted(expect)} (one of {', '.join(law_names())})")
        tol = _floats("tolerance", [tolerance])[0]
        if tol < 0:
            raise ValueError("tolerance: must be a finite number >= 0")
        rec["expect"] = {"law": expect, "tolerance": tol}
    return rec


def write(path: PathLike, records: Iterable[Dict[str, Any]]) -> int:
    """Writes ``records`` as JSON lines to ``path`` (a temporary file in the same folder,
    renamed when complete: an interrupted run leaves no half file); returns how many."""
    target = _path("path", path)
    folder = os.path.dirname(os.path.abspath(target))
    fd, tmp = tempfile.mkstemp(prefix=".records-", suffix=".tmp", dir=folder)
    n = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r, allow_nan=False) + "\n")
                n += 1
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
    return n


def _read(engine: str, ids: str, read: Any) -> List[float]:
    """``read()``, the engine's accessors called; an object without them names
    ``engine``, an id or index it refuses names ``ids``."""
    try:
        values = read()
    except AttributeError as e:
        raise TypeError(f"{engine}: not the engine's object ({str(e)[:120]})") from None
    except (TypeError, IndexError, KeyError, ValueError) as e:
        raise ValueError(f"{ids}: the engine refused them ({str(e)[:120]})") from None
    return _floats(ids, values)


def _axes(axes: str) -> List[int]:
    if not axes or any(a not in "xyz" for a in axes):
        raise ValueError(f"axes: letters among x, y, z, not {_quoted(axes)}")
    return ["xyz".index(a) for a in axes]


def from_pybullet(p: Any, bodies: Sequence[int], axes: str = "x") -> List[float]:
    """The generalized velocity of ``bodies`` (pybullet body unique ids, in the order of
    the system's coordinates) from ``p.getBaseVelocity`` (``p``: the ``pybullet`` module
    or a ``BulletClient``), the components ``axes`` of each body's linear velocity
    (``"x"`` for a cradle along x, ``"xy"`` for disks in the plane)."""
    k = _axes(axes)
    ids = _bounded("bodies", bodies)
    return _read("p", "bodies", lambda: [p.getBaseVelocity(b)[0][i] for b in ids for i in k])


def from_mujoco(data: Any, dofs: Sequence[int]) -> List[float]:
    """The generalized velocity from MuJoCo's ``data.qvel`` at the degrees of freedom
    ``dofs`` (e.g. the ``dofadr`` of each slide joint), in the system's order."""
    ids = _bounded("dofs", dofs)
    return _read("data", "dofs", lambda: [data.qvel[d] for d in ids])


def from_pymunk(bodies: Sequence[Any], axes: str = "x") -> List[float]:
    """The generalized velocity of pymunk ``bodies`` (in the system's order), the
    components ``axes`` (``"x"`` or ``"xy"``) of each ``body.velocity``."""
    k = _axes(axes)
    if 2 in k:
        raise ValueError("axes: pymunk is two-dimensional (x, y)")
    ids = _bounded("bodies", bodies)
    return _read("bodies", "bodies", lambda: [b.velocity[i] for b in ids for i in k])
