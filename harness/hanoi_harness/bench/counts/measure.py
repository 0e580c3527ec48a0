"""Machine instructions per move, counted by valgrind's cachegrind."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from hanoi_harness import process
from hanoi_harness.bench.counts.cachegrind import read_totals
from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.plan import COUNT_CAP, COUNT_SIZES, fixed_sizes, moves_at
from hanoi_harness.registry.record import Algorithm

SIZES = COUNT_SIZES  #: The two n counted by default: 1023 and 16383 moves.

TIMEOUT_S = 120.0  #: The longest one counted drain may take, in seconds: a wide margin at n = 14.

START_S = 120.0  #: What an interpreter under valgrind may take to start, registry included, in seconds.

VALGRIND_OPTIONS = ("--tool=cachegrind", "--cache-sim=no", "--command-line-only=yes", "-q")
"""Instruction counts only, from the command line alone: no cache simulation, many times faster."""

CHILD_ENV = {
    "PYTHONHASHSEED": "0",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "LC_ALL": "C.UTF-8",
}
"""The counted interpreter's whole environment, plus ``VALGRIND_LIB`` and ``PYTHONPATH`` from here."""

CHILD_FLAGS = ("-P", "-B")  #: The counted interpreter's flags: no current directory on sys.path, no .pyc.

INSTALL_HINT = "on Debian or Ubuntu: apt-get install valgrind, which make bench and make check-regression try"


@dataclass(frozen=True)
class Valgrind:
    """The valgrind found on PATH: its *path*, and its *version*."""

    path: str
    version: str


def find_valgrind() -> Valgrind | str:
    """The valgrind on PATH and its version, or why there is none (one line)."""
    path = shutil.which("valgrind")
    if path is None:
        return f"valgrind is not installed ({INSTALL_HINT})"
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{path} --version failed: {exc}"
    if done.returncode != 0 or not done.stdout.strip():
        return f"{path} --version failed with status {done.returncode}: {_last_line(done.stderr)}"
    return Valgrind(path, done.stdout.strip())


def count_sizes(
    algorithm: Algorithm, measured: Sequence[int] = (), span: Sequence[int] = SIZES, cap: int = COUNT_CAP
) -> tuple[int, ...] | str:
    """The n to count *algorithm* at, or why there are none.

    >>> a = Algorithm(name="a", solve=lambda n: iter(()), summary="", max_n=12)
    >>> count_sizes(a), count_sizes(a, (3, 5)), count_sizes(a, range(1, 20), cap=11)
    ((10, 12), (3, 5, 10, 12), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12))
    >>> count_sizes(Algorithm(name="b", solve=lambda n: iter(()), summary="", max_n=0))
    'needs two sizes within 0 <= n <= 0 to count instructions per move'
    """
    found = fixed_sizes(algorithm, span)
    if len(found) < 2:
        return f"needs two sizes within {algorithm.limits()} to count instructions per move"
    below = [n for n in measured if moves_at(algorithm, n) <= (1 << cap) - 1]
    return tuple(sorted({*found, *below}))


def span_of(algorithm: Algorithm, span: Sequence[int] = SIZES) -> tuple[int, int]:
    """The two n of *algorithm* of the classic *span*'s work."""
    found = fixed_sizes(algorithm, span)
    return found[0], found[-1]


def child_env(path: Sequence[str] = ()) -> dict[str, str]:
    """The counted interpreter's environment, from :data:`CHILD_ENV`."""
    env = dict(CHILD_ENV)
    for name in ("VALGRIND_LIB", "PYTHONPATH"):
        if name in os.environ:
            env[name] = os.environ[name]
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    return env


class _Live(set["subprocess.Popen[str]"]):
    """The counting interpreters running now, all killed once it is closed."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._closed = False

    def add(self, interpreter: subprocess.Popen[str]) -> None:
        """Hold *interpreter*, killing its group at once if this set is closed."""
        with self._lock:
            super().add(interpreter)
            if self._closed:
                process.kill_group(interpreter)

    def close(self) -> None:
        """Kill the group of every interpreter held now or added from now on."""
        with self._lock:
            self._closed = True
            for interpreter in self:
                process.kill_group(interpreter)


def count_all(
    valgrind: Valgrind | str,
    sizes: Mapping[str, tuple[int, ...] | str],
    plugins: Sequence[str],
    *,
    workers: int | None = None,
    timeout_s: float = TIMEOUT_S,
    on_counted: Callable[[str, int], None] | None = None,
    path: Sequence[str] = (),
) -> dict[str, InstructionCount]:
    """Count instructions per move of each algorithm named in *sizes*."""
    found: dict[str, InstructionCount] = {}
    for name, pair in sizes.items():
        if isinstance(pair, str):
            found[name] = InstructionCount(sizes=(), unavailable=pair)
        elif isinstance(valgrind, str):
            found[name] = InstructionCount(sizes=pair, unavailable=valgrind)
    jobs = [(name, pair) for name, pair in sizes.items() if name not in found and not isinstance(pair, str)]
    if jobs and not isinstance(valgrind, str):
        shares = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
        live = _Live()
        with ThreadPoolExecutor(max_workers=shares) as pool:
            try:
                parts = pool.map(
                    lambda share: count_jobs(valgrind, share, plugins, timeout_s, on_counted, live, path),
                    [jobs[i::shares] for i in range(shares)],
                )
                for part in parts:
                    found.update(part)
            except BaseException:
                # Ctrl-C comes to this thread, wherever it is (even inside map); leaving the pool
                # waits for its threads, which wait for their interpreters (minutes, under valgrind).
                live.close()
                raise
    return {name: found[name] for name in sizes}


def count_jobs(
    valgrind: Valgrind,
    jobs: Sequence[tuple[str, tuple[int, ...]]],
    plugins: Sequence[str],
    timeout_s: float = TIMEOUT_S,
    on_counted: Callable[[str, int], None] | None = None,
    live: set[subprocess.Popen[str]] | None = None,
    path: Sequence[str] = (),
) -> dict[str, InstructionCount]:
    """The counts of *jobs* from one interpreter under *valgrind*, in order."""
    spec = {"jobs": [[name, list(sizes)] for name, sizes in jobs], "plugins": list(plugins), "timeout_s": timeout_s}
    with tempfile.TemporaryDirectory(prefix="hanoi-count-") as work:
        argv = [
            valgrind.path,
            *VALGRIND_OPTIONS,
            f"--cachegrind-out-file={Path(work) / 'cachegrind.%p'}",
            sys.executable,
            *CHILD_FLAGS,
            "-m",
            "hanoi_harness.bench.counts.child",
            json.dumps(spec),
        ]
        drains = sum(2 * len(sizes) + 1 for _, sizes in jobs)  # warm-ups and counted drains
        lines, failure = _run(argv, START_S + timeout_s * drains, on_counted, live, path)
        totals = {line["pid"]: read_totals(Path(work) / f"cachegrind.{line['pid']}") for line in lines if "pid" in line}
    return {name: _assemble(name, pair, lines, totals, failure) for name, pair in jobs}


def _run(
    argv: list[str],
    deadline_s: float,
    on_counted: Callable[[str, int], None] | None,
    live: set[subprocess.Popen[str]] | None = None,
    path: Sequence[str] = (),
) -> tuple[list[dict[str, Any]], str]:
    """Run the counted interpreter: its JSON lines, and why it failed."""
    lines: list[dict[str, Any]] = []
    with tempfile.TemporaryFile(mode="w+") as stderr:
        interpreter = process.start(argv, env=child_env(path), stdout=subprocess.PIPE, stderr=stderr, text=True)
        watchdog = process.Watchdog(interpreter, deadline_s)
        if live is not None:
            live.add(interpreter)
        try:
            for text in interpreter.stdout or ():
                line = _json_line(text)
                if line is None:
                    continue  # an algorithm printing on its own stdout: not a line of ours
                lines.append(line)
                if on_counted is not None and "pid" in line:
                    on_counted(str(line["name"]), int(line["n"]))
        finally:
            watchdog.cancel()
            status = process.stop(interpreter)
            if live is not None:
                live.discard(interpreter)
        stderr.seek(0)
        said = _last_line(stderr.read())
    if status == 0:
        return lines, ""
    if watchdog.fired:
        return lines, f"the counting interpreter was stopped after {deadline_s:g} s"
    return lines, f"the counting interpreter failed: {said or f'exit status {status}'}"


def _json_line(text: str) -> dict[str, Any] | None:
    try:
        line = json.loads(text)
    except ValueError:
        return None
    return line if isinstance(line, dict) and "name" in line and "n" in line else None


def _assemble(
    name: str,
    sizes: tuple[int, ...],
    lines: list[dict[str, Any]],
    totals: dict[int, tuple[int, int] | None],
    failure: str,
) -> InstructionCount:
    """One algorithm's count from the interpreter's lines, or why it has none."""
    mine = [line for line in lines if line.get("name") == name]
    errors = [line for line in mine if "error" in line]
    if errors:
        return InstructionCount(sizes=sizes, unavailable=f"failed at n = {errors[0]['n']}: {errors[0]['error']}")
    drains = [line for line in mine if "pid" in line]
    if len(drains) != len(sizes) + 1:
        said = f"{len(drains)} of {len(sizes) + 1} counted drains reported"
        return InstructionCount(sizes=sizes, unavailable=failure or said)
    found = [totals.get(int(line["pid"])) for line in drains]
    counted = [total for total in found if total is not None]
    if len(counted) != len(found):
        return InstructionCount(sizes=sizes, unavailable="cachegrind wrote no readable instruction total for a drain")
    moves = tuple(int(line["moves"]) for line in drains[:-1])
    if any(high <= low for low, high in pairwise(moves)):
        return InstructionCount(sizes=sizes, unavailable=f"no more moves at a larger size ({moves})")
    instructions, allocator = tuple(total for total, _ in counted), tuple(part for _, part in counted)
    return InstructionCount(sizes=sizes, moves=moves, instructions=instructions, allocator=allocator)


def _last_line(text: str) -> str:
    """The last line of *text* that is not one of valgrind's own."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(("--", "=="))]
    return lines[-1] if lines else ""
