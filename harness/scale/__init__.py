"""Chunked verification: a tower's steps split across local processes or a Dask cluster.

An algorithm whose record declares ``solve_from`` can start at any step, so
the steps 1 .. 2^n - 1 of its run can be verified in chunks, side by side.
This module holds the pure chunk function :func:`verify_chunk` (picklable
arguments and result, so a process pool and Dask both run it), the planner
:func:`plan_chunks`, the combiner :func:`combine`, and :func:`verify_scaled`,
which drives the chunks on a local process pool or a Dask cluster.

What a chunk checks, and why that is enough
    A chunk ``first .. last`` starts from the pegs of the optimal solution
    after ``first - 1`` moves (:func:`optimal_pegs`: the reference states of
    :mod:`hanoi_harness.randomaccess`, pegs 1 and 2 exchanged for a run declared
    to end on peg 1), takes ``last - first + 1`` moves of
    ``moves_from(n, first)`` and replays them with the same checker
    (``check(..., start=first - 1, initial=..., partial=True)``), so an
    illegal move or a crash is reported at its global step.  It then asks
    for exactly that many moves (fewer is ``incomplete``; the last chunk also
    asks for one move more, and getting it is ``not_optimal``) and for the
    pegs at its end to be the optimal solution's after ``last`` moves.

    The combiner asks the first chunk to start from the whole tower on
    peg 0, each chunk to end with the pegs the next one starts from, and the
    last one's end to pass the checker's own final test: the whole tower on
    the declared peg after 2^n - 1 moves.  Legality, joins and that count
    alone prove that the chunks' moves, end to end, are a legal solution of
    2^n - 1 moves, hence the optimal one, whatever the reference says.

    The end-of-chunk test against the reference pins the blame on the chunk
    where a wrong continuation starts.  A ``solve_from`` that yields a legal
    but different sequence (an extra pair of moves, a continuation of
    another state) cannot end on the optimal path after the right number of
    legal moves: the optimal path between two of its own states is the only
    path that short (a second one would make a second optimal solution), so
    a chunk that does end there made exactly the optimal moves.  A chunk that
    does not is ``not_optimal``, and it replays its moves against
    :func:`~hanoi_harness.randomaccess.move_at` (O(n) a move, only then) to name
    the first step that leaves the path.

    What is verified is ``solve_from``'s output; each port's ``solve`` is
    its ``solve_from(n, 1)``, the same loop, and the tests compare the two
    from every step.

The digest is a sum over the moves with their global step numbers, so the
chunks' digests add up (mod 2^64) to the sequential one.
"""

from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from hanoi_harness.checker import Verdict, check, check_chunks
from hanoi_harness.digest import MASK
from hanoi_harness.errors import UsageError
from hanoi_harness.randomaccess import move_at
from hanoi_harness.registry import Algorithm, Move, Registry, build_registry, labelled_state

Pegs = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""The three pegs, each a tuple of disks, bottom first."""

CHUNKS_PER_WORKER = 16
"""Default chunks per worker: the last chunk to finish then costs at most 1/16 of a worker's share."""

MIN_CHUNK = 1 << 16
"""Smallest default chunk: 65536 moves take ~20 ms, well above the ~1 ms a chunk costs to send and start."""

MAX_CHUNK = 1 << 24
"""Largest default chunk: 16.7M moves, a few seconds, so progress and a retry stay fine-grained."""


@dataclass(frozen=True)
class ChunkResult:
    """The outcome of verifying steps ``first .. last`` (1-based, inclusive).

    ``verdict`` is ``ok`` (with ``moves`` the chunk's count and ``digest`` its
    part of the digest) when the moves are legal, as many as the chunk's
    steps, and end on the optimal path; otherwise its failure, with global
    step numbers.  ``start`` and ``end`` are the pegs before and after the
    chunk (``end`` only when ok; ``start`` is None for a chunk whose worker
    died).  ``seconds`` is the time the chunk took where it ran.
    """

    first: int
    last: int
    verdict: Verdict
    start: Pegs | None
    end: Pegs | None
    seconds: float = 0.0

    @property
    def size(self) -> int:
        return self.last - self.first + 1


@dataclass
class ScaleReport:
    """What :func:`verify_scaled` found: the combined verdict and how it was reached."""

    verdict: Verdict
    planned: int
    verified: int
    chunk_size: int
    where: str
    seconds: float
    events: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """describe(): the verdict, the digest and how the work was split, in one line."""
        retried = f"; {len(self.events)} worker death(s), chunk(s) retried" if self.events else ""
        return (
            f"{self.verdict.describe()}; digest {self.verdict.digest}; "
            f"{self.verified}/{self.planned} chunks of <= {self.chunk_size} moves on {self.where} "
            f"in {self.seconds:.1f} s{retried}"
        )


# --- the reference states ---------------------------------------------------------------------


def final_peg_for(algorithm: Algorithm, n: int) -> int:
    """final_peg_for(algorithm, n): the one peg (1 or 2) the record declares its n-disk run ends on.

    Chunks start from the optimal solution's states, which depend on that
    peg, so a record that may end on either (``FinalPeg.anywhere()``) is
    refused with :class:`UsageError`.
    """
    pegs = algorithm.final_peg.pegs(n)
    if len(pegs) != 1 or not pegs <= {1, 2}:
        raise UsageError(
            f"{algorithm.name} does not declare one final peg (1 or 2) for n = {n}, "
            "so its chunks' start pegs are unknown: declare final_peg in its record"
        )
    (peg,) = pegs
    return peg


def splittable(algorithm: Algorithm, n: int) -> int:
    """splittable(algorithm, n): check that the n-disk run can be verified in chunks; its final peg.

    :class:`UsageError` for an n outside the limits, a record without
    ``solve_from`` (it cannot start at any step) or without one final peg.
    """
    algorithm.check_n(n)
    if algorithm.solve_from is None:
        raise UsageError(
            f"{algorithm.name} cannot start at any step (its record declares no solve_from), "
            "so its steps cannot be split: verify it without --workers/--dask"
        )
    return final_peg_for(algorithm, n)


def optimal_pegs(n: int, k: int, final_peg: int = 2) -> Pegs:
    """optimal_pegs(n, k, final_peg=2): the pegs (bottom first) after k moves of the optimal run to ``final_peg``.

    >>> optimal_pegs(3, 4)
    ((), (2, 1), (3,))
    >>> optimal_pegs(3, 4, final_peg=1)
    ((), (3,), (2, 1))
    """
    where = labelled_state(n, k, final_peg=final_peg)
    pegs: tuple[list[int], list[int], list[int]] = ([], [], [])
    for disk in range(n, 0, -1):
        pegs[where[disk - 1]].append(disk)
    return (tuple(pegs[0]), tuple(pegs[1]), tuple(pegs[2]))


def optimal_move(n: int, k: int, final_peg: int = 2) -> Move:
    """optimal_move(n, k, final_peg=2): move k of the optimal run to ``final_peg``.

    >>> optimal_move(2, 1), optimal_move(2, 1, final_peg=1)
    ((1, 0, 1), (1, 0, 2))
    """
    disk, src, dst = move_at(n, k)
    if final_peg == 1:
        swap = (0, 2, 1)
        return (disk, swap[src], swap[dst])
    return (disk, src, dst)


def _lists(pegs: Pegs) -> tuple[list[int], list[int], list[int]]:
    return (list(pegs[0]), list(pegs[1]), list(pegs[2]))


def _frozen(pegs: Sequence[Sequence[int]]) -> Pegs:
    return (tuple(pegs[0]), tuple(pegs[1]), tuple(pegs[2]))


# --- one chunk -----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _registry(plugins: tuple[str, ...]) -> Registry:
    # Built once per worker process (or per Dask worker) for its whole life.
    return build_registry(plugins)


def verify_chunk(name: str, plugins: Sequence[str], n: int, first: int, last: int) -> ChunkResult:
    """verify_chunk(name, plugins, n, first, last): verify steps ``first .. last`` of ``name``'s n-disk run.

    Pure apart from building the registry (once per process) from the same
    plugin specs as the caller, so any worker can run it.  Raises
    :class:`UsageError` for an unknown name, an n outside the limits or an
    algorithm that cannot start at any step; the algorithm's own failures
    are in the verdict.

    >>> r = verify_chunk("bitwise", (), 4, 5, 9)
    >>> r.verdict.status, r.verdict.moves, r.start, r.end
    ('ok', 5, ((4,), (2, 1), (3,)), ((), (4, 1), (3, 2)))
    """
    began = time.perf_counter()
    algorithm = _registry(tuple(plugins)).get(name)
    algorithm.check_n(n)
    final = final_peg_for(algorithm, n)
    total = (1 << n) - 1
    if not 1 <= first <= last <= total:
        raise ValueError(f"chunk {first}..{last} is not within steps 1..{total}")
    start = optimal_pegs(n, first - 1, final)
    verdict, end = _replay(algorithm, n, first, last, final, start)
    return ChunkResult(first, last, verdict, start, end, time.perf_counter() - began)


def _replay(
    algorithm: Algorithm, n: int, first: int, last: int, final: int, start: Pegs
) -> tuple[Verdict, Pegs | None]:
    """The chunk's checks (see the module docstring); returns the verdict and, when ok, the end pegs."""
    total = (1 << n) - 1
    count = last - first + 1
    wanted = count + 1 if last == total else count  # the last chunk also looks for a move too many
    try:
        if algorithm.chunks:  # arrays in the model's labels (the record guarantees it): the vectorised checker
            assert algorithm.solve_from is not None
            arrays = _first_rows(algorithm.solve_from(n, first), wanted)
            verdict = check_chunks(arrays, n, frozenset({final}), start=first - 1, initial=_lists(start), partial=True)
        else:
            moves = islice(algorithm.moves_from(n, first), wanted)
            verdict = check(moves, n, frozenset({final}), start=first - 1, initial=_lists(start), partial=True)
    except Exception as exc:  # the algorithm failed to start at this step
        return Verdict("crashed", n, first - 1, step=first, reason=f"{type(exc).__name__}: {exc}"), None
    if not verdict.ok:  # illegal or crashed at a global step; count the legal moves globally too
        return replace(verdict, moves=first - 1 + verdict.moves), None
    made = first - 1 + verdict.moves
    if verdict.moves < count:
        return Verdict(
            "incomplete", n, made, verdict.digest, reason=f"the moves end after step {made} of {total}"
        ), None
    if verdict.moves > count:
        reason = f"still moving after step {total} (optimal is {total} moves)"
        return Verdict("not_optimal", n, made, verdict.digest, reason=reason), None
    end = _frozen(verdict.extra["pegs"])
    if end != optimal_pegs(n, last, final):
        return _divergence(algorithm, n, first, last, final, verdict.digest), None
    return Verdict("ok", n, count, verdict.digest), end


def _first_rows(arrays: Iterable[Any], count: int) -> Iterator[Any]:
    """_first_rows(arrays, count): the first ``count`` rows of a stream of (m, 3) arrays, still as arrays.

    >>> import numpy as np
    >>> [a.tolist() for a in _first_rows([np.zeros((2, 3), int), np.ones((2, 3), int)], 3)]
    [[[0, 0, 0], [0, 0, 0]], [[1, 1, 1]]]
    """
    for array in arrays:
        if count <= 0:
            return
        rows = len(array) if hasattr(array, "__len__") else 0
        yield array[:count] if rows > count else array
        count -= rows


def _divergence(algorithm: Algorithm, n: int, first: int, last: int, final: int, digest: int) -> Verdict:
    """A legal chunk that ends off the optimal path: find the first step where it leaves it."""
    try:
        moves = algorithm.moves_from(n, first)
        for step, move in enumerate(islice(moves, last - first + 1), first):
            want = optimal_move(n, step, final)
            if tuple(move) != want:
                d, s, t = move
                reason = f"leaves the optimal path at step {step}: move {d} {s} {t}, where the optimal move is {want}"
                return Verdict("not_optimal", n, last, digest, step=step, move=move, reason=reason)
    except Exception:  # a second replay that fails differs from the first: report the chunk as a whole
        pass
    return Verdict(
        "not_optimal", n, last, digest, step=last, reason=f"the moves end off the optimal path at step {last}"
    )


# --- planning and combining ----------------------------------------------------------------------


def default_chunk_size(n: int, workers: int) -> int:
    """default_chunk_size(n, workers): moves per chunk, about CHUNKS_PER_WORKER chunks per worker.

    >>> default_chunk_size(26, 2), default_chunk_size(10, 2), default_chunk_size(40, 64)
    (2097152, 65536, 16777216)
    """
    total = (1 << n) - 1
    share = -(-total // (max(1, workers) * CHUNKS_PER_WORKER))
    return max(MIN_CHUNK, min(MAX_CHUNK, share))


def plan_chunks(n: int, size: int) -> Iterator[tuple[int, int]]:
    """plan_chunks(n, size): the chunks ``(first, last)`` covering steps 1 .. 2^n - 1, ``size`` steps each.

    A generator, so a plan of millions of chunks costs nothing up front.

    >>> list(plan_chunks(3, 3))
    [(1, 3), (4, 6), (7, 7)]
    >>> list(plan_chunks(0, 5))
    []
    """
    if size < 1:
        raise ValueError(f"chunk size must be >= 1, got {size}")
    total = (1 << n) - 1
    for first in range(1, total + 1, size):
        yield (first, min(first + size - 1, total))


def chunk_count(n: int, size: int) -> int:
    """chunk_count(n, size): how many chunks :func:`plan_chunks` makes.

    >>> chunk_count(3, 3), chunk_count(0, 5)
    (3, 0)
    """
    return -(-((1 << n) - 1) // size)


def combine(n: int, final_peg: int, results: Iterable[ChunkResult]) -> Verdict:
    """combine(n, final_peg, results): the verdict of the whole run from its chunks' results.

    The chunks must cover steps 1 .. 2^n - 1 in order up to the first one that
    failed (later ones may be missing); that failure is the verdict, with the
    digest of every move before it.  Otherwise the first chunk must start
    from the whole tower on peg 0, each must end where the next starts, and
    the last end passes the checker's final test.

    >>> combine(2, 1, [verify_chunk("bitwise", (), 2, 1, 2), verify_chunk("bitwise", (), 2, 3, 3)]).describe()
    'ok (3 moves, tower on peg 1)'
    """
    total = (1 << n) - 1
    pegs: Pegs = (tuple(range(n, 0, -1)), (), ())
    digest = 0
    done = 0
    for result in sorted(results, key=lambda r: r.first):
        if result.first != done + 1:
            raise ValueError(
                f"the chunks do not cover the steps: after step {done} comes {result.first}..{result.last}"
            )
        if result.start is not None and result.start != pegs:
            reason = (
                f"the chunks do not join after step {done}: pegs {pegs}, but the next chunk starts from {result.start}"
            )
            return Verdict("crashed", n, done, digest & MASK, step=done + 1, reason=reason)
        if not result.verdict.ok:
            return replace(result.verdict, digest=(digest + result.verdict.digest) & MASK)
        if result.end is None or result.verdict.moves != result.size:
            raise ValueError(f"chunk {result.first}..{result.last} is ok without its end pegs or its count")
        digest += result.verdict.digest
        pegs = result.end
        done = result.last
    if done != total:
        raise ValueError(f"the chunks end at step {done}, not {total}")
    verdict = check([], n, frozenset({final_peg}), start=total, initial=_lists(pegs))
    return replace(verdict, digest=digest & MASK)


# --- executors -----------------------------------------------------------------------------------


def _worker_init(memory_mb: int | None, caller: int) -> None:
    """Each pool worker: leave Ctrl-C to the caller (it kills us), end when it is gone, cap the address space."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A caller killed outright (SIGTERM, SIGKILL) cannot kill us, and an idle worker would wait on
    # its queue for ever: a watcher thread ends the process within a second of the caller's end.
    threading.Thread(target=_watch, args=(caller,), name="watch-caller", daemon=True).start()
    if memory_mb:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _watch(caller: int) -> None:
    """Poll every second whether process ``caller`` still exists; end this process when it does not."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(caller, 0)
        except (ProcessLookupError, PermissionError):  # gone (or its pid reused by another user)
            os._exit(1)


class _LocalPool:
    """Chunks on a :class:`~concurrent.futures.ProcessPoolExecutor` of ``workers`` processes."""

    def __init__(self, task: tuple[str, tuple[str, ...], int], workers: int, memory_mb: int | None) -> None:
        # forkserver (or spawn): the workers do not inherit the caller's threads (tqdm's, Dask's).
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        self.task = task
        self.workers = workers
        self.memory_mb = memory_mb
        self.window = 2 * workers  # one running and one queued per worker: no idle gap between chunks
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
            initargs=(self.memory_mb, os.getpid()),
        )

    def submit(self, first: int, last: int) -> Any:
        future = self.pool.submit(verify_chunk, *self.task, first, last)
        self.current.add(future)
        return future

    def wait(self, futures: list[Any], timeout: float | None) -> set[Any]:
        done, _ = concurrent.futures.wait(futures, timeout=timeout, return_when=concurrent.futures.FIRST_COMPLETED)
        return done

    def outcome(self, future: Any) -> ChunkResult | str:
        try:
            result: ChunkResult = future.result()
        except concurrent.futures.process.BrokenProcessPool:
            # Every future of a broken pool fails at once; only one of the current pool's calls for a new pool.
            self.broken = self.broken or future in self.current
            return f"a worker process died{self._exit_codes()}"
        return result

    def _exit_codes(self) -> str:
        # Once one worker dies the pool terminates the rest (SIGTERM): any other code is the dead one's.
        processes = getattr(self.pool, "_processes", None) or {}
        codes = [p.exitcode for p in list(processes.values()) if p.exitcode not in (None, 0, -signal.SIGTERM)]
        if not codes:
            return ""
        return " (" + ", ".join(f"signal {-c}" if c < 0 else f"exit status {c}" for c in codes) + ")"

    def cancel(self, future: Any) -> None:
        future.cancel()

    def recover(self) -> None:
        if self.broken:
            self.pool.shutdown(wait=True)
            self.pool = self._new_pool()
            self.broken = False

    def close(self) -> None:
        if any(not future.done() for future in list(self.current)):
            # Chunks still running are not wanted (interrupted, timed out, or past a failure): no
            # public API stops a running call before Python 3.14, so their processes are killed.
            for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                process.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


class _DaskCluster:
    """Chunks on a Dask distributed cluster, through a client connected to ``address``."""

    def __init__(self, task: tuple[str, tuple[str, ...], int], address: str) -> None:
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
        return self.client.submit(verify_chunk, *self.task, first, last, pure=False)

    def wait(self, futures: list[Any], timeout: float | None) -> set[Any]:
        try:
            with self.client.as_current():  # distributed.wait uses the current client, not the futures'
                done, _ = self.distributed.wait(futures, timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set()
        return set(done)

    def outcome(self, future: Any) -> ChunkResult | str:
        from distributed.scheduler import KilledWorker

        try:
            result: ChunkResult = future.result()
        except KilledWorker as exc:
            # Its first sentence says how many workers the scheduler lost on it (allowed-failures + 1).
            return f"Dask workers died running it ({str(exc).split('. ')[0]})"
        return result

    def cancel(self, future: Any) -> None:
        future.cancel()

    def recover(self) -> None:
        pass  # the scheduler replaces lost workers' tasks itself

    def close(self) -> None:
        self.client.close()  # releases every future; the scheduler drops the chunks not yet run


# --- the driver ----------------------------------------------------------------------------------


def verify_scaled(
    name: str,
    n: int,
    plugins: Sequence[str] = (),
    *,
    workers: int = 1,
    dask: str | None = None,
    chunk_size: int | None = None,
    timeout: float | None = None,
    memory_mb: int | None = None,
    on_chunk: Callable[[ChunkResult], None] | None = None,
    on_event: Callable[[str], None] | None = None,
) -> ScaleReport:
    """verify_scaled(name, n, plugins, workers=1, dask=None): verify ``name`` for n disks in chunks.

    With ``dask`` (a scheduler address such as ``tcp://host:8786``) the chunks
    run on that Dask cluster, otherwise on ``workers`` local processes.  The
    combined verdict and digest equal the sequential ones.  A chunk whose
    worker dies is reported through ``on_event`` and run once more, alone
    (so a second death is surely its own): a second death makes it
    ``crashed``.  ``timeout`` seconds bound the whole run (``timed_out``).
    ``on_chunk`` sees each result as it arrives, for progress.

    >>> verify_scaled("bitwise", 5, chunk_size=8).verdict.describe()
    'ok (31 moves, tower on peg 2)'
    """
    began = time.monotonic()
    final = splittable(build_registry(plugins).get(name), n)
    if chunk_size is not None and chunk_size < 1:
        raise UsageError(f"the chunk size must be >= 1, got {chunk_size}")
    task = (name, tuple(plugins), n)
    backend: _LocalPool | _DaskCluster = _DaskCluster(task, dask) if dask else _LocalPool(task, workers, memory_mb)
    size = chunk_size or default_chunk_size(n, backend.workers)
    events: list[str] = []

    def event(message: str) -> None:
        events.append(message)
        if on_event is not None:
            on_event(message)

    deadline = None if timeout is None else began + timeout
    try:
        results, timed_out = _drive(backend, n, plan_chunks(n, size), deadline, on_chunk or (lambda r: None), event)
    finally:
        backend.close()
    verdict = _timed_out(n, results, timeout) if timed_out else combine(n, final, results)
    return ScaleReport(
        verdict, chunk_count(n, size), len(results), size, backend.where, time.monotonic() - began, events
    )


def _timed_out(n: int, results: list[ChunkResult], timeout: float | None) -> Verdict:
    verified = sum(r.size for r in results if r.verdict.ok)
    reason = f"no verdict within {timeout:g} s ({verified} of {(1 << n) - 1} moves verified); the workers were stopped"
    return Verdict("timed_out", n, verified, reason=reason)


def _drive(
    backend: _LocalPool | _DaskCluster,
    n: int,
    plan: Iterator[tuple[int, int]],
    deadline: float | None,
    on_chunk: Callable[[ChunkResult], None],
    event: Callable[[str], None],
) -> tuple[list[ChunkResult], bool]:
    """Run the plan's chunks, ``backend.window`` at a time; returns the results and whether time ran out.

    After a chunk fails, no chunk after it is started (running ones are
    dropped): the verdict is the earliest failure, so only the chunks before
    it are still needed.  Chunks whose worker died are run again one at a
    time, nothing else running, so a second death is pinned on its chunk.
    """
    results: dict[int, ChunkResult] = {}
    in_flight: dict[Any, tuple[int, int, int]] = {}  # future -> (first, last, attempt)
    retry: deque[tuple[int, int]] = deque()
    deaths: list[str] = []  # what the chunks in ``retry`` were told when their worker died
    failed_at: int | None = None  # first step of the earliest failing chunk
    planned = True
    while True:
        if retry:
            if not in_flight:
                if deaths:  # one report per death: a local pool loses every chunk it was running
                    retry = deque(sorted(retry))
                    chunks = ", ".join(f"{first}..{last}" for first, last in retry)
                    which = "that chunk" if len(retry) == 1 else "each of those chunks"
                    event(f"{deaths[0]} while verifying steps {chunks}; retrying {which} once, alone")
                    deaths.clear()
                first, last = retry.popleft()
                in_flight[backend.submit(first, last)] = (first, last, 2)
        else:
            while planned and len(in_flight) < backend.window:
                chunk = next(plan, None)
                if chunk is None or (failed_at is not None and chunk[0] > failed_at):
                    planned = False
                    break
                in_flight[backend.submit(*chunk)] = (*chunk, 1)
        if not in_flight:
            return sorted(results.values(), key=lambda r: r.first), False
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            return sorted(results.values(), key=lambda r: r.first), True
        for future in backend.wait(list(in_flight), remaining):
            first, last, attempt = in_flight.pop(future)
            outcome = backend.outcome(future)
            if isinstance(outcome, str):
                if attempt == 1:
                    deaths.append(outcome)
                    retry.append((first, last))
                    continue
                event(f"{outcome} again while verifying steps {first}..{last} alone; the chunk is crashed")
                reason = f"the worker died twice while verifying steps {first}..{last}: {outcome}"
                outcome = ChunkResult(
                    first, last, Verdict("crashed", n, first - 1, step=first, reason=reason), None, None
                )
            results[first] = outcome
            on_chunk(outcome)
            if not outcome.verdict.ok and (failed_at is None or first < failed_at):
                failed_at = first
        if failed_at is not None:
            for future, (first, _, _) in list(in_flight.items()):
                if first > failed_at:
                    backend.cancel(future)
                    del in_flight[future]
            retry = deque(chunk for chunk in retry if chunk[0] < failed_at)
            if not retry:
                deaths.clear()
        backend.recover()
