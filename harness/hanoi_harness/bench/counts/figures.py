"""An algorithm's instruction counts at two sizes and its figures per move.

When there are no counts, the record says why.  The counts are made by
:mod:`hanoi_harness.bench.counts.measure`.  This record is what a result
file keeps of them (``algorithms.NAME.instructions``), and what the gate
(:mod:`hanoi_harness.bench.gate.counts`) compares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class InstructionCount:
    """One algorithm's instruction counts at two n, or why there are none.

    ``sizes`` are (n1, n2); ``moves`` the moves drained at each;
    ``instructions`` the totals of the three counted children, at n1, n2 and
    n1 again, and ``allocator`` the part of each spent in the memory
    allocators.  When they could not be had, they are None and ``unavailable``
    says why in one line (``sizes`` is empty when the algorithm's limits leave
    no two sizes).

    >>> c = InstructionCount("a", (10, 14), (1023, 16383), (300_000_000, 361_445_000, 300_010_000),
    ...                      (20_000_000, 21_536_000, 20_000_000))
    >>> c.per_move, c.allocator_per_move, c.total_per_move
    (3900.0, 100.0, 4000.0)
    >>> InstructionCount("a", (10, 14), unavailable="valgrind is not installed").per_move is None
    True
    """

    name: str
    sizes: tuple[int, ...]
    moves: tuple[int, int] | None = None
    instructions: tuple[int, int, int] | None = None
    allocator: tuple[int, int, int] | None = None
    unavailable: str = ""

    @property
    def per_move(self) -> float | None:
        """Instructions per move outside the memory allocators, or None.

        This is the figure the gate compares; None when unavailable.  The
        allocators' cost depends on where objects fall in memory, which moves
        whenever any code allocates a little more or less.  An unrelated
        module imported first moved bitwise's total, all of it in pymalloc's
        malloc and free.  Without them the figure did not move.
        """
        if self.instructions is None or self.allocator is None:
            return None
        # The counts outside the allocators, in integers, then one division: the same code gives the same
        # figure to the last bit. A difference of the two rounded slopes could differ in its last digits.
        (i1, i2, i3), (a1, a2, a3) = self.instructions, self.allocator
        return self._slope((i1 - a1, i2 - a2, i3 - a3))

    @property
    def total_per_move(self) -> float | None:
        """All instructions per move, allocators included; None when unavailable."""
        return self._slope(self.instructions)

    @property
    def allocator_per_move(self) -> float | None:
        """The memory allocators' instructions per move; None when unavailable."""
        return self._slope(self.allocator)

    def _slope(self, counts: tuple[int, int, int] | None) -> float | None:
        """Per move between the sizes, each fork's constant cost cancelled.

        With I1, I2, I1' the counts at n1, n2, n1 and d what a fork adds:
        I2 - I1 = d + work and I1' - I2 = d - work, so work = ((I2 - I1) - (I1' - I2)) / 2.
        """
        if self.moves is None or counts is None or self.moves[1] == self.moves[0]:
            return None
        first, second, again = counts
        return ((second - first) - (again - second)) / 2 / (self.moves[1] - self.moves[0])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping of the counts, with the three figures per move.

        The figures are there for readers of the file.
        """
        return {
            "sizes": list(self.sizes),
            "moves": list(self.moves) if self.moves else None,
            "instructions": list(self.instructions) if self.instructions else None,
            "allocator": list(self.allocator) if self.allocator else None,
            "per_move": self.per_move,
            "allocator_per_move": self.allocator_per_move,
            "total_per_move": self.total_per_move,
            "unavailable": self.unavailable or None,
        }
