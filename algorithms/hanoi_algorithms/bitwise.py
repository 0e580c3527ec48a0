"""Bit tricks on the move number x give each move's disk and pegs.

Move x goes from peg (x & x-1) mod 3 to peg ((x | x-1) + 1) mod 3.

Idea
    Number the moves x = 1 .. 2^N - 1.  Move x moves the disk whose number
    is one more than the count of trailing zero bits of x (disk 1, the
    smallest, on every odd x).  Clearing the lowest set bit of x
    (``x & x-1``) and carrying past it (``(x | x-1) + 1``) give two numbers
    whose residues mod 3 are the source and destination pegs.  The original
    takes "mod 3" with the shortcut ``(i + i/3) & 3``: with i = 3q + r,
    i + q = 4q + r, whose two low bits are r.  No state is kept between
    moves; each move is computed from x alone.

Source
    Derek Illchuk, "The Towers of Hanoi Puzzle: An Iterative Solution",
    Derek Illchuk's blog, 2010: the C function ``void hanoi(void)`` quoted
    at the end of the post as an example of a quicker iterative solution.

Time and space
    Theta(2^n) time: the loop finding the disk runs 1 + (trailing zeros of
    x) times, 2 on average over all x, at most n.  O(1) extra space.

Starting at any step
    Each move comes from x alone, so ``solve_from(n, k)`` is the same loop
    with x starting at k instead of 1, and ``solve(n)`` is
    ``solve_from(n, 1)``: chunked verification can split the steps.

Quirks and limits
    * The original computes ``fr``, ``to`` and the disk ``j`` and prints
      nothing; this port yields ``(j, fr, to)`` where the loop body ends.
    * Pegs are the numbers 0, 1, 2 and disk 1 is the smallest, as in the
      original.  Disk 1 first moves from 0 to 2, so the tower ends on peg 2
      when n is odd and on peg 1 when n is even (it is never told where to
      go; the original has no destination parameter).
    * ``N`` is a C ``int`` and so is ``1 << N``: for N = 31 the shift reaches
      the sign bit (undefined behaviour; in practice INT_MIN, and the loop
      ``x < (1 << N)`` never runs).  Hence n <= 30; n >= 31 is refused with
      :class:`OverflowError`.
    * ``i`` is ``unsigned int`` (32 bits).  For n <= 30 the largest value it
      takes is 2^30 (at x = 2^29 .. 2^30 - 1), and ``i + i/3`` stays below
      2^31, so nothing ever wraps and no masking is needed.  Even a wrap would
      not matter: 2^32 is a multiple of 4, so ``(i + i/3) & 3`` equals i mod 3
      for every 32-bit i.
"""

from collections.abc import Iterator

from hanoi_harness.registry.record import Citation, FinalPeg
from hanoi_harness.registry.sources import register

ILLCHUK = Citation(
    author="Derek Illchuk",
    title="The Towers of Hanoi Puzzle: An Iterative Solution",
    site="Derek Illchuk's blog",
    year="2010",
)

INT_BITS = 32
"""C ``int`` width: ``1 << N`` overflows at N = INT_BITS - 1."""

MAX_N = INT_BITS - 2


def solve_from(n: int, k: int) -> Iterator[tuple[int, int, int]]:
    """Yield moves *k* .. 2^n - 1 of *n* disks, each from its number x alone.

    This is the original's loop started at x = *k* instead of 1: the loop
    keeps no state between moves, so nothing else changes (:func:`solve` is
    *k* = 1).

    >>> list(solve_from(3, 5)) == list(solve(3))[4:]
    True
    >>> list(solve_from(2, 4))
    []

    A *k* past 2^n - 1 yields nothing.  Raises :class:`ValueError` for
    *n* < 0 or *k* < 1, and :class:`OverflowError` for *n* > 30, where
    ``1 << N`` overflows the C ``int``.
    """
    if n < 0:
        raise ValueError(f"bitwise: n must be >= 0, got {n}")
    if n > MAX_N:
        raise OverflowError(f"bitwise: 1 << N overflows the 32-bit C int at N = {MAX_N + 1} (n = {n}); n <= {MAX_N}")
    if k < 1:
        raise ValueError(f"bitwise: the first move is x = 1, got {k}")
    for x in range(k, 1 << n):
        i = (x | x - 1) + 1
        to = (i + i // 3) & 3
        i = x & x - 1
        fr = (i + i // 3) & 3
        i = x
        j = 1
        while not i & 1:
            i >>= 1
            j += 1
        yield (j, fr, to)


@register(
    name="bitwise",
    summary="bit tricks on the move number x: from (x&x-1)%3 to ((x|x-1)+1)%3",
    source=ILLCHUK,
    family="formula",
    max_n=MAX_N,
    max_n_reason="1 << N is a 32-bit C int: it overflows at N = 31",
    space="1",
    time="2^n",
    final_peg=FinalPeg(odd=2, even=1),
    pegs=(0, 1, 2),
    solve_from=solve_from,
)
def solve(n: int) -> Iterator[tuple[int, int, int]]:
    """Yield the 2^n - 1 moves of *n* disks as Illchuk's ``hanoi`` finds them.

    Each move is ``(disk, fr, to)``.  The tower starts on peg 0 and ends on
    peg 2 when *n* is odd, on peg 1 when it is even.

    >>> list(solve(2))
    [(1, 0, 2), (2, 0, 1), (1, 2, 1)]
    >>> list(solve(0))
    []
    """
    yield from solve_from(n, 1)
