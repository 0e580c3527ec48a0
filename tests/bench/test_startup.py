"""The start-up benchmark: the commands it starts and the figures it keeps."""

from __future__ import annotations

import sys
from pathlib import Path

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


@pytest.mark.skipif(isinstance(FOUND, str), reason=f"no instruction counts here: {FOUND}")
def test_instructions_are_counted_under_cachegrind(tmp_path: Path) -> None:
    bare = startup.instructions(FOUND, [sys.executable, "-S", "-c", "pass"], str(tmp_path))
    more = startup.instructions(FOUND, [sys.executable, "-S", "-c", "sum(range(10**6))"], str(tmp_path))
    assert bare is not None and more is not None and more > bare + 10**6
