"""The pytest module that ``hanoi bench`` runs to time each case."""

from __future__ import annotations

from typing import Any

from hanoi_harness.bench.consume import consume
from hanoi_harness.bench.shell import CommandCase, run_discarding
from hanoi_harness.bench.timing.measure import Case


def test_drain(benchmark: Any, case: Case | CommandCase) -> None:
    """Time one drain of ``case.algorithm`` at ``case.n``, every move read."""
    benchmark.extra_info.update(algorithm=case.name, n=case.n)
    if isinstance(case, CommandCase):
        benchmark(run_discarding, case.command.template, case.n, case.timeout_s)
    elif case.rounds:
        benchmark.pedantic(consume, (case.algorithm, case.n), rounds=case.rounds, iterations=1)
    else:
        benchmark(consume, case.algorithm, case.n)
