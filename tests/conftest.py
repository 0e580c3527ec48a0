"""Parametrization over the registry.

Every test that takes ``algorithm`` runs once per registered algorithm, with
the algorithm's name in the test id, so ``pytest -k NAME`` selects exactly
that algorithm's checks (``-k clockwise`` the two clockwise ports).  Shared
helpers are in :mod:`tests.helpers`.
"""

from __future__ import annotations

import pytest

from tests.helpers import ALGORITHMS, sizes


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "algorithm" in metafunc.fixturenames and "n" in metafunc.fixturenames:
        cases = [(a, n) for a in ALGORITHMS for n in sizes(a, 10)]
        metafunc.parametrize(("algorithm", "n"), cases, ids=[f"{a.name}-{n}" for a, n in cases])
    elif "algorithm" in metafunc.fixturenames:
        metafunc.parametrize("algorithm", ALGORITHMS, ids=[a.name for a in ALGORITHMS])


def pytest_configure(config: pytest.Config) -> None:
    # pyproject's addopts disable benchmarking for 'make test'; asking for --benchmark-only
    # (pytest -k clockwise --benchmark-only) means timing them, which pytest-benchmark would
    # otherwise refuse as contradicting --benchmark-disable.
    if config.getoption("benchmark_only", False):
        config.option.benchmark_enable = True
