"""``hanoi move``, ``state`` and ``step``: any step of any tower, in O(n)."""

from __future__ import annotations

import argparse

from hanoi_harness.cli.options import at_most, big_numbers, non_negative_int
from hanoi_harness.cli.streams import say
from hanoi_harness.core.randomaccess import MAX_K_DIGITS, MAX_N, MAX_N_REASON, NotOnPath, move_at, state_at, step_of

SEQUENCE = "the optimal solution from peg 0 to peg 2 (the 'recursive' sequence)"

disks = at_most(MAX_N, MAX_N_REASON)  #: N: at most a million disks.


def step_number(text: str) -> int:
    """Read the step K from *text*: a non-negative integer, not too long.

    >>> step_number("18446744073709551615")
    18446744073709551615
    """
    if len(text.strip()) > MAX_K_DIGITS + 8:
        raise argparse.ArgumentTypeError(
            f"K has at most {MAX_K_DIGITS} digits (2^{MAX_N} - 1), got {len(text)} characters"
        )
    return non_negative_int(text)


def parse_pegs(text: str, n: int) -> list[int]:
    """Read the pegs of disks 1..*n* (0, 1 or 2 each) from *text*, with commas.

    >>> parse_pegs("1, 1,2", 3)
    [1, 1, 2]
    >>> parse_pegs("", 0)
    []
    """
    from hanoi_harness.core.puzzle import parse_config  # only 'hanoi step' reads pegs

    return list(parse_config(text, 3, n))


def add_move(m: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi move`` to *m*."""
    m.description = (
        f"Print move K (1-based) of {SEQUENCE} for N disks, as 'DISK SRC DST'. "
        f"O(N) arithmetic for N up to {MAX_N:,}: 'hanoi move 64 18446744073709551615' answers at once."
    )
    m.add_argument("n", metavar="N", type=disks, help=f"the number of disks, at most {MAX_N:,}")
    m.add_argument("k", metavar="K", type=step_number, help="the step, 1 .. 2^N - 1")
    m.set_defaults(func=cmd_move)


def add_state(s: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi state`` to *s*."""
    s.description = (
        f"Print the peg (0, 1 or 2) of each disk after K moves of {SEQUENCE} for N disks, "
        f"comma-separated, disk 1 (the smallest) first. O(N) for N up to {MAX_N:,}."
    )
    s.add_argument("n", metavar="N", type=disks, help=f"the number of disks, at most {MAX_N:,}")
    s.add_argument("k", metavar="K", type=step_number, help="the number of moves made, 0 .. 2^N - 1")
    s.set_defaults(func=cmd_state)


def add_step(t: argparse.ArgumentParser) -> None:
    """Add the arguments of ``hanoi step`` to *t*."""
    t.description = (
        f"Print the number of moves of {SEQUENCE} after which disks 1..N stand on PEGS. "
        "A list of pegs always describes a legal configuration (on each peg the disks stack largest "
        "first), but most legal configurations are never passed through: for those the command "
        "says so on stderr and exits 1. Bad input (wrong number of pegs, a peg outside 0-2) exits 2."
    )
    t.add_argument("n", metavar="N", type=disks, help=f"the number of disks, at most {MAX_N:,}")
    t.add_argument("pegs", metavar="PEGS", help="the peg of each disk, disk 1 first, comma-separated, e.g. 1,1,2")
    t.set_defaults(func=cmd_step)


PARSERS = {"move": add_move, "state": add_state, "step": add_step}


def cmd_move(args: argparse.Namespace) -> int:
    n, k = args.n, args.k
    with big_numbers():
        disk, src, dst = move_at(n, k)
        print(f"{disk} {src} {dst}")
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    n, k = args.n, args.k
    with big_numbers():
        pegs = state_at(n, k)
    print(",".join(map(str, pegs)))
    return 0


def cmd_step(args: argparse.Namespace) -> int:
    n = args.n
    pegs = parse_pegs(args.pegs, n)
    try:
        k = step_of(pegs)
    except NotOnPath as exc:
        say(f"not on the optimal path: {exc}")
        return 1
    with big_numbers():
        print(k)
    return 0
