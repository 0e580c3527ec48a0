"""Where segments run: one interface, a process pool or Dask behind it."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import weakref
from typing import Any, Protocol

from hanoi_harness import guardian, process
from hanoi_harness.errors import UsageError
from hanoi_harness.scale.segment import SegmentResult, Task, run_segment

_REAP_SECONDS = 5.0  # for a broken pool to end its other workers; they take milliseconds


class Executor(Protocol):
    """Runs the segments of one :class:`Task` somewhere: all the driver uses."""

    workers: int
    window: int
    where: str

    def submit(self, first: int, last: int) -> Any:
        """Start verifying steps *first* .. *last*; return a future."""

    def wait(self, futures: list[Any], timeout: float | None) -> set[Any]:
        """Return the futures done, waiting up to *timeout* s for the first."""

    def outcome(self, future: Any) -> SegmentResult | str:
        """Return the segment's result, or why its worker died."""

    def cancel(self, future: Any) -> None:
        """Drop a segment no longer needed."""

    def recover(self) -> None:
        """Be ready for more segments after workers died (a new pool, say)."""

    def close(self) -> None:
        """Stop everything still running."""


def _worker_init(caller: int, token: str) -> None:  # pragma: no cover - in each pool worker
    """Set up a pool worker: leave Ctrl-C to the caller, and end with it."""
    process.ignore_interrupts()
    process.watch(caller)  # the worker's parent is the fork server, not the caller
    guardian.share_token(token, guarded=True)


class LocalPool:
    """Segments on a local process pool of *workers* processes."""

    def __init__(self, task: Task, workers: int) -> None:
        # forkserver (or spawn): the workers do not inherit the caller's threads (tqdm's, Dask's).  Its
        # server starts with 'python -c', which would import from the current directory: not with -P.
        methods = multiprocessing.get_all_start_methods()
        method = "forkserver" if "forkserver" in methods else "spawn"
        self.context = multiprocessing.get_context(method)
        if method == "forkserver":
            with process.safe_path_environment():
                multiprocessing.forkserver.ensure_running()
        self.task = task
        self.workers = workers
        self.window = 2 * workers  # one running and one queued per worker: no idle gap between segments
        self.where = f"{workers} local process{'es' if workers > 1 else ''}"
        self.broken = False
        self.current: weakref.WeakSet[Any] = weakref.WeakSet()  # the futures of the current pool
        self.pool = self._new_pool()

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        self.current = weakref.WeakSet()
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self.context,
            initializer=_worker_init,
            initargs=(os.getpid(), guardian.token()),
        )

    def submit(self, first: int, last: int) -> Any:
        with process.safe_path_environment():  # 'spawn' starts workers here, with 'python -c'
            future = self.pool.submit(run_segment, self.task, first, last)
        self.current.add(future)
        return future

    def wait(self, futures: list[Any], timeout: float | None) -> set[Any]:
        slice_ = process.wait_slice(None if timeout is None else process.deadline_after(timeout))
        done, _ = concurrent.futures.wait(futures, timeout=slice_, return_when=concurrent.futures.FIRST_COMPLETED)
        return done

    def outcome(self, future: Any) -> SegmentResult | str:
        try:
            result: SegmentResult = future.result()
        except concurrent.futures.process.BrokenProcessPool:
            # Every future of a broken pool fails at once; only one of the current pool's calls for a new pool.
            self.broken = self.broken or future in self.current
            return f"a worker process died{self._exit_codes()}"
        return result

    def _exit_codes(self) -> str:
        # Once one worker dies the pool terminates the rest (SIGTERM): any other code is the dead one's.
        # The pool's own thread reaps them meanwhile, and a fork server hands each status out once: read
        # alongside it, the loser gets 'exit status 255' (6 runs in 30 did).  So wait for it to finish.
        manager = getattr(self.pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=_REAP_SECONDS)
            if manager.is_alive():
                return ""
        processes = getattr(self.pool, "_processes", None) or {}
        codes = [p.exitcode for p in list(processes.values()) if p.exitcode not in (None, 0, -signal.SIGTERM)]
        if not codes:
            return ""
        return " (" + ", ".join(process.exit_status(code) for code in codes) + ")"

    def cancel(self, future: Any) -> None:
        future.cancel()

    def recover(self) -> None:
        if self.broken:
            self.pool.shutdown(wait=True)
            self.pool = self._new_pool()
            self.broken = False

    def close(self) -> None:
        if any(not future.done() for future in list(self.current)):
            # Segments still running are not wanted (interrupted, timed out, or past a failure).  No
            # public API stops a running call before Python 3.14, so their workers are killed.  The
            # parent-death signal ends the algorithms' processes with them.
            for worker in list((getattr(self.pool, "_processes", None) or {}).values()):
                worker.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskCluster:
    """Segments on the Dask cluster whose scheduler is at *address*."""

    def __init__(self, task: Task, address: str) -> None:
        try:
            import distributed
        except ImportError:
            raise UsageError("--dask needs the optional dependency: pip install 'hanoi-harness[distributed]'") from None
        self.distributed: Any = distributed  # untyped library: called through Any
        try:
            self.client: Any = self.distributed.Client(address, timeout=10, set_as_default=False)
        except (OSError, ValueError, TypeError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {address!r}: {type(exc).__name__}: {exc}") from None
        self.task = task
        threads = sum(self.client.nthreads().values())
        self.workers = max(1, threads)
        self.window = 2 * self.workers
        self.where = f"the Dask cluster at {address} ({threads} threads)"

    def submit(self, first: int, last: int) -> Any:
        return self.client.submit(run_segment, self.task, first, last, pure=False)

    def wait(self, futures: list[Any], timeout: float | None) -> set[Any]:
        slice_ = process.wait_slice(None if timeout is None else process.deadline_after(timeout))
        try:
            with self.client.as_current():  # distributed.wait uses the current client, not the futures'
                done, _ = self.distributed.wait(futures, timeout=slice_, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set()
        return set(done)

    def outcome(self, future: Any) -> SegmentResult | str:
        from distributed.scheduler import KilledWorker

        try:
            result: SegmentResult = future.result()
        except KilledWorker as exc:
            # Its first sentence says how many workers the scheduler lost on it (allowed-failures + 1).
            return f"Dask workers died running it ({str(exc).split('. ')[0]})"
        return result

    def cancel(self, future: Any) -> None:
        future.cancel()

    def recover(self) -> None:
        pass  # the scheduler replaces lost workers' tasks itself

    def close(self) -> None:
        self.client.close()  # releases every future; the scheduler drops the segments not yet run
