"""``hanoi list``: the registry as a table, or its names one a line."""

from __future__ import annotations

import argparse
import textwrap
import unicodedata

from hanoi_harness.cli.options import add_plugin_option
from hanoi_harness.cli.streams import write_lines
from hanoi_harness.registry.probe import catalog
from hanoi_harness.registry.record import Algorithm


def add_list(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi list`` to *p*."""
    p.description = (
        "Show every registered algorithm: name, source, family, limits and why, "
        "declared extra space and time, the peg its tower ends on, the puzzle it solves (classic, any state, "
        "cyclic, linear, k pegs) and which --from/--to configurations it takes (-: none, towers: a whole tower "
        "on any peg, any: any configuration)."
    )
    p.add_argument("--names", action="store_true", help="print only the names, one a line")
    add_plugin_option(p)
    p.set_defaults(func=cmd_list)


PARSERS = {"list": add_list}


def _limits(a: Algorithm) -> str:
    parts = [a.limits()]
    if a.min_n_reason:
        parts.append(f"min: {a.min_n_reason}")
    if a.max_n_reason:
        parts.append(f"max: {a.max_n_reason}")
    return "; ".join(parts)


def _source(a: Algorithm) -> str:
    if a.source is None:
        return a.origin
    text = f"{a.source.author}, {a.source.year}"
    return f"reconstruction from {text}" if a.reconstruction else text


def puzzle_of(a: Algorithm) -> str:
    """Name the puzzle *a* solves, in a word or two.

    >>> from hanoi_harness.registry.sources import REGISTRY
    >>> [puzzle_of(REGISTRY.get(name)) for name in ("recursive", "any_state", "cyclic", "frame_stewart")]
    ['classic', 'any state', 'cyclic', '4 pegs']
    """
    if a.puzzle.classic and a.solve_for is not None and a.configurations == "any":
        return "any state"
    return a.puzzle.name


def ends_of(a: Algorithm) -> str:
    """Name the ends *a* takes with ``--from``/``--to``: "-", towers or any."""
    return "-" if a.solve_for is None else a.configurations


def _wrapped(row: list[str], widths: list[int | None]) -> list[str]:
    """The cells of *row* wrapped to their column's width, where it has one.

    >>> _wrapped(["a b c", "d e f"], [None, 3])
    ['a b c', 'd e\\nf']
    """
    cells = zip(row, widths, strict=True)
    return [cell if width is None else "\n".join(textwrap.wrap(cell, width)) or cell for cell, width in cells]


def _width(text: str) -> int:
    """Return the columns *text* takes on a terminal: wide characters take two.

    >>> _width("abc"), _width("盘子"), _width("e\\u0301")
    (3, 4, 1)
    """
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table(headers: list[str], rows: list[list[str]]) -> str:
    """Return *rows* under *headers* as a plain table; a cell may hold lines.

    >>> print(table(["name", "n"], [["a", "1\\n2"], ["bcd", "3"]]))
    name  n
    ----  -
    a     1
          2
    bcd   3
    """
    cells = [[cell.split("\n") for cell in row] for row in [headers, *rows]]
    widths = [max(_width(line) for row in cells for line in row[i]) for i in range(len(headers))]
    lines = []
    for index, row in enumerate(cells):
        for k in range(max(len(cell) for cell in row)):
            parts = [cell[k] if k < len(cell) else "" for cell in row]
            lines.append("  ".join(p + " " * (w - _width(p)) for p, w in zip(parts, widths, strict=True)).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cmd_list(args: argparse.Namespace) -> int:
    # The records as a child that imported them described them: listing runs no plugin's code here.
    registry = catalog(args.plugin, timeout=args.import_timeout)
    if args.names:
        write_lines(f"{a.name}\n" for a in registry)
        return 0
    rows = [
        [
            a.name,
            a.summary,
            _source(a),
            a.family,
            _limits(a),
            a.space,
            a.time,
            str(a.final_peg),
            puzzle_of(a),
            ends_of(a),
        ]
        for a in registry
    ]
    headers = ["name", "summary", "source", "family", "n (limits and why)", "space", "time", "final peg"]
    headers += ["puzzle", "from/to"]
    widths = [None, 34, 24, 10, 44, None, None, 10, 9, None]
    write_lines([table(headers, [_wrapped(row, widths) for row in rows]), "\n"])
    return 0
