"""The Markdown of a result set, README.md and tables.md.

Rendered from Jinja2 templates shipped with the package.

The templates (``templates/*.j2``) hold the prose; this module computes what
they show from the result set alone (every figure formatted here, so the
templates hold no arithmetic) and renders them.  README.md is the short
view GitHub shows; the whole report is ``index.html`` (:mod:`.page`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

from hanoi_harness.bench.consume import SLICE_ROWS
from hanoi_harness.bench.counts.measure import SIZES
from hanoi_harness.bench.gate.counts import DEFAULT_THRESHOLD_PCT
from hanoi_harness.bench.gate.times import DEFAULT_TIME_THRESHOLD_PCT
from hanoi_harness.bench.report.formatting import NOTE, escaped, fmt_margin, markdown
from hanoi_harness.bench.report.plots import pictures
from hanoi_harness.bench.report.summary import glance, verdict
from hanoi_harness.bench.report.tables import Part, Table, csv_names
from hanoi_harness.bench.results.environment import Environment
from hanoi_harness.bench.results.resultset import ResultSet
from hanoi_harness.bench.timing.noise import ROUNDS

PAGE = "index.html"
"""The HTML report beside README.md."""

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The templates, installed with the package (package data)."""


@cache
def environment(escape: bool = False) -> jinja2.Environment:
    """Return the Jinja2 environment of the templates.

    Markdown escapes nothing; HTML (*escape*) escapes every value. An
    unknown name raises. Either way a value's control characters (but
    newlines and tabs) show as their Python escapes (:func:`printable`).
    """
    return jinja2.Environment(
        finalize=printable,
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        autoescape=escape,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def printable(value: Any) -> Any:
    """Return *value* with its control characters escaped, if it is text.

    Newlines and tabs stay; markup made by the templates stays as it is.

    >>> printable("ok\\x1b[2J"), printable(3)
    ('ok\\\\x1b[2J', 3)
    """
    if not isinstance(value, str) or isinstance(value, markupsafe.Markup) or value.isprintable():
        return value
    return "".join(c if c in "\n\t" else escaped(c) for c in value)


def provenance(results: ResultSet) -> str:
    """Return the sentence that says where the figures of *results* came from.

    Run, code, machine, duration.

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
    """Return the machine of the environment *e*.

    Its CPU, cores and architecture.
    """
    return f"{e.cpu or 'an unknown CPU'} ({e.cores} cores, {e.arch})"


def _python(e: Environment) -> str:
    """Return the interpreter and what else the figures depend on.

    As far as *e* recorded them.
    """
    extra = [f"numpy {e.numpy}" if e.numpy else "", e.libc, e.valgrind]
    shown = ", ".join(part for part in extra if part)
    return f"{e.implementation} {e.python}" + (f" ({shown})" if shown else "")


def tables_md(results: ResultSet, tables: list[Table]) -> str:
    """Return the text of tables.md: every one of *tables* under its title."""
    template = environment().get_template("tables.md.j2")
    return template.render(note=NOTE, provenance=provenance(results), tables=tables)


def readme(results: ResultSet, tables: list[Table]) -> str:
    """Return the text of README.md for *results*.

    *tables* are its tables, the summary first, instructions second.
    """
    externals = any(r.external for r in results.algorithms.values())
    context = {
        "note": NOTE,
        "glance": glance(results),
        "provenance": provenance(results),
        "also": " and external program (`--command`, marked *(command)*)" if externals else "",
        "reference": results.reference,
        "summaries": [_summary(part) for part in tables[0].parts],
        "instructions": _instructions(results, tables[1]),
        "noise": _noise(results),
        "load": " / ".join(f"{value:g}" for value in results.environment.load),
        "plots": pictures(results),
        "page": PAGE,
        "csv_names": ", ".join(f"`{name}`" for name in csv_names(tables)),
        "commands": _commands(results),
        "how": _how(results),
        "baseline": has_baseline(results),
        "kind": "quick run" if results.mode == "quick" else "run of fixed sizes",
        "threshold": f"{DEFAULT_THRESHOLD_PCT:g}",
        "time_threshold": f"{DEFAULT_TIME_THRESHOLD_PCT:g}",
        "slice_rows": SLICE_ROWS,
    }
    return environment().get_template("README.md.j2").render(context)


def has_baseline(results: ResultSet) -> bool:
    """Whether the set of *results* has a ``quick/`` baseline.

    A full run's walk writes one, fixed sizes do not.
    """
    return results.mode == "full" and not results.settings.get("sizes")


def _summary(part: Part) -> dict[str, Any]:
    """Return what README.md shows of one puzzle's summary.

    Its title, how it is ranked, the table, its findings.
    """
    return {"label": part.label, "lead": part.lead, "table": markdown(part.headers, part.shown), "notes": part.notes}


def _instructions(results: ResultSet, table: Table) -> dict[str, Any]:
    """Return what the section "Instructions per move" shows for *results*.

    Its table, and any reasons none were had.
    """
    counts = [r.instructions for r in results.algorithms.values() if r.instructions is not None]
    reasons = sorted({count.unavailable for count in counts if count.unavailable})
    return {
        "table": table.markdown() if counts else "",
        "sizes": "n = {} and {}".format(*(results.settings.get("count_sizes") or SIZES)),
        "reasons": reasons,
        "valgrind": results.environment.valgrind,
    }


def _noise(results: ResultSet) -> dict[str, str] | None:
    """Return what the section "The noise floor" says of *results*.

    None when the run measured none.
    """
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
    """Return the settings of *results* as "How these were measured" says.

    The section of README.md states them.
    """
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

    Every *stride*-th of them does.

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
    """Return the table of the ``--command`` entries of *results*.

    "" when there are none.
    """
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
