"""The cyclic Tower of Hanoi: every move goes one step forward round 0 -> 1 -> 2 -> 0.

Idea
    With moves allowed only forward round the cycle, moving a tower one step
    forward and moving it two steps forward are different problems, and each
    solves the other's smaller cases:

    * one step, a -> a+1: the n-1 smaller disks two steps (a -> a+2), the
      largest one step, the n-1 two steps again (a+2 -> a+1);
    * two steps, a -> a+2: the n-1 two steps (a -> a+2), the largest one
      step (a -> a+1), the n-1 one step (a+2 -> a, out of its way), the
      largest its second step (a+1 -> a+2), the n-1 two steps (a -> a+2).

    Hence Q(n) = 2 R(n-1) + 1 and R(n) = 2 R(n-1) + Q(n-1) + 2 moves:
    1, 5, 15, 43, 119, ... one step and 2, 7, 21, 59, 163, ... two steps,
    both optimal (the largest disk's moves are forced, and so, by induction,
    are the smaller towers').

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
    ``solve(n)`` moves the tower from peg 0 to peg 1 (one step);
    ``solve_for(n, start, goal)`` moves a whole tower from any peg to any
    other (two steps when the goal is one step back), and refuses
    configurations that are not whole towers.

Quirks and limits
    One Python generator frame per disk: n <= 900, under the interpreter's
    1000-frame recursion limit, as for ``recursive``.
"""

from collections.abc import Iterator

from hanoi_harness.errors import UsageError
from hanoi_harness.puzzle import CYCLIC, tower_peg
from hanoi_harness.registry import Citation, FinalPeg, register

ATKINSON = Citation(
    author="M. D. Atkinson",
    title="The cyclic Towers of Hanoi",
    site="Information Processing Letters 13(3), pp. 118-119",
    year="1981",
)

Move = tuple[int, int, int]


def one_step(n: int, a: int) -> Iterator[Move]:
    """The moves taking the tower of disks 1..n from peg *a* one step forward, to peg a + 1 (mod 3).

    >>> list(one_step(2, 0))
    [(1, 0, 1), (1, 1, 2), (2, 0, 1), (1, 2, 0), (1, 0, 1)]
    """
    if n == 0:
        return
    yield from two_steps(n - 1, a)
    yield (n, a, (a + 1) % 3)
    yield from two_steps(n - 1, (a + 2) % 3)


def two_steps(n: int, a: int) -> Iterator[Move]:
    """The moves taking the tower of disks 1..n from peg *a* two steps forward, to peg a + 2 (mod 3).

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


def solve_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """The moves taking the whole tower of n disks from where *start* has it to where *goal* has it.

    >>> list(solve_for(1, (2,), (1,)))
    [(1, 2, 0), (1, 0, 1)]

    Either configuration not a whole tower raises :class:`UsageError`.
    """
    src, dst = tower_peg(start), tower_peg(goal)
    if n and (src is None or dst is None):
        raise UsageError("cyclic moves whole towers only: the start and the goal must each have every disk on one peg")
    if n == 0 or src == dst:
        return iter(())
    assert src is not None and dst is not None
    return one_step(n, src) if (dst - src) % 3 == 1 else two_steps(n, src)


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
    """The tower of n disks from peg 0 to peg 1, every move one step forward.

    >>> len(list(solve(3)))
    15
    """
    return one_step(n, 0)
