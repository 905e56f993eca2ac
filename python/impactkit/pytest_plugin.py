"""The pytest plugin of impactkit: the ``impact`` fixture, a summary at the end of the
run, and the checked impacts as records.

Installed with the package (the ``pytest11`` entry point), so an engine's test suite
needs no ``conftest.py``::

    def test_cradle(impact):
        post = run_my_engine_on_the_cradle()           # the engine's velocity after impact
        impact(System.cradle(3), post, "newton-approaching", pre=[1, 0, 0])

``impact(system, post, law=None, tol=None, *, pre=None)`` is
``impactkit.testing.assert_impact`` (the same argument order, the same one-line failure)
with the law and tolerance defaulting to the ini options ``impact_law``
(``newton-touching``) and ``impact_tolerance`` (``1e-9``). At the end of the run the
terminal summary counts the checks and the nearest laws the engine landed on.
``pytest --impact-records PATH`` writes every check as a record (JSON lines,
``examples/engines/record.schema.json``, with the law as the record's expectation), so
``impactkit regress PATH`` re-runs the suite's impacts without the engine.
"""

import hashlib
import os
import tempfile
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence

import pytest

from . import Input, System, _list, law_names
from . import records as _records
from .testing import check, failure

_OBSERVED = pytest.StashKey[List[Dict[str, Any]]]()


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("impactkit", "impactkit: exact impact laws")
    group.addoption(
        "--impact-records",
        metavar="PATH",
        default=None,
        help="write every impact the `impact` fixture checked as a record (JSON lines) "
        "to PATH, for `impactkit regress PATH`",
    )
    parser.addini("impact_law", "the `impact` fixture's default law", default="newton-touching")
    parser.addini("impact_tolerance", "the `impact` fixture's default tolerance", default="1e-9")


def pytest_configure(config: Any) -> None:
    config.stash[_OBSERVED] = []
    path = config.getoption("impact_records", None)
    if path:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or os.path.isdir(path):
            raise pytest.UsageError(f"--impact-records: {path!r} is not a file in an existing folder")
    _tolerance(config)  # a bad ini value stops the run at once, naming the option
    law = config.getini("impact_law")
    if law not in law_names():
        raise pytest.UsageError(f"impact_law: unknown law {law!r} (one of {', '.join(law_names())})")


def _tolerance(config: Any) -> float:
    text = config.getini("impact_tolerance")
    try:
        tol = float(text)
    except ValueError:
        raise pytest.UsageError(f"impact_tolerance: expected a number, not {text!r}") from None
    if not tol >= 0 or tol == float("inf"):
        raise pytest.UsageError(f"impact_tolerance: must be a finite number >= 0, not {text!r}")
    return tol


class Impact:
    """The ``impact`` fixture: checks one engine observation against a law, exactly."""

    def __init__(self, config: Any, nodeid: str):
        self._config = config
        self._nodeid = nodeid

    def __call__(
        self,
        system: System,
        post: Sequence[float],
        law: Optional[str] = None,
        tol: Optional[float] = None,
        *,
        pre: Optional[Sequence[Input]] = None,
    ) -> Dict[str, Any]:
        """Asserts that ``post`` lies within ``tol`` of an outcome of ``law`` and returns
        the exact report (``impactkit.testing.check``)."""
        __tracebackhide__ = True
        law = self._config.getini("impact_law") if law is None else law
        tol = _tolerance(self._config) if tol is None else tol
        report = check(system, post, law, tol, pre=pre)
        self._config.stash[_OBSERVED].append(
            {
                "test": self._nodeid,
                "system": system,
                "post": [float(x) for x in post],
                "pre": None if pre is None else _list("pre", pre),
                "law": law,
                "tol": float(tol),
                "pass": bool(report["expect"]["pass"]),
                "nearest": "=".join(report["nearest"]) or "none",
            }
        )
        message = failure(report, post, law, tol)
        if message is not None:
            raise AssertionError(message)
        return report


@pytest.fixture
def impact(request: Any) -> Impact:
    """Checks an engine's post-impact velocity against an impact law, exactly:
    ``impact(system, post, law, tol, pre=...)``; see ``impactkit.pytest_plugin``."""
    return Impact(request.config, request.node.nodeid)


def _scenario(system: System, folder: str, pre: Optional[List[str]]) -> Dict[str, Any]:
    """The record's scenario: the system's own file where it has one, else its text
    written once (by content) next to the records, with the check's ``pre`` as the
    scenario's velocity."""
    if system.source != "<string>" and os.path.isfile(system.source):
        path = os.path.abspath(system.source)
    else:
        digest = hashlib.sha256(system.toml.encode()).hexdigest()[:16]
        path = os.path.join(folder, f"system-{digest}.toml")
        if not os.path.exists(path):
            # whole or not at all: a temporary name, renamed when written
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".system-", suffix=".tmp", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(system.toml)
            os.replace(tmp, path)
    scenario: Dict[str, Any] = {"file": os.path.abspath(path)}
    if pre is not None:
        scenario["velocity"] = pre
    return scenario


def _write_records(path: str, observed: List[Dict[str, Any]]) -> int:
    folder = os.path.splitext(os.path.abspath(path))[0] + ".systems"
    recs = []
    for i, o in enumerate(observed, 1):
        scenario = _scenario(o["system"], folder, o["pre"])
        r = _records.record(scenario["file"], o["post"], engine="pytest", id=f"{i}:{o['test']}", expect=o["law"], tolerance=o["tol"])
        r["scenario"] = scenario
        recs.append(r)
    return _records.write(path, recs)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    observed = config.stash.get(_OBSERVED, [])
    if not observed:
        return
    tr = terminalreporter
    failed = sum(not o["pass"] for o in observed)
    tr.write_sep("-", "impactkit")
    tr.write_line(f"{len(observed)} impacts checked exactly: {len(observed) - failed} within tolerance, {failed} outside")
    nearest = Counter(o["nearest"] for o in observed)
    for group, n in sorted(nearest.items(), key=lambda kv: (-kv[1], kv[0])):
        tr.write_line(f"  nearest {group}: {n}")
    path = config.getoption("impact_records")
    if path:
        n = _write_records(path, observed)
        tr.write_line(f"records: {n} written to {path} (impactkit regress {path})")
