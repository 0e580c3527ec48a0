"""Benchmark the registry x n with pytest-benchmark, as ``hanoi bench``.

It times the same drain ``hanoi bench`` times, every move read by the consumer.

With ``--benchmark-disable`` (``make test``) each runs once, and the check
after it makes it a correctness test too; with ``--benchmark-only`` it times.
"""

from __future__ import annotations

from typing import Any

from hanoi_harness.bench.consume import consume
from hanoi_harness.bench.timing.measure import Case
from hanoi_harness.core.checker import check_algorithm
from tests.helpers import at_scale


@at_scale
def test_drain(benchmark: Any, case: Case) -> None:
    benchmark.extra_info.update(algorithm=case.algorithm.name, n=case.n)
    benchmark(consume, case.algorithm, case.n)
    verdict = check_algorithm(case.algorithm, case.n)
    assert verdict.ok, verdict.describe()
