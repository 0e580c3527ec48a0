"""One line's tokens, and the tests the move rules make on them."""

from __future__ import annotations

from typing import Literal

from hanoi_harness.transcript import lexicon
from hanoi_harness.transcript.pegs import KEYWORDS, quote
from hanoi_harness.transcript.tokens import IDEOGRAM, MARK, NUM, WORD, Token

_FROM, _TO, _DISK, _DISKS = lexicon.FROM, lexicon.TO, lexicon.DISK, lexicon.DISKS
_STEP, _OF, _NUMBER, _THE = lexicon.STEP, lexicon.OF, lexicon.NUMBER, lexicon.THE
_PEGWORD, _DIRECTION, _MOVING, _PROMPT = lexicon.PEGWORD, lexicon.DIRECTION, lexicon.MOVING, lexicon.PROMPT
_POST_FROM, _POST_TO, _CLASSIFIER = lexicon.POST_FROM, lexicon.POST_TO, lexicon.CLASSIFIER
_SETS: tuple[frozenset[str], ...] = (_FROM, _TO, _DISK, _DISKS, _STEP, _OF, _NUMBER, _THE, _PEGWORD, _DIRECTION)
_SETS += (_MOVING, _PROMPT, _POST_FROM, _POST_TO, _CLASSIFIER)
_QUOTES, _BRACKETS = set("'\"`‘’“”"), set("()[]{}")
AROUND = _QUOTES | _BRACKETS
_AFTER_STEP = {":", ".", ")", "]"}


class NotPegs(ValueError):
    """A move's place holds ``words`` (source, destination) that are not pegs."""

    def __init__(self, message: str, words: tuple[str, str]) -> None:
        super().__init__(message)
        self.words = words


Counter = Literal["steps", "disks"] | None
"""What the last number before a move's pegs is (None: the rules decide)."""


class Line:
    """One line's tokens, read with ``names`` (``lenient``: any word) as pegs."""

    def __init__(
        self, toks: list[Token], names: frozenset[str], *, lenient: bool = False, counter: Counter = None
    ) -> None:
        self.t = toks
        self.names = names
        self.lenient = lenient
        self.counter = counter

    def word(self, i: int, words: set[str] | frozenset[str]) -> bool:
        """Whether token ``i`` is one of ``words``; a capital letter is a peg."""
        tok = self.t[i]
        return tok.kind == WORD and tok.low in words and not (len(tok.text) == 1 and tok.text.isupper())

    def peg_kind(self, i: int) -> str | None:
        """The kind of peg token ``i`` can be: n(umber), l(etter), w(ord) or None."""
        tok = self.t[i]
        if tok.kind == NUM:
            return "n"
        if tok.kind == WORD:
            if len(tok.text) == 1 and not IDEOGRAM.match(tok.text):
                return "l"
            if tok.low in self.names or (self.lenient and tok.low not in _ALL):
                return "w"
        return None

    def to_word(self, k: int) -> bool:
        """Whether token ``k`` is a 'to'; a capital letter is a peg."""
        return self.word(k, _TO) and not self.t[k].text.isupper()

    # The clause: text up to a prompt (a '?', '!' or a ':' after a word) is not part of the move.

    def clause(self, core: int, *, prompt: bool = False) -> int:
        """Where the move's clause starts, before its arrow, 'from', 'to' or end."""
        start = 0
        for i in range(1, core):
            tok = self.t[i]
            if tok.kind == MARK and (tok.low in "?!" or (tok.low == ":" and self.t[i - 1].kind != NUM)):
                start = i + 1
        if prompt and not any(tok.low in _PROMPT for tok in self.t[:start]):
            return 0
        return start

    def header(self, lo: int, core: int) -> bool:
        """Whether *disks* stands before the move: 'Moving 3 disks from A to C'."""
        return any(self.word(i, _DISKS) for i in range(lo, core))

    def need_pegs(self, i: int, j: int, why: str) -> None:
        """Raise ValueError (or :class:`NotPegs`) unless ``i``, ``j`` are pegs."""
        for k in (i, j):
            if self.peg_kind(k) is None:
                if self.t[k].kind != WORD:
                    raise ValueError(why)
                raise NotPegs(f"{quote(self.t[k].text, 30)} is not a peg", (self.t[i].text, self.t[j].text))

    def prompt_end(self, k: int) -> bool:
        """Whether token ``k`` ends a prompt: '?', '!', or ':' after a word."""
        tok = self.t[k]
        if tok.kind != MARK or k == 0:
            return False
        if tok.low in "?!":
            return True
        return tok.low == ":" and self.t[k - 1].kind == WORD and not self.word(k - 1, _FROM | _TO | _PEGWORD)

    def numbers_only(self, lo: int, i: int, j: int) -> bool:
        """Whether the clause from ``lo`` names no disk and no number but two."""
        t = self.t
        return not any(
            (t[k].kind == NUM and k not in (i, j)) or self.word(k, _DISK | _DISKS) for k in range(lo, len(t))
        )

    def other(self, i: int) -> bool:
        """Whether token ``i`` is a word the rules do not know."""
        return self.t[i].kind == WORD and self.t[i].low not in _ALL

    # Pieces of the rules.

    def disk(self, lo: int, src: int, dst: int) -> int | None:
        """The disk's token: after *disk*, else after the pegs, else before them."""
        t = self.t
        for i in range(lo, len(t) - 1):
            if self.word(i, _DISK):
                j = i + 1
                while j < len(t) - 1 and (t[j].low in "#:.=" or t[j].low in _QUOTES or self.word(j, _NUMBER)):
                    j += 1
                if t[j].kind == NUM and j not in (src, dst):
                    return j
        counts = set()  # 'Move 1 disk from 2 to 3': a count of disks before the Latin word, not the disk
        for i in range(lo, len(t) - 1):  # '第 1 个盘', '1 号盘': a number, a counter, the word disk
            if t[i].kind == NUM and i not in (src, dst):
                if self.word(i + 1, _DISK) and t[i + 1].text.isascii():
                    counts.add(i)
                    continue
                k = i + 2 if self.word(i + 1, _CLASSIFIER) else i + 1
                if k < len(t) and self.word(k, _DISK):
                    return i
        after = [i for i in range(dst + 1, len(t)) if t[i].kind == NUM and not self.step(i, before=False)]
        if len(after) > 1:
            numbers = ", ".join(t[i].text for i in after[:3]) + (", ..." if len(after) > 3 else "")
            raise ValueError(f"{len(after)} numbers after the pegs ({numbers}): which is the disk?")
        if after:
            return after[0]
        if self.counter == "steps":
            return None
        soft = self.counter == "disks"  # '3:' before the pegs is the disk: the input's numbers do not count moves
        before = [i for i in range(lo, src) if t[i].kind == NUM and i not in counts]
        before = [i for i in before if not self.step(i, before=not soft)]
        return before[-1] if before else None

    def step(self, i: int, *, before: bool) -> bool:
        """Whether the number at ``i`` counts moves: '#3', 'step 3', '3/7', '3:'."""
        t = self.t
        if i > 0 and (t[i - 1].low in ("#", "/") or self.word(i - 1, _STEP) or self.word(i - 1, _OF)):
            return True
        if i + 1 < len(t) and (t[i + 1].low == "/" or self.word(i + 1, _OF) or self.word(i + 1, _STEP)):
            return True
        return before and i + 1 < len(t) and t[i + 1].kind == MARK and t[i + 1].low in _AFTER_STEP

    def skip_step(self, i: int) -> int:
        """The index past a leading step number, if there is one."""
        t = self.t
        if i + 1 < len(t) and t[i].kind == NUM and t[i + 1].low in _AFTER_STEP:
            return i + 2
        if i + 1 < len(t) and t[i + 1].kind == NUM and (t[i].low == "#" or self.word(i, _STEP)):
            return i + 3 if i + 2 < len(t) and t[i + 2].low == ":" else i + 2
        return i

    def filler(self, i: int) -> bool:
        """Whether token ``i`` may stand around a peg between 'from' and 'to'."""
        tok = self.t[i]
        if tok.low in AROUND or tok.low in ":,-_" or self.word(i, _THE | _PEGWORD | _OF | _MOVING | _NUMBER):
            return True
        return self.word(i, _FROM) and tok.low not in self.names  # 'de la torre de origen', not the peg 'from'

    def skip(self, i: int) -> int:
        while i < len(self.t) and self.t[i].low in AROUND:
            i += 1
        return i

    def skip_back(self, i: int, lo: int) -> int:
        while i >= lo and self.t[i].low in AROUND:
            i -= 1
        return i

    def peg_after(self, i: int) -> int:
        """Where the peg after an arrow or 'to' stands, past fillers and peg words."""
        t = self.t
        while i < len(t):
            if t[i].low in AROUND or t[i].low in ":,_" or self.word(i, _THE | _OF):
                i += 1
            elif self.word(i, _PEGWORD | _FROM | _NUMBER) and self.peg_follows(i + 1):
                i += 1
            else:
                break
        j = self.skip(i + 1)
        if i >= len(t) or j >= len(t):
            return i
        if self.peg_kind(i) == "w" and self.peg_kind(j) == "l":  # a name before a number is a peg, then the disk
            return j
        return i

    def peg_follows(self, i: int) -> bool:
        """Whether a peg comes within a few tokens from ``i``, past fillers."""
        for k in range(i, min(i + 4, len(self.t))):
            if not self.filler(k):
                return self.peg_kind(k) is not None
        return False


_ALL = frozenset().union(*_SETS, KEYWORDS)


def word_class(low: str, names: frozenset[str]) -> frozenset[int]:
    """The sets the rules test a word for, by position (-1: a peg name)."""
    return frozenset(k for k, words in enumerate(_SETS) if low in words) | ({-1} if low in names else set())


def known_words(names: frozenset[str]) -> frozenset[str]:
    """Every word the rules tell apart from others."""
    return names | _ALL
