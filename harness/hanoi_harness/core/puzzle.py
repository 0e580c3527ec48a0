"""The puzzle as data: its pegs, the moves it allows, where the disks go.

A configuration is the peg of each disk, disk 1 first, as ``hanoi state`` prints it.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

from hanoi_harness.core.optimal import (
    Optimum,
    cyclic_counts,
    distance,
    frame_stewart,
    frame_stewart_status,
    linear_count,
)
from hanoi_harness.core.verdict import Failure, one_of, value_of
from hanoi_harness.errors import UsageError

Config = tuple[int, ...]  #: A configuration: the peg of each disk, disk 1 (the smallest) first.

Rule = Literal["any", "cyclic", "linear"]

RULES: tuple[Rule, ...] = ("any", "cyclic", "linear")
"""Which moves are allowed: every pair, one way round the cycle, or adjacent pegs."""


def peg_names(pegs: int) -> str:
    """Peg numbers 0 .. *pegs* - 1 in words, for messages.

    >>> peg_names(3), peg_names(5), peg_names(65536)
    ('0, 1 or 2', '0, 1, 2, 3 or 4', 'one of 0 .. 65535')
    """
    return one_of([str(peg) for peg in range(pegs)])  # 65536 pegs at most, and only for a message


def parse_config(text: str, pegs: int = 3, n: int | None = None) -> Config:
    """The configuration *text* spells: the peg of each disk, comma-separated.

    >>> parse_config("1, 1,2"), parse_config("", n=0), parse_config("0,3", pegs=4)
    ((1, 1, 2), (), (0, 3))
    >>> parse_config("0,3")
    Traceback (most recent call last):
    ...
    hanoi_harness.errors.UsageError: configuration '0,3': disk 2: peg '3' is not 0, 1 or 2
    """
    parts = [part.strip() for part in text.split(",")] if text.strip() else []
    shown = _shown(text)
    if n is not None and len(parts) != n:
        raise UsageError(
            f"configuration {shown}: expected {n} pegs (one per disk, disk 1 first, comma-separated), got {len(parts)}"
        )
    # Each peg is looked up in a table of the pegs' spellings: faster than testing and converting each
    # part.  "02" or "+1" is no spelling, and a part of any length is only hashed, never converted.
    spellings = (
        _spellings(pegs) if pegs <= MAX_TABLE else {part: int(part) for part in set(parts) if _peg_of(part, pegs)}
    )
    config = [spellings.get(part, -1) for part in parts]
    if -1 in config:
        disk = config.index(-1) + 1
        raise UsageError(f"configuration {shown}: disk {disk}: peg {_shown(parts[disk - 1])} is not {peg_names(pegs)}")
    return tuple(config)


MAX_TABLE = 1 << 16  #: The most pegs whose spellings :func:`parse_config` keeps in a table.


@cache
def _spellings(pegs: int) -> dict[str, int]:
    """Each peg of *pegs* as ``hanoi state`` writes it, mapped to the peg."""
    return {str(peg): peg for peg in range(pegs)}


def _peg_of(text: str, pegs: int) -> bool:
    """Whether *text* is a peg of *pegs*, with no sign or leading zero."""
    return (
        text.isascii()
        and text.isdigit()
        and len(text) <= len(str(pegs))
        and str(int(text)) == text
        and int(text) < pegs
    )


def _shown(text: str, limit: int = 40) -> str:
    """Quote *text* for a message, cut to *limit* characters when longer.

    >>> _shown("0,1"), _shown("0," * 30, 6)
    ("'0,1'", "'0,0,0,'... (60 characters)")
    """
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def format_config(config: Sequence[int]) -> str:
    """*config* as ``hanoi state`` prints it.

    >>> format_config((1, 1, 2))
    '1,1,2'
    """
    return ",".join(map(str, config))


def tower(n: int, peg: int) -> Config:
    """The configuration of n disks all on *peg*.

    >>> tower(3, 2)
    (2, 2, 2)
    """
    return (peg,) * n


def tower_peg(config: Sequence[int]) -> int | None:
    """The peg holding every disk of *config*, or None (spread, or no disk).

    >>> tower_peg((1, 1)), tower_peg((0, 1)), tower_peg(())
    (1, None, None)
    """
    return config[0] if config and all(peg == config[0] for peg in config) else None


def _is_peg(peg: object, pegs: int) -> bool:
    """True when *peg* is an integer (not a bool) from 0 to *pegs* - 1."""
    return isinstance(peg, numbers.Integral) and not isinstance(peg, bool) and 0 <= int(peg) < pegs


def _checked(config: Sequence[int], pegs: int, what: str) -> Config:
    """Return *config* as a tuple once its pegs are checked."""
    for disk, peg in enumerate(config, 1):
        if not _is_peg(peg, pegs):
            raise UsageError(f"{what} configuration: disk {disk}: peg {peg!r} is not {peg_names(pegs)}")
    return tuple(int(peg) for peg in config)


def _pair(start: Sequence[int], goal: Sequence[int], pegs: int) -> tuple[Config, Config]:
    """Return *start* and *goal*, checked and of the same length."""
    first, second = _checked(start, pegs, "start"), _checked(goal, pegs, "goal")
    if len(first) != len(second):
        raise UsageError(f"the start configuration has {len(first)} disks and the goal {len(second)}")
    return first, second


@dataclass(frozen=True)
class Puzzle:
    """The rules of one puzzle: its pegs, its moves, and maybe its ends.

    >>> CLASSIC.allows(0, 2), CYCLIC.allows(0, 2), CYCLIC.allows(2, 0), LINEAR.allows(0, 2)
    (True, False, True, False)
    >>> print(k_pegs(4))
    4 pegs, every move
    >>> print(CYCLIC.between((0, 0), (1, 1)))
    3 pegs, cyclic: only 0->1, 1->2, 2->0, from 0,0 to 1,1
    >>> Puzzle(pegs=2)
    Traceback (most recent call last):
    ...
    hanoi_harness.errors.UsageError: a puzzle needs at least 3 pegs, got 2
    """

    pegs: int = 3
    rule: Rule = "any"
    start: Config | None = None
    goal: Config | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.pegs, int) or isinstance(self.pegs, bool) or self.pegs < 3:
            raise UsageError(f"a puzzle needs at least 3 pegs, got {self.pegs!r}")
        if self.rule not in RULES:
            raise UsageError(f"unknown rule {self.rule!r}: the rules are {', '.join(RULES)}")
        if self.rule != "any" and self.pegs != 3:
            raise UsageError(f"the {self.rule} rule is defined for 3 pegs, not {self.pegs}")
        for what in ("start", "goal"):
            config = getattr(self, what)
            if config is not None:
                object.__setattr__(self, what, _checked(config, self.pegs, what))
        if self.start is not None and self.goal is not None:
            _pair(self.start, self.goal, self.pegs)

    @property
    def classic(self) -> bool:
        """True for three pegs and every move allowed, whatever the start and goal."""
        return self.pegs == 3 and self.rule == "any"

    @property
    def name(self) -> str:
        """The puzzle in a word or two, as ``hanoi list`` shows it.

        >>> CLASSIC.name, CYCLIC.name, LINEAR.name, k_pegs(4).name
        ('classic', 'cyclic', 'linear', '4 pegs')
        """
        if self.rule != "any":
            return self.rule
        return "classic" if self.pegs == 3 else f"{self.pegs} pegs"

    @property
    def allowed(self) -> frozenset[tuple[int, int]]:
        """The (source, destination) pairs the rule allows.

        >>> sorted(LINEAR.allowed)
        [(0, 1), (1, 0), (1, 2), (2, 1)]
        """
        return frozenset((s, t) for s in range(self.pegs) for t in range(self.pegs) if self.allows(s, t))

    def allows(self, src: int, dst: int) -> bool:
        """True when the rule allows a move from peg *src* to peg *dst*."""
        return self.move_error(src, dst) is None

    def move_error(self, src: int, dst: int) -> str | None:
        """Why a move from peg *src* to peg *dst* breaks the rules, or None.

        >>> CYCLIC.move_error(1, 0), k_pegs(4).move_error(0, 4)
        ('the cyclic rule allows only 0->1, 1->2, 2->0, not 1->0', 'destination peg 4 is not 0, 1, 2 or 3')
        """
        failure = self.move_failure(None, src, dst)
        return None if failure is None else failure.text()

    def move_failure(self, disk: Any, src: Any, dst: Any) -> Failure | None:
        """The rule a move of *disk* from *src* to *dst* breaks by its pegs.

        >>> LINEAR.move_failure(1, 0, 2)
        Failure('forbidden_move', disk=1, src=0, dst=2, variant='linear')
        """
        given = None if disk is None else value_of(disk)
        if not _is_peg(src, self.pegs):
            return Failure("bad_peg", given, value_of(src), value_of(dst), side="source", pegs=self.pegs)
        if not _is_peg(dst, self.pegs):
            return Failure("bad_peg", given, value_of(src), value_of(dst), side="destination", pegs=self.pegs)
        if src == dst:
            return Failure("same_peg", given, value_of(src), value_of(dst))
        if not self._connects(int(src), int(dst)):
            return Failure("forbidden_move", given, value_of(src), value_of(dst), variant=self.rule)
        return None

    def _connects(self, src: int, dst: int) -> bool:
        """True when the rule lets a disk go from peg *src* straight to *dst*."""
        if self.rule == "cyclic":
            return dst == (src + 1) % 3
        if self.rule == "linear":
            return abs(src - dst) == 1
        return True

    def between(self, start: Sequence[int], goal: Sequence[int]) -> Puzzle:
        """This puzzle from configuration *start* to *goal*, both checked."""
        return replace(self, start=tuple(start), goal=tuple(goal))

    def start_config(self, n: int) -> Config:
        """Where n disks start: the fixed start, or the whole tower on peg 0."""
        return self._fixed("start", n, 0)

    def goal_config(self, n: int, peg: int) -> Config:
        """Where n disks must end: the fixed goal, or the whole tower on *peg*."""
        return self._fixed("goal", n, peg)

    def _fixed(self, what: str, n: int, peg: int) -> Config:
        """The fixed *what* configuration of n disks, else the tower on *peg*."""
        config: Config | None = getattr(self, what)
        if config is None:
            return tower(n, peg)
        if len(config) != n:
            raise UsageError(f"the {what} configuration has {len(config)} disks, not n = {n}")
        return config

    def optimum(self, n: int, peg: int) -> Optimum | None:
        """The fewest moves for n disks from the start to the goal on *peg*.

        >>> [CYCLIC.optimum(n, 1).moves for n in range(1, 8)], k_pegs(5).optimum(10, 4).describe()
        ([1, 5, 15, 43, 119, 327, 895], 'matches the Frame-Stewart count (conjectured optimal for k >= 5)')
        """
        return self.distance(self.start_config(n), self.goal_config(n, peg))

    def distance(self, start: Sequence[int], goal: Sequence[int]) -> Optimum | None:
        """The fewest moves from configuration *start* to *goal*; None if unknown.

        >>> CLASSIC.distance((0, 0, 1), (1, 1, 0)).moves, LINEAR.distance((0, 0), (2, 2)).describe()
        (5, 'optimal (proven)')
        >>> print(k_pegs(4).distance((0, 1), (3, 3)))
        None
        """
        start, goal = _pair(start, goal, self.pegs)
        if start == goal:
            return Optimum(0, "proven", "empty sequence")
        if self.classic:
            return Optimum(distance(start, goal), "proven", "shortest path")
        src, dst = tower_peg(start), tower_peg(goal)
        if src is None or dst is None:
            return None
        n = len(start)
        if self.rule == "cyclic":
            forward, backward = cyclic_counts(n)
            return Optimum(forward if (dst - src) % 3 == 1 else backward, "proven", "cyclic recurrence")
        if self.rule == "linear":
            return Optimum(linear_count(n, src, dst), "proven", "linear recurrence")
        return Optimum(frame_stewart(n, self.pegs), frame_stewart_status(self.pegs), "Frame-Stewart count")

    def __str__(self) -> str:
        rules = {"any": "every move", "cyclic": "cyclic: only 0->1, 1->2, 2->0", "linear": "linear: 0-1-2"}
        text = f"{self.pegs} pegs, {rules[self.rule]}"
        if self.start is not None or self.goal is not None:
            start = "the tower on 0" if self.start is None else format_config(self.start)
            goal = "the tower" if self.goal is None else format_config(self.goal)
            text += f", from {start} to {goal}"
        return text


CLASSIC = Puzzle()  #: Three pegs, every move allowed: the puzzle of a record unless it says otherwise.

CYCLIC = Puzzle(rule="cyclic")  #: Three pegs on a cycle, every move one step forward: 0 -> 1 -> 2 -> 0.

LINEAR = Puzzle(rule="linear")  #: Three pegs in a row, every move between neighbours: 0 - 1 - 2.


def k_pegs(k: int) -> Puzzle:
    """The puzzle with *k* pegs, every move allowed.

    >>> k_pegs(4).pegs
    4
    """
    return Puzzle(pegs=k)
