"""The recursion unrolled into blocks of moves, yielded as numpy arrays.

The recursion is Qiao's (:mod:`hanoi_algorithms.recursive`); the shared, read-only 65535-move blocks are ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Chunk = npt.NDArray[np.uint8]

BASE = 16  #: Disks in the precomputed run: 65535 moves, 196605 bytes per peg order.

MAX_N = 255
MAX_N_REASON = "disk numbers are stored in uint8"


def sequence(k: int) -> Chunk:
    """Return the *k*-disk solution, peg 0 to 2, as a new (2^k - 1, 3) array.

    >>> sequence(2).tolist()
    [[1, 0, 1], [2, 0, 2], [1, 1, 2]]
    """
    import numpy as np

    swap12 = np.array([0, 2, 1], dtype=np.uint8)
    swap01 = np.array([1, 0, 2], dtype=np.uint8)
    seq = np.zeros((0, 3), dtype=np.uint8)
    for disk in range(1, k + 1):
        # S(d; 0,1,2) = S(d-1; 0,2,1) + [d, 0, 2] + S(d-1; 1,0,2)
        out = np.empty((2 * len(seq) + 1, 3), dtype=np.uint8)
        half = len(seq)
        out[:half, 0] = seq[:, 0]
        out[:half, 1:] = swap12[seq[:, 1:]]
        out[half] = (disk, 0, 2)
        out[half + 1 :, 0] = seq[:, 0]
        out[half + 1 :, 1:] = swap01[seq[:, 1:]]
        seq = out
    return seq


@cache
def runs() -> dict[tuple[int, int], Chunk]:
    """Return the 16-disk solution from peg a to peg c for each pair (a, c).

    >>> runs()[(1, 0)][0].tolist()
    [1, 1, 2]
    """
    import numpy as np

    base = sequence(BASE)
    table: dict[tuple[int, int], Chunk] = {}
    for a in range(3):
        for c in range(3):
            if a != c:
                relabel = np.array([a, 3 - a - c, c], dtype=np.uint8)
                run = base.copy()
                run[:, 1:] = relabel[base[:, 1:]]
                run.flags.writeable = False
                table[(a, c)] = run
    return table


def large_move(h: int, i: int) -> tuple[int, int, int]:
    """Return move *i* (1-based) of the *h*-disk solution, peg 0 to 2, by bits.

    >>> [large_move(2, i) for i in (1, 2, 3)]
    [(1, 0, 1), (2, 0, 2), (1, 1, 2)]
    """
    disk = (i & -i).bit_length()
    src = (i & (i - 1)) % 3
    dst = ((i | (i - 1)) + 1) % 3
    if h % 2 == 0:  # the formula ends on peg 2 for odd h and on peg 1 for even h
        src, dst = (0, 2, 1)[src], (0, 2, 1)[dst]
    return disk, src, dst


def _from(n: int, unit: int, offset: int) -> Iterator[Chunk]:
    """Yield the moves of *n* > 16 disks from *offset* moves into run *unit*."""
    import numpy as np

    h = n - BASE
    table = runs()
    size = (1 << BASE) - 1
    peg = 0 if unit == 0 else 3 - sum(large_move(h, unit)[1:])  # where the small tower stands
    for i in range(unit + 1, 1 << h):
        disk, src, dst = large_move(h, i)
        free = 3 - src - dst
        if offset < size:
            yield table[(peg, free)][offset:]
        offset = 0
        yield np.array([[disk + BASE, src, dst]], dtype=np.uint8)
        peg = free
    if offset < size:
        yield table[(peg, 2)][offset:]


def solve_from(n: int, k: int) -> Iterator[Chunk]:
    """Yield the moves of *n* disks from step *k* (1-based) on, in arrays.

    >>> [chunk.tolist() for chunk in solve_from(2, 2)]
    [[[2, 0, 2], [1, 1, 2]]]
    """
    if not 0 <= n <= MAX_N:
        raise ValueError(f"blocks: n must be 0..{MAX_N} ({MAX_N_REASON}), got {n}")
    if not 1 <= k <= 1 << n:
        raise ValueError(f"blocks: k must be 1..2^{n}, got {k}")
    if n <= BASE:
        if k < 1 << n:
            yield sequence(n)[k - 1 :]
        return
    # Each unit is a run of 2^BASE - 1 moves followed by one large move.
    yield from _from(n, (k - 1) >> BASE, (k - 1) & ((1 << BASE) - 1))


@register(
    name="blocks",
    summary="the recursion unrolled into relabelled 65535-move runs, yielded as numpy arrays",
    source=QIAO,
    family="blocks",
    max_n=MAX_N,
    max_n_reason=MAX_N_REASON,
    space="1",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    chunks=True,
    solve_from=solve_from,
)
def solve(n: int) -> Iterator[Chunk]:
    """Yield the optimal moves of *n* disks from peg 0 to peg 2, in arrays.

    >>> [chunk.tolist() for chunk in solve(2)], list(solve(0))
    ([[[1, 0, 1], [2, 0, 2], [1, 1, 2]]], [])
    """
    return solve_from(n, 1)
