"""The linear Tower of Hanoi: pegs in a row, every move between neighbours.

The pegs are 0, 1, 2; no move goes straight between 0 and 2.

Idea
    From one end to the other (0 -> 2) the largest disk must stop on the
    middle peg.  Each time it moves, the smaller disks must stand on the peg
    it is not using.  So the n-1 smaller disks go to the far end, the
    largest to the middle, and the n-1 back to the near end.  Then the
    largest goes to the far end, and the n-1 to the far end again.  That is
    L(n) = 3 L(n-1) + 2 = 3^n - 1 moves, and the sequence passes through all
    3^n configurations once.  Between an end and the middle the largest disk
    moves once, the smaller disks standing on the other end meanwhile:
    (3^n - 1) / 2 moves.  Both are optimal: every move of the largest disk
    is forced.

Source
    R. S. Scorer, P. M. Grundy and C. A. B. Smith, "Some binary games", The
    Mathematical Gazette 28 (no. 280), 1944, pp. 96-103.  It sets the three
    pegs in a line, with moves between neighbours only, and counts its
    3^n - 1 moves.

Time and space
    Theta(3^n) moves from end to end.  Each move is handed up a chain of
    ``yield from`` generators up to n deep: declared "n 2^n" (up to n work
    per move, as ``recursive``).  O(n) extra space: the generator chain.

Starting elsewhere
    ``solve(n)`` moves the tower from peg 0 to peg 2.
    ``solve_for(n, start, goal)`` moves a whole tower from any peg to any
    other, and refuses configurations that are not whole towers.

Quirks and limits
    One Python generator frame per disk: n <= 900, under the interpreter's
    1000-frame recursion limit, as for ``recursive``.

The same recursion in blocks: ``linear_blocks``
    Every transfer of the 10 smallest disks between two given pegs is the
    same sequence wherever it occurs in a larger run.  That is
    3^10 - 1 = 59048 moves end to end, 29524 between neighbours, about as
    many as the classic ``blocks``' 65535.  :func:`chunks` follows the
    recursion down to 10 disks.  It yields those sequences as shared,
    read-only uint8 arrays of shape (m, 3), each built once (from
    :func:`transfer`) and reused.  The moves of the larger disks come as
    one-row arrays between them.

    The moves are those of ``linear``, move for move.  The chunk checker
    tests each array whole with numpy, much faster than replaying it move
    by move.  Theta(1) amortised time per move (one Python step per block).
    O(n) extra space for the generator chain, plus the blocks: at most
    6 * 59048 * 3 bytes whatever n.  Disk numbers are stored in uint8:
    n <= 255.  The block structure is ours.
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
    """Yield the moves taking disks 1..n from peg *src* to peg *dst*.

    Every move goes between neighbouring pegs.

    >>> list(transfer(1, 0, 2))
    [(1, 0, 1), (1, 1, 2)]
    >>> list(transfer(2, 1, 0))
    [(1, 1, 2), (2, 1, 0), (1, 2, 1), (1, 1, 0)]
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
    """Return the pegs of the whole tower of *n* disks in *start* and *goal*.

    They are 0, 0 when n = 0.  Either configuration not a whole tower
    (n > 0) raises :class:`UsageError`.
    """
    src, dst = tower_peg(start), tower_peg(goal)
    if n and (src is None or dst is None):
        raise UsageError("linear moves whole towers only: the start and the goal must each have every disk on one peg")
    return (0, 0) if src is None or dst is None else (src, dst)


def solve_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """Return the moves taking the tower of n disks from *start* to *goal*.

    The whole tower goes from where *start* has it to where *goal* has it.

    >>> list(solve_for(1, (2,), (1,)))
    [(1, 2, 1)]

    Either configuration not a whole tower raises :class:`UsageError`.
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


BASE = 10
"""Disks in a precomputed block.

3^10 - 1 = 59048 moves end to end, 29524 between neighbours.
"""


@cache
def _block(n: int, src: int, dst: int) -> Chunk:
    """Return the transfer of n <= BASE disks from peg *src* to peg *dst*.

    The moves are a read-only uint8 array.
    """
    import numpy as np

    block = np.array(list(transfer(n, src, dst)), dtype=np.uint8).reshape(-1, 3)
    block.flags.writeable = False
    return block


def chunks(n: int, src: int, dst: int) -> Iterator[Chunk]:
    """Yield the moves of :func:`transfer` as uint8 arrays.

    The recursion runs down to :data:`BASE` disks, then one shared block
    follows.

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
