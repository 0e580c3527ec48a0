"""``hanoi check``: every text form, the peg conventions, malformed lines (exit 2), illegal sequences (exit 1)."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.cli import main
from hanoi_harness.textcheck import MalformedLine, check_lines, parse_line
from tests.helpers import reference

LETTERS = "ABC"

FORMS: dict[str, Callable[[int, int, int, int], str]] = {
    "disk src dst, 0-2": lambda k, d, s, t: f"{d} {s} {t}",
    "src dst, 0-2": lambda k, d, s, t: f"{s} {t}",
    "disk src dst, 1-3": lambda k, d, s, t: f"{d} {s + 1} {t + 1}",
    "arrow, no disk": lambda k, d, s, t: f"{LETTERS[s]}->{LETTERS[t]}",
    "arrow, lower case": lambda k, d, s, t: f"{LETTERS[s].lower()} -> {LETTERS[t].lower()}",
    "count: disk arrow": lambda k, d, s, t: f"{k}: {d} {LETTERS[s]}->{LETTERS[t]}",
    "sentence": lambda k, d, s, t: f"Move disk {d} from {LETTERS[s]} to {LETTERS[t]}",
    "numbered sentence with rods": lambda k, d, s, t: (
        f"Step {k}: move disk {d} from rod {LETTERS[s]} to rod {LETTERS[t]}"
    ),
    "tuple": lambda k, d, s, t: f"({d}, {s}, {t})",
    "step. letter to letter": lambda k, d, s, t: f"{k}. {LETTERS[s]} to {LETTERS[t]}",
    "disk N: long arrow, 1-3": lambda k, d, s, t: f"disk {d}: {s + 1} --> {t + 1}",
    "arrow, 1-3, no disk": lambda k, d, s, t: f"{s + 1} => {t + 1}",
    "step disk src dst": lambda k, d, s, t: f"{k} {d} {s} {t}",
}


def lines_of(form: Callable[[int, int, int, int], str], n: int, *, headers: bool = True) -> list[str]:
    body = [form(k, d, s, t) + "\n" for k, (d, s, t) in enumerate(reference(n), 1)]
    if not headers:
        return body
    return [f"Tower of Hanoi, moving {n} disks from A to C\n", "\n", *body, f"Total moves: {2**n - 1}\n"]


Runner = Callable[..., tuple[int, str, str]]


@pytest.fixture
def hanoi(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runner:
    """hanoi(*argv, stdin=TEXT): run the command with TEXT on standard input; (status, stdout, stderr)."""

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.mark.parametrize("form", FORMS, ids=list(FORMS))
@pytest.mark.parametrize("n", [1, 4, 5])
def test_each_text_form_is_read_and_found_optimal(hanoi: Runner, form: str, n: int) -> None:
    text = "".join(lines_of(FORMS[form], n))
    code, out, err = hanoi("check", "-n", str(n), stdin=text)
    assert (code, err) == (0, ""), out
    assert out.startswith(f"ok: {2**n - 1} moves, legal and optimal for n = {n}")


def test_a_file_and_the_final_peg_in_the_input_s_labels(hanoi: Runner, tmp_path: Path) -> None:
    path = tmp_path / "moves.txt"
    path.write_text("".join(lines_of(FORMS["sentence"], 3)))
    code, out, _ = hanoi("check", "-n", "3", str(path), "--target", "C")
    assert code == 0 and out.endswith("the tower ends on peg C\n")
    code, out, _ = hanoi("check", "-n", "3", str(path), "--target", "B")
    assert code == 1 and out == "incomplete: after 7 moves the tower is on peg C, not B\n"
    path.write_text("".join(lines_of(FORMS["disk src dst, 1-3"], 3)))
    assert hanoi("check", "-n", "3", str(path), "--target", "3")[:2] == (
        0,
        "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg 3\n",
    )


def test_the_tower_may_end_on_either_other_peg_by_default(hanoi: Runner) -> None:
    to_b = "".join(f"{d} {'ACB'[s]} {'ACB'[t]}\n" for d, s, t in reference(4))  # pegs 1 and 2 exchanged
    assert hanoi("check", "-n", "4", stdin=to_b)[0] == 0
    assert hanoi("check", "-n", "4", "--target", "C", stdin=to_b)[0] == 1


@pytest.mark.parametrize(
    ("first", "convention"),
    [("A C", "A-C"), ("1 3", "1-3"), ("1 1 2", "1-3"), ("1 1 3", "1-3"), ("1 0 2", "0-2"), ("0 1", "0-2")],
)
def test_the_convention_comes_from_the_first_move(first: str, convention: str) -> None:
    assert check_lines([first], 2).extra["convention"] == convention


def test_pegs_option_forces_the_convention(hanoi: Runner) -> None:
    # "1 2" alone would be read as 1-3 (it leaves peg 1); forced to 0-2 it leaves an empty peg.
    code, out, _ = hanoi("check", "-n", "1", "--pegs", "0-2", stdin="1 2\n")
    assert code == 1 and "illegal at step 1, line 1 '1 2': peg 1 is empty" in out
    code, _, err = hanoi("check", "-n", "1", "--pegs", "1-3", stdin="0 2\n")
    assert code == 2 and "line 1" in err and "peg '0' is not one of 1, 2, 3" in err


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("A->C\nA->\n", 2, "an arrow needs a peg on each side"),
        ("A->C\nMove disk 1 from A to the right\n", 2, "'the' is not a peg"),
        ("1 0 2\n1 0 2 1 0\n", 2, "5 values"),
        ("A->C\nA->D\n", 2, "peg 'D' is not one of A, B, C"),
        ("1 0 2\nA->C\n", 2, "peg 'A' is not one of 0, 1, 2"),
        ("header\n\nx 0 2\n", 3, "the disk 'x' is not a number"),
        ("A => 7\n", 1, "peg '7' is not one of A, B, C"),
    ],
)
def test_a_malformed_move_line_is_one_line_with_its_number_and_status_2(
    hanoi: Runner, text: str, line: int, fragment: str
) -> None:
    code, out, err = hanoi("check", "-n", "2", stdin=text)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"line {line}: cannot read a move from" in err and fragment in err, err


@pytest.mark.parametrize(
    ("text", "n", "expected"),
    [
        (
            "Move disk 1 from A to C\nMove disk 2 from A to C\n",
            3,
            "illegal at step 2, line 2 'Move disk 2 from A to C': disk 2 cannot go onto the smaller disk 1 on peg C",
        ),
        (
            "# moves\n1: 1 A->B\n2: 1 A->C\n",
            2,
            "illegal at step 2, line 3 '2: 1 A->C': disk 1 is not on top of peg A (its top is 2)",
        ),
        ("A->C\nB->C\n", 2, "illegal at step 2, line 2 'B->C': peg B is empty"),
        ("1 1 3\n2 1 3\n", 2, "illegal at step 2, line 2 '2 1 3': disk 2 cannot go onto the smaller disk 1 on peg 3"),
        ("A->C\nC->C\n", 2, "illegal at step 2, line 2 'C->C': source and destination are both peg C"),
        ("A->B\n", 2, "incomplete: after 1 moves the disks are spread (peg A: 1; peg B: 1; peg C: 0)"),
        ("A->C\nC->B\nB->C\n", 1, "legal but not optimal: 3 moves, optimal is 1"),
        ("", 1, "incomplete: after 0 moves the tower is on peg 0, not 1 or 2"),
    ],
)
def test_illegal_and_wrong_sequences_exit_1_with_step_line_and_reason(
    hanoi: Runner, text: str, n: int, expected: str
) -> None:
    assert hanoi("check", "-n", str(n), stdin=text) == (1, expected + "\n", "")


def test_no_disks_and_no_moves_is_ok(hanoi: Runner) -> None:
    assert hanoi("check", "-n", "0", stdin="Total moves: 0\n")[0] == 0


def test_the_input_streams_and_stops_at_the_first_illegal_move() -> None:
    def lines() -> Iterator[str]:
        yield "1 A->C\n"
        yield "1 A->B\n"  # illegal: disk 1 is on C
        raise AssertionError("read past the illegal move")

    verdict = check_lines(lines(), 2)
    assert verdict.status == "illegal" and verdict.step == 2 and verdict.extra["line"] == 2


def test_a_long_run_streams() -> None:
    n = 14
    moves = (f"{k}: {d} {LETTERS[s]}->{LETTERS[t]}\n" for k, (d, s, t) in enumerate(reference(n), 1))
    assert check_lines(itertools.chain(["header\n"], moves), n).ok


def test_parse_line_shapes() -> None:
    assert parse_line("Moving 3 disks from A to C") is None
    assert parse_line("Enter the number of disks: 3") is None
    assert parse_line("  7") is None
    assert parse_line("peg1 -> peg3") == (None, "1", "3")
    assert parse_line("3) 2 A C") == (2, "A", "C")
    with pytest.raises(ValueError, match="arrow"):
        parse_line("-> C")
    with pytest.raises(MalformedLine):
        check_lines(["from A to"], 1)


def test_bad_target_or_pegs_are_usage_errors(hanoi: Runner) -> None:
    code, _, err = hanoi("check", "-n", "1", "--target", "D", stdin="A C\n")
    assert code == 2 and "--target" in err and err.count("\n") == 1
    code, _, err = hanoi("check", "-n", "1", "--pegs", "a-z", stdin="A C\n")
    assert code == 2 and "invalid choice" in err
    code, _, err = hanoi("check", "-n", "1", "no/such/file")
    assert code == 2 and "cannot read 'no/such/file'" in err


PIECES = [
    "0",
    "1",
    "2",
    "3",
    "12",
    "A",
    "b",
    "C",
    "D",
    "->",
    "=>",
    "-->",
    "→",
    ",",
    ":",
    ".",
    ")",
    "(",
    "#",
    "disk",
    "from",
    "to",
    "Move",
    "peg",
    "disks",
    "\t",
]
PEGS = ["A", "b", "C", "D", "0", "1", "3", "12", "AB", ""]


@st.composite
def move_like_lines(draw: st.DrawFn) -> str:
    """Lines shaped like moves (step, disk, source, separator, destination, trailer), near and off the shapes."""
    prefix = draw(st.sampled_from(["", "1: ", "12. ", "3) ", "#4 ", "Step 2: ", "7 ", " "]))
    disk = draw(st.sampled_from(["", "1 ", "disk 2 ", "disk 3: ", "12 ", "x ", "1,", "(1, "]))
    middle = draw(st.sampled_from([" ", "->", " -> ", "-->", "=>", " → ", ",", ", ", " to ", "\t", ". ", ""]))
    suffix = draw(st.sampled_from(["", " ", "\n", " extra", " 5", ".", " disks", ")"]))
    return prefix + disk + draw(st.sampled_from(PEGS)) + middle + draw(st.sampled_from(PEGS)) + suffix


@st.composite
def any_pieces(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.sampled_from(PIECES), max_size=8))
    return "".join(piece + draw(st.sampled_from(["", " ", "  "])) for piece in pieces)


@settings(max_examples=1500, deadline=None)
@given(text=st.one_of(move_like_lines(), any_pieces()))
def test_the_shortcuts_read_lines_as_the_general_rules_do(text: str) -> None:
    from hanoi_harness.textcheck import _parse_general

    def outcome(parse: Callable[[str], object]) -> object:
        try:
            return parse(text)
        except ValueError as exc:
            return f"ValueError: {exc}"

    assert outcome(parse_line) == outcome(_parse_general)
