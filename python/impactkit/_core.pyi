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
def law_names() -> List[str]: ...
def check(
    toml: str,
    observed: List[float],
    law: str,
    tolerance: float,
    source: str = "<string>",
    velocity: Optional[List[str]] = None,
) -> Dict[str, Any]: ...
def regress(path: str, jobs: int = 1) -> Dict[str, Any]: ...
