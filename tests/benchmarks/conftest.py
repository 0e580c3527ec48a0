"""The benchmarks' parametrization: every classic-puzzle algorithm at the quick run's sizes.

The ids are ``NAME-N``, so ``pytest tests/benchmarks -k clockwise --benchmark-only``
times just the clockwise ports.  ``make test`` runs them with benchmarking
disabled (pyproject's addopts), once each.  The check after each drain knows only
the classic puzzle's rules, so the other puzzles' algorithms are left out.
"""

from __future__ import annotations

import pytest

from hanoi_harness.bench._measure import Case
from hanoi_harness.bench._plan import QUICK, fixed_sizes
from tests.helpers import CLASSIC


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        cases = [Case(a, n) for a in CLASSIC for n in fixed_sizes(a, QUICK.sizes or ())]
        metafunc.parametrize("case", cases, ids=[case.id for case in cases])
