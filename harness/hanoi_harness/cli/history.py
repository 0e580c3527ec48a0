"""``hanoi history`` and ``hanoi bisect``: algorithms at past git commits."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from hanoi_harness.bench.history import DEFAULT_COUNT, METRICS, Record, bisect, history, write_csv, write_html
from hanoi_harness.bench.plan import DEFAULT_THRESHOLD_PCT
from hanoi_harness.errors import UsageError
from hanoi_harness.progress import Bar

OUT = Path("hanoi-history")  #: Where the results of each commit, the CSV and the page go by default.


def _common(p: argparse.ArgumentParser) -> None:
    """Add the options both commands take to *p*."""
    p.add_argument("--repo", type=Path, default=Path("."), metavar="DIR", help="the git repository (default .)")
    p.add_argument(
        "--out",
        type=Path,
        default=OUT,
        metavar="DIR",
        help=f"the folder of one result file per commit, reused by later runs (default {OUT})",
    )


def add_history(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi history`` to *p*."""
    p.description = (
        "Measure every algorithm at each first-parent commit of RANGE with the harness as it is now: "
        "instructions per move (valgrind), the tracemalloc peak and the check verdict, at the quick sizes. "
        "A commit's algorithms are the harness repository's algorithms/ package, or a 'hanoi new' project's "
        "entry points, from a temporary copy of that commit. Writes DIR/COMMIT.json per commit, DIR/history.csv "
        "and the page DIR/index.html; commits already in DIR are not measured again. Exit status 0, or 2 for "
        "bad input; a commit that cannot be measured is one line saying why."
    )
    p.add_argument(
        "span",
        nargs="?",
        metavar="RANGE",
        help=f"A..B, or one revision for its last {DEFAULT_COUNT} commits (default: the last {DEFAULT_COUNT} of HEAD)",
    )
    _common(p)
    p.add_argument(
        "--algorithm", action="append", default=[], metavar="NAME", help="measure only NAME (repeatable; default all)"
    )
    p.add_argument(
        "--commit-url",
        default="",
        metavar="URL",
        help="link each step to URL with {commit} replaced (default: the commit's row of the page)",
    )
    p.set_defaults(func=cmd_history)


def add_bisect(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi bisect`` to *p*."""
    p.description = (
        "Find the first first-parent commit after GOOD, up to BAD, whose figure for --algorithm exceeds GOOD's "
        f"by more than the gate's {DEFAULT_THRESHOLD_PCT:g}%, or that fails its check. Counts are exact, so a "
        "binary search is never fooled by noise. Exit status 0 when found, 1 when BAD does not regress against "
        "GOOD, 2 for bad input (a bad revision, an unknown algorithm, no valgrind for instructions)."
    )
    p.add_argument("good", metavar="GOOD", help="a revision with the figure to keep")
    p.add_argument("bad", metavar="BAD", help="a later revision that may have regressed")
    p.add_argument("--algorithm", required=True, metavar="NAME", help="the algorithm to follow")
    p.add_argument(
        "--metric", choices=list(METRICS), default="instructions", help="the figure compared (default instructions)"
    )
    _common(p)
    p.set_defaults(func=cmd_bisect)


def _progress() -> tuple[Bar, Callable[[str], None]]:
    """A bar of commits on stderr, and the hook that says each one there."""
    bar = Bar(unit="commit")
    bar.phase("commits", None)

    def said(line: str) -> None:
        bar.say(f"hanoi: {line}")
        bar.step(line[:10])

    return bar, said


def cmd_history(args: argparse.Namespace) -> int:
    bar, said = _progress()
    try:
        records = history(args.repo, args.span, args.out, args.algorithm, said)
    finally:
        bar.close()
    if not records:
        raise UsageError(f"no commits in {args.span}")
    write_csv(records, args.out / "history.csv")
    write_html(records, args.out / "index.html", args.commit_url)
    print(f"{len(records)} commits in {args.out}/; the page: {args.out}/index.html")
    return 0


def cmd_bisect(args: argparse.Namespace) -> int:
    bar, said = _progress()
    try:
        found = bisect(args.repo, args.good, args.bad, args.algorithm, args.metric, args.out, said)
    finally:
        bar.close()
    name, metric = args.algorithm, args.metric
    if found.commit is None:
        print(
            f"{name}: {args.bad} does not regress against {args.good} ({_figure(found.good, name, metric)} -> "
            f"{_figure(found.bad, name, metric)} {METRICS[metric]})"
        )
        return 1
    before = found.before or found.good
    print(f"first bad commit: {found.commit.commit} {found.commit.subject}")
    print(
        f"{name}, {METRICS[metric]}: {_figure(before, name, metric)} at {before.commit[:10]} -> "
        f"{_figure(found.commit, name, metric)} at {found.commit.commit[:10]}"
    )
    return 0


def _figure(record: Record, name: str, metric: str) -> str:
    """The figure of *name* in *record*, or why there is none."""
    why = record.why_not(name)
    value = record.figure(name, metric)
    return f"failed ({why})" if why else "none" if value is None else f"{value:,.1f}"


PARSERS = {"history": add_history, "bisect": add_bisect}
