"""``hanoi check``: verify the moves another program printed, from a file or standard input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hanoi_harness._cli_common import disks, fail
from hanoi_harness.textcheck import CONVENTIONS, check_lines, describe


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "check",
        help="verify a move list printed by any program (e.g. './a.out 10 | hanoi check -n 10')",
        description="Read moves, one a line, from FILE or standard input and replay them for N disks starting "
        "on the first peg: print the first illegal step with its line, or the verdict. Accepted lines: "
        "'1 0 2', 'A->C', '1: 1 A->C', 'Move disk 1 from A to C', pegs as 0-2, 1-3 or A-C, with or without "
        "disk or step numbers; other lines (blank, 'Total moves: 7') are skipped. The pegs' convention is "
        "read from the first move (letters: A-C; digits: 1-3 when it has no 0 and leaves 1 or names 3, "
        "else 0-2) unless --pegs says. Exit status 0 when legal and optimal, 1 otherwise, 2 for a line "
        "that looks like a move but is not one.",
    )
    p.add_argument("-n", type=disks, required=True, metavar="N", help="the number of disks")
    p.add_argument("file", nargs="?", default="-", metavar="FILE", help="the moves ('-' or nothing: standard input)")
    p.add_argument(
        "--pegs", choices=tuple(CONVENTIONS), help="how the pegs are written (default: read from the first move)"
    )
    p.add_argument(
        "--target",
        metavar="PEG",
        help="the peg the tower must end on, as the input writes it (default: either peg but the first)",
    )
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    if args.file == "-":
        verdict = check_lines(sys.stdin, args.n, pegs=args.pegs, target=args.target)
    else:
        path = Path(args.file)
        try:
            handle = path.open(encoding="utf-8", errors="replace")
        except OSError as exc:
            fail(f"cannot read {args.file!r}: {exc.strerror}")
        with handle:
            verdict = check_lines(handle, args.n, pegs=args.pegs, target=args.target)
    print(describe(verdict, args.n))
    return 0 if verdict.ok else 1
