"""The recursion as an in-order walk of its call tree, with a stack.

Source: Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi Tower problem", CSDN blog: ``hanoi_2``.
"""

from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

MAX = 64  #: ``MAX`` is undefined in the original; 64 is the legend's number of disks.


class Act:
    """One stack record: ``struct Act {int num; char x, y, z;}``."""

    __slots__ = ("num", "x", "y", "z")

    def __init__(self) -> None:
        self.num = 0
        self.x = ""
        self.y = ""
        self.z = ""


def hanoi_2(n: int, a: str, b: str, c: str) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from peg *a* to peg *c* via *b*, in order.

    >>> list(hanoi_2(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]
    """
    s: list[Act] = []  # S[MAX], grown as slots are first written (never past MAX)
    top = -1
    while n > 0 or top >= 0:
        if n > 0:  # push the call and descend to its left child, Hanoi(n-1, A, C, B)
            top += 1
            if top >= MAX:
                raise OverflowError(
                    f"inorder_stack: the stack S[MAX] (MAX taken as {MAX}) overflows at slot {top}; "
                    f"it holds n records, so n <= {MAX}"
                )
            if top == len(s):
                s.append(Act())
            s[top].num = n
            n -= 1
            s[top].x = a
            s[top].y = b
            s[top].z = c
            a = s[top].x
            b = s[top].z
            c = s[top].y
        else:  # output, pop and turn to the right child, Hanoi(n-1, B, A, C)
            yield (s[top].num, s[top].x, s[top].z)
            n = s[top].num - 1
            a = s[top].y
            b = s[top].x
            c = s[top].z
            top -= 1


@register(
    name="inorder_stack",
    summary="Qiao's hanoi_2: in-order walk of the call tree with an explicit stack",
    source=QIAO,
    family="stack",
    max_n=MAX,
    max_n_reason="S[MAX] holds n records; MAX is undefined in the source, taken as 64 (the legend's disks)",
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    pegs=("A", "B", "C"),
    disks="ascending",
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from A to C: ``hanoi_2(n, 'A', 'B', 'C')``.

    >>> list(solve(1)), list(solve(0))
    ([(1, 'A', 'C')], [])
    """
    yield from hanoi_2(n, "A", "B", "C")
