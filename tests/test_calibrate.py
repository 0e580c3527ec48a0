"""The pieces of the threshold's calibration that need no valgrind: the planted copy, the padding, the load."""

from __future__ import annotations

import difflib
import time
from pathlib import Path

import psutil
import pytest

from hanoi_harness.bench._consume import consume
from hanoi_harness.bench.calibrate import PLANTED, bitwise_copies, busy_loops, padding_module
from hanoi_harness.registry import build_registry
from tests.helpers import REGISTRY


def test_the_copies_drain_exactly_what_bitwise_does(tmp_path: Path) -> None:
    specs = bitwise_copies(tmp_path)
    registry = build_registry(list(specs.values()), entry_points=False)
    for n in (0, 1, 5, 12):
        expected = consume(REGISTRY.get("bitwise"), n)
        assert consume(registry.get("bitwise_copy"), n) == expected
        assert consume(registry.get("bitwise_planted"), n) == expected


def test_the_planted_copy_differs_by_the_planted_line_alone(tmp_path: Path) -> None:
    bitwise_copies(tmp_path)
    plain = (tmp_path / "bitwise_copy.py").read_text().splitlines()
    planted = (tmp_path / "bitwise_planted.py").read_text().splitlines()
    changes = [line for line in difflib.ndiff(plain, planted) if line[:1] in "+-"]
    assert changes == [
        f"+         {PLANTED}",
        "- def bitwise_copy(n):",
        "+ def bitwise_planted(n):",
    ]


def test_a_changed_bitwise_cannot_be_planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_harness.algorithms import bitwise

    other = tmp_path / "other.py"
    other.write_text("from hanoi_harness.registry import register\n")
    monkeypatch.setattr(bitwise, "__file__", str(other))
    with pytest.raises(ValueError, match="no longer has the lines"):
        bitwise_copies(tmp_path)


def test_the_padding_module_is_a_plugin_with_no_moves(tmp_path: Path) -> None:
    registry = build_registry([padding_module(tmp_path, 50)], entry_points=False)
    assert list(registry.get("padding").moves(5)) == []


def test_busy_loops_run_while_the_block_runs_and_are_stopped_after() -> None:
    with busy_loops(2) as pids:
        time.sleep(0.3)
        assert all(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE for pid in pids)
    assert not any(psutil.pid_exists(pid) for pid in pids)
