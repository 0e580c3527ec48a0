"""A reading explains the whole input: a line like a move among the moves is read or refused.

The outputs are invented, in the shapes of real programs of several languages: a header, a prompt,
the moves, a footer.  They are read right.  A near miss put among their moves is refused at its line,
never skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from hanoi_harness.transcript.check import UnreadableInput, check_lines
from hanoi_harness.transcript.read import move_like
from hanoi_harness.transcript.source import AmongMoves
from tests.helpers import assert_one_line_error, reference, run_cli

N = 3
PEGS = "ABC"

PROGRAMS = {  # a header, each move (k: step, d: disk, s and t: pegs), a footer
    "C": ("Tower of Hanoi with 3 disks", "Move disk {d} from rod {s} to rod {t}", "Total moves: 7"),
    "Java": ("Enter number of disks:", "Disk {d} moved from {s} to {t}", "Total number of moves = 7"),
    "Python": ("Solving Tower of Hanoi for n = 3", "Step {k}: Move disk {d} from {s} to {t}", "Done in 7 moves."),
    "JavaScript": ("Tower of Hanoi (3 disks)", "{k}. {s} -> {t}", "Finished! 7 moves"),
    "Go": ("n=3", "move {d}: {s} -> {t}", "moves: 7"),
    "Rust": ("Hanoi, 3 discs", "Move disc {d} from {s} to {t}", "Solved in 7 moves"),
    "Pascal": ("Number of disks: 3", "Move from {s} to {t}", "Number of moves: 7"),
}

NEAR_MISSES = [
    "Move disk 3 frm rod A to rod C",  # a typo: no connective the rules know, the pegs still there
    "Disk 3: A C",
    "Moving disk 3 rod A rod C",
    "Move disk 3: A - C",
    "Moved: A, C",
    "hanoi(1, C, B, A)",  # a trace of the recursion: not a move, but it could be read as one
    "Recursing: n=2 src=A dst=C",
]


def output(program: str, miss: str | None = None) -> list[str]:
    header, move, footer = PROGRAMS[program]
    body = [move.format(k=k, d=d, s=PEGS[s], t=PEGS[t]) for k, (d, s, t) in enumerate(reference(N), 1)]
    if miss is not None:
        body[3:3] = [miss]
    return [header, "", *body, "", footer]


@pytest.mark.parametrize("program", PROGRAMS)
def test_outputs_with_headers_prompts_and_footers_are_read_right(program: str) -> None:
    verdict = check_lines(output(program), N)
    assert verdict.ok and verdict.moves == 7 and verdict.extra["labels"][verdict.final_peg] == "C"


@pytest.mark.parametrize("program", PROGRAMS)
@pytest.mark.parametrize("miss", NEAR_MISSES)
def test_a_line_like_a_move_among_the_moves_is_refused_at_its_line(program: str, miss: str) -> None:
    with pytest.raises(AmongMoves) as caught:
        check_lines(output(program, miss), N)
    assert caught.value.line == 6 and caught.value.source == miss  # header, blank, three moves, then it


@pytest.mark.parametrize(("where", "status"), [(0, "illegal"), (6, "incomplete")])
def test_a_first_or_last_move_no_rule_reads_is_refused_not_judged(where: int, status: str) -> None:
    lines = output("C")
    words = lines[2 + where].split()  # Move disk 1 from rod A to rod C
    lines[2 + where] = f"Disk {words[2]}: {words[5]} {words[8]}"  # 'Disk 1: A C', which no rule reads
    with pytest.raises(AmongMoves, match=f"without it the run is {status}") as caught:
        check_lines(lines, N)
    assert caught.value.line == 3 + where


@pytest.mark.parametrize(
    "state",
    [
        lambda pegs: [f"Peg {i + 1}: {' '.join(map(str, p))}" for i, p in enumerate(pegs)],
        lambda pegs: [str({PEGS[i]: p for i, p in enumerate(pegs)})],
        lambda pegs: [" | ".join(f"{PEGS[i]}: {' '.join(map(str, p))}" for i, p in enumerate(pegs))],
        lambda pegs: [" ".join(f"{PEGS[i]}={','.join(map(str, p))}" for i, p in enumerate(pegs))],
        lambda pegs: [f"State: A has {len(pegs[0])}, B has {len(pegs[1])}, C has {len(pegs[2])}"],
    ],
    ids=["a peg a line", "a dict", "captions and bars", "captions and equals", "words"],
)
def test_states_printed_after_each_move_are_states_not_moves(state: Callable[[list[list[int]]], list[str]]) -> None:
    lines, pegs = ["Hanoi"], [[3, 2, 1], [], []]
    for d, s, t in reference(N):
        pegs[t].append(pegs[s].pop())
        lines += [f"Move disk {d} from {PEGS[s]} to {PEGS[t]}", *state(pegs)]
    assert check_lines(lines, N).ok


def test_lines_like_moves_after_the_last_move_are_a_footer() -> None:
    lines = [*output("C"), "hanoi(3, A, C, B) returned", "Pegs used: A, B, C"]
    assert check_lines(lines, N).ok


@pytest.mark.parametrize(
    ("text", "labels", "like"),
    [
        ("Now moving between A and C", ("A", "B", "C"), True),
        ("Tower of Hanoi, moving 3 disks from A to C", ("A", "B", "C"), False),  # a header: a tower of disks
        ("arrow: =>", ("A", "B", "C"), True),
        ("Desde la torre", ("A", "B", "C"), True),
        ("press a key", ("A", "B", "C"), False),  # 'a' is not the peg A
        ("Step 3 of 7", ("1", "2", "3"), False),
        ("left and RIGHT", ("left", "middle", "right"), True),
        ("Peg 1: [3, 2] Peg 2: []", ("1", "2", "3"), False),  # a state
    ],
)
def test_what_is_like_a_move(text: str, labels: tuple[str, ...], like: bool) -> None:
    assert move_like(text, labels) is like


def test_the_refusal_names_the_way_out_and_proposes_no_pattern_that_drops_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "trace.txt"
    path.write_text("\n".join(output("C", "hanoi(1, C, B, A)")) + "\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "check", "-n", "3", str(path))
    assert_one_line_error(code, err, "line 6", "a line like a move among the moves", "--pattern")
    assert "(?P<" not in err  # a pattern of that line alone would read it and drop the moves
    pattern = r"Move disk (?P<disk>\d) from rod (?P<src>\w) to rod (?P<dst>\w)"
    code, out, _ = run_cli(capsys, "check", "-n", "3", str(path), "--pattern", pattern)
    assert code == 0 and out.startswith("ok: 7 moves")


def test_pegs_a_line_after_moves_between_numbered_pegs_are_states() -> None:
    lines, pegs = ["Hanoi"], [[3, 2, 1], [], []]
    for d, s, t in reference(N):
        pegs[t].append(pegs[s].pop())
        lines += [
            f"Move disk {d} from {s + 1} to {t + 1}",
            *(f"Peg {i}: {' '.join(map(str, p))}" for i, p in enumerate(pegs, 1)),
        ]
    assert check_lines(lines, N).ok


def test_a_line_like_a_move_before_a_move_of_another_shape_is_refused_too() -> None:
    lines = output("C", "Disk 3: A C")
    lines[6] = "A -> C"  # the move after it is read by another rule than the others
    with pytest.raises(AmongMoves) as caught:
        check_lines(lines, N)
    assert caught.value.line == 6


def test_a_table_row_of_stacks_is_a_state() -> None:
    assert not move_like(" 5:\t3 2\t\t1", ("1", "2", "3"))


@pytest.mark.parametrize("footer", ["Tower moved from A to C", "Done: A -> C", "Solved! (A to C)"])
def test_a_footer_read_as_a_move_after_the_tower_stands_is_two_readings(footer: str) -> None:
    lines = [*output("C")[:-1], footer]
    with pytest.raises(UnreadableInput, match=r"two readings disagree: illegal at step 8.*as a footer, line 11"):
        check_lines(lines, N)


@pytest.mark.parametrize("header", ["Moving tower from A to C", "Solve: A -> C", "Transfer A to C"])
@pytest.mark.parametrize("n", [3, 9])
def test_a_header_read_as_a_move_is_two_readings(header: str, n: int) -> None:
    lines = [header, *(f"Move disk {d} from {PEGS[s]} to {PEGS[t]}" for d, s, t in reference(n))]
    said = rf"two readings disagree: .*as a header, line 1 '{re.escape(header)}' leaves"
    with pytest.raises(UnreadableInput, match=said):
        check_lines(lines, n)


def test_an_early_illegal_move_no_header_explains_is_judged() -> None:
    lines = output("C")
    lines[2], lines[3] = lines[3], lines[2]  # disk 2 first: the program is wrong
    assert check_lines(lines, N).status == "illegal"
