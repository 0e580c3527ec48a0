"""The frozen :class:`Algorithm` record: a generator and what it declares."""

from __future__ import annotations

import itertools
import keyword
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from hanoi_harness.core.puzzle import CLASSIC, Config, Puzzle, tower, tower_peg
from hanoi_harness.core.randomaccess import state_at
from hanoi_harness.errors import UsageError

Move = tuple[int, int, int]  #: A move in the model: ``(disk, src, dst)``, disk 1 the smallest, pegs 0-2.

Solver = Callable[[int], Iterable[Any]]  #: A ``solve`` function: the moves for n disks, in its own labels.

SolverFor = Callable[[int, tuple[Any, ...], tuple[Any, ...]], Iterable[Any]]
"""A ``solve_for`` function: the moves from ``start`` to ``goal``."""

Configurations = Literal["towers", "any"]  #: What ``solve_for`` takes: whole towers, or any configurations.

CONFIGURATIONS: tuple[Configurations, ...] = ("towers", "any")

SPACE_CLASSES = ("1", "n", "2^n")  #: Declared extra-space classes, as functions of n.

TIME_CLASSES = ("2^n", "n 2^n")
"""Declared total-time classes: constant work a move, or up to n a move.

Another puzzle's record uses the same names: its total is its optimal count times that.
"""


@dataclass(frozen=True)
class Citation:
    """Where an algorithm comes from: the original's author, title, site, year."""

    author: str
    title: str
    site: str
    year: str

    def __str__(self) -> str:
        return f"{self.author}, \u201c{self.title}\u201d, {self.site}, {self.year}"


@dataclass(frozen=True)
class FinalPeg:
    """The peg an algorithm's tower ends on, for odd and for even n.

    ``None`` means "any peg but 0", what an ad-hoc plugin declares.

    >>> FinalPeg.fixed(2).pegs(5)
    frozenset({2})
    >>> FinalPeg(odd=1, even=2).pegs(4)
    frozenset({2})
    >>> sorted(FinalPeg.anywhere().pegs(3))
    [1, 2]
    """

    odd: int | None
    even: int | None

    @classmethod
    def fixed(cls, peg: int) -> FinalPeg:
        return cls(odd=peg, even=peg)

    @classmethod
    def anywhere(cls) -> FinalPeg:
        return cls(odd=None, even=None)

    def pegs(self, n: int) -> frozenset[int]:
        peg = self.odd if n % 2 else self.even
        return frozenset({1, 2}) if peg is None else frozenset({peg})

    def __str__(self) -> str:
        if self.odd == self.even:
            return "1 or 2" if self.odd is None else str(self.odd)
        return f"{self.odd} if n odd, {self.even} if even"


@dataclass(frozen=True)
class Algorithm:
    """One registered algorithm: its generator and the metadata it declares.

    ``pegs`` are its labels for the model's pegs 0-2; ``disks`` is ``"descending"`` when its disk 1
    is the largest.
    """

    name: str
    solve: Solver
    summary: str
    source: Citation | None = None
    family: str = "ad hoc"
    min_n: int = 0
    min_n_reason: str = ""
    max_n: int | None = None
    max_n_reason: str = ""
    space: str = "n"
    time: str = "2^n"
    final_peg: FinalPeg = field(default_factory=lambda: FinalPeg.fixed(2))
    pegs: tuple[Any, Any, Any] = (0, 1, 2)
    disks: Literal["ascending", "descending"] = "ascending"
    reconstruction: bool = False
    solve_from: Callable[[int, int], Iterable[Any]] | None = None
    chunks: bool = False
    origin: str = "in-tree"
    puzzle: Puzzle = CLASSIC
    solve_for: SolverFor | None = None
    configurations: Configurations = "towers"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier() or keyword.iskeyword(self.name):
            raise UsageError(f"invalid algorithm name {self.name!r}: it must be a Python identifier")
        if not callable(self.solve):
            raise UsageError(f"algorithm {self.name!r}: solve is not callable")
        if self.space not in SPACE_CLASSES:
            raise UsageError(f"algorithm {self.name!r}: space must be one of {SPACE_CLASSES}")
        if self.time not in TIME_CLASSES:
            raise UsageError(f"algorithm {self.name!r}: time must be one of {TIME_CLASSES}")
        if len(set(self.pegs)) != 3 or len(self.pegs) != 3:
            raise UsageError(f"algorithm {self.name!r}: pegs must be three distinct labels")
        if self.disks not in ("ascending", "descending"):
            raise UsageError(f"algorithm {self.name!r}: disks must be 'ascending' or 'descending'")
        if self.chunks and (tuple(self.pegs) != (0, 1, 2) or self.disks != "ascending"):
            raise UsageError(f"algorithm {self.name!r}: chunks must use the model's labels (pegs 0-2, disks ascending)")
        self._check_puzzle()

    def _check_puzzle(self) -> None:
        """Refuse a ``puzzle`` the rest of the record contradicts, in one line."""
        puzzle = self.puzzle
        if not isinstance(puzzle, Puzzle):
            raise UsageError(f"algorithm {self.name!r}: puzzle must be a hanoi_harness.core.puzzle.Puzzle")
        if puzzle.start is not None or puzzle.goal is not None:
            raise UsageError(f"algorithm {self.name!r}: solve(n) starts from the tower on peg 0; see solve_for")
        if any(peg is not None and not 0 <= peg < puzzle.pegs for peg in (self.final_peg.odd, self.final_peg.even)):
            raise UsageError(f"algorithm {self.name!r}: final peg {self.final_peg} is not a peg of {puzzle}")
        if puzzle.pegs > 3 and tuple(self.pegs) != (0, 1, 2):
            raise UsageError(f"algorithm {self.name!r}: {puzzle.pegs} pegs keep the model's labels 0-{puzzle.pegs - 1}")
        if not puzzle.classic and self.solve_from is not None:
            raise UsageError(f"algorithm {self.name!r}: solve_from is for the classic puzzle only")
        if puzzle.pegs != 3 and self.chunks:
            raise UsageError(f"algorithm {self.name!r}: chunks are for puzzles of three pegs only")
        if self.configurations not in CONFIGURATIONS:
            raise UsageError(f"algorithm {self.name!r}: configurations must be 'towers' or 'any'")
        if self.configurations == "any" and self.solve_for is None:
            raise UsageError(f"algorithm {self.name!r}: configurations='any' needs a solve_for to take them")

    def limits(self) -> str:
        """A short description of the accepted n, e.g. ``"1 <= n <= 1000"``."""
        high = "" if self.max_n is None else f" <= {self.max_n}"
        return f"{self.min_n} <= n{high}"

    def check_n(self, n: int) -> None:
        """Raise :class:`UsageError` naming the limit *n* disks break, if any."""
        if n < self.min_n:
            why = f" ({self.min_n_reason})" if self.min_n_reason else ""
            raise UsageError(f"{self.name} needs n >= {self.min_n}{why}")
        if self.max_n is not None and n > self.max_n:
            why = f" ({self.max_n_reason})" if self.max_n_reason else ""
            raise UsageError(f"{self.name} accepts n <= {self.max_n}{why}")

    def moves(self, n: int) -> Iterator[Move]:
        """Return the moves for *n* disks, mapped into the model (only here)."""
        return self._to_model(iter(self.solve(n)), n)

    def moves_from(self, n: int, k: int) -> Iterator[Move]:
        """Return the moves for *n* disks from step *k* (1-based), in the model."""
        if self.solve_from is None:
            raise UsageError(f"{self.name} cannot start at any step (its record declares no solve_from)")
        return self._to_model(iter(self.solve_from(n, k)), n)

    def moves_for(self, n: int, start: Sequence[int], goal: Sequence[int]) -> Iterator[Move]:
        """Return the moves of *n* disks from configuration *start* to *goal*."""
        return self._to_model(iter(self.solve_between(n, start, goal)), n)

    def moves_of_run(self, n: int, ends: tuple[Config, Config] | None) -> Iterator[Move]:
        """Return the moves of *n* disks between *ends* (start, goal), or all."""
        return self.moves(n) if ends is None else self.moves_for(n, *ends)

    def puzzle_of_run(self, ends: tuple[Config, Config] | None) -> Puzzle:
        """Return the puzzle a run between *ends* (start, goal) is judged by."""
        return self.puzzle if ends is None else self.puzzle.between(*ends)

    def solve_between(self, n: int, start: Sequence[int], goal: Sequence[int]) -> Iterable[Any]:
        """Return what ``solve_for`` yields from *start* to *goal*, once checked."""
        first, last = self.endpoints(n, start, goal)
        assert self.solve_for is not None  # endpoints() refuses a record without it
        return self.solve_for(n, self._to_own(first), self._to_own(last))

    def endpoints(
        self, n: int, start: Sequence[int] | None = None, goal: Sequence[int] | None = None
    ) -> tuple[Config, Config]:
        """The start and goal of a run of n disks, checked against the record.

        >>> from hanoi_algorithms.any_state import solve
        >>> record = Algorithm(name="r", solve=solve, summary="", solve_for=lambda n, s, g: iter(()))
        >>> record.endpoints(2, goal=(1, 1))
        ((0, 0), (1, 1))
        >>> record.endpoints(2, start=(0, 1))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        hanoi_harness.errors.UsageError: r moves whole towers only: the start configuration is not one tower ...
        """
        if self.solve_for is None:
            raise UsageError(f"{self.name} starts only from the whole tower on peg 0 (its record has no solve_for)")
        first = tuple(start) if start is not None else self.puzzle.start_config(n)
        if goal is None:
            targets = self.final_peg.pegs(n)
            if len(targets) != 1:
                raise UsageError(f"{self.name} may end on peg {' or '.join(map(str, sorted(targets)))}: give the goal")
            (peg,) = targets
            goal = tower(n, peg)
        puzzle = self.puzzle.between(first, goal)
        if len(first) != n:
            raise UsageError(f"{self.name}: the configurations have {len(first)} disks, not n = {n}")
        assert puzzle.start is not None and puzzle.goal is not None
        if self.configurations == "towers":
            for what, config in (("start", puzzle.start), ("goal", puzzle.goal)):
                if n and tower_peg(config) is None:
                    pegs = sorted(set(config))
                    where = ", ".join(map(str, pegs[:-1])) + f" and {pegs[-1]}"
                    raise UsageError(
                        f"{self.name} moves whole towers only: the {what} configuration is not one tower "
                        f"(it has disks on pegs {where})"
                    )
        return puzzle.start, puzzle.goal

    def _to_own(self, config: Config) -> tuple[Any, ...]:
        """Write the model's configuration *config* in the original's labels."""
        own = config if tuple(self.pegs) == (0, 1, 2) else tuple(self.pegs[peg] for peg in config)
        return own[::-1] if self.disks == "descending" else own

    def _to_model(self, raw: Iterator[Any], n: int) -> Iterator[Any]:
        """Map the original's labelled moves *raw* for *n* disks into the model."""
        if self.chunks:
            raw = _unchunk(raw)
        if self.pegs == (0, 1, 2) and self.disks == "ascending":
            return raw
        return _relabel(raw, {label: i for i, label in enumerate(self.pegs)}, n, self.disks == "descending")


UNCHUNK_ROWS = 1024  #: The rows of a chunk unpacked at once: a whole chunk took much memory.


def _unchunk(raw: Iterator[Any]) -> Iterator[Any]:
    """Stream the single moves of the chunks *raw*.

    >>> import numpy as np
    >>> list(_unchunk(iter([np.array([[1, 0, 1], [2, 0, 2]], dtype=np.uint8), np.array([[1, 1, 2]])])))
    [(1, 0, 1), (2, 0, 2), (1, 1, 2)]
    """
    return itertools.chain.from_iterable(_pieces(raw))


def _pieces(raw: Iterator[Any]) -> Iterator[Iterable[Any]]:
    """Iterables of the moves of the chunks *raw*, a slice of a chunk each."""
    import numpy as np

    for chunk in raw:
        if isinstance(chunk, np.ndarray) and chunk.ndim == 2 and chunk.shape[1] > 0:
            for start in range(0, len(chunk), UNCHUNK_ROWS):
                yield zip(*chunk[start : start + UNCHUNK_ROWS].T.tolist())  # noqa: B905 (the columns are equal)
        else:
            rows = chunk.tolist() if hasattr(chunk, "tolist") else chunk
            yield (tuple(row) if isinstance(row, list) else row for row in rows)


def _relabel(raw: Iterator[Any], peg_of: dict[Any, int], n: int, flip: bool) -> Iterator[Any]:
    top = n + 1
    for move in raw:
        try:
            disk, src, dst = move
            yield (top - disk if flip else disk, peg_of.get(src, src), peg_of.get(dst, dst))
        except (TypeError, ValueError):
            yield move


def labelled_state(
    n: int,
    k: int,
    *,
    final_peg: int = 2,
    pegs: tuple[Any, Any, Any] = (0, 1, 2),
    disks: Literal["ascending", "descending"] = "ascending",
) -> list[Any]:
    """Return the peg of each of *n* disks after *k* optimal moves, labelled.

    >>> labelled_state(3, 4)
    [1, 1, 2]
    >>> labelled_state(3, 4, final_peg=1, pegs=("s", "t", "d"), disks="descending")
    ['t', 'd', 'd']
    """
    if final_peg not in (1, 2):
        raise ValueError(f"final_peg must be 1 or 2, got {final_peg!r}")
    order = (0, 1, 2) if final_peg == 2 else (0, 2, 1)
    where = [pegs[order[peg]] for peg in state_at(n, k)]
    return where[::-1] if disks == "descending" else where


def between_towers(name: str, transfer: Callable[[int, int, int], Iterable[Any]]) -> SolverFor:
    """Return the ``solve_for`` of record *name*, which moves whole towers.

    >>> solve_for = between_towers("p", lambda n, src, dst: iter([(1, src, dst)]))
    >>> list(solve_for(1, (0,), (2,))), list(solve_for(1, (2,), (2,))), list(solve_for(0, (), ()))
    ([(1, 0, 2)], [], [])
    """

    def solve_for(n: int, start: tuple[Any, ...], goal: tuple[Any, ...]) -> Iterable[Any]:
        if n == 0:
            return iter(())
        src, dst = tower_peg(start), tower_peg(goal)
        if src is None or dst is None:
            raise UsageError(f"{name} moves whole towers only: the start and the goal must each be one peg")
        return iter(()) if src == dst else transfer(n, src, dst)

    return solve_for
