"""Measure other programs in the bench: ``hanoi bench --command``.

Each is given as ``--command 'NAME=./prog {n}'``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hanoi_harness import process
from hanoi_harness.bench.check import Checked, OnChecked, failed_at, walk_stop
from hanoi_harness.bench.memory.measure import Rss
from hanoi_harness.bench.plan import Settings
from hanoi_harness.transcript.command import command_for, run_command

ORIGIN = "--command"  #: The ``origin`` of a command's entry in results.json.


@dataclass(frozen=True)
class Command:
    """An external program to measure, called *name*."""

    name: str
    template: str

    def limits(self) -> str:
        """No limits: a command declares none."""
        return ""


@dataclass(frozen=True)
class CommandCase:
    """One *command* to time at *n*."""

    command: Command
    n: int
    timeout_s: float | None = None

    @property
    def name(self) -> str:
        return self.command.name

    @property
    def id(self) -> str:
        return f"{self.command.name}-{self.n}"

    def __repr__(self) -> str:
        return self.id


class CommandFailed(RuntimeError):
    """A timed or measured run of a command failed or ran past its timeout."""


def _spawn(argv: list[str] | str, n: int, stderr: int) -> subprocess.Popen[bytes]:
    """Start *argv* in a session of its own, output discarded, n on stdin."""
    return process.start(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr)


def _finish(proc: subprocess.Popen[bytes], n: int, timeout: float | None) -> int:
    """Give *proc* n on standard input, wait for it and return its exit status."""
    try:
        process.communicate(proc, f"{n}\n".encode(), timeout)
    except subprocess.TimeoutExpired:
        process.stop(proc)
        raise CommandFailed(f"no end within {timeout:g} s; stopped") from None
    finally:
        process.stop(proc)
    return proc.returncode


def run_discarding(template: str, n: int, timeout: float | None = None) -> float:
    """Run the command *template* for n disks; return the seconds it took.

    >>> run_discarding("exit 0", 3) > 0
    True
    """
    started = time.perf_counter()
    code = _finish(_spawn(command_for(template, n), n, subprocess.DEVNULL), n, timeout)
    seconds = time.perf_counter() - started
    if code != 0:
        raise CommandFailed(f"the command exited with status {code}")
    return seconds


_REPORT = (
    "import resource, sys\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "open(sys.argv[2], 'w').write(str(peak))\n"
    "sys.exit(int(sys.argv[1]))\n"
)
"""What the shell execs after the command: it writes the largest ru_maxrss of the shell's children."""

_SCRIPT = 'eval "$1"; exec "$2" -I -S -c "$3" "$?" "$4"'
"""The shell script of a peak-RSS run: the command as a child, then the report (isolated) in its place."""


def peak_rss(template: str, n: int, timeout: float | None = None) -> int:
    """The peak resident set of the command *template* for n disks, in bytes.

    >>> peak_rss(f"{sys.executable} -c 'x = bytearray(2**25)'", 0) > 2**25
    True
    """
    peak, code = _peak_and_status(template, n, timeout)
    if code != 0:
        raise CommandFailed(f"the command exited with status {code}")
    return peak


def _peak_and_status(template: str, n: int, timeout: float | None) -> tuple[int, int]:
    """Return what :func:`peak_rss` measures, and the command's exit status."""
    with tempfile.TemporaryDirectory(prefix="hanoi-rss-") as work:
        out = Path(work) / "peak"
        argv = ["/bin/sh", "-c", _SCRIPT, "sh", command_for(template, n), sys.executable, _REPORT, str(out)]
        code = _finish(_spawn(argv, n, subprocess.DEVNULL), n, timeout)
        if not out.is_file():
            raise CommandFailed(f"the command ended its shell (status {code}) before its peak RSS could be read")
        kib_or_bytes = int(out.read_text())
    return (kib_or_bytes if sys.platform == "darwin" else kib_or_bytes * 1024), code  # Linux counts KiB


def check_commands(
    commands: Sequence[Command],
    settings: Settings,
    on_checked: OnChecked | None = None,
) -> dict[str, Checked]:
    """Check each of *commands* at the fixed sizes of *settings*, or by a walk."""
    found: dict[str, Checked] = {}
    for command in commands:
        checked = found[command.name] = Checked(command.name)
        if settings.sizes is not None:
            for n in settings.sizes:
                if not _check_one(command, n, checked, settings, on_checked):
                    break
            checked.stopped = checked.stopped or "fixed sizes"
            continue
        for n in range(1, settings.n_cap + 1):
            if not _check_one(command, n, checked, settings, on_checked):
                break
            try:
                checked.drain_s[n] = drained = run_discarding(command.template, n, settings.check_timeout_s)
            except CommandFailed as exc:
                checked.stopped = f"its run to /dev/null failed at n = {n}: {exc}"
                del checked.check_s[n]
                checked.ns.pop()
                break
            stop = walk_stop(n, settings.n_cap, "the cap", drained, checked.check_s[n], settings)
            if stop:
                checked.stopped = stop
                break
    return found


def _check_one(command: Command, n: int, checked: Checked, settings: Settings, on_checked: OnChecked | None) -> bool:
    """Check *command* at n and record it in *checked*; False when it failed."""
    verdict, seconds = run_command(command.template, n, timeout=settings.check_timeout_s)
    if on_checked is not None:
        on_checked(command.name, n)
    if not verdict.ok:
        checked.failure = verdict
        checked.stopped = failed_at(n, verdict)
        checked.ns.clear()
        checked.check_s.clear()
        checked.drain_s.clear()
        return False
    checked.ns.append(n)
    checked.check_s[n] = seconds
    checked.moves[n] = verdict.moves
    return True


def rss_runs(
    command: Command, ns: Sequence[int], timeout: Callable[[int], float], on_done: OnChecked | None = None
) -> dict[tuple[str, int], Rss | str]:
    """Return the peak RSS of *command* at each n of *ns*, or why not."""
    try:
        baseline = _mib(_peak_and_status(command.template, 0, timeout(0))[0])
    except CommandFailed:
        baseline = 0.0
    found: dict[tuple[str, int], Rss | str] = {}
    for n in ns:
        try:
            found[(command.name, n)] = Rss(_mib(peak_rss(command.template, n, timeout(n))), baseline)
        except CommandFailed as exc:
            found[(command.name, n)] = str(exc)
        if on_done is not None:
            on_done(command.name, n)
    return found


def _mib(size: int) -> float:
    return size / 2**20
