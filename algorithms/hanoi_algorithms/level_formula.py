"""Each move from its step number alone, by its level in the call tree.

Idea
    Step i (1 <= i < 2^n) is node i of the in-order numbered full binary call
    tree.  Its level is n minus the number of trailing zero bits of i, found
    by doubling s from 2 while s divides i.  The disk is n + 1 - level, and
    k = i / s numbers the node within its level.  Along a level the moves
    cycle with period 3: on odd levels A->C, C->B, B->A; on even levels
    A->B, B->C, C->A.  No stack and no array: each move comes from i alone.
    So ``solve_from(n, k)`` is the same loop started at i = k.

Source
    Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi
    Tower problem", CSDN blog, blog.csdn.net/qiaoruozhuo, c. 2014: the C
    function ``Hanoi_4``.

Time and space
    Theta(2^n) time: the level search takes 1 + (trailing zeros of i)
    divisions, O(1) amortised per move; O(1) extra space.

Quirks and limits
    * The bound ``int m = 1 << n`` is computed first, in a 32-bit int.
      n = 30 gives 2^30, but n = 31 overflows it: 1 << 31 is undefined
      behaviour in C, in practice INT_MIN, so the loop would not run.  And
      n >= 32 shifts past the width of int.  The port refuses n >= 31 up
      front with :class:`OverflowError`, as the overflow happens before any
      move.  n < 0 (a negative shift, also undefined) is refused with
      :class:`ValueError`.
    * n = 0 gives m = 1 and an empty loop: no moves, the correct empty
      solution, so n = 0 is accepted.
    * The moves are printed from string literals ("A-C" ...), not from
      parameters; the port yields the same letters ``'A'``, ``'B'``, ``'C'``.
      Disk 1 is the smallest.
"""

from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

INT_BITS = 32
"""Width of the C ``int`` holding ``m = 1 << n``."""

ODD_LEVEL = (("A", "C"), ("C", "B"), ("B", "A"))
"""The moves of odd levels, by k % 3 (the original's ``switch``)."""

EVEN_LEVEL = (("A", "B"), ("B", "C"), ("C", "A"))
"""The moves of even levels, by k % 3."""


def hanoi_4(n: int, first: int = 1) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from A to C, from step *first* on.

    Each move is found from its step number alone.  *first* is where the
    loop over i starts; the original's is 1.  Any other gives the moves from
    step *first* on, since each depends on i alone.

    >>> list(hanoi_4(2))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]
    >>> list(hanoi_4(2, 3))
    [(1, 'B', 'C')]

    *n* = 0, or a *first* past 2^n - 1, yields nothing.  Raises
    :class:`ValueError` for *n* < 0 (a negative shift) or *first* < 1, and
    :class:`OverflowError` for *n* >= 31, where ``int m = 1 << n``
    overflows.
    """
    if n < 0:
        raise ValueError(f"level_formula: 1 << n with n = {n} is a negative shift, undefined in C")
    if n >= INT_BITS - 1:
        raise OverflowError(f"level_formula: int m = 1 << n overflows a {INT_BITS}-bit int for n = {n} (n <= 30 fits)")
    if first < 1:
        raise ValueError(f"level_formula: the first step is i = 1, got {first}")
    m = 1 << n
    for i in range(first, m):
        s = 2
        level = n
        while i % s == 0:  # find the level of node i
            level -= 1
            s <<= 1
        k = i // s  # node i is the (k+1)-th of its level
        disk = n + 1 - level
        if level & 1:  # odd level
            src, dst = ODD_LEVEL[k % 3]
        else:  # even level
            src, dst = EVEN_LEVEL[k % 3]
        yield (disk, src, dst)


def solve_from(n: int, k: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from step *k* on.

    This is the original's loop started at i = *k*.

    >>> list(solve_from(3, 5)) == list(solve(3))[4:]
    True

    Errors as for :func:`hanoi_4`.
    """
    yield from hanoi_4(n, k)


@register(
    name="level_formula",
    summary="Qiao's Hanoi_4: each move from its step number via its level in the call tree",
    source=QIAO,
    family="formula",
    max_n=30,
    max_n_reason="int m = 1 << n overflows a 32-bit int at n = 31",
    space="1",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    pegs=("A", "B", "C"),
    disks="ascending",
    solve_from=solve_from,
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from A to C, as ``Hanoi_4`` prints them.

    The call is Qiao's ``Hanoi_4(n, 'A', 'B', 'C')``.

    >>> list(solve(1))
    [(1, 'A', 'C')]
    >>> list(solve(0))
    []
    """
    yield from hanoi_4(n)
