"""One timed case's figures: statistics, interval, stability, kept rounds.

They are the statistics pytest-benchmark reports, the 95% interval of the median, a stability flag, and a
sample of the rounds for later tests.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hanoi_harness.bench.timing.stats import Interval, median_interval, stability

KEPT_ROUNDS = 32
"""Rounds a result file keeps per case.

32 give a Mann-Whitney test that can reach p < 0.001 and a bootstrap interval whose ends settle, and keep a
full run's results.json small.
"""

SIGNIFICANT = 6
"""Significant digits a kept round is written with.

A millionth of a round is far below any machine's noise.
"""

SECONDS = (1e-9, 1e6)
"""The bounds of a time per drain or per run, in seconds.

At least a nanosecond, far less than a generator takes just to start, and at most 11.6 days.  Bounding it
below keeps every ratio the gate takes finite and non-zero.
"""

SPREAD = (0.0, 1e6)
"""A spread of times (IQR, standard deviation): 0 is possible."""

NOT_KEPT = "its rounds were not kept (a result file of schema 1 or 2)"
"""The stability reason of a timing whose file kept no rounds.

Files of schema 1 and 2 were written before rounds were kept.
"""


@dataclass(frozen=True)
class Timing:
    """One case's timing, in seconds per drain.

    The statistics are pytest-benchmark's over its rounds (each round times ``iterations`` drains and is
    divided by them). ``interval`` is the 95% interval of the median (None under 6 rounds).
    """

    median: float
    iqr: float
    q1: float
    q3: float
    minimum: float
    mean: float
    stddev: float
    rounds: int
    iterations: int
    interval: Interval | None = None
    unstable: tuple[str, ...] = ()
    samples: tuple[float, ...] = ()

    @property
    def stable(self) -> bool:
        """True when nothing is wrong with the rounds."""
        return not self.unstable

    @property
    def margin(self) -> float | None:
        """How far the interval reaches from the median, as a share of it.

        >>> Timing(1.0, 0, 1, 1, 1, 1, 0, 8, 1, Interval(0.97, 1.05)).margin
        0.05
        """
        if self.interval is None:
            return None
        return round(max(self.median - self.interval.low, self.interval.high - self.median) / self.median, 12)

    def to_dict(self) -> dict[str, Any]:
        """The timing as a JSON-ready mapping."""
        return {
            "median": self.median,
            "iqr": self.iqr,
            "q1": self.q1,
            "q3": self.q3,
            "minimum": self.minimum,
            "mean": self.mean,
            "stddev": self.stddev,
            "rounds": self.rounds,
            "iterations": self.iterations,
            "interval": self.interval.to_dict() if self.interval else None,
            "unstable": list(self.unstable),
            "samples": list(self.samples),
        }

    @classmethod
    def from_rounds(cls, rounds: Sequence[float], iterations: int = 1) -> Timing:
        """Return the timing of *rounds*, seconds per drain, pooled.

        >>> t = Timing.from_rounds([1.0 + (i % 5) / 500 for i in range(40)])
        >>> t.stable, t.rounds, len(t.samples), t.interval.low <= 1.004 <= t.interval.high
        (True, 40, 32, True)
        """
        if not rounds:
            raise ValueError("a timing needs at least one round")
        data = [float(value) for value in rounds]
        q1, _, q3 = statistics.quantiles(data, n=4, method="inclusive") if len(data) > 1 else (data[0],) * 3
        return cls(
            median=statistics.median(data),
            iqr=q3 - q1,
            q1=q1,
            q3=q3,
            minimum=min(data),
            mean=statistics.fmean(data),
            stddev=statistics.stdev(data) if len(data) > 1 else 0.0,
            rounds=len(data),
            iterations=iterations,
            interval=median_interval(data),
            unstable=stability([value * iterations for value in data]).reasons,
            samples=kept(data),
        )


def kept(rounds: Sequence[float], most: int = KEPT_ROUNDS) -> tuple[float, ...]:
    """Return at most *most* of *rounds*, evenly spaced in their order.

    >>> kept([1.0, 2.0, 3.0, 4.0, 5.0], most=3)
    (1.0, 3.0, 5.0)
    >>> kept([0.1234567891])
    (0.123457,)
    """
    if len(rounds) > most:
        step = (len(rounds) - 1) / (most - 1)
        rounds = [rounds[round(i * step)] for i in range(most)]
    return tuple(float(f"{value:.{SIGNIFICANT}g}") for value in rounds)
