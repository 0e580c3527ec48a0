"""Start-up cost of the ``hanoi`` command, against the bare interpreter.

Each command is run in a fresh process a number of times. Its CPU time
(user and system, as the kernel counts it for the child) is compared with
that of ``python -c pass`` started the same way, as a ratio within one run.
Where valgrind is installed, the instructions of one run of each are counted
too: a figure that does not move with the machine's load.

    python -m benchmarks.startup --out results

``make bench`` runs it after ``hanoi bench``: it writes ``startup.md`` and
its CSV twin ``startup.csv`` into ``--out``, linked from its README.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks import publish
from hanoi_harness.bench.counts.cachegrind import read_totals
from hanoi_harness.bench.counts.measure import Valgrind, find_valgrind
from hanoi_harness.bench.report.formatting import fmt_seconds
from hanoi_harness.bench.report.tables import Table

COMMANDS: tuple[tuple[str, ...], ...] = (("--help",), ("list",), ("move", "3", "4"))
"""The commands timed: the ones that must start in a few times the interpreter's own start-up."""

RUNS = 30
"""Fresh processes a command is started in; the median CPU time is kept."""

QUICK_RUNS = 10
"""Fresh processes a command is started in by a quick run."""

BASELINE = "python -c pass"
"""The label of the bare interpreter's start-up, the one every ratio divides by."""

GOAL = 4.0
"""The goal: each of :data:`COMMANDS` starts within this many times the CPU of :data:`BASELINE`."""


@dataclass(frozen=True)
class Startup:
    """One command's start-up: its median CPU seconds and instructions."""

    command: str
    cpu_s: float
    instructions: int | None

    def ratio(self, baseline: Startup) -> float:
        """The CPU time of this command over *baseline*'s."""
        return self.cpu_s / baseline.cpu_s

    def instruction_ratio(self, baseline: Startup) -> float | None:
        """This command's instructions over *baseline*'s, or None.

        None unless both were counted.

        >>> Startup("hanoi list", 0.2, 300).instruction_ratio(Startup(BASELINE, 0.05, 100))
        3.0
        >>> Startup("hanoi list", 0.2, 300).instruction_ratio(Startup(BASELINE, 0.05, None)) is None
        True
        """
        if self.instructions is None or not baseline.instructions:
            return None
        return self.instructions / baseline.instructions


@dataclass(frozen=True)
class StartupSet:
    """The start-up of one bench run: the bare interpreter, then each command.

    *runs* is the processes each CPU time is the median of; *unavailable*
    says why no instructions were counted ("" when they were).  *skipped*
    says why nothing was measured (a command that failed); *measured* is
    then empty.

    >>> found = StartupSet(5, (Startup(BASELINE, 0.04, None), Startup("hanoi list", 0.1, None)))
    >>> [entry.command for entry in found.commands], found.ratio(found.commands[0])
    (['hanoi list'], 2.5)
    """

    runs: int
    measured: tuple[Startup, ...]
    unavailable: str = ""
    skipped: str = ""

    @property
    def baseline(self) -> Startup:
        """The bare interpreter's start-up, the first measured."""
        return self.measured[0]

    @property
    def commands(self) -> tuple[Startup, ...]:
        """Each command's start-up, in the order measured."""
        return self.measured[1:]

    def ratio(self, entry: Startup) -> float | None:
        """The CPU time of *entry* over the baseline's, or None.

        None when the baseline took no CPU time.
        """
        return entry.ratio(self.baseline) if self.baseline.cpu_s > 0 else None

    def within_goal(self, entry: Startup) -> bool:
        """Whether *entry* starts within :data:`GOAL` times the baseline's CPU."""
        found = self.ratio(entry)
        return found is not None and found <= GOAL

    def table(self) -> Table:
        """Return the table of the start-up, Markdown and CSV both.

        One row for the bare interpreter, then one per command: its median
        CPU time and instructions, each as a ratio to the interpreter's, and
        whether it meets the goal.
        """
        base = self.baseline
        headers = ["command", "CPU time (median)", "CPU ratio", "instructions", "instruction ratio"]
        headers.append(f"within {GOAL:g}x")
        columns = ["command", "cpu_s", "ratio", "instructions", "instruction_ratio", "within_goal"]
        counted_base = 1.0 if base.instructions else None
        shown = [[f"`{base.command}`", fmt_seconds(base.cpu_s), _ratio(1.0), _count(base.instructions)]]
        shown[0] += [_ratio(counted_base), ""]
        raw: list[list[Any]] = [[base.command, base.cpu_s, 1.0, base.instructions, counted_base, None]]
        for entry in self.commands:
            ratio, counted = self.ratio(entry), entry.instruction_ratio(base)
            shown.append([f"`{entry.command}`", fmt_seconds(entry.cpu_s), _ratio(ratio), _count(entry.instructions)])
            shown[-1] += [_ratio(counted), "yes" if self.within_goal(entry) else "no"]
            raw.append([entry.command, entry.cpu_s, ratio, entry.instructions, counted, self.within_goal(entry)])
        title = f"Start-up of the hanoi command (CPU time, median of {self.runs} fresh processes; valgrind's count)"
        return Table(title, headers, shown, "startup.csv", columns, raw)

    def markdown(self) -> str:
        """Return the text of ``startup.md``: what was run, the table, the goal."""
        made = f"Measured {datetime.now(UTC):%Y-%m-%d} by `python -m benchmarks.startup`"
        head = f"# Start-up of the hanoi command\n\n{made}"
        if not self.measured:
            return f"{head}: not measured, {self.skipped}.\n"
        lines = [
            f"{head}, on {sys.implementation.name} {sys.version.split()[0]}.",
            f"Each command runs in {self.runs} fresh processes, in an empty temporary directory; the median CPU "
            f"time (user and system) is compared with `{self.baseline.command}`'s. Where valgrind is installed, "
            f"one run of each is counted. The goal: each starts within {GOAL:g}x the interpreter's CPU time.",
            self.table().markdown(),
        ]
        missed = [f"`{entry.command}`" for entry in self.commands if not self.within_goal(entry)]
        if missed:
            lines.append(f"Over the goal in this run: {', '.join(missed)}.")
        if self.unavailable:
            lines.append(f"No instructions were counted: {self.unavailable}.")
        return "\n\n".join(lines) + "\n"


def _count(instructions: int | None) -> str:
    """Return an instruction count in millions ("" for none).

    >>> _count(187271610), _count(None)
    ('187.3 M', '')
    """
    return "" if instructions is None else f"{instructions / 1e6:.1f} M"


def _ratio(ratio: float | None) -> str:
    """Return a ratio to the interpreter's start-up ("" for none).

    >>> _ratio(2.1949), _ratio(None)
    ('2.19x', '')
    """
    return "" if ratio is None else f"{ratio:.2f}x"


def hanoi_command() -> list[str]:
    """The ``hanoi`` console script beside this interpreter, or ``python -m``."""
    script = Path(sys.executable).with_name("hanoi")
    return [str(script)] if script.exists() else [sys.executable, "-m", "hanoi_harness"]


def cpu_seconds(argv: Sequence[str], cwd: str, runs: int = RUNS) -> float:
    """The median CPU time of *argv* run in *cwd*, over *runs* fresh processes.

    Each run's time is the kernel's count for the child: user plus system.
    """
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=cwd)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def instructions(valgrind: Valgrind | str, argv: Sequence[str], cwd: str) -> int | None:
    """The instructions of one run of *argv* in *cwd* under cachegrind.

    None without valgrind.
    """
    if isinstance(valgrind, str):
        return None
    handle, name = tempfile.mkstemp(prefix="cachegrind.", suffix=".out", dir=cwd)  # one file per count run at once
    os.close(handle)
    out = Path(name)
    options = ["--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"]
    subprocess.run([valgrind.path, *options, *argv], capture_output=True, check=True, cwd=cwd)
    totals = read_totals(out)
    out.unlink(missing_ok=True)
    return None if totals is None else totals[0]


def measure(
    runs: int = RUNS, on_command: Callable[[str], None] | None = None, valgrind: Valgrind | str | None = None
) -> list[Startup]:
    """Measure the start-up of ``python -c pass``, then of each command.

    The commands are those of :data:`COMMANDS`.

    Every CPU time is taken first, one process at a time; then the
    instructions are counted, one valgrind per core (a count does not
    depend on the load).  *on_command(label)* is called as each CPU time
    is taken, and as each count is made (its label then ends in
    "instructions").
    """
    found = find_valgrind() if valgrind is None else valgrind
    cases = [(BASELINE, [sys.executable, "-c", "pass"])]
    cases += [("hanoi " + " ".join(c), [*hanoi_command(), *c]) for c in COMMANDS]
    done = on_command or (lambda label: None)
    with tempfile.TemporaryDirectory(prefix="hanoi-startup-") as cwd:  # no file of a checkout plays a part
        seconds = []
        for label, argv in cases:
            seconds.append(cpu_seconds(argv, cwd, runs))
            done(label)
        if isinstance(found, str):
            return [Startup(label, cpu, None) for (label, _), cpu in zip(cases, seconds, strict=True)]

        def count(case: tuple[str, list[str]]) -> int | None:
            counted = instructions(found, case[1], cwd)
            done(f"{case[0]} instructions")
            return counted

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            counts = list(pool.map(count, cases))
    return [Startup(label, cpu, n) for (label, _), cpu, n in zip(cases, seconds, counts, strict=True)]


def steps(valgrind: Valgrind | str) -> int:
    """Return how often :func:`measure` calls *on_command* with *valgrind*.

    >>> steps("valgrind is not installed")
    4
    """
    return (len(COMMANDS) + 1) * (1 if isinstance(valgrind, str) else 2)


def measure_set(
    runs: int = RUNS, on_command: Callable[[str], None] | None = None, valgrind: Valgrind | str | None = None
) -> StartupSet:
    """Return :func:`measure`'s figures as a run keeps them.

    The record says why no instructions were counted, when none were.

    *valgrind* is as for :func:`measure`: a string is the reason it is missing.
    A command that fails, or cannot be started, is the reason nothing was
    measured (*skipped*) rather than the end of a run minutes long.
    """
    found = find_valgrind() if valgrind is None else valgrind
    try:
        measured = tuple(measure(runs, on_command, found))
    except (subprocess.CalledProcessError, OSError) as exc:
        return StartupSet(runs, (), skipped=f"a start-up failed: {exc}")
    return StartupSet(runs, measured, found if isinstance(found, str) else "")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m benchmarks.startup``: measure, write, print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help=f"fresh processes a command (default {RUNS})")
    parser.add_argument("--out", type=Path, default=Path("results"), help="where to write startup.md and its CSV")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    found = measure_set(args.runs, lambda label: print(f"start-up: {label}", file=sys.stderr))
    if found.measured:
        found.table().write_csv(args.out)
    print(publish(args.out, "startup.md", "Start-up of the hanoi command", found.markdown()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
