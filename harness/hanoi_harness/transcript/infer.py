"""The conventions of an output, inferred from its first lines: which tokens are the pegs, what numbers count.

:func:`infer` reads up to :data:`PROBE` lines ahead of the checker (the
lines are kept and read again, so the input still streams) and decides
what one line cannot say:

* the pegs: any three tokens (or as many as the puzzle has pegs) that the
  moves use, in any language or script; their order comes from their names
  when they have one (``source``, ``origen``, ``S,A,D``, letters or digits
  in order), else the first move's source is the start peg;
* the number before a move's pegs: a step when it counts 1, 2, 3, ... down
  the moves, else a disk (``disk3:a-->c``, ``1:A->C``);
* whether the output prints states instead of moves (:mod:`~hanoi_harness.transcript.states`).

Every inference goes in :attr:`Inference.notes`, which ``hanoi check`` writes
on one line of standard error; each has an option that forces it.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter as Bag
from dataclasses import dataclass, field

from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.lexicon import FROM
from hanoi_harness.transcript.line import Counter
from hanoi_harness.transcript.pegs import LETTER_SETS, WORDS, PegNames, conventions, detect, quote
from hanoi_harness.transcript.pictures import Layout, is_row, layout
from hanoi_harness.transcript.read import CONTENTS, without_state
from hanoi_harness.transcript.rules import Move, head
from hanoi_harness.transcript.states import States
from hanoi_harness.transcript.templates import Parser
from hanoi_harness.transcript.tokens import MARK, tokens

PROBE = 400
"""Lines read ahead to infer the conventions."""
_LONGEST = 2_000
"""Longer lines say nothing of the conventions (the reader still reads them)."""

_NUMBERS_ONLY = re.compile(r"\s*\d+\s*")
_ALNUM = re.compile(r"[^\W_]")
_NUMBERED = re.compile(r"([^\W\d_]{1,10})(\d{1,3})")
_FROM_AFTER = re.compile(r"(?i)\bfrom\b")
_TO_AFTER = re.compile(r"(?i)\bto\b")


@dataclass
class Inference:
    """What :func:`infer` decided: the peg ``names`` (None: the reader's own rule), the ``counter``,
    ``states`` (read states, not moves), ``drawn`` (states drawn as pictures), ``joined`` (moves
    written across two lines) and ``contents`` (pegs written as the disks they hold); ``notes`` say it
    in words, ``refusal`` why the input is not read, and
    ``unsure`` why an ``ok`` verdict is refused (readings of a program's own peg names that disagree on
    it; ``{moves}`` stands for the count)."""

    names: PegNames | None = None
    counter: Counter = None
    states: bool = False
    drawn: Layout | None = None
    joined: bool = False
    contents: bool = False
    base: int | None = None
    notes: list[str] = field(default_factory=list)
    refusal: str | None = None
    unsure: str | None = None


def infer(
    lines: list[str],
    pegs: int,
    n: int,
    *,
    names: PegNames | None,
    counter: Counter,
    read: str | None,
    symmetric: bool = True,
) -> Inference:
    """The conventions of the output whose first lines are ``lines`` (``names``, ``counter`` and ``read``
    given by options are kept).

    ``symmetric`` says that the pegs other than the start peg are alike (the classic rules, the tower on
    peg 0 at the start, any other peg at the end): then only the start peg of a program's own names
    changes the verdict.
    """
    result = Inference(names=names, counter=counter, states=read == "states")
    lines = [text for text in lines if len(text) < _LONGEST and "\x00" not in text]
    if result.states:
        if _states(lines, pegs, n) is None:
            result.drawn = layout(lines, pegs, n, forced=True)
        return result
    if read == "contents" or (read is None and _contents(lines, n)):
        result.contents, result.names = True, conventions(pegs)[f"0-{pegs - 1}"]
        result.notes.append("read pegs written as the disks they hold ('from [3, 2, 1] to []') (--read)")
        return result
    joined, pairs = _pairs(lines, names, counter)
    if read == "two-lines" or (read is None and pairs >= 2 and 2 * pairs >= len(_moves(joined, names, counter))):
        result.joined, lines = True, joined
        result.notes.append("read moves written across two lines, such as 'Move disk 1' then 'from A to C' (--read)")
    found = _moves(lines, names, counter)
    states = _states(lines, pegs, n) if read is None else None
    if states is not None and all(text in states and without_state(text) == text for text, _ in found):
        result.states = True
        result.notes.append("read the pegs printed after each move (states), a move between two (--read)")
        return result
    drawn = layout(lines, pegs, n) if read is None else None
    if drawn is not None and all(is_row(text) for text, _ in found):
        result.states, result.drawn = True, drawn
        how = "columns of numbers" if drawn.widths is None else "disks by their widths"
        result.notes.append(
            f"read the pictures of the pegs after each move as states ({how}), a move between two (--read)"
        )
        return result
    if not found:
        return result
    if names is None:
        _pegs(result, found, pegs, lines[: lines.index(found[0][0])], symmetric)
    if result.names is None and _to_only(lines, names, counter):
        _convention(result, found, pegs)
    if counter is None:
        _counter(result, lines, result.names, n)
    _base(result, lines, n)
    if _pictures(lines, found):
        result.refusal = (
            "no moves read: the lines read as moves are rows of pictures of the pegs (lone numbers stand between "
            "them): print one move a line, or give --read moves to read them as moves anyway"
        )
    if any(_reversed(text, move) for text, moves in found for move in moves):
        result.notes.append("read `X from Y` as Y -> X")
    return result


def _moves(lines: list[str], names: PegNames | None, counter: Counter) -> list[tuple[str, list[Move]]]:
    """Each line of ``lines`` read as moves, any word in a peg's place read as a peg (lines that are none left out)."""
    parser = Parser(names.labels if names is not None else (), counter)
    parser.lenient = True
    found = []
    for text in lines:
        if not _ALNUM.search(text):
            continue  # no letter or digit: no move (drawings)
        try:
            moves = parser.parse_many(without_state(text))
        except ValueError:
            continue
        if moves:
            found.append((text, [move for move in moves if move[1] is not None]))
    return [(text, moves) for text, moves in found if moves]


def _pairs(lines: list[str], names: PegNames | None, counter: Counter) -> tuple[list[str], int]:
    """``lines`` with each move written across two lines joined into one, and how many were joined.

    The first line holds half a move (a disk, or a source: :func:`~.rules.head`); the next non-blank line
    completes it, and names no disk of its own.
    """
    parser = Parser(names.labels if names is not None else (), counter)
    parser.lenient = True
    out: list[str] = []
    held: str | None = None
    pairs = 0
    for text in lines:
        if held is not None and text.strip():
            both = f"{held.rstrip()} {text.strip()}"
            alone, joined = _read(parser, text), _read(parser, both)
            if len(joined) == 1 and all(disk is None for disk, _, _ in alone):
                out.append(both)
                held, pairs = None, pairs + 1
                continue
            out.append(held)
            held = None
        if _ALNUM.search(text) and head(text, parser.names, lenient=True):
            held = text
        else:
            out.append(text)
    return out + ([held] if held is not None else []), pairs


def _read(parser: Parser, text: str) -> list[Move]:
    try:
        return parser.parse_many(text) or []
    except ValueError:
        return []


def _pegs(
    result: Inference, found: list[tuple[str, list[Move]]], pegs: int, before: list[str], symmetric: bool
) -> None:
    """The peg names, when the moves use exactly ``pegs`` labels that no built-in convention reads.

    Their order comes from their names (:func:`_order`), else from the text ``before`` the first move
    (:func:`_announced`); with neither, the first move's source is taken for the start peg, and
    :attr:`Inference.unsure` says what the other readings would find.
    """
    labels: Bag[str] = Bag()
    first: dict[str, None] = {}
    for _, moves in found:
        for _, src, dst in moves:
            for label in (src, dst):
                if label is not None:
                    labels[label.lower()] += 1
                    first.setdefault(label, None)
    seen = _distinct(first)
    (_, src0, dst0) = found[0][1][0]
    try:
        builtin = detect(src0, dst0, pegs)
        if all(_known(builtin, label) for label in seen):
            return
    except ValueError:
        pass
    if any(all(_known(names, label) for label in seen) for names in conventions(pegs).values() if not names.cyclic):
        return  # a built-in convention reads them all (0-2 when the tower starts elsewhere): the reader's rule
    if len(seen) != pegs or len({_kind(label) for label in seen}) > 1:
        return  # the reader says which label it cannot read, and names --pegs
    order = _order(seen, pegs)
    start = str(src0)
    if order is None and _kind(start) != "w":
        return  # letters or digits out of any order (A, C, D): a slip, which the reader names, or --pegs
    if order is None:
        rest = [label for label in seen if label.lower() != start.lower()]
        order = [start, *rest]
        said = _announced(before, seen)
        example = f"--pegs {','.join(order)}"
        if said is not None and said.lower() != start.lower():
            others = [label for label in seen if label.lower() != said.lower()]
            result.refusal = (
                f"the text before the moves names {said} as the start peg, but the first move leaves {start}: "
                f"say which holds the tower with --pegs (e.g. {example}, or --pegs {','.join([said, *others])})"
            )
            return
        if said is not None:
            why = "the start peg first, as the text before the moves says"
        elif not symmetric:
            result.refusal = (
                f"the pegs {', '.join(seen)} have no order of their own, and with these rules or ends the verdict "
                f"depends on it: name them start peg first with --pegs (e.g. {example})"
            )
            return
        else:
            why = "the first move's source first"
            result.unsure = (
                f"the pegs {', '.join(seen)} have no order of their own and nothing before the moves says which "
                f"holds the tower: with {start} (the first move's source) the {{moves}} moves solve the puzzle, "
                f"with {' or '.join(rest)} move 1 leaves an empty peg; say which with {example} (start peg first)"
            )
    elif order[0].lower() != start.lower():  # two readings: the names' start peg, or the first move's source
        others = [label for label in order if label.lower() != start.lower()]
        result.refusal = (
            f"the names {', '.join(order)} put {order[0]} first, but the first move leaves {start}: say which "
            f"holds the tower with --pegs (--pegs {','.join(order)} makes move 1 illegal; --pegs "
            f"{','.join([start, *others])} reads it from {start})"
        )
        return
    else:
        why = "in the order their names give"
    try:
        result.names = PegNames.of(",".join(order), pegs)
    except UsageError:  # a label that --pegs refuses (a keyword): the reader refuses the line
        return
    result.notes.append(f"read pegs {', '.join(order)} ({why}; --pegs to say otherwise)")


def _announced(before: list[str], labels: list[str]) -> str | None:
    """The start peg the text before the moves names: a label after 'from' or a word such as source or
    start (``from = alpha``, ``source: alpha``), else the first of a line that lists every label."""
    wanted = {label.lower(): label for label in labels}
    listed: str | None = None
    for text in before:
        toks = [tok for tok in tokens(text) if tok.kind != MARK or tok.low not in _LEGEND_MARKS]
        seen: list[str] = []
        for i, tok in enumerate(toks):
            if tok.low not in wanted:
                continue
            if i and (toks[i - 1].low in FROM or WORDS.get(toks[i - 1].low) == 0):
                return wanted[tok.low]
            seen.append(tok.low)
        if listed is None and len(set(seen)) == len(labels):
            listed = wanted[seen[0]]
    return listed


_LEGEND_MARKS = frozenset(":=,'\"()[]")


def _base(result: Inference, lines: list[str], n: int) -> None:
    """Disks numbered from 0 when a move names disk 0 and none names disk n (from 1 when one names n and
    none 0); else the reader's rule (0 when the first disk named is 0)."""
    named = [
        disk for disk in _disks(lines, result.names.labels if result.names else (), result.counter) if disk is not None
    ]
    disks = set(named)
    if 0 in disks and n not in disks:
        result.base = 0
        if named[0] != 0:  # (the reader's own rule reads the first disk named)
            result.notes.append("read disks numbered from 0: a move names disk 0 (--disks)")
    elif n in disks and 0 not in disks:
        result.base = 1


def _contents(lines: list[str], n: int) -> bool:
    """Whether the moves write their pegs as the disks they hold: the first line with two lists of disks
    starts from the whole tower (``Moving from [3, 2, 1] to []``)."""
    for text in lines:
        groups = CONTENTS.findall(text)
        if len(groups) == 2 and not _LIST_OF_MOVES.match(text):
            tower = [int(d) for d in re.findall(r"\d+", groups[0])]
            return n > 0 and tower in (list(range(n, 0, -1)), list(range(1, n + 1)))
    return False


_LIST_OF_MOVES = re.compile(r"\s*[\[(]")


def _to_only(lines: list[str], names: PegNames | None, counter: Counter) -> bool:
    """Whether some moves name a destination and no source (``Move disk 1 to peg 3``)."""
    parser = Parser(names.labels if names is not None else (), counter)
    return any(
        src is None and dst.lower() not in ("left", "right") for text in lines for _, src, dst in _read(parser, text)
    )


def _convention(result: Inference, found: list[tuple[str, list[Move]]], pegs: int) -> None:
    """The built-in convention of every label the moves use, when some moves name no source (so that the
    first move cannot say)."""
    labels = {label for _, moves in found for _, src, dst in moves for label in (src, dst) if label is not None}
    for names in conventions(pegs).values():
        if not names.cyclic and labels and all(_known(names, label) for label in labels):
            if names.name[0].isdigit() and not ("0" in labels or str(pegs) in labels):
                return  # digits 1 and 2 alone: from 0 or from 1?  The reader asks for --pegs
            result.names = names
            result.notes.append(f"read pegs as {names.name}, the labels the moves use (--pegs)")
            return


def _distinct(first: dict[str, None]) -> list[str]:
    """The labels in order of first appearance, one spelling each (case aside)."""
    out: dict[str, str] = {}
    for label in first:
        out.setdefault(label.lower(), label)
    return list(out.values())


def _kind(label: str) -> str:
    """A label's kind: digits, a letter, or a word (a program writes its pegs alike)."""
    return "n" if label.isdecimal() else "l" if len(label) == 1 else "w"


def _known(names: PegNames, label: str) -> bool:
    try:
        names.peg(label)
    except ValueError:
        return False
    return True


def _order(labels: list[str], pegs: int) -> list[str] | None:
    """The order the labels' names give, start peg first, or None when they give none."""
    upper = {label.upper(): label for label in labels}
    if pegs == 3:
        for letters in LETTER_SETS:
            if set(letters) == set(upper):
                return [upper[letter] for letter in letters]
    ranks = [WORDS.get(label.lower()) for label in labels]
    known = {rank for rank in ranks if rank is not None}
    if pegs == 3 and ranks.count(None) == 1 and len(known) == 2:  # 'from', 'to' and 'using': the third is the rest
        ranks[ranks.index(None)] = ({0, 1, 2} - known).pop()
    if pegs == 3 and None not in ranks and len(set(ranks)) == 3:
        return [label for _, label in sorted(zip(ranks, labels, strict=True))]
    numbered = [(m[1].lower(), int(m[2]), label) for label in labels if (m := _NUMBERED.fullmatch(label))]
    if len(numbered) == len(labels) and len({prefix for prefix, _, _ in numbered}) == 1:  # T1, T2, T3
        codes = sorted(code for _, code, _ in numbered)
        if codes == list(range(codes[0], codes[0] + len(codes))):
            return [label for _, _, label in sorted(numbered)]
    if all(len(label) == 1 and label.isalpha() for label in labels) or all(label.isdecimal() for label in labels):
        ordered = sorted(labels, key=lambda label: (len(label), label.upper()))
        codes = [int(label) if label.isdecimal() else ord(label.upper()) for label in ordered]
        if codes == list(range(codes[0], codes[0] + len(codes))):  # consecutive: X, Y, Z or P, Q, R
            return ordered
    return None


def _counter(result: Inference, lines: list[str], names: PegNames | None, n: int) -> None:
    """What the number before the pegs is, when the rules alone would read it otherwise."""
    labels = names.labels if names is not None else ()
    auto = _disks(lines, labels, None)
    soft = _disks(lines, labels, "disks")
    numbers = [disk for disk in soft if disk is not None]
    if len(numbers) < 3 or len(numbers) < len(soft) or soft == _disks(lines, labels, "steps"):
        return  # no number before the pegs, or too few moves to tell
    # Steps count 1, 2, 3, ...: most numbers follow the one before (a line swapped or lost breaks a few);
    # a solution's disks rarely do (1, 2, 1, 3, 1, 2, 1, 4, ...: one pair in four), and are n at most.
    counting = sum(b == a + 1 for a, b in itertools.pairwise(numbers))
    if 4 * counting >= 3 * (len(numbers) - 1) or max(numbers) > n:
        if any(d is not None for d in auto):
            result.counter = "steps"
            result.notes.append("read the number before the pegs as a step: it counts the moves (--counter)")
    elif auto != soft:
        result.counter = "disks"
        result.notes.append("read the number before the pegs as the disk: it does not count the moves (--counter)")


def _disks(lines: list[str], labels: tuple[str, ...], counter: Counter) -> list[int | None]:
    """The disk of every move the lines hold, read with ``counter``."""
    parser = Parser(labels, counter)
    parser.lenient = True
    out: list[int | None] = []
    for text in lines:
        try:
            moves = parser.parse_many(text) or []
        except ValueError:
            continue
        out += [disk for disk, src, _ in moves if src is not None]
    return out


def _states(lines: list[str], pegs: int, n: int) -> set[str] | None:
    """The lines that print states, when they print two or more, each one move from the last (else None)."""
    states = States(pegs, n)
    moves, seen = 0, set()
    for text in lines:
        before = states.seen + len(states.rows)
        try:
            moves += len(states.feed(text))
        except ValueError:  # the reader says where the states jump, if they are states
            seen.add(text)
            return seen if states.seen >= 2 else None
        if states.seen + len(states.rows) != before:
            seen.add(text)
    return seen if states.seen >= 2 and (moves > 0 or n == 0) else None


def _pictures(lines: list[str], found: list[tuple[str, list[Move]]]) -> bool:
    """Whether the moves read are rows of numbers among rows of one number: a picture of the pegs."""
    read = {text for text, _ in found}
    rows = [text for text in lines if _NUMBERS_ONLY.fullmatch(text)]
    lone = [text for text in rows if text not in read]
    return len(lone) >= 2 and all(_only_numbers(text) for text in read)


def _only_numbers(text: str) -> bool:
    return bool(text.strip()) and all(part.isdecimal() for part in text.split())


def _reversed(text: str, move: Move) -> bool:
    """Whether ``move`` was read from ``text`` with its destination written first, before 'from'."""
    _, src, dst = move
    if src is None:
        return False
    m = _FROM_AFTER.search(text)
    if m is None or _TO_AFTER.search(text, m.end()):
        return False
    return text.rfind(dst, 0, m.start()) >= 0 and text.find(src, m.end()) >= 0


def describe(inference: Inference) -> str:
    """The one line that says what was inferred (empty when nothing was)."""
    return "; ".join(inference.notes)


__all__ = ["PROBE", "Inference", "conventions", "describe", "infer", "quote"]
