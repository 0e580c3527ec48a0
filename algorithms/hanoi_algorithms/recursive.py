"""The classic recursion: n-1 disks aside, disk n, the n-1 back on top.

Sources: Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi Tower problem", CSDN blog, c. 2014;
Derek Illchuk, "The Towers of Hanoi Puzzle: An Iterative Solution", Derek Illchuk's blog, 2010.
"""

from collections.abc import Iterator

from hanoi_harness.registry.record import Citation, FinalPeg
from hanoi_harness.registry.sources import register

QIAO = Citation(
    author="Qiao (qiaoruozhuo)",
    title="A collection of non-recursive algorithms for Hanoi Tower problem",
    site="CSDN blog, blog.csdn.net/qiaoruozhuo",
    year="c. 2014",
)


def hanoi(n: int, a: str, b: str, c: str) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from peg *a* to peg *c* using peg *b*.

    >>> list(hanoi(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]
    """
    if n == 1:
        yield (n, a, c)
    else:
        yield from hanoi(n - 1, a, c, b)
        yield (n, a, c)
        yield from hanoi(n - 1, b, a, c)


@register(
    name="recursive",
    summary="the classic recursion (reference)",
    source=QIAO,
    family="recursive",
    max_n=900,
    max_n_reason="one Python generator frame per disk, under the 1000-frame recursion limit",
    space="n",
    time="n 2^n",
    final_peg=FinalPeg.fixed(2),
    pegs=("A", "B", "C"),
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the optimal moves of *n* disks from A to C; none for *n* = 0.

    >>> list(solve(1)), list(solve(0))
    ([(1, 'A', 'C')], [])
    """
    if n == 0:
        return
    yield from hanoi(n, "A", "B", "C")
