"""The recursion as an in-order walk of its call tree, with a stack.

Idea
    The calls of the recursion form a full binary tree whose in-order
    traversal is the move sequence.  The loop walks it like the classic
    non-recursive in-order traversal.  While n > 0 it pushes the current
    call ``{n, a, b, c}`` and descends to the left child ``(n-1, a, c, b)``.
    When n reaches 0 it pops a call and outputs its move (disk ``num`` from
    ``x`` to ``z``).  Then it turns to the right child ``(num-1, y, x, z)``.

Source
    Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi
    Tower problem", CSDN blog, blog.csdn.net/qiaoruozhuo, c. 2014: the C
    function ``hanoi_2``.

Time and space
    Theta(2^n) time, O(1) per move amortised; O(n) extra space: at most n
    records are on the stack (num = n, n-1, ..., 1).  The array grows as its
    slots are first written, up to MAX, so the memory measured is that of the
    records in use, as in the flag_stack and tree_array ports.

Quirks and limits
    * The stack is ``struct Act {int num; char x, y, z;} S[MAX]``, but the
      post never defines ``MAX``.  The port takes MAX = 64, the legend's 64
      disks.  The stack holds at most n records, so n <= 64 fits and n = 65
      would write slot 64: the port raises :class:`OverflowError` at that
      push.
    * n = 0 (or less) never enters the loop: no moves, which is the correct
      empty solution, so n = 0 is accepted.
    * The function's parameters ``a``, ``b``, ``c`` are reused as the current
      call's pegs, as in the original.
    * Pegs are the characters ``'A'``, ``'B'``, ``'C'``; disk 1 is the
      smallest.  The move counter ``count`` is not ported.
"""

from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

MAX = 64
"""``MAX`` is undefined in the original; 64 is the legend's number of disks."""


class Act:
    """One stack record of the original.

    In C: ``struct Act {int num; char x, y, z;}``.
    """

    __slots__ = ("num", "x", "y", "z")

    def __init__(self) -> None:
        self.num = 0
        self.x = ""
        self.y = ""
        self.z = ""


def hanoi_2(n: int, a: str, b: str, c: str) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from peg *a* to peg *c* via *b*.

    They are made as ``hanoi_2`` makes them, by an in-order walk.

    >>> list(hanoi_2(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]

    *n* <= 0 yields nothing.  Raises :class:`OverflowError`, before any
    move, for *n* > 64: the push to slot 64 overflows ``S[MAX]`` (MAX taken
    as 64).
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
    """Yield the moves of *n* disks from A to C, as ``hanoi_2`` prints them.

    The call is Qiao's ``hanoi_2(n, 'A', 'B', 'C')``.

    >>> list(solve(1))
    [(1, 'A', 'C')]
    >>> list(solve(0))
    []
    """
    yield from hanoi_2(n, "A", "B", "C")
