"""Every algorithm of another puzzle, and the any-state solver, against breadth-first search.

Each sequence is replayed under its own puzzle's rules by the small simulator
in :mod:`tests.helpers`, which knows nothing of the package: it must be legal,
end on the goal, and be exactly as long as the shortest path the search finds.
The ids carry the algorithm's name, so ``pytest -k cyclic`` (or ``linear``,
``frame_stewart``, ``any_state``) selects one variant's checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.errors import UsageError
from hanoi_harness.optimal import distance
from hanoi_harness.registry import Algorithm, load_plugin
from tests.helpers import REGISTRY, VARIANTS, Config, bfs, replay, shortest, state_graph

ANY_STATE = REGISTRY.get("any_state")

TOP = {3: 6, 4: 8, 5: 6}
"""The largest n searched for each number of pegs: 3^6 = 729 and 4^8 = 65536 configurations."""


def rules(algorithm: Algorithm) -> tuple[int, str]:
    return algorithm.puzzle.pegs, algorithm.puzzle.rule


def tower_cases() -> list[tuple[Algorithm, int]]:
    return [(a, n) for a in VARIANTS for n in range(TOP[a.puzzle.pegs] + 1)]


def check_run(algorithm: Algorithm, moves: object, start: Config, goal: Config) -> int:
    """Replay *moves* under *algorithm*'s rules and assert they are a shortest path from *start* to *goal*."""
    pegs, rule = rules(algorithm)
    end, count = replay(moves, start, pegs, rule)  # type: ignore[arg-type]
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
    pegs = variant.puzzle.pegs
    for a in range(pegs):
        for b in range(pegs):
            start, goal = (a,) * n, (b,) * n
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


@pytest.mark.parametrize("n", range(6), ids=[f"any_state-{n}" for n in range(6)])
def test_any_state_every_start_and_goal_is_a_shortest_path(n: int) -> None:
    index, _ = state_graph(n)
    for start, goal in any_state_pairs(n):
        end, count = replay(ANY_STATE.moves_for(n, start, goal), start)
        assert end == goal and count == bfs(n, start)[index[goal]], (start, goal, count)


@pytest.mark.slow
def test_any_state_every_start_and_goal_of_6_disks_is_a_shortest_path() -> None:
    test_any_state_every_start_and_goal_is_a_shortest_path(6)


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


def test_frame_stewart_for_other_pegs_loads_as_a_plugin(tmp_path: Path) -> None:
    # The recipe of the module's docstring, for 6 pegs.
    plugin = tmp_path / "six.py"
    plugin.write_text("from hanoi_harness.algorithms.frame_stewart import for_pegs\nframe_stewart_6 = for_pegs(6)\n")
    record = load_plugin(f"{plugin}:frame_stewart_6")
    assert record.name == "frame_stewart_6" and record.puzzle.pegs == 6
    for n in range(1, 6):
        count = check_run(record, record.moves(n), (0,) * n, (5,) * n)
        optimum = record.puzzle.optimum(n, 5)
        assert optimum is not None and optimum.moves == count and optimum.status == "conjectured"
