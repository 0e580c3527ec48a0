"""Other packages' solvers, judged by the project's checker: what is legal, what is optimal, where each stops.

The peers (hanoi-python-solver, k-peg-hanoi, hanoitoys) are inputs the
project did not write: each test runs one through its adapter in
:mod:`hanoi_harness.peers` (or calls it directly, to pin a limit) and
compares its moves with the checker's verdict, with
:func:`hanoi_harness.optimal.distance` and the Frame-Stewart counts, and
with the reference sequence.  The tests of a peer are skipped, with the
reason, when the extra ``peers`` is not installed; the ids carry the
records' names, so ``pytest -k k_peg_hanoi`` (or ``hanoi_python_solver``,
``hanoitoys``) selects one peer's checks.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import random
import sys
from pathlib import Path

import pytest

from hanoi_harness.algorithms.any_state import solve_for as any_state
from hanoi_harness.checker import check, check_algorithm
from hanoi_harness.digest import digest
from hanoi_harness.errors import UsageError
from hanoi_harness.optimal import distance, frame_stewart, largest_disk_costs
from hanoi_harness.peers import INSTALL, compare, k_peg, python_solver, toys, with_disks
from hanoi_harness.puzzle import CLASSIC, tower
from hanoi_harness.registry import Algorithm
from tests.helpers import assert_one_line_error, equal_work, reference, run_cli


def needs(module: str, package: str) -> pytest.MarkDecorator:
    """Skip unless *module* imports: the peer *package* comes with the extra ``peers``."""
    missing = importlib.util.find_spec(module) is None
    return pytest.mark.skipif(missing, reason=f"{package} is not installed: {INSTALL}")


SOLVER = needs("hanoi_python_solver", "hanoi-python-solver")
K_PEG = needs("k_peg_hanoi", "k-peg-hanoi")
TOYS = needs("hanoitoys", "hanoitoys")
TK = pytest.mark.skipif(
    importlib.util.find_spec("tkinter") is None, reason="hanoitoys.Hanoi imports turtle: no tkinter"
)
ALL = [SOLVER, K_PEG, TOYS, TK]

DIJKSTRA = python_solver.RECORD
CLASSIC_TOYS = [toys.RECORDS[name] for name in ("CLASSICAL", "NON_RECURSIVE", "OLIVE", "IDLE_PEG")]
PLUGINS = [
    (f"{module.__name__}:{key}", record)
    for module in (python_solver, k_peg, toys)
    for key, record in module.RECORDS.items()
]


def configs(n: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(3), repeat=n))


def assert_shortest(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> None:
    """The peer's path from *start* to *goal* is legal, ends there and is as long as :func:`distance` says."""
    verdict = check_algorithm(DIJKSTRA, n, start=start, goal=goal)
    assert verdict.ok, (start, goal, verdict.describe())
    assert verdict.moves == distance(start, goal), (start, goal)


# --- the adapters themselves (no peer needed) ---------------------------------------------------


@pytest.mark.parametrize(("spec", "peer"), [(spec, spec.split(".")[2].split(":")[0]) for spec, _ in PLUGINS])
def test_a_missing_peer_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], spec: str, peer: str
) -> None:
    modules = {"python_solver": "hanoi_python_solver", "k_peg": "k_peg_hanoi", "toys": "hanoitoys"}
    monkeypatch.setitem(sys.modules, modules[peer], None)  # what an import of a package not installed meets
    name = spec.split(":")[1]
    code, _, err = run_cli(capsys, "moves", "whatever", "3", "--plugin", spec)
    assert_one_line_error(code, err, "is not installed", INSTALL)
    with pytest.raises(UsageError, match=r"pip install 'hanoi-harness\[peers\]'"):
        getattr(sys.modules[f"hanoi_harness.peers.{peer}"], name)


def test_a_record_asked_for_that_is_not_offered_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="K_PEG_9"):
        k_peg.K_PEG_9  # noqa: B018
    assert not hasattr(toys, "__wrapped__")


@pytest.mark.parametrize("record", [record for _, record in PLUGINS], ids=lambda record: record.name)
def test_each_record_names_its_puzzle_its_final_peg_and_the_package(record: Algorithm) -> None:
    assert record.source is not None and record.source.site.startswith("https://pypi.org/project/")
    assert record.source.year in {"2022", "2024", "2025"}
    assert record.family.startswith("peer")
    assert record.final_peg.pegs(5) == {record.puzzle.pegs - 1}
    assert record.min_n >= 0 and (record.min_n == 0 or record.min_n_reason)


def test_a_line_that_is_not_a_move_is_refused_by_the_checker() -> None:
    lines = ["1: Move Disc 0 from A to C", "Bad parameters n=0, i=0, j=2"]
    verdict = check(toys.parsed(lines, toys.CLASSIC_LINE, toys.read_classic), 1)
    assert verdict.status == "illegal" and verdict.step == 2
    assert verdict.failure is not None and verdict.failure.rule == "not_a_triple"


def test_a_pair_from_an_empty_peg_gets_disk_0_and_the_checker_names_it() -> None:
    moves = list(with_disks([(0, 2), (1, 2)], (0,), 3))
    assert moves == [(1, 0, 2), (0, 1, 2)]
    verdict = check(moves, 1)
    assert verdict.status == "illegal" and verdict.failure is not None and verdict.failure.rule == "empty_source"


def test_a_program_that_fails_is_a_crash_naming_its_last_error_line() -> None:
    program = ["-c", "import sys; print('1: Move Disc 0 from A to C'); sys.exit('it went wrong')"]
    lines = toys.run("failing", program)
    assert next(lines) == "1: Move Disc 0 from A to C"
    with pytest.raises(RuntimeError, match="failing exited with status 1: it went wrong"):
        next(lines)


def test_closing_the_moves_early_ends_the_program() -> None:
    lines = toys.run("endless", ["-c", "import os\nprint(os.getpid())\nwhile True: print('y')"])
    pid = int(next(lines))
    assert [next(lines) for _ in range(3)] == ["y"] * 3
    lines.close()
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(pid, 0)


# --- hanoi-python-solver: Dijkstra over all 3^n positions ---------------------------------------


@SOLVER
@pytest.mark.parametrize("n", [1, 2, 3])
def test_hanoi_python_solver_every_start_and_goal_is_a_shortest_path(n: int) -> None:
    for start, goal in itertools.product(configs(n), repeat=2):
        assert_shortest(n, start, goal)


@SOLVER
@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_hanoi_python_solver_random_starts_and_goals_are_shortest_paths(n: int) -> None:
    draw = random.Random(n)
    for _ in range(4):
        assert_shortest(n, tuple(draw.randrange(3) for _ in range(n)), tuple(draw.randrange(3) for _ in range(n)))


@SOLVER
@pytest.mark.slow
def test_hanoi_python_solver_every_start_and_goal_at_4_disks() -> None:
    other_way = 0
    for start, goal in itertools.product(configs(4), repeat=2):
        assert_shortest(4, start, goal)
        other_way += list(DIJKSTRA.moves_for(4, start, goal)) != list(any_state(4, start, goal))
    assert other_way == 134  # of 6561 pairs: another shortest path than any_state's


@SOLVER
@pytest.mark.slow
def test_hanoi_python_solver_every_start_and_goal_at_5_disks() -> None:
    """All 59049 pairs through the package's own API, one game (one graph) per start: a minute, not an hour."""
    from hanoi_python_solver.hanoi import Hanoi

    for start in configs(5):
        game = Hanoi(5)
        for _, src, dst in any_state(5, tower(5, 0), start):
            assert game.move((src + 1, dst + 1))
        for goal in configs(5):
            pairs = [(i - 1, j - 1) for i, j in game.pathToSolution(python_solver.abc(goal))["moves"]]
            verdict = check(with_disks(pairs, start, 3), 5, puzzle=CLASSIC.between(start, goal))
            assert verdict.ok and verdict.moves == distance(start, goal), (start, goal, verdict.describe())


@SOLVER
@pytest.mark.parametrize("n", range(1, 8))
def test_hanoi_python_solver_moves_the_tower_as_the_reference_does(n: int) -> None:
    assert list(DIJKSTRA.moves(n)) == list(reference(n))


@SOLVER
@pytest.mark.slow
@pytest.mark.parametrize("n", [8, 9, 10])
def test_hanoi_python_solver_on_the_largest_games_it_takes(n: int) -> None:
    assert list(DIJKSTRA.moves(n)) == list(reference(n))
    draw = random.Random(n)
    for _ in range(3):
        assert_shortest(n, tuple(draw.randrange(3) for _ in range(n)), tuple(draw.randrange(3) for _ in range(n)))


@SOLVER
def test_hanoi_python_solver_takes_another_shortest_path_only_where_two_exist() -> None:
    """Where the largest disk that differs can move once or twice in as many moves, it may take the other way."""
    differ = []
    for start, goal in itertools.product(configs(2), repeat=2):
        theirs = list(DIJKSTRA.moves_for(2, start, goal))
        if theirs != list(any_state(2, start, goal)):
            _, once, twice = largest_disk_costs(start, goal)
            assert once == twice == len(theirs), (start, goal)
            differ.append((start, goal))
    assert differ == [((0, 2), (2, 0)), ((2, 1), (1, 2))]  # it moves disk 2 twice, any_state once


@SOLVER
def test_hanoi_python_solver_limits() -> None:
    from hanoi_python_solver.hanoi import Hanoi

    with pytest.raises(RecursionError):
        Hanoi(0).pathToSolution("")
    with pytest.raises(ValueError, match="max = 10"):
        Hanoi(11)
    assert (DIJKSTRA.min_n, DIJKSTRA.max_n) == (1, 10)
    with pytest.raises(UsageError, match="accepts n <= 10"):
        check_algorithm(DIJKSTRA, 11)


# --- k-peg-hanoi: Frame-Stewart, (from, to) pairs ------------------------------------------------


@K_PEG
@pytest.mark.parametrize("k", [3, 4, 5, 6, 8], ids=lambda k: f"k_peg_hanoi_{k}")
def test_k_peg_hanoi_takes_the_frame_stewart_count(k: int) -> None:
    record = k_peg.for_pegs(k)
    for n in range(1, equal_work(record, 12) + 1):
        verdict = check_algorithm(record, n)
        assert verdict.ok, (n, verdict.describe())
        assert verdict.moves == frame_stewart(n, k)
        status = {3: "", 4: "optimal (proven)"}.get(
            k, "matches the Frame-Stewart count (conjectured optimal for k >= 5)"
        )
        assert verdict.optimality == status


@K_PEG
@pytest.mark.parametrize("k", [4, 5], ids=lambda k: f"k_peg_hanoi_{k}")
def test_k_peg_hanoi_moves_a_tower_between_any_two_pegs(k: int) -> None:
    record = k_peg.for_pegs(k)
    for src, dst, n in itertools.product(range(k), range(k), range(1, 7)):
        verdict = check_algorithm(record, n, start=tower(n, src), goal=tower(n, dst))
        assert verdict.ok and verdict.moves == (0 if src == dst else frame_stewart(n, k)), (src, dst, n)


@K_PEG
@pytest.mark.parametrize("n", range(1, 11))
def test_k_peg_hanoi_3_moves_the_tower_as_the_reference_does(n: int) -> None:
    assert list(k_peg.RECORDS["K_PEG_3"].moves(n)) == list(reference(n))


@K_PEG
def test_k_peg_hanoi_limits() -> None:
    import k_peg_hanoi

    with pytest.raises(ValueError, match="empty"):
        next(k_peg_hanoi.hanoi(0, [0, 1, 2, 3]))
    with pytest.raises(ValueError, match="Too few"):
        next(k_peg_hanoi.hanoi(2, [0, 1]))
    assert next(k_peg_hanoi.hanoi(k_peg.THREE_PEGS_MAX_N, [0, 1, 2])) in {(0, 1), (0, 2)}
    with pytest.raises(RecursionError):
        next(k_peg_hanoi.hanoi(1000, [0, 1, 2]))
    assert next(k_peg_hanoi.hanoi(1500, [0, 1, 2, 3]))  # four pegs nest shallowly: no such limit


@K_PEG
def test_forget_empties_the_peers_cache() -> None:
    import k_peg_hanoi

    list(k_peg.for_pegs(4).moves(10))
    assert k_peg_hanoi.nmove.cache_info().currsize > 0
    k_peg.forget()
    assert k_peg_hanoi.nmove.cache_info().currsize == 0


# --- hanoitoys: printing programs ----------------------------------------------------------------


@TOYS
@pytest.mark.parametrize("record", CLASSIC_TOYS, ids=lambda record: record.name)
def test_hanoitoys_programs_move_the_tower_as_the_reference_does(record: Algorithm) -> None:
    for n in (1, 2, 3, 6, 10):
        assert list(record.moves(n)) == list(reference(n)), n


FORWARD = [(0, 1), (1, 2), (2, 0)]
"""The transfers one step round 0 -> 1 -> 2 -> 0: those DoOlive gets wrong."""


@TOYS
@pytest.mark.parametrize("record", CLASSIC_TOYS, ids=lambda record: record.name)
def test_hanoitoys_programs_move_a_tower_between_any_two_pegs(record: Algorithm) -> None:
    for (src, dst), n in itertools.product(itertools.permutations(range(3), 2), (1, 3, 4)):
        if record.name == "hanoitoys_olive" and (src, dst) in FORWARD and n > 1:
            continue  # the next test
        verdict = check_algorithm(record, n, start=tower(n, src), goal=tower(n, dst))
        assert verdict.ok and verdict.moves == 2**n - 1, (src, dst, n, verdict.describe())


@TOYS
@pytest.mark.parametrize(("src", "dst"), FORWARD)
def test_hanoitoys_olive_never_ends_a_transfer_one_step_forward(src: int, dst: int) -> None:
    """DoOlive(n, i, j) turns the smallest disk the way that suits j = i - 1 (mod 3), its own 0 -> 2, whatever j is.

    With two disks or more, moving a tower one step forward round the cycle,
    it goes on moving legally without ever gathering the tower on j: the
    checker stops it at 4 * 2^n + 16 moves, and closing the moves ends it.
    """
    for n in (2, 3, 6):
        verdict = check_algorithm(toys.RECORDS["OLIVE"], n, start=tower(n, src), goal=tower(n, dst))
        assert verdict.status == "not_optimal" and verdict.failure is not None, verdict.describe()
        assert verdict.failure.rule == "still_moving" and verdict.moves == 4 * 2**n + 16


@TOYS
def test_hanoitoys_programs_with_no_disks() -> None:
    with pytest.raises(RuntimeError, match="RecursionError"):
        list(toys.classic_transfer("classical", 0, 0, 2))
    assert list(toys.classic_transfer("olive", 0, 0, 2)) == [("Bad parameters n=0, i=0, j=2",)]
    assert list(toys.classic_transfer("nr", 0, 0, 2)) == []
    assert list(toys.classic_transfer("idle_peg", 0, 0, 2)) == []


@TOYS
@TK
@pytest.mark.parametrize("k", [3, 4, 5, 6], ids=lambda k: f"hanoitoys_frame_stewart_{k}")
def test_hanoitoys_frame_stewart_takes_the_frame_stewart_count(k: int) -> None:
    record = toys.frame_stewart(k)
    for n in (1, 2, 3, 5, 8, 13):
        verdict = check_algorithm(record, n)
        assert verdict.ok and verdict.moves == frame_stewart(n, k), (n, verdict.describe())


@TOYS
@TK
def test_hanoitoys_frame_stewart_on_all_52_lettered_pegs() -> None:
    verdict = check_algorithm(toys.frame_stewart(52), 64)
    assert verdict.ok and verdict.moves == frame_stewart(64, 52)


@TOYS
@TK
def test_hanoitoys_frame_stewart_limits() -> None:
    def dialogue(answers: str) -> list[str]:
        return list(toys.run("hanoitoys.Hanoi", ["-m", "hanoitoys.Hanoi"], answers))

    with pytest.raises(RuntimeError, match="EOFError"):  # asks again for a number of discs above 0
        dialogue("4\n0\n")
    assert dialogue("76\n3\nn\n")[-1].endswith("from B to omega")  # the 76th peg: the last label
    with pytest.raises(RuntimeError, match="IndexError"):
        dialogue("77\n3\nn\n")
    with pytest.raises(UsageError, match="3 to 52 pegs"):
        toys.frame_stewart(53)


# --- the commands and the comparison --------------------------------------------------------------


@pytest.mark.parametrize(("spec", "record"), PLUGINS, ids=[record.name for _, record in PLUGINS])
def test_the_commands_take_the_peers_as_plugins(
    capsys: pytest.CaptureFixture[str], spec: str, record: Algorithm
) -> None:
    for mark in ALL:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    code, out, _ = run_cli(capsys, "moves", record.name, "4", "--plugin", spec)
    assert code == 0
    assert [tuple(map(int, line.split())) for line in out.splitlines()] == list(record.moves(4))
    code, out, err = run_cli(capsys, "verify", record.name, "--n-max", "6", "--plugin", spec)
    assert code == 0, out + err


def peers_missing() -> str | None:
    """Why the comparison cannot run here, or None."""
    return next((mark.kwargs["reason"] for mark in ALL if mark.args[0]), None)


@pytest.mark.skipif(peers_missing() is not None, reason=str(peers_missing()))
def test_the_comparison_measures_each_peer_on_the_work_of_ours() -> None:
    results = compare.measure(compare.plan(quick=True), repeat=1)
    cases: dict[tuple[str, int, str, str], list[compare.Measurement]] = {}
    for m in results:
        cases.setdefault((m.puzzle, m.n, m.start, m.goal), []).append(m)
    assert len(cases) == len(compare.plan(quick=True))
    for group in cases.values():
        base, *others = group
        assert base.ratio == 1.0 and base.in_process and base.name == base.baseline
        for m in group:
            assert m.verdict.startswith("ok"), m
            assert m.moves == base.moves, m  # every record optimal: the same work
            assert m.seconds is not None and m.seconds > 0 and m.times == (m.seconds,)
            assert m.cpu_seconds is not None and m.cpu_seconds > 0
            assert m.peak_bytes is not None and m.peak_bytes > 0
            assert m.in_process != m.name.startswith("hanoitoys_")
        assert others, group
    classic = [m for m in results if m.name.startswith("hanoitoys_") and m.puzzle.startswith("3 pegs")]
    assert classic and {m.digest for m in classic} == {digest(reference(classic[0].n))[1]}


@pytest.mark.skipif(peers_missing() is not None, reason=str(peers_missing()))
def test_a_record_that_fails_its_check_is_reported_and_not_timed() -> None:
    def wrong(n: int) -> list[tuple[int, int, int]]:
        return [(1, 0, 1), (1, 1, 2)] if n == 1 else []

    known = {**compare.records(), "wrong": Algorithm(name="wrong", solve=wrong, summary="two moves for one")}
    measured = compare.measure_case(compare.towers(CLASSIC, 1, ("recursive", "wrong")), known, repeat=2)
    assert [m.name for m in measured] == ["recursive", "wrong"]
    assert measured[0].seconds is not None and len(measured[0].times) == 2
    assert (
        measured[1].verdict.startswith("legal but not optimal")
        and measured[1].seconds is None
        and measured[1].ratio is None
    )


@pytest.mark.skipif(peers_missing() is not None, reason=str(peers_missing()))
def test_the_comparison_writes_its_records_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "peers.json"
    assert compare.main(["--quick", "--repeat", "1", "--json", str(path)]) == 0
    records = json.loads(path.read_text())
    assert {"name", "puzzle", "n", "moves", "seconds", "cpu_seconds", "peak_bytes"} <= set(records[0])
    assert not list(tmp_path.glob(".*"))  # the staging file was renamed
    assert len(records) == len(capsys.readouterr().out.splitlines()) - 2  # the table: a header, a rule, a row each


def test_the_comparison_refuses_a_repeat_below_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        compare.main(["--repeat", "0"])
    assert_one_line_error(int(exit_.value.code or 0), capsys.readouterr().err, "--repeat must be at least 1")
