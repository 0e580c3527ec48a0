"""Checking another program's moves: read them from text, one move a line, and replay them.

A line is read as a move when it has one of these shapes (case does not
matter, pegs as 0-2, 1-3 or A-C):

* an arrow between two pegs: ``A->C``, ``1: 1 A->C``, ``disk 3: 0 --> 2``,
  ``A => C``, ``A → C``;
* ``from X to Y``: ``Move disk 1 from A to C``, ``move 1 from rod A to rod C``
  (a word peg, pole, rod, tower, pillar, post or needle may precede a peg);
* ``X to Y`` with single letters: ``A to C``;
* nothing but two to four numbers or single letters, separated by spaces,
  commas, tabs or brackets: ``SRC DST``, ``DISK SRC DST`` or
  ``STEP DISK SRC DST`` (``1 0 2``, ``(1, 0, 2)``, ``1 A C``, ``A C``).

The disk is the number after the word ``disk``; otherwise, before the
source peg, a number followed by ``:``, ``.`` or ``)`` is a step number and
is ignored, and the last other number is the disk.  A move without a disk
moves the top disk of its source peg.  Every other line (blank, ``Total
moves: 7``, ``Moving 3 disks from A to C`` — the plural *disks* marks a
header) is skipped, unless it has an arrow or ``from ... to`` that does not
make a move: that is a malformed line, an error with its number.

The pegs' convention is read from the first move unless it is given
(``--pegs``): letters are A-C; digits are 1-3 when that move has no 0 and
either leaves peg 1 or names peg 3 (a first move must leave the start peg,
which is 1 in 1-3), and 0-2 otherwise.  Later lines must keep to it.

Nothing is held but the current line and the pegs: the input streams.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from hanoi_harness.checker import Tower, check
from hanoi_harness.errors import UsageError
from hanoi_harness.verdict import Verdict

CONVENTIONS = {"0-2": ("0", "1", "2"), "1-3": ("1", "2", "3"), "A-C": ("A", "B", "C")}
"""Each peg convention: the labels of the model's pegs 0, 1 and 2."""

_PEG_WORD = (
    r"(?:peg|pole|rod|tower|pillar|post|needle|column|stack|source|src|destination|dest|dst|auxiliary|aux|spare"
    r"|target)\s*"
)
_TOKEN = r"[A-Za-z0-9]+"
_ARROW = r"(?:-+>|=+>|→|⟶|⇒)"
_ARROW_MOVE = re.compile(rf"(?:{_PEG_WORD})?(?P<src>{_TOKEN})\s*{_ARROW}\s*(?:{_PEG_WORD})?(?P<dst>{_TOKEN})", re.I)
_FROM_TO = re.compile(rf"\bfrom\s+(?:{_PEG_WORD})?(?P<src>{_TOKEN})\s+to\s+(?:{_PEG_WORD})?(?P<dst>{_TOKEN})", re.I)
_LETTER_TO = re.compile(r"(?<![\w-])(?P<src>[A-Za-z])\s+to\s+(?P<dst>[A-Za-z])(?![\w-])", re.I)
_HAS_ARROW = re.compile(_ARROW)
_HAS_FROM_TO = re.compile(r"\bfrom\b.*\bto\b", re.I)
_HEADER = re.compile(r"\bdisks\b", re.I)
_DISK = re.compile(r"\bdisk\s*(?:no\.?|number|#)?\s*(\d+)", re.I)
_STEP = re.compile(r"\d+\s*[:.)]")
_PLAIN_TOKEN = re.compile(r"^(?:\d+|[A-Za-z])$")
# The commonest shapes, matched whole in one step (4x faster); each gives what the general rules give.
_FAST_PLAIN = re.compile(r"\s*(\d+)[ \t,]+(\d+|[A-Za-z])[ \t,]+(\d+|[A-Za-z])\s*")
_FAST_ARROW = re.compile(rf"\s*(?:\d+\s*[:.)]\s*)?(?:(\d+)\s+)?([A-Za-z]|\d+)\s*{_ARROW}\s*([A-Za-z]|\d+)\s*")


class MalformedLine(UsageError):
    """A line that looks like a move but cannot be read as one; its message names the line."""

    def __init__(self, line: int, text: str, why: str) -> None:
        super().__init__(f"line {line}: cannot read a move from {text.strip()!r}: {why}")
        self.line = line


@dataclass(frozen=True)
class TextMove:
    """One move as read: its line, the disk (None when the line gives none) and the pegs' labels as written."""

    line: int
    text: str
    disk: int | None
    src: str
    dst: str


def parse_line(text: str) -> tuple[int | None, str, str] | None:
    """parse_line(text): ``(disk or None, src label, dst label)`` for a move line, None for any other line.

    Raises :class:`ValueError` (the reason) for a line that looks like a move and is not one.

    >>> parse_line("1: 1 A->C"), parse_line("Move disk 2 from peg A to peg B"), parse_line("1 0 2")
    ((1, 'A', 'C'), (2, 'A', 'B'), (1, '0', '2'))
    >>> parse_line("A -> C"), parse_line("Total moves: 7"), parse_line("")
    ((None, 'A', 'C'), None, None)
    """
    fast = _FAST_PLAIN.fullmatch(text) or _FAST_ARROW.fullmatch(text)
    if fast:
        disk, src, dst = fast.groups()
        return (None if disk is None else int(disk)), src.upper(), dst.upper()
    return _parse_general(text)


def _parse_general(text: str) -> tuple[int | None, str, str] | None:
    """parse_line's rules, without its shortcuts for the commonest shapes."""
    if _HAS_ARROW.search(text):
        found = _ARROW_MOVE.search(text)
        if not found:
            raise ValueError("an arrow needs a peg on each side")
    elif _HEADER.search(text):
        return None  # "Moving 3 disks from A to C": a header, not a move
    elif _HAS_FROM_TO.search(text):
        found = _FROM_TO.search(text)
        if not found:
            raise ValueError("'from' and 'to' need a peg each")
    else:
        found = _LETTER_TO.search(text)
        if not found:
            return _plain(text)
    return _disk_before(text[: found.start("src")]), _label(found["src"]), _label(found["dst"])


def _label(token: str) -> str:
    """A peg as written, letters in upper case; a longer word is refused."""
    if not _PLAIN_TOKEN.match(token):
        raise ValueError(f"{token!r} is not a peg (a number or a single letter)")
    return token.upper()


def _disk_before(prefix: str) -> int | None:
    """The disk named in the text before the source peg, or None.

    >>> _disk_before("3: 1 "), _disk_before("Step 3: move disk 12 from "), _disk_before("7. ")
    (1, 12, None)
    """
    named = _DISK.search(prefix)
    if named:
        return int(named[1])
    numbers = re.findall(r"\d+", _STEP.sub(" ", prefix))
    return int(numbers[-1]) if numbers else None


def _plain(text: str) -> tuple[int | None, str, str] | None:
    """A line of numbers and single letters only: SRC DST, DISK SRC DST or STEP DISK SRC DST."""
    body = re.sub(r"^\s*#?\d+\s*[:.)]\s*(?=\S)", "", text)  # a leading step number
    tokens = re.sub(r"[,;()\[\]{}\t]", " ", body).split()
    if len(tokens) < 2 or not all(_PLAIN_TOKEN.match(token) for token in tokens):
        return None
    if len(tokens) > 4:
        raise ValueError(f"{len(tokens)} values; a move is SRC DST, DISK SRC DST or STEP DISK SRC DST")
    if len(tokens) == 2:
        return None, _label(tokens[0]), _label(tokens[1])
    disk = tokens[-3]
    if not disk.isdigit():
        raise ValueError(f"the disk {disk!r} is not a number")
    return int(disk), _label(tokens[-2]), _label(tokens[-1])


def read_moves(lines: Iterable[str]) -> Iterator[TextMove]:
    """read_moves(lines): the moves of a text, one :class:`TextMove` per move line, lazily.

    Raises :class:`MalformedLine` at the first line that looks like a move and is not one.

    >>> [(m.line, m.disk, m.src, m.dst) for m in read_moves(["Hanoi, 2 disks", "1 A->B", "", "2 A->C"])]
    [(2, 1, 'A', 'B'), (4, 2, 'A', 'C')]
    """
    for number, text in enumerate(lines, 1):
        try:
            parsed = parse_line(text)
        except ValueError as exc:
            raise MalformedLine(number, text, str(exc)) from None
        if parsed is not None:
            yield TextMove(number, text.rstrip("\r\n"), *parsed)


def detect_convention(move: TextMove) -> str:
    """detect_convention(first_move): "A-C", "1-3" or "0-2", from the first move (see the module's rule).

    >>> [detect_convention(TextMove(1, "", 1, s, d)) for s, d in (("A", "C"), ("1", "3"), ("1", "2"), ("0", "2"))]
    ['A-C', '1-3', '1-3', '0-2']
    """
    pegs = (move.src, move.dst)
    if any(p.isalpha() for p in pegs):
        return "A-C"
    if "0" not in pegs and (move.src == "1" or "3" in pegs):
        return "1-3"
    return "0-2"


def peg_index(label: str, convention: str) -> int:
    """peg_index(label, convention): the model's peg (0-2) for ``label``, or :class:`ValueError`.

    >>> peg_index("C", "A-C"), peg_index("3", "1-3"), peg_index("0", "0-2")
    (2, 2, 0)
    """
    labels = CONVENTIONS[convention]
    if label in labels:
        return labels.index(label)
    raise ValueError(f"peg {label!r} is not one of {', '.join(labels)} (pegs read as {convention})")


@dataclass
class _Reading:
    """The replay's side of the stream: the last move handed over, and a malformed line if one ended it."""

    current: TextMove | None = None
    error: MalformedLine | None = None


def check_lines(
    lines: Iterable[str],
    n: int,
    *,
    pegs: str | None = None,
    target: str | None = None,
    max_moves: int | None = None,
) -> Verdict:
    """check_lines(lines, n, pegs=None, target=None): the :class:`Verdict` on the moves read from ``lines``.

    ``pegs`` forces the convention ("0-2", "1-3" or "A-C"); ``target`` is the
    peg the tower must end on, as the input writes it (default: either peg
    but the start).  The verdict's ``extra`` has ``convention``, and for a
    step the ``line`` number and its ``text``.  A malformed line raises
    :class:`MalformedLine`; a ``target`` that is not a peg raises
    :class:`UsageError`.

    >>> check_lines(["1 A->B", "2 A->C", "1 B->C"], 2).describe()
    'ok (3 moves, tower on peg 2)'
    >>> v = check_lines(["Move disk 1 from A to C", "Move disk 1 from A to B"], 2)
    >>> v.status, v.step, v.extra["line"], v.reason
    ('illegal', 2, 2, 'disk 1 is not on top of peg 0 (its top is 2)')
    """
    if pegs is not None and pegs not in CONVENTIONS:
        raise UsageError(f"--pegs must be one of {', '.join(CONVENTIONS)}, got {pegs!r}")
    moves = read_moves(lines)
    first = next(moves, None)
    convention = pegs or (detect_convention(first) if first is not None else "0-2")
    targets = _targets(target, convention)
    reading = _Reading()
    tower = Tower(n)
    stream = _model_moves(first, moves, convention, tower, reading)
    verdict = check(stream, n, targets, initial=tower.pegs, max_moves=max_moves)
    if reading.error is not None:
        raise reading.error
    extra: dict[str, object] = {"convention": convention, "targets": sorted(targets)}
    if verdict.step is not None and reading.current is not None:
        extra.update(line=reading.current.line, text=reading.current.text)
    return replace(verdict, extra=extra)


def _targets(target: str | None, convention: str) -> frozenset[int]:
    if target is None:
        return frozenset({1, 2})
    label = target.strip().upper()
    try:
        return frozenset({peg_index(label, "A-C" if label.isalpha() else convention)})
    except ValueError as exc:
        raise UsageError(f"--target: {exc}") from None


def _model_moves(
    first: TextMove | None, rest: Iterator[TextMove], convention: str, tower: Tower, reading: _Reading
) -> Iterator[tuple[int | None, int, int]]:
    """The moves in the model, read one at a time; ``tower`` is the checker's, replayed in place."""
    if first is None:
        return
    move = first
    try:
        while True:
            reading.current = move
            try:
                src, dst = peg_index(move.src, convention), peg_index(move.dst, convention)
            except ValueError as exc:
                raise MalformedLine(move.line, move.text, str(exc)) from None
            disk = move.disk
            if disk is None:  # the top disk of the source peg, whatever it is
                source = tower.pegs[src]
                disk = source[-1] if source else None
            yield (disk, src, dst)
            move = next(rest)
    except StopIteration:
        return
    except MalformedLine as exc:
        reading.error = exc  # stop the replay here; check_lines raises it


def describe(verdict: Verdict, n: int) -> str:
    """describe(verdict, n): one line for ``hanoi check``, pegs written in the input's convention.

    >>> describe(check_lines(["A C", "A B"], 1), 1)
    "illegal at step 2, line 2 'A B': peg A is empty"
    """
    labels = CONVENTIONS[str(verdict.extra.get("convention", "0-2"))]
    if verdict.status == "ok":
        peg = labels[verdict.final_peg] if verdict.final_peg is not None else "-"
        return f"ok: {verdict.moves} moves, legal and optimal for n = {n}; the tower ends on peg {peg}"
    if verdict.status == "illegal":
        where = f", line {verdict.extra['line']} {verdict.extra['text'].strip()!r}" if "line" in verdict.extra else ""
        return f"illegal at step {verdict.step}{where}: {verdict.explain(labels)}"
    return verdict.describe(labels)
