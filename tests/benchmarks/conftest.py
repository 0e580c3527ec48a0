"""Parametrize the benchmarks: every algorithm at the quick run's sizes.

The quick run's sizes are the classic puzzle's n, in moves.  Another puzzle's record runs at the most
disks that take no more moves than those, so each case does the same work.  So n = 6, 10, 14 is n = 3,
6, 8 linear, 4, 7, 9 cyclic and 10, 29, 61 on four pegs: the sizes ``hanoi bench --quick`` measures
(:func:`fixed_sizes`).  The ids are ``NAME-N``, so ``pytest tests/benchmarks -k clockwise
--benchmark-only`` times just the clockwise ports.  ``make test`` runs them with benchmarking disabled
(pyproject's addopts), once each.
"""

from __future__ import annotations

import pytest

from hanoi_harness.bench.plan import QUICK, fixed_sizes
from hanoi_harness.bench.timing.measure import Case
from tests.helpers import ALGORITHMS


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        cases = [Case(a, n) for a in ALGORITHMS for n in fixed_sizes(a, QUICK.sizes or ())]
        metafunc.parametrize("case", cases, ids=[case.id for case in cases])
