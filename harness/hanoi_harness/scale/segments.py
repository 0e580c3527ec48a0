"""Segment maths: the steps a segment covers, the optimal pegs, the sizes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hanoi_harness.core.randomaccess import move_at
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm, Move, labelled_state

Pegs = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  #: The three pegs, each a tuple of disks, bottom first.

SEGMENTS_PER_WORKER = 16  #: Default segments per worker: the last to finish costs 1/16 of a share.

MIN_SEGMENT = 1 << 16  #: Smallest default segment: far more work than sending and starting it.

MAX_SEGMENT = 1 << 24  #: Largest default segment, so that progress and a retry stay fine.


def final_peg_for(algorithm: Algorithm, n: int) -> int:
    """Return the one peg (1 or 2) *algorithm*'s record declares for n disks."""
    pegs = algorithm.final_peg.pegs(n)
    if len(pegs) != 1 or not pegs <= {1, 2}:
        raise UsageError(
            f"{algorithm.name} does not declare one final peg (1 or 2) for n = {n}, "
            "so its segments' start pegs are unknown: declare final_peg in its record"
        )
    (peg,) = pegs
    return peg


def splittable(algorithm: Algorithm, n: int) -> int:
    """Check that *algorithm*'s n-disk run can be split; return its final peg."""
    algorithm.check_n(n)
    if not algorithm.puzzle.classic:
        raise UsageError(
            f"{algorithm.name} solves another puzzle ({algorithm.puzzle}), and --workers/--dask split "
            "runs of the classic puzzle only: verify it without them"
        )
    if algorithm.solve_from is None:
        raise UsageError(
            f"{algorithm.name} cannot start at any step (its record declares no solve_from), "
            "so its steps cannot be split: verify it without --workers/--dask"
        )
    return final_peg_for(algorithm, n)


def optimal_pegs(n: int, k: int, final_peg: int = 2) -> Pegs:
    """Return the pegs after *k* moves of the optimal n-disk run.

    >>> optimal_pegs(3, 4)
    ((), (2, 1), (3,))
    >>> optimal_pegs(3, 4, final_peg=1)
    ((), (3,), (2, 1))
    """
    where = labelled_state(n, k, final_peg=final_peg)
    pegs: tuple[list[int], list[int], list[int]] = ([], [], [])
    for disk in range(n, 0, -1):
        pegs[where[disk - 1]].append(disk)
    return (tuple(pegs[0]), tuple(pegs[1]), tuple(pegs[2]))


def optimal_move(n: int, k: int, final_peg: int = 2) -> Move:
    """Return move *k* of the optimal n-disk run to *final_peg*.

    >>> optimal_move(2, 1), optimal_move(2, 1, final_peg=1)
    ((1, 0, 1), (1, 0, 2))
    """
    disk, src, dst = move_at(n, k)
    if final_peg == 1:
        swap = (0, 2, 1)
        return (disk, swap[src], swap[dst])
    return (disk, src, dst)


def as_lists(pegs: Pegs) -> tuple[list[int], list[int], list[int]]:
    """Return *pegs* as the lists the checker replays in place."""
    return (list(pegs[0]), list(pegs[1]), list(pegs[2]))


def frozen(pegs: Sequence[Sequence[int]]) -> Pegs:
    """Return *pegs* (lists, say) as tuples."""
    return (tuple(pegs[0]), tuple(pegs[1]), tuple(pegs[2]))


def default_segment_size(n: int, workers: int) -> int:
    """Return the moves per segment for *n* disks on *workers* workers.

    >>> default_segment_size(26, 2), default_segment_size(10, 2), default_segment_size(40, 64)
    (2097152, 65536, 16777216)
    """
    total = (1 << n) - 1
    share = -(-total // (max(1, workers) * SEGMENTS_PER_WORKER))
    return max(MIN_SEGMENT, min(MAX_SEGMENT, share))


def plan_segments(n: int, size: int) -> Iterator[tuple[int, int]]:
    """Yield the segments ``(first, last)`` covering steps 1 .. 2^n - 1.

    >>> list(plan_segments(3, 3))
    [(1, 3), (4, 6), (7, 7)]
    >>> list(plan_segments(0, 5))
    []
    """
    if size < 1:
        raise ValueError(f"segment size must be >= 1, got {size}")
    total = (1 << n) - 1
    for first in range(1, total + 1, size):
        yield (first, min(first + size - 1, total))


def segment_count(n: int, size: int) -> int:
    """Return how many segments :func:`plan_segments` makes for *n* and *size*.

    >>> segment_count(3, 3), segment_count(0, 5)
    (3, 0)
    """
    return -(-((1 << n) - 1) // size)


def number(value: int) -> str:
    """Return *value* in digits while it is short, else as a power of two.

    >>> number(1023), number((1 << 15000) - 1), number(3 << 300)
    ('1023', '2^15000 - 1', 'about 2^301')
    """
    if value.bit_length() <= 200:
        return str(value)
    if (value + 1) & value == 0:
        return f"2^{value.bit_length()} - 1"
    return f"about 2^{value.bit_length() - 1}"
