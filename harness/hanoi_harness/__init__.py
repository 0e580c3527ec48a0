"""hanoi-harness: verify and benchmark Tower of Hanoi algorithms.

The public API is what this package exports, each name imported when first used::

    from hanoi_harness import Algorithm, Citation, FinalPeg, check
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # mypy reads it as True; typing itself is left out of a command's start-up

if TYPE_CHECKING:
    from typing import Any

    from hanoi_harness.core.checker import check, check_algorithm
    from hanoi_harness.core.digest import digest
    from hanoi_harness.core.verdict import Failure, Verdict
    from hanoi_harness.errors import UsageError
    from hanoi_harness.registry.record import Algorithm, Citation, FinalPeg, Move
    from hanoi_harness.registry.sources import build_registry, load_plugin

    __version__: str

_HOMES = {
    "Algorithm": "hanoi_harness.registry.record",
    "Citation": "hanoi_harness.registry.record",
    "FinalPeg": "hanoi_harness.registry.record",
    "Move": "hanoi_harness.registry.record",
    "build_registry": "hanoi_harness.registry.sources",
    "load_plugin": "hanoi_harness.registry.sources",
    "check": "hanoi_harness.core.checker",
    "check_algorithm": "hanoi_harness.core.checker",
    "digest": "hanoi_harness.core.digest",
    "Failure": "hanoi_harness.core.verdict",
    "Verdict": "hanoi_harness.core.verdict",
    "UsageError": "hanoi_harness.errors",
}

__all__ = [
    "Algorithm",
    "Citation",
    "Failure",
    "FinalPeg",
    "Move",
    "UsageError",
    "Verdict",
    "__version__",
    "build_registry",
    "check",
    "check_algorithm",
    "digest",
    "load_plugin",
]


def __getattr__(name: str) -> Any:
    """Import a public name from its home module on first use."""
    if name == "__version__":
        value: Any = _version()
    elif name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'hanoi_harness' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hanoi-harness")  # pyproject.toml's, the one place the version is written
    except PackageNotFoundError:  # the folders imported without an install
        return "0+unknown"
