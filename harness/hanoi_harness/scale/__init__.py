"""Segmented verification: a run's steps split across processes or Dask."""

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
