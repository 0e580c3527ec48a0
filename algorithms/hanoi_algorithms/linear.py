"""The linear Tower of Hanoi: pegs in a row, every move between neighbours.

Source: R. S. Scorer, P. M. Grundy and C. A. B. Smith, "Some binary games", The Mathematical Gazette 28, 1944.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

from hanoi_harness.core.puzzle import LINEAR, tower_peg
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Citation, FinalPeg
from hanoi_harness.registry.sources import register

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Chunk = npt.NDArray[np.uint8]

SCORER_GRUNDY_SMITH = Citation(
    author="R. S. Scorer, P. M. Grundy and C. A. B. Smith",
    title="Some binary games",
    site="The Mathematical Gazette 28 (no. 280), pp. 96-103",
    year="1944",
)

Move = tuple[int, int, int]


def transfer(n: int, src: int, dst: int) -> Iterator[Move]:
    """Yield the moves of disks 1..n from *src* to *dst*, between neighbours.

    >>> list(transfer(1, 0, 2)), list(transfer(2, 1, 0))
    ([(1, 0, 1), (1, 1, 2)], [(1, 1, 2), (2, 1, 0), (1, 2, 1), (1, 1, 0)])
    """
    if n == 0 or src == dst:
        return
    if abs(src - dst) == 2:  # end to end: the largest disk stops on the middle peg 1
        yield from transfer(n - 1, src, dst)
        yield (n, src, 1)
        yield from transfer(n - 1, dst, src)
        yield (n, 1, dst)
        yield from transfer(n - 1, src, dst)
    else:  # neighbours: the smaller disks wait on the third peg
        other = 3 - src - dst
        yield from transfer(n - 1, src, other)
        yield (n, src, dst)
        yield from transfer(n - 1, other, dst)


def _ends(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> tuple[int, int]:
    """Return the tower's pegs in *start* and *goal* (0, 0 for n = 0)."""
    src, dst = tower_peg(start), tower_peg(goal)
    if n and (src is None or dst is None):
        raise UsageError("linear moves whole towers only: the start and the goal must each have every disk on one peg")
    return (0, 0) if src is None or dst is None else (src, dst)


def solve_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """Return the moves of the tower of n disks from *start* to *goal*.

    >>> list(solve_for(1, (2,), (1,)))
    [(1, 2, 1)]
    """
    return transfer(n, *_ends(n, start, goal))


@register(
    name="linear",
    summary="linear variant, moves only between neighbouring pegs 0-1-2: the tower from end to end, 3^n - 1 moves",
    source=SCORER_GRUNDY_SMITH,
    family="recursive",
    max_n=900,
    max_n_reason="one Python generator frame per disk, under the 1000-frame recursion limit",
    space="n",
    time="n 2^n",
    final_peg=FinalPeg.fixed(2),
    puzzle=LINEAR,
    solve_for=solve_for,
)
def solve(n: int) -> Iterator[Move]:
    """Return the moves of n disks from peg 0 to peg 2 through the middle peg.

    >>> len(list(solve(3)))
    26
    """
    return transfer(n, 0, 2)


BASE = 10  #: Disks in a block: 59048 moves end to end, 29524 between neighbours.


@cache
def _block(n: int, src: int, dst: int) -> Chunk:
    """Return the transfer of n <= BASE disks as a read-only uint8 array."""
    import numpy as np

    block = np.array(list(transfer(n, src, dst)), dtype=np.uint8).reshape(-1, 3)
    block.flags.writeable = False
    return block


def chunks(n: int, src: int, dst: int) -> Iterator[Chunk]:
    """Yield the moves of :func:`transfer` as uint8 arrays.

    >>> [chunk.tolist() for chunk in chunks(1, 0, 2)]
    [[[1, 0, 1], [1, 1, 2]]]
    """
    import numpy as np

    if n == 0 or src == dst:
        return
    if n <= BASE:
        yield _block(n, src, dst)
    elif abs(src - dst) == 2:
        yield from chunks(n - 1, src, dst)
        yield np.array([[n, src, 1]], dtype=np.uint8)
        yield from chunks(n - 1, dst, src)
        yield np.array([[n, 1, dst]], dtype=np.uint8)
        yield from chunks(n - 1, src, dst)
    else:
        other = 3 - src - dst
        yield from chunks(n - 1, src, other)
        yield np.array([[n, src, dst]], dtype=np.uint8)
        yield from chunks(n - 1, other, dst)


def solve_blocks_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Chunk]:
    """:func:`solve_for`'s moves as uint8 arrays (:func:`chunks`)."""
    return chunks(n, *_ends(n, start, goal))


@register(
    name="linear_blocks",
    summary="linear variant, moves only between neighbouring pegs 0-1-2: the recursion down to 10 disks, then "
    "shared numpy blocks",
    source=SCORER_GRUNDY_SMITH,
    family="blocks",
    max_n=255,
    max_n_reason="disk numbers are stored in uint8",
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    puzzle=LINEAR,
    chunks=True,
    solve_for=solve_blocks_for,
)
def solve_blocks(n: int) -> Iterator[Chunk]:
    """Return the moves of :func:`solve` as uint8 arrays of shape (m, 3).

    >>> sum(len(chunk) for chunk in solve_blocks(12))
    531440
    """
    return chunks(n, 0, 2)
