"""The tables of a result set: the ranked summary, one algorithm x n table per figure, where each walk stopped.

Each table comes as a :class:`Table`: Markdown headers and formatted rows for
``tables.md`` and the README, and raw rows (one figure a cell, units in the
header) for its CSV twin.  The per-n tables are :data:`FIGURES`, in order: a
new figure measured per (algorithm, n) is one more :class:`Figure` there, and
gets its section in ``tables.md`` and its CSV with no other change.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hanoi_harness.bench._fit import Fit
from hanoi_harness.bench._format import NOTE, fmt_bytes, fmt_fit_figure, fmt_number, fmt_seconds, markdown
from hanoi_harness.bench._results import AlgorithmResult, ResultSet, Run


@dataclass(frozen=True)
class Table:
    """A table under *title*: *headers* and *shown* rows for Markdown, *columns* and *raw* rows for its CSV.

    *csv* is the CSV's file name, or "" for a table with no CSV twin.
    """

    title: str
    headers: list[str]
    shown: list[list[str]]
    csv: str
    columns: list[str]
    raw: list[list[Any]]

    def markdown(self) -> str:
        """Return the table in GitHub Markdown."""
        return markdown(self.headers, self.shown)

    def write_csv(self, directory: Path) -> None:
        """Write the CSV twin into *directory*, its first line the generated-file note (a ``#`` comment)."""
        buffer = io.StringIO()
        buffer.write(f"# {NOTE}\n")
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows([["" if v is None else v for v in row] for row in self.raw])
        (directory / self.csv).write_text(buffer.getvalue())


def shown_name(result: AlgorithmResult) -> str:
    """Return *result*'s name as the Markdown tables show it: an external program's marked ``(command)``."""
    return f"{result.name} (command)" if result.external else result.name


# --- the summary ---------------------------------------------------------------------------------------------


def common_n(results: ResultSet) -> int | None:
    """Return the largest n every timed algorithm of *results* was timed at, or None when there is none."""
    sets = [set(a.timed()) for a in results.algorithms.values() if a.timed()]
    if not sets:
        return None
    common = set.intersection(*sets)
    return max(common) if common else None


def verdict(result: AlgorithmResult) -> str:
    """Return the summary's last column for *result*: the check, then any mismatch of fitted and declared classes."""
    if result.status != "ok":
        described = (result.failure or {}).get("describe", "failed")
        return f"FAILED: {described}"
    notes = []
    for what, declared, fit in (
        ("time", result.declared_time, result.fit_time),
        ("space", result.declared_space, result.fit_space),
    ):
        if fit is None:
            notes.append(f"{what}: too few sizes to fit")
        elif fit.cls != declared and not result.external:  # a command declares no class to compare with
            notes.append(f"MISMATCH {what}: fitted {fit.cls}, declared {declared}")
    errors = [f"n={run.n}: {run.timing_error}" for run in result.runs if run.timing_error]
    if errors:
        notes.append("timing failed at " + "; ".join(errors))
    return "ok" if not notes else "ok; " + "; ".join(notes)


def _at(result: AlgorithmResult, n: int | None) -> tuple[int | None, Run | None]:
    """Return the n and the run of *result* at *n*, or at its largest timed n when *n* is None."""
    timed = result.timed()
    if not timed:
        return None, None
    key = n if n is not None else max(timed)
    return key, timed.get(key)


def _classes(declared: str, fit: Fit | None, of_rss: bool = False) -> str:
    """Return "declared / fitted (figure)" for the summary, "-" for what is unknown.

    >>> _classes("", None)
    '- / -'
    """
    declared = declared or "-"
    return f"{declared} / {fit.cls} ({fmt_fit_figure(fit, of_rss)})" if fit is not None else f"{declared} / -"


SUMMARY_CSV = [
    "rank",
    "algorithm",
    "n",
    "ns_per_move",
    "moves_per_s",
    "speed_vs_reference",
    "time_declared",
    "time_fitted",
    "time_slope",
    "space_declared",
    "space_fitted",
    "space_slope",
    "space_basis",
    "n_min",
    "n_max",
    "limits",
    "stopped",
    "verdict",
]
"""The summary CSV's columns: the Markdown summary's, one figure a column (``space_basis`` gives the unit of
``space_slope``: bytes per disk, or log2 bytes per disk)."""


def summary(results: ResultSet) -> Table:
    """Return the summary of *results*, ranked by ns per move at the largest common n.

    Without a common n each algorithm is ranked at its own largest n (and its
    cell says which); algorithms without timings come last.
    """
    n_common = common_n(results)
    ref = results.algorithms.get(results.reference)
    _, ref_run = _at(ref, n_common) if ref else (None, None)
    entries = []
    for result in results.algorithms.values():
        n, run = _at(result, n_common)
        entries.append(((run.ns_per_move or math.inf) if run else math.inf, result.name, result, n, run))
    entries.sort(key=lambda e: (e[0], e[1]))
    at = f" (n={n_common})" if n_common is not None else " (n)"
    headers = [
        "rank",
        "algorithm",
        f"ns/move{at}",
        f"moves/s{at}",
        f"speed vs {results.reference}{at}",
        "time: declared / fitted (slope)",
        "space: declared / fitted (growth a disk)",
        "n measured",
        "limits",
        "verdict",
    ]
    raw: list[list[Any]] = []
    shown: list[list[str]] = []
    for rank, (_, _, result, n, run) in enumerate(entries, start=1):
        speed = None
        if run is not None and ref_run is not None and n_common is not None and run.timing and ref_run.timing:
            speed = ref_run.timing.median / run.timing.median
        raw.append(_summary_raw(result, rank, n, run, speed))
        shown.append(_summary_shown(result, rank, n, run, speed, n_common))
    return Table("Summary", headers, shown, "summary.csv", SUMMARY_CSV, raw)


def _summary_raw(result: AlgorithmResult, rank: int, n: int | None, run: Run | None, speed: float | None) -> list[Any]:
    ns = [r.n for r in result.runs]
    fit_t, fit_s = result.fit_time, result.fit_space
    return [
        rank if run else None,
        result.name,
        n,
        run.ns_per_move if run else None,
        run.moves_per_s if run else None,
        speed,
        result.declared_time,
        fit_t.cls if fit_t else None,
        fit_t.slope if fit_t else None,
        result.declared_space,
        fit_s.cls if fit_s else None,
        fit_s.slope if fit_s else None,
        fit_s.basis if fit_s else None,
        min(ns) if ns else None,
        max(ns) if ns else None,
        result.limits,
        result.stopped,
        verdict(result),
    ]


def _summary_shown(
    result: AlgorithmResult, rank: int, n: int | None, run: Run | None, speed: float | None, n_common: int | None
) -> list[str]:
    ns = [r.n for r in result.runs]
    per_move = fmt_number(run.ns_per_move if run else None, 3)
    return [
        str(rank) if run else "-",
        shown_name(result),
        per_move if n_common is not None or not per_move else f"{per_move} (n={n})",
        fmt_number(run.moves_per_s if run else None, 3),
        "" if speed is None else f"{speed:.2f}x",
        _classes(result.declared_time, result.fit_time),
        _classes(result.declared_space, result.fit_space, of_rss=result.external),
        f"{min(ns)}..{max(ns)}" if ns else "",
        result.limits or "-",
        verdict(result),
    ]


# --- tables by algorithm x n ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A figure measured per (algorithm, n): its CSV name *key*, its section *title*, and *cell*.

    *cell* gives a run's raw value (for the CSV) and its text (for Markdown).
    A figure that a command (an external program) cannot have (*commands*
    False) shows "-" for one.
    """

    key: str
    title: str
    cell: Callable[[Run], tuple[Any, str]]
    commands: bool = True


def _time_cell(run: Run) -> tuple[Any, str]:
    if run.timing is None:
        return None, "error" if run.timing_error else ""
    spread = run.timing.iqr / run.timing.median * 100
    return run.timing.median, f"{fmt_seconds(run.timing.median)} ±{spread:.0f}%"


def _rss_cell(run: Run) -> tuple[Any, str]:
    if run.rss is None:
        return None, "error" if run.rss_error else ""
    return run.rss.growth_mib, f"{run.rss.growth_mib:.2f}"


FIGURES = (
    Figure(
        "time",
        "Time per drain (median ± IQR as % of the median; a command's: its whole run, start-up included)",
        _time_cell,
    ),
    Figure(
        "ns_per_move",
        "ns per move (median drain / (2^n - 1))",
        lambda run: (run.ns_per_move, fmt_number(run.ns_per_move, 3)),
    ),
    Figure(
        "memory",
        "Peak memory, tracemalloc (Python heap, bytes held at once while draining; commands: -, none)",
        lambda run: (run.tracemalloc_peak_bytes, fmt_bytes(run.tracemalloc_peak_bytes)),
        commands=False,
    ),
    Figure(
        "rss",
        "Peak RSS growth, MiB (fresh child process; memory-profiler peak minus the RSS before the drain; "
        "a command's: its process's peak minus its peak at n = 0)",
        _rss_cell,
    ),
)
"""The algorithm x n tables, in the order of tables.md: time, ns per move, tracemalloc peak, peak RSS growth."""


def by_n(results: ResultSet, figure: Figure) -> Table:
    """Return the algorithm x n table of *figure* over every n any algorithm of *results* was measured at."""
    ns = sorted({run.n for a in results.algorithms.values() for run in a.runs})
    headers = ["algorithm"] + [f"n={n}" for n in ns]
    raw: list[list[Any]] = []
    shown: list[list[str]] = []
    for result in results.algorithms.values():
        runs = {run.n: run for run in result.runs}
        raw_row: list[Any] = [result.name]
        shown_row = [shown_name(result)]
        for n in ns:
            value, text = figure.cell(runs[n]) if n in runs else (None, "")
            if n in runs and result.external and not figure.commands:
                text = "-"
            raw_row.append(value)
            shown_row.append(text)
        raw.append(raw_row)
        shown.append(shown_row)
    return Table(figure.title, headers, shown, f"{figure.key}.csv", headers, raw)


def stops(results: ResultSet) -> Table:
    """Return where each algorithm's sizes stopped, and why (no CSV: the summary's CSV has the same)."""
    rows = [
        [shown_name(r), f"{r.runs[0].n}..{r.runs[-1].n}" if r.runs else "", r.stopped]
        for r in results.algorithms.values()
    ]
    return Table("Where each algorithm's sizes stopped, and why", ["algorithm", "n", "stopped"], rows, "", [], [])


def all_tables(results: ResultSet) -> list[Table]:
    """Return every table of *results* in the order of tables.md: the summary, the figures by n, the stops."""
    return [summary(results), *(by_n(results, figure) for figure in FIGURES), stops(results)]


def csv_names(tables: Sequence[Table]) -> list[str]:
    """Return the CSV file names of *tables*, in order."""
    return [table.csv for table in tables if table.csv]
