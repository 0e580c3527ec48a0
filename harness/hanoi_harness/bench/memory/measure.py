"""Peak memory of a drain, two ways, in runs separate from timing."""

from __future__ import annotations

import subprocess
import tracemalloc
from collections.abc import Sequence
from typing import Annotated

import msgspec

from hanoi_harness import process
from hanoi_harness.bench.consume import consume
from hanoi_harness.registry.record import Algorithm

RSS_INTERVAL_S = 0.002  #: memory-profiler's sampling interval in the child, in seconds.


def tracemalloc_peak(algorithm: Algorithm, n: int) -> int:
    """Return the peak bytes traced while *algorithm*'s n-disk run is read.

    >>> from hanoi_harness.registry.sources import build_registry
    >>> recursive = build_registry(entry_points=False).get("recursive")
    >>> tracemalloc_peak(recursive, 4) < tracemalloc_peak(recursive, 12)
    True
    """
    consume(algorithm, n)
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        consume(algorithm, n)
        return max(0, tracemalloc.get_traced_memory()[1] - base)
    finally:
        if started:
            tracemalloc.stop()


Mib = Annotated[float, msgspec.Meta(ge=0.0, le=2.0**30)]


class Rss(msgspec.Struct, frozen=True):
    """A child's peak RSS while draining, and its RSS just before."""

    peak_mib: Mib
    baseline_mib: Mib
    numpy: bool | None = None

    @property
    def growth_mib(self) -> float:
        return max(0.0, self.peak_mib - self.baseline_mib)


def rss_peak(name: str, n: int, plugins: Sequence[str], timeout_s: float) -> Rss | str:
    """The peak RSS of a fresh child draining algorithm *name* at *n*."""
    argv = process.python_command("hanoi_harness.bench.memory.child", name, str(n), str(RSS_INTERVAL_S), *plugins)
    proc = process.start(
        argv, env=process.python_environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        stdout, stderr = process.communicate(proc, None, timeout_s)
    except subprocess.TimeoutExpired:
        return f"no result within {timeout_s:g} s"
    finally:
        code = process.stop(proc)
    if code != 0:
        lines = [line for line in stderr.splitlines() if line.strip()]
        return lines[-1] if lines else process.describe_exit(code, "the child")
    try:
        return msgspec.json.decode(stdout.strip().splitlines()[-1], type=Rss)
    except (msgspec.DecodeError, IndexError):
        return f"unreadable output from the child: {stdout[-200:]!r}"
