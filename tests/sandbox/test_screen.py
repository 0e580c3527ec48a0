"""Test the stream behind `hanoi moves` and its reference solution.

Moves are judged exactly as the checker judges them.
"""

from __future__ import annotations

import itertools
import marshal
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.core.checker import check
from hanoi_harness.core.digest import MASK, digest
from hanoi_harness.core.randomaccess import move_at
from hanoi_harness.core.reference import BASE, RUN, Reference, Run
from hanoi_harness.registry.record import Algorithm, FinalPeg
from hanoi_harness.sandbox.screen import MoveStream
from tests.helpers import legal_prefixes, reference

PAIRS = [(a, b) for a in range(3) for b in range(3) if a != b]


@pytest.mark.parametrize(("src", "dst"), PAIRS)
@pytest.mark.parametrize("size", [1, 2, 5, BASE])
def test_a_run_is_the_optimal_transfer_and_its_outputs_agree(size: int, src: int, dst: int) -> None:
    ran = Run(size, src, dst)
    third = 3 - src - dst
    labels = {0: src, 1: third, 2: dst}
    want = [(d, labels[s], labels[t]) for d, s, t in reference(size)]
    rows = [tuple(row) for row in ran.rows.tolist()]
    assert rows == want
    pegs: tuple[list[int], list[int], list[int]] = ([], [], [])
    pegs[src].extend(range(size, 0, -1))
    assert check(rows, size, frozenset({dst}), initial=pegs).status == "ok"
    assert ran.marshalled == marshal.dumps(rows, 2)
    assert ran.binary == bytes(itertools.chain.from_iterable(rows))
    assert ran.text == "".join(f"{d} {s} {t}\n" for d, s, t in rows)
    for before in (0, 7, 2**40):
        assert ran.digest(before) & MASK == digest(rows, start=before + 1)[1]


@pytest.mark.parametrize("n", [1, 2, 5, BASE, BASE + 1, BASE + 2])
@pytest.mark.parametrize("target", [1, 2])
def test_the_reference_pieces_make_the_optimal_solution(n: int, target: int) -> None:
    ref = Reference(n, target)
    swap = (0, 1, 2) if target == 2 else (0, 2, 1)
    pieces = []
    k = 0
    while (expected := ref.next(k)) is not None:
        if expected.run is not None:
            assert expected.offset == 0
            pieces.append(expected.run.rows)
        else:
            assert expected.move is not None
            pieces.append(np.array([expected.move], dtype=np.uint8))
        k += expected.count
    assert k == 2**n - 1
    moves = np.concatenate(pieces)
    for step in {s for s in (1, 2, 3, 2**n // 2, 2**n - 1, RUN, RUN + 1, RUN + 2) if s < 2**n}:
        disk, src, dst = move_at(n, step)
        assert tuple(moves[step - 1].tolist()) == (disk, swap[src], swap[dst]), step
    assert check([tuple(row) for row in moves.tolist()], n, frozenset({target})).status == "ok"


@pytest.mark.parametrize("target", [1, 2])
def test_the_reference_pegs_are_the_replayed_ones(target: int) -> None:
    n = BASE + 1
    swap = (0, 1, 2) if target == 2 else (0, 2, 1)
    moves = [(d, swap[s], swap[t]) for d, s, t in reference(n)]
    ref = Reference(n, target)
    for k in (0, 1, RUN, RUN + 1, 2**n - 1):
        assert ref.pegs(k) == check(moves[:k], n, partial=True).extra["pegs"], k
    assert ref.pegs(2**n) is None


def algorithm(moves: list[Any], chunks: int = 0) -> Algorithm:
    """Return an algorithm yielding *moves*, or them in arrays of rows.

    With *chunks*, it yields the same moves as integer arrays of that many rows.
    """

    def solve(n: int) -> Any:
        if not chunks:
            return iter(moves)
        return (np.array(moves[i : i + chunks], dtype=np.int64).reshape(-1, 3) for i in range(0, len(moves), chunks))

    anywhere = FinalPeg.anywhere()
    return Algorithm(name="given", solve=solve, summary="given moves", final_peg=anywhere, chunks=bool(chunks))


def streamed(moves: list[Any], n: int, chunks: int = 0) -> tuple[list[tuple[int, int, int]], int, Any]:
    """Return the moves a :class:`MoveStream` hands out, digest and failure."""
    stream = MoveStream(algorithm(moves, chunks), n)
    out: list[tuple[int, int, int]] = []
    total = 0
    for piece in stream.pieces():
        rows = np.frombuffer(bytes(piece.binary()), dtype=np.uint8).reshape(-1, 3)
        out += [(d, s, t) for d, s, t in rows.tolist()]
        total += piece.digest()
        assert piece.text() == "".join(f"{d} {s} {t}\n" for d, s, t in rows.tolist())
    return out, total & MASK, stream.failure


@settings(max_examples=150, deadline=None)
@given(case=legal_prefixes(), chunks=st.sampled_from([0, 1, 4, 1000]))
def test_the_stream_hands_out_what_the_checker_accepts_and_stops_where_it_does(
    case: tuple[int, list[tuple[int, int, int]]], chunks: int
) -> None:
    n, moves = case
    out, total, failure = streamed(moves, n, chunks)
    verdict = check(moves, n, frozenset({1, 2}), partial=True)
    assert out == [tuple(m) for m in moves[: verdict.moves]]
    assert total == digest(out)[1] == verdict.digest
    if verdict.ok:
        assert failure is None
    else:
        assert failure is not None and (failure.status, failure.step) == (verdict.status, verdict.step)


@pytest.mark.parametrize("n", [3, BASE + 1])
@pytest.mark.parametrize("chunks", [0, 1000])
def test_optimal_moves_to_either_peg_pass_whole(n: int, chunks: int) -> None:
    for swap in ((0, 1, 2), (0, 2, 1)):
        moves = [(d, swap[s], swap[t]) for d, s, t in reference(n)]
        out, total, failure = streamed(moves, n, chunks)
        assert failure is None and out == moves and total == digest(moves)[1]


def test_a_move_off_the_reference_midway_is_replayed_and_judged() -> None:
    n = BASE + 1
    moves = list(reference(n))
    moves[RUN + 5] = (1, 0, 1) if moves[RUN + 5] != (1, 0, 1) else (1, 1, 0)  # step RUN + 6 breaks the rules
    out, _, failure = streamed(moves, n)
    verdict = check(moves, n)
    assert verdict.status == "illegal" and failure is not None and failure.step == verdict.step == RUN + 6
    assert out == moves[: RUN + 5]


ODD = [None, (1, 0), (1, 0, 2, 0), (True, 0, 2), (1, 0, 2.0), "102", (2**64, 0, 2), (object(), 0, 2)]


@pytest.mark.parametrize("odd", ODD, ids=lambda odd: type(odd).__name__ + str(len(repr(odd))))
@pytest.mark.parametrize("chunks", [0, 1])
def test_a_move_that_is_not_three_ints_stops_the_stream_where_the_checker_stops(odd: Any, chunks: int) -> None:
    moves = [(1, 0, 1), odd, (1, 1, 2)]
    if chunks:  # an array of the legal move, then the odd move where an array should be
        stream = MoveStream(
            Algorithm(name="odd", solve=lambda n: iter([np.array([moves[0]]), odd]), summary="odd", chunks=True), 2
        )
    else:
        stream = MoveStream(algorithm(moves), 2)
    out = [
        move
        for piece in stream.pieces()
        for move in np.frombuffer(bytes(piece.binary()), np.uint8).reshape(-1, 3).tolist()
    ]
    verdict = check(moves, 2)
    failure = stream.failure
    assert out == [[1, 0, 1]] and failure is not None
    assert (
        (failure.status, failure.step, failure.tops)
        == (verdict.status, verdict.step, verdict.tops)
        == ("illegal", 2, (2, 1, None))
    )
    assert failure.failure is not None and failure.failure.rule == ("bad_chunk" if chunks else "odd_move")


def test_legal_moves_spelt_otherwise_are_read_once_as_ints() -> None:
    spelt = [(np.int64(1), np.uint8(0), 1), [2, 0, 2], iter((1, 1, 2))]
    out, total, failure = streamed(spelt, 2)
    assert failure is None and out == list(reference(2)) and total == digest(reference(2))[1]


def test_arrays_longer_than_a_run_are_still_matched_piece_by_piece() -> None:
    # One array of 3 * 65536 moves covers three units: each piece is compared, none is replayed.
    n = BASE + 2
    moves = list(reference(n))
    rows = np.array(moves, dtype=np.uint8)
    stream = MoveStream(algorithm([], 0), n)
    pieces = list(stream._judge_array(rows[: 3 * (RUN + 1)]))
    assert stream.failure is None and stream.following and [p.count for p in pieces] == [RUN, 1, RUN, 1, RUN, 1]


def test_a_chunk_that_cannot_be_looked_at_is_a_crash_at_its_step() -> None:
    class Unreadable:
        def __array__(self, *args: Any, **kwargs: Any) -> Any:
            raise LookupError("no rows here")

    chunks = [np.array([(1, 0, 1)]), Unreadable()]
    stream = MoveStream(Algorithm(name="unreadable", solve=lambda n: iter(chunks), summary="u", chunks=True), 2)
    assert len(list(stream.pieces())) == 1
    failure = stream.failure
    assert failure is not None and (failure.status, failure.step) == ("crashed", 2)
    assert failure.reason.startswith("LookupError: no rows here (at ")
