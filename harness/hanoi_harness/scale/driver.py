"""The driver: a run's segments run, retried, combined and reported."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from hanoi_harness import guardian, process
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.probe import own_plugins
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.sandbox.judge import Judge, judged
from hanoi_harness.sandbox.stream import Producer
from hanoi_harness.scale.combine import combine
from hanoi_harness.scale.executors import DaskCluster, Executor, LocalPool
from hanoi_harness.scale.segment import SegmentResult, catalog_of, task_for
from hanoi_harness.scale.segments import default_segment_size, number, plan_segments, segment_count

PREFLIGHT_MAX_N = 10  #: The largest n at which ``solve`` and ``solve_from(n, 1)`` are compared.


@dataclass
class ScaleReport:
    """What :func:`verify_scaled` found: the verdict and how it was reached."""

    verdict: Verdict
    planned: int
    verified: int
    segment_size: int
    where: str
    seconds: float
    events: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """Return the verdict, the digest and how the work was split, in one line."""
        retried = f"; {len(self.events)} process death(s), segment(s) verified again" if self.events else ""
        return (
            f"{self.verdict.describe()}; digest {self.verdict.digest}; "
            f"{number(self.verified)}/{number(self.planned)} segments of <= {self.segment_size} moves on {self.where} "
            f"in {self.seconds:.1f} s{retried}"
        )


def verify_scaled(
    name: str,
    n: int,
    plugins: Sequence[str] = (),
    *,
    workers: int = 1,
    dask: str | None = None,
    segment_size: int | None = None,
    timeout: float | None = None,
    memory_mb: int | None = None,
    on_segment: Callable[[SegmentResult], None] | None = None,
    on_event: Callable[[str], None] | None = None,
    preflight: bool = True,
) -> ScaleReport:
    """Verify algorithm *name* for *n* disks in segments, run side by side.

    >>> verify_scaled("bitwise", 5, segment_size=8).verdict.describe()
    'ok (31 moves, tower on peg 2)'
    """
    began = time.monotonic()
    task = task_for(name, plugins, n, memory_mb=memory_mb, timeout=timeout)
    if segment_size is not None and segment_size < 1:
        raise UsageError(f"the segment size must be >= 1, got {segment_size}")
    if preflight:
        check_solve_from(catalog_of(plugins).get(name), n, timeout=timeout, memory_mb=memory_mb)
    events: list[str] = []

    def event(message: str) -> None:
        events.append(message)
        if on_event is not None:
            on_event(message)

    with process.safe_path_environment():
        executor: Executor = DaskCluster(task, dask) if dask else LocalPool(task, workers)
        size = segment_size or default_segment_size(n, executor.workers)
        deadline = process.deadline_after(timeout)
        try:
            results, timed_out = _drive(
                executor, n, plan_segments(n, size), deadline, on_segment or (lambda r: None), event
            )
        finally:
            executor.close()
            guardian.end_strays()
    verdict = _timed_out(n, results, timeout) if timed_out else combine(n, task.final, results)
    return ScaleReport(
        verdict, segment_count(n, size), len(results), size, executor.where, time.monotonic() - began, events
    )


def check_solve_from(record: Algorithm, n: int, *, timeout: float | None = None, memory_mb: int | None = None) -> None:
    """Refuse a *record* whose ``solve_from(m, 1)`` and ``solve(m)`` differ."""
    top = min(n - 1, PREFLIGHT_MAX_N) if n > 5 else n
    sizes = [m for m in range(max(record.min_n, 1), top + 1) if record.max_n is None or m <= record.max_n]
    if not sizes:
        return
    deadline = process.deadline_after(timeout)
    producer: Producer | None = None
    try:
        for m in sizes:
            targets = record.final_peg.pegs(m)
            found = []
            for first in (0, 1):
                producer = producer if producer is not None else Producer(own_plugins(record), memory_mb=memory_mb)
                producer.bound(deadline)
                producer.ask(record.name, m, first=first)
                judge = Judge(m, targets, puzzle=record.puzzle)
                outcome = judged(producer, judge)
                producer = outcome.producer
                found.append(None if judge.ended is not None else outcome.verdict)
            whole, split = found
            if whole is not None and split is not None and _differ(whole, split):
                raise UsageError(
                    f"{record.name}: solve_from({m}, 1) is not solve({m}) ({split.describe()}, "
                    f"against {whole.describe()}; digests {split.digest} and {whole.digest}), so its segments would "
                    "not verify its solve: verify it without --workers/--dask"
                )
    finally:
        if producer is not None:
            producer.close()


def _differ(a: Verdict, b: Verdict) -> bool:
    return (a.status, a.moves, a.digest, a.step) != (b.status, b.moves, b.digest, b.step)


def _timed_out(n: int, results: list[SegmentResult], timeout: float | None) -> Verdict:
    verified = sum(r.size for r in results if r.verdict.ok)
    reason = (
        f"no verdict within {timeout:g} s ({number(verified)} of {number((1 << n) - 1)} moves verified); "
        "the workers were stopped"
    )
    return Verdict("timed_out", n, verified, reason=reason)


def _drive(
    executor: Executor,
    n: int,
    plan: Iterator[tuple[int, int]],
    deadline: float | None,
    on_segment: Callable[[SegmentResult], None],
    event: Callable[[str], None],
) -> tuple[list[SegmentResult], bool]:
    """Run the plan's segments, ``executor.window`` at a time."""
    results: dict[int, SegmentResult] = {}
    in_flight: dict[object, tuple[int, int, int]] = {}  # future -> (first, last, attempt)
    retry: deque[tuple[int, int]] = deque()
    deaths: list[str] = []  # what the segments in ``retry`` were told when their worker died
    failed_at: int | None = None  # first step of the earliest failing segment
    planned = True
    while True:
        if retry:
            if not in_flight:
                if deaths:  # one report per death: a local pool loses every segment it was running
                    retry = deque(sorted(retry))
                    segments = ", ".join(f"{first}..{last}" for first, last in retry)
                    which = "that segment" if len(retry) == 1 else "each of those segments"
                    event(f"{deaths[0]} while verifying steps {segments}; retrying {which} once, alone")
                    deaths.clear()
                first, last = retry.popleft()
                in_flight[executor.submit(first, last)] = (first, last, 2)
        else:
            while planned and len(in_flight) < executor.window:
                segment = next(plan, None)
                if segment is None or (failed_at is not None and segment[0] > failed_at):
                    planned = False
                    break
                in_flight[executor.submit(*segment)] = (*segment, 1)
        if not in_flight:
            return sorted(results.values(), key=lambda r: r.first), False
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            return sorted(results.values(), key=lambda r: r.first), True
        for future in executor.wait(list(in_flight), remaining):
            first, last, attempt = in_flight.pop(future)
            outcome = executor.outcome(future)
            if isinstance(outcome, str):
                if attempt == 1:
                    deaths.append(outcome)
                    retry.append((first, last))
                    continue
                event(f"{outcome} again while verifying steps {first}..{last} alone; the segment is crashed")
                reason = f"the worker died twice while verifying steps {first}..{last}: {outcome}"
                outcome = SegmentResult(
                    first, last, Verdict("crashed", n, first - 1, step=first, reason=reason), None, None
                )
            for message in outcome.events:
                event(message)
            results[first] = outcome
            on_segment(outcome)
            if not outcome.verdict.ok and (failed_at is None or first < failed_at):
                failed_at = first
        if failed_at is not None:
            for future, (first, _, _) in list(in_flight.items()):
                if first > failed_at:
                    executor.cancel(future)
                    del in_flight[future]
            retry = deque(segment for segment in retry if segment[0] < failed_at)
            if not retry:
                deaths.clear()
        executor.recover()
