"""The ``hanoi`` command: argparse subcommands, one ``cmd_*`` function each.

Each subcommand lives in a private module ``hanoi_harness._cmd_*`` that adds its
parser; this module only assembles them and turns errors into exit codes:
bad input is one line on stderr and status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from hanoi_harness import __version__
from hanoi_harness._cli_common import Parser
from hanoi_harness.errors import UsageError

COMMAND_MODULES = (
    "hanoi_harness._cmd_registry",
    "hanoi_harness._cmd_moves",
    "hanoi_harness._cmd_verify",
    "hanoi_harness._cmd_randomaccess",
    "hanoi_harness._cmd_check",
    "hanoi_harness._cmd_bench",
)


def build_parser() -> Parser:
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
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"hanoi: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hanoi: interrupted", file=sys.stderr)
        return 130


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
