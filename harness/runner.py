"""Verification in child processes: one per algorithm, so a crash, a hang or running
out of memory is reported for that algorithm while the rest are still verified.

Each child rebuilds the registry from the same plugin specs (so it works with
the ``spawn`` start method too), checks its algorithm for each n in turn and
sends one verdict per n over a pipe as soon as it has it.  The parent waits on
all pipes and process sentinels with a deadline per algorithm: a child past
its ``timeout`` is killed and its current n reported ``timed_out``; a child
that dies without saying so is reported ``crashed`` with its exit code or
signal.  Verdicts already received are kept in every case.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hanoi_harness.checker import check_algorithm
from hanoi_harness.verdict import Verdict


@dataclass
class Job:
    """Job(name, ns): verify algorithm ``name`` for each n of ``ns``, in order."""

    name: str
    ns: list[int]
    verdicts: list[Verdict] = field(default_factory=list)
    started: float = 0.0
    process: Any = None
    conn: Any = None

    @property
    def ok(self) -> bool:
        return len(self.verdicts) == len(self.ns) and all(v.ok for v in self.verdicts)


def _child(conn: Any, name: str, plugins: Sequence[str], ns: Sequence[int], memory_mb: int | None) -> None:
    """The child's whole life: limit memory, rebuild the registry, check, report."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and kills us
    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from hanoi_harness.registry import build_registry

    try:
        algorithm = build_registry(plugins).get(name)
        for n in ns:
            verdict = check_algorithm(algorithm, n)
            conn.send(("verdict", verdict.to_dict()))
    except Exception as exc:  # anything outside the algorithm's own run: say what, then stop
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    conn.send(("done", None))
    conn.close()


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "the process vanished"
    if code < 0:
        try:
            sig = signal.Signals(-code).name
        except ValueError:
            sig = f"signal {-code}"
        hint = " (out of memory?)" if -code == signal.SIGKILL else ""
        return f"the process was killed by {sig}{hint}"
    return f"the process exited with status {code}"


def run_jobs(
    jobs: list[Job],
    plugins: Sequence[str] = (),
    *,
    timeout: float = 60.0,
    workers: int | None = None,
    memory_mb: int | None = None,
    on_done: Callable[[Job], None] | None = None,
) -> list[Job]:
    """run_jobs(jobs, plugins, timeout=60): verify every job in its own child, at most ``workers`` at once.

    Fills each job's ``verdicts`` (one per n, in order, cut short by a failure
    of the process) and returns the jobs.  ``on_done`` is called as each job
    ends, for progress.  Ctrl-C kills the children and re-raises.
    """
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    limit = workers or os.cpu_count() or 1
    pending = list(jobs)
    running: list[Job] = []
    try:
        while pending or running:
            while pending and len(running) < limit:
                job = pending.pop(0)
                parent_conn, child_conn = ctx.Pipe(duplex=False)
                job.process = ctx.Process(  # type: ignore[attr-defined]
                    target=_child, args=(child_conn, job.name, list(plugins), job.ns, memory_mb), daemon=True
                )
                job.process.start()
                child_conn.close()
                job.conn = parent_conn
                job.started = time.monotonic()
                running.append(job)
            now = time.monotonic()
            wait_for = max(0.0, min(job.started + timeout for job in running) - now)
            handles = [job.conn for job in running] + [job.process.sentinel for job in running]
            multiprocessing.connection.wait(handles, timeout=wait_for)
            for job in list(running):
                finished = _drain(job)
                if not finished and not job.process.is_alive():
                    finished = _drain(job) or _died(job)
                if not finished and time.monotonic() - job.started > timeout:
                    job.process.kill()
                    _fail_current(job, "timed_out", f"no verdict within {timeout:g} s; the process was killed")
                    finished = True
                if finished:
                    job.process.join(timeout=5)
                    job.conn.close()
                    running.remove(job)
                    if on_done is not None:
                        on_done(job)
    except BaseException:
        for job in running:
            job.process.kill()
        raise
    return jobs


def _drain(job: Job) -> bool:
    """Read every message waiting from the child; True when it said it is done."""
    try:
        while job.conn.poll():
            kind, payload = job.conn.recv()
            if kind == "done":
                return True
            if kind == "error":
                _fail_current(job, "crashed", payload)
            else:
                job.verdicts.append(Verdict.from_dict(payload))
    except (EOFError, OSError):
        return False
    return False


def _died(job: Job) -> bool:
    _fail_current(job, "crashed", _describe_exit(job.process.exitcode))
    return True


def _fail_current(job: Job, status: Any, reason: str) -> None:
    if len(job.verdicts) < len(job.ns):
        n = job.ns[len(job.verdicts)]
        job.verdicts.append(Verdict(status, n, 0, reason=reason))
