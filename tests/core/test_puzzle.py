"""Test the puzzle records and their optimal counts.

Each count is checked against breadth-first search.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hanoi_harness.core.optimal import (
    cyclic_counts,
    distance,
    frame_stewart,
    frame_stewart_status,
    largest_disk_costs,
    linear_count,
    tower_distance,
)
from hanoi_harness.core.puzzle import CLASSIC, CYCLIC, LINEAR, Puzzle, format_config, k_pegs, parse_config
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm, FinalPeg
from tests.helpers import ALGORITHMS, allowed_moves, at_scale, bfs, shortest, state_graph, towers

# -- configurations ------------------------------------------------------------------------------


@pytest.mark.parametrize("config", [(), (0,), (2, 0, 1, 1), (3, 3, 0)])
def test_configurations_print_and_parse_back(config: tuple[int, ...]) -> None:
    assert parse_config(format_config(config), pegs=4, n=len(config)) == config


@pytest.mark.parametrize(
    ("text", "pegs", "n", "fragment"),
    [
        ("0,1", 3, 3, "expected 3 pegs (one per disk, disk 1 first, comma-separated), got 2"),
        ("0,1,2,0", 3, 3, "expected 3 pegs"),
        ("0,3,1", 3, None, "disk 2: peg '3' is not 0, 1 or 2"),
        ("0,4", 4, None, "disk 2: peg '4' is not 0, 1, 2 or 3"),
        ("0,-1", 3, None, "disk 2: peg '-1' is not 0, 1 or 2"),
        ("0,,1", 3, None, "disk 2: peg '' is not 0, 1 or 2"),
        ("1,x", 3, 2, "disk 2: peg 'x' is not 0, 1 or 2"),
        ("1,١", 3, 2, "is not 0, 1 or 2"),  # a digit, but not an ASCII one
    ],
)
def test_bad_configurations_are_one_line(text: str, pegs: int, n: int | None, fragment: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_config(text, pegs=pegs, n=n)
    message = str(caught.value)
    assert "\n" not in message and fragment in message and repr(text) in message


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"pegs": 2}, "at least 3 pegs"),
        ({"pegs": True}, "at least 3 pegs"),
        ({"rule": "diagonal"}, "unknown rule 'diagonal'"),
        ({"rule": "cyclic", "pegs": 4}, "cyclic rule is defined for 3 pegs"),
        ({"start": (0, 3)}, "start configuration: disk 2: peg 3 is not 0, 1 or 2"),
        ({"goal": (0, "1")}, "goal configuration: disk 2: peg '1' is not 0, 1 or 2"),
        ({"start": (0, 0), "goal": (1,)}, "has 2 disks and the goal 1"),
    ],
)
def test_bad_puzzles_are_refused_in_one_line(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(UsageError, match=fragment.replace("(", r"\(")):
        Puzzle(**fields)


def test_puzzle_start_and_goal_default_to_whole_towers() -> None:
    assert CLASSIC.start_config(3) == (0, 0, 0) and CLASSIC.goal_config(3, 2) == (2, 2, 2)
    fixed = CLASSIC.between((0, 1), (2, 2))
    assert fixed.start_config(2) == (0, 1) and fixed.goal_config(2, 1) == (2, 2)
    with pytest.raises(UsageError, match="the start configuration has 2 disks, not n = 3"):
        fixed.start_config(3)
    assert str(fixed) == "3 pegs, every move, from 0,1 to 2,2"


# -- rules ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("puzzle", "pegs", "rule"),
    [(CLASSIC, 3, "any"), (CYCLIC, 3, "cyclic"), (LINEAR, 3, "linear"), (k_pegs(5), 5, "any")],
    ids=["classic", "cyclic", "linear", "frame_stewart_5"],
)
def test_allowed_moves_follow_the_rule(puzzle: Puzzle, pegs: int, rule: str) -> None:
    assert puzzle.allowed == set(allowed_moves(pegs, rule))
    for s, t in itertools.product(range(-1, pegs + 1), repeat=2):
        reason = puzzle.move_error(s, t)
        assert (reason is None) == ((s, t) in puzzle.allowed), (s, t, reason)


def test_rule_breaking_moves_say_why() -> None:
    assert CYCLIC.move_error(0, 2) == "the cyclic rule allows only 0->1, 1->2, 2->0, not 0->2"
    assert LINEAR.move_error(2, 0) == "the linear rule allows only moves between adjacent pegs (0-1, 1-2), not 2->0"
    assert k_pegs(4).move_error(4, 0) == "source peg 4 is not 0, 1, 2 or 3"
    assert CLASSIC.move_error(1, 1) == "source and destination are both peg 1"


# -- optimal counts ------------------------------------------------------------------------------


@at_scale
@pytest.mark.parametrize("n", range(5))
def test_three_peg_distance_is_the_bfs_distance_for_every_pair(n: int) -> None:
    index, _ = state_graph(n)
    for start in index:
        dist = bfs(n, start)
        for goal, i in index.items():
            optimum = CLASSIC.distance(start, goal)
            assert optimum is not None and optimum.moves == distance(start, goal) == dist[i], (start, goal)


@pytest.mark.slow
@pytest.mark.parametrize("n", [5, 6])
def test_three_peg_distance_is_the_bfs_distance_for_every_pair_of_more_disks(n: int) -> None:
    test_three_peg_distance_is_the_bfs_distance_for_every_pair(n)


def test_tower_distance_is_the_bfs_distance_to_each_tower() -> None:
    index, _ = state_graph(6)
    for peg in range(3):
        dist = bfs(6, (peg,) * 6)
        for config, i in index.items():
            assert tower_distance(config, peg) == dist[i]


pair_of_configurations = st.integers(0, 300).flatmap(
    lambda n: st.tuples(*[st.lists(st.integers(0, 2), min_size=n, max_size=n).map(tuple)] * 2)
)


@at_scale
@given(pair_of_configurations)
def test_three_peg_distance_is_symmetric_and_within_the_diameter(pair: tuple[tuple[int, ...], ...]) -> None:
    # Sizes far past any search: the distance is a metric bounded by 2^n - 1 (the graph's diameter),
    # and to a whole tower it is the tower distance.
    start, goal = pair
    n = len(start)
    assert distance(start, goal) == distance(goal, start) <= (1 << n) - 1
    assert (distance(start, goal) == 0) == (start == goal)
    for peg in range(3):
        assert distance(start, (peg,) * n) == tower_distance(start, peg)
        assert distance(start, goal) <= tower_distance(start, peg) + tower_distance(goal, peg)


@at_scale
def test_largest_disk_moves_once_or_twice_and_both_cases_occur() -> None:
    # Both sums are upper bounds (real sequences), and where the two-move one is shorter it is the distance.
    index, _ = state_graph(5)
    cases = {"once": 0, "twice": 0}
    for start in index:
        dist = bfs(5, start)
        for goal, i in index.items():
            m, once, twice = largest_disk_costs(start, goal)
            assert dist[i] == min(once, twice) and (m == 0) == (start == goal)
            if twice < once:
                cases["twice"] += 1
            elif m:
                cases["once"] += 1
    assert cases["twice"] > 0 and cases["once"] > cases["twice"]


def test_cyclic_counts_are_the_published_sequences_and_the_bfs_distances() -> None:
    counts = [cyclic_counts(n) for n in range(1, 8)]
    assert [q for q, _ in counts] == [1, 5, 15, 43, 119, 327, 895]
    assert [r for _, r in counts] == [2, 7, 21, 59, 163, 447, 1223]
    for n in range(7):
        for start, goal in towers(n, 3):
            optimum = CYCLIC.distance(start, goal)
            assert optimum is not None and optimum.status == "proven"
            assert optimum.moves == shortest(start, goal, rule="cyclic"), (start, goal)


def test_linear_counts_are_3_to_the_n_minus_1_and_the_bfs_distances() -> None:
    assert [linear_count(n, 0, 2) for n in range(1, 6)] == [3**n - 1 for n in range(1, 6)] == [2, 8, 26, 80, 242]
    for n in range(7):
        for start, goal in towers(n, 3):
            optimum = LINEAR.distance(start, goal)
            assert optimum is not None and optimum.status == "proven"
            assert optimum.moves == shortest(start, goal, rule="linear"), (start, goal)


@cache
def frame_stewart_by_definition(n: int, k: int) -> int:
    """Return FS(n, k) from its definition, by the best split t.

    FS(n, k) is the least 2 FS(t, k) + FS(n - t, k - 1) over t, and FS(n, 3) = 2^n - 1.
    """
    if k == 3 or n <= 1:
        return (1 << n) - 1
    return min(2 * frame_stewart_by_definition(t, k) + frame_stewart_by_definition(n - t, k - 1) for t in range(1, n))


def test_frame_stewart_counts_follow_the_definition() -> None:
    assert [frame_stewart(n, 4) for n in range(1, 9)] == [1, 3, 5, 9, 13, 17, 25, 33]
    for k in range(3, 9):
        assert [frame_stewart(n, k) for n in range(60)] == [frame_stewart_by_definition(n, k) for n in range(60)], k


@at_scale
@pytest.mark.parametrize(("pegs", "top"), [(4, 8), (5, 6), (6, 5)])
def test_frame_stewart_counts_are_the_bfs_distances(pegs: int, top: int) -> None:
    # Proven for 4 pegs (Bousch); for 5 and 6 the search confirms the conjecture at these sizes.
    for n in range(1, top + 1):
        optimum = k_pegs(pegs).optimum(n, pegs - 1)
        assert optimum is not None and optimum.moves == shortest((0,) * n, (pegs - 1,) * n, pegs)
        assert optimum.status == frame_stewart_status(pegs)


def test_frame_stewart_status_is_proven_up_to_4_pegs_and_conjectured_beyond() -> None:
    assert [frame_stewart_status(k) for k in (3, 4, 5, 9)] == ["proven", "proven", "conjectured", "conjectured"]
    four = k_pegs(4).optimum(30, 3)
    assert four is not None and four.describe() == "optimal (proven)"
    five = k_pegs(5).optimum(30, 4)
    assert five is not None and five.moves == frame_stewart(30, 5)
    assert five.describe() == "matches the Frame-Stewart count (conjectured optimal for k >= 5)"


def test_unknown_optima_are_none_not_guessed() -> None:
    assert CYCLIC.distance((0, 1), (1, 1)) is None  # the cyclic variant from a spread configuration
    assert k_pegs(4).distance((0, 3, 3), (1, 1, 1)) is None
    assert CYCLIC.distance((2, 0), (2, 0)) is not None  # nothing to do is always known


# -- records -------------------------------------------------------------------------------------


def test_records_solve_the_classic_puzzle_unless_they_say_otherwise() -> None:
    record = Algorithm(name="mine", solve=lambda n: iter(()), summary="s")
    assert record.puzzle == CLASSIC and record.solve_for is None
    others = {a.name: a.puzzle for a in ALGORITHMS if a.puzzle != CLASSIC}
    assert others == {
        "cyclic": CYCLIC,
        "cyclic_blocks": CYCLIC,
        "linear": LINEAR,
        "linear_blocks": LINEAR,
        "frame_stewart": k_pegs(4),
        "frame_stewart_5": k_pegs(5),
    }


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"puzzle": "cyclic"}, "puzzle must be a hanoi_harness.core.puzzle.Puzzle"),
        ({"puzzle": CLASSIC.between((0,), (2,))}, "starts from the tower on peg 0"),
        ({"puzzle": k_pegs(4), "final_peg": FinalPeg.fixed(4)}, "final peg 4 is not a peg of 4 pegs"),
        ({"final_peg": FinalPeg.fixed(3)}, "final peg 3 is not a peg of 3 pegs"),
        ({"puzzle": k_pegs(4), "pegs": ("a", "b", "c")}, "4 pegs keep the model's labels 0-3"),
        ({"puzzle": CYCLIC, "solve_from": lambda n, k: iter(())}, "for the classic puzzle only"),
        ({"puzzle": k_pegs(4), "chunks": True}, "chunks are for puzzles of three pegs only"),
    ],
)
def test_records_refuse_a_puzzle_they_contradict(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(UsageError, match=fragment):
        Algorithm(name="mine", solve=lambda n: iter(()), summary="s", **fields)
