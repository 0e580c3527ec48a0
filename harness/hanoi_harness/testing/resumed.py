"""The checks of ``solve_from`` (any step) and ``solve_for`` (any ends)."""

from __future__ import annotations

import itertools
from functools import partial

from hanoi_harness.core.puzzle import Config, tower
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing.failures import CheckFailed, verdict_failure, where
from hanoi_harness.testing.records import run_length, sizes
from hanoi_harness.testing.runs import collected, first_difference, judged

FROM_SIZE = 8  #: solve_from is compared with solve at every step of runs up to 2^8 - 1 moves.

TOWERS_SIZE = 6  #: Every pair of whole towers is checked for runs up to 2^6 - 1 moves.

ANY_DISKS = 3  #: Every pair of configurations is checked up to this many disks.


def solve_from(algorithm: Algorithm) -> None:
    """``solve_from(n, k)`` yields what ``solve(n)`` yields from step k on."""
    for n in sizes(algorithm, FROM_SIZE):
        cap = 4 * run_length(algorithm, n) + 16
        whole = collected(algorithm, n, partial(algorithm.moves, n), cap)
        for k in range(1, len(whole) + 1):
            run = f"{where(n)}, solve_from at step {k}"
            tail = collected(algorithm, n, partial(algorithm.moves_from, n, k), cap, run)
            if tail != whole[k - 1 :]:
                index, said = first_difference(tail, whole[k - 1 :])
                raise CheckFailed(f"{run}: step {k + index} is {said} (what solve makes)")


def towers(n: int, pegs: int) -> list[tuple[Config, Config]]:
    """Return every ordered pair of whole towers of n disks on *pegs* pegs.

    >>> towers(1, 3)[:4]
    [((0,), (0,)), ((0,), (1,)), ((0,), (2,)), ((1,), (0,))]
    """
    return [(tower(n, a), tower(n, b)) for a in range(pegs) for b in range(pegs)]


def configurations(n: int, pegs: int) -> list[tuple[Config, Config]]:
    """Every ordered pair of configurations of n disks on *pegs* pegs.

    >>> len(configurations(2, 3))
    81
    """
    every = list(itertools.product(range(pegs), repeat=n))
    return [(start, goal) for start in every for goal in every]


def from_to(algorithm: Algorithm) -> None:
    """Between every two whole towers the run is legal and shortest."""
    pegs = algorithm.puzzle.pegs
    for n in sizes(algorithm, TOWERS_SIZE):
        pairs = towers(n, pegs)
        if algorithm.configurations == "any" and n <= ANY_DISKS:
            pairs = configurations(n, pegs)
        for ends in pairs:
            verdict, recorder = judged(algorithm, n, ends=ends)
            if not verdict.ok:
                raise verdict_failure(algorithm, verdict, recorder, where(n, ends))
