"""Interleaved timing, and the noise floor: one case timed against itself.

Two sets of rounds timed one after the other see different loads: on a
shared machine, a rerun of unchanged code can move single algorithms far
more than the changes worth catching.  Timed in alternation, in ABBA order (A B,
then B A, ...), a change of load falls on both alike.  A steady drift
cancels within each four rounds.  So
:func:`hanoi_harness.bench.timing.stats.compare_times` compares like with
like.

:func:`noise_floor` times one case against itself that way (an A/A run).
Whatever difference the statistics find between two copies of the same code
is the noise of the machine at that moment.  It is the smallest change a
run can tell apart.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from msgspec import Struct
from msgspec.structs import force_setattr

from hanoi_harness.bench.results.consistency import kept
from hanoi_harness.bench.timing.stats import ALPHA, Difference, compare_times

NOISE_N = 14
"""The largest n at which a bench run times the reference against itself.

The run takes the reference's largest measured n up to this one.  Its 16383
moves make 20 rounds a side take well under a second.
"""

ROUNDS = 20
"""Rounds of each side by default.

They are enough for a 95% interval of a median (6 at least) and a
Mann-Whitney test that can reach p < 0.01 (4 rounds a side at the least).
"""


def interleave(
    first: Callable[[], object],
    second: Callable[[], object],
    rounds: int = ROUNDS,
    timer: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], list[float]]:
    """Time *first* and *second* alternately, in ABBA order; their seconds.

    Each runs *rounds* times.

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

    ``margin`` is how far from 1 the ratio's interval reaches: a change
    smaller than that cannot be told from noise in this run.  0.03 means
    that changes under 3% are noise; None without an interval.

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

    *case* names the run; each side runs *rounds* times.

    >>> floor = noise_floor("sum", lambda: sum(range(1000)), rounds=8)
    >>> floor.case, floor.margin is not None
    ('sum', True)
    """
    first, second = interleave(run, run, rounds, timer)
    return NoiseFloor(case, compare_times(first, second, alpha=alpha))
