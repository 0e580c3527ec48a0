"""The first step off every shortest solution, followed move by move or by arrays."""

from __future__ import annotations

import numpy as np
import pytest

from hanoi_harness.core.arrays import check_chunks
from hanoi_harness.core.astray import Prefix, followed
from hanoi_harness.core.checker import check
from hanoi_harness.core.randomaccess import move_at


def solution(n: int) -> list[tuple[int, int, int]]:
    return [move_at(n, k) for k in range(1, 2**n)]


@pytest.mark.parametrize("n", [1, 2, 5])
@pytest.mark.parametrize("swap", [False, True])
def test_both_shortest_solutions_are_followed_to_their_end(n: int, swap: bool) -> None:
    moves = [(d, (0, 2, 1)[s], (0, 2, 1)[t]) if swap else (d, s, t) for d, s, t in solution(n)]
    one, many = Prefix(n), Prefix(n)
    for move in moves:
        one(move)
    many.rows(np.array(moves))
    assert (one.length, one.astray) == (many.length, many.astray) == (2**n - 1, None)
    one((1, 0, 1))
    many.rows(np.array([(1, 0, 1)]))
    assert one.astray == many.astray == 2**n  # a move past the end leaves both


def test_the_first_wrong_move_is_the_step_astray_by_moves_and_by_arrays() -> None:
    moves = solution(4)
    moves[6:6] = [(1, 0, 2), (1, 2, 0)]  # step 7 puts disk 1 elsewhere, step 8 takes it back
    verdict = check(moves, 4, {1, 2}, follow=True)
    assert verdict.status == "not_optimal" and verdict.failure is not None and verdict.failure.astray == 7
    assert verdict.reason == "17 moves, optimal is 15; step 7 leaves every shortest solution"
    assert check_chunks([np.array(moves[:5]), np.array(moves[5:])], 4, {1, 2}, follow=True) == verdict
    assert check(moves, 4, {1, 2}).reason == "17 moves, optimal is 15"  # not asked: not followed


def test_a_run_stopped_at_the_cap_names_its_step_astray_too() -> None:
    moves = [(1, 0, 1), (1, 1, 0)] * 20
    assert "stopped; step 2 leaves every shortest solution" in check(moves, 1, {1, 2}, follow=True).reason
    assert "stopped; step 2 leaves" in check_chunks([np.array(moves)], 1, {1, 2}, follow=True).reason


def test_a_segment_says_its_step_astray_in_extra() -> None:
    verdict = check_chunks([np.array([(1, 0, 1), (1, 1, 2)])], 1, partial=True, follow=True)
    assert verdict.ok and verdict.extra["astray"] == 2


def test_what_is_no_triple_leaves_every_solution_and_the_rest_pass_through() -> None:
    prefix = Prefix(2)
    assert list(followed([(1, 0, 1), None, "x"], prefix)) == [(1, 0, 1), None, "x"]
    assert prefix.astray == 2


def test_an_empty_array_changes_nothing() -> None:
    prefix = Prefix(3)
    prefix.rows(np.empty((0, 3), dtype=np.int64))
    assert (prefix.length, prefix.astray) == (0, None)
