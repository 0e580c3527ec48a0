"""The peers' adapters refuse what they cannot do, in one line, at once.

They refuse what their packages cannot do: fewer than three pegs, a start or goal that is not a whole
tower, a peg outside 0-2.  They refuse before any move.  (The peers' moves: tests/peers/test_peers.py.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.peers import k_peg, python_solver, toys
from hanoi_algorithms import frame_stewart
from hanoi_harness.core.puzzle import tower
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm


@pytest.mark.parametrize("k", [2, True, "4"])
@pytest.mark.parametrize("make", [k_peg.for_pegs, toys.frame_stewart, frame_stewart.for_pegs])
def test_k_peg_records_need_three_pegs_at_least(make: Callable[[int], Algorithm], k: object) -> None:
    with pytest.raises(UsageError, match=f"a puzzle needs at least 3 pegs, got {k!r}"):
        make(k)  # type: ignore[arg-type]


def test_hanoitoys_frame_stewart_takes_the_pegs_it_can_name() -> None:
    assert toys.frame_stewart(toys.MAX_PEGS).puzzle.pegs == 52
    with pytest.raises(UsageError, match="hanoitoys' Frame-Stewart takes 3 to 52 pegs here, got 53"):
        toys.frame_stewart(53)


def test_k_peg_hanoi_moves_whole_towers_only() -> None:
    pytest.importorskip("k_peg_hanoi")
    record = k_peg.for_pegs(4)
    assert record.solve_for is not None
    assert list(record.solve_for(3, tower(3, 1), tower(3, 1))) == []  # already there: no move
    with pytest.raises(UsageError, match="k_peg_hanoi moves whole towers only"):
        record.solve_for(3, (0, 1, 0), tower(3, 3))


def test_the_python_solver_takes_pegs_0_to_2_only() -> None:
    pytest.importorskip("hanoi_python_solver")
    with pytest.raises(UsageError, match=r"pegs are 0, 1 or 2, got \(0, 3\) and \(2, 2\)"):
        python_solver.solve_for(2, (0, 3), (2, 2))
