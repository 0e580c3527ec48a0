"""Time segmented verification against plain ``hanoi verify``.

It times ``hanoi verify NAME --n N`` alone, then with ``--workers 1`` and
``--workers W``.  Each run is the real command in a fresh process
(``python -P -m hanoi_harness verify ...``), started as every child of the
harness is (:mod:`hanoi_harness.process`).  It is timed from start
to exit, so pool start-up and every overhead count.

The three are interleaved and repeated.  The best time of each is kept, as
the least disturbed by other jobs on the machine.  The load average before
and after is printed, so a reader can judge the figures.  Every run must
print the same digest, or the benchmark fails.

    python -m benchmarks.scaling --name bitwise --n 26 --workers 2 --repeat 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from tabulate import tabulate

from hanoi_harness import process


@dataclass
class Run:
    """One configuration: its command-line options, times and digest.

    The times are in seconds; the digest is the one the command printed.
    """

    label: str
    options: list[str]
    times: list[float]
    digest: str = ""

    @property
    def best(self) -> float:
        return min(self.times)


def time_verify(name: str, n: int, options: Sequence[str]) -> tuple[float, str]:
    """Time ``hanoi verify NAME --n N OPTIONS``: its seconds and its digest.

    The digest is the one the command printed.
    """
    argv = process.python_command("hanoi_harness", "verify", name, "--n", str(n), "--timeout", "86400", *options)
    began = time.perf_counter()
    proc = process.run(
        argv, env=process.python_environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    seconds = time.perf_counter() - began
    if proc.returncode != 0 or "digest " not in proc.stdout:
        raise RuntimeError(f"{' '.join(argv[3:])} failed ({proc.returncode}): {proc.stdout}{proc.stderr}")
    return seconds, proc.stdout.split("digest ")[1].split(";")[0].split()[0]


def measure(name: str, n: int, workers: int, repeat: int) -> list[Run]:
    """Time the three runs of algorithm *name* at *n*, *repeat* times each.

    The runs are interleaved; each keeps all its times.
    """
    runs = [
        Run("sequential (hanoi verify)", [], []),
        Run("segmented, --workers 1", ["--workers", "1"], []),
        Run(f"segmented, --workers {workers}", ["--workers", str(workers)], []),
    ]
    for _ in range(repeat):
        for run in runs:
            seconds, digest = time_verify(name, n, run.options)
            if run.digest and digest != run.digest:
                raise RuntimeError(f"{run.label}: digest {digest} differs from its earlier {run.digest}")
            run.times.append(seconds)
            run.digest = digest
    digests = {run.digest for run in runs}
    if len(digests) != 1:
        raise RuntimeError(f"the runs printed different digests: {sorted(digests)}")
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    """Time the runs the command line *argv* asks for, and print them.

    *argv* defaults to this process's.  Returns the exit status.
    """
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.scaling",
        description="Time hanoi verify NAME --n N alone, with --workers 1 and with --workers W.",
    )
    parser.add_argument("--name", default="bitwise", help="an algorithm that can start at any step (default bitwise)")
    parser.add_argument("--n", type=int, default=26, help="disks (default 26: 67M moves)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes to compare with one (default 2)")
    parser.add_argument("--repeat", type=int, default=2, help="times each run is repeated; the best counts (default 2)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures to FILE (atomically)")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()
    runs = measure(args.name, args.n, args.workers, args.repeat)
    load_after = os.getloadavg()
    moves = (1 << args.n) - 1
    rows = [
        [run.label, f"{run.best:.2f}", " ".join(f"{t:.2f}" for t in run.times), f"{moves / run.best / 1e6:.2f}"]
        for run in runs
    ]
    print(f"{args.name}, n = {args.n} ({moves} moves), digest {runs[0].digest}, {os.cpu_count()} cores")
    print(tabulate(rows, headers=["run", "best s", "all s", "M moves/s"], tablefmt="simple"))
    sequential, one, many = runs
    speedup = one.best / many.best
    print(f"speed-up, --workers {args.workers} over --workers 1: {speedup:.2f}x")
    print(f"speed-up, --workers {args.workers} over sequential: {sequential.best / many.best:.2f}x")
    print(f"load average (1 min) before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    if args.json:
        figures = {
            "name": args.name,
            "n": args.n,
            "workers": args.workers,
            "runs": [asdict(run) | {"best": run.best} for run in runs],
            "speedup_over_one_worker": speedup,
            "speedup_over_sequential": sequential.best / many.best,
            "load_before": load_before,
            "load_after": load_after,
        }
        # Written beside the target and renamed over it: an interrupted run leaves no half file.
        with tempfile.NamedTemporaryFile("w", dir=args.json.parent or ".", suffix=".tmp", delete=False) as tmp:
            json.dump(figures, tmp, indent=2)
        os.replace(tmp.name, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
