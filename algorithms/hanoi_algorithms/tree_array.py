"""The whole call tree stored in an array, then walked in order on a stack.

Source: Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi Tower problem", CSDN blog: ``Hanoi_3``.
"""

import math
from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

CAPACITY = 132000  #: Slots in the original's ``struct act BT[132000]`` (slot 0 unused).

MAX = 64  #: The index stack's size, undefined in the original: 64, the legend's disks.


class Act:
    """One tree node of the original: ``struct act {int num; char x, y, z;}``."""

    __slots__ = ("num", "x", "y", "z")

    def __init__(self) -> None:
        self.num = 0
        self.x = ""
        self.y = ""
        self.z = ""


def _node(bt: list[Act], index: int) -> Act:
    """Return slot *index* of the node array *bt* for writing, grown up to it.

    >>> bt: list[Act] = [Act()]
    >>> _node(bt, 1).num, len(bt)
    (0, 2)
    """
    if index >= CAPACITY:
        raise OverflowError(
            f"tree_array: the {CAPACITY}-node array BT[{CAPACITY}] overflows at BT[{index}]; "
            f"it holds the 2^n - 1 nodes only for n <= 17"
        )
    while len(bt) <= index:  # first write to this slot: it becomes resident
        bt.append(Act())
    return bt[index]


def build_tree(n: int, a: str, b: str, c: str) -> tuple[list[Act], int]:
    """Build the node array BT of the call tree, as ``Hanoi_3`` fills it.

    Returns BT and the C variable n after ``n = pow(2, n-1)``: one past the last node whose children are filled.

    >>> bt, half = build_tree(2, "A", "B", "C")
    >>> len(bt), half, [(t.num, t.x, t.z) for t in bt[1:]]
    (4, 2, [(2, 'A', 'C'), (1, 'A', 'B'), (1, 'B', 'C')])
    """
    bt: list[Act] = []
    root = _node(bt, 1)  # the root node
    root.num = n
    root.x = a
    root.y = b
    root.z = c
    n = int(math.pow(2, n - 1))  # a double truncated to int: 0 for n = 0
    for i in range(1, n):  # fill the left and right children of node i
        parent = bt[i]
        left = _node(bt, i + i)
        right = _node(bt, i + i + 1)
        left.num = right.num = parent.num - 1
        left.x = right.y = parent.x
        left.z = right.x = parent.y
        left.y = right.z = parent.z
    return bt, n


def hanoi_3(n: int, a: str, b: str, c: str) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from peg *a* to peg *c* via *b*.

    >>> list(hanoi_3(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]
    """
    bt, n = build_tree(n, a, b, c)
    s = [0] * MAX
    n += n  # in-order walk of the full binary tree BT[1 .. n-1]
    i = 1
    top = -1
    while i < n or top >= 0:
        if i < n:  # push, and search the left child
            top += 1
            if top >= MAX:
                raise OverflowError(f"tree_array: the index stack S[MAX] (MAX taken as {MAX}) overflows")
            s[top] = i
            i += i
        else:  # pop, output, and search the right child
            i = s[top]
            top -= 1
            yield (bt[i].num, bt[i].x, bt[i].z)
            i += i + 1


@register(
    name="tree_array",
    summary="Qiao's Hanoi_3: the full call tree in a 132000-node array, walked in order",
    source=QIAO,
    family="tree",
    max_n=17,
    max_n_reason="BT[132000]: the tree's 2^n - 1 nodes fit only for n <= 17 (n = 18 writes BT[132000])",
    space="2^n",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    pegs=("A", "B", "C"),
    disks="ascending",
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from A to C: ``Hanoi_3(n, 'A', 'B', 'C')``.

    >>> list(solve(1)), list(solve(0))
    ([(1, 'A', 'C')], [])
    """
    yield from hanoi_3(n, "A", "B", "C")
