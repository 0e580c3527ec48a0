"""A program's moves as the model's moves: labels to pegs, disks found."""

from __future__ import annotations

import re

from hanoi_harness.core.legality import Pegs
from hanoi_harness.transcript.pegs import PegNames, detect
from hanoi_harness.transcript.rules import Move
from hanoi_harness.transcript.source import MalformedLine

ModelMove = tuple[int | None, int, int]

CONTENTS = re.compile(r"\[\s*(?:\d{1,6}\s*(?:,\s*\d{1,6}\s*)*)?\]")
"""A peg written as the disks it holds: ``[3, 2, 1]``, ``[]``."""
_CAPTIONED = re.compile(r"(?:\b[^\W\d]\w{0,19}\s*[:=]\s*)?" + CONTENTS.pattern)
_DIGITS = re.compile(r"\d+")


class Model:
    """The model's pegs, and the moves read turned into the model's moves."""

    def __init__(self, pegs: Pegs, names: PegNames | None = None, base: int | None = None) -> None:
        self.pegs = pegs
        self.names = names
        self.base: int | None = None
        if base is not None:
            self._decide_base(base)
        known = names is not None and names.name != "words"
        self.labels: list[str | None] = list(names.labels) if known and names else [None] * len(pegs)
        self.occupied = frozenset(peg for peg, disks in enumerate(pegs) if disks)  # where the first move may start
        self.line = 0
        self.text = ""

    def _model(self, move: Move, number: int, text: str) -> ModelMove:
        """The model's move for ``move`` on line ``number``, or MalformedLine."""
        disk, s, t = move
        names = self.names or self._decide(s, t, number, text)
        if disk is not None and self.base is None:
            self._decide_base(disk)
        if s is not None and not names.cyclic:
            src, dst = names.index.get(s), names.index.get(t)
            if src is None or dst is None:
                try:
                    src, dst = names.peg(s), names.peg(t)
                except ValueError as exc:
                    raise MalformedLine(number, text, str(exc)) from None
            if None in self.labels:
                self._label(s, src, t, dst)
        elif s is None and names.cyclic:
            src = self._where(disk)
            dst = (src + (1 if t.lower() == "right" else -1)) % len(self.pegs)
        elif s is None and disk is not None and t.lower() not in ("left", "right"):
            src = self._where(disk)  # 'Move disk 1 to peg 3': from where the disk is
            try:
                dst = names.peg(t)
            except ValueError as exc:
                raise MalformedLine(number, text, str(exc)) from None
        elif s is None:
            raise MalformedLine(number, text, f"a disk and a direction, in moves whose pegs are {names.name}")
        else:
            raise MalformedLine(number, text, "a move between pegs, in moves read as directions (cyclic)")
        if disk is None:
            top = self.pegs[src]
            disk = top[-1] if top else None
        self.line, self.text = number, text
        return disk, src, dst

    def _decide(self, src: str | None, dst: str, number: int, text: str) -> PegNames:
        """The convention of the first move, or MalformedLine naming ``--pegs``."""
        try:
            self.names = detect(src, dst, len(self.pegs), self.occupied)
        except ValueError as exc:
            raise MalformedLine(number, text, str(exc)) from None
        if self.names.name != "words":
            self.labels = list(self.names.labels)
        return self.names

    def _by_contents(self, number: int, text: str) -> str:
        """``text`` with each peg written as the disks it holds renumbered."""
        groups = list(_CAPTIONED.finditer(text))
        if len(groups) != 2:
            return text
        out, end, taken = [], 0, -1
        for m in groups:
            written = m[0][m[0].index("[") :]
            disks = [int(d) for d in _DIGITS.findall(written)]
            found = [peg for peg, held in enumerate(self.pegs) if held in (disks, disks[::-1]) and peg != taken]
            if not found:
                raise MalformedLine(number, text, f"no peg holds {written} at this move")
            taken = found[0]
            out += [text[end : m.start()], f" {taken} "]
            end = m.end()
        return "".join([*out, text[end:]])

    def _decide_base(self, disk: int) -> bool:
        """Count disks from 0 when the first disk named is 0, renumbering the pegs."""
        self.base = 0 if disk == 0 else 1
        if self.base == 0:
            for peg in self.pegs:
                peg[:] = [d - 1 for d in peg]
        return True

    def _where(self, disk: int | None) -> int:
        """The peg whose top is ``disk``, else one that holds it, else 0."""
        for peg, disks in enumerate(self.pegs):
            if disks and disks[-1] == disk:
                return peg
        return next((peg for peg, disks in enumerate(self.pegs) if disk in disks), 0)

    def _label(self, s: str, src: int, t: str, dst: int) -> bool:
        """Remember the names a program gives its pegs; whether one is unknown."""
        for label, peg in ((s, src), (t, dst)):
            if self.labels[peg] is None:
                self.labels[peg] = label
        return None in self.labels
