"""The HTML report of a result set, ``index.html``.

Rendered from a Jinja2 template shipped with the package.

One page that works offline and alone: its style and its one small script
(which sorts a table by the column clicked) are inline, its images are the
set's own PNGs beside it, and a Content-Security-Policy lets it fetch
nothing else.  It holds each puzzle's summary and details, the plots, the
environment and the noise floor, a section per algorithm with its figures
at every n, its verdict and its source.  Every
text is escaped (a command or a plugin's summary is anyone's text).  Like
the Markdown, it reads nothing but the result set; every figure is
formatted here, so the template holds no arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hanoi_harness.bench.report.formatting import NOTE, fmt_bytes, fmt_margin, fmt_per_move, fmt_rate, fmt_seconds
from hanoi_harness.bench.report.plots import pictures
from hanoi_harness.bench.report.puzzles import standings
from hanoi_harness.bench.report.readme import environment, provenance, rss_sizes
from hanoi_harness.bench.report.summary import classes_cell, details, findings, glance, verdict
from hanoi_harness.bench.report.tables import Part, Table, csv_names, shown_name
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run
from hanoi_harness.bench.timing.noise import ROUNDS


@dataclass(frozen=True)
class Cell:
    """A table cell: its *text*, its sort *key* and a *link* within the page.

    A *key* of "" is none: the cell sorts by its text, and sorts last when empty.
    """

    text: str
    key: str = ""
    link: str = ""


@dataclass(frozen=True)
class Grid:
    """An HTML table: *headers*, and *rows* of cells with their algorithm.

    Each row is (algorithm, cells), the algorithm "" for a row of none.
    """

    headers: list[str]
    rows: list[tuple[str, list[Cell]]]


def anchor(name: str) -> str:
    """Return the id of algorithm *name*'s section.

    >>> anchor("recursive")
    'alg-recursive'
    """
    return f"alg-{name}"


def _key(value: float | int | str | None) -> str:
    """Return *value* as a sort key of the page's script.

    A number in full, a text as it is, "" for none.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    return repr(float(value)) if isinstance(value, int | float) else value


def grid(part: Part | Table) -> Grid:
    """Return *part* (or a whole table) as an HTML table.

    Its algorithms' names link to their sections.

    Its sort keys are the part's where it has them (for its first columns, or all), else the cells' texts.
    """
    keys = part.keys if isinstance(part, Part) else []
    names = part.names if isinstance(part, Part) else []
    rows = []
    for index, row in enumerate(part.shown):
        name = names[index] if index < len(names) else ""
        found = keys[index] if index < len(keys) else []
        cells = []
        for column, text in enumerate(row):
            given = found[column] if column < len(found) else None
            key = _key(given) if given is not None else text
            cells.append(Cell(text, key, f"#{anchor(name)}" if name and column == 1 else ""))
        rows.append((name, cells))
    return Grid(list(part.headers), rows)


def page(results: ResultSet, tables: Sequence[Table]) -> str:
    """Return the text of index.html for *results*.

    *tables* are :func:`.render.all_tables`' (the summary first).
    """
    summary, detail = tables[0], details(results)
    puzzles = []
    for index, part in enumerate(summary.parts):
        puzzles.append(
            {
                "id": f"puzzle-{index + 1}",
                "label": part.label,
                "lead": part.lead,
                "table": grid(part),
                "notes": part.notes,
                "details": grid(detail.parts[index]),
            }
        )
    context = {
        "note": NOTE,
        "title": f"Benchmark results: {results.mode} run of {results.created or 'an unknown date'}",
        "provenance": provenance(results).replace("`", ""),
        "glance": glance(results),
        "puzzles": puzzles,
        "pictures": pictures(results),
        "instructions": grid(tables[1]) if tables[1].shown else None,
        "environment": _environment(results),
        "settings": _settings(results),
        "noise": _noise(results),
        "algorithms": [_algorithm(results, entry.result) for s in standings(results) for entry in s.entries],
        "files": ["README.md", "tables.md", "results.json", *csv_names(tables)],
    }
    return environment(escape=True).get_template("index.html.j2").render(context)


def _environment(results: ResultSet) -> list[tuple[str, str]]:
    """Return the environment of *results* as (what, value) rows.

    What it did not record is left out.
    """
    e = results.environment
    rows = [
        ("CPU", f"{e.cpu} ({e.cores} cores, {e.arch})" if e.cpu else ""),
        ("operating system", e.os),
        ("Python", f"{e.implementation} {e.python}".strip()),
        ("Python build", e.python_build),
        ("numpy", e.numpy),
        ("C library", e.libc),
        ("valgrind", e.valgrind or (f"missing: {e.valgrind_missing}" if e.valgrind_missing else "")),
        ("load average as the timing began", " / ".join(f"{value:g}" for value in e.load)),
        ("hanoi-harness", e.version),
        ("commit", f"{e.commit}{' (with uncommitted changes)' if e.dirty else ''}" if e.commit else ""),
        ("timer", results.timer),
        ("what each drain does with a move", results.consumer),
    ]
    return [(what, value) for what, value in rows if value]


def _settings(results: ResultSet) -> list[tuple[str, str]]:
    """Return the settings and durations of *results* as rows."""
    s = results.settings
    rows = [(key.replace("_", " "), ", ".join(map(str, v)) if isinstance(v, list) else str(v)) for key, v in s.items()]
    if s.get("rss_stride") is not None:
        rows.append(("peak RSS measured", rss_sizes(int(s.get("rss_stride") or 0))))
    rows += [(f"took: {phase}", f"{seconds:.0f} s") for phase, seconds in results.durations_s.items()]
    return rows


def _noise(results: ResultSet) -> str:
    """Return the sentence on the noise floor of *results* ("" for none)."""
    floor = results.noise_floor
    if floor is None:
        return ""
    margin = fmt_margin(floor.margin) or "unknown (too few rounds)"
    return (
        f"{floor.case} timed against itself, {ROUNDS} rounds a side, interleaved: {floor.difference.describe()}. "
        f"Changes in time smaller than {margin} cannot be told from noise in this run."
    )


def _algorithm(results: ResultSet, result: AlgorithmResult) -> dict[str, Any]:
    """Return what *result*'s section of the page shows.

    Its record, its verdict and its figures at every n.
    """
    count = result.instructions
    if count is None:
        counted = "not counted" if not result.external else "none for a command (another process)"
    elif count.per_move is None:
        counted = f"unavailable: {count.unavailable}"
    else:
        counted = (
            f"{count.per_move:.1f} a move outside the allocators + {count.allocator_per_move:.1f} in them "
            f"(between n = {' and '.join(map(str, count.between or ()))})"
        )
    facts = [
        ("puzzle", result.puzzle),
        ("family", result.family),
        ("source", result.source or ("-" if result.external else "not recorded in this results.json")),
        ("origin", result.origin),
        ("command", result.command or ""),
        ("accepts", result.limits),
        ("time: declared / fitted", classes_cell(result.declared_time, result.fit_time)),
        ("space: declared / fitted", classes_cell(result.declared_space, result.fit_space, result.external)),
        ("instructions per move", counted if result.status == "ok" else ""),
        ("sizes stopped", result.stopped),
    ]
    return {
        "id": anchor(result.name),
        "name": shown_name(result),
        "summary": result.summary,
        "verdict": verdict(result),
        "findings": findings(result),
        "facts": [(what, value) for what, value in facts if value],
        "runs": _runs(result) if result.runs else None,
    }


RUN_HEADERS = ["n", "moves", "time a drain ±95%", "ns/move ±95%", "moves/s", "tracemalloc peak", "peak RSS growth"]
RUN_HEADERS += ["check"]


def _runs(result: AlgorithmResult) -> Grid:
    """Return *result*'s figures at every n it was measured at."""
    rows = []
    for run in result.runs:
        rows.append(("", _run_cells(result, run)))
    return Grid(RUN_HEADERS, rows)


def _run_cells(result: AlgorithmResult, run: Run) -> list[Cell]:
    """Return the cells of *run*, a run of *result*."""
    timing = run.timing
    if timing is None:
        time = Cell(f"error: {run.timing_error}" if run.timing_error else "")
    else:
        mark = "" if timing.stable else " unstable"
        time = Cell(f"{fmt_seconds(timing.median)} {fmt_margin(timing.margin)}{mark}".strip(), _key(timing.median))
    peak = run.tracemalloc_peak_bytes
    if run.rss is not None:
        rss = Cell(f"{run.rss.growth_mib:.2f} MiB", _key(run.rss.growth_mib))
    else:
        rss = Cell(f"error: {run.rss_error}" if run.rss_error else "")
    return [
        Cell(str(run.n), _key(run.n)),
        Cell(str(run.moves), _key(run.moves)),
        time,
        Cell(fmt_per_move(run), _key(run.ns_per_move)),
        Cell(fmt_rate(run.moves_per_s), _key(run.moves_per_s)),
        Cell("-" if result.external else fmt_bytes(peak), _key(peak)),
        rss,
        Cell(fmt_seconds(run.check_s), _key(run.check_s)),
    ]
