"""Test ``hanoi check`` on the shapes of the inference.

Other languages and word orders, moves across two lines, a program's own peg names, pegs written as
their disks, moves followed by their state.
"""

from __future__ import annotations

import pytest

from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.check import MalformedLine, UnreadableInput, check_lines, describe, parse_line
from hanoi_harness.transcript.pegs import WORDS
from tests.helpers import reference

N = 4
SOLUTION = list(reference(N))

SHAPES = {
    "Japanese, numbers": "{k} 手目：円盤 {d} を {s1} から {t1} に移す",
    "Japanese, letters, no spaces": "{d}を{s}から{t}へ移動",
    "Korean": "원반 {d}을 {s}에서 {t}로 이동",
    "Korean, a counter glued to the peg": "원반 {d}: {s1}번에서 {t1}번으로 옮김",
    "Korean, a peg word glued to its particle": "원반 {d}를 {s} 기둥에서 {t} 기둥으로 이동",
    "Turkish suffixes": "Disk {d}'i {s}'dan {t}'ye taşı",
    "Russian": "Переложить диск {d} со стержня номер {s1} на стержень номер {t1}",
    "Russian, transliterated": "Dvigaem disk {d} iz palku {s1} na {t1}.",
    "Chinese, an ordinal for the disk": "第 {d} 个盘从 {s} 到 {t}",
    "Vietnamese": "Chuyển đĩa {d} từ cột {s} sang cột {t}",
    "Swedish": "Flytta disk {d} från {s} till {t}",
    "Polish": "Przenieś krążek {d} z {s} na {t}",
    "Indonesian": "Pindahkan cakram {d} dari {s} ke {t}",
    "Greek": "Μετακίνησε τον δίσκο {d} από τον {s} στον {t}",
    "a peg glued to 'to'": "Move disk {d} from {s}to {t}",
    "peg number": "Move disk {d} from peg number {s1} to peg number {t1}",
}


def lines(shape: str, moves: list[tuple[int, int, int]]) -> list[str]:
    return [shape.format(k=k, d=d, s="ABC"[s], t="ABC"[t], s1=s + 1, t1=t + 1) for k, (d, s, t) in enumerate(moves, 1)]


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_a_solution_in_any_of_these_shapes_is_ok(shape: str) -> None:
    verdict = check_lines(lines(shape, SOLUTION), N)
    assert verdict.ok and verdict.moves == 2**N - 1, describe(verdict, N)


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("kind", ["destination", "disk"])
def test_a_changed_destination_or_disk_is_caught_at_its_step_and_line(shape: str, kind: str) -> None:
    moves = list(SOLUTION)
    d, s, t = moves[4]  # (1, 1, 0): disk 1 from B to A
    moves[4] = (d, s, 3 - s - t) if kind == "destination" else (2, s, t)
    text = ["Towers of Hanoi", *lines(shape, moves)]
    verdict = check_lines(text, N)
    assert verdict.status != "ok", describe(verdict, N)
    if kind == "disk":
        assert (verdict.status, verdict.step, verdict.extra["line"]) == ("illegal", 5, 6), describe(verdict, N)
    else:
        assert verdict.status == "illegal" and verdict.step is not None and verdict.step >= 5, describe(verdict, N)


@pytest.mark.parametrize("text", ["ハノイの塔からの手順", "A에서 시작", "Disk 1'i A'dan"])
def test_prose_or_half_a_move_in_these_orders_is_no_move(text: str) -> None:
    assert parse_line(text) is None


def test_a_capital_letter_is_a_peg_not_a_connective() -> None:
    assert parse_line("Move disk 1 from X to Z") == (1, "X", "Z")  # 'z' is Polish for 'from'
    assert parse_line("Move disk 1 z X na Z") == (1, "X", "Z")


TWO_LINES = {
    "disk, then from-to": ("Move disk {d}", "from {s} to {t}"),
    "from, then to": ("Move disk {d} from {s}", "to {t}"),
    "a caption, then an arrow": ("Disk {d}:", "  {s} -> {t}"),
    "rods, indented": ("Step: move disk {d} from rod {s}", "      to rod {t}"),
}


@pytest.mark.parametrize("shape", TWO_LINES.values(), ids=TWO_LINES.keys())
def test_moves_across_two_lines_are_read_and_a_changed_disk_caught_at_the_first(shape: tuple[str, str]) -> None:
    def text(moves: list[tuple[int, int, int]]) -> list[str]:
        return [part.format(d=d, s="ABC"[s], t="ABC"[t]) for d, s, t in moves for part in (*shape, "")]

    verdict = check_lines(text(SOLUTION), N)
    assert verdict.ok and "across two lines" in verdict.extra["read"], describe(verdict, N)
    moves = list(SOLUTION)
    moves[4] = (2, *moves[4][1:])
    verdict = check_lines(text(moves), N)
    assert (verdict.status, verdict.step, verdict.extra["line"]) == ("illegal", 5, 13), describe(verdict, N)
    try:
        verdict = check_lines(text(SOLUTION), N, read="moves")
    except UnreadableInput:
        return  # forced to read each line alone: 'Move disk 1 from A' is refused
    assert "across" not in verdict.extra["read"]


def test_a_half_move_that_the_next_line_does_not_end_is_read_alone() -> None:
    lines = ["Move disk 1", "from A to C", "Move disk 2 from A", "Total: 2 moves"]
    with pytest.raises(MalformedLine, match=r"line 3: .*'from' .*no destination"):
        check_lines(lines, 2, read="two-lines")


NAMES = ("alpha", "beta", "gamma")


def named(moves: list[tuple[int, int, int]], names: tuple[str, ...] = NAMES) -> list[str]:
    return [f"disk {d}: {names[s]} --> {names[t]}" for d, s, t in moves]


def test_a_solution_in_names_of_no_known_order_is_refused_naming_the_readings_and_the_option() -> None:
    with pytest.raises(UnreadableInput) as caught:
        check_lines(named(SOLUTION), N)
    message = str(caught.value)
    assert "with alpha (the first move's source) the 15 moves solve the puzzle" in message
    assert "with beta or gamma move 1 leaves an empty peg" in message
    assert message.endswith("say which with --pegs alpha,beta,gamma (start peg first)")
    assert check_lines(named(SOLUTION), N, pegs="alpha,beta,gamma").ok


def test_a_wrong_program_in_names_of_no_known_order_gets_its_verdict() -> None:
    moves = list(SOLUTION)
    moves[6] = moves[5]
    verdict = check_lines(named(moves), N)
    assert verdict.status == "illegal" and verdict.step == 7, describe(verdict, N)


@pytest.mark.parametrize(
    "header", ["Moving 4 disks from alpha to gamma", "from = alpha, to = gamma, via = beta", "Pegs: alpha beta gamma"]
)
def test_a_start_peg_the_text_names_before_the_moves_is_decisive(header: str) -> None:
    verdict = check_lines([header, *named(SOLUTION)], N)
    assert verdict.ok and "as the text before the moves says" in verdict.extra["read"], describe(verdict, N)
    swapped = named(SOLUTION, ("beta", "alpha", "gamma"))  # the first move leaves beta, not the peg named
    with pytest.raises(UnreadableInput, match="names alpha as the start peg, but the first move leaves beta"):
        check_lines([header, *swapped], N)


def test_names_of_no_known_order_under_other_rules_are_refused_up_front() -> None:
    from hanoi_harness.core.puzzle import CYCLIC

    with pytest.raises(UnreadableInput, match="the verdict depends on it: name them start peg first with --pegs"):
        check_lines(named(SOLUTION), N, puzzle=CYCLIC)


def test_a_move_that_names_its_disk_and_destination_alone_leaves_the_peg_the_disk_is_on() -> None:
    def text(moves: list[tuple[int, int, int]]) -> list[str]:
        return [
            f"Move disk {d} to peg {t + 1}" if d == 1 else f"Move disk {d} from {s + 1} to {t + 1}" for d, s, t in moves
        ]

    verdict = check_lines(text(SOLUTION), N)
    assert verdict.ok and "1-4" not in verdict.extra["read"], describe(verdict, N)
    moves = list(SOLUTION)
    moves[2] = (2, *moves[2][1:])  # 'Move disk 2 from ...': the disk named is not the one on top
    verdict = check_lines(text(moves), N)
    assert (verdict.status, verdict.step) == ("illegal", 3), describe(verdict, N)
    assert parse_line("Move disk 1 to the left") == (1, None, "left")  # a direction, round a circle


def held(moves: list[tuple[int, int, int]], n: int = N) -> list[str]:
    """Return *moves* with each peg written as the disks it holds.

    The disks are those the peg holds before the move, bottom first.
    """
    pegs: list[list[int]] = [list(range(n, 0, -1)), [], []]
    out = []
    for _, s, t in moves:
        out.append(f"Moving from a: {pegs[s]} to c: {pegs[t]}")
        if pegs[s]:
            pegs[t].append(pegs[s].pop())
    return out


def test_pegs_written_as_the_disks_they_hold_are_found_by_their_disks() -> None:
    verdict = check_lines(held(SOLUTION), N)
    assert verdict.ok and "disks they hold" in verdict.extra["read"], describe(verdict, N)
    lines = held(SOLUTION)
    lines[3], lines[4] = lines[4], lines[3]
    with pytest.raises(MalformedLine, match=r"^line 4: .*no peg holds"):
        check_lines(lines, N)  # two lines swapped: the pegs the fourth names hold other disks


def test_a_peg_written_as_disks_no_peg_holds_is_refused_at_its_line() -> None:
    lines = held(SOLUTION)
    lines[2] = "Moving from a: [4, 1] to c: [2]"
    with pytest.raises(MalformedLine, match=r"line 3: .*no peg holds \[4, 1\] at this move"):
        check_lines(lines, N)
    from hanoi_harness.core.puzzle import CYCLIC

    with pytest.raises(UsageError, match="classic rules alone"):
        check_lines(held(SOLUTION), N, puzzle=CYCLIC)


def with_states(moves: list[tuple[int, int, int]], n: int = N) -> list[str]:
    """Each move followed by the pegs after it, as a list of lists."""
    pegs: list[list[int]] = [list(range(n, 0, -1)), [], []]
    out = []
    for _, s, t in moves:
        if pegs[s]:
            pegs[t].append(pegs[s].pop())
        out.append(f"Move disk from {s} to {t} : {pegs}")
    return out


def test_a_move_whose_line_shows_another_state_is_illegal_at_that_step() -> None:
    lines = with_states(SOLUTION)
    assert check_lines(lines, N).ok
    lines[5] = lines[5].split(" : ")[0] + " : " + lines[4].split(" : ")[1]  # the state before the move
    verdict = check_lines(lines, N)
    assert (verdict.status, verdict.step, verdict.extra["line"]) == ("illegal", 6, 6), describe(verdict, N)
    assert "the state printed after the move is not the pegs'" in describe(verdict, N)


@pytest.mark.parametrize("swapped", [0, 3, 13])
def test_step_numbers_with_two_moves_swapped_still_count_the_moves(swapped: int) -> None:
    moves = [f"{k}:{'ABC'[s]}>{'ABC'[t]}" for k, (_, s, t) in enumerate(SOLUTION, 1)]
    moves[swapped], moves[swapped + 1] = moves[swapped + 1], moves[swapped]
    verdict = check_lines([" ".join(moves).replace(">", "->")], N)  # one line, as binary solvers print
    assert verdict.status == "illegal" and (verdict.step or 0) > swapped, describe(verdict, N)
    assert "as the disk" not in verdict.extra["read"]  # the numbers are steps, as the rules read them


def test_a_state_printed_as_a_dictionary_is_read() -> None:
    pegs: dict[str, list[int]] = {"A": [4, 3, 2, 1], "B": [], "C": []}
    lines = [str(pegs)]
    for _, s, t in SOLUTION:
        pegs["ABC"[t]].append(pegs["ABC"[s]].pop())
        lines.append(str(pegs))
    verdict = check_lines(lines, N)
    assert verdict.ok and "states" in verdict.extra["read"], describe(verdict, N)


@pytest.mark.parametrize("names", [("from", "using", "to"), ("Start", "Mitte", "Ende"), ("source", "spare", "dest")])
def test_names_of_which_two_are_known_give_the_third_its_place(names: tuple[str, str, str]) -> None:
    lines = [f"Move disk {d} from {names[s]} to {names[t]}" for d, s, t in SOLUTION]
    verdict = check_lines(lines, N)
    assert verdict.ok, describe(verdict, N)
    moves = list(SOLUTION)
    moves[0] = (1, 1, 2)  # the first move leaves the middle peg
    wrong = [f"Move disk {d} from {names[s]} to {names[t]}" for d, s, t in moves]
    if all(name.lower() in WORDS for name in names):  # a built-in convention: its start peg is the first
        assert check_lines(wrong, N).step == 1
        return
    with pytest.raises(UnreadableInput, match=f"put {names[0]} first, but the first move leaves {names[1]}"):
        check_lines(wrong, N)  # two readings: the names' order, or the first move's source


@pytest.mark.parametrize(
    ("shape", "names"),
    [
        ("Sposta il disco {d} da {s} a {t}", ("T1", "T2", "T3")),
        ("Sposta un disco da {s} a {t}", ("sx", "centro", "destra")),
        ("nombre de disques: deplacez {s} vers {t}", ("a", "b", "c")),
    ],
)
def test_labels_numbered_in_a_row_italian_names_and_a_prompt_before_the_move(
    shape: str, names: tuple[str, str, str]
) -> None:
    verdict = check_lines([shape.format(d=d, s=names[s], t=names[t]) for d, s, t in SOLUTION], N)
    assert verdict.ok, describe(verdict, N)
