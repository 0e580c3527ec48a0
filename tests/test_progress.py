"""Test progress on stderr: bars on a terminal, or plain lines in a log.

tqdm bars on a terminal, plain lines into a log when asked, nothing otherwise.
"""

from __future__ import annotations

import io

import pytest

from hanoi_harness.progress import Bar


def test_plain_lines_open_each_phase_and_close_it() -> None:
    out = io.StringIO()
    bar = Bar(file=out, plain=True)
    bar.phase("timing", 3)
    for label in ("a", "b", "c"):
        bar.step(label)
    bar.phase("counting", None)
    bar.close()
    assert out.getvalue().splitlines() == ["timing (3 to do)", "timing: 3/3 (c)", "counting"]


def test_plain_lines_come_at_most_every_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    bar = Bar(file=out, plain=True, prefix="quick baseline: ")
    clock = iter([0.0, 1.0, 40.0, 41.0])  # the phase starts, then three steps
    monkeypatch.setattr("hanoi_harness.progress.time.monotonic", lambda: next(clock))
    bar.phase("timing", 10)
    for label in ("a", "b", "c"):
        bar.step(label)
    assert out.getvalue().splitlines() == ["quick baseline: timing (10 to do)", "quick baseline: timing: 2/10 (b)"]


def test_nothing_without_a_terminal_unless_plain() -> None:
    out = io.StringIO()
    bar = Bar(file=out)
    bar.phase("timing", 2)
    bar.step("a")
    bar.close()
    assert out.getvalue() == ""


def test_a_terminal_gets_the_bar_not_the_lines() -> None:
    out = io.StringIO()
    bar = Bar(file=out, enabled=True, plain=True)
    bar.phase("timing", 1)
    bar.step("a")
    bar.close()
    assert "timing" in out.getvalue() and "(1 to do)" not in out.getvalue()
