"""Reading lines as moves fast: one template for each shape of line."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from hanoi_harness.transcript.line import Counter, known_words, word_class
from hanoi_harness.transcript.pegs import WORDS, quote
from hanoi_harness.transcript.rules import Found, Move, find, values
from hanoi_harness.transcript.tokens import ARROW, ARROWS, CJK, NUM, Token, tokens

_SEPARATOR = re.compile(r"(?i)<br\s*/?>|[;|,]")
_MANY_ARROWS = "arrows; a move line has one"  # (the rules' error for a line of several)
# An arrow's destination ends a move in a line of several: the label after the arrow, perhaps quoted.
_ARROW_DST = re.compile(ARROW + r"\s*(?:[^\w\s]\s*)*[^\W_]+['\"’”)\]}]*")


def _arrow_pieces(text: str) -> list[str]:
    """``text`` cut after each arrow's destination: ``1:A->C 2:A->B``."""
    cuts = [m.end() for m in _ARROW_DST.finditer(text)]
    pieces = [text[a:b] for a, b in zip([0, *cuts[:-1]], cuts, strict=True)]
    rest = text[cuts[-1] :] if cuts else text
    if rest.strip():
        pieces.append(rest)
    return pieces


def _every(moves: list[Move | None], pieces: list[str]) -> list[Move]:
    """``moves``, when every piece is one; else ValueError naming the first."""
    for move, piece in zip(moves, pieces, strict=True):
        if move is None:
            raise ValueError(f"{quote(piece, 40)} is not a move, in a line of {len(pieces)} moves")
    return [move for move in moves if move is not None]


class Template(NamedTuple):
    """A shape learnt from one line: its fullmatch, and its groups."""

    match: Callable[[str], re.Match[str] | None]
    disk: int
    src: int
    dst: int


LEARN = 32
"""Templates learnt per stream at most, so that new shapes stop compiling."""
KEEP = 8
"""Templates kept, the most recently used first."""


class Parser:
    """Reads lines as moves by the rules, learning a template from each.

    :attr:`templates` lists the learnt templates, most recently used first.

    >>> p = Parser()
    >>> p.parse("Move disk 1 from A to C"), p.parse("Move disk 12 from B to A"), len(p.templates)
    ((1, 'A', 'C'), (12, 'B', 'A'), 1)
    """

    def __init__(self, names: Iterable[str] = (), counter: Counter = None) -> None:
        extra = {name.lower() for name in names if not name.isdecimal() and len(name) > 1}
        self.names = frozenset(WORDS) | extra
        self.counter = counter
        self.lenient = False  # any word in a peg's place is a peg (to find a program's names; no templates)
        self.templates: list[Template] = []
        self.learnt = 0
        self._classes: dict[frozenset[int], str] = {}

    def parse(self, text: str) -> Move | None:
        """The move on ``text``, None if none; ValueError if it is malformed."""
        templates = self.templates
        for k, template in enumerate(templates):
            m = template.match(text)
            if m is not None:
                if k:
                    templates.insert(0, templates.pop(k))
                disk, src, dst = m.group(template.disk, template.src, template.dst)
                return (int(disk) if disk else None), src or None, dst
        toks = tokens(text)
        found = find(toks, self.names, lenient=self.lenient, counter=self.counter)
        if found is None:
            return None
        if self.learnt < LEARN and not self.lenient:
            self.learnt += 1
            self.templates.insert(0, self.template(toks, found))
            del self.templates[KEEP:]
        return values(toks, found)

    def rules(self, text: str) -> Move | None:
        """:meth:`parse` without templates: the rules alone."""
        toks = tokens(text)
        found = find(toks, self.names, lenient=self.lenient, counter=self.counter)
        return None if found is None else values(toks, found)

    def parse_many(self, text: str) -> list[Move] | None:
        """Every move on ``text``; ValueError if some pieces are moves, not all."""
        pieces = [piece for piece in _SEPARATOR.split(text) if piece.strip()]
        if len(pieces) > 1:
            moves = [self._piece(piece) for piece in pieces]
            if sum(move is not None for move in moves) > 1:
                return _every(moves, pieces)
        try:
            move = self.parse(text)
        except ValueError as exc:
            if not str(exc).endswith(_MANY_ARROWS):
                raise
            pieces = _arrow_pieces(text)
            moves = [self._piece(piece) for piece in pieces]
            if None in moves:
                raise ValueError(f"{exc}, and {quote(pieces[moves.index(None)], 40)} is not a move") from None
            return _every(moves, pieces)
        return None if move is None else [move]

    def _piece(self, text: str) -> Move | None:
        try:
            return self.rules(text)
        except ValueError:
            return None

    def template(self, toks: list[Token], found: Found) -> Template:
        """The template of a line read as ``found``."""
        roles = {found.disk: 0, found.src: 1, found.dst: 2}
        groups = [1, 1, 1]
        parts = [r"()\s*"]
        for i, tok in enumerate(toks):
            if i:
                parts.append(r"\s+" if tok.spaced else "")
            role = roles.get(i)
            if role == 0:  # the disk: a number int() reads at once (a longer one is left to the rules)
                groups[role] = 2 + sum(1 for g in groups if g > 1)
                parts.append(r"(\d{1,18})")
            elif role is not None:
                groups[role] = 2 + sum(1 for g in groups if g > 1)
                parts.append(f"({self._slot(tok)})")
            elif tok.kind == NUM:
                parts.append(r"\d+")
            elif tok.kind == ARROWS:
                parts.append(ARROW)
            else:
                parts.append(re.escape(tok.text))
        parts.append(r"\s*")
        return Template(re.compile("".join(parts)).fullmatch, *groups)

    def _slot(self, tok: Token) -> str:
        """What may stand in a move's token: a number, a letter, a word alike."""
        if tok.kind == NUM:
            return r"\d+"
        if len(tok.text) == 1:
            return "[A-Z]" if tok.joined else rf"[^\W\d_{CJK}]"
        key = word_class(tok.low, self.names)
        if key not in self._classes:
            alike = sorted(
                (w for w in known_words(self.names) if word_class(w, self.names) == key), key=len, reverse=True
            )
            self._classes[key] = "(?ai:" + "|".join(map(re.escape, alike)) + ")"
        return self._classes[key]
