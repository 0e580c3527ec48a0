"""The check whose n, steps and ends hypothesis draws, past the others."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanoi_harness.core.randomaccess import MAX_N, move_at
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing.failures import CheckFailed, verdict_failure, where
from hanoi_harness.testing.runs import collected, first_difference, judged
from hanoi_harness.testing.strategies import disks, endpoints, steps

RUN_SIZE = 14  #: Drawn runs make at most 2^14 - 1 moves, or the same work.

BETWEEN_SIZE = 10  #: Drawn runs between two configurations: the work of 10 classic disks.

RESUME_N = 60  #: Drawn resumed runs have up to 60 disks: only their first moves are read.

WINDOW = 64  #: The moves of a resumed run compared with the optimal solution's.

EXAMPLES = 40  #: Examples drawn for each algorithm.

Case = tuple[str, int, Any]  #: ("run", n, None), ("between", n, (start, goal)) or ("resume", n, k).


def resumable(algorithm: Algorithm) -> bool:
    """Tell whether *algorithm* is classic and can start from any step."""
    return algorithm.solve_from is not None and algorithm.puzzle.classic


def cases(algorithm: Algorithm) -> st.SearchStrategy[Case]:
    """Return what the examples of *algorithm* draw from: its kinds of run."""
    options: list[st.SearchStrategy[Case]] = [st.tuples(st.just("run"), disks(algorithm, RUN_SIZE), st.none())]
    if algorithm.solve_for is not None:
        between = disks(algorithm, BETWEEN_SIZE).flatmap(
            lambda n: st.tuples(st.just("between"), st.just(n), endpoints(algorithm, n))
        )
        options.append(between)
    if resumable(algorithm):
        high = min(algorithm.max_n if algorithm.max_n is not None else RESUME_N, RESUME_N, MAX_N)
        resumed = st.integers(max(algorithm.min_n, 1), max(high, 1)).flatmap(
            lambda n: st.tuples(st.just("resume"), st.just(n), steps(n))
        )
        options.append(resumed)
    return st.one_of(options)


def drawn(algorithm: Algorithm) -> None:
    """Runs of drawn n, from drawn steps and between drawn ends, as declared."""

    @settings(
        max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(cases(algorithm))
    def example(case: Case) -> None:
        kind, n, more = case
        if kind == "resume":
            resumed(algorithm, n, more)
            return
        ends = more if kind == "between" else None
        verdict, recorder = judged(algorithm, n, ends=ends)
        if not verdict.ok:
            raise verdict_failure(algorithm, verdict, recorder, where(n, ends))

    example()


def resumed(algorithm: Algorithm, n: int, k: int) -> None:
    """Fail unless ``solve_from(n, k)`` starts as the optimal run at step k."""
    pegs = algorithm.final_peg.pegs(n)
    if len(pegs) != 1:
        return  # it may end on either peg: which optimal solution it follows is not known here
    (peg,) = pegs
    count = min(WINDOW, (1 << n) - k)
    wanted = [_to(move_at(n, step), peg) for step in range(k, k + count)]
    run = f"{where(n)}, solve_from at step {k}"
    got = collected(algorithm, n, lambda: algorithm.moves_from(n, k), count, run)
    if got != wanted:
        index, said = first_difference(got, wanted)
        raise CheckFailed(f"{run}: step {k + index} is {said} (the optimal solution's, which solve must make)")


def _to(move: tuple[int, int, int], peg: int) -> tuple[int, int, int]:
    """Return an optimal move to peg 2 as the optimal run to *peg* makes it."""
    disk, src, dst = move
    if peg == 2:
        return move
    swap = {0: 0, 1: 2, 2: 1}
    return (disk, swap[src], swap[dst])
