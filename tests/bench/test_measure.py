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

from hanoi_harness.bench.memory.measure import rss_peak, tracemalloc_peak
from hanoi_harness.bench.timing import measure
from hanoi_harness.bench.timing.measure import Case, TimingRun, check_available, time_cases
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.sandbox import process
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
