"""Start-up cost of the ``hanoi`` command, against the bare interpreter.

Each command is run in a fresh process a number of times. Its CPU time
(user and system, as the kernel counts it for the child) is compared with
that of ``python -c pass`` started the same way, as a ratio within one run.
Where valgrind is installed, the instructions of one run of each are counted
too: a figure that does not move with the machine's load.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hanoi_harness.bench.counts.cachegrind import read_totals
from hanoi_harness.bench.counts.measure import Valgrind, find_valgrind

COMMANDS: tuple[tuple[str, ...], ...] = (("--help",), ("list",), ("move", "3", "4"))
"""The commands timed: the ones that must start in a few times the interpreter's own start-up."""

RUNS = 30
"""Fresh processes a command is started in; the median CPU time is kept."""


@dataclass(frozen=True)
class Startup:
    """One command's start-up: its median CPU seconds and instructions."""

    command: str
    cpu_s: float
    instructions: int | None

    def ratio(self, baseline: Startup) -> float:
        """The CPU time of this command over *baseline*'s."""
        return self.cpu_s / baseline.cpu_s


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
    out = Path(cwd) / "cachegrind.out"
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

    *on_command(label)* is called before each is measured.
    """
    found = find_valgrind() if valgrind is None else valgrind
    cases = [("python -c pass", [sys.executable, "-c", "pass"])]
    cases += [("hanoi " + " ".join(c), [*hanoi_command(), *c]) for c in COMMANDS]
    measured = []
    with tempfile.TemporaryDirectory(prefix="hanoi-startup-") as cwd:  # no file of a checkout plays a part
        for label, argv in cases:
            if on_command is not None:
                on_command(label)
            measured.append(Startup(label, cpu_seconds(argv, cwd, runs), instructions(found, argv, cwd)))
    return measured
