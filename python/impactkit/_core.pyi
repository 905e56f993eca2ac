"""The compiled module (PyO3): numbers in impactkit's JSON shapes; see impactkit/__init__.py."""

from typing import Any, Dict, List, Optional

__version__: str

def eval(expr: str, arith: str = "exact") -> Dict[str, str]: ...
def laws(
    toml: str,
    source: str = "<string>",
    arith: str = "certified",
    velocity: Optional[List[str]] = None,
    max_steps: int = 1000,
    max_digits: int = 20000,
    max_reflections: int = 50000,
    max_bits: int = 3392,
) -> Dict[str, Any]: ...
def cradle_toml(masses: List[str], velocity: List[str], restitution: str) -> str: ...
def corner_toml(alpha: str, velocity: List[str], eps1: str, eps2: str, mass: str) -> str: ...
def check_system(toml: str, source: str = "<string>") -> None: ...
def read_system_file(path: str) -> str: ...
def check_cradle_balls(n: int) -> None: ...
def law_names() -> List[str]: ...
def check(
    toml: str,
    observed: List[float],
    law: str,
    tolerance: float,
    source: str = "<string>",
    velocity: Optional[List[str]] = None,
) -> Dict[str, Any]: ...
class RecordStream:
    summary: Optional[Dict[str, Any]]
    def __iter__(self) -> "RecordStream": ...
    def __next__(self) -> Dict[str, Any]: ...

def regress_stream(path: str, jobs: int = 1) -> RecordStream: ...
def corner(
    alpha: str,
    v0: List[str],
    eps: Optional[str] = None,
    eps1: Optional[str] = None,
    eps2: Optional[str] = None,
    algorithm: str = "ta",
    threshold: Optional[str] = None,
    rest_threshold: Optional[str] = None,
    max_steps: int = 10000,
    max_digits: int = 20000,
    form: str = "xy",
    arith: str = "certified",
    max_bits: int = 3392,
    trace: bool = False,
) -> Dict[str, Any]: ...
def cradle(
    balls: int,
    eps: List[str],
    masses: Optional[List[str]] = None,
    v0: Optional[List[str]] = None,
    sigma: Optional[str] = None,
    max_steps: int = 10000,
    max_digits: int = 20000,
    trace: bool = False,
    arith: str = "certified",
    max_bits: int = 3392,
) -> Dict[str, Any]: ...
def propagate(
    masses: List[str],
    normals: List[List[str]],
    momentum: List[str],
    eps: Optional[str] = None,
    max_steps: int = 12,
    arith: str = "certified",
) -> Dict[str, Any]: ...
def penny_run(
    law: str,
    table: str = "ellipse",
    impacts: int = 20,
    a: Optional[str] = None,
    b: Optional[str] = None,
    mass: Optional[str] = None,
    radius: Optional[str] = None,
    inertia: Optional[str] = None,
    spin_inertia: Optional[str] = None,
    x0: Optional[str] = None,
    y0: Optional[str] = None,
    theta0: Optional[str] = None,
    phi0: Optional[str] = None,
    rates: Optional[List[str]] = None,
    arith: str = "mpi:128",
) -> Dict[str, Any]: ...
def step(
    toml: str,
    dt: str,
    steps: int,
    law: str,
    eps: Optional[str] = None,
    order: str = "argmin",
    arith: str = "certified",
    source: str = "<string>",
) -> Dict[str, Any]: ...
def verify(
    paths: List[str], only: Optional[str] = None, budget_seconds: float = 120.0, jobs: int = 1
) -> List[Dict[str, Any]]: ...
def audit_corner(
    alpha: str,
    eps: Optional[str] = None,
    direction: Optional[str] = None,
    v0: Optional[str] = None,
    speed: Optional[str] = None,
    eps1: Optional[str] = None,
    eps2: Optional[str] = None,
    algorithm: str = "ta",
    threshold: Optional[str] = None,
    rest_threshold: Optional[str] = None,
    reference_algorithm: Optional[str] = None,
    form: str = "xy",
    max_steps: int = 10000,
    samples: Optional[int] = None,
    grid: Optional[str] = None,
    seed: int = 0,
    arith: str = "f64",
    reference: bool = True,
    max_bits: int = 3392,
    max_digits: int = 20000,
    sample_seconds: float = 10.0,
    jobs: Optional[int] = None,
) -> Dict[str, Any]: ...
def system_toml(
    velocity: List[str],
    normals: List[List[str]],
    masses: Optional[List[str]] = None,
    mass_matrix: Optional[List[List[str]]] = None,
    restitution: Optional[str] = None,
    contact_restitution: Optional[List[str]] = None,
    touching: Optional[List[bool]] = None,
    names: Optional[List[str]] = None,
    coordinates: Optional[List[str]] = None,
    name: Optional[str] = None,
    energetic: Optional[str] = None,
) -> str: ...
def billiard_toml(theta: str, radii: List[str], masses: Optional[List[str]] = None) -> str: ...
