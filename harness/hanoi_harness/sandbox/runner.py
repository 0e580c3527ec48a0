"""Verification of whole runs, each algorithm in a process of its own.

Its moves are judged in this process.

A job is an algorithm and the n to verify, in order. For each job a thread of this process
starts the algorithm's process (:class:`~hanoi_harness.sandbox.stream.Producer`: isolated, in a
session of its own, dying with us). It asks it for ``solve(n)`` for each n in turn and judges
the moves as they stream in (:class:`~hanoi_harness.sandbox.judge.Judge`). The verdict is made
here, by code the algorithm never ran, so no plugin can forge it.

A crash, a hang or running out of memory is that algorithm's verdict while the others are
still verified:

* past its ``timeout`` (for all its n together) a job's process group is killed and its current
  n is ``timed_out``;
* a process that dies is ``crashed`` at the step it was producing, with its exit status or
  signal (found by :func:`~hanoi_harness.sandbox.judge.pinpoint`);
* a stream it broke (garbage, a second writer after a fork) is ``crashed`` too.

Each of these ends the job; verdicts already made are kept.  A process that answered well is
kept for its thread's next job (``hanoi bench`` checks one n per job). The in-tree algorithms
share it. A plugin's or an installed package's process serves that algorithm alone (it loads no
other plugin).
"""

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
    """One algorithm's share of ``hanoi verify``.

    Algorithm *name* is verified for each n of *ns*, in order.

    ``ends`` ``(start, goal)``, when given, are the configurations of the run: the peg of each
    disk, disk 1 first (``ns`` is then their one n). The algorithm's process is asked for the
    moves between them, and they are judged here from that start to that goal.
    ``verdicts`` fill in as the job runs; ``started`` is when it began (:func:`time.monotonic`);
    ``printed`` is the start of what the algorithm's process printed meanwhile.
    """

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
    """Verify every job of *jobs*, at most *workers* at once; the jobs.

    The jobs come back with their verdicts filled.  *workers* defaults to the
    cores.

    *plugins* are loaded by each algorithm's process; *registry* is what this process knows
    of the algorithms (default :func:`hanoi_harness.registry.probe.catalog`, which imports no plugin
    here).  *timeout* seconds bound each job, any size being fine; *memory_mb* caps each
    process's address space.  *on_done* is called, in this thread, as each job ends.  Ctrl-C
    stops every process and re-raises.
    """
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
    """One of run_jobs's threads: jobs from *todo* until None.

    Each job goes into *finished* when done.

    A process that answered well is kept for this thread's next job of the same algorithm (a
    process started by a thread is ended by the kernel when that thread ends, so it is never
    handed to another).
    """
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
    """Judge *job*'s n in turn, up to the first abnormal end.

    A death, a timeout or a broken stream ends the job.
    """
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
    """The verdict on *record*'s run of *n* disks from *producer*.

    It is judged by the record's puzzle and final peg.

    With *ends* the run goes from their start to their goal, which the judge takes from here.
    """
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
