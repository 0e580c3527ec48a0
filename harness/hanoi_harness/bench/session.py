"""Run one ``hanoi bench`` or ``hanoi report`` from start to end.

:func:`plan` decides what a bench measures: ``--quick`` a quick run,
``--sizes`` exactly those sizes, and neither the full run.  The full run
measures the quick baseline first (into ``quick/``, the set CI compares
against) and the C reference last.

Then :func:`bench` claims the output directory before measuring
(:class:`~hanoi_harness.bench.results.outdir.OutDir`: refused in one line
when it is not a result set of ours, and locked).  It runs the
plan and writes the set: ``results.json``, pytest-benchmark's report, every
view rendered from ``results.json`` alone, and the marker.  Then the old set
is replaced in one step.

With ``--peers`` (:mod:`hanoi_harness.bench.peers`), the peers and the
project's algorithms they are paired with are measured after the project's
run, with its settings, into a set of their own, ``peers/``.

The command ``hanoi report`` (:func:`report`) renders an existing set
again, and writes it the same way.
"""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hanoi_harness.bench import cref, startup
from hanoi_harness.bench.commands import Command
from hanoi_harness.bench.peers import DIRECTORY as PEERS_DIR
from hanoi_harness.bench.peers import Peers, head_to_head
from hanoi_harness.bench.plan import FULL, QUICK, Settings
from hanoi_harness.bench.report.render import render
from hanoi_harness.bench.results.outdir import MARKER, OutDir, seal, why_not_ours
from hanoi_harness.bench.results.resultset import RESULTS_FILE, AlgorithmResult, ResultSet, load, results_path
from hanoi_harness.bench.run import run
from hanoi_harness.bench.timing.measure import check_available
from hanoi_harness.errors import UsageError
from hanoi_harness.progress import Progress
from hanoi_harness.registry.record import Algorithm

QUICK_DIR = "quick"
"""Where a full run puts its quick baseline, inside its output directory."""

PYTEST_REPORT = "pytest-benchmark.json"
"""pytest-benchmark's own report of the timing, kept beside results.json."""

CREF_N = 28
"""The n of a full run's C-reference comparison (:func:`.cref.measure`).

2^28 - 1 moves, 768 MiB of output.
"""


@dataclass(frozen=True)
class Plan:
    """What one bench measures: a run, and the runs it may add.

    The run uses *settings*; *baseline* adds a quick run first, and
    *c_reference* the C reference last.  *startup_runs* is how many
    processes the start-up is measured over (0: not measured).
    """

    settings: Settings
    baseline: bool
    c_reference: bool
    startup_runs: int = 0


def plan(quick: bool, sizes: Sequence[int] | None) -> Plan:
    """Return the plan for ``--quick`` (*quick*) and ``--sizes`` (*sizes*).

    *sizes* is None when the option is not given.  Only a run without
    ``--sizes`` measures the start-up.

    >>> plan(False, None).baseline, plan(False, [3, 4]).baseline, plan(False, [3, 4]).settings.sizes
    (True, False, (3, 4))
    >>> plan(True, None).startup_runs > 0, plan(True, [3]).startup_runs
    (True, 0)
    """
    if sizes is not None:
        return Plan((QUICK if quick else FULL).with_sizes(sizes), baseline=False, c_reference=False)
    if quick:
        return Plan(QUICK, baseline=False, c_reference=False, startup_runs=startup.QUICK_RUNS)
    return Plan(FULL, baseline=True, c_reference=True, startup_runs=startup.RUNS)


Measured = tuple[ResultSet, dict[str, Any]]
"""A run's result set and pytest-benchmark's report of it."""


@dataclass(frozen=True)
class Outcome:
    """What a bench wrote: the directory *out*, its *results* and *peers*."""

    out: Path
    results: ResultSet
    peers: ResultSet | None = None

    @property
    def failed(self) -> list[str]:
        """The names that failed their check (reported, not measured).

        One of the peers' set is ``peers/NAME``.
        """
        return [name for name, _ in self.failures]

    @property
    def failures(self) -> list[tuple[str, AlgorithmResult]]:
        """Each record that failed its check, under its name in :attr:`failed`."""
        sets = [("", self.results), *([(f"{PEERS_DIR}/", self.peers)] if self.peers is not None else [])]
        return [
            (prefix + name, result)
            for prefix, found in sets
            for name, result in found.algorithms.items()
            if result.status != "ok"
        ]


def _failed(result: AlgorithmResult) -> bool:
    return result.status != "ok"


def bench(
    algorithms: Sequence[Algorithm],
    plugins: Sequence[str],
    commands: Sequence[Command],
    what: Plan,
    out: Path,
    progress: Progress | None = None,
    peers: Peers | None = None,
) -> Outcome:
    """Measure *algorithms* and *commands* as *what* says; write the set.

    The set goes into *out*, replacing the old one.  *plugins* are the
    ``--plugin`` specs, for the child processes; *peers*, when given, are
    measured into ``peers/`` after the rest.  Refused in one line
    (:class:`UsageError`) before measuring: pytest-benchmark missing, and
    anything about *out* that would fail at the end.
    """
    problem = check_available()
    if problem:
        raise UsageError(problem)
    hooks = progress or Progress()
    with OutDir(out) as target:
        try:
            results, report, baseline, theirs = _measure(algorithms, plugins, commands, what, hooks, peers)
        except OSError as exc:
            if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            # pytest-benchmark and the children write their files in the temporary directory, not in --out.
            raise UsageError(f"no space left on the device for the run's temporary files ({exc})") from None
        target.commit(lambda staging: _fill(staging, (results, report), baseline, theirs))
    return Outcome(target.out, results, theirs[0] if theirs is not None else None)


def _measure(
    algorithms: Sequence[Algorithm],
    plugins: Sequence[str],
    commands: Sequence[Command],
    what: Plan,
    hooks: Progress,
    peers: Peers | None = None,
) -> tuple[ResultSet, dict[str, Any], Measured | None, Measured | None]:
    """Run *what*: return the result set, its report, the baseline and peers.

    The report is pytest-benchmark's.  The quick baseline and the *peers*
    are each a set and its report, or None.  The peers come after the
    project's run and before the C reference, which is last.
    """
    baseline: Measured | None = None
    started = time.monotonic()
    if what.baseline:
        # The baseline first: measured after minutes of work in this process, its relative times drift from
        # those of a fresh 'hanoi bench --quick', which is what CI compares with it.
        baseline = run(algorithms, plugins, QUICK, _Prefixed(hooks, "quick baseline: "), commands)
    baseline_s = time.monotonic() - started
    results, report = run(algorithms, plugins, what.settings, hooks, commands, what.startup_runs)
    if baseline is not None:
        results.durations_s = {"quick baseline": round(baseline_s, 1), **results.durations_s}
    theirs = _peers(peers, what, hooks) if peers else None
    if theirs is not None:
        results.durations_s["peers"] = round(sum(theirs[0].durations_s.values()), 1)
    if what.c_reference:
        results.c_reference, seconds = _c_reference(hooks)
        results.durations_s["C reference"] = round(seconds, 1)
    return results, report, baseline, theirs


def _peers(peers: Peers, what: Plan, hooks: Progress) -> Measured:
    """Measure *peers* (theirs and ours), then each pair head to head.

    The run uses *what*'s settings.  Returns the peers' set and report.
    """
    results, report = run(peers.algorithms, peers.specs, what.settings, _Prefixed(hooks, "peers: "))
    results.peers = peers.pairs
    hooks.phase(f"peers: head to head ({len(peers.pairs)} pairs)", None)
    started = time.monotonic()
    results.peers = head_to_head(results, {algorithm.name: algorithm for algorithm in peers.algorithms})
    results.durations_s["head to head"] = round(time.monotonic() - started, 1)
    hooks.close()
    return results, report


def _fill(staging: Path, run: Measured, baseline: Measured | None, peers: Measured | None) -> None:
    """Write the set into *staging*: the nested sets, then the run's files.

    The nested sets are the quick baseline and the peers.  Every view is
    rendered from the sets in memory.
    """
    for name, nested, views in ((QUICK_DIR, baseline, False), (PEERS_DIR, peers, True)):
        if nested is not None:
            directory = staging / name
            directory.mkdir()
            _write_run(directory, *nested)
            if views:
                render(nested[0], directory)
            seal(directory)
    _write_run(staging, *run)
    render(run[0], staging, peers[0] if peers is not None else None)


def _nested_peers(directory: Path) -> ResultSet | None:
    """Return the peers' set inside the result set *directory*, or None."""
    nested = directory / PEERS_DIR
    return load(nested) if nested.is_dir() and not why_not_ours(nested) else None


def _write_run(directory: Path, results: ResultSet, report: dict[str, Any]) -> None:
    """Write results.json and pytest-benchmark's report into *directory*.

    The report is written only when there is one.
    """
    (directory / RESULTS_FILE).write_text(results.dumps())
    if report:
        text = json.dumps(report, indent=2)
        (directory / PYTEST_REPORT).write_text("{" + text[1:].lstrip() + "\n")


def _c_reference(progress: Progress) -> tuple[dict[str, Any], float]:
    """Return the C reference's figures at :data:`CREF_N`, and its seconds.

    The figures are :func:`hanoi_harness.bench.cref.measure`'s.  It runs
    after every other phase, so it does not share the machine with the
    timing.  A compiler that fails, or a program that does, is the skip
    reason rather than the end of a run minutes long.
    """
    progress.phase(f"C reference (n = {CREF_N})", None)
    started = time.monotonic()
    try:
        found = cref.measure(CREF_N)
    except (subprocess.CalledProcessError, OSError) as exc:
        said = (getattr(exc, "stderr", None) or b"").decode(errors="replace").strip().splitlines()
        found = {"n": CREF_N, "skipped": f"the C reference failed: {exc}" + (f": {said[-1]}" if said else "")}
    progress.close()
    return found, time.monotonic() - started


def report(source: Path, out: Path | None = None) -> Path:
    """Render the set at *source* again, into *out* or in place.

    *source* is a results directory or a results.json.  Nothing is
    measured: results.json is copied as it is, with pytest-benchmark's
    report and the ``quick/`` and ``peers/`` sets beside it.  Every view is
    rendered from it.  *source* is read and checked first.  The directory
    written is claimed like a bench's output (in place, *source* must be a
    result set of ours).  Returns the directory written.
    """
    results = load(source)  # read and checked before anything is claimed
    file = results_path(source)
    folder = file.parent
    with OutDir(out if out is not None else folder, label="--out" if out is not None else "") as target:
        target.commit(lambda staging: _copy_and_render(file, staging, results))
    return target.out


def _copy_and_render(file: Path, staging: Path, results: ResultSet) -> None:
    """Copy the results.json at *file* into *staging*; render *results* there.

    *results* is the set read from *file*.  What a set keeps beside
    results.json is copied too.
    """
    shutil.copyfile(file, staging / RESULTS_FILE)
    folder = file.parent
    if file.name == RESULTS_FILE and (folder / PYTEST_REPORT).is_file():
        shutil.copyfile(folder / PYTEST_REPORT, staging / PYTEST_REPORT)
    for name in (QUICK_DIR, PEERS_DIR):
        nested = folder / name
        if file.name == RESULTS_FILE and nested.is_dir() and not why_not_ours(nested):
            if name == QUICK_DIR:
                shutil.copytree(nested, staging / name)
                continue
            # The peers' measurements alone: their views are rendered again below, so none of an older
            # version's (a plot since renamed, say) is left behind.
            (staging / name).mkdir()
            for kept in (MARKER, RESULTS_FILE, PYTEST_REPORT):
                if (nested / kept).is_file():
                    shutil.copyfile(nested / kept, staging / name / kept)
    peers = _nested_peers(staging)
    if peers is not None:  # its views too, from its results.json
        render(peers, staging / PEERS_DIR)
        seal(staging / PEERS_DIR)
    render(results, staging, peers)


class _Prefixed(Progress):
    """Progress that reports to *inner*, each phase's name after *prefix*."""

    def __init__(self, inner: Progress, prefix: str) -> None:
        self.inner = inner
        self.prefix = prefix

    def phase(self, description: str, total: int | None) -> None:
        self.inner.phase(self.prefix + description, total)

    def step(self, label: str) -> None:
        self.inner.step(label)

    def close(self) -> None:
        self.inner.close()
