"""Whole runs verified, each algorithm's moves from a process of its own."""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hanoi_harness import guardian, process
from hanoi_harness.core.puzzle import Config
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.registry.probe import catalog, own_plugins
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import Registry
from hanoi_harness.sandbox.judge import Judge, Outcome, judged, pinpoint
from hanoi_harness.sandbox.output import Printed
from hanoi_harness.sandbox.stream import Producer


@dataclass
class Job:
    """One algorithm's share of ``hanoi verify``: *name* for each n of *ns*."""

    name: str
    ns: list[int]
    verdicts: list[Verdict] = field(default_factory=list)
    started: float = 0.0
    ends: tuple[Config, Config] | None = None
    printed: Printed = field(default_factory=Printed)

    @property
    def ok(self) -> bool:
        return len(self.verdicts) == len(self.ns) and all(v.ok for v in self.verdicts)


@dataclass(frozen=True)
class _Settings:
    plugins: tuple[str, ...]
    registry: Registry
    timeout: float
    memory_mb: int | None
    cancel: threading.Event


def run_jobs(
    jobs: list[Job],
    plugins: Sequence[str] = (),
    *,
    timeout: float = 60.0,
    workers: int | None = None,
    memory_mb: int | None = None,
    on_done: Callable[[Job], None] | None = None,
    registry: Registry | None = None,
) -> list[Job]:
    """Verify *jobs*, at most *workers* (default: the cores) at once; the jobs."""
    if registry is None:
        registry = catalog(plugins, timeout=timeout)
    settings = _Settings(tuple(plugins), registry, timeout, memory_mb, threading.Event())
    todo: queue.Queue[Job | None] = queue.Queue()
    finished: queue.Queue[Job] = queue.Queue()
    threads = min(workers or os.cpu_count() or 1, len(jobs))
    for job in [*jobs, *[None] * threads]:
        todo.put(job)
    pool = [threading.Thread(target=_worker, args=(todo, finished, settings), daemon=True) for _ in range(threads)]
    for thread in pool:
        thread.start()
    left = len(jobs)
    try:
        while left:
            try:
                job = finished.get(timeout=process.MAX_WAIT_S)
            except queue.Empty:
                continue
            left -= 1
            if on_done is not None:
                on_done(job)
    finally:
        settings.cancel.set()
        for thread in pool:  # each ends its processes (within a poll, 0.2 s, when interrupted)
            thread.join(timeout=10)
        guardian.end_strays()
    return jobs


def _worker(todo: queue.Queue[Job | None], finished: queue.Queue[Job], settings: _Settings) -> None:
    """One of run_jobs's threads: jobs from *todo* until None."""
    kept: dict[str, Producer] = {}
    try:
        while (job := todo.get()) is not None and not settings.cancel.is_set():
            job.started = time.monotonic()
            try:
                _verify_job(job, settings, kept)
            except Exception as exc:  # a fault of the harness's: reported for this job rather than lost
                if len(job.verdicts) < len(job.ns):
                    n = job.ns[len(job.verdicts)]
                    reason = f"the harness failed: {type(exc).__name__}: {exc}"
                    job.verdicts.append(Verdict("crashed", n, 0, reason=reason))
            finally:
                finished.put(job)
    finally:
        for producer in kept.values():
            producer.close()


def _verify_job(job: Job, settings: _Settings, kept: dict[str, Producer]) -> None:
    """Judge *job*'s n in turn, up to the first abnormal end."""
    record = settings.registry.get(job.name)
    deadline = process.deadline_after(settings.timeout)

    own = own_plugins(record)
    # The in-tree algorithms share a process, one after the other (~0.2 s saved a job); a plugin's or an
    # installed package's has one of its own, so that its code never runs where another algorithm's does.
    key = "in-tree" if record.origin.startswith("in-tree") else job.name

    def start() -> Producer:
        producer = Producer(own, memory_mb=settings.memory_mb)
        producer.bound(deadline, settings.cancel)
        return producer

    producer = kept.pop(key, None)
    if producer is not None and not producer.alive():
        producer.close()
        producer = None
    try:
        for n in job.ns:
            if producer is None:
                producer = start()
            producer.bound(deadline, settings.cancel)
            outcome = _verify_n(producer, record, n, start, job.ends)
            producer = outcome.producer
            job.printed += outcome.printed
            job.verdicts.append(_with_timeout(outcome.verdict, settings.timeout))
            if outcome.died is not None or producer is None or settings.cancel.is_set():
                break
        if producer is not None and not settings.cancel.is_set():
            kept[key], producer = producer, None
    finally:
        if producer is not None:
            producer.close()


def _verify_n(
    producer: Producer, record: Algorithm, n: int, start: Callable[[], Producer], ends: tuple[Config, Config] | None
) -> Outcome:
    """The verdict on *record*'s run of *n* disks from *producer*."""
    puzzle = record.puzzle_of_run(ends)

    def judge() -> Judge:
        return Judge(n, record.final_peg.pegs(n), puzzle=puzzle)

    producer.ask(record.name, n, ends=ends)
    outcome = judged(producer, judge())
    if outcome.died is None:
        return outcome

    def again(window: tuple[int, int]) -> Outcome:
        second = start()
        second.ask(record.name, n, trace=window, ends=ends)
        return judged(second, judge())

    return pinpoint(outcome, again)


def _with_timeout(verdict: Verdict, timeout: float) -> Verdict:
    if verdict.status != "timed_out":
        return verdict
    return verdict.with_reason(f"no verdict within {timeout:g} s; {verdict.reason}")
