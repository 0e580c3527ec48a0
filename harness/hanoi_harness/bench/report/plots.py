"""The plots of a result set (matplotlib, Agg): two per kind of puzzle."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hanoi_harness.bench.report.formatting import NOTE, fmt_bytes, fmt_sig
from hanoi_harness.bench.report.puzzles import Kind, Standing, standings
from hanoi_harness.bench.report.styles import Panel, Style, panels, styles
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run

DPI = 100
PANEL_WIDTH = 5.4
PANEL_HEIGHT = 3.6
PER_ROW = 3
MIN_WIDTH = 7.5


@dataclass(frozen=True)
class Series:
    """A figure drawn against the run's moves."""

    title: str
    value: Callable[[Run], float | int | None]
    label: str
    tick: Callable[[float, Any], str]
    log: bool = True
    locator: dict[str, Any] | None = None
    interval: Callable[[Run], tuple[float, float] | None] | None = None
    span: float = 0.0
    of_result: Callable[[AlgorithmResult], list[tuple[int, float]]] | None = None


def _ns_interval(run: Run) -> tuple[float, float] | None:
    if run.timing is None or run.timing.interval is None or not run.moves:
        return None
    return run.timing.interval.low / run.moves * 1e9, run.timing.interval.high / run.moves * 1e9


def instruction_points(result: AlgorithmResult) -> list[tuple[int, float]]:
    """Return (moves, instructions per move) of *result* at each counted size.

    >>> from hanoi_harness.bench.counts.figures import InstructionCount
    >>> c = InstructionCount(sizes=(10, 14), moves=(1023, 16383), instructions=(300_000_000, 361_445_000, 300_010_000),
    ...                      allocator=(0, 0, 0))
    >>> instruction_points(AlgorithmResult("a", instructions=c))
    [(16383, 4000.0)]
    >>> instruction_points(AlgorithmResult("a"))
    []
    """
    count = result.instructions
    if count is None or count.moves is None or count.instructions is None or count.allocator is None:
        return []
    moves = list(count.moves)
    outside = [total - allocator for total, allocator in zip(count.instructions, count.allocator, strict=True)]
    fork = (outside[-1] - outside[0]) / len(moves)
    found = [
        (moves[j + 1], (outside[j + 1] - outside[j] - fork) / (moves[j + 1] - moves[j]))
        for j in range(len(moves) - 1)
        if moves[j + 1] > moves[j]
    ]
    return [(moves_at, per_move) for moves_at, per_move in found if per_move > 0]


NS_PER_MOVE = Series(
    "ns per move",
    lambda run: run.ns_per_move,
    "ns per move (log scale), median\nwith its 95% interval",
    lambda v, _: f"{v:g}",
    locator={"base": 10, "subs": (1.0, 2.0, 5.0)},
    interval=_ns_interval,
)
TRACEMALLOC = Series(
    "tracemalloc peak",
    lambda run: run.tracemalloc_peak_bytes,
    "tracemalloc peak, Python heap\n(log scale)",
    lambda v, _: fmt_bytes(v),
    locator={"base": 4, "numticks": 12},
)  # 1 KiB, 4 KiB, 16 KiB ...: round sizes
RSS = Series(
    "peak RSS growth",
    lambda run: run.rss.growth_mib if run.rss else None,
    "peak RSS growth of a fresh child\n(MiB, linear scale)",
    lambda v, _: f"{v:g}",
    log=False,
    span=4.0,
)  # a child's RSS moves by pages over a few MiB: from 0 to 4 MiB at least, a ripple stays a ripple
INSTRUCTIONS = Series(
    "instructions per move",
    lambda run: None,
    "instructions per move (valgrind,\noutside the allocators; linear scale)",
    lambda v, _: f"{v:g}",
    log=False,
    of_result=instruction_points,
)  # exact counts: flat for a cost per move that does not grow, rising for one that grows with n


@dataclass(frozen=True)
class Picture:
    """A PNG the report shows: its *file* name, *title* and *kind*."""

    file: str
    title: str
    kind: str = ""


@dataclass(frozen=True)
class Lines:
    """The lines of one kind of puzzle, laid out and styled."""

    kind: Kind
    standings: tuple[Standing, ...]
    reference: str
    panels: tuple[Panel, ...]
    styles: dict[str, Style]
    results: dict[str, AlgorithmResult]
    ranked_ns: dict[str, float | None]
    ranks: dict[str, str]

    def label(self, name: str, with_ns: bool) -> str:
        """Return the legend's entry for *name*: its rank, pegs and speed."""
        result = self.results[name]
        rank = self.ranks.get(name, "-")
        extra = [result.puzzle.split(",")[0]] if len(self.standings) > 1 else []
        extra += ["reference"] if name == self.reference else []
        ns = self.ranked_ns.get(name)
        speed = f": {fmt_sig(ns)} ns" if with_ns and ns is not None else ""
        said = f" ({', '.join(extra)})" if extra else ""
        return f"{f'{rank}. ' if rank != '-' else ''}{name}{said}{speed}"


def kinds(results: ResultSet) -> list[Lines]:
    """Return the lines of each kind of puzzle of *results*."""
    grouped: dict[str, list[Standing]] = {}
    for standing in standings(results):
        grouped.setdefault(standing.kind.key, []).append(standing)
    found = []
    for members in grouped.values():
        entries = [entry for standing in members for entry in standing.entries if entry.result.runs]
        if not entries:
            continue
        inf = float("inf")
        entries.sort(key=lambda e: (inf if e.rank is None else e.rank, (e.run.ns_per_move or inf) if e.run else inf))
        ranked = [entry.result.name for entry in entries]
        reference = members[0].reference if members[0].reference in ranked else None
        families = {entry.result.name: entry.result.family for entry in entries}
        laid = panels(ranked, families, reference)
        found.append(
            Lines(
                kind=members[0].kind,
                standings=tuple(members),
                reference=reference or "",
                panels=tuple(laid),
                styles=styles(laid, reference),
                results={entry.result.name: entry.result for entry in entries},
                ranked_ns={entry.result.name: entry.run.ns_per_move if entry.run else None for entry in entries},
                ranks={entry.result.name: entry.place for entry in entries},
            )
        )
    return found


def pictures(results: ResultSet) -> list[Picture]:
    """Return the PNGs :func:`plot` writes for *results*, in order."""
    found = []
    for lines in kinds(results):
        title = lines.kind.title
        what = "ns and instructions per move" if _instruction_rows(lines) else "ns per move"
        found.append(Picture(f"ns_per_move_{lines.kind.key}.png", f"{title}: {what} against moves", title))
        if _memory_rows(lines):
            found.append(Picture(f"memory_{lines.kind.key}.png", f"{title}: peak memory against moves", title))
    found.append(Picture("instructions.png", "Instructions per move (valgrind), by puzzle"))
    return found


def points(result: AlgorithmResult, series: Series) -> tuple[list[int], list[float], list[list[float]] | None]:
    """Return the moves, values and error bars of *series* for *result*."""
    if series.of_result is not None:
        pairs = [(moves, value) for moves, value in series.of_result(result) if value > 0 or not series.log]
        return [moves for moves, _ in pairs], [value for _, value in pairs], None
    found = [
        (run, float(value))
        for run in result.runs
        if (value := series.value(run)) is not None and (value > 0 or not series.log) and run.moves > 0
    ]
    errors = None
    if series.interval is not None:
        ends = [series.interval(run) for run, _ in found]
        below = [max(0.0, value - end[0]) if end else 0.0 for (_, value), end in zip(found, ends, strict=True)]
        above = [max(0.0, end[1] - value) if end else 0.0 for (_, value), end in zip(found, ends, strict=True)]
        errors = [below, above]
    return [run.moves for run, _ in found], [value for _, value in found], errors


def plot(results: ResultSet, out: Path) -> list[str]:
    """Write every plot of :func:`pictures` into *out*; return their names."""
    import matplotlib

    matplotlib.use("Agg")
    written = []
    for lines in kinds(results):
        mode = f"{results.mode} run"
        file = f"ns_per_move_{lines.kind.key}.png"
        rows = [NS_PER_MOVE, *_instruction_rows(lines)]
        what = "ns per move (log-log)" + (" and instructions per move" if len(rows) > 1 else "")
        _figure(lines, rows, f"{lines.kind.title}: {what} against moves ({mode})", out / file)
        written.append(file)
        rows = _memory_rows(lines)
        if rows:
            file = f"memory_{lines.kind.key}.png"
            _figure(lines, rows, f"{lines.kind.title}: peak memory against moves ({mode})", out / file)
            written.append(file)
    _bars(results, out / "instructions.png")
    return [*written, "instructions.png"]


def _instruction_rows(lines: Lines) -> list[Series]:
    return [INSTRUCTIONS] if any(instruction_points(r) for r in lines.results.values()) else []


def _memory_rows(lines: Lines) -> list[Series]:
    return [s for s in (TRACEMALLOC, RSS) if any(points(r, s)[0] for r in lines.results.values())]


def _figure(lines: Lines, rows: Sequence[Series], title: str, file: Path) -> None:
    """Draw *rows* of *lines*' panels into *file*, under *title*."""
    import matplotlib.pyplot as plt

    count = len(lines.panels)
    if count == 1:
        columns, grid = len(rows), [[(series, lines.panels[0]) for series in rows]]
    else:
        columns = min(count, PER_ROW)
        grid = [[(s, p) for p in lines.panels[i : i + PER_ROW]] for s in rows for i in range(0, count, PER_ROW)]
    fig, axes = plt.subplots(
        len(grid),
        columns,
        figsize=(max(PANEL_WIDTH * columns, MIN_WIDTH), (PANEL_HEIGHT + 1.7) * len(grid) + 0.7),
        squeeze=False,
        layout="constrained",
    )
    for row, chunk in enumerate(grid):
        for column in range(columns):
            ax = axes[row][column]
            if column >= len(chunk):
                ax.set_visible(False)
                continue
            series, panel = chunk[column]
            _panel(ax, lines, panel, series, with_ns=series is NS_PER_MOVE)
    shown = [ax for row in axes for ax in row if ax.get_visible() and ax.has_data()]
    if shown:  # one x range in every panel: the same n at the same place, a count under its time
        ends = [ax.get_xlim() for ax in shown]
        for ax in shown:
            ax.set_xlim(min(low for low, _ in ends), max(high for _, high in ends))
    fig.suptitle(title if columns > 1 else title.replace(": ", ":\n", 1), fontsize=12)
    fig.savefig(file, dpi=DPI, metadata={"Description": NOTE})
    plt.close(fig)


def _panel(ax: Any, lines: Lines, panel: Panel, series: Series, with_ns: bool) -> None:
    """Draw *series* of *panel*'s algorithms on the axes *ax*."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    drawn: list[float] = []
    for name in panel.names:
        xs, ys, errors = points(lines.results[name], series)
        if not xs:
            continue
        below, above = errors if errors else ([0.0] * len(ys), [0.0] * len(ys))
        drawn += [y - low for y, low in zip(ys, below, strict=True)] + [y + up for y, up in zip(ys, above, strict=True)]
        style = lines.styles[name]
        reference = name == lines.reference
        ax.errorbar(
            xs, ys, yerr=errors, color=style.colour, marker=style.marker, linestyle=style.linestyle,
            linewidth=2.2 if reference else 1.5, markersize=5, capsize=2, elinewidth=0.8,
            label=lines.label(name, with_ns), zorder=3 if reference else 2,
        )  # fmt: skip
    if series.log:
        ax.set_yscale("log")
        ax.yaxis.set_minor_locator(NullLocator())
        if series.locator:
            ax.yaxis.set_major_locator(LogLocator(**series.locator))
    if drawn:
        ax.set_ylim(*honest_range(ax.yaxis.get_major_locator(), min(drawn), max(drawn), series))
    ax.yaxis.set_major_formatter(FuncFormatter(series.tick))
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _moves(v)))
    ax.xaxis.set_minor_locator(NullLocator())  # a tick a decade is enough, and minor ticks cost most of a figure's time
    ax.set_xlabel("moves of the run (log scale)")
    ax.set_ylabel(series.label)
    heading = f"{series.title}: {panel.title}" if panel.title else series.title
    ax.set_title(heading, fontsize=10)
    ax.grid(True, which="major", alpha=0.35)
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        order = "in rank order, with ns/move as ranked" if with_ns else "in rank order"
        ax.legend(
            handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=2, fontsize=8, frameon=False,
            title=order, title_fontsize=8,
        )  # fmt: skip


def honest_range(locator: Any, low: float, high: float, series: Series) -> tuple[float, float]:
    """Return the y limits for values from *low* to *high*: ticks of *locator*.

    >>> from matplotlib.ticker import LogLocator, MaxNLocator
    >>> honest_range(LogLocator(base=4), 900.0, 6e6, TRACEMALLOC)
    (256.0, 16777216.0)
    >>> honest_range(MaxNLocator(), 1.0, 1.1, RSS)
    (0.0, 4.0)
    >>> honest_range(LogLocator(base=10, subs=(1.0, 2.0, 5.0)), 200.0, 6539.6, NS_PER_MOVE)
    (200.0, 10000.0)
    >>> honest_range(LogLocator(base=10, subs=(1.0, 2.0, 5.0)), 149.0, 421.0, NS_PER_MOVE)
    (20.0, 500.0)
    """
    if series.log:  # a decade at least (a factor of the base): under that, matplotlib places linear ticks
        low = min(low, high / float((series.locator or {}).get("base", 10)))
    else:
        low, high = min(low, 0.0), max(high, series.span)
    reach = high
    for _ in range(4):  # a log locator may stop short of the data: ask again a decade further
        ticks = sorted(float(t) for t in locator.tick_values(low, reach))
        if any(t >= high for t in ticks):
            break
        reach = reach * 10 if series.log else reach + (high - low)
    under = [t for t in ticks if t <= low]
    over = [t for t in ticks if t >= high and t > (under[-1] if under else low)]
    return (under[-1] if under else low), (over[0] if over else high)


def _moves(value: float) -> str:
    """Return a count of moves as a tick label: 1, 10, 100, 1k ... 100M.

    >>> [_moves(v) for v in (1, 100, 1e3, 1e5, 1e8, 3e9)]
    ['1', '100', '1k', '100k', '100M', '3G']
    """
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:g}{unit}"
    return f"{value:g}"


def _bars(results: ResultSet, file: Path) -> None:
    """Draw each algorithm's instructions per move into *file*."""
    import matplotlib.pyplot as plt

    groups = []
    for standing in standings(results):
        counted = [(e.result.name, e.result.instructions) for e in standing.entries if e.result.instructions]
        if counted:
            groups.append((standing.puzzle, counted))
    heights = [len(counted) for _, counted in groups] or [1]
    fig, axes = plt.subplots(
        max(len(groups), 1),
        1,
        figsize=(10, 0.34 * sum(heights) + 0.75 * len(heights) + 1.2),
        squeeze=False,
        sharex=True,
        gridspec_kw={"height_ratios": heights},
        layout="constrained",
    )
    for ax, (puzzle, counted) in zip((row[0] for row in axes), groups, strict=False):
        names = [name for name, _ in counted][::-1]
        outside = [count.per_move or 0.0 for _, count in counted][::-1]
        inside = [count.allocator_per_move or 0.0 for _, count in counted][::-1]
        ax.barh(names, outside, color="#0072B2", label="outside the memory allocators (the gate's figure)")
        ax.barh(names, inside, left=outside, color="#E69F00", label="in the allocators (pymalloc, malloc)")
        for y, (_, count) in enumerate(counted[::-1]):
            if count.per_move is None:
                ax.text(0, y, f"  unavailable: {count.unavailable}", va="center", fontsize=8)
            else:
                said = f" {count.per_move:.0f} + {count.allocator_per_move:.0f}"
                ax.text(outside[y] + inside[y], y, said, va="center", fontsize=8)
        ax.set_title(puzzle, fontsize=10, loc="left")
        ax.grid(True, axis="x", alpha=0.35)
    last = axes[-1][0]
    last.set_xlabel("machine instructions per move (cachegrind, between two sizes; linear scale)")
    if groups:
        handles, labels = axes[0][0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=8, frameon=False)
    else:
        last.text(0.5, 0.5, "no instruction counts in this set", ha="center", va="center", transform=last.transAxes)
    fig.suptitle(f"Instructions per move (valgrind), by puzzle, in rank order ({results.mode} run)")
    fig.savefig(file, dpi=DPI, metadata={"Description": NOTE})
    plt.close(fig)
