"""Segmented verification: a run's steps split across processes or Dask.

The segments run on local processes or on a Dask cluster.  An algorithm
whose record declares ``solve_from`` can start at any step.  So the steps
1 .. 2^n - 1 of its run can be verified in segments, side by side.  One
module per concern:

* :mod:`.segments`: segment maths (:func:`plan_segments`,
  :func:`default_segment_size`).  It also gives the optimal run's pegs and
  moves at any step (:func:`optimal_pegs`, :func:`optimal_move`), and which
  records can be split (:func:`splittable`).
* :mod:`.segment`: one segment, :func:`verify_segment`.  Its arguments and
  result are picklable, so a process pool and Dask both run it.  The
  algorithm streams its moves from a process of its own and the worker
  judges them.
* :mod:`.combine`: :func:`combine`, the whole run's verdict from its
  segments'.
* :mod:`.executors`: the one interface segments run through
  (:class:`Executor`) and its two implementations, a local process pool and
  a Dask cluster.
* :mod:`.driver`: :func:`verify_scaled`, which plans, runs, retries and
  combines.

What a segment checks, and why that is enough
    A segment ``first .. last`` starts from the pegs of the optimal solution
    after ``first - 1`` moves.  Those are :func:`optimal_pegs`: the
    reference states of :mod:`hanoi_harness.core.randomaccess`, pegs 1 and 2
    exchanged for a run declared to end on peg 1.  The segment takes
    ``last - first + 1`` moves of ``solve_from(n, first)``.  It replays them
    with the same checker (``check(..., start=first - 1, initial=...,
    partial=True)``), so an illegal move or a crash is reported at its
    global step.

    It then asks for exactly that many moves: fewer is ``incomplete``.  The
    last segment also asks for one move more, and getting it is
    ``not_optimal``.  It asks too for the pegs at its end to be the optimal
    solution's after ``last`` moves.

    The combiner asks the first segment to start from the whole tower on
    peg 0, and each segment to end with the pegs the next one starts from.
    The last one's end must pass the checker's own final test: the whole
    tower on the declared peg after 2^n - 1 moves.  Legality, joins and
    that count alone prove that the segments' moves, end to end, are a
    legal solution of 2^n - 1 moves.  Hence they are the optimal one,
    whatever the reference says.

    The end-of-segment test against the reference pins the blame on the
    segment where a wrong continuation starts.  Take a ``solve_from`` that
    yields a legal but different sequence (an extra pair of moves, a
    continuation of another state).  It cannot end on the optimal path
    after the right number of legal moves.  The optimal path between two of
    its own states is the only path that short: a second one would make a
    second optimal solution.  So a segment that does end there made exactly
    the optimal moves.

    A segment that does not is ``not_optimal``.  It then asks for its moves
    again to compare them with
    :func:`~hanoi_harness.core.randomaccess.move_at` (O(n) a move, only
    then), and names the first step that leaves the path.

    What is verified is ``solve_from``'s output.  Before a run is split,
    :func:`~hanoi_harness.scale.driver.check_solve_from` compares
    ``solve_from(m, 1)`` with ``solve(m)`` at small m.  It refuses a record
    whose two differ.

The digest is a sum over the moves with their global step numbers.  So
the segments' digests add up (mod 2^64) to the sequential one.
"""

from hanoi_harness.scale.combine import combine
from hanoi_harness.scale.driver import ScaleReport, check_solve_from, verify_scaled
from hanoi_harness.scale.executors import DaskCluster, Executor, LocalPool
from hanoi_harness.scale.segment import SegmentResult, Task, run_segment, verify_segment
from hanoi_harness.scale.segments import (
    MAX_SEGMENT,
    MIN_SEGMENT,
    SEGMENTS_PER_WORKER,
    Pegs,
    default_segment_size,
    final_peg_for,
    optimal_move,
    optimal_pegs,
    plan_segments,
    segment_count,
    splittable,
)

__all__ = [
    "MAX_SEGMENT",
    "MIN_SEGMENT",
    "SEGMENTS_PER_WORKER",
    "DaskCluster",
    "Executor",
    "LocalPool",
    "Pegs",
    "ScaleReport",
    "SegmentResult",
    "Task",
    "check_solve_from",
    "combine",
    "default_segment_size",
    "final_peg_for",
    "optimal_move",
    "optimal_pegs",
    "plan_segments",
    "run_segment",
    "segment_count",
    "splittable",
    "verify_scaled",
    "verify_segment",
]
