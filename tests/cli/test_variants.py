"""Test the commands on other puzzles.

That is ``--from``/``--to`` for ``moves``, ``show`` and ``verify``, ``hanoi check
--rules/--pegs-count/--from/--to``, and the puzzle column of ``hanoi list``.

Every run the commands print is replayed by the small simulator of :mod:`tests.helpers` under its puzzle's
rules and compared with the breadth-first search there and with :mod:`hanoi_harness.core.optimal`'s distance.
Every bad input is one line on stderr and exit status 2.  The ids carry the algorithm's name (``cyclic``,
``linear``, ``frame_stewart``, ``any_state``), so ``pytest -k cyclic`` selects that variant's commands too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from hanoi_harness.core.checker import check
from hanoi_harness.core.optimal import distance
from hanoi_harness.core.puzzle import format_config
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.probe import describe, described
from hanoi_harness.registry.record import Algorithm
from tests.helpers import FIXTURES, REGISTRY, Config, Move, assert_one_line_error, replay, run_cli, shortest, towers

PLUGINS = FIXTURES / "plugins"
BETWEEN = PLUGINS / "between.py"

Capsys = pytest.CaptureFixture[str]
Printer = Callable[..., str]
"""Writes what ``hanoi moves ARGS`` prints to a file; its path."""


def moves_of(out: str) -> list[Move]:
    """The moves ``hanoi moves`` printed, one ``DISK SRC DST`` a line."""
    rows = [tuple(map(int, line.split())) for line in out.splitlines()]
    assert all(len(row) == 3 for row in rows), out
    return [(d, s, t) for d, s, t in rows]


def configurations(n: int, pegs: int, count: int, seed: int) -> list[tuple[Config, Config]]:
    """Draw *count* pairs of configurations of n disks on *pegs* pegs.

    They are drawn with *seed*; the first pair is two towers.
    """
    rng = random.Random(seed)
    pairs = [((0,) * n, (pegs - 1,) * n)]
    while len(pairs) < count:
        pairs.append((tuple(rng.randrange(pegs) for _ in range(n)), tuple(rng.randrange(pegs) for _ in range(n))))
    return pairs


def cases() -> list[tuple[Algorithm, Config, Config]]:
    """Return, for each record taking configurations, runs it can make.

    The runs are of 3 disks, 2 on five pegs.
    """
    found = []
    for algorithm in REGISTRY:
        if algorithm.solve_for is None:
            continue
        pegs = algorithm.puzzle.pegs
        n = 3 if pegs < 5 else 2
        pairs = configurations(n, pegs, 8, seed=pegs) if algorithm.configurations == "any" else towers(n, pegs)[1:]
        found += [(algorithm, start, goal) for start, goal in pairs]
    return found


CASES = cases()
IDS = [f"{a.name}-{format_config(s)}-{format_config(g)}" for a, s, g in CASES]


def between(start: Config, goal: Config) -> list[str]:
    return ["--from", format_config(start), "--to", format_config(goal)]


# --- what a record declares -----------------------------------------------------------------------------------


def test_a_record_declares_the_configurations_its_solve_for_takes() -> None:
    any_state = REGISTRY.get("any_state")
    assert any_state.configurations == "any" and REGISTRY.get("cyclic").configurations == "towers"
    with pytest.raises(UsageError, match="configurations='any' needs a solve_for"):
        replace(REGISTRY.get("recursive"), configurations="any")
    with pytest.raises(UsageError, match="configurations must be 'towers' or 'any'"):
        replace(any_state, configurations="some")  # type: ignore[arg-type]
    for record in REGISTRY:  # what hanoi verify learns of a plugin crosses as JSON, the declaration with it
        assert described(json.loads(json.dumps(describe(record)))).configurations == record.configurations


# --- hanoi moves and hanoi show -----------------------------------------------------------------------------


@pytest.mark.parametrize(("record", "start", "goal"), CASES, ids=IDS)
def test_moves_from_and_to_are_a_shortest_path(capsys: Capsys, record: Algorithm, start: Config, goal: Config) -> None:
    n, pegs, rule = len(start), record.puzzle.pegs, record.puzzle.rule
    code, out, err = run_cli(capsys, "moves", record.name, str(n), *between(start, goal))
    assert code == 0 and err == "", err
    end, count = replay(moves_of(out), start, pegs, rule)
    assert end == goal
    assert count == shortest(start, goal, pegs, rule)
    optimum = record.puzzle.distance(start, goal)
    assert optimum is not None and optimum.moves == count
    if pegs == 3 and rule == "any":
        assert count == distance(start, goal)


@pytest.mark.parametrize(("record", "start", "goal"), CASES[::3], ids=IDS[::3])
def test_moves_count_and_digest_from_and_to(capsys: Capsys, record: Algorithm, start: Config, goal: Config) -> None:
    n = str(len(start))
    _, out, _ = run_cli(capsys, "moves", record.name, n, *between(start, goal))
    moves = moves_of(out)
    verdict = check(moves, len(start), puzzle=record.puzzle.between(start, goal))
    assert verdict.ok, verdict.describe()
    assert run_cli(capsys, "moves", record.name, n, *between(start, goal), "--count")[1] == f"{len(moves)}\n"
    digest = run_cli(capsys, "moves", record.name, n, *between(start, goal), "--digest")[1]
    assert digest == f"{len(moves)} {verdict.digest}\n"


def test_moves_from_alone_ends_on_the_final_peg_and_to_alone_starts_on_peg_0(capsys: Capsys) -> None:
    _, out, _ = run_cli(capsys, "moves", "any_state", "4", "--from", "1,0,2,1")
    assert replay(moves_of(out), (1, 0, 2, 1)) == ((2, 2, 2, 2), distance((1, 0, 2, 1), (2, 2, 2, 2)))
    _, out, _ = run_cli(capsys, "moves", "cyclic", "3", "--to", "2,2,2")
    assert replay(moves_of(out), (0, 0, 0), rule="cyclic") == ((2, 2, 2), shortest((0,) * 3, (2,) * 3, rule="cyclic"))


@pytest.mark.parametrize(
    ("name", "start", "goal"),
    [("any_state", (2, 0, 1), (1, 1, 0)), ("cyclic", (1, 1), (0, 0)), ("linear", (2, 2), (1, 1))],
    ids=["any_state", "cyclic", "linear"],
)
def test_show_from_and_to_starts_at_the_start_and_ends_at_the_goal(
    capsys: Capsys, name: str, start: Config, goal: Config
) -> None:
    code, out, err = run_cli(capsys, "show", name, str(len(start)), *between(start, goal))
    assert code == 0 and err == ""
    blocks = out.split("-" * 27 + "\n")[:-1]
    rule = REGISTRY.get(name).puzzle.rule

    def shown(config: Config) -> str:
        pegs = [[d for d in range(len(config), 0, -1) if config[d - 1] == p] for p in range(3)]
        return "".join(f"[{p}] {', '.join(map(str, disks))}".rstrip() + "\n" for p, disks in enumerate(pegs))

    assert blocks[0] == shown(start) + "[step 0] start\n"
    assert blocks[-1].startswith(shown(goal))
    assert len(blocks) - 1 == shortest(start, goal, rule=rule)


def test_show_frame_stewart_between_towers_shows_every_peg(capsys: Capsys) -> None:
    code, out, _ = run_cli(capsys, "show", "frame_stewart", "2", "--from", "3,3", "--to", "1,1")
    assert code == 0
    assert out.startswith("[0]\n[1]\n[2]\n[3] 2, 1\n[step 0] start\n")
    assert out.endswith("[0]\n[1] 2, 1\n[2]\n[3]\n[step 3] disk 1: 0 -> 1\n" + "-" * 27 + "\n")


# --- hanoi verify -------------------------------------------------------------------------------------------


def row(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(name + " "))


@pytest.mark.parametrize(
    ("name", "start", "goal"),
    [
        ("any_state", "0,2,1,1", "1,1,0,2"),
        ("cyclic", "2,2,2,2", "1,1,1,1"),
        ("cyclic_blocks", "1,1,1,1", "0,0,0,0"),
        ("linear", "1,1,1,1", "0,0,0,0"),
        ("linear_blocks", "2,2,2,2", "0,0,0,0"),
        ("frame_stewart", "3,3,3,3", "1,1,1,1"),
        ("frame_stewart_5", "4,4,4,4", "2,2,2,2"),
    ],
)
def test_verify_from_and_to_judges_that_run(capsys: Capsys, name: str, start: str, goal: str) -> None:
    code, out, err = run_cli(capsys, "verify", name, "--from", start, "--to", goal)
    assert code == 0, out + err
    puzzle = REGISTRY.get(name).puzzle
    first, last = tuple(map(int, start.split(","))), tuple(map(int, goal.split(",")))
    moves = shortest(first, last, puzzle.pegs, puzzle.rule)
    line = row(out, name)
    assert " 4  ok " in line and f"from {start} to {goal}: ok ({moves} moves" in line, out
    assert ("conjectured" if puzzle.pegs > 4 else "optimal (proven)") in out


def test_verify_takes_the_start_from_the_command_line_never_from_the_algorithm(capsys: Capsys) -> None:
    # Both plugins yield a shortest path to the goal; one of them from the tower on peg 0, whatever it is asked.
    specs = [f"--plugin={BETWEEN}:{record}" for record in ("ANYWHERE", "IGNORES_ITS_START")]
    code, out, _ = run_cli(capsys, "verify", "--from", "2,1,1", "--to", "0,0,2", *specs)
    assert code == 1
    assert f"ok ({distance((2, 1, 1), (0, 0, 2))} moves, at the goal" in row(out, "anywhere")
    assert " illegal " in row(out, "ignores_its_start")
    code, out, _ = run_cli(capsys, "verify", "--n", "3", "--from", "0,0,0", "--to", "0,0,2", *specs)
    assert code == 0, out  # from the tower on peg 0 the two agree


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["recursive", "--from", "1,1"], ["--from: recursive starts only from the whole tower on peg 0"]),
        (["bitwise", "--to", "1,1"], ["--to: bitwise starts only from the whole tower on peg 0"]),
        (["cyclic", "--from", "0,1,0"], ["--from: cyclic moves whole towers only", "pegs 0 and 1"]),
        (["linear", "--from", "0,0", "--to", "1,2"], ["--from/--to: linear moves whole towers only"]),
        (["frame_stewart", "--from", "0,4"], ["--from: configuration '0,4': disk 2: peg '4' is not 0, 1, 2 or 3"]),
        (["any_state", "--from", "0,3"], ["disk 2: peg '3' is not 0, 1 or 2"]),
        (["any_state", "--from", "0,x"], ["disk 2: peg 'x' is not 0, 1 or 2"]),
        (["any_state", "--n", "3", "--from", "0,1"], ["--from: configuration '0,1': expected 3 pegs", "got 2"]),
        (["any_state", "--from", "0,1", "--to", "1,1,1"], ["--to: configuration '1,1,1': expected 2 pegs"]),
        (["any_state", "--from", ",".join("0" * 65)], ["argument --from: at most 64 disks, got 65"]),
        (["any_state", "--n-max", "3", "--from", "0,1"], ["not --n-max"]),
        (["any_state", "--n", "3", "--from", "1,1,1", "--workers", "2"], ["--workers/--dask", "no --from/--to"]),
        (["--from", "0,1"], ["name the algorithms to verify"]),
        (["clockwise_sentinel", "--from", ""], ["clockwise_sentinel needs n >= 1"]),
        (["towers_only", f"--plugin={BETWEEN}:TOWERS_ONLY", "--from", "0,1"], ["towers_only moves whole towers only"]),
    ],
)
def test_verify_refuses_bad_configurations_in_one_line(capsys: Capsys, argv: list[str], fragments: list[str]) -> None:
    code, _, err = run_cli(capsys, "verify", *argv)
    assert_one_line_error(code, err, *fragments)


@pytest.mark.parametrize("command", ["moves", "show"])
@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["recursive", "2", "--from", "1,1"], ["--from: recursive starts only from the whole tower on peg 0"]),
        (["recursive", "2", "--to", "1,1"], ["--to: recursive starts only"]),
        (["cyclic", "3", "--to", "0,1,0"], ["--to: cyclic moves whole towers only"]),
        (["frame_stewart", "2", "--from", "5,5"], ["peg '5' is not 0, 1, 2 or 3"]),
        (["any_state", "2", "--from", "0,1,2"], ["expected 2 pegs", "got 3"]),
        (["any_state", "2", "--from", "0,-1"], ["peg '-1' is not 0, 1 or 2"]),
        (["any_state", "2", "--to", "0;1"], ["expected 2 pegs", "got 1"]),
        (["any_state", "2", "--from", ",".join("0" * 10001)], ["at most 10000 disks, got 10001"]),
    ],
)
def test_moves_and_show_refuse_bad_configurations_in_one_line(
    capsys: Capsys, command: str, argv: list[str], fragments: list[str]
) -> None:
    code, out, err = run_cli(capsys, command, *argv)
    assert out == ""
    assert_one_line_error(code, err, *fragments)


# --- hanoi check on other puzzles ---------------------------------------------------------------------------


@pytest.fixture
def printed(tmp_path: Path, capsys: Capsys) -> Printer:
    """Write the moves ``hanoi moves ARGS`` prints to a file; its path."""

    def write(*argv: str) -> str:
        code, out, err = run_cli(capsys, "moves", *argv)
        assert code == 0, err
        path = tmp_path / f"moves{len(list(tmp_path.iterdir()))}.txt"
        path.write_text(out)
        return str(path)

    return write


@pytest.mark.parametrize(
    ("name", "n", "options", "moves", "claim"),
    [
        ("cyclic", 4, ["--rules", "cyclic"], 43, "optimal (proven) for n = 4 (cyclic); the tower ends on peg 1"),
        ("linear", 4, ["--rules", "linear"], 80, "optimal (proven) for n = 4 (linear); the tower ends on peg 2"),
        ("frame_stewart", 6, ["--pegs-count", "4"], 17, "optimal (proven) for n = 6 (4 pegs); the tower ends on peg 3"),
        ("frame_stewart_5", 6, ["--pegs-count", "5"], 15, "matches the Frame-Stewart count (conjectured optimal"),
    ],
)
def test_check_judges_a_variant_by_its_rules_and_count(
    capsys: Capsys, printed: Printer, name: str, n: int, options: list[str], moves: int, claim: str
) -> None:
    path = printed(name, str(n))
    code, out, err = run_cli(capsys, "check", "-n", str(n), path, *options)
    assert (code, err) == (0, "")
    assert out.startswith(f"ok: {moves} moves, legal") and claim in out, out
    record = REGISTRY.get(name)
    (peg,) = record.final_peg.pegs(n)
    assert moves == shortest((0,) * n, (peg,) * n, record.puzzle.pegs, record.puzzle.rule)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        (["--rules", "cyclic"], "the cyclic rule allows only 0->1, 1->2, 2->0, not 0->2"),
        (["--rules", "linear"], "the linear rule allows only moves between adjacent pegs (0-1, 1-2), not 0->2"),
    ],
    ids=["cyclic", "linear"],
)
def test_check_reports_a_move_the_variant_forbids_at_its_line(
    capsys: Capsys,
    printed: Printer,
    options: list[str],
    reason: str,
) -> None:
    path = printed("recursive", "2")  # 1 0 1, 2 0 2, 1 1 2: both variants forbid the second move, 0->2
    code, out, _ = run_cli(capsys, "check", "-n", "2", path, *options)
    assert (code, out.strip()) == (1, f"illegal at step 2, line 2 '2 0 2': {reason}")
    code, out, _ = run_cli(capsys, "check", "-n", "2", path)
    assert code == 0  # the classic rules allow it


def test_check_reports_a_longer_run_on_more_pegs_as_not_optimal(capsys: Capsys, printed: Printer) -> None:
    path = printed("recursive", "3")  # 7 moves from peg 0 to peg 2: four pegs need 5
    code, out, _ = run_cli(capsys, "check", "-n", "3", path, "--pegs-count", "4")
    assert (code, out.strip()) == (1, "legal but not optimal: 7 moves, optimal is 5")


@pytest.mark.parametrize(("start", "goal"), configurations(4, 3, 6, seed=13), ids=lambda c: format_config(c))
def test_check_from_and_to_any_state(capsys: Capsys, printed: Printer, start: Config, goal: Config) -> None:
    path = printed("any_state", "4", *between(start, goal))
    code, out, _ = run_cli(capsys, "check", "-n", "4", path, *between(start, goal))
    assert code == 0, out
    assert out.startswith(f"ok: {distance(start, goal)} moves, legal and optimal (proven) for n = 4;")
    other = tuple((peg + 1) % 3 for peg in goal)
    code, out, _ = run_cli(
        capsys, "check", "-n", "4", path, "--from", format_config(start), "--to", format_config(other)
    )
    assert code == 1 and out.startswith("incomplete: ") and f"not at the goal {format_config(other)}" in out


def test_check_cyclic_between_towers(capsys: Capsys, printed: Printer) -> None:
    path = printed("cyclic", "3", "--from", "1,1,1", "--to", "0,0,0")
    code, out, _ = run_cli(capsys, "check", "-n", "3", path, "--rules", "cyclic", "--from", "1,1,1", "--to", "0,0,0")
    assert code == 0 and out.startswith(f"ok: {shortest((1,) * 3, (0,) * 3, rule='cyclic')} moves"), out
    code, out, _ = run_cli(capsys, "check", "-n", "3", path, "--rules", "cyclic", "--from", "1,1,1")
    assert code == 0 and "the tower ends on peg 0" in out  # any tower but the start's, judged by its distance


def test_check_reads_four_pegs_in_letters_and_from_one(capsys: Capsys, tmp_path: Path) -> None:
    letters, ones = tmp_path / "letters.txt", tmp_path / "ones.txt"
    letters.write_text("Move disk 1 from A to B\nMove disk 2 from A to C\nMove disk 1 from B to D\n")
    ones.write_text("1 1 2\n2 1 3\n1 2 4\n")
    code, out, _ = run_cli(capsys, "check", "-n", "2", str(letters), "--pegs-count", "4", "--target", "D")
    assert (
        code == 1
        and out.strip() == "incomplete: after 3 moves the disks are spread (peg A: 0; peg B: 0; peg C: 1; peg D: 1)"
    )
    code, out, _ = run_cli(capsys, "check", "-n", "2", str(ones), "--pegs-count", "4", "--pegs", "1-4")
    assert code == 1 and "peg 3: 1; peg 4: 1" in out


@pytest.mark.parametrize(
    ("options", "fragments"),
    [
        (["--rules", "cyclic", "--pegs-count", "4"], ["--rules cyclic --pegs-count 4", "defined for 3 pegs, not 4"]),
        (["--rules", "spiral"], ["argument --rules: invalid choice"]),
        (["--pegs-count", "2"], ["argument --pegs-count: expected an integer >= 3, got '2'"]),
        (["--pegs-count", "x"], ["argument --pegs-count"]),
        (["--from", "0,0"], ["--from: configuration '0,0': expected 3 pegs", "got 2"]),
        (["--to", "0,0,3"], ["--to: configuration '0,0,3': disk 3: peg '3' is not 0, 1 or 2"]),
        (["--pegs-count", "4", "--to", "0,0,4"], ["disk 3: peg '4' is not 0, 1, 2 or 3"]),
        (["--to", "2,2,2", "--target", "C"], ["--to and --target"]),
        (["--pegs", "0-3"], ["argument --pegs", "not a convention of 3 pegs"]),
        (["--pegs", "S,A,D", "--pegs-count", "4"], ["argument --pegs", "3 names, not 4"]),
        (["--pegs", "A-C", "--pegs-count", "4"], ["argument --pegs", "not a convention of 4 pegs"]),
        (["--from", ",".join("0" * 10001)], ["argument --from: at most 10000 disks"]),
        (["--pegs-count", "65536", "--to", "0,0,70000"], ["peg '70000' is not one of 0 .. 65535"]),
        (["--pegs-count", "65537"], ["argument --pegs-count: at most 65536 pegs"]),
    ],
)
def test_check_refuses_bad_options_in_one_line(
    capsys: Capsys, tmp_path: Path, options: list[str], fragments: list[str]
) -> None:
    path = tmp_path / "moves.txt"
    path.write_text("1 0 2\n")
    code, out, err = run_cli(capsys, "check", "-n", "3", str(path), *options)
    assert out == ""
    assert_one_line_error(code, err, *fragments)
    assert len(err) < 300  # a short line, whatever the number of pegs or disks


# --- hanoi list ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "puzzle", "ends"),
    [
        ("recursive", "classic", "-"),
        ("any_state", "any state", "any"),
        ("cyclic", "cyclic", "towers"),
        ("cyclic_blocks", "cyclic", "towers"),
        ("linear", "linear", "towers"),
        ("linear_blocks", "linear", "towers"),
        ("frame_stewart", "4 pegs", "towers"),
        ("frame_stewart_5", "5 pegs", "towers"),
    ],
)
def test_list_shows_each_records_puzzle(capsys: Capsys, name: str, puzzle: str, ends: str) -> None:
    code, out, _ = run_cli(capsys, "list")
    header = out.splitlines()[0]
    assert code == 0 and header.split()[-2:] == ["puzzle", "from/to"]
    line = row(out, name)
    column = header.index("puzzle")
    assert line[column:].split("  ")[0].strip() == puzzle and line.split()[-1] == ends
