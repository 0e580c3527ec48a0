"""The plots of a result set (matplotlib, Agg): one PNG per :class:`Plot`, one panel per series, and the bars of
instructions per move.

A series is a figure per (algorithm, n) drawn against n or against the run's
moves, one line per algorithm (:data:`SERIES`): times against moves, so that
runs of the same work stand one above the other whatever the puzzle; memory
against n, the number the space classes are stated in.  A plot is a title, a
file name and its panels (:data:`PLOTS`).  A new figure to plot is one entry
in each.  Instructions per move are one figure per algorithm, drawn as bars
(:func:`_bars`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hanoi_harness.bench.report.formatting import NOTE, fmt_bytes, fmt_seconds
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run


@dataclass(frozen=True)
class Series:
    """A figure drawn against n: *value* reads it from a run, *label* names the axis, *tick* writes its ticks.

    *log* draws it on a log scale, with *locator* (LogLocator's arguments) placing the ticks when given;
    *by_moves* draws it against the run's moves (log scale) rather than n; *interval*, when given, gives the
    ends of a value's 95% interval, drawn as an error bar.
    """

    value: Callable[[Run], float | int | None]
    label: str
    tick: Callable[[float, Any], str]
    log: bool = True
    locator: dict[str, Any] | None = None
    by_moves: bool = False
    interval: Callable[[Run], tuple[float, float] | None] | None = None


def _ns_interval(run: Run) -> tuple[float, float] | None:
    """The 95% interval of *run*'s ns per move, or None."""
    if run.timing is None or run.timing.interval is None or not run.moves:
        return None
    return run.timing.interval.low / run.moves * 1e9, run.timing.interval.high / run.moves * 1e9


SERIES = {
    "time": Series(
        lambda run: run.timing.median if run.timing else None,
        "median time per drain, every move read (s)",
        lambda v, _: fmt_seconds(v),
        by_moves=True,
    ),
    "ns_per_move": Series(
        lambda run: run.ns_per_move,
        "ns per move (median, with its 95% interval)",
        lambda v, _: f"{v:g}",
        locator={"base": 10, "subs": (1.0, 2.0, 5.0)},
        by_moves=True,
        interval=_ns_interval,
    ),  # ns per move spans a decade or two
    "memory": Series(
        lambda run: run.tracemalloc_peak_bytes,
        "tracemalloc peak (bytes)",
        lambda v, _: fmt_bytes(v),
        locator={"base": 4, "numticks": 14},
    ),  # 1 KiB, 4 KiB, 16 KiB ...: round sizes
    # A child's RSS moves by a few MiB over tens: a linear axis shows it.
    "rss": Series(
        lambda run: run.rss.peak_mib if run.rss else None,
        "peak RSS of the child (MiB, linear scale)",
        lambda v, _: f"{v:g}",
        log=False,
    ),
}
"""Every figure a plot can draw; tick labels are in the tables' units, not powers of ten."""


@dataclass(frozen=True)
class Plot:
    """A PNG: its *file* name, its *title*, and the keys of :data:`SERIES` it draws, one panel each.

    No panels: the bars of instructions per move (:func:`_bars`).
    """

    file: str
    title: str
    panels: tuple[str, ...]


PLOTS = (
    Plot("time_vs_moves.png", "Time per drain vs moves", ("time",)),
    Plot("ns_per_move.png", "ns per move vs moves", ("ns_per_move",)),
    Plot("memory_vs_n.png", "Peak memory vs n", ("memory", "rss")),
    Plot("instructions.png", "Instructions per move (valgrind)", ()),
)
"""The plots, in the README's order."""


def points(result: AlgorithmResult, series: Series) -> tuple[list[int], list[float]]:
    """Return the n (or moves) and the values of *series* for *result*, leaving out runs without a positive value."""
    found = [(run, value) for run in result.runs if (value := series.value(run)) is not None and value > 0]
    return [run.moves if series.by_moves else run.n for run, _ in found], [float(v) for _, v in found]


def _errors(result: AlgorithmResult, series: Series) -> list[list[float]] | None:
    """Return the error bars of *series* for *result*'s points (below and above each value), or None."""
    if series.interval is None:
        return None
    below, above = [], []
    for run in result.runs:
        value = series.value(run)
        if value is None or value <= 0:
            continue
        ends = series.interval(run)
        below.append(max(0.0, float(value) - ends[0]) if ends else 0.0)
        above.append(max(0.0, ends[1] - float(value)) if ends else 0.0)
    return [below, above]


def plot(results: ResultSet, out: Path) -> list[str]:
    """Write every plot of :data:`PLOTS` for *results* into the directory *out*; return their file names."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles = _styles(list(results.algorithms))
    for spec in PLOTS:
        if not spec.panels:
            _bars(results, out / spec.file, spec.title)
            continue
        width = 7.5 * len(spec.panels) + 2.5
        fig, axes = plt.subplots(1, len(spec.panels), figsize=(width, 5.5), squeeze=False)
        for ax, key in zip(axes[0], spec.panels, strict=True):
            _panel(ax, results, SERIES[key], styles)
        handles, labels = axes[0][0].get_legend_handles_labels()
        fig.suptitle(f"{spec.title} ({results.mode} run, log scale)")
        if handles:
            fig.legend(handles, labels, loc="center right", fontsize=9, frameon=False)
        fig.tight_layout(rect=(0, 0, 1 - 2.2 / width, 1))
        fig.savefig(out / spec.file, dpi=100, metadata={"Description": NOTE})
        plt.close(fig)
    return [spec.file for spec in PLOTS]


def _panel(ax: Any, results: ResultSet, series: Series, styles: dict[str, tuple[Any, str]]) -> None:
    """Draw *series* of every algorithm of *results* on the axes *ax*."""
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

    for name, result in results.algorithms.items():
        xs, ys = points(result, series)
        if xs:
            color, marker = styles[name]
            ax.errorbar(
                xs, ys, yerr=_errors(result, series), marker=marker, markersize=4, linewidth=1.4, color=color,
                label=name, capsize=2, elinewidth=0.8,
            )  # fmt: skip
    if series.log:
        ax.set_yscale("log")
        ax.yaxis.set_minor_formatter(NullFormatter())
        if series.locator:
            ax.yaxis.set_major_locator(LogLocator(**series.locator))
    ax.yaxis.set_major_formatter(FuncFormatter(series.tick))
    if series.by_moves:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.0f}"))
        ax.set_xlabel("moves of the run (log scale; the classic puzzle's n disks make 2^n - 1)")
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("n (disks)")
    ax.set_ylabel(series.label)
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", alpha=0.12)


def _bars(results: ResultSet, file: Path, title: str) -> None:
    """Draw each algorithm's instructions per move into *file*: outside the allocators, then in them, stacked.

    An algorithm whose count is unavailable gets no bar but its reason, so that
    a missing figure is never mistaken for a small one.
    """
    import matplotlib.pyplot as plt

    counted = [(name, r.instructions) for name, r in results.algorithms.items() if r.instructions is not None]
    fig, ax = plt.subplots(figsize=(10, 0.42 * max(len(counted), 1) + 1.6))
    names = [name for name, _ in counted][::-1]
    outside = [count.per_move or 0.0 for _, count in counted][::-1]
    inside = [count.allocator_per_move or 0.0 for _, count in counted][::-1]
    ax.barh(names, outside, color="tab:blue", label="outside the memory allocators (the gate's figure)")
    ax.barh(names, inside, left=outside, color="tab:orange", label="in the allocators (pymalloc, malloc)")
    for y, (_, count) in enumerate(counted[::-1]):
        if count.per_move is None:
            ax.text(0, y, f"  unavailable: {count.unavailable}", va="center", fontsize=8)
        else:
            ax.text(
                outside[y] + inside[y],
                y,
                f" {count.per_move:.0f} + {count.allocator_per_move:.0f}",
                va="center",
                fontsize=8,
            )
    ax.set_xlabel("machine instructions per move (cachegrind, between two sizes)")
    ax.grid(True, axis="x", alpha=0.35)
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    fig.suptitle(f"{title} ({results.mode} run)")
    fig.tight_layout()
    fig.savefig(file, dpi=100, metadata={"Description": NOTE})
    plt.close(fig)


def _styles(names: list[str]) -> dict[str, tuple[Any, str]]:
    """Return a colour and a marker for each of *names*, so that a dozen lines stay apart in print too."""
    import matplotlib

    palette = matplotlib.colormaps["tab10"]  # ten colours; the markers cycle over twelve, so pairs repeat after 60
    markers = "osD^vP*Xhp<>"
    return {name: (palette(i % 10), markers[i % len(markers)]) for i, name in enumerate(names)}
