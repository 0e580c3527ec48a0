"""Interleaved timing, and the noise floor: one case timed against itself.

Two sets of rounds timed one after the other see different loads: on a shared machine, a rerun of unchanged
code can move single algorithms far more than the changes worth catching.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hanoi_harness.bench.timing.stats import ALPHA, Difference, compare_times

NOISE_N = 14
"""The largest n at which a bench run times the reference against itself.

The run takes the reference's largest measured n up to this one.  Its 16383 moves make 20 rounds a side take
well under a second.
"""

ROUNDS = 20
"""Rounds of each side by default.

They are enough for a 95% interval of a median (6 at least) and a Mann-Whitney test that can reach p < 0.01 (4
rounds a side at the least).
"""


def interleave(
    first: Callable[[], object],
    second: Callable[[], object],
    rounds: int = ROUNDS,
    timer: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], list[float]]:
    """Time *first* and *second* alternately, in ABBA order; their seconds.

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
    """One *case* timed against itself: its *difference* ought to be noise.

    ``margin`` is how far from 1 the ratio's interval reaches: a change smaller than that cannot be told from
    noise in this run.
    """

    case: str
    difference: Difference

    @property
    def margin(self) -> float | None:
        """The larger distance of the interval's ends from 1, or None.

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
    """Time *run* against itself now, interleaved: the machine's noise floor.

    >>> floor = noise_floor("sum", lambda: sum(range(1000)), rounds=8)
    >>> floor.case, floor.margin is not None
    ('sum', True)
    """
    first, second = interleave(run, run, rounds, timer)
    return NoiseFloor(case, compare_times(first, second, alpha=alpha))
