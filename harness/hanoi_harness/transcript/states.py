"""Programs that print the pegs instead of moves: each state read."""

from __future__ import annotations

import re
from collections import Counter as Bag

from hanoi_harness.transcript.rules import Move

_GROUP = re.compile(r"[\[(]([\d\s,]*)[\])]")
_ONE_LINE = re.compile(r"[^\[\]()]*(?:[\[(]\s*)?(?:[^\[\]()\d]{0,20}[\[(][\d\s,]*[\])][\s,;]*){2,}(?:[\])}]\s*)?")
_PEG_LINE = re.compile(r"\s*(?:[^\W\d_][^\W_]{0,15}(?: ?\d{1,3})?)?\s*[:=|]\s*[\[(]?([\d\s,]*)[\])]?\s*")
_DIGITS = re.compile(r"\d{1,18}")
BARE = re.compile(r"\s*\[[\d\s,]*\]\s*")
"""A peg's disks alone on a line, ``[3, 2, 1]``: one peg a line."""
# A row of a table: a counter, then each peg's disks between tabs (' 5:\t 4 1 \t2 \t3').
_TABLE = re.compile(r"\s*(?:\d{1,18}\s*[:.)]?)?\t((?:[\d ]*\t)+[\d ]*)")
# The state printed after a move ('Move disk from 0 to 1 : [[3, 2], [1], []]'): lists, or a list of lists.
_STATE_TAIL = re.compile(r"(?:[\[(]\s*\[[\d\s,\[\]]*\]\s*[\])]|(?:\[[\d\s,]*\][\s,]*){2,})\s*")


class States:
    """Reads the states of a text line by line, for *pegs* pegs and *n* disks.

    >>> s = States(3, 2)
    >>> s.feed("[2, 1] [] []"), s.feed("[2] [1] []"), s.feed("[2] [1] []"), s.feed("[] [1] [2]")
    ([], [(1, '0', '1')], [], [(2, '0', '2')])
    """

    def __init__(self, pegs: int, n: int) -> None:
        self.pegs = pegs
        self.n = n
        self.previous: list[Bag[int]] | None = None
        self.rows: list[list[int]] = []  # the pegs read so far of a state printed one peg a line
        self.bare = False  # whether those rows are bare lists ('[3, 2, 1]'), not labelled ('A: 3 2 1')
        self.seen = 0
        self.at: tuple[int, str] = (0, "")  # the line (number, text) that completed the last state
        self.last: tuple[int, str] = (0, "")  # the last line read that belongs to a state

    def flush(self) -> list[Move]:
        """No move: a state ends on its own line (as :class:`~.pictures.Pictures`)."""
        return []

    def feed(self, text: str, number: int = 0) -> list[Move]:
        """The moves that the line ``text`` completes: none, or one."""
        line = _ONE_LINE.fullmatch(text)
        groups = _GROUP.findall(text) if line else []
        self.at = self.last = (number, text)
        if len(groups) == self.pegs:
            self.rows = []
            return self._state([_numbers(group) for group in groups])
        table = _TABLE.fullmatch(text.rstrip("\r\n"))
        if table is not None and table[1].count("\t") == self.pegs - 1:
            self.rows = []
            return self._state([_numbers(group) for group in table[1].split("\t")])
        if BARE.fullmatch(text):  # rows of one kind make a state: 'Initial:' is no peg before '[3, 2, 1]'
            self.rows = [*(self.rows if self.bare else []), _numbers(text)]
            self.bare = True
            return self._rows()
        was_bare, self.bare = self.bare, False
        row = _PEG_LINE.fullmatch(text)
        if row is None or not (text.strip() and (":" in text or "=" in text or "|" in text)):
            self.rows = []
            return []
        self.rows = [*([] if was_bare else self.rows), _numbers(row[1])]
        return self._rows()

    def _rows(self) -> list[Move]:
        if len(self.rows) < self.pegs:
            return []
        rows, self.rows = self.rows, []
        return self._state(rows)

    def _state(self, rows: list[list[int]]) -> list[Move]:
        self.seen += 1
        if any(self.n in row for row in rows) and sum(1 for row in rows for d in row if d) == self.n:
            rows = [[d for d in row if d] for row in rows]  # zeros pad the pegs of disks 1 .. n
        state = [Bag(row) for row in rows]
        previous = self.previous
        if previous is None:
            previous = tower(self.n, len(rows), from_one=self._from_one(rows))
        self.previous = state
        return between(previous, state)

    def _from_one(self, rows: list[list[int]]) -> bool:
        """Whether the disks are numbered from 1: no 0, or the largest is n."""
        values = [d for row in rows for d in row]
        return 0 not in values or self.n in values


def is_state(text: str, pegs: int) -> bool:
    """Whether the line *text* prints a state of *pegs* pegs, or a peg of one.

    >>> is_state("{'A': [3, 2], 'B': [], 'C': [1]}", 3), is_state("Peg 1: 3 2", 3), is_state("1 -> 3", 3)
    (True, True, False)
    """
    if _ONE_LINE.fullmatch(text) and len(_GROUP.findall(text)) == pegs:
        return True
    table = _TABLE.fullmatch(text.rstrip("\r\n"))
    if table is not None and table[1].count("\t") == pegs - 1:
        return True
    return bool(BARE.fullmatch(text) or (_PEG_LINE.fullmatch(text) and any(mark in text for mark in ":=|")))


def tower(n: int, pegs: int, *, from_one: bool = True) -> list[Bag[int]]:
    """The start: n disks on the first of ``pegs`` pegs, from 1 or from 0."""
    return [Bag(range(1, n + 1) if from_one else range(n))] + [Bag() for _ in range(pegs - 1)]


def between(previous: list[Bag[int]], state: list[Bag[int]]) -> list[Move]:
    """The move from ``previous`` to ``state``; none if equal, else ValueError.

    >>> between([Bag([2, 1]), Bag(), Bag()], [Bag([2]), Bag(), Bag([1])])
    [(1, '0', '2')]
    """
    if state == previous:
        return []
    pegs = range(len(state))
    left = [peg for peg in pegs if previous[peg] - state[peg]]
    came = [peg for peg in pegs if state[peg] - previous[peg]]
    if len(left) == 1 and len(came) == 1:
        (gone,) = left
        (arrived,) = came
        moved = previous[gone] - state[gone]
        if moved == state[arrived] - previous[arrived] and sum(moved.values()) == 1:
            (disk,) = moved
            if all(state[p] == previous[p] for p in pegs if p not in (gone, arrived)):
                return [(disk, str(gone), str(arrived))]
    raise ValueError("this state is not one move from the one before it")


def _numbers(group: str) -> list[int]:
    return [int(d) for d in _DIGITS.findall(group)]


def without_state(text: str) -> str:
    """``text`` without the state printed after its move, if it has one."""
    return split_state(text)[0]


def split_state(text: str) -> tuple[str, str]:
    """``text`` cut before the state printed after its move, and the state."""
    start = text.find("[")
    if start > 0 and text[start - 1] == "(":
        start -= 1
    if start <= 0 or not _STATE_TAIL.fullmatch(text, start):
        return text, ""
    return text[:start].rstrip(" \t:=|-"), text[start:]
