"""Parametrization over the registry.

Every test that takes ``algorithm`` runs once per registered algorithm, with
the algorithm's name in the test id, so ``pytest -k NAME`` selects exactly
that algorithm's checks (``-k clockwise`` the two clockwise ports).  A test
marked ``classic_only`` runs only for the records of the classic puzzle
(:data:`tests.helpers.CLASSIC`): it compares their moves with the classic
puzzle's reference sequence.  Shared helpers are in :mod:`tests.helpers`.
"""

from __future__ import annotations

import pytest

from tests.helpers import ALGORITHMS, CLASSIC, sizes


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    algorithms = CLASSIC if metafunc.definition.get_closest_marker("classic_only") else ALGORITHMS
    if "algorithm" in metafunc.fixturenames and "n" in metafunc.fixturenames:
        cases = [(a, n) for a in algorithms for n in sizes(a, 10)]
        metafunc.parametrize(("algorithm", "n"), cases, ids=[f"{a.name}-{n}" for a, n in cases])
    elif "algorithm" in metafunc.fixturenames:
        metafunc.parametrize("algorithm", algorithms, ids=[a.name for a in algorithms])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "classic_only: only the classic puzzle's records (tests.helpers.CLASSIC), for the reference sequence"
    )
    # pyproject's addopts disable benchmarking for 'make test'; asking for --benchmark-only
    # (pytest -k clockwise --benchmark-only) means timing them, which pytest-benchmark would
    # otherwise refuse as contradicting --benchmark-disable.
    if config.getoption("benchmark_only", False):
        config.option.benchmark_enable = True
