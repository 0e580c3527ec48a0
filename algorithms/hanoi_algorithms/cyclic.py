"""The cyclic Tower of Hanoi: every move one step round 0 -> 1 -> 2 -> 0.

Idea
    With moves allowed only forward round the cycle, moving a tower one step
    forward and moving it two steps forward are different problems.  Each
    solves the other's smaller cases.

    * One step, a -> a+1: the n-1 smaller disks two steps (a -> a+2), the
      largest one step, the n-1 two steps again (a+2 -> a+1).
    * Two steps, a -> a+2: the n-1 two steps (a -> a+2), then the largest
      one step (a -> a+1).  Then the n-1 one step (a+2 -> a, out of its
      way), the largest its second step (a+1 -> a+2), and the n-1 two steps
      (a -> a+2).

    Hence Q(n) = 2 R(n-1) + 1 and R(n) = 2 R(n-1) + Q(n-1) + 2 moves.  That
    is 1, 5, 15, 43, 119, ... one step and 2, 7, 21, 59, 163, ... two steps.
    Both are optimal: the largest disk's moves are forced, and so, by
    induction, are the smaller towers'.

Source
    M. D. Atkinson, "The cyclic Towers of Hanoi", Information Processing
    Letters 13(3), 1981, pp. 118-119: the mutually recursive procedures for
    the one-step and two-step transfers, and their counts.

Time and space
    Theta((1 + sqrt 3)^n) moves (Q(n) ~ 0.79 (2.73)^n).  Each move is handed
    up a chain of ``yield from`` generators up to n deep, so up to n work per
    move: declared "n 2^n", the same per-move class as ``recursive``.  O(n)
    extra space: the chain of n generator frames.

Starting elsewhere
    ``solve(n)`` moves the tower from peg 0 to peg 1 (one step).
    ``solve_for(n, start, goal)`` moves a whole tower from any peg to any
    other (two steps when the goal is one step back).  It refuses
    configurations that are not whole towers.

Quirks and limits
    One Python generator frame per disk: n <= 900, under the interpreter's
    1000-frame recursion limit, as for ``recursive``.

The same recursion in blocks: ``cyclic_blocks``
    Every tower of 11 disks moved one or two steps forward from a given peg
    is the same sequence wherever it occurs in a larger run.  That is
    Q(11) = 49919 or R(11) = 68191 moves, about as many as the classic
    ``blocks``' 65535.  :func:`chunks` follows Atkinson's recursion down to
    11 disks.  It yields those sequences as shared, read-only uint8 arrays
    of shape (m, 3), each built once (from :func:`one_step` and
    :func:`two_steps`) and reused.  The moves of the larger disks come as
    one-row arrays between them.

    The moves are those of ``cyclic``, move for move.  The chunk checker
    tests each array whole with numpy, much faster than replaying it move
    by move.  Theta(1) amortised time per move (one Python step per block).
    O(n) extra space for the generator chain, plus the blocks: at most
    12 * 68191 * 3 bytes whatever n.  Disk numbers are stored in uint8:
    n <= 255.  The block structure is ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

from hanoi_harness.core.puzzle import CYCLIC, tower_peg
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Citation, FinalPeg
from hanoi_harness.registry.sources import register

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Chunk = npt.NDArray[np.uint8]

ATKINSON = Citation(
    author="M. D. Atkinson",
    title="The cyclic Towers of Hanoi",
    site="Information Processing Letters 13(3), pp. 118-119",
    year="1981",
)

Move = tuple[int, int, int]


def one_step(n: int, a: int) -> Iterator[Move]:
    """Yield the moves taking disks 1..n from peg *a* one step forward.

    The tower ends on peg a + 1 (mod 3).

    >>> list(one_step(2, 0))
    [(1, 0, 1), (1, 1, 2), (2, 0, 1), (1, 2, 0), (1, 0, 1)]
    """
    if n == 0:
        return
    yield from two_steps(n - 1, a)
    yield (n, a, (a + 1) % 3)
    yield from two_steps(n - 1, (a + 2) % 3)


def two_steps(n: int, a: int) -> Iterator[Move]:
    """Yield the moves taking disks 1..n from peg *a* two steps forward.

    The tower ends on peg a + 2 (mod 3).

    >>> list(two_steps(1, 2))
    [(1, 2, 0), (1, 0, 1)]
    """
    if n == 0:
        return
    yield from two_steps(n - 1, a)
    yield (n, a, (a + 1) % 3)
    yield from one_step(n - 1, (a + 2) % 3)
    yield (n, (a + 1) % 3, (a + 2) % 3)
    yield from two_steps(n - 1, a)


def _steps(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> tuple[int, int]:
    """Return the tower's peg in *start* and the steps (0-2) on to *goal*.

    The tower is the whole tower of *n* disks.  Either configuration not a
    whole tower (n > 0) raises :class:`UsageError`.
    """
    src, dst = tower_peg(start), tower_peg(goal)
    if n and (src is None or dst is None):
        raise UsageError("cyclic moves whole towers only: the start and the goal must each have every disk on one peg")
    if n == 0 or src is None or dst is None:
        return 0, 0
    return src, (dst - src) % 3


def solve_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """Return the moves taking the tower of n disks from *start* to *goal*.

    The whole tower goes from where *start* has it to where *goal* has it.

    >>> list(solve_for(1, (2,), (1,)))
    [(1, 2, 0), (1, 0, 1)]

    Either configuration not a whole tower raises :class:`UsageError`.
    """
    a, steps = _steps(n, start, goal)
    if steps == 0:
        return iter(())
    return one_step(n, a) if steps == 1 else two_steps(n, a)


@register(
    name="cyclic",
    summary="cyclic variant, moves only 0->1->2->0: the tower one step forward, by Atkinson's recursion",
    source=ATKINSON,
    family="recursive",
    max_n=900,
    max_n_reason="one Python generator frame per disk, under the 1000-frame recursion limit",
    space="n",
    time="n 2^n",
    final_peg=FinalPeg.fixed(1),
    puzzle=CYCLIC,
    solve_for=solve_for,
)
def solve(n: int) -> Iterator[Move]:
    """Return the moves of n disks from peg 0 to peg 1, each one step forward.

    >>> len(list(solve(3)))
    15
    """
    return one_step(n, 0)


BASE = 11
"""Disks in a precomputed block.

Q(11) = 49919 moves one step forward, R(11) = 68191 two steps.
"""


@cache
def _block(n: int, a: int, steps: int) -> Chunk:
    """Return the tower of n <= BASE disks from peg *a*, *steps* steps forward.

    *steps* is 1 or 2; the moves are a read-only uint8 array.
    """
    import numpy as np

    block = np.array(list(one_step(n, a) if steps == 1 else two_steps(n, a)), dtype=np.uint8).reshape(-1, 3)
    block.flags.writeable = False
    return block


def chunks(n: int, a: int, steps: int) -> Iterator[Chunk]:
    """Yield the moves of n disks from peg *a*, *steps* forward, as arrays.

    They are those of :func:`one_step` (*steps* = 1) or :func:`two_steps`
    (2), in uint8 arrays.  Atkinson's recursion runs down to :data:`BASE`
    disks, then one shared block follows.

    >>> [chunk.tolist() for chunk in chunks(1, 2, 2)]
    [[[1, 2, 0], [1, 0, 1]]]
    """
    import numpy as np

    if n <= BASE:
        if n:
            yield _block(n, a, steps)
        return
    b, c = (a + 1) % 3, (a + 2) % 3
    yield from chunks(n - 1, a, 2)
    yield np.array([[n, a, b]], dtype=np.uint8)
    if steps == 1:
        yield from chunks(n - 1, c, 2)
        return
    yield from chunks(n - 1, c, 1)
    yield np.array([[n, b, c]], dtype=np.uint8)
    yield from chunks(n - 1, a, 2)


def solve_blocks_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Chunk]:
    """:func:`solve_for`'s moves as uint8 arrays (:func:`chunks`)."""
    a, steps = _steps(n, start, goal)
    return chunks(n, a, steps) if steps else iter(())


@register(
    name="cyclic_blocks",
    summary="cyclic variant, moves only 0->1->2->0: Atkinson's recursion down to 11 disks, then shared numpy blocks",
    source=ATKINSON,
    family="blocks",
    max_n=255,
    max_n_reason="disk numbers are stored in uint8",
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(1),
    puzzle=CYCLIC,
    chunks=True,
    solve_for=solve_blocks_for,
)
def solve_blocks(n: int) -> Iterator[Chunk]:
    """Return the moves of :func:`solve` as uint8 arrays of shape (m, 3).

    >>> sum(len(chunk) for chunk in solve_blocks(13))
    372607
    """
    return chunks(n, 0, 1)
