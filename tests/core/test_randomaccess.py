"""Random access against the replayed solution."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.core.randomaccess import MAX_N, NotOnPath, move_at, state_at, step_of, tower_at
from hanoi_harness.errors import UsageError
from tests.helpers import at_scale, reference


@pytest.mark.parametrize("n", range(1, 15))
def test_every_move_and_state_matches_the_replay(n: int) -> None:
    where = [0] * n
    assert state_at(n, 0) == where
    for k, move in enumerate(reference(n), 1):
        assert move_at(n, k) == move
        disk, _, dst = move
        where[disk - 1] = dst
        if k % 97 == 1 or n <= 8:  # every state for small n, a sample beyond
            assert state_at(n, k) == where
            assert step_of(where) == k


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(1, 200))
def test_state_and_step_are_inverse_for_large_n(data: st.DataObject, n: int) -> None:
    k = data.draw(st.integers(0, 2**n - 1))
    pegs = state_at(n, k)
    assert step_of(pegs) == k
    if k:
        disk, src, dst = move_at(n, k)
        before = state_at(n, k - 1)
        assert before[disk - 1] == src and pegs[disk - 1] == dst
        assert before[: disk - 1] == pegs[: disk - 1] and before[disk:] == pegs[disk:]
        # every smaller disk is on the third peg, so the move is legal
        assert all(p == 3 - src - dst for p in pegs[: disk - 1])


def test_tower_at_lists_pegs_bottom_first() -> None:
    assert tower_at(4, 0) == ([4, 3, 2, 1], [], [])
    assert tower_at(4, 15) == ([], [], [4, 3, 2, 1])


def test_sixty_four_disks() -> None:
    assert move_at(64, 2**63) == (64, 0, 2)
    assert state_at(64, 2**64 - 1) == [2] * 64
    assert step_of([2] * 64) == 2**64 - 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: move_at(3, 0), "between 1 and 2^3 - 1 = 7"),
        (lambda: move_at(3, 8), "between 1 and 2^3 - 1 = 7"),
        (lambda: state_at(3, -1), "between 0 and 2^3 - 1 = 7"),
        (lambda: step_of([0, 3]), "peg 3 is not 0, 1 or 2"),
    ],
)
def test_bad_input(call: Callable[[], object], message: str) -> None:
    with pytest.raises(UsageError, match=None) as info:
        call()
    assert message in str(info.value)


def test_configuration_off_the_path() -> None:
    with pytest.raises(NotOnPath):
        step_of([0, 1, 0])


@at_scale
def test_the_largest_tower_is_answered_in_linear_time() -> None:
    # 10^6 disks: one pass over the bits of K each (a quadratic walk would take minutes).
    n = MAX_N
    last = (1 << n) - 1
    assert move_at(n, last) == (1, 1 if n % 2 == 0 else 0, 2)
    assert move_at(n, 1 << (n - 1)) == (n, 0, 2)
    assert state_at(n, last) == [2] * n
    assert step_of([2] * n) == last


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: move_at(MAX_N + 1, 1), "n must be at most 1000000"),
        (lambda: state_at(10**200, 0), "got a number of about 201 digits (665 bits)"),
        (lambda: step_of([0] * (MAX_N + 1)), "n must be at most 1000000"),
        (lambda: move_at(300, 2**300), "and 2^300 - 1 for n = 300, got a number of about 91 digits (301 bits)"),
    ],
)
def test_sizes_past_the_bound_are_refused_in_one_short_line(call: Callable[[], object], message: str) -> None:
    with pytest.raises(UsageError) as info:
        call()
    assert message in str(info.value) and len(str(info.value)) < 300
