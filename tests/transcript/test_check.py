"""Test ``hanoi check``: every text shape, peg conventions, the options.

Also malformed lines (exit 2), no moves (exit 2), illegal sequences (exit 1) and one-line lists.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hanoi_harness.cli.main import main
from hanoi_harness.transcript.check import MalformedLine, NoMoves, check_lines, describe
from hanoi_harness.transcript.infer import PROBE
from hanoi_harness.transcript.pegs import WORDS, PegNames, detect
from tests.helpers import assert_one_line_error, reference, run_cli

LETTERS = "ABC"
NAMES = ("left", "middle", "right")

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
    "disk after, colon": lambda k, d, s, t: f"{LETTERS[s]} -> {LETTERS[t]} : {d}",
    "disk after": lambda k, d, s, t: f"{LETTERS[s]} -> {LETTERS[t]} {d}",
    "disk after, in brackets": lambda k, d, s, t: f"{LETTERS[s]} -> {LETTERS[t]} (disk {d})",
    "plain, disk last": lambda k, d, s, t: f"{LETTERS[s]} {LETTERS[t]} {d}",
    "word pegs": lambda k, d, s, t: f"{NAMES[s]} -> {NAMES[t]}",
    "word pegs, sentence": lambda k, d, s, t: (
        f"Move disk {d} from {('Source', 'Spare', 'Target')[s]} to {('Source', 'Spare', 'Target')[t]}"
    ),
    "word pegs, plain": lambda k, d, s, t: f"{d} {('start', 'middle', 'end')[s]} {('start', 'middle', 'end')[t]}",
    "word pegs, from via to": lambda k, d, s, t: (
        f"Move disk {d} from {('from', 'via', 'to')[s]} to {('from', 'via', 'to')[t]}"
    ),
    "word pegs with an article": lambda k, d, s, t: f"{k}. Move disk {d} from the {NAMES[s]} peg to the {NAMES[t]} peg",
    "quoted pegs": lambda k, d, s, t: f"Move the disk {d} from '{LETTERS[s]}' to '{LETTERS[t]}'",
    "hash step, trailing dot": lambda k, d, s, t: f"#{k} Move disk {d} from peg {LETTERS[s]} to peg {LETTERS[t]}.",
    "colours and steps": lambda k, d, s, t: (
        f"Step {k} : moving Disk {('red', 'blue')[d % 2]} from "
        f"{('Start', 'Middle', 'Dest')[s]} to {('Start', 'Middle', 'Dest')[t]}"
    ),
    "arrows": lambda k, d, s, t: f"{LETTERS[s]} {'-' * (k % 5 + 1)}> {LETTERS[t]}",
    "colours": lambda k, d, s, t: f"\x1b[32mMove disk {d} from {LETTERS[s]} to {LETTERS[t]}\x1b[0m",
    "JSON object": lambda k, d, s, t: f'{{"disk": {d}, "from": "{LETTERS[s]}", "to": "{LETTERS[t]}"}}',
    "disks from 0": lambda k, d, s, t: f"Move disk {d - 1} from {s} to {t}",
}


def lines_of(form: Callable[[int, int, int, int], str], n: int, *, headers: bool = True) -> list[str]:
    body = [form(k, d, s, t) + "\n" for k, (d, s, t) in enumerate(reference(n), 1)]
    if not headers:
        return body
    return [f"Tower of Hanoi, moving {n} disks from A to C\n", "\n", *body, f"Total moves: {2**n - 1}\n"]


Runner = Callable[..., tuple[int, str, str]]


@pytest.fixture
def hanoi(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runner:
    """Return a runner of ``hanoi *argv`` in this process.

    *stdin* (str or bytes) is its standard input; it returns (status, out, err).
    """

    def run(*argv: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            data = stdin.encode() if isinstance(stdin, str) else stdin
            monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
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


NO_DISK = {"src dst, 0-2", "arrow, no disk", "arrow, lower case", "step. letter to letter", "arrow, 1-3, no disk"}
NO_DISK |= {"word pegs", "colours and steps", "arrows", "disks from 0"}  # the last: the first disk named decides
WITH_DISKS = [form for form in FORMS if form not in NO_DISK]


@pytest.mark.parametrize("form", WITH_DISKS)
def test_a_wrong_disk_number_is_illegal_at_its_line(form: str) -> None:
    n, k = 4, 6  # move 6 moves disk 2 from peg 2 to peg 1; the line says disk 3
    lines = lines_of(FORMS[form], n, headers=False)
    d, s, t = list(reference(n))[k - 1]
    lines[k - 1] = FORMS[form](k, d + 1, s, t) + "\n"
    verdict = check_lines(lines, n)
    assert (verdict.status, verdict.step, verdict.extra["line"]) == ("illegal", k, k), verdict
    assert verdict.reason == "disk 3 is not on top of peg 2 (its top is 2)"


def test_a_disk_after_the_pegs_is_read_not_dropped() -> None:
    # 'A -> C : 3' moving the top disk (4) was accepted: the named disk is what moves.
    lines = ["A -> B : 1", "A -> C : 2", "B -> C : 1", "A -> B : 4"]
    expected = "illegal at step 4, line 4 'A -> B : 4': disk 4 is not on top of peg A (its top is 3)"
    assert describe(check_lines(lines, 4), 4) == expected


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
    [
        ("A C", "A-C"),
        ("1 3", "1-3"),
        ("1 1 2", "1-3"),
        ("1 1 3", "1-3"),
        ("1 0 2", "0-2"),
        ("0 1", "0-2"),
        ("left -> right", "words"),
        ("Move disk 1 from Source to Target", "words"),
        ("1 left", "cyclic"),
    ],
)
def test_the_convention_comes_from_the_first_move(first: str, convention: str) -> None:
    assert check_lines([first], 2).extra["convention"] == convention


def test_pegs_option_forces_the_convention(hanoi: Runner) -> None:
    # "1 2" alone would be read as 1-3 (it leaves peg 1); forced to 0-2 it leaves an empty peg.
    code, out, _ = hanoi("check", "-n", "1", "--pegs", "0-2", stdin="1 2\n")
    assert code == 1 and "illegal at step 1, line 1 '1 2': peg 1 is empty" in out
    code, _, err = hanoi("check", "-n", "1", "--pegs", "1-3", stdin="0 2\n")
    assert_one_line_error(code, err, "line 1", "peg '0' is not 1, 2 or 3")


@pytest.mark.parametrize(
    ("pegs", "labels"),
    [("S,A,D", "SAD"), ("s,a,d", "sad"), ("left,centre,right", ("left", "centre", "right")), ("X, Y, Z", "XYZ")],
)
def test_pegs_option_takes_three_names_in_order(pegs: str, labels: tuple[str, str, str] | str) -> None:
    lines = [f"Move disk {d} from {labels[s]} to {labels[t]}" for d, s, t in reference(3)]
    verdict = check_lines(lines, 3, pegs=pegs)
    assert verdict.ok and verdict.extra["convention"] == pegs.replace(" ", "")
    assert describe(verdict, 3).endswith(f"the tower ends on peg {labels[2]}")


@pytest.mark.parametrize(
    ("first", "fragment"),
    [
        ("Move the disk 1 from 'S' to 'D'", "--pegs S,A,D"),
        ("S -> A", "--pegs S,A,D"),
        ("x -> z", "--pegs X,Y,Z"),
        ("L -> R", "--pegs L,M,R"),
        ("Q -> R", "--pegs Q,OTHER,R"),
        ("1: alpha --> gamma", "--pegs alpha,OTHER,gamma"),
        ("A => 7", "not written alike"),
    ],
)
def test_pegs_that_need_naming_are_refused_with_the_option_that_reads_them(
    hanoi: Runner, first: str, fragment: str
) -> None:
    code, out, err = hanoi("check", "-n", "3", stdin=f"Hanoi\n{first}\n")
    assert out == ""
    assert_one_line_error(code, err, f"line 2: cannot read a move from {first!r}", fragment)


@pytest.mark.parametrize("bad", ["a-z", "S,A", "S,A,D,E", "S,S,D", "peg,A,B", "S,A,D-1", ""])
def test_a_bad_pegs_option_is_refused(hanoi: Runner, bad: str) -> None:
    code, _, err = hanoi("check", "-n", "1", "--pegs", bad, stdin="A C\n")
    assert_one_line_error(code, err, "argument --pegs")
    with pytest.raises(Exception, match="--pegs"):
        check_lines(["A C"], 1, pegs=bad)


@pytest.mark.parametrize(("bad", "pegs"), [("S,S,D", 3), ("S,A,s,D", 4), ("P,Q,R,S,P", 5)])
def test_names_that_repeat_are_refused_on_any_number_of_pegs(hanoi: Runner, bad: str, pegs: int) -> None:
    code, _, err = hanoi("check", "-n", "1", "--pegs-count", str(pegs), "--pegs", bad, stdin="S D\n")
    assert_one_line_error(code, err, "argument --pegs", "the names must differ")


def test_words_are_known_in_any_case() -> None:
    assert detect("LEFT", "Right").name == "words"
    assert {WORDS[w] for w in ("source", "auxiliary", "spare", "helper", "via", "target", "destination", "dest")} == {
        0,
        1,
        2,
    }
    assert PegNames.of("words").peg("DeStInAtIoN") == 2


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("A->C\nA->\n", 2, "an arrow needs a peg on each side"),
        ("A->C\nMove disk 1 from A to the right\n", 2, "peg 'right' is not A, B or C"),
        ("A->C\nMove disk 1 from A to the shelf\n", 2, "'shelf' is not a peg"),
        ("1 0 2\n1 0 2 1 0\n", 2, "5 values"),
        ("A->C\nA->D\n", 2, "peg 'D' is not A, B or C"),
        ("1 0 2\nA->C\n", 2, "peg 'A' is not 0, 1 or 2"),
        ("header\n\nx 0 2\n", 3, "the disk 'x' is not a number"),
        ("A->C\nA -> B -> C\n", 2, "2 arrows"),
        ("A->C\nA -> B 2 3\n", 2, "2 numbers after the pegs (2, 3)"),
        ("A->C\n1 left\n", 2, "a disk and a direction, in moves whose pegs are A-C"),
        ("1 left\nA->C\n", 2, "a move between pegs, in moves read as directions"),
    ],
)
def test_a_malformed_move_line_is_one_line_with_its_number_and_status_2(
    hanoi: Runner, text: str, line: int, fragment: str
) -> None:
    code, out, err = hanoi("check", "-n", "2", stdin=text)
    assert out == ""
    assert_one_line_error(code, err, f"line {line}: cannot read a move from", fragment)


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
        (
            "A->C\nC->B\nB->C\n",
            1,
            "legal but not optimal: 3 moves, optimal is 1; step 2, line 2 'C->B', leaves every shortest solution",
        ),
        (
            "left -> right\nleft -> right\n",
            2,
            "illegal at step 2, line 2 'left -> right': disk 2 cannot go onto the smaller disk 1 on peg right",
        ),
        (
            "Move disk 1 from Source to Target\nMove disk 2 from Source to Spare\nMove disk 1 from Source to Spare\n",
            2,
            "illegal at step 3, line 3 'Move disk 1 from Source to Spare': peg Source is empty",
        ),
        ("[(1, 3), (1, 2), (1, 2)]\n", 2, "illegal at step 3, line 1 '(1, 2)': peg 1 is empty"),
        (
            "1 left\n2 left\n",
            2,
            "illegal at step 2, line 2 '2 left': disk 2 cannot go onto the smaller disk 1 on peg 2",
        ),
        ("2 right\n", 2, "illegal at step 1, line 1 '2 right': disk 2 is not on top of peg 0 (its top is 1)"),
        (
            "Move disk 0 from 0 to 2\nMove disk 0 from 0 to 1\n",
            2,
            "illegal at step 2, line 2 'Move disk 0 from 0 to 1': disk 0 is not on top of peg 0 (its top is 1)",
        ),
    ],
)
def test_illegal_and_wrong_sequences_exit_1_with_step_line_and_reason(
    hanoi: Runner, text: str, n: int, expected: str
) -> None:
    assert hanoi("check", "-n", str(n), stdin=text) == (1, expected + "\n", "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no moves read: the input is empty"),
        ("\n\n  \n", "no moves read: the input's 3 lines are blank"),
        ("Hello\n", "no moves read: the only line is not a move: 'Hello'"),
        (
            "  |  |  |\n -+- |  |\n--+--|  |\n",
            "no moves read: none of the 3 lines is a move (line 1: '|  |  |')",
        ),
        ("[(1, 3), (1, 2)] are the moves\n\n", "no moves read: none of the 2 lines is a move"),
        ("Total moves: 7\nA: 3 2 1\n", "line 1: 'Total moves: 7'"),
    ],
)
def test_no_move_at_all_is_one_line_and_status_2(hanoi: Runner, text: str, message: str) -> None:
    code, out, err = hanoi("check", "-n", "3", stdin=text)
    assert out == ""
    assert_one_line_error(code, err, message)
    with pytest.raises(NoMoves):
        check_lines(io.StringIO(text), 3)


def test_no_disks_and_no_moves_is_ok(hanoi: Runner) -> None:
    assert hanoi("check", "-n", "0", stdin="Total moves: 0\n")[0] == 0
    assert hanoi("check", "-n", "0", stdin="")[0] == 0


def test_the_input_streams_and_stops_at_the_first_illegal_move() -> None:
    def lines() -> Iterator[str]:
        yield "1 A->C\n"
        yield "1 A->B\n"  # illegal: disk 1 is on C
        yield from ["2 A->C\n"] * (PROBE - 2)  # the lines read ahead to infer the conventions
        raise AssertionError("read past the illegal move and the lines read ahead")

    verdict = check_lines(lines(), 2)
    assert verdict.status == "illegal" and verdict.step == 2 and verdict.extra["line"] == 2


def test_a_long_run_streams() -> None:
    n = 14
    moves = (f"{k}: {d} {LETTERS[s]}->{LETTERS[t]}\n" for k, (d, s, t) in enumerate(reference(n), 1))
    assert check_lines(itertools.chain(["header\n"], moves), n).ok


@pytest.mark.parametrize("n", [3, 12])
@pytest.mark.parametrize(
    "item",
    [
        lambda d, s, t: f"({s + 1}, {t + 1})",
        lambda d, s, t: f'[{d},"{LETTERS[s]}","{LETTERS[t]}"]',
        lambda d, s, t: f"({d}, '{LETTERS[s]}', '{LETTERS[t]}')",
    ],
    ids=["pairs", "JSON", "tuples"],
)
def test_a_list_of_moves_on_one_line_is_read_whatever_its_length(n: int, item: Callable[[int, int, int], str]) -> None:
    items = [item(d, s, t) for d, s, t in reference(n)]
    line = "[" + ", ".join(items) + "]\n"
    for text in ([line], io.StringIO(line), [f"moves = {line}"]):  # in memory, as a stream, after a label
        assert check_lines(text, n).ok
    first_dst = next(reference(n))[2]
    items[1] = item(2, 0, first_dst)  # disk 2 onto disk 1
    verdict = check_lines(io.StringIO("[" + ", ".join(items) + "]\n"), n)
    assert (verdict.status, verdict.step, verdict.extra["line"], verdict.extra["text"]) == ("illegal", 2, 1, items[1])


def test_a_bad_item_far_into_a_long_list_is_malformed_there() -> None:
    items = [f"({s + 1}, {t + 1})" for _, s, t in reference(12)]
    items[-3:-3] = ["(1, 2, 3, 4, 5)"]  # 4093 items in, some 32000 characters
    bad = "[" + ", ".join(items) + "]"
    with pytest.raises(MalformedLine, match=r"line 1: cannot read a move from '\(1, 2, 3, 4, 5\)'"):
        check_lines(io.StringIO(bad), 12)


def test_bad_target_or_file_are_usage_errors(hanoi: Runner) -> None:
    code, _, err = hanoi("check", "-n", "1", "--target", "D", stdin="A C\n")
    assert_one_line_error(code, err, "--target")
    code, _, err = hanoi("check", "-n", "1", "no/such/file")
    assert_one_line_error(code, err, "cannot read 'no/such/file'")
    code, _, err = hanoi("check", "-n", "1", "--disks", "2-based", stdin="A C\n")
    assert_one_line_error(code, err, "argument --disks")
    code, _, err = hanoi("check", "-n", str(10**20), stdin="A C\n")
    assert_one_line_error(code, err, "at most 10000 disks")


def test_targets_in_words_and_names() -> None:
    lines = [f"{NAMES[s]} -> {NAMES[t]}" for _, s, t in reference(2)]
    assert check_lines(lines, 2, target="right").ok
    assert check_lines(lines, 2, target="C").ok
    assert check_lines(lines, 2, target="middle").status == "incomplete"


def test_disks_option() -> None:
    zero = [f"{d - 1} {s} {t}" for d, s, t in reference(3)]
    assert check_lines(zero, 3, disks="0-based").ok
    assert check_lines(zero, 3).extra["disks"] == "0-based"
    one = [f"{d} {s} {t}" for d, s, t in reference(3)]
    assert check_lines(one, 3, disks="0-based").status == "illegal"
    assert check_lines(zero, 3, disks="1-based").status == "illegal"


# Conventions inferred from the whole input (hanoi_harness.transcript.infer), each said on standard error.

SOLUTION = [(1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2)]


@pytest.mark.parametrize(
    ("shape", "said"),
    [
        ("Mover el disco {d} de la torre de {s} a la torre de {t}", ""),
        ("Bewege Scheibe {d} von {s} nach {t}", ""),
        ("第{k}步: 将盘子{d}从{s}移到{t}", ""),
        ("plate{d}:{s}-->{t}", "read the number before the pegs as the disk"),
        ("{k}: {s}-->{t}", ""),
        ("Move {s} to {t}", ""),
        ("Move disk from {s} {t}", ""),
    ],
)
def test_moves_in_other_words_are_read_and_the_inference_said(hanoi: Runner, shape: str, said: str) -> None:
    names = (
        ("origen", "auxiliar", "destino") if "torre" in shape else ("A", "B", "C") if "{s} {t}" not in shape else "XYZ"
    )
    if shape.startswith("Move {s}"):
        names = ("1", "2", "3")
    text = "".join(shape.format(k=k, d=d, s=names[s], t=names[t]) + "\n" for k, (d, s, t) in enumerate(SOLUTION, 1))
    code, out, err = hanoi("check", "-n", "3", stdin=text)
    assert code == 0, out + err
    assert said in err and err.count("\n") <= 1, err


def test_x_from_y_is_read_as_y_to_x_and_said(hanoi: Runner) -> None:
    names = ("left", "mid", "right")
    text = "".join(f"{names[s]} to {names[t]}\n" if s < t else f"{names[t]} from {names[s]}\n" for _, s, t in SOLUTION)
    code, out, err = hanoi("check", "-n", "3", stdin=text)
    assert code == 0, out
    assert err == "hanoi check: read `X from Y` as Y -> X\n"


@pytest.mark.parametrize("separator", [", ", "<br>", " ", "; "])
def test_every_move_of_a_line_of_several_is_read(hanoi: Runner, separator: str) -> None:
    moves = separator.join(f"{d}:{LETTERS[s]}->{LETTERS[t]}" for d, s, t in SOLUTION)
    assert hanoi("check", "-n", "3", stdin=moves + "\n")[0] == 0
    wrong = moves.replace("3:A->C", "3:A->B")
    code, out, _ = hanoi("check", "-n", "3", stdin=wrong + "\n")
    assert code == 1 and out.startswith("illegal at step 4, line 1 "), out


def test_a_line_of_several_moves_with_one_unreadable_piece_is_refused(hanoi: Runner) -> None:
    code, out, err = hanoi("check", "-n", "2", stdin="A to B, A to C, oops, B to C\n")
    assert (code, out) == (2, "")
    assert "line 1: cannot read a move from" in err and "'oops' is not a move" in err


def test_a_legend_before_the_moves_is_no_move(hanoi: Runner) -> None:
    text = "from = A, to = C, help = B\n" + "".join(f"{LETTERS[s]} -> {LETTERS[t]}\n" for _, s, t in SOLUTION)
    assert hanoi("check", "-n", "3", stdin=text)[0] == 0


def test_a_step_counter_glued_to_a_word_is_no_disk_and_a_disk_is(hanoi: Runner) -> None:
    steps = "".join(f"move{k}: {LETTERS[s]} -> {LETTERS[t]}\n" for k, (_, s, t) in enumerate(SOLUTION, 1))
    code, out, err = hanoi("check", "-n", "3", stdin=steps)
    assert code == 0, out + err
    disks = "".join(f"plate{d}: {LETTERS[s]} -> {LETTERS[t]}\n" for d, s, t in SOLUTION).replace("plate3", "plate2")
    code, out, _ = hanoi("check", "-n", "3", stdin=disks)
    assert out.startswith("illegal at step 4, line 4 'plate2: A -> C': disk 2 is not on top"), out
    code, out, _ = hanoi("check", "-n", "3", "--counter", "steps", stdin=disks)
    assert code == 0, out  # forced: the numbers are steps, the moves are legal


def test_states_are_read_by_differencing_and_a_jump_is_refused(hanoi: Runner) -> None:
    text = "[[3, 2, 1], [], []]\n[[3, 2], [], [1]]\n[[3], [2], [1]]\n"
    code, out, err = hanoi("check", "-n", "3", stdin=text)
    assert code == 1 and out.startswith("incomplete"), out
    assert "states" in err
    code, out, err = hanoi("check", "-n", "3", stdin="A: 3 2 1\nB:\nC:\n\nA: 3\nB: 2\nC: 1\n")
    assert (code, out) == (2, "")
    assert "line 7: cannot read a move from 'C: 1': this state is not one move from the one before it" in err


def test_letters_in_a_known_order_are_inferred_and_others_refused(hanoi: Runner) -> None:
    text = "".join(f"{'SAD'[s]} -> {'SAD'[t]}\n" for _, s, t in SOLUTION)
    code, _, err = hanoi("check", "-n", "3", stdin=text)
    assert code == 0 and err.startswith("hanoi check: read pegs S, A, D ("), err
    text = "".join(f"{'QAD'[s]} -> {'QAD'[t]}\n" for _, s, t in SOLUTION)
    code, _, err = hanoi("check", "-n", "3", stdin=text)
    assert code == 2 and "--pegs" in err, err


@pytest.mark.parametrize("pegs", [4, 5, 26, 27, 40])
def test_the_example_of_a_refused_pegs_option_is_accepted_as_it_is(
    capsys: pytest.CaptureFixture[str], pegs: int
) -> None:
    code, _, err = run_cli(capsys, "check", "-n", "1", "/dev/null", "--pegs-count", str(pegs), "--pegs", "a,b,c,d,e,f")
    assert code == 2
    shown = err.split("(e.g. ")[1].split(")")[0]
    assert PegNames.of(shown, pegs).labels == tuple(shown.split(","))  # no name repeats: following it works
