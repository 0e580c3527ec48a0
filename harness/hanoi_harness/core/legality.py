"""One move on the pegs: the state of the pegs, and the rule a move breaks."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from hanoi_harness.core.puzzle import Puzzle
from hanoi_harness.core.verdict import Failure, Rule, value_of

Pegs = tuple[list[int], ...]  #: The disks on each peg, bottom first.


def pegs_at(config: Sequence[int], pegs: int = 3) -> Pegs:
    """The *pegs* pegs as lists of disks, bottom first, for *config*.

    >>> pegs_at((1, 0, 1)), pegs_at((), 4)
    (([2], [3, 1], []), ([], [], [], []))
    """
    stacks: Pegs = tuple([] for _ in range(pegs))
    for disk in range(len(config), 0, -1):
        stacks[config[disk - 1]].append(disk)
    return stacks


class Tower:
    """The pegs as lists of disks, bottom first: *pegs*, or *n* disks on peg 0.

    >>> t = Tower(2)
    >>> t.pegs, t.tops(), Tower(2, pegs_at((0, 3), 4)).config(2)
    (([2, 1], [], []), (1, None, None), (0, 3))
    """

    __slots__ = ("pegs",)

    def __init__(self, n: int, pegs: Pegs | None = None) -> None:
        self.pegs = pegs if pegs is not None else (list(range(n, 0, -1)), [], [])

    def tops(self) -> tuple[int | None, ...]:
        """The top disk of each peg, None for an empty one."""
        return tuple(p[-1] if p else None for p in self.pegs)

    def complete_on(self) -> int | None:
        """The peg holding every disk, or None when they are spread."""
        holding = [i for i, p in enumerate(self.pegs) if p]
        if len(holding) == 1:
            return holding[0]
        return None if holding else 0

    def config(self, n: int) -> tuple[int, ...]:
        """The peg of each of the *n* disks, disk 1 first (or disk 0).

        >>> Tower(2, ([1], [0], [])).config(2)
        (1, 0)
        """
        where = [0] * n
        low = 0 if any(disks and disks[-1] == 0 for disks in self.pegs) else 1  # the smallest disk is a top
        for peg, disks in enumerate(self.pegs):
            for disk in disks:
                where[disk - low] = peg
        return tuple(where)


def is_integer(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def as_ints(move: Any) -> tuple[int, int, int] | None:
    """The *move* with plain ints, or None when it is not three integers."""
    try:
        disk, src, dst = move
    except (TypeError, ValueError):
        return None
    if is_integer(disk) and is_integer(src) and is_integer(dst):
        return (int(disk), int(src), int(dst))
    return None


def broken_rule(move: Any, pegs: Pegs, puzzle: Puzzle | None = None) -> Failure | None:
    """The rule *move* breaks on *pegs* under *puzzle*; None when it is legal.

    >>> broken_rule((1, 0, 2), ([2, 1], [], []))
    >>> failure = broken_rule((2, 0, 2), ([2, 1], [], []))
    >>> failure.rule, failure.disk, failure.src, failure.top
    ('not_on_top', 2, 0, 1)
    >>> from hanoi_harness.core.puzzle import CYCLIC
    >>> broken_rule((1, 0, 2), ([2, 1], [], []), CYCLIC).text()
    'the cyclic rule allows only 0->1, 1->2, 2->0, not 0->2'
    """
    try:
        disk, src, dst = move
    except (TypeError, ValueError):
        return Failure("not_a_triple")
    rules = puzzle if puzzle is not None else Puzzle(pegs=len(pegs))
    by_pegs = rules.move_failure(disk, src, dst)
    if by_pegs is not None:
        return by_pegs
    from_peg = pegs[src]
    if not from_peg:
        return _broken("empty_source", move)
    if not is_integer(disk):
        return _broken("not_integer", move)
    if from_peg[-1] != disk:
        return _broken("not_on_top", move, top=from_peg[-1])
    to_peg = pegs[dst]
    if to_peg and to_peg[-1] < disk:
        return _broken("larger_on_smaller", move, top=to_peg[-1])
    return None


def _broken(rule: Rule, move: Any, **more: Any) -> Failure:
    """The failure *rule* for the triple *move*, its disk and pegs as given."""
    disk, src, dst = move
    return Failure(rule, value_of(disk), value_of(src), value_of(dst), **more)


def illegal_reason(move: Any, pegs: Pegs, puzzle: Puzzle | None = None) -> str | None:
    """Why *move* is illegal on *pegs* under *puzzle*, in words, or None.

    >>> illegal_reason((1, 0, 2), ([2, 1], [], []))
    >>> illegal_reason((2, 0, 2), ([2, 1], [], []))
    'disk 2 is not on top of peg 0 (its top is 1)'
    """
    failure = broken_rule(move, pegs, puzzle)
    return None if failure is None else failure.text()
