"""Checking another program's moves: read from its printed text, replayed."""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import cast

from hanoi_harness.core.astray import Prefix
from hanoi_harness.core.checker import NO_OPTIMUM, Tower, check, followable, gone_astray
from hanoi_harness.core.legality import pegs_at
from hanoi_harness.core.puzzle import CLASSIC, Puzzle, tower_peg
from hanoi_harness.core.verdict import Verdict, one_of
from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.infer import PROBE, infer
from hanoi_harness.transcript.infer import describe as describe_inference
from hanoi_harness.transcript.line import Counter
from hanoi_harness.transcript.model import ModelMove
from hanoi_harness.transcript.pegs import CONVENTIONS, PegNames, conventions, quote
from hanoi_harness.transcript.read import Reader
from hanoi_harness.transcript.rules import parse_line
from hanoi_harness.transcript.source import (
    LIMIT,
    AmongMoves,
    MalformedLine,
    NoMoves,
    StateMismatch,
    UnreadableInput,
    open_text,
    pieces,
)

__all__ = [
    "CONVENTIONS", "COUNTERS", "DISKS", "LIMIT", "READS", "MalformedLine", "NoMoves", "UnreadableInput",
    "check_lines", "describe", "open_text", "parse_line",
]  # fmt: skip

DISKS = {"1-based": 1, "0-based": 0}
"""How disks may be numbered (``--disks``): from 1 or from 0."""
COUNTERS = ("steps", "disks")
"""What a number before a move's pegs may be (``--counter``)."""
READS = ("moves", "two-lines", "contents", "states")
"""What the input may print (``--read``)."""


def check_lines(
    lines: Iterable[str],
    n: int,
    *,
    pegs: str | None = None,
    target: str | None = None,
    max_moves: int | None = None,
    disks: str | None = None,
    puzzle: Puzzle = CLASSIC,
    counter: str | None = None,
    read: str | None = None,
    observe: Callable[[ModelMove], None] | None = None,
    headers: bool = True,
) -> Verdict:
    """Judge the moves read from *lines* (an iterable or stream) for *n* disks.

    The options are those of ``hanoi check`` (None: read from the first lines).

    >>> check_lines(["1 A->B", "2 A->C", "1 B->C"], 2).describe()
    'ok (3 moves, tower on peg 2)'
    >>> v = check_lines(["Move disk 1 from A to C", "Move disk 1 from A to B"], 2)
    >>> v.status, v.step, v.extra["line"], v.reason
    ('illegal', 2, 2, 'disk 1 is not on top of peg 0 (its top is 2)')
    >>> check_lines(["A -> C : 2"], 2).reason
    'disk 2 is not on top of peg 0 (its top is 1)'
    >>> from hanoi_harness.core.puzzle import CYCLIC
    >>> check_lines(["A -> C"], 1, puzzle=CYCLIC).reason
    'the cyclic rule allows only 0->1, 1->2, 2->0, not 0->2'
    """
    names = PegNames.of(pegs, puzzle.pegs) if pegs is not None else None
    if disks is not None and disks not in DISKS:
        raise UsageError(f"--disks must be one of {', '.join(DISKS)}, got {disks!r}")
    if counter is not None and counter not in COUNTERS:
        raise UsageError(f"--counter must be one of {', '.join(COUNTERS)}, got {counter!r}")
    if read is not None and read not in READS:
        raise UsageError(f"--read must be one of {', '.join(READS)}, got {read!r}")
    if target is not None and puzzle.goal is not None:
        raise UsageError("give the goal as a configuration or as --target, not both")
    start = puzzle.start_config(n)
    tower = Tower(n, pegs_at(start, puzzle.pegs))
    source = pieces(lines)
    ahead = list(itertools.islice(source, PROBE))  # read again below: the input still streams
    symmetric = puzzle.rule == "any" and puzzle.start is None and puzzle.goal is None
    said = cast(Counter, counter)  # one of COUNTERS, or None
    inference = infer(ahead, puzzle.pegs, n, names=names, counter=said, read=read, symmetric=symmetric)
    if inference.refusal is not None and read is None:
        raise UnreadableInput(inference.refusal)
    base = DISKS.get(disks or "", inference.base)
    reader = Reader(tower.pegs, inference.names, base, inference.counter)
    reader.joined, reader.contents = inference.joined, inference.contents
    if inference.contents and not symmetric:
        raise UsageError("pegs written as the disks they hold are read on the classic rules alone")
    if inference.states:
        reader.read_states(n, inference.drawn, inference.names)
    moves = reader.read(itertools.chain(ahead, source))
    first = next(moves, None)  # the first move decides the convention, which --target is read in
    if reader.error is not None:
        raise reader.error
    if first is None and n > 0 and start != puzzle.goal:
        raise reader.no_moves()
    names = reader.names or next(iter(_named(puzzle.pegs)), conventions(puzzle.pegs)[f"0-{puzzle.pegs - 1}"])
    targets = _targets(target, names, puzzle.pegs, start)
    stream: Iterable[ModelMove] = itertools.chain((first,), moves) if first is not None else ()
    prefix = Prefix(n) if followable(puzzle, n) else None
    astray: list[tuple[int, int, str]] = []  # the first move off every shortest solution: step, line, text
    early: list[int] = []  # the lines of the first moves: a header read as a move is one of them
    texts: deque[str] = deque(maxlen=2)  # the lines of the last two moves: a footer's shape is not a move's

    def seen(move: ModelMove) -> None:
        if len(early) < EARLY:
            early.append(reader.line)
        texts.append(reader.text)
        if prefix is not None and prefix.ways:
            prefix(move)
            if not prefix.ways:
                astray.append((prefix.length + 1, reader.line, reader.text.rstrip("\r\n")))
        if observe is not None:
            observe(move)

    stream = _observed(stream, seen)
    verdict = gone_astray(check(stream, n, targets, puzzle=puzzle, initial=tower.pegs, max_moves=max_moves), prefix)
    if isinstance(reader.error, StateMismatch):  # the last move read is not the one its line's state shows
        mismatch, reader.error = reader.error, None
        verdict = Verdict("illegal", n, verdict.moves - 1, step=verdict.moves, reason=mismatch.why)
        reader.line, reader.text = mismatch.line or 0, mismatch.text
    if reader.error is not None:
        raise reader.error
    if verdict.ok and inference.unsure is not None:
        raise UnreadableInput(inference.unsure.format(moves=verdict.moves))
    unread = None if verdict.ok else reader.unread()
    if unread is not None:  # a header or footer like a move: the run that fails without it is no verdict
        raise AmongMoves(*unread, failed=verdict.status.replace("_", " "))
    labels = tuple(label or default for label, default in zip(reader.labels, names.labels, strict=True))
    extra: dict[str, object] = {
        "convention": names.name,
        "labels": labels,
        "targets": sorted(targets),
        "disks": "0-based" if reader.base == 0 else "1-based",
        "puzzle": puzzle.name,
        "goal": puzzle.goal,
        "read": describe_inference(inference),
    }
    if astray and verdict.status == "not_optimal":
        extra["astray"] = astray[0]
    if verdict.step is not None and first is not None:
        extra.update(line=reader.line, text=reader.text.rstrip("\r\n"))
    verdict = replace(verdict, extra=extra)
    if verdict.status == "illegal" and verdict.step is not None and puzzle.goal is None:
        footer = len(texts) == 2 and _shape(texts[0]) != _shape(texts[1])  # not written as the move before it
        if footer and tower.complete_on() in targets:  # a footer read as a move, after the tower stands
            raise UnreadableInput(
                f"two readings disagree: {describe(verdict, n)}; as a footer, line {reader.line} follows "
                f"{verdict.moves} legal moves that end the tower on peg {labels[tower.complete_on() or 0]}: "
                "print no line like a move after the moves, or give --pattern for the moves alone"
            )
        if headers and verdict.step <= EARLY and reader.line <= len(ahead):  # the rest of the input is unread
            _header(
                verdict,
                n,
                ahead,
                early[: verdict.step],
                lambda text: check_lines(
                    text,
                    n,
                    pegs=pegs,
                    target=target,
                    disks=disks,
                    puzzle=puzzle,
                    counter=counter,
                    read=read,
                    headers=False,
                ),
            )
    return verdict


_SHAPE = re.compile(r"\b(?:\d+|[^\W\d_])\b")


def _shape(text: str) -> str:
    """*text* with its numbers and lone letters blanked: a move's shape.

    >>> _shape("Move disk 1 from A to C") == _shape("Move disk 2 from B to C"), _shape("Done: A -> C")
    (True, 'Done: _ -> _')
    """
    return _SHAPE.sub("_", text.strip())


EARLY = 3
"""An illegal move among the first moves is judged only if no line is a header."""


def _header(
    verdict: Verdict, n: int, ahead: list[str], lines: list[int], judge: Callable[[list[str]], Verdict]
) -> None:
    """Refuse an early illegal *verdict* that a header read as a move explains."""
    failing = verdict.extra.get("line", 0)
    for line in lines:
        others = [ahead[x - 1] for x in {*lines, failing} if x != line and 0 < x <= len(ahead)]
        if not others or _shape(ahead[line - 1]) in map(_shape, others):  # written as a move: read as one
            continue
        try:
            other = judge([*ahead[: line - 1], "\n", *ahead[line:]])
        except (UnreadableInput, UsageError):
            continue
        more = len(ahead) == PROBE and other.status in ("incomplete", "not_optimal")  # legal as far as it was read
        if other.ok or more:
            rest = f"{other.moves} legal moves in the first {PROBE} lines" if more else describe(other, n)
            raise UnreadableInput(
                f"two readings disagree: {describe(verdict, n)}; as a header, line {line} "
                f"{quote(ahead[line - 1].rstrip())} leaves {rest}: print no line like a move before "
                "the moves, or give --pattern for the moves alone"
            )


def _observed(stream: Iterable[ModelMove], observe: Callable[[ModelMove], None]) -> Iterator[ModelMove]:
    """The moves of ``stream``, each shown to ``observe`` first."""
    for move in stream:
        observe(move)
        yield move


def _named(pegs: int) -> list[PegNames]:
    """The built-in conventions of *pegs* pegs that name them: letters, words."""
    return [names for names in conventions(pegs).values() if names.name[0].isalpha() and not names.cyclic]


def _targets(target: str | None, names: PegNames, pegs: int, start: tuple[int, ...]) -> frozenset[int]:
    """The pegs the tower may end on: ``target``, else any but the start peg."""
    if target is None:
        here = tower_peg(start) if start else 0
        return frozenset(peg for peg in range(pegs) if peg != here)
    for convention in [names, *_named(pegs)]:  # the input's convention, then letters A.. and (three pegs) words
        try:
            return frozenset({convention.peg(target.strip())})
        except ValueError:
            continue
    raise UsageError(f"--target: peg {target!r} is not {one_of(names.labels)} (pegs read as {names.name})")


def describe(verdict: Verdict, n: int) -> str:
    """Describe *verdict* on *n* disks in one line, in the input's labels.

    >>> describe(check_lines(["A C", "A B"], 1), 1)
    "illegal at step 2, line 2 'A B': peg A is empty"
    >>> from hanoi_harness.core.puzzle import LINEAR
    >>> describe(check_lines(["A B", "B C"], 1, puzzle=LINEAR), 1)
    'ok: 2 moves, legal and optimal (proven) for n = 1 (linear); the tower ends on peg C'
    """
    labels = tuple(verdict.extra.get("labels", ("0", "1", "2")))
    base = "; disks numbered from 0" if verdict.extra.get("disks") == "0-based" else ""
    if verdict.status == "ok":
        rules = verdict.extra.get("puzzle", "classic")
        puzzle = "" if rules == "classic" else f" ({rules})"
        return f"ok: {verdict.moves} moves, {_claim(verdict)} for n = {n}{puzzle}; {_end(verdict, labels)}{base}"
    if verdict.status == "illegal":
        where = f", line {verdict.extra['line']} {quote(verdict.extra['text'])}" if "line" in verdict.extra else ""
        return f"illegal at step {verdict.step}{where}: {verdict.explain(labels)}"
    if "astray" in verdict.extra and verdict.failure is not None:
        step, line, text = verdict.extra["astray"]
        plain = replace(verdict, failure=replace(verdict.failure, astray=None))
        return f"{plain.describe(labels)}; step {step}, line {line} {quote(text)}, leaves every shortest solution"
    return verdict.describe(labels)


def _claim(verdict: Verdict) -> str:
    """What an ``ok`` *verdict* says of its count."""
    claim = verdict.optimality
    if not claim:
        return "legal and optimal"
    if claim == NO_OPTIMUM:
        return "legal and at the goal (no optimal count is known for this start and goal)"
    return f"legal and {claim}" if claim.startswith("optimal") else f"legal, {claim},"


def _end(verdict: Verdict, labels: tuple[str, ...]) -> str:
    """Where the disks of an ``ok`` *verdict* end: a tower's peg, or the goal."""
    goal = verdict.extra.get("goal")
    if verdict.final_peg is not None and (goal is None or tower_peg(goal) is not None):
        return f"the tower ends on peg {labels[verdict.final_peg]}"
    return "the disks end at the goal " + ",".join(labels[peg] for peg in goal or ())
