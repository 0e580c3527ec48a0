"""What the tests share: the registry under test, the reference sequence, an in-process CLI
runner, a printer program for external-command tests, and hypothesis strategies.

Tests import from here, never from ``conftest.py`` or from one another.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from hypothesis import strategies as st

from hanoi_harness.registry import Algorithm, build_registry

Moves = list[tuple[int, int, int]]

REGISTRY = build_registry()
ALGORITHMS = list(REGISTRY)


def reference(n: int) -> Iterator[tuple[int, int, int]]:
    """The reference sequence of n disks from peg 0 to peg 2, written here without the package's code."""

    def go(k: int, a: int, b: int, c: int) -> Iterator[tuple[int, int, int]]:
        if k:
            yield from go(k - 1, a, c, b)
            yield (k, a, c)
            yield from go(k - 1, b, a, c)

    return go(n, 0, 1, 2)


def expected(algorithm: Algorithm, n: int) -> Iterator[tuple[int, int, int]]:
    """The reference sequence as *algorithm* must give it for n disks.

    The optimal solution to a given peg is unique, so only pegs 1 and 2 are
    exchanged when the record says the tower ends on peg 1.
    """
    targets = algorithm.final_peg.pegs(n)
    swap = (0, 2, 1) if targets == {1} else (0, 1, 2)
    return ((d, swap[s], swap[t]) for d, s, t in reference(n))


def sizes(algorithm: Algorithm, top: int) -> list[int]:
    """The n from *algorithm*'s minimum up to *top*, within its limits."""
    high = top if algorithm.max_n is None else min(top, algorithm.max_n)
    return list(range(algorithm.min_n, high + 1))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the ``hanoi`` command with *argv* in this process: its exit status, stdout and stderr."""
    from hanoi_harness.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (errors, --help)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether process *pid* has ended (or is a zombie waiting to be reaped) within *within* seconds."""
    end = time.monotonic() + within
    while True:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(0.02)


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Assert exit status 2 and a single line on stderr that contains every one of *fragments*."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


PRINTER = """\
import sys

def hanoi(n, a, b, c):
    if n:
        yield from hanoi(n - 1, a, c, b)
        yield n, a, c
        yield from hanoi(n - 1, b, a, c)

n = int(sys.argv[1]) if len(sys.argv) > 1 else int(input())
mode = sys.argv[2] if len(sys.argv) > 2 else "ok"
print(f"Tower of Hanoi: {n} disks")
for k, (d, a, c) in enumerate(hanoi(n, "A", "B", "C"), 1):
    if mode == "illegal" and k == 3:
        print(f"Move disk {d} from {c} to {a}")
        while True:  # keeps printing: the checker must stop it
            print("Move disk 1 from A to B", flush=True)
    if mode == "garbled" and k == 2:
        print("Move disk 2 from A to")
    print(f"Move disk {d} from {a} to {c}")
if mode == "wrong" and n >= 3:  # one move too many from n = 3 on
    print("Move disk 1 from C to A")
if mode == "crash":
    sys.exit(3)
if mode == "hang":
    import time
    time.sleep(60)
"""
"""A Python program printing the moves for n (its first argument, or read from standard input), with
a *mode* second argument that makes it misbehave: illegal, garbled, wrong, crash or hang."""


def printer_command(directory: Path) -> str:
    """Write :data:`PRINTER` into *directory*; the shell command that runs it (``-S -E``: 15 ms to start, not 40)."""
    path = directory / "printer.py"
    path.write_text(PRINTER)
    return f"{shlex.quote(sys.executable)} -S -E {shlex.quote(str(path))}"


@st.composite
def legal_prefixes(draw: st.DrawFn, max_n: int = 5, max_len: int = 60) -> tuple[int, Moves]:
    """Random legal sequences of up to *max_len* moves of at most *max_n* disks, then a random tail of up to 3."""
    n = draw(st.integers(1, max_n))
    where = [0] * (n + 1)
    moves: Moves = []
    for _ in range(draw(st.integers(0, max_len))):
        tops = {}
        for d in range(n, 0, -1):
            tops[where[d]] = d
        options = [(d, s, t) for s, d in tops.items() for t in (0, 1, 2) if t != s and (t not in tops or tops[t] > d)]
        d, s, t = draw(st.sampled_from(sorted(options)))
        where[d] = t
        moves.append((d, s, t))
    moves += draw(st.lists(st.tuples(st.integers(1, n), st.integers(0, 2), st.integers(0, 2)), max_size=3))
    return n, moves
