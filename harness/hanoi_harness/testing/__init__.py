"""hanoi-harness's conformance checks, for any project's own tests.

Each name is imported when first used: pytest loads the plugin in every run.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hanoi_harness.testing.failures import CheckFailed
    from hanoi_harness.testing.records import installed, record_of
    from hanoi_harness.testing.suite import CHECKS, NAMES, Check, checks_for, parametrize_with_checks

_HOMES = {
    "CHECKS": "hanoi_harness.testing.suite",
    "NAMES": "hanoi_harness.testing.suite",
    "Check": "hanoi_harness.testing.suite",
    "CheckFailed": "hanoi_harness.testing.failures",
    "checks_for": "hanoi_harness.testing.suite",
    "installed": "hanoi_harness.testing.records",
    "parametrize_with_checks": "hanoi_harness.testing.suite",
    "record_of": "hanoi_harness.testing.records",
}

__all__ = ["CHECKS", "NAMES", "Check", "CheckFailed", "checks_for", "installed", "parametrize_with_checks", "record_of"]


def __getattr__(name: str) -> Any:
    """Import a public name from its home module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module 'hanoi_harness.testing' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
