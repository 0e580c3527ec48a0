"""Test ``hanoi check`` on the corpus of programs and their outputs.

The programs are of several languages and output styles.  With their captured outputs come corrupted
copies: two moves swapped, a destination changed, a disk number changed.

Each entry of tests/corpus/corpus.toml finds its output's moves with a regular expression written for
that output alone; a small replay here, independent of the package, says what the checker must find.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from hanoi_harness.transcript.check import check_lines, describe, open_text
from tests.corpus.corpus import Entry, entries, missing, run
from tests.helpers import assert_one_line_error, run_cli

ENTRIES = entries()
READABLE = [e for e in ENTRIES if e.move is not None]
CASES = [
    pytest.param(e, n, marks=[pytest.mark.slow] if n != e.sizes[0] else [], id=f"{e.name}-{n}")
    for e in ENTRIES
    if e.program is not None
    for n in e.sizes
]
GOOD = [(e, n) for e in READABLE if not e.wrong for n in e.sizes]
WRONG = [(e, n) for e in READABLE if e.wrong for n in e.sizes]
STATES = [(e, n) for e in ENTRIES if e.states for n in e.sizes]
CONTENTS = [(e, n) for e in ENTRIES if e.contents for n in e.sizes]

Moved = tuple[int | None, int | None, int]
"""(disk or None, source peg (None: round a circle, -1: the peg the disk is on), destination peg or +-1 round)"""


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("corpus-build")


@pytest.mark.parametrize(("entry", "n"), CASES)
def test_each_captured_output_is_what_its_program_prints(entry: Entry, n: int, build: Path) -> None:
    reason = missing(entry)
    if reason:
        pytest.skip(reason)
    assert run(entry, n, build) == entry.output(n).read_bytes()


@pytest.mark.parametrize(("entry", "n"), GOOD, ids=[f"{e.name}-{n}" for e, n in GOOD])
def test_each_good_output_is_ok(capsys: pytest.CaptureFixture[str], entry: Entry, n: int) -> None:
    assert len(moves_of(entry, text_of(entry, entry.output(n).read_bytes()))) == 2**n - 1  # the regex finds all
    code, out, err = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)), *entry.options)
    assert code == 0, out + err
    assert err == "" or (err.startswith("hanoi check: read ") and err.count("\n") == 1), err  # what was inferred
    assert out.startswith(f"ok: {2**n - 1} moves, legal and optimal for n = {n}")


@pytest.mark.parametrize(("entry", "n"), WRONG, ids=[f"{e.name}-{n}" for e, n in WRONG])
def test_each_wrong_program_is_caught_where_the_replay_says(
    capsys: pytest.CaptureFixture[str], entry: Entry, n: int
) -> None:
    text = text_of(entry, entry.output(n).read_bytes())
    status, step = replay(moves_of(entry, text), n)
    assert status != "ok"
    code, out, _ = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)), *entry.options)
    assert code == 1, out
    if status == "illegal":
        line = 1 + text.count("\n", 0, list(re.finditer(str(entry.move), text))[int(step or 0) - 1].start())
        assert out.startswith(f"illegal at step {step}, line {line} "), out


@pytest.mark.parametrize(("entry", "n"), STATES, ids=[f"{e.name}-{n}" for e, n in STATES])
def test_each_output_of_states_is_read_by_differencing(
    capsys: pytest.CaptureFixture[str], entry: Entry, n: int
) -> None:
    code, out, err = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)), *entry.options)
    assert code == 0, out + err
    assert out.startswith(f"ok: {2**n - 1} moves, legal and optimal for n = {n}")
    assert "states" in err  # the inference, in one line
    code, out, _ = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)), "--read", "moves")
    assert code != 0 and not out.startswith("ok")  # forced to read moves, it finds none, or no solution


@pytest.mark.parametrize(("entry", "n"), CONTENTS, ids=[f"{e.name}-{n}" for e, n in CONTENTS])
def test_each_output_that_writes_pegs_as_their_disks_is_read_by_them(
    capsys: pytest.CaptureFixture[str], entry: Entry, n: int
) -> None:
    code, out, err = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)))
    assert code == 0, out + err
    assert out.startswith(f"ok: {2**n - 1} moves, legal and optimal for n = {n}")
    assert "disks they hold" in err  # the inference, in one line
    code, out, _ = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)), "--read", "moves")
    assert code != 0 and not out.startswith("ok")  # forced to read the lists as labels


def test_the_corpus_gives_a_verdict_on_95_percent_and_misjudges_none(capsys: pytest.CaptureFixture[str]) -> None:
    verdicts: dict[bool, int] = {True: 0, False: 0}  # by whether the program was found elsewhere
    refusals: dict[bool, int] = {True: 0, False: 0}
    for entry in ENTRIES:
        for n in entry.sizes:
            found = bool(entry.origin)
            code, out, err = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)))
            if code == 2:
                refusals[found] += 1
                assert err.count("\n") == 1, err
                assert "--" in err or "no option reads it" in err, err  # the option that helps, or none
                continue
            verdicts[found] += 1
            assert (code == 0) == (not entry.wrong and entry.unreadable is None), (entry.name, out)
    total = sum(verdicts.values()) + sum(refusals.values())
    assert sum(verdicts.values()) >= 0.95 * total
    assert verdicts[True] >= 0.95 * (verdicts[True] + refusals[True])  # programs by other authors alike


UNREADABLE = [(e, n) for e in ENTRIES if e.unreadable for n in e.sizes]


@pytest.mark.parametrize(("entry", "n"), UNREADABLE, ids=[f"{e.name}-{n}" for e, n in UNREADABLE])
def test_each_unreadable_output_is_one_line_that_says_why(
    capsys: pytest.CaptureFixture[str], entry: Entry, n: int
) -> None:
    code, out, err = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)))
    assert out == ""
    assert_one_line_error(code, err, str(entry.unreadable))


NAMED = [e for e in READABLE if "--pegs" in e.options and e.pegs != "cyclic"]


@pytest.mark.parametrize("entry", NAMED, ids=[e.name for e in NAMED])
def test_pegs_a_program_names_its_own_way_are_inferred_or_refused_with_the_option_to_give(
    capsys: pytest.CaptureFixture[str], entry: Entry
) -> None:
    n = entry.sizes[0]
    code, out, err = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)))
    if code == 0:
        assert err.startswith(f"hanoi check: read pegs {entry.pegs[0]}, "), err  # the start peg first, as --pegs
        return
    assert_one_line_error(code, err, "move 1 leaves an empty peg")  # the other readings
    shown = re.search(r"--pegs (\S+) \(start peg first\)", err)
    assert shown is not None and shown[1].startswith(f"{entry.pegs[0]},"), err
    code, out, err = run_cli(capsys, "check", "-n", str(n), str(entry.output(n)), "--pegs", shown[1])
    assert code == 0, out + err  # following the refusal reads the output


KINDS = ("swap", "destination", "disk")
CORRUPT = [
    (e, n, kind, k)
    for e in READABLE
    if not e.wrong
    for n in e.sizes[:2]
    for kind in KINDS
    if kind != "disk" or "(?P<disk>" in str(e.move)
    for k in sorted({1, 2**n // 2, 2**n - 2})
]


@pytest.mark.parametrize(("entry", "n", "kind", "k"), CORRUPT, ids=[f"{e.name}-{n}-{c}-{k}" for e, n, c, k in CORRUPT])
def test_each_corrupted_output_is_caught_at_its_step_and_line(entry: Entry, n: int, kind: str, k: int) -> None:
    text = corrupt(entry, text_of(entry, entry.output(n).read_bytes()), kind, k)
    status, step = replay(moves_of(entry, text), n)
    assert status != "ok"
    if entry.checked:  # the move no longer leads to the state its line prints, if it is legal at all
        status, step = "illegal", k
    # Through the reader as 'hanoi check FILE' uses it (the command's own start-up is tested above).
    options = dict(zip(entry.options[::2], entry.options[1::2], strict=True))
    data = io.BytesIO(text.encode(entry.encoding))
    verdict = check_lines(open_text(data), n, pegs=options.get("--pegs"), disks=options.get("--disks"))
    assert verdict.status == status
    if status == "illegal":
        line = 1 + text.count("\n", 0, list(re.finditer(str(entry.move), text))[int(step or 0) - 1].start())
        assert describe(verdict, n).startswith(f"illegal at step {step}, line {line} ")


# The corpus's own reading and replay, independent of the package.


def text_of(entry: Entry, data: bytes) -> str:
    return data.decode(entry.encoding).replace("\r\n", "\n")


def moves_of(entry: Entry, text: str) -> list[Moved]:
    """Return the moves ``entry``'s regular expression finds in ``text``.

    Pegs are 0-2 and disks count from 1.
    """
    moves: list[Moved] = []
    for m in re.finditer(str(entry.move), text):
        found = {key[:3] if key.endswith("2") else key: value for key, value in m.groupdict().items() if value}
        disk = int(found["disk"]) - entry.disks + 1 if found.get("disk") is not None else None
        if entry.pegs == "cyclic":
            moves.append((disk, None, 1 if found["dir"] == "right" else -1))
        elif "src" not in found:
            moves.append((disk, -1, entry.pegs.index(found["dst"])))
        else:
            moves.append((disk, entry.pegs.index(found["src"]), entry.pegs.index(found["dst"])))
    return moves


def corrupt(entry: Entry, text: str, kind: str, k: int) -> str:
    """Return ``text`` with its move k corrupted.

    Moves k and k + 1 are swapped, the destination of move k changed, or its disk changed.
    """
    found = list(re.finditer(str(entry.move), text))
    m = found[k - 1]
    if kind == "swap":
        after = found[k]
        return text[: m.start()] + after[0] + text[m.end() : after.start()] + m[0] + text[after.end() :]
    group = "disk" if kind == "disk" else "dir" if entry.pegs == "cyclic" else "dst" if m["dst"] else "dst2"
    return text[: m.start(group)] + changed(entry, m, group) + text[m.end(group) :]


def changed(entry: Entry, m: re.Match[str], group: str) -> str:
    if group == "disk":
        disk = int(m["disk"])
        return str(disk + 1 if disk < 2 else disk - 1)
    if group == "dir":
        return "left" if m["dir"] == "right" else "right"
    labels = list(entry.pegs)
    ends = (m["src"] or m.groupdict().get("src2"), m[group])
    return next(label for label in labels if label not in ends)


def replay(moves: Sequence[Moved], n: int) -> tuple[str, int | None]:
    """Replay the moves: ("illegal", step) at the first illegal one.

    Otherwise ("ok" | "incomplete" | "not_optimal", None).
    """
    pegs: list[list[int]] = [list(range(n, 0, -1)), [], []]
    for step, (disk, src, dst) in enumerate(moves, 1):
        if src == -1:  # from the peg whose top is the disk
            src = next((p for p in range(3) if pegs[p] and pegs[p][-1] == disk), None)
            if src is None:
                return "illegal", step
        elif src is None:  # round the circle: from the peg whose top is the disk
            src = next((p for p in range(3) if pegs[p] and pegs[p][-1] == disk), None)
            if src is None:
                return "illegal", step
            dst = (src + dst) % 3
        if src == dst or not pegs[src] or disk not in (None, pegs[src][-1]):
            return "illegal", step
        if pegs[dst] and pegs[dst][-1] < pegs[src][-1]:
            return "illegal", step
        pegs[dst].append(pegs[src].pop())
    tower = [p for p in (1, 2) if len(pegs[p]) == n]
    if not tower:
        return "incomplete", None
    return ("ok" if len(moves) == 2**n - 1 else "not_optimal"), None


def test_the_replay_knows_right_from_wrong() -> None:
    right = [(1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2)]
    assert replay(right, 3) == ("ok", None)
    assert replay([(None, 0, 2), (None, 0, 1), (None, 2, 1)], 2) == ("ok", None)
    assert replay([(1, None, -1), (2, None, 1), (1, None, -1)], 2) == ("ok", None)
    assert replay([*right[:3], (3, 0, 1)], 3) == ("illegal", 4)
    assert replay([(2, 0, 2)], 2) == ("illegal", 1)
    assert replay(right[:3], 3) == ("incomplete", None)
    assert replay([(1, 0, 1), (1, 1, 2)], 1) == ("not_optimal", None)


def test_a_program_whose_compiler_or_interpreter_is_missing_is_skipped_with_a_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("tests.corpus.corpus.shutil.which", lambda tool: None)
    by_name = {e.name: e for e in ENTRIES}
    assert missing(by_name["java-directions"]) == "Directions.java needs javac and java, not found on this machine"
    assert missing(by_name["c-xyz"]) == "xyz.c needs cc, not found on this machine"
    assert missing(by_name["py-list"]) is None  # this interpreter runs the Python ones
