"""The cyclic Tower of Hanoi: every move one step round 0 -> 1 -> 2 -> 0.

Source: M. D. Atkinson, "The cyclic Towers of Hanoi", Information Processing Letters 13(3), 1981.
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
    """Yield the moves of disks 1..n from peg *a* to peg a + 1 (mod 3).

    >>> list(one_step(2, 0))
    [(1, 0, 1), (1, 1, 2), (2, 0, 1), (1, 2, 0), (1, 0, 1)]
    """
    if n == 0:
        return
    yield from two_steps(n - 1, a)
    yield (n, a, (a + 1) % 3)
    yield from two_steps(n - 1, (a + 2) % 3)


def two_steps(n: int, a: int) -> Iterator[Move]:
    """Yield the moves of disks 1..n from peg *a* to peg a + 2 (mod 3).

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
    """Return the tower's peg in *start* and the steps (0-2) to *goal*."""
    src, dst = tower_peg(start), tower_peg(goal)
    if n and (src is None or dst is None):
        raise UsageError("cyclic moves whole towers only: the start and the goal must each have every disk on one peg")
    if n == 0 or src is None or dst is None:
        return 0, 0
    return src, (dst - src) % 3


def solve_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """Return the moves of the tower of n disks from *start* to *goal*.

    >>> list(solve_for(1, (2,), (1,)))
    [(1, 2, 0), (1, 0, 1)]
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


BASE = 11  #: Disks in a block: Q(11) = 49919 moves one step forward, R(11) = 68191 two.


@cache
def _block(n: int, a: int, steps: int) -> Chunk:
    """Return n <= BASE disks from *a*, *steps* forward, as an array."""
    import numpy as np

    block = np.array(list(one_step(n, a) if steps == 1 else two_steps(n, a)), dtype=np.uint8).reshape(-1, 3)
    block.flags.writeable = False
    return block


def chunks(n: int, a: int, steps: int) -> Iterator[Chunk]:
    """Yield :func:`one_step` (*steps* 1) or :func:`two_steps` as arrays.

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
