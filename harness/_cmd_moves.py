"""``hanoi moves`` and ``hanoi show``: an algorithm's moves as text, and the pegs after each."""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterator
from typing import Any

from hanoi_harness._cli_common import MAX_DISKS, add_plugin_option, algorithm_for, disks, fail
from hanoi_harness._cli_streams import write_binary, write_lines
from hanoi_harness.checker import Tower, illegal_reason
from hanoi_harness.digest import digest, digest_chunks


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "moves",
        help="print an algorithm's moves for n disks",
        description="Print the moves of NAME for N disks, one a line as 'DISK SRC DST' "
        "(disk 1 the smallest, pegs 0 1 2), streamed as they are made.",
    )
    p.add_argument("name", metavar="NAME", help="a registered algorithm (see 'hanoi list')")
    p.add_argument("n", metavar="N", type=disks, help=f"the number of disks, at most {MAX_DISKS}")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="print only the number of moves")
    mode.add_argument(
        "--digest",
        action="store_true",
        help="print 'COUNT DIGEST', DIGEST = sum of k*(9*disk+3*src+dst) mod 2^64 over the moves k = 1..COUNT",
    )
    mode.add_argument(
        "--binary",
        action="store_true",
        help="write each move as three unsigned bytes DISK SRC DST, no separators (n <= 255), "
        "for other programs to read at full speed",
    )
    add_plugin_option(p)
    p.set_defaults(func=cmd_moves)

    s = sub.add_parser(
        "show",
        help="print the pegs after each move, for teaching and debugging",
        description="Replay NAME's moves for N disks and print the three pegs (bottom disk first) "
        "after each move; stops at the first illegal move and says why.",
    )
    s.add_argument("name", metavar="NAME", help="a registered algorithm (see 'hanoi list')")
    s.add_argument("n", metavar="N", type=disks, help=f"the number of disks, at most {MAX_DISKS}")
    add_plugin_option(s)
    s.set_defaults(func=cmd_show)


def cmd_moves(args: argparse.Namespace) -> int:
    algorithm = algorithm_for(args, args.n)
    if args.binary and args.n > BINARY_MAX_N:
        fail(f"--binary writes each disk number in one byte: n <= {BINARY_MAX_N}, got {args.n}")
    if algorithm.chunks:
        return _chunked(args, iter(algorithm.solve(args.n)))
    moves = algorithm.moves(args.n)
    if args.count or args.digest:
        count, total = digest(moves)
        write_lines([f"{count} {total}\n" if args.digest else f"{count}\n"])
    elif args.binary:
        write_binary(_packed(moves))
    else:
        write_lines(f"{d} {s} {t}\n" for d, s, t in moves)
    return 0


BINARY_MAX_N = 255
"""--binary stores the disk number in one unsigned byte."""


def _chunked(args: argparse.Namespace, chunks: Iterator[Any]) -> int:
    """``hanoi moves`` for an algorithm that yields (m, 3) arrays: no Python object per move."""
    if args.count or args.digest:
        count, total = digest_chunks(chunks)
        write_lines([f"{count} {total}\n" if args.digest else f"{count}\n"])
    elif args.binary:
        write_binary(_as_bytes(chunk) for chunk in chunks)
    else:
        write_lines("".join(f"{d} {s} {t}\n" for d, s, t in chunk.tolist()) for chunk in chunks)
    return 0


def _as_bytes(chunk: Any) -> Any:
    """_as_bytes(chunk): an (m, 3) array as a buffer of 3m bytes, without a copy when it is uint8 already."""
    import numpy as np

    arr = np.asarray(chunk)
    if arr.ndim != 2 or arr.shape[1:] != (3,) or arr.dtype.kind not in "iu":
        fail(f"a chunk is not an integer array of shape (m, 3) ({arr.dtype}, shape {arr.shape})")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 255):
            fail(f"a move does not fit in three bytes: {arr[(arr < 0) | (arr > 255)].flat[0]} is outside 0..255")
        arr = arr.astype(np.uint8)
    return np.ascontiguousarray(arr).data.cast("B")


def _packed(moves: Iterator[Any]) -> Iterator[bytes]:
    """_packed(moves): the moves as bytes, 65536 moves a block.

    >>> b"".join(_packed(iter([(1, 0, 2), (2, 0, 1)])))
    b'\\x01\\x00\\x02\\x02\\x00\\x01'
    """
    step = 0
    while True:
        block = list(itertools.islice(moves, 1 << 16))
        if not block:
            return
        try:
            yield bytes(itertools.chain.from_iterable(block))
        except (TypeError, ValueError):
            for i, move in enumerate(block, step + 1):
                try:
                    bytes(move)
                    if len(move) != 3:
                        raise ValueError
                except (TypeError, ValueError):
                    fail(f"move {i} ({move!r}) is not three integers 0..255, so it cannot be written as bytes")
            raise
        step += len(block)


SEPARATOR = "-" * 27 + "\n"


def _pegs(tower: Tower) -> str:
    return "".join(f"[{i}] {', '.join(map(str, peg))}".rstrip() + "\n" for i, peg in enumerate(tower.pegs))


def show_lines(moves: Iterator[tuple[int, int, int]], n: int) -> Iterator[str]:
    """show_lines(moves, n): the pegs before the first move and after each, as text blocks.

    >>> print("".join(show_lines(iter([(1, 0, 2)]), 1)), end="")
    [0] 1
    [1]
    [2]
    [step 0] start
    ---------------------------
    [0]
    [1]
    [2] 1
    [step 1] disk 1: 0 -> 2
    ---------------------------
    """
    tower = Tower(n)
    yield _pegs(tower) + "[step 0] start\n" + SEPARATOR
    k = 0
    while True:
        k += 1
        try:
            move = next(moves)
        except StopIteration:
            return
        except Exception as exc:  # the algorithm's failure is part of what is shown
            yield f"[step {k}] crashed: {type(exc).__name__}: {exc}\n"
            return
        reason = illegal_reason(move, tower.pegs)
        if reason is not None:
            yield f"[step {k}] illegal move {move!r}: {reason}\n"
            return
        disk, src, dst = move
        tower.pegs[dst].append(tower.pegs[src].pop())
        yield _pegs(tower) + f"[step {k}] disk {disk}: {src} -> {dst}\n" + SEPARATOR


def cmd_show(args: argparse.Namespace) -> int:
    algorithm = algorithm_for(args, args.n)
    write_lines(show_lines(iter(algorithm.moves(args.n)), args.n))
    return 0
