"""The ``hanoi bench``, ``hanoi compare`` and ``hanoi report`` commands."""

from __future__ import annotations

import argparse
import keyword
import sys
from pathlib import Path

from hanoi_harness.bench.gate.compare import DEFAULT_THRESHOLD_PCT, DEFAULT_TIME_THRESHOLD_PCT, compare
from hanoi_harness.bench.gate.compare import report as compared
from hanoi_harness.bench.gate.export import to_json, to_junit, to_markdown, verdict
from hanoi_harness.bench.plan import QUICK
from hanoi_harness.bench.report.formatting import escaped
from hanoi_harness.bench.report.view import PAGE
from hanoi_harness.bench.results.outdir import MARKER
from hanoi_harness.bench.results.resultset import load
from hanoi_harness.bench.run import REFERENCE, failure_line
from hanoi_harness.bench.session import QUICK_DIR, bench, plan, report
from hanoi_harness.bench.shell import Command
from hanoi_harness.cli.options import add_plugin_option, disks, registry_from
from hanoi_harness.cli.streams import algorithm_output
from hanoi_harness.errors import UsageError
from hanoi_harness.progress import Bar
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import Registry
from hanoi_harness.transcript.command import parse_spec


def add_bench(p: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi bench`` to *p*."""
    p.description = (
        "Check, time (pytest-benchmark, with a 95% interval and a stability flag on each time) and "
        "measure the peak memory (tracemalloc, and peak RSS of a fresh child) and the instructions per move "
        "(valgrind, where installed; otherwise unavailable, with the reason) of each algorithm across n, every "
        "move read by one consumer and another puzzle's records at the sizes of the same work; time the "
        "reference against itself (the noise floor), fit growth classes, and write results.json, the HTML report "
        f"index.html, Markdown and CSV tables, plots and README.md into --out. '{REFERENCE}' is always measured, "
        "for relative times. A full run (neither --quick nor --sizes) also writes the quick-mode baseline into "
        f"DIR/{QUICK_DIR}/. The previous results are replaced only once the new ones are complete. Exit status "
        "0 when every algorithm and command passed its check, 1 when any failed it (reported in the results and "
        "named on stderr with the n, the step and the reason; not measured), 2 for bad input or an --out that "
        "cannot be written or is not a result set, 130 when interrupted (the previous results are then as they "
        "were). What an algorithm prints goes to stderr, never into the results or stdout."
    )
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="algorithms to measure (default: all registered, or only the --plugin ones if given)",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"a short run for CI: n = {', '.join(map(str, QUICK.sizes or ()))}, few rounds, instruction counts "
        "included",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("results"),
        metavar="DIR",
        help=f"results directory (default results): new, empty, or a result set a bench wrote ({MARKER} lists its "
        "files)",
    )
    p.add_argument(
        "--sizes",
        type=_sizes,
        metavar="N,N,...",
        help="measure only these n, clamped to each algorithm's limits; without --quick, with the full run's "
        "rounds but no quick baseline",
    )
    p.add_argument(
        "--command",
        action="append",
        default=[],
        metavar="NAME=CMD",
        help="also measure CMD, a shell command that prints the moves for {n} disks, n also on its stdin "
        "(repeatable). It is checked like 'hanoi check' and timed as whole runs, start-up included; NAME is an "
        "identifier that no registered algorithm has",
    )
    add_plugin_option(p)
    p.set_defaults(func=cmd_bench)


def add_compare(c: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi compare`` to *c*."""
    c.description = (
        "Compare two result sets (results directories or results.json files): the regression gate. "
        "Every algorithm of NEW is gated, or the NAMEs given: one that has no baseline in OLD fails the gate, "
        f"and so does one named that NEW lacks. Instructions per move (valgrind) and tracemalloc peaks are "
        f"deterministic: an algorithm whose figure grew by more than --threshold (default "
        f"{DEFAULT_THRESHOLD_PCT:g}%) regressed. An algorithm that passed its check in OLD and fails it in NEW "
        f"regressed. Times relative to '{REFERENCE}' measured in the same run (so a faster or slower machine is "
        "not a regression) are tested: a change is reported only when a Mann-Whitney test on the kept rounds and "
        "a bootstrap interval of the ratio say so (otherwise 'within noise'), and is a regression when it is "
        f"slower with the whole interval beyond --time-threshold (default {DEFAULT_TIME_THRESHOLD_PCT:g}%). When "
        "the environments differ, what the difference cannot affect is compared (another numpy does not change "
        "an algorithm that never loads it) and the rest is skipped, each with the reason. Exit status 0 when "
        "nothing regressed and every deterministic check was made; 1 naming each algorithm and metric that "
        "regressed; 2 for bad input (a result set that does not read, or nothing to compare); 3 when not "
        "everything could be compared: an algorithm without a baseline or not measured, a deterministic check "
        "that could not be made (no valgrind; unless --allow-incomplete), or a figure skipped for the "
        "environments (with --strict-environment only). A regression wins over 3."
    )
    c.add_argument("old", type=Path, metavar="OLD", help="the baseline results directory or results.json")
    c.add_argument("new", type=Path, metavar="NEW", help="the new results directory or results.json")
    c.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"the algorithms to gate (default: all in NEW); '{REFERENCE}' is still read for relative times",
    )
    c.add_argument(
        "--threshold",
        type=_percent,
        default=DEFAULT_THRESHOLD_PCT,
        metavar="PCT",
        help=f"allowed growth, in percent, of instructions per move and tracemalloc peaks (default "
        f"{DEFAULT_THRESHOLD_PCT:g})",
    )
    c.add_argument(
        "--time-threshold",
        type=_percent,
        default=DEFAULT_TIME_THRESHOLD_PCT,
        metavar="PCT",
        help=f"allowed growth, in percent, of a time relative to '{REFERENCE}'; it fails when its whole 95%% "
        f"interval is beyond (default {DEFAULT_TIME_THRESHOLD_PCT:g})",
    )
    c.add_argument(
        "--allow-incomplete",
        action="store_true",
        help="exit 0 even if instruction counts or peaks could not be compared (no valgrind, or other sizes); "
        "they are still listed",
    )
    c.add_argument(
        "--strict-environment",
        action="store_true",
        help="exit 1 when the environments differ so that a figure is skipped (another Python build, C library, "
        "valgrind, architecture, or numpy for an algorithm that runs it); without it, the differences are listed",
    )
    c.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object instead of the report: the overall status (matching the exit status), and "
        "per algorithm and metric the old and new figures, the change, the threshold and a status",
    )
    c.add_argument(
        "--junit", type=Path, metavar="FILE", help="also write JUnit XML: one test case per algorithm and metric"
    )
    c.add_argument(
        "--markdown",
        type=Path,
        metavar="FILE",
        help='also append a Markdown summary to FILE (e.g. "$GITHUB_STEP_SUMMARY")',
    )
    c.set_defaults(func=cmd_compare)


def add_report(r: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi report`` to *r*."""
    r.description = (
        "Render index.html, README.md, tables.md, the CSV tables and the plots again from a result "
        "set's results.json, without measuring anything (after a change to the report's code, say). The directory is "
        "replaced in one step, as a bench run replaces it. Exit status 0, or 2 for a directory or results.json "
        "that does not read, or an output directory that is not a result set."
    )
    r.add_argument("source", type=Path, metavar="DIR", help="a results directory, or a results.json")
    r.add_argument(
        "--out",
        type=Path,
        metavar="OUT",
        help="write the rendered set into OUT (new, empty or a result set), leaving DIR as it is",
    )
    r.set_defaults(func=cmd_report)


PARSERS = {"bench": add_bench, "compare": add_compare, "report": add_report}


def _sizes(text: str) -> list[int]:
    """Return the distinct n of the comma-separated *text*, sorted.

    >>> _sizes("3,5, 4")
    [3, 4, 5]
    """
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise argparse.ArgumentTypeError(f"expected N,N,... got {text!r}")
    return sorted({disks(part) for part in parts})


def _percent(text: str) -> float:
    """Return the percentage in *text*, which must be greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentage, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive percentage, got {text!r}")
    return value


def selected(registry: Registry, names: list[str], plugins: list[str]) -> list[Algorithm]:
    """Return *names*, else the *plugins*', else all; and the reference."""
    plugin_names = [a.name for a in registry if a.origin.startswith("plugin ")]
    for name in names:
        registry.get(name)  # an unknown name is a usage error, with a suggestion
    if REFERENCE not in registry:
        raise UsageError(f"the reference algorithm {REFERENCE!r} is not registered; relative times need it")
    wanted = set(names) | set(plugin_names) if names or plugins else {a.name for a in registry}
    wanted.add(REFERENCE)
    return [a for a in registry if a.name in wanted]


def commands_from(specs: list[str], registry: Registry) -> list[Command]:
    """Return the ``--command NAME=CMD`` *specs* as commands.

    >>> from hanoi_harness.registry.sources import build_registry
    >>> commands_from(["mine=./hanoi {n}"], build_registry())
    [Command(name='mine', template='./hanoi {n}')]
    """
    commands: list[Command] = []
    for spec in specs:
        name, template = parse_spec(spec)
        if keyword.iskeyword(name):
            raise UsageError(f"--command {spec!r}: {name!r} is a Python keyword; choose another NAME")
        if name in registry:
            raise UsageError(f"--command {spec!r}: {name!r} is a registered algorithm; choose another NAME")
        if any(command.name == name for command in commands):
            raise UsageError(f"--command {spec!r}: the NAME {name!r} is given twice")
        commands.append(Command(name, template))
    return commands


def cmd_bench(args: argparse.Namespace) -> int:
    out = Path(args.out).resolve()  # before a plugin's import can change the working directory
    with algorithm_output():  # the algorithms run in this process too: what they print goes to stderr
        registry = registry_from(args)
        algorithms = selected(registry, args.names, args.plugin)
        commands = commands_from(args.command, registry)
        outcome = bench(algorithms, args.plugin, commands, plan(args.quick, args.sizes), out, Bar(plain=True))
    programs = f" and {len(commands)} commands" if commands else ""
    measured = len(outcome.results.algorithms) - len(commands)
    print(
        f"wrote {args.out}/ ({outcome.results.mode} run of {measured} algorithms{programs}); the report: "
        f"{args.out}/{PAGE}"
    )
    if outcome.failed:
        for _, result in outcome.failures:  # reported in the set, not measured
            print(f"hanoi: {failure_line(result)}", file=sys.stderr)
        return 1
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    old, new = load(args.old), load(args.new)
    result = compare(old, new, args.threshold, args.time_threshold, args.names or None)
    if not result.compared and not (result.no_baseline or result.not_measured):
        raise UsageError("nothing to compare: the result sets have no algorithm measured in both")
    found = verdict(result, args.allow_incomplete, args.strict_environment)
    print(to_json(result, found) if args.json else compared(result, old, new))
    if args.junit is not None:
        _write(args.junit, to_junit(result), append=False)
    if args.markdown is not None:
        _write(args.markdown, to_markdown(result, found), append=True)
    if result.no_baseline:
        names = ", ".join(result.no_baseline)
        _say(f"no baseline for {names} in {args.old}: make the baseline again with it")
    if result.not_measured:
        _say(f"not measured in {args.new}: {', '.join(result.not_measured)}")
    if result.regressions:
        _say(f"regression: {', '.join(result.regressions)}")
    incomplete = [item for item in found.unchecked if not item.startswith(("no baseline", "not measured"))]
    if incomplete:
        allowed = "allowed" if args.allow_incomplete else "the gate fails (--allow-incomplete to pass)"
        _say(f"not checked, {allowed}: {'; '.join(incomplete)}")
    if found.skipped:
        allowed = "the gate fails (--strict-environment)" if args.strict_environment else "allowed"
        _say(f"skipped, the environments differ, {allowed}: {'; '.join(found.skipped)}")
    if found.status == "pass" and not args.json:
        limits = f"{result.threshold_pct:g}% (deterministic) or {result.time_threshold_pct:g}% (time)"
        print(f"no regression beyond {limits}")
    return found.exit_status


def _say(message: str) -> None:
    """Print ``hanoi: MESSAGE`` on stderr, whole, every control escaped."""
    print(f"hanoi: {escaped(message)}", file=sys.stderr)


def _write(path: Path, text: str, append: bool) -> None:
    """Write (or append) *text* to *path*; a file that cannot be is bad input."""
    try:
        with path.open("a" if append else "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def cmd_report(args: argparse.Namespace) -> int:
    written = report(args.source, args.out)
    source = args.source / "results.json" if args.source.is_dir() else args.source
    print(f"rendered {args.out or written}/ from {source}; the report: {args.out or written}/{PAGE}")
    return 0
