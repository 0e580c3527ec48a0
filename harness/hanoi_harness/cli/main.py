"""The ``hanoi`` command: argparse subcommands, one ``cmd_*`` function each.

Each subcommand lives in a private module ``hanoi_harness._cmd_*`` that adds its
parser; this module only assembles them and turns every way a command can end
into an exit status with at most one line on stderr, never a traceback:

* bad input (:class:`~hanoi_harness.errors.UsageError`), and standard output
  that cannot be written (closed, or a full disk): one line, status 2;
* the reader of stdout gone (``| head``): quiet, the command's usual status;
* Ctrl-C anywhere in :func:`main`, even inside an import: ``hanoi: interrupted``,
  status 130.  (Before ``main``, while Python imports the package itself, it
  is still Python's traceback.)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from hanoi_harness.cli.options import Parser
from hanoi_harness.cli.streams import guarded_stdio, say
from hanoi_harness.errors import UsageError
from hanoi_harness.sandbox.interrupts import forget_unhandled_interrupt, interrupted, redelivered_interrupts

COMMAND_MODULES = (
    "hanoi_harness.cli.listing",
    "hanoi_harness.cli.moves",
    "hanoi_harness.cli.verify",
    "hanoi_harness.cli.step",
    "hanoi_harness.cli.check",
    "hanoi_harness.cli.bench",
    "hanoi_harness.cli.new",
)


def build_parser() -> Parser:
    from hanoi_harness import __version__

    parser = Parser(
        prog="hanoi",
        description="Verify and benchmark Tower of Hanoi algorithms. "
        "Moves are 'DISK SRC DST': disk 1 the smallest, pegs 0, 1, 2, the tower starting on peg 0.",
    )
    parser.add_argument("--version", action="version", version=f"hanoi-harness {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hanoi`` command with the arguments *argv* (default: the process's); its exit status."""
    try:
        with redelivered_interrupts(), guarded_stdio():
            return _run(argv)
    except BaseException as exc:  # every ending is an exit status; only an unknown bug keeps its traceback
        status = _status(exc)
        if status is None:
            raise
        return status


def _run(argv: Sequence[str] | None) -> int:
    """Parse *argv* and run its command; argparse's own exits (--help, bad options) become their status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args))
    except SystemExit as exc:  # the commands return their status: this came from code they ran (a plugin)
        raise UsageError(f"code run by 'hanoi {args.command}' asked to exit (SystemExit: {exc.code!r})") from None


def _status(exc: BaseException) -> int | None:
    """The exit status for *exc* once its one line is written, or None for a bug (its traceback is shown)."""
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
