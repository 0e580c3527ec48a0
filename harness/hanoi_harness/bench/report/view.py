"""The view of a result set: one model, rendered by two templates.

The model holds every figure formatted; the templates (``templates/*.j2``) hold the prose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

from hanoi_harness.bench.consume import SLICE_ROWS
from hanoi_harness.bench.counts.measure import SIZES
from hanoi_harness.bench.plan import DEFAULT_THRESHOLD_PCT, DEFAULT_TIME_THRESHOLD_PCT
from hanoi_harness.bench.report.formatting import (
    NOTE,
    escaped,
    fmt_bytes,
    fmt_margin,
    fmt_per_move,
    fmt_rate,
    fmt_seconds,
    markdown,
)
from hanoi_harness.bench.report.plots import pictures
from hanoi_harness.bench.report.puzzles import TIED, standings
from hanoi_harness.bench.report.summary import classes_cell, details, findings, glance, verdict
from hanoi_harness.bench.report.tables import Part, Table, csv_names, shown_name
from hanoi_harness.bench.results.environment import Environment
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run
from hanoi_harness.bench.timing.noise import ROUNDS

PAGE = "index.html"  #: The HTML report beside README.md.

TEMPLATES = Path(__file__).resolve().parent / "templates"  #: The templates, installed with the package (package data).


@cache
def environment(escape: bool = False) -> jinja2.Environment:
    """Return the Jinja2 environment of the templates."""
    found = jinja2.Environment(
        finalize=printable,
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        autoescape=escape,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    found.filters.update(md=lambda table: markdown(table.headers, table.shown), grid=grid)
    return found


def text(template: str, model: dict[str, Any]) -> str:
    """Return *template* rendered from *model*, escaped if it is HTML."""
    return environment(escape=template.endswith(".html.j2")).get_template(template).render(model)


def printable(value: Any) -> Any:
    """Return *value* with its control characters escaped, if it is text.

    >>> printable("ok\\x1b[2J"), printable(3)
    ('ok\\\\x1b[2J', 3)
    """
    if not isinstance(value, str) or isinstance(value, markupsafe.Markup) or value.isprintable():
        return value
    return "".join(c if c in "\n\t" else escaped(c) for c in value)


def provenance(results: ResultSet) -> str:
    """Return the sentence that says where the figures of *results* came from.

    >>> e = Environment.from_dict({"cpu": "CPU", "cores": 2, "arch": "x86_64", "implementation": "CPython",
    ...                            "python": "3.11.7", "os": "Linux 6", "version": "0.1.0"})
    >>> r = ResultSet("quick", "recursive", created="2026-01-01", environment=e,
    ...               durations_s={"checking": 2.0, "timing": 4.4})
    >>> provenance(r).split(", on ")[0]
    'A quick run of 2026-01-01, hanoi-harness 0.1.0 (installed, not from a git checkout)'
    >>> provenance(r).split(", on ")[1]
    'CPU (2 cores, x86_64), CPython 3.11.7, Linux 6. It took 6 s: checking 2 s, timing 4 s.'
    """
    e = results.environment
    phases = ", ".join(f"{phase} {seconds:.0f} s" for phase, seconds in results.durations_s.items())
    took = f" It took {sum(results.durations_s.values()):.0f} s: {phases}." if phases else ""
    return f"A {results.mode} run of {results.created}, {_code(e)}, on {_machine(e)}, {_python(e)}, {e.os}.{took}"


def _code(e: Environment) -> str:
    """Return the code a run measured with, from its environment *e*.

    >>> _code(Environment.from_dict({"version": "0.1.0", "commit": "abc", "dirty": True}))
    'hanoi-harness 0.1.0 (commit `abc`, with uncommitted changes)'
    >>> _code(Environment.from_dict({"commit": "abc"}))  # written before the version was recorded
    'commit `abc`'
    """
    dirty = ", with uncommitted changes" if e.dirty else ""
    if not e.version:
        return f"commit `{e.commit or 'unknown'}`" + (" (with uncommitted changes)" if dirty else "")
    if not e.commit:
        return f"hanoi-harness {e.version} (installed, not from a git checkout)"
    return f"hanoi-harness {e.version} (commit `{e.commit}`{dirty})"


def _machine(e: Environment) -> str:
    return f"{e.cpu or 'an unknown CPU'} ({e.cores} cores, {e.arch})"


def _python(e: Environment) -> str:
    extra = [f"numpy {e.numpy}" if e.numpy else "", e.libc, e.valgrind]
    shown = ", ".join(part for part in extra if part)
    return f"{e.implementation} {e.python}" + (f" ({shown})" if shown else "")


def tables_md(results: ResultSet, tables: list[Table]) -> str:
    """Return the text of tables.md: every one of *tables* under its title."""
    template = environment().get_template("tables.md.j2")
    return template.render(note=NOTE, provenance=provenance(results), tables=tables)


def view(results: ResultSet, tables: Sequence[Table]) -> dict[str, Any]:
    """Return the model of README.md and index.html for *results*."""
    summary, detail = tables[0], details(results)
    externals = any(r.external for r in results.algorithms.values())
    puzzles = [
        {"id": f"puzzle-{index + 1}", "label": part.label, "lead": part.lead, "part": part, "notes": part.notes}
        | {"details": detail.parts[index]}
        for index, part in enumerate(summary.parts)
    ]
    return {
        "note": NOTE,
        "title": f"Benchmark results: {results.mode} run of {results.created or 'an unknown date'}",
        "glance": glance(results),
        "provenance": provenance(results),
        "also": " and external program (`--command`, marked *(command)*)" if externals else "",
        "reference": results.reference,
        "puzzles": puzzles,
        "instructions": _instructions(results, tables[1]),
        "noise": _noise(results),
        "load": " / ".join(f"{value:g}" for value in results.environment.load),
        "pictures": pictures(results),
        "page": PAGE,
        "csv_names": csv_names(tables),
        "commands": _commands(results),
        "how": _how(results),
        "environment": _environment(results),
        "settings": _settings(results),
        "algorithms": [_algorithm(results, entry.result) for s in standings(results) for entry in s.entries],
        "baseline": has_baseline(results),
        "kind": "quick run" if results.mode == "quick" else "run of fixed sizes",
        "threshold": f"{DEFAULT_THRESHOLD_PCT:g}",
        "time_threshold": f"{DEFAULT_TIME_THRESHOLD_PCT:g}",
        "slice_rows": SLICE_ROWS,
        "tied": TIED,
    }


def has_baseline(results: ResultSet) -> bool:
    """Whether the set of *results* has a ``quick/`` baseline."""
    return results.mode == "full" and not results.settings.get("sizes")


def _instructions(results: ResultSet, table: Table) -> dict[str, Any]:
    counts = [r.instructions for r in results.algorithms.values() if r.instructions is not None]
    reasons = sorted({count.unavailable for count in counts if count.unavailable})
    return {
        "table": table,
        "counted": bool(counts),
        "sizes": "n = {} and {}".format(*(results.settings.get("count_sizes") or SIZES)),
        "reasons": reasons,
        "valgrind": results.environment.valgrind,
    }


def _noise(results: ResultSet) -> dict[str, str] | None:
    floor = results.noise_floor
    if floor is None:
        return None
    return {
        "case": floor.case,
        "rounds": str(ROUNDS),
        "described": floor.difference.describe(),
        "margin": fmt_margin(floor.margin) or "unknown (too few rounds)",
    }


def _how(results: ResultSet) -> dict[str, str]:
    """Return the settings of *results* as "How these were measured" says."""
    s = results.settings
    if s.get("sizes"):
        sizes = (
            f"n = {', '.join(str(n) for n in s['sizes'])} of the classic puzzle (clamped to each algorithm's limits)"
        )
    else:
        sizes = (
            f"n from 1 (or the algorithm's minimum) upward, one at a time, stopping before the n whose drain "
            f"would take more than {s.get('drain_budget_s')} s or whose check more than {s.get('check_budget_s')} s "
            f"(each n of the classic puzzle doubles both), at the algorithm's max_n, or at n = {s.get('n_cap')}; "
            "the summary's CSV says where each one stopped and why"
        )
    return {
        "sizes": sizes,
        "check_timeout": f"{s.get('check_timeout_s', 0):g}",
        "timer": results.timer,
        "min_rounds": str(s.get("min_rounds")),
        "passes": str(s.get("passes", 1)),
        "max_time": str(s.get("max_time_s")),
        "memory_budget": str(s.get("memory_budget_s")),
        "rss_sizes": rss_sizes(s.get("rss_stride") or 0),
    }


def rss_sizes(stride: int) -> str:
    """Return, in words, which tracemalloc sizes also get a peak-RSS child.

    >>> rss_sizes(0), rss_sizes(2)
    ('at the largest of those n only', 'at every 2nd of those n, counting down from the largest')
    """
    if stride <= 0:
        return "at the largest of those n only"
    if stride == 1:
        return "at each of those n"
    suffix = {2: "nd", 3: "rd"}.get(stride, "th")
    return f"at every {stride}{suffix} of those n, counting down from the largest"


def _commands(results: ResultSet) -> str:
    rows = []
    for r in results.algorithms.values():
        if not r.external:
            continue
        ns = [run.n for run in r.runs]
        largest = max((run for run in r.runs if run.rss), key=lambda run: run.n, default=None)
        rss = f"{largest.rss.peak_mib:.3g} MiB at n = {largest.n}" if largest and largest.rss else ""
        command = (r.command or "").replace("|", "\\|")  # a pipe would end the table cell
        status = "ok" if r.status == "ok" else verdict(r)
        rows.append([r.name, f"`{command}`", f"{min(ns)}..{max(ns)}" if ns else "", rss, status])
    if not rows:
        return ""
    return markdown(["name", "command", "n measured", "peak RSS of the process", "check"], rows)


@dataclass(frozen=True)
class Cell:
    """A table cell: its *text*, its sort *key* and a *link* within the page."""

    text: str
    key: str = ""
    link: str = ""


@dataclass(frozen=True)
class Grid:
    """An HTML table: *headers*, and *rows* of cells with their algorithm."""

    headers: list[str]
    rows: list[tuple[str, list[Cell]]]


def anchor(name: str) -> str:
    """Return the id of algorithm *name*'s section."""
    return f"alg-{name}"


def _key(value: float | int | str | None) -> str:
    """Return *value* as a sort key of the page's script."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    return repr(float(value)) if isinstance(value, int | float) else value


def grid(part: Part | Table) -> Grid:
    """Return *part* (or a whole table) as an HTML table."""
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


def _environment(results: ResultSet) -> list[tuple[str, str]]:
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
    s = results.settings
    rows = [(key.replace("_", " "), ", ".join(map(str, v)) if isinstance(v, list) else str(v)) for key, v in s.items()]
    if s.get("rss_stride") is not None:
        rows.append(("peak RSS measured", rss_sizes(int(s.get("rss_stride") or 0))))
    rows += [(f"took: {phase}", f"{seconds:.0f} s") for phase, seconds in results.durations_s.items()]
    return rows


def _algorithm(results: ResultSet, result: AlgorithmResult) -> dict[str, Any]:
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
    return Grid(RUN_HEADERS, [("", _run_cells(result, run)) for run in result.runs])


def _run_cells(result: AlgorithmResult, run: Run) -> list[Cell]:
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
