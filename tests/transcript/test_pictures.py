"""Test ``hanoi check`` on pictures of the pegs, read by differencing.

The pictures are columns of numbers and drawn disks.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hanoi_harness.core.puzzle import Puzzle
from hanoi_harness.transcript.check import MalformedLine, UnreadableInput, check_lines, describe
from hanoi_harness.transcript.pictures import Pictures, layout
from tests.helpers import reference

State = list[list[int]]


def states(n: int, pegs: int = 3) -> list[State]:
    """Return the start and the state after each move of the reference.

    The states are peg lists, bottom first.
    """
    state: State = [list(range(n, 0, -1))] + [[] for _ in range(pegs - 1)]
    out = [[list(p) for p in state]]
    for _, s, t in reference(n):
        state[t].append(state[s].pop())
        out.append([list(p) for p in state])
    return out


Picture = tuple[list[str], list[str]]
"""A picture's rows, the top row first, and the lines after it (a base, a blank line, a caption)."""


def _cell(p: list[int], level: int, draw: Callable[[int], str], width: int, empty: str = "") -> str:
    return (draw(p[level]) if level < len(p) else empty).center(width)


def columns(state: State, n: int) -> Picture:
    """Columns of numbers, then a row of dashes."""
    rows = [" ".join(f"{p[level]:>2}" if level < len(p) else "  " for p in state) for level in range(n - 1, -1, -1)]
    return rows, ["-" * 12]


def disks(state: State, n: int) -> Picture:
    """Disks of '=' around poles, then a blank line."""
    rows = [
        "  ".join(_cell(p, level, lambda d: "=" * d + "|" + "=" * d, 2 * n + 1, "|") for p in state)
        for level in range(n - 1, -1, -1)
    ]
    return rows, [""]


def underscores(state: State, n: int) -> Picture:
    """Draw *state* as disks of '_' of even widths with no poles, on a base.

    Only the rows that hold a disk are drawn, then the base and a caption.
    """
    width = 2 * n + 2
    rows = ["".join(_cell(p, level, lambda d: "__" * d, width) for p in state) for level in range(n - 1, -1, -1)]
    return [row for row in rows if row.strip()], ["_" * (3 * width), "next:"]


def numbered(state: State, n: int) -> Picture:
    """Draw *state* as numbered disks (``[=2=]``), bare poles and a base."""
    rows = [
        "".join(_cell(p, level, lambda d: f"[{'=' * (d - 1)}{d}{'=' * (d - 1)}]", 2 * n + 3, "|") for p in state)
        for level in range(n - 1, -1, -1)
    ]
    return rows, ["=" * (6 * n + 9)]


def shaded(state: State, n: int) -> Picture:
    """Disks of block characters, a light shade where a peg is empty, then a blank line."""
    rows = [" ".join(_cell(p, level, lambda d: "▇" * (2 * d - 1), 2 * n, "░") for p in state) for level in range(n)]
    return rows[::-1], [""]


def blocks_in_order(state: State, n: int) -> Picture:
    """One run a peg in each row, not aligned (``▇▇▇ ░ ▇▇▇▇▇``), then a base."""
    rows = [" ".join("█" * p[level] if level < len(p) else "░" for p in state) for level in range(n - 1, -1, -1)]
    return rows, ["■" * 12]


STYLES: dict[str, Callable[[State, int], Picture]] = {
    "columns of numbers": columns,
    "disks around poles": disks,
    "underscores on a base": underscores,
    "numbered disks": numbered,
    "blocks and shades": shaded,
    "blocks in order": blocks_in_order,
}


def drawing(style: str, all_states: list[State], n: int) -> list[str]:
    return ["Towers of Hanoi"] + [line for state in all_states for part in STYLES[style](state, n) for line in part]


@pytest.mark.parametrize(("style", "n"), [(s, n) for s in STYLES for n in (2, 3, 6)] + [("disks around poles", 1)])
def test_pictures_of_every_style_are_read_as_the_moves_between_them(style: str, n: int) -> None:
    verdict = check_lines(drawing(style, states(n), n), n)
    assert verdict.ok and verdict.moves == 2**n - 1, describe(verdict, n)
    assert "pictures of the pegs" in verdict.extra["read"]


@pytest.mark.parametrize("style", STYLES)
def test_an_illegal_picture_is_caught_at_its_step_and_last_row(style: str) -> None:
    n, seq = 3, states(3)
    seq[3] = [[3], [], [1, 2]]  # the third move puts disk 2 on disk 1
    lines = drawing(style, seq, n)
    verdict = check_lines(lines, n)
    assert verdict.status == "illegal" and verdict.step == 3, describe(verdict, n)
    before = 1 + sum(len(rows) + len(tail) for rows, tail in (STYLES[style](s, n) for s in seq[:3]))
    assert verdict.extra["line"] == before + len(STYLES[style](seq[3], n)[0])  # the picture's bottom row


def test_a_picture_two_moves_from_the_last_is_refused_at_its_row() -> None:
    seq = states(3)
    del seq[2]
    with pytest.raises(MalformedLine, match="this state is not one move from the one before it"):
        check_lines(drawing("disks around poles", seq, 3), 3)


def test_a_disk_under_no_peg_or_a_disk_missing_is_refused() -> None:
    lines = drawing("columns of numbers", states(3), 3)
    assert lines[6].strip() == "2"  # the middle row of the picture after the first move
    with pytest.raises(MalformedLine, match=r"line 8: .*this picture shows 2 disks, not 3"):
        check_lines([*lines[:6], "", *lines[7:]], 3, read="states")
    found = layout(lines, 3, 3)
    assert found is not None
    reader = Pictures(found, 3, 3)
    with pytest.raises(ValueError, match="under no peg"):
        reader.feed("             3")


def test_rows_that_are_moves_or_text_are_not_pictures() -> None:
    assert layout(["1 0 2", "2 0 1", "1 2 1"], 3, 2) is None  # plain moves: one block, not two states
    assert layout(["Move disk 1 from A to C"], 3, 1) is None
    assert layout([" 1", " 2", "---", "", " 2  1", "---"], 4, 2) is None  # two columns drawn, four pegs


def test_pictures_of_four_pegs_are_read() -> None:
    seq = [[[3, 2, 1], [], [], []], [[3, 2], [1], [], []], [[3], [1], [2], []], [[], [1], [2], [3]]]
    seq += [[[], [1], [], [3, 2]], [[], [], [], [3, 2, 1]]]
    rows = [line for state in seq for part in columns(state, 3) for line in part]
    verdict = check_lines(rows, 3, puzzle=Puzzle(pegs=4))
    assert verdict.ok and verdict.moves == 5, describe(verdict, 3)


def test_a_table_of_numbers_between_bars_is_read_by_its_digits() -> None:
    def table(state: State, n: int) -> list[str]:
        cells = [[str(p[level]) if level < len(p) else " " for p in state] for level in range(n - 1, -1, -1)]
        return [" A | B | C", "----------", *(f"| {a}| {b} |{c}" for a, b, c in cells), "", ""]

    seq = states(3)
    verdict = check_lines([line for state in seq for line in table(state, 3)], 3)
    assert verdict.ok and "columns of numbers" in verdict.extra["read"], describe(verdict, 3)
    seq[3] = [[3], [], [1, 2]]  # the third move puts disk 2 on disk 1
    verdict = check_lines([line for state in seq for line in table(state, 3)], 3)
    assert (verdict.status, verdict.step) == ("illegal", 3), describe(verdict, 3)


def test_a_row_in_order_with_a_run_missing_is_refused() -> None:
    lines = drawing("blocks in order", states(2), 2)
    lines[8] = "░ █"  # the third picture's top row lost a peg
    with pytest.raises(MalformedLine, match="a row of 2 runs, not one for each of the 3 pegs"):
        check_lines(lines, 2)


def test_pictures_no_layout_reads_are_refused_saying_what_reads_pictures() -> None:
    rows = ["  ▇    ░    ░", " ▇▇▇    ░    ░", "▇▇▇▇▇   ░    ░", ""]
    rows += ["  ░    ░    ░", " ▇▇▇▇    ░    ░", "▇▇▇▇▇   ░   ▇"]
    with pytest.raises(UnreadableInput, match=r"line 1 .* draws the pegs, and no layout reads .*--read states"):
        check_lines(rows, 3)  # four widths for three disks
