"""The judging side: verdicts on the moves an algorithm's process streams."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, cast

from hanoi_harness.core.arrays import check_chunks
from hanoi_harness.core.checker import cap_for, check
from hanoi_harness.core.digest import MASK
from hanoi_harness.core.legality import Pegs, Tower, pegs_at
from hanoi_harness.core.puzzle import CLASSIC, Puzzle
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.sandbox import protocol as wire
from hanoi_harness.sandbox.faults import Crash, Odd, OddChunk
from hanoi_harness.sandbox.output import Printed
from hanoi_harness.sandbox.stream import Producer, StreamEnded

FrameSource = Callable[[], wire.Frame]
"""Returns the next frame; raises :class:`StreamEnded` when the stream ends early."""

_ARRAYS = (wire.MOVES, wire.ARRAY)

_ENDINGS: dict[int, Callable[[wire.Frame], Odd | OddChunk | Crash]] = {
    wire.ODD_MOVE: wire.odd_move,
    wire.ODD_CHUNK: wire.odd_chunk,
    wire.RAISED: wire.failure,
}  # the frames that end a run of moves at their step, and how each is read


class Judge:
    """The verdict on a stream of *n* disks to *targets*, as check gives it."""

    def __init__(
        self,
        n: int,
        targets: frozenset[int] | set[int],
        *,
        puzzle: Puzzle = CLASSIC,
        start: int = 0,
        initial: Pegs | None = None,
        partial: bool = False,
    ) -> None:
        self.n, self.targets, self.start, self.partial = n, frozenset(targets), start, partial
        self.puzzle = puzzle
        self.initial = initial
        self.answered = False
        self.ended: StreamEnded | None = None
        self._next = _no_frames
        self._peeked: wire.Frame | None = None

    def run(self, next_frame: FrameSource) -> Verdict:
        """Read frames from *next_frame* until the verdict is known; the verdict."""
        self._next = next_frame
        first = self._peek()
        if first is not None and first.kind == wire.START_FAILED:
            self._take()
            try:
                crash = self._decoded(wire.failure, first)
            except StreamEnded as exc:  # a start failure that does not decode: the stream is broken
                return Verdict("crashed", self.n, 0, step=self.start + 1, reason=exc.reason)
            self._finish()
            return cast(Crash, crash).verdict(self.n, 0, 0, self.start + 1, None)
        k, total, puzzle, astray = self.start, 0, self.puzzle, None
        pegs = self.initial if self.initial is not None else pegs_at(puzzle.start_config(self.n), puzzle.pegs)
        cap = cap_for(puzzle, self.n, self.targets)[0]
        while (upcoming := self._peek()) is None or upcoming.kind != wire.DONE:
            if upcoming is None or upcoming.kind not in _ARRAYS:
                return self._stopped(upcoming, k - self.start, total, pegs)
            part = check_chunks(
                self._arrays(),
                self.n,
                self.targets,
                puzzle=puzzle,
                max_moves=cap - (k - self.start),
                start=k,
                initial=pegs,
                partial=True,
                follow=True,
            )
            if not part.ok:
                return self._failed(part, k, total)
            total += part.digest
            k += part.moves
            pegs, astray = part.extra["pegs"], part.extra.get("astray", astray)  # the first run of arrays names it
        self._take()
        self.answered = True
        end = check((), self.n, self.targets, puzzle=puzzle, start=k, initial=pegs, partial=self.partial)
        if astray is not None and end.failure is not None and end.status == "not_optimal":
            end = replace(end, failure=replace(end.failure, astray=astray))
        if self.partial:
            return replace(end, moves=k - self.start, digest=total & MASK, extra={**end.extra, "start": self.start})
        return replace(end, digest=total & MASK)

    def _stopped(self, frame: wire.Frame | None, moves: int, total: int, pegs: Pegs) -> Verdict:
        """The verdict on *frame*, after *moves* legal moves."""
        n, step, tops = self.n, self.start + moves + 1, Tower(self.n, pegs).tops()
        self._take()
        if frame is not None:
            decode = _ENDINGS.get(frame.kind)
            if decode is None:
                self.ended = StreamEnded("crashed", f"the process broke the move stream: a frame of kind {frame.kind}")
            else:
                with contextlib.suppress(StreamEnded):  # one that does not decode: self.ended says so
                    ending: Odd | OddChunk | Crash = self._decoded(decode, frame)
                    return ending.verdict(n, moves, total, step, tops)
        assert self.ended is not None
        return Verdict(self.ended.status, n, moves, total & MASK, step=step, tops=tops, reason=self.ended.reason)

    def _failed(self, part: Verdict, k: int, total: int) -> Verdict:
        verdict = replace(part, moves=k - self.start + part.moves, digest=(total + part.digest) & MASK)
        if self.ended is not None and verdict.status == "crashed":  # the stream's end, not the algorithm's exception
            verdict = replace(verdict, status=self.ended.status).with_reason(self.ended.reason)
        return verdict

    def _finish(self) -> None:
        """Read on to the request's ``D`` after a start failure."""
        upcoming = self._peek()
        if upcoming is not None and upcoming.kind == wire.DONE:
            self._take()
            self.answered = True

    def _peek(self) -> wire.Frame | None:
        """The next frame, not taken; None when the stream has ended."""
        if self._peeked is None and self.ended is None:
            try:
                self._peeked = self._next()
            except StreamEnded as exc:
                self.ended = exc
        return self._peeked

    def _take(self) -> wire.Frame | None:
        frame = self._peek()
        self._peeked = None
        return frame

    def _decoded(self, decode: Callable[[wire.Frame], Any], frame: wire.Frame) -> Any:
        try:
            return decode(frame)
        except wire.BrokenStream as exc:
            self.ended = StreamEnded("crashed", f"the process broke the move stream: {exc}")
            raise self.ended from None

    def _arrays(self) -> Iterator[Any]:
        """The arrays of the frames coming, up to another kind or the stream's end."""
        while (frame := self._peek()) is not None and frame.kind in _ARRAYS:
            self._take()
            yield self._decoded(wire.rows, frame)


def _no_frames() -> wire.Frame:
    raise StreamEnded("crashed", "no stream")


@dataclass
class Outcome:
    """A verdict on one request, and what became of the process answering it."""

    verdict: Verdict
    producer: Producer | None  # None: it was stopped
    died: str | None = None  # how the process died while answering, if it did
    printed: Printed = field(default_factory=Printed)  # what it printed meanwhile (or while it started)


def judged(producer: Producer, judge: Judge) -> Outcome:
    """The verdict of *judge* on the moves *producer* sends for the request."""
    verdict = judge.run(producer.next_frame)
    died = judge.ended.reason if judge.ended is not None and judge.ended.died else None
    if judge.ended is not None or (not judge.answered and not producer.skip()):
        printed = producer.printed()
        producer.close()
        return Outcome(verdict, None, died, printed)
    return Outcome(verdict, producer, printed=producer.printed())


def pinpoint(first_try: Outcome, again: Callable[[tuple[int, int]], Outcome]) -> Outcome:
    """After a death in *first_try*, find its step: *again* traces it."""
    verdict = first_try.verdict
    received = verdict.moves  # every move that arrived was judged legal, or the verdict would say otherwise
    second = again((received + 1, received + wire.BATCH))
    if second.died is not None:
        return replace(second, printed=first_try.printed)
    step = verdict.step or received + 1
    note = f" (while producing one of steps {step}..{step + wire.BATCH - 1}; a second run did not die there)"
    return Outcome(verdict.with_reason(verdict.reason + note), second.producer, first_try.died, first_try.printed)
