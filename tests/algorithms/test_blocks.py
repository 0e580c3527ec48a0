"""Test ``blocks`` against the reference sequence.

Move for move up to n = 18, by digest and verdict beyond.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import numpy as np
import pytest

from hanoi_algorithms.blocks import BASE, runs, solve, solve_from
from hanoi_harness.core.arrays import check_chunks
from hanoi_harness.core.checker import check, check_algorithm
from hanoi_harness.core.digest import MASK, digest, digest_chunks
from hanoi_harness.registry.sources import build_registry
from tests.helpers import at_scale, reference, traced_peak


def moves_of(chunks: Iterable[np.ndarray[Any, Any]]) -> list[tuple[int, int, int]]:
    return [(d, s, t) for chunk in chunks for d, s, t in chunk.tolist()]


@cache
def sums(n: int, a: int, b: int, c: int) -> tuple[int, int]:
    """Return (sum of v, sum of j * v_j) over S(n; a, b, c).

    Here v = 9*disk + 3*src + dst and j = 1.. local.

    From the recursion alone, so the digest of any n is known without the moves:
    the digest of a sequence starting after step o is o * sum(v) + sum(j * v_j).
    """
    if n == 0:
        return 0, 0
    p1, w1 = sums(n - 1, a, c, b)
    p2, w2 = sums(n - 1, b, a, c)
    half = 1 << (n - 1)
    v = 9 * n + 3 * a + c
    return p1 + v + p2, w1 + half * v + half * p2 + w2


def expected_digest(n: int) -> int:
    return sums(n, 0, 1, 2)[1] & MASK


def test_the_closed_form_digest_matches_the_replay() -> None:
    for n in range(12):
        assert expected_digest(n) == digest(reference(n))[1]


@pytest.mark.parametrize("n", range(17))
def test_move_for_move_as_the_reference(n: int) -> None:
    assert moves_of(solve(n)) == list(reference(n))


def test_beyond_the_base_block_move_for_move() -> None:
    # n = 17 and 18: two and four runs of 2^16 - 1 moves, with the large disks' moves between.
    for n in (BASE + 1, BASE + 2):
        assert moves_of(solve(n)) == list(reference(n))


@pytest.mark.parametrize("n", [20, 24])
def test_digest_and_verdict_beyond(n: int) -> None:
    count, total = digest_chunks(solve(n))
    assert (count, total) == ((1 << n) - 1, expected_digest(n))
    verdict = check_chunks(solve(n), n)
    assert verdict.ok and verdict.digest == total


@at_scale
def test_digest_at_twenty_against_the_replay() -> None:
    assert digest_chunks(solve(20)) == digest(reference(20))


def test_chunks_are_bounded_and_read_only() -> None:
    sizes = set()
    for chunk in solve(BASE + 3):
        assert chunk.dtype == np.uint8 and chunk.ndim == 2 and chunk.shape[1] == 3
        sizes.add(len(chunk))
    assert sizes == {1, (1 << BASE) - 1}
    run = next(iter(runs().values()))
    with pytest.raises(ValueError, match="read-only"):
        run[0, 0] = 9


@pytest.mark.parametrize("n", [5, BASE + 2])
def test_solve_from_any_step_is_the_tail(n: int) -> None:
    whole = np.concatenate(list(solve(n)))
    size = 1 << BASE
    for k in sorted({1, 2, 7, size - 1, size, size + 1, 2 * size, 3 * size + 5, (1 << n) - 1, 1 << n}):
        if k > 1 << n:
            continue
        tail = list(solve_from(n, k))
        got = np.concatenate(tail) if tail else np.zeros((0, 3), dtype=np.uint8)
        assert np.array_equal(got, whole[k - 1 :]), k


def test_solve_from_a_late_step_of_a_big_tower() -> None:
    # From the middle of the 40-disk solution: a slice checked against the reference's own segment.
    from hanoi_harness.core.randomaccess import move_at, tower_at

    n, k = 40, (1 << 39) - 70000
    moves = moves_of(itertools.islice(solve_from(n, k), 5))[:70100]  # disk 40 moves at step 2^39
    assert moves[:50] == [move_at(n, k + i) for i in range(50)]
    verdict = check(moves, n, start=k - 1, initial=tower_at(n, k - 1), partial=True)
    assert verdict.ok and any(d == n for d, _, _ in moves)


def test_limits_and_record() -> None:
    blocks = build_registry().get("blocks")
    assert blocks.chunks and blocks.max_n == 255 and "uint8" in blocks.max_n_reason
    assert blocks.solve_from is solve_from
    assert check_algorithm(blocks, 12).ok
    with pytest.raises(ValueError, match=r"n must be 0\.\.255"):
        list(solve(256))


@pytest.mark.serial  # a tracemalloc peak: pytest-xdist's own thread would allocate into it
def test_memory_is_independent_of_n() -> None:
    def peak(work: Callable[[], object]) -> int:
        return traced_peak(work, warm=False)

    runs()  # the six shared runs (1.2 MB), built once
    # 2^24 moves against 2^18: a generator or checker that kept them would need 64 times more.
    small, large = peak(lambda: check_chunks(solve(18), 18)), peak(lambda: check_chunks(solve(24), 24))
    assert large < 1.25 * small + 65536
    small, large = peak(lambda: digest_chunks(solve(18))), peak(lambda: digest_chunks(solve(24)))
    assert large < 1.25 * small + 65536
