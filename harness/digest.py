"""The project's fingerprint of a move sequence, computable by any other implementation.

    DIGEST = sum over k = 1..COUNT of k * (9*disk + 3*src + dst)   (mod 2^64)

with k the 1-based index of the move, disk 1 the smallest and pegs 0, 1, 2.
``9*disk + 3*src + dst`` is unique per move (src, dst < 3), and weighting it
by k makes the sum depend on the order, so two sequences with the same moves
in another order differ.  Because it is a sum, the digest of a sequence is
the sum of the digests of its parts, each computed with its own global k:
that is what lets verification be split into chunks.
"""

from __future__ import annotations

from collections.abc import Iterable

MASK = (1 << 64) - 1
"""Digests are reduced mod 2^64: an unsigned 64-bit wrap in C."""


def digest(moves: Iterable[tuple[int, int, int]], start: int = 1) -> tuple[int, int]:
    """digest(moves, start=1): ``(count, digest)`` of ``moves``, the first one numbered ``start``.

    >>> digest([(1, 0, 2)])
    (1, 11)
    >>> digest([(1, 0, 1), (2, 0, 2), (1, 1, 2)])
    (3, 92)
    >>> digest([])
    (0, 0)
    """
    k = start - 1
    total = 0
    for disk, src, dst in moves:
        k += 1
        total += k * (9 * disk + 3 * src + dst)
    return k - start + 1, total & MASK
