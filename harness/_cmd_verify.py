"""``hanoi verify``: check algorithms for a range of n, each in its own child process."""

from __future__ import annotations

import argparse
import sys

from tabulate import tabulate

from hanoi_harness._cli_common import (
    add_plugin_option,
    disks,
    non_negative_int,
    positive_float,
    positive_int,
    registry_from,
    workers,
)
from hanoi_harness.errors import UsageError
from hanoi_harness.registry import Algorithm
from hanoi_harness.runner import Job, run_jobs
from hanoi_harness.scale import MAX_CHUNK, MIN_CHUNK, ChunkResult, splittable, verify_scaled

DEFAULT_N_MAX = 12


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "verify",
        help="check algorithms for legality and optimality",
        description="Check that each algorithm's moves are legal and optimal and end on its declared peg, "
        f"for n = 0..{DEFAULT_N_MAX} within each one's limits unless told otherwise. Each algorithm runs "
        "in its own child process, so a crash, hang or memory exhaustion is reported for it alone. "
        "Exit status 0 when every verdict is ok, 1 otherwise.",
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="algorithms to verify (default: all registered)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--n", type=disks, metavar="N", help="verify this n only")
    which.add_argument("--n-max", type=disks, metavar="N", help=f"verify n = 0..N (default {DEFAULT_N_MAX})")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="SECONDS", help="per algorithm (default 60)")
    p.add_argument(
        "--memory-limit",
        type=non_negative_int,
        default=4096,
        metavar="MB",
        help="address-space limit of each child process, 0 for none (default 4096)",
    )
    p.add_argument("--jobs", type=non_negative_int, default=0, metavar="J", help="children at once (default: cores)")
    p.add_argument("-v", "--verbose", action="store_true", help="one row per algorithm and n, with digests")
    scale = p.add_mutually_exclusive_group()
    scale.add_argument(
        "--workers",
        type=workers,
        metavar="W",
        help="split each named algorithm's steps for --n into chunks verified by W local processes "
        "(only for algorithms that can start at any step); same verdict and digest as one process",
    )
    scale.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="verify those chunks on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786); "
        "needs pip install 'hanoi-harness[distributed]'",
    )
    p.add_argument(
        "--chunk-size",
        type=positive_int,
        metavar="MOVES",
        help="moves per chunk with --workers/--dask (default: about 16 chunks per worker, "
        f"between {MIN_CHUNK} and {MAX_CHUNK})",
    )
    add_plugin_option(p)
    p.set_defaults(func=cmd_verify)


def sizes_for(algorithm: Algorithm, n: int | None, n_max: int | None, explicit: bool) -> list[int]:
    """sizes_for(algorithm, n, n_max, explicit): the n to verify, within the algorithm's limits.

    An explicitly named algorithm given an ``--n`` outside its limits is a
    usage error; for the default set it is skipped.
    """
    if n is not None:
        if explicit:
            algorithm.check_n(n)
        lo_ok = n >= algorithm.min_n
        hi_ok = algorithm.max_n is None or n <= algorithm.max_n
        return [n] if lo_ok and hi_ok else []
    top = DEFAULT_N_MAX if n_max is None else n_max
    if algorithm.max_n is not None:
        top = min(top, algorithm.max_n)
    return list(range(algorithm.min_n, top + 1))


def cmd_verify(args: argparse.Namespace) -> int:
    registry = registry_from(args)
    plugin_names = [a.name for a in registry if a.origin.startswith("plugin ")]
    explicit = bool(args.names)
    names = list(dict.fromkeys(args.names + plugin_names)) if explicit else registry.names()
    if args.workers or args.dask:  # the named algorithms and plugins only, never the whole registry
        return _verify_chunked(args, list(dict.fromkeys(args.names + plugin_names)))
    if args.chunk_size:
        raise UsageError("--chunk-size applies to --workers or --dask")
    jobs: list[Job] = []
    skipped: list[list[str]] = []
    for name in names:
        algorithm = registry.get(name)
        ns = sizes_for(algorithm, args.n, args.n_max, explicit or name in plugin_names)
        if ns:
            jobs.append(Job(name, ns))
        else:
            skipped.append([name, "-", "skipped", f"n = {args.n} is outside {algorithm.limits()}"])
    if not jobs:
        raise UsageError("nothing to verify: no algorithm accepts the requested n")

    progress = _Progress(len(jobs))
    run_jobs(
        jobs,
        args.plugin,
        timeout=args.timeout,
        workers=args.jobs or None,
        memory_mb=args.memory_limit or None,
        on_done=progress.update,
    )
    progress.close()
    rows = _rows(jobs, args.verbose) + skipped
    headers = ["algorithm", "n", "verdict", "detail"]
    print(tabulate(rows, headers=headers, tablefmt="simple", maxcolwidths=[None, None, None, 80]))
    return 0 if all(job.ok for job in jobs) else 1


def _verify_chunked(args: argparse.Namespace, names: list[str]) -> int:
    """hanoi verify NAME --n N --workers W | --dask ADDRESS: each named algorithm's steps in chunks."""
    if not names:
        raise UsageError("--workers/--dask split one algorithm's steps: name the algorithm (NAME)")
    if args.n is None:
        raise UsageError("--workers/--dask verify one tower: give --n N")
    registry = registry_from(args)
    for name in names:  # refuse before any work starts
        splittable(registry.get(name), args.n)
    rows: list[list[str]] = []
    ok = True
    for name in names:
        progress = _MoveProgress(name, args.n)
        try:
            report = verify_scaled(
                name,
                args.n,
                args.plugin,
                workers=args.workers or 1,
                dask=args.dask,
                chunk_size=args.chunk_size,
                timeout=args.timeout,
                memory_mb=args.memory_limit or None,
                on_chunk=progress.update,
                on_event=progress.event,
            )
        finally:
            progress.close()
        ok = ok and report.verdict.ok
        rows.append([name, str(args.n), report.verdict.status, report.describe()])
    print(
        tabulate(
            rows,
            headers=["algorithm", "n", "verdict", "detail"],
            tablefmt="simple",
            maxcolwidths=[None, None, None, 100],
        )
    )
    return 0 if ok else 1


def _span(ns: list[int]) -> str:
    return str(ns[0]) if len(ns) == 1 else f"{ns[0]}..{ns[-1]}"


def _rows(jobs: list[Job], verbose: bool) -> list[list[str]]:
    rows: list[list[str]] = []
    for job in jobs:
        if verbose:
            for v in job.verdicts:
                rows.append([job.name, str(v.n), v.status, v.describe() + f"; digest {v.digest}"])
            continue
        bad = next((v for v in job.verdicts if not v.ok), None)
        if bad is None and len(job.verdicts) == 1:  # one n: the digest, to compare with --workers/--dask
            v = job.verdicts[0]
            rows.append([job.name, str(v.n), "ok", f"{v.describe()}; digest {v.digest}"])
        elif bad is None:
            total = sum(v.moves for v in job.verdicts)
            claim = job.verdicts[-1].optimality  # another puzzle's optimality status; the largest n's is the weakest
            detail = f"{len(job.ns)} sizes, {total} moves replayed" + (f"; {claim}" if claim else "")
            rows.append([job.name, _span(job.ns), "ok", detail])
        else:
            rows.append([job.name, _span(job.ns), bad.status, f"n = {bad.n}: {bad.describe()}"])
    return rows


class _MoveProgress:
    """Moves verified, moves/s and the time left, on stderr when it is a terminal; worker deaths always."""

    def __init__(self, name: str, n: int) -> None:
        self.bar = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(
                total=(1 << n) - 1, unit="move", unit_scale=True, desc=f"{name} n={n}", file=sys.stderr, leave=False
            )

    def update(self, chunk: ChunkResult) -> None:
        if self.bar is not None:
            self.bar.update(chunk.size)

    def event(self, message: str) -> None:
        line = f"hanoi: {message}"
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _Progress:
    """A progress bar on stderr when it is a terminal; silent otherwise."""

    def __init__(self, total: int) -> None:
        self.bar = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="algorithm", desc="verifying", file=sys.stderr, leave=False)

    def update(self, job: Job) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(job.name)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
