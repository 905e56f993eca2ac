"""The Python package against the command line: the same numbers, the same errors."""

import json
import os
import pathlib
import subprocess
from fractions import Fraction

import pytest

import impactkit
from impactkit import Exact, Interval, System
from impactkit.testing import assert_impact, check

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("IMPACTKIT_BIN", str(ROOT / "target" / "release" / "impactkit"))


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, cwd=ROOT)


def test_numbers_are_what_they_are():
    assert impactkit.eval("1/3 + 1/6") == Fraction(1, 2)
    assert impactkit.eval("2^100") == 2**100
    assert str(impactkit.eval("tan(pi/6)", arith="quadratic")) == "1/3*sqrt(3)"
    assert impactkit.eval("cos(pi/16)", arith="algebraic") == impactkit.eval("cos(pi/16)", arith="algebraic")
    assert abs(float(impactkit.eval("sqrt(2)", arith="quadratic")) - 2**0.5) < 1e-15
    x = impactkit.eval("sqrt(2)", arith="mpi:200")
    assert isinstance(x, Interval) and isinstance(x.lo, Fraction)
    assert x.lo * x.lo <= 2 <= x.hi * x.hi and x.width < Fraction(1, 10**59)
    assert impactkit.eval("0.1", arith="f64") == 0.1


@pytest.mark.parametrize(
    "expr, arith",
    [("1/0", "exact"), ("sqrt(2)", "exact"), ("1 +", "exact"), ("pi", "quadratic")],
)
def test_bad_input_is_a_value_error_with_the_cli_message(expr, arith):
    with pytest.raises(ValueError) as e:
        impactkit.eval(expr, arith=arith)
    r = cli("eval", expr, "--arith", arith)
    assert r.returncode == 2
    assert r.stderr.strip() == f"error: {e.value}"


def test_an_unknown_arithmetic_names_the_option_and_the_reason():
    with pytest.raises(ValueError) as e:
        impactkit.eval("1", arith="f65")
    option, reason = str(e.value).split(": ", 1)
    assert option == "--arith"
    r = cli("eval", "1", "--arith", "f65")
    assert r.returncode == 2 and reason in r.stderr and "--arith" in r.stderr


def test_inputs_are_taken_exactly():
    # a float is its binary value; a Fraction and an expression are exact
    c = System.cradle(3, masses=[1, Fraction(1, 2), "sqrt(4)"], restitution=0.5)
    report = c.laws(velocity=[0.1, 0, 0])
    assert report["system"]["masses"] == [1, Fraction(1, 2), 2]
    assert report["system"]["velocity"][0] == Fraction(0.1)
    assert report["system"]["restitution"] == [Fraction(1, 2)] * 2
    with pytest.raises(ValueError, match="finite"):
        c.laws(velocity=[float("nan"), 0, 0])
    with pytest.raises(TypeError):
        c.laws(velocity=[None, 0, 0])


def _cli_laws(path, arith):
    r = cli("laws", str(path), "--arith", arith, "--format", "json")
    assert r.returncode == 0, r.stderr
    return impactkit._convert(json.loads(r.stdout))


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "systems").glob("*.toml")), ids=lambda p: p.stem)
def test_every_example_system_gives_the_cli_numbers(path):
    system = System.from_file(path)
    for arith in ["certified", "f64"]:
        ours = system.laws(arith=arith)
        theirs = _cli_laws(path, arith)
        for key in ["laws", "agreement", "groups", "system", "arith", "agreement_decided_by"]:
            assert ours.get(key) == theirs.get(key), (path.name, arith, key)


def test_bad_system_files_name_the_problem():
    with pytest.raises(ValueError, match="velocity"):
        System.from_toml('name = "x"\nmasses = ["1"]\n')
    text = (ROOT / "examples/systems/cradle3.toml").read_text().replace('masses = ["1", "1", "1"]', 'masses = ["1", "-1", "1"]')
    with pytest.raises(ValueError) as e:
        System.from_toml(text).laws()
    assert "masses" in str(e.value) or "mass" in str(e.value)


def test_assert_impact_passes_and_names_the_nearest_law():
    cradle = System.cradle(3)
    assert_impact(cradle, pre=[1, 0, 0], post=[0.0, 0.0, 1.0], law="newton-approaching")
    assert_impact(cradle, pre=[1, 0, 0], post=[-1 / 3, 2 / 3, 2 / 3], law="newton-touching", tol=1e-15)
    with pytest.raises(AssertionError) as e:
        # an LCP engine's "wrong" cradle is Newton over both touching contacts
        assert_impact(cradle, pre=[1, 0, 0], post=[-1 / 3, 2 / 3, 2 / 3], law="pasquero")
    msg = str(e.value)
    assert "nearest: newton-touching=poisson at 3.7e-17" in msg and "energy change" in msg
    # exact: one ulp off Newton's outcome is outside a zero tolerance, inside 1e-15
    report = check(cradle, [-1 / 3, 2 / 3, 2 / 3], "newton-touching", 0.0, pre=[1, 0, 0])
    row = next(r for r in report["laws"] if r["law"] == "newton-touching")
    assert row["outcome"] == [Fraction(-1, 3), Fraction(2, 3), Fraction(2, 3)]
    exact = [Fraction(-1, 3), Fraction(2, 3), Fraction(2, 3)]
    assert row["distance"] == max(abs(Fraction(x) - y) for x, y in zip([-1 / 3, 2 / 3, 2 / 3], exact))
    assert report["expect"]["pass"] is False
    with pytest.raises(ValueError, match="unknown law"):
        assert_impact(cradle, pre=[1, 0, 0], post=[0, 0, 1], law="newtons")
    # one argument order everywhere (issue 62): system, post, law, tol, as regress.check
    # and the Rust impactkit::regress::check; pre only by name in impactkit.testing
    post = [0.0, 0.0, 1.0]
    assert check(cradle, post, "pasquero", 1e-12) == impactkit.regress.check(cradle, post, "pasquero", 1e-12)
    assert_impact(cradle, post, "pasquero", 1e-12)
    with pytest.raises(TypeError):
        check(cradle, post, "pasquero", 1e-12, [1, 0, 0])  # type: ignore[misc]


def test_a_failing_assert_impact_is_short_under_pytest(tmp_path):
    # issue 62: the failure printed about 40 lines of the helper's source; now the
    # caller's line and one message with the engine's own velocity
    import subprocess
    import sys

    test = tmp_path / "test_engine.py"
    test.write_text(
        "from impactkit import System\n"
        "from impactkit.testing import assert_impact\n"
        "def test_engine():\n"
        "    assert_impact(System.cradle(3), pre=[1, 0, 0], post=[0.0, 0.3, 0.7], law='newton-touching')\n"
    )
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
        capture_output=True, text=True, cwd=tmp_path,
    ).stdout
    body = out.split("_ test_engine _")[1].split("short test summary")[0]
    lines = [l for l in body.splitlines() if l.strip() and not set(l.strip()) <= set("=_")]
    assert len(lines) <= 5, out
    assert "def assert_impact" not in out, out
    assert "engine [0, 0.3, 0.7] vs newton-touching [-1/3, 2/3, 2/3]" in out, out


def test_an_undecided_sign_is_said_not_guessed():
    # pi in a normal: no exact arithmetic holds it, and two laws' outcomes that are equal
    # cannot be shown equal by enclosures
    text = (ROOT / "examples/systems/cradle5.toml").read_text().replace(
        'normal = ["0", "-1", "1", "0", "0"]', 'normal = ["0", "-1", "pi", "0", "0"]'
    )
    report = System.from_toml(text).laws(arith="interval")
    assert report["agreement_decided_by"] is None
    assert any(row["agree"] is None for row in report["agreement"])
    for row in report["laws"]:
        for outcome in row["outcomes"]:
            assert all(isinstance(x, Interval) for x in outcome)


def _python_blocks(path):
    text = path.read_text()
    blocks, inside, cur = [], False, []
    for line in text.splitlines():
        if line.strip() == "```python":
            inside, cur = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(cur))
        elif inside:
            cur.append(line)
    return blocks


@pytest.mark.parametrize("doc", ["README.md", "docs/python.md"])
def test_the_documented_examples_run_as_written(doc):
    blocks = _python_blocks(ROOT / doc)
    assert blocks, doc
    for code in blocks:
        exec(compile(code, doc, "exec"), {})


@pytest.mark.parametrize("name", ["pybullet.jsonl", "pymunk.jsonl", "mujoco.jsonl", "wrong-expect.jsonl"])
def test_engine_records_through_regress_give_the_cli_report(name):
    path = ROOT / "examples" / "engines" / "records" / name
    ours = impactkit.regress(path, jobs=2)
    r = cli("regress", str(path), "--format", "json")
    theirs = impactkit._convert(json.loads(r.stdout))
    assert r.returncode == (1 if theirs["failed"] else 0)
    assert ours["records"] == theirs["records"]
    assert ours["engines"] == theirs["engines"]
    assert (ours["failed"], ours["errors"]) == (theirs["failed"], theirs["errors"])
    assert len(ours["records"]) > 0


def test_a_records_file_that_is_not_one_is_a_value_error(tmp_path):
    with pytest.raises(ValueError):
        impactkit.regress(tmp_path)
    with pytest.raises(ValueError):
        impactkit.regress(tmp_path / "missing.jsonl")


def test_the_corner_builder_gives_the_papers_reflection():
    # alpha = pi/4, v = (1, 1/2): both walls approached; Newton's law over both gives -v
    corner = System.corner("pi/4", [1, Fraction(1, 2)])
    assert corner.outcomes("newton-touching") == [[Fraction(-1), Fraction(-1, 2)]]
    # the same system as the example file
    ours = corner.laws()["laws"]
    theirs = System.from_file(ROOT / "examples/systems/corner-pi4.toml").laws()["laws"]
    assert [r["outcomes"] for r in ours] == [r["outcomes"] for r in theirs]
    with pytest.raises(ValueError, match="restitution"):
        System.corner("pi/4", [1, 0], restitution=[1, 1, 1])


def test_numpy_scalars_are_numbers_if_numpy_is_there():
    np = pytest.importorskip("numpy")
    c = System.cradle(3, masses=np.array([1, 2, 3]))
    assert c.laws(velocity=np.array([1.0, 0.0, 0.0]))["system"]["masses"] == [1, 2, 3]


def test_the_example_tour_runs(capsys, tmp_path):
    import runpy

    old = os.getcwd()
    os.chdir(ROOT)
    try:
        tour = runpy.run_path(str(ROOT / "examples" / "python" / "tour.py"))
        tour["main"](str(tmp_path / "corner.png"))
    finally:
        os.chdir(old)
    out = capsys.readouterr().out
    assert "3-ball cradle, e = 1/2 (agreement decided in exact)" in out
    assert "newton-touching     (0, 1/2, 1/2)" in out
    assert "pybullet:" in out


def _cli_json(*args):
    r = cli(*args, "--format", "json")
    assert r.returncode == 0, r.stderr
    return impactkit._convert(json.loads(r.stdout))


def test_runs_give_the_cli_numbers():
    ours = impactkit.corner("pi/6", [1, "tan(pi/12)"], eps=Fraction(1, 2), arith="quadratic")
    theirs = _cli_json("corner", "--alpha", "pi/6", "--v0", "1,tan(pi/12)", "--eps", "1/2", "--arith", "quadratic")
    for key in ["zones", "final", "termination", "steps"]:
        assert ours[key] == theirs[key], key
    ours = impactkit.cradle(4, eps=[1, Fraction(1, 2), 0], masses=[1, 2, 3, 4], arith="exact")
    theirs = _cli_json("cradle", "--balls", "4", "--eps", "1,1/2,0", "--masses", "1,2,3,4", "--arith", "exact")
    for key in ["final", "termination", "iterations"]:
        assert ours[key] == theirs[key], key
    normals = [["-1", "1", "0"], ["0", "-1", "1"]]
    ours = impactkit.propagate([1, 1, 1], normals, [1, 0, 0])
    theirs = _cli_json("propagate", "--masses", "1,1,1", "--normals", "-1,1,0;0,-1,1", "--momentum", "1,0,0", "--arith", "exact")
    assert ours["outcomes"] == theirs["outcomes"] == [[0, 0, 1]]
    assert ours["sequences"] == theirs["sequences"]
    path = ROOT / "examples/step/ball-gravity.toml"
    ours = impactkit.step(path, "1/10", 12, "inelastic", eps="1/2", arith="quadratic")
    theirs = _cli_json("step", "--system", str(path), "--dt", "1/10", "--steps", "12", "--law", "inelastic", "--eps", "1/2", "--arith", "quadratic")
    assert ours["nodes"] == theirs["nodes"] and ours["impacts"] == theirs["impacts"]
    # a general Lagrangian system ([lagrangian]: M(q), a curved gap), certified
    path = ROOT / "examples/step/double-pendulum-wall.toml"
    ours = impactkit.step(path, "1/20", 6, "elastic")
    theirs = _cli_json("step", "--system", str(path), "--dt", "1/20", "--steps", "6", "--law", "elastic")
    assert ours["impacts"] == theirs["impacts"] and len(ours["impacts"]) == 1
    assert ours["nodes"] == theirs["nodes"] and ours["arith"] == theirs["arith"] == "interval"
    # rigid bodies ([[lagrangian.body]]): TREX's drop, the tail then the right foot
    path = ROOT / "examples/step/trex-initial.toml"
    ours = impactkit.step(path, "1/1000", 200, "elastic", arith="f64")
    theirs = _cli_json("step", "--system", str(path), "--dt", "1/1000", "--steps", "200", "--law", "elastic", "--arith", "f64")
    assert ours["impacts"] == theirs["impacts"] and len(ours["impacts"]) == 2
    # Fig. 8's optimized gait: one simultaneous strike (together), both orders compared
    path = ROOT / "examples/step/trex-fig8-optimized.toml"
    ours = impactkit.step(path, "1/1000", 190, "elastic", arith="f64", together="1e-9", compare_orders=True)
    theirs = _cli_json("step", str(path), "--dt", "1/1000", "--steps", "190", "--law", "elastic", "--arith", "f64", "--together", "1e-9", "--compare-orders")
    assert ours["indeterminacy"] == theirs["indeterminacy"]
    assert ours["impacts"][0]["active"] == ["tail", "foot"]
    with pytest.raises(ValueError, match="--together"):
        impactkit.step(path, "1/1000", 5, "elastic", arith="f64", together="-1")
    ours = impactkit.penny("plastic", impacts=3)
    theirs = _cli_json("penny", "run", "--law", "plastic", "--impacts", "3")
    assert ours["impacts"] == theirs["impacts"]


def test_verify_gives_the_cli_verdicts():
    files = sorted(str(p) for p in (ROOT / "proofs" / "fp").glob("fp-example-pi4*.toml"))
    ours = impactkit.verify(files, jobs=2)
    theirs = _cli_json("verify", *files)
    assert [(c["id"], c["verdict"], c["detail"]) for c in ours] == [
        (c["id"], c["verdict"], c["detail"]) for c in theirs["claims"]
    ]
    refuted = next(c for c in ours if c["verdict"] == "refuted")
    assert refuted["counterexample"] is not None
    with pytest.raises(ValueError, match="--only: no claim"):
        impactkit.verify(files, only="no-such-claim")
    with pytest.raises(ValueError, match="--jobs"):
        impactkit.verify(files, jobs=0)


def test_the_corner_audit_gives_the_cli_summary():
    from impactkit import audit

    run = audit.corner(alpha="pi/64..pi/4", direction="-alpha..alpha", eps="0.5..1", samples=60, seed=7)
    theirs = json.loads(cli(
        "audit", "corner", "--alpha", "pi/64..pi/4", "--direction", "-alpha..alpha", "--eps", "0.5..1",
        "--samples", "60", "--seed", "7", "--format", "json",
    ).stdout)
    assert run.summary == impactkit._convert(theirs["summary"]) and run.config == theirs["config"]
    assert len(run.records) == 60 and run.summary["samples"] == 60
    with pytest.raises(ValueError, match="--samples"):
        audit.corner(alpha="pi/6", eps=1, direction="0")
    with pytest.raises(ValueError, match="--alpha"):
        audit.corner(alpha="pi", eps=1, direction="0", samples=3)


def test_a_system_from_its_parts_is_the_file():
    parts = System(
        masses=[1, 1, 1], velocity=[1, 0, 0], normals=[[-1, 1, 0], [0, -1, 1]], restitution=1, names=["12", "23"]
    )
    assert parts.laws()["laws"] == System.cradle(3).laws()["laws"]
    m = System(mass_matrix=[[2, 0], [0, 1]], velocity=[1, 0], normals=[[-1, 1]], restitution=[0])
    assert m.outcomes("newton-touching") == [[Fraction(2, 3), Fraction(2, 3)]]
    with pytest.raises(ValueError, match="give a file's text"):
        System(masses=[1])
    with pytest.raises(ValueError, match="names"):
        System(masses=[1, 1], velocity=[1, 0], normals=[[-1, 1]], names=["a", "b"])
    rack = System.billiard("pi/3")
    theirs = System.from_file(ROOT / "examples/systems/billiard-pi3.toml")
    assert [r["outcomes"] for r in rack.laws()["laws"]] == [r["outcomes"] for r in theirs.laws()["laws"]]


def test_an_undecided_run_returns_undecided():
    # momentum pi - pi: interval arithmetic cannot decide the sign of <p, u1>_g
    r = impactkit.propagate([1, 1], [[-1, 1]], ["pi - pi", 0], arith="interval")
    assert isinstance(r, impactkit.Undecided) and not r
    assert r.quantity == "<p, u1>_g" and Fraction(r.lo) < 0 < Fraction(r.hi)
    theirs = json.loads(cli("propagate", "--masses", "1,1", "--normals", "-1,1", "--momentum", "pi-pi,0",
                            "--arith", "interval", "--format", "json").stdout)
    assert theirs["undecided"] == {"quantity": r.quantity, "lo": r.lo, "hi": r.hi}
    # a run that reports its own undecided step (the corner) says so in its report
    r = impactkit.corner("pi/6", ["cos(pi/6)", "sin(pi/6)"], arith="interval")
    assert r["termination"] == "undecided" and r["undecided"]["quantity"] == "eta - S"
    # and the certified ladder decides it
    assert impactkit.corner("pi/6", ["cos(pi/6)", "sin(pi/6)"])["termination"] != "undecided"


def test_ctrl_c_stops_a_long_audit():
    import _thread
    import signal
    import threading
    import time

    from impactkit import audit

    # a process started in the background ignores SIGINT (CI does): Python's own handler,
    # as an interactive session has it, for the length of the test
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            audit.corner(alpha="pi/64..pi/4", direction="-alpha..alpha", eps="0..1", samples=200_000, jobs=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert time.monotonic() - start < 30
    # and the next run is not cancelled
    assert audit.corner(alpha="pi/6", direction="0", eps=1, samples=2).summary["samples"] == 2


def test_unjoinable_number_fields_are_a_value_error_naming_arith():
    # issue 63, D2: the two fields meet inside the law; a ValueError, not a PanicException
    with pytest.raises(ValueError, match=r"^--arith: .*Q\(cos\(pi/28\)\) and Q\(cos\(pi/9\)\)"):
        impactkit.corner("pi/7", ["cos(pi/9)", "sin(pi/9)"], eps="sqrt(2)/2", arith="algebraic")


@pytest.mark.parametrize(
    "call, option",
    [
        (lambda: impactkit.corner("pi/6", [1, 0], max_steps=-1), "--max-steps"),
        (lambda: impactkit.corner("pi/6", [1, 0], max_steps=10**30), "--max-steps"),
        (lambda: impactkit.corner("pi/6", [1, 0], max_digits=-5), "--max-digits"),
        (lambda: impactkit.corner("pi/6", [1, 0], max_bits=-1), "--max-bits"),
        (lambda: impactkit.cradle(-3, eps=1), "--balls"),
        (lambda: impactkit.propagate([1, 1], [[1, 0], [0, 1]], [1, 1], max_steps=-2), "--max-steps"),
        (lambda: impactkit.regress(ROOT / "examples/engines/records/pymunk.jsonl", jobs=-1), "--jobs"),
    ],
)
def test_integers_out_of_range_are_value_errors_naming_the_option(call, option):
    # issue 63, D10: never an OverflowError naming nothing
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(option + ":"), str(e.value)


def test_messages_are_one_short_line():
    # issue 63, D10: a huge or multi-line value is elided and escaped, as on the command line
    with pytest.raises(ValueError) as e:
        impactkit.eval("1", arith="x" * 10**6)
    assert len(str(e.value)) <= 200 and "\n" not in str(e.value)
    with pytest.raises(ValueError) as e:
        impactkit.eval("1 +\n2 +")
    assert "\n" not in str(e.value)


def test_the_cli_limits_apply_before_anything_is_built(tmp_path):
    # issue 63, D8: System.cradle(10**6) aborted the interpreter building its lists
    for n in (10**6, 34, 1, -1):
        with pytest.raises(ValueError, match="^--balls: "):
            System.cradle(n)
    assert System.cradle(33).source == "cradle(33)"
    with pytest.raises(ValueError, match="^masses: "):
        System.cradle(3, masses=[1] * 2000)


def test_files_are_regular_files_read_as_the_cli_reads_them(tmp_path):
    # issue 63, D9: a FIFO is refused at once, never waited on
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="regular file|FIFO"):
        System.from_file(fifo)
    with pytest.raises(ValueError, match="regular file|FIFO"):
        impactkit.step(fifo, dt="1/10", steps=1, law="elastic")
    with pytest.raises(ValueError):
        System.from_file(tmp_path)


def test_regress_streams_its_records_in_file_order():
    # issue 63, D9: a generator for large files; regress() is built on the same stream
    path = ROOT / "examples/engines/records/pymunk.jsonl"
    whole = impactkit.regress(path, jobs=2)
    streamed = list(impactkit.regress_records(path, jobs=2))
    assert streamed == whole["records"] and len(streamed) == 48
    assert [r["line"] for r in streamed] == list(range(1, 49))
    # stopping early stops the run (no hang, no error)
    first = next(impactkit.regress_records(path))
    assert first["line"] == 1
    fifo_dir = ROOT / "target" / "tmp"
    fifo_dir.mkdir(parents=True, exist_ok=True)
    fifo = fifo_dir / f"records-{os.getpid()}.jsonl"
    if not fifo.exists():
        os.mkfifo(fifo)
    try:
        with pytest.raises(ValueError):
            next(impactkit.regress_records(fifo))
    finally:
        fifo.unlink()


def test_lzb_rows_and_a_compliant_engine_within_the_certified_limit():
    # issue 61: a file with an [lzb] table gets the compliant law's two rows
    hertz = System.from_file(ROOT / "examples" / "systems" / "cradle3-hertz.toml")
    rows = {r["law"]: r for r in hertz.laws()["laws"]}
    assert {"lzb", "lzb-limit"} <= set(rows)
    # the Hertz chain's time integration lies within 10^-3 of the certified limit
    assert_impact(hertz, pre=None, post=[-0.07095, 0.07640, 0.99455], law="lzb-limit", tol=1e-3)
    with pytest.raises(AssertionError, match="nearest: lzb"):
        assert_impact(hertz, pre=None, post=[-0.07095, 0.07640, 0.99455], law="pasquero", tol=1e-3)


def test_lzb_on_a_file_without_its_table_says_why():
    with pytest.raises(ValueError, match=r"no \[lzb\] table"):
        System.cradle(3).outcomes("lzb")


def test_records_from_engine_objects_round_trip_through_regress(tmp_path):
    # issue 62: converters from the engines' own objects to records; fakes with the
    # engines' accessors stand in for pybullet, MuJoCo and pymunk (none is a dependency)
    from collections import namedtuple

    from impactkit import records

    class Bullet:  # pybullet's getBaseVelocity: ((vx, vy, vz), (wx, wy, wz))
        def getBaseVelocity(self, body):
            return ((0.0, 0.0, 0.0), (0, 0, 0)) if body < 2 else ((1.0, 0.0, 0.0), (0, 0, 0))

    Data = namedtuple("Data", "qvel")
    Body = namedtuple("Body", "velocity")
    post_b = records.from_pybullet(Bullet(), [0, 1, 2], axes="x")
    post_m = records.from_mujoco(Data(qvel=[9.0, 0.0, 0.0, 1.0]), dofs=[1, 2, 3])
    post_p = records.from_pymunk([Body((0.0, 0.0)), Body((0.0, 0.0)), Body((1.0, 0.0))], axes="x")
    assert post_b == post_m == post_p == [0.0, 0.0, 1.0]
    system = str(ROOT / "examples/systems/cradle3.toml")
    recs = [
        records.record(system, post_b, engine="bullet-fake", id="b", pre=[1, 0, 0], expect="pasquero"),
        records.record(system, post_m, engine="mujoco-fake", id="m", expect="newton-touching", tolerance=1e-6),
        records.record(system, post_p, engine="pymunk-fake", id="p", contacts=["23"], impulses=[1.0]),
    ]
    path = tmp_path / "engine.jsonl"
    assert records.write(path, recs) == 3
    run = impactkit.regress(path)
    got = {r["id"]: r for r in run["records"]}
    assert got["b"]["nearest"][0] == "pasquero" and got["b"]["expect"]["pass"] is True
    assert got["m"]["expect"]["pass"] is False  # Newton over both contacts differs
    assert run["failed"] == 1 and run["errors"] == 0
    with pytest.raises(ValueError, match="^expect: unknown law"):
        records.record(system, post_b, engine="x", expect="newtons")
    with pytest.raises(ValueError, match="^post: nan is not a finite number"):
        records.record(system, [float("nan"), 0, 1], engine="x")
    with pytest.raises(ValueError, match="^axes: "):
        records.from_pymunk([Body((0.0, 0.0))], axes="xz")
    assert not list(tmp_path.glob(".records-*"))


def test_the_pytest_plugin_checks_counts_and_writes_records(tmp_path):
    # issue 62: the `impact` fixture (entry point pytest11), its summary, its records
    import subprocess
    import sys

    cradle = (ROOT / "examples/systems/cradle3.toml").as_posix()
    (tmp_path / "test_engine.py").write_text(
        "from impactkit import System\n"
        "def test_sequential(impact):\n"
        "    impact(System.cradle(3), [0.0, 0.0, 1.0], 'newton-approaching', pre=[1, 0, 0])\n"
        "def test_lcp(impact):\n"
        f"    impact(System.from_file({cradle!r}), [-1 / 3, 2 / 3, 2 / 3], tol=1e-15)\n"
        "def test_wrong(impact):\n"
        "    impact(System.cradle(3), [0.0, 0.3, 0.7], pre=[1, 0, 0])\n"
    )
    records_path = tmp_path / "out" / "impacts.jsonl"
    records_path.parent.mkdir()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_engine.py", "--impact-records", str(records_path)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    out = run.stdout
    assert run.returncode == 1, out
    assert "3 impacts checked exactly: 2 within tolerance, 1 outside" in out, out
    assert "nearest pasquero=seghete-murphey=newton-approaching=winandy-leine: 2" in out, out
    assert "nearest newton-touching=poisson: 1" in out, out
    body = out.split("_ test_wrong _")[1].split("impactkit")[0]
    lines = [l for l in body.splitlines() if l.strip() and not set(l.strip()) <= set("=_-")]
    assert len(lines) <= 5, out
    assert "engine [0, 0.3, 0.7] vs newton-touching [-1/3, 2/3, 2/3]" in out, out
    # the records re-run the suite's impacts without the engine: the same verdicts
    report = impactkit.regress(str(records_path))
    assert [r["expect"]["pass"] for r in report["records"]] == [True, True, False]
    assert report["failed"] == 1
    # a bad ini value stops the run at once, naming the option
    (tmp_path / "pytest.ini").write_text("[pytest]\nimpact_law = newtons\n")
    bad = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_engine.py"], capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 4 and "impact_law: unknown law 'newtons'" in bad.stderr, bad.stderr
    (tmp_path / "pytest.ini").unlink()
    nowhere = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_engine.py", "--impact-records", "no/such/folder/r.jsonl"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert nowhere.returncode == 4 and "--impact-records: 'no/such/folder/r.jsonl'" in nowhere.stderr, nowhere.stderr
    assert "Traceback" not in nowhere.stderr + nowhere.stdout
