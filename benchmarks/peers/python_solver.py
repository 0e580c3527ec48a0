"""hanoi-python-solver: three pegs, any position to any other, by Dijkstra.

Dijkstra's algorithm runs over all 3^n positions.

The package
    ``hanoi_python_solver.hanoi.Hanoi(n)`` is a game of n <= 10 disks, all
    on rod 1.  Rods are 1, 2, 3 in moves, and ``A``, ``B``, ``C`` in its
    "ABC notation": one letter a disk, the largest first.  ``move((i, j))``
    plays a move.  ``pathToSolution(abc)`` builds, once per game, the graph
    of every position (3^n nodes, each legal move an edge of weight 1).  It
    runs Dijkstra's algorithm from the current position over the whole
    graph.  It returns the positions and the moves ``(i, j)`` of a shortest
    path to *abc*, and checks nothing it returns.

The adapter
    :func:`solve_for` plays the moves of the project's ``any_state`` from
    the whole tower on rod 1 to *start* through ``move`` (the only public
    way to set a position).  It asks ``pathToSolution`` for *goal*.  It
    names the disk of each move by replaying the path from *start*
    (:func:`benchmarks.peers.with_disks`).  Rods 1, 2, 3 are pegs 0, 1,
    2.  ``solve(n)`` is the whole tower from peg 0 to peg 2.

What the tests found (``tests/peers/test_peers.py``)
    Every path is legal and as short as
    :func:`hanoi_harness.core.optimal.distance` says.  That holds for every
    start and goal at n <= 4 (and n = 5 in the slow tests).  Where two
    shortest paths exist it sometimes takes the other one than
    ``any_state``: 2 of 81 pairs at n = 2, 134 of 6561 at n = 4.

    Its limits: n = 0 recurses without end while building the graph
    (``RecursionError``); n > 10 is refused by the constructor
    (``ValueError``).  Every query costs the whole graph, which takes
    seconds to build at n = 10.  Dijkstra explores all 59049 positions
    whatever the distance, so one move, or the 1023 of the whole tower,
    costs seconds.

Source
    ESHome33, "hanoi-python-solver 1.1.0",
    https://pypi.org/project/hanoi-python-solver/ (2024).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from benchmarks.peers import INSTALL, Move, offer, require, with_disks
from hanoi_algorithms.any_state import solve_for as any_state
from hanoi_harness.core.puzzle import tower
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm, Citation, FinalPeg

SOURCE = Citation(
    author="ESHome33",
    title="hanoi-python-solver 1.1.0: Tower of Hanoi game and shortest path to any position",
    site="https://pypi.org/project/hanoi-python-solver/",
    year="2024",
)

MAX_N = 10
"""The constructor's own limit (``Hanoi.max_disk_number``).

A larger game is a ValueError.
"""


def abc(config: tuple[int, ...]) -> str:
    """Return *config* in ABC notation: one letter a disk, the largest first.

    *config* holds the peg of each disk, disk 1 first.

    >>> abc((0, 1, 2))
    'CBA'
    """
    return "".join("ABC"[peg] for peg in reversed(config))


def solve_for(n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """Return the peer's shortest path from configuration *start* to *goal*.

    Both hold the peg (0-2) of each of the n disks, disk 1 first.  Raises
    :class:`UsageError` at once, before any move, when the package is not
    installed.  The peer's own errors (n = 0, n > 10) come from the first
    move, for the checker to report as a crash.
    """
    module = require("hanoi_python_solver.hanoi", "hanoi-python-solver")
    if {*start, *goal} - {0, 1, 2}:
        raise UsageError(f"hanoi_python_solver: pegs are 0, 1 or 2, got {start!r} and {goal!r}")
    return _path(module, n, start, goal)


def _path(module: Any, n: int, start: tuple[int, ...], goal: tuple[int, ...]) -> Iterator[Move]:
    """Yield the moves of the game of *module* from *start* to *goal*.

    They are computed when the first one is asked for.
    """
    game = module.Hanoi(n)
    for _, src, dst in any_state(n, tower(n, 0), start):
        if not game.move((src + 1, dst + 1)):
            raise RuntimeError(f"Hanoi.move refused the legal move {src + 1} -> {dst + 1} on {game.getABC()}")
    path = game.pathToSolution(abc(goal))
    yield from with_disks(((i - 1, j - 1) for i, j in path["moves"]), start, 3)


def solve(n: int) -> Iterator[Move]:
    """Return the peer's shortest path for n disks from peg 0 to peg 2."""
    return solve_for(n, tower(n, 0), tower(n, 2))


RECORD = Algorithm(
    name="hanoi_python_solver",
    solve=solve,
    summary="hanoi-python-solver: Dijkstra over all 3^n positions, any start and goal (peer, unverified upstream)",
    source=SOURCE,
    family="peer: shortest path",
    min_n=1,
    min_n_reason="Hanoi(0) recurses without end while building its graph",
    max_n=MAX_N,
    max_n_reason="Hanoi(n) refuses n > 10 (ValueError); its graph has 3^n positions",
    space="2^n",
    time="n 2^n",
    final_peg=FinalPeg.fixed(2),
    solve_for=solve_for,
    configurations="any",
    origin=f"peer {__name__}",
)

RECORDS = {"DIJKSTRA": RECORD}
"""The plugin this module offers: ``--plugin benchmarks.peers.python_solver:DIJKSTRA``."""

NEEDS = [("hanoi_python_solver", "hanoi-python-solver", INSTALL)]


def __getattr__(name: str) -> Algorithm:
    """Return the record *name* of :data:`RECORDS`, asked for as a plugin.

    A missing peer is a one-line UsageError.
    """
    return offer(RECORDS, __name__, name, needs=NEEDS)
