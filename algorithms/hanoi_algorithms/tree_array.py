"""The whole call tree stored in an array, then walked in order on a stack.

Idea
    The 2^n - 1 moves are the nodes of a full binary tree of height n.  The
    root moves disk n from A to C.  A node ``{num, x, y, z}`` has the left
    child ``{num-1, x, z, y}`` (the first recursive call) and the right
    child ``{num-1, y, x, z}`` (the second).  The tree is stored heap-style
    in an array, children of node i at 2i and 2i+1, filled top-down.  An
    iterative in-order walk with a stack of indices then outputs each
    node's move.

Source
    Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi
    Tower problem", CSDN blog, blog.csdn.net/qiaoruozhuo, c. 2014: the C
    function ``Hanoi_3``, which the author notes needs "too much auxiliary
    space".

Time and space
    Theta(2^n) time (building, then walking, the 2^n - 1 nodes); Theta(2^n)
    extra space, the node array (plus an index stack of at most n entries).

Quirks and limits
    * The tree is the static array ``struct act BT[132000]`` ("assuming
      n <= 17"): n = 17 uses BT[1..131071].  n = 18 would fill up to
      BT[262143].  The port raises :class:`OverflowError` at the first write
      past the array, BT[132000] (while filling the children of node 66000).
    * The array grows as nodes are written instead of being preallocated.
      The untouched pages of a C static array are never resident, so the
      original's resident memory grows with the 2^n nodes written, and so
      does the port's.  The fixed capacity of 132000 is still enforced.
      Slot 0 is unused, as in the original, so n >= 1 leaves 2^n slots.
    * The index stack is ``int S[MAX]`` with ``MAX`` undefined in the post;
      the port takes MAX = 64 (the legend's 64 disks).  The walk pushes at
      most n indices, so the 132000-node limit is the binding one.
    * ``n = pow(2, n-1)`` is a double stored in an int.  For n = 0 it is
      0.5, truncated to 0, so no node is filled (the root BT[1] is still
      written).  The walk bound ``n += n`` is 0 and the walk never starts.
      No moves is the correct empty solution, so n = 0 is accepted.
    * Pegs are the characters ``'A'``, ``'B'``, ``'C'``; disk 1 is the
      smallest.  The move counter ``count`` is not ported.
"""

import math
from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

CAPACITY = 132000
"""Slots in the original's ``struct act BT[132000]`` (slot 0 unused)."""

MAX = 64
"""The index stack's size, undefined in the original.

64 is the legend's number of disks.
"""


class Act:
    """One tree node of the original: ``struct act {int num; char x, y, z;}``."""

    __slots__ = ("num", "x", "y", "z")

    def __init__(self) -> None:
        self.num = 0
        self.x = ""
        self.y = ""
        self.z = ""


def _node(bt: list[Act], index: int) -> Act:
    """Return slot *index* of the node array *bt* for writing.

    *bt* grows up to it on a first write.

    >>> bt: list[Act] = [Act()]
    >>> _node(bt, 1).num, len(bt)
    (0, 2)

    Raises :class:`OverflowError` for *index* >= 132000, past the end of
    the original's ``BT[132000]``.
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

    The tree moves *n* disks from *a* to *c* via *b*.  Returns BT with the
    C variable n after ``n = pow(2, n-1)``.  That is 2^(n-1), truncated to
    0 for *n* = 0: one past the last node whose children are filled.

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

    They come as ``Hanoi_3`` walks its stored call tree.

    >>> list(hanoi_3(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]

    *n* <= 0 yields nothing.  Raises :class:`OverflowError` for *n* >= 18
    while the tree is built, before any move: it writes past
    ``BT[132000]``.
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
    """Yield the moves of *n* disks from A to C, as ``Hanoi_3`` prints them.

    The call is Qiao's ``Hanoi_3(n, 'A', 'B', 'C')``.

    >>> list(solve(1))
    [(1, 'A', 'C')]
    >>> list(solve(0))
    []
    """
    yield from hanoi_3(n, "A", "B", "C")
