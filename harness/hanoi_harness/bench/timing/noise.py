"""Interleaved timing, and the noise floor: one case timed against itself."""

from __future__ import annotations

import time
from collections.abc import Callable

from msgspec import Struct
from msgspec.structs import force_setattr

from hanoi_harness.bench.results.consistency import kept
from hanoi_harness.bench.timing.stats import ALPHA, Difference, compare_times

NOISE_N = 14  #: The largest n at which a bench run times the reference against itself.

ROUNDS = 20  #: Rounds of each side by default: enough for an interval and a Mann-Whitney test.


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


class NoiseFloor(Struct, frozen=True):
    """One *case* timed against itself: its *difference* ought to be noise.

    >>> from hanoi_harness.bench.timing.stats import Interval
    >>> NoiseFloor("a", Difference("within noise", 1.0, Interval(0.98, 1.03), 0.6)).margin
    0.03
    """

    case: str
    difference: Difference
    margin: float | None = None

    def __post_init__(self) -> None:
        interval = self.difference.interval
        found = None if interval is None else round(max(1 - interval.low, interval.high - 1, 0.0), 12)
        force_setattr(self, "margin", kept(self.margin, found, "margin", "its interval"))


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
