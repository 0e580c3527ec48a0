"""Every view of a result set, rendered from ``results.json`` alone."""

from __future__ import annotations

from pathlib import Path

from hanoi_harness.bench.report.plots import plot
from hanoi_harness.bench.report.summary import details, summary
from hanoi_harness.bench.report.tables import FIGURES, Table, by_n, instructions
from hanoi_harness.bench.report.view import PAGE, tables_md, text, view
from hanoi_harness.bench.results.resultset import ResultSet
from hanoi_harness.sandbox.interrupts import interruption_wins


def all_tables(results: ResultSet) -> list[Table]:
    """Return every table of *results* in the order of tables.md."""
    tables = [summary(results), instructions(results), *(by_n(results, figure) for figure in FIGURES)]
    tables.append(details(results))
    return tables


def render(results: ResultSet, out: Path) -> list[str]:
    """Write every view of *results* into *out*; return their names."""
    with interruption_wins():
        tables = all_tables(results)
        written = []
        for table in tables:
            if table.csv:
                table.write_csv(out)
                written.append(table.csv)
        (out / "tables.md").write_text(tables_md(results, tables))
        written += plot(results, out)
        model = view(results, tables)
        (out / "README.md").write_text(text("README.md.j2", model))
        (out / PAGE).write_text(text("index.html.j2", model))
    return [PAGE, "README.md", "tables.md", *written]
