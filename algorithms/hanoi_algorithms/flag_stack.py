"""The recursion simulated on an explicit stack of flagged "act" records.

Source: Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi Tower problem", CSDN blog: ``Hanoi_1``.
"""

from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

CAPACITY = 2000  #: Slots in the original's ``struct Act S[2000]``.


class Act:
    """One stack record: ``struct Act {int flag, num; char x, y, z;}``."""

    __slots__ = ("flag", "num", "x", "y", "z")

    def __init__(self) -> None:
        # A C automatic array is uninitialised; these are just placeholders.
        self.flag = 0
        self.num = 0
        self.x = ""
        self.y = ""
        self.z = ""


def _slot(s: list[Act], top: int, num: int) -> Act:
    """Return slot *top* of the act stack *s* for writing, appended if new.

    >>> s = [Act()]
    >>> _slot(s, 1, 2) is s[1]
    True
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

    >>> list(hanoi_1(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]
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
    """Yield the moves of *n* disks from A to C: ``Hanoi_1(n, 'A', 'B', 'C')``.

    >>> list(solve(1))
    [(1, 'A', 'C')]
    """
    yield from hanoi_1(n, "A", "B", "C")
