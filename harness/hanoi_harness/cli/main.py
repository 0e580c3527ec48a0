"""The ``hanoi`` command: argparse subcommands, one module each."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from hanoi_harness.cli.options import Parser
from hanoi_harness.cli.streams import guarded_stdio, say
from hanoi_harness.errors import UsageError
from hanoi_harness.sandbox.interrupts import forget_unhandled_interrupt, interrupted, redelivered_interrupts

TYPE_CHECKING = False  # mypy reads it as True; typing itself is left out of a command's start-up
if TYPE_CHECKING:
    from typing import Any


COMMANDS = {
    "list": ("listing", "show the registered algorithms"),
    "moves": ("moves", "print an algorithm's moves for n disks"),
    "show": ("moves", "print the pegs after each move, for teaching and debugging"),
    "verify": ("verify", "check algorithms for legality and optimality"),
    "move": ("step", "print move K of the optimal solution, without the moves before it"),
    "state": ("step", "print the peg of each disk after K moves"),
    "step": ("step", "print after how many moves the disks stand on the given pegs (the inverse of 'state')"),
    "check": ("check", "verify a move list printed by any program (e.g. './a.out 10 | hanoi check -n 10')"),
    "bench": ("bench", "measure time, peak memory and instructions per move across n and write a results directory"),
    "compare": ("bench", "compare two result sets; exit 1 on a regression"),
    "report": ("bench", "render a results directory's report, tables, plots and README again from its results.json"),
    "history": ("history", "measure each commit's algorithms across a git range: a CSV and an HTML page"),
    "bisect": ("history", "find the first commit whose instructions per move exceed GOOD's beyond the gate"),
    "new": ("new", "write a new variant's project: its module, its conformance tests and its CI gate"),
}
"""Each command: its module in :mod:`hanoi_harness.cli`, and its help line."""


class _Version(argparse.Action):
    """``--version``: the installed version, read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from hanoi_harness import __version__

        print(f"hanoi-harness {__version__}")
        parser.exit()


def build_parser(command: str | None = None) -> Parser:
    """Return the ``hanoi`` parser with the arguments of *command*, or of all."""
    parser = Parser(
        prog="hanoi",
        description="Verify and benchmark Tower of Hanoi algorithms. "
        "Moves are 'DISK SRC DST': disk 1 the smallest, pegs 0, 1, 2, the tower starting on peg 0.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, summary) in COMMANDS.items():
        p = sub.add_parser(name, help=summary)
        if command in (None, name):
            importlib.import_module(f"hanoi_harness.cli.{module}").PARSERS[name](p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hanoi`` command with *argv* and return its exit status."""
    try:
        with redelivered_interrupts(), guarded_stdio():
            return _run(argv)
    except BaseException as exc:  # every ending is an exit status; only an unknown bug keeps its traceback
        status = _status(exc)
        if status is None:
            raise
        return status


def _run(argv: Sequence[str] | None) -> int:
    """Parse *argv*, run its command and return its exit status."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(next((word for word in argv if not word.startswith("-")), ""))  # the command's arguments
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args))
    except SystemExit as exc:  # the commands return their status: this came from code they ran (a plugin)
        raise UsageError(f"code run by 'hanoi {args.command}' asked to exit (SystemExit: {exc.code!r})") from None


def _status(exc: BaseException) -> int | None:
    """Write the one line for *exc* and return its exit status."""
    if interrupted(exc):
        forget_unhandled_interrupt()  # or CPython may end the process by SIGINT after it returns 130
        say("interrupted")
        return 130
    if isinstance(exc, UsageError):
        say(f"error: {exc}")
        return 2
    return None


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())
