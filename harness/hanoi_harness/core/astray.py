"""Where a legal run goes astray: its first move off every shortest one."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

MAX_DISKS = 60  #: The most disks followed: step numbers then fit in numpy's int64.

_WAYS = ((0, 1, 2), (0, 2, 1))


class Prefix:
    """The longest run of moves that a shortest solution starts with.

    It follows both shortest solutions of the classic puzzle (to peg 1 or peg 2), comparing only each move's pegs.

    >>> p = Prefix(2)
    >>> for move in [(1, 0, 1), (2, 0, 2), (1, 0, 2)]:
    ...     p(move)
    >>> p.length, p.ways, p.astray
    (2, [], 3)
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.length = 0
        self.ways = list(_WAYS)

    @property
    def astray(self) -> int | None:
        """The step that left every shortest solution, or None if none did."""
        return None if self.ways else self.length + 1

    def __call__(self, move: Any) -> None:
        """Follow one move (any triple; anything else leaves the solutions)."""
        k = self.length + 1
        src, dst = (k & (k - 1)) % 3, ((k | (k - 1)) + 1) % 3  # the k-th move of one shortest solution
        try:
            pegs = (move[1], move[2])
        except Exception:  # no triple: off every solution (the checker says why)
            pegs = None
        self.ways = [way for way in self.ways if k < 1 << self.n and (way[src], way[dst]) == pegs]
        if self.ways:
            self.length += 1

    def rows(self, rows: Any) -> None:
        """Follow the moves of an (m, 3) integer array, vectorised.

        >>> import numpy as np
        >>> p = Prefix(2)
        >>> p.rows(np.array([[1, 0, 1], [2, 0, 2], [1, 1, 2], [1, 2, 0]]))
        >>> p.length, p.astray
        (3, 4)
        """
        import numpy as np

        if not self.ways or not len(rows):
            return
        k = np.arange(self.length + 1, self.length + len(rows) + 1, dtype=np.int64)
        src, dst = (k & (k - 1)) % 3, ((k | (k - 1)) + 1) % 3
        inside = k < 1 << self.n
        best, kept = -1, self.ways[0]
        for way in self.ways:
            pegs = np.array(way)
            fits = inside & (pegs[src] == rows[:, 1]) & (pegs[dst] == rows[:, 2])
            run = len(rows) if fits.all() else int(np.argmin(fits))
            if run > best:
                best, kept = run, way
        self.length += best
        self.ways = [kept] if best == len(rows) else []


def followed(moves: Iterable[Any], prefix: Prefix) -> Iterator[Any]:
    """The moves of *moves*, shown to *prefix* until one leaves it."""
    it = iter(moves)
    for move in it:
        yield move
        prefix(move)
        if not prefix.ways:
            break
    yield from it
