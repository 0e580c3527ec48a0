"""Interleaved timing, and the machine's noise floor: one case measured against itself (an A/A run).

Two sets of rounds timed one after the other see different loads: on the
shared 2-core machine a rerun of unchanged code moved single algorithms by up
to 23%.  Timed in alternation, in ABBA order (A B, then B A, ...), a change of
load falls on both alike and a steady drift cancels within each four rounds,
so :func:`hanoi_harness.bench.timing.stats.compare_times` compares like with like.

:func:`noise_floor` times one case against itself that way: whatever
difference the statistics find between two copies of the same code is the
noise of the machine at that moment, the smallest change a run can tell apart.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hanoi_harness.bench.timing.stats import ALPHA, Difference, compare_times

NOISE_N = 14
"""The n the reference is timed against itself at in a bench run (the largest it measured up to this): 16383
moves, about 7 ms a drain, so 20 rounds a side take about 0.3 s."""

ROUNDS = 20
"""Rounds of each side by default: enough for a 95% interval of a median (6 at least) and a Mann-Whitney test
that can reach p < 0.01 (4 rounds a side at the very least)."""


def interleave(
    first: Callable[[], object],
    second: Callable[[], object],
    rounds: int = ROUNDS,
    timer: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], list[float]]:
    """Time *first* and *second* alternately, *rounds* times each, in ABBA order; the seconds of each.

    >>> a, b = interleave(lambda: None, lambda: None, rounds=4)
    >>> len(a), len(b), all(t >= 0 for t in a + b)
    (4, 4, True)
    """
    times: tuple[list[float], list[float]] = ([], [])
    cases = (first, second)
    for index in range(rounds):
        order = (0, 1) if index % 2 == 0 else (1, 0)
        for which in order:
            started = timer()
            cases[which]()
            times[which].append(timer() - started)
    return times


@dataclass(frozen=True)
class NoiseFloor:
    """One *case* timed against itself: its *difference* should be within noise.

    ``margin`` is how far from 1 the ratio's interval reaches: a change
    smaller than that cannot be told from noise in this run.
    """

    case: str
    difference: Difference

    @property
    def margin(self) -> float | None:
        """The larger distance of the interval's ends from 1 (0.03: changes under 3% are noise), or None.

        >>> from hanoi_harness.bench.timing.stats import Interval
        >>> NoiseFloor("a", Difference("within noise", 1.0, Interval(0.98, 1.03), 0.6)).margin
        0.03
        """
        interval = self.difference.interval
        if interval is None:
            return None
        return round(max(1 - interval.low, interval.high - 1, 0.0), 12)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping, ``margin`` included for readers of the file."""
        return {"case": self.case, "difference": self.difference.to_dict(), "margin": self.margin}


def noise_floor(
    case: str,
    run: Callable[[], object],
    rounds: int = ROUNDS,
    alpha: float = ALPHA,
    timer: Callable[[], float] = time.perf_counter,
) -> NoiseFloor:
    """The noise floor now: *run* (the case named *case*) timed against itself, interleaved, *rounds* times a side.

    >>> floor = noise_floor("sum", lambda: sum(range(1000)), rounds=8)
    >>> floor.case, floor.margin is not None
    ('sum', True)
    """
    first, second = interleave(run, run, rounds, timer)
    return NoiseFloor(case, compare_times(first, second, alpha=alpha))
