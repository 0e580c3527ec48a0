"""``hanoi bench`` (measure and write a results directory) and ``hanoi compare`` (the regression gate)."""

from __future__ import annotations

import argparse
import json
import keyword
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tabulate import tabulate

from hanoi_harness._cli_common import add_plugin_option, disks, registry_from
from hanoi_harness.bench import cref
from hanoi_harness.bench._compare import DEFAULT_THRESHOLD_PCT, compare
from hanoi_harness.bench._external import Command
from hanoi_harness.bench._measure import check_available
from hanoi_harness.bench._plan import FULL, QUICK
from hanoi_harness.bench._report import render
from hanoi_harness.bench._results import RESULTS_FILE, ResultSet, check_replaceable, load, replace_dir
from hanoi_harness.bench._run import REFERENCE, Progress, run
from hanoi_harness.errors import UsageError
from hanoi_harness.external import parse_spec
from hanoi_harness.registry import Algorithm, Registry

QUICK_DIR = "quick"
"""Where a full run puts its quick-mode baseline, inside its output directory."""

CREF_N = 28
"""The n of a full run's C-reference comparison (:func:`.cref.measure`): 2^28 - 1 moves, 768 MiB of output."""


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "bench",
        help="measure time and peak memory across n and write a results directory",
        description="Check, time (pytest-benchmark) and measure the peak memory (tracemalloc, and peak RSS of a "
        "fresh child) of each algorithm across n, fit growth classes, and write results.json, Markdown and CSV "
        f"tables, plots and README.md into --out. '{REFERENCE}' is always measured, for relative times. A full "
        f"run also writes the quick-mode baseline into DIR/{QUICK_DIR}/ and times 'hanoi moves blocks "
        f"{CREF_N} --binary' against the C reference harness/bench/c/hanoi_ref.c when a C compiler is present. The "
        "previous results are replaced only once the new ones are complete.",
    )
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="algorithms to measure (default: every registered one, or only the --plugin ones when given)",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help=f"a few sizes (n = {', '.join(map(str, QUICK.sizes or ()))}) with few rounds: under 30 s, for CI",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("results"),
        metavar="DIR",
        help="results directory (default results); it must be new, empty or a results directory",
    )
    p.add_argument(
        "--sizes",
        type=_sizes,
        metavar="N,N,...",
        help="measure exactly these n (clamped to each algorithm's limits) instead of the mode's sizes",
    )
    p.add_argument(
        "--command",
        action="append",
        default=[],
        metavar="NAME=CMD",
        help="also measure an external program: CMD is a shell command printing the moves for {n} disks (n also "
        "comes on its standard input), checked like 'hanoi check' and timed as whole runs, start-up included "
        "(repeatable; NAME must be an identifier that is not a registered algorithm)",
    )
    add_plugin_option(p)
    p.set_defaults(func=cmd_bench)

    c = sub.add_parser(
        "compare",
        help="compare two result sets; exit 1 on a regression",
        description=f"Compare two result sets (results directories or results.json files) on times relative to "
        f"'{REFERENCE}' measured in the same run, so a faster or slower machine is not a regression. Only the "
        "(algorithm, n) pairs both sets timed are compared. Exit status 1 naming each algorithm whose relative "
        "time grew by more than the threshold (or that now fails the check), 0 otherwise.",
    )
    c.add_argument("old", type=Path, metavar="OLD", help="the baseline results directory or results.json")
    c.add_argument("new", type=Path, metavar="NEW", help="the new results directory or results.json")
    c.add_argument(
        "--threshold",
        type=_percent,
        default=DEFAULT_THRESHOLD_PCT,
        metavar="PCT",
        help=f"allowed growth of relative time, in percent (default {DEFAULT_THRESHOLD_PCT:g})",
    )
    c.set_defaults(func=cmd_compare)


def _sizes(text: str) -> list[int]:
    """_sizes(text): a comma-separated list of non-negative integers.

    >>> _sizes("3,5, 4")
    [3, 4, 5]
    """
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise argparse.ArgumentTypeError(f"expected N,N,... got {text!r}")
    return sorted({disks(part) for part in parts})


def _percent(text: str) -> float:
    """_percent(text): a percentage greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentage, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive percentage, got {text!r}")
    return value


def selected(registry: Registry, names: list[str], plugins: list[str]) -> list[Algorithm]:
    """selected(registry, names, plugins): what to measure, in registry order, the reference always included."""
    plugin_names = [a.name for a in registry if a.origin.startswith("plugin ")]
    for name in names:
        registry.get(name)  # an unknown name is a usage error, with a suggestion
    if REFERENCE not in registry:
        raise UsageError(f"the reference algorithm {REFERENCE!r} is not registered; relative times need it")
    wanted = set(names) | set(plugin_names) if names or plugins else {a.name for a in registry}
    wanted.add(REFERENCE)
    return [a for a in registry if a.name in wanted]


def commands_from(specs: list[str], registry: Registry) -> list[Command]:
    """commands_from(specs, registry): the ``--command NAME=CMD`` specs as commands; one-line usage errors.

    >>> from hanoi_harness.registry import build_registry
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
    registry = registry_from(args)
    algorithms = selected(registry, args.names, args.plugin)
    commands = commands_from(args.command, registry)
    problem = check_available()
    if problem:
        raise UsageError(problem)
    out: Path = args.out
    check_replaceable(out)
    settings = (QUICK if args.quick else FULL).with_sizes(args.sizes)
    progress = _Bar()
    baseline: tuple[ResultSet, dict[str, Any]] | None = None
    if settings.mode == "full":
        # The baseline first: measured later in this process, after minutes of work, relative times came
        # out 5-15% off those of a fresh 'hanoi bench --quick', which is what CI compares with it.
        progress.prefix = "quick baseline: "
        baseline = run(algorithms, args.plugin, QUICK.with_sizes(args.sizes), progress, commands)
        progress.prefix = ""
    results, report = run(algorithms, args.plugin, settings, progress, commands)
    if settings.mode == "full":
        results.c_reference, seconds = _c_reference(progress)
        results.durations_s["C reference"] = round(seconds, 1)

    def fill(tmp: Path) -> None:
        _write_set(tmp, results, report)
        render(load(tmp / RESULTS_FILE), tmp)  # tables and plots come from the file alone
        if baseline is not None:
            (tmp / QUICK_DIR).mkdir()
            _write_set(tmp / QUICK_DIR, *baseline)

    replace_dir(out, fill)
    failed = [name for name, result in results.algorithms.items() if result.status != "ok"]
    programs = f" and {len(commands)} commands" if commands else ""
    print(f"wrote {out}/ ({settings.mode} run of {len(results.algorithms) - len(commands)} algorithms{programs})")
    if failed:
        print(f"failed the check (reported, not measured): {', '.join(failed)}", file=sys.stderr)
    return 0


def _c_reference(progress: Progress) -> tuple[dict[str, Any], float]:
    """_c_reference(progress): :func:`hanoi_harness.bench.cref.measure` at :data:`CREF_N`, and the seconds it took.

    Run after every other phase, so it does not share the machine with the
    timing.  A compiler that fails, or a program that does, is the skip
    reason rather than the end of a run minutes long.
    """
    progress.phase(f"C reference (n = {CREF_N})", None)
    started = time.monotonic()
    try:
        found = cref.measure(CREF_N)
    except (subprocess.CalledProcessError, OSError) as exc:
        said = (getattr(exc, "stderr", None) or b"").decode(errors="replace").strip().splitlines()
        found = {"n": CREF_N, "skipped": f"the C reference failed: {exc}" + (f": {said[-1]}" if said else "")}
    progress.close()
    return found, time.monotonic() - started


def _write_set(directory: Path, results: ResultSet, report: dict[str, Any]) -> None:
    (directory / RESULTS_FILE).write_text(results.dumps())
    if report:
        text = json.dumps(report, indent=2)
        (directory / "pytest-benchmark.json").write_text("{" + text[1:].lstrip() + "\n")


def cmd_compare(args: argparse.Namespace) -> int:
    old, new = load(args.old), load(args.new)
    result = compare(old, new, args.threshold)
    rows = []
    for row in result.rows:
        change = "" if row.change is None else f"{(row.change - 1) * 100:+.1f}%"
        rows.append(
            [
                row.name,
                ",".join(str(n) for n in row.ns),
                "" if row.old_rel is None else f"{row.old_rel:.3f}",
                "" if row.new_rel is None else f"{row.new_rel:.3f}",
                change,
                row.status,
            ]
        )
    headers = ["algorithm", "n compared", f"old time / {result.reference}", f"new time / {result.reference}"]
    print(tabulate(rows, headers=[*headers, "change", "status"], tablefmt="simple", disable_numparse=True))
    if result.regressions:
        names = ", ".join(result.regressions)
        print(f"hanoi: regression beyond {result.threshold_pct:g}%: {names}", file=sys.stderr)
        return 1
    if not any(row.change is not None for row in result.rows):
        raise UsageError("nothing to compare: the result sets have no (algorithm, n) timed in both")
    print(f"no regression beyond {result.threshold_pct:g}%")
    return 0


class _Bar(Progress):
    """Progress bars on stderr (tqdm), one per phase, when stderr is a terminal; silent otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.bar: Any = None
        self.prefix = ""

    def phase(self, description: str, total: int | None) -> None:
        self.close()
        if self.tty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=self.prefix + description, unit="run", file=sys.stderr, leave=False)

    def step(self, label: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
