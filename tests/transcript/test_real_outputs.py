"""Test ``hanoi check`` on outputs shaped as real programs print them.

Each shape once led to a wrong verdict: these runs must be read right, or
refused, never judged on moves that are not there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import reference, run_cli

ABC = "ABC"


def write(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "out.txt"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def test_a_count_of_disks_is_not_the_disk(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # C: printf("Move 1 disk from %d to %d\n", from, to);
    lines = [f"Move 1 disk from {s + 1} to {t + 1}" for _, s, t in reference(4)]
    code, out, _ = run_cli(capsys, "check", "-n", "4", write(tmp_path, lines))
    assert (code, out) == (0, "ok: 15 moves, legal and optimal for n = 4; the tower ends on peg 3\n")


@pytest.mark.parametrize("dash", ["\u2014", "\u2013", "\u2212"])
def test_arrows_of_em_and_en_dashes_are_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path, dash: str) -> None:
    moves = [f"{ABC[s]}{dash}>{ABC[t]}" for _, s, t in reference(3)]
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, moves))
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg C\n")
    skipped = moves[:3] + moves[4:]  # one move gone: never 'ok'
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, skipped))
    assert code == 1 and out.startswith("incomplete: after 6 moves")
