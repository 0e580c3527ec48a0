"""Test the measuring of ``hanoi bench`` below its phases.

That is pytest-benchmark run in this process, tracemalloc and a child's peak RSS, and how each of them
fails.
"""

from __future__ import annotations

import os
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness import process
from hanoi_harness.bench.memory.measure import rss_peak, tracemalloc_peak
from hanoi_harness.bench.timing import measure
from hanoi_harness.bench.timing.figures import Timing
from hanoi_harness.bench.timing.measure import Case, TimingRun, check_available, time_cases
from hanoi_harness.registry.record import Algorithm
from tests.helpers import REGISTRY


def broken(n: int) -> Iterator[tuple[int, int, int]]:
    yield (1, 0, 2)
    raise OverflowError(f"no move 2 at n = {n}")


def test_a_case_whose_drain_raises_is_an_error_with_its_last_line_and_no_timing(tmp_path: Path) -> None:
    cases = [Case(Algorithm(name="broken", solve=broken, summary=""), 3), Case(REGISTRY.get("recursive"), 3)]
    found = time_cases(cases, tmp_path, min_rounds=1, max_time_s=0.01)
    assert list(found.errors) == [("broken", 3)] and found.errors[("broken", 3)].endswith("OverflowError")
    assert list(found.timings) == [("recursive", 3)]


def test_nothing_to_time_runs_nothing(tmp_path: Path) -> None:
    assert time_cases([], tmp_path, min_rounds=1, max_time_s=0.01) == TimingRun({}, {}, {})
    assert list(tmp_path.iterdir()) == []


def test_the_users_pytest_options_are_kept_out_of_the_run_and_put_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_ADDOPTS", "--benchmark-disable -x")
    found = time_cases([Case(REGISTRY.get("recursive"), 2)], tmp_path, min_rounds=1, max_time_s=0.01)
    assert found.timings[("recursive", 2)].rounds >= 1  # timed: --benchmark-disable did not apply
    assert os.environ["PYTEST_ADDOPTS"] == "--benchmark-disable -x"


def test_a_pytest_run_that_fails_or_is_interrupted_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [Case(REGISTRY.get("recursive"), 2)]
    monkeypatch.setattr(pytest, "main", lambda *args, **kwargs: pytest.ExitCode.USAGE_ERROR)
    with pytest.raises(RuntimeError, match=r"the pytest-benchmark run failed \(pytest exit status 4\)"):
        time_cases(cases, tmp_path, min_rounds=1, max_time_s=0.01)
    monkeypatch.setattr(pytest, "main", lambda *args, **kwargs: pytest.ExitCode.INTERRUPTED)
    with pytest.raises(KeyboardInterrupt):
        time_cases(cases, tmp_path, min_rounds=1, max_time_s=0.01)


def test_without_pytest_benchmark_a_bench_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert check_available() is None
    monkeypatch.setitem(sys.modules, "pytest_benchmark", None)  # an import of it now fails
    assert check_available() == f"hanoi bench needs pytest-benchmark: {sys.executable} -m pip install pytest-benchmark"


def test_the_report_keeps_no_rounds_and_says_who_wrote_it() -> None:
    plugin = measure._CasesPlugin([], None)
    report: dict[str, Any] = {
        "machine_info": {},
        "benchmarks": [{"extra_info": {"algorithm": "a", "n": 3}, "stats": {"data": [2.0]}}],
    }
    plugin.pytest_benchmark_update_json(None, None, report)
    assert plugin.rounds == {("a", 3): [2.0]} and report["benchmarks"][0]["stats"] == {}
    assert list(report) == ["generated_by", "machine_info", "benchmarks"]


def test_the_rounds_of_every_pass_are_pooled_with_the_fewest_iterations() -> None:
    plugin = measure._CasesPlugin([], None)
    passes = [([2.0, 3.0], 4), ([1.0], 2)]
    report: dict[str, Any] = {
        "benchmarks": [
            {"extra_info": {"algorithm": "a", "n": 3}, "stats": {"data": data, "iterations": iterations}}
            for data, iterations in passes
        ]
    }
    plugin.pytest_benchmark_update_json(None, None, report)
    assert plugin.rounds == {("a", 3): [2.0, 3.0, 1.0]} and plugin.iterations == {("a", 3): 2}
    pooled = Timing.from_rounds(plugin.rounds[("a", 3)], plugin.iterations[("a", 3)])
    assert (pooled.median, pooled.minimum, pooled.rounds, pooled.iterations) == (2.0, 1.0, 3, 2)
    with pytest.raises(ValueError, match="at least one round"):
        Timing.from_rounds([])


def test_each_pass_times_every_case_once_in_a_shuffled_order_fixed_by_the_seed() -> None:
    cases = [f"case{i}" for i in range(12)]
    found = measure.schedule(cases, 3)
    assert [number for _, number in found] == [0] * 12 + [1] * 12 + [2] * 12
    orders = [[case for case, number in found if number == k] for k in range(3)]
    assert all(sorted(order) == sorted(cases) for order in orders)
    assert orders[0] != cases and len({tuple(order) for order in orders}) == 3  # shuffled, each pass its own way
    assert measure.schedule(cases, 3) == found  # the same seed, the same order in every run
    assert measure.schedule(cases, 3, seed=1) != found
    assert measure.schedule(cases, 1, seed=measure.SEED) == found[:12]


def test_the_timing_run_times_each_pass_on_the_cpu_clock_and_pools_them(tmp_path: Path) -> None:
    seen: list[tuple[str, int]] = []
    found = time_cases(
        [Case(REGISTRY.get("recursive"), 3)], tmp_path, min_rounds=4, max_time_s=0.01, passes=2,
        on_timed=lambda name, n: seen.append((name, n)),
    )  # fmt: skip
    assert seen == [("recursive", 3)] * 2
    assert [bench["options"]["timer"] for bench in found.report["benchmarks"]] == ["process_time"] * 2
    assert found.timings[("recursive", 3)].rounds >= 4  # two rounds at least a pass


def test_a_long_drain_is_timed_in_its_rounds_outright(tmp_path: Path) -> None:
    found = time_cases([Case(REGISTRY.get("recursive"), 3, rounds=2)], tmp_path, min_rounds=1, max_time_s=1, passes=3)
    timing = found.timings[("recursive", 3)]
    assert (timing.rounds, timing.iterations) == (6, 1)  # no calibration: two drains a pass, one a round


# --- memory -------------------------------------------------------------------------------------------------


@pytest.mark.serial  # a tracemalloc peak: pytest-xdist's own thread would allocate into it
def test_a_tracemalloc_peak_inside_a_trace_leaves_the_trace_running() -> None:
    recursive = REGISTRY.get("recursive")
    alone = tracemalloc_peak(recursive, 10)
    tracemalloc.start()
    try:
        assert 0.9 * alone < tracemalloc_peak(recursive, 10) < 1.1 * alone  # over what was traced before
        assert tracemalloc.is_tracing()
    finally:
        tracemalloc.stop()


def test_a_peak_rss_child_that_is_slow_or_says_nonsense_is_a_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    assert rss_peak("recursive", 3, [], 0.001) == "no result within 0.001 s"
    monkeypatch.setattr(process, "python_command", lambda *args: [sys.executable, "-c", "print('a peak?')"])
    assert rss_peak("recursive", 3, [], 60) == "unreadable output from the child: 'a peak?\\n'"
