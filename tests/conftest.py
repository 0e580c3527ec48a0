"""Shared fixtures: the registry, and parametrization over it.

Every test that takes ``algorithm`` runs once per registered algorithm, with
the algorithm's name in the test id, so ``pytest -k NAME`` selects exactly
that algorithm's checks (``-k clockwise`` the two clockwise ports).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hanoi_harness.registry import Algorithm, build_registry

REGISTRY = build_registry()
ALGORITHMS = list(REGISTRY)


def reference(n: int) -> Iterator[tuple[int, int, int]]:
    """The reference sequence from peg 0 to peg 2, written here without the package's code."""

    def go(k: int, a: int, b: int, c: int) -> Iterator[tuple[int, int, int]]:
        if k:
            yield from go(k - 1, a, c, b)
            yield (k, a, c)
            yield from go(k - 1, b, a, c)

    return go(n, 0, 1, 2)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """run_cli(capsys, *argv): run the ``hanoi`` command in this process; (status, stdout, stderr)."""
    from hanoi_harness.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (errors, --help)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def expected(algorithm: Algorithm, n: int) -> Iterator[tuple[int, int, int]]:
    """The reference sequence as ``algorithm`` must give it: the optimal solution to a
    given peg is unique, so only pegs 1 and 2 are exchanged when it ends on peg 1."""
    targets = algorithm.final_peg.pegs(n)
    swap = (0, 2, 1) if targets == {1} else (0, 1, 2)
    return ((d, swap[s], swap[t]) for d, s, t in reference(n))


def sizes(algorithm: Algorithm, top: int) -> list[int]:
    high = top if algorithm.max_n is None else min(top, algorithm.max_n)
    return list(range(algorithm.min_n, high + 1))


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
