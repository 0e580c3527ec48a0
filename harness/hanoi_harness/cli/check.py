"""``hanoi check``: verify the moves another program printed."""

from __future__ import annotations

import argparse
import codecs
import itertools
import json
import os
import re
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO, TextIO

from hanoi_harness.cli.options import MAX_STREAMED_DISKS, add_ends_options, at_most, fail, read_config, streamed_disks
from hanoi_harness.core.puzzle import Puzzle, Rule
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.errors import UsageError
from hanoi_harness.progress import Bar
from hanoi_harness.registry.probe import MAX_PEGS
from hanoi_harness.transcript.batch import Summary, grade_all
from hanoi_harness.transcript.check import COUNTERS, DISKS, READS, check_lines, describe, open_text
from hanoi_harness.transcript.pegs import PegNames
from hanoi_harness.transcript.source import GROUPS, AmongMoves, MalformedLine, by_pattern, propose

DESCRIPTION = """\
Read moves from FILE or standard input (UTF-8, UTF-16/32 with a byte-order mark, or --encoding) and replay
them for N disks starting on the first peg: print the first illegal step with its line, or the verdict.

A move is a line with one of these shapes, with or without step numbers, headers and prompts:
  A -> C, 1: 1 A->C, disk 3: 0 --> 2, A -> C : 2     an arrow (->, -->, - >, =>, →) between two pegs
  Move disk 1 from A to C, from rod 'S' to rod 'D'   from X to Y
  A to C, left to right, Move disk 1 to peg 3        X to Y; a disk and its destination alone
  1 left, Move disk 2 right                          a disk and its direction on a circle of pegs
  1 0 2, (1, 'A', 'C'), A C, 1 start end, A C 2      two to four values
  [(1, 3), (1, 2), (3, 2)]                           a list of moves on one line, any length
  A to B, A to C, B to C; ...<br>...; 1:A->C 2:A->B   several moves on a line (any length): all are read
  left from mid, Move disk from A C, Move 1 to 2     'X from Y' is Y -> X; a move without 'to'
  Mover el disco 1 de la torre de origen a ...       connectives of many languages (de/a, von/nach, 从/到, с/на)
  1 を A から C に移動, 원반 1을 A에서 C로, A'dan C'ye  words after the pegs (Japanese, Korean, Turkish)
  Move disk 1 / from A to C                          a move written across two lines
  Moving from [3, 2, 1] to []                        pegs written as the disks they hold
  Move disk from 0 to 1 : [[3, 2], [1], []]          a move and the state after it (the two must agree)
Pegs are 0-2, 1-3, A-C (any case), names (left/middle/right, source/auxiliary/target, origen/destino, ...)
or any three labels the moves use, in the order their names give (S,A,D; X,Y,Z) or the text before the
moves names; with no such order a solution is refused, naming the --pegs that says which holds the
tower. The disk is the number after 'disk', else the one number after the pegs, else the last before them
unless it counts the moves (a step, see --counter); a move without one moves the top disk. Programs that
print the pegs after each move instead ('[3, 2] [] [1]', 'A: 3 2', columns of numbers, or pictures of
the disks such as '==|==') are read by the difference of two states (--read). Each inference is said in
one line on standard error. Other lines are skipped; the documentation lists every shape and rule.
Exit status: 0 legal and optimal, 1 illegal, incomplete or not optimal, 2 for input that cannot be read
(a line that looks like a move but is not one, no move at all, binary data, a line over 10000 characters
that is not a line of moves, readings of the pegs that disagree) or a bad option.

Other puzzles: --rules cyclic (only 0->1, 1->2, 2->0) or linear (only 0-1, 1-2), --pegs-count K (every
move, K pegs: 0-(K-1), 1-K, A.. or K names), --from/--to configurations (the peg of each disk, disk 1
first, pegs numbered from 0 in the convention's order, as 'hanoi state' prints them). Moves that break the
rule are illegal with that reason; the count is judged against the puzzle's fewest moves."""

RULES: dict[str, Rule] = {"classic": "any", "cyclic": "cyclic", "linear": "linear"}


def _pegs(text: str) -> str:
    """Parse ``--pegs``, refusing text that is no convention for any peg count."""
    if _RANGE.fullmatch(text.strip()):  # 0-3, 1-4, A-D: a convention of a number of pegs --pegs-count gives
        return text
    try:
        PegNames.of(text, max(3, len(text.split(","))))  # names: as many pegs as names
    except UsageError as exc:
        raise argparse.ArgumentTypeError(_why(text, exc)) from None
    return text


def _why(text: str, exc: UsageError) -> str:
    """Say why ``--pegs`` *text* is refused (*exc*), without the option."""
    return str(exc).removeprefix(f"--pegs {text!r}: ")


_RANGE = re.compile(r"(?i)[01]-\d{1,5}|a-[a-z]")


def add_check(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi check`` to *p*."""
    p.description = DESCRIPTION
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument(
        "-n",
        type=streamed_disks,
        metavar="N",
        help=f"the number of disks, at most {MAX_STREAMED_DISKS} (needed but with --jsonl)",
    )
    p.add_argument(
        "--jsonl",
        metavar="FILE",
        help="grade many outputs: FILE ('-': standard input) holds one JSON record a line, "
        '{"id": ..., "n": N, "text": "..."} with options such as "pegs", "rules", "target", "read"; print one '
        "JSON verdict a line (status, count, step, line, prefix: the moves a shortest solution starts with), "
        "then a summary by n",
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE", help="the moves ('-' or nothing: standard input)")
    p.add_argument(
        "--pegs",
        type=_pegs,
        metavar="PEGS",
        help="how the pegs are written: 0-2, 1-3, A-C, words, cyclic (a disk and a direction, left or right), or "
        "three names, start peg first (S,A,D). On K pegs (--pegs-count): 0-(K-1), 1-K, the first K letters, cyclic "
        "or K names. Default: inferred from the labels the moves use, ordered by their names or by the text before "
        "the moves; with neither, a solution is refused",
    )
    p.add_argument(
        "--encoding",
        type=_encoding,
        metavar="CODEC",
        help="the input's codec, any that Python knows, e.g. latin-1 (default: UTF-8, or UTF-16/32 after a "
        "byte-order mark)",
    )
    p.add_argument(
        "--disks",
        choices=tuple(DISKS),
        help="how the disks are numbered, the smallest first (default: 0-based if the first 400 lines name disk 0 "
        "but not N, or else if the first disk named is 0)",
    )
    p.add_argument(
        "--counter",
        choices=COUNTERS,
        help="what the last number before a move's pegs is ('3: A->C'): steps, counting the moves (which then name "
        "no disk), or disks (default: steps if most such numbers count 1, 2, 3, ... or one exceeds N)",
    )
    p.add_argument(
        "--read",
        choices=READS,
        help="what the input prints: moves (one or more a line), two-lines (each move across two lines), contents "
        "(pegs written as the disks they hold, 'from [3, 2, 1] to []') or states (the pegs after each move, as "
        "described above); default: inferred from the first 400 lines",
    )
    p.add_argument(
        "--pattern",
        type=_pattern,
        metavar="REGEX",
        help="read each line this regular expression matches as one move, with named groups src and dst, and "
        "perhaps disk and step, e.g. 'disk (?P<disk>\\d+): (?P<src>\\w+) > (?P<dst>\\w+)'; other lines are "
        "skipped",
    )
    p.add_argument(
        "--target",
        metavar="PEG",
        help="the peg the tower must end on, as the input writes it (default: any but its start); --to gives a "
        "whole configuration instead",
    )
    p.add_argument(
        "--rules",
        choices=tuple(RULES),
        default="classic",
        help="the moves allowed: classic (all, the default), cyclic (0->1, 1->2, 2->0) or linear (0-1, 1-2), the "
        "pegs counted in the convention's order",
    )
    p.add_argument(
        "--pegs-count",
        type=at_most(MAX_PEGS, "the checker holds a list per peg", "pegs", low=3),
        default=3,
        metavar="K",
        help="the number of pegs (default 3); more than 3 only with the classic rules",
    )
    add_ends_options(p, MAX_STREAMED_DISKS, ("pegs numbered from 0 in the convention's order", "a peg (see --target)"))
    p.set_defaults(func=cmd_check)


PARSERS = {"check": add_check}


def cmd_check(args: argparse.Namespace) -> int:
    if args.jsonl is not None:
        return _batch(args.jsonl)
    if args.n is None:
        fail("check: the argument -n is required (but with --jsonl)")
    puzzle = puzzle_for(args)
    if args.pegs is not None:
        try:
            PegNames.of(args.pegs, puzzle.pegs)
        except UsageError as exc:
            raise UsageError(f"argument --pegs: {_why(args.pegs, exc)}") from None
    with _input(args.file, args.encoding) as text:
        try:
            verdict = check_lines(
                text if args.pattern is None else by_pattern(text, args.pattern),
                args.n,
                pegs=args.pegs,
                target=args.target,
                disks=args.disks,
                puzzle=puzzle,
                counter=args.counter,
                read="moves" if args.pattern is not None else args.read,
            )
        except MalformedLine as exc:
            pattern = None if args.pattern is not None or isinstance(exc, AmongMoves) else propose(exc.source)
            if pattern is None:
                raise
            raise UsageError(f"{exc}; or read each such line with --pattern {shlex.quote(pattern)}") from None
        except UnicodeError as exc:  # 'UTF-16 stream does not start with BOM'
            raise UsageError(f"the input is not {args.encoding} text ({exc}): give another --encoding") from None
    if args.pattern is not None and "line" in verdict.extra and args.file != "-":
        with _input(args.file, args.encoding) as text:  # the line as printed, not as the pattern rewrote it
            line = next(itertools.islice(text, verdict.extra["line"] - 1, None), "")
        verdict.extra["text"] = line.rstrip("\r\n")
    if verdict.status == "illegal" and (verdict.step or 0) <= EARLY and args.file != "-" and args.pattern is None:
        _competing(args, puzzle, verdict)
    if verdict.extra.get("read"):
        print(f"hanoi check: {verdict.extra['read']}", file=sys.stderr)
    print(describe(verdict, args.n))
    return 0 if verdict.ok else 1


BATCH_BYTES = 1 << 20  #: A --jsonl file at least this large is graded over every core.


def _batch(name: str) -> int:
    """Grade the records of ``--jsonl`` *name*: 0 if all are ok, else 1."""
    summary, bad = Summary(), 0
    large = name != "-" and os.path.getsize(name) >= BATCH_BYTES if os.path.exists(name) else False
    bar = Bar(unit="record")
    bar.phase("grading", None)
    with _input(name) as text:
        for verdict in grade_all(text, workers=(os.cpu_count() or 1) if large else 1):
            print(json.dumps(verdict, ensure_ascii=False))
            summary.add(verdict)
            bad += verdict["status"] != "ok"
            bar.step(str(verdict.get("id")))
    bar.close()
    print(json.dumps({"summary": summary.rows()}))
    return 1 if bad else 0


EARLY = 3  #: An illegal move among the first this many is tried with other readings.
READINGS = (("counter", COUNTERS), ("disks", tuple(DISKS)), ("read", READS))


def _competing(args: argparse.Namespace, puzzle: Puzzle, verdict: Verdict) -> None:
    """Refuse an early illegal *verdict* that an unasked reading finds legal."""
    for option, values in READINGS:
        if getattr(args, option) is not None:
            continue
        for value in values:
            options = {key: getattr(args, key) for key, _ in READINGS} | {option: value}
            try:
                with _input(args.file, args.encoding) as text:
                    other = check_lines(text, args.n, pegs=args.pegs, target=args.target, puzzle=puzzle, **options)
            except (UsageError, UnicodeError):
                continue
            if other.ok:
                raise UsageError(
                    f"two readings disagree: as read, {describe(verdict, args.n)}; with --{option} {value}, "
                    f"{describe(other, args.n)}; give the option of the reading meant"
                )


def puzzle_for(args: argparse.Namespace) -> Puzzle:
    """Return the puzzle of ``--rules``, ``--pegs-count`` and the ends."""
    try:
        puzzle = Puzzle(pegs=args.pegs_count, rule=RULES[args.rules])
    except UsageError as exc:
        raise UsageError(f"--rules {args.rules} --pegs-count {args.pegs_count}: {exc}") from None
    if args.start is None and args.goal is None:
        return puzzle
    if args.goal is not None and args.target is not None:
        raise UsageError("--to and --target both name where the disks must end: give one")
    start = (
        puzzle.start_config(args.n) if args.start is None else read_config("--from", args.start, puzzle.pegs, args.n)
    )
    if args.goal is None:
        return replace(puzzle, start=start)
    return puzzle.between(start, read_config("--to", args.goal, puzzle.pegs, args.n))


def _pattern(text: str) -> re.Pattern[str]:
    """``--pattern``: a regular expression with groups src and dst."""
    try:
        pattern = re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"not a regular expression: {exc}") from None
    names = set(pattern.groupindex)
    if not {"src", "dst"} <= names or not names <= GROUPS:
        raise argparse.ArgumentTypeError("the groups must be (?P<src>...) and (?P<dst>...), perhaps disk and step")
    return pattern


_NOT_TEXT = frozenset({"idna", "punycode", "undefined"})  # text encodings of names, or of nothing


def _encoding(name: str) -> str:
    """``--encoding``: a codec Python knows that decodes bytes to text."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {name!r}") from None
    if not info._is_text_encoding or info.name in _NOT_TEXT:  # (base64, zlib: bytes to bytes; idna: names)
        raise argparse.ArgumentTypeError(f"{name!r} is not a text encoding (e.g. utf-8, cp1251, latin-1)")
    return info.name


@contextmanager
def _input(name: str, encoding: str | None = None) -> Iterator[TextIO]:
    """Return the text of FILE or of stdin, decoded by :func:`open_text`."""
    if name != "-":
        with _open(name) as handle, open_text(handle, encoding) as text:
            yield text
        return
    if sys.stdin is None:
        fail("standard input is closed")
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream with no bytes under it (an embedding program's)
        yield sys.stdin
        return
    text = open_text(raw, encoding)
    try:
        yield text
    finally:
        text.detach()  # leave standard input open


def _open(name: str) -> BinaryIO:
    try:
        return Path(name).open("rb")
    except OSError as exc:
        fail(f"cannot read {name!r}: {exc.strerror}")
