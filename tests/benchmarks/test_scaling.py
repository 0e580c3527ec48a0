"""Test the benchmark of segmented verification (``make bench-scale``).

It tests the benchmark's figures, its table and its refusal of runs that disagree.  The runs are faked
but one: a real ``hanoi verify`` read for its digest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from benchmarks import scaling
from hanoi_harness.core.digest import digest
from tests.helpers import REGISTRY

TIMES = {(): 4.0, ("--workers", "1"): 4.4, ("--workers", "2"): 2.2}
"""Seconds of each faked run, by its options: --workers 2 twice as fast as one worker."""


def faked(digests: dict[tuple[str, ...], list[str]] | None = None) -> object:
    """Stand in for :func:`scaling.time_verify`, returning :data:`TIMES`.

    The digest is ``d`` unless *digests* says otherwise.
    """

    def time_verify(name: str, n: int, options: Sequence[str]) -> tuple[float, str]:
        key = tuple(options)
        said = (digests or {}).get(key)
        return TIMES[key], said.pop(0) if said else "d"

    return time_verify


def test_a_real_run_is_timed_and_read_for_its_digest() -> None:
    seconds, said = scaling.time_verify("bitwise", 6, [])
    assert seconds > 0 and said == str(digest(REGISTRY.get("bitwise").moves(6))[1])
    with pytest.raises(RuntimeError, match="verify no_such_algorithm --n 3 --timeout 86400 failed"):
        scaling.time_verify("no_such_algorithm", 3, [])


def test_the_table_the_speed_ups_and_the_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(scaling, "time_verify", faked())
    out = tmp_path / "scaling.json"
    assert scaling.main(["--n", "20", "--repeat", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "speed-up, --workers 2 over --workers 1: 2.00x" in printed
    assert "speed-up, --workers 2 over sequential: 1.82x" in printed
    figures = json.loads(out.read_text())
    assert [run["times"] for run in figures["runs"]] == [[4.0, 4.0], [4.4, 4.4], [2.2, 2.2]]
    assert figures["speedup_over_one_worker"] == 2.0 and [p.name for p in tmp_path.iterdir()] == ["scaling.json"]


def test_runs_that_print_other_digests_fail_the_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scaling, "time_verify", faked({("--workers", "2"): ["d", "e"]}))
    with pytest.raises(RuntimeError, match="segmented, --workers 2: digest e differs from its earlier d"):
        scaling.measure("bitwise", 20, 2, 2)
    monkeypatch.setattr(scaling, "time_verify", faked({("--workers", "1"): ["x"]}))
    with pytest.raises(RuntimeError, match=r"the runs printed different digests: \['d', 'x'\]"):
        scaling.measure("bitwise", 20, 2, 1)
