"""``hanoi moves`` and ``hanoi show``: an algorithm's moves, and the pegs.

Both judge every move as ``hanoi verify`` does and stop at the first bad one.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from hanoi_harness.cli.options import (
    MAX_STREAMED_DISKS,
    add_ends_options,
    add_plugin_option,
    algorithm_for,
    ends_for,
    one_line,
    streamed_disks,
)
from hanoi_harness.cli.streams import algorithm_output, command_stdout, say, write_binary, write_lines
from hanoi_harness.core.checker import cap_for
from hanoi_harness.core.legality import Tower, illegal_reason, pegs_at
from hanoi_harness.core.puzzle import CLASSIC, Puzzle
from hanoi_harness.core.verdict import Failure, Verdict
from hanoi_harness.errors import UsageError
from hanoi_harness.sandbox.interrupts import interrupted

if TYPE_CHECKING:
    from hanoi_harness.sandbox.faults import Odd

PRINTS = (
    "What the algorithm prints (at import or while it moves) goes to stderr, never among the moves; a crash "
    "names the line of the algorithm's code it came from."
)


def add_moves(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi moves`` to *p*."""
    p.description = (
        "Print the moves of NAME for N disks, one a line as 'DISK SRC DST' "
        "(disk 1 the smallest, pegs numbered from 0: 0 1 2 on three), streamed as they are made. "
        "Each move is checked as 'hanoi verify' checks it: at the first illegal one (or a crash of the "
        "algorithm) the moves before it are written, the reason, naming that move, goes to stderr and the exit "
        "status is 1; so 'hanoi moves BUG N | hanoi check' sees only the moves before it (use 'set -o pipefail'). "
        + PRINTS
    )
    p.add_argument("name", metavar="NAME", help="a registered algorithm (see 'hanoi list')")
    p.add_argument("n", metavar="N", type=streamed_disks, help=f"the number of disks, at most {MAX_STREAMED_DISKS}")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="print only the number of moves")
    mode.add_argument(
        "--digest",
        action="store_true",
        help="print 'COUNT DIGEST', DIGEST = sum of k*(P^2*disk+P*src+dst) mod 2^64 over the moves k = 1..COUNT, "
        "P the number of pegs (k*(9*disk+3*src+dst) on three)",
    )
    mode.add_argument(
        "--binary",
        action="store_true",
        help="write each move as three unsigned bytes DISK SRC DST, with no separators, for other programs (N and "
        "each peg at most 255)",
    )
    add_ends_options(p, MAX_STREAMED_DISKS)
    add_plugin_option(p)
    p.set_defaults(func=cmd_moves)


def add_show(s: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi show`` to *s*."""
    s.description = (
        "Replay NAME's moves for N disks and print the pegs (bottom disk first) before the first "
        "move and after each; stops at the first illegal move (or a crash) and says why, with exit status 1. " + PRINTS
    )
    s.add_argument("name", metavar="NAME", help="a registered algorithm (see 'hanoi list')")
    s.add_argument("n", metavar="N", type=streamed_disks, help=f"the number of disks, at most {MAX_STREAMED_DISKS}")
    add_ends_options(s, MAX_STREAMED_DISKS)
    add_plugin_option(s)
    s.set_defaults(func=cmd_show)


PARSERS = {"moves": add_moves, "show": add_show}


def cmd_moves(args: argparse.Namespace) -> int:
    from hanoi_harness.core.digest import MASK
    from hanoi_harness.sandbox.pieces import binary_refusal
    from hanoi_harness.sandbox.screen import MoveStream

    with algorithm_output():
        algorithm = algorithm_for(args, args.n)
        stream = MoveStream(algorithm, args.n, ends_for(args, algorithm, args.n))
        if args.binary and (refusal := binary_refusal(args.n, stream.puzzle.pegs)):
            raise UsageError(refusal)
        pieces = stream.pieces()
        if args.count or args.digest:
            count = total = 0
            for piece in pieces:
                count += piece.count
                total += piece.digest()
            write_lines([f"{count} {total & MASK}\n" if args.digest else f"{count}\n"])
        elif args.binary:
            write_binary(piece.binary() for piece in pieces)
        else:
            write_lines(piece.text() for piece in pieces)
        if stream.failure is None:
            return 0
        command_stdout().flush()  # the moves before the failure come out before the line that ends them
    say(f"{algorithm.name}: {describe(stream.failure)}")
    return 1


def describe(verdict: Verdict) -> str:
    """Describe *verdict* in one line, even if its objects' repr raises."""
    try:
        return one_line(verdict.describe(), 300)
    except Exception:  # a move whose repr or str raises
        return f"{verdict.status.replace('_', ' ')} at step {verdict.step}"


SEPARATOR = "-" * 27 + "\n"


def _pegs(tower: Tower) -> str:
    return "".join(f"[{i}] {', '.join(map(str, peg))}".rstrip() + "\n" for i, peg in enumerate(tower.pegs))


def show_lines(
    moves: Iterator[Any],
    n: int,
    stopped: list[str] | None = None,
    puzzle: Puzzle = CLASSIC,
    roots: tuple[str, ...] = (),
) -> Iterator[str]:
    """Show the pegs of *puzzle* before *moves* of *n* disks and after each.

    >>> print("".join(show_lines(iter([(1, 0, 2)]), 1)), end="")
    [0] 1
    [1]
    [2]
    [step 0] start
    ---------------------------
    [0]
    [1]
    [2] 1
    [step 1] disk 1: 0 -> 2
    ---------------------------
    """
    from hanoi_harness.sandbox.faults import Crash, Odd, triple

    tower = Tower(n, pegs_at(puzzle.start_config(n), puzzle.pegs))
    cap = cap_for(puzzle, n, frozenset(range(1, puzzle.pegs)))[0]
    yield _pegs(tower) + "[step 0] start\n" + SEPARATOR
    for k in itertools.count(1):
        try:
            move = triple(next(moves))
        except StopIteration:
            return
        except (Exception, SystemExit) as exc:  # the algorithm's failure is part of what is shown
            if interrupted(exc):
                raise
            crash = Crash.of(exc, roots)
            why: str | None = "crashed: " + Failure("crashed", detail=crash.reason, location=crash.location).text()
        else:
            why = _why_illegal(move, tower, k, cap, puzzle)
        if why is None and not isinstance(move, Odd):
            disk, src, dst = move
            tower.pegs[dst].append(tower.pegs[src].pop())
            yield _pegs(tower) + f"[step {k}] disk {disk}: {src} -> {dst}\n" + SEPARATOR
            continue
        if stopped is not None:
            stopped.append(str(why))
        yield f"[step {k}] {one_line(str(why), 300)}\n"
        return


def _why_illegal(move: tuple[int, int, int] | Odd, tower: Tower, k: int, cap: int, puzzle: Puzzle) -> str | None:
    """Why move *k* cannot be shown (illegal, or one too many), or None."""
    from hanoi_harness.sandbox.faults import Odd

    if k > cap:
        return f"still moving after {cap} moves; stopped"
    if isinstance(move, Odd):
        return f"illegal move {move.shown}: {Failure('odd_move', detail=move.what).text()}"
    reason = illegal_reason(move, tower.pegs, puzzle)
    return None if reason is None else f"illegal move {move!r}: {reason}"


def cmd_show(args: argparse.Namespace) -> int:
    from hanoi_harness.sandbox.faults import roots_of

    with algorithm_output():
        algorithm = algorithm_for(args, args.n)
        ends = ends_for(args, algorithm, args.n)
        stopped: list[str] = []
        try:
            moves = algorithm.moves_of_run(args.n, ends)
        except (Exception, SystemExit) as exc:  # not a generator, or raises when called: it crashed at step 1
            if interrupted(exc):
                raise
            moves = _raising(exc)
        write_lines(show_lines(moves, args.n, stopped, algorithm.puzzle_of_run(ends), roots_of(algorithm)))
    return 1 if stopped else 0


def _raising(exc: BaseException) -> Iterator[Any]:
    raise exc
    yield  # a generator that fails on its first move
