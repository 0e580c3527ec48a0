"""Test the parts of the threshold's calibration that need no valgrind.

They are the planted copy, the padding and the load.
"""

from __future__ import annotations

import difflib
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psutil
import pytest

from benchmarks import calibrate
from benchmarks.calibrate import PLANTED, bitwise_copies, busy_loops, padding_module
from hanoi_harness.bench.consume import consume
from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.counts.measure import Valgrind
from hanoi_harness.registry.sources import build_registry
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
    from hanoi_algorithms import bitwise

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


def fake_count_all(valgrind: Valgrind | str, sizes: dict[str, Any], plugins: Sequence[str]) -> dict[str, Any]:
    """Return counts made without valgrind, at 1000 instructions a move.

    The planted copy does 1% more, 0.5% more with padding, and one algorithm cannot be counted.
    """
    padded = any("padding" in spec for spec in plugins)
    found = {}
    for name, pair in sizes.items():
        if name == "tree_array":
            found[name] = InstructionCount(sizes=pair, unavailable="not this time")
            continue
        per_move = 1000.0 * (1.01 if name == "bitwise_planted" else 1.0) * (1.005 if padded else 1.0)
        instructions = (round(per_move * 1023), round(per_move * 16383), round(per_move * 1023))
        found[name] = InstructionCount(sizes=pair, moves=(1023, 16383), instructions=instructions, allocator=(0, 0, 0))
    return found


def test_calibration_reports_spreads_layouts_and_the_planted_effect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(calibrate, "find_valgrind", lambda: Valgrind("/usr/bin/valgrind", "valgrind-3.19.0"))
    monkeypatch.setattr(calibrate, "count_all", fake_count_all)
    out = tmp_path / "calibration.json"
    assert calibrate.main(["--repeat", "2", "--load", "--paddings", "37,250", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert [r["label"] for r in report["rounds"]] == ["idle 1", "idle 2", "loaded 1", "loaded 2"]
    spreads = {row[0]: row[1:] for row in report["spreads"]}
    assert spreads["recursive"] == [4, 1000.0, 1000.0, 0.0] and spreads["tree_array"] == [0, None, None, None]
    assert report["planted_effect_pct"] == 1.0
    assert {row[0]: row[1] for row in report["layouts_pct"]}["recursive"] == 0.5
    assert [r["label"] for r in report["paddings"]] == ["padding 37", "padding 250"]
    printed = capsys.readouterr()
    assert "'fr = fr + 0' in bitwise's loop: 1000.0 -> 1010.0 instructions per move (1.0%)" in printed.out
    assert "idle 1: " in printed.err


def test_calibration_without_valgrind_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(calibrate, "find_valgrind", lambda: "valgrind is not installed")
    assert calibrate.main([]) == 2
    assert capsys.readouterr().err == "calibrate: valgrind is not installed\n"
