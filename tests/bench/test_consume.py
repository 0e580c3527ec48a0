"""Test the one consumer every figure drains through.

Also the single moves of a chunked record.

The consumer must read every move and give the project's digest whatever the
generator yields; :meth:`Algorithm.moves` of a chunked record must stream
(never a whole chunk as Python objects at once).
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hanoi_algorithms.blocks import solve as blocks_solve
from hanoi_harness.bench.consume import SLICE_ROWS, Folded, consume, fold_chunks, fold_moves
from hanoi_harness.core.digest import digest, digest_chunks
from hanoi_harness.registry.record import UNCHUNK_ROWS, Algorithm
from tests.helpers import REGISTRY, legal_prefixes, reference, traced_peak

Moves = list[tuple[int, int, int]]


def test_every_algorithm_folds_to_the_digest_of_its_model_moves(algorithm: Algorithm, n: int) -> None:
    # moves() relabels into the model in the registry's own way; the consumer maps labels with its tables.
    count, total = digest(algorithm.moves(n), pegs=algorithm.puzzle.pegs)
    assert consume(algorithm, n) == Folded(count, total)
    # Every move read: as many as the record's puzzle needs (2^n - 1 classic, 3^n - 1 linear, Frame-Stewart on k pegs).
    optimum = algorithm.puzzle.optimum(n, max(algorithm.final_peg.pegs(n)))
    assert optimum is not None and count == optimum.moves


def test_k_pegs_fold_with_their_own_weights() -> None:
    # On four pegs a move weighs 16 disk + 4 src + dst: (1, 0, 3) is 19, not 9 + 0 + 3.
    assert fold_moves([(1, 0, 3)], (0, 1, 2, 3)) == Folded(1, 19)
    assert fold_moves([(1, 3, 0), (2, 0, 3)], (0, 1, 2, 3), descending=True, n=2) == Folded(
        *digest([(2, 3, 0), (1, 0, 3)], pegs=4)
    )


@pytest.mark.parametrize("n", [17, 20])
def test_a_chunked_generator_beyond_one_block_folds_like_the_whole_chunk_digest(n: int) -> None:
    assert consume(REGISTRY.get("blocks"), n) == Folded(*digest_chunks(blocks_solve(n)))


def relabelled(moves: Moves, pegs: tuple[Any, Any, Any], n: int, descending: bool) -> list[tuple[Any, Any, Any]]:
    """Return *moves* as an original written in *pegs* labels would give them.

    Disk 1 is the largest when *descending*.
    """
    return [(n + 1 - d if descending else d, pegs[s], pegs[t]) for d, s, t in moves]


@given(legal_prefixes(), st.sampled_from([(0, 1, 2), ("A", "B", "C"), ("s", "t", "d"), (2, 0, 1)]), st.booleans())
def test_fold_moves_reads_any_labels_and_either_disk_order(
    case: tuple[int, Moves], pegs: tuple[Any, Any, Any], descending: bool
) -> None:
    n, moves = case
    moves = [m for m in moves if 1 <= m[0] <= n]  # the legal part and any tail of real disks
    raw = relabelled(moves, pegs, n, descending)
    assert fold_moves(raw, pegs, descending=descending, n=n) == Folded(*digest(moves))


@given(legal_prefixes(max_len=200), st.lists(st.integers(0, 250), max_size=5), st.integers(1, 70))
def test_fold_chunks_gives_the_digest_whatever_the_cuts_and_slices(
    case: tuple[int, Moves], cuts: list[int], rows: int
) -> None:
    _, moves = case
    bounds = [0, *sorted(c % (len(moves) + 1) for c in cuts), len(moves)]
    chunks = [np.array(moves[a:b], dtype=np.uint8).reshape(-1, 3) for a, b in itertools.pairwise(bounds)]
    assert fold_chunks(chunks, rows=rows) == Folded(*digest(moves))


def test_a_label_the_record_does_not_declare_is_an_error() -> None:
    with pytest.raises(KeyError):
        fold_moves([(1, "A", "X")], ("A", "B", "C"))
    with pytest.raises((ValueError, TypeError)):
        fold_moves([(1, 0)])


@pytest.mark.serial  # a tracemalloc peak: pytest-xdist's own thread would allocate into it
def test_the_chunked_fold_holds_one_slice_of_scratch_not_a_chunk() -> None:
    # 65535-move chunks: their digest at once takes 4 int64 rows of 65535 (2 MiB) of scratch.
    chunks = [np.array(list(reference(16)), dtype=np.uint8)] * 2
    scratch = 4 * SLICE_ROWS * 8
    assert scratch < traced_peak(lambda: fold_chunks(chunks)) < scratch + 32 * 1024


# Not measured by coverage, whose tracer would swell this peak.  Its records of the lines run add
# about 300 B to a peak of under 1 KiB.
@pytest.mark.serial  # a tracemalloc peak: pytest-xdist's own thread would allocate into it
@pytest.mark.no_cover
def test_the_per_move_fold_holds_next_to_nothing() -> None:
    moves = list(reference(14))
    assert traced_peak(lambda: fold_moves(moves)) < 1024


# --- Algorithm.moves() of a chunked record ---------------------------------------------------------------------


def chunked(*chunks: Any) -> Algorithm:
    """A chunked record yielding *chunks* whatever n."""
    return Algorithm(name="chunky", solve=lambda n: iter(chunks), summary="", chunks=True)


def test_chunked_moves_are_the_reference_move_for_move() -> None:
    assert list(REGISTRY.get("blocks").moves(17)) == list(reference(17))


@pytest.mark.serial  # a tracemalloc peak: pytest-xdist's own thread would allocate into it
def test_chunked_moves_stream_a_slice_at_a_time() -> None:
    # A whole 65535-move chunk as Python lists at once held 5.7 MiB.
    blocks = REGISTRY.get("blocks")
    peak = traced_peak(lambda: deque(blocks.moves(18), maxlen=0))
    assert peak < 64 * UNCHUNK_ROWS
    assert peak < 100 * 1024


def test_chunked_moves_cross_slice_and_chunk_boundaries_in_order() -> None:
    moves = list(reference(12))
    cut = UNCHUNK_ROWS + 5
    record = chunked(np.array(moves[:cut], dtype=np.int64), np.array(moves[cut:], dtype=np.uint16))
    out = list(record.moves(12))
    assert out == moves
    assert all(type(move) is tuple and all(type(v) is int for v in move) for move in out)


@pytest.mark.parametrize(
    ("chunk", "expected"),
    [
        (np.array([[1, 0]]), [(1, 0)]),  # a pair: the checker says a move must be three values
        (np.array([1, 0, 2]), [1, 0, 2]),  # a 1-D array: its numbers
        (np.zeros((2, 0), dtype=np.uint8), [(), ()]),  # no columns: one empty move a row, none lost
        ([(1, 0, 2), [2, 0, 1]], [(1, 0, 2), (2, 0, 1)]),  # not an array: its rows, a list as a tuple
        (np.zeros((1, 2, 3), dtype=np.uint8), [([0, 0, 0], [0, 0, 0])]),
    ],
)
def test_a_chunk_that_is_not_an_m_by_3_array_comes_out_as_its_rows(chunk: Any, expected: list[Any]) -> None:
    assert list(chunked(chunk).moves(1)) == expected


def test_a_chunk_that_is_not_iterable_raises() -> None:
    with pytest.raises(TypeError):
        list(chunked(7).moves(1))


def test_moves_of_numpy_integers_fold_as_ints() -> None:
    moves = list(reference(12))
    wide = [(np.int64(disk), np.int64(src), np.int64(dst)) for disk, src, dst in moves]
    assert fold_moves(wide) == fold_moves(moves)
    assert fold_moves([]) == Folded(0, 0)
    with pytest.raises(TypeError):
        fold_moves([(1.5, 0, 2)])
