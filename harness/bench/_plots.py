"""The plots of a result set (matplotlib, Agg): one PNG per :class:`Plot`, one panel per series.

A series is a figure per (algorithm, n) drawn against n, one line per
algorithm (:data:`SERIES`); a plot is a title, a file name and its panels
(:data:`PLOTS`).  A new figure to plot is one entry in each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hanoi_harness.bench._format import NOTE, fmt_bytes, fmt_seconds
from hanoi_harness.bench._results import AlgorithmResult, ResultSet, Run


@dataclass(frozen=True)
class Series:
    """A figure drawn against n: *value* reads it from a run, *label* names the axis, *tick* writes its ticks.

    *log* draws it on a log scale, with *locator* (LogLocator's arguments) placing the ticks when given.
    """

    value: Callable[[Run], float | int | None]
    label: str
    tick: Callable[[float, Any], str]
    log: bool = True
    locator: dict[str, Any] | None = None


SERIES = {
    "time": Series(
        lambda run: run.timing.median if run.timing else None, "median time per drain (s)", lambda v, _: fmt_seconds(v)
    ),
    "ns_per_move": Series(
        lambda run: run.ns_per_move,
        "ns per move (median)",
        lambda v, _: f"{v:g}",
        locator={"base": 10, "subs": (1.0, 2.0, 5.0)},
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
    """A PNG: its *file* name, its *title*, and the keys of :data:`SERIES` it draws, one panel each."""

    file: str
    title: str
    panels: tuple[str, ...]


PLOTS = (
    Plot("time_vs_n.png", "Time per drain vs n", ("time",)),
    Plot("memory_vs_n.png", "Peak memory vs n", ("memory", "rss")),
    Plot("ns_per_move.png", "ns per move vs n", ("ns_per_move",)),
)
"""The plots, in the README's order."""


def points(result: AlgorithmResult, series: Series) -> tuple[list[int], list[float]]:
    """Return the n and the values of *series* for *result*, leaving out runs without a positive value."""
    found = [(run.n, value) for run in result.runs if (value := series.value(run)) is not None and value > 0]
    return [n for n, _ in found], [float(v) for _, v in found]


def plot(results: ResultSet, out: Path) -> list[str]:
    """Write every plot of :data:`PLOTS` for *results* into the directory *out*; return their file names."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles = _styles(list(results.algorithms))
    for spec in PLOTS:
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
            ax.plot(xs, ys, marker=marker, markersize=4, linewidth=1.4, color=color, label=name)
    if series.log:
        ax.set_yscale("log")
        ax.yaxis.set_minor_formatter(NullFormatter())
        if series.locator:
            ax.yaxis.set_major_locator(LogLocator(**series.locator))
    ax.yaxis.set_major_formatter(FuncFormatter(series.tick))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("n (disks)")
    ax.set_ylabel(series.label)
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", alpha=0.12)


def _styles(names: list[str]) -> dict[str, tuple[Any, str]]:
    """Return a colour and a marker for each of *names*, so that a dozen lines stay apart in print too."""
    import matplotlib

    palette = matplotlib.colormaps["tab10"]  # ten colours; the markers cycle over twelve, so pairs repeat after 60
    markers = "osD^vP*Xhp<>"
    return {name: (palette(i % 10), markers[i % len(markers)]) for i, name in enumerate(names)}
