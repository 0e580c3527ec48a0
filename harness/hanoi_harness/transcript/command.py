"""Other programs as algorithms: a shell command run for n disks, checked."""

from __future__ import annotations

import subprocess
import tempfile
import time

from hanoi_harness import process
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.check import MalformedLine, NoMoves, check_lines


def parse_spec(spec: str) -> tuple[str, str]:
    """The ``(name, command)`` of a ``--command`` *spec*, ``NAME=COMMAND``.

    >>> parse_spec("student=./a.out {n}")
    ('student', './a.out {n}')
    """
    name, sep, command = spec.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier() or not command.strip():
        raise UsageError(f"--command {spec!r}: expected NAME=COMMAND, e.g. 'mine=./hanoi {{n}}'")
    return name, command.strip()


def command_for(template: str, n: int) -> str:
    """The shell command *template* for n disks: each ``{n}`` replaced.

    >>> command_for("./hanoi {n} | tail -n +2", 5)
    './hanoi 5 | tail -n +2'
    """
    return template.replace("{n}", str(n))


def run_command(
    template: str, n: int, *, timeout: float | None = None, pegs: str | None = None, target: str | None = None
) -> tuple[Verdict, float]:
    """Run the shell command *template* for n disks and check its moves.

    Returns ``(verdict, seconds)``; the command is stopped at the first illegal
    move, ``crashed`` on a non-zero exit, ``timed_out`` past *timeout*.
    """
    command = command_for(template, n)
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = process.start(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True, errors="replace"
        )
        timer = process.Watchdog(proc, timeout)
        try:
            _feed(proc, n)
            assert proc.stdout is not None
            verdict = _check_output(proc.stdout, n, pegs, target)
            # After an illegal move, or past the checker's cap on moves, the rest of the output is not read.
            stopped_early = verdict.status == "illegal" or (
                verdict.failure is not None and verdict.failure.rule == "still_moving"
            )
            if stopped_early:
                process.kill_group(proc)
            code = proc.wait()
        finally:
            timer.cancel()
            process.stop(proc)  # the program's group: whatever it started and left running
            if proc.stdout is not None:
                proc.stdout.close()
        elapsed = time.perf_counter() - start
        if timer.fired:
            return Verdict("timed_out", n, verdict.moves, reason=f"no verdict within {timeout:g} s; stopped"), elapsed
        if not stopped_early and code != 0:
            errors.seek(0)
            last = errors.read().decode(errors="replace").strip().splitlines()
            said = f": {last[-1]}" if last else ""
            reason = process.describe_exit(code, "the program", oom_hint=False) + said
            return Verdict("crashed", n, verdict.moves, verdict.digest, reason=reason), elapsed
    return verdict, elapsed


def _check_output(stdout: object, n: int, pegs: str | None, target: str | None) -> Verdict:
    try:
        return check_lines(stdout, n, pegs=pegs, target=target)  # type: ignore[arg-type]
    except MalformedLine as exc:
        step = 1 if exc.line == 1 else None  # the first line: no move before it (later, headers may come first)
        return Verdict("illegal", n, 0, step=step, reason=str(exc), extra={"line": exc.line})
    except NoMoves as exc:
        return Verdict("incomplete", n, 0, reason=str(exc))


def _feed(proc: subprocess.Popen[str], n: int) -> None:
    """Give the program n on standard input and close it."""
    assert proc.stdin is not None
    try:
        proc.stdin.write(f"{n}\n")
        proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass
