"""``hanoi verify``: check algorithms for a range of n, each in a child.

The moves are judged here, where no plugin's code is ever imported.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from hanoi_harness.cli.options import (
    MAX_DISKS,
    add_ends_options,
    add_plugin_option,
    big_numbers,
    disks,
    disks_in,
    ends_for,
    non_negative_int,
    positive_float,
    positive_int,
    workers,
)
from hanoi_harness.core.puzzle import format_config
from hanoi_harness.errors import UsageError
from hanoi_harness.progress import Bar
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import Registry, resolve_spec
from hanoi_harness.sandbox.output import LINES
from hanoi_harness.scale import MAX_SEGMENT, MIN_SEGMENT

if TYPE_CHECKING:  # the sandbox and the scale-out are imported by the command that runs, not by 'hanoi --help'
    from hanoi_harness.sandbox.runner import Job
    from hanoi_harness.scale import ScaleReport

DEFAULT_N_MAX = 12


def add_verify(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi verify`` to *p*."""
    p.description = (
        "Check that each algorithm's moves are legal and optimal and end on its declared peg, "
        f"for n = 0..{DEFAULT_N_MAX} within each one's limits unless told otherwise. Each algorithm runs "
        "in its own child process, so a crash, hang or memory exhaustion is reported for it alone; a crash names "
        "the line of the algorithm's own code it came from. What an algorithm prints goes to stderr: its first "
        f"{LINES} lines, each after the algorithm's name. Exit status 0 when every verdict is ok, 1 otherwise."
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="algorithms to verify (default: all registered)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--n", type=disks, metavar="N", help="verify this n only")
    which.add_argument("--n-max", type=disks, metavar="N", help=f"verify n = 0..N (default {DEFAULT_N_MAX})")
    p.add_argument(
        "--timeout",
        type=positive_float,
        default=60.0,
        metavar="SECONDS",
        help="per algorithm, and for importing the plugins (default 60)",
    )
    p.add_argument(
        "--memory-limit",
        type=non_negative_int,
        default=4096,
        metavar="MB",
        help="address-space limit of each algorithm's process, 0 for none (default 4096)",
    )
    p.add_argument("--jobs", type=non_negative_int, default=0, metavar="J", help="children at once (default: cores)")
    p.add_argument("-v", "--verbose", action="store_true", help="one row per algorithm and n, with digests")
    p.add_argument(
        "--traceback",
        action="store_true",
        help="after the table, print on stderr each crash's traceback, from the algorithm's own code on",
    )
    scale = p.add_mutually_exclusive_group()
    scale.add_argument(
        "--workers",
        type=workers,
        metavar="W",
        help="verify each named algorithm's steps for --n in segments, in W local processes, with the same "
        "verdict and digest (classic-puzzle algorithms that can start at any step only)",
    )
    scale.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="verify those segments on the Dask scheduler at ADDRESS, e.g. tcp://host:8786 (pip install "
        "'hanoi-harness[distributed]')",
    )
    p.add_argument(
        "--segment-size",
        type=positive_int,
        metavar="MOVES",
        help="moves per segment with --workers/--dask (default: about 16 segments per worker, "
        f"between {MIN_SEGMENT} and {MAX_SEGMENT})",
    )
    add_ends_options(p, MAX_DISKS)
    add_plugin_option(p, import_timeout=False)  # --timeout bounds the imports too
    p.set_defaults(func=cmd_verify)


PARSERS = {"verify": add_verify}


def sizes_for(algorithm: Algorithm, n: int | None, n_max: int | None, explicit: bool) -> list[int]:
    """Return *n* alone, or *algorithm*'s n up to *n_max*, within its limits.

    An *explicit* algorithm given an ``--n`` outside them is a usage error.
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
    from hanoi_harness import process
    from hanoi_harness.registry.probe import catalog
    from hanoi_harness.sandbox.runner import run_jobs

    process.check_memory_limit(args.memory_limit)  # n and --workers need none: their types bound them
    args.plugin = [resolve_spec(spec) for spec in args.plugin]  # before any plugin code runs anywhere
    registry = catalog(args.plugin, timeout=args.timeout)
    plugin_names = [a.name for a in registry if a.origin.startswith("plugin ")]
    named = list(dict.fromkeys(args.names + plugin_names))  # the named algorithms and plugins
    skipped: list[list[str]] = []
    if args.start is not None or args.goal is not None:
        jobs = _jobs_between(args, registry, named)
    elif args.workers or args.dask:  # the named algorithms and plugins only, never the whole registry
        return _verify_segmented(args, registry, named)
    else:
        if args.segment_size:
            raise UsageError("--segment-size applies to --workers or --dask")
        jobs, skipped = _jobs(args, registry, named if args.names else registry.names(), plugin_names)
    if not jobs:
        raise UsageError("nothing to verify: no algorithm accepts the requested n")

    bar = Bar(unit="algorithm")
    bar.phase("verifying", len(jobs))

    def done(job: Job) -> None:
        bar.step(job.name)
        for line in job.printed.told(job.name):
            bar.say(line)

    try:
        run_jobs(
            jobs,
            args.plugin,
            timeout=args.timeout,
            workers=args.jobs or None,
            memory_mb=args.memory_limit or None,
            on_done=done,
            registry=registry,
        )
    finally:
        bar.close()
    with big_numbers():  # a step or a count of any size prints, whatever Python's 4300-digit limit
        rows = _rows(jobs, args.verbose) + skipped
        print(_table(rows, 80), flush=True)
    if args.traceback:
        _tracebacks(jobs)
    return 0 if all(job.ok for job in jobs) else 1


def _tracebacks(jobs: list[Job]) -> None:
    """Print on stderr each distinct traceback of the crashes of *jobs*."""
    seen: dict[str, str] = {}
    for job in jobs:
        for verdict in job.verdicts:
            told = (verdict.extra.get("traceback") or "").rstrip()
            if not told:
                continue
            head = f"{job.name}, n = {verdict.n}: {verdict.describe()}"
            if told in seen:
                print(f"{head}: the same traceback as {seen[told]}", file=sys.stderr)
                continue
            seen[told] = f"{job.name}, n = {verdict.n}"
            print(f"{head}\n{told}", file=sys.stderr)


def _jobs(
    args: argparse.Namespace, registry: Registry, names: list[str], plugin_names: list[str]
) -> tuple[list[Job], list[list[str]]]:
    """Return the jobs of *names*, and rows for those with no n to verify."""
    from hanoi_harness.sandbox.runner import Job

    jobs: list[Job] = []
    skipped: list[list[str]] = []
    for name in names:
        algorithm = registry.get(name)
        ns = sizes_for(algorithm, args.n, args.n_max, bool(args.names) or name in plugin_names)
        if ns:
            jobs.append(Job(name, ns))
        else:
            skipped.append([name, "-", "skipped", f"n = {args.n} is outside {algorithm.limits()}"])
    return jobs, skipped


def _jobs_between(args: argparse.Namespace, registry: Registry, names: list[str]) -> list[Job]:
    """Return one job per named algorithm between ``--from`` and ``--to``.

    Every refusal comes before any work.
    """
    if args.workers or args.dask:
        raise UsageError(
            "--workers/--dask split the run from the whole tower on peg 0 (each segment starts on its optimal "
            "path): they take no --from/--to"
        )
    if args.n_max is not None:
        raise UsageError("--from/--to give the number of disks: use --n N (or neither), not --n-max")
    if not names:
        raise UsageError(
            "--from/--to: name the algorithms to verify, e.g. 'hanoi verify any_state --from 0,1 --to 2,2'"
        )
    from hanoi_harness.sandbox.runner import Job

    n = args.n if args.n is not None else disks_in(args.start if args.start is not None else args.goal)
    jobs = []
    for name in names:
        algorithm = registry.get(name)
        algorithm.check_n(n)
        jobs.append(Job(name, [n], ends=ends_for(args, algorithm, n)))
    return jobs


def _table(rows: list[list[str]], width: int) -> str:
    from tabulate import tabulate

    return tabulate(
        rows, headers=["algorithm", "n", "verdict", "detail"], tablefmt="simple", maxcolwidths=[None, None, None, width]
    )


def _verify_segmented(args: argparse.Namespace, registry: Registry, names: list[str]) -> int:
    """Verify each named algorithm's steps for ``--n`` in segments."""
    from hanoi_harness.scale import check_solve_from, splittable

    if not names:
        raise UsageError("--workers/--dask split one algorithm's steps: name the algorithm (NAME)")
    if args.n is None:
        raise UsageError("--workers/--dask verify one tower: give --n N")
    memory_mb = args.memory_limit or None
    for name in names:  # refuse before any work starts
        splittable(registry.get(name), args.n)
    for name in names:
        check_solve_from(registry.get(name), args.n, timeout=args.timeout, memory_mb=memory_mb)
    reports = [_scaled(args, name, memory_mb) for name in names]
    with big_numbers():  # a step or a count of any size prints, whatever Python's 4300-digit limit
        rows = [
            [name, str(args.n), report.verdict.status, report.describe()]
            for name, report in zip(names, reports, strict=True)
        ]
    print(_table(rows, 100))
    return 0 if all(report.verdict.ok for report in reports) else 1


def _scaled(args: argparse.Namespace, name: str, memory_mb: int | None) -> ScaleReport:
    """Run one algorithm in segments, with a bar of moves and events on stderr."""
    from hanoi_harness.scale import verify_scaled

    bar = Bar(unit="move", unit_scale=True)
    bar.phase(f"{name} n={args.n}", (1 << args.n) - 1 if args.n <= 60 else None)
    try:
        return verify_scaled(
            name,
            args.n,
            args.plugin,
            workers=args.workers or 1,
            dask=args.dask,
            segment_size=args.segment_size,
            timeout=args.timeout,
            memory_mb=memory_mb,
            on_segment=lambda segment: bar.advance(segment.size),
            on_event=lambda message: bar.say(f"hanoi: {message}"),
            preflight=False,
        )
    finally:
        bar.close()


def _span(ns: list[int]) -> str:
    return str(ns[0]) if len(ns) == 1 else f"{ns[0]}..{ns[-1]}"


def _rows(jobs: list[Job], verbose: bool) -> list[list[str]]:
    rows: list[list[str]] = []
    for job in jobs:
        if job.ends is not None:
            rows.append(_row_between(job))
            continue
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


def _row_between(job: Job) -> list[str]:
    """Return the row of a job between two configurations."""
    assert job.ends is not None
    between = f"from {format_config(job.ends[0])} to {format_config(job.ends[1])}: "
    if not job.verdicts:  # interrupted before its verdict
        return [job.name, str(job.ns[0]), "-", between + "no verdict"]
    v = job.verdicts[0]
    return [job.name, str(v.n), v.status, between + v.describe() + (f"; digest {v.digest}" if v.ok else "")]
