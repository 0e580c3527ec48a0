"""The classic recursion: n-1 disks aside, disk n, the n-1 back on top.

Idea
    ``hanoi(n, a, b, c)`` moves disk 1 directly when n == 1.  Otherwise it
    moves n-1 disks from ``a`` to ``b`` using ``c``, moves disk n from ``a``
    to ``c``, then the n-1 disks from ``b`` to ``c`` using ``a``.  The result
    is the unique optimal sequence of 2^n - 1 moves from peg A to peg C.  It
    is the harness's reference: relative speeds are given against it.

Sources
    Qiao ("Qiao is clumsy", qiaoruozhuo), "A collection of non-recursive
    algorithms for Hanoi Tower problem", CSDN blog, c. 2014: the C function
    ``Hanoi(int n, char A, char B, char C)`` printing ``count: disk A->C``.
    Derek Illchuk, "The Towers of Hanoi Puzzle: An Iterative Solution",
    Derek Illchuk's blog, 2010: the same recursion in pseudocode.

Time and space
    Theta(2^n) moves, O(n) extra space: the call stack, here a chain of up to
    n nested generators.  In C a move costs O(1) amortised.  In this port
    each move is handed up the ``yield from`` chain, one frame per level,
    and the average depth is about n - 1.  So the time is Theta(n 2^n),
    declared so: the benchmark's fit of time per move against n confirms it.

Quirks and limits
    * Both originals stop the recursion at n == 1.  So a call with n == 0
      never reaches a base case: the C version recurses until the stack
      overflows.
      :func:`hanoi` keeps that base case exactly.  :func:`solve`, the entry
      point, answers n == 0 with no moves before calling it: the one line
      that is not in the originals.
    * Pegs are the characters ``'A'``, ``'B'``, ``'C'`` (A -> 0, B -> 1,
      C -> 2); disk 1 is the smallest, as in the originals.
    * Qiao's global ``int count`` only numbers the printed moves; the harness
      numbers moves itself, so the counter is not ported.
    * Every level of the recursion is a Python generator frame, so n is bounded
      by the interpreter's recursion limit (1000 frames): n <= 900 is accepted.
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

    They come as Qiao's ``Hanoi`` prints them.

    >>> list(hanoi(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]

    The base case is *n* == 1, as in the originals: *n* <= 0 recurses until
    :class:`RecursionError`, and so does *n* past the recursion limit
    (about 1000 frames).
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

    >>> list(solve(1))
    [(1, 'A', 'C')]
    >>> list(solve(0))
    []
    """
    if n == 0:
        return
    yield from hanoi(n, "A", "B", "C")
