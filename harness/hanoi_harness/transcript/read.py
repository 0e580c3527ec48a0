"""Another program's output as a stream of model moves."""

from __future__ import annotations

import re
import shlex
from collections import deque
from collections.abc import Iterator, Mapping

from hanoi_harness.core.legality import Pegs
from hanoi_harness.transcript.lexicon import DISKS, FROM, PEGWORD, THE, TO
from hanoi_harness.transcript.line import Counter, NotPegs
from hanoi_harness.transcript.model import Model, ModelMove
from hanoi_harness.transcript.pegs import PegNames, conventions, quote
from hanoi_harness.transcript.pictures import Layout, Pictures, draws_disks
from hanoi_harness.transcript.rules import Move, head
from hanoi_harness.transcript.source import (
    LIMIT,
    AmongMoves,
    MalformedLine,
    NoMoves,
    StateMismatch,
    UnreadableInput,
    binary,
    continues,
    propose,
)
from hanoi_harness.transcript.states import States, is_state, split_state, without_state
from hanoi_harness.transcript.templates import Parser
from hanoi_harness.transcript.tokens import ARROW

ITEM_LIMIT = 1_000
EARLY_LINES = 5
"""The lines skipped before the first move that are kept, if the run fails."""

_DIGITS = re.compile(r"\d+")
_CUT = re.compile(r"\s+|[,;|]|<br\s*/?>", re.IGNORECASE)

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
# A list of moves: after an optional label ('moves = '), a bracket holding a bracket, or two bracketed groups.
_LIST = re.compile(r"\s*(?:[^\W\d_][\w ]{0,40}[:=]\s*)?(?=[\[(]\s*[\[({]|[\[(][^\[\](){}\n]*[\])][\s,;]*[\[({])")
_ITEM = re.compile(r"[\[({][^\[\](){}]*[\])}]")
_GAP = re.compile(r"[\s,;\[\](){}]*")
_ALNUM = re.compile(r"[^\W_]")


_NEWLINE = re.compile(r"[\\￥¥]n(?=[^\W_]|\s|$)")
_FROM_WORD = re.compile(r"(?i)(?<!from )(?<!to )\bfrom\b")  # (not the peg named from: "from from to to")
_ARROW_MARK = re.compile(ARROW)
_MOVE_LIKE = re.compile(r"\d|\b[A-Za-z]\b|>|\u2192")
_PEG_GROUP = re.compile(r"\[([\d\s,]*)\]")
_WORD = re.compile(r"[^\W_]+")
_CAPTION = re.compile(r"\s*[:=]")
_BETWEEN = PEGWORD | TO | THE | {"and", "src", "dst", "dest", "source", "destination", "target", "aux"}
_PEG_STATE = re.compile(r"(?:[^\W_]+\s*){0,2}[:=]?\s*\[[\d\s,]*\]")
_ARROWED = re.compile(ARROW)


class Reader(Model):
    """The moves of a text for the model; :attr:`error`: why reading stopped."""

    def __init__(
        self, pegs: Pegs, names: PegNames | None = None, base: int | None = None, counter: Counter = None
    ) -> None:
        super().__init__(pegs, names, base)
        self.parser = Parser(names.labels if names is not None else (), counter)
        self.states: States | Pictures | None = None
        self.lines = 0
        self.example: tuple[int, str] | None = None
        self.error: UnreadableInput | None = None
        self.joined = False  # moves may be written across two lines ('Move disk 1' / 'from A to C')
        self.contents = False  # pegs may be written as the disks they hold ('from [3, 2, 1] to []')
        self.held: tuple[int, str] | None = None  # the first line of such a move, until the next one
        self.after: tuple[int, str, list[list[int]]] | None = None  # the state a line printed after its move
        self.suspect: tuple[int, str] | None = None  # a line like a move, not read as one: refused if moves follow
        self.early: deque[tuple[int, str]] = deque(maxlen=EARLY_LINES)  # the last lines skipped before the first move

    def read(self, source: Iterator[str]) -> Iterator[ModelMove]:
        """The moves of the lines of ``source``, cut by :func:`~.source.pieces`."""
        if self.states is not None:
            yield from self._states(source)
            return
        pegs, templates = self.pegs, self.parser.templates
        index: Mapping[str, int] = {}
        match, di, si, ti, based, unlabelled = None, 1, 1, 1, self.base is not None, True
        number, holding = 0, False
        for text in source:
            number += 1
            # The common case, inline: the line fits the last template, its pegs are known labels.
            m = match(text) if match is not None and not holding else None
            if m is not None and len(text) < LIMIT:  # (a longer piece continues its line: see _slow)
                d, s, t = m.group(di, si, ti)
                src, dst = index.get(s), index.get(t)
                if src is not None and dst is not None:
                    if d:
                        disk: int | None = int(d)
                        if not based:
                            based = self._decide_base(disk)
                    else:
                        top = pegs[src]
                        disk = top[-1] if top else None
                    if unlabelled:
                        unlabelled = self._label(s, src, t, dst)
                    if self.suspect is not None:
                        self.error = AmongMoves(*self.suspect)
                        return
                    self.line, self.text = number, text
                    yield disk, src, dst
                    continue
            self.lines = number
            try:
                yield from self._slow(number, text, source)
            except UnreadableInput as exc:
                self.error = exc
                return
            holding = self.held is not None
            if templates:
                match, di, si, ti = templates[0]
            if self.names is not None:
                index, based, unlabelled = self.names.index, self.base is not None, None in self.labels
        self.lines = number
        try:
            self.compare()
        except UnreadableInput as exc:
            self.error = exc

    def _move_then_state(self, text: str) -> bool:
        """Whether ``text`` is a move then the state after it."""
        written, state = split_state(text)
        try:
            return bool(state) and self.parser.parse_many(written) is not None
        except ValueError:
            return False

    def compare(self) -> None:
        """Raise :class:`StateMismatch` if the last move's state is not the pegs'."""
        if self.after is None:
            return
        number, text, rows = self.after
        self.after = None
        if any(held not in (row, row[::-1]) for held, row in zip(self.pegs, rows, strict=True)):
            shown = "; ".join(" ".join(map(str, held)) or "-" for held in self.pegs)
            raise StateMismatch(number, text, f"the state printed after the move is not the pegs' ({shown})")

    def _slow(self, number: int, text: str, source: Iterator[str]) -> Iterator[ModelMove]:
        """Read any line that the inline case does not."""
        self.compare()
        more = continues(text)
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        if "\x00" in text:
            raise MalformedLine(number, text, binary(text))
        if "\x1b" in text:
            text = _ANSI.sub("", text)  # colours
        if "n" in text and _NEWLINE.search(text):
            text = _NEWLINE.sub("; ", text)  # moves joined by a written newline, '\\n' or '￥n'
        listed = _LIST.match(text)
        if listed and not self._move_then_state(text):
            yield from self._list(number, text, listed.end(), more, source)
            return
        if more:
            yield from self._long(number, text, source)
            return
        if text.isspace() or not text:
            return
        if not _ALNUM.search(text):  # the rules' first test, at C speed: drawings have many such lines
            self._skip(number, text)
            return
        if self.joined:
            yield from self._joined(number, text)
            return
        yield from self._line(number, text)

    def _joined(self, number: int, text: str) -> Iterator[ModelMove]:
        """Read moves written across two lines: the first is held."""
        if self.held is not None:
            first, start = self.held
            self.held = None
            both = f"{start.rstrip()} {text.strip()}"
            try:
                found = self.parser.parse_many(without_state(both))
            except ValueError:
                found = None
            if found:
                for move in found:
                    yield self._model(move, first, both)
                return
            yield from self._line(first, start)  # no half move after all: read alone (or refused) as it is
        if head(text, self.parser.names):
            self.held = (number, text)
            return
        yield from self._line(number, text)

    def _line(self, number: int, text: str) -> Iterator[ModelMove]:
        """The moves of one line; a state after them is kept to compare."""
        if self.contents:
            text = self._by_contents(number, text)
        written, state = split_state(text)
        if state:
            rows = [[int(d) for d in _DIGITS.findall(group)] for group in _PEG_GROUP.findall(state)]
            if len(rows) == len(self.pegs):
                self.after = (number, text, rows)
        try:
            found = self.parser.parse_many(written)
        except NotPegs as exc:
            if self.names is None:  # the first move: say how to name the pegs
                self._decide(*exc.words, number, text)
            raise MalformedLine(number, text, str(exc)) from None
        except ValueError as exc:
            raise MalformedLine(number, text, str(exc)) from None
        if found is None:
            self._skip(number, text)
        else:
            cores = max(len(_FROM_WORD.findall(written)), len(_ARROW_MARK.findall(written)))
            if cores > len(found):
                raise MalformedLine(
                    number, text, f"{cores} moves written, {len(found)} read: print one move a line, or give --pattern"
                )
            for move in found:
                yield self._model(move, number, text)

    def read_states(self, n: int, drawn: Layout | None = None, names: PegNames | None = None) -> None:
        """Read states, or pictures laid out as ``drawn`` says, from now on."""
        self.states = States(len(self.pegs), n) if drawn is None else Pictures(drawn, len(self.pegs), n)
        self.names = names or conventions(len(self.pegs))[f"0-{len(self.pegs) - 1}"]
        self.labels = list(self.names.labels)

    def _states(self, source: Iterator[str]) -> Iterator[ModelMove]:
        """The moves between the states of ``source``."""
        assert self.states is not None
        for number, text in enumerate(source, 1):
            self.lines = number
            if continues(text):
                self.error = MalformedLine(number, text, f"the line is longer than {LIMIT} characters")
                return
            if "\x00" in text:
                self.error = MalformedLine(number, text, binary(text))
                return
            try:
                found = self.states.feed(text.rstrip("\r\n"), number)
            except ValueError as exc:
                self.error = MalformedLine(*self.states.last, str(exc))
                return
            if not found:
                self._skip(number, text)
            for move in found:
                yield self._model(self._named(move), *self.states.at)
        try:
            found = self.states.flush()
        except ValueError as exc:
            self.error = MalformedLine(*self.states.last, str(exc))
            return
        for move in found:
            yield self._model(self._named(move), *self.states.at)

    def _named(self, move: Move) -> Move:
        """A move between states, its pegs named as the states name them."""
        disk, src, dst = move
        assert self.names is not None and src is not None
        labels = self.names.labels
        return disk, labels[int(src)], labels[int(dst)]

    def _long(self, number: int, text: str, source: Iterator[str]) -> Iterator[ModelMove]:
        """The moves of a line longer than LIMIT, a piece at a time."""
        body, more, first = text, True, True
        while more:
            cuts = [m.end() for m in _CUT.finditer(body, max(0, len(body) - ITEM_LIMIT))]
            if not cuts:
                raise MalformedLine(number, text, f"the line is longer than {LIMIT} characters")
            head, body = body[: cuts[-1]], body[cuts[-1] :]
            try:
                found = self.parser.parse_many(head) or []
            except ValueError as exc:
                if first:
                    raise MalformedLine(number, text, f"the line is longer than {LIMIT} characters") from None
                raise MalformedLine(number, head, str(exc)) from None
            if first and len(found) < 2:
                raise MalformedLine(number, text, f"the line is longer than {LIMIT} characters")
            for move in found:
                yield self._model(move, number, head)
            piece = next(source, "")
            body, more, first = body + piece, continues(piece), False
        try:
            found = self.parser.parse_many(body) or [] if body.strip() else []
        except ValueError as exc:
            raise MalformedLine(number, body, str(exc)) from None
        for move in found:
            yield self._model(move, number, body)

    def _list(self, number: int, text: str, start: int, more: bool, source: Iterator[str]) -> Iterator[ModelMove]:
        """The moves of a list on one line, item by item."""
        body, first = text[start:], True
        while True:
            items, rest, bad = self._items(body)
            if bad is None and not more and not _GAP.fullmatch(rest):
                bad = rest  # text after the list
            if bad is not None and first:
                if more:
                    raise MalformedLine(number, text, f"the line is longer than {LIMIT} characters")
                self._skip(number, text)
                return
            if bad is not None:
                raise MalformedLine(number, bad, "not a move, in a list of moves")
            for item, move in items:
                yield self._model(move, number, item)
            if not more:
                return
            if len(rest) > ITEM_LIMIT:
                raise MalformedLine(number, rest, f"an item longer than {ITEM_LIMIT} characters")
            piece = next(source, "")
            body, more, first = rest + piece, continues(piece), False

    def _items(self, body: str) -> tuple[list[tuple[str, Move]], str, str | None]:
        """The items of ``body`` with their moves, the rest, and a bad item."""
        items: list[tuple[str, Move]] = []
        end = 0
        for m in _ITEM.finditer(body):
            if not _GAP.fullmatch(body, end, m.start()):
                return items, "", body[end : m.start()]
            try:
                move = self.parser.parse(m[0])
            except ValueError:
                move = None
            if move is None:
                return items, "", m[0]
            items.append((m[0], move))
            end = m.end()
        return items, body[end:], None

    def _skip(self, number: int, text: str) -> None:
        """Pass over a line that holds no move, unless it may hide one."""
        if "\ufffd" in text and self.line and self.states is None and _MOVE_LIKE.search(text):
            raise MalformedLine(number, text, "bytes that are not text in the input's encoding: give its --encoding")
        if self.suspect is None and self.line and self.states is None and self.names is not None:
            if move_like(text, self.names.labels):
                self.suspect = (number, text)
        elif not self.line:
            self.early.append((number, text))
        if self.example is None:
            self.example = (number, text)

    def _model(self, move: Move, number: int, text: str) -> ModelMove:
        """The model's move, unless a line like a move came before it unread."""
        if self.suspect is not None:
            raise AmongMoves(*self.suspect)
        return super()._model(move, number, text)

    def unread(self) -> tuple[int, str] | None:
        """The line like a move that no rule read, before or after the moves."""
        if self.states is not None or self.names is None:
            return None
        early = [line for line in reversed(self.early) if move_like(line[1], self.names.labels)]
        return early[0] if early else self.suspect

    def no_moves(self) -> NoMoves:
        """What to say when no line was a move."""
        if self.lines == 0:
            return NoMoves("no moves read: the input is empty")
        if self.example is None:
            return NoMoves(f"no moves read: the input's {self.lines} lines are blank")
        line, text = self.example
        if "\ufffd" in text:
            return NoMoves(
                f"no moves read: the input is not UTF-8 text (line {line}: {quote(text)}): give its --encoding"
            )
        if draws_disks(text) and not _DIGITS.search(text):
            return NoMoves(
                f"no moves read: line {line} {quote(text)} draws the pegs, and no layout reads its pictures "
                "(a column a peg or one run a peg, one width a disk); --read states reads such pictures"
            )
        pattern = propose(text)
        tail = "" if pattern is None else f"; to read such lines as moves: --pattern {shlex.quote(pattern)}"
        if self.lines == 1:
            return NoMoves(f"no moves read: the only line is not a move: {quote(text)}{tail}")
        return NoMoves(f"no moves read: none of the {self.lines} lines is a move (line {line}: {quote(text)}){tail}")


def move_like(text: str, labels: tuple[str, ...]) -> bool:
    """Whether *text* has what a move has, though no rule reads it as one.

    That is an arrow, ``from``, or two peg *labels* with only fillers between.

    >>> move_like("Move disk 3 frm rod A to rod C", ("A", "B", "C")), move_like("hanoi(2, A, C, B)", ("A", "B", "C"))
    (True, True)
    >>> move_like("Total moves: 7", ("A", "B", "C")), move_like("Tower of Hanoi with 3 disks", ("1", "2", "3"))
    (False, False)
    >>> move_like("Torre 1:[3, 2]", ("1", "2", "3")), move_like("A: 3 2 | B: | C: 1", ("A", "B", "C"))
    (False, False)
    """
    if _ARROWED.search(text):
        return True
    if is_state(text, len(labels)):
        return False
    text = _PEG_STATE.sub(" ", text)
    words = list(_WORD.finditer(text))
    if any(word[0].lower() in DISKS for word in words):  # a tower of several disks: a header, not a move
        return False
    if any(word[0].lower() in FROM for word in words if len(word[0]) > 1):
        return True
    folded = {label if len(label) == 1 else label.lower() for label in labels}
    last: int | None = None  # the place of the last label read
    for place, word in enumerate(words):
        if (word[0] if len(word[0]) == 1 else word[0].lower()) not in folded or _CAPTION.match(text, word.end()):
            continue
        if last is not None and all(other[0].lower() in _BETWEEN for other in words[last + 1 : place]):
            return True
        last = place
    return False
