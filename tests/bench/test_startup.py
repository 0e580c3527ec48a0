"""The start-up benchmark: the commands it starts and the figures it keeps."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import pytest

from hanoi_harness.bench import startup
from hanoi_harness.bench.counts.measure import find_valgrind

FOUND = find_valgrind()


def test_every_command_is_measured_after_the_bare_interpreter() -> None:
    seen: list[str] = []
    measured = startup.measure(runs=1, on_command=seen.append, valgrind="valgrind is not installed")
    assert seen == [m.command for m in measured] == ["python -c pass", "hanoi --help", "hanoi list", "hanoi move 3 4"]
    assert all(m.cpu_s > 0 and m.instructions is None for m in measured)
    assert measured[0].ratio(measured[0]) == 1.0


def test_a_command_that_fails_is_not_timed(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="returned non-zero exit status 3"):
        startup.cpu_seconds([sys.executable, "-c", "raise SystemExit(3)"], str(tmp_path), runs=1)
    assert startup.instructions("valgrind is not installed", [sys.executable, "-c", "pass"], str(tmp_path)) is None


@pytest.mark.skipif(isinstance(FOUND, str), reason=f"no instruction counts here: {FOUND}")
def test_instructions_are_counted_under_cachegrind(tmp_path: Path) -> None:
    # A program that does next to nothing, against an interpreter's start-up: one valgrind run of Python.
    bare = startup.instructions(FOUND, ["/bin/true"], str(tmp_path))
    more = startup.instructions(FOUND, [sys.executable, "-S", "-c", "pass"], str(tmp_path))
    assert bare is not None and more is not None and more > bare + 10**6


def figures(list_s: float = 0.2, counted: bool = True) -> startup.StartupSet:
    """A start-up record: the interpreter at 50 ms, --help and move under 4x, list at *list_s*."""
    base = 100_000_000 if counted else None

    def count(factor: float) -> int | None:
        return int(factor * 100_000_000) if counted else None

    measured = (
        startup.Startup(command="hanoi --help", cpu_s=0.1, instructions=count(2.0)),
        startup.Startup(command="hanoi list", cpu_s=list_s, instructions=count(4.5)),
        startup.Startup(command="hanoi move 3 4", cpu_s=0.11, instructions=count(2.2)),
    )
    base_line = startup.Startup(command=startup.BASELINE, cpu_s=0.05, instructions=base)
    return startup.StartupSet(10, "" if counted else "valgrind is not installed", base_line, measured)


def test_ratios_divide_by_the_bare_interpreter_and_say_the_goal() -> None:
    found = figures()
    assert [found.ratio(entry) for entry in found.commands] == pytest.approx([2.0, 4.0, 2.2])
    assert [found.within_goal(entry) for entry in found.commands] == [True, True, True]
    assert not figures(list_s=0.21).within_goal(figures(list_s=0.21).commands[1])
    record = msgspec.to_builtins(found)
    assert record["baseline"] == {"command": "python -c pass", "cpu_s": 0.05, "instructions": 100_000_000}
    assert record["commands"][1]["instruction_ratio"] == pytest.approx(4.5)
    assert "instruction_ratio" not in msgspec.to_builtins(figures(counted=False))["commands"][0]


def test_a_command_that_fails_is_the_reason_nothing_was_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(startup, "hanoi_command", lambda: [sys.executable, "-c", "raise SystemExit(3)"])
    found = startup.measure_set(runs=1, valgrind="valgrind is not installed")
    assert found.measured == () and "returned non-zero exit status 3" in (found.skipped or "")
    assert msgspec.to_builtins(found) == {"runs": 1, "skipped": found.skipped}


def test_progress_counts_every_step_it_reports() -> None:
    seen: list[str] = []
    startup.measure(runs=1, on_command=seen.append, valgrind="valgrind is not installed")
    assert len(seen) == startup.steps("valgrind is not installed")


@pytest.mark.skipif(isinstance(FOUND, str), reason=f"no instruction counts here: {FOUND}")
def test_a_run_with_valgrind_counts_each_after_every_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(startup, "COMMANDS", (("x",),))
    monkeypatch.setattr(startup, "hanoi_command", lambda: [sys.executable, "-S", "-c", "sum(range(10**6))"])
    seen: list[str] = []
    found = startup.measure_set(runs=1, on_command=seen.append, valgrind=FOUND)
    assert seen[:2] == ["python -c pass", "hanoi x"] and len(seen) == startup.steps(FOUND) == 4
    assert sorted(seen[2:]) == ["hanoi x instructions", "python -c pass instructions"]
    ratio = found.commands[0].instruction_ratio(found.baseline)
    assert found.unavailable == "" and ratio is not None and ratio > 0
