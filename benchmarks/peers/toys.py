"""hanoitoys: four printing programs for three pegs, one for k pegs.

The one for k pegs is an interactive Frame-Stewart program.

The package
    Five modules, each a program that prints its moves; none returns them.

    * ``HanoiClassical.DoHanoi(n, level, source, store, dest)``: the
      recursion, printing ``K:Move Disc D from SOURCE to DEST`` with the
      labels it is given.  It reads the globals ``totn`` and ``nmove`` that
      its ``Go()`` dialogue sets.
    * ``HanoiNR.DoHanoi(n, source, store, destination)``: the
      non-recursive solution, printing ``K: Move Disc D ...``.  The move
      number modulo 3 picks the two pegs; the only legal move between them
      is made.
    * ``HanoiOlive.DoOlive(n, i, j)``: Olive's algorithm, pegs 0-2 printed
      ``A``, ``B``, ``C``.  The smallest disk moves every other move, round
      a cycle whose direction depends on the parity of n.
    * ``HanoiIdlePeg.DoIdlePeg(n, i, j)``: the idle-peg algorithm, printed
      the same way.  A token marks the peg that takes no part in the next
      move and steps round the cycle; the one legal move between the other
      two is made.
    * ``Hanoi``: Frame-Stewart for 3 to 76 pegs, as a dialogue that runs
      when the module is imported (number of needles, of discs, graphics
      or not).  It prints ``K:Moving disc from X to Y``, pegs labelled
      ``A``-``Z``, ``a``-``z``, then Greek letters' names, from ``A`` to the
      last.  It imports ``turtle`` (so tkinter) whether or not it draws.

    Disks are numbered from 0, the smallest; ``Hanoi`` does not number
    them.

The adapter
    Each record runs the program in a child Python process: ``python -c``
    calling the function, or ``python -m hanoitoys.Hanoi`` with the
    dialogue's answers on its standard input.  It reads the lines as they
    come and yields each as ``(disk, src, dst)``.  Disk D is disk D + 1 of
    the model; ``A``, ``B``, ``C`` (in that order the next ones) are pegs
    0, 1, 2, ....  ``Hanoi``'s moves get their disk by replay
    (:func:`benchmarks.peers.with_disks`).

    A line that is not a move comes out as a one-element tuple holding it,
    which the checker refuses (``not_a_triple``).  A program that exits
    with another status than 0 is a crash naming its last line on standard
    error.  Closing the generator early (the checker stopping at a
    failure) kills the child.  The child's memory is its own: tracemalloc
    sees only the reading.

What the tests found (``tests/peers/test_peers.py``)
    Every move is legal.  The four 3-peg programs give the classic sequence,
    move for move, from peg 0 to peg 2.  So do ``HanoiClassical``,
    ``HanoiNR`` and ``HanoiIdlePeg`` between any two pegs.

    ``DoOlive(n, i, j)`` does not.  It turns the smallest disk the way that
    suits its own 0 -> 2 (j = i - 1 mod 3), whatever j is.  So with n >= 2
    a transfer one step forward (0 -> 1, 1 -> 2, 2 -> 0) goes on moving
    legally and never gathers the tower.  The checker stops it at
    4 * 2^n + 16 moves.

    ``Hanoi`` takes exactly the Frame-Stewart count: optimal (proven) for 3
    and 4 pegs, the conjectured optimum beyond.  Its limits:

    * ``HanoiClassical.DoHanoi(0, ...)`` recurses without end
      (``RecursionError``).
    * ``DoOlive(0, ...)`` prints ``Bad parameters n=0, i=0, j=2`` instead
      of no moves.
    * ``Hanoi`` asks again for a number of discs below 1, and so ends on
      ``EOFError`` when its input ends.
    * ``Hanoi`` stops with ``IndexError`` at the 77th peg, having no label
      for it (the 76th is ``omega``).  The adapter takes up to 52 pegs,
      those labelled by letters.

    ``HanoiClassical`` and ``HanoiNR`` number their moves from 0, the others
    from 1.

Source
    Daniel L. Bates, "hanoitoys 0.1.3: a collection of Tower of Hanoi
    solutions including the Stewart-Frame algorithm",
    https://pypi.org/project/hanoitoys/ (2022).
"""

from __future__ import annotations

import re
import string
import subprocess
import sys
import tempfile
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any

from benchmarks.peers import INSTALL, Move, offer, require, with_disks
from hanoi_harness import process
from hanoi_harness.core.puzzle import k_pegs, tower
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm, Citation, FinalPeg, between_towers

SOURCE = Citation(
    author="Daniel L. Bates",
    title="hanoitoys 0.1.3: a collection of Tower of Hanoi solutions including the Stewart-Frame algorithm",
    site="https://pypi.org/project/hanoitoys/",
    year="2022",
)

LABELS = string.ascii_uppercase + string.ascii_lowercase
"""The labels of ``Hanoi``'s first 52 pegs, in order.

The next 24 are Greek letters' names.
"""

MAX_PEGS = len(LABELS)
"""The most pegs the adapter takes: those labelled by letters.

The program goes on to 76 with Greek names.
"""

FAMILY = "peer: printing program"
"""The family of every record here: programs run in a child process.

Tracemalloc does not see the child's memory.
"""

PEG_OF = {label: peg for peg, label in enumerate(LABELS)}

# One child program per 3-peg module: it calls the module's function for argv's n and pegs (source,
# spare, destination: 0-2), as the module's own dialogue would, printing to standard output.
CALLS = {
    "classical": "program.totn, program.nmove = n, 0\nprogram.DoHanoi(n, 0, LABELS[a], LABELS[b], LABELS[c])",
    "nr": "program.DoHanoi(n, LABELS[a], LABELS[b], LABELS[c])",
    "olive": "program.DoOlive(n, a, c)",
    "idle_peg": "program.DoIdlePeg(n, a, c)",
}
MODULES = {"classical": "HanoiClassical", "nr": "HanoiNR", "olive": "HanoiOlive", "idle_peg": "HanoiIdlePeg"}
CHILD = (
    "import sys\nimport hanoitoys.{module} as program\nLABELS = 'ABC'\nn, a, b, c = map(int, sys.argv[1:])\n{call}\n"
)

CLASSIC_LINE = re.compile(r"\d+: ?Move Disc (\d+) from ([ABC]) to ([ABC])")
STEWART_LINE = re.compile(r"(?:.*\?)?\d+:Moving disc from (\w+) to (\w+)")
"""A move of ``Hanoi``.

The first one comes after the dialogue's three prompts, on the same line.
"""


def run(what: str, argv: Sequence[str], answers: str = "") -> Generator[str]:
    """Yield the lines the Python program *argv* prints, without their ends.

    The program, named *what*, gets *answers* as its input.  It starts as
    every child of the harness does (:func:`hanoi_harness.process.start`:
    a session of its own, known to the guardian).  It runs with ``-P`` so
    that nothing in the current directory shadows the package.

    Raises :class:`RuntimeError` naming the program's last line on standard
    error when it exits with another status than 0.  The child is killed,
    with whatever it started, when the generator is closed before the end.

    >>> list(run("doubling", ["-c", "print(input('? ') * 2)"], "ab\\n"))
    ['? abab']
    """
    with tempfile.TemporaryFile() as errors:
        child = process.start(
            [sys.executable, "-P", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True
        )
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write(answers)
            child.stdin.close()
            for line in child.stdout:
                yield line.rstrip("\n")
        finally:
            status = process.stop(child)  # after its end, its exit status; closed early, killed here
            child.stdout.close()
        if status != 0:
            errors.seek(0)
            last = (errors.read().decode(errors="replace").strip().splitlines() or ["(nothing)"])[-1]
            raise RuntimeError(f"{what} exited with status {status}: {last}")


def parsed(lines: Iterable[str], pattern: re.Pattern[str], make: Callable[[re.Match[str]], Any]) -> Iterator[Any]:
    """Yield each of *lines* that *pattern* matches whole as ``make(match)``.

    Any other line comes out as a 1-tuple holding it.
    """
    for line in lines:
        match = pattern.fullmatch(line)
        yield make(match) if match else (line,)


def read_classic(match: re.Match[str]) -> Move:
    disk, src, dst = match.groups()
    return (int(disk) + 1, PEG_OF[src], PEG_OF[dst])


def classic_transfer(program: str, n: int, src: int, dst: int) -> Iterator[Move]:
    """Return the moves *program* prints for n disks from peg *src* to *dst*.

    *program* is a key of :data:`CALLS`.
    """
    require("hanoitoys", "hanoitoys")
    code = CHILD.format(module=MODULES[program], call=CALLS[program])
    argv = ["-c", code, *map(str, (n, src, 3 - src - dst, dst))]
    return parsed(run(f"hanoitoys.{MODULES[program]}", argv), CLASSIC_LINE, read_classic)


def stewart_transfer(n: int, k: int) -> Iterator[Move]:
    """Return the moves ``hanoitoys.Hanoi`` prints for n disks on *k* pegs.

    They go from peg 0 to peg *k* - 1, its dialogue answered.
    """
    require("hanoitoys", "hanoitoys")
    pairs = parsed(run("hanoitoys.Hanoi", ["-m", "hanoitoys.Hanoi"], f"{k}\n{n}\nn\n"), STEWART_LINE, read_stewart)
    return with_disks(pairs, tower(n, 0), k)


def read_stewart(match: re.Match[str]) -> tuple[Any, Any]:
    src, dst = match.groups()
    return (PEG_OF.get(src, src), PEG_OF.get(dst, dst))


def classic_record(program: str, name: str, summary: str, *, min_n: int = 0, why: str = "") -> Algorithm:
    """Return the record *name* of the 3-peg program *program*.

    *program* is a key of :data:`CALLS`.
    """

    def solve(n: int) -> Iterator[Move]:
        return classic_transfer(program, n, 0, 2)

    solve.__doc__ = f"hanoitoys.{MODULES[program]}'s moves of n disks from peg 0 to peg 2."
    return Algorithm(
        name=name,
        solve=solve,
        summary=f"hanoitoys: {summary} (peer, a printing program run as a child process)",
        source=SOURCE,
        family=FAMILY,
        min_n=min_n,
        min_n_reason=why,
        space="n",
        time="2^n",
        final_peg=FinalPeg.fixed(2),
        solve_for=between_towers(name, lambda n, src, dst: classic_transfer(program, n, src, dst)),
        origin=f"peer {__name__}",
    )


def frame_stewart(k: int, name: str | None = None) -> Algorithm:
    """Return the record of ``hanoitoys.Hanoi`` for *k* pegs (3 to 52).

    It is named ``hanoitoys_frame_stewart_K`` unless *name* is given.

    >>> frame_stewart(6).puzzle.pegs, frame_stewart(6).final_peg.pegs(3)
    (6, frozenset({5}))
    """
    puzzle = k_pegs(k)  # a UsageError for fewer than three pegs
    if k > MAX_PEGS:
        raise UsageError(f"hanoitoys' Frame-Stewart takes 3 to {MAX_PEGS} pegs here, got {k!r}")

    def solve(n: int) -> Iterator[Move]:
        return stewart_transfer(n, k)

    solve.__doc__ = f"hanoitoys.Hanoi's moves of n disks from peg 0 to peg {k - 1} of {k} pegs."
    return Algorithm(
        name=name or f"hanoitoys_frame_stewart_{k}",
        solve=solve,
        summary=f"hanoitoys: Frame-Stewart on {k} pegs, an interactive program run as a child process (peer)",
        source=SOURCE,
        family=FAMILY,
        min_n=1,
        min_n_reason="its dialogue asks again for a number of discs below 1",
        space="n",
        time="2^n",
        final_peg=FinalPeg.fixed(k - 1),
        puzzle=puzzle,
        origin=f"peer {__name__}",
    )


RECORDS = {
    "CLASSICAL": classic_record(
        "classical", "hanoitoys_classical", "the recursion", min_n=1, why="DoHanoi(0, ...) recurses without end"
    ),
    "NON_RECURSIVE": classic_record("nr", "hanoitoys_nr", "non-recursive, the move number mod 3 picks the pegs"),
    "OLIVE": classic_record(
        "olive", "hanoitoys_olive", "Olive's algorithm", min_n=1, why="DoOlive(0, ...) prints 'Bad parameters'"
    ),
    "IDLE_PEG": classic_record("idle_peg", "hanoitoys_idle_peg", "the idle-peg algorithm"),
    "FRAME_STEWART_4": frame_stewart(4),
    "FRAME_STEWART_5": frame_stewart(5),
}
"""The plugins this module offers, by name.

``--plugin benchmarks.peers.toys:IDLE_PEG`` and the others by these
names.  For other numbers of pegs, call :func:`frame_stewart` in a file of
your own.
"""

NEEDS = [("hanoitoys", "hanoitoys", INSTALL)]
TK = ("tkinter", "tkinter (hanoitoys.Hanoi imports turtle)", "install Python's Tk support, e.g. the python3-tk package")


def __getattr__(name: str) -> Algorithm:
    """Return the record *name* of :data:`RECORDS`, asked for as a plugin.

    A missing peer is a one-line UsageError.
    """
    return offer(RECORDS, __name__, name, needs=[*NEEDS, TK] if name.startswith("FRAME") else NEEDS)
