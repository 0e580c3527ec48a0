"""The recursion simulated on an explicit stack of flagged "act" records.

Idea
    Each record ``{flag, num, x, y, z}`` is a pending operation: move disk
    ``num`` directly from ``x`` to ``z`` when ``flag == 0``, otherwise move
    ``num`` disks from ``x`` to ``z`` via ``y``.  The top record is either
    executed (flag 0, or a single disk) and popped, or decomposed in place.
    Decomposing pushes the three operations of the recursion in reverse
    order.  The second recursive call overwrites the top, then comes the
    direct move of disk ``num``, then the first recursive call, which
    becomes the new top.

Source
    Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi
    Tower problem", CSDN blog, blog.csdn.net/qiaoruozhuo, c. 2014: the C
    function ``Hanoi_1``, Qiao's simplification of a method from Li Chunbao's
    exercise book on data structures.

Time and space
    Theta(2^n) time, O(1) per move amortised; O(n) extra space: the stack
    reaches top = 2(n - 1), i.e. 2n - 1 live records.  The array holds the
    original's 2000 slots at most, but grows as each slot is first written.
    The untouched pages of a C array are never resident either.  So the
    memory measured grows with the 2n - 1 slots used (12 bytes a slot in C:
    two ints and three chars, padded to a multiple of 4).

Quirks and limits
    * The stack is the fixed array ``struct Act S[2000]``.  Its top reaches
      index 2(n - 1), so n <= 1000 fits (top 1998) and n = 1001 would write
      slot 2000: the port raises :class:`OverflowError` at that write, before
      any move (the first move needs the full descent).
    * The base case is ``num == 1``, so n = 0 never reaches it: the records
      decompose into num = -1, -2, ... until the stack overflows.  The port
      raises at that same write to slot 2000; the registry declares n >= 1.
    * Decomposing overwrites the top record but not its ``flag`` (it is
      already 1).  The direct-move record pushed next gets ``flag``,
      ``num``, ``x`` and ``z`` only: its ``y`` is stale (whatever the slot
      held).  That is harmless, since a direct move never reads ``y``.
    * Pegs are the characters ``'A'``, ``'B'``, ``'C'``; disk 1 is the
      smallest.  The global move counter ``count`` is not ported (the harness
      numbers moves).
"""

from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

CAPACITY = 2000
"""Slots in the original's ``struct Act S[2000]``."""


class Act:
    """One stack record of the original.

    In C: ``struct Act {int flag, num; char x, y, z;}``.
    """

    __slots__ = ("flag", "num", "x", "y", "z")

    def __init__(self) -> None:
        # A C automatic array is uninitialised; these are just placeholders.
        self.flag = 0
        self.num = 0
        self.x = ""
        self.y = ""
        self.z = ""


def _slot(s: list[Act], top: int, num: int) -> Act:
    """Return slot *top* of the act stack *s* for writing.

    The slot is appended on its first write.

    >>> s = [Act()]
    >>> _slot(s, 1, 2) is s[1]
    True

    Raises :class:`OverflowError` where the C code would write past
    ``S[2000]``, at *top* = 2000; *num*, the record being decomposed, goes
    into the message.
    """
    if top >= CAPACITY:  # S[2000]: top 1999 is the last slot
        raise OverflowError(
            f"flag_stack: the {CAPACITY}-slot act stack S[{CAPACITY}] overflows "
            f"(write to slot {top} while decomposing num = {num}); it fits n <= 1000, "
            "and n <= 0 never reaches the base case num == 1"
        )
    if top == len(s):  # first write to this slot
        s.append(Act())
    return s[top]


def hanoi_1(n: int, a: str, b: str, c: str) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from peg *a* to peg *c* via *b*.

    They are made as ``Hanoi_1`` makes them, on its flagged act stack.

    >>> list(hanoi_1(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]

    Raises :class:`OverflowError`, before any move, when the stack
    overflows ``S[2000]``: for *n* > 1000, and for *n* < 1, which never
    reaches the base case num == 1.
    """
    s = [Act()]  # S[2000], grown slot by slot up to its 2000 slots (see _slot)
    s[0].flag = 1  # the initial operation goes on the stack
    s[0].num = n
    s[0].x = a
    s[0].y = b
    s[0].z = c
    top = 0
    while top >= 0:
        if s[top].flag == 0 or s[top].num == 1:  # move disk num from x directly to z
            yield (s[top].num, s[top].x, s[top].z)
            top -= 1
        else:  # read the top record
            m = s[top].num
            ta = s[top].x
            tb = s[top].y
            tc = s[top].z
            # Hanoi(m-1, B, A, C) overwrites the top (its flag stays 1)
            s[top].num = m - 1
            s[top].x = tb
            s[top].y = ta
            s[top].z = tc
            top += 1
            # move disk m from A to C (y is not set: stale)
            rec = _slot(s, top, m)
            rec.flag = 0
            rec.num = m
            rec.x = ta
            rec.z = tc
            top += 1
            # Hanoi(m-1, A, C, B) becomes the new top
            rec = _slot(s, top, m)
            rec.flag = 1
            rec.num = m - 1
            rec.x = ta
            rec.y = tc
            rec.z = tb


@register(
    name="flag_stack",
    summary="Qiao's Hanoi_1: the recursion on a 2000-slot stack of flagged act records",
    source=QIAO,
    family="stack",
    min_n=1,
    min_n_reason="the base case is num == 1; n = 0 decomposes into num = -1, -2, ... until S[2000] overflows",
    max_n=1000,
    max_n_reason="S[2000]: the 2000-slot act stack reaches top 2(n-1) and overflows at n = 1001",
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    pegs=("A", "B", "C"),
    disks="ascending",
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from A to C, as ``Hanoi_1`` prints them.

    The call is Qiao's ``Hanoi_1(n, 'A', 'B', 'C')``.

    >>> list(solve(1))
    [(1, 'A', 'C')]

    Raises :class:`OverflowError` for *n* > 1000 and for *n* < 1, as
    :func:`hanoi_1` does.
    """
    yield from hanoi_1(n, "A", "B", "C")
