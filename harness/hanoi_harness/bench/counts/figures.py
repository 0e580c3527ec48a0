"""An algorithm's instruction counts at every size, its figures per move.

When there are no counts, the record says why. The counts are made by
:mod:`hanoi_harness.bench.counts.measure`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    """The work a move from one counted size to the next: *per_move*.

    Instructions per move, the allocators' included, between the runs at *low* and *high* (*low_moves* moves
    at *low*).
    """

    low: int
    high: int
    low_moves: int
    per_move: float


@dataclass(frozen=True)
class InstructionCount:
    """One algorithm's instruction counts at k sizes, or why there are none.

    ``sizes`` are n1 < ... < nk; ``moves`` the moves drained at each; ``instructions`` the totals of the k + 1
    counted children, at n1, ..., nk and n1 again, and ``allocator`` the part of each spent in the memory
    allocators.

    >>> c = InstructionCount("a", (10, 14), (1023, 16383), (300_000_000, 361_445_000, 300_010_000),
    ...                      (20_000_000, 21_536_000, 20_000_000))
    >>> c.per_move, c.allocator_per_move, c.total_per_move
    (3900.0, 100.0, 4000.0)
    >>> InstructionCount("a", (10, 14), unavailable="valgrind is not installed").per_move is None
    True
    """

    name: str
    sizes: tuple[int, ...]
    moves: tuple[int, ...] | None = None
    instructions: tuple[int, ...] | None = None
    allocator: tuple[int, ...] | None = None
    unavailable: str = ""
    span: tuple[int, int] | None = None

    @property
    def between(self) -> tuple[int, int] | None:
        """The two sizes the figures per move are taken between, or None."""
        if self.span is not None:
            return self.span
        return (self.sizes[0], self.sizes[-1]) if len(self.sizes) >= 2 else None

    @property
    def per_move(self) -> float | None:
        """Instructions per move outside the memory allocators, or None.

        This is the figure the gate compares; None when unavailable.
        """
        if self.instructions is None or self.allocator is None:
            return None
        # The counts outside the allocators, in integers, then one division: the same code gives the same
        # figure to the last bit. A difference of the two rounded slopes could differ in its last digits.
        outside = tuple(i - a for i, a in zip(self.instructions, self.allocator, strict=True))
        return self._slope(outside)

    @property
    def total_per_move(self) -> float | None:
        """All instructions per move, allocators included; None when unavailable."""
        return self._slope(self.instructions)

    @property
    def allocator_per_move(self) -> float | None:
        """The memory allocators' instructions per move; None when unavailable."""
        return self._slope(self.allocator)

    def work(self, counts: tuple[int, ...]) -> list[int]:
        """Return k times the work of each drain beyond the first's.

        >>> InstructionCount("a", (1, 2)).work((100, 130, 110))
        [0, 50]
        """
        k = len(counts) - 1
        first, again = counts[0], counts[-1]
        return [k * (found - first) - i * (again - first) for i, found in enumerate(counts[:-1])]

    def _slope(self, counts: tuple[int, ...] | None) -> float | None:
        """Per move between the two sizes of :attr:`between`, forks cancelled."""
        span = self.between
        if self.moves is None or counts is None or span is None:
            return None
        low, high = self.sizes.index(span[0]), self.sizes.index(span[1])
        if self.moves[high] == self.moves[low]:
            return None
        work = self.work(counts)
        return (work[high] - work[low]) / (len(counts) - 1) / (self.moves[high] - self.moves[low])

    def steps(self) -> list[Step]:
        """Return the instructions per move from each size to the next.

        >>> c = InstructionCount("a", (1, 2, 3), (1, 3, 7), (100, 120, 190, 130), (0, 0, 0, 0))
        >>> [(s.high, s.per_move) for s in c.steps()]
        [(2, 5.0), (3, 15.0)]
        """
        if self.moves is None or self.instructions is None:
            return []
        work, k = self.work(self.instructions), len(self.sizes)
        return [
            Step(
                self.sizes[i],
                self.sizes[i + 1],
                self.moves[i],
                (work[i + 1] - work[i]) / k / (self.moves[i + 1] - self.moves[i]),
            )
            for i in range(k - 1)
            if self.moves[i + 1] > self.moves[i]
        ]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping of the counts, with the figures per move."""
        return {
            "sizes": list(self.sizes),
            "span": list(self.between) if self.between else None,
            "moves": list(self.moves) if self.moves else None,
            "instructions": list(self.instructions) if self.instructions else None,
            "allocator": list(self.allocator) if self.allocator else None,
            "per_move": self.per_move,
            "allocator_per_move": self.allocator_per_move,
            "total_per_move": self.total_per_move,
            "steps": [[step.low, step.high, step.per_move] for step in self.steps()],
            "unavailable": self.unavailable or None,
        }
