"""Each move from its step number alone, by its level in the call tree.

Source: Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi Tower problem", CSDN blog: ``Hanoi_4``.
"""

from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

INT_BITS = 32  #: Width of the C ``int`` holding ``m = 1 << n``.

ODD_LEVEL = (("A", "C"), ("C", "B"), ("B", "A"))  #: The moves of odd levels, by k % 3 (the original's ``switch``).

EVEN_LEVEL = (("A", "B"), ("B", "C"), ("C", "A"))  #: The moves of even levels, by k % 3.


def hanoi_4(n: int, first: int = 1) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from A to C, from step *first* on.

    >>> list(hanoi_4(2)), list(hanoi_4(2, 3))
    ([(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')], [(1, 'B', 'C')])
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
    """Yield the moves of *n* disks from step *k* on, as :func:`hanoi_4`.

    >>> list(solve_from(3, 5)) == list(solve(3))[4:]
    True
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
    """Yield the moves of *n* disks from A to C: ``Hanoi_4(n, 'A', 'B', 'C')``.

    >>> list(solve(1)), list(solve(0))
    ([(1, 'A', 'C')], [])
    """
    yield from hanoi_4(n)
