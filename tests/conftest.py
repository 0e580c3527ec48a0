"""Parametrize the tests over the registry.

Every test that takes ``algorithm`` runs once per registered algorithm, with the algorithm's name in the
test id.  So ``pytest -k NAME`` selects exactly that algorithm's checks (``-k clockwise`` the two
clockwise ports).  A test that parametrizes ``algorithm`` itself is left as it is: the conformance checks,
:func:`hanoi_harness.testing.parametrize_with_checks`.  A test marked ``classic_only`` runs only for the
records of the classic puzzle (:data:`tests.helpers.CLASSIC`): it compares their moves with the classic
puzzle's reference sequence.  Shared helpers are in :mod:`tests.helpers`.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers import ALGORITHMS, CLASSIC, sizes

# The same examples on every run, none timed: a test's outcome does not depend on the machine's load.
settings.register_profile(
    "deterministic", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("deterministic")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    algorithms = CLASSIC if metafunc.definition.get_closest_marker("classic_only") else ALGORITHMS
    if any("algorithm" in _names(mark) for mark in metafunc.definition.iter_markers("parametrize")):
        return
    if "algorithm" in metafunc.fixturenames and "n" in metafunc.fixturenames:
        cases = [(a, n) for a in algorithms for n in sizes(a, 10)]
        metafunc.parametrize(("algorithm", "n"), cases, ids=[f"{a.name}-{n}" for a, n in cases])
    elif "algorithm" in metafunc.fixturenames:
        metafunc.parametrize("algorithm", algorithms, ids=[a.name for a in algorithms])


def _names(mark: pytest.Mark) -> list[str]:
    """The argument names a ``parametrize`` mark gives values to."""
    names = mark.args[0] if mark.args else mark.kwargs.get("argnames", ())
    return [name.strip() for name in names.split(",")] if isinstance(names, str) else list(names)


def pytest_configure(config: pytest.Config) -> None:
    # A test run started in the background by a non-interactive shell ('make test &') inherits SIGINT ignored.
    # So would every 'hanoi' the tests start, as Python keeps an inherited SIG_IGN, and the tests of Ctrl-C would
    # wait for an interrupt that never comes. Taking it back here (in each pytest-xdist worker too) lets children
    # start with the default disposition, as from a terminal.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line(
        "markers", "classic_only: only the classic puzzle's records (tests.helpers.CLASSIC), for the reference sequence"
    )
    # pyproject's addopts disable benchmarking for 'make test'; asking for --benchmark-only
    # (pytest -k clockwise --benchmark-only) means timing them, which pytest-benchmark would
    # otherwise refuse as contradicting --benchmark-disable.
    if config.getoption("benchmark_only", False):
        config.option.benchmark_enable = True


@pytest.fixture(scope="session", autouse=True)
def coverage_sees_bench_runs() -> Iterator[None]:
    """Keep pytest-benchmark from taking coverage's tracer off while it times.

    This matters under coverage only.  pytest-benchmark puts the tracer back as a Python-level one, which on
    Python 3.11 no longer sees the lines of the frames already running.  Everything after ``hanoi bench``'s
    timing phase was then counted unrun: ``bench.run.run``'s assembly of the results, and
    ``bench.timing.measure.time_cases``'s reading of the report.
    The drains timed in tests then run traced, which no test's assertions depend on.
    """
    import coverage
    from pytest_benchmark import fixture

    if coverage.Coverage.current() is None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fixture, "PauseInstrumentation", contextlib.nullcontext)
        yield
