"""The start-up benchmark: the commands it starts, the figures it keeps and writes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks import startup
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
        startup.Startup(startup.BASELINE, 0.05, base),
        startup.Startup("hanoi --help", 0.1, count(2.0)),
        startup.Startup("hanoi list", list_s, count(4.5)),
        startup.Startup("hanoi move 3 4", 0.11, count(2.2)),
    )
    return startup.StartupSet(10, measured, "" if counted else "valgrind is not installed")


def test_ratios_divide_by_the_bare_interpreter_and_say_the_goal() -> None:
    found = figures()
    assert [found.ratio(entry) for entry in found.commands] == pytest.approx([2.0, 4.0, 2.2])
    assert [found.within_goal(entry) for entry in found.commands] == [True, True, True]
    assert not figures(list_s=0.21).within_goal(figures(list_s=0.21).commands[1])
    raw = found.table().raw
    assert raw[0] == ["python -c pass", 0.05, 1.0, 100_000_000, 1.0, None]
    assert raw[2][4] == pytest.approx(4.5)
    assert figures(counted=False).table().raw[1][4] is None


def test_a_command_that_fails_is_the_reason_nothing_was_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(startup, "hanoi_command", lambda: [sys.executable, "-c", "raise SystemExit(3)"])
    found = startup.measure_set(runs=1, valgrind="valgrind is not installed")
    assert found.measured == () and "returned non-zero exit status 3" in found.skipped
    assert "not measured, a start-up failed" in found.markdown()


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


def test_the_page_and_its_csv_are_written_and_linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(startup, "measure_set", lambda runs, on_command: figures(list_s=0.25))
    (tmp_path / "README.md").write_text("# Benchmark results\n")
    assert startup.main(["--runs", "1", "--out", str(tmp_path)]) == 0
    page = (tmp_path / "startup.md").read_text()
    assert "| `hanoi list`     | 250 ms" in page and "5.00x" in page and "4.50x" in page
    assert "within 4x" in page and "Over the goal in this run: `hanoi list`." in page
    rows = (tmp_path / "startup.csv").read_text().splitlines()
    assert rows[1] == "command,cpu_s,ratio,instructions,instruction_ratio,within_goal"
    assert rows[4].startswith("hanoi list,0.25,5.0,450000000,4.5,False")
    assert "- [Start-up of the hanoi command](startup.md)" in (tmp_path / "README.md").read_text()


def test_a_start_up_not_measured_says_why_and_writes_no_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skipped = startup.StartupSet(3, (), skipped="a start-up failed: status 3")
    monkeypatch.setattr(startup, "measure_set", lambda runs, on_command: skipped)
    assert startup.main(["--out", str(tmp_path)]) == 0
    assert "not measured, a start-up failed: status 3." in (tmp_path / "startup.md").read_text()
    assert not (tmp_path / "startup.csv").exists()
    with pytest.raises(SystemExit):
        startup.main(["--runs", "0"])
