"""What a bench run measures: a full and a quick run, and the n measured.

Sizes are the classic puzzle's n: a run of n disks makes 2^n - 1 moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from hanoi_harness.registry.record import Algorithm

Mode = Literal["full", "quick"]

COUNT_SIZES = (10, 14)
"""The classic n instructions are counted between: the same in a full and a quick run."""

DEFAULT_THRESHOLD_PCT = 1.0
"""The gate's threshold: a deterministic figure may grow by this much before it is a regression."""

DEFAULT_TIME_THRESHOLD_PCT = 50.0
"""The gate's threshold of relative time: the whole interval beyond it is a regression."""

COUNT_CAP = 16
"""The largest classic n whose work is counted: every size measured up to it."""


@dataclass(frozen=True)
class Settings:
    """How one run chooses n and how long it times each case."""

    mode: Mode
    sizes: tuple[int, ...] | None
    drain_budget_s: float
    check_budget_s: float
    n_cap: int
    min_rounds: int
    max_time_s: float
    memory_budget_s: float
    rss_stride: int
    passes: int = 1
    check_timeout_s: float = 60.0
    check_memory_mb: int = 4096
    count_sizes: tuple[int, int] = COUNT_SIZES
    count_cap: int = COUNT_CAP

    def with_sizes(self, sizes: Iterable[int] | None) -> Settings:
        """Return the same settings measuring exactly *sizes*.

        >>> QUICK.with_sizes([5, 3, 5]).sizes
        (3, 5)
        """
        if sizes is None:
            return self
        return replace(self, sizes=tuple(sorted(set(sizes))))


FULL = Settings(
    mode="full",
    sizes=None,
    drain_budget_s=1.0,
    check_budget_s=8.0,
    n_cap=40,
    min_rounds=30,  # 5 a pass: enough rounds for the median's 95% interval to stay within 10%
    max_time_s=0.5,
    memory_budget_s=0.2,
    rss_stride=2,
    passes=6,  # each case at six moments of the timing phase, in a shuffled order
    check_timeout_s=30.0,  # the walk stops before a check would pass 8 s; 30 s is only reached by a hang
)
"""The full run of ``make bench``."""

QUICK = Settings(
    mode="quick",
    sizes=(6, 10, 14),
    drain_budget_s=1.0,
    check_budget_s=8.0,
    n_cap=40,
    min_rounds=9,  # from 9 rounds on, the interval leaves out the fastest and the slowest round
    max_time_s=0.05,
    memory_budget_s=0.2,
    rss_stride=0,
    passes=3,
    check_timeout_s=10.0,  # n <= 14 checks in well under a second; a hang must not eat the 30 s
)
"""The quick run of CI: three sizes, a few rounds each, peak RSS at the largest only."""


MAX_N = 1000
"""The most disks a plan asks of an algorithm without a ``max_n``."""


def moves_at(algorithm: Algorithm, n: int) -> int:
    """Return the moves of *algorithm*'s run of n disks.

    >>> from hanoi_harness.core.puzzle import LINEAR, k_pegs
    >>> from hanoi_harness.registry.record import FinalPeg
    >>> a = Algorithm(name="a", solve=lambda n: iter(()), summary="")
    >>> moves_at(a, 10), moves_at(Algorithm(name="b", solve=a.solve, summary="", puzzle=LINEAR), 3)
    (1023, 26)
    >>> moves_at(Algorithm(name="c", solve=a.solve, summary="", puzzle=k_pegs(4), final_peg=FinalPeg.fixed(3)), 10)
    49
    """
    known = [found.moves for peg in algorithm.final_peg.pegs(n) if (found := algorithm.puzzle.optimum(n, peg))]
    # Every puzzle a record may declare knows its count from one whole tower to another; 2^n - 1 is only a guard.
    return max(known) if known else (1 << n) - 1


def fixed_sizes(algorithm: Algorithm, sizes: Iterable[int]) -> list[int]:
    """Return the n of *algorithm* that do the work of the classic *sizes*.

    >>> a = Algorithm(name="a", solve=lambda n: iter(()), summary="", min_n=1, max_n=8)
    >>> fixed_sizes(a, (6, 10, 14))
    [6, 8]
    >>> from hanoi_harness.core.puzzle import LINEAR
    >>> fixed_sizes(Algorithm(name="b", solve=a.solve, summary="", puzzle=LINEAR), (6, 10, 14))
    [3, 6, 8]
    """
    wanted = sorted(set(sizes))
    if not wanted:
        return []
    found: set[int] = set()
    high = MAX_N if algorithm.max_n is None else min(algorithm.max_n, MAX_N)
    n = algorithm.min_n
    for size in wanted:
        budget = (1 << size) - 1
        while n < high and moves_at(algorithm, n + 1) <= budget:
            n += 1
        found.add(n)
    return sorted(found)


def walk_sizes(algorithm: Algorithm, settings: Settings) -> list[int]:
    """Return the n a full run's walk of *algorithm* goes through, in order.

    >>> from hanoi_harness.core.puzzle import LINEAR
    >>> linear = Algorithm(name="b", solve=lambda n: iter(()), summary="", puzzle=LINEAR)
    >>> walk_sizes(linear, FULL.with_sizes(None))[:6]
    [1, 2, 3, 4, 5, 6]
    >>> walk_sizes(Algorithm(name="a", solve=linear.solve, summary="", max_n=5), FULL)
    [1, 2, 3, 4, 5]
    """
    first = max(algorithm.min_n, 1)
    return [n for n in fixed_sizes(algorithm, range(1, settings.n_cap + 1)) if n >= first]
