"""Stream an algorithm's moves for ``hanoi moves``, judged block by block."""

from __future__ import annotations

import gc
import itertools
import marshal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hanoi_harness.core.arrays import check_chunks
from hanoi_harness.core.checker import cap_for, check
from hanoi_harness.core.legality import Pegs, Tower, pegs_at
from hanoi_harness.core.puzzle import Config
from hanoi_harness.core.reference import RUN, UNIT, Expected, Reference
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.sandbox.faults import Crash, Odd, OddChunk, roots_of, triple
from hanoi_harness.sandbox.interrupts import interrupted
from hanoi_harness.sandbox.pieces import ArrayPiece, Piece, RowsPiece, RunPiece, move_digest
from hanoi_harness.sandbox.protocol import ChunkFailed, as_rows

BLOCK = UNIT  #: Moves read at a time when not following the reference.

ANY_PEG = frozenset({1, 2})


class MoveStream:
    """The moves *algorithm* makes for *n* disks, up to the first bad one."""

    def __init__(self, algorithm: Algorithm, n: int, ends: tuple[Config, Config] | None = None) -> None:
        self.algorithm = algorithm
        self.puzzle = algorithm.puzzle_of_run(ends)
        self.ends = ends
        self.n = n
        self.k = 0
        self.cap = cap_for(self.puzzle, n, ANY_PEG)[0]
        self.failure: Verdict | None = None
        self.reference: Reference | None = None
        classic = self.puzzle.classic and self.puzzle.start is None and self.puzzle.goal is None
        self.following = n > 0 and classic  # the moves so far are the reference's: keep comparing
        self._pegs: Pegs | None = pegs_at(self.puzzle.start_config(n), self.puzzle.pegs)  # None: stale

    def pieces(self) -> Iterator[Piece]:
        return self._array_pieces() if self.algorithm.chunks else self._move_pieces()

    def _move_pieces(self) -> Iterator[Piece]:
        try:
            moves = self.algorithm.moves_of_run(self.n, self.ends)
        except (Exception, SystemExit) as exc:  # a plugin that is not a generator, or raises when called
            self._crashed(exc)
            return
        while True:
            size = self._wanted()
            with _collector_paused():
                block, crash = _read(moves, size)
                judged = list(self._judge_moves(block)) if block else []
                read = len(block)
                del block  # its tuples go now, by reference counting, before the collector resumes
            yield from judged
            if self.failure is not None:
                return
            if crash is not None:
                self._crashed(crash)
                return
            if read < size:
                return

    def _wanted(self) -> int:
        """Return how many moves to read next: the reference's piece, or a block."""
        if not self.following:
            return BLOCK
        if self.reference is None:  # step 0, before the first move says where the tower goes
            return min((1 << self.n) - 1, RUN)
        expected = self.reference.next(self.k)
        return BLOCK if expected is None else expected.count

    def _expected(self, block: Any) -> Expected | None:
        """Return the reference's next piece, choosing it at step 0."""
        if not self.following:
            return None
        if self.reference is None:
            self.reference = Reference(self.n, _target(self.n, block))
        return self.reference.next(self.k)

    def _judge_moves(self, block: list[Any]) -> Iterator[Piece]:
        expected = self._expected(block)
        if expected is not None and _same_moves(block, expected):
            if expected.run is not None:
                yield RunPiece(expected.run, self.k)
            else:
                yield RowsPiece(block, move_digest(block[0], self.k))
            self.k += len(block)
            self._pegs = None
            return
        rows, odd = _plain(block)
        room, pegs = self.cap - self.k, self._current_pegs()
        verdict = check(
            rows, self.n, ANY_PEG, puzzle=self.puzzle, max_moves=room, start=self.k, initial=pegs, partial=True
        )
        legal = verdict.moves
        if legal:
            yield RowsPiece(rows[:legal], verdict.digest)
        if verdict.ok and odd is not None:  # every move before it was legal: it is the failure
            verdict = odd.verdict(self.n, self.k + legal, 0, self.k + legal + 1, Tower(self.n, pegs).tops())
        self._advance(legal, verdict)

    def _array_pieces(self) -> Iterator[Piece]:
        try:
            chunks = iter(
                self.algorithm.solve(self.n) if self.ends is None else self.algorithm.solve_between(self.n, *self.ends)
            )
        except (Exception, SystemExit) as exc:
            self._crashed(exc)
            return
        while True:
            try:
                chunk = next(chunks)
            except StopIteration:
                return
            except (Exception, SystemExit) as exc:
                self._crashed(exc)
                return
            yield from self._judge_array(chunk)
            if self.failure is not None:
                return

    def _judge_array(self, chunk: Any) -> Iterator[Piece]:
        try:
            rows = as_rows(chunk)
        except ChunkFailed as exc:  # looking at it raised: the algorithm's failure
            self._crashed(exc.error)
            return
        if isinstance(rows, OddChunk):
            self.failure = rows.verdict(self.n, self.k, 0, self.k + 1, Tower(self.n, self._current_pegs()).tops())
            return
        while len(rows):
            expected = self._expected(rows)
            if expected is None or not (length := _same_rows(rows, expected)):
                break
            if expected.move is not None:  # one large move: written from the reference's own triple
                yield RowsPiece([expected.move], move_digest(expected.move, self.k))
            else:
                ran = expected.run
                total = ran.digest(self.k) if ran is not None and length == ran.count else None
                yield ArrayPiece(rows[:length], self.k, total)
            self.k += length
            self._pegs = None
            rows = rows[length:]
        if not len(rows):
            return
        room, pegs = self.cap - self.k, self._current_pegs()
        verdict = check_chunks(
            [rows], self.n, ANY_PEG, puzzle=self.puzzle, max_moves=room, start=self.k, initial=pegs, partial=True
        )
        legal = verdict.moves
        if legal:
            yield ArrayPiece(rows[:legal], self.k, verdict.digest)
        self._advance(legal, verdict)

    def _current_pegs(self) -> Pegs:
        """Return the pegs after step k, rebuilt from the reference if stale."""
        if self._pegs is None and self.reference is not None:
            self._pegs = self.reference.pegs(self.k)
        if self._pegs is None:
            raise AssertionError("unreachable: the pegs go stale only while the moves follow the reference")
        return self._pegs

    def _advance(self, legal: int, verdict: Verdict) -> None:
        """Count a replayed block's legal moves and keep *verdict* if it failed."""
        self.k += legal
        if not verdict.ok:
            self.failure = verdict
        elif self.following:
            self.following = self.reference is not None and self.reference.pegs(self.k) == self._current_pegs()

    def _crashed(self, exc: BaseException) -> None:
        """Record that the algorithm raised *exc* while making the next move."""
        if interrupted(exc):
            raise exc
        self.failure = Crash.of(exc, roots_of(self.algorithm)).verdict(self.n, self.k, 0, self.k + 1, None)


def _read(moves: Iterator[Any], size: int) -> tuple[list[Any], BaseException | None]:
    """Return the next *size* moves of *moves*, and what the algorithm raised."""
    block: list[Any] = []
    try:
        block.extend(itertools.islice(moves, size))
    except (Exception, SystemExit) as exc:
        return block, exc
    return block, None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a block is read and judged."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _same_moves(block: list[Any], expected: Expected) -> bool:
    """Tell whether *block* holds exactly the *expected* moves, tuples of ints."""
    if expected.run is not None:
        if expected.offset or len(block) != expected.run.count:
            return False
        want = expected.run.marshalled
    else:
        want = marshal.dumps([expected.move], 2)
    try:
        return marshal.dumps(block, 2) == want
    except (ValueError, RecursionError):  # not plain data: the checker decides
        return False


def _same_rows(rows: Any, expected: Expected) -> int:
    """Count the rows of *rows* that equal the *expected* piece, else 0."""
    import numpy as np

    if expected.run is None:
        return 1 if tuple(rows[0].tolist()) == expected.move else 0
    length = min(expected.count, len(rows))
    if length == expected.run.count and rows.dtype == np.uint8 and rows.flags.c_contiguous:
        # a whole run, as bytes: a copy and a memcmp, faster than array_equal
        return length if rows[:length].tobytes() == expected.run.binary else 0
    want = expected.run.rows[expected.offset : expected.offset + length]
    return length if np.array_equal(rows[:length], want) else 0


def _plain(block: list[Any]) -> tuple[list[tuple[int, int, int]], Odd | None]:
    """The moves of *block* as triples of ints, up to an odd one, and it.

    >>> _plain([(1, 0, 2), [2, 0, 1], None, (1, 2, 1)])
    ([(1, 0, 2), (2, 0, 1)], Odd(shown='None', what='a NoneType'))
    """
    rows: list[tuple[int, int, int]] = []
    for move in block:
        move = triple(move)
        if isinstance(move, Odd):
            return rows, move
        rows.append(move)
    return rows, None


def _target(n: int, block: Any) -> int:
    """Guess the peg, 1 or 2, that an *n*-disk tower is heading for.

    >>> _target(3, [(1, 0, 2)]), _target(4, [(1, 0, 2)]), _target(3, [(1, 0, 1)]), _target(3, [None])
    (2, 1, 1, 2)
    """
    try:
        dst = block[0][2]
        peg = 1 if dst == 1 else 2 if dst == 2 else 0
    except Exception:
        return 2
    if not peg:
        return 2
    return peg if n % 2 else 3 - peg
