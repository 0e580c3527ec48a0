"""Start-up cost of the ``hanoi`` command, against the bare interpreter.

Each command is run in a fresh process a number of times. Its CPU time
(user and system, as the kernel counts it for the child) is compared with
that of ``python -c pass`` started the same way, as a ratio within one run.
Where valgrind is installed, the instructions of one run of each are counted
too: a figure that does not move with the machine's load.  A bench run keeps
them as a :class:`StartupSet`, the ``startup`` record of ``results.json``.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated

import msgspec
from msgspec.structs import force_setattr

from hanoi_harness.bench.counts.cachegrind import read_totals
from hanoi_harness.bench.counts.measure import Valgrind, find_valgrind
from hanoi_harness.bench.results.consistency import check, kept

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


class Startup(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One command's start-up: its median CPU seconds and instructions.

    Its ratios to the baseline's are kept for readers of a result file.
    """

    command: str
    cpu_s: Annotated[float, msgspec.Meta(ge=0.0, le=1e4)]
    cpu_ratio: float | None = msgspec.field(default=None, name="ratio")
    instructions: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)] | None = None
    counted_ratio: float | None = msgspec.field(default=None, name="instruction_ratio")

    def ratio(self, baseline: Startup) -> float:
        """The CPU time of this command over *baseline*'s."""
        return self.cpu_s / baseline.cpu_s

    def instruction_ratio(self, baseline: Startup) -> float | None:
        """This command's instructions over *baseline*'s, or None.

        None unless both were counted.

        >>> hanoi = Startup(command="hanoi list", cpu_s=0.2, instructions=300)
        >>> hanoi.instruction_ratio(Startup(command="", cpu_s=1.0, instructions=100))
        3.0
        >>> hanoi.instruction_ratio(Startup(command="", cpu_s=1.0)) is None
        True
        """
        if self.instructions is None or not baseline.instructions:
            return None
        return self.instructions / baseline.instructions


class StartupSet(msgspec.Struct, frozen=True, omit_defaults=True):
    """The start-up of one bench run: the bare interpreter, then each command.

    *runs* is the processes each CPU time is the median of; *unavailable*
    says why no instructions were counted ("" when they were).  *skipped*
    says why nothing was measured (a command that failed); there is then
    no *baseline* and no *commands*.

    >>> base, hanoi = Startup(command=BASELINE, cpu_s=0.04), Startup(command="hanoi list", cpu_s=0.1)
    >>> found = StartupSet(5, "", base, (hanoi,))
    >>> [entry.command for entry in found.commands], found.ratio(found.commands[0])
    (['hanoi list'], 2.5)
    """

    runs: Annotated[int, msgspec.Meta(ge=1, le=10**6)]
    unavailable: str | None = None
    first: Startup | None = msgspec.field(default=None, name="baseline")
    commands: tuple[Startup, ...] = ()
    skipped: str | None = None

    def __post_init__(self) -> None:
        check(self.skipped is None or bool(self.skipped.strip()), "skipped", "expected why there is none, got none")
        check(self.skipped is not None or self.first is not None, "baseline", "missing")
        for index, entry in enumerate(self.commands):
            where, ratio = f"commands[{index}].", self.ratio(entry)
            force_setattr(
                entry, "cpu_ratio", kept(entry.cpu_ratio, ratio, where + "ratio", "its CPU time and the baseline's")
            )
            counted = entry.instruction_ratio(self.first) if self.first else None
            said = kept(
                entry.counted_ratio, counted, where + "instruction_ratio", "its instructions and the baseline's"
            )
            force_setattr(entry, "counted_ratio", said)

    @property
    def baseline(self) -> Startup:
        """The bare interpreter's start-up; only of a set that was measured."""
        assert self.first is not None, "a start-up skipped has no baseline"
        return self.first

    @property
    def measured(self) -> tuple[Startup, ...]:
        """The bare interpreter's start-up, then each command's."""
        return () if self.first is None else (self.first, *self.commands)

    def ratio(self, entry: Startup) -> float | None:
        """The CPU time of *entry* over the baseline's, or None.

        None when the baseline took no CPU time.
        """
        return entry.ratio(self.first) if self.first is not None and self.first.cpu_s > 0 else None

    def within_goal(self, entry: Startup) -> bool:
        """Whether *entry* starts within :data:`GOAL` times the baseline's CPU."""
        found = self.ratio(entry)
        return found is not None and found <= GOAL


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
            return [Startup(command=label, cpu_s=cpu) for (label, _), cpu in zip(cases, seconds, strict=True)]

        def count(case: tuple[str, list[str]]) -> int | None:
            counted = instructions(found, case[1], cwd)
            done(f"{case[0]} instructions")
            return counted

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            counts = list(pool.map(count, cases))
    each = zip(cases, seconds, counts, strict=True)
    return [Startup(command=label, cpu_s=cpu, instructions=n) for (label, _), cpu, n in each]


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
        return StartupSet(runs, skipped=f"a start-up failed: {exc}")
    return StartupSet(runs, found if isinstance(found, str) else "", measured[0], measured[1:])
