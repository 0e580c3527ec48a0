"""The tables of a result set, in Markdown and as CSV twins."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hanoi_harness.bench.report.formatting import NOTE, fmt_bytes, fmt_margin, fmt_number, fmt_seconds, markdown
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run


@dataclass(frozen=True)
class Part:
    """One part of a table in Markdown."""

    label: str
    headers: list[str]
    shown: list[list[str]]
    keys: list[list[float | str | None]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    lead: str = ""
    notes: tuple[str, ...] = ()

    def markdown(self) -> str:
        """Return the part in GitHub Markdown."""
        lead = f" {self.lead}" if self.lead else ""
        notes = "".join(f"\n- {note}" for note in self.notes)
        return f"*{self.label}*{lead}\n\n{markdown(self.headers, self.shown)}" + (f"\n{notes}" if notes else "")


@dataclass(frozen=True)
class Table:
    """A table under *title*: *headers* and *shown* rows for Markdown."""

    title: str
    headers: list[str]
    shown: list[list[str]]
    csv: str
    columns: list[str]
    raw: list[list[Any]]
    parts: tuple[Part, ...] = ()

    def markdown(self) -> str:
        """Return the table in GitHub Markdown."""
        if not self.parts:
            return markdown(self.headers, self.shown)
        return "\n\n".join(part.markdown() for part in self.parts)

    def write_csv(self, directory: Path) -> None:
        """Write the CSV twin into *directory*."""
        buffer = io.StringIO()
        buffer.write(f"# {NOTE}\n")
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows([["" if v is None else v for v in row] for row in self.raw])
        (directory / self.csv).write_text(buffer.getvalue())


def shown_name(result: AlgorithmResult) -> str:
    """Return *result*'s name as the Markdown tables show it."""
    return f"{result.name} (command)" if result.external else result.name


@dataclass(frozen=True)
class Figure:
    """A figure measured per (algorithm, n)."""

    key: str
    title: str
    cell: Callable[[Run], tuple[Any, str]]
    commands: bool = True


def _time_cell(run: Run) -> tuple[Any, str]:
    if run.timing is None:
        return None, "error" if run.timing_error else ""
    mark = "" if run.timing.stable else " unstable"
    return run.timing.median, f"{fmt_seconds(run.timing.median)} {fmt_margin(run.timing.margin)}{mark}".strip()


def _rss_cell(run: Run) -> tuple[Any, str]:
    if run.rss is None:
        return None, "error" if run.rss_error else ""
    return run.rss.growth_mib, f"{run.rss.growth_mib:.2f}"


FIGURES = (
    Figure(
        "time",
        "Time per drain, every move read (median ± the 95% interval of the median, its farther end as % of the "
        "median; *unstable*: rounds too noisy to rank on, reasons in results.json; a command's: its whole run, "
        "start-up included)",
        _time_cell,
    ),
    Figure("moves", "Moves per run (as the checker counted them)", lambda run: (run.moves, str(run.moves))),
    Figure(
        "ns_per_move",
        "ns per move (median drain / the run's moves)",
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
"""The algorithm x n tables, in the order of tables.md: time, moves, ns per move, tracemalloc peak, peak RSS growth."""


def by_n(results: ResultSet, figure: Figure) -> Table:
    """Return the algorithm x n table of *figure* in *results*."""
    ns = sorted({run.n for a in results.algorithms.values() for run in a.runs})
    headers = ["algorithm"] + [f"n={n}" for n in ns]
    raw = [[result.name, *(_cell(result, n, figure)[0] for n in ns)] for result in results.algorithms.values()]
    shown = [_shown_row(result, ns, figure) for result in results.algorithms.values()]
    puzzles = list(dict.fromkeys(result.puzzle for result in results.algorithms.values()))
    parts: tuple[Part, ...] = ()
    if len(puzzles) > 1:
        parts = tuple(_part(results, puzzle, figure) for puzzle in puzzles)
    return Table(figure.title, headers, shown, f"{figure.key}.csv", headers, raw, parts)


def _part(results: ResultSet, puzzle: str, figure: Figure) -> Part:
    members = [result for result in results.algorithms.values() if result.puzzle == puzzle]
    ns = sorted({run.n for result in members for run in result.runs})
    return Part(puzzle, ["algorithm"] + [f"n={n}" for n in ns], [_shown_row(result, ns, figure) for result in members])


def _cell(result: AlgorithmResult, n: int, figure: Figure) -> tuple[Any, str]:
    run = next((run for run in result.runs if run.n == n), None)
    if run is None:
        return None, ""
    value, text = figure.cell(run)
    return value, "-" if result.external and not figure.commands else text


def _shown_row(result: AlgorithmResult, ns: list[int], figure: Figure) -> list[str]:
    return [shown_name(result), *(_cell(result, n, figure)[1] for n in ns)]


def instructions(results: ResultSet) -> Table:
    """Return the table of instructions per move."""
    headers = ["algorithm", "n counted", "moves", "instructions/move", "in the allocators", "total/move"]
    columns = ["algorithm", "n1", "n2", "moves1", "moves2", "instructions_per_move", "allocator_per_move"]
    columns += ["total_per_move", "unavailable"]
    shown: list[list[str]] = []
    raw: list[list[Any]] = []
    for result in results.algorithms.values():
        count = result.instructions
        if count is None:
            continue
        sizes: list[int | None] = [*count.sizes] or [None, None]
        moves: list[int | None] = [*(count.moves or (None, None))]
        if count.per_move is None:
            shown.append([result.name, " and ".join(map(str, count.sizes)), "", f"unavailable: {count.unavailable}"])
            shown[-1] += ["", ""]
        else:
            shown.append([result.name, f"{sizes[0]} and {sizes[1]}", f"{moves[0]} and {moves[1]}"])
            shown[-1] += [f"{count.per_move:.1f}", f"{count.allocator_per_move:.1f}", f"{count.total_per_move:.1f}"]
        figures = [count.per_move, count.allocator_per_move, count.total_per_move, count.unavailable or None]
        raw.append([result.name, *sizes, *moves, *figures])
    title = "Instructions per move (valgrind; outside the memory allocators, the gate's figure, and in them)"
    return Table(title, headers, shown, "instructions.csv", columns, raw)


def csv_names(tables: Sequence[Table]) -> list[str]:
    """Return the CSV file names of *tables*, in order."""
    return [table.csv for table in tables if table.csv]
