"""The readers of ``impactkit.records`` on the real engines (issue 62).

pymunk, pybullet and MuJoCo run the committed fixture's own scripts
(``examples/engines/eng_*.py``) on a cradle (one axis per ball) and a corner (one disk,
x and y). The engine objects those runs create are captured, read through
``records.from_pymunk``, ``from_pybullet`` and ``from_mujoco``, and must give the
velocities of the committed records bit for bit; the records the readers build must get
the committed records' verdicts from ``regress``. A test skips where its engine is not
installed (``scripts/test-all`` installs the three in its virtual environment).
"""

import json
import pathlib

import pytest

import impactkit
from impactkit import records

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINES = ROOT / "examples" / "engines"
SCENARIOS = [("cradle3.toml", "x"), ("corner-pi4.toml", "xy")]


def _committed(engine: str) -> dict:
    """The committed records of ``engine`` by id, each with its ``regress`` report."""
    lines = (ENGINES / "records" / f"{engine}.jsonl").read_text().splitlines()
    recs = [json.loads(line) for line in lines]
    reports = impactkit.regress(str(ENGINES / "records" / f"{engine}.jsonl"))["records"]
    return {r["id"]: (r, rep) for r, rep in zip(recs, reports)}


def _same_verdict(tmp_path: pathlib.Path, committed: tuple, post: list) -> None:
    """The reader's record gets the committed record's nearest laws and expectation."""
    rec, report = committed
    expect = rec.get("expect", {})
    system = str((ENGINES / "records" / rec["scenario"]["file"]).resolve())
    mine = records.record(system, post, engine=rec["engine"]["name"], id=rec["id"], expect=expect.get("law"), tolerance=expect.get("tolerance", 1e-9))
    path = tmp_path / f"{rec['id']}.jsonl"
    records.write(path, [mine])
    (again,) = impactkit.regress(str(path))["records"]
    assert again["nearest"] == report["nearest"]
    assert again.get("expect") == report.get("expect")


def _agrees(tmp_path: pathlib.Path, engine: str, file: str, label: str, post: list, v: list) -> None:
    """The reader's velocity is the script's and the committed record's, bit for bit, and
    gets the committed record's verdict."""
    committed = _committed(engine)[f"{engine}-{file[:-5]}-{label}"]
    assert post == v == committed[0]["output"]["v"]
    _same_verdict(tmp_path, committed, post)


def _run(mod, common, file: str, label: str):
    cfg = dict(mod.PARAM_SETS)[label]
    system = common.System(file, None, overlap=cfg.get("overlap", 0.0))
    out, _ = mod.run(system, cfg)
    return out["v"]


@pytest.fixture
def scripts(monkeypatch):
    pytest.importorskip("tomllib")  # the fixture's scripts read system files with it (3.11+)
    monkeypatch.syspath_prepend(str(ENGINES))
    import common

    return common


@pytest.mark.parametrize("file,axes", SCENARIOS)
def test_from_pymunk_reads_the_fixture_runs(scripts, monkeypatch, tmp_path, file, axes):
    pymunk = pytest.importorskip("pymunk")
    import eng_pymunk

    made = []

    class Body(pymunk.Body):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(pymunk, "Body", Body)
    label = "touching-dt1e-3-it10"
    v = _run(eng_pymunk, scripts, file, label)
    post = records.from_pymunk(made, axes=axes)
    _agrees(tmp_path, "pymunk", file, label, post, v)


@pytest.mark.parametrize("file,axes", SCENARIOS)
def test_from_pybullet_reads_the_fixture_runs(scripts, monkeypatch, tmp_path, file, axes):
    p = pytest.importorskip("pybullet")
    import eng_pybullet

    balls, clients = [], []
    create, disconnect = p.createMultiBody, p.disconnect

    def createMultiBody(*args, **kwargs):
        bid = create(*args, **kwargs)
        if kwargs.get("baseMass", 0) > 0:
            balls.append(bid)
        return bid

    monkeypatch.setattr(p, "createMultiBody", createMultiBody)
    monkeypatch.setattr(p, "disconnect", lambda cid: clients.append(cid))  # read before it goes

    class Client:
        """A ``BulletClient``'s shape: the module's functions on one connection."""

        def getBaseVelocity(self, body):
            return p.getBaseVelocity(body, physicsClientId=clients[0])

    label = "rigid-si-it50"
    try:
        v = _run(eng_pybullet, scripts, file, label)
        post = records.from_pybullet(Client(), balls, axes=axes)
    finally:
        for cid in clients:
            disconnect(cid)
    _agrees(tmp_path, "pybullet", file, label, post, v)


@pytest.mark.parametrize("file,axes", SCENARIOS)
def test_from_mujoco_reads_the_fixture_runs(scripts, monkeypatch, tmp_path, file, axes):
    mujoco = pytest.importorskip("mujoco")
    import eng_mujoco

    made = []
    new_data = mujoco.MjData

    def MjData(model):
        data = new_data(model)
        made.append((model, data))
        return data

    monkeypatch.setattr(mujoco, "MjData", MjData)
    label = "stiff1e4-d09999"
    v = _run(eng_mujoco, scripts, file, label)
    model, data = made[-1]  # the scenario's run (the first ones calibrate the damping)
    joint = mujoco.mjtObj.mjOBJ_JOINT
    coordinates = len(scripts.System(file).coordinates)
    dofs = [int(model.jnt_dofadr[mujoco.mj_name2id(model, joint, f"q{j}")]) for j in range(coordinates)]
    post = records.from_mujoco(data, dofs)
    _agrees(tmp_path, "mujoco", file, label, post, v)
