"""The puzzle as data: its pegs, the moves it allows, where the disks go.

A :class:`Puzzle` says how many pegs there are, which moves the rules allow,
and where the disks start and end.  It is what an algorithm solves and what
its moves are judged against.  The classic puzzle (:data:`CLASSIC`) has
three pegs and allows every move.  The variants restrict the moves
(:data:`CYCLIC`: only 0 -> 1, 1 -> 2, 2 -> 0; :data:`LINEAR`: only between
adjacent pegs, 0 - 1 - 2) or add pegs (:func:`k_pegs`).

A configuration is the peg of each disk, disk 1 (the smallest) first, as
``hanoi state`` prints it.  Any such list is a legal position, since the
disks on a peg always stack largest first.  By default a run starts with the
whole tower on peg 0 and ends with the whole tower on the peg its algorithm
declares.  Other start and goal configurations are named by
:meth:`Puzzle.between`.

:meth:`Puzzle.distance` gives the fewest moves between two configurations
wherever the literature knows them, and whether that count is proven
optimal or only conjectured.  The arithmetic is in
:mod:`hanoi_harness.core.optimal`.
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

Config = tuple[int, ...]
"""A configuration: the peg of each disk, disk 1 (the smallest) first."""

Rule = Literal["any", "cyclic", "linear"]

RULES: tuple[Rule, ...] = ("any", "cyclic", "linear")
"""Which moves are allowed.

Every pair of pegs, one way round the cycle 0 -> 1 -> 2 -> 0, or adjacent pegs.
"""


def peg_names(pegs: int) -> str:
    """Peg numbers 0 .. *pegs* - 1 in words, for messages.

    Up to ten pegs are listed; more are written as a range.

    >>> peg_names(3), peg_names(5), peg_names(65536)
    ('0, 1 or 2', '0, 1, 2, 3 or 4', 'one of 0 .. 65535')
    """
    return one_of([str(peg) for peg in range(pegs)])  # 65536 pegs at most, and only for a message


def parse_config(text: str, pegs: int = 3, n: int | None = None) -> Config:
    """The configuration *text* spells: the peg of each disk, comma-separated.

    Disk 1 comes first.  *pegs* is the number of pegs; *n*, when given, the
    number of disks the configuration must have.  This is the form
    ``hanoi state`` prints.

    >>> parse_config("1, 1,2")
    (1, 1, 2)
    >>> parse_config("", n=0)
    ()
    >>> parse_config("0,3", pegs=4)
    (0, 3)
    >>> parse_config("0,3")
    Traceback (most recent call last):
    ...
    hanoi_harness.errors.UsageError: configuration '0,3': disk 2: peg '3' is not 0, 1 or 2

    Every error is one :class:`UsageError` line naming the configuration
    (its first 40 characters, for a long one).
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


MAX_TABLE = 1 << 16
"""The most pegs whose spellings :func:`parse_config` keeps in a table."""


@cache
def _spellings(pegs: int) -> dict[str, int]:
    """Each peg of *pegs* as ``hanoi state`` writes it, mapped to the peg."""
    return {str(peg): peg for peg in range(pegs)}


def _peg_of(text: str, pegs: int) -> bool:
    """Whether *text* is a peg of *pegs* as ``hanoi state`` writes it.

    That spelling has no sign and no leading zero.
    """
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
    """The peg holding every disk of *config*, or None.

    None when the disks are spread, or when there are none.

    >>> tower_peg((1, 1)), tower_peg((0, 1)), tower_peg(())
    (1, None, None)
    """
    return config[0] if config and all(peg == config[0] for peg in config) else None


def _is_peg(peg: object, pegs: int) -> bool:
    """True when *peg* is an integer from 0 to *pegs* - 1.

    A numpy integer counts; a bool never does.
    """
    return isinstance(peg, numbers.Integral) and not isinstance(peg, bool) and 0 <= int(peg) < pegs


def _checked(config: Sequence[int], pegs: int, what: str) -> Config:
    """Return *config* as a tuple, once each of its pegs is checked.

    A value that is no peg raises a one-line :class:`UsageError` naming *what*.
    """
    for disk, peg in enumerate(config, 1):
        if not _is_peg(peg, pegs):
            raise UsageError(f"{what} configuration: disk {disk}: peg {peg!r} is not {peg_names(pegs)}")
    return tuple(int(peg) for peg in config)


def _pair(start: Sequence[int], goal: Sequence[int], pegs: int) -> tuple[Config, Config]:
    """Return *start* and *goal*, checked by :func:`_checked`.

    They must also be of the same length, else a one-line
    :class:`UsageError` says so.
    """
    first, second = _checked(start, pegs, "start"), _checked(goal, pegs, "goal")
    if len(first) != len(second):
        raise UsageError(f"the start configuration has {len(first)} disks and the goal {len(second)}")
    return first, second


@dataclass(frozen=True)
class Puzzle:
    """The rules of one puzzle: its pegs, its moves, and maybe its ends.

    It has *pegs* pegs, allows the moves *rule* allows, and may fix a
    *start* and a *goal* configuration.  Without *start* and *goal* a run of
    n disks starts with the whole tower on peg 0.  It ends with the tower on
    the peg its algorithm declares.

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
        """True for the classic rules: three pegs, every move allowed.

        The start and goal do not matter.
        """
        return self.pegs == 3 and self.rule == "any"

    @property
    def name(self) -> str:
        """The puzzle in a word or two, as ``hanoi list`` shows it.

        That is classic, cyclic, linear, or k pegs.

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
        """True when the rule allows a move from peg *src* to peg *dst*.

        Both must be pegs of this puzzle.
        """
        return self.move_error(src, dst) is None

    def move_error(self, src: int, dst: int) -> str | None:
        """Why a move from peg *src* to peg *dst* breaks the rules, or None.

        Only the pegs are judged, not the disks.

        >>> CYCLIC.move_error(1, 0)
        'the cyclic rule allows only 0->1, 1->2, 2->0, not 1->0'
        >>> k_pegs(4).move_error(0, 4)
        'destination peg 4 is not 0, 1, 2 or 3'
        """
        failure = self.move_failure(None, src, dst)
        return None if failure is None else failure.text()

    def move_failure(self, disk: Any, src: Any, dst: Any) -> Failure | None:
        """The rule a move breaks by its pegs alone, or None.

        The move is of *disk* from peg *src* to peg *dst*.  A peg that is not
        an integer 0..k-1 is ``bad_peg``, the same peg twice ``same_peg``, a
        pair the cyclic or linear rule does not connect ``forbidden_move``.
        What is on the pegs is the checker's to judge.

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
        """True when the rule lets a disk go from peg *src* straight to *dst*.

        The two pegs are different.
        """
        if self.rule == "cyclic":
            return dst == (src + 1) % 3
        if self.rule == "linear":
            return abs(src - dst) == 1
        return True

    def between(self, start: Sequence[int], goal: Sequence[int]) -> Puzzle:
        """This puzzle from configuration *start* to configuration *goal*.

        Both are checked: pegs in range, and the same length.
        """
        return replace(self, start=tuple(start), goal=tuple(goal))

    def start_config(self, n: int) -> Config:
        """Where n disks start: the fixed start, or the whole tower on peg 0."""
        return self._fixed("start", n, 0)

    def goal_config(self, n: int, peg: int) -> Config:
        """Where n disks must end: the fixed goal, or the whole tower on *peg*."""
        return self._fixed("goal", n, peg)

    def _fixed(self, what: str, n: int, peg: int) -> Config:
        """The fixed *what* configuration, else the tower of n disks on *peg*.

        A fixed configuration of other than n disks is a one-line error.
        """
        config: Config | None = getattr(self, what)
        if config is None:
            return tower(n, peg)
        if len(config) != n:
            raise UsageError(f"the {what} configuration has {len(config)} disks, not n = {n}")
        return config

    def optimum(self, n: int, peg: int) -> Optimum | None:
        """The fewest moves for n disks from the start to the goal on *peg*.

        The ends are :meth:`start_config` and :meth:`goal_config`; see
        :meth:`distance`.

        >>> [CYCLIC.optimum(n, 1).moves for n in range(1, 8)]
        [1, 5, 15, 43, 119, 327, 895]
        >>> k_pegs(5).optimum(10, 4).describe()
        'matches the Frame-Stewart count (conjectured optimal for k >= 5)'
        """
        return self.distance(self.start_config(n), self.goal_config(n, peg))

    def distance(self, start: Sequence[int], goal: Sequence[int]) -> Optimum | None:
        """The fewest moves from configuration *start* to *goal* under these rules.

        None where no count is known.  Known: any two configurations on
        three pegs with every move allowed (proven); whole towers in the
        cyclic and linear variants (proven).  Whole towers on k pegs take
        the Frame-Stewart count (proven for k <= 4, conjectured beyond).

        >>> CLASSIC.distance((0, 0, 1), (1, 1, 0)).moves
        5
        >>> LINEAR.distance((0, 0), (2, 2)).describe()
        'optimal (proven)'
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


CLASSIC = Puzzle()
"""Three pegs, every move allowed: the puzzle of every record by default.

A record solves it unless it says otherwise.
"""

CYCLIC = Puzzle(rule="cyclic")
"""Three pegs on a cycle, every move one step forward: 0 -> 1 -> 2 -> 0."""

LINEAR = Puzzle(rule="linear")
"""Three pegs in a row, every move between neighbours: 0 - 1 - 2.

A move never goes from 0 to 2 directly.
"""


def k_pegs(k: int) -> Puzzle:
    """The puzzle with *k* pegs, every move allowed.

    >>> k_pegs(4).pegs
    4
    """
    return Puzzle(pegs=k)
