"""Programs that draw the pegs after each move: pictures read as states.

Disks are numbers, or runs whose width is their rank, on the peg they are
centred on. :class:`Pictures` gives the move between two pictures.

>>> rows = [" 1    ", " 2   ", "-----", "      ", " 2   1", "-----", "   1  ", " 2    ", "-----"]
>>> found = layout(rows, 3, 2)
>>> found.centres, found.widths
((2, 6, 10), None)
>>> pictures = Pictures(found, 3, 2)
>>> [move for text in rows for move in pictures.feed(text)] + pictures.flush()
[(1, '0', '2'), (1, '2', '1')]
"""

from __future__ import annotations

import re
from collections import Counter as Bag
from typing import NamedTuple

from hanoi_harness.transcript.rules import Move
from hanoi_harness.transcript.states import between, tower

_POLES = frozenset("|│┃║¦!░▒")
_LETTER = re.compile(r"[^\W\d_]")
_SEGMENT = re.compile(r"\S+")
_DIGITS = re.compile(r"\d{1,6}")
_WIDEST = 1_000
_SLACK = 2
"""How far, in half columns, a disk's centre may stand from its peg's."""

Segment = tuple[int, str]
"""A run of a row: its centre in half columns (start + end - 1), its text."""


class Layout(NamedTuple):
    """Where the pegs stand (half columns) and what the disks look like."""

    centres: tuple[int, ...]
    widths: dict[int, int] | None
    base: int
    ordered: bool = False
    """Each row draws one run a peg, in order, the columns not aligned."""


def _segments(text: str) -> list[Segment] | None:
    """The runs of a picture row, or None for a line that is no picture row."""
    text = text.rstrip("\r\n")
    if len(text) > _WIDEST or _LETTER.search(text):
        return None
    return [(m.start() + m.end() - 1, m[0]) for m in _SEGMENT.finditer(text)]


def is_row(text: str) -> bool:
    """Whether ``text`` can be a row of a picture: drawn, with no letter."""
    return bool(_segments(text))


def draws_disks(text: str) -> bool:
    """Whether ``text`` can be a row of a picture that draws a disk.

    >>> draws_disks(" ▇▇▇  ░  ░"), draws_disks("  |  |  |"), draws_disks("Move 1")
    (True, False, False)
    """
    return any(not _pole(run) for _, run in _segments(text) or ())


def _pole(text: str) -> bool:
    return all(ch in _POLES for ch in text)


def layout(lines: list[str], pegs: int, n: int, *, forced: bool = False) -> Layout | None:
    """The layout of the pictures that ``lines`` draw, or None if none."""
    rows = [row for row in map(_segments, lines) if row]
    if not rows or n < 1:
        return None
    extent = max(max(centre for centre, _ in row) for row in rows) // 2 + 1
    base = max(3, extent // 2)
    runs = [seg for row in rows if not _base(row, base) for seg in row]
    digits = [(centre, text) for row in rows if not _base(row, base) for centre, text in _numbers(row)]
    disks = [text for _, text in runs if not _pole(text)]
    candidates: list[Layout] = []
    if digits:  # numbered disks: their digits stand in the pegs' columns
        candidates.append(Layout(tuple(_columns(sorted({centre for centre, _ in digits}))), None, base))
    if disks and not digits and len({len(text) for text in disks}) == n:
        widths = {width: disk for disk, width in enumerate(sorted({len(text) for text in disks}), 1)}
        candidates.append(Layout(tuple(_columns(sorted({centre for centre, _ in runs}))), widths, base))
        drawn = [len(row) == pegs for row in rows if not _base(row, base)]
        if 4 * sum(drawn) >= 3 * len(drawn):  # one run a peg, drawn in order (a bad row is refused at its line)
            candidates.append(Layout((), widths, base, ordered=True))
    for found in candidates:
        if len(found.centres) != pegs and not found.ordered:
            continue
        if forced:
            return found
        reader, moves = Pictures(found, pegs, n), 0
        for text in lines:
            try:
                moves += len(reader.feed(text))
            except ValueError:  # the reader says where, if what comes before reads as pictures
                break
        if reader.seen >= 2 and moves:
            return found
    return None


def _numbers(row: list[Segment]) -> list[Segment]:
    """The runs of digits of a row's runs, each with its own centre."""
    out = []
    for centre, text in row:
        start = (centre - len(text) + 1) // 2  # the run's first column
        out += [(2 * (start + m.start()) + len(m[0]) - 1, m[0]) for m in _DIGITS.finditer(text)]
    return out


def _base(row: list[Segment], base: int) -> bool:
    return len(row) == 1 and len(row[0][1]) >= base


def _columns(centres: list[int]) -> list[int]:
    """The pegs' centres: runs a column apart or less are one peg."""
    groups: list[list[int]] = []
    for centre in centres:
        if groups and centre - groups[-1][-1] <= _SLACK:
            groups[-1].append(centre)
        else:
            groups.append([centre])
    if any(group[-1] - group[0] > 2 * _SLACK for group in groups):
        return []  # runs spread over a column and more: text, not pegs
    return [(group[0] + group[-1]) // 2 for group in groups]


class Pictures:
    """Reads pictures of the pegs line by line; each gives the move to it."""

    def __init__(self, found: Layout, pegs: int, n: int) -> None:
        self.layout = found
        self.pegs = pegs
        self.n = n
        self.block: list[list[tuple[int, int]]] = []
        self.previous: list[Bag[int]] | None = None
        self.seen = 0
        self.at: tuple[int, str] = (0, "")
        self.last: tuple[int, str] = (0, "")

    def feed(self, text: str, number: int = 0) -> list[Move]:
        """The move the line ``text`` completes, if it ends a picture."""
        row = _segments(text)
        if row is None or not row or _base(row, self.layout.base):
            return self.flush()
        if self.layout.widths is None:
            disks = [(self._peg(centre), int(digits)) for centre, digits in _numbers(row)]
        elif self.layout.ordered:
            if len(row) != self.pegs:
                raise ValueError(f"a row of {len(row)} runs, not one for each of the {self.pegs} pegs")
            disks = [(peg, self._disk(run)) for peg, (_, run) in enumerate(row) if not _pole(run)]
        else:
            disks = [(self._peg(centre), self._disk(run)) for centre, run in row if not _pole(run)]
        if disks or self.block:
            self.block.append(disks)
            self.last = (number, text)
        return []

    def flush(self) -> list[Move]:
        """The move to the picture read so far, if there is one."""
        block, self.block = self.block, []
        if not any(block):
            return []
        state: list[list[int]] = [[] for _ in range(self.pegs)]
        for row in reversed(block):
            for peg, disk in row:
                state[peg].append(disk)
        count = sum(len(disks) for disks in state)
        if count != self.n:
            raise ValueError(f"this picture shows {count} disks, not {self.n}")
        self.seen += 1
        self.at = self.last
        bags = [Bag(disks) for disks in state]
        previous = self.previous or tower(self.n, self.pegs, from_one=all(0 not in bag for bag in bags))
        self.previous = bags
        return between(previous, bags)

    def _peg(self, centre: int) -> int:
        for peg, at in enumerate(self.layout.centres):
            if abs(centre - at) <= _SLACK:
                return peg
        raise ValueError(f"a disk at column {centre // 2 + 1}, under no peg")

    def _disk(self, run: str) -> int:
        widths = self.layout.widths or {}
        disk = widths.get(len(run))
        if disk is None:
            raise ValueError(f"{run!r} is no disk's width ({', '.join(map(str, sorted(widths)))})")
        return disk
