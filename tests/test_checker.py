"""The checker against a minimal independent simulator, and against every single-move mutation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.checker import check
from hanoi_harness.verdict import Failure, Verdict
from tests.helpers import legal_prefixes, reference


def simulate(moves: list[Any], n: int, targets: frozenset[int]) -> tuple[str, int | None]:
    """A second, deliberately different model: the peg of each disk, not three stacks.

    A move of disk d from s to t is legal when d is on s and no smaller disk
    is on s or t.  Returns (status, first illegal step or None).
    """
    where = [0] * (n + 1)  # where[d]: the peg of disk d
    for k, move in enumerate(moves, 1):
        if not (isinstance(move, tuple) and len(move) == 3):
            return "illegal", k
        d, s, t = move
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in move):
            return "illegal", k
        if not (1 <= d <= n) or s not in (0, 1, 2) or t not in (0, 1, 2) or s == t:
            return "illegal", k
        if where[d] != s or any(where[e] in (s, t) for e in range(1, d)):
            return "illegal", k
        where[d] = t
    if n == 0:
        return ("ok" if not moves else "illegal"), (1 if moves else None)
    pegs = set(where[1:])
    if len(pegs) != 1 or pegs.pop() not in targets:
        return "incomplete", None
    return ("ok" if len(moves) == 2**n - 1 else "not_optimal"), None


moves_strategy = st.lists(st.tuples(st.integers(0, 5), st.integers(-1, 3), st.integers(-1, 3)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 4), moves=moves_strategy)
def test_agrees_with_simulator_on_random_sequences(n: int, moves: list[tuple[int, int, int]]) -> None:
    verdict = check(moves, n)
    status, step = simulate(moves, n, frozenset({2}))
    assert verdict.status == status
    if status == "illegal":
        assert verdict.step == step
        assert verdict.moves == step - 1  # type: ignore[operator]


@settings(max_examples=300, deadline=None)
@given(case=legal_prefixes())
def test_agrees_with_simulator_on_mostly_legal_sequences(case: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, moves = case
    verdict = check(moves, n, frozenset({1, 2}), max_moves=10**6)
    status, step = simulate(moves, n, frozenset({1, 2}))
    assert verdict.status == status
    assert verdict.step == step


MUTATIONS = ("disk", "src", "dst", "swap", "drop", "add")


@st.composite
def mutated_solutions(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]], str]:
    n = draw(st.integers(1, 6))
    moves = list(reference(n))
    kind = draw(st.sampled_from(MUTATIONS))
    i = draw(st.integers(0, len(moves) - 1))
    d, s, t = moves[i]
    if kind == "disk":
        moves[i] = (draw(st.integers(0, n + 1).filter(lambda x: x != d)), s, t)
    elif kind == "src":
        moves[i] = (d, draw(st.integers(-1, 3).filter(lambda x: x != s)), t)
    elif kind == "dst":
        moves[i] = (d, s, draw(st.integers(-1, 3).filter(lambda x: x != t)))
    elif kind == "swap":
        j = draw(st.integers(0, len(moves) - 1).filter(lambda j: moves[j] != moves[i]))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "drop":
        del moves[i]
    else:
        extra = draw(st.tuples(st.integers(0, n + 1), st.integers(-1, 3), st.integers(-1, 3)))
        moves.insert(draw(st.integers(0, len(moves))), extra)
    return n, moves, kind


@settings(max_examples=400, deadline=None)
@given(case=mutated_solutions())
def test_every_single_move_mutation_is_rejected_at_the_right_step(
    case: tuple[int, list[tuple[int, int, int]], str],
) -> None:
    n, moves, _kind = case
    verdict = check(moves, n)
    status, step = simulate(moves, n, frozenset({2}))
    assert not verdict.ok
    assert verdict.status == status
    assert verdict.step == step


def test_illegal_verdict_reports_step_move_reason_and_tops() -> None:
    moves = [(1, 0, 2), (2, 0, 2)]
    verdict = check(moves, 3)
    assert verdict == Verdict(
        "illegal",
        3,
        1,
        verdict.digest,
        step=2,
        move=(2, 0, 2),
        tops=(2, None, 1),
        failure=Failure("larger_on_smaller", disk=2, src=0, dst=2, top=1),
    )
    assert verdict.reason == "disk 2 cannot go onto the smaller disk 1 on peg 2"
    assert "step 2" in verdict.describe() and "tops 2, -, 1" in verdict.describe()


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ((1, 0, 3), "destination peg 3 is not 0, 1 or 2"),
        ((1, -1, 2), "source peg -1 is not 0, 1 or 2"),
        ((1, 0, 0), "source and destination are both peg 0"),
        ((1, 1, 2), "peg 1 is empty"),
        ((2, 0, 1), "disk 2 is not on top of peg 0 (its top is 1)"),
        ((1, 2), "a move must be a (disk, src, dst) triple"),
        ("1 0 2", "a move must be a (disk, src, dst) triple"),
        ("102", "source peg '0' is not 0, 1 or 2"),
        ((1, True, 2), "source peg True is not 0, 1 or 2"),
    ],
)
def test_each_illegal_reason(move: Any, reason: str) -> None:
    verdict = check([move], 2)
    assert verdict.status == "illegal"
    assert verdict.reason == reason
    assert verdict.step == 1


def test_crash_is_reported_with_its_step() -> None:
    def broken() -> Any:
        yield (1, 0, 1)
        yield (2, 0, 2)
        raise RuntimeError("boom")

    verdict = check(broken(), 2)
    assert verdict.status == "crashed"
    assert verdict.step == 3
    assert verdict.reason == "RuntimeError: boom"


def test_wrong_final_peg_is_incomplete() -> None:
    verdict = check([(1, 0, 1)], 1, frozenset({2}))
    assert verdict.status == "incomplete"
    assert "peg 1, not 2" in verdict.reason


def test_runaway_legal_sequence_is_stopped() -> None:
    def forever() -> Any:
        while True:
            yield (1, 0, 1)
            yield (1, 1, 0)

    verdict = check(forever(), 1, max_moves=100)
    assert verdict.status == "not_optimal"
    assert verdict.moves == 100


def test_memory_is_independent_of_the_number_of_moves() -> None:
    import tracemalloc

    def peak(n: int) -> int:
        tracemalloc.start()
        check(reference(n), n)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    # 2^14 moves vs 2^10: a checker that kept the moves would need 16x more.
    assert peak(14) < 2 * peak(10) + 4096


def test_digest_matches_the_documented_formula() -> None:
    moves = list(reference(5))
    expected = sum(k * (9 * d + 3 * s + t) for k, (d, s, t) in enumerate(moves, 1)) % 2**64
    assert check(moves, 5).digest == expected


def test_segments_check_with_global_steps_and_add_up() -> None:
    from hanoi_harness.randomaccess import tower_at

    n = 6
    moves = list(reference(n))
    whole = check(moves, n)
    parts = []
    for start, end in ((0, 20), (20, 41), (41, 63)):
        part = check(moves[start:end], n, start=start, initial=tower_at(n, start), partial=True)
        assert part.ok and part.moves == end - start
        assert part.extra["pegs"] == tower_at(n, end)
        parts.append(part.digest)
    assert sum(parts) % 2**64 == whole.digest

    bad = moves[20:41]
    bad[5] = (bad[5][0], bad[5][2], bad[5][1])
    verdict = check(bad, n, start=20, initial=tower_at(n, 20), partial=True)
    assert verdict.status == "illegal" and verdict.step == 26


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ((1, 0.0, 2), "source peg 0.0 is not 0, 1 or 2"),
        ((1, 0, 2.0), "destination peg 2.0 is not 0, 1 or 2"),
        ((1.0, 0, 2), "disk 1.0 is not an integer"),
        ((True, 0, 2), "disk True is not an integer"),
    ],
)
def test_numbers_that_only_look_like_integers_are_refused(move: Any, reason: str) -> None:
    verdict = check([move], 1)
    assert (verdict.status, verdict.reason, verdict.step) == ("illegal", reason, 1)


def test_numpy_integers_are_integers() -> None:
    import numpy as np

    moves = [tuple(np.int64(x) for x in move) for move in reference(4)]
    verdict = check(moves, 4)
    assert verdict.ok and verdict.digest == check(list(reference(4)), 4).digest
