"""The two-step rule: disk 1 clockwise, then the only other legal move.

Source: Qiao (qiaoruozhuo), "A collection of non-recursive algorithms for Hanoi Tower problem", CSDN blog: ``Hanoi_5``.
"""

import math
from collections.abc import Iterator

from hanoi_algorithms.recursive import QIAO
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register

MAX = 64  #: ``MAX``, each pillar's capacity, is undefined in the original: 64, the legend's disks.

INT_MAX = 2**31 - 1  #: The largest 32-bit C ``int``: the move count ``pow(2, n) - 1`` must fit.


class Pillar:
    """One pillar: ``struct pillars {int S[MAX], top; char pos;}``."""

    __slots__ = ("pos", "s", "top")

    def __init__(self) -> None:
        self.s: list[int] = []  # S[MAX], grown as slots are first written (see store)
        self.top = 0
        self.pos = ""


def store(pillar: Pillar, index: int, disk: int) -> None:
    """Write *disk* to slot *index* of *pillar*'s array: ``S[index] = disk``.

    >>> p = Pillar()
    >>> store(p, 0, 5); store(p, 0, 4); p.s
    [4]
    """
    if index >= MAX:
        raise OverflowError(f"clockwise_pillars: pillar S[MAX] (MAX taken as {MAX}) has no slot {index}")
    if index == len(pillar.s):
        pillar.s.append(disk)
    else:
        pillar.s[index] = disk


def hanoi_5(n: int, a: str, b: str, c: str) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from peg *a* to *c* by the two-step rule.

    >>> list(hanoi_5(2, "A", "B", "C"))
    [(1, 'A', 'B'), (2, 'A', 'C'), (1, 'B', 'C')]
    """
    if n > INT_MAX.bit_length():  # 2^n - 1 > INT_MAX exactly when n > 31
        raise OverflowError(
            f"clockwise_pillars: the move count pow(2, n) - 1 overflows a 32-bit int for n = {n} (n <= 31 fits)"
        )
    if n > MAX:
        raise OverflowError(f"clockwise_pillars: pillar S[MAX] (MAX taken as {MAX}) cannot hold {n} disks")
    p = [Pillar() for _ in range(3)]
    for i in range(n):
        store(p[0], i, n - i)
    p[0].pos = a
    p[0].top = n - 2  # disk 1 is not in the stack
    p[1].top = p[2].top = -1
    if n % 2 == 0:
        p[1].pos = b
        p[2].pos = c
    else:
        p[1].pos = c
        p[2].pos = b
    n = int(math.pow(2, n) - 1)  # the number of moves, truncated towards zero like a C conversion
    count = i = 0
    while count < n:
        count += 1
        yield (1, p[i % 3].pos, p[(i + 1) % 3].pos)  # disk 1 clockwise to the next pillar
        if count == n:
            break
        i += 1
        nxt = (i + 1) % 3
        pre = (i - 1) % 3
        if p[nxt].top < 0 or (p[pre].top >= 0 and p[pre].s[p[pre].top] < p[nxt].s[p[nxt].top]):
            # the disk on the previous pillar moves to the next one
            p[nxt].top += 1
            store(p[nxt], p[nxt].top, p[pre].s[p[pre].top])
            p[pre].top -= 1
            count += 1
            yield (p[nxt].s[p[nxt].top], p[pre].pos, p[nxt].pos)
        else:
            # the disk on the next pillar moves to the previous one
            p[pre].top += 1
            store(p[pre], p[pre].top, p[nxt].s[p[nxt].top])
            p[nxt].top -= 1
            count += 1
            yield (p[pre].s[p[pre].top], p[nxt].pos, p[pre].pos)


@register(
    name="clockwise_pillars",
    summary="Qiao's Hanoi_5: disk 1 clockwise, then the other legal move (pillar stacks)",
    source=QIAO,
    family="rule-based",
    max_n=31,
    max_n_reason="n = pow(2, n) - 1, the move count, overflows a 32-bit int at n = 32",
    space="n",
    time="2^n",
    final_peg=FinalPeg.fixed(2),
    pegs=("A", "B", "C"),
    disks="ascending",
)
def solve(n: int) -> Iterator[tuple[int, str, str]]:
    """Yield the moves of *n* disks from A to C: ``Hanoi_5(n, 'A', 'B', 'C')``.

    >>> list(solve(1)), list(solve(0))
    ([(1, 'A', 'C')], [])
    """
    yield from hanoi_5(n, "A", "B", "C")
