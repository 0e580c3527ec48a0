"""Test ``hanoi check`` on outputs shaped as real programs print them.

Each shape once led to a wrong verdict: these runs must be read right, or
refused, never judged on moves that are not there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.transcript.check import check_lines
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


def states(n: int) -> list[list[list[int]]]:
    """The pegs after each move of the reference solution, the start first."""
    pegs: list[list[int]] = [list(range(n, 0, -1)), [], []]
    out = [[list(p) for p in pegs]]
    for _, s, t in reference(n):
        pegs[t].append(pegs[s].pop())
        out.append([list(p) for p in pegs])
    return out


def test_a_table_of_a_counter_and_three_stacks_is_states(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # C: printf("%2d:\t", k); then each peg's disks and a tab
    rows = [f"{k:2}:\t" + "\t".join(" ".join(map(str, p)) + " " for p in pegs) for k, pegs in enumerate(states(4))]
    code, out, err = run_cli(capsys, "check", "-n", "4", write(tmp_path, rows))
    assert (code, out) == (0, "ok: 15 moves, legal and optimal for n = 4; the tower ends on peg 2\n")
    assert "(states)" in err
    code, out, _ = run_cli(capsys, "check", "-n", "4", write(tmp_path, rows[:5] + rows[6:]))
    assert code == 2  # a row gone: the states jump, never a verdict


def test_stacks_one_a_line_are_states(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Python: print("Initial:"); then for each state, print(peg) for each peg, and a blank line
    lines = ["Initial:"]
    for pegs in states(3):
        lines += [str(p) for p in pegs] + [""]
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, lines))
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg 2\n")


def test_output_with_no_move_and_a_final_state_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, ["Tower of Hanoi n=3", "[]", "[]", "[3,2,1]"])
    code, out, err = run_cli(capsys, "check", "-n", "3", path)
    assert (code, out) == (2, "")
    assert "--read states" in err and "Traceback" not in err
    code, out, err = run_cli(capsys, "check", "-n", "3", "--read", "states", path)
    assert (code, out) == (2, "")
    assert "line 4" in err


def test_lists_of_three_numbers_are_moves(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Python: print([disk, src, dst])
    lines = [str([d, s, t]) for d, s, t in reference(3)]
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, lines))
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg 2\n")


def test_a_dict_of_the_pegs_after_each_move_names_the_final_peg(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Python: print(f"Moving disk {d} from {pegs[s]} to {pegs[t]}"); move; print(pegs)
    pegs: dict[str, list[int]] = {"A": [4, 3, 2, 1], "B": [], "C": []}
    lines = []
    for d, s, t in reference(4):
        lines.append(f"Moving disk {d} from {pegs[ABC[s]]} to {pegs[ABC[t]]}")
        pegs[ABC[t]].append(pegs[ABC[s]].pop())
        lines.append(str(pegs))
    code, out, _ = run_cli(capsys, "check", "-n", "4", write(tmp_path, lines))
    assert (code, out) == (0, "ok: 15 moves, legal and optimal for n = 4; the tower ends on peg C\n")
    code, out, err = run_cli(capsys, "check", "-n", "4", write(tmp_path, lines[:5] + lines[7:]))
    assert code == 2 and "line 6" in err  # a move and its state gone: refused where the states jump


@pytest.mark.parametrize("codec", ["zlib", "idna", "punycode", "rot13", "utf-16", "utf-32", "hex"])
def test_every_encoding_is_a_verdict_or_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, codec: str
) -> None:
    path = write(tmp_path, ["A->C", "A->B", "C->B"])
    code, out, err = run_cli(capsys, "check", "-n", "2", "--encoding", codec, path)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "Traceback" not in err


LANGUAGES = {
    "Polish, z ... na": lambda d, s, t: f"Przenieś krążek {d} z {ABC[s]} na {ABC[t]}",
    "Italian, dal perno ... al perno": lambda d, s, t: f"Sposta disco {d} dal perno {s + 1} al perno {t + 1}",
    "French, de axe_... vers axe_...": lambda d, s, t: (
        f"Déplacement du disque {d} de axe_{('gauche', 'central', 'droit')[s]} vers "
        f"axe_{('gauche', 'central', 'droit')[t]}"
    ),
    "Vietnamese, từ tháp ... đến tháp": lambda d, s, t: f"Di chuyển tầng {d} từ tháp {'XYZ'[s]} đến tháp {'XYZ'[t]}",
    "Russian, из ... к": lambda d, s, t: f"Переместить кольцо {d} из {ABC[s]} к {ABC[t]}",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_connectives_of_other_languages(capsys: pytest.CaptureFixture[str], tmp_path: Path, language: str) -> None:
    lines = [LANGUAGES[language](d, s, t) for d, s, t in reference(3)]
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, lines))
    assert code == 0 and out.startswith("ok: 7 moves, legal and optimal")
    swapped = [lines[1], lines[0], *lines[2:]]
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, swapped))
    assert code == 1 and out.startswith("illegal at step 1, line 1")


def test_cp1251_input_is_read_with_its_encoding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "ru.txt"
    path.write_bytes(
        "".join(f"Переместить кольцо {d} из {ABC[s]} к {ABC[t]}\n" for d, s, t in reference(3)).encode("cp1251")
    )
    code, out, _ = run_cli(capsys, "check", "-n", "3", "--encoding", "cp1251", str(path))
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg C\n")


def test_a_move_split_over_two_lines_the_second_indented(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Java: System.out.println("move disk[" + d + "] from"); System.out.println("    " + s + " to " + t);
    lines = [part for d, s, t in reference(3) for part in (f"move disk[{d}] from", f"    {ABC[s]} to {ABC[t]}")]
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, lines))
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg C\n")


def test_a_pattern_reads_any_one_move_a_line_shape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = ["Tower", *(f"{k}. Disk {d} goes {ABC[s]}=>{ABC[t]}" for k, (d, s, t) in enumerate(reference(3), 1))]
    path = write(tmp_path, lines)
    move = r"(?P<step>\d+)\. Disk (?P<disk>\d+) goes (?P<src>\w)=>(?P<dst>\w)"
    code, out, _ = run_cli(capsys, "check", "-n", "3", "--pattern", move, path)
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg C\n")
    path = write(tmp_path, [lines[0], lines[2], lines[1], *lines[3:]])
    code, out, _ = run_cli(capsys, "check", "-n", "3", "--pattern", move, path)
    assert code == 1 and out.startswith("illegal at step 1, line 2")
    code, out, _ = run_cli(capsys, "check", "-n", "3", "--pattern", r"(?P<src>\w)=>(?P<dst>\w)", path)
    assert code == 1 and out.startswith("illegal at step 3, line 4 '3. Disk 1 goes C=>B'")


@pytest.mark.parametrize("bad", [r"(?P<src>\w", r"(?P<from>\w) (?P<dst>\w)", r"(?P<src>\w) (?P<dst>\w) (?P<x>\d)"])
def test_a_bad_pattern_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, bad: str) -> None:
    code, out, err = run_cli(capsys, "check", "-n", "3", "--pattern", bad, write(tmp_path, ["A->C"]))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "--pattern" in err


def test_a_line_in_another_encoding_among_the_moves_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = [f"Переместить диск {d} из {ABC[s]} на {ABC[t]}\n" for d, s, t in reference(3)]
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"".join(line.encode("cp1251" if k == 3 else "utf-8") for k, line in enumerate(lines)))
    code, out, err = run_cli(capsys, "check", "-n", "3", str(path))
    assert (code, out) == (2, "")
    assert "line 4" in err and "--encoding" in err


def test_a_refusal_proposes_the_pattern_that_reads_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = [f"Krok: disk {d} jde {ABC[s]}={ABC[t]}" for d, s, t in reference(3)]
    path = write(tmp_path, lines)
    code, out, err = run_cli(capsys, "check", "-n", "3", path)
    assert (code, out) == (2, "") and "--pattern '" in err
    pattern = err.split("--pattern '")[1].rstrip("'\n")
    code, out, _ = run_cli(capsys, "check", "-n", "3", path, "--pattern", pattern)
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg C\n")


def test_a_malformed_line_proposes_a_pattern(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, ["Move disk 1 from A to C", "Move disk 2 from A to the other of B"])
    code, out, err = run_cli(capsys, "check", "-n", "2", path)
    assert (code, out) == (2, "")
    assert "line 2" in err and err.count("\n") == 1 and "--pattern" in err
    path = write(tmp_path, ["Move disk 1 from A to C", "Move disk 2 from A to ?"])
    code, out, err = run_cli(capsys, "check", "-n", "2", path)
    assert (code, out) == (2, "")
    assert "line 2" in err and "--pattern" not in err  # '2' and 'A' are no two pegs


def test_not_optimal_names_the_first_step_off_every_shortest_solution(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, ["A->B", "B->C", "A->B", "C->A", "B->C", "A->C"])
    code, out, _ = run_cli(capsys, "check", "-n", "2", path)
    assert (code, out) == (
        1,
        "legal but not optimal: 6 moves, optimal is 3; step 2, line 2 'B->C', leaves every shortest solution\n",
    )


def test_an_early_illegal_move_that_another_reading_solves_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hanoi_harness.cli.check as cli

    real = check_lines

    def steps_solve(*args: Any, **kwargs: Any) -> Any:
        lines = list(args[0])
        if kwargs.get("counter") == "steps":
            return real([f"{ABC[s]}->{ABC[t]}\n" for _, s, t in reference(2)], 2)
        return real(lines, *args[1:], **kwargs)

    monkeypatch.setattr(cli, "check_lines", steps_solve)
    code, out, err = run_cli(capsys, "check", "-n", "2", write(tmp_path, ["A->C", "A->C", "B->C"]))
    assert (code, out) == (2, "")
    assert "two readings disagree" in err and "--counter steps" in err and err.count("\n") == 1
    code, out, _ = run_cli(capsys, "check", "-n", "2", "--counter", "disks", write(tmp_path, ["A->C", "A->C"]))
    assert code == 1 and out.startswith("illegal at step 2")


@pytest.mark.parametrize("joint", ["\uffe5n", "\\n"])
def test_moves_joined_by_a_written_newline_are_all_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, joint: str
) -> None:
    moves = [f"{k}. Move disk {d} from {ABC[s]} to {ABC[t]}" for k, (d, s, t) in enumerate(reference(3), 1)]
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, [joint.join(moves)]))
    assert (code, out) == (0, "ok: 7 moves, legal and optimal for n = 3; the tower ends on peg C\n")
    code, out, _ = run_cli(capsys, "check", "-n", "3", write(tmp_path, [joint.join(moves[:3] + moves[4:])]))
    assert code == 1  # one move gone: never 'ok'


@pytest.mark.parametrize("joint", [". ", " "])
def test_a_line_of_several_moves_read_as_one_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, joint: str
) -> None:
    moves = [f"Move disk {d} from {ABC[s]} to {ABC[t]}" for d, s, t in reference(2)]
    code, out, err = run_cli(capsys, "check", "-n", "2", write(tmp_path, [joint.join(moves)]))
    assert (code, out) == (2, "")
    assert "3 moves written, 1 read" in err and "(?P<" not in err
