"""An algorithm's instruction counts at every size, its figures per move."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Annotated

import msgspec
from msgspec import Meta
from msgspec.structs import force_setattr

from hanoi_harness.bench.results.consistency import check, kept

Count = Annotated[int, Meta(ge=0, le=2**63 - 1)]  #: An instruction count, or moves of one run: 64 bits.


@dataclass(frozen=True)
class Step:
    """The work a move from one counted size to the next: *per_move*."""

    low: int
    high: int
    low_moves: int
    per_move: float


class InstructionCount(msgspec.Struct, frozen=True, kw_only=True):
    """One algorithm's instruction counts at k sizes, or why there are none.

    ``instructions`` and ``allocator`` hold k + 1 totals: at n1 < ... < nk, then at n1 again. Without counts,
    they are None and ``unavailable`` says why.

    >>> c = InstructionCount(sizes=(10, 14), moves=(1023, 16383), instructions=(300_000_000, 361_445_000, 300_010_000),
    ...                      allocator=(20_000_000, 21_536_000, 20_000_000))
    >>> c.per_move, c.allocator_per_move, c.total_per_move
    (3900.0, 100.0, 4000.0)
    >>> InstructionCount(sizes=(10, 14), unavailable="valgrind is not installed").per_move is None
    True
    """

    sizes: tuple[Annotated[int, Meta(ge=0, le=1000)], ...]
    span: tuple[int, int] | None = None
    moves: tuple[Count, ...] | None = None
    instructions: tuple[Count, ...] | None = None
    allocator: tuple[Count, ...] | None = None
    per_move: float | None = None
    allocator_per_move: float | None = None
    total_per_move: float | None = None
    slopes: tuple[tuple[int, int, float], ...] = msgspec.field(default=(), name="steps")
    unavailable: str | None = None

    def __post_init__(self) -> None:
        sizes, sized = self.sizes, f"{list(self.sizes)}"
        ordered = len(sizes) != 1 and list(sizes) == sorted(set(sizes))
        check(ordered, "sizes", f"expected two sizes or more in increasing order (or none), got {sized}")
        span = self.span or ((sizes[0], sizes[-1]) if len(sizes) >= 2 else None)
        force_setattr(self, "span", span)
        if self.unavailable is not None:
            check(bool(self.unavailable.strip()), "unavailable", "expected why there are no counts, got none")
            return
        fits = span is None or (span[0] < span[1] and set(span) <= set(sizes))
        check(fits, "span", f"expected two of the sizes {sized} in increasing order, got {span}")
        for key, length in (("moves", 0), ("instructions", 1), ("allocator", 1)):
            found = getattr(self, key)
            said = "none" if found is None else len(found)
            check(
                found is not None and len(found) == len(sizes) + length,
                key,
                f"expected {len(sizes) + length} integers, got {said}",
            )
        if self.moves is None or self.instructions is None or self.allocator is None:
            return
        for low, high in pairwise(self.moves):
            check(high > low, "moves", f"{high} moves at a size, not more than the {low} at the size before")
        for index, (total, part) in enumerate(zip(self.instructions, self.allocator, strict=True)):
            check(part <= total, f"allocator[{index}]", f"{part} instructions, more than the {total} they are part of")
        # The counts outside the allocators, in integers, then one division: the same code gives the same
        # figure to the last bit. A difference of the two rounded slopes could differ in its last digits.
        outside = tuple(i - a for i, a in zip(self.instructions, self.allocator, strict=True))
        for key, counts in (
            ("per_move", outside),
            ("allocator_per_move", self.allocator),
            ("total_per_move", self.instructions),
        ):
            figure = self._slope(counts)
            below = key != "allocator_per_move" and figure is not None and figure < 0
            check(not below, key, f"its counts give {figure:g} instructions per move, fewer than none")
            force_setattr(self, key, kept(getattr(self, key), figure, key, "its counts"))
        force_setattr(self, "slopes", tuple((step.low, step.high, step.per_move) for step in self.steps()))

    @property
    def between(self) -> tuple[int, int] | None:
        """The two sizes the figures per move are taken between, or None."""
        return self.span

    def work(self, counts: tuple[int, ...]) -> list[int]:
        """Return k times the work of each drain beyond the first's.

        >>> InstructionCount(sizes=(1, 2)).work((100, 130, 110))
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

        >>> c = InstructionCount(sizes=(1, 2, 3), moves=(1, 3, 7), instructions=(100, 120, 190, 130),
        ...                      allocator=(0,) * 4)
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
