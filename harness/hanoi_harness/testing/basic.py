"""The checks every record gets: legal, optimal, peg, limits, repeatable."""

from __future__ import annotations

import itertools

from hanoi_harness.core.checker import check
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing.failures import CheckFailed, Recorder, verdict_failure, where
from hanoi_harness.testing.output import lazy
from hanoi_harness.testing.records import most_disks, run_length, sizes
from hanoi_harness.testing.runs import any_but_the_first, collected, every_peg, first_difference, judged

SIZE = 12  #: Every n whose run makes at most 2^12 - 1 = 4095 moves is checked.

TOP_N = 64  #: The largest n whose first moves are checked, for a record with no maximum.

PREFIX = 1000  #: The first moves checked at the largest n a record accepts.

LAZY_SIZE = 20  #: The first move of 2^20 - 1 must come before they are held (:func:`lazy`).

DETERMINISM_SIZE = 10  #: The size of the runs compared with each other: 2^10 - 1 classic moves.


def legal(algorithm: Algorithm) -> None:
    """Every move of every run is legal under the puzzle's rules, and runs end."""
    for n in sizes(algorithm, SIZE):
        verdict, recorder = judged(algorithm, n, targets=every_peg(algorithm))
        failure = verdict.failure
        if verdict.status in ("illegal", "crashed") or (failure is not None and failure.rule == "still_moving"):
            raise verdict_failure(algorithm, verdict, recorder, where(n))


def optimal(algorithm: Algorithm) -> None:
    """Every run moves the whole tower off its first peg in the fewest moves."""
    for n in sizes(algorithm, SIZE):
        verdict, recorder = judged(algorithm, n, targets=any_but_the_first(algorithm))
        if not verdict.ok:
            raise verdict_failure(algorithm, verdict, recorder, where(n))


def final_peg(algorithm: Algorithm) -> None:
    """Every run ends on the peg the record declares for its n (``final_peg``)."""
    for n in sizes(algorithm, SIZE):
        if n == 0:
            continue  # no disks: no peg to end on
        verdict, recorder = judged(algorithm, n, targets=every_peg(algorithm))
        declared = algorithm.final_peg.pegs(n)
        if verdict.final_peg is None:
            raise verdict_failure(algorithm, verdict, recorder, where(n), also="; so it ends on no peg")
        if verdict.final_peg not in declared:
            raise CheckFailed(
                f"{where(n)}: the tower ends on peg {verdict.final_peg}, but the record declares "
                f"peg {' or '.join(map(str, sorted(declared)))} for this n (final_peg: {algorithm.final_peg})"
            )


def limits(algorithm: Algorithm) -> None:
    """The n outside the declared limits are refused; the largest n runs."""
    if algorithm.min_n > 0:
        refused(algorithm, algorithm.min_n - 1, f"n >= {algorithm.min_n}", algorithm.min_n_reason)
    if algorithm.max_n is not None:
        refused(algorithm, algorithm.max_n + 1, f"n <= {algorithm.max_n}", algorithm.max_n_reason)
    top = algorithm.max_n if algorithm.max_n is not None else max(TOP_N, algorithm.min_n)
    if algorithm.space == "2^n":  # it may hold the whole run: only as large as the streaming bound
        top = min(top, most_disks(algorithm, LAZY_SIZE))
    else:  # a run made whole before its first move would never start at n = 64: caught here first
        lazy(algorithm, min(top, most_disks(algorithm, LAZY_SIZE)))
    recorder = Recorder(lambda: itertools.islice(algorithm.moves(top), PREFIX))
    verdict = check(iter(recorder), top, puzzle=algorithm.puzzle, partial=True)
    if not verdict.ok:
        run = f"{where(top)} (the largest n {algorithm.name} accepts, its first {PREFIX} moves)"
        raise verdict_failure(algorithm, verdict, recorder, run)


def refused(algorithm: Algorithm, n: int, limit: str, reason: str) -> None:
    """Fail unless *algorithm* refuses n disks, naming *limit* and *reason*."""
    try:
        algorithm.check_n(n)
    except UsageError as exc:
        if limit not in str(exc) or reason not in str(exc):
            raise CheckFailed(f"n = {n} is refused as {exc!s}, not by {limit!r} ({reason})") from None
        return
    raise CheckFailed(f"n = {n} is accepted, though the record declares {limit}")


def deterministic(algorithm: Algorithm) -> None:
    """Two runs of the same n make the same moves, even with another between."""
    n = most_disks(algorithm, DETERMINISM_SIZE)
    other = max(algorithm.min_n, n - 1)
    cap = 4 * run_length(algorithm, n) + 16  # a run that goes on longer is the other checks' to report
    first = collected(algorithm, n, lambda: algorithm.moves(n), cap)
    collected(algorithm, other, lambda: algorithm.moves(other), cap)
    again = collected(algorithm, n, lambda: algorithm.moves(n), cap)
    if again != first:
        index, said = first_difference(again, first)
        raise CheckFailed(f"{where(n)}: the second run differs from the first at step {index + 1}: {said}")
