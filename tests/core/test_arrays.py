"""Test the vectorised chunk checker and digest against the scalar ones.

Both must give the same verdict, step, reason, tops and digest.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.core import arrays as chunkcheck
from hanoi_harness.core.arrays import check_chunks
from hanoi_harness.core.checker import check, move_cap
from hanoi_harness.core.digest import chunk_digest, digest, digest_chunks
from hanoi_harness.core.puzzle import CYCLIC, LINEAR
from hanoi_harness.core.randomaccess import move_at, tower_at
from hanoi_harness.core.verdict import Failure
from tests.helpers import REGISTRY, legal_prefixes, reference

Moves = list[tuple[int, int, int]]


def split(moves: Moves, cuts: list[int], dtype: Any) -> list[Any]:
    """Return the moves as arrays of ``dtype``, cut at the given positions.

    Empty chunks are included.
    """
    bounds = [0, *sorted(c % (len(moves) + 1) for c in cuts), len(moves)]
    return [np.array(moves[a:b], dtype=dtype).reshape(-1, 3) for a, b in itertools.pairwise(bounds)]


def mutate(draw: st.DrawFn, moves: Moves, n: int, high: int = 3) -> Moves:
    """Draw one single-move mutation of a legal run.

    A changed disk, source or destination, two moves swapped, one dropped or added.
    """
    moves = list(moves)
    kind = draw(st.sampled_from(("disk", "src", "dst", "swap", "drop", "add")))
    i = draw(st.integers(0, len(moves) - 1))
    d, s, t = moves[i]
    if kind == "disk":
        moves[i] = (draw(st.integers(0, n + 1).filter(lambda x: x != d)), s, t)
    elif kind == "src":
        moves[i] = (d, draw(st.integers(-1, high).filter(lambda x: x != s)), t)
    elif kind == "dst":
        moves[i] = (d, s, draw(st.integers(-1, high).filter(lambda x: x != t)))
    elif kind == "swap":
        j = draw(st.integers(0, len(moves) - 1))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "drop":
        del moves[i]
    else:
        extra = draw(st.tuples(st.integers(0, n + 1), st.integers(-1, high), st.integers(-1, high)))
        moves.insert(draw(st.integers(0, len(moves))), extra)
    return moves


@st.composite
def corrupted(draw: st.DrawFn) -> tuple[int, Moves, list[Any]]:
    n = draw(st.integers(1, 7))
    moves = list(reference(n))
    if draw(st.booleans()):
        moves = mutate(draw, moves, n)
    cuts = draw(st.lists(st.integers(0, 200), max_size=6))
    dtype = draw(st.sampled_from((np.int64, np.int16, np.int32)))
    return n, moves, split(moves, cuts, dtype)


@settings(max_examples=200, deadline=None)
@given(case=corrupted())
def test_same_verdict_as_the_scalar_checker_on_corrupted_solutions(case: tuple[int, Moves, list[Any]]) -> None:
    n, moves, chunks = case
    assert check_chunks(chunks, n) == check(moves, n)


@st.composite
def wandering(draw: st.DrawFn) -> tuple[int, Moves, list[Any]]:
    """Draw random legal sequences, then a random tail.

    They are not optimal: any legal move at each step.
    """
    n, moves = draw(legal_prefixes(max_n=6, max_len=80))
    cuts = draw(st.lists(st.integers(0, 100), max_size=5))
    return n, moves, split(moves, cuts, np.uint8)


@settings(max_examples=150, deadline=None)
@given(case=wandering())
def test_same_verdict_on_legal_wandering_sequences(case: tuple[int, Moves, list[Any]]) -> None:
    n, moves, chunks = case
    targets = frozenset({1, 2})
    assert check_chunks(chunks, n, targets, max_moves=10**6) == check(moves, n, targets, max_moves=10**6)
    followed = check_chunks(chunks, n, targets, max_moves=10**6, follow=True)
    assert followed == check(moves, n, targets, max_moves=10**6, follow=True)


RULED = {"cyclic": (CYCLIC, 1), "linear": (LINEAR, 2)}
"""The three-peg puzzles whose rule forbids some moves, and the peg their tower goes to."""


@st.composite
def wandering_by_rule(draw: st.DrawFn) -> tuple[str, int, Moves, list[Any]]:
    """Draw a rule, random sequences legal by it, a random tail, and cuts.

    The sequences take any allowed move at each step.
    """
    key = draw(st.sampled_from(sorted(RULED)))
    n, moves = draw(legal_prefixes(max_n=5, max_len=80, rule=RULED[key][0].rule))
    if moves:
        if draw(st.booleans()):
            moves = mutate(draw, moves, n)
    cuts = draw(st.lists(st.integers(0, 100), max_size=5))
    return key, n, moves, split(moves, cuts, np.int64)


@settings(max_examples=150, deadline=None)
@given(case=wandering_by_rule())
def test_same_verdict_under_the_cyclic_and_linear_rules(case: tuple[str, int, Moves, list[Any]]) -> None:
    key, n, moves, chunks = case
    puzzle, peg = RULED[key]
    fast = check_chunks(chunks, n, {peg}, puzzle=puzzle, max_moves=10**6)
    assert fast == check(moves, n, {peg}, puzzle=puzzle, max_moves=10**6)


@pytest.mark.parametrize("key", sorted(RULED))
def test_the_whole_optimal_run_of_each_rule_is_legal_in_one_chunk(key: str) -> None:
    puzzle, peg = RULED[key]
    record = REGISTRY.get(key)
    moves = list(record.moves(7))
    verdict = check_chunks([np.array(moves, dtype=np.uint8)], 7, {peg}, puzzle=puzzle)
    assert verdict == check(moves, 7, {peg}, puzzle=puzzle) and verdict.ok and "optimal (proven)" in verdict.describe()
    # Found legal by the vectorised test itself, not by the scalar replay behind it.
    where = np.zeros(8, dtype=np.int8)
    assert chunkcheck._chunk_is_legal(np.array(moves, dtype=np.uint8), where, 7, puzzle=puzzle)
    assert where[1:].tolist() == [peg] * 7
    # The classic solution breaks either rule at its first move from one end to the other.
    classic = np.array(list(reference(7)), dtype=np.uint8)
    assert not chunkcheck._chunk_is_legal(classic, np.zeros(8, dtype=np.int8), 7, puzzle=puzzle)
    wrong = check_chunks([classic], 7, {2}, puzzle=puzzle)
    assert wrong == check(list(reference(7)), 7, {2}, puzzle=puzzle) and wrong.failure is not None
    assert wrong.failure.rule == "forbidden_move"


@st.composite
def big_segments(draw: st.DrawFn) -> tuple[int, int, Moves, list[Any]]:
    """Draw segments of a 45-disk solution around a move of a disk above 39.

    Such a disk takes the general per-disk path.
    """
    n = 45
    disk = draw(st.integers(40, 45))
    around = 1 << (disk - 1)
    start = around - draw(st.integers(1, 40))
    moves = [move_at(n, k) for k in range(start + 1, start + 1 + draw(st.integers(1, 80)))]
    if draw(st.booleans()):
        moves = mutate(draw, moves, n)
    cuts = draw(st.lists(st.integers(0, 80), max_size=4))
    return n, start, moves, split(moves, cuts, np.int64)


@settings(max_examples=100, deadline=None)
@given(case=big_segments())
def test_same_verdict_on_segments_with_large_disks(case: tuple[int, int, Moves, list[Any]]) -> None:
    n, start, moves, chunks = case
    fast = check_chunks(chunks, n, start=start, initial=tower_at(n, start), partial=True)
    slow = check(moves, n, start=start, initial=tower_at(n, start), partial=True)
    assert fast == slow
    if slow.ok:
        assert fast.extra["pegs"] == slow.extra["pegs"]


def test_segment_pegs_are_replayed_in_place_like_check() -> None:
    n, start, end = 8, 37, 150
    moves = list(reference(n))[start:end]
    pegs = tower_at(n, start)
    verdict = check_chunks([np.array(moves)], n, start=start, initial=pegs, partial=True)
    assert verdict.ok and verdict.moves == end - start and verdict.extra["start"] == start
    assert pegs == tower_at(n, end) == verdict.extra["pegs"]


def test_cap_on_moves_is_the_same() -> None:
    moves = [(1, 0, 1), (1, 1, 0)] * 100
    for cap in (1, 2, 99, 100, 150):
        assert check_chunks(split(moves, [7, 64], np.int64), 1, max_moves=cap) == check(moves, 1, max_moves=cap)


def test_a_crash_between_chunks_is_reported_with_its_step() -> None:
    def broken() -> Any:
        yield np.array([[1, 0, 1], [2, 0, 2]])
        raise RuntimeError("boom")

    verdict = check_chunks(broken(), 2)
    assert (verdict.status, verdict.step, verdict.reason) == ("crashed", 3, "RuntimeError: boom")


@pytest.mark.parametrize(
    ("chunk", "detail"),
    [
        (np.array([[1.0, 0.0, 2.0]]), "float64 of shape 1x3"),
        (np.array([1, 0, 2]), "int64 of shape 3"),
        (np.array([[1, 0]]), "int64 of shape 1x2"),
        (np.array([[True, False, True]]), "bool of shape 1x3"),
        ("102", "<U3 of shape scalar"),
        ([[1, 0, 2], [1, 0]], "object of shape scalar"),
    ],
)
def test_a_chunk_that_is_not_an_integer_m_by_3_array_is_illegal(chunk: Any, detail: str) -> None:
    verdict = check_chunks([np.array([[1, 0, 1]]), chunk], 2)
    assert (verdict.status, verdict.step, verdict.moves, verdict.tops) == ("illegal", 2, 1, (2, 1, None))
    assert verdict.failure == Failure("bad_chunk", detail=detail)
    assert verdict.reason == f"a chunk must be an integer array of shape (m, 3), not {detail}"


def test_failures_inside_chunks_have_the_scalar_checkers_fields() -> None:
    moves = [*reference(3)]
    moves[4] = (moves[4][0], moves[4][2], moves[4][1])  # step 5 the wrong way: from the empty peg 0
    verdict = check_chunks(split(moves, [3], np.uint8), 3)
    assert verdict.failure == check(moves, 3).failure
    assert verdict.failure == Failure("empty_source", 1, 0, 1)
    assert verdict.describe(("A", "B", "C")) == "illegal at step 5: move 1 A B: peg A is empty (tops -, 1, 3)"


def test_a_run_stopped_at_the_cap_says_so() -> None:
    verdict = check_chunks(split([(1, 0, 1), (1, 1, 0)] * 20, [5], np.int64), 1)
    assert verdict.failure == Failure("still_moving", count=move_cap(1), optimal=1)
    assert verdict.status == "not_optimal" and verdict.moves == move_cap(1) == 24


@settings(max_examples=100, deadline=None)
@given(
    moves=st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)), max_size=50),
    start=st.integers(1, 2**70),
    cuts=st.lists(st.integers(0, 50), max_size=4),
)
def test_chunk_digest_is_the_documented_digest(moves: Moves, start: int, cuts: list[int]) -> None:
    chunks = split(moves, cuts, np.uint8)
    assert digest_chunks(chunks, start) == digest(moves, start)
    assert chunk_digest(np.array(moves, dtype=np.uint64).reshape(-1, 3), start - 1) == digest(moves, start)[1]


def single_changes(moves: Moves, n: int) -> list[Moves]:
    """Return every change of one field of one move, and neighbours swapped.

    A field changes to a nearby or extreme value.
    """
    out = []
    for i, (d, s, t) in enumerate(moves):
        for disk in {0, 1, d - 1, d + 1, n, n + 1} - {d}:
            out.append([*moves[:i], (disk, s, t), *moves[i + 1 :]])
        for peg in range(-1, 4):
            if peg != s:
                out.append([*moves[:i], (d, peg, t), *moves[i + 1 :]])
            if peg != t:
                out.append([*moves[:i], (d, s, peg), *moves[i + 1 :]])
        if i + 1 < len(moves):
            out.append([*moves[:i], moves[i + 1], moves[i], *moves[i + 2 :]])
    return out


@pytest.mark.parametrize("disk", [40, 41, 45])
def test_every_single_change_around_a_large_disk_is_judged_alike(disk: int) -> None:
    # Exhaustive where the random search is thin: the moves around disk 40+'s move, checked
    # whole, one move a chunk, and cut in two, all against the scalar checker.
    n = 45
    start = (1 << (disk - 1)) - 5
    legal = [move_at(n, k) for k in range(start + 1, start + 11)]
    for moves in [legal, *single_changes(legal, n)]:
        slow = check(moves, n, start=start, initial=tower_at(n, start), partial=True)
        for cuts in ([], list(range(1, len(moves))), [4]):
            fast = check_chunks(split(moves, cuts, np.int64), n, start=start, initial=tower_at(n, start), partial=True)
            assert fast == slow, (moves, cuts)


def test_legal_chunks_are_never_replayed_move_by_move(monkeypatch: pytest.MonkeyPatch) -> None:
    # The scalar replay is only for chunks that fail the vectorised test.
    import hanoi_harness.core.arrays as chunkcheck
    from hanoi_algorithms.blocks import solve
    from hanoi_harness.core.checker import check as scalar

    def only_the_ending(moves: Any, *args: Any, **kwargs: Any) -> Any:
        assert list(moves) == [], "a legal chunk was replayed by the scalar checker"
        return scalar((), *args, **kwargs)

    monkeypatch.setattr(chunkcheck, "check", only_the_ending)
    assert chunkcheck.check_chunks(solve(18), 18).ok  # runs of disks 1..16, single moves of 17 and 18
    segment = [move_at(45, k) for k in range((1 << 44) - 3, (1 << 44) + 3)]
    start = (1 << 44) - 4
    assert chunkcheck.check_chunks([np.array(segment)], 45, start=start, initial=tower_at(45, start), partial=True).ok
