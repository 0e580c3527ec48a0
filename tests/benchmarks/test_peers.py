"""Judge other packages' solvers by the project's checker.

The tests say what is legal, what is optimal, and where each stops.

The peers (hanoi-python-solver, k-peg-hanoi, hanoitoys) are inputs the project did not write.  Each test
runs one through its adapter in :mod:`benchmarks.peers`, or calls it directly to pin a limit.  It
compares its moves with the checker's verdict, with :func:`hanoi_harness.core.optimal.distance` and the
Frame-Stewart counts, and with the reference sequence.  A peer that raises or gives garbage must be a
verdict.  The tests of a peer are skipped, with the reason, when its package (``benchmarks/requirements.txt``)
is not installed (``pytest.importorskip``).  The ids carry the records' names, so ``pytest -k k_peg_hanoi``
(or ``hanoi_python_solver``, ``hanoitoys``) selects one peer's checks.  The last part tests ``python -m
benchmarks.peers``: the tables of who is faster (on result sets made up here, so without the peers) and a
small run of two peers.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import benchmarks.peers as peers_module
from benchmarks.peers import INSTALL, PEERS, Peer, k_peg, python_solver, toys, with_disks
from benchmarks.peers.compare import (
    COLUMNS,
    HeadToHead,
    Pair,
    _times,
    common_ns,
    comparison,
    duel_n,
    head_to_head,
    headline,
    main,
    page,
)
from hanoi_algorithms.any_state import solve_for as any_state
from hanoi_harness.bench import run as _run
from hanoi_harness.bench.results.resultset import ResultSet, load
from hanoi_harness.bench.timing.stats import Difference, Interval
from hanoi_harness.core.checker import check, check_algorithm
from hanoi_harness.core.optimal import distance, frame_stewart, largest_disk_costs
from hanoi_harness.core.puzzle import CLASSIC, tower
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from tests.helpers import FIXTURES, REGISTRY, assert_one_line_error, bench_set, equal_work, reference, run_cli


def needs(module: str, package: str) -> None:
    """Skip the test, with the reason, unless *module* imports.

    The peer *package* comes with the extra ``peers``.
    """
    pytest.importorskip(module, reason=f"{package} is not installed: {INSTALL}")


@pytest.fixture
def solver() -> None:
    needs("hanoi_python_solver", "hanoi-python-solver")


@pytest.fixture
def kpeg() -> None:
    needs("k_peg_hanoi", "k-peg-hanoi")


@pytest.fixture
def hanoitoys() -> None:
    needs("hanoitoys", "hanoitoys")


@pytest.fixture
def tk() -> None:
    needs("tkinter", "tkinter (hanoitoys.Hanoi imports turtle)")


@pytest.fixture
def every_peer(solver: None, kpeg: None, hanoitoys: None, tk: None) -> None:
    """Skip unless every peer is installed, tkinter included."""


SOLVER = pytest.mark.usefixtures("solver")
K_PEG = pytest.mark.usefixtures("kpeg")
TOYS = pytest.mark.usefixtures("hanoitoys")
TK = pytest.mark.usefixtures("tk")

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
    """Assert the peer's path from *start* to *goal* is legal and shortest.

    It must end there and be as long as :func:`distance` says.
    """
    verdict = check_algorithm(DIJKSTRA, n, start=start, goal=goal)
    assert verdict.ok and verdict.optimality == "optimal (proven)", (start, goal, verdict.describe())
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
    with pytest.raises(UsageError, match=r"pip install -r benchmarks/requirements\.txt"):
        getattr(sys.modules[f"benchmarks.peers.{peer}"], name)


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


def test_a_module_in_the_current_directory_does_not_shadow_the_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "shadowed.py").write_text("print('from the current directory')\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError, match="No module named 'shadowed'"):
        list(toys.run("shadowed", ["-c", "import shadowed"]))


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
    """All 59049 pairs through the package's own API, one game per start.

    One game, so one graph, per start keeps it to a minute, not an hour.
    """
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
    """Where two shortest paths exist, the peer may take the other one.

    That is where the largest disk that differs can move once or twice in as many moves.
    """
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
@pytest.mark.parametrize("k", [3, 4, 5, 8], ids=lambda k: f"k_peg_hanoi_{k}")
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
        next(iter(k_peg_hanoi.hanoi(0, [0, 1, 2, 3])))
    with pytest.raises(ValueError, match="Too few"):
        next(iter(k_peg_hanoi.hanoi(2, [0, 1])))
    assert next(iter(k_peg_hanoi.hanoi(k_peg.THREE_PEGS_MAX_N, [0, 1, 2]))) in {(0, 1), (0, 2)}
    with pytest.raises(RecursionError):
        next(iter(k_peg_hanoi.hanoi(1000, [0, 1, 2])))
    assert next(iter(k_peg_hanoi.hanoi(1500, [0, 1, 2, 3])))  # four pegs nest shallowly: no such limit


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
        assert verdict.optimality == "optimal (proven)"


@TOYS
@pytest.mark.parametrize(("src", "dst"), FORWARD)
def test_hanoitoys_olive_never_ends_a_transfer_one_step_forward(src: int, dst: int) -> None:
    """DoOlive turns the smallest disk as if j = i - 1 (mod 3), whatever j is.

    DoOlive(n, i, j) turns it the way that suits j = i - 1 (mod 3), its own 0 -> 2.  With two disks or more,
    moving a tower one step forward round the cycle, it goes on moving legally.  It never gathers the tower on
    j: the checker stops it at 4 * 2^n + 16 moves, and closing the moves ends it.
    """
    for n in (2, 3, 6):
        verdict = check_algorithm(toys.RECORDS["OLIVE"], n, start=tower(n, src), goal=tower(n, dst))
        assert verdict.status == "not_optimal" and verdict.failure is not None, verdict.describe()
        assert verdict.failure.rule == "still_moving" and verdict.moves == 4 * 2**n + 16


@TOYS
def test_hanoitoys_programs_with_no_disks() -> None:
    with pytest.raises(RuntimeError, match="RecursionError"):
        list(toys.classic_transfer("classical", 0, 0, 2))
    said: list[Any] = list(toys.classic_transfer("olive", 0, 0, 2))  # what the program printed, not a move
    assert said == [("Bad parameters n=0, i=0, j=2",)]
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


# --- a peer that raises or gives garbage: a verdict, never a traceback ---------------------------------


RAISES = """\
import k_peg_hanoi
from benchmarks.peers import k_peg


def raising(md, pos):
    yield (pos[0], pos[1])
    raise ZeroDivisionError("the peer gave up")


k_peg_hanoi.hanoi = raising
RECORD = k_peg.for_pegs(4, "hostile")
"""

GARBAGE = RAISES.replace('raise ZeroDivisionError("the peer gave up")', 'yield ("A", None)')


@K_PEG
@pytest.mark.parametrize(
    ("plugin", "said"),
    [
        (RAISES, "crashed at step 2: ZeroDivisionError: the peer gave up"),
        (
            GARBAGE,
            "illegal at step 2: move \"(0, 'A', None)\": a move must be a triple of integers (disk, src, dst), "
            "not a tuple holding int, str, NoneType",
        ),
    ],
    ids=["raises", "garbage"],
)
def test_a_peer_that_raises_or_gives_garbage_is_a_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], plugin: str, said: str
) -> None:
    """The peer's own function replaced inside the plugin, to run in the child.

    The child is the process of ``hanoi verify``, which runs it.

    ``hanoi moves`` imports the plugin in this process: the peer's function is put back after the test.
    """
    import k_peg_hanoi

    monkeypatch.setattr(k_peg_hanoi, "hanoi", k_peg_hanoi.hanoi)
    (tmp_path / "hostile.py").write_text(plugin)
    spec = f"{tmp_path / 'hostile.py'}:RECORD"
    code, out, err = run_cli(capsys, "verify", "hostile", "--n", "3", "--plugin", spec)
    assert code == 1 and "Traceback" not in out + err
    assert said in " ".join(out.split()), out
    code, out, err = run_cli(capsys, "moves", "hostile", "3", "--plugin", spec)
    assert code == 1 and out.splitlines() == ["1 0 1"]  # the move before, then one line on stderr
    assert err.startswith(f"hanoi: hostile: {said}") and len(err.splitlines()) == 1, err


@SOLVER
def test_hanoi_python_solver_raising_or_giving_a_rod_it_has_not_is_a_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_python_solver.hanoi import Hanoi

    monkeypatch.setattr(Hanoi, "pathToSolution", lambda self, abc: {"moves": [(1, 3), (1, 7)]})
    verdict = check_algorithm(DIJKSTRA, 2)
    assert verdict.status == "illegal" and verdict.step == 2 and verdict.failure is not None
    assert verdict.failure.rule == "bad_peg" and verdict.failure.dst == 6  # rod 7 is "peg" 6 of three

    def gives_up(self: object, abc: str) -> dict[str, list[tuple[int, int]]]:
        raise KeyError(abc)

    monkeypatch.setattr(Hanoi, "pathToSolution", gives_up)
    verdict = check_algorithm(DIJKSTRA, 2)
    assert verdict.status == "crashed" and verdict.step == 1 and verdict.moves == 0
    assert verdict.failure is not None and verdict.failure.detail == "KeyError: 'CC'"


@TOYS
@pytest.mark.parametrize(
    ("call", "status", "rule", "detail"),
    [
        ("print('1: Move Disc 0 from A to C'); print('Disc 1 is tired')", "illegal", "not_a_triple", ""),
        (
            "print('1: Move Disc 0 from A to C', flush=True); sys.exit('out of paper')",
            "crashed",
            "crashed",
            "RuntimeError: hanoitoys.HanoiNR exited with status 1: out of paper",
        ),
        (
            "print('1: Move Disc 0 from A to B'); print('2: Move Disc 1 from A to B')",
            "illegal",
            "larger_on_smaller",
            "",
        ),
    ],
    ids=["prints-a-line-that-is-no-move", "exits-1", "moves-a-disk-under-another"],
)
def test_a_hanoitoys_program_that_misbehaves_is_a_verdict(
    monkeypatch: pytest.MonkeyPatch, call: str, status: str, rule: str, detail: str
) -> None:
    monkeypatch.setitem(toys.CALLS, "nr", call)
    verdict = check_algorithm(toys.RECORDS["NON_RECURSIVE"], 2)
    assert (verdict.status, verdict.step) == (status, 2), verdict.describe()
    assert verdict.failure is not None and verdict.failure.rule == rule and verdict.failure.detail == detail


# --- the commands -----------------------------------------------------------------------------------------


@pytest.mark.usefixtures("every_peer")
@pytest.mark.parametrize(("spec", "record"), PLUGINS, ids=[record.name for _, record in PLUGINS])
def test_the_commands_take_the_peers_as_plugins(
    capsys: pytest.CaptureFixture[str], spec: str, record: Algorithm
) -> None:
    code, out, _ = run_cli(capsys, "moves", record.name, "4", "--plugin", spec)
    assert code == 0
    assert [tuple(map(int, line.split())) for line in out.splitlines()] == list(record.moves(4))
    code, out, err = run_cli(capsys, "verify", record.name, "--n-max", "6", "--plugin", spec)
    assert code == 0, out + err


@K_PEG
def test_the_peers_do_not_take_the_hanoi_command() -> None:
    """k-peg-hanoi installs a ``hanoi`` too: with both, it must be ours.

    Its console script is named ``hanoi``; where both are installed, the command must be ours.
    """
    script = Path(sys.executable).with_name("hanoi")
    if not script.is_file():
        pytest.skip(f"no {script}: the project is not installed beside this interpreter")
    assert "hanoi_harness" in script.read_text(errors="replace")


def test_every_peer_is_paired_with_an_algorithm_of_its_puzzle() -> None:
    by_spec = {spec: record for spec, record in PLUGINS}
    assert {peer.spec for peer in PEERS} == set(by_spec)
    for peer in PEERS:
        theirs, ours = by_spec[peer.spec], REGISTRY.get(peer.ours)
        assert theirs.puzzle == ours.puzzle and theirs.final_peg.pegs(6) == ours.final_peg.pegs(6), peer
        assert peer.apart == (theirs.family == toys.FAMILY), peer


# --- the peers' result set and their tables: python -m benchmarks.peers -------------------------------------


def peers_set() -> tuple[ResultSet, tuple[Pair, ...]]:
    """Return a set of three of ours and two much slower peers, and the pairs.

    'theirs' is 50 times slower than any_state, and 'toy' (apart) 3000 times.
    """
    results = bench_set({"any_state": 1.0, "theirs": 50.0, "toy": 3000.0, "gone": 2.0})
    results.algorithms["gone"].status = "failed"
    results.algorithms["gone"].failure = {"describe": "illegal at step 2: move 0 A None"}
    results.algorithms["gone"].runs = []
    duel = HeadToHead(10, 12, Difference("slower", 49.2, Interval(47.9, 50.8), 3e-7))
    pairs = (
        Pair("theirs", "any_state", optimality="optimal (proven)", head_to_head=duel),
        Pair("toy", "recursive", apart=True, optimality="optimal (proven)"),
        Pair("gone", "recursive", optimality="optimal (proven)"),
    )
    return results, pairs


def test_the_comparison_shows_each_pair_at_each_n_both_ran() -> None:
    table = comparison(*peers_set())
    assert [(row[1], row[3], row[5]) for row in table.shown] == [
        (n, peer, ours) for peer, ours in (("theirs", "any_state"), ("toy", "recursive")) for n in ("6", "10", "14")
    ]
    for row, raw in zip(table.shown, table.raw, strict=True):
        factor = 50.0 if row[3] == "theirs" else 3000.0
        ratio, low, high = raw[COLUMNS.index("ratio") : COLUMNS.index("ratio_high") + 1]
        assert low < ratio < high and factor / 1.03 < ratio < factor * 1.03  # bench_set's rounds: within 1%
        assert row[7].startswith(_times(ratio) + " (") and row[9] == row[10] == "legal, optimal (proven)"
        assert raw[2] == 2 ** int(row[1]) - 1 and raw[-2:] == ["ok", "ok"]
    theirs, toy = table.shown[0], table.shown[3]
    assert theirs[8] == "2e+05 / 4000 = 50x"  # bench_set counts 4000 instructions a move times the factor
    assert toy[8] == "- (the peer runs in a process of its own)"
    assert table.raw[3][COLUMNS.index("peer_instructions_per_move")] is None


def test_the_headline_gives_a_line_a_pair_a_failed_peer_with_its_verdict() -> None:
    table = headline(*peers_set())
    assert [row[:6] for row in table.shown] == [
        ["theirs", "any_state", "3 pegs, every move", "10 (1023)", "49.2x (47.9x to 50.8x)", "6..14"],
        ["toy", "recursive", "3 pegs, every move", "", "", "6..14"],
        ["gone", "recursive", "3 pegs, every move", "", "", "none"],
    ]
    low, high = table.shown[0][6].split(" to ")
    assert 48 < float(low.rstrip("x")) <= float(high.rstrip("x")) < 52  # bench_set: 50 times, rounds within 1%
    assert table.shown[0][7] == "legal, optimal (proven)"
    assert table.shown[2][6:] == ["", "FAILED: illegal at step 2: move 0 A None"]


def test_the_page_links_the_set_and_says_which_peers_run_apart() -> None:
    results, pairs = peers_set()
    text = page(results, pairs)
    assert headline(results, pairs).markdown() in text and "[peers/README.md](peers/README.md)" in text
    assert "`toy` run as a program of their own" in text and "ABBA order, 12 drains each" in text
    assert "of their own" not in page(results, pairs[:1])


def test_a_pair_is_timed_head_to_head_at_the_largest_n_whose_drains_are_short() -> None:
    results = bench_set({"level_formula": 1.5, "slow": 1000.0})
    pairs = (Pair("level_formula", "recursive"), Pair("slow", "recursive"))
    assert duel_n(results.algorithms["level_formula"], results.algorithms["recursive"]) == 14  # 7 ms a drain
    assert duel_n(results.algorithms["slow"], results.algorithms["recursive"]) == 6  # 0.3 s at n = 10: too long
    results.algorithms["slow"].runs = []
    assert duel_n(results.algorithms["slow"], results.algorithms["recursive"]) is None
    known = {name: REGISTRY.get(name) for name in ("recursive", "level_formula")}
    duelled, untouched = head_to_head(results, pairs, known)
    assert untouched == pairs[1]
    assert duelled.head_to_head is not None and (duelled.head_to_head.n, duelled.head_to_head.rounds) == (14, 12)
    found = duelled.head_to_head.difference
    assert found.interval is not None and found.interval.low <= found.ratio <= found.interval.high
    assert 0 < found.p_value <= 1 and found.ratio > 0


@pytest.fixture
def two_peers(monkeypatch: pytest.MonkeyPatch, solver: None, kpeg: None) -> tuple[Peer, ...]:
    """Measure two peers only, both in this process.

    They are Dijkstra and k-peg-hanoi on 4 pegs.
    """
    chosen = (PEERS[0], PEERS[2])
    monkeypatch.setattr(peers_module, "PEERS", chosen)
    monkeypatch.setattr(_run, "find_valgrind", lambda: "valgrind is left out of this test")
    return chosen


def test_the_peers_set_goes_into_a_bench_set_and_its_pages_are_linked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], two_peers: tuple[Peer, ...]
) -> None:
    out = tmp_path / "out"
    assert run_cli(capsys, "bench", "recursive", "--sizes", "3", "--out", str(out))[0] == 0
    assert main(["--sizes", "3,4", "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out / "peers.md")
    theirs = load(out / "peers")
    our_names, peer_names = ["recursive", "any_state", "frame_stewart"], ["hanoi_python_solver", "k_peg_hanoi_4"]
    assert list(theirs.algorithms) == our_names + peer_names
    for peer, ours in (("hanoi_python_solver", "any_state"), ("k_peg_hanoi_4", "frame_stewart")):
        mine, their = theirs.algorithms[ours], theirs.algorithms[peer]
        assert their.status == mine.status == "ok" and their.origin == f"plugin {their.origin.split()[-1]}"
        assert common_ns(their, mine) == [run.n for run in mine.runs]  # the same sizes of the same work
        assert [run.moves for run in their.runs] == [run.moves for run in mine.runs]
    assert [r.n for r in theirs.algorithms["k_peg_hanoi_4"].runs] == [3, 5]  # 4 pegs: 5 and 13 moves
    text = (out / "peers.md").read_text()
    assert "4 (15)" in text and "5 (13)" in text  # head to head at the largest n of each pair
    assert (out / "peers.csv").read_text().splitlines()[1] == ",".join(COLUMNS)
    assert "- [Peers: other packages' solvers against ours](peers.md)" in (out / "README.md").read_text()
    marker = json.loads((out / ".hanoi-bench.json").read_text())
    assert marker["sets"] == ["peers"] and {"peers.md", "peers.csv"} <= set(marker["files"])
    assert run_cli(capsys, "bench", "recursive", "--sizes", "3", "--out", str(out))[0] == 0  # replaced whole
    assert not (out / "peers").exists() and not (out / "peers.md").exists()


def test_a_peer_that_cannot_load_is_left_out_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], two_peers: tuple[Peer, ...]
) -> None:
    monkeypatch.setitem(sys.modules, "k_peg_hanoi", None)  # what an import of a package not installed meets
    assert main(["--sizes", "3", "--out", str(tmp_path)]) == 0
    (line,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("peers:")]
    assert line.startswith(f"peers: {two_peers[1].spec} left out: k-peg-hanoi is not installed"), line
    assert "hanoi_python_solver" in (tmp_path / "peers.md").read_text()
    assert "k_peg_hanoi_4" not in load(tmp_path / "peers").algorithms


def test_with_no_peer_loaded_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], two_peers: tuple[Peer, ...]
) -> None:
    for module in ("k_peg_hanoi", "hanoi_python_solver", "hanoi_python_solver.hanoi"):
        monkeypatch.setitem(sys.modules, module, None)
    assert main(["--sizes", "3", "--out", str(tmp_path)]) == 2
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("peers:")]
    assert said[-1] == "peers: no peer could be loaded, so there is no peers/ set"
    assert list(tmp_path.iterdir()) == []


def test_a_peer_that_fails_its_check_fails_the_run_and_one_that_hangs_at_import_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A peer failing its check fails the run; one hanging at import is bounded.

    Peers that failed their check gave exit status 0 and no line.  A package hanging at import cost a minute
    for each peer it serves, one after the other.
    """
    monkeypatch.syspath_prepend(str(FIXTURES / "peers"))  # a k_peg_hanoi whose moves are wrong, a hanging hanoitoys
    for module in ("k_peg_hanoi", "hanoitoys"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    hanging = [peer for peer in PEERS if peer.spec.startswith("benchmarks.peers.toys:")][:2]
    monkeypatch.setattr(peers_module, "PEERS", (PEERS[1], *hanging))
    monkeypatch.setattr(_run, "find_valgrind", lambda: "valgrind is left out of this test")
    # The bound holds for every peer at once: long enough for the good one to load on a busy machine.
    assert main(["--sizes", "3", "--out", str(tmp_path), "--import-timeout", "4"]) == 1
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("peers:")]  # not progress
    assert said == [
        *(
            f"peers: {peer.spec} left out: plugin {peer.spec!r}: importing it took more than 4 s; it was stopped"
            for peer in hanging
        ),
        "peers: k_peg_hanoi_3 failed the check at n = 3: illegal at step 2: move 2 0 2: "
        "disk 2 cannot go onto the smaller disk 1 on peg 2 (tops 2, -, 1)",
    ]
    assert load(tmp_path / "peers").algorithms["k_peg_hanoi_3"].status == "failed"


@pytest.mark.slow
@pytest.mark.usefixtures("every_peer")
def test_every_peer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_run, "find_valgrind", lambda: "valgrind is left out of this test")
    assert main(["--sizes", "3,5", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "peers.md").read_text()
    assert all(f"| {record.name} " in text for _, record in PLUGINS), text
