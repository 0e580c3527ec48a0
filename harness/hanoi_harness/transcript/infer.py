"""The conventions of an output, inferred from its first lines."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from hanoi_harness.transcript.labels import builtin_names, own_names
from hanoi_harness.transcript.line import Counter
from hanoi_harness.transcript.model import CONTENTS
from hanoi_harness.transcript.pegs import PegNames, conventions, quote
from hanoi_harness.transcript.pictures import Layout, is_row, layout
from hanoi_harness.transcript.rules import Move, head
from hanoi_harness.transcript.states import BARE, States, without_state
from hanoi_harness.transcript.templates import Parser

PROBE = 400
"""Lines read ahead to infer the conventions."""
_LONGEST = 2_000

_NUMBERS_ONLY = re.compile(r"\s*\d+\s*")
_ALNUM = re.compile(r"[^\W_]")
_FROM_AFTER = re.compile(r"(?i)\bfrom\b")
_TO_AFTER = re.compile(r"(?i)\bto\b")


@dataclass
class Inference:
    """What :func:`infer` decided about an output (None: the reader's rule)."""

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


_EMPTY = re.compile(r"\s*\[\s*\]\s*")
_LABELLED = re.compile(r"['\"]?([^\W\d_]\w{0,15})['\"]?\s*[:=]\s*\[")


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
    """The conventions of the output whose first lines are ``lines``."""
    result = Inference(names=names, counter=counter, states=read == "states")
    lines = [text for text in lines if len(text) < _LONGEST and "\x00" not in text]
    if result.states:
        if _states(lines, pegs, n) is None:
            result.drawn = layout(lines, pegs, n, forced=True)
        return result
    if read is None and _contents(lines, n) and _state_names(lines, pegs) is not None and _states(lines, pegs, n):
        read = "states"  # a dict of the pegs after each move ('Moving disk 2 from [2] to [4, 3]' beside it)
    if read == "states":
        result.states = True
        result.names = names or _state_names(lines, pegs)
        result.notes.append("read the pegs printed after each move (states), a move between two (--read)")
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
        result.states, result.names = True, names or _state_names(lines, pegs)
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
    if read is None and any(BARE.fullmatch(text) for text, _ in found) and any(_EMPTY.fullmatch(t) for t in lines):
        result.refusal = (
            "no moves read: the lines read as moves are the disks of one peg a line ('[]', '[3, 2, 1]'): "
            "give --read states to read the states, or --read moves to read them as moves anyway"
        )
        return result
    if names is None:
        own_names(result, found, pegs, lines[: lines.index(found[0][0])], symmetric)
    if result.names is None and _to_only(lines, names, counter):
        builtin_names(result, found, pegs)
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
    """Each line read as moves, any word in a peg's place a peg; none left out."""
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
    """``lines`` with each move written across two lines joined, and how many."""
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


def _base(result: Inference, lines: list[str], n: int) -> None:
    """Decide whether disks are numbered from 0 or from 1, if the moves say."""
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
    """Whether the first move written as two lists of disks holds the tower."""
    for text in lines:
        groups = CONTENTS.findall(text)
        if len(groups) == 2 and not _LIST_OF_MOVES.match(text):
            tower = [int(d) for d in re.findall(r"\d+", groups[0])]
            return n > 0 and tower in (list(range(n, 0, -1)), list(range(1, n + 1)))
    return False


_LIST_OF_MOVES = re.compile(r"\s*[\[(]")


def _to_only(lines: list[str], names: PegNames | None, counter: Counter) -> bool:
    """Whether some moves name a destination and no source."""
    parser = Parser(names.labels if names is not None else (), counter)
    return any(
        src is None and dst.lower() not in ("left", "right") for text in lines for _, src, dst in _read(parser, text)
    )


def _counter(result: Inference, lines: list[str], names: PegNames | None, n: int) -> None:
    """Decide what the number before the pegs is, if the rules would not."""
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


def _state_names(lines: list[str], pegs: int) -> PegNames | None:
    """The pegs' names as the states print them (``{'A': [3, 2], ...}``)."""
    for text in lines:
        labels = tuple(_LABELLED.findall(text))
        if len(labels) == pegs and len(set(labels)) == pegs:
            return PegNames.listed(",".join(labels), labels)
    return None


def _states(lines: list[str], pegs: int, n: int) -> set[str] | None:
    """The lines that print two or more states, each one move apart, or None."""
    states = States(pegs, n)
    moves, seen = 0, set()
    for text in lines:
        before = states.seen + len(states.rows)
        try:
            moves += len(states.feed(text))
        except ValueError:  # the reader says where the states jump, if they are states
            moves += 1
            if states.seen < 2:
                return None
        if states.seen + len(states.rows) != before:
            seen.add(text)
    return seen if states.seen >= 2 and (moves > 0 or n == 0) else None


def _pictures(lines: list[str], found: list[tuple[str, list[Move]]]) -> bool:
    """Whether the moves read are rows of numbers among rows of one number."""
    read = {text for text, _ in found}
    rows = [text for text in lines if _NUMBERS_ONLY.fullmatch(text)]
    lone = [text for text in rows if text not in read]
    return len(lone) >= 2 and all(text.strip() and all(part.isdecimal() for part in text.split()) for text in read)


def _reversed(text: str, move: Move) -> bool:
    """Whether ``move`` was read with its destination first: 'X from Y'."""
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
