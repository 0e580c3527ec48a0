"""The tests ``pytest --hanoi-check-installed`` adds to a session.

Every conformance check runs on every installed algorithm.

The algorithms are those of the entry-point group ``hanoi.algorithms``
(:func:`hanoi_harness.testing.records.installed`); with none installed the
plugin refuses the option before this module is collected.
"""

from __future__ import annotations

import pytest

from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing.records import installed
from hanoi_harness.testing.suite import Check, parametrize_with_checks

_FOUND = installed()

CASES = (
    parametrize_with_checks(_FOUND)
    if _FOUND
    else pytest.mark.skip(reason="no algorithm is installed in the entry-point group 'hanoi.algorithms'")
)


@CASES
def test_installed_algorithm(algorithm: Algorithm, check: Check) -> None:
    """Run *check* on the installed *algorithm*."""
    check(algorithm)
