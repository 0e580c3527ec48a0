"""Test Ctrl-C wherever it lands (hanoi_harness.sandbox.interrupts).

Dropped by a finalizer, disguised, swallowed, or marked unhandled by CPython after it was handled.  What a
whole command does on Ctrl-C is in tests/cli/test_streams.py, tests/bench/test_outdir.py and
tests/sandbox/test_hostile.py.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.bench.timing import measure
from hanoi_harness.sandbox.interrupts import interruption_wins, redelivered_interrupts
from tests.helpers import REGISTRY


def test_a_ctrl_c_in_a_finalizer_is_delivered_again() -> None:
    class InterruptedWhenCollected:
        def __del__(self) -> None:
            raise KeyboardInterrupt

    before = sys.unraisablehook
    with pytest.raises(KeyboardInterrupt), redelivered_interrupts():
        InterruptedWhenCollected()  # dropped at once: its __del__ runs here, and Python can only report it
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # a command at work is interrupted again within a few ms
            pass
    assert time.monotonic() < deadline and sys.unraisablehook is before


def test_any_other_error_in_a_finalizer_goes_to_the_previous_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: seen.append(type(unraisable.exc_value)))

    class FailsWhenCollected:
        def __del__(self) -> None:
            raise ValueError("in a finalizer")

    with redelivered_interrupts():
        FailsWhenCollected()
    assert seen == [ValueError]


def test_only_an_interruption_is_turned_into_one() -> None:
    with pytest.raises(RuntimeError, match="a real failure"), interruption_wins():
        raise RuntimeError("a real failure")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


@pytest.mark.serial  # SIGINT to this process
def test_a_ctrl_c_swallowed_on_the_way_still_ends_the_block() -> None:
    # Swallowed as pytest does, or as pytest's hook for errors in finalizers does.
    with pytest.raises(KeyboardInterrupt), interruption_wins(), contextlib.suppress(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.serial  # SIGINT to this process
def test_a_timing_run_that_swallowed_ctrl_c_is_an_interruption(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A timing run that swallowed Ctrl-C is an interruption.

    pytest returns a status for Ctrl-C it caught, and none for one that landed in a finalizer during the
    run.
    """

    def swallowing(*args: Any, **kwargs: Any) -> int:
        with contextlib.suppress(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        return int(pytest.ExitCode.OK)

    monkeypatch.setattr(pytest, "main", swallowing)
    with pytest.raises(KeyboardInterrupt):
        measure.time_cases([measure.Case(REGISTRY.get("recursive"), 3)], tmp_path, min_rounds=1, max_time_s=0.1)


HANDLED_AFTER_EXEC = textwrap.dedent(
    """
    import sys
    from hanoi_harness.cli import main

    def interrupted_inside_a_string(argv):
        exec("raise KeyboardInterrupt")  # as in a namedtuple being defined when Ctrl-C comes

    main._run = interrupted_inside_a_string
    sys.exit(main.main([]))
    """
)


def test_an_interrupt_that_left_code_run_from_a_string_still_exits_130(tmp_path: Path) -> None:
    """Code run from a string still exits 130 after an interrupt.

    CPython would end ``python -m`` by SIGINT (-2 to its parent) after main returned 130.
    """
    (tmp_path / "hanoi_interrupted_in_exec.py").write_text(HANDLED_AFTER_EXEC)
    done = subprocess.run(
        [sys.executable, "-m", "hanoi_interrupted_in_exec"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (130, "hanoi: interrupted\n")
