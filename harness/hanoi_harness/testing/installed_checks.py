"""The tests ``pytest --hanoi-check-installed`` adds to a session."""

from __future__ import annotations

import pytest

from hanoi_harness.registry.sources import installed_entry_points
from hanoi_harness.testing.suite import Check, parametrize_with_checks

_FOUND = sorted({entry.name for entry in installed_entry_points()})

CASES = (
    parametrize_with_checks(_FOUND)
    if _FOUND
    else pytest.mark.skip(reason="no algorithm is installed in the entry-point group 'hanoi.algorithms'")
)


@CASES
def test_installed_algorithm(algorithm: str, check: Check) -> None:
    """Run *check* on the installed *algorithm*."""
    check(algorithm)
