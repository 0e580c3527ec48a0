"""Random access to the optimal solution: any move, any state, the inverse.

Each query costs O(n) arithmetic, for the ``recursive`` sequence from peg 0 to peg 2.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from hanoi_harness.errors import UsageError


class NotOnPath(ValueError):
    """A legal configuration that the optimal solution never passes through."""


MAX_N = 1_000_000
"""The most disks that :func:`move_at`, :func:`state_at` and :func:`step_of` accept.

Past it, reading and printing K, of up to 0.30103 n digits, would take Python minutes.
"""

MAX_K_DIGITS = int(MAX_N * math.log10(2)) + 1  #: The decimal digits of 2^MAX_N - 1, the largest K: 301030.

MAX_N_REASON = (
    f"K then has up to {MAX_K_DIGITS} digits, which takes Python seconds to read or print "
    "(the time grows with the square of the length)"
)


def _number(value: int) -> str:
    """Write *value* for an error message: in full, or its size when long.

    >>> _number(7), _number(2**200)
    ('7', 'a number of about 61 digits (201 bits)')
    """
    bits = value.bit_length()
    if bits <= 126:
        return str(value)
    return f"a number of about {int(math.log10(value)) + 1} digits ({bits} bits)"


def _check(n: int, k: int, low: int) -> None:
    if n < 0:
        raise UsageError(f"n must be >= 0, got {n}")
    if n > MAX_N:
        raise UsageError(f"n must be at most {MAX_N}, got {_number(n)}: {MAX_N_REASON}")
    if k < low or k.bit_length() > n:
        high = f"2^{n} - 1" + (f" = {(1 << n) - 1}" if n <= 126 else "")
        raise UsageError(f"K must be between {low} and {high} for n = {n}, got {_number(k)}")


def _bits(n: int, k: int) -> str:
    """Write *k* in binary with *n* digits, bit n-1 first."""
    return format(k, "b").rjust(n, "0") if n else ""


def move_at(n: int, k: int) -> tuple[int, int, int]:
    """Return move *k* (1-based) of the optimal solution for *n* disks.

    >>> [move_at(3, k) for k in range(1, 8)], move_at(64, 2**64 - 1)
    ([(1, 0, 2), (2, 0, 1), (1, 2, 1), (3, 0, 2), (1, 1, 0), (2, 1, 2), (1, 0, 2)], (1, 1, 2))
    """
    _check(n, k, 1)
    disk = (k & -k).bit_length()
    src, aux, dst = 0, 1, 2
    for bit in _bits(n, k)[: n - disk]:
        if bit == "0":
            aux, dst = dst, aux
        else:
            src, aux = aux, src
    return (disk, src, dst)


def state_at(n: int, k: int) -> list[int]:
    """Return the peg of each of *n* disks after *k* optimal moves.

    >>> state_at(3, 0), state_at(3, 4), state_at(3, 7)
    ([0, 0, 0], [1, 1, 2], [2, 2, 2])
    """
    _check(n, k, 0)
    pegs = [0] * n
    src, aux, dst = 0, 1, 2
    for disk, bit in zip(range(n, 0, -1), _bits(n, k), strict=True):
        if bit == "0":  # disk has not moved yet: it is on src, and the smaller tower is going src -> aux
            pegs[disk - 1] = src
            aux, dst = dst, aux
        else:  # it has moved to dst, and the smaller tower is going aux -> dst
            pegs[disk - 1] = dst
            src, aux = aux, src
    return pegs


def step_of(pegs: Sequence[int]) -> int:
    """Return the number of optimal moves after which the disks are on *pegs*.

    >>> step_of([1, 1, 2])
    4
    >>> step_of([0, 1, 0])
    Traceback (most recent call last):
    ...
    hanoi_harness.core.randomaccess.NotOnPath: disk 1 is on peg 0, which the optimal solution never uses for it here
    """
    for i, peg in enumerate(pegs, 1):
        if peg not in (0, 1, 2) or isinstance(peg, bool):
            raise UsageError(f"disk {i}: peg {peg!r} is not 0, 1 or 2")
    _check(len(pegs), 0, 0)
    bits = []
    src, aux, dst = 0, 1, 2
    for disk in range(len(pegs), 0, -1):
        peg = pegs[disk - 1]
        if peg == src:
            bits.append("0")
            aux, dst = dst, aux
        elif peg == dst:
            bits.append("1")
            src, aux = aux, src
        else:
            raise NotOnPath(f"disk {disk} is on peg {peg}, which the optimal solution never uses for it here")
    return int("".join(bits), 2) if bits else 0


def tower_at(n: int, k: int) -> tuple[list[int], list[int], list[int]]:
    """Return the three pegs, bottom first, after *k* optimal moves.

    >>> tower_at(3, 4)
    ([], [2, 1], [3])
    """
    where = state_at(n, k)
    pegs: tuple[list[int], list[int], list[int]] = ([], [], [])
    for disk in range(n, 0, -1):
        pegs[where[disk - 1]].append(disk)
    return pegs
