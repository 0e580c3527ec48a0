"""One segment of a run, steps ``first`` to ``last``, judged where it runs."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from hanoi_harness import process
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.registry.sources import Registry
from hanoi_harness.sandbox import protocol
from hanoi_harness.sandbox.judge import Judge, Outcome, judged
from hanoi_harness.sandbox.stream import Producer, StreamEnded
from hanoi_harness.scale.segments import Pegs, as_lists, frozen, number, optimal_move, optimal_pegs, splittable


@dataclass(frozen=True)
class SegmentResult:
    """The outcome of verifying steps ``first .. last`` (1-based, inclusive)."""

    first: int
    last: int
    verdict: Verdict
    start: Pegs | None
    end: Pegs | None
    seconds: float = 0.0
    events: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Task:
    """What every segment of one run shares: algorithm, n, peg and limits."""

    name: str
    plugins: tuple[str, ...]
    n: int
    final: int
    memory_mb: int | None = None
    timeout: float | None = None


def catalog_of(plugins: Sequence[str]) -> Registry:
    """Return the algorithms this process knows with *plugins*."""
    from hanoi_harness.registry.probe import catalog

    return catalog(plugins)


def task_for(
    name: str, plugins: Sequence[str], n: int, *, memory_mb: int | None = None, timeout: float | None = None
) -> Task:
    """Return the :class:`Task` of *name*'s n-disk run, if it can be split."""
    from hanoi_harness.registry.probe import own_plugins

    record = catalog_of(plugins).get(name)
    return Task(name, own_plugins(record), n, splittable(record, n), memory_mb, timeout)


def verify_segment(name: str, plugins: Sequence[str], n: int, first: int, last: int) -> SegmentResult:
    """Verify steps *first* .. *last* of algorithm *name*'s n-disk run.

    >>> r = verify_segment("bitwise", (), 4, 5, 9)
    >>> r.verdict.status, r.verdict.moves, r.start, r.end
    ('ok', 5, ((4,), (2, 1), (3,)), ((), (4, 1), (3, 2)))
    """
    return run_segment(task_for(name, plugins, n), first, last)


def run_segment(task: Task, first: int, last: int) -> SegmentResult:
    """Verify steps *first* .. *last* of *task*, once more if its process dies."""
    began = time.perf_counter()
    total = (1 << task.n) - 1
    if not 1 <= first <= last <= total:
        raise ValueError(f"segment {first}..{last} is not within steps 1..{total}")
    start = optimal_pegs(task.n, first - 1, task.final)
    deadline = process.deadline_after(task.timeout)
    outcome = _attempt(task, first, last, start, deadline, None)
    events: tuple[str, ...] = ()
    if outcome.died is not None:
        died = f"the algorithm's process died while verifying steps {first}..{last} ({outcome.died})"
        events = (f"{died}; verifying them once more",)
        window = (outcome.verdict.moves - first + 2, outcome.verdict.moves - first + 1 + protocol.BATCH)
        outcome = _attempt(task, first, last, start, deadline, window)
        if outcome.died is not None:
            events += (f"it died again at step {outcome.verdict.step} ({outcome.died}); the segment is crashed",)
    verdict, end = _judged_segment(task, first, last, outcome.verdict)
    return SegmentResult(first, last, verdict, start, end, time.perf_counter() - began, events)


def _attempt(
    task: Task, first: int, last: int, start: Pegs, deadline: float | None, trace: tuple[int, int] | None
) -> Outcome:
    """Run the segment's moves once through a :class:`Judge`."""
    total = (1 << task.n) - 1
    wanted = last - first + 1 + (last == total)  # the last segment also looks for a move too many
    producer = _producer(task)
    producer.bound(deadline)
    producer.ask(task.name, task.n, first=first, count=wanted, trace=trace)
    judge = Judge(task.n, {task.final}, start=first - 1, initial=as_lists(start), partial=True)
    outcome = judged(producer, judge)
    if outcome.producer is not None:
        _release(task, outcome.producer)
    return replace(outcome, verdict=replace(outcome.verdict, moves=first - 1 + outcome.verdict.moves))


def _judged_segment(task: Task, first: int, last: int, verdict: Verdict) -> tuple[Verdict, Pegs | None]:
    """Return the segment's verdict from the judge's, and its end pegs if ok."""
    n, total, count = task.n, (1 << task.n) - 1, last - first + 1
    if not verdict.ok:
        return verdict, None
    done = verdict.moves - (first - 1)
    if done < count:
        reason = f"the moves end after step {number(verdict.moves)} of {number(total)}"
        return Verdict("incomplete", n, verdict.moves, verdict.digest, reason=reason), None
    if done > count:
        reason = f"still moving after step {number(total)} (optimal is {number(total)} moves)"
        return Verdict("not_optimal", n, verdict.moves, verdict.digest, reason=reason), None
    end = frozen(verdict.extra["pegs"])
    if end != optimal_pegs(n, last, task.final):
        return _divergence(task, first, last, verdict.digest), None
    return Verdict("ok", n, count, verdict.digest), end


def _divergence(task: Task, first: int, last: int, digest: int) -> Verdict:
    """Find the step where a legal segment leaves the optimal path."""
    n = task.n
    producer = _producer(task)
    try:
        producer.bound(process.deadline_after(task.timeout))
        producer.ask(task.name, n, first=first, count=last - first + 1)
        step = first
        for move in _moves(producer.next_frame):
            want = optimal_move(n, step, task.final)
            if tuple(move) != want:
                d, s, t = move
                where = f"leaves the optimal path at step {number(step)}"
                reason = f"{where}: move {d} {s} {t}, where the optimal move is {want}"
                return Verdict("not_optimal", n, last, digest, step=step, move=move, reason=reason)
            step += 1
    except (StreamEnded, protocol.BrokenStream, TypeError, ValueError):
        pass  # a second run that fails differs from the first: the segment is reported as a whole
    finally:
        producer.close()
    return Verdict(
        "not_optimal", n, last, digest, step=last, reason=f"the moves end off the optimal path at step {number(last)}"
    )


def _moves(next_frame: Callable[[], protocol.Frame]) -> list[tuple[int, ...]]:
    """Return every move of one answer, as tuples."""
    moves: list[tuple[int, ...]] = []
    while (frame := next_frame()).kind != protocol.DONE:
        if frame.kind in (protocol.MOVES, protocol.ARRAY):
            moves.extend(tuple(row) for row in protocol.rows(frame).tolist())
        else:
            raise protocol.BrokenStream(f"a frame of kind {frame.kind} in a legal segment")
    return moves


KEPT = 4  #: Processes kept per worker between segments, one per thread.

_KEPT: dict[tuple[Task, int], Producer] = {}
_KEPT_LOCK = threading.Lock()


def _producer(task: Task) -> Producer:
    """Return a process for *task*: the one this thread kept, or a new one."""
    with _KEPT_LOCK:
        producer = _KEPT.pop((task, threading.get_ident()), None)
    if producer is not None and producer.alive():
        return producer
    if producer is not None:
        producer.close()
    return Producer(task.plugins, memory_mb=task.memory_mb)


def _release(task: Task, producer: Producer) -> None:
    """Keep *producer*, which answered well, for this thread's next segment."""
    with _KEPT_LOCK:
        _KEPT[(task, threading.get_ident())] = producer
        while len(_KEPT) > KEPT:
            _KEPT.pop(next(iter(_KEPT))).close()
