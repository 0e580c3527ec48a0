"""``hanoi list``: the registry as a table, or its names one a line."""

from __future__ import annotations

import argparse

from tabulate import tabulate

from hanoi_harness._cli_common import add_plugin_option, registry_from
from hanoi_harness._cli_streams import write_lines
from hanoi_harness.registry import Algorithm


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "list",
        help="show the registered algorithms",
        description="Show every registered algorithm: name, source, family, limits and why, "
        "declared extra space and time, and the peg its tower ends on.",
    )
    p.add_argument("--names", action="store_true", help="print only the names, one a line")
    add_plugin_option(p)
    p.set_defaults(func=cmd_list)


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


def cmd_list(args: argparse.Namespace) -> int:
    registry = registry_from(args)
    if args.names:
        write_lines(f"{a.name}\n" for a in registry)
        return 0
    rows = [[a.name, a.summary, _source(a), a.family, _limits(a), a.space, a.time, str(a.final_peg)] for a in registry]
    headers = ["name", "summary", "source", "family", "n (limits and why)", "space", "time", "final peg"]
    table = tabulate(rows, headers=headers, tablefmt="simple", maxcolwidths=[None, 34, 24, 10, 44, None, None, 10])
    write_lines([table, "\n"])
    return 0
