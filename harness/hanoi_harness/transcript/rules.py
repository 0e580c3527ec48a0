"""One line of another program's output read as a move, by its shape."""

from __future__ import annotations

from typing import NamedTuple

from hanoi_harness.transcript import lexicon
from hanoi_harness.transcript.line import AROUND, Counter, Line
from hanoi_harness.transcript.pegs import WORDS, quote
from hanoi_harness.transcript.tokens import ARROWS, MARK, NUM, WORD, Token, tokens

Move = tuple[int | None, str | None, str]
"""``(disk or None, source or None, destination or direction)``, as written."""

_FROM, _TO, _DISK, _NUMBER, _THE = lexicon.FROM, lexicon.TO, lexicon.DISK, lexicon.NUMBER, lexicon.THE
_PEGWORD, _DIRECTION, _MOVING = lexicon.PEGWORD, lexicon.DIRECTION, lexicon.MOVING
_POST_FROM, _POST_TO = lexicon.POST_FROM, lexicon.POST_TO


class Found(NamedTuple):
    """Where a line's move is: the indexes of its tokens (None: not named)."""

    disk: int | None
    src: int | None
    dst: int


class _Shapes(Line):
    """The shapes of a move, tried on one line's tokens by :meth:`find`."""

    def find(self) -> Found | None:
        """The move on this line, None for a line that is not one."""
        t = self.t
        if not any(tok.kind in (NUM, WORD) for tok in t):
            return None  # no letter or digit, no peg: a drawing, a separator such as '---->'
        arrows = [i for i, tok in enumerate(t) if tok.kind == ARROWS]
        if len(arrows) > 1:
            raise ValueError(f"{len(arrows)} arrows; a move line has one")
        if arrows:
            return self.arrow(arrows[0])
        if self.legend():
            return None
        pairs = self.from_to()
        if pairs:
            return self.from_to_move(pairs)
        post = next((i for i in range(1, len(t) - 1) if self.word(i, _POST_FROM)), None)
        found = self.x_post_y(post) if post is not None else None
        f = next((i for i in range(len(t)) if self.word(i, _FROM)), None)
        found = found or ((self.x_from_y(f) or self.from_x_y(f)) if f is not None else None)
        for to in (i for i in range(1, len(t) - 1) if self.to_word(i)):
            found = found or self.x_to_y(to)
        found = found or self.direction() or self.plain() or (self.to_only() if f is None else None)
        if found is None and f is not None and not self.header(self.clause(f), f):
            k = self.peg_after(f + 1)
            if k < len(t) and self.peg_kind(k) in ("l", "n"):
                raise ValueError(f"a source after {quote(t[f].text, 20)} but no destination")
            if any(self.word(i, _DISK) for i in range(f)):
                raise ValueError(f"a disk and {quote(t[f].text, 20)}, but no source and destination")
        return found

    def legend(self) -> bool:
        """Whether the line is a legend such as 'from = A, to = C, via = B'."""
        t = self.t
        return any(self.word(i, _FROM | _TO) and t[i + 1].low == "=" for i in range(len(t) - 1))

    # The shapes.

    def arrow(self, a: int) -> Found | None:
        lo = self.clause(a)
        if self.header(lo, a):
            return None
        i = self.skip_back(a - 1, lo)
        if i >= lo and self.word(i, _PEGWORD) and self.skip_back(i - 1, lo) >= lo:
            i = self.skip_back(i - 1, lo)  # "left peg -> right peg"
        j = self.peg_after(a + 1)
        if i < lo or j >= len(self.t):
            raise ValueError("an arrow needs a peg on each side")
        self.need_pegs(i, j, "an arrow needs a peg on each side")
        return Found(self.disk(lo, i, j), i, j)

    def from_to(self) -> list[tuple[int, int]]:
        """Each 'to' at least two tokens after a 'from', and the 'from's before it."""
        froms: list[int] = []
        pairs: list[tuple[int, int]] = []
        for k in range(len(self.t)):
            if self.prompt_end(k):
                froms = []  # 'nombre de disque: deplacez a vers c': the prompt's 'de' is no connective
            if froms and self.to_word(k):
                pairs += [(f, k) for f in reversed(froms[-3:]) if k >= f + 2]  # the nearest first, a few at most
            if self.word(k, _FROM):
                froms.append(k)
            if len(pairs) > 8:
                break  # (a line of many connectives is no move: its errors are enough)
        return pairs

    def from_to_move(self, pairs: list[tuple[int, int]]) -> Found | None:
        """The move of the first pair of connectives that reads as one."""
        error: ValueError | None = None
        for f, to in pairs:
            try:
                return self.from_x_to_y(f, to)
            except ValueError as exc:
                error = error or exc
        assert error is not None
        raise error

    def from_x_to_y(self, f: int, to: int) -> Found | None:
        lo = self.clause(f)
        if self.header(lo, f):
            return None
        between = [i for i in range(f + 1, to) if not self.filler(i)]
        if len(between) > 3:
            return None  # prose ('... da torre de hanoi! Você deve mover os discos para ...'), not a move
        labels = [i for i in between if self.peg_kind(i) in ("n", "l")]
        if len(between) == 2 and len(labels) == 1 and all(self.peg_kind(i) or self.other(i) for i in between):
            between = labels  # "from source A", "von A - Start", "iz palku 1": the name labels the peg
        j = self.peg_after(to + 1)
        if len(between) != 1 or j >= len(self.t):
            raise ValueError("'from' and 'to' need a peg each")
        self.need_pegs(between[0], j, "'from' and 'to' need a peg each")
        return Found(self.disk(lo, between[0], j), between[0], j)

    def x_to_y(self, to: int) -> Found | None:
        lo = self.clause(to)
        i, j = self.skip_back(to - 1, lo), self.skip(to + 1)
        if i < lo or j >= len(self.t) or self.peg_kind(j) != self.peg_kind(i) or self.header(lo, to):
            return None
        kind = self.peg_kind(i)
        if kind == "n" and self.numbers_only(lo, i, j):  # 'Move 1 to 2': two numbers and no disk, two pegs
            return Found(None, i, j)
        if kind not in ("l", "w"):
            return None
        return Found(self.disk(lo, i, j), i, j)

    def x_post_y(self, k: int) -> Found | None:
        """A word after the source, then the destination: 'A에서 C로'."""
        t = self.t
        lo = self.clause(k)
        i = self.skip_back(k - 1, lo)
        while i > lo and self.word(i, _PEGWORD | _NUMBER | _THE):
            i = self.skip_back(i - 1, lo)  # 'A 기둥에서', '1번에서'
        j = self.peg_after(k + 1)
        if i < lo or j >= len(t) or self.header(lo, k):
            return None
        kind = self.peg_kind(i)
        if kind is None or self.peg_kind(j) != kind:
            return None
        e = self.skip(j + 1)
        while e < len(t) and self.word(e, _PEGWORD | _NUMBER):
            e = self.skip(e + 1)  # 'C 기둥으로', '3번으로'
        ends = e >= len(t) or all(tok.kind == MARK for tok in t[e:])
        if not (ends or self.word(e, _POST_TO | _MOVING)):
            return None
        return Found(self.disk(lo, i, j), i, j)

    def x_from_y(self, f: int) -> Found | None:
        """'left from mid': the destination before 'from', the source after it."""
        lo = self.clause(f)
        i, j = self.skip_back(f - 1, lo), self.peg_after(f + 1)
        if i < lo or j >= len(self.t) or self.header(lo, f):
            return None
        kind = self.peg_kind(i)
        if kind not in ("l", "w") or self.peg_kind(j) != kind:
            return None
        return Found(self.disk(lo, i, j), j, i)

    def from_x_y(self, f: int) -> Found | None:
        """Two pegs of one kind after 'from', then only marks: 'from A C'."""
        t = self.t
        lo = self.clause(f)
        i = self.peg_after(f + 1)
        j = self.peg_after(i + 1) if i < len(t) else len(t)
        if j >= len(t) or self.header(lo, f) or self.peg_kind(i) is None or self.peg_kind(j) != self.peg_kind(i):
            return None
        if any(tok.kind in (NUM, WORD) for tok in t[j + 1 :]):
            return None
        return Found(self.disk(lo, i, j), i, j)

    def to_only(self) -> Found | None:
        """A disk and its destination alone: 'Move disk 1 to peg 3'."""
        t = self.t
        d = next((i + 1 for i in range(len(t) - 1) if self.word(i, _DISK)), None)
        while d is not None and d < len(t) and (self.word(d, _NUMBER) or t[d].low in "#:"):
            d += 1
        if d is None or d >= len(t) or t[d].kind != NUM:
            return None
        k = self.skip(d + 1)
        if k >= len(t) or not self.to_word(k) or self.header(0, k):
            return None
        j = self.peg_after(k + 1)
        if j >= len(t) or self.peg_kind(j) not in ("n", "l") or self.word(j, _DIRECTION):
            return None
        if any(tok.kind in (NUM, WORD) for tok in t[self.skip(j + 1) :]):
            return None
        return Found(d, None, j)

    def direction(self) -> Found | None:
        """A disk and a direction, such as 'N left' or 'disk 1 to the left'."""
        t = self.t
        end = len(t) - 1 if t and t[-1].low == "." else len(t)
        if end < 2 or not self.word(end - 1, _DIRECTION):
            return None
        i = self.skip_step(self.clause(end, prompt=True))
        while i < end - 1 and (self.word(i, _MOVING) or self.word(i, _DISK)):
            i += 1
        if t[i].kind != NUM:
            return None
        k = i + 2 if t[i + 1].low == ":" else i + 1
        while k < end - 1 and (self.word(k, _TO) or self.word(k, _THE)):
            k += 1
        return Found(i, None, end - 1) if k == end - 1 else None

    def plain(self) -> Found | None:
        """Two to four numbers, letters or names, perhaps bracketed or quoted."""
        t = self.t
        lo, end = self.clause(len(t), prompt=True), len(t) - 1
        values: list[int] = []
        for i in range(self.skip_step(lo), len(t)):
            tok = t[i]
            if self.peg_kind(i) is not None:
                values.append(i)
            elif not (
                self.word(i, _DISK | _MOVING) or tok.low in AROUND or tok.low in ",;" or (tok.low, i) == (".", end)
            ):
                return None
        if len(values) < 2:
            return None
        numbers = [i for i in values if t[i].kind == NUM]
        if len(values) > 4:
            if numbers:
                raise ValueError(f"{len(values)} values; a move is SRC DST, DISK SRC DST or STEP DISK SRC DST")
            return None
        if len(numbers) == len(values):  # numbers only: the last two are the pegs
            return Found(values[-3] if len(values) > 2 else None, values[-2], values[-1])
        pegs = [i for i in values if t[i].kind != NUM]
        if len(pegs) == 2 and values.index(pegs[1]) == values.index(pegs[0]) + 1:
            if self.peg_kind(pegs[0]) == self.peg_kind(pegs[1]):
                return Found(self.disk(lo, pegs[0], pegs[1]), pegs[0], pegs[1])
        if len(values) == 3 and values[1:] == numbers:
            raise ValueError(f"the disk {quote(t[values[0]].text, 30)} is not a number")
        return None


DEFAULT_NAMES = frozenset(WORDS)


def find(toks: list[Token], names: frozenset[str], *, lenient: bool = False, counter: Counter = None) -> Found | None:
    """Where the move on a line's tokens is; None if it has none."""
    return _Shapes(toks, names, lenient=lenient, counter=counter).find()


def head(text: str, names: frozenset[str] = DEFAULT_NAMES, *, lenient: bool = False) -> bool:
    """Whether ``text`` begins a move that the next line ends.

    >>> head("Move disk 1"), head("Move disk 1 from A"), head("Move disk 1 from A to C"), head("Moving 3 disks")
    (True, True, False, False)
    """
    toks = tokens(text)
    if len(toks) > 24:
        return False  # a long line is not half a move
    line = _Shapes(toks, names, lenient=lenient)
    try:
        if line.find() is not None:
            return False
    except ValueError:
        pass
    for i in range(len(toks) - 1):
        j = line.skip(i + 1)  # 'disk 1', 'disk[1]'
        if line.word(i, _DISK) and j < len(toks) and toks[j].kind == NUM:
            return not line.header(0, len(toks))
        if line.word(i, _FROM):
            k = line.peg_after(i + 1)
            if k < len(toks) and line.peg_kind(k) is not None:
                return not line.header(0, len(toks))
    return False


def values(toks: list[Token], found: Found) -> Move:
    """The move a line's tokens hold where ``found`` says."""
    disk = None if found.disk is None else _number(toks[found.disk].text)
    return disk, None if found.src is None else toks[found.src].text, toks[found.dst].text


def _number(digits: str) -> int:
    """The disk that ``digits`` name; ValueError past Python's 4300 digits."""
    try:
        return int(digits)
    except ValueError:
        raise ValueError(f"the disk number has {len(digits)} digits") from None


def parse_line(text: str, names: frozenset[str] = DEFAULT_NAMES) -> Move | None:
    """Read a move from the line *text*, or None for any other line.

    Raises :class:`ValueError` for a line that looks like a move and is not.

    >>> parse_line("1: 1 A->C"), parse_line("Move disk 2 from peg A to peg B"), parse_line("1 0 2")
    ((1, 'A', 'C'), (2, 'A', 'B'), (1, '0', '2'))
    >>> parse_line("A -> C : 3"), parse_line("Step 1 : moving Disk red from Start to Dest"), parse_line("2 left")
    ((3, 'A', 'C'), (None, 'Start', 'Dest'), (2, None, 'left'))
    >>> parse_line("Total moves: 7"), parse_line(""), parse_line("Moving 3 disks from A to C")
    (None, None, None)
    """
    toks = tokens(text)
    found = find(toks, names)
    return None if found is None else values(toks, found)
