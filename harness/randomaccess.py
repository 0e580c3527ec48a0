"""Random access to the optimal solution: any move, any state, and the inverse, in O(n).

The sequence is the ``recursive`` one, n disks from peg 0 to peg 2.  The
second source's point, that a move can be written down from its step number
alone, taken to its end: with Python integers every query costs O(n)
arithmetic for any n, so move 2^64 - 1 of the 64-disk tower answers at once.

Why it works: the optimal solution of n disks from ``src`` to ``dst`` is the
solution of n - 1 disks from ``src`` to ``aux`` (steps 1 .. 2^(n-1) - 1), the
move of disk n (step 2^(n-1)), then n - 1 disks from ``aux`` to ``dst``.  So
bit n-1 of the step count says on which side of disk n's move a step lies,
and walking the bits from the top fixes one disk per bit.
"""

from __future__ import annotations

from collections.abc import Sequence

from hanoi_harness.errors import UsageError


class NotOnPath(ValueError):
    """A legal configuration that the optimal solution never passes through."""


def _check(n: int, k: int, low: int) -> None:
    if n < 0:
        raise UsageError(f"n must be >= 0, got {n}")
    high = (1 << n) - 1
    if not low <= k <= high:
        raise UsageError(f"K must be between {low} and 2^{n} - 1 = {high} for n = {n}, got {k}")


def move_at(n: int, k: int) -> tuple[int, int, int]:
    """move_at(n, k): move k (1-based) of the optimal n-disk solution from peg 0 to peg 2.

    >>> [move_at(3, k) for k in range(1, 8)]
    [(1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2)]
    >>> move_at(64, 2**64 - 1)
    (1, 1, 2)

    The disk is one more than the number of trailing zero bits of k; its
    source and destination follow from the bits of k above it.  K outside
    1 .. 2^n - 1 raises :class:`UsageError`.
    """
    _check(n, k, 1)
    src, aux, dst = 0, 1, 2
    for disk in range(n, 0, -1):
        half = 1 << (disk - 1)
        if k == half:
            return (disk, src, dst)
        if k < half:
            aux, dst = dst, aux
        else:
            k -= half
            src, aux = aux, src
    raise AssertionError("unreachable: k is within 1 .. 2^n - 1")


def state_at(n: int, k: int) -> list[int]:
    """state_at(n, k): the peg of each disk, disk 1 (smallest) first, after k moves.

    >>> state_at(3, 0), state_at(3, 4), state_at(3, 7)
    ([0, 0, 0], [1, 1, 2], [2, 2, 2])
    """
    _check(n, k, 0)
    pegs = [0] * n
    src, aux, dst = 0, 1, 2
    for disk in range(n, 0, -1):
        half = 1 << (disk - 1)
        if k < half:
            pegs[disk - 1] = src
            aux, dst = dst, aux
        else:
            pegs[disk - 1] = dst
            k -= half
            src, aux = aux, src
    return pegs


def step_of(pegs: Sequence[int]) -> int:
    """step_of(pegs): the number of moves after which the disks stand on ``pegs`` (disk 1 first).

    >>> step_of([1, 1, 2])
    4
    >>> step_of([0, 1, 0])
    Traceback (most recent call last):
    ...
    hanoi_harness.randomaccess.NotOnPath: disk 1 is on peg 0, which the optimal solution never uses for it here

    Raises :class:`NotOnPath` for a configuration the solution never passes
    through, and :class:`UsageError` for a peg outside 0-2.
    """
    for i, peg in enumerate(pegs, 1):
        if peg not in (0, 1, 2) or isinstance(peg, bool):
            raise UsageError(f"disk {i}: peg {peg!r} is not 0, 1 or 2")
    k = 0
    src, aux, dst = 0, 1, 2
    for disk in range(len(pegs), 0, -1):
        peg = pegs[disk - 1]
        if peg == src:
            aux, dst = dst, aux
        elif peg == dst:
            k += 1 << (disk - 1)
            src, aux = aux, src
        else:
            raise NotOnPath(f"disk {disk} is on peg {peg}, which the optimal solution never uses for it here")
    return k


def tower_at(n: int, k: int) -> tuple[list[int], list[int], list[int]]:
    """tower_at(n, k): the three pegs as lists of disks, bottom first, after k moves.

    >>> tower_at(3, 4)
    ([], [2, 1], [3])
    """
    where = state_at(n, k)
    pegs: tuple[list[int], list[int], list[int]] = ([], [], [])
    for disk in range(n, 0, -1):
        pegs[where[disk - 1]].append(disk)
    return pegs
