"""Bit tricks on the move number x give each move's disk and pegs.

Source: Derek Illchuk, "The Towers of Hanoi Puzzle: An Iterative Solution", Derek Illchuk's blog, 2010.
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

MAX_N = INT_BITS - 2


def solve_from(n: int, k: int) -> Iterator[tuple[int, int, int]]:
    """Yield moves *k* .. 2^n - 1 of *n* disks: the loop from x = *k*.

    >>> list(solve_from(3, 5)) == list(solve(3))[4:], list(solve_from(2, 4))
    (True, [])
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
    """Yield the 2^n - 1 moves ``(disk, fr, to)`` of *n* disks, from peg 0.

    >>> list(solve(2)), list(solve(0))
    ([(1, 0, 2), (2, 0, 1), (1, 2, 1)], [])
    """
    yield from solve_from(n, 1)
