"""What a run gives out: moves in little memory, text and bytes to read."""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from hanoi_harness.bench.memory.measure import tracemalloc_peak
from hanoi_harness.core.checker import check
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing.failures import CheckFailed, crash_failure, verdict_failure, where
from hanoi_harness.testing.records import most_disks, run_length
from hanoi_harness.testing.runs import judged, require

BYTES_PER_MOVE = 2  #: What a streaming run may hold more per extra move: a kept move takes 3 or 8.

BYTES_PER_DISK = 1024  #: What a streaming run may hold more per extra disk: a recursion's frames.

STREAM_SIZES = (10, 15)  #: The runs whose peaks are compared: 2^10 - 1 and 2^15 - 1 classic moves.

CHUNK_STREAM_SIZES = (17, 22)  #: The runs of a record of chunks compared: above ``blocks``' largest chunk.

MIN_EXTRA = 1 << 14  #: The fewest extra moves the large run must make to tell anything.

ROUND_TRIP_SIZE = 10  #: The run written and read back: 2^10 - 1 = 1023 classic moves.

SWITCH_INTERVAL_S = 60.0  #: The thread switch interval while a peak is traced: no other thread runs.


@contextmanager
def alone() -> Iterator[None]:
    """Keep other threads off the interpreter, unless this one blocks."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def traced(work: Callable[[], object]) -> int:
    """Return the peak bytes traced while *work* runs (after a warm-up)."""
    work()
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        with alone():
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            work()
            return max(0, tracemalloc.get_traced_memory()[1] - base)
    finally:
        if started:
            tracemalloc.stop()


def _stream_sizes(algorithm: Algorithm) -> tuple[int, int]:
    """The n of the small and the large run the streaming check compares."""
    small, large = (most_disks(algorithm, size) for size in (CHUNK_STREAM_SIZES if algorithm.chunks else STREAM_SIZES))
    return small, large


def streams(algorithm: Algorithm) -> bool:
    """Tell whether a record's space is below 2^n and its runs far apart."""
    small, large = _stream_sizes(algorithm)
    return algorithm.space != "2^n" and run_length(algorithm, large) - run_length(algorithm, small) >= MIN_EXTRA


def streaming(algorithm: Algorithm) -> None:
    """A record of space "1" or "n" holds no more for 2^15 moves than 2^10."""
    small, large = _stream_sizes(algorithm)
    peaks = []
    for n in (small, large):
        try:
            with alone():
                peaks.append(tracemalloc_peak(algorithm, n))
        except Exception as exc:  # the algorithm's own failure: the other checks say which move
            raise crash_failure(algorithm, exc, where(n), "while its moves were read") from None
    extra = run_length(algorithm, large) - run_length(algorithm, small)
    grown, bound = peaks[1] - peaks[0], BYTES_PER_MOVE * extra + BYTES_PER_DISK * (large - small)
    require(
        grown <= bound,
        lambda: (
            f"{where(large)}: its peak of traced memory is {grown:,} bytes above that of n = {small} "
            f"({peaks[1]:,} and {peaks[0]:,} bytes), for {extra:,} more moves: more than the {bound:,} bytes "
            f"({BYTES_PER_MOVE} a move, {BYTES_PER_DISK:,} a disk) a record of space {algorithm.space!r} may take; "
            "does it keep its moves?"
        ),
    )


def lazy(algorithm: Algorithm, n: int) -> None:
    """Fail unless *algorithm* yields its first move before holding its run."""

    def first() -> None:
        moves = iter(algorithm.moves(n))
        next(moves, None)

    try:
        peak = traced(first)
    except Exception as exc:  # the algorithm's own failure
        raise crash_failure(algorithm, exc, where(n), "at its first move") from None
    bound = BYTES_PER_MOVE * run_length(algorithm, n)
    require(
        peak <= bound,
        lambda: (
            f"{where(n)}: its first move came only after {peak:,} bytes were held, more than {BYTES_PER_MOVE} "
            f"bytes for each move of the run ({bound:,} bytes), for a record of space {algorithm.space!r}: "
            "does it make the whole run before its first move?"
        ),
    )


def _written(algorithm: Algorithm, n: int) -> tuple[str, bytes, int, int]:
    """Return what ``hanoi moves`` writes (text, bytes), count and digest."""
    from hanoi_harness.sandbox.screen import MoveStream  # the command's own writer, imported only by these checks

    verdict, recorder = judged(algorithm, n)
    if not verdict.ok:  # the round trip is of a good run: the other checks say more
        raise verdict_failure(algorithm, verdict, recorder, where(n))
    stream = MoveStream(algorithm, n)
    pieces = list(stream.pieces())
    if stream.failure is not None:
        raise verdict_failure(algorithm, stream.failure, None, f"{where(n)}: 'hanoi moves' stopped")
    text = "".join(piece.text() for piece in pieces)
    data = b"".join(bytes(piece.binary()) for piece in pieces)
    return text, data, verdict.moves, verdict.digest


def text_round_trip(algorithm: Algorithm) -> None:
    """The text of ``hanoi moves`` reads back through ``hanoi check``."""
    from hanoi_harness.transcript.check import UnreadableInput, check_lines

    n = most_disks(algorithm, ROUND_TRIP_SIZE)
    text, _, count, digest = _written(algorithm, n)
    declared = sorted(algorithm.final_peg.pegs(n))
    target = str(declared[0]) if len(declared) == 1 else None
    try:
        read = check_lines(
            text.splitlines(), n, pegs=f"0-{algorithm.puzzle.pegs - 1}", target=target, puzzle=algorithm.puzzle
        )
    except UnreadableInput as exc:
        raise CheckFailed(f"{where(n)}: 'hanoi check' cannot read what 'hanoi moves' wrote: {exc}") from None
    require(
        read.ok and (read.moves, read.digest) == (count, digest),
        lambda: (
            f"{where(n)}: 'hanoi check' reads the {count} moves 'hanoi moves' wrote as {read.moves} moves "
            f"(digest {read.digest}, the run's {digest}): {read.describe()}"
        ),
    )


def binary_round_trip(algorithm: Algorithm) -> None:
    """``hanoi moves --binary`` writes three bytes a move that read back."""
    n = most_disks(algorithm, ROUND_TRIP_SIZE)
    _, data, count, digest = _written(algorithm, n)
    require(
        len(data) == 3 * count,
        lambda: f"{where(n)}: 'hanoi moves --binary' wrote {len(data):,} bytes for {count:,} moves, not 3 a move",
    )
    moves = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
    read = check(moves, n, algorithm.final_peg.pegs(n), puzzle=algorithm.puzzle)
    require(
        read.ok and read.digest == digest,
        lambda: (
            f"{where(n)}: the bytes 'hanoi moves --binary' wrote read back as {read.describe()} "
            f"(digest {read.digest}, the run's {digest})"
        ),
    )
