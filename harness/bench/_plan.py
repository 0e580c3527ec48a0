"""What a bench run measures: the knobs of a full and a quick run, and the n of each algorithm.

A full run walks n upward from 1 for each algorithm.  Every measured run is
checked first, and the checker replays each move (400-1000 ns a move with the
relabelling, against a drain of 150-400 ns for a pure-Python port), so the walk
has two budgets: it stops before the n whose drain would pass
``drain_budget_s`` (1 s: the ports stop near n = 21, a drain of 0.4-0.8 s) or
whose check would pass ``check_budget_s`` (8 s, in a child process: an
algorithm faster than the checker stops there, near n = 24), or at the
algorithm's ``max_n``, or at ``n_cap``.  Timing the last n costs about six
drains (pytest-benchmark's calibration and five rounds), so a port costs about
15 s to time and a dozen algorithms about five minutes in all.

A quick run measures a few fixed sizes with few rounds; it is what CI compares
against the committed quick baseline.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from hanoi_harness.registry import Algorithm

Mode = Literal["full", "quick"]


@dataclass(frozen=True)
class Settings:
    """How one run chooses n and how long it times each case.

    ``sizes`` fixes the n to measure (clamped to each algorithm's limits);
    ``None`` means the walk bounded by ``drain_budget_s`` and
    ``check_budget_s``.  ``min_rounds`` and ``max_time_s`` go to
    pytest-benchmark.  Memory is measured for the n whose drain took at most
    ``memory_budget_s`` (tracemalloc slows an allocating drain about
    threefold; a fixed size is always measured); peak RSS at every
    ``rss_stride``-th of those, counting down from the largest (0: the largest
    only).
    """

    mode: Mode
    sizes: tuple[int, ...] | None
    drain_budget_s: float
    check_budget_s: float
    n_cap: int
    min_rounds: int
    max_time_s: float
    memory_budget_s: float
    rss_stride: int
    check_timeout_s: float = 60.0
    check_memory_mb: int = 4096

    def to_dict(self) -> dict[str, Any]:
        """Return the settings as a JSON-ready mapping."""
        data = asdict(self)
        data["sizes"] = list(self.sizes) if self.sizes is not None else None
        return data

    def with_sizes(self, sizes: Iterable[int] | None) -> Settings:
        """Return the same settings measuring exactly *sizes* (unchanged when *sizes* is None).

        >>> QUICK.with_sizes([5, 3, 5]).sizes
        (3, 5)
        """
        if sizes is None:
            return self
        return Settings(**{**asdict(self), "sizes": tuple(sorted(set(sizes)))})


FULL = Settings(
    mode="full",
    sizes=None,
    drain_budget_s=1.0,
    check_budget_s=8.0,
    n_cap=40,
    min_rounds=5,
    max_time_s=0.25,
    memory_budget_s=0.2,
    rss_stride=2,
    check_timeout_s=30.0,  # the walk stops before a check would pass 8 s; 30 s is only reached by a hang
)
"""The full run of ``make bench``: about 5 minutes for a dozen algorithms on 2 cores."""

QUICK = Settings(
    mode="quick",
    sizes=(6, 10, 14),
    drain_budget_s=1.0,
    check_budget_s=8.0,
    n_cap=40,
    min_rounds=5,
    max_time_s=0.05,
    memory_budget_s=0.2,
    rss_stride=0,
    check_timeout_s=10.0,  # n <= 14 checks in well under a second; a hang must not eat the 30 s
)
"""The quick run of CI: three sizes, a few rounds each, peak RSS at the largest only."""


def fixed_sizes(algorithm: Algorithm, sizes: Iterable[int]) -> list[int]:
    """Return *sizes* clamped into *algorithm*'s limits, without repeats.

    An algorithm whose limits exclude every size is measured at the size nearest to them.

    >>> from hanoi_harness.registry import Algorithm
    >>> a = Algorithm(name="a", solve=lambda n: iter(()), summary="", min_n=1, max_n=8)
    >>> fixed_sizes(a, (6, 10, 14))
    [6, 8]
    """
    high = algorithm.max_n
    clamped = {max(algorithm.min_n, n if high is None else min(n, high)) for n in sizes}
    return sorted(clamped)


def walk_start(algorithm: Algorithm) -> int:
    """Return the first n of a full run's walk for *algorithm*: 1, or its minimum.

    n = 0 has no moves, so it has no time per move and is not measured.
    """
    return max(algorithm.min_n, 1)


def walk_top(algorithm: Algorithm, settings: Settings) -> int:
    """Return the largest n a full run's walk of *algorithm* may reach under *settings*."""
    return settings.n_cap if algorithm.max_n is None else min(settings.n_cap, algorithm.max_n)
