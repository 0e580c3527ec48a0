"""One run of an algorithm, judged in-process, its exception kept."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from hanoi_harness.core.arrays import check_chunks
from hanoi_harness.core.checker import Targets, check
from hanoi_harness.core.puzzle import Config
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing.failures import CheckFailed, Recorder, crash_failure, where

Ends = tuple[Config, Config] | None  #: The start and goal of a run, or None for the default run.


def judged(
    algorithm: Algorithm, n: int, *, ends: Ends = None, targets: Targets | None = None
) -> tuple[Verdict, Recorder]:
    """Replay *algorithm*'s run of n disks; return its verdict and recorder.

    The run is between *ends* if given; else it must end on one of *targets* (default: declared).
    """
    algorithm.check_n(n)
    if ends is not None:
        ends = algorithm.endpoints(n, *ends)  # a configuration it cannot take is a usage error, not a crash
    arrays = algorithm.chunks and ends is None
    start: Callable[[], Iterable[Any]]
    if arrays:
        start = lambda: algorithm.solve(n)  # noqa: E731
    else:
        start = lambda: algorithm.moves_of_run(n, ends)  # noqa: E731
    recorder = Recorder(start)
    goal = algorithm.final_peg.pegs(n) if targets is None else targets
    puzzle = algorithm.puzzle_of_run(ends)
    checker = check_chunks if arrays else check  # followed: a run that is not optimal names its first step astray
    return checker(iter(recorder), n, goal, puzzle=puzzle, follow=True), recorder


def collected(algorithm: Algorithm, n: int, moves: Callable[[], Iterable[Any]], most: int, run: str = "") -> list[Any]:
    """Return at most *most* moves of *moves()*; a crash fails the check."""
    recorder = Recorder(moves)
    found: list[Any] = []
    try:
        found.extend(itertools.islice(recorder, most))
    except Exception as exc:  # the algorithm's own failure
        raise crash_failure(algorithm, exc, run or where(n), f"at step {len(found) + 1}") from None
    return found


def every_peg(algorithm: Algorithm) -> frozenset[int]:
    """Return every peg of *algorithm*'s puzzle."""
    return frozenset(range(algorithm.puzzle.pegs))


def any_but_the_first(algorithm: Algorithm) -> frozenset[int]:
    """Return every peg but peg 0, where the tower starts."""
    return frozenset(range(1, algorithm.puzzle.pegs))


def first_difference(got: list[Any], wanted: list[Any]) -> tuple[int, str]:
    """Return the first index where *got* and *wanted* differ, and how.

    >>> first_difference([(1, 0, 2), (2, 0, 1)], [(1, 0, 2), (2, 0, 2)])
    (1, '2 0 1, where 2 0 2 was expected')
    >>> first_difference([(1, 0, 2)], [(1, 0, 2), (2, 0, 1)])
    (1, 'nothing (the run ended), where 2 0 1 was expected')
    >>> first_difference([(1, 0, 2), "2 0 1"], [(1, 0, 2)])
    (1, "'2 0 1', where the run should have ended")
    """
    for index, (mine, theirs) in enumerate(zip(got, wanted)):  # noqa: B905 (lengths compared below)
        if mine != theirs:
            return index, f"{shown(mine)}, where {shown(theirs)} was expected"
    index = min(len(got), len(wanted))
    if len(got) > len(wanted):
        return index, f"{shown(got[index])}, where the run should have ended"
    return index, f"nothing (the run ended), where {shown(wanted[index])} was expected"


def shown(move: Any) -> str:
    """Show a move as ``hanoi moves`` writes it (``DISK SRC DST``), or a repr."""
    try:
        disk, src, dst = move
        return f"{disk} {src} {dst}"
    except Exception:  # not a triple, or its parts will not unpack
        return repr(move)


def require(condition: bool, message: Callable[[], str]) -> None:
    """Fail with *message()* unless *condition*."""
    if not condition:
        raise CheckFailed(message())
