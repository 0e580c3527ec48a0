"""One timed case's figures: statistics, interval, stability, kept rounds."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Annotated

from msgspec import Meta, Struct

from hanoi_harness.bench.results.consistency import ROUNDED, check, close
from hanoi_harness.bench.timing.stats import Interval, median_interval, stability

KEPT_ROUNDS = 32  #: Rounds a result file keeps per case: enough for a Mann-Whitney test and a bootstrap interval.

SIGNIFICANT = 6  #: Significant digits a kept round is written with.

Seconds = Annotated[float, Meta(ge=1e-9, le=1e6)]
"""The bounds of a time per drain or per run, in seconds: every ratio stays finite and non-zero."""

Spread = Annotated[float, Meta(ge=0.0, le=1e6)]
"""A spread of times (IQR, standard deviation), or a round the CPU clock did not see advance: 0 is possible."""


class Timing(Struct, frozen=True):
    """One case's timing, in seconds per drain."""

    median: Seconds
    iqr: Spread
    q1: Spread
    q3: Seconds
    minimum: Spread
    mean: Seconds
    stddev: Spread
    rounds: Annotated[int, Meta(ge=1, le=10**9)]
    iterations: Annotated[int, Meta(ge=1, le=10**12)]
    interval: Interval | None = None
    unstable: Annotated[tuple[str, ...], Meta(max_length=100)] = ()
    samples: Annotated[tuple[Spread, ...], Meta(max_length=KEPT_ROUNDS)] = ()

    def __post_init__(self) -> None:
        median, low = self.median, min(self.samples, default=self.minimum)
        bounds = [("its 95% interval", self.interval.low, self.interval.high)] if self.interval else []
        bounds += [("the rounds it kept", low, max(self.samples))] if self.samples else []
        for what, lowest, highest in bounds:
            inside = lowest * (1 - ROUNDED) <= median <= highest * (1 + ROUNDED)
            check(inside, "median", f"{median:g} s lies outside {what}, {lowest:g} to {highest:g} s")
        check(self.q1 <= median, "q1", f"{self.q1:g} s is above the median, {median:g} s")
        check(self.q3 >= median, "q3", f"{self.q3:g} s is below the median, {median:g} s")
        check(self.minimum <= self.q1, "minimum", f"{self.minimum:g} s is above q1, {self.q1:g} s")
        check(self.mean >= self.minimum, "mean", f"{self.mean:g} s is below the minimum, {self.minimum:g} s")
        check(close(self.iqr, self.q3 - self.q1, 1e-15), "iqr", f"{self.iqr:g} s is not q3 - q1")
        check(len(self.samples) <= self.rounds, "samples", f"{len(self.samples)} kept of {self.rounds} rounds")
        check(low >= self.minimum * (1 - ROUNDED), "samples", f"a kept round is below the minimum, {self.minimum:g} s")

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
