"""Test other puzzles' algorithms and the any-state solver against BFS.

Every algorithm of another puzzle, and the any-state solver, is checked against breadth-first search, and
the checker under each puzzle's rules.

Each sequence is replayed under its own puzzle's rules by the small simulator in :mod:`tests.helpers`,
which knows nothing of the package.  It must be legal, end on the goal, and be exactly as long as the
shortest path the search finds.  The checker must then agree with that simulator and that search on random
runs under every rule.  It must refuse each forbidden move with its reason, and judge every variant record
by its own puzzle through ``check_algorithm``.  The ids carry the algorithm's name (or the puzzle's:
``cyclic``, ``linear``, ``4_pegs``, ``5_pegs``), so ``pytest -k cyclic`` (or ``linear``,
``frame_stewart``, ``any_state``) selects one variant's checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_algorithms import cyclic, frame_stewart, linear
from hanoi_harness.core.checker import NO_OPTIMUM, check, check_algorithm
from hanoi_harness.core.digest import digest
from hanoi_harness.core.optimal import distance
from hanoi_harness.core.puzzle import CLASSIC, CYCLIC, LINEAR, Puzzle, k_pegs
from hanoi_harness.core.verdict import Failure, Verdict
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm, FinalPeg
from hanoi_harness.registry.sources import load_plugin
from tests.helpers import (
    REGISTRY,
    VARIANTS,
    Config,
    Move,
    allowed_pairs,
    at_scale,
    bfs,
    legal_prefixes,
    reference,
    replay,
    run_cli,
    shortest,
    state_graph,
    towers,
)

ANY_STATE = REGISTRY.get("any_state")

TOP = {3: 6, 4: 8, 5: 6}
"""The largest n searched for each number of pegs: 3^6 = 729 and 4^8 = 65536 configurations."""


def rules(algorithm: Algorithm) -> tuple[int, str]:
    return algorithm.puzzle.pegs, algorithm.puzzle.rule


def tower_cases() -> list[tuple[Algorithm, int]]:
    return [(a, n) for a in VARIANTS for n in range(TOP[a.puzzle.pegs] + 1)]


def check_run(algorithm: Algorithm, moves: Iterable[Move], start: Config, goal: Config) -> int:
    """Assert *moves* are a shortest legal path from *start* to *goal*.

    The moves are replayed under *algorithm*'s rules.
    """
    pegs, rule = rules(algorithm)
    end, count = replay(moves, start, pegs, rule)
    assert end == goal, f"{algorithm.name}: ended at {end}, not {goal}"
    assert count == shortest(start, goal, pegs, rule), f"{algorithm.name}: {count} moves from {start} to {goal}"
    return count


@pytest.mark.parametrize(("variant", "n"), tower_cases(), ids=[f"{a.name}-{n}" for a, n in tower_cases()])
def test_default_run_is_a_shortest_path(variant: Algorithm, n: int) -> None:
    (peg,) = variant.final_peg.pegs(n)
    count = check_run(variant, variant.moves(n), (0,) * n, (peg,) * n)
    optimum = variant.puzzle.optimum(n, peg)
    assert optimum is not None and optimum.moves == count


@pytest.mark.parametrize(("variant", "n"), tower_cases(), ids=[f"{a.name}-{n}" for a, n in tower_cases()])
def test_every_tower_to_every_tower_is_a_shortest_path(variant: Algorithm, n: int) -> None:
    for start, goal in towers(n, variant.puzzle.pegs):
        check_run(variant, variant.moves_for(n, start, goal), start, goal)


@pytest.mark.parametrize("variant", VARIANTS, ids=[a.name for a in VARIANTS])
def test_spread_configurations_are_refused_in_one_line(variant: Algorithm) -> None:
    with pytest.raises(UsageError, match="whole towers only") as caught:
        variant.moves_for(3, (0, 1, 0), (2, 2, 2))
    assert "\n" not in str(caught.value)
    with pytest.raises(UsageError, match="disk 2: peg 7 is not"):
        variant.moves_for(2, (0, 7), (2, 2))


def any_state_pairs(n: int) -> list[tuple[Config, Config]]:
    index, _ = state_graph(n)
    return [(start, goal) for start in index for goal in index]


@at_scale
@pytest.mark.parametrize("n", range(5), ids=[f"any_state-{n}" for n in range(5)])
def test_any_state_every_start_and_goal_is_a_shortest_path(n: int) -> None:
    index, _ = state_graph(n)
    for start, goal in any_state_pairs(n):
        end, count = replay(ANY_STATE.moves_for(n, start, goal), start)
        assert end == goal and count == bfs(n, start)[index[goal]], (start, goal, count)


@pytest.mark.slow
@pytest.mark.parametrize("n", [5, 6])
def test_any_state_every_start_and_goal_of_more_disks_is_a_shortest_path(n: int) -> None:
    test_any_state_every_start_and_goal_is_a_shortest_path(n)


@at_scale
def test_any_state_6_disks_every_configuration_to_and_from_every_tower() -> None:
    # The quick share of n = 6 (every pair is the slow test above): 729 configurations x 3 towers, both ways.
    index, _ = state_graph(6)
    for peg in range(3):
        whole = (peg,) * 6
        from_tower = bfs(6, whole)
        for config, i in index.items():
            for start, goal in ((config, whole), (whole, config)):
                end, count = replay(ANY_STATE.moves_for(6, start, goal), start)
                assert end == goal and count == from_tower[i], (start, goal)


configurations = st.integers(0, 10).flatmap(
    lambda n: st.tuples(st.just(n), *[st.lists(st.integers(0, 2), min_size=n, max_size=n).map(tuple)] * 2)
)


@settings(max_examples=150, deadline=None)
@given(configurations)
def test_any_state_count_is_the_distance(case: tuple[int, Config, Config]) -> None:
    n, start, goal = case
    end, count = replay(ANY_STATE.moves_for(n, start, goal), start)
    assert end == goal and count == distance(start, goal)


def test_any_state_refuses_configurations_of_the_wrong_size() -> None:
    with pytest.raises(UsageError, match="not n = 3"):
        ANY_STATE.moves_for(3, (0, 1), (2, 2))
    with pytest.raises(UsageError, match="has 2 disks and the goal 3"):
        ANY_STATE.moves_for(2, (0, 1), (2, 2, 2))
    with pytest.raises(UsageError, match="recursive starts only from the whole tower on peg 0"):
        REGISTRY.get("recursive").moves_for(2, (0, 1), (2, 2))


def mean_chain(moves: Iterator[Any]) -> float:
    """Return the mean number of generators a move of *moves* passes through.

    They are counted on the move's way out of the generator *moves*.
    """
    total = count = 0
    for _ in moves:
        link: Any = moves
        while link is not None:
            total, link = total + 1, link.gi_yieldfrom
        count += 1
    return total / count


def test_frame_stewart_hands_each_move_up_a_chain_of_about_1_5_sqrt_n_generators() -> None:
    # The documented figures behind its time class: far under the n deep the chain may be.
    assert round(mean_chain(frame_stewart.transfer(8, 4, 0, 3)), 2) == 5.18
    assert round(mean_chain(frame_stewart.transfer(94, 5, 0, 4)), 1) == 9.8
    assert round(mean_chain(frame_stewart.transfer(30, 4, 0, 3)), 2) == 8.68


def test_frame_stewart_for_other_pegs_loads_as_a_plugin(tmp_path: Path) -> None:
    # The recipe of docs/guide/algorithms.md, for 6 pegs.
    plugin = tmp_path / "six.py"
    plugin.write_text("from hanoi_algorithms.frame_stewart import for_pegs\nframe_stewart_6 = for_pegs(6)\n")
    record = load_plugin(f"{plugin}:frame_stewart_6")
    assert record.name == "frame_stewart_6" and record.puzzle.pegs == 6
    for n in range(1, 6):
        count = check_run(record, record.moves(n), (0,) * n, (5,) * n)
        optimum = record.puzzle.optimum(n, 5)
        assert optimum is not None and optimum.moves == count and optimum.status == "conjectured"


# -- the checker under each puzzle's rules ---------------------------------------------------------

PUZZLES = {"cyclic": CYCLIC, "linear": LINEAR, "4_pegs": k_pegs(4), "5_pegs": k_pegs(5)}
"""The puzzles other than the classic one, by test id."""

TARGET = {"cyclic": 1, "linear": 2, "4_pegs": 3, "5_pegs": 4}
"""The peg each puzzle's tower goes to in its registered algorithm."""

RULE_TEXT = {
    "cyclic": "the cyclic rule allows only 0->1, 1->2, 2->0, not {s}->{t}",
    "linear": "the linear rule allows only moves between adjacent pegs (0-1, 1-2), not {s}->{t}",
}


def one_move_cases() -> list[tuple[str, int, int]]:
    """Every (puzzle, source, destination), one past the last peg included."""
    return [(key, s, t) for key, puzzle in PUZZLES.items() for s in range(puzzle.pegs) for t in range(puzzle.pegs + 1)]


@pytest.mark.parametrize(("key", "s", "t"), one_move_cases(), ids=[f"{k}-{s}->{t}" for k, s, t in one_move_cases()])
def test_the_checker_refuses_each_move_the_rules_forbid_with_its_reason(key: str, s: int, t: int) -> None:
    puzzle = PUZZLES[key]
    verdict = check([(1, s, t)], 1, {t if t < puzzle.pegs else 0}, puzzle=Puzzle(puzzle.pegs, puzzle.rule, start=(s,)))
    names = ", ".join(map(str, range(puzzle.pegs - 1))) + f" or {puzzle.pegs - 1}"
    if t == puzzle.pegs:
        assert verdict.failure == Failure("bad_peg", 1, s, t, side="destination", pegs=puzzle.pegs)
        assert verdict.reason == f"destination peg {t} is not {names}"
    elif s == t:
        assert verdict.failure == Failure("same_peg", 1, s, t)
    elif (s, t) not in allowed_pairs(puzzle.pegs, puzzle.rule):
        assert verdict.failure == Failure("forbidden_move", 1, s, t, variant=puzzle.rule)
        assert verdict.reason == RULE_TEXT[key].format(s=s, t=t)
    else:
        assert verdict.ok and verdict.moves == 1, verdict.describe()
    assert verdict.status == ("ok" if verdict.failure is None else "illegal")


def judge(moves: list[tuple[int, int, int]], n: int, key: str) -> tuple[str, int | None]:
    """Return the status and first illegal step of *moves*, judged apart.

    A simulator of its own and breadth-first search judge them.
    """
    puzzle, target = PUZZLES[key], TARGET[key]
    allowed = allowed_pairs(puzzle.pegs, puzzle.rule)
    where = [0] * n  # where[d - 1]: the peg of disk d
    for step, (d, s, t) in enumerate(moves, 1):
        if not 1 <= d <= n or (s, t) not in allowed or where[d - 1] != s or {s, t} & set(where[: d - 1]):
            return "illegal", step
        where[d - 1] = t
    if set(where) != {target}:
        return "incomplete", None
    best = shortest((0,) * n, (target,) * n, puzzle.pegs, puzzle.rule)
    return ("ok" if len(moves) == best else "not_optimal"), None


@st.composite
def wandering_runs(draw: st.DrawFn) -> tuple[str, int, list[tuple[int, int, int]]]:
    """Draw a puzzle and a random run legal by its rules, then a random tail.

    The run takes any allowed move at each step.
    """
    key = draw(st.sampled_from(sorted(PUZZLES)))
    puzzle = PUZZLES[key]
    n, moves = draw(legal_prefixes(max_n=3, max_len=40, pegs=puzzle.pegs, rule=puzzle.rule))
    return key, n, moves


@at_scale
@settings(max_examples=400, deadline=None)
@given(wandering_runs())
def test_the_checker_agrees_with_search_under_every_rule(case: tuple[str, int, list[tuple[int, int, int]]]) -> None:
    key, n, moves = case
    verdict = check(moves, n, {TARGET[key]}, puzzle=PUZZLES[key], max_moves=10**6)
    assert (verdict.status, verdict.step) == judge(moves, n, key), verdict.describe()


def test_each_optimum_run_reaches_its_goal_by_the_shortest_path_the_search_finds() -> None:
    # A hand-made shortest run per puzzle, so the check above also sees "ok" (random runs rarely are).
    runs = {
        "cyclic": [(1, 0, 1), (1, 1, 2), (2, 0, 1), (1, 2, 0), (1, 0, 1)],
        "linear": [(1, 0, 1), (1, 1, 2)],
        "4_pegs": [(1, 0, 1), (2, 0, 2), (3, 0, 3), (2, 2, 3), (1, 1, 3)],
        "5_pegs": [(1, 0, 1), (2, 0, 2), (3, 0, 4), (2, 2, 4), (1, 1, 4)],
    }
    for key, moves in runs.items():
        n = max(d for d, _, _ in moves)
        assert judge(moves, n, key) == ("ok", None)
        assert check(moves, n, {TARGET[key]}, puzzle=PUZZLES[key]).ok


@pytest.mark.parametrize(
    ("key", "moves", "text"),
    [
        ("linear", [(1, 0, 1), (1, 1, 2)], "ok (2 moves, tower on peg 2; optimal (proven))"),
        ("4_pegs", [(1, 0, 1), (2, 0, 3), (1, 1, 3)], "ok (3 moves, tower on peg 3; optimal (proven))"),
        (
            "5_pegs",
            [(1, 0, 1), (2, 0, 4), (1, 1, 4)],
            "ok (3 moves, tower on peg 4; matches the Frame-Stewart count (conjectured optimal for k >= 5))",
        ),
        (
            "5_pegs",
            [(1, 0, 4), (2, 0, 1), (1, 4, 1), (3, 0, 4), (1, 1, 0), (2, 1, 4), (1, 0, 4)],
            "legal but not optimal: 7 moves, the Frame-Stewart count is 5, conjectured optimal for k >= 5",
        ),
        (
            "4_pegs",
            [(1, 0, 3), (2, 0, 1), (1, 3, 1), (3, 0, 3), (1, 1, 0), (2, 1, 3), (1, 0, 3)],
            "legal but not optimal: 7 moves, optimal is 5",
        ),
        (
            "cyclic",
            [(1, 0, 1), (1, 1, 2), (1, 2, 0)] * 10,
            "legal but not optimal: still moving after 24 moves (optimal is 1); stopped",
        ),
    ],
    ids=["linear", "4_pegs", "5_pegs", "5_pegs-classic", "4_pegs-classic", "cyclic-forever"],
)
def test_variant_verdicts_say_what_the_count_was_judged_against(key: str, moves: list[Move], text: str) -> None:
    n = max(d for d, _, _ in moves)
    verdict = check(moves, n, {TARGET[key]}, puzzle=PUZZLES[key])
    assert verdict.describe() == text
    assert Verdict.from_dict(json.loads(json.dumps(verdict.to_dict()))) == verdict


def test_classic_verdicts_say_nothing_of_optimality_and_keep_their_mapping() -> None:
    verdict = check([(1, 0, 1), (2, 0, 2), (1, 1, 2)], 2)
    assert verdict.describe() == "ok (3 moves, tower on peg 2)" and verdict.optimality == ""
    assert "optimality" not in verdict.to_dict()


def test_a_goal_configuration_is_judged_exactly() -> None:
    puzzle = CLASSIC.between((0, 0, 1), (1, 1, 0))
    moves = list(ANY_STATE.moves_for(3, (0, 0, 1), (1, 1, 0)))
    assert check(moves, 3, puzzle=puzzle).describe() == "ok (5 moves, at the goal; optimal (proven))"
    short = check(moves[:-1], 3, puzzle=puzzle)
    assert short.failure == Failure("not_at_goal", count=4, config=(1, 1, 2), goal=(1, 1, 0))
    # The goal's own tower peg is reported when it is a tower; no optimum is known on k pegs from spread disks.
    spread = Puzzle(pegs=4, start=(1, 0), goal=(3, 3))
    verdict = check([(1, 1, 2), (2, 0, 3), (1, 2, 3)], 2, puzzle=spread)
    assert verdict.ok and verdict.final_peg == 3 and verdict.optimality == NO_OPTIMUM


def test_a_peg_past_the_last_is_refused_for_k_pegs_and_allowed_below() -> None:
    run = [(1, 0, 3), (2, 0, 1), (1, 3, 1)]
    assert check(run, 2, {1}, puzzle=k_pegs(4)).ok
    verdict = check(run, 2, {1})
    assert verdict.failure == Failure("bad_peg", 1, 0, 3, side="destination", pegs=3)


# -- check_algorithm: each record by its own puzzle ------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=[a.name for a in VARIANTS])
def test_check_algorithm_judges_a_variant_by_its_rules_and_says_how(variant: Algorithm) -> None:
    n = 6
    (peg,) = variant.final_peg.pegs(n)
    verdict = check_algorithm(variant, n)
    optimum = variant.puzzle.optimum(n, peg)
    assert optimum is not None
    assert verdict.ok and verdict.moves == optimum.moves, verdict.describe()
    assert verdict.optimality == optimum.describe() and optimum.describe() in verdict.describe()
    assert verdict.digest == digest(variant.moves(n), pegs=variant.puzzle.pegs)[1]


@pytest.mark.parametrize("variant", VARIANTS, ids=[a.name for a in VARIANTS])
def test_the_digest_of_k_pegs_is_the_documented_formula(variant: Algorithm) -> None:
    k, moves = variant.puzzle.pegs, list(variant.moves(5))
    documented = sum(i * (k * k * d + k * s + t) for i, (d, s, t) in enumerate(moves, 1)) % 2**64
    assert check_algorithm(variant, 5).digest == documented


@pytest.mark.parametrize("variant", VARIANTS, ids=[a.name for a in VARIANTS])
def test_hanoi_moves_digest_is_the_formula_its_help_gives(
    variant: Algorithm, capsys: pytest.CaptureFixture[str]
) -> None:
    k = variant.puzzle.pegs
    code, printed, _ = run_cli(capsys, "moves", variant.name, "5")
    moves = [tuple(int(word) for word in line.split()) for line in printed.splitlines()]
    code_digest, out, _ = run_cli(capsys, "moves", variant.name, "5", "--digest")
    documented = sum(i * (k * k * d + k * s + t) for i, (d, s, t) in enumerate(moves, 1)) % 2**64
    assert (code, code_digest, out) == (0, 0, f"{len(moves)} {documented}\n")
    _, help_text, _ = run_cli(capsys, "moves", "--help")
    assert "k*(P^2*disk+P*src+dst)" in "".join(help_text.split()) and "P the number of pegs" in " ".join(
        help_text.split()
    )


@pytest.mark.parametrize("variant", VARIANTS, ids=[a.name for a in VARIANTS])
def test_check_algorithm_between_towers(variant: Algorithm) -> None:
    last = variant.puzzle.pegs - 1
    verdict = check_algorithm(variant, 4, start=(last,) * 4, goal=(0,) * 4)
    assert verdict.ok and verdict.moves == shortest((last,) * 4, (0,) * 4, variant.puzzle.pegs, variant.puzzle.rule)
    with pytest.raises(UsageError, match="whole towers only"):
        check_algorithm(variant, 3, start=(0, 1, 0))


def test_check_algorithm_between_any_configurations() -> None:
    verdict = check_algorithm(ANY_STATE, 3, start=(0, 0, 1), goal=(1, 1, 0))
    assert verdict.describe() == "ok (5 moves, at the goal; optimal (proven))"
    assert check_algorithm(ANY_STATE, 3, goal=(1, 1, 0)).moves == distance((0, 0, 0), (1, 1, 0))
    with pytest.raises(UsageError, match="disk 2: peg 3 is not 0, 1 or 2"):
        check_algorithm(ANY_STATE, 2, start=(0, 3))


def test_check_algorithm_needs_the_goal_of_a_record_that_may_end_on_two_pegs() -> None:
    record = Algorithm(name="either", solve=lambda n: iter(()), summary="s", final_peg=FinalPeg.anywhere())
    record = replace(record, solve_for=lambda n, start, goal: ANY_STATE.moves_for(n, start, goal), configurations="any")
    with pytest.raises(UsageError, match="may end on peg 1 or 2: give the goal"):
        check_algorithm(record, 2, start=(1, 0))
    assert check_algorithm(record, 2, start=(1, 0), goal=(2, 2)).ok


@pytest.mark.parametrize(
    ("puzzle", "step", "failure"),
    [
        (CYCLIC, 2, Failure("forbidden_move", 2, 0, 2, variant="cyclic")),
        (LINEAR, 2, Failure("forbidden_move", 2, 0, 2, variant="linear")),
    ],
    ids=["cyclic", "linear"],
)
def test_a_record_breaking_its_puzzles_rule_is_illegal_at_that_move(
    puzzle: Puzzle, step: int, failure: Failure
) -> None:
    record = Algorithm(name="classic_moves", solve=reference, summary="s", puzzle=puzzle)  # moves 0 -> 2 too
    verdict = check_algorithm(record, 2)
    assert (verdict.status, verdict.step, verdict.failure) == ("illegal", step, failure)


@pytest.mark.parametrize("variant", VARIANTS, ids=[a.name for a in VARIANTS])
def test_hanoi_moves_prints_the_checkers_digest(variant: Algorithm, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "moves", variant.name, "6", "--digest")
    verdict = check_algorithm(variant, 6)
    assert code == 0 and out == f"{verdict.moves} {verdict.digest}\n"


# -- the block versions: the same moves as the recursions, in arrays -------------------------------


def flat(chunks: Iterable[Any]) -> list[Move]:
    return [tuple(row) for chunk in chunks for row in chunk.tolist()]


@pytest.mark.parametrize(("steps", "a"), [(steps, a) for steps in (1, 2) for a in range(3)])
def test_cyclic_blocks_are_the_recursions_moves(steps: int, a: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Blocks of 3 disks: several levels of the recursion above them, as cheap as the real ones are not.
    monkeypatch.setattr(cyclic, "BASE", 3)
    for n in range(9):
        recursion = cyclic.one_step(n, a) if steps == 1 else cyclic.two_steps(n, a)
        assert flat(cyclic.chunks(n, a, steps)) == list(recursion), n


@pytest.mark.parametrize(("src", "dst"), [(s, t) for s in range(3) for t in range(3)])
def test_linear_blocks_are_the_recursions_moves(src: int, dst: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(linear, "BASE", 3)
    for n in range(8):
        assert flat(linear.chunks(n, src, dst)) == list(linear.transfer(n, src, dst)), n


@at_scale
def test_the_real_blocks_are_the_recursions_moves_one_level_up() -> None:
    assert flat(cyclic.chunks(cyclic.BASE + 1, 0, 1)) == list(cyclic.one_step(cyclic.BASE + 1, 0))
    assert flat(linear.chunks(linear.BASE + 1, 0, 1)) == list(linear.transfer(linear.BASE + 1, 0, 1))


@pytest.mark.parametrize("name", ["cyclic_blocks", "linear_blocks"])
def test_blocks_are_shared_and_read_only(name: str) -> None:
    record = REGISTRY.get(name)
    n = (cyclic.BASE if name == "cyclic_blocks" else linear.BASE) + 2
    arrays = [chunk for chunk in record.solve(n) if len(chunk) > 1]
    assert len({id(chunk) for chunk in arrays}) < len(arrays)  # the same block comes back
    assert all(not chunk.flags.writeable for chunk in arrays)
