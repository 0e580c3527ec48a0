"""Run one ``hanoi bench`` or ``hanoi report`` from start to end."""

from __future__ import annotations

import errno
import json
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hanoi_harness.bench.plan import FULL, QUICK, Settings
from hanoi_harness.bench.report.render import render
from hanoi_harness.bench.results.outdir import OutDir, seal, why_not_ours
from hanoi_harness.bench.results.resultset import RESULTS_FILE, AlgorithmResult, ResultSet, load, results_path
from hanoi_harness.bench.run import run
from hanoi_harness.bench.shell import Command
from hanoi_harness.bench.timing.measure import check_available
from hanoi_harness.errors import UsageError
from hanoi_harness.progress import Progress
from hanoi_harness.registry.record import Algorithm

QUICK_DIR = "quick"  #: Where a full run puts its quick baseline, inside its output directory.

PYTEST_REPORT = "pytest-benchmark.json"  #: pytest-benchmark's own report of the timing, kept beside results.json.


@dataclass(frozen=True)
class Plan:
    """What one bench measures: a run, and the runs it may add."""

    settings: Settings
    baseline: bool


def plan(quick: bool, sizes: Sequence[int] | None) -> Plan:
    """Return the plan for ``--quick`` (*quick*) and ``--sizes`` (*sizes*).

    >>> plan(False, None).baseline, plan(False, [3, 4]).baseline, plan(False, [3, 4]).settings.sizes
    (True, False, (3, 4))
    """
    if sizes is not None:
        return Plan((QUICK if quick else FULL).with_sizes(sizes), baseline=False)
    return Plan(QUICK if quick else FULL, baseline=not quick)


Measured = tuple[ResultSet, dict[str, Any]]  #: A run's result set and pytest-benchmark's report of it.


@dataclass(frozen=True)
class Outcome:
    """What a bench wrote: the directory *out* and its *results*."""

    out: Path
    results: ResultSet

    @property
    def failed(self) -> list[str]:
        """The names that failed their check (reported, not measured)."""
        return [name for name, _ in self.failures]

    @property
    def failures(self) -> list[tuple[str, AlgorithmResult]]:
        """Each record that failed its check, under its name in :attr:`failed`."""
        return [(name, result) for name, result in self.results.algorithms.items() if result.status != "ok"]


def bench(
    algorithms: Sequence[Algorithm],
    plugins: Sequence[str],
    commands: Sequence[Command],
    what: Plan,
    out: Path,
    progress: Progress | None = None,
) -> Outcome:
    """Measure *algorithms* and *commands* as *what* says; write the set."""
    problem = check_available()
    if problem:
        raise UsageError(problem)
    hooks = progress or Progress()
    with OutDir(out) as target:
        try:
            results, report, baseline = _measure(algorithms, plugins, commands, what, hooks)
        except OSError as exc:
            if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            # pytest-benchmark and the children write their files in the temporary directory, not in --out.
            raise UsageError(f"no space left on the device for the run's temporary files ({exc})") from None
        target.commit(lambda staging: _fill(staging, (results, report), baseline))
    return Outcome(target.out, results)


def _measure(
    algorithms: Sequence[Algorithm],
    plugins: Sequence[str],
    commands: Sequence[Command],
    what: Plan,
    hooks: Progress,
) -> tuple[ResultSet, dict[str, Any], Measured | None]:
    """Run *what*: return the result set, its report and the baseline."""
    baseline: Measured | None = None
    started = time.monotonic()
    if what.baseline:
        # The baseline first: measured after minutes of work in this process, its relative times drift from
        # those of a fresh 'hanoi bench --quick', which is what CI compares with it.
        baseline = run(algorithms, plugins, QUICK, _Prefixed(hooks, "quick baseline: "), commands)
    baseline_s = time.monotonic() - started
    results, report = run(algorithms, plugins, what.settings, hooks, commands)
    if baseline is not None:
        results.durations_s = {"quick baseline": round(baseline_s, 1), **results.durations_s}
    return results, report, baseline


def _fill(staging: Path, run: Measured, baseline: Measured | None) -> None:
    """Write the set into *staging*: the quick baseline, then the run's files."""
    if baseline is not None:
        (staging / QUICK_DIR).mkdir()
        _write_run(staging / QUICK_DIR, *baseline)
        seal(staging / QUICK_DIR)
    _write_run(staging, *run)
    render(run[0], staging)


def _write_run(directory: Path, results: ResultSet, report: dict[str, Any]) -> None:
    (directory / RESULTS_FILE).write_text(results.dumps())
    if report:
        text = json.dumps(report, indent=2)
        (directory / PYTEST_REPORT).write_text("{" + text[1:].lstrip() + "\n")


def report(source: Path, out: Path | None = None) -> Path:
    """Render the set at *source* again, into *out* or in place."""
    results = load(source)  # read and checked before anything is claimed
    file = results_path(source)
    folder = file.parent
    with OutDir(out if out is not None else folder, label="--out" if out is not None else "") as target:
        target.commit(lambda staging: _copy_and_render(file, staging, results))
    return target.out


def _copy_and_render(file: Path, staging: Path, results: ResultSet) -> None:
    """Copy the results.json at *file* into *staging*; render *results* there."""
    shutil.copyfile(file, staging / RESULTS_FILE)
    folder = file.parent
    if file.name == RESULTS_FILE and (folder / PYTEST_REPORT).is_file():
        shutil.copyfile(folder / PYTEST_REPORT, staging / PYTEST_REPORT)
    nested = folder / QUICK_DIR
    if file.name == RESULTS_FILE and nested.is_dir() and not why_not_ours(nested):
        shutil.copytree(nested, staging / QUICK_DIR)
    render(results, staging)


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
